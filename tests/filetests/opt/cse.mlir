// cse alone: a pure op equal to one in a dominating position (same kind, same operands,
// commutative operands in either order, same attributes) is replaced by it. Ops in sibling
// branches are not merged (neither dominates the other); token ops are never merged, even
// with equal operands, and a load only with an equal load earlier in its block that nothing
// in between orders it after (%l2 becomes %l1; opt/cse_loads.mlir has the memory-order
// cases). Equal cross-lane ops (same operands, same token) merge
// only where the same threads run both: %s2 (same block) and %s4 (the join after a divergent
// if/else: every thread of the entry is back) become %s1; %s3, under the divergent branch,
// stays (seed 004: a shuffle executed by fewer threads is another value).
// RUN: %kc %s --passes=cse | FileCheck %s
// CHECK-LABEL: kernel.func @k
// CHECK: %a = arith.addi %t, %n : i32
// CHECK-NOT: %b = arith.addi
// CHECK: kernel.store %a, %buf, %a : !kernel.ptr<global, i32>, i32
// CHECK: %m = arith.muli %a, %a : i32
// CHECK-NEXT: kernel.store %m, %buf, %t : !kernel.ptr<global, i32>, i32
// CHECK: %l1 = kernel.load %buf, %t : !kernel.ptr<global, i32>, i32
// CHECK-NEXT: %s1 = kernel.shuffle %t, %n, %e : i32
// CHECK-NOT: %s2
// CHECK: ^then:
// CHECK-NEXT: %x1 = arith.muli %n, %n : i32
// CHECK-NEXT: kernel.store %a, %buf, %x1 : !kernel.ptr<global, i32>, i32
// CHECK-NEXT: %s3 = kernel.shuffle %t, %n, %e : i32
// CHECK-NEXT: kernel.store %s3, %buf, %x1 : !kernel.ptr<global, i32>, i32
// CHECK: ^else:
// CHECK-NEXT: %x2 = arith.muli %n, %n : i32
// CHECK-NEXT: kernel.store %a, %buf, %x2 : !kernel.ptr<global, i32>, i32
// CHECK: ^join:
// CHECK-NEXT: kernel.store %m, %buf, %t : !kernel.ptr<global, i32>, i32
// CHECK-NEXT: kernel.store %l1, %buf, %s1 : !kernel.ptr<global, i32>, i32
// CHECK-NEXT: kernel.store %s1, %buf, %t : !kernel.ptr<global, i32>, i32
module {
  kernel.func @k {
  ^entry(%buf: !kernel.ptr<global, i32>, %n: i32):
    %e = conv.entry : !conv.token
    %t = kernel.workitem_id x : i32
    %a = arith.addi %t, %n : i32
    %b = arith.addi %n, %t : i32
    kernel.store %b, %buf, %a : !kernel.ptr<global, i32>, i32
    %m = arith.muli %a, %a : i32
    %m2 = arith.muli %b, %b : i32
    kernel.store %m2, %buf, %t : !kernel.ptr<global, i32>, i32
    %l1 = kernel.load %buf, %t : !kernel.ptr<global, i32>, i32
    %l2 = kernel.load %buf, %t : !kernel.ptr<global, i32>, i32
    %s1 = kernel.shuffle %t, %n, %e : i32
    %s2 = kernel.shuffle %t, %n, %e : i32
    %c = arith.cmpi slt, %l1, %s2 : i32
    cf.cond_br %c, ^then, ^else
  ^then:
    %x1 = arith.muli %n, %n : i32
    kernel.store %a, %buf, %x1 : !kernel.ptr<global, i32>, i32
    %s3 = kernel.shuffle %t, %n, %e : i32
    kernel.store %s3, %buf, %x1 : !kernel.ptr<global, i32>, i32
    cf.br ^join
  ^else:
    %x2 = arith.muli %n, %n : i32
    kernel.store %a, %buf, %x2 : !kernel.ptr<global, i32>, i32
    cf.br ^join
  ^join:
    %m3 = arith.muli %a, %b : i32
    kernel.store %m3, %buf, %t : !kernel.ptr<global, i32>, i32
    kernel.store %l2, %buf, %s2 : !kernel.ptr<global, i32>, i32
    %s4 = kernel.shuffle %t, %n, %e : i32
    kernel.store %s4, %buf, %t : !kernel.ptr<global, i32>, i32
    kernel.return
  }
}
