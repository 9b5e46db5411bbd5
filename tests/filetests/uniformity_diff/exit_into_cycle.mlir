// LLVM 22 unsound on %v, kc divergent; kc conservative on %w, as LLVM's own rule is (named
// cases of the differential test, classes "use after a divergent exit into a cycle of its
// own" and "use after another exit of a cycle whose divergent exit into a cycle of its own
// LLVM misses").
//
// The outer loop (header ^outer, counter %i = 0, 1, ..., n - 1) holds an inner loop
// ^inner <-> ^step. In ^inner, thread t leaves for ^spin when %i == t (a divergent branch,
// the only one); the threads that never leave go round until %again is false and then all
// leave together from ^latch for ^done. The two kernels differ only in ^spin: in
// @exit_into_spin it branches back to itself (a cycle of its own, as a lane parked in a
// wait loop), in @exit_into_block it does not.
//
// The verdicts by the definition ("Convergence and Uniformity": maximal convergence,
// temporal divergence):
// - %v in ^spin is divergent in both kernels. ^spin lies in no cycle that contains the outer
//   loop (in @exit_into_spin only in its own cycle, whose header is ^spin), so the first
//   dynamic instances of ^spin of any two threads are converged: neither thread executed
//   the header of a cycle containing ^spin before them. Threads 0 and 1 get there from outer
//   iterations 0 and 1 and compute %v = 1 and 2: temporal divergence, the diverged path
//   ^inner -> ^spin left the outer loop. The self edge of ^spin changes nothing about
//   these first instances.
// - %w in ^done is uniform by the definition: only threads that never took the divergent
//   exit reach ^done, the outer and inner loops have no other divergent branch, so they stay
//   converged and all leave from the same instance of ^latch with one %i. But both analyses
//   apply a coarser rule to a cycle with a divergent exit: every use outside it of a value
//   defined in it is divergent, whichever exit leads there (LLVM's
//   analyzeCycleExitDivergence, with a FIXME saying so). So LLVM, in @exit_into_block, calls
//   %w divergent, and kc does in both kernels; the verdict is conservative, not unsound.
//
// LLVM 22 differs in @exit_into_spin only. propagateCycleExitDivergence looks for "the
// outer-most cycle that does not contain" the exit block by climbing from the branch's
// innermost cycle while its depth exceeds the depth of the exit block's innermost cycle.
// ^spin's own cycle has depth 1, so the climb stops at the inner loop (depth 2) and never
// reaches the outer loop (depth 1), which does not contain ^spin either: LLVM records only
// the inner loop as left divergently, and %i, defined in the outer loop, is not temporally
// divergent for it. %v is uniform for LLVM there (unsound) and so is %w (by accident of the
// same comparison). kc takes the outermost cycle around the branch that does not contain the
// exit (containment), the outer loop, in both kernels.
// REQUIRES: opt
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=KC
// RUN: %kc %s -O0 --emit=llvm | %opt -passes='print<uniformity>' -disable-output 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LLVM
kernel.func @exit_into_spin {
^entry(%out: !kernel.ptr<global, i32>, %n: i32, %stay: i1):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  cf.br ^outer(%zero : i32)
^outer(%i: i32):
  %next = arith.addi %i, %one : i32
  cf.br ^inner(%zero : i32)
^inner(%j: i32):
  %leave = arith.cmpi eq, %i, %tid : i32
  cf.cond_br %leave, ^spin, ^step
^step:
  %j1 = arith.addi %j, %one : i32
  %more = arith.cmpi slt, %j1, %n : i32
  cf.cond_br %more, ^inner(%j1 : i32), ^latch
^latch:
  %again = arith.cmpi slt, %next, %n : i32
  cf.cond_br %again, ^outer(%next : i32), ^done
^spin:
  %v = arith.addi %i, %one : i32
  kernel.store %v, %out, %tid : !kernel.ptr<global, i32>, i32
  cf.cond_br %stay, ^spin, ^end
^done:
  %w = arith.addi %i, %one : i32
  kernel.store %w, %out, %tid : !kernel.ptr<global, i32>, i32
  cf.br ^end
^end:
  kernel.return
}

kernel.func @exit_into_block {
^entry(%out: !kernel.ptr<global, i32>, %n: i32, %stay: i1):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  cf.br ^outer(%zero : i32)
^outer(%i: i32):
  %next = arith.addi %i, %one : i32
  cf.br ^inner(%zero : i32)
^inner(%j: i32):
  %leave = arith.cmpi eq, %i, %tid : i32
  cf.cond_br %leave, ^spin, ^step
^step:
  %j1 = arith.addi %j, %one : i32
  %more = arith.cmpi slt, %j1, %n : i32
  cf.cond_br %more, ^inner(%j1 : i32), ^latch
^latch:
  %again = arith.cmpi slt, %next, %n : i32
  cf.cond_br %again, ^outer(%next : i32), ^done
^spin:
  %v = arith.addi %i, %one : i32
  kernel.store %v, %out, %tid : !kernel.ptr<global, i32>, i32
  cf.br ^end
^done:
  %w = arith.addi %i, %one : i32
  kernel.store %w, %out, %tid : !kernel.ptr<global, i32>, i32
  cf.br ^end
^end:
  kernel.return
}

// The outer loop is the cycle left divergently in both kernels; everything in the loops is
// uniform but the exit condition.
// KC-LABEL: uniformity of @exit_into_spin:
// KC:       cycles with divergent exit:
// KC-NEXT:    depth=1: entries(^outer) ^inner ^step ^latch
// KC-LABEL: kernel.func @exit_into_spin
// KC:       ^outer(%i: i32): // %i uniform
// KC-NEXT:  %next = arith.addi %i, %one : i32 // uniform
// KC:       ^inner(%j: i32): // %j uniform
// KC-NEXT:  %leave = arith.cmpi eq, %i, %tid : i32 // divergent
// KC-NEXT:  cf.cond_br %leave, ^spin, ^step // divergent branch
// KC:       %more = arith.cmpi slt, %j1, %n : i32 // uniform
// KC-NEXT:  cf.cond_br %more, ^inner(%j1 : i32), ^latch // uniform branch
// KC:       %again = arith.cmpi slt, %next, %n : i32 // uniform
// KC-NEXT:  cf.cond_br %again, ^outer(%next : i32), ^done // uniform branch
// KC:       %v = arith.addi %i, %one : i32 // divergent
// KC:       cf.cond_br %stay, ^spin, ^end // uniform branch
// KC:       %w = arith.addi %i, %one : i32 // divergent
// KC-LABEL: kernel.func @exit_into_block
// KC:       %v = arith.addi %i, %one : i32 // divergent
// KC:       %w = arith.addi %i, %one : i32 // divergent

// LLVM-LABEL: UniformityInfo for function 'exit_into_spin':
// LLVM-NEXT:  CYCLES WITH DIVERGENT EXIT:
// LLVM-NEXT:    depth=2: entries(inner) step
// LLVM-NOT:   TEMPORAL DIVERGENCE LIST:
// LLVM:       BLOCK spin
// LLVM-NEXT:  DEFINITIONS
// LLVM-NEXT:  {{^ +}}%v = add i32 %i, 1
// LLVM:       BLOCK done
// LLVM-NEXT:  DEFINITIONS
// LLVM-NEXT:  {{^ +}}%w = add i32 %i, 1
// LLVM-LABEL: UniformityInfo for function 'exit_into_block':
// LLVM-NEXT:  CYCLES WITH DIVERGENT EXIT:
// LLVM-NEXT:    depth=1: entries(outer) latch inner step
// LLVM:       TEMPORAL DIVERGENCE LIST:
// LLVM:       BLOCK spin
// LLVM-NEXT:  DEFINITIONS
// LLVM-NEXT:  DIVERGENT: %v = add i32 %i, 1
// LLVM:       BLOCK done
// LLVM-NEXT:  DEFINITIONS
// LLVM-NEXT:  DIVERGENT: %w = add i32 %i, 1
