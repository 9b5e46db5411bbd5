//! SIMT-induced deadlock detection (Algorithm 1 of seed 001, "MIMD Synchronization on SIMT
//! Architectures", MICRO 2016).
//!
//! A wave runs its lanes in lock step and reconverges where divergent paths meet: lanes that
//! leave a loop wait at its exit until every other lane has left too. A spin loop whose exit
//! waits on shared memory that only a lane *past* that exit writes (the lock release after a
//! spin-lock loop), or a lane in the *other arm* of an enclosing divergent branch (which runs
//! after this arm), never ends: the writer waits for the spinners, the spinners for the
//! writer. This analysis finds such loops.
//!
//! For every natural loop `L` of a CF kernel:
//! 1. `L` must be divergent (some exiting branch is divergent): a loop whose lanes all leave
//!    together cannot strand one of them.
//! 2. Spin reads: the shared-memory reads in `L` (`kernel.load`, `kernel.atomic`,
//!    `kernel.atomic_cmpxchg`, on global or workgroup memory) on which an exit condition of
//!    `L` depends: the backward slice of the exiting branches' conditions through operands
//!    and block arguments of blocks in `L`; a block argument in the slice brings in the
//!    conditions of every branch in `L` too (which edge passes which value is control
//!    dependence, like `done = true` under `if cas(..) == 0`).
//! 3. Releasing writes: stores and atomics in blocks *reachable* from the reconvergence point
//!    of `L`'s exits (their nearest common post-dominator) without crossing a barrier, outside
//!    `L`; and in blocks *parallel* to `L`: the other side of a divergent branch whose block
//!    dominates `L`'s header and whose reconvergence point does not.
//! 4. A releasing write that may alias a spin read makes `L` a potential deadlock. Aliasing
//!    is by base object (a kernel pointer argument or a shared array, through
//!    `kernel.ptr_offset`): different bases never alias, the same base aliases unless both
//!    element offsets are constants that differ; an unknown base aliases everything in its
//!    address space.
//!
//! Pre: a verified CF kernel and its uniformity. Post: nothing changes; the result lists each
//! deadlocking loop with the reads it spins on and the writes that would release it.
//! Cost: one CFG, dominator and post-dominator tree and cycle forest per kernel; the slice,
//! the reachability walk and the parallel-branch walks run only for divergent loops whose
//! exits depend on a shared-memory read (spin loops, rare), each linear in the kernel, so
//! O(kernel x spin loops) in all.

use crate::analysis::{CycleId, CycleInfo, DomTree, RegionCfg, Uniformity};
use crate::attrs::Attr;
use crate::entities::{Block, Op, Value};
use crate::ir::{Ir, ValueDef};
use crate::registry::Opcode;
use crate::types::Type;
use cranelift_entity::SecondaryMap;

/// A loop that can deadlock under lock-step execution.
#[derive(Clone, Debug)]
pub struct SpinLoop {
    /// The loop's header block.
    pub header: Block,
    /// The exiting branches of the loop.
    pub exits: Vec<Op>,
    /// Shared-memory reads in the loop its exits depend on, that a releasing write may alias.
    pub reads: Vec<Op>,
    /// The writes that may release it.
    pub writes: Vec<Release>,
}

/// A write that may release a spin loop.
#[derive(Clone, Debug)]
pub struct Release {
    pub write: Op,
    /// `None`: reachable from the loop's exits; `Some(b)`: in the other arm of the divergent
    /// branch `b` enclosing the loop.
    pub beside: Option<Op>,
}

/// Where a memory access points: a base object and a constant element offset from it when
/// known.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Place {
    /// A pointer argument or shared array; `None` when the pointer comes from elsewhere (a
    /// block argument, a select).
    base: Option<Value>,
    offset: Option<i64>,
    space: Option<crate::types::AddrSpace>,
    /// The index is in the executing lane's own slot: see [`lane_slot`].
    slot: Option<Slot>,
}

/// A lane's own slot of an array: elements `id * stride .. id * stride + stride` for a lane id
/// `id` that differs between the lanes of a wave.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Slot {
    id: LaneIdForm,
    stride: u64,
}

/// The forms of lane id [`lane_slot`] knows, each distinct for the lanes of one wave when
/// workgroups are one-dimensional (the x ids of a wave's lanes then differ).
#[derive(Copy, Clone, Debug, PartialEq)]
enum LaneIdForm {
    /// `workitem_id(d)`.
    Local(u8),
    /// `workgroup_id(d) * workgroup_size(d) + workitem_id(d)`.
    Global(u8),
    /// `lane_id()`.
    Lane,
    /// `id & mask`, `mask + 1` a power of two of at least 64: a wave's lanes have 64
    /// consecutive ids starting at a multiple of 64, so their low six bits differ.
    Masked(LaneIdBase, u64),
}

/// The unmasked lane ids, for [`LaneIdForm::Masked`].
#[derive(Copy, Clone, Debug, PartialEq)]
enum LaneIdBase {
    Local(u8),
    Global(u8),
}

/// Whether a lane's write at `b` may change what another lane of its wave reads at `a`.
fn may_alias(a: Place, b: Place) -> bool {
    let same = match (a.base, b.base) {
        (Some(x), Some(y)) if x != y => false,
        (Some(_), Some(_)) => !matches!((a.offset, b.offset), (Some(p), Some(q)) if p != q),
        _ => a.space.is_none() || b.space.is_none() || a.space == b.space,
    };
    // Both in the lane's own slot of one layout: only the lane itself writes what it reads.
    same && !(a.base.is_some() && a.slot.is_some() && a.slot == b.slot)
}

fn dim(ir: &Ir, op: Op) -> Option<i64> {
    match ir.attr(op, "dim") {
        Some(Attr::Int(d, _)) => Some(*d),
        Some(Attr::Str(s)) => Some(match s.as_str() {
            "x" => 0,
            "y" => 1,
            _ => 2,
        }),
        _ => None,
    }
}

/// `v`'s defining op and its opcode, looking through integer extensions.
fn def(ir: &Ir, mut v: Value) -> Option<(Op, Opcode)> {
    loop {
        let d = ir.defining_op(v)?;
        match ir.opcode(d) {
            Opcode::ExtSI | Opcode::ExtUI => v = ir.ops[d].operands[0],
            code => return Some((d, code)),
        }
    }
}

/// Whether `v` is a lane id, and which form.
fn lane_id(ir: &Ir, v: Value) -> Option<LaneIdForm> {
    let (d, code) = def(ir, v)?;
    match code {
        Opcode::WorkitemId => Some(LaneIdForm::Local(dim(ir, d)? as u8)),
        Opcode::LaneId => Some(LaneIdForm::Lane),
        Opcode::AndI => {
            let ops = &ir.ops[d].operands;
            for (x, m) in [(ops[0], ops[1]), (ops[1], ops[0])] {
                let base = match lane_id(ir, x) {
                    Some(LaneIdForm::Local(d)) => LaneIdBase::Local(d),
                    Some(LaneIdForm::Global(d)) => LaneIdBase::Global(d),
                    _ => continue,
                };
                if let Some(m) = constant(ir, m).filter(|&m| m >= 63) {
                    if (m as u64 + 1).is_power_of_two() {
                        return Some(LaneIdForm::Masked(base, m as u64));
                    }
                }
            }
            None
        }
        Opcode::AddI => {
            // workgroup_id(d) * workgroup_size(d) + workitem_id(d), in either order.
            let ops = &ir.ops[d].operands;
            let (m, l) = match (def(ir, ops[0])?, def(ir, ops[1])?) {
                ((m, Opcode::MulI), (l, Opcode::WorkitemId))
                | ((l, Opcode::WorkitemId), (m, Opcode::MulI)) => (m, l),
                _ => return None,
            };
            let dl = dim(ir, l)?;
            let mo = &ir.ops[m].operands;
            let (a, b) = (def(ir, mo[0])?, def(ir, mo[1])?);
            let ok = |(x, cx): (Op, Opcode), (y, cy): (Op, Opcode)| {
                cx == Opcode::WorkgroupId
                    && cy == Opcode::WorkgroupSize
                    && dim(ir, x) == Some(dl)
                    && dim(ir, y) == Some(dl)
            };
            (ok(a, b) || ok(b, a)).then_some(LaneIdForm::Global(dl as u8))
        }
        _ => None,
    }
}

/// `id * stride` (or `id`, stride 1) for a lane id `id` and a constant stride.
fn scaled_lane_id(ir: &Ir, v: Value) -> Option<Slot> {
    if let Some(id) = lane_id(ir, v) {
        return Some(Slot { id, stride: 1 });
    }
    let (d, Opcode::MulI) = def(ir, v)? else {
        return None;
    };
    let ops = &ir.ops[d].operands;
    for (x, c) in [(ops[0], ops[1]), (ops[1], ops[0])] {
        if let (Some(id), Some(c)) = (lane_id(ir, x), constant(ir, c)) {
            if c > 0 {
                return Some(Slot {
                    id,
                    stride: c as u64,
                });
            }
        }
    }
    None
}

/// Whether index `v` is in the executing lane's own slot: `id * stride + r` with `r` proven
/// in `0..stride` (`value_range`), or `id * stride`.
fn lane_slot(ir: &Ir, v: Value) -> Option<Slot> {
    if let Some(s) = scaled_lane_id(ir, v) {
        return Some(s);
    }
    let (d, Opcode::AddI) = def(ir, v)? else {
        return None;
    };
    let ops = &ir.ops[d].operands;
    for (a, r) in [(ops[0], ops[1]), (ops[1], ops[0])] {
        if let Some(s) = scaled_lane_id(ir, a) {
            if crate::analysis::value_range::nonneg_bound(ir, r).is_some_and(|b| b < s.stride) {
                return Some(s);
            }
        }
    }
    None
}

/// The pointer operand of a memory op and its element index operand, if it has one.
fn address(ir: &Ir, op: Op) -> Option<(Value, Option<Value>)> {
    let ops = &ir.ops[op].operands;
    match ir.opcode(op) {
        Opcode::Load => Some((ops[0], ops.get(1).copied())),
        Opcode::Store => Some((ops[1], ops.get(2).copied())),
        Opcode::Atomic | Opcode::AtomicCmpxchg => Some((ops[0], None)),
        _ => None,
    }
}

fn is_read(ir: &Ir, op: Op) -> bool {
    matches!(
        ir.opcode(op),
        Opcode::Load | Opcode::Atomic | Opcode::AtomicCmpxchg
    )
}

fn is_write(ir: &Ir, op: Op) -> bool {
    matches!(
        ir.opcode(op),
        Opcode::Store | Opcode::Atomic | Opcode::AtomicCmpxchg
    )
}

fn constant(ir: &Ir, v: Value) -> Option<i64> {
    let d = ir.defining_op(v)?;
    if ir.opcode(d) != Opcode::Constant {
        return None;
    }
    match ir.attr(d, "value") {
        Some(Attr::Int(n, _)) => Some(*n),
        _ => None,
    }
}

/// The base object and constant offset of a memory op's address (every pointer is global or
/// workgroup memory, both shared between lanes); `None` for an op that accesses no memory.
fn place(ir: &Ir, op: Op) -> Option<Place> {
    let (mut ptr, index) = address(ir, op)?;
    let space = match ir.value_type(ptr) {
        Type::Ptr(space, _) => Some(space),
        _ => None,
    };
    // The indices along the way: their sum is the element offset from the base.
    let mut indices: Vec<Value> = index.into_iter().collect();
    // Walk `ptr_offset` chains back to the base (bounded by the chain's length).
    let base = loop {
        match ir.defining_op(ptr) {
            Some(d) if ir.opcode(d) == Opcode::PtrOffset => {
                let ops = &ir.ops[d].operands;
                indices.push(ops[1]);
                ptr = ops[0];
            }
            Some(d) if ir.opcode(d) == Opcode::SharedAlloc => break Some(ptr),
            None if is_parameter(ir, ptr) => break Some(ptr),
            _ => break None,
        }
    };
    let consts: Vec<Option<i64>> = indices.iter().map(|&i| constant(ir, i)).collect();
    let offset = consts
        .iter()
        .try_fold(0i64, |a, c| c.map(|c| a.wrapping_add(c)));
    // One index that is not a constant zero: maybe the lane's own slot.
    let varying: Vec<Value> = indices
        .iter()
        .zip(&consts)
        .filter(|(_, c)| **c != Some(0))
        .map(|(&i, _)| i)
        .collect();
    let slot = match varying[..] {
        [i] => lane_slot(ir, i),
        _ => None,
    };
    Some(Place {
        base,
        offset: base.and(offset),
        space,
        slot: base.and(slot),
    })
}

/// The base object (pointer parameter or shared array) memory op `op` accesses, when known.
pub fn base_of(ir: &Ir, op: Op) -> Option<Value> {
    place(ir, op).and_then(|p| p.base)
}

/// Whether `v` is a kernel parameter (an argument of the kernel's entry block).
fn is_parameter(ir: &Ir, v: Value) -> bool {
    match ir.values[v].def {
        ValueDef::BlockArg(b, _) => ir
            .block_region(b)
            .and_then(|r| ir.entry_block(r))
            .is_some_and(|e| {
                e == b
                    && ir
                        .region_parent(ir.block_region(b).expect("linked"))
                        .is_some_and(|f| ir.opcode(f) == Opcode::Func)
            }),
        ValueDef::Result(..) => false,
    }
}

/// The spin loops of CF kernel `func` (empty for other kernels).
pub fn detect(ir: &Ir, func: Op, u: &Uniformity) -> Vec<SpinLoop> {
    let Some(&region) = ir.ops[func].regions.first() else {
        return Vec::new();
    };
    if !ir.is_cf_kernel(func) {
        return Vec::new();
    }
    let cfg = RegionCfg::compute(ir, region);
    if cfg.is_empty() {
        return Vec::new();
    }
    let dom = DomTree::dominators(&cfg);
    let pdom = DomTree::post_dominators(&cfg);
    let cycles = CycleInfo::compute(&cfg);
    let exits = cycles.all_exit_blocks(&cfg);
    let mut out = Vec::new();
    for c in 0..exits.len() {
        let c = CycleId(c as u32);
        let cy = cycles.cycle(c);
        if !cy.is_reducible() {
            continue;
        }
        let d = Detector {
            ir,
            cfg: &cfg,
            cycles: &cycles,
            cycle: c,
        };
        // Exiting branches; the loop must be divergent.
        let exiting: Vec<Op> = cycles
            .exiting_blocks(&cfg, c)
            .into_iter()
            .filter_map(|b| ir.terminator(cfg.blocks[b as usize]))
            .collect();
        if !exiting.iter().any(|&t| u.is_divergent_branch(t)) {
            continue;
        }
        if !d.can_spin() {
            continue;
        }
        let reads = d.spin_reads(&exiting);
        if reads.is_empty() {
            continue;
        }
        let mut candidates = Vec::new();
        if let Some(r) = reconvergence(&pdom, &exits[c.0 as usize]) {
            d.reachable_writes(r, &mut candidates);
        }
        d.parallel_writes(&dom, &pdom, u, &mut candidates);
        let read_places: Vec<(Op, Place)> = reads
            .iter()
            .filter_map(|&r| place(ir, r).map(|p| (r, p)))
            .collect();
        let mut writes = Vec::new();
        let mut hit = Vec::new();
        for rel in candidates {
            let Some(wp) = place(ir, rel.write) else {
                continue;
            };
            let mut any = false;
            for &(r, rp) in &read_places {
                if may_alias(rp, wp) {
                    any = true;
                    if !hit.contains(&r) {
                        hit.push(r);
                    }
                }
            }
            if any && !writes.iter().any(|w: &Release| w.write == rel.write) {
                writes.push(rel);
            }
        }
        if !writes.is_empty() {
            hit.sort_by_key(|&r| reads.iter().position(|&x| x == r));
            out.push(SpinLoop {
                header: cfg.blocks[cy.header() as usize],
                exits: exiting,
                reads: hit,
                writes,
            });
        }
    }
    out
}

/// The nearest common post-dominator of the exit blocks (not the virtual exit).
fn reconvergence(pdom: &DomTree, exits: &[u32]) -> Option<u32> {
    let mut it = exits.iter().copied().filter(|&e| pdom.is_reachable(e));
    let first = it.next()?;
    let r = it.fold(first, |a, b| pdom.common_dominator(a, b));
    (r != pdom.root()).then_some(r)
}

struct Detector<'a> {
    ir: &'a Ir,
    cfg: &'a RegionCfg,
    cycles: &'a CycleInfo,
    cycle: CycleId,
}

impl Detector<'_> {
    fn in_loop(&self, b: Block) -> bool {
        let n = self.cfg.index[b];
        n != u32::MAX && self.cycles.contains(self.cycle, n)
    }

    /// Whether a lane can go around the loop with its own state unchanged: some back edge
    /// passes every header argument a value equal to that argument on some path (the
    /// argument itself, possibly through block arguments of blocks in the loop). Then only
    /// memory another lane writes can make it leave: it spins. A loop that changes its state
    /// on every iteration (a counter, a pointer walking a list) makes progress by itself and
    /// cannot wait on another lane this way.
    fn can_spin(&self) -> bool {
        let ir = self.ir;
        let header_node = self.cycles.cycle(self.cycle).header();
        let header = self.cfg.blocks[header_node as usize];
        let args = &ir.blocks[header].args;
        let mut seen: SecondaryMap<Value, bool> = SecondaryMap::new();
        self.cfg.preds[header_node as usize]
            .iter()
            .filter(|&&p| self.cycles.contains(self.cycle, p))
            .any(|&p| {
                let Some(t) = ir.terminator(self.cfg.blocks[p as usize]) else {
                    return false;
                };
                ir.ops[t]
                    .succs
                    .iter()
                    .filter(|s| s.block == header)
                    .any(|s| {
                        s.args
                            .iter()
                            .zip(args)
                            .all(|(&v, &a)| self.same_as(v, a, &mut seen))
                    })
            })
    }

    /// Whether `v` can equal header argument `a` on some path: `a` itself, or an argument of a
    /// block in the loop that some edge from inside the loop passes such a value. `seen`
    /// stops the walk at arguments already visited (a cycle of arguments passing each other).
    fn same_as(&self, v: Value, a: Value, seen: &mut SecondaryMap<Value, bool>) -> bool {
        let ir = self.ir;
        let mut work = vec![v];
        let mut visited = Vec::new();
        let mut found = false;
        while let Some(x) = work.pop() {
            if x == a {
                found = true;
                break;
            }
            let ValueDef::BlockArg(b, i) = ir.values[x].def else {
                continue;
            };
            if seen[x] || !self.in_loop(b) {
                continue;
            }
            seen[x] = true;
            visited.push(x);
            let n = self.cfg.index[b];
            for &p in &self.cfg.preds[n as usize] {
                if !self.cycles.contains(self.cycle, p) {
                    continue;
                }
                let Some(t) = ir.terminator(self.cfg.blocks[p as usize]) else {
                    continue;
                };
                for s in ir.ops[t].succs.iter().filter(|s| s.block == b) {
                    if let Some(&y) = s.args.get(i as usize) {
                        work.push(y);
                    }
                }
            }
        }
        for x in visited {
            seen[x] = false;
        }
        found
    }

    /// Step 2: the shared-memory reads in the loop the exit conditions depend on.
    fn spin_reads(&self, exiting: &[Op]) -> Vec<Op> {
        let ir = self.ir;
        let mut seen: SecondaryMap<Value, bool> = SecondaryMap::new();
        let mut work: Vec<Value> = Vec::new();
        let mut reads = Vec::new();
        let mut branches_added = false;
        let push = |v: Value, seen: &mut SecondaryMap<Value, bool>, work: &mut Vec<Value>| {
            if !seen[v] {
                seen[v] = true;
                work.push(v);
            }
        };
        for &t in exiting {
            if let Some(&c) = ir.ops[t].operands.first() {
                push(c, &mut seen, &mut work);
            }
        }
        while let Some(v) = work.pop() {
            match ir.values[v].def {
                ValueDef::Result(o, _) => {
                    let Some(b) = ir.op_block(o) else { continue };
                    if !self.in_loop(b) {
                        continue;
                    }
                    if is_read(ir, o) && place(ir, o).is_some() {
                        reads.push(o);
                    }
                    for &a in &ir.ops[o].operands {
                        push(a, &mut seen, &mut work);
                    }
                }
                ValueDef::BlockArg(b, i) => {
                    if !self.in_loop(b) {
                        continue;
                    }
                    let n = self.cfg.index[b];
                    for &p in &self.cfg.preds[n as usize] {
                        let pb = self.cfg.blocks[p as usize];
                        let Some(t) = ir.terminator(pb) else { continue };
                        for s in ir.ops[t].succs.iter().filter(|s| s.block == b) {
                            if let Some(&a) = s.args.get(i as usize) {
                                push(a, &mut seen, &mut work);
                            }
                        }
                    }
                    // Which edge passes which value: the branches of the loop decide.
                    if !branches_added {
                        branches_added = true;
                        for &n in self.cycles.block_slice(self.cycle) {
                            let Some(t) = ir.terminator(self.cfg.blocks[n as usize]) else {
                                continue;
                            };
                            if ir.ops[t].succs.len() > 1 {
                                if let Some(&c) = ir.ops[t].operands.first() {
                                    push(c, &mut seen, &mut work);
                                }
                            }
                        }
                    }
                }
            }
        }
        reads.sort();
        reads.dedup();
        reads
    }

    /// Step 3, reachable: writes in blocks reachable from node `r` without crossing a barrier
    /// (a block's ops after a barrier, and its successors, are not), outside the loop.
    fn reachable_writes(&self, r: u32, out: &mut Vec<Release>) {
        let ir = self.ir;
        let mut seen = vec![false; self.cfg.len()];
        let mut stack = vec![r];
        seen[r as usize] = true;
        while let Some(n) = stack.pop() {
            let b = self.cfg.blocks[n as usize];
            let mut blocked = false;
            if !self.cycles.contains(self.cycle, n) {
                for o in ir.block_ops(b) {
                    if ir.opcode(o) == Opcode::Barrier {
                        blocked = true;
                        break;
                    }
                    if is_write(ir, o) {
                        out.push(Release {
                            write: o,
                            beside: None,
                        });
                    }
                }
            }
            if blocked {
                continue;
            }
            for &s in &self.cfg.succs[n as usize] {
                if !seen[s as usize] {
                    seen[s as usize] = true;
                    stack.push(s);
                }
            }
        }
    }

    /// Step 3, parallel: for each divergent branch whose block dominates the header and whose
    /// reconvergence point does not, the writes on the side that does not lead to the loop
    /// (walked up to that reconvergence point).
    fn parallel_writes(
        &self,
        dom: &DomTree,
        pdom: &DomTree,
        u: &Uniformity,
        out: &mut Vec<Release>,
    ) {
        let ir = self.ir;
        let header = self.cycles.cycle(self.cycle).header();
        let mut x = dom.idom(header);
        while let Some(n) = x {
            x = dom.idom(n);
            let Some(t) = ir.terminator(self.cfg.blocks[n as usize]) else {
                continue;
            };
            if self.cfg.succs[n as usize].len() < 2 || !u.is_divergent_branch(t) {
                continue;
            }
            let join = pdom.idom(n).filter(|&j| j != pdom.root());
            if join.is_some_and(|j| dom.dominates(j, header)) {
                continue;
            }
            // The sides: blocks reachable from each successor before the join.
            let sides: Vec<Vec<u32>> = self.cfg.succs[n as usize]
                .iter()
                .map(|&s| self.walk_until(s, join))
                .collect();
            let with_loop: Vec<bool> = sides.iter().map(|s| s.contains(&header)).collect();
            if with_loop.iter().filter(|&&w| w).count() != 1 {
                continue;
            }
            let mut loop_side = vec![false; self.cfg.len()];
            for (side, _) in sides.iter().zip(&with_loop).filter(|(_, &h)| h) {
                for &m in side {
                    loop_side[m as usize] = true;
                }
            }
            for (side, &has) in sides.iter().zip(&with_loop) {
                if has {
                    continue;
                }
                for &m in side {
                    if loop_side[m as usize] {
                        continue; // on both sides: not parallel
                    }
                    for o in ir.block_ops(self.cfg.blocks[m as usize]) {
                        if is_write(ir, o) {
                            out.push(Release {
                                write: o,
                                beside: Some(t),
                            });
                        }
                    }
                }
            }
        }
    }

    /// Nodes reachable from `from` without passing `stop`.
    fn walk_until(&self, from: u32, stop: Option<u32>) -> Vec<u32> {
        let mut seen = vec![false; self.cfg.len()];
        let mut out = Vec::new();
        if Some(from) == stop {
            return out;
        }
        let mut stack = vec![from];
        seen[from as usize] = true;
        while let Some(n) = stack.pop() {
            out.push(n);
            for &s in &self.cfg.succs[n as usize] {
                if Some(s) != stop && !seen[s as usize] {
                    seen[s as usize] = true;
                    stack.push(s);
                }
            }
        }
        out
    }
}
