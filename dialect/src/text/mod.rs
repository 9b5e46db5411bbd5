//! Textual IR: a printer and a parser for two forms.
//!
//! - The **custom** form is the readable one used in listings and tests. Upstream ops
//!   (`builtin.module`, `arith`, `cf`) are written exactly as MLIR writes them
//!   (`%c = arith.cmpi slt, %a, %b : i32`, `cf.br ^bb1(%x : i32)`), kc's own ops (`kernel`,
//!   `conv`) in the syntax of their formats in the registry (`registry::syntax`), which are
//!   also their ODS assembly formats, so MLIR with kc's dialects reads and prints the same
//!   (`%t = kernel.workitem_id x : i32 loc("k.k":3:9)`).
//! - The **generic** form is MLIR's generic op syntax, accepted by upstream
//!   `mlir-opt --allow-unregistered-dialect`:
//!   `%c = "arith.cmpi"(%a, %b) <{predicate = 2 : i64}> : (i32, i32) -> i1`.
//!
//! [`Generic::Kc`] mixes them: kc's ops generic, upstream ops custom, which is how `mlir-opt`
//! itself prints kc's IR (it can only print unregistered ops generically).
//!
//! [`parse`] accepts either form, even mixed op by op (an op starting with `"` is generic), and
//! what `mlir-opt` prints: `module`, location aliases (`loc(#loc3)`, `#loc3 = loc(...)`).
//! Printing, parsing and printing again gives the same text for all forms, and the generic
//! print of a parsed custom text equals the generic print of the original IR.
//!
//! Neither the printer nor the parser recurses per level of nesting (they keep the open ops on
//! a stack), so any depth prints and parses; printed indentation stops growing at 100 levels,
//! which keeps the text of deeply nested IR linear in its size.

mod lexer;
mod parse;
mod print;

use crate::entities::{Block, Op, Value};
use crate::ir::Ir;
use cranelift_entity::SecondaryMap;
use std::fmt;

/// What an annotation callback is asked about.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Annot {
    /// An op; the comment goes at the end of its (first) line.
    Op(Op),
    /// A block's arguments; the comment goes after the block label.
    Block(Block),
}

/// Which ops print in MLIR's generic form.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum Generic {
    /// None: every op in its custom form.
    #[default]
    None,
    /// kc's own ops (`kernel`, `conv`), which `mlir-opt` reads only in the generic form;
    /// `builtin`, `arith` and `cf` ops keep their (MLIR) custom form.
    Kc,
    /// Every op.
    All,
}

/// How to print.
#[derive(Copy, Clone)]
pub struct PrintOptions<'a> {
    /// Which ops print in MLIR's generic form instead of the custom form.
    pub generic: Generic,
    /// Print `loc(...)` for ops and block arguments with a known location.
    pub locations: bool,
    /// Trailing `// ...` comments, e.g. uniformity facts.
    pub annotate: Option<&'a dyn Fn(Annot) -> Option<String>>,
}

impl Default for PrintOptions<'_> {
    fn default() -> Self {
        PrintOptions {
            generic: Generic::None,
            locations: true,
            annotate: None,
        }
    }
}

impl PrintOptions<'_> {
    pub fn generic() -> Self {
        PrintOptions {
            generic: Generic::All,
            ..Default::default()
        }
    }
}

/// Prints the whole module (`ir.top`).
pub fn print(ir: &Ir, opts: &PrintOptions) -> String {
    print::print_op(ir, ir.top, opts)
}

/// Prints one op (and its regions). Values are named as in the print of the enclosing
/// isolated op (`kernel.func`), so the text matches the full listing. Naming walks that whole
/// scope: to print many ops of one kernel, compute [`names`] once and use [`print_op_named`].
pub fn print_op(ir: &Ir, op: Op, opts: &PrintOptions) -> String {
    print::print_op(ir, op, opts)
}

/// [`print_op`] with the names of `op`'s isolated scope given (`names(ir, op)` or the names
/// of any op in the same scope), in time linear in the printed text.
pub fn print_op_named(ir: &Ir, op: Op, opts: &PrintOptions, names: &Names) -> String {
    print::print_op_named(ir, op, opts, names)
}

/// The names the printer gives to the values and blocks of `op`'s scope (`op` itself if it is
/// isolated, e.g. a `kernel.func`; else its nearest isolated ancestor), without the `%` / `^`
/// sigil: `values[v]` is `tid`, `x_1` (a source name made unique), or `3` (an unnamed value,
/// numbered in print order); `blocks[b]` is `then`, `endif_1` or `bb2`. Values and blocks
/// outside the scope map to the empty string. This is exactly what [`print()`] writes, so tools
/// that relate other outputs (uniformity reports, the LLVM IR of `--emit=llvm`) to the listing
/// key on it.
pub struct Names {
    pub values: SecondaryMap<Value, String>,
    pub blocks: SecondaryMap<Block, String>,
    /// Blocks that are branch targets (an entry block that is one needs its label).
    targets: SecondaryMap<Block, bool>,
}

pub fn names(ir: &Ir, op: Op) -> Names {
    print::names(ir, op)
}

/// A parse error at a byte offset (with 1-based line and column, in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextError {
    pub offset: usize,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl TextError {
    pub(crate) fn at(text: &str, offset: usize, message: String) -> TextError {
        let offset = offset.min(text.len());
        let mut off = offset;
        while !text.is_char_boundary(off) {
            off -= 1;
        }
        let before = &text[..off];
        let line = before.bytes().filter(|&c| c == b'\n').count() as u32 + 1;
        let line_start = before.rfind('\n').map_or(0, |p| p + 1);
        let col = before[line_start..].chars().count() as u32 + 1;
        TextError {
            offset,
            line,
            col,
            message,
        }
    }
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for TextError {}

/// Parses a module in either form (or a bare list of ops, which is wrapped in a module).
/// `file_name` names the text for callers' diagnostics; locations in the IR come only from
/// `loc(...)` in the text. Never panics; regions nest to any depth (the parser keeps no call
/// stack per level).
pub fn parse(text: &str, file_name: &str) -> Result<Ir, TextError> {
    parse::parse(text, file_name).map(|(ir, _)| ir)
}

/// [`parse`], and where each op starts in the text: the position of an op written without
/// `loc(...)`, for diagnostics about it (its location stays unknown, so printing the IR adds
/// none).
pub fn parse_with_positions(text: &str, file_name: &str) -> Result<(Ir, Positions), TextError> {
    let (ir, starts) = parse::parse(text, file_name)?;
    let line_starts = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i as u32 + 1))
        .collect();
    Ok((
        ir,
        Positions {
            starts,
            line_starts,
        },
    ))
}

/// Where the ops of a parsed text start.
pub struct Positions {
    starts: SecondaryMap<Op, u32>,
    line_starts: Vec<u32>,
}

impl Positions {
    /// The 1-based line and column (in bytes) where `op` starts (its first result name, else
    /// its name); `None` for an op not read from the text.
    pub fn line_col(&self, op: Op) -> Option<(u32, u32)> {
        let at = *self.starts.get(op)?;
        if at == u32::MAX {
            return None;
        }
        let line = self.line_starts.partition_point(|&s| s <= at).max(1);
        Some((line as u32, at - self.line_starts[line - 1] + 1))
    }
}

#[cfg(test)]
mod tests;
