//! Register allocation: linear scan over the wave-level CFG, SGPRs and VGPRs separately.
//!
//! Pre: a machine function over virtual registers (`isel`), in layout order.
//! Post: every virtual register is replaced by a physical register tuple of its class,
//! aligned to 2 for 64-bit (and wider) tuples as gfx942 requires; two registers share a
//! physical register only if their live intervals do not overlap. Liveness is computed on the
//! wave-level CFG (layout fall-through plus every branch, including `s_cbranch_execz` skips),
//! so a value needed by lanes on the other side of a divergent branch stays live across the
//! side executed first, and a VGPR written under a partial EXEC cannot clobber lanes of
//! another value that is still needed. Each register gets one interval (from its first to
//! its last live point), which over-approximates lifetimes inside loops but never under.
//! Over the budget (gfx942: 102 SGPRs, 256 addressable VGPRs) is an error, not a crash.
//! Liveness is a bit-vector dataflow (blocks × registers / 64 per round, rounds bounded by
//! the loop depth); the scan is O(registers × register-file size).

use crate::mir::{File, Func, Operand, PReg, Reg, VReg};
use cranelift_entity::{EntityRef, SecondaryMap};

pub const SGPR_BUDGET: u16 = 102;
pub const VGPR_BUDGET: u16 = 256;

/// Registers the kernel ABI fixes: s[0:1] kernarg pointer, s2..s4 workgroup ids, v0 ids.
pub const RESERVED_SGPRS: u16 = 5;
pub const RESERVED_VGPRS: u16 = 1;

#[derive(Debug)]
pub struct AllocError(pub String);

/// Result: highest SGPR and VGPR used, plus one.
pub struct Usage {
    pub sgprs: u16,
    pub vgprs: u16,
}

pub fn allocate(f: &mut Func) -> Result<Usage, AllocError> {
    let nblocks = f.layout.len();
    let nv = f.vregs.len();
    let mut index: SecondaryMap<crate::mir::MBlock, usize> = SecondaryMap::new();
    for (i, &b) in f.layout.iter().enumerate() {
        index[b] = i;
    }
    let succs = successors(f, &index);
    // Positions.
    let mut start = vec![0usize; nblocks];
    let mut pos = 0;
    for (i, &b) in f.layout.iter().enumerate() {
        start[i] = pos;
        pos += f.blocks[b].insts.len() + 1;
    }
    // Per-block use (before def) and def sets, as bit vectors.
    let words = nv.div_ceil(64);
    let mut uses = vec![vec![0u64; words]; nblocks];
    let mut defs = vec![vec![0u64; words]; nblocks];
    let set = |v: &mut Vec<u64>, r: usize| v[r / 64] |= 1 << (r % 64);
    let get = |v: &Vec<u64>, r: usize| v[r / 64] & (1 << (r % 64)) != 0;
    let mut lo = vec![usize::MAX; nv];
    let mut hi = vec![0usize; nv];
    for (i, &b) in f.layout.iter().enumerate() {
        for (k, inst) in f.blocks[b].insts.iter().enumerate() {
            let p = start[i] + k;
            let d = inst.op.desc();
            for (j, o) in inst.ops.iter().enumerate() {
                let Operand::Reg {
                    reg: Reg::Virt(v),
                    sub,
                    n,
                } = o
                else {
                    continue;
                };
                let r = v.index();
                lo[r] = lo[r].min(p);
                hi[r] = hi[r].max(p);
                let width = f.vregs[*v].dwords;
                let partial = *n != 0 && (*sub != 0 || *n < width);
                let is_def = j < d.defs as usize;
                if is_def && !partial && !(j == 0 && d.reads_dst) {
                    if !get(&uses[i], r) {
                        set(&mut defs[i], r);
                    }
                } else if !get(&defs[i], r) {
                    set(&mut uses[i], r);
                }
            }
        }
    }
    // Backward dataflow to a fixed point.
    let mut live_in = vec![vec![0u64; words]; nblocks];
    let mut live_out = vec![vec![0u64; words]; nblocks];
    let mut changed = true;
    while changed {
        changed = false;
        for i in (0..nblocks).rev() {
            let mut out = vec![0u64; words];
            for &s in &succs[i] {
                for w in 0..words {
                    out[w] |= live_in[s][w];
                }
            }
            let mut inn = vec![0u64; words];
            for w in 0..words {
                inn[w] = uses[i][w] | (out[w] & !defs[i][w]);
            }
            if inn != live_in[i] || out != live_out[i] {
                live_in[i] = inn;
                live_out[i] = out;
                changed = true;
            }
        }
    }
    for i in 0..nblocks {
        let end = start[i] + f.blocks[f.layout[i]].insts.len();
        for (set, at) in [(&live_in[i], start[i]), (&live_out[i], end)] {
            for r in set_bits(set) {
                lo[r] = lo[r].min(at);
                hi[r] = hi[r].max(at);
            }
        }
    }
    // Linear scan.
    let mut order: Vec<usize> = (0..nv).filter(|&r| lo[r] != usize::MAX).collect();
    order.sort_by_key(|&r| (lo[r], r));
    let mut assigned: Vec<Option<u16>> = vec![None; nv];
    let mut busy_until_s = vec![None::<usize>; SGPR_BUDGET as usize];
    let mut busy_until_v = vec![None::<usize>; VGPR_BUDGET as usize];
    let (mut max_s, mut max_v) = (RESERVED_SGPRS, RESERVED_VGPRS);
    for r in order {
        let class = f.vregs[VReg::new(r)];
        let (busy, first, budget) = match class.file {
            File::S => (&mut busy_until_s, RESERVED_SGPRS, SGPR_BUDGET),
            File::V => (&mut busy_until_v, RESERVED_VGPRS, VGPR_BUDGET),
        };
        let n = class.dwords as u16;
        let align = if n >= 2 { 2 } else { 1 };
        let mut base = first.next_multiple_of(align);
        let mut found = None;
        while base + n <= budget {
            let free = (base..base + n).all(|x| busy[x as usize].is_none_or(|e| e < lo[r]));
            if free {
                found = Some(base);
                break;
            }
            base += align;
        }
        let Some(b) = found else {
            return Err(AllocError(format!(
                "kernel `{}` needs more than the {} {} gfx942 provides (kc does not spill yet)",
                f.name,
                budget,
                if class.file == File::S {
                    "SGPRs"
                } else {
                    "VGPRs"
                }
            )));
        };
        for x in b..b + n {
            busy[x as usize] = Some(hi[r]);
        }
        assigned[r] = Some(b);
        match class.file {
            File::S => max_s = max_s.max(b + n),
            File::V => max_v = max_v.max(b + n),
        }
    }
    // Rewrite.
    for &b in &f.layout {
        for inst in &mut f.blocks[b].insts {
            for o in &mut inst.ops {
                if let Operand::Reg {
                    reg: Reg::Virt(v),
                    sub,
                    n,
                } = *o
                {
                    let class = f.vregs[v];
                    let base = assigned[v.index()].unwrap_or(0) + sub as u16;
                    let width = if n == 0 { class.dwords } else { n };
                    let preg = match class.file {
                        File::S => PReg::S(base, width),
                        File::V => PReg::V(base, width),
                    };
                    *o = Operand::Reg {
                        reg: Reg::Phys(preg),
                        sub: 0,
                        n: 0,
                    };
                }
            }
        }
    }
    Ok(Usage {
        sgprs: max_s,
        vgprs: max_v,
    })
}

/// Indices of the set bits of a bit vector.
fn set_bits(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(w, &bits)| {
        let mut b = bits;
        std::iter::from_fn(move || {
            (b != 0).then(|| {
                let i = b.trailing_zeros() as usize;
                b &= b - 1;
                w * 64 + i
            })
        })
    })
}

/// Wave-level successors of each layout position.
pub fn successors(f: &Func, index: &SecondaryMap<crate::mir::MBlock, usize>) -> Vec<Vec<usize>> {
    let n = f.layout.len();
    let mut out = vec![Vec::new(); n];
    for (i, &b) in f.layout.iter().enumerate() {
        let mut falls = true;
        for inst in &f.blocks[b].insts {
            if inst.op.desc().is_branch() {
                if let Some(Operand::Label(t)) = inst.ops.first() {
                    let j = index[*t];
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
        if falls && i + 1 < n && !out[i].contains(&(i + 1)) {
            out[i].push(i + 1);
        }
    }
    out
}
