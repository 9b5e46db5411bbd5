// Rule 1: at most one `conv.entry` per kernel (the second is not also reported as preceded
// by a convergent op).
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
kernel.func @k {
^entry(%v: i32):
  %e = conv.entry : !conv.token loc("tok.k":6:8)
  %f = conv.entry : !conv.token loc("tok.k":7:8)
  %r = kernel.readfirstlane %v, %f : i32
  kernel.return
}
// CHECK-NOT: error:
// CHECK:     tok.k:7:8: error: `conv.entry` may appear only once in a kernel
// CHECK-NOT: error:
