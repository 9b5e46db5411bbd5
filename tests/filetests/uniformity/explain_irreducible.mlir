kernel.func @irreducible {
^entry(%out: !kernel.ptr<global, i32>, %n: i32):
  %e = conv.entry : !conv.token
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %c = arith.cmpi slt, %tid, %n : i32
  cf.cond_br %c, ^a(%zero : i32), ^b(%zero : i32)
^a(%x: i32):
  %one = arith.constant 1 : i32
  %x1 = arith.addi %x, %one : i32
  cf.br ^b(%x1 : i32)
^b(%y: i32):
  %d = arith.cmpi slt, %y, %n : i32
  cf.cond_br %d, ^a(%y : i32), ^exit
^exit:
  kernel.store %y, %out, %zero : !kernel.ptr<global, i32>, i32
  kernel.return
}
// An irreducible cycle (^a and ^b are both entries) reached from a divergent branch outside
// it: the whole cycle is assumed divergent. IR input has no `let` names, so values go by their
// printed names, and steps without a location name the kernel and block instead.
// RUN: %kc %s --explain=y | FileCheck %s
// RUN: %kc %s --explain=%x1 | FileCheck %s --check-prefix=X1
// RUN: %kc %s --explain=n | FileCheck %s --check-prefix=ARG

// CHECK:      @irreducible %y: divergent
// CHECK-NEXT:   @irreducible ^b: %y is divergent: it is defined in the irreducible cycle (depth=1: entries(^a ^b)), assumed divergent: threads that split at the divergent branch in ^entry outside the cycle enter it through different entries and meet at ^{{a|b}}, so they run its iterations out of step
// CHECK-NEXT:   @irreducible ^entry: the branch in ^entry is divergent: its condition %c (`arith.cmpi slt, %tid, %n : i32`) is divergent
// CHECK-NEXT:   @irreducible ^entry: %c (`arith.cmpi slt, %tid, %n : i32`) is divergent: it uses %tid defined in ^entry
// CHECK-NEXT:   @irreducible ^entry: %tid is a source of divergence: `kernel.workitem_id x : i32` (each thread has its own id)
// CHECK-NOT: {{.}}

// X1:      @irreducible %x1: divergent
// X1-NEXT:   @irreducible ^a: %x1 (`arith.addi %x, %one : i32`) is divergent: it is defined in the irreducible cycle (depth=1: entries(^a ^b)), assumed divergent
// X1-NEXT:   @irreducible ^entry: the branch in ^entry is divergent

// ARG:      @irreducible %n: uniform
// ARG-NEXT:   @irreducible ^entry: %n is uniform: kernel argument (the same for every thread)
