kernel.func @exit_temporal {
^entry(%out: !kernel.ptr<global, i32>, %n: i32):
  %e = conv.entry : !conv.token
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  cf.br ^header(%zero : i32)
^header(%i: i32):
  %i1 = arith.addi %i, %one : i32
  %d = arith.cmpi eq, %i, %tid : i32
  cf.cond_br %d, ^exit(%i1 : i32), ^header(%i1 : i32)
^exit(%r: i32):
  kernel.store %r, %out, %zero : !kernel.ptr<global, i32>, i32
  kernel.return
}
// Temporal divergence through an exit block argument: %i1 is uniform in the loop, but the
// exit's %r receives it on whichever iteration each thread leaves.
// RUN: %kc %s --explain=r | FileCheck %s

// CHECK:      @exit_temporal %r: divergent
// CHECK-NEXT:   @exit_temporal ^exit: %r is divergent: it is a block argument of ^exit that receives %i1, defined in the loop (depth=1: entries(^header)), from the branch in ^header leaving the loop after a divergent exit in ^header; threads leave on different iterations
// CHECK-NEXT:   @exit_temporal ^header: the branch in ^header is divergent: its condition %d (`arith.cmpi eq, %i, %tid : i32`) is divergent
// CHECK-NEXT:   @exit_temporal ^header: %d (`arith.cmpi eq, %i, %tid : i32`) is divergent: it uses %tid defined in ^entry
// CHECK-NEXT:   @exit_temporal ^entry: %tid is a source of divergence
