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

// kc more precise than LLVM (a named case of the differential test, class "same-target branch
// into an irreducible cycle"). Both edges of the divergent branch in ^pre enter the
// irreducible cycle {^b, ^c} (entries ^b and ^c) at the same entry ^b, with different
// arguments. LLVM splits one edge (`pre.split`), so ^b becomes an ordinary join of two paths
// from outside the cycle, and LLVM assumes the whole cycle divergent (%y, %w). Why kc's
// uniform verdict is sound: a cycle is assumed divergent when diverged paths may reach it at
// *different* entries, because then which threads are converged inside depends on the choice
// of header. Here both diverged paths are single edges to the same entry: the threads enter
// ^b together, in the same dynamic instance of ^b whichever of ^b or ^c is the header (none
// of them executed a header of the cycle before), so every block of the cycle is
// m-converged. Only the argument %x differs between the two edges (divergent in both). LLVM
// even agrees when the arguments are equal: without them there is no split block and LLVM
// finds no join at all.
kernel.func @same_target_into_cycle {
^entry(%out: !kernel.ptr<global, i32>, %n: i32, %u: i1):
  %tid = kernel.workitem_id x : i32
  %z = arith.constant 0 : i32
  cf.cond_br %u, [^pre, ^c]
^pre:
  %div = arith.cmpi eq, %tid, %z : i1
  cf.cond_br %div, [^b(%n), ^b(%z)]
^b(%x: i32):
  %y = arith.addi %n, %n : i32
  kernel.store %y, %out, %x
  cf.br [^c]
^c:
  %w = arith.muli %n, %n : i32
  cf.cond_br %u, [^b(%w), ^exit]
^exit:
  kernel.return
}
// KC-LABEL: kernel.func @same_target_into_cycle
// KC:       ^b(%x: i32): // %x divergent
// KC:       %y = arith.addi %n, %n : i32 // uniform
// KC:       %w = arith.muli %n, %n : i32 // uniform
// LLVM-LABEL: UniformityInfo for function 'same_target_into_cycle':
// LLVM:       CYCLES ASSUMED DIVERGENT:
// LLVM:       DIVERGENT: %y = add i32 %n, %n
// LLVM:       DIVERGENT: %w = mul i32 %n, %n

// The same inside an irreducible cycle, with different arguments: LLVM's split block puts a
// second path from ^b to ^c inside the cycle, its simplified diverged-entry check fails
// (neither ^b nor the header dominates ^c) and it assumes the cycle divergent (%y). kc's
// uniform %y is sound for the reason given for @same_target_into_cycle: the diverged paths
// are the two edges, no entry lies on them, so the criterion holds; only %x differs.
kernel.func @same_target_in_cycle_args {
^entry(%out: !kernel.ptr<global, i32>, %n: i32, %u: i1):
  %tid = kernel.workitem_id x : i32
  %z = arith.constant 0 : i32
  cf.cond_br %u, [^b, ^c(%n)]
^b:
  %div = arith.cmpi eq, %tid, %z : i1
  cf.cond_br %div, [^c(%n), ^c(%z)]
^c(%x: i32):
  %y = arith.addi %n, %n : i32
  kernel.store %y, %out, %x
  cf.cond_br %u, [^b, ^exit]
^exit:
  kernel.return
}
// KC-LABEL: kernel.func @same_target_in_cycle_args
// KC:       ^c(%x: i32): // %x divergent
// KC:       %y = arith.addi %n, %n : i32 // uniform
// LLVM-LABEL: UniformityInfo for function 'same_target_in_cycle_args':
// LLVM:       CYCLES ASSUMED DIVERGENT:
// LLVM:       DIVERGENT: %y = add i32 %n, %n
