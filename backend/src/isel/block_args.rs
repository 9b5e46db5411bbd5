//! Block arguments: their registers and the parallel copies on the edges into them.
//!
//! Guarantees: a block argument lives in one register (class from its uniformity and type:
//! a divergent `i1` a lane mask, a uniform one an SGPR 0/1, divergent values and `f32` VGPRs,
//! other uniform values SGPRs), shared with the argument it is only passed on to
//! (`forwarding`); an edge writes every argument of its target as a parallel copy under the
//! edge's EXEC (sources read before any destination is written, lane masks merged, copies
//! already in place omitted); the uniform arguments of a staged block are written to
//! `incoming` registers and moved in when the block starts.

use super::{Isel, IselError, Operand2, Val};
use crate::isa::{is_inline_int, Opc};
use crate::mir::{self, Operand};
use kc_dialect::{Op, Type, Value};

impl Isel<'_> {
    /// Assigns the block arguments of successor `succ` of `term` (a parallel copy).
    pub(super) fn copies(&mut self, term: Op, succ: usize) -> Result<(), IselError> {
        let s = &self.ir.ops[term].succs[succ];
        if s.args.is_empty() {
            return Ok(());
        }
        let dsts = self.ir.blocks[s.block].args.clone();
        let srcs = s.args.clone();
        let staged = self.staged.contains(&self.u.cfg.index[s.block]);
        let mut locs = Vec::new();
        for &d in &dsts {
            locs.push(if staged && self.is_staged_kind(d) {
                self.incoming_loc(d)
            } else {
                self.arg_loc(d)
            });
        }
        // Sources read before any destination is written: one that is another copy's
        // destination is read into a temporary first; one already in place needs no copy.
        let mut read = Vec::new();
        for (k, (&d, &sv)) in dsts.iter().zip(&srcs).enumerate() {
            let x = self.use_val(sv, term)?;
            let x = if x == locs[k] {
                None
            } else if locs.contains(&x) {
                Some(self.snapshot(x, d)?)
            } else {
                Some(x)
            };
            read.push(x);
        }
        for ((&d, x), dv) in dsts.iter().zip(read).zip(locs) {
            if let Some(x) = x {
                self.assign(dv, x, self.ir.value_type(d))?;
            }
        }
        Ok(())
    }

    /// Block arguments written for the whole wave at once (SGPRs): those of a staged target
    /// go through a separate register, moved in when the target starts.
    pub(super) fn is_staged_kind(&self, a: Value) -> bool {
        !self.u.is_divergent(a) && self.ir.value_type(a) != Type::F32
    }

    fn incoming_loc(&mut self, a: Value) -> Val {
        if let Some(x) = self.incoming.get(&a) {
            return *x;
        }
        let x = match self.arg_loc(a) {
            Val::S(_) if Self::dwords(self.ir.value_type(a)) == 2 => {
                Val::S(Operand2::Virt(self.s64()))
            }
            Val::S(_) => Val::S(Operand2::Virt(self.s32())),
            Val::SBool(_) => Val::SBool(self.s32()),
            other => other,
        };
        self.incoming.insert(a, x);
        x
    }

    /// At the start of a staged block: its uniform arguments take their incoming values.
    pub(super) fn take_incoming(&mut self, b: u32) -> Result<(), IselError> {
        if !self.staged.contains(&b) {
            return Ok(());
        }
        let block = self.u.cfg.blocks[b as usize];
        for a in self.ir.blocks[block].args.clone() {
            if self.is_staged_kind(a) {
                let (dst, src) = (self.arg_loc(a), self.incoming_loc(a));
                self.assign(dst, src, self.ir.value_type(a))?;
            }
        }
        Ok(())
    }

    fn snapshot(&mut self, x: Val, d: Value) -> Result<Val, IselError> {
        let ty = self.ir.value_type(d);
        let dw = Self::dwords(ty);
        Ok(match x {
            Val::V(_) => {
                let t = if dw == 2 { self.v64() } else { self.v32() };
                self.assign(Val::V(t), x, ty)?;
                Val::V(t)
            }
            Val::Mask(m) => {
                let t = self.s64();
                self.emit(Opc::S_MOV_B64, vec![mir::r(t), mir::r(m)]);
                Val::Mask(t)
            }
            Val::SBool(b) => {
                let t = self.s32();
                self.emit(Opc::S_MOV_B32, vec![mir::r(t), mir::r(b)]);
                Val::SBool(t)
            }
            Val::S(o) => {
                let t = if dw == 2 { self.s64() } else { self.s32() };
                let op = if dw == 2 {
                    Opc::S_MOV_B64
                } else {
                    Opc::S_MOV_B32
                };
                self.emit(op, vec![mir::r(t), o.op()]);
                Val::S(Operand2::Virt(t))
            }
            other => other,
        })
    }

    /// The register of a block argument, created on first use; a forwarded argument
    /// (`Isel::forwarding`) shares the register of the argument it is passed on to.
    pub(super) fn arg_loc(&mut self, a: Value) -> Val {
        if let Some(x) = self.vals.get(&a) {
            return *x;
        }
        if self.forward.contains_key(&a) {
            let mut path = vec![a];
            let mut t = a;
            while let Some(&n) = self.forward.get(&t) {
                t = n;
                if self.vals.contains_key(&t) {
                    break;
                }
                path.push(t);
            }
            let x = match self.vals.get(&t) {
                Some(x) => *x,
                None => {
                    path.pop();
                    self.arg_loc(t)
                }
            };
            for p in path {
                self.vals.insert(p, x);
            }
            return x;
        }
        let ty = self.ir.value_type(a);
        let div = self.u.is_divergent(a);
        let dw = Self::dwords(ty);
        let x = if ty == Type::Token {
            Val::None
        } else if ty == Type::I1 {
            if div {
                Val::Mask(self.s64())
            } else {
                Val::SBool(self.s32())
            }
        } else if div || ty == Type::F32 {
            Val::V(if dw == 2 { self.v64() } else { self.v32() })
        } else {
            Val::S(Operand2::Virt(if dw == 2 {
                self.s64()
            } else {
                self.s32()
            }))
        };
        self.vals.insert(a, x);
        x
    }

    /// `dst = x` for the lanes in EXEC (lane masks merge: other lanes keep their bits).
    pub(super) fn assign(&mut self, dst: Val, x: Val, ty: Type) -> Result<(), IselError> {
        let dw = Self::dwords(ty);
        match dst {
            Val::V(d) => {
                for i in 0..dw {
                    let src = match x {
                        Val::V(v) => mir::rsub(v, i, 1),
                        Val::S(o) => o.sub(i),
                        Val::Const(c) => Operand::Imm(if i == 0 {
                            c as u32 as i32 as i64
                        } else {
                            (c >> 32) as i32 as i64
                        }),
                        _ => {
                            let v = self.vreg(x, dw)?;
                            mir::rsub(v, i, 1)
                        }
                    };
                    let src = match src {
                        Operand::Imm(c) if !is_inline_int(c) => Operand::Imm(c as u32 as i64),
                        o => o,
                    };
                    self.emit(Opc::V_MOV_B32, vec![mir::rsub(d, i, 1), src]);
                }
            }
            Val::S(Operand2::Virt(d)) => {
                let src = self.sop(x, dw)?;
                let op = if dw == 2 {
                    Opc::S_MOV_B64
                } else {
                    Opc::S_MOV_B32
                };
                self.emit(op, vec![mir::r(d), src]);
            }
            Val::SBool(d) => {
                let src = self.sbool(x)?;
                self.emit(Opc::S_MOV_B32, vec![mir::r(d), src]);
            }
            Val::Mask(d) => {
                let m = self.mask(x)?;
                let t = self.s64();
                self.emit(Opc::S_ANDN2_B64, vec![mir::r(d), mir::r(d), Self::exec()]);
                self.emit(Opc::S_AND_B64, vec![mir::r(t), mir::r(m), Self::exec()]);
                self.emit(Opc::S_OR_B64, vec![mir::r(d), mir::r(d), mir::r(t)]);
            }
            Val::None => {}
            _ => return Err(self.internal("bad copy destination")),
        }
        Ok(())
    }
}
