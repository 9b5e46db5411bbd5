// "Convergence And Uniformity", Diverged Paths reaching a Cycle: the closed path
// P -> Q -> R -> S -> P with entries P and R, and the divergent branch in Entry instead of Q
// (Entry -> P or R on the thread id; every branch inside the cycle is uniform).
//
// Two threads that enter at P and at R execute converged instances along the closed path
// when P is the header, and different ones when R is (the document's two tables). "When
// diverged paths reach different entries of an irreducible cycle from outside the cycle, the
// static analysis conservatively reports every node in the cycle as not m-converged": every
// value defined in the cycle is divergent, although computed from uniform arguments. The
// cycle is left only through uniform branches (no divergent exit): after it, a value that
// uses no cycle value is uniform, one that does is divergent.
//
// @header_p lists P first (header P), @header_r lists R first (header R): same verdicts.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @header_p {
^entry(%a: i32, %b: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %uni = arith.cmpi slt, %a, %zero : i32
  %div = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %div, ^P(%a : i32), ^R
^P(%p: i32):
  %pp = arith.addi %b, %b : i32
  cf.br ^Q
^Q:
  %qq = arith.addi %b, %a : i32
  cf.cond_br %uni, ^S(%qq : i32), ^R
^R:
  %rr = arith.muli %b, %a : i32
  cf.br ^S(%rr : i32)
^S(%s: i32):
  %ss = arith.addi %a, %a : i32
  cf.cond_br %uni, ^exit, ^P(%b : i32)
^exit:
  %ee = arith.addi %b, %a : i32
  %ee.ss = arith.addi %ss, %a : i32
  kernel.return
}
// SUM-LABEL: // uniformity of @header_p:
// SUM-NEXT:  //   9 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^P ^R) ^Q ^S
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^P ^R) ^Q ^S
// CHECK-LABEL: kernel.func @header_p {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32): // %a uniform, %b uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div, ^P(%a : i32), ^R // divergent branch; joins: ^P ^S ^R ^exit
// CHECK-NEXT:  ^P(%p: i32): // %p divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  %pp = arith.addi %b, %b : i32 // divergent
// CHECK-NEXT:  cf.br ^Q
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %b, %a : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni, ^S(%qq : i32), ^R // uniform branch
// CHECK-NEXT:  ^R: // join of the divergent branch in ^entry
// CHECK-NEXT:  %rr = arith.muli %b, %a : i32 // divergent
// CHECK-NEXT:  cf.br ^S(%rr : i32)
// CHECK-NEXT:  ^S(%s: i32): // %s divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  %ss = arith.addi %a, %a : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni, ^exit, ^P(%b : i32) // uniform branch
// CHECK-NEXT:  ^exit: // join of the divergent branch in ^entry
// CHECK-NEXT:  %ee = arith.addi %b, %a : i32 // uniform
// CHECK-NEXT:  %ee.ss = arith.addi %ss, %a : i32 // divergent
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @header_r {
^entry(%a: i32, %b: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %uni = arith.cmpi slt, %a, %zero : i32
  %div = arith.cmpi sge, %tid, %zero : i32
  cf.cond_br %div, ^R, ^P(%a : i32)
^P(%p: i32):
  %pp = arith.addi %b, %b : i32
  cf.br ^Q
^Q:
  %qq = arith.addi %b, %a : i32
  cf.cond_br %uni, ^S(%qq : i32), ^R
^R:
  %rr = arith.muli %b, %a : i32
  cf.br ^S(%rr : i32)
^S(%s: i32):
  %ss = arith.addi %a, %a : i32
  cf.cond_br %uni, ^exit, ^P(%b : i32)
^exit:
  %ee = arith.addi %b, %a : i32
  %ee.ss = arith.addi %ss, %a : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @header_r:
// SUM-NEXT:  //   9 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^R ^P) ^S ^Q
// SUM-NEXT:  //     depth=2: entries(^S ^P) ^Q
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^R ^P) ^S ^Q
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @header_r {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32): // %a uniform, %b uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %div = arith.cmpi sge, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div, ^R, ^P(%a : i32) // divergent branch; joins: ^R ^S ^exit ^P
// CHECK-NEXT:  ^P(%p: i32): // %p divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  %pp = arith.addi %b, %b : i32 // divergent
// CHECK-NEXT:  cf.br ^Q
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %b, %a : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni, ^S(%qq : i32), ^R // uniform branch
// CHECK-NEXT:  ^R: // join of the divergent branch in ^entry
// CHECK-NEXT:  %rr = arith.muli %b, %a : i32 // divergent
// CHECK-NEXT:  cf.br ^S(%rr : i32)
// CHECK-NEXT:  ^S(%s: i32): // %s divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  %ss = arith.addi %a, %a : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni, ^exit, ^P(%b : i32) // uniform branch
// CHECK-NEXT:  ^exit: // join of the divergent branch in ^entry
// CHECK-NEXT:  %ee = arith.addi %b, %a : i32 // uniform
// CHECK-NEXT:  %ee.ss = arith.addi %ss, %a : i32 // divergent
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
