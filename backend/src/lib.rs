//! The gfx942 backend: control tree (structurization of divergent regions), instruction
//! selection driven by uniformity with EXEC-mask control-flow lowering, register allocation,
//! 64-bit move combining, branch folding, s_waitcnt and hazard insertion, branch relaxation (long branches), and the
//! asm printer. `isa` is the one instruction table
//! the printer and the simulator's parser share.
//!
//! Instruction selection is the `isel` module, one file per concern (after Mesa ACO's
//! `instruction_selection/`): `mod.rs` (`Isel`, the dispatch, shared helpers), `setup`
//! (per-kernel analyses), `abi` (kernel arguments, prologue, hidden arguments), `alu`,
//! `alu64`, `convert`, `division`, `memory`, `cross_lane`, and the EXEC-mask control-flow
//! lowering `cfg` with `cfg_analysis` and `block_args`; each states in its header what it
//! selects and guarantees.
//!
//! The pipeline is `passes`: `isel`, then named passes over a `mir::MirModule`, which has a
//! text form (`mir::print`, `mir::parse`) and a validator (`mir::validate`) the driver runs
//! between passes.
//!
//! `compile` takes a module in CF form whose kernels are structurizable (reducible, one exit
//! per loop: `transforms::make_structurizable`) and returns the listing.

pub mod asm_printer;
pub mod branch_folding;
pub mod branch_relax;
pub mod dead_defs;
pub mod dpp;
pub mod exec_lowering;
pub mod fork_join;
pub mod fp_mode;
pub mod isa;
pub mod isel;
pub mod liveness;
pub mod memory_model;
pub mod mir;
pub mod move_pairs;
pub mod passes;
pub mod regalloc;
pub mod sim;
pub mod structurize;
pub mod waitcnt;

use kc_dialect::{Ir, Loc};

/// A backend failure: a construct kc cannot compile yet or a resource limit, with the source
/// location when known.
#[derive(Debug)]
pub struct Error {
    pub loc: Loc,
    pub message: String,
}

/// Compiles every kernel of `ir` to one gfx942 listing.
pub fn compile(ir: &Ir) -> Result<String, Error> {
    compile_with_layouts(ir).map(|(listing, _)| listing)
}

/// The listing and, per kernel, its kernel-argument layout (what a launcher needs to build
/// the kernarg segment: explicit arguments, then the hidden ones at
/// `explicit_size` rounded up to 8): `isel`, every pass of `passes::PASSES`, the printer.
pub fn compile_with_layouts(ir: &Ir) -> Result<(String, Vec<mir::KernelInfo>), Error> {
    let mut m = passes::isel(ir, mir::Divergence::ExecMask)?;
    for pass in passes::PASSES {
        passes::run(&mut m, pass)?;
    }
    Ok((passes::listing(&m)?, passes::infos(&m)))
}
