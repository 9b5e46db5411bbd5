// LLVM: test/Analysis/UniformityAnalysis/AMDGPU/irreducible/hidden-post-dom.ll,
// irreducible-1.ll and reducible-subgraph.ll, rewritten as kc IR. Successor lists are
// reversed relative to the LLVM tests (kc's DFS visits the first successor first, LLVM's the
// last), so kc finds the same cycle headers.
//
// @cycle_inner_ipd (hidden-post-dom.ll): E1 -> E2, E2 -> A | B, A -> E1 | B on the thread id,
// B -> C, C -> E1 | X; entries E1 and E2. A's divergent branch rejoins at B, which is reached
// from E2 too: B's argument is divergent (LLVM checks this, and the entry's %tid and
// %div.cond). Neither A nor the header E2 dominates B: the cycle is assumed divergent.
//
// @unstructured_loop (irreducible-1.ll): two entries loop_entry_1/2 (chosen on the thread id;
// LLVM uses a divergent function argument) feed loop_body; the latch dispatches on
// %tid / %i3 (a switch in LLVM, two cf.cond_br here: latch, latch.2) back to either entry or
// out to `branch`. Every argument (%i1, %i2, %i3) is divergent, and so is the compare after
// the loop and its branch.
//
// @uniformity_analysis_crash (reducible-subgraph.ll): LLVM's regression test for an assertion
// on a reducible cycle bb.3 <-> bb.4 whose join bb.4 is not its header. All three conditions
// are function arguments in LLVM (divergent there); here they test the thread id. kc must
// not crash; verdicts as LLVM 22's. bb.3 is a join of its own branch: the diverged path
// bb.3 -> bb.5 -> bb.7 -> bb.8 -> bb.3 leaves the reducible loop bb.3 <-> bb.4 and re-enters it
// through the irreducible cycle around it (see uniformity_seed/re_entry.mlir); the outermost
// cycle is assumed divergent anyway.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @cycle_inner_ipd {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %two = arith.constant 2 : i32
  %ten = arith.constant 10 : i32
  %tid = kernel.workitem_id x : i32
  %div.cond = arith.cmpi slt, %tid, %zero : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  %uni.cond1 = arith.cmpi slt, %a, %two : i32
  %uni.cond2 = arith.cmpi slt, %a, %ten : i32
  cf.cond_br %uni.cond, ^E1, ^E2
^E1:
  cf.br ^E2
^E2:
  cf.cond_br %uni.cond1, ^B(%b : i32), ^A
^A:
  cf.cond_br %div.cond, ^B(%zero : i32), ^E1
^B(%div.merge: i32):
  cf.br ^C
^C:
  cf.cond_br %uni.cond2, ^X, ^E1
^X:
  kernel.return
}
// SUM-LABEL: // uniformity of @cycle_inner_ipd:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^E1 ^E2) ^B ^C ^A
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^E1 ^E2) ^B ^C ^A
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^E1 ^E2) ^B ^C ^A
// CHECK-LABEL: kernel.func @cycle_inner_ipd {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %two = arith.constant 2 : i32 // uniform
// CHECK-NEXT:  %ten = arith.constant 10 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %div.cond = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %uni.cond1 = arith.cmpi slt, %a, %two : i32 // uniform
// CHECK-NEXT:  %uni.cond2 = arith.cmpi slt, %a, %ten : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^E1, ^E2 // uniform branch
// CHECK-NEXT:  ^E1: // join of the divergent branch in ^A
// CHECK-NEXT:  cf.br ^E2
// CHECK-NEXT:  ^E2:
// CHECK-NEXT:  cf.cond_br %uni.cond1, ^B(%b : i32), ^A // uniform branch
// CHECK-NEXT:  ^A:
// CHECK-NEXT:  cf.cond_br %div.cond, ^B(%zero : i32), ^E1 // divergent branch; joins: ^E1 ^B; divergent exits: ^X
// CHECK-NEXT:  ^B(%div.merge: i32): // %div.merge divergent; join of the divergent branch in ^A
// CHECK-NEXT:  cf.br ^C
// CHECK-NEXT:  ^C:
// CHECK-NEXT:  cf.cond_br %uni.cond2, ^X, ^E1 // uniform branch
// CHECK-NEXT:  ^X: // divergent exit of the branch in ^A
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @unstructured_loop {
^entry(%entry_cond.arg: i1):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %five = arith.constant 5 : i32
  %tid = kernel.workitem_id x : i32
  %entry_cond = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %entry_cond, ^loop_entry_2(%zero : i32), ^loop_entry_1(%zero : i32)
^loop_entry_1(%i1: i32):
  %j1 = arith.addi %i1, %one : i32
  cf.br ^loop_body(%j1 : i32)
^loop_entry_2(%i2: i32):
  %j2 = arith.addi %i2, %two : i32
  cf.br ^loop_body(%j2 : i32)
^loop_body(%i3: i32):
  cf.br ^loop_latch
^loop_latch:
  %div = arith.divsi %tid, %i3 : i32
  %is1 = arith.cmpi eq, %div, %one : i32
  cf.cond_br %is1, ^loop_latch.2, ^loop_entry_1(%i3 : i32)
^loop_latch.2:
  %is2 = arith.cmpi eq, %div, %two : i32
  cf.cond_br %is2, ^branch, ^loop_entry_2(%i3 : i32)
^branch:
  %cmp = arith.cmpi eq, %i3, %five : i32
  cf.cond_br %cmp, ^else, ^then
^then:
  kernel.return
^else:
  kernel.return
}
// SUM-NEXT:  // uniformity of @unstructured_loop:
// SUM-NEXT:  //   11 divergent values, 4 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^loop_entry_2 ^loop_entry_1) ^loop_body ^loop_latch ^loop_latch.2
// SUM-NEXT:  //     depth=2: entries(^loop_body ^loop_entry_1) ^loop_latch
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^loop_entry_2 ^loop_entry_1) ^loop_body ^loop_latch ^loop_latch.2
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^loop_entry_2 ^loop_entry_1) ^loop_body ^loop_latch ^loop_latch.2
// SUM-NEXT:  //     depth=2: entries(^loop_body ^loop_entry_1) ^loop_latch
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %i3 used outside cycle depth=1: entries(^loop_entry_2 ^loop_entry_1) ^loop_body ^loop_latch ^loop_latch.2 by: %cmp = arith.cmpi eq, %i3, %five : i32
// CHECK-LABEL: kernel.func @unstructured_loop {
// CHECK-NEXT:  ^entry(%entry_cond.arg: i1): // %entry_cond.arg uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %two = arith.constant 2 : i32 // uniform
// CHECK-NEXT:  %five = arith.constant 5 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %entry_cond = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %entry_cond, ^loop_entry_2(%zero : i32), ^loop_entry_1(%zero : i32) // divergent branch; joins: ^loop_entry_2 ^loop_body ^loop_latch ^loop_latch.2 ^loop_entry_1 ^branch
// CHECK-NEXT:  ^loop_entry_1(%i1: i32): // %i1 divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  %j1 = arith.addi %i1, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^loop_body(%j1 : i32)
// CHECK-NEXT:  ^loop_entry_2(%i2: i32): // %i2 divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  %j2 = arith.addi %i2, %two : i32 // divergent
// CHECK-NEXT:  cf.br ^loop_body(%j2 : i32)
// CHECK-NEXT:  ^loop_body(%i3: i32): // %i3 divergent; join of the divergent branch in ^loop_latch; join of the divergent branch in ^entry
// CHECK-NEXT:  cf.br ^loop_latch
// CHECK-NEXT:  ^loop_latch: // join of the divergent branch in ^loop_latch; join of the divergent branch in ^entry
// CHECK-NEXT:  %div = arith.divsi %tid, %i3 : i32 // divergent
// CHECK-NEXT:  %is1 = arith.cmpi eq, %div, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %is1, ^loop_latch.2, ^loop_entry_1(%i3 : i32) // divergent branch; joins: ^loop_body ^loop_latch; divergent exits: ^loop_latch.2
// CHECK-NEXT:  ^loop_latch.2: // divergent exit of the branch in ^loop_latch; join of the divergent branch in ^entry
// CHECK-NEXT:  %is2 = arith.cmpi eq, %div, %two : i32 // divergent
// CHECK-NEXT:  cf.cond_br %is2, ^branch, ^loop_entry_2(%i3 : i32) // divergent branch; divergent exits: ^branch
// CHECK-NEXT:  ^branch: // divergent exit of the branch in ^loop_latch.2; join of the divergent branch in ^entry
// CHECK-NEXT:  %cmp = arith.cmpi eq, %i3, %five : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cmp, ^else, ^then // divergent branch
// CHECK-NEXT:  ^then:
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  ^else:
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @uniformity_analysis_crash {
^entry(%a: i32):
  %tid = kernel.workitem_id x : i32
  %v.0 = arith.cmpi slt, %tid, %a : i32
  %v.1 = arith.cmpi sgt, %tid, %a : i32
  %v.2 = arith.cmpi eq, %tid, %a : i32
  cf.cond_br %v.0, ^bb.2, ^bb.1
^bb.1:
  cf.br ^bb.3
^bb.3:
  cf.cond_br %v.1, ^bb.4, ^bb.5
^bb.4:
  cf.br ^bb.3
^bb.5:
  cf.cond_br %v.2, ^bb.7, ^bb.6
^bb.6:
  cf.br ^bb.2
^bb.7:
  cf.br ^bb.8
^bb.8:
  cf.br ^bb.3
^bb.2:
  cf.br ^bb.8
}
// SUM-NEXT:  // uniformity of @uniformity_analysis_crash:
// SUM-NEXT:  //   4 divergent values, 3 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^bb.2 ^bb.3) ^bb.8 ^bb.4 ^bb.5 ^bb.7 ^bb.6
// SUM-NEXT:  //     depth=2: entries(^bb.8 ^bb.3) ^bb.4 ^bb.5 ^bb.7
// SUM-NEXT:  //     depth=3: entries(^bb.3) ^bb.4
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^bb.2 ^bb.3) ^bb.8 ^bb.4 ^bb.5 ^bb.7 ^bb.6
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=2: entries(^bb.8 ^bb.3) ^bb.4 ^bb.5 ^bb.7
// SUM-NEXT:  //     depth=3: entries(^bb.3) ^bb.4
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @uniformity_analysis_crash {
// CHECK-NEXT:  ^entry(%a: i32): // %a uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %v.0 = arith.cmpi slt, %tid, %a : i32 // divergent
// CHECK-NEXT:  %v.1 = arith.cmpi sgt, %tid, %a : i32 // divergent
// CHECK-NEXT:  %v.2 = arith.cmpi eq, %tid, %a : i32 // divergent
// CHECK-NEXT:  cf.cond_br %v.0, ^bb.2, ^bb.1 // divergent branch; joins: ^bb.2
// CHECK-NEXT:  ^bb.1:
// CHECK-NEXT:  cf.br ^bb.3
// CHECK-NEXT:  ^bb.3: // join of the divergent branch in ^bb.5; join of the divergent branch in ^bb.3
// CHECK-NEXT:  cf.cond_br %v.1, ^bb.4, ^bb.5 // divergent branch; joins: ^bb.3; divergent exits: ^bb.5
// CHECK-NEXT:  ^bb.4:
// CHECK-NEXT:  cf.br ^bb.3
// CHECK-NEXT:  ^bb.5: // join of the divergent branch in ^bb.5; divergent exit of the branch in ^bb.3
// CHECK-NEXT:  cf.cond_br %v.2, ^bb.7, ^bb.6 // divergent branch; joins: ^bb.8 ^bb.3 ^bb.5; divergent exits: ^bb.6
// CHECK-NEXT:  ^bb.6: // divergent exit of the branch in ^bb.5
// CHECK-NEXT:  cf.br ^bb.2
// CHECK-NEXT:  ^bb.7:
// CHECK-NEXT:  cf.br ^bb.8
// CHECK-NEXT:  ^bb.8: // join of the divergent branch in ^bb.5
// CHECK-NEXT:  cf.br ^bb.3
// CHECK-NEXT:  ^bb.2: // join of the divergent branch in ^entry
// CHECK-NEXT:  cf.br ^bb.8
// CHECK-NEXT:  }
