// kc bug found by the differential test (tests/uniformity_diff.rs): kc made every
// `kernel.shuffle` a divergence source. With a uniform value and a uniform lane index every
// active lane reads the same lane, so the result is the same in all of them: the value, or,
// when that lane is inactive (LANGUAGE.md: undefined), what gfx942's ds_bpermute returns for
// an inactive source lane (0), again the same in every reader. LLVM agrees (ds.bpermute is no
// divergence source; its result is divergent only through its operands). A divergent value
// or lane index still makes the result divergent.
// REQUIRES: opt
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=KC
// RUN: %kc %s -O0 --emit=llvm | %opt -passes='print<uniformity>' -disable-output 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LLVM
kernel.func @shuffle_uniform {
^entry(%out: !kernel.ptr<global, i32>, %n: i32, %l: i32):
  %tid = kernel.workitem_id x : i32
  %u = kernel.shuffle %n, %l : i32
  %dv = kernel.shuffle %tid, %l : i32
  %dl = kernel.shuffle %n, %tid : i32
  kernel.store %u, %out, %dv : !kernel.ptr<global, i32>, i32
  kernel.store %dl, %out, %u : !kernel.ptr<global, i32>, i32
  kernel.return
}
// KC: %u = kernel.shuffle %n, %l, %entry : i32 // uniform
// KC: %dv = kernel.shuffle %tid, %l, %entry : i32 // divergent
// KC: %dl = kernel.shuffle %n, %tid, %entry : i32 // divergent

// LLVM:      {{^ +}}%u = call i32 @llvm.amdgcn.ds.bpermute
// LLVM:      DIVERGENT: %dv = call i32 @llvm.amdgcn.ds.bpermute
// LLVM:      DIVERGENT: %dl = call i32 @llvm.amdgcn.ds.bpermute
