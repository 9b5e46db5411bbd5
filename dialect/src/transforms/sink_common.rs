//! sink-common: common-code sinking (SimplifyCFG's "sink common instructions"): the two
//! predecessors of a join that end in the same op (same kind, attributes, result types; two
//! stores, two loads, two adds) give it up, and the join computes it once, with a new block
//! argument for every operand on which the two differ.
//!
//! Pre: verified IR; only CF kernels are changed.
//! Post: the IR verifies and computes the same buffers. For every block J with exactly two
//! predecessors P1 and P2, both ending in `cf.br ^J` (J their only successor), as long as
//! the last ops before those branches match and the rules below allow, the pair is replaced
//! by one op at the start of J: its operands are the shared ones, or new arguments of J that
//! P1 and P2 pass; its results replace the arguments of J that received the pair's results
//! (which P1 and P2 passed at the same positions and used nowhere else). The CFG does not
//! change.
//!
//! Which ops: pure ops (free or cross-lane), loads and stores. A load or store that is the
//! last op of its arm moves to the start of the join with nothing in between, so no memory
//! access is reordered; each thread still performs exactly one access of the pair, at the
//! address it would have used. (Two threads of different arms storing to one address is a
//! data race either way; the language gives it no order.)
//!
//! Legality (`transforms/legality.rs`):
//! - `legality::can_select` for every operand that differs (seed 004 rule 3): the new block
//!   argument is a choice between the two values, uniform only if no divergent branch joins
//!   at J and both values are uniform where they were read (temporal divergence included).
//!   A lane index of readlane, or any operand of a cross-lane op, must not become divergent:
//!   `if (c) v = readlane(x, 1) else v = readlane(x, 2)` stays two ops when `c` is divergent.
//! - `legality::convergence_allows` for both ops (seed 004 rules 1-2): a cross-lane op in P1
//!   and one in P2 become one op only if J runs with the threads P1 ran (the branch choosing
//!   between P1 and P2 is uniform).
//!
//! Uniformity facts are computed on first need; the merged op gets fresh result values,
//! which the analysis did not see and therefore answers divergent (never stale).
//!
//! Cost: one scan of the blocks, each merge O(operands + uses of the merged results); facts
//! at most once per kernel.

use crate::analysis::{DomTree, RegionCfg};
use crate::entities::{Block, Op, Value};
use crate::ir::Ir;
use crate::registry::Opcode;
use crate::transforms::legality::{self, Facts};
use crate::types::Type;

/// Sinks common code in every CF kernel; returns the number of op pairs merged.
pub fn sink_common(ir: &mut Ir) -> usize {
    super::each_cf_kernel(ir, sink_kernel)
}

struct Kernel {
    func: Op,
    users: super::Users,
    /// `None`: not computed yet; `Some(None)`: the kernel has no facts (not CF).
    facts: Option<Option<Facts>>,
}

impl Kernel {
    fn facts(&mut self, ir: &Ir) -> Option<&Facts> {
        let func = self.func;
        self.facts
            .get_or_insert_with(|| Facts::compute(ir, func))
            .as_ref()
    }
}

fn sink_kernel(ir: &mut Ir, func: Op) -> usize {
    let region = ir.ops[func].regions[0];
    let cfg = RegionCfg::compute(ir, region);
    let dom = DomTree::dominators(&cfg);
    let mut k = Kernel {
        func,
        users: ir.users(func),
        facts: None,
    };
    let mut merged = 0;
    for (j, preds) in cfg.preds.iter().enumerate() {
        let &[p1, p2] = preds.as_slice() else {
            continue;
        };
        // Not a loop header (a back edge would carry the merged op around the loop).
        if p1 == p2 || dom.dominates(j as u32, p1) || dom.dominates(j as u32, p2) {
            continue;
        }
        let join = cfg.blocks[j];
        let (b1, b2) = (cfg.blocks[p1 as usize], cfg.blocks[p2 as usize]);
        let (Some(t1), Some(t2)) = (ir.terminator(b1), ir.terminator(b2)) else {
            continue;
        };
        if ir.opcode(t1) != Opcode::Br || ir.opcode(t2) != Opcode::Br {
            continue;
        }
        let before = merged;
        let mut dropped: Vec<bool> = vec![false; ir.blocks[join].args.len()];
        while let (Some(o1), Some(o2)) = (ir.prev_op(t1), ir.prev_op(t2)) {
            if !merge(ir, &mut k, join, (b1, t1, o1), (b2, t2, o2), &mut dropped) {
                break;
            }
            merged += 1;
        }
        if merged > before {
            // Drop the join arguments the merged results replaced, and what P1, P2 passed.
            dropped.resize(ir.blocks[join].args.len(), false);
            let keep: Vec<bool> = dropped.iter().map(|d| !d).collect();
            let mut i = 0;
            ir.retain_block_args(join, |_| {
                i += 1;
                keep[i - 1]
            });
            for t in [t1, t2] {
                let mut i = 0;
                ir.ops[t].succs[0].args.retain(|_| {
                    i += 1;
                    keep[i - 1]
                });
            }
        }
    }
    merged
}

/// Merges the last ops `o1` (in `b1`, before branch `t1`) and `o2` into one at the start of
/// `join`, if they match and legality allows; marks the join arguments their results
/// replace in `dropped`.
fn merge(
    ir: &mut Ir,
    k: &mut Kernel,
    join: Block,
    (b1, t1, o1): (Block, Op, Op),
    (b2, t2, o2): (Block, Op, Op),
    dropped: &mut Vec<bool>,
) -> bool {
    let (d1, d2) = (&ir.ops[o1], &ir.ops[o2]);
    let code = d1.opcode;
    if code != d2.opcode
        || d1.attrs != d2.attrs
        || d1.operands.len() != d2.operands.len()
        || d1.results.len() != d2.results.len()
        || !d1.regions.is_empty()
        || !d1.succs.is_empty()
        || !(legality::is_pure(ir, o1) || matches!(code, Opcode::Load | Opcode::Store))
    {
        return false;
    }
    let tys: Vec<Type> = d1.results.iter().map(|&r| ir.value_type(r)).collect();
    if d2
        .results
        .iter()
        .zip(&tys)
        .any(|(&r, &t)| ir.value_type(r) != t)
    {
        return false;
    }
    // Results: read only by the branches, at the same positions.
    let (args1, args2) = (&ir.ops[t1].succs[0].args, &ir.ops[t2].succs[0].args);
    let mut positions: Vec<Vec<usize>> = Vec::new();
    for (&r1, &r2) in d1.results.iter().zip(&d2.results) {
        // (Users removed by an earlier merge no longer count.)
        let other = |r: Value, t: Op| {
            k.users[r]
                .iter()
                .any(|&u| u != t && ir.op_block(u).is_some())
        };
        if other(r1, t1) || other(r2, t2) {
            return false;
        }
        let p1: Vec<usize> = (0..args1.len()).filter(|&i| args1[i] == r1).collect();
        let p2: Vec<usize> = (0..args2.len()).filter(|&i| args2[i] == r2).collect();
        if p1 != p2 {
            return false;
        }
        positions.push(p1);
    }
    // Operands: shared, or a new join argument (a choice between the two).
    let pairs: Vec<(Value, Value)> = d1
        .operands
        .iter()
        .copied()
        .zip(d2.operands.iter().copied())
        .collect();
    for (i, &(a, b)) in pairs.iter().enumerate() {
        if a == b {
            continue;
        }
        if ir.value_type(a) == Type::Token || ir.value_type(a) != ir.value_type(b) {
            return false;
        }
        if !legality::can_select(ir, o1, i, false) {
            let uniform = match k.facts(ir) {
                Some(f) => f.uniform_merge(join, &[(a, o1), (b, o2)]),
                None => false,
            };
            if !legality::can_select(ir, o1, i, uniform) {
                return false;
            }
        }
    }
    if !legality::is_free(ir, o1) {
        let ok = match k.facts(ir) {
            Some(f) => {
                legality::convergence_allows(ir, f, o1, b1, join)
                    && legality::convergence_allows(ir, f, o2, b2, join)
            }
            None => false,
        };
        if !ok {
            return false;
        }
    }
    // Rewrite: new arguments, the merged op, its results for the old join arguments.
    let loc = ir.ops[o1].loc;
    let mut operands = Vec::with_capacity(pairs.len());
    for &(a, b) in &pairs {
        if a == b {
            operands.push(a);
            continue;
        }
        let name = ir.values[a].name.clone();
        let arg = ir.add_block_arg(join, ir.value_type(a), name, loc);
        ir.ops[t1].succs[0].args.push(a);
        ir.ops[t2].succs[0].args.push(b);
        k.users[a].push(t1);
        k.users[b].push(t2);
        operands.push(arg);
    }
    let op = ir.create_op(code, &operands, &tys, loc);
    ir.ops[op].attrs = ir.ops[o1].attrs.clone();
    match ir.first_op(join) {
        Some(first) => ir.insert_op_before(op, first),
        None => ir.append_op(join, op),
    }
    let join_args = ir.blocks[join].args.clone();
    dropped.resize(join_args.len(), false);
    let results = ir.ops[op].results.clone();
    let olds = ir.ops[o1].results.clone();
    for ((r, pos), old_result) in results.iter().zip(&positions).zip(olds) {
        // The name the join gave the value, else the arm's.
        let name = pos
            .first()
            .and_then(|&p| ir.values[join_args[p]].name.clone())
            .or_else(|| ir.values[old_result].name.clone());
        if let Some(name) = name {
            ir.set_value_name(*r, &name);
        }
        for &p in pos {
            super::replace_uses(ir, &mut k.users, join_args[p], *r);
            dropped[p] = true;
        }
    }
    for v in ir.ops[op].operands.clone() {
        k.users[v].push(op);
    }
    ir.remove_op(o1);
    ir.remove_op(o2);
    true
}
