//! The kernel ABI (code object v5 on gfx942): the kernel-argument layout (`KernelInfo`, what
//! the printer and a launcher need), the prologue that loads the arguments, the hidden
//! arguments, and the work-item and workgroup ids.
//!
//! Guarantees:
//! - explicit arguments are laid out in order, each at a multiple of its size (pointers and
//!   64-bit scalars 8 bytes, others 4); the hidden arguments (`HIDDEN_SIZE` bytes) follow at
//!   the explicit size rounded up to 8; a shared pointer parameter is a diagnostic;
//! - an argument the kernel reads is loaded once, in the prologue, from the kernarg segment
//!   (`s[0:1]`) into SGPRs (`s_load_dword{,x2}`; an `i1` as 0/1): a rematerializable
//!   definition, which the allocator may reload where it is used instead of keeping it; an
//!   argument the kernel does not read is not loaded;
//! - work-item ids come from `v0` (x in bits 0-9, y in 10-19, z in 20-29; `tid_dims`, set
//!   from the ids the kernel reads before anything is selected, tells the descriptor how many
//!   to enable; with x alone v0 is x and is read unmasked), workgroup ids from the system
//!   SGPRs `s2`-`s4`,
//!   workgroup counts and sizes from the hidden arguments (`hidden_block_count_*`, the u16
//!   `hidden_group_size_*`), all uniform but the work-item ids.

use super::{err, Isel, IselError, Operand2, Val};
use crate::isa::Opc;
use crate::mir::{self, ArgInfo, Class, File, Operand, PReg};
use kc_dialect::{AddrSpace, Attr, Op, Opcode, Type, Value};
use rustc_hash::FxHashSet as HashSet;

/// Size of the COv5 hidden (implicit) kernel arguments appended after the explicit ones.
pub const HIDDEN_SIZE: u32 = 256;

impl Isel<'_> {
    /// Lays out the kernel arguments and loads those the kernel reads (an unread one would
    /// only cost a load and, for an instant, a register). Each load is a rematerializable
    /// definition: under SGPR pressure the allocator reloads the argument where it is used
    /// instead of keeping it.
    pub(super) fn prologue(&mut self, func: Op) -> Result<(), IselError> {
        let region = self.ir.ops[func].regions[0];
        let entry = self.ir.entry_block(region).unwrap();
        let mut off = 0u32;
        let args = self.ir.blocks[entry].args.clone();
        let mut read: HashSet<Value> = HashSet::default();
        for b in self.ir.region_blocks(region) {
            for op in self.ir.block_ops(b) {
                if self.ir.opcode(op) == Opcode::WorkitemId {
                    let dims = match self.ir.attr(op, "dim").and_then(Attr::as_str) {
                        Some("y") => 1,
                        Some("z") => 2,
                        _ => 0,
                    };
                    self.info.tid_dims = self.info.tid_dims.max(dims);
                }
                let d = &self.ir.ops[op];
                read.extend(
                    d.operands
                        .iter()
                        .chain(d.succs.iter().flat_map(|s| &s.args)),
                );
            }
        }
        // The arguments the kernel reads: (value, type, offset, size).
        let mut loaded: Vec<(Value, Type, u32, u32)> = Vec::new();
        for (i, &a) in args.iter().enumerate() {
            let ty = self.ir.value_type(a);
            let (size, pointer, tyname) = match ty {
                Type::Ptr(AddrSpace::Global, e) => (8, true, format!("{}*", e.name())),
                Type::Ptr(AddrSpace::Shared, _) => {
                    return err(
                        self.ir.values[a].loc,
                        "shared pointers cannot be kernel parameters",
                    )
                }
                Type::Scalar(s) => (
                    if s.bits() == 64 { 8 } else { 4 },
                    false,
                    s.name().to_string(),
                ),
                _ => return err(self.ir.values[a].loc, "unsupported kernel parameter type"),
            };
            off = off.next_multiple_of(size);
            self.info.args.push(ArgInfo {
                name: self
                    .ir
                    .value_name(a)
                    .map_or(format!("arg{i}"), str::to_string),
                offset: off,
                size,
                pointer,
                ty: tyname,
            });
            if read.contains(&a) {
                loaded.push((a, ty, off, size));
            }
            off += size;
        }
        self.load_arguments(&loaded);
        self.info.explicit_size = off;
        let hidden = off.next_multiple_of(8);
        self.info.kernarg_size = hidden + HIDDEN_SIZE;
        Ok(())
    }

    /// Loads the arguments the kernel reads, adjacent ones together: a run of arguments
    /// within 16 bytes of its first is one `s_load_dwordx2`/`x4` (as LLVM merges kernarg
    /// loads), each argument a dword range of the loaded tuple; a 64-bit argument joins a
    /// run only at an even dword of it (an SGPR pair must be even-aligned), and an `i1`
    /// (kept as a whole 0/1 register) is loaded alone. The bytes a wide load reads past the
    /// last argument are padding or hidden arguments: the segment is always that long.
    fn load_arguments(&mut self, loaded: &[(Value, Type, u32, u32)]) {
        let mut i = 0;
        while i < loaded.len() {
            let (a, ty, start, size) = loaded[i];
            let mut end = start + size;
            let mut j = i + 1;
            while ty != Type::I1 && j < loaded.len() {
                let (_, t, o, sz) = loaded[j];
                if t == Type::I1 || o + sz - start > 16 || sz == 8 && (o - start) % 8 != 0 {
                    break;
                }
                end = o + sz;
                j += 1;
            }
            self.loc = self.ir.values[a].loc;
            let ka = self.kernarg.op();
            if j == i + 1 {
                // One argument: its own register, whole.
                let dw = (size / 4) as u8;
                let d = if dw == 2 { self.s64() } else { self.s32() };
                let op = if dw == 2 {
                    Opc::S_LOAD_DWORDX2
                } else {
                    Opc::S_LOAD_DWORD
                };
                self.emit(op, vec![mir::r(d), ka, Operand::Imm(start as i64)]);
                let v = if ty == Type::I1 {
                    Val::SBool(d)
                } else {
                    Val::S(Operand2::Virt(d))
                };
                self.vals.insert(a, v);
                i = j;
                continue;
            }
            let (dwords, op) = if end - start <= 8 {
                (2, Opc::S_LOAD_DWORDX2)
            } else {
                (4, Opc::S_LOAD_DWORDX4)
            };
            let d = self.mf.new_vreg(Class {
                file: File::S,
                dwords,
            });
            self.emit(op, vec![mir::r(d), ka, Operand::Imm(start as i64)]);
            for &(v, _, o, sz) in &loaded[i..j] {
                let part = Operand2::Part(d, ((o - start) / 4) as u8, (sz / 4) as u8);
                self.vals.insert(v, Val::S(part));
            }
            i = j;
        }
    }

    /// The offset of the hidden arguments in the kernarg segment.
    fn hidden_offset(&self) -> u32 {
        self.info.explicit_size.next_multiple_of(8)
    }

    /// `kernel.workitem_id`.
    pub(super) fn workitem_id(&mut self, op: Op) {
        let ir = self.ir;
        let dim = ir.attr(op, "dim").and_then(Attr::as_str).unwrap_or("x");
        let v = self.v32();
        let v0 = mir::p(PReg::V(0, 1));
        match dim {
            // With y and z disabled the hardware writes x alone to v0 (as LLVM decides for
            // gfx942 when a kernel reads no other id): a copy the allocator folds into v0.
            "x" if self.info.tid_dims == 0 => {
                self.emit(Opc::V_MOV_B32, vec![mir::r(v), v0]);
            }
            "x" => {
                self.emit(Opc::V_AND_B32, vec![mir::r(v), Operand::Imm(0x3ff), v0]);
            }
            "y" => {
                self.emit(
                    Opc::V_BFE_U32,
                    vec![mir::r(v), v0, Operand::Imm(10), Operand::Imm(10)],
                );
                self.info.tid_dims = self.info.tid_dims.max(1);
            }
            _ => {
                self.emit(
                    Opc::V_BFE_U32,
                    vec![mir::r(v), v0, Operand::Imm(20), Operand::Imm(10)],
                );
                self.info.tid_dims = 2;
            }
        }
        self.def(op, Val::V(v));
    }

    /// `kernel.workgroup_id`.
    pub(super) fn workgroup_id(&mut self, op: Op) {
        let ir = self.ir;
        let dim = ir.attr(op, "dim").and_then(Attr::as_str).unwrap_or("x");
        let i = match dim {
            "x" => 0,
            "y" => 1,
            _ => 2,
        };
        // System SGPRs: the descriptor enables ids x, y, z, in s2, s3, s4.
        let v = self.s32();
        self.emit(
            Opc::S_MOV_B32,
            vec![mir::r(v), mir::p(PReg::S(2 + i as u16, 1))],
        );
        self.def(op, Val::S(Operand2::Virt(v)));
    }

    /// `kernel.workgroup_size` and `kernel.num_workgroups`, from the hidden arguments.
    pub(super) fn workgroup_dim(&mut self, op: Op) {
        let ir = self.ir;
        let dim = ir.attr(op, "dim").and_then(Attr::as_str).unwrap_or("x");
        let i = match dim {
            "x" => 0u32,
            "y" => 1,
            _ => 2,
        };
        let h = self.hidden_offset();
        let v = self.s32();
        let ka = self.kernarg.op();
        if self.ir.opcode(op) == Opcode::NumWorkgroups {
            self.emit(
                Opc::S_LOAD_DWORD,
                vec![mir::r(v), ka, Operand::Imm((h + 4 * i) as i64)],
            );
        } else {
            // hidden_group_size_{x,y,z}: u16 at +12, +14, +16.
            let off = h + 12 + 2 * i;
            let t = self.s32();
            self.emit(
                Opc::S_LOAD_DWORD,
                vec![mir::r(t), ka, Operand::Imm((off & !3) as i64)],
            );
            let shift = (off & 3) * 8;
            // s_bfe_u32 operand: offset | width << 16
            self.emit(
                Opc::S_BFE_U32,
                vec![
                    mir::r(v),
                    mir::r(t),
                    Operand::Imm((shift | (16 << 16)) as i64),
                ],
            );
        }
        self.def(op, Val::S(Operand2::Virt(v)));
    }
}
