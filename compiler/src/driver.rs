//! The `kc` driver: command line, input detection, the stage pipeline and output.
//!
//! Exit codes: 0 success, 1 a diagnostic about the input (source or IR), 2 a usage error
//! (bad flags, unreadable file, stage not available for this input). Like clang, `-` reads
//! stdin and `-o -` (the default) writes stdout. Every write to stdout or stderr goes through
//! [`crate::output`]: one that fails is exit code 2.

use crate::input::{read_input, LangArg};
use crate::output;
use crate::pass_manager;
use crate::pipeline::{self, Input, Options, Stage};
use clap::{Parser, ValueEnum};
use kc_dialect::text::Generic;
use std::io::{IsTerminal, Write};

/// kc: a GPU-kernel compiler for AMD gfx942.
///
/// Reads a `.k` kernel file (or MLIR-style `.mlir` IR at any stage, or `.mir` machine IR) and
/// runs the pipeline ast -> kernel-ir -> tokens -> cf-ir -> opt -> the gfx942 backend (isel,
/// exec-lowering, dead-defs, regalloc, branch-folding, waitcnt, hazards, branch-relax),
/// printing the stage asked for with `--emit`.
#[derive(Parser, Debug)]
#[command(
    name = "kc",
    version,
    about,
    long_about = None,
    after_help = "To execute a kernel: kc run FILE.k [--grid X[,Y,Z]] [--block X[,Y,Z]] [--args ARGS.json] (see kc run --help)"
)]
struct Cli {
    /// Input file: `.k` source, `.mlir` IR (custom or generic form), `.mir` machine IR (the
    /// form `--emit=mir` prints: compiled on to a listing, or `--passes` runs backend passes
    /// on it), or `-` for stdin.
    #[arg(required_unless_present = "list_passes")]
    input: Option<String>,

    /// Output file (`-` for stdout, the default).
    #[arg(short = 'o', value_name = "OUT", default_value = "-")]
    output: String,

    /// Target processor. Only gfx942 (MI300, wave64) is supported.
    #[arg(long, default_value = "gfx942", value_parser = ["gfx942"])]
    target: String,

    /// Emit assembly (the gfx942 backend; equivalent to `--emit=asm`).
    #[arg(short = 'S')]
    assembly: bool,

    /// Stage to stop at and print.
    #[arg(long, value_enum, value_name = "STAGE")]
    emit: Option<Stage>,

    /// Explain why a value is divergent or uniform: a `let` name (every SSA version of it),
    /// a printed IR name (`%x_1`) or the source position `LINE:COL` of its definition.
    #[arg(long, value_name = "NAME|LINE:COL")]
    explain: Option<String>,

    /// Print IR in MLIR's generic form: `--generic` (or `--generic=all`) every op, which
    /// `mlir-opt --allow-unregistered-dialect` reads; `--generic=kc` only kc's own ops (kernel,
    /// conv), with builtin, arith and cf in their MLIR custom form, as `mlir-opt` prints kc's IR.
    #[arg(long, value_enum, value_name = "OPS", num_args = 0..=1, require_equals = true, default_missing_value = "all")]
    generic: Option<GenericArg>,

    /// Do not print source locations (`loc(...)`) in IR output.
    #[arg(long)]
    no_locs: bool,

    /// Print the IR after every pass to stderr (`-S` included).
    #[arg(long)]
    print_ir_after_all: bool,

    /// Print the IR after the pass NAME to stderr (repeatable; `--list-passes` names them,
    /// and `lower-ast` is the IR the front end builds); after a backend pass (isel,
    /// exec-lowering, dead-defs, regalloc, branch-folding, waitcnt, hazards, branch-relax), the
    /// MIR.
    #[arg(long, value_name = "NAME")]
    print_ir_after: Vec<String>,

    /// Print a table of the wall time of every pass and stage to stderr, like `opt
    /// -time-passes`.
    #[arg(long)]
    time_passes: bool,

    /// Run exactly these passes, comma-separated, on IR input and print the IR, like
    /// `mlir-opt --pass-pipeline`/`opt -passes` (`--list-passes` names them); on `.mir` input,
    /// backend passes (like `llc -run-pass`), printing the MIR (or with -S the listing).
    #[arg(long, value_name = "A,B,C")]
    passes: Option<String>,

    /// List the passes (name, IR level, what each preserves) and exit.
    #[arg(long)]
    list_passes: bool,

    /// Optimization level: -O0 (none), -O1, -O2 (the default).
    #[arg(short = 'O', value_name = "LEVEL", default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=2))]
    opt: u8,

    /// Skip the IR verifier between passes (it still runs on IR read from a file).
    #[arg(long, hide = true)]
    no_verify: bool,

    /// Validate the machine IR after every backend pass (always on in debug builds, and with
    /// KC_VERIFY_MIR=1); MIR read from a file is always validated.
    #[arg(long)]
    verify_mir: bool,

    /// Verify the IR after every IR pass (always on in debug builds, and with
    /// KC_VERIFY_EACH=1); otherwise it is verified after the front end, after the optimizer and
    /// before the backend.
    #[arg(long)]
    verify_each: bool,

    /// After reading IR and after every IR pass (every point --print-ir-after-all prints),
    /// parse the IR's generic form with MLIR, kc's dialects registered from their ODS
    /// definitions, and run MLIR's verifier; an MLIR error fails the run with the pass and
    /// MLIR's message. Needs kc built with the `mlir` feature (LLVM/MLIR 22).
    #[arg(long)]
    verify_with_mlir: bool,

    /// Treat the input as this language regardless of its extension.
    #[arg(short = 'x', value_enum, value_name = "LANG")]
    lang: Option<LangArg>,

    /// Colored diagnostics: auto (when stderr is a terminal), always, never.
    #[arg(long, value_name = "WHEN", default_value = "auto", value_parser = ["auto", "always", "never"])]
    color: String,

    /// Warning options, like clang's: -W<name> enables a warning, -Wno-<name> disables it,
    /// -Werror makes warnings errors, -Werror=<name> one of them, -Wno-error=<name> exempts
    /// one. Warnings: simt-deadlock, unknown-warning-option.
    #[arg(short = 'W', value_name = "WARNING", allow_hyphen_values = true)]
    warning: Vec<String>,

    /// Diagnostic options, like clang's: -ferror-limit=N prints at most N errors (default 20,
    /// 0: no limit) and then a note saying how many more there were.
    #[arg(short = 'f', value_name = "OPTION")]
    flags: Vec<String>,

    /// Suppress all warnings.
    #[arg(short = 'w')]
    no_warnings: bool,

    /// A divergent spin loop that deadlocks under lock-step execution (the lane that wins a
    /// lock waits at the loop exit for the lanes spinning on it): repair it and warn (the
    /// default: the loop's back edge goes through a switch block after the release), only
    /// warn, or do neither.
    #[arg(long, value_enum, value_name = "MODE", default_value = "repair")]
    simt_deadlock: pipeline::SimtDeadlock,

    /// How divergent branches become gfx942 code: EXEC masking (the default, as LLVM), or
    /// fork-join: divergent ifs with the hardware branch stack (s_cbranch_i_fork,
    /// s_cbranch_join), loops with EXEC masking.
    #[arg(long, value_enum, value_name = "SCHEME", default_value = "exec-mask")]
    divergence: pipeline::DivergenceArg,

    /// With --divergence=fork-join: ifs nested deeper than this many fork regions keep EXEC
    /// masking (1 to 6; the hardware stack holds 6 entries, 4 SGPRs each).
    #[arg(long, value_name = "N", default_value = "6", value_parser = clap::value_parser!(u8).range(1..=6))]
    fork_depth: u8,

    /// Give register allocation at most N SGPRs (1 to 102, the default): a test hook that
    /// forces SGPR spilling (to VGPR lanes) and rematerialization on small kernels.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=102))]
    max_sgprs: Option<u16>,

    /// Give register allocation at most N VGPRs (1 to 256, the default): a test hook that
    /// forces VGPR spilling (to scratch) on small kernels.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    max_vgprs: Option<u16>,
}

/// The `-f` options: `-ferror-limit=N` (the last one wins); anything else is a usage error.
fn error_limit(flags: &[String]) -> Result<usize, String> {
    let mut limit = crate::diag::DEFAULT_ERROR_LIMIT;
    for f in flags {
        let Some(n) = f.strip_prefix("error-limit=") else {
            return Err(format!("unknown option `-f{f}` (kc knows -ferror-limit=N)"));
        };
        limit = n.parse().map_err(|_| {
            format!("-ferror-limit=`{n}`: expected a number of errors (0: no limit)")
        })?;
    }
    Ok(limit)
}

/// Which ops `--generic` prints in MLIR's generic form.
#[derive(Copy, Clone, Debug, ValueEnum)]
pub(crate) enum GenericArg {
    /// Every op.
    All,
    /// kc's own ops (kernel, conv); builtin, arith and cf keep their MLIR custom form.
    Kc,
}

/// Runs kc with the process arguments; returns the exit code.
pub fn main() -> i32 {
    main_with(None)
}

/// [`main`], with MLIR's verifier for `--verify-with-mlir` when kc is built with it (the `kc`
/// binary's `mlir` feature; `None`: the option is a usage error).
pub fn main_with(mlir: Option<pipeline::MlirVerifier>) -> i32 {
    // `kc run ...` has its own flags (`run.rs`); `kc ./run` compiles a file named `run`.
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if argv.get(1).is_some_and(|a| a == "run") {
        return crate::run::main(&argv[2..]);
    }
    let cli = match Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => return output::clap(&e),
    };
    run(cli, mlir)
}

fn run(cli: Cli, mlir: Option<pipeline::MlirVerifier>) -> i32 {
    if cli.verify_with_mlir && mlir.is_none() {
        return output::error(
            "--verify-with-mlir: this kc was built without the `mlir` feature \
             (cargo build --features kc-compiler/mlir, with LLVM/MLIR 22 installed)",
            2,
        );
    }
    if cli.list_passes {
        return match output::stdout(&pass_manager::list()) {
            Ok(()) => 0,
            Err(e) => output::fail(&e),
        };
    }
    let Some(input_path) = cli.input.clone() else {
        return output::error("no input file (see kc --help)", 2);
    };
    if cli.explain.is_some() && (cli.assembly || cli.emit.is_some_and(|e| e != Stage::Uniformity)) {
        return output::error("--explain prints an explanation; it cannot be combined with -S or --emit other than uniformity", 2);
    }
    if let Some(bad) = cli
        .print_ir_after
        .iter()
        .find(|n| !pass_manager::is_dump_point(n))
    {
        return output::error(
            &format!(
                "--print-ir-after: unknown pass `{bad}` (passes: lower-ast, {})",
                pass_manager::names()
            ),
            2,
        );
    }
    let (name, text) = match read_input(&input_path) {
        Ok(x) => x,
        Err(failure) => return failure.report(),
    };
    let lang = cli
        .lang
        .unwrap_or_else(|| crate::input::language(&input_path, &text));
    let is_mir = matches!(lang, LangArg::Mir);
    // On MIR input, --passes names backend passes and combines with --emit=mir or -S.
    let emit_ok = |e: Option<Stage>| e.is_none_or(|e| matches!(e, Stage::Mir | Stage::Asm));
    if cli.passes.is_some()
        && (cli.explain.is_some()
            || (!is_mir && (cli.assembly || cli.emit.is_some()))
            || (is_mir && !emit_ok(cli.emit)))
    {
        return output::error(
            "--passes prints the IR after the passes it names; it cannot be combined with -S, \
             --emit or --explain (on MIR input: with -S or --emit=mir)",
            2,
        );
    }
    let (passes, mir_passes) = match cli.passes.as_deref() {
        None => (None, None),
        Some(list) if is_mir => match pass_manager::parse_mir_list(list) {
            Ok(p) => (None, Some(p)),
            Err(msg) => return output::error(&msg, 2),
        },
        Some(list) => match pass_manager::parse_list(list) {
            Ok(p) => (Some(p), None),
            Err(msg) => return output::error(&msg, 2),
        },
    };
    let stage = match cli.emit {
        _ if cli.explain.is_some() => Stage::Explain,
        Some(stage) => stage,
        // `--passes` on MIR prints the MIR unless -S asks for the listing.
        None if mir_passes.is_some() && !cli.assembly => Stage::Mir,
        None => Stage::Asm,
    };
    let color = match cli.color.as_str() {
        "always" => true,
        "never" => false,
        _ => std::io::stderr().is_terminal(),
    };
    let error_limit = match error_limit(&cli.flags) {
        Ok(n) => n,
        Err(msg) => return output::error(&msg, 2),
    };
    let (policy, unknown) = crate::warnings::Policy::parse(&cli.warning, cli.no_warnings);
    let (rendered, error) = crate::warnings::render(&unknown, &policy, None, None);
    if error {
        return output::diagnostics(&rendered, 1);
    }
    if let Err(e) = output::stderr(&rendered) {
        return output::fail(&e);
    }
    let opts = Options {
        stage,
        generic: match cli.generic {
            None => Generic::None,
            Some(GenericArg::All) => Generic::All,
            Some(GenericArg::Kc) => Generic::Kc,
        },
        locations: !cli.no_locs,
        print_ir_after_all: cli.print_ir_after_all,
        verify: !cli.no_verify,
        color,
        explain: cli.explain,
        opt_level: cli.opt,
        print_ir_after: cli.print_ir_after,
        time_passes: cli.time_passes,
        passes: passes.clone(),
        mir_passes,
        verify_mir: cli.verify_mir || pipeline::verify_mir_default(),
        verify_each: cli.verify_each || pipeline::verify_each_default(),
        one_shot: true,
        simt_deadlock: cli.simt_deadlock,
        divergence: cli.divergence.with_depth(cli.fork_depth),
        budget: pipeline::Budget::limited(cli.max_sgprs, cli.max_vgprs),
        warnings: policy,
        mlir_verifier: mlir.filter(|_| cli.verify_with_mlir),
        error_limit,
    };
    let input = Input {
        name,
        text,
        is_ir: matches!(lang, LangArg::Mlir),
    };
    // Without -S or --emit, an output file gets an object assembled by llvm-mc-22.
    let object = stage == Stage::Asm
        && cli.passes.is_none()
        && !cli.assembly
        && cli.emit.is_none()
        && cli.output != "-";
    let result = if is_mir {
        pipeline::run_mir(&input, &opts)
    } else {
        pipeline::run(&input, &opts)
    };
    match result {
        Ok(out) if object => match assemble(&out, &cli.output) {
            Ok(()) => 0,
            Err(msg) => output::error(&msg, 2),
        },
        Ok(out) => match write_output(&cli.output, &out) {
            Ok(()) => 0,
            Err(msg) => output::error(&msg, 2),
        },
        Err(failure) => failure.report(),
    }
}

/// Reports a failed run on stderr; returns its exit code.
fn write_output(path: &str, text: &str) -> Result<(), String> {
    if path == "-" {
        return output::stdout(text).map_err(|e| e.to_string());
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write `{path}`: {e}"))
}

/// Writes an object file by running `llvm-mc-22` on the listing. A failure names the cause:
/// an output path that is a directory, llvm-mc-22 missing, or llvm-mc-22's own message.
fn assemble(listing: &str, path: &str) -> Result<(), String> {
    if std::path::Path::new(path).is_dir() {
        return Err(format!("cannot write `{path}`: it is a directory"));
    }
    let mc = ["llvm-mc-22", "/usr/lib/llvm-22/bin/llvm-mc"]
        .into_iter()
        .find(|t| {
            std::process::Command::new(t)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .ok_or("writing an object needs llvm-mc-22 (install llvm-22), or use -S for assembly")?;
    let mut child = std::process::Command::new(mc)
        .args([
            "-triple=amdgcn-amd-amdhsa",
            "-mcpu=gfx942",
            "-filetype=obj",
            "-o",
            path,
            "-",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {mc}: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    // Written from another thread while this one collects llvm-mc's messages, so neither
    // pipe can fill up and stall the other side.
    let output = std::thread::scope(|s| {
        let writer = s.spawn(move || stdin.write_all(listing.as_bytes()));
        let output = child.wait_with_output();
        (writer.join(), output)
    });
    let out = match output {
        (_, Err(e)) => return Err(format!("{mc} failed: {e}")),
        (_, Ok(out)) => out,
    };
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first: Vec<&str> = stderr.lines().take(6).collect();
    let why = match out.status.code() {
        Some(c) => format!("exit code {c}"),
        None => out.status.to_string(),
    };
    Err(format!(
        "{mc} could not write `{path}` ({why}){}{}",
        if first.is_empty() { "" } else { ":\n" },
        first.join("\n")
    ))
}

#[cfg(test)]
mod mlir_option_tests {
    use super::*;

    /// Without MLIR's verifier (kc built without the `mlir` feature) the option is a usage
    /// error, before any input is read.
    #[test]
    fn verify_with_mlir_needs_the_feature() {
        let cli = Cli::try_parse_from(["kc", "missing.k", "--verify-with-mlir"]).unwrap();
        assert_eq!(run(cli, None), 2);
    }
}
