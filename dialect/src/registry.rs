//! The dialect registry: every op kc knows, with its shape and traits.
//!
//! One table (`ops!` below) declares, per op: its MLIR name, its traits, how many operands,
//! results, regions and successors it has, and which attribute (if any) the custom text form
//! prints as a bare keyword right after the op name (`kernel.workitem_id x`,
//! `arith.cmpi slt, ...`; the upstream ops' custom syntax is MLIR's, `text::print::Upstream`). The verifier checks ops against this table; per-op type rules live
//! in `verify.rs`. Four dialects:
//!
//! - `kernel`: the kernel-level dialect. Kernels (`kernel.func`), thread ids, memory, atomics
//!   and fences (with `ordering` and `scope` attributes, `crate::sync`), cross-lane ops,
//!   barrier, and structured control flow (`kernel.if`, `kernel.loop` with
//!   `kernel.break` / `kernel.continue` / `kernel.yield`) over mutable variables
//!   (`kernel.var` / `kernel.get` / `kernel.set`). `kernel.return` ends a kernel from any depth.
//! - `arith`: MLIR's `arith` subset (signless integers, f32), same names, attributes and custom
//!   syntax, so upstream `mlir-opt` reads and verifies them.
//! - `cf`: MLIR's `cf.br` / `cf.cond_br` with block arguments instead of phis.
//! - `conv`: convergence tokens (`conv.entry`, `conv.anchor`, `conv.loop`), LLVM's controlled
//!   convergence. Convergent kernel ops take an optional trailing `!conv.token` operand.

use std::fmt;

pub mod mlir_defs;
pub mod syntax;

/// Op traits, a small bit set.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Traits(u32);

impl Traits {
    pub const NONE: Traits = Traits(0);
    /// No side effects; may be removed if unused.
    pub const PURE: Traits = Traits(1 << 0);
    /// Ends a block.
    pub const TERMINATOR: Traits = Traits(1 << 1);
    /// Communicates with other threads: may not be made control dependent on more values
    /// (no sinking into a branch, no moving across a divergent branch).
    pub const CONVERGENT: Traits = Traits(1 << 2);
    /// Its result depends on the exact set of threads executing it, so it may not be moved to a
    /// point executed by a different set of threads in either direction (ballot, readfirstlane).
    pub const CO_CONVERGENT: Traits = Traits(1 << 3);
    /// Results are divergent whatever the operands (thread ids, atomics).
    pub const DIVERGENCE_SOURCE: Traits = Traits(1 << 4);
    /// Results are uniform whatever the operands (ballot, readfirstlane, group ids).
    pub const ALWAYS_UNIFORM: Traits = Traits(1 << 5);
    /// Values defined outside the op's regions are not visible inside.
    pub const ISOLATED: Traits = Traits(1 << 6);
    /// Regions of this op do not end in terminators (a plain list of ops).
    pub const NO_TERMINATOR: Traits = Traits(1 << 7);
    /// May take one trailing `!conv.token` operand (controlled convergence).
    pub const TAKES_TOKEN: Traits = Traits(1 << 8);
    /// Registered upstream in MLIR: inherent attributes print as properties `<{...}>`.
    pub const UPSTREAM: Traits = Traits(1 << 9);
    /// Reads or writes memory.
    pub const MEMORY: Traits = Traits(1 << 10);
    /// Synchronizes: carries a memory ordering and a scope (`ordering`, `scope` attributes,
    /// `crate::sync`), which say what other memory accesses may be reordered with it
    /// (`transforms/legality.rs`) and which cache maintenance the backend puts around it.
    pub const SYNC: Traits = Traits(1 << 11);

    pub const fn union(self, o: Traits) -> Traits {
        Traits(self.0 | o.0)
    }
    pub const fn contains(self, o: Traits) -> bool {
        self.0 & o.0 == o.0
    }
}

impl std::ops::BitOr for Traits {
    type Output = Traits;
    fn bitor(self, o: Traits) -> Traits {
        self.union(o)
    }
}

impl fmt::Debug for Traits {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        const NAMES: [&str; 12] = [
            "pure",
            "terminator",
            "convergent",
            "co-convergent",
            "divergence-source",
            "always-uniform",
            "isolated",
            "no-terminator",
            "takes-token",
            "upstream",
            "memory",
            "sync",
        ];
        let names: Vec<&str> = NAMES
            .iter()
            .enumerate()
            .filter(|(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, n)| *n)
            .collect();
        write!(f, "[{}]", names.join(", "))
    }
}

/// How many of something an op has.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Arity {
    Exact(u8),
    AtLeast(u8),
}

impl Arity {
    pub fn accepts(self, n: usize) -> bool {
        match self {
            Arity::Exact(k) => n == k as usize,
            Arity::AtLeast(k) => n >= k as usize,
        }
    }
}

impl fmt::Display for Arity {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Arity::Exact(k) => write!(f, "{k}"),
            Arity::AtLeast(k) => write!(f, "at least {k}"),
        }
    }
}

/// How the custom text form prints an op's leading keyword attribute.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Keyword {
    /// An `i64` attribute printed as one of these names (its index): `arith.cmpi slt`.
    Enum(&'static str, &'static [&'static str]),
    /// A string attribute restricted to these names: `kernel.workitem_id x`.
    Ident(&'static str, &'static [&'static str]),
    /// A symbol attribute: `kernel.func @name`.
    Symbol(&'static str),
    /// A typed literal printed without its type (the result type gives it):
    /// `kernel.shared_alloc 256`.
    Literal(&'static str),
}

impl Keyword {
    pub fn attr(self) -> &'static str {
        match self {
            Keyword::Enum(a, _)
            | Keyword::Ident(a, _)
            | Keyword::Symbol(a)
            | Keyword::Literal(a) => a,
        }
    }
}

/// What the registry knows about one op.
#[derive(Debug)]
pub struct OpSpec {
    pub name: &'static str,
    pub traits: Traits,
    pub operands: Arity,
    pub results: Arity,
    pub regions: u8,
    pub succs: Arity,
    pub keyword: Option<Keyword>,
    /// Operand indices that must be uniform (e.g. the lane of `kernel.readlane`, which gfx942
    /// reads from an SGPR).
    pub uniform_operands: &'static [u8],
}

impl Opcode {
    /// Ops of the structured kernel dialect that `lower-to-cf` removes: structured control
    /// flow and mutable variables.
    pub fn is_structured(self) -> bool {
        matches!(
            self,
            Opcode::If
                | Opcode::Loop
                | Opcode::Yield
                | Opcode::Break
                | Opcode::Continue
                | Opcode::Var
                | Opcode::Get
                | Opcode::Set
        )
    }
}

impl OpSpec {
    pub fn has(&self, t: Traits) -> bool {
        self.traits.contains(t)
    }
    pub fn is_terminator(&self) -> bool {
        self.has(Traits::TERMINATOR)
    }
    pub fn dialect(&self) -> &'static str {
        self.name.split('.').next().unwrap_or("")
    }
}

pub const DIMS: &[&str] = &["x", "y", "z"];
/// `arith.cmpi` predicates, in MLIR's numbering.
pub const CMPI_PREDICATES: &[&str] = &[
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];
/// `arith.cmpf` predicates, in MLIR's numbering.
pub const CMPF_PREDICATES: &[&str] = &[
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
    "une", "uno", "true",
];
pub const ATOMIC_KINDS: &[&str] = &["add", "min", "max", "umin", "umax", "xchg", "fadd"];
/// Memory orderings (`crate::sync::Ordering`), weakest first.
pub const ORDERINGS: &[&str] = &["relaxed", "acquire", "release", "acq_rel", "seq_cst"];
/// Synchronization scopes (`crate::sync::Scope`), narrowest first.
pub const SCOPES: &[&str] = &["wavefront", "workgroup", "agent", "system"];
pub const REDUCE_KINDS: &[&str] = &["add", "min", "max", "umin", "umax", "fadd", "fmin", "fmax"];

macro_rules! ops {
    ($( $variant:ident = $name:literal [$($t:ident)|*] ($ops:expr, $res:expr, $regs:expr, $succs:expr)
        $(kw $kw:tt)? $(uniform $u:tt)? ;)*) => {
        /// Every op kc knows. `Opcode::spec` gives its registry entry.
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub enum Opcode { $($variant),* }

        static SPECS: &[OpSpec] = &[$(OpSpec {
            name: $name,
            traits: Traits(0 $(| Traits::$t.0)*),
            operands: $ops,
            results: $res,
            regions: $regs,
            succs: $succs,
            keyword: ops!(@opt $($kw)?),
            uniform_operands: ops!(@uni $($u)?),
        }),*];

        impl Opcode {
            /// All opcodes, in table order.
            pub const ALL: &'static [Opcode] = &[$(Opcode::$variant),*];
            pub fn spec(self) -> &'static OpSpec {
                &SPECS[self as usize]
            }
            pub fn name(self) -> &'static str {
                self.spec().name
            }
            pub fn from_name(name: &str) -> Option<Opcode> {
                match name {
                    $($name => Some(Opcode::$variant),)*
                    _ => None,
                }
            }
        }
    };
    (@opt) => { None };
    (@opt $e:tt) => { Some($e) };
    (@uni) => { &[] };
    (@uni $e:tt) => { $e };
}

use Arity::{AtLeast as Min, Exact as N};

ops! {
    // ---- builtin ----
    Module = "builtin.module" [ISOLATED | NO_TERMINATOR | UPSTREAM] (N(0), N(0), 1, N(0));

    // ---- kernel: structure and control ----
    Func = "kernel.func" [ISOLATED] (N(0), N(0), 1, N(0)) kw (Keyword::Symbol("sym_name"));
    Return = "kernel.return" [TERMINATOR] (N(0), N(0), 0, N(0));
    If = "kernel.if" [] (N(1), N(0), 2, N(0));
    Loop = "kernel.loop" [] (N(0), N(0), 2, N(0));
    Yield = "kernel.yield" [TERMINATOR] (N(0), N(0), 0, N(0));
    Break = "kernel.break" [TERMINATOR] (N(0), N(0), 0, N(0));
    Continue = "kernel.continue" [TERMINATOR] (N(0), N(0), 0, N(0));
    Var = "kernel.var" [] (N(1), N(1), 0, N(0));
    Get = "kernel.get" [] (N(1), N(1), 0, N(0));
    Set = "kernel.set" [] (N(2), N(0), 0, N(0));

    // ---- kernel: thread and grid queries ----
    WorkitemId = "kernel.workitem_id" [PURE | DIVERGENCE_SOURCE] (N(0), N(1), 0, N(0)) kw (Keyword::Ident("dim", DIMS));
    WorkgroupId = "kernel.workgroup_id" [PURE | ALWAYS_UNIFORM] (N(0), N(1), 0, N(0)) kw (Keyword::Ident("dim", DIMS));
    WorkgroupSize = "kernel.workgroup_size" [PURE | ALWAYS_UNIFORM] (N(0), N(1), 0, N(0)) kw (Keyword::Ident("dim", DIMS));
    NumWorkgroups = "kernel.num_workgroups" [PURE | ALWAYS_UNIFORM] (N(0), N(1), 0, N(0)) kw (Keyword::Ident("dim", DIMS));
    LaneId = "kernel.lane_id" [PURE | DIVERGENCE_SOURCE] (N(0), N(1), 0, N(0));
    WaveSize = "kernel.wave_size" [PURE | ALWAYS_UNIFORM] (N(0), N(1), 0, N(0));

    // ---- kernel: memory ----
    SharedAlloc = "kernel.shared_alloc" [ALWAYS_UNIFORM] (N(0), N(1), 0, N(0)) kw (Keyword::Literal("size"));
    PtrOffset = "kernel.ptr_offset" [PURE] (N(2), N(1), 0, N(0));
    Load = "kernel.load" [MEMORY] (N(2), N(1), 0, N(0));
    Store = "kernel.store" [MEMORY] (N(3), N(0), 0, N(0));
    Atomic = "kernel.atomic" [MEMORY | DIVERGENCE_SOURCE | SYNC] (N(2), N(1), 0, N(0)) kw (Keyword::Ident("kind", ATOMIC_KINDS));
    AtomicCmpxchg = "kernel.atomic_cmpxchg" [MEMORY | DIVERGENCE_SOURCE | SYNC] (N(3), N(1), 0, N(0));
    // One read of the element `ptr` points to; its value may differ between threads (other
    // threads' writes race with it), hence a divergence source like the other atomics.
    AtomicLoad = "kernel.atomic_load" [MEMORY | DIVERGENCE_SOURCE | SYNC] (N(1), N(1), 0, N(0));
    AtomicStore = "kernel.atomic_store" [MEMORY | SYNC] (N(2), N(0), 0, N(0));
    // Orders the thread's memory accesses (all address spaces) without accessing memory.
    Fence = "kernel.fence" [MEMORY | SYNC] (N(0), N(0), 0, N(0));

    // ---- kernel: convergent and cross-lane ----
    Barrier = "kernel.barrier" [CONVERGENT | TAKES_TOKEN | MEMORY] (Min(0), N(0), 0, N(0));
    Ballot = "kernel.ballot" [PURE | CONVERGENT | CO_CONVERGENT | ALWAYS_UNIFORM | TAKES_TOKEN] (Min(1), N(1), 0, N(0));
    ReadFirstLane = "kernel.readfirstlane" [PURE | CONVERGENT | CO_CONVERGENT | ALWAYS_UNIFORM | TAKES_TOKEN] (Min(1), N(1), 0, N(0));
    ReadLane = "kernel.readlane" [PURE | CONVERGENT | CO_CONVERGENT | ALWAYS_UNIFORM | TAKES_TOKEN] (Min(2), N(1), 0, N(0)) uniform (&[1]);
    Shuffle = "kernel.shuffle" [PURE | CONVERGENT | CO_CONVERGENT | TAKES_TOKEN] (Min(2), N(1), 0, N(0));
    Reduce = "kernel.reduce" [PURE | CONVERGENT | CO_CONVERGENT | ALWAYS_UNIFORM | TAKES_TOKEN] (Min(1), N(1), 0, N(0)) kw (Keyword::Ident("kind", REDUCE_KINDS));
    // Inclusive scan over the active lanes in lane order: each lane's result folds the values
    // of the active lanes at or below it, so it differs per lane whatever the operand.
    Scan = "kernel.scan" [PURE | CONVERGENT | CO_CONVERGENT | DIVERGENCE_SOURCE | TAKES_TOKEN] (Min(1), N(1), 0, N(0)) kw (Keyword::Ident("kind", REDUCE_KINDS));

    // ---- conv: convergence tokens ----
    ConvEntry = "conv.entry" [CONVERGENT] (N(0), N(1), 0, N(0));
    ConvAnchor = "conv.anchor" [CONVERGENT] (N(0), N(1), 0, N(0));
    ConvLoop = "conv.loop" [CONVERGENT] (N(1), N(1), 0, N(0));

    // ---- arith ----
    Constant = "arith.constant" [PURE | UPSTREAM | ALWAYS_UNIFORM] (N(0), N(1), 0, N(0)) kw (Keyword::Literal("value"));
    AddI = "arith.addi" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    SubI = "arith.subi" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    MulI = "arith.muli" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    DivSI = "arith.divsi" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    DivUI = "arith.divui" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    RemSI = "arith.remsi" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    RemUI = "arith.remui" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    AndI = "arith.andi" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    OrI = "arith.ori" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    XOrI = "arith.xori" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    ShLI = "arith.shli" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    ShRSI = "arith.shrsi" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    ShRUI = "arith.shrui" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    MinSI = "arith.minsi" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    MaxSI = "arith.maxsi" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    MinUI = "arith.minui" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    MaxUI = "arith.maxui" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    // The high 32 bits of the unsigned 64-bit product of two i32 (what the optimizer's
    // division by a constant multiplies with; `v_mul_hi_u32`).
    MulHiU = "kernel.mulhiu" [PURE] (N(2), N(1), 0, N(0));
    AddF = "arith.addf" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    SubF = "arith.subf" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    MulF = "arith.mulf" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    DivF = "arith.divf" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    RemF = "arith.remf" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    MinimumF = "arith.minimumf" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    MaximumF = "arith.maximumf" [PURE | UPSTREAM] (N(2), N(1), 0, N(0));
    NegF = "arith.negf" [PURE | UPSTREAM] (N(1), N(1), 0, N(0));
    CmpI = "arith.cmpi" [PURE | UPSTREAM] (N(2), N(1), 0, N(0)) kw (Keyword::Enum("predicate", CMPI_PREDICATES));
    CmpF = "arith.cmpf" [PURE | UPSTREAM] (N(2), N(1), 0, N(0)) kw (Keyword::Enum("predicate", CMPF_PREDICATES));
    Select = "arith.select" [PURE | UPSTREAM] (N(3), N(1), 0, N(0));
    ExtSI = "arith.extsi" [PURE | UPSTREAM] (N(1), N(1), 0, N(0));
    ExtUI = "arith.extui" [PURE | UPSTREAM] (N(1), N(1), 0, N(0));
    TruncI = "arith.trunci" [PURE | UPSTREAM] (N(1), N(1), 0, N(0));
    SIToFP = "arith.sitofp" [PURE | UPSTREAM] (N(1), N(1), 0, N(0));
    UIToFP = "arith.uitofp" [PURE | UPSTREAM] (N(1), N(1), 0, N(0));
    FPToSI = "arith.fptosi" [PURE | UPSTREAM] (N(1), N(1), 0, N(0));
    FPToUI = "arith.fptoui" [PURE | UPSTREAM] (N(1), N(1), 0, N(0));
    Bitcast = "arith.bitcast" [PURE | UPSTREAM] (N(1), N(1), 0, N(0));

    // ---- cf ----
    Br = "cf.br" [TERMINATOR | UPSTREAM] (N(0), N(0), 0, N(1));
    CondBr = "cf.cond_br" [TERMINATOR | UPSTREAM] (N(1), N(0), 0, N(2));
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn names_are_unique_and_resolve() {
        for &op in Opcode::ALL {
            assert_eq!(Opcode::from_name(op.name()), Some(op));
        }
        assert_eq!(Opcode::from_name("kernel.nope"), None);
    }
    #[test]
    fn traits_as_declared() {
        let b = Opcode::Ballot.spec();
        assert!(
            b.has(Traits::CONVERGENT)
                && b.has(Traits::CO_CONVERGENT)
                && b.has(Traits::ALWAYS_UNIFORM)
        );
        assert!(Opcode::WorkitemId.spec().has(Traits::DIVERGENCE_SOURCE));
        assert!(Opcode::CondBr.spec().is_terminator());
        assert_eq!(Opcode::ReadLane.spec().uniform_operands, &[1]);
    }
}
