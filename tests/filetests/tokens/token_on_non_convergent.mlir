// Rule 5: only convergent ops take tokens (checked by the IR verifier at every stage). Tokens
// cannot go through a select (nor, see verify/token_block_arg.mlir, a block argument).
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
kernel.func @k {
^entry(%c: i1, %v: i32):
  %a = conv.anchor : !conv.token
  %b = conv.anchor : !conv.token
  %t = arith.select %c, %a, %b : !conv.token loc("tok.k":8:8)
  kernel.return
}
// CHECK-NOT: error:
// CHECK:     tok.k:8:8: error: `arith.select` cannot take a convergence token as operand #1
// CHECK:     tok.k:8:8: error: `arith.select` cannot take a convergence token as operand #2
// CHECK-NOT: error:
