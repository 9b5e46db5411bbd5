kernel.func @k {
^entry(%a: i32, %b: i64):
  %s = "arith.addi"(%a, %b) : (i32, i64) -> i32 loc("t.k":2:3)
  kernel.return
}
// In the generic form the verifier sees the ill-typed op; in the custom form, whose one type
// stands for every operand, the parser rejects it at the operand.
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
// CHECK: t.k:2:3: error: `arith.addi`: operands and result must be the same integer type
// RUN: sed 's/"arith.addi"(%%a, %%b) : (i32, i64) -> i32/arith.addi %%a, %%b : i32/' %s > %t.mlir
// RUN: not %kc %t.mlir --emit=cf-ir 2>&1 | FileCheck %s --check-prefix=CUSTOM
// CUSTOM: error: `%b` has type i64 but is used as i32
// CUSTOM: types.mlir.tmp.mlir:3:23
