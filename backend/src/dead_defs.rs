//! Dead definitions: instructions whose only effect is to write virtual registers nobody
//! reads are removed, after instruction selection.
//!
//! Pre: a machine function over virtual registers (`isel`).
//! Post: the same behaviour, without the instructions whose only effect is to define a
//! virtual register no needed instruction reads: scalar moves and selects (`s_mov`,
//! `s_cselect`), vector-ALU instructions with one definition, and scalar-ALU instructions with
//! one definition whose SCC is overwritten (or the program ends) before anything in their
//! block reads it. They write nothing else (no EXEC, no carry-out, no memory; a VALU
//! instruction's carry or compare mask is an explicit second definition, and those with two
//! are kept), and do not read their destination, so nothing else can observe them. Liveness
//! is marked from the instructions that must stay, so a register only its own definitions
//! read (a loop-carried lane mask nothing reads after the loop) goes too.
//! An EXEC restore (`s_or_b64 exec, exec, s`) right before `s_endpgm` is removed first
//! (`branch_folding::remove_restores_before_end`; no lane runs anything after it), so the
//! saved mask it read is dead from its definition on and holds no register until the end.
//! Linear: one pass to find the roots and the definitions, each register marked once, and
//! the SCC scans stop at the next SCC write of the block.

use crate::isa::{Opc, Unit};
use crate::mir::{Func, MBlock, Operand, Reg, VReg};
use cranelift_entity::SecondaryMap;

fn removable(op: Opc) -> bool {
    let d = op.desc();
    let pure_valu = d.unit == Unit::Valu
        && d.defs == 1
        && !d.reads_dst
        && !d.implicit.writes_exec
        && !d.implicit.writes_scc;
    pure_valu
        || matches!(
            op,
            Opc::S_MOV_B32 | Opc::S_MOV_B64 | Opc::S_CSELECT_B32 | Opc::S_CSELECT_B64
        )
}

/// A scalar ALU instruction whose only effects are its one definition and SCC: removable
/// when SCC is dead after it ([`scc_dead_after`]).
fn removable_if_scc_dead(op: Opc) -> bool {
    let d = op.desc();
    d.unit == Unit::Salu
        && d.defs == 1
        && !d.reads_dst
        && d.implicit.writes_scc
        && !d.implicit.writes_exec
        && !d.is_branch()
}

/// Whether SCC as instruction `k` of `insts` leaves it is never read: an instruction after it
/// in the block writes SCC (or ends the program) before any reads it. At the block's end SCC
/// is taken as live (no liveness across blocks).
fn scc_dead_after(insts: &[crate::mir::Inst], k: usize) -> bool {
    for inst in &insts[k + 1..] {
        let d = inst.op.desc();
        if d.implicit.reads_scc {
            return false;
        }
        if d.implicit.writes_scc || inst.op == Opc::S_ENDPGM {
            return true;
        }
    }
    false
}

fn virt(o: &Operand) -> Option<VReg> {
    match o {
        Operand::Reg {
            reg: Reg::Virt(v), ..
        } => Some(*v),
        _ => None,
    }
}

/// Removes dead definitions; returns how many instructions went.
///
/// Mark and sweep: an instruction that is not removable is needed, and so is a removable one
/// defining a register a needed instruction reads; the rest goes. A register read only by its
/// own removable definitions (a loop-carried lane mask nobody reads after the loop) is dead.
pub fn remove_dead_defs(f: &mut Func) -> usize {
    crate::branch_folding::remove_restores_before_end(f);
    // Removable instructions defining each register.
    let mut defs: SecondaryMap<VReg, Vec<(MBlock, u32)>> =
        SecondaryMap::with_capacity(f.vregs.len());
    let mut needed: SecondaryMap<MBlock, Vec<bool>> = SecondaryMap::with_capacity(f.blocks.len());
    let mut live: SecondaryMap<VReg, bool> = SecondaryMap::with_capacity(f.vregs.len());
    let mut work: Vec<VReg> = Vec::new();
    let mark = |v: VReg, live: &mut SecondaryMap<VReg, bool>, work: &mut Vec<VReg>| {
        if !live[v] {
            live[v] = true;
            work.push(v);
        }
    };
    for &b in &f.layout {
        let insts = &f.blocks[b].insts;
        let mut flags = Vec::with_capacity(insts.len());
        for (i, inst) in insts.iter().enumerate() {
            let nd = inst.op.desc().defs as usize;
            let may_go = nd == 1
                && (removable(inst.op)
                    || (removable_if_scc_dead(inst.op) && scc_dead_after(insts, i)));
            let def = may_go.then(|| virt(&inst.ops[0])).flatten();
            match def {
                Some(v) => {
                    defs[v].push((b, i as u32));
                    flags.push(false);
                }
                None => {
                    flags.push(true);
                    for o in &inst.ops[nd..] {
                        if let Some(s) = virt(o) {
                            mark(s, &mut live, &mut work);
                        }
                    }
                }
            }
        }
        needed[b] = flags;
    }
    while let Some(v) = work.pop() {
        for (b, i) in std::mem::take(&mut defs[v]) {
            if needed[b][i as usize] {
                continue;
            }
            needed[b][i as usize] = true;
            let inst = &f.blocks[b].insts[i as usize];
            for o in &inst.ops[1..] {
                if let Some(s) = virt(o) {
                    mark(s, &mut live, &mut work);
                }
            }
        }
    }
    let mut removed = 0;
    for &b in &f.layout {
        let flags = &needed[b];
        removed += flags.iter().filter(|&&n| !n).count();
        if flags.iter().all(|&n| n) {
            continue;
        }
        let mut k = 0;
        f.blocks[b].insts.retain(|_| {
            k += 1;
            flags[k - 1]
        });
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mir::{self, Class, Inst};
    use kc_dialect::Loc;

    /// A chain `a = 1; b = a; c = select(b, ...)` nobody reads goes whole; an instruction
    /// whose SCC a branch reads stays, and keeps what it reads.
    #[test]
    fn dead_chains_go_live_ones_stay() {
        let mut f = Func::default();
        let b = f.new_block();
        let exit = f.new_block();
        f.layout.push(b);
        f.layout.push(exit);
        let (a, c, d, live) = (
            f.new_vreg(Class::S32),
            f.new_vreg(Class::S32),
            f.new_vreg(Class::S32),
            f.new_vreg(Class::S32),
        );
        let i = |op, ops| Inst::new(op, ops, Loc::UNKNOWN);
        f.blocks[b].insts = vec![
            i(Opc::S_MOV_B32, vec![mir::r(a), Operand::Imm(1)]),
            i(Opc::S_MOV_B32, vec![mir::r(c), mir::r(a)]),
            i(
                Opc::S_CSELECT_B32,
                vec![mir::r(d), mir::r(c), Operand::Imm(0)],
            ),
            i(
                Opc::S_ADD_I32,
                vec![mir::r(live), mir::r(a), Operand::Imm(2)],
            ),
            i(Opc::S_CBRANCH_SCC1, vec![Operand::Label(exit)]),
        ];
        f.blocks[exit].insts = vec![i(Opc::S_ENDPGM, vec![])];
        // `live` is unread but a branch reads s_add's SCC: kept, and it keeps `a`.
        assert_eq!(remove_dead_defs(&mut f), 2);
        let ops: Vec<Opc> = f.blocks[b].insts.iter().map(|i| i.op).collect();
        assert_eq!(ops, [Opc::S_MOV_B32, Opc::S_ADD_I32, Opc::S_CBRANCH_SCC1]);
    }

    /// A loop-carried lane mask that only its own definitions read goes (its `s_or_b64`'s SCC
    /// is overwritten right after), and so does an `s_add` whose SCC the program's end kills.
    #[test]
    fn dead_cycles_and_dead_scc_go() {
        let mut f = Func::default();
        let b = f.new_block();
        f.layout.push(b);
        let (mask, sum, x) = (
            f.new_vreg(Class::S64),
            f.new_vreg(Class::S32),
            f.new_vreg(Class::S32),
        );
        let i = |op, ops| Inst::new(op, ops, Loc::UNKNOWN);
        let vcc = mir::p(crate::mir::PReg::Vcc);
        let exec = mir::p(crate::mir::PReg::Exec);
        f.blocks[b].insts = vec![
            i(Opc::S_MOV_B64, vec![mir::r(mask), Operand::Imm(0)]),
            i(Opc::S_MOV_B32, vec![mir::r(x), Operand::Imm(5)]),
            i(Opc::S_OR_B64, vec![mir::r(mask), mir::r(mask), vcc.clone()]),
            i(Opc::S_ANDN2_B64, vec![exec.clone(), exec, vcc]),
            i(
                Opc::S_ADD_I32,
                vec![mir::r(sum), mir::r(x), Operand::Imm(2)],
            ),
            i(Opc::S_ENDPGM, vec![]),
        ];
        assert_eq!(remove_dead_defs(&mut f), 4);
        let ops: Vec<Opc> = f.blocks[b].insts.iter().map(|i| i.op).collect();
        assert_eq!(ops, [Opc::S_ANDN2_B64, Opc::S_ENDPGM]);
    }
}
