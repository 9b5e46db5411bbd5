//! What runs at the pipeline's checkpoints: the IR dumps of `--print-ir-after`, the IR
//! verifier and the token rules (on IR read from a file, a failure is the user's error; after
//! a pass, a compiler bug reported with the IR), MLIR's verifier (`--verify-with-mlir`), and
//! the MIR dumps and validator after backend passes.

use super::{print, Failure, Options};
use crate::diag::SourceFile;
use crate::warnings;
use kc_backend::mir::{self, MirModule};
use kc_dialect::text::{self, PrintOptions};
use kc_dialect::verify::{self, VerifyError};
use kc_dialect::verify_tokens::verify_tokens;
use kc_dialect::{Ir, Op, Opcode};

/// Dumps the IR after `pass` when the options ask for it, and hands it to MLIR's verifier
/// with `--verify-with-mlir`.
pub(crate) fn dump_after_pass(ir: &Ir, opts: &Options, pass: &str) -> Result<(), Failure> {
    if opts.print_ir_after_all || opts.print_ir_after.iter().any(|p| p == pass) {
        let dump = format!(
            "// -----// IR Dump After {pass} //----- //\n{}\n",
            print(ir, opts)
        );
        crate::output::stderr(&dump).map_err(|e| Failure::Usage(e.to_string()))?;
    }
    verify_with_mlir(ir, opts, pass)
}

/// `--verify-with-mlir`: MLIR parses and verifies the IR after `pass` in the form MLIR reads
/// (kc's own ops generic, `arith` and `cf` in MLIR's custom syntax; with locations, so its
/// diagnostics point into the source); its errors fail the run.
pub(super) fn verify_with_mlir(ir: &Ir, opts: &Options, pass: &str) -> Result<(), Failure> {
    let Some(verify) = opts.mlir_verifier else {
        return Ok(());
    };
    // kc's own custom form: the compiled-in definitions carry the same assembly formats as
    // kc's printer (registry/syntax.rs), so MLIR parses what a user reads.
    let custom = text::print(
        ir,
        &PrintOptions {
            locations: true,
            ..PrintOptions::default()
        },
    );
    verify(&custom).map_err(|msg| {
        Failure::Diagnostics(format!(
            "error: MLIR's verifier rejects the IR after `{pass}`:\n{msg}\n"
        ))
    })
}

/// Verifies the IR after `passes` (run in this order since it last verified; not empty); a
/// failure there is a compiler bug, reported with the IR and the passes named.
pub(crate) fn verify_after(
    ir: &Ir,
    file: &SourceFile,
    opts: &Options,
    passes: &[&str],
) -> Result<(), Failure> {
    // With --verify-each the token rules too, after the passes that run once the tokens were
    // checked (every pass after lower-to-cf, whose output the user-facing check reads): such
    // a pass must keep the convergence regions well-nested.
    const BEFORE_TOKEN_CHECK: [&str; 3] = ["lower-ast", "insert-tokens", "lower-to-cf"];
    let tokens = opts.verify_each && !passes.iter().any(|p| BEFORE_TOKEN_CHECK.contains(p));
    let result = verify::verify(ir).and_then(|()| match tokens {
        true => verify_tokens(ir),
        false => Ok(()),
    });
    match result {
        Ok(()) => Ok(()),
        Err(errors) => {
            let after = match passes {
                [pass] => format!("pass `{pass}`"),
                _ => format!(
                    "passes {} (the verifier ran after the last of them; --verify-each \
                     or KC_VERIFY_EACH=1 runs it after every pass)",
                    passes
                        .iter()
                        .map(|p| format!("`{p}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            Err(report(ir, file, opts, Some(&after), &errors, None))
        }
    }
}

/// Dumps the MIR after backend pass `pass` and validates it; a failure is a compiler bug,
/// reported with the MIR, the offending lines marked.
pub(crate) fn after_mir_pass(m: &MirModule, opts: &Options, pass: &str) -> Result<(), Failure> {
    if opts.print_ir_after_all || opts.print_ir_after.iter().any(|p| p == pass) {
        let dump = format!(
            "# -----// IR Dump After {pass} //----- #\n{}\n",
            mir::print::print(m)
        );
        crate::output::stderr(&dump).map_err(|e| Failure::Usage(e.to_string()))?;
    }
    if !(opts.verify && opts.verify_mir) {
        return Ok(());
    }
    let problems = mir::validate::validate(m);
    if problems.is_empty() {
        return Ok(());
    }
    Err(Failure::Diagnostics(format!(
        "internal compiler error: the MIR is invalid after pass `{pass}`\n{}",
        mir::validate::render(m, &problems)
    )))
}

/// Verifies IR read from a file, with the rules of input IR (`verify::check_input`): a
/// failure is the user's error.
pub(super) fn check_ir(
    ir: &Ir,
    file: &SourceFile,
    opts: &Options,
    positions: Option<&text::Positions>,
) -> Result<(), Failure> {
    match verify::verify(ir).and_then(|()| verify::check_input(ir)) {
        Ok(()) => Ok(()),
        Err(errors) => Err(report(ir, file, opts, None, &errors, positions)),
    }
}

/// The token rules, on verified IR. The tokens of the kernels in `inserted` are the compiler's
/// (a violation is a bug of insert-tokens or lower-to-cf); all others are the user's: IR input,
/// or `@` / `heart` in source, where the checker does not enforce every rule (e.g. nesting).
pub(super) fn check_tokens(
    ir: &Ir,
    file: &SourceFile,
    opts: &Options,
    inserted: &[Op],
    positions: Option<&text::Positions>,
) -> Result<(), Failure> {
    let Err(errors) = verify_tokens(ir) else {
        return Ok(());
    };
    let kernel = |op| {
        std::iter::successors(Some(op), |&o| ir.parent_op(o))
            .find(|&o| ir.opcode(o) == Opcode::Func)
    };
    let ours = errors
        .iter()
        .any(|e| kernel(e.op).is_some_and(|k| inserted.contains(&k)));
    Err(report(
        ir,
        file,
        opts,
        ours.then_some("pass `lower-to-cf`"),
        &errors,
        positions,
    ))
}

/// Renders verifier errors; with `after` (what ran last: "pass `NAME`"), as an internal
/// compiler error followed by the IR. An op of IR read from the input that has no `loc(...)`
/// is located where `positions` says it is in the text.
pub(super) fn report(
    ir: &Ir,
    file: &SourceFile,
    opts: &Options,
    after: Option<&str>,
    errors: &[VerifyError],
    positions: Option<&text::Positions>,
) -> Failure {
    let mut out = String::new();
    if let Some(after) = after {
        out.push_str(&format!(
            "internal compiler error: the IR is invalid after {after}\n"
        ));
    }
    for e in errors {
        out.push_str(&render_verify_error(ir, file, opts, e, positions));
    }
    if after.is_some() {
        out.push_str("// IR:\n");
        out.push_str(&print(ir, opts));
    }
    Failure::Diagnostics(out)
}

/// `file:line:col: error: message`, the source line when the location is in the input file,
/// then the IR around the op: the op itself between its neighbours.
fn render_verify_error(
    ir: &Ir,
    file: &SourceFile,
    opts: &Options,
    e: &VerifyError,
    positions: Option<&text::Positions>,
) -> String {
    let mut out = match positions.and_then(|p| p.line_col(e.op)) {
        Some(at) if !e.loc.is_known() => warnings::located_in(file, at, "error", &e.message),
        _ => located_error(ir, file, e.loc, &e.message),
    };
    out.push_str(&ir_context(ir, e.op, opts));
    out
}

/// `file:line:col: error: message` and, when the location is in the input file, the source
/// line with a caret; `file: error: message` without a location.
pub(super) fn located_error(
    ir: &Ir,
    file: &SourceFile,
    loc: kc_dialect::Loc,
    message: &str,
) -> String {
    warnings::located(Some(ir), Some(file), loc, "error", message)
}

fn ir_context(ir: &Ir, op: Op, opts: &Options) -> String {
    let popts = PrintOptions {
        generic: opts.generic,
        locations: false,
        ..PrintOptions::default()
    };
    let mut lines = String::from("  note: in this IR:\n");
    let prev = ir.prev_op(op);
    let next = ir.next_op(op);
    for (o, mark) in [(prev, "   "), (Some(op), ">> "), (next, "   ")] {
        let Some(o) = o else { continue };
        // Structured ops print their whole regions; only the first line is context enough.
        let text = text::print_op(ir, o, &popts);
        let first = text.lines().next().unwrap_or("");
        lines.push_str(&format!("  {mark}{first}\n"));
    }
    lines
}
