//! Uniformity analysis of a CF-form kernel: which values, block arguments and branches are
//! uniform (the same in all converged threads) and which are divergent.
//!
//! Semantics: LLVM's "Convergence And Uniformity" (maximal convergence, m-converged static
//! instances), with controlled convergence when the kernel carries tokens. The algorithm is
//! LLVM's GenericUniformityImpl:
//! - *Seeds.* Results of `DIVERGENCE_SOURCE` ops (work-item and lane ids, atomics) are
//!   divergent (a shuffle is not one: a uniform value read at a uniform lane is the same in
//!   every reader). `ALWAYS_UNIFORM` ops (work-group ids, readfirstlane, ballot, wave
//!   reductions, ...) and constants never are, not even in a cycle assumed divergent.
//!   Kernel arguments are uniform.
//! - *Data.* An op with a divergent operand has divergent results; a successor argument that
//!   is divergent makes the target's block argument divergent. A `cf.cond_br` with a
//!   divergent condition is a divergent branch.
//! - *Sync dependence.* For a divergent branch, the block arguments of its join blocks
//!   ([`SyncDependence`]) become divergent, except those whose incoming values are one and
//!   the same constant.
//! - *Irreducible cycles.* A join inside an irreducible cycle that fails the diverged-entry
//!   criterion (simplified dominance form), or that paths diverged outside the cycle reach,
//!   makes every definition in the outermost such cycle divergent ("assumed divergent"). So
//!   does a join at the header of a reducible cycle that a diverged path left and re-entered
//!   through an irreducible parent (the document's "the diverged path may re-enter and
//!   eventually reach a join within the cycle"). The values of such a cycle that stay uniform
//!   (results of always-uniform ops) were computed by threads that were not converged: their
//!   uses outside the cycle are divergent.
//! - *Divergent exits and temporal divergence.* For the outermost cycle a divergent exit
//!   leaves, every use outside the cycle of a value defined in it (through an exit block
//!   argument or directly) is divergent: threads left on different iterations. Constants
//!   are exempt (the same on every iteration; LLVM folds them). Cycles inside a cycle
//!   assumed divergent are no exception (LLVM 22 skips them, which is unsound for the
//!   always-uniform values defined there, and order-dependent).
//!
//! kc departs from LLVM 22 in four sound ways (tested, with LLVM 22's verdict for contrast, in
//! tests/filetests/uniformity_llvm/kc_departures.mlir, tests/filetests/uniformity_diff/ and,
//! for the last, tests/filetests/uniformity_seed/re_entry.mlir):
//! - Block arguments of a divergent cycle exit whose incoming values differ (over the edges
//!   from blocks the divergent branch reaches) are divergent, even when they are constants or
//!   defined outside the cycle; LLVM misses these (#216100).
//! - With tokens, a use outside a cycle that lies in the convergence region of the cycle's
//!   heart token is not temporally divergent: threads are converged there only if they left
//!   on the same iteration (ConvergentOperations, controlled m-converged). A value computed
//!   there from the cycle's values (by any op, readfirstlane included) holds one iteration's
//!   value, so its uses after the region are temporally divergent, and a branch on it in the
//!   region is divergent (LLVM 22, which has no token logic, calls such a readfirstlane
//!   uniform after the region: unsound).
//! - `kernel.reduce` is always uniform (a wave reduction gives every active lane the same
//!   value); LLVM 22 calls `wave.reduce` of a divergent input divergent.
//! - A join at the header of a reducible cycle, reached by a diverged path that left the
//!   cycle and came back through another entry of an enclosing irreducible cycle, is checked
//!   against the diverged-entry criterion on the enclosing cycles. LLVM 22 accepts the
//!   reducible cycle there, so its verdicts on such a region depend on the DFS order.
//!
//! kc also avoids two LLVM 22 bugs. LLVM finds the outermost cycle a divergent exit leaves by
//! comparing loop depths with the exit block's cycle, which stops too early when the exit
//! block heads a cycle of its own; kc tests containment
//! (tests/filetests/uniformity_llvm/exit_into_sibling_cycle.mlir, and against LLVM 22's
//! verdicts tests/filetests/uniformity_diff/exit_into_cycle.mlir). LLVM skips the divergent
//! exits of assumed-divergent cycles, so a use after the cycle of an always-uniform value
//! computed in it is divergent or not depending on the worklist order; kc marks it in any
//! order (tests/filetests/uniformity_seed/always_uniform_in_divergent_cycle.mlir).
//!
//! Pre: `func` is a `kernel.func` in CF form (one region, no structured ops); the IR verifies.
//! Post: every value of the kernel has a verdict and, if divergent, a [`Reason`] whose
//! operands were divergent before it (so reasons form an acyclic explanation). The result
//! does not depend on successor order outside irreducible cycles (tested).

use super::cfg::RegionCfg;
use super::cycles::{CycleId, CycleInfo};
use super::dominance::DomTree;
use super::sync_dependence::SyncDependence;
use crate::attrs::Attr;
use crate::entities::{Block, Op, Value};
use crate::ir::{Event, Ir, ValueDef};
use crate::registry::{Opcode, Traits};
use crate::types::Type;
use cranelift_entity::{EntityRef, SecondaryMap};
use rustc_hash::FxHashSet as HashSet;

/// Why a value (or branch) is divergent. Every variant points at things that became
/// divergent earlier, so following reasons terminates at a `Source`.
#[derive(Clone, Debug, PartialEq)]
pub enum Reason {
    /// Result of a divergence source.
    Source(Op),
    /// Result of `op`, whose operand `operand` is divergent (for a branch: its condition).
    Operand { op: Op, operand: Value },
    /// Block argument that receives the divergent `value` from terminator `from`.
    Incoming { from: Op, value: Value },
    /// Block argument of `block`, a join of the divergent branch `branch`.
    Join { branch: Op, block: Block },
    /// Block argument of `block`, an exit of `cycle` that the divergent branch `branch` makes
    /// threads leave on different iterations (or along different paths).
    DivergentExit {
        branch: Op,
        block: Block,
        cycle: CycleId,
    },
    /// Defined in `cycle`, an irreducible cycle whose convergence depends on the DFS: the
    /// divergent branch `branch` joins at `join` without meeting the diverged-entry
    /// criterion. Also the reason of a use outside `cycle` of an always-uniform value
    /// computed in it.
    DivergentCycle {
        branch: Op,
        cycle: CycleId,
        join: Block,
    },
    /// Uses `value`, defined in `cycle`, outside it after a divergent exit (temporal
    /// divergence). `op` is the user (for a block argument: the terminator passing it).
    Temporal {
        op: Op,
        value: Value,
        cycle: CycleId,
    },
}

/// A use of a value outside the cycle that defines it, after a divergent exit (or, for a
/// value computed from the cycle's values in the region of its heart token, a use outside
/// that region).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemporalUse {
    pub value: Value,
    pub user: Op,
    pub cycle: CycleId,
}

/// A join block (or divergent exit) of a divergent branch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinInfo {
    pub branch: Op,
    pub block: Block,
    /// A divergent cycle exit rather than a join of disjoint paths.
    pub is_exit: bool,
}

/// The analysis result for one kernel.
pub struct Uniformity {
    pub func: Op,
    pub cfg: RegionCfg,
    pub dom: DomTree,
    pub cycles: CycleInfo,
    divergent: SecondaryMap<Value, bool>,
    /// Values and ops of the kernel when it was analysed: anything else (created later by
    /// a transform) answers divergent (LLVM #223844: unknown must mean divergent).
    known_values: SecondaryMap<Value, bool>,
    known_ops: SecondaryMap<Op, bool>,
    reasons: SecondaryMap<Value, Option<Reason>>,
    divergent_branch: SecondaryMap<Op, bool>,
    branch_reasons: SecondaryMap<Op, Option<Reason>>,
    /// Joins and divergent exits of every divergent branch, in discovery order.
    pub joins: Vec<JoinInfo>,
    /// Irreducible cycles whose definitions are all divergent.
    pub assumed_divergent: Vec<CycleId>,
    /// Outermost cycles left through a divergent exit.
    pub divergent_exit_cycles: Vec<CycleId>,
    pub temporal: Vec<TemporalUse>,
    temporal_set: HashSet<(Value, Op)>,
    /// Indices into `joins`, per branch and per block.
    joins_by_branch: SecondaryMap<Op, Vec<u32>>,
    joins_by_block: SecondaryMap<Block, Vec<u32>>,
    temporal_listed: HashSet<(Value, Op, CycleId)>,
    /// Per cycle: assumed divergent / has a divergent exit (the lists above, as flags).
    assumed_flag: Vec<bool>,
    exit_flag: Vec<bool>,
}

/// Error for kernels the analysis does not handle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotCfForm;

impl Uniformity {
    /// Analyses `func` (a CF-form `kernel.func`).
    pub fn compute(ir: &Ir, func: Op) -> Result<Uniformity, NotCfForm> {
        let region = *ir.ops[func].regions.first().ok_or(NotCfForm)?;
        let cfg = RegionCfg::compute(ir, region);
        Self::compute_with_cfg(ir, func, cfg)
    }

    /// Same, on a given CFG of the kernel's region (tests permute successor lists to get
    /// other DFS orders).
    pub fn compute_with_cfg(ir: &Ir, func: Op, cfg: RegionCfg) -> Result<Uniformity, NotCfForm> {
        if !ir.is_cf_kernel(func) {
            return Err(NotCfForm);
        }
        let dom = DomTree::dominators(&cfg);
        let cycles = CycleInfo::compute(&cfg);
        let mut u = Uniformity {
            func,
            cfg,
            dom,
            cycles,
            divergent: SecondaryMap::with_capacity(ir.values.len()),
            known_values: SecondaryMap::with_capacity(ir.values.len()),
            known_ops: SecondaryMap::with_capacity(ir.ops.len()),
            reasons: SecondaryMap::with_capacity(ir.values.len()),
            divergent_branch: SecondaryMap::with_capacity(ir.ops.len()),
            branch_reasons: SecondaryMap::with_capacity(ir.ops.len()),
            joins: Vec::new(),
            assumed_divergent: Vec::new(),
            divergent_exit_cycles: Vec::new(),
            temporal: Vec::new(),
            temporal_set: HashSet::default(),
            joins_by_branch: SecondaryMap::with_capacity(ir.ops.len()),
            joins_by_block: SecondaryMap::with_capacity(ir.blocks.len()),
            temporal_listed: HashSet::default(),
            assumed_flag: Vec::new(),
            exit_flag: Vec::new(),
        };
        u.assumed_flag = vec![false; u.cycles.cycles.len()];
        u.exit_flag = vec![false; u.cycles.cycles.len()];
        for e in ir.events(func) {
            match e {
                Event::Op(o) => {
                    u.known_ops[o] = true;
                    for &r in &ir.ops[o].results {
                        u.known_values[r] = true;
                    }
                }
                Event::Block(b) => {
                    for &a in &ir.blocks[b].args {
                        u.known_values[a] = true;
                    }
                }
                _ => {}
            }
        }
        let users = Users::of(ir, func);
        Propagator {
            ir,
            u: &mut u,
            users: &users,
            worklist: Vec::new(),
        }
        .run();
        for (i, j) in u.joins.iter().enumerate() {
            u.joins_by_branch[j.branch].push(i as u32);
            u.joins_by_block[j.block].push(i as u32);
        }
        Ok(u)
    }

    /// Is `v` divergent at its definition? A value the analysis did not see is.
    pub fn is_divergent(&self, v: Value) -> bool {
        self.divergent[v] || !self.known_values[v]
    }
    /// Is `term` a divergent branch? An op the analysis did not see is.
    pub fn is_divergent_branch(&self, term: Op) -> bool {
        self.divergent_branch[term] || !self.known_ops[term]
    }
    pub fn reason(&self, v: Value) -> Option<&Reason> {
        self.reasons[v].as_ref()
    }
    pub fn branch_reason(&self, term: Op) -> Option<&Reason> {
        self.branch_reasons[term].as_ref()
    }
    /// Is `v` divergent as read by `user`: divergent at its definition, or temporally
    /// divergent because `user` lies outside a cycle of `v` that has a divergent exit.
    pub fn is_divergent_use(&self, v: Value, user: Op) -> bool {
        self.is_divergent(v) || !self.known_ops[user] || self.temporal_set.contains(&(v, user))
    }

    /// Per cycle, the blocks outside it that lie in the convergence region of its heart token
    /// (the token is live on entry: a use of it lies ahead); empty for a cycle without a
    /// heart. Threads run such a block in the iteration they left the cycle from, so a
    /// lowering must keep it inside that iteration; this analysis treats uses there as not
    /// temporally divergent. One walk for the users, then per cycle with a heart the size of
    /// its region.
    pub fn heart_region_exits(&self, ir: &Ir) -> Vec<Vec<u32>> {
        let users = Users::of(ir, self.func);
        (0..self.cycles.cycles.len())
            .map(|i| {
                let c = CycleId(i as u32);
                match HeartRegion::of(ir, &self.cfg, &self.cycles, c, &users) {
                    Some(r) => {
                        let mut v: Vec<u32> = r
                            .in_blocks
                            .iter()
                            .copied()
                            .filter(|&b| !self.cycles.contains(c, b))
                            .collect();
                        v.sort_unstable();
                        v
                    }
                    None => Vec::new(),
                }
            })
            .collect()
    }

    /// Joins and divergent exits of the divergent branch `term`.
    pub fn joins_of(&self, term: Op) -> impl Iterator<Item = &JoinInfo> {
        self.joins_by_branch[term]
            .iter()
            .map(|&i| &self.joins[i as usize])
    }
    /// Joins and divergent exits at block `b` (of any branch).
    pub fn joins_at(&self, b: Block) -> impl Iterator<Item = &JoinInfo> {
        self.joins_by_block[b]
            .iter()
            .map(|&i| &self.joins[i as usize])
    }
    /// Node number of a block of the kernel.
    pub fn node(&self, b: Block) -> Option<u32> {
        self.cfg.node(b)
    }
}

/// The worklist propagation (one run per kernel).
struct Propagator<'a> {
    ir: &'a Ir,
    u: &'a mut Uniformity,
    users: &'a Users,
    worklist: Vec<Item>,
}

/// Every use of every value of a kernel, in one flat array (ops that read a value as an
/// operand or successor argument; an op reading it twice appears twice).
struct Users {
    offsets: Vec<u32>,
    ops: Vec<Op>,
}

impl Users {
    fn of(ir: &Ir, func: Op) -> Users {
        let n = ir.values.len();
        let mut offsets = vec![0u32; n + 1];
        let uses = |o: Op| {
            let d = &ir.ops[o];
            d.operands
                .iter()
                .chain(d.succs.iter().flat_map(|s| s.args.iter()))
                .copied()
        };
        ir.walk(func, &mut |o| {
            for v in uses(o) {
                offsets[v.index() + 1] += 1;
            }
        });
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut cursor = offsets.clone();
        let mut ops = vec![func; offsets[n] as usize];
        ir.walk(func, &mut |o| {
            for v in uses(o) {
                ops[cursor[v.index()] as usize] = o;
                cursor[v.index()] += 1;
            }
        });
        Users { offsets, ops }
    }

    fn get(&self, v: Value) -> &[Op] {
        &self.ops[self.offsets[v.index()] as usize..self.offsets[v.index() + 1] as usize]
    }
}

#[derive(Copy, Clone)]
enum Item {
    Value(Value),
    Branch(Op),
}

impl<'a> Propagator<'a> {
    fn run(mut self) {
        let ir = self.ir;
        let blocks = self.u.cfg.blocks.clone();
        for &b in &blocks {
            for op in ir.block_ops(b) {
                if ir.spec(op).has(Traits::DIVERGENCE_SOURCE) {
                    self.mark_results(op, Reason::Source(op));
                }
            }
        }
        // The sync-dependence queries borrow the CFG and cycles while verdicts change: move
        // them out of the result for the duration of the loop.
        let cfg = std::mem::take(&mut self.u.cfg);
        let cycles = std::mem::take(&mut self.u.cycles);
        let mut sd = SyncDependence::new(&cfg, &cycles);
        while let Some(item) = self.worklist.pop() {
            match item {
                Item::Value(v) => self.push_users(v),
                Item::Branch(term) => self.control_divergence(term, &cfg, &cycles, &mut sd),
            }
        }
        drop(sd);
        self.u.cfg = cfg;
        self.u.cycles = cycles;
    }

    fn mark_value(&mut self, v: Value, why: Reason) {
        if self.u.divergent[v] || self.ir.value_type(v) == Type::Token {
            return;
        }
        self.u.divergent[v] = true;
        self.u.reasons[v] = Some(why);
        self.worklist.push(Item::Value(v));
    }

    fn mark_results(&mut self, op: Op, why: Reason) {
        if self.ir.spec(op).has(Traits::ALWAYS_UNIFORM) || is_constant(self.ir, op) {
            return;
        }
        for &r in &self.ir.ops[op].results {
            self.mark_value(r, why.clone());
        }
    }

    fn mark_branch(&mut self, term: Op, why: Reason) {
        if self.u.divergent_branch[term] || self.ir.opcode(term) != Opcode::CondBr {
            return;
        }
        self.u.divergent_branch[term] = true;
        self.u.branch_reasons[term] = Some(why);
        self.worklist.push(Item::Branch(term));
    }

    /// `user` reads `v`, which is divergent (`outside` = None) or divergent only as `user`
    /// sees it from outside the cycle that defines it (`outside` = the reason: temporal
    /// divergence, or a cycle assumed divergent).
    fn mark_user(&mut self, user: Op, v: Value, outside: Option<Reason>) {
        let ir = self.ir;
        let data = &ir.ops[user];
        let why = |kind: fn(Op, Value) -> Reason| match &outside {
            Some(r) => r.clone(),
            None => kind(user, v),
        };
        if ir.spec(user).is_terminator() {
            if ir.opcode(user) == Opcode::CondBr && data.operands[0] == v {
                self.mark_branch(user, why(|op, operand| Reason::Operand { op, operand }));
            }
            for s in &data.succs {
                for (i, &a) in s.args.iter().enumerate() {
                    if a == v {
                        let arg = ir.blocks[s.block].args[i];
                        self.mark_value(arg, why(|from, value| Reason::Incoming { from, value }));
                    }
                }
            }
        } else if data.operands.contains(&v) {
            self.mark_results(user, why(|op, operand| Reason::Operand { op, operand }));
        }
    }

    fn push_users(&mut self, v: Value) {
        let users = self.users;
        for &user in users.get(v) {
            self.mark_user(user, v, None);
        }
    }

    fn control_divergence(
        &mut self,
        term: Op,
        cfg: &RegionCfg,
        cycles: &CycleInfo,
        sd: &mut SyncDependence,
    ) {
        let ir = self.ir;
        let Some(b) = ir.op_block(term).and_then(|blk| cfg.node(blk)) else {
            return;
        };
        if !self.u.dom.is_reachable(b) {
            return;
        }
        let desc = sd.branch(b);
        // Both edges to one block: the CFG has a single successor there, so the sync
        // dependence sees no join, but threads arrive along two edges (with different block
        // arguments, possibly) and are converged in that block: it is a join for the
        // arguments whose values differ between the two edges (LLVM splits one edge and finds
        // it too). Values other predecessors pass do not depend on this branch, and when the
        // two edges pass the same values nothing diverges at all (LLVM then sees
        // `br i1 %c, label %j, label %j`: one label, no join). The block is in every cycle
        // that contains the branch (it is the branch block's only successor), so it is never
        // a cycle exit, and no block lies on the two diverged paths (the edges), so no cycle
        // entry either: the diverged-entry criterion holds, no cycle becomes divergent.
        if let [t, f] = &ir.ops[term].succs[..] {
            if t.block == f.block {
                // Compared edge to edge: a block's own argument passed back on one edge keeps
                // each thread's old value, which may differ from the other edge's.
                let differing: Vec<usize> = (0..t.args.len())
                    .filter(|&i| !self.same_value(t.args[i], f.args[i]))
                    .collect();
                if !differing.is_empty() {
                    self.u.joins.push(JoinInfo {
                        branch: term,
                        block: t.block,
                        is_exit: false,
                    });
                }
                let why = Reason::Join {
                    branch: term,
                    block: t.block,
                };
                for i in differing {
                    self.mark_value(ir.blocks[t.block].args[i], why.clone());
                }
            }
        }
        let mut div_cycles: Vec<(CycleId, u32)> = Vec::new();
        // Joins reached only by re-entering through an irreducible parent: threads on those
        // paths pass an entry of the parent, so they meet the others only on another
        // iteration of it, unless the diverged-entry criterion fails (checked here).
        for &j in desc
            .reentry_joins
            .iter()
            .filter(|j| !desc.joins.contains(j))
        {
            if let Some(c) = self.outermost_divergent_cycle(cycles, b, j, &desc.divergent_exits) {
                self.u.joins.push(JoinInfo {
                    branch: term,
                    block: cfg.blocks[j as usize],
                    is_exit: false,
                });
                div_cycles.push((c, j));
            }
        }
        for &j in &desc.joins {
            self.u.joins.push(JoinInfo {
                branch: term,
                block: cfg.blocks[j as usize],
                is_exit: false,
            });
            if let Some(c) = self.outermost_divergent_cycle(cycles, b, j, &desc.divergent_exits) {
                div_cycles.push((c, j));
                continue;
            }
            let jb = cfg.blocks[j as usize];
            self.taint_join_args(
                j,
                cfg,
                Reason::Join {
                    branch: term,
                    block: jb,
                },
            );
        }
        div_cycles.sort_by_key(|&(c, _)| std::cmp::Reverse(cycles.cycle(c).depth));
        for (c, j) in div_cycles {
            if in_assumed(&self.u.assumed_flag, cycles, c) {
                continue;
            }
            self.u.assumed_flag[c.0 as usize] = true;
            self.u.assumed_divergent.push(c);
            let why = Reason::DivergentCycle {
                branch: term,
                cycle: c,
                join: cfg.blocks[j as usize],
            };
            for &blk in cycles.block_slice(c) {
                let block = cfg.blocks[blk as usize];
                for &a in &ir.blocks[block].args {
                    self.mark_value(a, why.clone());
                }
                for op in ir.block_ops(block) {
                    self.mark_results(op, why.clone());
                }
            }
            self.uses_outside_divergent_cycle(c, cfg, cycles, why);
        }
        let branch_cycle = cycles.innermost(b);
        for &x in &desc.divergent_exits {
            let xb = cfg.blocks[x as usize];
            self.u.joins.push(JoinInfo {
                branch: term,
                block: xb,
                is_exit: true,
            });
            let Some(mut c) = branch_cycle else { continue };
            while let Some(p) = cycles.cycle(c).parent.filter(|&p| !cycles.contains(p, x)) {
                c = p;
            }
            // Threads reach the exit on different iterations or paths: arguments whose
            // incoming values differ are divergent (LLVM only does this for values defined
            // in the cycle). Only predecessors reachable from the branch count (those in `c`,
            // which is strongly connected, and those `c` reaches): threads arriving from any
            // other one never executed it. The search runs only when incoming values differ.
            if !ir.blocks[xb].args.is_empty() && self.args_differ(x, cfg, |_| true) {
                let from_branch: Vec<u32> = cfg.preds[x as usize]
                    .iter()
                    .copied()
                    .filter(|&p| cycles.contains(c, p) || reaches_cycle(cfg, cycles, c, p))
                    .collect();
                let why = Reason::DivergentExit {
                    branch: term,
                    block: xb,
                    cycle: c,
                };
                self.taint_args(x, cfg, why, |p| from_branch.contains(&p));
            }
            self.cycle_exit_divergence(c, cfg, cycles, &sd.exits);
        }
    }

    /// Marks the block arguments of node `j` divergent unless all incoming values are the
    /// same value or equal constants (then every thread sees that one value), not counting
    /// the argument itself passed back on a self loop (as in LLVM's
    /// PHINode::hasConstantOrUndefValue).
    fn taint_join_args(&mut self, j: u32, cfg: &RegionCfg, why: Reason) {
        self.taint_args(j, cfg, why, |_| true);
    }

    /// Do the incoming values of some argument of node `j` differ over the edges from the
    /// predecessors `pred` accepts?
    fn args_differ(&self, j: u32, cfg: &RegionCfg, pred: impl Fn(u32) -> bool) -> bool {
        let block = cfg.blocks[j as usize];
        (0..self.ir.blocks[block].args.len()).any(|i| !self.same_incoming(j, i, cfg, &pred))
    }

    /// Is argument `i` of node `j` the same value on every edge from a predecessor `pred`
    /// accepts (one SSA value or equal constants)?
    fn same_incoming(
        &self,
        j: u32,
        i: usize,
        cfg: &RegionCfg,
        pred: &impl Fn(u32) -> bool,
    ) -> bool {
        let ir = self.ir;
        let block = cfg.blocks[j as usize];
        let mut first: Option<Value> = None;
        for &p in cfg.preds[j as usize].iter().filter(|&&p| pred(p)) {
            let Some(t) = ir.terminator(cfg.blocks[p as usize]) else {
                continue;
            };
            for s in ir.ops[t].succs.iter().filter(|s| s.block == block) {
                let a = s.args[i];
                if a == ir.blocks[block].args[i] {
                    // Passed back to itself on a self loop: keeps its value (LLVM's
                    // PHINode::hasConstantOrUndefValue ignores it too).
                    continue;
                }
                match first {
                    None => first = Some(a),
                    Some(f) if self.same_value(f, a) => {}
                    Some(_) => return false,
                }
            }
        }
        true
    }

    /// [`Self::taint_join_args`] over the incoming edges from predecessors `pred` accepts.
    fn taint_args(&mut self, j: u32, cfg: &RegionCfg, why: Reason, pred: impl Fn(u32) -> bool) {
        let block = cfg.blocks[j as usize];
        for i in 0..self.ir.blocks[block].args.len() {
            if !self.same_incoming(j, i, cfg, &pred) {
                self.mark_value(self.ir.blocks[block].args[i], why.clone());
            }
        }
    }

    /// The same SSA value, or constants of equal type and value.
    fn same_value(&self, a: Value, b: Value) -> bool {
        a == b || (self.constant(a).is_some() && self.constant(a) == self.constant(b))
    }

    fn is_constant(&self, v: Value) -> bool {
        self.ir
            .defining_op(v)
            .is_some_and(|o| is_constant(self.ir, o))
    }

    fn constant(&self, v: Value) -> Option<(&Attr, Type)> {
        let op = self.ir.defining_op(v)?;
        (self.ir.opcode(op) == Opcode::Constant)
            .then(|| {
                self.ir
                    .attr(op, "value")
                    .map(|a| (a, self.ir.value_type(v)))
            })
            .flatten()
    }

    /// LLVM's getOutermostDivergentCycle: the cycle made divergent by a join `j` of the
    /// branch in `b`, by paths diverged outside it or by the diverged-entry criterion.
    /// `exits` are the divergent exits of the branch.
    fn outermost_divergent_cycle(
        &self,
        cycles: &CycleInfo,
        b: u32,
        j: u32,
        exits: &[u32],
    ) -> Option<CycleId> {
        let cycle = cycles.innermost(j)?;
        let dom = &self.u.dom;
        // External: the largest cycle containing the join but not the branch.
        let ext = (!cycles.contains(cycle, b)).then(|| {
            let mut c = cycle;
            while let Some(p) = cycles.cycle(c).parent.filter(|&p| !cycles.contains(p, b)) {
                c = p;
            }
            c
        });
        let ext = ext.filter(|&c| !cycles.cycle(c).is_reducible());
        // Internal (diverged entry, simplified): the smallest common cycle, if irreducible
        // and its header does not dominate the join, widened while parent headers don't.
        //
        // A reducible smallest common cycle passes: its header is its only entry, so no entry
        // lies on a diverged path inside it. Except when the join is its header and a diverged
        // path left it: inside an irreducible parent that path can come back to the header
        // through another entry of the parent (B -> X -> H for the loop H <-> B in the cycle
        // {X, H, B} with entries X and H). The closed path through B, X and H then has an
        // entry, X, on a diverged path, and the parents must pass the criterion instead (LLVM
        // 22 accepts the reducible cycle here, and so calls H's definitions uniform in the
        // hierarchy where H <-> B is a child cycle but divergent in the one where H heads the
        // whole cycle).
        let int = (|| {
            if dom.strictly_dominates(b, j) {
                return None;
            }
            let mut c = Some(cycle);
            while let Some(x) = c.filter(|&x| !cycles.contains(x, b)) {
                c = cycles.cycle(x).parent;
            }
            let mut c = c?;
            let cy = cycles.cycle(c);
            if cy.is_reducible() {
                let reentered = cy.header() == j && exits.iter().any(|&x| !cycles.contains(c, x));
                if !reentered {
                    return None;
                }
            } else if dom.strictly_dominates(cy.header(), j) {
                return None;
            }
            while let Some(p) = cycles
                .cycle(c)
                .parent
                .filter(|&p| !dom.strictly_dominates(cycles.cycle(p).header(), j))
            {
                c = p;
            }
            (!cycles.cycle(c).is_reducible()).then_some(c)
        })();
        int.or(ext)
    }

    /// The values of an assumed-divergent cycle `c` that stay uniform there (results of
    /// always-uniform ops, like readfirstlane) were computed by threads that were not
    /// converged: every use outside `c`, where they are, sees divergent values (uniformity
    /// rule 1 only holds within one dynamic instance). Marks those uses, and the exit block
    /// arguments such values are passed to.
    fn uses_outside_divergent_cycle(
        &mut self,
        c: CycleId,
        cfg: &RegionCfg,
        cycles: &CycleInfo,
        why: Reason,
    ) {
        let ir = self.ir;
        let in_cycle_block = |blk: Block| cfg.node(blk).is_some_and(|n| cycles.contains(c, n));
        for &blk in cycles.block_slice(c) {
            let block = cfg.blocks[blk as usize];
            let defs: Vec<Value> = ir.blocks[block]
                .args
                .iter()
                .copied()
                .chain(
                    ir.block_ops(block)
                        .flat_map(|o| ir.ops[o].results.iter().copied()),
                )
                .filter(|&v| {
                    !self.u.divergent[v] && ir.value_type(v) != Type::Token && !self.is_constant(v)
                })
                .collect();
            for v in defs {
                let users = self.users;
                for &user in users.get(v) {
                    let Some(ub) = ir.op_block(user) else {
                        continue;
                    };
                    if !in_cycle_block(ub) {
                        self.record_temporal(v, user, c);
                        self.mark_user(user, v, Some(why.clone()));
                        continue;
                    }
                    for s in ir.ops[user]
                        .succs
                        .iter()
                        .filter(|s| !in_cycle_block(s.block))
                    {
                        for (i, &a) in s.args.iter().enumerate() {
                            if a == v {
                                self.record_temporal(v, user, c);
                                self.mark_value(ir.blocks[s.block].args[i], why.clone());
                            }
                        }
                    }
                }
            }
        }
    }

    /// Temporal divergence: uses outside `c` of values defined in it (LLVM's
    /// analyzeCycleExitDivergence), minus uses inside the region of `c`'s heart token, plus
    /// uses after that region of values computed in it from `c`'s values. Unlike LLVM, this
    /// runs for cycles inside an assumed-divergent cycle too: their always-uniform values are
    /// not tainted with the rest.
    fn cycle_exit_divergence(
        &mut self,
        c: CycleId,
        cfg: &RegionCfg,
        cycles: &CycleInfo,
        sd_exits: &[Vec<u32>],
    ) {
        if std::mem::replace(&mut self.u.exit_flag[c.0 as usize], true) {
            return;
        }
        self.u.divergent_exit_cycles.push(c);
        // Inside an assumed-divergent cycle everything but the always-uniform values is
        // divergent already.
        let tainted = in_assumed(&self.u.assumed_flag, cycles, c);
        let ir = self.ir;
        let region = HeartRegion::of(ir, cfg, cycles, c, self.users);
        let in_cycle_block = |blk: Block| cfg.node(blk).is_some_and(|n| cycles.contains(c, n));
        // Constants are the same in every dynamic instance: never temporally divergent.
        let defined_in_cycle = |v: Value| match ir.values[v].def {
            ValueDef::Result(op, _) => {
                ir.op_block(op).is_some_and(in_cycle_block) && !is_constant(ir, op)
            }
            ValueDef::BlockArg(blk, _) => in_cycle_block(blk),
        };
        let exits = &sd_exits[c.0 as usize];
        // Values computed in the heart's region outside the cycle from the cycle's values:
        // uniform there (threads in the region are on the same iteration), but one iteration's
        // value, so their uses after the region are temporally divergent too.
        let mut region_values: Vec<Value> = Vec::new();
        // Exit block arguments fed from inside the cycle.
        for &x in exits {
            let xb = cfg.blocks[x as usize];
            let in_region = region.as_ref().is_some_and(|r| r.live_in(x));
            for &p in &cfg.preds[x as usize] {
                if !cycles.contains(c, p) {
                    continue;
                }
                let t = ir.terminator(cfg.blocks[p as usize]).expect("terminated");
                for s in &ir.ops[t].succs {
                    if s.block != xb {
                        continue;
                    }
                    for (i, &a) in s.args.iter().enumerate() {
                        if defined_in_cycle(a) && !(tainted && self.u.divergent[a]) {
                            let arg = ir.blocks[xb].args[i];
                            if in_region {
                                region_values.push(arg);
                            } else {
                                // The argument itself is the divergent value: like LLVM, no
                                // entry in the temporal list (it would repeat per edge/cycle).
                                self.mark_value(
                                    arg,
                                    Reason::Temporal {
                                        op: t,
                                        value: a,
                                        cycle: c,
                                    },
                                );
                            }
                        }
                    }
                }
            }
        }
        // Definitions in blocks that dominate an exit, used outside the cycle.
        for &blk in cycles.block_slice(c) {
            if !exits.iter().any(|&x| self.u.dom.dominates(blk, x)) {
                continue;
            }
            let block = cfg.blocks[blk as usize];
            let results = ir
                .block_ops(block)
                .flat_map(|o| ir.ops[o].results.iter().copied());
            for v in ir.blocks[block].args.iter().copied().chain(results) {
                if ir.value_type(v) == Type::Token
                    || !defined_in_cycle(v)
                    || (tainted && self.u.divergent[v])
                {
                    continue;
                }
                let users = self.users;
                for &user in users.get(v) {
                    let Some(ub) = ir.op_block(user) else {
                        continue;
                    };
                    if !in_cycle_block(ub) {
                        self.use_after_exit(v, user, c, cfg, region.as_ref(), &mut region_values);
                    }
                }
            }
        }
        // Follow the values computed in the region from the cycle's values (a fixed point:
        // the region may contain cycles of its own).
        let mut seen: HashSet<Value> = HashSet::default();
        while let Some(w) = region_values.pop() {
            if !seen.insert(w) || ir.value_type(w) == Type::Token {
                continue;
            }
            let users = self.users;
            for &user in users.get(w) {
                self.use_after_exit(w, user, c, cfg, region.as_ref(), &mut region_values);
            }
        }
    }

    /// `user`, outside cycle `c`, reads `v`: a value of `c` (defined in it) or one computed
    /// from them in the region of `c`'s heart. Outside the region that is a temporally
    /// divergent use; inside, the user's results are such values too (pushed on `region`),
    /// and a branch on `v` is divergent, since threads that take different sides on
    /// different iterations are converged again after the region (as LLVM does, which
    /// treats every such branch as divergent).
    fn use_after_exit(
        &mut self,
        v: Value,
        user: Op,
        c: CycleId,
        cfg: &RegionCfg,
        region: Option<&HeartRegion>,
        region_values: &mut Vec<Value>,
    ) {
        let ir = self.ir;
        let Some(r) = region.filter(|r| r.contains_op(ir, cfg, user)) else {
            self.record_temporal(v, user, c);
            self.mark_user(
                user,
                v,
                Some(Reason::Temporal {
                    op: user,
                    value: v,
                    cycle: c,
                }),
            );
            return;
        };
        let data = &ir.ops[user];
        if !ir.spec(user).is_terminator() {
            if data.operands.contains(&v) {
                region_values.extend(data.results.iter().copied());
            }
            return;
        }
        if ir.opcode(user) == Opcode::CondBr && data.operands[0] == v {
            self.record_temporal(v, user, c);
            self.mark_branch(
                user,
                Reason::Temporal {
                    op: user,
                    value: v,
                    cycle: c,
                },
            );
        }
        for s in &data.succs {
            let in_region = cfg.node(s.block).is_some_and(|n| r.live_in(n));
            for (i, &a) in s.args.iter().enumerate() {
                if a != v {
                    continue;
                }
                let arg = ir.blocks[s.block].args[i];
                if in_region {
                    region_values.push(arg);
                } else {
                    self.record_temporal(v, user, c);
                    self.mark_value(
                        arg,
                        Reason::Temporal {
                            op: user,
                            value: v,
                            cycle: c,
                        },
                    );
                }
            }
        }
    }

    fn record_temporal(&mut self, value: Value, user: Op, cycle: CycleId) {
        self.u.temporal_set.insert((value, user));
        if self.u.temporal_listed.insert((value, user, cycle)) {
            self.u.temporal.push(TemporalUse { value, user, cycle });
        }
    }
}

/// Is node `p` reachable from cycle `c`? A backward search from `p` that stops at the first
/// block of `c`: one step for the usual exit paths, the ancestors of `p` at worst.
fn reaches_cycle(cfg: &RegionCfg, cycles: &CycleInfo, c: CycleId, p: u32) -> bool {
    let mut seen: HashSet<u32> = HashSet::default();
    seen.insert(p);
    let mut stack = vec![p];
    while let Some(n) = stack.pop() {
        for &q in &cfg.preds[n as usize] {
            if cycles.contains(c, q) {
                return true;
            }
            if seen.insert(q) {
                stack.push(q);
            }
        }
    }
    false
}

/// Does `op` define a constant (`arith.constant`, `kernel.wave_size`)? The same value in
/// every thread and on every iteration of every cycle.
fn is_constant(ir: &Ir, op: Op) -> bool {
    matches!(ir.opcode(op), Opcode::Constant | Opcode::WaveSize)
}

/// Is `c` or a cycle around it flagged in `assumed`? O(depth).
fn in_assumed(assumed: &[bool], cycles: &CycleInfo, c: CycleId) -> bool {
    let mut cur = Some(c);
    while let Some(x) = cur {
        if assumed[x.0 as usize] {
            return true;
        }
        cur = cycles.cycle(x).parent;
    }
    false
}

/// The convergence region of a cycle's heart token: the points where the token is live
/// (dominated by the heart, with a use of the token ahead). Sparse: building it costs the size
/// of the region, not of the kernel (a kernel of many small loops asks for one per loop).
struct HeartRegion {
    token: Value,
    live_in: HashSet<u32>,
    live_out: HashSet<u32>,
    /// The blocks of `live_in`, in the order found.
    in_blocks: Vec<u32>,
}

impl HeartRegion {
    /// The region of the heart of `c` (a `conv.loop` in its header whose parent token comes
    /// from outside `c`), if it has one.
    fn of(
        ir: &Ir,
        cfg: &RegionCfg,
        cycles: &CycleInfo,
        c: CycleId,
        users: &Users,
    ) -> Option<HeartRegion> {
        let header = cfg.blocks[cycles.cycle(c).header() as usize];
        let heart = ir.block_ops(header).find(|&o| {
            ir.opcode(o) == Opcode::ConvLoop
                && ir.ops[o]
                    .operands
                    .first()
                    .is_some_and(|&p| match ir.values[p].def {
                        ValueDef::Result(d, _) => ir
                            .op_block(d)
                            .and_then(|db| cfg.node(db))
                            .is_none_or(|n| !cycles.contains(c, n)),
                        ValueDef::BlockArg(..) => true,
                    })
        })?;
        let token = ir.ops[heart].results[0];
        let def_block = cfg.node(header)?;
        let mut live_in: HashSet<u32> = HashSet::default();
        let mut live_out: HashSet<u32> = HashSet::default();
        let mut in_blocks = Vec::new();
        for &u in users.get(token) {
            if let Some(ub) = ir.op_block(u).and_then(|b| cfg.node(b)) {
                if ub != def_block && live_in.insert(ub) {
                    in_blocks.push(ub);
                }
            }
        }
        let mut next = 0;
        while let Some(&b) = in_blocks.get(next) {
            next += 1;
            for &p in &cfg.preds[b as usize] {
                live_out.insert(p);
                if p != def_block && live_in.insert(p) {
                    in_blocks.push(p);
                }
            }
        }
        Some(HeartRegion {
            token,
            live_in,
            live_out,
            in_blocks,
        })
    }

    fn live_in(&self, b: u32) -> bool {
        self.live_in.contains(&b)
    }

    /// Is `op` inside the region: the token is live after it, or `op` itself uses it.
    fn contains_op(&self, ir: &Ir, cfg: &RegionCfg, op: Op) -> bool {
        let Some(b) = ir.op_block(op).and_then(|blk| cfg.node(blk)) else {
            return false;
        };
        if self.live_out.contains(&b) {
            return true;
        }
        let mut cur = Some(op);
        while let Some(o) = cur {
            if ir.ops[o].operands.contains(&self.token) {
                return true;
            }
            cur = ir.next_op(o);
        }
        false
    }
}
