// Seed 004, examples 5 and 6: `v = c ? f(s0) : f(s1)` must not become `f(c ? s0 : s1)` when
// the operand must be uniform (`texture(s[c ? 0 : 1])`), though no control flow changes; it
// may when it need not (`texelFetch(s, coord[c ? 0 : 1])`). canonicalize's select-of-ops
// fold asks legality::can_select: readlane's lane index (a uniform operand) only becomes a
// select of a uniform condition; an add's operand may become a divergent select.
// RUN: %kc %s --passes=canonicalize | FileCheck %s
// CHECK-LABEL: kernel.func @divergent
// CHECK: %r0 = kernel.readlane %x, %zero, %e : i32
// CHECK-NEXT: %r1 = kernel.readlane %x, %one, %e : i32
// CHECK-NEXT: %v = arith.select %c, %r0, %r1 : i32
// CHECK-NEXT: %[[S:[a-z0-9_.]+]] = arith.select %c, %n, %m : i32
// CHECK-NEXT: %w = arith.addi %x, %[[S]] : i32
// CHECK-LABEL: kernel.func @uniform
// CHECK: %[[L:[a-z0-9_.]+]] = arith.select %c, %zero, %one : i32
// CHECK-NEXT: %v = kernel.readlane %x, %[[L]], %e : i32
module {
  kernel.func @divergent {
  ^entry(%buf: !kernel.ptr<global, i32>, %n: i32, %m: i32):
    %e = conv.entry : !conv.token
    %x = kernel.workitem_id x : i32
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %c = arith.cmpi slt, %x, %n : i32
    %r0 = kernel.readlane %x, %zero, %e : i32
    %r1 = kernel.readlane %x, %one, %e : i32
    %v = arith.select %c, %r0, %r1 : i32
    %a0 = arith.addi %x, %n : i32
    %a1 = arith.addi %x, %m : i32
    %w = arith.select %c, %a0, %a1 : i32
    kernel.store %v, %buf, %w : !kernel.ptr<global, i32>, i32
    kernel.return
  }
  kernel.func @uniform {
  ^entry(%buf: !kernel.ptr<global, i32>, %n: i32, %m: i32):
    %e = conv.entry : !conv.token
    %x = kernel.workitem_id x : i32
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %c = arith.cmpi slt, %m, %n : i32
    %r0 = kernel.readlane %x, %zero, %e : i32
    %r1 = kernel.readlane %x, %one, %e : i32
    %v = arith.select %c, %r0, %r1 : i32
    kernel.store %v, %buf, %x : !kernel.ptr<global, i32>, i32
    kernel.return
  }
}
