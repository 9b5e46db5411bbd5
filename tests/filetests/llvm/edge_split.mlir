// A cf.cond_br whose two edges reach one block with different arguments cannot be two phi
// entries for one predecessor: the false edge goes through a forwarding block `<pred>.split`.
// Equal arguments on both edges give two equal phi entries (valid LLVM, no split).
// REQUIRES: opt
// RUN: %kc %s --emit=llvm | FileCheck %s
// RUN: %kc %s --emit=llvm | %opt -passes=verify -disable-output
kernel.func @split {
^entry(%out: !kernel.ptr<global, i32>, %c: i1, %a: i32, %b: i32):
  cf.cond_br %c, ^join(%a : i32), ^join(%b : i32)
^join(%x: i32):
  cf.cond_br %c, ^same(%x : i32), ^same(%x : i32)
^same(%y: i32):
  %zero = arith.constant 0 : i32
  kernel.store %y, %out, %zero : !kernel.ptr<global, i32>, i32
  kernel.return
}
// CHECK:      entry:
// CHECK-NEXT:   br i1 %c, label %join, label %entry.split
// CHECK-NEXT: entry.split:
// CHECK-NEXT:   br label %join
// CHECK-NEXT: join:
// CHECK-NEXT:   %x = phi i32 [ %a, %entry ], [ %b, %entry.split ]
// CHECK-NEXT:   br i1 %c, label %same, label %same
// CHECK-NEXT: same:
// CHECK-NEXT:   %y = phi i32 [ %x, %join ], [ %x, %join ]
