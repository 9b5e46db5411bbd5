//! A machine module: what the backend hands from one pass to the next, and all that is needed
//! to finish compilation from any point (the MIR text form prints and parses exactly this).
//!
//! Guarantees: a `MirModule` names the last backend pass run on it (`after`); its kernels are
//! allocated (`usage` is `Some`) exactly when that pass is `regalloc` or a later one; the
//! `Loc`s of its instructions index `files`.

use super::{File, Func};
use crate::isa::{SGPR_BUDGET, VGPR_BUDGET};
use kc_dialect::Loc;

/// Kernel-argument layout and other facts the printer needs.
#[derive(Clone, Debug, Default)]
pub struct KernelInfo {
    pub name: String,
    /// (name, offset, size, value kind, type name) per explicit argument.
    pub args: Vec<ArgInfo>,
    pub explicit_size: u32,
    pub kernarg_size: u32,
    pub lds_size: u32,
    pub tid_dims: u8,
    /// How divergent ifs are lowered (`--divergence`).
    pub divergence: Divergence,
}

/// The lowering of divergent branches: EXEC masking (`exec_lowering`), or the hardware
/// FORK/JOIN branch stack for divergent ifs (`fork_join`, loops keep EXEC masking).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Divergence {
    #[default]
    ExecMask,
    ForkJoin {
        /// Fork regions nested deeper than this many stay EXEC-masked (at most 6, the
        /// hardware stack).
        depth: u8,
    },
}

#[derive(Clone, Debug)]
pub struct ArgInfo {
    pub name: String,
    pub offset: u32,
    pub size: u32,
    pub pointer: bool,
    pub ty: String,
}

/// Result: highest SGPR and VGPR used, plus one; the SGPR dwords spilled to VGPR lanes, the
/// VGPR dwords spilled to scratch, and the private segment (scratch) per lane in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    pub sgprs: u16,
    pub vgprs: u16,
    pub sgpr_spills: u32,
    pub vgpr_spills: u32,
    pub private_bytes: u32,
}

/// The register budget: the hardware's (102 SGPRs, 256 VGPRs) unless `--max-sgprs` /
/// `--max-vgprs` ask for less (to force spilling in tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub sgprs: u16,
    pub vgprs: u16,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            sgprs: SGPR_BUDGET,
            vgprs: VGPR_BUDGET,
        }
    }
}

impl Budget {
    /// The hardware's budget, with either file's lowered where a limit is given
    /// (`--max-sgprs`, `--max-vgprs`).
    pub fn limited(sgprs: Option<u16>, vgprs: Option<u16>) -> Budget {
        let hw = Budget::default();
        Budget {
            sgprs: sgprs.unwrap_or(hw.sgprs),
            vgprs: vgprs.unwrap_or(hw.vgprs),
        }
    }

    /// The budget of `file`.
    pub fn of(self, file: File) -> u16 {
        match file {
            File::S => self.sgprs,
            File::V => self.vgprs,
        }
    }
}

/// The points of the backend pipeline a module can be after, in order: `isel`, then each
/// pass of `passes::PASSES` (whose test checks the two lists agree).
pub const STAGES: &[&str] = &[
    "isel",
    "fork-join",
    "exec-lowering",
    "dead-defs",
    "regalloc",
    "move-pairs",
    "branch-folding",
    "waitcnt",
    "hazards",
    "branch-relax",
];

/// `name` as a stage of [`STAGES`].
pub fn stage(name: &str) -> Option<&'static str> {
    STAGES.iter().copied().find(|&s| s == name)
}

/// A module after `after` (a stage name) is over physical registers: every stage after
/// `regalloc`, and `regalloc` itself.
pub fn allocated_after(after: &str) -> bool {
    !matches!(after, "isel" | "fork-join" | "exec-lowering" | "dead-defs")
}

/// Whether a module after `after` may hold control-flow pseudos (`exec-lowering` removes
/// them).
pub fn pseudos_allowed(after: &str) -> bool {
    matches!(after, "isel" | "fork-join")
}

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
        allocated_after(self.after)
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
    /// A field of the kernel's header (`tid_dims`, `usage`, ...: its keyword).
    Field(&'static str),
}
