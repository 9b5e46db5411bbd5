// An irreducible CFG given as IR: make-structurizable adds a guard header, then the backend
// lowers the (now natural) loop; the listing assembles.
// RUN: %kc %s -S -o %t.s && FileCheck %s < %t.s
// RUN: %llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.o
// CHECK: s_and_saveexec_b64
// CHECK: s_cbranch_execnz
// CHECK: s_endpgm
module {
  kernel.func @irr {
  ^entry(%out: !kernel.ptr<global, i32>, %n: i32):
    %tid = kernel.workitem_id x : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %odd = arith.andi %tid, %c1 : i32
    %p = arith.cmpi eq, %odd, %c0 : i32
    cf.cond_br %p, ^a(%c0 : i32), ^b(%c0 : i32)
  ^a(%i: i32):
    %i1 = arith.addi %i, %c1 : i32
    %ta = arith.cmpi slt, %i1, %tid : i32
    cf.cond_br %ta, ^b(%i1 : i32), ^exit(%i1 : i32)
  ^b(%j: i32):
    %j1 = arith.addi %j, %c1 : i32
    %tb = arith.cmpi slt, %j1, %tid : i32
    cf.cond_br %tb, ^a(%j1 : i32), ^exit(%j1 : i32)
  ^exit(%r: i32):
    kernel.store %r, %out, %tid : !kernel.ptr<global, i32>, i32
    kernel.return
  }
}
