// LLVM: test/Analysis/UniformityAnalysis/AMDGPU/irreducible/branch-outside.ll, rewritten as
// kc IR. Successor lists are reversed relative to the LLVM test (kc's DFS visits the first
// successor first, LLVM's the last), so kc finds the same cycle headers.
//
// @basic: the entry branches on the thread id into the cycle P -> Q -> T -> P at P or at T
// (entries(P T) Q). Diverged paths from outside reach two entries: the cycle is assumed
// divergent. LLVM checks P's argument, %pp, %qq, %qq.div, T's argument and %tt divergent, and
// %ee (after the cycle, from kernel arguments only) uniform. The cycle's exit branch tests a
// kernel argument and stays uniform.
//
// @nested: the same, with a reducible-looking inner part A -> B -> C -> A reachable from both
// P (P -> B) and T (T -> A); the whole cycle entries(P T) Q A B C is assumed divergent.
//
// @irreducible_outer_cycle: LLVM's regression test for an assertion; the hierarchy is
// entries(Q R) C B D > entries(R) C B D > entries(B) D, and the branch in the entry (a kernel
// argument in kc: uniform; in LLVM a non-kernel argument: divergent) is made divergent here
// by testing the thread id. LLVM: the outermost cycle is assumed divergent.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @basic {
^entry(%a: i32, %b: i32, %c: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %cond.uni = arith.cmpi slt, %a, %zero : i32
  %tid = kernel.workitem_id x : i32
  %cond.div = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %cond.div, ^P(%a : i32), ^T(%a : i32)
^P(%pp.phi: i32):
  %pp = arith.addi %b, %one : i32
  cf.br ^Q
^Q:
  %qq = arith.addi %b, %one : i32
  %qq.div = arith.addi %pp.phi, %one : i32
  cf.cond_br %cond.uni, ^exit, ^T(%qq : i32)
^T(%t.phi: i32):
  %tt = arith.addi %b, %one : i32
  cf.br ^P(%b : i32)
^exit:
  %ee = arith.addi %b, %one : i32
  kernel.return
}
// SUM-LABEL: // uniformity of @basic:
// SUM-NEXT:  //   8 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^P ^T) ^Q
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^P ^T) ^Q
// CHECK-LABEL: kernel.func @basic {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32, %c: i32): // %a uniform, %b uniform, %c uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %cond.uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %cond.div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.div, ^P(%a : i32), ^T(%a : i32) // divergent branch; joins: ^P
// CHECK-NEXT:  ^P(%pp.phi: i32): // %pp.phi divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  %pp = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^Q
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  %qq.div = arith.addi %pp.phi, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^exit, ^T(%qq : i32) // uniform branch
// CHECK-NEXT:  ^T(%t.phi: i32): // %t.phi divergent
// CHECK-NEXT:  %tt = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^P(%b : i32)
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  %ee = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @nested {
^entry(%a: i32, %b: i32, %c: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %cond.uni = arith.cmpi slt, %a, %zero : i32
  %tid = kernel.workitem_id x : i32
  %cond.div = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %cond.div, ^P(%a : i32), ^T(%a : i32)
^P(%pp.phi: i32):
  %pp = arith.addi %b, %one : i32
  cf.cond_br %cond.uni, ^Q, ^B
^Q:
  %qq = arith.addi %b, %one : i32
  cf.cond_br %cond.uni, ^exit, ^T(%qq : i32)
^A:
  %aa = arith.addi %b, %one : i32
  cf.br ^B
^B:
  %bb = arith.addi %b, %one : i32
  cf.br ^C
^C:
  %cc = arith.addi %b, %one : i32
  cf.cond_br %cond.uni, ^A, ^Q
^T(%t.phi: i32):
  %tt = arith.addi %b, %one : i32
  cf.cond_br %cond.uni, ^P(%b : i32), ^A
^exit:
  %ee = arith.addi %b, %one : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @nested:
// SUM-NEXT:  //   10 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^P ^T) ^Q ^A ^B ^C
// SUM-NEXT:  //     depth=2: entries(^Q ^B ^T) ^A ^C
// SUM-NEXT:  //     depth=3: entries(^A ^B) ^C
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^P ^T) ^Q ^A ^B ^C
// CHECK-LABEL: kernel.func @nested {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32, %c: i32): // %a uniform, %b uniform, %c uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %cond.uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %cond.div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.div, ^P(%a : i32), ^T(%a : i32) // divergent branch; joins: ^P ^Q ^B ^C ^A ^exit ^T
// CHECK-NEXT:  ^P(%pp.phi: i32): // %pp.phi divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  %pp = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^Q, ^B // uniform branch
// CHECK-NEXT:  ^Q: // join of the divergent branch in ^entry
// CHECK-NEXT:  %qq = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^exit, ^T(%qq : i32) // uniform branch
// CHECK-NEXT:  ^A: // join of the divergent branch in ^entry
// CHECK-NEXT:  %aa = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^B
// CHECK-NEXT:  ^B: // join of the divergent branch in ^entry
// CHECK-NEXT:  %bb = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^C
// CHECK-NEXT:  ^C: // join of the divergent branch in ^entry
// CHECK-NEXT:  %cc = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^A, ^Q // uniform branch
// CHECK-NEXT:  ^T(%t.phi: i32): // %t.phi divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  %tt = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^P(%b : i32), ^A // uniform branch
// CHECK-NEXT:  ^exit: // join of the divergent branch in ^entry
// CHECK-NEXT:  %ee = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @irreducible_outer_cycle {
^entry(%c1: i1, %c2: i1, %c3: i1):
  %zero = arith.constant 0 : i32
  %tid = kernel.workitem_id x : i32
  %div = arith.cmpi slt, %tid, %zero : i32
  %false = arith.constant false
  cf.cond_br %div, ^Q, ^P
^P:
  cf.cond_br %false, ^R, ^Q
^Q:
  cf.br ^R
^R:
  cf.cond_br %false, ^B, ^Q
^B:
  cf.cond_br %false, ^D, ^C
^D:
  cf.br ^B
^C:
  cf.cond_br %false, ^exit, ^R
^exit:
  kernel.return
}
// SUM-NEXT:  // uniformity of @irreducible_outer_cycle:
// SUM-NEXT:  //   2 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^Q ^R) ^B ^D ^C
// SUM-NEXT:  //     depth=2: entries(^R) ^B ^D ^C
// SUM-NEXT:  //     depth=3: entries(^B) ^D
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^Q ^R) ^B ^D ^C
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @irreducible_outer_cycle {
// CHECK-NEXT:  ^entry(%c1: i1, %c2: i1, %c3: i1): // %c1 uniform, %c2 uniform, %c3 uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %false = arith.constant false // uniform
// CHECK-NEXT:  cf.cond_br %div, ^Q, ^P // divergent branch; joins: ^Q ^R ^exit
// CHECK-NEXT:  ^P:
// CHECK-NEXT:  cf.cond_br %false, ^R, ^Q // uniform branch
// CHECK-NEXT:  ^Q: // join of the divergent branch in ^entry
// CHECK-NEXT:  cf.br ^R
// CHECK-NEXT:  ^R: // join of the divergent branch in ^entry
// CHECK-NEXT:  cf.cond_br %false, ^B, ^Q // uniform branch
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  cf.cond_br %false, ^D, ^C // uniform branch
// CHECK-NEXT:  ^D:
// CHECK-NEXT:  cf.br ^B
// CHECK-NEXT:  ^C:
// CHECK-NEXT:  cf.cond_br %false, ^exit, ^R // uniform branch
// CHECK-NEXT:  ^exit: // join of the divergent branch in ^entry
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
