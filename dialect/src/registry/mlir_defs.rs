//! kc's own dialects (`kernel`, `conv`) written out for MLIR, generated from the registry.
//!
//! Guarantees: [`irdl`] and [`ods`] describe exactly the ops of [`Opcode::ALL`] outside the
//! upstream dialects (`builtin`, `arith`, `cf`), with the registry's operand, result, region
//! and successor counts (a unit test checks every signature below against them), its keyword
//! attributes, the `ordering` and `scope` attributes of its synchronizing ops, and its traits; the committed copies (`dialect/mlir/kc.irdl.mlir`,
//! `dialect/mlir/KcDialects.td`) are checked to equal this output by a test, so they cannot
//! drift from the registry.
//!
//! Two forms because neither is enough alone:
//! - IRDL is loaded at run time (`mlir-opt --irdl-file`), but MLIR 22's dynamic ops answer
//!   every `hasTrait` query with false and IRDL has no way to declare traits, so MLIR never
//!   sees `kernel.return` as a terminator and rejects every kernel ("block with no
//!   terminator"). IRDL still checks single ops (operand and result types, attributes); its
//!   dynamic types need the address space quoted (`!kernel.ptr<"global", i32>`), and types and
//!   ops share one IRDL symbol table, so `!kernel.var<T>` is `!kernel.variable<T>` there.
//! - ODS (TableGen) adds the traits (`Terminator`, `IsolatedFromAbove`, `NoTerminator`,
//!   `Pure`), type assembly formats that parse kc's own type syntax, and each op's
//!   `assemblyFormat` from its format in [`super::syntax`] (the one kc's printer and parser
//!   follow), with the format's type rules as `AllTypesMatch` / `TypesMatchWith`; compiled with
//!   `dialect/mlir/kc_dialects.cpp` into an `mlir-opt` plugin or into kc (`--verify-with-mlir`),
//!   it verifies whole kernels.
//!
//! What the registry does not hold (operand names and per-operand type constraints: the
//! rules `verify.rs` checks in code) is in [`signature`], one exhaustive match, so a new op
//! does not compile until it is described here.

use super::{syntax, Keyword, OpSpec, Opcode, Traits, ORDERINGS, SCOPES};
use std::fmt::Write as _;

/// The regeneration command, printed by the drift test.
pub const REGENERATE: &str = "cargo run -p kc-dialect --example mlir_defs -- dialect/mlir";

/// The dialects defined here, in output order.
pub const DIALECTS: &[&str] = &["conv", "kernel"];

/// A type constraint on one operand or result.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Ty {
    I1,
    I32,
    I64,
    /// i1, i32 or i64 (signless).
    Int,
    /// i1, i32, i64 or f32: what a variable or pointer holds.
    Scalar,
    /// A scalar other than i1 (the cross-lane ops).
    Data,
    /// `!kernel.ptr<space, T>`.
    Ptr,
    /// `!kernel.ptr<shared, T>`.
    SharedPtr,
    /// `!kernel.var<T>`.
    Var,
    /// `!conv.token`.
    Token,
}

/// Operands, results and regions of one op, by name.
pub struct Signature {
    pub operands: &'static [(&'static str, Ty)],
    /// Takes an optional trailing `!conv.token` operand named `token`.
    pub optional_token: bool,
    pub results: &'static [(&'static str, Ty)],
    pub regions: &'static [&'static str],
}

/// The operand, result and region names and type constraints of a `kernel` / `conv` op;
/// `None` for upstream ops (`builtin`, `arith`, `cf`), which MLIR defines itself.
pub fn signature(op: Opcode) -> Option<Signature> {
    use Opcode::*;
    use Ty as T;
    const NONE: &[(&str, Ty)] = &[];
    let s = |operands, results| Signature {
        operands,
        optional_token: false,
        results,
        regions: &[],
    };
    let t = |operands, results| Signature {
        operands,
        optional_token: true,
        results,
        regions: &[],
    };
    Some(match op {
        Module | Constant | AddI | SubI | MulI | DivSI | DivUI | RemSI | RemUI | AndI | OrI
        | XOrI | ShLI | ShRSI | ShRUI | MinSI | MaxSI | MinUI | MaxUI | AddF | SubF | MulF
        | DivF | RemF | MinimumF | MaximumF | NegF | CmpI | CmpF | Select | ExtSI | ExtUI
        | TruncI | SIToFP | UIToFP | FPToSI | FPToUI | Bitcast | Br | CondBr => return None,
        Func => Signature {
            regions: &["body"],
            ..s(NONE, NONE)
        },
        Return | Yield | Break | Continue => s(NONE, NONE),
        If => Signature {
            regions: &["then", "else"],
            ..s(&[("cond", T::I1)], NONE)
        },
        Loop => Signature {
            regions: &["body", "latch"],
            ..s(NONE, NONE)
        },
        Var => s(&[("init", T::Scalar)], &[("var", T::Var)]),
        Get => s(&[("var", T::Var)], &[("value", T::Scalar)]),
        Set => s(&[("var", T::Var), ("value", T::Scalar)], NONE),
        WorkitemId | WorkgroupId | WorkgroupSize | NumWorkgroups | LaneId | WaveSize => {
            s(NONE, &[("res", T::I32)])
        }
        SharedAlloc => s(NONE, &[("ptr", T::SharedPtr)]),
        PtrOffset => s(&[("ptr", T::Ptr), ("index", T::Int)], &[("res", T::Ptr)]),
        Load => s(
            &[("ptr", T::Ptr), ("index", T::Int)],
            &[("value", T::Scalar)],
        ),
        Store => s(
            &[("value", T::Scalar), ("ptr", T::Ptr), ("index", T::Int)],
            NONE,
        ),
        Atomic => s(
            &[("ptr", T::Ptr), ("value", T::Scalar)],
            &[("old", T::Scalar)],
        ),
        AtomicCmpxchg => s(
            &[
                ("ptr", T::Ptr),
                ("expected", T::Scalar),
                ("desired", T::Scalar),
            ],
            &[("old", T::Scalar)],
        ),
        AtomicLoad => s(&[("ptr", T::Ptr)], &[("value", T::Scalar)]),
        AtomicStore => s(&[("value", T::Scalar), ("ptr", T::Ptr)], NONE),
        Fence => s(NONE, NONE),
        Barrier => t(NONE, NONE),
        Ballot => t(&[("cond", T::I1)], &[("mask", T::I64)]),
        ReadFirstLane | Reduce | Scan => t(&[("value", T::Data)], &[("res", T::Data)]),
        ReadLane | Shuffle => t(&[("value", T::Data), ("lane", T::I32)], &[("res", T::Data)]),
        MulHiU => s(&[("lhs", T::I32), ("rhs", T::I32)], &[("res", T::I32)]),
        ConvEntry | ConvAnchor => s(NONE, &[("token", T::Token)]),
        ConvLoop => s(&[("parent", T::Token)], &[("token", T::Token)]),
    })
}

/// The `kernel` / `conv` ops, in registry order, with their signatures.
fn own_ops() -> impl Iterator<Item = (&'static OpSpec, Signature)> {
    Opcode::ALL
        .iter()
        .filter_map(|&op| Some((op.spec(), signature(op)?)))
}

fn mnemonic(spec: &OpSpec) -> &'static str {
    &spec.name[spec.dialect().len() + 1..]
}

/// The MLIR `<dialect>.<op>` names of ops defined upstream are left to MLIR; everything the
/// generator writes must agree with the registry's counts.
#[cfg(test)]
fn check(spec: &OpSpec, sig: &Signature) -> Result<(), String> {
    use super::Arity;
    let n = sig.operands.len() as u8;
    let operands = if sig.optional_token {
        Arity::AtLeast(n)
    } else {
        Arity::Exact(n)
    };
    let problems = [
        (spec.operands != operands, "operands"),
        (
            spec.results != Arity::Exact(sig.results.len() as u8),
            "results",
        ),
        (spec.regions as usize != sig.regions.len(), "regions"),
        (spec.succs != Arity::Exact(0), "successors"),
        (sig.optional_token != spec.has(Traits::TAKES_TOKEN), "token"),
    ];
    match problems.iter().find(|p| p.0) {
        Some((_, what)) => Err(format!("{}: signature disagrees on {what}", spec.name)),
        None => Ok(()),
    }
}

// ---------------------------------------------------------------------------------------
// IRDL

/// The IRDL module defining `conv` and `kernel`, for `mlir-opt --irdl-file` (single ops
/// only; see the module comment for why not whole kernels).
pub fn irdl() -> String {
    let mut o = String::new();
    o.push_str(
        "// GENERATED from kc's op registry (dialect/src/registry.rs) by\n\
         // dialect/src/registry/mlir_defs.rs. Do not edit; regenerate with\n",
    );
    let _ = writeln!(o, "//   {REGENERATE}");
    o.push_str(
        "//\n\
         // The kernel and conv dialects in IRDL: operand, result, attribute and region\n\
         // constraints of every op. IRDL cannot declare traits and MLIR 22's dynamic ops\n\
         // report none (DynamicOpDefinition::hasTrait is always false), so kernel.return is\n\
         // not a terminator here and whole kernels are rejected; KcDialects.td (ODS) is the\n\
         // definition that verifies kernels. IRDL's dynamic types print parameters as\n\
         // attributes: the address space is quoted, !kernel.ptr<\"global\", i32>; and as\n\
         // IRDL types and ops share one symbol table, the type of the op kernel.var is\n\
         // named !kernel.variable<T> here.\n",
    );
    o.push_str("builtin.module {\n");
    for dialect in DIALECTS {
        let _ = writeln!(o, "  irdl.dialect @{dialect} {{");
        match *dialect {
            "conv" => o.push_str("    irdl.type @token {\n    }\n"),
            _ => {
                o.push_str("    irdl.type @ptr {\n");
                o.push_str("      %global = irdl.is \"global\"\n");
                o.push_str("      %shared = irdl.is \"shared\"\n");
                o.push_str("      %space = irdl.any_of(%global, %shared)\n");
                irdl_constraint(&mut o, "elem", Ty::Scalar);
                o.push_str("      irdl.parameters(space: %space, elem: %elem)\n    }\n");
                // Types and ops share one symbol table in IRDL: the op `kernel.var` takes
                // the name, so the type is `!kernel.variable<T>` in this form.
                o.push_str("    irdl.type @variable {\n");
                irdl_constraint(&mut o, "elem", Ty::Scalar);
                o.push_str("      irdl.parameters(elem: %elem)\n    }\n");
            }
        }
        for (spec, sig) in own_ops().filter(|(s, _)| s.dialect() == *dialect) {
            irdl_op(&mut o, spec, &sig);
        }
        o.push_str("  }\n");
    }
    o.push_str("}\n");
    o
}

fn irdl_op(o: &mut String, spec: &OpSpec, sig: &Signature) {
    let _ = writeln!(o, "    irdl.operation @{} {{", mnemonic(spec));
    let mut operands: Vec<String> = Vec::new();
    for (name, ty) in sig.operands {
        irdl_constraint(o, name, *ty);
        operands.push(format!("{name}: %{name}"));
    }
    if sig.optional_token {
        irdl_constraint(o, "token", Ty::Token);
        operands.push("token: optional %token".into());
    }
    let mut results: Vec<String> = Vec::new();
    for (name, ty) in sig.results {
        let v = format!("res_{name}");
        irdl_constraint(o, &v, *ty);
        results.push(format!("{name}: %{v}"));
    }
    let mut attrs: Vec<String> = Vec::new();
    if let Some(kw) = spec.keyword {
        let name = kw.attr();
        let v = format!("attr_{name}");
        match kw {
            Keyword::Ident(_, names) => {
                let mut alts = Vec::new();
                for n in names {
                    let _ = writeln!(o, "      %{v}_{n} = irdl.is \"{n}\"");
                    alts.push(format!("%{v}_{n}"));
                }
                let _ = writeln!(o, "      %{v} = irdl.any_of({})", alts.join(", "));
            }
            Keyword::Symbol(_) => {
                let _ = writeln!(o, "      %{v} = irdl.base \"#builtin.string\"");
            }
            Keyword::Enum(..) | Keyword::Literal(_) => {
                let _ = writeln!(o, "      %{v} = irdl.base \"#builtin.integer\"");
            }
        }
        attrs.push(format!("\"{name}\" = %{v}"));
    }
    for (name, names) in sync_attrs(spec) {
        let v = format!("attr_{name}");
        let alts: Vec<String> = names
            .iter()
            .map(|n| {
                let _ = writeln!(o, "      %{v}_{n} = irdl.is \"{n}\"");
                format!("%{v}_{n}")
            })
            .collect();
        let _ = writeln!(o, "      %{v} = irdl.any_of({})", alts.join(", "));
        attrs.push(format!("\"{name}\" = %{v}"));
    }
    if !attrs.is_empty() {
        let _ = writeln!(o, "      irdl.attributes {{ {} }}", attrs.join(", "));
    }
    for i in 0..sig.regions.len() {
        // Structured control flow has single-block regions; a kernel has a CFG.
        let size = if spec.has(Traits::ISOLATED) {
            ""
        } else {
            " with size 1"
        };
        let _ = writeln!(o, "      %region{i} = irdl.region{size}");
    }
    if !operands.is_empty() {
        let _ = writeln!(o, "      irdl.operands({})", operands.join(", "));
    }
    if !results.is_empty() {
        let _ = writeln!(o, "      irdl.results({})", results.join(", "));
    }
    if !sig.regions.is_empty() {
        let regions: Vec<String> = (sig.regions.iter().enumerate())
            .map(|(i, n)| format!("{n}: %region{i}"))
            .collect();
        let _ = writeln!(o, "      irdl.regions({})", regions.join(", "));
    }
    o.push_str("    }\n");
}

/// Defines `%name` as the IRDL constraint for `ty`.
fn irdl_constraint(o: &mut String, name: &str, ty: Ty) {
    let any_of = |o: &mut String, types: &[&str]| {
        let alts: Vec<String> = types
            .iter()
            .map(|t| {
                let _ = writeln!(o, "      %{name}_{t} = irdl.is {t}");
                format!("%{name}_{t}")
            })
            .collect();
        let _ = writeln!(o, "      %{name} = irdl.any_of({})", alts.join(", "));
    };
    match ty {
        Ty::I1 | Ty::I32 | Ty::I64 => {
            let t = format!("{ty:?}").to_lowercase();
            let _ = writeln!(o, "      %{name} = irdl.is {t}");
        }
        Ty::Int => any_of(o, &["i1", "i32", "i64"]),
        Ty::Scalar => any_of(o, &["i1", "i32", "i64", "f32"]),
        Ty::Data => any_of(o, &["i32", "i64", "f32"]),
        Ty::Ptr => {
            let _ = writeln!(o, "      %{name} = irdl.base @kernel::@ptr");
        }
        Ty::SharedPtr => {
            let _ = writeln!(o, "      %{name}_space = irdl.is \"shared\"");
            let _ = writeln!(o, "      %{name}_elem = irdl.any");
            let _ = writeln!(
                o,
                "      %{name} = irdl.parametric @kernel::@ptr<%{name}_space, %{name}_elem>"
            );
        }
        Ty::Var => {
            let _ = writeln!(o, "      %{name} = irdl.base @kernel::@variable");
        }
        Ty::Token => {
            let _ = writeln!(o, "      %{name} = irdl.base @conv::@token");
        }
    }
}

// ---------------------------------------------------------------------------------------
// ODS

/// The ODS (TableGen) definition of `conv` and `kernel`, with traits and kc's type syntax.
/// `dialect/mlir/kc_dialects.cpp` is the C++ around it (dialect initialisation, the type
/// verifiers `genVerifyDecl` asks for, registration).
pub fn ods() -> String {
    let mut o = String::new();
    o.push_str(
        "// GENERATED from kc's op registry (dialect/src/registry.rs) by\n\
         // dialect/src/registry/mlir_defs.rs. Do not edit; regenerate with\n",
    );
    let _ = writeln!(o, "//   {REGENERATE}");
    o.push_str(
        "//\n\
         // The kernel and conv dialects in ODS, with the traits IRDL cannot express\n\
         // (Terminator, IsolatedFromAbove, NoTerminator, Pure), type assembly formats\n\
         // that read kc's type syntax (!kernel.ptr<global, i32>), and op assembly formats\n\
         // that read kc's custom syntax (dialect/src/registry/syntax.rs). Compiled with\n\
         // kc_dialects.cpp into an mlir-opt plugin and into kc --verify-with-mlir.\n\n",
    );
    o.push_str(ODS_PRELUDE);
    for (spec, sig) in own_ops() {
        ods_op(&mut o, spec, &sig);
    }
    o
}

const ODS_PRELUDE: &str = r#"include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/DialectBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Conv_Dialect : Dialect {
  let name = "conv";
  let cppNamespace = "::kc::conv";
  let summary = "Convergence tokens (LLVM's controlled convergence)";
  let useDefaultTypePrinterParser = 1;
}

def Kernel_Dialect : Dialect {
  let name = "kernel";
  let cppNamespace = "::kc::kernel";
  let summary = "kc's kernel-level dialect";
  let useDefaultTypePrinterParser = 1;
  // The optional token operands: parsing an op without one still builds !conv.token.
  let dependentDialects = ["::kc::conv::ConvDialect"];
}

def Conv_TokenType : TypeDef<Conv_Dialect, "Token"> {
  let mnemonic = "token";
  let summary = "a convergence token";
}

// The address space is a bare keyword, as kc prints it.
def Kernel_AddrSpaceParameter : AttrOrTypeParameter<"::llvm::StringRef", "address space"> {
  let parser = [{ ::kc::kernel::parseAddrSpace($_parser) }];
  let printer = [{ $_printer << $_self }];
  let allocator = [{ $_dst = $_allocator.copyInto($_self); }];
}

def Kernel_PtrType : TypeDef<Kernel_Dialect, "Ptr"> {
  let mnemonic = "ptr";
  let summary = "a pointer into global or shared memory";
  let parameters = (ins Kernel_AddrSpaceParameter:$space, "::mlir::Type":$elem);
  let assemblyFormat = "`<` $space `,` $elem `>`";
  let genVerifyDecl = 1;
}

def Kernel_VarType : TypeDef<Kernel_Dialect, "Var"> {
  let mnemonic = "var";
  let summary = "a mutable per-thread variable";
  let parameters = (ins "::mlir::Type":$elem);
  let assemblyFormat = "`<` $elem `>`";
  let genVerifyDecl = 1;
}

def Kc_Int : AnyTypeOf<[I1, I32, I64]>;
def Kc_Scalar : AnyTypeOf<[I1, I32, I64, F32]>;
def Kc_Data : AnyTypeOf<[I32, I64, F32]>;
// Pointers and variables as plain `Type`s (not their C++ classes), so the assembly formats
// print them whole (`!kernel.ptr<global, i32>`), not stripped to `<global, i32>`.
def Kc_Ptr : Type<CPred<"::llvm::isa<::kc::kernel::PtrType>($_self)">, "pointer">;
def Kc_SharedPtr : Type<
  CPred<"::llvm::isa<::kc::kernel::PtrType>($_self) && "
        "::llvm::cast<::kc::kernel::PtrType>($_self).getSpace() == \"shared\"">,
  "shared pointer">;
def Kc_Var : Type<CPred<"::llvm::isa<::kc::kernel::VarType>($_self)">, "variable">;

// A string attribute restricted to a list of names.
class Kc_OneOf<list<string> names> : ConfinedAttr<StrAttr, [AttrConstraint<
  CPred<!interleave(!foreach(n, names,
      "::llvm::cast<::mlir::StringAttr>($_self).getValue() == \"" # n # "\""), " || ")>,
  "one of " # !interleave(names, ", ")>]>;

"#;

fn ods_op(o: &mut String, spec: &OpSpec, sig: &Signature) {
    let dialect = spec.dialect();
    let prefix = if dialect == "conv" { "Conv" } else { "Kernel" };
    let class: String = mnemonic(spec)
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
        })
        .collect();
    let mut traits: Vec<&str> = Vec::new();
    if spec.has(Traits::TERMINATOR) {
        traits.push("Terminator");
    }
    if spec.has(Traits::ISOLATED) {
        traits.push("IsolatedFromAbove");
    }
    if spec.has(Traits::NO_TERMINATOR) {
        traits.push("NoTerminator");
    }
    // A convergent op is not speculatable and may not be merged across control flow.
    if spec.has(Traits::PURE) && !spec.has(Traits::CONVERGENT) {
        traits.push("Pure");
    }
    let op = Opcode::from_name(spec.name).expect("a registry op");
    let syntax = syntax::syntax(op).expect("every own op has a custom syntax");
    let inferred: Vec<String> = syntax.infer.iter().map(|&i| ods_infer(i)).collect();
    traits.extend(inferred.iter().map(String::as_str));
    let _ = writeln!(
        o,
        "def {prefix}_{class}Op : Op<{prefix}_Dialect, \"{}\", [{}]> {{",
        mnemonic(spec),
        traits.join(", ")
    );
    let _ = writeln!(o, "  let summary = \"{}\";", summary(spec));
    let mut args: Vec<String> = sig
        .operands
        .iter()
        .map(|(n, t)| format!("{}:${n}", ods_type(*t)))
        .collect();
    if sig.optional_token {
        args.push("Optional<Conv_TokenType>:$token".into());
    }
    if let Some(kw) = spec.keyword {
        let c = match kw {
            Keyword::Ident(_, names) => {
                let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
                format!("Kc_OneOf<[{}]>", quoted.join(", "))
            }
            Keyword::Symbol(_) => "SymbolNameAttr".into(),
            Keyword::Literal(_) => "ConfinedAttr<I64Attr, [IntPositive]>".into(),
            Keyword::Enum(..) => "I64Attr".into(),
        };
        args.push(format!("{c}:${}", kw.attr()));
    }
    for (name, names) in sync_attrs(spec) {
        let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
        args.push(format!("Kc_OneOf<[{}]>:${name}", quoted.join(", ")));
    }
    if !args.is_empty() {
        let _ = writeln!(o, "  let arguments = (ins {});", args.join(", "));
    }
    if !sig.results.is_empty() {
        let res: Vec<String> = sig
            .results
            .iter()
            .map(|(n, t)| format!("{}:${n}", ods_type(*t)))
            .collect();
        let _ = writeln!(o, "  let results = (outs {});", res.join(", "));
    }
    if !sig.regions.is_empty() {
        // A kernel is a CFG of at least one block; structured regions have exactly one.
        let kind = if spec.has(Traits::ISOLATED) {
            "MinSizedRegion<1>"
        } else {
            "SizedRegion<1>"
        };
        let regs: Vec<String> = sig.regions.iter().map(|n| format!("{kind}:${n}")).collect();
        let _ = writeln!(o, "  let regions = (region {});", regs.join(", "));
    }
    let _ = writeln!(
        o,
        "  let assemblyFormat = \"{}\";",
        ods_format(spec, &syntax).replace('"', "\\\"")
    );
    o.push_str("}\n\n");
}

/// The registry's format for ODS: a keyword attribute printed as a bare word (`x`, `add`) is
/// the custom directive `KcWord` (kc_dialects.h), as ODS prints a string attribute quoted.
fn ods_format(spec: &OpSpec, syntax: &syntax::Syntax) -> String {
    let words = syntax::words(syntax.format).expect("checked by the syntax tests");
    let mut out = String::new();
    for w in words {
        let w = match (w.strip_prefix('$'), spec.keyword) {
            (Some(name), Some(Keyword::Ident(attr, _))) if name == attr => {
                format!("custom<KcWord>(${attr})")
            }
            _ => w.to_string(),
        };
        if !(out.is_empty() || out.ends_with('(') || w == "^") {
            out.push(' ');
        }
        out.push_str(&w);
    }
    out
}

/// The ODS trait that checks an inferred type and lets the generated parser infer it.
fn ods_infer(i: syntax::Infer) -> String {
    use syntax::Infer;
    let (from, to) = (i.from(), i.to());
    match i {
        Infer::Same { .. } => format!("AllTypesMatch<[\"{from}\", \"{to}\"]>"),
        Infer::Elem { .. } => format!(
            "TypesMatchWith<\"{to} has the element type of {from}\", \"{from}\", \"{to}\", \
             \"::kc::kernel::elementType($_self)\">"
        ),
        Infer::VarOf { .. } => format!(
            "TypesMatchWith<\"{to} is a variable of the type of {from}\", \"{from}\", \"{to}\", \
             \"::kc::kernel::VarType::get($_self.getContext(), $_self)\">"
        ),
    }
}

/// The attributes a synchronizing op carries besides its keyword: its memory ordering and
/// scope (`crate::sync`), required.
fn sync_attrs(spec: &OpSpec) -> Vec<(&'static str, &'static [&'static str])> {
    if spec.has(Traits::SYNC) {
        vec![("ordering", ORDERINGS), ("scope", SCOPES)]
    } else {
        Vec::new()
    }
}

fn ods_type(t: Ty) -> &'static str {
    match t {
        Ty::I1 => "I1",
        Ty::I32 => "I32",
        Ty::I64 => "I64",
        Ty::Int => "Kc_Int",
        Ty::Scalar => "Kc_Scalar",
        Ty::Data => "Kc_Data",
        Ty::Ptr => "Kc_Ptr",
        Ty::SharedPtr => "Kc_SharedPtr",
        Ty::Var => "Kc_Var",
        Ty::Token => "Conv_TokenType",
    }
}

/// A one-line summary: the op and the registry's traits.
fn summary(spec: &OpSpec) -> String {
    format!("{} {:?}", spec.name, spec.traits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_agree_with_the_registry() {
        let mut n = 0;
        for (spec, sig) in own_ops() {
            check(spec, &sig).unwrap();
            assert!(DIALECTS.contains(&spec.dialect()), "{}", spec.name);
            n += 1;
        }
        // Every op outside the upstream dialects has a signature.
        let own = Opcode::ALL
            .iter()
            .filter(|o| !o.spec().has(Traits::UPSTREAM))
            .count();
        assert_eq!(n, own);
    }

    /// The committed definitions are what the registry generates now.
    #[test]
    fn committed_definitions_are_current() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mlir");
        for (name, text) in [("kc.irdl.mlir", irdl()), ("KcDialects.td", ods())] {
            let path = dir.join(name);
            let committed = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                committed == text,
                "{} is not what the registry generates; regenerate with `{REGENERATE}`",
                path.display()
            );
        }
    }

    #[test]
    fn outputs_name_every_op() {
        let (irdl, ods) = (irdl(), ods());
        for (spec, _) in own_ops() {
            assert!(irdl.contains(&format!("irdl.operation @{} {{", mnemonic(spec))));
            assert!(ods.contains(&format!("\"{}\"", mnemonic(spec))));
        }
        assert!(ods.contains("def Kernel_ReturnOp : Op<Kernel_Dialect, \"return\", [Terminator]>"));
        assert!(ods.contains("Optional<Conv_TokenType>:$token"));
    }
}
