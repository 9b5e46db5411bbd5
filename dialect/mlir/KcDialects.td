// GENERATED from kc's op registry (dialect/src/registry.rs) by
// dialect/src/registry/mlir_defs.rs. Do not edit; regenerate with
//   cargo run -p kc-dialect --example mlir_defs -- dialect/mlir
//
// The kernel and conv dialects in ODS, with the traits IRDL cannot express
// (Terminator, IsolatedFromAbove, NoTerminator, Pure), type assembly formats
// that read kc's type syntax (!kernel.ptr<global, i32>), and op assembly formats
// that read kc's custom syntax (dialect/src/registry/syntax.rs). Compiled with
// kc_dialects.cpp into an mlir-opt plugin and into kc --verify-with-mlir.

include "mlir/IR/OpBase.td"
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

def Kernel_FuncOp : Op<Kernel_Dialect, "func", [IsolatedFromAbove]> {
  let summary = "kernel.func [isolated]";
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region MinSizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
}

def Kernel_ReturnOp : Op<Kernel_Dialect, "return", [Terminator]> {
  let summary = "kernel.return [terminator]";
  let assemblyFormat = "attr-dict";
}

def Kernel_IfOp : Op<Kernel_Dialect, "if", []> {
  let summary = "kernel.if []";
  let arguments = (ins I1:$cond);
  let regions = (region SizedRegion<1>:$then, SizedRegion<1>:$else);
  let assemblyFormat = "$cond $then `else` $else attr-dict";
}

def Kernel_LoopOp : Op<Kernel_Dialect, "loop", []> {
  let summary = "kernel.loop []";
  let regions = (region SizedRegion<1>:$body, SizedRegion<1>:$latch);
  let assemblyFormat = "$body `latch` $latch attr-dict";
}

def Kernel_YieldOp : Op<Kernel_Dialect, "yield", [Terminator]> {
  let summary = "kernel.yield [terminator]";
  let assemblyFormat = "attr-dict";
}

def Kernel_BreakOp : Op<Kernel_Dialect, "break", [Terminator]> {
  let summary = "kernel.break [terminator]";
  let assemblyFormat = "attr-dict";
}

def Kernel_ContinueOp : Op<Kernel_Dialect, "continue", [Terminator]> {
  let summary = "kernel.continue [terminator]";
  let assemblyFormat = "attr-dict";
}

def Kernel_VarOp : Op<Kernel_Dialect, "var", [TypesMatchWith<"init has the element type of var", "var", "init", "::kc::kernel::elementType($_self)">]> {
  let summary = "kernel.var []";
  let arguments = (ins Kc_Scalar:$init);
  let results = (outs Kc_Var:$var);
  let assemblyFormat = "$init attr-dict `:` type($var)";
}

def Kernel_GetOp : Op<Kernel_Dialect, "get", [TypesMatchWith<"var is a variable of the type of value", "value", "var", "::kc::kernel::VarType::get($_self.getContext(), $_self)">]> {
  let summary = "kernel.get []";
  let arguments = (ins Kc_Var:$var);
  let results = (outs Kc_Scalar:$value);
  let assemblyFormat = "$var attr-dict `:` type($value)";
}

def Kernel_SetOp : Op<Kernel_Dialect, "set", [TypesMatchWith<"var is a variable of the type of value", "value", "var", "::kc::kernel::VarType::get($_self.getContext(), $_self)">]> {
  let summary = "kernel.set []";
  let arguments = (ins Kc_Var:$var, Kc_Scalar:$value);
  let assemblyFormat = "$var `,` $value attr-dict `:` type($value)";
}

def Kernel_WorkitemIdOp : Op<Kernel_Dialect, "workitem_id", [Pure]> {
  let summary = "kernel.workitem_id [pure, divergence-source]";
  let arguments = (ins Kc_OneOf<["x", "y", "z"]>:$dim);
  let results = (outs I32:$res);
  let assemblyFormat = "custom<KcWord>($dim) attr-dict `:` type($res)";
}

def Kernel_WorkgroupIdOp : Op<Kernel_Dialect, "workgroup_id", [Pure]> {
  let summary = "kernel.workgroup_id [pure, always-uniform]";
  let arguments = (ins Kc_OneOf<["x", "y", "z"]>:$dim);
  let results = (outs I32:$res);
  let assemblyFormat = "custom<KcWord>($dim) attr-dict `:` type($res)";
}

def Kernel_WorkgroupSizeOp : Op<Kernel_Dialect, "workgroup_size", [Pure]> {
  let summary = "kernel.workgroup_size [pure, always-uniform]";
  let arguments = (ins Kc_OneOf<["x", "y", "z"]>:$dim);
  let results = (outs I32:$res);
  let assemblyFormat = "custom<KcWord>($dim) attr-dict `:` type($res)";
}

def Kernel_NumWorkgroupsOp : Op<Kernel_Dialect, "num_workgroups", [Pure]> {
  let summary = "kernel.num_workgroups [pure, always-uniform]";
  let arguments = (ins Kc_OneOf<["x", "y", "z"]>:$dim);
  let results = (outs I32:$res);
  let assemblyFormat = "custom<KcWord>($dim) attr-dict `:` type($res)";
}

def Kernel_LaneIdOp : Op<Kernel_Dialect, "lane_id", [Pure]> {
  let summary = "kernel.lane_id [pure, divergence-source]";
  let results = (outs I32:$res);
  let assemblyFormat = "attr-dict `:` type($res)";
}

def Kernel_WaveSizeOp : Op<Kernel_Dialect, "wave_size", [Pure]> {
  let summary = "kernel.wave_size [pure, always-uniform]";
  let results = (outs I32:$res);
  let assemblyFormat = "attr-dict `:` type($res)";
}

def Kernel_SharedAllocOp : Op<Kernel_Dialect, "shared_alloc", []> {
  let summary = "kernel.shared_alloc [always-uniform]";
  let arguments = (ins ConfinedAttr<I64Attr, [IntPositive]>:$size);
  let results = (outs Kc_SharedPtr:$ptr);
  let assemblyFormat = "$size attr-dict `:` type($ptr)";
}

def Kernel_PtrOffsetOp : Op<Kernel_Dialect, "ptr_offset", [Pure, AllTypesMatch<["ptr", "res"]>]> {
  let summary = "kernel.ptr_offset [pure]";
  let arguments = (ins Kc_Ptr:$ptr, Kc_Int:$index);
  let results = (outs Kc_Ptr:$res);
  let assemblyFormat = "$ptr `,` $index attr-dict `:` type($ptr) `,` type($index)";
}

def Kernel_LoadOp : Op<Kernel_Dialect, "load", [TypesMatchWith<"value has the element type of ptr", "ptr", "value", "::kc::kernel::elementType($_self)">]> {
  let summary = "kernel.load [memory]";
  let arguments = (ins Kc_Ptr:$ptr, Kc_Int:$index);
  let results = (outs Kc_Scalar:$value);
  let assemblyFormat = "$ptr `,` $index attr-dict `:` type($ptr) `,` type($index)";
}

def Kernel_StoreOp : Op<Kernel_Dialect, "store", [TypesMatchWith<"value has the element type of ptr", "ptr", "value", "::kc::kernel::elementType($_self)">]> {
  let summary = "kernel.store [memory]";
  let arguments = (ins Kc_Scalar:$value, Kc_Ptr:$ptr, Kc_Int:$index);
  let assemblyFormat = "$value `,` $ptr `,` $index attr-dict `:` type($ptr) `,` type($index)";
}

def Kernel_AtomicOp : Op<Kernel_Dialect, "atomic", [TypesMatchWith<"value has the element type of ptr", "ptr", "value", "::kc::kernel::elementType($_self)">, TypesMatchWith<"old has the element type of ptr", "ptr", "old", "::kc::kernel::elementType($_self)">]> {
  let summary = "kernel.atomic [divergence-source, memory, sync]";
  let arguments = (ins Kc_Ptr:$ptr, Kc_Scalar:$value, Kc_OneOf<["add", "min", "max", "umin", "umax", "xchg", "fadd"]>:$kind, Kc_OneOf<["relaxed", "acquire", "release", "acq_rel", "seq_cst"]>:$ordering, Kc_OneOf<["wavefront", "workgroup", "agent", "system"]>:$scope);
  let results = (outs Kc_Scalar:$old);
  let assemblyFormat = "custom<KcWord>($kind) `,` $ptr `,` $value attr-dict `:` type($ptr)";
}

def Kernel_AtomicCmpxchgOp : Op<Kernel_Dialect, "atomic_cmpxchg", [TypesMatchWith<"expected has the element type of ptr", "ptr", "expected", "::kc::kernel::elementType($_self)">, TypesMatchWith<"desired has the element type of ptr", "ptr", "desired", "::kc::kernel::elementType($_self)">, TypesMatchWith<"old has the element type of ptr", "ptr", "old", "::kc::kernel::elementType($_self)">]> {
  let summary = "kernel.atomic_cmpxchg [divergence-source, memory, sync]";
  let arguments = (ins Kc_Ptr:$ptr, Kc_Scalar:$expected, Kc_Scalar:$desired, Kc_OneOf<["relaxed", "acquire", "release", "acq_rel", "seq_cst"]>:$ordering, Kc_OneOf<["wavefront", "workgroup", "agent", "system"]>:$scope);
  let results = (outs Kc_Scalar:$old);
  let assemblyFormat = "$ptr `,` $expected `,` $desired attr-dict `:` type($ptr)";
}

def Kernel_AtomicLoadOp : Op<Kernel_Dialect, "atomic_load", [TypesMatchWith<"value has the element type of ptr", "ptr", "value", "::kc::kernel::elementType($_self)">]> {
  let summary = "kernel.atomic_load [divergence-source, memory, sync]";
  let arguments = (ins Kc_Ptr:$ptr, Kc_OneOf<["relaxed", "acquire", "release", "acq_rel", "seq_cst"]>:$ordering, Kc_OneOf<["wavefront", "workgroup", "agent", "system"]>:$scope);
  let results = (outs Kc_Scalar:$value);
  let assemblyFormat = "$ptr attr-dict `:` type($ptr)";
}

def Kernel_AtomicStoreOp : Op<Kernel_Dialect, "atomic_store", [TypesMatchWith<"value has the element type of ptr", "ptr", "value", "::kc::kernel::elementType($_self)">]> {
  let summary = "kernel.atomic_store [memory, sync]";
  let arguments = (ins Kc_Scalar:$value, Kc_Ptr:$ptr, Kc_OneOf<["relaxed", "acquire", "release", "acq_rel", "seq_cst"]>:$ordering, Kc_OneOf<["wavefront", "workgroup", "agent", "system"]>:$scope);
  let assemblyFormat = "$value `,` $ptr attr-dict `:` type($ptr)";
}

def Kernel_FenceOp : Op<Kernel_Dialect, "fence", []> {
  let summary = "kernel.fence [memory, sync]";
  let arguments = (ins Kc_OneOf<["relaxed", "acquire", "release", "acq_rel", "seq_cst"]>:$ordering, Kc_OneOf<["wavefront", "workgroup", "agent", "system"]>:$scope);
  let assemblyFormat = "attr-dict";
}

def Kernel_BarrierOp : Op<Kernel_Dialect, "barrier", []> {
  let summary = "kernel.barrier [convergent, takes-token, memory]";
  let arguments = (ins Optional<Conv_TokenType>:$token);
  let assemblyFormat = "(`(` $token^ `)` )? attr-dict";
}

def Kernel_BallotOp : Op<Kernel_Dialect, "ballot", []> {
  let summary = "kernel.ballot [pure, convergent, co-convergent, always-uniform, takes-token]";
  let arguments = (ins I1:$cond, Optional<Conv_TokenType>:$token);
  let results = (outs I64:$mask);
  let assemblyFormat = "$cond (`,` $token^ )? attr-dict `:` type($mask)";
}

def Kernel_ReadfirstlaneOp : Op<Kernel_Dialect, "readfirstlane", [AllTypesMatch<["res", "value"]>]> {
  let summary = "kernel.readfirstlane [pure, convergent, co-convergent, always-uniform, takes-token]";
  let arguments = (ins Kc_Data:$value, Optional<Conv_TokenType>:$token);
  let results = (outs Kc_Data:$res);
  let assemblyFormat = "$value (`,` $token^ )? attr-dict `:` type($res)";
}

def Kernel_ReadlaneOp : Op<Kernel_Dialect, "readlane", [AllTypesMatch<["res", "value"]>]> {
  let summary = "kernel.readlane [pure, convergent, co-convergent, always-uniform, takes-token]";
  let arguments = (ins Kc_Data:$value, I32:$lane, Optional<Conv_TokenType>:$token);
  let results = (outs Kc_Data:$res);
  let assemblyFormat = "$value `,` $lane (`,` $token^ )? attr-dict `:` type($res)";
}

def Kernel_ShuffleOp : Op<Kernel_Dialect, "shuffle", [AllTypesMatch<["res", "value"]>]> {
  let summary = "kernel.shuffle [pure, convergent, co-convergent, takes-token]";
  let arguments = (ins Kc_Data:$value, I32:$lane, Optional<Conv_TokenType>:$token);
  let results = (outs Kc_Data:$res);
  let assemblyFormat = "$value `,` $lane (`,` $token^ )? attr-dict `:` type($res)";
}

def Kernel_ReduceOp : Op<Kernel_Dialect, "reduce", [AllTypesMatch<["res", "value"]>]> {
  let summary = "kernel.reduce [pure, convergent, co-convergent, always-uniform, takes-token]";
  let arguments = (ins Kc_Data:$value, Optional<Conv_TokenType>:$token, Kc_OneOf<["add", "min", "max", "umin", "umax", "fadd", "fmin", "fmax"]>:$kind);
  let results = (outs Kc_Data:$res);
  let assemblyFormat = "custom<KcWord>($kind) `,` $value (`,` $token^ )? attr-dict `:` type($res)";
}

def Kernel_ScanOp : Op<Kernel_Dialect, "scan", [AllTypesMatch<["res", "value"]>]> {
  let summary = "kernel.scan [pure, convergent, co-convergent, divergence-source, takes-token]";
  let arguments = (ins Kc_Data:$value, Optional<Conv_TokenType>:$token, Kc_OneOf<["add", "min", "max", "umin", "umax", "fadd", "fmin", "fmax"]>:$kind);
  let results = (outs Kc_Data:$res);
  let assemblyFormat = "custom<KcWord>($kind) `,` $value (`,` $token^ )? attr-dict `:` type($res)";
}

def Conv_EntryOp : Op<Conv_Dialect, "entry", []> {
  let summary = "conv.entry [convergent]";
  let results = (outs Conv_TokenType:$token);
  let assemblyFormat = "attr-dict `:` type($token)";
}

def Conv_AnchorOp : Op<Conv_Dialect, "anchor", []> {
  let summary = "conv.anchor [convergent]";
  let results = (outs Conv_TokenType:$token);
  let assemblyFormat = "attr-dict `:` type($token)";
}

def Conv_LoopOp : Op<Conv_Dialect, "loop", []> {
  let summary = "conv.loop [convergent]";
  let arguments = (ins Conv_TokenType:$parent);
  let results = (outs Conv_TokenType:$token);
  let assemblyFormat = "$parent attr-dict `:` type($token)";
}

def Kernel_MulhiuOp : Op<Kernel_Dialect, "mulhiu", [Pure]> {
  let summary = "kernel.mulhiu [pure]";
  let arguments = (ins I32:$lhs, I32:$rhs);
  let results = (outs I32:$res);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($res)";
}

