// Rule 2: a heart (a `conv.loop` whose parent token comes from outside the cycle) must be in
// the header of the cycle, so that it dominates the cycle.
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
kernel.func @k {
^entry(%c: i1, %v: i32):
  %e = conv.entry : !conv.token
  cf.br ^header
^header:
  cf.br ^body
^body:
  %h = conv.loop %e : !conv.token loc("tok.k":11:8)
  %x = kernel.readfirstlane %v, %h : i32
  cf.cond_br %c, ^header, ^exit
^exit:
  kernel.return
}
// CHECK-NOT: error:
// CHECK:     tok.k:11:8: error: cycle heart must dominate all blocks in the cycle: `conv.loop` is in ^body, not in the cycle's header ^header
// CHECK-NOT: error:
