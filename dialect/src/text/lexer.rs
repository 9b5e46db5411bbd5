//! Tokens of both text forms. Newlines are insignificant except that each token records
//! whether a line break precedes it (the custom form needs that to tell an op's operand list
//! from the result list of the next op). `//` comments run to the end of the line.

use super::TextError;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Tok {
    /// `kernel.func`, `i32`, `else`
    Ident,
    /// `%name`
    Percent,
    /// `^name`
    Caret,
    /// `@name` or `@"name"`
    At,
    /// `!kernel.ptr`
    Bang,
    /// `#loc3`: an alias `mlir-opt` defines for a location; `#arith.overflow`: an attribute
    /// it prints
    Hash,
    /// `"..."`
    Str,
    /// `12`, `-3`, `0x7FC00000`
    Int,
    /// `1.5`, `-1.0e30`
    Float,
    LParen,
    RParen,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Lt,
    Gt,
    Comma,
    Colon,
    Equal,
    Arrow,
    Eof,
}

#[derive(Copy, Clone, Debug)]
pub struct Token {
    pub kind: Tok,
    pub start: usize,
    pub end: usize,
    /// A line break comes between the previous token and this one.
    pub nl: bool,
}

fn is_suffix_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$' | b'-')
}
fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$')
}

/// Splits `text` into tokens, ending with one `Eof`.
pub fn lex(text: &str) -> Result<Vec<Token>, TextError> {
    let b = text.as_bytes();
    let mut toks = Vec::with_capacity(b.len() / 4 + 1);
    let mut i = 0;
    let mut nl = false;
    let err = |at: usize, msg: String| Err(TextError::at(text, at, msg));
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            nl = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let start = i;
        let kind = match c {
            b'"' => {
                i = scan_string(text, i)?;
                Tok::Str
            }
            b'%' | b'^' => {
                i += 1;
                while i < b.len() && is_suffix_char(b[i]) {
                    i += 1;
                }
                if i == start + 1 {
                    return err(start, format!("expected a name after `{}`", c as char));
                }
                if c == b'%' {
                    Tok::Percent
                } else {
                    Tok::Caret
                }
            }
            b'@' => {
                i += 1;
                if b.get(i) == Some(&b'"') {
                    i = scan_string(text, i)?;
                } else {
                    while i < b.len() && is_suffix_char(b[i]) {
                        i += 1;
                    }
                    if i == start + 1 {
                        return err(start, "expected a symbol name after `@`".into());
                    }
                }
                Tok::At
            }
            b'!' | b'#' => {
                i += 1;
                while i < b.len() && is_ident_char(b[i]) {
                    i += 1;
                }
                if i == start + 1 {
                    return err(start, format!("expected a name after `{}`", c as char));
                }
                if c == b'!' {
                    Tok::Bang
                } else {
                    Tok::Hash
                }
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while i < b.len() && is_ident_char(b[i]) {
                    i += 1;
                }
                Tok::Ident
            }
            b'-' if b.get(i + 1) == Some(&b'>') => {
                i += 2;
                Tok::Arrow
            }
            c if c.is_ascii_digit()
                || (c == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) =>
            {
                if c == b'-' {
                    i += 1;
                }
                if b[i] == b'0' && matches!(b.get(i + 1), Some(b'x' | b'X')) {
                    i += 2;
                    while i < b.len() && b[i].is_ascii_hexdigit() {
                        i += 1;
                    }
                    Tok::Int
                } else {
                    let mut float = false;
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                    if b.get(i) == Some(&b'.') {
                        float = true;
                        i += 1;
                        while i < b.len() && b[i].is_ascii_digit() {
                            i += 1;
                        }
                    }
                    if matches!(b.get(i), Some(b'e' | b'E')) {
                        let mut j = i + 1;
                        if matches!(b.get(j), Some(b'+' | b'-')) {
                            j += 1;
                        }
                        if b.get(j).is_some_and(u8::is_ascii_digit) {
                            float = true;
                            i = j;
                            while i < b.len() && b[i].is_ascii_digit() {
                                i += 1;
                            }
                        }
                    }
                    if float {
                        Tok::Float
                    } else {
                        Tok::Int
                    }
                }
            }
            _ => {
                i += 1;
                match c {
                    b'(' => Tok::LParen,
                    b')' => Tok::RParen,
                    b'{' => Tok::LBrace,
                    b'}' => Tok::RBrace,
                    b'[' => Tok::LBracket,
                    b']' => Tok::RBracket,
                    b'<' => Tok::Lt,
                    b'>' => Tok::Gt,
                    b',' => Tok::Comma,
                    b':' => Tok::Colon,
                    b'=' => Tok::Equal,
                    _ => {
                        let ch = text[start..].chars().next().unwrap_or('?');
                        return err(
                            start,
                            format!("unexpected character `{}`", ch.escape_debug()),
                        );
                    }
                }
            }
        };
        toks.push(Token {
            kind,
            start,
            end: i,
            nl,
        });
        nl = false;
    }
    toks.push(Token {
        kind: Tok::Eof,
        start: b.len(),
        end: b.len(),
        nl,
    });
    Ok(toks)
}

/// Scans a string literal starting at the `"` at `i`; returns the offset after the closing `"`.
fn scan_string(text: &str, mut i: usize) -> Result<usize, TextError> {
    let b = text.as_bytes();
    let start = i;
    i += 1;
    while i < b.len() {
        match b[i] {
            b'"' => return Ok(i + 1),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    Err(TextError::at(text, start, "unterminated string".into()))
}

/// The value of a string literal token (with its quotes), MLIR escapes resolved.
pub fn unescape(lit: &str) -> Result<String, String> {
    let inner = lit
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .ok_or_else(|| "malformed string".to_string())?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('"') => out.push('"'),
            Some('\\') => out.push('\\'),
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(h1) if h1.is_ascii_hexdigit() => {
                let h2 = chars
                    .next()
                    .filter(char::is_ascii_hexdigit)
                    .ok_or_else(|| "bad escape in string".to_string())?;
                let v = u32::from_str_radix(&format!("{h1}{h2}"), 16).unwrap_or(0);
                out.push(char::from_u32(v).unwrap_or('?'));
            }
            _ => return Err("bad escape in string".into()),
        }
    }
    Ok(out)
}
