//! Warnings: the table of kc's warnings and the `-W` options that turn them on, off or into
//! errors, like clang's.
//!
//! `-W<name>` enables a warning, `-Wno-<name>` disables it, `-w` disables all of them;
//! `-Werror` makes every enabled warning an error (exit code 1, no output), `-Werror=<name>`
//! only that one, `-Wno-error=<name>` exempts one from `-Werror`. Later options win. An unknown
//! name is itself a warning (`-Wunknown-warning-option`), as in clang, so build scripts written
//! for a newer kc keep working.
//!
//! Rendering (clang's terse form, which FileCheck tests and editors read):
//! `file:line:col: warning: message [-Wname]`, the source line and a caret, then one
//! `file:line:col: note: ...` block per note, each with its own source line.

use crate::source::SourceFile;
use kc_dialect::{Ir, Loc};

/// A warning kc can emit.
pub struct Warning {
    pub name: &'static str,
    /// One line for `--help`.
    pub summary: &'static str,
}

/// Every warning, on by default.
pub const WARNINGS: &[Warning] = &[
    Warning {
        name: "simt-deadlock",
        summary: "a divergent loop spins on shared memory that only a write after it (or \
                  beside it) releases: under lock-step execution it never ends",
    },
    Warning {
        name: "unknown-warning-option",
        summary: "a -W option names no warning kc knows",
    },
];

fn known(name: &str) -> Option<&'static str> {
    WARNINGS.iter().find(|w| w.name == name).map(|w| w.name)
}

/// Which warnings are reported, and which of them are errors.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    /// `-w`: nothing is reported.
    silent: bool,
    disabled: Vec<&'static str>,
    /// `-Werror`.
    all_errors: bool,
    errors: Vec<&'static str>,
    not_errors: Vec<&'static str>,
}

impl Policy {
    /// The policy of the `-W` option values (`no-simt-deadlock`, `error`, `error=NAME`, ...,
    /// without the `-W`) in command-line order, and `-w`; with the warnings about unknown
    /// names, to report like any other (they are subject to the policy too).
    pub fn parse(values: &[String], silent: bool) -> (Policy, Vec<Diag>) {
        let mut p = Policy {
            silent,
            ..Policy::default()
        };
        let mut unknown = Vec::new();
        for v in values {
            let (negated, rest) = match v.strip_prefix("no-") {
                Some(rest) => (true, rest),
                None => (false, v.as_str()),
            };
            if rest == "error" {
                p.all_errors = !negated;
                continue;
            }
            let (is_error, name) = match rest.strip_prefix("error=") {
                Some(name) => (true, name),
                None => (false, rest),
            };
            let Some(name) = known(name) else {
                unknown.push(Diag::warning(
                    "unknown-warning-option",
                    Loc::UNKNOWN,
                    format!("unknown warning option '-W{v}'"),
                ));
                continue;
            };
            let set = |list: &mut Vec<&'static str>, on: bool| {
                list.retain(|&n| n != name);
                if on {
                    list.push(name);
                }
            };
            match (is_error, negated) {
                // -Wname / -Wno-name
                (false, _) => set(&mut p.disabled, negated),
                // -Werror=name (also enables it) / -Wno-error=name
                (true, false) => {
                    set(&mut p.errors, true);
                    set(&mut p.not_errors, false);
                    set(&mut p.disabled, false);
                }
                (true, true) => {
                    set(&mut p.errors, false);
                    set(&mut p.not_errors, true);
                }
            }
        }
        (p, unknown)
    }

    /// Nothing reported (`-w`): the policy of library callers (`Options::new`), which
    /// compile many kernels in one process and must not write to its stderr.
    pub fn silent() -> Policy {
        Policy {
            silent: true,
            ..Policy::default()
        }
    }

    /// Whether warning `name` is reported.
    pub fn enabled(&self, name: &str) -> bool {
        !self.silent && !self.disabled.contains(&name)
    }

    /// Whether warning `name`, when reported, is an error.
    pub fn is_error(&self, name: &str) -> bool {
        self.errors.contains(&name) || (self.all_errors && !self.not_errors.contains(&name))
    }
}

/// A warning (or a note-carrying diagnostic) located by IR locations.
#[derive(Clone, Debug)]
pub struct Diag {
    pub warning: &'static str,
    pub loc: Loc,
    pub message: String,
    /// Notes, each at its own location (unknown: no location printed).
    pub notes: Vec<(Loc, String)>,
}

impl Diag {
    pub fn warning(warning: &'static str, loc: Loc, message: String) -> Diag {
        Diag {
            warning,
            loc,
            message,
            notes: Vec::new(),
        }
    }

    pub fn with_note(mut self, loc: Loc, note: String) -> Diag {
        self.notes.push((loc, note));
        self
    }
}

/// The warnings the policy reports, rendered (as errors where it says so), and whether any is
/// an error. `ir` names the files of the locations (without it, every location is unknown and
/// the line starts with `kc:`, as for command-line problems).
pub fn render(
    diags: &[Diag],
    policy: &Policy,
    ir: Option<&Ir>,
    file: Option<&SourceFile>,
) -> (String, bool) {
    let mut out = String::new();
    let mut error = false;
    for d in diags.iter().filter(|d| policy.enabled(d.warning)) {
        let (severity, flag) = if policy.is_error(d.warning) {
            error = true;
            ("error", format!("-Werror,-W{}", d.warning))
        } else {
            ("warning", format!("-W{}", d.warning))
        };
        let message = format!("{} [{flag}]", d.message);
        out.push_str(&located(ir, file, d.loc, severity, &message));
        for (loc, note) in &d.notes {
            out.push_str(&located(ir, file, *loc, "note", note));
        }
    }
    (out, error)
}

/// `file:line:col: severity: message`, then the source line and a caret under the column when
/// the location is in `file`; the input's name alone when the location is unknown.
pub fn located(
    ir: Option<&Ir>,
    file: Option<&SourceFile>,
    loc: Loc,
    severity: &str,
    message: &str,
) -> String {
    let (Some(ir), Some(file)) = (ir.filter(|_| loc.is_known()), file) else {
        let at = file.map_or("kc", |f| f.name.as_str());
        return format!("{at}: {severity}: {message}\n");
    };
    let name = ir.file_name(loc.file);
    if name == file.name {
        return located_in(file, (loc.line, loc.col), severity, message);
    }
    format!(
        "{}:{}:{}: {severity}: {message}\n",
        crate::diag::display_name(name),
        loc.line,
        loc.col
    )
}

/// `file:line:col: severity: message` at a 1-based line and byte column of `file`, then the
/// source line and a caret under the column.
pub fn located_in(
    file: &SourceFile,
    (line, col): (u32, u32),
    severity: &str,
    message: &str,
) -> String {
    let mut out = format!(
        "{}:{line}:{col}: {severity}: {message}\n",
        crate::diag::display_name(&file.name),
    );
    let range = file.line_range(line.saturating_sub(1) as usize);
    if !range.is_empty() {
        let text = file.text[range].trim_end_matches(['\n', '\r']);
        // A long line is cut to a window around the column (kc's columns count bytes).
        let (shown, caret) = crate::diag::line_window(text, col.saturating_sub(1) as usize);
        out.push_str(&format!("  {shown}\n  {}^\n", " ".repeat(caret)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(flags: &[&str], silent: bool) -> (Policy, usize) {
        let flags: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
        let (p, unknown) = Policy::parse(&flags, silent);
        (p, unknown.len())
    }

    #[test]
    fn options_like_clang() {
        let (p, _) = policy(&[], false);
        assert!(p.enabled("simt-deadlock") && !p.is_error("simt-deadlock"));
        let (p, _) = policy(&["no-simt-deadlock"], false);
        assert!(!p.enabled("simt-deadlock"));
        let (p, _) = policy(&["no-simt-deadlock", "simt-deadlock"], false);
        assert!(p.enabled("simt-deadlock"), "later options win");
        let (p, _) = policy(&["error"], false);
        assert!(p.is_error("simt-deadlock") && p.is_error("unknown-warning-option"));
        let (p, _) = policy(&["error", "no-error=simt-deadlock"], false);
        assert!(!p.is_error("simt-deadlock") && p.is_error("unknown-warning-option"));
        let (p, _) = policy(&["no-simt-deadlock", "error=simt-deadlock"], false);
        assert!(p.enabled("simt-deadlock") && p.is_error("simt-deadlock"));
        let (p, _) = policy(&["error", "no-error"], false);
        assert!(!p.is_error("simt-deadlock"));
        let (p, _) = policy(&[], true);
        assert!(!p.enabled("simt-deadlock"), "-w");
    }

    #[test]
    fn unknown_names_warn() {
        let (_, unknown) = policy(&["no-such-thing", "error=nope", "simt-deadlock"], false);
        assert_eq!(unknown, 2);
    }
}
