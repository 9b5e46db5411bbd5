//! FORK/JOIN: the hardware branch stack (seed 002) and the instructions of clang-22's
//! listings.

use super::*;

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
    // A field straddling the floating-point bits and CSP is not modelled.
    let p = one("s_getreg_b32 s3, hwreg(HW_REG_MODE, 28, 2)");
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
