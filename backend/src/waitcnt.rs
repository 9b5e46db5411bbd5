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
//! provides N+1.
//! Linear in the number of instructions.

use crate::isa::{Opc, Unit};
use crate::mir::{Func, Inst, Operand, PReg, Reg};
use kc_dialect::Loc;

#[derive(Clone, Copy)]
struct Pending {
    first: u16,
    n: u16,
    vgpr: bool,
    smem: bool,
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
    let mut vm: Vec<Option<Pending>> = Vec::new(); // in issue order; None = store
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
                        while vm.len() > *v as usize {
                            vm.remove(0);
                        }
                    }
                    if let Some(l) = l {
                        if *l == 0 {
                            lgkm.clear();
                        }
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
                    while vm.len() > x {
                        vm.remove(0);
                    }
                }
                if need_lgkm {
                    lgkm.clear();
                }
            }
            // Issue.
            let def = if d.defs > 0 {
                inst.ops.first().and_then(regs)
            } else {
                None
            };
            match d.unit {
                Unit::Vmem => {
                    let returns = d.defs > 0
                        && (inst.sc0
                            || !matches!(d.fmt, crate::isa::Fmt::Global)
                            || inst.op.name().contains("load"));
                    vm.push(if returns {
                        def.map(|(vg, b, n)| Pending {
                            first: b,
                            n,
                            vgpr: vg,
                            smem: false,
                        })
                    } else {
                        None
                    });
                }
                Unit::Smem => {
                    if let Some((vg, b, n)) = def {
                        lgkm.push(Pending {
                            first: b,
                            n,
                            vgpr: vg,
                            smem: true,
                        });
                    }
                }
                Unit::Lds => {
                    if let Some((vg, b, n)) = def {
                        lgkm.push(Pending {
                            first: b,
                            n,
                            vgpr: vg,
                            smem: false,
                        });
                    } else {
                        lgkm.push(Pending {
                            first: 0,
                            n: 0,
                            vgpr: true,
                            smem: false,
                        });
                    }
                }
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
        if targets.contains(&b) && bi > 0 {
            // State at a join: after the waits above every predecessor has drained its
            // loads (branches flush too).
        }
        let _ = lgkm.iter().any(|p| p.smem);
        f.blocks[b].insts = out;
    }
}

/// Pads VALU-SGPR-write → VMEM / lane-select read hazards with `s_nop`.
pub fn fix_hazards(f: &mut Func) {
    // Distance since the last VALU write of each SGPR (in wait states), per straight line;
    // a label resets to "unknown" = safe only if padded, so branch targets start clean by
    // assuming the worst: we track across fall-through and conservatively at targets.
    let layout = f.layout.clone();
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
                    out.push(Inst {
                        op: Opc::S_NOP,
                        ops: vec![Operand::Imm(wait_states as i64 - 1)],
                        offset: 0,
                        sc0: false,
                        loc: Loc::UNKNOWN,
                        comment: None,
                    });
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
