//! Control-flow selection: the control tree (`structurize`) to laid-out machine blocks with
//! the divergent control flow as pseudo instructions on the logical CFG, for `Isel`; the pass
//! `exec_lowering` turns the pseudos into EXEC-mask code (its header: what each one means and
//! becomes).
//!
//! Pre: the control tree of the kernel; `Isel` selects the straight-line code of each block.
//! Post: the lanes of the wave follow the tree with maximal convergence, as gfx942 code does:
//! - a uniform `If` is `s_cmp` + `s_cbranch_scc0` with EXEC untouched;
//! - a divergent `If` is `cf_if` (`cf_if_simple`, no mask of the lanes not taken, when there
//!   is no else side and the then side loses no lanes), `cf_else` for the else side and
//!   `cf_end` at the join; a divergent `If` at the end of an enclosing divergent if's side
//!   (its else side, or its then side when it has no else), with nothing emitted between the
//!   two joins, joins at the enclosing join instead: `cf_join_outer` ORs its saved mask into
//!   the enclosing one as soon as it is final (not at all when that one already holds every
//!   lane of the side), so an else-if chain keeps one mask live across its arms instead of
//!   one per arm (LLVM's optimizeEndCf, extended to else sides; checked when the enclosing
//!   join is reached); a join the kernel's end follows restores nothing;
//! - a branch is classified once (`classify`): a *fall-through* to the end of its construct
//!   emits nothing; a *real* jump (no divergent construct crossed) is `s_branch` /
//!   `s_endpgm`; otherwise the lanes leave through a lane mask: `cf_break` into the target
//!   label's mask (a StructurizeCFG Flow predicate; `cf_exit` for the kernel's end), for all
//!   lanes of EXEC or a `BrIf`'s, rejoining at the label's end with `cf_end`; when every lane
//!   that enters a label reaches its end (nothing in it leaves for an enclosing construct),
//!   its mask is EXEC at its start instead and the branches are `cf_park` (they only leave
//!   EXEC): a divergent loop's exit then costs no `s_or_b64` per iteration;
//! - a loop whose lanes can leave at different iterations ends in `cf_loop`, one whose lanes
//!   all stay together in `s_branch`; a continue mask rejoins at the loop's end (`cf_end`);
//! - block arguments are assigned on each edge under the edge's EXEC (lane masks merge), as
//!   a parallel copy; copies already in place (forwarded arguments) emit nothing;
//! - every block lists where the lanes parked at its end resume (`lanes_to`: the other side
//!   of a divergent if, the join for the then side, the rejoin point of a label, continue or
//!   exit mask), the per-lane CFG edges VGPR liveness needs;
//! - `cf_skip` marks where EXEC can be empty, with the innermost point that restores EXEC
//!   (`exec_lowering` keeps it as `s_cbranch_execz` over long or unsafe code only): after
//!   each side of a divergent if, a `BrIf`, a join whose sides lose lanes, and a label's end
//!   only when a branch in it leaves for an enclosing construct (lanes that broke out of a
//!   loop to the label are back there).
//!
//! Which labels need masks and which loops are divergent is a monotone fixed point over the
//! tree (`analyse_branches`), computed before any code is emitted.
//!
//! Cost: the tree is walked with explicit stacks (an `else if` chain nests as deep as it is
//! long); what a construct asks of its subtree (`loses_lanes`, `is_fall`) is computed for every
//! node in one walk, and a branch is classified in O(1) plus the loops it leaves (`Frames`),
//! so each round of the fixed point and the lowering are linear in the tree.
//!
//! The branch analysis (`analyse_branches`, the per-node `Facts`, the `Frames` a branch is
//! classified against) is in `cfg_analysis.rs`; block-argument registers and the parallel
//! copies on edges in `block_args.rs`.

use super::cfg_analysis::{BrKind, Facts, Frame, Frames};
use super::{Isel, IselError};
use crate::isa::Opc;
use crate::mir::Divergence;
use crate::mir::{self, MBlock, Operand, VReg};
use crate::structurize::{Node, NodeId, Target, Tree};
use kc_dialect::{Op, Opcode, Type, Value};

/// An enclosing construct while lowering.
enum Ctx {
    /// `skip_to`: where the side being lowered restores EXEC (none for a uniform if).
    /// A divergent if also carries what an if nested at the end of it needs to join at its
    /// join instead of its own (`Isel::absorber`).
    If {
        divergent: bool,
        skip_to: Option<MBlock>,
        join: Option<Join>,
    },
    Block {
        label: u32,
        mask: Option<VReg>,
        end: MBlock,
        /// The mask is EXEC at the label's start and every lane that enters reaches its end
        /// (no branch in it leaves for an enclosing construct or the kernel's end): lanes
        /// branching to the label just leave EXEC (`cf_park`), nothing records them.
        from_entry: bool,
    },
    Loop {
        header: u32,
        cont: Option<VReg>,
        head: MBlock,
        end: MBlock,
        divergent: bool,
    },
}

/// The join of a divergent if, as seen by the ifs nested in it.
#[derive(Clone, Copy)]
struct Join {
    /// The lane mask ORed back into EXEC at the join.
    restore: VReg,
    /// `restore` already holds every lane that can be active in the side that may absorb.
    covers: bool,
    /// The divergent if at the end of that side (then side without an else, else side
    /// otherwise), after which nothing is emitted until this join: it may join here.
    absorb: Option<Op>,
    /// Layout index of the absorbed if's join block: from there to this join, nothing but
    /// skips to this join may be emitted (checked).
    absorbed_at: Option<usize>,
}

/// The constructs being lowered ([`Ctx`]), their [`Frames`], and per level the innermost
/// point that restores EXEC (`skip_target`), all O(1) per query.
#[derive(Default)]
pub(super) struct CtxStack {
    entries: Vec<Ctx>,
    frames: Frames,
    /// Per level: the innermost skip target at or below it.
    skip: Vec<Option<MBlock>>,
}

impl CtxStack {
    fn push(&mut self, c: Ctx, masks: bool) {
        let target = match &c {
            Ctx::If { .. } => None,
            Ctx::Block { label, .. } => Some(Target::Label(*label)),
            Ctx::Loop { header, .. } => Some(Target::Head(*header)),
        };
        self.frames.push(Frame { target, masks });
        self.entries.push(c);
        self.update_skip();
    }

    /// Removes the innermost construct and returns its entry.
    fn pop(&mut self) -> Option<Ctx> {
        self.frames.pop();
        self.skip.pop();
        self.entries.pop()
    }

    /// The constructs, outermost first.
    fn iter(&self) -> std::slice::Iter<'_, Ctx> {
        self.entries.iter()
    }

    /// The constructs, outermost first, for updating what they record (not their kind or
    /// target, which the frames mirror).
    fn iter_mut(&mut self) -> std::slice::IterMut<'_, Ctx> {
        self.entries.iter_mut()
    }

    /// Sets where the side of the innermost `If` being lowered restores EXEC.
    fn set_skip_to(&mut self, to: MBlock) {
        if let Some(Ctx::If { skip_to, .. }) = self.entries.last_mut() {
            *skip_to = Some(to);
            self.skip.pop();
            self.update_skip();
        }
    }

    /// The skip entry of the innermost level (pushed or recomputed).
    fn update_skip(&mut self) {
        let own = match self.entries.last() {
            Some(Ctx::If { skip_to, .. }) => *skip_to,
            Some(Ctx::Block { end, .. } | Ctx::Loop { end, .. }) => Some(*end),
            None => None,
        };
        let below = self.skip.last().copied().flatten();
        self.skip.push(own.or(below));
    }

    /// The entry of the innermost construct with target `t`.
    fn of_target(&self, t: Target) -> Option<&Ctx> {
        let i = *self.frames.at.get(&t)?.last()?;
        self.entries.get(i)
    }
}

/// A step of [`Isel::lower`]: a node to lower, or what follows a construct's parts.
enum Task {
    Node(NodeId, Option<Target>),
    /// After a `Block`'s body; `block`: the `Block` node.
    BlockEnd {
        mask: Option<VReg>,
        end: MBlock,
        block: NodeId,
    },
    /// After a `Loop`'s body.
    LoopEnd {
        cont: Option<VReg>,
        head: MBlock,
        end: MBlock,
        divergent: bool,
    },
    /// A uniform `If` after its then side.
    UniformElse {
        els: MBlock,
        end: MBlock,
    },
    /// A uniform `If` after its else side.
    UniformEnd {
        end: MBlock,
    },
    /// A divergent `If` after its then side; `outer`: the enclosing join it joins at.
    DivergentElse {
        saved: VReg,
        mid: MBlock,
        end: MBlock,
        has_else: bool,
        outer: Option<Join>,
    },
    /// A divergent `If` after its else side; `outer`: it joins at the enclosing join;
    /// `dead_join`: the kernel's end follows, no restore.
    DivergentEnd {
        saved: VReg,
        end: MBlock,
        loses: bool,
        outer: bool,
        dead_join: bool,
    },
}

impl Isel<'_> {
    /// Does crossing `c` take lanes out through a mask?
    fn masks(&self, c: &Ctx) -> bool {
        match c {
            Ctx::If { divergent, .. } => *divergent,
            Ctx::Block { label, .. } => self.label_mask.contains(label),
            Ctx::Loop { header, .. } => self.loop_div.contains(header),
        }
    }

    fn push_ctx(&mut self, c: Ctx) {
        let masks = self.masks(&c);
        self.ctx.push(c, masks);
    }

    /// Classifies a branch to `t` from the constructs being lowered.
    fn classify_here(&mut self, t: Target, tail: Option<Target>) -> BrKind {
        let frames = std::mem::take(&mut self.ctx.frames);
        let kind = self.classify(&frames, t, tail);
        self.ctx.frames = frames;
        kind
    }

    /// Where code that may run with no lanes can jump to: the innermost point that restores
    /// EXEC (the other side or the join of a divergent if, the end of a label or a loop), or
    /// the end of the kernel.
    fn skip_target(&self) -> MBlock {
        self.ctx
            .skip
            .last()
            .copied()
            .flatten()
            .unwrap_or(self.kernel_end)
    }

    /// Marks a point where EXEC may have become empty with `cf_skip` to the skip target
    /// (`exec_lowering` keeps it as `s_cbranch_execz` only if what it skips is long or
    /// unsafe with no lanes); the skipped code starts in a new block.
    fn skip_if_empty(&mut self) {
        let target = self.skip_target();
        self.emit(Opc::CF_SKIP, vec![Operand::Label(target)]);
        let next = self.mf.new_block();
        self.start_block(next);
    }

    /// Lowers the whole tree: a stack of [`Task`]s instead of recursion, so any nesting
    /// depth lowers.
    pub(super) fn lower(&mut self, tree: &Tree) -> Result<(), IselError> {
        let facts = Facts::compute(self, tree);
        let mut stack = vec![Task::Node(tree.root, Some(Target::Kernel))];
        while let Some(task) = stack.pop() {
            match task {
                Task::Node(n, tail) => self.lower_node(tree, &facts, n, tail, &mut stack)?,
                Task::BlockEnd { mask, end, block } => {
                    self.ctx.pop();
                    self.start_block(end);
                    if let Some(m) = mask {
                        self.emit(Opc::CF_END, vec![mir::r(m)]);
                    }
                    // Lanes that left for the label itself are back: EXEC is empty here only
                    // if a branch in the block leaves for a construct enclosing it (not when
                    // its body merely breaks to its own end, as every loop exit does: that
                    // skip could never be taken, and at the top level it jumped to the
                    // kernel's end, beyond s_cbranch range in a long kernel).
                    if facts.loses_lanes(block) {
                        self.skip_if_empty();
                    }
                }
                Task::LoopEnd {
                    cont,
                    head,
                    end,
                    divergent,
                } => {
                    self.ctx.pop();
                    self.start_block(end);
                    if let Some(c) = cont {
                        self.emit(Opc::CF_END, vec![mir::r(c)]);
                    }
                    let back = if divergent {
                        Opc::CF_LOOP
                    } else {
                        Opc::S_BRANCH
                    };
                    self.emit(back, vec![Operand::Label(head)]);
                    let after = self.mf.new_block();
                    self.start_block(after);
                }
                Task::UniformElse { els, end } => {
                    self.emit(Opc::S_BRANCH, vec![Operand::Label(end)]);
                    self.start_block(els);
                }
                Task::UniformEnd { end } => {
                    self.ctx.pop();
                    self.start_block(end);
                }
                Task::DivergentElse {
                    saved,
                    mid,
                    end,
                    has_else,
                    outer,
                } => {
                    // The then side's lanes wait from here to the join; none go on into the
                    // else side.
                    self.lanes_to(end);
                    self.mf.blocks[self.cur].lanes_stop = true;
                    self.start_block(mid);
                    if has_else {
                        self.emit(Opc::CF_ELSE, vec![mir::r(saved), mir::r(saved)]);
                        self.merge_into_outer(outer, saved);
                        self.ctx.set_skip_to(end);
                        self.skip_if_empty();
                    }
                    // Else a fall-through (its block arguments, if any, are none: see
                    // `is_fall`).
                }
                Task::DivergentEnd {
                    saved,
                    end,
                    loses,
                    outer,
                    dead_join,
                } => {
                    if let Some(Ctx::If {
                        join:
                            Some(Join {
                                absorbed_at: Some(at),
                                ..
                            }),
                        ..
                    }) = self.ctx.pop()
                    {
                        self.check_absorbed(at, end)?;
                    }
                    self.start_block(end);
                    if outer {
                        // Nothing until the enclosing join, which restores our lanes.
                        let at = self.mf.layout.len() - 1;
                        if let Some(Some(j)) = self.ctx.iter_mut().rev().find_map(|c| match c {
                            Ctx::If { join, .. } => Some(join.as_mut()),
                            _ => None,
                        }) {
                            j.absorbed_at = Some(at);
                        }
                        continue;
                    }
                    if dead_join {
                        continue;
                    }
                    self.emit(Opc::CF_END, vec![mir::r(saved)]);
                    // Lanes lost inside may leave none.
                    if loses {
                        self.skip_if_empty();
                    }
                }
            }
        }
        Ok(())
    }

    /// Lowers one node; a construct emits its start and pushes its parts and continuations.
    fn lower_node(
        &mut self,
        tree: &Tree,
        facts: &Facts,
        n: NodeId,
        tail: Option<Target>,
        stack: &mut Vec<Task>,
    ) -> Result<(), IselError> {
        match &tree[n] {
            Node::Code(b) => self.code(*b),
            Node::Seq(v) => {
                for (i, &c) in v.iter().enumerate().rev() {
                    stack.push(Task::Node(c, if i + 1 == v.len() { tail } else { None }));
                }
                Ok(())
            }
            Node::Edge { term, succ } => self.copies(*term, *succ),
            Node::Br { term, succ, target } => {
                self.loc = self.ir.ops[*term].loc;
                self.copies(*term, *succ)?;
                let kind = self.classify_here(*target, tail);
                self.branch(*target, kind, None)
            }
            Node::Return(op) => {
                self.loc = self.ir.ops[*op].loc;
                let kind = self.classify_here(Target::Kernel, tail);
                self.branch(Target::Kernel, kind, None)
            }
            Node::If {
                term,
                cond,
                divergent,
                then_,
                else_,
            } => {
                let (then_, else_) = (*then_, *else_);
                self.lower_if(
                    *term,
                    *cond,
                    *divergent,
                    (tree, facts),
                    (then_, else_),
                    tail,
                    stack,
                )
            }
            Node::BrIf {
                term,
                cond,
                negate,
                br,
            } => self.lower_brif(*term, *cond, *negate, &tree[*br]),
            Node::Block { label, body } => {
                // Every lane that enters the label reaches its end: its mask is EXEC here,
                // and a branch to it only takes lanes out of EXEC (a divergent loop's exit
                // costs no `s_or_b64` per iteration).
                let from_entry = !facts.loses_lanes(n);
                let mask = self.label_mask.contains(label).then(|| {
                    let m = self.s64();
                    let init = if from_entry {
                        Self::exec()
                    } else {
                        Operand::Imm(0)
                    };
                    self.emit(Opc::S_MOV_B64, vec![mir::r(m), init]);
                    m
                });
                let end = self.mf.new_block();
                self.push_ctx(Ctx::Block {
                    label: *label,
                    mask,
                    end,
                    from_entry,
                });
                stack.push(Task::BlockEnd {
                    mask,
                    end,
                    block: n,
                });
                stack.push(Task::Node(*body, Some(Target::Label(*label))));
                Ok(())
            }
            Node::Loop { header, body } => {
                let divergent = self.loop_div.contains(header);
                let head = self.mf.new_block();
                let end = self.mf.new_block();
                self.start_block(head);
                self.mf.blocks[head].comment = Some(
                    if divergent {
                        "loop (divergent exits)"
                    } else {
                        "loop (uniform)"
                    }
                    .into(),
                );
                let cont = self.cont_mask.contains(header).then(|| {
                    let c = self.s64();
                    self.emit(Opc::S_MOV_B64, vec![mir::r(c), Operand::Imm(0)]);
                    c
                });
                self.push_ctx(Ctx::Loop {
                    header: *header,
                    cont,
                    head,
                    end,
                    divergent,
                });
                stack.push(Task::LoopEnd {
                    cont,
                    head,
                    end,
                    divergent,
                });
                stack.push(Task::Node(*body, Some(Target::Head(*header))));
                Ok(())
            }
        }
    }

    /// Emits the branch to `t` of kind `kind` for the lanes in EXEC (or, with `lanes`, for
    /// those lanes only, which leave EXEC).
    fn branch(&mut self, t: Target, kind: BrKind, lanes: Option<VReg>) -> Result<(), IselError> {
        match kind {
            BrKind::Fall => Ok(()),
            BrKind::Real => {
                let dest = match t {
                    Target::Kernel => {
                        self.emit(Opc::S_ENDPGM, vec![]);
                        return Ok(());
                    }
                    Target::Label(_) => match self.ctx.of_target(t) {
                        Some(Ctx::Block { end, .. }) => Some(*end),
                        _ => None,
                    },
                    // A divergent loop's next iteration starts at its end (the back branch
                    // checks that lanes remain); a uniform one jumps straight to the head.
                    Target::Head(_) => match self.ctx.of_target(t) {
                        Some(Ctx::Loop {
                            head,
                            end,
                            divergent,
                            ..
                        }) => Some(if *divergent { *end } else { *head }),
                        _ => None,
                    },
                };
                let Some(dest) = dest else {
                    return Err(self.internal("branch target does not enclose the branch"));
                };
                self.emit(Opc::S_BRANCH, vec![Operand::Label(dest)]);
                let next = self.mf.new_block();
                self.start_block(next);
                Ok(())
            }
            BrKind::Mask => {
                let acc = match (t, self.ctx.of_target(t)) {
                    (Target::Kernel, _) => None,
                    (_, Some(Ctx::Block { mask, .. })) => *mask,
                    (_, Some(Ctx::Loop { cont, .. })) => *cont,
                    _ => None,
                };
                if t != Target::Kernel && acc.is_none() {
                    return Err(self.internal("masked branch to a label without a mask"));
                }
                // The leaving lanes resume where the mask is ORed back into EXEC.
                let rejoin = match self.ctx.of_target(t) {
                    Some(Ctx::Block { end, .. } | Ctx::Loop { end, .. }) => Some(*end),
                    _ => None,
                };
                if let Some(r) = rejoin {
                    self.lanes_to(r);
                }
                // `exec` for the lanes: all of them leave.
                let src = lanes.map_or(Self::exec(), mir::r);
                let parks = matches!(
                    self.ctx.of_target(t),
                    Some(Ctx::Block {
                        from_entry: true,
                        ..
                    })
                );
                match acc {
                    Some(_) if parks => self.emit(Opc::CF_PARK, vec![src]),
                    Some(m) => self.emit(Opc::CF_BREAK, vec![mir::r(m), mir::r(m), src]),
                    None => self.emit(Opc::CF_EXIT, vec![src]),
                };
                Ok(())
            }
        }
    }

    /// `BrIf`: the lanes of EXEC where `cond` (or its negation) holds take `br`.
    fn lower_brif(
        &mut self,
        term: Op,
        cond: Value,
        negate: bool,
        br: &Node,
    ) -> Result<(), IselError> {
        self.loc = self.ir.ops[term].loc;
        let c = self.use_val(cond, term)?;
        let m = self.mask(c)?;
        // The leaving lanes: a fresh compare's mask already has no bits outside EXEC.
        let lanes = if !negate && self.masked.contains(&m) {
            m
        } else {
            let lanes = self.s64();
            let op = if negate {
                Opc::S_ANDN2_B64
            } else {
                Opc::S_AND_B64
            };
            self.emit(op, vec![mir::r(lanes), Self::exec(), mir::r(m)]);
            lanes
        };
        self.set_comment("divergent branch: lanes leaving");
        let t = br
            .target()
            .ok_or_else(|| self.internal("BrIf without a branch"))?;
        let mut frames = std::mem::take(&mut self.ctx.frames);
        frames.push(Frame {
            target: None,
            masks: true,
        });
        let kind = self.classify(&frames, t, None);
        frames.pop();
        self.ctx.frames = frames;
        self.branch(t, kind, Some(lanes))?;
        // The lanes that stay may be none.
        self.skip_if_empty();
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn lower_if(
        &mut self,
        term: Op,
        cond: Value,
        divergent: bool,
        (tree, facts): (&Tree, &Facts),
        (then_, else_): (NodeId, NodeId),
        tail: Option<Target>,
        stack: &mut Vec<Task>,
    ) -> Result<(), IselError> {
        self.loc = self.ir.ops[term].loc;
        let c = self.use_val(cond, term)?;
        if !divergent {
            // Uniform: SCC branch, EXEC untouched.
            let b = self.sbool(c)?;
            // A compare just selected as `s_cselect_b32 b, 1, 0` left its result in SCC:
            // branch on it (the select is then dead unless something else reads `b`).
            let in_scc = self.mf.blocks[self.cur].insts.last().is_some_and(|i| {
                i.op == Opc::S_CSELECT_B32
                    && i.ops[0] == b
                    && i.ops[1] == Operand::Imm(1)
                    && i.ops[2] == Operand::Imm(0)
            });
            if !in_scc {
                self.emit(Opc::S_CMP_LG_U32, vec![b, Operand::Imm(0)]);
            }
            self.set_comment("uniform branch");
            let els = self.mf.new_block();
            let end = self.mf.new_block();
            self.emit(Opc::S_CBRANCH_SCC0, vec![Operand::Label(els)]);
            let thenb = self.mf.new_block();
            self.start_block(thenb);
            self.push_ctx(Ctx::If {
                divergent: false,
                skip_to: None,
                join: None,
            });
            stack.push(Task::UniformEnd { end });
            stack.push(Task::Node(else_, tail));
            stack.push(Task::UniformElse { els, end });
            stack.push(Task::Node(then_, tail));
            return Ok(());
        }
        let m = self.mask(c)?;
        let then_loses = facts.loses_lanes(then_);
        // An else side that only passes constants in VGPRs to the join: its copies run here,
        // for every lane, and the then side's lanes overwrite them at its end (a VGPR write
        // touches only the lanes in EXEC, and nothing in the then side reads the join's
        // arguments before writing them). No else side is left (LLVM materializes such a
        // phi input in the dominating block the same way).
        let hoisted = self.hoistable_copies(tree, else_, tail);
        if let Some((blocks, t, succ)) = &hoisted {
            for &b in blocks {
                self.code(b)?;
            }
            self.copies(*t, *succ)?;
        }
        let has_else = hoisted.is_none() && !facts.is_fall(else_, tail);
        let xor = has_else || then_loses;
        // At the end of an enclosing if's side: join at its join, our lanes restored by its
        // mask (ORed into it as soon as ours is final), like LLVM's optimizeEndCf.
        // With FORK/JOIN every divergent if keeps its own join (`fork_join` pairs each
        // `cf_if` with its `cf_end`): none is absorbed, none left out before the kernel's end.
        let fork_join = self.info.divergence != Divergence::ExecMask;
        let outer = if fork_join { None } else { self.absorber(term) };
        let saved = self.s64();
        // Without an else side and with no lane lost in the then side, the join can restore
        // the whole EXEC of before (LLVM's simple if): no mask of the lanes not taken.
        let op = if xor { Opc::CF_IF } else { Opc::CF_IF_SIMPLE };
        self.emit(op, vec![mir::r(saved), mir::r(m)]);
        self.set_comment("divergent branch");
        if !has_else {
            self.merge_into_outer(outer, saved);
        }
        let mid = self.mf.new_block();
        let end = self.mf.new_block();
        // The lanes of the other side wait from here to where it starts.
        self.lanes_to(if has_else { mid } else { end });
        // Each side is skipped when no lane takes it (unless short and safe); its own skips
        // go to where it restores EXEC.
        // A join the kernel's end follows restores EXEC for nothing: no restore, and
        // nothing for a nested if to join at.
        let dead_join = tail == Some(Target::Kernel) && !fork_join;
        let join = Join {
            restore: outer.map_or(saved, |o| o.restore),
            covers: outer.is_some_and(|o| o.covers) || !xor,
            absorb: if dead_join {
                None
            } else {
                self.tail_if(tree, if has_else { else_ } else { then_ }, tail)
            },
            absorbed_at: None,
        };
        self.push_ctx(Ctx::If {
            divergent: true,
            skip_to: Some(if has_else { mid } else { end }),
            join: Some(join),
        });
        self.skip_if_empty();
        stack.push(Task::DivergentEnd {
            saved,
            end,
            loses: then_loses || facts.loses_lanes(else_),
            outer: outer.is_some(),
            dead_join,
        });
        if hoisted.is_none() {
            stack.push(Task::Node(else_, tail));
        }
        stack.push(Task::DivergentElse {
            saved,
            mid,
            end,
            has_else,
            outer,
        });
        stack.push(Task::Node(then_, tail));
        Ok(())
    }

    /// ORs `saved` (a divergent if's final restore mask) into the enclosing join's mask when
    /// the if joins there (`outer`) and that mask does not already cover its lanes.
    fn merge_into_outer(&mut self, outer: Option<Join>, saved: VReg) {
        if let Some(o) = outer.filter(|o| !o.covers) {
            self.emit(
                Opc::CF_JOIN_OUTER,
                vec![mir::r(o.restore), mir::r(o.restore), mir::r(saved)],
            );
            self.set_comment("joins at the enclosing join");
        }
    }

    /// The join of the enclosing divergent if when the if of `term` is the one at the end of
    /// its absorbing side, with only unmasked labels in between.
    fn absorber(&self, term: Op) -> Option<Join> {
        for c in self.ctx.iter().rev() {
            match c {
                Ctx::Block { mask: None, .. } => continue,
                Ctx::If {
                    join:
                        Some(
                            j @ Join {
                                absorb: Some(t), ..
                            },
                        ),
                    ..
                } if *t == term => return Some(*j),
                _ => return None,
            }
        }
        None
    }

    /// An absorbed if relies on nothing running between its join and `end`'s: only skips to
    /// `end` (which restores every lane) may be there.
    fn check_absorbed(&self, at: usize, end: MBlock) -> Result<(), IselError> {
        let only_skips = self.mf.layout[at..].iter().all(|&b| {
            self.mf.blocks[b]
                .insts
                .iter()
                .all(|i| i.op == Opc::CF_SKIP && i.ops[0] == Operand::Label(end))
        });
        if only_skips {
            Ok(())
        } else {
            Err(self.internal("code between an absorbed join and its enclosing join"))
        }
    }

    /// The divergent if at the end of `n` after which nothing is emitted (up to skips) before
    /// `n` falls through to `tail`. Iterative: the tree may be deep.
    fn tail_if(&self, tree: &Tree, mut n: NodeId, mut tail: Option<Target>) -> Option<Op> {
        loop {
            match &tree[n] {
                Node::Seq(v) => {
                    let last = v.iter().enumerate().rev().find(|&(i, &c)| {
                        !self.emits_nothing(tree, c, if i + 1 == v.len() { tail } else { None })
                    })?;
                    if last.0 + 1 != v.len() {
                        tail = None;
                    }
                    n = *last.1;
                }
                Node::Block { label, body } if !self.label_mask.contains(label) => {
                    tail = Some(Target::Label(*label));
                    n = *body;
                }
                Node::If {
                    term,
                    divergent: true,
                    ..
                } => return Some(*term),
                _ => return None,
            }
        }
    }

    /// The edge of side `n` of a divergent if when that side is only an edge falling through
    /// to `tail` whose one or two copies are of constants and all go to per-lane registers:
    /// divergent, non-boolean arguments of a block that does not stage them, none with a
    /// per-lane shadow copy.
    /// The side may start with blocks of constants only (selecting them emits nothing): they
    /// are returned to be selected first.
    fn hoistable_copies(
        &self,
        tree: &Tree,
        n: NodeId,
        tail: Option<Target>,
    ) -> Option<(Vec<u32>, Op, usize)> {
        // The side's nodes in order (nested sequences flattened; a side is a few nodes).
        let mut nodes = Vec::new();
        let mut work = vec![n];
        while let Some(x) = work.pop() {
            match &tree[x] {
                Node::Seq(v) => work.extend(v.iter().rev()),
                _ => nodes.push(x),
            }
            if nodes.len() > 8 {
                return None;
            }
        }
        let (&last, first) = nodes.split_last()?;
        let mut blocks = Vec::new();
        for &c in first {
            let b = match tree[c] {
                Node::Code(b) => b,
                // The edge into a block placed right here, with no arguments to pass.
                Node::Edge { term, succ } if self.ir.ops[term].succs[succ].args.is_empty() => {
                    continue
                }
                _ => return None,
            };
            let block = self.u.cfg.blocks[b as usize];
            let constants = self.ir.block_ops(block).all(|op| {
                self.ir.spec(op).is_terminator() || self.ir.opcode(op) == Opcode::Constant
            });
            if !constants || !self.ir.blocks[block].args.is_empty() || self.staged.contains(&b) {
                return None;
            }
            blocks.push(b);
        }
        let (term, succ) = match &tree[last] {
            Node::Edge { term, succ } => (*term, *succ),
            Node::Br { term, succ, target } if tail == Some(*target) => (*term, *succ),
            _ => return None,
        };
        let s = &self.ir.ops[term].succs[succ];
        // At most two copies: each runs for every lane, and two instructions are saved
        // (the else side's `s_xor_b64` and `s_andn2_saveexec_b64`).
        if s.args.is_empty() || s.args.len() > 2 || self.staged.contains(&self.u.cfg.index[s.block])
        {
            return None;
        }
        let per_lane = |d: &Value| {
            let ty = self.ir.value_type(*d);
            self.u.is_divergent(*d)
                && ty != Type::I1
                && ty != Type::Token
                && !self.shadowed.contains(d)
        };
        // Constants only (defined in the side's blocks or before): a copy of a register
        // would keep that register and the argument's apart across the then side, one VGPR
        // more for one instruction less.
        let constant = |v: &Value| {
            self.ir
                .defining_op(*v)
                .is_some_and(|op| self.ir.opcode(op) == Opcode::Constant)
        };
        (self.ir.blocks[s.block].args.iter().all(per_lane) && s.args.iter().all(constant))
            .then_some((blocks, term, succ))
    }

    /// Does lowering `n` (falling through to `tail`) emit nothing but skips? Conservative;
    /// iterative.
    fn emits_nothing(&self, tree: &Tree, n: NodeId, tail: Option<Target>) -> bool {
        let in_place = |term: Op, succ: usize| {
            let s = &self.ir.ops[term].succs[succ];
            !self.staged.contains(&self.u.cfg.index[s.block])
                && s.args
                    .iter()
                    .zip(&self.ir.blocks[s.block].args)
                    .all(|(x, y)| self.forward.get(x) == Some(y))
        };
        let mut work = vec![(n, tail)];
        while let Some((n, tail)) = work.pop() {
            let empty = match &tree[n] {
                Node::Code(b) => {
                    let block = self.u.cfg.blocks[*b as usize];
                    !self.staged.contains(b)
                        && self
                            .ir
                            .block_ops(block)
                            .all(|op| self.ir.spec(op).is_terminator())
                        && !self.ir.blocks[block]
                            .args
                            .iter()
                            .any(|a| self.shadowed.contains(a))
                }
                Node::Edge { term, succ } => in_place(*term, *succ),
                Node::Br { term, succ, target } => tail == Some(*target) && in_place(*term, *succ),
                Node::Return(_) => tail == Some(Target::Kernel),
                Node::Seq(v) => {
                    for (i, &c) in v.iter().enumerate() {
                        work.push((c, if i + 1 == v.len() { tail } else { None }));
                    }
                    true
                }
                Node::Block { label, body } => {
                    work.push((*body, Some(Target::Label(*label))));
                    !self.label_mask.contains(label)
                }
                Node::If { .. } | Node::BrIf { .. } | Node::Loop { .. } => false,
            };
            if !empty {
                return false;
            }
        }
        true
    }
}
