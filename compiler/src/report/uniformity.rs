//! `--emit=uniformity`: the CF IR with every value, block argument and branch marked.
//!
//! Each kernel is preceded by a summary in comments (cycles, cycles assumed divergent,
//! cycles with a divergent exit, temporal divergence), in the spirit of LLVM's
//! `print<uniformity>`; every op with results gets `// uniform` or `// divergent`, every
//! `cf.cond_br` `// uniform branch` or `// divergent branch` with its joins, and every block
//! with arguments the verdict of each. The output is still valid IR.
//!
//! Cost: linear in the module plus the summary's cycle lists (each cycle lists its blocks):
//! every kernel is named once (the temporal-divergence lines print their user op with those
//! names; `text::print_op` would name the whole kernel again per line, which made the report
//! quadratic: 300 s on the 6,400-statement mixed kernel of `tests/gen/large.rs`), and an op finds its kernel's names in O(1).

use kc_dialect::analysis::cycles::CycleId;
use kc_dialect::analysis::uniformity::Uniformity;
use kc_dialect::entities::Op;
use kc_dialect::ir::Ir;
use kc_dialect::registry::Opcode;
use kc_dialect::text::{self, Annot, Names, PrintOptions};
use std::collections::HashMap;

/// Results for every kernel of a module, in order.
pub struct ModuleUniformity {
    pub kernels: Vec<Uniformity>,
}

impl ModuleUniformity {
    /// Analyses every kernel (all must be in CF form).
    pub fn compute(ir: &Ir) -> Result<ModuleUniformity, String> {
        let mut kernels = Vec::new();
        for k in ir.kernels() {
            let u = Uniformity::compute(ir, k)
                .map_err(|_| format!("kernel @{} is not in CF form", ir.func_name(k)))?;
            kernels.push(u);
        }
        Ok(ModuleUniformity { kernels })
    }

    pub fn of(&self, func: Op) -> Option<&Uniformity> {
        self.kernels.iter().find(|u| u.func == func)
    }
}

/// `depth=1: entries(^a ^b) ^c` with printed block names.
pub fn cycle_text(u: &Uniformity, names: &Names, c: CycleId) -> String {
    let cy = u.cycles.cycle(c);
    let name = |n: u32| format!("^{}", names.blocks[u.cfg.blocks[n as usize]]);
    let entries: Vec<String> = cy.entries.iter().map(|&b| name(b)).collect();
    let mut rest: Vec<u32> = u
        .cycles
        .blocks(c)
        .into_iter()
        .filter(|b| !cy.entries.contains(b))
        .collect();
    rest.sort_by_key(|&b| u.cycles.preorder_index[b as usize]);
    let mut s = format!("depth={}: entries({})", cy.depth, entries.join(" "));
    for b in rest {
        s.push(' ');
        s.push_str(&name(b));
    }
    s
}

/// The annotated listing.
pub fn annotated(ir: &Ir, mu: &ModuleUniformity, opts: &PrintOptions) -> String {
    let mut summary = String::new();
    for u in &mu.kernels {
        summary.push_str(&kernel_summary(ir, u));
    }
    // Each kernel's analysis and names, found from an op in O(1) (not a search per op).
    let all_names: Vec<Names> = mu.kernels.iter().map(|u| text::names(ir, u.func)).collect();
    let index: HashMap<Op, usize> = mu
        .kernels
        .iter()
        .enumerate()
        .map(|(i, u)| (u.func, i))
        .collect();
    let annotate = |a: Annot| -> Option<String> {
        let func = match a {
            Annot::Op(op) => enclosing_kernel(ir, op)?,
            Annot::Block(b) => enclosing_kernel(ir, ir.region_parent(ir.block_region(b)?)?)?,
        };
        let i = *index.get(&func)?;
        let (u, names) = (&mu.kernels[i], &all_names[i]);
        match a {
            Annot::Op(op) => op_annotation(ir, u, names, op),
            Annot::Block(b) => {
                let mut parts = Vec::new();
                let args = &ir.blocks[b].args;
                if !args.is_empty() {
                    let v: Vec<String> = args
                        .iter()
                        .map(|&a| {
                            format!(
                                "%{} {}",
                                names.values[a],
                                if u.is_divergent(a) {
                                    "divergent"
                                } else {
                                    "uniform"
                                }
                            )
                        })
                        .collect();
                    parts.push(v.join(", "));
                }
                for j in u.joins_at(b) {
                    let from = ir
                        .op_block(j.branch)
                        .map(|fb| names.blocks[fb].clone())
                        .unwrap_or_default();
                    parts.push(if j.is_exit {
                        format!("divergent exit of the branch in ^{from}")
                    } else {
                        format!("join of the divergent branch in ^{from}")
                    });
                }
                (!parts.is_empty()).then(|| parts.join("; "))
            }
        }
    };
    let popts = PrintOptions {
        annotate: Some(&annotate),
        ..*opts
    };
    summary + &text::print(ir, &popts)
}

fn enclosing_kernel(ir: &Ir, mut op: Op) -> Option<Op> {
    loop {
        if ir.opcode(op) == Opcode::Func {
            return Some(op);
        }
        op = ir.parent_op(op)?;
    }
}

fn op_annotation(ir: &Ir, u: &Uniformity, names: &Names, op: Op) -> Option<String> {
    let data = &ir.ops[op];
    if ir.opcode(op) == Opcode::CondBr {
        if !u.is_divergent_branch(op) {
            return Some("uniform branch".into());
        }
        let mut s = String::from("divergent branch");
        let joins: Vec<String> = u
            .joins_of(op)
            .filter(|j| !j.is_exit)
            .map(|j| format!("^{}", names.blocks[j.block]))
            .collect();
        let exits: Vec<String> = u
            .joins_of(op)
            .filter(|j| j.is_exit)
            .map(|j| format!("^{}", names.blocks[j.block]))
            .collect();
        if !joins.is_empty() {
            s.push_str(&format!("; joins: {}", joins.join(" ")));
        }
        if !exits.is_empty() {
            s.push_str(&format!("; divergent exits: {}", exits.join(" ")));
        }
        return Some(s);
    }
    if data.results.is_empty() || ir.opcode(op) == Opcode::Func {
        return None;
    }
    let div: Vec<_> = data
        .results
        .iter()
        .filter(|&&r| u.is_divergent(r))
        .collect();
    if ir.value_type(data.results[0]) == kc_dialect::types::Type::Token {
        return None;
    }
    Some(
        if div.is_empty() {
            "uniform"
        } else {
            "divergent"
        }
        .into(),
    )
}

fn kernel_summary(ir: &Ir, u: &Uniformity) -> String {
    let names = text::names(ir, u.func);
    let mut s = format!("// uniformity of @{}:\n", ir.func_name(u.func));
    let values: usize = u
        .cfg
        .blocks
        .iter()
        .map(|&b| {
            ir.blocks[b]
                .args
                .iter()
                .filter(|&&a| u.is_divergent(a))
                .count()
                + ir.block_ops(b)
                    .flat_map(|o| ir.ops[o].results.iter())
                    .filter(|&&r| u.is_divergent(r))
                    .count()
        })
        .sum();
    let branches = u
        .cfg
        .blocks
        .iter()
        .filter_map(|&b| ir.terminator(b))
        .filter(|&t| u.is_divergent_branch(t))
        .count();
    s.push_str(&format!(
        "//   {values} divergent values, {branches} divergent branches\n"
    ));
    let mut list = |title: &str, cs: &[CycleId]| {
        if !cs.is_empty() {
            s.push_str(&format!("//   {title}:\n"));
            for &c in cs {
                s.push_str(&format!("//     {}\n", cycle_text(u, &names, c)));
            }
        }
    };
    let all: Vec<CycleId> = {
        let mut v = Vec::new();
        let mut stack: Vec<CycleId> = u.cycles.top_level.iter().rev().copied().collect();
        while let Some(c) = stack.pop() {
            v.push(c);
            stack.extend(u.cycles.cycle(c).children.iter().rev().copied());
        }
        v
    };
    list("cycles", &all);
    list("cycles assumed divergent", &u.assumed_divergent);
    list("cycles with divergent exit", &u.divergent_exit_cycles);
    if !u.temporal.is_empty() {
        s.push_str("//   temporal divergence:\n");
        let popts = PrintOptions {
            locations: false,
            ..PrintOptions::default()
        };
        for t in &u.temporal {
            let user = text::print_op_named(ir, t.user, &popts, &names);
            s.push_str(&format!(
                "//     %{} used outside cycle {} by: {}\n",
                names.values[t.value],
                cycle_text(u, &names, t.cycle),
                user.lines().next().unwrap_or("").trim()
            ));
        }
    }
    s
}
