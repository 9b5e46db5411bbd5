// licm alone: pure ops whose operands are all defined before the loop move to the
// preheader, in order (a chain of them too, and out of the nested loop as well). Kept in
// the loop: ops that read the loop's own values, a convergent op (shuffle) even on invariant
// operands, and a division by a value that may be zero (the loop may run zero times).
// RUN: %kc %s --passes=licm | FileCheck %s
// RUN: %kc %s --passes=licm > %t.mlir && %kc %t.mlir -S | %llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null
// CHECK-LABEL: kernel.func @k
// CHECK: ^entry(
// CHECK: %m = arith.muli %n, %n : i32
// CHECK-NEXT: %m2 = arith.addi %m, %n : i32
// CHECK-NEXT: %q = arith.divsi %n, %seven : i32
// CHECK-NEXT: %inner = arith.muli %m2, %m2 : i32
// CHECK-NEXT: cf.br ^header(%zero : i32)
// CHECK: ^header(%i: i32):
// CHECK: ^body:
// CHECK-NEXT: %s = kernel.shuffle %n, %n, %h : i32
// CHECK-NEXT: %d = arith.divsi %n, %v : i32
// CHECK-NEXT: %j = arith.addi %i, %m2 : i32
module {
  kernel.func @k {
  ^entry(%buf: !kernel.ptr<global, i32>, %n: i32, %v: i32):
    %e = conv.entry : !conv.token
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %seven = arith.constant 7 : i32
    cf.br ^header(%zero : i32)
  ^header(%i: i32):
    %h = conv.loop %e : !conv.token
    %c = arith.cmpi slt, %i, %n : i32
    cf.cond_br %c, ^body, ^exit
  ^body:
    %m = arith.muli %n, %n : i32
    %m2 = arith.addi %m, %n : i32
    %s = kernel.shuffle %n, %n, %h : i32
    %d = arith.divsi %n, %v : i32
    %q = arith.divsi %n, %seven : i32
    %j = arith.addi %i, %m2 : i32
    kernel.store %j, %buf, %i : !kernel.ptr<global, i32>, i32
    kernel.store %s, %buf, %d : !kernel.ptr<global, i32>, i32
    kernel.store %q, %buf, %i : !kernel.ptr<global, i32>, i32
    cf.br ^inner_header
  ^inner_header:
    %inner = arith.muli %m2, %m2 : i32
    kernel.store %inner, %buf, %i : !kernel.ptr<global, i32>, i32
    %k = arith.addi %i, %one : i32
    cf.cond_br %c, ^inner_header, ^latch
  ^latch:
    cf.br ^header(%k : i32)
  ^exit:
    kernel.return
  }
}
