//! DPP controls against a reference written from the ISA manual's wording (not from
//! `crate::dpp`): every control kc prints, on all 64 lanes, under full and partial EXEC, with
//! and without row / bank masks and `bound_ctrl`; and the parser's DPP rules.

use super::*;

/// The lane `lane` reads under control `ctrl` (llvm-mc spelling), per the manual's table.
fn reference_source(ctrl: &str, lane: usize) -> Option<usize> {
    let (row, idx) = (lane / 16, lane % 16);
    let (key, val) = ctrl.split_once(':').unwrap_or((ctrl, ""));
    let n: usize = val.parse().unwrap_or(0);
    let in_row = |i: i64| (0..16).contains(&i).then(|| row * 16 + i as usize);
    match key {
        "quad_perm" => {
            let sel: Vec<usize> = val
                .trim_matches(|c| c == '[' || c == ']')
                .split(',')
                .map(|x| x.parse().unwrap())
                .collect();
            Some(lane - lane % 4 + sel[lane % 4])
        }
        "row_shl" => in_row(idx as i64 + n as i64),
        "row_shr" => in_row(idx as i64 - n as i64),
        "row_ror" => Some(row * 16 + (idx + 16 - n) % 16),
        "wave_shl" => (lane + 1 < 64).then_some(lane + 1),
        "wave_shr" => lane.checked_sub(1),
        "wave_rol" => Some((lane + 1) % 64),
        "wave_ror" => Some((lane + 63) % 64),
        "row_mirror" => Some(row * 16 + 15 - idx),
        "row_half_mirror" => Some(lane - lane % 8 + 7 - lane % 8),
        // Lane 15 of each row to the next row; lane 31 to rows 2 and 3.
        "row_bcast" if n == 15 => (row > 0).then(|| row * 16 - 1),
        "row_bcast" if n == 31 => (row >= 2).then_some(31),
        _ => panic!("no reference for {ctrl}"),
    }
}

const CONTROLS: &[&str] = &[
    "quad_perm:[1,0,3,2]",
    "quad_perm:[3,3,0,1]",
    "row_shl:1",
    "row_shl:15",
    "row_shr:1",
    "row_shr:2",
    "row_shr:4",
    "row_shr:8",
    "row_shr:15",
    "row_ror:1",
    "row_ror:9",
    "wave_shl:1",
    "wave_shr:1",
    "wave_rol:1",
    "wave_ror:1",
    "row_mirror",
    "row_half_mirror",
    "row_bcast:15",
    "row_bcast:31",
];

const EXECS: &[u64] = &[
    u64::MAX,
    0x0000_0000_ffff_fffe,
    0xf0f0_5555_8001_7ffe,
    0x8000_0000_0000_0001,
];

#[test]
fn every_control_on_every_lane() {
    for ctrl in CONTROLS {
        for (rm, bm) in [(0xfu8, 0xfu8), (0xa, 0xf), (0xc, 0x5), (0x3, 0x9)] {
            for bound in [false, true] {
                for &exec in EXECS {
                    let bc = if bound { " bound_ctrl:0" } else { "" };
                    let text = format!(
                        "v_add_u32_dpp v0, v1, v2 {ctrl} row_mask:0x{rm:x} bank_mask:0x{bm:x}{bc}"
                    );
                    let p = one(&text);
                    let mut w = wave();
                    w.s[EXEC as usize] = exec as u32;
                    w.s[EXEC as usize + 1] = (exec >> 32) as u32;
                    for l in 0..64 {
                        w.v[0][l] = 0xdead_0000 + l as u32;
                        w.v[1][l] = 1000 * (l as u32 + 1);
                        w.v[2][l] = l as u32;
                    }
                    exec1(&p, &mut w).unwrap();
                    for l in 0..64 {
                        let old = 0xdead_0000 + l as u32;
                        let enabled = exec >> l & 1 != 0
                            && rm >> (l / 16) & 1 != 0
                            && bm >> ((l % 16) / 4) & 1 != 0;
                        let src = reference_source(ctrl, l).filter(|&s| exec >> s & 1 != 0);
                        let want = match (enabled, src) {
                            (false, _) => old,
                            (true, Some(s)) => 1000 * (s as u32 + 1) + l as u32,
                            (true, None) if bound => l as u32,
                            (true, None) => old,
                        };
                        assert_eq!(w.v[0][l], want, "lane {l} of `{text}` exec {exec:#x}");
                    }
                }
            }
        }
    }
}

/// The scan LLVM's atomic optimizer builds (row_shr 1, 2, 4, 8, row_bcast 15 and 31, in
/// place): lane 63 ends with the sum of the wave.
#[test]
fn llvm_scan_sequence_sums_the_wave() {
    let body = [
        "v_add_u32_dpp v1, v1, v1 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1",
        "v_add_u32_dpp v1, v1, v1 row_shr:2 row_mask:0xf bank_mask:0xf bound_ctrl:1",
        "v_add_u32_dpp v1, v1, v1 row_shr:4 row_mask:0xf bank_mask:0xf bound_ctrl:1",
        "v_add_u32_dpp v1, v1, v1 row_shr:8 row_mask:0xf bank_mask:0xf bound_ctrl:1",
        "v_add_u32_dpp v1, v1, v1 row_bcast:15 row_mask:0xa bank_mask:0xf",
        "v_add_u32_dpp v1, v1, v1 row_bcast:31 row_mask:0xc bank_mask:0xf",
    ];
    let mut w = wave();
    for l in 0..64 {
        w.v[1][l] = (l as u32 + 1) * 3;
    }
    for line in body {
        exec1(&one(line), &mut w).unwrap();
    }
    // An inclusive scan: lane l holds the sum of lanes 0..=l.
    for l in 0..64 {
        let want: u32 = (0..=l as u32).map(|k| (k + 1) * 3).sum();
        assert_eq!(w.v[1][l], want, "lane {l}");
    }
}

#[test]
fn carry_ops_and_minmax_take_dpp() {
    // A 64-bit add of lane l - 1's pair: the carry out of the low half feeds the high half.
    let lo = |l: usize| 0xffff_fff0u32.wrapping_add(l as u32);
    let mut w = wave();
    for l in 0..64 {
        w.v[2][l] = lo(l);
        w.v[3][l] = l as u32;
    }
    exec1(
        &one("v_add_co_u32_dpp v2, vcc, v2, v2 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1"),
        &mut w,
    )
    .unwrap();
    exec1(
        &one("v_addc_co_u32_dpp v3, vcc, v3, v3, vcc row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1"),
        &mut w,
    )
    .unwrap();
    for l in 0..64 {
        let own = (l as u64) << 32 | lo(l) as u64;
        let other = if l % 16 == 0 {
            0
        } else {
            ((l as u64 - 1) << 32) | lo(l - 1) as u64
        };
        let want = own.wrapping_add(other);
        assert_eq!(
            (w.v[3][l] as u64) << 32 | w.v[2][l] as u64,
            want,
            "lane {l}"
        );
    }
    // Without bound_ctrl, a lane with no source keeps its value: min(x, identity).
    let mut w = wave();
    for l in 0..64 {
        w.v[1][l] = (100 - l as i32) as u32;
    }
    exec1(
        &one("v_min_i32_dpp v1, v1, v1 row_shr:4 row_mask:0xf bank_mask:0xf"),
        &mut w,
    )
    .unwrap();
    for l in 0..64 {
        let x = 100 - l as i32;
        let want = if l % 16 < 4 { x } else { x.min(x + 4) };
        assert_eq!(w.v[1][l] as i32, want, "lane {l}");
    }
}

#[test]
fn parser_rejects_what_llvm_mc_rejects() {
    for bad in [
        "v_add_u32_dpp v0, s1, v2 row_shr:1 row_mask:0xf bank_mask:0xf",
        "v_add_u32_dpp v0, v1, s2 row_shr:1 row_mask:0xf bank_mask:0xf",
        "v_add_u32_dpp v0, 1, v2 row_shr:1 row_mask:0xf bank_mask:0xf",
        "v_add_u32_dpp v0, v1, v2 row_shr:16 row_mask:0xf bank_mask:0xf",
        "v_add_u32_dpp v0, v1, v2 row_bcast:7",
        "v_add_u32_dpp v0, v1, v2 row_mask:0xf",
        "v_add_u32_dpp v0, v1, v2",
        "v_mul_lo_u32_dpp v0, v1, v2 row_shr:1",
        "v_readfirstlane_b32_dpp s0, v1 row_shr:1",
        "v_add_co_u32_dpp v0, s[2:3], v1, v2 row_shr:1",
        "v_add_u32_e32 v0, v1, v2 row_shr:1",
    ] {
        assert!(
            parse(&format!("k:\n\t{bad}\n")).is_err(),
            "accepted `{bad}`"
        );
    }
}
