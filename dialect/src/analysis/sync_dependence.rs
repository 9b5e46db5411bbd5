//! Sync dependence: the join blocks and divergent cycle exits of a branch.
//!
//! Given a branch in block `B`, the *join blocks* are the blocks reached from `B` along two
//! disjoint paths (threads that took different successors arrive there and a block argument
//! may see different incoming values), and the *divergent cycle exits* are exits of cycles
//! containing `B` that threads may take on different iterations.
//!
//! Algorithm (Rosemann, Moll and Hack, POPL'21, extended to irreducible cycles as in LLVM's
//! GenericUniformityImpl): SSA construction for a virtual variable assigned a different
//! value in each successor of `B`. Labels (the block holding the reaching definition) are
//! pushed along a *modified post order*: a DFS of the CFG in which an edge into a cycle is
//! redirected past the header and the header's successors are replaced by the cycle exits,
//! so every cycle is a contiguous interval of the order that starts at its header, and
//! visiting the order backwards sees every block after its predecessors except for back
//! edges. A block reached with two different labels is a join. A reducible header pushes its
//! label to the cycle's exits (a pseudo edge); an exit of a cycle containing `B` that ends up
//! with a label other than the one the header pushed is a divergent exit. Irreducible cycles
//! containing `B` are checked at the end: every exit whose label differs from the header's is
//! divergent.
//!
//! Pre: `cfg`, `cycles` describe the same region; `b` is reachable from the entry.
//! Post: [`SyncDependence::branch`] returns the join blocks and divergent exits of `b`. The
//! sets depend on the cycle hierarchy only inside irreducible cycles, where the uniformity
//! analysis applies the diverged-entry criteria on top.
//!
//! Cost: building the order is linear (plus the cycle nesting walk), and so are the dominator
//! and post-dominator trees behind the shortcuts. A query visits the blocks between the branch
//! and the point where a single label remains (its immediate post-dominator, or the outside of
//! its largest irreducible ancestor), except that it jumps over every single-entry
//! single-exit region outside cycles whose entry it reaches (`SyncDependence::skip`); so
//! the total over all divergent branches is linear for structured code, nested to any depth
//! outside loops (an `else if` chain). It can reach O(blocks x branches) on adversarial CFGs
//! and for deep nests inside a loop, which LLVM shares (each query is cached there too).

use super::cfg::RegionCfg;
use super::cycles::{CycleId, CycleInfo};
use super::dominance::DomTree;
use std::collections::BinaryHeap;

const NONE: u32 = u32::MAX;

/// The answer for one branch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DivergenceDescriptor {
    /// Blocks reached along disjoint paths from the branch, in discovery order.
    pub joins: Vec<u32>,
    /// Cycle exits that threads leave on different iterations, in discovery order.
    pub divergent_exits: Vec<u32>,
    /// Blocks reached along disjoint paths only by propagating past the point where LLVM
    /// stops (out of the branch's reducible cycles into an irreducible parent): every such
    /// path re-enters through an entry of that parent. They matter only for the
    /// diverged-entry criterion, not as joins of block arguments.
    pub reentry_joins: Vec<u32>,
}

/// The modified post order and scratch space for join queries on one region.
pub struct SyncDependence<'a> {
    cfg: &'a RegionCfg,
    cycles: &'a CycleInfo,
    /// Blocks in modified post order (reachable blocks only).
    order: Vec<u32>,
    /// Position of each block in `order` (`NONE` if unreachable).
    index: Vec<u32>,
    reducible_header: Vec<bool>,
    /// Per block `x`, the end `y` of a single-entry single-exit region it starts, or `NONE`:
    /// `x` has several successors, `y` is its immediate post-dominator, `x` dominates `y`, and
    /// neither is in a cycle. Every path into the blocks between them passes `x` (Johnson,
    /// Pearson and Pingali, PLDI'94: dominance, post-dominance and cycle equivalence), so they
    /// all take `x`'s label, hold no join and no exit of a cycle around a branch outside them:
    /// a label reaching `x` is pushed straight to `y`. This keeps queries on nested code (an
    /// `else if` chain: each branch's region holds the whole rest of the chain) from visiting
    /// the inner levels again and again.
    skip: Vec<u32>,
    /// Exit blocks per cycle.
    pub exits: Vec<Vec<u32>>,
    // Scratch, reset after each query through `touched`.
    labels: Vec<u32>,
    touched: Vec<u32>,
    fresh: Fresh,
}

/// The set of order positions holding a fresh label: a max-heap with lazy deletion.
#[derive(Default)]
struct Fresh {
    heap: BinaryHeap<u32>,
    flag: Vec<bool>,
    count: usize,
}

impl Fresh {
    fn insert(&mut self, i: u32) {
        if !std::mem::replace(&mut self.flag[i as usize], true) {
            self.count += 1;
            self.heap.push(i);
        }
    }
    fn remove(&mut self, i: u32) {
        if std::mem::replace(&mut self.flag[i as usize], false) {
            self.count -= 1;
        }
    }
    fn last(&mut self) -> Option<u32> {
        while let Some(&top) = self.heap.peek() {
            if self.flag[top as usize] {
                return Some(top);
            }
            self.heap.pop();
        }
        None
    }
    fn clear(&mut self) {
        while let Some(i) = self.heap.pop() {
            self.flag[i as usize] = false;
        }
        self.count = 0;
    }
}

impl<'a> SyncDependence<'a> {
    pub fn new(cfg: &'a RegionCfg, cycles: &'a CycleInfo) -> Self {
        let n = cfg.len();
        let mut sd = SyncDependence {
            cfg,
            cycles,
            order: Vec::with_capacity(n),
            index: vec![NONE; n],
            reducible_header: vec![false; n],
            skip: sese_skips(cfg, cycles),
            exits: cycles.all_exit_blocks(cfg),
            labels: vec![NONE; n],
            touched: Vec::new(),
            fresh: Fresh {
                flag: vec![false; n],
                ..Fresh::default()
            },
        };
        if n > 0 {
            let mut finalized = vec![false; n];
            sd.stack_po(vec![0u32], &mut finalized);
        }
        sd
    }

    /// The modified post order (for tests and debugging).
    pub fn order(&self) -> &[u32] {
        &self.order
    }

    /// Exit blocks of `c`; give them back with `put_exits` (moved out to appease the borrow
    /// checker while labels change).
    fn take_exits(&mut self, c: CycleId) -> Vec<u32> {
        std::mem::take(&mut self.exits[c.0 as usize])
    }
    fn put_exits(&mut self, c: CycleId, exits: Vec<u32>) {
        self.exits[c.0 as usize] = exits;
    }

    fn append(&mut self, b: u32, reducible_header: bool) {
        self.index[b as usize] = self.order.len() as u32;
        self.order.push(b);
        self.reducible_header[b as usize] = reducible_header;
    }

    /// The modified post order from `stack`: post order of the blocks on the DFS stack and
    /// below, staying inside the frame's cycle; a nested cycle is entered only once all of
    /// its exits inside that cycle are finished, and then as a whole (header first in the
    /// numbering, its body after, on a frame of its own). Frames live on a heap stack, so
    /// cycles nest to any depth.
    fn stack_po(&mut self, stack: Vec<u32>, finalized: &mut [bool]) {
        let mut frames: Vec<(Vec<u32>, Option<CycleId>)> = vec![(stack, None)];
        while let Some((stack, cycle)) = frames.last_mut() {
            let cycle = *cycle;
            let Some(&next) = stack.last() else {
                frames.pop();
                continue;
            };
            if finalized[next as usize] {
                stack.pop();
                continue;
            }
            let inner = self.cycles.innermost(next);
            if let Some(mut nested) = inner.filter(|&x| Some(x) != cycle) {
                // `next` lies in a cycle nested in `cycle`: handle the child containing it.
                while self.cycles.cycle(nested).parent != cycle {
                    nested = self.cycles.cycle(nested).parent.expect("nested in `cycle`");
                }
                let mut pushed = false;
                let exits = self.take_exits(nested);
                for &x in &exits {
                    if cycle.is_some_and(|c| !self.cycles.contains(c, x)) || finalized[x as usize] {
                        continue;
                    }
                    pushed = true;
                    stack.push(x);
                }
                self.put_exits(nested, exits);
                if !pushed {
                    stack.pop();
                    let inside = self.cycle_start(nested, finalized);
                    frames.push((inside, Some(nested)));
                }
                continue;
            }
            let mut pushed = false;
            for &s in &self.cfg.succs[next as usize] {
                if cycle.is_some_and(|c| !self.cycles.contains(c, s)) || finalized[s as usize] {
                    continue;
                }
                pushed = true;
                stack.push(s);
            }
            if !pushed {
                stack.pop();
                finalized[next as usize] = true;
                self.append(next, false);
            }
        }
    }

    /// Numbers the header of `c` and returns the DFS stack of the rest of its body.
    fn cycle_start(&mut self, c: CycleId, finalized: &mut [bool]) -> Vec<u32> {
        let h = self.cycles.cycle(c).header();
        finalized[h as usize] = true;
        self.append(h, self.cycles.cycle(c).is_reducible());
        self.cfg.succs[h as usize]
            .iter()
            .copied()
            .filter(|&s| s != h && self.cycles.contains(c, s) && !finalized[s as usize])
            .collect()
    }

    fn label(&self, b: u32) -> u32 {
        self.labels[b as usize]
    }

    fn set_label(&mut self, b: u32, l: u32) {
        if self.labels[b as usize] == NONE {
            self.touched.push(b);
        }
        self.labels[b as usize] = l;
    }

    /// Pushes label `pushed` into `succ`; true if that makes `succ` a join.
    fn compute_join(&mut self, succ: u32, pushed: u32) -> bool {
        let old = self.label(succ);
        if old == pushed {
            return false;
        }
        if old != succ {
            self.fresh.insert(self.index[succ as usize]);
        }
        if old == NONE {
            self.set_label(succ, pushed);
            return false;
        }
        self.set_label(succ, succ);
        true
    }

    /// Join blocks and divergent cycle exits of a branch at the end of block `b`.
    pub fn branch(&mut self, b: u32) -> DivergenceDescriptor {
        let mut desc = DivergenceDescriptor::default();
        if self.index.get(b as usize).is_none_or(|&i| i == NONE)
            || self.cfg.succs[b as usize].len() < 2
        {
            return desc;
        }
        let cycles = self.cycles;
        let term_cycle = cycles.innermost(b);
        // Propagation must run until the labels leave the innermost irreducible cycle around
        // `b` and its irreducible parents: inside it, a diverged path can come back to a block
        // it left, in particular to the header of a reducible cycle around `b` that it exited
        // (a re-entry, which the uniformity analysis checks against the diverged-entry
        // criterion). Above a reducible cycle that is pointless: re-entering it means passing
        // its header, which only passes labels on to its exits.
        // Where LLVM stops: its irreducible ancestor is `None` when the branch's innermost
        // cycle is reducible. Joins found after that are re-entries.
        let llvm_ancestor_exists = term_cycle.is_some_and(|c| !cycles.cycle(c).is_reducible());
        let mut beyond_llvm = false;
        let irreducible_ancestor = term_cycle.and_then(|mut c| {
            while cycles.cycle(c).is_reducible() {
                c = cycles.cycle(c).parent?;
            }
            while let Some(p) = cycles.cycle(c).parent {
                if cycles.cycle(p).is_reducible() {
                    break;
                }
                c = p;
            }
            Some(c)
        });
        let push_unique = |v: &mut Vec<u32>, x: u32| {
            if !v.contains(&x) {
                v.push(x)
            }
        };
        let cfg = self.cfg;
        for &s in &cfg.succs[b as usize] {
            if term_cycle.is_some_and(|c| !cycles.contains(c, s)) {
                // Leaving the cycle right away: later labels might never reach `s` again.
                push_unique(&mut desc.divergent_exits, s);
            }
            if self.compute_join(s, s) {
                push_unique(&mut desc.joins, s);
            }
        }
        while let Some(idx) = self.fresh.last() {
            let block = self.order[idx as usize];
            if self.fresh.count == 1 {
                let outside = irreducible_ancestor.is_none_or(|c| !cycles.contains(c, block));
                if outside {
                    break;
                }
                beyond_llvm |= !llvm_ancestor_exists;
            }
            self.fresh.remove(idx);
            if block == b {
                continue;
            }
            let label = self.label(block);
            if self.reducible_header[block as usize] {
                let c = cycles.innermost(block).expect("a header is in its cycle");
                let inside = cycles.contains(c, b);
                let exits = self.take_exits(c);
                for &x in &exits {
                    if self.compute_join(x, label) {
                        let set = if inside {
                            &mut desc.divergent_exits
                        } else if beyond_llvm {
                            &mut desc.reentry_joins
                        } else {
                            &mut desc.joins
                        };
                        push_unique(set, x);
                    }
                }
                self.put_exits(c, exits);
            } else if let Some(y) = Some(self.skip[block as usize]).filter(|&y| y != NONE) {
                if self.compute_join(y, label) {
                    let set = if beyond_llvm {
                        &mut desc.reentry_joins
                    } else {
                        &mut desc.joins
                    };
                    push_unique(set, y);
                }
            } else {
                for &s in &cfg.succs[block as usize] {
                    if self.compute_join(s, label) {
                        let set = if beyond_llvm {
                            &mut desc.reentry_joins
                        } else {
                            &mut desc.joins
                        };
                        push_unique(set, s);
                    }
                }
            }
        }
        // Irreducible cycles around `b`: an exit labelled differently from the header is
        // reached on a path disjoint from the one back to the header.
        let mut c = term_cycle;
        while let Some(cy) = c {
            if !cycles.cycle(cy).is_reducible() {
                let header_label = self.label(cycles.cycle(cy).header());
                let exits = self.take_exits(cy);
                for &x in &exits {
                    if self.label(x) != header_label {
                        push_unique(&mut desc.divergent_exits, x);
                    }
                }
                self.put_exits(cy, exits);
            }
            c = cycles.cycle(cy).parent;
        }
        for &t in &self.touched {
            self.labels[t as usize] = NONE;
        }
        self.touched.clear();
        self.fresh.clear();
        desc
    }
}

/// The single-entry single-exit shortcuts of [`SyncDependence::skip`].
fn sese_skips(cfg: &RegionCfg, cycles: &CycleInfo) -> Vec<u32> {
    let n = cfg.len();
    let mut skip = vec![NONE; n];
    if n == 0 {
        return skip;
    }
    let dom = DomTree::dominators(cfg);
    let pdom = DomTree::post_dominators(cfg);
    for x in 0..n as u32 {
        if cfg.succs[x as usize].len() < 2 || cycles.innermost(x).is_some() {
            continue;
        }
        let Some(y) = pdom.idom(x).filter(|&y| (y as usize) < n) else {
            continue;
        };
        if cycles.innermost(y).is_none() && dom.strictly_dominates(x, y) {
            skip[x as usize] = y;
        }
    }
    skip
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(n: usize, edges: &[(u32, u32)]) -> RegionCfg {
        RegionCfg::from_edges(n, edges.iter().copied())
    }

    fn joins(n: usize, edges: &[(u32, u32)], b: u32) -> DivergenceDescriptor {
        let g = cfg(n, edges);
        let ci = CycleInfo::compute(&g);
        let mut sd = SyncDependence::new(&g, &ci);
        let mut d = sd.branch(b);
        d.joins.sort();
        d.divergent_exits.sort();
        d
    }

    #[test]
    fn diamond_and_the_llvm_header_example() {
        // 0 -> 1,2 -> 3
        let d = joins(4, &[(0, 1), (0, 2), (1, 3), (2, 3)], 0);
        assert_eq!(d.joins, vec![3]);
        // The example of GenericUniformityImpl.h: entry(0) -> A(1), Y(2); A -> B(3), C(4);
        // B -> D(5); C -> D, E(6); Y -> E; D -> F(7); E -> F. A's joins are D and F.
        let e = [
            (0, 1),
            (0, 2),
            (1, 3),
            (1, 4),
            (3, 5),
            (4, 5),
            (4, 6),
            (2, 6),
            (5, 7),
            (6, 7),
        ];
        assert_eq!(joins(8, &e, 1).joins, vec![5, 7]);
    }

    #[test]
    fn loop_with_divergent_break() {
        // 0 -> H(1); H -> B(2); B -> H (continue), B -> X(3) (break)
        let d = joins(4, &[(0, 1), (1, 2), (2, 1), (2, 3)], 2);
        assert_eq!(d.divergent_exits, vec![3]);
        assert!(d.joins.is_empty());
        // A divergent if inside the body that rejoins before the latch: no exit divergence.
        // H(1) -> T(2), E(3); T, E -> L(4); L -> H, X(5)
        let d = joins(
            6,
            &[(0, 1), (1, 2), (1, 3), (2, 4), (3, 4), (4, 1), (4, 5)],
            1,
        );
        assert_eq!(d.joins, vec![4]);
        assert!(d.divergent_exits.is_empty());
    }

    #[test]
    fn modified_post_order_keeps_cycles_contiguous() {
        // 0 -> 1 -> 2 -> 3 -> 1, 2 -> 4, 3 -> 4; the cycle {1,2,3} is an interval from 1.
        let g = cfg(5, &[(0, 1), (1, 2), (2, 3), (3, 1), (2, 4), (3, 4)]);
        let ci = CycleInfo::compute(&g);
        let sd = SyncDependence::new(&g, &ci);
        let pos = |b: u32| sd.order().iter().position(|&x| x == b).unwrap();
        assert!(pos(4) < pos(1) && pos(1) < pos(2) && pos(1) < pos(3) && pos(1) < pos(0));
    }
}
