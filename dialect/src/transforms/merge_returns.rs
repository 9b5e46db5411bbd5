//! merge-returns: return blocks that end in the same store become one return block that
//! stores a block argument (what SimplifyCFG's common-code sinking gives LLVM for
//! `if (..) { out[t] = i; return; } ... out[t] = -1;`). With one return block, a loop left
//! through a `return` and through its normal exit has one exit block, and no selector flag
//! is needed to tell the exits apart after it. Returns outside loops are left alone: there
//! a merged block would make the lanes of two divergent returns rejoin for one store, more
//! EXEC bookkeeping than the two stores it saves.
//!
//! Pre: verified IR; only CF kernels are changed.
//! Post: the IR verifies and computes the same buffers. The return blocks whose ops are
//! constants, then one `kernel.store v, p, i`, then `kernel.return`, and whose predecessors
//! are all in one cycle (they are exits of that loop), grouped by the loop and the store's
//! pointer, index and attributes: every group of two or more is replaced by one new block
//! `^ret(%v)` holding that store (of `%v`) and the return; each member passes its stored
//! value. A member with exactly one predecessor and no arguments disappears: its constants
//! move before the predecessor's terminator, and the predecessor branches to `^ret` with
//! the value directly; any other member becomes `cf.br ^ret(v)`.
//!
//! Legality: each thread still performs exactly one store, of the same value at the same
//! address, as its last action (the store is not convergent; nothing follows it but the
//! return). A constant is uniform and pure: moving it into the predecessor changes nothing.
//! The new argument is divergent when the branches that reach `^ret` are (the uniformity
//! analysis sees it like any join).
//!
//! Cost: one scan of the blocks and one pass over each group; linear.

use crate::analysis::cycles::{CycleId, CycleInfo};
use crate::analysis::RegionCfg;
use crate::entities::{Block, Op, Value};
use crate::ir::Ir;
use crate::registry::Opcode;

/// Merges the return blocks of every CF kernel; returns the number of blocks merged away.
pub fn merge_returns(ir: &mut Ir) -> usize {
    super::each_cf_kernel(ir, merge_kernel)
}

/// A return block of the pattern: its constants, its store, and the stored value.
struct Member {
    block: Block,
    constants: Vec<Op>,
    store: Op,
    value: Value,
}

fn member(ir: &Ir, block: Block) -> Option<Member> {
    let ret = ir.terminator(block)?;
    if ir.opcode(ret) != Opcode::Return {
        return None;
    }
    let mut constants = Vec::new();
    let mut store = None;
    for op in ir.block_ops(block) {
        if op == ret {
            break;
        }
        match ir.opcode(op) {
            Opcode::Constant if store.is_none() => constants.push(op),
            Opcode::Store if store.is_none() => store = Some(op),
            _ => return None,
        }
    }
    let store = store?;
    let value = ir.ops[store].operands[0];
    Some(Member {
        block,
        constants,
        store,
        value,
    })
}

fn merge_kernel(ir: &mut Ir, func: Op) -> usize {
    let region = ir.ops[func].regions[0];
    let cfg = RegionCfg::compute(ir, region);
    let cycles = CycleInfo::compute(&cfg);
    // The innermost cycle every predecessor of block node `b` is in, if one.
    let left_cycle = |b: usize| -> Option<CycleId> {
        let preds = &cfg.preds[b];
        let c = cycles.innermost(*preds.first()?)?;
        preds
            .iter()
            .all(|&p| cycles.innermost(p) == Some(c))
            .then_some(c)
    };
    // Groups by (pointer, index, attributes, the cycle left), in block order.
    let mut groups: Vec<(CycleId, Vec<Member>)> = Vec::new();
    for (node, &b) in cfg.blocks.iter().enumerate().skip(1) {
        let Some(m) = member(ir, b) else { continue };
        let Some(cycle) = left_cycle(node) else {
            continue;
        };
        let key = |ir: &Ir, s: Op| (ir.ops[s].operands[1], ir.ops[s].operands[2]);
        let found = groups.iter_mut().find(|(c, g)| {
            let s = g[0].store;
            *c == cycle
                && key(ir, s) == key(ir, m.store)
                && ir.ops[s].attrs == ir.ops[m.store].attrs
        });
        match found {
            Some((_, g)) => g.push(m),
            None => groups.push((cycle, vec![m])),
        }
    }
    let mut merged = 0;
    for (_, group) in groups.into_iter().filter(|(_, g)| g.len() >= 2) {
        let first = group[0].store;
        let loc = ir.ops[first].loc;
        let ty = ir.value_type(group[0].value);
        let ret = ir.create_block();
        ir.append_block(region, ret);
        let v = ir.add_block_arg(ret, ty, None, loc);
        let (p, i) = (ir.ops[first].operands[1], ir.ops[first].operands[2]);
        let store = ir.create_op(Opcode::Store, &[v, p, i], &[], loc);
        ir.ops[store].attrs = ir.ops[first].attrs.clone();
        ir.append_op(ret, store);
        let ret_loc = ir.terminator(group[0].block).map_or(loc, |t| ir.ops[t].loc);
        let r = ir.create_op(Opcode::Return, &[], &[], ret_loc);
        ir.append_op(ret, r);
        for m in group {
            let node = cfg.index[m.block] as usize;
            let preds = &cfg.preds[node];
            let single = preds.len() == 1 || preds.windows(2).all(|w| w[0] == w[1]);
            let t = ir.terminator(m.block).expect("a return");
            ir.remove_op(m.store);
            // A predecessor that already branches to `ret` keeps the member (no branch
            // with two edges into one block).
            let pred = preds.first().map(|&p| cfg.blocks[p as usize]);
            let pt = pred.and_then(|p| ir.terminator(p));
            let threads = single
                && ir.blocks[m.block].args.is_empty()
                && pt.is_some_and(|pt| ir.ops[pt].succs.iter().all(|s| s.block != ret));
            if let (true, Some(pt)) = (threads, pt) {
                for c in m.constants {
                    ir.remove_op(c);
                    ir.insert_op_before(c, pt);
                }
                for s in ir.ops[pt].succs.iter_mut() {
                    if s.block == m.block {
                        s.block = ret;
                        s.args = thin_vec::thin_vec![m.value];
                    }
                }
                ir.remove_op(t);
                ir.remove_block(m.block);
                merged += 1;
            } else {
                let br = ir.create_op(Opcode::Br, &[], &[], ir.ops[t].loc);
                ir.add_successor(br, ret, &[m.value]);
                ir.insert_op_before(br, t);
                ir.remove_op(t);
            }
        }
    }
    merged
}
