// dce alone: unused pure ops (cascading to their operands), unread block arguments with the
// values passed for them, and unreachable blocks go; memory ops, cross-lane ops and tokens
// stay even when their results are unused.
// RUN: %kc %s --passes=dce | FileCheck %s
// CHECK-LABEL: kernel.func @dead
// CHECK-NOT: arith.muli
// CHECK: %v = kernel.load %buf, %t : !kernel.ptr<global, i32>, i32
// CHECK: kernel.shuffle
// CHECK: cf.cond_br %c, ^a, ^b
// CHECK: ^a:
// CHECK-NEXT: cf.br ^join
// CHECK: ^b:
// CHECK-NEXT: cf.br ^join
// CHECK: ^join:
// CHECK-NEXT: kernel.store %t, %buf, %t : !kernel.ptr<global, i32>, i32
// CHECK-NOT: ^never
module {
  kernel.func @dead {
  ^entry(%buf: !kernel.ptr<global, i32>, %n: i32):
    %e = conv.entry : !conv.token
    %t = kernel.workitem_id x : i32
    %k = arith.constant 3 : i32
    %x = arith.muli %n, %k : i32
    %y = arith.muli %x, %x : i32
    %v = kernel.load %buf, %t : !kernel.ptr<global, i32>, i32
    %s = kernel.shuffle %t, %n, %e : i32
    %c = arith.cmpi slt, %t, %n : i32
    cf.cond_br %c, ^a, ^b
  ^a:
    cf.br ^join(%x : i32)
  ^b:
    cf.br ^join(%t : i32)
  ^join(%j: i32):
    kernel.store %t, %buf, %t : !kernel.ptr<global, i32>, i32
    kernel.return
  ^never:
    %z = arith.addi %n, %n : i32
    cf.br ^join(%z : i32)
  }
}
