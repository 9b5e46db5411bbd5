// Seed 004, example 4: `if (idx == 1) v = f(s[idx]) else if (idx == 2) v = f(s[idx])` must
// not become one `f(s[idx])` under the union of the conditions: the merged op would run with
// more threads than either original. Here both arms of a divergent branch end in the same
// readlane (same operands, same token); sink-common would put one copy in the join, run by
// the threads of both arms. legality::convergence_allows refuses (co-convergent: the join's
// threads are not the arm's). Under a uniform branch the arms' threads are the join's, and
// the two become one.
// RUN: %kc %s --passes=sink-common | FileCheck %s
// CHECK-LABEL: kernel.func @divergent
// CHECK: ^a:
// CHECK-NEXT: %v1 = kernel.readlane %x, %idx, %e : i32
// CHECK: ^b:
// CHECK-NEXT: %v2 = kernel.readlane %x, %idx, %e : i32
// CHECK: ^join(%v: i32):
// CHECK-NEXT: kernel.store %v, %buf, %x : !kernel.ptr<global, i32>, i32
// CHECK-LABEL: kernel.func @uniform
// CHECK: ^a:
// CHECK-NEXT: cf.br ^join
// CHECK: ^b:
// CHECK-NEXT: cf.br ^join
// CHECK: ^join:
// CHECK-NEXT: %v = kernel.readlane %x, %idx, %e : i32
// CHECK-NEXT: kernel.store %v, %buf, %x : !kernel.ptr<global, i32>, i32
module {
  kernel.func @divergent {
  ^entry(%buf: !kernel.ptr<global, i32>, %idx: i32):
    %e = conv.entry : !conv.token
    %x = kernel.workitem_id x : i32
    %one = arith.constant 1 : i32
    %c = arith.cmpi eq, %x, %one : i32
    cf.cond_br %c, ^a, ^b
  ^a:
    %v1 = kernel.readlane %x, %idx, %e : i32
    cf.br ^join(%v1 : i32)
  ^b:
    %v2 = kernel.readlane %x, %idx, %e : i32
    cf.br ^join(%v2 : i32)
  ^join(%v: i32):
    kernel.store %v, %buf, %x : !kernel.ptr<global, i32>, i32
    kernel.return
  }
  kernel.func @uniform {
  ^entry(%buf: !kernel.ptr<global, i32>, %idx: i32):
    %e = conv.entry : !conv.token
    %x = kernel.workitem_id x : i32
    %one = arith.constant 1 : i32
    %c = arith.cmpi eq, %idx, %one : i32
    cf.cond_br %c, ^a, ^b
  ^a:
    %v1 = kernel.readlane %x, %idx, %e : i32
    cf.br ^join(%v1 : i32)
  ^b:
    %v2 = kernel.readlane %x, %idx, %e : i32
    cf.br ^join(%v2 : i32)
  ^join(%v: i32):
    kernel.store %v, %buf, %x : !kernel.ptr<global, i32>, i32
    kernel.return
  }
}
