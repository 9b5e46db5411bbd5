//! Instruction selection for memory: pointer arithmetic (`kernel.ptr_offset`), loads, stores,
//! atomics (32- and 64-bit) and shared arrays (`kernel.shared_alloc`).
//!
//! Guarantees:
//! - a byte offset `idx * sizeof(elem)` is exact (an `i32` index is signed, an `i64` one all
//!   64 bits) and computed in the cheapest form that cannot wrap: a constant, 32 bits when
//!   `value_range` bounds the index, else 64 bits (`byte_offset`); address arithmetic on a
//!   uniform pointer and index stays on the scalar unit;
//! - a global access through a uniform pointer is `global_*` with the scalar base and a VGPR
//!   byte offset (a constant one below 4096 in the immediate offset field), otherwise through
//!   a 64-bit VGPR address (`off`); an LDS access is `ds_*` on a 32-bit VGPR byte address, a
//!   constant part folded into the 16-bit offset field;
//! - a uniform load from a pointer argument that no store or atomic in the kernel may write
//!   (`memory_facts`, `setup.rs`) is a scalar `s_load_dword{,x2}`;
//! - a 32-bit atomic is one returning instruction: global
//!   `global_atomic_{add,smin,smax,umin,umax,swap,add_f32}` and `global_atomic_cmpswap` (data
//!   pair {new, cmp}) with `sc0` (return the old value), LDS
//!   `ds_{add_rtn_u32,min_rtn_i32,max_rtn_i32,min_rtn_u32,max_rtn_u32,wrxchg_rtn_b32,add_rtn_f32}`
//!   and `ds_cmpst_rtn_b32` (compare, then new); the old value in a VGPR;
//! - a 64-bit atomic (`kernel.atomic` and `kernel.atomic_cmpxchg` on i64 / u64 elements) is
//!   one returning gfx942 instruction, the one LLVM selects for the same `atomicrmw` /
//!   `cmpxchg`: global `global_atomic_{add,smin,smax,umin,umax,swap}_x2` and
//!   `global_atomic_cmpswap_x2` (data quad {new, cmp}) with `sc0`; LDS `ds_{add_rtn_u64,
//!   min_rtn_i64, max_rtn_i64, min_rtn_u64, max_rtn_u64, wrxchg_rtn_b64}` and
//!   `ds_cmpst_rtn_b64` (compare, then new). The result is the old value in a VGPR pair. The
//!   address is the one `atomic` computes for the 32-bit forms;
//! - shared arrays get consecutive 8-byte-aligned LDS offsets (`KernelInfo::lds_size`), from
//!   the layout the verifier limits to 64 KiB (`kc_dialect::verify::LdsLayout`, an `i1`
//!   element a dword as it is loaded and stored): a pointer to one is a constant.
//!
//! Atomics are selected here; `sync.rs` puts the memory model's sequence around them.

use super::{err, split_pair, Isel, IselError, Operand2, Val};
use crate::isa::Opc;
use crate::mir::{self, Class, File, Operand, VReg};
use kc_dialect::analysis::value_range;
use kc_dialect::verify::{storage_bytes, LdsLayout, LDS_LIMIT};
use kc_dialect::{AddrSpace, Attr, Op, Opcode, Scalar, Type, Value};

/// An index value and the VGPR holding it.
type IndexReg = (Value, VReg);

impl Isel<'_> {
    /// `kernel.ptr_offset`: `p + idx * sizeof(elem)`.
    pub(super) fn ptr_offset(&mut self, op: Op, div: bool) -> Result<(), IselError> {
        let ir = self.ir;
        let d = &ir.ops[op];
        let p = self.use_val(d.operands[0], op)?;
        let idx = self.use_val(d.operands[1], op)?;
        let (space, elem) = match ir.value_type(d.results[0]) {
            Type::Ptr(s, e) => (s, e),
            _ => return err(self.loc, "internal: ptr_offset type"),
        };
        let x = self.ptr_add(space, elem, p, idx, d.operands[1], div)?;
        self.def(op, x);
        Ok(())
    }

    /// The byte offset `idx << shift` of an index value, exactly (an `i32` index is signed, an
    /// `i64` one is all 64 bits; a `u32` index arrives zero-extended to `i64`), in the
    /// cheapest form that cannot wrap: a constant; a 32-bit register when the index is proven
    /// to lie in `0..2^(32 - shift)` (`value_range`); else 64 bits. With `scalar` the result
    /// is computed on the scalar unit (the index is uniform), otherwise in VGPRs.
    fn byte_offset(
        &mut self,
        iv: Val,
        idx: Value,
        shift: i64,
        scalar: bool,
    ) -> Result<ByteOff, IselError> {
        let wide = self.ir.value_type(idx).bits() == 64;
        if let Val::Const(c) = iv {
            let c = if wide { c } else { c as i32 as i64 };
            return Ok(ByteOff::Const(c.wrapping_shl(shift as u32)));
        }
        let small = value_range::nonneg_bound(self.ir, idx).is_some_and(|b| b >> (32 - shift) == 0);
        let dw = if wide { 2 } else { 1 };
        if scalar {
            let is = self.sop(iv, dw)?;
            if small {
                let lo = low_dword(is);
                if shift == 0 {
                    return Ok(ByteOff::S32(lo));
                }
                let t = self.s32();
                self.emit(Opc::S_LSHL_B32, vec![mir::r(t), lo, Operand::Imm(shift)]);
                return Ok(ByteOff::S32(mir::r(t)));
            }
            let t = self.s64();
            if wide {
                self.emit(Opc::S_LSHL_B64, vec![mir::r(t), is, Operand::Imm(shift)]);
            } else {
                // sext(idx) << shift: the low word is idx << shift, the high word the bits
                // shifted out of it, sign-extended.
                self.emit(
                    Opc::S_LSHL_B32,
                    vec![mir::rsub(t, 0, 1), is.clone(), Operand::Imm(shift)],
                );
                self.emit(
                    Opc::S_ASHR_I32,
                    vec![mir::rsub(t, 1, 1), is, Operand::Imm((32 - shift).min(31))],
                );
            }
            return Ok(ByteOff::S64(t));
        }
        if small {
            if let Some(&t) = self.byte_offsets.get(&(idx, shift)) {
                return Ok(ByteOff::V32(t));
            }
        }
        let v = self.vreg(iv, dw)?;
        if small {
            let lo = if wide { mir::rsub(v, 0, 1) } else { mir::r(v) };
            let t = self.v32();
            self.emit(Opc::V_LSHLREV_B32, vec![mir::r(t), Operand::Imm(shift), lo]);
            self.byte_offsets.insert((idx, shift), t);
            return Ok(ByteOff::V32(t));
        }
        Ok(ByteOff::V64Index(self.vindex64(v, wide)))
    }

    /// A VGPR index as 64 bits: an `i32` one sign-extended into a new pair.
    fn vindex64(&mut self, v: VReg, wide: bool) -> VReg {
        if wide {
            return v;
        }
        let w = self.v64();
        self.emit(Opc::V_MOV_B32, vec![mir::rsub(w, 0, 1), mir::r(v)]);
        self.emit(
            Opc::V_ASHRREV_I32,
            vec![mir::rsub(w, 1, 1), Operand::Imm(31), mir::r(v)],
        );
        w
    }

    /// `base + off` on the scalar unit, for a uniform 64-bit base and a uniform offset.
    fn sadd64(&mut self, base: Operand, off: &ByteOff) -> Result<VReg, IselError> {
        let (lo, hi) = match off {
            ByteOff::Const(c) => split_pair(Operand::Imm(*c)),
            ByteOff::S32(o) => (o.clone(), Operand::Imm(0)),
            ByteOff::S64(t) => (mir::rsub(*t, 0, 1), mir::rsub(*t, 1, 1)),
            ByteOff::V32(_) | ByteOff::V64Index(_) => {
                return Err(self.internal("a divergent offset added on the scalar unit"))
            }
        };
        let (blo, bhi) = split_pair(base);
        let r = self.s64();
        self.emit(Opc::S_ADD_U32, vec![mir::rsub(r, 0, 1), blo, lo]);
        self.emit(Opc::S_ADDC_U32, vec![mir::rsub(r, 1, 1), bhi, hi]);
        Ok(r)
    }

    /// The low 32 bits of an index as an LDS byte offset (LDS addresses are 32-bit; an index
    /// outside the array may land in another shared array, as on the hardware: `--engine ref`
    /// reports it).
    fn lds_offset(&mut self, iv: Val, idx: Value, shift: i64) -> Result<Val, IselError> {
        let wide = self.ir.value_type(idx).bits() == 64;
        Ok(match iv {
            Val::Const(c) => Val::Const(((c as u32) << shift) as i32 as i64),
            Val::V(v) => {
                let lo = if wide { mir::rsub(v, 0, 1) } else { mir::r(v) };
                let t = self.v32();
                self.emit(Opc::V_LSHLREV_B32, vec![mir::r(t), Operand::Imm(shift), lo]);
                Val::V(t)
            }
            other => {
                let is = self.sop(other, if wide { 2 } else { 1 })?;
                let t = self.s32();
                self.emit(
                    Opc::S_LSHL_B32,
                    vec![mir::r(t), low_dword(is), Operand::Imm(shift)],
                );
                Val::S(Operand2::Virt(t))
            }
        })
    }

    /// `p + idx * sizeof(elem)` (a `kernel.ptr_offset`).
    fn ptr_add(
        &mut self,
        space: AddrSpace,
        elem: Scalar,
        p: Val,
        iv: Val,
        idx: Value,
        div: bool,
    ) -> Result<Val, IselError> {
        let shift = elem_shift(elem);
        match space {
            AddrSpace::Shared => {
                let off = self.lds_offset(iv, idx, shift)?;
                if !div {
                    let ps = self.sop(p, 1)?;
                    let os = self.sop(off, 1)?;
                    let r = self.s32();
                    self.emit(Opc::S_ADD_I32, vec![mir::r(r), ps, os]);
                    Ok(Val::S(Operand2::Virt(r)))
                } else {
                    let ov = self.vreg(off, 1)?;
                    let ps = self.vop(p, 1, true)?;
                    let r = self.v32();
                    self.emit(Opc::V_ADD_U32, vec![mir::r(r), ps, mir::r(ov)]);
                    Ok(Val::V(r))
                }
            }
            AddrSpace::Global => {
                if !div {
                    let ps = self.sop(p, 2)?;
                    let off = self.byte_offset(iv, idx, shift, true)?;
                    if let ByteOff::Const(0) = off {
                        // `&p[0]` is `p`.
                        return Ok(p);
                    }
                    let r = self.sadd64(ps, &off)?;
                    Ok(Val::S(Operand2::Virt(r)))
                } else {
                    let wide = self.ir.value_type(idx).bits() == 64;
                    let v = self.vreg(iv, if wide { 2 } else { 1 })?;
                    let w = self.vindex64(v, wide);
                    let pv = self.vop(p, 2, false)?;
                    let r = self.v64();
                    self.emit(
                        Opc::V_LSHL_ADD_U64,
                        vec![mir::r(r), mir::r(w), Operand::Imm(shift), pv],
                    );
                    Ok(Val::V(r))
                }
            }
        }
    }

    /// Address of element `idx` of `p`: (scalar base, VGPR byte offset) or a 64-bit VGPR
    /// address (`off`); for LDS a VGPR byte address plus constant offset.
    fn address(&mut self, op: Op, p: Value, idx: Value) -> Result<Addr, IselError> {
        let ty = self.ir.value_type(p);
        let Type::Ptr(space, elem) = ty else {
            return err(self.loc, "internal: not a pointer");
        };
        let pv = self.use_val(p, op)?;
        let iv = self.use_val(idx, op)?;
        let shift = elem_shift(elem);
        match space {
            AddrSpace::Shared => {
                let off = self.lds_offset(iv, idx, shift)?;
                // Constant base and offset fold into the 16-bit offset field.
                let (base_const, base) = match pv {
                    Val::Const(c) if (0..65536).contains(&c) => (c as u32, None),
                    other => (0, Some(other)),
                };
                let (off_const, addr) = match off {
                    Val::Const(c)
                        if base.is_none() && (0..65536).contains(&(c + base_const as i64)) =>
                    {
                        let z = self.vconst(0);
                        (c as u32, z)
                    }
                    off => {
                        let o = self.vreg(off, 1)?;
                        match base {
                            Some(b) => {
                                let bs = self.vop(b, 1, true)?;
                                let r = self.v32();
                                self.emit(Opc::V_ADD_U32, vec![mir::r(r), bs, mir::r(o)]);
                                (0, r)
                            }
                            None => (0, o),
                        }
                    }
                };
                Ok(Addr::Lds {
                    addr,
                    offset: base_const + off_const,
                })
            }
            AddrSpace::Global => match pv {
                Val::S(_) | Val::Const(_) => {
                    let sbase = self.sop(pv, 2)?;
                    if let Some((x, c)) = self.index_plus_const(op, idx, shift)? {
                        if let ByteOff::V32(t) = self.byte_offset(Val::V(x.1), x.0, shift, false)? {
                            return Ok(Addr::Global {
                                sbase,
                                voff: t,
                                offset: c,
                            });
                        }
                    }
                    let scalar = !matches!(iv, Val::V(_));
                    let off = self.byte_offset(iv, idx, shift, scalar)?;
                    let zero = |s: &mut Self| s.vconst(0);
                    Ok(match off {
                        ByteOff::Const(c) if (0..4096).contains(&c) => Addr::Global {
                            sbase,
                            voff: zero(self),
                            offset: c as u32,
                        },
                        ByteOff::Const(c) if c >> 32 == 0 => {
                            let z = self.vconst(c);
                            Addr::Global {
                                sbase,
                                voff: z,
                                offset: 0,
                            }
                        }
                        ByteOff::S32(o) => {
                            let z = self.v32();
                            self.emit(Opc::V_MOV_B32, vec![mir::r(z), o]);
                            Addr::Global {
                                sbase,
                                voff: z,
                                offset: 0,
                            }
                        }
                        ByteOff::V32(t) => Addr::Global {
                            sbase,
                            voff: t,
                            offset: 0,
                        },
                        ByteOff::V64Index(w) => {
                            let r = self.v64();
                            self.emit(
                                Opc::V_LSHL_ADD_U64,
                                vec![mir::r(r), mir::r(w), Operand::Imm(shift), sbase],
                            );
                            Addr::Flat64(r)
                        }
                        off @ (ByteOff::Const(_) | ByteOff::S64(_)) => {
                            let r = self.sadd64(sbase, &off)?;
                            Addr::Global {
                                sbase: mir::r(r),
                                voff: zero(self),
                                offset: 0,
                            }
                        }
                    })
                }
                _ => {
                    let a = self.ptr_add(space, elem, pv, iv, idx, true)?;
                    let Val::V(a) = a else {
                        return err(self.loc, "internal: address");
                    };
                    Ok(Addr::Flat64(a))
                }
            },
        }
    }

    /// A VGPR holding the 32-bit constant `c` in every active lane, for operands an access
    /// only reads (an address, stored data): one `v_mov_b32` per block and constant.
    fn vconst(&mut self, c: i64) -> VReg {
        let c = if crate::isa::is_inline_int(c as i32 as i64) {
            c as i32 as i64
        } else {
            c as u32 as i64
        };
        if let Some(&z) = self.vconsts.get(&c) {
            return z;
        }
        let z = self.v32();
        self.emit(Opc::V_MOV_B32, vec![mir::r(z), Operand::Imm(c)]);
        self.vconsts.insert(c, z);
        z
    }

    /// Data an access only reads, in a VGPR (tuple): a 32-bit constant from `vconst`.
    pub(super) fn read_only_vreg(&mut self, x: Val, dw: u8) -> Result<VReg, IselError> {
        match x {
            Val::Const(c) if dw == 1 => Ok(self.vconst(c)),
            x => self.vreg(x, dw),
        }
    }

    /// `idx = x + c` (an `arith.addi` in `op`'s block, `c >= 0`, `x` in a VGPR) whose byte
    /// offset is `(x << shift) + (c << shift)` with no wrap: `x` and `idx` both proven
    /// non-negative (so the 32-bit add did not wrap) and `x << shift` below 2^32; then the
    /// access can use `x`'s byte offset (shared with `p[x]`) and `c << shift` in the
    /// instruction's offset field (at most 4095). `(x, its VGPR)` and the byte constant.
    fn index_plus_const(
        &self,
        op: Op,
        idx: Value,
        shift: i64,
    ) -> Result<Option<(IndexReg, u32)>, IselError> {
        let Some(def) = self.ir.defining_op(idx) else {
            return Ok(None);
        };
        if self.ir.opcode(def) != Opcode::AddI
            || self.ir.op_block(def) != self.ir.op_block(op)
            || self.ir.value_type(idx).bits() != 32
            || value_range::nonneg_bound(self.ir, idx).is_none()
        {
            return Ok(None);
        }
        let operands = &self.ir.ops[def].operands;
        for (x, k) in [(operands[0], operands[1]), (operands[1], operands[0])] {
            let Some(c) = self.ir.int_constant(k) else {
                continue;
            };
            let bytes = c
                .checked_shl(shift as u32)
                .filter(|b| (0..4096).contains(b));
            let small =
                value_range::nonneg_bound(self.ir, x).is_some_and(|b| b >> (32 - shift) == 0);
            if let (Some(bytes), true, Val::V(v)) = (bytes, small, self.use_val(x, def)?) {
                return Ok(Some(((x, v), bytes as u32)));
            }
        }
        Ok(None)
    }

    pub(super) fn load(&mut self, op: Op, div: bool) -> Result<(), IselError> {
        let d = &self.ir.ops[op];
        let (p, idx) = (d.operands[0], d.operands[1]);
        let ty = self.ir.value_type(d.results[0]);
        let dw = Self::dwords(ty);
        // Scalar load: uniform address, a buffer no store in the kernel may write.
        let pu = !self.u.is_divergent_use(p, op) && !self.u.is_divergent_use(idx, op);
        if !div && pu && self.root_arg(p).is_some_and(|a| self.smem_ok.contains(&a)) {
            if let Type::Ptr(AddrSpace::Global, elem) = self.ir.value_type(p) {
                let pv = self.use_val(p, op)?;
                let iv = self.use_val(idx, op)?;
                let mut sbase = self.sop(pv, 2)?;
                let shift = elem_shift(elem);
                // SMEM takes a 21-bit signed immediate or an unsigned 32-bit SGPR offset.
                let off = match self.byte_offset(iv, idx, shift, true)? {
                    ByteOff::Const(c) if (0..1 << 20).contains(&c) => Operand::Imm(c),
                    ByteOff::S32(o) => o,
                    off => {
                        sbase = mir::r(self.sadd64(sbase, &off)?);
                        Operand::Imm(0)
                    }
                };
                let r = if dw == 2 { self.s64() } else { self.s32() };
                let o = if dw == 2 {
                    Opc::S_LOAD_DWORDX2
                } else {
                    Opc::S_LOAD_DWORD
                };
                self.emit(o, vec![mir::r(r), sbase, off]);
                self.def(op, Val::S(Operand2::Virt(r)));
                return Ok(());
            }
        }
        let a = self.address(op, p, idx)?;
        let r = if dw == 2 { self.v64() } else { self.v32() };
        let wide = dw == 2;
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
                let Addr::Lds { addr, offset } = a else {
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

    pub(super) fn store(&mut self, op: Op) -> Result<(), IselError> {
        let d = &self.ir.ops[op];
        let (val, p, idx) = (d.operands[0], d.operands[1], d.operands[2]);
        let ty = self.ir.value_type(val);
        let dw = Self::dwords(ty);
        let a = self.address(op, p, idx)?;
        let x = self.use_val(val, op)?;
        let data = self.read_only_vreg(x, dw)?;
        let wide = dw == 2;
        match a.global() {
            Some((vaddr, saddr, offset)) => {
                let o = if wide {
                    Opc::GLOBAL_STORE_DWORDX2
                } else {
                    Opc::GLOBAL_STORE_DWORD
                };
                self.emit(o, vec![mir::r(vaddr), mir::r(data), saddr])
                    .offset = offset;
            }
            None => {
                let Addr::Lds { addr, offset } = a else {
                    unreachable!("not global")
                };
                let o = if wide {
                    Opc::DS_WRITE_B64
                } else {
                    Opc::DS_WRITE_B32
                };
                self.emit(o, vec![mir::r(addr), mir::r(data)]).offset = offset;
            }
        }
        Ok(())
    }

    /// The address of the element pointer `p` points to (an atomic's `&p[i]`, element 0 of
    /// it).
    pub(super) fn pointer_address(&mut self, op: Op, p: Value) -> Result<Addr, IselError> {
        let ir = self.ir;
        let pv = self.use_val(p, op)?;
        let Type::Ptr(space, _) = ir.value_type(p) else {
            return err(self.loc, "internal: atomic pointer");
        };
        Ok(match (space, pv) {
            (AddrSpace::Global, Val::S(_) | Val::Const(_)) => {
                let sbase = self.sop(pv, 2)?;
                let z = self.vconst(0);
                Addr::Global {
                    sbase,
                    voff: z,
                    offset: 0,
                }
            }
            (AddrSpace::Global, Val::V(v)) => Addr::Flat64(v),
            (AddrSpace::Shared, Val::Const(c)) => {
                let z = self.vconst(0);
                Addr::Lds {
                    addr: z,
                    offset: c as u32,
                }
            }
            (AddrSpace::Shared, other) => {
                let v = self.vreg(other, 1)?;
                Addr::Lds { addr: v, offset: 0 }
            }
            _ => return err(self.loc, "internal: atomic address"),
        })
    }

    pub(super) fn atomic(&mut self, op: Op) -> Result<(), IselError> {
        let ir = self.ir;
        let d = &ir.ops[op];
        let ty = ir.value_type(d.results[0]);
        let a = self.pointer_address(op, d.operands[0])?;
        if ty.bits() == 64 {
            return self.atomic64(op, a);
        }
        let r = self.v32();
        if d.opcode == Opcode::AtomicCmpxchg {
            let cmp = self.use_val(d.operands[1], op)?;
            let new = self.use_val(d.operands[2], op)?;
            match a {
                Addr::Lds { addr, offset } => {
                    let c = self.vreg(cmp, 1)?;
                    let n = self.vreg(new, 1)?;
                    self.emit(
                        Opc::DS_CMPST_RTN_B32,
                        vec![mir::r(r), mir::r(addr), mir::r(c), mir::r(n)],
                    )
                    .offset = offset;
                }
                _ => {
                    let pair = self.v64();
                    let c = self.vop(cmp, 1, true)?;
                    let n = self.vop(new, 1, true)?;
                    self.emit(Opc::V_MOV_B32, vec![mir::rsub(pair, 0, 1), n]);
                    self.emit(Opc::V_MOV_B32, vec![mir::rsub(pair, 1, 1), c]);
                    let (vaddr, saddr, _) = a.global().expect("a global address");
                    // A zero byte offset and a zero `cmp` are one register (as LLVM shares
                    // them): the pair's high half.
                    let zero_offset = saddr != Operand::Off && self.vconsts.get(&0) == Some(&vaddr);
                    let vaddr = if zero_offset && matches!(cmp, Val::Const(0)) {
                        mir::rsub(pair, 1, 1)
                    } else {
                        mir::r(vaddr)
                    };
                    let i = self.emit(
                        Opc::GLOBAL_ATOMIC_CMPSWAP,
                        vec![mir::r(r), vaddr, mir::r(pair), saddr],
                    );
                    i.sc0 = true;
                }
            }
        } else {
            let kind = ir.attr(op, "kind").and_then(Attr::as_str).unwrap_or("add");
            let x = self.use_val(d.operands[1], op)?;
            let data = self.read_only_vreg(x, 1)?;
            match a {
                Addr::Lds { addr, offset } => {
                    let o = match kind {
                        "add" => Opc::DS_ADD_RTN_U32,
                        "min" => Opc::DS_MIN_RTN_I32,
                        "max" => Opc::DS_MAX_RTN_I32,
                        "umin" => Opc::DS_MIN_RTN_U32,
                        "umax" => Opc::DS_MAX_RTN_U32,
                        "xchg" => Opc::DS_WRXCHG_RTN_B32,
                        _ => Opc::DS_ADD_RTN_F32,
                    };
                    self.emit(o, vec![mir::r(r), mir::r(addr), mir::r(data)])
                        .offset = offset;
                }
                _ => {
                    let o = match kind {
                        "add" => Opc::GLOBAL_ATOMIC_ADD,
                        "min" => Opc::GLOBAL_ATOMIC_SMIN,
                        "max" => Opc::GLOBAL_ATOMIC_SMAX,
                        "umin" => Opc::GLOBAL_ATOMIC_UMIN,
                        "umax" => Opc::GLOBAL_ATOMIC_UMAX,
                        "xchg" => Opc::GLOBAL_ATOMIC_SWAP,
                        _ => Opc::GLOBAL_ATOMIC_ADD_F32,
                    };
                    let (vaddr, saddr, _) = a.global().expect("a global address");
                    let i = self.emit(o, vec![mir::r(r), mir::r(vaddr), mir::r(data), saddr]);
                    i.sc0 = true;
                }
            }
        }
        self.def(op, Val::V(r));
        Ok(())
    }

    /// The 64-bit atomic `op` at address `a`.
    fn atomic64(&mut self, op: Op, a: Addr) -> Result<(), IselError> {
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

    /// `kernel.shared_alloc`: the array's LDS byte offset, a constant, placed by the layout
    /// the verifier checks against the LDS size ([`LdsLayout`]).
    pub(super) fn shared_alloc(&mut self, op: Op) -> Result<(), IselError> {
        let ir = self.ir;
        let len = ir.attr(op, "size").and_then(Attr::as_int).unwrap_or(0);
        let Type::Ptr(_, elem) = ir.value_type(ir.ops[op].results[0]) else {
            return err(self.loc, "internal: a shared_alloc of a non-pointer");
        };
        let mut layout = LdsLayout {
            size: u64::from(self.info.lds_size),
        };
        let base = u64::try_from(len)
            .ok()
            .and_then(|len| layout.place(len, elem))
            .filter(|_| layout.fits());
        let (Some(base), Ok(size)) = (base, u32::try_from(layout.size)) else {
            return err(
                self.loc,
                format!("the kernel's shared arrays need more than the {LDS_LIMIT} bytes of LDS"),
            );
        };
        self.info.lds_size = size;
        self.def(op, Val::Const(base as i64));
        Ok(())
    }
}

/// `log2` of the bytes an element of `elem` occupies in memory ([`storage_bytes`]): the
/// shift from an index to a byte offset.
fn elem_shift(elem: Scalar) -> i64 {
    storage_bytes(elem).trailing_zeros() as i64
}

/// A byte offset computed by `Isel::byte_offset`.
enum ByteOff {
    /// Known at compile time (64-bit, wrapping).
    Const(i64),
    /// In `0..2^32`, on the scalar unit (an SGPR or inline constant).
    S32(Operand),
    /// In `0..2^32`, in a VGPR.
    V32(VReg),
    /// 64 bits in an SGPR pair.
    S64(VReg),
    /// The index itself as 64 bits in a VGPR pair, still to be shifted (`v_lshl_add_u64`
    /// shifts and adds in one instruction).
    V64Index(VReg),
}

/// The low dword of a scalar operand (an SGPR pair's first register, a constant's low bits).
fn low_dword(o: Operand) -> Operand {
    split_pair(o).0
}

/// Where a memory access goes.
pub(super) enum Addr {
    Global {
        sbase: Operand,
        voff: VReg,
        offset: u32,
    },
    Flat64(VReg),
    Lds {
        addr: VReg,
        offset: u32,
    },
}

impl Addr {
    /// (VGPR address, scalar base or `off`, byte offset) of a global access; `None` for LDS.
    pub(super) fn global(&self) -> Option<(VReg, Operand, u32)> {
        match self {
            Addr::Global {
                sbase,
                voff,
                offset,
            } => Some((*voff, sbase.clone(), *offset)),
            Addr::Flat64(a) => Some((*a, Operand::Off, 0)),
            Addr::Lds { .. } => None,
        }
    }
}
