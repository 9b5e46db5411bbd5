// LLVM pain points (peers.md section 2, items 6 and 13): wave operations moved out of a
// loop (DXC PR #8204: hoisted; SWDEV-407790 / PR #67033: sunk out of a loop with a divergent
// exit; #62477: ballot results of the wrong context). A ballot in a loop sees the threads
// still iterating; before the loop it would see all, after it all that left.
// - licm: the ballot's operand is invariant, but it stays in the loop (legality::is_free
//   excludes convergent ops); the invariant multiply is hoisted.
// - sink: a ballot read only after the loop stays in the loop (token rule: no move across a
//   cycle boundary); a free op read only after the loop leaves it (per-thread values are
//   the same; the uniformity analysis recomputed later sees the temporal divergence).
// - cse: an equal ballot after the loop is not replaced by the one inside it.
// RUN: %kc %s --passes=licm | FileCheck %s --check-prefix=LICM
// RUN: %kc %s --passes=sink | FileCheck %s --check-prefix=SINK
// RUN: %kc %s --passes=cse | FileCheck %s --check-prefix=CSE
// LICM: ^entry(
// LICM: %m = arith.muli %n, %n : i32
// LICM-NEXT: cf.br ^header(%zero : i32)
// LICM: ^header(%i: i32):
// LICM-NEXT: %b = kernel.ballot %inv : i64
// SINK: ^header(%i: i32):
// SINK-NEXT: %b = kernel.ballot %inv : i64
// SINK-NOT: %d = arith.muli
// SINK: ^exit:
// SINK-NEXT: %d = arith.muli %i, %t : i32
// CSE: ^exit:
// CSE-NEXT: %b2 = kernel.ballot %inv : i64
module {
  kernel.func @k {
  ^entry(%buf: !kernel.ptr<global, i64>, %n: i32):
    %t = kernel.workitem_id x : i32
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %inv = arith.cmpi slt, %n, %one : i32
    cf.br ^header(%zero : i32)
  ^header(%i: i32):
    %b = kernel.ballot %inv : i64
    %m = arith.muli %n, %n : i32
    %d = arith.muli %i, %t : i32
    %next = arith.addi %i, %m : i32
    %stop = arith.cmpi sge, %i, %t : i32
    cf.cond_br %stop, ^exit, ^header(%next : i32)
  ^exit:
    %b2 = kernel.ballot %inv : i64
    kernel.store %b, %buf, %d : !kernel.ptr<global, i64>, i32
    kernel.store %b2, %buf, %t : !kernel.ptr<global, i64>, i32
    kernel.return
  }
}
