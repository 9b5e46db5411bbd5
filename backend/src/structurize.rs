//! Structurization: the control tree of a reducible CF kernel.
//!
//! Pre: a CF-form kernel (`Ir::is_cf_kernel`) whose cycles are all natural loops
//! (`transforms::make_structurizable` ran), with its uniformity analysis.
//! Post: a tree of `If` / `Block` / `Loop` constructs over the kernel's blocks in which every
//! edge is either inlined (a block with one forward predecessor is placed right after it),
//! a `Br` to an enclosing `Block` label (a forward edge to a join) or to an enclosing `Loop`
//! (a back edge), or a `Return`. Every block appears exactly once. Exits of a loop are always
//! placed after the loop, so lanes that leave a loop at different iterations meet again after
//! it (maximal convergence) — the property the EXEC lowering relies on — except the blocks
//! in the convergence region of the loop's heart token (a use of the token lies ahead):
//! threads run those in the iteration they leave from (controlled convergence), so they are
//! placed inside the loop, *attached* to it, and the uniformity analysis agrees
//! (`Uniformity::heart_region_exits`).
//! Finally a divergent `if` one side of which only leaves the construct (a break, an early
//! return, a jump to an outer join) becomes a `BrIf`: the leaving lanes are masked off and the
//! other side continues in place, instead of opening an if region.
//!
//! This is the placement algorithm of Ramsey's "Beyond Relooper" (dominator tree + reverse
//! postorder: join blocks become labels wrapped around their dominator's code, highest RPO
//! outermost), with loop exits re-parented to the header of the outermost loop they leave.
//! In StructurizeCFG terms, a `Block` label is a Flow block: the lanes that branch to it are
//! carried in a lane-mask predicate (an SGPR pair) until the label's end, where they rejoin.
//! Linear in the number of blocks and edges (placement containment is O(1) from Euler numbers
//! of the cycle forest; a loop exit walks up only the loops it leaves). The
//! tree lives in an arena ([`Tree`]) and is built and peeled from work lists, never by
//! recursion: its depth grows with the kernel (an `else if` chain, or the dominator tree of
//! sequential code).

use kc_dialect::analysis::uniformity::Uniformity;
use kc_dialect::analysis::CycleId;
use kc_dialect::{Block, Ir, Op, Opcode, Value};

/// Where a branch goes: the end of a `Block` label, the head of an enclosing `Loop` (next
/// iteration), or out of the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Label(u32),
    Head(u32),
    Kernel,
}

/// Index of a node in a [`Tree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NodeId(pub u32);

/// A node of the control tree. Block numbers are region-CFG node numbers of `Uniformity::cfg`.
#[derive(Clone, Debug)]
pub enum Node {
    /// The non-terminator ops of a block.
    Code(u32),
    Seq(Vec<NodeId>),
    /// The `cond_br` terminator `term`: `then_` for its first successor, `else_` for the second.
    If {
        term: Op,
        cond: Value,
        divergent: bool,
        then_: NodeId,
        else_: NodeId,
    },
    /// The lanes of EXEC whose `cond` (negated with `negate`) holds take `br` (a `Br` without
    /// block arguments or a `Return`); the others continue. Only for divergent branches.
    BrIf {
        term: Op,
        cond: Value,
        negate: bool,
        br: NodeId,
    },
    /// A forward-branch target: a branch to `Label(label)` inside `body` continues after it.
    Block {
        label: u32,
        body: NodeId,
    },
    /// A branch to `Head(header)` inside `body` starts the next iteration.
    Loop {
        header: u32,
        body: NodeId,
    },
    /// An edge taken to `target`: successor `succ` of terminator `term`, whose block arguments
    /// are assigned first.
    Br {
        term: Op,
        succ: usize,
        target: Target,
    },
    /// An edge to a block placed right here (its arguments are assigned first).
    Edge {
        term: Op,
        succ: usize,
    },
    /// `kernel.return`.
    Return(Op),
}

impl Node {
    /// Where this node branches to, if it is a `Br` or a `Return`.
    pub fn target(&self) -> Option<Target> {
        match self {
            Node::Br { target, .. } => Some(*target),
            Node::Return(_) => Some(Target::Kernel),
            _ => None,
        }
    }
}

/// The control tree: its nodes in an arena, children by [`NodeId`]. Nested code (an `else if`
/// chain is one `If` in the else side of the previous one) makes it as deep as the kernel is
/// long, so it is built, transformed, walked and dropped without recursion.
#[derive(Clone, Debug)]
pub struct Tree {
    pub nodes: Vec<Node>,
    pub root: NodeId,
}

impl Tree {
    fn add(&mut self, n: Node) -> NodeId {
        self.nodes.push(n);
        NodeId(self.nodes.len() as u32 - 1)
    }
}

impl std::ops::Index<NodeId> for Tree {
    type Output = Node;
    fn index(&self, n: NodeId) -> &Node {
        &self.nodes[n.0 as usize]
    }
}

/// Why the tree could not be built (the kernel was not made structurizable first).
#[derive(Debug)]
pub struct NotStructurizable(pub String);

pub fn control_tree(ir: &Ir, u: &Uniformity) -> Result<Tree, NotStructurizable> {
    let cfg = &u.cfg;
    let n = cfg.len();
    if u.cycles.cycles.iter().any(|c| !c.is_reducible()) {
        return Err(NotStructurizable("irreducible cycle".into()));
    }
    // Each block outside a cycle but in its heart's region is attached to the deepest such
    // cycle; a cycle whose header is attached hangs, for placement, below that cycle.
    let mut attached: Vec<Option<CycleId>> = vec![None; n];
    for (i, blocks) in u.heart_region_exits(ir).into_iter().enumerate() {
        let c = CycleId(i as u32);
        for b in blocks {
            let deeper = attached[b as usize]
                .is_none_or(|a| u.cycles.cycle(c).depth > u.cycles.cycle(a).depth);
            if deeper {
                attached[b as usize] = Some(c);
            }
        }
    }
    let ext_parent: Vec<Option<CycleId>> = (0..u.cycles.cycles.len())
        .map(|i| {
            let cy = u.cycles.cycle(CycleId(i as u32));
            match (attached[cy.header() as usize], cy.parent) {
                (Some(a), Some(p)) if u.cycles.is_within(a, p) => Some(a),
                (Some(a), None) => Some(a),
                (_, p) => p,
            }
        })
        .collect();
    let mut b = Builder {
        ir,
        u,
        rpo: cfg.reverse_postorder(),
        is_label: vec![false; n],
        kids: vec![Vec::new(); n],
        exits: vec![Vec::new(); n],
        attached,
        euler: euler(&ext_parent),
        ext_parent,
    };
    // Join blocks (two forward predecessors, or both sides of one cond_br) are labels.
    let mut fwd_preds = vec![0u32; n];
    for x in 0..n as u32 {
        if b.rpo[x as usize] == u32::MAX {
            continue;
        }
        for &s in &cfg.succs[x as usize] {
            if !b.is_back_edge(x, s) {
                fwd_preds[s as usize] += 1;
            }
        }
        let term = ir.terminator(cfg.blocks[x as usize]);
        if let Some(t) = term.filter(|&t| ir.opcode(t) == Opcode::CondBr) {
            let s = &ir.ops[t].succs;
            if s[0].block == s[1].block {
                b.is_label[cfg.index[s[0].block] as usize] = true;
            }
        }
    }
    for (l, &k) in b.is_label.iter_mut().zip(&fwd_preds) {
        *l |= k >= 2;
    }
    // Dominator-tree children, except loop exits: those go to the header of the outermost
    // loop containing their dominator but not them, and are placed after that loop.
    for y in 1..n as u32 {
        if b.rpo[y as usize] == u32::MAX {
            continue;
        }
        let Some(d) = u.dom.idom(y) else { continue };
        // The cycles placed around `d` that do not hold `y` are the innermost ones of its
        // chain (holding is inherited upwards): walk up to the first that holds `y`.
        let mut c = b.innermost(d);
        let mut leave = None;
        while let Some(id) = c {
            if b.contains(id, y) {
                break;
            }
            leave = Some(id);
            c = b.ext_parent[id.0 as usize];
        }
        match leave {
            Some(id) => {
                b.exits[u.cycles.cycle(id).header() as usize].push(y);
                b.is_label[y as usize] = true;
            }
            None => b.kids[d as usize].push(y),
        }
    }
    let mut tree = b.build();
    b.peel(&mut tree);
    Ok(tree)
}

struct Builder<'a> {
    ir: &'a Ir,
    u: &'a Uniformity,
    rpo: Vec<u32>,
    is_label: Vec<bool>,
    kids: Vec<Vec<u32>>,
    exits: Vec<Vec<u32>>,
    /// The cycle a block outside it is attached to (see the module docs).
    attached: Vec<Option<CycleId>>,
    /// The cycle enclosing each cycle for placement: its parent, or the cycle its header is
    /// attached to when that one is deeper.
    ext_parent: Vec<Option<CycleId>>,
    /// Entry and exit numbers of each cycle in a walk of the `ext_parent` forest.
    euler: Vec<(u32, u32)>,
}

/// Entry and exit numbers of each node in a depth-first walk of the forest given by
/// `parent`: `a` encloses `b` iff `a`'s interval holds `b`'s. Iterative.
fn euler(parent: &[Option<CycleId>]) -> Vec<(u32, u32)> {
    let n = parent.len();
    let mut children = vec![Vec::new(); n];
    let mut roots = Vec::new();
    for (i, p) in parent.iter().enumerate() {
        match p {
            Some(p) => children[p.0 as usize].push(i),
            None => roots.push(i),
        }
    }
    let mut num = vec![(0, 0); n];
    let mut clock = 0;
    let mut stack: Vec<(usize, bool)> = roots.into_iter().rev().map(|r| (r, false)).collect();
    while let Some((x, done)) = stack.pop() {
        if done {
            num[x].1 = clock;
            clock += 1;
            continue;
        }
        num[x].0 = clock;
        clock += 1;
        stack.push((x, true));
        stack.extend(children[x].iter().rev().map(|&c| (c, false)));
    }
    num
}

impl Builder<'_> {
    /// The innermost cycle `b` is placed in: its own, or the one it is attached to when
    /// that one is deeper.
    fn innermost(&self, b: u32) -> Option<CycleId> {
        let cycles = &self.u.cycles;
        match (cycles.innermost(b), self.attached[b as usize]) {
            (Some(c), Some(a)) if cycles.is_within(a, c) => Some(a),
            (None, a) => a,
            (c, _) => c,
        }
    }

    /// Is `b` placed inside cycle `c` (a member, or attached to it or to a cycle in it)?
    /// O(1) from the Euler numbers.
    fn contains(&self, c: CycleId, b: u32) -> bool {
        self.innermost(b).is_some_and(|x| {
            let (cx, x) = (self.euler[c.0 as usize], self.euler[x.0 as usize]);
            cx.0 <= x.0 && x.1 <= cx.1
        })
    }

    fn block(&self, b: u32) -> Block {
        self.u.cfg.blocks[b as usize]
    }

    /// The header of a loop `b` is in, if `b` heads one.
    fn is_header(&self, b: u32) -> bool {
        self.u
            .cycles
            .innermost(b)
            .is_some_and(|c| self.u.cycles.cycle(c).header() == b)
    }

    /// Is `from -> to` a back edge (`to` heads a cycle containing `from`)?
    fn is_back_edge(&self, from: u32, to: u32) -> bool {
        self.is_header(to)
            && self
                .u
                .cycles
                .innermost(to)
                .is_some_and(|c| self.u.cycles.contains(c, from))
    }

    fn sorted(&self, mut v: Vec<u32>) -> Vec<u32> {
        v.sort_by_key(|&b| self.rpo[b as usize]);
        v
    }

    /// Ramsey's `doTree` from the entry block. Each `doTree(y)` that the tree needs gets a
    /// placeholder node at once and is built from a work list into it, so no recursion
    /// follows the dominator tree (as deep as the kernel is long for sequential code).
    fn build(&self) -> Tree {
        let mut tree = Tree {
            nodes: Vec::new(),
            root: NodeId(0),
        };
        let mut work = Vec::new();
        tree.root = self.placeholder(&mut tree, 0, &mut work);
        while let Some((x, slot)) = work.pop() {
            let node = self.do_tree(&mut tree, x, &mut work);
            tree.nodes[slot.0 as usize] = node;
        }
        tree
    }

    /// A node to be filled with `doTree(x)`.
    fn placeholder(&self, tree: &mut Tree, x: u32, work: &mut Vec<(u32, NodeId)>) -> NodeId {
        let slot = tree.add(Node::Seq(Vec::new()));
        work.push((x, slot));
        slot
    }

    fn do_tree(&self, tree: &mut Tree, x: u32, work: &mut Vec<(u32, NodeId)>) -> Node {
        let merges = self.sorted(
            self.kids[x as usize]
                .iter()
                .copied()
                .filter(|&k| self.is_label[k as usize])
                .collect(),
        );
        let body = self.node_within(tree, x, &merges, work);
        if self.is_header(x) {
            let body = tree.add(body);
            let lp = Node::Loop { header: x, body };
            self.wrap(tree, lp, &self.sorted(self.exits[x as usize].clone()), work)
        } else {
            body
        }
    }

    /// `Block(e_k){ ... Block(e_1){ inner } code(e_1) ... } code(e_k)`.
    fn wrap(
        &self,
        tree: &mut Tree,
        inner: Node,
        labels: &[u32],
        work: &mut Vec<(u32, NodeId)>,
    ) -> Node {
        let mut node = inner;
        for &y in labels {
            let body = tree.add(node);
            let block = tree.add(Node::Block { label: y, body });
            let after = self.placeholder(tree, y, work);
            node = Node::Seq(vec![block, after]);
        }
        node
    }

    fn node_within(
        &self,
        tree: &mut Tree,
        x: u32,
        merges: &[u32],
        work: &mut Vec<(u32, NodeId)>,
    ) -> Node {
        let code = tree.add(Node::Code(x));
        let term = self.terminator(tree, x, work);
        let term = tree.add(term);
        self.wrap(tree, Node::Seq(vec![code, term]), merges, work)
    }

    fn terminator(&self, tree: &mut Tree, x: u32, work: &mut Vec<(u32, NodeId)>) -> Node {
        let ir = self.ir;
        let term = ir
            .terminator(self.block(x))
            .expect("CF blocks end in a terminator");
        match ir.opcode(term) {
            Opcode::Br => self.branch(tree, x, term, 0, work),
            Opcode::CondBr => {
                let then_ = self.branch(tree, x, term, 0, work);
                let then_ = tree.add(then_);
                let else_ = self.branch(tree, x, term, 1, work);
                let else_ = tree.add(else_);
                Node::If {
                    term,
                    cond: ir.ops[term].operands[0],
                    divergent: self.u.is_divergent_branch(term),
                    then_,
                    else_,
                }
            }
            // `kernel.return` (CF form has no other terminator).
            _ => Node::Return(term),
        }
    }

    fn branch(
        &self,
        tree: &mut Tree,
        x: u32,
        term: Op,
        succ: usize,
        work: &mut Vec<(u32, NodeId)>,
    ) -> Node {
        let y = self.u.cfg.index[self.ir.ops[term].succs[succ].block];
        if self.is_back_edge(x, y) {
            Node::Br {
                term,
                succ,
                target: Target::Head(y),
            }
        } else if self.is_label[y as usize] {
            Node::Br {
                term,
                succ,
                target: Target::Label(y),
            }
        } else {
            let edge = tree.add(Node::Edge { term, succ });
            let rest = self.placeholder(tree, y, work);
            Node::Seq(vec![edge, rest])
        }
    }

    /// Divergent `if c { br T } else { X }` (either side) with an escaping branch — one that
    /// is not the fall-through to the end of its construct (`tail`) — becomes `BrIf; X`.
    /// Between two escaping sides, the one that is not a continue leaves. In place, from a
    /// work list of nodes with their tails.
    fn peel(&self, tree: &mut Tree) {
        let mut work = vec![(tree.root, Some(Target::Kernel))];
        while let Some((n, tail)) = work.pop() {
            match &tree[n] {
                Node::Seq(v) => {
                    let v = v.clone();
                    let mut out = Vec::with_capacity(v.len());
                    for (i, &c) in v.iter().enumerate() {
                        let t = if i + 1 == v.len() { tail } else { None };
                        match self.peeled(tree, c, t) {
                            Some((brif, stay)) => {
                                out.push(tree.add(brif));
                                out.push(stay);
                                work.push((stay, t));
                            }
                            None => {
                                out.push(c);
                                work.push((c, t));
                            }
                        }
                    }
                    tree.nodes[n.0 as usize] = Node::Seq(out);
                }
                &Node::If { then_, else_, .. } => {
                    work.push((then_, tail));
                    work.push((else_, tail));
                }
                &Node::Block { label, body } => work.push((body, Some(Target::Label(label)))),
                &Node::Loop { header, body } => work.push((body, Some(Target::Head(header)))),
                _ => {}
            }
        }
    }

    /// For a divergent `If` node `c` in a sequence whose end falls through to `t`: the
    /// `BrIf` taking its escaping side and the side that stays, if one side escapes.
    fn peeled(&self, tree: &Tree, c: NodeId, t: Option<Target>) -> Option<(Node, NodeId)> {
        let &Node::If {
            term,
            cond,
            divergent: true,
            then_,
            else_,
        } = &tree[c]
        else {
            return None;
        };
        let escapes = |x: &Node| {
            let no_args = match x {
                Node::Br { term, succ, .. } => self.ir.ops[*term].succs[*succ].args.is_empty(),
                _ => true,
            };
            no_args && x.target().is_some_and(|tg| Some(tg) != t)
        };
        let is_continue = |x: &Node| matches!(x.target(), Some(Target::Head(_)));
        let (te, ee) = (escapes(&tree[then_]), escapes(&tree[else_]));
        let leave_then = te && !(ee && is_continue(&tree[then_]) && !is_continue(&tree[else_]));
        if !(leave_then || ee) {
            return None;
        }
        let (br, stay) = if leave_then {
            (then_, else_)
        } else {
            (else_, then_)
        };
        let brif = Node::BrIf {
            term,
            cond,
            negate: !leave_then,
            br,
        };
        Some((brif, stay))
    }
}
