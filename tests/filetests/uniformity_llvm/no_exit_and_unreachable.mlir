// LLVM: test/Analysis/UniformityAnalysis/AMDGPU/no-return-blocks.ll and
// unreachable-loop-block.ll, rewritten as kc IR.
//
// @no_return_blocks: the kernel never returns (bb1 <-> bb2 loop forever; the post-dominator
// tree has no real root). The entry's branch on a value loaded at the thread id is divergent
// and enters the cycle at both of its entries: the cycle entries(bb1 bb2) is assumed
// divergent; the loads at the thread-id address are divergent anyway.
//
// @unreachable_loop: a loop that the entry cannot reach (the entry returns at once). LLVM still
// marks the cmpxchg there divergent (a source of divergence wherever it is); so does kc. The
// loop's branch on it is divergent too, with no joins computed for unreachable blocks.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @no_return_blocks {
^bb0(%arg: !kernel.ptr<global, f32>, %arg1: !kernel.ptr<global, f32>):
  %tmp = kernel.workitem_id x : i32
  %tmp6 = kernel.load %arg, %tmp : !kernel.ptr<global, f32>, i32
  %fzero = arith.constant 0.000000e+00 : f32
  %tmp8 = arith.cmpf olt, %tmp6, %fzero : f32
  cf.cond_br %tmp8, ^bb1, ^bb2
^bb1:
  %tmp10 = kernel.load %arg, %tmp : !kernel.ptr<global, f32>, i32
  cf.br ^bb2
^bb2:
  %tmp11 = kernel.load %arg, %tmp : !kernel.ptr<global, f32>, i32
  cf.br ^bb1
}
// SUM-LABEL: // uniformity of @no_return_blocks:
// SUM-NEXT:  //   5 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^bb1 ^bb2)
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^bb1 ^bb2)
// CHECK-LABEL: kernel.func @no_return_blocks {
// CHECK-NEXT:  ^bb0(%arg: !kernel.ptr<global, f32>, %arg1: !kernel.ptr<global, f32>): // %arg uniform, %arg1 uniform
// CHECK-NEXT:  %tmp = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %tmp6 = kernel.load %arg, %tmp : !kernel.ptr<global, f32>, i32 // divergent
// CHECK-NEXT:  %fzero = arith.constant 0.000000e+00 : f32 // uniform
// CHECK-NEXT:  %tmp8 = arith.cmpf olt, %tmp6, %fzero : f32 // divergent
// CHECK-NEXT:  cf.cond_br %tmp8, ^bb1, ^bb2 // divergent branch; joins: ^bb1
// CHECK-NEXT:  ^bb1: // join of the divergent branch in ^bb0
// CHECK-NEXT:  %tmp10 = kernel.load %arg, %tmp : !kernel.ptr<global, f32>, i32 // divergent
// CHECK-NEXT:  cf.br ^bb2
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:  %tmp11 = kernel.load %arg, %tmp : !kernel.ptr<global, f32>, i32 // divergent
// CHECK-NEXT:  cf.br ^bb1
// CHECK-NEXT:  }

kernel.func @unreachable_loop {
^entry(%p: !kernel.ptr<global, i32>, %tidx: i32):
  kernel.return
^unreachable_loop:
  %zero = arith.constant 0 : i32
  %tmp = kernel.atomic_cmpxchg %p, %zero, %zero {ordering = "seq_cst", scope = "agent"} : !kernel.ptr<global, i32>
  %cmp.i = arith.cmpi eq, %tmp, %zero : i32
  cf.cond_br %cmp.i, ^unreachable_loop, ^end
^end:
  kernel.return
}
// SUM-NEXT:  // uniformity of @unreachable_loop:
// SUM-NEXT:  //   2 divergent values, 1 divergent branches
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @unreachable_loop {
// CHECK-NEXT:  ^entry(%p: !kernel.ptr<global, i32>, %tidx: i32): // %p uniform, %tidx uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  ^unreachable_loop:
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %tmp = kernel.atomic_cmpxchg %p, %zero, %zero {ordering = "seq_cst", scope = "agent"} : !kernel.ptr<global, i32> // divergent
// CHECK-NEXT:  %cmp.i = arith.cmpi eq, %tmp, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cmp.i, ^unreachable_loop, ^end // divergent branch
// CHECK-NEXT:  ^end:
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
