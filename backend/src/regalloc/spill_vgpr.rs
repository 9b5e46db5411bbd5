//! VGPR spilling to scratch: the VGPRs the scan takes out of the register file live in the
//! lanes' private memory (gfx942's architected flat scratch), spilled everywhere.
//!
//! Pre: a machine function over virtual registers whose SGPRs are placed (nothing here reads
//! or writes an SGPR, EXEC or SCC, so their allocation stands), and the VGPRs to take out
//! (`victims`, chosen by the scan in `regalloc.rs` by spill weight), none of them in
//! [`never_spill`] nor a temporary made here.
//! Post: no instruction names a victim. Each victim owns dword slots of the private segment
//! (`slots` on, 4 bytes each, never shared; a tuple's first slot 8-byte aligned). Right
//! after every instruction that writes dwords of it, a `scratch_store_dword` (`_dwordx2` for
//! an aligned pair) stores them from a fresh VGPR the instruction now writes instead; right
//! before every instruction that reads dwords of it, a `scratch_load_dword{,x2}` loads them
//! into a fresh VGPR the instruction reads instead (an instruction that reads and writes it,
//! `v_fmac_f32`, gets both, around the same fresh VGPR); the instruction right after one that
//! wrote or reloaded the victim into a fresh VGPR reads that VGPR, with no reload (same EXEC:
//! an instruction naming a VGPR never writes EXEC). Slots below 4 KiB are addressed as `off,
//! off offset:N`, as clang-22 does; farther ones through a fresh VGPR holding the slot's
//! 4 KiB page (`v_mov_b32`), `offset:` the rest (clang-22 uses an SGPR there; kc places SGPRs
//! before VGPRs, so a VGPR keeps the SGPR allocation final). The fresh VGPRs live across one
//! or two instructions (never a longer chain) and their spill code, and are recorded in
//! `temps` (never spilled); every dword stored counts in `.vgpr_spill_count`, as in LLVM.
//!
//! EXEC: the spill code runs under the EXEC of the instruction it serves, which it never
//! changes, and scratch accesses touch only the lanes in EXEC. That is enough, without
//! LLVM's whole-wave spills: a VGPR's value in a lane is the one the last instruction that
//! wrote it *with that lane active* left there (a write with the lane inactive leaves it
//! alone). The store after that write put the same value in the lane's slot, under the same
//! EXEC; every later store of the slot follows a later write of the victim, and none of those
//! had the lane active (else it would be the last), so none touched the lane's slot. Any
//! instruction reading the victim in the lane runs with the lane active, and so does the
//! reload before it: the lane reads back its own last value. This holds whatever EXEC did in
//! between: divergent ifs, lanes parked in a loop's exit mask for several iterations while
//! the others rewrite the victim (temporal divergence), joins. It fails only for
//! instructions that reach lanes outside EXEC: `v_writelane_b32` (writes a lane whatever EXEC
//! holds), `v_readlane_b32` and DPP and `ds_bpermute_b32` sources (read other lanes), and
//! writes in a whole-wave region (after `s_or_saveexec_b64 s, -1`, the DPP reductions):
//! [`never_spill`] lists the VGPRs they name, which get an infinite spill weight (the SGPR
//! spill VGPRs are `v_writelane_b32` destinations, so they are among them). A victim only
//! *read* in a whole-wave region (a reduction's source, which `v_cndmask_b32` masks with the
//! saved EXEC) is reloaded before the region opens, under the EXEC its value belongs to: a
//! reload inside would write the fresh VGPR with the whole wave, which `regalloc` would then
//! have to reserve for the whole kernel, as it does every VGPR written there.
//! Cost: linear in the instructions plus the spill code made.

use crate::isa::Opc;
use crate::mir::{self, Class, File, Func, Inst, MBlock, Operand, PReg, Reg, VReg};
use cranelift_entity::SecondaryMap;
use std::collections::HashSet;

/// The largest `offset:` of a scratch instruction (13-bit signed; kc uses the non-negative
/// half).
const MAX_OFFSET: u32 = 4095;

/// Spill state kept across the VGPR allocation rounds.
#[derive(Default)]
pub(super) struct Spiller {
    /// Dword slots of the private segment handed out so far.
    pub(super) slots: u32,
    /// Reload, store and address temporaries (never spilled).
    pub(super) temps: HashSet<VReg>,
    /// Dwords stored (`.vgpr_spill_count`).
    pub(super) count: u32,
}

impl Spiller {
    /// The private segment the slots need, in bytes (16-byte aligned, as LLVM's frames).
    pub(super) fn private_bytes(&self) -> u32 {
        (self.slots * 4).next_multiple_of(16)
    }

    /// Rewrites every reference to `victims` (see the module comment).
    pub(super) fn spill(&mut self, f: &mut Func, victims: &[VReg]) {
        let mut slot: SecondaryMap<VReg, Option<u32>> = SecondaryMap::new();
        for &v in victims {
            debug_assert_eq!(f.vregs[v].file, File::V);
            // Tuples start on an 8-byte boundary (a `_dwordx2` access is then aligned).
            if f.vregs[v].dwords >= 2 {
                self.slots = self.slots.next_multiple_of(2);
            }
            slot[v] = Some(self.slots);
            self.slots += f.vregs[v].dwords as u32;
        }
        for bi in 0..f.layout.len() {
            let b = f.layout[bi];
            self.spill_block(f, b, &slot);
        }
    }

    fn spill_block(&mut self, f: &mut Func, b: MBlock, slot: &SecondaryMap<VReg, Option<u32>>) {
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let mut out = Vec::with_capacity(insts.len());
        // Where the whole-wave region the instructions are in opened (`out` index of its
        // `s_or_saveexec_b64 s, -1`), if they are in one.
        let mut region: Option<usize> = None;
        // The victims the previous instruction named: (victim, its fresh VGPR, the dwords
        // that VGPR holds).
        let mut prev: Vec<(VReg, VReg, u8)> = Vec::new();
        for mut inst in insts {
            if let Some(opens) = whole_wave_switch(&inst) {
                region = opens.then_some(out.len());
            }
            let refs = super::refs_of(f, &inst, |v| slot[v].is_some());
            if refs.is_empty() {
                prev.clear();
                out.push(inst);
                continue;
            }
            let mut before = Vec::new();
            let mut after = Vec::new();
            let mut cur = Vec::with_capacity(refs.len());
            for (v, mut reads, writes) in refs {
                // Read right after the previous instruction wrote or reloaded it into a fresh
                // VGPR: that VGPR still holds it, for the same lanes (an instruction naming a
                // VGPR never writes EXEC), so no reload.
                // Only a VGPR made for the previous instruction: a fresh VGPR lives across two
                // instructions at most, so spilling always lowers the pressure it is for.
                let t = match prev.iter().find(|p| p.0 == v && reads & !p.2 == 0) {
                    Some(&(_, t, _)) => {
                        reads = 0;
                        t
                    }
                    None => {
                        let t = f.new_vreg(f.vregs[v]);
                        self.temps.insert(t);
                        cur.push((v, t, reads | writes));
                        t
                    }
                };
                let first = slot[v].expect("a victim has a slot");
                let dwords = f.vregs[v].dwords;
                for (lo, n) in runs(reads, dwords) {
                    let op = if n == 2 {
                        Opc::SCRATCH_LOAD_DWORDX2
                    } else {
                        Opc::SCRATCH_LOAD_DWORD
                    };
                    let data = mir::rsub(t, lo, n);
                    self.access(f, op, data, first + lo as u32, &inst, &mut before);
                }
                // `never_spill` keeps what a whole-wave region writes out of the victims.
                debug_assert!(writes == 0 || region.is_none());
                for (lo, n) in runs(writes, dwords) {
                    let op = if n == 2 {
                        Opc::SCRATCH_STORE_DWORDX2
                    } else {
                        Opc::SCRATCH_STORE_DWORD
                    };
                    self.count += n as u32;
                    let data = mir::rsub(t, lo, n);
                    self.access(f, op, data, first + lo as u32, &inst, &mut after);
                }
                for o in &mut inst.ops {
                    if let Operand::Reg { reg, .. } = o {
                        if *reg == Reg::Virt(v) {
                            *reg = Reg::Virt(t);
                        }
                    }
                }
            }
            match region {
                // A read in a whole-wave region (the source of a DPP reduction) is reloaded
                // before the region opens, under the EXEC the value belongs to (a reload under
                // the whole wave would make the fresh VGPR a whole-kernel reservation).
                Some(at) => {
                    let k = before.len();
                    out.splice(at..at, before);
                    region = Some(at + k);
                }
                None => out.extend(before),
            }
            out.push(inst);
            out.extend(after);
            prev = cur;
        }
        f.blocks[b].insts = out;
    }

    /// Appends to `out` the scratch access `op` of `data` at dword slot `at` (with the
    /// address VGPR it needs past 4 KiB), at `inst`'s location.
    fn access(
        &mut self,
        f: &mut Func,
        op: Opc,
        data: Operand,
        at: u32,
        inst: &Inst,
        out: &mut Vec<Inst>,
    ) {
        let bytes = at * 4;
        let (vaddr, offset) = if bytes <= MAX_OFFSET {
            (Operand::Off, bytes)
        } else {
            let a = f.new_vreg(Class::V32);
            self.temps.insert(a);
            let page = bytes & !MAX_OFFSET;
            out.push(Inst::new(
                Opc::V_MOV_B32,
                vec![mir::r(a), Operand::Imm(page as i64)],
                inst.loc,
            ));
            (mir::r(a), bytes - page)
        };
        let ops = if op.desc().defs == 1 {
            vec![data, vaddr, Operand::Off]
        } else {
            vec![vaddr, data, Operand::Off]
        };
        let mut s = Inst::new(op, ops, inst.loc);
        s.offset = offset;
        s.comment = Some(if s.op.desc().defs == 1 {
            "VGPR reload".into()
        } else {
            "VGPR spill".into()
        });
        out.push(s);
    }
}

/// The runs of set bits of `mask` over `dwords` dwords as (first, length), split so that a
/// run is 1 or 2 dwords, pairs starting at an even dword (`_dwordx2` then moves an aligned
/// VGPR pair).
fn runs(mask: u8, dwords: u8) -> Vec<(u8, u8)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < dwords {
        if mask >> i & 1 == 0 {
            i += 1;
            continue;
        }
        let pair = i % 2 == 0 && i + 1 < dwords && mask >> (i + 1) & 1 != 0;
        let n = if pair { 2 } else { 1 };
        out.push((i, n));
        i += n;
    }
    out
}

/// How `inst` changes the whole-wave state: `Some(true)` it opens a whole-wave region
/// (`s_or_saveexec_b64 s, -1`, `s_mov_b64 exec, -1`), `Some(false)` it writes EXEC otherwise
/// (which ends one), `None` it leaves EXEC alone.
pub(super) fn whole_wave_switch(inst: &Inst) -> Option<bool> {
    let exec_dst = inst.ops.first() == Some(&mir::p(PReg::Exec));
    if !(inst.op.desc().implicit.writes_exec || exec_dst) {
        return None;
    }
    let all = inst.ops.get(1) == Some(&Operand::Imm(-1));
    Some(all && matches!(inst.op, Opc::S_OR_SAVEEXEC_B64 | Opc::S_MOV_B64))
}

/// The VGPRs spilling to scratch would break (see the module comment): those written in a
/// whole-wave region (from [`whole_wave_switch`] opening one to the next EXEC write in the
/// block; a VGPR only read there is reloaded before the region), `v_writelane_b32`
/// destinations, `v_readlane_b32` sources, every VGPR of a DPP instruction and the data of
/// `ds_bpermute_b32`.
pub(super) fn never_spill(f: &Func) -> HashSet<VReg> {
    let mut out = HashSet::new();
    let mut add = |o: &Operand| {
        if let Operand::Reg {
            reg: Reg::Virt(v), ..
        } = o
        {
            if f.vregs[*v].file == File::V {
                out.insert(*v);
            }
        }
    };
    for &b in &f.layout {
        let mut whole = false;
        for inst in &f.blocks[b].insts {
            if let Some(opens) = whole_wave_switch(inst) {
                whole = opens;
                continue;
            }
            if inst.dpp.is_some() {
                inst.ops.iter().for_each(&mut add);
                continue;
            }
            if whole {
                let defs = inst.op.desc().defs as usize;
                inst.ops[..defs.min(inst.ops.len())]
                    .iter()
                    .for_each(&mut add);
            }
            match inst.op {
                Opc::V_WRITELANE_B32 => add(&inst.ops[0]),
                Opc::V_READLANE_B32 => add(&inst.ops[1]),
                Opc::DS_BPERMUTE_B32 => add(&inst.ops[2]),
                _ => {}
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use Opc::*;

    fn inst(op: Opc, ops: Vec<Operand>) -> Inst {
        Inst::new(op, ops, kc_dialect::Loc::UNKNOWN)
    }

    #[test]
    fn runs_pair_aligned_dwords() {
        assert_eq!(runs(0b11, 2), [(0, 2)]);
        assert_eq!(runs(0b10, 2), [(1, 1)]);
        assert_eq!(runs(0b1110, 4), [(1, 1), (2, 2)]);
        assert_eq!(runs(0, 2), []);
    }

    /// A 64-bit victim read and written whole: a `_dwordx2` reload before, a `_dwordx2`
    /// store after, at its slot; the next instruction reads its high dword from the same
    /// fresh VGPR (no reload), and reloads `x`, which the one after reads and writes in place
    /// (`v_fmac_f32`) with no second reload and a store after.
    #[test]
    fn spill_everywhere_shapes() {
        let mut f = Func::default();
        let b = f.new_block();
        f.layout = vec![b];
        let x = f.new_vreg(Class::V32);
        let p = f.new_vreg(Class::V64);
        let y = f.new_vreg(Class::V32);
        f.blocks[b].insts = vec![
            inst(V_MOV_B32, vec![mir::r(x), Operand::Imm(1)]),
            inst(V_LSHLREV_B64, vec![mir::r(p), Operand::Imm(2), mir::r(p)]),
            inst(V_ADD_U32, vec![mir::r(y), mir::rsub(p, 1, 1), mir::r(x)]),
            inst(V_FMAC_F32, vec![mir::r(x), mir::r(y), mir::r(y)]),
        ];
        let mut sp = Spiller::default();
        sp.spill(&mut f, &[x, p]);
        let got: Vec<(Opc, u32)> = f.blocks[b].insts.iter().map(|i| (i.op, i.offset)).collect();
        use Opc::{SCRATCH_LOAD_DWORD as LD, SCRATCH_STORE_DWORD as ST};
        assert_eq!(
            got,
            [
                (V_MOV_B32, 0),
                (ST, 0),
                (SCRATCH_LOAD_DWORDX2, 8),
                (V_LSHLREV_B64, 0),
                (SCRATCH_STORE_DWORDX2, 8),
                (LD, 0),
                (V_ADD_U32, 0),
                (V_FMAC_F32, 0),
                (ST, 0),
            ]
        );
        let i = &f.blocks[b].insts;
        let reg = |k: usize, j: usize| i[k].ops[j].reg();
        assert_eq!(reg(3, 0), reg(6, 1), "the shifted pair feeds the add");
        assert_eq!(reg(5, 0), reg(6, 2), "the reloaded x feeds the add");
        assert_eq!(reg(5, 0), reg(7, 0), "and the fmac, which writes it");
        assert_eq!(reg(7, 0), reg(8, 1), "whose result is stored");
        assert_eq!(sp.count, 4);
        assert_eq!(sp.private_bytes(), 16);
        let named = |v: VReg| {
            f.blocks[b]
                .insts
                .iter()
                .any(|i| i.ops.iter().any(|o| o.reg() == Some(Reg::Virt(v))))
        };
        assert!(!named(x) && !named(p));
    }

    /// Slots past 4 KiB go through an address VGPR holding the page.
    #[test]
    fn far_slots_use_an_address_vgpr() {
        let mut f = Func::default();
        let b = f.new_block();
        f.layout = vec![b];
        let x = f.new_vreg(Class::V32);
        f.blocks[b].insts = vec![inst(V_MOV_B32, vec![mir::r(x), Operand::Imm(1)])];
        let mut sp = Spiller {
            slots: 1030,
            ..Default::default()
        };
        sp.spill(&mut f, &[x]);
        let i = &f.blocks[b].insts;
        assert_eq!(i.len(), 3);
        assert_eq!((i[1].op, &i[1].ops[1]), (V_MOV_B32, &Operand::Imm(4096)));
        assert_eq!(
            (i[2].op, i[2].offset),
            (SCRATCH_STORE_DWORD, 1030 * 4 - 4096)
        );
        assert_eq!(i[2].ops[0], i[1].ops[0]);
    }

    /// Whole-wave code, lane writes and cross-lane reads pin their VGPRs.
    #[test]
    fn cross_lane_and_whole_wave_vgprs_are_never_spilled() {
        let mut f = Func::default();
        let b = f.new_block();
        f.layout = vec![b];
        let v: Vec<VReg> = (0..6).map(|_| f.new_vreg(Class::V32)).collect();
        let (s, m) = (f.new_vreg(Class::S32), f.new_vreg(Class::S64));
        f.blocks[b].insts = vec![
            inst(
                V_WRITELANE_B32,
                vec![mir::r(v[0]), mir::r(s), Operand::Imm(3)],
            ),
            inst(
                V_READLANE_B32,
                vec![mir::r(s), mir::r(v[1]), Operand::Imm(3)],
            ),
            inst(
                DS_BPERMUTE_B32,
                vec![mir::r(v[5]), mir::r(v[5]), mir::r(v[2])],
            ),
            inst(S_OR_SAVEEXEC_B64, vec![mir::r(m), Operand::Imm(-1)]),
            inst(V_MOV_B32, vec![mir::r(v[3]), mir::r(v[4])]),
            inst(S_MOV_B64, vec![mir::p(PReg::Exec), mir::r(m)]),
            inst(V_MOV_B32, vec![mir::r(v[5]), Operand::Imm(0)]),
        ];
        let never = never_spill(&f);
        let mut got: Vec<VReg> = never.into_iter().collect();
        got.sort();
        assert_eq!(got, v[..4]);
        // v4, only read in the whole-wave region, is reloaded before it opens.
        let mut sp = Spiller::default();
        sp.spill(&mut f, &[v[4]]);
        let got: Vec<Opc> = f.blocks[b].insts.iter().map(|i| i.op).collect();
        assert_eq!(
            got[2..6],
            [
                DS_BPERMUTE_B32,
                SCRATCH_LOAD_DWORD,
                S_OR_SAVEEXEC_B64,
                V_MOV_B32
            ]
        );
        let reg = |o: &Operand| o.reg();
        assert_eq!(
            reg(&f.blocks[b].insts[3].ops[0]),
            reg(&f.blocks[b].insts[5].ops[1])
        );
    }
}
