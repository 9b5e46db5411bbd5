// An element index is an i32 or i64: an i1 (0 or -1 as a signed number) has no meaning as an
// address offset, and the backend holds a divergent i1 as a lane mask, not a number (it
// stopped with "internal: lane mask read as a scalar"). The verifier says so at the op.
kernel.func @k {
^entry(%in: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>):
  %t = kernel.workitem_id x : i32
  %b = arith.trunci %t : i32 to i1
  %v = kernel.load %in, %b : !kernel.ptr<global, i32>, i1
  kernel.store %v, %out, %t : !kernel.ptr<global, i32>, i32
  %q = "kernel.ptr_offset"(%out, %b) : (!kernel.ptr<global, i32>, i1) -> !kernel.ptr<global, i32>
  kernel.store %t, %out, %b : !kernel.ptr<global, i32>, i1
  kernel.return
}
// RUN: not %kc %s -S 2>&1 | FileCheck %s
// CHECK: i1_index.mlir:8:{{[0-9]+}}: error: `kernel.load`: loads the pointer's element type at an i32 or i64 index
// CHECK: i1_index.mlir:10:{{[0-9]+}}: error: `kernel.ptr_offset`: offsets a pointer by an i32 or i64 index
// CHECK: i1_index.mlir:11:{{[0-9]+}}: error: `kernel.store`: stores the pointer's element type at an i32 or i64 index
