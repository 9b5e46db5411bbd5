kernel.func @k {
^entry(%a: i32):
  cf.br ^next loc("s.k":1:1)
^next(%x: i32):
  kernel.return
}
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
// CHECK: s.k:1:1: error: successor #0 of `cf.br` passes 0 arguments, the block takes 1
