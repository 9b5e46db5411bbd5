//! The LLVM IR of one kc op (`FuncEmitter::op`) and its helpers.

use super::*;

impl<'a> FuncEmitter<'a> {
    pub(super) fn op(&mut self, op: Op, block: Block) -> Result<(), String> {
        let ir = self.ir;
        let data = &ir.ops[op];
        use Opcode::*;
        match data.opcode {
            Constant => {
                constant_literal(ir, op)?;
            }
            WaveSize => {}

            // ---- convergence tokens ----
            ConvEntry | ConvAnchor => {
                let r = self.result(op)?;
                let which = if data.opcode == ConvEntry {
                    "entry"
                } else {
                    "anchor"
                };
                self.call(
                    Some(&r),
                    "token",
                    &format!("llvm.experimental.convergence.{which}"),
                    &[],
                    &[],
                    Attrs::Token,
                    "",
                );
            }
            ConvLoop => {
                let r = self.result(op)?;
                let parent = self.operand(op, 0)?;
                let b = format!(" [ \"convergencectrl\"(token %{}) ]", self.name(parent));
                self.call(
                    Some(&r),
                    "token",
                    "llvm.experimental.convergence.loop",
                    &[],
                    &[],
                    Attrs::Token,
                    &b,
                );
            }

            // ---- thread geometry ----
            WorkitemId | WorkgroupId => {
                let r = self.result(op)?;
                let (d, _) = self.dim(op)?;
                let what = if data.opcode == WorkitemId {
                    "workitem"
                } else {
                    "workgroup"
                };
                self.call(
                    Some(&r),
                    "i32",
                    &format!("llvm.amdgcn.{what}.id.{d}"),
                    &[],
                    &[],
                    Attrs::Pure,
                    "",
                );
            }
            WorkgroupSize => {
                let r = self.result(op)?;
                let (_, i) = self.dim(op)?;
                self.dispatch_field(&r, &r, 4 + 2 * i, 16);
            }
            NumWorkgroups => {
                // ceil(grid_size / workgroup_size), without overflow.
                let r = self.result(op)?;
                let (_, i) = self.dim(op)?;
                let dp = self.dispatch_ptr(&r);
                let grid = self.fresh(format!("{r}.grid"));
                self.dispatch_load(&grid, &grid, &dp, 12 + 4 * i, 32);
                let size = self.fresh(format!("{r}.size"));
                self.dispatch_load(&size, &size, &dp, 4 + 2 * i, 16);
                let full = self.fresh(format!("{r}.full"));
                let rem = self.fresh(format!("{r}.rem"));
                let partial = self.fresh(format!("{r}.partial"));
                let extra = self.fresh(format!("{r}.extra"));
                self.line(format!("%{full} = udiv i32 %{grid}, %{size}"));
                self.line(format!("%{rem} = urem i32 %{grid}, %{size}"));
                self.line(format!("%{partial} = icmp ne i32 %{rem}, 0"));
                self.line(format!("%{extra} = zext i1 %{partial} to i32"));
                self.line(format!("%{r} = add i32 %{full}, %{extra}"));
            }
            LaneId => {
                let r = self.result(op)?;
                let lo = self.fresh(format!("{r}.lo"));
                self.call(
                    Some(&lo),
                    "i32",
                    "llvm.amdgcn.mbcnt.lo",
                    &["i32", "i32"],
                    &["i32 -1".into(), "i32 0".into()],
                    Attrs::NoMem,
                    "",
                );
                self.call(
                    Some(&r),
                    "i32",
                    "llvm.amdgcn.mbcnt.hi",
                    &["i32", "i32"],
                    &["i32 -1".into(), format!("i32 %{lo}")],
                    Attrs::NoMem,
                    "",
                );
            }

            // ---- memory ----
            SharedAlloc => {
                let r = self.result(op)?;
                let Type::Ptr(AddrSpace::Shared, elem) = ir.value_type(data.results[0]) else {
                    return Err("`kernel.shared_alloc` must return a shared pointer".into());
                };
                let size = ir
                    .attr(op, "size")
                    .and_then(Attr::as_int)
                    .filter(|&n| n > 0)
                    .ok_or("`kernel.shared_alloc` needs a positive `size`")?;
                let kernel = ir.func_name(self.func);
                let mut gname = format!("{kernel}.{r}");
                let mut k = 1;
                while !self.m.global_names.insert(gname.clone()) {
                    gname = format!("{kernel}.{r}.{k}");
                    k += 1;
                }
                let g = global_ident(&gname);
                self.m.globals.push(format!(
                    "{g} = internal addrspace(3) global [{size} x {}] poison, align {}",
                    scalar_ty(elem),
                    align(elem)
                ));
                self.line(format!(
                    "%{r} = getelementptr inbounds i8, ptr addrspace(3) {g}, i32 0"
                ));
            }
            PtrOffset => {
                let r = self.result(op)?;
                let (p, i) = (self.operand(op, 0)?, self.operand(op, 1)?);
                self.gep(&r, p, i, &r)?;
            }
            Load => {
                let r = self.result(op)?;
                let (p, i) = (self.operand(op, 0)?, self.operand(op, 1)?);
                let (elem, asp, _) = self.pointee(p)?;
                let g = self.fresh(format!("{r}.gep"));
                self.gep(&g, p, i, &r)?;
                self.line(format!(
                    "%{r} = load {}, ptr addrspace({asp}) %{g}, align {}",
                    scalar_ty(elem),
                    align(elem)
                ));
            }
            Store => {
                let (v, p, i) = (
                    self.operand(op, 0)?,
                    self.operand(op, 1)?,
                    self.operand(op, 2)?,
                );
                let (elem, asp, _) = self.pointee(p)?;
                let base = self.name(p).to_string();
                let g = self.fresh(format!("{base}.gep"));
                self.gep(&g, p, i, &base)?;
                let v = self.tv(v)?;
                self.line(format!(
                    "store {v}, ptr addrspace({asp}) %{g}, align {}",
                    align(elem)
                ));
            }
            Atomic | AtomicCmpxchg | AtomicLoad | AtomicStore | Fence => self.sync_op(op)?,

            // ---- convergent ----
            Barrier => self.sync_op(op)?,
            Ballot => {
                let r = self.result(op)?;
                let b = self.bundle(op)?;
                let c = self.tv(self.operand(op, 0)?)?;
                self.call(
                    Some(&r),
                    "i64",
                    "llvm.amdgcn.ballot.i64",
                    &["i1"],
                    &[c],
                    Attrs::CrossLane,
                    &b,
                );
            }
            ReadFirstLane | ReadLane => {
                let r = self.result(op)?;
                let b = self.bundle(op)?;
                let v = self.operand(op, 0)?;
                let s = self.scalar_of(v)?;
                let t = scalar_ty(s);
                let mut args = vec![self.tv(v)?];
                let mut params = vec![t];
                let which = if data.opcode == ReadLane {
                    args.push(self.tv(self.operand(op, 1)?)?);
                    params.push("i32");
                    "readlane"
                } else {
                    "readfirstlane"
                };
                self.call(
                    Some(&r),
                    t,
                    &format!("llvm.amdgcn.{which}.{}", mangle(s)),
                    &params,
                    &args,
                    Attrs::CrossLane,
                    &b,
                );
            }
            Shuffle => self.shuffle(op)?,
            Scan => self.scan(op)?,
            Reduce => {
                let r = self.result(op)?;
                let b = self.bundle(op)?;
                let v = self.operand(op, 0)?;
                let s = self.scalar_of(v)?;
                let kind = self.str_attr(op, "kind")?;
                let int = matches!(s, Scalar::I32 | Scalar::I64);
                let ok = match kind.as_str() {
                    "add" | "min" | "max" | "umin" | "umax" => int,
                    "fadd" | "fmin" | "fmax" => s == Scalar::F32,
                    _ => false,
                };
                if !ok {
                    return Err(format!("`kernel.reduce {kind}` on {s} is not supported"));
                }
                let t = scalar_ty(s);
                let red = self.fresh(format!("{r}.reduce"));
                let args = vec![self.tv(v)?, "i32 0".to_string()];
                self.call(
                    Some(&red),
                    t,
                    &format!("llvm.amdgcn.wave.reduce.{kind}.{}", mangle(s)),
                    &[t, "i32 immarg"],
                    &args,
                    Attrs::CrossLane,
                    &b,
                );
                // kc's reduce is uniform by definition; LLVM 22 calls wave.reduce of a
                // divergent input divergent. readfirstlane (always uniform for LLVM) restates
                // kc's semantics, and carries kc's name (module docs, "Uniform reduce").
                self.call(
                    Some(&r),
                    t,
                    &format!("llvm.amdgcn.readfirstlane.{}", mangle(s)),
                    &[t],
                    &[format!("{t} %{red}")],
                    Attrs::CrossLane,
                    &b,
                );
            }

            // ---- arith ----
            MulHiU => self.mulhiu(op)?,
            AddI | SubI | MulI | DivSI | DivUI | RemSI | RemUI | AndI | OrI | XOrI | AddF
            | SubF | MulF | DivF | RemF => {
                let inst = match data.opcode {
                    AddI => "add",
                    SubI => "sub",
                    MulI => "mul",
                    DivSI => "sdiv",
                    DivUI => "udiv",
                    RemSI => "srem",
                    RemUI => "urem",
                    AndI => "and",
                    OrI => "or",
                    XOrI => "xor",
                    AddF => "fadd",
                    SubF => "fsub",
                    MulF => "fmul",
                    DivF => "fdiv",
                    _ => "frem",
                };
                self.binary(op, inst)?;
            }
            ShLI | ShRSI | ShRUI => {
                let r = self.result(op)?;
                let inst = match data.opcode {
                    ShLI => "shl",
                    ShRSI => "ashr",
                    _ => "lshr",
                };
                let (a, b) = (self.operand(op, 0)?, self.operand(op, 1)?);
                let ty = ll_type(ir.value_type(a))?;
                let mask = ir.value_type(a).bits() as i64 - 1;
                // LANGUAGE.md: shift amounts are taken modulo the width (LLVM: poison).
                let amount = match ir.defining_op(b).filter(|&d| ir.opcode(d) == Constant) {
                    Some(d) => {
                        let c = ir.attr(d, "value").and_then(Attr::as_int).unwrap_or(0);
                        (c & mask).to_string()
                    }
                    None => {
                        let amt = self.fresh(format!("{r}.amount"));
                        let bv = self.val(b)?;
                        self.line(format!("%{amt} = and {ty} {bv}, {mask}"));
                        format!("%{amt}")
                    }
                };
                let av = self.val(a)?;
                self.line(format!("%{r} = {inst} {ty} {av}, {amount}"));
            }
            MinSI | MaxSI | MinUI | MaxUI | MinimumF | MaximumF => {
                let r = self.result(op)?;
                let (a, b) = (self.operand(op, 0)?, self.operand(op, 1)?);
                let s = self.scalar_of(a)?;
                let t = scalar_ty(s);
                let f = match data.opcode {
                    MinSI => "smin",
                    MaxSI => "smax",
                    MinUI => "umin",
                    MaxUI => "umax",
                    MinimumF => "minimum",
                    _ => "maximum",
                };
                let args = vec![self.tv(a)?, self.tv(b)?];
                self.call(
                    Some(&r),
                    t,
                    &format!("llvm.{f}.{}", mangle(s)),
                    &[t, t],
                    &args,
                    Attrs::Pure,
                    "",
                );
            }
            NegF => {
                let r = self.result(op)?;
                let a = self.tv(self.operand(op, 0)?)?;
                self.line(format!("%{r} = fneg {a}"));
            }
            CmpI | CmpF => {
                let r = self.result(op)?;
                let preds = if data.opcode == CmpI {
                    CMPI_PREDICATES
                } else {
                    CMPF_PREDICATES
                };
                let pred = ir
                    .attr(op, "predicate")
                    .and_then(Attr::as_int)
                    .and_then(|i| usize::try_from(i).ok())
                    .and_then(|i| preds.get(i))
                    .ok_or("bad comparison predicate")?;
                let inst = if data.opcode == CmpI { "icmp" } else { "fcmp" };
                let (a, b) = (self.operand(op, 0)?, self.operand(op, 1)?);
                let a = self.tv(a)?;
                let b = self.val(b)?;
                self.line(format!("%{r} = {inst} {pred} {a}, {b}"));
            }
            Select => {
                let r = self.result(op)?;
                let c = self.tv(self.operand(op, 0)?)?;
                let a = self.tv(self.operand(op, 1)?)?;
                let b = self.tv(self.operand(op, 2)?)?;
                self.line(format!("%{r} = select {c}, {a}, {b}"));
            }
            ExtSI | ExtUI | TruncI | SIToFP | UIToFP | Bitcast => {
                let r = self.result(op)?;
                let inst = match data.opcode {
                    ExtSI => "sext",
                    ExtUI => "zext",
                    TruncI => "trunc",
                    SIToFP => "sitofp",
                    UIToFP => "uitofp",
                    _ => "bitcast",
                };
                let a = self.tv(self.operand(op, 0)?)?;
                let to = ll_type(ir.value_type(data.results[0]))?;
                self.line(format!("%{r} = {inst} {a} to {to}"));
            }
            FPToSI | FPToUI => {
                // LANGUAGE.md: float to integer saturates (LLVM's fptosi would be poison).
                let r = self.result(op)?;
                let to = self.scalar_of(data.results[0])?;
                let s = if data.opcode == FPToSI { "s" } else { "u" };
                let a = self.tv(self.operand(op, 0)?)?;
                self.call(
                    Some(&r),
                    scalar_ty(to),
                    &format!("llvm.fpto{s}i.sat.{}.f32", mangle(to)),
                    &["float"],
                    &[a],
                    Attrs::Pure,
                    "",
                );
            }

            // ---- terminators ----
            Br => {
                let t = &data.succs[0];
                let l = format!("br label %{}", self.names.blocks[t.block]);
                self.line(l);
            }
            CondBr => {
                let c = self.tv(self.operand(op, 0)?)?;
                let t = self.names.blocks[data.succs[0].block].clone();
                let f = match self.split.get(&block) {
                    Some(l) => l.clone(),
                    None => self.names.blocks[data.succs[1].block].clone(),
                };
                self.line(format!("br {c}, label %{t}, label %{f}"));
            }
            Return => self.line("ret void"),

            If | Loop | Yield | Break | Continue | Var | Get | Set | Func | Module => {
                return Err(format!(
                    "`{}` is not in CF form (run lower-to-cf first)",
                    data.opcode.name()
                ))
            }
        }
        Ok(())
    }

    /// `kernel.mulhiu`: the high half of the 64-bit product of the zero-extended operands.
    pub(super) fn mulhiu(&mut self, op: Op) -> Result<(), String> {
        let r = self.result(op)?;
        let a = self.val(self.operand(op, 0)?)?;
        let b = self.val(self.operand(op, 1)?)?;
        let (xa, xb, p, h) = (
            self.fresh(format!("{r}.a")),
            self.fresh(format!("{r}.b")),
            self.fresh(format!("{r}.p")),
            self.fresh(format!("{r}.h")),
        );
        self.line(format!("%{xa} = zext i32 {a} to i64"));
        self.line(format!("%{xb} = zext i32 {b} to i64"));
        self.line(format!("%{p} = mul nuw i64 %{xa}, %{xb}"));
        self.line(format!("%{h} = lshr i64 %{p}, 32"));
        self.line(format!("%{r} = trunc i64 %{h} to i32"));
        Ok(())
    }

    pub(super) fn binary(&mut self, op: Op, inst: &str) -> Result<(), String> {
        let r = self.result(op)?;
        let a = self.tv(self.operand(op, 0)?)?;
        let b = self.val(self.operand(op, 1)?)?;
        self.line(format!("%{r} = {inst} {a}, {b}"));
        Ok(())
    }

    /// `shuffle(v, lane)`: `ds_bpermute_b32` reads `v` of the lane whose byte address is given
    /// (`lane * 4`); f32 goes through i32 bitcasts, i64 is permuted as two halves.
    pub(super) fn shuffle(&mut self, op: Op) -> Result<(), String> {
        let r = self.result(op)?;
        let b = self.bundle(op)?;
        let (v, lane) = (self.operand(op, 0)?, self.operand(op, 1)?);
        let s = self.scalar_of(v)?;
        let addr = self.fresh(format!("{r}.addr"));
        let lane = self.val(lane)?;
        self.line(format!("%{addr} = shl i32 {lane}, 2"));
        let vv = self.val(v)?;
        let permute = |e: &mut Self, name: &str, data: String| {
            e.call(
                Some(name),
                "i32",
                "llvm.amdgcn.ds.bpermute",
                &["i32", "i32"],
                &[format!("i32 %{addr}"), data],
                Attrs::CrossLane,
                &b,
            );
        };
        match s {
            Scalar::I32 => permute(self, &r, format!("i32 {vv}")),
            Scalar::F32 => {
                let bits = self.fresh(format!("{r}.bits"));
                let perm = self.fresh(format!("{r}.perm"));
                self.line(format!("%{bits} = bitcast float {vv} to i32"));
                permute(self, &perm, format!("i32 %{bits}"));
                self.line(format!("%{r} = bitcast i32 %{perm} to float"));
            }
            Scalar::I64 => {
                let lo = self.fresh(format!("{r}.lo"));
                let hi64 = self.fresh(format!("{r}.hi64"));
                let hi = self.fresh(format!("{r}.hi"));
                self.line(format!("%{lo} = trunc i64 {vv} to i32"));
                self.line(format!("%{hi64} = lshr i64 {vv}, 32"));
                self.line(format!("%{hi} = trunc i64 %{hi64} to i32"));
                let plo = self.fresh(format!("{r}.perm.lo"));
                let phi = self.fresh(format!("{r}.perm.hi"));
                permute(self, &plo, format!("i32 %{lo}"));
                permute(self, &phi, format!("i32 %{hi}"));
                let zlo = self.fresh(format!("{r}.zext.lo"));
                let zhi = self.fresh(format!("{r}.zext.hi"));
                let shl = self.fresh(format!("{r}.shl.hi"));
                self.line(format!("%{zlo} = zext i32 %{plo} to i64"));
                self.line(format!("%{zhi} = zext i32 %{phi} to i64"));
                self.line(format!("%{shl} = shl i64 %{zhi}, 32"));
                self.line(format!("%{r} = or i64 %{shl}, %{zlo}"));
            }
            Scalar::I1 => return Err("`kernel.shuffle` of i1 is not supported".into()),
        }
        Ok(())
    }
}

/// The literal of an `arith.constant`.
pub(super) fn constant_literal(ir: &Ir, op: Op) -> Result<String, String> {
    let ty = ir.ops[op].results.first().map(|&r| ir.value_type(r));
    match (ir.attr(op, "value"), ty) {
        (Some(Attr::Int(v, _)), Some(Type::I1)) => Ok((*v != 0).to_string()),
        (Some(Attr::Bool(b)), Some(Type::I1)) => Ok(b.to_string()),
        (Some(Attr::Int(v, _)), Some(Type::I32)) => Ok((*v as i32).to_string()),
        (Some(Attr::Int(v, _)), Some(Type::I64)) => Ok(v.to_string()),
        (Some(Attr::Float(f)), Some(Type::F32)) => Ok(float_literal(*f)),
        _ => Err("`arith.constant` with a value that does not match its type".into()),
    }
}
