//! Typed references to IR entities.
//!
//! Every entity is a `u32` index into one of the arenas of [`crate::Ir`]. Indices are cheap to
//! copy, cannot be confused with each other, and never dangle by construction (nothing is freed;
//! removed ops are unlinked from the layout, not deleted). The `Display` prefix is the one the
//! debug printer uses, not the textual IR syntax (which names values after their source names).

use cranelift_entity::entity_impl;

/// An operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Op(u32);
entity_impl!(Op, "op");

/// An SSA value: an op result or a block argument.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(u32);
entity_impl!(Value, "v");

/// A basic block: arguments plus an ordered list of ops ending in a terminator.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(u32);
entity_impl!(Block, "bb");

/// A region: an ordered list of blocks owned by an op.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Region(u32);
entity_impl!(Region, "region");
