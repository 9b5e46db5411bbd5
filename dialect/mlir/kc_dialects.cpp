//===- kc_dialects.cpp - registering kc's dialects with MLIR --------------===//
//
// The two ways in: kcRegisterDialects(MlirDialectRegistry) for kc
// --verify-with-mlir (melior, the C API), and mlirGetDialectPluginInfo for
// mlir-opt --load-dialect-plugin. Both insert exactly the conv and kernel
// dialects of KcDialects.td (generated from kc's op registry).
//
//===----------------------------------------------------------------------===//

#include "kc_dialects.h"

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"

static void insertDialects(mlir::DialectRegistry *registry) {
  registry->insert<kc::conv::ConvDialect, kc::kernel::KernelDialect>();
}

extern "C" void kcRegisterDialects(MlirDialectRegistry registry) {
  insertDialects(unwrap(registry));
}

// Weak, as MLIR's own plugins declare it: kc links it too, unused there.
extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "kc", LLVM_VERSION_STRING, insertDialects};
}
