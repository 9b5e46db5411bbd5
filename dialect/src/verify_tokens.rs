//! The token verifier: the static rules of controlled convergence, on kernels in CF form.
//!
//! The rules are those of LLVM's ConvergentOperations.rst ("static rules") as its convergence
//! verifier checks them; a *use* of a token `T` is an op taking `T` as its operand.
//!
//! **Pre-condition**: `ir` passes [`verify`](crate::verify::verify). That verifier owns the
//! rules valid at every stage, which are therefore not repeated here: operand, result and type
//! shapes; a token is made only by `conv.entry/anchor/loop`, used only as the trailing operand
//! of a convergent op that takes one or as the parent of `conv.loop`, and never passed as a
//! block argument (so only convergent ops take tokens); every use is dominated by its
//! definition. On IR that fails `verify` this pass does not panic, but its findings may be
//! incomplete or repeat that verifier's.
//!
//! **Scope**: every `kernel.func` in CF form, i.e. with no `kernel.if` / `kernel.loop` left (its
//! blocks end in `cf.br`, `cf.cond_br` or `kernel.return`). Structured kernels are skipped: the
//! source checker scopes tokens there, and `lower-to-cf` makes them CF kernels, checked then.
//! Kernels without any `conv.*` op use no tokens (uncontrolled convergence): nothing to check.
//!
//! **Post-condition** (`Ok`): for every CF kernel that uses tokens,
//! 1. `conv.entry` is in the entry block, at most once, before every other convergent op of
//!    that block;
//! 2. cycles: a use of `T` inside a cycle that does not contain `T`'s definition is a
//!    `conv.loop` (the cycle's *heart*); the outermost cycle containing the heart but not the
//!    definition is reducible and the heart is in its header (so it dominates the cycle); and
//!    such a cycle has at most one heart. Checking cycles instead of closed paths is enough, so a
//!    closed path without `T`'s definition holds at most one use of `T`, a heart dominating it;
//! 3. `conv.loop` comes before every other convergent op of its block;
//! 4. (`verify`) a token's definition dominates its uses;
//! 5. (`verify`) only convergent ops take tokens;
//! 6. no mixing: every op that can take a token (`Traits::TAKES_TOKEN`) has one;
//! 7. convergence regions nest. The region of `T` is the set of points dominated by its
//!    definition from which a use of `T` is reachable. Checked as LLVM does: blocks are visited
//!    in reverse post-order carrying the stack of live tokens; a definition pushes its token, a
//!    use of `T` must find `T` on the stack and pops the tokens above it (tokens defined inside
//!    `T`'s region, whose regions must end before this use: a later use of one is the
//!    violation); a block starts with the intersection of the stacks its already-visited
//!    predecessors end with, keeping only tokens whose definition dominates the block
//!    (retreating edges do not contribute).
//!
//! `Err` holds one error per violation at the offending op, in layout order (a use that breaks
//! the nesting is not checked further against rule 2).
//!
//! **Cost**: the CFG, dominator tree and cycle forest of each kernel using tokens, then one
//! layout walk and one RPO walk. A stack of live tokens is not copied per edge: every stack ever
//! formed is a root path of the *token tree* (a token's parent is the top of the stack at its
//! definition), so a stack is its top node; popping down to `T` moves to an ancestor, the
//! intersection of two stacks is their nearest common ancestor, and the dominance filter keeps
//! a prefix (tokens on a stack are ordered by dominance). With binary lifting each of those is
//! O(log #tokens), so the walk is O((ops + edges) · log #tokens). Cycle containment is O(1) from
//! an Euler numbering of the cycle forest; finding the outermost cycle of a heart walks up from
//! its block's innermost cycle, which stops at once for a heart in its cycle's header (a header
//! belongs to no child cycle), so only erroneous uses pay O(cycle depth).

use crate::analysis::cycles::{CycleId, CycleInfo};
use crate::analysis::{DomTree, RegionCfg};
use crate::entities::{Block, Op, Region, Value};
use crate::ir::Ir;
use crate::registry::{Opcode, Traits};
use crate::types::Type;
use crate::verify::VerifyError;
use cranelift_entity::SecondaryMap;

/// Checks the static token rules on every kernel in CF form (see the module docs).
pub fn verify_tokens(ir: &Ir) -> Result<(), Vec<VerifyError>> {
    let mut errors = Vec::new();
    for func in ir.kernels() {
        check_kernel(ir, func, &mut errors);
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

fn is_conv(code: Opcode) -> bool {
    matches!(
        code,
        Opcode::ConvEntry | Opcode::ConvAnchor | Opcode::ConvLoop
    )
}

/// The token an op uses, if any (verified IR has at most one token operand).
fn token_operand(ir: &Ir, op: Op) -> Option<Value> {
    ir.ops[op]
        .operands
        .iter()
        .copied()
        .find(|&v| ir.value_type(v) == Type::Token)
}

fn check_kernel(ir: &Ir, func: Op, out: &mut Vec<VerifyError>) {
    if !ir.is_cf_kernel(func) {
        return;
    }
    let region = ir.ops[func].regions[0];
    let Some(entry) = ir.entry_block(region) else {
        return;
    };
    let mut k = Kernel {
        ir,
        errors: Vec::new(),
        order: SecondaryMap::with_capacity(ir.ops.len()),
    };
    if !k.check_placement(region, entry) {
        return; // no tokens in this kernel
    }
    k.check_flow(region);
    // Layout order, so that diagnostics read top to bottom whichever walk found them.
    k.errors.sort_by_key(|(op, _)| k.order[*op]);
    out.extend(k.errors.into_iter().map(|(op, message)| VerifyError {
        op,
        loc: ir.ops[op].loc,
        message,
    }));
}

struct Kernel<'a> {
    ir: &'a Ir,
    errors: Vec<(Op, String)>,
    /// Layout position of every op of the kernel.
    order: SecondaryMap<Op, u32>,
}

impl Kernel<'_> {
    fn err(&mut self, op: Op, message: String) {
        self.errors.push((op, message));
    }

    fn value_name(&self, v: Value) -> String {
        self.ir
            .value_name(v)
            .map_or_else(|| format!("{v}"), |n| format!("%{n}"))
    }

    fn block_name(&self, cfg: &RegionCfg, node: u32) -> String {
        let b = cfg.blocks[node as usize];
        match self.ir.blocks[b].name.as_deref() {
            Some(n) => format!("^{n}"),
            None => format!("^bb{node}"),
        }
    }

    /// Rules 1, 3 and 6, in one layout walk. Returns whether the kernel uses tokens.
    fn check_placement(&mut self, region: Region, entry: Block) -> bool {
        let ir = self.ir;
        let mut pos = 0u32;
        let mut controlled = false;
        let mut first_entry: Option<Op> = None;
        let mut uncontrolled: Vec<Op> = Vec::new();
        for b in ir.region_blocks(region) {
            // The first convergent op of the block.
            let mut first_convergent: Option<Op> = None;
            for op in ir.block_ops(b) {
                self.order[op] = pos;
                pos += 1;
                let code = ir.opcode(op);
                let spec = code.spec();
                match code {
                    Opcode::ConvEntry if b != entry => self.err(
                        op,
                        "`conv.entry` must be in the kernel's entry block".into(),
                    ),
                    Opcode::ConvEntry if first_entry.is_some() => {
                        self.err(op, "`conv.entry` may appear only once in a kernel".into())
                    }
                    Opcode::ConvEntry => {
                        first_entry = Some(op);
                        if let Some(prev) = first_convergent {
                            self.err(
                                op,
                                format!(
                                    "`conv.entry` must come before every other convergent op of \
                                     the entry block (`{}` precedes it)",
                                    ir.spec(prev).name
                                ),
                            );
                        }
                    }
                    Opcode::ConvLoop => {
                        if let Some(prev) = first_convergent {
                            self.err(
                                op,
                                format!(
                                    "`conv.loop` must come before every other convergent op of \
                                     its block (`{}` precedes it)",
                                    ir.spec(prev).name
                                ),
                            );
                        }
                    }
                    _ => {}
                }
                if spec.has(Traits::CONVERGENT) && first_convergent.is_none() {
                    first_convergent = Some(op);
                }
                if is_conv(code) {
                    controlled = true;
                } else if spec.has(Traits::TAKES_TOKEN) {
                    if token_operand(ir, op).is_some() {
                        controlled = true;
                    } else {
                        uncontrolled.push(op);
                    }
                }
            }
        }
        if controlled {
            for op in uncontrolled {
                self.err(
                    op,
                    format!(
                        "cannot mix controlled and uncontrolled convergent operations: `{}` has \
                         no convergence token, but the kernel uses tokens",
                        ir.spec(op).name
                    ),
                );
            }
        }
        controlled
    }

    /// Rules 2 and 7, in one RPO walk over the reachable blocks.
    fn check_flow(&mut self, region: Region) {
        let ir = self.ir;
        let cfg = RegionCfg::compute(ir, region);
        let dom = DomTree::dominators(&cfg);
        let info = CycleInfo::compute(&cfg);
        let mut cycles = Cycles {
            forest: ForestOrder::new(&info),
            hearts: vec![None; info.cycles.len()],
            info,
            cfg: &cfg,
        };
        let rpo = reverse_post_order(&cfg);
        let mut rpo_index = vec![u32::MAX; cfg.len()];
        for (i, &b) in rpo.iter().enumerate() {
            rpo_index[b as usize] = i as u32;
        }
        let token_count = rpo
            .iter()
            .flat_map(|&b| ir.block_ops(cfg.blocks[b as usize]))
            .filter(|&o| is_conv(ir.opcode(o)))
            .count();
        let mut tree = TokenTree::new(token_count);
        // Live-token stack (its top node) at the start of each block; `None` until a
        // predecessor has been visited.
        let mut live_in: Vec<Option<u32>> = vec![None; cfg.len()];

        for &b in &rpo {
            let block = cfg.blocks[b as usize];
            let mut top = live_in[b as usize].unwrap_or(TokenTree::ROOT);
            for op in ir.block_ops(block) {
                if let Some(t) = token_operand(ir, op) {
                    // A token without a node is not defined by a `conv.*` op visited before
                    // this use; `verify` reports that.
                    if let Some(node) = tree.node_of(t) {
                        if tree.is_ancestor(node, top) {
                            top = node;
                            let def = tree.def_block[node as usize];
                            self.check_cycle_use(&mut cycles, op, t, b, def);
                        } else {
                            self.err(
                                op,
                                format!(
                                    "convergence region of {} is not well-nested: `{}` uses it \
                                     where it is no longer live (on a path to here, a use of a \
                                     token defined before it ended its region)",
                                    self.value_name(t),
                                    ir.spec(op).name
                                ),
                            );
                        }
                    }
                }
                if is_conv(ir.opcode(op)) {
                    if let Some(&t) = ir.ops[op].results.first() {
                        top = tree.push(top, t, b);
                    }
                }
            }
            for &s in &cfg.succs[b as usize] {
                if rpo_index[s as usize] <= rpo_index[b as usize] {
                    continue; // retreating edge: `s` was visited already
                }
                // The first visited predecessor keeps the tokens whose definition dominates
                // `s` (LLVM's live set; on dominance-verified IR the others could not be used
                // anyway); later ones intersect.
                let slot = &mut live_in[s as usize];
                *slot = Some(match *slot {
                    None => tree.deepest(top, |n| {
                        n == TokenTree::ROOT || dom.dominates(tree.def_block[n as usize], s)
                    }),
                    Some(cur) => tree.common_ancestor(cur, top),
                });
            }
        }
    }

    /// Rule 2 for a use of token `t` (defined in block `def`) by `op` in block `b`.
    fn check_cycle_use(&mut self, cycles: &mut Cycles, op: Op, t: Value, b: u32, def: u32) {
        let ir = self.ir;
        let cfg = cycles.cfg;
        let Some(inner) = cycles.info.innermost(b) else {
            return;
        };
        if def == b || cycles.contains(inner, def) {
            return;
        }
        if ir.opcode(op) != Opcode::ConvLoop {
            let header = self.block_name(cfg, cycles.info.cycle(inner).header());
            self.err(
                op,
                format!(
                    "convergence token {} used by `{}`, not a `conv.loop`, in a cycle that does \
                     not contain the token's definition (cycle with header {header})",
                    self.value_name(t),
                    ir.spec(op).name
                ),
            );
            return;
        }
        // The outermost cycle containing `b` but not `def`.
        let mut c = inner;
        while let Some(p) = cycles.info.cycle(c).parent {
            if cycles.contains(p, def) {
                break;
            }
            c = p;
        }
        let cycle = cycles.info.cycle(c);
        if !cycle.is_reducible() {
            let entries: Vec<String> = cycle
                .entries
                .iter()
                .map(|&e| self.block_name(cfg, e))
                .collect();
            self.err(
                op,
                format!(
                    "cycle heart must dominate all blocks in the cycle: the cycle is irreducible \
                     (entries {})",
                    entries.join(", ")
                ),
            );
            return;
        }
        if cycle.header() != b {
            let (here, header) = (
                self.block_name(cfg, b),
                self.block_name(cfg, cycle.header()),
            );
            self.err(
                op,
                format!(
                    "cycle heart must dominate all blocks in the cycle: `conv.loop` is in {here}, \
                     not in the cycle's header {header}"
                ),
            );
            return;
        }
        match cycles.hearts[c.0 as usize] {
            Some(_) => self.err(
                op,
                format!(
                    "two static convergence token uses in a cycle that does not contain either \
                     token's definition (cycle with header {})",
                    self.block_name(cfg, b)
                ),
            ),
            None => cycles.hearts[c.0 as usize] = Some(op),
        }
    }
}

/// Reachable CFG nodes in reverse post-order (iterative DFS from the entry, node 0).
fn reverse_post_order(cfg: &RegionCfg) -> Vec<u32> {
    let mut post = Vec::with_capacity(cfg.len());
    if cfg.is_empty() {
        return post;
    }
    let mut seen = vec![false; cfg.len()];
    let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
    seen[0] = true;
    while let Some(&mut (v, ref mut i)) = stack.last_mut() {
        if let Some(&w) = cfg.succs[v as usize].get(*i) {
            *i += 1;
            if !std::mem::replace(&mut seen[w as usize], true) {
                stack.push((w, 0));
            }
        } else {
            post.push(v);
            stack.pop();
        }
    }
    post.reverse();
    post
}

/// The cycle forest of a kernel and the state of rule 2.
struct Cycles<'c> {
    cfg: &'c RegionCfg,
    info: CycleInfo,
    forest: ForestOrder,
    /// The heart found so far for each cycle.
    hearts: Vec<Option<Op>>,
}

impl Cycles<'_> {
    /// Does cycle `c` contain block `b` (directly or through a nested cycle)? O(1).
    fn contains(&self, c: CycleId, b: u32) -> bool {
        self.info.innermost(b).is_some_and(|x| {
            let f = &self.forest;
            let (x, c) = (x.0 as usize, c.0 as usize);
            f.enter[c] <= f.enter[x] && f.exit[x] <= f.exit[c]
        })
    }
}

/// Euler numbering of the cycle forest: cycle `x` is nested in (or is) `c` iff its interval
/// lies within `c`'s.
struct ForestOrder {
    enter: Vec<u32>,
    exit: Vec<u32>,
}

impl ForestOrder {
    fn new(cycles: &CycleInfo) -> ForestOrder {
        let n = cycles.cycles.len();
        let mut f = ForestOrder {
            enter: vec![0; n],
            exit: vec![0; n],
        };
        let mut clock = 0u32;
        // (cycle, whether its children were pushed already)
        let mut stack: Vec<(CycleId, bool)> =
            cycles.top_level.iter().rev().map(|&c| (c, false)).collect();
        while let Some((c, done)) = stack.pop() {
            if done {
                f.exit[c.0 as usize] = clock;
                continue;
            }
            f.enter[c.0 as usize] = clock;
            clock += 1;
            stack.push((c, true));
            stack.extend(cycles.cycle(c).children.iter().rev().map(|&x| (x, false)));
        }
        f
    }
}

/// The token tree with binary lifting. Node 0 is the root (the empty stack); every other node
/// is a token, whose parent is the top of the live stack at its definition.
struct TokenTree {
    depth: Vec<u32>,
    /// `up[k][n]`: the 2^k-th ancestor of `n` (the root past the top).
    up: Vec<Vec<u32>>,
    /// The CFG node of each token's defining block (the entry for the root).
    def_block: Vec<u32>,
    /// Token value -> node (`u32::MAX`: none).
    node: SecondaryMap<Value, u32>,
}

impl TokenTree {
    const ROOT: u32 = 0;

    fn new(tokens: usize) -> TokenTree {
        let levels = (usize::BITS - (tokens + 1).leading_zeros()).max(1) as usize;
        TokenTree {
            depth: vec![0],
            up: vec![vec![Self::ROOT]; levels],
            def_block: vec![0],
            node: SecondaryMap::with_default(u32::MAX),
        }
    }

    fn node_of(&self, t: Value) -> Option<u32> {
        Some(self.node[t]).filter(|&n| n != u32::MAX)
    }

    /// Adds token `t`, defined in block `block` while `parent` is the top of the stack.
    fn push(&mut self, parent: u32, t: Value, block: u32) -> u32 {
        let n = self.depth.len() as u32;
        self.depth.push(self.depth[parent as usize] + 1);
        self.def_block.push(block);
        self.up[0].push(parent);
        for k in 1..self.up.len() {
            let mid = self.up[k - 1][n as usize];
            let far = self.up[k - 1][mid as usize];
            self.up[k].push(far);
        }
        self.node[t] = n;
        n
    }

    /// The ancestor of `n` that is `steps` levels up.
    fn lift(&self, mut n: u32, steps: u32) -> u32 {
        for (k, up) in self.up.iter().enumerate() {
            if steps >> k & 1 == 1 {
                n = up[n as usize];
            }
        }
        n
    }

    /// Is `a` an ancestor of `n` or `n` itself (is token `a` on the stack topped by `n`)?
    fn is_ancestor(&self, a: u32, n: u32) -> bool {
        let (da, dn) = (self.depth[a as usize], self.depth[n as usize]);
        da <= dn && self.lift(n, dn - da) == a
    }

    /// Nearest common ancestor (the intersection of two stacks).
    fn common_ancestor(&self, a: u32, b: u32) -> u32 {
        let (da, db) = (self.depth[a as usize], self.depth[b as usize]);
        let (mut a, mut b) = if da >= db {
            (self.lift(a, da - db), b)
        } else {
            (a, self.lift(b, db - da))
        };
        if a == b {
            return a;
        }
        for up in self.up.iter().rev() {
            let (x, y) = (up[a as usize], up[b as usize]);
            if x != y {
                (a, b) = (x, y);
            }
        }
        self.up[0][a as usize]
    }

    /// The deepest ancestor-or-self of `n` satisfying `keep`, which must hold for the root and,
    /// along the path, for every ancestor of a node it holds for.
    fn deepest(&self, mut n: u32, keep: impl Fn(u32) -> bool) -> u32 {
        if keep(n) {
            return n;
        }
        for up in self.up.iter().rev() {
            let x = up[n as usize];
            if !keep(x) {
                n = x;
            }
        }
        self.up[0][n as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text;

    fn messages(src: &str) -> Vec<String> {
        let ir = text::parse(src, "t.mlir").expect("parses");
        assert_eq!(crate::verify::verify(&ir), Ok(()), "base verifier");
        verify_tokens(&ir)
            .err()
            .unwrap_or_default()
            .into_iter()
            .map(|e| e.message)
            .collect()
    }

    #[test]
    fn token_tree_queries() {
        let mut ir = Ir::new();
        let vals: Vec<Value> = (0..6)
            .map(|_| {
                let o = ir.create_op(Opcode::ConvAnchor, &[], &[Type::Token], Default::default());
                ir.ops[o].results[0]
            })
            .collect();
        // root - a - b - c
        //          \- d - e
        let mut t = TokenTree::new(5);
        let a = t.push(TokenTree::ROOT, vals[0], 0);
        let b = t.push(a, vals[1], 1);
        let c = t.push(b, vals[2], 2);
        let d = t.push(a, vals[3], 3);
        let e = t.push(d, vals[4], 4);
        assert!(t.is_ancestor(a, c) && t.is_ancestor(c, c) && t.is_ancestor(TokenTree::ROOT, e));
        assert!(!t.is_ancestor(b, e) && !t.is_ancestor(c, b));
        assert_eq!(t.common_ancestor(c, e), a);
        assert_eq!(t.common_ancestor(b, c), b);
        assert_eq!(t.common_ancestor(TokenTree::ROOT, c), TokenTree::ROOT);
        assert_eq!(t.deepest(c, |n| t.def_block[n as usize] <= 1), b);
        assert_eq!(t.deepest(c, |n| n == TokenTree::ROOT), TokenTree::ROOT);
        assert_eq!(t.deepest(e, |_| true), e);
        assert_eq!(t.node_of(vals[3]), Some(d));
        assert_eq!(t.node_of(vals[5]), None);
    }

    #[test]
    fn deep_token_tree() {
        let mut ir = Ir::new();
        let n = 1000;
        let mut t = TokenTree::new(n);
        let mut nodes = vec![TokenTree::ROOT];
        for i in 0..n {
            let o = ir.create_op(Opcode::ConvAnchor, &[], &[Type::Token], Default::default());
            let v = ir.ops[o].results[0];
            let parent = if i % 3 == 2 { nodes[i / 2] } else { nodes[i] };
            nodes.push(t.push(parent, v, i as u32));
        }
        // Brute force against parent chains.
        let chain = |mut x: u32| {
            let mut out = vec![x];
            while x != TokenTree::ROOT {
                x = t.up[0][x as usize];
                out.push(x);
            }
            out
        };
        for &(x, y) in &[
            (17u32, 999u32),
            (500, 501),
            (1000, 3),
            (64, 128),
            (999, 998),
        ] {
            let (cx, cy) = (chain(x), chain(y));
            let lca = *cx.iter().find(|n| cy.contains(n)).unwrap();
            assert_eq!(t.common_ancestor(x, y), lca, "lca({x}, {y})");
            assert_eq!(t.is_ancestor(x, y), cy.contains(&x));
            let limit = t.def_block[lca as usize];
            let want = *cy
                .iter()
                .find(|&&n| n == TokenTree::ROOT || t.def_block[n as usize] <= limit)
                .unwrap();
            let got = t.deepest(y, |n| {
                n == TokenTree::ROOT || t.def_block[n as usize] <= limit
            });
            assert_eq!(got, want);
        }
    }

    #[test]
    fn structured_and_token_free_kernels_are_skipped() {
        // A structured kernel with a heart inside an `if` would break rule 2 once lowered
        // if it were a loop; skipped here. A CF kernel without tokens may use convergent ops.
        let src = r#"
kernel.func @structured {
^entry(%c: i1, %v: i32):
  %e = conv.entry : !conv.token
  kernel.if %c {
    %r = kernel.readfirstlane %v : i32
    kernel.yield
  } else {
    kernel.yield
  }
  kernel.return
}
kernel.func @free {
^entry(%c: i1, %v: i32):
  cf.cond_br %c, ^a, ^b
^a:
  %r = kernel.readfirstlane %v : i32
  cf.br ^b
^b:
  kernel.return
}
"#;
        assert_eq!(messages(src), Vec::<String>::new());
    }

    #[test]
    fn nested_hearts_and_anchors_pass() {
        let src = r#"
kernel.func @k {
^entry(%c: i1, %v: i32):
  %e = conv.entry : !conv.token
  cf.br ^outer
^outer:
  %h1 = conv.loop %e : !conv.token
  %a = conv.anchor : !conv.token
  %x = kernel.readfirstlane %v, %a : i32
  cf.br ^inner
^inner:
  %h2 = conv.loop %h1 : !conv.token
  %y = kernel.readfirstlane %v, %h2 : i32
  cf.cond_br %c, ^inner, ^latch
^latch:
  %z = kernel.ballot %c, %h1 : i64
  cf.cond_br %c, ^outer, ^exit
^exit:
  kernel.barrier(%e)
  kernel.return
}
"#;
        assert_eq!(messages(src), Vec::<String>::new());
    }

    #[test]
    fn unverified_ir_does_not_panic() {
        // Tokens through block arguments, a successor to the entry block, a use before the
        // definition, two tokens on one op, a non-token parent, a nested kernel: `verify`
        // rejects all of these.
        let srcs = [
            r#"
kernel.func @k {
^entry(%c: i1, %v: i32):
  %e = conv.entry : !conv.token
  cf.br ^a(%e : !conv.token)
^a(%t: !conv.token):
  %h = conv.loop %t : !conv.token
  %x = kernel.readfirstlane %v, %u : i32
  %u = conv.anchor : !conv.token
  cf.cond_br %c, ^a(%h : !conv.token), ^entry
}
"#,
            r#"
kernel.func @k {
^entry(%v: i32):
  %a = conv.anchor : !conv.token
  %b = conv.loop %v : !conv.token
  %x = "kernel.readfirstlane"(%v, %a, %b) : (i32, !conv.token, !conv.token) -> i32
  kernel.func @inner {
  ^c:
    %e = conv.entry : !conv.token
    kernel.return
  }
  cf.br ^entry
}
"#,
        ];
        for src in srcs {
            let ir = text::parse(src, "t.mlir").expect("parses");
            assert!(crate::verify::verify(&ir).is_err());
            let _ = verify_tokens(&ir);
        }
    }

    /// LLVM's algorithm as written there (vector stacks, per-edge copies, quadratic
    /// intersections, parent-walking cycle queries): the ops it flags for rule 7 and rule 2.
    fn reference_flags(ir: &Ir, func: Op) -> (Vec<Op>, Vec<Op>) {
        let region = ir.ops[func].regions[0];
        let cfg = RegionCfg::compute(ir, region);
        let dom = DomTree::dominators(&cfg);
        let cycles = CycleInfo::compute(&cfg);
        let node = |v: Value| cfg.node(ir.value_block(v).unwrap()).unwrap();
        let mut live_map: std::collections::HashMap<u32, Vec<Value>> = Default::default();
        let mut hearts: std::collections::HashMap<CycleId, Op> = Default::default();
        let (mut nesting, mut cycle_flags) = (Vec::new(), Vec::new());
        let rpo = reverse_post_order(&cfg);
        let mut seen = vec![false; cfg.len()];
        for &b in &rpo {
            seen[b as usize] = true;
            let mut live = live_map.remove(&b).unwrap_or_default();
            for op in ir.block_ops(cfg.blocks[b as usize]) {
                if let Some(t) = token_operand(ir, op) {
                    if !live.contains(&t) {
                        nesting.push(op);
                    } else {
                        while live.last() != Some(&t) {
                            live.pop();
                        }
                        let d = node(t);
                        let inner = cycles.innermost(b);
                        if inner.is_some_and(|c| d != b && !cycles.contains(c, d)) {
                            let c = cycles.outermost_excluding(b, d).unwrap();
                            let cy = cycles.cycle(c);
                            if ir.opcode(op) != Opcode::ConvLoop
                                || !cy.is_reducible()
                                || cy.header() != b
                                || hearts.insert(c, op).is_some()
                            {
                                cycle_flags.push(op);
                            }
                        }
                    }
                }
                if is_conv(ir.opcode(op)) {
                    live.push(ir.ops[op].results[0]);
                }
            }
            for &s in &cfg.succs[b as usize] {
                if seen[s as usize] {
                    continue;
                }
                match live_map.get_mut(&s) {
                    None => {
                        let keep: Vec<Value> = live
                            .iter()
                            .copied()
                            .take_while(|&t| dom.dominates(node(t), s))
                            .collect();
                        live_map.insert(s, keep);
                    }
                    Some(v) => v.retain(|t| live.contains(t)),
                }
            }
        }
        (nesting, cycle_flags)
    }

    #[test]
    fn matches_the_reference_algorithm_on_random_kernels() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rand = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut flagged = [0usize; 2];
        for _ in 0..400 {
            // A random CFG: block 0 is the entry; branches go to any other block.
            let n = 2 + rand(7);
            let terms: Vec<String> = (0..n)
                .map(|i| match rand(5) {
                    _ if i + 1 == n => "kernel.return".to_string(),
                    0 => "kernel.return".to_string(),
                    1 => format!("cf.br ^b{}", 1 + rand(n - 1)),
                    _ => format!(
                        "cf.cond_br %c, ^b{}, ^b{}",
                        1 + rand(n - 1),
                        1 + rand(n - 1)
                    ),
                })
                .collect();
            let text = |bodies: &[String]| {
                let mut t = String::from("kernel.func @k {\n^b0(%c: i1, %v: i32):\n");
                for i in 0..n {
                    if i > 0 {
                        t += &format!("^b{i}:\n");
                    }
                    t += &bodies[i];
                    t += &format!("  {}\n", terms[i]);
                }
                t + "}\n"
            };
            let skeleton = text(&vec![String::new(); n]);
            let ir = text::parse(&skeleton, "t.mlir").expect("skeleton parses");
            let func = ir.kernels()[0];
            let cfg = RegionCfg::compute(&ir, ir.ops[func].regions[0]);
            let dom = DomTree::dominators(&cfg);
            // Tokens and uses, each use of a token whose definition dominates it.
            let mut bodies = vec![String::new(); n];
            let mut defined: Vec<Vec<usize>> = vec![Vec::new(); n];
            let mut order: Vec<u32> = reverse_post_order(&cfg);
            order.extend((0..n as u32).filter(|b| !dom.is_reachable(*b)));
            let (mut tokens, mut uses) = (0, 0);
            for &b in &order {
                let mut avail: Vec<usize> = (0..n)
                    .filter(|&d| d != b as usize && dom.dominates(d as u32, b))
                    .flat_map(|d| defined[d].clone())
                    .collect();
                for _ in 0..rand(5) {
                    let pick = (!avail.is_empty()).then(|| avail[rand(avail.len())]);
                    let line = match (rand(3), pick) {
                        (0, _) | (_, None) => {
                            tokens += 1;
                            avail.push(tokens);
                            defined[b as usize].push(tokens);
                            format!("  %t{tokens} = conv.anchor : !conv.token\n")
                        }
                        (1, Some(p)) => {
                            tokens += 1;
                            avail.push(tokens);
                            defined[b as usize].push(tokens);
                            format!("  %t{tokens} = conv.loop %t{p} : !conv.token\n")
                        }
                        (_, Some(p)) => {
                            uses += 1;
                            format!("  %x{uses} = kernel.readfirstlane %v, %t{p} : i32\n")
                        }
                    };
                    bodies[b as usize] += &line;
                }
            }
            let src = text(&bodies);
            let ir = text::parse(&src, "t.mlir").expect("parses");
            assert_eq!(crate::verify::verify(&ir), Ok(()), "{src}");
            let func = ir.kernels()[0];
            let (nesting, cycle) = reference_flags(&ir, func);
            let errors = verify_tokens(&ir).err().unwrap_or_default();
            let ours = |prefixes: &[&str]| -> Vec<Op> {
                let mut v: Vec<Op> = errors
                    .iter()
                    .filter(|e| prefixes.iter().any(|p| e.message.starts_with(p)))
                    .map(|e| e.op)
                    .collect();
                v.sort();
                v
            };
            let sorted = |mut v: Vec<Op>| {
                v.sort();
                v
            };
            assert_eq!(
                ours(&["convergence region"]),
                sorted(nesting.clone()),
                "{src}"
            );
            let cycle_prefixes = ["convergence token", "cycle heart", "two static"];
            assert_eq!(ours(&cycle_prefixes), sorted(cycle.clone()), "{src}");
            flagged[0] += nesting.len();
            flagged[1] += cycle.len();
        }
        // The generator exercises both outcomes.
        assert!(flagged[0] > 20 && flagged[1] > 20, "{flagged:?}");
    }

    #[test]
    fn nesting_intersects_at_joins() {
        // %a is used on one arm only: after the join, %b (defined after %a) is not live any
        // more, whatever the layout order of the arms.
        let src = r#"
kernel.func @k {
^entry(%c: i1, %v: i32):
  %a = conv.anchor : !conv.token
  %b = conv.anchor : !conv.token
  cf.cond_br %c, ^l, ^r
^l:
  %x = kernel.readfirstlane %v, %a : i32
  cf.br ^j
^r:
  cf.br ^j
^j:
  %y = kernel.readfirstlane %v, %b : i32
  kernel.return
}
"#;
        let m = messages(src);
        assert_eq!(m.len(), 1, "{m:?}");
        assert!(
            m[0].starts_with("convergence region of %b is not well-nested"),
            "{m:?}"
        );
        let swapped = src.replace("%c, ^l, ^r", "%c, ^r, ^l");
        assert_ne!(swapped, src);
        assert_eq!(messages(&swapped), m);
    }
}
