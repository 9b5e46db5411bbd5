//! Locations: `loc("file":line:col)`, and what else `mlir-opt` prints (aliases defined at the
//! top level, fused, name, call-site and range locations), kept as kc's file locations.

use super::{PResult, Parser};
use crate::location::Loc;
use crate::text::lexer::Tok;

impl Parser<'_> {
    /// Records every location alias definition, `#name = loc(`, which may follow its uses.
    pub(super) fn find_aliases(&mut self) -> PResult<()> {
        for (i, w) in self.toks.windows(4).enumerate() {
            if w[0].kind != Tok::Hash || w[1].kind != Tok::Equal {
                continue;
            }
            let is_loc = w[2].kind == Tok::Ident && self.slice(w[2]) == "loc";
            if !is_loc || w[3].kind != Tok::LParen {
                return Err(self.err(
                    w[2].start,
                    "expected `loc(...)`: kc reads only location aliases".into(),
                ));
            }
            let name = self.slice(w[0]).to_string();
            if self.loc_aliases.insert(name.clone(), i + 4).is_some() {
                return Err(self.err(w[0].start, format!("alias `{name}` redefined")));
            }
        }
        Ok(())
    }

    /// `loc(...)`, if one follows. kc's locations are `"file":line:col`; of MLIR's other
    /// kinds (which `mlir-opt` may print) it keeps the file location inside: a fused
    /// location's first known part, a name location's child, a call site's callee. `#alias`
    /// reads the alias's definition (`#loc3 = loc(...)`, anywhere at the top level).
    pub(super) fn parse_loc(&mut self) -> PResult<Loc> {
        if !self.is_ident("loc") {
            return Ok(Loc::UNKNOWN);
        }
        self.bump();
        self.expect(Tok::LParen, "`(`")?;
        let loc = self.location(0)?;
        self.expect(Tok::RParen, "`)`")?;
        Ok(loc)
    }

    /// A location inside `loc(...)`. Recurses per level of nesting (and alias reference), at
    /// most `MAX_LOC_DEPTH` deep: MLIR prints only a few.
    pub(super) fn location(&mut self, depth: usize) -> PResult<Loc> {
        const MAX_LOC_DEPTH: usize = 64;
        if depth > MAX_LOC_DEPTH {
            let t = self.tok();
            return Err(self.err(
                t.start,
                "location nested too deeply (or an alias refers to itself)".into(),
            ));
        }
        let t = self.tok();
        let word = self.slice(t);
        match t.kind {
            Tok::Hash => {
                let Some(&at) = self.loc_aliases.get(word) else {
                    return Err(self.err(t.start, format!("undefined alias `{word}`")));
                };
                let back = self.pos + 1;
                self.pos = at;
                let loc = self.location(depth + 1);
                self.pos = back;
                loc
            }
            Tok::Ident if word == "unknown" => {
                self.bump();
                Ok(Loc::UNKNOWN)
            }
            Tok::Ident if word == "fused" => {
                self.bump();
                // Metadata, `fused<...>[...]`: skipped, brackets balanced.
                if self.peek() == Tok::Lt {
                    let mut open = 0usize;
                    loop {
                        match self.bump().kind {
                            Tok::Lt => open += 1,
                            Tok::Gt => open -= 1,
                            Tok::Eof => return Err(self.unexpected("`>`")),
                            _ => {}
                        }
                        if open == 0 {
                            break;
                        }
                    }
                }
                self.expect(Tok::LBracket, "`[`")?;
                let mut first = Loc::UNKNOWN;
                loop {
                    let l = self.location(depth + 1)?;
                    if !first.is_known() {
                        first = l;
                    }
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                self.expect(Tok::RBracket, "`]`")?;
                Ok(first)
            }
            Tok::Ident if word == "callsite" => {
                self.bump();
                self.expect(Tok::LParen, "`(`")?;
                let callee = self.location(depth + 1)?;
                if !self.is_ident("at") {
                    return Err(self.unexpected("`at`"));
                }
                self.bump();
                let caller = self.location(depth + 1)?;
                self.expect(Tok::RParen, "`)`")?;
                Ok(if callee.is_known() { callee } else { caller })
            }
            Tok::Str => {
                self.bump();
                let name = self.string(t)?;
                if self.eat(Tok::LParen) {
                    // A name location with a child: `"x"("f":1:2)`.
                    let child = self.location(depth + 1)?;
                    self.expect(Tok::RParen, "`)`")?;
                    return Ok(child);
                }
                if !self.eat(Tok::Colon) {
                    return Ok(Loc::UNKNOWN); // a bare name location
                }
                let line = self.u32_lit()?;
                let col = if self.eat(Tok::Colon) {
                    self.u32_lit()?
                } else {
                    0
                };
                // A range's end (`"f":1:2 to 3:4`, `to :4`): kc keeps the start.
                if self.is_ident("to") {
                    self.bump();
                    while matches!(self.peek(), Tok::Int | Tok::Colon) {
                        self.bump();
                    }
                }
                Ok(self.ir.loc(&name, line, col))
            }
            _ => Err(self.unexpected("a location")),
        }
    }

    /// Skips location alias definitions (`#loc3 = loc(...)`), which the pre-pass has
    /// recorded; each is read, so a malformed one is an error.
    pub(super) fn skip_alias_defs(&mut self) -> PResult<()> {
        while self.peek() == Tok::Hash && self.peek_at(1) == Tok::Equal {
            self.bump();
            self.bump();
            if !self.is_ident("loc") {
                return Err(self.unexpected("`loc(...)`: kc reads only location aliases"));
            }
            self.parse_loc()?;
        }
        Ok(())
    }

    pub(super) fn u32_lit(&mut self) -> PResult<u32> {
        let t = self.expect(Tok::Int, "a number")?;
        self.slice(t)
            .parse()
            .map_err(|_| self.err(t.start, "expected a line or column number".into()))
    }
}
