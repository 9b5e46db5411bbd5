//! Random CF-form `.mlir` kernels on arbitrary control-flow graphs.
//!
//! The CFG is a random spanning tree (so every block is reachable) plus random extra edges,
//! forward, backward and to itself, so cycles with several entries (irreducible), nested
//! cycles and nested irreducible cycles are common. Blocks get `i32` arguments; branches
//! pass values available at the branch (defined in a dominator or the block itself) or
//! constants defined right there, so loop-carried values, values leaving cycles and
//! different constants on different edges all occur. Conditions compare values that are
//! mostly uniform (parameters, `workgroup_id`, `readfirstlane`, ...) or mostly divergent
//! (`workitem_id`, `lane_id`, atomics, loads at divergent indices, ...), or are `i1` values.
//!
//! `i1` values flow through everything an `i1` may: block arguments, every integer op and
//! compare (division only by a true divisor in [`exec_kernel`]), selects, ballots, branch
//! conditions, and the casts between `i1` and `i32` / `f32` both ways.
//!
//! [`exec_kernel`] writes kernels that the reference interpreter and the simulator must run
//! alike (`tests/cf_exec_diff.rs`): no cross-lane op, each work-item stores and updates
//! atomically only its own slots of `%out`, and loads read the input `%buf` (64 elements) at
//! indices masked into it. Every cycle ends: a block with a retreating edge (of a depth-first
//! search from the entry; every cycle has one) first takes one unit of the work-item's fuel (a
//! counter in `%fuel`) and returns when none is left.
//!
//! With [`CfTokens::Entry`] the kernel has a `conv.entry` token: convergent ops outside
//! cycles use it, top-level reducible cycles usually get a heart (`conv.loop` in the header)
//! whose token the cycle's own blocks use and, sometimes, an exit block after the cycle too
//! (the heart's convergence region then extends past the cycle); other cycles use anchors.

use super::Rng;
use kc_dialect::analysis::{CycleId, CycleInfo, DomTree, RegionCfg};
use kc_dialect::Block;
use std::fmt::Write;

/// Convergence tokens in a generated CF kernel.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CfTokens {
    /// No token at all (kc keeps CF input token-free).
    None,
    /// `conv.entry`, hearts and anchors on every convergent op.
    Entry,
}

/// A random CF kernel named `name`, a function of `seed` alone.
pub fn kernel(name: &str, seed: u64, tokens: CfTokens) -> String {
    let mut rng = Rng::new(seed);
    let n = rng.range(3, 11);
    let succs = random_cfg(&mut rng, n);
    Emitter::new(name, rng, succs, tokens, false).run()
}

/// A random CF kernel named `name` whose result is defined by the program alone (see the
/// module comment): `(%c: i1, %d: i1, %n: i32, %buf: !kernel.ptr<global, i32>, %out:
/// !kernel.ptr<global, i32>, %fuel: !kernel.ptr<global, i32>)`, with `%buf` holding 64
/// elements, `%out` four per work-item of the grid and `%fuel` one.
pub fn exec_kernel(name: &str, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let n = rng.range(3, 11);
    let succs = random_cfg(&mut rng, n);
    Emitter::new(name, rng, succs, CfTokens::None, true).run()
}

/// Successor lists (1 or 2 targets, or none for a return) of a random CFG whose blocks are
/// all reachable from block 0, which no edge targets.
fn random_cfg(rng: &mut Rng, n: usize) -> Vec<Vec<usize>> {
    let mut kids: Vec<Vec<usize>> = vec![Vec::new(); n];
    for j in 1..n {
        let cands: Vec<usize> = (0..j).filter(|&p| kids[p].len() < 2).collect();
        // Prefer recent blocks: chains and nests rather than only fans.
        let p = if rng.chance(60) {
            cands[cands.len() - 1 - rng.below(cands.len().min(3))]
        } else {
            *rng.pick(&cands)
        };
        kids[p].push(j);
    }
    let any_target = |rng: &mut Rng| rng.range(1, n - 1);
    // Irreducible cycles on purpose: for some blocks `p` branching to two tree children `a`
    // and `b`, add `a -> b` and `b -> a` where there is room, so the cycle through `a` and `b`
    // is entered at both (inside a larger cycle this nests an irreducible one).
    let mut extra: Vec<Option<usize>> = vec![None; n];
    for p in 0..n {
        if kids[p].len() == 2 && rng.chance(40) {
            let (a, b) = (kids[p][0], kids[p][1]);
            if kids[a].len() < 2 && extra[a].is_none() {
                extra[a] = Some(b);
            }
            if kids[b].len() < 2 && extra[b].is_none() {
                extra[b] = Some(a);
            }
        }
    }
    let mut succs = Vec::with_capacity(n);
    for (b, mut k) in kids.into_iter().enumerate() {
        if let Some(x) = extra[b] {
            k.insert(rng.below(k.len() + 1), x);
            succs.push(k);
            continue;
        }
        let s = match k.len() {
            0 => {
                let r = rng.below(100);
                if b == n - 1 || r < 40 {
                    vec![]
                } else if r < 65 {
                    vec![any_target(rng)]
                } else {
                    vec![any_target(rng), any_target(rng)]
                }
            }
            1 => {
                if rng.chance(45) {
                    k
                } else {
                    let extra = any_target(rng);
                    if rng.chance(50) {
                        vec![k[0], extra]
                    } else {
                        vec![extra, k[0]]
                    }
                }
            }
            _ => {
                if rng.chance(50) {
                    k
                } else {
                    vec![k[1], k[0]]
                }
            }
        };
        succs.push(s);
    }
    succs
}

#[derive(Clone)]
struct Val {
    name: String,
    /// `i1` rather than `i32`.
    bool: bool,
    /// Rough guess used to bias conditions (not a verdict).
    divergent: bool,
}

struct Emitter {
    name: String,
    rng: Rng,
    succs: Vec<Vec<usize>>,
    preds: Vec<Vec<usize>>,
    dom: DomTree,
    cycles: CycleInfo,
    tokens: CfTokens,
    /// Per block: the token its convergent ops use (`None`: an anchor per op).
    block_token: Vec<Option<String>>,
    /// Per block: the heart defined at its top.
    heart_in: Vec<Option<String>>,
    /// Values defined in each block (arguments first), for dominated blocks to use.
    defs: Vec<Vec<Val>>,
    /// Per block: its arguments' names, and whether each is `i1` (else `i32`).
    args: Vec<Vec<(String, bool)>>,
    next: usize,
    /// An [`exec_kernel`].
    exec: bool,
    /// Stores so far (an [`exec_kernel`] cycles through the work-item's four slots).
    stores: usize,
    /// Per block: whether one of its edges retreats (an [`exec_kernel`] guards it by fuel).
    retreats: Vec<bool>,
}

impl Emitter {
    fn new(
        name: &str,
        mut rng: Rng,
        succs: Vec<Vec<usize>>,
        tokens: CfTokens,
        exec: bool,
    ) -> Emitter {
        let n = succs.len();
        let mut preds = vec![Vec::new(); n];
        for (b, ss) in succs.iter().enumerate() {
            for &s in ss {
                if !preds[s].contains(&b) {
                    preds[s].push(b);
                }
            }
        }
        let cfg = fake_cfg(&succs, &preds);
        let dom = DomTree::dominators(&cfg);
        let cycles = CycleInfo::compute(&cfg);
        let mut args = vec![Vec::new(); n];
        let mut next = 0;
        for a in args.iter_mut().skip(1) {
            let k = *rng.pick(&[0, 0, 1, 1, 2]);
            for _ in 0..k {
                next += 1;
                a.push((format!("a{next}"), rng.chance(30)));
            }
        }
        let mut e = Emitter {
            name: name.into(),
            rng,
            succs,
            preds,
            dom,
            cycles,
            tokens,
            block_token: vec![None; n],
            heart_in: vec![None; n],
            defs: vec![Vec::new(); n],
            args,
            next,
            exec,
            stores: 0,
            retreats: Vec::new(),
        };
        e.retreats = retreating(&e.succs);
        if tokens == CfTokens::Entry {
            e.place_tokens();
        }
        e
    }

    fn fresh(&mut self, p: &str) -> String {
        self.next += 1;
        format!("{p}{}", self.next)
    }

    /// Decides which token each block's convergent ops use.
    fn place_tokens(&mut self) {
        let n = self.succs.len();
        for b in 0..n {
            if self.cycles.innermost(b as u32).is_none() {
                self.block_token[b] = Some("%e".into());
            }
        }
        let tops: Vec<CycleId> = self.cycles.top_level.clone();
        for c in tops {
            let cy = self.cycles.cycle(c).clone();
            if !cy.is_reducible() || !self.rng.chance(75) {
                continue;
            }
            let header = cy.header() as usize;
            let h = self.fresh("h");
            self.heart_in[header] = Some(h.clone());
            // The cycle's own blocks (not those of nested cycles) use the heart.
            for &b in &cy.own_blocks {
                self.block_token[b as usize] = Some(format!("%{h}"));
            }
            // Sometimes an exit block after the cycle uses it too.
            if !self.rng.chance(60) {
                continue;
            }
            let exits = self
                .cycles
                .exit_blocks(&fake_cfg(&self.succs, &self.preds), c);
            let Some(&x) = exits.iter().find(|&&x| {
                self.cycles.innermost(x).is_none() && self.dom.dominates(header as u32, x)
            }) else {
                continue;
            };
            // The heart is live on every path from the cycle to `x`: those blocks must be
            // outside every cycle, and then use the heart (not the entry token) themselves.
            let mut live = vec![false; n];
            let mut stack = vec![x as usize];
            live[x as usize] = true;
            let mut ok = true;
            while let Some(b) = stack.pop() {
                for &p in &self.preds[b] {
                    if self.cycles.contains(c, p as u32) || live[p] {
                        continue;
                    }
                    if self.cycles.innermost(p as u32).is_some() {
                        ok = false;
                    }
                    live[p] = true;
                    stack.push(p);
                }
            }
            if ok {
                for (b, &l) in live.iter().enumerate() {
                    if l {
                        self.block_token[b] = Some(format!("%{h}"));
                    }
                }
            }
        }
    }

    fn run(mut self) -> String {
        let n = self.succs.len();
        let mut out = format!("kernel.func @{} {{\n", self.name);
        // Blocks in dominator-tree preorder so a block's dominators are done before it; the
        // text is assembled in layout order at the end.
        let mut texts = vec![String::new(); n];
        let order: Vec<u32> = self.dom.preorder().to_vec();
        for b in order {
            texts[b as usize] = self.block(b as usize);
        }
        for t in texts {
            out.push_str(&t);
        }
        if self.exec && self.retreats.contains(&true) {
            out.push_str("^exit:\n  kernel.return\n");
        }
        out.push_str("}\n");
        out
    }

    /// Values usable in block `b` before its own definitions: those of its strict dominators.
    fn available(&self, b: usize) -> Vec<Val> {
        let mut v = Vec::new();
        let mut cur = self.dom.idom(b as u32);
        while let Some(d) = cur {
            v.extend(self.defs[d as usize].iter().cloned());
            cur = self.dom.idom(d);
        }
        v
    }

    fn block(&mut self, b: usize) -> String {
        let mut s = String::new();
        let mut avail = self.available(b);
        if b == 0 {
            if self.exec {
                s.push_str(
                    "^entry(%c: i1, %d: i1, %n: i32, %buf: !kernel.ptr<global, i32>, \
                     %out: !kernel.ptr<global, i32>, %fuel: !kernel.ptr<global, i32>):\n",
                );
            } else {
                s.push_str("^entry(%c: i1, %d: i1, %n: i32, %buf: !kernel.ptr<global, i32>):\n");
            }
            let params = [("c", true, false), ("d", true, false), ("n", false, false)];
            for (p, bool, divergent) in params {
                avail.push(Val {
                    name: format!("%{p}"),
                    bool,
                    divergent,
                });
            }
            if self.tokens == CfTokens::Entry {
                s.push_str("  %e = conv.entry : !conv.token\n");
            }
            s.push_str("  %tid = kernel.workitem_id x : i32\n");
            s.push_str("  %wg = kernel.workgroup_id x : i32\n");
            // True and false, not folded: a divisor and a signed dividend that keep i1
            // division defined.
            s.push_str("  %zero = arith.constant 0 : i32\n");
            s.push_str("  %true = arith.cmpi sge, %tid, %zero : i32\n");
            s.push_str("  %false = arith.cmpi slt, %wg, %zero : i32\n");
            if self.exec {
                // The work-item's slots of `%out`: 4 * global id + 0..3.
                s.push_str("  %size = kernel.workgroup_size x : i32\n");
                s.push_str("  %base = arith.muli %wg, %size : i32\n");
                s.push_str("  %gid = arith.addi %base, %tid : i32\n");
                s.push_str("  %four = arith.constant 4 : i32\n");
                s.push_str("  %slot0 = arith.muli %gid, %four : i32\n");
                for k in 1..4 {
                    let _ = writeln!(s, "  %kslot{k} = arith.constant {k} : i32");
                    let _ = writeln!(s, "  %slot{k} = arith.addi %slot0, %kslot{k} : i32");
                }
                s.push_str("  %mask63 = arith.constant 63 : i32\n");
                s.push_str("  %limit = arith.constant 24 : i32\n");
                s.push_str("  kernel.store %limit, %fuel, %gid : !kernel.ptr<global, i32>, i32\n");
            }
            avail.push(Val {
                name: "%tid".into(),
                bool: false,
                divergent: true,
            });
            avail.push(Val {
                name: "%wg".into(),
                bool: false,
                divergent: false,
            });
            for (name, divergent) in [("%true", true), ("%false", false)] {
                avail.push(Val {
                    name: name.into(),
                    bool: true,
                    divergent,
                });
            }
        } else {
            let args: Vec<String> = self.args[b]
                .iter()
                .map(|(a, bool)| format!("%{a}: {}", if *bool { "i1" } else { "i32" }))
                .collect();
            if args.is_empty() {
                let _ = writeln!(s, "^b{b}:");
            } else {
                let _ = writeln!(s, "^b{b}({}):", args.join(", "));
            }
            for (a, bool) in self.args[b].clone() {
                avail.push(Val {
                    name: format!("%{a}"),
                    bool,
                    divergent: false,
                });
            }
        }
        if let Some(h) = self.heart_in[b].clone() {
            let _ = writeln!(s, "  %{h} = conv.loop %e : !conv.token");
        }
        let own_start = avail.len();
        let k = self.rng.range(0, 4);
        for _ in 0..k {
            self.op(b, &mut s, &mut avail);
        }
        self.terminator(b, &mut s, &avail);
        // Arguments and definitions of the entry block are the parameters and ids too.
        let own: Vec<Val> = if b == 0 {
            avail.clone()
        } else {
            avail[own_start - self.args[b].len()..].to_vec()
        };
        self.defs[b] = own;
        s
    }

    fn pick_i32(&mut self, avail: &[Val], div: Option<bool>) -> Val {
        let ints: Vec<&Val> = avail.iter().filter(|v| !v.bool).collect();
        if let Some(d) = div {
            let pref: Vec<&Val> = ints.iter().copied().filter(|v| v.divergent == d).collect();
            if !pref.is_empty() && self.rng.chance(80) {
                return (*self.rng.pick(&pref)).clone();
            }
        }
        (*self.rng.pick(&ints)).clone()
    }

    /// The token operand suffix for a convergent op in `b` (defining an anchor if needed).
    fn token(&mut self, b: usize, s: &mut String) -> String {
        if self.tokens == CfTokens::None {
            return String::new();
        }
        match self.block_token[b].clone() {
            Some(t) => format!(", {t}"),
            None => {
                let a = self.fresh("t");
                let _ = writeln!(s, "  %{a} = conv.anchor : !conv.token");
                format!(", %{a}")
            }
        }
    }

    fn op(&mut self, b: usize, s: &mut String, avail: &mut Vec<Val>) {
        let v = self.fresh("v");
        let mut kind = self
            .rng
            .weighted(&[25, 8, 6, 6, 5, 5, 4, 4, 4, 4, 3, 5, 16]);
        if self.exec && matches!(kind, 5..=7) {
            // No cross-lane op in a kernel both engines must run alike.
            kind = 12;
        }
        let (bool, divergent) = match kind {
            12 => self.bool_op(&v, s, avail),
            11 => {
                let x = self.pick_i32(avail, None);
                self.typed_chain(s, &v, &x.name);
                (false, x.divergent)
            }
            0 if self.rng.chance(30) => {
                // The same ops on i1.
                let op = *self
                    .rng
                    .pick(&["addi", "subi", "muli", "xori", "andi", "ori"]);
                let x = self.pick_i1(avail);
                let y = self.pick_i1(avail);
                let _ = writeln!(s, "  %{v} = arith.{op} {}, {} : i1", x.name, y.name);
                (true, x.divergent || y.divergent)
            }
            0 => {
                let op = *self
                    .rng
                    .pick(&["addi", "subi", "muli", "xori", "andi", "ori"]);
                let x = self.pick_i32(avail, None);
                let y = self.pick_i32(avail, None);
                let _ = writeln!(s, "  %{v} = arith.{op} {}, {} : i32", x.name, y.name);
                (false, x.divergent || y.divergent)
            }
            1 => {
                let c = self.rng.below(8);
                let _ = writeln!(s, "  %{v} = arith.constant {c} : i32");
                (false, false)
            }
            2 => {
                let div = self.rng.chance(50);
                let x = self.pick_i32(avail, Some(div));
                let y = self.pick_i32(avail, Some(div));
                let p = *self.rng.pick(&PREDICATES);
                let _ = writeln!(s, "  %{v} = arith.cmpi {p}, {}, {} : i32", x.name, y.name);
                (true, x.divergent || y.divergent)
            }
            3 => {
                let i = self.pick_i32(avail, None);
                let idx = if self.exec {
                    let m = self.fresh("m");
                    let _ = writeln!(s, "  %{m} = arith.andi {}, %mask63 : i32", i.name);
                    format!("%{m}")
                } else {
                    i.name.clone()
                };
                let _ = writeln!(
                    s,
                    "  %{v} = kernel.load %buf, {idx} : !kernel.ptr<global, i32>, i32"
                );
                (false, i.divergent)
            }
            4 => {
                let i = self.pick_i32(avail, None);
                let x = self.pick_i32(avail, None);
                let p = self.fresh("p");
                let (buf, idx) = if self.exec {
                    ("%out", self.own_slot())
                } else {
                    ("%buf", i.name.clone())
                };
                let _ = writeln!(
                    s,
                    "  %{p} = kernel.ptr_offset {buf}, {idx} : !kernel.ptr<global, i32>, i32"
                );
                let _ = writeln!(s, "  %{v} = kernel.atomic add, %{p}, {} {{ordering = \"seq_cst\", scope = \"agent\"}} : !kernel.ptr<global, i32>", x.name);
                (false, true)
            }
            5 => {
                let x = self.pick_i32(avail, None);
                let t = self.token(b, s);
                let _ = writeln!(s, "  %{v} = kernel.readfirstlane {}{t} : i32", x.name);
                (false, false)
            }
            6 => {
                let x = self.pick_i32(avail, None);
                let kind = *self.rng.pick(&["add", "min", "umax"]);
                let t = self.token(b, s);
                let _ = writeln!(s, "  %{v} = kernel.reduce {kind}, {}{t} : i32", x.name);
                (false, false)
            }
            7 => {
                let bools: Vec<Val> = avail.iter().filter(|v| v.bool).cloned().collect();
                let c = self.rng.pick(&bools).clone();
                let t = self.token(b, s);
                let w = self.fresh("w");
                let _ = writeln!(s, "  %{w} = kernel.ballot {}{t} : i64", c.name);
                let _ = writeln!(s, "  %{v} = arith.trunci %{w} : i64 to i32");
                (false, false)
            }
            8 => {
                let bools: Vec<Val> = avail.iter().filter(|v| v.bool).cloned().collect();
                let c = self.rng.pick(&bools).clone();
                if self.rng.chance(30) {
                    let x = self.pick_i1(avail);
                    let y = self.pick_i1(avail);
                    let _ = writeln!(
                        s,
                        "  %{v} = arith.select {}, {}, {} : i1",
                        c.name, x.name, y.name
                    );
                    return avail.push(Val {
                        name: format!("%{v}"),
                        bool: true,
                        divergent: c.divergent || x.divergent || y.divergent,
                    });
                }
                let x = self.pick_i32(avail, None);
                let y = self.pick_i32(avail, None);
                let _ = writeln!(
                    s,
                    "  %{v} = arith.select {}, {}, {} : i32",
                    c.name, x.name, y.name
                );
                (false, c.divergent || x.divergent || y.divergent)
            }
            9 => {
                if self.exec || self.rng.chance(50) {
                    let _ = writeln!(s, "  %{v} = kernel.lane_id : i32");
                    (false, true)
                } else {
                    let x = self.pick_i32(avail, None);
                    let l = self.pick_i32(avail, None);
                    let t = self.token(b, s);
                    let _ = writeln!(s, "  %{v} = kernel.shuffle {}, {}{t} : i32", x.name, l.name);
                    (false, true)
                }
            }
            _ => {
                let x = self.pick_i32(avail, None);
                let i = self.pick_i32(avail, None);
                let (buf, idx) = if self.exec {
                    ("%out", self.own_slot())
                } else {
                    ("%buf", i.name)
                };
                let _ = writeln!(
                    s,
                    "  kernel.store {}, {buf}, {idx} : !kernel.ptr<global, i32>, i32",
                    x.name
                );
                return;
            }
        };
        if bool && self.exec && self.rng.chance(50) {
            // Observed directly, not only through the branches and selects it reaches.
            let (e, slot) = (self.fresh("x"), self.own_slot());
            let _ = writeln!(s, "  %{e} = arith.extsi %{v} : i1 to i32");
            let _ = writeln!(
                s,
                "  kernel.store %{e}, %out, {slot} : !kernel.ptr<global, i32>, i32"
            );
        }
        avail.push(Val {
            name: format!("%{v}"),
            bool,
            divergent,
        });
    }

    /// `%v: i32` computed from `x: i32` through 64-bit integer or `f32` ops, including those
    /// only IR input reaches (`negf`, `minimumf`, `maximumf`, `remf`, `bitcast`, `trunci`).
    fn typed_chain(&mut self, s: &mut String, v: &str, x: &str) {
        let (a, b, c) = (self.fresh("x"), self.fresh("x"), self.fresh("x"));
        if self.rng.chance(50) {
            let ext = *self.rng.pick(&["extsi", "extui"]);
            let op = *self.rng.pick(&[
                "addi", "muli", "xori", "shrui", "shrsi", "shli", "maxsi", "minui", "remui",
                "divsi",
            ]);
            let k = *self.rng.pick(&["3", "33", "4294967297", "-7"]);
            let _ = writeln!(s, "  %{a} = arith.{ext} {x} : i32 to i64");
            let _ = writeln!(s, "  %{b} = arith.constant {k} : i64");
            let _ = writeln!(s, "  %{c} = arith.{op} %{a}, %{b} : i64");
            let _ = writeln!(s, "  %{v} = arith.trunci %{c} : i64 to i32");
        } else {
            let conv = *self.rng.pick(&["sitofp", "uitofp", "bitcast"]);
            let _ = writeln!(s, "  %{a} = arith.{conv} {x} : i32 to f32");
            match self.rng.below(3) {
                0 => {
                    let _ = writeln!(s, "  %{b} = arith.negf %{a} : f32");
                }
                _ => {
                    let k = *self.rng.pick(&["1.5", "-0.0", "3.0e+38"]);
                    let d = self.fresh("x");
                    let _ = writeln!(s, "  %{d} = arith.constant {k} : f32");
                    let op = *self.rng.pick(&[
                        "addf", "subf", "mulf", "divf", "remf", "minimumf", "maximumf",
                    ]);
                    let _ = writeln!(s, "  %{b} = arith.{op} %{a}, %{d} : f32");
                }
            }
            let back = *self.rng.pick(&["fptosi", "fptoui", "bitcast"]);
            let _ = writeln!(s, "  %{c} = arith.{back} %{b} : f32 to i32");
            let _ = writeln!(s, "  %{v} = arith.addi %{c}, {x} : i32");
        }
    }

    fn pick_i1(&mut self, avail: &[Val]) -> Val {
        let bools: Vec<&Val> = avail.iter().filter(|v| v.bool).collect();
        (*self.rng.pick(&bools)).clone()
    }

    /// The next of the work-item's own slots of `%out` (an [`exec_kernel`]).
    fn own_slot(&mut self) -> String {
        self.stores += 1;
        format!("%slot{}", self.stores % 4)
    }

    /// `%v` from an op on `i1` operands or a cast to or from `i1`: whether `%v` is `i1`, and
    /// the divergence guess.
    fn bool_op(&mut self, v: &str, s: &mut String, avail: &[Val]) -> (bool, bool) {
        match self.rng.below(6) {
            0 => {
                let op = *self.rng.pick(&[
                    "addi", "subi", "muli", "andi", "ori", "xori", "shli", "shrui", "shrsi",
                    "maxsi", "minsi", "maxui", "minui",
                ]);
                let x = self.pick_i1(avail);
                let y = self.pick_i1(avail);
                let _ = writeln!(s, "  %{v} = arith.{op} {}, {} : i1", x.name, y.name);
                (true, x.divergent || y.divergent)
            }
            1 => {
                // Division is defined for a true divisor, and, signed, a false dividend (true
                // is -1: -1 / -1 overflows); elsewhere any operands.
                let op = *self.rng.pick(&["divui", "remui", "divsi", "remsi"]);
                let (mut x, mut y) = (self.pick_i1(avail), self.pick_i1(avail));
                if self.exec {
                    y = avail.iter().find(|v| v.name == "%true").unwrap().clone();
                    if op.ends_with("si") {
                        x = avail.iter().find(|v| v.name == "%false").unwrap().clone();
                    }
                }
                let _ = writeln!(s, "  %{v} = arith.{op} {}, {} : i1", x.name, y.name);
                (true, x.divergent || y.divergent)
            }
            2 => {
                let p = *self.rng.pick(&PREDICATES);
                let x = self.pick_i1(avail);
                let y = self.pick_i1(avail);
                let _ = writeln!(s, "  %{v} = arith.cmpi {p}, {}, {} : i1", x.name, y.name);
                (true, x.divergent || y.divergent)
            }
            3 => {
                let x = self.pick_i32(avail, None);
                if self.rng.chance(50) {
                    let _ = writeln!(s, "  %{v} = arith.trunci {} : i32 to i1", x.name);
                } else {
                    // Through f32: x / 4 (fractions, and values beyond +-1 both ways).
                    let (f, q, g) = (self.fresh("x"), self.fresh("x"), self.fresh("x"));
                    let conv = *self.rng.pick(&["fptosi", "fptoui"]);
                    let _ = writeln!(s, "  %{f} = arith.sitofp {} : i32 to f32", x.name);
                    let _ = writeln!(s, "  %{q} = arith.constant 2.500000e-01 : f32");
                    let _ = writeln!(s, "  %{g} = arith.mulf %{f}, %{q} : f32");
                    let _ = writeln!(s, "  %{v} = arith.{conv} %{g} : f32 to i1");
                }
                (true, x.divergent)
            }
            4 => {
                let x = self.pick_i1(avail);
                let ext = *self.rng.pick(&["extsi", "extui"]);
                let _ = writeln!(s, "  %{v} = arith.{ext} {} : i1 to i32", x.name);
                (false, x.divergent)
            }
            _ => {
                // i1 -> f32 -> i32: -1.0 or 1.0 (or 0.0), plus 0.5, truncated.
                let x = self.pick_i1(avail);
                let conv = *self.rng.pick(&["sitofp", "uitofp"]);
                let (f, h, g) = (self.fresh("x"), self.fresh("x"), self.fresh("x"));
                let _ = writeln!(s, "  %{f} = arith.{conv} {} : i1 to f32", x.name);
                let _ = writeln!(s, "  %{h} = arith.constant 1.500000e+00 : f32");
                let _ = writeln!(s, "  %{g} = arith.addf %{f}, %{h} : f32");
                let _ = writeln!(s, "  %{v} = arith.fptosi %{g} : f32 to i32");
                (false, x.divergent)
            }
        }
    }

    fn terminator(&mut self, b: usize, s: &mut String, avail: &[Val]) {
        if self.exec && self.retreats[b] {
            let (f, g, ok) = (self.fresh("f"), self.fresh("f"), self.fresh("ok"));
            let ptr = "!kernel.ptr<global, i32>, i32";
            let _ = writeln!(s, "  %{f} = kernel.load %fuel, %gid : {ptr}");
            let _ = writeln!(s, "  %{g} = arith.subi %{f}, %kslot1 : i32");
            let _ = writeln!(s, "  kernel.store %{g}, %fuel, %gid : {ptr}");
            let _ = writeln!(s, "  %{ok} = arith.cmpi sgt, %{f}, %zero : i32");
            let _ = writeln!(s, "  cf.cond_br %{ok}, ^r{b}, ^exit");
            let _ = writeln!(s, "^r{b}:");
        }
        let succs = self.succs[b].clone();
        let mut targets = Vec::new();
        for &t in &succs {
            let mut vals = Vec::new();
            let mut tys = Vec::new();
            for (_, bool) in self.args[t].clone() {
                tys.push(if bool { "i1" } else { "i32" });
                if self.rng.chance(35) {
                    let k = self.fresh("k");
                    if bool {
                        let c = self.rng.chance(50);
                        let _ = writeln!(s, "  %{k} = arith.constant {c}");
                    } else {
                        let c = self.rng.below(4);
                        let _ = writeln!(s, "  %{k} = arith.constant {c} : i32");
                    }
                    vals.push(format!("%{k}"));
                } else if bool {
                    vals.push(self.pick_i1(avail).name);
                } else {
                    vals.push(self.pick_i32(avail, None).name);
                }
            }
            if vals.is_empty() {
                targets.push(format!("^b{t}"));
            } else {
                let tys = tys.join(", ");
                targets.push(format!("^b{t}({} : {tys})", vals.join(", ")));
            }
        }
        match targets.len() {
            0 => {
                if self.rng.chance(50) {
                    let x = self.pick_i32(avail, None);
                    let idx = if self.exec {
                        self.own_slot()
                    } else {
                        "%wg".into()
                    };
                    let _ = writeln!(
                        s,
                        "  kernel.store {}, {buf}, {idx} : !kernel.ptr<global, i32>, i32",
                        x.name,
                        buf = if self.exec { "%out" } else { "%buf" }
                    );
                }
                s.push_str("  kernel.return\n");
            }
            1 => {
                let _ = writeln!(s, "  cf.br {}", targets[0]);
            }
            _ => {
                let cond = self.condition(s, avail);
                let _ = writeln!(s, "  cf.cond_br {cond}, {}, {}", targets[0], targets[1]);
            }
        }
    }

    /// A condition: an `i1` parameter, or a comparison biased to uniform or divergent.
    fn condition(&mut self, s: &mut String, avail: &[Val]) -> String {
        if self.rng.chance(15) {
            return (*self.rng.pick(&["%c", "%d"])).to_string();
        }
        if self.rng.chance(20) {
            return self.pick_i1(avail).name;
        }
        let div = self.rng.chance(50);
        let x = self.pick_i32(avail, Some(div));
        let y = self.pick_i32(avail, Some(div));
        let v = self.fresh("q");
        let p = *self.rng.pick(&["slt", "eq", "ne", "sgt"]);
        let _ = writeln!(s, "  %{v} = arith.cmpi {p}, {}, {} : i32", x.name, y.name);
        format!("%{v}")
    }
}

/// Per block: whether it has an edge to a block on the stack of a depth-first search from
/// block 0 (a retreating edge: every cycle has one).
fn retreating(succs: &[Vec<usize>]) -> Vec<bool> {
    let n = succs.len();
    let mut out = vec![false; n];
    let (mut seen, mut on_stack) = (vec![false; n], vec![false; n]);
    // (block, index of the next successor to visit).
    let mut stack = vec![(0usize, 0usize)];
    seen[0] = true;
    on_stack[0] = true;
    while let Some(&mut (b, ref mut k)) = stack.last_mut() {
        let Some(&t) = succs[b].get(*k) else {
            on_stack[b] = false;
            stack.pop();
            continue;
        };
        *k += 1;
        if on_stack[t] {
            out[b] = true;
        } else if !seen[t] {
            seen[t] = true;
            on_stack[t] = true;
            stack.push((t, 0));
        }
    }
    out
}

/// The `arith.cmpi` predicates.
const PREDICATES: [&str; 10] = [
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];

/// A [`RegionCfg`] over placeholder blocks, to run kc's CFG analyses on a generated graph.
fn fake_cfg(succs: &[Vec<usize>], preds: &[Vec<usize>]) -> RegionCfg {
    use cranelift_entity::EntityRef;
    let blocks: Vec<Block> = (0..succs.len()).map(Block::new).collect();
    let mut cfg = RegionCfg {
        region: None,
        blocks: blocks.clone(),
        ..RegionCfg::default()
    };
    for (i, &b) in blocks.iter().enumerate() {
        cfg.index[b] = i as u32;
    }
    cfg.succs = succs
        .iter()
        .map(|ss| {
            let mut v = kc_dialect::analysis::NodeList::new();
            for &s in ss {
                if !v.contains(&(s as u32)) {
                    v.push(s as u32);
                }
            }
            v
        })
        .collect();
    cfg.preds = preds
        .iter()
        .map(|ps| ps.iter().map(|&p| p as u32).collect())
        .collect();
    cfg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic() {
        let a = kernel("k", 5, CfTokens::None);
        assert_eq!(a, kernel("k", 5, CfTokens::None));
        assert!(kernel("k", 6, CfTokens::Entry).contains("conv.entry"));
    }
}
