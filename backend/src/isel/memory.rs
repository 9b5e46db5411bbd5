//! Instruction selection for 64-bit atomics (`kernel.atomic` and `kernel.atomic_cmpxchg` on
//! i64 / u64 elements), global and shared.
//!
//! Guarantees: one returning gfx942 instruction per atomic, the one LLVM selects for the
//! same `atomicrmw` / `cmpxchg`: global `global_atomic_{add,smin,smax,umin,umax,swap}_x2`
//! and `global_atomic_cmpswap_x2` (data quad {new, cmp}) with `sc0` (return the old value);
//! LDS `ds_{add_rtn_u64, min_rtn_i64, max_rtn_i64, min_rtn_u64, max_rtn_u64,
//! wrxchg_rtn_b64}` and `ds_cmpst_rtn_b64` (compare, then new). The result is the old value
//! in a VGPR pair. The address is the one `Isel::atomic` computes for the 32-bit forms.

use super::{split_pair, Addr, Isel, IselError, Val};
use crate::isa::Opc;
use crate::mir::{self, Class, File};
use kc_dialect::{Attr, Op, Opcode};

impl Isel<'_> {
    /// The 64-bit atomic `op` at address `a`.
    pub(crate) fn atomic64(&mut self, op: Op, a: Addr) -> Result<(), IselError> {
        let ir = self.ir;
        let d = &ir.ops[op];
        let r = self.v64();
        if d.opcode == Opcode::AtomicCmpxchg {
            let cmp = self.use_val(d.operands[1], op)?;
            let new = self.use_val(d.operands[2], op)?;
            if let Addr::Lds { addr, offset } = a {
                let c = self.vpair(cmp)?;
                let n = self.vpair(new)?;
                let ops = vec![mir::r(r), mir::r(addr), mir::r(c), mir::r(n)];
                self.emit(Opc::DS_CMPST_RTN_B64, ops).offset = offset;
            } else {
                let quad = self.mf.new_vreg(Class {
                    file: File::V,
                    dwords: 4,
                });
                for (k, x) in [(0, new), (2, cmp)] {
                    for i in 0..2 {
                        let src = self.vop_half(x, i)?;
                        self.emit(Opc::V_MOV_B32, vec![mir::rsub(quad, k + i, 1), src]);
                    }
                }
                self.global_atomic(Opc::GLOBAL_ATOMIC_CMPSWAP_X2, r, &a, quad);
            }
        } else {
            let kind = ir.attr(op, "kind").and_then(Attr::as_str).unwrap_or("add");
            let x = self.use_val(d.operands[1], op)?;
            let data = self.vpair(x)?;
            let (ds, global) = match kind {
                "add" => (Opc::DS_ADD_RTN_U64, Opc::GLOBAL_ATOMIC_ADD_X2),
                "min" => (Opc::DS_MIN_RTN_I64, Opc::GLOBAL_ATOMIC_SMIN_X2),
                "max" => (Opc::DS_MAX_RTN_I64, Opc::GLOBAL_ATOMIC_SMAX_X2),
                "umin" => (Opc::DS_MIN_RTN_U64, Opc::GLOBAL_ATOMIC_UMIN_X2),
                "umax" => (Opc::DS_MAX_RTN_U64, Opc::GLOBAL_ATOMIC_UMAX_X2),
                "xchg" => (Opc::DS_WRXCHG_RTN_B64, Opc::GLOBAL_ATOMIC_SWAP_X2),
                k => return Err(self.internal(&format!("64-bit atomic {k}"))),
            };
            if let Addr::Lds { addr, offset } = a {
                let ops = vec![mir::r(r), mir::r(addr), mir::r(data)];
                self.emit(ds, ops).offset = offset;
            } else {
                self.global_atomic(global, r, &a, data);
            }
        }
        self.def(op, Val::V(r));
        Ok(())
    }

    /// A returning global atomic `o` writing `r`, with data `data`.
    fn global_atomic(&mut self, o: Opc, r: mir::VReg, a: &Addr, data: mir::VReg) {
        let (vaddr, saddr, _) = a.global().expect("a global address");
        let i = self.emit(o, vec![mir::r(r), mir::r(vaddr), mir::r(data), saddr]);
        i.sc0 = true;
    }

    /// Dword `i` of a 64-bit value as a `v_mov_b32` source.
    fn vop_half(&mut self, x: Val, i: u8) -> Result<mir::Operand, IselError> {
        Ok(match x {
            Val::Const(c) => mir::Operand::Imm(if i == 0 {
                c as u32 as i32 as i64
            } else {
                (c >> 32) as u32 as i32 as i64
            }),
            Val::V(v) => mir::rsub(v, i, 1),
            other => {
                let (lo, hi) = split_pair(self.sop(other, 2)?);
                if i == 0 {
                    lo
                } else {
                    hi
                }
            }
        })
    }
}
