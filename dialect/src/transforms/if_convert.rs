//! if-convert: a small divergent if/else (diamond) or if without else (triangle) becomes
//! straight-line code with `arith.select` for the values that meet at the join (LLVM's
//! SimplifyCFG two-entry phi folding). On a GPU a divergent branch costs EXEC-mask
//! bookkeeping on both sides (save, xor, skip, restore); a few speculated VALU ops and a
//! `v_cndmask` are cheaper.
//!
//! Pre: verified IR; only CF kernels are changed.
//! Post: the IR verifies and computes the same buffers. For every block H ending in a
//! *divergent* `cf.cond_br %c` (uniformity analysis) whose two paths reach the same block J
//! either directly or through an arm block (its only predecessor H, its only successor J
//! through `cf.br`, at most `ARM_BUDGET` ops, every one `legality::can_speculate`), with at
//! most `SELECT_BUDGET` join arguments differing between the two paths: the arms' ops are in
//! H (then-arm first), H ends in `cf.br ^J` passing `arith.select %c, then, else` where the
//! two paths passed different values, and the arm blocks are gone. If H is then J's only
//! predecessor, J is merged into H. Blocks are visited in post-order, so an inner if/else
//! that collapses can make its enclosing arm small enough to collapse too.
//!
//! Legality (`transforms/legality.rs`): only `can_speculate` ops move (free ops that cannot
//! fault), so no convergent, co-convergent, memory or token op runs for threads that did not
//! run it. The join arguments that become selects were already divergent (J joins H's
//! divergent branch), so no uniform operand becomes divergent (seed 004 rule 3). Uniform
//! branches are left alone: a scalar branch is cheap, and speculation would only add work.
//!
//! Cost: one post-order walk; each conversion is linear in the arms it moves and the join
//! arguments; uniformity is computed once per kernel (queried only for the original
//! terminators, which the analysis saw).

use crate::analysis::RegionCfg;
use crate::entities::{Block, Op, Value};
use crate::ir::Ir;
use crate::registry::Opcode;
use crate::transforms::legality::{self, Facts};
use crate::types::Type;
use cranelift_entity::SecondaryMap;

/// Most ops an arm may hold.
const ARM_BUDGET: usize = 4;
/// Most selects one conversion may add.
const SELECT_BUDGET: usize = 4;

/// If-converts every CF kernel; returns the number of branches removed.
pub fn if_convert(ir: &mut Ir) -> usize {
    super::each_cf_kernel(ir, convert_kernel)
}

/// One path from H to J: through an arm block, or straight (the successor is J).
#[derive(Clone, Copy)]
struct Path {
    arm: Option<Block>,
    /// The branch whose successor arguments reach J.
    term: Op,
    succ: usize,
}

fn convert_kernel(ir: &mut Ir, func: Op) -> usize {
    let region = ir.ops[func].regions[0];
    let cfg = RegionCfg::compute(ir, region);
    let Some(facts) = Facts::compute(ir, func) else {
        return 0;
    };
    let entry = ir.entry_block(region);
    // Incoming edges per block (a `cf.cond_br` to one block twice counts twice).
    let mut preds: SecondaryMap<Block, u32> = SecondaryMap::new();
    for &b in &cfg.blocks {
        if let Some(t) = ir.terminator(b) {
            for s in &ir.ops[t].succs {
                preds[s.block] += 1;
            }
        }
    }
    let mut users = ir.users(func);
    let mut converted = 0;
    for n in cfg.postorder() {
        let h = cfg.blocks[n as usize];
        if ir.block_region(h).is_none() {
            continue;
        }
        let Some(term) = ir.terminator(h) else {
            continue;
        };
        if ir.opcode(term) != Opcode::CondBr || !facts.uni.is_divergent_branch(term) {
            continue;
        }
        let Some((then, els, join)) = shape(ir, &preds, h, term) else {
            continue;
        };
        // Values each path passes to J, and the selects they need.
        let passed = |p: Path| ir.ops[p.term].succs[p.succ].args.clone();
        let (vt, ve) = (passed(then), passed(els));
        let arm_args = |p: Path| p.arm.map(|a| ir.blocks[a].args.clone()).unwrap_or_default();
        let subst_then: Vec<(Value, Value)> = arm_args(then)
            .into_iter()
            .zip(ir.ops[term].succs[0].args.clone())
            .collect();
        let subst_else: Vec<(Value, Value)> = arm_args(els)
            .into_iter()
            .zip(ir.ops[term].succs[1].args.clone())
            .collect();
        let resolve = |v: Value, s: &[(Value, Value)]| {
            s.iter().find(|&&(a, _)| a == v).map_or(v, |&(_, b)| b)
        };
        let vt: Vec<Value> = vt.iter().map(|&v| resolve(v, &subst_then)).collect();
        let ve: Vec<Value> = ve.iter().map(|&v| resolve(v, &subst_else)).collect();
        let differing = vt.iter().zip(&ve).filter(|(a, b)| a != b).count();
        if differing > SELECT_BUDGET
            || vt
                .iter()
                .zip(&ve)
                .any(|(&a, &b)| a != b && ir.value_type(a) == Type::Token)
        {
            continue;
        }
        // Rewrite: arm ops into H, selects, one branch to J.
        let cond = ir.ops[term].operands[0];
        let loc = ir.ops[term].loc;
        for (p, subst) in [(then, &subst_then), (els, &subst_else)] {
            let Some(arm) = p.arm else { continue };
            for &(a, v) in subst.iter() {
                super::replace_uses(ir, &mut users, a, v);
            }
            let ops: Vec<Op> = ir.block_ops(arm).collect();
            for op in ops {
                if op == p.term {
                    continue;
                }
                ir.remove_op(op);
                ir.insert_op_before(op, term);
            }
        }
        let mut args = Vec::with_capacity(vt.len());
        for (&a, &b) in vt.iter().zip(&ve) {
            if a == b {
                args.push(a);
                continue;
            }
            let sel = ir.create_op(Opcode::Select, &[cond, a, b], &[ir.value_type(a)], loc);
            ir.insert_op_before(sel, term);
            let r = ir.ops[sel].results[0];
            for v in [cond, a, b] {
                users[v].push(sel);
            }
            args.push(r);
        }
        let br = ir.create_op(Opcode::Br, &[], &[], loc);
        ir.add_successor(br, join, &args);
        ir.insert_op_before(br, term);
        for &v in &args {
            users[v].push(br);
        }
        ir.remove_op(term);
        for p in [then, els] {
            if let Some(arm) = p.arm {
                ir.remove_block(arm);
            }
        }
        preds[join] -= 1;
        converted += 1;
        // J reached from H alone: one block.
        if preds[join] == 1 && Some(join) != entry && join != h {
            let jargs = ir.blocks[join].args.clone();
            for (&a, &v) in jargs.iter().zip(&args) {
                super::replace_uses(ir, &mut users, a, v);
            }
            ir.remove_op(br);
            let ops: Vec<Op> = ir.block_ops(join).collect();
            for op in ops {
                ir.move_op_to_end(op, h);
            }
            ir.remove_block(join);
        }
    }
    converted
}

/// The two paths of `term` (ending H) if they meet at one block J as a diamond or triangle
/// with small speculable arms.
fn shape(
    ir: &Ir,
    preds: &SecondaryMap<Block, u32>,
    h: Block,
    term: Op,
) -> Option<(Path, Path, Block)> {
    let path = |succ: usize| -> (Path, Block) {
        let target = ir.ops[term].succs[succ].block;
        let direct = (
            Path {
                arm: None,
                term,
                succ,
            },
            target,
        );
        if target == h || preds[target] != 1 {
            return direct;
        }
        let Some(t) = ir.terminator(target) else {
            return direct;
        };
        if ir.opcode(t) != Opcode::Br {
            return direct;
        }
        let body: Vec<Op> = ir.block_ops(target).filter(|&o| o != t).collect();
        if body.len() > ARM_BUDGET || !body.iter().all(|&o| legality::can_speculate(ir, o)) {
            return direct;
        }
        (
            Path {
                arm: Some(target),
                term: t,
                succ: 0,
            },
            ir.ops[t].succs[0].block,
        )
    };
    // A diamond (two arms), a triangle (one arm leading to the other successor, which is
    // J itself) or two edges into one block: both paths end at the same block. (An arm has
    // one predecessor, so it is never also the other path's J.)
    let ((then, j0), (els, j1)) = (path(0), path(1));
    let join = j0;
    if j1 != join || join == h {
        return None;
    }
    Some((then, els, join))
}
