//! SGPR spilling: the SGPRs the scan takes out of the register file are rematerialized before
//! each read, or kept in lanes of spill VGPRs.
//!
//! Pre: a machine function over virtual registers and the registers to take out (`victims`,
//! chosen by the scan in `regalloc.rs`), each with a finite spill weight (never a temporary
//! made here).
//! Post: no instruction names a victim. A rematerializable victim (one definition: a move
//! of a constant or of a never-written ABI SGPR, or a kernel-argument load) has its
//! definition deleted and re-emitted into a fresh SGPR before each read. Any other victim
//! gets `v_writelane_b32` of each dword it writes into its lanes of the spill VGPRs right
//! after each write, and `v_readlane_b32` of each dword it reads into a fresh SGPR right
//! before each read; both ignore EXEC, so this holds under any EXEC, empty included. Each
//! spilled dword written counts in `.sgpr_spill_count`, as in LLVM. The fresh SGPRs live
//! across one instruction and are recorded in `temps` (never spilled); the spill VGPRs, 64
//! lanes each, must be reserved for the whole kernel by the VGPR allocation.
//! Cost: linear in the instructions.

use super::Costs;
use crate::isa::Opc;
use crate::mir::{self, Func, Inst, MBlock, Operand, Reg, VReg};
use cranelift_entity::SecondaryMap;

/// Spill state kept across allocation rounds.
#[derive(Default)]
pub(super) struct Spiller {
    /// Spill VGPRs, 64 lanes each.
    pub(super) vgprs: Vec<VReg>,
    lanes: u32,
    /// Reload and spill temporaries (never spilled).
    pub(super) temps: std::collections::HashSet<VReg>,
    /// Spilled dwords written (`.sgpr_spill_count`).
    pub(super) count: u32,
}

/// How a spilled register is brought back.
#[derive(Clone)]
enum Plan {
    Remat(Inst),
    /// Dword `i` lives in lane `first + i` of the spill VGPRs.
    Lanes(u32),
}

impl Spiller {
    /// Rewrites every reference to `victims`: rematerialized before each read, or kept in
    /// spill-VGPR lanes around each read and write.
    pub(super) fn spill(&mut self, f: &mut Func, victims: &[VReg], costs: &Costs) {
        let mut plan: SecondaryMap<VReg, Option<Plan>> = SecondaryMap::new();
        for &v in victims {
            plan[v] = Some(match &costs.remat[v] {
                Some(def) => Plan::Remat(def.clone()),
                None => {
                    let first = self.lanes;
                    self.lanes += f.vregs[v].dwords as u32;
                    while self.vgprs.len() * 64 < self.lanes as usize {
                        let s = f.new_vreg(mir::Class::V32);
                        self.vgprs.push(s);
                    }
                    Plan::Lanes(first)
                }
            });
        }
        for bi in 0..f.layout.len() {
            let b = f.layout[bi];
            self.spill_block(f, b, &plan);
        }
    }

    fn spill_block(&mut self, f: &mut Func, b: MBlock, plan: &SecondaryMap<VReg, Option<Plan>>) {
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let mut out = Vec::with_capacity(insts.len());
        for mut inst in insts {
            let refs = super::refs_of(f, &inst, |v| plan[v].is_some());
            if refs.is_empty() {
                out.push(inst);
                continue;
            }
            let mut after = Vec::new();
            let mut dropped = false;
            for (v, reads, writes) in refs {
                let plan = plan[v].as_ref().expect("a spilled register");
                if let Plan::Remat(_) = plan {
                    if writes != 0 {
                        // The definition itself: re-emitted at each use instead.
                        dropped = true;
                        continue;
                    }
                }
                let t = f.new_vreg(f.vregs[v]);
                self.temps.insert(t);
                match plan {
                    Plan::Remat(def) => {
                        let mut d = def.clone();
                        d.ops[0] = mir::r(t);
                        d.loc = inst.loc;
                        d.comment = None;
                        out.push(d);
                    }
                    Plan::Lanes(first) => {
                        // Only the register's own dwords: a lane past them may be past the
                        // last spill VGPR.
                        for i in 0..f.vregs[v].dwords {
                            let lane = first + i as u32;
                            let vg = mir::r(self.vgprs[lane as usize / 64]);
                            let l = Operand::Imm((lane % 64) as i64);
                            if reads >> i & 1 != 0 {
                                out.push(lane_op(
                                    Opc::V_READLANE_B32,
                                    vec![mir::rsub(t, i, 1), vg.clone(), l.clone()],
                                    &inst,
                                ));
                            }
                            if writes >> i & 1 != 0 {
                                self.count += 1;
                                after.push(lane_op(
                                    Opc::V_WRITELANE_B32,
                                    vec![vg, mir::rsub(t, i, 1), l],
                                    &inst,
                                ));
                            }
                        }
                    }
                }
                for o in &mut inst.ops {
                    if let Operand::Reg { reg, .. } = o {
                        if *reg == Reg::Virt(v) {
                            *reg = Reg::Virt(t);
                        }
                    }
                }
            }
            if !dropped {
                out.push(inst);
            }
            out.extend(after);
        }
        f.blocks[b].insts = out;
    }
}

fn lane_op(op: Opc, ops: Vec<Operand>, at: &Inst) -> Inst {
    Inst::new(op, ops, at.loc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::liveness::{self, Cfg};
    use crate::mir::{Class, File, PReg};
    use Opc::*;

    fn inst(op: Opc, ops: Vec<Operand>) -> Inst {
        Inst::new(op, ops, kc_dialect::Loc::UNKNOWN)
    }

    fn ops(f: &Func) -> Vec<Opc> {
        f.layout
            .iter()
            .flat_map(|&b| f.blocks[b].insts.iter().map(|i| i.op))
            .collect()
    }

    fn spill(f: &mut Func, victims: &[VReg]) -> Spiller {
        let cfg = Cfg::new(f);
        let live = liveness::live(f, &cfg, File::S);
        let mut sp = Spiller::default();
        let costs = Costs::new(f, &live, &sp.temps, &mir::p(PReg::S(0, 2)), None);
        sp.spill(f, victims, &costs);
        sp
    }

    /// A spilled register that an instruction reads and writes in place (`s_bitset0_b64`)
    /// is reloaded before it and stored again after it.
    #[test]
    fn spill_around_read_write() {
        let mut f = Func::default();
        let b = f.new_block();
        f.layout = vec![b];
        let m = f.new_vreg(Class::S64);
        let l = f.new_vreg(Class::S32);
        f.blocks[b].insts = vec![
            inst(S_MOV_B64, vec![mir::r(m), mir::p(PReg::Exec)]),
            inst(S_MOV_B32, vec![mir::r(l), Operand::Imm(3)]),
            inst(S_BITSET0_B64, vec![mir::r(m), mir::r(l)]),
            inst(S_CMP_LG_U64, vec![mir::r(m), Operand::Imm(0)]),
        ];
        let sp = spill(&mut f, &[m]);
        let w = V_WRITELANE_B32;
        let r = V_READLANE_B32;
        assert_eq!(
            ops(&f),
            [
                S_MOV_B64,
                w,
                w,
                S_MOV_B32,
                r,
                r,
                S_BITSET0_B64,
                w,
                w,
                r,
                r,
                S_CMP_LG_U64
            ]
        );
        assert_eq!(sp.count, 4);
        assert!(f.blocks[b]
            .insts
            .iter()
            .all(|i| !i.ops.contains(&mir::r(m))));
    }

    /// A kernel-argument load taken out of the SGPRs is re-emitted before each use and its
    /// definition deleted: no spill.
    #[test]
    fn kernarg_load_rematerialized() {
        let mut f = Func::default();
        let b = f.new_block();
        f.layout = vec![b];
        let a = f.new_vreg(Class::S32);
        let (x, y) = (f.new_vreg(Class::S32), f.new_vreg(Class::S32));
        let kernarg = mir::p(PReg::S(0, 2));
        f.blocks[b].insts = vec![
            inst(
                S_LOAD_DWORD,
                vec![mir::r(a), kernarg.clone(), Operand::Imm(8)],
            ),
            inst(S_ADD_I32, vec![mir::r(x), mir::r(a), Operand::Imm(1)]),
            inst(S_ADD_I32, vec![mir::r(y), mir::r(a), mir::r(x)]),
        ];
        let sp = spill(&mut f, &[a]);
        assert_eq!(ops(&f), [S_LOAD_DWORD, S_ADD_I32, S_LOAD_DWORD, S_ADD_I32]);
        assert_eq!(sp.count, 0);
        let loads: Vec<&Inst> = f.blocks[b].insts.iter().step_by(2).collect();
        assert_ne!(loads[0].ops[0], loads[1].ops[0]);
        assert!(loads
            .iter()
            .all(|l| l.ops[1] == kernarg && l.ops[2] == Operand::Imm(8)));
    }
}
