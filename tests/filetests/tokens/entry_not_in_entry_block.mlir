// Rule 1: `conv.entry` belongs to the kernel's entry block.
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
kernel.func @k {
^entry(%c: i1, %v: i32):
  cf.cond_br %c, ^a, ^b
^a:
  %e = conv.entry : !conv.token loc("tok.k":7:8)
  %r = kernel.readfirstlane %v, %e : i32
  cf.br ^b
^b:
  kernel.return
}
// CHECK-NOT: error:
// CHECK:     tok.k:7:8: error: `conv.entry` must be in the kernel's entry block
// CHECK:     >> %e = conv.entry : !conv.token
// CHECK-NOT: error:
