//! Parsing of the lit-style directives embedded in a test file.
//!
//! A directive is a comment line (`//`, `;` or `#`, possibly repeated) whose
//! text starts with `RUN:`, `XFAIL:` or `REQUIRES:`. A `RUN:` line whose text
//! ends in `\` continues onto the next `RUN:` line.

/// One (possibly continued) `RUN:` command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunLine {
    /// 1-based line number of the first physical line of the command.
    pub line: usize,
    /// The command text, before substitution.
    pub command: String,
}

/// Everything the harness needs to know about one test file.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Directives {
    pub run: Vec<RunLine>,
    /// `XFAIL:` present: the test is expected to fail.
    pub xfail: bool,
    /// Tools named by `REQUIRES:` (comma separated); the test is skipped when
    /// one is missing.
    pub requires: Vec<String>,
}

/// Strips a leading comment marker (`//`, `;`, `#`, repeated) and returns the
/// comment text, or `None` if the line is not a comment.
fn comment_text(line: &str) -> Option<&str> {
    let trimmed = line.trim_start();
    let text = trimmed.trim_start_matches(['/', ';', '#']);
    if text.len() == trimmed.len() {
        return None;
    }
    Some(text.trim_start())
}

/// Parses the directives of a test file.
pub fn parse(source: &str) -> Result<Directives, String> {
    let mut d = Directives::default();
    // A RUN command still waiting for its continuation: (line, text so far).
    let mut pending: Option<(usize, String)> = None;

    for (idx, raw) in source.lines().enumerate() {
        let lineno = idx + 1;
        let Some(text) = comment_text(raw) else {
            continue;
        };
        if let Some(rest) = text.strip_prefix("RUN:") {
            let rest = rest.trim();
            let (piece, continues) = match rest.strip_suffix('\\') {
                Some(p) => (p.trim_end(), true),
                None => (rest, false),
            };
            let (start, mut cmd) = pending.take().unwrap_or((lineno, String::new()));
            if !cmd.is_empty() && !piece.is_empty() {
                cmd.push(' ');
            }
            cmd.push_str(piece);
            if continues {
                pending = Some((start, cmd));
            } else if cmd.trim().is_empty() {
                return Err(format!("line {start}: empty RUN: command"));
            } else {
                d.run.push(RunLine {
                    line: start,
                    command: cmd,
                });
            }
        } else if text.starts_with("XFAIL:") {
            d.xfail = true;
        } else if let Some(rest) = text.strip_prefix("REQUIRES:") {
            d.requires.extend(
                rest.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(String::from),
            );
        }
    }
    if let Some((start, _)) = pending {
        return Err(format!(
            "line {start}: RUN: line ends in `\\` but no RUN: line follows"
        ));
    }
    if d.run.is_empty() {
        return Err("no RUN: lines in test file".to_string());
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_styles_and_continuation() {
        let src =
            "// RUN: echo a \\\n//   RUN:   | cat\n; RUN: true\n# RUN: false\nfoo RUN: nope\n";
        let d = parse(src).unwrap();
        let cmds: Vec<_> = d.run.iter().map(|r| (r.line, r.command.as_str())).collect();
        assert_eq!(cmds, [(1, "echo a | cat"), (3, "true"), (4, "false")]);
        assert!(!d.xfail);
    }

    #[test]
    fn xfail_requires() {
        let d = parse("// XFAIL: *\n// REQUIRES: mlir-opt, llvm-mc\n// RUN: x\n").unwrap();
        assert!(d.xfail);
        assert_eq!(d.requires, ["mlir-opt", "llvm-mc"]);
    }

    #[test]
    fn errors() {
        assert!(parse("// CHECK: x\n").is_err());
        assert!(parse("// RUN: a \\\n").is_err());
        assert!(parse("// RUN:\n").is_err());
    }
}
