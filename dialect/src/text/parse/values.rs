//! Types, attributes and literals.

use super::{PResult, Parser};
use crate::attrs::Attr;
use crate::text::lexer::{unescape, Tok, Token};
use crate::types::{AddrSpace, Scalar, Type};

impl Parser<'_> {
    pub(super) fn symbol(&self, t: Token) -> PResult<String> {
        let s = &self.slice(t)[1..];
        if s.starts_with('"') {
            unescape(s).map_err(|m| self.err(t.start, m))
        } else {
            Ok(s.to_string())
        }
    }

    pub(super) fn type_list(&mut self, end: Tok) -> PResult<Vec<Type>> {
        let mut tys = Vec::new();
        if self.peek() != end {
            loop {
                tys.push(self.parse_type()?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        Ok(tys)
    }

    pub(super) fn parse_scalar(&mut self) -> PResult<Scalar> {
        let t = self.tok();
        match (t.kind == Tok::Ident)
            .then(|| Scalar::from_name(self.slice(t)))
            .flatten()
        {
            Some(s) => {
                self.bump();
                Ok(s)
            }
            None => Err(self.unexpected("a scalar type (`i1`, `i32`, `i64`, `f32`)")),
        }
    }

    pub(super) fn parse_type(&mut self) -> PResult<Type> {
        let t = self.tok();
        match t.kind {
            Tok::Ident => Ok(Type::Scalar(self.parse_scalar()?)),
            Tok::Bang => {
                self.bump();
                match self.slice(t) {
                    "!conv.token" => Ok(Type::Token),
                    "!kernel.var" => {
                        self.expect(Tok::Lt, "`<`")?;
                        let s = self.parse_scalar()?;
                        self.expect(Tok::Gt, "`>`")?;
                        Ok(Type::Var(s))
                    }
                    "!kernel.ptr" => {
                        self.expect(Tok::Lt, "`<`")?;
                        let st = self.tok();
                        let space = (st.kind == Tok::Ident)
                            .then(|| AddrSpace::from_name(self.slice(st)))
                            .flatten()
                            .ok_or_else(|| {
                                self.unexpected("an address space (`global`, `shared`)")
                            })?;
                        self.bump();
                        self.expect(Tok::Comma, "`,`")?;
                        let s = self.parse_scalar()?;
                        self.expect(Tok::Gt, "`>`")?;
                        Ok(Type::Ptr(space, s))
                    }
                    other => Err(self.err(t.start, format!("unknown type `{other}`"))),
                }
            }
            _ => Err(self.unexpected("a type")),
        }
    }

    pub(super) fn parse_attr_dict(&mut self) -> PResult<Vec<(String, Attr)>> {
        self.expect(Tok::LBrace, "`{`")?;
        let mut out = Vec::new();
        if self.peek() != Tok::RBrace {
            loop {
                let t = self.tok();
                let name = match t.kind {
                    Tok::Ident => self.slice(t).to_string(),
                    Tok::Str => self.string(t)?,
                    _ => return Err(self.unexpected("an attribute name")),
                };
                self.bump();
                let a = if self.peek() == Tok::Equal {
                    self.bump();
                    if self.default_arith_flags()? {
                        // What kc's ops mean anyway: nothing to keep.
                        if !self.eat(Tok::Comma) {
                            break;
                        }
                        continue;
                    }
                    self.parse_attr()?
                } else {
                    Attr::Unit
                };
                out.push((name, a));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RBrace, "`}`")?;
        Ok(out)
    }

    /// `#arith.overflow<none>` / `#arith.fastmath<none>`: the default flags `mlir-opt` prints
    /// on arith ops as properties (no wrap flags, no fast-math), which is what kc's ops mean;
    /// eaten, and `true` returned. Other flags are an error: kc does not model them.
    fn default_arith_flags(&mut self) -> PResult<bool> {
        let t = self.tok();
        if t.kind != Tok::Hash || !matches!(self.slice(t), "#arith.overflow" | "#arith.fastmath") {
            return Ok(false);
        }
        self.bump();
        self.expect(Tok::Lt, "`<`")?;
        if !self.is_ident("none") {
            return Err(self.unexpected("`none` (kc does not model wrap or fast-math flags)"));
        }
        self.bump();
        self.expect(Tok::Gt, "`>`")?;
        Ok(true)
    }

    pub(super) fn parse_attr(&mut self) -> PResult<Attr> {
        let t = self.tok();
        match t.kind {
            Tok::Str => {
                self.bump();
                Ok(Attr::Str(self.string(t)?))
            }
            Tok::At => {
                self.bump();
                Ok(Attr::Symbol(self.symbol(t)?))
            }
            Tok::Ident => {
                match self.slice(t) {
                    "true" | "false" => {
                        self.bump();
                        Ok(Attr::Bool(self.slice(t) == "true"))
                    }
                    "unit" => {
                        self.bump();
                        Ok(Attr::Unit)
                    }
                    "array" => {
                        self.bump();
                        self.expect(Tok::Lt, "`<`")?;
                        if !self.is_ident("i32") {
                            return Err(self.unexpected("`i32`"));
                        }
                        self.bump();
                        let mut v = Vec::new();
                        if self.peek() == Tok::Colon {
                            self.bump();
                            loop {
                                let n = self.expect(Tok::Int, "an integer")?;
                                let x = self.int(n)?;
                                v.push(i32::try_from(x).map_err(|_| {
                                    self.err(n.start, "out of range for i32".into())
                                })?);
                                if !self.eat(Tok::Comma) {
                                    break;
                                }
                            }
                        }
                        self.expect(Tok::Gt, "`>`")?;
                        Ok(Attr::I32Array(v))
                    }
                    _ => Err(self.unexpected("an attribute")),
                }
            }
            Tok::Int | Tok::Float => {
                self.bump();
                if self.peek() == Tok::Colon {
                    self.bump();
                    let ty = self.parse_type()?;
                    self.number(t, ty)
                } else if t.kind == Tok::Int {
                    Ok(Attr::Int(self.int(t)?, Type::I64))
                } else {
                    self.number(t, Type::F32)
                }
            }
            _ => Err(self.unexpected("an attribute")),
        }
    }

    /// A numeric literal of type `ty`.
    pub(super) fn number(&self, t: Token, ty: Type) -> PResult<Attr> {
        let s = self.slice(t);
        if ty == Type::F32 {
            let (neg, digits) = match s.strip_prefix('-') {
                Some(d) => (true, d),
                None => (false, s),
            };
            if let Some(hex) = digits
                .strip_prefix("0x")
                .or_else(|| digits.strip_prefix("0X"))
            {
                let bits = u32::from_str_radix(hex, 16)
                    .map_err(|_| self.err(t.start, "malformed hexadecimal float".into()))?;
                let f = f32::from_bits(bits);
                return Ok(Attr::Float(if neg { -f } else { f }));
            }
            return s
                .parse::<f32>()
                .map(Attr::Float)
                .map_err(|_| self.err(t.start, format!("malformed float literal `{s}`")));
        }
        if !ty.is_int() {
            return Err(self.err(t.start, format!("a literal cannot have type {ty}")));
        }
        if t.kind == Tok::Float {
            return Err(self.err(
                t.start,
                format!("expected an integer literal for type {ty}"),
            ));
        }
        let v = self.int(t)?;
        // As MLIR: a value of a signless `iN` fits N bits read as signed or as unsigned
        // (`-1` and `4294967295` are both the i32 with every bit set); 64 bits `int` checks.
        let bits = ty.bits();
        if bits < 64 && !(-(1i64 << (bits - 1))..=(1i64 << bits) - 1).contains(&v) {
            return Err(self.err(
                t.start,
                format!("integer literal `{}` out of range for {ty}", self.slice(t)),
            ));
        }
        Ok(Attr::Int(v, ty))
    }

    pub(super) fn int(&self, t: Token) -> PResult<i64> {
        let s = self.slice(t);
        let (neg, digits) = match s.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, s),
        };
        let mag = match digits
            .strip_prefix("0x")
            .or_else(|| digits.strip_prefix("0X"))
        {
            Some(hex) => u64::from_str_radix(hex, 16).ok().map(|v| v as i128),
            None => digits.parse::<i128>().ok(),
        };
        let v = mag.map(|m| if neg { -m } else { m });
        match v {
            Some(v) if (i64::MIN as i128..=u64::MAX as i128).contains(&v) => Ok(v as i64),
            _ => Err(self.err(t.start, format!("integer literal `{s}` out of range"))),
        }
    }
}
