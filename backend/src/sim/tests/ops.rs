//! Simulator tests of the instructions behind 64-bit integer arithmetic, f32 division and
//! remainder, int64 <-> f32 conversions and 64-bit atomics: each against a Rust reference
//! written independently of `alu.rs` (f64 / i128 arithmetic, bit counting), on edge values in
//! all 64 lanes, inactive lanes untouched.

use super::super::exec::{Wave, EXEC};
use super::{exec1, exec_mem, one, wave, EDGE};

fn fl(x: u32) -> f32 {
    f32::from_bits(x)
}

/// Edge f32 patterns for the float helpers: EDGE plus denormals, powers of two, halves.
const FEDGE: [u32; 16] = [
    0x0000_0001, // smallest denormal
    0x807f_ffff, // largest negative denormal
    0x0040_0000,
    0x3f00_0000, // 0.5
    0x3fc0_0000, // 1.5
    0x4020_0000, // 2.5
    0xc060_0000, // -3.5
    0x4b00_0001, // 2^23 + 1
    0x4f80_0000, // 2^32
    0x5f00_0000, // 2^63
    0x7f7f_ffff, // max
    0x7f80_0000, // inf
    0x8000_0000, // -0
    0x7fa0_0000, // signaling NaN
    0xbf7f_ffff, // -(1 - 2^-24)
    0x3eff_ffff, // just below 0.5
];

fn lanes_value(l: usize) -> u32 {
    if l < 16 {
        EDGE[l]
    } else if l < 32 {
        FEDGE[l - 16]
    } else {
        EDGE[l % 16].rotate_left(l as u32) ^ FEDGE[(l / 2) % 16]
    }
}

/// Runs `mn v0, v1` on 64 edge values, half the lanes inactive for one round.
fn check_valu1(mn: &str, f: impl Fn(u32) -> u32) {
    let p = one(&format!("{mn} v0, v1"));
    for half in [false, true] {
        let mut w = wave();
        if half {
            w.s[EXEC as usize] = 0x5555_5555;
        }
        for l in 0..64 {
            w.v[1][l] = lanes_value(l);
            w.v[0][l] = 0xdead;
        }
        exec1(&p, &mut w).unwrap();
        for l in 0..64 {
            let active = !half || l >= 32 || l % 2 == 0;
            let want = if active { f(w.v[1][l]) } else { 0xdead };
            let got = w.v[0][l];
            let nan_ok = fl(want).is_nan() && fl(got).is_nan() && mn.contains("f32");
            assert!(
                got == want || nan_ok,
                "{mn} {:#x}: {got:#x} != {want:#x}",
                w.v[1][l]
            );
        }
    }
}

/// f64 reference of frexp for finite nonzero x: (mant, exp) with |mant| in [0.5, 1).
fn frexp_ref(x: f32) -> (f32, i32) {
    let mut e = 0;
    let mut m = x as f64;
    while m.abs() >= 1.0 {
        m /= 2.0;
        e += 1;
    }
    while m.abs() < 0.5 {
        m *= 2.0;
        e -= 1;
    }
    (m as f32, e)
}

#[test]
fn rounding_counting_and_exponent_ops() {
    let quiet = |x: u32| if fl(x).is_nan() { x | 0x40_0000 } else { x };
    check_valu1("v_trunc_f32_e32", |a| {
        quiet(((fl(a) as f64).trunc() as f32).to_bits())
    });
    check_valu1("v_floor_f32_e32", |a| {
        quiet(((fl(a) as f64).floor() as f32).to_bits())
    });
    check_valu1("v_rndne_f32_e32", |a| {
        let x = fl(a) as f64;
        let r = x.round();
        // Ties go to the even neighbour.
        let r = if (x - x.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
            r - x.signum()
        } else {
            r
        };
        quiet((r as f32).to_bits() | (a & 0x8000_0000))
    });
    check_valu1("v_ffbh_u32_e32", |a| {
        (0..32).find(|i| a >> (31 - i) & 1 == 1).unwrap_or(u32::MAX)
    });
    check_valu1("v_ffbh_i32_e32", |a| {
        let s = a >> 31;
        (1..32).find(|i| a >> (31 - i) & 1 != s).unwrap_or(u32::MAX)
    });
    check_valu1("v_frexp_mant_f32_e32", |a| {
        let x = fl(a);
        if x == 0.0 || !x.is_finite() {
            a
        } else {
            frexp_ref(x).0.to_bits()
        }
    });
    check_valu1("v_frexp_exp_i32_f32_e32", |a| {
        let x = fl(a);
        if x == 0.0 || !x.is_finite() {
            0
        } else {
            frexp_ref(x).1 as u32
        }
    });
}

#[test]
fn ldexp_fmac_add3_and_mad_u64_u32() {
    // v_ldexp_f32: every lane value scaled by exponents that keep it exact, overflow, or
    // land in (or below) the denormal range.
    for n in [
        0i32,
        1,
        -1,
        12,
        -12,
        126,
        -126,
        -149,
        -150,
        200,
        -300,
        254,
        i32::MIN,
    ] {
        let p = one("v_ldexp_f32 v0, v1, v2");
        let mut w = wave();
        for l in 0..64 {
            w.v[1][l] = lanes_value(l);
            w.v[2][l] = n as u32;
        }
        exec1(&p, &mut w).unwrap();
        for l in 0..64 {
            let x = fl(w.v[1][l]);
            let want = (x as f64 * 2f64.powi(n.max(-400))) as f32;
            let got = fl(w.v[0][l]);
            assert!(
                got.to_bits() == want.to_bits() || got.is_nan() && want.is_nan(),
                "ldexp({x:e}, {n}) = {got:e}, want {want:e}"
            );
        }
    }
    // v_fmac_f32: vdst = src0 * src1 + vdst with one rounding (a literal src0 too).
    let p = one("v_fmac_f32_e32 v0, 0x4f800000, v1");
    let mut w = wave();
    for l in 0..64 {
        w.v[1][l] = l as u32 * 3;
        w.v[0][l] = (l as f32 * 0.75).to_bits();
    }
    w.s[EXEC as usize + 1] = 0;
    exec1(&p, &mut w).unwrap();
    for l in 0..64 {
        let want = if l < 32 {
            (4294967296.0f64 * fl(l as u32 * 3) as f64 + l as f64 * 0.75) as f32
        } else {
            l as f32 * 0.75
        };
        assert_eq!(fl(w.v[0][l]), want, "lane {l}");
    }
    let p = one("v_add3_u32 v0, v1, v2, 5");
    let mut w = wave();
    for l in 0..64 {
        (w.v[1][l], w.v[2][l]) = (EDGE[l % 16], EDGE[(l / 16) * 3 % 16]);
    }
    exec1(&p, &mut w).unwrap();
    for l in 0..64 {
        let want = (w.v[1][l] as u64 + w.v[2][l] as u64 + 5) as u32;
        assert_eq!(w.v[0][l], want);
    }
    // v_mad_u64_u32: 32 x 32 + 64 with the carry out of bit 63 per lane.
    let p = one("v_mad_u64_u32 v[4:5], s[0:1], v1, v2, v[6:7]");
    let mut w = wave();
    w.s[EXEC as usize + 1] = 0xffff;
    for l in 0..64 {
        (w.v[1][l], w.v[2][l]) = (EDGE[l % 16], EDGE[(l / 4) % 16]);
        (w.v[6][l], w.v[7][l]) = (EDGE[(l * 7) % 16], EDGE[(l * 5) % 16]);
    }
    exec1(&p, &mut w).unwrap();
    let mut carry = 0u64;
    for l in 0..48 {
        let c = w.v[6][l] as u128 | (w.v[7][l] as u128) << 32;
        let s = w.v[1][l] as u128 * w.v[2][l] as u128 + c;
        let got = w.v[4][l] as u128 | (w.v[5][l] as u128) << 32;
        assert_eq!(got, s & u64::MAX as u128, "lane {l}");
        carry |= ((s >> 64) as u64) << l;
    }
    assert_eq!(w.s[0] as u64 | (w.s[1] as u64) << 32, carry);
    assert_ne!(carry, 0, "the edge values produce carries");
}

fn pair(w: &Wave, r: usize, l: usize) -> u64 {
    w.v[r][l] as u64 | (w.v[r + 1][l] as u64) << 32
}

fn set_pair(w: &mut Wave, r: usize, l: usize, v: u64) {
    (w.v[r][l], w.v[r + 1][l]) = (v as u32, (v >> 32) as u32);
}

const BIG: u64 = 0x8000_0000_0000_0005;

#[test]
fn global_64_bit_atomics() {
    let mut mem = [0u32; 256];
    let mut lds = [0u32; 256];
    // Lanes 0..3 all hit the qword at byte 800 (dwords 200, 201), in lane order.
    let data = [3u64, BIG, u64::MAX, 0x1_0000_0000];
    let mut w = wave();
    w.s[EXEC as usize] = 0b1111;
    w.s[EXEC as usize + 1] = 0;
    (w.s[0], w.s[1]) = (super::tests::OUT as u32, 0);
    for (l, &d) in data.iter().enumerate() {
        w.v[1][l] = 800;
        set_pair(&mut w, 2, l, d);
        set_pair(&mut w, 4, l, 7); // cmpswap compare value (vdata[2:3])
    }
    type Rule = fn(u64, u64) -> u64;
    let rules: [(&str, Rule); 6] = [
        ("add_x2", |o, x| o.wrapping_add(x)),
        ("smin_x2", |o, x| (o as i64).min(x as i64) as u64),
        ("smax_x2", |o, x| (o as i64).max(x as i64) as u64),
        ("umin_x2", |o, x| o.min(x)),
        ("umax_x2", |o, x| o.max(x)),
        ("swap_x2", |_, x| x),
    ];
    for (name, f) in rules {
        let start = 0xffff_ffff_0000_0009u64;
        (mem[200], mem[201]) = (start as u32, (start >> 32) as u32);
        exec_mem(
            &format!("global_atomic_{name} v[8:9], v1, v[2:3], s[0:1] sc0"),
            &mut w,
            &mut mem,
            &mut lds,
        );
        let mut m = start;
        for (l, &d) in data.iter().enumerate() {
            assert_eq!(
                pair(&w, 8, l),
                m,
                "{name}: lane {l} returns the value before it"
            );
            m = f(m, d);
        }
        assert_eq!(mem[200] as u64 | (mem[201] as u64) << 32, m, "{name}");
    }
    // cmpswap_x2: vdata = {new (v[2:3]), cmp (v[4:5])}; only a lane seeing 7 stores.
    (mem[200], mem[201]) = (7, 0);
    exec_mem(
        "global_atomic_cmpswap_x2 v[8:9], v1, v[2:5], s[0:1] sc0",
        &mut w,
        &mut mem,
        &mut lds,
    );
    assert_eq!((pair(&w, 8, 0), pair(&w, 8, 1)), (7, 3));
    assert_eq!((mem[200], mem[201]), (3, 0));
    // Non-returning form: memory changes, vdst does not exist.
    exec_mem(
        "global_atomic_add_x2 v1, v[2:3], s[0:1]",
        &mut w,
        &mut mem,
        &mut lds,
    );
    let want = data.iter().fold(3u64, |a, &d| a.wrapping_add(d));
    assert_eq!(mem[200] as u64 | (mem[201] as u64) << 32, want);
    // Data in the wave's last VGPR pair: only cmpswap reads a quad (this once indexed past
    // the wave's VGPRs and panicked; found by exec_diff).
    let last = w.v.len() - 2;
    for l in 0..data.len() {
        set_pair(&mut w, last, l, 1);
    }
    exec_mem(
        &format!("global_atomic_add_x2 v1, v[{last}:{}], s[0:1]", last + 1),
        &mut w,
        &mut mem,
        &mut lds,
    );
    let want = want + data.len() as u64;
    assert_eq!(mem[200] as u64 | (mem[201] as u64) << 32, want);
}

#[test]
fn lds_64_bit_atomics() {
    let mut mem = [0u32; 256];
    let mut lds = [0u32; 256];
    let data = [BIG, 2u64, 0xffff_ffff, u64::MAX - 1];
    let mut w = wave();
    w.s[EXEC as usize] = 0b1011; // lane 2 inactive
    w.s[EXEC as usize + 1] = 0;
    for (l, &d) in data.iter().enumerate() {
        w.v[1][l] = 16;
        set_pair(&mut w, 2, l, d);
        set_pair(&mut w, 4, l, 100 + l as u64);
    }
    type Rule = fn(u64, u64) -> u64;
    let rules: [(&str, Rule); 6] = [
        ("ds_add_rtn_u64", |o, x| o.wrapping_add(x)),
        ("ds_min_rtn_i64", |o, x| (o as i64).min(x as i64) as u64),
        ("ds_max_rtn_i64", |o, x| (o as i64).max(x as i64) as u64),
        ("ds_min_rtn_u64", |o, x| o.min(x)),
        ("ds_max_rtn_u64", |o, x| o.max(x)),
        ("ds_wrxchg_rtn_b64", |_, x| x),
    ];
    for (name, f) in rules {
        let start = 0x0000_0001_ffff_fff0u64;
        (lds[6], lds[7]) = (start as u32, (start >> 32) as u32);
        exec_mem(
            &format!("{name} v[8:9], v1, v[2:3] offset:8"),
            &mut w,
            &mut mem,
            &mut lds,
        );
        let mut m = start;
        for (l, &d) in data.iter().enumerate() {
            if l == 2 {
                continue;
            }
            assert_eq!(pair(&w, 8, l), m, "{name}: lane {l}");
            m = f(m, d);
        }
        assert_eq!(lds[6] as u64 | (lds[7] as u64) << 32, m, "{name}");
    }
    // ds_cmpst_rtn_b64 addr, cmp, new: lane 1 sees the value lane 0 compared against.
    (lds[6], lds[7]) = (2, 0);
    for l in 0..4 {
        set_pair(&mut w, 2, l, [2, 100, 0, 9][l]); // compare values
    }
    exec_mem(
        "ds_cmpst_rtn_b64 v[8:9], v1, v[2:3], v[4:5] offset:8",
        &mut w,
        &mut mem,
        &mut lds,
    );
    assert_eq!(
        (pair(&w, 8, 0), pair(&w, 8, 1), pair(&w, 8, 3)),
        (2, 100, 101)
    );
    assert_eq!((lds[6], lds[7]), (101, 0));
}
