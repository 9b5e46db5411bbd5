// Rule 4: a token's definition dominates its uses. The IR verifier owns SSA dominance; the
// token verifier runs only on IR that passed it.
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
kernel.func @k {
^entry(%c: i1, %v: i32):
  cf.cond_br %c, ^a, ^b
^a:
  %t = conv.anchor : !conv.token
  cf.br ^b
^b:
  %x = kernel.readfirstlane %v, %t : i32 loc("tok.k":11:8)
  kernel.return
}
// CHECK-NOT: error:
// CHECK:     tok.k:11:8: error: operand %t of `kernel.readfirstlane` does not dominate this use
// CHECK-NOT: error:
