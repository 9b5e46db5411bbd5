kernel.func @k {
^entry(%a: i32, %f: f32):
  %x = arith.addf %a, %a : f32 loc("e.k":1:1)
  %y = arith.cmpi eq, %f, %f : i1 loc("e.k":2:1)
  kernel.return
}
// The verifier collects every error instead of stopping at the first.
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
// CHECK: e.k:1:1: error: `arith.addf`: operands and result must be f32
// CHECK: e.k:2:1: error: `arith.cmpi`: compares two integers of one type into i1
