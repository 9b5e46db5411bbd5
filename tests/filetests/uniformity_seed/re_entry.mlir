// "Convergence And Uniformity", Divergent Cycle Exits: "If the cycle is irreducible, the
// diverged path may re-enter and eventually reach a join within the cycle. Such a join should
// be examined for the diverged entry criterion."
//
// The loop H <-> B sits in the irreducible cycle {X, H, B}: entry -> X or H (uniform),
// H -> B, B -> H or X (on the thread id), X -> exit or H (uniform). B's diverged paths B -> H
// and B -> X -> H meet at H, and X, an entry of the closed path B -> X -> H -> B, lies on one
// of them: the diverged entry criterion fails, no node of the cycle is m-converged, and every
// value defined in it is divergent, in every hierarchy (in the one where H heads the whole
// cycle, threads that went B -> H and B -> X -> H are on the same iteration at H with
// different values of %h). After the cycle, %ee uses kernel arguments only: uniform.
//
// @x_first lists X first: kc's DFS finds entries(X H) B with the reducible child entries(H) B,
// and B's branch leaves the child cycle. The join H is the child's header, and the parent's
// header X does not dominate it: the parent is assumed divergent. (LLVM 22 accepts the
// reducible child and calls everything in the cycle uniform in this hierarchy, while it calls
// it divergent in the other: one of kc's departures from LLVM 22.)
// @h_first lists H first: one cycle entries(H X) B, assumed divergent. Same verdicts.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @x_first {
^entry(%a: i32, %b: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %uni = arith.cmpi slt, %a, %zero : i32
  %not.uni = arith.cmpi sge, %a, %zero : i32
  %div = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %not.uni, ^X, ^H(%a : i32)
^H(%h: i32):
  %hh = arith.addi %h, %b : i32
  cf.br ^B
^B:
  %bb = arith.addi %hh, %b : i32
  cf.cond_br %div, ^H(%bb : i32), ^X
^X:
  %xx = arith.muli %a, %b : i32
  cf.cond_br %uni, ^exit, ^H(%xx : i32)
^exit:
  %ee = arith.addi %a, %b : i32
  kernel.return
}
// SUM-LABEL: // uniformity of @x_first:
// SUM-NEXT:  //   6 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^X ^H) ^B
// SUM-NEXT:  //     depth=2: entries(^H) ^B
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^X ^H) ^B
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=2: entries(^H) ^B
// CHECK-LABEL: kernel.func @x_first {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32): // %a uniform, %b uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %not.uni = arith.cmpi sge, %a, %zero : i32 // uniform
// CHECK-NEXT:  %div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %not.uni, ^X, ^H(%a : i32) // uniform branch
// CHECK-NEXT:  ^H(%h: i32): // %h divergent; join of the divergent branch in ^B
// CHECK-NEXT:  %hh = arith.addi %h, %b : i32 // divergent
// CHECK-NEXT:  cf.br ^B
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  %bb = arith.addi %hh, %b : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div, ^H(%bb : i32), ^X // divergent branch; joins: ^H; divergent exits: ^X
// CHECK-NEXT:  ^X: // divergent exit of the branch in ^B
// CHECK-NEXT:  %xx = arith.muli %a, %b : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni, ^exit, ^H(%xx : i32) // uniform branch
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  %ee = arith.addi %a, %b : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @h_first {
^entry(%a: i32, %b: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %uni = arith.cmpi slt, %a, %zero : i32
  %div = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %uni, ^H(%a : i32), ^X
^H(%h: i32):
  %hh = arith.addi %h, %b : i32
  cf.br ^B
^B:
  %bb = arith.addi %hh, %b : i32
  cf.cond_br %div, ^H(%bb : i32), ^X
^X:
  %xx = arith.muli %a, %b : i32
  cf.cond_br %uni, ^exit, ^H(%xx : i32)
^exit:
  %ee = arith.addi %a, %b : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @h_first:
// SUM-NEXT:  //   6 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H ^X) ^B
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^H ^X) ^B
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^H ^X) ^B
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @h_first {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32): // %a uniform, %b uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni, ^H(%a : i32), ^X // uniform branch
// CHECK-NEXT:  ^H(%h: i32): // %h divergent; join of the divergent branch in ^B
// CHECK-NEXT:  %hh = arith.addi %h, %b : i32 // divergent
// CHECK-NEXT:  cf.br ^B
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  %bb = arith.addi %hh, %b : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div, ^H(%bb : i32), ^X // divergent branch; joins: ^H; divergent exits: ^exit
// CHECK-NEXT:  ^X:
// CHECK-NEXT:  %xx = arith.muli %a, %b : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni, ^exit, ^H(%xx : i32) // uniform branch
// CHECK-NEXT:  ^exit: // divergent exit of the branch in ^B
// CHECK-NEXT:  %ee = arith.addi %a, %b : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
