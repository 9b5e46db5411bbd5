// LLVM: test/Analysis/UniformityAnalysis/AMDGPU/always_uniform.ll (and the sources of
// divergence of workitem-intrinsics.ll, atomics.ll, kernel-args.ll and the global loads of
// loads.ll), rewritten for kc's ops.
//
// @readfirstlane: the work-item id is divergent, its readfirstlane uniform.
// @ballot: a ballot is uniform even of a divergent condition (LLVM: the ballot and the
// icmp/fcmp intrinsics, which return the same wave mask to every lane).
// @readlane: readlane of a divergent value at a uniform lane is uniform.
// @workgroup_values: work-group ids, sizes, counts and the wave size are uniform (LLVM: the
// workgroup.id and cluster intrinsics, "ALL VALUES UNIFORM").
// @sources: kernel arguments are uniform; work-item ids (x, y, z), the lane id (LLVM's mbcnt)
// and atomic results (LLVM: every atomicrmw and cmpxchg) are divergent; a global load at a
// uniform index is uniform, at a divergent index divergent (loads.ll); a shared allocation's
// address is uniform.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @readfirstlane {
^entry:
  %id.x = kernel.workitem_id x : i32
  %first.lane = kernel.readfirstlane %id.x : i32
  kernel.return
}
// SUM-LABEL: // uniformity of @readfirstlane:
// SUM-NEXT:  //   1 divergent values, 0 divergent branches
// CHECK-LABEL: kernel.func @readfirstlane {
// CHECK-NEXT:  %entry = conv.entry : !conv.token
// CHECK-NEXT:  %id.x = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %first.lane = kernel.readfirstlane %id.x, %entry : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @ballot {
^entry(%x: i32):
  %id.x = kernel.workitem_id x : i32
  %div = arith.cmpi slt, %id.x, %x : i32
  %uni = arith.cmpi slt, %x, %x : i32
  %ballot.div = kernel.ballot %div : i64
  %ballot.uni = kernel.ballot %uni : i64
  kernel.return
}
// SUM-NEXT:  // uniformity of @ballot:
// SUM-NEXT:  //   2 divergent values, 0 divergent branches
// CHECK-LABEL: kernel.func @ballot {
// CHECK-NEXT:  ^entry(%x: i32): // %x uniform
// CHECK-NEXT:  %entry = conv.entry : !conv.token
// CHECK-NEXT:  %id.x = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %div = arith.cmpi slt, %id.x, %x : i32 // divergent
// CHECK-NEXT:  %uni = arith.cmpi slt, %x, %x : i32 // uniform
// CHECK-NEXT:  %ballot.div = kernel.ballot %div, %entry : i64 // uniform
// CHECK-NEXT:  %ballot.uni = kernel.ballot %uni, %entry : i64 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @readlane {
^entry(%lane: i32):
  %id.x = kernel.workitem_id x : i32
  %v = arith.muli %id.x, %id.x : i32
  %at.lane = kernel.readlane %v, %lane : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @readlane:
// SUM-NEXT:  //   2 divergent values, 0 divergent branches
// CHECK-LABEL: kernel.func @readlane {
// CHECK-NEXT:  ^entry(%lane: i32): // %lane uniform
// CHECK-NEXT:  %entry = conv.entry : !conv.token
// CHECK-NEXT:  %id.x = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %v = arith.muli %id.x, %id.x : i32 // divergent
// CHECK-NEXT:  %at.lane = kernel.readlane %v, %lane, %entry : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @workgroup_values {
^entry(%out: !kernel.ptr<global, i32>):
  %wg.x = kernel.workgroup_id x : i32
  %wg.y = kernel.workgroup_id y : i32
  %wg.z = kernel.workgroup_id z : i32
  %size.x = kernel.workgroup_size x : i32
  %count.x = kernel.num_workgroups x : i32
  %wave = kernel.wave_size : i32
  %sum = arith.addi %wg.x, %size.x : i32
  kernel.store %sum, %out, %wg.y : !kernel.ptr<global, i32>, i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @workgroup_values:
// SUM-NEXT:  //   0 divergent values, 0 divergent branches
// CHECK-LABEL: kernel.func @workgroup_values {
// CHECK-NEXT:  ^entry(%out: !kernel.ptr<global, i32>): // %out uniform
// CHECK-NEXT:  %entry = conv.entry : !conv.token
// CHECK-NEXT:  %wg.x = kernel.workgroup_id x : i32 // uniform
// CHECK-NEXT:  %wg.y = kernel.workgroup_id y : i32 // uniform
// CHECK-NEXT:  %wg.z = kernel.workgroup_id z : i32 // uniform
// CHECK-NEXT:  %size.x = kernel.workgroup_size x : i32 // uniform
// CHECK-NEXT:  %count.x = kernel.num_workgroups x : i32 // uniform
// CHECK-NEXT:  %wave = kernel.wave_size : i32 // uniform
// CHECK-NEXT:  %sum = arith.addi %wg.x, %size.x : i32 // uniform
// CHECK-NEXT:  kernel.store %sum, %out, %wg.y : !kernel.ptr<global, i32>, i32
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @sources {
^entry(%p: !kernel.ptr<global, i32>, %n: i32):
  %id.x = kernel.workitem_id x : i32
  %id.y = kernel.workitem_id y : i32
  %id.z = kernel.workitem_id z : i32
  %lane = kernel.lane_id : i32
  %one = arith.constant 1 : i32
  %rmw = kernel.atomic add, %p, %one {ordering = "seq_cst", scope = "agent"} : !kernel.ptr<global, i32>
  %cas = kernel.atomic_cmpxchg %p, %n, %one {ordering = "seq_cst", scope = "agent"} : !kernel.ptr<global, i32>
  %load.uni = kernel.load %p, %n : !kernel.ptr<global, i32>, i32
  %load.div = kernel.load %p, %id.x : !kernel.ptr<global, i32>, i32
  %tile = kernel.shared_alloc 64 : !kernel.ptr<shared, i32>
  kernel.return
}
// SUM-NEXT:  // uniformity of @sources:
// SUM-NEXT:  //   7 divergent values, 0 divergent branches
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @sources {
// CHECK-NEXT:  ^entry(%p: !kernel.ptr<global, i32>, %n: i32): // %p uniform, %n uniform
// CHECK-NEXT:  %entry = conv.entry : !conv.token
// CHECK-NEXT:  %id.x = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %id.y = kernel.workitem_id y : i32 // divergent
// CHECK-NEXT:  %id.z = kernel.workitem_id z : i32 // divergent
// CHECK-NEXT:  %lane = kernel.lane_id : i32 // divergent
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %rmw = kernel.atomic add, %p, %one {ordering = "seq_cst", scope = "agent"} : !kernel.ptr<global, i32> // divergent
// CHECK-NEXT:  %cas = kernel.atomic_cmpxchg %p, %n, %one {ordering = "seq_cst", scope = "agent"} : !kernel.ptr<global, i32> // divergent
// CHECK-NEXT:  %load.uni = kernel.load %p, %n : !kernel.ptr<global, i32>, i32 // uniform
// CHECK-NEXT:  %load.div = kernel.load %p, %id.x : !kernel.ptr<global, i32>, i32 // divergent
// CHECK-NEXT:  %tile = kernel.shared_alloc 64 : !kernel.ptr<shared, i32> // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
