//! `--emit=dot`: each kernel's CFG as a Graphviz `digraph`, with the uniformity facts drawn.
//!
//! Guarantees: one `digraph "@kernel"` per kernel, in module order, accepted by Graphviz's
//! `dot` (tested when `dot` is installed); node ids are the printed block names (quoted), so
//! they match the listing and the JSON. Deterministic: blocks, ops and edges in IR order,
//! clusters in cycle-forest preorder.
//!
//! Drawing conventions (also in the graph's label):
//! - a node per block, labelled with `^name(args)` and its ops as printed (no locations);
//!   divergent values, arguments and branches in red; an op that uses a value temporally
//!   divergently (outside its cycle after a divergent exit) in magenta, with a comment;
//! - a block ending in a divergent `cf.cond_br`: red bold border, its out-edges red and bold
//!   with the label `T divergent` / `F divergent`; uniform branches: plain `T` / `F` edges;
//! - a join block of a divergent branch: double border, light blue fill, tooltip
//!   `join of the divergent branch in ^b`; a divergent exit: double border, orange fill,
//!   tooltip `divergent exit of the branch in ^b`;
//! - a cycle: a cluster `cluster_cycleN` (N = preorder id, as in the JSON), nested for nested
//!   cycles, labelled with its `depth=...: entries(...)` text; irreducible cycles bold purple
//!   and labelled `irreducible`; cycles assumed divergent filled light red and labelled
//!   `assumed divergent`; cycles left through a divergent exit labelled `divergent exit`;
//! - back edges (from inside a cycle to its header) dashed;
//! - unreachable blocks dotted and grey.

use super::uniformity::ModuleUniformity;
use super::view::KernelView;
use kc_dialect::analysis::cycles::CycleId;
use kc_dialect::entities::{Block, Op};
use kc_dialect::ir::Ir;
use kc_dialect::registry::Opcode;
use kc_dialect::types::Type;
use std::fmt::Write;

/// Longest op line in a node label (longer ones end in `...`).
const MAX_LINE: usize = 72;

/// All kernels, one `digraph` each.
pub fn to_string(ir: &Ir, mu: &ModuleUniformity) -> String {
    let mut out = String::new();
    for u in &mu.kernels {
        kernel(&KernelView::new(ir, u), &mut out);
    }
    out
}

/// A DOT double-quoted string.
fn quote(s: &str) -> String {
    let mut q = String::with_capacity(s.len() + 2);
    q.push('"');
    for c in s.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            '\n' => q.push_str("\\n"),
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

/// Text inside an HTML-like label.
fn html(s: &str) -> String {
    let mut h = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => h.push_str("&amp;"),
            '<' => h.push_str("&lt;"),
            '>' => h.push_str("&gt;"),
            '"' => h.push_str("&quot;"),
            c => h.push(c),
        }
    }
    h
}

fn truncate(s: &str) -> String {
    if s.chars().count() <= MAX_LINE {
        s.to_string()
    } else {
        let t: String = s.chars().take(MAX_LINE - 3).collect();
        t + "..."
    }
}

fn kernel(kv: &KernelView, out: &mut String) {
    let u = kv.u;
    let _ = writeln!(
        out,
        "digraph {} {{",
        quote(&format!("@{}", kv.kernel_name()))
    );
    let legend = format!(
        "@{}\nred: divergent (values, branches); double border: join (blue) / divergent exit (orange)\nclusters: cycles; dashed edges: back edges",
        kv.kernel_name()
    );
    let _ = writeln!(
        out,
        "  graph [label={}, labelloc=t, labeljust=l, fontname=\"monospace\"];",
        quote(&legend)
    );
    out.push_str("  node [shape=box, fontname=\"monospace\", fontsize=10];\n");
    out.push_str("  edge [fontname=\"monospace\", fontsize=9];\n");
    // Blocks outside every cycle, then the cycle clusters (nested).
    for &b in kv.blocks() {
        if kv.innermost_cycle(b).is_none() {
            node(kv, b, "  ", out);
        }
    }
    // Clusters nest like the cycles: opened and closed from a stack, not by recursion.
    enum Step {
        Open(CycleId, usize),
        Close(usize),
    }
    let mut stack: Vec<Step> = u
        .cycles
        .top_level
        .iter()
        .rev()
        .map(|&c| Step::Open(c, 1))
        .collect();
    while let Some(step) = stack.pop() {
        match step {
            Step::Open(c, depth) => {
                cluster(kv, c, depth, out);
                stack.push(Step::Close(depth));
                for &child in u.cycles.cycle(c).children.iter().rev() {
                    stack.push(Step::Open(child, depth + 1));
                }
            }
            Step::Close(depth) => {
                let _ = writeln!(out, "{}}}", pad(depth));
            }
        }
    }
    for (i, &b) in kv.blocks().iter().enumerate() {
        let Some(t) = kv.ir.terminator(b) else {
            continue;
        };
        let divergent = u.is_divergent_branch(t);
        let cond = kv.ir.opcode(t) == Opcode::CondBr;
        for (k, s) in kv.ir.ops[t].succs.iter().enumerate() {
            let mut attrs: Vec<String> = Vec::new();
            if cond {
                let tf = if k == 0 { "T" } else { "F" };
                let label = if divergent {
                    format!("{tf} divergent")
                } else {
                    tf.to_string()
                };
                attrs.push(format!("label={}", quote(&label)));
                if divergent {
                    attrs.push("color=red, fontcolor=red, penwidth=2".into());
                }
            }
            if is_back_edge(kv, i as u32, s.block) {
                attrs.push("style=dashed".into());
            } else if cond && divergent {
                attrs.push("style=bold".into());
            }
            let attrs = if attrs.is_empty() {
                String::new()
            } else {
                format!(" [{}]", attrs.join(", "))
            };
            let _ = writeln!(
                out,
                "  {} -> {}{attrs};",
                quote(kv.block_name(b)),
                quote(kv.block_name(s.block))
            );
        }
    }
    out.push_str("}\n");
}

/// An edge from node `from` to the header of a cycle containing `from` (for an irreducible
/// cycle, the entry the DFS reached first; edges to its other entries are not back edges).
fn is_back_edge(kv: &KernelView, from: u32, to: Block) -> bool {
    let Some(t) = kv.u.cfg.node(to) else {
        return false;
    };
    let cycles = &kv.u.cycles;
    let mut c = cycles.innermost(t);
    while let Some(x) = c {
        if cycles.cycle(x).header() == t && cycles.contains(x, from) {
            return true;
        }
        c = cycles.cycle(x).parent;
    }
    false
}

/// Indentation of a cluster nested `depth` deep; it stops growing at 100 levels.
fn pad(depth: usize) -> String {
    "  ".repeat(depth.min(100))
}

/// The start of the cluster of cycle `c` and its own blocks (its children follow, then the
/// closing brace).
fn cluster(kv: &KernelView, c: CycleId, depth: usize, out: &mut String) {
    let u = kv.u;
    let pad = pad(depth);
    let cy = u.cycles.cycle(c);
    let id = kv.cycle_id(c);
    let _ = writeln!(
        out,
        "{pad}subgraph {} {{",
        quote(&format!("cluster_cycle{id}"))
    );
    let mut label = format!("cycle {id}: {}", kv.cycle_text(c));
    let mut style = vec!["rounded"];
    let mut color = "gray40";
    if !cy.is_reducible() {
        label.push_str("\nirreducible");
        style.push("bold");
        color = "purple";
    }
    let assumed = u.assumed_divergent.contains(&c);
    if assumed {
        label.push_str("\nassumed divergent");
        style.push("filled");
    }
    if u.divergent_exit_cycles.contains(&c) {
        label.push_str("\ndivergent exit");
    }
    if cy.is_reducible() {
        style.push("dashed");
    }
    let _ = writeln!(out, "{pad}  label={};", quote(&label));
    let _ = writeln!(out, "{pad}  labeljust=l;");
    let _ = writeln!(out, "{pad}  style={};", quote(&style.join(",")));
    let _ = writeln!(out, "{pad}  color={};", quote(color));
    if assumed {
        let _ = writeln!(out, "{pad}  fillcolor=\"#fde2e2\";");
    }
    let inner = format!("{pad}  ");
    for b in kv.cycle_blocks(c) {
        if kv.innermost_cycle(b) == Some(c) {
            node(kv, b, &inner, out);
        }
    }
}

fn node(kv: &KernelView, b: Block, pad: &str, out: &mut String) {
    let ir = kv.ir;
    let u = kv.u;
    let red = |s: String, divergent: bool| {
        if divergent {
            format!("<font color=\"red\">{s}</font>")
        } else {
            s
        }
    };
    // Header: ^name(%a, %b) with divergent arguments in red.
    let args: Vec<String> = ir.blocks[b]
        .args
        .iter()
        .map(|&a| red(html(&format!("%{}", kv.value_name(a))), u.is_divergent(a)))
        .collect();
    let mut header = format!("<b>{}</b>", html(&format!("^{}", kv.block_name(b))));
    if !args.is_empty() {
        header.push_str(&format!("({})", args.join(", ")));
    }
    let mut rows = vec![header];
    let mut tooltip: Vec<String> = Vec::new();
    let joins = kv.branches_joining_at(b, false);
    let exits = kv.branches_joining_at(b, true);
    for j in &joins {
        let t = format!("join of the divergent branch in ^{j}");
        rows.push(format!("<font color=\"blue\">{}</font>", html(&t)));
        tooltip.push(t);
    }
    for x in &exits {
        let t = format!("divergent exit of the branch in ^{x}");
        rows.push(format!("<font color=\"darkorange3\">{}</font>", html(&t)));
        tooltip.push(t);
    }
    let mut divergent_branch = false;
    for op in ir.block_ops(b) {
        let line = truncate(kv.op_text(op));
        let div = op_is_divergent(kv, op);
        if ir.opcode(op) == Opcode::CondBr && u.is_divergent_branch(op) {
            divergent_branch = true;
            rows.push(red(format!("{}  // divergent branch", html(&line)), true));
        } else if let Some(t) = u.temporal.iter().find(|t| t.user == op) {
            let note = format!(
                "{line}  // temporally divergent use of %{}",
                kv.value_name(t.value)
            );
            let color = if div { "red" } else { "magenta4" };
            rows.push(format!("<font color=\"{color}\">{}</font>", html(&note)));
        } else {
            rows.push(red(html(&line), div));
        }
    }
    let table: String = rows
        .iter()
        .map(|r| format!("<tr><td align=\"left\">{r}</td></tr>"))
        .collect();
    let mut attrs = vec![format!(
        "label=<<table border=\"0\" cellborder=\"0\" cellspacing=\"0\">{table}</table>>"
    )];
    if divergent_branch {
        attrs.push("color=red, penwidth=2".into());
        tooltip.push("ends in a divergent branch".into());
    }
    if !joins.is_empty() || !exits.is_empty() {
        attrs.push("peripheries=2, style=filled".into());
        attrs.push(format!(
            "fillcolor={}",
            quote(if joins.is_empty() {
                "#ffe4c4"
            } else {
                "#dde8ff"
            })
        ));
    }
    if !kv.is_reachable(b) {
        attrs.push("style=dotted, fontcolor=gray50, color=gray50".into());
        tooltip.push("unreachable".into());
    }
    if !tooltip.is_empty() {
        attrs.push(format!("tooltip={}", quote(&tooltip.join("; "))));
    }
    let _ = writeln!(
        out,
        "{pad}{} [{}];",
        quote(kv.block_name(b)),
        attrs.join(", ")
    );
}

/// Does `op` define a divergent (non-token) value?
fn op_is_divergent(kv: &KernelView, op: Op) -> bool {
    kv.ir.ops[op]
        .results
        .iter()
        .any(|&r| kv.ir.value_type(r) != Type::Token && kv.u.is_divergent(r))
}
