//! Liveness of virtual registers, sparse, as the live segments register allocation packs.
//!
//! Pre: a machine function over virtual registers, in layout order, whose blocks list their
//! per-lane resume points (`BlockData::lanes_to`).
//! Post: for every virtual register of one register file, the sorted, disjoint closed ranges
//! of positions where it is live (`Live::segs`), holes included: two registers may share a
//! physical register exactly when their segments do not overlap. Instruction `k` of the
//! layout reads at position `2k`. An ALU instruction with one destination (SALU, VALU: it
//! reads its operands before writing) writes at `2k + 1`, so its destination may take the
//! register of a source read for the last time (a copy then disappears); so does a plain load
//! (SMEM, global, LDS, scratch: the address is read at issue, so `s_load_dwordx2 s[0:1], s[0:1], 0`
//! is fine, as in LLVM's code). Atomics, stores and instructions with two destinations write
//! at `2k`, so they never overwrite what they read. Block `i` spans
//! `2 start[i] ..= 2 (start[i] + len) + 1`, the last two positions standing for its end
//! (values live out of it).
//! - SGPRs live on the wave-level CFG (layout fall-through and every branch, the
//!   `s_cbranch_execz` skips included): an SGPR write is a whole-wave write, so that CFG is
//!   the exact one.
//! - VGPRs live on the per-lane CFG: a VGPR write only touches the lanes in EXEC, so what a
//!   register must keep is decided per lane. Its edges are the wave-level edges lanes travel
//!   along (not `s_cbranch_execz`, taken with no lane in EXEC, nor the fall-through from a
//!   then side into its else side, `lanes_stop`) and the resume points of parked lanes
//!   (`lanes_to`). Every path a lane takes is a path of that CFG, so a value a lane will
//!   still read is live all along the way, even where the wave runs code for other lanes
//!   that kills it (the else side of an if writing the join's argument, which the then lanes
//!   already wrote); and a value only the else lanes read is dead in the then side, whose
//!   writes do not touch those lanes (as LLVM's SIOptimizeVGPRLiveRange arranges).
//! - Liveness is per dword: a 64-bit register whose halves are written one by one is not live
//!   before its first half is written. A write kills the dwords it covers, except for an
//!   instruction that also reads its destination (`v_writelane_b32`, `s_bitset0_b64`).
//!
//! Algorithm: one pass over the instructions records, per dword, the blocks that read it
//! before writing it and the blocks that write it; each dword's liveness is then explored
//! backwards from its reading blocks over predecessors, stopping where it is written (path
//! exploration, as in Appel's "Modern Compiler Implementation" and Brandner et al.,
//! "Computing Liveness Sets for SSA-Form Programs"); a forward scan of each block turns the
//! live-in and live-out sets into segments. Time and memory are linear in the instructions
//! plus the size of the result (the blocks each dword is live in): no blocks x registers
//! bit matrix.

use crate::isa::{Opc, Unit};
use crate::mir::{File, Func, Inst, MBlock, Operand, Reg, VReg};
use cranelift_entity::SecondaryMap;

/// A closed range of positions.
pub type Seg = (u32, u32);

/// The wave-level CFG of a machine function, with the per-lane edges, over layout indices.
pub struct Cfg {
    /// Layout index of each block.
    pub index: SecondaryMap<MBlock, u32>,
    /// First position of each block (in layout order); its end position is
    /// `start[i] + insts.len()`.
    pub start: Vec<u32>,
    /// Wave-level predecessors.
    pub wave_preds: Vec<Vec<u32>>,
    /// Per-lane predecessors: the wave-level ones along which lanes travel (not
    /// `s_cbranch_execz`, taken with no lane, nor the fall-through out of a `lanes_stop`
    /// block), and the resume points (`lanes_to`).
    pub lane_preds: Vec<Vec<u32>>,
}

impl Cfg {
    pub fn new(f: &Func) -> Cfg {
        let n = f.layout.len();
        let mut index: SecondaryMap<MBlock, u32> = SecondaryMap::with_capacity(f.blocks.len());
        let mut start = Vec::with_capacity(n);
        let mut pos = 0u32;
        for (i, &b) in f.layout.iter().enumerate() {
            index[b] = i as u32;
            start.push(pos);
            pos += f.blocks[b].insts.len() as u32 + 1;
        }
        let mut wave_preds = vec![Vec::new(); n];
        for (i, succs) in wave_successors(f, &index).into_iter().enumerate() {
            for s in succs {
                wave_preds[s as usize].push(i as u32);
            }
        }
        let mut lane_preds = vec![Vec::new(); n];
        let mut add = |p: usize, t: usize| {
            if !lane_preds[t].contains(&(p as u32)) {
                lane_preds[t].push(p as u32);
            }
        };
        for (i, &b) in f.layout.iter().enumerate() {
            let data = &f.blocks[b];
            let mut falls = !data.lanes_stop;
            for inst in &data.insts {
                match (inst.op, inst.ops.first()) {
                    (Opc::S_BRANCH, Some(Operand::Label(t))) => {
                        add(i, index[*t] as usize);
                        falls = false;
                    }
                    (Opc::S_ENDPGM, _) => falls = false,
                    // Taken only when no lane is in EXEC.
                    (Opc::S_CBRANCH_EXECZ, _) => {}
                    _ => {
                        if let Some(t) = inst.target() {
                            add(i, index[t] as usize)
                        }
                    }
                }
            }
            if falls && i + 1 < n {
                add(i, i + 1);
            }
            for &t in &data.lanes_to {
                add(i, index[t] as usize);
            }
        }
        Cfg {
            index,
            start,
            wave_preds,
            lane_preds,
        }
    }
}

/// Wave-level successors of each layout position: branch targets, the next block unless the
/// block ends in `s_branch` or `s_endpgm`, and where a join may resume the wave (`wave_to`).
pub fn wave_successors(f: &Func, index: &SecondaryMap<MBlock, u32>) -> Vec<Vec<u32>> {
    let n = f.layout.len();
    let mut out = vec![Vec::new(); n];
    for (i, &b) in f.layout.iter().enumerate() {
        let mut falls = true;
        for inst in &f.blocks[b].insts {
            if inst.op.desc().is_branch() {
                if let Some(t) = inst.target() {
                    let j = index[t];
                    if !out[i].contains(&j) {
                        out[i].push(j);
                    }
                }
                if inst.op == crate::isa::Opc::S_BRANCH {
                    falls = false;
                }
            }
            if inst.op == crate::isa::Opc::S_ENDPGM {
                falls = false;
            }
        }
        let next = i as u32 + 1;
        if falls && i + 1 < n && !out[i].contains(&next) {
            out[i].push(next);
        }
        for &t in &f.blocks[b].wave_to {
            let j = index[t];
            if !out[i].contains(&j) {
                out[i].push(j);
            }
        }
    }
    out
}

/// How an instruction touches dwords `lo..hi` of a virtual register.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Access {
    Read,
    /// Written without being read: the old contents die.
    Kill,
}

/// The virtual-register dword ranges an instruction reads, then those it writes (an
/// instruction that reads its destination reports it as a read only).
pub fn accesses(f: &Func, inst: &Inst, mut visit: impl FnMut(VReg, u8, u8, Access)) {
    let d = inst.op.desc();
    let range = |o: &Operand| match *o {
        Operand::Reg {
            reg: Reg::Virt(v),
            sub,
            n,
        } => {
            let w = f.vregs[v].dwords;
            Some((v, sub, if n == 0 { w } else { (sub + n).min(w) }))
        }
        _ => None,
    };
    for (j, o) in inst.ops.iter().enumerate() {
        let def = j < d.defs as usize;
        if def && !(j == 0 && inst.reads_dst()) {
            continue;
        }
        if let Some((v, lo, hi)) = range(o) {
            visit(v, lo, hi, Access::Read);
        }
    }
    for (j, o) in inst.ops.iter().enumerate().take(d.defs as usize) {
        if j == 0 && inst.reads_dst() {
            continue;
        }
        if let Some((v, lo, hi)) = range(o) {
            visit(v, lo, hi, Access::Kill);
        }
    }
}

/// The live segments of the registers of one file.
pub struct Live {
    /// Sorted, disjoint, not adjacent; empty for registers of the other file or never used.
    pub segs: SecondaryMap<VReg, Vec<Seg>>,
    /// For registers of two dwords or more, the segments of each dword (the same form; their
    /// union is `segs`): a dword dead before the others frees its register early.
    pub dword_segs: SecondaryMap<VReg, Vec<Vec<Seg>>>,
    /// How many operands name each register (reads and writes).
    pub refs: SecondaryMap<VReg, u32>,
}

/// Groups `(key, value)` pairs by key (a counting sort): `values[offsets[k]..offsets[k+1]]`.
fn group(pairs: &[(u32, u32)], keys: usize) -> (Vec<u32>, Vec<u32>) {
    let mut offsets = vec![0u32; keys + 1];
    for &(k, _) in pairs {
        offsets[k as usize + 1] += 1;
    }
    for k in 0..keys {
        offsets[k + 1] += offsets[k];
    }
    let mut fill = offsets.clone();
    let mut values = vec![0u32; pairs.len()];
    for &(k, v) in pairs {
        values[fill[k as usize] as usize] = v;
        fill[k as usize] += 1;
    }
    (offsets, values)
}

fn slice(g: &(Vec<u32>, Vec<u32>), k: usize) -> &[u32] {
    &g.1[g.0[k] as usize..g.0[k + 1] as usize]
}

/// Live segments of every register of `file`.
pub fn live(f: &Func, cfg: &Cfg, file: File) -> Live {
    let nb = f.layout.len();
    // Dword units of the registers of this file.
    let mut base: SecondaryMap<VReg, u32> = SecondaryMap::with_default(u32::MAX);
    base.resize(f.vregs.len());
    let mut owner: Vec<VReg> = Vec::with_capacity(f.vregs.len());
    for (v, c) in f.vregs.iter() {
        if c.file == file {
            base[v] = owner.len() as u32;
            for _ in 0..c.dwords {
                owner.push(v);
            }
        }
    }
    let nu = owner.len();
    let mut refs: SecondaryMap<VReg, u32> = SecondaryMap::with_capacity(f.vregs.len());

    // Blocks reading a unit before writing it (upward exposed) and blocks writing it.
    let mut exposed: Vec<(u32, u32)> = Vec::new();
    let mut written: Vec<(u32, u32)> = Vec::new();
    let mut def_in = vec![u32::MAX; nu];
    let mut use_in = vec![u32::MAX; nu];
    for (bi, &b) in f.layout.iter().enumerate() {
        let bi = bi as u32;
        for inst in &f.blocks[b].insts {
            accesses(f, inst, |v, lo, hi, a| {
                if base[v] == u32::MAX {
                    return;
                }
                refs[v] += 1;
                for u in base[v] + lo as u32..base[v] + hi as u32 {
                    let ui = u as usize;
                    match a {
                        Access::Read => {
                            if def_in[ui] != bi && use_in[ui] != bi {
                                use_in[ui] = bi;
                                exposed.push((u, bi));
                            }
                        }
                        Access::Kill => {
                            if def_in[ui] != bi {
                                def_in[ui] = bi;
                                written.push((u, bi));
                            }
                        }
                    }
                }
            });
        }
    }
    let exposed = group(&exposed, nu);
    let written = group(&written, nu);

    // Path exploration, one unit at a time; marks are stamped with the unit.
    let mut kill_mark = vec![u32::MAX; nb];
    let mut in_mark = vec![u32::MAX; nb];
    let mut out_mark = vec![u32::MAX; nb];
    let mut live_in: Vec<(u32, u32)> = Vec::new();
    let mut live_out: Vec<(u32, u32)> = Vec::new();
    let mut stack: Vec<u32> = Vec::new();
    let lanes = file == File::V;
    for u in 0..nu as u32 {
        let blocks = slice(&exposed, u as usize);
        if blocks.is_empty() {
            continue;
        }
        for &b in slice(&written, u as usize) {
            kill_mark[b as usize] = u;
        }
        for &b in blocks {
            in_mark[b as usize] = u;
            live_in.push((b, u));
            stack.push(b);
        }
        while let Some(b) = stack.pop() {
            let b = b as usize;
            let preds = if lanes {
                &cfg.lane_preds[b]
            } else {
                &cfg.wave_preds[b]
            };
            for &p in preds {
                let pi = p as usize;
                if out_mark[pi] == u {
                    continue;
                }
                out_mark[pi] = u;
                live_out.push((p, u));
                if kill_mark[pi] != u && in_mark[pi] != u {
                    in_mark[pi] = u;
                    live_in.push((p, u));
                    stack.push(p);
                }
            }
        }
    }
    let live_in = group(&live_in, nb);
    let live_out = group(&live_out, nb);

    // Segments: a forward scan of each block.
    let mut segs: SecondaryMap<VReg, Vec<Seg>> = SecondaryMap::with_capacity(f.vregs.len());
    let mut dword_segs: SecondaryMap<VReg, Vec<Vec<Seg>>> =
        SecondaryMap::with_capacity(f.vregs.len());
    let mut push = |u: u32, seg: Seg| {
        let v = owner[u as usize];
        segs[v].push(seg);
        let w = f.vregs[v].dwords as usize;
        if w > 1 {
            let d = &mut dword_segs[v];
            if d.is_empty() {
                *d = vec![Vec::new(); w];
            }
            d[(u - base[v]) as usize].push(seg);
        }
    };
    let mut open_in = vec![u32::MAX; nu];
    let mut open_start = vec![0u32; nu];
    let mut last = vec![0u32; nu];
    let mut touched: Vec<u32> = Vec::new();
    for (bi, &b) in f.layout.iter().enumerate() {
        let bu = bi as u32;
        let insts = &f.blocks[b].insts;
        let start = 2 * cfg.start[bi];
        let end = 2 * (cfg.start[bi] + insts.len() as u32) + 1;
        touched.clear();
        for &u in slice(&live_in, bi) {
            open_in[u as usize] = bu;
            open_start[u as usize] = start;
            last[u as usize] = start;
            touched.push(u);
        }
        for (k, inst) in insts.iter().enumerate() {
            let read_at = start + 2 * k as u32;
            let write_at = read_at + u32::from(writes_late(inst.op));
            accesses(f, inst, |v, lo, hi, a| {
                if base[v] == u32::MAX {
                    return;
                }
                let p = if a == Access::Kill { write_at } else { read_at };
                for u in base[v] + lo as u32..base[v] + hi as u32 {
                    let ui = u as usize;
                    if open_in[ui] == bu {
                        if a == Access::Kill {
                            push(u, (open_start[ui], last[ui]));
                            open_start[ui] = p;
                        }
                    } else {
                        // The first access in this block of a unit not live into it (a
                        // read here is of an undefined value, which is harmless).
                        open_in[ui] = bu;
                        open_start[ui] = p;
                        touched.push(u);
                    }
                    last[ui] = p;
                }
            });
        }
        for &u in slice(&live_out, bi) {
            if open_in[u as usize] != bu {
                open_in[u as usize] = bu;
                open_start[u as usize] = end;
                touched.push(u);
            }
            last[u as usize] = end;
        }
        for &u in &touched {
            let ui = u as usize;
            if open_in[ui] == bu {
                push(u, (open_start[ui], last[ui]));
                open_in[ui] = u32::MAX - 1;
            }
        }
    }
    for (_, s) in segs.iter_mut() {
        normalize(s);
    }
    for (_, d) in dword_segs.iter_mut() {
        for s in d {
            normalize(s);
        }
    }
    Live {
        segs,
        dword_segs,
        refs,
    }
}

/// Moves: their destination may share the register of the source they read last.
pub fn is_move(op: Opc) -> bool {
    matches!(op, Opc::S_MOV_B32 | Opc::S_MOV_B64 | Opc::V_MOV_B32)
}

/// Does `op` write its destination after reading all its sources (an ALU instruction with
/// one destination, not one of the `s_*_saveexec` forms, which also write EXEC; or a plain
/// load, which reads its address when it issues and writes its result when the data
/// returns), so that the destination may reuse a source's register (`s_load_dwordx2 s[0:1],
/// s[0:1], 0`, as LLVM emits)?
fn writes_late(op: Opc) -> bool {
    let d = op.desc();
    let load = matches!(
        op,
        Opc::S_LOAD_DWORD
            | Opc::S_LOAD_DWORDX2
            | Opc::S_LOAD_DWORDX4
            | Opc::GLOBAL_LOAD_DWORD
            | Opc::GLOBAL_LOAD_DWORDX2
            | Opc::DS_READ_B32
            | Opc::DS_READ_B64
            | Opc::SCRATCH_LOAD_DWORD
            | Opc::SCRATCH_LOAD_DWORDX2
    );
    load || (matches!(d.unit, Unit::Salu | Unit::Valu)
        && d.defs == 1
        && !d.reads_dst
        && !d.implicit.writes_exec)
}

/// Sorts segments and merges the overlapping and adjacent ones.
fn normalize(s: &mut Vec<Seg>) {
    if s.len() < 2 {
        return;
    }
    s.sort_unstable();
    let mut w = 0;
    for i in 1..s.len() {
        if s[i].0 <= s[w].1.saturating_add(1) {
            s[w].1 = s[w].1.max(s[i].1);
        } else {
            w += 1;
            s[w] = s[i];
        }
    }
    s.truncate(w + 1);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::Opc;
    use crate::mir::{self, Class, Func};

    fn inst(op: Opc, ops: Vec<Operand>) -> Inst {
        Inst::new(op, ops, kc_dialect::Loc::UNKNOWN)
    }

    /// A 64-bit register written half by half is live only from its first half on, and a
    /// register dead between two uses has a hole there.
    #[test]
    fn dwords_and_holes() {
        let mut f = Func::default();
        let b0 = f.new_block();
        let b1 = f.new_block();
        let b2 = f.new_block();
        f.layout = vec![b0, b1, b2];
        let a = f.new_vreg(Class::S32);
        let p = f.new_vreg(Class::S64);
        f.blocks[b0].insts = vec![
            inst(Opc::S_MOV_B32, vec![mir::r(a), Operand::Imm(1)]), // 0
            inst(Opc::S_CMP_LG_U32, vec![mir::r(a), Operand::Imm(0)]), // 1
            inst(Opc::S_CBRANCH_SCC0, vec![Operand::Label(b2)]),    // 2
        ];
        f.blocks[b1].insts = vec![
            inst(Opc::S_MOV_B32, vec![mir::rsub(p, 0, 1), Operand::Imm(1)]), // 4
            inst(Opc::S_MOV_B32, vec![mir::rsub(p, 1, 1), Operand::Imm(2)]), // 5
            inst(
                Opc::S_MOV_B64,
                vec![mir::p(crate::mir::PReg::Exec), mir::r(p)],
            ), // 6
            inst(Opc::S_MOV_B32, vec![mir::r(a), Operand::Imm(2)]),          // 7
        ];
        f.blocks[b2].insts = vec![inst(Opc::S_CMP_LG_U32, vec![mir::r(a), Operand::Imm(0)])]; // 9
        let cfg = Cfg::new(&f);
        let l = live(&f, &cfg, File::S);
        assert_eq!(l.segs[p], vec![(9, 12)]);
        // `a`: written at 1, read at 2 and (through the branch) at 18; dead from its last read
        // in b0's path through b1 until b1 redefines it.
        assert_eq!(l.segs[a], vec![(1, 7), (15, 18)]);
    }

    /// A VGPR written for lanes that resume at a later block (`lanes_to`) stays live until
    /// that block although the wave-level path to it rewrites the register first (for other
    /// lanes).
    #[test]
    fn lane_edges_keep_vgprs() {
        let mut f = Func::default();
        let (b0, b1, b2) = (f.new_block(), f.new_block(), f.new_block());
        f.layout = vec![b0, b1, b2];
        let x = f.new_vreg(Class::V32);
        let t = f.new_vreg(Class::V32);
        f.blocks[b0].insts = vec![inst(Opc::V_MOV_B32, vec![mir::r(x), Operand::Imm(1)])]; // 1
        f.blocks[b1].insts = vec![
            inst(Opc::V_MOV_B32, vec![mir::r(t), Operand::Imm(3)]), // 5
            inst(Opc::V_MOV_B32, vec![mir::r(x), mir::r(t)]),       // 6, 7
        ];
        f.blocks[b2].insts = vec![inst(Opc::V_NOT_B32, vec![mir::r(t), mir::r(x)])]; // 10
        let cfg = Cfg::new(&f);
        assert_eq!(live(&f, &cfg, File::V).segs[x], vec![(1, 1), (7, 10)]);
        f.blocks[b0].lanes_to.push(b2);
        let cfg = Cfg::new(&f);
        assert_eq!(live(&f, &cfg, File::V).segs[x], vec![(1, 3), (7, 10)]);
        // SGPR liveness ignores per-lane edges.
        assert!(live(&f, &cfg, File::S).segs[x].is_empty());
    }

    /// A VGPR only the else side reads is dead in the then side when the then side's lanes
    /// stop at its end (they resume at the join), and `s_cbranch_execz` carries no lane.
    #[test]
    fn then_side_does_not_keep_else_values() {
        let mut f = Func::default();
        let (b0, then_, mid, end) = (f.new_block(), f.new_block(), f.new_block(), f.new_block());
        f.layout = vec![b0, then_, mid, end];
        let x = f.new_vreg(Class::V32);
        let t = f.new_vreg(Class::V32);
        f.blocks[b0].insts = vec![
            inst(Opc::V_MOV_B32, vec![mir::r(x), Operand::Imm(1)]), // 1
            inst(Opc::S_CBRANCH_EXECZ, vec![Operand::Label(mid)]),  // 2; end 4..=5
        ];
        f.blocks[b0].lanes_to.push(mid);
        f.blocks[then_].insts = vec![inst(Opc::V_MOV_B32, vec![mir::r(t), Operand::Imm(3)])]; // 7
        f.blocks[then_].lanes_to.push(end);
        f.blocks[then_].lanes_stop = true;
        f.blocks[mid].insts = vec![inst(Opc::V_NOT_B32, vec![mir::r(t), mir::r(x)])]; // 10
        let cfg = Cfg::new(&f);
        let l = live(&f, &cfg, File::V);
        assert_eq!(l.segs[x], vec![(1, 5), (10, 10)]);
        // Without the flag the then side's fall-through keeps it live there.
        f.blocks[then_].lanes_stop = false;
        let cfg = Cfg::new(&f);
        assert_eq!(live(&f, &cfg, File::V).segs[x], vec![(1, 10)]);
    }
}
