//! Instruction selection for division and remainder, which gfx942 has no single instruction
//! for: 32-bit integer (`divide`) and f32 (`arith.divf`, `arith.remf`). (64-bit integer
//! division is in `alu64.rs`.)
//!
//! `divide` is AMDGPU's 32-bit reciprocal expansion on the vector unit: an f32 reciprocal
//! estimate of the divisor (`v_rcp_iflag_f32`, scaled by 2^32 - 512), one integer
//! Newton-Raphson step, the quotient `mulhi(x, rcp)` and two correction steps (`r >= y`:
//! `q += 1`, `r -= y`); signed operands divide their absolute values, the quotient takes the
//! sign `sx ^ sy`, the remainder `sx`. A uniform result is read back with
//! `v_readfirstlane_b32` (by the caller, `arith`).
//!
//! Guarantees (checked bit-exact against Rust's f32 `/` and `%` through the simulator,
//! `tests/ops_exact.rs`, NaN payloads aside):
//! - `fdiv` is the IEEE-correct sequence LLVM selects with f32 denormals enabled (the kernel
//!   descriptor's `float_denorm_mode_32 3`, `fp_mode::KERNEL`; were that mode to flush, the
//!   FMA steps would be bracketed by `s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2)` setting
//!   it to 3 and back, as LLVM does, from `FpMode::keep_f32_denormals`): `v_div_scale_f32` of the denominator and of the
//!   numerator (the latter sets VCC when the quotient needs a post-scale), `v_rcp_f32`, a
//!   Newton-Raphson `v_fma_f32` / `v_fmac_f32` chain, `v_div_fmas_f32` (reads VCC) and
//!   `v_div_fixup_f32` (NaN, infinities, zeros, overflow). MIR has no source modifiers, so the
//!   `-d` operand LLVM writes as a `neg` modifier is one `v_xor_b32` of the sign bit. The
//!   numerator's `v_div_scale_f32` comes seven VALU instructions before `v_div_fmas_f32`, more
//!   than the four wait states gfx9 needs between a VALU write of VCC and `v_div_fmas_f32`.
//! - `frem` is C's `fmodf` (Rust's `%`), by LLVM's exact expansion (ExpandIRInsts, after
//!   `__ocml_fmod_f32`): for |x| > |y|, both are split with `v_frexp_mant_f32` /
//!   `v_frexp_exp_i32_f32`, then the quotient's bits are cleared twelve at a time: per step
//!   `ax = fma(-rint(ax / ay), ay, ax)` (plus `ay` if negative), `ax = ldexp(ax, 12)`; a last
//!   step with the remaining exponent difference; the result scaled back and given x's sign.
//!   |x| == |y| gives ±0, |x| < |y| gives x, y = 0 or NaN and x infinite or NaN give NaN.
//!   The twelve-bit steps are a loop over the lanes that still need one (EXEC narrowed with
//!   `s_and_saveexec_b64`, `s_cbranch_execnz` back, EXEC restored), as LLVM's divergent loop.

use super::{Isel, IselError, Val};
use crate::fp_mode;
use crate::isa::Opc;
use crate::mir::{self, Operand, PReg, VReg};
use kc_dialect::{Op, Opcode};

const SIGN: i64 = 0x8000_0000;
const ONE: i64 = 0x3f80_0000;

impl Isel<'_> {
    /// 32-bit integer division and remainder on the vector unit (AMDGPU's reciprocal
    /// expansion: an f32 reciprocal estimate refined to the exact quotient).
    pub(super) fn divide(&mut self, opc: Opcode, a: Val, b: Val) -> Result<VReg, IselError> {
        let signed = matches!(opc, Opcode::DivSI | Opcode::RemSI);
        let rem = matches!(opc, Opcode::RemSI | Opcode::RemUI);
        let mut x = self.vreg(a, 1)?;
        let mut y = self.vreg(b, 1)?;
        let (mut sx, mut sy) = (None, None);
        if signed {
            // |x|, |y| via (v ^ s) - s with s = v >> 31.
            for (v, s) in [(&mut x, &mut sx), (&mut y, &mut sy)] {
                let sg = self.v32();
                self.emit(
                    Opc::V_ASHRREV_I32,
                    vec![mir::r(sg), Operand::Imm(31), mir::r(*v)],
                );
                let t = self.v32();
                self.emit(Opc::V_XOR_B32, vec![mir::r(t), mir::r(sg), mir::r(*v)]);
                let ab = self.v32();
                self.emit(Opc::V_SUB_U32, vec![mir::r(ab), mir::r(t), mir::r(sg)]);
                *v = ab;
                *s = Some(sg);
            }
        }
        let f = self.v32();
        self.emit(Opc::V_CVT_F32_U32, vec![mir::r(f), mir::r(y)]);
        let rc = self.v32();
        self.emit(Opc::V_RCP_IFLAG_F32, vec![mir::r(rc), mir::r(f)]);
        let sc = self.v32();
        self.emit(
            Opc::V_MUL_F32,
            vec![mir::r(sc), Operand::Imm(0x4f7f_fffe), mir::r(rc)],
        );
        let z = self.v32();
        self.emit(Opc::V_CVT_U32_F32, vec![mir::r(z), mir::r(sc)]);
        let ny = self.v32();
        self.emit(Opc::V_SUB_U32, vec![mir::r(ny), Operand::Imm(0), mir::r(y)]);
        let t = self.v32();
        self.emit(Opc::V_MUL_LO_U32, vec![mir::r(t), mir::r(ny), mir::r(z)]);
        let h = self.v32();
        self.emit(Opc::V_MUL_HI_U32, vec![mir::r(h), mir::r(z), mir::r(t)]);
        let z2 = self.v32();
        self.emit(Opc::V_ADD_U32, vec![mir::r(z2), mir::r(z), mir::r(h)]);
        let q = self.v32();
        self.emit(Opc::V_MUL_HI_U32, vec![mir::r(q), mir::r(x), mir::r(z2)]);
        let qy = self.v32();
        self.emit(Opc::V_MUL_LO_U32, vec![mir::r(qy), mir::r(q), mir::r(y)]);
        let mut rr = self.v32();
        self.emit(Opc::V_SUB_U32, vec![mir::r(rr), mir::r(x), mir::r(qy)]);
        let mut qq = q;
        for _ in 0..2 {
            let ge = self.s64();
            self.emit(Opc::V_CMP_GE_U32, vec![mir::r(ge), mir::r(rr), mir::r(y)]);
            let q1 = self.v32();
            self.emit(
                Opc::V_ADD_U32,
                vec![mir::r(q1), Operand::Imm(1), mir::r(qq)],
            );
            let r1 = self.v32();
            self.emit(Opc::V_SUB_U32, vec![mir::r(r1), mir::r(rr), mir::r(y)]);
            let qn = self.v32();
            self.emit(
                Opc::V_CNDMASK_B32,
                vec![mir::r(qn), mir::r(qq), mir::r(q1), mir::r(ge)],
            );
            let rn = self.v32();
            self.emit(
                Opc::V_CNDMASK_B32,
                vec![mir::r(rn), mir::r(rr), mir::r(r1), mir::r(ge)],
            );
            qq = qn;
            rr = rn;
        }
        if !signed {
            return Ok(if rem { rr } else { qq });
        }
        // Quotient sign = sx ^ sy, remainder sign = sx.
        let (sx, sy) = (sx.unwrap(), sy.unwrap());
        let s = if rem {
            sx
        } else {
            let s = self.v32();
            self.emit(Opc::V_XOR_B32, vec![mir::r(s), mir::r(sx), mir::r(sy)]);
            s
        };
        let v = if rem { rr } else { qq };
        let t = self.v32();
        self.emit(Opc::V_XOR_B32, vec![mir::r(t), mir::r(s), mir::r(v)]);
        let out = self.v32();
        self.emit(Opc::V_SUB_U32, vec![mir::r(out), mir::r(t), mir::r(s)]);
        Ok(out)
    }

    /// `arith.divf`.
    pub(super) fn divf(&mut self, op: Op, a: Val, b: Val) -> Result<(), IselError> {
        let n = self.vreg(a, 1)?;
        let d = self.vreg(b, 1)?;
        let q = self.fdiv(mir::r(n), d);
        self.def(op, Val::V(q));
        Ok(())
    }

    /// num / den, correctly rounded (LLVM's f32 division with denormals enabled). `num` is a
    /// VGPR or an inline constant.
    fn fdiv(&mut self, num: Operand, den: VReg) -> VReg {
        let ds = self.v32();
        let junk = self.s64();
        self.emit(
            Opc::V_DIV_SCALE_F32,
            vec![
                mir::r(ds),
                mir::r(junk),
                mir::r(den),
                mir::r(den),
                num.clone(),
            ],
        );
        let r = self.v32();
        self.emit(Opc::V_RCP_F32, vec![mir::r(r), mir::r(ds)]);
        // The numerator's scale sets VCC for v_div_fmas_f32 (no VCC write in between).
        let ns = self.v32();
        self.emit(
            Opc::V_DIV_SCALE_F32,
            vec![
                mir::r(ns),
                mir::p(PReg::Vcc),
                num.clone(),
                mir::r(den),
                num.clone(),
            ],
        );
        let nd = self.v32();
        self.emit(
            Opc::V_XOR_B32,
            vec![mir::r(nd), Operand::Imm(SIGN), mir::r(ds)],
        );
        // The FMA steps compute with f32 subnormals kept; a kernel whose mode flushes them
        // switches the MODE register's f32 denormal field around them (LLVM's bracket).
        let bracket = fp_mode::KERNEL.keep_f32_denormals();
        if let Some(b) = bracket {
            self.emit(
                Opc::S_SETREG_IMM32_B32,
                vec![Operand::Imm(b.hwreg), Operand::Imm(b.enter)],
            );
        }
        // r += r * (1 - d r)
        let e = self.v32();
        self.emit(
            Opc::V_FMA_F32,
            vec![mir::r(e), mir::r(nd), mir::r(r), Operand::Imm(ONE)],
        );
        self.emit(Opc::V_FMAC_F32, vec![mir::r(r), mir::r(e), mir::r(r)]);
        // q = n r; q += r (n - d q); final residual n - d q.
        let q = self.v32();
        self.emit(Opc::V_MUL_F32, vec![mir::r(q), mir::r(ns), mir::r(r)]);
        let e2 = self.v32();
        self.emit(
            Opc::V_FMA_F32,
            vec![mir::r(e2), mir::r(nd), mir::r(q), mir::r(ns)],
        );
        self.emit(Opc::V_FMAC_F32, vec![mir::r(q), mir::r(e2), mir::r(r)]);
        let e3 = self.v32();
        self.emit(
            Opc::V_FMA_F32,
            vec![mir::r(e3), mir::r(nd), mir::r(q), mir::r(ns)],
        );
        if let Some(b) = bracket {
            self.emit(
                Opc::S_SETREG_IMM32_B32,
                vec![Operand::Imm(b.hwreg), Operand::Imm(b.leave)],
            );
        }
        let t = self.v32();
        self.emit(
            Opc::V_DIV_FMAS_F32,
            vec![mir::r(t), mir::r(e3), mir::r(r), mir::r(q)],
        );
        let out = self.v32();
        self.emit(
            Opc::V_DIV_FIXUP_F32,
            vec![mir::r(out), mir::r(t), mir::r(den), num],
        );
        out
    }

    /// `arith.remf`: fmodf(x, y).
    pub(super) fn remf(&mut self, op: Op, a: Val, b: Val) -> Result<(), IselError> {
        let x = self.vreg(a, 1)?;
        let y = self.vreg(b, 1)?;
        let ax = self.vbin(Opc::V_AND_B32, Operand::Imm(0x7fff_ffff), x);
        let ay = self.vbin(Opc::V_AND_B32, Operand::Imm(0x7fff_ffff), y);
        let sx = self.vbin(Opc::V_AND_B32, Operand::Imm(SIGN), x);
        let gt = self.vcmp(Opc::V_CMP_GT_F32, mir::r(ax), mir::r(ay));
        // |x| <= |y| (or a NaN): x, or ±0 when |x| == |y|.
        let eq = self.vcmp(Opc::V_CMP_EQ_F32, mir::r(ax), mir::r(ay));
        let small = self.cndmask(mir::r(x), mir::r(sx), eq);
        // |x| = mx 2^ex, |y| = my 2^ey with mx, my in [0.5, 1): work on ax in [2^11, 2^12)
        // and ay in [1, 2), nb = ex - ey exponent steps apart.
        let mx = self.vun(Opc::V_FREXP_MANT_F32, ax);
        let ex = self.vun(Opc::V_FREXP_EXP_I32_F32, ax);
        let my = self.vun(Opc::V_FREXP_MANT_F32, ay);
        let ey = self.vun(Opc::V_FREXP_EXP_I32_F32, ay);
        let ey1 = self.vbin(Opc::V_ADD_U32, Operand::Imm(-1), ey);
        let axs = self.vbin3(Opc::V_LDEXP_F32, mir::r(mx), Operand::Imm(12));
        let ays = self.vbin3(Opc::V_LDEXP_F32, mir::r(my), Operand::Imm(1));
        let nb = self.v32();
        self.emit(Opc::V_SUB_U32, vec![mir::r(nb), mir::r(ex), mir::r(ey)]);
        let inv = self.fdiv(Operand::Imm(ONE), ays);
        self.frem_steps(gt, axs, ays, inv, nb);
        // The last step: ax scaled so that nb - 11 exponent steps remain.
        let k = self.vbin(Opc::V_ADD_U32, Operand::Imm(-11), nb);
        let ax5 = self.vbin3(Opc::V_LDEXP_F32, mir::r(axs), mir::r(k));
        let ax10 = self.frem_step(ax5, ays, inv);
        let ax11 = self.vbin3(Opc::V_LDEXP_F32, mir::r(ax10), mir::r(ey1));
        let mag = self.vbin(Opc::V_AND_B32, Operand::Imm(0x7fff_ffff), ax11);
        let big = self.vbin(Opc::V_OR_B32, mir::r(sx), mag);
        let r1 = self.cndmask(mir::r(small), mir::r(big), gt);
        // NaN when y is 0 or NaN (ueq 0) or x is infinite or NaN (!(|x| < inf)).
        let ybad = self.vcmp(Opc::V_CMP_NLG_F32, Operand::Imm(0), mir::r(y));
        let inf = self.s32();
        self.emit(Opc::S_MOV_B32, vec![mir::r(inf), Operand::Imm(0x7f80_0000)]);
        let xbad = self.vcmp(Opc::V_CMP_NLT_F32, mir::r(ax), mir::r(inf));
        let bad = self.s64();
        self.emit(Opc::S_OR_B64, vec![mir::r(bad), mir::r(ybad), mir::r(xbad)]);
        let nan = self.v32();
        self.emit(Opc::V_MOV_B32, vec![mir::r(nan), Operand::Imm(0x7fc0_0000)]);
        let r = self.cndmask(mir::r(r1), mir::r(nan), bad);
        self.def(op, Val::V(r));
        Ok(())
    }

    /// While nb > 12 in a lane of `lanes`: ax = ldexp(step(ax), 12), nb -= 12 (`ax`, `nb`
    /// rewritten in place, lane by lane, under a narrowed EXEC).
    fn frem_steps(&mut self, lanes: VReg, ax: VReg, ay: VReg, inv: VReg, nb: VReg) {
        let more = self.vcmp(Opc::V_CMP_LT_I32, Operand::Imm(12), mir::r(nb));
        let m = self.s64();
        self.emit(Opc::S_AND_B64, vec![mir::r(m), mir::r(more), mir::r(lanes)]);
        let saved = self.s64();
        self.emit(Opc::S_AND_SAVEEXEC_B64, vec![mir::r(saved), mir::r(m)]);
        let done = self.mf.new_block();
        self.emit(Opc::S_CBRANCH_EXECZ, vec![Operand::Label(done)]);
        let body = self.mf.new_block();
        self.start_block(body);
        self.set_block_comment(body, "frem: twelve quotient bits per iteration");
        let a = self.frem_step(ax, ay, inv);
        self.emit(
            Opc::V_LDEXP_F32,
            vec![mir::r(ax), mir::r(a), Operand::Imm(12)],
        );
        self.emit(
            Opc::V_ADD_U32,
            vec![mir::r(nb), Operand::Imm(-12), mir::r(nb)],
        );
        let more = self.vcmp(Opc::V_CMP_LT_I32, Operand::Imm(12), mir::r(nb));
        self.emit(Opc::S_MOV_B64, vec![Self::exec(), mir::r(more)]);
        self.emit(Opc::S_CBRANCH_EXECNZ, vec![Operand::Label(body)]);
        self.start_block(done);
        self.emit(Opc::S_MOV_B64, vec![Self::exec(), mir::r(saved)]);
    }

    /// One remainder step: ax - rint(ax / ay) ay, plus ay if that is negative.
    fn frem_step(&mut self, ax: VReg, ay: VReg, inv: VReg) -> VReg {
        let t = self.vbin(Opc::V_MUL_F32, mir::r(ax), inv);
        let q = self.vun(Opc::V_RNDNE_F32, t);
        let nq = self.vbin(Opc::V_XOR_B32, Operand::Imm(SIGN), q);
        let r = self.v32();
        self.emit(
            Opc::V_FMA_F32,
            vec![mir::r(r), mir::r(nq), mir::r(ay), mir::r(ax)],
        );
        let rp = self.vbin(Opc::V_ADD_F32, mir::r(r), ay);
        let neg = self.vcmp(Opc::V_CMP_GT_F32, Operand::Imm(0), mir::r(r));
        self.cndmask(mir::r(r), mir::r(rp), neg)
    }

    fn vun(&mut self, o: Opc, a: VReg) -> VReg {
        let r = self.v32();
        self.emit(o, vec![mir::r(r), mir::r(a)]);
        r
    }

    /// A VOP2 op `r = o(a, b)` (`a` any source, `b` a VGPR).
    fn vbin(&mut self, o: Opc, a: Operand, b: VReg) -> VReg {
        let r = self.v32();
        self.emit(o, vec![mir::r(r), a, mir::r(b)]);
        r
    }

    /// A VOP3 op `r = o(a, b)`.
    fn vbin3(&mut self, o: Opc, a: Operand, b: Operand) -> VReg {
        let r = self.v32();
        self.emit(o, vec![mir::r(r), a, b]);
        r
    }

    fn vcmp(&mut self, o: Opc, a: Operand, b: Operand) -> VReg {
        let m = self.s64();
        self.emit(o, vec![mir::r(m), a, b]);
        m
    }

    /// m ? b : a per lane.
    fn cndmask(&mut self, a: Operand, b: Operand, m: VReg) -> VReg {
        let r = self.v32();
        self.emit(Opc::V_CNDMASK_B32, vec![mir::r(r), a, b, mir::r(m)]);
        r
    }

    fn set_block_comment(&mut self, b: crate::mir::MBlock, c: &str) {
        self.mf.blocks[b].comment = Some(c.into());
    }
}
