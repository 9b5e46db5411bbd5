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
    format!(
        "{name}:{line}:{col}: error: the file is not valid UTF-8 (byte 0x{:02x})\n  {before}\n  {}^\n",
        bytes[at],
        " ".repeat(col - 1)
    )
}
