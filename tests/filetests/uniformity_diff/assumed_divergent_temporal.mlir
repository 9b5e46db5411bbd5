// kc bug found by the differential test (tests/uniformity_diff.rs), and a case where LLVM 22 is
// unsound. The cycle {^a, ^b} is entered at both ^a and ^b by the divergent branch in ^entry,
// so it is assumed divergent: every definition in it is divergent, except those that are
// uniform whatever happens, like %r = readfirstlane(%i). The branch in ^a is a divergent
// exit: thread t leaves when %j == %d, on its own iteration, holding the %r of that
// iteration (the %i of the threads still converged there). In ^exit the threads are
// converged again and %r differs between them: %y is temporally divergent.
// kc skipped temporal divergence for a cycle inside a cycle assumed divergent (as LLVM does:
// its definitions are divergent anyway, but not the always-uniform ones), so its verdict
// depended on the order of its worklist: @exit_first (the exit's branch is seen first) got
// %y divergent, @assumption_first (the same kernel, the exit condition computed earlier)
// uniform. Now both are divergent. LLVM 22 has the same order dependence the other way
// round: %y is uniform in @exit_first (unsound) and divergent in @assumption_first.
// REQUIRES: opt
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=KC
// RUN: %kc %s -O0 --emit=llvm | %opt -passes='print<uniformity>' -disable-output 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LLVM
kernel.func @exit_first {
^entry(%out: !kernel.ptr<global, i32>, %n: i32):
  %tid = kernel.workitem_id x : i32
  %z = arith.constant 0 : i32
  %c = arith.cmpi slt, %tid, %n : i32
  cf.cond_br %c, ^a(%z : i32), ^b(%z : i32)
^a(%i: i32):
  %r = kernel.readfirstlane %i : i32
  %one = arith.constant 1 : i32
  %j = arith.addi %i, %one : i32
  %x = arith.cmpi eq, %j, %tid : i32
  cf.cond_br %x, ^exit, ^b(%j : i32)
^b(%k: i32):
  cf.br ^a(%k : i32)
^exit:
  %y = arith.addi %r, %n : i32
  kernel.store %y, %out, %z : !kernel.ptr<global, i32>, i32
  kernel.return
}
kernel.func @assumption_first {
^entry(%out: !kernel.ptr<global, i32>, %n: i32):
  %tid = kernel.workitem_id x : i32
  %d = arith.addi %tid, %n : i32
  %z = arith.constant 0 : i32
  %c = arith.cmpi slt, %tid, %n : i32
  cf.cond_br %c, ^a(%z : i32), ^b(%z : i32)
^a(%i: i32):
  %r = kernel.readfirstlane %i : i32
  %one = arith.constant 1 : i32
  %j = arith.addi %i, %one : i32
  %x = arith.cmpi eq, %j, %d : i32
  cf.cond_br %x, ^exit, ^b(%j : i32)
^b(%k: i32):
  cf.br ^a(%k : i32)
^exit:
  %y = arith.addi %r, %n : i32
  kernel.store %y, %out, %z : !kernel.ptr<global, i32>, i32
  kernel.return
}
// KC-LABEL: uniformity of @exit_first:
// KC:       cycles assumed divergent:
// KC:       %r used outside cycle {{.*}} by: %y = arith.addi %r, %n : i32
// KC-LABEL: uniformity of @assumption_first:
// KC:       cycles assumed divergent:
// KC:       %r used outside cycle {{.*}} by: %y = arith.addi %r, %n : i32
// KC-LABEL: kernel.func @exit_first
// KC:       %r = kernel.readfirstlane %i : i32 // uniform
// KC:       %y = arith.addi %r, %n : i32 // divergent
// KC-LABEL: kernel.func @assumption_first
// KC:       %r = kernel.readfirstlane %i : i32 // uniform
// KC:       %y = arith.addi %r, %n : i32 // divergent

// LLVM-LABEL: UniformityInfo for function 'exit_first':
// LLVM:       CYCLES ASSUMED DIVERGENT:
// LLVM-NOT:   TEMPORAL DIVERGENCE LIST:
// LLVM:       BLOCK exit
// LLVM-NEXT:  DEFINITIONS
// LLVM-NEXT:  {{^ +}}%y = add i32 %r, %n
// LLVM-LABEL: UniformityInfo for function 'assumption_first':
// LLVM:       CYCLES ASSUMED DIVERGENT:
// LLVM:       TEMPORAL DIVERGENCE LIST:
// LLVM:       BLOCK exit
// LLVM-NEXT:  DEFINITIONS
// LLVM-NEXT:  DIVERGENT: %y = add i32 %r, %n
