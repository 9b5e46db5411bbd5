//! The IR verifier.
//!
//! Invariants checked, in order (errors are collected, not fatal, so one run reports many):
//! 1. Shape: every linked op matches its registry entry (operand, result, region and
//!    successor counts); every region has a block; blocks of regions whose op requires
//!    terminators end in exactly one terminator, and only there; successors are blocks of the
//!    same region, never its entry block, and pass as many arguments as the target takes, of
//!    the same types.
//! 2. Nesting: `kernel.func` sits in the module; `kernel.return` in a kernel;
//!    `kernel.yield/break/continue` in structured regions (`break`/`continue` inside a
//!    `kernel.loop`); `kernel.if` / `kernel.loop` regions have exactly one block.
//! 3. Types: each op's own rules (`check_types`); a synchronizing op's `ordering` and `scope`
//!    (`crate::sync::check`: both present, named, the ordering allowed for the access).
//!    Limits: kernel parameters do not point to `i1`; each kernel's shared arrays fit in LDS
//!    ([`LdsLayout`]).
//! 4. Tokens: `!conv.token` values are only made by `conv.*`, only used as the trailing
//!    operand of convergent ops that take one (or as the parent of `conv.loop`), never block
//!    arguments. These hold at every stage; the static rules of controlled convergence
//!    (placement of `conv.entry` / `conv.loop`, cycles, mixing, nesting) are checked on CF
//!    kernels by [`verify_tokens`](crate::verify_tokens), which assumes this verifier passed.
//! 5. Dominance: every use is dominated by its definition (same block: defined earlier; a
//!    value from an enclosing region is visible in nested regions unless an isolated op lies
//!    between). Uses in unreachable blocks are not checked, as in MLIR.
//!
//! Cost: one walk over the IR ([`Ir::events`], no recursion, so regions nest to any depth)
//! with the path of enclosing ops on a stack; the nesting and visibility questions about an
//! op's ancestors are answered from that path in O(1) per use, and dominance between blocks
//! from one dominator tree per multi-block region.

use crate::analysis::{DomTree, RegionCfg};
use crate::attrs::Attr;
use crate::entities::{Block, Op, Region, Value};
use crate::ir::{Event, Ir, ValueDef};
use crate::location::Loc;
use crate::registry::{Arity, Keyword, Opcode, Traits};
use crate::types::{AddrSpace, Scalar, Type};
use cranelift_entity::SecondaryMap;
use rustc_hash::FxHashMap as HashMap;
use std::fmt;

/// One verifier finding.
#[derive(Clone, Debug, PartialEq)]
pub struct VerifyError {
    pub op: Op,
    pub loc: Loc,
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Verifies the whole module.
pub fn verify(ir: &Ir) -> Result<(), Vec<VerifyError>> {
    let mut v = Verifier {
        ir,
        errors: Vec::new(),
        order: SecondaryMap::with_capacity(ir.ops.len()),
        depth: SecondaryMap::with_default(UNKNOWN_DEPTH),
        path: Vec::new(),
        doms: HashMap::default(),
        lds: None,
    };
    v.number_ops();
    v.walk();
    v.check_unique_kernels();
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(v.errors)
    }
}

/// The rules of IR as a user writes it, beyond [`verify`]'s: what makes a program
/// meaningless without making the IR malformed, so that an optimization may still produce it
/// from a program whose behaviour is undefined (and the backend then compiles it as the
/// hardware would run it). A constant `kernel.readlane` lane must be a lane of the wave
/// (`0..64`): the reference interpreter stops at any other.
pub fn check_input(ir: &Ir) -> Result<(), Vec<VerifyError>> {
    let errors: Vec<VerifyError> = ir
        .descendants(ir.top)
        .filter(|&op| ir.opcode(op) == Opcode::ReadLane)
        .filter_map(|op| {
            let lane = ir.ops[op]
                .operands
                .get(1)
                .and_then(|&l| constant_int(ir, l))?;
            // The lane as the i32 it is (the attribute may spell it unsigned).
            let lane = lane as i32;
            (!(0..64).contains(&lane)).then(|| VerifyError {
                op,
                loc: ir.ops[op].loc,
                message: format!(
                    "`{}`: reads lane {lane}, which is not a lane of the wave (0..64)",
                    ir.spec(op).name
                ),
            })
        })
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The depth of an op not reachable from the module.
const UNKNOWN_DEPTH: u32 = u32::MAX;

/// An op on the path from the module to the op being checked.
struct PathEntry {
    op: Op,
    /// It is a `kernel.loop`, or inside one of the same kernel.
    in_loop: bool,
    /// Index in the path of the nearest isolated op at or above this one.
    isolated: Option<usize>,
}

struct Verifier<'a> {
    ir: &'a Ir,
    errors: Vec<VerifyError>,
    /// Position of each op in its block, for same-block dominance.
    order: SecondaryMap<Op, u32>,
    /// Region nesting depth of each op reachable from the module (the module is 0).
    depth: SecondaryMap<Op, u32>,
    /// The ops enclosing the op being checked, outermost first, and that op last: `path[d]`
    /// is its ancestor at depth `d`, so nesting and visibility questions cost O(1), not
    /// O(depth).
    path: Vec<PathEntry>,
    /// Lazily computed dominator trees of multi-block regions.
    doms: HashMap<Region, (RegionCfg, DomTree)>,
    /// The kernel whose shared arrays are being laid out, and their layout so far.
    lds: Option<(Op, LdsLayout)>,
}

/// Bytes of workgroup (LDS) memory a kernel may allocate on gfx942.
pub const LDS_LIMIT: u64 = 65536;

/// Bytes one element of type `s` occupies in memory. `i1` takes a whole dword: the
/// backend loads and stores it as one (`ds_read_b32` / `ds_write_b32`), so its arrays
/// are laid out with 4-byte elements, never 0 (`bits() / 8`).
pub fn storage_bytes(s: Scalar) -> u64 {
    match s {
        Scalar::I1 | Scalar::I32 | Scalar::F32 => 4,
        Scalar::I64 => 8,
    }
}

/// The layout of a kernel's shared arrays in LDS: in allocation order, each at the next
/// 8-byte-aligned offset. The one place that sizes LDS: the `.k` checker, this verifier
/// and the backend's `kernel.shared_alloc` all place arrays through it.
///
/// Whatever the order, the rounded-up total is the sum of each array's size rounded up to
/// 8 (every array but the last is padded to 8, and [`LDS_LIMIT`] is a multiple of 8), so a
/// kernel fits in [`LDS_LIMIT`] in one order if and only if it fits in every order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LdsLayout {
    /// The end of the last array placed: the kernel's LDS size.
    pub size: u64,
}

impl LdsLayout {
    /// Places an array of `len` elements of `elem`; its byte offset, or `None` when the
    /// end would not fit in a `u64` (arithmetic is checked: an attribute can hold any
    /// `i64`).
    /// An overflow leaves the layout at `u64::MAX`: it no longer fits.
    pub fn place(&mut self, len: u64, elem: Scalar) -> Option<u64> {
        let base = self.size.checked_next_multiple_of(8);
        let end = base.and_then(|b| b.checked_add(len.checked_mul(storage_bytes(elem))?));
        self.size = end.unwrap_or(u64::MAX);
        end.and(base)
    }

    /// Does the layout fit in [`LDS_LIMIT`]?
    pub fn fits(&self) -> bool {
        self.size <= LDS_LIMIT
    }
}

/// Is `name` usable as a kernel's symbol: an identifier as in `.k` source
/// (`[A-Za-z_][A-Za-z0-9_]*`)? Such a name assembles unquoted, cannot be a local label
/// (`.L...`) or clash with kc's own labels, and stays a string in the YAML metadata (where
/// the printer still tags words YAML reads as numbers or booleans).
pub fn is_kernel_symbol(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl Verifier<'_> {
    /// Kernel names are unique in the module (each is a global symbol).
    fn check_unique_kernels(&mut self) {
        let ir = self.ir;
        let mut seen: HashMap<&str, Op> = HashMap::default();
        for k in ir.kernels() {
            let Some(name) = ir.attr(k, "sym_name").and_then(Attr::as_str) else {
                continue;
            };
            if let Some(&first) = seen.get(name) {
                let at = ir.ops[first].loc;
                let first_at = if at.is_known() {
                    format!(
                        " (first at {}:{}:{})",
                        ir.file_name(at.file),
                        at.line,
                        at.col
                    )
                } else {
                    String::new()
                };
                self.err(k, format!("kernel `{name}` is defined twice{first_at}"));
            } else {
                seen.insert(name, k);
            }
        }
    }

    fn err(&mut self, op: Op, message: impl Into<String>) {
        self.errors.push(VerifyError {
            op,
            loc: self.ir.ops[op].loc,
            message: message.into(),
        });
    }

    fn number_ops(&mut self) {
        let ir = self.ir;
        self.depth[ir.top] = 0;
        let mut stack = vec![ir.top];
        while let Some(op) = stack.pop() {
            let d = self.depth[op] + 1;
            for &r in &ir.ops[op].regions {
                for b in ir.region_blocks(r) {
                    for (i, o) in ir.block_ops(b).enumerate() {
                        self.order[o] = i as u32;
                        self.depth[o] = d;
                        stack.push(o);
                    }
                }
            }
        }
    }

    /// Checks every op, then each of its regions before the ops in it.
    fn walk(&mut self) {
        let ir = self.ir;
        for event in ir.events(ir.top) {
            match event {
                Event::Op(op) => {
                    let parent = self.path.last();
                    let code = ir.opcode(op);
                    let in_loop = code == Opcode::Loop
                        || (code != Opcode::Func && parent.is_some_and(|p| p.in_loop));
                    let isolated = if ir.spec(op).has(Traits::ISOLATED) {
                        Some(self.path.len())
                    } else {
                        parent.and_then(|p| p.isolated)
                    };
                    self.path.push(PathEntry {
                        op,
                        in_loop,
                        isolated,
                    });
                    self.check_shape(op);
                    self.check_nesting(op);
                    self.check_types(op);
                    self.check_tokens(op);
                    self.check_dominance(op);
                    if code == Opcode::SharedAlloc {
                        self.check_lds(op);
                    }
                }
                Event::Region(r) => {
                    if let Some(op) = ir.region_parent(r) {
                        self.check_region(op, r);
                    }
                }
                Event::OpEnd(_) => {
                    self.path.pop();
                }
                Event::Block(_) | Event::RegionEnd(_) => {}
            }
        }
    }

    /// A kernel's shared arrays fit in LDS ([`LdsLayout`], [`LDS_LIMIT`]); reported once per
    /// kernel, at the array that crosses the limit.
    fn check_lds(&mut self, op: Op) {
        let ir = self.ir;
        let Some(kernel) = self
            .path
            .iter()
            .rev()
            .map(|e| e.op)
            .find(|&o| ir.opcode(o) == Opcode::Func)
        else {
            return;
        };
        let (Some(len), Some(Type::Ptr(_, elem))) = (
            ir.attr(op, "size").and_then(Attr::as_int),
            ir.ops[op].results.first().map(|&r| ir.value_type(r)),
        ) else {
            return; // check_types reports it
        };
        let Ok(len) = u64::try_from(len) else {
            return; // a non-positive size: check_types reports it
        };
        if !matches!(self.lds, Some((k, _)) if k == kernel) {
            self.lds = Some((kernel, LdsLayout::default()));
        }
        let Some((_, layout)) = self.lds.as_mut() else {
            return;
        };
        let fitted = layout.fits();
        layout.place(len, elem);
        if fitted && !layout.fits() {
            let name = ir
                .attr(kernel, "sym_name")
                .and_then(Attr::as_str)
                .unwrap_or("?");
            let need = if layout.size == u64::MAX {
                "over 2^64".to_string()
            } else {
                layout.size.to_string()
            };
            self.err(
                op,
                format!(
                    "kernel `{name}` needs {need} bytes of shared memory (its arrays at \
                     8-byte-aligned offsets), more than the {LDS_LIMIT} bytes of LDS"
                ),
            );
        }
    }

    /// The entry of the op being checked's parent, if any.
    fn parent_entry(&self) -> Option<&PathEntry> {
        self.path.len().checked_sub(2).map(|i| &self.path[i])
    }

    fn check_shape(&mut self, op: Op) {
        let ir = self.ir;
        let data = &ir.ops[op];
        let spec = data.opcode.spec();
        let name = spec.name;
        if !spec.operands.accepts(data.operands.len()) {
            self.err(
                op,
                format!(
                    "`{name}` expects {} operands, has {}",
                    spec.operands,
                    data.operands.len()
                ),
            );
        }
        if !spec.results.accepts(data.results.len()) {
            self.err(
                op,
                format!(
                    "`{name}` expects {} results, has {}",
                    spec.results,
                    data.results.len()
                ),
            );
        }
        if data.regions.len() != spec.regions as usize {
            self.err(
                op,
                format!(
                    "`{name}` expects {} regions, has {}",
                    spec.regions,
                    data.regions.len()
                ),
            );
        }
        if !spec.succs.accepts(data.succs.len()) {
            self.err(
                op,
                format!(
                    "`{name}` expects {} successors, has {}",
                    spec.succs,
                    data.succs.len()
                ),
            );
        }
        if let Some(kw) = spec.keyword {
            self.check_keyword(op, kw);
        }
        let Some(block) = ir.op_block(op) else { return };
        let region = ir.block_region(block);
        for (i, s) in data.succs.iter().enumerate() {
            if ir.block_region(s.block) != region {
                self.err(
                    op,
                    format!("successor #{i} of `{name}` is not a block of the same region"),
                );
                continue;
            }
            if region.and_then(|r| ir.entry_block(r)) == Some(s.block) {
                self.err(
                    op,
                    format!("successor #{i} of `{name}` is the region's entry block"),
                );
            }
            let params = &ir.blocks[s.block].args;
            if params.len() != s.args.len() {
                self.err(
                    op,
                    format!(
                        "successor #{i} of `{name}` passes {} arguments, the block takes {}",
                        s.args.len(),
                        params.len()
                    ),
                );
                continue;
            }
            for (k, (&a, &p)) in s.args.iter().zip(params).enumerate() {
                let (ta, tp) = (ir.value_type(a), ir.value_type(p));
                if ta != tp {
                    self.err(op, format!("successor #{i} argument #{k} has type {ta}, the block argument is {tp}"));
                }
            }
        }
    }

    fn check_keyword(&mut self, op: Op, kw: Keyword) {
        let ir = self.ir;
        let attr = ir.attr(op, kw.attr());
        let name = ir.spec(op).name;
        let ok = match (kw, attr) {
            (Keyword::Enum(_, names), Some(Attr::Int(i, _))) => (0..names.len() as i64).contains(i),
            (Keyword::Ident(_, names), Some(Attr::Str(s))) => names.contains(&s.as_str()),
            (Keyword::Symbol(_), Some(Attr::Str(s))) => !s.is_empty(),
            (Keyword::Literal(_), Some(Attr::Int(..) | Attr::Float(_))) => true,
            _ => false,
        };
        if !ok {
            let shown = attr.map_or("missing".to_string(), |a| a.to_string());
            self.err(
                op,
                format!(
                    "`{name}` has an invalid `{}` attribute ({shown})",
                    kw.attr()
                ),
            );
        }
    }

    /// Region-level rules: at least one block; terminators where required.
    fn check_region(&mut self, op: Op, r: Region) {
        let ir = self.ir;
        let spec = ir.spec(op);
        let Some(entry) = ir.entry_block(r) else {
            self.err(op, format!("region of `{}` has no block", spec.name));
            return;
        };
        let structured = matches!(ir.opcode(op), Opcode::If | Opcode::Loop);
        if structured && ir.next_block(entry).is_some() {
            self.err(
                op,
                format!("regions of `{}` must have exactly one block", spec.name),
            );
        }
        if ir.opcode(op) == Opcode::Func
            && ir.blocks[entry]
                .args
                .iter()
                .any(|&a| matches!(ir.value_type(a), Type::Token | Type::Var(_)))
        {
            self.err(op, "kernel parameters cannot be tokens or variables");
        }
        if ir.opcode(op) == Opcode::Func {
            let bool_ptr = ir.blocks[entry]
                .args
                .iter()
                .find(|&&a| matches!(ir.value_type(a), Type::Ptr(_, Scalar::I1)));
            if let Some(&a) = bool_ptr {
                let at = ir.values[a].loc;
                self.errors.push(VerifyError {
                    op,
                    loc: if at.is_known() { at } else { ir.ops[op].loc },
                    message: "a kernel parameter cannot point to i1: bool has no memory \
                              representation a host buffer could hold"
                        .into(),
                });
            }
        }
        for b in ir.region_blocks(r) {
            if spec.has(Traits::NO_TERMINATOR) {
                continue;
            }
            self.check_block_terminator(op, b);
        }
    }

    fn check_block_terminator(&mut self, parent: Op, b: Block) {
        let ir = self.ir;
        match ir.last_op(b) {
            None => self.err(
                parent,
                format!(
                    "a block in `{}` is empty (needs a terminator)",
                    ir.spec(parent).name
                ),
            ),
            Some(last) if !ir.spec(last).is_terminator() => self.err(
                last,
                format!(
                    "block does not end in a terminator (last op is `{}`)",
                    ir.spec(last).name
                ),
            ),
            Some(last) => {
                for o in ir.block_ops(b) {
                    if o != last && ir.spec(o).is_terminator() {
                        self.err(
                            o,
                            format!(
                                "terminator `{}` is not the last op of its block",
                                ir.spec(o).name
                            ),
                        );
                    }
                }
            }
        }
    }

    fn check_nesting(&mut self, op: Op) {
        let ir = self.ir;
        let parent = ir.parent_op(op).map(|p| ir.opcode(p));
        let code = ir.opcode(op);
        match code {
            Opcode::Module if op != ir.top => self.err(op, "`builtin.module` may not be nested"),
            Opcode::Func if parent != Some(Opcode::Module) => {
                self.err(op, "`kernel.func` must be directly inside the module")
            }
            Opcode::Module | Opcode::Func => {}
            _ if parent == Some(Opcode::Module) => self.err(
                op,
                format!("`{}` must be inside a kernel", ir.spec(op).name),
            ),
            Opcode::Yield if !matches!(parent, Some(Opcode::If | Opcode::Loop)) => self.err(
                op,
                "`kernel.yield` must end a region of `kernel.if` or `kernel.loop`",
            ),
            Opcode::Break | Opcode::Continue if !self.parent_entry().is_some_and(|p| p.in_loop) => {
                self.err(
                    op,
                    format!("`{}` outside of a `kernel.loop`", ir.spec(op).name),
                );
            }
            Opcode::Br | Opcode::CondBr if parent != Some(Opcode::Func) => self.err(
                op,
                format!(
                    "`{}` may only appear in a kernel's CFG region",
                    ir.spec(op).name
                ),
            ),
            _ => {}
        }
    }

    /// Per-op type rules.
    fn check_types(&mut self, op: Op) {
        let ir = self.ir;
        let data = &ir.ops[op];
        let name = data.opcode.spec().name;
        let ty = |i: usize| data.operands.get(i).map(|&v| ir.value_type(v));
        let res = |i: usize| data.results.get(i).map(|&v| ir.value_type(v));
        let mut problems: Vec<String> = Vec::new();
        let mut need = |cond: bool, what: &str| {
            if !cond {
                problems.push(format!("`{name}`: {what}"));
            }
        };
        let int = |t: Option<Type>| t.is_some_and(Type::is_int);
        // An element index is an i32 or i64 (an i1 has no meaning as an address offset, and
        // the backend holds a divergent one as a lane mask, not a number).
        let index = |t: Option<Type>| matches!(t, Some(Type::I32 | Type::I64));
        let f32 = |t: Option<Type>| t == Some(Type::F32);
        use Opcode::*;
        match data.opcode {
            AddI | SubI | MulI | DivSI | DivUI | RemSI | RemUI | AndI | OrI | XOrI | ShLI
            | ShRSI | ShRUI | MinSI | MaxSI | MinUI | MaxUI => need(
                int(ty(0)) && ty(0) == ty(1) && ty(0) == res(0),
                "operands and result must be the same integer type",
            ),
            MulHiU => need(
                ty(0) == Some(Type::I32) && ty(1) == Some(Type::I32) && res(0) == Some(Type::I32),
                "operands and result must be i32",
            ),
            AddF | SubF | MulF | DivF | RemF | MinimumF | MaximumF => need(
                f32(ty(0)) && f32(ty(1)) && f32(res(0)),
                "operands and result must be f32",
            ),
            NegF => need(f32(ty(0)) && f32(res(0)), "operand and result must be f32"),
            CmpI => need(
                int(ty(0)) && ty(0) == ty(1) && res(0) == Some(Type::I1),
                "compares two integers of one type into i1",
            ),
            CmpF => need(
                f32(ty(0)) && f32(ty(1)) && res(0) == Some(Type::I1),
                "compares two f32 into i1",
            ),
            Select => need(
                ty(0) == Some(Type::I1) && ty(1) == ty(2) && ty(1) == res(0),
                "takes an i1 condition and two values of the result type",
            ),
            ExtSI | ExtUI => need(
                int(ty(0)) && int(res(0)) && bits(ty(0)) < bits(res(0)),
                "extends to a wider integer",
            ),
            TruncI => need(
                int(ty(0)) && int(res(0)) && bits(ty(0)) > bits(res(0)),
                "truncates to a narrower integer",
            ),
            SIToFP | UIToFP => need(int(ty(0)) && f32(res(0)), "converts an integer to f32"),
            FPToSI | FPToUI => need(f32(ty(0)) && int(res(0)), "converts f32 to an integer"),
            Bitcast => need(
                ty(0).and_then(Type::scalar).is_some() && bits(ty(0)) == bits(res(0)),
                "casts between scalars of the same width",
            ),
            Constant => {
                let ok = match (ir.attr(op, "value"), res(0)) {
                    (Some(Attr::Int(_, t)), Some(r)) => *t == r && r.is_int(),
                    (Some(Attr::Float(_)), Some(r)) => r == Type::F32,
                    _ => false,
                };
                need(ok, "the value attribute must have the result type")
            }
            CondBr => need(ty(0) == Some(Type::I1), "the condition must be i1"),
            If => need(ty(0) == Some(Type::I1), "the condition must be i1"),
            Var => need(
                matches!(res(0), Some(Type::Var(s)) if ty(0) == Some(Type::Scalar(s))),
                "declares !kernel.var<T> from an initial T",
            ),
            Get => need(
                matches!(ty(0), Some(Type::Var(s)) if res(0) == Some(Type::Scalar(s))),
                "reads a !kernel.var<T> as T",
            ),
            Set => need(
                matches!(ty(0), Some(Type::Var(s)) if ty(1) == Some(Type::Scalar(s))),
                "writes a T into a !kernel.var<T>",
            ),
            WorkitemId | WorkgroupId | WorkgroupSize | NumWorkgroups | LaneId | WaveSize => {
                need(res(0) == Some(Type::I32), "the result must be i32")
            }
            SharedAlloc => need(
                matches!(res(0), Some(Type::Ptr(AddrSpace::Shared, _)))
                    && ir
                        .attr(op, "size")
                        .and_then(Attr::as_int)
                        .is_some_and(|n| n > 0),
                "allocates a positive number of elements and returns a shared pointer",
            ),
            PtrOffset => need(
                matches!(ty(0), Some(Type::Ptr(..))) && index(ty(1)) && res(0) == ty(0),
                "offsets a pointer by an i32 or i64 index",
            ),
            Load => need(
                matches!(ty(0), Some(Type::Ptr(_, e)) if res(0) == Some(Type::Scalar(e)))
                    && index(ty(1)),
                "loads the pointer's element type at an i32 or i64 index",
            ),
            Store => need(
                matches!(ty(1), Some(Type::Ptr(_, e)) if ty(0) == Some(Type::Scalar(e)))
                    && index(ty(2)),
                "stores the pointer's element type at an i32 or i64 index",
            ),
            Atomic => need(
                matches!(ty(0), Some(Type::Ptr(_, e)) if ty(1) == Some(Type::Scalar(e)) && res(0) == ty(1)),
                "updates a pointer's element with a value of its type and returns the old value",
            ),
            AtomicCmpxchg => need(
                matches!(ty(0), Some(Type::Ptr(_, e)) if ty(1) == Some(Type::Scalar(e)) && ty(2) == ty(1) && res(0) == ty(1)),
                "compares and exchanges values of the pointer's element type",
            ),
            AtomicLoad => need(
                matches!(ty(0), Some(Type::Ptr(_, e)) if e != Scalar::I1 && res(0) == Some(Type::Scalar(e))),
                "loads the pointer's element type (not i1)",
            ),
            AtomicStore => need(
                matches!(ty(1), Some(Type::Ptr(_, e)) if e != Scalar::I1 && ty(0) == Some(Type::Scalar(e))),
                "stores the pointer's element type (not i1)",
            ),
            Ballot => need(
                ty(0) == Some(Type::I1) && res(0) == Some(Type::I64),
                "takes an i1 and returns an i64 mask",
            ),
            ReadFirstLane | Reduce | Scan => need(
                ty(0)
                    .and_then(Type::scalar)
                    .is_some_and(|s| s != Scalar::I1)
                    && res(0) == ty(0),
                "returns a value of its operand's (non-i1 scalar) type",
            ),
            ReadLane | Shuffle => need(
                ty(0)
                    .and_then(Type::scalar)
                    .is_some_and(|s| s != Scalar::I1)
                    && ty(1) == Some(Type::I32)
                    && res(0) == ty(0),
                "takes a value and an i32 lane and returns the value's type",
            ),
            ConvEntry | ConvAnchor => need(res(0) == Some(Type::Token), "returns !conv.token"),
            ConvLoop => need(
                ty(0) == Some(Type::Token) && res(0) == Some(Type::Token),
                "takes the parent token and returns !conv.token",
            ),
            Func => match ir.attr(op, "sym_name").and_then(Attr::as_str) {
                Some(name) if !is_kernel_symbol(name) => problems.push(format!(
                    "kernel name {name:?} is not an identifier ([A-Za-z_][A-Za-z0-9_]*): \
                     kernel names become assembler symbols and code-object metadata"
                )),
                Some(_) => {}
                None => problems.push("needs a `sym_name`".into()),
            },
            Module | Return | Loop | Yield | Break | Continue | Br | Barrier | Fence => {}
        }
        if let Some(p) = crate::sync::check(ir, op) {
            problems.push(format!("`{name}`: {p}"));
        }
        for p in problems {
            self.err(op, p);
        }
    }

    fn check_tokens(&mut self, op: Op) {
        let ir = self.ir;
        let data = &ir.ops[op];
        let spec = data.opcode.spec();
        for (i, &v) in data.operands.iter().enumerate() {
            if ir.value_type(v) != Type::Token {
                continue;
            }
            // The token is the optional operand past the op's required ones, and the last.
            let required = match spec.operands {
                Arity::Exact(k) | Arity::AtLeast(k) => k as usize,
            };
            let last = i + 1 == data.operands.len() && i >= required;
            let allowed =
                (spec.has(Traits::TAKES_TOKEN) && last) || data.opcode == Opcode::ConvLoop;
            if !allowed {
                self.err(
                    op,
                    format!(
                        "`{}` cannot take a convergence token as operand #{i}",
                        spec.name
                    ),
                );
            }
        }
        if spec.has(Traits::TAKES_TOKEN) {
            let required = match spec.operands {
                Arity::Exact(k) | Arity::AtLeast(k) => k as usize,
            };
            let extra = &data.operands[required.min(data.operands.len())..];
            if extra.len() > 1 || extra.iter().any(|&v| ir.value_type(v) != Type::Token) {
                self.err(
                    op,
                    format!(
                        "`{}` takes {required} operands and an optional convergence token",
                        spec.name
                    ),
                );
            }
        }
        for s in &data.succs {
            if s.args.iter().any(|&a| ir.value_type(a) == Type::Token) {
                self.err(op, "convergence tokens cannot be passed as block arguments");
            }
        }
    }

    fn check_dominance(&mut self, user: Op) {
        let ir = self.ir;
        // `uses` borrows the IR, not the verifier, so no copy of the operands is needed.
        for v in ir.uses(user) {
            if let Err(msg) = self.visible(v, user) {
                let shown = ir.value_name(v).map_or(format!("{v}"), |n| format!("%{n}"));
                self.err(
                    user,
                    format!("operand {shown} of `{}` {msg}", ir.spec(user).name),
                );
            }
        }
    }

    /// Is value `v` usable at op `user`?
    fn visible(&mut self, v: Value, user: Op) -> Result<(), &'static str> {
        let ir = self.ir;
        let def_block = match ir.values[v].def {
            ValueDef::Result(d, _) if ir.op_block(d).is_none() => {
                return Err("is defined by an op not in the IR")
            }
            ValueDef::Result(d, _) => ir
                .op_block(d)
                .unwrap_or_else(|| unreachable!("checked above: {d}")),
            ValueDef::BlockArg(b, _) => b,
        };
        let Some(def_region) = ir.block_region(def_block) else {
            return Err("is defined in a block not in the IR");
        };
        // The user's ancestor in the defining region (or the user itself), found by depth on
        // the path; no isolated op may lie between them.
        let Some(du) = self.path.len().checked_sub(1) else {
            return Err("is used outside its defining region");
        };
        debug_assert_eq!(self.path[du].op, user);
        let d = ir
            .region_parent(def_region)
            .map(|p| self.depth[p])
            .filter(|&d| d != UNKNOWN_DEPTH)
            .map(|d| d as usize + 1)
            .filter(|&d| d <= du)
            .filter(|&d| {
                ir.op_block(self.path[d].op)
                    .and_then(|b| ir.block_region(b))
                    == Some(def_region)
            });
        // Isolated ops strictly above the user and at or below the defining region.
        let isolated_above = du
            .checked_sub(1)
            .and_then(|i| self.path[i].isolated)
            .is_some_and(|i| i >= d.unwrap_or(0));
        if isolated_above {
            return Err("is defined outside an isolated op (not visible inside)");
        }
        let Some(d) = d else {
            return Err("is used outside its defining region");
        };
        let at = self.path[d].op;
        let use_block = ir
            .op_block(at)
            .unwrap_or_else(|| unreachable!("loop exits with a block"));
        if use_block == def_block {
            return match ir.values[v].def {
                ValueDef::Result(d, _) if self.order[d] >= self.order[at] => {
                    Err("is used before its definition")
                }
                _ => Ok(()),
            };
        }
        let (cfg, dom) = self.doms.entry(def_region).or_insert_with(|| {
            let cfg = RegionCfg::compute(ir, def_region);
            let dom = DomTree::dominators(&cfg);
            (cfg, dom)
        });
        let (Some(d), Some(u)) = (cfg.node(def_block), cfg.node(use_block)) else {
            return Err("is used outside its defining region");
        };
        if !dom.is_reachable(u) || dom.dominates(d, u) {
            Ok(())
        } else {
            Err("does not dominate this use")
        }
    }
}

/// The value of `v` when an `arith.constant` integer defines it.
fn constant_int(ir: &Ir, v: Value) -> Option<i64> {
    match ir.values[v].def {
        ValueDef::Result(op, 0) if ir.opcode(op) == Opcode::Constant => {
            ir.attr(op, "value").and_then(Attr::as_int)
        }
        _ => None,
    }
}

fn bits(t: Option<Type>) -> u32 {
    t.map_or(0, Type::bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lds_layout_aligns_checks_and_saturates() {
        let mut l = LdsLayout::default();
        assert_eq!(l.place(1, Scalar::I32), Some(0));
        assert_eq!(l.place(3, Scalar::I1), Some(8));
        assert_eq!(l.place(1, Scalar::I64), Some(24));
        assert_eq!(l.size, 32);
        assert!(l.fits());
        assert_eq!(l.place(u64::MAX / 4, Scalar::I64), None);
        assert_eq!(l.size, u64::MAX);
        assert!(!l.fits());
        assert_eq!(l.place(1, Scalar::I32), None);
    }

    fn kernel(ir: &mut Ir) -> (Op, Block) {
        let f = ir.create_op(Opcode::Func, &[], &[], Loc::UNKNOWN);
        ir.set_attr(f, "sym_name", Attr::Str("k".into()));
        let r = ir.add_region(f);
        let b = ir.create_block();
        ir.append_block(r, b);
        let top = ir.top_block();
        ir.append_op(top, f);
        (f, b)
    }

    fn errors(ir: &Ir) -> Vec<String> {
        verify(ir)
            .err()
            .unwrap_or_default()
            .into_iter()
            .map(|e| e.message)
            .collect()
    }

    #[test]
    fn accepts_a_cfg_diamond() {
        let mut ir = Ir::new();
        let (f, entry) = kernel(&mut ir);
        let r = ir.ops[f].regions[0];
        let (then, merge) = (ir.create_block(), ir.create_block());
        ir.append_block(r, then);
        ir.append_block(r, merge);
        let x = ir.add_block_arg(merge, Type::I32, None, Loc::UNKNOWN);
        let tid = ir.create_op(Opcode::WorkitemId, &[], &[Type::I32], Loc::UNKNOWN);
        ir.set_attr(tid, "dim", Attr::Str("x".into()));
        ir.append_op(entry, tid);
        let t = ir.ops[tid].results[0];
        let c = ir.create_op(Opcode::CmpI, &[t, t], &[Type::I1], Loc::UNKNOWN);
        ir.set_attr(c, "predicate", Attr::Int(0, Type::I64));
        ir.append_op(entry, c);
        let cv = ir.ops[c].results[0];
        let br = ir.create_op(Opcode::CondBr, &[cv], &[], Loc::UNKNOWN);
        ir.add_successor(br, then, &[]);
        ir.add_successor(br, merge, &[t]);
        ir.append_op(entry, br);
        let br2 = ir.create_op(Opcode::Br, &[], &[], Loc::UNKNOWN);
        ir.add_successor(br2, merge, &[t]);
        ir.append_op(then, br2);
        let ret = ir.create_op(Opcode::Return, &[], &[], Loc::UNKNOWN);
        ir.append_op(merge, ret);
        assert_eq!(errors(&ir), Vec::<String>::new());
        let _ = x;
    }

    #[test]
    fn reports_dominance_types_and_terminators() {
        let mut ir = Ir::new();
        let (f, entry) = kernel(&mut ir);
        let r = ir.ops[f].regions[0];
        let (a, b) = (ir.create_block(), ir.create_block());
        ir.append_block(r, a);
        ir.append_block(r, b);
        // entry: cond_br on an i32 (type error) to a / b
        let c = ir.create_op(Opcode::Constant, &[], &[Type::I32], Loc::UNKNOWN);
        ir.set_attr(c, "value", Attr::Int(1, Type::I32));
        ir.append_op(entry, c);
        let cv = ir.ops[c].results[0];
        let br = ir.create_op(Opcode::CondBr, &[cv], &[], Loc::UNKNOWN);
        ir.add_successor(br, a, &[]);
        ir.add_successor(br, b, &[]);
        ir.append_op(entry, br);
        // a defines x, b uses it: not dominated.
        let x = ir.create_op(Opcode::AddI, &[cv, cv], &[Type::I32], Loc::UNKNOWN);
        ir.append_op(a, x);
        let xv = ir.ops[x].results[0];
        let ret = ir.create_op(Opcode::Return, &[], &[], Loc::UNKNOWN);
        ir.append_op(a, ret);
        let y = ir.create_op(Opcode::AddI, &[xv, cv], &[Type::I32], Loc::UNKNOWN);
        ir.append_op(b, y);
        // b has no terminator.
        let errs = errors(&ir);
        assert!(
            errs.iter().any(|e| e.contains("the condition must be i1")),
            "{errs:?}"
        );
        assert!(
            errs.iter().any(|e| e.contains("does not dominate")),
            "{errs:?}"
        );
        assert!(
            errs.iter()
                .any(|e| e.contains("does not end in a terminator")),
            "{errs:?}"
        );
    }

    #[test]
    fn token_and_nesting_rules() {
        let mut ir = Ir::new();
        let (_f, entry) = kernel(&mut ir);
        let t = ir.create_op(Opcode::ConvAnchor, &[], &[Type::Token], Loc::UNKNOWN);
        ir.append_op(entry, t);
        let tv = ir.ops[t].results[0];
        let bad = ir.create_op(Opcode::ReadFirstLane, &[tv], &[Type::Token], Loc::UNKNOWN);
        ir.append_op(entry, bad);
        let brk = ir.create_op(Opcode::Break, &[], &[], Loc::UNKNOWN);
        ir.append_op(entry, brk);
        let errs = errors(&ir);
        assert!(
            errs.iter()
                .any(|e| e.contains("cannot take a convergence token")),
            "{errs:?}"
        );
        assert!(
            errs.iter()
                .any(|e| e.contains("outside of a `kernel.loop`")),
            "{errs:?}"
        );
    }
}
