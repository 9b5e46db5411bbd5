// "Convergence And Uniformity", Threads and Dynamic Instances / Maximal Convergence: the
// natural loop of the thread table. Entry -> H; H -> B or straight to L; B -> L; L -> H
// (back edge) or Exit. Thread 1 runs Entry H B L H L Exit, thread 2 runs
// Entry H L H B L H B L Exit: the branch in H and the exit branch in L are divergent.
//
// The document's verdicts, read as uniformity:
// - H1/H2, H3/H4, L1/L2, L3/L4 are converged (threads meet at the header on every
//   iteration): a value computed in the loop from uniform inputs (the counter %i, %i.next,
//   %b.val) is uniform, although B1 and B2 run in different iterations.
// - L is where the paths H->B->L and H->L meet: its block argument %x, which carries a
//   different value along each path, is divergent (join of the branch in H).
// - L3 and L5 are not converged (H5 lies between): threads leave the loop on different
//   iterations (divergent exit ^exit), so a use of %i.next after the loop is temporally
//   divergent, while a value defined before the loop stays uniform after it.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @natural_loop {
^entry(%out: !kernel.ptr<global, i32>, %n: i32):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %n.plus = arith.addi %n, %one : i32
  cf.br ^H(%zero : i32)
^H(%i: i32):
  %i.next = arith.addi %i, %one : i32
  %bit = arith.andi %tid, %i : i32
  %take.b = arith.cmpi eq, %bit, %zero : i32
  cf.cond_br %take.b, ^B, ^L(%zero : i32)
^B:
  %b.val = arith.muli %i, %n : i32
  cf.br ^L(%b.val : i32)
^L(%x: i32):
  %more = arith.cmpi slt, %i.next, %tid : i32
  cf.cond_br %more, ^H(%i.next : i32), ^exit
^exit:
  %after = arith.addi %i.next, %n : i32
  %before = arith.addi %n.plus, %n : i32
  kernel.store %after, %out, %tid : !kernel.ptr<global, i32>, i32
  kernel.return
}
// SUM-LABEL: // uniformity of @natural_loop:
// SUM-NEXT:  //   6 divergent values, 2 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H) ^B ^L
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^H) ^B ^L
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %i.next used outside cycle depth=1: entries(^H) ^B ^L by: %after = arith.addi %i.next, %n : i32
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @natural_loop {
// CHECK-NEXT:  ^entry(%out: !kernel.ptr<global, i32>, %n: i32): // %out uniform, %n uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %n.plus = arith.addi %n, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^H(%zero : i32)
// CHECK-NEXT:  ^H(%i: i32): // %i uniform
// CHECK-NEXT:  %i.next = arith.addi %i, %one : i32 // uniform
// CHECK-NEXT:  %bit = arith.andi %tid, %i : i32 // divergent
// CHECK-NEXT:  %take.b = arith.cmpi eq, %bit, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %take.b, ^B, ^L(%zero : i32) // divergent branch; joins: ^L
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  %b.val = arith.muli %i, %n : i32 // uniform
// CHECK-NEXT:  cf.br ^L(%b.val : i32)
// CHECK-NEXT:  ^L(%x: i32): // %x divergent; join of the divergent branch in ^H
// CHECK-NEXT:  %more = arith.cmpi slt, %i.next, %tid : i32 // divergent
// CHECK-NEXT:  cf.cond_br %more, ^H(%i.next : i32), ^exit // divergent branch; divergent exits: ^exit
// CHECK-NEXT:  ^exit: // divergent exit of the branch in ^L
// CHECK-NEXT:  %after = arith.addi %i.next, %n : i32 // divergent
// CHECK-NEXT:  %before = arith.addi %n.plus, %n : i32 // uniform
// CHECK-NEXT:  kernel.store %after, %out, %tid : !kernel.ptr<global, i32>, i32
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
