// kc bug found by the differential test (tests/uniformity_diff.rs): a constant is the same in
// every thread and every iteration, wherever it is defined. kc treated an `arith.constant`
// defined in a cycle like any other definition there: divergent when the cycle is assumed
// divergent, and temporally divergent when used after a divergent exit. Both lost precision
// (LLVM folds constants, so it never did this): %x, %y, %z are uniform.
// REQUIRES: opt
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=KC
// RUN: %kc %s -O0 --emit=llvm | %opt -passes='print<uniformity>' -disable-output 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LLVM

// A divergent exit: threads leave on different iterations, but all carry 7.
kernel.func @divergent_exit {
^entry(%out: !kernel.ptr<global, i32>, %n: i32):
  %tid = kernel.workitem_id x : i32
  cf.br ^loop
^loop:
  %k = arith.constant 7 : i32
  %c = arith.cmpi slt, %tid, %n : i32
  cf.cond_br %c, ^loop, ^exit(%k : i32)
^exit(%x: i32):
  %y = arith.addi %k, %n : i32
  kernel.store %y, %out, %x : !kernel.ptr<global, i32>, i32
  kernel.return
}
// KC-LABEL: kernel.func @divergent_exit
// KC:       cf.cond_br %c, ^loop, ^exit(%k : i32) // divergent branch; divergent exits: ^exit
// KC-NEXT:  ^exit(%x: i32): // %x uniform
// KC-NEXT:  %y = arith.addi %k, %n : i32 // uniform

// A cycle assumed divergent (entered at ^a and ^b by the divergent branch in ^entry): its
// definitions are divergent, but the constant it defines is still 3 in every thread.
kernel.func @assumed_divergent {
^entry(%out: !kernel.ptr<global, i32>, %n: i32, %d: i1):
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  %c = arith.cmpi eq, %tid, %zero : i32
  cf.cond_br %c, ^a, ^b
^a:
  %k = arith.constant 3 : i32
  %v = arith.addi %n, %n : i32
  cf.cond_br %d, ^b, ^exit
^b:
  cf.br ^a
^exit:
  %z = arith.addi %k, %n : i32
  kernel.store %z, %out, %v : !kernel.ptr<global, i32>, i32
  kernel.return
}
// KC-LABEL: kernel.func @assumed_divergent
// KC:       %v = arith.addi %n, %n : i32 // divergent
// KC:       %z = arith.addi %k, %n : i32 // uniform

// LLVM-LABEL: UniformityInfo for function 'divergent_exit':
// LLVM:       BLOCK exit
// LLVM-NEXT:  DEFINITIONS
// LLVM-NEXT:  {{^ +}}%x = phi i32 [ 7, %loop ]
// LLVM-NEXT:  {{^ +}}%y = add i32 7, %n
// LLVM-LABEL: UniformityInfo for function 'assumed_divergent':
// LLVM:       CYCLES ASSUMED DIVERGENT:
// LLVM:       DIVERGENT: %v = add i32 %n, %n
// LLVM:       BLOCK exit
// LLVM-NEXT:  DEFINITIONS
// LLVM-NEXT:  {{^ +}}%z = add i32 3, %n
