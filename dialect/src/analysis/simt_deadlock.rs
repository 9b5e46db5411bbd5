//! SIMT-induced deadlock detection (Algorithm 1 of seed 001, "MIMD Synchronization on SIMT
//! Architectures", MICRO 2016).
//!
//! A wave runs its lanes in lock step and reconverges where divergent paths meet: lanes that
//! leave a loop wait at its exit until every other lane has left too. A spin loop whose exit
//! waits on shared memory that only a lane *past* that exit writes (the lock release after a
//! spin-lock loop), or a lane in the *other arm* of an enclosing divergent branch (which runs
//! after this arm), never ends: the writer waits for the spinners, the spinners for the
//! writer. This analysis finds such loops.
//!
//! For every natural loop `L` of a CF kernel:
//! 1. `L` must be divergent (some exiting branch is divergent): a loop whose lanes all leave
//!    together cannot strand one of them.
//! 2. Spin reads: the shared-memory reads in `L` (`kernel.load`, `kernel.atomic`,
//!    `kernel.atomic_cmpxchg`, on global or workgroup memory) on which an exit condition of
//!    `L` depends: the backward slice of the exiting branches' conditions through operands
//!    and block arguments of blocks in `L`; a block argument in the slice brings in the
//!    conditions of every branch in `L` too (which edge passes which value is control
//!    dependence, like `done = true` under `if cas(..) == 0`).
//! 3. Releasing writes: stores and atomics in blocks *reachable* from the reconvergence point
//!    of `L`'s exits (their nearest common post-dominator) without crossing a barrier, outside
//!    `L`; and in blocks *parallel* to `L`: the other side of a divergent branch whose block
//!    dominates `L`'s header and whose reconvergence point does not.
//! 4. A releasing write that may alias a spin read (`memory_place::may_alias`: same base
//!    object, offsets not provably different, not both in each lane's own slot) makes `L` a
//!    potential deadlock.
//!
//! Pre: a verified CF kernel and its uniformity. Post: nothing changes; the result lists each
//! deadlocking loop with the reads it spins on and the writes that would release it.
//! Cost: one CFG, dominator and post-dominator tree and cycle forest per kernel. Each divergent
//! loop then costs its own size (the spin test and the slice stay inside it, with hash sets,
//! not kernel-sized tables); the reachability walk and the parallel-branch walks, linear in
//! the kernel, run only for loops whose exits depend on a shared-memory read (spin loops,
//! rare): O(kernel x nesting depth + kernel x spin loops) in all.

use crate::analysis::memory_place::{may_alias, place, Place};
use crate::analysis::{CycleId, CycleInfo, DomTree, RegionCfg, Uniformity};
use crate::entities::{Block, Op, Value};
use crate::ir::{Ir, ValueDef};
use crate::registry::Opcode;
use rustc_hash::FxHashSet;

/// A loop that can deadlock under lock-step execution.
#[derive(Clone, Debug)]
pub struct SpinLoop {
    /// The loop's header block.
    pub header: Block,
    /// The exiting branches of the loop.
    pub exits: Vec<Op>,
    /// Shared-memory reads in the loop its exits depend on, that a releasing write may alias.
    pub reads: Vec<Op>,
    /// The writes that may release it.
    pub writes: Vec<Release>,
}

/// A write that may release a spin loop.
#[derive(Clone, Debug)]
pub struct Release {
    pub write: Op,
    /// `None`: reachable from the loop's exits; `Some(b)`: in the other arm of the divergent
    /// branch `b` enclosing the loop.
    pub beside: Option<Op>,
}

fn is_read(ir: &Ir, op: Op) -> bool {
    matches!(
        ir.opcode(op),
        Opcode::Load | Opcode::Atomic | Opcode::AtomicCmpxchg | Opcode::AtomicLoad
    )
}

fn is_write(ir: &Ir, op: Op) -> bool {
    matches!(
        ir.opcode(op),
        Opcode::Store | Opcode::Atomic | Opcode::AtomicCmpxchg | Opcode::AtomicStore
    )
}

/// The spin loops of CF kernel `func` (empty for other kernels).
pub fn detect(ir: &Ir, func: Op, u: &Uniformity) -> Vec<SpinLoop> {
    let Some(&region) = ir.ops[func].regions.first() else {
        return Vec::new();
    };
    if !ir.is_cf_kernel(func) {
        return Vec::new();
    }
    let cfg = RegionCfg::compute(ir, region);
    if cfg.is_empty() {
        return Vec::new();
    }
    let dom = DomTree::dominators(&cfg);
    let pdom = DomTree::post_dominators(&cfg);
    let cycles = CycleInfo::compute(&cfg);
    let exits = cycles.all_exit_blocks(&cfg);
    let mut out = Vec::new();
    for c in 0..exits.len() {
        let c = CycleId(c as u32);
        let cy = cycles.cycle(c);
        if !cy.is_reducible() {
            continue;
        }
        let d = Detector {
            ir,
            cfg: &cfg,
            cycles: &cycles,
            cycle: c,
        };
        // Exiting branches; the loop must be divergent.
        let exiting: Vec<Op> = cycles
            .exiting_blocks(&cfg, c)
            .into_iter()
            .filter_map(|b| ir.terminator(cfg.blocks[b as usize]))
            .collect();
        if !exiting.iter().any(|&t| u.is_divergent_branch(t)) {
            continue;
        }
        if !d.can_spin() {
            continue;
        }
        let reads = d.spin_reads(&exiting);
        if reads.is_empty() {
            continue;
        }
        let mut candidates = Vec::new();
        if let Some(r) = reconvergence(&pdom, &exits[c.0 as usize]) {
            d.reachable_writes(r, &mut candidates);
        }
        d.parallel_writes(&dom, &pdom, u, &mut candidates);
        let read_places: Vec<(Op, Place)> = reads
            .iter()
            .filter_map(|&r| place(ir, r).map(|p| (r, p)))
            .collect();
        let mut writes = Vec::new();
        let mut hit = Vec::new();
        for rel in candidates {
            let Some(wp) = place(ir, rel.write) else {
                continue;
            };
            let mut any = false;
            for &(r, rp) in &read_places {
                if may_alias(rp, wp) {
                    any = true;
                    if !hit.contains(&r) {
                        hit.push(r);
                    }
                }
            }
            if any && !writes.iter().any(|w: &Release| w.write == rel.write) {
                writes.push(rel);
            }
        }
        if !writes.is_empty() {
            hit.sort_by_key(|&r| reads.iter().position(|&x| x == r));
            out.push(SpinLoop {
                header: cfg.blocks[cy.header() as usize],
                exits: exiting,
                reads: hit,
                writes,
            });
        }
    }
    out
}

/// The nearest common post-dominator of the exit blocks (not the virtual exit).
fn reconvergence(pdom: &DomTree, exits: &[u32]) -> Option<u32> {
    let mut it = exits.iter().copied().filter(|&e| pdom.is_reachable(e));
    let first = it.next()?;
    let r = it.fold(first, |a, b| pdom.common_dominator(a, b));
    (r != pdom.root()).then_some(r)
}

struct Detector<'a> {
    ir: &'a Ir,
    cfg: &'a RegionCfg,
    cycles: &'a CycleInfo,
    cycle: CycleId,
}

impl Detector<'_> {
    fn in_loop(&self, b: Block) -> bool {
        let n = self.cfg.index[b];
        n != u32::MAX && self.cycles.contains(self.cycle, n)
    }

    /// Whether a lane can go around the loop with its own state unchanged: some back edge
    /// passes every header argument a value equal to that argument on some path (the
    /// argument itself, possibly through block arguments of blocks in the loop). Then only
    /// memory another lane writes can make it leave: it spins. A loop that changes its state
    /// on every iteration (a counter, a pointer walking a list) makes progress by itself and
    /// cannot wait on another lane this way.
    fn can_spin(&self) -> bool {
        let ir = self.ir;
        let header_node = self.cycles.cycle(self.cycle).header();
        let header = self.cfg.blocks[header_node as usize];
        let args = &ir.blocks[header].args;
        let mut seen: FxHashSet<Value> = FxHashSet::default();
        self.cfg.preds[header_node as usize]
            .iter()
            .filter(|&&p| self.cycles.contains(self.cycle, p))
            .any(|&p| {
                let Some(t) = ir.terminator(self.cfg.blocks[p as usize]) else {
                    return false;
                };
                ir.ops[t]
                    .succs
                    .iter()
                    .filter(|s| s.block == header)
                    .any(|s| {
                        s.args
                            .iter()
                            .zip(args)
                            .all(|(&v, &a)| self.same_as(v, a, &mut seen))
                    })
            })
    }

    /// Whether `v` can equal header argument `a` on some path: `a` itself, or an argument of a
    /// block in the loop that some edge from inside the loop passes such a value. `seen`
    /// stops the walk at arguments already visited (a cycle of arguments passing each other).
    fn same_as(&self, v: Value, a: Value, seen: &mut FxHashSet<Value>) -> bool {
        let ir = self.ir;
        let mut work = vec![v];
        let mut visited = Vec::new();
        let mut found = false;
        while let Some(x) = work.pop() {
            if x == a {
                found = true;
                break;
            }
            let ValueDef::BlockArg(b, i) = ir.values[x].def else {
                continue;
            };
            if !self.in_loop(b) || !seen.insert(x) {
                continue;
            }
            visited.push(x);
            let n = self.cfg.index[b];
            for &p in &self.cfg.preds[n as usize] {
                if !self.cycles.contains(self.cycle, p) {
                    continue;
                }
                let Some(t) = ir.terminator(self.cfg.blocks[p as usize]) else {
                    continue;
                };
                for s in ir.ops[t].succs.iter().filter(|s| s.block == b) {
                    if let Some(&y) = s.args.get(i as usize) {
                        work.push(y);
                    }
                }
            }
        }
        for x in visited {
            seen.remove(&x);
        }
        found
    }

    /// Step 2: the shared-memory reads in the loop the exit conditions depend on.
    fn spin_reads(&self, exiting: &[Op]) -> Vec<Op> {
        let ir = self.ir;
        let mut seen: FxHashSet<Value> = FxHashSet::default();
        let mut work: Vec<Value> = Vec::new();
        let mut reads = Vec::new();
        let mut branches_added = false;
        let push = |v: Value, seen: &mut FxHashSet<Value>, work: &mut Vec<Value>| {
            if seen.insert(v) {
                work.push(v);
            }
        };
        for &t in exiting {
            if let Some(&c) = ir.ops[t].operands.first() {
                push(c, &mut seen, &mut work);
            }
        }
        while let Some(v) = work.pop() {
            match ir.values[v].def {
                ValueDef::Result(o, _) => {
                    let Some(b) = ir.op_block(o) else { continue };
                    if !self.in_loop(b) {
                        continue;
                    }
                    if is_read(ir, o) && place(ir, o).is_some() {
                        reads.push(o);
                    }
                    for &a in &ir.ops[o].operands {
                        push(a, &mut seen, &mut work);
                    }
                }
                ValueDef::BlockArg(b, i) => {
                    if !self.in_loop(b) {
                        continue;
                    }
                    let n = self.cfg.index[b];
                    for &p in &self.cfg.preds[n as usize] {
                        let pb = self.cfg.blocks[p as usize];
                        let Some(t) = ir.terminator(pb) else { continue };
                        for s in ir.ops[t].succs.iter().filter(|s| s.block == b) {
                            if let Some(&a) = s.args.get(i as usize) {
                                push(a, &mut seen, &mut work);
                            }
                        }
                    }
                    // Which edge passes which value: the branches of the loop decide.
                    if !branches_added {
                        branches_added = true;
                        for &n in self.cycles.block_slice(self.cycle) {
                            let Some(t) = ir.terminator(self.cfg.blocks[n as usize]) else {
                                continue;
                            };
                            if ir.ops[t].succs.len() > 1 {
                                if let Some(&c) = ir.ops[t].operands.first() {
                                    push(c, &mut seen, &mut work);
                                }
                            }
                        }
                    }
                }
            }
        }
        reads.sort();
        reads.dedup();
        reads
    }

    /// Step 3, reachable: writes in blocks reachable from node `r` without crossing a barrier
    /// (a block's ops after a barrier, and its successors, are not), outside the loop.
    fn reachable_writes(&self, r: u32, out: &mut Vec<Release>) {
        let ir = self.ir;
        let mut seen = vec![false; self.cfg.len()];
        let mut stack = vec![r];
        seen[r as usize] = true;
        while let Some(n) = stack.pop() {
            let b = self.cfg.blocks[n as usize];
            let mut blocked = false;
            if !self.cycles.contains(self.cycle, n) {
                for o in ir.block_ops(b) {
                    if ir.opcode(o) == Opcode::Barrier {
                        blocked = true;
                        break;
                    }
                    if is_write(ir, o) {
                        out.push(Release {
                            write: o,
                            beside: None,
                        });
                    }
                }
            }
            if blocked {
                continue;
            }
            for &s in &self.cfg.succs[n as usize] {
                if !seen[s as usize] {
                    seen[s as usize] = true;
                    stack.push(s);
                }
            }
        }
    }

    /// Step 3, parallel: for each divergent branch whose block dominates the header and whose
    /// reconvergence point does not, the writes on the side that does not lead to the loop
    /// (walked up to that reconvergence point).
    fn parallel_writes(
        &self,
        dom: &DomTree,
        pdom: &DomTree,
        u: &Uniformity,
        out: &mut Vec<Release>,
    ) {
        let ir = self.ir;
        let header = self.cycles.cycle(self.cycle).header();
        let mut x = dom.idom(header);
        while let Some(n) = x {
            x = dom.idom(n);
            let Some(t) = ir.terminator(self.cfg.blocks[n as usize]) else {
                continue;
            };
            if self.cfg.succs[n as usize].len() < 2 || !u.is_divergent_branch(t) {
                continue;
            }
            let join = pdom.idom(n).filter(|&j| j != pdom.root());
            if join.is_some_and(|j| dom.dominates(j, header)) {
                continue;
            }
            // The sides: blocks reachable from each successor before the join.
            let sides: Vec<Vec<u32>> = self.cfg.succs[n as usize]
                .iter()
                .map(|&s| self.walk_until(s, join))
                .collect();
            let with_loop: Vec<bool> = sides.iter().map(|s| s.contains(&header)).collect();
            if with_loop.iter().filter(|&&w| w).count() != 1 {
                continue;
            }
            let mut loop_side = vec![false; self.cfg.len()];
            for (side, _) in sides.iter().zip(&with_loop).filter(|(_, &h)| h) {
                for &m in side {
                    loop_side[m as usize] = true;
                }
            }
            for (side, &has) in sides.iter().zip(&with_loop) {
                if has {
                    continue;
                }
                for &m in side {
                    if loop_side[m as usize] {
                        continue; // on both sides: not parallel
                    }
                    for o in ir.block_ops(self.cfg.blocks[m as usize]) {
                        if is_write(ir, o) {
                            out.push(Release {
                                write: o,
                                beside: Some(t),
                            });
                        }
                    }
                }
            }
        }
    }

    /// Nodes reachable from `from` without passing `stop`.
    fn walk_until(&self, from: u32, stop: Option<u32>) -> Vec<u32> {
        let mut seen = vec![false; self.cfg.len()];
        let mut out = Vec::new();
        if Some(from) == stop {
            return out;
        }
        let mut stack = vec![from];
        seen[from as usize] = true;
        while let Some(n) = stack.pop() {
            out.push(n);
            for &s in &self.cfg.succs[n as usize] {
                if Some(s) != stop && !seen[s as usize] {
                    seen[s as usize] = true;
                    stack.push(s);
                }
            }
        }
        out
    }
}
