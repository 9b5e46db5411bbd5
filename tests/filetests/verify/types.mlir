kernel.func @k {
^entry(%a: i32, %b: i64):
  %s = arith.addi %a, %b : i32 loc("t.k":2:3)
  kernel.return
}
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
// CHECK: t.k:2:3: error: `arith.addi`: operands and result must be the same integer type
