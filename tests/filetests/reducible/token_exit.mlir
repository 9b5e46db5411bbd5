// unify-loop-exits cannot carry a convergence token through an exit guard (tokens are never
// block arguments): here the anchor %t, defined in ^body, which does not dominate the exit
// from ^h, is used after the loop. The loop keeps its two exits and the stage reports it.
// RUN: not %kc %s --emit=reducible 2>&1 | FileCheck %s
kernel.func @token_exit {
^entry(%c: i1, %x: i32):
  %e = conv.entry : !conv.token
  cf.br [^h]
^h:
  %heart = conv.loop %e : !conv.token
  cf.cond_br %c, [^body, ^out1]
^body:
  %t = conv.anchor : !conv.token
  cf.cond_br %c, [^out2, ^h]
^out1:
  kernel.return
^out2:
  %r = kernel.readfirstlane %x, %t : i32
  kernel.return
}
// CHECK: error: make-structurizable: kernel @token_exit: the loop with header ^h still has 2 exit block(s)
