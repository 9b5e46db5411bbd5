//! Parser entry point: source text -> [`ast::Module`], or diagnostics.
//!
//! Lexer errors are all reported (and parsing is skipped, to avoid cascades);
//! otherwise syntax errors are reported at statement granularity thanks to
//! the grammar's error recovery, sorted by position.

use crate::ast::{self, Expr, ExprId, ExprKind, FileId, Span};
use crate::diag::{Diagnostic, SourceFile};
use crate::grammar;
use crate::lexer::{self, LexError, LexErrorKind, Tok};
use lalrpop_util::ParseError;
use std::cell::Cell;

/// Parses one file.
pub fn parse(file: &SourceFile) -> Result<ast::Module, Vec<Diagnostic>> {
    let toks = lexer::lex(&file.text)
        .map_err(|errs| errs.iter().map(|e| lex_diag(file, e)).collect::<Vec<_>>())?;
    if let Some(d) = too_deep(file, &toks) {
        return Err(vec![d]);
    }
    let ends: Vec<usize> = toks.iter().map(|&(_, _, r)| r).collect();
    let ids = Cell::new(0u32);
    let mut recovered = Vec::new();
    let result = grammar::ModuleParser::new().parse(
        file.id,
        &ids,
        &mut recovered,
        toks.into_iter().map(Ok::<_, LexError>),
    );
    let mut diags: Vec<Diagnostic> = recovered
        .into_iter()
        .map(|r| parse_diag(file, &ends, r.error))
        .collect();
    match result {
        Ok(kernels) if diags.is_empty() => Ok(ast::Module {
            file: file.id,
            kernels,
            num_exprs: ids.get(),
        }),
        Ok(_) => Err(diags),
        Err(e) => {
            diags.push(parse_diag(file, &ends, e));
            diags.dedup();
            Err(diags)
        }
    }
    .map_err(|mut diags: Vec<Diagnostic>| {
        diags.sort_by_key(|d| d.primary.span.start);
        diags
    })
}

/// Deepest bracket nesting accepted.
const MAX_NESTING: usize = 64;
/// Most operators accepted in one statement.
const MAX_OPERATORS: usize = 256;

/// Rejects inputs whose trees would be deep enough to threaten the stack of
/// the recursive passes (checker, lowering, even `Drop`), so that no input
/// can crash the compiler. Only expressions and nested blocks nest in the AST
/// (an `else if` chain is a flat list of arms), so these two limits bound its
/// depth. A kernel's parameter list holds no expression: its `<` `>` (in
/// `ptr<global, T>`) are not operators.
fn too_deep(file: &SourceFile, toks: &[lexer::Spanned<'_>]) -> Option<Diagnostic> {
    let mut depth = 0usize;
    let mut ops = 0usize;
    let mut header = false;
    for &(l, ref tok, r) in toks {
        let span = Span::new(file.id, l, r);
        match tok {
            Tok::Kernel => header = true,
            Tok::LBrace => header = false,
            _ => {}
        }
        match tok {
            Tok::LParen | Tok::LBracket | Tok::LBrace => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(Diagnostic::error(
                        format!("brackets nested more than {MAX_NESTING} levels deep"),
                        span,
                        "too deep",
                    ));
                }
            }
            Tok::RParen | Tok::RBracket | Tok::RBrace => depth = depth.saturating_sub(1),
            _ => {}
        }
        if matches!(tok, Tok::Semi | Tok::LBrace | Tok::RBrace) {
            ops = 0;
        } else if is_operator(tok) && !header {
            ops += 1;
            if ops > MAX_OPERATORS {
                return Some(Diagnostic::error(
                    format!("statement has more than {MAX_OPERATORS} operators"),
                    span,
                    "split the statement up",
                ));
            }
        }
    }
    None
}

fn is_operator(tok: &Tok<'_>) -> bool {
    matches!(
        tok,
        Tok::Plus
            | Tok::Minus
            | Tok::Star
            | Tok::Slash
            | Tok::Percent
            | Tok::Amp
            | Tok::Pipe
            | Tok::Caret
            | Tok::Tilde
            | Tok::Bang
            | Tok::Shl
            | Tok::Shr
            | Tok::AndAnd
            | Tok::OrOr
            | Tok::Lt
            | Tok::Gt
            | Tok::Le
            | Tok::Ge
            | Tok::EqEq
            | Tok::Ne
            | Tok::As
            | Tok::LBracket
            | Tok::LParen
    )
}

/// Builds a span; used by grammar actions.
pub(crate) fn sp(file: FileId, start: usize, end: usize) -> Span {
    Span::new(file, start, end)
}

/// Builds an expression with the next dense id; used by grammar actions.
pub(crate) fn expr(ids: &Cell<u32>, span: Span, kind: ExprKind) -> Expr {
    let id = ids.get();
    ids.set(id.saturating_add(1));
    Expr {
        id: ExprId(id),
        kind,
        span,
    }
}

fn lex_diag(file: &SourceFile, e: &LexError) -> Diagnostic {
    let span = Span::new(file.id, e.start, e.end);
    match e.kind {
        LexErrorKind::UnexpectedChar => {
            let text = file.snippet(span);
            Diagnostic::error(format!("unexpected character `{text}`"), span, "")
        }
        LexErrorKind::UnterminatedComment => Diagnostic::error(
            "unterminated block comment",
            Span::new(file.id, e.start, e.start + 2),
            "comment starts here",
        ),
        LexErrorKind::IntTooLarge => Diagnostic::error(
            "integer literal is too large",
            span,
            "does not fit in 64 bits",
        ),
        LexErrorKind::BadNumber => Diagnostic::error("malformed number literal", span, ""),
        LexErrorKind::FloatTooLarge => Diagnostic::error(
            "float literal is out of range for `f32`",
            span,
            "would be infinite",
        )
        .with_note("the largest finite `f32` is 3.4028235e38"),
        LexErrorKind::FloatTooSmall => Diagnostic::error(
            "float literal rounds to zero in `f32`",
            span,
            "would be 0.0",
        )
        .with_note("the smallest positive `f32` is 1e-45; write `0.0` for zero"),
        LexErrorKind::MissingFraction => {
            let digits = file.snippet(span).trim_end_matches('.');
            Diagnostic::error("expected digits after the decimal point", span, "")
                .with_note(format!("write `{digits}.0`"))
        }
    }
}

/// `ends` holds the end offset of every token, in order.
fn parse_diag(
    file: &SourceFile,
    ends: &[usize],
    e: ParseError<usize, Tok<'_>, LexError>,
) -> Diagnostic {
    match e {
        ParseError::InvalidToken { location } => {
            let span = Span::new(file.id, location, location + 1);
            Diagnostic::error("invalid token", span, "")
        }
        ParseError::UnrecognizedEof { location, expected } => {
            let span = Span::new(file.id, location, location);
            Diagnostic::error(
                format!("{}, found end of file", expected_list(&expected)),
                span,
                "unexpected end of file",
            )
        }
        ParseError::UnrecognizedToken {
            token: (l, _, r),
            expected,
        } => {
            let span = Span::new(file.id, l, r);
            let found = file.snippet(span);
            if let Some(d) = missing_semi(file, ends, &expected, span) {
                return d;
            }
            Diagnostic::error(
                format!("{}, found `{found}`", expected_list(&expected)),
                span,
                "unexpected token",
            )
        }
        ParseError::ExtraToken { token: (l, _, r) } => {
            let span = Span::new(file.id, l, r);
            Diagnostic::error(
                format!("unexpected `{}`", file.snippet(span)),
                span,
                "unexpected token",
            )
        }
        ParseError::User { error } => lex_diag(file, &error),
    }
}

/// A statement that ends without `;` at the end of a line: point at the end
/// of the line (like rustc) rather than at the next statement.
fn missing_semi(
    file: &SourceFile,
    ends: &[usize],
    expected: &[String],
    found: Span,
) -> Option<Diagnostic> {
    if !expected.iter().any(|t| t == "\";\"") {
        return None;
    }
    let idx = ends.partition_point(|&e| e <= found.start as usize);
    let prev_end = *ends.get(idx.checked_sub(1)?)?;
    let prev = Span::new(file.id, prev_end, prev_end);
    if file.line_col(prev.start).0 == file.line_col(found.start).0 {
        return None;
    }
    Some(
        Diagnostic::error(
            format!("expected `;`, found `{}`", file.snippet(found)),
            prev,
            "add `;` here",
        )
        .with_label(found, "unexpected token"),
    )
}

const OPERATORS: &[&str] = &[
    "`||`", "`&&`", "`|`", "`^`", "`&`", "`==`", "`!=`", "`<`", "`<=`", "`>`", "`>=`", "`<<`",
    "`>>`", "`+`", "`-`", "`*`", "`/`", "`%`",
];
const STMT_START: &[&str] = &[
    "`let`",
    "`var`",
    "`shared`",
    "`if`",
    "`while`",
    "`for`",
    "`loop`",
    "`break`",
    "`continue`",
    "`return`",
    "`{`",
];
const EXPR_START: &[&str] = &[
    "`true`",
    "`false`",
    "identifier",
    "integer literal",
    "float literal",
    "`(`",
    "`-`",
    "`&`",
    "`~`",
    "`!`",
];

/// "expected one of `a`, `b` or an operator" from lalrpop's terminal names.
/// Large token classes (statement starts, expression starts, binary
/// operators) are summarized so messages stay short and stable.
fn expected_list(expected: &[String]) -> String {
    let mut items: Vec<String> = expected.iter().map(|t| terminal_name(t)).collect();
    let count =
        |items: &[String], set: &[&str]| items.iter().filter(|n| set.contains(&n.as_str())).count();
    let mut summary = Vec::new();
    if count(&items, STMT_START) >= 5 {
        items.retain(|n| !STMT_START.contains(&n.as_str()) && !EXPR_START.contains(&n.as_str()));
        summary.push("a statement");
    } else if count(&items, EXPR_START) >= 5 {
        items.retain(|n| !EXPR_START.contains(&n.as_str()));
        summary.push("an expression");
    }
    if count(&items, OPERATORS) >= 6 {
        items.retain(|n| !OPERATORS.contains(&n.as_str()));
        summary.push("an operator");
    }
    items.extend(summary.into_iter().map(String::from));
    match items.len() {
        0 => "unexpected token".to_string(),
        1 => format!("expected {}", items[0]),
        2 => format!("expected {} or {}", items[0], items[1]),
        _ => {
            let last = items.pop().unwrap_or_default();
            format!("expected one of {} or {last}", items.join(", "))
        }
    }
}

fn terminal_name(t: &str) -> String {
    match t {
        "Ident" => "identifier".to_string(),
        "Int" => "integer literal".to_string(),
        "Float" => "float literal".to_string(),
        _ => {
            let inner = t
                .strip_prefix('"')
                .and_then(|s| s.strip_suffix('"'))
                .unwrap_or(t);
            format!("`{}`", inner.replace("\\\"", "\""))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(src: &str) -> Vec<String> {
        let f = SourceFile::new("t.k", src);
        match parse(&f) {
            Ok(_) => Vec::new(),
            Err(d) => d.iter().map(|d| d.short(&f)).collect(),
        }
    }

    #[test]
    fn parses_precedence() {
        let f = SourceFile::new(
            "t.k",
            "kernel k() { let a = 1 + 2 * 3 << 1 == 4 && -x as f32 < y || !b; }",
        );
        let m = parse(&f).unwrap();
        let dump = ast::dump(&m, &f);
        let expected = "\
Kernel k [1:1]
  Block [1:12]
    Let a [1:14]
      Binary || #17 [1:22]
        Binary && #14 [1:22]
          Binary == #8 [1:22]
            Binary << #6 [1:22]
              Binary + #4 [1:22]
                Int 1 #0 [1:22]
                Binary * #3 [1:26]
                  Int 2 #1 [1:26]
                  Int 3 #2 [1:30]
              Int 1 #5 [1:35]
            Int 4 #7 [1:40]
          Binary < #13 [1:45]
            Cast f32 #11 [1:45]
              Unary - #10 [1:45]
                Name x #9 [1:46]
            Name y #12 [1:57]
        Unary ! #16 [1:62]
          Name b #15 [1:63]
";
        assert_eq!(dump, expected);
        assert_eq!(m.num_exprs, 18);
    }

    #[test]
    fn syntax_error_message() {
        assert_eq!(
            errors("kernel k() { let x = 1 }"),
            vec!["1:24: expected one of `as`, `[`, `;` or an operator, found `}`"]
        );
    }

    #[test]
    fn eof_error() {
        assert_eq!(
            errors("kernel k() { return;"),
            vec!["1:21: expected `}` or a statement, found end of file"]
        );
    }

    #[test]
    fn several_errors_recovered() {
        let errs = errors("kernel k() {\n  let = 1;\n  var y 2;\n  return;\n}\n");
        assert_eq!(errs.len(), 2, "{errs:?}");
        assert!(
            errs[0].starts_with("2:7: expected identifier, found `=`"),
            "{errs:?}"
        );
        assert!(errs[1].starts_with("3:9: "), "{errs:?}");
    }

    #[test]
    fn limits_keep_the_stack_safe() {
        let ok_chain = format!("kernel k() {{ let a = 1{}; }}", " + 1".repeat(250));
        let ok_nest = format!(
            "kernel k() {{ let a = {}1{}; }}",
            "(".repeat(60),
            ")".repeat(60)
        );
        let ok_neg = format!("kernel k() {{ let a = {}1; }}", "-".repeat(250));
        for src in [&ok_chain, &ok_nest, &ok_neg] {
            let f = SourceFile::new("t.k", src.as_str());
            let m = parse(&f).unwrap();
            assert!(crate::check::check(&f, &m).is_ok());
        }
        let chain = format!("kernel k() {{ let a = 1{}; }}", " + 1".repeat(300));
        assert_eq!(
            errors(&chain),
            vec!["1:1048: statement has more than 256 operators"]
        );
        let nest = format!(
            "kernel k() {{ let a = {}1{}; }}",
            "(".repeat(70),
            ")".repeat(70)
        );
        assert_eq!(
            errors(&nest),
            vec!["1:85: brackets nested more than 64 levels deep"]
        );
    }

    /// Every prefix of every example must produce a module or diagnostics,
    /// never a panic.
    #[test]
    fn truncated_examples_never_panic() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
        for entry in std::fs::read_dir(&dir).expect("examples dir") {
            let path = entry.expect("dir entry").path();
            if path.extension().is_none_or(|e| e != "k") {
                continue; // examples/opencl/, args files
            }
            let text = std::fs::read_to_string(&path).expect("read example");
            for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                let f = SourceFile::new("t.k", &text[..end]);
                match parse(&f) {
                    Ok(m) => {
                        if let Err(d) = crate::check::check(&f, &m) {
                            crate::diag::render(&f, &d, false);
                        }
                    }
                    Err(d) => {
                        crate::diag::render(&f, &d, false);
                    }
                }
            }
        }
    }

    #[test]
    fn recovery() {
        let cases: &[(&str, &[&str])] = &[
            (
                "kernel k() {\n  let x = 1\n  let y = 2;\n  y = ;\n}\n",
                &[
                    "2:12: expected `;`, found `let`",
                    "4:7: expected an expression, found `;`",
                ],
            ),
            (
                "kernel k() {\n  if x { let = 1; }\n  while { }\n}\n",
                &[
                    "2:14: expected identifier, found `=`",
                    "3:9: expected an expression, found `{`",
                ],
            ),
            (
                "kernel k( {\n}\n",
                &["1:11: expected identifier or `)`, found `{`"],
            ),
        ];
        for (src, want) in cases {
            assert_eq!(&errors(src), want, "{src}");
        }
    }

    #[test]
    fn lex_errors() {
        assert_eq!(
            errors("kernel k() { let x = 1 $ 2; }"),
            vec!["1:24: unexpected character `$`"]
        );
        assert_eq!(
            errors("kernel k() { /* x }"),
            vec!["1:14: unterminated block comment"]
        );
    }
}
