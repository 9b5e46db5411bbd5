// Rule 2: the cycle of a heart must be reducible (here ^a and ^b are both entered from
// ^entry), whichever entry the cycle analysis calls the header.
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
// RUN: sed 's/%%c, \^a, \^b/%%c, ^b, ^a/' %s > %t.mlir
// RUN: grep -q 'cf.cond_br %%c, ^b, ^a' %t.mlir
// RUN: not %kc %t.mlir --emit=cf-ir 2>&1 | FileCheck %s
kernel.func @k {
^entry(%c: i1, %d: i1, %v: i32):
  %e = conv.entry : !conv.token
  cf.cond_br %c, ^a, ^b
^a:
  %h = conv.loop %e : !conv.token loc("tok.k":11:8)
  %x = kernel.readfirstlane %v, %h : i32
  cf.cond_br %d, ^b, ^exit
^b:
  cf.br ^a
^exit:
  kernel.return
}
// CHECK-NOT: error:
// CHECK:     tok.k:11:8: error: cycle heart must dominate all blocks in the cycle: the cycle is irreducible (entries
// CHECK-NOT: error:
