// A verdict where LLVM 22 is wrong and kc is not (found by comparing kc with opt-22 on random
// kernels through tests/tools/uniformity_vs_llvm.py; no LLVM test covers it).
//
// An outer loop (header ^outer, counter %o) holds an inner loop ^inner <-> ^inner.latch. Each
// thread leaves from ^inner, straight out of both loops, when %o equals its thread id; the
// others go on to the next outer iteration. So threads reach the exit on different outer
// iterations and %use = %o + 1 after it differs between them: temporally divergent.
//
// @exit_into_plain_block: the exit block is in no cycle. kc and LLVM 22 agree: the outer loop
// has a divergent exit and %use is divergent.
// @exit_into_sibling_cycle: the exit block ^spin is the header of a cycle of its own (it spins
// forever, like a lane parked in a wait loop). LLVM 22 looks for the outermost exited cycle
// by comparing loop depths with the exit block's innermost cycle (both 1 here) instead of
// asking which cycles contain it, so it stops at the inner loop, records only that one as
// left divergently, and calls %use uniform. kc takes the outermost cycle around the branch
// that does not contain the exit: the outer loop, and %use is divergent, as in the other
// kernel.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @exit_into_sibling_cycle {
^entry(%n: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  cf.br ^outer(%zero : i32)
^outer(%o: i32):
  %o.next = arith.addi %o, %one : i32
  cf.br ^inner
^inner:
  %leave = arith.cmpi eq, %o, %tid : i32
  cf.cond_br %leave, ^spin, ^inner.latch
^inner.latch:
  %more = arith.cmpi slt, %o, %n : i32
  cf.cond_br %more, ^inner, ^outer(%o.next : i32)
^spin:
  %use = arith.addi %o, %one : i32
  cf.br ^spin
}
// SUM-LABEL: // uniformity of @exit_into_sibling_cycle:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^outer) ^inner ^inner.latch
// SUM-NEXT:  //     depth=2: entries(^inner) ^inner.latch
// SUM-NEXT:  //     depth=1: entries(^spin)
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^outer) ^inner ^inner.latch
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %o used outside cycle depth=1: entries(^outer) ^inner ^inner.latch by: %use = arith.addi %o, %one : i32
// CHECK-LABEL: kernel.func @exit_into_sibling_cycle {
// CHECK-NEXT:  ^entry(%n: i32): // %n uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  cf.br ^outer(%zero : i32)
// CHECK-NEXT:  ^outer(%o: i32): // %o uniform
// CHECK-NEXT:  %o.next = arith.addi %o, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^inner
// CHECK-NEXT:  ^inner:
// CHECK-NEXT:  %leave = arith.cmpi eq, %o, %tid : i32 // divergent
// CHECK-NEXT:  cf.cond_br %leave, ^spin, ^inner.latch // divergent branch; divergent exits: ^spin
// CHECK-NEXT:  ^inner.latch:
// CHECK-NEXT:  %more = arith.cmpi slt, %o, %n : i32 // uniform
// CHECK-NEXT:  cf.cond_br %more, ^inner, ^outer(%o.next : i32) // uniform branch
// CHECK-NEXT:  ^spin: // divergent exit of the branch in ^inner
// CHECK-NEXT:  %use = arith.addi %o, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^spin
// CHECK-NEXT:  }

kernel.func @exit_into_plain_block {
^entry(%n: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  cf.br ^outer(%zero : i32)
^outer(%o: i32):
  %o.next = arith.addi %o, %one : i32
  cf.br ^inner
^inner:
  %leave = arith.cmpi eq, %o, %tid : i32
  cf.cond_br %leave, ^done, ^inner.latch
^inner.latch:
  %more = arith.cmpi slt, %o, %n : i32
  cf.cond_br %more, ^inner, ^outer(%o.next : i32)
^done:
  %use = arith.addi %o, %one : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @exit_into_plain_block:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^outer) ^inner ^inner.latch
// SUM-NEXT:  //     depth=2: entries(^inner) ^inner.latch
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^outer) ^inner ^inner.latch
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %o used outside cycle depth=1: entries(^outer) ^inner ^inner.latch by: %use = arith.addi %o, %one : i32
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @exit_into_plain_block {
// CHECK-NEXT:  ^entry(%n: i32): // %n uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  cf.br ^outer(%zero : i32)
// CHECK-NEXT:  ^outer(%o: i32): // %o uniform
// CHECK-NEXT:  %o.next = arith.addi %o, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^inner
// CHECK-NEXT:  ^inner:
// CHECK-NEXT:  %leave = arith.cmpi eq, %o, %tid : i32 // divergent
// CHECK-NEXT:  cf.cond_br %leave, ^done, ^inner.latch // divergent branch; divergent exits: ^done
// CHECK-NEXT:  ^inner.latch:
// CHECK-NEXT:  %more = arith.cmpi slt, %o, %n : i32 // uniform
// CHECK-NEXT:  cf.cond_br %more, ^inner, ^outer(%o.next : i32) // uniform branch
// CHECK-NEXT:  ^done: // divergent exit of the branch in ^inner
// CHECK-NEXT:  %use = arith.addi %o, %one : i32 // divergent
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
