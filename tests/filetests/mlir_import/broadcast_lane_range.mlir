// gpu.subgroup_broadcast of a constant lane outside the wave (0..64) is a diagnostic at the op,
// as the reference interpreter stops there ("not a lane of the wave"); it was an internal
// error (v_readlane_b32 with a literal lane gfx942 cannot encode). Lane 63 compiles and runs.
// REQUIRES: kc-mlir
// RUN: not %kc %s -S 2>&1 | FileCheck %s
// RUN: %kc %s -S; test $? -eq 1
// CHECK: broadcast_lane_range.mlir:[[#@LINE+12]]:12: error: `kernel.readlane`: reads lane 100, which is not a lane of the wave (0..64)
// CHECK-NOT: internal compiler error
// RUN: sed 's/arith.constant 100 : i32/arith.constant 63 : i32/' %s > %t.mlir
// RUN: %kc run %t.mlir --args %S/Inputs/out64.args.json | FileCheck %s --check-prefix=LAST
// RUN: %kc run %t.mlir --args %S/Inputs/out64.args.json --engine ref | FileCheck %s --check-prefix=LAST
// LAST: "out": {"type": "i32", "data": [63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63]}
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<?xi32, 1>) kernel {
      %tid = gpu.thread_id x
      %v = arith.index_cast %tid : index to i32
      %lane = arith.constant 100 : i32
      %b = gpu.subgroup_broadcast %v, specific_lane %lane : i32
      memref.store %b, %out[%tid] : memref<?xi32, 1>
      gpu.return
    }
  }
}
