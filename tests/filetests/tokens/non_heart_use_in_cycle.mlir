// Rule 2: only a `conv.loop` may use, inside a cycle, a token defined outside it; any other
// use would be convergent across iterations.
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
kernel.func @k {
^entry(%c: i1, %v: i32):
  %e = conv.entry : !conv.token
  %a = conv.anchor : !conv.token
  cf.br ^loop
^loop:
  %x = kernel.readfirstlane %v, %a : i32 loc("tok.k":10:8)
  cf.cond_br %c, ^loop, ^exit
^exit:
  kernel.barrier(%e)
  kernel.return
}
// CHECK-NOT: error:
// CHECK:     tok.k:10:8: error: convergence token %a used by `kernel.readfirstlane`, not a `conv.loop`, in a cycle that does not contain the token's definition (cycle with header ^loop)
// CHECK-NOT: error:
