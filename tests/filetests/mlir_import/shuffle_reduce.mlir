// examples/mlir/shuffle_reduce.mlir: a wave sum by a gpu.shuffle xor butterfly in scf.for:
// 64-element sums of 0..255. The simulator and the reference engine both give the values
// computed independently (in Python) below.
// REQUIRES: kc-mlir
// RUN: %kc run %examples/mlir/shuffle_reduce.mlir | FileCheck %s
// RUN: %kc run %examples/mlir/shuffle_reduce.mlir --engine ref | FileCheck %s
// CHECK-DAG: "out": {"type": "i32", "data": [2016, 6112, 10208, 14304]}
