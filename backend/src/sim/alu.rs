//! Pure semantics of the ALU ops: scalar ops with their SCC rule, f32 helpers (IEEE-mode
//! min/max, conversions, the division helpers). No machine state here, so each function is
//! tested directly against a Rust reference.
//!
//! Guarantees (gfx942 / CDNA3 ISA semantics):
//! - `sop2`: SCC is the carry/borrow for `s_add_u32`/`s_addc_u32`/`s_sub_u32`/`s_subb_u32`,
//!   signed overflow for `s_add_i32`/`s_sub_i32`, `S0 chosen` (strictly less/greater) for
//!   `s_min`/`s_max`, result != 0 for logical ops, shifts, `s_bfe_u32`, and the unsigned
//!   overflow of the 33-bit sum for `s_lshl2_add_u32`; `s_mul*` and `s_cselect` leave SCC.
//!   32-bit shift amounts are masked by 31, 64-bit ones by 63.
//! - The division helpers are built so that LLVM's f32 division sequence (div_scale ×2,
//!   rcp, fma chain, div_fmas, div_fixup) yields the correctly rounded IEEE quotient,
//!   including denormal and overflowing quotients: `div_fmas` applies its 2^±64 scale with
//!   a single rounding.

use crate::isa::Opc;

/// A SOP2 op on operands zero-extended to 64 bits (32-bit ops use the low halves).
/// Returns the result (32-bit ops: in the low half) and the new SCC, if the op writes it.
pub fn sop2(opc: Opc, a: u64, b: u64, scc: bool) -> (u64, Option<bool>) {
    use Opc::*;
    let (a32, b32) = (a as u32, b as u32);
    let nz = |v: u64| (v, Some(v != 0));
    match opc {
        S_ADD_U32 => {
            let (r, c) = a32.overflowing_add(b32);
            (r as u64, Some(c))
        }
        S_ADDC_U32 => {
            let s = a32 as u64 + b32 as u64 + scc as u64;
            (s as u32 as u64, Some(s >> 32 != 0))
        }
        S_SUB_U32 => (a32.wrapping_sub(b32) as u64, Some(b32 > a32)),
        S_SUBB_U32 => {
            let r = a32.wrapping_sub(b32).wrapping_sub(scc as u32);
            (r as u64, Some((b32 as u64 + scc as u64) > a32 as u64))
        }
        S_ADD_I32 => {
            let (r, o) = (a32 as i32).overflowing_add(b32 as i32);
            (r as u32 as u64, Some(o))
        }
        S_SUB_I32 => {
            let (r, o) = (a32 as i32).overflowing_sub(b32 as i32);
            (r as u32 as u64, Some(o))
        }
        S_MUL_I32 => (a32.wrapping_mul(b32) as u64, None),
        S_MUL_HI_U32 => (((a32 as u64 * b32 as u64) >> 32) as u32 as u64, None),
        S_MUL_HI_I32 => (
            (((a32 as i32 as i64 * b32 as i32 as i64) >> 32) as u32) as u64,
            None,
        ),
        S_AND_B32 => nz((a32 & b32) as u64),
        S_OR_B32 => nz((a32 | b32) as u64),
        S_XOR_B32 => nz((a32 ^ b32) as u64),
        S_ANDN2_B32 => nz((a32 & !b32) as u64),
        S_AND_B64 => nz(a & b),
        S_OR_B64 => nz(a | b),
        S_XOR_B64 => nz(a ^ b),
        S_ANDN2_B64 => nz(a & !b),
        S_ORN2_B64 => nz(a | !b),
        S_LSHL_B32 => nz((a32 << (b32 & 31)) as u64),
        S_LSHR_B32 => nz((a32 >> (b32 & 31)) as u64),
        S_ASHR_I32 => nz(((a32 as i32) >> (b32 & 31)) as u32 as u64),
        S_LSHL_B64 => nz(a << (b32 & 63)),
        S_LSHR_B64 => nz(a >> (b32 & 63)),
        S_ASHR_I64 => nz(((a as i64) >> (b32 & 63)) as u64),
        S_MIN_I32 => {
            let c = (a32 as i32) < (b32 as i32);
            ((if c { a32 } else { b32 }) as u64, Some(c))
        }
        S_MAX_I32 => {
            let c = (a32 as i32) > (b32 as i32);
            ((if c { a32 } else { b32 }) as u64, Some(c))
        }
        S_MIN_U32 => {
            let c = a32 < b32;
            ((if c { a32 } else { b32 }) as u64, Some(c))
        }
        S_MAX_U32 => {
            let c = a32 > b32;
            ((if c { a32 } else { b32 }) as u64, Some(c))
        }
        S_CSELECT_B32 => ((if scc { a32 } else { b32 }) as u64, None),
        S_CSELECT_B64 => (if scc { a } else { b }, None),
        S_BFE_U32 => {
            // Field offset in S1[4:0], width in S1[22:16] (a width of 32 or more keeps all).
            let off = b32 & 31;
            let width = (b32 >> 16) & 0x7f;
            let mask = if width >= 32 {
                u32::MAX
            } else {
                (1u32 << width) - 1
            };
            nz(((a32 >> off) & mask) as u64)
        }
        S_LSHL2_ADD_U32 => {
            let s = ((a32 as u64) << 2) + b32 as u64;
            (s as u32 as u64, Some(s >> 32 != 0))
        }
        _ => unreachable!("{opc} is not SOP2"),
    }
}

/// A SOPC compare.
pub fn sopc(opc: Opc, a: u64, b: u64) -> bool {
    use Opc::*;
    let (ua, ub) = (a as u32, b as u32);
    let (ia, ib) = (ua as i32, ub as i32);
    match opc {
        S_CMP_EQ_U32 => ua == ub,
        S_CMP_LG_U32 => ua != ub,
        S_CMP_LT_I32 => ia < ib,
        S_CMP_LE_I32 => ia <= ib,
        S_CMP_GT_I32 => ia > ib,
        S_CMP_GE_I32 => ia >= ib,
        S_CMP_LT_U32 => ua < ub,
        S_CMP_LE_U32 => ua <= ub,
        S_CMP_GT_U32 => ua > ub,
        S_CMP_GE_U32 => ua >= ub,
        S_CMP_EQ_U64 => a == b,
        S_CMP_LG_U64 => a != b,
        _ => unreachable!("{opc} is not SOPC"),
    }
}

/// A SOP1 op other than the saveexec ones: (result, new SCC if written). `d` is the old
/// destination (read by `s_bitset0_b64`).
/// `s_cmpk_*`: `a` against the 16-bit immediate, sign-extended for the `_i32` forms and
/// zero-extended for the `_u32` forms.
pub fn sopk_cmp(opc: Opc, a: u32, k: u16) -> bool {
    use Opc::*;
    let (sa, sk) = (a as i32, k as i16 as i32);
    let uk = k as u32;
    match opc {
        S_CMPK_EQ_I32 => sa == sk,
        S_CMPK_LG_I32 => sa != sk,
        S_CMPK_GT_I32 => sa > sk,
        S_CMPK_GE_I32 => sa >= sk,
        S_CMPK_LT_I32 => sa < sk,
        S_CMPK_LE_I32 => sa <= sk,
        S_CMPK_EQ_U32 => a == uk,
        S_CMPK_LG_U32 => a != uk,
        S_CMPK_GT_U32 => a > uk,
        S_CMPK_GE_U32 => a >= uk,
        S_CMPK_LT_U32 => a < uk,
        S_CMPK_LE_U32 => a <= uk,
        o => unreachable!("{o} is not an s_cmpk op"),
    }
}

pub fn sop1(opc: Opc, a: u64, d: u64) -> (u64, Option<bool>) {
    use Opc::*;
    let a32 = a as u32;
    match opc {
        S_MOV_B32 => (a32 as u64, None),
        S_MOV_B64 => (a, None),
        S_NOT_B32 => {
            let r = !a32;
            (r as u64, Some(r != 0))
        }
        S_NOT_B64 => (!a, Some(!a != 0)),
        S_BREV_B32 => (a32.reverse_bits() as u64, None),
        S_FF1_I32_B64 => {
            let r = if a == 0 { u32::MAX } else { a.trailing_zeros() };
            (r as u64, None)
        }
        S_BCNT1_I32_B64 => {
            let r = a.count_ones();
            (r as u64, Some(r != 0))
        }
        S_BITSET0_B64 => (d & !(1u64 << (a32 & 63)), None),
        S_SEXT_I32_I16 => (a32 as i16 as i32 as u32 as u64, None),
        S_ABS_I32 => {
            let r = (a32 as i32).wrapping_abs() as u32;
            (r as u64, Some(r != 0))
        }
        _ => unreachable!("{opc} is not a plain SOP1"),
    }
}

/// A 32-bit VALU compare result for one lane (integer or float predicates).
#[inline(always)]
pub fn vcmp32(opc: Opc, a: u32, b: u32) -> bool {
    use Opc::*;
    let (ia, ib) = (a as i32, b as i32);
    let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
    let fo = fa.partial_cmp(&fb);
    use std::cmp::Ordering::{Equal, Greater, Less};
    match opc {
        V_CMP_EQ_U32 => a == b,
        V_CMP_NE_U32 => a != b,
        V_CMP_LT_I32 => ia < ib,
        V_CMP_LE_I32 => ia <= ib,
        V_CMP_GT_I32 => ia > ib,
        V_CMP_GE_I32 => ia >= ib,
        V_CMP_LT_U32 => a < b,
        V_CMP_LE_U32 => a <= b,
        V_CMP_GT_U32 => a > b,
        V_CMP_GT_U16 => (a as u16) > (b as u16),
        V_CMP_GE_U32 => a >= b,
        V_CMP_EQ_F32 => fa == fb,
        V_CMP_LG_F32 => matches!(fo, Some(Less | Greater)),
        V_CMP_LT_F32 => fa < fb,
        V_CMP_LE_F32 => fa <= fb,
        V_CMP_GT_F32 => fa > fb,
        V_CMP_GE_F32 => fa >= fb,
        V_CMP_O_F32 => fo.is_some(),
        V_CMP_U_F32 => fo.is_none(),
        // The negated predicates are true when the operands are unordered.
        V_CMP_NEQ_F32 => fo != Some(Equal),
        V_CMP_NLG_F32 => !matches!(fo, Some(Less | Greater)),
        V_CMP_NGE_F32 => !matches!(fo, Some(Greater | Equal)),
        V_CMP_NGT_F32 => fo != Some(Greater),
        V_CMP_NLE_F32 => !matches!(fo, Some(Less | Equal)),
        V_CMP_NLT_F32 => fo != Some(Less),
        _ => unreachable!("{opc} is not a 32-bit compare"),
    }
}

/// A 64-bit VALU compare result for one lane.
#[inline(always)]
pub fn vcmp64(opc: Opc, a: u64, b: u64) -> bool {
    use Opc::*;
    let (ia, ib) = (a as i64, b as i64);
    match opc {
        V_CMP_EQ_U64 => a == b,
        V_CMP_NE_U64 => a != b,
        V_CMP_LT_I64 => ia < ib,
        V_CMP_LE_I64 => ia <= ib,
        V_CMP_GT_I64 => ia > ib,
        V_CMP_GE_I64 => ia >= ib,
        V_CMP_LT_U64 => a < b,
        V_CMP_LE_U64 => a <= b,
        V_CMP_GT_U64 => a > b,
        V_CMP_GE_U64 => a >= b,
        _ => unreachable!("{opc} is not a 64-bit compare"),
    }
}

/// VOP3 source modifier bits: `|x|` and `-x`.
pub const ABS: u8 = 1;
pub const NEG: u8 = 2;

/// Applies VOP3 source modifiers (abs first, then neg) to f32 bits.
#[inline(always)]
pub fn fmod(bits: u32, m: u8) -> u32 {
    let mut b = bits;
    if m & ABS != 0 {
        b &= 0x7fff_ffff;
    }
    if m & NEG != 0 {
        b ^= 0x8000_0000;
    }
    b
}

/// A subnormal f32 (bits) flushed to the zero of its sign, as the MODE register's denormal
/// field flushes one; any other value unchanged.
#[inline(always)]
pub fn flush_denormal(bits: u32) -> u32 {
    if bits & 0x7f80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    }
}

fn quiet(x: f32) -> f32 {
    f32::from_bits(x.to_bits() | 0x0040_0000)
}

/// An f32 add, subtract or multiply with a defined NaN result: the first NaN operand, quieted.
/// Rust leaves the payload unspecified (LLVM may commute `a + b`, so a release build can pick
/// the other operand); the simulator must be deterministic across builds.
#[inline(always)]
pub fn farith(a: f32, b: f32, op: fn(f32, f32) -> f32) -> f32 {
    if a.is_nan() {
        quiet(a)
    } else if b.is_nan() {
        quiet(b)
    } else {
        op(a, b)
    }
}

/// `v_min_f32` in IEEE mode: a signaling NaN input gives it quieted, a quiet NaN gives the
/// other operand, -0 is less than +0.
pub fn min_f32(a: f32, b: f32) -> f32 {
    minmax(a, b, true)
}

/// `v_max_f32` in IEEE mode (see `min_f32`).
pub fn max_f32(a: f32, b: f32) -> f32 {
    minmax(a, b, false)
}

fn is_snan(x: f32) -> bool {
    x.is_nan() && x.to_bits() & 0x0040_0000 == 0
}

fn minmax(a: f32, b: f32, min: bool) -> f32 {
    if is_snan(a) {
        return quiet(a);
    }
    if is_snan(b) {
        return quiet(b);
    }
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    if a == b {
        // ±0: min takes the negative one, max the positive one.
        let (x, y) = (a.to_bits(), b.to_bits());
        return f32::from_bits(if min { x | y } else { x & y });
    }
    if (a < b) == min {
        a
    } else {
        b
    }
}

/// `v_cvt_i32_f32`: truncates, saturates, NaN → 0 (Rust's `as` is exactly that).
pub fn cvt_i32_f32(x: f32) -> u32 {
    x as i32 as u32
}

/// `v_cvt_u32_f32`: truncates, saturates (negative → 0), NaN → 0.
pub fn cvt_u32_f32(x: f32) -> u32 {
    x as u32
}

/// Biased exponent field of an f32 (0 for zero and denormals, 255 for inf/NaN).
fn bexp(x: f32) -> i32 {
    ((x.to_bits() >> 23) & 0xff) as i32
}

fn is_denorm(x: f32) -> bool {
    x != 0.0 && bexp(x) == 0
}

fn ldexp(x: f32, e: i32) -> f32 {
    // Exact for the scales used here (±64) while the result stays normal; rounds once
    // otherwise (f64 holds the exact product).
    (x as f64 * (e as f64).exp2()) as f32
}

/// `v_div_scale_f32 d, vcc, s0, den, num` (s0 is `den` or `num`): scales the operand so the
/// Newton iteration stays in the normal range, and sets the lane's VCC bit when the final
/// quotient needs a post-scale (read by `v_div_fmas_f32`). Returns (value, vcc bit).
pub fn div_scale(s0: f32, den: f32, num: f32) -> (f32, bool) {
    if den == 0.0 || num == 0.0 {
        return (f32::NAN, false);
    }
    if !den.is_finite() || !num.is_finite() {
        return (s0, false); // div_fixup decides the result from the operands
    }
    let q_denorm = {
        let q = num as f64 / den as f64;
        q.abs() < f32::MIN_POSITIVE as f64
    };
    let rcp_denorm = (1.0 / den as f64).abs() < f32::MIN_POSITIVE as f64;
    if bexp(num) - bexp(den) >= 96 {
        // Quotient near or past the f32 maximum: scale the denominator up.
        (if s0 == den { ldexp(s0, 64) } else { s0 }, true)
    } else if is_denorm(den) {
        (ldexp(s0, 64), false)
    } else if rcp_denorm && q_denorm {
        // Huge denominator and tiny quotient: scale the denominator down.
        (if s0 == den { ldexp(s0, -64) } else { s0 }, true)
    } else if rcp_denorm {
        (ldexp(s0, -64), false)
    } else if q_denorm {
        // Denormal quotient: scale the numerator up.
        (if s0 == num { ldexp(s0, 64) } else { s0 }, true)
    } else if bexp(num) <= 23 {
        // Tiny numerator: the remainder terms would be denormal; scale both.
        (ldexp(s0, 64), false)
    } else {
        (s0, false)
    }
}

/// `v_div_fmas_f32 d, a, b, c` with the lane's VCC bit: fma(a, b, c), times 2^64 if VCC and
/// |c| >= 1 or 2^-64 if VCC and |c| < 1, rounded once to f32.
pub fn div_fmas(a: f32, b: f32, c: f32, vcc: bool) -> f32 {
    if !vcc {
        return a.mul_add(b, c);
    }
    let scale = if bexp(c) >= 127 { 64 } else { -64 };
    fma_scaled(a, b, c, scale)
}

/// fma(a, b, c) · 2^e with one rounding to f32, via an f64 sum rounded to odd.
fn fma_scaled(a: f32, b: f32, c: f32, e: i32) -> f32 {
    let p = a as f64 * b as f64; // exact: 24 + 24 bits
    let cd = c as f64;
    let s = p + cd;
    if !s.is_finite() {
        return (s * (e as f64).exp2()) as f32;
    }
    // Two-sum error term: the exact sum is s + err.
    let bb = s - p;
    let err = (p - (s - bb)) + (cd - bb);
    let mut s = s;
    if err != 0.0 && s.to_bits() & 1 == 0 {
        // Round to odd: move s one ulp toward the exact value.
        let bits = s.to_bits();
        let toward_zero = (err > 0.0) != (s > 0.0);
        s = f64::from_bits(if toward_zero { bits - 1 } else { bits + 1 });
    }
    (s * (e as f64).exp2()) as f32
}

/// `v_div_fixup_f32 d, q, den, num`: the special cases of num/den (NaN, 0/0, inf/inf,
/// x/0, inf/x, x/inf, 0/x, certain overflow or underflow), else q with the quotient's sign.
pub fn div_fixup(q: f32, den: f32, num: f32) -> f32 {
    let sign = (den.to_bits() ^ num.to_bits()) & 0x8000_0000;
    let signed = |mag: f32| f32::from_bits(mag.to_bits() & 0x7fff_ffff | sign);
    if num.is_nan() {
        return quiet(num);
    }
    if den.is_nan() {
        return quiet(den);
    }
    if (den == 0.0 && num == 0.0) || (den.is_infinite() && num.is_infinite()) {
        return f32::from_bits(0x7fc0_0000);
    }
    if den == 0.0 || num.is_infinite() {
        return signed(f32::INFINITY);
    }
    if den.is_infinite() || num == 0.0 {
        return signed(0.0);
    }
    let ediff = bexp(num) - bexp(den);
    if ediff < -152 {
        return signed(0.0);
    }
    if ediff > 128 {
        return signed(f32::INFINITY);
    }
    signed(q)
}

/// `v_frexp_mant_f32`: the significand of `x` scaled into [0.5, 1) with `x`'s sign
/// (denormals are normalized); ±0, ±inf and NaN are returned unchanged.
pub fn frexp_mant(x: f32) -> f32 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let e = frexp_exp(x);
    ldexp_f32(x, -e)
}

/// `v_frexp_exp_i32_f32`: the `e` with `x = mant * 2^e`, `|mant|` in [0.5, 1) (denormals
/// included); 0 for ±0, ±inf and NaN.
pub fn frexp_exp(x: f32) -> i32 {
    if x == 0.0 || !x.is_finite() {
        return 0;
    }
    let b = x.to_bits() & 0x7fff_ffff;
    if b < 0x0080_0000 {
        // Denormal: the value is frac * 2^-149; its leading bit decides the exponent.
        return -149 + (32 - b.leading_zeros() as i32);
    }
    bexp(x) - 126
}

/// `v_ldexp_f32`: `x * 2^n` rounded once (to nearest even, denormal results kept); NaN in,
/// quiet NaN out; ±0 and ±inf unchanged.
pub fn ldexp_f32(x: f32, n: i32) -> f32 {
    if x.is_nan() {
        return quiet(x);
    }
    if x == 0.0 || x.is_infinite() {
        return x;
    }
    // Any |n| beyond 400 already over- or underflows; f64 holds x * 2^n exactly below that.
    let n = n.clamp(-400, 400);
    (x as f64 * 2f64.powi(n)) as f32
}

/// `v_ffbh_u32`: the number of leading zero bits, or -1 (all ones) for 0.
pub fn ffbh_u32(x: u32) -> u32 {
    if x == 0 {
        u32::MAX
    } else {
        x.leading_zeros()
    }
}

/// `v_ffbh_i32`: the number of leading bits equal to the sign bit (the sign bit included), or
/// -1 (all ones) for 0 and -1.
pub fn ffbh_i32(x: u32) -> u32 {
    let y = if (x as i32) < 0 { !x } else { x };
    if y == 0 {
        u32::MAX
    } else {
        y.leading_zeros()
    }
}

/// `v_rndne_f32`: round to the nearest integer, ties to even; NaN in, quiet NaN out.
pub fn rndne(x: f32) -> f32 {
    if x.is_nan() {
        return quiet(x);
    }
    x.round_ties_even()
}

/// `v_trunc_f32` and `v_floor_f32`: NaN in, quiet NaN out.
pub fn trunc(x: f32) -> f32 {
    if x.is_nan() {
        quiet(x)
    } else {
        x.trunc()
    }
}

/// See `trunc`.
pub fn floor(x: f32) -> f32 {
    if x.is_nan() {
        quiet(x)
    } else {
        x.floor()
    }
}
