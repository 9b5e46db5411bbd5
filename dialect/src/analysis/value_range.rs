//! Known ranges of integer values: an upper bound for values proven non-negative.
//!
//! `nonneg_bound(ir, v)` is `Some(b)` only if every execution gives `v` a value in `0..=b`,
//! read as a *signed* integer of `v`'s width (so an `i32` bound is at most `i32::MAX`, and a
//! value with its top bit possibly set has no bound). It looks through the defining ops of
//! `v` to a fixed depth ([`MAX_DEPTH`]): constants, work-item and lane ids (a workgroup has at
//! most 1024 work-items), zero extension, `and` with a non-negative operand, and `add`, `mul`,
//! shifts, `rem`, `div`, `min`/`max` and `select` of bounded operands when the result cannot
//! wrap. Block arguments, loads and everything else are unbounded. The cost of one query is
//! bounded by the depth (at most 2^MAX_DEPTH defining ops), whatever the kernel's size, and
//! nothing is cached, so no invalidation is needed.
//!
//! The backend uses it to pick 32-bit address offsets only where they cannot wrap.

use crate::{Ir, Opcode, Type, Value};

/// How many defining ops a query looks through.
pub const MAX_DEPTH: u32 = 6;

/// Largest work-item id in any dimension (a workgroup holds at most 1024 work-items).
const MAX_WORKITEM_ID: u64 = 1023;

/// An upper bound on `v`, which is proven to lie in `0..=bound` (see the module docs).
pub fn nonneg_bound(ir: &Ir, v: Value) -> Option<u64> {
    bound(ir, v, MAX_DEPTH)
}

/// The largest non-negative value of `ty` read as signed.
fn signed_max(ty: Type) -> Option<u64> {
    match ty.bits() {
        32 => Some(i32::MAX as u64),
        64 => Some(i64::MAX as u64),
        _ => None,
    }
}

fn bound(ir: &Ir, v: Value, depth: u32) -> Option<u64> {
    let ty = ir.value_type(v);
    let max = signed_max(ty)?;
    let op = ir.defining_op(v)?;
    let d = &ir.ops[op];
    let fits = |b: u64| (b <= max).then_some(b);
    if depth == 0 {
        return None;
    }
    let sub = |i: usize| bound(ir, d.operands[i], depth - 1);
    let constant = |i: usize| ir.int_constant(d.operands[i]);
    match ir.opcode(op) {
        Opcode::Constant => ir.int_constant(v).filter(|&c| c >= 0).map(|c| c as u64),
        Opcode::WorkitemId => Some(MAX_WORKITEM_ID),
        Opcode::LaneId => Some(63),
        Opcode::WaveSize => Some(64),
        Opcode::WorkgroupSize => Some(MAX_WORKITEM_ID + 1),
        Opcode::ExtUI => {
            let src = ir.value_type(d.operands[0]);
            let full = if src.bits() >= 64 {
                return None;
            } else {
                (1u64 << src.bits()) - 1
            };
            fits(sub(0).map_or(full, |b| b.min(full)))
        }
        Opcode::ExtSI => sub(0),
        Opcode::TruncI => sub(0).and_then(fits),
        // x & y is at most y for any x when y >= 0 (and the other way round).
        Opcode::AndI => match (sub(0), sub(1)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        },
        Opcode::OrI | Opcode::XOrI => {
            let (a, b) = (sub(0)?, sub(1)?);
            // Both below 2^k: so is the result.
            let k = 64 - a.max(b).leading_zeros();
            fits(if k >= 64 { u64::MAX } else { (1u64 << k) - 1 })
        }
        Opcode::AddI => fits(sub(0)?.checked_add(sub(1)?)?),
        Opcode::MulI => fits(sub(0)?.checked_mul(sub(1)?)?),
        Opcode::ShLI => {
            let s = constant(1)?;
            if !(0..ty.bits() as i64).contains(&s) {
                return None;
            }
            fits(sub(0)?.checked_mul(1u64 << s)?)
        }
        Opcode::ShRSI => {
            let s = constant(1)?;
            (0..ty.bits() as i64)
                .contains(&s)
                .then(|| sub(0))?
                .map(|b| b >> s)
        }
        Opcode::ShRUI => {
            let s = constant(1)?;
            if !(1..ty.bits() as i64).contains(&s) {
                return sub(0).filter(|_| s == 0);
            }
            // A logical shift by at least one clears the sign bit.
            let umax = if ty.bits() == 64 {
                u64::MAX
            } else {
                (1u64 << ty.bits()) - 1
            };
            Some(sub(0).unwrap_or(umax) >> s)
        }
        Opcode::RemUI => {
            let c = constant(1).filter(|&c| c > 0)? as u64;
            Some(sub(0).map_or(c - 1, |a| a.min(c - 1)))
        }
        Opcode::RemSI => {
            // The sign follows the dividend.
            let a = sub(0)?;
            match constant(1) {
                Some(c) if c != 0 => Some(a.min(c.unsigned_abs() - 1)),
                _ => Some(a),
            }
        }
        Opcode::DivUI | Opcode::DivSI => {
            let c = constant(1).filter(|&c| c > 0)? as u64;
            Some(sub(0)? / c)
        }
        Opcode::MinSI => match (sub(0), sub(1)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            _ => None,
        },
        Opcode::MinUI => match (sub(0), sub(1)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        },
        Opcode::MaxSI | Opcode::MaxUI => Some(sub(0)?.max(sub(1)?)),
        Opcode::Select => {
            let (a, b) = (
                bound(ir, d.operands[1], depth - 1)?,
                bound(ir, d.operands[2], depth - 1)?,
            );
            Some(a.max(b))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse;

    /// The bound of the value stored by each `kernel.store` of `src`, in order.
    fn bounds(src: &str) -> Vec<Option<u64>> {
        let ir = parse(src, "t.mlir").unwrap_or_else(|e| panic!("{e:?}"));
        let mut out = Vec::new();
        for op in ir.ops.keys() {
            if ir.opcode(op) == Opcode::Store {
                out.push(nonneg_bound(&ir, ir.ops[op].operands[0]));
            }
        }
        out
    }

    #[test]
    fn bounds_of_common_index_shapes() {
        let src = r#"
kernel.func @k {
^entry(%out: !kernel.ptr<global, i64>, %n: i32, %m: i64):
  %tid = kernel.workitem_id x : i32
  %c16 = arith.constant 16 : i32
  %c15 = arith.constant 15 : i32
  %cm1 = arith.constant -1 : i32
  %a = arith.muli %tid, %c16 : i32
  %b = arith.andi %n, %c15 : i32
  %c = arith.addi %a, %b : i32
  %d = arith.extui %n : i32 to i64
  %e = arith.extsi %c : i32 to i64
  %f = arith.addi %n, %c15 : i32
  %g = arith.andi %n, %cm1 : i32
  %h = arith.remui %n, %c16 : i32
  %i = arith.shrui %n, %c15 : i32
  %z = arith.constant 0 : i32
  %z64 = arith.extsi %z : i32 to i64
  %c1 = arith.extsi %c : i32 to i64
  kernel.store %d, %out, %z64 : !kernel.ptr<global, i64>, i64
  kernel.store %e, %out, %z64 : !kernel.ptr<global, i64>, i64
  %fx = arith.extsi %f : i32 to i64
  kernel.store %fx, %out, %z64 : !kernel.ptr<global, i64>, i64
  %gx = arith.extsi %g : i32 to i64
  kernel.store %gx, %out, %z64 : !kernel.ptr<global, i64>, i64
  %hx = arith.extsi %h : i32 to i64
  kernel.store %hx, %out, %z64 : !kernel.ptr<global, i64>, i64
  %ix = arith.extsi %i : i32 to i64
  kernel.store %ix, %out, %z64 : !kernel.ptr<global, i64>, i64
  kernel.store %m, %out, %z64 : !kernel.ptr<global, i64>, i64
  kernel.store %c1, %out, %z64 : !kernel.ptr<global, i64>, i64
  kernel.return
}
"#;
        assert_eq!(
            bounds(src),
            vec![
                Some(u32::MAX as u64),       // zext of anything 32-bit
                Some(1023 * 16 + 15),        // tid * 16 + (n & 15)
                None,                        // n + 15 may wrap
                None,                        // n & -1 is n
                Some(15),                    // n % 16 (unsigned)
                Some(u32::MAX as u64 >> 15), // n >> 15 (logical)
                None,                        // a 64-bit parameter
                Some(1023 * 16 + 15),
            ]
        );
    }
}
