//! Instruction selection for the synchronizing ops: atomics (selected in `memory.rs`),
//! atomic loads and stores, fences and barriers, each inside its gfx942 memory-model
//! sequence (`crate::memory_model`).
//!
//! Guarantees:
//! - every `kernel.atomic`, `kernel.atomic_cmpxchg`, `kernel.atomic_load`,
//!   `kernel.atomic_store` and `kernel.fence` is emitted as the table's `before` steps, the
//!   access with the table's `sc0`/`sc1` bits (global memory; none for a fence), the `after`
//!   steps, in one block and in that order; `kernel.barrier` is the barrier sequence around
//!   `s_barrier`;
//! - an atomic load is one `global_load_dword{,x2}` / `ds_read_b{32,64}` and an atomic store
//!   one `global_store_dword{,x2}` / `ds_write_b{32,64}` at the element the pointer points
//!   to (a single access of the whole element: atomic on gfx942 for naturally aligned
//!   elements, which kc's always are); never a scalar load (the scalar cache is not
//!   coherent with the vector caches the model maintains).

use super::{err, Isel, IselError, Val};
use crate::isa::Opc;
use crate::memory_model::{self, Kind, Sequence, Step};
use crate::mir::{self, Inst, Operand};
use kc_dialect::sync;
use kc_dialect::{Op, Opcode};

impl Isel<'_> {
    /// A synchronizing op (`sync::access` is `Some`) with its memory-model sequence.
    pub(super) fn sync_op(&mut self, op: Op) -> Result<(), IselError> {
        let ir = self.ir;
        let code = ir.opcode(op);
        let Some(s) = sync::of(ir, op) else {
            return err(
                self.loc,
                "internal: a synchronizing op without ordering and scope",
            );
        };
        let kind = match code {
            Opcode::AtomicLoad => Kind::Load,
            Opcode::AtomicStore => Kind::Store,
            Opcode::Fence => Kind::Fence,
            _ => Kind::Rmw,
        };
        let seq = memory_model::sequence(kind, s, sync::space(ir, op));
        match code {
            Opcode::Atomic | Opcode::AtomicCmpxchg => self.atomic(op)?,
            Opcode::AtomicLoad => self.atomic_load(op)?,
            Opcode::AtomicStore => self.atomic_store(op)?,
            _ => {}
        }
        if kind == Kind::Fence {
            self.steps(&seq.before);
        } else {
            // The release side goes right before the access, after the register moves that
            // feed it (as LLVM places it): they touch no memory.
            let access = self.access_bits(&seq)?;
            self.steps(&seq.before);
            let b = self.cur;
            self.mf.blocks[b].insts.push(access);
        }
        self.steps(&seq.after);
        Ok(())
    }

    /// `kernel.barrier`.
    pub(super) fn barrier(&mut self) {
        let seq = memory_model::barrier();
        self.steps(&seq.before);
        self.emit(Opc::S_BARRIER, vec![]);
        self.steps(&seq.after);
    }

    fn steps(&mut self, steps: &[Step]) {
        for &s in steps {
            let (op, sc0, sc1) = match s {
                Step::Wait { vm, lgkm } => {
                    let wait = Operand::Wait {
                        vm: vm.then_some(0),
                        lgkm: lgkm.then_some(0),
                    };
                    self.emit(Opc::S_WAITCNT, vec![wait]);
                    continue;
                }
                Step::WriteBack { sc0, sc1 } => (Opc::BUFFER_WBL2, sc0, sc1),
                Step::Invalidate { sc0, sc1 } => (Opc::BUFFER_INV, sc0, sc1),
            };
            let i = self.emit(op, vec![]);
            (i.sc0, i.sc1) = (sc0, sc1);
        }
    }

    /// Takes the access just emitted (the last instruction of the current block) out of the
    /// block, with the table's cache-policy bits set.
    fn access_bits(&mut self, seq: &Sequence) -> Result<Inst, IselError> {
        let b = self.cur;
        match self.mf.blocks[b].insts.pop() {
            Some(mut i) if i.op.desc().mem => {
                if i.op.desc().fmt == crate::isa::Fmt::Global {
                    (i.sc0, i.sc1) = (seq.sc0, seq.sc1);
                }
                Ok(i)
            }
            _ => err(
                self.loc,
                "internal: an atomic access was not the last instruction",
            ),
        }
    }

    /// `kernel.atomic_load`: one vector load of the element.
    fn atomic_load(&mut self, op: Op) -> Result<(), IselError> {
        let d = &self.ir.ops[op];
        let wide = Self::dwords(self.ir.value_type(d.results[0])) == 2;
        let a = self.pointer_address(op, d.operands[0])?;
        let r = if wide { self.v64() } else { self.v32() };
        match a.global() {
            Some((vaddr, saddr, offset)) => {
                let o = if wide {
                    Opc::GLOBAL_LOAD_DWORDX2
                } else {
                    Opc::GLOBAL_LOAD_DWORD
                };
                self.emit(o, vec![mir::r(r), mir::r(vaddr), saddr]).offset = offset;
            }
            None => {
                let super::memory::Addr::Lds { addr, offset } = a else {
                    unreachable!("not global")
                };
                let o = if wide {
                    Opc::DS_READ_B64
                } else {
                    Opc::DS_READ_B32
                };
                self.emit(o, vec![mir::r(r), mir::r(addr)]).offset = offset;
            }
        }
        self.def(op, Val::V(r));
        Ok(())
    }

    /// `kernel.atomic_store`: one vector store of the element.
    fn atomic_store(&mut self, op: Op) -> Result<(), IselError> {
        let d = &self.ir.ops[op];
        let (val, p) = (d.operands[0], d.operands[1]);
        let dw = Self::dwords(self.ir.value_type(val));
        let a = self.pointer_address(op, p)?;
        let x = self.use_val(val, op)?;
        let data = self.read_only_vreg(x, dw)?;
        match a.global() {
            Some((vaddr, saddr, offset)) => {
                let o = if dw == 2 {
                    Opc::GLOBAL_STORE_DWORDX2
                } else {
                    Opc::GLOBAL_STORE_DWORD
                };
                self.emit(o, vec![mir::r(vaddr), mir::r(data), saddr])
                    .offset = offset;
            }
            None => {
                let super::memory::Addr::Lds { addr, offset } = a else {
                    unreachable!("not global")
                };
                let o = if dw == 2 {
                    Opc::DS_WRITE_B64
                } else {
                    Opc::DS_WRITE_B32
                };
                self.emit(o, vec![mir::r(addr), mir::r(data)]).offset = offset;
            }
        }
        Ok(())
    }
}
