// readlane's lane index is a uniform operand (registry): the hardware reads it from a scalar
// register. A divergent one is an error at the op, with the --explain chain as notes; a
// uniform one is fine. (Locations as kc prints them for `.k` input; IR without `loc` gets
// the file name only.)
// RUN: not %kc %s -S -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// CHECK: lanes.k:7:10: error: operand 1 of kernel.readlane must be uniform (one value for the whole wave), but it is divergent here
// CHECK: note: lanes.k:2:15: the operand
// CHECK: note: @k %t: divergent
module {
  kernel.func @k {
  ^entry(%buf: !kernel.ptr<global, i32>, %n: i32):
    %e = conv.entry : !conv.token
    %t = kernel.workitem_id x : i32 loc("lanes.k":2:15)
    %one = arith.constant 1 : i32
    %u = arith.addi %n, %one : i32
    %ok = kernel.readlane %t, %u, %e : i32
    kernel.store %ok, %buf, %t : !kernel.ptr<global, i32>, i32
    %bad = kernel.readlane %t, %t, %e : i32 loc("lanes.k":7:10)
    kernel.store %bad, %buf, %t : !kernel.ptr<global, i32>, i32
    kernel.return
  }
}
