//! kc's own ops (`kernel`, `conv`) in their custom syntax: the registry's format for the op
//! (`registry::syntax`), read element by element, the types it does not write inferred by its
//! rules, as the parser MLIR generates from the same format does.

use super::{Body, PResult, Parser, TypedUse, Use};
use crate::attrs::Attr;
use crate::entities::Op;
use crate::registry::syntax::{Elem, Format, Ref};
use crate::registry::Keyword;
use crate::text::lexer::{Tok, Token};
use crate::text::print::infer_type;
use crate::types::Type;

/// What an op's format has given so far.
pub(super) struct FormatState {
    pub(super) format: &'static Format,
    /// Operands by position (the optional token last), as read.
    uses: Vec<Option<Use>>,
    /// The types the format wrote, with their offsets.
    types: Vec<(Ref, Type, usize)>,
    /// The keyword literal (`kernel.shared_alloc 256`), typed once the result types are read.
    literal: Option<Token>,
}

impl FormatState {
    pub(super) fn new(format: &'static Format) -> FormatState {
        let n = format.operands + usize::from(format.optional_token);
        FormatState {
            format,
            uses: (0..n).map(|_| None).collect(),
            types: Vec::new(),
            literal: None,
        }
    }
}

/// The token kind of a format literal that is punctuation.
fn punct(lit: &str) -> Option<Tok> {
    Some(match lit {
        "," => Tok::Comma,
        ":" => Tok::Colon,
        "(" => Tok::LParen,
        ")" => Tok::RParen,
        "[" => Tok::LBracket,
        "]" => Tok::RBracket,
        "<" => Tok::Lt,
        ">" => Tok::Gt,
        "=" => Tok::Equal,
        "->" => Tok::Arrow,
        _ => return None,
    })
}

impl Parser<'_> {
    /// Is the literal `lit` next?
    fn at_lit(&self, lit: &str) -> bool {
        match punct(lit) {
            Some(k) => self.peek() == k,
            None => self.is_ident(lit),
        }
    }

    /// Reads `elems` of `op`'s format.
    pub(super) fn format_elems(
        &mut self,
        op: Op,
        elems: &[Elem],
        st: &mut FormatState,
    ) -> PResult<()> {
        for e in elems {
            match e {
                Elem::Lit(l) => {
                    if !self.at_lit(l) {
                        return Err(self.unexpected(&format!("`{l}`")));
                    }
                    self.bump();
                }
                Elem::Var(Ref::Operand(i)) => {
                    if self.peek() != Tok::Percent {
                        return Err(self.unexpected("an operand"));
                    }
                    st.uses[*i] = Some(self.name_use());
                }
                Elem::Var(Ref::Keyword(kw)) => self.format_keyword(op, *kw, st)?,
                Elem::Var(_) => unreachable!("regions split a format"),
                Elem::Type(r) => {
                    let at = self.tok().start;
                    let t = self.parse_type()?;
                    st.types.push((*r, t, at));
                }
                Elem::AttrDict { with_keyword } => {
                    let dict = if *with_keyword {
                        self.is_ident("attributes") && self.peek_at(1) == Tok::LBrace
                    } else {
                        self.peek() == Tok::LBrace
                            && matches!(self.peek_at(1), Tok::Ident | Tok::Str)
                            && self.peek_at(2) == Tok::Equal
                    };
                    if dict {
                        if *with_keyword {
                            self.bump();
                        }
                        for (n, a) in self.parse_attr_dict()? {
                            self.ir.set_attr(op, &n, a);
                        }
                    }
                }
                Elem::Optional(_, inner) => {
                    let present = match inner.first() {
                        Some(Elem::Lit(l)) => self.at_lit(l),
                        Some(Elem::Var(Ref::Operand(_))) => {
                            self.peek() == Tok::Percent && !self.tok().nl
                        }
                        _ => false,
                    };
                    if present {
                        self.format_elems(op, inner, st)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The keyword attribute: a word of its list, a symbol or a literal.
    fn format_keyword(&mut self, op: Op, kw: Keyword, st: &mut FormatState) -> PResult<()> {
        let t = self.tok();
        let word = self.slice(t);
        match kw {
            Keyword::Ident(attr, names) | Keyword::Enum(attr, names) => {
                let i = self.word_in(names)?;
                let a = match kw {
                    Keyword::Enum(..) => Attr::Int(i as i64, Type::I64),
                    _ => Attr::Str(word.to_string()),
                };
                self.bump();
                self.ir.set_attr(op, attr, a);
            }
            Keyword::Symbol(attr) => {
                if t.kind != Tok::At {
                    return Err(self.unexpected("a symbol name `@name`"));
                }
                self.bump();
                let s = self.symbol(t)?;
                self.ir.set_attr(op, attr, Attr::Str(s));
            }
            Keyword::Literal(attr) => {
                let boolean = t.kind == Tok::Ident && matches!(word, "true" | "false");
                if !boolean && !matches!(t.kind, Tok::Int | Tok::Float) {
                    return Err(self.unexpected("a literal"));
                }
                st.literal = Some(self.bump());
                // Reserve the attribute's place; the value needs the result type.
                self.ir.set_attr(op, attr, Attr::Unit);
            }
        }
        Ok(())
    }

    /// After the regions: the last piece (if regions came before it), the location, then
    /// every operand and result type, written or inferred.
    pub(super) fn format_finish(&mut self, op: Op, mut st: FormatState) -> PResult<Body> {
        let f = st.format;
        if f.pieces.len() > 1 {
            let last = f.pieces.last().expect("a format has pieces");
            self.format_elems(op, last, &mut st)?;
        }
        let loc = self.parse_loc()?;
        let written = |r: Ref| st.types.iter().find(|(w, _, _)| *w == r);
        let type_of = |p: &Parser, r: Ref| -> PResult<Option<Type>> {
            if let Some((_, t, _)) = written(r) {
                return Ok(Some(*t));
            }
            let Some((rule, from)) = f.inferred(r) else {
                return Ok(None);
            };
            let (_, t, at) = *written(from).expect("checked by the syntax tests");
            match infer_type(rule, t) {
                Some(t) => Ok(Some(t)),
                None => Err(p.err(
                    at,
                    format!(
                        "`{}` needs a pointer or variable type here, not {t}",
                        p.ir.ops[op].opcode.name()
                    ),
                )),
            }
        };
        let mut result_tys = Vec::new();
        for i in 0..f.results {
            match type_of(self, Ref::Result(i))? {
                Some(t) => result_tys.push(t),
                None => unreachable!("every result type is written or inferred"),
            }
        }
        let mut operands: Vec<TypedUse> = Vec::new();
        for (i, u) in st.uses.into_iter().enumerate() {
            if let Some(u) = u {
                let t = type_of(self, Ref::Operand(i))?;
                operands.push((u, t));
            }
        }
        if let (Some(t), Some(kw)) = (st.literal, self.ir.ops[op].opcode.spec().keyword) {
            self.literal_attr(op, kw, t, &result_tys)?;
        }
        Ok(Body {
            operands,
            succs: Vec::new(),
            result_tys,
            loc,
        })
    }
}
