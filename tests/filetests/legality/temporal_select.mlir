// LLVM pain point (peers.md section 2, items 5-6 and 13): a value that is uniform inside a
// loop with a divergent exit is not uniform after it: threads leave in different
// iterations and read the value of their own last one (temporal divergence). SIFoldOperands
// and machine sinking miscompiled by trusting the in-loop verdict (PR #203256, PR #67033).
// Here %c is uniform in the loop and the condition of a select of two readlanes after it.
// canonicalize's select-of-ops fold asks legality with the use (Uniformity::
// is_divergent_use), so after the divergent exit it keeps the two readlanes; after a
// uniform exit it makes one readlane of a select.
// RUN: %kc %s --passes=canonicalize | FileCheck %s
// CHECK-LABEL: kernel.func @divergent_exit
// CHECK: ^exit:
// CHECK-NEXT: %r1 = kernel.readlane %t, %one, %e : i32
// CHECK-NEXT: %r2 = kernel.readlane %t, %two, %e : i32
// CHECK-NEXT: %v = arith.select %c, %r1, %r2 : i32
// CHECK-LABEL: kernel.func @uniform_exit
// CHECK: ^exit:
// CHECK-NEXT: %[[L:[a-z0-9_.]+]] = arith.select %c, %one, %two : i32
// CHECK-NEXT: %v = kernel.readlane %t, %[[L]], %e : i32
module {
  kernel.func @divergent_exit {
  ^entry(%buf: !kernel.ptr<global, i32>, %n: i32):
    %e = conv.entry : !conv.token
    %t = kernel.workitem_id x : i32
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %three = arith.constant 3 : i32
    cf.br ^header(%zero : i32)
  ^header(%i: i32):
    %h = conv.loop %e : !conv.token
    %c = arith.cmpi sgt, %i, %three : i32
    %next = arith.addi %i, %one : i32
    %stop = arith.cmpi sge, %i, %t : i32
    cf.cond_br %stop, ^exit, ^header(%next : i32)
  ^exit:
    %r1 = kernel.readlane %t, %one, %e : i32
    %r2 = kernel.readlane %t, %two, %e : i32
    %v = arith.select %c, %r1, %r2 : i32
    kernel.store %v, %buf, %t : !kernel.ptr<global, i32>, i32
    kernel.return
  }
  kernel.func @uniform_exit {
  ^entry(%buf: !kernel.ptr<global, i32>, %n: i32):
    %e = conv.entry : !conv.token
    %t = kernel.workitem_id x : i32
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %three = arith.constant 3 : i32
    cf.br ^header(%zero : i32)
  ^header(%i: i32):
    %h = conv.loop %e : !conv.token
    %c = arith.cmpi sgt, %i, %three : i32
    %next = arith.addi %i, %one : i32
    %stop = arith.cmpi sge, %i, %n : i32
    cf.cond_br %stop, ^exit, ^header(%next : i32)
  ^exit:
    %r1 = kernel.readlane %t, %one, %e : i32
    %r2 = kernel.readlane %t, %two, %e : i32
    %v = arith.select %c, %r1, %r2 : i32
    kernel.store %v, %buf, %t : !kernel.ptr<global, i32>, i32
    kernel.return
  }
}
