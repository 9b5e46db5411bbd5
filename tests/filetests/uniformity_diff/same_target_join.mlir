// kc bug found by the differential test (tests/uniformity_diff.rs): a divergent `cf.cond_br`
// whose two edges reach the same block with different arguments makes that block a join:
// threads that took the true edge see %a, the others %b, and they are converged in ^join, so
// %x is divergent. kc's CFG has one successor there (edges are deduplicated), so the sync
// dependence found no join and %x was called uniform. LLVM splits the false edge
// (`entry.split`) and finds the join.
// REQUIRES: opt
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=KC
// RUN: %kc %s -O0 --emit=llvm | %opt -passes='print<uniformity>' -disable-output 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LLVM
kernel.func @same_target {
^entry(%out: !kernel.ptr<global, i32>, %a: i32, %b: i32):
  %tid = kernel.workitem_id x : i32
  %z = arith.constant 0 : i32
  %c = arith.cmpi eq, %tid, %z : i32
  cf.cond_br %c, ^join(%a : i32), ^join(%b : i32)
^join(%x: i32):
  %y = arith.addi %x, %a : i32
  cf.cond_br %c, ^same(%y : i32), ^same(%y : i32)
^same(%w: i32):
  kernel.store %w, %out, %z : !kernel.ptr<global, i32>, i32
  kernel.return
}
// KC-LABEL: kernel.func @same_target {
// KC:      cf.cond_br %c, ^join(%a : i32), ^join(%b : i32) // divergent branch; joins: ^join
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
// keeps it uniform. With no argument differing between the two edges, ^c is no join at all
// (LLVM sees `br i1 %div, label %c, label %c`, one label); kc called it one,
// and so made the arguments of such a block divergent when another predecessor passed other
// values (KC_DIFF_SEED=0xfeed2026 kernel c2055), until the differential test showed that too.
kernel.func @same_target_in_cycle {
^entry(%out: !kernel.ptr<global, i32>, %n: i32, %u: i1):
  %tid = kernel.workitem_id x : i32
  %z = arith.constant 0 : i32
  cf.cond_br %u, ^b, ^c
^b:
  %div = arith.cmpi eq, %tid, %z : i32
  cf.cond_br %div, ^c, ^c
^c:
  %y = arith.addi %n, %n : i32
  kernel.store %y, %out, %z : !kernel.ptr<global, i32>, i32
  cf.cond_br %u, ^b, ^exit
^exit:
  kernel.return
}
// KC-LABEL: kernel.func @same_target_in_cycle
// KC:       cf.cond_br %div, ^c, ^c // divergent branch{{$}}
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
  cf.cond_br %u, ^pre, ^c
^pre:
  %div = arith.cmpi eq, %tid, %z : i32
  cf.cond_br %div, ^b(%n : i32), ^b(%z : i32)
^b(%x: i32):
  %y = arith.addi %n, %n : i32
  kernel.store %y, %out, %x : !kernel.ptr<global, i32>, i32
  cf.br ^c
^c:
  %w = arith.muli %n, %n : i32
  cf.cond_br %u, ^b(%w : i32), ^exit
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
  cf.cond_br %u, ^b, ^c(%n : i32)
^b:
  %div = arith.cmpi eq, %tid, %z : i32
  cf.cond_br %div, ^c(%n : i32), ^c(%z : i32)
^c(%x: i32):
  %y = arith.addi %n, %n : i32
  kernel.store %y, %out, %x : !kernel.ptr<global, i32>, i32
  cf.cond_br %u, ^b, ^exit
^exit:
  kernel.return
}
// KC-LABEL: kernel.func @same_target_in_cycle_args
// KC:       ^c(%x: i32): // %x divergent
// KC:       %y = arith.addi %n, %n : i32 // uniform
// LLVM-LABEL: UniformityInfo for function 'same_target_in_cycle_args':
// LLVM:       CYCLES ASSUMED DIVERGENT:
// LLVM:       DIVERGENT: %y = add i32 %n, %n

// Equal arguments on both edges of a divergent branch to one block, other values from the
// back edge of a uniform loop: every thread passes the branch into ^b1 with %n at once, then
// each iteration passes the same uniform %v: %a stays uniform (the branch diverges nothing).
// Found as KC_DIFF_SEED=0xfeed2026 kernel c2055, where kc called %a divergent.
kernel.func @same_target_equal_args {
^entry(%c: i1, %n: i32, %buf: !kernel.ptr<global, i32>):
  %tid = kernel.workitem_id x : i32
  %wg = kernel.workgroup_id x : i32
  %q = arith.cmpi slt, %tid, %n : i32
  cf.cond_br %q, ^b1(%n : i32), ^b1(%n : i32)
^b1(%a: i32):
  %w = kernel.ballot %c : i64
  %v = arith.trunci %w : i64 to i32
  %again = arith.cmpi sgt, %v, %wg : i32
  cf.cond_br %again, ^b3, ^b1(%v : i32)
^b3:
  kernel.store %a, %buf, %wg : !kernel.ptr<global, i32>, i32
  kernel.return
}
// KC-LABEL: kernel.func @same_target_equal_args
// KC:       cf.cond_br %q, ^b1(%n : i32), ^b1(%n : i32) // divergent branch{{$}}
// KC-NEXT:  ^b1(%a: i32): // %a uniform
// LLVM-LABEL: UniformityInfo for function 'same_target_equal_args':
// LLVM:       {{^ +}}%a = phi i32 [ %n, %entry ], [ %n, %entry ], [ %v, %b1 ]

// kc uniform, LLVM 22 divergent (class "argument equal on both edges of a divergent
// same-target branch"; found as KC_DIFF_SEED=0x1234 kernel c106). The divergent branch in
// ^b3 sends both edges to the loop header ^b4, with different first arguments and the same
// second one. LLVM's translation splits one edge (`b3.split`), LLVM sees ^b4 as a join and
// taints every phi there whose incomings are not all one value; %a4's are 1, 1 and %v17 (from
// the back edge). But the threads of the two edges enter ^b4 together with %a4 = 1, and each
// later iteration passes the uniform %v17 to all the threads in it: %a4 is the same in every
// thread of a dynamic instance of ^b4. Only %a3 (%a1 or %v16) depends on the branch.
kernel.func @same_target_equal_arg {
^entry(%n: i32, %buf: !kernel.ptr<global, i32>):
  %tid = kernel.workitem_id x : i32
  %wg = kernel.workgroup_id x : i32
  %one = arith.constant 1 : i32
  %seven = arith.constant 7 : i32
  %v17 = arith.andi %wg, %seven : i32
  %q20 = arith.cmpi slt, %tid, %n : i32
  cf.cond_br %q20, ^b4(%n, %one : i32, i32), ^b4(%tid, %one : i32, i32)
^b4(%a3: i32, %a4: i32):
  %q22 = arith.cmpi ne, %a3, %tid : i32
  cf.cond_br %q22, ^b5, ^b4(%wg, %v17 : i32, i32)
^b5:
  kernel.store %a4, %buf, %wg : !kernel.ptr<global, i32>, i32
  kernel.return
}
// KC-LABEL: kernel.func @same_target_equal_arg
// KC:       cf.cond_br %q20, ^b4(%n, %one : i32, i32), ^b4(%tid, %one : i32, i32) // divergent branch; joins: ^b4
// KC-NEXT:  ^b4(%a3: i32, %a4: i32): // %a3 divergent, %a4 uniform
// LLVM-LABEL: UniformityInfo for function 'same_target_equal_arg':
// LLVM:       DIVERGENT: %a4 = phi i32 [ 1, %entry ], [ 1, %entry.split ], [ %v17, %b4 ]

// One edge passes the block's own argument back: threads on it keep their old %a, the others
// get 3, so %a diverges (KC_DIFF_SEED=0x6b630003 kernel c819; comparing the two edges through
// the rule that ignores a phi's own value, which only holds over all incomings, called it
// uniform).
kernel.func @same_target_self_arg {
^entry(%n: i32, %buf: !kernel.ptr<global, i32>):
  %tid = kernel.workitem_id x : i32
  %two = arith.constant 2 : i32
  %three = arith.constant 3 : i32
  cf.br ^b1(%two : i32)
^b1(%a: i32):
  %q = arith.cmpi sgt, %tid, %n : i32
  cf.cond_br %q, ^b1(%three : i32), ^b1(%a : i32)
}
// KC-LABEL: kernel.func @same_target_self_arg
// KC:       ^b1(%a: i32): // %a divergent; join of the divergent branch in ^b1
// LLVM-LABEL: UniformityInfo for function 'same_target_self_arg':
// LLVM:       DIVERGENT: %a = phi i32
