//! Translation of CF-form kernels to textual LLVM IR for AMDGPU (`kc --emit=llvm`).
//!
//! **Pre-condition**: `ir` is in CFG form, i.e. what `--emit=cf-ir` prints (the post-condition
//! of `transforms::lower_to_cf`): every `kernel.func` has one region of blocks, the entry
//! block's arguments are the kernel parameters and no branch targets the entry block; every
//! block ends in `cf.br`, `cf.cond_br` or `kernel.return`; no structured op
//! (`kernel.if/loop/yield/break/continue/var/get/set`) remains; block arguments are never
//! tokens; the IR verifies (`verify::verify`). A kernel either uses convergence tokens on all
//! its convergent ops or on none. Input outside this (structured ops, `!kernel.var` values,
//! mixed controlled and uncontrolled convergence, an atomic kind the element type does not
//! support, two kernels with one name) gives `Err` with a message naming the kernel.
//!
//! **Post-condition**: `Ok(text)` is one LLVM 22 module for `target triple =
//! "amdgcn-amd-amdhsa"` with the gfx942 data layout that `opt-22 -passes=verify` accepts
//! (including the convergence-control verifier) and `llc-22 -mcpu=gfx942` compiles. Each
//! kernel becomes `define amdgpu_kernel void @name(...) #0` (`convergent`,
//! `"target-cpu"="gfx942"`); kernel parameters become arguments (`ptr addrspace(1)` global,
//! `ptr addrspace(3)` shared, `i1`/`i32`/`i64`/`float`); blocks keep their order.
//!
//! # Names
//!
//! Every LLVM value defined for a kc value carries kc's printed name ([`kc_dialect::text::names`],
//! the names `--emit=cf-ir` prints), mapped by [`llvm_value_name`]: a source-named value keeps
//! its name (`%tid`, `%x_1`); an unnamed value, which kc prints as `%12`, becomes `%.12`
//! (LLVM requires numbered names to be sequential, so they cannot be kept; a `.k` identifier
//! cannot start with `.`, so this never collides with a source name, and LLVM's own passes
//! name values the same way, e.g. mem2reg's `%.0`). [`llvm_names`] gives the authoritative
//! map for one kernel, value by value; it equals `llvm_value_name` of the printed name except
//! for IR input that itself names a value `.N` (the numbered value then gets `.N.1`). Block
//! `^then` becomes label `then`; LLVM labels share the namespace of values, so a label that
//! equals a value name gets `.bb` appended (`^entry` is `entry.bb` when the entry token
//! `%entry` exists). Values that LLVM represents as constants have no instruction and so do
//! not appear: `arith.constant` and `kernel.wave_size` (64) are folded into their uses.
//! Intermediate values the translation adds are named after the kc value they help compute
//! (or the pointer a store writes through) plus a suffix: `%x.gep`, `%x.dispatch`, `%x.lo`,
//! `%x.reduce`, ... (made unique with `.1`, `.2`, ...); forwarding blocks are `<pred>.split`.
//!
//! # Translation
//!
//! - Block arguments become `phi`s. A `cf.cond_br` whose two edges reach one block with
//!   different arguments gets its false edge split by a forwarding block (`<pred>.split`), so
//!   each phi has one value per predecessor; identical arguments give two equal entries.
//! - `arith`: integers are signless, signedness is in the op. `divsi/divui/remsi/remui` are
//!   `sdiv/udiv/srem/urem`. **UB difference**: LANGUAGE.md makes division by zero an undefined
//!   *value* and integer arithmetic wrap (so `INT_MIN / -1` is `INT_MIN`), while LLVM makes
//!   both immediate undefined behaviour; no guard is emitted. Shifts take the amount modulo
//!   the width as LANGUAGE.md defines (`and` with width-1, folded for constants), where LLVM
//!   would give poison. `fptosi/fptoui` use `llvm.fpto[su]i.sat` (LANGUAGE.md: saturating;
//!   NaN gives 0) instead of the poison-producing instructions. `minimumf/maximumf` are
//!   `llvm.minimum/maximum` (NaN-propagating, as MLIR defines them); integer min/max are
//!   `llvm.[su]{min,max}`. Indexing uses `getelementptr inbounds` (an out-of-bounds index is
//!   undefined, as in C); an `i1` index is zero-extended first.
//! - Thread geometry: `workitem_id`/`workgroup_id` are `llvm.amdgcn.workitem.id.*` /
//!   `workgroup.id.*`; `lane_id` is `mbcnt.lo` + `mbcnt.hi`; `wave_size` is 64;
//!   `workgroup_size` is the `u16` at offset 4/6/8 of the HSA dispatch packet
//!   (`llvm.amdgcn.dispatch.ptr`, `!invariant.load`); `num_workgroups` is
//!   ceil(grid size (the `u32` at offset 12/16/20) / workgroup size). Both are loads of a
//!   uniform constant-address-space pointer, so LLVM's uniformity analysis keeps them uniform.
//! - Memory: `shared_alloc` is an `internal addrspace(3)` global `@<kernel>.<name>` (the kc
//!   value is a zero `getelementptr` of it, to keep the name); loads/stores are
//!   `getelementptr` + `load`/`store` with natural alignment. Atomics are
//!   `atomicrmw`/`cmpxchg` + `extractvalue`, atomic loads and stores `load atomic` /
//!   `store atomic`, fences `fence`, each with its op's ordering and scope (`llvm_ir/atomics.rs`:
//!   `syncscope("agent") acq_rel`; system scope has no `syncscope`; never a `-one-as` scope).
//!   **LLVM 22 bug**: llc's AMDGPUAtomicOptimizer rewrites an `atomicrmw` at a uniform
//!   address into ballot/readlane/DPP calls without `convergencectrl` bundles, so a kernel
//!   with tokens ends up mixing controlled and uncontrolled convergence and llc aborts
//!   ("Broken function found"). The emitted IR is valid; compile such kernels with
//!   `llc -amdgpu-atomic-optimizer-strategy=None` (pinned by `tests/filetests/llvm/atomics_llc.k`).
//! - `barrier` is `fence syncscope("workgroup") release`, `llvm.amdgcn.s.barrier`,
//!   `fence syncscope("workgroup") acquire` (what HIP's `__syncthreads` is), since
//!   LANGUAGE.md says it orders shared memory.
//! - Cross-lane: `ballot` -> `llvm.amdgcn.ballot.i64`; `readfirstlane`/`readlane` ->
//!   `llvm.amdgcn.readfirstlane.*`/`readlane.*`; `shuffle` -> `llvm.amdgcn.ds.bpermute` with
//!   byte address `lane * 4` (f32 through bitcasts, i64 as two 32-bit halves); `reduce` ->
//!   `llvm.amdgcn.wave.reduce.{add,min,max,umin,umax,fadd,fmin,fmax}` (all exist in LLVM 22
//!   for the types kc allows, so no open-coded sequence is needed), see "Uniform reduce" below.
//!   LANGUAGE.md leaves NaNs and the summation order of a float reduction open: `fmin/fmax`
//!   follow the intrinsics (`v_min_f32`/`v_max_f32`, NaN-ignoring like `minnum`), unlike the
//!   NaN-propagating `min`/`max` of two f32 values (`minimumf`).
//! - Convergence tokens: `conv.entry/anchor/loop` -> `llvm.experimental.convergence.*`, and
//!   every convergent call of a kernel with tokens carries `[ "convergencectrl"(token %t) ]`;
//!   a kernel without tokens gets no bundles. Intrinsics are declared with LLVM's attributes
//!   (`convergent` on the cross-lane ones, the barrier and the token intrinsics).
//!
//! # Uniform reduce
//!
//! kc defines `kernel.reduce` as always uniform (every active lane gets the same value), but
//! LLVM 22's UniformityAnalysis reports `llvm.amdgcn.wave.reduce.*` of a divergent operand as
//! divergent. So the reduction is followed by `llvm.amdgcn.readfirstlane` (same token), and
//! that call, which LLVM knows to be uniform, is the value carrying kc's name: the emitted
//! program then states kc's semantics in LLVM's own terms (the intrinsic's result is
//! already uniform in fact, so the extra call costs at most one `v_readfirstlane_b32`).

mod atomics;
mod names;
mod ops;
#[cfg(test)]
mod tests;

use names::*;
pub use names::{is_folded, llvm_names, llvm_value_name, LlvmNames};
use ops::constant_literal;

use cranelift_entity::SecondaryMap;
use kc_dialect::attrs::Attr;
use kc_dialect::entities::{Block, Op, Value};
use kc_dialect::ir::{Event, Ir};
use kc_dialect::registry::{Opcode, CMPF_PREDICATES, CMPI_PREDICATES};
use kc_dialect::text;
use kc_dialect::types::{AddrSpace, Scalar, Type};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write;

/// The target triple of the emitted module.
pub const TRIPLE: &str = "amdgcn-amd-amdhsa";
/// LLVM 22's AMDGPU data layout (what clang-22 writes for `amdgcn-amd-amdhsa`).
pub const DATALAYOUT: &str = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9";
/// The processor the kernels are compiled for (function attribute `"target-cpu"`).
pub const TARGET_CPU: &str = "gfx942";

/// Attribute groups of the module (`#N`).
#[derive(Copy, Clone)]
enum Attrs {
    /// Speculatable queries and pure math: `workitem.id`, `dispatch.ptr`, `smin`, ...
    Pure = 1,
    /// Cross-lane reads: `ballot`, `readfirstlane`, `readlane`, `ds.bpermute`, `wave.reduce`.
    CrossLane = 2,
    /// `s.barrier`.
    Barrier = 3,
    /// `convergence.entry/anchor/loop`.
    Token = 4,
    /// `mbcnt.lo/hi` (no memory, not speculatable).
    NoMem = 5,
}

const ATTRIBUTE_GROUPS: &[&str] = &[
    "attributes #0 = { convergent nounwind \"target-cpu\"=\"gfx942\" }",
    "attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }",
    "attributes #2 = { convergent nocallback nofree nounwind willreturn memory(none) }",
    "attributes #3 = { convergent nocallback nofree nounwind willreturn }",
    "attributes #4 = { convergent nocallback nofree nosync nounwind willreturn memory(none) }",
    "attributes #5 = { nocallback nofree nosync nounwind willreturn memory(none) }",
];

/// Module-level state shared by the kernels.
#[derive(Default)]
struct Module {
    /// `declare` lines by intrinsic name.
    decls: BTreeMap<String, String>,
    globals: Vec<String>,
    global_names: HashSet<String>,
    /// `!0 = !{}` is needed (for `!invariant.load`).
    invariant_md: bool,
}

/// Translates every kernel of `ir` (in CF form) to one LLVM IR module; see the module docs.
pub fn emit_llvm(ir: &Ir) -> Result<String, String> {
    let mut m = Module::default();
    let kernels = ir.kernels();
    for &f in &kernels {
        let name = ir.func_name(f);
        if !m.global_names.insert(name.to_string()) {
            return Err(format!("two kernels are named @{name}"));
        }
    }
    let mut funcs = String::new();
    for &f in &kernels {
        let text = FuncEmitter::new(ir, f, &mut m)
            .and_then(|e| e.run())
            .map_err(|e| format!("kernel @{}: {e}", ir.func_name(f)))?;
        funcs.push('\n');
        funcs.push_str(&text);
    }
    let mut out = String::new();
    let _ = writeln!(out, "target datalayout = \"{DATALAYOUT}\"");
    let _ = writeln!(out, "target triple = \"{TRIPLE}\"");
    if !m.globals.is_empty() {
        out.push('\n');
        for g in &m.globals {
            out.push_str(g);
            out.push('\n');
        }
    }
    out.push_str(&funcs);
    if !m.decls.is_empty() {
        out.push('\n');
        for d in m.decls.values() {
            out.push_str(d);
            out.push('\n');
        }
    }
    out.push('\n');
    for g in ATTRIBUTE_GROUPS {
        out.push_str(g);
        out.push('\n');
    }
    if m.invariant_md {
        out.push_str("\n!0 = !{}\n");
    }
    Ok(out)
}

/// `@name`, quoted when it is not a bare LLVM identifier.
fn global_ident(name: &str) -> String {
    let bare = name
        .bytes()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, b'-' | b'$' | b'.' | b'_'))
        && name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'$' | b'.' | b'_'));
    if bare {
        return format!("@{name}");
    }
    let mut s = String::from("@\"");
    for b in name.bytes() {
        if b == b'"' || b == b'\\' || !(0x20..0x7f).contains(&b) {
            let _ = write!(s, "\\{b:02X}");
        } else {
            s.push(b as char);
        }
    }
    s.push('"');
    s
}

fn scalar_ty(s: Scalar) -> &'static str {
    match s {
        Scalar::I1 => "i1",
        Scalar::I32 => "i32",
        Scalar::I64 => "i64",
        Scalar::F32 => "float",
    }
}

/// The suffix of an overloaded intrinsic for a scalar (`.i32`, `.f32`).
fn mangle(s: Scalar) -> &'static str {
    s.name()
}

fn addrspace(a: AddrSpace) -> u32 {
    match a {
        AddrSpace::Global => 1,
        AddrSpace::Shared => 3,
    }
}

fn ll_type(t: Type) -> Result<String, String> {
    Ok(match t {
        Type::Scalar(s) => scalar_ty(s).to_string(),
        Type::Ptr(a, _) => format!("ptr addrspace({})", addrspace(a)),
        Type::Token => "token".to_string(),
        Type::Var(_) => {
            return Err(format!(
                "value of type {t} (structured form; run lower-to-cf first)"
            ))
        }
    })
}

fn align(s: Scalar) -> u32 {
    match s {
        Scalar::I1 => 1,
        Scalar::I32 | Scalar::F32 => 4,
        Scalar::I64 => 8,
    }
}

/// An `f32` as an LLVM float literal: the shortest decimal that is exactly the value (as a
/// double), or the double's hexadecimal bit pattern for infinities and NaNs.
fn float_literal(v: f32) -> String {
    if v.is_finite() {
        let s = format!("{:?}", v as f64);
        return if s.contains('.') {
            s
        } else if let Some(e) = s.find(['e', 'E']) {
            format!("{}.0{}", &s[..e], &s[e..])
        } else {
            format!("{s}.0")
        };
    }
    let b = v.to_bits() as u64;
    let sign = (b >> 31) << 63;
    let mantissa = (b & 0x7f_ffff) << 29;
    format!("0x{:016X}", sign | 0x7FF0_0000_0000_0000 | mantissa)
}

/// One incoming edge of a block: the arguments and the label of the LLVM predecessor.
#[derive(Clone)]
struct Edge {
    args: Vec<Value>,
    from: String,
}

struct FuncEmitter<'a> {
    ir: &'a Ir,
    func: Op,
    names: LlvmNames,
    used: Used,
    /// The kernel uses convergence tokens: every convergent call needs a bundle.
    controlled: bool,
    m: &'a mut Module,
    out: String,
    incoming: SecondaryMap<Block, Vec<Edge>>,
    /// Forwarding block (label) for the false edge of a block's `cf.cond_br`.
    split: HashMap<Block, String>,
}

impl<'a> FuncEmitter<'a> {
    fn new(ir: &'a Ir, func: Op, m: &'a mut Module) -> Result<Self, String> {
        let names = llvm_names(ir, func);
        let mut used = Used::default();
        let mut vals = Vec::new();
        let mut blks = Vec::new();
        collect(ir, func, &mut vals, &mut blks);
        for &v in &vals {
            used.insert(names.values[v].clone());
        }
        for &b in &blks {
            used.insert(names.blocks[b].clone());
        }
        let controlled = vals.iter().any(|&v| ir.value_type(v) == Type::Token);
        Ok(FuncEmitter {
            ir,
            func,
            names,
            used,
            controlled,
            m,
            out: String::new(),
            incoming: SecondaryMap::new(),
            split: HashMap::new(),
        })
    }

    fn fresh(&mut self, base: String) -> String {
        unique(&mut self.used, base)
    }

    fn line(&mut self, s: impl AsRef<str>) {
        self.out.push_str("  ");
        self.out.push_str(s.as_ref());
        self.out.push('\n');
    }

    fn name(&self, v: Value) -> &str {
        &self.names.values[v]
    }

    /// The operand text of `v` (no type): `%name`, or a literal for constants.
    fn val(&self, v: Value) -> Result<String, String> {
        let ir = self.ir;
        if let Some(op) = ir.defining_op(v) {
            match ir.opcode(op) {
                Opcode::Constant => return constant_literal(ir, op),
                Opcode::WaveSize => return Ok("64".to_string()),
                _ => {}
            }
        }
        Ok(format!("%{}", self.name(v)))
    }

    /// `type operand`.
    fn tv(&self, v: Value) -> Result<String, String> {
        Ok(format!(
            "{} {}",
            ll_type(self.ir.value_type(v))?,
            self.val(v)?
        ))
    }

    fn declare(&mut self, ret: &str, callee: &str, params: &[&str], attrs: Attrs) {
        self.m.decls.entry(callee.to_string()).or_insert_with(|| {
            format!(
                "declare {ret} @{callee}({}) #{}",
                params.join(", "),
                attrs as u32
            )
        });
    }

    /// Emits `[%result = ]call ret @callee(args)[bundle]` and declares the callee.
    #[allow(clippy::too_many_arguments)]
    fn call(
        &mut self,
        result: Option<&str>,
        ret: &str,
        callee: &str,
        params: &[&str],
        args: &[String],
        attrs: Attrs,
        bundle: &str,
    ) {
        self.declare(ret, callee, params, attrs);
        let lhs = result.map_or(String::new(), |r| format!("%{r} = "));
        self.line(format!(
            "{lhs}call {ret} @{callee}({}){bundle}",
            args.join(", ")
        ));
    }

    /// `kernel.scan`: LLVM has no scan intrinsic, so the inclusive scan is open-coded as its
    /// atomic optimizer builds one for gfx9 (`buildScan`): `set.inactive` puts the identity in
    /// the inactive lanes, six `update.dpp` steps (`row_shr:1,2,4,8`, then `row_bcast:15` into
    /// rows 1 and 3 and `row_bcast:31` into rows 2 and 3) each combined with the operation, and
    /// `strict.wwm` returns to the active lanes.
    fn scan(&mut self, op: Op) -> Result<(), String> {
        let r = self.result(op)?;
        let b = self.bundle(op)?;
        let v = self.operand(op, 0)?;
        let s = self.scalar_of(v)?;
        let kind = self.str_attr(op, "kind")?;
        let (identity, combine) = match (kind.as_str(), s) {
            ("add", Scalar::I32 | Scalar::I64) => ("0", "add"),
            ("min", Scalar::I32) => ("2147483647", "smin"),
            ("min", Scalar::I64) => ("9223372036854775807", "smin"),
            ("max", Scalar::I32) => ("-2147483648", "smax"),
            ("max", Scalar::I64) => ("-9223372036854775808", "smax"),
            ("umin", Scalar::I32 | Scalar::I64) => ("-1", "umin"),
            ("umax", Scalar::I32 | Scalar::I64) => ("0", "umax"),
            ("fadd", Scalar::F32) => ("-0.0", "fadd"),
            ("fmin", Scalar::F32) => ("0x7FF8000000000000", "minnum"),
            ("fmax", Scalar::F32) => ("0x7FF8000000000000", "maxnum"),
            _ => return Err(format!("`kernel.scan {kind}` on {s} is not supported")),
        };
        let t = scalar_ty(s);
        let m = mangle(s);
        let mut cur = self.fresh(format!("{r}.scan"));
        let args = vec![self.tv(v)?, format!("{t} {identity}")];
        let callee = format!("llvm.amdgcn.set.inactive.{m}");
        self.call(Some(&cur), t, &callee, &[t, t], &args, Attrs::CrossLane, &b);
        // (DPP control, row mask): row_shr:n is 0x110 + n, row_bcast:15 0x142, row_bcast:31 0x143.
        for (ctrl, rows) in [
            (0x111, 15),
            (0x112, 15),
            (0x114, 15),
            (0x118, 15),
            (0x142, 10),
            (0x143, 12),
        ] {
            let moved = self.fresh(format!("{r}.dpp"));
            let args = vec![
                format!("{t} {identity}"),
                format!("{t} %{cur}"),
                format!("i32 {ctrl}"),
                format!("i32 {rows}"),
                "i32 15".to_string(),
                "i1 false".to_string(),
            ];
            let params = [t, t, "i32 immarg", "i32 immarg", "i32 immarg", "i1 immarg"];
            let callee = format!("llvm.amdgcn.update.dpp.{m}");
            self.call(
                Some(&moved),
                t,
                &callee,
                &params,
                &args,
                Attrs::CrossLane,
                &b,
            );
            let next = self.fresh(format!("{r}.scan"));
            match combine {
                "add" | "fadd" => self.line(format!("%{next} = {combine} {t} %{cur}, %{moved}")),
                f => {
                    let args = vec![format!("{t} %{cur}"), format!("{t} %{moved}")];
                    let callee = format!("llvm.{f}.{m}");
                    self.call(Some(&next), t, &callee, &[t, t], &args, Attrs::Pure, "");
                }
            }
            cur = next;
        }
        let args = vec![format!("{t} %{cur}")];
        let callee = format!("llvm.amdgcn.strict.wwm.{m}");
        self.call(Some(&r), t, &callee, &[t], &args, Attrs::CrossLane, &b);
        Ok(())
    }

    /// The `[ "convergencectrl"(token %t) ]` bundle of a convergent op ("" without tokens).
    fn bundle(&self, op: Op) -> Result<String, String> {
        let ir = self.ir;
        let token = ir.ops[op]
            .operands
            .last()
            .copied()
            .filter(|&t| ir.value_type(t) == Type::Token);
        match token {
            Some(t) => Ok(format!(" [ \"convergencectrl\"(token %{}) ]", self.name(t))),
            None if self.controlled => Err(format!(
                "`{}` has no convergence token although the kernel uses tokens (LLVM cannot mix \
                 controlled and uncontrolled convergent operations)",
                ir.spec(op).name
            )),
            None => Ok(String::new()),
        }
    }

    fn run(mut self) -> Result<String, String> {
        let ir = self.ir;
        let func = self.func;
        let region = *ir.ops[func].regions.first().ok_or("kernel has no region")?;
        let entry = ir.entry_block(region).ok_or("kernel has no blocks")?;
        let blocks: Vec<Block> = ir.region_blocks(region).collect();

        // Shape checks and the edges into each block.
        for &b in &blocks {
            for o in ir.block_ops(b) {
                let spec = ir.spec(o);
                let structured = ir.opcode(o).is_structured()
                    || matches!(ir.opcode(o), Opcode::Func | Opcode::Module);
                if structured || !ir.ops[o].regions.is_empty() {
                    return Err(format!(
                        "`{}` is not in CF form (run lower-to-cf first)",
                        spec.name
                    ));
                }
            }
            let term = ir
                .terminator(b)
                .ok_or_else(|| format!("block ^{} has no terminator", self.names.blocks[b]))?;
            let succs = &ir.ops[term].succs;
            let split_false = succs.len() == 2
                && succs[0].block == succs[1].block
                && succs[0].args != succs[1].args;
            if split_false {
                let label = self.fresh(format!("{}.split", self.names.blocks[b]));
                self.split.insert(b, label);
            }
            for (i, s) in succs.iter().enumerate() {
                if s.block == entry {
                    return Err("a branch targets the entry block".into());
                }
                let from = match self.split.get(&b) {
                    Some(l) if i == 1 => l.clone(),
                    _ => self.names.blocks[b].clone(),
                };
                self.incoming[s.block].push(Edge {
                    args: s.args.to_vec(),
                    from,
                });
            }
        }

        // Signature.
        let mut params = Vec::new();
        for &a in &ir.blocks[entry].args {
            let t = ir.value_type(a);
            if matches!(t, Type::Token | Type::Var(_)) {
                return Err(format!("parameter %{} has type {t}", self.name(a)));
            }
            params.push(format!("{} %{}", ll_type(t)?, self.name(a)));
        }
        let header = format!(
            "define amdgpu_kernel void {}({}) #0 {{\n",
            global_ident(ir.func_name(func)),
            params.join(", ")
        );

        for &b in &blocks {
            self.block(b, b == entry)?;
        }
        Ok(format!("{header}{}}}\n", self.out))
    }

    fn block(&mut self, b: Block, is_entry: bool) -> Result<(), String> {
        let ir = self.ir;
        let _ = writeln!(self.out, "{}:", self.names.blocks[b]);
        if !is_entry {
            let edges = std::mem::take(&mut self.incoming[b]);
            for (j, &a) in ir.blocks[b].args.iter().enumerate() {
                let ty = ll_type(ir.value_type(a))?;
                let name = self.name(a).to_string();
                if edges.is_empty() {
                    // A block without predecessors (unreachable IR input): no phi possible.
                    self.line(format!("%{name} = freeze {ty} poison"));
                    continue;
                }
                let mut ins = Vec::new();
                for e in &edges {
                    ins.push(format!("[ {}, %{} ]", self.val(e.args[j])?, e.from));
                }
                self.line(format!("%{name} = phi {ty} {}", ins.join(", ")));
            }
        }
        for o in ir.block_ops(b) {
            self.op(o, b)?;
        }
        if let Some(label) = self.split.get(&b).cloned() {
            let term = ir.terminator(b).expect("checked in run");
            let target = ir.ops[term].succs[1].block;
            let _ = writeln!(self.out, "{label}:");
            let t = format!("br label %{}", self.names.blocks[target]);
            self.line(t);
        }
        Ok(())
    }

    /// The LLVM name for an op's single result.
    fn result(&self, op: Op) -> Result<String, String> {
        self.ir.ops[op]
            .results
            .first()
            .map(|&r| self.name(r).to_string())
            .ok_or_else(|| format!("`{}` has no result", self.ir.spec(op).name))
    }

    fn operand(&self, op: Op, i: usize) -> Result<Value, String> {
        self.ir.ops[op]
            .operands
            .get(i)
            .copied()
            .ok_or_else(|| format!("`{}` lacks operand #{i}", self.ir.spec(op).name))
    }

    fn str_attr(&self, op: Op, name: &str) -> Result<String, String> {
        self.ir
            .attr(op, name)
            .and_then(Attr::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("`{}` lacks its `{name}` attribute", self.ir.spec(op).name))
    }

    fn dim(&self, op: Op) -> Result<(String, u32), String> {
        let d = self.str_attr(op, "dim")?;
        let i = match d.as_str() {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            _ => return Err(format!("bad dimension `{d}`")),
        };
        Ok((d, i))
    }

    /// Element scalar of a pointer operand, and its address space number.
    fn pointee(&self, p: Value) -> Result<(Scalar, u32, AddrSpace), String> {
        match self.ir.value_type(p) {
            Type::Ptr(a, s) => Ok((s, addrspace(a), a)),
            t => Err(format!("expected a pointer, got {t}")),
        }
    }

    fn scalar_of(&self, v: Value) -> Result<Scalar, String> {
        self.ir
            .value_type(v)
            .scalar()
            .ok_or_else(|| format!("expected a scalar, got {}", self.ir.value_type(v)))
    }

    /// `getelementptr inbounds elem, ptr p, index` named `name`.
    fn gep(&mut self, name: &str, p: Value, idx: Value, base: &str) -> Result<(), String> {
        let (elem, asp, _) = self.pointee(p)?;
        let mut index = self.tv(idx)?;
        if self.ir.value_type(idx) == Type::I1 {
            let z = self.fresh(format!("{base}.idx"));
            self.line(format!("%{z} = zext {index} to i32"));
            index = format!("i32 %{z}");
        }
        let p = self.val(p)?;
        self.line(format!(
            "%{name} = getelementptr inbounds {}, ptr addrspace({asp}) {p}, {index}",
            scalar_ty(elem)
        ));
        Ok(())
    }

    /// `%<base>.dispatch = call @llvm.amdgcn.dispatch.ptr()`; returns its name.
    fn dispatch_ptr(&mut self, base: &str) -> String {
        let dp = self.fresh(format!("{base}.dispatch"));
        self.call(
            Some(&dp),
            "ptr addrspace(4)",
            "llvm.amdgcn.dispatch.ptr",
            &[],
            &[],
            Attrs::Pure,
            "",
        );
        dp
    }

    /// `%<base>.dispatch = call @llvm.amdgcn.dispatch.ptr()` and a load of a `u16`/`u32` at
    /// `offset` of the dispatch packet, zero-extended to i32 into `%name`.
    fn dispatch_field(&mut self, name: &str, base: &str, offset: u32, bits: u32) {
        let dp = self.dispatch_ptr(base);
        self.dispatch_load(name, base, &dp, offset, bits);
    }

    fn dispatch_load(&mut self, name: &str, base: &str, dp: &str, offset: u32, bits: u32) {
        self.m.invariant_md = true;
        let gep = self.fresh(format!("{base}.gep"));
        self.line(format!(
            "%{gep} = getelementptr inbounds i8, ptr addrspace(4) %{dp}, i64 {offset}"
        ));
        let al = if offset & 3 == 0 { 4 } else { 2 };
        if bits == 32 {
            self.line(format!(
                "%{name} = load i32, ptr addrspace(4) %{gep}, align {al}, !invariant.load !0"
            ));
        } else {
            let narrow = self.fresh(format!("{base}.i16"));
            self.line(format!(
                "%{narrow} = load i16, ptr addrspace(4) %{gep}, align {al}, !invariant.load !0"
            ));
            self.line(format!("%{name} = zext i16 %{narrow} to i32"));
        }
    }
}
