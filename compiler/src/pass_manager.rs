//! The pass manager: kc's IR passes in one ordered table, the pipelines `-O0`/`-O1`/`-O2`
//! and `--passes=a,b,c` build from it, and the runner that owns what happens between passes.
//!
//! Guarantees of [`Runner::run`], for every pass it runs:
//! - the pass sees IR at the level it declares ([`Pass::input`]; a CF pass on a structured
//!   kernel is refused before it runs, with the kernel named, when the user chose the pass);
//! - afterwards, unless verification is off, the IR verifier runs: a failure is an internal
//!   compiler error reported with the pass's name and the IR (never a panic inside a later
//!   pass). With `Options::verify_each` (debug builds, `--verify-each`, `KC_VERIFY_EACH=1`,
//!   the test harness) it runs after every pass; otherwise the runner notes the pass and the
//!   verifier runs at the next [`Runner::verify_pending`] or [`Runner::after`] (the pipeline
//!   calls them where the IR changes hands: after lower-to-cf, after the optimizer, before
//!   the backend), naming every pass since it last ran. Passes the user chose (`--passes`)
//!   are verified one by one;
//! - `--print-ir-after-all` / `--print-ir-after=NAME` dump the IR to stderr in MLIR's
//!   `// -----// IR Dump After NAME //----- //` format, on every path (`-S` included);
//! - `--time-passes` records the wall time of the pass (and of the stages around the IR
//!   passes: parsing, checking, the backend) for the table [`Runner::report`] prints.
//!
//! The backend's passes (`kc_backend::passes`: isel, exec-lowering, dead-defs, regalloc,
//! branch-folding, waitcnt, hazards, branch-relax) run through the same runner ([`Runner::run_mir`]): after each, the
//! MIR validator runs when `Options::verify_mir` is set (debug builds, `--verify-mir`,
//! `KC_VERIFY_MIR=1`; a failure is an internal compiler error with the MIR, the offending
//! instructions marked), `--print-ir-after[-all]` prints the MIR (`# -----// IR Dump After
//! NAME //----- #`, a comment line, so the dump parses back), `--time-passes` times each.
//!
//! No pass claims to preserve the uniformity analysis: it is computed where it is used.

use crate::diag::SourceFile;
use crate::pipeline::{self, Failure, Options};
use kc_backend::mir::MirModule;
use kc_backend::passes::{self as backend, BackendPass};
use kc_dialect::{transforms, Ir, Op};
use std::time::{Duration, Instant};

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

/// Runs passes and what surrounds them: verification, IR dumps, timing.
pub struct Runner<'a> {
    opts: &'a Options,
    file: &'a SourceFile,
    pub ctx: PassCtx,
    timings: Vec<(String, Duration)>,
    /// Time spent in the verifier and the IR dumps between passes, and how many times.
    between: (Duration, usize),
    /// The passes run since the IR was last verified, in order.
    pending: Vec<&'static str>,
    /// Warnings reported so far, rendered, and whether the policy made one an error.
    warnings: (String, bool),
    /// The warnings reported so far (those the policy enables), for the JSON report.
    pub reported: Vec<crate::warnings::Diag>,
}

impl<'a> Runner<'a> {
    pub fn new(opts: &'a Options, file: &'a SourceFile) -> Runner<'a> {
        Runner {
            opts,
            file,
            ctx: PassCtx {
                inserted: Vec::new(),
            },
            timings: Vec::new(),
            between: (Duration::ZERO, 0),
            pending: Vec::new(),
            warnings: (String::new(), false),
            reported: Vec::new(),
        }
    }

    /// Reports `diags` as the warning policy says (rendered now: their locations name files
    /// of `ir`).
    pub fn warn(&mut self, ir: &Ir, diags: &[crate::warnings::Diag]) {
        let (text, error) =
            crate::warnings::render(diags, &self.opts.warnings, Some(ir), Some(self.file));
        self.warnings.0.push_str(&text);
        self.warnings.1 |= error;
        self.reported.extend(
            diags
                .iter()
                .filter(|d| self.opts.warnings.enabled(d.warning))
                .cloned(),
        );
    }

    /// The warnings reported, rendered, and whether one of them is an error; the runner
    /// forgets them.
    pub fn take_warnings(&mut self) -> (String, bool) {
        std::mem::take(&mut self.warnings)
    }

    /// The options of this run.
    pub fn opts(&self) -> &'a Options {
        self.opts
    }

    /// The input file diagnostics point into.
    pub fn file(&self) -> &'a SourceFile {
        self.file
    }

    /// Runs `pass`, then dumps and verifies as the options ask. `user_chosen`: the pass comes
    /// from `--passes`, so a kernel at the wrong level is the user's error (exit 2).
    pub fn run(&mut self, ir: &mut Ir, pass: &Pass, user_chosen: bool) -> Result<(), Failure> {
        if user_chosen && pass.input == Level::Cf {
            if let Some(k) = ir.kernels().into_iter().find(|&k| !ir.is_cf_kernel(k)) {
                return Err(Failure::Usage(format!(
                    "--passes: `{}` runs on CF IR, and kernel @{} is in the structured kernel \
                     dialect (run lower-to-cf first)",
                    pass.name,
                    ir.func_name(k)
                )));
            }
        }
        let start = Instant::now();
        let result = (pass.run)(ir, &mut self.ctx);
        self.record(pass.name, start.elapsed());
        result.map_err(|e| Failure::Diagnostics(format!("error: {}: {e}\n", pass.name)))?;
        if self.opts.verify_each || user_chosen {
            return self.after(ir, pass.name);
        }
        let start = Instant::now();
        let r = pipeline::dump_after_pass(ir, self.opts, pass.name);
        self.between.0 += start.elapsed();
        self.pending.push(pass.name);
        r
    }

    /// Dumps and verifies after `pass` (also for steps that are not table passes, such as
    /// the AST lowering), naming with it the passes whose verification is still pending.
    pub fn after(&mut self, ir: &Ir, pass: &'static str) -> Result<(), Failure> {
        let start = Instant::now();
        let mut r = pipeline::dump_after_pass(ir, self.opts, pass);
        if r.is_ok() {
            self.pending.push(pass);
            r = self.verify_now(ir);
        }
        self.between.0 += start.elapsed();
        r
    }

    /// Verifies the IR if a pass has run since it last did (see the module comment).
    pub fn verify_pending(&mut self, ir: &Ir) -> Result<(), Failure> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let start = Instant::now();
        let r = self.verify_now(ir);
        self.between.0 += start.elapsed();
        r
    }

    fn verify_now(&mut self, ir: &Ir) -> Result<(), Failure> {
        let passes = std::mem::take(&mut self.pending);
        if !self.opts.verify {
            return Ok(());
        }
        self.between.1 += 1;
        pipeline::verify_after(ir, self.file, self.opts, &passes)
    }

    /// Runs backend pass `pass` on every kernel of `m`, then dumps and validates as the
    /// options ask. A level mismatch (regalloc on allocated MIR, another pass before
    /// regalloc) is a usage error; a failing pass is returned as the backend's error.
    pub fn run_mir(
        &mut self,
        m: &mut MirModule,
        pass: &BackendPass,
    ) -> Result<Result<(), kc_backend::Error>, Failure> {
        if let Some(why) = backend::refuse(m, pass) {
            return Err(Failure::Usage(format!("--passes: {why}")));
        }
        let start = Instant::now();
        let result = backend::run(m, pass);
        self.record(pass.name, start.elapsed());
        if result.is_err() {
            return Ok(result);
        }
        self.after_mir(m, pass.name)?;
        Ok(Ok(()))
    }

    /// Dumps and validates the MIR after backend pass `pass` (`isel` included).
    pub fn after_mir(&mut self, m: &MirModule, pass: &str) -> Result<(), Failure> {
        let start = Instant::now();
        let r = pipeline::after_mir_pass(m, self.opts, pass);
        self.between.0 += start.elapsed();
        self.between.1 += 1;
        r
    }

    /// Times a step that is not an IR pass (parsing, checking, the backend).
    pub fn time<T>(&mut self, name: &str, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let r = f();
        self.record(name, start.elapsed());
        r
    }

    fn record(&mut self, name: &str, d: Duration) {
        if self.opts.time_passes {
            self.timings.push((name.to_string(), d));
        }
    }

    /// The `--time-passes` table (empty without the flag), like `opt -time-passes`: one row
    /// per step in the order run, wall time and share of the total.
    pub fn report(&self) -> String {
        if !self.opts.time_passes {
            return String::new();
        }
        let mut timings = self.timings.clone();
        if self.between.1 > 0 {
            timings.push((
                format!("verifier and IR dumps ({} times)", self.between.1),
                self.between.0,
            ));
        }
        let total: Duration = timings.iter().map(|t| t.1).sum();
        let pct = |d: Duration| {
            if total.is_zero() {
                0.0
            } else {
                100.0 * d.as_secs_f64() / total.as_secs_f64()
            }
        };
        let rule = "===".to_string() + &"-".repeat(73) + "===\n";
        let mut out = rule.clone();
        out.push_str("                      ... Pass execution timing report ...\n");
        out.push_str(&rule);
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        out.push_str(&format!(
            "  Total Execution Time: {:.3} ms (wall clock)\n\n",
            ms(total)
        ));
        out.push_str("   --Wall Time (ms)--  --- Name ---\n");
        for (name, d) in &timings {
            out.push_str(&format!("   {:>9.3} ({:5.1}%)  {name}\n", ms(*d), pct(*d)));
        }
        out.push_str(&format!("   {:>9.3} (100.0%)  Total\n\n", ms(total)));
        out
    }
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
    fn the_verifier_runs_after_every_pass() {
        let text = "builtin.module {\n  kernel.func @k {\n  ^entry(%out: !kernel.ptr<global, i32>):\n    %0 = arith.constant 1 : i32\n    kernel.store %0, %out, %0 : !kernel.ptr<global, i32>, i32\n    kernel.return\n  }\n}\n";
        let mut ir = kc_dialect::text::parse(text, "k.mlir").unwrap();
        fn break_it(ir: &mut Ir, _: &mut PassCtx) -> Result<(), String> {
            let k = ir.kernels()[0];
            let entry = ir.entry_block(ir.ops[k].regions[0]).unwrap();
            let term = ir.terminator(entry).unwrap();
            ir.remove_op(term);
            Ok(())
        }
        let pass = Pass {
            name: "break-it",
            input: Level::Kernel,
            preserves: Preserves::Nothing,
            summary: "",
            run: break_it,
        };
        let file = SourceFile::new("k.mlir", text);
        let opts = Options {
            verify_each: true,
            ..Options::new(crate::pipeline::Stage::Asm)
        };
        let mut runner = Runner::new(&opts, &file);
        match runner.run(&mut ir, &pass, false) {
            Err(Failure::Diagnostics(d)) => {
                assert!(
                    d.starts_with(
                        "internal compiler error: the IR is invalid after pass `break-it`"
                    ),
                    "{d}"
                );
                assert!(d.contains("// IR:"), "{d}");
            }
            _ => panic!("the broken IR was not reported"),
        }
        // Without `verify_each` the runner verifies at the next checkpoint, naming the passes
        // run since the last one.
        let mut ir = kc_dialect::text::parse(text, "k.mlir").unwrap();
        let opts = Options {
            verify_each: false,
            ..Options::new(crate::pipeline::Stage::Asm)
        };
        let mut runner = Runner::new(&opts, &file);
        fn nothing(_: &mut Ir, _: &mut PassCtx) -> Result<(), String> {
            Ok(())
        }
        let nop = Pass {
            name: "nothing",
            run: nothing,
            ..pass
        };
        assert!(runner.run(&mut ir, &pass, false).is_ok());
        assert!(runner.run(&mut ir, &nop, false).is_ok());
        match runner.verify_pending(&ir) {
            Err(Failure::Diagnostics(d)) => assert!(
                d.starts_with(
                    "internal compiler error: the IR is invalid after passes `break-it`, `nothing`"
                ),
                "{d}"
            ),
            _ => panic!("the broken IR was not reported at the checkpoint"),
        }
        assert!(runner.verify_pending(&ir).is_ok(), "nothing pending");
        // With verification off (`--no-verify`), the runner does not look.
        let mut ir = kc_dialect::text::parse(text, "k.mlir").unwrap();
        let opts = Options {
            verify: false,
            ..Options::new(crate::pipeline::Stage::Asm)
        };
        let mut runner = Runner::new(&opts, &file);
        assert!(runner.run(&mut ir, &pass, false).is_ok());
    }

    /// A backend pass that breaks the MIR (here: an SGPR pair moved to an odd register, as a
    /// regalloc that forgot alignment would leave it) is caught by the MIR validator the
    /// runner runs after it: an internal compiler error naming the pass, with the MIR and the
    /// offending instruction marked.
    #[test]
    fn the_mir_validator_runs_after_every_backend_pass() {
        use kc_backend::mir::{parse, Operand, PReg, Reg};
        let text = "mir gfx942 after regalloc\nkernel @k {\n  usage sgprs 10 vgprs 2 sgpr_spills 0\nbb0:\n  s_load_dwordx2 s[6:7], s[0:1], 0\n  s_waitcnt lgkmcnt(0)\n  global_store_dword v0, v0, s[6:7]\n  s_endpgm\n}\n";
        let (mut m, _) = parse::parse(text).unwrap();
        let pass = BackendPass {
            name: "misalign",
            summary: "",
            run: |k| {
                for b in k.func.layout.clone() {
                    for i in &mut k.func.blocks[b].insts {
                        for o in &mut i.ops {
                            if let Operand::Reg {
                                reg: Reg::Phys(PReg::S(6, 2)),
                                ..
                            } = o
                            {
                                *o = kc_backend::mir::p(PReg::S(5, 2));
                            }
                        }
                    }
                }
                Ok(())
            },
        };
        let file = SourceFile::new("k.mir", text);
        let opts = Options {
            verify_mir: true,
            ..Options::new(crate::pipeline::Stage::Mir)
        };
        let mut runner = Runner::new(&opts, &file);
        match runner.run_mir(&mut m, &pass) {
            Err(Failure::Diagnostics(d)) => {
                assert!(
                    d.starts_with(
                        "internal compiler error: the MIR is invalid after pass `misalign`"
                    ),
                    "{d}"
                );
                assert!(
                    d.contains("  s_load_dwordx2 s[5:6], s[0:1], 0\n# ^^^ s[5:6] is not aligned"),
                    "{d}"
                );
            }
            r => panic!("the broken MIR was not reported: {r:?}"),
        }
        // Without validation, the runner does not look.
        let (mut m, _) = parse::parse(text).unwrap();
        let opts = Options {
            verify_mir: false,
            ..Options::new(crate::pipeline::Stage::Mir)
        };
        let mut runner = Runner::new(&opts, &file);
        assert!(matches!(runner.run_mir(&mut m, &pass), Ok(Ok(()))));
    }

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
