// kc starts from IR at any stage: structured kernel IR read from a file is lowered to cf.
// RUN: %kc %s --emit=cf-ir --no-locs | FileCheck %s
kernel.func @k {
^entry(%out: !kernel.ptr<global, i32>, %c: i1):
  %zero = arith.constant 0 : i32
  %x = kernel.var %zero : !kernel.var<i32>
  kernel.if %c {
    %one = arith.constant 1 : i32
    kernel.set %x, %one : i32
    kernel.yield
  } else {
    kernel.yield
  }
  %v = kernel.get %x : i32
  kernel.store %v, %out, %zero : !kernel.ptr<global, i32>, i32
  kernel.return
}
// CHECK: %entry = conv.entry
// CHECK: cf.cond_br %c, ^then, ^endif(%zero : i32)
// CHECK: ^endif(%x: i32):
// CHECK: kernel.store %x, %out, %zero : !kernel.ptr<global, i32>, i32
