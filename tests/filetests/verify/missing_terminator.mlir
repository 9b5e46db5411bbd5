kernel.func @k {
^entry(%a: i32):
  %s = arith.addi %a, %a : i32 loc("m.k":1:1)
}
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
// CHECK: m.k:1:1: error: block does not end in a terminator (last op is `arith.addi`)
