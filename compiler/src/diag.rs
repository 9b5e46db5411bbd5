//! Source files and diagnostics.
//!
//! Every user error in the front end is a [`Diagnostic`]: one message, a
//! primary labelled span, optional secondary labels and notes. Rendering uses
//! codespan-reporting's rich style (`file.k:LINE:COL`, the source line and
//! carets), with or without ANSI colors.

pub use crate::source::SourceFile;
use crate::source::Span;
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files;
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
}

/// How many errors `kc` prints before it stops (`-ferror-limit=N`, as clang; 0: no limit).
pub const DEFAULT_ERROR_LIMIT: usize = 20;

/// Renders diagnostics for `file` in rich style; ANSI colors only if `color`.
pub fn render(file: &SourceFile, diags: &[Diagnostic], color: bool) -> String {
    render_limited(file, diags, color, 0)
}

/// [`render`], stopping after `limit` diagnostics (0: no limit) with a note saying how many
/// more there were, as clang's `-ferror-limit`.
pub fn render_limited(
    file: &SourceFile,
    diags: &[Diagnostic],
    color: bool,
    limit: usize,
) -> String {
    let shown = if limit == 0 {
        diags.len()
    } else {
        diags.len().min(limit)
    };
    let config = term::Config::default();
    let columns = std::cell::Cell::new((usize::MAX, 0, 0));
    let mut out = String::new();
    let mut write = |diag: &cs::Diagnostic<()>, view: &View<'_>, plain: &str| {
        let bytes = if color {
            let mut w = termcolor::Ansi::new(Vec::new());
            emit(&mut w, &config, view, diag, plain);
            w.into_inner()
        } else {
            let mut w = termcolor::NoColor::new(Vec::new());
            emit(&mut w, &config, view, diag, plain);
            w.into_inner()
        };
        out.push_str(&String::from_utf8_lossy(&bytes));
    };
    for d in &diags[..shown] {
        let view = View::new(file, d, &columns);
        write(&view.diagnostic(d), &view, &d.message);
    }
    if shown < diags.len() {
        let view = View::new(file, &Diagnostic::error("", Span::default(), ""), &columns);
        let note = cs::Diagnostic::note()
            .with_message("too many errors emitted, stopping now")
            .with_notes(vec![format!(
                "{} more not shown; -ferror-limit=0 shows them all",
                diags.len() - shown
            )]);
        write(&note, &view, "too many errors emitted, stopping now");
    }
    out
}

fn emit(
    w: &mut dyn termcolor::WriteColor,
    config: &term::Config,
    files: &View<'_>,
    diag: &cs::Diagnostic<()>,
    plain: &str,
) {
    // Rendering only fails on spans outside the file, which would be a front
    // end bug; fall back to the plain message rather than losing it.
    if term::emit(w, config, files, diag).is_err() {
        let _ = writeln!(w, "error: {plain}");
    }
}

/// Source lines longer than this many characters are cut to windows around the labels.
const MAX_LINE: usize = 120;
/// Characters a window keeps before a label's start or end...
const BEFORE: usize = 40;
/// ...and after it.
const AFTER: usize = 60;
/// What stands for the text cut out of a long line.
const ELLIPSIS: &str = "...";

/// A file name as diagnostics print it: control characters (a newline in a file name would
/// start a line that looks like a diagnostic of its own) escaped as Rust does.
pub fn display_name(name: &str) -> std::borrow::Cow<'_, str> {
    if name.chars().any(char::is_control) {
        name.chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect::<String>()
            .into()
    } else {
        name.into()
    }
}

/// The part of source line `line` a one-caret diagnostic shows for byte `at`, and the
/// character of it the caret goes under: lines up to [`MAX_LINE`] characters whole, longer
/// ones cut to a window around `at` with [`ELLIPSIS`] for the cut ends.
pub fn line_window(line: &str, at: usize) -> (String, usize) {
    let at = floor_boundary(line, at.min(line.len()));
    if line.len() <= MAX_LINE || line.chars().nth(MAX_LINE).is_none() {
        return (line.to_string(), line[..at].chars().count());
    }
    let mut start = back_chars(line, at, BEFORE);
    let mut end = fwd_chars(line, at, AFTER);
    if start <= ELLIPSIS.len() {
        start = 0;
    }
    if end + ELLIPSIS.len() >= line.len() {
        end = line.len();
    }
    let mut text = String::new();
    if start > 0 {
        text.push_str(ELLIPSIS);
    }
    let caret = text.len() + line[start..at].chars().count();
    text.push_str(&line[start..end]);
    if end < line.len() {
        text.push_str(ELLIPSIS);
    }
    (text, caret)
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The byte offset `n` characters before `from` in `s` (0 if there are fewer).
fn back_chars(s: &str, from: usize, n: usize) -> usize {
    if n == 0 {
        return from;
    }
    s[..from]
        .char_indices()
        .rev()
        .nth(n - 1)
        .map_or(0, |(i, _)| i)
}

/// The byte offset `n` characters after `from` in `s` (its length if there are fewer).
fn fwd_chars(s: &str, from: usize, n: usize) -> usize {
    s[from..]
        .char_indices()
        .nth(n)
        .map_or(s.len(), |(i, _)| from + i)
}

/// One kept piece of a source line: the original byte range and where it starts in the view.
struct Piece {
    orig: std::ops::Range<usize>,
    view: usize,
}

/// What codespan renders for one diagnostic: the lines its labels touch, long ones cut to
/// windows around the label ends (so a diagnostic costs the size of its labels' lines up to
/// [`MAX_LINE`], not the whole line once per error), with the original line numbers and
/// columns.
struct View<'a> {
    file: &'a SourceFile,
    /// The last column computed: (line start, byte offset, characters from the line start),
    /// shared by the views of one rendering.
    columns: &'a std::cell::Cell<(usize, usize, usize)>,
    name: std::borrow::Cow<'a, str>,
    text: String,
    /// Start of each view line in `text`.
    starts: Vec<usize>,
    /// The pieces of each view line, in order.
    pieces: Vec<Vec<Piece>>,
    /// The original index of view line 0.
    first: usize,
}

impl<'a> View<'a> {
    fn new(
        file: &'a SourceFile,
        d: &Diagnostic,
        columns: &'a std::cell::Cell<(usize, usize, usize)>,
    ) -> View<'a> {
        let len = file.text.len();
        let labels: Vec<(usize, usize)> = std::iter::once(&d.primary)
            .chain(&d.secondary)
            .map(|l| {
                let s = (l.span.start as usize).min(len);
                (s, (l.span.end as usize).clamp(s, len))
            })
            .collect();
        let first = labels
            .iter()
            .map(|&(s, _)| file.line_index(s))
            .min()
            .unwrap_or(0);
        let last = labels
            .iter()
            .map(|&(_, e)| file.line_index(e))
            .max()
            .unwrap_or(0);
        let mut view = View {
            file,
            columns,
            name: display_name(&file.name),
            text: String::new(),
            starts: Vec::new(),
            pieces: Vec::new(),
            first,
        };
        for index in first..=last {
            let range = file.line_range(index);
            let full = &file.text[range.clone()];
            let line = full.trim_end_matches(['\n', '\r']);
            let base = range.start;
            let mut anchors: Vec<usize> = labels
                .iter()
                .flat_map(|&(s, e)| [s, e])
                .filter(|&o| o >= base && o <= base + line.len())
                .map(|o| floor_boundary(line, o - base))
                .collect();
            if anchors.is_empty() {
                anchors.push(0);
            }
            view.push_line(line, base, &mut anchors);
        }
        view
    }

    fn push_line(&mut self, line: &str, base: usize, anchors: &mut [usize]) {
        let line_start = self.text.len();
        self.starts.push(line_start);
        let mut ranges: Vec<std::ops::Range<usize>> = Vec::new();
        if line.len() <= MAX_LINE || line.chars().nth(MAX_LINE).is_none() {
            ranges.push(0..line.len());
        } else {
            anchors.sort_unstable();
            for &a in anchors.iter() {
                let (mut s, mut e) = (back_chars(line, a, BEFORE), fwd_chars(line, a, AFTER));
                // An ellipsis standing for no more text than itself saves nothing.
                if s <= ELLIPSIS.len() {
                    s = 0;
                }
                if e + ELLIPSIS.len() >= line.len() {
                    e = line.len();
                }
                match ranges.last_mut() {
                    // Pieces closer than an ellipsis would save merge.
                    Some(r) if s <= r.end + 2 * ELLIPSIS.len() => r.end = r.end.max(e),
                    _ => ranges.push(s..e),
                }
            }
        }
        let mut pieces = Vec::with_capacity(ranges.len());
        let mut at = 0;
        for r in ranges {
            if r.start > at {
                self.text.push_str(ELLIPSIS);
            }
            pieces.push(Piece {
                orig: base + r.start..base + r.end,
                view: self.text.len(),
            });
            self.text.push_str(&line[r.clone()]);
            at = r.end;
        }
        if at < line.len() {
            self.text.push_str(ELLIPSIS);
        }
        self.text.push('\n');
        self.pieces.push(pieces);
    }

    /// Where original byte `o` is shown: in its piece, or (cut out) at the ellipsis that
    /// stands for it.
    fn map(&self, o: usize) -> usize {
        let index = self.file.line_index(o);
        let Some(pieces) = index
            .checked_sub(self.first)
            .and_then(|i| self.pieces.get(i))
        else {
            return self.text.len();
        };
        let line_start = self.starts[index - self.first];
        let mut shown = line_start;
        for p in pieces {
            if o < p.orig.start {
                return shown;
            }
            if o <= p.orig.end {
                return p.view + (o - p.orig.start);
            }
            shown = p.view + p.orig.len();
        }
        shown
    }

    fn diagnostic(&self, d: &Diagnostic) -> cs::Diagnostic<()> {
        let range = |s: Span| {
            let start = self.map(s.start as usize);
            start..self.map(s.end as usize).max(start)
        };
        let mut labels =
            vec![cs::Label::primary((), range(d.primary.span)).with_message(&d.primary.message)];
        labels.extend(
            d.secondary
                .iter()
                .map(|l| cs::Label::secondary((), range(l.span)).with_message(&l.message)),
        );
        cs::Diagnostic::error()
            .with_message(&d.message)
            .with_labels(labels)
            .with_notes(d.notes.clone())
    }
}

impl<'a> codespan_reporting::files::Files<'a> for View<'_> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, files::Error> {
        Ok(&self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, files::Error> {
        Ok(&self.text)
    }

    fn line_index(&'a self, (): (), byte_index: usize) -> Result<usize, files::Error> {
        Ok(self
            .starts
            .partition_point(|&s| s <= byte_index)
            .saturating_sub(1))
    }

    fn line_number(&'a self, (): (), line_index: usize) -> Result<usize, files::Error> {
        Ok(self.first + line_index + 1)
    }

    /// The column in the original line (in characters, as codespan counts).
    fn column_number(
        &'a self,
        (): (),
        line_index: usize,
        byte_index: usize,
    ) -> Result<usize, files::Error> {
        let pieces = self
            .pieces
            .get(line_index)
            .ok_or(files::Error::LineTooLarge {
                given: line_index,
                max: self.pieces.len().saturating_sub(1),
            })?;
        let orig = pieces
            .iter()
            .find(|p| byte_index <= p.view + p.orig.len())
            .map_or_else(
                || pieces.last().map_or(0, |p| p.orig.end),
                |p| p.orig.start + byte_index.saturating_sub(p.view),
            );
        let start = self.file.line_range(self.first + line_index).start;
        let orig = orig.max(start);
        // Counting from the last column asked for on the same line keeps many diagnostics
        // on one long line (sorted by position) linear in the line's length.
        let (from, chars) = match self.columns.get() {
            (s, b, c) if s == start && b <= orig => (b, c),
            _ => (start, 0),
        };
        let chars = chars + self.file.text[from..orig].chars().count();
        self.columns.set((start, orig, chars));
        Ok(chars + 1)
    }

    fn line_range(
        &'a self,
        (): (),
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, files::Error> {
        let start = *self
            .starts
            .get(line_index)
            .ok_or(files::Error::LineTooLarge {
                given: line_index,
                max: self.starts.len().saturating_sub(1),
            })?;
        let end = self
            .starts
            .get(line_index + 1)
            .copied()
            .unwrap_or(self.text.len());
        Ok(start..end)
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

#[cfg(test)]
mod window_tests {
    use super::*;

    /// Two labels far apart on one long line: each is shown in its own window, the text
    /// between them is one ellipsis, and the header column is the original one.
    #[test]
    fn long_line_windows() {
        let line = format!(
            "{}AAA{}BBB{}",
            "x".repeat(500),
            "y".repeat(500),
            "z".repeat(500)
        );
        let f = SourceFile::new("w.k", format!("{line}\n"));
        let d = Diagnostic::error("boom", Span::new(f.id, 1003, 1006), "here")
            .with_label(Span::new(f.id, 500, 503), "there");
        let out = render(&f, &[d], false);
        assert!(out.contains("w.k:1:1004"), "{out}");
        let shown = out.lines().find(|l| l.starts_with("1 │")).unwrap();
        assert!(shown.len() < 300, "{shown}");
        assert_eq!(shown.matches(ELLIPSIS).count(), 3, "{shown}");
        assert!(shown.contains("AAA") && shown.contains("BBB"), "{shown}");
        // The carets sit under the labelled text.
        let caret = out.lines().find(|l| l.contains("^^^")).unwrap();
        let at = caret.find("^^^").unwrap();
        assert_eq!(&shown[at..at + 3], "BBB", "{out}");
    }

    #[test]
    fn short_lines_whole_and_limit_note() {
        let f = SourceFile::new("s.k", "a b c\n");
        let ds: Vec<_> = (0..3)
            .map(|i| Diagnostic::error(format!("e{i}"), Span::new(f.id, 2 * i, 2 * i + 1), ""))
            .collect();
        let out = render_limited(&f, &ds, false, 2);
        assert_eq!(out.matches("1 │ a b c\n").count(), 2, "{out}");
        assert!(!out.contains("e2"), "{out}");
        assert!(
            out.contains("too many errors emitted, stopping now"),
            "{out}"
        );
        assert!(out.contains("1 more not shown"), "{out}");
        assert_eq!(
            render_limited(&f, &ds, false, 0).matches("error:").count(),
            3
        );
    }

    #[test]
    fn line_window_caret() {
        let line = "é".repeat(300);
        let (text, caret) = line_window(&line, 200 * 2);
        assert!(text.starts_with(ELLIPSIS) && text.ends_with(ELLIPSIS));
        assert_eq!(caret, ELLIPSIS.len() + BEFORE);
        assert_eq!(line_window("short", 2), ("short".to_string(), 2));
    }
}
