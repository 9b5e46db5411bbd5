// A branch folded to a jump keeps its taken edge's arguments; when one of them is folded
// afterwards (here %v13 = %v3 - %v3 becomes 0 after the branch on %q14 = %wg > %wg became a
// jump), the jump reads the new value. The jump was once missing from the use lists and kept
// reading a removed op (found by backend_assembles at -O2, kernels 1807 and 2232 of seed
// 0x6b630004).
// RUN: %kc %s --passes=canonicalize | FileCheck %s
// RUN: %kc %s -S | %llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null
// CHECK: ^b2:
// CHECK: [[Z:%[0-9a-z_]+]] = arith.constant 0 : i32
// CHECK: cf.br ^b1([[Z]] : i32)
kernel.func @k1807 {
^entry(%c: i1, %d: i1, %n: i32, %buf: !kernel.ptr<global, i32>):
  %tid = kernel.workitem_id x : i32
  %wg = kernel.workgroup_id x : i32
  %v2 = arith.addi %n, %tid : i32
  %v3 = arith.subi %wg, %tid : i32
  %k8 = arith.constant 0 : i32
  cf.cond_br %d, ^b2, ^b1(%k8 : i32)
^b1(%a1: i32):
  %v15 = arith.select %d, %wg, %wg : i32
  cf.br ^b2
^b2:
  %v13 = arith.subi %v3, %v3 : i32
  %q14 = arith.cmpi sgt, %wg, %wg : i32
  cf.cond_br %q14, ^b3, ^b1(%v13 : i32)
^b3:
  kernel.store %wg, %buf, %wg : !kernel.ptr<global, i32>, i32
  kernel.return
}
