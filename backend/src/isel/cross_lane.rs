//! Instruction selection for the cross-lane operations: lane id, ballot, read-first-lane,
//! read-lane, shuffle and wave reductions (`kernel.reduce`, 32- and 64-bit).
//!
//! Guarantees: each reads or combines exactly the lanes the structured semantics gives it (the
//! op stays at its IR position, so EXEC is the lanes that execute it); results of ballot,
//! read-lane and reductions are uniform, in SGPRs. A 32-bit reduction of a VGPR operand visits
//! the active lanes lowest first (`s_ff1_i32_b64`, `v_readlane_b32`, `s_bitset0_b64`, like
//! LLVM's wave.reduce expansion), integer ones folded on the scalar unit, f32 ones in a VGPR
//! (`fadd` from -0.0, `fmin` / `fmax` from a quiet NaN, so NaN only when every lane is NaN); a
//! uniform integer operand is itself for min / max and times the active-lane count for add.
//!
//! 64-bit wave reductions (`kernel.reduce` add / min / max / umin / umax on i64 and u64):
//! the result is the reduction over exactly the active lanes (wrapping sum, signed or
//! unsigned minimum / maximum), uniform, in an SGPR pair.
//! - A VGPR operand: the 32-bit lowering extended to pairs, as LLVM's wave.reduce expansion:
//!   the lanes of a copy of EXEC are visited lowest first (`s_ff1_i32_b64`, two
//!   `v_readlane_b32`, `s_bitset0_b64`) and folded into an SGPR-pair accumulator on the
//!   scalar unit: `s_add_u32` / `s_addc_u32`; for min / max, `s_sub_u32` / `s_subb_u32` leave
//!   `x < acc` (or `acc < x`) in SCC and `s_cselect_b64` keeps the smaller (larger). Signed
//!   orders compare with the sign bits flipped: the accumulator holds its value so flipped
//!   through the loop and is flipped back after it. (LLVM compares on the vector unit,
//!   `v_cmp_lt_i64` against a VGPR copy of the accumulator, each iteration.)
//! - A uniform operand: min / max are the operand; add is the operand times the number of
//!   active lanes (`s_bcnt1_i32_b64`), a 64 x 32-bit product on the scalar unit.

use super::{split_pair, Isel, IselError, Operand2, Val};
use crate::isa::Opc;
use crate::mir::{self, Operand};
use kc_dialect::{Attr, Op, Type};

const SIGN: i64 = 0x8000_0000;

impl Isel<'_> {
    /// `kernel.lane_id`: the lane's index in the wave, `v_mbcnt_lo` + `v_mbcnt_hi` of all ones.
    pub(super) fn lane_id(&mut self, op: Op) {
        let t = self.v32();
        let v = self.v32();
        self.emit(
            Opc::V_MBCNT_LO_U32_B32,
            vec![mir::r(t), Operand::Imm(-1), Operand::Imm(0)],
        );
        self.emit(
            Opc::V_MBCNT_HI_U32_B32,
            vec![mir::r(v), Operand::Imm(-1), mir::r(t)],
        );
        self.def(op, Val::V(v));
    }

    /// `kernel.ballot`: the lanes of EXEC where the condition holds, a uniform 64-bit mask.
    pub(super) fn ballot(&mut self, op: Op) -> Result<(), IselError> {
        let ir = self.ir;
        let d = &ir.ops[op];
        let c = self.use_val(d.operands[0], op)?;
        let r = self.s64();
        match c {
            Val::SBool(_) | Val::Const(_) | Val::S(_) => {
                let b = self.sbool(c)?;
                self.emit(Opc::S_CMP_LG_U32, vec![b, Operand::Imm(0)]);
                self.emit(
                    Opc::S_CSELECT_B64,
                    vec![mir::r(r), Self::exec(), Operand::Imm(0)],
                );
            }
            _ => {
                let m = self.mask(c)?;
                if self.masked.contains(&m) {
                    // A compare made under the current EXEC already has 0 in every inactive
                    // lane's bit (VOPC writes the whole mask): it is the ballot.
                    self.def(op, Val::S(Operand2::Virt(m)));
                    return Ok(());
                }
                self.emit(Opc::S_AND_B64, vec![mir::r(r), mir::r(m), Self::exec()]);
            }
        }
        self.def(op, Val::S(Operand2::Virt(r)));
        Ok(())
    }

    /// `kernel.readfirstlane`: the value of the first active lane (`v_readfirstlane_b32`
    /// per dword); a value already uniform is itself.
    pub(super) fn read_first_lane(&mut self, op: Op) -> Result<(), IselError> {
        let ir = self.ir;
        let d = &ir.ops[op];
        let rty = ir.value_type(d.results[0]);
        let x = self.use_val(d.operands[0], op)?;
        let dw = Self::dwords(rty);
        match x {
            Val::V(v) => {
                let r = if dw == 2 { self.s64() } else { self.s32() };
                for i in 0..dw {
                    self.emit(
                        Opc::V_READFIRSTLANE_B32,
                        vec![mir::rsub(r, i, 1), mir::rsub(v, i, 1)],
                    );
                }
                self.def(op, Val::S(Operand2::Virt(r)));
            }
            other => self.def(op, other),
        }
        Ok(())
    }

    /// `kernel.readlane`: the value of a given lane (`v_readlane_b32` per dword); a value
    /// already uniform is itself.
    pub(super) fn read_lane(&mut self, op: Op) -> Result<(), IselError> {
        let ir = self.ir;
        let d = &ir.ops[op];
        let rty = ir.value_type(d.results[0]);
        let x = self.use_val(d.operands[0], op)?;
        let l = self.use_val(d.operands[1], op)?;
        let dw = Self::dwords(rty);
        let lane = self.sop(l, 1)?;
        match x {
            Val::V(v) => {
                let r = if dw == 2 { self.s64() } else { self.s32() };
                for i in 0..dw {
                    self.emit(
                        Opc::V_READLANE_B32,
                        vec![mir::rsub(r, i, 1), mir::rsub(v, i, 1), lane.clone()],
                    );
                }
                self.def(op, Val::S(Operand2::Virt(r)));
            }
            other => self.def(op, other),
        }
        Ok(())
    }

    /// `kernel.shuffle`: each lane reads the value of the lane it names (`ds_bpermute_b32`
    /// per dword, byte address `lane * 4`).
    pub(super) fn shuffle(&mut self, op: Op) -> Result<(), IselError> {
        let ir = self.ir;
        let d = &ir.ops[op];
        let rty = ir.value_type(d.results[0]);
        let x = self.use_val(d.operands[0], op)?;
        let l = self.use_val(d.operands[1], op)?;
        let dw = Self::dwords(rty);
        let lv = self.vreg(l, 1)?;
        let addr = self.v32();
        self.emit(
            Opc::V_LSHLREV_B32,
            vec![mir::r(addr), Operand::Imm(2), mir::r(lv)],
        );
        let xv = self.vreg(x, dw)?;
        let r = if dw == 2 { self.v64() } else { self.v32() };
        for i in 0..dw {
            self.emit(
                Opc::DS_BPERMUTE_B32,
                vec![mir::rsub(r, i, 1), mir::r(addr), mir::rsub(xv, i, 1)],
            );
        }
        self.def(op, Val::V(r));
        Ok(())
    }

    /// `kernel.reduce` over the active lanes (64-bit ones: `reduce64`).
    pub(super) fn reduce(&mut self, op: Op) -> Result<(), IselError> {
        let ir = self.ir;
        let d = &ir.ops[op];
        let kind = ir
            .attr(op, "kind")
            .and_then(Attr::as_str)
            .unwrap_or("add")
            .to_string();
        let ty = ir.value_type(d.results[0]);
        let x = self.use_val(d.operands[0], op)?;
        if ty.bits() == 64 {
            return self.reduce64(op, &kind, x);
        }
        let float = ty == Type::F32;
        if !float && !matches!(x, Val::V(_)) {
            // Uniform operand: min/max are the value itself, add multiplies by the lane count.
            if kind == "add" {
                let n = self.s32();
                self.emit(Opc::S_BCNT1_I32_B64, vec![mir::r(n), Self::exec()]);
                let s = self.sop(x, 1)?;
                let r = self.s32();
                self.emit(Opc::S_MUL_I32, vec![mir::r(r), s, mir::r(n)]);
                self.def(op, Val::S(Operand2::Virt(r)));
            } else {
                self.def(op, x);
            }
            return Ok(());
        }
        // Iterate over the active lanes, lowest first (like LLVM's wave.reduce expansion).
        let v = self.vreg(x, 1)?;
        let lanes = self.s64();
        self.emit(Opc::S_MOV_B64, vec![mir::r(lanes), Self::exec()]);
        let identity: i64 = match kind.as_str() {
            "add" => 0,
            "min" => i32::MAX as i64,
            "max" => i32::MIN as i64,
            "umin" => u32::MAX as i64,
            "umax" => 0,
            "fadd" => 0x8000_0000, // -0.0 so that a sum of -0.0 stays -0.0
            // A quiet NaN: v_min/v_max_f32 return the other operand, so the result is the
            // first lane's value folded with the rest, NaN only if every lane is NaN (as the
            // reference's fold; +-inf would turn an all-NaN reduction into an infinity).
            "fmin" | "fmax" => 0x7fc0_0000,
            _ => 0,
        };
        let acc_s = self.s32();
        let acc_v = self.v32();
        if float {
            self.emit(Opc::V_MOV_B32, vec![mir::r(acc_v), Operand::Imm(identity)]);
        } else {
            self.emit(
                Opc::S_MOV_B32,
                vec![mir::r(acc_s), Operand::Imm(identity as u32 as i64)],
            );
        }
        let lp = self.mf.new_block();
        self.emit(Opc::S_CBRANCH_EXECZ, vec![Operand::Label(lp)]);
        let body = self.mf.new_block();
        self.start_block(body);
        let l = self.s32();
        let t = self.s32();
        self.emit(Opc::S_FF1_I32_B64, vec![mir::r(l), mir::r(lanes)]);
        self.emit(Opc::V_READLANE_B32, vec![mir::r(t), mir::r(v), mir::r(l)]);
        let sop = match kind.as_str() {
            "add" => Some(Opc::S_ADD_I32),
            "min" => Some(Opc::S_MIN_I32),
            "max" => Some(Opc::S_MAX_I32),
            "umin" => Some(Opc::S_MIN_U32),
            "umax" => Some(Opc::S_MAX_U32),
            _ => None,
        };
        match sop {
            Some(o) => {
                self.emit(o, vec![mir::r(acc_s), mir::r(acc_s), mir::r(t)]);
            }
            None => {
                let o = match kind.as_str() {
                    "fadd" => Opc::V_ADD_F32,
                    "fmin" => Opc::V_MIN_F32,
                    _ => Opc::V_MAX_F32,
                };
                self.emit(o, vec![mir::r(acc_v), mir::r(t), mir::r(acc_v)]);
            }
        }
        self.emit(Opc::S_BITSET0_B64, vec![mir::r(lanes), mir::r(l)]);
        self.emit(Opc::S_CMP_LG_U64, vec![mir::r(lanes), Operand::Imm(0)]);
        self.emit(Opc::S_CBRANCH_SCC1, vec![Operand::Label(body)]);
        self.start_block(lp);
        if float {
            let r = self.s32();
            self.emit(Opc::V_READFIRSTLANE_B32, vec![mir::r(r), mir::r(acc_v)]);
            self.def(op, Val::S(Operand2::Virt(r)));
        } else {
            self.def(op, Val::S(Operand2::Virt(acc_s)));
        }
        Ok(())
    }

    /// The 64-bit reduction `kind` of `x` over the active lanes.
    fn reduce64(&mut self, op: Op, kind: &str, x: Val) -> Result<(), IselError> {
        if !matches!(x, Val::V(_)) {
            let r = if kind == "add" {
                self.uniform_sum64(x)?
            } else {
                x
            };
            self.def(op, r);
            return Ok(());
        }
        let v = self.vreg(x, 2)?;
        let signed = matches!(kind, "min" | "max");
        let min = matches!(kind, "min" | "umin");
        // Identity, in the accumulator's (for signed: sign-flipped) encoding.
        let identity: i64 = match kind {
            "add" => 0,
            _ if min => -1,
            _ => 0,
        };
        let lanes = self.s64();
        self.emit(Opc::S_MOV_B64, vec![mir::r(lanes), Self::exec()]);
        let acc = self.s64();
        self.emit(Opc::S_MOV_B64, vec![mir::r(acc), Operand::Imm(identity)]);
        // The lane's value, read a dword at a time in the loop: written whole once here, so
        // that register allocation sees its definition (a partial write is not one).
        let t = self.s64();
        self.emit(Opc::S_MOV_B64, vec![mir::r(t), Operand::Imm(0)]);
        let done = self.mf.new_block();
        self.emit(Opc::S_CBRANCH_EXECZ, vec![Operand::Label(done)]);
        let body = self.mf.new_block();
        self.start_block(body);
        let l = self.s32();
        self.emit(Opc::S_FF1_I32_B64, vec![mir::r(l), mir::r(lanes)]);
        for i in 0..2 {
            self.emit(
                Opc::V_READLANE_B32,
                vec![mir::rsub(t, i, 1), mir::rsub(v, i, 1), mir::r(l)],
            );
        }
        let (alo, ahi) = (mir::rsub(acc, 0, 1), mir::rsub(acc, 1, 1));
        let (tlo, thi) = (mir::rsub(t, 0, 1), mir::rsub(t, 1, 1));
        if kind == "add" {
            self.emit(Opc::S_ADD_U32, vec![alo.clone(), alo, tlo]);
            self.emit(Opc::S_ADDC_U32, vec![ahi.clone(), ahi, thi]);
        } else {
            if signed {
                self.emit(
                    Opc::S_XOR_B32,
                    vec![thi.clone(), thi.clone(), Operand::Imm(SIGN)],
                );
            }
            // SCC = t < acc (min) or acc < t (max), unsigned on the (flipped) encodings.
            let (x0, y0, x1, y1) = if min {
                (tlo, alo, thi, ahi)
            } else {
                (alo, tlo, ahi, thi)
            };
            let (d0, d1) = (self.s32(), self.s32());
            self.emit(Opc::S_SUB_U32, vec![mir::r(d0), x0, y0]);
            self.emit(Opc::S_SUBB_U32, vec![mir::r(d1), x1, y1]);
            self.emit(
                Opc::S_CSELECT_B64,
                vec![mir::r(acc), mir::r(t), mir::r(acc)],
            );
        }
        self.emit(Opc::S_BITSET0_B64, vec![mir::r(lanes), mir::r(l)]);
        self.emit(Opc::S_CMP_LG_U64, vec![mir::r(lanes), Operand::Imm(0)]);
        self.emit(Opc::S_CBRANCH_SCC1, vec![Operand::Label(body)]);
        self.start_block(done);
        if signed {
            let hi = mir::rsub(acc, 1, 1);
            self.emit(Opc::S_XOR_B32, vec![hi.clone(), hi, Operand::Imm(SIGN)]);
        }
        self.def(op, Val::S(Operand2::Virt(acc)));
        Ok(())
    }

    /// x * (number of active lanes) for a uniform 64-bit x: lo = x_lo n, hi = x_hi n +
    /// mulhi(x_lo, n).
    fn uniform_sum64(&mut self, x: Val) -> Result<Val, IselError> {
        let n = self.s32();
        self.emit(Opc::S_BCNT1_I32_B64, vec![mir::r(n), Self::exec()]);
        let (lo, hi) = split_pair(self.sop(x, 2)?);
        let r = self.s64();
        self.emit(Opc::S_MOV_B64, vec![mir::r(r), Operand::Imm(0)]);
        let (h, t) = (self.s32(), self.s32());
        self.emit(Opc::S_MUL_HI_U32, vec![mir::r(h), lo.clone(), mir::r(n)]);
        self.emit(Opc::S_MUL_I32, vec![mir::r(t), hi, mir::r(n)]);
        self.emit(Opc::S_MUL_I32, vec![mir::rsub(r, 0, 1), lo, mir::r(n)]);
        self.emit(
            Opc::S_ADD_I32,
            vec![mir::rsub(r, 1, 1), mir::r(h), mir::r(t)],
        );
        Ok(Val::S(Operand2::Virt(r)))
    }
}
