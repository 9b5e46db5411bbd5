//! A machine module: what the backend hands from one pass to the next, and all that is needed
//! to finish compilation from any point (the MIR text form prints and parses exactly this).
//!
//! Guarantees: a `MirModule` names the last backend pass run on it (`after`); its kernels are
//! allocated (`usage` is `Some`) exactly when that pass is `regalloc` or a later one; the
//! `Loc`s of its instructions index `files`.

use super::Func;
use crate::isel::KernelInfo;
use crate::regalloc::{Budget, Usage};
use kc_dialect::Loc;

/// One kernel between backend passes.
#[derive(Clone, Debug)]
pub struct MachineKernel {
    pub func: Func,
    /// Arguments, kernarg and LDS sizes, work-item id dimensions: what the listing's kernel
    /// descriptor and metadata need.
    pub info: KernelInfo,
    /// The kernel's source location (backend errors about the whole kernel point here).
    pub loc: Loc,
    /// Registers used, after register allocation (`None` before).
    pub usage: Option<Usage>,
    /// The registers `regalloc` may use (`--max-sgprs` / `--max-vgprs`; not part of the
    /// text form: a driver setting, like `-O`).
    pub budget: Budget,
}

/// The kernels of one compilation unit between backend passes.
#[derive(Clone, Debug)]
pub struct MirModule {
    /// Source file names; `Loc::file` indexes this list.
    pub files: Vec<String>,
    pub kernels: Vec<MachineKernel>,
    /// The last backend pass run: `isel` or a name of `passes::PASSES`.
    pub after: &'static str,
}

impl MirModule {
    /// The name of a location's file (`<unknown>` for an index out of range).
    pub fn file_name(&self, loc: Loc) -> &str {
        self.files
            .get(loc.file.0 as usize)
            .map_or("<unknown>", String::as_str)
    }

    /// Limits every kernel's registers to `budget` (for `regalloc`).
    pub fn set_budget(&mut self, budget: Budget) {
        for k in &mut self.kernels {
            k.budget = budget;
        }
    }

    /// Whether register allocation has run (physical registers only).
    pub fn allocated(&self) -> bool {
        crate::passes::allocated_after(&self.after)
    }
}

/// A place in a machine kernel, for diagnostics.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum At {
    /// The kernel as a whole (its header).
    Kernel,
    /// A block (its label line).
    Block(super::MBlock),
    /// Instruction `k` of a block.
    Inst(super::MBlock, usize),
}
