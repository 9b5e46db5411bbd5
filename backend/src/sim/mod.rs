//! A gfx942 (MI300, wave64) simulator for the assembly subset kc emits.
//!
//! It reads assembly *text* (what kc prints, or a hand-written listing) with the instruction
//! table of `crate::isa`, pre-decodes it once into a compact instruction vector, and runs a
//! launch: workgroups one after another, the waves of a workgroup interleaved one instruction
//! at a time (round-robin, or seeded random), with `s_barrier`, LDS, a flat global memory made
//! of caller allocations, and asynchronous memory with `s_waitcnt`.
//!
//! Guarantees:
//! - Every row of `isa.rs` executes with its documented gfx942 semantics (see `exec/` and
//!   `alu.rs` for the per-op notes, including the SCC rule of each SALU op).
//! - A listing llvm-mc-22 rejects for the encoding reasons kc can get wrong (a literal in a
//!   VOP3 operand, more than one SGPR or literal on the constant bus, an SGPR or VGPR out of
//!   range or misaligned, an offset out of range, an unreturned atomic with `sc0`) is a
//!   `ParseError` naming the line; so is an unknown mnemonic.
//! - Reading or overwriting a register whose load has not been waited for is an error naming
//!   both instructions; an access outside every allocation names the instruction, the lane
//!   and the address; a run that exceeds `SimOptions::max_steps` reports where every live
//!   wave is and which loop it is in ("possible SIMT deadlock").
//! - Runs are deterministic: registers start at 0 (not a poison pattern), memory effects
//!   happen in issue order, and the wave schedule depends only on `SimOptions::seed`.
//!
//! Scratch (private memory): with `.amdhsa_enable_private_segment 1` every lane has its own
//! `.amdhsa_private_segment_fixed_size` bytes (at most [`MAX_PRIVATE_BYTES`]), zeroed when its
//! workgroup starts; `scratch_load/store_dword{,x2}` address them per lane as the sum of
//! saddr, vaddr and offset (architected flat scratch, as on gfx942), touch only the lanes in
//! EXEC, and an access outside the segment (or unaligned, or with the segment disabled) is an
//! error naming the lane and the address.
//!
//! Memory model: a load reads memory when it *issues*; only the write of its destination
//! registers waits until it retires (`s_waitcnt`). Stores and atomics change memory at issue.
//! VMEM ops retire in order; LDS ops retire in order among themselves; an SMEM load is
//! guaranteed retired only by `lgkmcnt(0)` (it may return out of order on hardware).
//!
//! FORK/JOIN (`s_cbranch_i_fork`, `s_cbranch_g_fork`, `s_cbranch_join`; seed 002, the CDNA3
//! manual's pseudocode): a fork splits EXEC into the lanes where its mask holds (pass, to the
//! target) and the others (fail, to the next instruction); when all go one way it is a plain
//! branch, else the smaller group runs first (ties: the passing one) and the other's
//! {EXEC, PC} is pushed. A join compares CSP with the value saved before the fork: equal, the
//! wave goes on; else it pops {EXEC, PC}. Where the seed leaves details open, kc's choices:
//! - The stack is where the manual's `SGPR[CSP*4]` says, read literally: entry k occupies
//!   s[4k:4k+3], EXEC in the low pair and the byte address of the PC in the high one. The
//!   code must keep those SGPRs free while a fork is pending (kc's register allocator does).
//! - CSP starts at 0, is read with `s_getreg_b32 sN, hwreg(HW_REG_MODE, 29, 3)` (bits 31:29
//!   of MODE, where the GCN manuals place it), and may reach 6: the six-deep stack, enough
//!   because the smaller group runs first. A seventh push is an error naming the fork.
//! - A PC is 4 bytes per instruction, as everywhere in this simulator.
//!
//! The run reports the deepest stack of any wave (`Stats::max_stack_depth`), and the trace
//! shows each push and pop (`TraceLine::stack`).
//!
//! Floating point: f32 ops are IEEE, round to nearest even, with subnormals as the wave's
//! MODE register says (its f32 denormal field, bits 5:4): it starts from the descriptor's
//! `.amdhsa_float_denorm_mode_32` (0 when absent, as llvm-mc assembles it: subnormal sources
//! and results flushed to a zero of their sign; 1 results only, 2 sources only, 3 none, the
//! mode kc and clang write) and `s_setreg_b32` / `s_setreg_imm32_b32` of `hwreg(HW_REG_MODE,
//! ...)` change it (`s_getreg_b32` reads it). The flush applies to the f32 sources and result
//! of every VALU float op (arithmetic, min/max, compares, conversions from f32, rounding,
//! `rcp`, `ldexp`/`frexp`, the division helpers), never to moves, selects or bit operations
//! (`exec/valu.rs`, `f32_operands`); gfx942 has no SALU float op, and no op of the table
//! reads the f16/f64 field. `v_min/max_f32` follow IEEE
//! mode (a NaN operand yields the other one). `v_rcp_f32` is the correctly rounded 1/x (the
//! hardware's is within 1 ulp: sequences built on it, such as the 64-bit division, are tested
//! here with the exact one). `v_ldexp_f32` rounds once and keeps denormal results;
//! `v_frexp_mant/exp_f32` normalize denormal inputs. 64-bit atomics (global `*_x2`, LDS
//! `*_{u,i,b}64`) need 8-byte aligned addresses and run lane by lane like the 32-bit ones.

/// The largest private segment per lane the simulator gives a kernel (64 KiB; a wave of 64
/// lanes then holds 4 MiB).
pub const MAX_PRIVATE_BYTES: u32 = 64 * 1024;

mod alu;
mod exec;
mod mem;
mod parse;
mod run;
#[cfg(test)]
mod tests;

pub use parse::parse;
pub use run::run;

use crate::fp_mode::{Denormals, FpMode};
use std::fmt;
use std::rc::Rc;

/// A parsed listing: its instructions, labels, kernels and the raw `.amdgpu_metadata` text.
pub struct Program {
    pub(crate) insts: Vec<exec::Inst>,
    /// Source text of each instruction (trimmed, comments removed), for errors and traces.
    pub(crate) texts: Vec<String>,
    /// `(instruction index, label)` sorted by index; several labels may share an index.
    pub(crate) labels: Vec<(u32, String)>,
    /// Backward branches `(target, branch)` as instruction indices: the loops of the listing.
    pub(crate) back_edges: Vec<(u32, u32)>,
    pub kernels: Vec<Kernel>,
    /// The text between `.amdgpu_metadata` and `.end_amdgpu_metadata` (raw YAML), if any.
    pub metadata: Option<String>,
}

impl Program {
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.name == name)
    }
    /// Number of decoded instructions.
    pub fn len(&self) -> usize {
        self.insts.len()
    }
    pub fn is_empty(&self) -> bool {
        self.insts.is_empty()
    }
}

/// One kernel: its entry point and its `.amdhsa_kernel` descriptor.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub name: String,
    /// Index of the first instruction (the symbol's label).
    pub entry: u32,
    /// One past the last instruction before the next kernel symbol (or the end).
    pub end: u32,
    pub desc: Descriptor,
    /// Highest SGPR (s0..s101) and VGPR index + 1 the kernel's instructions name.
    pub sgprs_used: u32,
    pub vgprs_used: u32,
}

/// The `.amdhsa_*` values the simulator reads (defaults as llvm-mc's when absent).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Descriptor {
    pub kernarg_size: u32,
    pub group_segment_fixed_size: u32,
    pub private_segment_fixed_size: u32,
    pub next_free_vgpr: u32,
    pub next_free_sgpr: u32,
    pub accum_offset: u32,
    pub user_sgpr_count: Option<u32>,
    pub user_sgpr_dispatch_ptr: bool,
    pub user_sgpr_queue_ptr: bool,
    pub user_sgpr_kernarg_segment_ptr: bool,
    pub user_sgpr_dispatch_id: bool,
    pub user_sgpr_private_segment_buffer: bool,
    pub user_sgpr_flat_scratch_init: bool,
    pub user_sgpr_kernarg_preload_length: u32,
    /// `.amdhsa_enable_private_segment` (gfx942: architected flat scratch, no SGPR is
    /// added; `.amdhsa_system_sgpr_private_segment_wavefront_offset` is read as its alias):
    /// each lane gets `private_segment_fixed_size` bytes of scratch.
    pub enable_private_segment: bool,
    pub workgroup_id: [bool; 3],
    pub workgroup_info: bool,
    /// 0: x only; 1: x and y; 2: x, y and z (all packed into v0 on gfx942).
    pub workitem_id: u32,
    /// The floating-point mode fields (defaults: llvm-mc's when the directive is absent, so
    /// an f32 denormal mode of 0, flushing, and 3 for f16/f64); the wave's MODE register
    /// starts from them ([`Descriptor::fp_mode`]).
    pub float_round_mode_32: u32,
    pub float_round_mode_16_64: u32,
    pub float_denorm_mode_32: u32,
    pub float_denorm_mode_16_64: u32,
    pub dx10_clamp: bool,
    pub ieee_mode: bool,
    /// Every `.amdhsa_*` directive as written, in order.
    pub raw: Vec<(String, u64)>,
}

impl Default for Descriptor {
    fn default() -> Self {
        Descriptor {
            kernarg_size: 0,
            group_segment_fixed_size: 0,
            private_segment_fixed_size: 0,
            next_free_vgpr: 0,
            next_free_sgpr: 0,
            accum_offset: 4,
            user_sgpr_count: None,
            user_sgpr_dispatch_ptr: false,
            user_sgpr_queue_ptr: false,
            user_sgpr_kernarg_segment_ptr: false,
            user_sgpr_dispatch_id: false,
            user_sgpr_private_segment_buffer: false,
            user_sgpr_flat_scratch_init: false,
            user_sgpr_kernarg_preload_length: 0,
            enable_private_segment: false,
            workgroup_id: [true, false, false],
            workgroup_info: false,
            workitem_id: 0,
            float_round_mode_32: 0,
            float_round_mode_16_64: 0,
            float_denorm_mode_32: 0,
            float_denorm_mode_16_64: 3,
            dx10_clamp: true,
            ieee_mode: true,
            raw: Vec::new(),
        }
    }
}

impl Descriptor {
    /// The floating-point mode the descriptor gives the kernel's waves.
    pub fn fp_mode(&self) -> FpMode {
        FpMode {
            round_32: self.float_round_mode_32 & 3,
            round_16_64: self.float_round_mode_16_64 & 3,
            denorm_32: Denormals::from_bits(self.float_denorm_mode_32),
            denorm_16_64: Denormals::from_bits(self.float_denorm_mode_16_64),
            dx10_clamp: self.dx10_clamp,
            ieee: self.ieee_mode,
        }
    }
}

/// A parse error: 1-based line number and what is wrong (quoting the text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: u32,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParseError {}

/// A kernel launch. `grid` counts workgroups per dimension (CUDA's gridDim, not HSA's
/// grid size in work-items); `block` counts work-items per workgroup.
#[derive(Clone, Debug)]
pub struct Launch {
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// The kernarg segment bytes (zero-padded to the descriptor's kernarg size).
    pub kernarg: Vec<u8>,
}

/// Global memory: allocations `(base address, bytes)`, which must not overlap. The kernarg
/// segment (and the dispatch packet, if the kernel asks for it) are placed by `run` above
/// every allocation and removed again afterwards.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    pub allocs: Vec<(u64, Vec<u8>)>,
    /// What to call allocation `i` in an error (`kc run` gives the buffer's parameter
    /// name); allocations without a name are "allocation i".
    pub names: Vec<String>,
}

impl Memory {
    /// The bytes of the allocation that starts at `base`.
    pub fn get(&self, base: u64) -> Option<&[u8]> {
        self.allocs
            .iter()
            .find(|a| a.0 == base)
            .map(|a| a.1.as_slice())
    }
    /// Reads the little-endian dwords of the allocation that starts at `base`.
    pub fn dwords(&self, base: u64) -> Option<Vec<u32>> {
        self.get(base).map(|b| {
            b.chunks(4)
                .map(|c| {
                    let mut w = [0u8; 4];
                    w[..c.len()].copy_from_slice(c);
                    u32::from_le_bytes(w)
                })
                .collect()
        })
    }
}

/// A kernel's arguments as a listing's `.amdgpu_metadata` gives them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MetadataArgs {
    pub name: String,
    pub kernarg_size: u32,
    pub args: Vec<MetadataArg>,
}

/// One `.args` entry: offset and size in the kernarg segment, `.value_kind`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MetadataArg {
    pub offset: u32,
    pub size: u32,
    pub kind: String,
}

/// The arguments of kernel `name` in `p`'s `.amdgpu_metadata`, read from the YAML that
/// LLVM (and kc) write: under `amdhsa.kernels`, one `- ` entry per kernel with `.args` (a
/// list of `.offset`, `.size`, `.value_kind`), `.name` and `.kernarg_segment_size`. Only
/// that shape is read, line by line, by indentation.
pub fn metadata_args(p: &Program, name: &str) -> Result<MetadataArgs, String> {
    let text = p
        .metadata
        .as_deref()
        .ok_or("the listing has no .amdgpu_metadata")?;
    let mut kernels: Vec<MetadataArgs> = Vec::new();
    // Indentation of the kernel entries' keys, and of the current argument's keys.
    let mut kernel_indent = None;
    let mut arg_indent = None;
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        let mut t = line.trim_start();
        let item = t.starts_with("- ");
        if item {
            t = t[2..].trim_start();
        }
        let key_indent = line.len() - t.len();
        let Some((key, value)) = t.split_once(':') else {
            continue;
        };
        let value = value.trim().trim_matches('\'').trim_matches('"');
        if line.starts_with("amdhsa.kernels") {
            continue;
        }
        if item && kernel_indent.is_none_or(|k| indent < k) {
            // A new kernel entry.
            kernels.push(MetadataArgs::default());
            kernel_indent = Some(key_indent);
            arg_indent = None;
        } else if item {
            kernels
                .last_mut()
                .ok_or("no kernel entry")?
                .args
                .push(MetadataArg::default());
            arg_indent = Some(key_indent);
        }
        let Some(k) = kernels.last_mut() else {
            continue;
        };
        let num = || {
            value
                .parse::<u32>()
                .map_err(|_| format!("`{key}: {value}` is not a number"))
        };
        if Some(key_indent) == arg_indent {
            let a = k.args.last_mut().ok_or("no argument entry")?;
            match key {
                ".offset" => a.offset = num()?,
                ".size" => a.size = num()?,
                ".value_kind" => a.kind = value.to_string(),
                _ => {}
            }
        } else if Some(key_indent) == kernel_indent {
            match key {
                ".name" => k.name = value.to_string(),
                ".kernarg_segment_size" => k.kernarg_size = num()?,
                _ => {}
            }
        }
    }
    kernels
        .into_iter()
        .find(|k| k.name == name)
        .ok_or_else(|| format!("no kernel `{name}` in the listing's .amdgpu_metadata"))
}

/// One executed instruction, as given to the trace callback.
pub struct TraceLine<'a> {
    pub workgroup: [u32; 3],
    pub wave: u32,
    /// Nearest preceding label plus instruction offset, e.g. `.LBB0_1+2`.
    pub pos: String,
    pub line: u32,
    pub text: &'a str,
    /// EXEC *after* the instruction (the mask it ran under, unless it writes EXEC).
    pub exec: u64,
    /// What a fork or join did to the FORK/JOIN stack (push, pop, plain branch).
    pub stack: Option<String>,
}

impl fmt::Display for TraceLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "w{} {:<14} {:<44} exec={:064b}",
            self.wave, self.pos, self.text, self.exec
        )?;
        match &self.stack {
            Some(s) => write!(f, "  {s}"),
            None => Ok(()),
        }
    }
}

/// A trace sink: called once per executed wave-instruction.
pub type TraceFn = Rc<dyn Fn(&TraceLine)>;

/// Options of a run.
#[derive(Clone)]
pub struct SimOptions {
    /// `None`: round-robin, one instruction per wave in turn. `Some(s)`: a random runnable
    /// wave each step, from a generator seeded with `s`.
    pub seed: Option<u64>,
    /// Wave-instructions per workgroup before `SimError::NoProgress`.
    pub max_steps: u64,
    /// Wave-instructions over the whole grid before `SimError::Budget` (`u64::MAX`: none).
    pub max_total_steps: u64,
    pub trace: Option<TraceFn>,
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions {
            seed: None,
            max_steps: 10_000_000,
            max_total_steps: u64::MAX,
            trace: None,
        }
    }
}

/// Executed instruction counts, per `isa::Unit` (wave-instructions), and lane-instructions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub salu: u64,
    pub smem: u64,
    pub valu: u64,
    pub vmem: u64,
    pub lds: u64,
    pub branch: u64,
    /// `s_waitcnt`, `s_nop`, `s_barrier`, `s_endpgm`.
    pub control: u64,
    /// Sum of popcount(EXEC at issue) over VALU, VMEM and LDS instructions.
    pub lane_instructions: u64,
    /// The same over VALU instructions only (lane utilisation: valu_lanes / (64 valu)).
    pub valu_lanes: u64,
    pub workgroups: u64,
    pub waves: u64,
    /// The deepest FORK/JOIN stack of any wave (entries pushed at once).
    pub max_stack_depth: u64,
}

impl Stats {
    /// Instructions of the scalar unit: SALU, SMEM, branches and control.
    pub fn scalar(&self) -> u64 {
        self.salu + self.smem + self.branch + self.control
    }
    /// Instructions that run per lane: VALU, VMEM, LDS.
    pub fn vector(&self) -> u64 {
        self.valu + self.vmem + self.lds
    }
    /// Memory instructions: SMEM, VMEM, LDS.
    pub fn memory(&self) -> u64 {
        self.smem + self.vmem + self.lds
    }
    pub fn total(&self) -> u64 {
        self.scalar() + self.vector()
    }
}

/// Where a live wave was when a run gave up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaveAt {
    pub wave: u32,
    pub pos: String,
    pub line: u32,
    pub text: String,
    pub exec: u64,
    pub at_barrier: bool,
    /// Label of the innermost loop (backward branch target) around the PC, if any.
    pub loop_label: Option<String>,
}

/// Why a run failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimError {
    /// No kernel of that name, or its descriptor/launch cannot be set up.
    Launch(String),
    /// An instruction failed (memory fault, misalignment, unsupported operand value).
    Fault {
        workgroup: [u32; 3],
        wave: u32,
        line: u32,
        text: String,
        message: String,
    },
    /// A register was read or written before the load writing it was waited for.
    Hazard {
        workgroup: [u32; 3],
        wave: u32,
        line: u32,
        text: String,
        reg: String,
        load_line: u32,
        load_text: String,
    },
    /// The step limit was exceeded: a possible SIMT deadlock or an endless loop.
    NoProgress {
        workgroup: [u32; 3],
        steps: u64,
        waves: Vec<WaveAt>,
    },
    /// `SimOptions::max_total_steps` was spent before the grid finished (every workgroup
    /// that ran was making progress: a large grid, not a deadlock).
    Budget {
        steps: u64,
        finished: u64,
        workgroups: u64,
    },
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SimError::Launch(m) => write!(f, "launch: {m}"),
            SimError::Fault {
                workgroup,
                wave,
                line,
                text,
                message,
            } => write!(
                f,
                "workgroup {workgroup:?} wave {wave}: line {line} `{text}`: {message}"
            ),
            SimError::Hazard {
                workgroup,
                wave,
                line,
                text,
                reg,
                load_line,
                load_text,
            } => write!(
                f,
                "workgroup {workgroup:?} wave {wave}: line {line} `{text}` uses {reg} before \
                 the load at line {load_line} `{load_text}` was waited for (missing s_waitcnt)"
            ),
            SimError::NoProgress {
                workgroup,
                steps,
                waves,
            } => {
                writeln!(
                    f,
                    "workgroup {workgroup:?}: no completion after {steps} wave-instructions \
                     (possible SIMT deadlock)"
                )?;
                for w in waves {
                    write!(
                        f,
                        "  wave {} at {} (line {}) `{}` exec={:064b}",
                        w.wave, w.pos, w.line, w.text, w.exec
                    )?;
                    if w.at_barrier {
                        write!(f, " waiting at s_barrier")?;
                    }
                    if let Some(l) = &w.loop_label {
                        write!(f, " looping in {l}")?;
                    }
                    writeln!(f)?;
                }
                Ok(())
            }
            SimError::Budget {
                steps,
                finished,
                workgroups,
            } => write!(
                f,
                "stopped after {steps} wave-instructions over the grid, the run's budget: \
                 {finished} of {workgroups} workgroups finished"
            ),
        }
    }
}

impl std::error::Error for SimError {}
