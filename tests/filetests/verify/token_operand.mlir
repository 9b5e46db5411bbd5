kernel.func @k {
^entry(%v: i32):
  %e = conv.anchor : !conv.token
  %x = arith.addi %v, %v : i32
  %r = "kernel.readfirstlane"(%v, %e, %e) : (i32, !conv.token, !conv.token) -> i32 loc("op.k":2:2)
  kernel.return
}
// A convergent op takes its own operands plus at most one trailing token.
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
// CHECK: op.k:2:2: error: `kernel.readfirstlane` cannot take a convergence token as operand #1
// CHECK: op.k:2:2: error: `kernel.readfirstlane` takes 1 operands and an optional convergence token
