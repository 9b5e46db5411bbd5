// "Convergence And Uniformity", Uniformity rule 1 against m-convergence and temporal
// divergence: an op whose semantics make its output uniform (readfirstlane) is uniform among
// the threads that execute one dynamic instance together, but inside a cycle that is not
// m-converged (assumed divergent) threads execute it in different instances, so a use outside
// the cycle, where they are converged again, sees different values: divergent. The same holds
// after a divergent exit (temporal divergence), whichever the analysis meets first.
//
// The cycle A <-> B is irreducible (entries A and B) and entered on a divergent condition, so
// it is assumed divergent; %r = readfirstlane(%i) stays uniform inside it.
// - @divergent_exit_lane_first, @divergent_exit_tid_first: A leaves on the thread id. The two
//   differ only in which source of divergence comes first in the entry block, which changes
//   the order in which the analysis processes the entry's branch and A's exit. %use, after the
//   exit, is divergent in both (LLVM 22 gets one of the two orders wrong, a different one).
// - @uniform_exit: A leaves on a kernel-argument test, but the compare sits in the cycle and
//   is tainted like every definition there, so the exit is divergent anyway; the exit block's
//   argument %r.out (fed %r) and %use are divergent (LLVM 22: uniform).
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @divergent_exit_lane_first {
^entry(%out: !kernel.ptr<global, i32>, %n: i32):
  %tid = kernel.workitem_id x : i32
  %lane = kernel.lane_id : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %enter.div = arith.cmpi slt, %lane, %n : i32
  cf.cond_br %enter.div, ^A(%zero : i32), ^B(%zero : i32)
^A(%i: i32):
  %r = kernel.readfirstlane %i : i32
  %i.next = arith.addi %i, %one : i32
  %stop = arith.cmpi sge, %i.next, %tid : i32
  cf.cond_br %stop, ^exit, ^B(%i.next : i32)
^B(%j: i32):
  cf.br ^A(%j : i32)
^exit:
  %use = arith.addi %r, %one : i32
  kernel.store %use, %out, %tid : !kernel.ptr<global, i32>, i32
  kernel.return
}
// SUM-LABEL: // uniformity of @divergent_exit_lane_first:
// SUM-NEXT:  //   8 divergent values, 2 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^A ^B)
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^A ^B)
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^A ^B)
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %r used outside cycle depth=1: entries(^A ^B) by: %use = arith.addi %r, %one : i32
// CHECK-LABEL: kernel.func @divergent_exit_lane_first {
// CHECK-NEXT:  ^entry(%out: !kernel.ptr<global, i32>, %n: i32): // %out uniform, %n uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %lane = kernel.lane_id : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %enter.div = arith.cmpi slt, %lane, %n : i32 // divergent
// CHECK-NEXT:  cf.cond_br %enter.div, ^A(%zero : i32), ^B(%zero : i32) // divergent branch; joins: ^A
// CHECK-NEXT:  ^A(%i: i32): // %i divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  %r = kernel.readfirstlane %i : i32 // uniform
// CHECK-NEXT:  %i.next = arith.addi %i, %one : i32 // divergent
// CHECK-NEXT:  %stop = arith.cmpi sge, %i.next, %tid : i32 // divergent
// CHECK-NEXT:  cf.cond_br %stop, ^exit, ^B(%i.next : i32) // divergent branch; divergent exits: ^exit
// CHECK-NEXT:  ^B(%j: i32): // %j divergent
// CHECK-NEXT:  cf.br ^A(%j : i32)
// CHECK-NEXT:  ^exit: // divergent exit of the branch in ^A
// CHECK-NEXT:  %use = arith.addi %r, %one : i32 // divergent
// CHECK-NEXT:  kernel.store %use, %out, %tid : !kernel.ptr<global, i32>, i32
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @divergent_exit_tid_first {
^entry(%out: !kernel.ptr<global, i32>, %n: i32):
  %lane = kernel.lane_id : i32
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %enter.div = arith.cmpi slt, %lane, %n : i32
  cf.cond_br %enter.div, ^A(%zero : i32), ^B(%zero : i32)
^A(%i: i32):
  %r = kernel.readfirstlane %i : i32
  %i.next = arith.addi %i, %one : i32
  %stop = arith.cmpi sge, %i.next, %tid : i32
  cf.cond_br %stop, ^exit, ^B(%i.next : i32)
^B(%j: i32):
  cf.br ^A(%j : i32)
^exit:
  %use = arith.addi %r, %one : i32
  kernel.store %use, %out, %tid : !kernel.ptr<global, i32>, i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @divergent_exit_tid_first:
// SUM-NEXT:  //   8 divergent values, 2 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^A ^B)
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^A ^B)
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^A ^B)
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %r used outside cycle depth=1: entries(^A ^B) by: %use = arith.addi %r, %one : i32
// CHECK-LABEL: kernel.func @divergent_exit_tid_first {
// CHECK-NEXT:  ^entry(%out: !kernel.ptr<global, i32>, %n: i32): // %out uniform, %n uniform
// CHECK-NEXT:  %lane = kernel.lane_id : i32 // divergent
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %enter.div = arith.cmpi slt, %lane, %n : i32 // divergent
// CHECK-NEXT:  cf.cond_br %enter.div, ^A(%zero : i32), ^B(%zero : i32) // divergent branch; joins: ^A
// CHECK-NEXT:  ^A(%i: i32): // %i divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  %r = kernel.readfirstlane %i : i32 // uniform
// CHECK-NEXT:  %i.next = arith.addi %i, %one : i32 // divergent
// CHECK-NEXT:  %stop = arith.cmpi sge, %i.next, %tid : i32 // divergent
// CHECK-NEXT:  cf.cond_br %stop, ^exit, ^B(%i.next : i32) // divergent branch; divergent exits: ^exit
// CHECK-NEXT:  ^B(%j: i32): // %j divergent
// CHECK-NEXT:  cf.br ^A(%j : i32)
// CHECK-NEXT:  ^exit: // divergent exit of the branch in ^A
// CHECK-NEXT:  %use = arith.addi %r, %one : i32 // divergent
// CHECK-NEXT:  kernel.store %use, %out, %tid : !kernel.ptr<global, i32>, i32
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @uniform_exit {
^entry(%out: !kernel.ptr<global, i32>, %n: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %enter.div = arith.cmpi slt, %tid, %n : i32
  cf.cond_br %enter.div, ^A(%zero : i32), ^B(%zero : i32)
^A(%i: i32):
  %r = kernel.readfirstlane %i : i32
  %i.next = arith.addi %i, %one : i32
  %stop = arith.cmpi sge, %n, %one : i32
  cf.cond_br %stop, ^exit(%r : i32), ^B(%i.next : i32)
^B(%j: i32):
  cf.br ^A(%j : i32)
^exit(%r.out: i32):
  %use = arith.addi %r, %one : i32
  kernel.store %use, %out, %r.out : !kernel.ptr<global, i32>, i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @uniform_exit:
// SUM-NEXT:  //   8 divergent values, 2 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^A ^B)
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^A ^B)
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^A ^B)
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %r used outside cycle depth=1: entries(^A ^B) by: cf.cond_br %stop, ^exit(%r : i32), ^B(%i.next : i32)
// SUM-NEXT:  //     %r used outside cycle depth=1: entries(^A ^B) by: %use = arith.addi %r, %one : i32
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @uniform_exit {
// CHECK-NEXT:  ^entry(%out: !kernel.ptr<global, i32>, %n: i32): // %out uniform, %n uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %enter.div = arith.cmpi slt, %tid, %n : i32 // divergent
// CHECK-NEXT:  cf.cond_br %enter.div, ^A(%zero : i32), ^B(%zero : i32) // divergent branch; joins: ^A
// CHECK-NEXT:  ^A(%i: i32): // %i divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  %r = kernel.readfirstlane %i : i32 // uniform
// CHECK-NEXT:  %i.next = arith.addi %i, %one : i32 // divergent
// CHECK-NEXT:  %stop = arith.cmpi sge, %n, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %stop, ^exit(%r : i32), ^B(%i.next : i32) // divergent branch; divergent exits: ^exit
// CHECK-NEXT:  ^B(%j: i32): // %j divergent
// CHECK-NEXT:  cf.br ^A(%j : i32)
// CHECK-NEXT:  ^exit(%r.out: i32): // %r.out divergent; divergent exit of the branch in ^A
// CHECK-NEXT:  %use = arith.addi %r, %one : i32 // divergent
// CHECK-NEXT:  kernel.store %use, %out, %r.out : !kernel.ptr<global, i32>, i32
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
