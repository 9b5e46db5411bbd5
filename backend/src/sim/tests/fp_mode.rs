//! The MODE register's f32 denormal field: read from the descriptor (llvm-mc's default 0 when
//! absent), changed by `s_setreg_b32` / `s_setreg_imm32_b32`, read by `s_getreg_b32`, and
//! applied to the sources and results of f32 VALU ops (`testdata/denorm.s`).

use super::*;

const DENORM: &str = include_str!("../testdata/denorm.s");

/// The inputs, one per lane: two subnormals of either sign, a normal whose half is
/// subnormal, 1.0.
const INPUT: [f32; 4] = [1e-40, -1e-40, f32::from_bits(0x00c0_0000), 1.0];

/// Runs `denorm.s` with `directive` added to its descriptor: the six result rows of the
/// first four lanes.
fn run_denorm(directive: &str) -> [[u32; 4]; 6] {
    let text = DENORM.replace(
        "\t.end_amdhsa_kernel",
        &format!("\t\t{directive}\n\t.end_amdhsa_kernel"),
    );
    let p = parse(&text).unwrap();
    let (input, out) = (0x2000u64, OUT);
    let mut data = vec![0u32; 64];
    for (d, x) in data.iter_mut().zip(INPUT) {
        *d = x.to_bits();
    }
    let mut mem = Memory {
        allocs: vec![(out, vec![0; 6 * 256]), (input, words(&data))],
        ..Default::default()
    };
    let l = launch("denorm", 1, 64, &[input, out]);
    run(&p, &l, &mut mem, &SimOptions::default()).unwrap();
    let got = mem.dwords(out).unwrap();
    std::array::from_fn(|k| std::array::from_fn(|l| got[64 * k + l]))
}

/// `x` as a mode that flushes the way `flush` says computes it: a subnormal becomes the zero
/// of its sign.
fn flushed(x: f32, flush: bool) -> u32 {
    if flush && x != 0.0 && x.is_subnormal() {
        x.to_bits() & 0x8000_0000
    } else {
        x.to_bits()
    }
}

#[test]
fn the_descriptor_mode_decides_what_subnormals_become() {
    // (directive, flushes sources, flushes results); no directive is llvm-mc's 0.
    for (directive, fin, fout) in [
        ("", true, true),
        (".amdhsa_float_denorm_mode_32 0", true, true),
        (".amdhsa_float_denorm_mode_32 1", false, true),
        (".amdhsa_float_denorm_mode_32 2", true, false),
        (".amdhsa_float_denorm_mode_32 3", false, false),
    ] {
        let rows = run_denorm(directive);
        let what = if directive.is_empty() {
            "no directive"
        } else {
            directive
        };
        for (l, &a) in INPUT.iter().enumerate() {
            // The host keeps subnormals: it is the mode-3 oracle; the flushed modes read a
            // subnormal source as 0 and write a subnormal result as 0.
            let src = f32::from_bits(flushed(a, fin));
            let want = |r: f32| flushed(r, fout);
            assert_eq!(rows[0][l], want(src + src), "{what}: {a:e} + {a:e}");
            assert_eq!(rows[1][l], want(src * 0.5), "{what}: {a:e} * 0.5");
            assert_eq!(rows[2][l], (a + a).to_bits(), "{what}: after setreg 3");
            assert_eq!(rows[3][l], 3 | 3 << 2, "{what}: s_getreg of both fields");
            assert_eq!(rows[4][l], flushed(a + a, true), "{what}: after setreg 0");
            assert_eq!(rows[5][l], (src == 0.0) as u32, "{what}: {a:e} == 0");
        }
    }
    // 1e-40 + 1e-40 is the doubled subnormal only when kept.
    let kept = run_denorm(".amdhsa_float_denorm_mode_32 3")[0][0];
    assert_eq!(kept, 2 * 1e-40f32.to_bits());
    assert_eq!(run_denorm("")[0][0], 0);
    assert_eq!(run_denorm("")[0][1], 0x8000_0000, "flushing keeps the sign");
}

#[test]
fn the_f16_f64_field_is_read_and_kept_apart() {
    let rows = run_denorm(".amdhsa_float_denorm_mode_16_64 1");
    assert_eq!(rows[3][0], 3 | 1 << 2);
    assert_eq!(rows[0][0], 0, "the f32 field is still llvm-mc's 0");
}

#[test]
fn mode_fields_outside_the_float_bits_are_refused() {
    let mut w = wave();
    let p = one("s_setreg_imm32_b32 hwreg(HW_REG_MODE, 28, 4), 0");
    assert!(exec1(&p, &mut w).is_err());
    let p = one("s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 0");
    exec1(&p, &mut w).unwrap();
    assert_eq!(w.mode >> 4 & 3, 0);
    // llvm-mc-22: "invalid operand for instruction".
    assert!(parse("k:\n\ts_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), s0\n").is_err());
}

/// Runs an f32 division listing (`num`, `den`, `out` kernel arguments) on `pairs`.
fn divide(text: &str, kernel: &str, pairs: &[(f32, f32)]) -> Vec<u32> {
    let p = parse(text).unwrap();
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
    let l = launch(kernel, (n / 64) as u32, 64, &[num, den, out]);
    run(&p, &l, &mut mem, &SimOptions::default()).unwrap();
    mem.dwords(out).unwrap()
}

/// LLVM's f32 division in a kernel that flushes f32 subnormals (mode 0), its FMA steps
/// bracketed by `s_setreg_imm32_b32` to mode 3 and back: the correctly rounded quotient of the
/// operands read as flushed, written as flushed, as the host computes it.
/// Without the bracket the FMA steps' subnormal residuals are flushed and some quotients of
/// tiny numerators are an ulp off: the bracket is what makes it exact.
#[test]
fn llvms_bracketed_division_is_exact_in_a_flushing_kernel() {
    let text = include_str!("../testdata/fdiv_flush.s");
    let pairs = super::isa::div_operands();
    let bad = flushed_division_errors(text, &pairs);
    assert!(
        bad.is_empty(),
        "{} wrong of {}:\n{}",
        bad.len(),
        pairs.len(),
        bad[..bad.len().min(20)].join("\n")
    );
    let unbracketed: String = text
        .lines()
        .filter(|l| !l.contains("s_setreg"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(!flushed_division_errors(&unbracketed, &pairs).is_empty());
}

/// The quotients `text` gets wrong for a kernel that flushes f32 subnormals.
fn flushed_division_errors(text: &str, pairs: &[(f32, f32)]) -> Vec<String> {
    let got = divide(text, "fdiv_flush", pairs);
    let mut bad = Vec::new();
    for (i, &(a, b)) in pairs.iter().enumerate() {
        let q = f32::from_bits(flushed(a, true)) / f32::from_bits(flushed(b, true));
        let g = f32::from_bits(got[i]);
        let ok = if q.is_nan() {
            g.is_nan()
        } else {
            got[i] == flushed(q, true)
        };
        if !ok {
            bad.push(format!("{a:e} / {b:e}: got {g:e}, want {q:e}"));
        }
    }
    bad
}
