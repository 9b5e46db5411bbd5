//! Upstream ops (`arith`, `cf`) in MLIR 22's custom syntax: each form's operands, types and
//! successors, read whole up to the op's location.

use super::{Form, PResult, Parser, TypedUse, Use};
use crate::attrs::Attr;
use crate::entities::Op;
use crate::registry::{Keyword, Opcode};
use crate::text::lexer::Tok;
use crate::text::print::Upstream;
use crate::types::Type;

impl Parser<'_> {
    /// An upstream op in MLIR's custom syntax (`u`), after its name, up to its location.
    pub(super) fn upstream(&mut self, op: Op, u: Upstream) -> PResult<Form> {
        let mut uses = Vec::new();
        let mut succs = Vec::new();
        let result_tys = match u {
            Upstream::Module => unreachable!("a module is read in kc's custom form"),
            Upstream::Constant => {
                // `4 : i32`, `1.000000e+00 : f32`, `0x7FC00000 : f32`, `true` (an i1; kc used
                // to print `true : i1`, still read).
                let t = self.tok();
                let boolean = t.kind == Tok::Ident && matches!(self.slice(t), "true" | "false");
                if !boolean && !matches!(t.kind, Tok::Int | Tok::Float) {
                    return Err(self.unexpected("a constant value"));
                }
                self.bump();
                let ty = if self.eat(Tok::Colon) {
                    self.parse_type()?
                } else if boolean {
                    Type::I1
                } else {
                    return Err(self.unexpected("`:` and the constant's type"));
                };
                let a = if boolean {
                    if ty != Type::I1 {
                        return Err(self.err(
                            t.start,
                            format!("a boolean literal needs type i1, not {ty}"),
                        ));
                    }
                    Attr::Int((self.slice(t) == "true") as i64, ty)
                } else {
                    self.number(t, ty)?
                };
                self.ir.set_attr(op, "value", a);
                vec![ty]
            }
            Upstream::Operands => {
                uses = self.operand_list()?;
                self.expect(Tok::Colon, "`:`")?;
                let ty = self.parse_type()?;
                // A select's condition is i1; every other operand has the result's type.
                let select = self.ir.ops[op].opcode == Opcode::Select;
                for (i, u) in uses.iter_mut().enumerate() {
                    u.1 = Some(if select && i == 0 { Type::I1 } else { ty });
                }
                vec![ty]
            }
            Upstream::Compare => {
                let kw = self.ir.ops[op].opcode.spec().keyword;
                let Some(Keyword::Enum(attr, names)) = kw else {
                    unreachable!("a compare has a predicate");
                };
                let i = self.word_in(names)?;
                self.bump();
                self.ir.set_attr(op, attr, Attr::Int(i as i64, Type::I64));
                self.expect(Tok::Comma, "`,`")?;
                uses = self.operand_list()?;
                self.expect(Tok::Colon, "`:`")?;
                let ty = self.parse_type()?;
                for u in &mut uses {
                    u.1 = Some(ty);
                }
                vec![Type::I1]
            }
            Upstream::Cast => {
                uses = self.operand_list()?;
                self.expect(Tok::Colon, "`:`")?;
                let from = self.parse_type()?;
                if !self.is_ident("to") {
                    return Err(self.unexpected("`to`"));
                }
                self.bump();
                for u in &mut uses {
                    u.1 = Some(from);
                }
                vec![self.parse_type()?]
            }
            Upstream::Br | Upstream::CondBr => {
                if u == Upstream::CondBr {
                    uses.push((self.operand()?, Some(Type::I1)));
                    self.expect(Tok::Comma, "`,`")?;
                }
                loop {
                    succs.push(self.successor()?);
                    if u == Upstream::Br || succs.len() == 2 {
                        break;
                    }
                    self.expect(Tok::Comma, "`,`")?;
                }
                Vec::new()
            }
        };
        Ok(Form::Upstream {
            uses,
            succs,
            result_tys,
        })
    }

    pub(super) fn operand(&mut self) -> PResult<Use> {
        if self.peek() != Tok::Percent {
            return Err(self.unexpected("an operand"));
        }
        Ok(self.name_use())
    }

    /// `%a, %b` (at least one), untyped.
    pub(super) fn operand_list(&mut self) -> PResult<Vec<TypedUse>> {
        let mut uses = vec![(self.operand()?, None)];
        while self.eat(Tok::Comma) {
            uses.push((self.operand()?, None));
        }
        Ok(uses)
    }

    /// `^bb` or `^bb(%a, %b : i32, i32)`.
    pub(super) fn successor(&mut self) -> PResult<(Use, Vec<TypedUse>)> {
        if self.peek() != Tok::Caret {
            return Err(self.unexpected("a successor block"));
        }
        let b = self.name_use();
        let mut args = Vec::new();
        if self.eat(Tok::LParen) {
            args = self.operand_list()?;
            let colon = self.expect(Tok::Colon, "`:` and the types of the block's arguments")?;
            let tys = self.type_list(Tok::RParen)?;
            self.expect(Tok::RParen, "`)`")?;
            if tys.len() != args.len() {
                return Err(self.err(
                    colon.start,
                    format!("{} arguments but {} types", args.len(), tys.len()),
                ));
            }
            for (a, t) in args.iter_mut().zip(tys) {
                a.1 = Some(t);
            }
        }
        Ok((b, args))
    }
}
