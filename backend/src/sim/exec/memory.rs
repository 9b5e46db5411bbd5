//! Memory instructions on one wave: scalar loads (SMEM), LDS (DS), global memory and the
//! lanes' private memory (scratch).
//! Loads read memory at issue and queue their result until `s_waitcnt` retires it.

use super::{f, Inst, Op, Pending, Shared, Stop, Wave};
use crate::isa::Opc;

pub(super) fn smem(w: &mut Wave, inst: &Inst, pc: u32, sh: &mut Shared) -> Result<(), Stop> {
    let ops = inst.ops;
    let base = w.s64(ops[1]);
    // An SGPR offset is unsigned; an immediate one is a signed 21-bit value.
    let off = match ops[2] {
        Op::K(k) => k as u32 as i32 as i64 as u64,
        op => w.s32(op) as u64,
    };
    // SMEM ignores the low two address bits.
    let addr = base.wrapping_add(off) & !3;
    let Op::S(_, n) = ops[0] else { unreachable!() };
    let mut p = Pending {
        inst: pc,
        dst: ops[0],
        smem: true,
        exec: 0,
        data: [[0; 64]; 4],
    };
    for k in 0..n as usize {
        let a = addr + 4 * k as u64;
        p.data[0][k] = sh
            .mem
            .load32(a)
            .map_err(|m| Stop::Fault(format!("scalar load at {a:#x}: {m}")))?;
    }
    w.issue(p, true);
    Ok(())
}

pub(super) fn ds(
    w: &mut Wave,
    inst: &Inst,
    pc: u32,
    exec: u64,
    sh: &mut Shared,
) -> Result<(), Stop> {
    use Opc::*;
    let ops = inst.ops;
    let off = inst.offset as u32;
    let mut p = Pending {
        inst: pc,
        dst: Op::None,
        smem: false,
        exec,
        data: [[0; 64]; 4],
    };
    let lanes = (0..64).filter(|l| exec >> l & 1 != 0);
    match inst.opc {
        DS_BPERMUTE_B32 => {
            // Lane i reads lane ((addr_i + offset) >> 2) & 63; an inactive source reads 0.
            let (addr, data) = (w.vsrc(ops[1]), w.vsrc(ops[2]));
            for l in lanes {
                let src = (addr[l].wrapping_add(off) >> 2) & 63;
                p.data[0][l] = if exec >> src & 1 != 0 {
                    data[src as usize]
                } else {
                    0
                };
            }
            p.dst = ops[0];
        }
        DS_WRITE_B32 | DS_WRITE_B64 => {
            let addr = w.vsrc(ops[0]);
            let Op::V(r, n) = ops[1] else { unreachable!() };
            for l in lanes {
                let a = addr[l].wrapping_add(off);
                for k in 0..n as u32 {
                    let v = w.v[r as usize + k as usize][l];
                    sh.lds
                        .store32(a, k, n, v)
                        .map_err(|m| lane_fault(l, a, m))?;
                }
            }
        }
        DS_READ_B32 | DS_READ_B64 => {
            let addr = w.vsrc(ops[1]);
            let Op::V(_, n) = ops[0] else { unreachable!() };
            for l in lanes {
                let a = addr[l].wrapping_add(off);
                for k in 0..n as u32 {
                    p.data[k as usize][l] =
                        sh.lds.load32(a, k, n).map_err(|m| lane_fault(l, a, m))?;
                }
            }
            p.dst = ops[0];
        }
        DS_READ2_B32 | DS_READ2ST64_B32 | DS_READ2_B64 | DS_READ2ST64_B64 | DS_WRITE2_B32
        | DS_WRITE2ST64_B32 | DS_WRITE2_B64 | DS_WRITE2ST64_B64 => {
            // Two accesses of `n` dwords at addr + offset0 * unit and addr + offset1 * unit.
            let wide = matches!(
                inst.opc,
                DS_READ2_B64 | DS_READ2ST64_B64 | DS_WRITE2_B64 | DS_WRITE2ST64_B64
            );
            let st64 = matches!(
                inst.opc,
                DS_READ2ST64_B32 | DS_READ2ST64_B64 | DS_WRITE2ST64_B32 | DS_WRITE2ST64_B64
            );
            let n: u8 = if wide { 2 } else { 1 };
            let unit = 4 * n as u32 * if st64 { 64 } else { 1 };
            let offs = [inst.offset as u32 * unit, inst.offset1 as u32 * unit];
            let write = inst.opc.desc().defs == 0;
            let addr = w.vsrc(ops[if write { 0 } else { 1 }]);
            for l in lanes {
                for (h, o) in offs.iter().enumerate() {
                    let a = addr[l].wrapping_add(*o);
                    for k in 0..n as u32 {
                        if write {
                            let Op::V(r, _) = ops[1 + h] else {
                                unreachable!()
                            };
                            let v = w.v[r as usize + k as usize][l];
                            sh.lds
                                .store32(a, k, n, v)
                                .map_err(|m| lane_fault(l, a, m))?;
                        } else {
                            p.data[h * n as usize + k as usize][l] =
                                sh.lds.load32(a, k, n).map_err(|m| lane_fault(l, a, m))?;
                        }
                    }
                }
            }
            if !write {
                p.dst = ops[0];
            }
        }
        DS_ADD_U32 | DS_SUB_U32 | DS_MIN_I32 | DS_MAX_I32 | DS_MIN_U32 | DS_MAX_U32
        | DS_AND_B32 | DS_OR_B32 | DS_XOR_B32 | DS_ADD_F32 => {
            // Non-returning atomics, lane by lane in lane order.
            let (addr, x) = (w.vsrc(ops[0]), w.vsrc(ops[1]));
            for l in lanes {
                let a = addr[l].wrapping_add(off);
                let old = sh.lds.load32(a, 0, 1).map_err(|m| lane_fault(l, a, m))?;
                let new = atomic32(inst.opc, old, x[l], 0);
                sh.lds
                    .store32(a, 0, 1, new)
                    .map_err(|m| lane_fault(l, a, m))?;
            }
        }
        DS_ADD_RTN_U64 | DS_MIN_RTN_I64 | DS_MAX_RTN_I64 | DS_MIN_RTN_U64 | DS_MAX_RTN_U64
        | DS_WRXCHG_RTN_B64 | DS_CMPST_RTN_B64 => {
            // 64-bit returning atomics (8-byte aligned), lane by lane in lane order.
            let addr = w.vsrc(ops[1]);
            let x = w.vsrc64(ops[2]);
            let y = if inst.opc == DS_CMPST_RTN_B64 {
                w.vsrc64(ops[3])
            } else {
                [0; 64]
            };
            for l in lanes {
                let a = addr[l].wrapping_add(off);
                let fault = |m| lane_fault(l, a, m);
                let old = sh.lds.load32(a, 0, 2).map_err(fault)? as u64
                    | (sh.lds.load32(a, 1, 2).map_err(fault)? as u64) << 32;
                let new = atomic64(inst.opc, old, x[l], y[l]);
                sh.lds.store32(a, 0, 2, new as u32).map_err(fault)?;
                sh.lds.store32(a, 1, 2, (new >> 32) as u32).map_err(fault)?;
                p.data[0][l] = old as u32;
                p.data[1][l] = (old >> 32) as u32;
            }
            p.dst = ops[0];
        }
        opc => {
            // Returning atomics, lane by lane in lane order.
            let addr = w.vsrc(ops[1]);
            let x = w.vsrc(ops[2]);
            let y = if opc == DS_CMPST_RTN_B32 {
                w.vsrc(ops[3])
            } else {
                [0; 64]
            };
            for l in lanes {
                let a = addr[l].wrapping_add(off);
                let old = sh.lds.load32(a, 0, 1).map_err(|m| lane_fault(l, a, m))?;
                let new = atomic32(opc, old, x[l], y[l]);
                sh.lds
                    .store32(a, 0, 1, new)
                    .map_err(|m| lane_fault(l, a, m))?;
                p.data[0][l] = old;
            }
            p.dst = ops[0];
        }
    }
    w.issue(p, true);
    Ok(())
}

/// The new value of a 32-bit LDS atomic (returning or not) on `old` with data `x` (and `y`).
fn atomic32(opc: Opc, old: u32, x: u32, y: u32) -> u32 {
    use Opc::*;
    match opc {
        DS_ADD_RTN_U32 | DS_ADD_U32 => old.wrapping_add(x),
        DS_SUB_U32 => old.wrapping_sub(x),
        DS_MIN_RTN_I32 | DS_MIN_I32 => (old as i32).min(x as i32) as u32,
        DS_MAX_RTN_I32 | DS_MAX_I32 => (old as i32).max(x as i32) as u32,
        DS_MIN_RTN_U32 | DS_MIN_U32 => old.min(x),
        DS_MAX_RTN_U32 | DS_MAX_U32 => old.max(x),
        DS_AND_B32 => old & x,
        DS_OR_B32 => old | x,
        DS_XOR_B32 => old ^ x,
        DS_WRXCHG_RTN_B32 => x,
        DS_ADD_RTN_F32 | DS_ADD_F32 => (f(old) + f(x)).to_bits(),
        // ds_cmpst: data0 is the compare value, data1 the new value.
        DS_CMPST_RTN_B32 => {
            if old == x {
                y
            } else {
                old
            }
        }
        o => unreachable!("{o} is not a 32-bit DS atomic"),
    }
}

fn lane_fault(lane: usize, addr: impl std::fmt::LowerHex, m: String) -> Stop {
    Stop::Fault(format!("lane {lane}, address {addr:#x}: {m}"))
}

/// `scratch_load_dword{,x2}` / `scratch_store_dword{,x2}`: lane `l` of the active lanes
/// accesses byte `saddr + vaddr[l] + offset` of its own private segment (dword aligned).
pub(super) fn scratch(w: &mut Wave, inst: &Inst, pc: u32, exec: u64) -> Result<(), Stop> {
    use Opc::*;
    let ops = inst.ops;
    let store = matches!(inst.opc, SCRATCH_STORE_DWORD | SCRATCH_STORE_DWORDX2);
    let (vaddr, data) = if store {
        (ops[0], ops[1])
    } else {
        (ops[1], ops[0])
    };
    let Op::V(r, n) = data else { unreachable!() };
    let base = match ops[2] {
        Op::Off => 0,
        sa => w.s32(sa),
    };
    let offs = match vaddr {
        Op::Off => [0; 64],
        va => w.vsrc(va),
    };
    let dwords = (w.scratch.len() / 64) as u64;
    let mut p = Pending {
        inst: pc,
        dst: if store { Op::None } else { data },
        smem: false,
        exec,
        data: [[0; 64]; 4],
    };
    for l in (0..64).filter(|l| exec >> l & 1 != 0) {
        let a = base.wrapping_add(offs[l]).wrapping_add(inst.offset as u32);
        let fault = |m: String| lane_fault(l, a, format!("scratch: {m}"));
        if !w.scratch_on {
            return Err(fault(
                "the kernel does not enable the private segment".into(),
            ));
        }
        if !a.is_multiple_of(4) {
            return Err(fault("unaligned dword access".into()));
        }
        let d = (a / 4) as u64;
        if d + n as u64 > dwords {
            return Err(fault(format!(
                "outside the lane's private segment of {} bytes",
                dwords * 4
            )));
        }
        for k in 0..n as usize {
            let at = 64 * (d as usize + k) + l;
            if store {
                w.scratch[at] = w.v[r as usize + k][l];
            } else {
                p.data[k][l] = w.scratch[at];
            }
        }
    }
    // A store counts in vmcnt too, as on the hardware.
    w.issue(p, false);
    Ok(())
}

pub(super) fn global(
    w: &mut Wave,
    inst: &Inst,
    pc: u32,
    exec: u64,
    sh: &mut Shared,
) -> Result<(), Stop> {
    use Opc::*;
    let ops = inst.ops;
    let d = inst.opc.desc();
    // Slots: loads/atomics [vdst, vaddr, (vdata,) saddr]; stores [vaddr, vdata, saddr].
    let (ai, di) = match inst.opc {
        GLOBAL_STORE_DWORD | GLOBAL_STORE_DWORDX2 | GLOBAL_STORE_DWORDX3 => (0, Some(1)),
        GLOBAL_LOAD_DWORD | GLOBAL_LOAD_DWORDX2 => (1, None),
        _ => (1, Some(2)),
    };
    let saddr = ops[d.operands.len() - 1];
    let addrs: [u64; 64] = match saddr {
        Op::Off => w.vsrc64(ops[ai]),
        sa => {
            let base = w.s64(sa);
            let off = w.vsrc(ops[ai]);
            std::array::from_fn(|l| base.wrapping_add(off[l] as u64))
        }
    };
    let off = inst.offset as i64 as u64;
    let mut p = Pending {
        inst: pc,
        dst: Op::None,
        smem: false,
        exec,
        data: [[0; 64]; 4],
    };
    let lanes = (0..64).filter(|l| exec >> l & 1 != 0);
    match inst.opc {
        GLOBAL_LOAD_DWORD | GLOBAL_LOAD_DWORDX2 => {
            let Op::V(_, n) = ops[0] else { unreachable!() };
            for l in lanes {
                let a = addrs[l].wrapping_add(off);
                for k in 0..n as usize {
                    p.data[k][l] = sh
                        .mem
                        .load32(a + 4 * k as u64)
                        .map_err(|m| lane_fault(l, a, m))?;
                }
            }
            p.dst = ops[0];
        }
        GLOBAL_STORE_DWORD | GLOBAL_STORE_DWORDX2 | GLOBAL_STORE_DWORDX3 => {
            let Op::V(r, n) = ops[di.unwrap()] else {
                unreachable!()
            };
            for l in lanes {
                let a = addrs[l].wrapping_add(off);
                for k in 0..n as usize {
                    let v = w.v[r as usize + k][l];
                    sh.mem
                        .store32(a + 4 * k as u64, v)
                        .map_err(|m| lane_fault(l, a, m))?;
                }
            }
        }
        GLOBAL_ATOMIC_ADD_X2
        | GLOBAL_ATOMIC_SMIN_X2
        | GLOBAL_ATOMIC_SMAX_X2
        | GLOBAL_ATOMIC_UMIN_X2
        | GLOBAL_ATOMIC_UMAX_X2
        | GLOBAL_ATOMIC_SWAP_X2
        | GLOBAL_ATOMIC_CMPSWAP_X2 => {
            // vdata: the operand pair; for cmpswap the quad {new, cmp}.
            let Op::V(r, _) = ops[di.unwrap()] else {
                unreachable!()
            };
            let r = r as usize;
            let pair =
                |w: &Wave, k: usize, l: usize| w.v[k][l] as u64 | (w.v[k + 1][l] as u64) << 32;
            for l in lanes {
                let a = addrs[l].wrapping_add(off);
                let fault = |m| lane_fault(l, a, m);
                if !a.is_multiple_of(8) {
                    return Err(fault("misaligned 64-bit atomic".into()));
                }
                let old = sh.mem.load32(a).map_err(fault)? as u64
                    | (sh.mem.load32(a + 4).map_err(fault)? as u64) << 32;
                // Only cmpswap's data is a quad: reading past the pair of the others could
                // run off the kernel's VGPRs.
                let x = pair(w, r, l);
                let opc = match inst.opc {
                    GLOBAL_ATOMIC_ADD_X2 => DS_ADD_RTN_U64,
                    GLOBAL_ATOMIC_SMIN_X2 => DS_MIN_RTN_I64,
                    GLOBAL_ATOMIC_SMAX_X2 => DS_MAX_RTN_I64,
                    GLOBAL_ATOMIC_UMIN_X2 => DS_MIN_RTN_U64,
                    GLOBAL_ATOMIC_UMAX_X2 => DS_MAX_RTN_U64,
                    GLOBAL_ATOMIC_SWAP_X2 => DS_WRXCHG_RTN_B64,
                    // Global cmpswap holds {new, cmp}; ds_cmpst takes (cmp, new).
                    _ => {
                        let new = atomic64(DS_CMPST_RTN_B64, old, pair(w, r + 2, l), x);
                        store64(sh, a, new).map_err(fault)?;
                        p.data[0][l] = old as u32;
                        p.data[1][l] = (old >> 32) as u32;
                        continue;
                    }
                };
                store64(sh, a, atomic64(opc, old, x, 0)).map_err(fault)?;
                p.data[0][l] = old as u32;
                p.data[1][l] = (old >> 32) as u32;
            }
            if inst.ret {
                p.dst = ops[0];
            }
        }
        opc => {
            let Op::V(r, _) = ops[di.unwrap()] else {
                unreachable!()
            };
            for l in lanes {
                let a = addrs[l].wrapping_add(off);
                let x = w.v[r as usize][l];
                let old = sh.mem.load32(a).map_err(|m| lane_fault(l, a, m))?;
                let new = match opc {
                    GLOBAL_ATOMIC_ADD => old.wrapping_add(x),
                    GLOBAL_ATOMIC_SMIN => (old as i32).min(x as i32) as u32,
                    GLOBAL_ATOMIC_SMAX => (old as i32).max(x as i32) as u32,
                    GLOBAL_ATOMIC_UMIN => old.min(x),
                    GLOBAL_ATOMIC_UMAX => old.max(x),
                    GLOBAL_ATOMIC_SWAP => x,
                    GLOBAL_ATOMIC_ADD_F32 => (f(old) + f(x)).to_bits(),
                    // vdata = {new, cmp}: store `new` if memory holds `cmp`.
                    GLOBAL_ATOMIC_CMPSWAP => {
                        if old == w.v[r as usize + 1][l] {
                            x
                        } else {
                            old
                        }
                    }
                    o => unreachable!("{o} is not a global op"),
                };
                sh.mem.store32(a, new).map_err(|m| lane_fault(l, a, m))?;
                p.data[0][l] = old;
            }
            if inst.ret {
                p.dst = ops[0];
            }
        }
    }
    w.issue(p, false);
    Ok(())
}

fn store64(sh: &mut Shared, a: u64, v: u64) -> Result<(), String> {
    sh.mem.store32(a, v as u32)?;
    sh.mem.store32(a + 4, (v >> 32) as u32)
}

/// The new value of a 64-bit atomic (named by its LDS opcode) on `old` with data `x` (and,
/// for compare-and-store, the new value `y` stored when `old == x`).
fn atomic64(opc: Opc, old: u64, x: u64, y: u64) -> u64 {
    use Opc::*;
    match opc {
        DS_ADD_RTN_U64 => old.wrapping_add(x),
        DS_MIN_RTN_I64 => (old as i64).min(x as i64) as u64,
        DS_MAX_RTN_I64 => (old as i64).max(x as i64) as u64,
        DS_MIN_RTN_U64 => old.min(x),
        DS_MAX_RTN_U64 => old.max(x),
        DS_WRXCHG_RTN_B64 => x,
        DS_CMPST_RTN_B64 => {
            if old == x {
                y
            } else {
                old
            }
        }
        o => unreachable!("{o} is not a 64-bit atomic"),
    }
}
