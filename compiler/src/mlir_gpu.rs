//! Translation of CF-form kernels to upstream MLIR: `gpu` + `arith` + `cf` + `memref`
//! (`kc --emit=mlir-gpu`), so kc's front end can feed MLIR's own GPU pipelines.
//!
//! **Pre-condition**: `ir` is in CFG form (what `--emit=cf-ir` and `--emit=opt` print, the
//! post-condition of `transforms::lower_to_cf`): every block ends in `cf.br`, `cf.cond_br` or
//! `kernel.return`, no structured op or `!kernel.var` value remains, the IR verifies. Other
//! input (structured ops, an atomic kind the element type does not support, a pointer made by
//! an op that only kc knows) gives `Err` with a message naming the kernel.
//!
//! **Post-condition**: `Ok(text)` is one module with `gpu.container_module` holding
//! `gpu.module @kc`, one `gpu.func ... kernel` per kernel, that `mlir-opt-22` parses and
//! verifies with no unregistered dialect. Values and blocks keep kc's printed names (`%tid`,
//! `^loop.header`); the values the translation adds are named after the kc value they serve
//! plus a suffix (`%tid.index`, `%gid.idx`). Source locations are printed as MLIR
//! `loc("file":line:col)` unless the caller turns them off; a kernel parameter's is a name
//! location, `loc("out"("file":line:col))`, so the import finds its name again.
//!
//! # Translation
//!
//! - A pointer is a rank-1 `memref` of its element type in address space 1 (global) or 3
//!   (workgroup), with a dynamic size, plus an `index` offset: `kernel.ptr_offset` moves the
//!   offset and never the memref, so `memref.load %p[%off + %i]` reads what `kernel.load`
//!   reads. A pointer block argument becomes two (`%p`, `%p.off`); a pointer `arith.select`
//!   becomes two selects. Kernel parameters and allocations start at offset 0 (no op).
//! - `kernel.shared_alloc N` is a workgroup attribution `memref<NxT, 3>` of the `gpu.func`,
//!   cast to the dynamic `memref<?xT, 3>` where the allocation stood.
//! - Indices: `i32`/`i64` indices are `arith.index_cast` (signed, as kc indexes), an `i1`
//!   index `arith.index_castui`.
//! - Thread geometry: `gpu.thread_id`, `gpu.block_id`, `gpu.block_dim`, `gpu.grid_dim`,
//!   `gpu.lane_id` (all `index`, cast to kc's `i32`); `kernel.wave_size` is the constant 64
//!   (gfx942 runs wave64, as kc's own backend folds it).
//! - Memory: `memref.load`/`memref.store`; `kernel.atomic` is `memref.atomic_rmw` (`addi`,
//!   `mins`, `maxs`, `minu`, `maxu`, `assign` for `xchg`, `addf`); `kernel.atomic_cmpxchg` is
//!   `memref.generic_atomic_rmw` whose body selects the new value when the current one
//!   equals the expected one, and returns the old value like kc's op.
//! - Orderings and scopes: memref's atomics have none (MLIR lowers `atomic_rmw` to an
//!   `atomicrmw ... acq_rel` at system scope and `generic_atomic_rmw` to a cmpxchg loop), and
//!   memref has no atomic load or store. So an op's ordering becomes `llvm.fence`s at its
//!   scope around the memref op: a releasing op gets `llvm.fence syncscope("S") release`
//!   before it, an acquiring one `... acquire` after it (`seq_cst` ones a `seq_cst` fence on
//!   each side), and `kernel.fence` is one `llvm.fence`. `kernel.atomic_load` and
//!   `kernel.atomic_store` become plain `memref.load` / `memref.store`: what is dropped is
//!   their atomicity as MLIR sees it (one aligned element, a single access on AMDGPU) and,
//!   for relaxed ones, the per-location coherence MLIR may then optimize away (two relaxed
//!   loads of one element may be merged).
//! - Cross-lane: `gpu.barrier`; `gpu.shuffle idx` with width 64 for `kernel.shuffle`;
//!   `gpu.subgroup_reduce` (`add`, `minsi`, `maxsi`, `minui`, `maxui`, `add` on f32,
//!   `minnumf`, `maxnumf`: NaN-ignoring, like kc's `fmin`/`fmax`); `gpu.subgroup_broadcast`
//!   `first_active_lane` / `specific_lane` for `readfirstlane` / `readlane`; `rocdl.ballot`
//!   for `kernel.ballot` (upstream `gpu` has no ballot).
//! - `kernel.mulhiu` is the high result of `arith.mului_extended`.
//! - Convergence tokens (`conv.*` and the token operands of convergent ops) are dropped:
//!   upstream MLIR has no convergence control, its `gpu` ops are convergent by definition.
//! - `kernel.return` is `gpu.return`; `arith` and `cf` keep their ops.

use cranelift_entity::SecondaryMap;
use kc_dialect::analysis::cfg::RegionCfg;
use kc_dialect::attrs::Attr;
use kc_dialect::entities::{Block, Op, Value};
use kc_dialect::location::Loc;
use kc_dialect::mlir_float::format_f32;
use kc_dialect::registry::{Opcode, CMPF_PREDICATES, CMPI_PREDICATES};
use kc_dialect::sync::Ordering;
use kc_dialect::text;
use kc_dialect::types::{AddrSpace, Scalar, Type};
use kc_dialect::Ir;
use std::collections::HashSet;
use std::fmt::Write;

/// Why [`emit_mlir_gpu`] gives no module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EmitError {
    /// An op that checked source may hold but upstream MLIR cannot express, at its location:
    /// the user's program is fine for kc and cannot be written in the target. `kernel.scan`
    /// (`scan_*`) is the one: the `gpu` dialect has no subgroup scan, and one built from
    /// shuffles would read inactive lanes, whose values kc's scan skips.
    Untranslatable { loc: Loc, message: String },
    /// Input outside the pre-condition (e.g. IR not in CF form), naming the kernel.
    Invalid(String),
}

/// Translates every kernel of `ir` (CF form) to one upstream MLIR module; see the module docs.
/// `locations`: print `loc(...)` after each op.
pub fn emit_mlir_gpu(ir: &Ir, locations: bool) -> Result<String, EmitError> {
    let mut out = String::from("module attributes {gpu.container_module} {\n  gpu.module @kc {\n");
    let mut seen = HashSet::new();
    for f in ir.kernels() {
        let name = ir.func_name(f).to_string();
        if !seen.insert(name.clone()) {
            return Err(EmitError::Invalid(format!("two kernels are named @{name}")));
        }
        if let Some(scan) = ir.descendants(f).find(|&o| ir.opcode(o) == Opcode::Scan) {
            let kind = ir.attr(scan, "kind").and_then(Attr::as_str).unwrap_or("?");
            // The `.k` builtin: the element type picks the signed, unsigned or float kind.
            let builtin = kind.trim_start_matches(['u', 'f']);
            return Err(EmitError::Untranslatable {
                loc: ir.ops[scan].loc,
                message: format!(
                    "`scan_{builtin}` (`kernel.scan {kind}`) has no upstream MLIR translation: \
                     the gpu dialect has no subgroup scan (kc's scan combines the active lanes \
                     only)"
                ),
            });
        }
        let text = Kernel::new(ir, f, locations)
            .run()
            .map_err(|e| EmitError::Invalid(format!("kernel @{name}: {e}")))?;
        out.push_str(&text);
    }
    out.push_str("  }\n}\n");
    Ok(out)
}

/// How a kc value appears in the output.
#[derive(Clone, Default)]
enum Repr {
    /// Not translated (tokens, constants folded nowhere: every value gets one of the others).
    #[default]
    None,
    /// One SSA value of the same meaning.
    Scalar(String),
    /// A pointer: a memref and an `index` offset (`None`: 0).
    Ptr {
        memref: String,
        offset: Option<String>,
    },
}

struct Kernel<'a> {
    ir: &'a Ir,
    func: Op,
    locations: bool,
    names: text::Names,
    used: HashSet<String>,
    repr: SecondaryMap<Value, Repr>,
    /// `%name = arith.constant 0 : index`, made on first need (pointer block arguments).
    zero: Option<String>,
    /// Workgroup attributions of the `gpu.func`: `%name : memref<NxT, 3>`.
    workgroup: Vec<String>,
    body: String,
}

fn scalar(s: Scalar) -> &'static str {
    s.name()
}

fn space(a: AddrSpace) -> u32 {
    match a {
        AddrSpace::Global => 1,
        AddrSpace::Shared => 3,
    }
}

/// The dynamic memref type of a kc pointer to `elem` in `a`.
fn memref(a: AddrSpace, elem: Scalar) -> String {
    format!("memref<?x{}, {}>", scalar(elem), space(a))
}

impl<'a> Kernel<'a> {
    fn new(ir: &'a Ir, func: Op, locations: bool) -> Self {
        let names = text::names(ir, func);
        let mut used = HashSet::new();
        for event in ir.events(func) {
            match event {
                kc_dialect::ir::Event::Block(b) => {
                    used.insert(names.blocks[b].clone());
                    for &a in &ir.blocks[b].args {
                        used.insert(names.values[a].clone());
                    }
                }
                kc_dialect::ir::Event::Op(o) => {
                    for &r in &ir.ops[o].results {
                        used.insert(names.values[r].clone());
                    }
                }
                _ => {}
            }
        }
        Kernel {
            ir,
            func,
            locations,
            names,
            used,
            repr: SecondaryMap::new(),
            zero: None,
            workgroup: Vec::new(),
            body: String::new(),
        }
    }

    /// `base` if no value is called that yet, else `base.1`, `base.2`, ... A name made from
    /// a numbered one gets a `_` in front: MLIR reads `%0.idx` as `%0` and garbage.
    fn fresh(&mut self, base: &str) -> String {
        let base = if base.starts_with(|c: char| c.is_ascii_digit()) {
            format!("_{base}")
        } else {
            base.to_string()
        };
        let base = base.as_str();
        let mut cand = base.to_string();
        let mut i = 1;
        while !self.used.insert(cand.clone()) {
            cand = format!("{base}.{i}");
            i += 1;
        }
        cand
    }

    fn name(&self, v: Value) -> &str {
        &self.names.values[v]
    }

    /// ` loc("file":line:col)`, or nothing (locations off or unknown).
    fn loc(&self, loc: Loc) -> String {
        self.file_loc(loc)
            .map_or(String::new(), |l| format!(" loc({l})"))
    }

    /// `"file":line:col` when locations are printed and `loc` is known.
    fn file_loc(&self, loc: Loc) -> Option<String> {
        (self.locations && loc.is_known()).then(|| {
            format!(
                "{}:{}:{}",
                kc_dialect::attrs::quote(self.ir.file_name(loc.file)),
                loc.line,
                loc.col
            )
        })
    }

    fn line(&mut self, text: &str, loc: Loc) {
        let l = self.loc(loc);
        let _ = writeln!(self.body, "      {text}{l}");
    }

    fn scalar_of(&self, v: Value) -> Result<String, String> {
        match &self.repr[v] {
            Repr::Scalar(s) => Ok(format!("%{s}")),
            _ => Err(format!("value %{} is not a scalar here", self.name(v))),
        }
    }

    fn ptr_of(&self, v: Value) -> Result<(String, Option<String>), String> {
        match &self.repr[v] {
            Repr::Ptr { memref, offset } => Ok((memref.clone(), offset.clone())),
            _ => Err(format!("value %{} is not a pointer here", self.name(v))),
        }
    }

    fn ty(&self, v: Value) -> Type {
        self.ir.value_type(v)
    }

    fn scalar_ty(&self, v: Value) -> Result<Scalar, String> {
        self.ty(v)
            .scalar()
            .ok_or_else(|| format!("value %{} is not a scalar", self.name(v)))
    }

    /// The `index` of kc integer `i`, named after `base`.
    fn index(&mut self, i: Value, base: &str, loc: Loc) -> Result<String, String> {
        let s = self.scalar_of(i)?;
        let ty = self.scalar_ty(i)?;
        let cast = if ty == Scalar::I1 {
            "arith.index_castui"
        } else {
            "arith.index_cast"
        };
        let r = self.fresh(&format!("{base}.idx"));
        self.line(&format!("%{r} = {cast} {s} : {} to index", scalar(ty)), loc);
        Ok(r)
    }

    /// The memref and the `index` that address element `i` of pointer `p`.
    fn address(
        &mut self,
        p: Value,
        i: Value,
        base: &str,
        loc: Loc,
    ) -> Result<(String, String), String> {
        let (m, off) = self.ptr_of(p)?;
        let idx = self.index(i, base, loc)?;
        let Some(off) = off else {
            return Ok((m, idx));
        };
        let r = self.fresh(&format!("{base}.addr"));
        self.line(&format!("%{r} = arith.addi %{off}, %{idx} : index"), loc);
        Ok((m, r))
    }

    /// The memref and `index` of the element pointer `p` points at (its offset, or a zero
    /// named after `base`).
    fn element_of(&mut self, p: Value, base: &str, loc: Loc) -> Result<(String, String), String> {
        let (m, off) = self.ptr_of(p)?;
        if let Some(o) = off {
            return Ok((m, o));
        }
        let z = self.fresh(&format!("{base}.idx"));
        self.line(&format!("%{z} = arith.constant 0 : index"), loc);
        Ok((m, z))
    }

    /// Defines kc result `v` of type `i32` from an `index` query `query` (`gpu.thread_id x`).
    fn index_query(&mut self, v: Value, query: &str, loc: Loc) {
        let name = self.name(v).to_string();
        let raw = self.fresh(&format!("{name}.index"));
        self.line(&format!("%{raw} = {query}"), loc);
        self.line(
            &format!("%{name} = arith.index_cast %{raw} : index to i32"),
            loc,
        );
        self.repr[v] = Repr::Scalar(name);
    }

    fn run(mut self) -> Result<String, String> {
        let ir = self.ir;
        let region = ir.ops[self.func].regions[0];
        let entry = ir
            .entry_block(region)
            .ok_or("the kernel has no entry block")?;
        // Every value gets its representation up front, so a use in an earlier block than its
        // definition (in layout order) still finds it.
        for event in ir.events(self.func) {
            match event {
                kc_dialect::ir::Event::Block(b) => {
                    for &a in &ir.blocks[b].args {
                        self.define(a);
                    }
                }
                kc_dialect::ir::Event::Op(o) if o != self.func => {
                    if !ir.ops[o].regions.is_empty() {
                        return Err(format!(
                            "`{}` is structured control flow (run lower-to-cf first)",
                            ir.spec(o).name
                        ));
                    }
                    for &r in &ir.ops[o].results {
                        self.define(r);
                    }
                }
                _ => {}
            }
        }
        let mut params = Vec::new();
        for &a in &ir.blocks[entry].args {
            // A parameter's location carries its name (`loc("out"("x.k":1:10))`): MLIR keeps
            // no SSA names, and the import names buffers from it.
            let v = &ir.values[a];
            let l = match (&v.name, self.file_loc(v.loc)) {
                (Some(n), Some(l)) => format!(" loc({}({l}))", kc_dialect::attrs::quote(n)),
                (_, l) => l.map_or(String::new(), |l| format!(" loc({l})")),
            };
            params.push(match self.ty(a) {
                Type::Ptr(sp, e) => format!("%{}: {}{l}", self.name(a), memref(sp, e)),
                Type::Scalar(s) => format!("%{}: {}{l}", self.name(a), scalar(s)),
                t => return Err(format!("kernel parameter of type {t}")),
            });
        }
        let needs_zero = ir.region_blocks(region).skip(1).any(|b| {
            ir.blocks[b]
                .args
                .iter()
                .any(|&a| matches!(ir.value_type(a), Type::Ptr(..)))
        });
        // Blocks are translated in reverse post-order, so a pointer's memref and offset are
        // known before any use (definitions dominate uses), and printed in kc's layout order.
        let cfg = RegionCfg::compute(ir, region);
        let mut order: Vec<Block> = cfg
            .postorder()
            .into_iter()
            .rev()
            .map(|n| cfg.blocks[n as usize])
            .collect();
        let reached: HashSet<Block> = order.iter().copied().collect();
        order.extend(ir.region_blocks(region).filter(|b| !reached.contains(b)));
        let mut texts: SecondaryMap<Block, String> = SecondaryMap::new();
        for b in order {
            self.body.clear();
            if b == entry && needs_zero {
                let z = self.fresh("zero.index");
                self.line(&format!("%{z} = arith.constant 0 : index"), Loc::UNKNOWN);
                self.zero = Some(z);
            }
            for op in ir.block_ops(b) {
                self.op(op)?;
            }
            texts[b] = std::mem::take(&mut self.body);
        }
        for b in ir.region_blocks(region) {
            if b != entry {
                let args: Vec<String> = ir.blocks[b]
                    .args
                    .iter()
                    .map(|&a| self.block_arg(a))
                    .collect::<Result<_, _>>()?;
                let label = &self.names.blocks[b];
                if args.is_empty() {
                    let _ = writeln!(self.body, "    ^{label}:");
                } else {
                    let _ = writeln!(self.body, "    ^{label}({}):", args.join(", "));
                }
            }
            let t = std::mem::take(&mut texts[b]);
            self.body.push_str(&t);
        }
        let name = ir.func_name(self.func);
        let mut out = String::new();
        let _ = write!(out, "    gpu.func @{name}({})", params.join(", "));
        if !self.workgroup.is_empty() {
            let _ = write!(out, " workgroup({})", self.workgroup.join(", "));
        }
        let l = self.loc(ir.ops[self.func].loc);
        let _ = writeln!(out, " kernel {{");
        out.push_str(&self.body);
        let _ = writeln!(out, "    }}{l}");
        Ok(out)
    }

    /// Chooses the output name(s) of kc value `v` (its definition is printed later).
    fn define(&mut self, v: Value) {
        let name = self.name(v).to_string();
        self.repr[v] = match self.ty(v) {
            Type::Token | Type::Var(_) => Repr::None,
            Type::Scalar(_) => Repr::Scalar(name),
            Type::Ptr(..) => {
                // Block arguments carry their offset in a second argument; op results get
                // theirs when the op is translated.
                let offset = match self.ir.values[v].def {
                    kc_dialect::ir::ValueDef::BlockArg(b, _)
                        if Some(b) != self.ir.entry_block(self.ir.block_region(b).unwrap()) =>
                    {
                        Some(self.fresh(&format!("{name}.off")))
                    }
                    _ => None,
                };
                Repr::Ptr {
                    memref: name,
                    offset,
                }
            }
        };
    }

    fn block_arg(&self, a: Value) -> Result<String, String> {
        let l = self.loc(self.ir.values[a].loc);
        Ok(match (self.ty(a), &self.repr[a]) {
            (Type::Scalar(s), Repr::Scalar(n)) => format!("%{n}: {}{l}", scalar(s)),
            (Type::Ptr(sp, e), Repr::Ptr { memref: m, offset }) => {
                let off = offset.as_deref().unwrap_or("");
                format!("%{m}: {}{l}, %{off}: index{l}", memref(sp, e))
            }
            (t, _) => return Err(format!("block argument of type {t}")),
        })
    }

    /// Operands and types that pass `args` to a successor's block arguments.
    fn successor(&self, block: Block, args: &[Value]) -> Result<String, String> {
        let label = &self.names.blocks[block];
        if args.is_empty() {
            return Ok(format!("^{label}"));
        }
        let mut vals = Vec::new();
        let mut tys = Vec::new();
        for &a in args {
            match (self.ty(a), &self.repr[a]) {
                (Type::Scalar(s), Repr::Scalar(n)) => {
                    vals.push(format!("%{n}"));
                    tys.push(scalar(s).to_string());
                }
                (Type::Ptr(sp, e), Repr::Ptr { memref: m, offset }) => {
                    let off = offset
                        .as_ref()
                        .or(self.zero.as_ref())
                        .ok_or("a pointer crosses a branch without an offset")?;
                    vals.push(format!("%{m}"));
                    vals.push(format!("%{off}"));
                    tys.push(memref(sp, e));
                    tys.push("index".into());
                }
                (t, _) => return Err(format!("branch argument of type {t}")),
            }
        }
        Ok(format!(
            "^{label}({} : {})",
            vals.join(", "),
            tys.join(", ")
        ))
    }

    fn str_attr(&self, op: Op, name: &str) -> Result<String, String> {
        self.ir
            .attr(op, name)
            .and_then(Attr::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("`{}` needs `{name}`", self.ir.spec(op).name))
    }

    /// One op; a synchronizing op between the `llvm.fence`s that carry its ordering.
    fn op(&mut self, op: Op) -> Result<(), String> {
        let Some(s) = kc_dialect::sync::of(self.ir, op) else {
            return self.plain_op(op);
        };
        let loc = self.ir.ops[op].loc;
        let fence = |o: Ordering| format!("llvm.fence{} {}", s.scope.llvm_syncscope(), o.llvm());
        let code = self.ir.opcode(op);
        if code == Opcode::Fence {
            self.line(&fence(s.ordering), loc);
            return Ok(());
        }
        let seq_cst = s.ordering == Ordering::SeqCst;
        if s.ordering.releases() {
            let o = if seq_cst {
                s.ordering
            } else {
                Ordering::Release
            };
            self.line(&fence(o), loc);
        }
        self.plain_op(op)?;
        if s.ordering.acquires() {
            let o = if seq_cst {
                s.ordering
            } else {
                Ordering::Acquire
            };
            self.line(&fence(o), loc);
        }
        Ok(())
    }

    fn plain_op(&mut self, op: Op) -> Result<(), String> {
        let ir = self.ir;
        let data = &ir.ops[op];
        let loc = data.loc;
        let operand = |i: usize| -> Result<Value, String> {
            data.operands
                .get(i)
                .copied()
                .ok_or_else(|| format!("`{}` is missing operand {i}", ir.spec(op).name))
        };
        let result = || -> Result<Value, String> {
            data.results
                .first()
                .copied()
                .ok_or_else(|| format!("`{}` has no result", ir.spec(op).name))
        };
        use Opcode::*;
        let binary = |o: Opcode| -> Option<&'static str> {
            Some(match o {
                AddI => "arith.addi",
                SubI => "arith.subi",
                MulI => "arith.muli",
                DivSI => "arith.divsi",
                DivUI => "arith.divui",
                RemSI => "arith.remsi",
                RemUI => "arith.remui",
                AndI => "arith.andi",
                OrI => "arith.ori",
                XOrI => "arith.xori",
                ShLI => "arith.shli",
                ShRSI => "arith.shrsi",
                ShRUI => "arith.shrui",
                MinSI => "arith.minsi",
                MaxSI => "arith.maxsi",
                MinUI => "arith.minui",
                MaxUI => "arith.maxui",
                AddF => "arith.addf",
                SubF => "arith.subf",
                MulF => "arith.mulf",
                DivF => "arith.divf",
                RemF => "arith.remf",
                MinimumF => "arith.minimumf",
                MaximumF => "arith.maximumf",
                _ => return None,
            })
        };
        let cast = |o: Opcode| -> Option<&'static str> {
            Some(match o {
                ExtSI => "arith.extsi",
                ExtUI => "arith.extui",
                TruncI => "arith.trunci",
                SIToFP => "arith.sitofp",
                UIToFP => "arith.uitofp",
                FPToSI => "arith.fptosi",
                FPToUI => "arith.fptoui",
                Bitcast => "arith.bitcast",
                _ => return None,
            })
        };
        let opcode = data.opcode;
        if let Some(name) = binary(opcode) {
            let r = result()?;
            let (a, b) = (self.scalar_of(operand(0)?)?, self.scalar_of(operand(1)?)?);
            let t = scalar(self.scalar_ty(r)?);
            let rn = self.scalar_of(r)?;
            self.line(&format!("{rn} = {name} {a}, {b} : {t}"), loc);
            return Ok(());
        }
        if let Some(name) = cast(opcode) {
            let r = result()?;
            let x = operand(0)?;
            let (from, to) = (scalar(self.scalar_ty(x)?), scalar(self.scalar_ty(r)?));
            let (xn, rn) = (self.scalar_of(x)?, self.scalar_of(r)?);
            self.line(&format!("{rn} = {name} {xn} : {from} to {to}"), loc);
            return Ok(());
        }
        match opcode {
            ConvEntry | ConvAnchor | ConvLoop => {}
            Constant => {
                let r = result()?;
                let rn = self.scalar_of(r)?;
                let lit = match (ir.attr(op, "value"), self.scalar_ty(r)?) {
                    (Some(Attr::Bool(b)), Scalar::I1) => b.to_string(),
                    (Some(Attr::Int(v, _)), Scalar::I1) => (*v != 0).to_string(),
                    (Some(Attr::Int(v, _)), s) if s != Scalar::F32 => format!("{v} : {s}"),
                    (Some(Attr::Float(f)), Scalar::F32) => format!("{} : f32", format_f32(*f)),
                    (a, s) => return Err(format!("constant {a:?} of type {s}")),
                };
                self.line(&format!("{rn} = arith.constant {lit}"), loc);
            }
            WaveSize => {
                let rn = self.scalar_of(result()?)?;
                self.line(&format!("{rn} = arith.constant 64 : i32"), loc);
            }
            NegF => {
                let r = result()?;
                let (x, rn) = (self.scalar_of(operand(0)?)?, self.scalar_of(r)?);
                self.line(&format!("{rn} = arith.negf {x} : f32"), loc);
            }
            CmpI | CmpF => {
                let r = result()?;
                let (a, b) = (operand(0)?, operand(1)?);
                let preds = if opcode == CmpI {
                    CMPI_PREDICATES
                } else {
                    CMPF_PREDICATES
                };
                let p = ir
                    .attr(op, "predicate")
                    .and_then(Attr::as_int)
                    .and_then(|i| preds.get(i as usize))
                    .ok_or("a compare needs a valid `predicate`")?;
                let t = scalar(self.scalar_ty(a)?);
                let name = if opcode == CmpI {
                    "arith.cmpi"
                } else {
                    "arith.cmpf"
                };
                let (an, bn, rn) = (self.scalar_of(a)?, self.scalar_of(b)?, self.scalar_of(r)?);
                self.line(&format!("{rn} = {name} {p}, {an}, {bn} : {t}"), loc);
            }
            Select => {
                let r = result()?;
                let c = self.scalar_of(operand(0)?)?;
                let (a, b) = (operand(1)?, operand(2)?);
                match self.ty(r) {
                    Type::Ptr(sp, e) => {
                        let (am, ao) = self.ptr_of(a)?;
                        let (bm, bo) = self.ptr_of(b)?;
                        let (Repr::Ptr { memref: rm, .. }, true) = (self.repr[r].clone(), true)
                        else {
                            return Err("select of pointers".into());
                        };
                        let mt = memref(sp, e);
                        self.line(
                            &format!("%{rm} = arith.select {c}, %{am}, %{bm} : {mt}"),
                            loc,
                        );
                        let offset = if ao.is_none() && bo.is_none() {
                            None
                        } else {
                            let zero = |s: &mut Self| -> String {
                                let z = s.fresh(&format!("{rm}.zero"));
                                s.line(&format!("%{z} = arith.constant 0 : index"), loc);
                                z
                            };
                            let ao = match ao {
                                Some(o) => o,
                                None => zero(self),
                            };
                            let bo = match bo {
                                Some(o) => o,
                                None => zero(self),
                            };
                            let ro = self.fresh(&format!("{rm}.off"));
                            self.line(
                                &format!("%{ro} = arith.select {c}, %{ao}, %{bo} : index"),
                                loc,
                            );
                            Some(ro)
                        };
                        self.repr[r] = Repr::Ptr { memref: rm, offset };
                    }
                    _ => {
                        let t = scalar(self.scalar_ty(r)?);
                        let (an, bn, rn) =
                            (self.scalar_of(a)?, self.scalar_of(b)?, self.scalar_of(r)?);
                        self.line(&format!("{rn} = arith.select {c}, {an}, {bn} : {t}"), loc);
                    }
                }
            }
            MulHiU => {
                let r = result()?;
                let (a, b) = (self.scalar_of(operand(0)?)?, self.scalar_of(operand(1)?)?);
                let t = scalar(self.scalar_ty(r)?);
                let rn = self.scalar_of(r)?;
                let lo = self.fresh(&format!("{}.lo", &rn[1..]));
                self.line(
                    &format!("%{lo}, {rn} = arith.mului_extended {a}, {b} : {t}"),
                    loc,
                );
            }

            // ---- thread geometry ----
            WorkitemId | WorkgroupId | WorkgroupSize | NumWorkgroups => {
                let d = self.str_attr(op, "dim")?;
                let q = match opcode {
                    WorkitemId => "gpu.thread_id",
                    WorkgroupId => "gpu.block_id",
                    WorkgroupSize => "gpu.block_dim",
                    _ => "gpu.grid_dim",
                };
                self.index_query(result()?, &format!("{q} {d}"), loc);
            }
            LaneId => self.index_query(result()?, "gpu.lane_id", loc),

            // ---- memory ----
            SharedAlloc => {
                let r = result()?;
                let Type::Ptr(AddrSpace::Shared, e) = self.ty(r) else {
                    return Err("`kernel.shared_alloc` must return a shared pointer".into());
                };
                let n = ir
                    .attr(op, "size")
                    .and_then(Attr::as_int)
                    .filter(|&n| n > 0)
                    .ok_or("`kernel.shared_alloc` needs a positive `size`")?;
                let (m, _) = self.ptr_of(r)?;
                let wg = self.fresh(&format!("{m}.workgroup"));
                let fixed = format!("memref<{n}x{}, 3>", scalar(e));
                self.workgroup.push(format!("%{wg} : {fixed}"));
                let dynamic = memref(AddrSpace::Shared, e);
                self.line(
                    &format!("%{m} = memref.cast %{wg} : {fixed} to {dynamic}"),
                    loc,
                );
            }
            PtrOffset => {
                let r = result()?;
                let (p, i) = (operand(0)?, operand(1)?);
                let (m, off) = self.ptr_of(p)?;
                let Repr::Ptr { memref: rm, .. } = self.repr[r].clone() else {
                    return Err("`kernel.ptr_offset` must return a pointer".into());
                };
                let idx = self.index(i, &rm, loc)?;
                let offset = match off {
                    None => idx,
                    Some(off) => {
                        let s = self.fresh(&format!("{rm}.off"));
                        self.line(&format!("%{s} = arith.addi %{off}, %{idx} : index"), loc);
                        s
                    }
                };
                // The memref is the operand's: no op, the result is another name for it.
                self.repr[r] = Repr::Ptr {
                    memref: m,
                    offset: Some(offset),
                };
            }
            Load => {
                let r = result()?;
                let (p, i) = (operand(0)?, operand(1)?);
                let Type::Ptr(sp, e) = self.ty(p) else {
                    return Err("`kernel.load` from a non-pointer".into());
                };
                let rn = self.scalar_of(r)?;
                let (m, a) = self.address(p, i, &rn[1..], loc)?;
                let mt = memref(sp, e);
                self.line(&format!("{rn} = memref.load %{m}[%{a}] : {mt}"), loc);
            }
            Store => {
                let (v, p, i) = (operand(0)?, operand(1)?, operand(2)?);
                let Type::Ptr(sp, e) = self.ty(p) else {
                    return Err("`kernel.store` to a non-pointer".into());
                };
                let vn = self.scalar_of(v)?;
                let base = self.name(p).to_string();
                let (m, a) = self.address(p, i, &base, loc)?;
                let mt = memref(sp, e);
                self.line(&format!("memref.store {vn}, %{m}[%{a}] : {mt}"), loc);
            }
            Atomic => {
                let r = result()?;
                let (p, v) = (operand(0)?, operand(1)?);
                let Type::Ptr(sp, e) = self.ty(p) else {
                    return Err("`kernel.atomic` on a non-pointer".into());
                };
                let kind = self.str_attr(op, "kind")?;
                let int = matches!(e, Scalar::I32 | Scalar::I64);
                let k = match (kind.as_str(), int, e) {
                    ("add", true, _) => "addi",
                    ("min", true, _) => "mins",
                    ("max", true, _) => "maxs",
                    ("umin", true, _) => "minu",
                    ("umax", true, _) => "maxu",
                    ("xchg", _, e) if e != Scalar::I1 => "assign",
                    ("fadd", _, Scalar::F32) => "addf",
                    _ => return Err(format!("`kernel.atomic {kind}` on {e} is not supported")),
                };
                let (vn, rn) = (self.scalar_of(v)?, self.scalar_of(r)?);
                let (m, a) = self.element_of(p, &rn[1..], loc)?;
                let mt = memref(sp, e);
                let t = scalar(e);
                self.line(
                    &format!("{rn} = memref.atomic_rmw {k} {vn}, %{m}[%{a}] : ({t}, {mt}) -> {t}"),
                    loc,
                );
            }
            AtomicLoad => {
                let r = result()?;
                let p = operand(0)?;
                let Type::Ptr(sp, e) = self.ty(p) else {
                    return Err("`kernel.atomic_load` from a non-pointer".into());
                };
                let rn = self.scalar_of(r)?;
                let (m, a) = self.element_of(p, &rn[1..], loc)?;
                let mt = memref(sp, e);
                self.line(&format!("{rn} = memref.load %{m}[%{a}] : {mt}"), loc);
            }
            AtomicStore => {
                let (v, p) = (operand(0)?, operand(1)?);
                let Type::Ptr(sp, e) = self.ty(p) else {
                    return Err("`kernel.atomic_store` to a non-pointer".into());
                };
                let vn = self.scalar_of(v)?;
                let base = self.name(p).to_string();
                let (m, a) = self.element_of(p, &base, loc)?;
                let mt = memref(sp, e);
                self.line(&format!("memref.store {vn}, %{m}[%{a}] : {mt}"), loc);
            }
            AtomicCmpxchg => {
                let r = result()?;
                let (p, c, n) = (operand(0)?, operand(1)?, operand(2)?);
                let Type::Ptr(sp, e) = self.ty(p) else {
                    return Err("`kernel.atomic_cmpxchg` on a non-pointer".into());
                };
                if !matches!(e, Scalar::I32 | Scalar::I64) {
                    return Err(format!(
                        "`kernel.atomic_cmpxchg` on {e} is not supported (integers only)"
                    ));
                }
                let (cn, nn, rn) = (self.scalar_of(c)?, self.scalar_of(n)?, self.scalar_of(r)?);
                let (m, a) = self.element_of(p, &rn[1..], loc)?;
                let cur = self.fresh(&format!("{}.current", &rn[1..]));
                let eq = self.fresh(&format!("{}.equal", &rn[1..]));
                let new = self.fresh(&format!("{}.new", &rn[1..]));
                let (mt, t) = (memref(sp, e), scalar(e));
                let l = self.loc(loc);
                let _ = write!(
                    self.body,
                    "      {rn} = memref.generic_atomic_rmw %{m}[%{a}] : {mt} {{\n      \
                     ^bb0(%{cur}: {t}):\n        \
                     %{eq} = arith.cmpi eq, %{cur}, {cn} : {t}{l}\n        \
                     %{new} = arith.select %{eq}, {nn}, %{cur} : {t}{l}\n        \
                     memref.atomic_yield %{new} : {t}{l}\n      }}{l}\n"
                );
            }

            // ---- convergent and cross-lane ----
            Barrier => self.line("gpu.barrier", loc),
            Ballot => {
                let (c, rn) = (self.scalar_of(operand(0)?)?, self.scalar_of(result()?)?);
                self.line(&format!("{rn} = rocdl.ballot {c} : i64"), loc);
            }
            ReadFirstLane | ReadLane => {
                let r = result()?;
                let (v, rn) = (self.scalar_of(operand(0)?)?, self.scalar_of(r)?);
                let t = scalar(self.scalar_ty(r)?);
                let how = if opcode == ReadLane {
                    format!("specific_lane {}", self.scalar_of(operand(1)?)?)
                } else {
                    "first_active_lane".into()
                };
                self.line(
                    &format!("{rn} = gpu.subgroup_broadcast {v}, {how} : {t}"),
                    loc,
                );
            }
            Shuffle => {
                let r = result()?;
                let (v, lane) = (self.scalar_of(operand(0)?)?, self.scalar_of(operand(1)?)?);
                let rn = self.scalar_of(r)?;
                let t = scalar(self.scalar_ty(r)?);
                let width = self.fresh(&format!("{}.width", &rn[1..]));
                let valid = self.fresh(&format!("{}.valid", &rn[1..]));
                self.line(&format!("%{width} = arith.constant 64 : i32"), loc);
                self.line(
                    &format!("{rn}, %{valid} = gpu.shuffle idx {v}, {lane}, %{width} : {t}"),
                    loc,
                );
            }
            Reduce => {
                let r = result()?;
                let s = self.scalar_ty(r)?;
                let kind = self.str_attr(op, "kind")?;
                let int = matches!(s, Scalar::I32 | Scalar::I64);
                let k = match (kind.as_str(), int) {
                    ("add", true) => "add",
                    ("min", true) => "minsi",
                    ("max", true) => "maxsi",
                    ("umin", true) => "minui",
                    ("umax", true) => "maxui",
                    ("fadd", false) if s == Scalar::F32 => "add",
                    ("fmin", false) if s == Scalar::F32 => "minnumf",
                    ("fmax", false) if s == Scalar::F32 => "maxnumf",
                    _ => return Err(format!("`kernel.reduce {kind}` on {s} is not supported")),
                };
                let (v, rn) = (self.scalar_of(operand(0)?)?, self.scalar_of(r)?);
                let t = scalar(s);
                self.line(
                    &format!("{rn} = gpu.subgroup_reduce {k} {v} : ({t}) -> {t}"),
                    loc,
                );
            }

            // ---- control flow ----
            Return => self.line("gpu.return", loc),
            Br => {
                let s = &data.succs[0];
                let t = self.successor(s.block, &s.args)?;
                self.line(&format!("cf.br {t}"), loc);
            }
            CondBr => {
                let c = self.scalar_of(operand(0)?)?;
                let (a, b) = (&data.succs[0], &data.succs[1]);
                let (ta, tb) = (
                    self.successor(a.block, &a.args)?,
                    self.successor(b.block, &b.args)?,
                );
                self.line(&format!("cf.cond_br {c}, {ta}, {tb}"), loc);
            }
            Scan => {
                return Err(
                    "`kernel.scan` has no upstream translation (the gpu dialect has no subgroup \
                     scan)"
                        .into(),
                )
            }
            _ => {
                return Err(format!(
                    "`{}` has no upstream translation (CF form expected)",
                    ir.spec(op).name
                ))
            }
        }
        Ok(())
    }
}
