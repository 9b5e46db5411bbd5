//! The gfx942 backend: control tree (structurization of divergent regions), instruction
//! selection driven by uniformity with EXEC-mask control-flow lowering, register allocation,
//! branch folding, s_waitcnt and hazard insertion, branch relaxation (long branches), and the
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
//! `compile` takes a module in CF form whose kernels are structurizable (reducible, one exit
//! per loop: `transforms::make_structurizable`) and returns the listing.

pub mod asm_printer;
pub mod branch_folding;
pub mod branch_relax;
pub mod dead_defs;
pub mod isa;
pub mod isel;
pub mod liveness;
pub mod mir;
pub mod regalloc;
pub mod sim;
pub mod structurize;
pub mod waitcnt;

use kc_dialect::analysis::uniformity::Uniformity;
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
/// `explicit_size` rounded up to 8).
pub fn compile_with_layouts(ir: &Ir) -> Result<(String, Vec<isel::KernelInfo>), Error> {
    let mut out = asm_printer::header();
    let mut infos = Vec::new();
    for (k, func) in ir.kernels().into_iter().enumerate() {
        let u = Uniformity::compute(ir, func).map_err(|_| Error {
            loc: ir.ops[func].loc,
            message: "kernel is not in CF form".into(),
        })?;
        let tree = structurize::control_tree(ir, &u).map_err(|e| Error {
            loc: ir.ops[func].loc,
            message: format!("cannot structurize: {}", e.0),
        })?;
        let isel = isel::Isel::run(ir, func, &u, &tree).map_err(|e| Error {
            loc: e.loc,
            message: e.message,
        })?;
        let info = isel.info.clone();
        let mut mf = isel.mf;
        dead_defs::remove_dead_defs(&mut mf);
        if std::env::var_os("KC_PRINT_MIR").is_some() {
            // Debugging aid: the machine code over virtual registers (`%rN`), before
            // register allocation, on stderr.
            let mut s = String::new();
            let usage = regalloc::Usage::default();
            asm_printer::print_kernel(ir, &mf, &info, &usage, k, &mut s);
            eprint!("{s}");
        }
        let usage = regalloc::allocate(&mut mf).map_err(|e| Error {
            loc: ir.ops[func].loc,
            message: e.0,
        })?;
        branch_folding::fold_branches(&mut mf);
        waitcnt::insert_waits(&mut mf);
        waitcnt::fix_hazards(&mut mf);
        let mut usage = usage;
        branch_relax::relax(&mut mf, &mut usage).map_err(|e| Error {
            loc: ir.ops[func].loc,
            message: e.0,
        })?;
        asm_printer::print_kernel(ir, &mf, &info, &usage, k, &mut out);
        infos.push((info, usage));
    }
    out.push_str(&asm_printer::metadata(&infos));
    Ok((out, infos.into_iter().map(|(info, _)| info).collect()))
}
