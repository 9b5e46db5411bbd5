//! The SIMT-deadlock step of the pipeline (`-Wsimt-deadlock`, `--simt-deadlock`), right
//! after the front end: `analysis::simt_deadlock` finds the spin loops, each becomes a warning
//! at the loop with notes at the reads it spins on and the writes that would release it; in
//! `repair` mode `transforms::simt_repair` then moves each loop's back edge past the release
//! and the warning says where (or why it could not). Also the warnings' form in the JSON
//! uniformity report. Depends on the warnings and the dialect only (the pipeline times it,
//! verifies what it changed and reports the warnings).

use crate::warnings;
use kc_dialect::{transforms, Ir, Op};

/// `--simt-deadlock`: what kc does with a spin loop that deadlocks under lock-step execution
/// (`analysis::simt_deadlock`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SimtDeadlock {
    /// Warn and repair it (`transforms::simt_repair`): the default.
    Repair,
    /// Warn only.
    Warn,
    /// Neither look nor warn.
    Off,
}

/// The spin loops of every kernel as `-Wsimt-deadlock` warnings, each at the loop with notes
/// at the reads it spins on and the writes that would release it; with `repair`,
/// `transforms::simt_repair` then moves each loop's back edge past the release, and the
/// warning says where (or why it could not). Returns the warnings and whether the IR changed
/// (the caller verifies it then, with the token rules). `analyses` is the uniformity analysis
/// of each CF kernel of `ir` as it is now (what `convergence_errors` computed).
pub fn detect_and_repair(
    ir: &mut Ir,
    mode: SimtDeadlock,
    analyses: &[(Op, kc_dialect::analysis::Uniformity)],
) -> (Vec<warnings::Diag>, bool) {
    use kc_dialect::analysis::simt_deadlock::detect;
    if mode == SimtDeadlock::Off {
        return (Vec::new(), false);
    }
    let mut diags: Vec<(kc_dialect::Block, warnings::Diag)> = Vec::new();
    for (func, u) in analyses {
        let func = *func;
        for l in detect(ir, func, u) {
            diags.push((l.header, simt_warning(ir, &l)));
        }
    }
    let mut changed = false;
    if mode == SimtDeadlock::Repair && !diags.is_empty() {
        let mut outcomes = Vec::new();
        for func in ir.kernels() {
            outcomes.extend(transforms::simt_repair(ir, func));
        }
        for o in outcomes {
            let Some((_, d)) = diags.iter_mut().find(|(h, _)| *h == o.header) else {
                continue;
            };
            let (loc, note) = match o.result {
                Ok(loc) => {
                    changed = true;
                    (
                        loc,
                        "repaired: the loop's back edge now goes through a switch block here, \
                         so a lane that leaves the loop runs this far, release included, while \
                         the others wait, and they retry after it (--simt-deadlock=warn keeps \
                         the loop as written)"
                            .to_string(),
                    )
                }
                Err(why) => (d.loc, format!("kc cannot repair this loop: {why}")),
            };
            d.notes.push((loc, note));
        }
    }
    (diags.into_iter().map(|(_, d)| d).collect(), changed)
}

/// The warning about spin loop `l`.
fn simt_warning(ir: &Ir, l: &kc_dialect::analysis::simt_deadlock::SpinLoop) -> warnings::Diag {
    let at = ir
        .block_ops(l.header)
        .map(|o| ir.ops[o].loc)
        .find(|loc| loc.is_known())
        .unwrap_or(kc_dialect::Loc::UNKNOWN);
    let what = |op: Op| {
        kc_dialect::analysis::memory_place::base_of(ir, op)
            .and_then(|b| ir.value_name(b))
            .map_or("shared memory".to_string(), |n| format!("`{n}`"))
    };
    let mut d = warnings::Diag::warning(
        "simt-deadlock",
        at,
        "this loop can deadlock under lock-step (SIMT) execution: its lanes spin on shared \
         memory that only a lane outside the loop writes, and lanes that leave the loop wait \
         at its exit for the ones still spinning"
            .to_string(),
    );
    for &r in &l.reads {
        d = d.with_note(
            ir.ops[r].loc,
            format!("the loop's exit depends on this read of {}", what(r)),
        );
    }
    for w in &l.writes {
        let note = match w.beside {
            None => format!(
                "this write to {} may release the spinning lanes, but only lanes that have \
                 left the loop reach it",
                what(w.write)
            ),
            Some(b) => format!(
                "this write to {} may release the spinning lanes, but it is in the other arm \
                 of the divergent branch at {}, which runs after the loop's arm",
                what(w.write),
                line_col(ir.ops[b].loc)
            ),
        };
        d = d.with_note(ir.ops[w.write].loc, note);
    }
    d
}

/// `line:col` of a location.
fn line_col(loc: kc_dialect::Loc) -> String {
    format!("{}:{}", loc.line, loc.col)
}

/// The reported warnings as the JSON report's `warnings`.
pub(crate) fn warnings_json(
    ir: &Ir,
    diags: &[warnings::Diag],
) -> Vec<crate::report::json::WarningJson> {
    use crate::report::json::{NoteJson, WarningJson};
    let at = |l: kc_dialect::Loc| {
        if l.is_known() {
            (
                Some(ir.file_name(l.file).to_string()),
                Some(l.line),
                Some(l.col),
            )
        } else {
            (None, None, None)
        }
    };
    diags
        .iter()
        .map(|d| {
            let (file, line, col) = at(d.loc);
            WarningJson {
                name: d.warning.to_string(),
                message: d.message.clone(),
                file,
                line,
                col,
                notes: d
                    .notes
                    .iter()
                    .map(|(l, m)| {
                        let (file, line, col) = at(*l);
                        NoteJson {
                            message: m.clone(),
                            file,
                            line,
                            col,
                        }
                    })
                    .collect(),
            }
        })
        .collect()
}
