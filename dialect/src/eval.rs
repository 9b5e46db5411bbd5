//! Scalar semantics of the ops: pure functions on canonical bit patterns (zero above
//! the type's width), exactly as LANGUAGE.md defines the operators.
//!
//! Integers wrap; `/` and `%` truncate toward zero, and division or remainder by zero and
//! `MIN / -1` (`MIN % -1`) are errors (LANGUAGE.md leaves their value undefined, so a reference
//! run refuses to pick one). Shift amounts are taken modulo the width; `shrsi` is arithmetic,
//! `shrui` logical. f32 arithmetic is Rust's (IEEE 754, round to nearest even);
//! `minimumf`/`maximumf` propagate NaN and order -0 below +0. Float to integer rounds toward
//! zero and saturates (NaN gives 0); integer to float rounds to nearest. Reductions `fmin` /
//! `fmax` ignore NaN and order -0 below +0 like the hardware (`v_min_f32`, what the LLVM
//! backend emits); `fadd`
//! sums in increasing lane order.

use crate::registry::Opcode;

/// Lanes per wave (gfx942 is wave64): what `kernel.wave_size` is and folds to.
pub const WAVE_SIZE: u32 = 64;

/// All ones in the low `bits` bits.
pub fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The signed value of a `bits`-wide pattern.
pub fn sext(v: u64, bits: u32) -> i64 {
    if bits == 0 || bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

/// An index operand as an element count: signed, except that an `i1` index is 0 or 1.
pub fn index(v: u64, bits: u32) -> i64 {
    if bits == 1 {
        (v & 1) as i64
    } else {
        sext(v, bits)
    }
}

fn f(v: u64) -> f32 {
    f32::from_bits(v as u32)
}

fn bits_of(x: f32) -> u64 {
    x.to_bits() as u64
}

/// Integer binary ops of `arith`, at width `bits`.
pub fn int_binop(code: Opcode, a: u64, b: u64, bits: u32) -> Result<u64, String> {
    use Opcode::*;
    let m = mask(bits);
    let (sa, sb) = (sext(a, bits), sext(b, bits));
    let shift = if bits == 0 {
        0
    } else {
        (b % bits as u64) as u32
    };
    let min = || -(1i128 << (bits.max(1) - 1));
    let r = match code {
        AddI => a.wrapping_add(b),
        SubI => a.wrapping_sub(b),
        MulI => a.wrapping_mul(b),
        DivSI | RemSI => {
            let what = if code == DivSI {
                "division"
            } else {
                "remainder"
            };
            if b == 0 {
                return Err(format!("integer {what} by zero"));
            }
            if sb == -1 && sa as i128 == min() {
                let op = if code == DivSI { '/' } else { '%' };
                return Err(format!("signed {what} overflow: {sa} {op} -1"));
            }
            // |sa| < 2^63 here unless bits == 64 and sa == MIN (excluded above for -1).
            if code == DivSI {
                sa.wrapping_div(sb) as u64
            } else {
                sa.wrapping_rem(sb) as u64
            }
        }
        DivUI => {
            if b == 0 {
                return Err("integer division by zero".into());
            }
            a / b
        }
        RemUI => {
            if b == 0 {
                return Err("integer remainder by zero".into());
            }
            a % b
        }
        AndI => a & b,
        OrI => a | b,
        XOrI => a ^ b,
        ShLI => a << shift,
        ShRSI => (sa >> shift) as u64,
        ShRUI => a >> shift,
        MinSI => sa.min(sb) as u64,
        MaxSI => sa.max(sb) as u64,
        MinUI => a.min(b),
        MulHiU => ((a as u128 * b as u128) >> bits) as u64,
        MaxUI => a.max(b),
        _ => {
            return Err(format!(
                "internal error: `{}` is not an integer op",
                code.name()
            ))
        }
    };
    Ok(r & m)
}

/// IEEE `minimum`: NaN if either is NaN, -0 below +0.
pub fn minimumf(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::NAN
    } else if a == b {
        // Equal and not NaN: the same value or +-0; the sign bits decide.
        f32::from_bits(a.to_bits() | b.to_bits())
    } else {
        a.min(b)
    }
}

/// IEEE `maximum`: NaN if either is NaN, +0 above -0.
pub fn maximumf(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::NAN
    } else if a == b {
        f32::from_bits(a.to_bits() & b.to_bits())
    } else {
        a.max(b)
    }
}

/// f32 binary ops of `arith` (`remf` is C's `fmod`, as Rust's `%`).
pub fn float_binop(code: Opcode, a: u64, b: u64) -> u64 {
    use Opcode::*;
    let (x, y) = (f(a), f(b));
    bits_of(match code {
        AddF => x + y,
        SubF => x - y,
        MulF => x * y,
        DivF => x / y,
        RemF => x % y,
        MinimumF => minimumf(x, y),
        MaximumF => maximumf(x, y),
        _ => f32::NAN,
    })
}

/// `arith.cmpi` with MLIR's predicate numbering (`CMPI_PREDICATES`).
pub fn cmpi(pred: u64, a: u64, b: u64, bits: u32) -> bool {
    let (sa, sb) = (sext(a, bits), sext(b, bits));
    match pred {
        0 => a == b,
        1 => a != b,
        2 => sa < sb,
        3 => sa <= sb,
        4 => sa > sb,
        5 => sa >= sb,
        6 => a < b,
        7 => a <= b,
        8 => a > b,
        _ => a >= b,
    }
}

/// `arith.cmpf` with MLIR's predicate numbering (`CMPF_PREDICATES`): `o*` are false and `u*`
/// true when either operand is NaN.
pub fn cmpf(pred: u64, a: u64, b: u64) -> bool {
    let (x, y) = (f(a), f(b));
    let uno = x.is_nan() || y.is_nan();
    match pred {
        0 => false,
        1 => !uno && x == y,
        2 => !uno && x > y,
        3 => !uno && x >= y,
        4 => !uno && x < y,
        5 => !uno && x <= y,
        6 => !uno && x != y,
        7 => !uno,
        8 => uno || x == y,
        9 => uno || x > y,
        10 => uno || x >= y,
        11 => uno || x < y,
        12 => uno || x <= y,
        13 => uno || x != y,
        14 => uno,
        _ => true,
    }
}

/// Casts from a `from`-bit to a `to`-bit type.
pub fn cast(code: Opcode, a: u64, from: u32, to: u32) -> u64 {
    use Opcode::*;
    let m = mask(to);
    match code {
        ExtSI => sext(a, from) as u64 & m,
        ExtUI | TruncI | Bitcast => a & m,
        SIToFP => bits_of(sext(a, from) as f32),
        UIToFP => bits_of(a as f32),
        FPToSI => fp_to_int(f(a), to, true),
        FPToUI => fp_to_int(f(a), to, false),
        _ => 0,
    }
}

/// Rounds toward zero and saturates to the `bits`-wide signed or unsigned range; NaN is 0.
fn fp_to_int(x: f32, bits: u32, signed: bool) -> u64 {
    if x.is_nan() {
        return 0;
    }
    let x = x as f64;
    let (lo, hi) = if signed {
        (-(2f64.powi(bits as i32 - 1)), 2f64.powi(bits as i32 - 1))
    } else {
        (0.0, 2f64.powi(bits as i32))
    };
    let r: i128 = if x <= lo {
        lo as i128
    } else if x >= hi {
        hi as i128 - 1
    } else {
        x.trunc() as i128
    };
    r as u64 & mask(bits)
}

/// The new value of an atomic of kind `ATOMIC_KINDS[kind]` on `old` with operand `v`.
pub fn atomic(kind: u64, old: u64, v: u64, bits: u32) -> u64 {
    let r = match kind {
        0 => old.wrapping_add(v),
        1 => sext(old, bits).min(sext(v, bits)) as u64,
        2 => sext(old, bits).max(sext(v, bits)) as u64,
        3 => old.min(v),
        4 => old.max(v),
        5 => v,
        _ => bits_of(f(old) + f(v)),
    };
    r & mask(bits)
}

/// Folds `v` into the running reduction `acc` of kind `REDUCE_KINDS[kind]`.
pub fn reduce_step(kind: u64, acc: u64, v: u64, bits: u32) -> u64 {
    let r = match kind {
        0 => acc.wrapping_add(v),
        1 => sext(acc, bits).min(sext(v, bits)) as u64,
        2 => sext(acc, bits).max(sext(v, bits)) as u64,
        3 => acc.min(v),
        4 => acc.max(v),
        5 => bits_of(f(acc) + f(v)),
        6 => bits_of(fminmax_num(f(acc), f(v), true)),
        _ => bits_of(fminmax_num(f(acc), f(v), false)),
    };
    r & mask(bits)
}

/// `fmin`/`fmax` of a reduction: a NaN operand gives the other one, and -0 is below +0
/// (`f32::min` may return either zero; `v_min_f32` takes -0).
fn fminmax_num(a: f32, b: f32, min: bool) -> f32 {
    if a.is_nan() {
        b
    } else if b.is_nan() {
        a
    } else if a == b {
        f32::from_bits(if min {
            a.to_bits() | b.to_bits()
        } else {
            a.to_bits() & b.to_bits()
        })
    } else if (a < b) == min {
        a
    } else {
        b
    }
}
