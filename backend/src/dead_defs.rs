//! Dead definitions: instructions whose only effect is to write virtual registers nobody
//! reads are removed, after instruction selection.
//!
//! Pre: a machine function over virtual registers (`isel`).
//! Post: the same behaviour, without the scalar moves and selects (`s_mov`, `s_cselect`) and
//! the vector-ALU instructions with one definition whose destinations are never read;
//! removing one can make its sources dead in turn (a worklist follows them). Only those
//! qualify: they write nothing else (no SCC, no EXEC, no carry-out, no memory; a VALU
//! instruction's carry or compare mask is an explicit second definition, and those with
//! two are kept), and do not read their destination, so nothing else can observe them.
//! An EXEC restore (`s_or_b64 exec, exec, s`) right before `s_endpgm` is removed first
//! (`branch_folding::remove_restores_before_end`; no lane runs anything after it), so the
//! saved mask it read is dead from its definition on and holds no register until the end.
//! Linear: read counts per register, one worklist entry per removed instruction.

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

fn virt(o: &Operand) -> Option<VReg> {
    match o {
        Operand::Reg {
            reg: Reg::Virt(v), ..
        } => Some(*v),
        _ => None,
    }
}

/// Removes dead definitions; returns how many instructions went.
pub fn remove_dead_defs(f: &mut Func) -> usize {
    crate::branch_folding::remove_restores_before_end(f);
    let mut reads: SecondaryMap<VReg, u32> = SecondaryMap::new();
    // Removable instructions defining each register.
    let mut defs: SecondaryMap<VReg, Vec<(MBlock, u32)>> = SecondaryMap::new();
    for &b in &f.layout {
        for (i, inst) in f.blocks[b].insts.iter().enumerate() {
            let nd = inst.op.desc().defs as usize;
            for o in &inst.ops[nd..] {
                if let Some(v) = virt(o) {
                    reads[v] += 1;
                }
            }
            if removable(inst.op) && nd == 1 {
                if let Some(v) = virt(&inst.ops[0]) {
                    defs[v].push((b, i as u32));
                }
            }
        }
    }
    let mut dead: SecondaryMap<MBlock, Vec<bool>> = SecondaryMap::new();
    for &b in &f.layout {
        dead[b] = vec![false; f.blocks[b].insts.len()];
    }
    let mut work: Vec<VReg> = defs
        .keys()
        .filter(|&v| reads[v] == 0 && !defs[v].is_empty())
        .collect();
    let mut removed = 0;
    while let Some(v) = work.pop() {
        for (b, i) in std::mem::take(&mut defs[v]) {
            if dead[b][i as usize] {
                continue;
            }
            dead[b][i as usize] = true;
            removed += 1;
            let inst = &f.blocks[b].insts[i as usize];
            for o in &inst.ops[1..] {
                if let Some(s) = virt(o) {
                    reads[s] -= 1;
                    if reads[s] == 0 && !defs[s].is_empty() {
                        work.push(s);
                    }
                }
            }
        }
    }
    if removed > 0 {
        for &b in &f.layout {
            let mut k = 0;
            let flags = &dead[b];
            f.blocks[b].insts.retain(|_| {
                k += 1;
                !flags[k - 1]
            });
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mir::{self, Class, Inst};
    use kc_dialect::Loc;

    /// A chain `a = 1; b = a; c = select(b, ...)` nobody reads goes whole; a register read by
    /// a store stays, and so does an instruction that writes SCC.
    #[test]
    fn dead_chains_go_live_ones_stay() {
        let mut f = Func::default();
        let b = f.new_block();
        f.layout.push(b);
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
            i(Opc::S_ENDPGM, vec![]),
        ];
        // `live` is unread but s_add writes SCC: kept, and it keeps `a`.
        assert_eq!(remove_dead_defs(&mut f), 2);
        let ops: Vec<Opc> = f.blocks[b].insts.iter().map(|i| i.op).collect();
        assert_eq!(ops, [Opc::S_MOV_B32, Opc::S_ADD_I32, Opc::S_ENDPGM]);
    }
}
