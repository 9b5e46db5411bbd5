//===- kc_kernel.cpp - the kernel dialect ---------------------------------===//
//
// The generated definitions of the kernel dialect, its types and ops, its
// initialisation, and the type verifiers KcDialects.td asks for (genVerifyDecl):
// pointers and variables hold kc's scalars, and pointers live in `global` or
// `shared` memory, as kc's own verifier requires.
//
//===----------------------------------------------------------------------===//

#include "kc_dialects.h"

#include "KernelDialect.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "KernelTypes.cpp.inc"
#define GET_OP_CLASSES
#include "KernelOps.cpp.inc"

using namespace mlir;

void kc::kernel::KernelDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "KernelOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "KernelTypes.cpp.inc"
      >();
}

// What a pointer or variable holds: one of kc's scalars (i1, i32, i64, f32).
static bool isKcScalar(Type t) {
  return t.isSignlessInteger(1) || t.isSignlessInteger(32) ||
         t.isSignlessInteger(64) || t.isF32();
}

LogicalResult
kc::kernel::PtrType::verify(function_ref<InFlightDiagnostic()> emitError,
                            llvm::StringRef space, Type elem) {
  if (space != "global" && space != "shared")
    return emitError() << "address space must be `global` or `shared`";
  if (!isKcScalar(elem))
    return emitError() << "pointer element must be i1, i32, i64 or f32, not " << elem;
  return success();
}

LogicalResult
kc::kernel::VarType::verify(function_ref<InFlightDiagnostic()> emitError, Type elem) {
  if (!isKcScalar(elem))
    return emitError() << "variable type must be i1, i32, i64 or f32, not " << elem;
  return success();
}
