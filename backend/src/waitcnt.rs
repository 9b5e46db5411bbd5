//! s_waitcnt insertion and gfx942 hazard padding, after register allocation.
//!
//! Pre: physical registers only.
//! Post: (waitcnt) no instruction reads or overwrites a register whose load (VMEM: vmcnt;
//! SMEM and LDS: lgkmcnt) may still be outstanding. VMEM loads retire in order, so the wait is
//! `vmcnt(N)` with N the loads issued after the one needed; SMEM may return out of order, so
//! any outstanding SMEM forces `lgkmcnt(0)`. At a branch or a fall-through into a branch
//! target every outstanding load is waited for (a conservative join).
//! (hazards) a VMEM instruction reading an SGPR written by a VALU instruction
//! (`v_readfirstlane_b32`, `v_readlane_b32`, `v_cmp_*_e64`) gets 5 wait states, and a
//! `v_readlane`/`v_writelane` lane select 4, as the gfx9 hazard tables require; `s_nop N`
//! provides N+1. Before a branch the window is drained, so a jump target needs no analysis of
//! its predecessors.
//! Linear in the number of instructions.

use crate::isa::{Opc, Unit};
use crate::mir::{Func, Inst, Operand, PReg, Reg};
use kc_dialect::Loc;
use std::collections::VecDeque;

/// Drops the oldest entries until at most `n` remain (what `s_waitcnt vmcnt(n)` guarantees).
fn retire_to(q: &mut VecDeque<Option<Pending>>, n: usize) {
    while q.len() > n {
        q.pop_front();
    }
}

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
        _ => None,
    }
}

fn overlaps(p: &Pending, vgpr: bool, b: u16, n: u16) -> bool {
    p.vgpr == vgpr && p.first < b + n && b < p.first + p.n
}

fn wait(vm: Option<u8>, lgkm: Option<u8>) -> Inst {
    Inst {
        op: Opc::S_WAITCNT,
        ops: vec![Operand::Wait { vm, lgkm }],
        offset: 0,
        sc0: false,
        loc: Loc::UNKNOWN,
        comment: None,
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
    // Outstanding VMEM operations in issue order (`None`: nothing to wait for, a store);
    // outstanding LGKM loads (waited for with lgkmcnt(0) only: SMEM can return out of order).
    let mut vm: VecDeque<Option<Pending>> = VecDeque::new();
    let mut lgkm: Vec<Pending> = Vec::new();
    let layout = f.layout.clone();
    for (bi, &b) in layout.iter().enumerate() {
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let mut out = Vec::with_capacity(insts.len());
        for inst in insts {
            let d = inst.op.desc();
            if inst.op == Opc::S_WAITCNT {
                if let Some(Operand::Wait { vm: v, lgkm: l }) = inst.ops.first() {
                    if let Some(v) = v {
                        retire_to(&mut vm, *v as usize);
                    }
                    if *l == Some(0) {
                        lgkm.clear();
                    }
                }
                out.push(inst);
                continue;
            }
            let flush = d.is_branch() || inst.op == Opc::S_ENDPGM || inst.op == Opc::S_BARRIER;
            let mut need_vm: Option<usize> = None;
            let mut need_lgkm = false;
            if flush {
                if vm.iter().any(|p| p.is_some()) || inst.op == Opc::S_BARRIER && !vm.is_empty() {
                    need_vm = Some(0);
                }
                if !lgkm.is_empty() {
                    need_lgkm = true;
                }
            } else {
                for o in &inst.ops {
                    let Some((vg, rb, rn)) = regs(o) else {
                        continue;
                    };
                    for (k, p) in vm.iter().enumerate() {
                        if let Some(p) = p {
                            if overlaps(p, vg, rb, rn) {
                                let after = vm.len() - k - 1;
                                need_vm = Some(need_vm.map_or(after, |x: usize| x.min(after)));
                            }
                        }
                    }
                    if lgkm.iter().any(|p| overlaps(p, vg, rb, rn)) {
                        need_lgkm = true;
                    }
                }
            }
            if need_vm.is_some() || need_lgkm {
                let l = if need_lgkm { Some(0) } else { None };
                out.push(wait(need_vm.map(|x| x.min(63) as u8), l));
                if let Some(x) = need_vm {
                    retire_to(&mut vm, x);
                }
                if need_lgkm {
                    lgkm.clear();
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
                Unit::Vmem => vm.push_back(pending),
                Unit::Smem | Unit::Lds => lgkm.push(pending.unwrap_or(Pending {
                    first: 0,
                    n: 0,
                    vgpr: true,
                })),
                _ => {}
            }
            out.push(inst);
        }
        // Falling into a branch target: join conservatively.
        let next_is_target = layout.get(bi + 1).is_some_and(|n| targets.contains(n));
        let falls = out
            .last()
            .is_none_or(|i| i.op != Opc::S_BRANCH && i.op != Opc::S_ENDPGM);
        if next_is_target && falls && (vm.iter().any(|p| p.is_some()) || !lgkm.is_empty()) {
            let v = vm.iter().any(|p| p.is_some()).then_some(0);
            let l = (!lgkm.is_empty()).then_some(0);
            out.push(wait(v, l));
            vm.clear();
            lgkm.clear();
        }
        f.blocks[b].insts = out;
    }
}

/// `s_nop` giving `wait_states` (1..=16) wait states.
fn nop(wait_states: usize) -> Inst {
    Inst {
        op: Opc::S_NOP,
        ops: vec![Operand::Imm(wait_states as i64 - 1)],
        offset: 0,
        sc0: false,
        loc: Loc::UNKNOWN,
        comment: None,
    }
}

/// Pads VALU-SGPR-write → VMEM / lane-select read hazards with `s_nop`.
pub fn fix_hazards(f: &mut Func) {
    // Recent VALU writes of SGPRs (first, count, position in wait states) along the layout;
    // branches drain the window, so code reached by a jump has nothing pending.
    let layout = f.layout.clone();
    // SGPRs some VMEM/SMEM or lane-select operand reads: only their writes can be hazards.
    let mut sensitive = vec![false; 256];
    for &b in &layout {
        for inst in &f.blocks[b].insts {
            let d = inst.op.desc();
            let reader = matches!(d.unit, Unit::Vmem | Unit::Smem)
                || matches!(inst.op, Opc::V_READLANE_B32 | Opc::V_WRITELANE_B32);
            if !reader {
                continue;
            }
            for o in inst.ops.iter().skip(d.defs as usize) {
                if let Some((false, first, n)) = regs(o) {
                    for r in first..first + n {
                        sensitive[r as usize] = true;
                    }
                }
            }
        }
    }
    let mut last_write: Vec<(u16, u16, usize)> = Vec::new(); // (first, n, position)
    let mut pos = 0usize;
    for &b in &layout {
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let mut out = Vec::with_capacity(insts.len());
        for inst in insts {
            let d = inst.op.desc();
            let reads: Vec<(u16, u16)> = inst
                .ops
                .iter()
                .enumerate()
                .skip(d.defs as usize)
                .filter_map(|(_, o)| match regs(o) {
                    Some((false, b, n)) => Some((b, n)),
                    _ => None,
                })
                .collect();
            let need = match d.unit {
                Unit::Vmem | Unit::Smem => 5,
                _ if matches!(inst.op, Opc::V_READLANE_B32 | Opc::V_WRITELANE_B32) => 4,
                _ => 0,
            };
            // A branch target is not analysed across its predecessors: drain the window
            // before every branch, so a jump never carries a pending hazard.
            if d.is_branch() {
                let pending = last_write
                    .iter()
                    .filter(|w| (w.0..w.0 + w.1).any(|r| sensitive[r as usize]))
                    .map(|w| w.2)
                    .max();
                if let Some(wp) = pending.filter(|&wp| pos - wp <= 5) {
                    out.push(nop(6 - (pos - wp)));
                    pos += 6 - (pos - wp);
                }
            }
            if need > 0 {
                let mut wait_states = 0usize;
                for &(rb, rn) in &reads {
                    for &(wb, wn, wp) in &last_write {
                        if wb < rb + rn && rb < wb + wn {
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
            }
            if d.unit == Unit::Valu {
                for o in inst.ops.iter().take(d.defs as usize) {
                    if let Some((false, b, n)) = regs(o) {
                        last_write.push((b, n, pos));
                    }
                }
            }
            pos += 1;
            last_write.retain(|&(_, _, p)| pos - p <= 6);
            out.push(inst);
        }
        f.blocks[b].insts = out;
    }
}
