//! The ABI input registers as live ranges: s[0:1] (kernarg pointer), s2-s4 (workgroup ids)
//! and v0 (work-item ids) are precolored virtual registers, so their physical registers are
//! free for other values after their last read (LLVM reuses them too).
//!
//! Pre: a machine function over virtual registers whose ABI input registers are read-only
//! (the MIR validator's rule before allocation).
//! Post ([`precolor`]): every operand naming an ABI input register of the file names a dword
//! range of a fresh virtual register of that group (s[0:1], s2, s3, s4; v0) instead, which
//! the scan places at the group's register before anything else; liveness then gives it the
//! live range from the kernel's entry to its last read (on the wave-level CFG for SGPRs, the
//! per-lane one for v0). A register defined once, whole, by a move from an ABI register (an
//! alias: `s_mov_b64 %r, s[0:1]`, `v_mov_b32 %r, v0`) is that group register: its references
//! are renamed and the move deleted. A VGPR copy made under a partial EXEC would leave other
//! lanes undefined; the ABI register holds the value in every lane, so reading it instead is
//! at least as defined. When something writes an ABI register, or an operand straddles two
//! groups, nothing changes and the caller keeps the ABI registers reserved.

use super::single_defs;
use crate::isa::Opc;
use crate::mir::{Class, File, Func, Operand, PReg, Reg, VReg};
use cranelift_entity::SecondaryMap;

/// The ABI register groups of a file: (first register, dwords).
fn groups(file: File) -> &'static [(u16, u8)] {
    match file {
        File::S => &[(0, 2), (2, 1), (3, 1), (4, 1)],
        File::V => &[(0, 1)],
    }
}

/// The ABI register an operand names, as (group index, dword offset in it, dwords);
/// `Err(())` for an ABI operand straddling groups.
fn group_of(o: &Operand, file: File) -> Result<Option<(usize, u8, u8)>, ()> {
    let (r, n) = match (o.reg(), file) {
        (Some(Reg::Phys(PReg::S(r, n))), File::S) | (Some(Reg::Phys(PReg::V(r, n))), File::V) => {
            (r, n)
        }
        _ => return Ok(None),
    };
    let gs = groups(file);
    let end = gs.last().map_or(0, |g| g.0 + g.1 as u16);
    if r >= end {
        return Ok(None);
    }
    gs.iter()
        .position(|&(b, w)| b <= r && r + n as u16 <= b + w as u16)
        .map(|g| Some((g, (r - gs[g].0) as u8, n)))
        .ok_or(())
}

/// Rewrites the ABI input registers of `file` into precolored virtual registers (see the
/// module comment). Returns them with their physical register, or `None` (nothing changed)
/// when they must stay reserved.
pub(super) fn precolor(f: &mut Func, file: File) -> Option<Vec<(VReg, u16)>> {
    let defs = single_defs(f);
    if defs.abi_written[(file == File::V) as usize] {
        return None;
    }
    for &b in &f.layout {
        for inst in &f.blocks[b].insts {
            for o in &inst.ops {
                group_of(o, file).ok()?;
            }
        }
    }
    let gs = groups(file);
    let pseudo: Vec<VReg> = gs
        .iter()
        .map(|&(_, w)| f.new_vreg(Class { file, dwords: w }))
        .collect();
    // Aliases: v -> (group, dword offset). None with FORK/JOIN: `fork_join` copied the ABI
    // inputs so that nothing reads them after the entry, where the fork stack reuses them.
    let mut alias: SecondaryMap<VReg, Option<(usize, u8)>> =
        SecondaryMap::with_capacity(f.vregs.len());
    let mut alias_defs = Vec::new();
    let forks = crate::fork_join::has_forks(f);
    for (v, at) in defs.single.iter().filter(|_| !forks) {
        let Some((b, i)) = *at else { continue };
        let inst = &f.blocks[b].insts[i as usize];
        if f.vregs[v].file != file
            || !matches!(inst.op, Opc::S_MOV_B32 | Opc::S_MOV_B64 | Opc::V_MOV_B32)
            || inst.dpp.is_some()
        {
            continue;
        }
        if let Ok(Some((g, off, n))) = group_of(&inst.ops[1], file) {
            if n == f.vregs[v].dwords {
                alias[v] = Some((g, off));
                alias_defs.push((b, i));
            }
        }
    }
    alias_defs.sort_unstable();
    for &(b, i) in alias_defs.iter().rev() {
        f.blocks[b].insts.remove(i as usize);
    }
    for bi in 0..f.layout.len() {
        let b = f.layout[bi];
        let mut insts = std::mem::take(&mut f.blocks[b].insts);
        for inst in &mut insts {
            for o in &mut inst.ops {
                let (g, off, n) = match *o {
                    Operand::Reg {
                        reg: Reg::Virt(v),
                        sub,
                        n,
                    } => match alias[v] {
                        Some((g, off)) => {
                            let n = if n == 0 { f.vregs[v].dwords } else { n };
                            (g, off + sub, n)
                        }
                        None => continue,
                    },
                    _ => match group_of(o, file) {
                        Ok(Some(x)) => x,
                        _ => continue,
                    },
                };
                let whole = off == 0 && n == gs[g].1;
                *o = Operand::Reg {
                    reg: Reg::Virt(pseudo[g]),
                    sub: off,
                    n: if whole { 0 } else { n },
                };
            }
        }
        f.blocks[b].insts = insts;
    }
    Some(
        pseudo
            .into_iter()
            .zip(gs.iter().map(|g| g.0))
            .collect::<Vec<_>>(),
    )
}
