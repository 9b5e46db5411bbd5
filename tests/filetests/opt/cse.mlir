// cse alone: a pure op equal to one in a dominating position (same kind, same operands,
// commutative operands in either order, same attributes) is replaced by it. Ops in sibling
// branches are not merged (neither dominates the other); convergent and co-convergent ops
// (ballot, shuffle), loads and token ops are never merged, even with equal operands.
// RUN: %kc %s --passes=cse | FileCheck %s
// CHECK-LABEL: kernel.func @k
// CHECK: %a = arith.addi %t, %n : i32
// CHECK-NOT: %b = arith.addi
// CHECK: kernel.store %a, %buf, %a
// CHECK: %m = arith.muli %a, %a : i32
// CHECK-NEXT: kernel.store %m, %buf, %t
// CHECK: %l1 = kernel.load %buf, %t : i32
// CHECK-NEXT: %l2 = kernel.load %buf, %t : i32
// CHECK-NEXT: %s1 = kernel.shuffle %t, %n, %e : i32
// CHECK-NEXT: %s2 = kernel.shuffle %t, %n, %e : i32
// CHECK: ^then:
// CHECK-NEXT: %x1 = arith.muli %n, %n : i32
// CHECK-NEXT: kernel.store %a, %buf, %x1
// CHECK: ^else:
// CHECK-NEXT: %x2 = arith.muli %n, %n : i32
// CHECK-NEXT: kernel.store %a, %buf, %x2
// CHECK: ^join:
// CHECK-NEXT: kernel.store %m, %buf, %t
builtin.module {
  kernel.func @k {
  ^entry(%buf: !kernel.ptr<global, i32>, %n: i32):
    %e = conv.entry : !conv.token
    %t = kernel.workitem_id x : i32
    %a = arith.addi %t, %n : i32
    %b = arith.addi %n, %t : i32
    kernel.store %b, %buf, %a
    %m = arith.muli %a, %a : i32
    %m2 = arith.muli %b, %b : i32
    kernel.store %m2, %buf, %t
    %l1 = kernel.load %buf, %t : i32
    %l2 = kernel.load %buf, %t : i32
    %s1 = kernel.shuffle %t, %n, %e : i32
    %s2 = kernel.shuffle %t, %n, %e : i32
    %c = arith.cmpi slt, %l1, %s2 : i1
    cf.cond_br %c, [^then, ^else]
  ^then:
    %x1 = arith.muli %n, %n : i32
    kernel.store %a, %buf, %x1
    cf.br [^join]
  ^else:
    %x2 = arith.muli %n, %n : i32
    kernel.store %a, %buf, %x2
    cf.br [^join]
  ^join:
    %m3 = arith.muli %a, %b : i32
    kernel.store %m3, %buf, %t
    kernel.store %l2, %buf, %s1
    kernel.return
  }
}
