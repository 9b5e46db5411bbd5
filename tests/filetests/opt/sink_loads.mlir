// sink moves a load into the branch that reads it only if the load may take effect after
// every op it passes (legality rule 6, memory order): down past an acquire (fence or atomic)
// and past accesses to other elements, never past a release, a seq_cst op, a barrier, or a
// write or atomic that may touch its element; and only into a block whose one predecessor
// is the load's. Each kernel differs from @moves in one op. (No pass hoists a load: licm
// moves pure ops only.)
// RUN: %kc %s --passes=sink | FileCheck %s
// RUN: %kc %s --passes=sink > %t.mlir && %kc %t.mlir -S | %llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null
// REQUIRES: llvm-mc
module {
  // CHECK-LABEL: kernel.func @moves
  // CHECK: ^entry(
  // CHECK-NEXT: kernel.fence {ordering = "acquire", scope = "agent"}
  // CHECK-NEXT: cf.cond_br
  // CHECK: ^then:
  // CHECK-NEXT: %v = kernel.load %p, %i : i32
  kernel.func @moves {
  ^entry(%p: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %c: i1, %i: i32):
    %v = kernel.load %p, %i : i32
    kernel.fence {ordering = "acquire", scope = "agent"}
    cf.cond_br %c, ^then, ^join
  ^then:
    kernel.store %v, %out, %i
    cf.br ^join
  ^join:
    kernel.return
  }
  // CHECK-LABEL: kernel.func @release_fence
  // CHECK: %v = kernel.load %p, %i : i32
  // CHECK-NEXT: kernel.fence {ordering = "release", scope = "workgroup"}
  // CHECK: ^then:
  // CHECK-NEXT: kernel.store %v
  kernel.func @release_fence {
  ^entry(%p: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %c: i1, %i: i32):
    %v = kernel.load %p, %i : i32
    kernel.fence {ordering = "release", scope = "workgroup"}
    cf.cond_br %c, ^then, ^join
  ^then:
    kernel.store %v, %out, %i
    cf.br ^join
  ^join:
    kernel.return
  }
  // A seq_cst atomic on shared memory (another address space) still orders everything.
  // CHECK-LABEL: kernel.func @seq_cst_atomic
  // CHECK: %v = kernel.load %p, %i : i32
  // CHECK: kernel.atomic add
  // CHECK: ^then:
  // CHECK-NEXT: kernel.store %v
  kernel.func @seq_cst_atomic {
  ^entry(%p: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %c: i1, %i: i32):
    %s = kernel.shared_alloc 64 : !kernel.ptr<shared, i32>
    %v = kernel.load %p, %i : i32
    %o = kernel.atomic add, %s, %i {ordering = "seq_cst", scope = "workgroup"} : i32
    cf.cond_br %c, ^then, ^join
  ^then:
    kernel.store %v, %out, %i
    cf.br ^join
  ^join:
    kernel.return
  }
  // The same atomic relaxed orders only its own element, in another address space.
  // CHECK-LABEL: kernel.func @relaxed_atomic
  // CHECK: kernel.atomic add
  // CHECK: ^then:
  // CHECK-NEXT: %v = kernel.load %p, %i : i32
  kernel.func @relaxed_atomic {
  ^entry(%p: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %c: i1, %i: i32):
    %s = kernel.shared_alloc 64 : !kernel.ptr<shared, i32>
    %v = kernel.load %p, %i : i32
    %o = kernel.atomic add, %s, %i {ordering = "relaxed", scope = "workgroup"} : i32
    cf.cond_br %c, ^then, ^join
  ^then:
    kernel.store %v, %out, %i
    cf.br ^join
  ^join:
    kernel.return
  }
  // A relaxed atomic on the loaded buffer, at an element that may be the loaded one.
  // CHECK-LABEL: kernel.func @relaxed_atomic_may_alias
  // CHECK: %v = kernel.load %p, %i : i32
  // CHECK: kernel.atomic add
  // CHECK: ^then:
  // CHECK-NEXT: kernel.store %v
  kernel.func @relaxed_atomic_may_alias {
  ^entry(%p: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %c: i1, %i: i32):
    %v = kernel.load %p, %i : i32
    %o = kernel.atomic add, %p, %i {ordering = "relaxed", scope = "agent"} : i32
    cf.cond_br %c, ^then, ^join
  ^then:
    kernel.store %v, %out, %i
    cf.br ^join
  ^join:
    kernel.return
  }
  // An acquire load of another buffer: the load may move after it.
  // CHECK-LABEL: kernel.func @acquire_load
  // CHECK: kernel.atomic_load
  // CHECK: ^then:
  // CHECK-NEXT: %v = kernel.load %p, %i : i32
  kernel.func @acquire_load {
  ^entry(%p: !kernel.ptr<global, i32>, %q: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %c: i1, %i: i32):
    %v = kernel.load %p, %i : i32
    %f = kernel.atomic_load %q {ordering = "acquire", scope = "agent"} : i32
    cf.cond_br %c, ^then, ^join
  ^then:
    kernel.store %v, %out, %f
    cf.br ^join
  ^join:
    kernel.return
  }
  // CHECK-LABEL: kernel.func @barrier
  // CHECK: %v = kernel.load %p, %i : i32
  // CHECK-NEXT: kernel.barrier
  kernel.func @barrier {
  ^entry(%p: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %c: i1, %i: i32):
    %v = kernel.load %p, %i : i32
    kernel.barrier
    cf.cond_br %c, ^then, ^join
  ^then:
    kernel.store %v, %out, %i
    cf.br ^join
  ^join:
    kernel.return
  }
  // A store to another constant element of the loaded buffer.
  // CHECK-LABEL: kernel.func @store_elsewhere
  // CHECK: kernel.store %i, %p, %two
  // CHECK: ^then:
  // CHECK: %v = kernel.load %p, %one : i32
  kernel.func @store_elsewhere {
  ^entry(%p: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %c: i1, %i: i32):
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %v = kernel.load %p, %one : i32
    kernel.store %i, %p, %two
    cf.cond_br %c, ^then, ^join
  ^then:
    kernel.store %v, %out, %i
    cf.br ^join
  ^join:
    kernel.return
  }
  // A store to an element of the loaded buffer that may be the loaded one.
  // CHECK-LABEL: kernel.func @store_may_alias
  // CHECK: %v = kernel.load %p, %one : i32
  // CHECK-NEXT: kernel.store %i, %p, %i
  kernel.func @store_may_alias {
  ^entry(%p: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %c: i1, %i: i32):
    %one = arith.constant 1 : i32
    %v = kernel.load %p, %one : i32
    kernel.store %i, %p, %i
    cf.cond_br %c, ^then, ^join
  ^then:
    kernel.store %v, %out, %i
    cf.br ^join
  ^join:
    kernel.return
  }
  // The reader's block has two predecessors: the load would pass the other path's ops.
  // CHECK-LABEL: kernel.func @two_predecessors
  // CHECK: ^entry(
  // CHECK-NEXT: %v = kernel.load %p, %i : i32
  kernel.func @two_predecessors {
  ^entry(%p: !kernel.ptr<global, i32>, %out: !kernel.ptr<global, i32>, %c: i1, %d: i1, %i: i32):
    %v = kernel.load %p, %i : i32
    cf.cond_br %c, ^a, ^join
  ^a:
    cf.cond_br %d, ^use, ^join
  ^use:
    kernel.store %v, %out, %i
    cf.br ^join
  ^join:
    kernel.return
  }
}
