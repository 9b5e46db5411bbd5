// LLVM: test/Analysis/UniformityAnalysis/AMDGPU/irreducible/reducible-headers.ll, rewritten as
// kc IR. Successor lists are reversed relative to the LLVM test (kc's DFS visits the first
// successor first, LLVM's the last), so kc finds the same cycle headers. Each case checks
// that the label of a reducible cycle's header is not propagated into the cycle body, which
// would make a block that threads always reach converged look like a join.
//
// @nested_irreducible: reducible loop H (exit from U) holding the irreducible cycle
// entries(P T) Q R; Q branches on the thread id to R (stay) or U (leave the inner cycle).
// S is a join (paths Q -> R -> S and Q -> U -> S): its argument is divergent. P's and T's
// arguments, %pp, %qq, %qq.uni and %ss are uniform, and nothing is assumed divergent. Both
// cycles have a divergent exit, so after the loop %ee.div (uses %qq.uni) is divergent and %ee
// (kernel arguments only) uniform.
//
// @header_label_1: reducible loop H with body T -> R | U (divergent), R -> H, U -> P -> Q,
// Q -> exit | H. P is reached only through U: its argument is uniform, as are %qq.uni;
// the loop has a divergent exit (threads that went T -> R -> H take more iterations), so
// %ee.div after it is divergent.
//
// @header_label_2: loop H1 -> B | H2, H2 -> B | C on the thread id, B, C -> D, D -> exit | H1.
// D is the join (its argument divergent); B's argument (reached from H1 and H2) is uniform;
// the loop exit in D is uniform: no divergent exit.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @nested_irreducible {
^entry(%a: i32, %b: i32, %c: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %cond.uni = arith.cmpi slt, %a, %zero : i32
  %tid = kernel.workitem_id x : i32
  %cond.div = arith.cmpi slt, %tid, %zero : i32
  cf.br ^H
^H:
  cf.cond_br %cond.uni, ^P(%a : i32), ^T(%a : i32)
^P(%pp.phi: i32):
  %pp = arith.addi %b, %one : i32
  cf.br ^Q
^Q:
  %qq = arith.addi %b, %one : i32
  %qq.uni = arith.addi %pp.phi, %one : i32
  cf.cond_br %cond.div, ^U, ^R
^R:
  cf.cond_br %cond.uni, ^T(%qq : i32), ^S(%a : i32)
^T(%tt.phi: i32):
  %tt = arith.addi %b, %one : i32
  cf.br ^P(%b : i32)
^S(%ss.phi: i32):
  %ss = arith.addi %b, %one : i32
  cf.br ^H
^U:
  cf.cond_br %cond.uni, ^exit, ^S(%qq.uni : i32)
^exit:
  %ee.div = arith.addi %qq.uni, %one : i32
  %ee = arith.addi %b, %one : i32
  kernel.return
}
// SUM-LABEL: // uniformity of @nested_irreducible:
// SUM-NEXT:  //   4 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H) ^P ^Q ^U ^S ^R ^T
// SUM-NEXT:  //     depth=2: entries(^P ^T) ^Q ^R
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=2: entries(^P ^T) ^Q ^R
// SUM-NEXT:  //     depth=1: entries(^H) ^P ^Q ^U ^S ^R ^T
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %qq.uni used outside cycle depth=2: entries(^P ^T) ^Q ^R by: cf.cond_br %cond.uni, ^exit, ^S(%qq.uni : i32)
// SUM-NEXT:  //     %qq.uni used outside cycle depth=2: entries(^P ^T) ^Q ^R by: %ee.div = arith.addi %qq.uni, %one : i32
// SUM-NEXT:  //     %qq.uni used outside cycle depth=1: entries(^H) ^P ^Q ^U ^S ^R ^T by: %ee.div = arith.addi %qq.uni, %one : i32
// CHECK-LABEL: kernel.func @nested_irreducible {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32, %c: i32): // %a uniform, %b uniform, %c uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %cond.uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %cond.div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.br ^H
// CHECK-NEXT:  ^H:
// CHECK-NEXT:  cf.cond_br %cond.uni, ^P(%a : i32), ^T(%a : i32) // uniform branch
// CHECK-NEXT:  ^P(%pp.phi: i32): // %pp.phi uniform
// CHECK-NEXT:  %pp = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^Q
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  %qq.uni = arith.addi %pp.phi, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %cond.div, ^U, ^R // divergent branch; joins: ^S; divergent exits: ^U ^exit ^S
// CHECK-NEXT:  ^R:
// CHECK-NEXT:  cf.cond_br %cond.uni, ^T(%qq : i32), ^S(%a : i32) // uniform branch
// CHECK-NEXT:  ^T(%tt.phi: i32): // %tt.phi uniform
// CHECK-NEXT:  %tt = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^P(%b : i32)
// CHECK-NEXT:  ^S(%ss.phi: i32): // %ss.phi divergent; join of the divergent branch in ^Q; divergent exit of the branch in ^Q
// CHECK-NEXT:  %ss = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^H
// CHECK-NEXT:  ^U: // divergent exit of the branch in ^Q
// CHECK-NEXT:  cf.cond_br %cond.uni, ^exit, ^S(%qq.uni : i32) // uniform branch
// CHECK-NEXT:  ^exit: // divergent exit of the branch in ^Q
// CHECK-NEXT:  %ee.div = arith.addi %qq.uni, %one : i32 // divergent
// CHECK-NEXT:  %ee = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @header_label_1 {
^entry(%a: i32, %b: i32, %c: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %cond.uni = arith.cmpi slt, %a, %zero : i32
  %tid = kernel.workitem_id x : i32
  %cond.div = arith.cmpi slt, %tid, %zero : i32
  cf.br ^H
^H:
  cf.cond_br %cond.uni, ^P(%a : i32), ^T
^P(%pp.phi: i32):
  %pp = arith.addi %b, %one : i32
  cf.br ^Q
^Q:
  %qq = arith.addi %b, %one : i32
  %qq.uni = arith.addi %pp.phi, %one : i32
  cf.cond_br %cond.uni, ^H, ^exit
^R:
  cf.br ^H
^T:
  cf.cond_br %cond.div, ^U, ^R
^U:
  cf.br ^P(%b : i32)
^exit:
  %ee.div = arith.addi %qq.uni, %one : i32
  %ee = arith.addi %b, %one : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @header_label_1:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H) ^P ^Q ^T ^U ^R
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^H) ^P ^Q ^T ^U ^R
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %qq.uni used outside cycle depth=1: entries(^H) ^P ^Q ^T ^U ^R by: %ee.div = arith.addi %qq.uni, %one : i32
// CHECK-LABEL: kernel.func @header_label_1 {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32, %c: i32): // %a uniform, %b uniform, %c uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %cond.uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %cond.div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.br ^H
// CHECK-NEXT:  ^H: // join of the divergent branch in ^T
// CHECK-NEXT:  cf.cond_br %cond.uni, ^P(%a : i32), ^T // uniform branch
// CHECK-NEXT:  ^P(%pp.phi: i32): // %pp.phi uniform
// CHECK-NEXT:  %pp = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^Q
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  %qq.uni = arith.addi %pp.phi, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %cond.uni, ^H, ^exit // uniform branch
// CHECK-NEXT:  ^R:
// CHECK-NEXT:  cf.br ^H
// CHECK-NEXT:  ^T:
// CHECK-NEXT:  cf.cond_br %cond.div, ^U, ^R // divergent branch; joins: ^H; divergent exits: ^exit
// CHECK-NEXT:  ^U:
// CHECK-NEXT:  cf.br ^P(%b : i32)
// CHECK-NEXT:  ^exit: // divergent exit of the branch in ^T
// CHECK-NEXT:  %ee.div = arith.addi %qq.uni, %one : i32 // divergent
// CHECK-NEXT:  %ee = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @header_label_2 {
^entry(%a: i32, %b: i32, %c: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %cond.uni = arith.cmpi slt, %a, %zero : i32
  %tid = kernel.workitem_id x : i32
  %cond.div = arith.cmpi slt, %tid, %zero : i32
  cf.br ^H1
^H1:
  cf.cond_br %cond.uni, ^H2, ^B(%a : i32)
^H2:
  cf.cond_br %cond.div, ^C, ^B(%b : i32)
^B(%bb.phi: i32):
  cf.br ^D(%a : i32)
^C:
  cf.br ^D(%b : i32)
^D(%dd.phi: i32):
  cf.cond_br %cond.uni, ^H1, ^exit
^exit:
  %ee.1 = arith.addi %dd.phi, %one : i32
  %ee.2 = arith.addi %b, %one : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @header_label_2:
// SUM-NEXT:  //   4 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H1) ^H2 ^C ^D ^B
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @header_label_2 {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32, %c: i32): // %a uniform, %b uniform, %c uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %cond.uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %cond.div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.br ^H1
// CHECK-NEXT:  ^H1:
// CHECK-NEXT:  cf.cond_br %cond.uni, ^H2, ^B(%a : i32) // uniform branch
// CHECK-NEXT:  ^H2:
// CHECK-NEXT:  cf.cond_br %cond.div, ^C, ^B(%b : i32) // divergent branch; joins: ^D
// CHECK-NEXT:  ^B(%bb.phi: i32): // %bb.phi uniform
// CHECK-NEXT:  cf.br ^D(%a : i32)
// CHECK-NEXT:  ^C:
// CHECK-NEXT:  cf.br ^D(%b : i32)
// CHECK-NEXT:  ^D(%dd.phi: i32): // %dd.phi divergent; join of the divergent branch in ^H2
// CHECK-NEXT:  cf.cond_br %cond.uni, ^H1, ^exit // uniform branch
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  %ee.1 = arith.addi %dd.phi, %one : i32 // divergent
// CHECK-NEXT:  %ee.2 = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
