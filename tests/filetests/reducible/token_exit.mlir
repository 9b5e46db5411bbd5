// An exit into the live region of a convergence token defined in the loop stays a direct
// exit: here the anchor %t, defined in ^body, is used in ^out2 after the loop. Threads run
// ^out2 in the iteration they leave from, so it is not merged with ^out1 in an exit guard
// (and %t never has to cross one, which a token cannot, not being a block argument). The only
// other exit needs no guard. (The stage reported this loop as not structurizable before.)
// RUN: %kc %s --emit=reducible --no-locs | FileCheck %s --implicit-check-not=loop.exit.guard
kernel.func @token_exit {
^entry(%c: i1, %x: i32):
  %e = conv.entry : !conv.token
  cf.br ^h
^h:
  %heart = conv.loop %e : !conv.token
  cf.cond_br %c, ^body, ^out1
^body:
  %t = conv.anchor : !conv.token
  cf.cond_br %c, ^out2, ^h
^out1:
  kernel.return
^out2:
  %r = kernel.readfirstlane %x, %t : i32
  kernel.return
}
// CHECK: cf.cond_br %c, ^body, ^out1
// CHECK: cf.cond_br %c, ^out2, ^h
