//! FORK/JOIN lowering: the divergent ifs of a kernel compiled with `--divergence=fork-join`
//! become the hardware branch stack's sequences (seed 002; the simulator's module header gives
//! the instructions' semantics and kc's choices of where the stack and CSP live), instead of
//! EXEC masks. It is one more lowering of the pseudos `exec_lowering` documents, run before
//! it: what it leaves (loops, labels, breaks, exits, the ifs nested too deep) `exec_lowering`
//! lowers as always.
//!
//! Pre: MIR over virtual registers as isel leaves it for a fork-join kernel: every divergent
//! if has its own `cf_if`/`cf_if_simple %s, %c` ending its block with a `cf_skip`, an optional
//! `cf_else %s, %s` + `cf_skip` starting the else side's block, and its own `cf_end %s` (isel
//! absorbs no join and drops none before the kernel's end in this mode), laid out as
//! fork block, then side, [else side], join block.
//! Post: each divergent if at most `depth - 1` fork regions deep becomes
//!
//! ```text
//! B:    s_getreg_b32 %csp, hwreg(HW_REG_MODE, 29, 3)   ; CSP before the fork
//!       s_mov_b64 %s, 0                               ; lanes arrived at the join
//!       s_cbranch_i_fork %c, THEN                     ; the smaller group first, the other pushed
//! B2:   s_branch ELSE                                 ; where failing lanes go (ELSE: the join
//! THEN: ...                                           ;   block when there is no else side)
//! JMP:  s_branch JOIN                                 ; (with an else side) then lanes to the join
//! ELSE: ...
//! JOIN: s_or_b64 %s, %s, exec                         ; the lanes arriving
//!       s_cbranch_join %csp                           ; pop the other side, or go on
//! JOIN2: s_mov_b64 exec, %s                           ; every lane that arrived
//! ```
//!
//! JOIN's `wave_to` lists THEN and B2, where the pop may resume the wave (wave-level edges:
//! SGPR liveness keeps what either side reads alive across both). The join restores the lanes
//! that arrived rather than EXEC at the fork, so lanes that left inside (a `break`, a
//! `return`) stay out. The `cf_skip`s of the two sides go (a fork never enters a side with no
//! lanes); a skip inside the then side to its end goes to JMP. Entry k of the stack is
//! s[4k:4k+3]: the register allocator keeps s[4L:4L+3] for each fork region at nesting level L
//! from its fork to its join, and this pass copies the ABI input SGPRs (s[0:1], s2-s4) to
//! virtual registers at the kernel's entry so that nothing reads them later. A comment on
//! each fork names the scheme; an if nested deeper keeps EXEC masking and says so, as do the
//! divergent loops and lane exits left to `exec_lowering` (their comments get "(EXEC mask)").
//!
//! Linear in the instructions.

use crate::isa::Opc;
use crate::mir::{self, Class, Func, Inst, MBlock, Operand, PReg, Reg, VReg};
use crate::mir::{Divergence, KernelInfo};
use cranelift_entity::SecondaryMap;
use std::collections::HashMap;

/// `hwreg(HW_REG_MODE, 29, 3)`: the control stack pointer.
pub const HWREG_CSP: i64 = (2 << 11) | (29 << 6) | 1;

/// One divergent if lowered with FORK/JOIN.
struct Region {
    /// The block after the fork's: the then side's first.
    then_: MBlock,
    /// The else side's first block (where `cf_else` is), if any.
    mid: Option<MBlock>,
    /// The block of its `cf_end`.
    end: MBlock,
    /// The trampoline after the fork (`s_branch` to the else side or the join).
    b2: MBlock,
    /// The block ending the then side with `s_branch` to the join (with an else side).
    jmp: Option<MBlock>,
    csp: VReg,
}

/// Lowers the divergent ifs of `f` when `info` asks for FORK/JOIN; nothing otherwise.
pub fn lower(f: &mut Func, info: &KernelInfo) -> Result<(), String> {
    let Divergence::ForkJoin { depth } = info.divergence else {
        return Ok(());
    };
    let regions = find_regions(f, depth)?;
    if regions.is_empty() {
        return Ok(());
    }
    copy_abi_inputs(f)?;
    rewrite(f, &regions);
    Ok(())
}

/// The regions to lower, by the mask register of their `cf_if`; the ifs nested `depth`
/// fork regions deep or more are left to EXEC masking (with a comment).
fn find_regions(f: &mut Func, depth: u8) -> Result<HashMap<VReg, Region>, String> {
    struct Open {
        saved: VReg,
        fork: bool,
        then_: Option<MBlock>,
        mid: Option<MBlock>,
    }
    let mut open: Vec<Open> = Vec::new();
    let mut regions = HashMap::new();
    let mut forks_open = 0usize;
    let layout = f.layout.clone();
    for (i, &b) in layout.iter().enumerate() {
        let n = f.blocks[b].insts.len();
        for k in 0..n {
            let inst = &f.blocks[b].insts[k];
            let saved = match inst.ops.first() {
                Some(Operand::Reg {
                    reg: Reg::Virt(v), ..
                }) => Some(*v),
                _ => None,
            };
            match inst.op {
                Opc::CF_IF | Opc::CF_IF_SIMPLE => {
                    let saved = saved.ok_or("`cf_if` without a mask register")?;
                    let ends_block = k + 2 == n && f.blocks[b].insts[k + 1].op == Opc::CF_SKIP;
                    let fork = forks_open < depth as usize && ends_block && i + 1 < layout.len();
                    let inst = &mut f.blocks[b].insts[k];
                    if fork {
                        forks_open += 1;
                    } else {
                        inst.comment = Some(format!(
                            "divergent branch (EXEC mask: nested deeper than --fork-depth={depth})"
                        ));
                    }
                    open.push(Open {
                        saved,
                        fork,
                        then_: fork.then(|| layout[i + 1]),
                        mid: None,
                    });
                }
                Opc::CF_ELSE => {
                    if let Some(top) = open.last_mut().filter(|o| Some(o.saved) == saved) {
                        let starts = k == 0
                            && f.blocks[b].insts.len() == 2
                            && f.blocks[b].insts[1].op == Opc::CF_SKIP;
                        if top.fork && !starts {
                            return Err(format!(
                                "{b}: a fork region's `cf_else` must start its block, followed \
                                 by its `cf_skip` only"
                            ));
                        }
                        top.mid = Some(b);
                    }
                }
                Opc::CF_END if open.last().is_some_and(|o| Some(o.saved) == saved) => {
                    let o = open.pop().expect("checked");
                    if o.fork {
                        forks_open -= 1;
                        regions.insert(
                            o.saved,
                            Region {
                                then_: o.then_.expect("a fork has a then side"),
                                mid: o.mid,
                                end: b,
                                b2: f.new_block(),
                                jmp: o.mid.map(|_| f.new_block()),
                                csp: f.new_vreg(Class::S32),
                            },
                        );
                    }
                }
                Opc::CF_JOIN_OUTER if open.iter().any(|o| o.fork) => {
                    return Err(format!(
                        "{b}: `cf_join_outer` in a fork region (isel absorbs no join for \
                             FORK/JOIN)"
                    ));
                }
                _ => {}
            }
        }
    }
    if let Some(o) = open.iter().find(|o| o.fork) {
        return Err(format!("the divergent if of {} has no `cf_end`", o.saved));
    }
    Ok(regions)
}

/// Copies s[0:1] and s2-s4 to virtual registers at the top of the entry block and reads
/// those instead everywhere else: the fork stack reuses s[0:3] and up.
fn copy_abi_inputs(f: &mut Func) -> Result<(), String> {
    let groups: [(u16, u8); 4] = [(0, 2), (2, 1), (3, 1), (4, 1)];
    let mut copy: [Option<VReg>; 4] = [None; 4];
    let group = |r: u16, n: u8| -> Result<Option<usize>, String> {
        if r >= 5 {
            return Ok(None);
        }
        groups
            .iter()
            .position(|&(b, w)| b <= r && r + n as u16 <= b + w as u16)
            .map(Some)
            .ok_or_else(|| {
                format!(
                    "an operand s[{r}:{}] straddles the ABI registers",
                    r + n as u16 - 1
                )
            })
    };
    for bi in 0..f.layout.len() {
        let b = f.layout[bi];
        let mut insts = std::mem::take(&mut f.blocks[b].insts);
        for inst in &mut insts {
            for o in inst.ops.iter_mut() {
                let Operand::Reg {
                    reg: Reg::Phys(PReg::S(r, n)),
                    ..
                } = *o
                else {
                    continue;
                };
                let Some(g) = group(r, n)? else { continue };
                let (base, w) = groups[g];
                let v = *copy[g].get_or_insert_with(|| {
                    f.new_vreg(if w == 2 { Class::S64 } else { Class::S32 })
                });
                *o = if n == w {
                    mir::r(v)
                } else {
                    mir::rsub(v, (r - base) as u8, n)
                };
            }
        }
        f.blocks[b].insts = insts;
    }
    let entry = f.layout[0];
    let moves: Vec<Inst> = copy
        .iter()
        .zip(groups)
        .filter_map(|(v, (base, w))| {
            let v = (*v)?;
            let (op, src) = if w == 2 {
                (Opc::S_MOV_B64, PReg::S(base, 2))
            } else {
                (Opc::S_MOV_B32, PReg::S(base, 1))
            };
            let loc = f.blocks[entry]
                .insts
                .first()
                .map_or(kc_dialect::Loc::UNKNOWN, |i| i.loc);
            let mut i = Inst::new(op, vec![mir::r(v), mir::p(src)], loc);
            i.comment = Some("ABI input copied: the fork stack uses s[0:3] and up".into());
            Some(i)
        })
        .collect();
    f.blocks[entry].insts.splice(0..0, moves);
    Ok(())
}

/// Rewrites the pseudos of `regions` in one pass over the layout (blocks split and inserted
/// as the header shows).
fn rewrite(f: &mut Func, regions: &HashMap<VReg, Region>) {
    let exec = || mir::p(PReg::Exec);
    // Per block: the region whose else side it starts.
    let mut else_of: SecondaryMap<MBlock, Option<VReg>> = SecondaryMap::new();
    let mut jmp_of_mid: SecondaryMap<MBlock, Option<MBlock>> = SecondaryMap::new();
    for (&s, r) in regions {
        if let (Some(m), Some(j)) = (r.mid, r.jmp) {
            else_of[m] = Some(s);
            jmp_of_mid[m] = Some(j);
        }
    }
    let old = std::mem::take(&mut f.layout);
    let mut layout = Vec::with_capacity(old.len() + 3 * regions.len());
    let region_of = |o: Option<&Operand>| match o {
        Some(Operand::Reg {
            reg: Reg::Virt(v), ..
        }) => regions.get(v).map(|r| (*v, r)),
        _ => None,
    };
    for b in old {
        if let Some(s) = else_of[b] {
            // The then side ends by going to the join; no lane falls into the else side.
            let r = &regions[&s];
            let jmp = r
                .jmp
                .expect("a region with an else side has its jump block");
            if let Some(&prev) = layout.last() {
                let p: &mut mir::BlockData = &mut f.blocks[prev];
                p.lanes_stop = false;
                p.lanes_to.retain(|&t| t != r.end);
            }
            let loc = f.blocks[b]
                .insts
                .first()
                .map_or(kc_dialect::Loc::UNKNOWN, |i| i.loc);
            f.blocks[jmp].insts = vec![Inst::new(Opc::S_BRANCH, vec![Operand::Label(r.end)], loc)];
            layout.push(jmp);
        }
        // The listing says which scheme each divergent construct left here uses.
        if let Some(c) = f.blocks[b]
            .comment
            .as_mut()
            .filter(|c| c.contains("divergent"))
        {
            c.push_str(" (EXEC mask)");
        }
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let lanes_to = std::mem::take(&mut f.blocks[b].lanes_to);
        let lanes_stop = std::mem::replace(&mut f.blocks[b].lanes_stop, false);
        let mut cur = b;
        layout.push(cur);
        let mut out: Vec<Inst> = Vec::with_capacity(insts.len() + 4);
        let mut drop_skip = false;
        // Set when the last piece is a B2: its fail target.
        let mut b2_fail: Option<MBlock> = None;
        for mut inst in insts {
            if std::mem::take(&mut drop_skip) && inst.op == Opc::CF_SKIP {
                continue;
            }
            match inst.op {
                Opc::CF_IF | Opc::CF_IF_SIMPLE => {
                    if let Some((s, r)) = region_of(inst.ops.first()) {
                        let loc = inst.loc;
                        let mut getreg = Inst::new(
                            Opc::S_GETREG_B32,
                            vec![mir::r(r.csp), Operand::Imm(HWREG_CSP)],
                            loc,
                        );
                        getreg.comment = Some("divergent branch (FORK/JOIN): CSP".into());
                        out.push(getreg);
                        out.push(Inst::new(
                            Opc::S_MOV_B64,
                            vec![mir::r(s), Operand::Imm(0)],
                            loc,
                        ));
                        out.push(Inst::new(
                            Opc::S_CBRANCH_I_FORK,
                            vec![inst.ops[1].clone(), Operand::Label(r.then_)],
                            loc,
                        ));
                        drop_skip = true;
                        // The lanes of the other side go by B2 (a real edge now), so they no
                        // longer wait at `fail` from the fork block's end.
                        let fail = r.mid.unwrap_or(r.end);
                        f.blocks[cur].insts = std::mem::take(&mut out);
                        layout.push(r.b2);
                        cur = r.b2;
                        b2_fail = Some(fail);
                        out.push(Inst::new(Opc::S_BRANCH, vec![Operand::Label(fail)], loc));
                        continue;
                    }
                }
                Opc::CF_ELSE if region_of(inst.ops.first()).is_some() => {
                    drop_skip = true;
                    continue;
                }
                Opc::CF_END => {
                    if let Some((s, r)) = region_of(inst.ops.first()) {
                        let loc = inst.loc;
                        out.push(Inst::new(
                            Opc::S_OR_B64,
                            vec![mir::r(s), mir::r(s), exec()],
                            loc,
                        ));
                        let mut join = Inst::new(Opc::S_CBRANCH_JOIN, vec![mir::r(r.csp)], loc);
                        join.comment = Some("join (FORK/JOIN)".into());
                        out.push(join);
                        f.blocks[cur].insts = std::mem::take(&mut out);
                        f.blocks[cur].wave_to = vec![r.then_, r.b2];
                        let rest = f.new_block();
                        layout.push(rest);
                        cur = rest;
                        b2_fail = None;
                        out.push(Inst::new(Opc::S_MOV_B64, vec![exec(), mir::r(s)], loc));
                        continue;
                    }
                }
                Opc::CF_BREAK | Opc::CF_EXIT | Opc::CF_PARK | Opc::CF_LOOP => {
                    if let Some(c) = inst.comment.as_mut().filter(|c| c.contains("divergent")) {
                        c.push_str(" (EXEC mask)");
                    }
                }
                Opc::CF_SKIP => {
                    if let Some(Operand::Label(t)) = inst.ops.first() {
                        if let Some(j) = jmp_of_mid[*t] {
                            inst.ops[0] = Operand::Label(j);
                        }
                    }
                }
                _ => {}
            }
            out.push(inst);
        }
        // What was about the block's end is about its last piece.
        let last = &mut f.blocks[cur];
        last.insts = out;
        last.lanes_to = lanes_to;
        last.lanes_stop = lanes_stop;
        if let Some(fail) = b2_fail {
            last.lanes_to.retain(|&t| t != fail);
        }
    }
    f.layout = layout;
}

/// The FORK/JOIN stack entries a fork-join kernel needs kept: per fork region, the SGPRs
/// s[4L:4L+3] of its nesting level L over the positions from its fork to its join (liveness
/// numbering: `Cfg::start`; the region is contiguous in the layout). Forks and joins pair
/// like parentheses in layout order.
pub fn stack_reservations(f: &Func, start: &[u32]) -> Vec<(u16, (u32, u32))> {
    let mut out = Vec::new();
    let mut open: Vec<u32> = Vec::new();
    for (i, &b) in f.layout.iter().enumerate() {
        for (k, inst) in f.blocks[b].insts.iter().enumerate() {
            let pos = 2 * (start[i] + k as u32);
            match inst.op {
                Opc::S_CBRANCH_I_FORK | Opc::S_CBRANCH_G_FORK => open.push(pos),
                Opc::S_CBRANCH_JOIN => {
                    if let Some(from) = open.pop() {
                        let level = open.len() as u16;
                        for r in 0..4 {
                            out.push((4 * level + r, (from, pos + 1)));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// Does `f` use the FORK/JOIN stack?
pub fn has_forks(f: &Func) -> bool {
    f.layout.iter().any(|&b| {
        f.blocks[b]
            .insts
            .iter()
            .any(|i| matches!(i.op, Opc::S_CBRANCH_I_FORK | Opc::S_CBRANCH_G_FORK))
    })
}
