// Rule 1: `conv.entry` comes before every other convergent op of the entry block (here an
// anchor, itself convergent).
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
kernel.func @k {
^entry(%v: i32):
  %a = conv.anchor : !conv.token
  %x = kernel.readfirstlane %v, %a : i32
  %e = conv.entry : !conv.token loc("tok.k":8:8)
  kernel.barrier(%e)
  kernel.return
}
// CHECK-NOT: error:
// CHECK:     tok.k:8:8: error: `conv.entry` must come before every other convergent op of the entry block (`conv.anchor` precedes it)
// CHECK-NOT: error:
