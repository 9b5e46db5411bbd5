// Seed 004, example 2: `if (c) v = f(s[1]) else v = f(s[2])` must not become
// `v = f(s[c ? 1 : 2])` when `c` is divergent: the operand must stay uniform. Here f is
// readlane, whose lane index the registry lists as a uniform operand. sink-common (two equal
// last ops of a join's predecessors become one in the join) asks legality::can_select for
// the operand that differs and legality::convergence_allows for the move: with a divergent
// `c` the two readlanes stay; with a uniform `c` they become one readlane of a uniform block
// argument. Two adds in the same shape (no uniform operand, not cross-lane) become one add
// of a block argument even under a divergent branch: that is the legal merge.
// RUN: %kc %s --passes=sink-common | FileCheck %s
// CHECK-LABEL: kernel.func @divergent
// CHECK: ^a:
// CHECK-NEXT: %v1 = kernel.readlane %x, %one, %e : i32
// CHECK-NEXT: cf.br ^join(%v1, %one : i32, i32)
// CHECK: ^b:
// CHECK-NEXT: %v2 = kernel.readlane %x, %two, %e : i32
// CHECK-NEXT: cf.br ^join(%v2, %two : i32, i32)
// CHECK: ^join(%v: i32, %[[K:[a-z0-9_.]+]]: i32):
// CHECK-NEXT: %w = arith.addi %x, %[[K]] : i32
// CHECK-NEXT: kernel.store %v, %buf, %w : !kernel.ptr<global, i32>, i32
// CHECK-LABEL: kernel.func @uniform
// CHECK: ^a:
// CHECK-NEXT: cf.br ^join(%one : i32)
// CHECK: ^b:
// CHECK-NEXT: cf.br ^join(%two : i32)
// CHECK: ^join(%[[L:[a-z0-9_.]+]]: i32):
// CHECK-NEXT: %v = kernel.readlane %x, %[[L]], %e : i32
// CHECK-NEXT: kernel.store %v, %buf, %x : !kernel.ptr<global, i32>, i32
module {
  kernel.func @divergent {
  ^entry(%buf: !kernel.ptr<global, i32>, %n: i32):
    %e = conv.entry : !conv.token
    %x = kernel.workitem_id x : i32
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %c = arith.cmpi slt, %x, %n : i32
    cf.cond_br %c, ^a, ^b
  ^a:
    %v1 = kernel.readlane %x, %one, %e : i32
    %w1 = arith.addi %x, %one : i32
    cf.br ^join(%v1, %w1 : i32, i32)
  ^b:
    %v2 = kernel.readlane %x, %two, %e : i32
    %w2 = arith.addi %x, %two : i32
    cf.br ^join(%v2, %w2 : i32, i32)
  ^join(%v: i32, %w: i32):
    kernel.store %v, %buf, %w : !kernel.ptr<global, i32>, i32
    kernel.return
  }
  kernel.func @uniform {
  ^entry(%buf: !kernel.ptr<global, i32>, %n: i32, %m: i32):
    %e = conv.entry : !conv.token
    %x = kernel.workitem_id x : i32
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %c = arith.cmpi slt, %m, %n : i32
    cf.cond_br %c, ^a, ^b
  ^a:
    %v1 = kernel.readlane %x, %one, %e : i32
    cf.br ^join(%v1 : i32)
  ^b:
    %v2 = kernel.readlane %x, %two, %e : i32
    cf.br ^join(%v2 : i32)
  ^join(%v: i32):
    kernel.store %v, %buf, %x : !kernel.ptr<global, i32>, i32
    kernel.return
  }
}
