//! Tests of the simulator: the seed listings (diamond, multi_exit with its EXEC walkthrough),
//! waitcnt hazards, a wrong EXEC restore, a SIMT deadlock, barriers with LDS, every ALU op
//! against a Rust reference, the f32 division sequence, memory faults and parse errors, long
//! branches through `s_getpc_b64` / `s_setpc_b64`.
//! `isa.rs` tests single instructions against Rust references, `ops.rs` the 64-bit, division
//! and conversion helpers, `fork_join.rs` the hardware branch stack and clang's instructions.
//! `backend/tests/sim_api.rs` checks the listings assemble with llvm-mc-22.

use super::exec::{step, Flow, Shared, Stop, Wave, EXEC, VCC};
use super::mem::{Lds, MemView};
use super::*;
use std::cell::RefCell;

mod dpp;
mod fork_join;
mod fp_mode;
mod isa;
mod ops;
mod scratch;

const DIAMOND: &str = include_str!("../testdata/diamond.s");
const MULTI_EXIT: &str = include_str!("../testdata/multi_exit.s");
const BARRIER_LDS: &str = include_str!("../testdata/barrier_lds.s");
const FDIV: &str = include_str!("../testdata/fdiv.s");
const SPIN: &str = include_str!("../testdata/spin.s");
const LONG_BRANCH: &str = include_str!("../testdata/long_branch.s");
const DIAMOND_FORK: &str = include_str!("../testdata/diamond_fork.s");

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

/// The memory model's cache operations and cache-policy bits (every form
/// `crate::memory_model` emits) run and change nothing: the simulator has no caches.
#[test]
fn cache_operations_and_bits_change_nothing() {
    let mut mem = [0u32; 256];
    let mut lds = [0u32; 256];
    let mut w = wave();
    w.s[EXEC as usize] = 0b11;
    w.s[EXEC as usize + 1] = 0;
    (w.s[0], w.s[1]) = (OUT as u32, 0);
    for l in 0..2 {
        (w.v[1][l], w.v[2][l]) = (4 * l as u32, 10 + l as u32);
    }
    for body in [
        "buffer_wbl2 sc1",
        "buffer_wbl2 sc0 sc1",
        "buffer_inv sc1",
        "buffer_inv sc0 sc1",
        "global_store_dword v1, v2, s[0:1] sc0",
        "global_store_dword v1, v2, s[0:1] offset:8 sc1",
        "global_store_dword v1, v2, s[0:1] offset:16 sc0 sc1",
        "global_load_dword v3, v1, s[0:1] offset:8 sc0 sc1",
        "global_atomic_add v4, v1, v2, s[0:1] offset:16 sc0 sc1",
    ] {
        exec_mem(body, &mut w, &mut mem, &mut lds);
    }
    assert_eq!(&mem[..6], &[10, 11, 10, 11, 20, 22]);
    assert_eq!(&w.v[3][..2], &[10, 11]);
    assert_eq!(&w.v[4][..2], &[10, 11]);
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

#[test]
fn lds_read2_write2() {
    let mut mem = [0u32; 256];
    let mut lds = [0u32; 256];
    let mut w = wave();
    w.s[EXEC as usize] = 0b1011; // lanes 0, 1 and 3
    w.s[EXEC as usize + 1] = 0;
    for l in 0..64 {
        w.v[1][l] = 4 * l as u32; // byte address: dword l
        (w.v[2][l], w.v[3][l]) = (100 + l as u32, 200 + l as u32);
        (w.v[4][l], w.v[5][l]) = (300 + l as u32, 400 + l as u32);
    }
    // b32: dwords l + 1 and l + 16 (offsets in units of 4 bytes).
    exec_mem(
        "ds_write2_b32 v1, v2, v3 offset0:1 offset1:16",
        &mut w,
        &mut mem,
        &mut lds,
    );
    for l in [0usize, 1, 3] {
        assert_eq!(lds[l + 16], 200 + l as u32, "lane {l} data1");
    }
    assert_eq!(
        &lds[1..5],
        &[100, 101, 0, 103],
        "inactive lane 2 writes nothing"
    );
    assert_eq!(lds[18], 0, "inactive lane 2 writes nothing");
    // st64: units of 256 bytes (64 dwords).
    exec_mem(
        "ds_write2st64_b32 v1, v2, v3 offset1:2",
        &mut w,
        &mut mem,
        &mut lds,
    );
    assert_eq!((lds[0], lds[128], lds[131]), (100, 200, 203));
    exec_mem(
        "ds_read2st64_b32 v[6:7], v1 offset1:2",
        &mut w,
        &mut mem,
        &mut lds,
    );
    assert_eq!((w.v[6][3], w.v[7][3]), (103, 203));
    exec_mem(
        "ds_read2_b32 v[8:9], v1 offset0:1 offset1:16",
        &mut w,
        &mut mem,
        &mut lds,
    );
    assert_eq!((w.v[8][1], w.v[9][1]), (101, 201));
    assert_eq!(
        (w.v[8][2], w.v[9][2]),
        (0, 0),
        "inactive lane 2 not written"
    );
    // b64: units of 8 bytes; st64: of 512 bytes. Lane l at byte 8 * l.
    let mut lds = [0u32; 256];
    for l in 0..64 {
        w.v[1][l] = 8 * l as u32;
    }
    exec_mem(
        "ds_write2_b64 v1, v[2:3], v[4:5] offset0:2 offset1:5",
        &mut w,
        &mut mem,
        &mut lds,
    );
    // Lane 1: bytes 8 + 16 and 8 + 40: dwords 6..8 and 12..14.
    assert_eq!(&lds[6..8], &[101, 201]);
    assert_eq!(&lds[12..14], &[301, 401]);
    exec_mem(
        "ds_read2_b64 v[6:9], v1 offset0:2 offset1:5",
        &mut w,
        &mut mem,
        &mut lds,
    );
    let lane3: Vec<u32> = (6..10).map(|r| w.v[r][3]).collect();
    assert_eq!(lane3, [103, 203, 303, 403]);
    exec_mem(
        "ds_write2st64_b64 v1, v[2:3], v[4:5] offset1:1",
        &mut w,
        &mut mem,
        &mut lds,
    );
    assert_eq!(
        &lds[128 + 6..128 + 8],
        &[303, 403],
        "lane 3 at 24 + 512 bytes"
    );
    exec_mem(
        "ds_read2st64_b64 v[10:13], v1 offset1:1",
        &mut w,
        &mut mem,
        &mut lds,
    );
    let lane0: Vec<u32> = (10..14).map(|r| w.v[r][0]).collect();
    assert_eq!(lane0, [100, 200, 300, 400]);
    for bad in [
        "ds_read2_b32 v[0:1], v1 offset0:256",
        "ds_read2_b32 v[0:1], v1 offset:4",
        "ds_read2_b32 v0, v1 offset1:1",
        "ds_write_b32 v1, v2 offset0:1",
    ] {
        assert!(parse(&format!("k:\n\t{bad}\n")).is_err(), "{bad}");
    }
}

#[test]
fn lds_non_returning_atomics() {
    let mut mem = [0u32; 256];
    let mut w = wave();
    w.s[EXEC as usize] = 0b1011; // lanes 0, 1, 3 (lane 2 inactive)
    w.s[EXEC as usize + 1] = 0;
    for l in 0..4 {
        w.v[1][l] = 40;
        w.v[2][l] = [5, 3, 1000, 9][l];
    }
    let neg = |x: i32| x as u32;
    for (body, start, want) in [
        ("ds_add_u32 v1, v2", 1u32, 18u32),
        ("ds_sub_u32 v1, v2", 1, neg(-16)),
        ("ds_min_u32 v1, v2", 4, 3),
        ("ds_max_u32 v1, v2", 4, 9),
        ("ds_min_i32 v1, v2", neg(-1), neg(-1)),
        ("ds_max_i32 v1, v2", neg(-1), 9),
        ("ds_and_b32 v1, v2", 0xff, 5 & 3 & 9),
        ("ds_or_b32 v1, v2", 0x100, 0x100 | 5 | 3 | 9),
        ("ds_xor_b32 v1, v2", 0x100, 0x100 ^ 5 ^ 3 ^ 9),
    ] {
        let mut lds = [0u32; 256];
        lds[10] = start;
        w.v[0] = [0xdead; 64];
        exec_mem(body, &mut w, &mut mem, &mut lds);
        assert_eq!(lds[10], want, "{body}");
        assert_eq!(w.v[0][0], 0xdead, "{body} returns nothing");
    }
    let mut lds = [0u32; 256];
    lds[11] = 1.0f32.to_bits();
    for l in 0..4 {
        (w.v[1][l], w.v[2][l]) = (40, 0.25f32.to_bits());
    }
    exec_mem("ds_add_f32 v1, v2 offset:4", &mut w, &mut mem, &mut lds);
    assert_eq!(f32::from_bits(lds[11]), 1.75);
}

#[test]
fn scalar_loads_of_8_and_16_dwords() {
    let mut mem = [0u32; 256];
    let mut lds = [0u32; 256];
    for (i, m) in mem.iter_mut().enumerate() {
        *m = 3 * i as u32;
    }
    let mut w = wave();
    (w.s[0], w.s[1]) = (OUT as u32, (OUT >> 32) as u32);
    exec_mem(
        "s_load_dwordx8 s[8:15], s[0:1], 0x20",
        &mut w,
        &mut mem,
        &mut lds,
    );
    let want: Vec<u32> = (8..16).map(|i| 3 * i).collect();
    assert_eq!(&w.s[8..16], &want[..]);
    exec_mem(
        "s_load_dwordx16 s[16:31], s[0:1], 0x4",
        &mut w,
        &mut mem,
        &mut lds,
    );
    let want: Vec<u32> = (1..17).map(|i| 3 * i).collect();
    assert_eq!(&w.s[16..32], &want[..]);
    assert_eq!(w.s[32], 0, "nothing past the 16th dword");
    for bad in [
        "s_load_dwordx8 s[6:13], s[0:1], 0x0",
        "s_load_dwordx8 s[8:14], s[0:1], 0x0",
        "s_load_dwordx16 s[96:111], s[0:1], 0x0",
        "v_mov_b32_e32 v[0:7], 0",
    ] {
        assert!(parse(&format!("k:\n\t{bad}\n")).is_err(), "{bad}");
    }
}
