//! The backend pipeline as named passes over a [`MirModule`]:
//!
//! ```text
//!   CF IR ──isel──▶ MIR (virtual registers, control-flow pseudos) ──fork-join──▶ ──exec-lowering──▶
//!         MIR (virtual registers, EXEC masks) ──dead-defs──▶ ──regalloc──▶ ──move-pairs──▶
//!         ──branch-folding──▶ ──waitcnt──▶ ──hazards──▶ ──branch-relax──▶ MIR (final)
//!         ──listing──▶ gfx942 assembly
//! ```
//!
//! `isel` (structurization into a control tree, then instruction selection) turns each CF
//! kernel into a machine kernel, every atomic, fence and barrier already inside its gfx942
//! memory-model sequence (`memory_model.rs`), its divergent control flow as pseudo
//! instructions on the logical CFG (`cf_if`, `cf_else`, `cf_end`, ...); `fork-join` lowers
//! the divergent ifs of a
//! kernel compiled with `--divergence=fork-join` to FORK/JOIN (nothing otherwise);
//! `exec-lowering` expands the rest into EXEC-mask code (`exec_lowering.rs` documents each); every later pass maps a machine module to a
//! machine module, so the driver can print, validate and time the MIR between any two of
//! them, and run any of them alone on MIR read from a file (`kc f.mir --passes=regalloc`).
//!
//! Guarantees: [`run`] refuses (with a message, before touching anything) a pass whose input
//! level does not match the module: `fork-join`, `exec-lowering`, `dead-defs` and `regalloc`
//! take unallocated MIR, every other pass allocated MIR, and only `fork-join` and
//! `exec-lowering` a module with control-flow pseudos (the validator allows them only after
//! `isel` and `fork-join`); a pass that fails (out
//! of registers, a branch too long for any free SGPR pair) returns an [`Error`] at the kernel's location; [`listing`] prints allocated
//! MIR only. `MirModule::after` names the last pass run.

use crate::isel;
use crate::mir::KernelInfo;
use crate::mir::{MachineKernel, MirModule};
use crate::{
    asm_printer, branch_folding, branch_relax, dead_defs, exec_lowering, fork_join, move_pairs,
    regalloc, structurize, waitcnt, Error,
};
use kc_dialect::analysis::uniformity::Uniformity;
use kc_dialect::Ir;

/// One backend pass after instruction selection.
pub struct BackendPass {
    pub name: &'static str,
    /// One line for `--list-passes`.
    pub summary: &'static str,
    /// Runs on one kernel; `Err` is a message about the kernel (at its location).
    pub run: fn(&mut MachineKernel) -> Result<(), String>,
}

impl std::fmt::Debug for BackendPass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// The summary of `isel` for `--list-passes`.
pub const ISEL_SUMMARY: &str =
    "structurize divergent regions and select gfx942 instructions over virtual registers (CF IR to MIR)";

/// The backend passes after `isel`, in pipeline order.
pub const PASSES: &[BackendPass] = &[
    BackendPass {
        name: "fork-join",
        summary: "with --divergence=fork-join, divergent ifs to s_cbranch_i_fork / s_cbranch_join (nothing otherwise)",
        run: |k| fork_join::lower(&mut k.func, &k.info),
    },
    BackendPass {
        name: "exec-lowering",
        summary: "control-flow pseudos to EXEC-mask sequences; short safe execz skips dropped",
        run: |k| exec_lowering::lower(&mut k.func),
    },
    BackendPass {
        name: "dead-defs",
        summary: "moves and selects whose register nobody reads removed",
        run: |k| {
            dead_defs::remove_dead_defs(&mut k.func);
            Ok(())
        },
    },
    BackendPass {
        name: "regalloc",
        summary: "linear-scan register allocation; SGPRs spill to VGPR lanes, VGPRs to scratch",
        run: |k| {
            k.usage = Some(regalloc::allocate(&mut k.func, k.budget).map_err(|e| e.0)?);
            Ok(())
        },
    },
    BackendPass {
        name: "move-pairs",
        summary: "adjacent dword moves filling an aligned pair combined into v_mov_b64 / s_mov_b64",
        run: |k| {
            move_pairs::combine_moves(&mut k.func);
            Ok(())
        },
    },
    BackendPass {
        name: "branch-folding",
        summary: "jump threading, unreachable code and jumps to the next block removed",
        run: |k| {
            branch_folding::fold_branches(&mut k.func);
            Ok(())
        },
    },
    BackendPass {
        name: "waitcnt",
        summary: "s_waitcnt before every use of a register a load may still be writing",
        run: |k| {
            waitcnt::insert_waits(&mut k.func);
            Ok(())
        },
    },
    BackendPass {
        name: "hazards",
        summary: "s_nop padding between a VALU write and a read gfx942 needs wait states for",
        run: |k| {
            waitcnt::fix_hazards(&mut k.func);
            Ok(())
        },
    },
    BackendPass {
        name: "branch-relax",
        summary: "long-branch sequences for branches beyond the 16-bit SOPP range",
        run: |k| {
            let Some(usage) = k.usage.as_mut() else {
                return Err(format!("kernel `{}` is not allocated", k.info.name));
            };
            branch_relax::relax(&mut k.func, usage).map_err(|e| e.0)
        },
    },
];

/// The pass called `name` (not `isel`, which makes a module rather than transforming one).
pub fn find(name: &str) -> Option<&'static BackendPass> {
    PASSES.iter().find(|p| p.name == name)
}

/// The passes that follow `after` in the pipeline (all of them after `isel`).
pub fn remaining(after: &str) -> &'static [BackendPass] {
    match PASSES.iter().position(|p| p.name == after) {
        Some(i) => &PASSES[i + 1..],
        None => PASSES,
    }
}

/// Instruction selection for every kernel of `ir` (CF form, structurizable): the module
/// after `isel`.
pub fn isel(ir: &Ir, divergence: crate::mir::Divergence) -> Result<MirModule, Error> {
    let mut kernels = Vec::new();
    for func in ir.kernels() {
        let loc = ir.ops[func].loc;
        let u = Uniformity::compute(ir, func).map_err(|_| Error {
            loc,
            message: "kernel is not in CF form".into(),
        })?;
        let tree = structurize::control_tree(ir, &u).map_err(|e| Error {
            loc,
            message: format!("cannot structurize: {}", e.0),
        })?;
        let isel = isel::Isel::run(ir, func, &u, &tree, divergence).map_err(|e| Error {
            loc: e.loc,
            message: e.message,
        })?;
        kernels.push(MachineKernel {
            info: isel.info.clone(),
            func: isel.mf,
            loc,
            usage: None,
            budget: Default::default(),
        });
    }
    Ok(MirModule {
        files: ir.files.iter().cloned().collect(),
        kernels,
        after: "isel",
    })
}

/// Why `pass` cannot run on `m` as it is (the level it needs), if so.
pub fn refuse(m: &MirModule, pass: &BackendPass) -> Option<String> {
    // The passes up to `regalloc` take virtual registers, the others physical ones.
    let before_ra = matches!(
        pass.name,
        "fork-join" | "exec-lowering" | "dead-defs" | "regalloc"
    );
    // Only a module right after isel can hold pseudos (the validator rejects them later),
    // so the scan runs once per compile, not once per pass.
    let pseudo = crate::mir::module::pseudos_allowed(m.after)
        && m.kernels.iter().any(|k| {
            k.func
                .blocks
                .values()
                .any(|b| b.insts.iter().any(|i| i.op.desc().is_pseudo()))
        });
    if pseudo && !matches!(pass.name, "fork-join" | "exec-lowering") {
        return Some(format!(
            "`{}` runs on MIR without control-flow pseudos, and this module has some (run \
             exec-lowering first)",
            pass.name
        ));
    }
    match (before_ra, m.allocated()) {
        (true, true) => Some(format!(
            "`{}` runs on MIR over virtual registers, and this module is after `{}`",
            pass.name, m.after
        )),
        (false, false) => Some(format!(
            "`{}` runs on allocated MIR, and this module is after `{}` (run regalloc first)",
            pass.name, m.after
        )),
        _ => None,
    }
}

/// Runs `pass` on every kernel of `m`.
pub fn run(m: &mut MirModule, pass: &BackendPass) -> Result<(), Error> {
    if let Some(why) = refuse(m, pass) {
        return Err(Error {
            loc: kc_dialect::Loc::UNKNOWN,
            message: why,
        });
    }
    for k in &mut m.kernels {
        (pass.run)(k).map_err(|message| Error {
            loc: k.loc,
            message,
        })?;
    }
    m.after = pass.name;
    Ok(())
}

/// The gfx942 listing of an allocated module.
pub fn listing(m: &MirModule) -> Result<String, Error> {
    if !m.allocated() {
        return Err(Error {
            loc: kc_dialect::Loc::UNKNOWN,
            message: "the listing needs allocated MIR (run regalloc first)".into(),
        });
    }
    let mut out = asm_printer::header();
    let mut infos = Vec::new();
    for (i, k) in m.kernels.iter().enumerate() {
        let usage = k.usage.unwrap_or_default();
        asm_printer::print_kernel(&m.files, &k.func, &k.info, &usage, i, &mut out);
        infos.push((k.info.clone(), usage));
    }
    out.push_str(&asm_printer::metadata(&infos));
    Ok(out)
}

/// Each kernel's argument layout.
pub fn infos(m: &MirModule) -> Vec<KernelInfo> {
    m.kernels.iter().map(|k| k.info.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_the_mir_stages() {
        // The MIR text form names its stages without depending on this module: its list is
        // this pipeline's.
        let names = crate::mir::module::STAGES;
        let pipeline: Vec<&str> = std::iter::once("isel")
            .chain(PASSES.iter().map(|p| p.name))
            .collect();
        assert_eq!(names, pipeline.as_slice());
        for (i, n) in names.iter().enumerate() {
            assert!(!names[..i].contains(n), "{n}");
            assert_eq!(crate::mir::module::stage(n), Some(*n));
        }
        assert_eq!(remaining("isel").len(), PASSES.len());
        assert!(remaining("branch-relax").is_empty());
    }
}
