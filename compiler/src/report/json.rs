//! `--emit=uniformity-json`: the uniformity analysis as JSON, for scripts and differential
//! tests (e.g. against LLVM's `print<uniformity>`).
//!
//! Guarantees: the output is one JSON object (serde_json, pretty-printed, UTF-8) that depends
//! only on the IR: every list is in IR order (kernels in module order; blocks, joins, exits
//! and `join_of` lists in layout order; values block by block, block arguments first, then op
//! results; branches by block; temporal uses by user op), cycles in forest preorder and cycle
//! id lists ascending. Cycle entries are header first (the header is the entry the DFS
//! reaches first, as in LLVM). Names are the printed names of `--emit=cf-ir` /
//! `--emit=uniformity` without the sigil (`%x` -> `"x"`, `^endif` -> `"endif"`), so the JSON
//! can be joined with the listing. Field names are stable; new fields may be added, existing
//! ones are not renamed or removed without bumping `version`.
//!
//! # Schema (version 1)
//!
//! ```text
//! {
//!   "version": 1,
//!   "kernels": [{
//!     "name": "divergent_break",            // kernel symbol, without '@'
//!     "file": "k.k" | null, "line": 4 | null, "col": 1 | null,
//!     "blocks": [{ "name": "entry", "args": ["out"], "succs": ["loop.header"],
//!                  "preds": [], "reachable": true,
//!                  "join_of": ["entry"],          // blocks of the divergent branches it joins
//!                  "divergent_exit_of": [] }],    // blocks of the divergent branches it exits
//!     "values": [{                            // every op result and block argument, no tokens
//!       "name": "tid",                        // printed name, without '%'
//!       "source_name": "tid" | null,          // the `let`/`var` binding (.k input only)
//!       "file": "k.k" | null, "line": 5 | null, "col": 15 | null,
//!       "kind": "result" | "block_arg",
//!       "op": "kernel.workitem_id" | null,    // defining op (null for block arguments)
//!       "index": 0,                           // result / argument number
//!       "block": "entry",                     // defining block, without '^'
//!       "type": "i32",
//!       "divergent": true,                    // divergent at its definition
//!       "reason": null | {"kind": ..., ...}   // why (divergent values only), see below
//!     }],
//!     "branches": [{                          // every cf.cond_br
//!       "block": "loop.header",               // its block, without '^' (one per block)
//!       "file", "line", "col",
//!       "condition": "0",                     // printed name of the condition
//!       "succs": ["loop.exit", "endif"],      // true target, false target
//!       "divergent": true,
//!       "reason": null | {"kind": ..., ...},
//!       "joins": ["endif"],                   // join blocks (divergent branches only)
//!       "divergent_exits": ["loop.exit"]      // divergent cycle exits (divergent branches only)
//!     }],
//!     "cycles": [{ "id": 0, "header": "loop.header", "entries": ["loop.header"],
//!                  "blocks": ["loop.header", "endif", "loop.latch"],   // layout order
//!                  "reducible": true, "depth": 1, "parent": null | id,
//!                  "text": "depth=1: entries(^loop.header) ^endif ^loop.latch" }],
//!     "assumed_divergent_cycles": [id],       // irreducible cycles whose definitions are all divergent
//!     "divergent_exit_cycles": [id],          // outermost cycles left through a divergent exit
//!     "temporal_divergence": [{               // uses outside a cycle after a divergent exit
//!       "value": "sum_1", "user": "kernel.store", "user_block": "loop.exit",
//!       "file", "line", "col",                // of the user
//!       "cycle": id }]
//!   }],
//!   "warnings": [{                            // the compile's warnings (-W options apply)
//!     "name": "simt-deadlock", "message": "...",
//!     "file", "line", "col",
//!     "notes": [{ "message": "...", "file", "line", "col" }] }]
//! }
//! ```
//!
//! A `reason` names what became divergent before (following reasons ends at a `source`):
//!
//! | `kind` | other fields |
//! |---|---|
//! | `source` | `op`: the divergence source (`kernel.workitem_id`, atomics, ...) |
//! | `operand` | `op`: the user op; `operand`: the divergent operand (a branch: its condition) |
//! | `incoming` | `from_block`: block of the terminator passing it; `value`: the divergent value |
//! | `join` | `branch`: block of the divergent branch; `block`: the join block |
//! | `divergent_exit` | `branch`, `block` (the exit), `cycle` |
//! | `divergent_cycle` | `branch`, `cycle` (assumed divergent), `join` |
//! | `temporal` | `value` (defined in `cycle`), `user`: user op, `user_block`, `cycle` |

use super::uniformity::ModuleUniformity;
use super::view::KernelView;
use kc_dialect::analysis::cycles::CycleId;
use kc_dialect::analysis::uniformity::Reason;
use kc_dialect::entities::{Block, Op, Value};
use kc_dialect::ir::{Ir, ValueDef};
use kc_dialect::location::Loc;
use serde::Serialize;

/// Schema version (bumped when a field is renamed or removed).
pub const VERSION: u32 = 1;

#[derive(Serialize)]
pub struct Report {
    pub version: u32,
    pub kernels: Vec<KernelJson>,
    /// The compile's warnings (`-W` options apply), in the order they were reported.
    pub warnings: Vec<WarningJson>,
}

/// A warning of the compile: its `-W` name (`simt-deadlock`), message and location, and its
/// notes, each at its own location.
#[derive(Serialize, Clone, Debug)]
pub struct WarningJson {
    pub name: String,
    pub message: String,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub col: Option<u32>,
    pub notes: Vec<NoteJson>,
}

#[derive(Serialize, Clone, Debug)]
pub struct NoteJson {
    pub message: String,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub col: Option<u32>,
}

#[derive(Serialize)]
pub struct KernelJson {
    pub name: String,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub col: Option<u32>,
    pub blocks: Vec<BlockJson>,
    pub values: Vec<ValueJson>,
    pub branches: Vec<BranchJson>,
    pub cycles: Vec<CycleJson>,
    pub assumed_divergent_cycles: Vec<usize>,
    pub divergent_exit_cycles: Vec<usize>,
    pub temporal_divergence: Vec<TemporalJson>,
}

#[derive(Serialize)]
pub struct BlockJson {
    pub name: String,
    pub args: Vec<String>,
    pub succs: Vec<String>,
    pub preds: Vec<String>,
    pub reachable: bool,
    pub join_of: Vec<String>,
    pub divergent_exit_of: Vec<String>,
}

#[derive(Serialize)]
pub struct ValueJson {
    pub name: String,
    pub source_name: Option<String>,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub col: Option<u32>,
    pub kind: &'static str,
    pub op: Option<&'static str>,
    pub index: u32,
    pub block: String,
    #[serde(rename = "type")]
    pub ty: String,
    pub divergent: bool,
    pub reason: Option<ReasonJson>,
}

#[derive(Serialize)]
pub struct BranchJson {
    pub block: String,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub col: Option<u32>,
    pub condition: String,
    pub succs: Vec<String>,
    pub divergent: bool,
    pub reason: Option<ReasonJson>,
    pub joins: Vec<String>,
    pub divergent_exits: Vec<String>,
}

#[derive(Serialize)]
pub struct CycleJson {
    pub id: usize,
    pub header: String,
    pub entries: Vec<String>,
    pub blocks: Vec<String>,
    pub reducible: bool,
    pub depth: u32,
    pub parent: Option<usize>,
    pub text: String,
}

#[derive(Serialize)]
pub struct TemporalJson {
    pub value: String,
    pub user: &'static str,
    pub user_block: String,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub col: Option<u32>,
    pub cycle: usize,
}

#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ReasonJson {
    Source {
        op: &'static str,
    },
    Operand {
        op: &'static str,
        operand: String,
    },
    Incoming {
        from_block: String,
        value: String,
    },
    Join {
        branch: String,
        block: String,
    },
    DivergentExit {
        branch: String,
        block: String,
        cycle: usize,
    },
    DivergentCycle {
        branch: String,
        cycle: usize,
        join: String,
    },
    Temporal {
        value: String,
        user: &'static str,
        user_block: String,
        cycle: usize,
    },
}

/// Builds the report. `source_names`: the IR came from `.k` source, so value name hints are
/// `let`/`var` bindings (for IR input `source_name` is null).
pub fn report(ir: &Ir, mu: &ModuleUniformity, source_names: bool) -> Report {
    let kernels = mu
        .kernels
        .iter()
        .map(|u| kernel(&KernelView::new(ir, u), source_names))
        .collect();
    Report {
        version: VERSION,
        kernels,
        warnings: Vec::new(),
    }
}

/// The report as pretty-printed JSON text (with a trailing newline).
pub fn to_string(ir: &Ir, mu: &ModuleUniformity, source_names: bool) -> String {
    to_string_with(ir, mu, source_names, Vec::new())
}

/// [`to_string`] with the compile's warnings.
pub fn to_string_with(
    ir: &Ir,
    mu: &ModuleUniformity,
    source_names: bool,
    warnings: Vec<WarningJson>,
) -> String {
    let mut r = report(ir, mu, source_names);
    r.warnings = warnings;
    let mut s = serde_json::to_string_pretty(&r).expect("the report serializes");
    s.push('\n');
    s
}

type LocJson = (Option<String>, Option<u32>, Option<u32>);

fn loc(kv: &KernelView, l: Loc) -> LocJson {
    match kv.loc_parts(l) {
        Some((f, line, col)) => (Some(f.to_string()), Some(line), Some(col)),
        None => (None, None, None),
    }
}

fn kernel(kv: &KernelView, source_names: bool) -> KernelJson {
    let ir = kv.ir;
    let u = kv.u;
    let bname = |b: Block| kv.block_name(b).to_string();
    let (file, line, col) = loc(kv, ir.ops[u.func].loc);
    let blocks = kv
        .blocks()
        .iter()
        .enumerate()
        .map(|(i, &b)| BlockJson {
            name: bname(b),
            args: ir.blocks[b]
                .args
                .iter()
                .map(|&a| kv.value_name(a).to_string())
                .collect(),
            succs: u.cfg.succs[i]
                .iter()
                .map(|&s| bname(u.cfg.blocks[s as usize]))
                .collect(),
            preds: u.cfg.preds[i]
                .iter()
                .map(|&p| bname(u.cfg.blocks[p as usize]))
                .collect(),
            reachable: kv.is_reachable(b),
            join_of: kv.branches_joining_at(b, false),
            divergent_exit_of: kv.branches_joining_at(b, true),
        })
        .collect();
    let values = kv
        .values()
        .into_iter()
        .map(|v| {
            let (file, line, col) = loc(kv, kv.value_loc(v));
            let (kind, op, index, block) = match ir.values[v].def {
                ValueDef::Result(op, i) => (
                    "result",
                    Some(ir.opcode(op).name()),
                    i,
                    kv.op_block_name(op).to_string(),
                ),
                ValueDef::BlockArg(b, i) => ("block_arg", None, i, bname(b)),
            };
            ValueJson {
                name: kv.value_name(v).to_string(),
                source_name: if source_names {
                    ir.values[v].name.clone()
                } else {
                    None
                },
                file,
                line,
                col,
                kind,
                op,
                index,
                block,
                ty: ir.value_type(v).to_string(),
                divergent: u.is_divergent(v),
                reason: u.reason(v).map(|r| reason(kv, r)),
            }
        })
        .collect();
    let branches = kv
        .branches()
        .into_iter()
        .map(|t| {
            let (file, line, col) = loc(kv, ir.ops[t].loc);
            let data = &ir.ops[t];
            BranchJson {
                block: kv.op_block_name(t).to_string(),
                file,
                line,
                col,
                condition: kv.value_name(data.operands[0]).to_string(),
                succs: data.succs.iter().map(|s| bname(s.block)).collect(),
                divergent: u.is_divergent_branch(t),
                reason: u.branch_reason(t).map(|r| reason(kv, r)),
                joins: sorted(
                    kv,
                    u.joins_of(t).filter(|j| !j.is_exit).map(|j| Some(j.block)),
                ),
                divergent_exits: sorted(
                    kv,
                    u.joins_of(t).filter(|j| j.is_exit).map(|j| Some(j.block)),
                ),
            }
        })
        .collect();
    let cycles = kv
        .cycle_order
        .iter()
        .enumerate()
        .map(|(id, &c)| {
            let cy = u.cycles.cycle(c);
            CycleJson {
                id,
                header: bname(u.cfg.blocks[cy.header() as usize]),
                entries: kv.cycle_entries(c).into_iter().map(bname).collect(),
                blocks: kv.cycle_blocks(c).into_iter().map(bname).collect(),
                reducible: cy.is_reducible(),
                depth: cy.depth,
                parent: cy.parent.map(|p| kv.cycle_id(p)),
                text: kv.cycle_text(c),
            }
        })
        .collect();
    let mut temporal_uses: Vec<_> = u.temporal.iter().collect();
    temporal_uses.sort_by_key(|t| (kv.op_key(t.user), kv.value_name(t.value).to_string()));
    let temporal = temporal_uses
        .into_iter()
        .map(|t| {
            let (file, line, col) = loc(kv, ir.ops[t.user].loc);
            TemporalJson {
                value: kv.value_name(t.value).to_string(),
                user: ir.opcode(t.user).name(),
                user_block: kv.op_block_name(t.user).to_string(),
                file,
                line,
                col,
                cycle: kv.cycle_id(t.cycle),
            }
        })
        .collect();
    KernelJson {
        name: kv.kernel_name().to_string(),
        file,
        line,
        col,
        blocks,
        values,
        branches,
        cycles,
        assumed_divergent_cycles: cycle_ids(kv, &u.assumed_divergent),
        divergent_exit_cycles: cycle_ids(kv, &u.divergent_exit_cycles),
        temporal_divergence: temporal,
    }
}

/// Block names in layout order, without duplicates.
fn sorted(kv: &KernelView, blocks: impl Iterator<Item = Option<Block>>) -> Vec<String> {
    let mut bs: Vec<Block> = blocks.flatten().collect();
    bs.sort_by_key(|&b| kv.block_key(b));
    bs.dedup();
    bs.into_iter()
        .map(|b| kv.block_name(b).to_string())
        .collect()
}

/// Public ids, ascending.
fn cycle_ids(kv: &KernelView, cs: &[CycleId]) -> Vec<usize> {
    let mut ids: Vec<usize> = cs.iter().map(|&c| kv.cycle_id(c)).collect();
    ids.sort_unstable();
    ids
}

fn reason(kv: &KernelView, r: &Reason) -> ReasonJson {
    let ir = kv.ir;
    let vname = |v: Value| kv.value_name(v).to_string();
    let branch = |t: Op| kv.op_block_name(t).to_string();
    let bname = |b: Block| kv.block_name(b).to_string();
    match *r {
        Reason::Source(op) => ReasonJson::Source {
            op: ir.opcode(op).name(),
        },
        Reason::Operand { op, operand } => ReasonJson::Operand {
            op: ir.opcode(op).name(),
            operand: vname(operand),
        },
        Reason::Incoming { from, value } => ReasonJson::Incoming {
            from_block: branch(from),
            value: vname(value),
        },
        Reason::Join { branch: t, block } => ReasonJson::Join {
            branch: branch(t),
            block: bname(block),
        },
        Reason::DivergentExit {
            branch: t,
            block,
            cycle,
        } => ReasonJson::DivergentExit {
            branch: branch(t),
            block: bname(block),
            cycle: kv.cycle_id(cycle),
        },
        Reason::DivergentCycle {
            branch: t,
            cycle,
            join,
        } => ReasonJson::DivergentCycle {
            branch: branch(t),
            cycle: kv.cycle_id(cycle),
            join: bname(join),
        },
        Reason::Temporal { op, value, cycle } => ReasonJson::Temporal {
            value: vname(value),
            user: ir.opcode(op).name(),
            user_block: branch(op),
            cycle: kv.cycle_id(cycle),
        },
    }
}
