//===- kc_dialects.h - declarations of kc's kernel and conv dialects ------===//
//
// Declares the dialects, types and ops that mlir-tblgen-22 generates from
// KcDialects.td (itself generated from kc's op registry), for the three
// translation units: kc_conv.cpp, kc_kernel.cpp (one per dialect: the generated
// definitions of two dialects clash in one file) and kc_dialects.cpp
// (registration). Generated headers expected in the include path:
//   ConvDialect.{h,cpp}.inc    -gen-dialect-decls/-defs -dialect=conv
//   KernelDialect.{h,cpp}.inc  -gen-dialect-decls/-defs -dialect=kernel
//   ConvTypes.{h,cpp}.inc      -gen-typedef-decls/-defs -typedefs-dialect=conv
//   KernelTypes.{h,cpp}.inc    -gen-typedef-decls/-defs -typedefs-dialect=kernel
//   ConvOps.{h,cpp}.inc        -gen-op-decls/-defs -op-include-regex='^conv\.'
//   KernelOps.{h,cpp}.inc      -gen-op-decls/-defs -op-include-regex='^kernel\.'
// build_support.rs (for the test harness and compiler/build.rs) runs exactly these.
//
//===----------------------------------------------------------------------===//

#ifndef KC_DIALECTS_H
#define KC_DIALECTS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

namespace kc::kernel {
// `global` or `shared`, a bare keyword as kc prints it (KcDialects.td names it).
inline mlir::FailureOr<llvm::StringRef> parseAddrSpace(mlir::AsmParser &parser) {
  llvm::StringRef space;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeyword(&space))
    return mlir::failure();
  if (space != "global" && space != "shared")
    return parser.emitError(loc, "expected address space `global` or `shared`");
  return space;
}
} // namespace kc::kernel

#include "ConvDialect.h.inc"
#include "KernelDialect.h.inc"
#define GET_TYPEDEF_CLASSES
#include "ConvTypes.h.inc"
#define GET_TYPEDEF_CLASSES
#include "KernelTypes.h.inc"
namespace kc {
// The custom directive `custom<KcWord>($attr)` of KcDialects.td's assembly formats: a
// string attribute written as a bare keyword (`kernel.workitem_id x`), as kc writes it. Its
// allowed values are the attribute's constraint, checked by the op's verifier.
inline mlir::ParseResult parseKcWord(mlir::OpAsmParser &parser, mlir::StringAttr &attr) {
  llvm::StringRef word;
  if (parser.parseKeyword(&word))
    return mlir::failure();
  attr = parser.getBuilder().getStringAttr(word);
  return mlir::success();
}
inline void printKcWord(mlir::OpAsmPrinter &printer, mlir::Operation *,
                        mlir::StringAttr attr) {
  printer << attr.getValue();
}
} // namespace kc

namespace kc::kernel {
// The element type of a pointer or variable (the formats' inferred types: what a load
// returns, what a variable holds); a null type for anything else, which no type matches.
inline mlir::Type elementType(mlir::Type type) {
  if (auto ptr = llvm::dyn_cast<PtrType>(type))
    return ptr.getElem();
  if (auto var = llvm::dyn_cast<VarType>(type))
    return var.getElem();
  return {};
}
} // namespace kc::kernel

#define GET_OP_CLASSES
#include "ConvOps.h.inc"
#define GET_OP_CLASSES
#include "KernelOps.h.inc"

#endif // KC_DIALECTS_H
