// if-convert alone: a small divergent if/else (diamond) and if-then (triangle) become
// selects in the branch block, the arms' ops speculated before them; the join, left with
// one predecessor, is merged in. A uniform branch, an arm with a store, and an arm with a
// division by a variable (it could fault) stay branches.
// RUN: %kc %s --passes=if-convert | FileCheck %s
// CHECK-LABEL: kernel.func @diamond
// CHECK: %a = arith.addi %t, %n : i32
// CHECK-NEXT: %b = arith.muli %t, %n : i32
// CHECK-NEXT: %[[S:[a-z0-9_.]+]] = arith.select %c, %a, %b : i32
// CHECK-NEXT: kernel.store %[[S]], %buf, %t
// CHECK-NEXT: kernel.return
// CHECK-LABEL: kernel.func @triangle
// CHECK: %a = arith.addi %t, %n : i32
// CHECK-NEXT: %[[S:[a-z0-9_.]+]] = arith.select %c, %a, %n : i32
// CHECK-NEXT: kernel.store %[[S]], %buf, %t
// CHECK-LABEL: kernel.func @kept
// CHECK: cf.cond_br %u, ^a, ^j1(%n : i32)
// CHECK: cf.cond_br %c, ^s, ^j2(%n : i32)
// CHECK: cf.cond_br %c, ^d, ^j3(%n : i32)
module {
  kernel.func @diamond {
  ^entry(%buf: !kernel.ptr<global, i32>, %n: i32):
    %t = kernel.workitem_id x : i32
    %c = arith.cmpi slt, %t, %n : i32
    cf.cond_br %c, ^then, ^else
  ^then:
    %a = arith.addi %t, %n : i32
    cf.br ^join(%a : i32)
  ^else:
    %b = arith.muli %t, %n : i32
    cf.br ^join(%b : i32)
  ^join(%v: i32):
    kernel.store %v, %buf, %t : !kernel.ptr<global, i32>, i32
    kernel.return
  }
  kernel.func @triangle {
  ^entry(%buf: !kernel.ptr<global, i32>, %n: i32):
    %t = kernel.workitem_id x : i32
    %c = arith.cmpi slt, %t, %n : i32
    cf.cond_br %c, ^then, ^join(%n : i32)
  ^then:
    %a = arith.addi %t, %n : i32
    cf.br ^join(%a : i32)
  ^join(%v: i32):
    kernel.store %v, %buf, %t : !kernel.ptr<global, i32>, i32
    kernel.return
  }
  kernel.func @kept {
  ^entry(%buf: !kernel.ptr<global, i32>, %n: i32, %m: i32):
    %t = kernel.workitem_id x : i32
    %c = arith.cmpi slt, %t, %n : i32
    %u = arith.cmpi slt, %m, %n : i32
    cf.cond_br %u, ^a, ^j1(%n : i32)
  ^a:
    %x = arith.addi %m, %n : i32
    cf.br ^j1(%x : i32)
  ^j1(%v1: i32):
    cf.cond_br %c, ^s, ^j2(%n : i32)
  ^s:
    kernel.store %v1, %buf, %t : !kernel.ptr<global, i32>, i32
    cf.br ^j2(%v1 : i32)
  ^j2(%v2: i32):
    cf.cond_br %c, ^d, ^j3(%n : i32)
  ^d:
    %q = arith.divsi %v2, %t : i32
    cf.br ^j3(%q : i32)
  ^j3(%v3: i32):
    kernel.store %v3, %buf, %t : !kernel.ptr<global, i32>, i32
    kernel.return
  }
}
