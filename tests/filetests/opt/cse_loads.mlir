// cse merges a load into an equal load earlier in its block (the later one moves up to the
// earlier one) only if the load may take effect before every op in between (legality rule 6,
// memory order): up past a release, a relaxed atomic or a store elsewhere, never past an
// acquire, a seq_cst op, a barrier, or a write or atomic that may touch its element. Each
// kernel is the same two loads of %p[1] with one op between them.
// RUN: %kc %s --passes=cse | FileCheck %s
// RUN: %kc %s --passes=cse > %t.mlir && %kc %t.mlir -S | %llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null
// REQUIRES: llvm-mc
module {
  // Up past a release: allowed (into the critical section).
  // CHECK-LABEL: kernel.func @release_fence
  // CHECK: %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
  // CHECK-NOT: kernel.load
  // CHECK: kernel.store %v, %out, %v : !kernel.ptr<global, i32>, i32
  kernel.func @release_fence {
  ^entry(%p: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %i: i32):
    %one = arith.constant 1 : i32
    %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    kernel.fence {ordering = "release", scope = "agent"}
    %w = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    kernel.store %w, %out, %v : !kernel.ptr<global, i32>, i32
    kernel.return
  }
  // CHECK-LABEL: kernel.func @acquire_fence
  // CHECK: %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
  // CHECK: %w = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
  // CHECK: kernel.store %w, %out, %v : !kernel.ptr<global, i32>, i32
  kernel.func @acquire_fence {
  ^entry(%p: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %i: i32):
    %one = arith.constant 1 : i32
    %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    kernel.fence {ordering = "acquire", scope = "workgroup"}
    %w = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    kernel.store %w, %out, %v : !kernel.ptr<global, i32>, i32
    kernel.return
  }
  // CHECK-LABEL: kernel.func @acq_rel_fence
  // CHECK: %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
  // CHECK: %w = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
  // CHECK: kernel.store %w, %out, %v : !kernel.ptr<global, i32>, i32
  kernel.func @acq_rel_fence {
  ^entry(%p: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %i: i32):
    %one = arith.constant 1 : i32
    %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    kernel.fence {ordering = "acq_rel", scope = "wavefront"}
    %w = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    kernel.store %w, %out, %v : !kernel.ptr<global, i32>, i32
    kernel.return
  }
  // A seq_cst atomic on shared memory (another address space) still orders every access.
  // CHECK-LABEL: kernel.func @seq_cst_atomic
  // CHECK: %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
  // CHECK: %w = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
  // CHECK: kernel.store %w, %out, %v : !kernel.ptr<global, i32>, i32
  kernel.func @seq_cst_atomic {
  ^entry(%p: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %i: i32):
    %one = arith.constant 1 : i32
    %s = kernel.shared_alloc 64 : !kernel.ptr<shared, i32>
    %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    %o = kernel.atomic add, %s, %i {ordering = "seq_cst", scope = "workgroup"} : !kernel.ptr<shared, i32>
    %w = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    kernel.store %w, %out, %v : !kernel.ptr<global, i32>, i32
    kernel.return
  }
  // The same atomic relaxed orders only its own element.
  // CHECK-LABEL: kernel.func @relaxed_atomic
  // CHECK: %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
  // CHECK-NOT: kernel.load
  // CHECK: kernel.store %v, %out, %v : !kernel.ptr<global, i32>, i32
  kernel.func @relaxed_atomic {
  ^entry(%p: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %i: i32):
    %one = arith.constant 1 : i32
    %s = kernel.shared_alloc 64 : !kernel.ptr<shared, i32>
    %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    %o = kernel.atomic add, %s, %i {ordering = "relaxed", scope = "workgroup"} : !kernel.ptr<shared, i32>
    %w = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    kernel.store %w, %out, %v : !kernel.ptr<global, i32>, i32
    kernel.return
  }
  // A relaxed atomic on an element of the loaded buffer that may be the loaded one.
  // CHECK-LABEL: kernel.func @relaxed_atomic_may_alias
  // CHECK: %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
  // CHECK: %w = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
  // CHECK: kernel.store %w, %out, %v : !kernel.ptr<global, i32>, i32
  kernel.func @relaxed_atomic_may_alias {
  ^entry(%p: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %i: i32):
    %one = arith.constant 1 : i32
    %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    %q = kernel.ptr_offset %p, %i : !kernel.ptr<global, i32>, i32
    %o = kernel.atomic add, %q, %i {ordering = "relaxed", scope = "agent"} : !kernel.ptr<global, i32>
    %w = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    kernel.store %w, %out, %v : !kernel.ptr<global, i32>, i32
    kernel.return
  }
  // A release store to shared memory: the load may move up past it.
  // CHECK-LABEL: kernel.func @release_store
  // CHECK: %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
  // CHECK-NOT: kernel.load
  // CHECK: kernel.store %v, %out, %v : !kernel.ptr<global, i32>, i32
  kernel.func @release_store {
  ^entry(%p: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %i: i32):
    %one = arith.constant 1 : i32
    %s = kernel.shared_alloc 64 : !kernel.ptr<shared, i32>
    %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    kernel.atomic_store %i, %s {ordering = "release", scope = "workgroup"} : !kernel.ptr<shared, i32>
    %w = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    kernel.store %w, %out, %v : !kernel.ptr<global, i32>, i32
    kernel.return
  }
  // CHECK-LABEL: kernel.func @acquire_load
  // CHECK: %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
  // CHECK: %w = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
  // CHECK: kernel.store %w, %out, %v : !kernel.ptr<global, i32>, i32
  kernel.func @acquire_load {
  ^entry(%p: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %i: i32):
    %one = arith.constant 1 : i32
    %s = kernel.shared_alloc 64 : !kernel.ptr<shared, i32>
    %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    %f = kernel.atomic_load %s {ordering = "acquire", scope = "workgroup"} : !kernel.ptr<shared, i32>
    %w = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    kernel.store %w, %out, %v : !kernel.ptr<global, i32>, i32
    kernel.return
  }
  // CHECK-LABEL: kernel.func @barrier
  // CHECK: %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
  // CHECK: %w = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
  // CHECK: kernel.store %w, %out, %v : !kernel.ptr<global, i32>, i32
  kernel.func @barrier {
  ^entry(%p: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %i: i32):
    %one = arith.constant 1 : i32
    %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    kernel.barrier
    %w = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    kernel.store %w, %out, %v : !kernel.ptr<global, i32>, i32
    kernel.return
  }
  // A store to another constant element of the loaded buffer; then one that may alias.
  // CHECK-LABEL: kernel.func @store_elsewhere
  // CHECK: %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
  // CHECK-NOT: kernel.load
  // CHECK: kernel.store %v, %out, %v : !kernel.ptr<global, i32>, i32
  kernel.func @store_elsewhere {
  ^entry(%p: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %i: i32):
    %one = arith.constant 1 : i32
    %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    %two = arith.constant 2 : i32
    kernel.store %i, %p, %two : !kernel.ptr<global, i32>, i32
    %w = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    kernel.store %w, %out, %v : !kernel.ptr<global, i32>, i32
    kernel.return
  }
  // CHECK-LABEL: kernel.func @store_may_alias
  // CHECK: %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
  // CHECK: %w = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
  // CHECK: kernel.store %w, %out, %v : !kernel.ptr<global, i32>, i32
  kernel.func @store_may_alias {
  ^entry(%p: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %i: i32):
    %one = arith.constant 1 : i32
    %v = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    kernel.store %i, %p, %i : !kernel.ptr<global, i32>, i32
    %w = kernel.load %p, %one : !kernel.ptr<global, i32>, i32
    kernel.store %w, %out, %v : !kernel.ptr<global, i32>, i32
    kernel.return
  }
}
