// A valid hand-written CF kernel: hearts in the headers of two nested loops, an anchor whose
// region ends inside the outer loop, the entry token used after the loops. It is checked on
// input and again after the (no-op) passes, and printed unchanged.
// RUN: %kc %s --emit=cf-ir --no-locs | FileCheck %s
kernel.func @k {
^entry(%c: i1, %d: i1, %v: i32):
  %e = conv.entry : !conv.token
  cf.br ^outer
^outer:
  %h1 = conv.loop %e : !conv.token
  %a = conv.anchor : !conv.token
  %x = kernel.readfirstlane %v, %a : i32
  cf.br ^inner
^inner:
  %h2 = conv.loop %h1 : !conv.token
  %y = kernel.shuffle %v, %x, %h2 : i32
  cf.cond_br %c, ^inner, ^latch
^latch:
  %b = kernel.ballot %d, %h1 : i64
  cf.cond_br %d, ^outer, ^exit
^exit:
  kernel.barrier(%e)
  kernel.return
}
// CHECK:      ^outer:
// CHECK-NEXT:   %h1 = conv.loop %e : !conv.token
// CHECK:      ^inner:
// CHECK-NEXT:   %h2 = conv.loop %h1 : !conv.token
// CHECK:        kernel.barrier(%e)
