//! The gfx942 memory model around atomics: the cache maintenance and waits of LLVM's
//! AMDGPUUsage "Memory Model GFX942" sequences for the orderings and scopes kc's atomics have
//! (the ones kc's LLVM IR declares: `seq_cst` at agent scope on global memory, `seq_cst` at
//! workgroup scope on LDS), in the non-tgsplit execution mode kc's kernels run in. They are
//! what llc-22 emits for kc's own LLVM IR of the same kernel (`tests/filetests/gfx942/
//! memory_model.k` compares them).
//!
//! Pre: allocated MIR (no pseudos).
//! Post: every global atomic is `buffer_wbl2 sc1` (write back the L2 for agent-scope
//! coherence), `s_waitcnt vmcnt(0) lgkmcnt(0)` (release: every earlier memory operation
//! done), the atomic, `s_waitcnt vmcnt(0)`, `buffer_inv sc1` (acquire: the atomic done, the
//! caches invalidated so later loads see other agents' writes); every LDS atomic is
//! `s_waitcnt lgkmcnt(0)`, the atomic, `s_waitcnt lgkmcnt(0)` (LDS is coherent within the
//! workgroup: only the order of operations matters). The `waitcnt` pass after it drops the
//! parts of these waits whose counters are already zero. Barriers need no change: `waitcnt`
//! already waits for every outstanding memory operation before `s_barrier` (the release of
//! kc's workgroup-scope fence), and the acquire side is empty in this mode.
//!
//! Linear in the instructions.

use crate::isa::{Fmt, Opc, Unit};
use crate::mir::{Func, Inst, Operand};

/// Is `op` an atomic read-modify-write of global memory (`global_atomic_*`)?
fn global_atomic(op: Opc) -> bool {
    op.desc().fmt == Fmt::Global && op.name().starts_with("global_atomic")
}

/// Is `op` an LDS atomic (`ds_*_rtn_*`)?
fn lds_atomic(op: Opc) -> bool {
    op.desc().unit == Unit::Lds && op.name().contains("_rtn_")
}

fn wait(vm: Option<u8>, lgkm: Option<u8>, like: &Inst) -> Inst {
    Inst::new(Opc::S_WAITCNT, vec![Operand::Wait { vm, lgkm }], like.loc)
}

fn cache_op(op: Opc, like: &Inst) -> Inst {
    let mut i = Inst::new(op, Vec::new(), like.loc);
    i.sc1 = true;
    i
}

/// Surrounds every atomic of `f` with its memory-model sequence.
pub fn insert_sequences(f: &mut Func) {
    for bi in 0..f.layout.len() {
        let b = f.layout[bi];
        if !f.blocks[b]
            .insts
            .iter()
            .any(|i| global_atomic(i.op) || lds_atomic(i.op))
        {
            continue;
        }
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let mut out = Vec::with_capacity(insts.len() + 8);
        for inst in insts {
            if global_atomic(inst.op) {
                out.push(cache_op(Opc::BUFFER_WBL2, &inst));
                out.push(wait(Some(0), Some(0), &inst));
                let (w, inv) = (wait(Some(0), None, &inst), cache_op(Opc::BUFFER_INV, &inst));
                out.push(inst);
                out.push(w);
                out.push(inv);
            } else if lds_atomic(inst.op) {
                out.push(wait(None, Some(0), &inst));
                let w = wait(None, Some(0), &inst);
                out.push(inst);
                out.push(w);
            } else {
                out.push(inst);
            }
        }
        f.blocks[b].insts = out;
    }
}
