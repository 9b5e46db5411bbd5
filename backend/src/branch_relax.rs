//! Branch relaxation: long branches for targets out of `s_branch` / `s_cbranch_*` range.
//!
//! Pre: an allocated machine function in its final layout (after waitcnt and hazard padding:
//! nothing changes code size afterwards) and its register usage.
//! Post: every branch reaches its target. A SOPP branch encodes its offset in dwords as a
//! signed 16-bit value (±128 KiB); a branch whose target may lie farther becomes, as LLVM's
//! `SIInstrInfo::insertIndirectBranch` does,
//!
//! ```text
//!     s_cbranch_<inverse> .Lskip          ; conditional branches only
//!     s_getpc_b64 s[p:p+1]                ; the address of the next instruction
//! .Lpost:
//!     s_add_u32 s[p], s[p], (.Ltarget-.Lpost)&4294967295
//!     s_addc_u32 s[p+1], s[p+1], (.Ltarget-.Lpost)>>32
//!     s_setpc_b64 s[p:p+1]
//! .Lskip:
//! ```
//!
//! with `s[p:p+1]` a pair above every register the allocator used (the usage grows by it).
//! The sequence writes SCC, which kc never keeps live across a branch. With no pair left
//! under the SGPR budget the kernel is rejected with a message, not miscompiled.
//!
//! Sizes are upper bounds per encoding (4 or 8 bytes, 4 more for a literal), and every branch
//! counts as its long form while deciding, so a branch found in range stays in range whatever
//! else grows: one linear pass, no fixed-point iteration.

use crate::isa::SGPR_BUDGET;
use crate::isa::{is_inline_int, Fmt, Kind, Opc};
use crate::mir::Usage;
use crate::mir::{Func, Inst, MBlock, Operand, PReg};
use cranelift_entity::SecondaryMap;

/// Bytes of a SOPP branch.
const SHORT: u64 = 4;
/// Bytes of the long form: the inverted branch, `s_getpc_b64`, `s_add_u32` and `s_addc_u32`
/// with their literals, `s_setpc_b64`.
const LONG: u64 = 4 + 4 + 8 + 8 + 4;
/// The farthest a SOPP branch reaches, in dwords from the instruction after it.
const REACH: i64 = i16::MAX as i64;

/// A branch that needs the long form but has no SGPR pair for it.
#[derive(Debug)]
pub struct RelaxError(pub String);

/// An upper bound of the encoded size of `i` in bytes.
fn max_size(i: &Inst) -> u64 {
    let d = i.op.desc();
    if d.is_branch() && matches!(i.ops.first(), Some(Operand::Label(_))) {
        return LONG;
    }
    let base = match d.fmt {
        // A compare is e64 unless it writes VCC with a VGPR src1 (8 bytes at most).
        Fmt::Vop3 | Fmt::Vopc | Fmt::Smem | Fmt::Ds | Fmt::Global | Fmt::Scratch => 8,
        // The DPP word follows a VOP1/VOP2 word.
        Fmt::Vop1 | Fmt::Vop2 if i.dpp.is_some() => 8,
        Fmt::Sop1 | Fmt::Sop2 | Fmt::Sopc | Fmt::Sopp | Fmt::Sopk | Fmt::Vop1 | Fmt::Vop2 => 4,
        Fmt::Pseudo => 4,
    };
    let literal = i.ops.iter().enumerate().any(|(k, o)| match o {
        Operand::Imm(c) => {
            matches!(d.operands.get(k), Some(Kind::SSrc(_) | Kind::VSrc(_))) && !is_inline_int(*c)
        }
        Operand::LabelDiff { .. } => true,
        _ => false,
    });
    base + if literal { 4 } else { 0 }
}

/// The branch with the opposite condition, for conditional branches.
fn inverse(op: Opc) -> Option<Opc> {
    Some(match op {
        Opc::S_CBRANCH_SCC0 => Opc::S_CBRANCH_SCC1,
        Opc::S_CBRANCH_SCC1 => Opc::S_CBRANCH_SCC0,
        Opc::S_CBRANCH_EXECZ => Opc::S_CBRANCH_EXECNZ,
        Opc::S_CBRANCH_EXECNZ => Opc::S_CBRANCH_EXECZ,
        _ => return None,
    })
}

/// Rewrites every branch that may not reach its target into the long form (see the module
/// docs); `usage` grows by the SGPR pair the long form needs, if any.
pub fn relax(f: &mut Func, usage: &mut Usage) -> Result<(), RelaxError> {
    // Upper bounds of every block's start and every branch's position.
    let mut start: SecondaryMap<MBlock, u64> = SecondaryMap::new();
    let mut at = 0u64;
    for &b in &f.layout {
        start[b] = at;
        at += f.blocks[b].insts.iter().map(max_size).sum::<u64>();
    }
    // Branches to relax: (block, instruction index).
    let mut far: Vec<(MBlock, usize)> = Vec::new();
    for &b in &f.layout {
        let mut pos = start[b];
        for (k, i) in f.blocks[b].insts.iter().enumerate() {
            if let (Opc::S_CBRANCH_I_FORK, Some(t)) = (i.op, i.target()) {
                let dwords = (start[t] as i64 - (pos + SHORT) as i64) / 4;
                if dwords.unsigned_abs() > REACH as u64 {
                    return Err(RelaxError(format!(
                        "kernel `{}` has a fork whose target is beyond the 16-bit branch range \
                         (kc relaxes no fork; --divergence=exec-mask compiles it)",
                        f.name
                    )));
                }
            }
            if let (true, Some(Operand::Label(t))) = (i.op.desc().is_branch(), i.ops.first()) {
                // An upper bound of the distance either way: every size counted is one.
                let dwords = (start[*t] as i64 - (pos + SHORT) as i64) / 4;
                if dwords.unsigned_abs() > REACH as u64 {
                    far.push((b, k));
                }
            }
            pos += max_size(i);
        }
    }
    if far.is_empty() {
        return Ok(());
    }
    let pair = usage.sgprs.next_multiple_of(2);
    if pair + 2 > SGPR_BUDGET {
        return Err(RelaxError(format!(
            "kernel `{}` has a branch longer than 128 KiB, and the long branch needs an SGPR \
             pair above the {} in use (the budget is {SGPR_BUDGET})",
            f.name, usage.sgprs
        )));
    }
    usage.sgprs = pair + 2;
    let lo = Operand::Reg {
        reg: crate::mir::Reg::Phys(PReg::S(pair, 1)),
        sub: 0,
        n: 0,
    };
    let hi = Operand::Reg {
        reg: crate::mir::Reg::Phys(PReg::S(pair + 1, 1)),
        sub: 0,
        n: 0,
    };
    let both = Operand::Reg {
        reg: crate::mir::Reg::Phys(PReg::S(pair, 2)),
        sub: 0,
        n: 0,
    };
    // Rebuild the layout once: a relaxed branch ends its block; the rest of the sequence
    // starts a new block (its label is the anchor of the offset), and what followed the
    // branch another one (the inverted branch's target).
    let mut is_far: SecondaryMap<MBlock, Vec<usize>> = SecondaryMap::new();
    for &(b, k) in &far {
        is_far[b].push(k);
    }
    let old = std::mem::take(&mut f.layout);
    let mut layout = Vec::with_capacity(old.len() + 3 * far.len());
    for b in old {
        if is_far[b].is_empty() {
            layout.push(b);
            continue;
        }
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let mut cur = b;
        layout.push(cur);
        for (k, i) in insts.into_iter().enumerate() {
            if !is_far[b].contains(&k) {
                f.blocks[cur].insts.push(i);
                continue;
            }
            let Some(Operand::Label(target)) = i.ops.first().cloned() else {
                unreachable!("only branches to labels are relaxed")
            };
            let post = f.new_block();
            let skip = f.new_block();
            if let Some(inv) = inverse(i.op) {
                f.blocks[cur]
                    .insts
                    .push(Inst::new(inv, vec![Operand::Label(skip)], i.loc));
            }
            let mut getpc = Inst::new(Opc::S_GETPC_B64, vec![both.clone()], i.loc);
            getpc.comment = Some(format!("long branch ({})", i.op.name()));
            f.blocks[cur].insts.push(getpc);
            let diff = |hi| Operand::LabelDiff {
                to: target,
                from: post,
                hi,
            };
            f.blocks[post].insts = vec![
                Inst::new(
                    Opc::S_ADD_U32,
                    vec![lo.clone(), lo.clone(), diff(false)],
                    i.loc,
                ),
                Inst::new(
                    Opc::S_ADDC_U32,
                    vec![hi.clone(), hi.clone(), diff(true)],
                    i.loc,
                ),
                Inst::new(Opc::S_SETPC_B64, vec![both.clone()], i.loc),
            ];
            layout.push(post);
            layout.push(skip);
            cur = skip;
        }
    }
    f.layout = layout;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mir::BlockData;
    use kc_dialect::Loc;

    fn nops(n: usize) -> Vec<Inst> {
        (0..n)
            .map(|_| Inst::new(Opc::S_NOP, vec![Operand::Imm(0)], Loc::UNKNOWN))
            .collect()
    }

    /// A function: `s_cbranch_scc0` to the last block over `gap` nops, and a backward
    /// `s_branch` to the first.
    fn func(gap: usize) -> Func {
        let mut f = Func::default();
        let (a, mid, end) = (f.new_block(), f.new_block(), f.new_block());
        f.blocks[a] = BlockData {
            insts: vec![Inst::new(
                Opc::S_CBRANCH_SCC0,
                vec![Operand::Label(end)],
                Loc::UNKNOWN,
            )],
            ..Default::default()
        };
        f.blocks[mid].insts = nops(gap);
        f.blocks[end].insts = vec![
            Inst::new(Opc::S_BRANCH, vec![Operand::Label(a)], Loc::UNKNOWN),
            Inst::new(Opc::S_ENDPGM, vec![], Loc::UNKNOWN),
        ];
        f.layout = vec![a, mid, end];
        f
    }

    fn ops(f: &Func) -> Vec<Opc> {
        f.layout
            .iter()
            .flat_map(|&b| f.blocks[b].insts.iter().map(|i| i.op))
            .collect()
    }

    /// Scratch and DPP instructions are 8 bytes (llvm-mc-22 -show-encoding:
    /// `scratch_store_dword off, v1, off offset:4`, `v_add_u32_dpp v1, v1, v1 row_shr:1`).
    #[test]
    fn scratch_and_dpp_sizes() {
        use crate::mir::PReg;
        let v = |r| crate::mir::p(PReg::V(r, 1));
        let mut st = Inst::new(
            Opc::SCRATCH_STORE_DWORD,
            vec![Operand::Off, v(1), Operand::Off],
            Loc::UNKNOWN,
        );
        st.offset = 4;
        assert_eq!(max_size(&st), 8);
        let mut dpp = Inst::new(Opc::V_ADD_U32, vec![v(1), v(1), v(1)], Loc::UNKNOWN);
        assert_eq!(max_size(&dpp), 4);
        dpp.dpp = Some(crate::dpp::Dpp::new(crate::dpp::DppCtrl::RowShr(1)));
        assert_eq!(max_size(&dpp), 8);
    }

    #[test]
    fn near_branches_stay() {
        let mut f = func(1000);
        let mut usage = Usage {
            sgprs: 7,
            vgprs: 1,
            sgpr_spills: 0,
            ..Usage::default()
        };
        relax(&mut f, &mut usage).unwrap();
        assert_eq!(
            ops(&f).iter().filter(|&&o| o == Opc::S_GETPC_B64).count(),
            0
        );
        assert_eq!(usage.sgprs, 7);
    }

    #[test]
    fn far_branches_take_the_long_form_both_ways() {
        let mut f = func(40_000);
        let mut usage = Usage {
            sgprs: 7,
            vgprs: 1,
            sgpr_spills: 0,
            ..Usage::default()
        };
        relax(&mut f, &mut usage).unwrap();
        let o = ops(&f);
        // The conditional one: the inverse skips the long jump.
        assert_eq!(
            &o[..5],
            &[
                Opc::S_CBRANCH_SCC1,
                Opc::S_GETPC_B64,
                Opc::S_ADD_U32,
                Opc::S_ADDC_U32,
                Opc::S_SETPC_B64
            ]
        );
        // The backward one too (no inverse), before the `s_endpgm`.
        assert_eq!(
            &o[o.len() - 5..],
            &[
                Opc::S_GETPC_B64,
                Opc::S_ADD_U32,
                Opc::S_ADDC_U32,
                Opc::S_SETPC_B64,
                Opc::S_ENDPGM
            ]
        );
        // The pair above the 7 SGPRs in use, aligned.
        assert_eq!(usage.sgprs, 10);
        let getpc = &f.blocks[f.layout[0]].insts[1];
        assert!(matches!(
            getpc.ops[0],
            Operand::Reg {
                reg: crate::mir::Reg::Phys(PReg::S(8, 2)),
                ..
            }
        ));
    }

    #[test]
    fn no_free_pair_is_an_error() {
        let mut f = func(40_000);
        let mut usage = Usage {
            sgprs: SGPR_BUDGET - 1,
            vgprs: 1,
            sgpr_spills: 0,
            ..Usage::default()
        };
        let e = relax(&mut f, &mut usage).unwrap_err();
        assert!(e.0.contains("SGPR pair"), "{}", e.0);
    }
}
