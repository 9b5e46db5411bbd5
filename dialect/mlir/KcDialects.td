// GENERATED from kc's op registry (dialect/src/registry.rs) by
// dialect/src/registry/mlir_defs.rs. Do not edit; regenerate with
//   cargo run -p kc-dialect --example mlir_defs -- dialect/mlir
//
// The kernel and conv dialects in ODS, with the traits IRDL cannot express
// (Terminator, IsolatedFromAbove, NoTerminator, Pure) and type assembly formats
// that read kc's type syntax (!kernel.ptr<global, i32>). Compiled with
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
def Kc_SharedPtr : Type<
  CPred<"::llvm::isa<::kc::kernel::PtrType>($_self) && "
        "::llvm::cast<::kc::kernel::PtrType>($_self).getSpace() == \"shared\"">,
  "shared pointer", "::kc::kernel::PtrType">;

// A string attribute restricted to a list of names.
class Kc_OneOf<list<string> names> : ConfinedAttr<StrAttr, [AttrConstraint<
  CPred<!interleave(!foreach(n, names,
      "::llvm::cast<::mlir::StringAttr>($_self).getValue() == \"" # n # "\""), " || ")>,
  "one of " # !interleave(names, ", ")>]>;

def Kernel_FuncOp : Op<Kernel_Dialect, "func", [IsolatedFromAbove]> {
  let summary = "kernel.func [isolated]";
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region MinSizedRegion<1>:$body);
}

def Kernel_ReturnOp : Op<Kernel_Dialect, "return", [Terminator]> {
  let summary = "kernel.return [terminator]";
}

def Kernel_IfOp : Op<Kernel_Dialect, "if", []> {
  let summary = "kernel.if []";
  let arguments = (ins I1:$cond);
  let regions = (region SizedRegion<1>:$then, SizedRegion<1>:$else);
}

def Kernel_LoopOp : Op<Kernel_Dialect, "loop", []> {
  let summary = "kernel.loop []";
  let regions = (region SizedRegion<1>:$body, SizedRegion<1>:$latch);
}

def Kernel_YieldOp : Op<Kernel_Dialect, "yield", [Terminator]> {
  let summary = "kernel.yield [terminator]";
}

def Kernel_BreakOp : Op<Kernel_Dialect, "break", [Terminator]> {
  let summary = "kernel.break [terminator]";
}

def Kernel_ContinueOp : Op<Kernel_Dialect, "continue", [Terminator]> {
  let summary = "kernel.continue [terminator]";
}

def Kernel_VarOp : Op<Kernel_Dialect, "var", []> {
  let summary = "kernel.var []";
  let arguments = (ins Kc_Scalar:$init);
  let results = (outs Kernel_VarType:$var);
}

def Kernel_GetOp : Op<Kernel_Dialect, "get", []> {
  let summary = "kernel.get []";
  let arguments = (ins Kernel_VarType:$var);
  let results = (outs Kc_Scalar:$value);
}

def Kernel_SetOp : Op<Kernel_Dialect, "set", []> {
  let summary = "kernel.set []";
  let arguments = (ins Kernel_VarType:$var, Kc_Scalar:$value);
}

def Kernel_WorkitemIdOp : Op<Kernel_Dialect, "workitem_id", [Pure]> {
  let summary = "kernel.workitem_id [pure, divergence-source]";
  let arguments = (ins Kc_OneOf<["x", "y", "z"]>:$dim);
  let results = (outs I32:$res);
}

def Kernel_WorkgroupIdOp : Op<Kernel_Dialect, "workgroup_id", [Pure]> {
  let summary = "kernel.workgroup_id [pure, always-uniform]";
  let arguments = (ins Kc_OneOf<["x", "y", "z"]>:$dim);
  let results = (outs I32:$res);
}

def Kernel_WorkgroupSizeOp : Op<Kernel_Dialect, "workgroup_size", [Pure]> {
  let summary = "kernel.workgroup_size [pure, always-uniform]";
  let arguments = (ins Kc_OneOf<["x", "y", "z"]>:$dim);
  let results = (outs I32:$res);
}

def Kernel_NumWorkgroupsOp : Op<Kernel_Dialect, "num_workgroups", [Pure]> {
  let summary = "kernel.num_workgroups [pure, always-uniform]";
  let arguments = (ins Kc_OneOf<["x", "y", "z"]>:$dim);
  let results = (outs I32:$res);
}

def Kernel_LaneIdOp : Op<Kernel_Dialect, "lane_id", [Pure]> {
  let summary = "kernel.lane_id [pure, divergence-source]";
  let results = (outs I32:$res);
}

def Kernel_WaveSizeOp : Op<Kernel_Dialect, "wave_size", [Pure]> {
  let summary = "kernel.wave_size [pure, always-uniform]";
  let results = (outs I32:$res);
}

def Kernel_SharedAllocOp : Op<Kernel_Dialect, "shared_alloc", []> {
  let summary = "kernel.shared_alloc [always-uniform]";
  let arguments = (ins ConfinedAttr<I64Attr, [IntPositive]>:$size);
  let results = (outs Kc_SharedPtr:$ptr);
}

def Kernel_PtrOffsetOp : Op<Kernel_Dialect, "ptr_offset", [Pure]> {
  let summary = "kernel.ptr_offset [pure]";
  let arguments = (ins Kernel_PtrType:$ptr, Kc_Int:$index);
  let results = (outs Kernel_PtrType:$res);
}

def Kernel_LoadOp : Op<Kernel_Dialect, "load", []> {
  let summary = "kernel.load [memory]";
  let arguments = (ins Kernel_PtrType:$ptr, Kc_Int:$index);
  let results = (outs Kc_Scalar:$value);
}

def Kernel_StoreOp : Op<Kernel_Dialect, "store", []> {
  let summary = "kernel.store [memory]";
  let arguments = (ins Kc_Scalar:$value, Kernel_PtrType:$ptr, Kc_Int:$index);
}

def Kernel_AtomicOp : Op<Kernel_Dialect, "atomic", []> {
  let summary = "kernel.atomic [divergence-source, memory, sync]";
  let arguments = (ins Kernel_PtrType:$ptr, Kc_Scalar:$value, Kc_OneOf<["add", "min", "max", "umin", "umax", "xchg", "fadd"]>:$kind, Kc_OneOf<["relaxed", "acquire", "release", "acq_rel", "seq_cst"]>:$ordering, Kc_OneOf<["wavefront", "workgroup", "agent", "system"]>:$scope);
  let results = (outs Kc_Scalar:$old);
}

def Kernel_AtomicCmpxchgOp : Op<Kernel_Dialect, "atomic_cmpxchg", []> {
  let summary = "kernel.atomic_cmpxchg [divergence-source, memory, sync]";
  let arguments = (ins Kernel_PtrType:$ptr, Kc_Scalar:$expected, Kc_Scalar:$desired, Kc_OneOf<["relaxed", "acquire", "release", "acq_rel", "seq_cst"]>:$ordering, Kc_OneOf<["wavefront", "workgroup", "agent", "system"]>:$scope);
  let results = (outs Kc_Scalar:$old);
}

def Kernel_AtomicLoadOp : Op<Kernel_Dialect, "atomic_load", []> {
  let summary = "kernel.atomic_load [divergence-source, memory, sync]";
  let arguments = (ins Kernel_PtrType:$ptr, Kc_OneOf<["relaxed", "acquire", "release", "acq_rel", "seq_cst"]>:$ordering, Kc_OneOf<["wavefront", "workgroup", "agent", "system"]>:$scope);
  let results = (outs Kc_Scalar:$value);
}

def Kernel_AtomicStoreOp : Op<Kernel_Dialect, "atomic_store", []> {
  let summary = "kernel.atomic_store [memory, sync]";
  let arguments = (ins Kc_Scalar:$value, Kernel_PtrType:$ptr, Kc_OneOf<["relaxed", "acquire", "release", "acq_rel", "seq_cst"]>:$ordering, Kc_OneOf<["wavefront", "workgroup", "agent", "system"]>:$scope);
}

def Kernel_FenceOp : Op<Kernel_Dialect, "fence", []> {
  let summary = "kernel.fence [memory, sync]";
  let arguments = (ins Kc_OneOf<["relaxed", "acquire", "release", "acq_rel", "seq_cst"]>:$ordering, Kc_OneOf<["wavefront", "workgroup", "agent", "system"]>:$scope);
}

def Kernel_BarrierOp : Op<Kernel_Dialect, "barrier", []> {
  let summary = "kernel.barrier [convergent, takes-token, memory]";
  let arguments = (ins Optional<Conv_TokenType>:$token);
}

def Kernel_BallotOp : Op<Kernel_Dialect, "ballot", []> {
  let summary = "kernel.ballot [pure, convergent, co-convergent, always-uniform, takes-token]";
  let arguments = (ins I1:$cond, Optional<Conv_TokenType>:$token);
  let results = (outs I64:$mask);
}

def Kernel_ReadfirstlaneOp : Op<Kernel_Dialect, "readfirstlane", []> {
  let summary = "kernel.readfirstlane [pure, convergent, co-convergent, always-uniform, takes-token]";
  let arguments = (ins Kc_Data:$value, Optional<Conv_TokenType>:$token);
  let results = (outs Kc_Data:$res);
}

def Kernel_ReadlaneOp : Op<Kernel_Dialect, "readlane", []> {
  let summary = "kernel.readlane [pure, convergent, co-convergent, always-uniform, takes-token]";
  let arguments = (ins Kc_Data:$value, I32:$lane, Optional<Conv_TokenType>:$token);
  let results = (outs Kc_Data:$res);
}

def Kernel_ShuffleOp : Op<Kernel_Dialect, "shuffle", []> {
  let summary = "kernel.shuffle [pure, convergent, co-convergent, takes-token]";
  let arguments = (ins Kc_Data:$value, I32:$lane, Optional<Conv_TokenType>:$token);
  let results = (outs Kc_Data:$res);
}

def Kernel_ReduceOp : Op<Kernel_Dialect, "reduce", []> {
  let summary = "kernel.reduce [pure, convergent, co-convergent, always-uniform, takes-token]";
  let arguments = (ins Kc_Data:$value, Optional<Conv_TokenType>:$token, Kc_OneOf<["add", "min", "max", "umin", "umax", "fadd", "fmin", "fmax"]>:$kind);
  let results = (outs Kc_Data:$res);
}

def Kernel_ScanOp : Op<Kernel_Dialect, "scan", []> {
  let summary = "kernel.scan [pure, convergent, co-convergent, divergence-source, takes-token]";
  let arguments = (ins Kc_Data:$value, Optional<Conv_TokenType>:$token, Kc_OneOf<["add", "min", "max", "umin", "umax", "fadd", "fmin", "fmax"]>:$kind);
  let results = (outs Kc_Data:$res);
}

def Conv_EntryOp : Op<Conv_Dialect, "entry", []> {
  let summary = "conv.entry [convergent]";
  let results = (outs Conv_TokenType:$token);
}

def Conv_AnchorOp : Op<Conv_Dialect, "anchor", []> {
  let summary = "conv.anchor [convergent]";
  let results = (outs Conv_TokenType:$token);
}

def Conv_LoopOp : Op<Conv_Dialect, "loop", []> {
  let summary = "conv.loop [convergent]";
  let arguments = (ins Conv_TokenType:$parent);
  let results = (outs Conv_TokenType:$token);
}

def Kernel_MulhiuOp : Op<Kernel_Dialect, "mulhiu", [Pure]> {
  let summary = "kernel.mulhiu [pure]";
  let arguments = (ins I32:$lhs, I32:$rhs);
  let results = (outs I32:$res);
}

