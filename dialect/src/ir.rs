//! The IR container: arenas of ops, values, blocks and regions, plus their layout.
//!
//! Existence and order are separate concerns: an entity is created in its arena once and never
//! freed; its place in the program is a doubly linked list (ops in a block, blocks in a region),
//! so inserting or unlinking is O(1) and never renumbers anything. An op that is unlinked is dead
//! even though its arena slot remains; walks only see linked entities.
//!
//! Use lists are not maintained: analyses that need users build them in one linear walk
//! ([`Ir::users`]), which keeps mutation cheap and makes invalidation explicit.

use crate::attrs::Attr;
use crate::entities::{Block, Op, Region, Value};
use crate::location::{FileId, Loc};
use crate::registry::{OpSpec, Opcode};
use crate::types::Type;
use cranelift_entity::packed_option::PackedOption;
use cranelift_entity::{PrimaryMap, SecondaryMap};
use indexmap::IndexSet;
use smallvec::SmallVec;
use std::borrow::Cow;
pub use thin_vec::ThinVec;

mod compact;

/// An op's operands or results: up to four live inside the op (no heap allocation; the
/// same 24 bytes as a `Vec`), more spill to the heap.
pub type ValueList = SmallVec<[Value; 4]>;

/// The users of a value ([`Ir::users`]). A plain `Vec`: the map of a kernel is as long as
/// the highest value number in it, so in a module of many kernels most entries are empty
/// padding, and an empty `Vec` clones for free (a `SmallVec` does not).
pub type OpList = Vec<Op>;

/// A control-flow edge out of a terminator, with the values passed to the target's arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Successor {
    pub block: Block,
    pub args: ThinVec<Value>,
}

/// An attribute's name. The dialects' own names (`value`, `predicate`, ...) are borrowed
/// from a static table, so most attributes allocate nothing for their name.
pub type AttrName = Cow<'static, str>;

/// The attribute names the dialects use, shared by every op that carries one.
const KNOWN_ATTRS: [&str; 7] = [
    "value",
    "predicate",
    "kind",
    "dim",
    "sym_name",
    "size",
    "volatile",
];

/// `name` as an [`AttrName`]: borrowed when it is a known name.
pub fn attr_name(name: &str) -> AttrName {
    match KNOWN_ATTRS.iter().find(|&&k| k == name) {
        Some(&k) => Cow::Borrowed(k),
        None => Cow::Owned(name.to_string()),
    }
}

/// An operation.
///
/// Most ops have no regions, no successors and at most one attribute, so those three lists
/// are `ThinVec`s (one pointer when empty, where a `Vec` is three words): every pass walks
/// these records, and the smaller they are the more of a large kernel stays in the cache.
#[derive(Clone, Debug)]
pub struct OpData {
    pub opcode: Opcode,
    pub operands: ValueList,
    pub results: ValueList,
    pub regions: ThinVec<Region>,
    pub succs: ThinVec<Successor>,
    /// Attributes in insertion order (printed in that order).
    pub attrs: ThinVec<(AttrName, Attr)>,
    pub loc: Loc,
    block: PackedOption<Block>,
    prev: PackedOption<Op>,
    next: PackedOption<Op>,
}

/// Where a value comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// Result number `.1` of op `.0`.
    Result(Op, u32),
    /// Argument number `.1` of block `.0`.
    BlockArg(Block, u32),
}

/// An SSA value.
#[derive(Clone, Debug)]
pub struct ValueData {
    pub ty: Type,
    pub def: ValueDef,
    /// The source-level name (`let tid = ...` gives `tid`), kept for printing and diagnostics.
    pub name: Option<String>,
    pub loc: Loc,
}

/// A basic block.
#[derive(Clone, Debug, Default)]
pub struct BlockData {
    pub args: Vec<Value>,
    /// A name hint for printing (`then`, `loop.header`, ...).
    pub name: Option<String>,
    region: PackedOption<Region>,
    prev: PackedOption<Block>,
    next: PackedOption<Block>,
    first: PackedOption<Op>,
    last: PackedOption<Op>,
}

/// A region owned by an op.
#[derive(Clone, Debug, Default)]
pub struct RegionData {
    parent: PackedOption<Op>,
    first: PackedOption<Block>,
    last: PackedOption<Block>,
}

/// A whole IR module: a `builtin.module` op at the top and everything reachable from it.
#[derive(Clone, Debug)]
pub struct Ir {
    pub ops: PrimaryMap<Op, OpData>,
    pub values: PrimaryMap<Value, ValueData>,
    pub blocks: PrimaryMap<Block, BlockData>,
    pub regions: PrimaryMap<Region, RegionData>,
    /// File names referenced by locations.
    pub files: IndexSet<String>,
    /// The `builtin.module` op.
    pub top: Op,
}

impl Default for Ir {
    fn default() -> Self {
        Self::new()
    }
}

impl Ir {
    /// An empty module: `builtin.module` with one region holding one empty block.
    pub fn new() -> Ir {
        let mut ir = Ir {
            ops: PrimaryMap::new(),
            values: PrimaryMap::new(),
            blocks: PrimaryMap::new(),
            regions: PrimaryMap::new(),
            files: IndexSet::new(),
            top: Op::from_u32(0),
        };
        let top = ir.create_op(Opcode::Module, &[], &[], Loc::UNKNOWN);
        let r = ir.add_region(top);
        let b = ir.create_block();
        ir.append_block(r, b);
        ir.top = top;
        ir
    }

    /// The block of `builtin.module` that holds the kernels.
    pub fn top_block(&self) -> Block {
        let r = self.ops[self.top].regions[0];
        self.regions[r]
            .first
            .expand()
            .expect("module region has a block")
    }

    // ---- locations ----

    pub fn intern_file(&mut self, name: &str) -> FileId {
        FileId(self.files.insert_full(name.to_string()).0 as u32)
    }
    pub fn file_name(&self, f: FileId) -> &str {
        self.files
            .get_index(f.0 as usize)
            .map_or("<unknown>", |s| s.as_str())
    }
    pub fn loc(&mut self, file: &str, line: u32, col: u32) -> Loc {
        Loc {
            file: self.intern_file(file),
            line,
            col,
        }
    }

    // ---- creation ----

    /// Creates a detached op with fresh result values of the given types.
    pub fn create_op(
        &mut self,
        opcode: Opcode,
        operands: &[Value],
        result_tys: &[Type],
        loc: Loc,
    ) -> Op {
        let op = self.ops.push(OpData {
            opcode,
            operands: ValueList::from_slice(operands),
            results: ValueList::with_capacity(result_tys.len()),
            regions: ThinVec::new(),
            succs: ThinVec::new(),
            attrs: ThinVec::new(),
            loc,
            block: None.into(),
            prev: None.into(),
            next: None.into(),
        });
        for (i, &ty) in result_tys.iter().enumerate() {
            let v = self.values.push(ValueData {
                ty,
                def: ValueDef::Result(op, i as u32),
                name: None,
                loc,
            });
            self.ops[op].results.push(v);
        }
        op
    }

    /// Adds a new empty region to `op`.
    pub fn add_region(&mut self, op: Op) -> Region {
        let r = self.regions.push(RegionData {
            parent: op.into(),
            ..Default::default()
        });
        self.ops[op].regions.push(r);
        r
    }

    pub fn create_block(&mut self) -> Block {
        self.blocks.push(BlockData::default())
    }

    pub fn add_block_arg(
        &mut self,
        block: Block,
        ty: Type,
        name: Option<String>,
        loc: Loc,
    ) -> Value {
        let idx = self.blocks[block].args.len() as u32;
        let v = self.values.push(ValueData {
            ty,
            def: ValueDef::BlockArg(block, idx),
            name,
            loc,
        });
        self.blocks[block].args.push(v);
        v
    }

    pub fn set_attr(&mut self, op: Op, name: &str, value: Attr) {
        let attrs = &mut self.ops[op].attrs;
        match attrs.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => {
                // Most ops carry one attribute: no room for three more.
                attrs.reserve_exact(1);
                attrs.push((attr_name(name), value));
            }
        }
    }

    pub fn attr(&self, op: Op, name: &str) -> Option<&Attr> {
        self.ops[op]
            .attrs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, a)| a)
    }

    pub fn add_successor(&mut self, op: Op, block: Block, args: &[Value]) {
        self.ops[op].succs.push(Successor {
            block,
            args: ThinVec::from(args),
        });
    }

    // ---- layout: blocks in regions ----

    pub fn append_block(&mut self, region: Region, block: Block) {
        debug_assert!(self.blocks[block].region.is_none(), "block already linked");
        let last = self.regions[region].last;
        self.blocks[block].region = region.into();
        self.blocks[block].prev = last;
        self.blocks[block].next = None.into();
        match last.expand() {
            Some(l) => self.blocks[l].next = block.into(),
            None => self.regions[region].first = block.into(),
        }
        self.regions[region].last = block.into();
    }

    /// Links `block` right after `after` in the same region.
    pub fn insert_block_after(&mut self, block: Block, after: Block) {
        let region = self.blocks[after]
            .region
            .expand()
            .expect("anchor block is linked");
        let next = self.blocks[after].next;
        self.blocks[block].region = region.into();
        self.blocks[block].prev = after.into();
        self.blocks[block].next = next;
        self.blocks[after].next = block.into();
        match next.expand() {
            Some(n) => self.blocks[n].prev = block.into(),
            None => self.regions[region].last = block.into(),
        }
    }

    pub fn remove_block(&mut self, block: Block) {
        let Some(region) = self.blocks[block].region.expand() else {
            return;
        };
        let (prev, next) = (self.blocks[block].prev, self.blocks[block].next);
        match prev.expand() {
            Some(p) => self.blocks[p].next = next,
            None => self.regions[region].first = next,
        }
        match next.expand() {
            Some(n) => self.blocks[n].prev = prev,
            None => self.regions[region].last = prev,
        }
        let b = &mut self.blocks[block];
        b.region = None.into();
        b.prev = None.into();
        b.next = None.into();
    }

    // ---- layout: ops in blocks ----

    pub fn append_op(&mut self, block: Block, op: Op) {
        debug_assert!(self.ops[op].block.is_none(), "op already linked");
        let last = self.blocks[block].last;
        self.ops[op].block = block.into();
        self.ops[op].prev = last;
        self.ops[op].next = None.into();
        match last.expand() {
            Some(l) => self.ops[l].next = op.into(),
            None => self.blocks[block].first = op.into(),
        }
        self.blocks[block].last = op.into();
    }

    /// Links `op` right before `before`.
    pub fn insert_op_before(&mut self, op: Op, before: Op) {
        let block = self.ops[before]
            .block
            .expand()
            .expect("anchor op is linked");
        let prev = self.ops[before].prev;
        self.ops[op].block = block.into();
        self.ops[op].prev = prev;
        self.ops[op].next = before.into();
        self.ops[before].prev = op.into();
        match prev.expand() {
            Some(p) => self.ops[p].next = op.into(),
            None => self.blocks[block].first = op.into(),
        }
    }

    /// Unlinks `op` from its block (it and its regions become dead).
    pub fn remove_op(&mut self, op: Op) {
        let Some(block) = self.ops[op].block.expand() else {
            return;
        };
        let (prev, next) = (self.ops[op].prev, self.ops[op].next);
        match prev.expand() {
            Some(p) => self.ops[p].next = next,
            None => self.blocks[block].first = next,
        }
        match next.expand() {
            Some(n) => self.ops[n].prev = prev,
            None => self.blocks[block].last = prev,
        }
        let o = &mut self.ops[op];
        o.block = None.into();
        o.prev = None.into();
        o.next = None.into();
    }

    /// Unlinks `op` from wherever it is (if anywhere) and appends it to `block`. O(1).
    pub fn move_op_to_end(&mut self, op: Op, block: Block) {
        self.remove_op(op);
        self.append_op(block, op);
    }

    /// Keeps only the arguments of `block` for which `keep` returns true, renumbering the
    /// survivors' [`ValueDef::BlockArg`] indices. The dropped values become dead; the caller
    /// is responsible for dropping the matching successor arguments in every predecessor.
    pub fn retain_block_args(&mut self, block: Block, mut keep: impl FnMut(Value) -> bool) {
        let mut args = std::mem::take(&mut self.blocks[block].args);
        args.retain(|&v| keep(v));
        for (i, &v) in args.iter().enumerate() {
            self.values[v].def = ValueDef::BlockArg(block, i as u32);
        }
        self.blocks[block].args = args;
    }

    // ---- queries ----

    pub fn opcode(&self, op: Op) -> Opcode {
        self.ops[op].opcode
    }
    pub fn spec(&self, op: Op) -> &'static OpSpec {
        self.ops[op].opcode.spec()
    }
    pub fn op_block(&self, op: Op) -> Option<Block> {
        self.ops[op].block.expand()
    }
    pub fn block_region(&self, block: Block) -> Option<Region> {
        self.blocks[block].region.expand()
    }
    pub fn region_parent(&self, region: Region) -> Option<Op> {
        self.regions[region].parent.expand()
    }
    /// The op whose region contains `op`.
    pub fn parent_op(&self, op: Op) -> Option<Op> {
        let b = self.op_block(op)?;
        self.region_parent(self.block_region(b)?)
    }
    pub fn first_op(&self, block: Block) -> Option<Op> {
        self.blocks[block].first.expand()
    }
    pub fn last_op(&self, block: Block) -> Option<Op> {
        self.blocks[block].last.expand()
    }
    pub fn next_op(&self, op: Op) -> Option<Op> {
        self.ops[op].next.expand()
    }
    pub fn prev_op(&self, op: Op) -> Option<Op> {
        self.ops[op].prev.expand()
    }
    pub fn entry_block(&self, region: Region) -> Option<Block> {
        self.regions[region].first.expand()
    }
    pub fn next_block(&self, block: Block) -> Option<Block> {
        self.blocks[block].next.expand()
    }

    /// Ops of a block in order.
    pub fn block_ops(&self, block: Block) -> impl Iterator<Item = Op> + '_ {
        std::iter::successors(self.first_op(block), move |&o| self.next_op(o))
    }
    /// Blocks of a region in order.
    pub fn region_blocks(&self, region: Region) -> impl Iterator<Item = Block> + '_ {
        std::iter::successors(self.entry_block(region), move |&b| self.next_block(b))
    }
    /// The terminator of a block, if its last op is one.
    pub fn terminator(&self, block: Block) -> Option<Op> {
        self.last_op(block)
            .filter(|&o| self.spec(o).is_terminator())
    }
    /// CFG successors of a block (targets of its terminator).
    pub fn block_succs(&self, block: Block) -> impl Iterator<Item = Block> + '_ {
        self.last_op(block)
            .into_iter()
            .flat_map(move |t| self.ops[t].succs.iter().map(|s| s.block))
    }

    pub fn value_type(&self, v: Value) -> Type {
        self.values[v].ty
    }
    pub fn value_name(&self, v: Value) -> Option<&str> {
        self.values[v].name.as_deref()
    }
    pub fn set_value_name(&mut self, v: Value, name: &str) {
        self.values[v].name = Some(name.to_string());
    }
    /// The block in which `v` is defined (for results: the block of the defining op).
    pub fn value_block(&self, v: Value) -> Option<Block> {
        match self.values[v].def {
            ValueDef::Result(op, _) => self.op_block(op),
            ValueDef::BlockArg(b, _) => Some(b),
        }
    }
    pub fn defining_op(&self, v: Value) -> Option<Op> {
        match self.values[v].def {
            ValueDef::Result(op, _) => Some(op),
            ValueDef::BlockArg(..) => None,
        }
    }

    /// The bit pattern of `v` if an `arith.constant` defines it: integers masked to the
    /// value's width (the attribute may hold them sign-extended), floats as their f32 bits,
    /// booleans as 0/1.
    pub fn constant_bits(&self, v: Value) -> Option<u64> {
        let op = self.defining_op(v)?;
        if self.opcode(op) != Opcode::Constant {
            return None;
        }
        let bits = self.value_type(v).bits();
        let mask = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        match self.attr(op, "value")? {
            Attr::Int(x, _) => Some(*x as u64 & mask),
            Attr::Float(f) => Some(f.to_bits() as u64),
            Attr::Bool(b) => Some(*b as u64),
            _ => None,
        }
    }

    /// The value of `v` if it is an integer constant, sign-extended from its width.
    pub fn int_constant(&self, v: Value) -> Option<i64> {
        if !self.value_type(v).is_int() {
            return None;
        }
        let bits = self.value_type(v).bits();
        let x = self.constant_bits(v)?;
        Some(if bits == 0 || bits >= 64 {
            x as i64
        } else {
            ((x << (64 - bits)) as i64) >> (64 - bits)
        })
    }

    /// The values `op` reads, as operands or successor arguments, for rewriting in place.
    pub fn uses_mut(&mut self, op: Op) -> impl Iterator<Item = &mut Value> + '_ {
        let data = &mut self.ops[op];
        data.operands
            .iter_mut()
            .chain(data.succs.iter_mut().flat_map(|s| s.args.iter_mut()))
    }

    /// The values `op` reads, as operands or successor arguments.
    pub fn uses(&self, op: Op) -> impl Iterator<Item = Value> + '_ {
        let data = &self.ops[op];
        data.operands
            .iter()
            .chain(data.succs.iter().flat_map(|s| s.args.iter()))
            .copied()
    }

    /// The kernels (`kernel.func` ops) in module order.
    /// Is `func` in CF form: one region whose blocks all end in a terminator, no structured op
    /// (`Opcode::is_structured`) and no op with regions inside? What lower-to-cf produces and
    /// the CFG analyses require.
    pub fn is_cf_kernel(&self, func: Op) -> bool {
        let [region] = self.ops[func].regions[..] else {
            return false;
        };
        self.region_blocks(region).all(|b| {
            self.last_op(b)
                .is_some_and(|t| self.spec(t).is_terminator())
                && self
                    .block_ops(b)
                    .all(|o| !self.opcode(o).is_structured() && self.ops[o].regions.is_empty())
        })
    }

    pub fn kernels(&self) -> Vec<Op> {
        self.block_ops(self.top_block())
            .filter(|&o| self.opcode(o) == Opcode::Func)
            .collect()
    }
    /// Symbol name of a `kernel.func`.
    pub fn func_name(&self, func: Op) -> &str {
        self.attr(func, "sym_name")
            .and_then(Attr::as_str)
            .unwrap_or("")
    }

    /// All linked ops nested under `op` (excluding `op`), in pre-order.
    pub fn walk(&self, op: Op, f: &mut impl FnMut(Op)) {
        for o in self.descendants(op) {
            f(o);
        }
    }

    /// All linked ops nested under `op` (excluding `op`), in pre-order.
    pub fn descendants(&self, op: Op) -> impl Iterator<Item = Op> + '_ {
        self.events(op).filter_map(move |e| match e {
            Event::Op(o) if o != op => Some(o),
            _ => None,
        })
    }

    /// The walk of `root` and everything nested in it, as enter / leave [`Event`]s in print
    /// order. It keeps no stack (each step follows the layout links), so any nesting depth
    /// costs O(1) memory and O(1) time per event.
    pub fn events(&self, root: Op) -> Events<'_> {
        Events {
            ir: self,
            root,
            next: Some(Event::Op(root)),
        }
    }

    /// The region after `r` in its parent op, if any.
    fn next_region(&self, r: Region) -> Option<Region> {
        let parent = self.region_parent(r)?;
        let regions = &self.ops[parent].regions;
        let i = regions.iter().position(|&x| x == r)?;
        regions.get(i + 1).copied()
    }

    /// Every use of every value under `root`: `users[v]` lists the ops that read `v` as an
    /// operand or successor argument. One linear walk; recompute after mutation.
    pub fn users(&self, root: Op) -> SecondaryMap<Value, OpList> {
        let mut users: SecondaryMap<Value, OpList> = SecondaryMap::with_capacity(self.values.len());
        self.walk(root, &mut |o| {
            for v in self.uses(o) {
                users[v].push(o);
            }
        });
        users
    }

    /// Replaces every use of `old` under `root` by `new`. Linear in the size of `root`.
    pub fn replace_all_uses(&mut self, root: Op, old: Value, new: Value) {
        let mut ops = Vec::new();
        self.walk(root, &mut |o| ops.push(o));
        for o in ops {
            for v in self.uses_mut(o).filter(|v| **v == old) {
                *v = new;
            }
        }
    }
}

/// One step of [`Ir::events`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Entering an op, before its regions.
    Op(Op),
    /// Entering a region of the op entered last.
    Region(Region),
    /// Entering a block of the region entered last.
    Block(Block),
    /// Leaving a region, after its last block.
    RegionEnd(Region),
    /// Leaving an op, after its regions.
    OpEnd(Op),
}

/// The iterator of [`Ir::events`].
pub struct Events<'a> {
    ir: &'a Ir,
    root: Op,
    next: Option<Event>,
}

impl Events<'_> {
    /// What follows the end of block `b`: the next block, or the end of its region.
    fn after_block(&self, b: Block) -> Option<Event> {
        match self.ir.next_block(b) {
            Some(n) => Some(Event::Block(n)),
            None => self.ir.block_region(b).map(Event::RegionEnd),
        }
    }

    fn successor(&self, e: Event) -> Option<Event> {
        let ir = self.ir;
        match e {
            Event::Op(o) => Some(match ir.ops[o].regions.first() {
                Some(&r) => Event::Region(r),
                None => Event::OpEnd(o),
            }),
            Event::Region(r) => Some(match ir.entry_block(r) {
                Some(b) => Event::Block(b),
                None => Event::RegionEnd(r),
            }),
            Event::Block(b) => match ir.first_op(b) {
                Some(o) => Some(Event::Op(o)),
                None => self.after_block(b),
            },
            Event::OpEnd(o) if o == self.root => None,
            Event::OpEnd(o) => match ir.next_op(o) {
                Some(n) => Some(Event::Op(n)),
                None => ir.op_block(o).and_then(|b| self.after_block(b)),
            },
            Event::RegionEnd(r) => match ir.next_region(r) {
                Some(n) => Some(Event::Region(n)),
                None => ir.region_parent(r).map(Event::OpEnd),
            },
        }
    }
}

impl Iterator for Events<'_> {
    type Item = Event;

    fn next(&mut self) -> Option<Event> {
        let e = self.next?;
        self.next = self.successor(e);
        Some(e)
    }
}
