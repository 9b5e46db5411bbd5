kernel.func @k {
^entry(%a: i32, %f: f32):
  %x = "arith.addf"(%a, %a) : (i32, i32) -> f32 loc("e.k":1:1)
  %y = "arith.cmpi"(%f, %f) <{predicate = 0 : i64}> : (f32, f32) -> i1 loc("e.k":2:1)
  kernel.return
}
// The verifier collects every error instead of stopping at the first. (The ill-typed ops are
// in the generic form: the custom form's types are checked as the text is read.)
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
// CHECK: e.k:1:1: error: `arith.addf`: operands and result must be f32
// CHECK: e.k:2:1: error: `arith.cmpi`: compares two integers of one type into i1
