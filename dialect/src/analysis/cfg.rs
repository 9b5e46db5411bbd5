//! The control-flow graph of one region, with dense block numbering.
//!
//! Analyses work on dense `u32` node numbers (index into `blocks`) so they can use plain
//! vectors. Edges are deduplicated per predecessor list only where a block branches twice to
//! the same target (a `cond_br` with equal targets still counts once as a predecessor edge).

use crate::entities::{Block, Region};
use crate::ir::Ir;
use cranelift_entity::SecondaryMap;
use smallvec::SmallVec;

/// One node's successors or predecessors: up to four live in the list itself (most blocks
/// have one or two), so building a CFG allocates per region, not per block.
pub type NodeList = SmallVec<[u32; 4]>;

/// Successor and predecessor lists of a region's blocks, in layout order.
#[derive(Clone, Debug, Default)]
pub struct RegionCfg {
    pub region: Option<Region>,
    /// Node number -> block (node 0 is the entry block).
    pub blocks: Vec<Block>,
    /// Block -> node number (only meaningful for blocks of this region).
    pub index: SecondaryMap<Block, u32>,
    pub succs: Vec<NodeList>,
    pub preds: Vec<NodeList>,
}

impl RegionCfg {
    /// Builds the CFG of `region`. Successors outside the region are ignored (the verifier
    /// reports them).
    pub fn compute(ir: &Ir, region: Region) -> RegionCfg {
        let blocks: Vec<Block> = ir.region_blocks(region).collect();
        let mut index = SecondaryMap::with_default(u32::MAX);
        for (i, &b) in blocks.iter().enumerate() {
            index[b] = i as u32;
        }
        let n = blocks.len();
        let mut succs = vec![NodeList::new(); n];
        let mut preds = vec![NodeList::new(); n];
        for (i, &b) in blocks.iter().enumerate() {
            for s in ir.block_succs(b) {
                let j = index[s];
                if j == u32::MAX || succs[i].contains(&j) {
                    continue;
                }
                succs[i].push(j);
                preds[j as usize].push(i as u32);
            }
        }
        RegionCfg {
            region: Some(region),
            blocks,
            index,
            succs,
            preds,
        }
    }

    /// A bare graph over nodes `0..n` with the given edges, in order (blocks are placeholder
    /// entities): for tests and generated benchmarks of the graph analyses.
    pub fn from_edges(n: usize, edges: impl IntoIterator<Item = (u32, u32)>) -> RegionCfg {
        let mut c = RegionCfg {
            blocks: (0..n as u32).map(Block::from_u32).collect(),
            succs: vec![NodeList::new(); n],
            preds: vec![NodeList::new(); n],
            ..Default::default()
        };
        for (a, b) in edges {
            c.succs[a as usize].push(b);
            c.preds[b as usize].push(a);
        }
        c
    }

    pub fn len(&self) -> usize {
        self.blocks.len()
    }
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }
    /// Node number of a block of this region.
    pub fn node(&self, b: Block) -> Option<u32> {
        let i = self.index[b];
        (i != u32::MAX && self.blocks.get(i as usize) == Some(&b)).then_some(i)
    }

    /// Reachable nodes in the post-order of a DFS from the entry (successors in order:
    /// every node after its DFS descendants). Iterative, linear.
    pub fn postorder(&self) -> Vec<u32> {
        let n = self.len();
        let mut post = Vec::with_capacity(n);
        if n == 0 {
            return post;
        }
        let mut seen = vec![false; n];
        let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
        seen[0] = true;
        while let Some(&mut (b, ref mut i)) = stack.last_mut() {
            if let Some(&s) = self.succs[b as usize].get(*i) {
                *i += 1;
                if !seen[s as usize] {
                    seen[s as usize] = true;
                    stack.push((s, 0));
                }
            } else {
                post.push(b);
                stack.pop();
            }
        }
        post
    }

    /// Reverse-postorder number of each node (of [`RegionCfg::postorder`]); `u32::MAX` for
    /// unreachable nodes. Iterative, linear.
    pub fn reverse_postorder(&self) -> Vec<u32> {
        let mut rpo = vec![u32::MAX; self.len()];
        for (k, &b) in self.postorder().iter().rev().enumerate() {
            rpo[b as usize] = k as u32;
        }
        rpo
    }
}

#[cfg(test)]
mod tests {
    use super::RegionCfg;

    #[test]
    fn reverse_postorder_of_a_loop_with_an_unreachable_block() {
        // 0 -> 1 -> 2 -> 1, 2 -> 3; 4 unreachable.
        let cfg = RegionCfg::from_edges(5, [(0, 1), (1, 2), (2, 1), (2, 3)]);
        assert_eq!(cfg.reverse_postorder(), vec![0, 1, 2, 3, u32::MAX]);
        // A diamond: the join comes after both sides.
        let d = RegionCfg::from_edges(4, [(0, 1), (0, 2), (1, 3), (2, 3)]);
        let rpo = d.reverse_postorder();
        assert!(rpo[3] > rpo[1] && rpo[3] > rpo[2] && rpo[0] == 0);
    }
}
