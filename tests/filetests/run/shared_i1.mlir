// An i1 shared array takes a dword per element in LDS (the backend loads and stores it as one):
// before `%val`, it must not be sized 0 bytes (the arrays would overlap) nor be indexed with a
// 0-byte stride. Lane t reads flag and value of lane 63 - t: the simulator matches the
// reference interpreter and the values below (odd lanes' flags are set, the value is 10 * lane).
// RUN: %kc run %s --args %S/Inputs/shared_i1.args.json | FileCheck %s
// RUN: %kc run %s --args %S/Inputs/shared_i1.args.json --engine ref | FileCheck %s
// CHECK: "out": {"type": "i32", "data": [630, -1, 610, -1, 590, -1, 570, -1, 550, -1, 530, -1, 510, -1, 490, -1, 470, -1, 450, -1, 430, -1, 410, -1, 390, -1, 370, -1, 350, -1, 330, -1, 310, -1, 290, -1, 270, -1, 250, -1, 230, -1, 210, -1, 190, -1, 170, -1, 150, -1, 130, -1, 110, -1, 90, -1, 70, -1, 50, -1, 30, -1, 10, -1]}
// RUN: %kc %s -S | FileCheck %s --check-prefix=LDS
// LDS: .amdhsa_group_segment_fixed_size 512
kernel.func @flags {
^entry(%out: !kernel.ptr<global, i32>):
  %flag = kernel.shared_alloc 64 : !kernel.ptr<shared, i1>
  %val = kernel.shared_alloc 64 : !kernel.ptr<shared, i32>
  %tid = kernel.workitem_id x : i32
  %one = arith.constant 1 : i32
  %ten = arith.constant 10 : i32
  %last = arith.constant 63 : i32
  %low = arith.andi %tid, %one : i32
  %odd = arith.cmpi eq, %low, %one : i32
  %v = arith.muli %tid, %ten : i32
  kernel.store %odd, %flag, %tid : !kernel.ptr<shared, i1>, i32
  kernel.store %v, %val, %tid : !kernel.ptr<shared, i32>, i32
  kernel.barrier
  %j = arith.subi %last, %tid : i32
  %f = kernel.load %flag, %j : !kernel.ptr<shared, i1>, i32
  %w = kernel.load %val, %j : !kernel.ptr<shared, i32>, i32
  %neg = arith.constant -1 : i32
  %r = arith.select %f, %w, %neg : i32
  kernel.store %r, %out, %tid : !kernel.ptr<global, i32>, i32
  kernel.return
}
