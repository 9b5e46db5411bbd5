// examples/mlir/workgroup_tree.mlir: a tree reduction in a workgroup attribution with
// gpu.barrier in scf.while: per-workgroup sums. The simulator and the reference engine both give
// the values computed independently (in Python) below.
// REQUIRES: kc-mlir
// RUN: %kc run %examples/mlir/workgroup_tree.mlir | FileCheck %s
// RUN: %kc run %examples/mlir/workgroup_tree.mlir --engine ref | FileCheck %s
// CHECK-DAG: "out": {"type": "f32", "data": [1020.0, 1020.5, 1021.0]}
