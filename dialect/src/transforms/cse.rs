//! cse: dominator-based common subexpression elimination on CF kernels.
//!
//! Pre: verified IR; only CF kernels are changed.
//! Post: the IR verifies and computes the same buffers, and no pure op computes what an op
//! of the same kind on the same operands (commutative operands in either order) with the
//! same attributes already computed in a dominating position: its uses read the earlier
//! result instead, and it is removed.
//!
//! Legality (seed 004, `transforms/legality.rs`): free ops (`legality::is_free`: pure,
//! neither convergent nor co-convergent: arithmetic, constants, work-item and workgroup
//! queries, pointer offsets) are merged whenever one dominates the other: their value depends
//! on their operands alone, so reading the dominating copy gives every thread the value it
//! would have computed. A use may then read a value defined inside a cycle from outside it:
//! that is temporal divergence, which the uniformity analysis, recomputed after this pass,
//! sees and the backend handles (per-lane copies). Pure cross-lane ops (ballot, readlane,
//! shuffle, reduce: same operands, same token) are merged in a second walk, only where
//! `legality::can_merge` allows: the two run with exactly the same threads (same block, or
//! no divergent branch between them, same cycle). Its facts (uniformity, post-dominators)
//! are computed after the first walk, on the IR the second walk changes. Atomics, barriers
//! and token ops are never merged.
//!
//! Loads (`kernel.load`) are merged within a block, last: a load reads what an equal load
//! (same pointer, index and type) earlier in its block read when it may take effect that
//! early, i.e. it may move up past every op in between (`legality::may_reorder`, the
//! memory-order rule: not past an acquire, a seq_cst op, a barrier, or a write or atomic
//! that may touch its element). Every thread runs both loads, so each reads its own earlier
//! value; a write by another thread in between would be a data race, which gives no order.
//!
//! Cost: one walk of the blocks in dominator-tree preorder with a hash table of available
//! expressions; an entry whose block does not dominate the current one is dropped for good
//! (in preorder its subtree is finished), so the pass is linear in the ops. The second walk
//! runs only in kernels with cross-lane ops; each legality query explores at most a bounded
//! region. A load looks back at most `LOAD_WINDOW` ops.

use crate::analysis::{DomTree, RegionCfg};
use crate::attrs::Attr;
use crate::entities::{Op, Value};
use crate::ir::{Ir, ValueList};
use crate::registry::Opcode;
use crate::transforms::legality;
use cranelift_entity::{packed_option::PackedOption, SecondaryMap};
use rustc_hash::{FxHashMap as HashMap, FxHasher};
use smallvec::SmallVec;
use std::hash::{Hash, Hasher};

/// Merges common subexpressions in every CF kernel; returns the number of ops removed.
pub fn cse(ir: &mut Ir) -> usize {
    super::each_cf_kernel(ir, |ir, func| {
        let mut n = cse_kernel(ir, func, None);
        let cross_lane = ir
            .descendants(func)
            .any(|o| legality::is_pure(ir, o) && !legality::is_free(ir, o));
        if cross_lane {
            if let Some(facts) = legality::Facts::compute(ir, func) {
                n += cse_kernel(ir, func, Some(&facts));
            }
        }
        n + merge_loads(ir, func)
    })
}

/// How many ops before a load `merge_loads` looks at.
const LOAD_WINDOW: usize = 64;

/// Replaces every load that an equal load earlier in its block makes redundant (see the
/// module docs); returns the number removed.
fn merge_loads(ir: &mut Ir, func: Op) -> usize {
    let region = ir.ops[func].regions[0];
    let blocks: Vec<_> = ir.region_blocks(region).collect();
    let mut repl = Repl::new(ir);
    for b in blocks {
        let ops: Vec<Op> = ir.block_ops(b).collect();
        for op in ops {
            rewrite_uses(ir, op, &repl);
            if ir.opcode(op) != Opcode::Load {
                continue;
            }
            let mut earlier = ir.prev_op(op);
            for _ in 0..LOAD_WINDOW {
                let Some(e) = earlier else { break };
                let same = ir.opcode(e) == Opcode::Load
                    && ir.ops[e].operands == ir.ops[op].operands
                    && ir.ops[e].attrs == ir.ops[op].attrs
                    && ir.value_type(ir.ops[e].results[0]) == ir.value_type(ir.ops[op].results[0]);
                if same {
                    let (old, new) = (ir.ops[op].results[0], ir.ops[e].results[0]);
                    repl.insert(old, new);
                    if ir.values[new].name.is_none() {
                        if let Some(name) = ir.values[old].name.clone() {
                            ir.set_value_name(new, &name);
                        }
                    }
                    ir.remove_op(op);
                    break;
                }
                if !legality::may_reorder(ir, e, op) {
                    break;
                }
                earlier = ir.prev_op(e);
            }
        }
    }
    // Uses in other blocks (a load's block dominates them all).
    if !repl.is_empty() {
        for b in ir.region_blocks(region).collect::<Vec<_>>() {
            for op in ir.block_ops(b).collect::<Vec<_>>() {
                rewrite_uses(ir, op, &repl);
            }
        }
    }
    repl.count
}

/// The hash of what identifies an expression: opcode, operands (sorted for commutative ops),
/// result types and attributes (a float by its bits). `None` if this walk does not merge
/// `op`: free ops in the first walk, pure cross-lane ops (with `facts`) in the second. The
/// table keeps only this hash and the op; [`same_expr`] settles equality on the ops
/// themselves, so no key is built per op.
fn expr_hash(ir: &Ir, op: Op, cross_lane: bool) -> Option<u64> {
    let data = &ir.ops[op];
    let wanted = if cross_lane {
        legality::is_pure(ir, op) && !legality::is_free(ir, op)
    } else {
        legality::is_free(ir, op)
    };
    if !wanted || data.results.is_empty() {
        return None;
    }
    let mut h = FxHasher::default();
    data.opcode.hash(&mut h);
    operands_of(data.opcode, &data.operands).hash(&mut h);
    for &r in &data.results {
        ir.value_type(r).hash(&mut h);
    }
    for (name, a) in &data.attrs {
        name.hash(&mut h);
        hash_attr(a, &mut h);
    }
    Some(h.finish())
}

/// `operands`, sorted when `code` is commutative.
fn operands_of(code: Opcode, operands: &ValueList) -> ValueList {
    let mut v = operands.clone();
    if commutative(code) {
        v.sort();
    }
    v
}

fn hash_attr(a: &Attr, h: &mut FxHasher) {
    std::mem::discriminant(a).hash(h);
    match a {
        Attr::Int(v, t) => (v, t).hash(h),
        Attr::Float(f) => f.to_bits().hash(h),
        Attr::Str(s) | Attr::Symbol(s) => s.hash(h),
        Attr::Bool(b) => b.hash(h),
        Attr::I32Array(v) => v.hash(h),
        Attr::Unit => {}
    }
}

/// Attributes equal as [`hash_attr`] sees them: a float by its bits (`0.0` is not `-0.0`).
fn same_attr(a: &Attr, b: &Attr) -> bool {
    match (a, b) {
        (Attr::Float(x), Attr::Float(y)) => x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

/// Do `a` and `b` compute the same expression (what [`expr_hash`] hashes)?
fn same_expr(ir: &Ir, a: Op, b: Op) -> bool {
    let (x, y) = (&ir.ops[a], &ir.ops[b]);
    x.opcode == y.opcode
        && x.results.len() == y.results.len()
        && x.attrs.len() == y.attrs.len()
        && operands_of(x.opcode, &x.operands) == operands_of(y.opcode, &y.operands)
        && x.results
            .iter()
            .zip(&y.results)
            .all(|(&r, &s)| ir.value_type(r) == ir.value_type(s))
        && x.attrs
            .iter()
            .zip(&y.attrs)
            .all(|((n, p), (m, q))| n == m && same_attr(p, q))
}

fn commutative(code: Opcode) -> bool {
    use Opcode::*;
    matches!(
        code,
        AddI | MulI
            | AndI
            | OrI
            | XOrI
            | MinSI
            | MaxSI
            | MinUI
            | MaxUI
            | AddF
            | MulF
            | MinimumF
            | MaximumF
    )
}

fn cse_kernel(ir: &mut Ir, func: Op, facts: Option<&legality::Facts>) -> usize {
    let region = ir.ops[func].regions[0];
    let cfg = RegionCfg::compute(ir, region);
    let dom = DomTree::dominators(&cfg);
    // Available expressions: per key, the results of earlier ops and their block's node,
    // innermost last.
    let mut avail: HashMap<u64, SmallVec<[(Op, u32); 2]>> = HashMap::default();
    // Replacements made so far (old -> new), applied to operands as the walk reaches them:
    // every use is dominated by its def, so it is visited after the replacement is known.
    let mut repl = Repl::new(ir);
    let mut removed = 0;
    let mut ops: Vec<Op> = Vec::new();
    for &n in dom.preorder() {
        let block = cfg.blocks[n as usize];
        ops.clear();
        ops.extend(ir.block_ops(block));
        for &op in &ops {
            // Uses first: operands and successor arguments read the surviving copies.
            rewrite_uses(ir, op, &repl);
            let Some(k) = expr_hash(ir, op, facts.is_some()) else {
                continue;
            };
            // Entries of one hash: every one dominates the next (each push first drops
            // those whose block does not dominate), so the innermost equal one is the
            // last equal one.
            let stack = avail.entry(k).or_default();
            while stack.last().is_some_and(|&(_, m)| !dom.dominates(m, n)) {
                stack.pop();
            }
            let earlier = stack
                .iter()
                .rev()
                .map(|&(e, _)| e)
                .find(|&e| same_expr(ir, e, op))
                .filter(|&e| match facts {
                    Some(f) => legality::can_merge(ir, f, e, op),
                    None => true,
                });
            match earlier {
                Some(earlier) => {
                    let pairs: Vec<(Value, Value)> = ir.ops[op]
                        .results
                        .iter()
                        .copied()
                        .zip(ir.ops[earlier].results.iter().copied())
                        .collect();
                    for (old, new) in pairs {
                        repl.insert(old, new);
                        if ir.values[new].name.is_none() {
                            if let Some(name) = ir.values[old].name.clone() {
                                ir.set_value_name(new, &name);
                            }
                        }
                    }
                    ir.remove_op(op);
                    removed += 1;
                }
                None => stack.push((op, n)),
            }
        }
    }
    // Uses in blocks the dominator tree does not reach (unreachable code) are rewritten too.
    if !repl.is_empty() {
        for (n, &b) in cfg.blocks.iter().enumerate() {
            if !dom.is_reachable(n as u32) {
                for op in ir.block_ops(b).collect::<Vec<_>>() {
                    rewrite_uses(ir, op, &repl);
                }
            }
        }
    }
    removed
}

/// Replacements made so far (old -> new): a table indexed by value, which the walk reads for
/// every operand, rather than a hash table that grows with the kernel.
struct Repl {
    to: SecondaryMap<Value, PackedOption<Value>>,
    count: usize,
}

impl Repl {
    fn new(ir: &Ir) -> Repl {
        Repl {
            to: SecondaryMap::with_capacity(ir.values.len()),
            count: 0,
        }
    }
    fn insert(&mut self, old: Value, new: Value) {
        self.to[old] = new.into();
        self.count += 1;
    }
    fn is_empty(&self) -> bool {
        self.count == 0
    }
}

/// Makes `op` read the surviving copy of every value CSE replaced.
fn rewrite_uses(ir: &mut Ir, op: Op, repl: &Repl) {
    if repl.is_empty() {
        return;
    }
    for v in ir.uses_mut(op) {
        if let Some(r) = repl.to[*v].expand() {
            *v = r;
        }
    }
}
