//! Instruction selection for 64-bit wave reductions (`kernel.reduce` add / min / max / umin /
//! umax on i64 and u64).
//!
//! Guarantees: the result is the reduction over exactly the active lanes (wrapping sum,
//! signed or unsigned minimum / maximum), uniform, in an SGPR pair.
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
use kc_dialect::Op;

const SIGN: i64 = 0x8000_0000;

impl Isel<'_> {
    /// The 64-bit reduction `kind` of `x` over the active lanes.
    pub(crate) fn reduce64(&mut self, op: Op, kind: &str, x: Val) -> Result<(), IselError> {
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
