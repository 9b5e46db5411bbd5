// LLVM: test/Analysis/UniformityAnalysis/AMDGPU/irreducible/exit-divergence.ll, rewritten as
// kc IR. Successor lists are reversed relative to the LLVM test (kc's DFS visits the first
// successor first, LLVM's the last), so kc finds the same cycle headers.
//
// @basic: the irreducible cycle P -> Q -> T -> P (entries(P T) Q) is left from Q on the
// thread id. Nothing is assumed divergent (the only divergent branch is inside the cycle and
// its diverged paths reach no join in it), but the cycle has a divergent exit: after it,
// %ee.1 and %xx.2, which use P's arguments, are temporally divergent; %ee.3 (kernel arguments
// only) is uniform. Inside the cycle every value is uniform.
//
// @outer_reducible: the same irreducible region inside a reducible loop with header H, left
// from Q on the thread id to the exit. The outermost cycle left by the divergent exit is the
// loop entries(H) ...: the same verdicts after it.
//
// @no_divergent_exit: the entry branches on the thread id into the cycle H <-> B <- C at H or
// at B: the cycle entries(H B) C is assumed divergent (so %bb and %cc, although computed from
// a kernel argument, are divergent: LLVM's test means to exclude them with CHECK-NOT lines
// that are missing a colon and check nothing; LLVM 22 reports them divergent). Its exits
// (B -> X, C -> X) are uniform branches, so there is no divergent exit; X's arguments are
// divergent only because the values they receive are.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @basic {
^entry(%a: i32, %b: i32, %c: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %cond.uni = arith.cmpi slt, %a, %zero : i32
  %tid = kernel.workitem_id x : i32
  %cond.div = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %cond.uni, ^P(%a, %a : i32, i32), ^T(%a : i32)
^P(%pp.phi.1: i32, %pp.phi.2: i32):
  %pp = arith.addi %b, %one : i32
  cf.br ^Q
^Q:
  %qq = arith.addi %b, %one : i32
  %qq.div.1 = arith.addi %pp.phi.2, %one : i32
  %qq.div.2 = arith.addi %pp.phi.2, %one : i32
  cf.cond_br %cond.div, ^exit, ^T(%qq : i32)
^T(%tt.phi: i32):
  %tt = arith.addi %b, %one : i32
  cf.br ^P(%b, %tt.phi : i32, i32)
^exit:
  %ee.1 = arith.addi %pp.phi.1, %one : i32
  %xx.2 = arith.addi %pp.phi.2, %one : i32
  %ee.3 = arith.addi %b, %one : i32
  kernel.return
}
// SUM-LABEL: // uniformity of @basic:
// SUM-NEXT:  //   4 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^P ^T) ^Q
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^P ^T) ^Q
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %pp.phi.1 used outside cycle depth=1: entries(^P ^T) ^Q by: %ee.1 = arith.addi %pp.phi.1, %one : i32
// SUM-NEXT:  //     %pp.phi.2 used outside cycle depth=1: entries(^P ^T) ^Q by: %xx.2 = arith.addi %pp.phi.2, %one : i32
// CHECK-LABEL: kernel.func @basic {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32, %c: i32): // %a uniform, %b uniform, %c uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %cond.uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %cond.div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^P(%a, %a : i32, i32), ^T(%a : i32) // uniform branch
// CHECK-NEXT:  ^P(%pp.phi.1: i32, %pp.phi.2: i32): // %pp.phi.1 uniform, %pp.phi.2 uniform
// CHECK-NEXT:  %pp = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^Q
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  %qq.div.1 = arith.addi %pp.phi.2, %one : i32 // uniform
// CHECK-NEXT:  %qq.div.2 = arith.addi %pp.phi.2, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %cond.div, ^exit, ^T(%qq : i32) // divergent branch; divergent exits: ^exit
// CHECK-NEXT:  ^T(%tt.phi: i32): // %tt.phi uniform
// CHECK-NEXT:  %tt = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^P(%b, %tt.phi : i32, i32)
// CHECK-NEXT:  ^exit: // divergent exit of the branch in ^Q
// CHECK-NEXT:  %ee.1 = arith.addi %pp.phi.1, %one : i32 // divergent
// CHECK-NEXT:  %xx.2 = arith.addi %pp.phi.2, %one : i32 // divergent
// CHECK-NEXT:  %ee.3 = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @outer_reducible {
^entry(%a: i32, %b: i32, %c: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %cond.uni = arith.cmpi slt, %a, %zero : i32
  %tid = kernel.workitem_id x : i32
  %cond.div = arith.cmpi slt, %tid, %zero : i32
  cf.br ^H
^H:
  cf.cond_br %cond.uni, ^P(%a, %a : i32, i32), ^T(%a : i32)
^P(%pp.phi.1: i32, %pp.phi.2: i32):
  %pp = arith.addi %b, %one : i32
  cf.br ^Q
^Q:
  %qq = arith.addi %b, %one : i32
  %qq.div.1 = arith.addi %pp.phi.2, %one : i32
  %qq.div.2 = arith.addi %pp.phi.2, %one : i32
  cf.cond_br %cond.div, ^exit, ^R
^R:
  cf.cond_br %cond.uni, ^H, ^T(%qq : i32)
^T(%tt.phi: i32):
  %tt = arith.addi %b, %one : i32
  cf.br ^P(%b, %tt.phi : i32, i32)
^exit:
  %ee.1 = arith.addi %pp.phi.1, %one : i32
  %xx.2 = arith.addi %pp.phi.2, %one : i32
  %ee.3 = arith.addi %b, %one : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @outer_reducible:
// SUM-NEXT:  //   4 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H) ^P ^Q ^R ^T
// SUM-NEXT:  //     depth=2: entries(^P ^T) ^Q ^R
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^H) ^P ^Q ^R ^T
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %pp.phi.1 used outside cycle depth=1: entries(^H) ^P ^Q ^R ^T by: %ee.1 = arith.addi %pp.phi.1, %one : i32
// SUM-NEXT:  //     %pp.phi.2 used outside cycle depth=1: entries(^H) ^P ^Q ^R ^T by: %xx.2 = arith.addi %pp.phi.2, %one : i32
// CHECK-LABEL: kernel.func @outer_reducible {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32, %c: i32): // %a uniform, %b uniform, %c uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %cond.uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %cond.div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.br ^H
// CHECK-NEXT:  ^H:
// CHECK-NEXT:  cf.cond_br %cond.uni, ^P(%a, %a : i32, i32), ^T(%a : i32) // uniform branch
// CHECK-NEXT:  ^P(%pp.phi.1: i32, %pp.phi.2: i32): // %pp.phi.1 uniform, %pp.phi.2 uniform
// CHECK-NEXT:  %pp = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^Q
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  %qq.div.1 = arith.addi %pp.phi.2, %one : i32 // uniform
// CHECK-NEXT:  %qq.div.2 = arith.addi %pp.phi.2, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %cond.div, ^exit, ^R // divergent branch; divergent exits: ^exit
// CHECK-NEXT:  ^R:
// CHECK-NEXT:  cf.cond_br %cond.uni, ^H, ^T(%qq : i32) // uniform branch
// CHECK-NEXT:  ^T(%tt.phi: i32): // %tt.phi uniform
// CHECK-NEXT:  %tt = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^P(%b, %tt.phi : i32, i32)
// CHECK-NEXT:  ^exit: // divergent exit of the branch in ^Q
// CHECK-NEXT:  %ee.1 = arith.addi %pp.phi.1, %one : i32 // divergent
// CHECK-NEXT:  %xx.2 = arith.addi %pp.phi.2, %one : i32 // divergent
// CHECK-NEXT:  %ee.3 = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @no_divergent_exit {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %tid = kernel.workitem_id x : i32
  %div.cond = arith.cmpi slt, %tid, %zero : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  cf.cond_br %div.cond, ^H(%zero : i32), ^B(%one : i32)
^H(%div.merge.h: i32):
  cf.br ^B(%a : i32)
^B(%div.merge.b: i32):
  %bb = arith.addi %a, %one : i32
  cf.cond_br %uni.cond, ^C, ^X(%bb, %div.merge.b : i32, i32)
^C:
  %cc = arith.addi %a, %one : i32
  cf.cond_br %uni.cond, ^H(%b : i32), ^X(%cc, %cc : i32, i32)
^X(%uni.merge.x: i32, %div.merge.x: i32):
  kernel.return
}
// SUM-NEXT:  // uniformity of @no_divergent_exit:
// SUM-NEXT:  //   8 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H ^B) ^C
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^H ^B) ^C
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @no_divergent_exit {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %div.cond = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.cond_br %div.cond, ^H(%zero : i32), ^B(%one : i32) // divergent branch; joins: ^H ^B
// CHECK-NEXT:  ^H(%div.merge.h: i32): // %div.merge.h divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  cf.br ^B(%a : i32)
// CHECK-NEXT:  ^B(%div.merge.b: i32): // %div.merge.b divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  %bb = arith.addi %a, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni.cond, ^C, ^X(%bb, %div.merge.b : i32, i32) // uniform branch
// CHECK-NEXT:  ^C:
// CHECK-NEXT:  %cc = arith.addi %a, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni.cond, ^H(%b : i32), ^X(%cc, %cc : i32, i32) // uniform branch
// CHECK-NEXT:  ^X(%uni.merge.x: i32, %div.merge.x: i32): // %uni.merge.x divergent, %div.merge.x divergent
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
