//! dce: dead code elimination on CF kernels.
//!
//! Pre: verified IR; only CF kernels are changed.
//! Post: the IR verifies and computes the same buffers, and
//! - blocks unreachable from the entry are gone;
//! - no pure op (`PURE` in the registry: arithmetic, constants, work-item queries, pointer
//!   offsets) has a result nobody reads; removal cascades to the operands it was the last
//!   reader of;
//! - no block argument of a non-entry block is unread, unless it is a convergence token
//!   (removing a token argument would change which token an op is controlled by); the value
//!   each predecessor passed for it is dropped too, and removed in turn if that was its
//!   last use.
//!
//! Legality (seed 004, `legality::is_free`): dead ops are pure, so none is convergent,
//! co-convergent or has side effects (loads, stores, atomics, barriers, cross-lane ops and token
//! ops are never removed, even unused: a shuffle of an inactive lane must stay an error of the
//! reference run, not become a silent success). Removing unreachable blocks removes only code
//! no thread runs.
//!
//! Cost: linear: one use-count pass, then one worklist of unread values (op results and
//! block arguments) that decrements counts.

use crate::entities::{Block, Op, Value};
use crate::ir::{Ir, ValueDef};
use crate::transforms::legality;
use crate::types::Type;
use cranelift_entity::SecondaryMap;

/// Removes dead code from every CF kernel; returns the number of ops and arguments removed.
pub fn dce(ir: &mut Ir) -> usize {
    super::each_cf_kernel(ir, |ir, func| {
        remove_unreachable(ir, func) + dce_kernel(ir, func)
    })
}

/// Unlinks the blocks of the kernel body that the entry does not reach.
fn remove_unreachable(ir: &mut Ir, func: Op) -> usize {
    let region = ir.ops[func].regions[0];
    let Some(entry) = ir.entry_block(region) else {
        return 0;
    };
    let mut seen: SecondaryMap<Block, bool> = SecondaryMap::with_capacity(ir.blocks.len());
    let mut stack = vec![entry];
    seen[entry] = true;
    while let Some(b) = stack.pop() {
        for s in ir.block_succs(b).collect::<Vec<_>>() {
            if !seen[s] {
                seen[s] = true;
                stack.push(s);
            }
        }
    }
    let dead: Vec<Block> = ir.region_blocks(region).filter(|&b| !seen[b]).collect();
    if dead.is_empty() {
        return 0;
    }
    // No reachable op reads their values: in verified IR a def dominates its uses, and an
    // unreachable block dominates no reachable one.
    for &b in &dead {
        ir.remove_block(b);
    }
    dead.len()
}

fn dce_kernel(ir: &mut Ir, func: Op) -> usize {
    // Use counts of every value (operands and successor arguments).
    let mut uses: SecondaryMap<Value, u32> = SecondaryMap::with_capacity(ir.values.len());
    let mut ops = Vec::new();
    ir.walk(func, &mut |o| ops.push(o));
    for &o in &ops {
        for v in ir.uses(o) {
            uses[v] += 1;
        }
    }
    // The edges into every block: (terminator, successor index).
    let region = ir.ops[func].regions[0];
    let entry = ir.entry_block(region);
    let mut preds: SecondaryMap<Block, Vec<(Op, usize)>> = SecondaryMap::new();
    for &o in &ops {
        for (i, s) in ir.ops[o].succs.iter().enumerate() {
            preds[s.block].push((o, i));
        }
    }
    // Values nobody reads: results of pure ops and arguments of non-entry blocks.
    let mut work: Vec<Value> = Vec::new();
    for &o in &ops {
        if legality::is_free(ir, o) {
            work.extend(ir.ops[o].results.iter().copied().filter(|&r| uses[r] == 0));
        }
    }
    for b in ir.region_blocks(region).collect::<Vec<_>>() {
        if Some(b) != entry {
            work.extend(ir.blocks[b].args.iter().copied().filter(|&a| uses[a] == 0));
        }
    }
    let mut removed = 0;
    while let Some(v) = work.pop() {
        if uses[v] > 0 {
            continue;
        }
        match ir.values[v].def {
            ValueDef::Result(o, _) => {
                if ir.op_block(o).is_none()
                    || !legality::is_free(ir, o)
                    || ir.ops[o].results.iter().any(|&r| uses[r] > 0)
                {
                    continue;
                }
                ir.remove_op(o);
                removed += 1;
                for u in ir.ops[o].operands.clone() {
                    uses[u] -= 1;
                    if uses[u] == 0 {
                        work.push(u);
                    }
                }
            }
            ValueDef::BlockArg(b, _) => {
                if Some(b) == entry || ir.value_type(v) == Type::Token {
                    continue;
                }
                // Its current position (earlier removals shift the arguments).
                let Some(i) = ir.blocks[b].args.iter().position(|&a| a == v) else {
                    continue;
                };
                for &(t, si) in &preds[b] {
                    if ir.op_block(t).is_none() {
                        continue;
                    }
                    let passed = ir.ops[t].succs[si].args.remove(i);
                    uses[passed] -= 1;
                    if uses[passed] == 0 {
                        work.push(passed);
                    }
                }
                ir.retain_block_args(b, |a| a != v);
                removed += 1;
            }
        }
    }
    removed
}
