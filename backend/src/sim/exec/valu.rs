//! Vector ALU instructions (VOP1, VOP2, VOP3, VOPC) on one wave: lanes outside EXEC keep
//! their values, lane masks written are 0 for inactive lanes.
//!
//! DPP (`_dpp` forms, `dpp`): src0 of each lane comes from the lane the control names
//! (`crate::dpp::Dpp::source_lane`); a lane is written only if it is in EXEC, its row and bank
//! are enabled by `row_mask` / `bank_mask`, and its source lane is valid and in EXEC, or,
//! with `bound_ctrl`, src0 reads 0 for an invalid or inactive source and the lane is written.
//! A lane not written is treated as inactive by the operation, so its carry-out bit is 0.

use super::super::alu;
use super::{f, Inst, Op, Stop, Wave, VCC};
use crate::fp_mode::{Denormals, MODE_DENORM_32};
use crate::isa::Opc;

/// A VALU instruction (VOP1, VOP2, VOP3, VOPC, `_dpp` forms) under the wave's MODE
/// register: when its f32 denormal field flushes, the instruction's f32 sources
/// ([`f32_operands`]) read subnormals as zeros of their sign and its f32 result is written
/// as one, in the lanes it writes.
pub(super) fn execute(w: &mut Wave, inst: &Inst, exec: u64) -> Result<(), Stop> {
    let mode = Denormals::from_bits(w.mode >> MODE_DENORM_32);
    let (srcs, result) = f32_operands(inst.opc);
    if mode == Denormals::Keep || (srcs == 0 && !result) {
        return run(w, inst, exec).map(|_| ());
    }
    w.flush_srcs = if mode.flushes_inputs() { srcs } else { 0 };
    let written = run(w, inst, exec);
    w.flush_srcs = 0;
    let written = written?;
    if result && mode.flushes_outputs() {
        let Op::V(r, _) = inst.ops[0] else {
            unreachable!("an f32 result is a VGPR")
        };
        let Op::V(_, n) = inst.ops[0] else {
            unreachable!()
        };
        // Both halves of a packed result.
        for reg in &mut w.v[r as usize..r as usize + n as usize] {
            for (l, x) in reg.iter_mut().enumerate() {
                if written >> l & 1 != 0 {
                    *x = alu::flush_denormal(*x);
                }
            }
        }
    }
    Ok(())
}

/// Runs `inst` on the lanes of `exec`; returns the lanes it wrote.
fn run(w: &mut Wave, inst: &Inst, exec: u64) -> Result<u64, Stop> {
    if inst.opc.desc().fmt == crate::isa::Fmt::Vopc {
        vopc(w, inst, exec);
        return Ok(exec);
    }
    dpp(w, inst, exec)
}

/// The operands of `opc` the MODE register's f32 denormal field applies to: a bit per operand
/// slot read as an f32, and whether the result (slot 0) is an f32. Moves, selects, bit and
/// integer operations have none; conversions from an integer cannot give a subnormal.
fn f32_operands(opc: Opc) -> (u8, bool) {
    use Opc::*;
    const S1: u8 = 1 << 1;
    const S12: u8 = 1 << 1 | 1 << 2;
    const S123: u8 = 1 << 1 | 1 << 2 | 1 << 3;
    match opc {
        V_RCP_F32 | V_RCP_IFLAG_F32 | V_TRUNC_F32 | V_FLOOR_F32 | V_RNDNE_F32
        | V_FREXP_MANT_F32 => (S1, true),
        V_CVT_I32_F32 | V_CVT_U32_F32 | V_FREXP_EXP_I32_F32 => (S1, false),
        V_ADD_F32 | V_SUB_F32 | V_SUBREV_F32 | V_MUL_F32 | V_MIN_F32 | V_MAX_F32 | V_PK_ADD_F32
        | V_PK_MUL_F32 => (S12, true),
        V_PK_FMA_F32 => (S123, true),
        // The accumulator is the destination slot.
        V_FMAC_F32 => (S12 | 1, true),
        V_LDEXP_F32 => (S1, true),
        V_FMA_F32 | V_DIV_FMAS_F32 | V_DIV_FIXUP_F32 => (S123, true),
        // vdst, vcc, then the three sources.
        V_DIV_SCALE_F32 => (1 << 2 | 1 << 3 | 1 << 4, true),
        V_CMP_EQ_F32 | V_CMP_LG_F32 | V_CMP_LT_F32 | V_CMP_LE_F32 | V_CMP_GT_F32 | V_CMP_GE_F32
        | V_CMP_O_F32 | V_CMP_U_F32 | V_CMP_NEQ_F32 | V_CMP_NLG_F32 | V_CMP_NGE_F32
        | V_CMP_NGT_F32 | V_CMP_NLE_F32 | V_CMP_NLT_F32 => (S12, false),
        _ => (0, false),
    }
}

fn vopc(w: &mut Wave, inst: &Inst, exec: u64) {
    let ops = inst.ops;
    let opc = inst.opc;
    let mut mask = 0u64;
    if matches!(ops[1], Op::V(_, 2) | Op::S(_, 2)) || is_cmp64(opc) {
        let (a, b) = (w.vsrc64(ops[1]), w.vsrc64(ops[2]));
        for l in 0..64 {
            mask |= (alu::vcmp64(opc, a[l], b[l]) as u64) << l;
        }
    } else {
        let (a, b) = (w.src(inst, 1), w.src(inst, 2));
        for l in 0..64 {
            mask |= (alu::vcmp32(opc, a[l], b[l]) as u64) << l;
        }
    }
    w.set_s(ops[0], mask & exec);
}

fn is_cmp64(opc: Opc) -> bool {
    matches!(opc.desc().operands[1], crate::isa::Kind::VSrc(2))
}

macro_rules! map1 {
    ($w:expr, $inst:expr, $exec:expr, $f:expr) => {{
        let a = $w.src($inst, 1);
        let d: [u32; 64] = std::array::from_fn(|l| $f(a[l]));
        $w.vwrite($inst.ops[0], &d, $exec);
    }};
}

macro_rules! map2 {
    ($w:expr, $inst:expr, $exec:expr, $f:expr) => {{
        let a = $w.src($inst, 1);
        let b = $w.src($inst, 2);
        let d: [u32; 64] = std::array::from_fn(|l| $f(a[l], b[l]));
        $w.vwrite($inst.ops[0], &d, $exec);
    }};
}

macro_rules! map3 {
    ($w:expr, $inst:expr, $exec:expr, $f:expr) => {{
        let a = $w.src($inst, 1);
        let b = $w.src($inst, 2);
        let c = $w.src($inst, 3);
        let d: [u32; 64] = std::array::from_fn(|l| $f(a[l], b[l], c[l]));
        $w.vwrite($inst.ops[0], &d, $exec);
    }};
}

/// A `_dpp` instruction: src0 moved across lanes, then the operation on the lanes written
/// (returned); any other VALU instruction on the lanes of `exec`.
fn dpp(w: &mut Wave, inst: &Inst, exec: u64) -> Result<u64, Stop> {
    let Some(d) = inst.dpp else {
        return valu(w, inst, exec).map(|_| exec);
    };
    let Op::V(r, _) = inst.ops[inst.opc.desc().defs as usize] else {
        return Err(Stop::Fault("a DPP src0 that is not a VGPR".into()));
    };
    let a = w.v[r as usize];
    let mut moved = [0u32; 64];
    let mut write = 0u64;
    for (l, m) in moved.iter_mut().enumerate() {
        if exec >> l & 1 == 0 || !d.lane_enabled(l) {
            continue;
        }
        match d.source_lane(l).filter(|&s| exec >> s & 1 != 0) {
            Some(s) => *m = a[s],
            None if d.bound_ctrl => *m = 0,
            None => continue,
        }
        write |= 1 << l;
    }
    w.dpp_src0 = Some(moved);
    let r = valu(w, inst, write);
    w.dpp_src0 = None;
    r.map(|_| write)
}

fn valu(w: &mut Wave, inst: &Inst, exec: u64) -> Result<(), Stop> {
    use Opc::*;
    let ops = inst.ops;
    match inst.opc {
        V_MOV_B32 => map1!(w, inst, exec, |a| a),
        V_MOV_B64 => {
            let a = w.vsrc64(ops[1]);
            w.vwrite64(ops[0], &a, exec);
        }
        V_NOT_B32 => map1!(w, inst, exec, |a: u32| !a),
        V_CVT_F32_I32 => map1!(w, inst, exec, |a: u32| (a as i32 as f32).to_bits()),
        V_CVT_F32_U32 => map1!(w, inst, exec, |a: u32| (a as f32).to_bits()),
        V_CVT_I32_F32 => map1!(w, inst, exec, |a| alu::cvt_i32_f32(f(a))),
        V_CVT_U32_F32 => map1!(w, inst, exec, |a| alu::cvt_u32_f32(f(a))),
        V_RCP_F32 | V_RCP_IFLAG_F32 => map1!(w, inst, exec, |a| (1.0 / f(a)).to_bits()),
        V_TRUNC_F32 => map1!(w, inst, exec, |a| alu::trunc(f(a)).to_bits()),
        V_FLOOR_F32 => map1!(w, inst, exec, |a| alu::floor(f(a)).to_bits()),
        V_RNDNE_F32 => map1!(w, inst, exec, |a| alu::rndne(f(a)).to_bits()),
        V_FFBH_U32 => map1!(w, inst, exec, alu::ffbh_u32),
        V_FFBH_I32 => map1!(w, inst, exec, alu::ffbh_i32),
        V_FREXP_MANT_F32 => map1!(w, inst, exec, |a| alu::frexp_mant(f(a)).to_bits()),
        V_FREXP_EXP_I32_F32 => map1!(w, inst, exec, |a| alu::frexp_exp(f(a)) as u32),
        V_READFIRSTLANE_B32 => {
            let Op::V(r, _) = ops[1] else { unreachable!() };
            let lane = if exec == 0 { 0 } else { exec.trailing_zeros() };
            w.set_s(ops[0], w.v[r as usize][lane as usize] as u64);
        }
        // `clamp`: unsigned saturation instead of wrapping.
        V_ADD_U32 | V_ADD_U32_E64 if inst.clamp => {
            map2!(w, inst, exec, |a: u32, b| a.saturating_add(b))
        }
        V_SUB_U32 | V_SUB_U32_E64 if inst.clamp => {
            map2!(w, inst, exec, |a: u32, b| a.saturating_sub(b))
        }
        V_SUBREV_U32 if inst.clamp => map2!(w, inst, exec, |a: u32, b: u32| b.saturating_sub(a)),
        V_ADD_U32 | V_ADD_U32_E64 => map2!(w, inst, exec, |a: u32, b| a.wrapping_add(b)),
        V_SUB_U32 | V_SUB_U32_E64 => map2!(w, inst, exec, |a: u32, b| a.wrapping_sub(b)),
        V_SUBREV_U32 => map2!(w, inst, exec, |a: u32, b: u32| b.wrapping_sub(a)),
        V_AND_B32 => map2!(w, inst, exec, |a: u32, b| a & b),
        V_OR_B32 => map2!(w, inst, exec, |a: u32, b| a | b),
        V_XOR_B32 => map2!(w, inst, exec, |a: u32, b| a ^ b),
        V_LSHLREV_B32 | V_LSHLREV_B32_E64 => map2!(w, inst, exec, |s: u32, b: u32| b << (s & 31)),
        V_LSHRREV_B32 => map2!(w, inst, exec, |s: u32, b: u32| b >> (s & 31)),
        V_ASHRREV_I32 => map2!(w, inst, exec, |s: u32, b: u32| ((b as i32) >> (s & 31))
            as u32),
        V_MIN_I32 => map2!(w, inst, exec, |a: u32, b: u32| (a as i32).min(b as i32)
            as u32),
        V_MAX_I32 => map2!(w, inst, exec, |a: u32, b: u32| (a as i32).max(b as i32)
            as u32),
        V_MIN_U32 => map2!(w, inst, exec, |a: u32, b: u32| a.min(b)),
        V_MAX_U32 => map2!(w, inst, exec, |a: u32, b: u32| a.max(b)),
        V_ADD_F32 => map2!(w, inst, exec, |a, b| alu::farith(f(a), f(b), |x, y| x + y)
            .to_bits()),
        V_SUB_F32 => map2!(w, inst, exec, |a, b| alu::farith(f(a), f(b), |x, y| x - y)
            .to_bits()),
        V_MUL_F32 => map2!(w, inst, exec, |a, b| alu::farith(f(a), f(b), |x, y| x * y)
            .to_bits()),
        V_MIN_F32 => map2!(w, inst, exec, |a, b| alu::min_f32(f(a), f(b)).to_bits()),
        V_MAX_F32 => map2!(w, inst, exec, |a, b| alu::max_f32(f(a), f(b)).to_bits()),
        V_MUL_LO_U32 => map2!(w, inst, exec, |a: u32, b| a.wrapping_mul(b)),
        V_LDEXP_F32 => map2!(w, inst, exec, |a, n: u32| alu::ldexp_f32(f(a), n as i32)
            .to_bits()),
        V_FMAC_F32 => {
            let (a, b, c) = (w.src(inst, 1), w.src(inst, 2), w.src(inst, 0));
            let d: [u32; 64] = std::array::from_fn(|l| f(a[l]).mul_add(f(b[l]), f(c[l])).to_bits());
            w.vwrite(ops[0], &d, exec);
        }
        V_MUL_HI_U32 => map2!(w, inst, exec, |a: u32, b: u32| {
            ((a as u64 * b as u64) >> 32) as u32
        }),
        V_MUL_HI_I32 => map2!(w, inst, exec, |a: u32, b: u32| {
            ((a as i32 as i64 * b as i32 as i64) >> 32) as u32
        }),
        V_MBCNT_LO_U32_B32 => {
            let (m, c) = (w.vsrc(ops[1]), w.vsrc(ops[2]));
            let d: [u32; 64] = std::array::from_fn(|l| {
                let below = if l >= 32 { u32::MAX } else { (1u32 << l) - 1 };
                (m[l] & below).count_ones().wrapping_add(c[l])
            });
            w.vwrite(ops[0], &d, exec);
        }
        V_MBCNT_HI_U32_B32 => {
            let (m, c) = (w.vsrc(ops[1]), w.vsrc(ops[2]));
            let d: [u32; 64] = std::array::from_fn(|l| {
                let below = if l < 32 {
                    0
                } else {
                    (1u64 << (l - 32)) as u32 - 1
                };
                (m[l] & below).count_ones().wrapping_add(c[l])
            });
            w.vwrite(ops[0], &d, exec);
        }
        V_CNDMASK_B32 => {
            let (a, b) = (w.src(inst, 1), w.src(inst, 2));
            let m = w.s64(ops[3]);
            let d: [u32; 64] = std::array::from_fn(|l| if m >> l & 1 != 0 { b[l] } else { a[l] });
            w.vwrite(ops[0], &d, exec);
        }
        V_LSHL_ADD_U32 => map3!(w, inst, exec, |a: u32, s: u32, c: u32| (a << (s & 31))
            .wrapping_add(c)),
        V_ALIGNBIT_B32 => map3!(
            w,
            inst,
            exec,
            |hi: u32, lo: u32, s: u32| ((((hi as u64) << 32) | lo as u64) >> (s & 31)) as u32
        ),
        V_MUL_LO_U16 => map2!(
            w,
            inst,
            exec,
            |a: u32, b: u32| (a as u16).wrapping_mul(b as u16) as u32
        ),
        V_BFE_U32 => map3!(w, inst, exec, |a: u32, o: u32, n: u32| {
            let width = n & 31;
            (a >> (o & 31)) & ((1u64 << width) - 1) as u32
        }),
        V_FMA_F32 => map3!(w, inst, exec, |a, b, c| f(a).mul_add(f(b), f(c)).to_bits()),
        V_ADD3_U32 => map3!(w, inst, exec, |a: u32, b: u32, c: u32| a
            .wrapping_add(b)
            .wrapping_add(c)),
        V_MAD_U64_U32 => {
            let (a, b, c) = (w.vsrc(ops[2]), w.vsrc(ops[3]), w.vsrc64(ops[4]));
            let mut carry = 0u64;
            let d: [u64; 64] = std::array::from_fn(|l| {
                let (r, o) = (a[l] as u64 * b[l] as u64).overflowing_add(c[l]);
                carry |= (o as u64) << l;
                r
            });
            w.vwrite64(ops[0], &d, exec);
            w.set_s(ops[1], carry & exec);
        }
        V_DIV_FIXUP_F32 => map3!(w, inst, exec, |q, d, n| alu::div_fixup(f(q), f(d), f(n))
            .to_bits()),
        V_DIV_FMAS_F32 => {
            let vcc = w.s64(Op::S(VCC, 2));
            let (a, b, c) = (w.src(inst, 1), w.src(inst, 2), w.src(inst, 3));
            let d: [u32; 64] = std::array::from_fn(|l| {
                alu::div_fmas(f(a[l]), f(b[l]), f(c[l]), vcc >> l & 1 != 0).to_bits()
            });
            w.vwrite(ops[0], &d, exec);
        }
        V_DIV_SCALE_F32 => {
            let (a, b, c) = (w.src(inst, 2), w.src(inst, 3), w.src(inst, 4));
            let mut mask = 0u64;
            let d: [u32; 64] = std::array::from_fn(|l| {
                let (r, v) = alu::div_scale(f(a[l]), f(b[l]), f(c[l]));
                mask |= (v as u64) << l;
                r.to_bits()
            });
            w.vwrite(ops[0], &d, exec);
            w.set_s(ops[1], mask & exec);
        }
        V_ADD_CO_U32 | V_SUB_CO_U32 | V_SUBREV_CO_U32 | V_ADDC_CO_U32 | V_SUBB_CO_U32
        | V_SUBBREV_CO_U32 => carry_op(w, inst, exec),
        V_LSHL_ADD_U64 => {
            let (a, s, c) = (w.vsrc64(ops[1]), w.vsrc(ops[2]), w.vsrc64(ops[3]));
            // gfx940: the shift amount is S1[2:0] (llvm-mc accepts 0..7).
            let d: [u64; 64] = std::array::from_fn(|l| (a[l] << (s[l] & 7)).wrapping_add(c[l]));
            w.vwrite64(ops[0], &d, exec);
        }
        V_LSHLREV_B64 | V_LSHRREV_B64 | V_ASHRREV_I64 => {
            let (s, a) = (w.vsrc(ops[1]), w.vsrc64(ops[2]));
            let opc = inst.opc;
            let d: [u64; 64] = std::array::from_fn(|l| {
                let n = s[l] & 63;
                match opc {
                    V_LSHLREV_B64 => a[l] << n,
                    V_LSHRREV_B64 => a[l] >> n,
                    _ => ((a[l] as i64) >> n) as u64,
                }
            });
            w.vwrite64(ops[0], &d, exec);
        }
        V_READLANE_B32 => {
            let Op::V(r, _) = ops[1] else { unreachable!() };
            let lane = w.s32(ops[2]) & 63;
            w.set_s(ops[0], w.v[r as usize][lane as usize] as u64);
        }
        V_WRITELANE_B32 => {
            let Op::V(r, _) = ops[0] else { unreachable!() };
            let lane = w.s32(ops[2]) & 63;
            w.v[r as usize][lane as usize] = w.s32(ops[1]);
        }
        V_BFREV_B32 => map1!(w, inst, exec, |a: u32| a.reverse_bits()),
        V_SUBREV_F32 => map2!(w, inst, exec, |a, b| alu::farith(f(b), f(a), |x, y| x - y)
            .to_bits()),
        V_MUL_I32_I24 => map2!(w, inst, exec, |a: u32, b: u32| (i24(a) * i24(b)) as u32),
        V_MUL_HI_I32_I24 => map2!(w, inst, exec, |a: u32, b: u32| ((i24(a) * i24(b)) >> 32)
            as u32),
        V_MUL_U32_U24 => map2!(w, inst, exec, |a: u32, b: u32| (u24(a) * u24(b)) as u32),
        V_MUL_HI_U32_U24 => map2!(w, inst, exec, |a: u32, b: u32| ((u24(a) * u24(b)) >> 32)
            as u32),
        V_MAD_U32_U24 => map3!(w, inst, exec, |a: u32, b: u32, c: u32| ((u24(a) * u24(b))
            as u32)
            .wrapping_add(c)),
        V_MAD_I32_I24 => map3!(w, inst, exec, |a: u32, b: u32, c: u32| ((i24(a) * i24(b))
            as u32)
            .wrapping_add(c)),
        V_BCNT_U32_B32 => map2!(w, inst, exec, |a: u32, b: u32| a
            .count_ones()
            .wrapping_add(b)),
        V_BFI_B32 => map3!(w, inst, exec, |m: u32, a: u32, b: u32| (m & a) | (!m & b)),
        V_XAD_U32 => map3!(w, inst, exec, |a: u32, b: u32, c: u32| (a ^ b)
            .wrapping_add(c)),
        V_ADD_LSHL_U32 => map3!(w, inst, exec, |a: u32, b: u32, s: u32| a.wrapping_add(b)
            << (s & 31)),
        V_LSHL_OR_B32 => map3!(w, inst, exec, |a: u32, s: u32, c: u32| (a << (s & 31)) | c),
        V_AND_OR_B32 => map3!(w, inst, exec, |a: u32, b: u32, c: u32| (a & b) | c),
        V_OR3_B32 => map3!(w, inst, exec, |a: u32, b: u32, c: u32| a | b | c),
        V_PK_ADD_F32 | V_PK_MUL_F32 | V_PK_FMA_F32 => packed_f32(w, inst, exec),
        o => return Err(Stop::Fault(format!("{o} is not a VALU op"))),
    }
    Ok(())
}

/// The low 24 bits, zero-extended / sign-extended (the 24-bit multiplies' operands).
fn u24(x: u32) -> u64 {
    (x & 0xff_ffff) as u64
}

fn i24(x: u32) -> i64 {
    ((x << 8) as i32 >> 8) as i64
}

/// `v_pk_{add,mul,fma}_f32 vdst[2], src0[2], src1[2] (, src2[2])`: result half `h` (0 low,
/// 1 high) applies the op to, from each source `j`, its high dword if bit `j` of `op_sel`
/// (for h = 0) or `op_sel_hi` (for h = 1) is set, else its low dword, negated if bit `j` of
/// `neg_lo` / `neg_hi` is set. A constant source is one f32 in its low dword (the parser
/// refuses selecting its high one). Both halves are read before either is written.
fn packed_f32(w: &mut Wave, inst: &Inst, exec: u64) {
    let ops = inst.ops;
    let nsrc = inst.opc.desc().operands.len() - 1;
    let [op_sel, op_sel_hi, neg_lo, neg_hi] = inst.pk;
    let mut out = [[0u32; 64]; 2];
    for (h, dst) in out.iter_mut().enumerate() {
        let (sel, neg) = if h == 0 {
            (op_sel, neg_lo)
        } else {
            (op_sel_hi, neg_hi)
        };
        let mut x = [[0u32; 64]; 3];
        for (j, xs) in x.iter_mut().enumerate().take(nsrc) {
            let half = match ops[1 + j] {
                Op::V(r, _) => Op::V(r + (sel >> j & 1), 1),
                Op::S(r, _) => Op::S(r + (sel >> j & 1), 1),
                k => k,
            };
            *xs = w.vsrc(half);
            for v in xs.iter_mut() {
                if w.flush_srcs >> (1 + j) & 1 != 0 {
                    *v = alu::flush_denormal(*v);
                }
                if neg >> j & 1 != 0 {
                    *v ^= 0x8000_0000;
                }
            }
        }
        *dst = std::array::from_fn(|l| {
            let (a, b, c) = (f(x[0][l]), f(x[1][l]), f(x[2][l]));
            match inst.opc {
                Opc::V_PK_ADD_F32 => alu::farith(a, b, |x, y| x + y),
                Opc::V_PK_MUL_F32 => alu::farith(a, b, |x, y| x * y),
                _ => a.mul_add(b, c),
            }
            .to_bits()
        });
    }
    let Op::V(r, _) = ops[0] else {
        unreachable!("a packed result is a VGPR pair")
    };
    w.vwrite(Op::V(r, 1), &out[0], exec);
    w.vwrite(Op::V(r + 1, 1), &out[1], exec);
}

/// `v_add_co/v_sub_co/v_addc_co/v_subb_co_u32_e64 vdst, sdst, a, b [, carry-in]`: the carry
/// (or borrow) out of each active lane into `sdst`; inactive lanes' bits are 0.
fn carry_op(w: &mut Wave, inst: &Inst, exec: u64) {
    let ops = inst.ops;
    let (a, b) = if matches!(inst.opc, Opc::V_SUBREV_CO_U32 | Opc::V_SUBBREV_CO_U32) {
        (w.src(inst, 3), w.src(inst, 2))
    } else {
        (w.src(inst, 2), w.src(inst, 3))
    };
    let cin = match inst.opc {
        Opc::V_ADDC_CO_U32 | Opc::V_SUBB_CO_U32 | Opc::V_SUBBREV_CO_U32 => w.s64(ops[4]),
        _ => 0,
    };
    let sub = matches!(
        inst.opc,
        Opc::V_SUB_CO_U32 | Opc::V_SUBREV_CO_U32 | Opc::V_SUBB_CO_U32 | Opc::V_SUBBREV_CO_U32
    );
    let mut mask = 0u64;
    let d: [u32; 64] = std::array::from_fn(|l| {
        let c = cin >> l & 1;
        let (x, y) = (a[l] as u64, b[l] as u64);
        let (r, out) = if sub {
            (x.wrapping_sub(y).wrapping_sub(c), y + c > x)
        } else {
            let s = x + y + c;
            (s, s >> 32 != 0)
        };
        mask |= (out as u64) << l;
        r as u32
    });
    w.vwrite(ops[0], &d, exec);
    w.set_s(ops[1], mask & exec);
}
