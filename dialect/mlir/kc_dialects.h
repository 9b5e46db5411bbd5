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
#define GET_OP_CLASSES
#include "ConvOps.h.inc"
#define GET_OP_CLASSES
#include "KernelOps.h.inc"

#endif // KC_DIALECTS_H
