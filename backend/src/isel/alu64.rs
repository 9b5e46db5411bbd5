//! Instruction selection for 64-bit integer arithmetic (`arith64`), including the operations
//! gfx942 has no instruction for: division and remainder (signed and unsigned) and minimum /
//! maximum.
//!
//! `arith64`: uniform operands stay on the scalar unit (`s_{and,or,xor}_b64`,
//! `s_{lshl,ashr,lshr}_{b,i}64`, add / sub as `s_{add,sub}_u32` + `s_{addc,subb}_u32`, the
//! product from 32-bit `s_mul_i32` / `s_mul_hi_u32`); others run on the vector unit
//! (per-dword logic, `v_{lshl,ashr,lshr}rev_{b,i}64`, add as one `v_lshl_add_u64`, sub as
//! `v_sub_co_u32` + `v_subb_co_u32`, the product with `v_mad_u64_u32`), as LLVM on gfx942.
//!
//! Guarantees (checked bit-exact against Rust's `/`, `%`, `min`, `max` on i64 / u64 through the
//! simulator, `tests/ops_exact.rs`):
//! - `divrem64` is LLVM's `AMDGPUTargetLowering::LowerUDIVREM64` expansion on the vector unit:
//!   an f32 estimate of 2^64 / y (`v_rcp_f32` of y's two halves combined), two unsigned
//!   Newton-Raphson rounds on the 64-bit reciprocal, the quotient estimate `mulhi(x, rcp)` and
//!   two correction steps (`r >= y`: `q += 1`, `r -= y`). Signed operands divide their
//!   absolute values, and the quotient takes the sign `sx ^ sy`, the remainder `sx` (C / Rust
//!   truncating division), as LLVM's `LowerSDIVREM`. Division by zero and `MIN / -1` are
//!   undefined in the language: whatever the sequence gives. Uniform operands run the same
//!   sequence (gfx942 has no 64-bit scalar multiply-high) and are read back with
//!   `v_readfirstlane_b32`, as LLVM reads back its VALU reciprocal estimate. LLVM in front of
//!   this expansion tests whether both operands fit 32 bits and branches to the 32-bit
//!   division (BypassSlowDivision); kc does not branch.
//! - `minmax64`: divergent or VGPR operands: `v_cmp_{lt,gt}_{i,u}64` and two `v_cndmask_b32`;
//!   uniform ones stay on the scalar unit: `s_sub_u32` + `s_subb_u32` leave `a < b` (unsigned)
//!   in SCC, signed operands compare with their sign bits flipped, then `s_cselect_b64`.
//!
//! The 64-bit multiply helpers use `v_mad_u64_u32` (32 x 32 + 64 -> 64 with the carry out in
//! an SGPR pair), as LLVM does on gfx942.

use super::{err, split_pair, Isel, IselError, Operand2, Val};
use crate::isa::{is_inline_int, Opc};
use crate::mir::{self, Operand, VReg};
use kc_dialect::{Op, Opcode};

impl Isel<'_> {
    pub(super) fn arith64(
        &mut self,
        op: Op,
        opc: Opcode,
        a: Val,
        b: Val,
        vector: bool,
    ) -> Result<(), IselError> {
        use Opcode::*;
        if matches!(opc, MinSI | MaxSI | MinUI | MaxUI) {
            return self.minmax64(op, opc, a, b, vector);
        }
        if !vector {
            let sa = self.sop(a, 2)?;
            let r = self.s64();
            // A register operand's two dwords (`split_pair` keeps its dword offset: it may be
            // part of a wider register, a merged kernel-argument load); a constant is a
            // sign-extended 32-bit one.
            let halves = |o: &Operand| match o {
                Operand::Reg { .. } => split_pair(o.clone()),
                Operand::Imm(c) => (
                    Operand::Imm(*c as i32 as i64),
                    Operand::Imm(if *c < 0 { -1 } else { 0 }),
                ),
                o => (o.clone(), o.clone()),
            };
            match opc {
                AndI | OrI | XOrI => {
                    let sb = self.sop(b, 2)?;
                    let o = match opc {
                        AndI => Opc::S_AND_B64,
                        OrI => Opc::S_OR_B64,
                        _ => Opc::S_XOR_B64,
                    };
                    self.emit(o, vec![mir::r(r), sa, sb]);
                }
                ShLI | ShRSI | ShRUI => {
                    let sb = self.sop(b, 2)?;
                    let (blo, _) = halves(&sb);
                    let o = match opc {
                        ShLI => Opc::S_LSHL_B64,
                        ShRSI => Opc::S_ASHR_I64,
                        _ => Opc::S_LSHR_B64,
                    };
                    self.emit(o, vec![mir::r(r), sa, blo]);
                }
                AddI | SubI => {
                    let sb = self.sop(b, 2)?;
                    let (alo, ahi) = halves(&sa);
                    let (blo, bhi) = halves(&sb);
                    let (o1, o2) = if opc == AddI {
                        (Opc::S_ADD_U32, Opc::S_ADDC_U32)
                    } else {
                        (Opc::S_SUB_U32, Opc::S_SUBB_U32)
                    };
                    self.emit(o1, vec![mir::rsub(r, 0, 1), alo, blo]);
                    self.emit(o2, vec![mir::rsub(r, 1, 1), ahi, bhi]);
                }
                MulI => {
                    let sb = self.sop(b, 2)?;
                    let (alo, ahi) = halves(&sa);
                    let (blo, bhi) = halves(&sb);
                    let h = self.s32();
                    let t1 = self.s32();
                    let t2 = self.s32();
                    let h2 = self.s32();
                    self.emit(Opc::S_MUL_HI_U32, vec![mir::r(h), alo.clone(), blo.clone()]);
                    self.emit(Opc::S_MUL_I32, vec![mir::r(t1), alo.clone(), bhi]);
                    self.emit(Opc::S_MUL_I32, vec![mir::r(t2), ahi, blo.clone()]);
                    self.emit(Opc::S_ADD_I32, vec![mir::r(h2), mir::r(h), mir::r(t1)]);
                    self.emit(
                        Opc::S_ADD_I32,
                        vec![mir::rsub(r, 1, 1), mir::r(h2), mir::r(t2)],
                    );
                    self.emit(Opc::S_MUL_I32, vec![mir::rsub(r, 0, 1), alo, blo]);
                }
                _ => {
                    return err(
                        self.loc,
                        format!(
                            "64-bit {} is not supported by the gfx942 backend yet",
                            opc.name()
                        ),
                    )
                }
            }
            self.def(op, Val::S(Operand2::Virt(r)));
            return Ok(());
        }
        let va = self.vpair(a)?;
        let r = self.v64();
        match opc {
            AndI | OrI | XOrI => {
                let vb = self.vpair(b)?;
                let o = match opc {
                    AndI => Opc::V_AND_B32,
                    OrI => Opc::V_OR_B32,
                    _ => Opc::V_XOR_B32,
                };
                for i in 0..2 {
                    self.emit(
                        o,
                        vec![mir::rsub(r, i, 1), mir::rsub(vb, i, 1), mir::rsub(va, i, 1)],
                    );
                }
            }
            ShLI | ShRSI | ShRUI => {
                let vb = self.vpair(b)?;
                let o = match opc {
                    ShLI => Opc::V_LSHLREV_B64,
                    ShRSI => Opc::V_ASHRREV_I64,
                    _ => Opc::V_LSHRREV_B64,
                };
                self.emit(o, vec![mir::r(r), mir::rsub(vb, 0, 1), mir::r(va)]);
            }
            AddI => {
                // One v_lshl_add_u64 (shift 0), as LLVM on gfx942.
                let vb = self.vpair(b)?;
                self.emit(
                    Opc::V_LSHL_ADD_U64,
                    vec![mir::r(r), mir::r(va), Operand::Imm(0), mir::r(vb)],
                );
            }
            SubI => {
                let vb = self.vpair(b)?;
                let c = self.s64();
                let c2 = self.s64();
                let (o1, o2) = (Opc::V_SUB_CO_U32, Opc::V_SUBB_CO_U32);
                self.emit(
                    o1,
                    vec![
                        mir::rsub(r, 0, 1),
                        mir::r(c),
                        mir::rsub(va, 0, 1),
                        mir::rsub(vb, 0, 1),
                    ],
                );
                self.emit(
                    o2,
                    vec![
                        mir::rsub(r, 1, 1),
                        mir::r(c2),
                        mir::rsub(va, 1, 1),
                        mir::rsub(vb, 1, 1),
                        mir::r(c),
                    ],
                );
            }
            MulI => {
                let vb = self.vpair(b)?;
                let p = self.mul_lo64(va, vb);
                self.def(op, Val::V(p));
                return Ok(());
            }
            _ => {
                return err(
                    self.loc,
                    format!(
                        "64-bit {} is not supported by the gfx942 backend yet",
                        opc.name()
                    ),
                )
            }
        }
        self.def(op, Val::V(r));
        Ok(())
    }

    /// `a OPC b` for a 64-bit `arith.{div,rem}{s,u}i`; uniform results (`!div`) are read back
    /// into an SGPR pair.
    pub(super) fn divrem64(
        &mut self,
        op: Op,
        opc: Opcode,
        a: Val,
        b: Val,
        div: bool,
    ) -> Result<(), IselError> {
        let signed = matches!(opc, Opcode::DivSI | Opcode::RemSI);
        let rem = matches!(opc, Opcode::RemSI | Opcode::RemUI);
        let mut x = self.vpair(a)?;
        let mut y = self.vpair(b)?;
        let (mut sx, mut sy) = (None, None);
        if signed {
            for (v, s) in [(&mut x, &mut sx), (&mut y, &mut sy)] {
                let (abs, sign) = self.abs64(*v);
                *v = abs;
                *s = Some(sign);
            }
        }
        let out = self.udivrem64(x, y, rem);
        if let (Some(sx), Some(sy)) = (sx, sy) {
            // Quotient sign sx ^ sy, remainder sign sx.
            let s = if rem {
                sx
            } else {
                let s = self.v32();
                self.emit(Opc::V_XOR_B32, vec![mir::r(s), sx, sy]);
                mir::r(s)
            };
            self.negate_if64(out, s);
        }
        if div {
            self.def(op, Val::V(out));
        } else {
            let s = self.s64();
            for i in 0..2 {
                self.emit(
                    Opc::V_READFIRSTLANE_B32,
                    vec![mir::rsub(s, i, 1), mir::rsub(out, i, 1)],
                );
            }
            self.def(op, Val::S(Operand2::Virt(s)));
        }
        Ok(())
    }

    // The pairs below are first written whole (a 64-bit instruction) and only then updated a
    // dword at a time: regalloc treats a pair written only by halves as live from the kernel
    // entry (a partial write is not a definition), which would hold its registers through
    // the whole kernel.

    /// (|v|, sign of v as 0 / -1) for a signed 64-bit VGPR pair: (v + s) ^ s.
    fn abs64(&mut self, v: VReg) -> (VReg, Operand) {
        let ss = self.v64();
        self.emit(
            Opc::V_ASHRREV_I64,
            vec![mir::r(ss), Operand::Imm(63), mir::r(v)],
        );
        let r = self.add64(v, mir::r(ss));
        let s = mir::rsub(ss, 0, 1);
        for i in 0..2 {
            self.emit(
                Opc::V_XOR_B32,
                vec![mir::rsub(r, i, 1), s.clone(), mir::rsub(r, i, 1)],
            );
        }
        (r, s)
    }

    /// v = (v ^ s) - s in place, with `s` 0 or -1 in every lane: `v` negated where `s` is -1.
    pub(super) fn negate_if64(&mut self, v: VReg, s: Operand) {
        for i in 0..2 {
            self.emit(
                Opc::V_XOR_B32,
                vec![mir::rsub(v, i, 1), s.clone(), mir::rsub(v, i, 1)],
            );
        }
        let (c, c2) = (self.s64(), self.s64());
        self.emit(
            Opc::V_SUB_CO_U32,
            vec![mir::rsub(v, 0, 1), mir::r(c), mir::rsub(v, 0, 1), s.clone()],
        );
        self.emit(
            Opc::V_SUBB_CO_U32,
            vec![
                mir::rsub(v, 1, 1),
                mir::r(c2),
                mir::rsub(v, 1, 1),
                s,
                mir::r(c),
            ],
        );
    }

    /// The unsigned 64-bit quotient (or remainder, with `rem`) of VGPR pairs (LLVM's
    /// `LowerUDIVREM64`), in a new pair.
    fn udivrem64(&mut self, x: VReg, y: VReg, rem: bool) -> VReg {
        let mut rcp = self.recip64_estimate(y);
        // -y, then two Newton-Raphson rounds: rcp += mulhi(rcp, -y * rcp).
        let ny = self.add64(y, Operand::Imm(0));
        let (c, c2) = (self.s64(), self.s64());
        self.emit(
            Opc::V_SUB_CO_U32,
            vec![
                mir::rsub(ny, 0, 1),
                mir::r(c),
                Operand::Imm(0),
                mir::rsub(ny, 0, 1),
            ],
        );
        self.emit(
            Opc::V_SUBB_CO_U32,
            vec![
                mir::rsub(ny, 1, 1),
                mir::r(c2),
                Operand::Imm(0),
                mir::rsub(ny, 1, 1),
                mir::r(c),
            ],
        );
        for _ in 0..2 {
            let e = self.mul_lo64(ny, rcp);
            let h = self.mul_hi64(rcp, e);
            rcp = self.add64(rcp, mir::r(h));
        }
        let q = self.mul_hi64(x, rcp);
        let nqy = self.mul_lo64(ny, q);
        let r = self.add64(x, mir::r(nqy));
        // The estimate is at most two below the quotient: where r >= y, q += 1 and r -= y.
        for step in 0..2 {
            let ge = self.s64();
            self.emit(Opc::V_CMP_GE_U64, vec![mir::r(ge), mir::r(r), mir::r(y)]);
            if !rem {
                let (c, c2) = (self.s64(), self.s64());
                self.emit(
                    Opc::V_ADDC_CO_U32,
                    vec![
                        mir::rsub(q, 0, 1),
                        mir::r(c),
                        mir::rsub(q, 0, 1),
                        Operand::Imm(0),
                        mir::r(ge),
                    ],
                );
                self.emit(
                    Opc::V_ADDC_CO_U32,
                    vec![
                        mir::rsub(q, 1, 1),
                        mir::r(c2),
                        mir::rsub(q, 1, 1),
                        Operand::Imm(0),
                        mir::r(c),
                    ],
                );
            }
            if rem || step == 0 {
                let r1 = self.add64(r, mir::r(ny));
                self.select64_into(ge, r1, r);
            }
        }
        if rem {
            r
        } else {
            q
        }
    }

    /// LLVM's f32 estimate of 2^64 / y as a 64-bit integer: rcp(y_hi * 2^32 + y_lo) scaled by
    /// 2^64 - 2^42, split into high and low words with trunc and fma.
    fn recip64_estimate(&mut self, y: VReg) -> VReg {
        let fl = self.v32();
        let fh = self.v32();
        self.emit(Opc::V_CVT_F32_U32, vec![mir::r(fl), mir::rsub(y, 0, 1)]);
        self.emit(Opc::V_CVT_F32_U32, vec![mir::r(fh), mir::rsub(y, 1, 1)]);
        // fl = fh * 2^32 + fl
        self.emit(
            Opc::V_FMAC_F32,
            vec![mir::r(fl), Operand::Imm(0x4f80_0000), mir::r(fh)],
        );
        let rc = self.v32();
        self.emit(Opc::V_RCP_F32, vec![mir::r(rc), mir::r(fl)]);
        let m1 = self.v32();
        self.emit(
            Opc::V_MUL_F32,
            vec![mir::r(m1), Operand::Imm(0x5f7f_fffc), mir::r(rc)],
        );
        let m2 = self.v32();
        self.emit(
            Opc::V_MUL_F32,
            vec![mir::r(m2), Operand::Imm(0x2f80_0000), mir::r(m1)],
        );
        let hi = self.v32();
        self.emit(Opc::V_TRUNC_F32, vec![mir::r(hi), mir::r(m2)]);
        // m1 = hi * -2^32 + m1: the low word's part.
        self.emit(
            Opc::V_FMAC_F32,
            vec![mir::r(m1), Operand::Imm(0xcf80_0000), mir::r(hi)],
        );
        let lo = self.v32();
        self.emit(Opc::V_CVT_U32_F32, vec![mir::r(lo), mir::r(m1)]);
        let r = self.pair_from_lo(lo);
        self.emit(Opc::V_CVT_U32_F32, vec![mir::rsub(r, 1, 1), mir::r(hi)]);
        r
    }

    /// A 64-bit value in a VGPR pair written whole: an SGPR pair or inline constant is copied
    /// with one `v_lshl_add_u64 d, x, 0, 0`, another constant as {lo, 0} plus its high word
    /// (`vreg`'s two `v_mov_b32` would leave a pair regalloc keeps live from the entry).
    pub(super) fn vpair(&mut self, x: Val) -> Result<VReg, IselError> {
        match x {
            Val::V(v) => Ok(v),
            Val::S(o) => Ok(self.add64_op(o.op(), Operand::Imm(0))),
            Val::Const(c) if is_inline_int(c) => {
                Ok(self.add64_op(Operand::Imm(c), Operand::Imm(0)))
            }
            Val::Const(c) => {
                let lo = self.v32();
                self.emit(
                    Opc::V_MOV_B32,
                    vec![mir::r(lo), Operand::Imm(c as u32 as i64)],
                );
                let r = self.pair_from_lo(lo);
                if c >> 32 != 0 {
                    let hi = (c >> 32) as u32 as i32 as i64;
                    let hi = if is_inline_int(hi) {
                        hi
                    } else {
                        hi as u32 as i64
                    };
                    self.emit(Opc::V_MOV_B32, vec![mir::rsub(r, 1, 1), Operand::Imm(hi)]);
                }
                Ok(r)
            }
            other => self.vreg(other, 2),
        }
    }

    /// A new pair {lo, 0}, written whole (`v_mad_u64_u32 lo, 1, 0`).
    pub(super) fn pair_from_lo(&mut self, lo: VReg) -> VReg {
        let r = self.v64();
        let c = self.s64();
        self.emit(
            Opc::V_MAD_U64_U32,
            vec![
                mir::r(r),
                mir::r(c),
                mir::r(lo),
                Operand::Imm(1),
                Operand::Imm(0),
            ],
        );
        r
    }

    /// a + b with `b` a VGPR pair or an inline constant: one `v_lshl_add_u64` (shift 0); with
    /// `b` = 0, a copy written whole.
    fn add64(&mut self, a: VReg, b: Operand) -> VReg {
        self.add64_op(mir::r(a), b)
    }

    fn add64_op(&mut self, a: Operand, b: Operand) -> VReg {
        let r = self.v64();
        self.emit(Opc::V_LSHL_ADD_U64, vec![mir::r(r), a, Operand::Imm(0), b]);
        r
    }

    /// dst = m ? a : dst per lane, a dword at a time (`dst` already written whole).
    fn select64_into(&mut self, m: VReg, a: VReg, dst: VReg) {
        for i in 0..2 {
            self.emit(
                Opc::V_CNDMASK_B32,
                vec![
                    mir::rsub(dst, i, 1),
                    mir::rsub(dst, i, 1),
                    mir::rsub(a, i, 1),
                    mir::r(m),
                ],
            );
        }
    }

    /// The low 64 bits of a * b: a_lo * b_lo as 64 bits, the cross products added to the high
    /// word (`v_mad_u64_u32`, `v_mul_lo_u32` x2, `v_add3_u32`).
    fn mul_lo64(&mut self, a: VReg, b: VReg) -> VReg {
        let r = self.v64();
        let c = self.s64();
        self.emit(
            Opc::V_MAD_U64_U32,
            vec![
                mir::r(r),
                mir::r(c),
                mir::rsub(a, 0, 1),
                mir::rsub(b, 0, 1),
                Operand::Imm(0),
            ],
        );
        let (t1, t2) = (self.v32(), self.v32());
        self.emit(
            Opc::V_MUL_LO_U32,
            vec![mir::r(t1), mir::rsub(a, 0, 1), mir::rsub(b, 1, 1)],
        );
        self.emit(
            Opc::V_MUL_LO_U32,
            vec![mir::r(t2), mir::rsub(a, 1, 1), mir::rsub(b, 0, 1)],
        );
        self.emit(
            Opc::V_ADD3_U32,
            vec![
                mir::rsub(r, 1, 1),
                mir::rsub(r, 1, 1),
                mir::r(t1),
                mir::r(t2),
            ],
        );
        r
    }

    /// The high 64 bits of the unsigned 128-bit product a * b:
    /// t = a_lo * b_hi + hi(a_lo * b_lo); (u, c) = a_hi * b_lo + t (65 bits: c is the carry);
    /// result = a_hi * b_hi + {hi(u), c}.
    fn mul_hi64(&mut self, a: VReg, b: VReg) -> VReg {
        let (alo, ahi) = (mir::rsub(a, 0, 1), mir::rsub(a, 1, 1));
        let (blo, bhi) = (mir::rsub(b, 0, 1), mir::rsub(b, 1, 1));
        let p = self.mad64(alo.clone(), blo.clone(), Operand::Imm(0)).0;
        let p = self.shr32(p);
        let t = self.mad64(alo, bhi.clone(), mir::r(p)).0;
        let (u, c) = self.mad64(ahi.clone(), blo, mir::r(t));
        let w = self.shr32(u);
        let r = self.mad64(ahi, bhi, mir::r(w)).0;
        let c2 = self.s64();
        self.emit(
            Opc::V_ADDC_CO_U32,
            vec![
                mir::rsub(r, 1, 1),
                mir::r(c2),
                mir::rsub(r, 1, 1),
                Operand::Imm(0),
                mir::r(c),
            ],
        );
        r
    }

    /// (a * b + c, carry out) with `v_mad_u64_u32`.
    fn mad64(&mut self, a: Operand, b: Operand, c: Operand) -> (VReg, VReg) {
        let r = self.v64();
        let carry = self.s64();
        self.emit(Opc::V_MAD_U64_U32, vec![mir::r(r), mir::r(carry), a, b, c]);
        (r, carry)
    }

    /// v >> 32 as a new pair {v_hi, 0}.
    fn shr32(&mut self, v: VReg) -> VReg {
        let r = self.v64();
        self.emit(
            Opc::V_LSHRREV_B64,
            vec![mir::r(r), Operand::Imm(32), mir::r(v)],
        );
        r
    }

    /// 64-bit `arith.{min,max}{s,u}i`.
    fn minmax64(
        &mut self,
        op: Op,
        opc: Opcode,
        a: Val,
        b: Val,
        vector: bool,
    ) -> Result<(), IselError> {
        let signed = matches!(opc, Opcode::MinSI | Opcode::MaxSI);
        let min = matches!(opc, Opcode::MinSI | Opcode::MinUI);
        if !vector {
            let sa = self.sop(a, 2)?;
            let sb = self.sop(b, 2)?;
            let (alo, ahi) = split_pair(sa.clone());
            let (blo, bhi) = split_pair(sb.clone());
            // SCC = a < b, unsigned; for signed operands with both sign bits flipped.
            let flip = |s: &mut Self, hi: Operand| {
                if !signed {
                    return hi;
                }
                if let Operand::Imm(c) = hi {
                    return Operand::Imm((c as u32 ^ 0x8000_0000) as i32 as i64);
                }
                let t = s.s32();
                s.emit(
                    Opc::S_XOR_B32,
                    vec![mir::r(t), hi, Operand::Imm(0x8000_0000)],
                );
                mir::r(t)
            };
            let ahi = flip(self, ahi);
            let bhi = flip(self, bhi);
            let (t0, t1) = (self.s32(), self.s32());
            self.emit(Opc::S_SUB_U32, vec![mir::r(t0), alo, blo]);
            self.emit(Opc::S_SUBB_U32, vec![mir::r(t1), ahi, bhi]);
            let r = self.s64();
            let (x, y) = if min { (sa, sb) } else { (sb, sa) };
            self.emit(Opc::S_CSELECT_B64, vec![mir::r(r), x, y]);
            self.def(op, Val::S(Operand2::Virt(r)));
            return Ok(());
        }
        let va = self.vpair(a)?;
        let vb = self.vpair(b)?;
        let o = match (signed, min) {
            (true, true) => Opc::V_CMP_LT_I64,
            (true, false) => Opc::V_CMP_GT_I64,
            (false, true) => Opc::V_CMP_LT_U64,
            (false, false) => Opc::V_CMP_GT_U64,
        };
        let m = self.s64();
        self.emit(o, vec![mir::r(m), mir::r(va), mir::r(vb)]);
        let r = self.add64(vb, Operand::Imm(0));
        self.select64_into(m, va, r);
        self.def(op, Val::V(r));
        Ok(())
    }
}
