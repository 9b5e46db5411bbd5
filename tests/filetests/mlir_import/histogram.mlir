// examples/mlir/histogram.mlir: a func.func kernel with memref.atomic_rmw in the default address
// space: a 16-bin histogram. The simulator and the reference engine both give the values
// computed independently (in Python) below.
// REQUIRES: kc-mlir
// RUN: %kc run %examples/mlir/histogram.mlir | FileCheck %s
// RUN: %kc run %examples/mlir/histogram.mlir --engine ref | FileCheck %s
// CHECK-DAG: "hist": {"type": "i32", "data": [10, 15, 15, 10, 15, 16, 31, 22, 21, 11, 17, 10, 20, 5, 22, 16]}
// CHECK-DAG: "seen": {"type": "i32", "data": [0, 4, 10, 2, 12, 8, 6, 6, 8, 11, 1, 9, 3, 14, 12, 12, 13, 1, 7, 14, 8, 3, 1, 0, 2, 5, 11, 2, 12, 7, 4, 4, 5, 8, 14, 5, 14, 9, 6, 6, 7, 10, 15, 6, 15, 10, 7, 6, 7, 10, 15, 6, 15, 10, 7, 6, 6, 9, 14, 5, 14, 8, 5, 4, 4, 7, 12, 2, 11, 5, 2, 0, 1, 3, 8, 14, 7, 1, 13, 12, 12, 14, 3, 9, 1, 11, 8, 6, 6, 8, 12, 2, 10, 4, 0, 15, 15, 0, 4, 10, 2, 12, 8, 6, 6, 8, 11, 1, 9, 3, 14, 12, 12, 13, 1, 7, 14, 8, 3, 1, 0, 2, 5, 11, 2, 12, 7, 4, 4, 5, 8, 14, 5, 14, 9, 6, 6, 7, 10, 15, 6, 15, 10, 7, 6, 7, 10, 15, 6, 15, 10, 7, 6, 6, 9, 14, 5, 14, 8, 5, 4, 4, 7, 12, 2, 11, 5, 2, 0, 1, 3, 8, 14, 7, 1, 13, 12, 12, 14, 3, 9, 1, 11, 8, 6, 6, 8, 12, 2, 10, 4, 0, 15, 15, 0, 4, 10, 2, 12, 8, 6, 6, 8, 11, 1, 9, 3, 14, 12, 12, 13, 1, 7, 14, 8, 3, 1, 0, 2, 5, 11, 2, 12, 7, 4, 4, 5, 8, 14, 5, 14, 9, 6, 6, 7, 10, 15, 6, 15, 10, 7, 6, 7, 10, 15, 6, 15, 10, 7, 6, 6, 9, 14, 5, 14, 8]}
