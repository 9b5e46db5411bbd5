//! The pass manager: kc's IR passes in one ordered table, the pipelines `-O0`/`-O1`/`-O2`
//! and `--passes=a,b,c` build from it.
//!
//! What runs around each pass (verification, IR dumps, timing) is the pipeline's
//! [`Runner`](crate::pipeline::Runner).
//!
//! No pass claims to preserve the uniformity analysis: it is computed where it is used.

use kc_backend::passes::{self as backend, BackendPass};
use kc_dialect::{transforms, Ir, Op};

/// The IR level a pass reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Level {
    /// The structured kernel dialect (`kernel.if`, `kernel.loop`, variables); CF kernels of IR
    /// input are left alone.
    Kernel,
    /// CF form (`cf.br`, `cf.cond_br`, block arguments).
    Cf,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Kernel => "kernel",
            Level::Cf => "cf",
        }
    }
}

/// What a pass leaves valid for the next one (analyses are recomputed where they are used;
/// this is the contract a future cache relies on).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Preserves {
    /// Blocks, edges and therefore dominance and cycles (it only changes ops inside blocks).
    Cfg,
    /// Nothing.
    Nothing,
}

impl Preserves {
    pub fn name(self) -> &'static str {
        match self {
            Preserves::Cfg => "cfg",
            Preserves::Nothing => "nothing",
        }
    }
}

/// What a pass's run function may use and report.
pub struct PassCtx {
    /// Kernels insert-tokens gave tokens to (the token rules' violations there are ours).
    pub inserted: Vec<Op>,
}

/// One IR pass.
pub struct Pass {
    pub name: &'static str,
    pub input: Level,
    pub preserves: Preserves,
    /// One line for `--help` and `--list-passes`.
    pub summary: &'static str,
    /// Runs the pass on every kernel; `Err` is a message about IR the pass cannot handle.
    pub run: fn(&mut Ir, &mut PassCtx) -> Result<(), String>,
}

impl std::fmt::Debug for Pass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

fn insert_tokens(ir: &mut Ir, ctx: &mut PassCtx) -> Result<(), String> {
    ctx.inserted = transforms::insert_tokens(ir);
    Ok(())
}

fn lower_to_cf(ir: &mut Ir, _: &mut PassCtx) -> Result<(), String> {
    transforms::lower_to_cf(ir)
}

fn fix_irreducible(ir: &mut Ir, _: &mut PassCtx) -> Result<(), String> {
    for func in ir.kernels() {
        transforms::fix_irreducible(ir, func);
    }
    Ok(())
}

fn simt_repair(ir: &mut Ir, _: &mut PassCtx) -> Result<(), String> {
    for func in ir.kernels() {
        if ir.is_cf_kernel(func) {
            transforms::simt_repair(ir, func);
        }
    }
    Ok(())
}

fn unify_loop_exits(ir: &mut Ir, _: &mut PassCtx) -> Result<(), String> {
    for func in ir.kernels() {
        transforms::unify_loop_exits(ir, func);
    }
    Ok(())
}

/// Every IR pass, in pipeline order.
pub const PASSES: &[Pass] = &[
    Pass {
        name: "insert-tokens",
        input: Level::Kernel,
        preserves: Preserves::Nothing,
        summary: "give kernels without convergence tokens conv.entry and loop hearts",
        run: insert_tokens,
    },
    Pass {
        name: "lower-to-cf",
        input: Level::Kernel,
        preserves: Preserves::Nothing,
        summary: "structured kernel dialect to CF form (blocks, cf.br, cf.cond_br)",
        run: lower_to_cf,
    },
    Pass {
        name: "simt-repair",
        input: Level::Cf,
        preserves: Preserves::Nothing,
        summary: "move a deadlocking spin loop's back edge through a switch block after its \
                  release (SIMT-induced deadlock elimination)",
        run: simt_repair,
    },
    Pass {
        name: "canonicalize",
        input: Level::Cf,
        preserves: Preserves::Nothing,
        summary: "fold constants and algebraic identities; a branch on a constant becomes a jump",
        run: |ir, _| {
            transforms::canonicalize(ir);
            Ok(())
        },
    },
    Pass {
        name: "cse",
        input: Level::Cf,
        preserves: Preserves::Cfg,
        summary: "reuse a dominating pure op of the same kind on the same operands",
        run: |ir, _| {
            transforms::cse(ir);
            Ok(())
        },
    },
    Pass {
        name: "licm",
        input: Level::Cf,
        preserves: Preserves::Cfg,
        summary: "hoist pure, non-convergent, non-faulting loop-invariant ops into the preheader",
        run: |ir, _| {
            transforms::licm(ir);
            Ok(())
        },
    },
    Pass {
        name: "factor-reductions",
        input: Level::Cf,
        preserves: Preserves::Nothing,
        summary: "a loop's acc += x * k (k invariant) sums x and multiplies by k once after the loop",
        run: |ir, _| {
            transforms::factor_reductions(ir);
            Ok(())
        },
    },
    Pass {
        name: "closed-form-loops",
        input: Level::Cf,
        preserves: Preserves::Nothing,
        summary: "a pure counting loop replaced by the closed forms of the values it leaves (sum of i: T(T-1)/2)",
        run: |ir, _| {
            transforms::closed_form_loops(ir);
            Ok(())
        },
    },
    Pass {
        name: "merge-returns",
        input: Level::Cf,
        preserves: Preserves::Nothing,
        summary: "return blocks ending in the same store become one return block storing a block argument",
        run: |ir, _| {
            transforms::merge_returns(ir);
            Ok(())
        },
    },
    Pass {
        name: "sink-common",
        input: Level::Cf,
        preserves: Preserves::Cfg,
        summary: "the equal last ops of a join's two predecessors (two stores, two adds) become one in the join",
        run: |ir, _| {
            transforms::sink_common(ir);
            Ok(())
        },
    },
    Pass {
        name: "if-convert",
        input: Level::Cf,
        preserves: Preserves::Nothing,
        summary: "small divergent if/else and if-then become straight-line code with arith.select",
        run: |ir, _| {
            transforms::if_convert(ir);
            Ok(())
        },
    },
    Pass {
        name: "sink",
        input: Level::Cf,
        preserves: Preserves::Cfg,
        summary: "move pure ops into the conditional block that alone reads them",
        run: |ir, _| {
            transforms::sink(ir);
            Ok(())
        },
    },
    Pass {
        name: "dce",
        input: Level::Cf,
        preserves: Preserves::Nothing,
        summary: "remove unused pure ops, unread block arguments and unreachable blocks",
        run: |ir, _| {
            transforms::dce(ir);
            Ok(())
        },
    },
    Pass {
        name: "fix-irreducible",
        input: Level::Cf,
        preserves: Preserves::Nothing,
        summary: "give every irreducible cycle one header (a guarded control-flow hub)",
        run: fix_irreducible,
    },
    Pass {
        name: "unify-loop-exits",
        input: Level::Cf,
        preserves: Preserves::Nothing,
        summary: "route a loop's exits through one exit block (exits into a token's region stay)",
        run: unify_loop_exits,
    },
];

/// The optimizer's passes at `-O<level>`, in order (the CF IR after lower-to-cf goes
/// through them before the backend and every later stage).
pub fn pipeline(level: u8) -> Vec<&'static Pass> {
    let names: &[&str] = match level {
        0 => &[],
        1 => &["canonicalize", "dce"],
        _ => &[
            "canonicalize",
            "cse",
            "licm",
            "factor-reductions",
            "closed-form-loops",
            "merge-returns",
            "sink-common",
            "if-convert",
            "canonicalize",
            "sink",
            "dce",
        ],
    };
    names
        .iter()
        .map(|n| find(n).expect("a table pass"))
        .collect()
}

/// The pass called `name`.
pub fn find(name: &str) -> Option<&'static Pass> {
    PASSES.iter().find(|p| p.name == name)
}

/// Every pass name, the backend's included, comma-separated (for messages).
pub fn names() -> String {
    PASSES
        .iter()
        .map(|p| p.name)
        .chain(kc_backend::mir::module::STAGES.iter().copied())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether `name` is a pass `--print-ir-after` can name: an IR pass, `lower-ast` or a
/// backend pass.
pub fn is_dump_point(name: &str) -> bool {
    name == "lower-ast" || find(name).is_some() || kc_backend::mir::module::stage(name).is_some()
}

/// The backend passes of `--passes=a,b,c` on MIR input, or a usage message.
pub fn parse_mir_list(list: &str) -> Result<Vec<&'static BackendPass>, String> {
    list.split(',')
        .map(str::trim)
        .map(|n| {
            if n.is_empty() {
                return Err("--passes: empty pass name in the list".to_string());
            }
            if n == "isel" {
                return Err(
                    "--passes: `isel` makes MIR from CF IR; on MIR input, name the \
                     passes after it"
                        .to_string(),
                );
            }
            backend::find(n).ok_or_else(|| {
                let names: Vec<&str> = backend::PASSES.iter().map(|p| p.name).collect();
                format!(
                    "--passes: unknown backend pass `{n}` (on MIR input: {})",
                    names.join(", ")
                )
            })
        })
        .collect()
}

/// The passes of `--passes=a,b,c`, or a usage message naming the unknown one.
pub fn parse_list(list: &str) -> Result<Vec<&'static Pass>, String> {
    list.split(',')
        .map(str::trim)
        .map(|n| {
            if n.is_empty() {
                return Err("--passes: empty pass name in the list".to_string());
            }
            find(n).ok_or_else(|| format!("--passes: unknown pass `{n}` (passes: {})", names()))
        })
        .collect()
}

/// The `--list-passes` table.
pub fn list() -> String {
    let mut out = String::from("pass               level   preserves  what it does\n");
    for p in PASSES {
        out.push_str(&format!(
            "{:<18} {:<7} {:<10} {}\n",
            p.name,
            p.input.name(),
            p.preserves.name(),
            p.summary
        ));
    }
    out.push_str(&format!(
        "{:<18} {:<7} {:<10} {}\n",
        "isel",
        "cf",
        "-",
        backend::ISEL_SUMMARY
    ));
    for p in backend::PASSES {
        out.push_str(&format!(
            "{:<18} {:<7} {:<10} {}\n",
            p.name, "mir", "-", p.summary
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_listed() {
        for (i, p) in PASSES.iter().enumerate() {
            assert!(PASSES[..i].iter().all(|q| q.name != p.name), "{}", p.name);
            assert!(list().contains(p.name));
            assert_eq!(find(p.name).map(|q| q.name), Some(p.name));
        }
    }

    /// A pass that leaves invalid IR (the entry block loses its terminator) is caught by the
    /// runner's verifier and reported as an internal error naming it, with the IR.
    #[test]
    fn pass_lists_parse() {
        let l = parse_list("lower-to-cf, unify-loop-exits").unwrap();
        assert_eq!(
            l.iter().map(|p| p.name).collect::<Vec<_>>(),
            ["lower-to-cf", "unify-loop-exits"]
        );
        assert!(parse_list("dce,nope")
            .unwrap_err()
            .contains("unknown pass `"));
        assert!(parse_list("lower-to-cf,,x").unwrap_err().contains("empty"));
    }
}
