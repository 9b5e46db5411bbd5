//! IR-to-IR transforms.
//!
//! - [`canonicalize`], [`dce`]: CFG form -> CFG form, the optimizer's clean-up passes
//!   (constant folding and identities; dead ops, arguments and blocks).
//! - [`insert_tokens`]: structured form -> structured form; makes convergence explicit by
//!   giving every structured kernel without tokens an entry token, a loop heart per real loop,
//!   and a token operand on every convergent op (what clang does for HLSL).
//! - [`lower_to_cf`]: structured form -> CFG form (`cf.br` / `cf.cond_br` between blocks with
//!   arguments), building SSA for the mutable variables on the fly (Braun et al. 2013).
//! - [`make_structurizable`]: CFG form -> CFG form ready for a structurizer, as LLVM's
//!   fix-irreducible and unify-loop-exits do before structurizecfg:
//!   - [`fix_irreducible`]: every cycle gets a single entry (a guard header that dispatches
//!     to the former entries);
//!   - [`unify_loop_exits`]: every natural loop gets a single exit block (a guard that
//!     dispatches to the former exits).

pub mod canonicalize;
pub mod closed_form_loops;
mod control_flow_hub;
pub mod cse;
pub mod dce;
pub mod factor_reductions;
pub mod fix_irreducible;
pub mod if_convert;
pub mod insert_tokens;
pub mod legality;
pub mod licm;
pub mod lower_to_cf;
pub mod merge_returns;
pub mod simt_repair;
pub mod sink;
pub mod sink_common;
pub mod unify_loop_exits;

pub use canonicalize::canonicalize;
pub use closed_form_loops::closed_form_loops;
pub use cse::cse;
pub use dce::dce;
pub use factor_reductions::factor_reductions;
pub use fix_irreducible::fix_irreducible;
pub use if_convert::if_convert;
pub use insert_tokens::insert_tokens;
pub use licm::licm;
pub use lower_to_cf::lower_to_cf;
pub use merge_returns::merge_returns;
pub use simt_repair::simt_repair;
pub use sink::sink;
pub use sink_common::sink_common;
pub use unify_loop_exits::unify_loop_exits;

use crate::analysis::{CycleInfo, RegionCfg};
use crate::entities::{Op, Value};
use crate::ir::{Ir, OpList};
use cranelift_entity::SecondaryMap;

/// Runs a per-kernel transform on every CF kernel (structured kernels are left alone);
/// returns the sum of what it reports (ops changed).
pub(crate) fn each_cf_kernel(ir: &mut Ir, mut f: impl FnMut(&mut Ir, Op) -> usize) -> usize {
    let mut n = 0;
    for func in ir.kernels() {
        if ir.is_cf_kernel(func) {
            n += f(ir, func);
        }
    }
    n
}

/// The other operand of binary op `op` when exactly one of its operands is `v`.
pub(crate) fn other_operand(ir: &Ir, op: Op, v: Value) -> Option<Value> {
    let o = &ir.ops[op].operands;
    match (o[0] == v, o[1] == v) {
        (true, false) => Some(o[1]),
        (false, true) => Some(o[0]),
        _ => None,
    }
}

/// Use lists a transform keeps up to date as it rewrites (`Ir::users`, then edits).
pub(crate) type Users = SecondaryMap<Value, OpList>;

/// Replaces every use of `old` by `new` through the use list (linear in the uses of `old`);
/// the users move to `new`'s list. Users unlinked meanwhile are rewritten harmlessly.
pub(crate) fn replace_uses(ir: &mut Ir, users: &mut Users, old: Value, new: Value) {
    let uses = std::mem::take(&mut users[old]);
    for &u in &uses {
        for v in ir.uses_mut(u).filter(|v| **v == old) {
            *v = new;
        }
    }
    users[new].extend(uses);
}

/// Runs [`fix_irreducible`] then [`unify_loop_exits`] on every kernel, then checks their
/// post-conditions: every cycle has one entry, and every natural loop one exit block, which
/// only the loop enters if several of its blocks exit, besides the exits into the live region
/// of a convergence token defined in the loop (which threads run in the iteration they leave
/// from, so they stay direct exits). Every kernel must be in CF form
/// ([`Ir::is_cf_kernel`]) and verify. `Err` names the kernel and the loop the passes had to
/// leave alone (a convergence token defined in a loop and used after it that would have to
/// cross the exit guard); the IR is then transformed as far as possible and still verifies.
pub fn make_structurizable(ir: &mut Ir) -> Result<(), String> {
    for func in ir.kernels() {
        let name = ir.func_name(func).to_string();
        if !ir.is_cf_kernel(func) {
            return Err(format!("kernel @{name} is not in CF form"));
        }
        fix_irreducible(ir, func);
        unify_loop_exits(ir, func);
        check_structurizable(ir, func).map_err(|e| format!("kernel @{name}: {e}"))?;
    }
    Ok(())
}

/// The post-conditions of [`make_structurizable`] on one CF kernel.
fn check_structurizable(ir: &Ir, func: Op) -> Result<(), String> {
    let cfg = RegionCfg::compute(ir, ir.ops[func].regions[0]);
    let info = CycleInfo::compute(&cfg);
    let block = |n: u32| {
        let b = cfg.blocks[n as usize];
        let name = ir.blocks[b].name.clone();
        format!("^{}", name.unwrap_or_else(|| format!("bb{n}")))
    };
    let all_exits = info.all_exit_blocks(&cfg);
    let users = ir.users(func);
    for (i, cycle) in info.cycles.iter().enumerate() {
        let header = block(cycle.header());
        if !cycle.is_reducible() {
            return Err(format!(
                "the cycle with header {header} is still irreducible"
            ));
        }
        let c = crate::analysis::CycleId(i as u32);
        // Exits into the live region of a token defined in the loop stay direct exits.
        let direct = unify_loop_exits::token_live_exits(ir, &cfg, &info, c, &users);
        let exits: Vec<u32> = all_exits[i]
            .iter()
            .copied()
            .filter(|e| !direct.contains(e))
            .collect();
        let exiting = info
            .blocks(c)
            .into_iter()
            .filter(|&b| {
                cfg.succs[b as usize]
                    .iter()
                    .any(|&s| !info.contains(c, s) && !direct.contains(&s))
            })
            .count();
        let dedicated = || {
            exits
                .iter()
                .all(|&e| cfg.preds[e as usize].iter().all(|&p| info.contains(c, p)))
        };
        if exits.len() > 1 || (exits.len() == 1 && exiting > 1 && !dedicated()) {
            return Err(format!(
                "the loop with header {header} still has {} exit block(s) reached from \
                 several exiting blocks (a convergence token defined in the loop and used \
                 after it cannot be carried through an exit guard)",
                exits.len()
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod structurizable_tests;
#[cfg(test)]
mod tests;
