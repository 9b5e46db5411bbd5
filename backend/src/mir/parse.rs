//! The MIR text form: parser (the format is described in `print`).
//!
//! Guarantees: reads what `print::print` writes, so that printing the result gives the same
//! text; never panics: malformed text is a [`ParseError`] with the byte offset of the
//! offending token and a message. It checks the syntax and the names (mnemonics from the
//! `isa` table, declared virtual registers, defined blocks, known pass names) and keeps
//! indices within the size of the input (`%r4000000000` or `bb4000000000` is an error, not an
//! allocation); whether operands suit their instruction is `validate`'s job, which the driver
//! runs on every parsed module before any pass sees it. [`Positions`] maps every kernel, block
//! and instruction back to its offset, so later diagnostics can point into the file.
//! Linear in the size of the text; nothing recurses.

use super::module::{ArgInfo, KernelInfo, Usage};
use super::module::{At, MachineKernel, MirModule};
use super::{BlockData, Class, File, Func, Inst, MBlock, Operand, PReg, Reg, VReg};
use crate::isa::Opc;
use cranelift_entity::{EntityRef, PrimaryMap};
use kc_dialect::{FileId, Loc};
use std::collections::HashMap;

use super::lex::{err, lex, Line, Tok, Token};

/// A syntax or name error at byte `offset` of the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub offset: usize,
    pub message: String,
}

/// Where the parts of each kernel start in the text (byte offsets).
#[derive(Debug, Default, Clone)]
pub struct Positions {
    pub kernels: Vec<KernelPositions>,
}

#[derive(Debug, Default, Clone)]
pub struct KernelPositions {
    pub kernel: usize,
    pub blocks: HashMap<MBlock, usize>,
    pub insts: HashMap<(MBlock, usize), usize>,
    /// The header lines (`tid_dims`, `usage`, ...; the first `arg`).
    pub fields: HashMap<&'static str, usize>,
}

impl Positions {
    /// The offset of a place in kernel `k` (the kernel's line when unknown).
    pub fn offset(&self, k: usize, at: At) -> usize {
        let Some(kp) = self.kernels.get(k) else {
            return 0;
        };
        match at {
            At::Kernel => Some(kp.kernel),
            At::Block(b) => kp.blocks.get(&b).copied(),
            At::Inst(b, i) => kp.insts.get(&(b, i)).copied(),
            At::Field(f) => kp.fields.get(f).copied(),
        }
        .unwrap_or(kp.kernel)
    }
}

/// The state of the kernel being read.
struct KernelBuilder {
    kernel: MachineKernel,
    pos: KernelPositions,
    /// Declared virtual registers: index -> class.
    vregs: HashMap<u32, Class>,
    /// Defined blocks: label number -> index (the label number is the `MBlock` index).
    defined: HashMap<u32, usize>,
    /// Block references to check once the kernel is complete: (number, offset).
    refs: Vec<(u32, usize)>,
    cur: Option<MBlock>,
    /// `usage` line seen.
    usage_at: Option<usize>,
    seen: Vec<&'static str>,
}

struct Parser<'a> {
    files: Vec<String>,
    /// The largest register or block number accepted (bounded by the input size).
    limit: u64,
    text: &'a str,
}

/// Parses a whole MIR module.
pub fn parse(text: &str) -> Result<(MirModule, Positions), ParseError> {
    let mut p = Parser {
        files: Vec::new(),
        limit: text.len() as u64 + 4096,
        text,
    };
    let mut after: Option<&'static str> = None;
    let mut kernels = Vec::new();
    let mut positions = Positions::default();
    let mut cur: Option<KernelBuilder> = None;
    let mut offset = 0usize;
    for raw in text.split('\n') {
        let base = offset;
        offset += raw.len() + 1;
        let toks = lex(raw, base)?;
        if toks.is_empty() {
            continue;
        }
        let mut l = Line {
            toks,
            pos: 0,
            end: base + raw.trim_end().len(),
        };
        if let Some(k) = cur.as_mut() {
            if l.is_punct('}') {
                l.next();
                l.end()?;
                let k = cur.take().expect("a kernel is open");
                let (mk, kp) = p.finish(k, after.unwrap_or("isel"))?;
                kernels.push(mk);
                positions.kernels.push(kp);
                continue;
            }
            p.kernel_line(k, &mut l)?;
            continue;
        }
        if after.is_none() {
            // `mir gfx942 after NAME`
            l.keyword("mir")?;
            let (t, at) = l.ident("the target `gfx942`")?;
            if t != "gfx942" {
                return err(at, format!("unknown target `{t}` (only gfx942)"));
            }
            l.keyword("after")?;
            let at = l.at();
            let mut name = String::new();
            // Pass names have dashes: `branch-folding`.
            while let Some(t) = l.next() {
                match t.tok {
                    Tok::Ident(s) => name.push_str(&s),
                    Tok::Punct('-') => name.push('-'),
                    _ => return err(t.at, "expected a backend pass name"),
                }
            }
            let Some(stage) = super::module::stage(&name) else {
                return err(
                    at,
                    format!(
                        "unknown backend pass `{name}` (one of: {})",
                        super::module::STAGES.join(", ")
                    ),
                );
            };
            after = Some(stage);
            continue;
        }
        if l.is_ident("source") {
            l.next();
            if !p.files.is_empty() || !kernels.is_empty() {
                return err(base, "`source` comes once, before the kernels");
            }
            let f = l.string("the source file name")?;
            p.files.push(f);
            l.end()?;
            continue;
        }
        let kat = l.at();
        l.keyword("kernel")?;
        cur = Some(p.kernel_start(&mut l, kat)?);
    }
    if let Some(k) = cur {
        return err(k.pos.kernel, "kernel without its closing `}`");
    }
    let Some(after) = after else {
        return err(0, "expected `mir gfx942 after PASS`: the input is empty");
    };
    Ok((
        MirModule {
            files: p.files,
            kernels,
            after,
        },
        positions,
    ))
}

impl Parser<'_> {
    fn file(&mut self, name: String) -> FileId {
        match self.files.iter().position(|f| *f == name) {
            Some(i) => FileId(i as u32),
            None => {
                self.files.push(name);
                FileId(self.files.len() as u32 - 1)
            }
        }
    }

    /// `loc(L:C)` or `loc("file":L:C)` (the `loc` keyword already seen).
    fn loc(&mut self, l: &mut Line) -> Result<Loc, ParseError> {
        let at = l.at();
        l.punct('(')?;
        let file = if matches!(l.peek(), Some(Tok::Str(_))) {
            let f = l.string("a file name")?;
            l.punct(':')?;
            self.file(f)
        } else {
            if self.files.is_empty() {
                return err(
                    at,
                    "a location without a file name needs a `source \"FILE\"` line",
                );
            }
            FileId(0)
        };
        let line = l.uint::<u32>("a line number")?;
        l.punct(':')?;
        let col = l.uint::<u32>("a column number")?;
        l.punct(')')?;
        if file.0 == u32::MAX {
            return err(at, "too many files");
        }
        Ok(Loc { file, line, col })
    }

    fn kernel_start(&mut self, l: &mut Line, at: usize) -> Result<KernelBuilder, ParseError> {
        l.punct('@')?;
        let name = match l.next() {
            Some(Token {
                tok: Tok::Ident(s), ..
            }) => s,
            Some(Token {
                tok: Tok::Str(s), ..
            }) => s,
            _ => return err(l.at(), "expected the kernel name after `@`"),
        };
        let mut loc = Loc::UNKNOWN;
        if l.is_ident("loc") {
            l.next();
            loc = self.loc(l)?;
        }
        l.punct('{')?;
        l.end()?;
        Ok(KernelBuilder {
            kernel: MachineKernel {
                func: Func {
                    name: name.clone(),
                    ..Func::default()
                },
                info: KernelInfo {
                    name,
                    ..KernelInfo::default()
                },
                loc,
                usage: None,
                budget: Default::default(),
            },
            pos: KernelPositions {
                kernel: at,
                ..KernelPositions::default()
            },
            vregs: HashMap::new(),
            defined: HashMap::new(),
            refs: Vec::new(),
            cur: None,
            usage_at: None,
            seen: Vec::new(),
        })
    }

    fn number(&self, n: u64, at: usize, what: &str) -> Result<u32, ParseError> {
        if n > self.limit || n >= u32::MAX as u64 {
            return err(
                at,
                format!("{what} number {n} is too large for an input of this size"),
            );
        }
        Ok(n as u32)
    }

    /// `bbN` as a block number.
    fn block_number(&self, s: &str, at: usize) -> Result<Option<u32>, ParseError> {
        let Some(d) = s.strip_prefix("bb") else {
            return Ok(None);
        };
        if d.is_empty() || !d.bytes().all(|c| c.is_ascii_digit()) {
            return Ok(None);
        }
        let n = d.parse::<u64>().unwrap_or(u64::MAX);
        self.number(n, at, "block").map(Some)
    }

    fn kernel_line(&mut self, k: &mut KernelBuilder, l: &mut Line) -> Result<(), ParseError> {
        let at = l.at();
        let (word, _) = match l.peek() {
            Some(Tok::Ident(_)) => l.ident("")?,
            _ => {
                return err(
                    at,
                    "expected a header line, a block label or an instruction",
                )
            }
        };
        // A block label: `bbN:`.
        if let Some(n) = self.block_number(&word, at)? {
            if l.is_punct(':') {
                l.next();
                return self.block_line(k, l, n, at);
            }
        }
        const HEADER: &[&str] = &[
            "arg",
            "explicit_size",
            "kernarg_size",
            "lds_size",
            "tid_dims",
            "divergence",
            "usage",
            "vregs",
        ];
        if let Some(&h) = HEADER.iter().find(|h| **h == word) {
            if k.cur.is_some() {
                return err(at, format!("`{h}` belongs before the first block"));
            }
            if h != "arg" && h != "vregs" {
                if k.seen.contains(&h) {
                    return err(at, format!("`{h}` is given twice"));
                }
                k.seen.push(h);
            }
            k.pos.fields.entry(h).or_insert(at);
            let info = &mut k.kernel.info;
            match h {
                "arg" => {
                    let name = l.string("the argument name")?;
                    l.keyword("offset")?;
                    let offset = l.uint("the offset")?;
                    l.keyword("size")?;
                    let size = l.uint("the size")?;
                    let (kind, kat) = l.ident("`pointer` or `value`")?;
                    let pointer = match kind.as_str() {
                        "pointer" => true,
                        "value" => false,
                        _ => return err(kat, "expected `pointer` or `value`"),
                    };
                    let ty = l.string("the argument type")?;
                    info.args.push(ArgInfo {
                        name,
                        offset,
                        size,
                        pointer,
                        ty,
                    });
                }
                "explicit_size" => info.explicit_size = l.uint("the size")?,
                "kernarg_size" => info.kernarg_size = l.uint("the size")?,
                "lds_size" => info.lds_size = l.uint("the size")?,
                "tid_dims" => info.tid_dims = l.uint("the number of dimensions")?,
                "divergence" => {
                    let (kind, kat) = l.ident("`exec_mask` or `fork_join`")?;
                    info.divergence = match kind.as_str() {
                        "exec_mask" => super::module::Divergence::ExecMask,
                        "fork_join" => {
                            l.keyword("depth")?;
                            let depth = l.uint("the stack depth")?;
                            if !(1..=6).contains(&depth) {
                                return err(at, "the fork-join depth is 1 to 6");
                            }
                            super::module::Divergence::ForkJoin { depth }
                        }
                        _ => return err(kat, "expected `exec_mask` or `fork_join`"),
                    };
                }
                "usage" => {
                    l.keyword("sgprs")?;
                    let sgprs = l.uint("the SGPR count")?;
                    l.keyword("vgprs")?;
                    let vgprs = l.uint("the VGPR count")?;
                    l.keyword("sgpr_spills")?;
                    let sgpr_spills = l.uint("the spill count")?;
                    // Optional: VGPRs spilled to scratch and the private segment's size.
                    let (mut vgpr_spills, mut private_bytes) = (0, 0);
                    if l.is_ident("vgpr_spills") {
                        l.keyword("vgpr_spills")?;
                        vgpr_spills = l.uint("the VGPR spill count")?;
                        l.keyword("private_bytes")?;
                        private_bytes = l.uint("the private segment size")?;
                    }
                    k.kernel.usage = Some(Usage {
                        sgprs,
                        vgprs,
                        sgpr_spills,
                        vgpr_spills,
                        private_bytes,
                    });
                    k.usage_at = Some(at);
                }
                _ => self.vregs_line(k, l)?,
            }
            return l.end();
        }
        let Some(op) = Opc::from_name(&word) else {
            return err(at, format!("unknown instruction `{word}`"));
        };
        let Some(b) = k.cur else {
            return err(at, "an instruction before the first block label");
        };
        let inst = self.inst(k, l, op)?;
        let n = k.kernel.func.blocks[b].insts.len();
        k.pos.insts.insert((b, n), at);
        k.kernel.func.blocks[b].insts.push(inst);
        Ok(())
    }

    fn vregs_line(&mut self, k: &mut KernelBuilder, l: &mut Line) -> Result<(), ParseError> {
        while !l.done() {
            let at = l.at();
            let first = self.vreg_number(l)?;
            let last = if l.is_punct('-') {
                l.next();
                self.vreg_number(l)?
            } else {
                first
            };
            if last < first {
                return err(at, "an empty register range");
            }
            l.punct(':')?;
            let (c, cat) = l.ident("a register class (`s32`, `v64`, ...)")?;
            let class = parse_class(&c).ok_or_else(|| ParseError {
                offset: cat,
                message: format!("unknown register class `{c}` (s32, s64, ..., v32, v64, ...)"),
            })?;
            for v in first..=last {
                if k.vregs.insert(v, class).is_some() {
                    return err(at, format!("%r{v} is declared twice"));
                }
            }
        }
        Ok(())
    }

    fn vreg_number(&self, l: &mut Line) -> Result<u32, ParseError> {
        let at = l.at();
        match l.next() {
            Some(Token {
                tok: Tok::VReg(n), ..
            }) => self.number(n, at, "register"),
            _ => err(at, "expected a virtual register `%rN`"),
        }
    }

    fn block_line(
        &mut self,
        k: &mut KernelBuilder,
        l: &mut Line,
        n: u32,
        at: usize,
    ) -> Result<(), ParseError> {
        if k.defined.contains_key(&n) {
            return err(at, format!("block bb{n} is defined twice"));
        }
        k.defined.insert(n, k.defined.len());
        let f = &mut k.kernel.func;
        while f.blocks.len() <= n as usize {
            f.blocks.push(BlockData::default());
        }
        let b = MBlock::new(n as usize);
        f.layout.push(b);
        k.pos.blocks.insert(b, at);
        k.cur = Some(b);
        if l.is_ident("lanes_to") {
            l.next();
            k.kernel.func.blocks[b].lanes_to = self.block_list(k, l)?;
        }
        if l.is_ident("lanes_stop") {
            l.next();
            k.kernel.func.blocks[b].lanes_stop = true;
        }
        if l.is_ident("wave_to") {
            l.next();
            k.kernel.func.blocks[b].wave_to = self.block_list(k, l)?;
        }
        if let Some(Tok::Comment(c)) = l.peek() {
            k.kernel.func.blocks[b].comment = Some(c.clone());
            l.next();
        }
        l.end()
    }

    /// `(bbA, bbB, ...)`: the block lists of `lanes_to` and `wave_to`.
    fn block_list(
        &mut self,
        k: &mut KernelBuilder,
        l: &mut Line,
    ) -> Result<Vec<MBlock>, ParseError> {
        l.punct('(')?;
        let mut out = Vec::new();
        loop {
            out.push(self.label(k, l)?);
            if l.is_punct(',') {
                l.next();
                continue;
            }
            l.punct(')')?;
            return Ok(out);
        }
    }

    /// A block reference `bbN` (checked to be defined when the kernel ends).
    fn label(&mut self, k: &mut KernelBuilder, l: &mut Line) -> Result<MBlock, ParseError> {
        let (s, at) = l.ident("a block `bbN`")?;
        let Some(n) = self.block_number(&s, at)? else {
            return err(at, "expected a block `bbN`");
        };
        k.refs.push((n, at));
        Ok(MBlock::new(n as usize))
    }

    fn inst(&mut self, k: &mut KernelBuilder, l: &mut Line, op: Opc) -> Result<Inst, ParseError> {
        let mut inst = Inst::new(op, Vec::new(), Loc::UNKNOWN);
        let trailer = |l: &Line| {
            l.done()
                || l.is_ident("offset")
                || l.is_ident("sc0")
                || l.is_ident("sc1")
                || matches!(l.peek(), Some(Tok::Ident(k)) if crate::dpp::Dpp::is_key(k))
                || l.is_ident("loc")
                || matches!(l.peek(), Some(Tok::Comment(_)))
        };
        if !trailer(l) {
            loop {
                let o = self.operand(k, l)?;
                inst.ops.push(o);
                if l.is_punct(',') {
                    l.next();
                    continue;
                }
                break;
            }
        }
        if l.is_ident("offset") {
            l.next();
            l.punct(':')?;
            inst.offset = l.uint("the offset")?;
        }
        if l.is_ident("sc0") {
            l.next();
            inst.sc0 = true;
        }
        if l.is_ident("sc1") {
            l.next();
            inst.sc1 = true;
        }
        while let Some(Tok::Ident(k)) = l.peek() {
            if !crate::dpp::Dpp::is_key(k) {
                break;
            }
            let (key, at) = l.ident("a DPP modifier")?;
            let value = dpp_value(l, &key)?;
            crate::dpp::Dpp::set(&mut inst.dpp, &key, &value).or_else(|m| err(at, m))?;
        }
        if l.is_ident("loc") {
            l.next();
            inst.loc = self.loc(l)?;
        }
        if let Some(Tok::Comment(c)) = l.peek() {
            inst.comment = Some(c.clone());
            l.next();
        }
        l.end()?;
        Ok(inst)
    }

    fn operand(&mut self, k: &mut KernelBuilder, l: &mut Line) -> Result<Operand, ParseError> {
        let at = l.at();
        let Some(t) = l.next() else {
            return err(at, "expected an operand");
        };
        match t.tok {
            Tok::Int(v) => Ok(Operand::Imm(v)),
            Tok::VReg(n) => {
                let n = self.number(n, at, "register")?;
                if !k.vregs.contains_key(&n) {
                    return err(
                        at,
                        format!("%r{n} is not declared (list it in a `vregs` line)"),
                    );
                }
                let (sub, w) = self.selection(l)?;
                Ok(Operand::Reg {
                    reg: Reg::Virt(VReg::new(n as usize)),
                    sub,
                    n: w,
                })
            }
            Tok::Punct('(') => {
                let to = self.label(k, l)?;
                l.punct('-')?;
                let from = self.label(k, l)?;
                l.punct(')')?;
                let hi = if l.is_punct('&') {
                    l.next();
                    let (v, vat) = l.int("4294967295")?;
                    if v != 0xffff_ffff {
                        return err(vat, "expected `&4294967295` (the low half)");
                    }
                    false
                } else if l.peek() == Some(&Tok::Shr) {
                    l.next();
                    let (v, vat) = l.int("32")?;
                    if v != 32 {
                        return err(vat, "expected `>>32` (the high half)");
                    }
                    true
                } else {
                    return err(l.at(), "expected `&4294967295` or `>>32`");
                };
                Ok(Operand::LabelDiff { to, from, hi })
            }
            Tok::Ident(s) => {
                let reg = |p: PReg, l: &mut Line| -> Result<Operand, ParseError> {
                    let (sub, n) = Self::selection_of(l)?;
                    Ok(Operand::Reg {
                        reg: Reg::Phys(p),
                        sub,
                        n,
                    })
                };
                match s.as_str() {
                    "off" => return Ok(Operand::Off),
                    "nocnt" => {
                        return Ok(Operand::Wait {
                            vm: None,
                            lgkm: None,
                        })
                    }
                    "vcc" => return reg(PReg::Vcc, l),
                    "exec" => return reg(PReg::Exec, l),
                    "m0" => return reg(PReg::M0, l),
                    "vmcnt" | "lgkmcnt" => {
                        l.pos -= 1;
                        return wait(l);
                    }
                    _ => {}
                }
                if let Some(n) = self.block_number(&s, at)? {
                    k.refs.push((n, at));
                    return Ok(Operand::Label(MBlock::new(n as usize)));
                }
                let file = match s.as_bytes()[0] {
                    b's' => Some(File::S),
                    b'v' => Some(File::V),
                    _ => None,
                };
                if let Some(file) = file {
                    let (b, n) = if s.len() == 1 && l.is_punct('[') {
                        l.next();
                        let a: u16 = l.uint("a register number")?;
                        l.punct(':')?;
                        let (e, eat) = l.int("a register number")?;
                        l.punct(']')?;
                        let w = e - a as i64 + 1;
                        let Ok(w) = u8::try_from(w) else {
                            return err(eat, "bad register range");
                        };
                        if w == 0 {
                            return err(eat, "bad register range");
                        }
                        (a, w)
                    } else if s.len() > 1 && s[1..].bytes().all(|c| c.is_ascii_digit()) {
                        match s[1..].parse::<u16>() {
                            Ok(r) => (r, 1),
                            Err(_) => return err(at, "register number out of range"),
                        }
                    } else {
                        return err(at, format!("unknown operand `{s}`"));
                    };
                    let p = match file {
                        File::S => PReg::S(b, n),
                        File::V => PReg::V(b, n),
                    };
                    return reg(p, l);
                }
                err(at, format!("unknown operand `{s}`"))
            }
            _ => err(at, "expected an operand"),
        }
    }

    fn selection(&self, l: &mut Line) -> Result<(u8, u8), ParseError> {
        Self::selection_of(l)
    }

    /// An optional dword selection `[a]`, `[a:b]` or `[a:]` after a register.
    fn selection_of(l: &mut Line) -> Result<(u8, u8), ParseError> {
        if !l.is_punct('[') {
            return Ok((0, 0));
        }
        l.next();
        let a: u8 = l.uint("a dword index")?;
        if l.is_punct(']') {
            l.next();
            return Ok((a, 1));
        }
        l.punct(':')?;
        if l.is_punct(']') {
            l.next();
            if a == 0 {
                return err(l.at(), "`[0:]` is the whole register: leave it out");
            }
            return Ok((a, 0));
        }
        let (e, eat) = l.int("a dword index")?;
        l.punct(']')?;
        let n = e - a as i64 + 1;
        match u8::try_from(n) {
            Ok(n) if n >= 2 => Ok((a, n)),
            _ => err(
                eat,
                "bad dword range (`[a:b]` with b > a; `[a]` for one dword)",
            ),
        }
    }

    fn finish(
        &mut self,
        mut k: KernelBuilder,
        after: &'static str,
    ) -> Result<(MachineKernel, KernelPositions), ParseError> {
        for &(n, at) in &k.refs {
            if !k.defined.contains_key(&n) {
                return err(at, format!("block bb{n} is not defined in this kernel"));
            }
        }
        let allocated = super::module::allocated_after(after);
        match (allocated, k.usage_at) {
            (true, None) => {
                return err(
                    k.pos.kernel,
                    format!(
                        "a kernel after `{after}` is allocated and needs a `usage sgprs N vgprs N \
                         sgpr_spills N` line"
                    ),
                )
            }
            (false, Some(at)) => {
                return err(
                    at,
                    "a kernel after `isel` is not allocated yet and has no `usage` line",
                )
            }
            _ => {}
        }
        let f = &mut k.kernel.func;
        if let Some(&max) = k.vregs.keys().max() {
            let mut vregs = PrimaryMap::with_capacity(max as usize + 1);
            for v in 0..=max {
                // Registers no operand names may be left out; any class does for them.
                vregs.push(k.vregs.get(&v).copied().unwrap_or(Class::S32));
            }
            f.vregs = vregs;
        }
        if f.layout.is_empty() {
            return err(k.pos.kernel, "a kernel needs at least one block");
        }
        let _ = self.text;
        Ok((k.kernel, k.pos))
    }
}

/// `vmcnt(N)`, `lgkmcnt(N)` or both.
fn wait(l: &mut Line) -> Result<Operand, ParseError> {
    let mut vm = None;
    let mut lgkm = None;
    for (name, slot) in [("vmcnt", &mut vm), ("lgkmcnt", &mut lgkm)] {
        if l.is_ident(name) {
            l.next();
            l.punct('(')?;
            *slot = Some(l.uint::<u8>("a count")?);
            l.punct(')')?;
        }
    }
    Ok(Operand::Wait { vm, lgkm })
}

/// `s32` .. `s512`, `v32` .. `v512` (multiples of 32).
pub fn parse_class(s: &str) -> Option<Class> {
    let file = match s.as_bytes().first()? {
        b's' => File::S,
        b'v' => File::V,
        _ => return None,
    };
    let bits: u32 = s[1..].parse().ok()?;
    if bits == 0 || !bits.is_multiple_of(32) || bits > 512 || s[1..].starts_with('0') {
        return None;
    }
    Some(Class {
        file,
        dwords: (bits / 32) as u8,
    })
}

/// The text after a DPP modifier's key: `:N`, `:[a,b,c,d]`, or nothing (`row_mirror`).
fn dpp_value(l: &mut Line, key: &str) -> Result<String, ParseError> {
    if matches!(key, "row_mirror" | "row_half_mirror") {
        return Ok(String::new());
    }
    l.punct(':')?;
    if !l.is_punct('[') {
        return Ok(l.int("a DPP value")?.0.to_string());
    }
    l.next();
    let mut parts = Vec::new();
    loop {
        parts.push(l.int("a lane of the quad")?.0.to_string());
        if l.is_punct(',') {
            l.next();
            continue;
        }
        l.punct(']')?;
        return Ok(format!("[{}]", parts.join(",")));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mir::print;

    /// Every operand kind and attribute the examples may not reach prints and parses back
    /// to the same text: dword selections (also of a physical register), `nocnt`, a long
    /// branch's offsets, hex and negative immediates, quoted names, escaped strings and
    /// comments with line breaks, locations in a second file, unknown locations.
    #[test]
    fn every_form_round_trips() {
        let text = r#"# kc machine IR (gfx942)
mir gfx942 after waitcnt
source "main.k"

kernel @"odd name" loc(1:2) {
  arg "a \"quoted\" \\ arg" offset 0 size 8 pointer "f32*"
  arg "n" offset 8 size 4 value "i32"
  explicit_size 12
  kernarg_size 272
  lds_size 1024
  tid_dims 2
  usage sgprs 12 vgprs 6 sgpr_spills 3
bb0: lanes_to(bb2, bb1) lanes_stop ; first line\nsecond \\ line
  s_waitcnt nocnt
  s_waitcnt vmcnt(3) lgkmcnt(0)
  s_waitcnt lgkmcnt(1)
  s_mov_b32 s5, s[6:7][1]                 loc("other.k":3:4)
  s_mov_b32 s5, -0x80000000
  s_mov_b32 s5, 0x7fffffff                loc(9:1) ; note
  global_atomic_add v1, v2, v3, s[6:7] offset:16 sc0
  global_store_dword v[2:3], v1, off
bb1:
  s_getpc_b64 s[8:9] ; long branch (s_cbranch_scc1)
bb2:
  s_add_u32 s8, s8, (bb1-bb2)&4294967295
  s_addc_u32 s9, s9, (bb1-bb2)>>32
  s_setpc_b64 s[8:9]
}

kernel @second {
  explicit_size 0
  kernarg_size 0
  lds_size 0
  tid_dims 0
  usage sgprs 6 vgprs 1 sgpr_spills 0
bb7:
  s_endpgm
}
"#;
        let (m, pos) = parse(text).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(print::print(&m), text);
        assert_eq!(m.files, ["main.k", "other.k"]);
        assert_eq!(m.kernels[0].info.name, "odd name");
        assert_eq!(
            m.kernels[0].func.blocks[MBlock::new(0)].comment.as_deref(),
            Some("first line\nsecond \\ line")
        );
        assert_eq!(m.kernels[1].func.layout, [MBlock::new(7)]);
        // Positions point at the lines.
        let at = pos.offset(0, At::Inst(MBlock::new(0), 3));
        assert!(text[at..].starts_with("s_mov_b32 s5, s[6:7][1]"));
    }

    #[test]
    fn virtual_registers_and_selections() {
        let text = "mir gfx942 after isel\nkernel @k {\n  vregs %r0:s64 %r2-%r3:v32 %r5:v128\nbb0:\n  s_mov_b32 %r0[1], %r0[0]\n  v_mov_b32_e32 %r2, %r5[3]\n  global_store_dwordx2 %r2, %r5[1:2], %r0\n  s_endpgm\n}\n";
        let (m, _) = parse(text).unwrap();
        let f = &m.kernels[0].func;
        assert_eq!(f.vregs.len(), 6);
        assert_eq!(
            f.vregs[VReg::new(5)],
            Class {
                file: File::V,
                dwords: 4
            }
        );
        let ops = &f.blocks[MBlock::new(0)].insts[2].ops;
        assert_eq!(ops[1], crate::mir::rsub(VReg::new(5), 1, 2));
        // Printed again: the module header and the same kernel.
        let again = print::print(&m);
        assert!(
            again.contains("  vregs %r0:s64 %r2:v32 %r5:v128\n"),
            "{again}"
        );
        assert!(
            again.contains("global_store_dwordx2 %r2, %r5[1:2], %r0"),
            "{again}"
        );
    }

    #[test]
    fn errors_point_at_the_token() {
        let bad = [
            (
                "mir gfx942 after isel\nkernel @k {\nbb0:\n  s_frob\n}\n",
                "s_frob",
                "unknown instruction",
            ),
            (
                "mir gfx942 after isel\nkernel @k {\nbb0:\n  s_mov_b32 %r1, 0\n}\n",
                "%r1",
                "not declared",
            ),
            (
                "mir gfx942 after isel\nkernel @k {\nbb0:\n  s_branch bb9\n}\n",
                "bb9",
                "not defined",
            ),
            (
                "mir gfx942 after isel\nkernel @k {\nbb0:\n  s_nop 1\n",
                "kernel",
                "closing",
            ),
            (
                "mir gfx942 after isel\nkernel @k {\nbb0:\n  s_mov_b32 s5, %r99999999999\n}\n",
                "%r9",
                "too large",
            ),
            (
                "mir gfx942 after isel\nkernel @k {\nbb0:\n  s_mov_b32 s5, \"x\n}\n",
                "\"x",
                "unterminated",
            ),
            (
                "mir gfx942 after isel\nkernel @k {\nbb0:\n  s_mov_b32 s[5:4], 0\n}\n",
                "4]",
                "bad register range",
            ),
            ("", "", "empty"),
        ];
        for (text, at, msg) in bad {
            let e = parse(text).unwrap_err();
            assert!(e.message.contains(msg), "{text}: {e:?}");
            assert!(text[e.offset..].starts_with(at), "{text}: {e:?}");
        }
    }
}
