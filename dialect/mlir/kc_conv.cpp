//===- kc_conv.cpp - the conv dialect (convergence tokens) ----------------===//
//
// The generated definitions of the conv dialect, its type and ops, and its
// initialisation (see kc_dialects.h for what generates them).
//
//===----------------------------------------------------------------------===//

#include "kc_dialects.h"

#include "ConvDialect.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "ConvTypes.cpp.inc"
#define GET_OP_CLASSES
#include "ConvOps.cpp.inc"

void kc::conv::ConvDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ConvOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "ConvTypes.cpp.inc"
      >();
}
