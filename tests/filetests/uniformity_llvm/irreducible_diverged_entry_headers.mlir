// LLVM: test/Analysis/UniformityAnalysis/AMDGPU/irreducible/diverged-entry-headers.ll and
// diverged-entry-headers-nested.ll, rewritten as kc IR. Successor lists are reversed
// relative to the LLVM tests (kc's DFS visits the first successor first, LLVM's the last),
// so kc finds the same headers as LLVM.
//
// One CFG, two headers. entry -> P or T (uniform); P -> R or Q; Q -> S or R on the thread id;
// R -> S; S -> exit or T; T -> P. The cycle {P, Q, R, S, T} has entries P and T. S is the join
// of Q's divergent branch, and Q does not dominate S (P -> R -> S).
// - @t_header: T is the header and does not dominate S, so the simplified diverged-entry
//   criterion fails: the cycle is assumed divergent and every definition in it (the arguments
//   of P, S and T, %ss) is divergent. (The exact criterion would accept this cycle: no entry
//   lies on a diverged path from Q to S; the simplification is conservative.)
// - @p_header: P is the header and strictly dominates S: only S's argument is divergent;
//   P's and T's arguments and %ss are uniform.
//
// The nested variants wrap that cycle in an outer cycle with entries A and B (entry -> A or B,
// A -> B, B -> C or D, C -> P or T, S -> D or T, D -> exit or A):
// - @headers_b_p, @headers_a_p: the inner header P dominates the join S: nothing is assumed
//   divergent, whichever of A and B heads the outer cycle, and no cycle has a divergent exit.
// - @headers_b_t: inner header T does not dominate S, outer header B does: only the inner cycle
//   is assumed divergent (LLVM's test disables these checks; LLVM 22 prints exactly this).
// - @headers_a_t: neither T nor A dominates S: the outer cycle is assumed divergent.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @t_header {
^entry(%a: i32, %b: i32, %c: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %cond.uni = arith.cmpi slt, %a, %zero : i32
  %tid = kernel.workitem_id x : i32
  %cond.div = arith.cmpi slt, %tid, %zero : i32
  %a.div = arith.addi %tid, %a : i32
  cf.cond_br %cond.uni, ^T(%a : i32), ^P(%a : i32)
^P(%pp.phi: i32):
  %pp = arith.addi %b, %one : i32
  cf.cond_br %cond.uni, ^Q, ^R
^Q:
  %qq = arith.addi %b, %one : i32
  cf.cond_br %cond.div, ^R, ^S(%qq : i32)
^R:
  %rr = arith.addi %b, %one : i32
  cf.br ^S(%rr : i32)
^S(%s.phi: i32):
  %ss = arith.addi %pp.phi, %one : i32
  cf.cond_br %cond.uni, ^T(%ss : i32), ^exit
^T(%tt.phi: i32):
  %tt = arith.addi %b, %one : i32
  cf.br ^P(%b : i32)
^exit:
  %ee = arith.addi %b, %one : i32
  kernel.return
}
// SUM-LABEL: // uniformity of @t_header:
// SUM-NEXT:  //   11 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^T ^P) ^Q ^R ^S
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^T ^P) ^Q ^R ^S
// CHECK-LABEL: kernel.func @t_header {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32, %c: i32): // %a uniform, %b uniform, %c uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %cond.uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %cond.div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %a.div = arith.addi %tid, %a : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^T(%a : i32), ^P(%a : i32) // uniform branch
// CHECK-NEXT:  ^P(%pp.phi: i32): // %pp.phi divergent
// CHECK-NEXT:  %pp = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^Q, ^R // uniform branch
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.div, ^R, ^S(%qq : i32) // divergent branch; joins: ^S ^R
// CHECK-NEXT:  ^R: // join of the divergent branch in ^Q
// CHECK-NEXT:  %rr = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^S(%rr : i32)
// CHECK-NEXT:  ^S(%s.phi: i32): // %s.phi divergent; join of the divergent branch in ^Q
// CHECK-NEXT:  %ss = arith.addi %pp.phi, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^T(%ss : i32), ^exit // uniform branch
// CHECK-NEXT:  ^T(%tt.phi: i32): // %tt.phi divergent
// CHECK-NEXT:  %tt = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^P(%b : i32)
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  %ee = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @p_header {
^entry(%a: i32, %b: i32, %c: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %cond.uni = arith.cmpi slt, %a, %zero : i32
  %tid = kernel.workitem_id x : i32
  %cond.div = arith.cmpi slt, %tid, %zero : i32
  cf.cond_br %cond.uni, ^P(%a : i32), ^T(%a : i32)
^P(%pp.phi: i32):
  %pp = arith.addi %b, %one : i32
  cf.cond_br %cond.uni, ^Q, ^R
^Q:
  %qq = arith.addi %b, %one : i32
  cf.cond_br %cond.div, ^R, ^S(%qq : i32)
^R:
  %rr = arith.addi %b, %one : i32
  cf.br ^S(%rr : i32)
^S(%s.phi: i32):
  %ss = arith.addi %pp.phi, %one : i32
  cf.cond_br %cond.uni, ^T(%ss : i32), ^exit
^T(%tt.phi: i32):
  %tt = arith.addi %b, %one : i32
  cf.br ^P(%b : i32)
^exit:
  %ee = arith.addi %b, %one : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @p_header:
// SUM-NEXT:  //   3 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^P ^T) ^Q ^R ^S
// CHECK-LABEL: kernel.func @p_header {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32, %c: i32): // %a uniform, %b uniform, %c uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %cond.uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %cond.div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^P(%a : i32), ^T(%a : i32) // uniform branch
// CHECK-NEXT:  ^P(%pp.phi: i32): // %pp.phi uniform
// CHECK-NEXT:  %pp = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %cond.uni, ^Q, ^R // uniform branch
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %cond.div, ^R, ^S(%qq : i32) // divergent branch; joins: ^S ^R
// CHECK-NEXT:  ^R: // join of the divergent branch in ^Q
// CHECK-NEXT:  %rr = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^S(%rr : i32)
// CHECK-NEXT:  ^S(%s.phi: i32): // %s.phi divergent; join of the divergent branch in ^Q
// CHECK-NEXT:  %ss = arith.addi %pp.phi, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %cond.uni, ^T(%ss : i32), ^exit // uniform branch
// CHECK-NEXT:  ^T(%tt.phi: i32): // %tt.phi uniform
// CHECK-NEXT:  %tt = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^P(%b : i32)
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  %ee = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @headers_b_p {
^entry(%a: i32, %b: i32, %c: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %cond.uni = arith.cmpi slt, %a, %zero : i32
  %tid = kernel.workitem_id x : i32
  %cond.div = arith.cmpi slt, %tid, %zero : i32
  %a.div = arith.addi %tid, %a : i32
  cf.cond_br %cond.uni, ^A, ^B
^A:
  cf.br ^B
^B:
  cf.cond_br %cond.uni, ^D, ^C
^C:
  cf.cond_br %cond.uni, ^P(%a : i32), ^T(%a : i32)
^P(%pp.phi: i32):
  %pp = arith.addi %b, %one : i32
  cf.cond_br %cond.uni, ^Q, ^R
^Q:
  %qq = arith.addi %b, %one : i32
  cf.cond_br %cond.div, ^R, ^S(%qq : i32)
^R:
  %rr = arith.addi %b, %one : i32
  cf.br ^S(%rr : i32)
^S(%s.phi: i32):
  %ss = arith.addi %pp.phi, %one : i32
  cf.cond_br %cond.uni, ^T(%ss : i32), ^D
^D:
  cf.cond_br %cond.uni, ^A, ^exit
^T(%tt.phi: i32):
  %tt = arith.addi %b, %one : i32
  cf.br ^P(%b : i32)
^exit:
  %ee = arith.addi %b, %one : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @headers_b_p:
// SUM-NEXT:  //   4 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^A ^B) ^D ^C ^P ^Q ^R ^S ^T
// SUM-NEXT:  //     depth=2: entries(^P ^T) ^Q ^R ^S
// CHECK-LABEL: kernel.func @headers_b_p {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32, %c: i32): // %a uniform, %b uniform, %c uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %cond.uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %cond.div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %a.div = arith.addi %tid, %a : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^A, ^B // uniform branch
// CHECK-NEXT:  ^A:
// CHECK-NEXT:  cf.br ^B
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  cf.cond_br %cond.uni, ^D, ^C // uniform branch
// CHECK-NEXT:  ^C:
// CHECK-NEXT:  cf.cond_br %cond.uni, ^P(%a : i32), ^T(%a : i32) // uniform branch
// CHECK-NEXT:  ^P(%pp.phi: i32): // %pp.phi uniform
// CHECK-NEXT:  %pp = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %cond.uni, ^Q, ^R // uniform branch
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %cond.div, ^R, ^S(%qq : i32) // divergent branch; joins: ^S ^R
// CHECK-NEXT:  ^R: // join of the divergent branch in ^Q
// CHECK-NEXT:  %rr = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^S(%rr : i32)
// CHECK-NEXT:  ^S(%s.phi: i32): // %s.phi divergent; join of the divergent branch in ^Q
// CHECK-NEXT:  %ss = arith.addi %pp.phi, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %cond.uni, ^T(%ss : i32), ^D // uniform branch
// CHECK-NEXT:  ^D:
// CHECK-NEXT:  cf.cond_br %cond.uni, ^A, ^exit // uniform branch
// CHECK-NEXT:  ^T(%tt.phi: i32): // %tt.phi uniform
// CHECK-NEXT:  %tt = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^P(%b : i32)
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  %ee = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @headers_a_p {
^entry(%a: i32, %b: i32, %c: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %cond.uni = arith.cmpi slt, %a, %zero : i32
  %tid = kernel.workitem_id x : i32
  %cond.div = arith.cmpi slt, %tid, %zero : i32
  %a.div = arith.addi %tid, %a : i32
  cf.cond_br %cond.uni, ^A, ^B
^A:
  cf.br ^B
^B:
  cf.cond_br %cond.uni, ^D, ^C
^C:
  cf.cond_br %cond.uni, ^P(%a : i32), ^T(%a : i32)
^P(%pp.phi: i32):
  %pp = arith.addi %b, %one : i32
  cf.cond_br %cond.uni, ^Q, ^R
^Q:
  %qq = arith.addi %b, %one : i32
  cf.cond_br %cond.div, ^R, ^S(%qq : i32)
^R:
  %rr = arith.addi %b, %one : i32
  cf.br ^S(%rr : i32)
^S(%s.phi: i32):
  %ss = arith.addi %pp.phi, %one : i32
  cf.cond_br %cond.uni, ^T(%ss : i32), ^D
^D:
  cf.cond_br %cond.uni, ^A, ^exit
^T(%tt.phi: i32):
  %tt = arith.addi %b, %one : i32
  cf.br ^P(%b : i32)
^exit:
  %ee = arith.addi %b, %one : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @headers_a_p:
// SUM-NEXT:  //   4 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^A ^B) ^D ^C ^P ^Q ^R ^S ^T
// SUM-NEXT:  //     depth=2: entries(^P ^T) ^Q ^R ^S
// CHECK-LABEL: kernel.func @headers_a_p {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32, %c: i32): // %a uniform, %b uniform, %c uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %cond.uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %cond.div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %a.div = arith.addi %tid, %a : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^A, ^B // uniform branch
// CHECK-NEXT:  ^A:
// CHECK-NEXT:  cf.br ^B
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  cf.cond_br %cond.uni, ^D, ^C // uniform branch
// CHECK-NEXT:  ^C:
// CHECK-NEXT:  cf.cond_br %cond.uni, ^P(%a : i32), ^T(%a : i32) // uniform branch
// CHECK-NEXT:  ^P(%pp.phi: i32): // %pp.phi uniform
// CHECK-NEXT:  %pp = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %cond.uni, ^Q, ^R // uniform branch
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %cond.div, ^R, ^S(%qq : i32) // divergent branch; joins: ^S ^R
// CHECK-NEXT:  ^R: // join of the divergent branch in ^Q
// CHECK-NEXT:  %rr = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^S(%rr : i32)
// CHECK-NEXT:  ^S(%s.phi: i32): // %s.phi divergent; join of the divergent branch in ^Q
// CHECK-NEXT:  %ss = arith.addi %pp.phi, %one : i32 // uniform
// CHECK-NEXT:  cf.cond_br %cond.uni, ^T(%ss : i32), ^D // uniform branch
// CHECK-NEXT:  ^D:
// CHECK-NEXT:  cf.cond_br %cond.uni, ^A, ^exit // uniform branch
// CHECK-NEXT:  ^T(%tt.phi: i32): // %tt.phi uniform
// CHECK-NEXT:  %tt = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  cf.br ^P(%b : i32)
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  %ee = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @headers_b_t {
^entry(%a: i32, %b: i32, %c: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %cond.uni = arith.cmpi slt, %a, %zero : i32
  %tid = kernel.workitem_id x : i32
  %cond.div = arith.cmpi slt, %tid, %zero : i32
  %a.div = arith.addi %tid, %a : i32
  cf.cond_br %cond.uni, ^B, ^A
^A:
  cf.br ^B
^B:
  cf.cond_br %cond.uni, ^D, ^C
^C:
  cf.cond_br %cond.uni, ^T(%a : i32), ^P(%a : i32)
^P(%pp.phi: i32):
  %pp = arith.addi %b, %one : i32
  cf.cond_br %cond.uni, ^Q, ^R
^Q:
  %qq = arith.addi %b, %one : i32
  cf.cond_br %cond.div, ^R, ^S(%qq : i32)
^R:
  %rr = arith.addi %b, %one : i32
  cf.br ^S(%rr : i32)
^S(%s.phi: i32):
  %ss = arith.addi %pp.phi, %one : i32
  cf.cond_br %cond.uni, ^T(%ss : i32), ^D
^D:
  cf.cond_br %cond.uni, ^A, ^exit
^T(%tt.phi: i32):
  %tt = arith.addi %b, %one : i32
  cf.br ^P(%b : i32)
^exit:
  %ee = arith.addi %b, %one : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @headers_b_t:
// SUM-NEXT:  //   11 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^B ^A) ^D ^C ^T ^P ^Q ^R ^S
// SUM-NEXT:  //     depth=2: entries(^T ^P) ^Q ^R ^S
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=2: entries(^T ^P) ^Q ^R ^S
// CHECK-LABEL: kernel.func @headers_b_t {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32, %c: i32): // %a uniform, %b uniform, %c uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %cond.uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %cond.div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %a.div = arith.addi %tid, %a : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^B, ^A // uniform branch
// CHECK-NEXT:  ^A:
// CHECK-NEXT:  cf.br ^B
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  cf.cond_br %cond.uni, ^D, ^C // uniform branch
// CHECK-NEXT:  ^C:
// CHECK-NEXT:  cf.cond_br %cond.uni, ^T(%a : i32), ^P(%a : i32) // uniform branch
// CHECK-NEXT:  ^P(%pp.phi: i32): // %pp.phi divergent
// CHECK-NEXT:  %pp = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^Q, ^R // uniform branch
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.div, ^R, ^S(%qq : i32) // divergent branch; joins: ^S ^R
// CHECK-NEXT:  ^R: // join of the divergent branch in ^Q
// CHECK-NEXT:  %rr = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^S(%rr : i32)
// CHECK-NEXT:  ^S(%s.phi: i32): // %s.phi divergent; join of the divergent branch in ^Q
// CHECK-NEXT:  %ss = arith.addi %pp.phi, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^T(%ss : i32), ^D // uniform branch
// CHECK-NEXT:  ^D:
// CHECK-NEXT:  cf.cond_br %cond.uni, ^A, ^exit // uniform branch
// CHECK-NEXT:  ^T(%tt.phi: i32): // %tt.phi divergent
// CHECK-NEXT:  %tt = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^P(%b : i32)
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  %ee = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @headers_a_t {
^entry(%a: i32, %b: i32, %c: i32):
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %cond.uni = arith.cmpi slt, %a, %zero : i32
  %tid = kernel.workitem_id x : i32
  %cond.div = arith.cmpi slt, %tid, %zero : i32
  %a.div = arith.addi %tid, %a : i32
  cf.cond_br %cond.uni, ^A, ^B
^A:
  cf.br ^B
^B:
  cf.cond_br %cond.uni, ^D, ^C
^C:
  cf.cond_br %cond.uni, ^T(%a : i32), ^P(%a : i32)
^P(%pp.phi: i32):
  %pp = arith.addi %b, %one : i32
  cf.cond_br %cond.uni, ^Q, ^R
^Q:
  %qq = arith.addi %b, %one : i32
  cf.cond_br %cond.div, ^R, ^S(%qq : i32)
^R:
  %rr = arith.addi %b, %one : i32
  cf.br ^S(%rr : i32)
^S(%s.phi: i32):
  %ss = arith.addi %pp.phi, %one : i32
  cf.cond_br %cond.uni, ^T(%ss : i32), ^D
^D:
  cf.cond_br %cond.uni, ^A, ^exit
^T(%tt.phi: i32):
  %tt = arith.addi %b, %one : i32
  cf.br ^P(%b : i32)
^exit:
  %ee = arith.addi %b, %one : i32
  kernel.return
}
// SUM-NEXT:  // uniformity of @headers_a_t:
// SUM-NEXT:  //   11 divergent values, 1 divergent branches
// SUM-NEXT:  //   cycles:
// SUM-NEXT:  //     depth=1: entries(^A ^B) ^D ^C ^T ^P ^Q ^R ^S
// SUM-NEXT:  //     depth=2: entries(^T ^P) ^Q ^R ^S
// SUM-NEXT:  //   cycles assumed divergent:
// SUM-NEXT:  //     depth=1: entries(^A ^B) ^D ^C ^T ^P ^Q ^R ^S
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @headers_a_t {
// CHECK-NEXT:  ^entry(%a: i32, %b: i32, %c: i32): // %a uniform, %b uniform, %c uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %one = arith.constant 1 : i32 // uniform
// CHECK-NEXT:  %cond.uni = arith.cmpi slt, %a, %zero : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %cond.div = arith.cmpi slt, %tid, %zero : i32 // divergent
// CHECK-NEXT:  %a.div = arith.addi %tid, %a : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^A, ^B // uniform branch
// CHECK-NEXT:  ^A:
// CHECK-NEXT:  cf.br ^B
// CHECK-NEXT:  ^B:
// CHECK-NEXT:  cf.cond_br %cond.uni, ^D, ^C // uniform branch
// CHECK-NEXT:  ^C:
// CHECK-NEXT:  cf.cond_br %cond.uni, ^T(%a : i32), ^P(%a : i32) // uniform branch
// CHECK-NEXT:  ^P(%pp.phi: i32): // %pp.phi divergent
// CHECK-NEXT:  %pp = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^Q, ^R // uniform branch
// CHECK-NEXT:  ^Q:
// CHECK-NEXT:  %qq = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.div, ^R, ^S(%qq : i32) // divergent branch; joins: ^S ^R
// CHECK-NEXT:  ^R: // join of the divergent branch in ^Q
// CHECK-NEXT:  %rr = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^S(%rr : i32)
// CHECK-NEXT:  ^S(%s.phi: i32): // %s.phi divergent; join of the divergent branch in ^Q
// CHECK-NEXT:  %ss = arith.addi %pp.phi, %one : i32 // divergent
// CHECK-NEXT:  cf.cond_br %cond.uni, ^T(%ss : i32), ^D // uniform branch
// CHECK-NEXT:  ^D:
// CHECK-NEXT:  cf.cond_br %cond.uni, ^A, ^exit // uniform branch
// CHECK-NEXT:  ^T(%tt.phi: i32): // %tt.phi divergent
// CHECK-NEXT:  %tt = arith.addi %b, %one : i32 // divergent
// CHECK-NEXT:  cf.br ^P(%b : i32)
// CHECK-NEXT:  ^exit:
// CHECK-NEXT:  %ee = arith.addi %b, %one : i32 // uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
