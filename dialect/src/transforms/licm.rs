//! licm: loop-invariant code motion on CF kernels.
//!
//! Pre: verified IR; only CF kernels are changed.
//! Post: the IR verifies and computes the same buffers, and in every reducible cycle that has
//! a preheader (one predecessor of the header outside the cycle, ending in an unconditional
//! `cf.br`), no hoistable op has all its operands defined outside the cycle: such ops are in
//! the preheader, in their original order. Cycles are processed innermost first, so an op
//! invariant in several nested loops leaves all of them.
//!
//! Hoistable: `legality::can_speculate` (free ops that cannot fault when executed where they
//! did not run: the body may run zero times, or the op may sit under a condition).
//!
//! Legality (seed 004): no convergent or co-convergent op moves, so no set of threads that
//! executes one together changes. A hoisted value depends only on values defined before the
//! loop, so every iteration of every thread computed the same value: reading it after the
//! loop is not temporal divergence (a use outside the cycle that read the in-loop copy did,
//! and is now uniform if its operands are); the uniformity analysis is recomputed anyway.
//!
//! Cost: each cycle scans its blocks (nested cycles' too), sorted in reverse post-order:
//! O(blocks x loop depth), like the uniformity analysis, plus the ops moved.

use crate::analysis::{CycleId, CycleInfo, RegionCfg};
use crate::entities::Op;
use crate::ir::Ir;
use crate::registry::Opcode;
use crate::transforms::legality;

/// Hoists loop-invariant ops in every CF kernel; returns the number of ops moved.
pub fn licm(ir: &mut Ir) -> usize {
    super::each_cf_kernel(ir, licm_kernel)
}

fn licm_kernel(ir: &mut Ir, func: Op) -> usize {
    let region = ir.ops[func].regions[0];
    let cfg = RegionCfg::compute(ir, region);
    let cycles = CycleInfo::compute(&cfg);
    if cycles.cycles.is_empty() {
        return 0;
    }
    // The reverse post-order number of every block (defs before uses in reducible code).
    let rpo_index = cfg.reverse_postorder();
    // Cycles children first (post-order of the forest).
    let mut order: Vec<CycleId> = Vec::new();
    let mut stack: Vec<(CycleId, bool)> = cycles.top_level.iter().map(|&c| (c, false)).collect();
    while let Some((c, done)) = stack.pop() {
        if done {
            order.push(c);
        } else {
            stack.push((c, true));
            stack.extend(cycles.cycle(c).children.iter().map(|&k| (k, false)));
        }
    }
    let mut moved = 0;
    for c in order {
        let cycle = cycles.cycle(c);
        if !cycle.is_reducible() {
            continue;
        }
        let header = cycle.header();
        let mut outside = cfg.preds[header as usize]
            .iter()
            .filter(|&&p| !cycles.contains(c, p));
        let (Some(&pre), None) = (outside.next(), outside.next()) else {
            continue;
        };
        let Some(term) = ir.terminator(cfg.blocks[pre as usize]) else {
            continue;
        };
        if ir.opcode(term) != Opcode::Br {
            continue;
        }
        let mut blocks: Vec<u32> = cycles.block_slice(c).to_vec();
        blocks.sort_by_key(|&b| rpo_index[b as usize]);
        let inside = |ir: &Ir, v| {
            ir.value_block(v)
                .and_then(|b| cfg.node(b))
                .is_some_and(|n| cycles.contains(c, n))
        };
        for b in blocks {
            let ops: Vec<Op> = ir.block_ops(cfg.blocks[b as usize]).collect();
            for op in ops {
                if !legality::can_speculate(ir, op)
                    || ir.ops[op].operands.iter().any(|&v| inside(ir, v))
                {
                    continue;
                }
                ir.remove_op(op);
                ir.insert_op_before(op, term);
                moved += 1;
            }
        }
    }
    moved
}
