//! Structurization: the control tree of a reducible CF kernel.
//!
//! Pre: a CF-form kernel (`Ir::is_cf_kernel`) whose cycles are all natural loops
//! (`transforms::make_structurizable` ran), with its uniformity analysis.
//! Post: a tree of `If` / `Block` / `Loop` constructs over the kernel's blocks in which every
//! edge is either inlined (a block with one forward predecessor is placed right after it),
//! a `Br` to an enclosing `Block` label (a forward edge to a join) or to an enclosing `Loop`
//! (a back edge), or a `Return`. Every block appears exactly once. Exits of a loop are always
//! placed after the loop, never inside it, so lanes that leave a loop at different iterations
//! meet again after it (maximal convergence) — the property the EXEC lowering relies on.
//!
//! This is the placement algorithm of Ramsey's "Beyond Relooper" (dominator tree + reverse
//! postorder: join blocks become labels wrapped around their dominator's code, highest RPO
//! outermost), with loop exits re-parented to the header of the outermost loop they leave.
//! In StructurizeCFG terms, a `Block` label is a Flow block: the lanes that branch to it are
//! carried in a lane-mask predicate (an SGPR pair) until the label's end, where they rejoin.
//! Linear in the number of blocks and edges.

use kc_dialect::analysis::uniformity::Uniformity;
use kc_dialect::{Block, Ir, Op, Opcode, Value};

/// A node of the control tree. Block numbers are region-CFG node numbers of `Uniformity::cfg`.
#[derive(Clone, Debug)]
pub enum Node {
    /// The non-terminator ops of a block.
    Code(u32),
    Seq(Vec<Node>),
    /// `cond_br` of block `.term`'s terminator.
    If {
        term: Op,
        cond: Value,
        divergent: bool,
        then_: Box<Node>,
        else_: Box<Node>,
    },
    /// A forward-branch target: `Br(label)` inside `body` continues after the body.
    Block {
        label: u32,
        body: Box<Node>,
    },
    /// `Br(header)` inside `body` starts the next iteration.
    Loop {
        header: u32,
        body: Box<Node>,
    },
    /// An edge taken to a label: successor `succ` of terminator `term`, whose block arguments
    /// are assigned first.
    Br {
        term: Op,
        succ: usize,
        target: u32,
    },
    /// An edge to a block placed right here (its arguments are assigned first).
    Edge {
        term: Op,
        succ: usize,
    },
    /// `kernel.return`.
    Return(Op),
}

/// Why the tree could not be built (the kernel was not made structurizable first).
#[derive(Debug)]
pub struct NotStructurizable(pub String);

pub fn control_tree(ir: &Ir, u: &Uniformity) -> Result<Node, NotStructurizable> {
    let cfg = &u.cfg;
    let n = cfg.len();
    for c in &u.cycles.cycles {
        if !c.is_reducible() {
            return Err(NotStructurizable("irreducible cycle".into()));
        }
    }
    // Reverse postorder.
    let mut rpo_index = vec![u32::MAX; n];
    {
        let mut post = Vec::with_capacity(n);
        let mut seen = vec![false; n];
        let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
        seen[0] = true;
        while let Some(&mut (b, ref mut i)) = stack.last_mut() {
            if let Some(&s) = cfg.succs[b as usize].get(*i) {
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
        for (k, &b) in post.iter().rev().enumerate() {
            rpo_index[b as usize] = k as u32;
        }
    }
    let header_cycle = |b: u32| {
        u.cycles
            .innermost(b)
            .filter(|&c| u.cycles.cycle(c).header() == b)
            .or_else(|| {
                // `b` may head a cycle whose innermost cycle of `b` is that cycle itself.
                None
            })
    };
    let is_back_edge = |from: u32, to: u32| {
        // `to` heads a cycle containing `from`.
        let mut c = u.cycles.innermost(to);
        while let Some(id) = c {
            let cy = u.cycles.cycle(id);
            if cy.header() == to && u.cycles.contains(id, from) {
                return true;
            }
            c = cy.parent;
        }
        false
    };
    let mut fwd_preds = vec![0u32; n];
    for b in 0..n as u32 {
        if rpo_index[b as usize] == u32::MAX {
            continue;
        }
        for &s in &cfg.succs[b as usize] {
            if !is_back_edge(b, s) {
                fwd_preds[s as usize] += 1;
            }
        }
    }
    let mut is_label: Vec<bool> = (0..n).map(|b| fwd_preds[b] >= 2).collect();
    let mut kids: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut exits: Vec<Vec<u32>> = vec![Vec::new(); n];
    for y in 1..n as u32 {
        if rpo_index[y as usize] == u32::MAX {
            continue;
        }
        let Some(d) = u.dom.idom(y) else { continue };
        // The outermost cycle containing the dominator but not `y`.
        let mut c = u.cycles.innermost(d);
        let mut leave = None;
        while let Some(id) = c {
            if !u.cycles.contains(id, y) {
                leave = Some(id);
            }
            c = u.cycles.cycle(id).parent;
        }
        match leave {
            Some(id) => {
                exits[u.cycles.cycle(id).header() as usize].push(y);
                is_label[y as usize] = true;
            }
            None => kids[d as usize].push(y),
        }
    }
    let b = Builder {
        ir,
        u,
        rpo_index,
        is_label,
        kids,
        exits,
    };
    let _ = header_cycle;
    Ok(b.do_tree(0, &is_back_edge))
}

struct Builder<'a> {
    ir: &'a Ir,
    u: &'a Uniformity,
    rpo_index: Vec<u32>,
    is_label: Vec<bool>,
    kids: Vec<Vec<u32>>,
    exits: Vec<Vec<u32>>,
}

impl Builder<'_> {
    fn block(&self, b: u32) -> Block {
        self.u.cfg.blocks[b as usize]
    }

    fn is_header(&self, b: u32) -> bool {
        let mut c = self.u.cycles.innermost(b);
        while let Some(id) = c {
            if self.u.cycles.cycle(id).header() == b {
                return true;
            }
            c = self.u.cycles.cycle(id).parent;
        }
        false
    }

    fn sorted(&self, mut v: Vec<u32>) -> Vec<u32> {
        v.sort_by_key(|&b| self.rpo_index[b as usize]);
        v
    }

    fn do_tree(&self, x: u32, back: &dyn Fn(u32, u32) -> bool) -> Node {
        let merges = self.sorted(
            self.kids[x as usize]
                .iter()
                .copied()
                .filter(|&k| self.is_label[k as usize])
                .collect(),
        );
        if self.is_header(x) {
            let body = self.node_within(x, &merges, back);
            let lp = Node::Loop {
                header: x,
                body: Box::new(body),
            };
            let exits = self.sorted(self.exits[x as usize].clone());
            self.wrap(lp, &exits, back)
        } else {
            let exits = self.sorted(self.exits[x as usize].clone());
            debug_assert!(exits.is_empty());
            self.node_within(x, &merges, back)
        }
    }

    /// `Block(e_k){ ... Block(e_1){ inner } code(e_1) ... } code(e_k)`.
    fn wrap(&self, inner: Node, labels: &[u32], back: &dyn Fn(u32, u32) -> bool) -> Node {
        let mut node = inner;
        for &y in labels {
            node = Node::Seq(vec![
                Node::Block {
                    label: y,
                    body: Box::new(node),
                },
                self.do_tree(y, back),
            ]);
        }
        node
    }

    fn node_within(&self, x: u32, merges: &[u32], back: &dyn Fn(u32, u32) -> bool) -> Node {
        let inner = Node::Seq(vec![Node::Code(x), self.terminator(x, back)]);
        self.wrap(inner, merges, back)
    }

    fn terminator(&self, x: u32, back: &dyn Fn(u32, u32) -> bool) -> Node {
        let ir = self.ir;
        let term = ir
            .terminator(self.block(x))
            .expect("CF block has a terminator");
        match ir.opcode(term) {
            Opcode::Return => Node::Return(term),
            Opcode::Br => self.branch(x, term, 0, back),
            Opcode::CondBr => {
                let cond = ir.ops[term].operands[0];
                Node::If {
                    term,
                    cond,
                    divergent: self.u.is_divergent_branch(term),
                    then_: Box::new(self.branch(x, term, 0, back)),
                    else_: Box::new(self.branch(x, term, 1, back)),
                }
            }
            _ => Node::Return(term),
        }
    }

    fn branch(&self, x: u32, term: Op, succ: usize, back: &dyn Fn(u32, u32) -> bool) -> Node {
        let target_block = self.ir.ops[term].succs[succ].block;
        let y = self.u.cfg.index[target_block];
        if back(x, y) || self.is_label[y as usize] {
            Node::Br {
                term,
                succ,
                target: y,
            }
        } else {
            Node::Seq(vec![Node::Edge { term, succ }, self.do_tree(y, back)])
        }
    }
}
