// LLVM: test/Analysis/UniformityAnalysis/AMDGPU/temporal_diverge.ll, rewritten as kc IR.
// In every kernel the values named %uni.* are uniform and %div.* divergent, as in LLVM; every
// branch on %uni.cond is uniform.
//
// @temporal_diverge: the self-loop H counts %uni.inc and is left on the thread id: the use of
// %uni.inc in X is temporally divergent.
// @temporal_diverge_inloop: the same loop inside an outer loop G (left uniformly from X): the
// uses in X and in Y (after the outer loop) are divergent.
// @temporal_uniform_indivloop: the inner loop H is left uniformly, the outer loop on the
// thread id: the use in X (inside the outer loop) is uniform, the use in Y (after the outer
// loop's divergent exit) divergent.
// @temporal_diverge_loopuser: the user of %uni.inc sits in a sibling loop G after H's
// divergent exit: divergent.
// @temporal_diverge_loopuser_nested: H and the user's loop X are both inside the uniform loop
// G: the user in X is divergent.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @temporal_diverge {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %five = arith.constant 5 : i32
  %tid = kernel.workitem_id x : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  cf.br ^H(%zero : i32)
^H(%uni.merge.h: i32):
  %uni.inc = arith.addi %uni.merge.h, %one : i32
  %div.exitx = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %div.exitx, ^X, ^H(%uni.inc : i32)
^X:
  %div.user = arith.addi %uni.inc, %five : i32
  kernel.return
}
// SUM-LABEL: // uniformity of @temporal_diverge:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H)
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^H)
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %uni.inc used outside cycle depth=1: entries(^H) by: %div.user = arith.addi %uni.inc, %five : i32
// CHECK-LABEL: kernel.func @temporal_diverge {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %five = arith.constant 5 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.br ^H(%zero : i32)
// CHECK-NEXT:  ^H(%uni.merge.h: i32): // %uni.merge.h uniform
// CHECK-NEXT:  %uni.inc = arith.addi %uni.merge.h, %one : i32 // uniform
// CHECK-NEXT:  %div.exitx = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.exitx, ^X, ^H(%uni.inc : i32) // divergent branch; divergent exits: ^X
// CHECK-NEXT:  ^X: // divergent exit of the branch in ^H
// CHECK-NEXT:  %div.user = arith.addi %uni.inc, %five : i32 // divergent
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @temporal_diverge_inloop {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %five = arith.constant 5 : i32
  %tid = kernel.workitem_id x : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  cf.br ^G
^G:
  cf.br ^H(%zero : i32)
^H(%uni.merge.h: i32):
  %uni.inc = arith.addi %uni.merge.h, %one : i32
  %div.exitx = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %div.exitx, ^X, ^H(%uni.inc : i32)
^X:
  %div.user = arith.addi %uni.inc, %five : i32
  cf.cond_br %uni.cond, ^G, ^Y
^Y:
  %div.alsouser = arith.addi %uni.inc, %five : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @temporal_diverge_inloop:
// SUM-NEXT:  //   4 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^G) ^H ^X
// SUM-NEXT:  //     depth=2: entries(^H)
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=2: entries(^H)
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %uni.inc used outside cycle depth=2: entries(^H) by: %div.user = arith.addi %uni.inc, %five : i32
// SUM-NEXT:  //     %uni.inc used outside cycle depth=2: entries(^H) by: %div.alsouser = arith.addi %uni.inc, %five : i32
// CHECK-LABEL: kernel.func @temporal_diverge_inloop {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %five = arith.constant 5 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.br ^G
// CHECK-NEXT:  ^G:
// CHECK-NEXT:  cf.br ^H(%zero : i32)
// CHECK-NEXT:  ^H(%uni.merge.h: i32): // %uni.merge.h uniform
// CHECK-NEXT:  %uni.inc = arith.addi %uni.merge.h, %one : i32 // uniform
// CHECK-NEXT:  %div.exitx = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.exitx, ^X, ^H(%uni.inc : i32) // divergent branch; divergent exits: ^X
// CHECK-NEXT:  ^X: // divergent exit of the branch in ^H
// CHECK-NEXT:  %div.user = arith.addi %uni.inc, %five : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni.cond, ^G, ^Y // uniform branch
// CHECK-NEXT:  ^Y:
// CHECK-NEXT:  %div.alsouser = arith.addi %uni.inc, %five : i32 // divergent
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @temporal_uniform_indivloop {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %five = arith.constant 5 : i32
  %tid = kernel.workitem_id x : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  cf.br ^G
^G:
  cf.br ^H(%zero : i32)
^H(%uni.merge.h: i32):
  %uni.inc = arith.addi %uni.merge.h, %one : i32
  cf.cond_br %uni.cond, ^X, ^H(%uni.inc : i32)
^X:
  %uni.user = arith.addi %uni.inc, %five : i32
  %div.exity = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %div.exity, ^G, ^Y
^Y:
  %div.alsouser = arith.addi %uni.inc, %five : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @temporal_uniform_indivloop:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^G) ^H ^X
// SUM-NEXT:  //     depth=2: entries(^H)
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^G) ^H ^X
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %uni.inc used outside cycle depth=1: entries(^G) ^H ^X by: %div.alsouser = arith.addi %uni.inc, %five : i32
// CHECK-LABEL: kernel.func @temporal_uniform_indivloop {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %five = arith.constant 5 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.br ^G
// CHECK-NEXT:  ^G:
// CHECK-NEXT:  cf.br ^H(%zero : i32)
// CHECK-NEXT:  ^H(%uni.merge.h: i32): // %uni.merge.h uniform
// CHECK-NEXT:  %uni.inc = arith.addi %uni.merge.h, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^X, ^H(%uni.inc : i32) // uniform branch
// CHECK-NEXT:  ^X:
// CHECK-NEXT:  %uni.user = arith.addi %uni.inc, %five : i32 // uniform
// CHECK-NEXT:  %div.exity = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.exity, ^G, ^Y // divergent branch; divergent exits: ^Y
// CHECK-NEXT:  ^Y: // divergent exit of the branch in ^X
// CHECK-NEXT:  %div.alsouser = arith.addi %uni.inc, %five : i32 // divergent
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @temporal_diverge_loopuser {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %five = arith.constant 5 : i32
  %tid = kernel.workitem_id x : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  cf.br ^H(%zero : i32)
^H(%uni.merge.h: i32):
  %uni.inc = arith.addi %uni.merge.h, %one : i32
  %div.exitx = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %div.exitx, ^X, ^H(%uni.inc : i32)
^X:
  cf.br ^G
^G:
  %div.user = arith.addi %uni.inc, %five : i32
  cf.cond_br %uni.cond, ^G, ^Y
^Y:
  kernel.return
}
// SUM-NEXT:  // uniformity of @temporal_diverge_loopuser:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H)
// SUM-NEXT:  //     depth=1: entries(^G)
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^H)
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %uni.inc used outside cycle depth=1: entries(^H) by: %div.user = arith.addi %uni.inc, %five : i32
// CHECK-LABEL: kernel.func @temporal_diverge_loopuser {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %five = arith.constant 5 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.br ^H(%zero : i32)
// CHECK-NEXT:  ^H(%uni.merge.h: i32): // %uni.merge.h uniform
// CHECK-NEXT:  %uni.inc = arith.addi %uni.merge.h, %one : i32 // uniform
// CHECK-NEXT:  %div.exitx = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.exitx, ^X, ^H(%uni.inc : i32) // divergent branch; divergent exits: ^X
// CHECK-NEXT:  ^X: // divergent exit of the branch in ^H
// CHECK-NEXT:  cf.br ^G
// CHECK-NEXT:  ^G:
// CHECK-NEXT:  %div.user = arith.addi %uni.inc, %five : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni.cond, ^G, ^Y // uniform branch
// CHECK-NEXT:  ^Y:
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @temporal_diverge_loopuser_nested {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %five = arith.constant 5 : i32
  %tid = kernel.workitem_id x : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  cf.br ^G
^G:
  cf.br ^H(%zero : i32)
^H(%uni.merge.h: i32):
  %uni.inc = arith.addi %uni.merge.h, %one : i32
  %div.exitx = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %div.exitx, ^X, ^H(%uni.inc : i32)
^X:
  %div.user = arith.addi %uni.inc, %five : i32
  cf.cond_br %uni.cond, ^X, ^G
^Y:
  kernel.return
}
// SUM-NEXT:  // uniformity of @temporal_diverge_loopuser_nested:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^G) ^H ^X
// SUM-NEXT:  //     depth=2: entries(^H)
// SUM-NEXT:  //     depth=2: entries(^X)
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=2: entries(^H)
// SUM-NEXT:  //   temporal divergence:
// SUM-NEXT:  //     %uni.inc used outside cycle depth=2: entries(^H) by: %div.user = arith.addi %uni.inc, %five : i32
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @temporal_diverge_loopuser_nested {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %five = arith.constant 5 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.br ^G
// CHECK-NEXT:  ^G:
// CHECK-NEXT:  cf.br ^H(%zero : i32)
// CHECK-NEXT:  ^H(%uni.merge.h: i32): // %uni.merge.h uniform
// CHECK-NEXT:  %uni.inc = arith.addi %uni.merge.h, %one : i32 // uniform
// CHECK-NEXT:  %div.exitx = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.exitx, ^X, ^H(%uni.inc : i32) // divergent branch; divergent exits: ^X
// CHECK-NEXT:  ^X: // divergent exit of the branch in ^H
// CHECK-NEXT:  %div.user = arith.addi %uni.inc, %five : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni.cond, ^X, ^G // uniform branch
// CHECK-NEXT:  ^Y:
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
