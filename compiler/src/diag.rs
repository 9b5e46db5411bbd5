//! Source files and diagnostics.
//!
//! Every user error in the front end is a [`Diagnostic`]: one message, a
//! primary labelled span, optional secondary labels and notes. Rendering uses
//! codespan-reporting's rich style (`file.k:LINE:COL`, the source line and
//! carets), with or without ANSI colors.

pub use crate::source::SourceFile;
use crate::source::Span;
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};

/// A message attached to a span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// A front-end error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub message: String,
    pub primary: Label,
    pub secondary: Vec<Label>,
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// An error at `span` whose primary label is `label` (may be empty).
    pub fn error(message: impl Into<String>, span: Span, label: impl Into<String>) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            primary: Label {
                span,
                message: label.into(),
            },
            secondary: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.secondary.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// `LINE:COL: message`, handy for tests and terse output.
    pub fn short(&self, file: &SourceFile) -> String {
        let (l, c) = file.line_col(self.primary.span.start);
        format!("{l}:{c}: {}", self.message)
    }

    fn to_codespan(&self) -> cs::Diagnostic<()> {
        let range = |s: Span| s.start as usize..s.end as usize;
        let mut labels =
            vec![cs::Label::primary((), range(self.primary.span))
                .with_message(&self.primary.message)];
        labels.extend(
            self.secondary
                .iter()
                .map(|l| cs::Label::secondary((), range(l.span)).with_message(&l.message)),
        );
        cs::Diagnostic::error()
            .with_message(&self.message)
            .with_labels(labels)
            .with_notes(self.notes.clone())
    }
}

/// Renders diagnostics for `file` in rich style; ANSI colors only if `color`.
pub fn render(file: &SourceFile, diags: &[Diagnostic], color: bool) -> String {
    let files = SimpleFile::new(file.name.as_str(), file.text.as_str());
    let config = term::Config::default();
    let mut out = String::new();
    for d in diags {
        let diag = d.to_codespan();
        let bytes = if color {
            let mut w = termcolor::Ansi::new(Vec::new());
            emit(&mut w, &config, &files, &diag, d);
            w.into_inner()
        } else {
            let mut w = termcolor::NoColor::new(Vec::new());
            emit(&mut w, &config, &files, &diag, d);
            w.into_inner()
        };
        out.push_str(&String::from_utf8_lossy(&bytes));
    }
    out
}

fn emit(
    w: &mut dyn termcolor::WriteColor,
    config: &term::Config,
    files: &SimpleFile<&str, &str>,
    diag: &cs::Diagnostic<()>,
    plain: &Diagnostic,
) {
    // Rendering only fails on spans outside the file, which would be a front
    // end bug; fall back to the plain message rather than losing it.
    if term::emit(w, config, files, diag).is_err() {
        let _ = writeln!(w, "error: {}", plain.message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_and_render() {
        let f = SourceFile::new("t.k", "ab\ncd\n");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        assert_eq!(f.line_col(4), (2, 2));
        let d = Diagnostic::error("boom", Span::new(f.id, 3, 5), "here").with_note("a note");
        let out = render(&f, &[d], false);
        assert!(out.contains("error: boom"), "{out}");
        assert!(out.contains("t.k:2:1"), "{out}");
        assert!(out.contains("^^ here"), "{out}");
        assert!(out.contains("= a note"), "{out}");
    }
}
#[cfg(test)]
mod render_tests {
    use super::*;

    /// The exact rendered form, so the lead's FileCheck tests can rely on it.
    #[test]
    fn rendered_snapshot() {
        let f = SourceFile::new("bad.k", "kernel k() {\n    let x = 1;\n    x = 2;\n}\n");
        let m = crate::parse::parse(&f).unwrap();
        let d = crate::check::check(&f, &m).unwrap_err();
        let expected = "\
error: cannot assign to immutable binding `x`
  ┌─ bad.k:3:5
  │
2 │     let x = 1;
  │         - `x` is declared here as a `let` binding
3 │     x = 2;
  │     ^ cannot assign twice to an immutable binding
  │
  = declare it with `var` to make it mutable

";
        assert_eq!(render(&f, &d, false), expected);
        assert!(render(&f, &d, true).contains("\u{1b}["));
    }
}
