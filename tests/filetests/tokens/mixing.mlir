// Rule 6: a kernel that uses tokens cannot also have uncontrolled convergent ops.
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
kernel.func @k {
^entry(%c: i1, %v: i32):
  %e = conv.entry : !conv.token
  %x = kernel.readfirstlane %v, %e : i32
  cf.cond_br %c, ^a, ^b
^a:
  %y = kernel.ballot %c : i64 loc("tok.k":9:8)
  cf.br ^b
^b:
  kernel.return
}
// CHECK-NOT: error:
// CHECK:     tok.k:9:8: error: cannot mix controlled and uncontrolled convergent operations: `kernel.ballot` has no convergence token, but the kernel uses tokens
// CHECK-NOT: error:
