// fix-irreducible: the guard of a cycle whose entries take arguments of several types passes
// placeholders in the slots of the entry an edge does not go to: `arith.constant 0` / `false`
// / `0.0` for scalars, for a pointer a kernel parameter of its type or, for a shared pointer,
// the `kernel.shared_alloc` it comes from, moved into the entry block (a static allocation:
// where it runs does not change its address).
// RUN: %kc %s -O0 --emit=reducible --no-locs | FileCheck %s
kernel.func @types {
^entry(%c: i1, %x: i32, %g: !kernel.ptr<global, f32>):
  %f = arith.constant 2.000000e+00 : f32
  cf.br ^pre
^pre:
  %sh = kernel.shared_alloc 4 : !kernel.ptr<shared, i32>
  cf.cond_br %c, ^a(%x, %g, %c : i32, !kernel.ptr<global, f32>, i1), ^b(%f, %sh : f32, !kernel.ptr<shared, i32>)
^a(%i: i32, %p: !kernel.ptr<global, f32>, %q: i1):
  %v = kernel.load %p, %i : !kernel.ptr<global, f32>, i32
  cf.cond_br %q, ^b(%v, %sh : f32, !kernel.ptr<shared, i32>), ^exit
^b(%h: f32, %s: !kernel.ptr<shared, i32>):
  %l = kernel.load %s, %x : !kernel.ptr<shared, i32>, i32
  cf.br ^a(%l, %g, %c : i32, !kernel.ptr<global, f32>, i1)
^exit:
  kernel.return
}
// CHECK-LABEL: kernel.func @types {
// CHECK-NEXT:  ^entry(%c: i1, %x: i32, %g: !kernel.ptr<global, f32>):
// CHECK-NEXT:    %f = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:    %c0 = arith.constant 0 : i32
// CHECK-NEXT:    %false = arith.constant false
// CHECK-NEXT:    %f0 = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %sh = kernel.shared_alloc 4 : !kernel.ptr<shared, i32>
// CHECK-NEXT:    %c1 = arith.constant 1 : i32
// CHECK-NEXT:    cf.br ^pre
// CHECK-NEXT:  ^pre:
// CHECK-NEXT:    cf.cond_br %c, ^irr.guard(%c0, %x, %g, %c, %f0, %sh : i32, i32, !kernel.ptr<global, f32>, i1, f32, !kernel.ptr<shared, i32>), ^irr.guard(%c1, %c0, %g, %false, %f, %sh : i32, i32, !kernel.ptr<global, f32>, i1, f32, !kernel.ptr<shared, i32>)
// CHECK-NEXT:  ^irr.guard(%irr.sel: i32, %i.irr: i32, %p.irr: !kernel.ptr<global, f32>, %q.irr: i1, %h.irr: f32, %s.irr: !kernel.ptr<shared, i32>):
// CHECK-NEXT:    %[[IS_A:.*]] = arith.cmpi eq, %irr.sel, %c0 : i32
// CHECK-NEXT:    cf.cond_br %[[IS_A]], ^a(%i.irr, %p.irr, %q.irr : i32, !kernel.ptr<global, f32>, i1), ^b(%h.irr, %s.irr : f32, !kernel.ptr<shared, i32>)
// CHECK:         cf.cond_br %q, ^irr.guard(%c1, %c0, %g, %false, %v, %sh : i32, i32, !kernel.ptr<global, f32>, i1, f32, !kernel.ptr<shared, i32>), ^exit
// CHECK:         cf.br ^irr.guard(%c0, %l, %g, %c, %f0, %sh : i32, i32, !kernel.ptr<global, f32>, i1, f32, !kernel.ptr<shared, i32>)
