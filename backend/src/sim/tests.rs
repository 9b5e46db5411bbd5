//! Tests of the simulator: the seed listings (diamond, multi_exit with its EXEC walkthrough),
//! waitcnt hazards, a wrong EXEC restore, a SIMT deadlock, barriers with LDS, every ALU op
//! against a Rust reference, the f32 division sequence, memory faults and parse errors, long
//! branches through `s_getpc_b64` / `s_setpc_b64`.
//! `backend/tests/sim_api.rs` checks the listings assemble with llvm-mc-22.

use super::exec::{step, Flow, Shared, Stop, Wave, EXEC, VCC};
use super::mem::{Lds, MemView};
use super::*;
use std::cell::RefCell;

const DIAMOND: &str = include_str!("testdata/diamond.s");
const MULTI_EXIT: &str = include_str!("testdata/multi_exit.s");
const BARRIER_LDS: &str = include_str!("testdata/barrier_lds.s");
const FDIV: &str = include_str!("testdata/fdiv.s");
const SPIN: &str = include_str!("testdata/spin.s");
const LONG_BRANCH: &str = include_str!("testdata/long_branch.s");
const DIAMOND_FORK: &str = include_str!("testdata/diamond_fork.s");

pub(super) const OUT: u64 = 0x1000;

fn launch(kernel: &str, grid: u32, block: u32, kernarg: &[u64]) -> Launch {
    Launch {
        kernel: kernel.into(),
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        kernarg: kernarg.iter().flat_map(|v| v.to_le_bytes()).collect(),
    }
}

pub(super) fn words(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn run_diamond(text: &str, block: u32) -> Vec<u32> {
    let p = parse(text).unwrap();
    let mut mem = Memory {
        allocs: vec![(OUT, words(&[0xdead; 128]))],
        ..Default::default()
    };
    run(
        &p,
        &launch("diamond", 1, block, &[OUT]),
        &mut mem,
        &SimOptions::default(),
    )
    .unwrap();
    mem.dwords(OUT).unwrap()
}

#[test]
fn diamond_64_and_8_lanes() {
    for block in [64u32, 8] {
        let out = run_diamond(DIAMOND, block);
        for t in 0..64 {
            let (want_a, want_b) = match (t < block, t) {
                (false, _) => (0xdead, 0xdead),
                (true, 0) => (1, 3),
                (true, _) => (2, 3),
            };
            assert_eq!(
                (out[t as usize], out[64 + t as usize]),
                (want_a, want_b),
                "tid {t}"
            );
        }
    }
}

#[test]
fn diamond_descriptor_and_metadata_exposed() {
    let p = parse(DIAMOND).unwrap();
    let k = p.kernel("diamond").unwrap();
    assert_eq!(k.desc.kernarg_size, 8);
    assert_eq!(k.desc.next_free_vgpr, 3);
    assert_eq!(k.desc.next_free_sgpr, 6);
    assert!(k.desc.user_sgpr_kernarg_segment_ptr);
    assert_eq!((k.vgprs_used, k.sgprs_used), (3, 6));
    assert!(p
        .metadata
        .as_deref()
        .unwrap()
        .contains(".name:           diamond"));
}

#[test]
fn wrong_exec_restore_changes_memory() {
    let bad = DIAMOND.replace("s_or_b64 exec, exec, s[4:5]", "s_mov_b64 exec, s[4:5]");
    assert_ne!(bad, DIAMOND);
    let (good, bad) = (run_diamond(DIAMOND, 64), run_diamond(&bad, 64));
    assert_ne!(good, bad);
    // The merge block ran only for the lanes saved at the Flow block (tid != 0).
    assert_eq!(bad[64], 0xdead);
    assert_eq!(bad[65], 3);
}

fn traced(p: &Program, l: &Launch, mem: &mut Memory) -> Vec<(String, u64)> {
    let lines = Rc::new(RefCell::new(Vec::new()));
    let sink = lines.clone();
    let opts = SimOptions {
        trace: Some(Rc::new(move |t: &TraceLine| {
            sink.borrow_mut()
                .push((t.text.to_string(), t.exec, t.to_string()))
        })),
        ..SimOptions::default()
    };
    run(p, l, mem, &opts).unwrap();
    let v = lines.borrow();
    v.iter().map(|(t, e, _)| (t.clone(), *e)).collect()
}

#[test]
fn multi_exit_exec_walkthrough() {
    // The seed's walkthrough: 8 threads, c1 = 3, c2 = 2.
    let p = parse(MULTI_EXIT).unwrap();
    let (out, cond) = (OUT, OUT + 0x100);
    let mut mem = Memory {
        allocs: vec![(out, words(&[7, 7])), (cond, words(&[3, 2]))],
        ..Default::default()
    };
    let trace = traced(&p, &launch("multi_exit", 1, 8, &[out, cond]), &mut mem);
    let exec_after = |text: &str, nth: usize| {
        trace
            .iter()
            .filter(|(t, _)| t.starts_with(text))
            .nth(nth)
            .unwrap_or_else(|| panic!("`{text}` #{nth} not executed"))
            .1
    };
    let m = |s: &str| u64::from_str_radix(s, 2).unwrap();
    assert_eq!(exec_after("v_cmp_le_i32_e32 vcc, v0, v2", 0), m("11111111"));
    assert_eq!(
        exec_after("s_and_saveexec_b64 s[6:7], vcc", 0),
        m("00001111")
    );
    assert_eq!(
        exec_after("s_and_saveexec_b64 s[8:9], vcc", 0),
        m("00000111")
    );
    assert_eq!(
        exec_after("global_store_dword v3, v1, s[0:1]", 0),
        m("00000111")
    );
    assert_eq!(exec_after("s_or_b64 exec, exec, s[8:9]", 0), m("00001111"));
    assert_eq!(exec_after("s_or_b64 exec, exec, s[6:7]", 0), m("11111111"));
    assert_eq!(
        exec_after("s_and_saveexec_b64 s[2:3], s[4:5]", 0),
        m("11111000")
    );
    assert_eq!(exec_after("global_store_dword v3, v3", 0), m("11111000"));
    assert_eq!(mem.dwords(out).unwrap(), vec![42, 0]);
}

#[test]
fn trace_line_format() {
    let p = parse(MULTI_EXIT).unwrap();
    let mut mem = Memory {
        allocs: vec![(OUT, words(&[0, 0])), (OUT + 0x100, words(&[3, 2]))],
        ..Default::default()
    };
    let lines = Rc::new(RefCell::new(Vec::new()));
    let sink = lines.clone();
    let opts = SimOptions {
        trace: Some(Rc::new(move |t: &TraceLine| {
            sink.borrow_mut().push(t.to_string())
        })),
        ..SimOptions::default()
    };
    run(
        &p,
        &launch("multi_exit", 1, 8, &[OUT, OUT + 0x100]),
        &mut mem,
        &opts,
    )
    .unwrap();
    let lines = lines.borrow();
    let l = lines
        .iter()
        .find(|l| l.contains("s_or_b64 exec, exec, s[8:9]"))
        .unwrap();
    assert!(l.starts_with("w0 .LBB1_3 "), "{l}");
    assert!(
        l.ends_with(&format!("exec={}00001111", "0".repeat(56))),
        "{l}"
    );
    assert!(lines.iter().any(|l| l.starts_with("w0 multi_exit+1 ")));
}

#[test]
fn use_before_waitcnt_is_an_error() {
    let text = DIAMOND.replace(
        "\tv_mov_b32_e32 v1, 2\n\ts_waitcnt lgkmcnt(0)\n",
        "\tv_mov_b32_e32 v1, 2\n",
    );
    assert_ne!(text, DIAMOND);
    let p = parse(&text).unwrap();
    let mut mem = Memory {
        allocs: vec![(OUT, vec![0; 512])],
        ..Default::default()
    };
    let e = run(
        &p,
        &launch("diamond", 1, 64, &[OUT]),
        &mut mem,
        &SimOptions::default(),
    )
    .unwrap_err();
    match &e {
        SimError::Hazard {
            text,
            reg,
            load_line,
            ..
        } => {
            assert_eq!(text, "global_store_dword v2, v1, s[0:1]");
            assert_eq!(reg, "s0");
            assert_eq!(*load_line, 10);
        }
        e => panic!("{e}"),
    }
    assert!(e.to_string().contains("missing s_waitcnt"), "{e}");
}

#[test]
fn vmcnt_retires_in_order_and_waw_is_an_error() {
    let src = "
k:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_mov_b32_e32 v1, 0
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[2:3]
	global_load_dword v3, v1, s[2:3] offset:4
	s_waitcnt vmcnt(1)
	v_mov_b32_e32 v4, v2
	v_mov_b32_e32 v3, 0
	s_endpgm
	.amdhsa_kernel k
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 5
		.amdhsa_next_free_sgpr 4
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
";
    let p = parse(src).unwrap();
    let mut mem = Memory {
        allocs: vec![(OUT, vec![0; 8])],
        ..Default::default()
    };
    let e = run(
        &p,
        &launch("k", 1, 64, &[OUT]),
        &mut mem,
        &SimOptions::default(),
    )
    .unwrap_err();
    match e {
        SimError::Hazard {
            line,
            load_line,
            reg,
            ..
        } => assert_eq!((line, load_line, reg.as_str()), (10, 7, "v3")),
        e => panic!("{e}"),
    }
}

#[test]
fn lgkmcnt_nonzero_does_not_retire_smem() {
    let src = "
k:
	s_load_dword s2, s[0:1], 0x0
	s_waitcnt lgkmcnt(1)
	s_mov_b32 s3, s2
	s_endpgm
	.amdhsa_kernel k
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 4
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
";
    let p = parse(src).unwrap();
    let e = run(
        &p,
        &launch("k", 1, 1, &[0]),
        &mut Memory::default(),
        &SimOptions::default(),
    );
    assert!(matches!(e, Err(SimError::Hazard { line: 5, .. })), "{e:?}");
}

#[test]
fn spin_loop_reports_no_progress_with_loop_label() {
    let p = parse(SPIN).unwrap();
    let mut mem = Memory {
        allocs: vec![(OUT, vec![0; 4])],
        ..Default::default()
    };
    let opts = SimOptions {
        max_steps: 10_000,
        ..SimOptions::default()
    };
    let e = run(&p, &launch("spin", 1, 2, &[OUT]), &mut mem, &opts).unwrap_err();
    let SimError::NoProgress { waves, steps, .. } = &e else {
        panic!("{e}")
    };
    assert_eq!(*steps, 10_000);
    assert_eq!(waves.len(), 1);
    assert_eq!(waves[0].loop_label.as_deref(), Some(".LBB4_2"));
    assert_eq!(waves[0].exec, 0b11);
    let msg = e.to_string();
    assert!(msg.contains("looping in .LBB4_2"), "{msg}");
    assert!(msg.contains("possible SIMT deadlock"), "{msg}");
}

#[test]
fn barrier_lds_across_waves() {
    let p = parse(BARRIER_LDS).unwrap();
    for seed in [None, Some(1), Some(2), Some(99)] {
        for block in [128u32, 100, 256] {
            let mut mem = Memory {
                allocs: vec![(OUT, vec![0; 1024])],
                ..Default::default()
            };
            let l = launch("reverse", 1, block, &[OUT, block as u64]);
            let opts = SimOptions {
                seed,
                ..SimOptions::default()
            };
            let st = run(&p, &l, &mut mem, &opts).unwrap();
            assert_eq!(st.waves, block.div_ceil(64) as u64);
            let out = mem.dwords(OUT).unwrap();
            for t in 0..block {
                assert_eq!(
                    out[t as usize],
                    3 * (block - 1 - t),
                    "tid {t} block {block}"
                );
            }
        }
    }
}

#[test]
fn missing_barrier_is_visible_under_random_schedules() {
    let text = BARRIER_LDS.replace("\ts_barrier\n", "");
    let p = parse(&text).unwrap();
    let stale = (0..32u64).filter(|&seed| {
        let mut mem = Memory {
            allocs: vec![(OUT, vec![0; 1024])],
            ..Default::default()
        };
        let opts = SimOptions {
            seed: Some(seed),
            ..SimOptions::default()
        };
        run(&p, &launch("reverse", 1, 128, &[OUT, 128]), &mut mem, &opts).unwrap();
        let out = mem.dwords(OUT).unwrap();
        (0..128).any(|t| out[t] != 3 * (127 - t as u32))
    });
    // Some interleaving reads the other wave's half before it was written.
    assert!(stale.count() > 0);
}

#[test]
fn stats_count_units_and_lanes() {
    let p = parse(DIAMOND).unwrap();
    let mut mem = Memory {
        allocs: vec![(OUT, vec![0; 512])],
        ..Default::default()
    };
    let st = run(
        &p,
        &launch("diamond", 2, 8, &[OUT]),
        &mut mem,
        &SimOptions::default(),
    )
    .unwrap();
    assert_eq!(st.workgroups, 2);
    assert_eq!(st.smem, 2);
    assert_eq!(st.vmem, 6);
    // per workgroup: 8 lanes x (and, lshl, cmp, mov, mov, mov) + stores 7 + 1 + 8
    assert_eq!(st.lane_instructions, 2 * (8 * 3 + 7 + 7 + 1 + 1 + 8 + 8));
    assert_eq!(st.total(), st.scalar() + st.vector());
}

#[test]
fn global_oob_names_instruction_lane_and_address() {
    let p = parse(DIAMOND).unwrap();
    let mut mem = Memory {
        allocs: vec![(OUT, vec![0; 256])], // out[64 + tid] is past the end
        ..Default::default()
    };
    let e = run(
        &p,
        &launch("diamond", 1, 64, &[OUT]),
        &mut mem,
        &SimOptions::default(),
    )
    .unwrap_err();
    let SimError::Fault {
        line,
        text,
        message,
        ..
    } = &e
    else {
        panic!("{e}")
    };
    assert_eq!(*line, 32);
    assert_eq!(text, "global_store_dword v2, v1, s[0:1] offset:256");
    assert!(message.contains("lane 0, address 0x1100"), "{message}");
    assert!(message.contains("outside every allocation"), "{message}");
}

#[test]
fn lds_oob_and_kernarg_store_are_errors() {
    let text = BARRIER_LDS.replace(
        ".amdhsa_group_segment_fixed_size 4096",
        ".amdhsa_group_segment_fixed_size 256",
    );
    let p = parse(&text).unwrap();
    let mut mem = Memory {
        allocs: vec![(OUT, vec![0; 1024])],
        ..Default::default()
    };
    let e = run(
        &p,
        &launch("reverse", 1, 128, &[OUT, 128]),
        &mut mem,
        &SimOptions::default(),
    );
    assert!(
        matches!(&e, Err(SimError::Fault { message, .. }) if message.contains("LDS")),
        "{e:?}"
    );
    let src = "
k:
	v_mov_b32_e32 v1, 0
	global_store_dword v1, v1, s[0:1]
	s_endpgm
	.amdhsa_kernel k
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 2
		.amdhsa_next_free_sgpr 2
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
";
    let p = parse(src).unwrap();
    let e = run(
        &p,
        &launch("k", 1, 1, &[0]),
        &mut Memory::default(),
        &SimOptions::default(),
    );
    assert!(
        matches!(&e, Err(SimError::Fault { message, .. }) if message.contains("read-only")),
        "{e:?}"
    );
}

// ---- parse errors ----

fn parse_err(body: &str) -> ParseError {
    match parse(&format!("k:\n\t{body}\n\ts_endpgm\n")) {
        Err(e) => e,
        Ok(_) => panic!("`{body}` parsed"),
    }
}

#[test]
fn parse_errors_name_line_and_text() {
    let e = parse_err("v_frobnicate_b32 v0, v1");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("v_frobnicate_b32"), "{}", e.message);
    for (body, what) in [
        ("v_add_u32_e64 v0, 0x1234, v1", "literal"),
        ("v_cndmask_b32_e64 v0, s0, v1, s[2:3]", "constant bus"),
        ("v_mul_lo_u32 v0, s1, s2", "constant bus"),
        ("v_div_fmas_f32 v0, s1, v2, v3", "constant bus"),
        ("v_writelane_b32 v0, s1, s2", "constant bus"),
        ("s_mov_b32 s102, 0", "out of range"),
        ("s_mov_b64 s[1:2], 0", "misaligned"),
        ("v_lshlrev_b64 v[1:2], 1, v[2:3]", "misaligned"),
        ("global_atomic_add v0, v1, v2, s[0:1]", "sc0"),
        ("global_atomic_add v1, v2, s[0:1] sc0", "sc0"),
        ("global_load_dword v0, v[2:3], off offset:4096", "offset"),
        ("s_load_dword s0, s[0:1], 0x100000", "21-bit"),
        ("s_waitcnt vmcnt(64)", "vmcnt"),
        ("v_mul_f32_e32 v0, -v1, v2", "modifiers"),
        ("v_add_u32_e64 v0, -v1, v2", "modifiers"),
        ("s_mov_b64 s[0:1], -100", "zero-extended"),
        ("s_branch .Lnowhere", "undefined label"),
        ("v_cmp_eq_u32_e32 s[0:1], v1, v2", "vcc"),
        ("v_add_u32_e32 v0, v1", "operands"),
    ] {
        let e = parse_err(body);
        assert!(e.message.contains(what), "`{body}`: {}", e.message);
    }
}

#[test]
fn accepted_syntax() {
    for body in [
        "v_cmp_ne_u32_e32 vcc, 0x3ff, v0",
        "v_cndmask_b32_e32 v0, v1, v2, vcc",
        "v_add_co_u32_e32 v0, vcc, s2, v1",
        "v_fma_f32 v0, -v1, |v2|, 1.0",
        "v_add_f32_e64 v0, -|v1|, s2",
        "s_mov_b64 s[0:1], 0xffffffff",
        "s_waitcnt vmcnt(0) & lgkmcnt(0)",
        "s_waitcnt expcnt(0)",
        "s_waitcnt 0",
        "global_load_dword v0, v[2:3], off offset:-4096 sc0 sc1 nt",
        "v_mov_b32_e32 v0, 0.15915494",
        "v_readlane_b32 s0, v1, 63",
        "v_mov_b32 v0, vcc_hi",
        "s_mov_b32 m0, exec_lo",
    ] {
        let text = format!("k:\n\t{body}\n\ts_endpgm\n");
        if let Err(e) = parse(&text) {
            panic!("`{body}`: {e}");
        }
    }
}

// ---- single instructions against Rust references ----

pub(super) fn wave() -> Wave {
    let mut w = Wave::new(16);
    w.s[EXEC as usize] = u32::MAX;
    w.s[EXEC as usize + 1] = u32::MAX;
    w
}

pub(super) fn exec1(p: &Program, w: &mut Wave) -> Result<Flow, Stop> {
    let mut allocs = vec![(OUT, vec![0u8; 1024])];
    let mut view = MemView::new(&mut allocs, 1);
    let mut lds = Lds {
        bytes: vec![0; 1024],
    };
    let mut stats = Stats::default();
    let mut sh = Shared {
        mem: &mut view,
        lds: &mut lds,
        stats: &mut stats,
    };
    w.pc = 0;
    step(w, &p.insts, &mut sh)
}

pub(super) fn one(body: &str) -> Program {
    parse(&format!("k:\n\t{body}\n")).unwrap_or_else(|e| panic!("{body}: {e}"))
}

pub(super) const EDGE: [u32; 16] = [
    0,
    1,
    2,
    31,
    32,
    33,
    63,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0xffff_fffe,
    0x3f80_0000, // 1.0
    0xbfc0_0000, // -1.5
    0x7fc0_0000, // NaN
    0xff80_0000, // -inf
    0x0000_0400, // denormal
];

/// Runs `mn v0, v1, v2` on all 256 pairs of EDGE values and compares every lane.
fn check_valu2(mn: &str, f: impl Fn(u32, u32) -> u32) {
    let p = one(&format!("{mn} v0, v1, v2"));
    for r in 0..4 {
        let mut w = wave();
        for l in 0..64 {
            w.v[1][l] = EDGE[l % 16];
            w.v[2][l] = EDGE[(l / 16 + 4 * r) % 16];
        }
        exec1(&p, &mut w).unwrap();
        for l in 0..64 {
            let (a, b) = (w.v[1][l], w.v[2][l]);
            assert_eq!(w.v[0][l], f(a, b), "{mn} {a:#x} {b:#x}");
        }
    }
}

fn fl(x: u32) -> f32 {
    f32::from_bits(x)
}

/// Expected bits of an f32 add/sub/mul: the first NaN operand quieted, else the IEEE result.
fn nan_first(a: u32, b: u32, r: f32) -> u32 {
    if fl(a).is_nan() {
        a | 0x40_0000
    } else if fl(b).is_nan() {
        b | 0x40_0000
    } else {
        r.to_bits()
    }
}

#[test]
fn valu_binary_ops() {
    check_valu2("v_add_u32_e32", |a, b| a.wrapping_add(b));
    check_valu2("v_add_u32_e64", |a, b| a.wrapping_add(b));
    check_valu2("v_sub_u32_e32", |a, b| a.wrapping_sub(b));
    check_valu2("v_sub_u32_e64", |a, b| a.wrapping_sub(b));
    check_valu2("v_subrev_u32_e32", |a, b| b.wrapping_sub(a));
    check_valu2("v_and_b32_e32", |a, b| a & b);
    check_valu2("v_or_b32_e32", |a, b| a | b);
    check_valu2("v_xor_b32_e32", |a, b| a ^ b);
    check_valu2("v_lshlrev_b32_e32", |s, b| ((b as u64) << (s % 32)) as u32);
    check_valu2("v_lshlrev_b32_e64", |s, b| ((b as u64) << (s % 32)) as u32);
    check_valu2("v_lshrrev_b32_e32", |s, b| ((b as u64) >> (s % 32)) as u32);
    check_valu2("v_ashrrev_i32_e32", |s, b| {
        ((b as i32 as i64) >> (s % 32)) as u32
    });
    check_valu2(
        "v_min_i32_e32",
        |a, b| if (a as i32) < b as i32 { a } else { b },
    );
    check_valu2(
        "v_max_i32_e32",
        |a, b| if (a as i32) > b as i32 { a } else { b },
    );
    check_valu2("v_min_u32_e32", |a, b| if a < b { a } else { b });
    check_valu2("v_max_u32_e32", |a, b| if a > b { a } else { b });
    check_valu2("v_mul_lo_u32", |a, b| (a as u64 * b as u64) as u32);
    check_valu2("v_mul_hi_u32", |a, b| {
        ((a as u128 * b as u128) >> 32) as u32
    });
    check_valu2("v_mul_hi_i32", |a, b| {
        ((a as i32 as i128 * b as i32 as i128) >> 32) as u32
    });
    check_valu2("v_add_f32_e32", |a, b| nan_first(a, b, fl(a) + fl(b)));
    check_valu2("v_sub_f32_e32", |a, b| nan_first(a, b, fl(a) - fl(b)));
    check_valu2("v_mul_f32_e32", |a, b| nan_first(a, b, fl(a) * fl(b)));
    let minmax = |min: bool| {
        move |a: u32, b: u32| {
            let (x, y) = (fl(a), fl(b));
            if x.is_nan() {
                b
            } else if y.is_nan() || x == y && (a >> 31 == 1) == min {
                a
            } else if x == y {
                b
            } else if (x < y) == min {
                a
            } else {
                b
            }
        }
    };
    check_valu2("v_min_f32_e32", minmax(true));
    check_valu2("v_max_f32_e32", minmax(false));
    // src0 modifiers on the VOP3 form.
    check_valu2("v_add_f32_e64", |a, b| nan_first(a, b, fl(a) + fl(b)));
    let p = one("v_sub_f32_e64 v0, -|v1|, -v2");
    let mut w = wave();
    w.v[1][0] = (-3.0f32).to_bits();
    w.v[2][0] = 5.0f32.to_bits();
    exec1(&p, &mut w).unwrap();
    assert_eq!(fl(w.v[0][0]), 2.0);
}

#[test]
fn float_min_max_and_conversions_edges() {
    use super::alu::*;
    let snan = f32::from_bits(0x7f80_0001);
    assert_eq!(min_f32(f32::NAN, 1.0), 1.0);
    assert_eq!(max_f32(1.0, f32::NAN), 1.0);
    assert!(min_f32(snan, 1.0).is_nan() && min_f32(snan, 1.0).to_bits() & 0x40_0000 != 0);
    assert_eq!(min_f32(-0.0, 0.0).to_bits(), 0x8000_0000);
    assert_eq!(min_f32(0.0, -0.0).to_bits(), 0x8000_0000);
    assert_eq!(max_f32(-0.0, 0.0).to_bits(), 0);
    for (x, i, u) in [
        (3e9f32, i32::MAX as u32, 3_000_000_000u32),
        (-3e9, i32::MIN as u32, 0),
        (f32::NAN, 0, 0),
        (-1.9, -1i32 as u32, 0),
        (1.9, 1, 1),
        (5e9, i32::MAX as u32, u32::MAX),
        (f32::INFINITY, i32::MAX as u32, u32::MAX),
        (f32::NEG_INFINITY, i32::MIN as u32, 0),
    ] {
        assert_eq!(cvt_i32_f32(x), i, "cvt_i32 {x}");
        assert_eq!(cvt_u32_f32(x), u, "cvt_u32 {x}");
    }
    type Unary = (&'static str, fn(u32) -> u32);
    let unary: [Unary; 7] = [
        ("v_not_b32_e32", |a| !a),
        ("v_mov_b32_e32", |a| a),
        ("v_cvt_f32_i32_e32", |a| (a as i32 as f32).to_bits()),
        ("v_cvt_f32_u32_e32", |a| (a as f32).to_bits()),
        ("v_cvt_i32_f32_e32", |a| fl(a) as i32 as u32),
        ("v_cvt_u32_f32_e32", |a| fl(a) as u32),
        ("v_rcp_f32_e32", |a| (1.0 / fl(a)).to_bits()),
    ];
    for (mn, f) in unary {
        let p = one(&format!("{mn} v0, v1"));
        let mut w = wave();
        for l in 0..64 {
            w.v[1][l] = EDGE[l % 16].rotate_left(l as u32 / 16);
        }
        exec1(&p, &mut w).unwrap();
        for l in 0..64 {
            assert_eq!(w.v[0][l], f(w.v[1][l]), "{mn} {:#x}", w.v[1][l]);
        }
    }
}

#[test]
fn valu_writes_only_active_lanes_and_masks_are_exec_masked() {
    let p = one("v_add_u32_e32 v0, 1, v1");
    let mut w = wave();
    w.s[EXEC as usize] = 0b1010;
    w.s[EXEC as usize + 1] = 0;
    w.v[0] = [7; 64];
    exec1(&p, &mut w).unwrap();
    assert_eq!(&w.v[0][..4], &[7, 1, 7, 1]);
    let p = one("v_cmp_eq_u32_e64 s[0:1], 0, v1");
    exec1(&p, &mut w).unwrap();
    assert_eq!((w.s[0], w.s[1]), (0b1010, 0));
}

#[test]
fn valu_compares() {
    use crate::isa::Opc;
    for &o in Opc::ALL {
        let name = o.name();
        if !name.starts_with("v_cmp_") {
            continue;
        }
        let wide = name.contains("64_e64");
        let p = one(&if wide {
            format!("{name} s[0:1], v[2:3], v[4:5]")
        } else {
            format!("{name} s[0:1], v2, v4")
        });
        for r in 0..4 {
            let mut w = wave();
            w.s[EXEC as usize + 1] = 0x7fff_ffff; // lane 63 inactive
            for l in 0..64 {
                let (a, b) = (EDGE[l % 16], EDGE[(l / 16 + 4 * r) % 16]);
                w.v[2][l] = a;
                w.v[4][l] = b;
                w.v[3][l] = a.rotate_left(7);
                w.v[5][l] = b.rotate_left(7);
            }
            exec1(&p, &mut w).unwrap();
            let mask = w.s[0] as u64 | (w.s[1] as u64) << 32;
            for l in 0..63 {
                let (a, b) = (w.v[2][l], w.v[4][l]);
                let want = if wide {
                    let x = a as u64 | (w.v[3][l] as u64) << 32;
                    let y = b as u64 | (w.v[5][l] as u64) << 32;
                    cmp_ref64(name, x, y)
                } else {
                    cmp_ref32(name, a, b)
                };
                assert_eq!(mask >> l & 1 == 1, want, "{name} {a:#x} {b:#x}");
            }
            assert_eq!(mask >> 63, 0, "{name}: inactive lane");
        }
    }
}

fn cmp_ref32(name: &str, a: u32, b: u32) -> bool {
    let pred = &name["v_cmp_".len()..name.len() - "_e64".len()];
    let (p, ty) = pred.split_once('_').unwrap();
    let (x, y) = (fl(a), fl(b));
    let unord = x.is_nan() || y.is_nan();
    match ty {
        "u32" => int_pred(p, a.cmp(&b)),
        "i32" => int_pred(p, (a as i32).cmp(&(b as i32))),
        "u16" => int_pred(p, (a as u16).cmp(&(b as u16))),
        _ => match p {
            "eq" => !unord && x == y,
            "lg" => !unord && x != y,
            "lt" => !unord && x < y,
            "le" => !unord && x <= y,
            "gt" => !unord && x > y,
            "ge" => !unord && x >= y,
            "o" => !unord,
            "u" => unord,
            "neq" => unord || x != y,
            "nlg" => unord || x == y,
            "nge" => unord || x < y,
            "ngt" => unord || x <= y,
            "nle" => unord || x > y,
            "nlt" => unord || x >= y,
            _ => unreachable!("{name}"),
        },
    }
}

fn cmp_ref64(name: &str, a: u64, b: u64) -> bool {
    let pred = &name["v_cmp_".len()..name.len() - "_e64".len()];
    let (p, ty) = pred.split_once('_').unwrap();
    match ty {
        "u64" => int_pred(p, a.cmp(&b)),
        _ => int_pred(p, (a as i64).cmp(&(b as i64))),
    }
}

fn int_pred(p: &str, o: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::*;
    match p {
        "eq" => o == Equal,
        "ne" => o != Equal,
        "lt" => o == Less,
        "le" => o != Greater,
        "gt" => o == Greater,
        "ge" => o != Less,
        _ => unreachable!("{p}"),
    }
}

#[test]
fn carries_and_64_bit_vector_ops() {
    let p = one("v_add_co_u32_e64 v0, s[0:1], v1, v2");
    let mut w = wave();
    w.s[EXEC as usize + 1] = 0; // lanes 32.. inactive
    for l in 0..64 {
        w.v[1][l] = EDGE[l % 16];
        w.v[2][l] = EDGE[(l / 4) % 16];
    }
    exec1(&p, &mut w).unwrap();
    let mut want = 0u64;
    for l in 0..32 {
        let s = w.v[1][l] as u64 + w.v[2][l] as u64;
        assert_eq!(w.v[0][l], s as u32);
        want |= ((s >> 32) & 1) << l;
    }
    assert_eq!(w.s[0] as u64 | (w.s[1] as u64) << 32, want);
    // Carry in from s[4:5], borrow forms.
    for (mn, sub) in [("v_addc_co_u32_e64", false), ("v_subb_co_u32_e64", true)] {
        let p = one(&format!("{mn} v0, s[0:1], v1, v2, s[4:5]"));
        let mut w = wave();
        w.s[4] = 0xaaaa_aaaa;
        w.s[5] = 0x5555_5555;
        for l in 0..64 {
            w.v[1][l] = EDGE[l % 16];
            w.v[2][l] = EDGE[(l / 4) % 16];
        }
        exec1(&p, &mut w).unwrap();
        let cin = w.s[4] as u64 | (w.s[5] as u64) << 32;
        let mut want = 0u64;
        for l in 0..64 {
            let (a, b, c) = (w.v[1][l] as i64, w.v[2][l] as i64, (cin >> l & 1) as i64);
            let r = if sub { a - b - c } else { a + b + c };
            assert_eq!(w.v[0][l], r as u32, "{mn}");
            want |= ((!(0..1i64 << 32).contains(&r)) as u64) << l;
        }
        assert_eq!(w.s[0] as u64 | (w.s[1] as u64) << 32, want, "{mn}");
    }
    let p = one("v_sub_co_u32_e64 v0, vcc, v1, v2");
    let mut w = wave();
    w.v[1][0] = 1;
    w.v[2][0] = 2;
    exec1(&p, &mut w).unwrap();
    assert_eq!((w.v[0][0], w.s[VCC as usize] & 1), (u32::MAX, 1));
    // 64-bit shifts: amount = lane (0..63) and lane + 64 (masked by 63).
    for (mn, f) in [
        ("v_lshlrev_b64", (|x, n| x << n) as fn(u64, u32) -> u64),
        ("v_lshrrev_b64", |x, n| x >> n),
        ("v_ashrrev_i64", |x, n| ((x as i64) >> n) as u64),
    ] {
        let p = one(&format!("{mn} v[0:1], v2, v[4:5]"));
        let mut w = wave();
        let x = 0x8123_4567_89ab_cdefu64;
        for l in 0..64 {
            w.v[2][l] = l as u32 + if l % 2 == 1 { 64 } else { 0 };
            w.v[4][l] = x as u32;
            w.v[5][l] = (x >> 32) as u32;
        }
        exec1(&p, &mut w).unwrap();
        for l in 0..64 {
            let got = w.v[0][l] as u64 | (w.v[1][l] as u64) << 32;
            assert_eq!(got, f(x, l as u32), "{mn} lane {l}");
        }
    }
    let p = one("v_lshl_add_u64 v[0:1], v[2:3], 3, v[4:5]");
    let mut w = wave();
    w.v[2][0] = 0x8000_0001;
    w.v[3][0] = 1;
    w.v[4][0] = 0xffff_ffff;
    w.v[5][0] = 0;
    exec1(&p, &mut w).unwrap();
    let got = w.v[0][0] as u64 | (w.v[1][0] as u64) << 32;
    assert_eq!(got, (0x1_8000_0001u64 << 3) + 0xffff_ffff);
}

/// The SGPR spill sequence regalloc emits: `v_writelane_b32` into a lane of a spill VGPR and
/// `v_readlane_b32` back, with immediate and register lane indices (a writelane with an SGPR
/// value takes its lane from M0: one SGPR on the constant bus), under an empty EXEC (both
/// ignore it), leaving the other lanes alone.
#[test]
fn sgpr_spill_lanes() {
    let mut w = wave();
    for l in 0..64 {
        w.v[7][l] = 1000 + l as u32;
    }
    w.s[EXEC as usize] = 0;
    w.s[EXEC as usize + 1] = 0;
    w.s[10] = 0xdead_beef;
    w.s[11] = 0x0123_4567;
    w.s[4] = 63;
    exec1(&one("s_mov_b32 m0, 63"), &mut w).unwrap();
    exec1(&one("v_writelane_b32 v7, s10, 5"), &mut w).unwrap();
    exec1(&one("v_writelane_b32 v7, s11, m0"), &mut w).unwrap();
    w.s[10] = 0;
    w.s[11] = 0;
    exec1(&one("v_readlane_b32 s11, v7, 5"), &mut w).unwrap();
    exec1(&one("v_readlane_b32 s10, v7, s4"), &mut w).unwrap();
    assert_eq!((w.s[10], w.s[11]), (0x0123_4567, 0xdead_beef));
    for l in (0..64).filter(|&l| l != 5 && l != 63) {
        assert_eq!(w.v[7][l], 1000 + l as u32, "lane {l}");
    }
}

#[test]
fn lane_ops() {
    let mut w = wave();
    w.s[EXEC as usize] = 0xf0f0_f0f0;
    w.s[EXEC as usize + 1] = 0x0000_ffff;
    for l in 0..64 {
        w.v[1][l] = 100 + l as u32;
    }
    exec1(&one("v_mbcnt_lo_u32_b32 v2, exec_lo, 0"), &mut w).unwrap();
    exec1(&one("v_mbcnt_hi_u32_b32 v2, exec_hi, v2"), &mut w).unwrap();
    let exec = 0x0000_ffff_f0f0_f0f0u64;
    for l in 0..64 {
        if exec >> l & 1 == 1 {
            assert_eq!(
                w.v[2][l],
                (exec & ((1u64 << l) - 1)).count_ones(),
                "lane {l}"
            );
        }
    }
    exec1(&one("v_readfirstlane_b32 s0, v1"), &mut w).unwrap();
    assert_eq!(w.s[0], 104);
    exec1(&one("v_readlane_b32 s0, v1, 2"), &mut w).unwrap();
    assert_eq!(w.s[0], 102); // ignores EXEC
    w.s[3] = 77;
    exec1(&one("v_writelane_b32 v1, s3, 1"), &mut w).unwrap();
    assert_eq!(&w.v[1][..3], &[100, 77, 102]);
    w.s[EXEC as usize] = 0;
    w.s[EXEC as usize + 1] = 0;
    exec1(&one("v_readfirstlane_b32 s0, v1"), &mut w).unwrap();
    assert_eq!(w.s[0], 100, "EXEC = 0 reads lane 0");
    // v_cndmask and v_bfe_u32.
    let mut w = wave();
    w.s[6] = 0b0110;
    for l in 0..64 {
        w.v[1][l] = 10;
        w.v[2][l] = 20;
    }
    exec1(&one("v_cndmask_b32_e64 v0, v1, v2, s[6:7]"), &mut w).unwrap();
    assert_eq!(&w.v[0][..4], &[10, 20, 20, 10]);
    for (o, n, want) in [
        (4u32, 8u32, 0xbcu32),
        (0, 0, 0),
        (28, 8, 0xa),
        (36, 4, 0xc),
        (0, 32, 0),
    ] {
        let mut w = wave();
        w.v[1][0] = 0xa123_4bcd;
        w.v[2][0] = o;
        w.v[3][0] = n;
        exec1(&one("v_bfe_u32 v0, v1, v2, v3"), &mut w).unwrap();
        assert_eq!(w.v[0][0], want, "bfe offset {o} width {n}");
    }
}

#[test]
fn ds_bpermute_reads_zero_from_inactive_lanes() {
    let mut w = wave();
    w.s[EXEC as usize] = 0xffff_fffe; // lane 0 inactive
    for l in 0..64 {
        w.v[1][l] = ((l as u32 + 63) % 64) * 4; // read the lane below
        w.v[2][l] = 1000 + l as u32;
    }
    exec1(&one("ds_bpermute_b32 v0, v1, v2"), &mut w).unwrap();
    w.wait(NOWAIT_T, 0);
    assert_eq!(w.v[0][1], 0, "source lane 0 is inactive");
    assert_eq!(w.v[0][2], 1001);
    assert_eq!(w.v[0][0], 0, "inactive lane not written");
}

const NOWAIT_T: u8 = super::exec::NOWAIT;

/// Reference SALU semantics written independently of alu.rs (wide arithmetic).
fn salu_ref(mn: &str, a: u64, b: u64, scc: bool) -> (u64, bool) {
    let (x, y) = (a as u32 as i64, b as u32 as i64);
    let (sx, sy) = (a as u32 as i32 as i64, b as u32 as i32 as i64);
    let c = scc as i64;
    let w = |v: i64| (v as u32 as u64, v as u32 != 0);
    match mn {
        "s_add_u32" => ((x + y) as u32 as u64, x + y > u32::MAX as i64),
        "s_addc_u32" => ((x + y + c) as u32 as u64, x + y + c > u32::MAX as i64),
        "s_sub_u32" => ((x - y) as u32 as u64, x - y < 0),
        "s_subb_u32" => ((x - y - c) as u32 as u64, x - y - c < 0),
        "s_add_i32" => ((sx + sy) as u32 as u64, (sx + sy) as i32 as i64 != sx + sy),
        "s_sub_i32" => ((sx - sy) as u32 as u64, (sx - sy) as i32 as i64 != sx - sy),
        "s_mul_i32" => ((x as u64).wrapping_mul(y as u64) as u32 as u64, scc),
        "s_mul_hi_u32" => (((x as u64 * y as u64) >> 32), scc),
        "s_mul_hi_i32" => (((sx as i128 * sy as i128) >> 32) as u32 as u64, scc),
        "s_and_b32" => w(x & y),
        "s_or_b32" => w(x | y),
        "s_xor_b32" => w(x ^ y),
        "s_andn2_b32" => w(x & !y),
        "s_lshl_b32" => w(x << (y % 32)),
        "s_lshr_b32" => w(x >> (y % 32)),
        "s_ashr_i32" => w(sx >> (y % 32)),
        "s_min_i32" => (if sx < sy { x } else { y } as u64, sx < sy),
        "s_max_i32" => (if sx > sy { x } else { y } as u64, sx > sy),
        "s_min_u32" => (if x < y { x } else { y } as u64, x < y),
        "s_max_u32" => (if x > y { x } else { y } as u64, x > y),
        "s_cselect_b32" => (if scc { x } else { y } as u64, scc),
        "s_bfe_u32" => {
            let width = (y >> 16) & 0x7f;
            w((x >> (y & 31)) & ((1i64 << width.min(32)) - 1))
        }
        "s_lshl2_add_u32" => ((4 * x + y) as u32 as u64, 4 * x + y > u32::MAX as i64),
        "s_and_b64" => (a & b, a & b != 0),
        "s_or_b64" => (a | b, a | b != 0),
        "s_xor_b64" => (a ^ b, a ^ b != 0),
        "s_andn2_b64" => (a & !b, a & !b != 0),
        "s_orn2_b64" => (a | !b, a | !b != 0),
        "s_lshl_b64" => {
            let r = ((a as u128) << (b as u32 % 64)) as u64;
            (r, r != 0)
        }
        "s_lshr_b64" => (a >> (b as u32 % 64), a >> (b as u32 % 64) != 0),
        "s_ashr_i64" => {
            let r = ((a as i64) >> (b as u32 % 64)) as u64;
            (r, r != 0)
        }
        "s_cselect_b64" => (if scc { a } else { b }, scc),
        _ => unreachable!("{mn}"),
    }
}

#[test]
fn salu_ops_with_scc() {
    use crate::isa::{Fmt, Opc};
    let e64: Vec<u64> = EDGE
        .iter()
        .map(|&e| e as u64 | ((e.rotate_left(5) as u64) << 32))
        .chain([0, u64::MAX, 1 << 63])
        .collect();
    for &o in Opc::ALL {
        let d = o.desc();
        // `s_cbranch_g_fork` is a branch (tested with the other FORK/JOIN ops).
        if d.fmt != Fmt::Sop2 || d.is_branch() {
            continue;
        }
        let wide = d.operands[0] == crate::isa::Kind::SReg(2);
        let text = if wide {
            let b = if d.operands[2] == crate::isa::Kind::SSrc(2) {
                "s[4:5]"
            } else {
                "s4"
            };
            format!("{} s[0:1], s[2:3], {b}", o.name())
        } else {
            format!("{} s0, s2, s4", o.name())
        };
        let p = one(&text);
        for &a in &e64 {
            for &b in &e64 {
                for scc in [false, true] {
                    let mut w = wave();
                    (w.s[2], w.s[3], w.s[4], w.s[5]) =
                        (a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32);
                    w.scc = scc;
                    exec1(&p, &mut w).unwrap();
                    let got = w.s[0] as u64 | if wide { (w.s[1] as u64) << 32 } else { 0 };
                    let (a, b) = if wide {
                        (a, b)
                    } else {
                        (a as u32 as u64, b as u32 as u64)
                    };
                    let want = salu_ref(o.name(), a, b, scc);
                    assert_eq!((got, w.scc), want, "{text} a={a:#x} b={b:#x} scc={scc}");
                }
            }
        }
    }
}

#[test]
fn salu_sop1_sopc_and_saveexec() {
    let mut w = wave();
    let run1 = |w: &mut Wave, t: &str| {
        exec1(&one(t), w).unwrap();
    };
    w.s[2] = 0;
    w.s[3] = 0x10;
    run1(&mut w, "s_ff1_i32_b64 s0, s[2:3]");
    assert_eq!(w.s[0], 36);
    w.s[3] = 0;
    w.scc = true;
    run1(&mut w, "s_ff1_i32_b64 s0, s[2:3]");
    assert_eq!((w.s[0], w.scc), (u32::MAX, true), "-1, SCC untouched");
    run1(&mut w, "s_bcnt1_i32_b64 s0, s[2:3]");
    assert_eq!((w.s[0], w.scc), (0, false));
    w.s[2] = 0xf0;
    w.s[3] = 1;
    run1(&mut w, "s_bcnt1_i32_b64 s0, s[2:3]");
    assert_eq!((w.s[0], w.scc), (5, true));
    w.s[6] = 32 + 64; // bit 32 (amount masked by 63)
    run1(&mut w, "s_bitset0_b64 s[2:3], s6");
    assert_eq!((w.s[2], w.s[3]), (0xf0, 0));
    w.s[2] = 0x8001;
    run1(&mut w, "s_sext_i32_i16 s0, s2");
    assert_eq!(w.s[0], 0xffff_8001);
    w.s[2] = 0x8000_0000;
    run1(&mut w, "s_abs_i32 s0, s2");
    assert_eq!((w.s[0], w.scc), (0x8000_0000, true));
    w.s[2] = u32::MAX;
    run1(&mut w, "s_not_b32 s0, s2");
    assert_eq!((w.s[0], w.scc), (0, false));
    run1(&mut w, "s_not_b64 s[0:1], 0");
    assert_eq!((w.s[0], w.s[1], w.scc), (u32::MAX, u32::MAX, true));
    run1(&mut w, "s_mov_b64 s[0:1], -1");
    assert_eq!((w.s[0], w.s[1]), (u32::MAX, u32::MAX));
    run1(&mut w, "s_mov_b64 s[0:1], 0xffffffff");
    assert_eq!((w.s[0], w.s[1]), (u32::MAX, 0));
    // SOPC.
    for (t, a, b, want) in [
        ("s_cmp_lt_i32 s2, s4", u32::MAX, 0, true),
        ("s_cmp_lt_u32 s2, s4", u32::MAX, 0, false),
        ("s_cmp_ge_i32 s2, s4", 5, 5, true),
        ("s_cmp_gt_u32 s2, s4", 6, 5, true),
        ("s_cmp_le_u32 s2, s4", 6, 5, false),
        ("s_cmp_le_i32 s2, s4", 0x8000_0000, 5, true),
        ("s_cmp_gt_i32 s2, s4", 0x8000_0000, 5, false),
        ("s_cmp_ge_u32 s2, s4", 0x8000_0000, 5, true),
        ("s_cmp_eq_u32 s2, s4", 7, 7, true),
        ("s_cmp_lg_u32 s2, s4", 7, 7, false),
        ("s_cmp_eq_u64 s[2:3], s[4:5]", 7, 7, false),
        ("s_cmp_lg_u64 s[2:3], s[4:5]", 7, 7, true),
    ] {
        w.s[2] = a;
        w.s[4] = b;
        w.s[3] = 1;
        w.s[5] = 2;
        run1(&mut w, t);
        assert_eq!(w.scc, want, "{t}");
    }
    // Saveexec: the source is read before the destination (same pair) is written.
    let mut w = wave();
    w.s[EXEC as usize] = 0b1100;
    w.s[EXEC as usize + 1] = 0;
    w.s[4] = 0b1010;
    w.s[5] = 0;
    run1(&mut w, "s_andn2_saveexec_b64 s[4:5], s[4:5]");
    assert_eq!((w.exec(), w.s[4], w.scc), (0b0010, 0b1100, true));
    run1(&mut w, "s_or_saveexec_b64 s[6:7], s[4:5]");
    assert_eq!((w.exec(), w.s[6], w.scc), (0b1110, 0b0010, true));
    w.s[8] = 0b0001;
    w.s[9] = 0;
    run1(&mut w, "s_and_saveexec_b64 s[10:11], s[8:9]");
    assert_eq!((w.exec(), w.s[10], w.scc), (0, 0b1110, false));
}

/// f32 values that exercise the division sequence's scaling paths.
fn div_operands() -> Vec<(f32, f32)> {
    let special = [
        0.0f32,
        -0.0,
        1.0,
        -1.0,
        3.0,
        0.1,
        f32::MAX,
        -f32::MAX,
        f32::MIN_POSITIVE,
        1e-40,
        -1e-45,
        1.4e-45,
        1e30,
        1e-30,
        3.4e38,
        1.2e-38,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        8.5e37,
        2.0e-20,
        7.0e22,
    ];
    let mut v = Vec::new();
    for &a in &special {
        for &b in &special {
            v.push((a, b));
        }
    }
    // Pseudo-random bit patterns (all exponents), and random normal pairs.
    let mut s = 0x1234_5678_9abc_def0u64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    for _ in 0..20_000 {
        let r = next();
        v.push((f32::from_bits(r as u32), f32::from_bits((r >> 32) as u32)));
    }
    for _ in 0..20_000 {
        let r = next();
        let a = f32::from_bits((r as u32 & 0x807f_ffff) | (((r >> 40) as u32 % 60 + 97) << 23));
        let b =
            f32::from_bits(((r >> 32) as u32 & 0x807f_ffff) | ((r as u32 >> 24) % 60 + 97) << 23);
        v.push((a, b));
    }
    v
}

#[test]
fn division_sequence_is_correctly_rounded() {
    let p = parse(FDIV).unwrap();
    let pairs = div_operands();
    let n = pairs.len().div_ceil(64) * 64;
    let (num, den, out) = (0x10_0000u64, 0x20_0000u64, 0x30_0000u64);
    let mut nv = vec![0u32; n];
    let mut dv = vec![0u32; n];
    for (i, (a, b)) in pairs.iter().enumerate() {
        nv[i] = a.to_bits();
        dv[i] = b.to_bits();
    }
    let mut mem = Memory {
        allocs: vec![(num, words(&nv)), (den, words(&dv)), (out, vec![0; 4 * n])],
        ..Default::default()
    };
    let l = launch("fdiv", (n / 64) as u32, 64, &[num, den, out]);
    run(&p, &l, &mut mem, &SimOptions::default()).unwrap();
    let got = mem.dwords(out).unwrap();
    let mut bad = Vec::new();
    for (i, (a, b)) in pairs.iter().enumerate() {
        let want = a / b;
        let g = f32::from_bits(got[i]);
        let ok = if want.is_nan() {
            g.is_nan()
        } else {
            g.to_bits() == want.to_bits()
        };
        if !ok {
            bad.push(format!("{a:e} / {b:e}: got {g:e}, want {want:e}"));
        }
    }
    assert!(
        bad.is_empty(),
        "{} wrong of {}:\n{}",
        bad.len(),
        pairs.len(),
        bad[..bad.len().min(20)].join("\n")
    );
}

#[test]
fn launch_checks_descriptor() {
    let text = DIAMOND.replace(".amdhsa_next_free_vgpr 3", ".amdhsa_next_free_vgpr 2");
    let p = parse(&text).unwrap();
    let e = run(
        &p,
        &launch("diamond", 1, 64, &[OUT]),
        &mut Memory::default(),
        &SimOptions::default(),
    );
    assert!(
        matches!(&e, Err(SimError::Launch(m)) if m.contains("VGPRs")),
        "{e:?}"
    );
    let e = run(
        &p,
        &launch("nope", 1, 64, &[]),
        &mut Memory::default(),
        &SimOptions::default(),
    );
    assert!(matches!(e, Err(SimError::Launch(_))));
}

#[test]
fn initial_state_sgprs_and_packed_ids() {
    let src = "
k:
	s_load_dwordx2 s[8:9], s[2:3], 0x0
	s_waitcnt lgkmcnt(0)
	s_load_dword s10, s[0:1], 0x4
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v1, s4
	v_mov_b32_e32 v2, s5
	v_mov_b32_e32 v3, s6
	v_bfe_u32 v4, v0, 10, 10                ; y
	v_bfe_u32 v5, v0, 20, 10                ; z
	v_lshlrev_b32_e32 v4, 2, v4
	v_lshlrev_b32_e32 v5, 3, v5
	v_add_u32_e32 v4, v4, v5
	v_and_b32_e32 v5, 0x3ff, v0             ; x
	v_add_u32_e32 v4, v4, v5
	v_lshlrev_b32_e32 v4, 2, v4             ; 4 * (x + 4y + 8z)
	v_mov_b32_e32 v5, s10
	global_store_dword v4, v0, s[8:9]
	global_store_dword v4, v1, s[8:9] offset:256
	global_store_dword v4, v3, s[8:9] offset:512
	global_store_dword v4, v5, s[8:9] offset:768
	s_endpgm
	.amdhsa_kernel k
		.amdhsa_user_sgpr_dispatch_ptr 1
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 1
		.amdhsa_system_sgpr_workgroup_id_z 1
		.amdhsa_system_vgpr_workitem_id 2
		.amdhsa_next_free_vgpr 6
		.amdhsa_next_free_sgpr 11
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
";
    let p = parse(src).unwrap();
    let mut mem = Memory {
        allocs: vec![(OUT, vec![0; 4096])],
        ..Default::default()
    };
    let l = Launch {
        kernel: "k".into(),
        grid: [1, 1, 3],
        block: [4, 2, 2],
        kernarg: OUT.to_le_bytes().to_vec(),
    };
    run(&p, &l, &mut mem, &SimOptions::default()).unwrap();
    let out = mem.dwords(OUT).unwrap();
    for i in 0..16u32 {
        let (x, y, z) = (i % 4, (i / 4) % 2, i / 8);
        let slot = 4 * (x + 4 * y + 8 * z) as usize;
        assert_eq!(out[slot / 4], x | y << 10 | z << 20, "item {i}");
        assert_eq!(out[64 + slot / 4], 0, "wg x");
        assert_eq!(out[128 + slot / 4], 2, "wg z of the last workgroup");
        // Dispatch packet: workgroup_size_x | workgroup_size_y << 16 at offset 4.
        assert_eq!(out[192 + slot / 4], 4 | 2 << 16);
    }
}

/// Runs one instruction with memory at `OUT` (256 dwords) and LDS (256 dwords), retires
/// everything, and returns the memory and LDS dwords.
pub(super) fn exec_mem(body: &str, w: &mut Wave, mem: &mut [u32], lds: &mut [u32]) {
    let p = one(body);
    let mut allocs = vec![(OUT, words(mem))];
    let mut view = MemView::new(&mut allocs, 1);
    let mut l = Lds { bytes: words(lds) };
    let mut stats = Stats::default();
    let mut sh = Shared {
        mem: &mut view,
        lds: &mut l,
        stats: &mut stats,
    };
    w.pc = 0;
    step(w, &p.insts, &mut sh).unwrap_or_else(|e| panic!("{body}: {e:?}"));
    w.wait(0, 0);
    let back = |b: &[u8]| -> Vec<u32> {
        b.chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    mem.copy_from_slice(&back(&allocs[0].1));
    lds.copy_from_slice(&back(&l.bytes));
}

#[test]
fn global_memory_ops() {
    let mut mem = [0u32; 256];
    let mut lds = [0u32; 256];
    for (i, m) in mem.iter_mut().enumerate() {
        *m = 1000 + i as u32;
    }
    let mut w = wave();
    w.s[EXEC as usize + 1] = 0; // lanes 0..31
    (w.s[0], w.s[1]) = (OUT as u32, 0);
    for l in 0..64 {
        w.v[1][l] = 8 * l as u32; // byte offsets of dword pairs
        let a = OUT + 4 * l as u64; // 64-bit addresses for `off`
        (w.v[2][l], w.v[3][l]) = (a as u32, (a >> 32) as u32);
        w.v[4][l] = l as u32;
        w.v[5][l] = 7;
    }
    exec_mem(
        "global_load_dwordx2 v[6:7], v1, s[0:1] offset:8",
        &mut w,
        &mut mem,
        &mut lds,
    );
    assert_eq!((w.v[6][1], w.v[7][1]), (1004, 1005));
    assert_eq!((w.v[6][40], w.v[7][40]), (0, 0), "inactive lane");
    exec_mem(
        "global_load_dword v8, v[2:3], off offset:4",
        &mut w,
        &mut mem,
        &mut lds,
    );
    assert_eq!(w.v[8][3], 1004);
    exec_mem(
        "global_store_dwordx2 v1, v[4:5], s[0:1] offset:512",
        &mut w,
        &mut mem,
        &mut lds,
    );
    exec_mem(
        "global_store_dword v[2:3], v4, off",
        &mut w,
        &mut mem,
        &mut lds,
    );
    assert_eq!(&mem[..3], &[0, 1, 2]);
    assert_eq!(&mem[32..34], &[1032, 1033], "inactive lanes store nothing");
    assert_eq!(&mem[128 + 2..128 + 4], &[1, 7]);
    // Atomics: all active lanes hit dword 200, in lane order; the returning form writes
    // the old values, the non-returning form leaves vdst alone.
    let mut w = wave();
    w.s[EXEC as usize] = 0b1111;
    w.s[EXEC as usize + 1] = 0;
    (w.s[0], w.s[1]) = (OUT as u32, 0);
    for l in 0..4 {
        w.v[1][l] = 800;
        w.v[2][l] = 1 + l as u32;
        w.v[3][l] = 5; // cmpswap compare value (vdata hi)
        w.v[9][l] = 0xabc;
    }
    mem[200] = 10;
    exec_mem(
        "global_atomic_add v9, v1, v2, s[0:1] sc0",
        &mut w,
        &mut mem,
        &mut lds,
    );
    assert_eq!(&w.v[9][..4], &[10, 11, 13, 16]);
    assert_eq!(mem[200], 20);
    exec_mem(
        "global_atomic_umin v1, v2, s[0:1]",
        &mut w,
        &mut mem,
        &mut lds,
    );
    assert_eq!(mem[200], 1);
    assert_eq!(w.v[9][0], 10, "non-returning form leaves vdst");
    for (body, start, want_mem) in [
        (
            "global_atomic_smax v9, v1, v2, s[0:1] sc0",
            0xffff_fff0u32,
            4u32,
        ),
        ("global_atomic_smin v9, v1, v2, s[0:1] sc0", 3, 1),
        ("global_atomic_umax v9, v1, v2, s[0:1] sc0", 3, 4),
        ("global_atomic_swap v9, v1, v2, s[0:1] sc0", 3, 4),
        ("global_atomic_cmpswap v9, v1, v[2:3], s[0:1] sc0", 5, 1),
    ] {
        mem[200] = start;
        exec_mem(body, &mut w, &mut mem, &mut lds);
        assert_eq!(mem[200], want_mem, "{body}");
        assert_eq!(
            w.v[9][0], start,
            "{body}: lane 0 returns the original value"
        );
    }
    mem[200] = 1.5f32.to_bits();
    for l in 0..4 {
        w.v[2][l] = 0.25f32.to_bits();
    }
    exec_mem(
        "global_atomic_add_f32 v9, v1, v2, s[0:1] sc0",
        &mut w,
        &mut mem,
        &mut lds,
    );
    assert_eq!(f32::from_bits(mem[200]), 2.5);
    assert_eq!(f32::from_bits(w.v[9][3]), 2.25);
}

#[test]
fn lds_ops() {
    let mut mem = [0u32; 256];
    let mut lds = [0u32; 256];
    let mut w = wave();
    w.s[EXEC as usize + 1] = 0;
    for l in 0..64 {
        w.v[1][l] = 8 * l as u32;
        (w.v[2][l], w.v[3][l]) = (l as u32, 100 + l as u32);
    }
    exec_mem(
        "ds_write_b64 v1, v[2:3] offset:8",
        &mut w,
        &mut mem,
        &mut lds,
    );
    assert_eq!(&lds[2..6], &[0, 100, 1, 101]);
    assert_eq!(lds[2 * 33], 0, "inactive lane 31+ not written");
    exec_mem(
        "ds_read_b64 v[4:5], v1 offset:16",
        &mut w,
        &mut mem,
        &mut lds,
    );
    assert_eq!((w.v[4][0], w.v[5][0]), (1, 101));
    exec_mem("ds_write_b32 v1, v3", &mut w, &mut mem, &mut lds);
    exec_mem("ds_read_b32 v6, v1 offset:4", &mut w, &mut mem, &mut lds);
    assert_eq!(
        w.v[6][1], 100,
        "dword 3 still holds lane 0's high word of the b64 write"
    );
    let mut w = wave();
    w.s[EXEC as usize] = 0b111;
    w.s[EXEC as usize + 1] = 0;
    for l in 0..3 {
        w.v[1][l] = 40;
        w.v[2][l] = [5, 3, 9][l];
        w.v[3][l] = 77;
    }
    for (body, start, want_mem, want_ret) in [
        ("ds_add_rtn_u32 v0, v1, v2", 1u32, 18u32, [1u32, 6, 9]),
        ("ds_min_rtn_u32 v0, v1, v2", 4, 3, [4, 4, 3]),
        ("ds_max_rtn_u32 v0, v1, v2", 4, 9, [4, 5, 5]),
        (
            "ds_min_rtn_i32 v0, v1, v2",
            u32::MAX,
            u32::MAX,
            [u32::MAX; 3],
        ),
        ("ds_max_rtn_i32 v0, v1, v2", u32::MAX, 9, [u32::MAX, 5, 5]),
        ("ds_wrxchg_rtn_b32 v0, v1, v2", 1, 9, [1, 5, 3]),
        ("ds_cmpst_rtn_b32 v0, v1, v2, v3", 3, 77, [3, 3, 77]),
    ] {
        lds[10] = start;
        exec_mem(body, &mut w, &mut mem, &mut lds);
        assert_eq!(lds[10], want_mem, "{body}");
        assert_eq!(&w.v[0][..3], &want_ret, "{body}");
    }
    lds[10] = 1.0f32.to_bits();
    for l in 0..3 {
        w.v[2][l] = 0.5f32.to_bits();
    }
    exec_mem("ds_add_rtn_f32 v0, v1, v2", &mut w, &mut mem, &mut lds);
    assert_eq!(f32::from_bits(lds[10]), 2.5);
}

#[test]
fn scalar_loads() {
    let mut mem = [0u32; 256];
    let mut lds = [0u32; 256];
    for (i, m) in mem.iter_mut().enumerate() {
        *m = i as u32;
    }
    let mut w = wave();
    (w.s[0], w.s[1]) = ((OUT + 16) as u32, 0);
    exec_mem(
        "s_load_dwordx4 s[4:7], s[0:1], 0x10",
        &mut w,
        &mut mem,
        &mut lds,
    );
    assert_eq!(&w.s[4..8], &[8, 9, 10, 11]);
    w.s[2] = 6; // low two address bits are ignored
    exec_mem(
        "s_load_dwordx2 s[8:9], s[0:1], s2",
        &mut w,
        &mut mem,
        &mut lds,
    );
    assert_eq!(&w.s[8..10], &[5, 6]);
    exec_mem("s_load_dword s3, s[0:1], -0x10", &mut w, &mut mem, &mut lds);
    assert_eq!(w.s[3], 0);
}

#[test]
fn overlapping_allocations_are_refused() {
    let p = parse(DIAMOND).unwrap();
    let mut mem = Memory {
        allocs: vec![(OUT, vec![0; 512]), (OUT + 256, vec![0; 16])],
        ..Default::default()
    };
    let e = run(
        &p,
        &launch("diamond", 1, 64, &[OUT]),
        &mut mem,
        &SimOptions::default(),
    );
    assert!(
        matches!(&e, Err(SimError::Launch(m)) if m.contains("overlap")),
        "{e:?}"
    );
}

/// `s_getpc_b64` + label difference + `s_setpc_b64` jumps forward and backward, as the
/// assembler resolves it (`sim_api.rs` assembles the listing).
#[test]
fn long_branches_through_setpc() {
    let p = parse(LONG_BRANCH).unwrap();
    let mut mem = Memory {
        allocs: vec![(OUT, words(&[0xdead; 64]))],
        ..Default::default()
    };
    run(
        &p,
        &launch("long_branch", 1, 64, &[OUT]),
        &mut mem,
        &SimOptions::default(),
    )
    .unwrap();
    assert_eq!(mem.dwords(OUT).unwrap(), vec![27; 64]);
}

/// A jump to an address that is no instruction's is a fault, not a panic.
#[test]
fn setpc_to_a_bad_address_faults() {
    let text = LONG_BRANCH.replace(
        "s_addc_u32 s5, s5, (.LBB0_2-.LBB0_0)>>32",
        "s_addc_u32 s5, s5, 1",
    );
    let p = parse(&text).unwrap();
    let mut mem = Memory {
        allocs: vec![(OUT, words(&[0xdead; 64]))],
        ..Default::default()
    };
    let e = run(
        &p,
        &launch("long_branch", 1, 64, &[OUT]),
        &mut mem,
        &SimOptions::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("s_setpc_b64"), "{e}");
}

// ---- FORK/JOIN ----

/// The diamond with the hardware branch stack: the same memory as the EXEC-mask listing for
/// a divergent wave (one lane passes: it runs first, the 63 others are pushed), a wave whose
/// lanes all fail (a plain branch, nothing pushed) and a partial wave.
#[test]
fn fork_join_diamond_matches_the_exec_mask_listing() {
    for block in [64u32, 8, 1] {
        assert_eq!(
            run_diamond(DIAMOND_FORK, block),
            run_diamond(DIAMOND, block),
            "{block}"
        );
    }
    let p = parse(DIAMOND_FORK).unwrap();
    for (block, depth) in [(64u32, 1u64), (1, 0)] {
        let mut mem = Memory {
            allocs: vec![(OUT, words(&[0; 128]))],
            ..Default::default()
        };
        let l = launch("diamond", 2, block, &[OUT]);
        let stats = run(&p, &l, &mut mem, &SimOptions::default()).unwrap();
        assert_eq!(stats.max_stack_depth, depth, "{block}");
    }
}

/// The trace shows the push at the fork, the pop at the first join and the end at the
/// second, with the smaller group (lane 0) first.
#[test]
fn fork_join_trace_shows_push_and_pop() {
    let p = parse(DIAMOND_FORK).unwrap();
    let lines = Rc::new(RefCell::new(Vec::new()));
    let sink = lines.clone();
    let opts = SimOptions {
        trace: Some(Rc::new(move |t: &TraceLine| {
            if let Some(s) = &t.stack {
                sink.borrow_mut()
                    .push((t.text.to_string(), s.clone(), t.exec));
            }
        })),
        ..Default::default()
    };
    let mut mem = Memory {
        allocs: vec![(OUT, words(&[0; 128]))],
        ..Default::default()
    };
    run(&p, &launch("diamond", 1, 64, &[OUT]), &mut mem, &opts).unwrap();
    let lines = lines.borrow().clone();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].0.starts_with("s_cbranch_i_fork"));
    assert!(
        lines[0].1.contains("push {exec=0xfffffffffffffffe"),
        "{}",
        lines[0].1
    );
    assert!(lines[0].1.contains("csp 0 -> 1"));
    assert_eq!(lines[0].2, 1);
    assert!(
        lines[1].1.contains("pop {exec=0xfffffffffffffffe"),
        "{}",
        lines[1].1
    );
    assert!(lines[1].1.contains("csp 1 -> 0"));
    assert!(lines[2].1.contains("every path done"));
}

/// A fork with six entries pushed already is an error naming the stack, not a wrong run;
/// `s_getreg_b32` reads CSP; a join pops {EXEC, PC} from SGPR[CSP*4].
#[test]
fn fork_join_stack_overflow_getreg_and_pop() {
    let p = one("s_cbranch_i_fork s[6:7], .L\n.L:\n\ts_endpgm");
    let mut w = wave();
    w.s[6] = 1;
    w.csp = 6;
    let e = exec1(&p, &mut w).unwrap_err();
    assert!(
        matches!(&e, Stop::Fault(m) if m.contains("stack overflow")),
        "{e:?}"
    );
    w.csp = 5;
    exec1(&p, &mut w).unwrap();
    assert_eq!((w.csp, w.exec()), (6, 1));
    assert_eq!(
        (w.s[20], w.s[21], w.s[22], w.s[23]),
        (u32::MAX - 1, u32::MAX, 4, 0)
    );

    // The G form takes the target's byte address from an SGPR pair; lane 0 fails (1 lane
    // against 63): it runs first at the next instruction, the passing lanes wait.
    let p = one("s_cbranch_g_fork s[6:7], s[8:9]\n\ts_nop 0\n\ts_endpgm");
    let mut w = wave();
    (w.s[6], w.s[7], w.s[8]) = (u32::MAX - 1, u32::MAX, 8);
    exec1(&p, &mut w).unwrap();
    assert_eq!((w.csp, w.exec(), w.pc), (1, 1, 1));
    assert_eq!((w.s[0], w.s[1], w.s[2]), (u32::MAX - 1, u32::MAX, 8));

    let p = one("s_getreg_b32 s3, hwreg(HW_REG_MODE, 29, 3)");
    let mut w = wave();
    w.csp = 4;
    exec1(&p, &mut w).unwrap();
    assert_eq!(w.s[3], 4);
    let p = one("s_getreg_b32 s3, hwreg(HW_REG_MODE, 0, 4)");
    assert!(exec1(&p, &mut wave()).is_err());

    let p = one("s_cbranch_join s9\n\ts_nop 0\n\ts_endpgm");
    let mut w = wave();
    w.csp = 2;
    w.s[9] = 1;
    (w.s[4], w.s[5], w.s[6], w.s[7]) = (0xf0, 0, 8, 0);
    exec1(&p, &mut w).unwrap();
    assert_eq!((w.csp, w.exec(), w.pc), (1, 0xf0, 2));
    w.s[9] = 1;
    exec1(&p, &mut w).unwrap();
    assert_eq!((w.csp, w.pc), (1, 1));
}

/// The instructions clang-22's listings of the examples' twins use beyond kc's own, against
/// Rust references.
#[test]
fn clang_listing_instructions() {
    let run = |body: &str, setup: &dyn Fn(&mut Wave)| {
        let p = one(body);
        let mut w = wave();
        setup(&mut w);
        exec1(&p, &mut w).map(|_| w)
    };
    for &(a, s, c) in &[
        (1u32, 2u32, 3u32),
        (0x8000_0001, 31, 7),
        (0xffff_ffff, 4, 1),
    ] {
        let w = run("v_lshl_add_u32 v1, v2, v3, v4", &|w| {
            w.v[2] = [a; 64];
            w.v[3] = [s; 64];
            w.v[4] = [c; 64];
        })
        .unwrap();
        assert_eq!(w.v[1][0], (a << (s & 31)).wrapping_add(c));
        let w = run("v_alignbit_b32 v1, v2, v3, v4", &|w| {
            w.v[2] = [a; 64];
            w.v[3] = [c; 64];
            w.v[4] = [s; 64];
        })
        .unwrap();
        assert_eq!(
            w.v[1][0],
            ((((a as u64) << 32) | c as u64) >> (s & 31)) as u32
        );
        let w = run("v_mul_lo_u16_e32 v1, v2, v3", &|w| {
            w.v[2] = [a; 64];
            w.v[3] = [c.wrapping_mul(0x1_2345); 64];
        })
        .unwrap();
        assert_eq!(
            w.v[1][0],
            (a as u16).wrapping_mul(c.wrapping_mul(0x1_2345) as u16) as u32
        );
    }
    let w = run("s_brev_b32 s2, 1", &|_| {}).unwrap();
    assert_eq!(w.s[2], 0x8000_0000);
    let w = run("s_movk_i32 s2, 0xfffe", &|_| {}).unwrap();
    assert_eq!(w.s[2], -2i32 as u32);
    assert!(run("s_trap 2", &|_| {}).is_err());
    run("buffer_wbl2 sc1", &|_| {}).unwrap();
    run("buffer_inv sc0 sc1", &|_| {}).unwrap();
    for (vcc, z) in [(0u32, true), (4, false)] {
        for (br, taken) in [("s_cbranch_vccz", z), ("s_cbranch_vccnz", !z)] {
            let p = one(&format!("{br} .L\n\ts_nop 0\n.L:\n\ts_endpgm"));
            let mut w = wave();
            w.s[VCC as usize] = vcc;
            exec1(&p, &mut w).unwrap();
            assert_eq!(w.pc == 2, taken, "{br} vcc={vcc}");
        }
    }
}
