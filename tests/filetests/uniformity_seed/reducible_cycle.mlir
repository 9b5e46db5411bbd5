// "Convergence And Uniformity", Reducible Cycle: a reducible cycle has one entry, its header
// H, in every DFS, so (1) a divergent branch and its join inside it trivially satisfy the
// diverged entry criterion, and (2) diverged paths that reach it from outside are converged
// by H. Only block arguments at joins become divergent; nothing is "assumed divergent".
//
// @branch_and_join_inside: in the loop H -> A|B -> J -> H, A and B are chosen by the thread
// id and rejoin at J before the latch. J's argument (a different value per path) is
// divergent; the counter and everything computed from it, the exit branch and the use after
// the loop stay uniform (the exit is uniform).
//
// @diverged_paths_from_outside: the entry branches on the thread id to A or B, both of which
// jump to the loop header H. H is the join and the threads are converged inside the loop:
// a value computed in the loop from uniform values only (%k) is uniform, and so is the
// loop's exit branch, which tests a kernel argument. H's argument %from (a different value
// from A and from B) is divergent. So is the counter %i, conservatively: at H it receives
// the same constant from A and B and %i.next on the back edge, and like LLVM kc taints every
// argument of a join whose incoming values are not all one value (the document's PHI rule
// would call %i uniform: converged threads pick the same value in every iteration).
//
// A reducible loop inside an irreducible cycle is in re_entry.mlir.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @branch_and_join_inside {
^entry(%out: !kernel.ptr<global, i32>, %n: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  cf.br ^H(%zero : i32)
^H(%i: i32):
  %i.next = arith.addi %i, %one : i32
  %odd = arith.andi %tid, %one : i32
  %div = arith.cmpi eq, %odd, %zero : i32
  cf.cond_br %div, ^A, ^B
^A:
  %a.val = arith.addi %i, %n : i32
  cf.br ^J(%a.val : i32)
^B:
  %b.val = arith.muli %i, %n : i32
  cf.br ^J(%b.val : i32)
^J(%x: i32):
  %done = arith.cmpi sge, %i.next, %n : i32
  cf.cond_br %done, ^exit, ^H(%i.next : i32)
^exit:
  %use = arith.addi %i.next, %n : i32
  kernel.store %x, %out, %tid : !kernel.ptr<global, i32>, i32
  kernel.return
}
// SUM-LABEL: // uniformity of @branch_and_join_inside:
// SUM-NEXT:  //   4 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H) ^A ^J ^B
// CHECK-LABEL: kernel.func @branch_and_join_inside {
// CHECK-NEXT:  ^entry(%out: !kernel.ptr<global, i32>, %n: i32): // %out uniform, %n uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  cf.br ^H(%zero : i32)
// CHECK-NEXT:  ^H(%i: i32): // %i uniform
// CHECK-NEXT:  %i.next = arith.addi %i, %one : i32 // uniform
// CHECK-NEXT:  %odd = arith.andi %tid, %one : i32 // divergent
// CHECK-NEXT:  %div = arith.cmpi eq, %odd, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div, ^A, ^B // divergent branch; joins: ^J
// CHECK-NEXT:  ^A:
// CHECK-NEXT:  %a.val = arith.addi %i, %n : i32 // uniform
// CHECK-NEXT:  cf.br ^J(%a.val : i32)
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  %b.val = arith.muli %i, %n : i32 // uniform
// CHECK-NEXT:  cf.br ^J(%b.val : i32)
// CHECK-NEXT:  ^J(%x: i32): // %x divergent; join of the divergent branch in ^H
// CHECK-NEXT:  %done = arith.cmpi sge, %i.next, %n : i32 // uniform
// CHECK-NEXT:  cf.cond_br %done, ^exit, ^H(%i.next : i32) // uniform branch
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  %use = arith.addi %i.next, %n : i32 // uniform
// CHECK-NEXT:  kernel.store %x, %out, %tid : !kernel.ptr<global, i32>, i32
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @diverged_paths_from_outside {
^entry(%out: !kernel.ptr<global, i32>, %n: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %div = arith.cmpi slt, %tid, %n : i32
  cf.cond_br %div, ^A, ^B
^A:
  cf.br ^H(%zero, %zero : i32, i32)
^B:
  cf.br ^H(%zero, %one : i32, i32)
^H(%i: i32, %from: i32):
  %i.next = arith.addi %i, %one : i32
  %k = arith.muli %n, %n : i32
  %done = arith.cmpi sge, %k, %n : i32
  cf.cond_br %done, ^exit, ^H(%i.next, %from : i32, i32)
^exit:
  %use = arith.addi %k, %n : i32
  kernel.store %from, %out, %tid : !kernel.ptr<global, i32>, i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @diverged_paths_from_outside:
// SUM-NEXT:  //   5 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H)
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @diverged_paths_from_outside {
// CHECK-NEXT:  ^entry(%out: !kernel.ptr<global, i32>, %n: i32): // %out uniform, %n uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %div = arith.cmpi slt, %tid, %n : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div, ^A, ^B // divergent branch; joins: ^H
// CHECK-NEXT:  ^A:
// CHECK-NEXT:  cf.br ^H(%zero, %zero : i32, i32)
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  cf.br ^H(%zero, %one : i32, i32)
// CHECK-NEXT:  ^H(%i: i32, %from: i32): // %i divergent, %from divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  %i.next = arith.addi %i, %one : i32 // divergent
// CHECK-NEXT:  %k = arith.muli %n, %n : i32 // uniform
// CHECK-NEXT:  %done = arith.cmpi sge, %k, %n : i32 // uniform
// CHECK-NEXT:  cf.cond_br %done, ^exit, ^H(%i.next, %from : i32, i32) // uniform branch
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  %use = arith.addi %k, %n : i32 // uniform
// CHECK-NEXT:  kernel.store %from, %out, %tid : !kernel.ptr<global, i32>, i32
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
