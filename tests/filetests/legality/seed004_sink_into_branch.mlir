// Seed 004, example 1: a cross-lane op computed before `if (c)` and read only inside it.
// Sinking it into the branch (what LLVM's Sink pass does for a free op) would run it with
// only the threads where `c` holds: the shuffle would read lanes that are no longer there.
// kc's sink pass asks legality::can_move (convergent and co-convergent rules): the shuffle
// stays when `c` is divergent, and moves when `c` is uniform (every thread goes the same way,
// so the set running it is the same). The free multiply moves in both kernels.
// RUN: %kc %s --passes=sink | FileCheck %s
// CHECK-LABEL: kernel.func @divergent
// CHECK: ^entry(
// CHECK: %s = kernel.shuffle %n, %t, %e : i32
// CHECK: cf.cond_br %c
// CHECK: ^then:
// CHECK-NEXT: %x = arith.muli %n, %t : i32
// CHECK-NEXT: kernel.store %s, %buf, %t : !kernel.ptr<global, i32>, i32
// CHECK-LABEL: kernel.func @uniform
// CHECK: ^entry(
// CHECK-NOT: kernel.shuffle
// CHECK: cf.cond_br %c
// CHECK: ^then:
// CHECK-NEXT: %t = kernel.workitem_id x : i32
// CHECK-NEXT: %s = kernel.shuffle %n, %t, %e : i32
// CHECK-NEXT: %x = arith.muli %n, %t : i32
// CHECK-NEXT: kernel.store %s, %buf, %t : !kernel.ptr<global, i32>, i32
module {
  kernel.func @divergent {
  ^entry(%buf: !kernel.ptr<global, i32>, %n: i32):
    %e = conv.entry : !conv.token
    %t = kernel.workitem_id x : i32
    %s = kernel.shuffle %n, %t, %e : i32
    %x = arith.muli %n, %t : i32
    %c = arith.cmpi slt, %t, %n : i32
    cf.cond_br %c, ^then, ^join
  ^then:
    kernel.store %s, %buf, %t : !kernel.ptr<global, i32>, i32
    kernel.store %x, %buf, %n : !kernel.ptr<global, i32>, i32
    cf.br ^join
  ^join:
    kernel.return
  }
  kernel.func @uniform {
  ^entry(%buf: !kernel.ptr<global, i32>, %n: i32, %m: i32):
    %e = conv.entry : !conv.token
    %t = kernel.workitem_id x : i32
    %s = kernel.shuffle %n, %t, %e : i32
    %x = arith.muli %n, %t : i32
    %c = arith.cmpi slt, %m, %n : i32
    cf.cond_br %c, ^then, ^join
  ^then:
    kernel.store %s, %buf, %t : !kernel.ptr<global, i32>, i32
    kernel.store %x, %buf, %n : !kernel.ptr<global, i32>, i32
    cf.br ^join
  ^join:
    kernel.return
  }
}
