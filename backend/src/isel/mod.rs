//! Instruction selection and EXEC-mask control-flow lowering, driven by uniformity.
//!
//! Pre: a CF kernel, its uniformity analysis and its control tree (`structurize`).
//! Post: a machine function over virtual registers in which
//! - every uniform value lives in SGPRs and is computed on the scalar unit (SALU/SMEM) where
//!   gfx942 has a scalar instruction for it; every divergent value lives in VGPRs (VALU/VMEM);
//!   a divergent `i1` is a 64-bit lane mask in an SGPR pair, a uniform one an SGPR holding 0/1;
//! - a uniform value read by an operation outside a cycle it was computed in after a divergent
//!   exit (`Uniformity::is_divergent_use`: temporal divergence) is read from a per-lane VGPR
//!   copy written next to its definition, and so is a lane mask live out of its cycle;
//! - uniform branches are `s_cmp` + `s_cbranch_scc*` with EXEC untouched; divergent ones are
//!   lowered as gfx942 does it: `s_and_saveexec_b64` (+ `s_xor_b64` when there is an else or the
//!   then side loses lanes), `s_andn2_saveexec_b64` for the else, `s_or_b64 exec` at the join
//!   (or, for an if ending an enclosing if's side, at the enclosing join);
//!   lanes leaving to a label (break, exit, early return) are accumulated in a lane mask with
//!   `s_or_b64` and removed with `s_andn2_b64 exec`; loops end in `s_cbranch_execnz` when lanes
//!   can leave at different iterations, and EXEC is restored after them;
//! - `s_cbranch_execz` skips a region only when it is long or unsafe to run with no lanes
//!   (loops, scalar loads, readlane), like LLVM's skip threshold.
//! - kernel arguments the kernel reads are loaded in the prologue (rematerializable loads);
//!   a block argument only passed on to the next block's argument shares its register.
//! Convergent operations stay at the position of their IR op, so they execute with exactly the
//! lanes the structured semantics gives them.

mod alu;
mod alu64;
mod block_args;
mod cfg;
mod cfg_analysis;
mod convert;
mod cross_lane;
mod division;
mod memory;

use crate::isa::{self, is_inline_int, Opc, Unit};
use crate::mir::{self, Class, Func, Inst, MBlock, Operand, PReg, VReg};
use crate::structurize::Tree;
use cfg::CtxStack;
use kc_dialect::analysis::uniformity::Uniformity;
use kc_dialect::{AddrSpace, Attr, Ir, Loc, Op, Opcode, Type, Value, ValueDef};
use std::collections::{HashMap, HashSet};

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
}

impl Operand2 {
    pub(crate) fn op(self) -> Operand {
        match self {
            Operand2::Virt(v) => mir::r(v),
            Operand2::Phys(p) => mir::p(p),
        }
    }
    pub(crate) fn sub(self, s: u8) -> Operand {
        match self {
            Operand2::Virt(v) => mir::rsub(v, s, 1),
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

/// Kernel-argument layout and other facts the printer needs.
#[derive(Clone, Debug, Default)]
pub struct KernelInfo {
    pub name: String,
    /// (name, offset, size, value kind, type name) per explicit argument.
    pub args: Vec<ArgInfo>,
    pub explicit_size: u32,
    pub kernarg_size: u32,
    pub lds_size: u32,
    pub tid_dims: u8,
}

#[derive(Clone, Debug)]
pub struct ArgInfo {
    pub name: String,
    pub offset: u32,
    pub size: u32,
    pub pointer: bool,
    pub ty: String,
}

/// Size of the COv5 hidden (implicit) kernel arguments appended after the explicit ones.
pub const HIDDEN_SIZE: u32 = 256;

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
    /// Per construct being lowered: skip branches emitted in it and not yet decided (the
    /// block ending in the skip, the layout position where the skipped code starts).
    skips: Vec<Vec<(MBlock, usize)>>,
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
            vals: HashMap::new(),
            shadow: HashMap::new(),
            shadowed: HashSet::new(),
            ctx: CtxStack::default(),
            loop_div: HashSet::new(),
            label_mask: HashSet::new(),
            cont_mask: HashSet::new(),
            smem_ok: HashSet::new(),
            info: KernelInfo {
                name: ir.func_name(func).to_string(),
                ..KernelInfo::default()
            },
            kernarg: Operand2::Phys(PReg::S(0, 2)),
            loc: Loc::UNKNOWN,
            masked: HashSet::new(),
            skips: Vec::new(),
            kernel_end: entry,
            staged: HashSet::new(),
            incoming: HashMap::new(),
            forward: HashMap::new(),
        };
        s.kernel_end = s.mf.new_block();
        s.memory_facts(func);
        s.shadowed = s.needs_shadow(func);
        s.analyse_branches(tree);
        s.forward = s.forwarding(func);
        s.prologue(func)?;
        s.open_skips();
        s.lower(tree)?;
        s.close_skips();
        let end = s.kernel_end;
        s.start_block(end);
        s.emit(Opc::S_ENDPGM, vec![]);
        Ok(s)
    }

    // ---- memory facts ----

    /// SMEM is allowed for loads from pointer arguments no store or atomic may write.
    fn memory_facts(&mut self, func: Op) {
        let region = self.ir.ops[func].regions[0];
        let entry = self.ir.entry_block(region).unwrap();
        let args: Vec<Value> = self.ir.blocks[entry].args.clone();
        let mut stored: HashSet<Value> = HashSet::new();
        let mut unknown = false;
        for b in self.ir.region_blocks(region) {
            for op in self.ir.block_ops(b) {
                let ptr = match self.ir.opcode(op) {
                    Opcode::Store => Some(self.ir.ops[op].operands[1]),
                    Opcode::Atomic | Opcode::AtomicCmpxchg => Some(self.ir.ops[op].operands[0]),
                    _ => None,
                };
                if let Some(p) = ptr {
                    match self.root_arg(p) {
                        Some(a) => {
                            stored.insert(a);
                        }
                        None => unknown = true,
                    }
                }
            }
        }
        if !unknown {
            for a in args {
                if matches!(self.ir.value_type(a), Type::Ptr(AddrSpace::Global, _))
                    && !stored.contains(&a)
                {
                    self.smem_ok.insert(a);
                }
            }
        }
    }

    /// Block arguments `x` of a block `B` ending in `cf.br S(.., x, ..)` that nothing else
    /// reads, when `x` and `S`'s argument `y` there live in registers written per lane
    /// (divergent values, lane masks, `f32`) and neither block stages its arguments: `x` can
    /// live in `y`'s register. `y` is live only where `S` dominates (it is defined on entry to
    /// `S`), and `S` does not dominate `B`, so `y`'s register is free from the edges into `B`
    /// to `S`: the lanes that write `x` there go straight on to `S`, where `y` takes that
    /// value. An else-if chain's joins pass the variable down like this at every level.
    fn forwarding(&self, func: Op) -> HashMap<Value, Value> {
        let ir = self.ir;
        let region = ir.ops[func].regions[0];
        let mut uses: HashMap<Value, u32> = HashMap::new();
        for b in ir.region_blocks(region) {
            for op in ir.block_ops(b) {
                let d = &ir.ops[op];
                for &v in d
                    .operands
                    .iter()
                    .chain(d.succs.iter().flat_map(|s| &s.args))
                {
                    *uses.entry(v).or_default() += 1;
                }
            }
        }
        let cfg = &self.u.cfg;
        let mut out = HashMap::new();
        for b in ir.region_blocks(region) {
            let Some(term) = ir.terminator(b) else {
                continue;
            };
            if ir.opcode(term) != Opcode::Br {
                continue;
            }
            let succ = &ir.ops[term].succs[0];
            let (bi, si) = (cfg.index[b], cfg.index[succ.block]);
            let dom = &self.u.dom;
            // (Reachable blocks only: among them forwarding never goes round a cycle.)
            if !dom.is_reachable(bi) || !dom.is_reachable(si) || dom.dominates(si, bi) {
                continue;
            }
            if self.staged.contains(&bi) || self.staged.contains(&si) {
                continue;
            }
            for (&x, &y) in succ.args.iter().zip(&ir.blocks[succ.block].args) {
                let own_arg = matches!(ir.values[x].def, ValueDef::BlockArg(xb, _) if xb == b);
                if own_arg
                    && uses.get(&x) == Some(&1)
                    && ir.value_type(x) == ir.value_type(y)
                    && ir.value_type(x) != Type::Token
                    && !self.is_staged_kind(x)
                    && !self.is_staged_kind(y)
                    && !self.shadowed.contains(&x)
                    && !self.shadowed.contains(&y)
                {
                    out.insert(x, y);
                }
            }
        }
        out
    }

    fn root_arg(&self, mut v: Value) -> Option<Value> {
        for _ in 0..64 {
            match self.ir.values[v].def {
                ValueDef::BlockArg(b, _) => {
                    let region = self.ir.block_region(b)?;
                    return (self.ir.entry_block(region) == Some(b)).then_some(v);
                }
                ValueDef::Result(op, _) => {
                    if self.ir.opcode(op) == Opcode::PtrOffset {
                        v = self.ir.ops[op].operands[0];
                    } else {
                        return None;
                    }
                }
            }
        }
        None
    }

    // ---- emission helpers ----

    pub(crate) fn internal(&self, what: &str) -> IselError {
        IselError {
            loc: self.loc,
            message: format!("internal compiler error: {what}"),
        }
    }

    /// Comments the last instruction emitted.
    pub(crate) fn set_comment(&mut self, c: &str) {
        if let Some(i) = self.mf.blocks[self.cur].insts.last_mut() {
            i.comment = Some(c.into());
        }
    }

    pub(crate) fn emit(&mut self, op: Opc, mut ops: Vec<Operand>) -> &mut Inst {
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
        for i in d.defs as usize..ops.len() {
            let (Operand::Imm(c), Some(&isa::Kind::SSrc(n))) = (&ops[i], d.operands.get(i)) else {
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
            ops[i] = mir::r(t);
        }
    }

    /// Starts block `b` at the end of the layout. Control can arrive with another EXEC.
    pub(crate) fn start_block(&mut self, b: MBlock) {
        self.mf.layout.push(b);
        self.cur = b;
        self.masked.clear();
    }

    /// Lanes in EXEC at the end of the current block (or taken out of it there) resume at
    /// `b` (a per-lane CFG edge for VGPR liveness).
    pub(crate) fn lanes_to(&mut self, b: MBlock) {
        let to = &mut self.mf.blocks[self.cur].lanes_to;
        if !to.contains(&b) {
            to.push(b);
        }
    }

    pub(crate) fn s32(&mut self) -> VReg {
        self.mf.new_vreg(Class::S32)
    }
    pub(crate) fn s64(&mut self) -> VReg {
        self.mf.new_vreg(Class::S64)
    }
    pub(crate) fn v32(&mut self) -> VReg {
        self.mf.new_vreg(Class::V32)
    }
    pub(crate) fn v64(&mut self) -> VReg {
        self.mf.new_vreg(Class::V64)
    }

    pub(crate) fn exec() -> Operand {
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
    pub(crate) fn use_val(&self, v: Value, user: Op) -> Result<Val, IselError> {
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

    pub(crate) fn dwords(ty: Type) -> u8 {
        if ty.bits() == 64 {
            2
        } else {
            1
        }
    }

    /// `v` as a scalar source operand (SGPR or constant); proven-uniform VGPR values are read
    /// with `v_readfirstlane_b32`.
    pub(crate) fn sop(&mut self, x: Val, dw: u8) -> Result<Operand, IselError> {
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
    pub(crate) fn vreg(&mut self, x: Val, dw: u8) -> Result<VReg, IselError> {
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
    pub(crate) fn mask(&mut self, x: Val) -> Result<VReg, IselError> {
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
    pub(crate) fn sbool(&mut self, x: Val) -> Result<Operand, IselError> {
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
            Val::V(v) => {
                let s = self.sop(Val::V(v), 1)?;
                s
            }
            Val::None => return err(self.loc, "internal: token as i1"),
        })
    }

    // ---- prologue: kernel arguments ----

    /// Lays out the kernel arguments and loads those the kernel reads (an unread one would
    /// only cost a load and, for an instant, a register). Each load is a rematerializable
    /// definition: under SGPR pressure the allocator reloads the argument where it is used
    /// instead of keeping it.
    fn prologue(&mut self, func: Op) -> Result<(), IselError> {
        let region = self.ir.ops[func].regions[0];
        let entry = self.ir.entry_block(region).unwrap();
        let mut off = 0u32;
        let args = self.ir.blocks[entry].args.clone();
        let mut read: HashSet<Value> = HashSet::new();
        for b in self.ir.region_blocks(region) {
            for op in self.ir.block_ops(b) {
                let d = &self.ir.ops[op];
                read.extend(
                    d.operands
                        .iter()
                        .chain(d.succs.iter().flat_map(|s| &s.args)),
                );
            }
        }
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
            self.loc = self.ir.values[a].loc;
            if !read.contains(&a) {
                off += size;
                continue;
            }
            let dw = (size / 4) as u8;
            let d = if dw == 2 { self.s64() } else { self.s32() };
            let op = if dw == 2 {
                Opc::S_LOAD_DWORDX2
            } else {
                Opc::S_LOAD_DWORD
            };
            let ka = self.kernarg.op();
            self.emit(op, vec![mir::r(d), ka, Operand::Imm(off as i64)]);
            self.vals.insert(
                a,
                if ty == Type::I1 {
                    Val::SBool(d)
                } else {
                    Val::S(Operand2::Virt(d))
                },
            );
            off += size;
        }
        self.info.explicit_size = off;
        let hidden = off.next_multiple_of(8);
        self.info.kernarg_size = hidden + HIDDEN_SIZE;
        Ok(())
    }

    fn hidden_offset(&self) -> u32 {
        self.info.explicit_size.next_multiple_of(8)
    }

    // ---- straight-line code ----

    pub(crate) fn code(&mut self, b: u32) -> Result<(), IselError> {
        let block = self.u.cfg.blocks[b as usize];
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

    /// Values that need a per-lane copy next to their definition: uniform values read after
    /// a divergent exit of their cycle (temporal divergence), and lane masks read outside
    /// their cycle (a lane mask is rewritten whole each iteration, so lanes that left would
    /// lose their bits). One walk over the kernel.
    fn needs_shadow(&self, func: Op) -> HashSet<Value> {
        let mut out: HashSet<Value> = self.u.temporal.iter().map(|t| t.value).collect();
        let region = self.ir.ops[func].regions[0];
        let cfg = &self.u.cfg;
        for b in self.ir.region_blocks(region) {
            for op in self.ir.block_ops(b) {
                let d = &self.ir.ops[op];
                let used = d
                    .operands
                    .iter()
                    .chain(d.succs.iter().flat_map(|s| &s.args));
                for &v in used {
                    if self.ir.value_type(v) != Type::I1 || !self.u.is_divergent(v) {
                        continue;
                    }
                    let Some(db) = self.ir.value_block(v) else {
                        continue;
                    };
                    let inner = self.u.cycles.innermost(cfg.index[db]);
                    if inner.is_some_and(|c| !self.u.cycles.contains(c, cfg.index[b])) {
                        out.insert(v);
                    }
                }
            }
        }
        out
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

    pub(crate) fn def(&mut self, op: Op, x: Val) {
        let r = self.ir.ops[op].results[0];
        self.vals.insert(r, x);
    }

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
            WorkitemId => {
                let dim = ir.attr(op, "dim").and_then(Attr::as_str).unwrap_or("x");
                let v = self.v32();
                let v0 = mir::p(PReg::V(0, 1));
                match dim {
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
            WorkgroupId => {
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
            WorkgroupSize | NumWorkgroups => {
                let dim = ir.attr(op, "dim").and_then(Attr::as_str).unwrap_or("x");
                let i = match dim {
                    "x" => 0u32,
                    "y" => 1,
                    _ => 2,
                };
                let h = self.hidden_offset();
                let v = self.s32();
                let ka = self.kernarg.op();
                if opc == NumWorkgroups {
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
            LaneId => self.lane_id(op),
            WaveSize => self.def(op, Val::Const(64)),
            SharedAlloc => self.shared_alloc(op),
            PtrOffset => self.ptr_offset(op, div)?,
            Load => self.load(op, div)?,
            Store => self.store(op)?,
            Atomic | AtomicCmpxchg => self.atomic(op)?,
            Barrier => self.barrier(),
            Ballot => self.ballot(op)?,
            ReadFirstLane => self.read_first_lane(op)?,
            ReadLane => self.read_lane(op)?,
            Shuffle => self.shuffle(op)?,
            Reduce => self.reduce(op)?,
            _ => self.arith(op, div)?,
        }
        Ok(())
    }
}

/// The two dwords of a 64-bit scalar operand.
pub(crate) fn split_pair(o: Operand) -> (Operand, Operand) {
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
