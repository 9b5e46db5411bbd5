kernel.func @k {
^entry(%a: i32 loc("x.k":1:10)):
  %b = arith.addi %a, %a : i32 loc("x.k":2:5)
  kernel.return loc("x.k":3:1)
}
// Locations read from IR survive the pipeline and printing in both forms.
// RUN: %kc %s --emit=cf-ir | FileCheck %s
// RUN: %kc %s --emit=cf-ir --generic | FileCheck %s --check-prefix=GEN
// CHECK: ^entry(%a: i32 loc("x.k":1:10)):
// CHECK: %b = arith.addi %a, %a : i32 loc("x.k":2:5)
// GEN: %b = "arith.addi"(%a, %a) : (i32, i32) -> i32 loc("x.k":2:5)
