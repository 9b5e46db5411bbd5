//! Instruction selection for the 32-bit integer and f32 arithmetic, compares and selects, and
//! the dispatch of the other `arith` ops (`arith`) to `i1.rs` (every op on `i1` operands and
//! the casts between `i1` and f32), `alu64.rs`, `convert.rs` and `division.rs`.
//!
//! Guarantees:
//! - an op whose result is uniform, with no VGPR or lane-mask operand and no f32 side, runs
//!   on the scalar unit (`s_*` into an SGPR); otherwise on the vector unit: VOP2 with the
//!   VGPR operand second (swapped when the op commutes, the reversed opcode for `sub`), VOP3
//!   (no literal, one scalar operand) for multiplies and compares;
//! - compares: uniform integer ones are `s_cmp_*` + `s_cselect_b32` (64-bit ones only eq / ne
//!   on the scalar unit); the others `v_cmp_*` into a lane mask that has no bits outside EXEC,
//!   read back as an SGPR 0/1 when the result is uniform; f32 `false` / `true` are constants;
//! - selects: `s_cselect_b{32,64}` or one `v_cndmask_b32` per dword; on `i1` lane masks,
//!   `(c & a) | (b & ~c)`;
//! - `minimumf` / `maximumf` give NaN when an operand is NaN (`v_{min,max}_f32`, then
//!   `v_cndmask_b32` on `v_cmp_u_f32`).

use super::{err, i1, Isel, IselError, Operand2, Val};
use crate::isa::{is_inline_int, Opc};
use crate::mir::{self, File, Operand, VReg};
use kc_dialect::{Attr, Op, Opcode, Type, Value};

impl Isel<'_> {
    pub(super) fn arith(&mut self, op: Op, div: bool) -> Result<(), IselError> {
        use Opcode::*;
        let ir = self.ir;
        let d = &ir.ops[op];
        let opc = d.opcode;
        let rty = ir.value_type(d.results[0]);
        let oty = d.operands.first().map(|&v| ir.value_type(v)).unwrap_or(rty);
        let xs: Vec<Val> = d
            .operands
            .iter()
            .map(|&v| self.use_val(v, op))
            .collect::<Result<_, _>>()?;
        if i1::is_i1_op(opc, oty, rty) {
            let pred = ir.attr(op, "predicate").and_then(Attr::as_int).unwrap_or(0);
            return self.i1_op(op, opc, pred, &xs, div);
        }
        let vector = div
            || oty == Type::F32
            || rty == Type::F32
            || xs.iter().any(|x| matches!(x, Val::V(_) | Val::Mask(_)));
        match opc {
            CmpI | CmpF => {
                let pred = ir.attr(op, "predicate").and_then(Attr::as_int).unwrap_or(0) as usize;
                return self.compare(op, opc == CmpF, pred, oty, xs[0], xs[1], div);
            }
            Select => return self.select_op(op, rty, xs[0], xs[1], xs[2], div),
            ExtUI | ExtSI | TruncI | Bitcast => {
                return self.convert_int(op, opc, oty, rty, xs[0], vector)
            }
            SIToFP | UIToFP | FPToSI | FPToUI => {
                if oty.bits() == 64 || rty.bits() == 64 {
                    return self.convert64(op, opc, xs[0]);
                }
                let o = match opc {
                    SIToFP => Opc::V_CVT_F32_I32,
                    UIToFP => Opc::V_CVT_F32_U32,
                    FPToSI => Opc::V_CVT_I32_F32,
                    _ => Opc::V_CVT_U32_F32,
                };
                let a = self.vop(xs[0], 1, true)?;
                let r = self.v32();
                self.emit(o, vec![mir::r(r), a]);
                self.def(op, Val::V(r));
                return Ok(());
            }
            NegF => {
                let a = self.vreg(xs[0], 1)?;
                let r = self.v32();
                self.emit(
                    Opc::V_XOR_B32,
                    vec![mir::r(r), Operand::Imm(0x8000_0000), mir::r(a)],
                );
                self.def(op, Val::V(r));
                return Ok(());
            }
            DivF => return self.divf(op, xs[0], xs[1]),
            RemF => return self.remf(op, xs[0], xs[1]),
            DivSI | DivUI | RemSI | RemUI => {
                if rty.bits() == 64 {
                    return self.divrem64(op, opc, xs[0], xs[1], div);
                }
                let r = self.divide(opc, xs[0], xs[1])?;
                if !div {
                    let s = self.s32();
                    self.emit(Opc::V_READFIRSTLANE_B32, vec![mir::r(s), mir::r(r)]);
                    self.def(op, Val::S(Operand2::Virt(s)));
                } else {
                    self.def(op, Val::V(r));
                }
                return Ok(());
            }
            _ => {}
        }
        if rty.bits() == 64 {
            return self.arith64(op, opc, xs[0], xs[1], vector);
        }
        if !vector {
            let sopc = match opc {
                AddI => Opc::S_ADD_I32,
                SubI => Opc::S_SUB_I32,
                MulI => Opc::S_MUL_I32,
                AndI => Opc::S_AND_B32,
                OrI => Opc::S_OR_B32,
                XOrI => Opc::S_XOR_B32,
                ShLI => Opc::S_LSHL_B32,
                ShRSI => Opc::S_ASHR_I32,
                ShRUI => Opc::S_LSHR_B32,
                MinSI => Opc::S_MIN_I32,
                MaxSI => Opc::S_MAX_I32,
                MinUI => Opc::S_MIN_U32,
                MaxUI => Opc::S_MAX_U32,
                MulHiU => Opc::S_MUL_HI_U32,
                _ => return err(self.loc, format!("unsupported op {}", opc.name())),
            };
            let a = self.sop(xs[0], 1)?;
            let b = self.sop(xs[1], 1)?;
            let r = self.s32();
            self.emit(sopc, vec![mir::r(r), a, b]);
            self.def(op, Val::S(Operand2::Virt(r)));
            return Ok(());
        }
        // A funnel shift, `(a >> k) | (b << (32 - k))` (the low half of a 64-bit shift; a
        // rotate when a == b), is one `v_alignbit_b32 b, a, k`; the shifts, if nothing else
        // reads them, are dead code (`dead-defs`).
        if opc == OrI && rty == Type::I32 {
            let [x, y] = d.operands[..] else {
                unreachable!("arith.ori has two operands")
            };
            if let Some((hi, lo, k)) = self.funnel(x, y).or_else(|| self.funnel(y, x)) {
                let h = self.use_val(hi, op)?;
                let l = self.use_val(lo, op)?;
                let ho = self.vop(h, 1, false)?;
                let lo_o = if matches!(h, Val::V(_)) {
                    self.vop(l, 1, false)?
                } else {
                    mir::r(self.vreg(l, 1)?)
                };
                let r = self.v32();
                self.emit(
                    Opc::V_ALIGNBIT_B32,
                    vec![mir::r(r), ho, lo_o, Operand::Imm(k)],
                );
                self.def(op, Val::V(r));
                return Ok(());
            }
        }
        // VALU, 32-bit.
        let r = self.v32();
        let (commutes, vop2, rev) = match opc {
            AddI => (true, Some(Opc::V_ADD_U32), None),
            SubI => (false, Some(Opc::V_SUB_U32), Some(Opc::V_SUBREV_U32)),
            AndI => (true, Some(Opc::V_AND_B32), None),
            OrI => (true, Some(Opc::V_OR_B32), None),
            XOrI => (true, Some(Opc::V_XOR_B32), None),
            MinSI => (true, Some(Opc::V_MIN_I32), None),
            MaxSI => (true, Some(Opc::V_MAX_I32), None),
            MinUI => (true, Some(Opc::V_MIN_U32), None),
            MaxUI => (true, Some(Opc::V_MAX_U32), None),
            AddF => (true, Some(Opc::V_ADD_F32), None),
            SubF => (false, Some(Opc::V_SUB_F32), None),
            MulF => (true, Some(Opc::V_MUL_F32), None),
            _ => (false, None, None),
        };
        if let Some(o) = vop2 {
            let (a, b) = (xs[0], xs[1]);
            let bv = matches!(b, Val::V(_));
            let av = matches!(a, Val::V(_));
            if bv {
                let ao = self.vop(a, 1, true)?;
                self.emit(o, vec![mir::r(r), ao, mir::r(b_reg(b))]);
            } else if av && commutes {
                let bo = self.vop(b, 1, true)?;
                self.emit(o, vec![mir::r(r), bo, mir::r(b_reg(a))]);
            } else if let (true, Some(rev)) = (av, rev) {
                let bo = self.vop(b, 1, true)?;
                self.emit(rev, vec![mir::r(r), bo, mir::r(b_reg(a))]);
            } else {
                let bvr = self.vreg(b, 1)?;
                let ao = self.vop(a, 1, true)?;
                self.emit(o, vec![mir::r(r), ao, mir::r(bvr)]);
            }
            self.def(op, Val::V(r));
            return Ok(());
        }
        match opc {
            MulI | MulHiU => {
                let a = self.vop(xs[0], 1, false)?;
                let b = if matches!(xs[0], Val::V(_)) {
                    self.vop(xs[1], 1, false)?
                } else {
                    mir::r(self.vreg(xs[1], 1)?)
                };
                let o = if opc == MulI {
                    Opc::V_MUL_LO_U32
                } else {
                    Opc::V_MUL_HI_U32
                };
                self.emit(o, vec![mir::r(r), a, b]);
            }
            ShLI | ShRSI | ShRUI => {
                let o = match opc {
                    ShLI => Opc::V_LSHLREV_B32,
                    ShRSI => Opc::V_ASHRREV_I32,
                    _ => Opc::V_LSHRREV_B32,
                };
                let amt = self.vop(xs[1], 1, true)?;
                let v = self.vreg(xs[0], 1)?;
                self.emit(o, vec![mir::r(r), amt, mir::r(v)]);
            }
            MinimumF | MaximumF => {
                let o = if opc == MinimumF {
                    Opc::V_MIN_F32
                } else {
                    Opc::V_MAX_F32
                };
                let a = self.vreg(xs[0], 1)?;
                let b = self.vreg(xs[1], 1)?;
                let t = self.v32();
                self.emit(o, vec![mir::r(t), mir::r(a), mir::r(b)]);
                // NaN in, NaN out (IEEE min/max return the other operand).
                let nan = self.v32();
                self.emit(Opc::V_MOV_B32, vec![mir::r(nan), Operand::Imm(0x7fc0_0000)]);
                let m = self.s64();
                self.emit(Opc::V_CMP_U_F32, vec![mir::r(m), mir::r(a), mir::r(b)]);
                self.emit(
                    Opc::V_CNDMASK_B32,
                    vec![mir::r(r), mir::r(t), mir::r(nan), mir::r(m)],
                );
            }
            _ => {
                return err(
                    self.loc,
                    format!("{} is not supported by the gfx942 backend yet", opc.name()),
                )
            }
        }
        self.def(op, Val::V(r));
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn compare(
        &mut self,
        op: Op,
        float: bool,
        pred: usize,
        ty: Type,
        a: Val,
        b: Val,
        div: bool,
    ) -> Result<(), IselError> {
        let wide = ty.bits() == 64;
        let vector = float || div || matches!(a, Val::V(_)) || matches!(b, Val::V(_));
        if !vector && (!wide || pred <= 1) {
            let o = if wide {
                [Opc::S_CMP_EQ_U64, Opc::S_CMP_LG_U64][pred]
            } else {
                [
                    Opc::S_CMP_EQ_U32,
                    Opc::S_CMP_LG_U32,
                    Opc::S_CMP_LT_I32,
                    Opc::S_CMP_LE_I32,
                    Opc::S_CMP_GT_I32,
                    Opc::S_CMP_GE_I32,
                    Opc::S_CMP_LT_U32,
                    Opc::S_CMP_LE_U32,
                    Opc::S_CMP_GT_U32,
                    Opc::S_CMP_GE_U32,
                ][pred]
            };
            let dw = if wide { 2 } else { 1 };
            let sa = self.sop(a, dw)?;
            let sb = self.sop(b, dw)?;
            self.emit(o, vec![sa, sb]);
            let r = self.s32();
            self.emit(
                Opc::S_CSELECT_B32,
                vec![mir::r(r), Operand::Imm(1), Operand::Imm(0)],
            );
            self.def(op, Val::SBool(r));
            return Ok(());
        }
        let o = if float {
            use Opc::*;
            match pred {
                0 => {
                    self.def(op, Val::Const(0));
                    return Ok(());
                }
                15 => {
                    self.def(op, Val::Const(1));
                    return Ok(());
                }
                1 => V_CMP_EQ_F32,
                2 => V_CMP_GT_F32,
                3 => V_CMP_GE_F32,
                4 => V_CMP_LT_F32,
                5 => V_CMP_LE_F32,
                6 => V_CMP_LG_F32,
                7 => V_CMP_O_F32,
                8 => V_CMP_NLG_F32,
                9 => V_CMP_NLE_F32,
                10 => V_CMP_NLT_F32,
                11 => V_CMP_NGE_F32,
                12 => V_CMP_NGT_F32,
                13 => V_CMP_NEQ_F32,
                _ => V_CMP_U_F32,
            }
        } else if wide {
            use Opc::*;
            [
                V_CMP_EQ_U64,
                V_CMP_NE_U64,
                V_CMP_LT_I64,
                V_CMP_LE_I64,
                V_CMP_GT_I64,
                V_CMP_GE_I64,
                V_CMP_LT_U64,
                V_CMP_LE_U64,
                V_CMP_GT_U64,
                V_CMP_GE_U64,
            ][pred]
        } else {
            use Opc::*;
            [
                V_CMP_EQ_U32,
                V_CMP_NE_U32,
                V_CMP_LT_I32,
                V_CMP_LE_I32,
                V_CMP_GT_I32,
                V_CMP_GE_I32,
                V_CMP_LT_U32,
                V_CMP_LE_U32,
                V_CMP_GT_U32,
                V_CMP_GE_U32,
            ][pred]
        };
        let dw = if wide { 2 } else { 1 };
        // VOP3: at most one scalar operand, no literal.
        let oa = self.vop(a, dw, false)?;
        let ob = if matches!(oa, Operand::Reg { reg: mir::Reg::Virt(v), .. } if self.mf.vregs[v].file == File::V)
        {
            self.vop(b, dw, false)?
        } else {
            mir::r(self.vreg(b, dw)?)
        };
        let m = self.s64();
        self.emit(o, vec![mir::r(m), oa, ob]);
        self.masked.insert(m);
        if div {
            self.def(op, Val::Mask(m));
        } else {
            // Uniform but computed on the vector unit.
            let b = self.sbool(Val::Mask(m))?;
            let Operand::Reg {
                reg: mir::Reg::Virt(bv),
                ..
            } = b
            else {
                unreachable!()
            };
            self.def(op, Val::SBool(bv));
        }
        Ok(())
    }

    /// A `v_cndmask_b32_e64` source per dword: an inline constant where every dword of a
    /// constant is one (VOP3 takes them; no literal, and no SGPR: the mask already uses the
    /// one constant-bus read gfx942 allows), else a VGPR.
    fn cndmask_source(&mut self, x: Val, dw: u8) -> Result<impl Fn(u8) -> Operand, IselError> {
        let part = |c: i64, i: u8| {
            let p = if i == 0 { c as u32 } else { (c >> 32) as u32 };
            p as i32 as i64
        };
        let inline = match x {
            Val::Const(c) => (0..dw).all(|i| is_inline_int(part(c, i))).then_some(c),
            _ => None,
        };
        let v = match inline {
            Some(_) => None,
            None => Some(self.vreg(x, dw)?),
        };
        Ok(move |i: u8| match (inline, v) {
            (Some(c), _) => Operand::Imm(part(c, i)),
            (None, Some(v)) => mir::rsub(v, i, 1),
            (None, None) => unreachable!("a VGPR when not inline"),
        })
    }

    pub(super) fn select_op(
        &mut self,
        op: Op,
        ty: Type,
        c: Val,
        a: Val,
        b: Val,
        div: bool,
    ) -> Result<(), IselError> {
        let dw = Self::dwords(ty);
        if ty == Type::I1 {
            if !div
                && ![c, a, b]
                    .iter()
                    .any(|x| matches!(x, Val::Mask(_) | Val::V(_)))
            {
                let sc = self.sbool(c)?;
                let sa = self.sbool(a)?;
                let sb = self.sbool(b)?;
                self.emit(Opc::S_CMP_LG_U32, vec![sc, Operand::Imm(0)]);
                let r = self.s32();
                self.emit(Opc::S_CSELECT_B32, vec![mir::r(r), sa, sb]);
                self.def(op, Val::SBool(r));
            } else {
                let mc = self.mask(c)?;
                let ma = self.mask(a)?;
                let mb = self.mask(b)?;
                let t1 = self.s64();
                let t2 = self.s64();
                let r = self.s64();
                self.emit(Opc::S_AND_B64, vec![mir::r(t1), mir::r(mc), mir::r(ma)]);
                self.emit(Opc::S_ANDN2_B64, vec![mir::r(t2), mir::r(mb), mir::r(mc)]);
                self.emit(Opc::S_OR_B64, vec![mir::r(r), mir::r(t1), mir::r(t2)]);
                self.def(op, Val::Mask(r));
            }
            return Ok(());
        }
        let vector = div
            || ty == Type::F32
            || [a, b].iter().any(|x| matches!(x, Val::V(_)))
            || matches!(c, Val::Mask(_));
        if !vector {
            let sc = self.sbool(c)?;
            let sa = self.sop(a, dw)?;
            let sb = self.sop(b, dw)?;
            self.emit(Opc::S_CMP_LG_U32, vec![sc, Operand::Imm(0)]);
            let r = if dw == 2 { self.s64() } else { self.s32() };
            let o = if dw == 2 {
                Opc::S_CSELECT_B64
            } else {
                Opc::S_CSELECT_B32
            };
            self.emit(o, vec![mir::r(r), sa, sb]);
            self.def(op, Val::S(Operand2::Virt(r)));
            return Ok(());
        }
        let m = self.mask(c)?;
        let va = self.cndmask_source(a, dw)?;
        let vb = self.cndmask_source(b, dw)?;
        let r = if dw == 2 { self.v64() } else { self.v32() };
        for i in 0..dw {
            self.emit(
                Opc::V_CNDMASK_B32,
                vec![mir::rsub(r, i, 1), vb(i), va(i), mir::r(m)],
            );
        }
        self.def(op, Val::V(r));
        Ok(())
    }
}

fn b_reg(x: Val) -> VReg {
    match x {
        Val::V(v) => v,
        _ => unreachable!("checked by the caller"),
    }
}

impl Isel<'_> {
    /// `x = a >> k` (logical) and `y = b << (32 - k)` with a constant `1 <= k <= 31`, both
    /// i32: `(b, a, k)`, the operands of `v_alignbit_b32`.
    fn funnel(&self, x: Value, y: Value) -> Option<(Value, Value, i64)> {
        let ir = self.ir;
        let (sx, sy) = (ir.defining_op(x)?, ir.defining_op(y)?);
        if ir.opcode(sx) != Opcode::ShRUI || ir.opcode(sy) != Opcode::ShLI {
            return None;
        }
        let [a, kx] = ir.ops[sx].operands[..] else {
            return None;
        };
        let [b, ky] = ir.ops[sy].operands[..] else {
            return None;
        };
        let (k, k2) = (ir.int_constant(kx)?, ir.int_constant(ky)?);
        ((1..=31).contains(&k) && k + k2 == 32).then_some((b, a, k))
    }
}
