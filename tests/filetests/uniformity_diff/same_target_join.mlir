// kc bug found by the differential test (tests/uniformity_diff.rs): a divergent `cf.cond_br`
// whose two edges reach the same block with different arguments makes that block a join:
// threads that took the true edge see %a, the others %b, and they are converged in ^join, so
// %x is divergent. kc's CFG has one successor there (edges are deduplicated), so the sync
// dependence found no join and %x was called uniform. LLVM splits the false edge
// (`entry.split`) and finds the join.
// REQUIRES: opt
// RUN: %kc %s --emit=uniformity --no-locs | FileCheck %s --check-prefix=KC
// RUN: %kc %s --emit=llvm | %opt -passes='print<uniformity>' -disable-output 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LLVM
kernel.func @same_target {
^entry(%out: !kernel.ptr<global, i32>, %a: i32, %b: i32):
  %tid = kernel.workitem_id x : i32
  %z = arith.constant 0 : i32
  %c = arith.cmpi eq, %tid, %z : i1
  cf.cond_br %c, [^join(%a), ^join(%b)]
^join(%x: i32):
  %y = arith.addi %x, %a : i32
  cf.cond_br %c, [^same(%y), ^same(%y)]
^same(%w: i32):
  kernel.store %w, %out, %z
  kernel.return
}
// KC-LABEL: kernel.func @same_target {
// KC:      cf.cond_br %c, [^join(%a), ^join(%b)] // divergent branch; joins: ^join
// KC-NEXT: ^join(%x: i32): // %x divergent; join of the divergent branch in ^entry
// KC:      %y = arith.addi %x, %a : i32 // divergent
// Equal arguments on both edges: the join passes %y along, which is divergent only through
// %x; a uniform %y would stay uniform.
// KC:      ^same(%w: i32): // %w divergent

// LLVM-LABEL: UniformityInfo for function 'same_target':
// LLVM: BLOCK join
// LLVM: DIVERGENT: %x = phi i32 [ %a, %entry ], [ %b, %entry.split ]
// LLVM: DIVERGENT: %y = add i32 %x, %a

// Both edges to one block of an irreducible cycle, without arguments: the two diverged paths
// are the two edges, no cycle entry lies on them, so the diverged-entry criterion holds and
// the cycle {^b, ^c} (entered at ^b and ^c) is not assumed divergent; %y stays uniform. kc
// made every cycle around such a join divergent until the differential test showed LLVM
// keeps it uniform.
kernel.func @same_target_in_cycle {
^entry(%out: !kernel.ptr<global, i32>, %n: i32, %u: i1):
  %tid = kernel.workitem_id x : i32
  %z = arith.constant 0 : i32
  cf.cond_br %u, [^b, ^c]
^b:
  %div = arith.cmpi eq, %tid, %z : i1
  cf.cond_br %div, [^c, ^c]
^c:
  %y = arith.addi %n, %n : i32
  kernel.store %y, %out, %z
  cf.cond_br %u, [^b, ^exit]
^exit:
  kernel.return
}
// KC-LABEL: kernel.func @same_target_in_cycle
// KC:       cf.cond_br %div, [^c, ^c] // divergent branch; joins: ^c
// KC:       %y = arith.addi %n, %n : i32 // uniform
// LLVM-LABEL: UniformityInfo for function 'same_target_in_cycle':
// LLVM-NOT:   CYCLES ASSUMED DIVERGENT
// LLVM:       {{^ +}}%y = add i32 %n, %n
