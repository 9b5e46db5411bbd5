// LLVM: test/Analysis/UniformityAnalysis/AMDGPU/irreducible/irreducible-2.ll, rewritten as kc
// IR. Successor lists are reversed relative to the LLVM test (kc's DFS visits the first
// successor first, LLVM's the last), so kc finds the same cycle headers; the pairs that
// differ only in successor order (cycle_reentrance/2, cycle_join_not_dominated/2,
// cycle_inner_exit_enter/2) must get the same verdicts.
//
// - @cycle_diverge_enter: entry branches on the thread id into the cycle H <-> B at H or at
//   B: assumed divergent; H's and B's arguments and %div.cond.b, and the use of B's argument
//   in X, are divergent.
// - @cycle_diverge_exit: the same cycle entered on a uniform condition and left from B on the
//   thread id: nothing in the cycle is divergent; the use of B's argument in X is temporally
//   divergent.
// - @cycle_reentrance, @cycle_reentrance2: H branches on the thread id to B or C; C is also
//   entered from the entry, so {H, B, C, D} is irreducible (entries H and C) and the join D is
//   dominated by neither the branch nor a header: assumed divergent (C's and D's arguments,
//   %div.inc.b, %div.inc.c divergent).
// - @cycle_join_dominated_by_diverge: H2's divergent branch rejoins at D, which H2 dominates:
//   only D's argument is divergent; H1's and H2's arguments stay uniform.
// - @cycle_join_dominated_by_entry: the branch is in A; its join D (also reached straight
//   from H2) is not dominated by A but by the cycle's header H2: only D's argument is
//   divergent.
// - @cycle_join_not_dominated, @cycle_join_not_dominated2: C's divergent branch goes to D or B
//   and they meet at D, dominated by neither C nor the header: assumed divergent.
// - @natural_loop_two_backedges, @natural_loop_two_backedges2: a natural loop whose header H
//   gets %uni.inc on two back edges, from both sides of a divergent branch, so H is a join.
//   Its argument also gets 0 from the entry, so its incoming values are not all one value and
//   it is tainted (with %uni.inc after it), in LLVM (whose test has a FIXME: it could be
//   uniform, threads pick the same value in each iteration) and in kc alike. The loop exit
//   behind the divergent branch makes a divergent exit in the first variant only (in the
//   second, the exit is in D, which the divergent branch does not reach).
// - @cycle_enter_nested: entry branches on the thread id to B or H1; B is in the inner cycle
//   H2 <-> B: the outer cycle is assumed divergent (H1's, H2's, B's arguments divergent).
// - @cycle_inner_exit_enter, @cycle_inner_exit_enter2: B branches on the thread id to C (leave
//   the inner cycle) or E3 (stay); the diverged paths come back through E1 and E2: the
//   outer cycle is assumed divergent (E1..E4 arguments divergent).
// - @always_uniform: the entry branches on a lane id into the cycle L2 <-> L3 at either
//   block: assumed divergent; a ballot in L3 (LLVM: an icmp intrinsic) stays uniform, values
//   computed from it in the cycle (%inst5, %inst6) are divergent.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @cycle_diverge_enter {
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
  %div.cond.b = arith.cmpi sgt, %div.merge.b, %zero : i32
  %div.b.inc = arith.addi %b, %one : i32
  cf.cond_br %div.cond, ^H(%b : i32), ^X
^X:
  %div.use = arith.addi %div.merge.b, %one : i32
  kernel.return
}
// SUM-LABEL: // uniformity of @cycle_diverge_enter:
// SUM-NEXT:  //   7 divergent values, 2 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H ^B)
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^H ^B)
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^H ^B)
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %div.merge.b used outside cycle depth=1: entries(^H ^B) by: %div.use = arith.addi %div.merge.b, %one : i32
// CHECK-LABEL: kernel.func @cycle_diverge_enter {
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
// CHECK-NEXT:  %div.cond.b = arith.cmpi sgt, %div.merge.b, %zero : i32 // divergent
// CHECK-NEXT:  %div.b.inc = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.cond, ^H(%b : i32), ^X // divergent branch; divergent exits: ^X
// CHECK-NEXT:  ^X: // divergent exit of the branch in ^B
// CHECK-NEXT:  %div.use = arith.addi %div.merge.b, %one : i32 // divergent
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @cycle_diverge_exit {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %tid = kernel.workitem_id x : i32
  %div.cond = arith.cmpi slt, %tid, %zero : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  cf.cond_br %uni.cond, ^H(%zero : i32), ^B(%one : i32)
^H(%uni.merge.h: i32):
  cf.br ^B(%a : i32)
^B(%uni.merge.b: i32):
  %uni.cond.b = arith.cmpi sgt, %uni.merge.b, %zero : i32
  %uni.b.inc = arith.addi %b, %one : i32
  cf.cond_br %div.cond, ^H(%b : i32), ^X
^X:
  %div.use = arith.addi %uni.merge.b, %one : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @cycle_diverge_exit:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H ^B)
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^H ^B)
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %uni.merge.b used outside cycle depth=1: entries(^H ^B) by: %div.use = arith.addi %uni.merge.b, %one : i32
// CHECK-LABEL: kernel.func @cycle_diverge_exit {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %div.cond = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^H(%zero : i32), ^B(%one : i32) // uniform branch
// CHECK-NEXT:  ^H(%uni.merge.h: i32): // %uni.merge.h uniform
// CHECK-NEXT:  cf.br ^B(%a : i32)
// CHECK-NEXT:  ^B(%uni.merge.b: i32): // %uni.merge.b uniform
// CHECK-NEXT:  %uni.cond.b = arith.cmpi sgt, %uni.merge.b, %zero : i32 // uniform
// CHECK-NEXT:  %uni.b.inc = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %div.cond, ^H(%b : i32), ^X // divergent branch; divergent exits: ^X
// CHECK-NEXT:  ^X: // divergent exit of the branch in ^B
// CHECK-NEXT:  %div.use = arith.addi %uni.merge.b, %one : i32 // divergent
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @cycle_reentrance {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %tid = kernel.workitem_id x : i32
  %div.cond = arith.cmpi slt, %tid, %zero : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  cf.cond_br %uni.cond, ^C(%zero : i32), ^H(%zero : i32)
^H(%div.merge.h: i32):
  cf.cond_br %div.cond, ^C(%div.merge.h : i32), ^B
^B:
  %div.inc.b = arith.addi %div.merge.h, %one : i32
  cf.br ^D(%div.inc.b : i32)
^C(%div.merge.c: i32):
  %div.inc.c = arith.addi %div.merge.c, %two : i32
  cf.br ^D(%div.inc.c : i32)
^D(%div.merge.d: i32):
  cf.cond_br %uni.cond, ^H(%b : i32), ^X
^X:
  kernel.return
}
// SUM-NEXT:  // uniformity of @cycle_reentrance:
// SUM-NEXT:  //   7 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^C ^H) ^D ^B
// SUM-NEXT:  //     depth=2: entries(^D ^H) ^B
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^C ^H) ^D ^B
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=2: entries(^D ^H) ^B
// SUM-NEXT:  //     depth=1: entries(^C ^H) ^D ^B
// CHECK-LABEL: kernel.func @cycle_reentrance {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %two = arith.constant 2 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %div.cond = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^C(%zero : i32), ^H(%zero : i32) // uniform branch
// CHECK-NEXT:  ^H(%div.merge.h: i32): // %div.merge.h divergent; join of the divergent branch in ^H
// CHECK-NEXT:  cf.cond_br %div.cond, ^C(%div.merge.h : i32), ^B // divergent branch; joins: ^D ^H ^X; divergent exits: ^C ^X
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  %div.inc.b = arith.addi %div.merge.h, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^D(%div.inc.b : i32)
// CHECK-NEXT:  ^C(%div.merge.c: i32): // %div.merge.c divergent; divergent exit of the branch in ^H
// CHECK-NEXT:  %div.inc.c = arith.addi %div.merge.c, %two : i32 // divergent
// CHECK-NEXT:  cf.br ^D(%div.inc.c : i32)
// CHECK-NEXT:  ^D(%div.merge.d: i32): // %div.merge.d divergent; join of the divergent branch in ^H
// CHECK-NEXT:  cf.cond_br %uni.cond, ^H(%b : i32), ^X // uniform branch
// CHECK-NEXT:  ^X: // join of the divergent branch in ^H; divergent exit of the branch in ^H
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @cycle_reentrance2 {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %tid = kernel.workitem_id x : i32
  %div.cond = arith.cmpi slt, %tid, %zero : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  cf.cond_br %uni.cond, ^H(%zero : i32), ^C(%zero : i32)
^H(%div.merge.h: i32):
  cf.cond_br %div.cond, ^C(%div.merge.h : i32), ^B
^B:
  %div.inc.b = arith.addi %div.merge.h, %one : i32
  cf.br ^D(%div.inc.b : i32)
^C(%div.merge.c: i32):
  %div.inc.c = arith.addi %div.merge.c, %two : i32
  cf.br ^D(%div.inc.c : i32)
^D(%div.merge.d: i32):
  cf.cond_br %uni.cond, ^H(%b : i32), ^X
^X:
  kernel.return
}
// SUM-NEXT:  // uniformity of @cycle_reentrance2:
// SUM-NEXT:  //   7 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H ^C) ^D ^B
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^H ^C) ^D ^B
// CHECK-LABEL: kernel.func @cycle_reentrance2 {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %two = arith.constant 2 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %div.cond = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^H(%zero : i32), ^C(%zero : i32) // uniform branch
// CHECK-NEXT:  ^H(%div.merge.h: i32): // %div.merge.h divergent
// CHECK-NEXT:  cf.cond_br %div.cond, ^C(%div.merge.h : i32), ^B // divergent branch; joins: ^D
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  %div.inc.b = arith.addi %div.merge.h, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^D(%div.inc.b : i32)
// CHECK-NEXT:  ^C(%div.merge.c: i32): // %div.merge.c divergent
// CHECK-NEXT:  %div.inc.c = arith.addi %div.merge.c, %two : i32 // divergent
// CHECK-NEXT:  cf.br ^D(%div.inc.c : i32)
// CHECK-NEXT:  ^D(%div.merge.d: i32): // %div.merge.d divergent; join of the divergent branch in ^H
// CHECK-NEXT:  cf.cond_br %uni.cond, ^H(%b : i32), ^X // uniform branch
// CHECK-NEXT:  ^X:
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @cycle_join_dominated_by_diverge {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %tid = kernel.workitem_id x : i32
  %div.cond = arith.cmpi slt, %tid, %zero : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  cf.cond_br %uni.cond, ^H2(%zero : i32), ^H1(%zero : i32)
^H1(%uni.merge.h1: i32):
  cf.br ^H2(%b : i32)
^H2(%uni.merge.h2: i32):
  cf.cond_br %div.cond, ^C, ^B
^B:
  %uni.inc.b = arith.addi %uni.merge.h2, %one : i32
  cf.br ^D(%uni.inc.b : i32)
^C:
  %uni.inc.c = arith.addi %uni.merge.h2, %two : i32
  cf.br ^D(%uni.inc.c : i32)
^D(%div.merge.d: i32):
  cf.cond_br %uni.cond, ^H1(%b : i32), ^X
^X:
  kernel.return
}
// SUM-NEXT:  // uniformity of @cycle_join_dominated_by_diverge:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H2 ^H1) ^C ^D ^B
// CHECK-LABEL: kernel.func @cycle_join_dominated_by_diverge {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %two = arith.constant 2 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %div.cond = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^H2(%zero : i32), ^H1(%zero : i32) // uniform branch
// CHECK-NEXT:  ^H1(%uni.merge.h1: i32): // %uni.merge.h1 uniform
// CHECK-NEXT:  cf.br ^H2(%b : i32)
// CHECK-NEXT:  ^H2(%uni.merge.h2: i32): // %uni.merge.h2 uniform
// CHECK-NEXT:  cf.cond_br %div.cond, ^C, ^B // divergent branch; joins: ^D
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  %uni.inc.b = arith.addi %uni.merge.h2, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^D(%uni.inc.b : i32)
// CHECK-NEXT:  ^C:
// CHECK-NEXT:  %uni.inc.c = arith.addi %uni.merge.h2, %two : i32 // uniform
// CHECK-NEXT:  cf.br ^D(%uni.inc.c : i32)
// CHECK-NEXT:  ^D(%div.merge.d: i32): // %div.merge.d divergent; join of the divergent branch in ^H2
// CHECK-NEXT:  cf.cond_br %uni.cond, ^H1(%b : i32), ^X // uniform branch
// CHECK-NEXT:  ^X:
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @cycle_join_dominated_by_entry {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %tid = kernel.workitem_id x : i32
  %div.cond = arith.cmpi slt, %tid, %zero : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  cf.cond_br %uni.cond, ^H2(%zero : i32), ^H1(%zero : i32)
^H1(%uni.merge.h1: i32):
  cf.br ^H2(%b : i32)
^H2(%uni.merge.h2: i32):
  cf.cond_br %uni.cond, ^D(%uni.merge.h2 : i32), ^A
^A:
  cf.cond_br %div.cond, ^C, ^B
^B:
  %uni.inc.b = arith.addi %uni.merge.h2, %one : i32
  cf.br ^D(%uni.inc.b : i32)
^C:
  %uni.inc.c = arith.addi %uni.merge.h2, %two : i32
  cf.br ^D(%uni.inc.c : i32)
^D(%div.merge.d: i32):
  cf.cond_br %uni.cond, ^H1(%b : i32), ^X
^X:
  kernel.return
}
// SUM-NEXT:  // uniformity of @cycle_join_dominated_by_entry:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H2 ^H1) ^D ^A ^C ^B
// CHECK-LABEL: kernel.func @cycle_join_dominated_by_entry {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %two = arith.constant 2 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %div.cond = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^H2(%zero : i32), ^H1(%zero : i32) // uniform branch
// CHECK-NEXT:  ^H1(%uni.merge.h1: i32): // %uni.merge.h1 uniform
// CHECK-NEXT:  cf.br ^H2(%b : i32)
// CHECK-NEXT:  ^H2(%uni.merge.h2: i32): // %uni.merge.h2 uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^D(%uni.merge.h2 : i32), ^A // uniform branch
// CHECK-NEXT:  ^A:
// CHECK-NEXT:  cf.cond_br %div.cond, ^C, ^B // divergent branch; joins: ^D
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  %uni.inc.b = arith.addi %uni.merge.h2, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^D(%uni.inc.b : i32)
// CHECK-NEXT:  ^C:
// CHECK-NEXT:  %uni.inc.c = arith.addi %uni.merge.h2, %two : i32 // uniform
// CHECK-NEXT:  cf.br ^D(%uni.inc.c : i32)
// CHECK-NEXT:  ^D(%div.merge.d: i32): // %div.merge.d divergent; join of the divergent branch in ^A
// CHECK-NEXT:  cf.cond_br %uni.cond, ^H1(%b : i32), ^X // uniform branch
// CHECK-NEXT:  ^X:
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @cycle_join_not_dominated {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %tid = kernel.workitem_id x : i32
  %div.cond = arith.cmpi slt, %tid, %zero : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  cf.cond_br %uni.cond, ^H(%zero : i32), ^C(%zero : i32)
^H(%div.merge.h: i32):
  cf.cond_br %uni.cond, ^C(%div.merge.h : i32), ^B(%zero : i32)
^B(%div.merge.b: i32):
  %div.inc.b = arith.addi %div.merge.b, %one : i32
  cf.br ^D(%div.inc.b : i32)
^C(%div.merge.c: i32):
  %div.inc.c = arith.addi %div.merge.c, %two : i32
  cf.cond_br %div.cond, ^B(%b : i32), ^D(%div.inc.c : i32)
^D(%div.merge.d: i32):
  cf.cond_br %uni.cond, ^H(%b : i32), ^X
^X:
  kernel.return
}
// SUM-NEXT:  // uniformity of @cycle_join_not_dominated:
// SUM-NEXT:  //   8 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H ^C) ^B ^D
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^H ^C) ^B ^D
// CHECK-LABEL: kernel.func @cycle_join_not_dominated {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %two = arith.constant 2 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %div.cond = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^H(%zero : i32), ^C(%zero : i32) // uniform branch
// CHECK-NEXT:  ^H(%div.merge.h: i32): // %div.merge.h divergent
// CHECK-NEXT:  cf.cond_br %uni.cond, ^C(%div.merge.h : i32), ^B(%zero : i32) // uniform branch
// CHECK-NEXT:  ^B(%div.merge.b: i32): // %div.merge.b divergent; join of the divergent branch in ^C
// CHECK-NEXT:  %div.inc.b = arith.addi %div.merge.b, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^D(%div.inc.b : i32)
// CHECK-NEXT:  ^C(%div.merge.c: i32): // %div.merge.c divergent
// CHECK-NEXT:  %div.inc.c = arith.addi %div.merge.c, %two : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.cond, ^B(%b : i32), ^D(%div.inc.c : i32) // divergent branch; joins: ^D ^B
// CHECK-NEXT:  ^D(%div.merge.d: i32): // %div.merge.d divergent; join of the divergent branch in ^C
// CHECK-NEXT:  cf.cond_br %uni.cond, ^H(%b : i32), ^X // uniform branch
// CHECK-NEXT:  ^X:
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @cycle_join_not_dominated2 {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %tid = kernel.workitem_id x : i32
  %div.cond = arith.cmpi slt, %tid, %zero : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  cf.cond_br %uni.cond, ^C(%zero : i32), ^H(%zero : i32)
^H(%div.merge.h: i32):
  cf.cond_br %uni.cond, ^C(%div.merge.h : i32), ^B(%zero : i32)
^B(%div.merge.b: i32):
  %div.inc.b = arith.addi %div.merge.b, %one : i32
  cf.br ^D(%div.inc.b : i32)
^C(%div.merge.c: i32):
  %div.inc.c = arith.addi %div.merge.c, %two : i32
  cf.cond_br %div.cond, ^B(%b : i32), ^D(%div.inc.c : i32)
^D(%div.merge.d: i32):
  cf.cond_br %uni.cond, ^H(%b : i32), ^X
^X:
  kernel.return
}
// SUM-NEXT:  // uniformity of @cycle_join_not_dominated2:
// SUM-NEXT:  //   8 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^C ^H) ^B ^D
// SUM-NEXT:  //     depth=2: entries(^B ^H ^D)
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^C ^H) ^B ^D
// CHECK-LABEL: kernel.func @cycle_join_not_dominated2 {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %two = arith.constant 2 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %div.cond = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^C(%zero : i32), ^H(%zero : i32) // uniform branch
// CHECK-NEXT:  ^H(%div.merge.h: i32): // %div.merge.h divergent
// CHECK-NEXT:  cf.cond_br %uni.cond, ^C(%div.merge.h : i32), ^B(%zero : i32) // uniform branch
// CHECK-NEXT:  ^B(%div.merge.b: i32): // %div.merge.b divergent; join of the divergent branch in ^C
// CHECK-NEXT:  %div.inc.b = arith.addi %div.merge.b, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^D(%div.inc.b : i32)
// CHECK-NEXT:  ^C(%div.merge.c: i32): // %div.merge.c divergent
// CHECK-NEXT:  %div.inc.c = arith.addi %div.merge.c, %two : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.cond, ^B(%b : i32), ^D(%div.inc.c : i32) // divergent branch; joins: ^B ^D
// CHECK-NEXT:  ^D(%div.merge.d: i32): // %div.merge.d divergent; join of the divergent branch in ^C
// CHECK-NEXT:  cf.cond_br %uni.cond, ^H(%b : i32), ^X // uniform branch
// CHECK-NEXT:  ^X:
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @natural_loop_two_backedges {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %tid = kernel.workitem_id x : i32
  %div.cond = arith.cmpi slt, %tid, %zero : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  cf.br ^H(%zero : i32)
^H(%uni.merge.h: i32):
  %uni.inc = arith.addi %uni.merge.h, %one : i32
  cf.br ^B
^B:
  cf.cond_br %div.cond, ^H(%uni.inc : i32), ^C
^C:
  cf.cond_br %uni.cond, ^H(%uni.inc : i32), ^X
^X:
  kernel.return
}
// SUM-NEXT:  // uniformity of @natural_loop_two_backedges:
// SUM-NEXT:  //   4 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H) ^B ^C
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^H) ^B ^C
// CHECK-LABEL: kernel.func @natural_loop_two_backedges {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %div.cond = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.br ^H(%zero : i32)
// CHECK-NEXT:  ^H(%uni.merge.h: i32): // %uni.merge.h divergent; join of the divergent branch in ^B
// CHECK-NEXT:  %uni.inc = arith.addi %uni.merge.h, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^B
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  cf.cond_br %div.cond, ^H(%uni.inc : i32), ^C // divergent branch; joins: ^H; divergent exits: ^X
// CHECK-NEXT:  ^C:
// CHECK-NEXT:  cf.cond_br %uni.cond, ^H(%uni.inc : i32), ^X // uniform branch
// CHECK-NEXT:  ^X: // divergent exit of the branch in ^B
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @natural_loop_two_backedges2 {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %tid = kernel.workitem_id x : i32
  %div.cond = arith.cmpi slt, %tid, %zero : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  cf.br ^H(%zero : i32)
^H(%uni.merge.h: i32):
  %uni.inc = arith.addi %uni.merge.h, %one : i32
  cf.cond_br %uni.cond, ^D, ^B
^B:
  cf.cond_br %div.cond, ^H(%uni.inc : i32), ^C
^C:
  cf.br ^H(%uni.inc : i32)
^D:
  cf.cond_br %uni.cond, ^X, ^B
^X:
  kernel.return
}
// SUM-NEXT:  // uniformity of @natural_loop_two_backedges2:
// SUM-NEXT:  //   4 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H) ^D ^B ^C
// CHECK-LABEL: kernel.func @natural_loop_two_backedges2 {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %div.cond = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.br ^H(%zero : i32)
// CHECK-NEXT:  ^H(%uni.merge.h: i32): // %uni.merge.h divergent; join of the divergent branch in ^B
// CHECK-NEXT:  %uni.inc = arith.addi %uni.merge.h, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni.cond, ^D, ^B // uniform branch
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  cf.cond_br %div.cond, ^H(%uni.inc : i32), ^C // divergent branch; joins: ^H
// CHECK-NEXT:  ^C:
// CHECK-NEXT:  cf.br ^H(%uni.inc : i32)
// CHECK-NEXT:  ^D:
// CHECK-NEXT:  cf.cond_br %uni.cond, ^X, ^B // uniform branch
// CHECK-NEXT:  ^X:
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @cycle_enter_nested {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %tid = kernel.workitem_id x : i32
  %div.cond = arith.cmpi slt, %tid, %zero : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  cf.cond_br %div.cond, ^H1(%one : i32), ^B(%zero : i32)
^H1(%div.merge.h1: i32):
  cf.br ^H2(%a : i32)
^H2(%div.merge.h2: i32):
  cf.br ^B(%a : i32)
^B(%div.merge.b: i32):
  cf.cond_br %uni.cond, ^H2(%two : i32), ^C
^C:
  cf.cond_br %uni.cond, ^H1(%b : i32), ^X
^X:
  kernel.return
}
// SUM-NEXT:  // uniformity of @cycle_enter_nested:
// SUM-NEXT:  //   5 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H1 ^B) ^H2 ^C
// SUM-NEXT:  //     depth=2: entries(^H2 ^B)
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^H1 ^B) ^H2 ^C
// CHECK-LABEL: kernel.func @cycle_enter_nested {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %two = arith.constant 2 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %div.cond = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.cond_br %div.cond, ^H1(%one : i32), ^B(%zero : i32) // divergent branch; joins: ^H1 ^H2 ^B
// CHECK-NEXT:  ^H1(%div.merge.h1: i32): // %div.merge.h1 divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  cf.br ^H2(%a : i32)
// CHECK-NEXT:  ^H2(%div.merge.h2: i32): // %div.merge.h2 divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  cf.br ^B(%a : i32)
// CHECK-NEXT:  ^B(%div.merge.b: i32): // %div.merge.b divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  cf.cond_br %uni.cond, ^H2(%two : i32), ^C // uniform branch
// CHECK-NEXT:  ^C:
// CHECK-NEXT:  cf.cond_br %uni.cond, ^H1(%b : i32), ^X // uniform branch
// CHECK-NEXT:  ^X:
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @cycle_inner_exit_enter {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %tid = kernel.workitem_id x : i32
  %div.cond = arith.cmpi slt, %tid, %zero : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  cf.cond_br %uni.cond, ^E1(%one : i32), ^E2(%two : i32)
^E1(%div.merge.e1: i32):
  cf.br ^A
^A:
  cf.cond_br %uni.cond, ^E3(%zero : i32), ^E2(%a : i32)
^E2(%div.merge.e2: i32):
  cf.br ^E4(%zero : i32)
^E3(%div.merge.e3: i32):
  cf.br ^E4(%a : i32)
^E4(%div.merge.e4: i32):
  cf.br ^B
^B:
  cf.cond_br %div.cond, ^E3(%b : i32), ^C
^C:
  cf.cond_br %uni.cond, ^E1(%b : i32), ^X
^X:
  kernel.return
}
// SUM-NEXT:  // uniformity of @cycle_inner_exit_enter:
// SUM-NEXT:  //   6 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^E1 ^E2) ^A ^E3 ^E4 ^B ^C
// SUM-NEXT:  //     depth=2: entries(^E3 ^E4) ^B
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^E1 ^E2) ^A ^E3 ^E4 ^B ^C
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=2: entries(^E3 ^E4) ^B
// CHECK-LABEL: kernel.func @cycle_inner_exit_enter {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %two = arith.constant 2 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %div.cond = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^E1(%one : i32), ^E2(%two : i32) // uniform branch
// CHECK-NEXT:  ^E1(%div.merge.e1: i32): // %div.merge.e1 divergent
// CHECK-NEXT:  cf.br ^A
// CHECK-NEXT:  ^A:
// CHECK-NEXT:  cf.cond_br %uni.cond, ^E3(%zero : i32), ^E2(%a : i32) // uniform branch
// CHECK-NEXT:  ^E2(%div.merge.e2: i32): // %div.merge.e2 divergent
// CHECK-NEXT:  cf.br ^E4(%zero : i32)
// CHECK-NEXT:  ^E3(%div.merge.e3: i32): // %div.merge.e3 divergent; join of the divergent branch in ^B
// CHECK-NEXT:  cf.br ^E4(%a : i32)
// CHECK-NEXT:  ^E4(%div.merge.e4: i32): // %div.merge.e4 divergent; join of the divergent branch in ^B
// CHECK-NEXT:  cf.br ^B
// CHECK-NEXT:  ^B: // join of the divergent branch in ^B
// CHECK-NEXT:  cf.cond_br %div.cond, ^E3(%b : i32), ^C // divergent branch; joins: ^E3 ^E4 ^B; divergent exits: ^C
// CHECK-NEXT:  ^C: // divergent exit of the branch in ^B
// CHECK-NEXT:  cf.cond_br %uni.cond, ^E1(%b : i32), ^X // uniform branch
// CHECK-NEXT:  ^X:
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @cycle_inner_exit_enter2 {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %tid = kernel.workitem_id x : i32
  %div.cond = arith.cmpi slt, %tid, %zero : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  cf.cond_br %uni.cond, ^E2(%two : i32), ^E1(%one : i32)
^E1(%div.merge.e1: i32):
  cf.br ^A
^A:
  cf.cond_br %uni.cond, ^E3(%zero : i32), ^E2(%a : i32)
^E2(%div.merge.e2: i32):
  cf.br ^E4(%zero : i32)
^E3(%div.merge.e3: i32):
  cf.br ^E4(%a : i32)
^E4(%div.merge.e4: i32):
  cf.br ^B
^B:
  cf.cond_br %div.cond, ^E3(%b : i32), ^C
^C:
  cf.cond_br %uni.cond, ^E1(%b : i32), ^X
^X:
  kernel.return
}
// SUM-NEXT:  // uniformity of @cycle_inner_exit_enter2:
// SUM-NEXT:  //   6 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^E2 ^E1) ^E4 ^B ^E3 ^C ^A
// SUM-NEXT:  //     depth=2: entries(^E4 ^E1) ^B ^E3 ^C ^A
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^E2 ^E1) ^E4 ^B ^E3 ^C ^A
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=2: entries(^E4 ^E1) ^B ^E3 ^C ^A
// SUM-NEXT:  //     depth=1: entries(^E2 ^E1) ^E4 ^B ^E3 ^C ^A
// CHECK-LABEL: kernel.func @cycle_inner_exit_enter2 {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %two = arith.constant 2 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %div.cond = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^E2(%two : i32), ^E1(%one : i32) // uniform branch
// CHECK-NEXT:  ^E1(%div.merge.e1: i32): // %div.merge.e1 divergent
// CHECK-NEXT:  cf.br ^A
// CHECK-NEXT:  ^A:
// CHECK-NEXT:  cf.cond_br %uni.cond, ^E3(%zero : i32), ^E2(%a : i32) // uniform branch
// CHECK-NEXT:  ^E2(%div.merge.e2: i32): // %div.merge.e2 divergent; divergent exit of the branch in ^B
// CHECK-NEXT:  cf.br ^E4(%zero : i32)
// CHECK-NEXT:  ^E3(%div.merge.e3: i32): // %div.merge.e3 divergent; join of the divergent branch in ^B
// CHECK-NEXT:  cf.br ^E4(%a : i32)
// CHECK-NEXT:  ^E4(%div.merge.e4: i32): // %div.merge.e4 divergent; join of the divergent branch in ^B
// CHECK-NEXT:  cf.br ^B
// CHECK-NEXT:  ^B: // join of the divergent branch in ^B
// CHECK-NEXT:  cf.cond_br %div.cond, ^E3(%b : i32), ^C // divergent branch; joins: ^E3 ^E4 ^B; divergent exits: ^E2 ^X
// CHECK-NEXT:  ^C:
// CHECK-NEXT:  cf.cond_br %uni.cond, ^E1(%b : i32), ^X // uniform branch
// CHECK-NEXT:  ^X: // divergent exit of the branch in ^B
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @always_uniform {
^entry:
  %zero = arith.constant 0 : i32
  %zero.64 = arith.constant 0 : i64
  %lane = kernel.lane_id : i32
  %inst1 = arith.cmpi ugt, %lane, %zero : i32
  %false = arith.constant false
  cf.cond_br %inst1, ^L2, ^L3
^L2:
  cf.br ^L3
^L3:
  %inst4 = kernel.ballot %false : i64
  %inst5 = arith.trunci %inst4 : i64 to i32
  %inst6 = arith.andi %zero, %inst5 : i32
  cf.br ^L2
}
// SUM-NEXT:  // uniformity of @always_uniform:
// SUM-NEXT:  //   4 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^L2 ^L3)
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^L2 ^L3)
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @always_uniform {
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %zero.64 = arith.constant 0 : i64 // uniform
// CHECK-NEXT:  %lane = kernel.lane_id : i32 // divergent
// CHECK-NEXT:  %inst1 = arith.cmpi ugt, %lane, %zero : i32 // divergent
// CHECK-NEXT:  %false = arith.constant false // uniform
// CHECK-NEXT:  cf.cond_br %inst1, ^L2, ^L3 // divergent branch; joins: ^L2
// CHECK-NEXT:  ^L2: // join of the divergent branch in ^entry
// CHECK-NEXT:  cf.br ^L3
// CHECK-NEXT:  ^L3:
// CHECK-NEXT:  %inst4 = kernel.ballot %false : i64 // uniform
// CHECK-NEXT:  %inst5 = arith.trunci %inst4 : i64 to i32 // divergent
// CHECK-NEXT:  %inst6 = arith.andi %zero, %inst5 : i32 // divergent
// CHECK-NEXT:  cf.br ^L2
// CHECK-NEXT:  }
