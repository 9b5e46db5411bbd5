// Rule 7: convergence regions nest. Using %a ends the region of %b, defined inside it; a
// later use of %b is an error, in one block and after a join where one path used %a.
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
kernel.func @straight {
^entry(%v: i32):
  %a = conv.anchor : !conv.token
  %b = conv.anchor : !conv.token
  %x = kernel.readfirstlane %v, %a : i32
  %y = kernel.readfirstlane %v, %b : i32 loc("tok.k":9:8)
  kernel.return
}
kernel.func @join {
^entry(%c: i1, %v: i32):
  %a = conv.anchor : !conv.token
  %b = conv.anchor : !conv.token
  cf.cond_br %c, ^l, ^r
^l:
  %x = kernel.readfirstlane %v, %a : i32
  cf.br ^j
^r:
  cf.br ^j
^j:
  %y = kernel.readfirstlane %v, %b : i32 loc("tok.k":23:8)
  kernel.return
}
// CHECK-NOT: error:
// CHECK:     tok.k:9:8: error: convergence region of %b is not well-nested: `kernel.readfirstlane` uses it where it is no longer live
// CHECK-NOT: error:
// CHECK:     tok.k:23:8: error: convergence region of %b is not well-nested
// CHECK-NOT: error:
