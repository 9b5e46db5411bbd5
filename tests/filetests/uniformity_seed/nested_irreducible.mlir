// "Convergence And Uniformity", Maximal Convergence example: two nested irreducible cycles
// with headers R and S, divergent branches in Entry and Q. From the three threads of the
// table: Entry -> P or R (divergent), P -> Q, Q -> S or R (divergent), R -> S, S -> P or Exit.
// The outer cycle has entries R and P, the inner one (without R) entries S and P and holds Q.
//
// The document's table (threads 1 and 2 go round the inner cycle a different number of
// times before reaching R; all three converge at the first R) is the convergence of one
// hierarchy; the static analysis must not rely on it. Both criteria fail here (diverged paths
// from Entry reach the entries P and R; Q's join S is reached through the diverged entry R):
// every value defined in the outer cycle is divergent. Exit lies outside every cycle, so the
// threads are converged there again: a value there that uses only kernel arguments is
// uniform; one that uses a cycle value is divergent.
//
// @headers_r_s lists R first in Entry, so kc's DFS finds the document's hierarchy
// (entries(R P) S Q, nested entries(S P) Q); @header_p lists P first and gets a single
// cycle entries(P R). Same verdicts.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @headers_r_s {
^entry(%a: i32, %b: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %uni = arith.cmpi slt, %a, %zero : i32
  %div.entry = arith.cmpi slt, %tid, %zero : i32
  %div.q = arith.cmpi sgt, %tid, %one : i32
  cf.cond_br %div.entry, ^R, ^P(%a : i32)
^P(%p: i32):
  %pp = arith.addi %b, %one : i32
  cf.br ^Q
^Q:
  %qq = arith.addi %b, %a : i32
  cf.cond_br %div.q, ^S(%qq : i32), ^R
^R:
  %rr = arith.muli %b, %a : i32
  cf.br ^S(%rr : i32)
^S(%s: i32):
  %ss = arith.addi %a, %one : i32
  cf.cond_br %uni, ^exit, ^P(%b : i32)
^exit:
  %ee = arith.addi %b, %a : i32
  %ee.s = arith.addi %s, %a : i32
  kernel.return
}
// SUM-LABEL: // uniformity of @headers_r_s:
// SUM-NEXT:  //   10 divergent values, 2 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^R ^P) ^S ^Q
// SUM-NEXT:  //     depth=2: entries(^S ^P) ^Q
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^R ^P) ^S ^Q
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=2: entries(^S ^P) ^Q
// SUM-NEXT:  //     depth=1: entries(^R ^P) ^S ^Q
// CHECK-LABEL: kernel.func @headers_r_s {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32): // %a uniform, %b uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %div.entry = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %div.q = arith.cmpi sgt, %tid, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.entry, ^R, ^P(%a : i32) // divergent branch; joins: ^R ^S ^exit ^P
// CHECK-NEXT:  ^P(%p: i32): // %p divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  %pp = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^Q
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %b, %a : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.q, ^S(%qq : i32), ^R // divergent branch; joins: ^S; divergent exits: ^R ^exit
// CHECK-NEXT:  ^R: // divergent exit of the branch in ^Q; join of the divergent branch in ^entry
// CHECK-NEXT:  %rr = arith.muli %b, %a : i32 // divergent
// CHECK-NEXT:  cf.br ^S(%rr : i32)
// CHECK-NEXT:  ^S(%s: i32): // %s divergent; join of the divergent branch in ^Q; join of the divergent branch in ^entry
// CHECK-NEXT:  %ss = arith.addi %a, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni, ^exit, ^P(%b : i32) // uniform branch
// CHECK-NEXT:  ^exit: // divergent exit of the branch in ^Q; join of the divergent branch in ^entry
// CHECK-NEXT:  %ee = arith.addi %b, %a : i32 // uniform
// CHECK-NEXT:  %ee.s = arith.addi %s, %a : i32 // divergent
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @header_p {
^entry(%a: i32, %b: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %uni = arith.cmpi slt, %a, %zero : i32
  %div.entry = arith.cmpi sge, %tid, %zero : i32
  %div.q = arith.cmpi sgt, %tid, %one : i32
  cf.cond_br %div.entry, ^P(%a : i32), ^R
^P(%p: i32):
  %pp = arith.addi %b, %one : i32
  cf.br ^Q
^Q:
  %qq = arith.addi %b, %a : i32
  cf.cond_br %div.q, ^S(%qq : i32), ^R
^R:
  %rr = arith.muli %b, %a : i32
  cf.br ^S(%rr : i32)
^S(%s: i32):
  %ss = arith.addi %a, %one : i32
  cf.cond_br %uni, ^exit, ^P(%b : i32)
^exit:
  %ee = arith.addi %b, %a : i32
  %ee.s = arith.addi %s, %a : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @header_p:
// SUM-NEXT:  //   10 divergent values, 2 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^P ^R) ^Q ^S
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^P ^R) ^Q ^S
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @header_p {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32): // %a uniform, %b uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %div.entry = arith.cmpi sge, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %div.q = arith.cmpi sgt, %tid, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.entry, ^P(%a : i32), ^R // divergent branch; joins: ^P ^S ^R ^exit
// CHECK-NEXT:  ^P(%p: i32): // %p divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  %pp = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^Q
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %b, %a : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.q, ^S(%qq : i32), ^R // divergent branch; joins: ^S
// CHECK-NEXT:  ^R: // join of the divergent branch in ^entry
// CHECK-NEXT:  %rr = arith.muli %b, %a : i32 // divergent
// CHECK-NEXT:  cf.br ^S(%rr : i32)
// CHECK-NEXT:  ^S(%s: i32): // %s divergent; join of the divergent branch in ^Q; join of the divergent branch in ^entry
// CHECK-NEXT:  %ss = arith.addi %a, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni, ^exit, ^P(%b : i32) // uniform branch
// CHECK-NEXT:  ^exit: // join of the divergent branch in ^entry
// CHECK-NEXT:  %ee = arith.addi %b, %a : i32 // uniform
// CHECK-NEXT:  %ee.s = arith.addi %s, %a : i32 // divergent
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
