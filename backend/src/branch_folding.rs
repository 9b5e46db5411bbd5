//! Branch folding on the laid-out machine function, after register allocation.
//!
//! Pre: a machine function in layout order.
//! Post: the same wave-level behaviour with
//! Blocks a join may resume (`wave_to`) count as branch targets.
//! - every branch to a label whose first instruction (skipping empty blocks) is `s_branch L`
//!   retargeted to `L` (jump threading; a chain of `s_branch` collapses);
//! - instructions after an `s_branch` or `s_endpgm` that no branch can reach removed;
//! - an `s_branch` to the label that follows it in layout removed; so is a conditional branch
//!   that goes where execution would go anyway: to the label that follows it, or to where
//!   the `s_branch` executed next jumps (unless it is its block's only instruction);
//! - an `s_or_b64 exec, exec, s` right before `s_endpgm` removed (no lane runs anything after
//!   it, so restoring EXEC there is dead).
//!
//! Linear in the number of instructions times the length of the longest branch chain (runs of
//! empty blocks are skipped through a table, not walked per branch).

use crate::isa::Opc;
use crate::mir::{Func, MBlock, Operand};
use cranelift_entity::SecondaryMap;
use std::collections::HashSet;

/// Each block's position in the layout.
fn layout_positions(f: &Func) -> SecondaryMap<MBlock, usize> {
    let mut pos = SecondaryMap::new();
    for (i, &b) in f.layout.iter().enumerate() {
        pos[b] = i;
    }
    pos
}

pub fn fold_branches(f: &mut Func) {
    thread_jumps(f);
    remove_unreachable(f);
    remove_jumps_to_next(f);
    remove_redundant_conditionals(f);
    remove_restores_before_end(f);
}

fn remove_redundant_conditionals(f: &mut Func) {
    let pos = layout_positions(f);
    // A removal never empties a block, so `next` stays right.
    let next = next_nonempty(f);
    for i in 0..f.layout.len() {
        let b = f.layout[i];
        let mut k = 0;
        while k < f.blocks[b].insts.len() {
            let insts = &f.blocks[b].insts;
            let inst = &insts[k];
            let cond = inst.op.desc().is_branch() && inst.op != Opc::S_BRANCH;
            let (true, Some(Operand::Label(t))) = (cond, inst.ops.first()) else {
                k += 1;
                continue;
            };
            let goes_to = next[pos[*t]];
            // Where execution goes when the branch is not taken.
            let otherwise = match insts.get(k + 1) {
                Some(j) if j.op == Opc::S_BRANCH => match j.ops.first() {
                    Some(Operand::Label(l)) => Some(next[pos[*l]]),
                    _ => None,
                },
                Some(_) => None,
                None => match first_inst(f, &next, i + 1) {
                    Some((_, Opc::S_BRANCH, Some(l))) => Some(next[pos[l]]),
                    Some((p, _, _)) => Some(p),
                    None => Some(next[i + 1]),
                },
            };
            if otherwise == Some(goes_to) && insts.len() > 1 {
                f.blocks[b].insts.remove(k);
            } else {
                k += 1;
            }
        }
    }
}

/// Removes each `s_or_b64 exec, exec, s` whose next executed instruction is `s_endpgm`
/// (also over virtual registers: `dead-defs` runs it before allocation, so the saved mask
/// does not stay live to the end of the kernel).
pub fn remove_restores_before_end(f: &mut Func) {
    let exec = Operand::Reg {
        reg: crate::mir::Reg::Phys(crate::mir::PReg::Exec),
        sub: 0,
        n: 0,
    };
    // Walk backwards: the next executed instruction of each position is known.
    let mut next_is_end = false;
    for i in (0..f.layout.len()).rev() {
        let insts = &mut f.blocks[f.layout[i]].insts;
        let mut k = insts.len();
        while k > 0 {
            k -= 1;
            let inst = &insts[k];
            if next_is_end && inst.op == Opc::S_OR_B64 && inst.ops.first() == Some(&exec) {
                insts.remove(k);
                continue;
            }
            next_is_end = inst.op == Opc::S_ENDPGM;
        }
    }
}

/// Per layout position, the first position at or after it whose block has an instruction
/// (`layout.len()` if none): one backward pass, so runs of empty blocks (the joins at the end
/// of a long `else if` chain) are not walked again for every branch into them.
fn next_nonempty(f: &Func) -> Vec<usize> {
    let n = f.layout.len();
    let mut next = vec![n; n + 1];
    for i in (0..n).rev() {
        next[i] = if f.blocks[f.layout[i]].insts.is_empty() {
            next[i + 1]
        } else {
            i
        };
    }
    next
}

/// The first instruction executed from the start of layout position `i`, with its position.
fn first_inst(f: &Func, next: &[usize], i: usize) -> Option<(usize, Opc, Option<MBlock>)> {
    let i = next[i];
    let inst = f.blocks[*f.layout.get(i)?].insts.first()?;
    let t = match inst.ops.first() {
        Some(Operand::Label(t)) => Some(*t),
        _ => None,
    };
    Some((i, inst.op, t))
}

fn thread_jumps(f: &mut Func) {
    let pos = layout_positions(f);
    // Retargeting changes no block's emptiness.
    let next = next_nonempty(f);
    for i in 0..f.layout.len() {
        let b = f.layout[i];
        for k in 0..f.blocks[b].insts.len() {
            let inst = &f.blocks[b].insts[k];
            if !inst.op.desc().is_branch() {
                continue;
            }
            let Some(slot) = inst.ops.iter().position(|o| matches!(o, Operand::Label(_))) else {
                continue;
            };
            let Operand::Label(mut t) = inst.ops[slot] else {
                continue;
            };
            // Follow unconditional branches; the bound stops on a cycle of jumps.
            for _ in 0..f.layout.len() {
                match first_inst(f, &next, pos[t]) {
                    Some((_, Opc::S_BRANCH, Some(next))) if next != t => t = next,
                    _ => break,
                }
            }
            f.blocks[b].insts[k].ops[slot] = Operand::Label(t);
        }
    }
}

/// Blocks a branch or a join (`wave_to`) may go to.
fn targets(f: &Func) -> HashSet<MBlock> {
    f.layout
        .iter()
        .flat_map(|&b| f.blocks[b].insts.iter())
        .filter_map(|i| i.target())
        .chain(
            f.layout
                .iter()
                .flat_map(|&b| f.blocks[b].wave_to.iter().copied()),
        )
        .collect()
}

fn remove_unreachable(f: &mut Func) {
    let targets = targets(f);
    let mut dead = false;
    for i in 0..f.layout.len() {
        let b = f.layout[i];
        if targets.contains(&b) {
            dead = false;
        }
        let insts = &mut f.blocks[b].insts;
        if dead {
            insts.clear();
            continue;
        }
        if let Some(k) = insts
            .iter()
            .position(|x| x.op == Opc::S_BRANCH || x.op == Opc::S_ENDPGM)
        {
            insts.truncate(k + 1);
            dead = true;
        }
    }
}

fn remove_jumps_to_next(f: &mut Func) {
    let pos = layout_positions(f);
    // Only the block at `i` changes as `i` goes up, and only later positions are looked at.
    let next = next_nonempty(f);
    for i in 0..f.layout.len() {
        let b = f.layout[i];
        let Some(last) = f.blocks[b].insts.last() else {
            continue;
        };
        let Some(Operand::Label(t)) = last.ops.first() else {
            continue;
        };
        if last.op != Opc::S_BRANCH {
            continue;
        }
        // Empty blocks in between fall through too.
        let p = pos[*t];
        let falls = f.layout.get(p) == Some(t) && p > i && next[i + 1] >= p;
        if falls {
            f.blocks[b].insts.pop();
        }
    }
}
