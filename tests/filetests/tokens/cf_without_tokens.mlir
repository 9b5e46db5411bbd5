// A CF kernel without tokens is uncontrolled: insert-tokens leaves it alone (tokens on its
// entry block only would mix controlled and uncontrolled ops) and the token rules accept it.
// RUN: %kc %s --emit=cf-ir --no-locs | FileCheck %s
kernel.func @k {
^entry(%c: i1, %v: i32):
  %a = kernel.readfirstlane %v : i32
  cf.cond_br %c, ^l, ^r
^l:
  %b = kernel.readfirstlane %v : i32
  cf.br ^r
^r:
  kernel.return
}
// CHECK-NOT: conv.
// CHECK:     %a = kernel.readfirstlane %v : i32
// CHECK:     %b = kernel.readfirstlane %v : i32
// CHECK-NOT: conv.
