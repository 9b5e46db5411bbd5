kernel.func @k {
^entry:
  %x = arith.addi %nope, %nope : i32
  kernel.return
}
// RUN: not %kc %s 2>&1 | FileCheck %s
// CHECK: error: {{.*}}undefined value `%nope`
