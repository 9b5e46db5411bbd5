//! Import of upstream MLIR GPU kernels through MLIR itself (melior; the `mlir` feature).
//!
//! **Input**: an MLIR module in MLIR's own syntax (custom or generic) whose kernels are
//! `gpu.func ... kernel` ops in a `gpu.module`, or `func.func` ops with the `gpu.kernel`
//! attribute, written with `arith`, `cf`, `scf`, `memref` (rank 1, element `i1`/`i32`/`i64`/
//! `f32`, address space 1 or `#gpu.address_space<global>` (or none) for global memory, 3 or
//! `#gpu.address_space<workgroup>` for workgroup memory, dynamic or static size, identity
//! layout), `gpu.thread_id`/`block_id`/`block_dim`/`grid_dim`/`lane_id`/`subgroup_size`,
//! `gpu.barrier`, `gpu.shuffle` (width 64), `gpu.subgroup_reduce`, `gpu.subgroup_broadcast`,
//! `rocdl.ballot`, `memref.atomic_rmw` / the compare-and-swap form of
//! `memref.generic_atomic_rmw` that `--emit=mlir-gpu` writes (kc's default ordering and
//! scope: memref's atomics have none), and `llvm.fence` (a `kernel.fence`).
//!
//! **Output**: kc CF IR (`kernel.func` per kernel, `cf` control flow, no convergence tokens)
//! that the verifier accepts, or a [`TextError`] at the location of the first problem (line 0
//! when MLIR gives none): an MLIR parse or verifier error (MLIR's own message), or an op,
//! type or attribute kc cannot represent, named with its location. The `kc` binary hands
//! [`import`] to the pipeline (`pipeline::register_mlir_importer`), which calls it for input
//! that holds `gpu.module`, `gpu.func` or `func.func`.
//!
//! MLIR parses and verifies the module, and its own `convert-scf-to-cf` lowers `scf` to `cf`
//! (so kc never sees `scf`). The translation then walks the MLIR blocks in reverse post-order
//! (definitions before uses; unreachable blocks are dropped):
//! - `index` is `i64` (MLIR's default index width on AMDGPU); `arith.index_cast[ui]` is a
//!   sign/zero extension, a truncation, or nothing.
//! - A memref is a `!kernel.ptr<global|shared, T>`; a workgroup attribution `memref<NxT, 3>` is
//!   a `kernel.shared_alloc N`; `memref.cast` is the same pointer.
//! - Thread queries return `index`: kc's `i32` query zero-extended (they are never negative).
//! - `gpu.shuffle` with width 64 computes the source lane (`idx`: the operand, `xor`/`up`/
//!   `down`: from `kernel.lane_id`); `valid` is `source < 64` (unsigned), and an invalid
//!   lane reads its own value (MLIR leaves that result unspecified; kc's `kernel.shuffle` of
//!   a lane outside the wave is undefined).

use kc_dialect::attrs::Attr;
use kc_dialect::entities::{Block, Op, Value};
use kc_dialect::location::Loc;
use kc_dialect::registry::Opcode;
use kc_dialect::sync::{self, Ordering, Scope, Sync};
use kc_dialect::text::TextError;
use kc_dialect::types::{AddrSpace, Scalar, Type};
use kc_dialect::Ir;
use melior::dialect::DialectRegistry;
use melior::ir::attribute::TypeAttribute;
use melior::ir::block::BlockLike;
use melior::ir::operation::OperationLike;
use melior::ir::r#type::FunctionType;
use melior::ir::ValueLike;
use melior::ir::{BlockRef, Location, Module, OperationRef, RegionLike};
use melior::pass::{self, PassManager};
use melior::Context;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// Why a module cannot be imported, at `line:col` of the input (0: no location).
#[derive(Debug, Clone, PartialEq, Eq)]
struct ImportError {
    pub message: String,
    pub line: u32,
    pub col: u32,
}

type Res<T> = Result<T, ImportError>;

/// The dialects an imported module may use (and those they load): only these are linked
/// into `kc`, not all of MLIR's.
fn import_registry() -> DialectRegistry {
    use mlir_sys::*;
    crate::upstream_registry(&[
        mlirGetDialectHandle__arith__,
        mlirGetDialectHandle__cf__,
        mlirGetDialectHandle__func__,
        mlirGetDialectHandle__gpu__,
        mlirGetDialectHandle__memref__,
        mlirGetDialectHandle__scf__,
        mlirGetDialectHandle__rocdl__,
        mlirGetDialectHandle__llvm__,
    ])
}

/// The file, line and column of an MLIR location (the first file location inside names,
/// call sites and fused locations), if it has one. MLIR calls the parsed buffer `-`.
fn position(loc: Location) -> Option<(String, u32, u32)> {
    let mut stack = vec![loc];
    while let Some(l) = stack.pop() {
        if l.is_file_line_col_range() {
            let file = l.file_line_col_range_filename();
            let file = file.as_string_ref().as_str().unwrap_or("-").to_string();
            let line = l.file_line_col_range_start_line() as u32;
            let col = l.file_line_col_range_start_column() as u32;
            return Some((file, line, col));
        }
        if l.is_name() {
            stack.push(l.name_child_location());
        } else if l.is_call_site() {
            stack.push(l.call_site_callee());
        } else if l.is_fused() {
            for i in (0..l.fused_num_locations()).rev() {
                stack.push(l.fused_location(i));
            }
        }
    }
    None
}

/// An error at `loc`: a position in the input, or (for an op whose location names another
/// file, such as the `.k` source of `--emit=mlir-gpu` output) that file's position in the
/// message.
fn error_at(loc: Location, message: String) -> ImportError {
    match position(loc) {
        Some((file, line, col)) if file == "-" => ImportError { message, line, col },
        Some((file, line, col)) => ImportError {
            message: format!("{message} (at {file}:{line}:{col})"),
            line: 0,
            col: 0,
        },
        None => ImportError {
            message,
            line: 0,
            col: 0,
        },
    }
}

/// Parses `text` with MLIR, lowers `scf` to `cf` there, and translates every kernel to kc
/// IR; see the module docs. `file` names the input in the IR's locations.
pub fn import(text: &str, file: &str) -> Result<Ir, TextError> {
    run(text, file).map_err(|e| TextError {
        offset: line_col_offset(text, e.line, e.col),
        line: e.line,
        col: e.col,
        message: e.message,
    })
}

/// The byte offset of 1-based `line` and `col` (in characters) in `text`, clamped to its
/// end; 0 for line 0 (no location).
fn line_col_offset(text: &str, line: u32, col: u32) -> usize {
    if line == 0 {
        return 0;
    }
    let mut offset = 0;
    for (n, l) in text.split_inclusive('\n').enumerate() {
        if n + 1 == line as usize {
            let c = l
                .char_indices()
                .nth(col.saturating_sub(1) as usize)
                .map_or(l.len(), |(i, _)| i);
            return offset + c;
        }
        offset += l.len();
    }
    text.len()
}

fn run(text: &str, file: &str) -> Res<Ir> {
    // MLIR's parser takes a C string: a NUL byte would end the module early (melior panics
    // on it), and is no valid MLIR anyway.
    if let Some(at) = text.find('\0') {
        let line = text[..at].matches('\n').count() + 1;
        let col = text[..at]
            .rsplit('\n')
            .next()
            .map_or(0, |l| l.chars().count())
            + 1;
        return Err(ImportError {
            message: "a NUL byte in the MLIR module".into(),
            line: line as u32,
            col: col as u32,
        });
    }
    let context = Context::new_with_threading(false);
    context.append_dialect_registry(&import_registry());
    context.load_all_available_dialects();
    let diagnostics: Rc<RefCell<Vec<ImportError>>> = Rc::default();
    let sink = diagnostics.clone();
    let handler = context.attach_diagnostic_handler(move |d| {
        sink.borrow_mut()
            .push(error_at(d.location(), d.to_string()));
        true
    });
    let first = |what: &str| -> ImportError {
        diagnostics
            .borrow()
            .first()
            .cloned()
            .unwrap_or(ImportError {
                message: what.to_string(),
                line: 0,
                col: 0,
            })
    };
    let result = (|| {
        let mut module =
            Module::parse(&context, text).ok_or_else(|| first("MLIR cannot parse the module"))?;
        let pm = PassManager::new(&context);
        pm.add_pass(pass::conversion::create_scf_to_control_flow());
        pm.run(&mut module)
            .map_err(|_| first("MLIR's convert-scf-to-cf failed"))?;
        translate(&module, file, text)
    })();
    context.detach_diagnostic_handler(handler);
    result
}

fn op_name(op: &OperationRef) -> String {
    op.name()
        .as_string_ref()
        .as_str()
        .unwrap_or("?")
        .to_string()
}

/// The ops of a block, in order.
fn ops_of<'c, 'a>(block: BlockRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut out = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        out.push(op);
    }
    out
}

fn translate(module: &Module, file: &str, text: &str) -> Res<Ir> {
    let mut ir = Ir::new();
    let mut names = HashSet::new();
    let mut kernels = Vec::new();
    for op in ops_of(module.body()) {
        match op_name(&op).as_str() {
            "gpu.module" => {
                let body = op
                    .region(0)
                    .ok()
                    .and_then(|r| r.first_block())
                    .ok_or_else(|| error_at(op.location(), "empty gpu.module".into()))?;
                for inner in ops_of(body) {
                    match op_name(&inner).as_str() {
                        "gpu.func" | "func.func" => kernels.push(inner),
                        _ => {
                            return Err(error_at(
                                inner.location(),
                                format!("unsupported op '{}' in a gpu.module", op_name(&inner)),
                            ))
                        }
                    }
                }
            }
            "func.func" => kernels.push(op),
            _ => {
                return Err(error_at(
                    op.location(),
                    format!(
                        "unsupported op '{}' at module level (kc imports gpu.module and func.func kernels)",
                        op_name(&op)
                    ),
                ))
            }
        }
    }
    for k in kernels {
        if !k.has_attribute("gpu.kernel") {
            return Err(error_at(
                k.location(),
                format!(
                    "'{}' without the `kernel` attribute: kc compiles kernels only (no calls)",
                    op_name(&k)
                ),
            ));
        }
        let name = k
            .attribute("sym_name")
            .map(|a| a.to_string().trim_matches('"').to_string())
            .map_err(|_| error_at(k.location(), "a kernel without a name".into()))?;
        if !names.insert(name.clone()) {
            return Err(error_at(
                k.location(),
                format!("two kernels are named @{name}"),
            ));
        }
        Kernel::new(&mut ir, file).run(&k, &name, text)?;
    }
    Ok(ir)
}

/// The name of the kernel parameter whose location in the parsed module is `arg`: MLIR
/// keeps no SSA names, but `kc run` finds buffers by parameter name. A name location
/// (`loc("out"(...))`, what `--emit=mlir-gpu` writes) gives it; otherwise MLIR gives each
/// entry-block argument the location of its `%name` in the signature (custom or generic
/// form), and the name is the identifier at that position of `text`, never a textual search
/// that a comment or another kernel could match. `None` when neither applies (an explicit
/// `loc(...)` into another file): the caller names it `argN`.
fn param_name(text: &str, arg: Location) -> Option<String> {
    if arg.is_name() {
        let name = arg.name_value();
        let name = name.as_string_ref().as_str().ok()?;
        return (!name.is_empty()).then(|| name.to_string());
    }
    let (file, line, col) = position(arg)?;
    if file != "-" {
        return None;
    }
    // MLIR's columns count bytes.
    let line_text = text
        .split_inclusive('\n')
        .nth((line as usize).checked_sub(1)?)?;
    let at = line_text.get((col as usize).checked_sub(1)?..)?;
    let name: String = at
        .strip_prefix('%')?
        .chars()
        .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '$' | '-'))
        .collect();
    (!name.is_empty()).then_some(name)
}

/// The kc type of an MLIR type (`index` is `i64`), from MLIR's spelling of it.
fn kc_type(ty: &str) -> Option<Type> {
    let scalar = |s: &str| match s {
        "index" => Some(Scalar::I64),
        s => Scalar::from_name(s),
    };
    if let Some(s) = scalar(ty) {
        return Some(Type::Scalar(s));
    }
    let (_, elem, space) = memref_parts(ty)?;
    Some(Type::Ptr(space, elem))
}

/// `memref<?xT>` / `memref<NxT, space>` of rank 1 with the identity layout: its static size
/// (if any), element and address space.
fn memref_parts(ty: &str) -> Option<(Option<i64>, Scalar, AddrSpace)> {
    let inner = ty.strip_prefix("memref<")?.strip_suffix('>')?;
    let (shape, rest) = match inner.find(',') {
        Some(i) => (&inner[..i], inner[i + 1..].trim()),
        None => (inner, ""),
    };
    let (dim, elem) = shape.split_once('x')?;
    let size = if dim == "?" {
        None
    } else {
        Some(dim.parse::<i64>().ok()?)
    };
    let elem = Scalar::from_name(elem)?;
    let space = match rest {
        "" | "0" | "1" | "#gpu.address_space<global>" => AddrSpace::Global,
        "3" | "#gpu.address_space<workgroup>" => AddrSpace::Shared,
        _ => return None,
    };
    Some((size, elem, space))
}

/// The leading integer of an attribute's spelling (`6 : i64` gives 6).
fn attr_int(text: &str) -> Option<i64> {
    let t = text.trim();
    match t {
        "true" => return Some(1),
        "false" => return Some(0),
        _ => {}
    }
    t.split(':').next()?.trim().parse().ok()
}

/// The keyword inside a `#gpu<kind keyword>` attribute.
fn gpu_enum(text: &str) -> Option<&str> {
    text.trim().strip_suffix('>')?.rsplit(' ').next()
}

struct Kernel<'i> {
    ir: &'i mut Ir,
    file: String,
    values: HashMap<usize, Value>,
    blocks: HashMap<usize, Block>,
    block: Option<Block>,
}

type MValue<'c, 'a> = melior::ir::Value<'c, 'a>;

fn value_key(v: MValue) -> usize {
    v.to_raw().ptr as usize
}

fn block_key(b: BlockRef) -> usize {
    b.to_raw().ptr as usize
}

impl<'i> Kernel<'i> {
    fn new(ir: &'i mut Ir, file: &str) -> Self {
        Kernel {
            ir,
            file: file.to_string(),
            values: HashMap::new(),
            blocks: HashMap::new(),
            block: None,
        }
    }

    /// The kc location of an MLIR one: the input file for the parsed buffer, else the file
    /// the location names (so kc -> mlir-gpu -> kc keeps the `.k` source lines).
    fn loc(&mut self, loc: Location) -> Loc {
        match position(loc) {
            Some((file, line, col)) if file == "-" => {
                let f = self.file.clone();
                self.ir.loc(&f, line, col)
            }
            Some((file, line, col)) => self.ir.loc(&file, line, col),
            None => Loc::UNKNOWN,
        }
    }

    fn ty(&self, v: MValue, at: &OperationRef) -> Res<Type> {
        let t = v.r#type().to_string();
        kc_type(&t).ok_or_else(|| {
            error_at(
                at.location(),
                format!("unsupported type {t} in '{}' (kc has i1, i32, i64, f32, index and rank-1 memrefs)", op_name(at)),
            )
        })
    }

    fn val(&self, v: MValue, at: &OperationRef) -> Res<Value> {
        self.values.get(&value_key(v)).copied().ok_or_else(|| {
            error_at(
                at.location(),
                format!("'{}' uses a value kc has not translated", op_name(at)),
            )
        })
    }

    fn operands(&self, op: &OperationRef) -> Res<Vec<Value>> {
        op.operands().map(|v| self.val(v, op)).collect()
    }

    /// Appends a new op to the current block.
    fn emit(&mut self, opcode: Opcode, operands: &[Value], results: &[Type], loc: Loc) -> Op {
        let op = self.ir.create_op(opcode, operands, results, loc);
        let block = self.block.expect("a current block");
        self.ir.append_op(block, op);
        op
    }

    fn emit1(&mut self, opcode: Opcode, operands: &[Value], result: Type, loc: Loc) -> Value {
        let op = self.emit(opcode, operands, &[result], loc);
        self.ir.ops[op].results[0]
    }

    fn constant(&mut self, value: i64, ty: Type, loc: Loc) -> Value {
        let op = self.emit(Opcode::Constant, &[], &[ty], loc);
        self.ir.set_attr(op, "value", Attr::Int(value, ty));
        self.ir.ops[op].results[0]
    }

    fn bind(&mut self, op: &OperationRef, i: usize, v: Value) -> Res<()> {
        let r = op.result(i).map_err(|_| {
            error_at(
                op.location(),
                format!("'{}' has no result {i}", op_name(op)),
            )
        })?;
        self.values.insert(value_key(r.into()), v);
        Ok(())
    }

    fn unsupported(op: &OperationRef, why: &str) -> ImportError {
        let extra = if why.is_empty() {
            String::new()
        } else {
            format!(": {why}")
        };
        error_at(
            op.location(),
            format!("unsupported op '{}'{extra}", op_name(op)),
        )
    }

    fn run(mut self, func: &OperationRef, name: &str, text: &str) -> Res<()> {
        let floc = self.loc(func.location());
        let kop = self.ir.create_op(Opcode::Func, &[], &[], floc);
        self.ir
            .set_attr(kop, "sym_name", Attr::Str(name.to_string()));
        let top = self.ir.top_block();
        self.ir.append_op(top, kop);
        let region = self.ir.add_region(kop);
        let body = func
            .region(0)
            .map_err(|_| error_at(func.location(), "a kernel without a body".into()))?;
        let entry = body
            .first_block()
            .ok_or_else(|| error_at(func.location(), "a kernel without a body".into()))?;
        // The entry block's arguments are the parameters (as many as the function type
        // has inputs), then the workgroup attributions, then the private ones.
        let params = func
            .attribute("function_type")
            .ok()
            .and_then(|a| TypeAttribute::try_from(a).ok())
            .and_then(|t| FunctionType::try_from(t.value()).ok())
            .map_or(entry.argument_count(), |f| f.input_count());
        let workgroup = func
            .attribute("workgroup_attributions")
            .ok()
            .and_then(|a| attr_int(&a.to_string()))
            .unwrap_or(0) as usize;
        if params + workgroup < entry.argument_count() {
            return Err(error_at(
                func.location(),
                "private attributions (memory in address space 5) are not supported".into(),
            ));
        }
        // Blocks: every MLIR block gets a kc block with its arguments, in layout order.
        let mut mblocks = Vec::new();
        let mut next = Some(entry);
        while let Some(b) = next {
            next = b.next_in_region();
            mblocks.push(b);
        }
        let mut shared = Vec::new();
        for (n, &b) in mblocks.iter().enumerate() {
            let kb = self.ir.create_block();
            self.ir.append_block(region, kb);
            self.blocks.insert(block_key(b), kb);
            for i in 0..b.argument_count() {
                let a = b.argument(i).expect("argument in range");
                let av: MValue = a.into();
                let t = av.r#type().to_string();
                let loc = self.loc(av.location());
                if n == 0 && i >= params {
                    // A workgroup attribution: a shared allocation at the top of the kernel.
                    match memref_parts(&t) {
                        Some((Some(size), elem, AddrSpace::Shared)) => shared.push((av, size, elem, loc)),
                        _ => {
                            return Err(error_at(
                                av.location(),
                                format!("unsupported workgroup attribution of type {t} (kc needs memref<NxT, 3>)"),
                            ))
                        }
                    }
                    continue;
                }
                let ty = kc_type(&t).ok_or_else(|| {
                    error_at(
                        av.location(),
                        format!("unsupported argument type {t} (kc has i1, i32, i64, f32, index and rank-1 memrefs)"),
                    )
                })?;
                let name = if n > 0 {
                    None
                } else {
                    Some(param_name(text, av.location()).unwrap_or_else(|| format!("arg{i}")))
                };
                let v = self.ir.add_block_arg(kb, ty, name, loc);
                self.values.insert(value_key(av), v);
            }
        }
        let kentry = self.blocks[&block_key(entry)];
        self.block = Some(kentry);
        for (av, size, elem, loc) in shared {
            let op = self.emit(
                Opcode::SharedAlloc,
                &[],
                &[Type::Ptr(AddrSpace::Shared, elem)],
                loc,
            );
            self.ir.set_attr(op, "size", Attr::Int(size, Type::I64));
            let v = self.ir.ops[op].results[0];
            self.values.insert(value_key(av), v);
        }
        // Reverse post-order over MLIR's CFG: every definition before its uses.
        let index: HashMap<usize, usize> = mblocks
            .iter()
            .enumerate()
            .map(|(i, &b)| (block_key(b), i))
            .collect();
        let succs: Vec<Vec<usize>> = mblocks
            .iter()
            .map(|b| {
                b.terminator()
                    .map(|t| {
                        t.successors()
                            .filter_map(|s| index.get(&block_key(s)).copied())
                            .collect()
                    })
                    .unwrap_or_default()
            })
            .collect();
        let mut post = Vec::new();
        let mut seen = vec![false; mblocks.len()];
        let mut stack = vec![(0usize, 0usize)];
        seen[0] = true;
        while let Some(&mut (b, ref mut i)) = stack.last_mut() {
            if let Some(&s) = succs[b].get(*i) {
                *i += 1;
                if !seen[s] {
                    seen[s] = true;
                    stack.push((s, 0));
                }
            } else {
                post.push(b);
                stack.pop();
            }
        }
        for &b in post.iter().rev() {
            self.block = Some(self.blocks[&block_key(mblocks[b])]);
            for op in ops_of(mblocks[b]) {
                self.op(&op)?;
            }
        }
        // Blocks MLIR never reaches are dropped (nothing can branch to them from kc's blocks).
        for (b, &s) in seen.iter().enumerate() {
            if !s {
                let kb = self.blocks[&block_key(mblocks[b])];
                self.ir.remove_block(kb);
            }
        }
        Ok(())
    }

    fn successor_args(
        &self,
        op: &OperationRef,
        block: BlockRef,
        from: usize,
    ) -> Res<(Block, Vec<Value>)> {
        let kb = *self
            .blocks
            .get(&block_key(block))
            .ok_or_else(|| Self::unsupported(op, "a successor outside the kernel"))?;
        let n = block.argument_count();
        let mut args = Vec::with_capacity(n);
        for i in from..from + n {
            let v = op.operand(i).map_err(|_| {
                Self::unsupported(op, "fewer successor operands than block arguments")
            })?;
            args.push(self.val(v, op)?);
        }
        Ok((kb, args))
    }

    fn op(&mut self, op: &OperationRef) -> Res<()> {
        let name = op_name(op);
        let loc = self.loc(op.location());
        let result_ty = |s: &Self| -> Res<Type> {
            let r = op
                .result(0)
                .map_err(|_| Self::unsupported(op, "no result"))?;
            s.ty(r.into(), op)
        };
        match name.as_str() {
            "gpu.return" | "func.return" => {
                if op.operand_count() > 0 {
                    return Err(Self::unsupported(op, "a kernel returns no values"));
                }
                self.emit(Opcode::Return, &[], &[], loc);
            }
            "cf.br" => {
                let dest = op.successor(0).map_err(|_| Self::unsupported(op, ""))?;
                let (kb, args) = self.successor_args(op, dest, 0)?;
                let br = self.emit(Opcode::Br, &[], &[], loc);
                self.ir.add_successor(br, kb, &args);
            }
            "cf.cond_br" => {
                let c = self.val(op.operand(0).map_err(|_| Self::unsupported(op, ""))?, op)?;
                let t = op.successor(0).map_err(|_| Self::unsupported(op, ""))?;
                let f = op.successor(1).map_err(|_| Self::unsupported(op, ""))?;
                let (tb, targs) = self.successor_args(op, t, 1)?;
                let (fb, fargs) = self.successor_args(op, f, 1 + t.argument_count())?;
                let br = self.emit(Opcode::CondBr, &[c], &[], loc);
                self.ir.add_successor(br, tb, &targs);
                self.ir.add_successor(br, fb, &fargs);
            }
            "arith.constant" => {
                let ty = result_ty(self)?;
                let text = op
                    .attribute("value")
                    .map(|a| a.to_string())
                    .map_err(|_| Self::unsupported(op, "no value"))?;
                let attr = match ty {
                    Type::Scalar(Scalar::F32) => {
                        let lit = text.split(':').next().unwrap_or("").trim();
                        let v = if let Some(hex) = lit.strip_prefix("0x") {
                            u32::from_str_radix(hex, 16).ok().map(f32::from_bits)
                        } else {
                            lit.parse::<f32>().ok()
                        };
                        Attr::Float(
                            v.ok_or_else(|| Self::unsupported(op, "a float kc cannot read"))?,
                        )
                    }
                    Type::Scalar(_) => Attr::Int(
                        attr_int(&text)
                            .ok_or_else(|| Self::unsupported(op, "a non-integer constant"))?,
                        ty,
                    ),
                    _ => return Err(Self::unsupported(op, "a constant of that type")),
                };
                let c = self.emit(Opcode::Constant, &[], &[ty], loc);
                self.ir.set_attr(c, "value", attr);
                let v = self.ir.ops[c].results[0];
                self.bind(op, 0, v)?;
            }
            // `kernel.mulhiu` is what kc exports as the high result (`mlir_gpu.rs`); the low
            // one is a plain multiply.
            "arith.mului_extended" => {
                let xs = self.operands(op)?;
                let ty = result_ty(self)?;
                let lo = self.emit1(Opcode::MulI, &xs, ty, loc);
                let hi = self.emit1(Opcode::MulHiU, &xs, ty, loc);
                self.bind(op, 0, lo)?;
                self.bind(op, 1, hi)?;
            }
            "arith.index_cast" | "arith.index_castui" => {
                let x = self.operands(op)?[0];
                let (from, to) = (self.ir.value_type(x), result_ty(self)?);
                let v = if from == to {
                    x
                } else {
                    let ext = if name == "arith.index_cast" {
                        Opcode::ExtSI
                    } else {
                        Opcode::ExtUI
                    };
                    let opc = if from.bits() < to.bits() {
                        ext
                    } else {
                        Opcode::TruncI
                    };
                    self.emit1(opc, &[x], to, loc)
                };
                self.bind(op, 0, v)?;
            }
            "arith.cmpi" | "arith.cmpf" => {
                let xs = self.operands(op)?;
                let p = op
                    .attribute("predicate")
                    .ok()
                    .and_then(|a| attr_int(&a.to_string()))
                    .ok_or_else(|| Self::unsupported(op, "no predicate"))?;
                let opc = if name == "arith.cmpi" {
                    Opcode::CmpI
                } else {
                    Opcode::CmpF
                };
                let c = self.emit(opc, &xs, &[Type::I1], loc);
                self.ir.set_attr(c, "predicate", Attr::Int(p, Type::I64));
                let v = self.ir.ops[c].results[0];
                self.bind(op, 0, v)?;
            }
            "memref.cast" => {
                let x = self.operands(op)?[0];
                if result_ty(self)? != self.ir.value_type(x) {
                    return Err(Self::unsupported(
                        op,
                        "a cast between address spaces or element types",
                    ));
                }
                self.bind(op, 0, x)?;
            }
            "memref.load" => {
                let xs = self.operands(op)?;
                if xs.len() != 2 {
                    return Err(Self::unsupported(op, "kc memrefs have rank 1"));
                }
                let v = self.emit1(Opcode::Load, &xs, result_ty(self)?, loc);
                self.bind(op, 0, v)?;
            }
            "memref.store" => {
                let xs = self.operands(op)?;
                if xs.len() != 3 {
                    return Err(Self::unsupported(op, "kc memrefs have rank 1"));
                }
                self.emit(Opcode::Store, &xs, &[], loc);
            }
            "memref.atomic_rmw" => {
                let xs = self.operands(op)?;
                if xs.len() != 3 {
                    return Err(Self::unsupported(op, "kc memrefs have rank 1"));
                }
                // MLIR's AtomicRMWKind numbering.
                let kind = match op
                    .attribute("kind")
                    .ok()
                    .and_then(|a| attr_int(&a.to_string()))
                {
                    Some(0) => "fadd",
                    Some(1) => "add",
                    Some(3) => "xchg",
                    Some(6) => "max",
                    Some(7) => "umax",
                    Some(10) => "min",
                    Some(11) => "umin",
                    _ => {
                        return Err(Self::unsupported(
                            op,
                            "kc has addf, addi, assign, maxs, maxu, mins, minu",
                        ))
                    }
                };
                let ty = result_ty(self)?;
                let (v, p, i) = (xs[0], xs[1], xs[2]);
                let p = self.emit1(Opcode::PtrOffset, &[p, i], self.ir.value_type(p), loc);
                let a = self.emit(Opcode::Atomic, &[p, v], &[ty], loc);
                self.ir.set_attr(a, "kind", Attr::Str(kind.into()));
                self.default_sync(a, p);
                let r = self.ir.ops[a].results[0];
                self.bind(op, 0, r)?;
            }
            "memref.generic_atomic_rmw" => self.compare_and_swap(op, loc)?,
            "gpu.thread_id" | "gpu.block_id" | "gpu.block_dim" | "gpu.grid_dim" => {
                let d = op
                    .attribute("dimension")
                    .ok()
                    .and_then(|a| gpu_enum(&a.to_string()).map(str::to_string))
                    .ok_or_else(|| Self::unsupported(op, "no dimension"))?;
                let opc = match name.as_str() {
                    "gpu.thread_id" => Opcode::WorkitemId,
                    "gpu.block_id" => Opcode::WorkgroupId,
                    "gpu.block_dim" => Opcode::WorkgroupSize,
                    _ => Opcode::NumWorkgroups,
                };
                let q = self.emit(opc, &[], &[Type::I32], loc);
                self.ir.set_attr(q, "dim", Attr::Str(d));
                let v = self.ir.ops[q].results[0];
                self.index_result(op, v, loc)?;
            }
            "gpu.lane_id" | "gpu.subgroup_size" => {
                if op.operand_count() > 0
                    || op.has_attribute("upper_bound") && name == "gpu.subgroup_size"
                {
                    return Err(Self::unsupported(op, "with operands or bounds"));
                }
                let opc = if name == "gpu.lane_id" {
                    Opcode::LaneId
                } else {
                    Opcode::WaveSize
                };
                let v = self.emit1(opc, &[], Type::I32, loc);
                self.index_result(op, v, loc)?;
            }
            "gpu.barrier" => {
                self.emit(Opcode::Barrier, &[], &[], loc);
            }
            "llvm.fence" => {
                // LLVM's AtomicOrdering numbering; no syncscope is the system scope.
                let ordering = match op
                    .attribute("ordering")
                    .ok()
                    .and_then(|a| attr_int(&a.to_string()))
                {
                    Some(4) => Ordering::Acquire,
                    Some(5) => Ordering::Release,
                    Some(6) => Ordering::AcqRel,
                    Some(7) => Ordering::SeqCst,
                    _ => {
                        return Err(Self::unsupported(
                            op,
                            "kc fences are acquire, release, acq_rel or seq_cst",
                        ))
                    }
                };
                let scope = match op.attribute("syncscope").ok().map(|a| a.to_string()) {
                    None => Some(Scope::System),
                    Some(t) => match t.trim().trim_matches('"') {
                        "" => Some(Scope::System),
                        name => Scope::from_name(name),
                    },
                };
                let Some(scope) = scope else {
                    return Err(Self::unsupported(
                        op,
                        "kc's scopes are wavefront, workgroup, agent and system",
                    ));
                };
                let f = self.emit(Opcode::Fence, &[], &[], loc);
                sync::set(self.ir, f, Sync { ordering, scope });
            }
            "rocdl.ballot" => {
                let xs = self.operands(op)?;
                if result_ty(self)? != Type::I64 {
                    return Err(Self::unsupported(
                        op,
                        "kc's ballot is the i64 mask of wave64",
                    ));
                }
                let v = self.emit1(Opcode::Ballot, &xs, Type::I64, loc);
                self.bind(op, 0, v)?;
            }
            "gpu.subgroup_broadcast" => {
                let xs = self.operands(op)?;
                let how = op
                    .attribute("broadcast_type")
                    .ok()
                    .and_then(|a| gpu_enum(&a.to_string()).map(str::to_string))
                    .unwrap_or_default();
                let ty = result_ty(self)?;
                let v = match (how.as_str(), xs.len()) {
                    ("first_active_lane", 1) => self.emit1(Opcode::ReadFirstLane, &xs, ty, loc),
                    ("specific_lane", 2) => self.emit1(Opcode::ReadLane, &xs, ty, loc),
                    _ => {
                        return Err(Self::unsupported(
                            op,
                            "kc has first_active_lane and specific_lane",
                        ))
                    }
                };
                self.bind(op, 0, v)?;
            }
            "gpu.subgroup_reduce" => {
                let xs = self.operands(op)?;
                if op.has_attribute("cluster_size") {
                    return Err(Self::unsupported(op, "clustered reductions"));
                }
                let ty = result_ty(self)?;
                let kind = op
                    .attribute("op")
                    .ok()
                    .and_then(|a| gpu_enum(&a.to_string()).map(str::to_string))
                    .unwrap_or_default();
                let float = ty == Type::F32;
                let k = match (kind.as_str(), float) {
                    ("add", false) => "add",
                    ("minsi", false) => "min",
                    ("maxsi", false) => "max",
                    ("minui", false) => "umin",
                    ("maxui", false) => "umax",
                    ("add", true) => "fadd",
                    ("minnumf", true) => "fmin",
                    ("maxnumf", true) => "fmax",
                    _ => {
                        return Err(Self::unsupported(
                            op,
                            &format!("reduction `{kind}` on {ty}"),
                        ))
                    }
                };
                let r = self.emit(Opcode::Reduce, &xs, &[ty], loc);
                self.ir.set_attr(r, "kind", Attr::Str(k.into()));
                let v = self.ir.ops[r].results[0];
                self.bind(op, 0, v)?;
            }
            "gpu.shuffle" => self.shuffle(op, loc)?,
            _ => {
                // arith ops kc has under the same name and operands.
                let opcode = Opcode::from_name(&name)
                    .filter(|o| name.starts_with("arith.") && !matches!(o, Opcode::Constant))
                    .ok_or_else(|| Self::unsupported(op, ""))?;
                let xs = self.operands(op)?;
                let ty = result_ty(self)?;
                let v = self.emit1(opcode, &xs, ty, loc);
                self.bind(op, 0, v)?;
            }
        }
        Ok(())
    }

    /// Binds `index` result 0 of `op` to kc `i32` value `v`, zero-extended.
    fn index_result(&mut self, op: &OperationRef, v: Value, loc: Loc) -> Res<()> {
        let wide = self.emit1(Opcode::ExtUI, &[v], Type::I64, loc);
        self.bind(op, 0, wide)
    }

    /// `gpu.shuffle MODE %v, %offset, %width` with width 64.
    fn shuffle(&mut self, op: &OperationRef, loc: Loc) -> Res<()> {
        let xs = self.operands(op)?;
        let (v, offset, width) = (xs[0], xs[1], xs[2]);
        if self.ir.int_constant(width) != Some(64) {
            return Err(Self::unsupported(
                op,
                "kc shuffles whole waves: the width must be the constant 64",
            ));
        }
        let mode = op
            .attribute("mode")
            .ok()
            .and_then(|a| gpu_enum(&a.to_string()).map(str::to_string))
            .unwrap_or_default();
        let source = if mode == "idx" {
            offset
        } else {
            let lane = self.emit1(Opcode::LaneId, &[], Type::I32, loc);
            let opc = match mode.as_str() {
                "xor" => Opcode::XOrI,
                "up" => Opcode::SubI,
                "down" => Opcode::AddI,
                _ => return Err(Self::unsupported(op, &format!("shuffle mode `{mode}`"))),
            };
            self.emit1(opc, &[lane, offset], Type::I32, loc)
        };
        let c64 = self.constant(64, Type::I32, loc);
        let cmp = self.emit(Opcode::CmpI, &[source, c64], &[Type::I1], loc);
        // `ult`: a negative source lane is out of range too.
        self.ir.set_attr(cmp, "predicate", Attr::Int(6, Type::I64));
        let valid = self.ir.ops[cmp].results[0];
        // An invalid lane (MLIR: an unspecified result) reads the lane itself: kc's shuffle
        // of a lane outside the wave is undefined.
        let own = self.emit1(Opcode::LaneId, &[], Type::I32, loc);
        let lane = self.emit1(Opcode::Select, &[valid, source, own], Type::I32, loc);
        let ty = self.ir.value_type(v);
        let r = self.emit1(Opcode::Shuffle, &[v, lane], ty, loc);
        self.bind(op, 0, r)?;
        self.bind(op, 1, valid)
    }

    /// `memref.generic_atomic_rmw` whose body is `%eq = arith.cmpi eq, %cur, %cmp;
    /// %new = arith.select %eq, %val, %cur; memref.atomic_yield %new` (with the compare's
    /// operands in either order): `kernel.atomic_cmpxchg`.
    fn compare_and_swap(&mut self, op: &OperationRef, loc: Loc) -> Res<()> {
        let not_cas = || {
            Self::unsupported(
                op,
                "kc reads the compare-and-swap form only (cmpi eq, select, atomic_yield)",
            )
        };
        let xs = self.operands(op)?;
        if xs.len() != 2 {
            return Err(Self::unsupported(op, "kc memrefs have rank 1"));
        }
        let body = op
            .region(0)
            .ok()
            .and_then(|r| r.first_block())
            .ok_or_else(not_cas)?;
        let ops = ops_of(body);
        let cur: MValue = body.argument(0).map_err(|_| not_cas())?.into();
        let [cmp, sel, yld] = ops.as_slice() else {
            return Err(not_cas());
        };
        let is = |o: &OperationRef, n: &str| op_name(o) == n;
        if !is(cmp, "arith.cmpi") || !is(sel, "arith.select") || !is(yld, "memref.atomic_yield") {
            return Err(not_cas());
        }
        if cmp
            .attribute("predicate")
            .ok()
            .and_then(|a| attr_int(&a.to_string()))
            != Some(0)
        {
            return Err(not_cas());
        }
        let key = |o: &OperationRef, i: usize| o.operand(i).map(value_key).ok();
        let cur_k = Some(value_key(cur));
        let expected = if key(cmp, 0) == cur_k {
            cmp.operand(1)
        } else if key(cmp, 1) == cur_k {
            cmp.operand(0)
        } else {
            return Err(not_cas());
        }
        .map_err(|_| not_cas())?;
        let cmp_result = cmp.result(0).map(|r| value_key(r.into())).ok();
        let sel_result = sel.result(0).map(|r| value_key(r.into())).ok();
        if key(sel, 0) != cmp_result || key(sel, 2) != cur_k || key(yld, 0) != sel_result {
            return Err(not_cas());
        }
        let new = sel.operand(1).map_err(|_| not_cas())?;
        let (expected, new) = (self.val(expected, op)?, self.val(new, op)?);
        let ty = self.ir.value_type(expected);
        let (p, i) = (xs[0], xs[1]);
        let p = self.emit1(Opcode::PtrOffset, &[p, i], self.ir.value_type(p), loc);
        let a = self.emit(Opcode::AtomicCmpxchg, &[p, expected, new], &[ty], loc);
        self.default_sync(a, p);
        let r = self.ir.ops[a].results[0];
        self.bind(op, 0, r)
    }

    /// memref's atomics have no ordering: kc's default (`seq_cst` at the widest scope of the
    /// pointer's memory); `--emit=mlir-gpu` writes other orderings as `llvm.fence`s around
    /// them, which come back as `kernel.fence`s.
    fn default_sync(&mut self, atomic: Op, p: Value) {
        let space = match self.ir.value_type(p) {
            Type::Ptr(space, _) => Some(space),
            _ => None,
        };
        sync::set(self.ir, atomic, Sync::default_for(space));
    }
}
