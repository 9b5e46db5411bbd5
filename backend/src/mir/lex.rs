//! The MIR text form's lexer: one line at a time into tokens (identifiers, integers, strings,
//! punctuation), and a cursor over them for the parser (`parse`). Never panics: a malformed
//! token is a [`ParseError`] at its byte offset. Linear in the text.

use super::parse::ParseError;

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    Ident(String),
    VReg(u64),
    Int(i64),
    Str(String),
    Punct(char),
    Shr,
    /// `; text` to the end of the line (unescaped).
    Comment(String),
}

#[derive(Debug, Clone)]
pub(super) struct Token {
    pub(super) tok: Tok,
    pub(super) at: usize,
}

pub(super) fn err<T>(at: usize, m: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        offset: at,
        message: m.into(),
    })
}

/// The tokens of one line starting at byte `base`; `#` starts a comment the parser skips.
pub(super) fn lex(line: &str, base: usize) -> Result<Vec<Token>, ParseError> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let at = base + i;
        match c {
            b' ' | b'\t' | b'\r' => i += 1,
            b'#' => break,
            b';' => {
                let text = line[i + 1..].strip_prefix(' ').unwrap_or(&line[i + 1..]);
                let text = text.strip_suffix('\r').unwrap_or(text);
                out.push(Token {
                    tok: Tok::Comment(unescape_comment(text)),
                    at,
                });
                break;
            }
            b'"' => {
                let (s, len) = string(&line[i..], at)?;
                out.push(Token {
                    tok: Tok::Str(s),
                    at,
                });
                i += len;
            }
            b'%' => {
                if b.get(i + 1) != Some(&b'r') || !b.get(i + 2).is_some_and(u8::is_ascii_digit) {
                    return err(at, "expected a virtual register `%rN`");
                }
                let mut j = i + 2;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                let n = line[i + 2..j]
                    .parse::<u64>()
                    .or_else(|_| err(at, "register number out of range"))?;
                out.push(Token {
                    tok: Tok::VReg(n),
                    at,
                });
                i = j;
            }
            b'0'..=b'9' => {
                let (v, len) = int(&line[i..], at, false)?;
                out.push(Token {
                    tok: Tok::Int(v),
                    at,
                });
                i += len;
            }
            b'-' if b.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                let (v, len) = int(&line[i + 1..], at, true)?;
                out.push(Token {
                    tok: Tok::Int(v),
                    at,
                });
                i += len + 1;
            }
            b'>' if b.get(i + 1) == Some(&b'>') => {
                out.push(Token { tok: Tok::Shr, at });
                i += 2;
            }
            b',' | b':' | b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'@' | b'-' | b'&' => {
                out.push(Token {
                    tok: Tok::Punct(c as char),
                    at,
                });
                i += 1;
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c == b'.' || c == b'$' => {
                let mut j = i;
                while j < b.len()
                    && (b[j].is_ascii_alphanumeric() || matches!(b[j], b'_' | b'.' | b'$'))
                {
                    j += 1;
                }
                out.push(Token {
                    tok: Tok::Ident(line[i..j].to_string()),
                    at,
                });
                i = j;
            }
            _ => {
                let ch = line[i..].chars().next().unwrap_or('?');
                return err(at, format!("unexpected character `{ch}`"));
            }
        }
    }
    Ok(out)
}

pub(super) fn unescape_comment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(o) => out.push(o),
            None => out.push('\\'),
        }
    }
    out
}

/// A string literal at the start of `s`: its value and length in bytes.
pub(super) fn string(s: &str, at: usize) -> Result<(String, usize), ParseError> {
    let mut out = String::new();
    let mut it = s.char_indices().skip(1);
    while let Some((k, c)) = it.next() {
        match c {
            '"' => return Ok((out, k + 1)),
            '\\' => match it.next() {
                Some((_, '"')) => out.push('"'),
                Some((_, '\\')) => out.push('\\'),
                Some((_, 'n')) => out.push('\n'),
                Some((_, 't')) => out.push('\t'),
                Some((k2, 'u')) => {
                    let rest = &s[k2 + 1..];
                    let Some(close) = rest.strip_prefix('{').and_then(|r| r.find('}')) else {
                        return err(at + k, "bad `\\u{...}` escape");
                    };
                    let hex = &rest[1..close + 1];
                    let ch = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32);
                    let Some(ch) = ch else {
                        return err(at + k, "bad `\\u{...}` escape");
                    };
                    out.push(ch);
                    // Skip `{hex}`.
                    for _ in 0..hex.len() + 2 {
                        it.next();
                    }
                }
                _ => return err(at + k, "unknown escape in string"),
            },
            c => out.push(c),
        }
    }
    err(at, "unterminated string")
}

/// An integer (decimal or `0x` hex) at the start of `s`, negated with `neg`.
pub(super) fn int(s: &str, at: usize, neg: bool) -> Result<(i64, usize), ParseError> {
    let b = s.as_bytes();
    let (radix, start) = if s.starts_with("0x") || s.starts_with("0X") {
        (16, 2)
    } else {
        (10, 0)
    };
    let mut j = start;
    while j < b.len() && (b[j] as char).is_digit(radix) {
        j += 1;
    }
    if j == start {
        return err(at, "expected digits");
    }
    if j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
        return err(at, "malformed number");
    }
    let mag =
        u64::from_str_radix(&s[start..j], radix).or_else(|_| err(at, "integer out of range"))?;
    let v = if neg {
        if mag > 1u64 << 63 {
            return err(at, "integer out of range");
        }
        (mag as i64).wrapping_neg()
    } else {
        i64::try_from(mag).or_else(|_| err(at, "integer out of range"))?
    };
    Ok((v, j))
}

/// A cursor over one line's tokens.
pub(super) struct Line {
    pub(super) toks: Vec<Token>,
    pub(super) pos: usize,
    /// Offset of the end of the line (for "expected ..." at the end).
    pub(super) end: usize,
}

impl Line {
    pub(super) fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }
    pub(super) fn at(&self) -> usize {
        self.toks.get(self.pos).map_or(self.end, |t| t.at)
    }
    pub(super) fn next(&mut self) -> Option<Token> {
        let t = self.toks.get(self.pos).cloned();
        self.pos += 1;
        t
    }
    pub(super) fn is_punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }
    pub(super) fn is_ident(&self, s: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(i)) if i == s)
    }
    pub(super) fn punct(&mut self, c: char) -> Result<(), ParseError> {
        if self.is_punct(c) {
            self.pos += 1;
            Ok(())
        } else {
            err(self.at(), format!("expected `{c}`"))
        }
    }
    pub(super) fn keyword(&mut self, s: &str) -> Result<(), ParseError> {
        if self.is_ident(s) {
            self.pos += 1;
            Ok(())
        } else {
            err(self.at(), format!("expected `{s}`"))
        }
    }
    pub(super) fn ident(&mut self, what: &str) -> Result<(String, usize), ParseError> {
        let at = self.at();
        match self.next() {
            Some(Token {
                tok: Tok::Ident(s), ..
            }) => Ok((s, at)),
            _ => err(at, format!("expected {what}")),
        }
    }
    pub(super) fn int(&mut self, what: &str) -> Result<(i64, usize), ParseError> {
        let at = self.at();
        match self.next() {
            Some(Token {
                tok: Tok::Int(v), ..
            }) => Ok((v, at)),
            _ => err(at, format!("expected {what}")),
        }
    }
    pub(super) fn uint<T: TryFrom<i64>>(&mut self, what: &str) -> Result<T, ParseError> {
        let (v, at) = self.int(what)?;
        T::try_from(v).or_else(|_| err(at, format!("{what} out of range")))
    }
    pub(super) fn string(&mut self, what: &str) -> Result<String, ParseError> {
        let at = self.at();
        match self.next() {
            Some(Token {
                tok: Tok::Str(s), ..
            }) => Ok(s),
            _ => err(at, format!("expected {what} (a string in quotes)")),
        }
    }
    pub(super) fn done(&self) -> bool {
        self.pos >= self.toks.len()
    }
    pub(super) fn end(&self) -> Result<(), ParseError> {
        if self.done() {
            Ok(())
        } else {
            err(self.at(), "unexpected text at the end of the line")
        }
    }
}
