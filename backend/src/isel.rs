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

use crate::isa::{self, is_inline_int, Opc, Unit};
use crate::lower_control_flow::CtxStack;
use crate::mir::{self, Class, File, Func, Inst, MBlock, Operand, PReg, VReg};
use crate::structurize::Tree;
use kc_dialect::analysis::uniformity::Uniformity;
use kc_dialect::analysis::value_range;
use kc_dialect::{AddrSpace, Attr, Ir, Loc, Op, Opcode, Scalar, Type, Value, ValueDef};
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

/// Instruction selection state for one kernel; the control-flow half lives in
/// `lower_control_flow.rs`.
pub struct Isel<'a> {
    pub(crate) ir: &'a Ir,
    pub(crate) u: &'a Uniformity,
    pub mf: Func,
    pub(crate) cur: MBlock,
    pub(crate) vals: HashMap<Value, Val>,
    /// Per-lane copies of values read after a divergent exit of their cycle.
    shadow: HashMap<Value, VReg>,
    /// Values that need such a copy (`needs_shadow`).
    pub(crate) shadowed: HashSet<Value>,
    pub(crate) ctx: CtxStack,
    pub(crate) loop_div: HashSet<u32>,
    pub(crate) label_mask: HashSet<u32>,
    pub(crate) cont_mask: HashSet<u32>,
    smem_ok: HashSet<Value>,
    pub info: KernelInfo,
    kernarg: Operand2,
    pub(crate) loc: Loc,
    /// Lane masks known to have no bits outside the current EXEC (fresh compares).
    pub(crate) masked: HashSet<VReg>,
    /// Per construct being lowered: skip branches emitted in it and not yet decided (the
    /// block ending in the skip, the layout position where the skipped code starts).
    pub(crate) skips: Vec<Vec<(MBlock, usize)>>,
    /// Per layout position `k` seen by a skip decision: a position `j >= k` such that the
    /// blocks at `k..j` are empty, so the next decision jumps over them (`maybe_drop_skip`).
    pub(crate) empty_until: Vec<u32>,
    /// The block of the final `s_endpgm`, laid out last.
    pub(crate) kernel_end: MBlock,
    /// Blocks whose uniform arguments some edge writes while lanes that still read the
    /// current values have yet to run (an edge inside a divergent region): those arguments
    /// are written to `incoming` registers and moved in when the block starts.
    pub(crate) staged: HashSet<u32>,
    pub(crate) incoming: HashMap<Value, Val>,
    /// Block arguments whose only use passes them on, unchanged, as an argument of the next
    /// block: they take that argument's register (`forwarding`), so the copy vanishes.
    pub(crate) forward: HashMap<Value, Value>,
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
            empty_until: Vec::new(),
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
            LaneId => {
                let t = self.v32();
                let v = self.v32();
                self.emit(
                    Opc::V_MBCNT_LO_U32_B32,
                    vec![mir::r(t), Operand::Imm(-1), Operand::Imm(0)],
                );
                self.emit(
                    Opc::V_MBCNT_HI_U32_B32,
                    vec![mir::r(v), Operand::Imm(-1), mir::r(t)],
                );
                self.def(op, Val::V(v));
            }
            WaveSize => self.def(op, Val::Const(64)),
            SharedAlloc => {
                let n = ir.attr(op, "size").and_then(Attr::as_int).unwrap_or(0) as u32;
                let elem = match rty {
                    Some(Type::Ptr(_, e)) => e.bits() / 8,
                    _ => 4,
                };
                let base = self.info.lds_size.next_multiple_of(8);
                self.info.lds_size = base + n * elem;
                self.def(op, Val::Const(base as i64));
            }
            PtrOffset => {
                let p = self.use_val(d.operands[0], op)?;
                let idx = self.use_val(d.operands[1], op)?;
                let (space, elem) = match rty {
                    Some(Type::Ptr(s, e)) => (s, e),
                    _ => return err(self.loc, "internal: ptr_offset type"),
                };
                let x = self.ptr_add(space, elem, p, idx, d.operands[1], div)?;
                self.def(op, x);
            }
            Load => self.load(op, div)?,
            Store => self.store(op)?,
            Atomic | AtomicCmpxchg => self.atomic(op)?,
            Barrier => {
                self.emit(
                    Opc::S_WAITCNT,
                    vec![Operand::Wait {
                        vm: Some(0),
                        lgkm: Some(0),
                    }],
                );
                self.emit(Opc::S_BARRIER, vec![]);
            }
            Ballot => {
                let c = self.use_val(d.operands[0], op)?;
                let r = self.s64();
                match c {
                    Val::SBool(_) | Val::Const(_) | Val::S(_) => {
                        let b = self.sbool(c)?;
                        self.emit(Opc::S_CMP_LG_U32, vec![b, Operand::Imm(0)]);
                        self.emit(
                            Opc::S_CSELECT_B64,
                            vec![mir::r(r), Self::exec(), Operand::Imm(0)],
                        );
                    }
                    _ => {
                        let m = self.mask(c)?;
                        self.emit(Opc::S_AND_B64, vec![mir::r(r), mir::r(m), Self::exec()]);
                    }
                }
                self.def(op, Val::S(Operand2::Virt(r)));
            }
            ReadFirstLane => {
                let x = self.use_val(d.operands[0], op)?;
                let dw = Self::dwords(rty.unwrap());
                match x {
                    Val::V(v) => {
                        let r = if dw == 2 { self.s64() } else { self.s32() };
                        for i in 0..dw {
                            self.emit(
                                Opc::V_READFIRSTLANE_B32,
                                vec![mir::rsub(r, i, 1), mir::rsub(v, i, 1)],
                            );
                        }
                        self.def(op, Val::S(Operand2::Virt(r)));
                    }
                    other => self.def(op, other),
                }
            }
            ReadLane => {
                let x = self.use_val(d.operands[0], op)?;
                let l = self.use_val(d.operands[1], op)?;
                let dw = Self::dwords(rty.unwrap());
                let lane = self.sop(l, 1)?;
                match x {
                    Val::V(v) => {
                        let r = if dw == 2 { self.s64() } else { self.s32() };
                        for i in 0..dw {
                            self.emit(
                                Opc::V_READLANE_B32,
                                vec![mir::rsub(r, i, 1), mir::rsub(v, i, 1), lane.clone()],
                            );
                        }
                        self.def(op, Val::S(Operand2::Virt(r)));
                    }
                    other => self.def(op, other),
                }
            }
            Shuffle => {
                let x = self.use_val(d.operands[0], op)?;
                let l = self.use_val(d.operands[1], op)?;
                let dw = Self::dwords(rty.unwrap());
                let lv = self.vreg(l, 1)?;
                let addr = self.v32();
                self.emit(
                    Opc::V_LSHLREV_B32,
                    vec![mir::r(addr), Operand::Imm(2), mir::r(lv)],
                );
                let xv = self.vreg(x, dw)?;
                let r = if dw == 2 { self.v64() } else { self.v32() };
                for i in 0..dw {
                    self.emit(
                        Opc::DS_BPERMUTE_B32,
                        vec![mir::rsub(r, i, 1), mir::r(addr), mir::rsub(xv, i, 1)],
                    );
                }
                self.def(op, Val::V(r));
            }
            Reduce => self.reduce(op)?,
            _ => self.arith(op, div)?,
        }
        Ok(())
    }

    fn reduce(&mut self, op: Op) -> Result<(), IselError> {
        let ir = self.ir;
        let d = &ir.ops[op];
        let kind = ir
            .attr(op, "kind")
            .and_then(Attr::as_str)
            .unwrap_or("add")
            .to_string();
        let ty = ir.value_type(d.results[0]);
        let x = self.use_val(d.operands[0], op)?;
        if ty.bits() == 64 {
            return self.reduce64(op, &kind, x);
        }
        let float = ty == Type::F32;
        if !float && !matches!(x, Val::V(_)) {
            // Uniform operand: min/max are the value itself, add multiplies by the lane count.
            if kind == "add" {
                let n = self.s32();
                self.emit(Opc::S_BCNT1_I32_B64, vec![mir::r(n), Self::exec()]);
                let s = self.sop(x, 1)?;
                let r = self.s32();
                self.emit(Opc::S_MUL_I32, vec![mir::r(r), s, mir::r(n)]);
                self.def(op, Val::S(Operand2::Virt(r)));
            } else {
                self.def(op, x);
            }
            return Ok(());
        }
        // Iterate over the active lanes, lowest first (like LLVM's wave.reduce expansion).
        let v = self.vreg(x, 1)?;
        let lanes = self.s64();
        self.emit(Opc::S_MOV_B64, vec![mir::r(lanes), Self::exec()]);
        let identity: i64 = match kind.as_str() {
            "add" => 0,
            "min" => i32::MAX as i64,
            "max" => i32::MIN as i64,
            "umin" => u32::MAX as i64,
            "umax" => 0,
            "fadd" => 0x8000_0000, // -0.0 so that a sum of -0.0 stays -0.0
            // A quiet NaN: v_min/v_max_f32 return the other operand, so the result is the
            // first lane's value folded with the rest, NaN only if every lane is NaN (as the
            // reference's fold; +-inf would turn an all-NaN reduction into an infinity).
            "fmin" | "fmax" => 0x7fc0_0000,
            _ => 0,
        };
        let acc_s = self.s32();
        let acc_v = self.v32();
        if float {
            self.emit(Opc::V_MOV_B32, vec![mir::r(acc_v), Operand::Imm(identity)]);
        } else {
            self.emit(
                Opc::S_MOV_B32,
                vec![mir::r(acc_s), Operand::Imm(identity as u32 as i64)],
            );
        }
        let lp = self.mf.new_block();
        self.emit(Opc::S_CBRANCH_EXECZ, vec![Operand::Label(lp)]);
        let body = self.mf.new_block();
        self.start_block(body);
        let l = self.s32();
        let t = self.s32();
        self.emit(Opc::S_FF1_I32_B64, vec![mir::r(l), mir::r(lanes)]);
        self.emit(Opc::V_READLANE_B32, vec![mir::r(t), mir::r(v), mir::r(l)]);
        let sop = match kind.as_str() {
            "add" => Some(Opc::S_ADD_I32),
            "min" => Some(Opc::S_MIN_I32),
            "max" => Some(Opc::S_MAX_I32),
            "umin" => Some(Opc::S_MIN_U32),
            "umax" => Some(Opc::S_MAX_U32),
            _ => None,
        };
        match sop {
            Some(o) => {
                self.emit(o, vec![mir::r(acc_s), mir::r(acc_s), mir::r(t)]);
            }
            None => {
                let o = match kind.as_str() {
                    "fadd" => Opc::V_ADD_F32,
                    "fmin" => Opc::V_MIN_F32,
                    _ => Opc::V_MAX_F32,
                };
                self.emit(o, vec![mir::r(acc_v), mir::r(t), mir::r(acc_v)]);
            }
        }
        self.emit(Opc::S_BITSET0_B64, vec![mir::r(lanes), mir::r(l)]);
        self.emit(Opc::S_CMP_LG_U64, vec![mir::r(lanes), Operand::Imm(0)]);
        self.emit(Opc::S_CBRANCH_SCC1, vec![Operand::Label(body)]);
        self.start_block(lp);
        if float {
            let r = self.s32();
            self.emit(Opc::V_READFIRSTLANE_B32, vec![mir::r(r), mir::r(acc_v)]);
            self.def(op, Val::S(Operand2::Virt(r)));
        } else {
            self.def(op, Val::S(Operand2::Virt(acc_s)));
        }
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
        let v = self.vreg(iv, dw)?;
        if small {
            let lo = if wide { mir::rsub(v, 0, 1) } else { mir::r(v) };
            let t = self.v32();
            self.emit(Opc::V_LSHLREV_B32, vec![mir::r(t), Operand::Imm(shift), lo]);
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
        let shift = (elem.bits() / 8).trailing_zeros() as i64;
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
        let shift = (elem.bits() / 8).trailing_zeros() as i64;
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
                        let z = self.v32();
                        self.emit(Opc::V_MOV_B32, vec![mir::r(z), Operand::Imm(0)]);
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
                    let scalar = !matches!(iv, Val::V(_));
                    let off = self.byte_offset(iv, idx, shift, scalar)?;
                    let zero = |s: &mut Self| {
                        let z = s.v32();
                        s.emit(Opc::V_MOV_B32, vec![mir::r(z), Operand::Imm(0)]);
                        z
                    };
                    Ok(match off {
                        ByteOff::Const(c) if (0..4096).contains(&c) => Addr::Global {
                            sbase,
                            voff: zero(self),
                            offset: c as u32,
                        },
                        ByteOff::Const(c) if c >> 32 == 0 => {
                            let z = self.v32();
                            self.emit(Opc::V_MOV_B32, vec![mir::r(z), Operand::Imm(c)]);
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

    fn load(&mut self, op: Op, div: bool) -> Result<(), IselError> {
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
                let shift = (elem.bits() / 8).trailing_zeros() as i64;
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

    fn store(&mut self, op: Op) -> Result<(), IselError> {
        let d = &self.ir.ops[op];
        let (val, p, idx) = (d.operands[0], d.operands[1], d.operands[2]);
        let ty = self.ir.value_type(val);
        let dw = Self::dwords(ty);
        let a = self.address(op, p, idx)?;
        let x = self.use_val(val, op)?;
        let data = self.vreg(x, dw)?;
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

    fn atomic(&mut self, op: Op) -> Result<(), IselError> {
        let ir = self.ir;
        let d = &ir.ops[op];
        let ty = ir.value_type(d.results[0]);
        let p = d.operands[0];
        // Atomics take a pointer (`&p[i]`): element 0 of it.
        let a = {
            let pv = self.use_val(p, op)?;
            let Type::Ptr(space, _) = ir.value_type(p) else {
                return err(self.loc, "internal: atomic pointer");
            };
            match (space, pv) {
                (AddrSpace::Global, Val::S(_) | Val::Const(_)) => {
                    let sbase = self.sop(pv, 2)?;
                    let z = self.v32();
                    self.emit(Opc::V_MOV_B32, vec![mir::r(z), Operand::Imm(0)]);
                    Addr::Global {
                        sbase,
                        voff: z,
                        offset: 0,
                    }
                }
                (AddrSpace::Global, Val::V(v)) => Addr::Flat64(v),
                (AddrSpace::Shared, Val::Const(c)) => {
                    let z = self.v32();
                    self.emit(Opc::V_MOV_B32, vec![mir::r(z), Operand::Imm(0)]);
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
            }
        };
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
                    let i = self.emit(
                        Opc::GLOBAL_ATOMIC_CMPSWAP,
                        vec![mir::r(r), mir::r(vaddr), mir::r(pair), saddr],
                    );
                    i.sc0 = true;
                }
            }
        } else {
            let kind = ir.attr(op, "kind").and_then(Attr::as_str).unwrap_or("add");
            let x = self.use_val(d.operands[1], op)?;
            let data = self.vreg(x, 1)?;
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

    fn arith(&mut self, op: Op, div: bool) -> Result<(), IselError> {
        use Opcode::*;
        let ir = self.ir;
        let d = &ir.ops[op];
        let opc = d.opcode;
        let rty = ir.value_type(d.results[0]);
        let oty = d.operands.first().map(|&v| ir.value_type(v)).unwrap_or(rty);
        let xs: Vec<Val> = d
            .operands
            .iter()
            .map(|&v| self.use_val(v, op))
            .collect::<Result<_, _>>()?;
        // Constant folding keeps inline constants inline.
        // i1 logic.
        if rty == Type::I1 && matches!(opc, AndI | OrI | XOrI) {
            let all_uniform = xs.iter().all(|x| !matches!(x, Val::Mask(_) | Val::V(_)));
            if all_uniform && !div {
                let a = self.sbool(xs[0])?;
                let b = self.sbool(xs[1])?;
                let r = self.s32();
                let o = match opc {
                    AndI => Opc::S_AND_B32,
                    OrI => Opc::S_OR_B32,
                    _ => Opc::S_XOR_B32,
                };
                self.emit(o, vec![mir::r(r), a, b]);
                self.def(op, Val::SBool(r));
            } else {
                let a = self.mask(xs[0])?;
                let b = self.mask(xs[1])?;
                let r = self.s64();
                let o = match opc {
                    AndI => Opc::S_AND_B64,
                    OrI => Opc::S_OR_B64,
                    _ => Opc::S_XOR_B64,
                };
                self.emit(o, vec![mir::r(r), mir::r(a), mir::r(b)]);
                if opc == AndI && (self.masked.contains(&a) || self.masked.contains(&b)) {
                    self.masked.insert(r);
                }
                self.def(op, Val::Mask(r));
            }
            return Ok(());
        }
        let vector = div
            || oty == Type::F32
            || rty == Type::F32
            || xs.iter().any(|x| matches!(x, Val::V(_) | Val::Mask(_)));
        match opc {
            CmpI | CmpF => {
                let pred = ir.attr(op, "predicate").and_then(Attr::as_int).unwrap_or(0) as usize;
                return self.compare(op, opc == CmpF, pred, oty, xs[0], xs[1], div);
            }
            Select => return self.select_op(op, rty, xs[0], xs[1], xs[2], div),
            ExtUI | ExtSI | TruncI | Bitcast => {
                return self.convert_int(op, opc, oty, rty, xs[0], vector)
            }
            SIToFP | UIToFP | FPToSI | FPToUI => {
                if oty.bits() == 64 || rty.bits() == 64 {
                    return self.convert64(op, opc, xs[0]);
                }
                let o = match opc {
                    SIToFP => Opc::V_CVT_F32_I32,
                    UIToFP => Opc::V_CVT_F32_U32,
                    FPToSI => Opc::V_CVT_I32_F32,
                    _ => Opc::V_CVT_U32_F32,
                };
                let a = self.vop(xs[0], 1, true)?;
                let r = self.v32();
                self.emit(o, vec![mir::r(r), a]);
                self.def(op, Val::V(r));
                return Ok(());
            }
            NegF => {
                let a = self.vreg(xs[0], 1)?;
                let r = self.v32();
                self.emit(
                    Opc::V_XOR_B32,
                    vec![mir::r(r), Operand::Imm(0x8000_0000), mir::r(a)],
                );
                self.def(op, Val::V(r));
                return Ok(());
            }
            DivF => return self.divf(op, xs[0], xs[1]),
            RemF => return self.remf(op, xs[0], xs[1]),
            DivSI | DivUI | RemSI | RemUI => {
                if rty.bits() == 64 {
                    return self.divrem64(op, opc, xs[0], xs[1], div);
                }
                let r = self.divide(opc, xs[0], xs[1])?;
                if !div {
                    let s = self.s32();
                    self.emit(Opc::V_READFIRSTLANE_B32, vec![mir::r(s), mir::r(r)]);
                    self.def(op, Val::S(Operand2::Virt(s)));
                } else {
                    self.def(op, Val::V(r));
                }
                return Ok(());
            }
            _ => {}
        }
        if rty.bits() == 64 {
            return self.arith64(op, opc, xs[0], xs[1], vector);
        }
        if !vector {
            let sopc = match opc {
                AddI => Opc::S_ADD_I32,
                SubI => Opc::S_SUB_I32,
                MulI => Opc::S_MUL_I32,
                AndI => Opc::S_AND_B32,
                OrI => Opc::S_OR_B32,
                XOrI => Opc::S_XOR_B32,
                ShLI => Opc::S_LSHL_B32,
                ShRSI => Opc::S_ASHR_I32,
                ShRUI => Opc::S_LSHR_B32,
                MinSI => Opc::S_MIN_I32,
                MaxSI => Opc::S_MAX_I32,
                MinUI => Opc::S_MIN_U32,
                MaxUI => Opc::S_MAX_U32,
                MulHiU => Opc::S_MUL_HI_U32,
                _ => return err(self.loc, format!("unsupported op {}", opc.name())),
            };
            let a = self.sop(xs[0], 1)?;
            let b = self.sop(xs[1], 1)?;
            let r = self.s32();
            self.emit(sopc, vec![mir::r(r), a, b]);
            self.def(op, Val::S(Operand2::Virt(r)));
            return Ok(());
        }
        // VALU, 32-bit.
        let r = self.v32();
        let (commutes, vop2, rev) = match opc {
            AddI => (true, Some(Opc::V_ADD_U32), None),
            SubI => (false, Some(Opc::V_SUB_U32), Some(Opc::V_SUBREV_U32)),
            AndI => (true, Some(Opc::V_AND_B32), None),
            OrI => (true, Some(Opc::V_OR_B32), None),
            XOrI => (true, Some(Opc::V_XOR_B32), None),
            MinSI => (true, Some(Opc::V_MIN_I32), None),
            MaxSI => (true, Some(Opc::V_MAX_I32), None),
            MinUI => (true, Some(Opc::V_MIN_U32), None),
            MaxUI => (true, Some(Opc::V_MAX_U32), None),
            AddF => (true, Some(Opc::V_ADD_F32), None),
            SubF => (false, Some(Opc::V_SUB_F32), None),
            MulF => (true, Some(Opc::V_MUL_F32), None),
            _ => (false, None, None),
        };
        if let Some(o) = vop2 {
            let (a, b) = (xs[0], xs[1]);
            let bv = matches!(b, Val::V(_));
            let av = matches!(a, Val::V(_));
            if bv {
                let ao = self.vop(a, 1, true)?;
                self.emit(o, vec![mir::r(r), ao, mir::r(b_reg(b))]);
            } else if av && commutes {
                let bo = self.vop(b, 1, true)?;
                self.emit(o, vec![mir::r(r), bo, mir::r(b_reg(a))]);
            } else if av && rev.is_some() {
                let bo = self.vop(b, 1, true)?;
                self.emit(rev.unwrap(), vec![mir::r(r), bo, mir::r(b_reg(a))]);
            } else {
                let bvr = self.vreg(b, 1)?;
                let ao = self.vop(a, 1, true)?;
                self.emit(o, vec![mir::r(r), ao, mir::r(bvr)]);
            }
            self.def(op, Val::V(r));
            return Ok(());
        }
        match opc {
            MulI | MulHiU => {
                let a = self.vop(xs[0], 1, false)?;
                let b = if matches!(xs[0], Val::V(_)) {
                    self.vop(xs[1], 1, false)?
                } else {
                    mir::r(self.vreg(xs[1], 1)?)
                };
                let o = if opc == MulI {
                    Opc::V_MUL_LO_U32
                } else {
                    Opc::V_MUL_HI_U32
                };
                self.emit(o, vec![mir::r(r), a, b]);
            }
            ShLI | ShRSI | ShRUI => {
                let o = match opc {
                    ShLI => Opc::V_LSHLREV_B32,
                    ShRSI => Opc::V_ASHRREV_I32,
                    _ => Opc::V_LSHRREV_B32,
                };
                let amt = self.vop(xs[1], 1, true)?;
                let v = self.vreg(xs[0], 1)?;
                self.emit(o, vec![mir::r(r), amt, mir::r(v)]);
            }
            MinimumF | MaximumF => {
                let o = if opc == MinimumF {
                    Opc::V_MIN_F32
                } else {
                    Opc::V_MAX_F32
                };
                let a = self.vreg(xs[0], 1)?;
                let b = self.vreg(xs[1], 1)?;
                let t = self.v32();
                self.emit(o, vec![mir::r(t), mir::r(a), mir::r(b)]);
                // NaN in, NaN out (IEEE min/max return the other operand).
                let nan = self.v32();
                self.emit(Opc::V_MOV_B32, vec![mir::r(nan), Operand::Imm(0x7fc0_0000)]);
                let m = self.s64();
                self.emit(Opc::V_CMP_U_F32, vec![mir::r(m), mir::r(a), mir::r(b)]);
                self.emit(
                    Opc::V_CNDMASK_B32,
                    vec![mir::r(r), mir::r(t), mir::r(nan), mir::r(m)],
                );
            }
            _ => {
                return err(
                    self.loc,
                    format!("{} is not supported by the gfx942 backend yet", opc.name()),
                )
            }
        }
        self.def(op, Val::V(r));
        Ok(())
    }

    /// 32-bit integer division and remainder on the vector unit (AMDGPU's reciprocal
    /// expansion: an f32 reciprocal estimate refined to the exact quotient).
    fn divide(&mut self, opc: Opcode, a: Val, b: Val) -> Result<VReg, IselError> {
        let signed = matches!(opc, Opcode::DivSI | Opcode::RemSI);
        let rem = matches!(opc, Opcode::RemSI | Opcode::RemUI);
        let mut x = self.vreg(a, 1)?;
        let mut y = self.vreg(b, 1)?;
        let (mut sx, mut sy) = (None, None);
        if signed {
            // |x|, |y| via (v ^ s) - s with s = v >> 31.
            for (v, s) in [(&mut x, &mut sx), (&mut y, &mut sy)] {
                let sg = self.v32();
                self.emit(
                    Opc::V_ASHRREV_I32,
                    vec![mir::r(sg), Operand::Imm(31), mir::r(*v)],
                );
                let t = self.v32();
                self.emit(Opc::V_XOR_B32, vec![mir::r(t), mir::r(sg), mir::r(*v)]);
                let ab = self.v32();
                self.emit(Opc::V_SUB_U32, vec![mir::r(ab), mir::r(t), mir::r(sg)]);
                *v = ab;
                *s = Some(sg);
            }
        }
        let f = self.v32();
        self.emit(Opc::V_CVT_F32_U32, vec![mir::r(f), mir::r(y)]);
        let rc = self.v32();
        self.emit(Opc::V_RCP_IFLAG_F32, vec![mir::r(rc), mir::r(f)]);
        let sc = self.v32();
        self.emit(
            Opc::V_MUL_F32,
            vec![mir::r(sc), Operand::Imm(0x4f7f_fffe), mir::r(rc)],
        );
        let z = self.v32();
        self.emit(Opc::V_CVT_U32_F32, vec![mir::r(z), mir::r(sc)]);
        let ny = self.v32();
        self.emit(Opc::V_SUB_U32, vec![mir::r(ny), Operand::Imm(0), mir::r(y)]);
        let t = self.v32();
        self.emit(Opc::V_MUL_LO_U32, vec![mir::r(t), mir::r(ny), mir::r(z)]);
        let h = self.v32();
        self.emit(Opc::V_MUL_HI_U32, vec![mir::r(h), mir::r(z), mir::r(t)]);
        let z2 = self.v32();
        self.emit(Opc::V_ADD_U32, vec![mir::r(z2), mir::r(z), mir::r(h)]);
        let q = self.v32();
        self.emit(Opc::V_MUL_HI_U32, vec![mir::r(q), mir::r(x), mir::r(z2)]);
        let qy = self.v32();
        self.emit(Opc::V_MUL_LO_U32, vec![mir::r(qy), mir::r(q), mir::r(y)]);
        let mut rr = self.v32();
        self.emit(Opc::V_SUB_U32, vec![mir::r(rr), mir::r(x), mir::r(qy)]);
        let mut qq = q;
        for _ in 0..2 {
            let ge = self.s64();
            self.emit(Opc::V_CMP_GE_U32, vec![mir::r(ge), mir::r(rr), mir::r(y)]);
            let q1 = self.v32();
            self.emit(
                Opc::V_ADD_U32,
                vec![mir::r(q1), Operand::Imm(1), mir::r(qq)],
            );
            let r1 = self.v32();
            self.emit(Opc::V_SUB_U32, vec![mir::r(r1), mir::r(rr), mir::r(y)]);
            let qn = self.v32();
            self.emit(
                Opc::V_CNDMASK_B32,
                vec![mir::r(qn), mir::r(qq), mir::r(q1), mir::r(ge)],
            );
            let rn = self.v32();
            self.emit(
                Opc::V_CNDMASK_B32,
                vec![mir::r(rn), mir::r(rr), mir::r(r1), mir::r(ge)],
            );
            qq = qn;
            rr = rn;
        }
        if !signed {
            return Ok(if rem { rr } else { qq });
        }
        // Quotient sign = sx ^ sy, remainder sign = sx.
        let (sx, sy) = (sx.unwrap(), sy.unwrap());
        let s = if rem {
            sx
        } else {
            let s = self.v32();
            self.emit(Opc::V_XOR_B32, vec![mir::r(s), mir::r(sx), mir::r(sy)]);
            s
        };
        let v = if rem { rr } else { qq };
        let t = self.v32();
        self.emit(Opc::V_XOR_B32, vec![mir::r(t), mir::r(s), mir::r(v)]);
        let out = self.v32();
        self.emit(Opc::V_SUB_U32, vec![mir::r(out), mir::r(t), mir::r(s)]);
        Ok(out)
    }

    #[allow(clippy::too_many_arguments)]
    fn compare(
        &mut self,
        op: Op,
        float: bool,
        pred: usize,
        ty: Type,
        a: Val,
        b: Val,
        div: bool,
    ) -> Result<(), IselError> {
        let wide = ty.bits() == 64;
        let vector = float || div || matches!(a, Val::V(_)) || matches!(b, Val::V(_));
        if ty == Type::I1 {
            // eq / ne on booleans: xor.
            let x = if vector || matches!(a, Val::Mask(_)) || matches!(b, Val::Mask(_)) {
                let ma = self.mask(a)?;
                let mb = self.mask(b)?;
                let r = self.s64();
                self.emit(Opc::S_XOR_B64, vec![mir::r(r), mir::r(ma), mir::r(mb)]);
                if pred == 0 {
                    let n = self.s64();
                    self.emit(Opc::S_NOT_B64, vec![mir::r(n), mir::r(r)]);
                    Val::Mask(n)
                } else {
                    Val::Mask(r)
                }
            } else {
                let sa = self.sbool(a)?;
                let sb = self.sbool(b)?;
                let r = self.s32();
                self.emit(Opc::S_XOR_B32, vec![mir::r(r), sa, sb]);
                if pred == 0 {
                    let n = self.s32();
                    self.emit(Opc::S_XOR_B32, vec![mir::r(n), mir::r(r), Operand::Imm(1)]);
                    Val::SBool(n)
                } else {
                    Val::SBool(r)
                }
            };
            self.def(op, x);
            return Ok(());
        }
        if !vector && (!wide || pred <= 1) {
            let o = if wide {
                [Opc::S_CMP_EQ_U64, Opc::S_CMP_LG_U64][pred]
            } else {
                [
                    Opc::S_CMP_EQ_U32,
                    Opc::S_CMP_LG_U32,
                    Opc::S_CMP_LT_I32,
                    Opc::S_CMP_LE_I32,
                    Opc::S_CMP_GT_I32,
                    Opc::S_CMP_GE_I32,
                    Opc::S_CMP_LT_U32,
                    Opc::S_CMP_LE_U32,
                    Opc::S_CMP_GT_U32,
                    Opc::S_CMP_GE_U32,
                ][pred]
            };
            let dw = if wide { 2 } else { 1 };
            let sa = self.sop(a, dw)?;
            let sb = self.sop(b, dw)?;
            self.emit(o, vec![sa, sb]);
            let r = self.s32();
            self.emit(
                Opc::S_CSELECT_B32,
                vec![mir::r(r), Operand::Imm(1), Operand::Imm(0)],
            );
            self.def(op, Val::SBool(r));
            return Ok(());
        }
        let o = if float {
            use Opc::*;
            match pred {
                0 => {
                    self.def(op, Val::Const(0));
                    return Ok(());
                }
                15 => {
                    self.def(op, Val::Const(1));
                    return Ok(());
                }
                1 => V_CMP_EQ_F32,
                2 => V_CMP_GT_F32,
                3 => V_CMP_GE_F32,
                4 => V_CMP_LT_F32,
                5 => V_CMP_LE_F32,
                6 => V_CMP_LG_F32,
                7 => V_CMP_O_F32,
                8 => V_CMP_NLG_F32,
                9 => V_CMP_NLE_F32,
                10 => V_CMP_NLT_F32,
                11 => V_CMP_NGE_F32,
                12 => V_CMP_NGT_F32,
                13 => V_CMP_NEQ_F32,
                _ => V_CMP_U_F32,
            }
        } else if wide {
            use Opc::*;
            [
                V_CMP_EQ_U64,
                V_CMP_NE_U64,
                V_CMP_LT_I64,
                V_CMP_LE_I64,
                V_CMP_GT_I64,
                V_CMP_GE_I64,
                V_CMP_LT_U64,
                V_CMP_LE_U64,
                V_CMP_GT_U64,
                V_CMP_GE_U64,
            ][pred]
        } else {
            use Opc::*;
            [
                V_CMP_EQ_U32,
                V_CMP_NE_U32,
                V_CMP_LT_I32,
                V_CMP_LE_I32,
                V_CMP_GT_I32,
                V_CMP_GE_I32,
                V_CMP_LT_U32,
                V_CMP_LE_U32,
                V_CMP_GT_U32,
                V_CMP_GE_U32,
            ][pred]
        };
        let dw = if wide { 2 } else { 1 };
        // VOP3: at most one scalar operand, no literal.
        let oa = self.vop(a, dw, false)?;
        let ob = if matches!(oa, Operand::Reg { reg: mir::Reg::Virt(v), .. } if self.mf.vregs[v].file == File::V)
        {
            self.vop(b, dw, false)?
        } else {
            mir::r(self.vreg(b, dw)?)
        };
        let m = self.s64();
        self.emit(o, vec![mir::r(m), oa, ob]);
        self.masked.insert(m);
        if div {
            self.def(op, Val::Mask(m));
        } else {
            // Uniform but computed on the vector unit.
            let b = self.sbool(Val::Mask(m))?;
            let Operand::Reg {
                reg: mir::Reg::Virt(bv),
                ..
            } = b
            else {
                unreachable!()
            };
            self.def(op, Val::SBool(bv));
        }
        Ok(())
    }

    fn select_op(
        &mut self,
        op: Op,
        ty: Type,
        c: Val,
        a: Val,
        b: Val,
        div: bool,
    ) -> Result<(), IselError> {
        let dw = Self::dwords(ty);
        if ty == Type::I1 {
            if !div
                && !matches!(c, Val::Mask(_))
                && !matches!(a, Val::Mask(_))
                && !matches!(b, Val::Mask(_))
            {
                let sc = self.sbool(c)?;
                let sa = self.sbool(a)?;
                let sb = self.sbool(b)?;
                self.emit(Opc::S_CMP_LG_U32, vec![sc, Operand::Imm(0)]);
                let r = self.s32();
                self.emit(Opc::S_CSELECT_B32, vec![mir::r(r), sa, sb]);
                self.def(op, Val::SBool(r));
            } else {
                let mc = self.mask(c)?;
                let ma = self.mask(a)?;
                let mb = self.mask(b)?;
                let t1 = self.s64();
                let t2 = self.s64();
                let r = self.s64();
                self.emit(Opc::S_AND_B64, vec![mir::r(t1), mir::r(mc), mir::r(ma)]);
                self.emit(Opc::S_ANDN2_B64, vec![mir::r(t2), mir::r(mb), mir::r(mc)]);
                self.emit(Opc::S_OR_B64, vec![mir::r(r), mir::r(t1), mir::r(t2)]);
                self.def(op, Val::Mask(r));
            }
            return Ok(());
        }
        let vector = div
            || ty == Type::F32
            || [a, b].iter().any(|x| matches!(x, Val::V(_)))
            || matches!(c, Val::Mask(_));
        if !vector {
            let sc = self.sbool(c)?;
            let sa = self.sop(a, dw)?;
            let sb = self.sop(b, dw)?;
            self.emit(Opc::S_CMP_LG_U32, vec![sc, Operand::Imm(0)]);
            let r = if dw == 2 { self.s64() } else { self.s32() };
            let o = if dw == 2 {
                Opc::S_CSELECT_B64
            } else {
                Opc::S_CSELECT_B32
            };
            self.emit(o, vec![mir::r(r), sa, sb]);
            self.def(op, Val::S(Operand2::Virt(r)));
            return Ok(());
        }
        let m = self.mask(c)?;
        let va = self.vreg(a, dw)?;
        let vb = self.vreg(b, dw)?;
        let r = if dw == 2 { self.v64() } else { self.v32() };
        for i in 0..dw {
            self.emit(
                Opc::V_CNDMASK_B32,
                vec![
                    mir::rsub(r, i, 1),
                    mir::rsub(vb, i, 1),
                    mir::rsub(va, i, 1),
                    mir::r(m),
                ],
            );
        }
        self.def(op, Val::V(r));
        Ok(())
    }

    fn convert_int(
        &mut self,
        op: Op,
        opc: Opcode,
        from: Type,
        to: Type,
        x: Val,
        vector: bool,
    ) -> Result<(), IselError> {
        use Opcode::*;
        let r = match (opc, from.bits(), to.bits()) {
            (Bitcast, _, _) => x,
            (ExtUI | ExtSI, 1, _) => {
                let one = if opc == ExtSI { -1 } else { 1 };
                let wide = to.bits() == 64;
                match x {
                    Val::Mask(m) => {
                        let v = if wide { self.v64() } else { self.v32() };
                        self.emit(
                            Opc::V_CNDMASK_B32,
                            vec![
                                mir::rsub(v, 0, 1),
                                Operand::Imm(0),
                                Operand::Imm(one),
                                mir::r(m),
                            ],
                        );
                        if wide {
                            let hi = if opc == ExtSI { one } else { 0 };
                            self.emit(
                                Opc::V_CNDMASK_B32,
                                vec![
                                    mir::rsub(v, 1, 1),
                                    Operand::Imm(0),
                                    Operand::Imm(hi),
                                    mir::r(m),
                                ],
                            );
                        }
                        Val::V(v)
                    }
                    Val::Const(c) => Val::Const(if c & 1 != 0 {
                        if opc == ExtSI {
                            -1
                        } else {
                            1
                        }
                    } else {
                        0
                    }),
                    _ => {
                        let b = self.sbool(x)?;
                        self.emit(Opc::S_CMP_LG_U32, vec![b, Operand::Imm(0)]);
                        let s = if wide { self.s64() } else { self.s32() };
                        if wide {
                            let imm = if opc == ExtSI { -1 } else { 1 };
                            self.emit(
                                Opc::S_CSELECT_B64,
                                vec![mir::r(s), Operand::Imm(imm), Operand::Imm(0)],
                            );
                        } else {
                            self.emit(
                                Opc::S_CSELECT_B32,
                                vec![mir::r(s), Operand::Imm(one), Operand::Imm(0)],
                            );
                        }
                        Val::S(Operand2::Virt(s))
                    }
                }
            }
            (TruncI, _, 1) => {
                // Low bit.
                if vector {
                    let v = self.vreg(x, Self::dwords(from))?;
                    let t = self.v32();
                    self.emit(
                        Opc::V_AND_B32,
                        vec![mir::r(t), Operand::Imm(1), mir::rsub(v, 0, 1)],
                    );
                    let m = self.s64();
                    self.emit(
                        Opc::V_CMP_NE_U32,
                        vec![mir::r(m), Operand::Imm(0), mir::r(t)],
                    );
                    self.masked.insert(m);
                    Val::Mask(m)
                } else {
                    let s = self.sop(x, Self::dwords(from))?;
                    let lo = match s {
                        Operand::Reg { reg, .. } => Operand::Reg { reg, sub: 0, n: 1 },
                        o => o,
                    };
                    let r = self.s32();
                    self.emit(Opc::S_AND_B32, vec![mir::r(r), lo, Operand::Imm(1)]);
                    Val::SBool(r)
                }
            }
            (TruncI, 64, 32) => match x {
                Val::V(v) => {
                    let r = self.v32();
                    self.emit(Opc::V_MOV_B32, vec![mir::r(r), mir::rsub(v, 0, 1)]);
                    Val::V(r)
                }
                Val::Const(c) => Val::Const(c as i32 as i64),
                _ => {
                    let s = self.sop(x, 2)?;
                    let Operand::Reg { reg, .. } = s else {
                        return err(self.loc, "internal: trunc");
                    };
                    let r = self.s32();
                    self.emit(
                        Opc::S_MOV_B32,
                        vec![mir::r(r), Operand::Reg { reg, sub: 0, n: 1 }],
                    );
                    Val::S(Operand2::Virt(r))
                }
            },
            (ExtUI | ExtSI, 32, 64) => match x {
                Val::Const(c) => Val::Const(if opc == ExtSI {
                    c as i32 as i64
                } else {
                    c as u32 as i64
                }),
                Val::V(_) => {
                    let v = self.vreg(x, 1)?;
                    let r = self.v64();
                    self.emit(Opc::V_MOV_B32, vec![mir::rsub(r, 0, 1), mir::r(v)]);
                    if opc == ExtSI {
                        self.emit(
                            Opc::V_ASHRREV_I32,
                            vec![mir::rsub(r, 1, 1), Operand::Imm(31), mir::r(v)],
                        );
                    } else {
                        self.emit(Opc::V_MOV_B32, vec![mir::rsub(r, 1, 1), Operand::Imm(0)]);
                    }
                    Val::V(r)
                }
                _ => {
                    let s = self.sop(x, 1)?;
                    let r = self.s64();
                    self.emit(Opc::S_MOV_B32, vec![mir::rsub(r, 0, 1), s.clone()]);
                    if opc == ExtSI {
                        self.emit(
                            Opc::S_ASHR_I32,
                            vec![mir::rsub(r, 1, 1), s, Operand::Imm(31)],
                        );
                    } else {
                        self.emit(Opc::S_MOV_B32, vec![mir::rsub(r, 1, 1), Operand::Imm(0)]);
                    }
                    Val::S(Operand2::Virt(r))
                }
            },
            _ => x,
        };
        self.def(op, r);
        Ok(())
    }

    fn arith64(
        &mut self,
        op: Op,
        opc: Opcode,
        a: Val,
        b: Val,
        vector: bool,
    ) -> Result<(), IselError> {
        use Opcode::*;
        if matches!(opc, MinSI | MaxSI | MinUI | MaxUI) {
            return self.minmax64(op, opc, a, b, vector);
        }
        if !vector {
            let sa = self.sop(a, 2)?;
            let r = self.s64();
            let halves = |o: &Operand| match o {
                Operand::Reg { reg, .. } => (
                    Operand::Reg {
                        reg: *reg,
                        sub: 0,
                        n: 1,
                    },
                    Operand::Reg {
                        reg: *reg,
                        sub: 1,
                        n: 1,
                    },
                ),
                Operand::Imm(c) => (
                    Operand::Imm(*c as i32 as i64),
                    Operand::Imm(if *c < 0 { -1 } else { 0 }),
                ),
                o => (o.clone(), o.clone()),
            };
            match opc {
                AndI | OrI | XOrI => {
                    let sb = self.sop(b, 2)?;
                    let o = match opc {
                        AndI => Opc::S_AND_B64,
                        OrI => Opc::S_OR_B64,
                        _ => Opc::S_XOR_B64,
                    };
                    self.emit(o, vec![mir::r(r), sa, sb]);
                }
                ShLI | ShRSI | ShRUI => {
                    let sb = self.sop(b, 2)?;
                    let (blo, _) = halves(&sb);
                    let o = match opc {
                        ShLI => Opc::S_LSHL_B64,
                        ShRSI => Opc::S_ASHR_I64,
                        _ => Opc::S_LSHR_B64,
                    };
                    self.emit(o, vec![mir::r(r), sa, blo]);
                }
                AddI | SubI => {
                    let sb = self.sop(b, 2)?;
                    let (alo, ahi) = halves(&sa);
                    let (blo, bhi) = halves(&sb);
                    let (o1, o2) = if opc == AddI {
                        (Opc::S_ADD_U32, Opc::S_ADDC_U32)
                    } else {
                        (Opc::S_SUB_U32, Opc::S_SUBB_U32)
                    };
                    self.emit(o1, vec![mir::rsub(r, 0, 1), alo, blo]);
                    self.emit(o2, vec![mir::rsub(r, 1, 1), ahi, bhi]);
                }
                MulI => {
                    let sb = self.sop(b, 2)?;
                    let (alo, ahi) = halves(&sa);
                    let (blo, bhi) = halves(&sb);
                    let h = self.s32();
                    let t1 = self.s32();
                    let t2 = self.s32();
                    let h2 = self.s32();
                    self.emit(Opc::S_MUL_HI_U32, vec![mir::r(h), alo.clone(), blo.clone()]);
                    self.emit(Opc::S_MUL_I32, vec![mir::r(t1), alo.clone(), bhi]);
                    self.emit(Opc::S_MUL_I32, vec![mir::r(t2), ahi, blo.clone()]);
                    self.emit(Opc::S_ADD_I32, vec![mir::r(h2), mir::r(h), mir::r(t1)]);
                    self.emit(
                        Opc::S_ADD_I32,
                        vec![mir::rsub(r, 1, 1), mir::r(h2), mir::r(t2)],
                    );
                    self.emit(Opc::S_MUL_I32, vec![mir::rsub(r, 0, 1), alo, blo]);
                }
                _ => {
                    return err(
                        self.loc,
                        format!(
                            "64-bit {} is not supported by the gfx942 backend yet",
                            opc.name()
                        ),
                    )
                }
            }
            self.def(op, Val::S(Operand2::Virt(r)));
            return Ok(());
        }
        let va = self.vpair(a)?;
        let r = self.v64();
        match opc {
            AndI | OrI | XOrI => {
                let vb = self.vpair(b)?;
                let o = match opc {
                    AndI => Opc::V_AND_B32,
                    OrI => Opc::V_OR_B32,
                    _ => Opc::V_XOR_B32,
                };
                for i in 0..2 {
                    self.emit(
                        o,
                        vec![mir::rsub(r, i, 1), mir::rsub(vb, i, 1), mir::rsub(va, i, 1)],
                    );
                }
            }
            ShLI | ShRSI | ShRUI => {
                let vb = self.vpair(b)?;
                let o = match opc {
                    ShLI => Opc::V_LSHLREV_B64,
                    ShRSI => Opc::V_ASHRREV_I64,
                    _ => Opc::V_LSHRREV_B64,
                };
                self.emit(o, vec![mir::r(r), mir::rsub(vb, 0, 1), mir::r(va)]);
            }
            AddI => {
                // One v_lshl_add_u64 (shift 0), as LLVM on gfx942.
                let vb = self.vpair(b)?;
                self.emit(
                    Opc::V_LSHL_ADD_U64,
                    vec![mir::r(r), mir::r(va), Operand::Imm(0), mir::r(vb)],
                );
            }
            SubI => {
                let vb = self.vpair(b)?;
                let c = self.s64();
                let c2 = self.s64();
                let (o1, o2) = (Opc::V_SUB_CO_U32, Opc::V_SUBB_CO_U32);
                self.emit(
                    o1,
                    vec![
                        mir::rsub(r, 0, 1),
                        mir::r(c),
                        mir::rsub(va, 0, 1),
                        mir::rsub(vb, 0, 1),
                    ],
                );
                self.emit(
                    o2,
                    vec![
                        mir::rsub(r, 1, 1),
                        mir::r(c2),
                        mir::rsub(va, 1, 1),
                        mir::rsub(vb, 1, 1),
                        mir::r(c),
                    ],
                );
            }
            MulI => {
                let vb = self.vpair(b)?;
                let p = self.mul_lo64(va, vb);
                self.def(op, Val::V(p));
                return Ok(());
            }
            _ => {
                return err(
                    self.loc,
                    format!(
                        "64-bit {} is not supported by the gfx942 backend yet",
                        opc.name()
                    ),
                )
            }
        }
        self.def(op, Val::V(r));
        Ok(())
    }
}

fn b_reg(x: Val) -> VReg {
    match x {
        Val::V(v) => v,
        _ => unreachable!("checked by the caller"),
    }
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

/// Where a memory access goes.
pub(crate) enum Addr {
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
    pub(crate) fn global(&self) -> Option<(VReg, Operand, u32)> {
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
