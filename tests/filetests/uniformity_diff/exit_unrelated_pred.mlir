// kc bug found by the differential test (tests/uniformity_diff.rs). kc calls the argument of a
// divergent cycle exit divergent when its incoming values differ, even if they are constants
// or defined outside the cycle (a deliberate departure from LLVM 22, which misses these:
// #216100), but it compared the incoming values of *every*
// predecessor. Only predecessors reachable from the divergent branch matter: a thread that
// arrives from any other predecessor never executed the branch, so it was not split from the
// others by it. Here the branch in ^entry is uniform, so all threads arrive from ^loop (with
// 7) or all from ^other (with %n): %x is uniform, as LLVM says, not divergent.
// REQUIRES: opt
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=KC
// RUN: %kc %s -O0 --emit=llvm | %opt -passes='print<uniformity>' -disable-output 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LLVM
kernel.func @exit_unrelated_pred {
^entry(%out: !kernel.ptr<global, i32>, %n: i32, %d: i1):
  %tid = kernel.workitem_id x : i32
  %seven = arith.constant 7 : i32
  cf.cond_br %d, ^loop, ^other
^loop:
  %c = arith.cmpi slt, %tid, %n : i32
  cf.cond_br %c, ^loop, ^exit(%seven : i32)
^other:
  cf.br ^exit(%n : i32)
^exit(%x: i32):
  %y = arith.addi %x, %n : i32
  kernel.store %y, %out, %n : !kernel.ptr<global, i32>, i32
  kernel.return
}
// KC:      cf.cond_br %c, ^loop, ^exit(%seven : i32) // divergent branch; divergent exits: ^exit
// KC:      ^exit(%x: i32): // %x uniform; divergent exit of the branch in ^loop
// KC-NEXT: %y = arith.addi %x, %n : i32 // uniform

// LLVM:      CYCLES WITH DIVERGENT EXIT:
// LLVM:      BLOCK exit
// LLVM-NEXT: DEFINITIONS
// LLVM-NEXT: {{^ +}}%x = phi i32 [ 7, %loop ], [ %n, %other ]
// LLVM-NEXT: {{^ +}}%y = add i32 %x, %n
