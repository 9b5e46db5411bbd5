//! Which ops the optimizer may move, merge, remove, execute speculatively, or feed through a
//! `select`: the one place every transform asks, from the registry's traits, dominance,
//! post-dominance, cycles and the uniformity analysis (seed 004).
//!
//! Op classes:
//! - *free*: pure (no memory, no side effect), neither convergent nor co-convergent, no
//!   regions, no token result. It computes the same value wherever and with whichever
//!   threads it runs: it may move anywhere its operands dominate, merge with an equal op,
//!   and be removed when unused.
//! - *pure cross-lane* (ballot, readfirstlane, readlane, shuffle, reduce): pure, but
//!   convergent and co-convergent: the value depends on the set of threads executing it.
//!   They move and merge only under the rules below.
//! - everything else (memory ops, barriers, token ops, region ops) is never moved by
//!   `can_move`; a transform that moves a store (common-code sinking) checks memory order
//!   itself and asks `can_move` for the convergence side only.
//!
//! Rules (from A, the op's block, to B):
//! 1. token rule: an op that takes a convergence token stays in the innermost cycle it is
//!    in (the token's convergence region: a loop heart's region is one iteration; leaving or
//!    entering a cycle changes which iteration's threads meet), and lands only where no
//!    other token is live but those its own token derives from (token liveness: a use of an
//!    outer token inside an inner token's region ends that region early; LLVM's
//!    "well-nested" rule). Ops never move across a cycle boundary under this module's rules
//!    except free ones.
//! 2. convergent (seed rule 1): B dominates or post-dominates A, or A and B run with the
//!    same threads (see 3).
//! 3. co-convergent (seed rule 2, and "neither direction across a divergent branch"): the
//!    threads that run B are exactly those that ran A: every branch between them that can
//!    leave the region from A to B is uniform (`same_threads`). A uniform branch is fine:
//!    all threads go the same way (a SIMT-aware relaxation the seed allows).
//! 4. uniform operands (seed rule 3): `can_select` says whether an operand may become a
//!    choice between two values (an `arith.select`, or a block argument of a join): only if
//!    the choice is uniform where the op reads it when the registry lists the operand as
//!    uniform, or when the op is cross-lane (it reads its operands in other lanes, so a
//!    divergent choice changes what a lane sees).
//! 5. temporal divergence: uniformity is asked per use (`Uniformity::is_divergent_use`): a
//!    value that is uniform inside a cycle with a divergent exit is divergent when read after
//!    it (LLVM's sink/fold miscompiles, peers.md section 2 items 6 and 13); a value or op
//!    created after the analysis answers divergent (item 5). Facts are computed by the
//!    transform on the IR it is about to change; no transform claims to preserve them.
//! 6. memory order (`may_reorder`): two memory ops of one thread, `first` before `second`,
//!    may trade places (a load sunk past later ops, say) only if `first` does not acquire
//!    (acquire, acq_rel, seq_cst: later accesses stay after it), `second` does not release
//!    (release, acq_rel, seq_cst: earlier accesses stay before it), neither is a barrier
//!    (a workgroup acq_rel fence and a meeting of the workgroup's threads), and they cannot
//!    touch the same element when one of them writes or both are atomic (per-location
//!    coherence). So a load may move down past an acquire and up past a release (into the
//!    critical section, never out of it), never across a seq_cst op, a barrier, or a fence
//!    in its forbidden direction; a relaxed atomic orders only its own element. Two accesses
//!    cannot touch one element when they are in different address spaces or at different
//!    constant offsets of the same base (`memory_place`); distinct pointer parameters may
//!    alias. Of the transforms, only `cse` moves a memory op past others (a load merged
//!    into an equal earlier load of its block moves up to it), and it asks this rule for
//!    every op it crosses; the others move pure ops only, or a load or store with nothing
//!    in between (`sink_common`).

use crate::analysis::{DomTree, Uniformity};
use crate::entities::{Block, Op, Value};
use crate::ir::Ir;
use crate::registry::{Opcode, Traits};
use crate::sync;
use crate::types::Type;

/// May `op` be moved, merged with an equal op, or removed when unused, with no further
/// question (see the module docs)?
pub fn is_free(ir: &Ir, op: Op) -> bool {
    let traits = ir.spec(op).traits;
    is_pure(ir, op)
        && !traits.contains(Traits::CONVERGENT)
        && !traits.contains(Traits::CO_CONVERGENT)
}

/// No memory access and no side effect; no regions, successors or token results (the
/// value depends on the operands and, for cross-lane ops, on the threads running it).
pub fn is_pure(ir: &Ir, op: Op) -> bool {
    let data = &ir.ops[op];
    ir.spec(op).traits.contains(Traits::PURE)
        && data.regions.is_empty()
        && data.succs.is_empty()
        && data
            .results
            .iter()
            .all(|&r| ir.value_type(r) != Type::Token)
}

/// May `op` run where it did not (out of a condition, or before a loop that may run zero
/// times)? Free ops, except integer division and remainder by anything but a constant other
/// than 0 and -1 (which can fault or overflow).
pub fn can_speculate(ir: &Ir, op: Op) -> bool {
    use Opcode::*;
    if !is_free(ir, op) {
        return false;
    }
    let data = &ir.ops[op];
    match data.opcode {
        DivSI | DivUI | RemSI | RemUI => {
            matches!(ir.int_constant(data.operands[1]), Some(d) if d != 0 && d != -1)
        }
        _ => true,
    }
}

/// The analyses the convergence rules need, for one CF kernel, computed on the IR as it is
/// before the transform that asks.
pub struct Facts {
    pub uni: Uniformity,
    pub pdom: DomTree,
    /// Per CFG node: the convergence tokens live at the start of the block (a use of each is
    /// reachable without passing its definition), for rule 1.
    tokens_in: Vec<Vec<Value>>,
    /// The token each token is derived from (`conv.loop %parent`, `conv.anchor` none).
    parent: std::collections::HashMap<Value, Option<Value>>,
}

/// Largest region `same_threads` explores before answering no (keeps every query O(1)).
const REGION_LIMIT: usize = 64;

impl Facts {
    /// The facts of CF kernel `func` (None if it is not in CF form).
    pub fn compute(ir: &Ir, func: Op) -> Option<Facts> {
        let uni = Uniformity::compute(ir, func).ok()?;
        let pdom = DomTree::post_dominators(&uni.cfg);
        // Token liveness, per token by path exploration backwards from its uses to its
        // definition: linear in the blocks of each token's region (loop hearts: their loop and
        // its exit paths), so near-linear overall.
        let cfg = &uni.cfg;
        let mut tokens_in: Vec<Vec<Value>> = vec![Vec::new(); cfg.blocks.len()];
        let mut parent = std::collections::HashMap::new();
        let mut uses: std::collections::HashMap<Value, Vec<u32>> = Default::default();
        let mut defs: Vec<(Value, u32)> = Vec::new();
        for (n, &b) in cfg.blocks.iter().enumerate() {
            for o in ir.block_ops(b) {
                let mut tok_operand = None;
                for &v in &ir.ops[o].operands {
                    if ir.value_type(v) == Type::Token {
                        uses.entry(v).or_default().push(n as u32);
                        tok_operand = Some(v);
                    }
                }
                for &r in &ir.ops[o].results {
                    if ir.value_type(r) == Type::Token {
                        parent.insert(r, tok_operand);
                        defs.push((r, n as u32));
                    }
                }
            }
        }
        let mut seen = vec![u32::MAX; cfg.blocks.len()];
        for (k, &(t, def)) in defs.iter().enumerate() {
            let mut stack: Vec<u32> = Vec::new();
            for &u in uses.get(&t).map_or(&[][..], |v| &v[..]) {
                // A use in the defining block after the definition is not live-in there.
                if u != def && seen[u as usize] != k as u32 {
                    seen[u as usize] = k as u32;
                    stack.push(u);
                }
            }
            while let Some(n) = stack.pop() {
                tokens_in[n as usize].push(t);
                for &p in &cfg.preds[n as usize] {
                    if p != def && seen[p as usize] != k as u32 {
                        seen[p as usize] = k as u32;
                        stack.push(p);
                    }
                }
            }
        }
        Some(Facts {
            uni,
            pdom,
            tokens_in,
            parent,
        })
    }

    /// May an op using token `t` run at the start of node `n`? Not if a token other than `t`
    /// and those `t` is derived from is live there: that token's region would end at the
    /// use of `t` before its own later uses (regions must nest).
    fn token_use_nests(&self, t: Value, n: u32) -> bool {
        self.tokens_in[n as usize].iter().all(|&d| {
            let mut a = Some(t);
            while let Some(x) = a {
                if x == d {
                    return true;
                }
                a = self.parent.get(&x).copied().flatten();
            }
            false
        })
    }

    fn node(&self, b: Block) -> Option<u32> {
        self.uni.cfg.node(b)
    }

    /// Is `v` uniform as read by `user` (temporal divergence and unknown values included)?
    pub fn uniform_use(&self, v: Value, user: Op) -> bool {
        !self.uni.is_divergent_use(v, user)
    }

    /// Would a new argument of block `join` receiving `incoming` (each value with the
    /// terminator passing it) be uniform? Only if no divergent branch joins at `join` and
    /// every incoming value is uniform where it is passed.
    pub fn uniform_merge(&self, join: Block, incoming: &[(Value, Op)]) -> bool {
        self.uni.joins_at(join).next().is_none()
            && incoming.iter().all(|&(v, t)| self.uniform_use(v, t))
    }

    /// Do blocks `a` and `b` run with the same threads (one visit of one runs exactly the
    /// threads of the matching visit of the other)? Both must be in the same innermost cycle,
    /// and from their common dominator d, every branch in the region between d and each of
    /// them that can leave that region must be uniform. Answers no when unsure (a region
    /// larger than `REGION_LIMIT` blocks).
    pub fn same_threads(&self, ir: &Ir, a: Block, b: Block) -> bool {
        let (Some(x), Some(y)) = (self.node(a), self.node(b)) else {
            return false;
        };
        if x == y {
            return true;
        }
        let cycles = &self.uni.cycles;
        if cycles.innermost(x) != cycles.innermost(y) {
            return false;
        }
        if !self.uni.dom.is_reachable(x) || !self.uni.dom.is_reachable(y) {
            return false;
        }
        let d = self.uni.dom.common_dominator(x, y);
        self.all_reach(ir, d, x) && self.all_reach(ir, d, y)
    }

    /// Every thread that runs node `d` (which dominates `t`, same innermost cycle) runs `t`
    /// in the same visit: no divergent branch in the region between them can leave it.
    fn all_reach(&self, ir: &Ir, d: u32, t: u32) -> bool {
        if d == t {
            return true;
        }
        let cfg = &self.uni.cfg;
        let cycles = &self.uni.cycles;
        let cycle = cycles.innermost(d);
        let header = cycle.map(|c| cycles.cycle(c).header());
        let inside = |n: u32| match cycle {
            Some(c) => cycles.contains(c, n),
            None => true,
        };
        // Forward from d, within the cycle and not along its back edges, stopping at t.
        let mut fwd: Vec<u32> = vec![d];
        let mut i = 0;
        while i < fwd.len() {
            let n = fwd[i];
            i += 1;
            if n == t {
                continue;
            }
            for &s in &cfg.succs[n as usize] {
                if Some(s) != header && inside(s) && !fwd.contains(&s) {
                    if fwd.len() == REGION_LIMIT {
                        return false;
                    }
                    fwd.push(s);
                }
            }
        }
        if !fwd.contains(&t) {
            return false;
        }
        // The region: blocks of `fwd` from which t is reachable within `fwd`.
        let mut region: Vec<u32> = vec![t];
        let mut i = 0;
        while i < region.len() {
            let n = region[i];
            i += 1;
            if n == d {
                continue;
            }
            for &p in &cfg.preds[n as usize] {
                if fwd.contains(&p) && !region.contains(&p) {
                    region.push(p);
                }
            }
        }
        region.iter().filter(|&&n| n != t).all(|&n| {
            let leaves = cfg.succs[n as usize]
                .iter()
                .any(|s| !region.contains(s) || Some(*s) == header);
            !leaves || {
                match ir.terminator(cfg.blocks[n as usize]) {
                    Some(term) => !self.uni.is_divergent_branch(term),
                    None => false,
                }
            }
        })
    }
}

/// May pure op `op` compute its value in block `to` instead of its own block? (The caller
/// ensures its operands are available in `to`, and for a move to a block executed more
/// often, that it may be speculated.)
pub fn can_move(ir: &Ir, f: &Facts, op: Op, to: Block) -> bool {
    if is_free(ir, op) {
        return true;
    }
    let Some(from) = ir.op_block(op) else {
        return false;
    };
    if !is_pure(ir, op) {
        return false;
    }
    convergence_allows(ir, f, op, from, to)
}

/// The convergence side of a move of `op` from `from` to `to` (rules 1 to 3), for any op,
/// pure or not (common-code sinking asks it for stores too).
pub fn convergence_allows(ir: &Ir, f: &Facts, op: Op, from: Block, to: Block) -> bool {
    let traits = ir.spec(op).traits;
    let convergent = traits.contains(Traits::CONVERGENT);
    let co = traits.contains(Traits::CO_CONVERGENT);
    if !convergent && !co {
        return true;
    }
    if from == to {
        return true;
    }
    let (Some(a), Some(b)) = (f.node(from), f.node(to)) else {
        return false;
    };
    // Rule 1: the token's region (and the threads of one iteration) stay the same: the same
    // innermost cycle, and no other token live where the op lands (the start of `to`): a use
    // of a token inside a later token's region would end that region before its own later
    // uses (regions must nest).
    if f.uni.cycles.innermost(a) != f.uni.cycles.innermost(b) {
        return false;
    }
    let token = ir.ops[op]
        .operands
        .iter()
        .copied()
        .find(|&v| ir.value_type(v) == Type::Token);
    if token.is_some_and(|t| !f.token_use_nests(t, b)) {
        return false;
    }
    let same = f.same_threads(ir, from, to);
    // Rule 3.
    if co && !same {
        return false;
    }
    // Rule 2.
    !convergent || same || f.uni.dom.dominates(b, a) || f.pdom.dominates(b, a)
}

/// May the later op `drop` be replaced by the equal op `keep` (same opcode, operands and
/// attributes), whose block dominates `drop`'s? For cross-lane ops this moves `drop` to
/// `keep`'s position.
pub fn can_merge(ir: &Ir, f: &Facts, keep: Op, drop: Op) -> bool {
    match ir.op_block(keep) {
        Some(b) => can_move(ir, f, drop, b),
        None => false,
    }
}

/// May operand `operand` of `op` become a choice between two values, given whether the
/// choice is uniform where `op` reads it (rule 4)?
pub fn can_select(ir: &Ir, op: Op, operand: usize, choice_uniform: bool) -> bool {
    if choice_uniform {
        return true;
    }
    let spec = ir.spec(op);
    let cross_lane =
        spec.traits.contains(Traits::CONVERGENT) || spec.traits.contains(Traits::CO_CONVERGENT);
    !cross_lane && !spec.uniform_operands.contains(&(operand as u8))
}

/// Rule 6: may memory op `second`, which follows `first` in the same thread, take effect
/// before it? Ops that access no memory reorder freely.
pub fn may_reorder(ir: &Ir, first: Op, second: Op) -> bool {
    use crate::analysis::memory_place;
    let memory = |o: Op| ir.spec(o).has(Traits::MEMORY);
    if !memory(first) || !memory(second) {
        return true;
    }
    if ir.opcode(first) == Opcode::Barrier || ir.opcode(second) == Opcode::Barrier {
        return false;
    }
    // A synchronizing op whose attributes do not read counts as seq_cst.
    let order = |o: Op| {
        sync::access(ir.opcode(o))
            .map(|_| sync::of(ir, o).map_or(sync::Ordering::SeqCst, |s| s.ordering))
    };
    let (o1, o2) = (order(first), order(second));
    if o1.is_some_and(|o| o.acquires()) || o2.is_some_and(|o| o.releases()) {
        return false;
    }
    if ir.opcode(first) == Opcode::Fence || ir.opcode(second) == Opcode::Fence {
        return true;
    }
    let reads_only = |o: Op| matches!(ir.opcode(o), Opcode::Load | Opcode::AtomicLoad);
    if reads_only(first) && reads_only(second) && (o1.is_none() || o2.is_none()) {
        return true;
    }
    let (Some(a), Some(b)) = (
        memory_place::place(ir, first),
        memory_place::place(ir, second),
    ) else {
        return false;
    };
    let spaces_differ = matches!((a.space, b.space), (Some(x), Some(y)) if x != y);
    let offsets_differ = a.base.is_some()
        && a.base == b.base
        && matches!((a.offset, b.offset), (Some(x), Some(y)) if x != y);
    spaces_differ || offsets_differ
}

#[cfg(test)]
mod tests {
    use super::*;

    const KERNEL: &str = r#"builtin.module {
  kernel.func @k {
  ^entry(%buf: !kernel.ptr<global, i32>, %n: i32):
    %e = conv.entry : !conv.token
    %one = arith.constant 1 : i32
    %u = arith.addi %n, %one : i32
    %c = arith.cmpi slt, %u, %n : i32
    cf.cond_br %c, ^a, ^b
  ^a:
    cf.br ^b
  ^b:
    %r = kernel.readlane %n, %u, %e : i32
    kernel.store %r, %buf, %u : !kernel.ptr<global, i32>, i32
    kernel.return
  }
}"#;

    fn setup() -> (Ir, Op, Facts) {
        let ir = crate::text::parse(KERNEL, "t.mlir").expect("parses");
        let func = ir.kernels()[0];
        let facts = Facts::compute(&ir, func).expect("CF kernel");
        (ir, func, facts)
    }

    /// LLVM #223844 / PR #180509 (peers.md section 2, item 5): a transform that asks about a
    /// value or op made after the analysis must hear "divergent", never a stale "uniform".
    #[test]
    fn values_made_after_the_analysis_are_divergent() {
        let (mut ir, func, facts) = setup();
        let ops: Vec<Op> = ir.descendants(func).collect();
        let add = ops
            .iter()
            .copied()
            .find(|&o| ir.opcode(o) == Opcode::AddI)
            .unwrap();
        let u = ir.ops[add].results[0];
        let store = ops
            .iter()
            .copied()
            .find(|&o| ir.opcode(o) == Opcode::Store)
            .unwrap();
        assert!(
            facts.uniform_use(u, store),
            "%u is uniform where it is read"
        );
        // A copy of the uniform add, made after the analysis.
        let loc = ir.ops[add].loc;
        let operands = ir.ops[add].operands.clone();
        let copy = ir.create_op(Opcode::AddI, &operands, &[Type::I32], loc);
        ir.insert_op_before(copy, store);
        let v = ir.ops[copy].results[0];
        assert!(facts.uni.is_divergent(v));
        assert!(!facts.uniform_use(v, store));
        assert!(
            !facts.uniform_use(u, copy),
            "a use by an unknown op is divergent"
        );
        let br = ir.create_op(Opcode::Br, &[], &[], loc);
        assert!(facts.uni.is_divergent_branch(br));
    }

    /// The select rule: a divergent choice may not feed readlane's lane index (a uniform
    /// operand) or any operand of a cross-lane op; it may feed an add.
    #[test]
    fn select_rule_follows_the_registry() {
        let (ir, func, _) = setup();
        let find = |code| {
            ir.descendants(func)
                .find(|&o| ir.opcode(o) == code)
                .unwrap()
        };
        let (rl, add) = (find(Opcode::ReadLane), find(Opcode::AddI));
        assert!(!can_select(&ir, rl, 1, false));
        assert!(!can_select(&ir, rl, 0, false));
        assert!(can_select(&ir, rl, 1, true));
        assert!(can_select(&ir, add, 0, false));
    }

    /// Threads: the arm of a uniform branch and its join run with the entry's threads, so a
    /// readlane may move between them. (The divergent case is in the filetests:
    /// tests/filetests/legality/.)
    #[test]
    fn same_threads_across_uniform_branches() {
        let (ir, func, facts) = setup();
        let region = ir.ops[func].regions[0];
        let blocks: Vec<Block> = ir.region_blocks(region).collect();
        let (entry, a, b) = (blocks[0], blocks[1], blocks[2]);
        assert!(facts.same_threads(&ir, entry, b));
        assert!(
            facts.same_threads(&ir, entry, a),
            "the branch on %c is uniform"
        );
        let rl = ir
            .descendants(func)
            .find(|&o| ir.opcode(o) == Opcode::ReadLane)
            .unwrap();
        assert!(convergence_allows(&ir, &facts, rl, b, a));
    }
}
