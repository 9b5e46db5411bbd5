//! The compilation pipeline, stage by stage.
//!
//! ```text
//!   .k source ──parse──▶ AST ──check──▶ checked AST ──lower──▶ kernel-ir (structured)
//!                                                                   │ insert-tokens
//!   .mlir (any stage) ──parse IR──▶ verify ──────────────────────▶ tokens
//!                                                                   │ lower-to-cf
//!                                                                   ▼
//!                                                                 cf-ir
//!                                          target::emit_llvm ◀──────┤ -O passes, make-structurizable
//!                                          llvm (LLVM IR)           │ isel
//!                                                                   ▼
//!   .mir (after any backend pass) ──parse MIR──▶ validate ─────▶ mir ◀─┐ regalloc, branch-folding,
//!                                                                   │  │ waitcnt, hazards,
//!                                                                   │──┘ branch-relax
//!                                                                   ▼ asm printer
//!                                                                 asm (gfx942 listing)
//! ```
//! The IR verifier runs on IR read from a file (a failure is the user's error) and after every
//! pass (a failure is a compiler bug, reported with the IR). The token verifier (the static
//! rules of controlled convergence, on CF kernels) runs on IR read from a file and after
//! lower-to-cf; a failure is the user's in kernels whose tokens the user wrote, a compiler bug in
//! kernels that insert-tokens gave tokens to. IR input enters the pipeline at whatever stage it
//! is in: the passes are no-ops on kernels already past them. The MIR validator runs on MIR
//! read from a file (the user's error, at its line) and, with `Options::verify_mir`, after
//! every backend pass (a compiler bug, reported with the MIR).

use crate::diag::{self, Diagnostic, SourceFile};
use crate::pass_manager::{self, Pass};
use crate::report::uniformity::ModuleUniformity;
use crate::{ast, check, lower, parse, warnings};
use kc_backend::mir::{self, MirModule};
use kc_backend::passes::{self as backend, BackendPass};
use kc_dialect::text::{self, PrintOptions};
use kc_dialect::verify_tokens::verify_tokens;
use kc_dialect::{transforms, Ir, Op};

mod checks;
mod runner;

use checks::{check_ir, check_tokens, located_error, report, verify_with_mlir};
pub use runner::Runner;

/// Where to stop: the `--emit` values (`kc --help` prints these comments).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
pub enum Stage {
    /// The parsed syntax tree.
    Ast,
    /// Structured kernel dialect (`kernel.if`, `kernel.loop`, variables), right after lowering.
    KernelIr,
    /// Structured kernel dialect after convergence-token insertion.
    Tokens,
    /// CFG form: `cf.br` / `cf.cond_br`, block arguments, tokens (as lower-to-cf gives it).
    CfIr,
    /// CF IR after the optimizer (the `-O` pipeline); the later stages start from it.
    Opt,
    /// CF IR made ready for structurization: irreducible cycles get a guard header, loops a
    /// single exit block.
    Reducible,
    /// CF IR with every value, block argument and branch marked uniform or divergent.
    Uniformity,
    /// LLVM IR for amdgcn-amd-amdhsa (gfx942), translated from cf-ir; kc's value names kept.
    Llvm,
    /// Upstream MLIR (`gpu.module`/`gpu.func` with `arith`, `cf`, `memref`) translated from
    /// the optimized CF IR, for MLIR's own pipelines (`mlir-opt-22` verifies it).
    MlirGpu,
    /// The uniformity analysis as JSON (schema: README, `crate::report::json`).
    UniformityJson,
    /// Graphviz CFG of each kernel with divergent branches, joins and cycles marked.
    Dot,
    /// Why `Options::explain` is divergent or uniform (`--explain`, not an `--emit` value).
    #[value(skip)]
    Explain,
    /// gfx942 machine IR after the last backend pass (branch-relax): what the listing prints,
    /// over physical registers (`--print-ir-after=isel` shows it before allocation).
    Mir,
    /// gfx942 assembly (the backend; `-S`).
    Asm,
}

pub struct Input {
    pub name: String,
    pub text: String,
    /// MLIR-style IR rather than `.k` source.
    pub is_ir: bool,
}

pub struct Options {
    pub stage: Stage,
    pub generic: text::Generic,
    pub locations: bool,
    pub print_ir_after_all: bool,
    pub verify: bool,
    pub color: bool,
    /// The `--explain` query (`NAME`, `%NAME` or `LINE:COL`), for [`Stage::Explain`].
    pub explain: Option<String>,
    /// `-O0`, `-O1`, `-O2`.
    pub opt_level: u8,
    /// `--print-ir-after=NAME` (repeatable): dump the IR after these passes only.
    pub print_ir_after: Vec<String>,
    /// `--time-passes`: a timing table on stderr at the end of the run.
    pub time_passes: bool,
    /// `--passes=a,b,c`: run exactly these passes on IR input and print the IR.
    pub passes: Option<Vec<&'static Pass>>,
    /// `--passes=a,b,c` on MIR input: run exactly these backend passes.
    pub mir_passes: Option<Vec<&'static BackendPass>>,
    /// Validate the MIR after every backend pass (`--verify-mir`, `KC_VERIFY_MIR=1`, and
    /// always in debug builds); `--no-verify` turns it off.
    pub verify_mir: bool,
    /// Verify the IR after every IR pass (`--verify-each`, `KC_VERIFY_EACH=1`, and always in
    /// debug builds). Without it the verifier runs where the IR changes hands: after the
    /// front end, after lower-to-cf (before the token rules), after the optimizer and before
    /// the backend, naming the passes run since it last looked. `--no-verify` turns both off.
    pub verify_each: bool,
    /// The process exits after this run (the `kc` command): the IR and the machine IR are
    /// left to the operating system instead of being freed record by record, which would
    /// walk all of them once more (a tenth of a large compile's cache misses went there).
    /// Library callers that compile many kernels in one process keep it off.
    pub one_shot: bool,
    /// What to do about SIMT-induced deadlocks (`--simt-deadlock`).
    pub simt_deadlock: SimtDeadlock,
    /// `--divergence` / `--fork-depth`: how the backend lowers divergent ifs.
    pub divergence: Divergence,
    /// `--max-sgprs` / `--max-vgprs`: the registers `regalloc` may use (the hardware's by
    /// default; less forces spilling).
    pub budget: Budget,
    /// `--verify-with-mlir`: MLIR's verifier (the `mlir` feature's `kc_mlir::verify`, passed in
    /// by the `kc` binary so only it links MLIR) on the generic form after every IR pass and
    /// after reading IR.
    pub mlir_verifier: Option<MlirVerifier>,
    /// Which warnings are reported, and which are errors (`-W...`, `-w`); none for library
    /// callers ([`Options::new`]), every one for the `kc` command by default.
    pub warnings: warnings::Policy,
    /// `-ferror-limit=N`: print at most N errors of a stage that finds many, then a note
    /// saying how many more there were (0: all).
    pub error_limit: usize,
}

pub use crate::spin_loops::SimtDeadlock;
pub use kc_backend::mir::Budget;
pub use kc_backend::mir::Divergence;

/// `--divergence`: how the backend lowers divergent branches.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DivergenceArg {
    /// EXEC masking (`s_and_saveexec_b64`, ... `s_or_b64 exec`), as LLVM does.
    ExecMask,
    /// Divergent ifs with the hardware branch stack (`s_cbranch_i_fork`, `s_cbranch_join`);
    /// loops keep EXEC masking.
    ForkJoin,
}

impl DivergenceArg {
    /// The backend's setting, with `--fork-depth`.
    pub fn with_depth(self, depth: u8) -> Divergence {
        match self {
            DivergenceArg::ExecMask => Divergence::ExecMask,
            DivergenceArg::ForkJoin => Divergence::ForkJoin { depth },
        }
    }
}

/// Verifies IR in MLIR's generic form; `Err` holds the diagnostics (`file:line:col: ...`).
pub type MlirVerifier = fn(&str) -> Result<(), String>;

/// Whether the IR verifier runs after every IR pass by default: in debug builds, or with
/// `KC_VERIFY_EACH` set (to anything but `0`; the test harness sets it).
pub fn verify_each_default() -> bool {
    cfg!(debug_assertions) || std::env::var_os("KC_VERIFY_EACH").is_some_and(|v| v != "0")
}

/// Whether the MIR validator runs by default: in debug builds, or with `KC_VERIFY_MIR` set
/// (to anything but `0`).
pub fn verify_mir_default() -> bool {
    cfg!(debug_assertions) || std::env::var_os("KC_VERIFY_MIR").is_some_and(|v| v != "0")
}

impl Options {
    /// Plain settings for library use: stop at `stage`, custom form, no locations, verifier
    /// on, no color, nothing to explain, no warnings printed.
    pub fn new(stage: Stage) -> Options {
        Options {
            stage,
            generic: text::Generic::None,
            locations: false,
            print_ir_after_all: false,
            verify: true,
            color: false,
            explain: None,
            opt_level: 2,
            print_ir_after: Vec::new(),
            time_passes: false,
            passes: None,
            mir_passes: None,
            verify_mir: verify_mir_default(),
            verify_each: verify_each_default(),
            one_shot: false,
            simt_deadlock: SimtDeadlock::Repair,
            divergence: Divergence::ExecMask,
            budget: Budget::default(),
            warnings: warnings::Policy::silent(),
            mlir_verifier: None,
            error_limit: diag::DEFAULT_ERROR_LIMIT,
        }
    }

    /// Drops `x`, or with [`Options::one_shot`] leaves its memory to the process exit.
    pub fn discard<T>(&self, x: T) {
        if self.one_shot {
            std::mem::forget(x);
        }
    }
}

/// Why a run produced no output.
#[derive(Debug)]
pub enum Failure {
    /// Rendered diagnostics about the input (exit code 1).
    Diagnostics(String),
    /// A usage problem or a failed write to stdout / stderr (exit code 2).
    Usage(String),
}

impl Failure {
    /// Writes the failure to stderr; the process exit code (1 or 2).
    pub fn report(&self) -> i32 {
        match self {
            Failure::Diagnostics(text) => crate::output::diagnostics(text, 1),
            Failure::Usage(msg) => crate::output::error(msg, 2),
        }
    }
}

/// A translation (`emit-llvm`, `emit-mlir-gpu`) that refused: checked source always
/// translates, so only hand-written IR can be unsupported; otherwise it is kc's bug.
fn translation_failure(input: &Input, pass: &str, e: &str) -> Failure {
    let what = if input.is_ir {
        "error"
    } else {
        "internal compiler error"
    };
    Failure::Diagnostics(format!("{what}: {pass}: {e}\n"))
}

/// Runs the pipeline up to `opts.stage` (or the `--passes` list) and returns the text to
/// write; the `--time-passes` table goes to stderr.
pub fn run(input: &Input, opts: &Options) -> Result<String, Failure> {
    let file = SourceFile::new(input.name.clone(), input.text.clone());
    let mut runner = Runner::new(opts, &file);
    let result = with_warnings(run_with(input, opts, &mut runner), &mut runner)?;
    let report = runner.report();
    if !report.is_empty() {
        crate::output::stderr(&report).map_err(|e| Failure::Usage(e.to_string()))?;
    }
    result
}

/// `result` with the run's warnings: printed on stderr before a successful output, put in
/// front of its diagnostics, or the failure themselves when the policy makes one an error.
fn with_warnings<T>(
    result: Result<T, Failure>,
    runner: &mut Runner,
) -> Result<Result<T, Failure>, Failure> {
    let (text, error) = runner.take_warnings();
    if text.is_empty() {
        return Ok(result);
    }
    Ok(match result {
        Err(Failure::Diagnostics(d)) => Err(Failure::Diagnostics(text + &d)),
        _ if error => Err(Failure::Diagnostics(text)),
        other => {
            crate::output::stderr(&text).map_err(|e| Failure::Usage(e.to_string()))?;
            other
        }
    })
}

fn run_with(input: &Input, opts: &Options, runner: &mut Runner) -> Result<String, Failure> {
    if let Some(passes) = &opts.passes {
        return run_passes(input, opts, runner, passes);
    }
    let ir = match to_cf(input, opts, runner)? {
        Reached::Text(text) => return Ok(text),
        Reached::Cf(ir) => ir,
    };
    if opts.stage == Stage::CfIr {
        return Ok(print(&ir, opts));
    }
    let mut ir = ir;
    optimize(&mut ir, opts.opt_level, runner)?;
    if opts.stage == Stage::Opt {
        return Ok(print(&ir, opts));
    }
    if opts.stage == Stage::Reducible {
        return reducible(ir, input, opts, runner);
    }
    if opts.stage == Stage::MlirGpu {
        use crate::mlir_gpu::EmitError;
        return runner
            .time("emit-mlir-gpu", || {
                crate::mlir_gpu::emit_mlir_gpu(&ir, opts.locations)
            })
            .map_err(|e| match e {
                EmitError::Untranslatable { loc, message } => {
                    let file = SourceFile::new(input.name.clone(), input.text.clone());
                    Failure::Diagnostics(checks::located_error(&ir, &file, loc, &message))
                }
                EmitError::Invalid(e) => translation_failure(input, "emit-mlir-gpu", &e),
            });
    }
    if matches!(
        opts.stage,
        Stage::Uniformity | Stage::UniformityJson | Stage::Dot | Stage::Explain
    ) {
        let mu = runner
            .time("uniformity", || ModuleUniformity::compute(&ir))
            .map_err(|e| {
                Failure::Diagnostics(format!("internal compiler error: uniformity: {e}\n"))
            })?;
        let warnings = crate::spin_loops::warnings_json(&ir, &runner.reported);
        return uniformity_report(&ir, &mu, input, opts, warnings);
    }
    if opts.stage == Stage::Llvm {
        return runner
            .time("emit-llvm", || crate::target::emit_llvm(&ir))
            .map_err(|e| translation_failure(input, "emit-llvm", &e));
    }
    // Stage::Mir, Stage::Asm: the gfx942 backend.
    let m = backend_passes(ir, runner)?;
    let out = if opts.stage == Stage::Mir {
        Ok(mir::print::print(&m))
    } else {
        finish(&m, runner, |e| {
            Failure::Diagnostics(format!("internal compiler error: {e}\n"))
        })
    };
    opts.discard(m);
    out
}

/// The listing of an allocated module (the asm printer, timed).
fn finish(
    m: &MirModule,
    runner: &mut Runner,
    fail: impl FnOnce(String) -> Failure,
) -> Result<String, Failure> {
    runner
        .time("asm-printer", || backend::listing(m))
        .map_err(|e| fail(e.message))
}

/// `--passes=a,b,c`: IR input, read and verified, then exactly those passes, then the IR.
fn run_passes(
    input: &Input,
    opts: &Options,
    runner: &mut Runner,
    passes: &[&'static Pass],
) -> Result<String, Failure> {
    if !input.is_ir {
        return Err(Failure::Usage(
            "--passes runs passes on IR input (`.mlir`, or -x mlir); for `.k` source, print \
             the IR to start from with --emit=kernel-ir"
                .into(),
        ));
    }
    let file = SourceFile::new(input.name.clone(), input.text.clone());
    let (mut ir, positions) = runner.time("parse-ir", || parse_ir(&file, opts))?;
    verify_with_mlir(&ir, opts, "parse-ir")?;
    check_ir(&ir, &file, opts, positions.as_ref())?;
    check_tokens(&ir, &file, opts, &[], positions.as_ref())?;
    for pass in passes {
        runner.run(&mut ir, pass, true)?;
    }
    Ok(print(&ir, opts))
}

/// The gfx942 listing of a CF module: make it structurizable, then the backend.
fn listing(
    ir: Ir,
    runner: &mut Runner,
) -> Result<(String, Vec<kc_backend::mir::KernelInfo>), Failure> {
    let m = backend_passes(ir, runner)?;
    let listing = finish(&m, runner, |e| {
        Failure::Diagnostics(format!("internal compiler error: {e}\n"))
    })?;
    Ok((listing, backend::infos(&m)))
}

/// A CF module made structurizable, then every backend pass, each through the runner (MIR
/// dumps, validation, timing): the module the listing prints.
fn backend_passes(mut ir: Ir, runner: &mut Runner) -> Result<MirModule, Failure> {
    // The backend needs reducible cycles; one exit per loop only simplifies its shapes (its
    // control tree places every exit of a loop after it), so a loop whose exits
    // `unify_loop_exits` must leave alone (a convergence token crossing the exit) is fine.
    for name in ["fix-irreducible", "unify-loop-exits"] {
        let pass = pass_manager::find(name).expect("a table pass");
        runner.run(&mut ir, pass, false)?;
    }
    runner.verify_pending(&ir)?;
    let file = runner.file();
    let divergence = runner.opts().divergence;
    let mut m = runner
        .time("isel", || backend::isel(&ir, divergence))
        .map_err(|e| Failure::Diagnostics(backend_error(&ir, file, &e)))?;
    m.set_budget(runner.opts().budget);
    runner.after_mir(&m, "isel")?;
    for pass in backend::PASSES {
        runner
            .run_mir(&mut m, pass)?
            .map_err(|e| Failure::Diagnostics(backend_error(&ir, file, &e)))?;
    }
    runner.opts().discard(ir);
    Ok(m)
}

/// The optimizer: the passes of `-O<level>` on CF IR.
fn optimize(ir: &mut Ir, level: u8, runner: &mut Runner) -> Result<(), Failure> {
    for pass in pass_manager::pipeline(level) {
        runner.run(ir, pass, false)?;
    }
    runner.verify_pending(ir)?;
    compact(ir, runner);
    Ok(())
}

/// Drops the ops the passes so far left behind and renumbers the IR in walk order
/// (`Ir::compact`): the later passes then walk half the memory, front to back. No analysis
/// is kept across it (they are computed per pass), and the IR prints the same.
fn compact(ir: &mut Ir, runner: &mut Runner) {
    runner.time("compact", || ir.compact());
}

/// The listing of a CF module optimized at `opt_level`, and each kernel's argument layout
/// (for `kc run --engine sim`).
pub fn compile_listing(
    mut ir: Ir,
    input: &Input,
    opt_level: u8,
    divergence: Divergence,
    budget: Budget,
) -> Result<(String, Vec<kc_backend::mir::KernelInfo>), Failure> {
    let file = SourceFile::new(input.name.clone(), input.text.clone());
    let mut opts = Options::new(Stage::Asm);
    opts.divergence = divergence;
    opts.budget = budget;
    let mut runner = Runner::new(&opts, &file);
    optimize(&mut ir, opt_level, &mut runner)?;
    listing(ir, &mut runner)
}

/// The machine module after `isel` of a CF module optimized at `opt_level`, divergent
/// branches to be lowered as `divergence` says (for tests that run the backend passes one by
/// one).
pub fn compile_to_mir(
    mut ir: Ir,
    input: &Input,
    opt_level: u8,
    divergence: Divergence,
) -> Result<MirModule, Failure> {
    let file = SourceFile::new(input.name.clone(), input.text.clone());
    let opts = Options::new(Stage::Asm);
    let mut runner = Runner::new(&opts, &file);
    optimize(&mut ir, opt_level, &mut runner)?;
    for name in ["fix-irreducible", "unify-loop-exits"] {
        let pass = pass_manager::find(name).expect("a table pass");
        runner.run(&mut ir, pass, false)?;
    }
    backend::isel(&ir, divergence).map_err(|e| Failure::Diagnostics(backend_error(&ir, &file, &e)))
}

/// A backend error, rendered like a verifier error without the IR context.
fn backend_error(ir: &Ir, file: &SourceFile, e: &kc_backend::Error) -> String {
    located_error(ir, file, e.loc, &e.message)
}

/// `--emit=reducible`: the CF IR after make-structurizable, verified and token-checked.
fn reducible(
    mut ir: Ir,
    input: &Input,
    opts: &Options,
    runner: &mut Runner,
) -> Result<String, Failure> {
    let file = SourceFile::new(input.name.clone(), input.text.clone());
    let made = runner.time("make-structurizable", || {
        transforms::make_structurizable(&mut ir)
    });
    made.map_err(|e| {
        // Only hand-written IR (a token crossing a loop exit) can be left unstructurizable.
        let what = if input.is_ir {
            "error"
        } else {
            "internal compiler error"
        };
        Failure::Diagnostics(format!("{what}: make-structurizable: {e}\n"))
    })?;
    runner.after(&ir, "make-structurizable")?;
    if opts.verify {
        if let Err(errors) = verify_tokens(&ir) {
            return Err(report(
                &ir,
                &file,
                opts,
                Some("pass `make-structurizable`"),
                &errors,
                None,
            ));
        }
    }
    Ok(print(&ir, opts))
}

/// The outputs of the uniformity stages. Source names are `let` bindings only for `.k` input.
fn uniformity_report(
    ir: &Ir,
    mu: &ModuleUniformity,
    input: &Input,
    opts: &Options,
    warnings: Vec<crate::report::json::WarningJson>,
) -> Result<String, Failure> {
    let source_names = !input.is_ir;
    Ok(match opts.stage {
        Stage::UniformityJson => {
            crate::report::json::to_string_with(ir, mu, source_names, warnings)
        }
        Stage::Dot => crate::report::dot::to_string(ir, mu),
        Stage::Explain => {
            let query = crate::report::explain::Query::parse(opts.explain.as_deref().unwrap_or(""));
            crate::report::explain::explain(ir, mu, &query, source_names).map_err(|e| {
                // The optimizer removes and merges values: say so when one is not found.
                let hint = if opts.opt_level > 0 {
                    format!(
                        "  note: this explains the IR after the optimizer (-O{}), which may have \
                         removed or merged the value; -O0 explains the kernel as written\n",
                        opts.opt_level
                    )
                } else {
                    String::new()
                };
                Failure::Diagnostics(format!("{}: error: {e}\n{hint}", input.name))
            })?
        }
        _ => crate::report::uniformity::annotated(ir, mu, &print_options(opts)),
    })
}

/// The CF-form IR of `input` (`.k` source or IR at any stage), verified, tokens checked:
/// what `--emit=cf-ir` prints, for library users (e.g. differential tests that run the
/// analyses and `target::emit_llvm` on it themselves). Diagnostics are rendered without
/// color.
pub fn compile_to_cf(input: &Input) -> Result<Ir, Failure> {
    compile_to_cf_with(input, SimtDeadlock::Repair)
}

/// [`compile_to_cf`] with `--simt-deadlock=simt` (what `kc run` compiles for the simulator).
pub fn compile_to_cf_with(input: &Input, simt: SimtDeadlock) -> Result<Ir, Failure> {
    let mut opts = Options::new(Stage::CfIr);
    opts.simt_deadlock = simt;
    let file = SourceFile::new(input.name.clone(), input.text.clone());
    match to_cf(input, &opts, &mut Runner::new(&opts, &file))? {
        Reached::Cf(ir) => Ok(ir),
        Reached::Text(_) => unreachable!("stage cf-ir runs the whole front end"),
    }
}

/// The structured kernel IR of `input` after insert-tokens, verified: what `--emit=tokens`
/// prints, for the reference interpreter (`kc run --engine ref`). The input must also pass
/// the rest of the front end (lower-to-cf and the token rules), so `kc run` accepts exactly
/// what `kc` compiles. IR input already in CF form is returned as is (CF form). Diagnostics
/// are rendered without color.
pub fn compile_to_kernel_ir(input: &Input) -> Result<Ir, Failure> {
    let opts = Options::new(Stage::CfIr);
    let file = SourceFile::new(input.name.clone(), input.text.clone());
    let mut runner = Runner::new(&opts, &file);
    let (ir, inserted) = match front(input, &opts, &file, &mut runner)? {
        Front::Tokens(ir, inserted) => (ir, inserted),
        Front::Text(_) => unreachable!("stage cf-ir runs the whole front end"),
    };
    let mut cf = ir.clone();
    lower_and_check(&mut cf, &inserted, input, &opts, &file, &mut runner)?;
    Ok(ir)
}

/// Where [`to_cf`] stopped: the output of a stage before cf-ir, or the CF-form IR.
enum Reached {
    Text(String),
    Cf(Ir),
}

/// Where [`front`] stopped: the output of a stage before tokens, or the IR after
/// insert-tokens with the kernels it gave tokens to.
enum Front {
    Text(String),
    Tokens(Ir, Vec<Op>),
}

/// The front end: parse (or read IR), check, lower, insert tokens, lower to cf, verifying
/// along the way; stops early with the text of a stage before cf-ir.
fn to_cf(input: &Input, opts: &Options, runner: &mut Runner) -> Result<Reached, Failure> {
    let file = SourceFile::new(input.name.clone(), input.text.clone());
    let (mut ir, inserted) = match front(input, opts, &file, runner)? {
        Front::Text(text) => return Ok(Reached::Text(text)),
        Front::Tokens(ir, inserted) => (ir, inserted),
    };
    if opts.stage == Stage::Tokens {
        return Ok(Reached::Text(print(&ir, opts)));
    }
    lower_and_check(&mut ir, &inserted, input, opts, &file, runner)?;
    compact(&mut ir, runner);
    // Both read the IR as lower-to-cf left it: one uniformity analysis per kernel serves them.
    let uniformity = runner.time("convergence checks", || {
        convergence_errors(&ir, input, &file)
    })?;
    let (diags, changed) = runner.time("simt-deadlock", || {
        crate::spin_loops::detect_and_repair(&mut ir, opts.simt_deadlock, &uniformity)
    });
    if changed {
        runner.after(&ir, "simt-repair")?;
        check_tokens(&ir, &file, opts, &[], None)?;
    }
    runner.warn(&ir, &diags);
    Ok(Reached::Cf(ir))
}

/// The static checks of `analysis::convergence_checks` on the CF IR as written (before the
/// optimizer): a barrier under divergent control flow, or a divergent operand where the op
/// needs a uniform one, is an error at its source line, with the `--explain` chain of the
/// divergent value as notes. Returns the uniformity analysis of each CF kernel, which the
/// SIMT-deadlock detection reuses (the IR has not changed in between).
fn convergence_errors(
    ir: &Ir,
    input: &Input,
    file: &SourceFile,
) -> Result<Vec<(Op, kc_dialect::analysis::Uniformity)>, Failure> {
    use crate::report::explain::explain_value;
    use kc_dialect::analysis::convergence_checks::{check, Finding};
    let mut out = String::new();
    let mut analyses = Vec::new();
    for func in ir.kernels() {
        let Ok(u) = kc_dialect::analysis::Uniformity::compute(ir, func) else {
            continue;
        };
        for finding in check(ir, &u) {
            let (loc, message, note, value) = match finding {
                Finding::DivergentBarrier { barrier, branch } => {
                    let b = &ir.ops[branch];
                    (
                        ir.ops[barrier].loc,
                        "barrier() under divergent control flow: some threads of the \
                         workgroup may not reach it (or reach it another number of times)"
                            .to_string(),
                        format!("{}: this branch is divergent", short_loc(ir, b.loc, file)),
                        b.operands.first().copied(),
                    )
                }
                Finding::DivergentUniformOperand { op, index, value } => (
                    ir.ops[op].loc,
                    format!(
                        "operand {index} of {} must be uniform (one value for the whole wave), \
                         but it is divergent here",
                        ir.spec(op).name
                    ),
                    format!("{}: the operand", short_loc(ir, ir.values[value].loc, file)),
                    Some(value),
                ),
            };
            out.push_str(&located_error(ir, file, loc, &message));
            out.push_str(&format!("  note: {note}\n"));
            if let Some(v) = value {
                for line in explain_value(ir, &u, v, !input.is_ir).lines() {
                    out.push_str(&format!("  note: {line}\n"));
                }
            }
        }
        analyses.push((func, u));
    }
    if out.is_empty() {
        Ok(analyses)
    } else {
        Err(Failure::Diagnostics(out))
    }
}

/// `file:line:col` of a location, or the input's name when it has none.
fn short_loc(ir: &Ir, loc: kc_dialect::Loc, file: &SourceFile) -> String {
    if loc.is_known() {
        format!("{}:{}:{}", ir.file_name(loc.file), loc.line, loc.col)
    } else {
        file.name.clone()
    }
}

/// Parse (or read IR), check, lower and insert tokens, verifying along the way; stops early
/// with the text of a stage before tokens.
fn front(
    input: &Input,
    opts: &Options,
    file: &SourceFile,
    runner: &mut Runner,
) -> Result<Front, Failure> {
    let mut ir = if input.is_ir {
        if opts.stage == Stage::Ast {
            return Err(Failure::Usage(
                "--emit=ast needs `.k` source input, not IR".into(),
            ));
        }
        let (ir, positions) = runner.time("parse-ir", || parse_ir(file, opts))?;
        verify_with_mlir(&ir, opts, "parse-ir")?;
        check_ir(&ir, file, opts, positions.as_ref())?;
        check_tokens(&ir, file, opts, &[], positions.as_ref())?;
        ir
    } else {
        let module = runner
            .time("parse", || parse::parse(file))
            .map_err(|d| render(file, &d, opts))?;
        if opts.stage == Stage::Ast {
            return Ok(Front::Text(ast::dump(&module, file)));
        }
        let checked = runner
            .time("check", || check::check(file, &module))
            .map_err(|d| render(file, &d, opts))?;
        let ir = runner.time("lower-ast", || lower::lower(file, &module, &checked));
        runner.after(&ir, "lower-ast")?;
        ir
    };
    if opts.stage == Stage::KernelIr {
        return Ok(Front::Text(print(&ir, opts)));
    }
    let pass = pass_manager::find("insert-tokens").expect("a table pass");
    runner.run(&mut ir, pass, false)?;
    let inserted = std::mem::take(&mut runner.ctx.inserted);
    Ok(Front::Tokens(ir, inserted))
}

/// lower-to-cf and the token rules on the IR after insert-tokens.
fn lower_and_check(
    ir: &mut Ir,
    inserted: &[Op],
    input: &Input,
    opts: &Options,
    file: &SourceFile,
    runner: &mut Runner,
) -> Result<(), Failure> {
    let pass = pass_manager::find("lower-to-cf").expect("a table pass");
    runner.run(ir, pass, false).map_err(|f| match f {
        // Checked source always lowers; only hand-written structured IR can be malformed.
        Failure::Diagnostics(d) if !input.is_ir => Failure::Diagnostics(format!(
            "internal compiler error: {}",
            d.strip_prefix("error: ").unwrap_or(&d)
        )),
        f => f,
    })?;
    // The token rules assume IR that verifies.
    runner.verify_pending(ir)?;
    // The user's tokens are checked even with `--no-verify`; only ours depend on it.
    if opts.verify || inserted.len() < ir.kernels().len() {
        check_tokens(ir, file, opts, inserted, None)?;
    }
    Ok(())
}

fn print_options(opts: &Options) -> PrintOptions<'static> {
    PrintOptions {
        generic: opts.generic,
        locations: opts.locations,
        ..PrintOptions::default()
    }
}

fn print(ir: &Ir, opts: &Options) -> String {
    text::print(ir, &print_options(opts))
}

fn render(file: &SourceFile, diags: &[Diagnostic], opts: &Options) -> Failure {
    Failure::Diagnostics(diag::render_limited(
        file,
        diags,
        opts.color,
        opts.error_limit,
    ))
}

/// IR input, and where its ops are in the text (`None` for upstream MLIR, which MLIR reads).
fn parse_ir(file: &SourceFile, opts: &Options) -> Result<(Ir, Option<text::Positions>), Failure> {
    if let Some(at) = upstream_mlir(&file.text) {
        return import_upstream(file, opts, at).map(|ir| (ir, None));
    }
    text::parse_with_positions(&file.text, &file.name)
        .map(|(ir, p)| (ir, Some(p)))
        .map_err(|e| {
            let start = e.offset.min(file.text.len());
            let end = next_char_boundary(&file.text, start);
            let span = ast::Span::new(file.id, start, end);
            render(
                file,
                &[Diagnostic::error(e.message.clone(), span, "here")],
                opts,
            )
        })
}

/// The byte offset of the first `gpu.module`, `gpu.func` or `func.func` outside comments: such
/// a module is upstream MLIR (kc's own IR has none of these ops), read by
/// [`crate::mlir_import`] rather than kc's parser.
pub fn upstream_mlir(text: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let code = line.find("//").map_or(line, |c| &line[..c]);
        for word in ["gpu.module", "gpu.func", "func.func"] {
            let mut from = 0;
            while let Some(i) = code[from..].find(word) {
                let at = from + i;
                let before = code[..at].chars().next_back();
                let after = code[at + word.len()..].chars().next();
                let ident = |c: Option<char>| {
                    c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
                };
                if !ident(before) && !ident(after) {
                    return Some(offset + at);
                }
                from = at + word.len();
            }
        }
        offset += line.len();
    }
    None
}

/// Reads upstream MLIR into kc IR (`kc_mlir::import`): `Err` at a line and column of the
/// text (line 0: unlocated).
pub type MlirImporter = fn(text: &str, file: &str) -> Result<Ir, text::TextError>;

static MLIR_IMPORTER: std::sync::OnceLock<MlirImporter> = std::sync::OnceLock::new();

/// Makes upstream MLIR input readable in this process: the `kc` binary built with the `mlir`
/// feature registers `kc_mlir::import` at start (only it links MLIR, so the library and
/// the test binaries stay free of it).
pub fn register_mlir_importer(import: MlirImporter) {
    let _ = MLIR_IMPORTER.set(import);
}

/// Upstream MLIR input: MLIR parses, verifies and lowers it (the registered importer); its
/// errors and kc's refusals are diagnostics at their line and column. Without an importer
/// (kc built without the `mlir` feature) it is an error at the first upstream op.
fn import_upstream(file: &SourceFile, opts: &Options, at: usize) -> Result<Ir, Failure> {
    let Some(import) = MLIR_IMPORTER.get() else {
        let end = next_char_boundary(&file.text, at);
        let span = ast::Span::new(file.id, at, end);
        let message = "this is upstream MLIR (gpu.module / func.func): kc reads it through MLIR \
                       itself, which needs a kc built with the `mlir` cargo feature"
            .to_string();
        return Err(render(
            file,
            &[Diagnostic::error(message, span, "here")],
            opts,
        ));
    };
    import(&file.text, &file.name).map_err(|e| {
        if e.line == 0 {
            return Failure::Diagnostics(format!("{}: error: {}\n", file.name, e.message));
        }
        let start = e.offset.min(file.text.len());
        let end = next_char_boundary(&file.text, start);
        let span = ast::Span::new(file.id, start, end);
        render(file, &[Diagnostic::error(e.message, span, "here")], opts)
    })
}

fn next_char_boundary(text: &str, at: usize) -> usize {
    text[at..].chars().next().map_or(at, |c| at + c.len_utf8())
}

/// MIR input (`.mir`, `-x mir`): parsed and validated (problems are the user's, at their
/// line in the file), then the `--passes` list, or the rest of the backend pipeline; the
/// output is the MIR (`--passes`, `--emit=mir`) or the listing (`-S`, the default).
pub fn run_mir(input: &Input, opts: &Options) -> Result<String, Failure> {
    let file = SourceFile::new(input.name.clone(), input.text.clone());
    let mut runner = Runner::new(opts, &file);
    let result = run_mir_with(&file, opts, &mut runner);
    let report = runner.report();
    if !report.is_empty() {
        crate::output::stderr(&report).map_err(|e| Failure::Usage(e.to_string()))?;
    }
    result
}

fn run_mir_with(file: &SourceFile, opts: &Options, runner: &mut Runner) -> Result<String, Failure> {
    if !matches!(opts.stage, Stage::Mir | Stage::Asm) {
        return Err(Failure::Usage(
            "MIR input gives MIR (--emit=mir) or assembly (-S, --emit=asm); the other stages \
             need .k or .mlir input"
                .into(),
        ));
    }
    let at = |offset: usize| {
        let start = offset.min(file.text.len());
        let end = next_char_boundary(&file.text, start);
        ast::Span::new(file.id, start, end)
    };
    let (mut m, positions) = runner
        .time("parse-mir", || mir::parse::parse(&file.text))
        .map_err(|e| {
            render(
                file,
                &[Diagnostic::error(e.message, at(e.offset), "here")],
                opts,
            )
        })?;
    // Input is validated whatever the options say: no pass may see malformed MIR.
    let problems = runner.time("validate-mir", || mir::validate::validate(&m));
    if !problems.is_empty() {
        let diags: Vec<Diagnostic> = problems
            .iter()
            .map(|(k, p)| {
                Diagnostic::error(
                    format!("invalid MIR: {}", p.message),
                    at(positions.offset(*k, p.at)),
                    "",
                )
            })
            .collect();
        return Err(render(file, &diags, opts));
    }
    let fail = |m: &MirModule, e: kc_backend::Error| {
        let k = m.kernels.iter().position(|k| k.loc == e.loc);
        let text = if e.loc.is_known() {
            format!(
                "{}:{}:{}: error: {}\n",
                m.file_name(e.loc),
                e.loc.line,
                e.loc.col,
                e.message
            )
        } else {
            let d = Diagnostic::error(
                e.message.clone(),
                at(k.map_or(0, |k| positions.offset(k, mir::At::Kernel))),
                "",
            );
            diag::render(file, &[d], opts.color)
        };
        Failure::Diagnostics(text)
    };
    m.set_budget(opts.budget);
    let list: Vec<&'static BackendPass> = match &opts.mir_passes {
        Some(list) => list.clone(),
        None => backend::remaining(m.after).iter().collect(),
    };
    for pass in list {
        if let Err(e) = runner.run_mir(&mut m, pass)? {
            return Err(fail(&m, e));
        }
    }
    if opts.stage == Stage::Mir {
        return Ok(mir::print::print(&m));
    }
    if !m.allocated() {
        return Err(Failure::Usage(
            "-S needs allocated MIR: run regalloc (--passes=regalloc) first, or give no --passes"
                .into(),
        ));
    }
    finish(&m, runner, |e| {
        Failure::Diagnostics(format!("{}: error: {e}\n", file.name))
    })
}

#[cfg(test)]
mod tests {
    use super::upstream_mlir;

    #[test]
    fn upstream_mlir_is_recognised_by_its_ops() {
        assert_eq!(upstream_mlir("module {\n  gpu.module @m {\n"), Some(11));
        assert_eq!(
            upstream_mlir("func.func @k() attributes {gpu.kernel} {"),
            Some(0)
        );
        assert_eq!(upstream_mlir("\"gpu.module\"() ({"), Some(1));
        // Comments, kc's own IR and longer names are not.
        assert_eq!(upstream_mlir("// gpu.module\nkernel.func @k {"), None);
        assert_eq!(
            upstream_mlir("builtin.module {\n  kernel.func @gpu {"),
            None
        );
        assert_eq!(upstream_mlir("%x = mygpu.module_thing"), None);
    }
}
