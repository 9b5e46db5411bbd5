//! Which ops the optimizer may move, merge, remove or execute speculatively: the one place
//! `canonicalize`, `cse`, `licm` and `dce` ask, from the registry's traits.
//!
//! Today every transform moves or merges only *free* ops: pure (`PURE`: the result depends
//! on the operands alone, no memory, no side effect), neither convergent nor co-convergent,
//! without regions, and not defining a convergence token. Such an op computes the same value
//! wherever and with whichever threads it runs, so seed 004's rules do not restrict it. (No
//! op of the registry is both pure and convergent; the convergence clauses keep it so if one
//! is added.) Cross-lane ops, memory ops, barriers and token ops are never touched; the
//! `can_move` / `can_merge` rules for them (seed 004) belong here when a transform needs them.

use crate::entities::Op;
use crate::ir::Ir;
use crate::registry::{Opcode, Traits};
use crate::types::Type;

/// May `op` be moved, merged with an equal op, or removed when unused (see the module docs)?
pub fn is_free(ir: &Ir, op: Op) -> bool {
    let data = &ir.ops[op];
    let traits = ir.spec(op).traits;
    traits.contains(Traits::PURE)
        && !traits.contains(Traits::CONVERGENT)
        && !traits.contains(Traits::CO_CONVERGENT)
        && data.regions.is_empty()
        && data.succs.is_empty()
        && data
            .results
            .iter()
            .all(|&r| ir.value_type(r) != Type::Token)
}

/// May `op` run where it did not (out of a condition, or before a loop that may run zero
/// times)? Free ops, except integer division and remainder by anything but a constant other
/// than 0 and -1 (which can fault or overflow).
pub fn can_speculate(ir: &Ir, op: Op) -> bool {
    use Opcode::*;
    if !is_free(ir, op) {
        return false;
    }
    let data = &ir.ops[op];
    match data.opcode {
        DivSI | DivUI | RemSI | RemUI => {
            matches!(ir.int_constant(data.operands[1]), Some(d) if d != 0 && d != -1)
        }
        _ => true,
    }
}
