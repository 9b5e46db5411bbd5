//! Instruction selection for the cross-lane operations: lane id, ballot, read-first-lane,
//! read-lane, shuffle, wave reductions (`kernel.reduce`) and inclusive scans (`kernel.scan`),
//! 32- and 64-bit.
//!
//! Guarantees: each reads or combines exactly the lanes the structured semantics gives it (the
//! op stays at its IR position, so EXEC is the lanes that execute it); results of ballot,
//! read-lane and reductions are uniform, in SGPRs; scans are per lane, in VGPRs: the same DPP
//! scan, copied out of the whole-wave register after EXEC is restored (f32 sums: the loop
//! below, writing each prefix into its lane with `v_writelane_b32`, lane select in M0). Shuffles read the source lane with
//! `ds_bpermute_b32` (byte address `lane * 4`; an inactive source lane reads 0, which the
//! language leaves undefined).
//!
//! Wave reductions of a VGPR operand (add, min, max, umin, umax on i32 / u32 / i64 / u64;
//! fmin, fmax on f32) use DPP, the way LLVM's atomic optimizer builds a wave reduction on
//! gfx9 (`buildScan` + `v_readlane` of lane 63):
//! - `s_or_saveexec_b64 save, -1` runs the wave whole; `v_cndmask_b32 x, identity, v, save`
//!   gives every lane that was not active the operation's identity (0; i32::MAX / MIN; all
//!   ones; a quiet NaN for fmin / fmax, which `v_min_f32` / `v_max_f32` skip), f32 operands
//!   are quieted first (`v_max_f32 x, x, x`: a signaling NaN lane is then skipped too, as the
//!   reference's fold skips every NaN);
//! - six in-place steps `op_dpp x, x, x` with `row_shr:1`, `row_shr:2`, `row_shr:4`,
//!   `row_shr:8` (a lane whose source is before its row keeps its value: `bound_ctrl` for add,
//!   where the 0 it reads is the identity, no write otherwise), then `row_bcast:15` with
//!   `row_mask:0xa` and `row_bcast:31` with `row_mask:0xc`: an inclusive scan, so lane 63
//!   holds the reduction of the wave; `v_readlane_b32 r, x, 63`; `s_mov_b64 exec, save`;
//! - 64-bit add: each step is `v_add_co_u32_dpp` on the low halves and `v_addc_co_u32_dpp` on
//!   the high halves with the same control (the carry in VCC); 64-bit min / max (no 64-bit
//!   DPP): `t = x`, `v_mov_b32_dpp` of both halves into `t`, `v_cmp_{lt,gt}_{i,u}64` and two
//!   `v_cndmask_b32` keep the better of `t` and `x`.
//!
//! The VGPRs written with the whole wave (`x`, `t`) would clobber lanes of other values that
//! parked lanes still need, so they are this kernel's `whole_wave` registers, shared by all
//! its reductions, which register allocation reserves for the whole kernel. With no lane
//! active the sequence still runs and yields the identity, which no lane reads.
//!
//! Integer min / max / add are associative and commutative, and so are fmin / fmax as the
//! reference defines them (a NaN gives the other operand, -0 below +0), so any combining
//! order gives the reference's result. An f32 sum is not: its rounding depends on the order,
//! and the reference adds the active lanes lowest first, so `fadd` keeps that order with a
//! loop over the active lanes (`s_ff1_i32_b64`, `v_readlane_b32`, `v_add_f32` from -0.0,
//! `s_bitset0_b64`, as LLVM's wave.reduce expansion).
//!
//! A uniform operand: min / max are the operand itself (fmin / fmax too: every lane holds
//! the same value); integer add is the operand times the number of active lanes
//! (`s_bcnt1_i32_b64`; 64-bit: a 64 x 32-bit product on the scalar unit); f32 add goes
//! through the loop (n additions round differently from one product).

use super::{split_pair, Isel, IselError, Operand2, Val};
use crate::dpp::{Dpp, DppCtrl};
use crate::isa::{is_inline_int, Opc};
use crate::mir::{self, Class, Operand, PReg, VReg};
use kc_dialect::{Attr, Op};

const SIGN: i64 = 0x8000_0000;
/// The quiet NaN `v_min_f32` / `v_max_f32` treat as missing: fmin / fmax's identity.
const QNAN: i64 = 0x7fc0_0000;

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
        // A lane past the wave is undefined (the interpreter's error); the hardware reads the
        // lane select's low 6 bits, and a constant reduced so is an inline constant (VOP3 has
        // no literal: `v_readlane_b32 s2, v0, 65` does not assemble).
        let lane = match self.sop(l, 1)? {
            Operand::Imm(c) => Operand::Imm(c & 63),
            lane => lane,
        };
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

    /// `kernel.reduce` over the active lanes.
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
        if kind == "fadd" {
            return self.fadd_loop(op, x);
        }
        if !matches!(x, Val::V(_)) {
            // Uniform operand: min/max are the value itself, add multiplies by the lane count.
            let r = match (kind.as_str(), ty.bits()) {
                ("add", 64) => self.uniform_sum64(x)?,
                ("add", _) => {
                    let n = self.s32();
                    self.emit(Opc::S_BCNT1_I32_B64, vec![mir::r(n), Self::exec()]);
                    let s = self.sop(x, 1)?;
                    let r = self.s32();
                    self.emit(Opc::S_MUL_I32, vec![mir::r(r), s, mir::r(n)]);
                    Val::S(Operand2::Virt(r))
                }
                _ => x,
            };
            self.def(op, r);
            return Ok(());
        }
        let dw = Self::dwords(ty);
        let v = self.vreg(x, dw)?;
        let (w, save) = if dw == 2 {
            self.scan64(&kind, v)?
        } else {
            self.scan32(&kind, v)?
        };
        // The inclusive scan's last lane is the reduction.
        let r = if dw == 2 { self.s64() } else { self.s32() };
        for i in 0..dw {
            self.emit(
                Opc::V_READLANE_B32,
                vec![mir::rsub(r, i, 1), mir::rsub(w, i, 1), Operand::Imm(63)],
            );
        }
        self.emit(Opc::S_MOV_B64, vec![Self::exec(), mir::r(save)]);
        self.def(op, Val::S(Operand2::Virt(r)));
        Ok(())
    }

    /// `kernel.scan`: the inclusive scan over the active lanes, in lane order (a divergent
    /// value): the DPP scan of `reduce` copied out of the whole-wave register under the
    /// restored EXEC, or, for an f32 sum, a loop over the active lanes.
    pub(super) fn wave_scan(&mut self, op: Op) -> Result<(), IselError> {
        let ir = self.ir;
        let d = &ir.ops[op];
        let kind = ir
            .attr(op, "kind")
            .and_then(Attr::as_str)
            .unwrap_or("add")
            .to_string();
        let dw = Self::dwords(ir.value_type(d.results[0]));
        let x = self.use_val(d.operands[0], op)?;
        let v = self.vreg(x, dw)?;
        if kind == "fadd" {
            let r = self.fadd_prefix_loop(v);
            self.def(op, Val::V(r));
            return Ok(());
        }
        let (w, save) = if dw == 2 {
            self.scan64(&kind, v)?
        } else {
            self.scan32(&kind, v)?
        };
        self.emit(Opc::S_MOV_B64, vec![Self::exec(), mir::r(save)]);
        let (r, mov) = if dw == 2 {
            (self.v64(), Opc::V_MOV_B64)
        } else {
            (self.v32(), Opc::V_MOV_B32)
        };
        self.emit(mov, vec![mir::r(r), mir::r(w)]);
        self.def(op, Val::V(r));
        Ok(())
    }

    /// The `k`-th whole-wave VGPR of class `c` (created on first use; see the header).
    fn whole_wave_vgpr(&mut self, c: Class, k: usize) -> VReg {
        let have: Vec<VReg> = self
            .whole_wave
            .iter()
            .copied()
            .filter(|&v| self.mf.vregs[v] == c)
            .collect();
        if let Some(&v) = have.get(k) {
            return v;
        }
        let v = self.mf.new_vreg(c);
        self.whole_wave.push(v);
        v
    }

    /// `x = lanes in save ? v : identity`, for one dword, under the whole-wave EXEC.
    fn set_inactive(&mut self, x: Operand, v: Operand, identity: i64, save: VReg) {
        let src0 = if is_inline_int(identity) {
            Operand::Imm(identity)
        } else {
            self.emit(Opc::V_MOV_B32, vec![x.clone(), Operand::Imm(identity)]);
            x.clone()
        };
        self.emit(Opc::V_CNDMASK_B32, vec![x, src0, v, mir::r(save)]);
    }

    /// Emits `op` with DPP control `dpp`.
    fn emit_dpp(&mut self, op: Opc, ops: Vec<Operand>, dpp: Dpp) {
        self.emit(op, ops).dpp = Some(dpp);
    }

    /// The DPP inclusive scan `kind` of 32-bit VGPR `v` over the active lanes: the whole-wave
    /// register holding it and the saved EXEC, which the caller restores.
    fn scan32(&mut self, kind: &str, v: VReg) -> Result<(VReg, VReg), IselError> {
        let (alu, identity, float): (Opc, i64, bool) = match kind {
            "add" => (Opc::V_ADD_U32, 0, false),
            "min" => (Opc::V_MIN_I32, i32::MAX as i64, false),
            "max" => (Opc::V_MAX_I32, SIGN, false),
            "umin" => (Opc::V_MIN_U32, -1, false),
            "umax" => (Opc::V_MAX_U32, 0, false),
            "fmin" => (Opc::V_MIN_F32, QNAN, true),
            "fmax" => (Opc::V_MAX_F32, QNAN, true),
            _ => return Err(self.internal(&format!("reduction kind `{kind}`"))),
        };
        let save = self.s64();
        self.emit(Opc::S_OR_SAVEEXEC_B64, vec![mir::r(save), Operand::Imm(-1)]);
        let w = self.whole_wave_vgpr(Class::V32, 0);
        self.set_inactive(mir::r(w), mir::r(v), identity, save);
        if float {
            self.emit(Opc::V_MAX_F32, vec![mir::r(w), mir::r(w), mir::r(w)]);
        }
        for step in scan_steps(kind == "add") {
            self.emit_dpp(alu, vec![mir::r(w), mir::r(w), mir::r(w)], step);
        }
        Ok((w, save))
    }

    /// The DPP inclusive scan `kind` of 64-bit VGPR `v` (as `scan32`).
    fn scan64(&mut self, kind: &str, v: VReg) -> Result<(VReg, VReg), IselError> {
        // Identity halves and, for min / max, the compare that says `t` is better than `x`.
        let (lo, hi, cmp) = match kind {
            "add" => (0, 0, None),
            "min" => (-1, i32::MAX as i64, Some(Opc::V_CMP_LT_I64)),
            "max" => (0, SIGN, Some(Opc::V_CMP_GT_I64)),
            "umin" => (-1, -1, Some(Opc::V_CMP_LT_U64)),
            "umax" => (0, 0, Some(Opc::V_CMP_GT_U64)),
            _ => return Err(self.internal(&format!("64-bit reduction kind `{kind}`"))),
        };
        let save = self.s64();
        self.emit(Opc::S_OR_SAVEEXEC_B64, vec![mir::r(save), Operand::Imm(-1)]);
        let w = self.whole_wave_vgpr(Class::V64, 0);
        let (wlo, whi) = (mir::rsub(w, 0, 1), mir::rsub(w, 1, 1));
        self.set_inactive(wlo.clone(), mir::rsub(v, 0, 1), lo, save);
        self.set_inactive(whi.clone(), mir::rsub(v, 1, 1), hi, save);
        let vcc = mir::p(PReg::Vcc);
        match cmp {
            None => {
                for step in scan_steps(true) {
                    let ops = vec![wlo.clone(), vcc.clone(), wlo.clone(), wlo.clone()];
                    self.emit_dpp(Opc::V_ADD_CO_U32, ops, step);
                    let ops = vec![
                        whi.clone(),
                        vcc.clone(),
                        whi.clone(),
                        whi.clone(),
                        vcc.clone(),
                    ];
                    self.emit_dpp(Opc::V_ADDC_CO_U32, ops, step);
                }
            }
            Some(cmp) => {
                let t = self.whole_wave_vgpr(Class::V64, 1);
                let (tlo, thi) = (mir::rsub(t, 0, 1), mir::rsub(t, 1, 1));
                for step in scan_steps(false) {
                    // Lanes the step does not write keep t = x, which changes nothing.
                    self.emit(Opc::V_MOV_B64, vec![mir::r(t), mir::r(w)]);
                    self.emit_dpp(Opc::V_MOV_B32, vec![tlo.clone(), wlo.clone()], step);
                    self.emit_dpp(Opc::V_MOV_B32, vec![thi.clone(), whi.clone()], step);
                    let c = self.s64();
                    self.emit(cmp, vec![mir::r(c), mir::r(t), mir::r(w)]);
                    for (xd, td) in [(&wlo, &tlo), (&whi, &thi)] {
                        let ops = vec![xd.clone(), xd.clone(), td.clone(), mir::r(c)];
                        self.emit(Opc::V_CNDMASK_B32, ops);
                    }
                }
            }
        }
        Ok((w, save))
    }

    /// An f32 sum over the active lanes, lowest first (the reference's order): a loop with
    /// `s_ff1_i32_b64`, `v_readlane_b32`, `v_add_f32` from -0.0 (so that a sum of -0.0 stays
    /// -0.0) and `s_bitset0_b64`.
    fn fadd_loop(&mut self, op: Op, x: Val) -> Result<(), IselError> {
        let v = self.vreg(x, 1)?;
        let acc = self.fadd_lanes(v, None);
        let r = self.s32();
        self.emit(Opc::V_READFIRSTLANE_B32, vec![mir::r(r), mir::r(acc)]);
        self.def(op, Val::S(Operand2::Virt(r)));
        Ok(())
    }

    /// The f32 prefix sums of `v` over the active lanes, lowest first: the loop of
    /// `fadd_loop`, which after each lane's addition writes the running sum into that lane of
    /// the result (`v_readfirstlane_b32`, `v_writelane_b32`).
    fn fadd_prefix_loop(&mut self, v: VReg) -> VReg {
        let r = self.v32();
        // Defined under EXEC first: `v_writelane_b32` then replaces one lane at a time.
        self.emit(Opc::V_MOV_B32, vec![mir::r(r), Operand::Imm(0)]);
        self.fadd_lanes(v, Some(r));
        r
    }

    /// The loop over the active lanes adding `v`'s lanes, lowest first, into a VGPR (every
    /// active lane then holds the sum), writing each partial sum into that lane of `prefix`
    /// if given. Returns the sum's VGPR; code continues after the loop.
    fn fadd_lanes(&mut self, v: VReg, prefix: Option<VReg>) -> VReg {
        let lanes = self.s64();
        self.emit(Opc::S_MOV_B64, vec![mir::r(lanes), Self::exec()]);
        let acc = self.v32();
        self.emit(Opc::V_MOV_B32, vec![mir::r(acc), Operand::Imm(SIGN)]);
        let done = self.mf.new_block();
        self.emit(Opc::S_CBRANCH_EXECZ, vec![Operand::Label(done)]);
        let body = self.mf.new_block();
        self.start_block(body);
        let l = self.s32();
        let t = self.s32();
        self.emit(Opc::S_FF1_I32_B64, vec![mir::r(l), mir::r(lanes)]);
        self.emit(Opc::V_READLANE_B32, vec![mir::r(t), mir::r(v), mir::r(l)]);
        self.emit(Opc::V_ADD_F32, vec![mir::r(acc), mir::r(t), mir::r(acc)]);
        if let Some(p) = prefix {
            // The lane select in M0: an SGPR there would be a second constant-bus read.
            let s = self.s32();
            let m0 = mir::p(PReg::M0);
            self.emit(Opc::S_MOV_B32, vec![m0.clone(), mir::r(l)]);
            self.emit(Opc::V_READFIRSTLANE_B32, vec![mir::r(s), mir::r(acc)]);
            self.emit(Opc::V_WRITELANE_B32, vec![mir::r(p), mir::r(s), m0]);
        }
        self.emit(Opc::S_BITSET0_B64, vec![mir::r(lanes), mir::r(l)]);
        self.emit(Opc::S_CMP_LG_U64, vec![mir::r(lanes), Operand::Imm(0)]);
        self.emit(Opc::S_CBRANCH_SCC1, vec![Operand::Label(body)]);
        self.start_block(done);
        acc
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

/// The DPP steps of a wave scan (LLVM's `buildScan` for gfx9): within rows, then row 0's and
/// row 2's totals into rows 1 and 3, then lane 31's into rows 2 and 3. `bound_ctrl` on the
/// row shifts when reading 0 is the identity (add).
fn scan_steps(zero_is_identity: bool) -> [Dpp; 6] {
    let shr = |n| {
        let d = Dpp::new(DppCtrl::RowShr(n));
        if zero_is_identity {
            d.bound_ctrl()
        } else {
            d
        }
    };
    [
        shr(1),
        shr(2),
        shr(4),
        shr(8),
        Dpp::new(DppCtrl::RowBcast15).row_mask(0xa),
        Dpp::new(DppCtrl::RowBcast31).row_mask(0xc),
    ]
}
