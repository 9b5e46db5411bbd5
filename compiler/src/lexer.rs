//! Lexer for `.k` source, built on logos.
//!
//! Guarantees: every byte of the input is either part of a token, skipped
//! whitespace/comment, or reported as a [`LexError`] with its span; the lexer
//! never panics. Integer literals are decoded here (decimal, `0x` hex, `_`
//! separators) into a `u64`; range checking against the literal's final type
//! happens in the checker. Float literals are always `f32`: one that overflows it
//! (`1e39`) or rounds to zero in it (`1e-50`) is an error here, as an integer
//! literal out of range is (a subnormal that rounds to a nonzero value is fine);
//! `1.` is an error that asks for `1.0`.

use logos::{FilterResult, Logos};
use std::fmt;

/// What went wrong while lexing. `Default` is required by logos and is the
/// "no rule matched" case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LexErrorKind {
    #[default]
    UnexpectedChar,
    UnterminatedComment,
    IntTooLarge,
    BadNumber,
    /// A float literal past the largest finite `f32`.
    FloatTooLarge,
    /// A nonzero float literal that rounds to zero in `f32`.
    FloatTooSmall,
    /// `1.`: digits, a point and no fraction.
    MissingFraction,
}

/// A lexer error with its byte range in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LexError {
    pub kind: LexErrorKind,
    pub start: usize,
    pub end: usize,
}

#[derive(Logos, Debug, Clone, Copy, PartialEq)]
#[logos(error = LexErrorKind)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip r"//[^\n]*")]
pub enum Tok<'s> {
    #[token("/*", block_comment)]
    BlockComment,

    // Keywords.
    #[token("kernel")]
    Kernel,
    #[token("let")]
    Let,
    #[token("var")]
    Var,
    #[token("shared")]
    Shared,
    #[token("global")]
    Global,
    #[token("if")]
    If,
    #[token("else")]
    Else,
    #[token("while")]
    While,
    #[token("for")]
    For,
    #[token("in")]
    In,
    #[token("loop")]
    Loop,
    #[token("heart")]
    Heart,
    #[token("break")]
    Break,
    #[token("continue")]
    Continue,
    #[token("return")]
    Return,
    #[token("as")]
    As,
    #[token("true")]
    True,
    #[token("false")]
    False,
    #[token("ptr")]
    Ptr,
    #[token("token")]
    TokenTy,
    #[token("bool")]
    Bool,
    #[token("i32")]
    I32,
    #[token("u32")]
    U32,
    #[token("i64")]
    I64,
    #[token("u64")]
    U64,
    #[token("f32")]
    F32,

    #[regex(r"[A-Za-z_][A-Za-z0-9_]*", |lex| lex.slice())]
    Ident(&'s str),
    #[regex(r"[0-9][0-9_]*", |lex| parse_int(lex.slice(), 10))]
    #[regex(r"0[xX][0-9a-fA-F_]+", |lex| parse_int(&lex.slice()[2..], 16))]
    Int(u64),
    #[regex(r"[0-9][0-9_]*\.[0-9][0-9_]*([eE][+-]?[0-9_]+)?", |lex| parse_float(lex.slice()))]
    #[regex(r"[0-9][0-9_]*[eE][+-]?[0-9_]+", |lex| parse_float(lex.slice()))]
    Float(f64),

    // Punctuation.
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token("<=")]
    Le,
    #[token(">=")]
    Ge,
    #[token("==")]
    EqEq,
    #[token("!=")]
    Ne,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token(";")]
    Semi,
    #[token("..")]
    DotDot,
    #[token("@")]
    At,
    #[token("=")]
    Assign,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("&")]
    Amp,
    #[token("|")]
    Pipe,
    #[token("^")]
    Caret,
    #[token("~")]
    Tilde,
    #[token("!")]
    Bang,
    #[token("<<")]
    Shl,
    #[token(">>")]
    Shr,
    #[token("&&")]
    AndAnd,
    #[token("||")]
    OrOr,
    #[token("+=")]
    PlusEq,
    #[token("-=")]
    MinusEq,
    #[token("*=")]
    StarEq,
    #[token("/=")]
    SlashEq,
    #[token("%=")]
    PercentEq,
    #[token("&=")]
    AmpEq,
    #[token("|=")]
    PipeEq,
    #[token("^=")]
    CaretEq,
    #[token("<<=")]
    ShlEq,
    #[token(">>=")]
    ShrEq,
}

/// Skips a (non-nesting) block comment; the opening `/*` is already consumed.
fn block_comment<'s>(lex: &mut logos::Lexer<'s, Tok<'s>>) -> FilterResult<(), LexErrorKind> {
    match lex.remainder().find("*/") {
        Some(end) => {
            lex.bump(end + 2);
            FilterResult::Skip
        }
        None => {
            lex.bump(lex.remainder().len());
            FilterResult::Error(LexErrorKind::UnterminatedComment)
        }
    }
}

fn parse_int(digits: &str, radix: u32) -> Result<u64, LexErrorKind> {
    let mut value: u64 = 0;
    let mut any = false;
    for c in digits.chars().filter(|&c| c != '_') {
        let d = c.to_digit(radix).ok_or(LexErrorKind::BadNumber)?;
        value = value
            .checked_mul(u64::from(radix))
            .and_then(|v| v.checked_add(u64::from(d)))
            .ok_or(LexErrorKind::IntTooLarge)?;
        any = true;
    }
    if any {
        Ok(value)
    } else {
        Err(LexErrorKind::BadNumber)
    }
}

fn parse_float(text: &str) -> Result<f64, LexErrorKind> {
    let clean: String = text.chars().filter(|&c| c != '_').collect();
    let value: f64 = clean.parse().map_err(|_| LexErrorKind::BadNumber)?;
    // Every float is an `f32`: the literal must be one (rounded once, from the text).
    let single: f32 = clean.parse().map_err(|_| LexErrorKind::BadNumber)?;
    if single.is_infinite() {
        return Err(LexErrorKind::FloatTooLarge);
    }
    let mantissa = clean.split(['e', 'E']).next().unwrap_or("");
    if single == 0.0 && mantissa.bytes().any(|c| matches!(c, b'1'..=b'9')) {
        return Err(LexErrorKind::FloatTooSmall);
    }
    Ok(value)
}

impl fmt::Display for LexErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LexErrorKind::UnexpectedChar => "unexpected character",
            LexErrorKind::UnterminatedComment => "unterminated block comment",
            LexErrorKind::IntTooLarge => "integer literal is too large",
            LexErrorKind::BadNumber => "malformed number literal",
            LexErrorKind::FloatTooLarge => "float literal is out of range for `f32`",
            LexErrorKind::FloatTooSmall => "float literal rounds to zero in `f32`",
            LexErrorKind::MissingFraction => "expected digits after the decimal point",
        })
    }
}

/// A token with its byte range, in the triple form lalrpop expects.
pub type Spanned<'s> = (usize, Tok<'s>, usize);

/// Lexes the whole input. Returns all tokens, or all lexer errors.
pub fn lex(src: &str) -> Result<Vec<Spanned<'_>>, Vec<LexError>> {
    let mut toks = Vec::new();
    let mut errors: Vec<LexError> = Vec::new();
    for (res, range) in Tok::lexer(src).spanned() {
        match res {
            Ok(tok) => toks.push((range.start, tok, range.end)),
            // `1.`: the integer and a point logos cannot lex (`1..n` is a range).
            Err(LexErrorKind::UnexpectedChar)
                if src[range.clone()].starts_with('.')
                    && matches!(toks.last(), Some(&(_, Tok::Int(_), end)) if end == range.start) =>
            {
                let (start, _, _) = toks.pop().expect("matched above");
                errors.push(LexError {
                    kind: LexErrorKind::MissingFraction,
                    start,
                    end: range.end,
                });
            }
            Err(kind) => {
                // Merge runs of adjacent unexpected characters into one error.
                if let Some(last) = errors.last_mut() {
                    if last.kind == kind
                        && kind == LexErrorKind::UnexpectedChar
                        && last.end == range.start
                    {
                        last.end = range.end;
                        continue;
                    }
                }
                errors.push(LexError {
                    kind,
                    start: range.start,
                    end: range.end,
                });
            }
        }
    }
    if errors.is_empty() {
        Ok(toks)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<Tok<'_>> {
        lex(src).unwrap().into_iter().map(|(_, t, _)| t).collect()
    }

    #[test]
    fn keywords_idents_and_punct() {
        assert_eq!(
            kinds("kernel k(a: ptr<global, i32>) { a[0] <<= 1; }"),
            vec![
                Tok::Kernel,
                Tok::Ident("k"),
                Tok::LParen,
                Tok::Ident("a"),
                Tok::Colon,
                Tok::Ptr,
                Tok::Lt,
                Tok::Global,
                Tok::Comma,
                Tok::I32,
                Tok::Gt,
                Tok::RParen,
                Tok::LBrace,
                Tok::Ident("a"),
                Tok::LBracket,
                Tok::Int(0),
                Tok::RBracket,
                Tok::ShlEq,
                Tok::Int(1),
                Tok::Semi,
                Tok::RBrace,
            ]
        );
    }

    #[test]
    fn numbers() {
        assert_eq!(
            kinds("1_000 0xFF_FF 1.5 2.5e3 1e2 0..n"),
            vec![
                Tok::Int(1000),
                Tok::Int(0xffff),
                Tok::Float(1.5),
                Tok::Float(2500.0),
                Tok::Float(100.0),
                Tok::Int(0),
                Tok::DotDot,
                Tok::Ident("n"),
            ]
        );
    }

    #[test]
    fn comments_are_skipped() {
        assert_eq!(
            kinds("a // line\n /* block\n * still */ b"),
            vec![Tok::Ident("a"), Tok::Ident("b")]
        );
    }

    #[test]
    fn errors() {
        let e = lex("a $$ b").unwrap_err();
        assert_eq!(e.len(), 1);
        assert_eq!(
            (e[0].kind, e[0].start, e[0].end),
            (LexErrorKind::UnexpectedChar, 2, 4)
        );
        let e = lex("a /* b").unwrap_err();
        assert_eq!(e[0].kind, LexErrorKind::UnterminatedComment);
        let e = lex("99999999999999999999999").unwrap_err();
        assert_eq!(e[0].kind, LexErrorKind::IntTooLarge);
    }
}
