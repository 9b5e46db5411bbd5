//! One wave's state and the execution of one decoded instruction.
//!
//! Guarantees:
//! - VALU ops write only lanes whose EXEC bit is set, except `v_readlane_b32` and
//!   `v_writelane_b32` (they ignore EXEC) and `v_readfirstlane_b32` (lowest active lane,
//!   lane 0 if EXEC is 0); lane masks written by VALU ops (`v_cmp_*`, carries, div_scale)
//!   have 0 for inactive lanes.
//! - Loads read memory at issue and queue their result; the destination registers are
//!   written when the load retires (`s_waitcnt`). Until then any instruction that names a
//!   register the load will write (read or write) stops the run with a hazard error.
//! - Instructions never allocate (the load queues are reserved up front).
//!
//! This file holds the wave's state, the dispatch and the scalar and branch instructions;
//! `valu.rs` the vector ALU and compares, `memory.rs` the scalar, LDS, global and scratch
//! memory instructions.

mod memory;
mod valu;

use super::alu;
use super::mem::{Lds, MemView};
use super::Stats;
use crate::isa::{Fmt, Opc, Unit};
use memory::{ds, global, scratch, smem};
use std::collections::VecDeque;

/// Scalar register file indices (the hardware's operand encoding): s0..s101 are SGPRs.
pub const VCC: u8 = 106;
pub const M0: u8 = 124;
pub const EXEC: u8 = 126;
/// Source modifier bits (defined by `alu`, which applies them).
pub use super::alu::{ABS, NEG};
/// `s_waitcnt` counter not waited on.
pub const NOWAIT: u8 = 0xff;

/// A decoded operand.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Op {
    None,
    /// Scalar register file index and dword count.
    S(u8, u8),
    /// VGPR index and dword count.
    V(u8, u8),
    /// A constant as the hardware reads it (64-bit operands already extended).
    K(u64),
    /// A branch target (instruction index).
    Label(u32),
    /// `off` in a global instruction's SAddr slot, a scratch instruction's VAddr or SBase.
    Off,
}

/// A decoded instruction: operands in the table's slot order.
#[derive(Clone, Debug)]
pub struct Inst {
    pub opc: Opc,
    pub ops: [Op; 5],
    pub mods: [u8; 5],
    pub offset: i32,
    /// `ds_read2*` / `ds_write2*`: `offset` holds offset0, this offset1 (in units of the
    /// access size, or 64 of them for the `st64` forms).
    pub offset1: u8,
    /// VOP3P (`v_pk_*_f32`) modifiers, a bit per source: op_sel, op_sel_hi, neg_lo, neg_hi.
    pub pk: [u8; 4],
    /// `clamp` on a VOP3 integer add/sub: the result saturates (unsigned).
    pub clamp: bool,
    pub sc0: bool,
    /// A global atomic written with a vdst (returns the old value).
    pub ret: bool,
    pub vm: u8,
    pub lgkm: u8,
    pub line: u32,
    /// The DPP control of a `_dpp` instruction (src0 read from other lanes; see `dpp.rs`).
    pub dpp: Option<crate::dpp::Dpp>,
}

impl Inst {
    pub fn new(opc: Opc, line: u32) -> Inst {
        Inst {
            opc,
            ops: [Op::None; 5],
            mods: [0; 5],
            offset: 0,
            offset1: 0,
            pk: [0, 0b111, 0, 0],
            clamp: false,
            sc0: false,
            ret: false,
            vm: NOWAIT,
            lgkm: NOWAIT,
            line,
            dpp: None,
        }
    }
}

/// A memory op in flight: its result waits here until the op retires.
pub struct Pending {
    /// Index of the issuing instruction.
    pub inst: u32,
    /// Destination registers (`Op::None` for stores).
    pub dst: Op,
    pub smem: bool,
    /// Lanes to write (EXEC at issue).
    pub exec: u64,
    pub data: [[u32; 64]; 4],
}

/// What an executed instruction asks of the scheduler.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Flow {
    Next,
    Barrier,
    End,
}

/// Why an instruction stopped the run (the scheduler adds where).
#[derive(Debug)]
pub enum Stop {
    Fault(String),
    /// Register name and the index of the load instruction that will write it.
    Hazard(String, u32),
}

pub struct Wave {
    pub s: [u32; 128],
    pub v: Vec<[u32; 64]>,
    pub scc: bool,
    pub pc: u32,
    pub done: bool,
    pub at_barrier: bool,
    /// Per register: 1 + index of the outstanding load writing it, or 0.
    pub spend: [u32; 128],
    pub vpend: Vec<u32>,
    pub vmq: VecDeque<Pending>,
    pub lgkmq: VecDeque<Pending>,
    /// The control stack pointer of FORK/JOIN: entries pushed (see [`fork`]).
    pub csp: u8,
    /// The MODE register's bits 28:0 (rounding, denormal fields, DX10 clamp, IEEE; see
    /// `crate::fp_mode`); its bits 31:29 are `csp`.
    pub mode: u32,
    /// While a VALU instruction runs: its source slots whose subnormal f32 values read as
    /// zero (the MODE register flushes f32 inputs; `valu::execute`).
    pub flush_srcs: u8,
    /// The largest `csp` this wave reached.
    pub max_csp: u8,
    /// What the last fork or join did to the stack, for the trace.
    pub stack_event: Option<String>,
    /// While a `_dpp` instruction runs: its src0 as moved across lanes (`valu::dpp`).
    pub dpp_src0: Option<[u32; 64]>,
    /// The private segment (scratch) of the wave's lanes, dword-major: dword `d` of lane `l`
    /// is `scratch[64 * d + l]`.
    pub scratch: Vec<u32>,
    /// The kernel enables the private segment (else every scratch access is an error).
    pub scratch_on: bool,
}

impl Wave {
    pub fn new(vgprs: usize) -> Wave {
        Wave {
            s: [0; 128],
            v: vec![[0; 64]; vgprs],
            scc: false,
            pc: 0,
            done: false,
            at_barrier: false,
            spend: [0; 128],
            vpend: vec![0; vgprs],
            vmq: VecDeque::with_capacity(80),
            lgkmq: VecDeque::with_capacity(24),
            csp: 0,
            mode: crate::fp_mode::KERNEL.mode_register(),
            flush_srcs: 0,
            max_csp: 0,
            stack_event: None,
            dpp_src0: None,
            scratch: Vec::new(),
            scratch_on: false,
        }
    }

    #[inline(always)]
    pub fn exec(&self) -> u64 {
        self.s[EXEC as usize] as u64 | (self.s[EXEC as usize + 1] as u64) << 32
    }

    fn set_exec(&mut self, e: u64) {
        self.s[EXEC as usize] = e as u32;
        self.s[EXEC as usize + 1] = (e >> 32) as u32;
    }

    #[inline(always)]
    fn s32(&self, op: Op) -> u32 {
        match op {
            Op::S(r, _) => self.s[r as usize],
            Op::K(k) => k as u32,
            _ => unreachable!("not a scalar source: {op:?}"),
        }
    }

    #[inline(always)]
    fn s64(&self, op: Op) -> u64 {
        match op {
            Op::S(r, 1) => self.s[r as usize] as u64,
            Op::S(r, _) => self.s[r as usize] as u64 | (self.s[r as usize + 1] as u64) << 32,
            Op::K(k) => k,
            _ => unreachable!("not a scalar source: {op:?}"),
        }
    }

    fn set_s(&mut self, op: Op, v: u64) {
        if let Op::S(r, n) = op {
            self.s[r as usize] = v as u32;
            if n == 2 {
                self.s[r as usize + 1] = (v >> 32) as u32;
            }
        }
    }

    /// A 32-bit vector source, all 64 lanes.
    #[inline(always)]
    fn vsrc(&self, op: Op) -> [u32; 64] {
        match op {
            Op::V(r, _) => self.v[r as usize],
            _ => [self.s32(op); 64],
        }
    }

    /// Source operand `slot` of `inst`: src0 of a `_dpp` instruction as moved across lanes,
    /// else the register or constant with its VOP3 modifiers applied; a subnormal f32 read as
    /// a zero of its sign when the MODE register flushes this slot (`flush_srcs`).
    #[inline(always)]
    fn src(&self, inst: &Inst, slot: usize) -> [u32; 64] {
        let mut a = match &self.dpp_src0 {
            Some(a) if slot == inst.opc.desc().defs as usize => *a,
            _ => self.fsrc(inst.ops[slot], inst.mods[slot]),
        };
        if self.flush_srcs >> slot & 1 != 0 {
            for x in a.iter_mut() {
                *x = alu::flush_denormal(*x);
            }
        }
        a
    }

    /// A 32-bit float source with its VOP3 modifiers applied.
    #[inline(always)]
    fn fsrc(&self, op: Op, m: u8) -> [u32; 64] {
        let mut a = self.vsrc(op);
        if m != 0 {
            for x in a.iter_mut() {
                *x = alu::fmod(*x, m);
            }
        }
        a
    }

    /// A 64-bit vector source.
    fn vsrc64(&self, op: Op) -> [u64; 64] {
        match op {
            Op::V(r, _) => {
                let (lo, hi) = (&self.v[r as usize], &self.v[r as usize + 1]);
                std::array::from_fn(|l| lo[l] as u64 | (hi[l] as u64) << 32)
            }
            _ => [self.s64(op); 64],
        }
    }

    #[inline(always)]
    fn vwrite(&mut self, dst: Op, d: &[u32; 64], exec: u64) {
        let Op::V(r, _) = dst else {
            unreachable!("not a VGPR: {dst:?}")
        };
        let reg = &mut self.v[r as usize];
        if exec == u64::MAX {
            *reg = *d;
        } else {
            for (l, x) in reg.iter_mut().enumerate() {
                if exec >> l & 1 != 0 {
                    *x = d[l];
                }
            }
        }
    }

    fn vwrite64(&mut self, dst: Op, d: &[u64; 64], exec: u64) {
        let Op::V(r, _) = dst else {
            unreachable!("not a VGPR: {dst:?}")
        };
        let lo: [u32; 64] = std::array::from_fn(|l| d[l] as u32);
        let hi: [u32; 64] = std::array::from_fn(|l| (d[l] >> 32) as u32);
        self.vwrite(Op::V(r, 1), &lo, exec);
        self.vwrite(Op::V(r + 1, 1), &hi, exec);
    }

    /// Errors if `op` names a register an outstanding load will write.
    fn check_pending(&self, op: Op) -> Result<(), Stop> {
        match op {
            Op::S(r, n) => {
                for i in r as usize..r as usize + n as usize {
                    if self.spend[i] != 0 {
                        return Err(Stop::Hazard(sreg_name(i as u8), self.spend[i] - 1));
                    }
                }
            }
            Op::V(r, n) => {
                for i in r as usize..r as usize + n as usize {
                    if self.vpend[i] != 0 {
                        return Err(Stop::Hazard(format!("v{i}"), self.vpend[i] - 1));
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn check_hazards(&self, inst: &Inst) -> Result<(), Stop> {
        for op in inst.ops {
            self.check_pending(op)?;
        }
        let d = inst.opc.desc();
        if d.implicit.reads_exec || d.implicit.writes_exec {
            self.check_pending(Op::S(EXEC, 2))?;
        }
        if inst.opc == Opc::V_DIV_FMAS_F32 {
            self.check_pending(Op::S(VCC, 2))?;
        }
        Ok(())
    }

    /// Retires queued memory ops until at most `vm` VMEM and `lgkm` LGKM ops are
    /// outstanding (`NOWAIT` leaves a counter alone). LDS ops retire oldest first; an SMEM
    /// op retires only at `lgkmcnt(0)`, since SMEM may return out of order.
    pub fn wait(&mut self, vm: u8, lgkm: u8) {
        if vm != NOWAIT {
            while self.vmq.len() > vm as usize {
                let p = self.vmq.pop_front().unwrap();
                self.retire(&p);
            }
        }
        if lgkm != NOWAIT {
            if lgkm == 0 {
                while let Some(p) = self.lgkmq.pop_front() {
                    self.retire(&p);
                }
            } else {
                let mut lds = self.lgkmq.iter().filter(|p| !p.smem).count();
                let mut i = 0;
                while lds > lgkm as usize && i < self.lgkmq.len() {
                    if self.lgkmq[i].smem {
                        i += 1;
                        continue;
                    }
                    let p = self.lgkmq.remove(i).unwrap();
                    self.retire(&p);
                    lds -= 1;
                }
            }
        }
    }

    fn retire(&mut self, p: &Pending) {
        match p.dst {
            Op::S(r, n) => {
                for k in 0..n as usize {
                    self.s[r as usize + k] = p.data[0][k];
                    self.spend[r as usize + k] = 0;
                }
            }
            Op::V(r, n) => {
                for k in 0..n as usize {
                    self.vwrite(Op::V(r + k as u8, 1), &p.data[k], p.exec);
                    self.vpend[r as usize + k] = 0;
                }
            }
            _ => {}
        }
    }

    fn issue(&mut self, p: Pending, lgkm: bool) {
        let tag = p.inst + 1;
        match p.dst {
            Op::S(r, n) => {
                for k in 0..n as usize {
                    self.spend[r as usize + k] = tag;
                }
            }
            Op::V(r, n) => {
                for k in 0..n as usize {
                    self.vpend[r as usize + k] = tag;
                }
            }
            _ => {}
        }
        if lgkm {
            self.lgkmq.push_back(p);
        } else {
            self.vmq.push_back(p);
        }
    }

    pub fn outstanding(&self) -> bool {
        !self.vmq.is_empty() || !self.lgkmq.is_empty()
    }
}

pub fn sreg_name(r: u8) -> String {
    match r {
        VCC => "vcc_lo".into(),
        107 => "vcc_hi".into(),
        M0 => "m0".into(),
        EXEC => "exec_lo".into(),
        127 => "exec_hi".into(),
        _ => format!("s{r}"),
    }
}

/// Machine state shared by the waves of a workgroup.
pub struct Shared<'a, 'm> {
    pub mem: &'a mut MemView<'m>,
    pub lds: &'a mut Lds,
    pub stats: &'a mut Stats,
}

/// Executes the instruction at `w.pc` (index `pc` into `insts`).
pub fn step(w: &mut Wave, insts: &[Inst], sh: &mut Shared) -> Result<Flow, Stop> {
    let pc = w.pc;
    let inst = &insts[pc as usize];
    if w.outstanding() {
        w.check_hazards(inst)?;
    }
    w.pc = pc + 1;
    let d = inst.opc.desc();
    let ops = inst.ops;
    let exec = w.exec();
    let st = &mut *sh.stats;
    match d.unit {
        Unit::Salu => st.salu += 1,
        Unit::Smem => st.smem += 1,
        Unit::Branch => st.branch += 1,
        Unit::Control => st.control += 1,
        Unit::Valu => {
            st.valu += 1;
            st.lane_instructions += exec.count_ones() as u64;
            st.valu_lanes += exec.count_ones() as u64;
        }
        Unit::Vmem => {
            st.vmem += 1;
            st.lane_instructions += exec.count_ones() as u64;
        }
        Unit::Lds => {
            st.lds += 1;
            st.lane_instructions += exec.count_ones() as u64;
        }
    }
    match inst.opc {
        // Addresses are 4 bytes per instruction (the parser resolves label differences
        // alike): `s_getpc_b64` gives that of the next instruction.
        Opc::S_GETPC_B64 => {
            w.set_s(ops[0], 4 * w.pc as u64);
            return Ok(Flow::Next);
        }
        Opc::S_SETPC_B64 => {
            let to = w.s64(ops[0]);
            if !to.is_multiple_of(4) || to / 4 >= insts.len() as u64 {
                return Err(Stop::Fault(format!(
                    "s_setpc_b64 to 0x{to:x}, which is not an instruction's address"
                )));
            }
            w.pc = (to / 4) as u32;
            return Ok(Flow::Next);
        }
        Opc::S_MOVK_I32 => {
            let Op::K(k) = ops[1] else {
                unreachable!("s_movk_i32 takes an immediate")
            };
            w.set_s(ops[0], k as u16 as i16 as i32 as u32 as u64);
            return Ok(Flow::Next);
        }
        Opc::S_CMPK_EQ_I32
        | Opc::S_CMPK_LG_I32
        | Opc::S_CMPK_GT_I32
        | Opc::S_CMPK_GE_I32
        | Opc::S_CMPK_LT_I32
        | Opc::S_CMPK_LE_I32
        | Opc::S_CMPK_EQ_U32
        | Opc::S_CMPK_LG_U32
        | Opc::S_CMPK_GT_U32
        | Opc::S_CMPK_GE_U32
        | Opc::S_CMPK_LT_U32
        | Opc::S_CMPK_LE_U32 => {
            let Op::K(k) = ops[1] else {
                unreachable!("s_cmpk takes an immediate")
            };
            w.scc = alu::sopk_cmp(inst.opc, w.s32(ops[0]), k as u16);
            return Ok(Flow::Next);
        }
        Opc::S_ADDK_I32 | Opc::S_MULK_I32 => {
            let Op::K(k) = ops[1] else {
                unreachable!("s_addk/s_mulk take an immediate")
            };
            let (a, b) = (w.s32(ops[0]) as i32, k as u16 as i16 as i32);
            if inst.opc == Opc::S_ADDK_I32 {
                let (r, overflow) = a.overflowing_add(b);
                w.set_s(ops[0], r as u32 as u64);
                w.scc = overflow;
            } else {
                w.set_s(ops[0], a.wrapping_mul(b) as u32 as u64);
            }
            return Ok(Flow::Next);
        }
        Opc::S_TRAP => return Err(Stop::Fault("s_trap: the kernel trapped".into())),
        // No caches here: nothing to write back or invalidate; the operation still counts
        // in vmcnt until waited for, as on the hardware.
        Opc::BUFFER_WBL2 | Opc::BUFFER_INV => {
            w.issue(
                Pending {
                    inst: pc,
                    dst: Op::None,
                    smem: false,
                    exec,
                    data: [[0; 64]; 4],
                },
                false,
            );
            return Ok(Flow::Next);
        }
        Opc::S_GETREG_B32 => {
            let Op::K(k) = ops[1] else {
                unreachable!("s_getreg_b32 takes an immediate")
            };
            let v = if k == HWREG_CSP {
                w.csp as u32
            } else {
                let (shift, mask) = mode_field(k, "s_getreg_b32")?;
                (w.mode & mask) >> shift
            };
            w.set_s(ops[0], v as u64);
            return Ok(Flow::Next);
        }
        Opc::S_SETREG_B32 | Opc::S_SETREG_IMM32_B32 => {
            let Op::K(k) = ops[0] else {
                unreachable!("s_setreg takes a hwreg immediate")
            };
            let (shift, mask) = mode_field(k, inst.opc.desc().name)?;
            let v = w.s32(ops[1]);
            w.mode = (w.mode & !mask) | (v << shift & mask);
            return Ok(Flow::Next);
        }
        Opc::S_CBRANCH_I_FORK | Opc::S_CBRANCH_G_FORK => {
            let target = match ops[1] {
                Op::Label(t) => t,
                op => {
                    let to = w.s64(op);
                    if !to.is_multiple_of(4) || to / 4 >= insts.len() as u64 {
                        return Err(Stop::Fault(format!(
                            "s_cbranch_g_fork to 0x{to:x}, which is not an instruction's address"
                        )));
                    }
                    (to / 4) as u32
                }
            };
            let mask = w.s64(ops[0]);
            fork(w, mask, target)?;
            return Ok(Flow::Next);
        }
        Opc::S_CBRANCH_JOIN => {
            let saved = w.s32(ops[0]);
            join(w, saved, insts.len())?;
            return Ok(Flow::Next);
        }
        _ => {}
    }
    match d.fmt {
        Fmt::Sop1 => sop1(w, inst),
        Fmt::Sop2 => {
            let (r, scc) = alu::sop2(inst.opc, w.s64(ops[1]), w.s64(ops[2]), w.scc);
            w.set_s(ops[0], r);
            if let Some(c) = scc {
                w.scc = c;
            }
        }
        Fmt::Sopc => w.scc = alu::sopc(inst.opc, w.s64(ops[0]), w.s64(ops[1])),
        Fmt::Sopp => return Ok(sopp(w, inst)),
        Fmt::Sopk => unreachable!("every SOPK instruction is handled above"),
        Fmt::Smem => smem(w, inst, pc, sh)?,
        Fmt::Vop1 | Fmt::Vop2 | Fmt::Vop3 | Fmt::Vopc => valu::execute(w, inst, exec)?,
        Fmt::Ds => ds(w, inst, pc, exec, sh)?,
        Fmt::Global => global(w, inst, pc, exec, sh)?,
        Fmt::Scratch => scratch(w, inst, pc, exec)?,
        // The parser refuses them.
        Fmt::Pseudo => unreachable!("a control-flow pseudo in a listing"),
    }
    Ok(Flow::Next)
}

fn sop1(w: &mut Wave, inst: &Inst) {
    let ops = inst.ops;
    let a = w.s64(ops[1]);
    let exec = w.exec();
    let new_exec = match inst.opc {
        Opc::S_AND_SAVEEXEC_B64 => Some(a & exec),
        Opc::S_OR_SAVEEXEC_B64 => Some(a | exec),
        Opc::S_ANDN2_SAVEEXEC_B64 => Some(a & !exec),
        _ => None,
    };
    if let Some(e) = new_exec {
        // The source is read before the destination (it may be the same pair) is written.
        w.set_s(ops[0], exec);
        w.set_exec(e);
        w.scc = e != 0;
        return;
    }
    let (r, scc) = alu::sop1(inst.opc, a, w.s64(ops[0]));
    w.set_s(ops[0], r);
    if let Some(c) = scc {
        w.scc = c;
    }
}

/// The (shift, mask) of the MODE field a `hwreg(...)` immediate names: bits 28:0 of MODE (the
/// floating-point mode, `crate::fp_mode`), the only hardware register state modelled besides
/// the control stack pointer.
fn mode_field(k: u64, what: &str) -> Result<(u32, u32), Stop> {
    let (id, offset, size) = crate::fp_mode::decode_hwreg(k as u32);
    if id != crate::fp_mode::HW_REG_MODE || offset + size > 29 {
        return Err(Stop::Fault(format!(
            "{what} of hwreg(id {id}, {offset}, {size}): the simulator models the MODE \
             register's bits 28:0 and the control stack pointer, hwreg(HW_REG_MODE, 29, 3)"
        )));
    }
    let mask = (((1u64 << size) - 1) << offset) as u32;
    Ok((offset, mask))
}

/// `hwreg(HW_REG_MODE, 29, 3)`: the control stack pointer, bits 31:29 of MODE.
pub const HWREG_CSP: u64 = (2 << 11) | (29 << 6) | 1;

/// Entries the FORK/JOIN stack holds: CSP is a 3-bit field, and running the smaller lane
/// group first bounds the depth by log2(64) = 6.
pub const FORK_STACK_DEPTH: u8 = 6;

/// `s_cbranch_{i,g}_fork`: the lanes of EXEC where `mask` holds pass (to `target`), the
/// others fail (to the next instruction). When all go one way it is a plain branch; else
/// the smaller group runs first and the other one's {EXEC, PC} is pushed at SGPR[CSP*4]
/// (EXEC in the low pair, the byte address in the high one), CSP + 1. Ties run the passing
/// lanes first, as the manual's `bitcount(fail) < bitcount(pass)` test does.
fn fork(w: &mut Wave, mask: u64, target: u32) -> Result<(), Stop> {
    let exec = w.exec();
    let pass = mask & exec;
    let fail = !mask & exec;
    if pass == exec {
        w.pc = target;
        w.stack_event = Some("fork: every lane passes (no push)".into());
        return Ok(());
    }
    if fail == exec {
        w.stack_event = Some("fork: every lane fails (no push)".into());
        return Ok(());
    }
    if w.csp >= FORK_STACK_DEPTH {
        return Err(Stop::Fault(format!(
            "FORK/JOIN stack overflow: a divergent fork with {} entries pushed already (the \
             stack holds {FORK_STACK_DEPTH})",
            w.csp
        )));
    }
    let (run, (wait, at)) = if fail.count_ones() < pass.count_ones() {
        (fail, (pass, target))
    } else {
        let next = w.pc;
        w.pc = target;
        (pass, (fail, next))
    };
    let base = 4 * w.csp as usize;
    w.s[base] = wait as u32;
    w.s[base + 1] = (wait >> 32) as u32;
    w.s[base + 2] = 4 * at;
    w.s[base + 3] = 0;
    w.csp += 1;
    w.max_csp = w.max_csp.max(w.csp);
    w.set_exec(run);
    w.stack_event = Some(format!(
        "fork: push {{exec={wait:#x}, pc={:#x}}} at s[{base}:{}], csp {} -> {}",
        4 * at,
        base + 3,
        w.csp - 1,
        w.csp
    ));
    Ok(())
}

/// `s_cbranch_join saved`: when CSP is back at the value `saved` read before the fork, every
/// path of it is done and the wave goes on; else the last entry is popped into {EXEC, PC}.
fn join(w: &mut Wave, saved: u32, n_insts: usize) -> Result<(), Stop> {
    if w.csp as u32 == saved {
        w.stack_event = Some(format!("join: csp = {saved}, every path done"));
        return Ok(());
    }
    if (w.csp as u32) < saved {
        return Err(Stop::Fault(format!(
            "s_cbranch_join with a saved CSP of {saved} above the current one, {}",
            w.csp
        )));
    }
    w.csp -= 1;
    let base = 4 * w.csp as usize;
    let exec = w.s[base] as u64 | (w.s[base + 1] as u64) << 32;
    let to = w.s[base + 2] as u64 | (w.s[base + 3] as u64) << 32;
    if !to.is_multiple_of(4) || to / 4 >= n_insts as u64 {
        return Err(Stop::Fault(format!(
            "s_cbranch_join pops pc 0x{to:x} from s[{base}:{}], which is not an instruction's \
             address",
            base + 3
        )));
    }
    w.set_exec(exec);
    w.pc = (to / 4) as u32;
    w.stack_event = Some(format!(
        "join: pop {{exec={exec:#x}, pc={to:#x}}} from s[{base}:{}], csp {} -> {}",
        base + 3,
        w.csp + 1,
        w.csp
    ));
    Ok(())
}

fn sopp(w: &mut Wave, inst: &Inst) -> Flow {
    let target = match inst.ops[0] {
        Op::Label(t) => t,
        _ => 0,
    };
    let taken = match inst.opc {
        Opc::S_BRANCH => true,
        Opc::S_CBRANCH_SCC0 => !w.scc,
        Opc::S_CBRANCH_SCC1 => w.scc,
        Opc::S_CBRANCH_EXECZ => w.exec() == 0,
        Opc::S_CBRANCH_EXECNZ => w.exec() != 0,
        Opc::S_CBRANCH_VCCZ => w.s64(Op::S(VCC, 2)) == 0,
        Opc::S_CBRANCH_VCCNZ => w.s64(Op::S(VCC, 2)) != 0,
        Opc::S_WAITCNT => {
            w.wait(inst.vm, inst.lgkm);
            false
        }
        Opc::S_NOP => false,
        Opc::S_BARRIER => return Flow::Barrier,
        Opc::S_ENDPGM => return Flow::End,
        o => unreachable!("{o} is not SOPP"),
    };
    if taken {
        w.pc = target;
    }
    Flow::Next
}

fn f(x: u32) -> f32 {
    f32::from_bits(x)
}
