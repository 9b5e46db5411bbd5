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

use crate::analysis::{CycleId, CycleInfo, RegionCfg};
use crate::attrs::Attr;
use crate::entities::{Block, Op, Value};
use crate::ir::{Ir, Successor};
use crate::location::Loc;
use crate::registry::Opcode;
use crate::types::{AddrSpace, Scalar, Type};
use std::collections::{hash_map::Entry, HashMap};

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

/// A CFG edge: successor `succ` of terminator `term`.
#[derive(Copy, Clone, Debug)]
pub(super) struct Edge {
    pub term: Op,
    pub succ: usize,
}

/// Names of a hub's blocks and arguments (the printer makes them unique).
pub(super) struct HubNames {
    pub block: &'static str,
    pub selector: &'static str,
    /// Suffix of the slot arguments: `%x.irr` carries a target's `%x`, so that the printer
    /// keeps the original names for the original values.
    pub slot_suffix: &'static str,
}

/// A guard that redirected edges enter and that dispatches to their original targets on a
/// selector: LLVM's ControlFlowHub, with an `i32` selector and block arguments for PHIs.
///
/// The guard's arguments are the selector (only with two targets or more), then every target's
/// arguments in target order (its *slot*), then extra values the caller carries past the hub.
/// The dispatch is a chain `sel == 0 ? T0 : (sel == 1 ? T1 : ... Tk)` of `cf.cond_br`s in
/// blocks laid out after the guard; each passes its target its slot.
pub(super) struct Hub {
    pub guard: Block,
    selector: Option<Value>,
    slots: Vec<Vec<Value>>,
    /// The guard arguments carrying the extra values.
    pub extra: Vec<Value>,
    /// The dispatch blocks after the guard (for the caller's bookkeeping of predecessors).
    pub dispatch: Vec<(Block, Vec<Block>)>,
}

impl Hub {
    /// Creates the guard and its dispatch chain to `targets`, laid out after `after`, with
    /// extra arguments of the given types and names. Nothing branches to it yet.
    pub fn build(
        ir: &mut Ir,
        consts: &mut Consts,
        names: &HubNames,
        targets: &[Block],
        extra: &[(Type, Option<String>)],
        after: Block,
        loc: Loc,
    ) -> Hub {
        let guard = ir.create_block();
        ir.blocks[guard].name = Some(names.block.to_string());
        ir.insert_block_after(guard, after);
        let selector = (targets.len() > 1)
            .then(|| ir.add_block_arg(guard, Type::I32, Some(names.selector.into()), loc));
        let mut slots = Vec::with_capacity(targets.len());
        for &t in targets {
            let mut slot = Vec::new();
            for a in ir.blocks[t].args.clone() {
                let (ty, aloc) = (ir.value_type(a), ir.values[a].loc);
                let name = ir.value_name(a).map(|n| slot_name(n, names.slot_suffix));
                slot.push(ir.add_block_arg(guard, ty, name, aloc));
            }
            slots.push(slot);
        }
        let extra = extra
            .iter()
            .map(|(ty, name)| ir.add_block_arg(guard, *ty, name.clone(), loc))
            .collect();
        let mut hub = Hub {
            guard,
            selector,
            slots,
            extra,
            dispatch: Vec::new(),
        };
        hub.build_dispatch(ir, consts, names, targets, loc);
        hub
    }

    fn build_dispatch(
        &mut self,
        ir: &mut Ir,
        consts: &mut Consts,
        names: &HubNames,
        targets: &[Block],
        loc: Loc,
    ) {
        let mut cur = self.guard;
        let last = targets.len() - 1;
        for (i, &t) in targets.iter().enumerate() {
            if i == last {
                // One target: a plain branch (with several, the chain ends in a cond_br).
                let br = ir.create_op(Opcode::Br, &[], &[], loc);
                ir.append_op(cur, br);
                ir.add_successor(br, t, &self.slots[i]);
                self.dispatch.push((cur, vec![t]));
                break;
            }
            let sel = self.selector.expect("several targets have a selector");
            let k = consts.int(ir, Type::I32, i as i64);
            let cmp = ir.create_op(Opcode::CmpI, &[sel, k], &[Type::I1], loc);
            ir.set_attr(cmp, "predicate", Attr::Int(0, Type::I64)); // eq
            ir.append_op(cur, cmp);
            let cond = ir.ops[cmp].results[0];
            let br = ir.create_op(Opcode::CondBr, &[cond], &[], loc);
            ir.append_op(cur, br);
            ir.add_successor(br, t, &self.slots[i]);
            if i + 1 == last {
                ir.add_successor(br, targets[last], &self.slots[last]);
                self.dispatch.push((cur, vec![t, targets[last]]));
                break;
            }
            let next = ir.create_block();
            ir.blocks[next].name = Some(names.block.to_string());
            ir.insert_block_after(next, cur);
            ir.add_successor(br, next, &[]);
            self.dispatch.push((cur, vec![t, next]));
            cur = next;
        }
    }

    /// Makes `edge`, whose original target is `targets[target]`, enter the guard instead,
    /// passing `extra` for the extra arguments and placeholders in the other targets' slots.
    pub fn redirect(
        &self,
        ir: &mut Ir,
        consts: &mut Consts,
        placeholders: &HashMap<Type, Value>,
        edge: Edge,
        target: usize,
        extra: Vec<Value>,
    ) {
        let old = std::mem::take(&mut ir.ops[edge.term].succs[edge.succ].args);
        let mut args = Vec::new();
        if self.selector.is_some() {
            args.push(consts.int(ir, Type::I32, target as i64));
        }
        for (i, slot) in self.slots.iter().enumerate() {
            if i == target {
                args.extend_from_slice(&old);
            } else {
                args.extend(slot.iter().map(|&v| placeholders[&ir.value_type(v)]));
            }
        }
        args.extend(extra);
        ir.ops[edge.term].succs[edge.succ] = Successor {
            block: self.guard,
            args,
        };
    }
}

/// Constants and placeholder values that guards pass, defined once in the kernel's entry block
/// (before its terminator) so that they dominate every edge. Constants already in the entry
/// block are reused.
pub(super) struct Consts {
    entry: Block,
    ints: HashMap<(Type, i64), Value>,
    float_zero: Option<Value>,
    ptrs: HashMap<Type, Option<Value>>,
}

impl Consts {
    pub fn new(ir: &Ir, func: Op) -> Consts {
        let entry = ir
            .entry_block(ir.ops[func].regions[0])
            .expect("a CF kernel has an entry block");
        let mut c = Consts {
            entry,
            ints: HashMap::new(),
            float_zero: None,
            ptrs: HashMap::new(),
        };
        // Reused only when unnamed or named as this would name it: a selector reading `%i`
        // (a source variable's initial 0) would be confusing.
        for op in ir.block_ops(entry) {
            if ir.opcode(op) != Opcode::Constant {
                continue;
            }
            let v = ir.ops[op].results[0];
            let name = ir.value_name(v);
            match ir.attr(op, "value") {
                Some(&Attr::Int(n, ty)) if name.is_none_or(|s| s == int_name(ty, n)) => {
                    c.ints.entry((ty, n)).or_insert(v);
                }
                Some(&Attr::Float(f)) if f.to_bits() == 0 && name.is_none_or(|s| s == "f0") => {
                    c.float_zero.get_or_insert(v);
                }
                _ => {}
            }
        }
        c
    }

    /// Links `op` at the end of the entry block, before its terminator.
    fn place(&self, ir: &mut Ir, op: Op) {
        let term = ir.terminator(self.entry).expect("CF block");
        ir.insert_op_before(op, term);
    }

    /// `arith.constant n : ty` (an integer type).
    pub fn int(&mut self, ir: &mut Ir, ty: Type, n: i64) -> Value {
        if let Some(&v) = self.ints.get(&(ty, n)) {
            return v;
        }
        let op = ir.create_op(Opcode::Constant, &[], &[ty], Loc::UNKNOWN);
        ir.set_attr(op, "value", Attr::Int(n, ty));
        self.place(ir, op);
        let v = ir.ops[op].results[0];
        ir.set_value_name(v, &int_name(ty, n));
        self.ints.insert((ty, n), v);
        v
    }

    /// A value of type `ty` that is never read, for an edge that has nothing to pass: zero for
    /// scalars (`false` for `i1`), for a pointer a kernel parameter or an entry-block value of
    /// its type, else a `kernel.shared_alloc` of its type moved into the entry block (it is a
    /// static allocation: where it runs does not change its address). `None` if there is none.
    pub fn placeholder(&mut self, ir: &mut Ir, func: Op, ty: Type) -> Option<Value> {
        match ty {
            Type::Scalar(Scalar::F32) => Some(self.float_zero(ir)),
            Type::Scalar(_) => Some(self.int(ir, ty, 0)),
            Type::Ptr(..) => {
                if let Some(&v) = self.ptrs.get(&ty) {
                    return v;
                }
                let v = self.find_pointer(ir, func, ty);
                self.ptrs.insert(ty, v);
                v
            }
            Type::Var(_) | Type::Token => None,
        }
    }

    /// Placeholders for all of `types`, or `None` if one is missing.
    pub fn placeholders(
        &mut self,
        ir: &mut Ir,
        func: Op,
        types: &[Type],
    ) -> Option<HashMap<Type, Value>> {
        let mut out = HashMap::new();
        for &ty in types {
            if let Entry::Vacant(slot) = out.entry(ty) {
                slot.insert(self.placeholder(ir, func, ty)?);
            }
        }
        Some(out)
    }

    fn float_zero(&mut self, ir: &mut Ir) -> Value {
        if let Some(v) = self.float_zero {
            return v;
        }
        let op = ir.create_op(Opcode::Constant, &[], &[Type::F32], Loc::UNKNOWN);
        ir.set_attr(op, "value", Attr::Float(0.0));
        self.place(ir, op);
        let v = ir.ops[op].results[0];
        ir.set_value_name(v, "f0");
        self.float_zero = Some(v);
        v
    }

    fn find_pointer(&self, ir: &mut Ir, func: Op, ty: Type) -> Option<Value> {
        let entry = self.entry;
        let results = ir
            .block_ops(entry)
            .flat_map(|o| ir.ops[o].results.iter().copied());
        let found = ir.blocks[entry]
            .args
            .iter()
            .copied()
            .chain(results)
            .find(|&v| ir.value_type(v) == ty);
        if found.is_some() {
            return found;
        }
        if !matches!(ty, Type::Ptr(AddrSpace::Shared, _)) {
            return None; // global pointers only come from kernel parameters
        }
        let mut alloc = None;
        ir.walk(func, &mut |o| {
            if alloc.is_none()
                && ir.opcode(o) == Opcode::SharedAlloc
                && ir.value_type(ir.ops[o].results[0]) == ty
            {
                alloc = Some(o);
            }
        });
        let op = alloc?;
        ir.remove_op(op);
        self.place(ir, op);
        Some(ir.ops[op].results[0])
    }
}

/// The name of a guard argument carrying a target's argument `name`. A name that already has
/// the suffix (an argument of an enclosing loop's guard) keeps it as it is: nested guards would
/// otherwise grow names by one suffix per level.
fn slot_name(name: &str, suffix: &str) -> String {
    match name.strip_suffix(suffix) {
        Some(rest) if rest.ends_with('.') => name.to_string(),
        _ => format!("{name}.{suffix}"),
    }
}

/// The name of a constant made by [`Consts`]: `c3`, `false`, `true`.
fn int_name(ty: Type, n: i64) -> String {
    match (ty, n) {
        (Type::Scalar(Scalar::I1), 0) => "false".to_string(),
        (Type::Scalar(Scalar::I1), _) => "true".to_string(),
        _ => format!("c{n}"),
    }
}
