// LLVM: test/Analysis/UniformityAnalysis/AMDGPU/irreducible/diverged-entry-basic.ll, rewritten
// as kc IR. Every cf.cond_br lists its successors in the reverse of the LLVM test's order:
// kc's DFS visits the first successor first, LLVM's the last, so this order makes kc find
// the same cycle headers as LLVM does on the original (negating a condition does not change
// any verdict).
//
// @divergent_cycle_1: the seed document's closed path P -> Q -> R -> S -> P, entered at P
// and at R on a uniform condition; Q branches on the thread id to S or R, S is the join and R
// a diverged entry. Hierarchy: entries(R P) S Q with child entries(S P) Q. LLVM: the outer
// cycle is assumed divergent and both cycles have a divergent exit; the block arguments of P
// and S and every other definition in the cycle are divergent; the exit block's value, which
// uses only kernel arguments, is uniform.
//
// @uniform_cycle_1: the same path with the second entry moved to T (entry -> T -> P), off the
// diverged paths Q -> S and Q -> R -> S. Q dominates S: nothing is assumed divergent, there
// is no divergent exit, and only S's argument (the join) is divergent; P's argument is
// uniform.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @divergent_cycle_1 {
^entry(%a: i32, %b: i32, %c: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %cond.uni = arith.cmpi slt, %a, %zero : i32
  %tid = kernel.workitem_id x : i32
  %cond.div = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %cond.uni, ^R, ^P(%a : i32)
^P(%pp.phi: i32):
  %pp = arith.addi %b, %one : i32
  cf.br ^Q
^Q:
  %qq = arith.addi %b, %one : i32
  cf.cond_br %cond.div, ^R, ^S(%qq : i32)
^R:
  %rr = arith.addi %b, %one : i32
  cf.br ^S(%rr : i32)
^S(%s.phi: i32):
  %ss = arith.addi %b, %one : i32
  cf.cond_br %cond.uni, ^P(%b : i32), ^exit
^exit:
  %ee = arith.addi %b, %one : i32
  kernel.return
}
// SUM-LABEL: // uniformity of @divergent_cycle_1:
// SUM-NEXT:  //   8 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^R ^P) ^S ^Q
// SUM-NEXT:  //     depth=2: entries(^S ^P) ^Q
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^R ^P) ^S ^Q
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=2: entries(^S ^P) ^Q
// SUM-NEXT:  //     depth=1: entries(^R ^P) ^S ^Q
// CHECK-LABEL: kernel.func @divergent_cycle_1 {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32, %c: i32): // %a uniform, %b uniform, %c uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %cond.uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %cond.div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^R, ^P(%a : i32) // uniform branch
// CHECK-NEXT:  ^P(%pp.phi: i32): // %pp.phi divergent
// CHECK-NEXT:  %pp = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^Q
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.div, ^R, ^S(%qq : i32) // divergent branch; joins: ^S; divergent exits: ^R ^exit
// CHECK-NEXT:  ^R: // divergent exit of the branch in ^Q
// CHECK-NEXT:  %rr = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^S(%rr : i32)
// CHECK-NEXT:  ^S(%s.phi: i32): // %s.phi divergent; join of the divergent branch in ^Q
// CHECK-NEXT:  %ss = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^P(%b : i32), ^exit // uniform branch
// CHECK-NEXT:  ^exit: // divergent exit of the branch in ^Q
// CHECK-NEXT:  %ee = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @uniform_cycle_1 {
^entry(%a: i32, %b: i32, %c: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %cond.uni = arith.cmpi slt, %a, %zero : i32
  %tid = kernel.workitem_id x : i32
  %cond.div = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %cond.uni, ^T, ^P(%a : i32)
^P(%pp.phi: i32):
  %pp = arith.addi %b, %one : i32
  cf.br ^Q
^Q:
  %qq = arith.addi %b, %one : i32
  cf.cond_br %cond.div, ^R, ^S(%qq : i32)
^R:
  %rr = arith.addi %b, %one : i32
  cf.br ^S(%rr : i32)
^S(%s.phi: i32):
  %ss = arith.addi %b, %one : i32
  cf.cond_br %cond.uni, ^T, ^exit
^T:
  %tt = arith.addi %b, %one : i32
  cf.br ^P(%b : i32)
^exit:
  %ee = arith.addi %b, %one : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @uniform_cycle_1:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^T ^P) ^Q ^R ^S
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @uniform_cycle_1 {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32, %c: i32): // %a uniform, %b uniform, %c uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %cond.uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %cond.div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^T, ^P(%a : i32) // uniform branch
// CHECK-NEXT:  ^P(%pp.phi: i32): // %pp.phi uniform
// CHECK-NEXT:  %pp = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^Q
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %cond.div, ^R, ^S(%qq : i32) // divergent branch; joins: ^S
// CHECK-NEXT:  ^R:
// CHECK-NEXT:  %rr = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^S(%rr : i32)
// CHECK-NEXT:  ^S(%s.phi: i32): // %s.phi divergent; join of the divergent branch in ^Q
// CHECK-NEXT:  %ss = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %cond.uni, ^T, ^exit // uniform branch
// CHECK-NEXT:  ^T:
// CHECK-NEXT:  %tt = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^P(%b : i32)
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  %ee = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
