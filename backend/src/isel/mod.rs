//! Instruction selection, with divergent control flow as pseudos for `exec-lowering`, driven by
//! uniformity.
//!
//! Pre: a CF kernel, its uniformity analysis and its control tree (`structurize`).
//! Post: a machine function over virtual registers in which
//! - every uniform value lives in SGPRs and is computed on the scalar unit (SALU/SMEM) where
//!   gfx942 has a scalar instruction for it; every divergent value lives in VGPRs (VALU/VMEM);
//!   a divergent `i1` is a 64-bit lane mask in an SGPR pair, a uniform one an SGPR holding 0/1;
//! - a uniform value read by an operation outside a cycle it was computed in after a divergent
//!   exit (`Uniformity::is_divergent_use`: temporal divergence) is read from a per-lane VGPR
//!   copy written next to its definition, and so is a lane mask live out of its cycle;
//! - uniform branches are `s_cmp` + `s_cbranch_scc*` with EXEC untouched; divergent control
//!   flow is selected as pseudo instructions on the logical CFG (`cf_if`, `cf_else`,
//!   `cf_end`, `cf_join_outer` for an if ending an enclosing if's side, `cf_break` /
//!   `cf_exit` for lanes leaving to a label or the kernel's end, `cf_loop` for a divergent
//!   loop's back edge, `cf_skip` where EXEC may be empty), which the `exec-lowering` pass
//!   turns into EXEC-mask code (`exec_lowering.rs`); the waterfall loops of division and
//!   cross-lane operations are EXEC code already;
//! - kernel arguments the kernel reads are loaded in the prologue (rematerializable loads);
//!   a block argument only passed on to the next block's argument shares its register.
//!
//! Convergent operations stay at the position of their IR op, so they execute with exactly the
//! lanes the structured semantics gives them.
//!
//! Files, by concern (after Mesa ACO's `instruction_selection/`): this one holds `Isel`, `run`,
//! the per-op dispatch (`select`) and the helpers every file uses (emission, where a value
//! lives and how to read it as a scalar operand, a vector operand or a lane mask, the
//! per-lane copies of temporal divergence); `setup.rs` the per-kernel analyses before
//! selection; `abi.rs` kernel arguments, the prologue, hidden arguments and ids; `alu.rs`
//! 32-bit integer and f32 arithmetic, compares and selects; `i1.rs` every integer op and
//! compare on `i1` and the casts between `i1` and f32; `alu64.rs` 64-bit integer
//! arithmetic; `convert.rs` casts; `division.rs` integer and f32 division and remainder;
//! `memory.rs` addresses, loads, stores, atomics; `sync.rs` the memory-model sequences around
//! atomics, atomic loads and stores, fences and barriers; `cross_lane.rs` ballot, readlane, shuffle
//! and reductions; `cfg.rs` the control-flow selection (pseudos), with `cfg_analysis.rs`
//! (branch classification, before any code is emitted) and `block_args.rs` (block-argument
//! registers and edge copies). Each is one or more `impl Isel` blocks and states in its header
//! what it selects and guarantees.

mod abi;
mod alu;
mod alu64;
mod block_args;
mod cfg;
mod cfg_analysis;
mod convert;
mod cross_lane;
mod division;
mod i1;
mod memory;
mod setup;
mod sync;

use crate::mir::{Divergence, KernelInfo};
pub use abi::HIDDEN_SIZE;

use crate::isa::{self, is_inline_int, Opc, Unit};
use crate::mir::{self, Class, Func, Inst, MBlock, Operand, PReg, VReg};
use crate::structurize::Tree;
use cfg::CtxStack;
use kc_dialect::analysis::uniformity::Uniformity;
use kc_dialect::{Attr, Ir, Loc, Op, Opcode, Type, Value};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// Where an IR value lives.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Val {
    /// Uniform, in SGPRs (or a physical ABI register).
    S(Operand2),
    /// In VGPRs (divergent, or uniform but computed on the vector unit).
    V(VReg),
    /// Divergent i1: lane mask in an SGPR pair.
    Mask(VReg),
    /// Uniform i1: an SGPR holding 0 or 1.
    SBool(VReg),
    /// A constant (bits; 64-bit for i64).
    Const(i64),
    /// A token or nothing.
    None,
}

/// A scalar register operand: virtual or physical, whole.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Operand2 {
    Virt(VReg),
    Phys(PReg),
    /// Dwords `first..first + n` of a wider register (an argument of a merged kernarg load).
    Part(VReg, u8, u8),
}

impl Operand2 {
    fn op(self) -> Operand {
        match self {
            Operand2::Virt(v) => mir::r(v),
            Operand2::Phys(p) => mir::p(p),
            Operand2::Part(v, first, n) => mir::rsub(v, first, n),
        }
    }
    fn sub(self, s: u8) -> Operand {
        match self {
            Operand2::Virt(v) => mir::rsub(v, s, 1),
            Operand2::Part(v, first, _) => mir::rsub(v, first + s, 1),
            Operand2::Phys(PReg::S(b, _)) => mir::p(PReg::S(b + s as u16, 1)),
            Operand2::Phys(p) => mir::p(p),
        }
    }
}

/// A backend error: an unsupported construct (a diagnostic for the user) or a broken
/// invariant.
#[derive(Debug)]
pub struct IselError {
    pub loc: Loc,
    pub message: String,
}

/// Instruction selection state for one kernel; the control-flow half lives in `cfg.rs`.
pub struct Isel<'a> {
    ir: &'a Ir,
    u: &'a Uniformity,
    pub mf: Func,
    cur: MBlock,
    vals: HashMap<Value, Val>,
    /// Per-lane copies of values read after a divergent exit of their cycle.
    shadow: HashMap<Value, VReg>,
    /// Values that need such a copy (`needs_shadow`).
    shadowed: HashSet<Value>,
    ctx: CtxStack,
    loop_div: HashSet<u32>,
    label_mask: HashSet<u32>,
    cont_mask: HashSet<u32>,
    smem_ok: HashSet<Value>,
    pub info: KernelInfo,
    kernarg: Operand2,
    loc: Loc,
    /// Lane masks known to have no bits outside the current EXEC (fresh compares).
    masked: HashSet<VReg>,
    /// The block of the final `s_endpgm`, laid out last.
    kernel_end: MBlock,
    /// Blocks whose uniform arguments some edge writes while lanes that still read the
    /// current values have yet to run (an edge inside a divergent region): those arguments
    /// are written to `incoming` registers and moved in when the block starts.
    staged: HashSet<u32>,
    incoming: HashMap<Value, Val>,
    /// Block arguments whose only use passes them on, unchanged, as an argument of the next
    /// block: they take that argument's register (`forwarding`), so the copy vanishes.
    forward: HashMap<Value, Value>,
    /// VGPR byte offsets `idx << shift` computed in the current block (all under its EXEC),
    /// for the next access with the same index (`memory::byte_offset`).
    pub(super) byte_offsets: HashMap<(Value, i64), VReg>,
    /// VGPRs holding a 32-bit constant in the current block, for read-only operands of
    /// accesses (`memory::vconst`).
    pub(super) vconsts: HashMap<i64, VReg>,
    /// VGPRs the wave reductions write under a whole-wave EXEC (`cross_lane`), shared by
    /// every reduction of the kernel: register allocation reserves them for the whole kernel.
    pub(super) whole_wave: Vec<VReg>,
}

fn err<T>(loc: Loc, m: impl Into<String>) -> Result<T, IselError> {
    Err(IselError {
        loc,
        message: m.into(),
    })
}

impl<'a> Isel<'a> {
    pub fn run(
        ir: &'a Ir,
        func: Op,
        u: &'a Uniformity,
        tree: &Tree,
        divergence: Divergence,
    ) -> Result<Isel<'a>, IselError> {
        let mut mf = Func {
            name: ir.func_name(func).to_string(),
            ..Func::default()
        };
        let entry = mf.new_block();
        mf.layout.push(entry);
        let mut s = Isel {
            ir,
            u,
            mf,
            cur: entry,
            vals: HashMap::default(),
            shadow: HashMap::default(),
            byte_offsets: HashMap::default(),
            vconsts: HashMap::default(),
            whole_wave: Vec::new(),
            shadowed: HashSet::default(),
            ctx: CtxStack::default(),
            loop_div: HashSet::default(),
            label_mask: HashSet::default(),
            cont_mask: HashSet::default(),
            smem_ok: HashSet::default(),
            info: KernelInfo {
                name: ir.func_name(func).to_string(),
                divergence,
                ..KernelInfo::default()
            },
            kernarg: Operand2::Phys(PReg::S(0, 2)),
            loc: Loc::UNKNOWN,
            masked: HashSet::default(),
            kernel_end: entry,
            staged: HashSet::default(),
            incoming: HashMap::default(),
            forward: HashMap::default(),
        };
        s.kernel_end = s.mf.new_block();
        s.memory_facts(func);
        s.shadowed = s.needs_shadow(func);
        s.analyse_branches(tree);
        s.forward = s.forwarding(func);
        s.prologue(func)?;
        s.lower(tree)?;
        let end = s.kernel_end;
        s.start_block(end);
        s.emit(Opc::S_ENDPGM, vec![]);
        Ok(s)
    }

    // ---- emission helpers ----

    fn internal(&self, what: &str) -> IselError {
        IselError {
            loc: self.loc,
            message: format!("internal compiler error: {what}"),
        }
    }

    /// Comments the last instruction emitted.
    fn set_comment(&mut self, c: &str) {
        if let Some(i) = self.mf.blocks[self.cur].insts.last_mut() {
            i.comment = Some(c.into());
        }
    }

    fn emit(&mut self, op: Opc, mut ops: Vec<Operand>) -> &mut Inst {
        // A lane mask is known to lie within EXEC only until EXEC changes.
        let d = op.desc();
        if d.unit == Unit::Salu {
            self.one_literal(d, &mut ops);
        }
        if d.implicit.writes_exec || ops.iter().take(d.defs as usize).any(|o| *o == Self::exec()) {
            self.masked.clear();
        }
        let b = self.cur;
        self.mf.blocks[b].insts.push(Inst::new(op, ops, self.loc));
        self.mf.blocks[b].insts.last_mut().unwrap()
    }

    /// A SALU encoding holds one 32-bit literal (llvm-mc: "only one unique literal operand is
    /// allowed"): any other distinct literal source is moved into SGPRs first.
    fn one_literal(&mut self, d: &isa::Desc, ops: &mut [Operand]) {
        let mut first: Option<i64> = None;
        for (i, op) in ops.iter_mut().enumerate().skip(d.defs as usize) {
            let (Operand::Imm(c), Some(&isa::Kind::SSrc(n))) = (&*op, d.operands.get(i)) else {
                continue;
            };
            let c = *c;
            if is_inline_int(c) || first.is_none_or(|f| f == c) {
                first = first.or(Some(c).filter(|&c| !is_inline_int(c)));
                continue;
            }
            let t = if n == 2 { self.s64() } else { self.s32() };
            for k in 0..n {
                let part = if k == 0 { c as u32 } else { (c >> 32) as u32 };
                let b = self.cur;
                self.mf.blocks[b].insts.push(Inst::new(
                    Opc::S_MOV_B32,
                    vec![mir::rsub(t, k, 1), Operand::Imm(part as i32 as i64)],
                    self.loc,
                ));
            }
            *op = mir::r(t);
        }
    }

    /// Starts block `b` at the end of the layout. Control can arrive with another EXEC.
    fn start_block(&mut self, b: MBlock) {
        self.mf.layout.push(b);
        self.cur = b;
        self.masked.clear();
    }

    /// Lanes in EXEC at the end of the current block (or taken out of it there) resume at
    /// `b` (a per-lane CFG edge for VGPR liveness).
    fn lanes_to(&mut self, b: MBlock) {
        let to = &mut self.mf.blocks[self.cur].lanes_to;
        if !to.contains(&b) {
            to.push(b);
        }
    }

    fn s32(&mut self) -> VReg {
        self.mf.new_vreg(Class::S32)
    }
    fn s64(&mut self) -> VReg {
        self.mf.new_vreg(Class::S64)
    }
    fn v32(&mut self) -> VReg {
        self.mf.new_vreg(Class::V32)
    }
    fn v64(&mut self) -> VReg {
        self.mf.new_vreg(Class::V64)
    }

    fn exec() -> Operand {
        mir::p(PReg::Exec)
    }

    fn val(&self, v: Value) -> Result<Val, IselError> {
        match self.vals.get(&v) {
            Some(x) => Ok(*x),
            None => err(
                self.loc,
                format!("internal: value {v} used before its definition"),
            ),
        }
    }

    /// The location of `v` as read by `user` (temporal divergence reads the VGPR copy).
    fn use_val(&self, v: Value, user: Op) -> Result<Val, IselError> {
        if let Some(&sh) = self.shadow.get(&v) {
            if self.u.is_divergent_use(v, user) || self.outside_def_cycle(v, user) {
                return Ok(match self.val(v)? {
                    Val::SBool(_) | Val::Mask(_) => Val::Mask(sh),
                    _ => Val::V(sh),
                });
            }
        }
        self.val(v)
    }

    fn outside_def_cycle(&self, v: Value, user: Op) -> bool {
        let (Some(db), Some(ub)) = (self.ir.value_block(v), self.ir.op_block(user)) else {
            return false;
        };
        let cfg = &self.u.cfg;
        let (d, us) = (cfg.index[db], cfg.index[ub]);
        match self.u.cycles.innermost(d) {
            Some(c) => !self.u.cycles.contains(c, us),
            None => false,
        }
    }

    fn dwords(ty: Type) -> u8 {
        if ty.bits() == 64 {
            2
        } else {
            1
        }
    }

    /// `v` as a scalar source operand (SGPR or constant); proven-uniform VGPR values are read
    /// with `v_readfirstlane_b32`.
    fn sop(&mut self, x: Val, dw: u8) -> Result<Operand, IselError> {
        Ok(match x {
            Val::S(o) => o.op(),
            Val::Const(c) => {
                if dw == 2 && !is_inline_int(c) {
                    let t = self.s64();
                    self.emit(
                        Opc::S_MOV_B32,
                        vec![mir::rsub(t, 0, 1), Operand::Imm(c as u32 as i64)],
                    );
                    self.emit(
                        Opc::S_MOV_B32,
                        vec![mir::rsub(t, 1, 1), Operand::Imm((c >> 32) as u32 as i64)],
                    );
                    mir::r(t)
                } else {
                    Operand::Imm(if dw == 2 { c } else { c as i32 as i64 })
                }
            }
            Val::V(v) => {
                let t = if dw == 2 { self.s64() } else { self.s32() };
                for i in 0..dw {
                    self.emit(
                        Opc::V_READFIRSTLANE_B32,
                        vec![mir::rsub(t, i, 1), mir::rsub(v, i, 1)],
                    );
                }
                mir::r(t)
            }
            Val::SBool(b) => mir::r(b),
            Val::Mask(_) => return err(self.loc, "internal: lane mask read as a scalar"),
            Val::None => return err(self.loc, "internal: token used as a value"),
        })
    }

    /// A VALU source: VGPR, SGPR or inline constant (literal constants go to a VGPR first
    /// when `literal_ok` is false, i.e. in VOP3 encodings).
    fn vop(&mut self, x: Val, dw: u8, literal_ok: bool) -> Result<Operand, IselError> {
        Ok(match x {
            Val::V(v) => mir::r(v),
            Val::Const(c) if is_inline_int(c) => Operand::Imm(c),
            Val::Const(c) if literal_ok && dw == 1 => Operand::Imm(c as u32 as i64),
            Val::Const(_) => mir::r(self.vreg(x, dw)?),
            Val::S(o) => o.op(),
            Val::SBool(b) => mir::r(b),
            Val::Mask(m) => {
                let v = self.v32();
                self.emit(
                    Opc::V_CNDMASK_B32,
                    vec![mir::r(v), Operand::Imm(0), Operand::Imm(1), mir::r(m)],
                );
                mir::r(v)
            }
            Val::None => return err(self.loc, "internal: token used as a value"),
        })
    }

    /// `x` in a VGPR (tuple).
    fn vreg(&mut self, x: Val, dw: u8) -> Result<VReg, IselError> {
        if let Val::V(v) = x {
            return Ok(v);
        }
        let d = if dw == 2 { self.v64() } else { self.v32() };
        match x {
            Val::Const(c) => {
                for i in 0..dw {
                    let part = if i == 0 { c as u32 } else { (c >> 32) as u32 };
                    let imm = if is_inline_int(part as i32 as i64) {
                        part as i32 as i64
                    } else {
                        part as i64
                    };
                    self.emit(Opc::V_MOV_B32, vec![mir::rsub(d, i, 1), Operand::Imm(imm)]);
                }
            }
            Val::S(o) => {
                for i in 0..dw {
                    self.emit(Opc::V_MOV_B32, vec![mir::rsub(d, i, 1), o.sub(i)]);
                }
            }
            Val::SBool(b) => {
                self.emit(Opc::V_MOV_B32, vec![mir::r(d), mir::r(b)]);
            }
            Val::Mask(m) => {
                self.emit(
                    Opc::V_CNDMASK_B32,
                    vec![mir::r(d), Operand::Imm(0), Operand::Imm(1), mir::r(m)],
                );
            }
            _ => return err(self.loc, "internal: no value"),
        }
        Ok(d)
    }

    /// A lane mask for an i1 value.
    fn mask(&mut self, x: Val) -> Result<VReg, IselError> {
        Ok(match x {
            Val::Mask(m) => m,
            Val::SBool(b) => {
                let m = self.s64();
                self.emit(Opc::S_CMP_LG_U32, vec![mir::r(b), Operand::Imm(0)]);
                self.emit(
                    Opc::S_CSELECT_B64,
                    vec![mir::r(m), Operand::Imm(-1), Operand::Imm(0)],
                );
                m
            }
            Val::Const(c) => {
                let m = self.s64();
                self.emit(
                    Opc::S_MOV_B64,
                    vec![mir::r(m), Operand::Imm(if c & 1 != 0 { -1 } else { 0 })],
                );
                m
            }
            Val::S(o) => {
                let m = self.s64();
                self.emit(Opc::S_CMP_LG_U32, vec![o.op(), Operand::Imm(0)]);
                self.emit(
                    Opc::S_CSELECT_B64,
                    vec![mir::r(m), Operand::Imm(-1), Operand::Imm(0)],
                );
                m
            }
            Val::V(v) => {
                let m = self.s64();
                self.emit(
                    Opc::V_CMP_NE_U32,
                    vec![mir::r(m), Operand::Imm(0), mir::r(v)],
                );
                self.masked.insert(m);
                m
            }
            Val::None => return err(self.loc, "internal: token as i1"),
        })
    }

    /// A uniform i1 as an SGPR 0/1.
    fn sbool(&mut self, x: Val) -> Result<Operand, IselError> {
        Ok(match x {
            Val::SBool(b) => mir::r(b),
            Val::Const(c) => Operand::Imm(c & 1),
            Val::S(o) => o.op(),
            Val::Mask(m) => {
                // Uniform by the analysis, but computed as a lane mask (VALU compare).
                let t = self.s64();
                let b = self.s32();
                self.emit(Opc::S_AND_B64, vec![mir::r(t), mir::r(m), Self::exec()]);
                self.emit(Opc::S_CMP_LG_U64, vec![mir::r(t), Operand::Imm(0)]);
                self.emit(
                    Opc::S_CSELECT_B32,
                    vec![mir::r(b), Operand::Imm(1), Operand::Imm(0)],
                );
                mir::r(b)
            }
            Val::V(v) => self.sop(Val::V(v), 1)?,
            Val::None => return err(self.loc, "internal: token as i1"),
        })
    }

    // ---- straight-line code ----

    fn code(&mut self, b: u32) -> Result<(), IselError> {
        let block = self.u.cfg.blocks[b as usize];
        self.byte_offsets.clear();
        self.vconsts.clear();
        // Block arguments get their registers (assigned by the incoming edges).
        for &a in &self.ir.blocks[block].args.clone() {
            self.arg_loc(a);
        }
        self.take_incoming(b)?;
        for &a in &self.ir.blocks[block].args.clone() {
            self.after_def(a)?;
        }
        let ops: Vec<Op> = self.ir.block_ops(block).collect();
        for op in ops {
            if self.ir.spec(op).is_terminator() {
                break;
            }
            self.loc = self.ir.ops[op].loc;
            self.select(op)?;
            for r in self.ir.ops[op].results.clone() {
                self.after_def(r)?;
            }
        }
        Ok(())
    }

    /// Writes the per-lane copy of `v` if it needs one (`needs_shadow`).
    fn after_def(&mut self, v: Value) -> Result<(), IselError> {
        if !self.shadowed.contains(&v) {
            return Ok(());
        }
        let x = self.val(v)?;
        let ty = self.ir.value_type(v);
        let (class, dst) = match x {
            Val::Mask(_) | Val::SBool(_) => (Class::S64, Val::Mask as fn(VReg) -> Val),
            _ if ty.bits() == 64 => (Class::V64, Val::V as fn(VReg) -> Val),
            _ => (Class::V32, Val::V as fn(VReg) -> Val),
        };
        let sh = *self
            .shadow
            .entry(v)
            .or_insert_with(|| self.mf.vregs.push(class));
        self.assign(dst(sh), x, ty)
    }

    fn def(&mut self, op: Op, x: Val) {
        let r = self.ir.ops[op].results[0];
        self.vals.insert(r, x);
    }

    /// Selects one op that is not a terminator: by opcode, in the file of its concern (the
    /// `arith` dialect in `alu.rs`, which dispatches further).
    fn select(&mut self, op: Op) -> Result<(), IselError> {
        use Opcode::*;
        let ir = self.ir;
        let d = &ir.ops[op];
        let opc = d.opcode;
        let res = d.results.first().copied();
        let div = res.is_some_and(|r| self.u.is_divergent(r));
        let rty = res.map(|r| ir.value_type(r));
        match opc {
            ConvEntry | ConvAnchor | ConvLoop => {
                self.def(op, Val::None);
            }
            Constant => {
                let c = match ir.attr(op, "value") {
                    Some(Attr::Int(v, _)) => *v,
                    Some(Attr::Bool(b)) => *b as i64,
                    Some(Attr::Float(f)) => f.to_bits() as i64,
                    _ => return err(self.loc, "unsupported constant"),
                };
                let c = if rty == Some(Type::I1) { c & 1 } else { c };
                self.def(op, Val::Const(c));
            }
            WorkitemId => self.workitem_id(op),
            WorkgroupId => self.workgroup_id(op),
            WorkgroupSize | NumWorkgroups => self.workgroup_dim(op),
            LaneId => self.lane_id(op),
            WaveSize => self.def(op, Val::Const(64)),
            SharedAlloc => self.shared_alloc(op)?,
            PtrOffset => self.ptr_offset(op, div)?,
            Load => self.load(op, div)?,
            Store => self.store(op)?,
            Atomic | AtomicCmpxchg | AtomicLoad | AtomicStore | Fence => self.sync_op(op)?,
            Barrier => self.barrier(),
            Ballot => self.ballot(op)?,
            ReadFirstLane => self.read_first_lane(op)?,
            ReadLane => self.read_lane(op)?,
            Shuffle => self.shuffle(op)?,
            Reduce => self.reduce(op)?,
            Scan => self.wave_scan(op)?,
            _ => self.arith(op, div)?,
        }
        Ok(())
    }
}

/// The two dwords of a 64-bit scalar operand.
fn split_pair(o: Operand) -> (Operand, Operand) {
    match o {
        Operand::Reg {
            reg: mir::Reg::Phys(PReg::S(b, _)),
            ..
        } => (mir::p(PReg::S(b, 1)), mir::p(PReg::S(b + 1, 1))),
        Operand::Reg { reg, sub, .. } => (
            Operand::Reg { reg, sub, n: 1 },
            Operand::Reg {
                reg,
                sub: sub + 1,
                n: 1,
            },
        ),
        Operand::Imm(c) => (
            Operand::Imm(c as u32 as i32 as i64),
            Operand::Imm((c >> 32) as u32 as i32 as i64),
        ),
        o => (o.clone(), o),
    }
}
