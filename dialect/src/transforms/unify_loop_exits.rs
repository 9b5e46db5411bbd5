//! Unify loop exits: every natural loop leaves through one exit block.
//!
//! **Pre-condition**: `func` is a CF kernel ([`Ir::is_cf_kernel`]) that passes
//! [`verify`](crate::verify::verify); run [`fix_irreducible`](super::fix_irreducible) first,
//! as this pass only touches natural loops (reducible cycles of [`CycleInfo`]). Other kernels
//! are left alone (the pass returns 0).
//!
//! **Post-condition**: every natural loop's exiting edges all target one block outside the
//! loop, and if they come from several blocks, that block has no predecessor outside the loop,
//! except the edges into the live region of a convergence token defined in the loop (an exit
//! from which a use of such a token is reachable outside the loop: threads run those blocks
//! in the iteration they leave from, while the other exits run after the loop, so one guard
//! cannot serve both; merging them also broke the nesting of convergence regions when a parent
//! token is used after the other exits). Those stay direct exits ([`token_live_exits`]).
//! The kernel still verifies, every thread takes the same path through the original blocks
//! with the same values, and the loops (headers, hearts, bodies) are unchanged. Exception: a
//! loop whose unification would carry a convergence token through the guard's block arguments
//! (a token defined in the loop, used after it, whose definition does not dominate every
//! exiting block), or a value to a use also reached from an exit left direct, or would need a
//! pointer placeholder no value provides is left as it is;
//! [`make_structurizable`](super::make_structurizable) reports it.
//!
//! **Transformation** (LLVM's UnifyLoopExits): a loop whose exiting edges reach several exit
//! blocks, or reach from several exiting blocks an exit that is also entered from outside the
//! loop, gets a new block `loop.exit.guard` outside it. Every exiting edge enters the guard
//! instead, which dispatches to the original exits as `irr.guard` does (an `i32` selector, one
//! argument slot per exit; see `fix_irreducible`). A loop whose exiting blocks all branch to one
//! exit that only they enter is left alone: a guard would be a forwarding block, and the pass
//! would not be idempotent (the guard itself is such an exit).
//!
//! **SSA**: a value defined in the loop and used after it may no longer dominate its use, since
//! the guard joins paths from every exiting block. As LLVM does with `.moved` PHIs, such a
//! value (one whose block does not dominate every exiting block) becomes an extra guard
//! argument `<name>.moved`, passed the value on edges whose source its block dominates and a
//! placeholder on the others (paths that reach no original use), and every use outside the
//! loop reads the guard argument instead; the guard dominates those uses (a path avoiding it
//! never leaves the loop, or never enters it and so misses the definition). At run time the
//! value passed is the one the original use reads: the last exit before the use came from a
//! block the definition dominates, else a path from the header to that block avoiding the
//! definition would reach the use. Values whose block dominates every exiting block (the
//! header's, among others) dominate the guard and need nothing.
//!
//! **Cost**: loops are visited outermost first (like LLVM, so an inner loop's exits to outside
//! its parent already go to the parent's guard) with one CFG, dominator tree and cycle forest:
//! guards are outside the loops visited after them, and a loop's own edges and the dominance
//! between its blocks do not change when another loop is unified. Each loop scans its blocks
//! and the users of its values, and the common dominator of its exiting blocks walks the
//! dominator tree, so the pass is O((ops + edges) x loop depth + exiting blocks x dominator
//! tree depth), plus its output: every exiting edge passes one argument per slot and moved
//! value of its guard. An inner loop exiting to an enclosing loop's guard has a slot for that
//! guard's arguments, so loops nested d deep that each exit to their own outside block give
//! O(d^2) arguments in all (LLVM's hub PHIs grow alike).

use super::control_flow_hub::{Carried, Consts, Edge, Hub, HubNames};
use crate::analysis::{CycleId, CycleInfo, DomTree, RegionCfg};
use crate::entities::{Block, Op, Value};
use crate::ir::{Ir, OpList};
use crate::types::Type;
use cranelift_entity::SecondaryMap;
use rustc_hash::FxHashMap as HashMap;
use rustc_hash::FxHashSet;

/// Gives every natural loop of `func` a single exit (see the module docs). Returns the number
/// of loops that got an exit guard.
pub fn unify_loop_exits(ir: &mut Ir, func: Op) -> usize {
    if !ir.is_cf_kernel(func) {
        return 0;
    }
    let region = ir.ops[func].regions[0];
    let cfg = RegionCfg::compute(ir, region);
    let info = CycleInfo::compute(&cfg);
    let dom = DomTree::dominators(&cfg);
    let mut in_degree: SecondaryMap<Block, u32> = SecondaryMap::new();
    for &b in &cfg.blocks {
        for s in ir.block_succs(b) {
            in_degree[s] += 1;
        }
    }
    let mut st = State {
        users: ir.users(func),
        in_degree,
        consts: Consts::new(ir, func),
    };
    let lp = Loops {
        cfg: &cfg,
        info: &info,
        dom: &dom,
    };
    let mut count = 0;
    let mut stack: Vec<CycleId> = info.top_level.iter().rev().copied().collect();
    while let Some(c) = stack.pop() {
        let cycle = info.cycle(c);
        stack.extend(cycle.children.iter().rev().copied());
        if cycle.is_reducible() && unify_loop(ir, func, &lp, c, &mut st) {
            count += 1;
        }
    }
    count
}

/// The analyses of the kernel before the pass (see the module docs for why they stay valid).
struct Loops<'a> {
    cfg: &'a RegionCfg,
    info: &'a CycleInfo,
    dom: &'a DomTree,
}

impl Loops<'_> {
    /// Is `b` in loop `c`? Blocks created by the pass never are.
    fn inside(&self, c: CycleId, b: Block) -> bool {
        self.cfg.node(b).is_some_and(|n| self.info.contains(c, n))
    }
}

/// What the pass keeps up to date as it rewrites.
struct State {
    /// Ops reading each value (as `Ir::users`), with the uses the pass adds or moves.
    users: SecondaryMap<Value, OpList>,
    /// Number of edges entering each block, to tell an exit only its loop enters.
    in_degree: SecondaryMap<Block, u32>,
    consts: Consts,
}

/// The exit blocks of loop `c` (CFG nodes of `cfg`) in the live region of a convergence token
/// defined in the loop: those from which a use of such a token outside the loop is reachable
/// without entering the loop again. Found by walking back from each such use over blocks
/// outside the loop; a loop's tokens rarely live after it, so this is usually free. Cost:
/// the loop's ops and their tokens' users, plus the blocks walked (a set of the blocks seen,
/// not a flag per block of the kernel: this runs once per loop).
pub(crate) fn token_live_exits(
    ir: &Ir,
    cfg: &RegionCfg,
    info: &CycleInfo,
    c: CycleId,
    users: &SecondaryMap<Value, OpList>,
) -> Vec<u32> {
    let inside = |n: u32| info.contains(c, n);
    let mut seen: FxHashSet<u32> = FxHashSet::default();
    let mut stack = Vec::new();
    for &n in info.block_slice(c) {
        let b = cfg.blocks[n as usize];
        let tokens = ir
            .block_ops(b)
            .flat_map(|o| ir.ops[o].results.iter().copied())
            .filter(|&v| ir.value_type(v) == Type::Token);
        for t in tokens {
            for &u in &users[t] {
                if let Some(un) = ir.op_block(u).and_then(|ub| cfg.node(ub)) {
                    if !inside(un) && seen.insert(un) {
                        stack.push(un);
                    }
                }
            }
        }
    }
    let mut exits = Vec::new();
    while let Some(n) = stack.pop() {
        for &p in &cfg.preds[n as usize] {
            if inside(p) {
                if exits.last() != Some(&n) {
                    exits.push(n);
                }
            } else if seen.insert(p) {
                stack.push(p);
            }
        }
    }
    exits.sort_unstable();
    exits.dedup();
    exits
}

/// Unifies the exits of loop `c`; false if it needs no guard or cannot get one.
fn unify_loop(ir: &mut Ir, func: Op, lp: &Loops, c: CycleId, st: &mut State) -> bool {
    let mut blocks = lp.info.block_slice(c).to_vec();
    blocks.sort_unstable(); // layout order, for a stable order of exits and edges
    let direct: Vec<Block> = token_live_exits(ir, lp.cfg, lp.info, c, &st.users)
        .into_iter()
        .map(|n| lp.cfg.blocks[n as usize])
        .collect();
    let mut edges: Vec<(Edge, usize)> = Vec::new();
    let mut exits: Vec<Block> = Vec::new();
    let mut exit_index: HashMap<Block, usize> = HashMap::default();
    let mut exiting: Vec<u32> = Vec::new();
    for &n in &blocks {
        let term = ir.terminator(lp.cfg.blocks[n as usize]).expect("CF block");
        for (s, succ) in ir.ops[term].succs.iter().enumerate() {
            if lp.inside(c, succ.block) || direct.contains(&succ.block) {
                continue;
            }
            let j = *exit_index.entry(succ.block).or_insert_with(|| {
                exits.push(succ.block);
                exits.len() - 1
            });
            edges.push((Edge { term, succ: s }, j));
            if exiting.last() != Some(&n) {
                exiting.push(n);
            }
        }
    }
    let dedicated = exits.len() == 1 && st.in_degree[exits[0]] as usize == edges.len();
    if exits.len() < 2 && (exiting.len() < 2 || dedicated) {
        return false;
    }
    let Some(moved) = values_to_move(ir, lp, c, &blocks, &exiting, st) else {
        return false;
    };
    if !direct.is_empty()
        && moved
            .iter()
            .any(|m| reached_from(ir, lp, c, &direct, &m.uses))
    {
        // A use of a moved value also reached from an exit left direct: it would need the
        // value from both the guard and the direct path.
        return false;
    }
    let mut types: Vec<Type> = Vec::new();
    if exits.len() > 1 {
        for &e in &exits {
            types.extend(ir.blocks[e].args.iter().map(|&a| ir.value_type(a)));
        }
    }
    types.extend(moved.iter().map(|m| ir.value_type(m.value)));
    let Some(placeholders) = st.consts.placeholders(ir, func, &types) else {
        return false;
    };

    let extra = Carried::extra(ir, &moved, "moved");
    let last = lp.cfg.blocks[*blocks.last().expect("a loop has blocks") as usize];
    let loc = ir.ops[edges[0].0.term].loc;
    let names = HubNames {
        block: "loop.exit.guard",
        selector: "exit.sel",
        slot_suffix: "exit",
    };
    let hub = Hub::build(ir, &mut st.consts, &names, &exits, &extra, last, loc);
    for (_, targets) in &hub.dispatch {
        for &t in targets {
            st.in_degree[t] += 1;
        }
    }
    for (edge, j) in edges {
        let from = ir.op_block(edge.term).and_then(|b| lp.cfg.node(b));
        let from = from.expect("exiting blocks are CFG nodes");
        let values = Carried::passed(ir, &moved, lp.dom, from, &placeholders);
        for (m, &v) in moved.iter().zip(&values) {
            if v == m.value {
                st.users[m.value].push(edge.term);
            }
        }
        hub.redirect(ir, &mut st.consts, &placeholders, edge, j, values);
        st.in_degree[exits[j]] -= 1;
        st.in_degree[hub.guard] += 1;
    }
    Carried::read_from(ir, &moved, &hub);
    for (m, &arg) in moved.iter().zip(&hub.extra) {
        st.users[m.value].retain(|w| m.uses.binary_search(w).is_err());
        st.users[arg] = m.uses.clone();
    }
    true
}

/// Is one of the `uses` in a block reachable from the exits `from` without entering loop `c`?
fn reached_from(ir: &Ir, lp: &Loops, c: CycleId, from: &[Block], uses: &[Op]) -> bool {
    let mut seen = vec![false; lp.cfg.len()];
    let mut stack: Vec<u32> = from.iter().filter_map(|&b| lp.cfg.node(b)).collect();
    for &n in &stack {
        seen[n as usize] = true;
    }
    while let Some(n) = stack.pop() {
        for &s in &lp.cfg.succs[n as usize] {
            if !lp.info.contains(c, s) && !seen[s as usize] {
                seen[s as usize] = true;
                stack.push(s);
            }
        }
    }
    uses.iter().any(|&u| {
        ir.op_block(u)
            .and_then(|b| lp.cfg.node(b))
            .is_some_and(|n| seen[n as usize])
    })
}

/// The values defined in loop `c` and read after it whose block does not dominate every
/// exiting block. `None` if one is a token, which cannot be a block argument.
fn values_to_move(
    ir: &Ir,
    lp: &Loops,
    c: CycleId,
    blocks: &[u32],
    exiting: &[u32],
    st: &State,
) -> Option<Vec<Carried>> {
    // A block dominating every exiting block dominates their nearest common dominator.
    let common = exiting
        .iter()
        .copied()
        .reduce(|a, b| lp.dom.common_dominator(a, b))
        .expect("a loop with exits has exiting blocks");
    let mut moved = Vec::new();
    for &n in blocks {
        if lp.dom.dominates(n, common) {
            continue;
        }
        let b = lp.cfg.blocks[n as usize];
        let results = ir
            .block_ops(b)
            .flat_map(|o| ir.ops[o].results.iter().copied());
        for value in ir.blocks[b].args.iter().copied().chain(results) {
            let mut outside: Vec<Op> = st.users[value]
                .iter()
                .copied()
                .filter(|&w| ir.op_block(w).is_some_and(|wb| !lp.inside(c, wb)))
                .collect();
            if outside.is_empty() {
                continue;
            }
            if ir.value_type(value) == Type::Token {
                return None;
            }
            outside.sort_unstable();
            outside.dedup();
            moved.push(Carried {
                value,
                def: n,
                uses: outside,
            });
        }
    }
    Some(moved)
}
