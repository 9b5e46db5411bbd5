// Rule 3: `conv.loop` comes before every other convergent op of its block.
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
kernel.func @k {
^entry(%c: i1, %v: i32):
  %e = conv.entry : !conv.token
  cf.br ^header
^header:
  %a = conv.anchor : !conv.token
  %x = kernel.readfirstlane %v, %a : i32
  %h = conv.loop %e : !conv.token loc("tok.k":10:8)
  %y = kernel.readfirstlane %v, %h : i32
  cf.cond_br %c, ^header, ^exit
^exit:
  kernel.return
}
// CHECK-NOT: error:
// CHECK:     tok.k:10:8: error: `conv.loop` must come before every other convergent op of its block (`conv.anchor` precedes it)
// CHECK-NOT: error:
