kernel.func @k {
^entry(%a: i64, %b: i64, %c: i32):
  %h = kernel.mulhiu %c, %c : i32 loc("t.k":2:3)
  %x = kernel.mulhiu %a, %b : i64 loc("t.k":3:3)
  kernel.return
}
// kernel.mulhiu (the optimizer's multiply-high, v_mul_hi_u32) is defined on i32 only.
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
// CHECK-NOT: t.k:2:3
// CHECK: t.k:3:3: error: `kernel.mulhiu`: operands and result must be i32
