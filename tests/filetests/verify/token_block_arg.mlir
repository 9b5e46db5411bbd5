kernel.func @k {
^entry(%c: i1):
  %e = conv.entry : !conv.token
  cf.cond_br %c, ^a(%e : !conv.token), ^b loc("tok.k":1:1)
^a(%t: !conv.token):
  kernel.return
^b:
  kernel.return
}
// Tokens cannot go through block arguments (LLVM: not through phi or select).
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
// CHECK: tok.k:1:1: error: convergence tokens cannot be passed as block arguments
