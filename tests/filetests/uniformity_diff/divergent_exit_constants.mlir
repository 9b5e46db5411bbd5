// LLVM 22 unsound, kc divergent (a named case of the differential test, class "divergent
// cycle exit argument with differing incoming values", LLVM issue #216100). The loop has two
// exits to ^exit: a uniform one from ^header passing 2, a divergent one from ^body passing 1.
// Threads with %c leave ^body in some iteration with 1; the others go round and, when %u is
// true in the next iteration, all leave ^header together with 2. In ^exit, outside the
// cycle, all threads are converged again (maximal convergence), so %x is 1 in some and 2 in
// others: divergent, and so is %y. LLVM marks an exit phi divergent only when an incoming
// value is defined in the cycle (usesValueFromCycle); constants are not, and ^exit is no join
// of the branch within one iteration, so LLVM calls %x uniform.
// REQUIRES: opt
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=KC
// RUN: %kc %s -O0 --emit=llvm | %opt -passes='print<uniformity>' -disable-output 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LLVM
kernel.func @divergent_exit_constants {
^entry(%out: !kernel.ptr<global, i32>, %n: i32, %u: i1):
  %tid = kernel.workitem_id x : i32
  cf.br ^header
^header:
  %two = arith.constant 2 : i32
  cf.cond_br %u, ^exit(%two : i32), ^body
^body:
  %c = arith.cmpi slt, %tid, %n : i32
  %one = arith.constant 1 : i32
  cf.cond_br %c, ^exit(%one : i32), ^header
^exit(%x: i32):
  %y = arith.addi %x, %n : i32
  kernel.store %y, %out, %n : !kernel.ptr<global, i32>, i32
  kernel.return
}
// KC:      cf.cond_br %u, ^exit(%two : i32), ^body // uniform branch
// KC:      cf.cond_br %c, ^exit(%one : i32), ^header // divergent branch; divergent exits: ^exit
// KC:      ^exit(%x: i32): // %x divergent; divergent exit of the branch in ^body
// KC-NEXT: %y = arith.addi %x, %n : i32 // divergent

// LLVM:      CYCLES WITH DIVERGENT EXIT:
// LLVM:      BLOCK exit
// LLVM-NEXT: DEFINITIONS
// LLVM-NEXT: {{^ +}}%x = phi i32 [ 2, %header ], [ 1, %body ]
// LLVM-NEXT: {{^ +}}%y = add i32 %x, %n
