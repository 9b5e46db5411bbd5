//! Instruction selection for the integer casts (`convert_int`) and for the casts between f32
//! and 64-bit integers (`arith.sitofp`, `uitofp`, `fptosi`, `fptoui` with an i64 side), which
//! gfx942 has no instruction for. (The 32-bit int <-> f32 casts are one `v_cvt_*` each, in
//! `alu.rs`.)
//!
//! `convert_int`: a bitcast is free; extending an `i1` selects 0 or 1 (-1 when signed) from
//! the lane mask (`v_cndmask_b32`) or the SGPR 0/1 (`s_cselect_b{32,64}`); truncating to `i1`
//! keeps the low bit (a lane mask by `v_cmp_ne_u32` when on the vector unit); 64 -> 32 keeps
//! the low dword; 32 -> 64 writes the high dword from the sign (`ashr 31`) or zero. Uniform
//! values stay on the scalar unit, constants fold.
//!
//! Guarantees (checked bit-exact against Rust's `as` through the simulator,
//! `tests/ops_exact.rs`):
//! - int -> f32 rounds to nearest, ties to even (LLVM's sequence): the value is shifted left
//!   until its top 32 bits hold every significant bit (`v_ffbh_u32` for u64; for i64
//!   `v_ffbh_i32`, keeping one sign bit), the bits shifted below are ORed into bit 0 as a
//!   sticky bit (`v_min_u32 lo, 1`), the 32-bit value is converted (`v_cvt_f32_{u,i}32`,
//!   which rounds once) and scaled back with `v_ldexp_f32`, which is exact.
//! - f32 -> int truncates and saturates, NaN giving 0 (LANGUAGE.md §4.2; LLVM's
//!   `fptosi.sat` / `fptoui.sat` sequences): `v_trunc_f32`, the high word `floor(t * 2^-32)`
//!   and the low word `fma(high, -2^32, t)` (both exact) converted with `v_cvt_u32_f32`, the
//!   sign applied as (v ^ s) - s; then `v_cndmask_b32` to the range ends beyond them, 0 for NaN.
//!
//! The results of the f32 <-> 64-bit casts live in VGPRs, uniform ones included (as those of
//! the 32-bit conversions).

use super::{err, split_pair, Isel, IselError, Operand2, Val};
use crate::isa::Opc;
use crate::mir::{self, Operand, VReg};
use kc_dialect::{Op, Opcode, Type};

impl Isel<'_> {
    pub(super) fn convert_int(
        &mut self,
        op: Op,
        opc: Opcode,
        from: Type,
        to: Type,
        x: Val,
        vector: bool,
    ) -> Result<(), IselError> {
        use Opcode::*;
        let r = match (opc, from.bits(), to.bits()) {
            (Bitcast, _, _) => x,
            (ExtUI | ExtSI, 1, _) => {
                let one = if opc == ExtSI { -1 } else { 1 };
                let wide = to.bits() == 64;
                let x = match x {
                    // Never read per-lane booleans as a scalar.
                    Val::V(_) => Val::Mask(self.mask(x)?),
                    _ => x,
                };
                match x {
                    Val::Mask(m) => {
                        let v = if wide { self.v64() } else { self.v32() };
                        self.emit(
                            Opc::V_CNDMASK_B32,
                            vec![
                                mir::rsub(v, 0, 1),
                                Operand::Imm(0),
                                Operand::Imm(one),
                                mir::r(m),
                            ],
                        );
                        if wide {
                            let hi = if opc == ExtSI { one } else { 0 };
                            self.emit(
                                Opc::V_CNDMASK_B32,
                                vec![
                                    mir::rsub(v, 1, 1),
                                    Operand::Imm(0),
                                    Operand::Imm(hi),
                                    mir::r(m),
                                ],
                            );
                        }
                        Val::V(v)
                    }
                    Val::Const(c) => Val::Const(if c & 1 != 0 {
                        if opc == ExtSI {
                            -1
                        } else {
                            1
                        }
                    } else {
                        0
                    }),
                    _ => {
                        let b = self.sbool(x)?;
                        self.emit(Opc::S_CMP_LG_U32, vec![b, Operand::Imm(0)]);
                        let s = if wide { self.s64() } else { self.s32() };
                        if wide {
                            let imm = if opc == ExtSI { -1 } else { 1 };
                            self.emit(
                                Opc::S_CSELECT_B64,
                                vec![mir::r(s), Operand::Imm(imm), Operand::Imm(0)],
                            );
                        } else {
                            self.emit(
                                Opc::S_CSELECT_B32,
                                vec![mir::r(s), Operand::Imm(one), Operand::Imm(0)],
                            );
                        }
                        Val::S(Operand2::Virt(s))
                    }
                }
            }
            (TruncI, _, 1) => {
                // Low bit.
                if vector {
                    let v = self.vreg(x, Self::dwords(from))?;
                    let t = self.v32();
                    self.emit(
                        Opc::V_AND_B32,
                        vec![mir::r(t), Operand::Imm(1), mir::rsub(v, 0, 1)],
                    );
                    let m = self.s64();
                    self.emit(
                        Opc::V_CMP_NE_U32,
                        vec![mir::r(m), Operand::Imm(0), mir::r(t)],
                    );
                    self.masked.insert(m);
                    Val::Mask(m)
                } else {
                    let s = self.sop(x, Self::dwords(from))?;
                    let lo = split_pair(s).0;
                    let r = self.s32();
                    self.emit(Opc::S_AND_B32, vec![mir::r(r), lo, Operand::Imm(1)]);
                    Val::SBool(r)
                }
            }
            (TruncI, 64, 32) => match x {
                Val::V(v) => {
                    let r = self.v32();
                    self.emit(Opc::V_MOV_B32, vec![mir::r(r), mir::rsub(v, 0, 1)]);
                    Val::V(r)
                }
                Val::Const(c) => Val::Const(c as i32 as i64),
                _ => {
                    let s = self.sop(x, 2)?;
                    if !matches!(s, Operand::Reg { .. }) {
                        return err(self.loc, "internal: trunc");
                    }
                    let r = self.s32();
                    self.emit(Opc::S_MOV_B32, vec![mir::r(r), split_pair(s).0]);
                    Val::S(Operand2::Virt(r))
                }
            },
            (ExtUI | ExtSI, 32, 64) => match x {
                Val::Const(c) => Val::Const(if opc == ExtSI {
                    c as i32 as i64
                } else {
                    c as u32 as i64
                }),
                Val::V(_) => {
                    let v = self.vreg(x, 1)?;
                    let r = self.v64();
                    self.emit(Opc::V_MOV_B32, vec![mir::rsub(r, 0, 1), mir::r(v)]);
                    if opc == ExtSI {
                        self.emit(
                            Opc::V_ASHRREV_I32,
                            vec![mir::rsub(r, 1, 1), Operand::Imm(31), mir::r(v)],
                        );
                    } else {
                        self.emit(Opc::V_MOV_B32, vec![mir::rsub(r, 1, 1), Operand::Imm(0)]);
                    }
                    Val::V(r)
                }
                _ => {
                    let s = self.sop(x, 1)?;
                    let r = self.s64();
                    self.emit(Opc::S_MOV_B32, vec![mir::rsub(r, 0, 1), s.clone()]);
                    if opc == ExtSI {
                        self.emit(
                            Opc::S_ASHR_I32,
                            vec![mir::rsub(r, 1, 1), s, Operand::Imm(31)],
                        );
                    } else {
                        self.emit(Opc::S_MOV_B32, vec![mir::rsub(r, 1, 1), Operand::Imm(0)]);
                    }
                    Val::S(Operand2::Virt(r))
                }
            },
            _ => x,
        };
        self.def(op, r);
        Ok(())
    }

    /// A 64-bit int <-> f32 cast.
    pub(super) fn convert64(&mut self, op: Op, opc: Opcode, x: Val) -> Result<(), IselError> {
        let r = match opc {
            Opcode::SIToFP | Opcode::UIToFP => {
                let v = self.vpair(x)?;
                self.int64_to_f32(v, opc == Opcode::SIToFP)
            }
            _ => {
                let v = self.vreg(x, 1)?;
                self.f32_to_int64(v, opc == Opcode::FPToSI)
            }
        };
        self.def(op, Val::V(r));
        Ok(())
    }

    fn int64_to_f32(&mut self, v: VReg, signed: bool) -> VReg {
        let (lo, hi) = (mir::rsub(v, 0, 1), mir::rsub(v, 1, 1));
        let n = self.v32();
        if signed {
            // Shift by (leading sign bits - 1), at most 32 (31 when the low word's top bit
            // differs from the sign, so the top word stays a valid i32).
            let t = self.v32();
            self.emit(Opc::V_XOR_B32, vec![mir::r(t), lo.clone(), hi.clone()]);
            let c = self.v32();
            self.emit(Opc::V_FFBH_I32, vec![mir::r(c), hi]);
            let t2 = self.v32();
            self.emit(
                Opc::V_ASHRREV_I32,
                vec![mir::r(t2), Operand::Imm(31), mir::r(t)],
            );
            let c2 = self.v32();
            self.emit(
                Opc::V_ADD_U32,
                vec![mir::r(c2), Operand::Imm(-1), mir::r(c)],
            );
            let t3 = self.v32();
            self.emit(
                Opc::V_ADD_U32,
                vec![mir::r(t3), Operand::Imm(32), mir::r(t2)],
            );
            self.emit(Opc::V_MIN_U32, vec![mir::r(n), mir::r(c2), mir::r(t3)]);
        } else {
            let c = self.v32();
            self.emit(Opc::V_FFBH_U32, vec![mir::r(c), hi]);
            self.emit(Opc::V_MIN_U32, vec![mir::r(n), Operand::Imm(32), mir::r(c)]);
        }
        let s = self.v64();
        self.emit(Opc::V_LSHLREV_B64, vec![mir::r(s), mir::r(n), mir::r(v)]);
        let sticky = self.v32();
        self.emit(
            Opc::V_MIN_U32,
            vec![mir::r(sticky), Operand::Imm(1), mir::rsub(s, 0, 1)],
        );
        let top = self.v32();
        self.emit(
            Opc::V_OR_B32,
            vec![mir::r(top), mir::rsub(s, 1, 1), mir::r(sticky)],
        );
        let f = self.v32();
        let cvt = if signed {
            Opc::V_CVT_F32_I32
        } else {
            Opc::V_CVT_F32_U32
        };
        self.emit(cvt, vec![mir::r(f), mir::r(top)]);
        let e = self.v32();
        self.emit(Opc::V_SUB_U32, vec![mir::r(e), Operand::Imm(32), mir::r(n)]);
        let r = self.v32();
        self.emit(Opc::V_LDEXP_F32, vec![mir::r(r), mir::r(f), mir::r(e)]);
        r
    }

    fn f32_to_int64(&mut self, x: VReg, signed: bool) -> VReg {
        let t = self.v32();
        self.emit(Opc::V_TRUNC_F32, vec![mir::r(t), mir::r(x)]);
        // a = |t| (signed) or t; hi = floor(a * 2^-32); a = hi * -2^32 + a (the low word).
        let a = if signed {
            let a = self.v32();
            self.emit(
                Opc::V_AND_B32,
                vec![mir::r(a), Operand::Imm(0x7fff_ffff), mir::r(t)],
            );
            a
        } else {
            t
        };
        let m = self.v32();
        self.emit(
            Opc::V_MUL_F32,
            vec![mir::r(m), Operand::Imm(0x2f80_0000), mir::r(a)],
        );
        let hf = self.v32();
        self.emit(Opc::V_FLOOR_F32, vec![mir::r(hf), mir::r(m)]);
        self.emit(
            Opc::V_FMAC_F32,
            vec![mir::r(a), Operand::Imm(0xcf80_0000), mir::r(hf)],
        );
        let lo = self.v32();
        self.emit(Opc::V_CVT_U32_F32, vec![mir::r(lo), mir::r(a)]);
        let r = self.pair_from_lo(lo);
        self.emit(Opc::V_CVT_U32_F32, vec![mir::rsub(r, 1, 1), mir::r(hf)]);
        // Below the range (or NaN, for signed) and above it: the range ends; NaN: 0.
        let (min_hi, max_lo, max_hi, below, above) = if signed {
            let s = self.v32();
            self.emit(
                Opc::V_ASHRREV_I32,
                vec![mir::r(s), Operand::Imm(31), mir::r(t)],
            );
            self.negate_if64(r, mir::r(s));
            (
                0x8000_0000u32,
                -1i64,
                0x7fff_ffffu32,
                0xdf00_0000u32,
                0x5eff_ffffu32,
            )
        } else {
            (0, -1, u32::MAX, 0, 0x5f7f_ffff)
        };
        let lim = |s: &mut Self, k: u32| -> Operand {
            if k == 0 {
                return Operand::Imm(0);
            }
            let c = s.s32();
            s.emit(Opc::S_MOV_B32, vec![mir::r(c), Operand::Imm(k as i64)]);
            mir::r(c)
        };
        // !(x >= lo): x below the range, or NaN.
        let lo_k = lim(self, below);
        let low = self.s64();
        self.emit(Opc::V_CMP_NLE_F32, vec![mir::r(low), lo_k, mir::r(x)]);
        let hi_k = lim(self, above);
        let high = self.s64();
        self.emit(Opc::V_CMP_LT_F32, vec![mir::r(high), hi_k, mir::r(x)]);
        let ends = [(low, 0i64, min_hi), (high, max_lo, max_hi)];
        for (m, lo, hi) in ends {
            let hv = self.word(hi);
            self.select_words(m, Operand::Imm(lo), hv, r);
        }
        if signed {
            let nan = self.s64();
            self.emit(Opc::V_CMP_U_F32, vec![mir::r(nan), mir::r(x), mir::r(x)]);
            self.select_words(nan, Operand::Imm(0), Operand::Imm(0), r);
        }
        r
    }

    /// A 32-bit constant as a `v_cndmask_b32` source: inline, or in a VGPR.
    fn word(&mut self, k: u32) -> Operand {
        let v = k as i32 as i64;
        if crate::isa::is_inline_int(v) {
            return Operand::Imm(v);
        }
        let t = self.v32();
        self.emit(Opc::V_MOV_B32, vec![mir::r(t), Operand::Imm(k as i64)]);
        mir::r(t)
    }

    /// v = m ? {lo, hi} : v per lane, in place.
    fn select_words(&mut self, m: VReg, lo: Operand, hi: Operand, v: VReg) {
        for (i, k) in [lo, hi].into_iter().enumerate() {
            let i = i as u8;
            self.emit(
                Opc::V_CNDMASK_B32,
                vec![mir::rsub(v, i, 1), mir::rsub(v, i, 1), k, mir::r(m)],
            );
        }
    }
}
