// A constant kernel.readlane lane must be a lane of the wave (0..64): the reference interpreter
// stops at any other, and v_readlane_b32 cannot encode one as an immediate (it was an internal
// error after isel). Lanes 0 and 63 are fine; -1 (spelled unsigned too), 64 and 100 are not.
kernel.func @k {
^entry(%out: !kernel.ptr<global, i32>):
  %t = kernel.workitem_id x : i32
  %l0 = arith.constant 0 : i32
  %l63 = arith.constant 63 : i32
  %lm1 = arith.constant 4294967295 : i32
  %l64 = arith.constant 64 : i32
  %l100 = arith.constant 100 : i32
  %a = kernel.readlane %t, %l0 : i32 loc("t.k":1:1)
  %b = kernel.readlane %t, %l63 : i32 loc("t.k":2:1)
  %c = kernel.readlane %t, %lm1 : i32 loc("t.k":3:1)
  %d = kernel.readlane %t, %l64 : i32 loc("t.k":4:1)
  %e = kernel.readlane %t, %l100 : i32 loc("t.k":5:1)
  kernel.return
}
// RUN: not %kc %s -S 2>&1 | FileCheck %s --implicit-check-not=error:
// CHECK: t.k:3:1: error: `kernel.readlane`: reads lane -1, which is not a lane of the wave (0..64)
// CHECK: t.k:4:1: error: `kernel.readlane`: reads lane 64, which is not a lane of the wave (0..64)
// CHECK: t.k:5:1: error: `kernel.readlane`: reads lane 100, which is not a lane of the wave (0..64)
