//! factor-reductions: a loop reduction `acc += x * k` whose multiplier `k` is loop-invariant
//! sums `x` alone in the loop and multiplies once where the result is read after it:
//! `acc = acc0 + k * sum(x)` (integer arithmetic wraps modulo 2^n, so the product
//! distributes over the sum). With `x` uniform and `k` divergent (`acc += i * tid`) the loop's
//! work moves from the vector unit to the scalar unit, and the vector register the
//! accumulator held through the loop is gone (LLVM gets there through SCEV's closed forms).
//!
//! Pre: verified IR; only CF kernels are changed.
//! Post: the IR verifies and computes the same buffers. For a header `H` of a reducible loop
//! with one entering edge and block argument `acc` (integer) such that every back edge
//! passes the same `acc' = arith.addi acc, m` (either operand order), `m = arith.muli x, k`
//! (either order) read only by that add, `k` defined outside the loop, `acc'` read only by
//! the back edges and `acc` only by that add inside the loop: `H` gets a new argument `s`
//! (0 on entry, `s + x` on the back edges, the add placed next to `acc'`), every read of
//! `acc` outside the loop reads `acc0 + s * k` computed right before it (`acc0`: the entry
//! value), and `acc`, `acc'` and `m` are removed. Values a rewrite gave new uses are not
//! candidates again in the same run (the use lists it decided on are then stale).
//!
//! Legality: pure integer ops only, nothing convergent moves; the new sum is uniform where
//! `x` is and the loop's exits are, and read after the loop like any loop-carried value
//! (temporal divergence is the uniformity analysis' business, as for `acc`).
//!
//! Cost: one use map per kernel, each candidate checked in O(its uses); linear.

use super::other_operand;
use crate::analysis::{CycleInfo, DomTree, RegionCfg};
use crate::entities::{Block, Op, Value};
use crate::ir::Ir;
use crate::registry::Opcode;
use crate::types::Type;
use std::collections::HashSet;

/// Factors the reductions of every CF kernel; returns how many were rewritten.
pub fn factor_reductions(ir: &mut Ir) -> usize {
    super::each_cf_kernel(ir, factor_kernel)
}

fn factor_kernel(ir: &mut Ir, func: Op) -> usize {
    let region = ir.ops[func].regions[0];
    let cfg = RegionCfg::compute(ir, region);
    let dom = DomTree::dominators(&cfg);
    let cycles = CycleInfo::compute(&cfg);
    let users = ir.users(func);
    let mut touched: HashSet<Value> = HashSet::new();
    let mut done = 0;
    for (ci, cycle) in cycles.cycles.iter().enumerate() {
        if !cycle.is_reducible() {
            continue;
        }
        let c = crate::analysis::CycleId(ci as u32);
        let h = cycle.header();
        let header = cfg.blocks[h as usize];
        let inside = |b: Block| cycles.contains(c, cfg.index[b]);
        // Edges into H: (terminator, successor index), entering or back.
        let mut entering = Vec::new();
        let mut back = Vec::new();
        for &p in &cfg.preds[h as usize] {
            let pb = cfg.blocks[p as usize];
            let Some(t) = ir.terminator(pb) else { continue };
            for (si, s) in ir.ops[t].succs.iter().enumerate() {
                if s.block == header {
                    if cycles.contains(c, p) {
                        back.push((t, si));
                    } else {
                        entering.push((t, si));
                    }
                }
            }
        }
        entering.dedup();
        back.dedup();
        let ([(et, es)], false) = (entering.as_slice(), back.is_empty()) else {
            continue;
        };
        let (et, es) = (*et, *es);
        let nargs = ir.blocks[header].args.len();
        for j in 0..nargs {
            let acc = ir.blocks[header].args[j];
            let ty = ir.value_type(acc);
            if !matches!(ty, Type::I32 | Type::I64) || touched.contains(&acc) {
                continue;
            }
            let next = ir.ops[back[0].0].succs[back[0].1].args[j];
            if back
                .iter()
                .any(|&(t, s)| ir.ops[t].succs[s].args[j] != next)
                || touched.contains(&next)
            {
                continue;
            }
            let Some(add) = ir.defining_op(next) else {
                continue;
            };
            if ir.opcode(add) != Opcode::AddI || !ir.op_block(add).is_some_and(inside) {
                continue;
            }
            let Some(m) = other_operand(ir, add, acc) else {
                continue;
            };
            let Some(mul) = ir.defining_op(m) else {
                continue;
            };
            if ir.opcode(mul) != Opcode::MulI || users[m].len() != 1 || touched.contains(&m) {
                continue;
            }
            // k: an operand of the multiply defined outside the loop; x: the other one.
            let ops = ir.ops[mul].operands.clone();
            let outside = |v: Value| ir.value_block(v).is_some_and(|b| !inside(b));
            let (x, k) = if outside(ops[1]) {
                (ops[0], ops[1])
            } else if outside(ops[0]) {
                (ops[1], ops[0])
            } else {
                continue;
            };
            // k must dominate the header (it is outside the loop and read inside it, so it
            // does; checked for safety against unreachable definitions).
            let kb = ir.value_block(k).expect("a block");
            if !dom.dominates(cfg.index[kb], h) {
                continue;
            }
            // acc' only feeds the back edges; acc only the add inside the loop.
            let back_ts: Vec<Op> = back.iter().map(|&(t, _)| t).collect();
            if users[next].iter().any(|u| !back_ts.contains(u)) {
                continue;
            }
            let acc_inside: Vec<Op> = users[acc]
                .iter()
                .copied()
                .filter(|&u| ir.op_block(u).is_some_and(inside))
                .collect();
            if acc_inside.iter().any(|&u| u != add) {
                continue;
            }
            let acc0 = ir.ops[et].succs[es].args[j];
            let outside_uses: Vec<Op> = users[acc]
                .iter()
                .copied()
                .filter(|&u| !ir.op_block(u).is_some_and(inside))
                .collect();
            // The rewrite.
            let loc = ir.ops[add].loc;
            let zero = ir.create_op(Opcode::Constant, &[], &[ty], loc);
            ir.set_attr(zero, "value", crate::attrs::Attr::Int(0, ty));
            ir.insert_op_before(zero, et);
            let zv = ir.ops[zero].results[0];
            let s = ir.add_block_arg(header, ty, None, loc);
            let snext_op = ir.create_op(Opcode::AddI, &[s, x], &[ty], loc);
            ir.insert_op_before(snext_op, add);
            let snext = ir.ops[snext_op].results[0];
            ir.ops[et].succs[es].args.push(zv);
            for &(t, si) in &back {
                ir.ops[t].succs[si].args.push(snext);
            }
            for u in outside_uses {
                let prod = ir.create_op(Opcode::MulI, &[s, k], &[ty], loc);
                ir.insert_op_before(prod, u);
                let pv = ir.ops[prod].results[0];
                let sum = ir.create_op(Opcode::AddI, &[acc0, pv], &[ty], loc);
                ir.insert_op_before(sum, u);
                let sv = ir.ops[sum].results[0];
                for v in ir.uses_mut(u).filter(|v| **v == acc) {
                    *v = sv;
                }
            }
            // acc, acc' and m are gone: drop the add, the multiply and the argument.
            ir.remove_op(add);
            ir.remove_op(mul);
            let mut i = 0;
            ir.retain_block_args(header, |_| {
                i += 1;
                i != j + 1
            });
            for t in back_ts.iter().copied().chain([et]) {
                for sc in ir.ops[t].succs.iter_mut().filter(|sc| sc.block == header) {
                    if sc.args.len() == nargs + 1 {
                        sc.args.remove(j);
                    }
                }
            }
            touched.extend([x, k, acc0, s, snext]);
            done += 1;
            // One rewrite per loop: the argument indices moved.
            break;
        }
    }
    done
}
