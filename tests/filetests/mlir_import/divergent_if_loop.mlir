// examples/mlir/divergent_if_loop.mlir: scf.for with a divergent scf.if: per work-item sums of
// its residue class minus 1 per other element. The simulator and the reference engine both give
// the values computed independently (in Python) below.
// REQUIRES: kc-mlir
// RUN: %kc run %examples/mlir/divergent_if_loop.mlir | FileCheck %s
// RUN: %kc run %examples/mlir/divergent_if_loop.mlir --engine ref | FileCheck %s
// CHECK-DAG: "out": {"type": "i32", "data": [137, 115, 114, 137, 115, 114, 137, 115, 114, 137, 115, 114, 137, 115, 114, 137, 115, 114, 137, 115, 114, 137, 115, 114, 137, 115, 114, 137, 115, 114, 137, 115, 114, 137, 115, 114, 137, 115, 114, 137, 115, 114, 137, 115, 114, 137, 115, 114, 137, 115, 114, 137, 115, 114, 137, 115, 114, 137, 115, 114, 137, 115, 114, 137]}
