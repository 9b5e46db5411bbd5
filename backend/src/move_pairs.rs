//! Dword moves into 64-bit moves: two adjacent `v_mov_b32` that fill an even-aligned VGPR
//! pair from an even-aligned SGPR or VGPR pair, or from two halves of a 64-bit inline
//! constant, become one `v_mov_b64_e32` (gfx940+); two adjacent `s_mov_b32` that do the same
//! for an SGPR pair become one `s_mov_b64`. Isel moves 64-bit values a dword at a time
//! (their halves are separate operands); LLVM selects `v_mov_b64` for the same copies.
//!
//! Pre: allocated MIR (physical registers: only then are pairs and their alignment known).
//! Post: the same values in the same registers under the same EXEC; two moves are combined
//! only when they are adjacent in a block, write the two halves of an aligned pair, and the
//! first does not write what the second reads (the combined move reads both sources before
//! writing). Linear in the instructions.

use crate::isa::{is_inline_int, Opc};
use crate::mir::{Func, Inst, Operand, PReg, Reg};

/// A single-dword physical register operand: (is a VGPR, index).
fn dword(o: &Operand) -> Option<(bool, u16)> {
    match o {
        Operand::Reg {
            reg: Reg::Phys(PReg::S(i, 1)),
            sub: 0,
            n: 0 | 1,
        } => Some((false, *i)),
        Operand::Reg {
            reg: Reg::Phys(PReg::V(i, 1)),
            sub: 0,
            n: 0 | 1,
        } => Some((true, *i)),
        _ => None,
    }
}

fn pair(vgpr: bool, first: u16) -> Operand {
    crate::mir::p(if vgpr {
        PReg::V(first, 2)
    } else {
        PReg::S(first, 2)
    })
}

/// The 64-bit source that writes `lo` to the low and `hi` to the high dword, if one operand
/// can: an aligned register pair or an inline constant.
fn pair_source(lo: &Operand, hi: &Operand) -> Option<Operand> {
    if let (Some((lv, l)), Some((hv, h))) = (dword(lo), dword(hi)) {
        return (lv == hv && l % 2 == 0 && h == l + 1).then(|| pair(lv, l));
    }
    if let (Operand::Imm(l), Operand::Imm(h)) = (lo, hi) {
        let value = ((*h as u64) << 32 | (*l as u64 & 0xffff_ffff)) as i64;
        return is_inline_int(value).then_some(Operand::Imm(value));
    }
    None
}

/// `a` then `b` as one move, if they combine.
fn combine(a: &Inst, b: &Inst) -> Option<Inst> {
    if a.dpp.is_some() || b.dpp.is_some() {
        return None; // a DPP move reads another lane: not a copy
    }
    let (wide, vgpr) = match (a.op, b.op) {
        (Opc::V_MOV_B32, Opc::V_MOV_B32) => (Opc::V_MOV_B64, true),
        (Opc::S_MOV_B32, Opc::S_MOV_B32) => (Opc::S_MOV_B64, false),
        _ => return None,
    };
    let (Some((av, ad)), Some((bv, bd))) = (dword(&a.ops[0]), dword(&b.ops[0])) else {
        return None;
    };
    if av != vgpr || bv != vgpr || ad / 2 != bd / 2 || ad == bd {
        return None;
    }
    // `b` must not read what `a` writes (it would see the new value).
    if dword(&b.ops[1]) == Some((vgpr, ad)) {
        return None;
    }
    let (lo, hi) = if ad % 2 == 0 { (a, b) } else { (b, a) };
    let src = pair_source(&lo.ops[1], &hi.ops[1])?;
    let mut inst = Inst::new(wide, vec![pair(vgpr, ad & !1), src], a.loc);
    inst.comment = a.comment.clone().or_else(|| b.comment.clone());
    Some(inst)
}

/// Combines the dword moves of every block of `f`.
pub fn combine_moves(f: &mut Func) {
    for block in f.blocks.values_mut() {
        let insts = std::mem::take(&mut block.insts);
        let mut out: Vec<Inst> = Vec::with_capacity(insts.len());
        for inst in insts {
            if let Some(prev) = out.last() {
                if let Some(both) = combine(prev, &inst) {
                    *out.last_mut().expect("a previous move") = both;
                    continue;
                }
            }
            out.push(inst);
        }
        block.insts = out;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mir::{Func, Inst};
    use kc_dialect::Loc;

    fn mov(op: Opc, d: PReg, src: Operand) -> Inst {
        Inst::new(op, vec![crate::mir::p(d), src], Loc::UNKNOWN)
    }

    fn run(insts: Vec<Inst>) -> Vec<Inst> {
        let mut f = Func::default();
        let b = f.new_block();
        f.layout.push(b);
        f.blocks[b].insts = insts;
        combine_moves(&mut f);
        f.blocks[b].insts.clone()
    }

    #[test]
    fn sgpr_pair_to_vgpr_pair() {
        let out = run(vec![
            mov(Opc::V_MOV_B32, PReg::V(2, 1), crate::mir::p(PReg::S(4, 1))),
            mov(Opc::V_MOV_B32, PReg::V(3, 1), crate::mir::p(PReg::S(5, 1))),
        ]);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].op, Opc::V_MOV_B64);
        assert_eq!(out[0].ops[1], crate::mir::p(PReg::S(4, 2)));
    }

    #[test]
    fn misaligned_or_overlapping_moves_stay() {
        // Odd source pair.
        let out = run(vec![
            mov(Opc::V_MOV_B32, PReg::V(2, 1), crate::mir::p(PReg::S(5, 1))),
            mov(Opc::V_MOV_B32, PReg::V(3, 1), crate::mir::p(PReg::S(6, 1))),
        ]);
        assert_eq!(out.len(), 2);
        // The second reads what the first wrote.
        let out = run(vec![
            mov(Opc::V_MOV_B32, PReg::V(3, 1), crate::mir::p(PReg::V(4, 1))),
            mov(Opc::V_MOV_B32, PReg::V(2, 1), crate::mir::p(PReg::V(3, 1))),
        ]);
        assert_eq!(out.len(), 2);
        // Odd destination pair.
        let out = run(vec![
            mov(Opc::S_MOV_B32, PReg::S(3, 1), Operand::Imm(0)),
            mov(Opc::S_MOV_B32, PReg::S(4, 1), Operand::Imm(0)),
        ]);
        assert_eq!(out.len(), 2);
    }

    #[test]
    fn inline_constants_combine_only_when_the_64_bit_value_is_inline() {
        let out = run(vec![
            mov(Opc::S_MOV_B32, PReg::S(5, 1), Operand::Imm(0)),
            mov(Opc::S_MOV_B32, PReg::S(4, 1), Operand::Imm(7)),
        ]);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].ops[1], Operand::Imm(7));
        let out = run(vec![
            mov(Opc::V_MOV_B32, PReg::V(0, 1), Operand::Imm(-1)),
            mov(Opc::V_MOV_B32, PReg::V(1, 1), Operand::Imm(-1)),
        ]);
        assert_eq!(out[0].ops[1], Operand::Imm(-1));
        // -1 low, 0 high is 0xffffffff: not inline.
        let out = run(vec![
            mov(Opc::V_MOV_B32, PReg::V(0, 1), Operand::Imm(-1)),
            mov(Opc::V_MOV_B32, PReg::V(1, 1), Operand::Imm(0)),
        ]);
        assert_eq!(out.len(), 2);
    }
}
