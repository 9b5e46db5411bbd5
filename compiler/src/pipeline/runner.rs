//! The runner: what happens around every pass of the pass table ([`crate::pass_manager`])
//! and every backend pass: verification, IR dumps, timing, warnings.
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
//! branch-folding, waitcnt, hazards, branch-relax) run through the same runner
//! ([`Runner::run_mir`]): after each, the MIR validator runs when `Options::verify_mir` is
//! set (debug builds, `--verify-mir`, `KC_VERIFY_MIR=1`; a failure is an internal compiler
//! error with the MIR, the offending instructions marked), `--print-ir-after[-all]` prints
//! the MIR (`# -----// IR Dump After NAME //----- #`, a comment line, so the dump parses
//! back), `--time-passes` times each.

use super::checks::{after_mir_pass, dump_after_pass, verify_after};
use super::{Failure, Options};
use crate::diag::SourceFile;
use crate::pass_manager::{Level, Pass, PassCtx};
use kc_backend::mir::MirModule;
use kc_backend::passes::{self as backend, BackendPass};
use kc_dialect::Ir;
use std::time::{Duration, Instant};

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
        let r = dump_after_pass(ir, self.opts, pass.name);
        self.between.0 += start.elapsed();
        self.pending.push(pass.name);
        r
    }

    /// Dumps and verifies after `pass` (also for steps that are not table passes, such as
    /// the AST lowering), naming with it the passes whose verification is still pending.
    pub fn after(&mut self, ir: &Ir, pass: &'static str) -> Result<(), Failure> {
        let start = Instant::now();
        let mut r = dump_after_pass(ir, self.opts, pass);
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
        verify_after(ir, self.file, self.opts, &passes)
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
        let r = after_mir_pass(m, self.opts, pass);
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
    use crate::pass_manager::Preserves;

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
}
