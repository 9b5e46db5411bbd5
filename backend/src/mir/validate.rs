//! The MIR validator: the invariants every backend pass relies on and must keep, checked
//! between passes (the driver runs it after every backend pass in debug builds, with
//! `--verify-mir` or `KC_VERIFY_MIR=1`, and on every MIR file it reads).
//!
//! Checked, per kernel:
//! - structure: a non-empty layout of distinct blocks; every branch target, long-branch
//!   anchor and `lanes_to` block is in the layout; control does not fall off the end of the
//!   last block when it is reachable (an endless loop may leave an empty last block);
//!   allocated exactly after `regalloc` (`usage`); the kernel descriptor's fields as
//!   llvm-mc-22 accepts them for gfx942: `tid_dims` 0..=2, `usage` at most 102 SGPRs and 256
//!   VGPRs (at the `tid_dims` / `usage` line);
//! - operands, per the `isa` table: their number; their kinds (a register where one is read
//!   or written, of the right file: SGPR for `SReg`/`SAddr`/`SBase`, VGPR for
//!   `VReg`/`VAddr` (`off` also fits the last three), either for
//!   `VSrc`; its width in dwords; a selected dword range inside the register; an immediate,
//!   label or counter list only where the slot takes one); immediates a 32-bit literal can
//!   hold (a global access with `off` for its base takes a 64-bit address), inline constants where the encoding has no literal (VOP3, lane selects),
//!   raw immediates within their field (`isa::imm_range`: `s_nop` 0..=15, `s_trap` 0..=255,
//!   `s_getreg_b32` 16 bits, `s_movk_i32` SIMM16), counters `vmcnt` <= 63 and `lgkmcnt` <= 15; one literal value per SALU
//!   instruction; the VALU constant bus (at most one SGPR or literal read, gfx942 has one);
//!   `offset:N` and `sc0` only on memory instructions, offsets in range (global and
//!   scratch: 0..=4095, LDS: 16-bit, SMEM: 20-bit);
//! - control-flow pseudos (`cf_*`, see `exec_lowering`) only after `isel`, with operands
//!   as the table gives them;
//! - EXEC: written only by SALU instructions (`s_mov_b64`, the 64-bit logic operations,
//!   `s_cselect_b64`, the `s_*_saveexec_b64` family: never by a VALU compare or a memory
//!   instruction); M0 likewise only by SALU;
//! - before allocation: physical registers only the ABI's inputs (`s[0:4]`: kernarg pointer
//!   and workgroup ids; `v0`: work-item ids) and VCC/EXEC/M0, and the ABI inputs never
//!   written (register allocation does not reserve them past their last read); operands name
//!   declared virtual registers;
//! - after allocation: no virtual register; SGPR pairs even-aligned and quads 4-aligned,
//!   VGPR tuples even-aligned (gfx942); every register below the budget (102 SGPRs, 256
//!   VGPRs) and below the counts `usage` gives the kernel descriptor;
//! - definitions: every register dword read is written on some path of the wave-level CFG
//!   (layout fall-through, every branch, a long branch's target) from the kernel entry to the
//!   read (may-defined; the ABI inputs and EXEC are defined at entry), for reads in blocks
//!   that path reaches (code behind an endless loop never runs: a FORK/JOIN join whose both
//!   sides loop forever reads its arrival mask there). Must-defined (written
//!   on every path) does not hold for what isel produces, on either CFG, so it would reject
//!   correct code: on the wave-level CFG, a loop's uniform exit value is written in the exit
//!   blocks that park the leaving lanes and read after the loop, where the wave only arrives
//!   with lanes some exit block parked, but the `s_cbranch_execz` edges that skip every exit
//!   block (taken with no lane) make a path without the write; a VGPR on the per-lane CFG
//!   fails the same way where `lanes_to` over-approximates (a then side that ends in a
//!   divergent `continue` still lists the if's join, which no lane reaches from there).
//!   Two reads are not reads for this check: `v_writelane_b32` writes one lane of its
//!   destination (the other lanes are other spill slots), and `s_andn2_b64 d, m, exec`
//!   keeps the bits of `m` of the lanes outside EXEC, the first step of a lane-mask merge
//!   whose other lanes write their bits elsewhere (isel leaves such masks undefined at first,
//!   as LLVM starts them from IMPLICIT_DEF).
//!
//! The definition check runs once everything else holds (it needs well-formed operands and
//! block references). Linear in the instructions plus the size of the liveness result (the blocks each dword is
//! explored in), like `liveness`; nothing recurses.

use super::module::{At, MirModule};
use super::print::{self, Notes};
use super::{File, Func, MBlock, Operand, PReg, Reg};
use crate::isa::{imm_range, is_inline_f32, is_inline_int, Fmt, Kind, Opc, Unit, MAX_TID_DIMS};
use crate::isa::{RESERVED_SGPRS, RESERVED_VGPRS, SGPR_BUDGET, VGPR_BUDGET};
use cranelift_entity::{EntityRef, SecondaryMap};

/// One violated invariant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub at: At,
    pub message: String,
}

/// At most this many problems are reported per kernel.
const MAX_PROBLEMS: usize = 50;

/// The problems of kernel `k` of `m` (empty: valid).
pub fn validate_kernel(m: &MirModule, k: usize) -> Vec<Problem> {
    let mut v = Validator {
        m,
        k,
        problems: Vec::new(),
    };
    v.run();
    v.problems
}

/// The problems of every kernel: (kernel index, problem).
pub fn validate(m: &MirModule) -> Vec<(usize, Problem)> {
    (0..m.kernels.len())
        .flat_map(|k| validate_kernel(m, k).into_iter().map(move |p| (k, p)))
        .collect()
}

/// `@kernel bbN: instruction: message` lines, then each kernel with a problem printed with
/// the messages as `# ^^^` lines under the places they are about (the dump parses back).
pub fn render(m: &MirModule, problems: &[(usize, Problem)]) -> String {
    let mut out = String::new();
    for (k, p) in problems {
        out.push_str(&format!("error: {}: {}\n", place(m, *k, p.at), p.message));
    }
    let mut kernels: Vec<usize> = problems.iter().map(|(k, _)| *k).collect();
    kernels.dedup();
    out.push_str("# MIR:\n");
    out.push_str(&print::header(m));
    for k in kernels {
        let mut notes = Notes::new();
        for (_, p) in problems.iter().filter(|(pk, _)| *pk == k) {
            notes.entry(p.at).or_default().push(p.message.clone());
        }
        out.push('\n');
        print::print_kernel(m, k, &notes, &mut out);
    }
    out
}

/// `@kernel`, `@kernel bbN` or `@kernel bbN: instruction` for messages.
pub fn place(m: &MirModule, k: usize, at: At) -> String {
    let Some(mk) = m.kernels.get(k) else {
        return String::from("?");
    };
    let name = &mk.info.name;
    match at {
        At::Kernel => format!("@{name}"),
        At::Field(field) => format!("@{name} `{field}`"),
        At::Block(b) => format!("@{name} {b}"),
        At::Inst(b, i) => match mk.func.blocks.get(b).and_then(|d| d.insts.get(i)) {
            Some(inst) => format!("@{name} {b}: `{}`", print::inst(m, &mk.func, inst)),
            None => format!("@{name} {b}"),
        },
    }
}

struct Validator<'a> {
    m: &'a MirModule,
    k: usize,
    problems: Vec<Problem>,
}

/// A register operand resolved: file, the dwords it covers in a unit numbering, width.
#[derive(Clone, Copy, Debug)]
struct Span {
    file: File,
    width: u8,
}

/// Register units for the definition check: virtual dwords first, then physical registers.
struct Units {
    /// First unit of each virtual register.
    vbase: Vec<u32>,
    nvirt: u32,
}

const PHYS_S: u32 = 0;
const PHYS_V: u32 = SGPR_BUDGET as u32;
const PHYS_VCC: u32 = PHYS_V + VGPR_BUDGET as u32;
const PHYS_EXEC: u32 = PHYS_VCC + 2;
const PHYS_M0: u32 = PHYS_EXEC + 2;
const PHYS_UNITS: u32 = PHYS_M0 + 1;

impl Units {
    fn new(f: &Func) -> Units {
        let mut vbase = Vec::with_capacity(f.vregs.len());
        let mut n = 0u32;
        for (_, c) in f.vregs.iter() {
            vbase.push(n);
            n += c.dwords as u32;
        }
        Units { vbase, nvirt: n }
    }

    fn total(&self) -> usize {
        (self.nvirt + PHYS_UNITS) as usize
    }

    /// The units of a register operand; `None` for operands outside what is checked (out of
    /// range: reported elsewhere).
    fn of(&self, f: &Func, o: &Operand) -> Option<std::ops::Range<u32>> {
        let Operand::Reg { reg, sub, n } = *o else {
            return None;
        };
        match reg {
            Reg::Virt(v) => {
                let c = f.vregs.get(v)?;
                let w = if n == 0 { c.dwords } else { n };
                let lo = *self.vbase.get(v.index())? + sub as u32;
                Some(lo..lo + w as u32)
            }
            Reg::Phys(p) => {
                let (base, first, w, budget) = match p {
                    PReg::S(b, w) => (PHYS_S, b as u32, w as u32, SGPR_BUDGET as u32),
                    PReg::V(b, w) => (PHYS_V, b as u32, w as u32, VGPR_BUDGET as u32),
                    PReg::Vcc => (PHYS_VCC, 0, 2, 2),
                    PReg::Exec => (PHYS_EXEC, 0, 2, 2),
                    PReg::M0 => (PHYS_M0, 0, 1, 1),
                };
                if first + w > budget {
                    return None;
                }
                let lo = self.nvirt + base + first;
                Some(lo..lo + w)
            }
        }
    }
}

impl Validator<'_> {
    fn func(&self) -> &Func {
        &self.m.kernels[self.k].func
    }

    fn problem(&mut self, at: At, message: impl Into<String>) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(Problem {
                at,
                message: message.into(),
            });
        }
    }

    fn run(&mut self) {
        let structural = self.structure();
        let f = self.func();
        let layout = f.layout.clone();
        for b in layout {
            let n = self.func().blocks[b].insts.len();
            for i in 0..n {
                self.inst(b, i);
            }
        }
        // The dataflow needs a well-formed CFG and operands.
        if structural && self.problems.is_empty() {
            self.definitions();
        }
    }

    /// Layout, block references, the end of the kernel, usage; false when the CFG is not
    /// well-formed enough for the dataflow.
    fn structure(&mut self) -> bool {
        let mk = &self.m.kernels[self.k];
        let f = &mk.func;
        let mut ok = true;
        if f.layout.is_empty() {
            self.problem(At::Kernel, "the kernel has no blocks");
            return false;
        }
        match (self.m.allocated(), mk.usage.is_some()) {
            (true, false) => self.problem(
                At::Kernel,
                format!("no register usage after `{}`", self.m.after),
            ),
            (false, true) => self.problem(At::Kernel, "register usage before `regalloc`"),
            _ => {}
        }
        // The kernel descriptor's fields, as llvm-mc-22 accepts them for gfx942.
        if mk.info.tid_dims > MAX_TID_DIMS {
            self.problem(
                At::Field("tid_dims"),
                format!(
                    "tid_dims {} is out of range: the work-item ids enabled are 0 (x), 1 (x, y) \
                     or 2 (x, y, z)",
                    mk.info.tid_dims
                ),
            );
        }
        if let Some(u) = &mk.usage {
            if u.sgprs > SGPR_BUDGET {
                self.problem(
                    At::Field("usage"),
                    format!(
                        "usage sgprs {}: a gfx942 kernel has at most {SGPR_BUDGET} SGPRs \
                         (VCC and the other special registers above them)",
                        u.sgprs
                    ),
                );
            }
            if u.vgprs > VGPR_BUDGET {
                self.problem(
                    At::Field("usage"),
                    format!(
                        "usage vgprs {}: a gfx942 kernel has at most {VGPR_BUDGET} VGPRs \
                         (kc allocates no AccVGPRs: the descriptor's accum_offset is at most \
                         {VGPR_BUDGET})",
                        u.vgprs
                    ),
                );
            }
        }
        let mut in_layout: SecondaryMap<MBlock, bool> = SecondaryMap::new();
        for &b in &f.layout {
            if b.index() >= f.blocks.len() {
                self.problem(
                    At::Kernel,
                    format!("{b} is in the layout but does not exist"),
                );
                return false;
            }
            if in_layout[b] {
                self.problem(At::Block(b), format!("{b} is twice in the layout"));
                ok = false;
            }
            in_layout[b] = true;
        }
        let f = self.func();
        let mut bad: Vec<(At, String)> = Vec::new();
        for &b in &f.layout {
            for &t in &f.blocks[b].lanes_to {
                if !in_layout[t] {
                    bad.push((
                        At::Block(b),
                        format!("lanes resume at {t}, which is not in the layout"),
                    ));
                }
            }
            for &t in &f.blocks[b].wave_to {
                if !in_layout[t] {
                    bad.push((
                        At::Block(b),
                        format!("the wave may resume at {t}, which is not in the layout"),
                    ));
                }
            }
            for (i, inst) in f.blocks[b].insts.iter().enumerate() {
                for o in &inst.ops {
                    let targets = match o {
                        Operand::Label(t) => vec![*t],
                        Operand::LabelDiff { to, from, .. } => vec![*to, *from],
                        _ => continue,
                    };
                    for t in targets {
                        if !in_layout[t] {
                            bad.push((At::Inst(b, i), format!("{t} is not in the layout")));
                        }
                    }
                }
            }
        }
        // Control must not fall off the end of the last block.
        let last = *f.layout.last().expect("the layout is not empty");
        let ends = f.blocks[last]
            .insts
            .iter()
            .any(|i| matches!(i.op, Opc::S_ENDPGM | Opc::S_BRANCH | Opc::S_SETPC_B64));
        if !ends && bad.is_empty() && reachable(f)[f.layout.len() - 1] {
            bad.push((
                At::Block(last),
                "control falls off the end of the kernel (the last block is reachable and has no \
                 s_endpgm or s_branch)"
                    .into(),
            ));
        }
        ok &= bad.is_empty();
        for (at, m) in bad {
            self.problem(at, m);
        }
        ok
    }

    /// The file and width of a register operand, or a message.
    fn reg_span(&self, o: &Operand) -> Result<Option<Span>, String> {
        let Operand::Reg { reg, sub, n } = *o else {
            return Ok(None);
        };
        let f = self.func();
        let (file, full) = match reg {
            Reg::Virt(v) => {
                if self.m.allocated() {
                    return Err(format!(
                        "virtual register %r{} after register allocation",
                        v.index()
                    ));
                }
                match f.vregs.get(v) {
                    Some(c) => (c.file, c.dwords),
                    None => return Err(format!("%r{} is not a register of the kernel", v.index())),
                }
            }
            Reg::Phys(p) => {
                if sub != 0 || n != 0 {
                    return Err(format!(
                        "{} selects dwords of a physical register (name the register itself)",
                        print::operand(o)
                    ));
                }
                match p {
                    PReg::S(_, w) | PReg::V(_, w) if w == 0 => {
                        return Err("a register tuple of no registers".into())
                    }
                    PReg::S(_, w) => (File::S, w),
                    PReg::V(_, w) => (File::V, w),
                    PReg::Vcc | PReg::Exec => (File::S, 2),
                    PReg::M0 => (File::S, 1),
                }
            }
        };
        let width = if n == 0 {
            if sub != 0 {
                return Err(format!(
                    "{}: a dword range needs its end",
                    print::operand(o)
                ));
            }
            full
        } else {
            n
        };
        if sub as u32 + width as u32 > full as u32 {
            return Err(format!(
                "{} selects dwords beyond the register's {full}",
                print::operand(o)
            ));
        }
        Ok(Some(Span { file, width }))
    }

    fn inst(&mut self, b: MBlock, i: usize) {
        let f = self.func();
        let inst = &f.blocks[b].insts[i];
        let d = inst.op.desc();
        let at = At::Inst(b, i);
        let mut msgs: Vec<String> = Vec::new();
        if inst.ops.len() != d.operands.len() {
            msgs.push(format!(
                "{} takes {} operands, not {}",
                d.name,
                d.operands.len(),
                inst.ops.len()
            ));
        }
        if d.is_pseudo() && !super::module::pseudos_allowed(self.m.after) {
            msgs.push(format!(
                "{} is a control-flow pseudo after `{}` (exec-lowering replaces them)",
                d.name, self.m.after
            ));
        }
        if !d.mem && inst.offset != 0 {
            msgs.push(format!("{} takes no offset", d.name));
        }
        if !d.mem && inst.sc0 {
            msgs.push(format!("{} takes no sc0", d.name));
        }
        let max_offset = match d.fmt {
            Fmt::Global | Fmt::Scratch => 4095,
            Fmt::Ds => 65535,
            _ => u32::MAX,
        };
        if inst.offset > max_offset {
            msgs.push(format!(
                "offset:{} is out of range for {} (at most {max_offset})",
                inst.offset, d.name
            ));
        }
        if let Some(dpp) = &inst.dpp {
            if !crate::dpp::capable(inst.op) {
                msgs.push(format!("{} has no DPP form", d.name));
            }
            if !dpp.valid() {
                msgs.push(format!("DPP control out of range: {dpp}"));
            }
            // The DPP word replaces the VOP2 encoding's: every source a VGPR, lane masks VCC.
            for (j, (o, &kind)) in inst.ops.iter().zip(d.operands).enumerate() {
                let ok = match kind {
                    Kind::VSrc(_) | Kind::VReg(_) if j >= d.defs as usize => match o {
                        Operand::Reg {
                            reg: Reg::Virt(v), ..
                        } => f.vregs.get(*v).is_some_and(|c| c.file == File::V),
                        Operand::Reg {
                            reg: Reg::Phys(PReg::V(..)),
                            ..
                        } => true,
                        _ => false,
                    },
                    Kind::SReg(2) | Kind::SSrc(2) => *o == crate::mir::p(PReg::Vcc),
                    _ => true,
                };
                if !ok {
                    msgs.push(format!(
                        "operand {j} of {}_dpp: DPP sources are VGPRs and lane masks VCC",
                        d.name
                    ));
                }
            }
        }
        // The e32 form (lane masks all VCC, src1 a VGPR) takes a literal in src0.
        let vop3 = matches!(d.fmt, Fmt::Vop3 | Fmt::Vopc) && !crate::mir::has_e32(inst);
        let valu = d.unit == Unit::Valu;
        // Constant-bus reads of a VALU instruction and literal values of any.
        let mut bus: Vec<Operand> = Vec::new();
        let mut literals: Vec<i64> = Vec::new();
        // A global access with `off` for its scalar base takes a 64-bit address.
        let flat64 = d.fmt == Fmt::Global && inst.ops.last() == Some(&Operand::Off);
        for (j, (o, &kind)) in inst.ops.iter().zip(d.operands).enumerate() {
            let def = j < d.defs as usize;
            let kind = if flat64 && j == d.defs as usize {
                Kind::VReg(2)
            } else {
                kind
            };
            let what = OpNo(j + 1);
            let span = match self.reg_span(o) {
                Ok(s) => s,
                Err(m) => {
                    msgs.push(format!("{what}: {m}"));
                    continue;
                }
            };
            let want_reg = |file: Option<File>, n: u8| -> Option<String> {
                let s = span?;
                if file.is_some_and(|f| f != s.file) {
                    return Some(format!(
                        "{what} ({}) must be {}",
                        print::operand(o),
                        if file == Some(File::S) {
                            "an SGPR"
                        } else {
                            "a VGPR"
                        }
                    ));
                }
                (s.width != n).then(|| {
                    format!(
                        "{what} ({}) must be {n} dword{} wide, not {}",
                        print::operand(o),
                        if n == 1 { "" } else { "s" },
                        s.width
                    )
                })
            };
            let kind_name = match kind {
                Kind::SReg(_) => "an SGPR",
                Kind::SSrc(_) => "an SGPR or a constant",
                Kind::VReg(_) => "a VGPR",
                Kind::VSrc(_) => "a register or a constant",
                Kind::Label => "a block",
                Kind::Imm => "an immediate",
                Kind::Waitcnt => "a counter list",
                Kind::SAddr => "`off` or an SGPR pair",
                Kind::VAddr => "`off` or a VGPR",
                Kind::SBase => "`off` or an SGPR",
            };
            let fits = match (kind, o) {
                (Kind::SReg(n), Operand::Reg { .. }) => {
                    if let Some(m) = want_reg(Some(File::S), n) {
                        msgs.push(m);
                    }
                    true
                }
                (Kind::SSrc(n), Operand::Reg { .. }) => {
                    if let Some(m) = want_reg(Some(File::S), n) {
                        msgs.push(m);
                    }
                    // M0 as `v_writelane_b32`'s lane select is not read over the constant bus
                    // (llvm-mc-22 accepts `v_writelane_b32 v1, s2, m0`).
                    let m0_lane =
                        inst.op == Opc::V_WRITELANE_B32 && j == 2 && *o == super::p(PReg::M0);
                    if !def && valu && !m0_lane {
                        bus.push(o.clone());
                    }
                    true
                }
                (Kind::VReg(n), Operand::Reg { .. }) => {
                    if let Some(m) = want_reg(Some(File::V), n) {
                        msgs.push(m);
                    }
                    true
                }
                (Kind::VSrc(n), Operand::Reg { .. }) => {
                    if let Some(m) = want_reg(None, n) {
                        msgs.push(m);
                    }
                    if span.is_some_and(|s| s.file == File::S) && valu {
                        bus.push(o.clone());
                    }
                    true
                }
                (Kind::SAddr, Operand::Reg { .. }) => {
                    if let Some(m) = want_reg(Some(File::S), 2) {
                        msgs.push(m);
                    }
                    true
                }
                (Kind::SAddr | Kind::VAddr | Kind::SBase, Operand::Off) => true,
                (Kind::VAddr, Operand::Reg { .. }) => {
                    if let Some(m) = want_reg(Some(File::V), 1) {
                        msgs.push(m);
                    }
                    true
                }
                (Kind::SBase, Operand::Reg { .. }) => {
                    if let Some(m) = want_reg(Some(File::S), 1) {
                        msgs.push(m);
                    }
                    true
                }
                (Kind::SSrc(n) | Kind::VSrc(n), Operand::Imm(c)) if !def => {
                    let inline = is_inline_int(*c)
                        || (n == 1
                            && (0..=u32::MAX as i64).contains(c)
                            && is_inline_f32(*c as u32));
                    if !(-(1i64 << 31)..1i64 << 32).contains(c) {
                        msgs.push(format!("{what}: {c} does not fit a 32-bit literal"));
                    } else if d.fmt == Fmt::Smem {
                        if j == 1 {
                            msgs.push(format!("{what}: the SMEM base must be an SGPR pair"));
                        } else if !(0..=0xfffff).contains(c) {
                            msgs.push(format!("{what}: the SMEM offset {c} is not in 0..=0xfffff"));
                        }
                    } else if !inline {
                        if vop3 {
                            msgs.push(format!(
                                "{what}: {} has no literal operand on gfx942 ({} is not an \
                                 inline constant)",
                                d.name,
                                print::operand(o)
                            ));
                        }
                        if !literals.contains(c) {
                            literals.push(*c);
                        }
                        if valu {
                            bus.push(o.clone());
                        }
                    }
                    true
                }
                (Kind::SSrc(1), Operand::LabelDiff { .. }) if !def => {
                    literals.push(i64::MIN);
                    true
                }
                (Kind::Label, Operand::Label(_)) => true,
                (Kind::Imm, Operand::Imm(c)) => {
                    let range = imm_range(inst.op);
                    if !range.contains(c) {
                        msgs.push(format!(
                            "{what}: {} takes {}..={}, not {c}",
                            d.name,
                            range.start(),
                            range.end()
                        ));
                    }
                    true
                }
                (Kind::Waitcnt, Operand::Wait { vm, lgkm }) => {
                    if vm.is_some_and(|v| v > 63) || lgkm.is_some_and(|l| l > 15) {
                        msgs.push(format!(
                            "{what}: vmcnt is at most 63 and lgkmcnt at most 15"
                        ));
                    }
                    true
                }
                _ => false,
            };
            if !fits {
                msgs.push(format!(
                    "{what} ({}) must be {kind_name}{}",
                    print::operand(o),
                    if def { " (it is written)" } else { "" }
                ));
            }
            // EXEC and M0 are written by SALU instructions only.
            if def {
                if let Operand::Reg {
                    reg: Reg::Phys(p @ (PReg::Exec | PReg::M0)),
                    ..
                } = o
                {
                    if d.unit != Unit::Salu {
                        msgs.push(format!(
                            "{} writes {}: only SALU instructions write EXEC and M0",
                            d.name,
                            print::preg(*p)
                        ));
                    }
                }
            }
            self.allocation_rules(o, def, &mut msgs);
        }
        if literals.len() > 1 {
            msgs.push(format!(
                "{} has {} different literal operands (one at most)",
                d.name,
                literals.len()
            ));
        }
        bus.dedup();
        let mut distinct: Vec<Operand> = Vec::new();
        for o in bus {
            if !distinct.contains(&o) {
                distinct.push(o);
            }
        }
        // v_readlane / v_writelane: the lane select is an SGPR or inline constant, the VGPR
        // source and the other operand are checked above; gfx942 has one constant-bus read.
        if distinct.len() > 1 {
            let list: Vec<String> = distinct.iter().map(print::operand).collect();
            msgs.push(format!(
                "{} reads {} on the constant bus (SGPRs and literals: gfx942 allows one)",
                d.name,
                list.join(" and ")
            ));
        }
        for m in msgs {
            self.problem(at, m);
        }
    }

    /// Physical registers before allocation, alignment and budget after it.
    fn allocation_rules(&self, o: &Operand, def: bool, msgs: &mut Vec<String>) {
        let Operand::Reg {
            reg: Reg::Phys(p), ..
        } = *o
        else {
            return;
        };
        let allocated = self.m.allocated();
        let (file, b, w) = match p {
            PReg::S(b, w) => (File::S, b, w),
            PReg::V(b, w) => (File::V, b, w),
            _ => return,
        };
        let name = print::preg(p);
        if !allocated {
            let reserved = match file {
                File::S => RESERVED_SGPRS,
                File::V => RESERVED_VGPRS,
            };
            if b as u32 + w as u32 > reserved as u32 {
                msgs.push(format!(
                    "{name} before register allocation: only the ABI inputs s0..s{} and v0 \
                     are physical until regalloc",
                    RESERVED_SGPRS - 1
                ));
            } else if def {
                msgs.push(format!(
                    "{name} is written before register allocation: the ABI inputs are \
                     read-only until regalloc"
                ));
            }
            return;
        }
        let align = match (file, w) {
            (_, 1) => 1,
            (File::S, 2) => 2,
            (File::S, _) => 4,
            (File::V, _) => 2,
        };
        if b % align != 0 {
            msgs.push(format!(
                "{name} is not aligned: gfx942 needs {} tuples of {w} to start at a multiple \
                 of {align}",
                if file == File::S { "SGPR" } else { "VGPR" }
            ));
        }
        let usage = self.m.kernels[self.k].usage.unwrap_or_default();
        let (budget, count, what) = match file {
            File::S => (SGPR_BUDGET, usage.sgprs, "sgprs"),
            File::V => (VGPR_BUDGET, usage.vgprs.max(1), "vgprs"),
        };
        let end = b as u32 + w as u32;
        if end > budget as u32 {
            msgs.push(format!("{name} is beyond the budget of {budget} registers"));
        } else if end > count as u32 {
            msgs.push(format!(
                "{name} is beyond the {count} registers the kernel descriptor reserves \
                 (usage {what} {count})"
            ));
        }
    }

    /// Registers read with no write reaching them (see the module docs): per unit, the
    /// blocks where it is live-in (backward from its upward-exposed reads, stopping at blocks
    /// that write it), then forward from those with a writing predecessor; a read whose block
    /// is not reached that way has no write on any path to it.
    fn definitions(&mut self) {
        let f = self.func();
        let (preds, succs) = wave_cfg(f);
        let live = reachable(f);
        let units = Units::new(f);
        let nb = f.layout.len();
        let total = units.total();
        // Blocks writing each unit, and its upward-exposed reads (unit, block, instruction).
        let mut writes: Vec<(u32, u32)> = Vec::new();
        let mut exposed: Vec<(u32, u32, u32)> = Vec::new();
        let mut kill_stamp = vec![u32::MAX; total];
        let mut read_stamp = vec![u32::MAX; total];
        for (bi, &b) in f.layout.iter().enumerate() {
            let bi = bi as u32;
            for (k, inst) in f.blocks[b].insts.iter().enumerate() {
                let d = inst.op.desc();
                // `s_andn2_b64 d, m, exec` keeps the bits of m of the lanes outside EXEC: the
                // first step of merging a lane mask, whose other lanes write their bits
                // elsewhere (or never run); isel starts such masks undefined.
                let merge =
                    inst.op == Opc::S_ANDN2_B64 && inst.ops.get(2) == Some(&super::p(PReg::Exec));
                for (j, o) in inst.ops.iter().enumerate() {
                    let def = j < d.defs as usize;
                    let reads =
                        !def || (j == 0 && inst.reads_dst() && inst.op != Opc::V_WRITELANE_B32);
                    if !reads || (merge && j == 1) {
                        continue;
                    }
                    let Some(r) = units.of(f, o) else {
                        continue;
                    };
                    for u in r {
                        let ui = u as usize;
                        if kill_stamp[ui] != bi && read_stamp[ui] != bi {
                            read_stamp[ui] = bi;
                            exposed.push((u, bi, k as u32));
                        }
                    }
                }
                for o in inst.ops.iter().take(d.defs as usize) {
                    let Some(r) = units.of(f, o) else {
                        continue;
                    };
                    for u in r {
                        let ui = u as usize;
                        if kill_stamp[ui] != bi {
                            kill_stamp[ui] = bi;
                            writes.push((u, bi));
                        }
                    }
                }
            }
        }
        writes.sort_unstable();
        let written = |u: u32, bi: u32| writes.binary_search(&(u, bi)).is_ok();
        // Defined at entry: the ABI inputs and EXEC.
        let entry_defined = |u: u32| {
            let Some(p) = u.checked_sub(units.nvirt) else {
                return false;
            };
            p < PHYS_S + RESERVED_SGPRS as u32
                || (PHYS_V..PHYS_V + RESERVED_VGPRS as u32).contains(&p)
                || (PHYS_EXEC..PHYS_EXEC + 2).contains(&p)
        };
        exposed.sort_unstable();
        let mut region = vec![u32::MAX; nb];
        let mut good = vec![u32::MAX; nb];
        let mut stack: Vec<u32> = Vec::new();
        let mut bad: Vec<(At, String)> = Vec::new();
        let mut bad_units: Vec<(u32, u32, u32)> = Vec::new();
        let mut i = 0;
        while i < exposed.len() {
            let u = exposed[i].0;
            let mut j = i;
            while j < exposed.len() && exposed[j].0 == u {
                j += 1;
            }
            let reads = &exposed[i..j];
            i = j;
            if entry_defined(u) {
                continue;
            }
            // The live-in region, and its blocks with a writing predecessor.
            stack.clear();
            let mut seeds: Vec<u32> = Vec::new();
            for &(_, bi, _) in reads {
                if region[bi as usize] != u {
                    region[bi as usize] = u;
                    stack.push(bi);
                }
            }
            while let Some(x) = stack.pop() {
                for &p in &preds[x as usize] {
                    if written(u, p) {
                        if good[x as usize] != u {
                            good[x as usize] = u;
                            seeds.push(x);
                        }
                    } else if region[p as usize] != u {
                        region[p as usize] = u;
                        stack.push(p);
                    }
                }
            }
            // Forward from the seeds inside the region.
            while let Some(x) = seeds.pop() {
                for &s in &succs[x as usize] {
                    if region[s as usize] == u && good[s as usize] != u {
                        good[s as usize] = u;
                        seeds.push(s);
                    }
                }
            }
            if bad.len() >= MAX_PROBLEMS {
                break;
            }
            if let Some(&(_, bi, k)) = reads
                .iter()
                .find(|r| live[r.1 as usize] && good[r.1 as usize] != u)
            {
                let b = f.layout[bi as usize];
                let inst = &f.blocks[b].insts[k as usize];
                let Some(j) = inst
                    .ops
                    .iter()
                    .position(|o| units.of(f, o).is_some_and(|r| r.contains(&u)))
                else {
                    continue;
                };
                // One message per operand (not per dword).
                if bad_units.contains(&(bi, k, j as u32)) {
                    continue;
                }
                bad_units.push((bi, k, j as u32));
                let name = print::operand_in(f, &inst.ops[j]);
                bad.push((
                    At::Inst(b, k as usize),
                    format!(
                        "reads {name}{}, which no write reaches (on any path of the wave-level \
                         CFG from the kernel entry)",
                        unit_note(&units, u)
                    ),
                ));
            }
        }
        for (at, m) in bad {
            self.problem(at, m);
        }
    }
}

/// Which layout positions the wave-level CFG reaches from the entry.
fn reachable(f: &Func) -> Vec<bool> {
    let (_, succs) = wave_cfg(f);
    let mut seen = vec![false; succs.len()];
    let mut stack = vec![0u32];
    seen[0] = true;
    while let Some(x) = stack.pop() {
        for &s in &succs[x as usize] {
            if !seen[s as usize] {
                seen[s as usize] = true;
                stack.push(s);
            }
        }
    }
    seen
}

/// Predecessors and successors over layout indices on the wave-level CFG: branch targets, a
/// long branch's target (`s_setpc_b64` after the `(bbT-bbF)` offset), and the next block
/// unless the block ends in `s_branch`, `s_setpc_b64` or `s_endpgm`.
fn wave_cfg(f: &Func) -> (Vec<Vec<u32>>, Vec<Vec<u32>>) {
    let n = f.layout.len();
    let mut index: SecondaryMap<MBlock, u32> = SecondaryMap::new();
    for (i, &b) in f.layout.iter().enumerate() {
        index[b] = i as u32;
    }
    let mut succs: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (i, &b) in f.layout.iter().enumerate() {
        let mut falls = true;
        let out = &mut succs[i];
        let mut add = |t: u32| {
            if !out.contains(&t) {
                out.push(t);
            }
        };
        for inst in &f.blocks[b].insts {
            for o in &inst.ops {
                match o {
                    Operand::Label(t) if inst.op.desc().is_branch() => add(index[*t]),
                    Operand::LabelDiff { to, .. } => add(index[*to]),
                    _ => {}
                }
            }
            if matches!(inst.op, Opc::S_BRANCH | Opc::S_SETPC_B64 | Opc::S_ENDPGM) {
                falls = false;
            }
        }
        if falls && i + 1 < n {
            add(i as u32 + 1);
        }
    }
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (i, out) in succs.iter().enumerate() {
        for &t in out {
            preds[t as usize].push(i as u32);
        }
    }
    (preds, succs)
}

/// `operand N` in messages (formatted only when one is).
#[derive(Clone, Copy)]
struct OpNo(usize);

impl std::fmt::Display for OpNo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "operand {}", self.0)
    }
}

/// ` (dword N)` for a dword of a multi-dword virtual register, else nothing.
fn unit_note(units: &Units, u: u32) -> String {
    if u >= units.nvirt {
        return String::new();
    }
    let v = units.vbase.partition_point(|&b| b <= u) - 1;
    let d = u - units.vbase[v];
    let next = units.vbase.get(v + 1).copied().unwrap_or(units.nvirt);
    if next - units.vbase[v] > 1 {
        format!(" (dword {d})")
    } else {
        String::new()
    }
}
