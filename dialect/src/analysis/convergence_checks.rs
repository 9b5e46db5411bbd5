//! Static checks the uniformity analysis makes possible: operations whose meaning requires
//! uniform control flow or uniform operands, used where the analysis proves otherwise.
//!
//! - `kernel.barrier` in the region of a divergent branch (some threads of the workgroup
//!   may skip it or reach it a different number of times: a hang on the GPU, undefined in
//!   every GPU language; WGSL/Tint reject it). The region of the branch ending block D is
//!   what its successors reach before D's immediate post-dominator: the blocks that depend
//!   on it, directly or through nested branches and loops. A barrier after the join, or in
//!   a loop whose exits are uniform outside any divergent region, is fine.
//! - An operand the registry lists in `uniform_operands` (readlane's lane index) that is
//!   divergent where the op reads it (temporal divergence included): the hardware reads it
//!   from a scalar register, so there is no one value to use.
//!
//! Each finding names the op, the value or branch that makes it wrong, so the caller can
//! render it at the source line with the `--explain` chain of that value as notes.
//!
//! Cost: one post-dominator tree; per divergent branch, a flood of its region. Done only for
//! kernels with a barrier. The sum of region sizes: linear for sequences of branches,
//! O(blocks x nesting depth) for nested divergent regions (each block lies in the region of
//! every enclosing branch; an exact answer needs that relation).

use super::dominance::DomTree;
use super::uniformity::Uniformity;
use crate::entities::{Op, Value};
use crate::ir::Ir;
use crate::registry::Opcode;

/// What is wrong, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// A barrier control dependent on the divergent branch `branch`.
    DivergentBarrier { barrier: Op, branch: Op },
    /// Operand `index` of `op` must be uniform, and `value` is divergent there.
    DivergentUniformOperand { op: Op, index: usize, value: Value },
}

/// Every finding in the kernel `u` analyses, in IR order.
pub fn check(ir: &Ir, u: &Uniformity) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut barriers = Vec::new();
    for op in ir.descendants(u.func) {
        if ir.opcode(op) == Opcode::Barrier {
            barriers.push(op);
        }
        let spec = ir.spec(op);
        for &i in spec.uniform_operands {
            let i = i as usize;
            if let Some(&v) = ir.ops[op].operands.get(i) {
                if u.is_divergent_use(v, op) {
                    out.push(Finding::DivergentUniformOperand {
                        op,
                        index: i,
                        value: v,
                    });
                }
            }
        }
    }
    if barriers.is_empty() {
        return out;
    }
    let cfg = &u.cfg;
    let pdom = DomTree::post_dominators(cfg);
    // Per block, a divergent branch whose region holds it: the blocks reachable from the
    // branch's successors without passing its immediate post-dominator (nested regions and
    // loops with a divergent exit included, which direct control dependence would miss).
    let mut dep: Vec<Option<Op>> = vec![None; cfg.len()];
    let mut stamp: Vec<u32> = vec![u32::MAX; cfg.len()];
    for (d, succs) in cfg.succs.iter().enumerate() {
        let Some(term) = ir.terminator(cfg.blocks[d]) else {
            continue;
        };
        if succs.len() < 2 || !u.is_divergent_branch(term) {
            continue;
        }
        let stop = pdom.idom(d as u32);
        let mut work: Vec<u32> = succs.to_vec();
        while let Some(b) = work.pop() {
            if Some(b) == stop || stamp[b as usize] == d as u32 {
                continue;
            }
            stamp[b as usize] = d as u32;
            dep[b as usize].get_or_insert(term);
            work.extend(cfg.succs[b as usize].iter().copied());
        }
    }
    for b in barriers {
        let node = ir.op_block(b).and_then(|blk| cfg.node(blk));
        if let Some(branch) = node.and_then(|n| dep[n as usize]) {
            out.push(Finding::DivergentBarrier { barrier: b, branch });
        }
    }
    out
}
