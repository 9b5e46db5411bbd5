// fix-irreducible keeps the token rules: anchors and their uses inside an irreducible cycle,
// the entry token used before and after it. No token crosses the guard (tokens are never block
// arguments); the output passes the token verifier (the stage runs it).
// RUN: %kc %s --emit=reducible --no-locs | FileCheck %s
kernel.func @anchor {
^entry(%c: i1, %x: i32, %out: !kernel.ptr<global, i32>):
  %e = conv.entry : !conv.token
  %b0 = kernel.ballot %c, %e : i64
  cf.cond_br %c, ^a(%x : i32), ^b
^a(%i: i32):
  %t = conv.anchor : !conv.token
  %r = kernel.readfirstlane %i, %t : i32
  cf.cond_br %c, ^b, ^exit(%r : i32)
^b:
  %u = conv.anchor : !conv.token
  %s = kernel.readfirstlane %x, %u : i32
  cf.br ^a(%s : i32)
^exit(%v: i32):
  kernel.barrier(%e)
  kernel.store %v, %out, %x : !kernel.ptr<global, i32>, i32
  kernel.return
}
// CHECK:      cf.cond_br %c, ^irr.guard(%c0, %x : i32, i32), ^irr.guard(%c1, %c0 : i32, i32)
// CHECK:      ^irr.guard(%irr.sel: i32, %i.irr: i32):
// CHECK:      ^a(%i: i32):
// CHECK-NEXT:   %t = conv.anchor : !conv.token
// CHECK-NEXT:   %r = kernel.readfirstlane %i, %t : i32
// CHECK:      ^b:
// CHECK-NEXT:   %u = conv.anchor : !conv.token
// CHECK:      ^exit(%v: i32):
// CHECK-NEXT:   kernel.barrier(%e)
