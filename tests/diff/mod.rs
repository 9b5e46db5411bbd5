//! Differential testing of kc's uniformity analysis against LLVM 22's.
//!
//! [`compare_kernel`] puts kc's verdicts on a CF kernel ([`Uniformity`]) next to LLVM's on the
//! LLVM IR `emit_llvm` made of it ([`llvm::FuncVerdicts`], parsed from `opt-22
//! -passes='print<uniformity>'`), value by value under the names [`llvm_names`] gives, and
//! branch by branch (every `cf.cond_br` against the terminator of the LLVM block with the same
//! label). Values LLVM folds into constants ([`is_folded`]) and tokens are skipped; values the
//! translation adds (`%x.gep`, split blocks) have no kc counterpart and are not looked at.
//!
//! Disagreements are then explained ([`classify`]) or left unexplained (a failure).

pub mod classify;
pub mod llvm;

use kc_compiler::target::{is_folded, llvm_names, LlvmNames};
use kc_dialect::analysis::Uniformity;
use kc_dialect::{Ir, Op, Opcode, Type, Value};

/// A compared item: a kc value or a kc `cf.cond_br`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    Value(Value),
    Branch(Op),
}

/// One disagreement.
#[derive(Clone, Debug)]
pub struct Mismatch {
    pub item: Item,
    /// The LLVM name of the value, or the label of the branch's block.
    pub name: String,
    /// kc's verdict (LLVM's is the opposite).
    pub kc_divergent: bool,
    /// The explanation, if one applies.
    pub class: Option<classify::Class>,
    /// The item shows the explained pattern itself (rather than following from other
    /// explained mismatches).
    pub root: bool,
}

/// The comparison of one kernel.
pub struct KernelDiff {
    pub func: Op,
    pub name: String,
    pub u: Uniformity,
    pub names: LlvmNames,
    pub values_compared: usize,
    pub branches_compared: usize,
    pub values_agreeing: usize,
    pub branches_agreeing: usize,
    /// kc values (not folded, not tokens) that LLVM did not list under their name.
    pub no_counterpart: Vec<String>,
    pub mismatches: Vec<Mismatch>,
    /// For a kernel with irreducible cycles: the same comparison with kc run on LLVM's DFS
    /// order (successors last to first, as LLVM's cycle analysis visits them), so both
    /// analyses pick the same cycle headers; its mismatches must be explained without
    /// [`classify::Class::CycleHierarchy`].
    pub llvm_order: Option<Box<KernelDiff>>,
}

impl KernelDiff {
    pub fn unexplained(&self) -> impl Iterator<Item = &Mismatch> {
        self.mismatches.iter().filter(|m| m.class.is_none())
    }
}

/// Every value of a CF kernel (block arguments, op results), in layout order.
pub fn kernel_values(ir: &Ir, u: &Uniformity) -> Vec<Value> {
    let mut out = Vec::new();
    for &b in &u.cfg.blocks {
        out.extend_from_slice(&ir.blocks[b].args);
        for o in ir.block_ops(b) {
            out.extend_from_slice(&ir.ops[o].results);
        }
    }
    out
}

/// Compares kc's and LLVM's verdicts on kernel `func` of `ir` (CF form).
pub fn compare_kernel(ir: &Ir, func: Op, llvm: &llvm::FuncVerdicts) -> KernelDiff {
    let u = Uniformity::compute(ir, func).expect("CF-form kernel");
    let irreducible = u.cycles.cycles.iter().any(|c| !c.is_reducible());
    let llvm_order = irreducible.then(|| {
        let mut cfg = u.cfg.clone();
        for s in cfg.succs.iter_mut() {
            s.reverse();
        }
        let alt = Uniformity::compute_with_cfg(ir, func, cfg).expect("CF-form kernel");
        let mut d = compare_with(ir, func, alt, llvm);
        classify::classify(ir, &mut d, llvm, None);
        Box::new(d)
    });
    let mut d = compare_with(ir, func, u, llvm);
    classify::classify(ir, &mut d, llvm, llvm_order.as_ref().map(|a| &a.u));
    d.llvm_order = llvm_order;
    d
}

/// The raw comparison of verdicts `u` with LLVM's (mismatches not yet classified).
pub fn compare_with(ir: &Ir, func: Op, u: Uniformity, llvm: &llvm::FuncVerdicts) -> KernelDiff {
    let names = llvm_names(ir, func);
    let mut d = KernelDiff {
        func,
        name: ir.func_name(func).to_string(),
        values_compared: 0,
        branches_compared: 0,
        values_agreeing: 0,
        branches_agreeing: 0,
        no_counterpart: Vec::new(),
        mismatches: Vec::new(),
        llvm_order: None,
        u,
        names,
    };
    let params =
        d.u.cfg
            .blocks
            .first()
            .map(|&b| ir.blocks[b].args.clone())
            .unwrap_or_default();
    for v in kernel_values(ir, &d.u) {
        if ir.value_type(v) == Type::Token || is_folded(ir, v) {
            continue;
        }
        let name = &d.names.values[v];
        let found = if params.contains(&v) {
            Some(llvm.argument(name))
        } else {
            llvm.value(name)
        };
        let Some(ll) = found else {
            d.no_counterpart.push(name.clone());
            continue;
        };
        d.values_compared += 1;
        let kc = d.u.is_divergent(v);
        if kc == ll {
            d.values_agreeing += 1;
        } else {
            d.mismatches.push(Mismatch {
                item: Item::Value(v),
                name: name.clone(),
                kc_divergent: kc,
                class: None,
                root: false,
            });
        }
    }
    for &b in &d.u.cfg.blocks {
        let Some(t) = ir.terminator(b) else { continue };
        if ir.opcode(t) != Opcode::CondBr {
            continue;
        }
        let label = &d.names.blocks[b];
        let Some(ll) = llvm.terminator(label) else {
            d.no_counterpart.push(format!("terminator of {label}"));
            continue;
        };
        d.branches_compared += 1;
        let kc = d.u.is_divergent_branch(t);
        if kc == ll {
            d.branches_agreeing += 1;
        } else {
            d.mismatches.push(Mismatch {
                item: Item::Branch(t),
                name: label.clone(),
                kc_divergent: kc,
                class: None,
                root: false,
            });
        }
    }
    d
}
