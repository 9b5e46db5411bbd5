//! s_waitcnt insertion and gfx942 hazard padding, after register allocation.
//!
//! Pre: physical registers only.
//! Post: (waitcnt) no instruction reads or overwrites a register whose load (VMEM: vmcnt;
//! SMEM and LDS: lgkmcnt) may still be outstanding. VMEM loads retire in order, so the wait is
//! `vmcnt(N)` with N the loads issued after the one needed; SMEM may return out of order, so
//! any outstanding SMEM forces `lgkmcnt(0)`. At a branch or a fall-through into a branch
//! target every outstanding load is waited for (a conservative join).
//! (hazards) after a VALU instruction writes a register, a VMEM/SMEM instruction reading it
//! as an SGPR gets 5 wait states, a `v_readlane`/`v_writelane` lane select 4, any other VALU
//! instruction reading it as an SGPR 2 and `v_readlane`/`v_readfirstlane` reading it as its
//! VGPR 1, as gfx942 requires (the last two are gfx940's additions: clang pads
//! `v_cmp_*` + `v_cndmask_b32` with `s_nop 1`); a DPP instruction (`_dpp`) reading a VGPR 2
//! after any instruction wrote it (VALU or a load's issue: LLVM's checkDPPHazards counts every
//! definition). LLVM's other DPP rule, 5 wait states after a VALU write of EXEC, never applies:
//! the MIR validator admits only SALU writes of EXEC. `s_nop N` provides N+1. The window of recent
//! writes flows along the fall-through and every forward jump (a block is padded for its
//! worst predecessor); only a back edge drains it before the branch.
//! Linear in the number of instructions: what is outstanding is kept per register (issue
//! numbers for VMEM, an epoch for LGKM), so an operand costs O(1) however many memory
//! operations are in flight.

use crate::isa::{Opc, Unit};
use crate::mir::{Func, Inst, MBlock, Operand, PReg, Reg};
use cranelift_entity::SecondaryMap;
use kc_dialect::Loc;

/// The destination registers of an outstanding load.
#[derive(Clone, Copy)]
struct Pending {
    first: u16,
    n: u16,
    vgpr: bool,
}

fn regs(o: &Operand) -> Option<(bool, u16, u16)> {
    match o {
        Operand::Reg {
            reg: Reg::Phys(PReg::S(b, n)),
            ..
        } => Some((false, *b, *n as u16)),
        Operand::Reg {
            reg: Reg::Phys(PReg::V(b, n)),
            ..
        } => Some((true, *b, *n as u16)),
        // VCC is SGPRs 106-107 to the hardware, with the same hazards.
        Operand::Reg {
            reg: Reg::Phys(PReg::Vcc),
            ..
        } => Some((false, 106, 2)),
        _ => None,
    }
}

fn wait(vm: Option<u8>, lgkm: Option<u8>) -> Inst {
    Inst::new(
        Opc::S_WAITCNT,
        vec![Operand::Wait { vm, lgkm }],
        Loc::UNKNOWN,
    )
}

/// What may be outstanding, kept per register so that each operand is checked in O(1)
/// whatever the number of memory operations in flight (a scan of the queue made a kernel of
/// 100,000 stores quadratic).
///
/// VMEM operations are numbered in issue order (1, 2, ...) and retire in order, so "all
/// operations up to number `vm_retired` are done" describes the queue; each register keeps the
/// number of the newest load writing it. LGKM operations are only waited for all at once
/// (`lgkmcnt(0)`), so an epoch number does: a register is pending if its load was issued in
/// the current epoch.
struct Outstanding {
    vm_issued: u64,
    vm_retired: u64,
    /// The number of the newest VMEM load (an operation with a destination).
    vm_last_load: u64,
    /// Per register (slot `2r` for `s[r]`, `2r + 1` for `v[r]`): the newest VMEM load writing
    /// it.
    vm_load: Vec<u64>,
    lgkm_epoch: u64,
    /// LGKM operations issued in the current epoch.
    lgkm_count: u64,
    /// Per register: the epoch of the newest LGKM load writing it.
    lgkm_load: Vec<u64>,
}

impl Outstanding {
    fn new() -> Outstanding {
        Outstanding {
            vm_issued: 0,
            vm_retired: 0,
            vm_last_load: 0,
            vm_load: Vec::new(),
            lgkm_epoch: 1,
            lgkm_count: 0,
            lgkm_load: Vec::new(),
        }
    }

    /// SGPRs and VGPRs interleave, so the tables grow with the highest register used (a
    /// separate VGPR area at a fixed offset cost a 1 MB zeroed table per kernel).
    fn slots(vgpr: bool, first: u16, n: u16) -> impl Iterator<Item = usize> {
        let first = first as usize;
        (first..first + n as usize).map(move |r| 2 * r + vgpr as usize)
    }

    fn mark(table: &mut Vec<u64>, slots: impl Iterator<Item = usize>, value: u64) {
        for r in slots {
            if table.len() <= r {
                table.resize(r + 1, 0);
            }
            table[r] = value;
        }
    }

    /// Some VMEM load is outstanding.
    fn vm_loads(&self) -> bool {
        self.vm_last_load > self.vm_retired
    }

    fn lgkm_any(&self) -> bool {
        self.lgkm_count > 0
    }

    /// Waits until at most `n` VMEM operations are outstanding.
    fn retire_vm_to(&mut self, n: usize) {
        let done = self.vm_issued.saturating_sub(n as u64);
        self.vm_retired = self.vm_retired.max(done);
    }

    fn retire_lgkm(&mut self) {
        self.lgkm_epoch += 1;
        self.lgkm_count = 0;
    }

    /// For an operand on these registers: the VMEM count to wait for (operations issued
    /// after the newest load writing one of them), and whether an LGKM load writes one.
    fn needs(&self, vgpr: bool, first: u16, n: u16) -> (Option<usize>, bool) {
        let mut vm = None;
        let mut lgkm = false;
        for r in Self::slots(vgpr, first, n) {
            let load = self.vm_load.get(r).copied().unwrap_or(0);
            if load > self.vm_retired {
                let after = (self.vm_issued - load) as usize;
                vm = Some(vm.map_or(after, |x: usize| x.min(after)));
            }
            lgkm |= self.lgkm_load.get(r).copied().unwrap_or(0) == self.lgkm_epoch;
        }
        (vm, lgkm)
    }

    fn issue_vm(&mut self, def: Option<Pending>) {
        self.vm_issued += 1;
        if let Some(p) = def {
            self.vm_last_load = self.vm_issued;
            Self::mark(
                &mut self.vm_load,
                Self::slots(p.vgpr, p.first, p.n),
                self.vm_issued,
            );
        }
    }

    fn issue_lgkm(&mut self, def: Option<Pending>) {
        self.lgkm_count += 1;
        if let Some(p) = def {
            Self::mark(
                &mut self.lgkm_load,
                Self::slots(p.vgpr, p.first, p.n),
                self.lgkm_epoch,
            );
        }
    }
}

pub fn insert_waits(f: &mut Func) {
    let targets: std::collections::HashSet<_> = f
        .layout
        .iter()
        .flat_map(|&b| f.blocks[b].insts.iter())
        .filter_map(|i| match i.ops.first() {
            Some(Operand::Label(t)) if i.op.desc().is_branch() => Some(*t),
            _ => None,
        })
        .collect();
    let mut out_ops = Outstanding::new();
    let layout = f.layout.clone();
    for (bi, &b) in layout.iter().enumerate() {
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let mut out = Vec::with_capacity(insts.len());
        for inst in insts {
            let d = inst.op.desc();
            if inst.op == Opc::S_WAITCNT {
                let mut inst = inst;
                if let Some(Operand::Wait { vm: v, lgkm: l }) = inst.ops.first_mut() {
                    // A count no higher than what is outstanding waits for nothing: drop it.
                    if v.is_some_and(|v| out_ops.vm_issued - out_ops.vm_retired <= v as u64) {
                        *v = None;
                    }
                    if *l == Some(0) && !out_ops.lgkm_any() {
                        *l = None;
                    }
                    if let Some(v) = v {
                        out_ops.retire_vm_to(*v as usize);
                    }
                    if *l == Some(0) {
                        out_ops.retire_lgkm();
                    }
                    if v.is_none() && l.is_none() {
                        continue;
                    }
                }
                out.push(inst);
                continue;
            }
            // (A barrier waits for what the memory model's sequence around it asks: isel's.)
            let flush = d.is_branch() || inst.op == Opc::S_ENDPGM;
            let mut need_vm: Option<usize> = None;
            let mut need_lgkm = false;
            if flush {
                if out_ops.vm_loads() {
                    need_vm = Some(0);
                }
                if out_ops.lgkm_any() {
                    need_lgkm = true;
                }
            } else {
                for o in &inst.ops {
                    let Some((vg, rb, rn)) = regs(o) else {
                        continue;
                    };
                    let (vm, lgkm) = out_ops.needs(vg, rb, rn);
                    if let Some(after) = vm {
                        need_vm = Some(need_vm.map_or(after, |x: usize| x.min(after)));
                    }
                    need_lgkm |= lgkm;
                }
            }
            if need_vm.is_some() || need_lgkm {
                let l = if need_lgkm { Some(0) } else { None };
                out.push(wait(need_vm.map(|x| x.min(63) as u8), l));
                if let Some(x) = need_vm {
                    out_ops.retire_vm_to(x);
                }
                if need_lgkm {
                    out_ops.retire_lgkm();
                }
            }
            // Issue: loads and returning atomics have a destination to wait for.
            let def = if d.defs > 0 {
                inst.ops.first().and_then(regs)
            } else {
                None
            };
            let pending = def.map(|(vgpr, first, n)| Pending { first, n, vgpr });
            match d.unit {
                Unit::Vmem => out_ops.issue_vm(pending),
                Unit::Smem | Unit::Lds => out_ops.issue_lgkm(pending),
                _ => {}
            }
            out.push(inst);
        }
        // Falling into a branch target: join conservatively.
        let next_is_target = layout.get(bi + 1).is_some_and(|n| targets.contains(n));
        let falls = out
            .last()
            .is_none_or(|i| i.op != Opc::S_BRANCH && i.op != Opc::S_ENDPGM);
        if next_is_target && falls && (out_ops.vm_loads() || out_ops.lgkm_any()) {
            let v = out_ops.vm_loads().then_some(0);
            let l = out_ops.lgkm_any().then_some(0);
            out.push(wait(v, l));
            out_ops.retire_vm_to(0);
            out_ops.retire_lgkm();
        }
        f.blocks[b].insts = out;
    }
}

/// `s_nop` giving `wait_states` (1..=16) wait states.
fn nop(wait_states: usize) -> Inst {
    Inst::new(
        Opc::S_NOP,
        vec![Operand::Imm(wait_states as i64 - 1)],
        Loc::UNKNOWN,
    )
}

/// Wait states operand `i` of `inst` (a register of the given file) needs after a VALU
/// instruction wrote it, as gfx942 requires (LLVM's GCNHazardRecognizer: checkVMEMHazards,
/// checkRWLaneHazards, checkDPPHazards, and gfx940's VDecCoExec rules in checkVALUHazards):
/// an SGPR read by VMEM/SMEM 5; a `v_readlane`/`v_writelane` lane select 4; an SGPR read by
/// any other VALU instruction 2; a VGPR a DPP instruction reads 2; the VGPR
/// `v_readlane`/`v_readfirstlane` reads 1.
fn wait_states_needed(inst: &Inst, i: usize, vgpr: bool) -> usize {
    let d = inst.op.desc();
    let lane_op = matches!(inst.op, Opc::V_READLANE_B32 | Opc::V_WRITELANE_B32);
    match (vgpr, d.unit) {
        (true, Unit::Valu) if inst.dpp.is_some() => 2,
        (false, Unit::Vmem | Unit::Smem) => 5,
        (false, _) if lane_op && i == 2 => 4,
        (false, Unit::Valu) => 2,
        (true, Unit::Valu)
            if i == 1 && matches!(inst.op, Opc::V_READLANE_B32 | Opc::V_READFIRSTLANE_B32) =>
        {
            1
        }
        _ => 0,
    }
}

/// The register operands `inst` reads, with the wait states each needs after a VALU write:
/// (vgpr, first, count, wait states).
fn hazard_reads(inst: &Inst) -> impl Iterator<Item = (bool, u16, u16, usize)> + '_ {
    let defs = inst.op.desc().defs as usize;
    inst.ops
        .iter()
        .enumerate()
        .skip(defs)
        .filter_map(move |(i, o)| {
            let (vgpr, first, n) = regs(o)?;
            let need = wait_states_needed(inst, i, vgpr);
            (need > 0).then_some((vgpr, first, n, need))
        })
}

/// Pads the hazards of a VALU write followed by a read of the same register
/// ([`wait_states_needed`]) with `s_nop`.
///
/// The window of recent VALU writes follows the layout and every forward branch: a block
/// starts with the writes still pending on any edge into it (fall-through or jump), aged by
/// the smallest distance, so a jump target is padded as if reached by its worst predecessor.
/// Only a backward branch (a loop's back edge, whose target was already padded) drains the
/// window before it. Linear: each write is carried at most 6 wait states, along each edge once.
pub fn fix_hazards(f: &mut Func) {
    let layout = f.layout.clone();
    // Per register, the most wait states any of its reads needs: only writes of registers
    // with such readers are hazards, and only they are carried across edges.
    let mut need_s = vec![0usize; 256];
    let mut need_v = vec![0usize; 512];
    for &b in &layout {
        for inst in &f.blocks[b].insts {
            for (vgpr, first, n, need) in hazard_reads(inst) {
                let table = if vgpr { &mut need_v } else { &mut need_s };
                for r in first..first + n {
                    if let Some(x) = table.get_mut(r as usize) {
                        *x = (*x).max(need);
                    }
                }
            }
        }
    }
    let reader_need = |vgpr: bool, first: u16, n: u16| {
        let table = if vgpr { &need_v } else { &need_s };
        (first..first + n)
            .filter_map(|r| table.get(r as usize).copied())
            .max()
            .unwrap_or(0)
    };
    let mut index: SecondaryMap<MBlock, usize> = SecondaryMap::with_default(usize::MAX);
    for (i, &b) in layout.iter().enumerate() {
        index[b] = i;
    }
    // Writes pending at the start of a block from jumps into it: (vgpr, first, count, age in
    // wait states at the block's first instruction).
    let mut incoming: SecondaryMap<MBlock, Vec<(bool, u16, u16, usize)>> = SecondaryMap::new();
    let mut last_write: Vec<(bool, u16, u16, usize)> = Vec::new();
    let mut pos = 0usize;
    for (i, &b) in layout.iter().enumerate() {
        for &(vgpr, wb, wn, age) in &incoming[b] {
            // `pos >= age` holds after the first block; older writes are harmless.
            if age <= pos {
                last_write.push((vgpr, wb, wn, pos - age));
            }
        }
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let mut out = Vec::with_capacity(insts.len());
        for inst in insts {
            let d = inst.op.desc();
            let target = match inst.ops.first() {
                Some(Operand::Label(t)) if d.is_branch() => Some(*t),
                _ => None,
            };
            let backward = target.is_some_and(|t| index[t] <= i);
            let mut wait_states = 0usize;
            if d.is_branch() && (backward || target.is_none()) {
                // A back edge (or a branch kc cannot follow) carries nothing: drain.
                for &(vgpr, wb, wn, wp) in &last_write {
                    let need = reader_need(vgpr, wb, wn);
                    let dist = pos - wp;
                    if need > 0 && dist <= need {
                        wait_states = wait_states.max(need + 1 - dist);
                    }
                }
            }
            for (vgpr, rb, rn, need) in hazard_reads(&inst) {
                for &(wv, wb, wn, wp) in &last_write {
                    if wv == vgpr && wb < rb + rn && rb < wb + wn {
                        let dist = pos - wp;
                        if dist <= need {
                            wait_states = wait_states.max(need + 1 - dist);
                        }
                    }
                }
            }
            if wait_states > 0 {
                out.push(nop(wait_states));
                pos += wait_states;
            }
            // VALU writes; a VGPR written by a load counts too (for DPP reads).
            if matches!(d.unit, Unit::Valu | Unit::Vmem | Unit::Lds) {
                for o in inst.ops.iter().take(d.defs as usize) {
                    if let Some((vgpr, b, n)) = regs(o) {
                        if (vgpr || d.unit == Unit::Valu) && reader_need(vgpr, b, n) > 0 {
                            last_write.push((vgpr, b, n, pos));
                        }
                    }
                }
            }
            pos += 1;
            last_write.retain(|&(_, _, _, p)| pos - p <= 6);
            if let Some(t) = target.filter(|_| !backward) {
                // The branch itself is one wait state on the taken path too.
                let into = &mut incoming[t];
                for &(vgpr, wb, wn, wp) in &last_write {
                    into.push((vgpr, wb, wn, pos - wp));
                }
            }
            out.push(inst);
        }
        f.blocks[b].insts = out;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mir::Reg;

    fn v(r: u16) -> Operand {
        Operand::Reg {
            reg: Reg::Phys(PReg::V(r, 1)),
            sub: 0,
            n: 0,
        }
    }

    fn inst(op: Opc, ops: Vec<Operand>) -> Inst {
        Inst::new(op, ops, kc_dialect::Loc::UNKNOWN)
    }

    fn waits(f: &Func) -> Vec<(usize, Option<u8>, Option<u8>)> {
        let b = f.layout[0];
        f.blocks[b]
            .insts
            .iter()
            .enumerate()
            .filter_map(|(k, i)| match i.ops.first() {
                Some(Operand::Wait { vm, lgkm }) => Some((k, *vm, *lgkm)),
                _ => None,
            })
            .collect()
    }

    /// A load, `stores` stores of other registers, then a use of the load: one wait, for the
    /// load only (`vmcnt(min(stores, 63))`), and no wait between the stores.
    fn load_stores_use(stores: usize) -> Func {
        let mut f = Func::default();
        let b = f.new_block();
        f.layout.push(b);
        let insts = &mut f.blocks[b].insts;
        insts.push(inst(Opc::GLOBAL_LOAD_DWORD, vec![v(5), v(0), Operand::Off]));
        for k in 0..stores {
            insts.push(inst(
                Opc::V_MOV_B32,
                vec![v(1), Operand::Imm(k as i64 % 64)],
            ));
            insts.push(inst(
                Opc::GLOBAL_STORE_DWORD,
                vec![v(0), v(1), Operand::Off],
            ));
        }
        insts.push(inst(Opc::V_MOV_B32, vec![v(2), v(5)]));
        insts.push(inst(Opc::S_ENDPGM, vec![]));
        f
    }

    #[test]
    fn waits_for_the_load_only() {
        let mut f = load_stores_use(3);
        insert_waits(&mut f);
        // After the load and 3 x (v_mov, store): the use of v5 waits for vmcnt(3).
        assert_eq!(waits(&f), vec![(7, Some(3), None)]);
    }

    /// 200,000 stores in flight: each operand is checked in O(1). Scanning the queue of
    /// outstanding operations per operand (what this pass did) made it quadratic: 17 s for
    /// 100,000 stores in a release build, hours here.
    #[test]
    fn many_outstanding_stores_are_linear() {
        let mut f = load_stores_use(200_000);
        let t = std::time::Instant::now();
        insert_waits(&mut f);
        let secs = t.elapsed().as_secs_f64();
        assert_eq!(waits(&f), vec![(400_001, Some(63), None)]);
        assert!(secs < 10.0, "insert_waits took {secs:.1} s");
    }

    fn s(first: u16, n: u8) -> Operand {
        Operand::Reg {
            reg: Reg::Phys(PReg::S(first, n)),
            sub: 0,
            n: 0,
        }
    }

    /// bb0: `v_cmp` writes s[2:3]; a branch to bb2 (forward or, with `back`, bb2 laid out
    /// first); bb1: filler; bb2: a global load with s[2:3] as its address (5 wait states).
    /// Returns the nops per block, in layout order.
    fn branch_then_read(branch: Opc, filler: usize, back: bool) -> Vec<Vec<i64>> {
        let mut f = Func::default();
        let (b0, b1, b2) = (f.new_block(), f.new_block(), f.new_block());
        f.layout = if back {
            vec![b2, b0, b1]
        } else {
            vec![b0, b1, b2]
        };
        f.blocks[b0].insts = vec![
            inst(Opc::V_CMP_EQ_U32, vec![s(2, 2), v(0), Operand::Imm(0)]),
            inst(branch, vec![Operand::Label(b2)]),
        ];
        f.blocks[b1].insts = (0..filler)
            .map(|_| inst(Opc::V_MOV_B32, vec![v(1), v(0)]))
            .collect();
        f.blocks[b2].insts = vec![
            inst(Opc::GLOBAL_LOAD_DWORD, vec![v(2), v(0), s(2, 2)]),
            inst(Opc::S_ENDPGM, vec![]),
        ];
        fix_hazards(&mut f);
        f.layout
            .iter()
            .map(|&b| {
                f.blocks[b]
                    .insts
                    .iter()
                    .filter(|i| i.op == Opc::S_NOP)
                    .map(|i| match i.ops[0] {
                        Operand::Imm(x) => x,
                        _ => unreachable!(),
                    })
                    .collect()
            })
            .collect()
    }

    /// The taken edge carries the write: the target pads what the jump leaves (5 wait
    /// states needed, the branch is 1: `s_nop 3`), and nothing is drained before the branch.
    #[test]
    fn forward_jump_carries_the_window() {
        let nops = branch_then_read(Opc::S_CBRANCH_EXECZ, 0, false);
        assert_eq!(nops, vec![vec![], vec![], vec![3]]);
    }

    /// Reached by the fall-through after 2 fillers and by the jump after none: the worst
    /// edge (the jump) decides.
    #[test]
    fn target_pads_for_its_worst_predecessor() {
        let nops = branch_then_read(Opc::S_CBRANCH_EXECZ, 2, false);
        assert_eq!(nops, vec![vec![], vec![], vec![3]]);
    }

    /// Far enough on every edge: no padding anywhere.
    #[test]
    fn old_writes_need_nothing() {
        let mut f = Func::default();
        let (b0, b1) = (f.new_block(), f.new_block());
        f.layout = vec![b0, b1];
        let mut insts = vec![inst(
            Opc::V_CMP_EQ_U32,
            vec![s(2, 2), v(0), Operand::Imm(0)],
        )];
        insts.extend((0..5).map(|_| inst(Opc::V_MOV_B32, vec![v(1), v(0)])));
        insts.push(inst(Opc::S_CBRANCH_EXECZ, vec![Operand::Label(b1)]));
        f.blocks[b0].insts = insts;
        f.blocks[b1].insts = vec![inst(Opc::GLOBAL_LOAD_DWORD, vec![v(2), v(0), s(2, 2)])];
        fix_hazards(&mut f);
        assert!(f.blocks[b1].insts.iter().all(|i| i.op != Opc::S_NOP));
        assert!(f.blocks[b0].insts.iter().all(|i| i.op != Opc::S_NOP));
    }

    /// A back edge drains the window before the branch (its target was padded already).
    #[test]
    fn backward_branch_drains() {
        let nops = branch_then_read(Opc::S_BRANCH, 0, true);
        // layout: bb2 (the reader, first), bb0 (write + branch back), bb1.
        assert_eq!(nops, vec![vec![], vec![4], vec![]]);
    }

    fn dpp(op: Opc, ops: Vec<Operand>, ctrl: crate::dpp::DppCtrl) -> Inst {
        let mut i = inst(op, ops);
        i.dpp = Some(crate::dpp::Dpp::new(ctrl));
        i
    }

    /// The nops in one block after padding.
    fn nops_in(insts: Vec<Inst>) -> Vec<i64> {
        let mut f = Func::default();
        let b = f.new_block();
        f.layout = vec![b];
        f.blocks[b].insts = insts;
        fix_hazards(&mut f);
        f.blocks[b]
            .insts
            .iter()
            .filter(|i| i.op == Opc::S_NOP)
            .map(|i| match i.ops[0] {
                Operand::Imm(n) => n,
                _ => -1,
            })
            .collect()
    }

    /// A DPP read of a VGPR needs 2 wait states after its write (LLVM's `s_nop 1` between the
    /// steps of a wave reduction), 1 after one unrelated instruction, none after two; the
    /// `v_readlane_b32` of the result 1 (`s_nop 0`); a non-DPP read of the VGPR none.
    #[test]
    fn dpp_reads_wait_two_states() {
        use crate::dpp::DppCtrl::RowShr;
        let add = |k| dpp(Opc::V_ADD_U32, vec![v(1), v(1), v(1)], RowShr(k));
        assert_eq!(nops_in(vec![add(1), add(2)]), vec![1]);
        let other = || inst(Opc::V_MOV_B32, vec![v(3), v(0)]);
        assert_eq!(nops_in(vec![add(1), other(), add(2)]), vec![0]);
        assert_eq!(
            nops_in(vec![add(1), other(), other(), add(2)]),
            Vec::<i64>::new()
        );
        // src1 counts too, as in LLVM (every VGPR use of the DPP instruction).
        let mixed = dpp(Opc::V_ADD_U32, vec![v(5), v(4), v(1)], RowShr(1));
        assert_eq!(nops_in(vec![add(1), mixed]), vec![1]);
        let readlane = inst(Opc::V_READLANE_B32, vec![s(8, 1), v(1), Operand::Imm(63)]);
        assert_eq!(nops_in(vec![add(8), readlane]), vec![0]);
        let plain = inst(Opc::V_ADD_U32, vec![v(2), v(1), v(1)]);
        assert_eq!(nops_in(vec![add(1), plain]), Vec::<i64>::new());
        // A loaded VGPR counts from the load's issue (s_waitcnt is one wait state).
        let load = inst(Opc::GLOBAL_LOAD_DWORD, vec![v(1), v(0), s(2, 2)]);
        let wait = Inst::new(
            Opc::S_WAITCNT,
            vec![Operand::Wait {
                vm: Some(0),
                lgkm: None,
            }],
            Loc::UNKNOWN,
        );
        assert_eq!(nops_in(vec![load, wait, add(1)]), vec![0]);
    }
}
