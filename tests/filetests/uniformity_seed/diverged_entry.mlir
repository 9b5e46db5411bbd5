// "Convergence And Uniformity", Divergent Branch inside a Cycle / Diverged Entry Criterion:
// the closed path P -> Q -> R -> S -> P with entries P and R (entry branches to both on a
// uniform condition). Q is a divergent branch (to S, or to R), S is its join, and the
// diverged paths are Q -> R -> S and Q -> S. R is an entry of the closed path that lies on
// a diverged path: a "diverged entry".
//
// The document: with R as the header of the cycle C and a child cycle C' (header S, entries
// S and P) holding Q and S, threads that go round C' and threads that go through R are not
// converged at S; with P as the header they are. The convergence of S (and of everything on
// the closed path) depends on the cycle hierarchy, so no node of the cycle is m-converged:
// every value defined in the cycle is divergent, in both hierarchies, although all of them
// are computed from uniform kernel arguments. The branch in S (condition from outside the
// cycle) stays uniform, and so does the code after the loop that uses no cycle value.
//
// kc's DFS visits successors in order: @header_p lists P first (one cycle, entries(P R)),
// @headers_r_s lists R first (outer entries(R P), inner entries(S P) Q, as in the
// document's figure). The verdicts must be identical.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @header_p {
^entry(%a: i32, %b: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %uni = arith.cmpi slt, %a, %zero : i32
  %div = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %uni, ^P(%a : i32), ^R
^P(%p: i32):
  %pp = arith.addi %b, %b : i32
  cf.br ^Q
^Q:
  %qq = arith.addi %b, %a : i32
  cf.cond_br %div, ^S(%qq : i32), ^R
^R:
  %rr = arith.muli %b, %a : i32
  cf.br ^S(%rr : i32)
^S(%s: i32):
  %ss = arith.addi %a, %a : i32
  cf.cond_br %uni, ^exit, ^P(%b : i32)
^exit:
  %ee = arith.addi %b, %a : i32
  %ee.s = arith.addi %s, %a : i32
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
// CHECK-NEXT:  cf.cond_br %uni, ^P(%a : i32), ^R // uniform branch
// CHECK-NEXT:  ^P(%p: i32): // %p divergent
// CHECK-NEXT:  %pp = arith.addi %b, %b : i32 // divergent
// CHECK-NEXT:  cf.br ^Q
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %b, %a : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div, ^S(%qq : i32), ^R // divergent branch; joins: ^S
// CHECK-NEXT:  ^R:
// CHECK-NEXT:  %rr = arith.muli %b, %a : i32 // divergent
// CHECK-NEXT:  cf.br ^S(%rr : i32)
// CHECK-NEXT:  ^S(%s: i32): // %s divergent; join of the divergent branch in ^Q
// CHECK-NEXT:  %ss = arith.addi %a, %a : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni, ^exit, ^P(%b : i32) // uniform branch
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  %ee = arith.addi %b, %a : i32 // uniform
// CHECK-NEXT:  %ee.s = arith.addi %s, %a : i32 // divergent
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @headers_r_s {
^entry(%a: i32, %b: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %uni = arith.cmpi slt, %a, %zero : i32
  %not.uni = arith.cmpi sge, %a, %zero : i32
  %div = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %not.uni, ^R, ^P(%a : i32)
^P(%p: i32):
  %pp = arith.addi %b, %b : i32
  cf.br ^Q
^Q:
  %qq = arith.addi %b, %a : i32
  cf.cond_br %div, ^S(%qq : i32), ^R
^R:
  %rr = arith.muli %b, %a : i32
  cf.br ^S(%rr : i32)
^S(%s: i32):
  %ss = arith.addi %a, %a : i32
  cf.cond_br %uni, ^exit, ^P(%b : i32)
^exit:
  %ee = arith.addi %b, %a : i32
  %ee.s = arith.addi %s, %a : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @headers_r_s:
// SUM-NEXT:  //   9 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^R ^P) ^S ^Q
// SUM-NEXT:  //     depth=2: entries(^S ^P) ^Q
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^R ^P) ^S ^Q
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=2: entries(^S ^P) ^Q
// SUM-NEXT:  //     depth=1: entries(^R ^P) ^S ^Q
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @headers_r_s {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32): // %a uniform, %b uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %not.uni = arith.cmpi sge, %a, %zero : i32 // uniform
// CHECK-NEXT:  %div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %not.uni, ^R, ^P(%a : i32) // uniform branch
// CHECK-NEXT:  ^P(%p: i32): // %p divergent
// CHECK-NEXT:  %pp = arith.addi %b, %b : i32 // divergent
// CHECK-NEXT:  cf.br ^Q
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %b, %a : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div, ^S(%qq : i32), ^R // divergent branch; joins: ^S; divergent exits: ^R ^exit
// CHECK-NEXT:  ^R: // divergent exit of the branch in ^Q
// CHECK-NEXT:  %rr = arith.muli %b, %a : i32 // divergent
// CHECK-NEXT:  cf.br ^S(%rr : i32)
// CHECK-NEXT:  ^S(%s: i32): // %s divergent; join of the divergent branch in ^Q
// CHECK-NEXT:  %ss = arith.addi %a, %a : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni, ^exit, ^P(%b : i32) // uniform branch
// CHECK-NEXT:  ^exit: // divergent exit of the branch in ^Q
// CHECK-NEXT:  %ee = arith.addi %b, %a : i32 // uniform
// CHECK-NEXT:  %ee.s = arith.addi %s, %a : i32 // divergent
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
