//! What the uniformity outputs (`--emit=uniformity-json`, `--emit=dot`, `--explain`) share:
//! one kernel's analysis result seen through its printed names.
//!
//! Guarantees: every name here is the name the `--emit=uniformity` / `--emit=cf-ir` listing
//! prints (without `%` / `^`); values, blocks and branches are enumerated in IR (layout)
//! order; cycles are numbered in preorder of the cycle forest (top-level cycles in order,
//! each followed by its children), which is what `cycles[].id` in the JSON and the cluster
//! names in the dot output use. Nothing here depends on hash order.

use cranelift_entity::{EntityRef, SecondaryMap};
use kc_dialect::analysis::cycles::CycleId;
use kc_dialect::analysis::uniformity::{JoinInfo, Uniformity};
use kc_dialect::entities::{Block, Op, Value};
use kc_dialect::ir::{Ir, ValueDef};
use kc_dialect::location::Loc;
use kc_dialect::registry::Opcode;
use kc_dialect::text::{self, Annot, Names, PrintOptions};
use kc_dialect::types::Type;
use std::cell::OnceCell;

/// One analysed kernel with its printed names.
pub struct KernelView<'a> {
    pub ir: &'a Ir,
    pub u: &'a Uniformity,
    pub names: Names,
    /// Cycles in forest preorder; the position is the cycle's public id.
    pub cycle_order: Vec<CycleId>,
    /// Position of each op of the kernel in IR order.
    op_order: SecondaryMap<Op, u32>,
    /// Public id of each cycle, indexed by `CycleId`.
    cycle_ids: Vec<usize>,
    /// First printed line of each op (see [`KernelView::op_text`]), printed on first use.
    op_text: OnceCell<SecondaryMap<Op, String>>,
}

impl<'a> KernelView<'a> {
    pub fn new(ir: &'a Ir, u: &'a Uniformity) -> Self {
        let mut cycle_order = Vec::new();
        let mut stack: Vec<CycleId> = u.cycles.top_level.iter().rev().copied().collect();
        while let Some(c) = stack.pop() {
            cycle_order.push(c);
            stack.extend(u.cycles.cycle(c).children.iter().rev().copied());
        }
        let mut op_order = SecondaryMap::new();
        let mut n = 0;
        for &b in &u.cfg.blocks {
            for op in ir.block_ops(b) {
                op_order[op] = n;
                n += 1;
            }
        }
        let mut cycle_ids = vec![usize::MAX; u.cycles.cycles.len()];
        for (id, c) in cycle_order.iter().enumerate() {
            cycle_ids[c.0 as usize] = id;
        }
        KernelView {
            ir,
            u,
            names: text::names(ir, u.func),
            cycle_order,
            op_order,
            cycle_ids,
            op_text: OnceCell::new(),
        }
    }

    /// The op as the listing prints it (custom form, no location, first line only: for
    /// `kernel.func`, its header). The kernel is printed once, so this is O(1) per op after
    /// the first call (`text::print_op` would name the whole kernel again for every op).
    pub fn op_text(&self, op: Op) -> &str {
        let texts = self.op_text.get_or_init(|| {
            const MARK: &str = " // \u{1}";
            let mark = |a: Annot| match a {
                Annot::Op(op) => Some(format!("\u{1}{}", op.index())),
                Annot::Block(_) => None,
            };
            let popts = PrintOptions {
                locations: false,
                annotate: Some(&mark),
                ..PrintOptions::default()
            };
            let mut texts = SecondaryMap::new();
            for line in text::print_op(self.ir, self.u.func, &popts).lines() {
                let Some(pos) = line.rfind(MARK) else {
                    continue;
                };
                if let Ok(i) = line[pos + MARK.len()..].parse::<usize>() {
                    texts[Op::new(i)] = line[..pos].trim().to_string();
                }
            }
            texts
        });
        &texts[op]
    }

    /// Sort key of an op: its position in IR order.
    pub fn op_key(&self, op: Op) -> u32 {
        self.op_order[op]
    }

    /// Sort key of a block: its layout position.
    pub fn block_key(&self, b: Block) -> u32 {
        self.u.cfg.node(b).unwrap_or(u32::MAX)
    }

    pub fn kernel_name(&self) -> &str {
        self.ir.func_name(self.u.func)
    }

    /// Blocks in layout order.
    pub fn blocks(&self) -> &[Block] {
        &self.u.cfg.blocks
    }

    /// Every non-token value (block arguments, then op results, block by block), IR order.
    pub fn values(&self) -> Vec<Value> {
        let ir = self.ir;
        let mut out = Vec::new();
        for &b in self.blocks() {
            out.extend(ir.blocks[b].args.iter().copied());
            for op in ir.block_ops(b) {
                out.extend(ir.ops[op].results.iter().copied());
            }
        }
        out.retain(|&v| ir.value_type(v) != Type::Token);
        out
    }

    /// Every value including tokens, IR order (for name lookup).
    pub fn all_values(&self) -> Vec<Value> {
        let ir = self.ir;
        let mut out = Vec::new();
        for &b in self.blocks() {
            out.extend(ir.blocks[b].args.iter().copied());
            for op in ir.block_ops(b) {
                out.extend(ir.ops[op].results.iter().copied());
            }
        }
        out
    }

    /// Every `cf.cond_br`, IR order.
    pub fn branches(&self) -> Vec<Op> {
        self.blocks()
            .iter()
            .filter_map(|&b| self.ir.terminator(b))
            .filter(|&t| self.ir.opcode(t) == Opcode::CondBr)
            .collect()
    }

    pub fn value_name(&self, v: Value) -> &str {
        &self.names.values[v]
    }

    pub fn block_name(&self, b: Block) -> &str {
        &self.names.blocks[b]
    }

    /// The block holding `op`.
    pub fn op_block(&self, op: Op) -> Option<Block> {
        self.ir.op_block(op)
    }

    /// Printed name of the block holding `op` (empty if detached).
    pub fn op_block_name(&self, op: Op) -> &str {
        self.ir.op_block(op).map_or("", |b| self.block_name(b))
    }

    /// The block defining `v`.
    pub fn value_block(&self, v: Value) -> Option<Block> {
        self.ir.value_block(v)
    }

    /// Source location of `v`: its own location, else (op results) its op's.
    pub fn value_loc(&self, v: Value) -> Loc {
        let own = self.ir.values[v].loc;
        if own.is_known() {
            return own;
        }
        match self.ir.values[v].def {
            ValueDef::Result(op, _) => self.ir.ops[op].loc,
            ValueDef::BlockArg(..) => Loc::UNKNOWN,
        }
    }

    /// `(file, line, col)` of a known location.
    pub fn loc_parts(&self, loc: Loc) -> Option<(&str, u32, u32)> {
        loc.is_known()
            .then(|| (self.ir.file_name(loc.file), loc.line, loc.col))
    }

    /// Public id of a cycle (its preorder position).
    pub fn cycle_id(&self, c: CycleId) -> usize {
        self.cycle_ids[c.0 as usize]
    }

    /// Blocks of a cycle (nested cycles included) in layout order.
    pub fn cycle_blocks(&self, c: CycleId) -> Vec<Block> {
        let mut nodes = self.u.cycles.blocks(c);
        nodes.sort_unstable();
        nodes
            .into_iter()
            .map(|n| self.u.cfg.blocks[n as usize])
            .collect()
    }

    /// Entries of a cycle, header first (DFS order).
    pub fn cycle_entries(&self, c: CycleId) -> Vec<Block> {
        self.u
            .cycles
            .cycle(c)
            .entries
            .iter()
            .map(|&n| self.u.cfg.blocks[n as usize])
            .collect()
    }

    /// The innermost cycle containing block `b`.
    pub fn innermost_cycle(&self, b: Block) -> Option<CycleId> {
        self.u.cfg.node(b).and_then(|n| self.u.cycles.innermost(n))
    }

    /// Does cycle `c` contain block `b` (nested cycles included)?
    pub fn cycle_contains(&self, c: CycleId, b: Block) -> bool {
        self.u
            .cfg
            .node(b)
            .is_some_and(|n| self.u.cycles.contains(c, n))
    }

    /// `depth=1: entries(^a) ^b` (see [`super::uniformity::cycle_text`]).
    pub fn cycle_text(&self, c: CycleId) -> String {
        super::uniformity::cycle_text(self.u, &self.names, c)
    }

    /// Is block `b` reachable from the entry?
    pub fn is_reachable(&self, b: Block) -> bool {
        self.u
            .cfg
            .node(b)
            .is_some_and(|n| self.u.dom.is_reachable(n))
    }

    /// Joins (`is_exit == false`) or divergent exits (`true`) that name block `b`.
    pub fn joins_at(&self, b: Block, is_exit: bool) -> impl Iterator<Item = &JoinInfo> {
        self.u.joins_at(b).filter(move |j| j.is_exit == is_exit)
    }

    /// Printed names of the blocks whose divergent branch has `b` as a join (`is_exit ==
    /// false`) or divergent exit (`true`), in layout order.
    pub fn branches_joining_at(&self, b: Block, is_exit: bool) -> Vec<String> {
        let mut bs: Vec<Block> = self
            .joins_at(b, is_exit)
            .filter_map(|j| self.ir.op_block(j.branch))
            .collect();
        bs.sort_by_key(|&x| self.block_key(x));
        bs.dedup();
        bs.into_iter()
            .map(|x| self.block_name(x).to_string())
            .collect()
    }

    /// A divergent branch inside `c` whose divergent exit leaves `c`: the branch that makes
    /// `c` a cycle with a divergent exit (the first one found, IR discovery order).
    pub fn exit_branch_of(&self, c: CycleId) -> Option<&JoinInfo> {
        self.u.joins.iter().find(|j| {
            j.is_exit
                && !self.cycle_contains(c, j.block)
                && self
                    .ir
                    .op_block(j.branch)
                    .is_some_and(|b| self.cycle_contains(c, b))
        })
    }

    /// Is this the kernel's entry block?
    pub fn is_entry(&self, b: Block) -> bool {
        self.blocks().first() == Some(&b)
    }
}
