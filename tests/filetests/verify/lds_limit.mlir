// Shared arrays in IR input are held to the 65536 bytes of LDS as in `.k` source, laid out as
// the backend places them (8-byte-aligned, an i1 element a dword), with checked arithmetic.
kernel.func @over {
^entry(%out: !kernel.ptr<global, i32>):
  %a = kernel.shared_alloc 100000 : !kernel.ptr<shared, i32> loc("t.k":3:3)
  kernel.return
}
kernel.func @aligned {
^entry(%out: !kernel.ptr<global, i32>):
  %a = kernel.shared_alloc 1 : !kernel.ptr<shared, i32> loc("t.k":8:3)
  %b = kernel.shared_alloc 16383 : !kernel.ptr<shared, i32> loc("t.k":9:3)
  kernel.return
}
kernel.func @bools {
^entry(%out: !kernel.ptr<global, i32>):
  %a = kernel.shared_alloc 16385 : !kernel.ptr<shared, i1> loc("t.k":14:3)
  kernel.return
}
kernel.func @wraps {
^entry(%out: !kernel.ptr<global, i32>):
  %a = kernel.shared_alloc 1073741824 : !kernel.ptr<shared, i32> loc("t.k":19:3)
  %b = kernel.shared_alloc 4611686018427387904 : !kernel.ptr<shared, i32> loc("t.k":20:3)
  kernel.return
}
// RUN: not %kc %s -S 2>&1 | FileCheck %s
// CHECK-DAG: t.k:3:3: error: kernel `over` needs 400000 bytes of shared memory (its arrays at 8-byte-aligned offsets), more than the 65536 bytes of LDS
// CHECK-DAG: t.k:9:3: error: kernel `aligned` needs 65540 bytes of shared memory
// CHECK-DAG: t.k:14:3: error: kernel `bools` needs 65540 bytes of shared memory
// CHECK-DAG: t.k:19:3: error: kernel `wraps` needs 4294967296 bytes of shared memory
// CHECK-NOT: panicked
// The sizes just under the limit compile, and the descriptor reserves what the layout needs.
// RUN: sed -e 's/ 100000 / 16384 /' -e 's/ 16383 / 16382 /' -e 's/ 16385 / 16384 /' -e 's/ 1073741824 / 1 /' -e 's/ 4611686018427387904 / 2 /' %s > %t.mlir
// RUN: %kc %t.mlir -S | FileCheck %s --check-prefix=FITS
// FITS: .amdhsa_group_segment_fixed_size 65536
// FITS: .amdhsa_group_segment_fixed_size 65536
// FITS: .amdhsa_group_segment_fixed_size 65536
// FITS: .amdhsa_group_segment_fixed_size 16
