// fix-irreducible: the cycle ^a <-> ^b is entered at both blocks from ^entry. Every edge into
// ^a or ^b, from outside the cycle or inside it, now enters one guard ^irr.guard, which takes a
// selector and both entries' arguments and dispatches on `arith.cmpi eq`; the cycle becomes a
// natural loop with the guard as its header.
// RUN: %kc %s --emit=reducible --no-locs | FileCheck %s
// RUN: %kc %s --emit=reducible > %t.mlir
// RUN: %kc %t.mlir --emit=uniformity --no-locs | FileCheck %s --check-prefix=CYCLES
kernel.func @two_entries {
^entry(%c: i1, %x: i32, %out: !kernel.ptr<global, i32>):
  %one = arith.constant 1 : i32
  cf.cond_br %c, ^a(%x : i32), ^b
^a(%i: i32):
  %i.next = arith.addi %i, %one : i32
  cf.cond_br %c, ^b, ^exit(%i.next : i32)
^b:
  %y = arith.muli %x, %x : i32
  cf.br ^a(%y : i32)
^exit(%r: i32):
  kernel.store %r, %out, %x : !kernel.ptr<global, i32>, i32
  kernel.return
}
// CHECK-LABEL: kernel.func @two_entries {
// CHECK-NEXT:  ^entry(%c: i1, %x: i32, %out: !kernel.ptr<global, i32>):
// CHECK-NEXT:    %one = arith.constant 1 : i32
// CHECK-NEXT:    %c0 = arith.constant 0 : i32
// CHECK-NEXT:    %c1 = arith.constant 1 : i32
// CHECK-NEXT:    cf.cond_br %c, ^irr.guard(%c0, %x : i32, i32), ^irr.guard(%c1, %c0 : i32, i32)
// CHECK-NEXT:  ^irr.guard(%irr.sel: i32, %i.irr: i32):
// CHECK-NEXT:    %[[IS_A:.*]] = arith.cmpi eq, %irr.sel, %c0 : i32
// CHECK-NEXT:    cf.cond_br %[[IS_A]], ^a(%i.irr : i32), ^b
// CHECK-NEXT:  ^a(%i: i32):
// CHECK-NEXT:    %i.next = arith.addi %i, %one : i32
// CHECK-NEXT:    cf.cond_br %c, ^irr.guard(%c1, %c0 : i32, i32), ^exit(%i.next : i32)
// CHECK-NEXT:  ^b:
// CHECK-NEXT:    %y = arith.muli %x, %x : i32
// CHECK-NEXT:    cf.br ^irr.guard(%c0, %y : i32, i32)
// CHECK-NEXT:  ^exit(%r: i32):
// CHECK-NOT:   guard
// CYCLES:      //   cycles:
// CYCLES-NEXT: //     depth=1: entries(^irr.guard) ^a ^b
// CYCLES-NOT:  entries({{[^) ]+}} {{.*}})
