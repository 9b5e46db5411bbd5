//! LLVM IR of kc's synchronizing ops: atomics, atomic loads and stores, fences and the
//! barrier. Each carries its op's ordering (`relaxed` is LLVM's `monotonic`) and scope as
//! LLVM's AMDGPU `syncscope` (`"wavefront"`, `"workgroup"`, `"agent"`, none for system; never
//! the `-one-as` variants, since kc's orderings cover every address space: `kc_dialect::sync`). A
//! compare-and-exchange fails with [`Ordering::cmpxchg_failure`] of its success ordering.

use super::{align, scalar_ty, FuncEmitter};
use kc_dialect::entities::Op;
use kc_dialect::registry::Opcode;
use kc_dialect::sync::{self, Ordering};
use kc_dialect::types::Scalar;

impl FuncEmitter<'_> {
    /// `syncscope("agent") acq_rel` (with a leading space) of `op`.
    fn ordering(&self, op: Op) -> Result<(String, Ordering), String> {
        let s = sync::of(self.ir, op).ok_or_else(|| {
            format!(
                "`{}` needs valid `ordering` and `scope` attributes",
                self.ir.spec(op).name
            )
        })?;
        Ok((
            format!("{} {}", s.scope.llvm_syncscope(), s.ordering.llvm()),
            s.ordering,
        ))
    }

    /// Emits one synchronizing op (`sync::access(opcode)` is `Some`) or the barrier.
    pub(super) fn sync_op(&mut self, op: Op) -> Result<(), String> {
        let ir = self.ir;
        match ir.opcode(op) {
            Opcode::Atomic => {
                let r = self.result(op)?;
                let (p, v) = (self.operand(op, 0)?, self.operand(op, 1)?);
                let (elem, asp, _) = self.pointee(p)?;
                let kind = self.str_attr(op, "kind")?;
                let ok = match kind.as_str() {
                    "add" | "min" | "max" | "umin" | "umax" => {
                        matches!(elem, Scalar::I32 | Scalar::I64)
                    }
                    "xchg" => elem != Scalar::I1,
                    "fadd" => elem == Scalar::F32,
                    _ => false,
                };
                if !ok {
                    return Err(format!("`kernel.atomic {kind}` on {elem} is not supported"));
                }
                let (order, _) = self.ordering(op)?;
                let p = self.val(p)?;
                let v = self.tv(v)?;
                self.line(format!(
                    "%{r} = atomicrmw {kind} ptr addrspace({asp}) {p}, {v}{order}, align {}",
                    align(elem)
                ));
            }
            Opcode::AtomicCmpxchg => {
                let r = self.result(op)?;
                let (p, c, n) = (
                    self.operand(op, 0)?,
                    self.operand(op, 1)?,
                    self.operand(op, 2)?,
                );
                let (elem, asp, _) = self.pointee(p)?;
                if !matches!(elem, Scalar::I32 | Scalar::I64) {
                    return Err(format!(
                        "`kernel.atomic_cmpxchg` on {elem} is not supported (integers only)"
                    ));
                }
                let (order, success) = self.ordering(op)?;
                let failure = success.cmpxchg_failure().llvm();
                let pair = self.fresh(format!("{r}.pair"));
                let (p, c, n) = (self.val(p)?, self.tv(c)?, self.tv(n)?);
                self.line(format!(
                    "%{pair} = cmpxchg ptr addrspace({asp}) {p}, {c}, {n}{order} {failure}, align {}",
                    align(elem)
                ));
                let t = scalar_ty(elem);
                self.line(format!("%{r} = extractvalue {{ {t}, i1 }} %{pair}, 0"));
            }
            Opcode::AtomicLoad => {
                let r = self.result(op)?;
                let p = self.operand(op, 0)?;
                let (elem, asp, _) = self.pointee(p)?;
                let (order, _) = self.ordering(op)?;
                let p = self.val(p)?;
                self.line(format!(
                    "%{r} = load atomic {}, ptr addrspace({asp}) {p}{order}, align {}",
                    scalar_ty(elem),
                    align(elem)
                ));
            }
            Opcode::AtomicStore => {
                let (v, p) = (self.operand(op, 0)?, self.operand(op, 1)?);
                let (elem, asp, _) = self.pointee(p)?;
                let (order, _) = self.ordering(op)?;
                let (v, p) = (self.tv(v)?, self.val(p)?);
                self.line(format!(
                    "store atomic {v}, ptr addrspace({asp}) {p}{order}, align {}",
                    align(elem)
                ));
            }
            Opcode::Fence => {
                let (order, _) = self.ordering(op)?;
                self.line(format!("fence{order}"));
            }
            Opcode::Barrier => {
                // Workgroup-scope release, the barrier, workgroup-scope acquire: HIP's
                // `__syncthreads`, LANGUAGE.md's `barrier()`.
                let b = self.bundle(op)?;
                self.line("fence syncscope(\"workgroup\") release");
                self.call(
                    None,
                    "void",
                    "llvm.amdgcn.s.barrier",
                    &[],
                    &[],
                    super::Attrs::Barrier,
                    &b,
                );
                self.line("fence syncscope(\"workgroup\") acquire");
            }
            other => return Err(format!("internal: `{}` is not a sync op", other.name())),
        }
        Ok(())
    }
}
