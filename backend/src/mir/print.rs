//! The MIR text form: printer.
//!
//! Guarantees: prints every part of a [`MirModule`] that compilation after the last pass run
//! depends on: the pass it is after, the source file, and per kernel its name and location,
//! kernel info (arguments, kernarg and LDS sizes, work-item id dimensions, the lowering of
//! divergent branches when it is FORK/JOIN: `divergence fork_join depth N`), register usage
//! (once allocated), the class of every virtual register an operand names, and the blocks in
//! layout order (their numbers, per-lane edges `lanes_to` / `lanes_stop`, where a join may
//! resume the wave `wave_to`, comments) with one
//! instruction per line: the assembler mnemonic, every operand, `offset:N`, `sc0`, `sc1`, the source
//! location and the comment. `parse::parse` reads it back, and printing what it read gives
//! the same text (`tests`: every example after every backend pass). Total: any `Func` prints
//! (a label of a block outside the layout prints, but does not parse back). Linear in the
//! size of the module.
//!
//! ```text
//! # kc machine IR (gfx942)
//! mir gfx942 after isel
//! source "examples/diamond.k"
//!
//! kernel @diamond loc(2:1) {
//!   arg "out" offset 0 size 8 pointer "i32*"
//!   explicit_size 8
//!   kernarg_size 264
//!   lds_size 0
//!   tid_dims 1
//!   vregs %r0:s64 %r1:v32 %r2:s64 %r3-%r11:v32
//! bb0:
//!   s_load_dwordx2 %r0, s[0:1], 0            loc(3:5)
//!   v_and_b32_e32 %r1, 1023, v0              loc(4:13)
//!   v_cmp_eq_u32_e64 %r2, %r1, 0             loc(5:9)
//!   ...
//!   s_endpgm                                 loc(7:1)
//! }
//! ```
//!
//! Operands: `%rN` (a virtual register; `%rN[d]` one dword of it, `%rN[a:b]` dwords a..=b;
//! a selection of all its dwords prints as `%rN`, which every pass reads alike),
//! `sN` / `s[a:b]` / `vN` / `v[a:b]` / `vcc` / `exec` / `m0`, integers (decimal, or hex past
//! 16 bits), `bbN` (a block), `off`, `vmcnt(N) lgkmcnt(N)` (either, or `nocnt`), and
//! `(bbT-bbF)&4294967295` / `(bbT-bbF)>>32` (a long branch's offset halves). A block line is
//! `bbN:`, then `lanes_to(bbA, bbB)`, `lanes_stop` and `wave_to(bbC, bbD)` when set, then
//! `; comment`. After an
//! instruction, `; text` is its comment (kept, printed into the listing); a line starting
//! with `#` is a comment the parser skips.

use super::module::{At, MirModule};
use super::{Class, File, Func, Inst, MBlock, Operand, PReg, Reg, VReg};
use cranelift_entity::EntityRef;
use kc_dialect::Loc;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write;

/// Diagnostics to print as `#` lines under the place they are about (see `validate`).
pub type Notes = HashMap<At, Vec<String>>;

/// The whole module.
pub fn print(m: &MirModule) -> String {
    let mut out = header(m);
    for k in 0..m.kernels.len() {
        out.push('\n');
        print_kernel(m, k, &Notes::new(), &mut out);
    }
    out
}

/// The lines before the kernels: the pass the module is after and the source file.
pub fn header(m: &MirModule) -> String {
    let mut out = format!("# kc machine IR (gfx942)\nmir gfx942 after {}\n", m.after);
    if let Some(f) = m.files.first() {
        let _ = writeln!(out, "source {}", quote(f));
    }
    out
}

/// A string literal: `"` and `\` escaped, control characters as `\u{X}`.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A comment's text after `; `: `\` and line breaks escaped, so it stays on its line.
fn comment_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

/// Whether `s` prints bare after `@`.
fn is_ident(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'))
}

/// `s32`, `v64`, ...: the file and the width in bits.
pub fn class_name(c: Class) -> String {
    let f = match c.file {
        File::S => 's',
        File::V => 'v',
    };
    format!("{f}{}", c.dwords as u32 * 32)
}

pub fn preg(p: PReg) -> String {
    let tuple = |f: char, b: u16, n: u8| {
        if n == 1 {
            format!("{f}{b}")
        } else {
            // A 0-wide tuple (invalid) prints as an empty range.
            format!("{f}[{b}:{}]", (b as i64) + n as i64 - 1)
        }
    };
    match p {
        PReg::S(b, n) => tuple('s', b, n),
        PReg::V(b, n) => tuple('v', b, n),
        PReg::Vcc => "vcc".into(),
        PReg::Exec => "exec".into(),
        PReg::M0 => "m0".into(),
    }
}

fn imm(c: i64) -> String {
    if c.unsigned_abs() < 0x10000 {
        format!("{c}")
    } else if c < 0 {
        format!("-0x{:x}", c.unsigned_abs())
    } else {
        format!("0x{c:x}")
    }
}

/// An operand as `f` prints it: a virtual register's selection of all its dwords prints
/// as the register itself (`[0]` of a 32-bit one, `[0:1]` of a 64-bit one: every pass reads
/// the two alike).
pub fn operand_in(f: &Func, o: &Operand) -> String {
    match *o {
        Operand::Reg {
            reg: Reg::Virt(v),
            sub: 0,
            n,
        } if n != 0 && f.vregs.get(v).is_some_and(|c| c.dwords == n) => operand(&Operand::Reg {
            reg: Reg::Virt(v),
            sub: 0,
            n: 0,
        }),
        _ => operand(o),
    }
}

pub fn operand(o: &Operand) -> String {
    match o {
        Operand::Reg { reg, sub, n } => {
            let mut s = match reg {
                Reg::Virt(v) => format!("%r{}", v.index()),
                Reg::Phys(p) => preg(*p),
            };
            match (*sub, *n) {
                (0, 0) => {}
                (a, 0) => {
                    let _ = write!(s, "[{a}:]");
                }
                (a, 1) => {
                    let _ = write!(s, "[{a}]");
                }
                (a, n) => {
                    let _ = write!(s, "[{a}:{}]", a as u32 + n as u32 - 1);
                }
            }
            s
        }
        Operand::Imm(c) => imm(*c),
        Operand::Label(b) => format!("{b}"),
        Operand::Off => "off".into(),
        Operand::Wait { vm, lgkm } => {
            let mut s = Vec::new();
            if let Some(v) = vm {
                s.push(format!("vmcnt({v})"));
            }
            if let Some(l) = lgkm {
                s.push(format!("lgkmcnt({l})"));
            }
            if s.is_empty() {
                "nocnt".into()
            } else {
                s.join(" ")
            }
        }
        Operand::LabelDiff { to, from, hi } => {
            let part = if *hi { ">>32" } else { "&4294967295" };
            format!("({to}-{from}){part}")
        }
    }
}

/// `loc(L:C)` in the module's first file, `loc("name":L:C)` in another.
fn loc(m: &MirModule, l: Loc) -> String {
    if l.file.0 == 0 && !m.files.is_empty() {
        format!("loc({}:{})", l.line, l.col)
    } else {
        format!("loc({}:{}:{})", quote(m.file_name(l)), l.line, l.col)
    }
}

/// One instruction of `f`, without indentation or newline.
pub fn inst(m: &MirModule, f: &Func, i: &Inst) -> String {
    let mut line = i.op.name().to_string();
    let ops: Vec<String> = i.ops.iter().map(|o| operand_in(f, o)).collect();
    if !ops.is_empty() {
        line.push(' ');
        line.push_str(&ops.join(", "));
    }
    if i.offset != 0 {
        let _ = write!(line, " offset:{}", i.offset);
    }
    if i.sc0 {
        line.push_str(" sc0");
    }
    if i.sc1 {
        line.push_str(" sc1");
    }
    if let Some(d) = &i.dpp {
        let _ = write!(line, " {d}");
    }
    if i.loc.is_known() {
        let pad = 40usize.saturating_sub(line.len() + 1);
        let _ = write!(line, "{:pad$} {}", "", loc(m, i.loc));
    }
    if let Some(c) = &i.comment {
        let _ = write!(line, " ; {}", comment_text(c));
    }
    line
}

/// The virtual registers the operands of laid-out blocks name.
fn named_vregs(f: &Func) -> BTreeSet<VReg> {
    let mut set = BTreeSet::new();
    for &b in &f.layout {
        for i in &f.blocks[b].insts {
            for o in &i.ops {
                if let Operand::Reg {
                    reg: Reg::Virt(v), ..
                } = o
                {
                    set.insert(*v);
                }
            }
        }
    }
    set
}

/// `vregs` lines: runs of consecutive registers of one class as `%rA-%rB:class`.
fn vregs(f: &Func, out: &mut String) {
    let named = named_vregs(f);
    let class = |v: VReg| f.vregs.get(v).map_or("?".to_string(), |c| class_name(*c));
    let mut items: Vec<String> = Vec::new();
    let mut it = named.iter().copied().peekable();
    while let Some(first) = it.next() {
        let c = class(first);
        let mut last = first;
        while let Some(&n) = it.peek() {
            if n.index() == last.index() + 1 && class(n) == c {
                last = n;
                it.next();
            } else {
                break;
            }
        }
        if last == first {
            items.push(format!("%r{}:{c}", first.index()));
        } else {
            items.push(format!("%r{}-%r{}:{c}", first.index(), last.index()));
        }
    }
    let mut line = String::new();
    for item in items {
        if !line.is_empty() && line.len() + item.len() > 96 {
            let _ = writeln!(out, "  vregs{line}");
            line.clear();
        }
        line.push(' ');
        line.push_str(&item);
    }
    if !line.is_empty() {
        let _ = writeln!(out, "  vregs{line}");
    }
}

fn notes_at(notes: &Notes, at: At, out: &mut String) {
    if let Some(list) = notes.get(&at) {
        for n in list {
            let _ = writeln!(out, "# ^^^ {}", comment_text(n));
        }
    }
}

/// Kernel `k` of `m`, with `notes` as `# ^^^ ...` lines under the lines they are about.
pub fn print_kernel(m: &MirModule, k: usize, notes: &Notes, out: &mut String) {
    let mk = &m.kernels[k];
    let info = &mk.info;
    let f = &mk.func;
    let name = if is_ident(&info.name) {
        info.name.clone()
    } else {
        quote(&info.name)
    };
    let _ = write!(out, "kernel @{name}");
    if mk.loc.is_known() {
        let _ = write!(out, " {}", loc(m, mk.loc));
    }
    out.push_str(" {\n");
    notes_at(notes, At::Kernel, out);
    for a in &info.args {
        let _ = writeln!(
            out,
            "  arg {} offset {} size {} {} {}",
            quote(&a.name),
            a.offset,
            a.size,
            if a.pointer { "pointer" } else { "value" },
            quote(&a.ty)
        );
    }
    let _ = writeln!(out, "  explicit_size {}", info.explicit_size);
    notes_at(notes, At::Field("explicit_size"), out);
    let _ = writeln!(out, "  kernarg_size {}", info.kernarg_size);
    notes_at(notes, At::Field("kernarg_size"), out);
    let _ = writeln!(out, "  lds_size {}", info.lds_size);
    notes_at(notes, At::Field("lds_size"), out);
    let _ = writeln!(out, "  tid_dims {}", info.tid_dims);
    notes_at(notes, At::Field("tid_dims"), out);
    if let super::module::Divergence::ForkJoin { depth } = info.divergence {
        let _ = writeln!(out, "  divergence fork_join depth {depth}");
        notes_at(notes, At::Field("divergence"), out);
    }
    if let Some(u) = &mk.usage {
        let _ = write!(
            out,
            "  usage sgprs {} vgprs {} sgpr_spills {}",
            u.sgprs, u.vgprs, u.sgpr_spills
        );
        if u.vgpr_spills != 0 || u.private_bytes != 0 {
            let _ = write!(
                out,
                " vgpr_spills {} private_bytes {}",
                u.vgpr_spills, u.private_bytes
            );
        }
        out.push('\n');
        notes_at(notes, At::Field("usage"), out);
    }
    vregs(f, out);
    for &b in &f.layout {
        block_line(f, b, out);
        notes_at(notes, At::Block(b), out);
        for (n, i) in f.blocks[b].insts.iter().enumerate() {
            let _ = writeln!(out, "  {}", inst(m, f, i));
            notes_at(notes, At::Inst(b, n), out);
        }
    }
    out.push_str("}\n");
}

fn block_line(f: &Func, b: MBlock, out: &mut String) {
    let data = &f.blocks[b];
    let _ = write!(out, "{b}:");
    if !data.lanes_to.is_empty() {
        let to: Vec<String> = data.lanes_to.iter().map(|t| format!("{t}")).collect();
        let _ = write!(out, " lanes_to({})", to.join(", "));
    }
    if data.lanes_stop {
        out.push_str(" lanes_stop");
    }
    if !data.wave_to.is_empty() {
        let to: Vec<String> = data.wave_to.iter().map(|t| format!("{t}")).collect();
        let _ = write!(out, " wave_to({})", to.join(", "));
    }
    if let Some(c) = &data.comment {
        let _ = write!(out, " ; {}", comment_text(c));
    }
    out.push('\n');
}
