//! VCC as one more 64-bit SGPR for short-lived lane masks (issue #12): a compare result read
//! by `s_and_saveexec_b64` or `v_cndmask_b32` in the same block lives in VCC, which does not
//! count in `.amdhsa_next_free_sgpr`, and its `v_cmp` can take the short e32 form.
//!
//! Pre: a machine function over virtual registers, and its SGPR liveness.
//! Post ([`Vcc::new`]): the candidates, S64 registers that may live in VCC: referenced in one
//! block only, written there before any read (not live into it) and not live out of it,
//! every reference the whole register in a scalar operand slot (`SReg(2)`/`SSrc(2)`: VCC is
//! legal wherever an SGPR pair is) of an ALU instruction; and the positions VCC is busy
//! otherwise: from the first to the last reference of the physical VCC (`v_div_scale_f32`'s
//! VCC result, `v_div_fmas_f32`'s implicit read) in each block. A block that reads VCC before
//! writing it (VCC live across blocks) makes VCC unavailable in the whole function. The scan
//! places a candidate in VCC when VCC is free over its whole life, which keeps every VCC
//! value from its definition to its last read (no other write of VCC in between).
//! [`shrink`] then puts the VGPR operand of a `v_cmp` writing VCC in src1, reversing the
//! predicate, so that it prints in the e32 form (`v_cmp_gt_u32_e32 vcc, 32, v0`).
//! [`fold_constants`], between the SGPR and the VGPR scan, moves a constant a compare writing
//! VCC reads from a VGPR into its src0 (the e32 form takes a literal there).

use crate::isa::{Kind, Opc, Unit};
use crate::liveness::{Cfg, Live, Seg};
use crate::mir::{Func, Operand, PReg, Reg, VReg};
use cranelift_entity::SecondaryMap;

/// The number `assigned` holds for a register placed in VCC (its SGPR encoding, above the
/// SGPR budget: never a base the scan tries).
pub(super) const VCC_SGPR: u16 = 106;

pub(super) struct Vcc {
    pub candidate: SecondaryMap<VReg, bool>,
    /// Where the physical VCC is live.
    pub busy: Vec<Seg>,
}

impl Vcc {
    pub fn new(f: &Func, cfg: &Cfg, live: &Live) -> Option<Vcc> {
        // Per register: (block layout index, first access is a write, all accesses fit).
        let mut seen: SecondaryMap<VReg, Option<(u32, bool, bool)>> =
            SecondaryMap::with_capacity(f.vregs.len());
        let mut busy = Vec::new();
        for (bi, &b) in f.layout.iter().enumerate() {
            let start = cfg.start[bi];
            let mut span: Option<(u32, u32)> = None;
            for (k, inst) in f.blocks[b].insts.iter().enumerate() {
                let d = inst.op.desc();
                let alu = matches!(d.unit, Unit::Salu | Unit::Valu);
                let mut vcc_read = inst.op == Opc::V_DIV_FMAS_F32;
                let mut vcc_ref = vcc_read;
                for (j, o) in inst.ops.iter().enumerate() {
                    let Operand::Reg { reg, sub, n } = *o else {
                        continue;
                    };
                    let def = j < d.defs as usize;
                    match reg {
                        Reg::Phys(PReg::Vcc) => {
                            vcc_ref = true;
                            vcc_read |= !def;
                        }
                        Reg::Virt(v) if f.vregs[v] == crate::mir::Class::S64 => {
                            let ok = alu
                                && sub == 0
                                && (n == 0 || n == 2)
                                && matches!(d.operands.get(j), Some(Kind::SReg(2) | Kind::SSrc(2)));
                            let bi = bi as u32;
                            seen[v] = Some(match seen[v] {
                                None => (bi, def && !(j == 0 && d.reads_dst), ok),
                                Some((b0, w, all)) => (b0, w, all && ok && b0 == bi),
                            });
                        }
                        _ => {}
                    }
                }
                if vcc_ref {
                    if span.is_none() && vcc_read {
                        // VCC live into the block: not modelled, so not used.
                        return None;
                    }
                    let k = k as u32;
                    span = Some((span.map_or(k, |s| s.0), k));
                }
            }
            if let Some((a, z)) = span {
                busy.push((2 * (start + a), 2 * (start + z) + 1));
            }
        }
        let mut candidate = SecondaryMap::with_capacity(f.vregs.len());
        for (v, s) in seen.iter() {
            let Some((bi, first_write, all)) = *s else {
                continue;
            };
            let end =
                2 * (cfg.start[bi as usize] + f.blocks[f.layout[bi as usize]].insts.len() as u32);
            let segs = &live.segs[v];
            if first_write && all && !segs.is_empty() && segs.last().unwrap().1 < end {
                candidate[v] = true;
            }
        }
        Some(Vcc { candidate, busy })
    }
}

/// The compare with its operands swapped (`a < b` is `b > a`).
fn swapped(op: Opc) -> Option<Opc> {
    use Opc::*;
    Some(match op {
        V_CMP_EQ_U32 | V_CMP_NE_U32 | V_CMP_EQ_U64 | V_CMP_NE_U64 | V_CMP_EQ_F32 | V_CMP_LG_F32
        | V_CMP_O_F32 | V_CMP_U_F32 | V_CMP_NEQ_F32 | V_CMP_NLG_F32 => op,
        V_CMP_LT_I32 => V_CMP_GT_I32,
        V_CMP_GT_I32 => V_CMP_LT_I32,
        V_CMP_LE_I32 => V_CMP_GE_I32,
        V_CMP_GE_I32 => V_CMP_LE_I32,
        V_CMP_LT_U32 => V_CMP_GT_U32,
        V_CMP_GT_U32 => V_CMP_LT_U32,
        V_CMP_LE_U32 => V_CMP_GE_U32,
        V_CMP_GE_U32 => V_CMP_LE_U32,
        V_CMP_LT_I64 => V_CMP_GT_I64,
        V_CMP_GT_I64 => V_CMP_LT_I64,
        V_CMP_LE_I64 => V_CMP_GE_I64,
        V_CMP_GE_I64 => V_CMP_LE_I64,
        V_CMP_LT_U64 => V_CMP_GT_U64,
        V_CMP_GT_U64 => V_CMP_LT_U64,
        V_CMP_LE_U64 => V_CMP_GE_U64,
        V_CMP_GE_U64 => V_CMP_LE_U64,
        V_CMP_LT_F32 => V_CMP_GT_F32,
        V_CMP_GT_F32 => V_CMP_LT_F32,
        V_CMP_LE_F32 => V_CMP_GE_F32,
        V_CMP_GE_F32 => V_CMP_LE_F32,
        V_CMP_NGE_F32 => V_CMP_NLE_F32,
        V_CMP_NLE_F32 => V_CMP_NGE_F32,
        V_CMP_NGT_F32 => V_CMP_NLT_F32,
        V_CMP_NLT_F32 => V_CMP_NGT_F32,
        _ => return None,
    })
}

fn is_vgpr(o: &Operand) -> bool {
    matches!(o.reg(), Some(Reg::Phys(PReg::V(..))))
}

/// Over allocated MIR: a `v_cmp` writing VCC whose src1 is not a VGPR but src0 is gets its
/// operands swapped and the reversed predicate, so that it has the e32 form.
pub(super) fn shrink(f: &mut Func) {
    for &b in &f.layout {
        for inst in &mut f.blocks[b].insts {
            if inst.ops.len() != 3 || inst.ops[0] != crate::mir::p(PReg::Vcc) {
                continue;
            }
            if let Some(rev) = swapped(inst.op) {
                if !is_vgpr(&inst.ops[2]) && is_vgpr(&inst.ops[1]) {
                    inst.op = rev;
                    inst.ops.swap(1, 2);
                }
            }
        }
    }
}

/// After the SGPRs are placed, before the VGPRs are: a 32-bit compare whose result got VCC
/// and that reads a VGPR defined once, by `v_mov_b32 %t, c` (a constant), reads `c` itself
/// in src0 instead, its other operand a VGPR in src1 (swapped, predicate reversed, when
/// needed): the e32 form takes a literal there (`v_cmp_ge_u32_e32 vcc, 0x55555555, v1`).
/// The move goes when nothing else reads `%t`: one instruction and one VGPR fewer.
pub(super) fn fold_constants(f: &mut Func, sgprs: &SecondaryMap<VReg, Option<u16>>) {
    let defs = super::single_defs(f);
    let mut reads: SecondaryMap<VReg, u32> = SecondaryMap::with_capacity(f.vregs.len());
    for &b in &f.layout {
        for inst in &f.blocks[b].insts {
            for o in &inst.ops[inst.op.desc().defs as usize..] {
                if let Some(Reg::Virt(v)) = o.reg() {
                    reads[v] += 1;
                }
            }
        }
    }
    let constant = |f: &Func, o: &Operand| -> Option<(VReg, i64)> {
        let Operand::Reg {
            reg: Reg::Virt(t),
            sub: 0,
            n: 0 | 1,
        } = *o
        else {
            return None;
        };
        let (b, i) = defs.single[t]?;
        let def = &f.blocks[b].insts[i as usize];
        match (def.op, &def.ops[1]) {
            (Opc::V_MOV_B32, Operand::Imm(c))
                if f.vregs[t] == crate::mir::Class::V32 && def.dpp.is_none() =>
            {
                Some((t, *c))
            }
            _ => None,
        }
    };
    let vgpr = |f: &Func, o: &Operand| match o.reg() {
        Some(Reg::Virt(v)) => f.vregs[v].file == crate::mir::File::V,
        Some(Reg::Phys(PReg::V(..))) => true,
        _ => false,
    };
    let mut dead = Vec::new();
    for bi in 0..f.layout.len() {
        let b = f.layout[bi];
        for k in 0..f.blocks[b].insts.len() {
            let inst = &f.blocks[b].insts[k];
            let d = inst.op.desc();
            let in_vcc = matches!(inst.ops.first().and_then(|o| o.reg()),
                Some(Reg::Virt(m)) if sgprs[m] == Some(VCC_SGPR));
            let Some(rev) = swapped(inst.op) else {
                continue;
            };
            if !in_vcc || inst.ops.len() != 3 || d.operands[1] != Kind::VSrc(1) {
                continue;
            }
            let Some((j, t, c)) = [(1, 2), (2, 1)].into_iter().find_map(|(j, other)| {
                let (t, c) = constant(f, &inst.ops[j])?;
                let ok = vgpr(f, &inst.ops[other]) && (-(1 << 31)..1 << 32).contains(&c);
                ok.then_some((j, t, c))
            }) else {
                continue;
            };
            let inst = &mut f.blocks[b].insts[k];
            inst.ops[j] = Operand::Imm(c);
            if j == 2 {
                inst.op = rev;
                inst.ops.swap(1, 2);
            }
            reads[t] -= 1;
            if reads[t] == 0 {
                dead.push(defs.single[t].expect("a single definition"));
            }
        }
    }
    dead.sort_unstable();
    for &(b, i) in dead.iter().rev() {
        f.blocks[b].insts.remove(i as usize);
    }
}
