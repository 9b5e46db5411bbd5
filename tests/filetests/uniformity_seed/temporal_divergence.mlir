// "Convergence And Uniformity", Divergent Cycle Exits: "Nodes along the diverged path that
// lie outside the cycle experience temporal divergence, when two threads executing
// convergently inside the cycle produce uniform values, but exit the cycle along the same
// divergent path after executing the header a different number of times".
//
// @divergent_exit: a counting loop H <-> L left on a thread-dependent condition. Inside the
// loop the counter %i and %i.next are uniform (threads are converged on each iteration);
// after the loop, the exit block argument %last and every use of %i.next are divergent
// (each thread saw its own last iteration); a value defined before the loop stays uniform.
//
// @uniform_exit: the same loop left on a uniform condition: threads leave together, the same
// uses are uniform.
//
// @nested_inner_exit: the divergent loop is nested in a loop with a uniform exit. A use of
// the inner counter in the outer loop but after the inner loop is temporally divergent.
// The outer counter, its uses and the outer exit stay uniform: the threads that left the
// inner loop on different iterations are converged again at the outer latch (outside the
// inner loop, in the same outer iteration) and at the outer header.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @divergent_exit {
^entry(%out: !kernel.ptr<global, i32>, %n: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %before = arith.addi %n, %one : i32
  cf.br ^H(%zero : i32)
^H(%i: i32):
  %i.next = arith.addi %i, %one : i32
  cf.br ^L
^L:
  %stop = arith.cmpi sge, %i.next, %tid : i32
  cf.cond_br %stop, ^exit(%i.next : i32), ^H(%i.next : i32)
^exit(%last: i32):
  %use = arith.muli %i.next, %n : i32
  %use.before = arith.muli %before, %n : i32
  kernel.store %last, %out, %zero : !kernel.ptr<global, i32>, i32
  kernel.return
}
// SUM-LABEL: // uniformity of @divergent_exit:
// SUM-NEXT:  //   4 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H) ^L
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^H) ^L
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %i.next used outside cycle depth=1: entries(^H) ^L by: %use = arith.muli %i.next, %n : i32
// CHECK-LABEL: kernel.func @divergent_exit {
// CHECK-NEXT:  ^entry(%out: !kernel.ptr<global, i32>, %n: i32): // %out uniform, %n uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %before = arith.addi %n, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^H(%zero : i32)
// CHECK-NEXT:  ^H(%i: i32): // %i uniform
// CHECK-NEXT:  %i.next = arith.addi %i, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^L
// CHECK-NEXT:  ^L:
// CHECK-NEXT:  %stop = arith.cmpi sge, %i.next, %tid : i32 // divergent
// CHECK-NEXT:  cf.cond_br %stop, ^exit(%i.next : i32), ^H(%i.next : i32) // divergent branch; divergent exits: ^exit
// CHECK-NEXT:  ^exit(%last: i32): // %last divergent; divergent exit of the branch in ^L
// CHECK-NEXT:  %use = arith.muli %i.next, %n : i32 // divergent
// CHECK-NEXT:  %use.before = arith.muli %before, %n : i32 // uniform
// CHECK-NEXT:  kernel.store %last, %out, %zero : !kernel.ptr<global, i32>, i32
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @uniform_exit {
^entry(%out: !kernel.ptr<global, i32>, %n: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %before = arith.addi %n, %one : i32
  cf.br ^H(%zero : i32)
^H(%i: i32):
  %i.next = arith.addi %i, %one : i32
  cf.br ^L
^L:
  %stop = arith.cmpi sge, %i.next, %n : i32
  cf.cond_br %stop, ^exit(%i.next : i32), ^H(%i.next : i32)
^exit(%last: i32):
  %use = arith.muli %i.next, %n : i32
  %use.before = arith.muli %before, %n : i32
  kernel.store %last, %out, %tid : !kernel.ptr<global, i32>, i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @uniform_exit:
// SUM-NEXT:  //   1 divergent values, 0 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H) ^L
// CHECK-LABEL: kernel.func @uniform_exit {
// CHECK-NEXT:  ^entry(%out: !kernel.ptr<global, i32>, %n: i32): // %out uniform, %n uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %before = arith.addi %n, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^H(%zero : i32)
// CHECK-NEXT:  ^H(%i: i32): // %i uniform
// CHECK-NEXT:  %i.next = arith.addi %i, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^L
// CHECK-NEXT:  ^L:
// CHECK-NEXT:  %stop = arith.cmpi sge, %i.next, %n : i32 // uniform
// CHECK-NEXT:  cf.cond_br %stop, ^exit(%i.next : i32), ^H(%i.next : i32) // uniform branch
// CHECK-NEXT:  ^exit(%last: i32): // %last uniform
// CHECK-NEXT:  %use = arith.muli %i.next, %n : i32 // uniform
// CHECK-NEXT:  %use.before = arith.muli %before, %n : i32 // uniform
// CHECK-NEXT:  kernel.store %last, %out, %tid : !kernel.ptr<global, i32>, i32
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @nested_inner_exit {
^entry(%out: !kernel.ptr<global, i32>, %n: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  cf.br ^outer(%zero : i32)
^outer(%o: i32):
  %o.next = arith.addi %o, %one : i32
  cf.br ^inner(%zero : i32)
^inner(%i: i32):
  %i.next = arith.addi %i, %one : i32
  %stop = arith.cmpi sge, %i.next, %tid : i32
  cf.cond_br %stop, ^latch, ^inner(%i.next : i32)
^latch:
  %use.inner = arith.addi %i.next, %o : i32
  %use.outer = arith.addi %o.next, %o : i32
  %done = arith.cmpi sge, %o.next, %n : i32
  cf.cond_br %done, ^exit, ^outer(%o.next : i32)
^exit:
  kernel.store %use.outer, %out, %zero : !kernel.ptr<global, i32>, i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @nested_inner_exit:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^outer) ^inner ^latch
// SUM-NEXT:  //     depth=2: entries(^inner)
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=2: entries(^inner)
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %i.next used outside cycle depth=2: entries(^inner) by: %use.inner = arith.addi %i.next, %o : i32
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @nested_inner_exit {
// CHECK-NEXT:  ^entry(%out: !kernel.ptr<global, i32>, %n: i32): // %out uniform, %n uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  cf.br ^outer(%zero : i32)
// CHECK-NEXT:  ^outer(%o: i32): // %o uniform
// CHECK-NEXT:  %o.next = arith.addi %o, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^inner(%zero : i32)
// CHECK-NEXT:  ^inner(%i: i32): // %i uniform
// CHECK-NEXT:  %i.next = arith.addi %i, %one : i32 // uniform
// CHECK-NEXT:  %stop = arith.cmpi sge, %i.next, %tid : i32 // divergent
// CHECK-NEXT:  cf.cond_br %stop, ^latch, ^inner(%i.next : i32) // divergent branch; divergent exits: ^latch
// CHECK-NEXT:  ^latch: // divergent exit of the branch in ^inner
// CHECK-NEXT:  %use.inner = arith.addi %i.next, %o : i32 // divergent
// CHECK-NEXT:  %use.outer = arith.addi %o.next, %o : i32 // uniform
// CHECK-NEXT:  %done = arith.cmpi sge, %o.next, %n : i32 // uniform
// CHECK-NEXT:  cf.cond_br %done, ^exit, ^outer(%o.next : i32) // uniform branch
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  kernel.store %use.outer, %out, %zero : !kernel.ptr<global, i32>, i32
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
