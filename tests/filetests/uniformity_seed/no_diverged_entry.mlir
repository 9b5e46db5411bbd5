// "Convergence And Uniformity", Diverged Entry Criterion, second case: "If R does not exist,
// or if any node other than R is the header of C ... threads that diverge at Q execute
// converged dynamic instances of S" (they reconverge at S in the same iteration of C).
// Only S's block argument, which receives a different value on each diverged path, is
// divergent; everything else in the cycle is m-converged and uniform.
//
// @r_not_an_entry: the closed path P -> Q -> R -> S -> P without the entry edge into R. The
// cycle is reducible (header P).
//
// @entry_off_the_diverged_path (listing P first) and @entry_off_the_diverged_path_t (T first):
// the cycle gets a second entry T (entry -> T -> P), so it is irreducible, but T is not on a
// diverged path from Q to S. Either DFS order gives the same verdict: Q strictly dominates S
// (first clause of the simplified criterion), whichever of P and T is the header.
//
// @header_dominates_join: P branches to Q or straight to R, so Q no longer dominates S
// (P -> R -> S). The entries are P and T; with P as the header (P listed first), P strictly
// dominates S (second clause of the simplified criterion), so the cycle is m-converged.
// (With T as the header the simplified criterion cannot tell, and the cycle is
// conservatively assumed divergent: see uniformity_llvm/irreducible_diverged_entry_headers.)
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @r_not_an_entry {
^entry(%a: i32, %b: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %uni = arith.cmpi slt, %a, %zero : i32
  %div = arith.cmpi slt, %tid, %zero : i32
  cf.br ^P(%a : i32)
^P(%p: i32):
  %pp = arith.addi %p, %b : i32
  cf.br ^Q
^Q:
  %qq = arith.addi %pp, %a : i32
  cf.cond_br %div, ^S(%qq : i32), ^R
^R:
  %rr = arith.muli %pp, %a : i32
  cf.br ^S(%rr : i32)
^S(%s: i32):
  %ss = arith.addi %pp, %a : i32
  cf.cond_br %uni, ^exit, ^P(%ss : i32)
^exit:
  %ee = arith.addi %ss, %a : i32
  kernel.return
}
// SUM-LABEL: // uniformity of @r_not_an_entry:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^P) ^Q ^S ^R
// CHECK-LABEL: kernel.func @r_not_an_entry {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32): // %a uniform, %b uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.br ^P(%a : i32)
// CHECK-NEXT:  ^P(%p: i32): // %p uniform
// CHECK-NEXT:  %pp = arith.addi %p, %b : i32 // uniform
// CHECK-NEXT:  cf.br ^Q
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %pp, %a : i32 // uniform
// CHECK-NEXT:  cf.cond_br %div, ^S(%qq : i32), ^R // divergent branch; joins: ^S
// CHECK-NEXT:  ^R:
// CHECK-NEXT:  %rr = arith.muli %pp, %a : i32 // uniform
// CHECK-NEXT:  cf.br ^S(%rr : i32)
// CHECK-NEXT:  ^S(%s: i32): // %s divergent; join of the divergent branch in ^Q
// CHECK-NEXT:  %ss = arith.addi %pp, %a : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni, ^exit, ^P(%ss : i32) // uniform branch
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  %ee = arith.addi %ss, %a : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @entry_off_the_diverged_path {
^entry(%a: i32, %b: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %uni = arith.cmpi slt, %a, %zero : i32
  %div = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %uni, ^P(%a : i32), ^T
^P(%p: i32):
  %pp = arith.addi %p, %b : i32
  cf.br ^Q
^Q:
  %qq = arith.addi %pp, %a : i32
  cf.cond_br %div, ^S(%qq : i32), ^R
^R:
  %rr = arith.muli %pp, %a : i32
  cf.br ^S(%rr : i32)
^S(%s: i32):
  %ss = arith.addi %pp, %a : i32
  cf.cond_br %uni, ^exit, ^T
^T:
  %tt = arith.addi %b, %a : i32
  cf.br ^P(%tt : i32)
^exit:
  %ee = arith.addi %ss, %a : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @entry_off_the_diverged_path:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^P ^T) ^Q ^S ^R
// CHECK-LABEL: kernel.func @entry_off_the_diverged_path {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32): // %a uniform, %b uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni, ^P(%a : i32), ^T // uniform branch
// CHECK-NEXT:  ^P(%p: i32): // %p uniform
// CHECK-NEXT:  %pp = arith.addi %p, %b : i32 // uniform
// CHECK-NEXT:  cf.br ^Q
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %pp, %a : i32 // uniform
// CHECK-NEXT:  cf.cond_br %div, ^S(%qq : i32), ^R // divergent branch; joins: ^S
// CHECK-NEXT:  ^R:
// CHECK-NEXT:  %rr = arith.muli %pp, %a : i32 // uniform
// CHECK-NEXT:  cf.br ^S(%rr : i32)
// CHECK-NEXT:  ^S(%s: i32): // %s divergent; join of the divergent branch in ^Q
// CHECK-NEXT:  %ss = arith.addi %pp, %a : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni, ^exit, ^T // uniform branch
// CHECK-NEXT:  ^T:
// CHECK-NEXT:  %tt = arith.addi %b, %a : i32 // uniform
// CHECK-NEXT:  cf.br ^P(%tt : i32)
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  %ee = arith.addi %ss, %a : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @entry_off_the_diverged_path_t {
^entry(%a: i32, %b: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %uni = arith.cmpi slt, %a, %zero : i32
  %not.uni = arith.cmpi sge, %a, %zero : i32
  %div = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %not.uni, ^T, ^P(%a : i32)
^P(%p: i32):
  %pp = arith.addi %p, %b : i32
  cf.br ^Q
^Q:
  %qq = arith.addi %pp, %a : i32
  cf.cond_br %div, ^S(%qq : i32), ^R
^R:
  %rr = arith.muli %pp, %a : i32
  cf.br ^S(%rr : i32)
^S(%s: i32):
  %ss = arith.addi %pp, %a : i32
  cf.cond_br %uni, ^exit, ^T
^T:
  %tt = arith.addi %b, %a : i32
  cf.br ^P(%tt : i32)
^exit:
  %ee = arith.addi %ss, %a : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @entry_off_the_diverged_path_t:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^T ^P) ^Q ^S ^R
// CHECK-LABEL: kernel.func @entry_off_the_diverged_path_t {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32): // %a uniform, %b uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %not.uni = arith.cmpi sge, %a, %zero : i32 // uniform
// CHECK-NEXT:  %div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %not.uni, ^T, ^P(%a : i32) // uniform branch
// CHECK-NEXT:  ^P(%p: i32): // %p uniform
// CHECK-NEXT:  %pp = arith.addi %p, %b : i32 // uniform
// CHECK-NEXT:  cf.br ^Q
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %pp, %a : i32 // uniform
// CHECK-NEXT:  cf.cond_br %div, ^S(%qq : i32), ^R // divergent branch; joins: ^S
// CHECK-NEXT:  ^R:
// CHECK-NEXT:  %rr = arith.muli %pp, %a : i32 // uniform
// CHECK-NEXT:  cf.br ^S(%rr : i32)
// CHECK-NEXT:  ^S(%s: i32): // %s divergent; join of the divergent branch in ^Q
// CHECK-NEXT:  %ss = arith.addi %pp, %a : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni, ^exit, ^T // uniform branch
// CHECK-NEXT:  ^T:
// CHECK-NEXT:  %tt = arith.addi %b, %a : i32 // uniform
// CHECK-NEXT:  cf.br ^P(%tt : i32)
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  %ee = arith.addi %ss, %a : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @header_dominates_join {
^entry(%a: i32, %b: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %uni = arith.cmpi slt, %a, %zero : i32
  %div = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %uni, ^P(%a : i32), ^T
^P(%p: i32):
  %pp = arith.addi %p, %b : i32
  cf.cond_br %uni, ^Q, ^R
^Q:
  %qq = arith.addi %pp, %a : i32
  cf.cond_br %div, ^S(%qq : i32), ^R
^R:
  %rr = arith.muli %pp, %a : i32
  cf.br ^S(%rr : i32)
^S(%s: i32):
  %ss = arith.addi %pp, %a : i32
  cf.cond_br %uni, ^exit, ^T
^T:
  %tt = arith.addi %b, %a : i32
  cf.br ^P(%tt : i32)
^exit:
  %ee = arith.addi %ss, %a : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @header_dominates_join:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^P ^T) ^Q ^S ^R
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @header_dominates_join {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32): // %a uniform, %b uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni, ^P(%a : i32), ^T // uniform branch
// CHECK-NEXT:  ^P(%p: i32): // %p uniform
// CHECK-NEXT:  %pp = arith.addi %p, %b : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni, ^Q, ^R // uniform branch
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %pp, %a : i32 // uniform
// CHECK-NEXT:  cf.cond_br %div, ^S(%qq : i32), ^R // divergent branch; joins: ^S ^R
// CHECK-NEXT:  ^R: // join of the divergent branch in ^Q
// CHECK-NEXT:  %rr = arith.muli %pp, %a : i32 // uniform
// CHECK-NEXT:  cf.br ^S(%rr : i32)
// CHECK-NEXT:  ^S(%s: i32): // %s divergent; join of the divergent branch in ^Q
// CHECK-NEXT:  %ss = arith.addi %pp, %a : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni, ^exit, ^T // uniform branch
// CHECK-NEXT:  ^T:
// CHECK-NEXT:  %tt = arith.addi %b, %a : i32 // uniform
// CHECK-NEXT:  cf.br ^P(%tt : i32)
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  %ee = arith.addi %ss, %a : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
