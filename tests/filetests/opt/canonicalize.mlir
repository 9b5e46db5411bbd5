// canonicalize alone (--passes): constants fold with the reference interpreter's semantics,
// identities give an operand, unsigned % and / by 2^k become and/shift, a branch on a
// constant becomes a jump. The folded ops are gone; their now-unread operands stay for dce.
// RUN: %kc %s --passes=canonicalize | FileCheck %s
// RUN: %kc %s --passes=canonicalize,dce | FileCheck %s --check-prefix=DCE
// CHECK-LABEL: kernel.func @fold
// CHECK: %a = arith.constant 42 : i32
// CHECK-NOT: arith.muli %0, %1
// CHECK: kernel.store %{{[0-9]+}}, %out, %t
// 'n * 1 + (n - n)' is n.
// CHECK: kernel.store %n, %out,
// CHECK: [[M:%[0-9]+]] = arith.constant 7 : i32
// CHECK-NEXT: [[R:%[0-9]+]] = arith.andi %u, [[M]] : i32
// CHECK-NEXT: kernel.store [[R]], %out,
// CHECK: [[K:%[0-9]+]] = arith.constant 4 : i32
// CHECK-NEXT: [[Q:%[0-9]+]] = arith.shrui %u, [[K]] : i32
// CHECK-NEXT: kernel.store [[Q]], %out,
// select(c, n, n) is n.
// CHECK: kernel.store %n, %out,
// CHECK: cf.br ^else
// CHECK-NOT: cf.cond_br
// CHECK: arith.constant -1 : i32
// The input's `^then` is still there (unreachable): dce removes it, with the dead values.
// DCE-NOT: ^then
// DCE-NOT: %dead
// DCE-NOT: arith.constant 6 : i32
// DCE: cf.br ^else
// DCE: ^else:
module {
  kernel.func @fold {
  ^entry(%out: !kernel.ptr<global, i32>, %n: i32, %u: i32):
    %entry = conv.entry : !conv.token
    %t = kernel.workitem_id x : i32
    %0 = arith.constant 6 : i32
    %1 = arith.constant 7 : i32
    %a = arith.muli %0, %1 : i32
    %2 = arith.constant 0 : i32
    %3 = arith.addi %a, %2 : i32
    kernel.store %3, %out, %t : !kernel.ptr<global, i32>, i32
    %4 = arith.constant 1 : i32
    %5 = arith.addi %t, %4 : i32
    %6 = arith.constant 1 : i32
    %7 = arith.muli %n, %6 : i32
    %8 = arith.subi %n, %n : i32
    %9 = arith.addi %7, %8 : i32
    kernel.store %9, %out, %5 : !kernel.ptr<global, i32>, i32
    %10 = arith.constant 2 : i32
    %11 = arith.addi %t, %10 : i32
    %12 = arith.constant 8 : i32
    %13 = arith.remui %u, %12 : i32
    kernel.store %13, %out, %11 : !kernel.ptr<global, i32>, i32
    %14 = arith.constant 3 : i32
    %15 = arith.addi %t, %14 : i32
    %16 = arith.constant 16 : i32
    %17 = arith.divui %u, %16 : i32
    kernel.store %17, %out, %15 : !kernel.ptr<global, i32>, i32
    %18 = arith.constant 4 : i32
    %19 = arith.addi %t, %18 : i32
    %20 = arith.cmpi slt, %t, %n : i32
    %21 = arith.select %20, %n, %n : i32
    kernel.store %21, %out, %19 : !kernel.ptr<global, i32>, i32
    %22 = arith.constant 3 : i32
    %23 = arith.constant 4 : i32
    %24 = arith.cmpi sgt, %22, %23 : i32
    cf.cond_br %24, ^then, ^else
  ^then:
    %25 = arith.constant 5 : i32
    %26 = arith.addi %t, %25 : i32
    %27 = arith.constant 1 : i32
    kernel.store %27, %out, %26 : !kernel.ptr<global, i32>, i32
    cf.br ^endif
  ^else:
    %28 = arith.constant 6 : i32
    %29 = arith.addi %t, %28 : i32
    %30 = arith.constant 0 : i32
    %31 = arith.constant 1 : i32
    %32 = arith.subi %30, %31 : i32
    %33 = arith.muli %32, %n : i32
    kernel.store %33, %out, %29 : !kernel.ptr<global, i32>, i32
    cf.br ^endif
  ^endif:
    %34 = arith.constant 12345 : i32
    %dead = arith.muli %n, %34 : i32
    kernel.return
  }
}
