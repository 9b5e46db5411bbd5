// Three of kc's deliberate departures from LLVM 22's UniformityAnalysis (listed in the header
// of dialect/src/analysis/uniformity.rs; the fourth, re-entry into a reducible loop, is in
// uniformity_seed/re_entry.mlir), each where LLVM 22 gives another verdict, and why kc's is
// sound.
//
// 1. Divergent cycle exits (LLVM: divergent-cycle-exit-phi.ll, divergent-cycle-exit-join.ll;
//    issue #216100, open). An argument of a block that threads reach through a divergent
//    cycle exit is divergent when its incoming values differ, even if they are constants or
//    defined outside the cycle. LLVM only taints exit arguments fed from inside the cycle.
//    - @divergent_cycle_exit_phi: the loop is left from `loop` (uniform test, %acc = 0) and
//      from `body` (thread-id test, %acc = 1). A thread whose test in body holds leaves with 1
//      in the first iteration while the others go on and leave later with 0: %acc is divergent
//      (LLVM 22: uniform).
//    - @uniform_cycle_exit_phi: both exits pass 7: uniform in both.
//    - @nested_cycle_exit_phi: the divergent exit leaves the inner and the outer loop at once;
//      the outer header's exit passes 0, the inner body's 1: divergent (LLVM 22: uniform).
//    - @uniform_multi_exit_cycle_phi: exit.uniform is reached only through uniform branches,
//      beside a separate divergent exit: the threads that reach it all took the same path, and
//      %acc is uniform in both.
//    - @constant_phi_at_cycle_exit: the counter lets `loop` exit (with 0) only on the second
//      iteration, so the threads that took body's divergent exit (with 1) in the first
//      iteration and those that stayed meet at exit with different values: divergent (LLVM
//      22: uniform; the store of %exit.phi would be wrong if it were kept in a scalar).
//
// 2. Heart tokens (LLVM 22 has no token logic). A use after a cycle's divergent exit that lies
//    in the convergence region of the cycle's heart token is not temporally divergent: under
//    controlled convergence, threads are converged there only if they left on the same
//    iteration. @heart_region: %in.region (before the ballot that uses the heart token after
//    the loop) is uniform, %after.region (after the token's last use) is temporally
//    divergent; the exit compare the ballot reads, %stop, is divergent anyway.
//
// 3. kernel.reduce is always uniform: a wave reduction gives every active lane the same value.
//    LLVM 22 calls wave.reduce of a divergent input divergent. @reduce.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @divergent_cycle_exit_phi {
^entry(%n: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %tid = kernel.workitem_id x : i32
  cf.br ^loop(%zero : i32)
^loop(%iv: i32):
  %exit.cond = arith.cmpi uge, %iv, %n : i32
  cf.cond_br %exit.cond, ^exit(%zero : i32), ^body
^body:
  %div.cond = arith.cmpi eq, %tid, %zero : i32
  %iv.next = arith.addi %iv, %one : i32
  cf.cond_br %div.cond, ^exit(%one : i32), ^loop(%iv.next : i32)
^exit(%acc: i32):
  kernel.return
}
// SUM-LABEL: // uniformity of @divergent_cycle_exit_phi:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^loop) ^body
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^loop) ^body
// CHECK-LABEL: kernel.func @divergent_cycle_exit_phi {
// CHECK-NEXT:  ^entry(%n: i32): // %n uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  cf.br ^loop(%zero : i32)
// CHECK-NEXT:  ^loop(%iv: i32): // %iv uniform
// CHECK-NEXT:  %exit.cond = arith.cmpi uge, %iv, %n : i32 // uniform
// CHECK-NEXT:  cf.cond_br %exit.cond, ^exit(%zero : i32), ^body // uniform branch
// CHECK-NEXT:  ^body:
// CHECK-NEXT:  %div.cond = arith.cmpi eq, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %iv.next = arith.addi %iv, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %div.cond, ^exit(%one : i32), ^loop(%iv.next : i32) // divergent branch; divergent exits: ^exit
// CHECK-NEXT:  ^exit(%acc: i32): // %acc divergent; divergent exit of the branch in ^body
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @uniform_cycle_exit_phi {
^entry(%n: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %seven = arith.constant 7 : i32
  %tid = kernel.workitem_id x : i32
  cf.br ^loop(%zero : i32)
^loop(%iv: i32):
  %exit.cond = arith.cmpi uge, %iv, %n : i32
  cf.cond_br %exit.cond, ^exit(%seven : i32), ^body
^body:
  %div.cond = arith.cmpi eq, %tid, %zero : i32
  %iv.next = arith.addi %iv, %one : i32
  cf.cond_br %div.cond, ^exit(%seven : i32), ^loop(%iv.next : i32)
^exit(%acc: i32):
  kernel.return
}
// SUM-NEXT:  // uniformity of @uniform_cycle_exit_phi:
// SUM-NEXT:  //   2 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^loop) ^body
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^loop) ^body
// CHECK-LABEL: kernel.func @uniform_cycle_exit_phi {
// CHECK-NEXT:  ^entry(%n: i32): // %n uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %seven = arith.constant 7 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  cf.br ^loop(%zero : i32)
// CHECK-NEXT:  ^loop(%iv: i32): // %iv uniform
// CHECK-NEXT:  %exit.cond = arith.cmpi uge, %iv, %n : i32 // uniform
// CHECK-NEXT:  cf.cond_br %exit.cond, ^exit(%seven : i32), ^body // uniform branch
// CHECK-NEXT:  ^body:
// CHECK-NEXT:  %div.cond = arith.cmpi eq, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %iv.next = arith.addi %iv, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %div.cond, ^exit(%seven : i32), ^loop(%iv.next : i32) // divergent branch; divergent exits: ^exit
// CHECK-NEXT:  ^exit(%acc: i32): // %acc uniform; divergent exit of the branch in ^body
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @nested_cycle_exit_phi {
^entry:
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %tid = kernel.workitem_id x : i32
  cf.br ^outer.header(%zero : i32)
^outer.header(%o: i32):
  %o.cond = arith.cmpi slt, %o, %two : i32
  cf.cond_br %o.cond, ^inner.header(%zero : i32), ^exit(%zero : i32)
^inner.header(%i: i32):
  %i.cond = arith.cmpi slt, %i, %two : i32
  cf.cond_br %i.cond, ^inner.body, ^outer.latch
^inner.body:
  %i.next = arith.addi %i, %one : i32
  %div.cond = arith.cmpi eq, %tid, %zero : i32
  cf.cond_br %div.cond, ^exit(%one : i32), ^inner.header(%i.next : i32)
^outer.latch:
  %o.next = arith.addi %o, %one : i32
  cf.br ^outer.header(%o.next : i32)
^exit(%acc: i32):
  kernel.return
}
// SUM-NEXT:  // uniformity of @nested_cycle_exit_phi:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^outer.header) ^inner.header ^inner.body ^outer.latch
// SUM-NEXT:  //     depth=2: entries(^inner.header) ^inner.body
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^outer.header) ^inner.header ^inner.body ^outer.latch
// CHECK-LABEL: kernel.func @nested_cycle_exit_phi {
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %two = arith.constant 2 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  cf.br ^outer.header(%zero : i32)
// CHECK-NEXT:  ^outer.header(%o: i32): // %o uniform
// CHECK-NEXT:  %o.cond = arith.cmpi slt, %o, %two : i32 // uniform
// CHECK-NEXT:  cf.cond_br %o.cond, ^inner.header(%zero : i32), ^exit(%zero : i32) // uniform branch
// CHECK-NEXT:  ^inner.header(%i: i32): // %i uniform
// CHECK-NEXT:  %i.cond = arith.cmpi slt, %i, %two : i32 // uniform
// CHECK-NEXT:  cf.cond_br %i.cond, ^inner.body, ^outer.latch // uniform branch
// CHECK-NEXT:  ^inner.body:
// CHECK-NEXT:  %i.next = arith.addi %i, %one : i32 // uniform
// CHECK-NEXT:  %div.cond = arith.cmpi eq, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.cond, ^exit(%one : i32), ^inner.header(%i.next : i32) // divergent branch; divergent exits: ^exit
// CHECK-NEXT:  ^outer.latch:
// CHECK-NEXT:  %o.next = arith.addi %o, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^outer.header(%o.next : i32)
// CHECK-NEXT:  ^exit(%acc: i32): // %acc divergent; divergent exit of the branch in ^inner.body
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @uniform_multi_exit_cycle_phi {
^entry(%n: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %three = arith.constant 3 : i32
  %tid = kernel.workitem_id x : i32
  cf.br ^loop
^loop:
  %uni.cond = arith.cmpi slt, %n, %three : i32
  cf.cond_br %uni.cond, ^body, ^exit.uniform(%zero : i32)
^body:
  %div.cond = arith.cmpi eq, %tid, %zero : i32
  cf.cond_br %div.cond, ^exit.divergent, ^mid
^mid:
  %uni.cond2 = arith.cmpi sgt, %n, %one : i32
  cf.cond_br %uni.cond2, ^exit.uniform(%one : i32), ^loop
^exit.divergent:
  kernel.return
^exit.uniform(%acc: i32):
  kernel.return
}
// SUM-NEXT:  // uniformity of @uniform_multi_exit_cycle_phi:
// SUM-NEXT:  //   2 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^loop) ^body ^mid
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^loop) ^body ^mid
// CHECK-LABEL: kernel.func @uniform_multi_exit_cycle_phi {
// CHECK-NEXT:  ^entry(%n: i32): // %n uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %three = arith.constant 3 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  cf.br ^loop
// CHECK-NEXT:  ^loop:
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %n, %three : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^body, ^exit.uniform(%zero : i32) // uniform branch
// CHECK-NEXT:  ^body:
// CHECK-NEXT:  %div.cond = arith.cmpi eq, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.cond, ^exit.divergent, ^mid // divergent branch; divergent exits: ^exit.divergent
// CHECK-NEXT:  ^mid:
// CHECK-NEXT:  %uni.cond2 = arith.cmpi sgt, %n, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni.cond2, ^exit.uniform(%one : i32), ^loop // uniform branch
// CHECK-NEXT:  ^exit.divergent: // divergent exit of the branch in ^body
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  ^exit.uniform(%acc: i32): // %acc uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @constant_phi_at_cycle_exit {
^entry(%out: !kernel.ptr<global, i32>):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %tid = kernel.workitem_id x : i32
  cf.br ^loop(%zero : i32)
^loop(%ctr: i32):
  %cond.exit = arith.cmpi slt, %ctr, %one : i32
  cf.cond_br %cond.exit, ^body, ^exit(%zero : i32)
^body:
  %c = arith.cmpi eq, %tid, %zero : i32
  cf.cond_br %c, ^exit(%one : i32), ^loop(%one : i32)
^exit(%exit.phi: i32):
  kernel.store %exit.phi, %out, %zero : !kernel.ptr<global, i32>, i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @constant_phi_at_cycle_exit:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^loop) ^body
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^loop) ^body
// CHECK-LABEL: kernel.func @constant_phi_at_cycle_exit {
// CHECK-NEXT:  ^entry(%out: !kernel.ptr<global, i32>): // %out uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  cf.br ^loop(%zero : i32)
// CHECK-NEXT:  ^loop(%ctr: i32): // %ctr uniform
// CHECK-NEXT:  %cond.exit = arith.cmpi slt, %ctr, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %cond.exit, ^body, ^exit(%zero : i32) // uniform branch
// CHECK-NEXT:  ^body:
// CHECK-NEXT:  %c = arith.cmpi eq, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %c, ^exit(%one : i32), ^loop(%one : i32) // divergent branch; divergent exits: ^exit
// CHECK-NEXT:  ^exit(%exit.phi: i32): // %exit.phi divergent; divergent exit of the branch in ^body
// CHECK-NEXT:  kernel.store %exit.phi, %out, %zero : !kernel.ptr<global, i32>, i32
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @heart_region {
^entry(%out: !kernel.ptr<global, i64>, %n: i32):
  %e = conv.entry : !conv.token
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  cf.br ^H(%zero : i32)
^H(%i: i32):
  %h = conv.loop %e : !conv.token
  %i.next = arith.addi %i, %one : i32
  %stop = arith.cmpi sge, %i.next, %tid : i32
  cf.cond_br %stop, ^exit, ^H(%i.next : i32)
^exit:
  %in.region = arith.addi %i.next, %n : i32
  %mask = kernel.ballot %stop, %h : i64
  %after.region = arith.muli %i.next, %n : i32
  kernel.store %mask, %out, %in.region : !kernel.ptr<global, i64>, i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @heart_region:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H)
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^H)
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %i.next used outside cycle depth=1: entries(^H) by: %after.region = arith.muli %i.next, %n : i32
// SUM-NEXT:  //     %mask used outside cycle depth=1: entries(^H) by: kernel.store %mask, %out, %in.region : !kernel.ptr<global, i64>, i32
// SUM-NEXT:  //     %in.region used outside cycle depth=1: entries(^H) by: kernel.store %mask, %out, %in.region : !kernel.ptr<global, i64>, i32
// CHECK-LABEL: kernel.func @heart_region {
// CHECK-NEXT:  ^entry(%out: !kernel.ptr<global, i64>, %n: i32): // %out uniform, %n uniform
// CHECK-NEXT:  %e = conv.entry : !conv.token
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  cf.br ^H(%zero : i32)
// CHECK-NEXT:  ^H(%i: i32): // %i uniform
// CHECK-NEXT:  %h = conv.loop %e : !conv.token
// CHECK-NEXT:  %i.next = arith.addi %i, %one : i32 // uniform
// CHECK-NEXT:  %stop = arith.cmpi sge, %i.next, %tid : i32 // divergent
// CHECK-NEXT:  cf.cond_br %stop, ^exit, ^H(%i.next : i32) // divergent branch; divergent exits: ^exit
// CHECK-NEXT:  ^exit: // divergent exit of the branch in ^H
// CHECK-NEXT:  %in.region = arith.addi %i.next, %n : i32 // uniform
// CHECK-NEXT:  %mask = kernel.ballot %stop, %h : i64 // uniform
// CHECK-NEXT:  %after.region = arith.muli %i.next, %n : i32 // divergent
// CHECK-NEXT:  kernel.store %mask, %out, %in.region : !kernel.ptr<global, i64>, i32
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @reduce {
^entry(%out: !kernel.ptr<global, i32>):
  %e = conv.entry : !conv.token
  %tid = kernel.workitem_id x : i32
  %sum = kernel.reduce add, %tid, %e : i32
  %max = kernel.reduce max, %tid, %e : i32
  %both = arith.addi %sum, %max : i32
  kernel.store %both, %out, %tid : !kernel.ptr<global, i32>, i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @reduce:
// SUM-NEXT:  //   1 divergent values, 0 divergent branches
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @reduce {
// CHECK-NEXT:  ^entry(%out: !kernel.ptr<global, i32>): // %out uniform
// CHECK-NEXT:  %e = conv.entry : !conv.token
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %sum = kernel.reduce add, %tid, %e : i32 // uniform
// CHECK-NEXT:  %max = kernel.reduce max, %tid, %e : i32 // uniform
// CHECK-NEXT:  %both = arith.addi %sum, %max : i32 // uniform
// CHECK-NEXT:  kernel.store %both, %out, %tid : !kernel.ptr<global, i32>, i32
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
