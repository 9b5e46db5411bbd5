kernel.func @k {
^entry(%c: i1):
  cf.cond_br %c, ^a, ^b
^a:
  %x = arith.constant 1 : i32 loc("dom.k":3:7)
  kernel.return
^b:
  %y = arith.addi %x, %x : i32 loc("dom.k":5:9)
  kernel.return
}
// A use not dominated by its definition is reported at the use, with the op in context.
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
// CHECK: dom.k:5:9: error: operand %x of `arith.addi` does not dominate this use
// CHECK: >> %y = arith.addi %x, %x : i32
