//! Analyses computed from the IR. Each is a plain struct built by a `compute` function from
//! the IR it describes; none is updated incrementally, so a pass that changes the CFG must
//! drop and recompute what it invalidates.

pub mod cfg;
pub mod convergence_checks;
pub mod cycles;
pub mod dominance;

pub use cfg::{NodeList, RegionCfg};
pub use dominance::DomTree;
pub mod memory_place;
pub mod simt_deadlock;
pub mod sync_dependence;
pub mod uniformity;
#[cfg(test)]
mod uniformity_tests;
pub mod value_range;

pub use cycles::{CycleId, CycleInfo};
pub use uniformity::{Reason, Uniformity};
