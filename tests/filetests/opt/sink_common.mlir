// sink-common alone: the two stores that end the arms of an if/else (same buffer, same
// index, different values) become one store in the join of a new block argument; the
// address computations before them, equal in both arms, follow. A load before the store
// in one arm only stops the walk (the last ops differ). A join that is a loop header is left
// alone.
// RUN: %kc %s --passes=sink-common | FileCheck %s
// CHECK-LABEL: kernel.func @stores
// CHECK: ^then:
// CHECK-NEXT: cf.br ^join(%one : i32)
// CHECK: ^else:
// CHECK-NEXT: cf.br ^join(%two : i32)
// CHECK: ^join(%[[V:[a-z0-9_.]+]]: i32):
// CHECK-NEXT: %i1 = arith.addi %t, %n : i32
// CHECK-NEXT: kernel.store %[[V]], %buf, %i1
// CHECK-NEXT: kernel.return
// CHECK-LABEL: kernel.func @partial
// CHECK: ^then:
// CHECK-NEXT: %l = kernel.load %buf, %t : !kernel.ptr<global, i32>, i32
// CHECK-NEXT: cf.br ^join(%l : i32)
// CHECK: ^else:
// CHECK-NEXT: cf.br ^join(%two : i32)
// CHECK: ^join(%[[W:[a-z0-9_.]+]]: i32):
// CHECK-NEXT: kernel.store %[[W]], %buf, %t
module {
  kernel.func @stores {
  ^entry(%buf: !kernel.ptr<global, i32>, %n: i32):
    %t = kernel.workitem_id x : i32
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %c = arith.cmpi slt, %t, %n : i32
    cf.cond_br %c, ^then, ^else
  ^then:
    %i1 = arith.addi %t, %n : i32
    kernel.store %one, %buf, %i1 : !kernel.ptr<global, i32>, i32
    cf.br ^join
  ^else:
    %i2 = arith.addi %t, %n : i32
    kernel.store %two, %buf, %i2 : !kernel.ptr<global, i32>, i32
    cf.br ^join
  ^join:
    kernel.return
  }
  kernel.func @partial {
  ^entry(%buf: !kernel.ptr<global, i32>, %n: i32):
    %t = kernel.workitem_id x : i32
    %two = arith.constant 2 : i32
    %c = arith.cmpi slt, %t, %n : i32
    cf.cond_br %c, ^then, ^else
  ^then:
    %l = kernel.load %buf, %t : !kernel.ptr<global, i32>, i32
    kernel.store %l, %buf, %t : !kernel.ptr<global, i32>, i32
    cf.br ^join
  ^else:
    kernel.store %two, %buf, %t : !kernel.ptr<global, i32>, i32
    cf.br ^join
  ^join:
    kernel.return
  }
}
