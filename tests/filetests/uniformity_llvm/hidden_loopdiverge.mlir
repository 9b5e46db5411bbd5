// LLVM: test/Analysis/UniformityAnalysis/AMDGPU/hidden_loopdiverge.ll, rewritten as kc IR.
// In every kernel the values named %uni.* are uniform and %div.* divergent, as in LLVM.
//
// @hidden_loop_diverge: loop H <-> B left from H (to X) and from B (to Y), both on the thread
// id. X's argument receives the header's %uni.merge.h: temporally divergent. Y is reached from
// X and from B: divergent. exit (from X and Y) is divergent: the join is hidden behind the
// uniform branch in X.
// @unobserved_loop_diverge: the same loop, but X's and Y's arguments receive only values
// defined outside the loop: uniform in LLVM 22 and in kc. X is a divergent exit, and kc's exit
// rule (the first departure listed in dialect/src/analysis/uniformity.rs, which catches what
// LLVM misses in divergent_cycle_exit.mlir) compares only the incoming values over edges the
// divergent branch reaches: here only %b from H (the entry's edge is never taken by threads
// that ran the loop), so X's argument stays uniform.
// Y has one predecessor: uniform. exit is divergent in both.
// @hidden_nestedloop_diverge: inner loop G <-> L inside loop H, left divergently from G to C;
// the outer loop becomes divergent through C's exit to Y. Y's and exit's arguments divergent;
// X's argument (from the entry and from B, a uniform exit) uniform.
// @hidden_doublebreak_diverge: G breaks out of both loops to X on the thread id: X's argument
// (temporal) and Y's divergent.
// @hidden_containedloop_diverge: inner loop G <-> L left divergently to B inside a uniform
// outer loop: B's argument divergent; the outer loop's values and X's argument uniform.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @hidden_loop_diverge {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c42 = arith.constant 42 : i32
  %tid = kernel.workitem_id x : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  cf.cond_br %uni.cond, ^X(%a : i32), ^H(%zero : i32)
^H(%uni.merge.h: i32):
  %div.exitx = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %div.exitx, ^X(%uni.merge.h : i32), ^B
^B:
  %uni.inc = arith.addi %uni.merge.h, %one : i32
  %div.exity = arith.cmpi sgt, %tid, %zero : i32
  cf.cond_br %div.exity, ^Y(%b : i32), ^H(%uni.inc : i32)
^X(%div.merge.x: i32):
  cf.cond_br %uni.cond, ^Y(%c42 : i32), ^exit(%a : i32)
^Y(%div.merge.y: i32):
  cf.br ^exit(%b : i32)
^exit(%div.merge.exit: i32):
  kernel.return
}
// SUM-LABEL: // uniformity of @hidden_loop_diverge:
// SUM-NEXT:  //   6 divergent values, 2 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H) ^B
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^H) ^B
// CHECK-LABEL: kernel.func @hidden_loop_diverge {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %c42 = arith.constant 42 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^X(%a : i32), ^H(%zero : i32) // uniform branch
// CHECK-NEXT:  ^H(%uni.merge.h: i32): // %uni.merge.h uniform
// CHECK-NEXT:  %div.exitx = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.exitx, ^X(%uni.merge.h : i32), ^B // divergent branch; joins: ^Y ^exit; divergent exits: ^X
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  %uni.inc = arith.addi %uni.merge.h, %one : i32 // uniform
// CHECK-NEXT:  %div.exity = arith.cmpi sgt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.exity, ^Y(%b : i32), ^H(%uni.inc : i32) // divergent branch; joins: ^Y ^exit; divergent exits: ^Y
// CHECK-NEXT:  ^X(%div.merge.x: i32): // %div.merge.x divergent; divergent exit of the branch in ^H
// CHECK-NEXT:  cf.cond_br %uni.cond, ^Y(%c42 : i32), ^exit(%a : i32) // uniform branch
// CHECK-NEXT:  ^Y(%div.merge.y: i32): // %div.merge.y divergent; join of the divergent branch in ^B; divergent exit of the branch in ^B; join of the divergent branch in ^H
// CHECK-NEXT:  cf.br ^exit(%b : i32)
// CHECK-NEXT:  ^exit(%div.merge.exit: i32): // %div.merge.exit divergent; join of the divergent branch in ^B; join of the divergent branch in ^H
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @unobserved_loop_diverge {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %tid = kernel.workitem_id x : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  cf.cond_br %uni.cond, ^X(%a : i32), ^H(%zero : i32)
^H(%uni.merge.h: i32):
  %div.exitx = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %div.exitx, ^X(%b : i32), ^B
^B:
  %uni.inc = arith.addi %uni.merge.h, %one : i32
  %div.exity = arith.cmpi sgt, %tid, %zero : i32
  cf.cond_br %div.exity, ^Y(%b : i32), ^H(%uni.inc : i32)
^X(%uni.merge.x: i32):
  cf.br ^exit(%a : i32)
^Y(%uni.merge.y: i32):
  cf.br ^exit(%b : i32)
^exit(%div.merge.exit: i32):
  kernel.return
}
// SUM-NEXT:  // uniformity of @unobserved_loop_diverge:
// SUM-NEXT:  //   4 divergent values, 2 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H) ^B
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^H) ^B
// CHECK-LABEL: kernel.func @unobserved_loop_diverge {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^X(%a : i32), ^H(%zero : i32) // uniform branch
// CHECK-NEXT:  ^H(%uni.merge.h: i32): // %uni.merge.h uniform
// CHECK-NEXT:  %div.exitx = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.exitx, ^X(%b : i32), ^B // divergent branch; joins: ^exit; divergent exits: ^X
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  %uni.inc = arith.addi %uni.merge.h, %one : i32 // uniform
// CHECK-NEXT:  %div.exity = arith.cmpi sgt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.exity, ^Y(%b : i32), ^H(%uni.inc : i32) // divergent branch; joins: ^exit; divergent exits: ^Y
// CHECK-NEXT:  ^X(%uni.merge.x: i32): // %uni.merge.x uniform; divergent exit of the branch in ^H
// CHECK-NEXT:  cf.br ^exit(%a : i32)
// CHECK-NEXT:  ^Y(%uni.merge.y: i32): // %uni.merge.y uniform; divergent exit of the branch in ^B
// CHECK-NEXT:  cf.br ^exit(%b : i32)
// CHECK-NEXT:  ^exit(%div.merge.exit: i32): // %div.merge.exit divergent; join of the divergent branch in ^B; join of the divergent branch in ^H
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @hidden_nestedloop_diverge {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c42 = arith.constant 42 : i32
  %tid = kernel.workitem_id x : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  %div.exitx = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %uni.cond, ^X(%a : i32), ^H(%zero : i32)
^H(%uni.merge.h: i32):
  cf.cond_br %uni.cond, ^G, ^B
^B:
  cf.cond_br %uni.cond, ^X(%uni.merge.h : i32), ^C
^C:
  cf.cond_br %uni.cond, ^Y(%b : i32), ^D
^D:
  %uni.inc = arith.addi %uni.merge.h, %one : i32
  cf.br ^H(%uni.inc : i32)
^G:
  cf.cond_br %div.exitx, ^C, ^L
^L:
  cf.cond_br %uni.cond, ^D, ^G
^X(%uni.merge.x: i32):
  cf.cond_br %uni.cond, ^Y(%c42 : i32), ^exit(%a : i32)
^Y(%div.merge.y: i32):
  cf.br ^exit(%b : i32)
^exit(%div.merge.exit: i32):
  kernel.return
}
// SUM-NEXT:  // uniformity of @hidden_nestedloop_diverge:
// SUM-NEXT:  //   5 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H) ^G ^C ^D ^L ^B
// SUM-NEXT:  //     depth=2: entries(^G) ^L
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=2: entries(^G) ^L
// SUM-NEXT:  //     depth=1: entries(^H) ^G ^C ^D ^L ^B
// CHECK-LABEL: kernel.func @hidden_nestedloop_diverge {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %c42 = arith.constant 42 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %div.exitx = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni.cond, ^X(%a : i32), ^H(%zero : i32) // uniform branch
// CHECK-NEXT:  ^H(%uni.merge.h: i32): // %uni.merge.h uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^G, ^B // uniform branch
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  cf.cond_br %uni.cond, ^X(%uni.merge.h : i32), ^C // uniform branch
// CHECK-NEXT:  ^C: // divergent exit of the branch in ^G
// CHECK-NEXT:  cf.cond_br %uni.cond, ^Y(%b : i32), ^D // uniform branch
// CHECK-NEXT:  ^D: // join of the divergent branch in ^G
// CHECK-NEXT:  %uni.inc = arith.addi %uni.merge.h, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^H(%uni.inc : i32)
// CHECK-NEXT:  ^G:
// CHECK-NEXT:  cf.cond_br %div.exitx, ^C, ^L // divergent branch; joins: ^D ^Y ^exit; divergent exits: ^C ^Y
// CHECK-NEXT:  ^L:
// CHECK-NEXT:  cf.cond_br %uni.cond, ^D, ^G // uniform branch
// CHECK-NEXT:  ^X(%uni.merge.x: i32): // %uni.merge.x divergent
// CHECK-NEXT:  cf.cond_br %uni.cond, ^Y(%c42 : i32), ^exit(%a : i32) // uniform branch
// CHECK-NEXT:  ^Y(%div.merge.y: i32): // %div.merge.y divergent; join of the divergent branch in ^G; divergent exit of the branch in ^G
// CHECK-NEXT:  cf.br ^exit(%b : i32)
// CHECK-NEXT:  ^exit(%div.merge.exit: i32): // %div.merge.exit divergent; join of the divergent branch in ^G
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @hidden_doublebreak_diverge {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c42 = arith.constant 42 : i32
  %tid = kernel.workitem_id x : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  %div.exitx = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %uni.cond, ^X(%a : i32), ^H(%zero : i32)
^H(%uni.merge.h: i32):
  cf.cond_br %uni.cond, ^G, ^B
^B:
  cf.cond_br %uni.cond, ^Y(%b : i32), ^C
^C:
  %uni.inc = arith.addi %uni.merge.h, %one : i32
  cf.br ^H(%uni.inc : i32)
^G:
  cf.cond_br %div.exitx, ^X(%uni.merge.h : i32), ^L
^L:
  cf.cond_br %uni.cond, ^C, ^G
^X(%div.merge.x: i32):
  cf.br ^Y(%c42 : i32)
^Y(%div.merge.y: i32):
  kernel.return
}
// SUM-NEXT:  // uniformity of @hidden_doublebreak_diverge:
// SUM-NEXT:  //   4 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H) ^G ^L ^C ^B
// SUM-NEXT:  //     depth=2: entries(^G) ^L
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^H) ^G ^L ^C ^B
// CHECK-LABEL: kernel.func @hidden_doublebreak_diverge {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %c42 = arith.constant 42 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %div.exitx = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni.cond, ^X(%a : i32), ^H(%zero : i32) // uniform branch
// CHECK-NEXT:  ^H(%uni.merge.h: i32): // %uni.merge.h uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^G, ^B // uniform branch
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  cf.cond_br %uni.cond, ^Y(%b : i32), ^C // uniform branch
// CHECK-NEXT:  ^C:
// CHECK-NEXT:  %uni.inc = arith.addi %uni.merge.h, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^H(%uni.inc : i32)
// CHECK-NEXT:  ^G:
// CHECK-NEXT:  cf.cond_br %div.exitx, ^X(%uni.merge.h : i32), ^L // divergent branch; joins: ^Y; divergent exits: ^X
// CHECK-NEXT:  ^L:
// CHECK-NEXT:  cf.cond_br %uni.cond, ^C, ^G // uniform branch
// CHECK-NEXT:  ^X(%div.merge.x: i32): // %div.merge.x divergent; divergent exit of the branch in ^G
// CHECK-NEXT:  cf.br ^Y(%c42 : i32)
// CHECK-NEXT:  ^Y(%div.merge.y: i32): // %div.merge.y divergent; join of the divergent branch in ^G
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @hidden_containedloop_diverge {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c42 = arith.constant 42 : i32
  %c123 = arith.constant 123 : i32
  %tid = kernel.workitem_id x : i32
  %uni.cond = arith.cmpi slt, %a, %zero : i32
  %div.exitx = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %uni.cond, ^X(%a : i32), ^H(%zero : i32)
^H(%uni.merge.h: i32):
  cf.cond_br %uni.cond, ^G(%c123 : i32), ^B(%c42 : i32)
^B(%div.merge.b: i32):
  cf.br ^D
^G(%uni.merge.g: i32):
  cf.cond_br %div.exitx, ^B(%uni.merge.g : i32), ^L
^L:
  %uni.inc.l = arith.addi %uni.merge.g, %one : i32
  cf.cond_br %uni.cond, ^G(%uni.inc.l : i32), ^D
^D:
  %uni.inc.d = arith.addi %uni.merge.h, %one : i32
  cf.cond_br %uni.cond, ^X(%uni.inc.d : i32), ^H(%uni.inc.d : i32)
^X(%uni.merge.x: i32):
  kernel.return
}
// SUM-NEXT:  // uniformity of @hidden_containedloop_diverge:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^H) ^G ^B ^D ^L
// SUM-NEXT:  //     depth=2: entries(^G) ^L
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=2: entries(^G) ^L
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @hidden_containedloop_diverge {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %c42 = arith.constant 42 : i32 // uniform
// CHECK-NEXT:  %c123 = arith.constant 123 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %uni.cond = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %div.exitx = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %uni.cond, ^X(%a : i32), ^H(%zero : i32) // uniform branch
// CHECK-NEXT:  ^H(%uni.merge.h: i32): // %uni.merge.h uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^G(%c123 : i32), ^B(%c42 : i32) // uniform branch
// CHECK-NEXT:  ^B(%div.merge.b: i32): // %div.merge.b divergent; divergent exit of the branch in ^G
// CHECK-NEXT:  cf.br ^D
// CHECK-NEXT:  ^G(%uni.merge.g: i32): // %uni.merge.g uniform
// CHECK-NEXT:  cf.cond_br %div.exitx, ^B(%uni.merge.g : i32), ^L // divergent branch; joins: ^D; divergent exits: ^B
// CHECK-NEXT:  ^L:
// CHECK-NEXT:  %uni.inc.l = arith.addi %uni.merge.g, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^G(%uni.inc.l : i32), ^D // uniform branch
// CHECK-NEXT:  ^D: // join of the divergent branch in ^G
// CHECK-NEXT:  %uni.inc.d = arith.addi %uni.merge.h, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^X(%uni.inc.d : i32), ^H(%uni.inc.d : i32) // uniform branch
// CHECK-NEXT:  ^X(%uni.merge.x: i32): // %uni.merge.x uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
