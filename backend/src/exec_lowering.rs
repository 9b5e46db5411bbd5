//! EXEC lowering: the control-flow pseudos isel selects on the logical CFG become the
//! EXEC-mask sequences gfx942 runs (LLVM's SILowerControlFlow, Mesa ACO's
//! `aco_insert_exec_mask`). `fork_join` runs before it: with `--divergence=fork-join` it
//! lowers the divergent ifs with the hardware branch stack and leaves the rest here.
//!
//! Pre: MIR over virtual registers as isel leaves it. The pseudos, with their operands as
//! written in MIR, what they mean on the logical CFG, and what they become:
//!
//! | pseudo | meaning | lowered to |
//! |---|---|---|
//! | `cf_if %s, %c` | divergent if: the lanes of EXEC where lane mask `%c` holds run the then side; `%s` = the other lanes, which wait for the else side or the join | `s_and_saveexec_b64 %s, %c` + `s_xor_b64 %s, exec, %s` |
//! | `cf_if_simple %s, %c` | the same when there is no else side and the then side loses no lane: `%s` = EXEC before, the join restores it whole | `s_and_saveexec_b64 %s, %c` |
//! | `cf_else %s, %s` | the else side: the lanes waiting in `%s` run, the then side's lanes wait in `%s` for the join | `s_andn2_saveexec_b64 %s, %s` |
//! | `cf_end %m` | a join: the lanes waiting in `%m` (a divergent if's saved mask, a label's or a loop's continue mask) are back | `s_or_b64 exec, exec, %m` |
//! | `cf_join_outer %o, %o, %s` | a divergent if joins at the enclosing if's join (nothing runs between the two): its waiting lanes `%s` are added to that join's mask `%o` (optimizeEndCf) | `s_or_b64 %o, %o, %s` |
//! | `cf_break %m, %m, %l` | the lanes `%l` (`exec`: all of them) branch to a label or a loop's next iteration: they wait in its mask `%m` | `s_or_b64 %m, %m, %l` + `s_andn2_b64 exec, exec, %l` (`s_mov_b64 exec, 0` for `exec`) |
//! | `cf_exit %l` | the lanes `%l` (`exec`: all) leave the kernel | `s_andn2_b64 exec, exec, %l` (`s_mov_b64 exec, 0`) |
//! | `cf_park %l` | the lanes `%l` (`exec`: all) branch to a label whose mask is EXEC at its start (every lane that enters it reaches its end, which restores that mask): nothing records them | `s_andn2_b64 exec, exec, %l` (`s_mov_b64 exec, 0`) |
//! | `cf_loop bbH` | the back edge of a loop whose lanes leave at different iterations: again while any lane stays | `s_cbranch_execnz bbH` |
//! | `cf_skip bbT` | EXEC may be empty here: the code up to `bbT` (the innermost point that restores EXEC; laid out after the skip) may be skipped | `s_cbranch_execz bbT` when that code is long or unsafe with no lanes, else nothing |
//!
//! A `cf_skip` ends its block (isel starts the skipped code in a new block). Uniform branches,
//! real jumps and the waterfall loops of division and cross-lane operations are already
//! machine code.
//!
//! Post: no pseudo is left (the validator rejects one after this pass); nothing else changes:
//! blocks, layout, registers and `lanes_to` are as isel made them.
//!
//! Skips are decided like LLVM's skip threshold: a `cf_skip` stays when the code it jumps over
//! (the blocks laid out after its own, up to its target) has more than [`THRESHOLD`]
//! instructions or one unsafe with no lanes (a branch, including a skip not decided yet, a
//! scalar load, a read of what a load in the skipped code returns (it waits for memory: LLVM's
//! cost model keeps a skip over an `s_waitcnt`), `readlane`/`readfirstlane`, a barrier,
//! `s_endpgm`, an explicit EXEC operand,
//! a write of a scalar register that another instruction writes too: a phi's, whose value
//! from the path the lanes did take it would overwrite; a loop counter's is fine when the
//! skip goes to the loop's back edge, which with no lanes leaves the loop, after which
//! nothing reads it).
//! Innermost regions are decided first: by the layout position of the target (a region
//! nested in another ends before it), then of the skip, so an inner skip that goes no longer
//! counts for the outer ones.
//!
//! Cost: linear in the instructions plus, per skip, at most THRESHOLD + 1 non-empty blocks:
//! runs of empty blocks are jumped over through `empty_until` (path compression: a block
//! becomes empty at most once, when its skip is dropped).

use crate::isa::{Opc, Unit};
use crate::mir::{File, Func, Inst, MBlock, Operand, Operands, PReg, Reg, VReg};
use cranelift_entity::SecondaryMap;
use smallvec::smallvec;

/// Instructions a skip may jump over and still be dropped (LLVM: `amdgpu-skip-threshold`).
const THRESHOLD: usize = 12;

/// Lowers every pseudo of `f`; an error names a malformed one.
pub fn lower(f: &mut Func) -> Result<(), String> {
    let mut pos: SecondaryMap<MBlock, Option<usize>> = SecondaryMap::new();
    for (i, &b) in f.layout.iter().enumerate() {
        pos[b] = Some(i);
    }
    // (target position, skip block position) of every skip, checked before anything changes.
    let mut skips: Vec<(usize, usize)> = Vec::new();
    // Target positions that are a divergent loop's back edge (`cf_loop` first, after empty
    // blocks): with no lanes there the loop is left, and no scalar register the loop writes
    // is read after it (a value defined in a loop with divergent exits is read outside
    // through per-lane copies: temporal divergence), so the loop's counters may be written.
    // `latch_at[t]`: the first instruction at or after layout position `t` is a `cf_loop`.
    // One backward walk: a run of empty blocks (the joins of a long `else if` chain all end
    // at one place) is not walked again for every skip into it.
    let mut latch_at = vec![false; f.layout.len() + 1];
    for (i, &b) in f.layout.iter().enumerate().rev() {
        latch_at[i] = match f.blocks[b].insts.first() {
            Some(first) => first.op == Opc::CF_LOOP,
            None => latch_at[i + 1],
        };
    }
    let mut latches = vec![false; f.layout.len()];
    for (i, &b) in f.layout.iter().enumerate() {
        let insts = &f.blocks[b].insts;
        for (k, inst) in insts.iter().enumerate() {
            if inst.op != Opc::CF_SKIP {
                continue;
            }
            let target = match inst.ops.first() {
                Some(Operand::Label(t)) => pos[*t],
                _ => None,
            };
            match target {
                Some(t) if t > i && k + 1 == insts.len() => {
                    latches[t] = latch_at[t];
                    skips.push((t, i));
                }
                _ => {
                    return Err(format!(
                        "{b}: `cf_skip` must end its block and skip to a later block"
                    ))
                }
            }
        }
    }
    // Before the expansion: a pseudo's mask update (`s_or_b64 m, m, lanes`) adds lanes of
    // EXEC, nothing with no lanes, so it does not count as a second write of `m`.
    let shared = shared_scalars(f);
    for &b in &f.layout {
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let mut out = Vec::with_capacity(insts.len());
        for inst in insts {
            expand(inst, &mut out);
        }
        f.blocks[b].insts = out;
    }
    // Innermost regions first (see the header), each skip reading the code as lowered.
    skips.sort_unstable();
    let mut empty_until = vec![0u32; f.layout.len()];
    for (to, at) in skips {
        // At a back edge the loop's counters may be written (see `latch_at`).
        let shared = (!latches[to]).then_some(&shared);
        let keep = !short_and_safe(f, at + 1..to, shared, &mut empty_until);
        let insts = &mut f.blocks[f.layout[at]].insts;
        if keep {
            let last = insts.last_mut().expect("a skip ends its block");
            last.op = Opc::S_CBRANCH_EXECZ;
        } else {
            insts.pop();
        }
    }
    Ok(())
}

fn exec() -> Operand {
    crate::mir::p(PReg::Exec)
}

/// Appends what `inst` lowers to (itself when it is no pseudo).
fn expand(inst: Inst, out: &mut Vec<Inst>) {
    let start = out.len();
    let mut push = |op: Opc, ops: Operands| out.push(Inst::new(op, ops, inst.loc));
    let ops = &inst.ops;
    match inst.op {
        Opc::CF_IF | Opc::CF_IF_SIMPLE => {
            push(Opc::S_AND_SAVEEXEC_B64, ops.clone());
            if inst.op == Opc::CF_IF {
                push(
                    Opc::S_XOR_B64,
                    smallvec![ops[0].clone(), exec(), ops[0].clone()],
                );
            }
        }
        Opc::CF_ELSE => push(Opc::S_ANDN2_SAVEEXEC_B64, ops.clone()),
        Opc::CF_END => push(Opc::S_OR_B64, smallvec![exec(), exec(), ops[0].clone()]),
        Opc::CF_JOIN_OUTER => push(Opc::S_OR_B64, ops.clone()),
        Opc::CF_BREAK | Opc::CF_EXIT | Opc::CF_PARK => {
            if inst.op == Opc::CF_BREAK {
                push(Opc::S_OR_B64, ops.clone());
            }
            let lanes = ops[ops.len() - 1].clone();
            if lanes == exec() {
                push(Opc::S_MOV_B64, smallvec![exec(), Operand::Imm(0)]);
            } else {
                push(Opc::S_ANDN2_B64, smallvec![exec(), exec(), lanes]);
            }
        }
        Opc::CF_LOOP => push(Opc::S_CBRANCH_EXECNZ, ops.clone()),
        // Skips are decided once everything else is lowered.
        _ => {
            out.push(inst);
            return;
        }
    }
    // The pseudo's comment goes to the first instruction it becomes.
    out[start].comment = inst.comment;
}

/// The scalar virtual registers written by more than one instruction: a phi's register
/// (each incoming path writes it), a loop counter. A write of one with no lanes is not
/// harmless: when no lane took the path, another path's value is in the register, and the
/// SALU (or a VALU compare into a lane mask) would overwrite it for the lanes that are
/// elsewhere. A scalar register written once is computed from uniform values alone, the same
/// whatever EXEC holds (scalar loads and EXEC reads are unsafe anyway). Lane masks updated
/// by the control-flow pseudos are not counted: with no lanes such an update adds none.
fn shared_scalars(f: &Func) -> SecondaryMap<VReg, u8> {
    let mut seen: SecondaryMap<VReg, u8> = SecondaryMap::with_capacity(f.vregs.len());
    for &b in &f.layout {
        for i in f.blocks[b]
            .insts
            .iter()
            .filter(|i| !i.op.desc().is_pseudo())
        {
            for o in i.defs_and_uses().0 {
                if let Operand::Reg {
                    reg: Reg::Virt(v), ..
                } = *o
                {
                    if f.vregs[v].file == File::S {
                        seen[v] = seen[v].saturating_add(1);
                    }
                }
            }
        }
    }
    seen
}

/// Does `i` write a scalar register whose old value may still be wanted with no lanes here:
/// one `shared` counts more than one write of, or a physical SGPR?
fn clobbers_scalar(i: &Inst, shared: &SecondaryMap<VReg, u8>) -> bool {
    i.defs_and_uses().0.iter().any(|o| match *o {
        Operand::Reg {
            reg: Reg::Virt(v), ..
        } => shared[v] > 1,
        Operand::Reg {
            reg: Reg::Phys(p), ..
        } => matches!(p, PReg::S(..) | PReg::Vcc | PReg::M0),
        _ => false,
    })
}

/// Is the code at the layout positions `region` short and safe to run with no lanes? With
/// `shared` (the write counts of [`shared_scalars`]), a second write of a scalar register is
/// unsafe.
/// Reading stops at the first unsafe instruction or past the threshold. `empty_until[k] = j`
/// (when `j > k`): the blocks at `k..j` are empty.
fn short_and_safe(
    f: &Func,
    region: std::ops::Range<usize>,
    shared: Option<&SecondaryMap<VReg, u8>>,
    empty_until: &mut [u32],
) -> bool {
    let len = region.end;
    let mut count = 0;
    // Empty positions walked since the last non-empty block, to point past the run.
    let mut run: Vec<usize> = Vec::new();
    let mut k = region.start;
    let mut verdict = true;
    // Registers loads in the region write (at most THRESHOLD instructions: a short list).
    let mut loaded: Vec<Reg> = Vec::new();
    'scan: while k < len {
        let j = empty_until[k] as usize;
        if j > k {
            run.push(k);
            k = j;
            continue;
        }
        let insts = &f.blocks[f.layout[k]].insts;
        if insts.is_empty() {
            run.push(k);
            k += 1;
            continue;
        }
        for r in run.drain(..) {
            empty_until[r] = k as u32;
        }
        for i in insts {
            count += 1;
            let d = i.op.desc();
            // A read of what a load in the skipped code returns waits for the memory (an
            // `s_waitcnt` once waitcnt runs): with no lanes that wait is pure cost, and LLVM's
            // cost model keeps a skip over a wait.
            let (defs, uses) = i.defs_and_uses();
            let waits = uses
                .iter()
                .any(|o| o.reg().is_some_and(|r| loaded.contains(&r)));
            if matches!(d.unit, Unit::Vmem | Unit::Lds) {
                loaded.extend(defs.iter().filter_map(Operand::reg));
            }
            let unsafe_ = waits
                || d.is_branch()
                || d.unit == Unit::Smem
                || matches!(
                    i.op,
                    Opc::V_READFIRSTLANE_B32 | Opc::V_READLANE_B32 | Opc::S_BARRIER | Opc::S_ENDPGM
                )
                || i.ops.iter().any(|o| *o == exec())
                || shared.is_some_and(|s| clobbers_scalar(i, s));
            if unsafe_ || count > THRESHOLD {
                verdict = false;
                break 'scan;
            }
        }
        k += 1;
    }
    for r in run {
        empty_until[r] = k as u32;
    }
    verdict
}
