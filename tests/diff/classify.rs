//! Explanations of disagreements between kc and LLVM 22, each backed by a named filetest in
//! `tests/filetests/uniformity_diff/` that states why kc's verdict is sound.
//!
//! A mismatch is a *root* when its own item shows the pattern of a class, or *derived* when
//! it follows from explained mismatches: kc divergent through a reason (`Reason`) that names
//! an explained item, or LLVM divergent only through explained items (every operand LLVM
//! calls divergent is an explained mismatch, and the rest of LLVM's causes are explained
//! temporal uses). Classification runs to a fixed point; what is left is unexplained and fails
//! the test.

use super::llvm::FuncVerdicts;
use super::{Item, KernelDiff, Mismatch};
use kc_compiler::target::is_folded;
use kc_dialect::analysis::sync_dependence::SyncDependence;
use kc_dialect::analysis::{CycleId, Reason, Uniformity};
use kc_dialect::{Block, Ir, Op, Opcode, Type, Value, ValueDef};
use std::collections::{HashMap, HashSet};

/// Why kc and LLVM disagree on an item, when the disagreement is understood.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// kc divergent: an argument of a divergent cycle exit whose incoming values differ
    /// (constants, or values from outside the cycle); LLVM misses it (#216100).
    /// `divergent_exit_constants.mlir`.
    DivergentExitArgs,
    /// kc divergent: temporal divergence of an always-uniform value defined in a cycle
    /// inside a cycle assumed divergent, which LLVM 22 skips.
    /// `assumed_divergent_temporal.mlir`.
    AssumedCycleTemporal,
    /// kc uniform: computed in the convergence region of a loop's heart token after the loop
    /// (threads there are on the same iteration); LLVM 22 has no token logic and calls it
    /// temporally divergent. `heart_region.k`.
    HeartRegion,
    /// kc divergent: after a heart's region, a value an always-uniform convergent op computed
    /// in the region from the loop's values (one per iteration); LLVM 22 ignores the token
    /// and calls it uniform. `heart_region.k`.
    HeartRegionAfter,
    /// kc uniform: in an irreducible cycle where a divergent branch sends both edges (with
    /// different arguments) to one block: LLVM's split edge block makes that block a join of
    /// two paths, and LLVM assumes the cycle divergent. `same_target_join.mlir`.
    SameTargetEntry,
    /// Either way: an irreducible cycle whose header kc's DFS (first successor first) and
    /// LLVM's (last successor first) choose differently; the verdicts of either cycle
    /// hierarchy are sound, and kc with LLVM's order agrees with LLVM on this item.
    /// `cycle_hierarchy.mlir`.
    CycleHierarchy,
    /// kc divergent: a divergent branch inside a reducible cycle whose diverged path leaves it
    /// and re-enters its header through another entry of an enclosing irreducible cycle; the
    /// closed path has an entry on a diverged path, so kc applies the diverged-entry criterion
    /// to the enclosing cycle (assumed divergent), while LLVM 22 accepts the reducible cycle
    /// (and so depends on the DFS order). `uniformity_seed/re_entry.mlir`.
    ReEntry,
    /// kc uniform: a convergent op whose only LLVM-divergent operand is its convergence
    /// token (LLVM 22 treats tokens as data, e.g. a heart's parent token used after a
    /// divergent exit of the parent's loop, or an anchor token defined in a loop and used
    /// after a divergent exit of it, which LLVM lists as temporal divergence); tokens carry
    /// no value. `token_operand.k`, `token_temporal.k`.
    TokenOperand,
    /// kc divergent: a join of a divergent branch inside an irreducible cycle, where the
    /// branch's innermost cycle is reducible: LLVM 22's join propagation stops early there and
    /// misses the join, so it does not assume the irreducible cycle divergent as its own
    /// internal-diverged-entry rule requires. `reducible_in_irreducible.mlir`.
    ReducibleInIrreducible,
    /// kc uniform: an argument passed the same value on both edges of a divergent branch to
    /// one block, whose other arguments differ: LLVM splits an edge, sees a join and taints
    /// the phi because an incoming from elsewhere (a back edge) differs; the branch diverges
    /// nothing for this argument. `same_target_join.mlir`.
    SameTargetEqualArg,
    /// kc divergent: a use, on the path from a divergent exit, of a value defined in the
    /// cycle the exit leaves, where the exit block lies in a cycle of its own at least as deep
    /// as the exited one: LLVM 22 looks for the exited cycle by comparing depths instead of
    /// containment, stops inside it and misses the temporal divergence (unsound).
    /// `exit_into_cycle.mlir`.
    ExitIntoCycle,
    /// kc divergent: the same cycle, a use after another exit that the divergent exit does
    /// not reach. Both analyses taint every use outside a cycle with a divergent exit; LLVM
    /// 22 skips these only because its depth comparison misses the cycle (with the exit
    /// block in no cycle it taints them too). `exit_into_cycle.mlir`.
    ExitIntoCycleOtherExit,
    /// kc divergent: `atomic_load` is a divergence source for kc (other threads' atomic
    /// writes race with it, so threads may read different values: a spin on a flag exits
    /// at different times), where LLVM 22 calls an atomic load of a uniform address uniform.
    /// `atomic_load.k`.
    AtomicLoadSource,
}

impl Class {
    pub fn describe(self) -> &'static str {
        match self {
            Class::DivergentExitArgs => {
                "kc divergent: divergent cycle exit argument with differing incoming values, missed by LLVM (#216100) [divergent_exit_constants.mlir]"
            }
            Class::AssumedCycleTemporal => {
                "kc divergent: temporal divergence of an always-uniform value in a cycle assumed divergent, skipped by LLVM [assumed_divergent_temporal.mlir]"
            }
            Class::HeartRegion => {
                "kc uniform: use of a loop value in its heart's convergence region (same iteration), LLVM has no token logic [heart_region.k]"
            }
            Class::HeartRegionAfter => {
                "kc divergent: one iteration's cross-lane result from a heart's region used after it, LLVM ignores the token [heart_region.k]"
            }
            Class::SameTargetEntry => {
                "kc uniform: irreducible cycle with a divergent branch whose two edges reach one block, LLVM's split edge makes it a join [same_target_join.mlir]"
            }
            Class::CycleHierarchy => {
                "either: irreducible cycle header differs (DFS order), kc with LLVM's order agrees [cycle_hierarchy.mlir]"
            }
            Class::TokenOperand => {
                "kc uniform: only the convergence token operand is divergent (or temporally divergent) for LLVM, which treats tokens as data [token_operand.k, token_temporal.k]"
            }
            Class::SameTargetEqualArg => {
                "kc uniform: argument equal on both edges of a divergent same-target branch, LLVM's split edge makes a join and taints it [same_target_join.mlir]"
            }
            Class::ReducibleInIrreducible => {
                "kc divergent: join inside an irreducible cycle of a branch whose innermost cycle is reducible; LLVM's propagation stops early and misses it [reducible_in_irreducible.mlir]"
            }
            Class::ExitIntoCycle => {
                "kc divergent: use after a divergent exit into a cycle of its own, LLVM compares depths instead of containment and misses the exited cycle (unsound) [exit_into_cycle.mlir]"
            }
            Class::ExitIntoCycleOtherExit => {
                "kc divergent: use after another exit of a cycle whose divergent exit into a cycle of its own LLVM misses (depth comparison); the rule of both taints it [exit_into_cycle.mlir]"
            }
            Class::AtomicLoadSource => {
                "kc divergent: atomic_load is a divergence source (racing writes), LLVM calls a uniform-address atomic load uniform [atomic_load.k]"
            }
            Class::ReEntry => {
                "kc divergent: diverged path re-enters a reducible cycle's header through an irreducible parent, LLVM accepts the reducible cycle [re_entry.mlir]"
            }
        }
    }
}

/// The convergence region of a loop's heart token: where the token is live (found
/// independently of kc's analysis, by plain liveness).
struct HeartRegion {
    cycle: CycleId,
    token: Value,
    live_in: Vec<bool>,
    live_out: Vec<bool>,
}

impl HeartRegion {
    fn contains_op(&self, ir: &Ir, u: &Uniformity, op: Op) -> bool {
        let Some(b) = ir.op_block(op).and_then(|b| u.cfg.node(b)) else {
            return false;
        };
        if self.live_out[b as usize] {
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

    /// Is the definition point of `v` in the region (and outside the loop)?
    fn contains_def(&self, ir: &Ir, u: &Uniformity, v: Value) -> bool {
        match ir.values[v].def {
            ValueDef::Result(op, _) => {
                self.contains_op(ir, u, op) && !in_cycle(ir, u, self.cycle, op_block(ir, op))
            }
            ValueDef::BlockArg(b, _) => {
                u.cfg.node(b).is_some_and(|n| self.live_in[n as usize])
                    && !in_cycle(ir, u, self.cycle, Some(b))
            }
        }
    }
}

fn op_block(ir: &Ir, op: Op) -> Option<Block> {
    ir.op_block(op)
}

fn in_cycle(_ir: &Ir, u: &Uniformity, c: CycleId, b: Option<Block>) -> bool {
    b.and_then(|b| u.cfg.node(b))
        .is_some_and(|n| u.cycles.contains(c, n))
}

fn def_block(ir: &Ir, v: Value) -> Option<Block> {
    match ir.values[v].def {
        ValueDef::Result(op, _) => ir.op_block(op),
        ValueDef::BlockArg(b, _) => Some(b),
    }
}

/// Defined in cycle `c` and not a constant (LLVM folds those).
fn defined_in(ir: &Ir, u: &Uniformity, c: CycleId, v: Value) -> bool {
    !is_folded(ir, v) && in_cycle(ir, u, c, def_block(ir, v))
}

fn heart_regions(ir: &Ir, u: &Uniformity) -> Vec<HeartRegion> {
    let mut out = Vec::new();
    let users = ir.users(u.func);
    for (i, cy) in u.cycles.cycles.iter().enumerate() {
        let c = CycleId(i as u32);
        let header = u.cfg.blocks[cy.header() as usize];
        let Some(heart) = ir.block_ops(header).find(|&o| {
            ir.opcode(o) == Opcode::ConvLoop
                && ir.ops[o]
                    .operands
                    .first()
                    .is_some_and(|&p| !in_cycle(ir, u, c, def_block(ir, p)))
        }) else {
            continue;
        };
        let token = ir.ops[heart].results[0];
        let def = cy.header();
        let n = u.cfg.len();
        let mut live_in = vec![false; n];
        let mut live_out = vec![false; n];
        let mut stack = Vec::new();
        for &user in &users[token] {
            if let Some(b) = ir.op_block(user).and_then(|b| u.cfg.node(b)) {
                if b != def && !live_in[b as usize] {
                    live_in[b as usize] = true;
                    stack.push(b);
                }
            }
        }
        while let Some(b) = stack.pop() {
            for &p in &u.cfg.preds[b as usize] {
                live_out[p as usize] = true;
                if p != def && !live_in[p as usize] {
                    live_in[p as usize] = true;
                    stack.push(p);
                }
            }
        }
        out.push(HeartRegion {
            cycle: c,
            token,
            live_in,
            live_out,
        });
    }
    out
}

/// The block labels of a cycle as LLVM prints it: `depth=1: entries(a b) c d`.
fn llvm_cycle_blocks(line: &str) -> HashSet<String> {
    let rest = line.split_once(": ").map_or(line, |(_, r)| r);
    rest.replace("entries(", " ")
        .replace(')', " ")
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// Everything the explanations look at.
struct Ctx<'a> {
    ir: &'a Ir,
    d: &'a KernelDiff,
    u: &'a Uniformity,
    llvm: &'a FuncVerdicts,
    regions: Vec<HeartRegion>,
    params: Vec<Value>,
    /// (value name, user name or user text) of LLVM's temporal divergence list.
    temporal: HashSet<(String, String)>,
    assumed: Vec<HashSet<String>>,
    exit_cycles: Vec<HashSet<String>>,
    /// kc with LLVM's DFS order (kernels with irreducible cycles only), and whether it is
    /// allowed as an explanation.
    alt: Option<&'a Uniformity>,
}

impl Ctx<'_> {
    fn name(&self, v: Value) -> &str {
        &self.d.names.values[v]
    }

    fn llvm_divergent(&self, v: Value) -> bool {
        if self.ir.value_type(v) == Type::Token || is_folded(self.ir, v) {
            return false;
        }
        if self.params.contains(&v) {
            return self.llvm.argument(self.name(v));
        }
        self.llvm.value(self.name(v)).unwrap_or(false)
    }

    /// Is the use of `w` by the LLVM counterpart of `user` in LLVM's temporal list? `user_v`
    /// is the value the user defines (a phi for a block argument), if any.
    fn llvm_temporal(&self, w: Value, user_v: Option<Value>, term_cond: bool) -> bool {
        let wn = self.name(w).to_string();
        if let Some(uv) = user_v {
            // The user is the value itself or a helper the translation adds for it
            // (`%x.gep`, `%x.addr`, `%x.reduce`, ...).
            let un = self.name(uv);
            let helper = format!("{un}.");
            if self
                .temporal
                .iter()
                .any(|(a, b)| *a == wn && (b == un || b.starts_with(&helper)))
            {
                return true;
            }
        }
        term_cond
            && self
                .temporal
                .iter()
                .any(|(a, b)| *a == wn && b.starts_with(&format!("br i1 %{wn},")))
    }

    fn block_label(&self, b: Block) -> &str {
        &self.d.names.blocks[b]
    }

    fn in_llvm_cycle(cycles: &[HashSet<String>], label: &str) -> bool {
        cycles.iter().any(|c| c.contains(label))
    }

    /// The region (of a heart of a cycle not containing `user`) that contains `user`, for a
    /// use of `w` defined in that cycle.
    fn region_use(&self, w: Value, user: Op) -> Option<&HeartRegion> {
        self.regions.iter().find(|r| {
            defined_in(self.ir, self.u, r.cycle, w)
                && !in_cycle(self.ir, self.u, r.cycle, self.ir.op_block(user))
                && r.contains_op(self.ir, self.u, user)
        })
    }
}

/// Sets `class` on the mismatches of `d` that an explanation covers; `alt` is kc's result
/// with LLVM's DFS order, if the hierarchy explanation is allowed.
pub fn classify(ir: &Ir, d: &mut KernelDiff, llvm: &FuncVerdicts, alt: Option<&Uniformity>) {
    if d.mismatches.is_empty() {
        return;
    }
    let mut ms = std::mem::take(&mut d.mismatches);
    {
        let ctx = Ctx {
            ir,
            d,
            u: &d.u,
            llvm,
            regions: heart_regions(ir, &d.u),
            params: d
                .u
                .cfg
                .blocks
                .first()
                .map(|&b| ir.blocks[b].args.clone())
                .unwrap_or_default(),
            temporal: llvm
                .temporal
                .iter()
                .map(|t| {
                    (
                        t.value.clone(),
                        t.user.clone().unwrap_or_else(|| t.user_text.clone()),
                    )
                })
                .collect(),
            assumed: llvm
                .assumed_divergent
                .iter()
                .map(|l| llvm_cycle_blocks(l))
                .collect(),
            exit_cycles: llvm
                .divergent_exit
                .iter()
                .map(|l| llvm_cycle_blocks(l))
                .collect(),
            alt,
        };
        let mut sd = SyncDependence::new(&d.u.cfg, &d.u.cycles);
        // 1. "kc divergent" mismatches follow kc's reasons, which are acyclic and only name
        //    kc-divergent items: a least fixed point.
        fixpoint(&mut ms, |m, done| {
            if !m.kc_divergent {
                return None;
            }
            explain_kc_divergent(&ctx, m, done).or_else(|| hierarchy(&ctx, m).map(|c| (c, true)))
        });
        // 2. "kc uniform, LLVM divergent" mismatches can depend on each other in cycles (a
        //    loop value and its update). First the greatest set whose causes are all explained
        //    or in the set (dropping an item with an unexplainable cause, unless the cycle
        //    hierarchy explains it), then a least fixed point explains them from their roots;
        //    a cycle of them without a root stays unexplained.
        let mut pending: HashSet<Item> = ms
            .iter()
            .filter(|m| !m.kc_divergent && m.class.is_none())
            .map(|m| m.item)
            .collect();
        loop {
            let done: HashMap<Item, Class> = ms
                .iter()
                .filter_map(|m| m.class.map(|c| (m.item, c)))
                .collect();
            let mut changed = false;
            let mut failed = Vec::new();
            for m in ms.iter_mut().filter(|m| pending.contains(&m.item)) {
                if let Uniform::Fail = explain_kc_uniform(&ctx, m, &done, &pending, &mut sd) {
                    failed.push(m.item);
                    if let Some(c) = hierarchy(&ctx, m) {
                        m.class = Some(c);
                        m.root = true;
                    }
                    changed = true;
                }
            }
            for item in failed {
                pending.remove(&item);
            }
            if !changed {
                break;
            }
        }
        fixpoint(&mut ms, |m, done| {
            if !pending.contains(&m.item) {
                return None;
            }
            match explain_kc_uniform(&ctx, m, done, &pending, &mut sd) {
                Uniform::Explained(c, root) => Some((c, root)),
                _ => None,
            }
        });
        let left: Vec<usize> = (0..ms.len()).filter(|&i| ms[i].class.is_none()).collect();
        for i in left {
            if let Some(c) = hierarchy(&ctx, &ms[i]) {
                ms[i].class = Some(c);
                ms[i].root = true;
            }
        }
    }
    d.mismatches = ms;
}

/// Classifies mismatches with `explain` until nothing changes (`done`: the classes so far).
fn fixpoint(
    ms: &mut [Mismatch],
    mut explain: impl FnMut(&Mismatch, &HashMap<Item, Class>) -> Option<(Class, bool)>,
) {
    loop {
        let done: HashMap<Item, Class> = ms
            .iter()
            .filter_map(|m| m.class.map(|c| (m.item, c)))
            .collect();
        let mut changed = false;
        for m in ms.iter_mut().filter(|m| m.class.is_none()) {
            if let Some((class, root)) = explain(m, &done) {
                m.class = Some(class);
                m.root = root;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

/// kc with LLVM's DFS order agrees with LLVM on this item.
fn hierarchy(ctx: &Ctx, m: &Mismatch) -> Option<Class> {
    let alt = ctx.alt?;
    let agrees = match m.item {
        Item::Value(v) => alt.is_divergent(v) != m.kc_divergent,
        Item::Branch(t) => alt.is_divergent_branch(t) != m.kc_divergent,
    };
    agrees.then_some(Class::CycleHierarchy)
}

/// kc divergent, LLVM uniform: follow kc's reason.
fn explain_kc_divergent(
    ctx: &Ctx,
    m: &Mismatch,
    done: &HashMap<Item, Class>,
) -> Option<(Class, bool)> {
    let ir = ctx.ir;
    let reason = match m.item {
        Item::Value(v) => ctx.u.reason(v)?,
        Item::Branch(t) => ctx.u.branch_reason(t)?,
    };
    let derived = |item: Item| done.get(&item).map(|&c| (c, false));
    let temporal_first = match m.item {
        Item::Value(v) => match ir.values[v].def {
            ValueDef::BlockArg(b, i) => {
                incoming_values(ir, ctx.u, b, i).into_iter().any(|(p, w)| {
                    ir.terminator(p)
                        .is_some_and(|t| assumed_temporal_use(ctx, w, t))
                })
            }
            ValueDef::Result(op, _) => ir.ops[op]
                .operands
                .iter()
                .any(|&w| assumed_temporal_use(ctx, w, op)),
        },
        Item::Branch(t) => assumed_temporal_use(ctx, ir.ops[t].operands[0], t),
    };
    if temporal_first {
        return Some((Class::AssumedCycleTemporal, true));
    }
    match *reason {
        Reason::Operand { operand, .. } => derived(Item::Value(operand)),
        Reason::Incoming { value, .. } => derived(Item::Value(value)),
        Reason::Join { branch, block } | Reason::DivergentExit { branch, block, .. } => {
            if let Some(x) = derived(Item::Branch(branch)) {
                return Some(x);
            }
            let Item::Value(v) = m.item else { return None };
            // The block is an exit of the outermost cycle containing the branch but not it.
            let bn = ctx.u.cfg.node(ir.op_block(branch)?)?;
            let xn = ctx.u.cfg.node(block)?;
            let cycle = ctx.u.cycles.outermost_excluding(bn, xn)?;
            // #216100: LLVM agrees the cycle has a divergent exit, and the argument's incoming
            // values differ, none of them a value of the cycle (LLVM would catch that).
            let bb = ir.op_block(branch)?;
            let exit_listed = Ctx::in_llvm_cycle(&ctx.exit_cycles, ctx.block_label(bb));
            let ValueDef::BlockArg(xb, i) = ir.values[v].def else {
                return None;
            };
            if xb != block {
                return None;
            }
            let incoming = incoming_values(ir, ctx.u, xb, i);
            let from_cycle = incoming.iter().any(|&(p, w)| {
                in_cycle(ir, ctx.u, cycle, Some(p)) && defined_in(ir, ctx.u, cycle, w)
            });
            let differ = incoming
                .iter()
                .any(|&(_, w)| !same_value(ir, w, incoming[0].1));
            (exit_listed && differ && !from_cycle).then_some((Class::DivergentExitArgs, true))
        }
        Reason::Temporal {
            value: w, cycle, ..
        } => {
            if let Some(x) = derived(Item::Value(w)) {
                return Some(x);
            }
            // The cycle has a divergent exit for kc only because of a branch in it that is an
            // explained mismatch (LLVM lists no divergent exit for it).
            let header = ctx.u.cfg.blocks[ctx.u.cycles.cycle(cycle).header() as usize];
            if !Ctx::in_llvm_cycle(&ctx.exit_cycles, ctx.block_label(header)) {
                let from_branch = done.iter().find_map(|(item, &c)| match *item {
                    Item::Branch(t) if in_cycle(ir, ctx.u, cycle, ir.op_block(t)) => {
                        Some((c, false))
                    }
                    _ => None,
                });
                if from_branch.is_some() {
                    return from_branch;
                }
            }
            if ctx.llvm_divergent(w) {
                return None;
            }
            if defined_in(ir, ctx.u, cycle, w) {
                let missed = depth_missed_exits(ctx, cycle);
                if !missed.is_empty() {
                    let use_block = match m.item {
                        Item::Value(v) => def_block(ir, v),
                        Item::Branch(t) => ir.op_block(t),
                    };
                    let un = use_block.and_then(|b| ctx.u.cfg.node(b))?;
                    let on_path = missed.iter().any(|&x| reaches(&ctx.u.cfg, x, un));
                    let class = if on_path {
                        Class::ExitIntoCycle
                    } else {
                        Class::ExitIntoCycleOtherExit
                    };
                    return Some((class, true));
                }
            }
            if !defined_in(ir, ctx.u, cycle, w) {
                // A value computed in the heart's region from the loop's values: LLVM calls
                // it uniform only because a cross-lane op there (always uniform for LLVM, which
                // ignores the token) stands between it and the loop's values.
                let r = ctx
                    .regions
                    .iter()
                    .find(|r| r.cycle == cycle && r.contains_def(ir, ctx.u, w))?;
                return via_cross_lane(ctx, r, w, &mut HashSet::new())
                    .then_some((Class::HeartRegionAfter, true));
            }
            // An always-uniform value in a cycle inside a cycle LLVM assumes divergent.
            let op = ir.defining_op(w)?;
            let label = ctx.block_label(ir.op_block(op)?);
            (ir.spec(op).has(kc_dialect::Traits::ALWAYS_UNIFORM)
                && Ctx::in_llvm_cycle(&ctx.assumed, label))
            .then_some((Class::AssumedCycleTemporal, true))
        }
        Reason::DivergentCycle { branch, .. } => {
            // The branch is divergent only for kc, for an explained reason.
            if let Some(x) = derived(Item::Branch(branch)) {
                return Some(x);
            }
            // kc's re-entry rule, in kc's hierarchy or (when the hierarchies differ) in the one
            // LLVM's DFS order gives, where LLVM's verdict comes from.
            let alt_reason = ctx.alt.and_then(|a| match m.item {
                Item::Value(v) => a.reason(v).map(|r| (a, r)),
                Item::Branch(t) => a.branch_reason(t).map(|r| (a, r)),
            });
            if re_entry(ir, ctx.u, reason) || alt_reason.is_some_and(|(a, r)| re_entry(ir, a, r)) {
                return Some((Class::ReEntry, true));
            }
            let (llvm_u, llvm_reason) = alt_reason.unwrap_or((ctx.u, reason));
            missed_irreducible_join(ctx, llvm_u, llvm_reason)
                .then_some((Class::ReducibleInIrreducible, true))
        }
        Reason::Source(op) => {
            (ir.opcode(op) == Opcode::AtomicLoad).then_some((Class::AtomicLoadSource, true))
        }
    }
}

/// The divergent exits of `cycle` that LLVM 22 does not attribute to it. LLVM's
/// `propagateCycleExitDivergence` climbs from the divergent branch's innermost cycle while
/// the cycle is deeper than the exit block's innermost cycle (its comment says: the
/// outermost cycle that does not contain the exit). When the exit block lies in a cycle of
/// its own that does not contain `cycle` and is at least as deep, the climb stops inside
/// `cycle`. Returns those exits (nodes of `u`'s CFG) of branches in `cycle` that LLVM calls
/// divergent too, or nothing when LLVM lists `cycle` or a cycle around it with a divergent
/// exit anyway.
fn depth_missed_exits(ctx: &Ctx, cycle: CycleId) -> Vec<u32> {
    let (ir, u) = (ctx.ir, ctx.u);
    let blocks = u.cycles.blocks(cycle);
    let labels: Vec<&str> = blocks
        .iter()
        .map(|&n| ctx.block_label(u.cfg.blocks[n as usize]))
        .collect();
    if ctx
        .exit_cycles
        .iter()
        .any(|l| labels.iter().all(|b| l.contains(*b)))
    {
        return Vec::new();
    }
    let depth = u.cycles.cycle(cycle).depth;
    let mut out = Vec::new();
    for &n in &blocks {
        let b = u.cfg.blocks[n as usize];
        let Some(t) = ir.terminator(b) else { continue };
        if !u.is_divergent_branch(t) || ctx.llvm.terminator(ctx.block_label(b)) != Some(true) {
            continue;
        }
        let Some(inner) = u.cycles.innermost(n) else {
            continue;
        };
        for j in u.joins_of(t).filter(|j| j.is_exit) {
            let Some(x) = u.cfg.node(j.block) else {
                continue;
            };
            if u.cycles.contains(cycle, x) || out.contains(&x) {
                continue;
            }
            // LLVM's climb: the last cycle deeper than the exit block's innermost one.
            let exit_depth = u.cycles.innermost(x).map_or(0, |c| u.cycles.cycle(c).depth);
            let mut found = inner;
            let mut cur = Some(inner);
            while let Some(c) = cur.filter(|&c| u.cycles.cycle(c).depth > exit_depth) {
                found = c;
                cur = u.cycles.cycle(c).parent;
            }
            if u.cycles.cycle(found).depth > depth {
                out.push(x);
            }
        }
    }
    out
}

/// Is node `to` reachable from node `from` (or the same)?
fn reaches(cfg: &kc_dialect::analysis::RegionCfg, from: u32, to: u32) -> bool {
    let mut seen = vec![false; cfg.len()];
    let mut stack = vec![from];
    seen[from as usize] = true;
    while let Some(n) = stack.pop() {
        if n == to {
            return true;
        }
        for &s in &cfg.succs[n as usize] {
            if !std::mem::replace(&mut seen[s as usize], true) {
                stack.push(s);
            }
        }
    }
    false
}

/// Is `reason` (kc's, in LLVM's cycle hierarchy `u`) an internal diverged entry that LLVM 22
/// cannot see: the divergent branch's innermost cycle is reducible and nested in an
/// irreducible cycle that holds the join, the join is real (two paths from different
/// successors of the branch meet first there: checked here by counting vertex-disjoint
/// paths, independently of kc's sync dependence), LLVM has the branch divergent, and LLVM
/// assumes no cycle around the join divergent? LLVM's `computeJoinPoints` keeps
/// propagating labels through irreducible cycles only when the branch's innermost cycle is
/// itself irreducible (`IrreducibleAncestor` is null for a reducible one), so it stops at
/// the first single fresh label and misses the join.
fn missed_irreducible_join(ctx: &Ctx, u: &Uniformity, reason: &Reason) -> bool {
    let ir = ctx.ir;
    let Reason::DivergentCycle { branch, join, .. } = *reason else {
        return false;
    };
    let (Some(bb), Some(jn)) = (ir.op_block(branch), u.cfg.node(join)) else {
        return false;
    };
    let Some(bn) = u.cfg.node(bb) else {
        return false;
    };
    let Some(inner) = u.cycles.innermost(bn) else {
        return false;
    };
    let irreducible_ancestor =
        std::iter::successors(u.cycles.cycle(inner).parent, |&c| u.cycles.cycle(c).parent)
            .any(|c| !u.cycles.cycle(c).is_reducible() && u.cycles.contains(c, jn));
    let llvm_branch_divergent = ctx.llvm.terminator(ctx.block_label(bb)) == Some(true);
    u.cycles.cycle(inner).is_reducible()
        && irreducible_ancestor
        && llvm_branch_divergent
        && !Ctx::in_llvm_cycle(&ctx.assumed, ctx.block_label(join))
        && is_join(&u.cfg, bn, jn)
}

/// Do two paths from different successors of `b` (not through `b`) reach `j`, disjoint but
/// for `j`? Unit-capacity max flow on the split-node graph, two augmentations.
fn is_join(cfg: &kc_dialect::analysis::RegionCfg, b: u32, j: u32) -> bool {
    let succs: Vec<u32> = {
        let mut s = cfg.succs[b as usize].to_vec();
        s.sort_unstable();
        s.dedup();
        s
    };
    if succs.len() < 2 {
        return false;
    }
    // Node v is v_in = 2v, v_out = 2v + 1; source = 2n, sink = j_in.
    let n = cfg.len();
    let (src, sink) = (2 * n, 2 * j as usize);
    let mut cap: HashMap<(usize, usize), i32> = HashMap::new();
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); 2 * n + 1];
    let mut edge = |a: usize, c: usize, adj: &mut Vec<Vec<usize>>| {
        if !cap.contains_key(&(a, c)) {
            adj[a].push(c);
            adj[c].push(a);
        }
        *cap.entry((a, c)).or_insert(0) += 1;
        cap.entry((c, a)).or_insert(0);
    };
    for v in 0..n {
        if v as u32 != b && v as u32 != j {
            edge(2 * v, 2 * v + 1, &mut adj);
        }
        if v as u32 == b {
            continue;
        }
        for &w in &cfg.succs[v] {
            if w != b {
                edge(2 * v + 1, 2 * w as usize, &mut adj);
            }
        }
    }
    for &s in &succs {
        if s != b {
            edge(src, 2 * s as usize, &mut adj);
        }
    }
    let mut flow = 0;
    while flow < 2 {
        // BFS for an augmenting path.
        let mut prev = vec![usize::MAX; 2 * n + 1];
        prev[src] = src;
        let mut queue = std::collections::VecDeque::from([src]);
        while let Some(x) = queue.pop_front() {
            for &y in &adj[x] {
                if prev[y] == usize::MAX && cap[&(x, y)] > 0 {
                    prev[y] = x;
                    queue.push_back(y);
                }
            }
        }
        if prev[sink] == usize::MAX {
            break;
        }
        let mut y = sink;
        while y != src {
            let x = prev[y];
            *cap.get_mut(&(x, y)).expect("edge") -= 1;
            *cap.get_mut(&(y, x)).expect("edge") += 1;
            y = x;
        }
        flow += 1;
    }
    flow >= 2
}

/// Is `reason` kc's re-entry rule: the smallest cycle around the branch and the join is
/// reducible with the join as its header, and kc widened to an irreducible parent?
fn re_entry(ir: &Ir, u: &Uniformity, reason: &Reason) -> bool {
    let Reason::DivergentCycle {
        branch,
        cycle,
        join,
    } = *reason
    else {
        return false;
    };
    let (Some(bn), Some(jn)) = (
        ir.op_block(branch).and_then(|b| u.cfg.node(b)),
        u.cfg.node(join),
    ) else {
        return false;
    };
    u.cycles.common_cycle(bn, jn).is_some_and(|common| {
        let cy = u.cycles.cycle(common);
        common != cycle && cy.is_reducible() && cy.header() == jn
    })
}

/// kc's temporal divergence of an always-uniform value `w` defined in a cycle LLVM assumes
/// divergent (which LLVM skips), read by `user`: the other way an item of
/// [`Class::AssumedCycleTemporal`] shows up, when kc recorded another reason first.
fn assumed_temporal_use(ctx: &Ctx, w: Value, user: Op) -> bool {
    let ir = ctx.ir;
    let Some(op) = ir.defining_op(w) else {
        return false;
    };
    ctx.u.is_divergent_use(w, user)
        && !ctx.u.is_divergent(w)
        && ir.spec(op).has(kc_dialect::Traits::ALWAYS_UNIFORM)
        && !ctx.llvm_divergent(w)
        && ir
            .op_block(op)
            .is_some_and(|b| Ctx::in_llvm_cycle(&ctx.assumed, ctx.block_label(b)))
}

/// Does `w`, defined in region `r` outside its loop, depend on the loop's values through a
/// convergent op with a token operand (readfirstlane, ballot, reduce, ...)?
fn via_cross_lane(ctx: &Ctx, r: &HeartRegion, w: Value, seen: &mut HashSet<Value>) -> bool {
    let ir = ctx.ir;
    if !seen.insert(w) || !r.contains_def(ir, ctx.u, w) {
        return false;
    }
    let depends = |ws: Vec<Value>, seen: &mut HashSet<Value>| {
        ws.into_iter().any(|x| via_cross_lane(ctx, r, x, seen))
    };
    match ir.values[w].def {
        ValueDef::Result(op, _) => {
            let ops: Vec<Value> = ir.ops[op]
                .operands
                .iter()
                .copied()
                .filter(|&x| ir.value_type(x) != Type::Token)
                .collect();
            let cross = ir.spec(op).has(kc_dialect::Traits::ALWAYS_UNIFORM)
                && ir.ops[op]
                    .operands
                    .iter()
                    .any(|&x| ir.value_type(x) == Type::Token);
            let feeds_from_loop = ops
                .iter()
                .any(|&x| defined_in(ir, ctx.u, r.cycle, x) || r.contains_def(ir, ctx.u, x));
            (cross && feeds_from_loop) || depends(ops, seen)
        }
        ValueDef::BlockArg(b, i) => {
            let ins: Vec<Value> = incoming_values(ir, ctx.u, b, i)
                .into_iter()
                .map(|(_, x)| x)
                .collect();
            depends(ins, seen)
        }
    }
}

/// kc uniform, LLVM divergent: every cause LLVM can have must be explained, and one must be.
fn explain_kc_uniform(
    ctx: &Ctx,
    m: &Mismatch,
    done: &HashMap<Item, Class>,
    pending: &HashSet<Item>,
    sd: &mut SyncDependence,
) -> Uniform {
    let ir = ctx.ir;
    if same_target_entry(ctx, m) {
        return Uniform::Explained(Class::SameTargetEntry, true);
    }
    // (class, root) of the first explained cause; `ok` false if a cause is unexplained; a
    // cause that is itself a pending mismatch (a cycle of them) neither explains nor fails.
    let mut found: Option<(Class, bool)> = None;
    let mut ok = true;
    let from = |item: Item| match done.get(&item) {
        Some(&c) => Cause::Class(c, false),
        None if pending.contains(&item) => Cause::Pending,
        None => Cause::Fail,
    };
    let mut take = |c: Cause| match c {
        Cause::Class(class, root) => {
            if found.is_none() || root {
                found = Some((class, root));
            }
        }
        Cause::Pending => {}
        Cause::Fail => ok = false,
    };
    match m.item {
        Item::Value(v) => match ir.values[v].def {
            ValueDef::Result(op, _) => {
                // Token operands too: LLVM counts a convergent call's use of a heart token
                // after the loop as a temporally divergent use.
                for &w in &ir.ops[op].operands {
                    if ir.value_type(w) == Type::Token
                        && (ctx.llvm.value(ctx.name(w)) == Some(true)
                            || ctx.llvm_temporal(w, Some(v), false))
                    {
                        // LLVM propagates "divergence" into a token (e.g. a heart's parent
                        // token used after its loop's divergent exit), or calls this use of
                        // the token temporally divergent (an anchor defined in a loop, used
                        // after a divergent exit of it), and on to the token's users; a
                        // token carries no data, so kc does not.
                        take(Cause::root(true, Class::TokenOperand));
                    } else if ctx.llvm_divergent(w) {
                        take(from(Item::Value(w)));
                    } else if ctx.llvm_temporal(w, Some(v), false) {
                        take(Cause::root(
                            ctx.region_use(w, op).is_some(),
                            Class::HeartRegion,
                        ));
                    }
                }
            }
            ValueDef::BlockArg(b, i) => {
                for (p, w) in incoming_values(ir, ctx.u, b, i) {
                    if ctx.llvm_divergent(w) {
                        take(from(Item::Value(w)));
                    } else if ctx.llvm_temporal(w, Some(v), false) || exit_phi_cause(ctx, p, b, w) {
                        // The phi of an exit in the heart's region, fed from the loop.
                        let in_region = ctx.regions.iter().any(|r| {
                            defined_in(ir, ctx.u, r.cycle, w)
                                && !in_cycle(ir, ctx.u, r.cycle, Some(b))
                                && ctx.u.cfg.node(b).is_some_and(|n| r.live_in[n as usize])
                        });
                        take(Cause::root(in_region, Class::HeartRegion));
                    }
                }
                // A divergent branch with both edges to `b`, other arguments differing: LLVM
                // splits an edge, finds a join and taints every phi whose incomings are not
                // all one value; this argument is the same on the branch's two edges, so the
                // branch diverges nothing here and kc keeps it uniform.
                if same_target_equal_arg(ctx, b, i as usize) {
                    take(Cause::root(true, Class::SameTargetEqualArg));
                }
                // Sync dependence on a branch LLVM calls divergent and kc uniform.
                let Some(node) = ctx.u.cfg.node(b) else {
                    return Uniform::Fail;
                };
                let branches = done
                    .iter()
                    .map(|(&item, &c)| (item, Cause::Class(c, false)))
                    .chain(pending.iter().map(|&item| (item, Cause::Pending)));
                for (item, cause) in branches {
                    let Item::Branch(t) = item else { continue };
                    if ctx.u.is_divergent_branch(t) {
                        continue;
                    }
                    let Some(tb) = ir.op_block(t).and_then(|tb| ctx.u.cfg.node(tb)) else {
                        continue;
                    };
                    let desc = sd.branch(tb);
                    if desc.joins.contains(&node) || desc.divergent_exits.contains(&node) {
                        take(cause);
                    }
                }
            }
        },
        Item::Branch(t) => {
            let cond = ir.ops[t].operands[0];
            if ctx.llvm_divergent(cond) {
                take(from(Item::Value(cond)));
            } else if ctx.llvm_temporal(cond, None, true) {
                take(Cause::root(
                    ctx.region_use(cond, t).is_some(),
                    Class::HeartRegion,
                ));
            }
        }
    }
    match (ok, found) {
        (false, _) => Uniform::Fail,
        (true, Some((class, root))) => Uniform::Explained(class, root),
        (true, None) => Uniform::Pending,
    }
}

/// One cause of LLVM's divergence verdict.
enum Cause {
    Class(Class, bool),
    Pending,
    Fail,
}

impl Cause {
    fn root(holds: bool, class: Class) -> Cause {
        if holds {
            Cause::Class(class, true)
        } else {
            Cause::Fail
        }
    }
}

/// The verdict on a "kc uniform, LLVM divergent" mismatch.
enum Uniform {
    Explained(Class, bool),
    /// Every cause is explained or pending, none explained yet.
    Pending,
    Fail,
}

/// The item lies in a cycle LLVM assumes divergent and kc does not, and a divergent branch
/// sends both its edges, with different arguments, to one block in it (from outside or
/// inside the cycle).
fn same_target_entry(ctx: &Ctx, m: &Mismatch) -> bool {
    let ir = ctx.ir;
    let block = match m.item {
        Item::Value(v) => def_block(ir, v),
        Item::Branch(t) => ir.op_block(t),
    };
    let Some(node) = block.and_then(|b| ctx.u.cfg.node(b)) else {
        return false;
    };
    if ctx
        .u
        .assumed_divergent
        .iter()
        .any(|&c| ctx.u.cycles.contains(c, node))
    {
        return false;
    }
    let label = ctx.block_label(ctx.u.cfg.blocks[node as usize]).to_string();
    ctx.assumed
        .iter()
        .filter(|c| c.contains(&label))
        .any(|cycle| {
            ctx.u.cfg.blocks.iter().any(|&tb| {
                let Some(t) = ir.terminator(tb) else {
                    return false;
                };
                let [a, b] = &ir.ops[t].succs[..] else {
                    return false;
                };
                ctx.u.is_divergent_branch(t)
                    && a.block == b.block
                    && a.args != b.args
                    && cycle.contains(ctx.block_label(a.block))
            })
        })
}

/// Is argument `i` of block `b` passed the same value on both edges of a branch that both
/// kc and LLVM call divergent, whose two edges go to `b` with other arguments differing (so
/// LLVM's translation splits one edge and LLVM sees a join at `b`)?
fn same_target_equal_arg(ctx: &Ctx, b: Block, i: usize) -> bool {
    let ir = ctx.ir;
    let Some(node) = ctx.u.cfg.node(b) else {
        return false;
    };
    i < ir.blocks[b].args.len()
        && ctx.u.cfg.preds[node as usize]
            .iter()
            .filter_map(|&p| ir.terminator(ctx.u.cfg.blocks[p as usize]))
            .any(|t| {
                let [x, y] = &ir.ops[t].succs[..] else {
                    return false;
                };
                let tb = ir.op_block(t).map(|tb| ctx.block_label(tb).to_string());
                x.block == b
                    && y.block == b
                    && x.args != y.args
                    && same_value(ir, x.args[i], y.args[i])
                    && ctx.u.is_divergent_branch(t)
                    && tb.is_some_and(|l| ctx.llvm.terminator(&l) == Some(true))
            })
}

/// LLVM marks an exit phi divergent when its cycle has a divergent exit and the incoming
/// value is defined in the cycle: is `w` (from `p` into exit `x`) such a value?
fn exit_phi_cause(ctx: &Ctx, p: Block, x: Block, w: Value) -> bool {
    let (Some(pn), Some(xn)) = (ctx.u.cfg.node(p), ctx.u.cfg.node(x)) else {
        return false;
    };
    let mut c = ctx.u.cycles.innermost(pn);
    while let Some(cy) = c {
        if ctx.u.cycles.contains(cy, xn) {
            break;
        }
        if defined_in(ctx.ir, ctx.u, cy, w) {
            return true;
        }
        c = ctx.u.cycles.cycle(cy).parent;
    }
    false
}

/// The incoming values of argument `i` of block `b`: (predecessor block, value) per edge.
fn incoming_values(ir: &Ir, u: &Uniformity, b: Block, i: u32) -> Vec<(Block, Value)> {
    let i = i as usize;
    let mut out = Vec::new();
    let Some(n) = u.cfg.node(b) else { return out };
    for &p in &u.cfg.preds[n as usize] {
        let pb = u.cfg.blocks[p as usize];
        let Some(t) = ir.terminator(pb) else { continue };
        for s in ir.ops[t].succs.iter().filter(|s| s.block == b) {
            out.push((pb, s.args[i]));
        }
    }
    out
}

/// One SSA value, or constants with the same text.
fn same_value(ir: &Ir, a: Value, b: Value) -> bool {
    if a == b {
        return true;
    }
    let konst = |v: Value| {
        let op = ir.defining_op(v)?;
        (ir.opcode(op) == Opcode::Constant)
            .then(|| (format!("{:?}", ir.attr(op, "value")), ir.value_type(v)))
    };
    konst(a).is_some() && konst(a) == konst(b)
}
