//! Cycle info: the cycle forest of a region CFG, following LLVM's definition
//! (CycleTerminology.rst, GenericCycleImpl.h).
//!
//! A cycle is a maximal strongly connected set of blocks with at least one internal edge,
//! found from a DFS of the CFG. Its *entries* are the blocks reachable from the region entry
//! without passing through another block of the cycle; the *header* is the first entry the
//! DFS reached. A cycle is reducible iff it has exactly one entry. The children of a cycle are
//! the cycles of its blocks minus the header, recursively, so for irreducible parts the forest
//! depends on the DFS order (successor order); nothing may key correctness on that choice.
//!
//! Construction (linear up to the inner worklist merging, like LLVM): header candidates are
//! visited in reverse DFS preorder; a candidate with a predecessor that is its DFS descendant
//! is a header; walking predecessors back from those latches collects the blocks, and a block
//! already in a cycle brings its whole top-level cycle in as a child. Unreachable blocks are in
//! no cycle.

use super::cfg::RegionCfg;
use std::collections::HashMap;

/// Index of a cycle in [`CycleInfo`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CycleId(pub u32);

/// One cycle. Block numbers are region-CFG node numbers.
#[derive(Clone, Debug)]
pub struct Cycle {
    /// Entries; `entries[0]` is the header.
    pub entries: Vec<u32>,
    /// Blocks whose innermost cycle is this one (nested cycles' blocks are in the children).
    pub own_blocks: Vec<u32>,
    pub parent: Option<CycleId>,
    pub children: Vec<CycleId>,
    /// 1 for top-level cycles.
    pub depth: u32,
}

impl Cycle {
    pub fn header(&self) -> u32 {
        self.entries[0]
    }
    pub fn is_reducible(&self) -> bool {
        self.entries.len() == 1
    }
}

/// The cycle forest of a region.
#[derive(Clone, Debug, Default)]
pub struct CycleInfo {
    pub cycles: Vec<Cycle>,
    /// Innermost cycle of each block.
    innermost: Vec<Option<CycleId>>,
    pub top_level: Vec<CycleId>,
    /// DFS preorder number of each block (`u32::MAX` if unreachable).
    pub preorder_index: Vec<u32>,
    /// Preorder interval of each cycle in the forest (`tour[c] = (first, last)`), so that
    /// nesting tests are O(1).
    tour: Vec<(u32, u32)>,
    /// Blocks of all cycles in forest preorder (each cycle's own blocks, then its children's),
    /// so the blocks of a cycle and its descendants are the range `span[c]`.
    ordered_blocks: Vec<u32>,
    span: Vec<(u32, u32)>,
}

impl CycleInfo {
    pub fn compute(cfg: &RegionCfg) -> CycleInfo {
        Builder::new(cfg).run()
    }

    pub fn cycle(&self, c: CycleId) -> &Cycle {
        &self.cycles[c.0 as usize]
    }
    /// The innermost cycle containing block `b`.
    pub fn innermost(&self, b: u32) -> Option<CycleId> {
        self.innermost.get(b as usize).copied().flatten()
    }
    /// Does cycle `c` contain block `b` (directly or through a child)? O(1).
    pub fn contains(&self, c: CycleId, b: u32) -> bool {
        self.innermost(b).is_some_and(|x| self.is_within(x, c))
    }
    /// Is cycle `inner` equal to or nested in `outer`? O(1).
    pub fn is_within(&self, inner: CycleId, outer: CycleId) -> bool {
        let (i, o) = (self.tour[inner.0 as usize], self.tour[outer.0 as usize]);
        o.0 <= i.0 && i.0 <= o.1
    }
    /// Every block of `c`, nested ones included, without allocating.
    pub fn block_slice(&self, c: CycleId) -> &[u32] {
        let (a, b) = self.span[c.0 as usize];
        &self.ordered_blocks[a as usize..b as usize]
    }
    /// Every block of `c`, nested ones included.
    pub fn blocks(&self, c: CycleId) -> Vec<u32> {
        let mut out = Vec::new();
        let mut stack = vec![c];
        while let Some(x) = stack.pop() {
            out.extend_from_slice(&self.cycle(x).own_blocks);
            stack.extend(self.cycle(x).children.iter().copied());
        }
        out
    }
    /// Blocks outside `c` that a block of `c` branches to, in discovery order.
    pub fn exit_blocks(&self, cfg: &RegionCfg, c: CycleId) -> Vec<u32> {
        let mut out = Vec::new();
        for b in self.blocks(c) {
            for &s in &cfg.succs[b as usize] {
                if !self.contains(c, s) && !out.contains(&s) {
                    out.push(s);
                }
            }
        }
        out
    }
    /// The exit blocks of every cycle at once (indexed by cycle), in edge discovery order:
    /// one pass over the edges, each walking up from its source's innermost cycle while the
    /// target is outside, so O(edges + exit edges x nesting they leave).
    pub fn all_exit_blocks(&self, cfg: &RegionCfg) -> Vec<Vec<u32>> {
        let mut exits: Vec<Vec<u32>> = vec![Vec::new(); self.cycles.len()];
        for (u, succs) in cfg.succs.iter().enumerate() {
            for &v in succs {
                let mut c = self.innermost(u as u32);
                while let Some(x) = c.filter(|&x| !self.contains(x, v)) {
                    let list = &mut exits[x.0 as usize];
                    if !list.contains(&v) {
                        list.push(v);
                    }
                    c = self.cycle(x).parent;
                }
            }
        }
        exits
    }
    /// Blocks of `c` with a successor outside `c`.
    pub fn exiting_blocks(&self, cfg: &RegionCfg, c: CycleId) -> Vec<u32> {
        self.blocks(c)
            .into_iter()
            .filter(|&b| cfg.succs[b as usize].iter().any(|&s| !self.contains(c, s)))
            .collect()
    }
    /// The outermost cycle that contains `b` but not `outside_of` (LLVM's heart and
    /// divergent-exit rules use it).
    pub fn outermost_excluding(&self, b: u32, outside_of: u32) -> Option<CycleId> {
        let mut cur = self.innermost(b);
        let mut best = None;
        while let Some(c) = cur {
            if self.contains(c, outside_of) {
                break;
            }
            best = Some(c);
            cur = self.cycle(c).parent;
        }
        best
    }
    /// Smallest cycle containing both blocks.
    pub fn common_cycle(&self, a: u32, b: u32) -> Option<CycleId> {
        let mut cur = self.innermost(a);
        while let Some(c) = cur {
            if self.contains(c, b) {
                return Some(c);
            }
            cur = self.cycle(c).parent;
        }
        None
    }

    /// The reachable blocks in an order in which every forward edge (a CFG edge that does not
    /// enter an entry of a cycle containing its source) goes from an earlier block to a later
    /// one, and the blocks of each cycle are contiguous, starting with its entries: a loop's
    /// body comes after its header and before the blocks its exits lead to. Ties follow the
    /// reverse post-order. Each nesting level is sorted on its own (Kahn's algorithm over its
    /// blocks and child cycles), so the cost is the number of edges times the cycle depth;
    /// nothing recurses.
    pub fn contiguous_order(&self, cfg: &RegionCfg) -> Vec<u32> {
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
        enum Node {
            Block(u32),
            Cycle(CycleId),
        }
        let rpo = cfg.reverse_postorder();
        // The node that stands for block `x` at the level of cycle `level`: `x` itself, or the
        // child of `level` that contains it.
        let lift = |level: Option<CycleId>, x: u32| -> Option<Node> {
            let mut cur = self.innermost(x);
            if cur == level {
                return Some(Node::Block(x));
            }
            while let Some(c) = cur {
                let parent = self.cycle(c).parent;
                if parent == level {
                    return Some(Node::Cycle(c));
                }
                cur = parent;
            }
            None // outside `level`
        };
        let key = |n: Node| match n {
            Node::Block(b) => rpo[b as usize],
            Node::Cycle(c) => rpo[self.cycle(c).header() as usize],
        };
        // One level: its nodes in a topological order of its forward edges.
        let sort_level = |level: Option<CycleId>| -> Vec<Node> {
            let blocks: Vec<u32> = match level {
                Some(c) => self.block_slice(c).to_vec(),
                None => (0..cfg.len() as u32)
                    .filter(|&b| rpo[b as usize] != u32::MAX)
                    .collect(),
            };
            let mut nodes: Vec<Node> = Vec::new();
            let mut index: HashMap<Node, usize> = HashMap::new();
            for &b in &blocks {
                if let Some(n) = lift(level, b) {
                    index.entry(n).or_insert_with(|| {
                        nodes.push(n);
                        nodes.len() - 1
                    });
                }
            }
            let mut succs: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
            let mut indeg = vec![0u32; nodes.len()];
            for &b in &blocks {
                let Some(from) = lift(level, b).map(|n| index[&n]) else {
                    continue;
                };
                for &s in &cfg.succs[b as usize] {
                    let back = level.is_some_and(|c| self.cycle(c).entries.contains(&s));
                    if back || rpo[s as usize] == u32::MAX {
                        continue;
                    }
                    let Some(to) = lift(level, s).map(|n| index[&n]) else {
                        continue; // leaves the level
                    };
                    if to != from {
                        succs[from].push(to);
                        indeg[to] += 1;
                    }
                }
            }
            let mut ready: std::collections::BinaryHeap<std::cmp::Reverse<(u32, usize)>> = (0
                ..nodes.len())
                .filter(|&i| indeg[i] == 0)
                .map(|i| std::cmp::Reverse((key(nodes[i]), i)))
                .collect();
            let mut out = Vec::with_capacity(nodes.len());
            let mut placed = vec![false; nodes.len()];
            while let Some(std::cmp::Reverse((_, i))) = ready.pop() {
                out.push(nodes[i]);
                placed[i] = true;
                for &t in &succs[i] {
                    indeg[t] -= 1;
                    if indeg[t] == 0 {
                        ready.push(std::cmp::Reverse((key(nodes[t]), t)));
                    }
                }
            }
            // Irreducible leftovers (no order satisfies every edge): reverse post-order.
            let mut rest: Vec<usize> = (0..nodes.len()).filter(|&i| !placed[i]).collect();
            rest.sort_by_key(|&i| key(nodes[i]));
            out.extend(rest.into_iter().map(|i| nodes[i]));
            out
        };
        let mut order = Vec::with_capacity(cfg.len());
        let mut stack: Vec<std::vec::IntoIter<Node>> = vec![sort_level(None).into_iter()];
        while let Some(level) = stack.last_mut() {
            match level.next() {
                Some(Node::Block(b)) => order.push(b),
                Some(Node::Cycle(c)) => stack.push(sort_level(Some(c)).into_iter()),
                None => {
                    stack.pop();
                }
            }
        }
        order
    }

    /// LLVM's `print<cycles>` format: `depth=1: entries(B A) C D`, nested cycles indented.
    pub fn print(&self, name: &dyn Fn(u32) -> String) -> String {
        let mut out = String::new();
        let mut stack: Vec<CycleId> = self.top_level.iter().rev().copied().collect();
        while let Some(c) = stack.pop() {
            let cy = self.cycle(c);
            let entries: Vec<String> = cy.entries.iter().map(|&b| name(b)).collect();
            let mut rest: Vec<u32> = self
                .blocks(c)
                .into_iter()
                .filter(|b| !cy.entries.contains(b))
                .collect();
            rest.sort_by_key(|&b| self.preorder_index[b as usize]);
            let rest: Vec<String> = rest.iter().map(|&b| name(b)).collect();
            out.push_str(&format!(
                "{}depth={}: entries({}){}{}\n",
                "    ".repeat(cy.depth as usize - 1),
                cy.depth,
                entries.join(" "),
                if rest.is_empty() { "" } else { " " },
                rest.join(" ")
            ));
            stack.extend(cy.children.iter().rev().copied());
        }
        out
    }
}

struct Builder<'a> {
    cfg: &'a RegionCfg,
    pre: Vec<u32>,
    end: Vec<u32>,
    order: Vec<u32>,
    info: CycleInfo,
}

impl<'a> Builder<'a> {
    fn new(cfg: &'a RegionCfg) -> Self {
        let n = cfg.len();
        Builder {
            cfg,
            pre: vec![u32::MAX; n],
            end: vec![0; n],
            order: Vec::with_capacity(n),
            info: CycleInfo::default(),
        }
    }

    /// Iterative DFS: preorder numbers, and for each block the last preorder number of its
    /// subtree (a subtree's numbers are contiguous), which gives an O(1) ancestor test.
    fn dfs(&mut self) {
        if self.cfg.is_empty() {
            return;
        }
        let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
        self.pre[0] = 0;
        self.order.push(0);
        while let Some(&mut (v, ref mut i)) = stack.last_mut() {
            if let Some(&w) = self.cfg.succs[v as usize].get(*i) {
                *i += 1;
                if self.pre[w as usize] == u32::MAX {
                    self.pre[w as usize] = self.order.len() as u32;
                    self.order.push(w);
                    stack.push((w, 0));
                }
            } else {
                self.end[v as usize] = self.order.len() as u32 - 1;
                stack.pop();
            }
        }
    }

    fn run(mut self) -> CycleInfo {
        self.dfs();
        let n = self.cfg.len();
        self.info.innermost = vec![None; n];
        self.info.preorder_index = self.pre.clone();
        let mut worklist: Vec<u32> = Vec::new();
        for &h in self.order.clone().iter().rev() {
            for &p in &self.cfg.preds[h as usize] {
                if self.is_ancestor(h, p) {
                    worklist.push(p);
                }
            }
            if worklist.is_empty() {
                continue;
            }
            let id = CycleId(self.info.cycles.len() as u32);
            self.info.cycles.push(Cycle {
                entries: vec![h],
                own_blocks: vec![h],
                parent: None,
                children: Vec::new(),
                depth: 0,
            });
            self.info.innermost[h as usize] = Some(id);
            while let Some(b) = worklist.pop() {
                if b == h {
                    continue;
                }
                match self.top_level_of(b) {
                    Some(top) if top == id => {}
                    Some(top) => {
                        self.info.cycles[top.0 as usize].parent = Some(id);
                        self.info.cycles[id.0 as usize].children.push(top);
                        for e in self.info.cycles[top.0 as usize].entries.clone() {
                            self.process_preds(h, id, e, &mut worklist);
                        }
                    }
                    None => {
                        self.info.innermost[b as usize] = Some(id);
                        self.info.cycles[id.0 as usize].own_blocks.push(b);
                        self.process_preds(h, id, b, &mut worklist);
                    }
                }
            }
        }
        self.finish()
    }

    fn process_preds(&mut self, h: u32, id: CycleId, b: u32, worklist: &mut Vec<u32>) {
        let mut is_entry = false;
        for &p in &self.cfg.preds[b as usize] {
            if self.is_ancestor(h, p) {
                worklist.push(p);
            } else if self.pre[p as usize] != u32::MAX {
                is_entry = true;
            }
        }
        let entries = &mut self.info.cycles[id.0 as usize].entries;
        if is_entry && !entries.contains(&b) {
            entries.push(b);
        }
    }

    fn top_level_of(&self, b: u32) -> Option<CycleId> {
        let mut c = self.info.innermost[b as usize]?;
        while let Some(p) = self.info.cycles[c.0 as usize].parent {
            c = p;
        }
        Some(c)
    }

    /// Is `a` a DFS-tree ancestor of `b` (reflexive)? False for unreachable `b`.
    fn is_ancestor(&self, a: u32, b: u32) -> bool {
        let (pa, pb) = (self.pre[a as usize], self.pre[b as usize]);
        pb != u32::MAX && pa <= pb && pb <= self.end[a as usize]
    }

    fn finish(mut self) -> CycleInfo {
        let n = self.info.cycles.len();
        // Cycles were created inner-first; parents have larger ids. Depth top-down.
        for i in (0..n).rev() {
            let d = match self.info.cycles[i].parent {
                Some(p) => self.info.cycles[p.0 as usize].depth + 1,
                None => 1,
            };
            self.info.cycles[i].depth = d;
        }
        self.info.top_level = (0..n as u32)
            .map(CycleId)
            .filter(|&c| self.info.cycle(c).parent.is_none())
            .collect();
        let pre = self.pre.clone();
        let headers: Vec<u32> = self.info.cycles.iter().map(Cycle::header).collect();
        self.info
            .top_level
            .sort_by_key(|&c| pre[headers[c.0 as usize] as usize]);
        for i in 0..n {
            let mut ch = std::mem::take(&mut self.info.cycles[i].children);
            ch.sort_by_key(|&x| pre[headers[x.0 as usize] as usize]);
            self.info.cycles[i].children = ch;
        }
        // Preorder intervals of the forest, and the blocks in forest preorder.
        self.info.tour = vec![(0, 0); n];
        self.info.span = vec![(0, 0); n];
        let mut counter = 0u32;
        let mut stack: Vec<(CycleId, bool)> = self
            .info
            .top_level
            .iter()
            .rev()
            .map(|&c| (c, false))
            .collect();
        while let Some((c, done)) = stack.pop() {
            if done {
                self.info.tour[c.0 as usize].1 = counter - 1;
                self.info.span[c.0 as usize].1 = self.info.ordered_blocks.len() as u32;
                continue;
            }
            self.info.tour[c.0 as usize].0 = counter;
            counter += 1;
            self.info.span[c.0 as usize].0 = self.info.ordered_blocks.len() as u32;
            let own = self.info.cycles[c.0 as usize].own_blocks.clone();
            self.info.ordered_blocks.extend(own);
            stack.push((c, true));
            stack.extend(
                self.info.cycles[c.0 as usize]
                    .children
                    .iter()
                    .rev()
                    .map(|&x| (x, false)),
            );
        }
        self.info
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(n: usize, edges: &[(u32, u32)]) -> RegionCfg {
        RegionCfg::from_edges(n, edges.iter().copied())
    }

    fn show(info: &CycleInfo) -> String {
        info.print(&|b| ((b'A' + b as u8) as char).to_string())
    }

    #[test]
    fn natural_loops_nest() {
        // A -> B -> C -> B, C -> D -> A? no: A->B, B->C, C->C, C->B, B->D
        let g = cfg(4, &[(0, 1), (1, 2), (2, 2), (2, 1), (1, 3)]);
        let info = CycleInfo::compute(&g);
        assert_eq!(
            show(&info),
            "depth=1: entries(B) C\n    depth=2: entries(C)\n"
        );
        let outer = info.top_level[0];
        assert!(info.cycle(outer).is_reducible());
        assert_eq!(info.exit_blocks(&g, outer), vec![3]);
        assert!(info.contains(outer, 2) && !info.contains(outer, 3));
    }

    #[test]
    fn irreducible_two_entries_header_follows_dfs() {
        // A -> B, A -> C, B <-> C, C -> D
        let g = cfg(4, &[(0, 1), (0, 2), (1, 2), (2, 1), (2, 3)]);
        let info = CycleInfo::compute(&g);
        assert_eq!(show(&info), "depth=1: entries(B C)\n");
        let c = info.top_level[0];
        assert!(!info.cycle(c).is_reducible());
        // Swapped successor order: the DFS reaches C first, so C is the header.
        let g2 = cfg(4, &[(0, 2), (0, 1), (1, 2), (2, 1), (2, 3)]);
        assert_eq!(show(&CycleInfo::compute(&g2)), "depth=1: entries(C B)\n");
    }

    #[test]
    fn irreducible_child_inside_reducible_parent_and_unreachable_blocks() {
        // H -> A, H -> B, A <-> B, A -> H (back edge), B -> X; E unreachable loop E <-> F
        let g = cfg(
            7,
            &[
                (0, 1),
                (1, 2),
                (1, 3),
                (2, 3),
                (3, 2),
                (2, 1),
                (3, 4),
                (5, 6),
                (6, 5),
            ],
        );
        let info = CycleInfo::compute(&g);
        assert_eq!(
            show(&info),
            "depth=1: entries(B) C D\n    depth=2: entries(C D)\n"
        );
        assert_eq!(info.innermost(5), None);
    }
}
