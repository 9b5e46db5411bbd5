//! canonicalize: constant folding and algebraic identities on CF kernels.
//!
//! Pre: verified IR; only CF kernels are changed (structured kernels are left alone).
//! Post: the IR verifies and computes the same buffers, and
//! - an `arith` op whose operands are all constants is a constant, computed with the
//!   scalar semantics the reference interpreter also runs (`eval`, LANGUAGE.md); integer
//!   division or remainder by zero and signed `MIN / -1` are left alone (their value is
//!   undefined: folding would pick one);
//! - integer identities: `x + 0`, `x - 0`, `x * 1`, `x / 1`, `x | 0`, `x ^ 0`, `x & -1`,
//!   shifts by 0 give `x`; `x * 0`, `x & 0` give 0; `x - x`, `x ^ x` give 0; `x & x`, `x | x`,
//!   `min/max(x, x)` give `x`; `select(c, a, a)` and `select(true/false, a, b)` pick; an
//!   unsigned `x % 2^k` is `x & (2^k - 1)` and an unsigned `x / 2^k` is `x >> k`; a 32-bit
//!   unsigned division or remainder by another constant is a multiply-high by a magic number
//!   (`kernel.mulhiu`); a signed one by 2^k is LLVM's shift sequence, and a signed one whose
//!   operands are both known non-negative (`value_range`) is the unsigned one;
//!   `x % d == 0` (and `!= 0`) for an odd 32-bit constant `d` is `x * d^-1 <=u limit`, one
//!   multiply and one compare instead of a division (LLVM's `prepareUREMEqFold`);
//!   float ops are only folded on constants (no `x + 0.0`: -0.0 + 0.0 is +0.0);
//! - `kernel.wave_size` is the constant 64 (gfx942 is wave64, and so is the interpreter), so
//!   what is computed from it folds too (`gid / wave_size()` is a shift);
//! - `cf.cond_br` on a constant is a `cf.br` to the taken side;
//! - `select(c, f(.., a, ..), f(.., b, ..))` is `f(.., select(c, a, b), ..)` when the two ops
//!   differ in one operand and only the select reads them, and `legality::can_select`
//!   allows it (`hoist_select_operands`: a lane index or any cross-lane operand does not
//!   become a divergent select, seed 004's `texture(s[c ? 0 : 1])` example).
//!
//! The folded op is removed; the operands it read may be left for `dce`.
//!
//! Legality (seed 004, the convergence rules): no op moves, and a cross-lane op is only
//! combined with an equal one in the same block (`hoist_select_operands`, which asks
//! `legality::can_select`), so nothing changes which threads execute a convergent operation
//! together. A constant is
//! uniform, so a branch on a constant is uniform and replacing it by a jump removes no
//! divergence. Replacing a value by one of its operands (`x + 0` -> `x`) keeps the same value
//! at the same place; it can make a use read a value defined in a cycle from outside it only
//! if the op itself is outside, which is where its operand already was.
//!
//! Cost: one worklist over the ops; a fold pushes the users of its result (a use list built
//! once, kept up to date), so the pass is linear in the ops plus the uses it rewrites.

use crate::analysis::value_range;
use crate::attrs::Attr;
use crate::entities::{Op, Value};
use crate::eval;
use crate::ir::{Ir, Successor};
use crate::location::Loc;
use crate::registry::Opcode;
use crate::transforms::legality;
use crate::types::Type;
use smallvec::SmallVec;

/// Folds every CF kernel of the module; returns the number of ops folded or simplified.
pub fn canonicalize(ir: &mut Ir) -> usize {
    super::each_cf_kernel(ir, canonicalize_kernel)
}

/// What an op simplifies to.
enum Fold {
    /// `(x rem d) == 0` (or `!=`) for an odd 32-bit `d >= 3`: a multiply by `d`'s inverse
    /// modulo 2^32 and one unsigned compare (LLVM's `prepareUREMEqFold`/`prepareSREMEqFold`).
    RemIsZero {
        ne: bool,
        signed: bool,
        x: Value,
        d: u32,
    },
    /// A new constant with this bit pattern.
    Const(u64),
    /// An existing value.
    Value(Value),
    /// An unsigned op by a power of two: `x & mask` or `x >> k` (opcode, constant operand).
    Rewrite(Opcode, Value, u64),
    /// The same op on the same operands with another opcode (`divsi` -> `divui` when both
    /// operands are known non-negative).
    Recode(Opcode),
    /// A signed `x / 2^k` (`div`) or `x % 2^k` without a division (LLVM's sequence).
    SignedPow2 { div: bool, x: Value, k: u32 },
    /// An unsigned 32-bit `x / d` (`div`) or `x % d` by a constant: a multiply-high by a
    /// magic number ([`udiv_magic`]).
    UnsignedConst { div: bool, x: Value, d: u32 },
}

/// How to divide a 32-bit unsigned value by `d` (not a power of two, at least 3) with a
/// multiply-high (Granlund and Montgomery; LLVM's `UnsignedDivisionByConstantInfo`):
/// `(m, s, false)`: `q = mulhi(x, m) >> s`, when some `s` has `m = ceil(2^(32+s) / d)`
/// below 2^32 with `m*d - 2^(32+s) <= 2^s` (then the rounding error never reaches the next
/// integer for any 32-bit `x`); otherwise `(m, l, true)` with `l = ceil(log2 d)` and
/// `m = floor(2^32 (2^l - d) / d) + 1`: `t = mulhi(x, m)`, `q = (t + ((x - t) >> 1)) >> (l-1)`.
pub fn udiv_magic(d: u32) -> (u32, u32, bool) {
    let d128 = d as u128;
    for s in 0..32u32 {
        let p = 1u128 << (32 + s);
        let m = p.div_ceil(d128);
        if m < (1u128 << 32) && m * d128 - p <= (1u128 << s) {
            return (m as u32, s, false);
        }
    }
    let l = 32 - (d - 1).leading_zeros();
    let m = ((1u128 << 32) * ((1u128 << l) - d128)) / d128 + 1;
    (m as u32, l, true)
}

/// Builds the ops a fold replaces one op with, just before it, at its location, with its
/// result type; every op built joins the use lists of what it reads.
struct Emit {
    before: Op,
    ty: Type,
    loc: Loc,
}

impl Emit {
    fn konst(&self, ir: &mut Ir, bits: u64) -> Value {
        let c = ir.create_op(Opcode::Constant, &[], &[self.ty], self.loc);
        let attr = match self.ty {
            Type::F32 => Attr::Float(f32::from_bits(bits as u32)),
            Type::I1 => Attr::Int((bits & 1) as i64, self.ty),
            ty => Attr::Int(eval::sext(bits, ty.bits()), ty),
        };
        ir.set_attr(c, "value", attr);
        ir.insert_op_before(c, self.before);
        ir.ops[c].results[0]
    }

    fn op(&self, ir: &mut Ir, users: &mut Users, code: Opcode, operands: &[Value]) -> Value {
        let o = ir.create_op(code, operands, &[self.ty], self.loc);
        ir.insert_op_before(o, self.before);
        for &a in operands {
            users[a].push(o);
        }
        ir.ops[o].results[0]
    }
}

use super::{replace_uses, Users};

fn canonicalize_kernel(ir: &mut Ir, func: Op) -> usize {
    let mut users = ir.users(func);
    let mut ops = Vec::new();
    ir.walk(func, &mut |o| ops.push(o));
    // A stack: folds push users, which are then folded before the rest (order is irrelevant
    // to the result; every op is visited at least once).
    ops.reverse();
    let mut count = 0;
    while let Some(op) = ops.pop() {
        if ir.op_block(op).is_none() {
            continue; // removed meanwhile
        }
        if ir.opcode(op) == Opcode::CondBr {
            if let Some(c) = ir.constant_bits(ir.ops[op].operands[0]) {
                let taken = if c & 1 != 0 { 0 } else { 1 };
                let succ: Successor = ir.ops[op].succs[taken].clone();
                let br = ir.create_op(Opcode::Br, &[], &[], ir.ops[op].loc);
                ir.add_successor(br, succ.block, &succ.args);
                ir.insert_op_before(br, op);
                ir.remove_op(op);
                // The jump reads the taken edge's arguments now (a later fold of one of them
                // must rewrite it).
                for &a in &succ.args {
                    users[a].push(br);
                }
                count += 1;
            }
            continue;
        }
        if only_tested_for_zero(ir, &users, op) {
            continue; // its compares become `RemIsZero`; dce removes it
        }
        let Some(fold) = fold(ir, op) else { continue };
        let old = ir.ops[op].results[0];
        let e = Emit {
            before: op,
            ty: ir.value_type(old),
            loc: ir.ops[op].loc,
        };
        let new = match fold {
            Fold::Value(v) => v,
            Fold::Const(bits) => e.konst(ir, bits),
            Fold::RemIsZero { ne, signed, x, d } => {
                let w = Emit { ty: Type::I32, ..e };
                let inv = w.konst(ir, inverse_mod_2_32(d) as u64);
                let mut t = w.op(ir, &mut users, Opcode::MulI, &[x, inv]);
                // x % d == 0  <=>  x * inv <=u (2^32 - 1) / d, unsigned; signed: with
                // a = (2^31 - 1) / d, x * inv + a <=u 2a (the multiples of d map onto
                // 0..=2a after the shift by a).
                let limit = if signed {
                    let a = (i32::MAX as u32) / d;
                    let av = w.konst(ir, a as u64);
                    t = w.op(ir, &mut users, Opcode::AddI, &[t, av]);
                    2 * a
                } else {
                    u32::MAX / d
                };
                let lv = w.konst(ir, limit as u64);
                let cmp = ir.create_op(Opcode::CmpI, &[t, lv], &[e.ty], e.loc);
                // ule 7, ugt 8 (registry's predicate order).
                ir.set_attr(
                    cmp,
                    "predicate",
                    Attr::Int(if ne { 8 } else { 7 }, Type::I64),
                );
                ir.insert_op_before(cmp, op);
                users[t].push(cmp);
                users[lv].push(cmp);
                ir.ops[cmp].results[0]
            }
            Fold::Rewrite(code, x, k) => {
                let kv = e.konst(ir, k);
                e.op(ir, &mut users, code, &[x, kv])
            }
            Fold::Recode(code) => {
                let operands = ir.ops[op].operands.clone();
                let r = e.op(ir, &mut users, code, &operands);
                // The unsigned op may fold further (a power of two, a magic number).
                ops.extend(ir.defining_op(r));
                r
            }
            Fold::SignedPow2 { div, x, k } => {
                // bias = (x >> (bits-1)) >>> (bits-k) is 2^k - 1 for negative x, else 0;
                // x / 2^k = (x + bias) >> k; x % 2^k = x - ((x + bias) & -2^k).
                let bits = e.ty.bits();
                let top = e.konst(ir, (bits - 1) as u64);
                let sign = e.op(ir, &mut users, Opcode::ShRSI, &[x, top]);
                let back = e.konst(ir, (bits - k) as u64);
                let bias = e.op(ir, &mut users, Opcode::ShRUI, &[sign, back]);
                let t = e.op(ir, &mut users, Opcode::AddI, &[x, bias]);
                if div {
                    let kk = e.konst(ir, k as u64);
                    e.op(ir, &mut users, Opcode::ShRSI, &[t, kk])
                } else {
                    let m = e.konst(ir, eval::mask(bits) & !((1u64 << k) - 1));
                    let low = e.op(ir, &mut users, Opcode::AndI, &[t, m]);
                    e.op(ir, &mut users, Opcode::SubI, &[x, low])
                }
            }
            Fold::UnsignedConst { div, x, d } => {
                let (m, s, add) = udiv_magic(d);
                let mv = e.konst(ir, m as u64);
                let t = e.op(ir, &mut users, Opcode::MulHiU, &[x, mv]);
                let q = if !add && s == 0 {
                    t
                } else if !add {
                    let sv = e.konst(ir, s as u64);
                    e.op(ir, &mut users, Opcode::ShRUI, &[t, sv])
                } else {
                    let diff = e.op(ir, &mut users, Opcode::SubI, &[x, t]);
                    let one = e.konst(ir, 1);
                    let half = e.op(ir, &mut users, Opcode::ShRUI, &[diff, one]);
                    let sum = e.op(ir, &mut users, Opcode::AddI, &[t, half]);
                    let sv = e.konst(ir, (s - 1) as u64);
                    e.op(ir, &mut users, Opcode::ShRUI, &[sum, sv])
                };
                if div {
                    q
                } else {
                    let dv = e.konst(ir, d as u64);
                    let qd = e.op(ir, &mut users, Opcode::MulI, &[q, dv]);
                    e.op(ir, &mut users, Opcode::SubI, &[x, qd])
                }
            }
        };
        if let Some(name) = ir.values[old].name.clone() {
            if ir.values[new].name.is_none() {
                ir.set_value_name(new, &name);
            }
        }
        replace_uses(ir, &mut users, old, new);
        // The folded op is pure and unread now; unlinking it also keeps it from being
        // revisited as a user of `new`.
        ir.remove_op(op);
        ops.extend(users[new].iter().copied());
        count += 1;
    }
    count + hoist_select_operands(ir, func, &mut users)
}

/// `select(c, f(.., a, ..), f(.., b, ..))`, where the two ops differ in one operand and the
/// select alone reads them, becomes `f(.., select(c, a, b), ..)`: one op fewer. A separate
/// walk after the folds, with uniformity facts computed on first need on the IR as it then
/// is (values made after that answer divergent). `legality::can_select` decides (seed 004
/// rule 3): an operand the op needs uniform, or any operand of a cross-lane op (it reads it
/// in other lanes), may become the select only if `c` is uniform where the select reads it
/// (temporal divergence included). Cross-lane ops are combined only within the select's
/// block (the same threads run them).
fn hoist_select_operands(ir: &mut Ir, func: Op, users: &mut Users) -> usize {
    let mut selects = Vec::new();
    ir.walk(func, &mut |o| {
        if ir.opcode(o) == Opcode::Select {
            selects.push(o);
        }
    });
    let mut facts: Option<Option<legality::Facts>> = None;
    let mut count = 0;
    for sel in selects {
        let (c, t, f) = match ir.ops[sel].operands[..] {
            [c, t, f] => (c, t, f),
            _ => continue,
        };
        let (Some(ot), Some(of)) = (ir.defining_op(t), ir.defining_op(f)) else {
            continue;
        };
        let block = ir.op_block(sel);
        let (dt, df) = (&ir.ops[ot], &ir.ops[of]);
        if ot == of
            || dt.opcode != df.opcode
            || dt.attrs != df.attrs
            || dt.results.len() != 1
            || dt.operands.len() != df.operands.len()
            || !legality::is_pure(ir, ot)
            || users[t].as_slice() != [sel]
            || users[f].as_slice() != [sel]
        {
            continue;
        }
        let differ: Vec<usize> = (0..dt.operands.len())
            .filter(|&i| dt.operands[i] != df.operands[i])
            .collect();
        let &[i] = differ.as_slice() else { continue };
        let (a, b) = (dt.operands[i], df.operands[i]);
        if ir.value_type(a) != ir.value_type(b) || ir.value_type(a) == Type::Token {
            continue;
        }
        if !legality::is_free(ir, ot) && (ir.op_block(ot) != block || ir.op_block(of) != block) {
            continue;
        }
        if !legality::can_select(ir, ot, i, false) {
            let uniform = facts
                .get_or_insert_with(|| legality::Facts::compute(ir, func))
                .as_ref()
                .is_some_and(|fs| fs.uniform_use(c, sel));
            if !legality::can_select(ir, ot, i, uniform) {
                continue;
            }
        }
        // f(.., select(c, a, b), ..) just before the select, which it replaces.
        let loc = ir.ops[sel].loc;
        let choice = ir.create_op(Opcode::Select, &[c, a, b], &[ir.value_type(a)], loc);
        ir.insert_op_before(choice, sel);
        let chosen = ir.ops[choice].results[0];
        let mut operands = ir.ops[ot].operands.clone();
        operands[i] = chosen;
        let ty = ir.value_type(t);
        let merged = ir.create_op(ir.opcode(ot), &operands, &[ty], ir.ops[ot].loc);
        ir.ops[merged].attrs = ir.ops[ot].attrs.clone();
        ir.insert_op_before(merged, sel);
        for v in [c, a, b] {
            users[v].push(choice);
        }
        for &v in &operands {
            users[v].push(merged);
        }
        let old = ir.ops[sel].results[0];
        let new = ir.ops[merged].results[0];
        if let Some(name) = ir.values[old].name.clone() {
            ir.set_value_name(new, &name);
        }
        replace_uses(ir, users, old, new);
        ir.remove_op(sel);
        ir.remove_op(ot);
        ir.remove_op(of);
        count += 1;
    }
    count
}

/// What `op` simplifies to, if anything.
fn fold(ir: &Ir, op: Op) -> Option<Fold> {
    use Opcode::*;
    let data = &ir.ops[op];
    let code = data.opcode;
    if data.results.len() != 1 || !data.regions.is_empty() {
        return None;
    }
    let ty = ir.value_type(data.results[0]);
    let bits = ty.bits();
    let ops = &data.operands;
    let c: SmallVec<[Option<u64>; 4]> = ops.iter().map(|&v| ir.constant_bits(v)).collect();
    let all_const = !c.is_empty() && c.iter().all(Option::is_some);
    let k = |i: usize| c[i].unwrap_or(0);
    match code {
        AddI | SubI | MulI | DivSI | DivUI | RemSI | RemUI | AndI | OrI | XOrI | ShLI | ShRSI
        | ShRUI | MinSI | MaxSI | MinUI | MaxUI => {
            if all_const {
                return eval::int_binop(code, k(0), k(1), bits)
                    .ok()
                    .map(Fold::Const);
            }
            let (x, y) = (ops[0], ops[1]);
            let ones = eval::mask(bits);
            let rhs = c[1];
            let lhs = c[0];
            match (code, lhs, rhs) {
                (AddI | SubI | OrI | XOrI | ShLI | ShRSI | ShRUI, _, Some(0)) => {
                    Some(Fold::Value(x))
                }
                (AddI | OrI | XOrI, Some(0), _) => Some(Fold::Value(y)),
                (MulI | DivSI | DivUI, _, Some(1)) => Some(Fold::Value(x)),
                (MulI, Some(1), _) => Some(Fold::Value(y)),
                (MulI | AndI, _, Some(0)) | (MulI | AndI, Some(0), _) => Some(Fold::Const(0)),
                (AndI, _, Some(m)) if m == ones => Some(Fold::Value(x)),
                (AndI, Some(m), _) if m == ones => Some(Fold::Value(y)),
                (RemUI, _, Some(p)) if p.is_power_of_two() => Some(Fold::Rewrite(AndI, x, p - 1)),
                (DivUI, _, Some(p)) if p.is_power_of_two() => {
                    Some(Fold::Rewrite(ShRUI, x, p.trailing_zeros() as u64))
                }
                // Both operands non-negative: the unsigned op gives the same result.
                (DivSI | RemSI, _, _)
                    if rhs != Some(0)
                        && value_range::nonneg_bound(ir, x).is_some()
                        && value_range::nonneg_bound(ir, y).is_some() =>
                {
                    Some(Fold::Recode(if code == DivSI { DivUI } else { RemUI }))
                }
                (DivUI | RemUI, _, Some(d)) if bits == 32 && d >= 3 && !d.is_power_of_two() => {
                    Some(Fold::UnsignedConst {
                        div: code == DivUI,
                        x,
                        d: d as u32,
                    })
                }
                (DivSI | RemSI, _, Some(p))
                    if p.is_power_of_two() && p >= 2 && p.trailing_zeros() < bits - 1 =>
                {
                    Some(Fold::SignedPow2 {
                        div: code == DivSI,
                        x,
                        k: p.trailing_zeros(),
                    })
                }
                _ if x == y => match code {
                    SubI | XOrI => Some(Fold::Const(0)),
                    AndI | OrI | MinSI | MaxSI | MinUI | MaxUI => Some(Fold::Value(x)),
                    _ => None,
                },
                _ => None,
            }
        }
        AddF | SubF | MulF | DivF | RemF | MinimumF | MaximumF if all_const => {
            Some(Fold::Const(eval::float_binop(code, k(0), k(1))))
        }
        NegF if all_const => Some(Fold::Const(k(0) ^ 0x8000_0000)),
        CmpI | CmpF => {
            let pred = ir.attr(op, "predicate").and_then(Attr::as_int)? as u64;
            if all_const {
                let obits = ir.value_type(ops[0]).bits();
                let r = if code == CmpI {
                    eval::cmpi(pred, k(0), k(1), obits)
                } else {
                    eval::cmpf(pred, k(0), k(1))
                };
                return Some(Fold::Const(r as u64));
            }
            if code == CmpI && pred <= 1 && c[1] == Some(0) {
                if let Some((signed, x, d)) = odd_rem(ir, ops[0]) {
                    return Some(Fold::RemIsZero {
                        ne: pred == 1,
                        signed,
                        x,
                        d,
                    });
                }
            }
            // x == x and friends, for integers only (NaN != NaN).
            if code == CmpI && ops[0] == ops[1] {
                let obits = ir.value_type(ops[0]).bits();
                return Some(Fold::Const(eval::cmpi(pred, 0, 0, obits) as u64));
            }
            None
        }
        Select => {
            if ops[1] == ops[2] {
                return Some(Fold::Value(ops[1]));
            }
            c[0].map(|b| Fold::Value(if b & 1 != 0 { ops[1] } else { ops[2] }))
        }
        ExtSI | ExtUI | TruncI | SIToFP | UIToFP | FPToSI | FPToUI | Bitcast if all_const => {
            let from = ir.value_type(ops[0]).bits();
            Some(Fold::Const(eval::cast(code, k(0), from, bits)))
        }
        // Every target kc compiles for (gfx942) runs wave64, as the interpreter does.
        WaveSize => Some(Fold::Const(eval::WAVE_SIZE as u64)),
        _ => None,
    }
}

/// `v = x rem d` (signed or unsigned) with an odd 32-bit constant `3 <= d` (`d < 2^31` for
/// the signed one): (signed, x, d).
fn odd_rem(ir: &Ir, v: Value) -> Option<(bool, Value, u32)> {
    let def = ir.defining_op(v)?;
    let signed = match ir.opcode(def) {
        Opcode::RemUI => false,
        Opcode::RemSI => true,
        _ => return None,
    };
    if ir.value_type(v) != Type::I32 {
        return None;
    }
    let [x, dv] = ir.ops[def].operands[..] else {
        return None;
    };
    let d = ir.constant_bits(dv)? as u32;
    let ok = d >= 3 && d % 2 == 1 && (!signed || d <= i32::MAX as u32);
    ok.then_some((signed, x, d))
}

/// `op` is a remainder `odd_rem` accepts and every live user compares it with 0 for
/// (in)equality: those compares fold to `RemIsZero`, so expanding the remainder is waste.
fn only_tested_for_zero(ir: &Ir, users: &Users, op: Op) -> bool {
    let Some(&r) = ir.ops[op].results.first() else {
        return false;
    };
    // Unsigned only: a signed remainder is first recoded to an unsigned one when its
    // operands are non-negative (and is not expanded otherwise).
    if !matches!(odd_rem(ir, r), Some((false, _, _))) {
        return false;
    }
    users[r].iter().all(|&u| {
        ir.op_block(u).is_none()
            || ir.opcode(u) == Opcode::CmpI
                && ir.ops[u].operands[0] == r
                && ir.constant_bits(ir.ops[u].operands[1]) == Some(0)
                && ir
                    .attr(u, "predicate")
                    .and_then(Attr::as_int)
                    .is_some_and(|p| p <= 1)
    })
}

/// The inverse of odd `d` modulo 2^32 (Newton's iteration: each step doubles the correct
/// low bits, starting from 3 correct ones since d * d = 1 mod 8).
fn inverse_mod_2_32(d: u32) -> u32 {
    let mut x = d;
    for _ in 0..4 {
        x = x.wrapping_mul(2u32.wrapping_sub(d.wrapping_mul(x)));
    }
    x
}

#[cfg(test)]
mod tests {
    use super::{inverse_mod_2_32, udiv_magic};

    /// The divisibility tests `RemIsZero` emits agree with `%` on edges, multiples and a
    /// pseudo-random sweep, unsigned and signed, for many odd divisors.
    #[test]
    fn rem_is_zero_tests_agree() {
        let mut ds: Vec<u32> = (3..3000).step_by(2).collect();
        ds.extend([641, 6700417, 0x7fff_ffff, 0x8000_0001, 0xffff_ffff]);
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for d in ds {
            let inv = inverse_mod_2_32(d);
            assert_eq!(d.wrapping_mul(inv), 1, "inverse of {d}");
            let mut xs = vec![0u32, 1, d - 1, d, d.wrapping_add(1), u32::MAX, 1 << 31];
            xs.extend([d.wrapping_mul(7), d.wrapping_mul(7).wrapping_add(1)]);
            xs.extend([
                (d as i32).wrapping_neg() as u32,
                (d as i32).wrapping_mul(-5) as u32,
            ]);
            for _ in 0..300 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                xs.push(seed as u32);
                xs.push((seed as u32) / d * d);
            }
            for x in xs {
                let t = x.wrapping_mul(inv);
                assert_eq!(t <= u32::MAX / d, x % d == 0, "{x} %u {d}");
                if d <= i32::MAX as u32 {
                    let a = (i32::MAX as u32) / d;
                    let signed = (x as i32).wrapping_rem(d as i32) == 0;
                    assert_eq!(t.wrapping_add(a) <= 2 * a, signed, "{x} %s {d}");
                }
            }
        }
    }

    /// The magic numbers divide every tested 32-bit value exactly: edges, multiples of `d`
    /// and their neighbours, and a pseudo-random sweep, for many divisors.
    #[test]
    fn magic_division_is_exact() {
        let mut ds: Vec<u32> = (3..2000).filter(|d: &u32| !d.is_power_of_two()).collect();
        ds.extend([
            7,
            10,
            641,
            6700417,
            0x7fff_ffff,
            0x8000_0001,
            0xffff_fffe,
            0xffff_ffff,
        ]);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for d in ds {
            let (m, s, add) = udiv_magic(d);
            let q = |x: u32| {
                let t = ((x as u64 * m as u64) >> 32) as u32;
                if add {
                    (t + ((x - t) >> 1)) >> (s - 1)
                } else {
                    t >> s
                }
            };
            let mut xs = vec![0, 1, d - 1, d, d.wrapping_add(1), u32::MAX, u32::MAX - 1];
            let top = u32::MAX / d * d;
            xs.extend([top, top.wrapping_sub(1), top - d, top - d + 1]);
            for _ in 0..200 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                xs.push(seed as u32);
            }
            for x in xs {
                assert_eq!(q(x), x / d, "{x} / {d} (m {m:#x}, s {s}, add {add})");
            }
        }
    }
}
