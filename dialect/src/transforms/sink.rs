//! sink: moves pure ops down into the conditionally executed block that needs them (LLVM's
//! Sink pass), so threads that do not take that path do not compute them.
//!
//! Pre: verified IR; only CF kernels are changed.
//! Post: the IR verifies and computes the same buffers. A pure op whose results are all read
//! in blocks strictly dominated by its own block, whose nearest common dominator T of those
//! readers does not post-dominate its block (or lies outside the op's cycle), is moved to
//! the start of T, unless:
//! - T lies in a cycle its block is not in (sinking into a loop runs it more often); T is
//!   then moved up the dominator tree until it does not (leaving a cycle is fine: per-thread
//!   values are the same, and a use after a divergent exit is temporally divergent either
//!   way, which the recomputed uniformity analysis sees);
//! - `legality::can_move` refuses (cross-lane ops: seed 004 rules; never out of or into a
//!   cycle, never into a branch taken by fewer threads: a ballot sunk into `if (c)` would see
//!   only the threads with `c` true, unless `c` is uniform).
//!
//! Ops are visited bottom-up in each block and blocks in post-order, so a chain of ops feeding
//! one another sinks together, in its original order.
//!
//! Cost: one post-order walk; per op, its users and a dominator-tree climb from the first
//! reader's block, capped at `CLIMB_LIMIT` steps (an op read far away stays: without the cap
//! a kernel of N sequential ifs would cost O(N^2)); legality queries are bounded.

use crate::analysis::{DomTree, RegionCfg};
use crate::entities::Op;
use crate::ir::Ir;
use crate::transforms::legality::{self, Facts};

/// Longest dominator-tree climb per op.
const CLIMB_LIMIT: usize = 64;

/// Sinks ops in every CF kernel; returns the number of ops moved.
pub fn sink(ir: &mut Ir) -> usize {
    super::each_cf_kernel(ir, sink_kernel)
}

fn sink_kernel(ir: &mut Ir, func: Op) -> usize {
    let region = ir.ops[func].regions[0];
    let cfg = RegionCfg::compute(ir, region);
    let dom = DomTree::dominators(&cfg);
    let pdom = DomTree::post_dominators(&cfg);
    let cycles = crate::analysis::CycleInfo::compute(&cfg);
    let users = ir.users(func);
    // Computed on first need: only cross-lane ops ask.
    let mut facts: Option<Option<Facts>> = None;
    let mut moved = 0;
    for n in cfg.postorder() {
        let block = cfg.blocks[n as usize];
        let ops: Vec<Op> = ir.block_ops(block).collect();
        for &op in ops.iter().rev() {
            if !legality::is_pure(ir, op) || ir.ops[op].results.is_empty() {
                continue;
            }
            // The nearest common dominator of the readers' blocks (node numbers).
            let mut target: Option<u32> = None;
            let mut steps = 0;
            let mut ok = true;
            'users: for &r in &ir.ops[op].results {
                for &u in &users[r] {
                    let Some(ub) = ir.op_block(u).and_then(|b| cfg.node(b)) else {
                        ok = false;
                        break 'users;
                    };
                    if ub == n || !dom.is_reachable(ub) {
                        ok = false;
                        break 'users;
                    }
                    let mut t = target.unwrap_or(ub);
                    while !dom.dominates(t, ub) {
                        steps += 1;
                        if steps > CLIMB_LIMIT {
                            ok = false;
                            break 'users;
                        }
                        t = dom.idom(t).unwrap_or(dom.root());
                    }
                    target = Some(t);
                }
            }
            let Some(mut t) = target.filter(|_| ok) else {
                continue;
            };
            // Not into a cycle the op is not in.
            while t != n && cycles.innermost(t).is_some_and(|c| !cycles.contains(c, n)) {
                t = dom.idom(t).unwrap_or(n);
            }
            // Worth it when T runs less often: conditionally, or outside the op's cycle.
            let leaves_cycle = cycles.innermost(t) != cycles.innermost(n);
            if t == n || !dom.strictly_dominates(n, t) || (pdom.dominates(t, n) && !leaves_cycle) {
                continue;
            }
            let to = cfg.blocks[t as usize];
            if !legality::is_free(ir, op) {
                let f = facts.get_or_insert_with(|| Facts::compute(ir, func));
                match f {
                    Some(f) if legality::can_move(ir, f, op, to) => {}
                    _ => continue,
                }
            }
            ir.remove_op(op);
            match ir.first_op(to) {
                Some(first) => ir.insert_op_before(op, first),
                None => ir.append_op(to, op),
            }
            moved += 1;
        }
    }
    moved
}
