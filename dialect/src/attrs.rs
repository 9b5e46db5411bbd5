//! Op attributes.
//!
//! A small closed set that covers what kc's dialects need and prints in MLIR's attribute
//! syntax, so the generic form is accepted by `mlir-opt`.

use crate::types::Type;
use std::fmt;

/// An attribute value.
#[derive(Clone, PartialEq, Debug)]
pub enum Attr {
    /// `42 : i32`
    Int(i64, Type),
    /// `1.5 : f32` (stored as the f32 bit pattern widened, printed exactly).
    Float(f32),
    /// `"x"`
    Str(String),
    /// `true` / `false`
    Bool(bool),
    /// `@name`
    Symbol(String),
    /// `array<i32: 1, 1, 0>`
    I32Array(Vec<i32>),
    /// `unit`
    Unit,
}

impl Attr {
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Attr::Int(v, _) => Some(*v),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Attr::Str(s) | Attr::Symbol(s) => Some(s),
            _ => None,
        }
    }
}

/// Prints a float so that parsing it back gives the same `f32` bits (MLIR accepts both the
/// decimal form and the hexadecimal bit pattern; decimal is used when it round-trips). The
/// decimal form always has a `.` (`1.0e30`), as MLIR requires. The shortest such text, for
/// people (`--explain`); IR text uses [`crate::mlir_float::format_f32`], MLIR's own spelling.
pub fn format_f32(v: f32) -> String {
    if v.is_finite() {
        let s = format!("{v:?}");
        if s.parse::<f32>().map(f32::to_bits) == Ok(v.to_bits()) {
            // MLIR's lexer needs a `.` in a float literal: `1e30` must be `1.0e30`.
            let s = match s.find(['e', 'E']) {
                _ if s.contains('.') => s,
                Some(e) => format!("{}.0{}", &s[..e], &s[e..]),
                None => format!("{s}.0"),
            };
            return s;
        }
    }
    format!("0x{:08X}", v.to_bits())
}

/// Is `s` an MLIR bare identifier (`[A-Za-z_][A-Za-z0-9_.$]*`), printable unquoted as an
/// attribute name or after `@`?
pub fn is_bare_ident(s: &str) -> bool {
    let mut b = s.bytes();
    b.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        && b.all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$'))
}

/// Quotes a string with MLIR escapes.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl fmt::Display for Attr {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Attr::Int(v, ty) => {
                if *ty == Type::I1 {
                    write!(f, "{}", if *v != 0 { "true" } else { "false" })
                } else {
                    write!(f, "{v} : {ty}")
                }
            }
            Attr::Float(v) => write!(f, "{} : f32", crate::mlir_float::format_f32(*v)),
            Attr::Str(s) => f.write_str(&quote(s)),
            Attr::Bool(b) => write!(f, "{b}"),
            Attr::Symbol(s) if is_bare_ident(s) => write!(f, "@{s}"),
            Attr::Symbol(s) => write!(f, "@{}", quote(s)),
            Attr::I32Array(v) => {
                f.write_str("array<i32")?;
                for (i, x) in v.iter().enumerate() {
                    write!(f, "{}{x}", if i == 0 { ": " } else { ", " })?;
                }
                f.write_str(">")
            }
            Attr::Unit => f.write_str("unit"),
        }
    }
}
