// examples/mlir/collatz.mlir: scf.while with a divergent trip count: Collatz steps of 1..128.
// The simulator and the reference engine both give the values computed independently (in Python)
// below.
// REQUIRES: kc-mlir
// RUN: %kc run %examples/mlir/collatz.mlir | FileCheck %s
// RUN: %kc run %examples/mlir/collatz.mlir --engine ref | FileCheck %s
// CHECK-DAG: "out": {"type": "i32", "data": [0, 1, 7, 2, 5, 8, 16, 3, 19, 6, 14, 9, 9, 17, 17, 4, 12, 20, 20, 7, 7, 15, 15, 10, 23, 10, 111, 18, 18, 18, 106, 5, 26, 13, 13, 21, 21, 21, 34, 8, 109, 8, 29, 16, 16, 16, 104, 11, 24, 24, 24, 11, 11, 112, 112, 19, 32, 19, 32, 19, 19, 107, 107, 6, 27, 27, 27, 14, 14, 14, 102, 22, 115, 22, 14, 22, 22, 35, 35, 9, 22, 110, 110, 9, 9, 30, 30, 17, 30, 17, 92, 17, 17, 105, 105, 12, 118, 25, 25, 25, 25, 25, 87, 12, 38, 12, 100, 113, 113, 113, 69, 20, 12, 33, 33, 20, 20, 33, 33, 20, 95, 20, 46, 108, 108, 108, 46, 7]}
