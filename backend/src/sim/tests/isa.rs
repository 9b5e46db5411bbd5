//! Single instructions against Rust references: every ALU op on edge values in all 64
//! lanes, compares, carries, lane ops, SALU with SCC, the f32 division sequence.

use super::*;

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
pub(super) fn div_operands() -> Vec<(f32, f32)> {
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

/// Runs `mn v0, v1, v2, v3` on EDGE triples in all 64 lanes and compares every lane.
fn check_valu3(mn: &str, f: impl Fn(u32, u32, u32) -> u32) {
    let p = one(&format!("{mn} v0, v1, v2, v3"));
    for r in 0..16 {
        let mut w = wave();
        for l in 0..64 {
            w.v[1][l] = EDGE[l % 16];
            w.v[2][l] = EDGE[(l / 16 + 4 * (r % 4)) % 16];
            w.v[3][l] = EDGE[(r + l) % 16].rotate_left(r as u32);
        }
        exec1(&p, &mut w).unwrap();
        for l in 0..64 {
            let (a, b, c) = (w.v[1][l], w.v[2][l], w.v[3][l]);
            assert_eq!(w.v[0][l], f(a, b, c), "{mn} {a:#x} {b:#x} {c:#x}");
        }
    }
}

/// The low 24 bits as an unsigned / a two's complement 24-bit number.
fn low24(x: u32) -> i64 {
    (x % (1 << 24)) as i64
}

fn signed24(x: u32) -> i64 {
    let v = low24(x);
    if v >= 1 << 23 {
        v - (1 << 24)
    } else {
        v
    }
}

#[test]
fn valu_24_bit_multiplies() {
    let lo = |p: i64| (p as u64 % (1 << 32)) as u32;
    let hi = |p: i64| ((p >> 32) as u64 % (1 << 32)) as u32;
    check_valu2("v_mul_i32_i24_e32", |a, b| lo(signed24(a) * signed24(b)));
    check_valu2("v_mul_i32_i24_e64", |a, b| lo(signed24(a) * signed24(b)));
    check_valu2("v_mul_hi_i32_i24_e32", |a, b| hi(signed24(a) * signed24(b)));
    check_valu2("v_mul_u32_u24_e32", |a, b| lo(low24(a) * low24(b)));
    check_valu2("v_mul_u32_u24_e64", |a, b| lo(low24(a) * low24(b)));
    check_valu2("v_mul_hi_u32_u24_e32", |a, b| hi(low24(a) * low24(b)));
    check_valu3(
        "v_mad_u32_u24",
        |a, b, c| lo(low24(a) * low24(b) + c as i64),
    );
    check_valu3("v_mad_i32_i24", |a, b, c| {
        lo(signed24(a) * signed24(b) + c as i64)
    });
    // The sign of bit 23, the top byte ignored: values worked by hand.
    let mut w = wave();
    let p = one("v_mul_i32_i24_e32 v0, v1, v2");
    let q = one("v_mul_hi_i32_i24_e32 v3, v1, v2");
    let u = one("v_mul_hi_u32_u24_e32 v4, v1, v2");
    (w.v[1][0], w.v[2][0]) = (0x00ff_ffff, 2); // -1 * 2
    (w.v[1][1], w.v[2][1]) = (0xff80_0000, 0x0080_0000); // (-2^23)^2 = 2^46
    (w.v[1][2], w.v[2][2]) = (0x7f00_0003, 0x0100_0005); // top bytes ignored: 3 * 5
    (w.v[1][3], w.v[2][3]) = (0x00ff_ffff, 0x00ff_ffff);
    for prog in [&p, &q, &u] {
        exec1(prog, &mut w).unwrap();
    }
    assert_eq!(&w.v[0][..3], &[0xffff_fffe, 0, 15]);
    assert_eq!(&w.v[3][..3], &[0xffff_ffff, 0x4000, 0]);
    // 0xffffff^2 = 0xfffffe000001: high word 0xffff.
    assert_eq!(w.v[4][3], 0xffff);
}

#[test]
fn valu_bit_and_three_operand_ops() {
    let popcount = |x: u32| (0..32).filter(|i| x >> i & 1 == 1).count() as u32;
    check_valu2("v_bcnt_u32_b32", |a, b| popcount(a).wrapping_add(b));
    check_valu2("v_bcnt_u32_b32_e64", |a, b| popcount(a).wrapping_add(b));
    check_valu1_bfrev();
    check_valu3("v_bfi_b32", |m, a, b| (m & a) | (!m & b));
    check_valu3("v_xad_u32", |a, b, c| (a ^ b).wrapping_add(c));
    check_valu3("v_add_lshl_u32", |a, b, s| {
        ((a as u64 + b as u64) % (1 << 32) * (1 << (s % 32)) % (1 << 32)) as u32
    });
    check_valu3("v_lshl_or_b32", |a, s, c| {
        ((a as u64 * (1 << (s % 32))) % (1 << 32)) as u32 | c
    });
    check_valu3("v_and_or_b32", |a, b, c| (a & b) | c);
    check_valu3("v_or3_b32", |a, b, c| a | b | c);
    // Constants and an SGPR in the VOP3 forms, as clang prints them.
    let mut w = wave();
    w.s[70] = 5;
    w.v[14] = [0x10; 64];
    exec1(&one("v_add_lshl_u32 v1, s70, v14, 3"), &mut w).unwrap();
    assert_eq!(w.v[1][7], (5 + 0x10) << 3);
}

fn check_valu1_bfrev() {
    let p = one("v_bfrev_b32_e32 v0, v1");
    let mut w = wave();
    for l in 0..64 {
        w.v[1][l] = EDGE[l % 16].rotate_left(l as u32);
    }
    exec1(&p, &mut w).unwrap();
    for l in 0..64 {
        let a = w.v[1][l];
        let want = (0..32).fold(0u32, |r, i| r | (a >> i & 1) << (31 - i));
        assert_eq!(w.v[0][l], want, "v_bfrev_b32 {a:#x}");
    }
}

#[test]
fn subrev_forms_with_borrow() {
    // v_subrev_f32: src1 - src0.
    let mut w = wave();
    (w.v[1][0], w.v[2][0]) = (1.5f32.to_bits(), 4.0f32.to_bits());
    exec1(&one("v_subrev_f32_e32 v0, v1, v2"), &mut w).unwrap();
    assert_eq!(f32::from_bits(w.v[0][0]), 2.5);
    exec1(&one("v_subrev_f32_e64 v0, -v1, |v2|"), &mut w).unwrap();
    assert_eq!(f32::from_bits(w.v[0][0]), 5.5);
    // v_subrev_co_u32: src1 - src0, borrow out when src0 > src1; inactive lanes 32..
    // keep their value and get a 0 bit.
    for text in [
        "v_subrev_co_u32_e32 v0, vcc, v1, v2",
        "v_subrev_co_u32_e64 v0, s[6:7], v1, v2",
    ] {
        let mut w = wave();
        w.s[EXEC as usize + 1] = 0;
        w.v[0] = [0x1234; 64];
        for l in 0..64 {
            w.v[1][l] = EDGE[l % 16];
            w.v[2][l] = EDGE[(l / 4) % 16];
        }
        exec1(&one(text), &mut w).unwrap();
        let sd = if text.contains("vcc") {
            VCC as usize
        } else {
            6
        };
        let mask = w.s[sd] as u64 | (w.s[sd + 1] as u64) << 32;
        for l in 0..64 {
            let (a, b) = (w.v[1][l] as i64, w.v[2][l] as i64);
            if l < 32 {
                assert_eq!(w.v[0][l], (b - a) as u32, "{text} lane {l}");
                assert_eq!(mask >> l & 1 == 1, a > b, "{text} borrow, lane {l}");
            } else {
                assert_eq!(w.v[0][l], 0x1234, "{text}: inactive lane {l} written");
                assert_eq!(mask >> l & 1, 0, "{text}: inactive lane {l}'s bit");
            }
        }
    }
}

#[test]
fn sopk_compares_and_arithmetic() {
    use crate::isa::{Fmt, Opc};
    let values = [
        0u32,
        1,
        2,
        0x7fff,
        0x8000,
        0xffff,
        0x1_0000,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_8000,
        0xffff_fffe,
        0xffff_ffff,
    ];
    let imms = [0u16, 1, 2, 0x7fff, 0x8000, 0xfffe, 0xffff];
    let mut seen = 0;
    for &o in Opc::ALL {
        let name = o.name();
        let Some(rest) = name.strip_prefix("s_cmpk_") else {
            continue;
        };
        assert_eq!(o.desc().fmt, Fmt::Sopk);
        seen += 1;
        let (pred, ty) = rest.split_once('_').unwrap();
        for &k in &imms {
            let p = one(&format!("{name} s3, {k:#x}"));
            for &a in &values {
                let mut w = wave();
                w.s[3] = a;
                exec1(&p, &mut w).unwrap();
                let o = if ty == "i32" {
                    // The immediate sign-extended from bit 15.
                    let sk = if k >= 0x8000 {
                        k as i64 - 0x10000
                    } else {
                        k as i64
                    };
                    (a as i32 as i64).cmp(&sk)
                } else {
                    (a as u64).cmp(&(k as u64))
                };
                let pred = if pred == "lg" { "ne" } else { pred };
                assert_eq!(w.scc, int_pred(pred, o), "{name} {a:#x}, {k:#x}");
            }
        }
    }
    assert_eq!(seen, 12, "every s_cmpk condition, signed and unsigned");
    // A negative immediate of the signed forms is the same 16 bits.
    let mut w = wave();
    w.s[3] = u32::MAX;
    exec1(&one("s_cmpk_eq_i32 s3, -1"), &mut w).unwrap();
    assert!(w.scc);
    exec1(&one("s_cmpk_eq_u32 s3, 0xffff"), &mut w).unwrap();
    assert!(!w.scc, "unsigned: 0xffff zero-extended");
    // s_addk_i32: sdst += sign-extended imm, SCC = signed overflow; s_mulk_i32.
    w.s[3] = 0x7fff_fff0;
    exec1(&one("s_addk_i32 s3, 0x10"), &mut w).unwrap();
    assert_eq!((w.s[3], w.scc), (0x8000_0000, true));
    exec1(&one("s_addk_i32 s3, 0xffff"), &mut w).unwrap();
    assert_eq!((w.s[3], w.scc), (0x7fff_ffff, true));
    w.s[3] = 100;
    exec1(&one("s_addk_i32 s3, -200"), &mut w).unwrap();
    assert_eq!((w.s[3], w.scc), (-100i32 as u32, false));
    exec1(&one("s_mulk_i32 s3, 0xfffd"), &mut w).unwrap();
    assert_eq!(w.s[3], 300);
}

#[test]
fn packed_f32_ops_and_modifiers() {
    let bits = |x: f32| x.to_bits();
    let mut w = wave();
    w.s[EXEC as usize + 1] = 0; // lanes 32.. inactive
    for l in 0..64 {
        let x = l as f32;
        (w.v[2][l], w.v[3][l]) = (bits(x), bits(x + 0.5)); // a = (x, x + 0.5)
        (w.v[4][l], w.v[5][l]) = (bits(3.0), bits(-2.0)); // b = (3, -2)
        (w.v[6][l], w.v[7][l]) = (bits(100.0), bits(200.0)); // c = (100, 200)
        (w.v[0][l], w.v[1][l]) = (7, 7);
    }
    (w.s[34], w.s[35]) = (bits(10.0), bits(20.0));
    let run = |w: &mut Wave, t: &str| {
        let mut w2 = wave();
        w2.s = w.s;
        w2.v = w.v.clone();
        exec1(&one(t), &mut w2).unwrap();
        w2
    };
    let check = |w: &Wave, t: &str, f: &dyn Fn(f32) -> (f32, f32)| {
        for l in 0..64 {
            let got = (f32::from_bits(w.v[0][l]), f32::from_bits(w.v[1][l]));
            if l < 32 {
                assert_eq!(got, f(l as f32), "{t} lane {l}");
            } else {
                assert_eq!((w.v[0][l], w.v[1][l]), (7, 7), "{t}: inactive lane {l}");
            }
        }
    };
    let t = "v_pk_add_f32 v[0:1], v[2:3], v[4:5]";
    check(&run(&mut w, t), t, &|x| (x + 3.0, x + 0.5 - 2.0));
    let t = "v_pk_mul_f32 v[0:1], v[2:3], v[4:5]";
    check(&run(&mut w, t), t, &|x| (x * 3.0, (x + 0.5) * -2.0));
    let t = "v_pk_fma_f32 v[0:1], v[2:3], v[4:5], v[6:7]";
    check(&run(&mut w, t), t, &|x| {
        (x * 3.0 + 100.0, (x + 0.5) * -2.0 + 200.0)
    });
    // a - b.yx, as clang writes it: low = a.lo + -b.hi, high = a.hi + -b.lo.
    let t = "v_pk_add_f32 v[0:1], v[2:3], v[4:5] op_sel:[0,1] op_sel_hi:[1,0] neg_lo:[0,1] neg_hi:[0,1]";
    check(&run(&mut w, t), t, &|x| (x + 2.0, x + 0.5 - 3.0));
    // A constant and an SGPR pair whose low halves both results read.
    let t = "v_pk_fma_f32 v[0:1], v[2:3], 0.5, s[34:35] op_sel_hi:[1,0,0]";
    check(&run(&mut w, t), t, &|x| {
        (x * 0.5 + 10.0, (x + 0.5) * 0.5 + 10.0)
    });
    let t = "v_pk_mul_f32 v[0:1], v[2:3], s[34:35] op_sel:[1,1] neg_hi:[1,0]";
    check(&run(&mut w, t), t, &|x| {
        ((x + 0.5) * 20.0, -(x + 0.5) * 20.0)
    });
    // The destination overlapping a source: both halves read before either is written.
    let t = "v_pk_add_f32 v[2:3], v[2:3], v[2:3] op_sel:[1,0] op_sel_hi:[0,1]";
    let w2 = run(&mut w, t);
    for l in 0..32 {
        let x = l as f32;
        assert_eq!(
            (f32::from_bits(w2.v[2][l]), f32::from_bits(w2.v[3][l])),
            (x + 0.5 + x, x + x + 0.5),
            "{t}"
        );
    }
    // The high half of a constant is not read by anything clang prints: refused.
    for bad in [
        "v_pk_fma_f32 v[0:1], v[2:3], 0.5, v[6:7]",
        "v_pk_add_f32 v[0:1], v[2:3], 1.0 op_sel:[0,1] op_sel_hi:[1,0]",
        "v_pk_add_f32 v[0:1], v[2:3], v[4:5] offset:4",
    ] {
        assert!(parse(&format!("k:\n\t{bad}\n")).is_err(), "{bad}");
    }
}

#[test]
fn integer_clamp_saturates_and_subbrev_borrows() {
    // `clamp` on the VOP3 integer add/sub: unsigned saturation (what clang's usub.sat is).
    let mut w = wave();
    (w.v[1][0], w.v[2][0]) = (3, 5);
    (w.v[1][1], w.v[2][1]) = (9, 5);
    (w.v[1][2], w.v[2][2]) = (u32::MAX - 1, 5);
    for (t, want) in [
        ("v_sub_u32_e64 v0, v1, v2 clamp", [0, 4, u32::MAX - 6]),
        ("v_sub_u32_e64 v0, v1, v2", [u32::MAX - 1, 4, u32::MAX - 6]),
        ("v_subrev_u32_e64 v0, v1, v2 clamp", [2, 0, 0]),
        ("v_add_u32_e64 v0, v1, v2 clamp", [8, 14, u32::MAX]),
        ("v_add_u32_e64 v0, v1, v2", [8, 14, 3]),
    ] {
        exec1(&one(t), &mut w).unwrap();
        assert_eq!(&w.v[0][..3], &want, "{t}");
    }
    for bad in [
        "v_sub_u32_e32 v0, v1, v2 clamp",
        "v_and_b32_e64 v0, v1, v2 clamp",
    ] {
        assert!(parse(&format!("k:\n\t{bad}\n")).is_err(), "{bad}");
    }
    // v_subbrev_co_u32: src1 - src0 - borrow-in, borrow out.
    let mut w = wave();
    w.s[EXEC as usize + 1] = 0;
    (w.s[4], w.s[5]) = (0b0110, 0);
    for (l, (a, b)) in [(0u32, 0u32), (0, 0), (1, 1), (5, 3)].iter().enumerate() {
        (w.v[1][l], w.v[2][l]) = (*a, *b);
    }
    exec1(
        &one("v_subbrev_co_u32_e64 v0, s[0:1], v1, v2, s[4:5]"),
        &mut w,
    )
    .unwrap();
    assert_eq!(&w.v[0][..4], &[0, u32::MAX, u32::MAX, u32::MAX - 1]);
    assert_eq!((w.s[0], w.s[1]), (0b1110, 0));
}
