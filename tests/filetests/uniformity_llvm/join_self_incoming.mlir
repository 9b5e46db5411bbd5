// LLVM: the join rule of GenericUniformityImpl (taintAndPushPhiNodes skips a phi whose incoming
// values are all one value, PHINode::hasConstantOrUndefValue, which ignores the phi itself as
// an incoming value). Found by comparing kc with opt-22 on random kernels; no LLVM test covers
// the self-loop case.
//
// @self_loop_join: the entry branches on the thread id to A or straight to J; both pass the
// constant 0 to J's argument %x, and J's self loop passes %x back. %x is 0 on every entry and
// keeps its value around the loop: uniform (a self loop at the join, not a different value).
// @self_loop_join_changes: the self loop passes %x + 1 instead: the incoming values differ and
// %x is divergent by the join rule, in kc and LLVM (conservatively: converged threads are on
// the same iteration of the self loop and hold the same count).
// @self_loop_exit: J is also the divergent exit of a loop (kc's first departure from LLVM 22
// compares an exit argument's incoming values): both exits pass 0 and the self loop passes
// %x back: uniform in kc and LLVM.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @self_loop_join {
^entry(%n: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %div = arith.cmpi slt, %tid, %n : i32
  %uni = arith.cmpi slt, %n, %one : i32
  cf.cond_br %div, ^A, ^J(%zero : i32)
^A:
  cf.br ^J(%zero : i32)
^J(%x: i32):
  %y = arith.addi %x, %one : i32
  cf.cond_br %uni, ^J(%x : i32), ^exit
^exit:
  kernel.return
}
// SUM-LABEL: // uniformity of @self_loop_join:
// SUM-NEXT:  //   2 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^J)
// CHECK-LABEL: kernel.func @self_loop_join {
// CHECK-NEXT:  ^entry(%n: i32): // %n uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %div = arith.cmpi slt, %tid, %n : i32 // divergent
// CHECK-NEXT:  %uni = arith.cmpi slt, %n, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %div, ^A, ^J(%zero : i32) // divergent branch; joins: ^J
// CHECK-NEXT:  ^A:
// CHECK-NEXT:  cf.br ^J(%zero : i32)
// CHECK-NEXT:  ^J(%x: i32): // %x uniform; join of the divergent branch in ^entry
// CHECK-NEXT:  %y = arith.addi %x, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni, ^J(%x : i32), ^exit // uniform branch
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @self_loop_join_changes {
^entry(%n: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %div = arith.cmpi slt, %tid, %n : i32
  %uni = arith.cmpi slt, %n, %one : i32
  cf.cond_br %div, ^A, ^J(%zero : i32)
^A:
  cf.br ^J(%zero : i32)
^J(%x: i32):
  %y = arith.addi %x, %one : i32
  cf.cond_br %uni, ^J(%y : i32), ^exit
^exit:
  kernel.return
}
// SUM-NEXT:  // uniformity of @self_loop_join_changes:
// SUM-NEXT:  //   4 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^J)
// CHECK-LABEL: kernel.func @self_loop_join_changes {
// CHECK-NEXT:  ^entry(%n: i32): // %n uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %div = arith.cmpi slt, %tid, %n : i32 // divergent
// CHECK-NEXT:  %uni = arith.cmpi slt, %n, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %div, ^A, ^J(%zero : i32) // divergent branch; joins: ^J
// CHECK-NEXT:  ^A:
// CHECK-NEXT:  cf.br ^J(%zero : i32)
// CHECK-NEXT:  ^J(%x: i32): // %x divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  %y = arith.addi %x, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni, ^J(%y : i32), ^exit // uniform branch
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @self_loop_exit {
^entry(%n: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %uni = arith.cmpi slt, %n, %one : i32
  cf.br ^H(%zero : i32)
^H(%i: i32):
  %i.next = arith.addi %i, %one : i32
  %leave = arith.cmpi sge, %i.next, %tid : i32
  cf.cond_br %leave, ^J(%zero : i32), ^L
^L:
  %done = arith.cmpi sge, %i.next, %n : i32
  cf.cond_br %done, ^J(%zero : i32), ^H(%i.next : i32)
^J(%x: i32):
  %y = arith.addi %x, %one : i32
  cf.cond_br %uni, ^J(%x : i32), ^exit
^exit:
  kernel.return
}
// SUM-NEXT:  // uniformity of @self_loop_exit:
// SUM-NEXT:  //   2 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H) ^L
// SUM-NEXT:  //     depth=1: entries(^J)
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^H) ^L
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @self_loop_exit {
// CHECK-NEXT:  ^entry(%n: i32): // %n uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %uni = arith.cmpi slt, %n, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^H(%zero : i32)
// CHECK-NEXT:  ^H(%i: i32): // %i uniform
// CHECK-NEXT:  %i.next = arith.addi %i, %one : i32 // uniform
// CHECK-NEXT:  %leave = arith.cmpi sge, %i.next, %tid : i32 // divergent
// CHECK-NEXT:  cf.cond_br %leave, ^J(%zero : i32), ^L // divergent branch; joins: ^J; divergent exits: ^J
// CHECK-NEXT:  ^L:
// CHECK-NEXT:  %done = arith.cmpi sge, %i.next, %n : i32 // uniform
// CHECK-NEXT:  cf.cond_br %done, ^J(%zero : i32), ^H(%i.next : i32) // uniform branch
// CHECK-NEXT:  ^J(%x: i32): // %x uniform; join of the divergent branch in ^H; divergent exit of the branch in ^H
// CHECK-NEXT:  %y = arith.addi %x, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni, ^J(%x : i32), ^exit // uniform branch
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
