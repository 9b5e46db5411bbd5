// LLVM: test/Analysis/UniformityAnalysis/AMDGPU/join-at-loop-exit.ll,
// trivial-join-at-loop-exit.ll, propagate-loop-live-out.ll and join-at-loop-heart.ll,
// rewritten as kc IR.
//
// @test (join-at-loop-exit.ll): loop bb1 <-> bb2 left from bb1 (on the thread id) and from
// bb2 (counter reaches 0). bb3, the exit, gets true from bb1 and false from bb2: the guard is
// divergent, and so is the branch on it.
//
// @test2 (trivial-join-at-loop-exit.ll): a loop bb1 left only from bb1 (on the thread id); the
// exit bb2 is also reached straight from the entry (uniform branch). The guard (true from the
// loop, false from the entry) is uniform in LLVM: only one exit edge leaves the loop. kc
// agrees: bb2 is a divergent exit, but its exit rule (kc's first departure from LLVM 22, see
// dialect/src/analysis/uniformity.rs) only compares edges the loop's branch reaches, and the
// entry's edge is not one of them.
//
// @propagate_loop_live_out (propagate-loop-live-out.ll): bb1 branches on the thread id to bb2
// or bb3 (join: %i1, %i2, %i3 divergent); bb3 leaves the loop on %i3 (divergent). After the
// loop, bb4 branches on %i2 (temporally divergent) and the constant-carrying argument of bb6
// is divergent.
//
// @nested_loop_extension (join-at-loop-heart.ll): header A -> B; B branches on the thread id
// to C or D, each of which goes back to A or on to E; E goes back to A or exits. A is a join
// of B's branch: its argument (0 from the entry, %inc from three back edges) is divergent,
// and %inc with it. (LLVM's test carries convergence tokens, an anchor and a loop intrinsic
// in E that is not a heart; they play no part in these verdicts. Its undef branch conditions
// are kernel arguments here.)
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @test {
^bb0:
  %minus1 = arith.constant -1 : i32
  %seven = arith.constant 7 : i32
  %zero = arith.constant 0 : i32
  %true = arith.constant true
  %false = arith.constant false
  %tid.x = kernel.workitem_id x : i32
  %i5 = arith.cmpi eq, %tid.x, %minus1 : i32
  cf.br ^bb1(%seven : i32)
^bb1(%lsr.iv: i32):
  cf.cond_br %i5, ^bb2, ^bb3(%true : i1)
^bb2:
  %lsr.iv.next = arith.addi %lsr.iv, %minus1 : i32
  %i14 = arith.cmpi eq, %lsr.iv.next, %zero : i32
  cf.cond_br %i14, ^bb3(%false : i1), ^bb1(%lsr.iv.next : i32)
^bb3(%Guard.bb4: i1):
  cf.cond_br %Guard.bb4, ^bb4, ^bb5
^bb4:
  cf.br ^bb5
^bb5:
  kernel.return
}
// SUM-LABEL: // uniformity of @test:
// SUM-NEXT:  //   3 divergent values, 2 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^bb1) ^bb2
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^bb1) ^bb2
// CHECK-LABEL: kernel.func @test {
// CHECK-NEXT:  %minus1 = arith.constant -1 : i32 // uniform
// CHECK-NEXT:  %seven = arith.constant 7 : i32 // uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %true = arith.constant true // uniform
// CHECK-NEXT:  %false = arith.constant false // uniform
// CHECK-NEXT:  %tid.x = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %i5 = arith.cmpi eq, %tid.x, %minus1 : i32 // divergent
// CHECK-NEXT:  cf.br ^bb1(%seven : i32)
// CHECK-NEXT:  ^bb1(%lsr.iv: i32): // %lsr.iv uniform
// CHECK-NEXT:  cf.cond_br %i5, ^bb2, ^bb3(%true : i1) // divergent branch; joins: ^bb3; divergent exits: ^bb3
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:  %lsr.iv.next = arith.addi %lsr.iv, %minus1 : i32 // uniform
// CHECK-NEXT:  %i14 = arith.cmpi eq, %lsr.iv.next, %zero : i32 // uniform
// CHECK-NEXT:  cf.cond_br %i14, ^bb3(%false : i1), ^bb1(%lsr.iv.next : i32) // uniform branch
// CHECK-NEXT:  ^bb3(%Guard.bb4: i1): // %Guard.bb4 divergent; join of the divergent branch in ^bb1; divergent exit of the branch in ^bb1
// CHECK-NEXT:  cf.cond_br %Guard.bb4, ^bb4, ^bb5 // divergent branch; joins: ^bb5
// CHECK-NEXT:  ^bb4:
// CHECK-NEXT:  cf.br ^bb5
// CHECK-NEXT:  ^bb5: // join of the divergent branch in ^bb3
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @test2 {
^bb0(%uni: i1):
  %minus1 = arith.constant -1 : i32
  %seven = arith.constant 7 : i32
  %true = arith.constant true
  %false = arith.constant false
  %tid.x = kernel.workitem_id x : i32
  %i5 = arith.cmpi eq, %tid.x, %minus1 : i32
  cf.cond_br %uni, ^bb1(%seven : i32), ^bb2(%false : i1)
^bb1(%lsr.iv: i32):
  %lsr.iv.next = arith.addi %lsr.iv, %minus1 : i32
  cf.cond_br %i5, ^bb2(%true : i1), ^bb1(%lsr.iv.next : i32)
^bb2(%Guard.bb2: i1):
  kernel.return
}
// SUM-NEXT:  // uniformity of @test2:
// SUM-NEXT:  //   2 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^bb1)
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^bb1)
// CHECK-LABEL: kernel.func @test2 {
// CHECK-NEXT:  ^bb0(%uni: i1): // %uni uniform
// CHECK-NEXT:  %minus1 = arith.constant -1 : i32 // uniform
// CHECK-NEXT:  %seven = arith.constant 7 : i32 // uniform
// CHECK-NEXT:  %true = arith.constant true // uniform
// CHECK-NEXT:  %false = arith.constant false // uniform
// CHECK-NEXT:  %tid.x = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %i5 = arith.cmpi eq, %tid.x, %minus1 : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni, ^bb1(%seven : i32), ^bb2(%false : i1) // uniform branch
// CHECK-NEXT:  ^bb1(%lsr.iv: i32): // %lsr.iv uniform
// CHECK-NEXT:  %lsr.iv.next = arith.addi %lsr.iv, %minus1 : i32 // uniform
// CHECK-NEXT:  cf.cond_br %i5, ^bb2(%true : i1), ^bb1(%lsr.iv.next : i32) // divergent branch; divergent exits: ^bb2
// CHECK-NEXT:  ^bb2(%Guard.bb2: i1): // %Guard.bb2 uniform; divergent exit of the branch in ^bb1
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @propagate_loop_live_out {
^bb0:
  %minus1 = arith.constant -1 : i32
  %seven = arith.constant 7 : i32
  %zero = arith.constant 0 : i32
  %true = arith.constant true
  %false = arith.constant false
  %i4 = kernel.workitem_id x : i32
  %i5 = arith.cmpi eq, %i4, %minus1 : i32
  cf.br ^bb1(%seven : i32)
^bb1(%lsr.iv: i32):
  cf.cond_br %i5, ^bb2, ^bb3(%zero, %true, %true : i32, i1, i1)
^bb2:
  %lsr.iv.next = arith.addi %lsr.iv, %minus1 : i32
  %i14 = arith.cmpi eq, %lsr.iv.next, %zero : i32
  cf.br ^bb3(%lsr.iv.next, %false, %i14 : i32, i1, i1)
^bb3(%i1: i32, %i2: i1, %i3: i1):
  cf.cond_br %i3, ^bb4, ^bb1(%i1 : i32)
^bb4:
  cf.cond_br %i2, ^bb5, ^bb6(%true : i1)
^bb5:
  cf.br ^bb6(%false : i1)
^bb6(%guard: i1):
  cf.cond_br %guard, ^bb7, ^bb8
^bb7:
  cf.br ^bb8
^bb8:
  kernel.return
}
// SUM-NEXT:  // uniformity of @propagate_loop_live_out:
// SUM-NEXT:  //   9 divergent values, 4 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^bb1) ^bb2 ^bb3
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^bb1) ^bb2 ^bb3
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %i2 used outside cycle depth=1: entries(^bb1) ^bb2 ^bb3 by: cf.cond_br %i2, ^bb5, ^bb6(%true : i1)
// CHECK-LABEL: kernel.func @propagate_loop_live_out {
// CHECK-NEXT:  %minus1 = arith.constant -1 : i32 // uniform
// CHECK-NEXT:  %seven = arith.constant 7 : i32 // uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %true = arith.constant true // uniform
// CHECK-NEXT:  %false = arith.constant false // uniform
// CHECK-NEXT:  %i4 = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %i5 = arith.cmpi eq, %i4, %minus1 : i32 // divergent
// CHECK-NEXT:  cf.br ^bb1(%seven : i32)
// CHECK-NEXT:  ^bb1(%lsr.iv: i32): // %lsr.iv divergent
// CHECK-NEXT:  cf.cond_br %i5, ^bb2, ^bb3(%zero, %true, %true : i32, i1, i1) // divergent branch; joins: ^bb3
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:  %lsr.iv.next = arith.addi %lsr.iv, %minus1 : i32 // divergent
// CHECK-NEXT:  %i14 = arith.cmpi eq, %lsr.iv.next, %zero : i32 // divergent
// CHECK-NEXT:  cf.br ^bb3(%lsr.iv.next, %false, %i14 : i32, i1, i1)
// CHECK-NEXT:  ^bb3(%i1: i32, %i2: i1, %i3: i1): // %i1 divergent, %i2 divergent, %i3 divergent; join of the divergent branch in ^bb1
// CHECK-NEXT:  cf.cond_br %i3, ^bb4, ^bb1(%i1 : i32) // divergent branch; divergent exits: ^bb4
// CHECK-NEXT:  ^bb4: // divergent exit of the branch in ^bb3
// CHECK-NEXT:  cf.cond_br %i2, ^bb5, ^bb6(%true : i1) // divergent branch; joins: ^bb6
// CHECK-NEXT:  ^bb5:
// CHECK-NEXT:  cf.br ^bb6(%false : i1)
// CHECK-NEXT:  ^bb6(%guard: i1): // %guard divergent; join of the divergent branch in ^bb4
// CHECK-NEXT:  cf.cond_br %guard, ^bb7, ^bb8 // divergent branch; joins: ^bb8
// CHECK-NEXT:  ^bb7:
// CHECK-NEXT:  cf.br ^bb8
// CHECK-NEXT:  ^bb8: // join of the divergent branch in ^bb6
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @nested_loop_extension {
^entry(%u1: i1, %u2: i1, %u3: i1):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  cf.br ^A(%zero : i32)
^A(%phi.h: i32):
  cf.br ^B
^B:
  %tid = kernel.workitem_id x : i32
  %div.cond = arith.cmpi slt, %tid, %zero : i32
  %inc = arith.addi %phi.h, %one : i32
  cf.cond_br %div.cond, ^C, ^D
^C:
  cf.cond_br %u1, ^A(%inc : i32), ^E
^D:
  cf.cond_br %u2, ^A(%inc : i32), ^E
^E:
  cf.cond_br %u3, ^A(%inc : i32), ^F
^F:
  kernel.return
}
// SUM-NEXT:  // uniformity of @nested_loop_extension:
// SUM-NEXT:  //   4 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^A) ^B ^C ^E ^D
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^A) ^B ^C ^E ^D
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @nested_loop_extension {
// CHECK-NEXT:  ^entry(%u1: i1, %u2: i1, %u3: i1): // %u1 uniform, %u2 uniform, %u3 uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  cf.br ^A(%zero : i32)
// CHECK-NEXT:  ^A(%phi.h: i32): // %phi.h divergent; join of the divergent branch in ^B
// CHECK-NEXT:  cf.br ^B
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %div.cond = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %inc = arith.addi %phi.h, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.cond, ^C, ^D // divergent branch; joins: ^A ^E; divergent exits: ^F
// CHECK-NEXT:  ^C:
// CHECK-NEXT:  cf.cond_br %u1, ^A(%inc : i32), ^E // uniform branch
// CHECK-NEXT:  ^D:
// CHECK-NEXT:  cf.cond_br %u2, ^A(%inc : i32), ^E // uniform branch
// CHECK-NEXT:  ^E: // join of the divergent branch in ^B
// CHECK-NEXT:  cf.cond_br %u3, ^A(%inc : i32), ^F // uniform branch
// CHECK-NEXT:  ^F: // divergent exit of the branch in ^B
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
