//! Fix irreducible control flow: every cycle with several entries gets one guard header.
//!
//! **Pre-condition**: `func` is a CF kernel ([`Ir::is_cf_kernel`]) that passes
//! [`verify`](crate::verify::verify). Other kernels are left alone (the pass returns 0).
//!
//! **Post-condition**: every cycle of the kernel's CFG ([`CycleInfo`]) has exactly one entry;
//! the kernel still verifies, and every thread takes the same path through the original blocks
//! with the same block arguments (guard blocks are inserted between them, nothing else moves).
//! The only exception: a cycle needing a placeholder of a pointer type that no value in the
//! kernel has is left as it is (impossible for reachable cycles of verified IR: every pointer
//! value comes from a kernel parameter or a `kernel.shared_alloc` of its type).
//!
//! **Transformation** (LLVM's FixIrreducible, with block arguments for PHIs): for an
//! irreducible cycle with entries `E0..Ek`, a new block `irr.guard` takes an `i32` selector
//! followed by the arguments of every entry, in order. Every edge into an entry, from outside
//! the cycle or from inside it, is redirected to the guard with the selector set to the index of
//! its original target, its own arguments in that target's slots and placeholders elsewhere;
//! the guard dispatches with a chain of `cf.cond_br` on `arith.cmpi eq` of the selector. All
//! edges into the entries now come from the guard, so it is the cycle's only entry: its header.
//! Cycles are fixed outermost first; fixing one can leave irreducible cycles nested in it
//! (nested cycles are recomputed), so the pass repeats until the CFG is reducible.
//!
//! **Why SSA needs no repair**: a new path that reached a use in block U while avoiding the
//! definition's block D would give an old one. Before its first guard visit a new path is an
//! old path, and after its last one it follows old edges from some entry E. If D is outside
//! the cycle: old path = the new path up to the predecessor P that first entered the guard,
//! P's own old edge into the cycle, a path inside the cycle (strongly connected, so it avoids
//! D) to E, then the new path's tail. If D is inside it: old path = a path to E that stays
//! outside the cycle until E (E is an entry), then the tail. Either way D did not dominate U
//! before. So every old use stays dominated (tokens included: they never cross a guard, as
//! they cannot be block arguments); new uses read guard arguments and constants or
//! placeholders of the kernel's entry block, which dominates everything.
//!
//! **Cost**: one round per nesting level of irreducible cycles, each linear in the kernel
//! (CFG, cycle forest, and the redirected edges with their arguments), so
//! O((ops + edges) x irreducible nesting depth): a cycle nested in an irreducible one is only
//! known once the outer one has its guard.

use super::control_flow_hub::{Consts, Edge, Hub, HubNames};
use crate::analysis::{CycleId, CycleInfo, RegionCfg};
use crate::entities::{Block, Op};
use crate::ir::Ir;
use crate::location::Loc;
use crate::types::Type;

/// Gives every irreducible cycle of `func` a guard header (see the module docs). Returns the
/// number of cycles fixed.
pub fn fix_irreducible(ir: &mut Ir, func: Op) -> usize {
    if !ir.is_cf_kernel(func) {
        return 0;
    }
    let region = ir.ops[func].regions[0];
    let mut consts = Consts::new(ir, func);
    let mut fixed = 0;
    loop {
        let cfg = RegionCfg::compute(ir, region);
        let info = CycleInfo::compute(&cfg);
        let mut round = 0;
        for c in outermost_irreducible(&info) {
            if fix_cycle(ir, func, &cfg, &info, c, &mut consts) {
                round += 1;
            }
        }
        if round == 0 {
            return fixed;
        }
        fixed += round;
    }
}

/// The irreducible cycles not nested in another irreducible cycle, in forest preorder. They
/// are disjoint, and fixing one leaves the others' blocks and entries as they are.
fn outermost_irreducible(info: &CycleInfo) -> Vec<CycleId> {
    let mut out = Vec::new();
    let mut stack: Vec<CycleId> = info.top_level.iter().rev().copied().collect();
    while let Some(c) = stack.pop() {
        let cycle = info.cycle(c);
        if cycle.is_reducible() {
            stack.extend(cycle.children.iter().rev().copied());
        } else {
            out.push(c);
        }
    }
    out
}

/// Redirects every edge into an entry of cycle `c` through a new guard. Returns false if a
/// placeholder is missing (the CFG is then unchanged).
fn fix_cycle(
    ir: &mut Ir,
    func: Op,
    cfg: &RegionCfg,
    info: &CycleInfo,
    c: CycleId,
    consts: &mut Consts,
) -> bool {
    let entry_nodes = &info.cycle(c).entries;
    let entries: Vec<Block> = entry_nodes
        .iter()
        .map(|&n| cfg.blocks[n as usize])
        .collect();
    // Every edge into an entry, unreachable predecessors included: afterwards the guard is
    // the entries' only predecessor.
    let mut edges = Vec::new();
    for (j, (&n, &e)) in entry_nodes.iter().zip(&entries).enumerate() {
        for &p in &cfg.preds[n as usize] {
            let term = ir.terminator(cfg.blocks[p as usize]).expect("CF block");
            for (s, succ) in ir.ops[term].succs.iter().enumerate() {
                if succ.block == e {
                    edges.push((Edge { term, succ: s }, j));
                }
            }
        }
    }
    let slot_types = entries
        .iter()
        .flat_map(|&e| ir.blocks[e].args.iter().map(|&a| ir.value_type(a)));
    let slot_types: Vec<Type> = slot_types.collect();
    let Some(placeholders) = consts.placeholders(ir, func, &slot_types) else {
        return false;
    };
    // Laid out right before the first entry (never the kernel's entry block: no predecessors).
    let first = *entry_nodes.iter().min().expect("a cycle has an entry");
    let after = cfg.blocks[first as usize - 1];
    let loc = edges
        .first()
        .map_or(Loc::UNKNOWN, |(e, _)| ir.ops[e.term].loc);
    let names = HubNames {
        block: "irr.guard",
        selector: "irr.sel",
        slot_suffix: "irr",
    };
    let hub = Hub::build(ir, consts, &names, &entries, &[], after, loc);
    for (edge, j) in edges {
        hub.redirect(ir, consts, &placeholders, edge, j, Vec::new());
    }
    true
}

// ---- shared with unify_loop_exits: guards and the values they pass ----
