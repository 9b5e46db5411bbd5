// LLVM 22 unsound, kc divergent (a named case of the differential test, class "join inside
// an irreducible cycle of a branch whose innermost cycle is reducible"; found as kernel c1299
// of KC_DIFF_SEED=0x6b630003). The divergent branch in ^b7 (`tid != n`) sends threads along
// two disjoint paths to ^b3: ^b7 -> ^b1 -> ^b3 passing 0, and ^b7 -> ^b8 -> ^b6 -> ^b3
// (when 0 < n < 6) passing 6. ^b3 lies in the irreducible cycle entered at ^b1 and ^b6, whose
// header does not dominate it, so by LLVM's own rule (an internal diverged entry) the whole
// cycle must be assumed divergent, and %a is 0 in some threads and 6 in others.
// LLVM's cycle tree for this CFG (RUN line 3) nests the branch in the reducible cycle
// entries(b7) b8, inside the irreducible ones. Its join propagation (computeJoinPoints in
// GenericUniformityImpl.h) only keeps going through irreducible cycles when the branch's
// *innermost* cycle is irreducible; for a reducible one, `IrreducibleAncestor` is null and
// it stops at the first single fresh label, before the two paths meet at ^b3. So LLVM finds
// no join, assumes nothing divergent and calls %a uniform. The differential test checks this
// class independently: the join is confirmed by counting vertex-disjoint paths.
// REQUIRES: opt
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=KC
// RUN: %kc %s -O0 --emit=llvm | %opt -passes='print<uniformity>' -disable-output 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LLVM
// RUN: %kc %s -O0 --emit=llvm | %opt -passes='print<cycles>' -disable-output 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CYCLES
kernel.func @reducible_in_irreducible {
^entry(%c: i1, %n: i32, %buf: !kernel.ptr<global, i32>):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %six = arith.constant 6 : i32
  cf.cond_br %c, ^b2, ^b1
^b1:
  cf.br ^b3(%zero : i32)
^b2:
  %q2 = arith.cmpi ne, %tid, %six : i32
  cf.cond_br %q2, ^b5, ^b4
^b3(%a: i32):
  kernel.store %a, %buf, %tid : !kernel.ptr<global, i32>, i32
  cf.br ^b6
^b4:
  kernel.return
^b5:
  cf.cond_br %q2, ^b4, ^b6
^b6:
  %q6 = arith.cmpi slt, %n, %six : i32
  cf.cond_br %q6, ^b3(%six : i32), ^b7
^b7:
  %q7 = arith.cmpi ne, %tid, %n : i32
  cf.cond_br %q7, ^b1, ^b8
^b8:
  %q8 = arith.cmpi sgt, %n, %zero : i32
  cf.cond_br %q8, ^b6, ^b7
}
// KC: cycles assumed divergent:
// KC-NEXT: depth=1: entries(^b6 ^b1) ^b3 ^b7 ^b8
// KC: ^b3(%a: i32): // %a divergent; join of the divergent branch in ^b7

// LLVM-NOT: CYCLES ASSUMED DIVERGENT
// LLVM-NOT: DIVERGENT: {{.*}}%a = phi
// LLVM: {{^}}               %a = phi i32 [ 0, %b1 ], [ 6, %b6 ]
// LLVM: DIVERGENT:   br i1 %q7, label %b1, label %b8

// CYCLES: depth=1: entries(b1 b6) b3 b7 b8
// CYCLES-NEXT: depth=2: entries(b3 b6) b7 b8
// CYCLES-NEXT: depth=3: entries(b6) b7 b8
// CYCLES-NEXT: depth=4: entries(b7) b8
