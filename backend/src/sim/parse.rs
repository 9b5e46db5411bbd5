//! Listing text → `Program`: labels, kernels with their `.amdhsa_kernel` descriptors, the raw
//! `.amdgpu_metadata`, and every instruction decoded once into an `Inst` (operands resolved
//! to register indices and 64-bit constants, branch targets to instruction indices).
//!
//! Guarantees: each instruction's operands match its `isa.rs` row (kind, register class and
//! width), constants are stored as the hardware reads them, and the encoding rules of gfx942
//! that llvm-mc-22 enforces and kc could break are checked here (so the simulator never runs
//! a listing the assembler would reject for those reasons): no literal in VOP3, at most one
//! SGPR or literal on the constant bus, e32 forms take VCC and a VGPR src1, SGPRs s0..s101,
//! VGPRs v0..v255, aligned tuples, offset ranges, `sc0` exactly on returning atomics.
//! A mnemonic that differs from the table only in its `_e32`/`_e64` suffix is accepted (the
//! seeds' `v_cmp_*_e32 vcc, …` listings), with the rules of the spelling written.
//! Modifiers beyond memory ones, as LLVM prints them: `offset0:`/`offset1:` (0..255) on
//! `ds_read2*`/`ds_write2*`, `op_sel:`/`op_sel_hi:`/`neg_lo:`/`neg_hi:` on `v_pk_*_f32`
//! (a bit per source; `op_sel_hi` defaults to all ones), `clamp` on the VOP3 forms of the
//! integer `v_add_u32`/`v_sub_u32`/`v_subrev_u32` (unsigned saturation).

use super::exec::{Inst, Op, ABS, EXEC, M0, NEG, NOWAIT, VCC};
use super::{Descriptor, Kernel, ParseError, Program};
use crate::isa::{is_inline_f32, is_inline_int, Fmt, Kind, Opc};
use std::collections::HashMap;

/// Parses a listing. Errors name the 1-based line and quote the offending text.
pub fn parse(text: &str) -> Result<Program, ParseError> {
    let mut p = Parser::default();
    for (i, raw) in text.lines().enumerate() {
        p.line = i as u32 + 1;
        p.line_text(raw)?;
    }
    p.finish()
}

/// An operand `(TO-FROM)&4294967295` or `(TO-FROM)>>32`: the low or high half of the byte
/// distance between two labels. Addresses are 4 bytes per instruction here (`s_getpc_b64`
/// gives 4 × the index of the next one), so a long branch lands where the assembler's does.
struct Diff {
    inst: usize,
    slot: usize,
    to: String,
    from: String,
    hi: bool,
    line: u32,
}

/// The parts of a label difference operand, if `piece` is one.
fn label_diff(piece: &str) -> Option<(String, String, bool)> {
    let (expr, hi) = match piece.strip_suffix("&4294967295") {
        Some(e) => (e, false),
        None => (piece.strip_suffix(">>32")?, true),
    };
    let (to, from) = expr.strip_prefix('(')?.strip_suffix(')')?.split_once('-')?;
    let (to, from) = (to.trim(), from.trim());
    (is_ident(to) && is_ident(from)).then(|| (to.to_string(), from.to_string(), hi))
}

#[derive(Default)]
struct Parser {
    line: u32,
    insts: Vec<Inst>,
    texts: Vec<String>,
    labels: Vec<(u32, String)>,
    label_at: HashMap<String, u32>,
    /// Branches to resolve: (instruction index, operand slot, label, line).
    fixups: Vec<(usize, usize, String, u32)>,
    /// Label differences to resolve (a long branch's offset).
    diffs: Vec<Diff>,
    descs: Vec<(String, Descriptor, u32)>,
    in_desc: Option<(String, Descriptor)>,
    metadata: Option<String>,
    in_metadata: bool,
    globals: Vec<String>,
}

impl Parser {
    fn err(&self, message: String) -> ParseError {
        ParseError {
            line: self.line,
            message,
        }
    }

    fn line_text(&mut self, raw: &str) -> Result<(), ParseError> {
        if self.in_metadata {
            if raw.trim() == ".end_amdgpu_metadata" {
                self.in_metadata = false;
            } else {
                let m = self.metadata.get_or_insert_with(String::new);
                m.push_str(raw);
                m.push('\n');
            }
            return Ok(());
        }
        let mut s = strip_comment(raw).trim();
        // Leading labels: `name:` (possibly several, possibly followed by code).
        while let Some(n) = label_prefix(s) {
            let name = &s[..n];
            if self.in_desc.is_some() {
                return Err(self.err(format!("label `{name}` inside .amdhsa_kernel")));
            }
            let idx = self.insts.len() as u32;
            if self.label_at.insert(name.to_string(), idx).is_some() {
                return Err(self.err(format!("label `{name}` defined twice")));
            }
            self.labels.push((idx, name.to_string()));
            s = s[n + 1..].trim_start();
        }
        if s.is_empty() {
            return Ok(());
        }
        if s.starts_with('.') {
            return self.directive(s);
        }
        if self.in_desc.is_some() {
            return Err(self.err(format!("instruction inside .amdhsa_kernel: `{s}`")));
        }
        let inst = self.instruction(s)?;
        self.insts.push(inst);
        self.texts.push(s.to_string());
        Ok(())
    }

    fn directive(&mut self, s: &str) -> Result<(), ParseError> {
        let (name, rest) = split_word(s);
        match name {
            ".amdgpu_metadata" => {
                self.in_metadata = true;
                self.metadata.get_or_insert_with(String::new);
            }
            ".amdhsa_kernel" => {
                if self.in_desc.is_some() {
                    return Err(self.err("nested .amdhsa_kernel".into()));
                }
                self.in_desc = Some((rest.trim().to_string(), Descriptor::default()));
            }
            ".end_amdhsa_kernel" => match self.in_desc.take() {
                Some((n, d)) => self.descs.push((n, d, self.line)),
                None => return Err(self.err(".end_amdhsa_kernel without .amdhsa_kernel".into())),
            },
            ".globl" | ".global" => self.globals.push(rest.trim().to_string()),
            _ if name.starts_with(".amdhsa_") && self.in_desc.is_some() => {
                let v = parse_int(rest.trim()).ok_or_else(|| {
                    self.err(format!(
                        "descriptor values must be integers (expressions and symbols are \
                         not evaluated): `{s}`"
                    ))
                })?;
                let (_, d) = self.in_desc.as_mut().unwrap();
                set_desc(d, name, v as u64);
            }
            // .text, .p2align, .type, .size, .rodata, .amdgcn_target, ...: no effect here.
            _ => {}
        }
        Ok(())
    }

    fn finish(self) -> Result<Program, ParseError> {
        if self.in_desc.is_some() {
            return Err(self.err("missing .end_amdhsa_kernel".into()));
        }
        if self.in_metadata {
            return Err(self.err("missing .end_amdgpu_metadata".into()));
        }
        let mut insts = self.insts;
        let mut back_edges = Vec::new();
        for (i, slot, name, line) in &self.fixups {
            let t = *self.label_at.get(name).ok_or_else(|| ParseError {
                line: *line,
                message: format!("undefined label `{name}`"),
            })?;
            insts[*i].ops[*slot] = Op::Label(t);
            if t as usize <= *i {
                back_edges.push((t, *i as u32));
            }
        }
        for d in &self.diffs {
            let at = |name: &String| {
                self.label_at.get(name).copied().ok_or_else(|| ParseError {
                    line: d.line,
                    message: format!("undefined label `{name}`"),
                })
            };
            let bytes = 4 * (at(&d.to)? as i64 - at(&d.from)? as i64);
            let half = if d.hi { bytes >> 32 } else { bytes };
            insts[d.inst].ops[d.slot] = Op::K(half as u64 & 0xffff_ffff);
        }
        let mut kernels = Vec::new();
        for (name, desc, line) in self.descs {
            let entry = *self.label_at.get(&name).ok_or_else(|| ParseError {
                line,
                message: format!(".amdhsa_kernel `{name}` has no code label `{name}:`"),
            })?;
            kernels.push(Kernel {
                name,
                entry,
                end: 0,
                desc,
                sgprs_used: 0,
                vgprs_used: 0,
            });
        }
        // A kernel's code runs to the next kernel's entry or global symbol (clang's OpenCL
        // listings follow each kernel with a callable copy, `__clang_ocl_kern_imp_NAME`), or
        // the end of the listing.
        let mut starts: Vec<u32> = kernels
            .iter()
            .map(|k| k.entry)
            .chain(
                self.globals
                    .iter()
                    .filter_map(|g| self.label_at.get(g).copied()),
            )
            .collect();
        starts.sort_unstable();
        for k in &mut kernels {
            k.end = starts
                .iter()
                .copied()
                .find(|&s| s > k.entry)
                .unwrap_or(insts.len() as u32);
            for inst in &insts[k.entry as usize..k.end as usize] {
                for op in inst.ops {
                    match op {
                        Op::S(r, n) if (r as u32) < 102 => {
                            k.sgprs_used = k.sgprs_used.max(r as u32 + n as u32)
                        }
                        Op::V(r, n) => k.vgprs_used = k.vgprs_used.max(r as u32 + n as u32),
                        _ => {}
                    }
                }
            }
        }
        let mut labels = self.labels;
        labels.sort_by_key(|l| l.0);
        Ok(Program {
            insts,
            texts: self.texts,
            labels,
            back_edges,
            kernels,
            metadata: self.metadata,
        })
    }

    fn instruction(&mut self, s: &str) -> Result<Inst, ParseError> {
        let (mn, rest) = split_word(s);
        // `_dpp`: the VOP1/VOP2 encoding with a DPP word (the rules of the e32 spelling).
        let dpp_stem = mn.strip_suffix("_dpp");
        let resolved = match dpp_stem {
            Some(stem) => resolve_mnemonic(&format!("{stem}_e32"))
                .filter(|&(o, _, _)| crate::dpp::capable(o))
                .map(|(o, _, _)| (o, true, false)),
            None => resolve_mnemonic(mn),
        };
        // A control-flow pseudo is MIR only, not an instruction.
        let (opc, spelled_e32, spelled_e64) = resolved
            .filter(|(o, _, _)| !o.desc().is_pseudo())
            .ok_or_else(|| self.err(format!("unknown instruction `{mn}` in `{s}`")))?;
        let d = opc.desc();
        let mut inst = Inst::new(opc, self.line);
        if opc == Opc::S_WAITCNT {
            let (vm, lgkm) = parse_waitcnt(rest).map_err(|m| self.err(format!("{m} in `{s}`")))?;
            inst.vm = vm;
            inst.lgkm = lgkm;
            return Ok(inst);
        }
        let (mut pieces, mut mods) = split_operands(rest);
        // With no operands, every word is a modifier (`buffer_wbl2 sc1`).
        if d.operands.is_empty() && d.mem {
            mods.splice(0..0, pieces.drain(..));
        }
        // Modifiers after the operands.
        for m in &mods {
            let (key, value) = m.split_once(':').unwrap_or((m, ""));
            if dpp_stem.is_some() && crate::dpp::Dpp::is_key(key) {
                crate::dpp::Dpp::set(&mut inst.dpp, key, value)
                    .map_err(|e| self.err(format!("{e} in `{s}`")))?;
                continue;
            }
            self.modifier(&mut inst, m, s)?;
        }
        if dpp_stem.is_some() && inst.dpp.is_none() {
            return Err(self.err(format!("`{mn}` without a DPP control: `{s}`")));
        }
        let mut kinds: Vec<Kind> = d.operands.to_vec();
        let returning_atomic = d.fmt == Fmt::Global && d.defs == 1 && kinds.len() == 4;
        let mut skip_dst = false;
        if returning_atomic {
            if pieces.len() == 3 {
                skip_dst = true; // the non-returning form has no vdst
                if inst.sc0 {
                    return Err(self.err(format!(
                        "`sc0` asks a non-returning atomic to return a value: `{s}`"
                    )));
                }
            } else if !inst.sc0 {
                return Err(self.err(format!(
                    "a returning atomic (with vdst) must use sc0: `{s}`"
                )));
            }
            inst.ret = !skip_dst;
        }
        let first = usize::from(skip_dst);
        if pieces.len() != kinds.len() - first {
            return Err(self.err(format!(
                "`{mn}` takes {} operands, found {}: `{s}`",
                kinds.len() - first,
                pieces.len()
            )));
        }
        // Global with `off`: the address operand is a 64-bit VGPR pair.
        if d.fmt == Fmt::Global && pieces.last().map(|p| p.trim()) == Some("off") {
            let a = if d.defs == 1 { 1 } else { 0 };
            kinds[a] = Kind::VReg(2);
        }
        let vop3 = is_vop3(d.fmt, spelled_e32, spelled_e64);
        if vop3 && matches!(d.fmt, Fmt::Vop1 | Fmt::Vop2) {
            // The VOP3 encoding of a VOP1/VOP2 op takes any source in every source slot.
            for k in kinds.iter_mut().skip(d.defs as usize) {
                if let Kind::VReg(n) = *k {
                    *k = Kind::VSrc(n);
                }
            }
        }
        if inst.clamp && !vop3 {
            return Err(self.err(format!("`clamp` needs the VOP3 (e64) form: `{s}`")));
        }
        let fp_mods = vop3 && takes_fp_mods(opc);
        for (j, piece) in pieces.iter().enumerate() {
            let slot = j + first;
            if let (Kind::SSrc(1), Some((to, from, hi))) = (kinds[slot], label_diff(piece.trim())) {
                self.diffs.push(Diff {
                    inst: self.insts.len(),
                    slot,
                    to,
                    from,
                    hi,
                    line: self.line,
                });
                // A literal (resolved at the end): any value outside the inline range.
                inst.ops[slot] = Op::K(0xffff_ffff);
                continue;
            }
            let (op, m) = self.operand(piece, kinds[slot], opc, s)?;
            if m != 0 && !fp_mods {
                return Err(self.err(format!(
                    "neg/abs modifiers need the VOP3 form of a float op: `{s}`"
                )));
            }
            if let Op::Label(_) = op {
                self.fixups
                    .push((self.insts.len(), slot, piece.trim().to_string(), self.line));
            }
            inst.ops[slot] = op;
            inst.mods[slot] = m;
        }
        self.check_encoding(&inst, &kinds, vop3, spelled_e32, s)?;
        if is_vop3p(opc) {
            self.check_vop3p(&inst, s)?;
        }
        if inst.dpp.is_some() {
            // The DPP word holds src0's register: no constant, no SGPR anywhere.
            let defs = d.defs as usize;
            for (j, k) in kinds.iter().enumerate().skip(defs) {
                if matches!(k, Kind::VSrc(_) | Kind::VReg(_)) && !matches!(inst.ops[j], Op::V(..)) {
                    return Err(self.err(format!("DPP sources must be VGPRs: `{s}`")));
                }
            }
        }
        Ok(inst)
    }

    fn modifier(&self, inst: &mut Inst, m: &str, s: &str) -> Result<(), ParseError> {
        let d = inst.opc.desc();
        let (key, value) = m.split_once(':').unwrap_or((m, ""));
        if is_vop3p(inst.opc) {
            let slot = match key {
                "op_sel" => 0,
                "op_sel_hi" => 1,
                "neg_lo" => 2,
                "neg_hi" => 3,
                _ => return Err(self.err(format!("unexpected `{m}` in `{s}`"))),
            };
            let n = d.operands.len() - d.defs as usize;
            inst.pk[slot] = parse_bits(value, n)
                .ok_or_else(|| self.err(format!("expected {n} bits `[0,1,..]`: `{m}` in `{s}`")))?;
            return Ok(());
        }
        if m == "clamp" && clamps_int(inst.opc) {
            inst.clamp = true;
            return Ok(());
        }
        if is_ds2(inst.opc) {
            let v = match key {
                "offset0" | "offset1" => parse_int(value).filter(|v| (0..=255).contains(v)),
                _ => return Err(self.err(format!("unexpected `{m}` in `{s}`"))),
            }
            .ok_or_else(|| self.err(format!("{key} must be 0..255 in `{s}`")))?;
            if key == "offset0" {
                inst.offset = v as i32;
            } else {
                inst.offset1 = v as u8;
            }
            return Ok(());
        }
        if !d.mem {
            return Err(self.err(format!("unexpected `{m}` in `{s}`")));
        }
        match m {
            "sc0" | "glc" => inst.sc0 = true,
            "sc1" | "nt" | "slc" => {}
            _ => {
                let v = m
                    .strip_prefix("offset:")
                    .and_then(parse_int)
                    .ok_or_else(|| self.err(format!("unexpected `{m}` in `{s}`")))?;
                let ok = match d.fmt {
                    Fmt::Ds => (0..=0xffff).contains(&v),
                    _ => (-4096..=4095).contains(&v),
                };
                if !ok {
                    return Err(self.err(format!("offset {v} out of range in `{s}`")));
                }
                inst.offset = v as i32;
            }
        }
        if inst.sc0 && d.fmt == Fmt::Ds {
            return Err(self.err(format!("`{m}` is not a DS modifier: `{s}`")));
        }
        Ok(())
    }

    /// One operand for slot kind `k`; returns it and its fp modifier bits.
    fn operand(&self, piece: &str, k: Kind, opc: Opc, s: &str) -> Result<(Op, u8), ParseError> {
        let piece = piece.trim();
        let (core, mods) = strip_fp_mods(piece);
        let bad = |what: &str| self.err(format!("operand `{piece}` is not {what} in `{s}`"));
        let op = match k {
            Kind::Label => {
                if !is_ident(piece) {
                    return Err(bad("a label"));
                }
                Op::Label(u32::MAX)
            }
            Kind::Imm => match parse_hwreg(piece).or_else(|| parse_int(piece)) {
                Some(v) if (0..=0xffff).contains(&v) => Op::K(v as u64),
                // A signed 16-bit immediate may be written negative.
                Some(v) if (-0x8000..0).contains(&v) && signed_simm16(opc) => {
                    Op::K(v as u16 as u64)
                }
                _ => return Err(bad("a 16-bit immediate")),
            },
            Kind::Waitcnt => unreachable!("handled by the caller"),
            Kind::SAddr => match piece {
                "off" => Op::Off,
                _ => match self.register(piece, s)? {
                    Some(op @ Op::S(_, 2)) => op,
                    _ => return Err(bad("`off` or an SGPR pair")),
                },
            },
            Kind::VAddr => match piece {
                "off" => Op::Off,
                _ => match self.register(piece, s)? {
                    Some(op @ Op::V(_, 1)) => op,
                    _ => return Err(bad("`off` or a VGPR")),
                },
            },
            Kind::SBase => match piece {
                "off" => Op::Off,
                _ => match self.register(piece, s)? {
                    Some(op @ Op::S(_, 1)) => op,
                    _ => return Err(bad("`off` or an SGPR")),
                },
            },
            Kind::SReg(n) => match self.register(piece, s)? {
                Some(op @ Op::S(_, w)) if w == n => op,
                _ => return Err(bad(&format!("a {}-dword scalar register", n))),
            },
            Kind::VReg(n) => match self.register(piece, s)? {
                Some(op @ Op::V(_, w)) if w == n => op,
                _ => return Err(bad(&format!("a {}-dword VGPR", n))),
            },
            Kind::SSrc(n) | Kind::VSrc(n) => {
                let vector = matches!(k, Kind::VSrc(_));
                match self.register(core, s)? {
                    Some(op @ Op::S(_, w)) if w == n => op,
                    Some(op @ Op::V(_, w)) if w == n && vector => op,
                    Some(_) => return Err(bad(&format!("a {}-dword source", n))),
                    None => Op::K(self.constant(core, n, opc, s)?),
                }
            }
        };
        Ok((op, mods))
    }

    /// A register operand, or `None` if the text is not a register name.
    fn register(&self, t: &str, s: &str) -> Result<Option<Op>, ParseError> {
        let named = match t {
            "vcc" => Some(Op::S(VCC, 2)),
            "vcc_lo" => Some(Op::S(VCC, 1)),
            "vcc_hi" => Some(Op::S(VCC + 1, 1)),
            "exec" => Some(Op::S(EXEC, 2)),
            "exec_lo" => Some(Op::S(EXEC, 1)),
            "exec_hi" => Some(Op::S(EXEC + 1, 1)),
            "m0" => Some(Op::S(M0, 1)),
            _ => None,
        };
        if named.is_some() {
            return Ok(named);
        }
        let (file, body) = match t.as_bytes().first() {
            Some(b's') => ('s', &t[1..]),
            Some(b'v') => ('v', &t[1..]),
            _ => return Ok(None),
        };
        let (lo, n) = if let Some(inner) = body.strip_prefix('[').and_then(|b| b.strip_suffix(']'))
        {
            let (a, b) = inner
                .split_once(':')
                .ok_or_else(|| self.err(format!("bad register range `{t}` in `{s}`")))?;
            let (a, b): (u32, u32) = match (a.trim().parse(), b.trim().parse()) {
                (Ok(a), Ok(b)) if b >= a => (a, b),
                _ => return Err(self.err(format!("bad register range `{t}` in `{s}`"))),
            };
            (a, b - a + 1)
        } else if !body.is_empty() && body.bytes().all(|c| c.is_ascii_digit()) {
            (body.parse::<u32>().unwrap_or(u32::MAX), 1)
        } else {
            return Ok(None);
        };
        let (max, what) = if file == 's' {
            (102, "SGPRs are s0..s101 on gfx942")
        } else {
            (256, "VGPRs are v0..v255")
        };
        // SGPR tuples of 8 and 16 dwords are `s_load_dwordx8` / `x16` destinations.
        let widths: &[u32] = if file == 's' {
            &[1, 2, 3, 4, 8, 16]
        } else {
            &[1, 2, 3, 4]
        };
        if lo.saturating_add(n) > max || !widths.contains(&n) {
            return Err(self.err(format!("register `{t}` out of range ({what}) in `{s}`")));
        }
        // SGPR tuples are aligned to their size (max 4); VGPR tuples on gfx90a+ to 2.
        let align = if file == 's' { n.min(4) } else { n.min(2) };
        if n > 1 && lo % align != 0 {
            return Err(self.err(format!("misaligned register tuple `{t}` in `{s}`")));
        }
        Ok(Some(if file == 's' {
            Op::S(lo as u8, n as u8)
        } else {
            Op::V(lo as u8, n as u8)
        }))
    }

    /// A constant operand of `n` dwords, as the hardware reads it.
    fn constant(&self, t: &str, n: u8, opc: Opc, s: &str) -> Result<u64, ParseError> {
        if let Some(bits) = parse_f32(t) {
            // A packed-f32 source's constant is one f32 (see `check_vop3p`).
            if n == 2 && !is_vop3p(opc) {
                return Err(self.err(format!(
                    "float constant `{t}` in a 64-bit operand is not supported: `{s}`"
                )));
            }
            return Ok(bits as u64);
        }
        let v = parse_int(t).ok_or_else(|| self.err(format!("bad operand `{t}` in `{s}`")))?;
        if n == 1 {
            if !(-(1i64 << 31)..(1i64 << 32)).contains(&v) {
                return Err(self.err(format!("constant `{t}` does not fit 32 bits in `{s}`")));
            }
            return Ok(v as u32 as u64);
        }
        if is_inline_int(v) {
            return Ok(v as u64);
        }
        // A 64-bit operand's literal is 32 bits: sign-extended for signed operands,
        // zero-extended otherwise. Reject a written value the hardware would not see.
        let signed = opc == Opc::S_ASHR_I64;
        let hw = if signed {
            v as i32 as i64
        } else {
            v as u32 as i64
        };
        if hw != v {
            return Err(self.err(format!(
                "literal `{t}` in a 64-bit operand reads as {:#x} on the hardware \
                 (32-bit literals are {}-extended): `{s}`",
                hw as u64,
                if signed { "sign" } else { "zero" }
            )));
        }
        Ok(v as u64)
    }

    /// A constant source of a packed-f32 op is a single 32-bit value (an inline constant:
    /// VOP3P has no literal); clang selects its low half for both results (`op_sel_hi` bit
    /// 0). Reading its high half is not modelled, so such a listing is refused.
    fn check_vop3p(&self, inst: &Inst, s: &str) -> Result<(), ParseError> {
        for j in 0..3 {
            if let Op::K(_) = inst.ops[1 + j] {
                if (inst.pk[0] | inst.pk[1]) >> j & 1 != 0 {
                    return Err(self.err(format!(
                        "the high half of a constant in a packed f32 op is not supported \
                         (select its low half with op_sel/op_sel_hi): `{s}`"
                    )));
                }
            }
        }
        Ok(())
    }

    fn check_encoding(
        &self,
        inst: &Inst,
        kinds: &[Kind],
        vop3: bool,
        spelled_e32: bool,
        s: &str,
    ) -> Result<(), ParseError> {
        let d = inst.opc.desc();
        // Its value is the 32-bit literal after the instruction word, never a register.
        if inst.opc == Opc::S_SETREG_IMM32_B32 && !matches!(inst.ops[1], Op::K(_)) {
            return Err(self.err(format!("s_setreg_imm32_b32 takes a constant: `{s}`")));
        }
        if d.fmt == Fmt::Smem {
            if !matches!(inst.ops[1], Op::S(_, 2)) {
                return Err(self.err(format!("the SMEM base must be an SGPR pair: `{s}`")));
            }
            if let Op::K(k) = inst.ops[2] {
                if !(-0x10_0000..0x10_0000).contains(&(k as u32 as i32)) {
                    return Err(self.err(format!("expected a 21-bit signed offset: `{s}`")));
                }
            }
            return Ok(());
        }
        if !matches!(
            d.fmt,
            Fmt::Vop1 | Fmt::Vop2 | Fmt::Vop3 | Fmt::Vopc | Fmt::Sop1 | Fmt::Sop2 | Fmt::Sopc
        ) {
            return Ok(());
        }
        let defs = d.defs as usize;
        let mut literals = Vec::new();
        for (j, op) in inst.ops.iter().enumerate().skip(defs) {
            if let Op::K(v) = *op {
                // A packed-f32 source's constant is a 32-bit inline constant.
                let k = if is_vop3p(inst.opc) {
                    Kind::VSrc(1)
                } else {
                    kinds[j]
                };
                if !is_inline(v, k) {
                    literals.push((j, v));
                }
            }
        }
        let salu = matches!(d.fmt, Fmt::Sop1 | Fmt::Sop2 | Fmt::Sopc);
        if salu {
            if literals.len() > 1 && literals.iter().any(|l| l.1 != literals[0].1) {
                return Err(self.err(format!("only one literal per instruction: `{s}`")));
            }
            return Ok(());
        }
        if vop3 && !literals.is_empty() {
            return Err(self.err(format!(
                "literal operands are not supported in VOP3 on gfx942: `{s}`"
            )));
        }
        if !vop3 && literals.iter().any(|l| l.0 != defs) {
            return Err(self.err(format!("a literal must be src0: `{s}`")));
        }
        if spelled_e32 && d.fmt != Fmt::Vop1 && d.fmt != Fmt::Vop2 {
            // An e32 spelling of a VOP3-row op: SGPR-pair operands are VCC, src1 a VGPR.
            for (j, k) in kinds.iter().enumerate() {
                if matches!(k, Kind::SReg(2) | Kind::SSrc(2)) && inst.ops[j] != Op::S(VCC, 2) {
                    return Err(self.err(format!("the e32 form takes vcc here: `{s}`")));
                }
            }
            let mut srcs = (defs..kinds.len()).filter(|&j| matches!(kinds[j], Kind::VSrc(_)));
            if let Some(j) = srcs.nth(1) {
                if !matches!(inst.ops[j], Op::V(..)) {
                    return Err(self.err(format!("src1 of an e32 form must be a VGPR: `{s}`")));
                }
            }
        }
        // Constant bus: distinct SGPR operands read, literals and implicit VCC reads. The
        // lane select of `v_writelane_b32` may be M0 besides an SGPR value (llvm-mc accepts
        // `v_writelane_b32 v1, s2, m0`: M0 is not read over the constant bus there).
        let mut sgprs: Vec<Op> = Vec::new();
        for (j, op) in inst.ops.iter().enumerate().skip(defs) {
            let m0_lane = inst.opc == Opc::V_WRITELANE_B32 && j == 2 && *op == Op::S(M0, 1);
            if matches!(op, Op::S(..)) && !sgprs.contains(op) && !m0_lane {
                sgprs.push(*op);
            }
        }
        if inst.opc == Opc::V_DIV_FMAS_F32 && !sgprs.contains(&Op::S(VCC, 2)) {
            sgprs.push(Op::S(VCC, 2));
        }
        let bus = sgprs.len() + usize::from(!literals.is_empty());
        if bus > 1 {
            return Err(self.err(format!(
                "violates the constant bus limit (one SGPR or literal per VALU \
                 instruction on gfx942): `{s}`"
            )));
        }
        Ok(())
    }
}

/// Is constant `v` (stored as read) an inline constant for a slot of kind `k`?
fn is_inline(v: u64, k: Kind) -> bool {
    let n = match k {
        Kind::SSrc(n) | Kind::VSrc(n) => n,
        _ => return true,
    };
    if n == 2 {
        return is_inline_int(v as i64);
    }
    is_inline_int(v as u32 as i32 as i64) || is_inline_f32(v as u32)
}

/// Is the instruction, as spelled, encoded as VOP3 (no literals, fp modifiers allowed)?
fn is_vop3(fmt: Fmt, spelled_e32: bool, spelled_e64: bool) -> bool {
    match fmt {
        Fmt::Vop1 | Fmt::Vop2 => spelled_e64,
        Fmt::Vop3 | Fmt::Vopc => !spelled_e32,
        _ => false,
    }
}

/// Ops whose VOP3 form takes neg/abs source modifiers (float sources; v_cndmask too).
fn takes_fp_mods(opc: Opc) -> bool {
    use Opc::*;
    matches!(
        opc,
        V_CVT_I32_F32
            | V_CVT_U32_F32
            | V_RCP_F32
            | V_RCP_IFLAG_F32
            | V_ADD_F32
            | V_SUB_F32
            | V_SUBREV_F32
            | V_MUL_F32
            | V_MIN_F32
            | V_MAX_F32
            | V_CNDMASK_B32
            | V_FMA_F32
            | V_DIV_SCALE_F32
            | V_DIV_FMAS_F32
            | V_DIV_FIXUP_F32
            | V_CMP_EQ_F32
            | V_CMP_LG_F32
            | V_CMP_LT_F32
            | V_CMP_LE_F32
            | V_CMP_GT_F32
            | V_CMP_GE_F32
            | V_CMP_O_F32
            | V_CMP_U_F32
            | V_CMP_NEQ_F32
            | V_CMP_NLG_F32
            | V_CMP_NGE_F32
            | V_CMP_NGT_F32
            | V_CMP_NLE_F32
            | V_CMP_NLT_F32
    )
}

/// Integer adds/subtracts whose VOP3 form takes `clamp` (unsigned saturation).
fn clamps_int(o: Opc) -> bool {
    use Opc::*;
    matches!(
        o,
        V_ADD_U32 | V_ADD_U32_E64 | V_SUB_U32 | V_SUB_U32_E64 | V_SUBREV_U32
    )
}

/// VOP3P packed ops: `op_sel` / `op_sel_hi` / `neg_lo` / `neg_hi` modifiers.
pub(crate) fn is_vop3p(o: Opc) -> bool {
    matches!(o, Opc::V_PK_ADD_F32 | Opc::V_PK_MUL_F32 | Opc::V_PK_FMA_F32)
}

/// `ds_read2*` / `ds_write2*`: `offset0:` / `offset1:` modifiers instead of `offset:`.
pub(crate) fn is_ds2(o: Opc) -> bool {
    use Opc::*;
    matches!(
        o,
        DS_READ2_B32
            | DS_READ2ST64_B32
            | DS_READ2_B64
            | DS_READ2ST64_B64
            | DS_WRITE2_B32
            | DS_WRITE2ST64_B32
            | DS_WRITE2_B64
            | DS_WRITE2ST64_B64
    )
}

/// SOPK ops whose immediate is a signed 16-bit value.
fn signed_simm16(o: Opc) -> bool {
    use Opc::*;
    matches!(
        o,
        S_MOVK_I32
            | S_CMPK_EQ_I32
            | S_CMPK_LG_I32
            | S_CMPK_GT_I32
            | S_CMPK_GE_I32
            | S_CMPK_LT_I32
            | S_CMPK_LE_I32
            | S_ADDK_I32
            | S_MULK_I32
    )
}

/// `[b0,b1,..]` with exactly `n` bits 0/1: bit i is source i.
fn parse_bits(t: &str, n: usize) -> Option<u8> {
    let inner = t.strip_prefix('[')?.strip_suffix(']')?;
    let mut bits = 0u8;
    let mut count = 0;
    for (i, b) in inner.split(',').enumerate() {
        match b.trim() {
            "0" => {}
            "1" => bits |= 1 << i,
            _ => return None,
        }
        count += 1;
    }
    (count == n).then_some(bits)
}

/// The table opcode of a mnemonic, accepting the other `_e32`/`_e64` spelling (or none).
/// Returns (opcode, spelled with `_e32`, spelled with `_e64`).
fn resolve_mnemonic(mn: &str) -> Option<(Opc, bool, bool)> {
    let e32 = mn.ends_with("_e32");
    let e64 = mn.ends_with("_e64");
    if let Some(o) = Opc::from_name(mn) {
        return Some((o, e32, e64));
    }
    if e32 || e64 {
        let base = &mn[..mn.len() - 4];
        let other = if e32 { "_e64" } else { "_e32" };
        let o = Opc::from_name(&format!("{base}{other}"))
            .or_else(|| Opc::from_name(base))
            .filter(|o| matches!(o.desc().fmt, Fmt::Vop1 | Fmt::Vop2 | Fmt::Vop3 | Fmt::Vopc))?;
        // `_e32` of an op that only exists as VOP3 (v_mul_lo_u32_e32) is not an encoding,
        // nor is `_e64` of v_readfirstlane_b32.
        if e32 && o.desc().fmt == Fmt::Vop3 && !has_e32_form(o) {
            return None;
        }
        if e64 && o == Opc::V_READFIRSTLANE_B32 {
            return None;
        }
        return Some((o, e32, e64));
    }
    Opc::from_name(&format!("{mn}_e32"))
        .or_else(|| Opc::from_name(&format!("{mn}_e64")))
        .map(|o| (o, false, false))
}

/// VOP3-row ops that also have a VOP2/VOPC (e32) encoding with VCC implicit.
fn has_e32_form(o: Opc) -> bool {
    use Opc::*;
    matches!(
        o,
        V_ADD_CO_U32
            | V_ADDC_CO_U32
            | V_SUB_CO_U32
            | V_SUBREV_CO_U32
            | V_SUBB_CO_U32
            | V_SUBBREV_CO_U32
            | V_CNDMASK_B32
    ) || o.desc().fmt == Fmt::Vopc
}

fn set_desc(d: &mut Descriptor, name: &str, v: u64) {
    let b = v != 0;
    let key = &name[".amdhsa_".len()..];
    match key {
        "kernarg_size" => d.kernarg_size = v as u32,
        "group_segment_fixed_size" => d.group_segment_fixed_size = v as u32,
        "private_segment_fixed_size" => d.private_segment_fixed_size = v as u32,
        "next_free_vgpr" => d.next_free_vgpr = v as u32,
        "next_free_sgpr" => d.next_free_sgpr = v as u32,
        "accum_offset" => d.accum_offset = v as u32,
        "user_sgpr_count" => d.user_sgpr_count = Some(v as u32),
        "user_sgpr_dispatch_ptr" => d.user_sgpr_dispatch_ptr = b,
        "user_sgpr_queue_ptr" => d.user_sgpr_queue_ptr = b,
        "user_sgpr_kernarg_segment_ptr" => d.user_sgpr_kernarg_segment_ptr = b,
        "user_sgpr_dispatch_id" => d.user_sgpr_dispatch_id = b,
        "user_sgpr_private_segment_buffer" => d.user_sgpr_private_segment_buffer = b,
        "user_sgpr_flat_scratch_init" => d.user_sgpr_flat_scratch_init = b,
        "user_sgpr_kernarg_preload_length" => d.user_sgpr_kernarg_preload_length = v as u32,
        "system_sgpr_private_segment_wavefront_offset" | "enable_private_segment" => {
            d.enable_private_segment = b
        }
        "system_sgpr_workgroup_id_x" => d.workgroup_id[0] = b,
        "system_sgpr_workgroup_id_y" => d.workgroup_id[1] = b,
        "system_sgpr_workgroup_id_z" => d.workgroup_id[2] = b,
        "system_sgpr_workgroup_info" => d.workgroup_info = b,
        "system_vgpr_workitem_id" => d.workitem_id = v as u32,
        "float_round_mode_32" => d.float_round_mode_32 = v as u32,
        "float_round_mode_16_64" => d.float_round_mode_16_64 = v as u32,
        "float_denorm_mode_32" => d.float_denorm_mode_32 = v as u32,
        "float_denorm_mode_16_64" => d.float_denorm_mode_16_64 = v as u32,
        "dx10_clamp" => d.dx10_clamp = b,
        "ieee_mode" => d.ieee_mode = b,
        _ => {}
    }
    d.raw.push((name.to_string(), v));
}

/// `s_waitcnt` operands: `vmcnt(N) expcnt(N) lgkmcnt(N)` in any subset, separated by
/// spaces, `&` or `,`; or a raw 16-bit immediate in the gfx9 encoding.
fn parse_waitcnt(rest: &str) -> Result<(u8, u8), String> {
    let rest = rest.trim();
    if let Some(v) = parse_int(rest) {
        if !(0..=0xffff).contains(&v) {
            return Err(format!("s_waitcnt immediate {v} out of range"));
        }
        let vm = (v & 0xf) | ((v >> 14) & 3) << 4;
        let lgkm = (v >> 8) & 0xf;
        return Ok((vm as u8, lgkm as u8));
    }
    let (mut vm, mut lgkm) = (NOWAIT, NOWAIT);
    let mut any = false;
    for tok in rest.split(|c: char| c.is_whitespace() || c == '&' || c == ',') {
        if tok.is_empty() {
            continue;
        }
        let (name, arg) = tok
            .strip_suffix(')')
            .and_then(|t| t.split_once('('))
            .ok_or_else(|| format!("bad s_waitcnt operand `{tok}`"))?;
        let n = parse_int(arg).ok_or_else(|| format!("bad s_waitcnt count `{tok}`"))?;
        let (max, slot) = match name {
            "vmcnt" => (63, Some(&mut vm)),
            "lgkmcnt" => (15, Some(&mut lgkm)),
            "expcnt" => (7, None),
            _ => return Err(format!("bad s_waitcnt counter `{tok}`")),
        };
        if !(0..=max).contains(&n) {
            return Err(format!("too large value for {name}: {n}"));
        }
        if let Some(s) = slot {
            *s = n as u8;
        }
        any = true;
    }
    if !any {
        return Err("s_waitcnt needs a counter".into());
    }
    Ok((vm, lgkm))
}

/// `hwreg(HW_REG_MODE, offset, size)` as the 16-bit immediate it encodes (only the MODE
/// register is named; `s_getreg_b32` reads the control stack pointer from it).
fn parse_hwreg(t: &str) -> Option<i64> {
    let inner = t.strip_prefix("hwreg(")?.strip_suffix(')')?;
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let [id, off, size] = parts.as_slice() else {
        return None;
    };
    let id = match *id {
        "HW_REG_MODE" => 1,
        _ => return None,
    };
    let (off, size) = (parse_int(off)?, parse_int(size)?);
    if !(0..32).contains(&off) || !(1..=32).contains(&size) {
        return None;
    }
    Some(((size - 1) << 11) | (off << 6) | id)
}

/// Splits `a, b, c mod1 mod2` into operand texts and trailing modifiers, keeping commas
/// inside brackets, parentheses and `|...|` together.
fn split_operands(rest: &str) -> (Vec<String>, Vec<String>) {
    let mut pieces = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    let mut in_abs = false;
    for c in rest.chars() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            '|' => in_abs = !in_abs,
            ',' if depth == 0 && !in_abs => {
                pieces.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    let mut mods = Vec::new();
    let last = cur.trim();
    if !last.is_empty() {
        // The operand ends at the first blank outside parentheses (`hwreg(HW_REG_MODE, 29, 3)`).
        let mut depth = 0i32;
        let end = last
            .char_indices()
            .find(|&(_, c)| {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                c.is_whitespace() && depth == 0
            })
            .map_or(last.len(), |(i, _)| i);
        pieces.push(last[..end].to_string());
        mods.extend(last[end..].split_whitespace().map(str::to_string));
    }
    (pieces, mods)
}

/// `-x`, `|x|`, `-|x|`, `neg(x)`, `abs(x)` around a register: the core text and the bits.
/// A leading `-` on a number is the number's sign, not a modifier.
fn strip_fp_mods(t: &str) -> (&str, u8) {
    let mut m = 0;
    let mut t = t.trim();
    if let Some(r) = t.strip_prefix("neg(").and_then(|r| r.strip_suffix(')')) {
        m |= NEG;
        t = r;
    } else if let Some(r) = t.strip_prefix('-') {
        if r.starts_with(['v', 's', '|']) || r.starts_with("abs(") {
            m |= NEG;
            t = r;
        }
    }
    if let Some(r) = t.strip_prefix('|').and_then(|r| r.strip_suffix('|')) {
        m |= ABS;
        t = r;
    } else if let Some(r) = t.strip_prefix("abs(").and_then(|r| r.strip_suffix(')')) {
        m |= ABS;
        t = r;
    }
    (t, m)
}

fn strip_comment(s: &str) -> &str {
    let mut end = s.len();
    if let Some(i) = s.find(';') {
        end = end.min(i);
    }
    if let Some(i) = s.find("//") {
        end = end.min(i);
    }
    &s[..end]
}

/// Length of a leading `ident` if the line starts with `ident:` (not `offset:4`-style text
/// after a mnemonic, since only the line start is looked at).
fn label_prefix(s: &str) -> Option<usize> {
    let n = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$'))
        .unwrap_or(s.len());
    (n > 0 && s[n..].starts_with(':')).then_some(n)
}

fn is_ident(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$')
}

fn split_word(s: &str) -> (&str, &str) {
    match s.find(char::is_whitespace) {
        Some(i) => (&s[..i], s[i..].trim_start()),
        None => (s, ""),
    }
}

/// Decimal or `0x` hex, optionally negative.
fn parse_int(t: &str) -> Option<i64> {
    let t = t.trim();
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t),
    };
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else if !body.is_empty() && body.bytes().all(|c| c.is_ascii_digit()) {
        body.parse::<i64>().ok()?
    } else {
        return None;
    };
    Some(if neg { -v } else { v })
}

/// A float literal (must contain `.` or an exponent): its f32 bits.
fn parse_f32(t: &str) -> Option<u32> {
    if !t.contains(['.', 'e', 'E']) || t.starts_with("0x") || t.starts_with("-0x") {
        return None;
    }
    t.parse::<f32>().ok().map(f32::to_bits)
}
