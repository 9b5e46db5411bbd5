//! The gfx942 listing: code, kernel descriptor and HSA metadata, as llvm-mc-22 assembles it.
//!
//! Pre: an allocated machine function (physical registers only) and its `KernelInfo`.
//! Post: text with `.amdgcn_target`, the kernel symbol and code (each instruction printed
//! from the `isa` table's mnemonic and operand order; a `; file:line` comment where the
//! source line changes; branch comments saying uniform or divergent), the `.amdhsa_kernel`
//! descriptor (kernarg size, user/system SGPRs, work-item id VGPRs, next free VGPR/SGPR,
//! accum offset, LDS size; the private segment's size and enable bit when VGPRs spill to
//! scratch; every floating-point mode field, from `fp_mode::KERNEL`) and `.amdgpu_metadata` listing every argument, hidden ones included, and the
//! register counts (`.sgpr_spill_count`: SGPR dwords regalloc spilled to VGPR lanes;
//! `.vgpr_spill_count`: VGPR dwords spilled to scratch; `.private_segment_fixed_size`), so an
//! HSA runtime could load it.
//! Cost: linear in the code; each instruction is written straight into the output (no string
//! per operand or line).

use crate::fp_mode;
use crate::isa::{is_inline_int, Kind, Opc};
use crate::mir::KernelInfo;
use crate::mir::Usage;
use crate::mir::{Func, MBlock, Operand, PReg, Reg};
use cranelift_entity::{EntityRef, SecondaryMap};
use std::fmt::Write;

pub fn header() -> String {
    "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.amdhsa_code_object_version 5\n".into()
}

/// Writes physical register `p`.
fn write_preg(out: &mut String, p: PReg) {
    let _ = match p {
        PReg::S(b, 1) => write!(out, "s{b}"),
        PReg::S(b, n) => write!(out, "s[{}:{}]", b, b + n as u16 - 1),
        PReg::V(b, 1) => write!(out, "v{b}"),
        PReg::V(b, n) => write!(out, "v[{}:{}]", b, b + n as u16 - 1),
        PReg::Vcc => write!(out, "vcc"),
        PReg::Exec => write!(out, "exec"),
        PReg::M0 => write!(out, "m0"),
    };
}

/// Writes operand `o` (of kind `kind` in the instruction's operand list) into `out`, with no
/// allocation of its own.
fn write_operand(
    out: &mut String,
    o: &Operand,
    kind: Option<Kind>,
    labels: &SecondaryMap<MBlock, String>,
) {
    let _ = match o {
        Operand::Reg {
            reg: Reg::Phys(p), ..
        } => {
            write_preg(out, *p);
            Ok(())
        }
        Operand::Reg {
            reg: Reg::Virt(v), ..
        } => write!(out, "%r{}", v.index()),
        Operand::Imm(c) => {
            if is_inline_int(*c) || matches!(kind, Some(Kind::Imm)) {
                write!(out, "{c}")
            } else {
                write!(
                    out,
                    "0x{:x}",
                    *c as u64 & if *c < 0 { 0xffff_ffff } else { u64::MAX }
                )
            }
        }
        Operand::Label(b) => {
            out.push_str(&labels[*b]);
            Ok(())
        }
        Operand::Off => {
            out.push_str("off");
            Ok(())
        }
        Operand::LabelDiff { to, from, hi } => {
            let part = if *hi { ">>32" } else { "&4294967295" };
            write!(out, "({}-{}){part}", labels[*to], labels[*from])
        }
        Operand::Wait { vm, lgkm } => {
            if let Some(v) = vm {
                let _ = write!(out, "vmcnt({v})");
            }
            if let Some(l) = lgkm {
                if vm.is_some() {
                    out.push(' ');
                }
                let _ = write!(out, "lgkmcnt({l})");
            }
            Ok(())
        }
    };
}

/// Operand `o`, slot `k` of `op`, as the (offset, size) of `hwreg(HW_REG_MODE, ...)` when it
/// is the hardware-register immediate of `s_getreg_b32` / `s_setreg_*` (MODE is the only one
/// kc touches: the FORK/JOIN stack pointer and the denormal fields).
fn mode_hwreg(op: Opc, k: usize, o: &Operand) -> Option<(u32, u32)> {
    let slot = match op {
        Opc::S_GETREG_B32 => 1,
        Opc::S_SETREG_B32 | Opc::S_SETREG_IMM32_B32 => 0,
        _ => return None,
    };
    let Operand::Imm(imm) = *o else {
        return None;
    };
    let (id, offset, size) = fp_mode::decode_hwreg(imm as u32);
    (k == slot && (0..=0xffff).contains(&imm) && id == fp_mode::HW_REG_MODE)
        .then_some((offset, size))
}

/// Kernel number `index` of the listing; `Loc::file` indexes `files`.
pub fn print_kernel(
    files: &[String],
    f: &Func,
    info: &KernelInfo,
    usage: &Usage,
    index: usize,
    out: &mut String,
) {
    let name = &info.name;
    let mut labels: SecondaryMap<MBlock, String> = SecondaryMap::new();
    for (k, &b) in f.layout.iter().enumerate() {
        labels[b] = format!(".LBB{index}_{k}");
    }
    let mut used: SecondaryMap<MBlock, bool> = SecondaryMap::new();
    for &b in &f.layout {
        for i in &f.blocks[b].insts {
            for o in &i.ops {
                match o {
                    Operand::Label(t) => used[*t] = true,
                    Operand::LabelDiff { to, from, .. } => {
                        used[*to] = true;
                        used[*from] = true;
                    }
                    _ => {}
                }
            }
        }
    }
    let _ = writeln!(
        out,
        "\t.text\n\t.globl {name}\n\t.p2align 8\n\t.type {name},@function\n{name}:"
    );
    let mut last_line = (u32::MAX, u32::MAX);
    for &b in &f.layout {
        if used[b] {
            if let Some(c) = &f.blocks[b].comment {
                let _ = writeln!(out, "; {c}");
            }
            let _ = writeln!(out, "{}:", labels[b]);
        }
        for i in &f.blocks[b].insts {
            // The line is built in `out` itself: the comment column is counted from its start.
            let start = out.len();
            let d = i.op.desc();
            out.push('\t');
            let stem = d.name.strip_suffix("_e32").or(d.name.strip_suffix("_e64"));
            match stem {
                // The DPP encoding (VOP1/VOP2 with the DPP word; the validator checks the op
                // has one).
                Some(stem) if i.dpp.is_some() => {
                    out.push_str(stem);
                    out.push_str("_dpp");
                }
                Some(stem) if d.name.ends_with("_e64") && crate::mir::has_e32(i) => {
                    out.push_str(stem);
                    out.push_str("_e32");
                }
                _ => out.push_str(d.name),
            }
            for (k, o) in i.ops.iter().enumerate() {
                out.push_str(if k == 0 { " " } else { ", " });
                if let Some((offset, size)) = mode_hwreg(i.op, k, o) {
                    let _ = write!(out, "hwreg(HW_REG_MODE, {offset}, {size})");
                    continue;
                }
                write_operand(out, o, d.operands.get(k).copied(), &labels);
            }
            if i.offset != 0 {
                let _ = write!(out, " offset:{}", i.offset);
            }
            if i.sc0 {
                out.push_str(" sc0");
            }
            if i.sc1 {
                out.push_str(" sc1");
            }
            if let Some(dpp) = &i.dpp {
                let _ = write!(out, " {dpp}");
            }
            let mut loc = None;
            if i.loc.is_known() {
                let key = (i.loc.file.0, i.loc.line);
                if key != last_line {
                    loc = Some(i.loc);
                    last_line = key;
                }
            }
            if loc.is_some() || i.comment.is_some() {
                let pad = 48usize.saturating_sub(out.len() - start + 3);
                let _ = write!(out, "{:pad$} ; ", "");
                if let Some(l) = loc {
                    let file = files
                        .get(l.file.0 as usize)
                        .map_or("<unknown>", String::as_str);
                    // A line break in the file name would end the comment: the rest of the
                    // name would be read as an instruction.
                    for c in file.chars() {
                        match c {
                            '\n' => out.push_str("\\n"),
                            '\r' => out.push_str("\\r"),
                            c => out.push(c),
                        }
                    }
                    let _ = write!(out, ":{}", l.line);
                    if i.comment.is_some() {
                        out.push_str("; ");
                    }
                }
                if let Some(c) = &i.comment {
                    out.push_str(c);
                }
            }
            out.push('\n');
        }
    }
    let _ = writeln!(
        out,
        ".Lfunc_end{index}:\n\t.size {name}, .Lfunc_end{index}-{name}"
    );
    let vgprs = usage.vgprs.max(1);
    let accum = (vgprs as u32).next_multiple_of(4).max(4);
    let _ = writeln!(out, "\t.rodata\n\t.p2align 6\n\t.amdhsa_kernel {name}");
    let _ = writeln!(out, "\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1");
    let _ = writeln!(out, "\t\t.amdhsa_kernarg_size {}", info.kernarg_size);
    let _ = writeln!(
        out,
        "\t\t.amdhsa_group_segment_fixed_size {}",
        info.lds_size
    );
    // VGPR spills live in scratch: gfx942's architected flat scratch needs no setup code nor
    // user SGPR, only the segment (what clang-22 prints for a kernel that spills).
    if usage.private_bytes != 0 {
        let _ = writeln!(
            out,
            "\t\t.amdhsa_private_segment_fixed_size {}",
            usage.private_bytes
        );
        let _ = writeln!(out, "\t\t.amdhsa_enable_private_segment 1");
    }
    let _ = writeln!(out, "\t\t.amdhsa_system_sgpr_workgroup_id_x 1");
    let _ = writeln!(out, "\t\t.amdhsa_system_sgpr_workgroup_id_y 1");
    let _ = writeln!(out, "\t\t.amdhsa_system_sgpr_workgroup_id_z 1");
    let _ = writeln!(out, "\t\t.amdhsa_system_vgpr_workitem_id {}", info.tid_dims);
    let _ = writeln!(out, "\t\t.amdhsa_next_free_vgpr {vgprs}");
    let _ = writeln!(out, "\t\t.amdhsa_next_free_sgpr {}", usage.sgprs);
    let _ = writeln!(out, "\t\t.amdhsa_accum_offset {accum}");
    // Every floating-point mode field, since an absent one is not the mode kc's semantics
    // need (llvm-mc's default f32 denormal mode flushes).
    for (directive, value) in fp_mode::KERNEL.directives() {
        let _ = writeln!(out, "\t\t{directive} {value}");
    }
    let _ = writeln!(out, "\t.end_amdhsa_kernel");
}

/// Special SGPRs (VCC and the other registers the descriptor's `reserve_*` defaults keep)
/// that the metadata's `.sgpr_count` adds to the allocated ones: clang-22's gfx942 listings
/// give `.sgpr_count` = `.amdhsa_next_free_sgpr` + 6.
const RESERVED_SPECIAL_SGPRS: u16 = 6;

/// `name` as a string scalar of the metadata's YAML, which LLVM reads into msgpack inferring
/// each plain scalar's type (even a quoted one): a name YAML would read as a number, a
/// boolean or a float (`1e5`, `true`, `inf`, `NaN`, `Infinity`) gets LLVM's `!str` tag, as
/// clang prints it (`.name: !str inf`), and one with characters a plain scalar cannot hold is
/// also single-quoted.
pub fn yaml_str(name: &str) -> String {
    let ident = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    let special = matches!(
        name.to_ascii_lowercase().as_str(),
        "true"
            | "false"
            | "null"
            | "yes"
            | "no"
            | "on"
            | "off"
            | "y"
            | "n"
            | "inf"
            | "infinity"
            | "nan"
    );
    match (ident, special) {
        (true, false) => name.to_string(),
        (true, true) => format!("!str {name}"),
        _ => format!("!str '{}'", name.replace('\'', "''")),
    }
}

/// The `.amdgpu_metadata` note for all kernels.
pub fn metadata(kernels: &[(KernelInfo, Usage)]) -> String {
    let mut s = String::from("\t.amdgpu_metadata\n---\namdhsa.kernels:\n");
    for (info, usage) in kernels {
        let _ = writeln!(s, "  - .args:");
        for a in &info.args {
            let _ = writeln!(
                s,
                "      - .name: {}\n        .offset: {}\n        .size: {}",
                yaml_str(&a.name),
                a.offset,
                a.size
            );
            if a.pointer {
                let _ = writeln!(
                    s,
                    "        .address_space: global\n        .value_kind: global_buffer"
                );
            } else {
                let _ = writeln!(s, "        .value_kind: by_value");
            }
        }
        let h = info.explicit_size.next_multiple_of(8);
        for (off, size, kind) in [
            (0, 4, "hidden_block_count_x"),
            (4, 4, "hidden_block_count_y"),
            (8, 4, "hidden_block_count_z"),
            (12, 2, "hidden_group_size_x"),
            (14, 2, "hidden_group_size_y"),
            (16, 2, "hidden_group_size_z"),
            (18, 2, "hidden_remainder_x"),
            (20, 2, "hidden_remainder_y"),
            (22, 2, "hidden_remainder_z"),
        ] {
            let _ = writeln!(
                s,
                "      - .offset: {}\n        .size: {size}\n        .value_kind: {kind}",
                h + off
            );
        }
        let _ = writeln!(s, "    .group_segment_fixed_size: {}", info.lds_size);
        let _ = writeln!(s, "    .kernarg_segment_align: 8");
        let _ = writeln!(s, "    .kernarg_segment_size: {}", info.kernarg_size);
        let _ = writeln!(s, "    .max_flat_workgroup_size: 1024");
        let _ = writeln!(s, "    .name: {}", yaml_str(&info.name));
        let _ = writeln!(
            s,
            "    .private_segment_fixed_size: {}",
            usage.private_bytes
        );
        let _ = writeln!(
            s,
            "    .sgpr_count: {}",
            usage.sgprs + RESERVED_SPECIAL_SGPRS
        );
        let _ = writeln!(s, "    .sgpr_spill_count: {}", usage.sgpr_spills);
        let _ = writeln!(s, "    .symbol: {}", yaml_str(&format!("{}.kd", info.name)));
        let _ = writeln!(s, "    .vgpr_count: {}", usage.vgprs.max(1));
        let _ = writeln!(s, "    .vgpr_spill_count: {}", usage.vgpr_spills);
        let _ = writeln!(s, "    .wavefront_size: 64");
    }
    s.push_str("amdhsa.target: amdgcn-amd-amdhsa--gfx942\namdhsa.version:\n  - 1\n  - 2\n...\n\t.end_amdgpu_metadata\n");
    s
}
