kernel.func @k {
^entry(%p: !kernel.ptr<global, i32>, %v: i32):
  %a = kernel.atomic add, %p, %v : !kernel.ptr<global, i32> loc("t.k":2:3)
  %b = kernel.atomic_cmpxchg %p, %v, %v {ordering = "sometimes", scope = "agent"} : !kernel.ptr<global, i32> loc("t.k":3:3)
  %c = kernel.atomic_load %p {ordering = "acq_rel", scope = "agent"} : !kernel.ptr<global, i32> loc("t.k":4:3)
  kernel.atomic_store %v, %p {ordering = "acquire", scope = "system"} : !kernel.ptr<global, i32> loc("t.k":5:3)
  kernel.fence {ordering = "relaxed", scope = "workgroup"} loc("t.k":6:3)
  kernel.fence {ordering = "release", scope = 2 : i32} loc("t.k":7:3)
  kernel.fence {ordering = "release"} loc("t.k":8:3)
  kernel.fence {ordering = "acquire", scope = "wavefront"} loc("t.k":9:3)
  kernel.return
}
// The verifier requires an `ordering` and a `scope` on every synchronizing op, each one of its
// names, and the ordering allowed for what the op does (LLVM's rules); the last fence is fine.
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
// CHECK: t.k:2:3: error: `kernel.atomic`: needs the `ordering` attribute (one of relaxed, acquire, release, acq_rel, seq_cst)
// CHECK: t.k:3:3: error: `kernel.atomic_cmpxchg`: `ordering` must be one of relaxed, acquire, release, acq_rel, seq_cst, found "sometimes"
// CHECK: t.k:4:3: error: `kernel.atomic_load`: ordering `acq_rel` is not allowed: a load cannot release
// CHECK: t.k:5:3: error: `kernel.atomic_store`: ordering `acquire` is not allowed: a store cannot acquire
// CHECK: t.k:6:3: error: `kernel.fence`: ordering `relaxed` is not allowed: a fence cannot be relaxed
// CHECK: t.k:7:3: error: `kernel.fence`: `scope` must be one of wavefront, workgroup, agent, system, found 2 : i32
// CHECK: t.k:8:3: error: `kernel.fence`: needs the `scope` attribute
// CHECK-NOT: t.k:9:3
