// kc more precise than LLVM through the choice of cycle header (a named case of the
// differential test, class "irreducible cycle header differs"). The cycle {^e1, ^e2, ^b, ^x,
// ^y, ^j} is entered at ^e1 and ^e2. kc's DFS visits the first successor first and makes ^e2
// the header; LLVM's visits the last successor first and makes ^e1 the header. The divergent
// branch in ^b joins at ^j. The simplified diverged-entry criterion asks for the header to
// strictly dominate the join: ^e2 does, ^e1 does not, so LLVM assumes the whole cycle
// divergent (%v) and kc does not.
// Why kc's verdict is sound: the criterion proper (Convergence And Uniformity, "Diverged Entry
// Criterion") asks that no entry of a closed path through the branch and its join lie on a
// diverged path from the branch to the join. The diverged paths here are ^b->^x->^j and
// ^b->^y->^j, and no entry (^e1, ^e2) is on them, so the nodes are m-converged in every cycle
// hierarchy; the uniformity found with one hierarchy is a safe subset for any other (same
// document, "Static Uniformity Analysis"). kc run with LLVM's order agrees with LLVM.
// REQUIRES: opt
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=KC
// RUN: %kc %s -O0 --emit=llvm | %opt -passes='print<uniformity>' -disable-output 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LLVM
kernel.func @cycle_hierarchy {
^entry(%out: !kernel.ptr<global, i32>, %n: i32, %u: i1, %w: i1):
  %tid = kernel.workitem_id x : i32
  %z = arith.constant 0 : i32
  cf.cond_br %u, ^e2, ^e1
^e1:
  cf.br ^e2
^e2:
  %v = arith.addi %n, %n : i32
  cf.cond_br %w, ^b, ^j
^b:
  %d = arith.cmpi eq, %tid, %z : i32
  cf.cond_br %d, ^x, ^y
^x:
  cf.br ^j
^y:
  cf.br ^j
^j:
  kernel.store %v, %out, %z : !kernel.ptr<global, i32>, i32
  cf.cond_br %w, ^e1, ^exit
^exit:
  kernel.return
}
// KC:      cycles:
// KC-NEXT: depth=1: entries(^e2 ^e1)
// KC-NOT:  cycles assumed divergent
// KC:      %v = arith.addi %n, %n : i32 // uniform
// KC:      cf.cond_br %d, ^x, ^y // divergent branch; joins: ^j

// LLVM:      CYCLES ASSUMED DIVERGENT:
// LLVM-NEXT: depth=1: entries(e1 e2)
// LLVM:      DIVERGENT: %v = add i32 %n, %n
