// Rule 2: a cycle has at most one heart (a closed path without a token's definition holds at
// most one use of it). Two hearts can only share the header, so rule 3 fires as well.
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
kernel.func @k {
^entry(%c: i1, %v: i32):
  %e = conv.entry : !conv.token
  cf.br ^header
^header:
  %h1 = conv.loop %e : !conv.token
  %h2 = conv.loop %e : !conv.token loc("tok.k":10:8)
  %x = kernel.readfirstlane %v, %h2 : i32
  cf.cond_br %c, ^header, ^exit
^exit:
  kernel.return
}
// CHECK-NOT: error:
// CHECK:     tok.k:10:8: error: `conv.loop` must come before every other convergent op of its block (`conv.loop` precedes it)
// CHECK:     tok.k:10:8: error: two static convergence token uses in a cycle that does not contain either token's definition (cycle with header ^header)
// CHECK-NOT: error:
