//! Where a memory access points, for alias questions between the lanes of a wave: the base
//! object (a pointer parameter or a shared array, through `kernel.ptr_offset`), the constant
//! element offset from it when known, and whether the index is in the executing lane's own
//! slot (`id * stride + r`, `r` in `0..stride`, for a lane id that differs between the lanes
//! of a wave).
//!
//! Guarantees: [`may_alias`] is false only when no lane's access at one place can touch what
//! another lane of the same wave accesses at the other: different bases (distinct buffers),
//! the same base at different constant offsets, or both in each lane's own slot of the same
//! layout. Lane ids are taken as distinct within a wave, true for one-dimensional workgroups
//! (whose waves hold 64 consecutive x ids). Each query looks through a bounded chain of
//! defining ops (the pointer's `ptr_offset`s, the index's few arithmetic ops and
//! `value_range`'s bounded depth); nothing is cached.

use crate::attrs::Attr;
use crate::entities::{Op, Value};
use crate::ir::{Ir, ValueDef};
use crate::registry::Opcode;
use crate::types::Type;

/// Where a memory access points: a base object and a constant element offset from it when
/// known.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Place {
    /// A pointer argument or shared array; `None` when the pointer comes from elsewhere (a
    /// block argument, a select).
    pub base: Option<Value>,
    pub offset: Option<i64>,
    pub space: Option<crate::types::AddrSpace>,
    /// The index is in the executing lane's own slot: see [`lane_slot`].
    pub slot: Option<Slot>,
}

/// A lane's own slot of an array: elements `id * stride .. id * stride + stride` for a lane id
/// `id` that differs between the lanes of a wave.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Slot {
    id: LaneIdForm,
    stride: u64,
}

/// The forms of lane id [`lane_slot`] knows, each distinct for the lanes of one wave when
/// workgroups are one-dimensional (the x ids of a wave's lanes then differ).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum LaneIdForm {
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
pub enum LaneIdBase {
    Local(u8),
    Global(u8),
}

/// Whether a lane's write at `b` may change what another lane of its wave reads at `a`.
pub fn may_alias(a: Place, b: Place) -> bool {
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
                if let Some(m) = ir.int_constant(m).filter(|&m| m >= 63) {
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
        if let (Some(id), Some(c)) = (lane_id(ir, x), ir.int_constant(c)) {
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
pub fn lane_slot(ir: &Ir, v: Value) -> Option<Slot> {
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
pub fn address(ir: &Ir, op: Op) -> Option<(Value, Option<Value>)> {
    let ops = &ir.ops[op].operands;
    match ir.opcode(op) {
        Opcode::Load => Some((ops[0], ops.get(1).copied())),
        Opcode::Store => Some((ops[1], ops.get(2).copied())),
        Opcode::Atomic | Opcode::AtomicCmpxchg | Opcode::AtomicLoad => Some((ops[0], None)),
        Opcode::AtomicStore => Some((ops[1], None)),
        _ => None,
    }
}

/// The base object and constant offset of a memory op's address (every pointer is global or
/// workgroup memory, both shared between lanes); `None` for an op that accesses no memory.
pub fn place(ir: &Ir, op: Op) -> Option<Place> {
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
    let consts: Vec<Option<i64>> = indices.iter().map(|&i| ir.int_constant(i)).collect();
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
