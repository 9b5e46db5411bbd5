// Parameter names come from the parsed module (each argument's location in the signature),
// not from the first text that looks like the signature: the comment below names the
// parameters the other way round, and `kc run` must still bind `src` to the second one
// (out = src + 1, not a zero-filled `src` read through the first parameter).
// REQUIRES: kc-mlir, mlir-opt
// RUN: %kc run %s --args %S/Inputs/param_names.args.json | FileCheck %s
// RUN: %kc run %s --args %S/Inputs/param_names.args.json --engine ref | FileCheck %s
// The generic form names its arguments too (from the same locations).
// RUN: %mlir-opt --mlir-print-op-generic %s > %t.mlir
// RUN: sed -e 's/%%arg0/%%dst/g' -e 's/%%arg1/%%src/g' %t.mlir > %t.named.mlir
// RUN: %kc run %t.named.mlir --args %S/Inputs/param_names.args.json | FileCheck %s
// CHECK-DAG: "dst": {"type": "i32", "data": [11, 21, 31, 41]}
// CHECK-DAG: "src": {"type": "i32", "data": [10, 20, 30, 40]}
//
// gpu.func @copy(%src: memref<?xi32, 1>, %dst: memref<?xi32, 1>) kernel
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%dst: memref<?xi32, 1>, %src: memref<?xi32, 1>) kernel {
      %c1 = arith.constant 1 : i32
      %tid = gpu.thread_id x
      %v = memref.load %src[%tid] : memref<?xi32, 1>
      %w = arith.addi %v, %c1 : i32
      memref.store %w, %dst[%tid] : memref<?xi32, 1>
      gpu.return
    }
  }
}
