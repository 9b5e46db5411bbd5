//! Dominator and post-dominator trees.
//!
//! Lengauer–Tarjan with path compression (the "simple" variant, O(E log V)), iterative
//! throughout so 100k-block CFGs cannot overflow the stack. The tree also stores DFS entry/exit
//! numbers of the tree itself, so `dominates` is O(1).
//!
//! Post-dominance runs the same algorithm on the reversed graph from a virtual exit node that
//! every exit block (no successors) feeds. Blocks that cannot reach any exit (infinite loops)
//! are attached to the virtual exit too, in layout order, as LLVM does for reverse-unreachable
//! roots, so every reachable block has a post-dominator chain ending at the virtual exit.

use super::cfg::{NodeList, RegionCfg};

const NONE: u32 = u32::MAX;

/// A dominator tree over dense nodes `0..n` (plus, for post-dominators, the virtual exit `n`).
#[derive(Clone, Debug, Default)]
pub struct DomTree {
    /// Immediate dominator per node; `NONE` for the root and for unreachable nodes.
    idom: Vec<u32>,
    /// Reverse-postorder-free preorder of the DFS used to build the tree (reachable nodes only).
    preorder: Vec<u32>,
    /// Tree DFS entry/exit numbers for O(1) dominance queries.
    tin: Vec<u32>,
    tout: Vec<u32>,
    root: u32,
    /// The tree's children of node `v` are `kids[kid_start[v]..kid_start[v + 1]]` (one
    /// allocation for the whole tree rather than one per node).
    kid_start: Vec<u32>,
    kids: Vec<u32>,
}

impl DomTree {
    /// Dominators of a graph given by successor and predecessor lists, rooted at `root`.
    pub fn compute<L: AsRef<[u32]>>(succs: &[L], preds: &[L], root: u32) -> DomTree {
        let n = succs.len();
        let mut lt = LengauerTarjan::new(n);
        lt.dfs(succs, root);
        lt.run(preds);
        lt.finish(root)
    }

    /// Dominator tree of a region CFG (root = entry block, node 0).
    pub fn dominators(cfg: &RegionCfg) -> DomTree {
        if cfg.is_empty() {
            return DomTree::default();
        }
        DomTree::compute(&cfg.succs, &cfg.preds, 0)
    }

    /// Post-dominator tree of a region CFG. Node `cfg.len()` is the virtual exit.
    pub fn post_dominators(cfg: &RegionCfg) -> DomTree {
        let n = cfg.len();
        let exit = n as u32;
        // Reversed graph: successors are CFG predecessors; the virtual exit's successors are
        // the exit blocks.
        let mut rsuccs: Vec<NodeList> = cfg.preds.clone();
        let mut rpreds: Vec<NodeList> = cfg.succs.clone();
        rsuccs.push(NodeList::new());
        rpreds.push(NodeList::new());
        for (b, preds) in rpreds.iter_mut().enumerate().take(n) {
            if cfg.succs[b].is_empty() {
                rsuccs[n].push(b as u32);
                preds.push(exit);
            }
        }
        // Attach reverse-unreachable regions (infinite loops) until everything reachable from
        // the entry is covered.
        loop {
            let mut lt = LengauerTarjan::new(n + 1);
            lt.dfs(&rsuccs, exit);
            let missing = (0..n)
                .rev()
                .find(|&b| lt.dfn[b] == NONE && forward_reachable(cfg, b));
            match missing {
                Some(b) => {
                    rsuccs[n].push(b as u32);
                    rpreds[b].push(exit);
                }
                None => {
                    lt.run(&rpreds);
                    return lt.finish(exit);
                }
            }
        }
    }

    pub fn root(&self) -> u32 {
        self.root
    }
    /// Immediate dominator, `None` for the root and unreachable nodes.
    pub fn idom(&self, n: u32) -> Option<u32> {
        self.idom.get(n as usize).copied().filter(|&d| d != NONE)
    }
    pub fn is_reachable(&self, n: u32) -> bool {
        n == self.root || self.idom(n).is_some()
    }
    /// Does `a` dominate `b` (reflexive)? False if either is unreachable.
    pub fn dominates(&self, a: u32, b: u32) -> bool {
        if !self.is_reachable(a) || !self.is_reachable(b) {
            return false;
        }
        self.tin[a as usize] <= self.tin[b as usize]
            && self.tout[b as usize] <= self.tout[a as usize]
    }
    pub fn strictly_dominates(&self, a: u32, b: u32) -> bool {
        a != b && self.dominates(a, b)
    }
    pub fn children(&self, n: u32) -> &[u32] {
        match self.kid_start.get(n as usize..n as usize + 2) {
            Some(&[a, b]) => &self.kids[a as usize..b as usize],
            _ => &[],
        }
    }
    /// Reachable nodes in the DFS preorder used to build the tree.
    pub fn preorder(&self) -> &[u32] {
        &self.preorder
    }
    /// Nearest common dominator of two reachable nodes.
    pub fn common_dominator(&self, mut a: u32, mut b: u32) -> u32 {
        while !self.dominates(a, b) {
            a = self.idom(a).unwrap_or(self.root);
        }
        while !self.dominates(b, a) && a != b {
            b = self.idom(b).unwrap_or(self.root);
        }
        a
    }
}

fn forward_reachable(cfg: &RegionCfg, target: usize) -> bool {
    // Only called for reverse-unreachable nodes, which are rare; a forward DFS is fine.
    let mut seen = vec![false; cfg.len()];
    let mut stack = vec![0u32];
    while let Some(x) = stack.pop() {
        if std::mem::replace(&mut seen[x as usize], true) {
            continue;
        }
        if x as usize == target {
            return true;
        }
        stack.extend(cfg.succs[x as usize].iter().copied());
    }
    false
}

/// Working state of Lengauer–Tarjan, indexed by node (`dfn`, `parent`) or by DFS number.
struct LengauerTarjan {
    dfn: Vec<u32>,
    /// DFS number -> node.
    vertex: Vec<u32>,
    /// Per node: DFS parent (node).
    parent: Vec<u32>,
    /// Per DFS number: semidominator (as DFS number), forest ancestor, label.
    semi: Vec<u32>,
    ancestor: Vec<u32>,
    label: Vec<u32>,
    idom: Vec<u32>,
    /// Scratch stack of [`LengauerTarjan::eval`], kept between calls.
    path: Vec<u32>,
}

impl LengauerTarjan {
    fn new(n: usize) -> Self {
        LengauerTarjan {
            dfn: vec![NONE; n],
            vertex: Vec::with_capacity(n),
            parent: vec![NONE; n],
            semi: Vec::new(),
            ancestor: Vec::new(),
            label: Vec::new(),
            idom: vec![NONE; n],
            path: Vec::new(),
        }
    }

    fn dfs<L: AsRef<[u32]>>(&mut self, succs: &[L], root: u32) {
        let mut stack: Vec<(u32, usize)> = vec![(root, 0)];
        self.dfn[root as usize] = 0;
        self.vertex.push(root);
        while let Some(&mut (v, ref mut i)) = stack.last_mut() {
            if let Some(&w) = succs[v as usize].as_ref().get(*i) {
                *i += 1;
                if self.dfn[w as usize] == NONE {
                    self.dfn[w as usize] = self.vertex.len() as u32;
                    self.vertex.push(w);
                    self.parent[w as usize] = v;
                    stack.push((w, 0));
                }
            } else {
                stack.pop();
            }
        }
    }

    /// Path-compressing `eval` on DFS numbers, iterative.
    fn eval(&mut self, v: u32) -> u32 {
        if self.ancestor[v as usize] == NONE {
            return v;
        }
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        let mut x = v;
        while self.ancestor[self.ancestor[x as usize] as usize] != NONE {
            path.push(x);
            x = self.ancestor[x as usize];
        }
        for &y in path.iter().rev() {
            let a = self.ancestor[y as usize];
            if self.semi[self.label[a as usize] as usize]
                < self.semi[self.label[y as usize] as usize]
            {
                self.label[y as usize] = self.label[a as usize];
            }
            self.ancestor[y as usize] = self.ancestor[a as usize];
        }
        self.path = path;
        self.label[v as usize]
    }

    fn run<L: AsRef<[u32]>>(&mut self, preds: &[L]) {
        let count = self.vertex.len();
        self.semi = (0..count as u32).collect();
        self.label = (0..count as u32).collect();
        self.ancestor = vec![NONE; count];
        let mut dom = vec![NONE; count]; // by DFS number
                                         // Buckets as singly linked lists through `bucket_next` (by DFS number): each vertex
                                         // is in at most one bucket at a time, so two flat arrays replace a Vec per vertex.
        let mut bucket_head = vec![NONE; count];
        let mut bucket_next = vec![NONE; count];
        for w in (1..count as u32).rev() {
            let node = self.vertex[w as usize];
            for &p in preds[node as usize].as_ref() {
                let v = self.dfn[p as usize];
                if v == NONE {
                    continue; // unreachable predecessor
                }
                let u = self.eval(v);
                if self.semi[u as usize] < self.semi[w as usize] {
                    self.semi[w as usize] = self.semi[u as usize];
                }
            }
            let s = self.semi[w as usize] as usize;
            bucket_next[w as usize] = bucket_head[s];
            bucket_head[s] = w;
            let p = self.dfn[self.parent[node as usize] as usize];
            self.ancestor[w as usize] = p;
            let mut next = std::mem::replace(&mut bucket_head[p as usize], NONE);
            while next != NONE {
                let v = next;
                next = bucket_next[v as usize];
                let u = self.eval(v);
                dom[v as usize] = if self.semi[u as usize] < self.semi[v as usize] {
                    u
                } else {
                    p
                };
            }
        }
        for w in 1..count {
            if dom[w] != self.semi[w] {
                dom[w] = dom[dom[w] as usize];
            }
            self.idom[self.vertex[w] as usize] = self.vertex[dom[w] as usize];
        }
    }

    fn finish(self, root: u32) -> DomTree {
        let n = self.idom.len();
        // Children in CSR form, each node's in DFS order (a counting sort by parent).
        let mut kid_start = vec![0u32; n + 1];
        for &v in &self.vertex[1..] {
            kid_start[self.idom[v as usize] as usize + 1] += 1;
        }
        for i in 0..n {
            kid_start[i + 1] += kid_start[i];
        }
        let mut fill = kid_start.clone();
        let mut kids = vec![0u32; self.vertex.len().saturating_sub(1)];
        for &v in &self.vertex[1..] {
            let p = self.idom[v as usize] as usize;
            kids[fill[p] as usize] = v;
            fill[p] += 1;
        }
        let children =
            |v: u32| &kids[kid_start[v as usize] as usize..kid_start[v as usize + 1] as usize];
        let (mut tin, mut tout) = (vec![0; n], vec![0; n]);
        let mut clock = 0;
        let mut stack: Vec<(u32, usize)> = vec![(root, 0)];
        tin[root as usize] = clock;
        while let Some(&mut (v, ref mut i)) = stack.last_mut() {
            if let Some(&c) = children(v).get(*i) {
                *i += 1;
                clock += 1;
                tin[c as usize] = clock;
                stack.push((c, 0));
            } else {
                clock += 1;
                tout[v as usize] = clock;
                stack.pop();
            }
        }
        DomTree {
            idom: self.idom,
            preorder: self.vertex,
            tin,
            tout,
            root,
            kid_start,
            kids,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: usize, edges: &[(u32, u32)]) -> (Vec<Vec<u32>>, Vec<Vec<u32>>) {
        let mut s = vec![Vec::new(); n];
        let mut p = vec![Vec::new(); n];
        for &(a, b) in edges {
            s[a as usize].push(b);
            p[b as usize].push(a);
        }
        (s, p)
    }

    /// Brute force: a dominates b iff b is unreachable from the root when a is removed.
    fn naive_dominates(succs: &[Vec<u32>], a: u32, b: u32) -> bool {
        if a == b {
            return true;
        }
        let mut seen = vec![false; succs.len()];
        let mut stack = vec![0u32];
        while let Some(x) = stack.pop() {
            if x == a || std::mem::replace(&mut seen[x as usize], true) {
                continue;
            }
            stack.extend(succs[x as usize].iter().copied());
        }
        !seen[b as usize]
    }

    #[test]
    fn diamond_and_loop() {
        // 0 -> 1,2 -> 3 -> 4 -> 3 (loop), 4 -> 5
        let (s, p) = graph(6, &[(0, 1), (0, 2), (1, 3), (2, 3), (3, 4), (4, 3), (4, 5)]);
        let t = DomTree::compute(&s, &p, 0);
        assert_eq!(t.idom(3), Some(0));
        assert_eq!(t.idom(4), Some(3));
        assert_eq!(t.idom(5), Some(4));
        assert!(t.dominates(0, 5) && !t.dominates(1, 3));
    }

    #[test]
    fn matches_brute_force_on_pseudo_random_graphs() {
        let mut seed = 0x2545F4914F6CDD1Du64;
        let mut rand = move |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for _ in 0..300 {
            let n = 2 + rand(12) as usize;
            let mut edges = Vec::new();
            for _ in 0..rand(3 * n as u64) + n as u64 {
                edges.push((rand(n as u64) as u32, rand(n as u64) as u32));
            }
            let (s, p) = graph(n, &edges);
            let t = DomTree::compute(&s, &p, 0);
            for a in 0..n as u32 {
                for b in 0..n as u32 {
                    if t.is_reachable(b) {
                        assert_eq!(
                            t.dominates(a, b),
                            naive_dominates(&s, a, b),
                            "{edges:?} {a} {b}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn post_dominators_with_two_exits_and_infinite_loop() {
        let mut cfg = RegionCfg::default();
        // 0 -> 1, 2; 1 exits; 2 -> 3 -> 3 (infinite loop)
        let (s, p) = graph(4, &[(0, 1), (0, 2), (2, 3), (3, 3)]);
        cfg.succs = s.into_iter().map(NodeList::from_vec).collect();
        cfg.preds = p.into_iter().map(NodeList::from_vec).collect();
        let pd = post_dom_of(&cfg);
        assert_eq!(pd.idom(1), Some(4));
        assert_eq!(pd.idom(0), Some(4));
        assert!(pd.is_reachable(3));
        assert_eq!(pd.idom(2), Some(3));
    }

    fn post_dom_of(cfg: &RegionCfg) -> DomTree {
        // RegionCfg::len() counts blocks; give it matching placeholder blocks.
        let mut c = cfg.clone();
        c.blocks = (0..c.succs.len() as u32)
            .map(crate::entities::Block::from_u32)
            .collect();
        DomTree::post_dominators(&c)
    }
}
