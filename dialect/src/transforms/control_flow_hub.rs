//! The control-flow hub shared by `fix_irreducible` and `unify_loop_exits`: a guard block that
//! redirected edges enter and that dispatches to their original targets on a selector (LLVM's
//! ControlFlowHub), and the constants and placeholders its edges pass.
//!
//! Guarantees: the guard's dispatch sends each redirected edge to its original target with
//! its original arguments; the constants and placeholders are defined in the kernel's entry
//! block, so they dominate every edge that passes them.

use crate::analysis::DomTree;
use crate::attrs::Attr;
use crate::entities::{Block, Op, Value};
use crate::ir::{Ir, Successor};
use crate::location::Loc;
use crate::registry::Opcode;
use crate::types::{AddrSpace, Scalar, Type};
use rustc_hash::FxHashMap as HashMap;
use std::collections::hash_map::Entry;

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
            args: args.into(),
        };
    }
}

/// A value a hub carries past it in an extra argument: defined in CFG node `def`, read by
/// `uses` after the hub (which the hub's argument reaches while the definition may not).
pub(super) struct Carried {
    pub value: Value,
    pub def: u32,
    pub uses: Vec<Op>,
}

impl Carried {
    /// The hub's extra arguments for `carried`: each value's type and name `<name>.<suffix>`.
    pub fn extra(ir: &Ir, carried: &[Carried], suffix: &str) -> Vec<(Type, Option<String>)> {
        carried
            .iter()
            .map(|c| {
                let name = ir.value_name(c.value).map(|n| format!("{n}.{suffix}"));
                (ir.value_type(c.value), name)
            })
            .collect()
    }

    /// What an edge from CFG node `from` passes for `carried`: a value whose definition
    /// dominates `from`, else the placeholder of its type (that path reads no original use).
    pub fn passed(
        ir: &Ir,
        carried: &[Carried],
        dom: &DomTree,
        from: u32,
        placeholders: &HashMap<Type, Value>,
    ) -> Vec<Value> {
        carried
            .iter()
            .map(|c| {
                if dom.dominates(c.def, from) {
                    c.value
                } else {
                    placeholders[&ir.value_type(c.value)]
                }
            })
            .collect()
    }

    /// Makes every use of each carried value read the hub's argument for it instead.
    pub fn read_from(ir: &mut Ir, carried: &[Carried], hub: &Hub) {
        for (c, &arg) in carried.iter().zip(&hub.extra) {
            for &w in &c.uses {
                for v in ir.uses_mut(w).filter(|v| **v == c.value) {
                    *v = arg;
                }
            }
        }
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
            ints: HashMap::default(),
            float_zero: None,
            ptrs: HashMap::default(),
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
        let mut out = HashMap::default();
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
