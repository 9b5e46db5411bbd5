//! The command's input: the file (or stdin) a `kc` or `kc run` invocation reads, and the
//! language flag that says how to read it. Both commands read through here, so `driver.rs`
//! (which dispatches `kc run` to `run.rs`) and `run.rs` depend on this module and not on
//! each other.

use crate::pipeline::Failure;
use clap::ValueEnum;
use std::io::Read;

/// `-x k|mlir|mir`: the input language when the file name does not say it.
#[derive(Copy, Clone, Debug, ValueEnum)]
pub(crate) enum LangArg {
    K,
    Mlir,
    Mir,
}

/// The language of an input without `-x`: a file's extension (`.mir`, `.mlir`; anything else
/// is `.k` source); stdin, which has no name, by its first significant line ([`sniff`]).
pub(crate) fn language(path: &str, text: &str) -> LangArg {
    if path == "-" {
        sniff(text)
    } else if path.ends_with(".mir") {
        LangArg::Mir
    } else if path.ends_with(".mlir") {
        LangArg::Mlir
    } else {
        LangArg::K
    }
}

/// The language of text read from stdin, by its first line that is not blank or a comment:
/// MIR starts with `mir ` (after `#` comments); MLIR with an op (`"name"(`, `module`,
/// `builtin.module`, `kernel.func`, `gpu.module`, `func.func`), an attribute or type alias
/// definition (`#loc = loc(...)`, which `mlir-opt --mlir-print-debuginfo` prints first,
/// `#map = ...`, `!t = ...`) or file metadata (`{-#`); `.k` source with `kernel` (anything else
/// is read as `.k` too, whose errors then say what is wrong).
pub(crate) fn sniff(text: &str) -> LangArg {
    let significant = |skip: &dyn Fn(&str) -> bool| {
        text.lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !skip(l))
            .unwrap_or("")
    };
    if significant(&|l| l.starts_with('#')).starts_with("mir ") {
        return LangArg::Mir;
    }
    let first = significant(&|l| l.starts_with("//"));
    let alias = |sigil: char| {
        first.strip_prefix(sigil).is_some_and(|rest| {
            let name = rest.trim_start_matches(|c: char| {
                c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$' | '-')
            });
            name.len() < rest.len() && name.trim_start().starts_with('=')
        })
    };
    let op = [
        "builtin.module",
        "module",
        "kernel.func",
        "gpu.module",
        "func.func",
    ]
    .iter()
    .any(|w| {
        first
            .strip_prefix(w)
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
    });
    if op || first.starts_with('"') || first.starts_with("{-#") || alias('#') || alias('!') {
        LangArg::Mlir
    } else {
        LangArg::K
    }
}

/// The text of `path` (`-`: stdin) and the name diagnostics give it; unreadable input is a
/// usage error, invalid UTF-8 a located diagnostic.
pub(crate) fn read_input(path: &str) -> Result<(String, String), Failure> {
    let (name, bytes) = if path == "-" {
        let mut b = Vec::new();
        std::io::stdin()
            .read_to_end(&mut b)
            .map_err(|e| Failure::Usage(format!("cannot read stdin: {e}")))?;
        ("<stdin>".to_string(), b)
    } else {
        let b = std::fs::read(path).map_err(|e| {
            let path = crate::diag::display_name(path);
            Failure::Usage(format!("cannot read `{path}`: {e}"))
        })?;
        (path.to_string(), b)
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok((name, text)),
        Err(e) => Err(Failure::Diagnostics(invalid_utf8(
            &name,
            e.as_bytes(),
            e.utf8_error(),
        ))),
    }
}

/// `file:line:col: error: invalid UTF-8`, at the first bad byte, with its line up to there.
fn invalid_utf8(name: &str, bytes: &[u8], e: std::str::Utf8Error) -> String {
    let at = e.valid_up_to();
    // The prefix up to `at` is valid UTF-8 by definition.
    let prefix = std::str::from_utf8(&bytes[..at]).unwrap_or_default();
    let line_start = prefix.rfind('\n').map_or(0, |i| i + 1);
    let line = prefix.matches('\n').count() + 1;
    let before = &prefix[line_start..];
    let col = before.chars().count() + 1;
    // A long line is cut to a window before the bad byte, as every diagnostic's.
    let (shown, caret) = crate::diag::line_window(before, before.len());
    let name = crate::diag::display_name(name);
    format!(
        "{name}:{line}:{col}: error: the file is not valid UTF-8 (byte 0x{:02x})\n  {shown}\n  {}^\n",
        bytes[at],
        " ".repeat(caret)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lang(text: &str) -> &'static str {
        match sniff(text) {
            LangArg::K => "k",
            LangArg::Mlir => "mlir",
            LangArg::Mir => "mir",
        }
    }

    #[test]
    fn sniffing() {
        assert_eq!(lang("// c\nkernel k() {}\n"), "k");
        assert_eq!(lang("\n  kernel k(a: i32) {}"), "k");
        assert_eq!(lang("module {\n}"), "mlir");
        assert_eq!(
            lang("module attributes {gpu.container_module} {\n}"),
            "mlir"
        );
        assert_eq!(lang("\"builtin.module\"() ({\n})"), "mlir");
        assert_eq!(lang("// c\nkernel.func @k {\n}"), "mlir");
        // What `mlir-opt --mlir-print-debuginfo` prints first.
        assert_eq!(lang("#loc = loc(\"a.mlir\":1:1)\nmodule {\n}"), "mlir");
        assert_eq!(lang("#map = affine_map<(d0) -> (d0)>\nmodule {}"), "mlir");
        assert_eq!(lang("!t = i32\nmodule {}"), "mlir");
        assert_eq!(
            lang("# kc machine IR (gfx942)\nmir gfx942 after isel\n"),
            "mir"
        );
        // `moduled` is not `module`, and a `#` line that defines nothing is not an alias.
        assert_eq!(lang("moduled x"), "k");
        assert_eq!(lang("#loc\n"), "k");
    }
}
