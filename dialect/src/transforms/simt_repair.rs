//! simt-repair: SIMT-induced deadlock elimination (Algorithms 2 and 3 of seed 001, "MIMD
//! Synchronization on SIMT Architectures").
//!
//! A spin loop found by `analysis::simt_deadlock` waits for a write that only a lane past its
//! exit (or in the other arm of an enclosing divergent branch) makes, while lock-step
//! execution holds that lane at the exit until the spinners leave. The repair moves the
//! loop's back edge past that write: the back edge enters a *switch block* placed at a safe
//! reconvergence point, and the switch sends each lane on: back to the loop header if it came
//! from the back edge, on to the rest of the kernel otherwise. The winner's path from the loop
//! exit to the release is then inside the loop, so the losers wait in the switch block while
//! the winner runs the critical section and the release, and then retry.
//!
//! **SafePDom** (Algorithm 2), at op granularity: start at the reconvergence point of the
//! loop's exits (their nearest common post-dominator); for every releasing write move it to
//! the nearest point that post-dominates both it and the point after the write, and for a
//! write after the loop also past every conditional branch on a path from the exits to the
//! write, for a write in a parallel arm past the branch that splits the arms. The point must
//! lie inside every loop that encloses the spin loop (the paper's
//! `resolve_SafePDom_conflicts`: otherwise the new back edge would leave the enclosing loop),
//! and inside no other cycle: a point in a loop after the exit moves past that loop, which
//! then nests in the repaired one (a switch block inside it would be its second entry).
//!
//! **Switch block** (Algorithm 3): the block at the point is split there if the point is not
//! its start; a hub (`control_flow_hub`, the `i32` selector as the paper's PHI `cond`, a
//! `cf.cond_br` on `sel == 0` as its switch) takes every edge into the point's block
//! (selector 0, the default: go on) and every back edge of the loop (selector 1: the header,
//! with the header's arguments in its slot).
//!
//! **SSA**: a value whose block does not dominate every edge into the switch block but is read
//! after it becomes an extra switch argument (`<name>.spin`): the edges whose source its
//! block dominates pass it, the others (they come round the loop, where the value is never
//! read before being defined again) a placeholder.
//!
//! **Refusals** (the kernel is left as it was and the caller is told why): no point inside
//! the enclosing loops; the kernel's end as the only common post-dominator; a convergent op,
//! a convergence-control op or a token between the loop exit and the point (putting it in
//! the loop would change which lanes execute it together: the loop heart keeps its meaning
//! only if nothing convergent joins the loop); a token, or a pointer with no placeholder,
//! that would have to cross the switch; a value read at a join past the switch also reached
//! without passing it; and, as a safety net, a repaired kernel that fails the verifier or the
//! token rules (the kernel is restored and the note says what failed).
//!
//! Pre: a verified CF kernel. Post: the kernel verifies, passes the token rules, computes
//! what it did on a machine with fair scheduling (seed 001's Theorem 1: the transformation
//! adds no behaviour a MIMD machine would not have), and no repaired loop is reported by
//! `simt_deadlock::detect` for the same write again (the write is now in the loop).
//! Cost: each repaired loop recomputes the uniformity, the CFG and its trees, walks the
//! kernel a constant number of times, and copies and verifies the module (to restore it when
//! the result is invalid): O(module x spin loops).

use super::control_flow_hub::{Carried, Consts, Edge, Hub, HubNames};
use crate::analysis::simt_deadlock::{self, SpinLoop};
use crate::analysis::{CycleId, CycleInfo, DomTree, RegionCfg, Uniformity};
use crate::entities::{Block, Op, Value};
use crate::ir::Ir;
use crate::location::Loc;
use crate::registry::{Opcode, Traits};
use crate::types::Type;

/// What happened to one spin loop.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The loop's header.
    pub header: Block,
    /// `Ok(loc)`: repaired, the switch block placed before the op at `loc` (unknown: at the
    /// start of a block without ops of known location); `Err(why)`: left as it was.
    pub result: Result<Loc, String>,
}

/// Repairs every spin loop of CF kernel `func`, one at a time (each repair changes the CFG,
/// so the next one is detected again on the new kernel).
pub fn simt_repair(ir: &mut Ir, func: Op) -> Vec<Outcome> {
    let mut out: Vec<Outcome> = Vec::new();
    loop {
        let Ok(u) = Uniformity::compute(ir, func) else {
            return out;
        };
        let spins = simt_deadlock::detect(ir, func, &u);
        let Some(spin) = spins
            .into_iter()
            .find(|s| !out.iter().any(|o| o.header == s.header))
        else {
            return out;
        };
        let result = repair_checked(ir, func, &spin);
        out.push(Outcome {
            header: spin.header,
            result,
        });
    }
}

/// [`repair`], committed only if the kernel then passes the verifier and the token rules:
/// otherwise (and when the repair declines half-way) the kernel is restored as it was and the
/// outcome says why. The safety net for a construction the repair got wrong: the caller would
/// otherwise stop on IR kc itself made invalid.
fn repair_checked(ir: &mut Ir, func: Op, spin: &SpinLoop) -> Result<Loc, String> {
    let saved = ir.clone();
    let result = repair(ir, func, spin).and_then(|loc| match first_error(ir, func) {
        None => Ok(loc),
        Some(e) => Err(format!(
            "the repaired kernel would be invalid ({e}), so it is left as it was"
        )),
    });
    if result.is_err() {
        *ir = saved;
    }
    result
}

/// The first verifier or token-rule error in kernel `func`, if any (errors in other kernels
/// are not the repair's).
fn first_error(ir: &Ir, func: Op) -> Option<String> {
    let in_func = |e: &crate::verify::VerifyError| {
        let mut o = Some(e.op);
        while let Some(x) = o {
            if x == func {
                return true;
            }
            o = ir.parent_op(x);
        }
        false
    };
    let find = |r: Result<(), Vec<crate::verify::VerifyError>>| {
        r.err()
            .and_then(|es| es.into_iter().find(in_func))
            .map(|e| e.message)
    };
    find(crate::verify::verify(ir)).or_else(|| find(crate::verify_tokens::verify_tokens(ir)))
}

/// A program point: before op number `index` of block node `block` (`index` = the number of
/// ops: the end).
#[derive(Copy, Clone, Debug, PartialEq)]
struct Point {
    block: u32,
    index: usize,
}

struct Graph {
    cfg: RegionCfg,
    dom: DomTree,
    pdom: DomTree,
    cycles: CycleInfo,
}

impl Graph {
    fn of(ir: &Ir, func: Op) -> Graph {
        let cfg = RegionCfg::compute(ir, ir.ops[func].regions[0]);
        Graph {
            dom: DomTree::dominators(&cfg),
            pdom: DomTree::post_dominators(&cfg),
            cycles: CycleInfo::compute(&cfg),
            cfg,
        }
    }

    /// The cycle whose header is node `header`.
    fn loop_of(&self, header: u32) -> Option<CycleId> {
        let mut c = self.cycles.innermost(header);
        while let Some(x) = c {
            if self.cycles.cycle(x).header() == header {
                return Some(x);
            }
            c = self.cycles.cycle(x).parent;
        }
        None
    }

    /// The nearest point that post-dominates both `a` and `b`; `None` if only the kernel's
    /// end does.
    fn join(&self, a: Point, b: Point) -> Option<Point> {
        if a.block == b.block {
            return Some(if a.index >= b.index { a } else { b });
        }
        let c = self.pdom.common_dominator(a.block, b.block);
        if c == self.pdom.root() {
            None
        } else if c == a.block {
            Some(a)
        } else if c == b.block {
            Some(b)
        } else {
            Some(Point { block: c, index: 0 })
        }
    }

    /// The start of the immediate post-dominator of `n` (the reconvergence point of its
    /// branch).
    fn after_branch(&self, n: u32) -> Option<Point> {
        let j = self.pdom.idom(n).filter(|&j| j != self.pdom.root())?;
        Some(Point { block: j, index: 0 })
    }

    /// Nodes reachable from `from` along successors without passing `avoid`.
    fn reach_avoiding(&self, from: u32, avoid: u32) -> Vec<bool> {
        let mut seen = vec![false; self.cfg.len()];
        if from == avoid {
            return seen;
        }
        let mut stack = vec![from];
        seen[from as usize] = true;
        while let Some(n) = stack.pop() {
            for &s in &self.cfg.succs[n as usize] {
                if s != avoid && !seen[s as usize] {
                    seen[s as usize] = true;
                    stack.push(s);
                }
            }
        }
        seen
    }

    /// Nodes reachable from `from` (forward, or backward along predecessors) through nodes
    /// `keep` accepts.
    fn reach_within(&self, from: u32, forward: bool, keep: &dyn Fn(u32) -> bool) -> Vec<bool> {
        let mut seen = vec![false; self.cfg.len()];
        let mut stack = vec![from];
        seen[from as usize] = true;
        while let Some(n) = stack.pop() {
            let next = if forward {
                &self.cfg.succs[n as usize]
            } else {
                &self.cfg.preds[n as usize]
            };
            for &s in next {
                if !seen[s as usize] && keep(s) {
                    seen[s as usize] = true;
                    stack.push(s);
                }
            }
        }
        seen
    }
}

fn position(ir: &Ir, op: Op) -> (Block, usize) {
    let b = ir.op_block(op).expect("a linked op");
    let i = ir
        .block_ops(b)
        .position(|o| o == op)
        .expect("op in its block");
    (b, i)
}

/// Repairs one spin loop; the switch block's location, or why not.
fn repair(ir: &mut Ir, func: Op, spin: &SpinLoop) -> Result<Loc, String> {
    let g = Graph::of(ir, func);
    let header = g.cfg.node(spin.header).ok_or("its header is unreachable")?;
    let c = g.loop_of(header).ok_or("it is no natural loop")?;
    let point = safe_point(ir, &g, c, spin)?;
    let hearts = check_region(ir, func, &g, c, point)?;
    let outer_heart = heart_of(ir, spin.header);
    if !hearts.is_empty() && outer_heart.is_none() {
        return Err("a loop after it has a heart, and the spin loop has none to nest it in".into());
    }
    // Split the point's block there, so that the switch block goes before a block start.
    let pb = g.cfg.blocks[point.block as usize];
    let target = if point.index == 0 {
        pb
    } else {
        split(ir, pb, point.index)
    };
    // The split renumbers the nodes after it: look the loop up again by its header block.
    let g = Graph::of(ir, func);
    let target_n = g.cfg.node(target).expect("a reachable block");
    let header = g.cfg.node(spin.header).expect("a reachable header");
    let c = g
        .loop_of(header)
        .ok_or("it is no natural loop after the split")?;
    let h = g.cfg.blocks[header as usize];
    // The edges the switch takes: into the target (selector 0), the loop's back edges (1).
    let mut edges: Vec<(Edge, usize, u32)> = Vec::new();
    for (n, &b) in g.cfg.blocks.iter().enumerate() {
        let Some(term) = ir.terminator(b) else {
            continue;
        };
        for (s, succ) in ir.ops[term].succs.iter().enumerate() {
            let back = succ.block == h && g.cycles.contains(c, n as u32);
            // Edges into the target from code the loop does not dominate stay direct: they
            // do not come round the loop, and through the switch they would enter the loop a
            // second way (an irreducible cycle).
            if succ.block == target && g.dom.dominates(header, n as u32) {
                edges.push((Edge { term, succ: s }, 0, n as u32));
            } else if back {
                edges.push((Edge { term, succ: s }, 1, n as u32));
            }
        }
    }
    let common = edges
        .iter()
        .map(|e| e.2)
        .reduce(|a, b| g.dom.common_dominator(a, b))
        .ok_or("nothing enters the switch point")?;
    let moved = values_to_move(ir, func, &g, common, target_n)?;
    let mut consts = Consts::new(ir, func);
    let mut types: Vec<Type> = ir.blocks[target]
        .args
        .iter()
        .chain(&ir.blocks[h].args)
        .map(|&a| ir.value_type(a))
        .collect();
    types.extend(moved.iter().map(|m| ir.value_type(m.value)));
    let placeholders = consts
        .placeholders(ir, func, &types)
        .ok_or("a pointer would cross the switch block and no value can stand in for it")?;
    let extra = Carried::extra(ir, &moved, "spin");
    let loc = ir
        .block_ops(target)
        .map(|o| ir.ops[o].loc)
        .find(|l| l.is_known())
        .unwrap_or(Loc::UNKNOWN);
    let names = HubNames {
        block: "simt.switch",
        selector: "simt.sel",
        slot_suffix: "spin",
    };
    let before = layout_pred(ir, target).unwrap_or(h);
    let hub = Hub::build(ir, &mut consts, &names, &[target, h], &extra, before, loc);
    for (edge, j, from) in edges {
        let values = Carried::passed(ir, &moved, &g.dom, from, &placeholders);
        hub.redirect(ir, &mut consts, &placeholders, edge, j, values);
    }
    Carried::read_from(ir, &moved, &hub);
    if let Some(t) = outer_heart {
        for h in hearts {
            ir.ops[h].operands[0] = t;
        }
    }
    Ok(loc)
}

/// Algorithm 2: the safe reconvergence point of loop `c`.
fn safe_point(ir: &Ir, g: &Graph, c: CycleId, spin: &SpinLoop) -> Result<Point, String> {
    let no_point = || "no point after the release post-dominates the loop".to_string();
    let exits = g.cycles.exit_blocks(&g.cfg, c);
    let mut r = None;
    for &e in &exits {
        r = Some(match r {
            None => e,
            Some(x) => g.pdom.common_dominator(x, e),
        });
    }
    let r = r.filter(|&r| r != g.pdom.root()).ok_or_else(no_point)?;
    let mut p = Point { block: r, index: 0 };
    // Paths that enter the loop again (round an enclosing loop) are later iterations: the
    // paths from the exits to a write are the ones that stay out of the loop.
    let outside = |n: u32| !g.cycles.contains(c, n);
    let from_r = g.reach_within(r, true, &outside);
    for w in &spin.writes {
        let (b, i) = position(ir, w.write);
        let bn = g.cfg.node(b).ok_or_else(no_point)?;
        p = g
            .join(
                p,
                Point {
                    block: bn,
                    index: i + 1,
                },
            )
            .ok_or_else(no_point)?;
        let branches: Vec<u32> = match w.beside {
            Some(t) => ir
                .op_block(t)
                .and_then(|tb| g.cfg.node(tb))
                .into_iter()
                .collect(),
            None => {
                if !from_r[bn as usize] {
                    return Err(
                        "the write that releases it is only reached by entering the \
                                loop again (round an enclosing loop)"
                            .into(),
                    );
                }
                // The conditional branches on a path from the exits' reconvergence to the write.
                let to_w = g.reach_within(bn, false, &outside);
                (0..g.cfg.len() as u32)
                    .filter(|&n| from_r[n as usize] && to_w[n as usize])
                    .filter(|&n| g.cfg.succs[n as usize].len() > 1 && n != bn)
                    .collect()
            }
        };
        for n in branches {
            let q = g.after_branch(n).ok_or_else(no_point)?;
            p = g.join(p, q).ok_or_else(no_point)?;
        }
    }
    // A point inside a cycle the spin loop is not in (a loop after its exit, around or before
    // the release) moves past that cycle, to the reconvergence of its exits: the switch block
    // inside it would be a second entry of it (the spin loop's back edges enter the switch),
    // an irreducible cycle whose heart no longer dominates it. Past it, the whole cycle nests
    // in the repaired loop. Each step moves the point down the post-dominator tree.
    let header = g.cycles.cycle(c).header();
    while let Some(x) = g.cycles.outermost_excluding(p.block, header) {
        let r = g
            .cycles
            .exit_blocks(&g.cfg, x)
            .into_iter()
            .reduce(|a, b| g.pdom.common_dominator(a, b))
            .filter(|&r| r != g.pdom.root())
            .ok_or_else(no_point)?;
        let q = g
            .join(p, Point { block: r, index: 0 })
            .ok_or_else(no_point)?;
        if q == p {
            return Err(no_point());
        }
        p = q;
    }
    // The point must stay inside every loop around the spin loop, and outside it.
    if g.cycles.contains(c, p.block) {
        return Err(no_point());
    }
    if let Some(parent) = g.cycles.cycle(c).parent {
        if !g.cycles.contains(parent, p.block) {
            return Err(
                "the write that releases it runs after the loop that encloses it (the switch \
                 block would have to leave that loop)"
                    .into(),
            );
        }
    }
    Ok(p)
}

/// Whether an op may not join the loop: convergent, convergence control, or using or making
/// a token.
fn convergence_bound(ir: &Ir, op: Op) -> bool {
    let spec = ir.spec(op);
    spec.has(Traits::CONVERGENT)
        || spec.has(Traits::CO_CONVERGENT)
        || spec.dialect() == "conv"
        || ir.ops[op]
            .operands
            .iter()
            .chain(&ir.ops[op].results)
            .any(|&v| ir.value_type(v) == Type::Token)
}

/// The ops the repair puts into the loop (from its exits up to the point) may join it. A
/// loop heart there is fine when only other hearts use its token (a loop with no convergent
/// op: which lanes run its iterations together is not observable); such a heart whose token
/// comes from outside the spin loop is returned, to be re-parented to the spin loop's heart
/// (a heart nested in a cycle must take its token from inside that cycle).
fn check_region(ir: &Ir, func: Op, g: &Graph, c: CycleId, p: Point) -> Result<Vec<Op>, String> {
    let users = ir.users(func);
    let mut seen = vec![false; g.cfg.len()];
    let mut stack: Vec<u32> = g.cycles.exit_blocks(&g.cfg, c);
    for &n in &stack {
        seen[n as usize] = true;
    }
    let mut hearts = Vec::new();
    // Only hearts reading hearts: a loop heart whose token nothing convergent uses.
    let idle_heart = |o: Op| {
        let mut work = vec![o];
        let mut n = 0;
        while let Some(h) = work.pop() {
            n += 1;
            if ir.opcode(h) != Opcode::ConvLoop || n > g.cfg.len() * 4 + 16 {
                return false;
            }
            work.extend(users[ir.ops[h].results[0]].iter().copied());
        }
        true
    };
    // The region: blocks reachable from the exits without entering the loop, up to the point.
    let mut region = Vec::new();
    while let Some(n) = stack.pop() {
        region.push(n);
        if n == p.block {
            continue;
        }
        for &s in &g.cfg.succs[n as usize] {
            if !seen[s as usize] && !g.cycles.contains(c, s) {
                seen[s as usize] = true;
                stack.push(s);
            }
        }
    }
    // Every block the repair puts into the loop must be reached only through it: a block
    // also entered from elsewhere would become a second entry of the loop.
    let header = g.cycles.cycle(c).header();
    if let Some(&n) = region
        .iter()
        .find(|&&n| (n != p.block || p.index > 0) && !g.dom.dominates(header, n))
    {
        let at = ir
            .block_ops(g.cfg.blocks[n as usize])
            .map(|o| ir.ops[o].loc)
            .find(|l| l.is_known())
            .unwrap_or(Loc::UNKNOWN);
        return Err(format!(
            "code between the loop and the release (at {}:{}) is also reached without going \
             through the loop",
            at.line, at.col
        ));
    }
    for &n in &region {
        let b = g.cfg.blocks[n as usize];
        let take = if n == p.block { p.index } else { usize::MAX };
        for o in ir.block_ops(b).take(take) {
            if ir.opcode(o) == Opcode::ConvLoop && idle_heart(o) {
                let t = ir.ops[o].operands[0];
                let outside = ir
                    .value_block(t)
                    .and_then(|tb| g.cfg.node(tb))
                    .is_none_or(|tn| !g.cycles.contains(c, tn) && !seen[tn as usize]);
                if outside {
                    hearts.push(o);
                }
                continue;
            }
            if convergence_bound(ir, o) {
                let at = ir.ops[o].loc;
                return Err(format!(
                    "the repair would bring `{}` at {}:{} into the loop, changing which lanes \
                     execute it together",
                    ir.spec(o).name,
                    at.line,
                    at.col
                ));
            }
        }
    }
    Ok(hearts)
}

/// The loop heart in block `h` (the spin loop's header), if it has one.
fn heart_of(ir: &Ir, h: Block) -> Option<Value> {
    ir.block_ops(h)
        .find(|&o| ir.opcode(o) == Opcode::ConvLoop)
        .map(|o| ir.ops[o].results[0])
}

/// Splits `block` before its op number `index`; the ops from there on move to a new block
/// right after it, which `block` now branches to. Returns the new block.
fn split(ir: &mut Ir, block: Block, index: usize) -> Block {
    let tail: Vec<Op> = ir.block_ops(block).skip(index).collect();
    let next = ir.create_block();
    ir.blocks[next].name = ir.blocks[block].name.clone();
    ir.insert_block_after(next, block);
    let loc = ir.ops[tail[0]].loc;
    for o in tail {
        ir.move_op_to_end(o, next);
    }
    let br = ir.create_op(Opcode::Br, &[], &[], loc);
    ir.append_op(block, br);
    ir.add_successor(br, next, &[]);
    next
}

/// The block before `b` in its region's layout.
fn layout_pred(ir: &Ir, b: Block) -> Option<Block> {
    let r = ir.block_region(b)?;
    let mut prev = None;
    for x in ir.region_blocks(r) {
        if x == b {
            return prev;
        }
        prev = Some(x);
    }
    None
}

/// The values defined in blocks that do not dominate `common` (every edge into the switch
/// block comes from a block it dominates) and read in blocks dominated by `target`. A token
/// among them, or a read at a join past the switch that a path from `target` reaches without
/// passing the value's block (and `target` does not dominate), is a refusal.
fn values_to_move(
    ir: &Ir,
    func: Op,
    g: &Graph,
    common: u32,
    target: u32,
) -> Result<Vec<Carried>, String> {
    let users = ir.users(func);
    let mut moved = Vec::new();
    for (n, &b) in g.cfg.blocks.iter().enumerate() {
        let n = n as u32;
        // Blocks at or after the target define their values after the switch.
        if g.dom.dominates(n, common) || g.dom.dominates(target, n) || !g.dom.is_reachable(n) {
            continue;
        }
        let results: Vec<Value> = ir
            .block_ops(b)
            .flat_map(|o| ir.ops[o].results.iter().copied())
            .collect();
        for value in ir.blocks[b].args.iter().copied().chain(results) {
            let mut after = Vec::new();
            let mut elsewhere = Vec::new();
            for &o in &users[value] {
                let Some(un) = ir.op_block(o).and_then(|ub| g.cfg.node(ub)) else {
                    continue;
                };
                if g.dom.dominates(target, un) {
                    after.push(o);
                } else {
                    elsewhere.push(un);
                }
            }
            if after.is_empty() {
                continue;
            }
            if ir.value_type(value) == Type::Token {
                return Err("a convergence token would have to cross the switch block".into());
            }
            if !elsewhere.is_empty() {
                let reached = g.reach_avoiding(target, n);
                if elsewhere.iter().any(|&u| reached[u as usize]) {
                    return Err(
                        "a value would reach a join past the switch block both through \
                                it and around it"
                            .into(),
                    );
                }
            }
            moved.push(Carried {
                value,
                def: n,
                uses: after,
            });
        }
    }
    Ok(moved)
}
