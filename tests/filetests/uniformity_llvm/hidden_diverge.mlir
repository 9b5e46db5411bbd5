// LLVM: test/Analysis/UniformityAnalysis/AMDGPU/hidden_diverge.ll, rewritten as kc IR.
//
// @hidden_diverge: entry branches on the thread id to B or C; B branches uniformly to C or
// merge; C -> merge. C is a join of the entry's branch (entry -> C, entry -> B -> C): its
// argument (1 from entry, 2 from B) is divergent although B's own branch is uniform. merge is
// also a join (entry -> B -> merge, entry -> C -> merge): its argument is divergent.
//
// @hidden_loop_ipd: a loop whose header branches on the thread id (to A or B, rejoining at
// C); C leaves uniformly to E, D leaves on the thread id to F. E and F each have a single
// predecessor in the loop and a constant argument: uniform. G, where they meet, is a join of
// D's divergent exit: its argument is divergent.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @hidden_diverge {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %tid = kernel.workitem_id x : i32
  %cond.var = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %cond.var, ^B, ^C(%one : i32)
^B:
  %cond.uni = arith.cmpi slt, %n, %zero : i32
  cf.cond_br %cond.uni, ^C(%two : i32), ^merge(%a : i32)
^C(%phi.var.hidden: i32):
  cf.br ^merge(%b : i32)
^merge(%phi.ipd: i32):
  kernel.return
}
// SUM-LABEL: // uniformity of @hidden_diverge:
// SUM-NEXT:  //   4 divergent values, 1 divergent branches
// CHECK-LABEL: kernel.func @hidden_diverge {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %two = arith.constant 2 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %cond.var = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.var, ^B, ^C(%one : i32) // divergent branch; joins: ^C ^merge
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  %cond.uni = arith.cmpi slt, %n, %zero : i32 // uniform
// CHECK-NEXT:  cf.cond_br %cond.uni, ^C(%two : i32), ^merge(%a : i32) // uniform branch
// CHECK-NEXT:  ^C(%phi.var.hidden: i32): // %phi.var.hidden divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  cf.br ^merge(%b : i32)
// CHECK-NEXT:  ^merge(%phi.ipd: i32): // %phi.ipd divergent; join of the divergent branch in ^entry
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @hidden_loop_ipd {
^entry(%n: i32, %a: i32, %b: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %tid = kernel.workitem_id x : i32
  %cond.var = arith.cmpi slt, %tid, %zero : i32
  %cond.uni = arith.cmpi slt, %n, %zero : i32
  cf.br ^for.header
^for.header:
  cf.cond_br %cond.var, ^A, ^B
^A:
  cf.br ^C
^B:
  cf.br ^C
^C:
  cf.cond_br %cond.uni, ^E(%zero : i32), ^D
^D:
  cf.cond_br %cond.var, ^for.header, ^F(%one : i32)
^E(%e.lcssa.uni: i32):
  cf.br ^G(%e.lcssa.uni : i32)
^F(%f.lcssa.uni: i32):
  cf.br ^G(%f.lcssa.uni : i32)
^G(%g.join.var: i32):
  kernel.return
}
// SUM-NEXT:  // uniformity of @hidden_loop_ipd:
// SUM-NEXT:  //   3 divergent values, 2 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^for.header) ^A ^C ^D ^B
// SUM-NEXT:  //   cycles with divergent exit:
// SUM-NEXT:  //     depth=1: entries(^for.header) ^A ^C ^D ^B
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @hidden_loop_ipd {
// CHECK-NEXT:  ^entry(%n: i32, %a: i32, %b: i32): // %n uniform, %a uniform, %b uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %cond.var = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %cond.uni = arith.cmpi slt, %n, %zero : i32 // uniform
// CHECK-NEXT:  cf.br ^for.header
// CHECK-NEXT:  ^for.header:
// CHECK-NEXT:  cf.cond_br %cond.var, ^A, ^B // divergent branch; joins: ^C
// CHECK-NEXT:  ^A:
// CHECK-NEXT:  cf.br ^C
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  cf.br ^C
// CHECK-NEXT:  ^C: // join of the divergent branch in ^for.header
// CHECK-NEXT:  cf.cond_br %cond.uni, ^E(%zero : i32), ^D // uniform branch
// CHECK-NEXT:  ^D:
// CHECK-NEXT:  cf.cond_br %cond.var, ^for.header, ^F(%one : i32) // divergent branch; joins: ^G; divergent exits: ^F
// CHECK-NEXT:  ^E(%e.lcssa.uni: i32): // %e.lcssa.uni uniform
// CHECK-NEXT:  cf.br ^G(%e.lcssa.uni : i32)
// CHECK-NEXT:  ^F(%f.lcssa.uni: i32): // %f.lcssa.uni uniform; divergent exit of the branch in ^D
// CHECK-NEXT:  cf.br ^G(%f.lcssa.uni : i32)
// CHECK-NEXT:  ^G(%g.join.var: i32): // %g.join.var divergent; join of the divergent branch in ^D
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
