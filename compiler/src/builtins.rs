//! The builtin functions of the kernel language, in one table: each builtin's name, its
//! arity and the IR op it lowers to. What the op *is* (convergent, takes a token, pure,
//! touches memory) is not repeated here: it is the op's registry entry
//! (`kc_dialect::registry`), which every pass already reads. The checker types the
//! arguments (`check.rs`, per builtin: that is behaviour, not a fact) and the lowering picks
//! the op's variant for the argument type (`lower.rs`: `min` on `f32` is `arith.minimumf`).

use kc_dialect::registry::{Opcode, Traits};
use std::fmt;

/// A dimension argument of the id/size builtins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dim {
    X,
    Y,
    Z,
}

/// The builtin functions, resolved from the callee name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Builtin {
    WorkitemId(Dim),
    WorkgroupId(Dim),
    WorkgroupSize(Dim),
    NumWorkgroups(Dim),
    LaneId,
    WaveSize,
    Min,
    Max,
    Select,
    Barrier,
    Ballot,
    ReadFirstLane,
    Shuffle,
    ReduceAdd,
    ReduceMin,
    ReduceMax,
    ScanAdd,
    ScanMin,
    ScanMax,
    AtomicAdd,
    AtomicMin,
    AtomicMax,
    AtomicXchg,
    AtomicCmpXchg,
    AtomicLoad,
    AtomicStore,
    Fence,
    ConvergenceEntry,
    ConvergenceAnchor,
}

/// One builtin's facts.
pub struct Def {
    pub builtin: Builtin,
    pub name: &'static str,
    /// Arguments in the source (a dimension `x`/`y`/`z` counts as one), not counting the
    /// optional memory ordering and scope of a synchronizing builtin (`Builtin::syncs`).
    pub arity: usize,
    /// The IR op it becomes; for `min`/`max` the signed integer variant (the float and
    /// unsigned ones have the same traits).
    pub op: Opcode,
}

const fn def(builtin: Builtin, name: &'static str, arity: usize, op: Opcode) -> Def {
    Def {
        builtin,
        name,
        arity,
        op,
    }
}

use Builtin as B;
use Opcode as O;

/// Every builtin, in the order of LANGUAGE.md.
pub const TABLE: &[Def] = &[
    def(B::WorkitemId(Dim::X), "workitem_id", 1, O::WorkitemId),
    def(B::WorkgroupId(Dim::X), "workgroup_id", 1, O::WorkgroupId),
    def(
        B::WorkgroupSize(Dim::X),
        "workgroup_size",
        1,
        O::WorkgroupSize,
    ),
    def(
        B::NumWorkgroups(Dim::X),
        "num_workgroups",
        1,
        O::NumWorkgroups,
    ),
    def(B::LaneId, "lane_id", 0, O::LaneId),
    def(B::WaveSize, "wave_size", 0, O::WaveSize),
    def(B::Min, "min", 2, O::MinSI),
    def(B::Max, "max", 2, O::MaxSI),
    def(B::Select, "select", 3, O::Select),
    def(B::Barrier, "barrier", 0, O::Barrier),
    def(B::Ballot, "ballot", 1, O::Ballot),
    def(B::ReadFirstLane, "readfirstlane", 1, O::ReadFirstLane),
    def(B::Shuffle, "shuffle", 2, O::Shuffle),
    def(B::ReduceAdd, "reduce_add", 1, O::Reduce),
    def(B::ReduceMin, "reduce_min", 1, O::Reduce),
    def(B::ReduceMax, "reduce_max", 1, O::Reduce),
    def(B::ScanAdd, "scan_add", 1, O::Scan),
    def(B::ScanMin, "scan_min", 1, O::Scan),
    def(B::ScanMax, "scan_max", 1, O::Scan),
    def(B::AtomicAdd, "atomic_add", 2, O::Atomic),
    def(B::AtomicMin, "atomic_min", 2, O::Atomic),
    def(B::AtomicMax, "atomic_max", 2, O::Atomic),
    def(B::AtomicXchg, "atomic_xchg", 2, O::Atomic),
    def(B::AtomicCmpXchg, "atomic_cmpxchg", 3, O::AtomicCmpxchg),
    def(B::AtomicLoad, "atomic_load", 1, O::AtomicLoad),
    def(B::AtomicStore, "atomic_store", 2, O::AtomicStore),
    def(B::Fence, "fence", 0, O::Fence),
    def(B::ConvergenceEntry, "convergence_entry", 0, O::ConvEntry),
    def(B::ConvergenceAnchor, "convergence_anchor", 0, O::ConvAnchor),
];

impl Builtin {
    /// Resolves a name; dimension builtins get `Dim::X` until their argument is checked.
    pub fn from_name(name: &str) -> Option<Builtin> {
        TABLE.iter().find(|d| d.name == name).map(|d| d.builtin)
    }

    /// This builtin's table entry.
    pub fn def(self) -> &'static Def {
        let key = match self {
            B::WorkitemId(_) => B::WorkitemId(Dim::X),
            B::WorkgroupId(_) => B::WorkgroupId(Dim::X),
            B::WorkgroupSize(_) => B::WorkgroupSize(Dim::X),
            B::NumWorkgroups(_) => B::NumWorkgroups(Dim::X),
            b => b,
        };
        TABLE
            .iter()
            .find(|d| d.builtin == key)
            .expect("every builtin has a table entry")
    }

    pub fn name(self) -> &'static str {
        self.def().name
    }

    pub fn arity(self) -> usize {
        self.def().arity
    }

    /// Takes an optional memory ordering and scope after its arguments (its op synchronizes:
    /// the registry's `SYNC` trait).
    pub fn syncs(self) -> bool {
        self.has(Traits::SYNC)
    }

    /// The most arguments it takes: its arity, plus ordering and scope if it synchronizes.
    pub fn max_arity(self) -> usize {
        self.arity() + if self.syncs() { 2 } else { 0 }
    }

    fn has(self, t: Traits) -> bool {
        self.def().op.spec().has(t)
    }

    /// Convergent operations that may carry an `@ token` (the op takes one).
    pub fn is_convergent(self) -> bool {
        self.has(Traits::TAKES_TOKEN)
    }

    /// An atomic access of memory (read-modify-write, load or store), not a fence.
    pub fn is_atomic(self) -> bool {
        self.syncs() && self.def().op != O::Fence
    }

    /// A pure query with no convergence constraint: safe to evaluate unconditionally.
    pub fn is_pure_query(self) -> bool {
        self.has(Traits::PURE) && !self.has(Traits::CONVERGENT)
    }
}

impl fmt::Display for Builtin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names are unique, every name resolves to its own entry, and the traits read from the
    /// registry give the sets the language defines (LANGUAGE.md).
    #[test]
    fn table_is_consistent() {
        for d in TABLE {
            assert_eq!(Builtin::from_name(d.name), Some(d.builtin), "{}", d.name);
            assert_eq!(d.builtin.def().name, d.name);
        }
        let convergent: Vec<&str> = TABLE
            .iter()
            .filter(|d| d.builtin.is_convergent())
            .map(|d| d.name)
            .collect();
        assert_eq!(
            convergent,
            [
                "barrier",
                "ballot",
                "readfirstlane",
                "shuffle",
                "reduce_add",
                "reduce_min",
                "reduce_max",
                "scan_add",
                "scan_min",
                "scan_max"
            ]
        );
        let pure: Vec<&str> = TABLE
            .iter()
            .filter(|d| d.builtin.is_pure_query())
            .map(|d| d.name)
            .collect();
        assert_eq!(
            pure,
            [
                "workitem_id",
                "workgroup_id",
                "workgroup_size",
                "num_workgroups",
                "lane_id",
                "wave_size",
                "min",
                "max",
                "select"
            ]
        );
        assert_eq!(Builtin::WorkgroupSize(Dim::Z).name(), "workgroup_size");
        let syncs: Vec<&str> = TABLE
            .iter()
            .filter(|d| d.builtin.syncs())
            .map(|d| d.name)
            .collect();
        assert_eq!(
            syncs,
            [
                "atomic_add",
                "atomic_min",
                "atomic_max",
                "atomic_xchg",
                "atomic_cmpxchg",
                "atomic_load",
                "atomic_store",
                "fence"
            ]
        );
    }
}
