//! Branch analysis for the control-flow lowering (`cfg.rs`), before any code is emitted.
//!
//! Pre: the control tree of the kernel. Post: `Isel::loop_div` holds the loops whose lanes
//! can leave at different iterations, `label_mask` / `cont_mask` the labels and loop
//! continues that need a lane mask, `staged` the blocks whose uniform arguments an edge
//! inside a divergent region writes; a branch crossing a divergent if, a divergent loop or a
//! masked label leaves through a mask (`classify`), a monotone fixed point over the tree.
//! `Facts` gives per node, in one walk, whether lanes can leave it other than by falling off
//! its end and whether it only falls through. `Frames` answers what `classify` asks of the
//! enclosing constructs in O(1) (plus the loops a branch leaves).

use super::Isel;
use crate::structurize::{Node, NodeId, Target, Tree};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BrKind {
    /// Falls off the end of its construct into the target: nothing to emit.
    Fall,
    /// The whole wave jumps.
    Real,
    /// Lanes leave through a lane mask.
    Mask,
}

/// What a branch crosses: the construct's own target (none for an `If`) and whether crossing
/// it takes lanes out through a mask.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    pub(super) target: Option<Target>,
    pub(super) masks: bool,
}

/// The enclosing constructs, innermost last, with what `classify` asks of them in O(1): where
/// the frame of a target is, whether a frame above some point masks, and the loops above it.
/// (Lowering an `else if` chain of n arms nests n constructs; scanning them per branch was
/// quadratic.)
#[derive(Default)]
pub(super) struct Frames {
    frames: Vec<Frame>,
    /// `masking[i]`: how many of `frames[..=i]` mask.
    masking: Vec<u32>,
    /// The frames of each target on the stack, innermost last.
    pub(super) at: HashMap<Target, Vec<usize>>,
    /// The indices of the loop frames, innermost last.
    loops: Vec<usize>,
}

impl Frames {
    pub(super) fn push(&mut self, f: Frame) {
        let i = self.frames.len();
        let below = self.masking.last().copied().unwrap_or(0);
        self.masking.push(below + f.masks as u32);
        if let Some(t) = f.target {
            self.at.entry(t).or_default().push(i);
            if matches!(t, Target::Head(_)) {
                self.loops.push(i);
            }
        }
        self.frames.push(f);
    }

    pub(super) fn pop(&mut self) {
        let Some(f) = self.frames.pop() else { return };
        self.masking.pop();
        if let Some(t) = f.target {
            if let Some(v) = self.at.get_mut(&t) {
                v.pop();
                if v.is_empty() {
                    self.at.remove(&t);
                }
            }
            if matches!(t, Target::Head(_)) {
                self.loops.pop();
            }
        }
    }

    /// The index of the first frame a branch to `t` leaves (all frames if `t` encloses none).
    fn first_crossed(&self, t: Target) -> usize {
        self.at.get(&t).and_then(|v| v.last()).map_or(0, |&k| k + 1)
    }

    /// Does a frame at index `from` or above mask?
    fn masks_from(&self, from: usize) -> bool {
        let total = self.masking.last().copied().unwrap_or(0);
        let below = from.checked_sub(1).map_or(0, |i| self.masking[i]);
        total > below
    }

    /// The loop headers of the frames at index `from` or above.
    fn loops_from(&self, from: usize) -> impl Iterator<Item = u32> + '_ {
        self.loops
            .iter()
            .rev()
            .take_while(move |&&i| i >= from)
            .filter_map(|&i| match self.frames[i].target {
                Some(Target::Head(h)) => Some(h),
                _ => None,
            })
    }
}

/// Per node of the control tree, what lowering asks about it, computed once in one walk
/// (asking per node by walking its subtree was quadratic in the nesting depth).
pub(super) struct Facts {
    /// Can lanes entering the node leave it other than by falling off its end
    /// (`loses_lanes`)?
    loses: Vec<bool>,
    /// Does the node do nothing but fall through, and to where (`is_fall`)?
    fall: Vec<Fall>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Fall {
    /// No code and no branch: falls through to whatever follows.
    Any,
    /// Only a branch without block arguments (or a return) to this target.
    To(Target),
    No,
}

impl Facts {
    /// Top down: each node's tail (where falling off its end goes, as `lower` passes it),
    /// its depth, and for each branch the depth of the innermost construct it targets (none:
    /// -1). Bottom up: the least such depth over the branches in a subtree that are not
    /// fall-throughs; a node loses lanes iff a branch in it targets a construct above it.
    pub(super) fn compute(isel: &Isel, tree: &Tree) -> Facts {
        let n = tree.nodes.len();
        let mut facts = Facts {
            loses: vec![false; n],
            fall: vec![Fall::No; n],
        };
        let mut depth = vec![0i64; n];
        let mut min_cap = vec![i64::MAX; n];
        // The depths of the constructs of each target on the path, innermost last.
        let mut open: HashMap<Target, Vec<i64>> = HashMap::new();
        // (node, tail, children done).
        let mut stack = vec![(tree.root, Some(Target::Kernel), false)];
        while let Some((id, tail, done)) = stack.pop() {
            let i = id.0 as usize;
            let node = &tree[id];
            if !done {
                stack.push((id, tail, true));
                let own = depth[i];
                let d = own + 1;
                let mut child = |c: NodeId, t: Option<Target>, stack: &mut Vec<_>| {
                    depth[c.0 as usize] = d;
                    stack.push((c, t, false));
                };
                match node {
                    Node::Seq(v) => {
                        for (k, &c) in v.iter().enumerate().rev() {
                            child(c, if k + 1 == v.len() { tail } else { None }, &mut stack);
                        }
                    }
                    Node::If { then_, else_, .. } => {
                        child(*else_, tail, &mut stack);
                        child(*then_, tail, &mut stack);
                    }
                    Node::BrIf { br, .. } => child(*br, None, &mut stack),
                    Node::Block { label, body } => {
                        let t = Target::Label(*label);
                        open.entry(t).or_default().push(own);
                        child(*body, Some(t), &mut stack);
                    }
                    Node::Loop { header, body } => {
                        let t = Target::Head(*header);
                        open.entry(t).or_default().push(own);
                        child(*body, Some(t), &mut stack);
                    }
                    Node::Br { .. } | Node::Return(_) => {
                        let t = node.target().expect("a branch");
                        if tail != Some(t) {
                            min_cap[i] = open.get(&t).and_then(|v| v.last().copied()).unwrap_or(-1);
                        }
                    }
                    Node::Code(_) | Node::Edge { .. } => {}
                }
                continue;
            }
            // Children done.
            let mut cap = min_cap[i];
            let mut kids = |c: &NodeId| cap = cap.min(min_cap[c.0 as usize]);
            match node {
                Node::Seq(v) => v.iter().for_each(&mut kids),
                Node::If { then_, else_, .. } => {
                    kids(then_);
                    kids(else_);
                }
                Node::BrIf { br, .. } => kids(br),
                Node::Block { label, body } => {
                    kids(body);
                    open.get_mut(&Target::Label(*label)).and_then(|v| v.pop());
                }
                Node::Loop { header, body } => {
                    kids(body);
                    open.get_mut(&Target::Head(*header)).and_then(|v| v.pop());
                }
                _ => {}
            }
            min_cap[i] = cap;
            facts.loses[i] = cap < depth[i];
            facts.fall[i] = match node {
                Node::Br { term, succ, target } => {
                    if isel.ir.ops[*term].succs[*succ].args.is_empty() {
                        Fall::To(*target)
                    } else {
                        Fall::No
                    }
                }
                Node::Return(_) => Fall::To(Target::Kernel),
                Node::Seq(v) => {
                    v.iter()
                        .fold(Fall::Any, |acc, c| match (acc, facts.fall[c.0 as usize]) {
                            (Fall::Any, f) | (f, Fall::Any) => f,
                            (Fall::To(a), Fall::To(b)) if a == b => Fall::To(a),
                            _ => Fall::No,
                        })
                }
                _ => Fall::No,
            };
        }
        facts
    }

    pub(super) fn loses_lanes(&self, n: NodeId) -> bool {
        self.loses[n.0 as usize]
    }

    /// Does `n` do nothing but fall through to `tail` (no code, no block arguments)?
    pub(super) fn is_fall(&self, n: NodeId, tail: Option<Target>) -> bool {
        match self.fall[n.0 as usize] {
            Fall::Any => true,
            Fall::To(t) => tail == Some(t),
            Fall::No => false,
        }
    }
}

impl Isel<'_> {
    /// The fixed point: a branch crossing a divergent if, a divergent loop or a masked label
    /// leaves through a mask, which makes the loops it leaves divergent and its label masked.
    /// Flags only turn on, so this ends after at most (loops + labels) rounds; each round is
    /// one walk over the tree with O(1) work per branch (plus the loops it leaves).
    pub(super) fn analyse_branches(&mut self, tree: &Tree) {
        loop {
            let before = (
                self.loop_div.len(),
                self.label_mask.len(),
                self.cont_mask.len(),
            );
            self.scan(tree);
            if before
                == (
                    self.loop_div.len(),
                    self.label_mask.len(),
                    self.cont_mask.len(),
                )
            {
                break;
            }
        }
    }

    /// One round of `analyse_branches`: the tree in lowering order with the frames the
    /// lowering will have.
    fn scan(&mut self, tree: &Tree) {
        let mut frames = Frames::default();
        // (node, tail, children done).
        let mut stack = vec![(tree.root, Some(Target::Kernel), false)];
        while let Some((id, tail, done)) = stack.pop() {
            if done {
                frames.pop();
                continue;
            }
            match &tree[id] {
                Node::Code(_) | Node::Edge { .. } => {}
                Node::Seq(v) => {
                    for (i, &c) in v.iter().enumerate().rev() {
                        let t = if i + 1 == v.len() { tail } else { None };
                        stack.push((c, t, false));
                    }
                }
                Node::If {
                    divergent,
                    then_,
                    else_,
                    ..
                } => {
                    frames.push(Frame {
                        target: None,
                        masks: *divergent,
                    });
                    stack.push((id, tail, true));
                    stack.push((*else_, tail, false));
                    stack.push((*then_, tail, false));
                }
                Node::BrIf { br, .. } => {
                    // The leaving lanes cross this divergent branch.
                    frames.push(Frame {
                        target: None,
                        masks: true,
                    });
                    stack.push((id, tail, true));
                    stack.push((*br, None, false));
                }
                Node::Block { label, body } => {
                    let t = Target::Label(*label);
                    frames.push(Frame {
                        target: Some(t),
                        masks: self.label_mask.contains(label),
                    });
                    stack.push((id, tail, true));
                    stack.push((*body, Some(t), false));
                }
                Node::Loop { header, body } => {
                    let t = Target::Head(*header);
                    // Lanes parked in the continue mask wait for the back edge: a branch
                    // leaving the loop (or the kernel) must leave them parked, through a
                    // mask, which makes the loop divergent.
                    frames.push(Frame {
                        target: Some(t),
                        masks: self.loop_div.contains(header) || self.cont_mask.contains(header),
                    });
                    stack.push((id, tail, true));
                    stack.push((*body, Some(t), false));
                }
                Node::Br { term, succ, target } => {
                    // Other lanes still to run in this pass may read the target's current
                    // arguments: its uniform ones (SGPRs, written for the whole wave) are
                    // staged.
                    let crosses = frames.masks_from(frames.first_crossed(*target));
                    let b = self.ir.ops[*term].succs[*succ].block;
                    if crosses
                        && self.ir.blocks[b]
                            .args
                            .iter()
                            .any(|&a| self.is_staged_kind(a))
                    {
                        self.staged.insert(self.u.cfg.index[b]);
                    }
                    self.classify(&frames, *target, tail);
                }
                Node::Return(_) => {
                    self.classify(&frames, Target::Kernel, tail);
                }
            }
        }
    }

    /// Classifies a branch to `t` from the top of `frames`; records its effects.
    pub(super) fn classify(&mut self, frames: &Frames, t: Target, tail: Option<Target>) -> BrKind {
        if tail == Some(t) {
            return BrKind::Fall;
        }
        let from = frames.first_crossed(t);
        if !frames.masks_from(from) {
            return BrKind::Real;
        }
        for h in frames.loops_from(from) {
            self.loop_div.insert(h);
        }
        match t {
            Target::Label(l) => {
                self.label_mask.insert(l);
            }
            Target::Head(h) => {
                self.cont_mask.insert(h);
            }
            Target::Kernel => {}
        }
        BrKind::Mask
    }
}
