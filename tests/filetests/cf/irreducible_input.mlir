// An irreducible CFG written directly in IR (two entries into the a<->b cycle) verifies and
// passes through the pipeline untouched.
// RUN: %kc %s --emit=cf-ir --no-locs | FileCheck %s
kernel.func @irreducible {
^entry(%c: i1, %d: i1):
  %e = conv.entry : !conv.token
  cf.cond_br %c, ^a, ^b
^a:
  cf.cond_br %d, ^b, ^exit
^b:
  cf.br ^a
^exit:
  kernel.return
}
// CHECK:      cf.cond_br %c, ^a, ^b
// CHECK-NEXT: ^a:
// CHECK-NEXT:   cf.cond_br %d, ^b, ^exit
// CHECK-NEXT: ^b:
// CHECK-NEXT:   cf.br ^a
