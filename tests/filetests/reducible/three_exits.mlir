// unify-loop-exits: the loop ^h -> ^body -> ^latch -> ^h leaves to three blocks (^done from
// the header, ^found from the body, ^odd from the latch). All three exiting edges now enter one
// ^loop.exit.guard, which dispatches to them on a selector (a chain of two cond_brs). ^found and
// ^odd read %k (from the body) and ^odd reads %i1 (from the latch): those blocks do not
// dominate the exit from the header, so the values cross the guard as %k.moved and %i1.moved
// (a placeholder on the edges where they are not defined). The header's %i dominates every
// exit and crosses nothing. The heart stays first in the header.
// RUN: %kc %s -O0 --emit=reducible --no-locs | FileCheck %s
// RUN: %kc %s -O0 --emit=reducible > %t.mlir
// RUN: %kc %t.mlir -O0 --emit=reducible > %t2.mlir
// RUN: diff %t.mlir %t2.mlir
kernel.func @three_exits {
^entry(%n: i32, %out: !kernel.ptr<global, i32>):
  %e = conv.entry : !conv.token
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  cf.br ^h(%zero : i32)
^h(%i: i32):
  %heart = conv.loop %e : !conv.token
  %c = arith.cmpi slt, %i, %n : i32
  %b = kernel.ballot %c, %heart : i64
  cf.cond_br %c, ^body, ^done(%i : i32)
^body:
  %k = arith.muli %i, %i : i32
  %big = arith.cmpi sgt, %k, %n : i32
  cf.cond_br %big, ^found, ^latch
^latch:
  %i1 = arith.addi %i, %one : i32
  %odd = arith.cmpi eq, %i1, %n : i32
  cf.cond_br %odd, ^odd, ^h(%i1 : i32)
^found:
  kernel.store %k, %out, %i : !kernel.ptr<global, i32>, i32
  kernel.return
^done(%r: i32):
  kernel.store %r, %out, %zero : !kernel.ptr<global, i32>, i32
  kernel.return
^odd:
  kernel.store %i1, %out, %k : !kernel.ptr<global, i32>, i32
  kernel.return
}
// CHECK-LABEL: kernel.func @three_exits {
// CHECK:       ^h(%i: i32):
// CHECK-NEXT:    %heart = conv.loop %e : !conv.token
// CHECK:         cf.cond_br %c, ^body, ^loop.exit.guard(%c0, %i, %c0, %c0 : i32, i32, i32, i32)
// CHECK-NEXT:  ^body:
// CHECK:         cf.cond_br %big, ^loop.exit.guard(%c1, %c0, %k, %c0 : i32, i32, i32, i32), ^latch
// CHECK-NEXT:  ^latch:
// CHECK:         cf.cond_br %odd, ^loop.exit.guard(%c2, %c0, %k, %i1 : i32, i32, i32, i32), ^h(%i1 : i32)
// CHECK-NEXT:  ^loop.exit.guard(%exit.sel: i32, %r.exit: i32, %k.moved: i32, %i1.moved: i32):
// CHECK-NEXT:    %[[IS_DONE:.*]] = arith.cmpi eq, %exit.sel, %c0 : i32
// CHECK-NEXT:    cf.cond_br %[[IS_DONE]], ^done(%r.exit : i32), ^loop.exit.guard_1
// CHECK-NEXT:  ^loop.exit.guard_1:
// CHECK-NEXT:    %[[IS_FOUND:.*]] = arith.cmpi eq, %exit.sel, %c1 : i32
// CHECK-NEXT:    cf.cond_br %[[IS_FOUND]], ^found, ^odd
// CHECK-NEXT:  ^found:
// CHECK-NEXT:    kernel.store %k.moved, %out, %i : !kernel.ptr<global, i32>, i32
// CHECK:       ^done(%r: i32):
// CHECK-NEXT:    kernel.store %r, %out, %zero : !kernel.ptr<global, i32>, i32
// CHECK:       ^odd:
// CHECK-NEXT:    kernel.store %i1.moved, %out, %k.moved : !kernel.ptr<global, i32>, i32
