// LLVM: test/Analysis/UniformityAnalysis/AMDGPU/branch-after-join.ll and
// unstructured-branch.ll, rewritten as kc IR.
//
// @test_ctrl_divergence (branch-after-join.ll): Entry branches on the thread id into two
// chains B0 -> B1 and B3 -> B4 that meet at B5 (arguments %div_a, %div_b divergent). B6 then
// branches on a kernel argument: that branch is uniform, and its own join B11's argument
// %div_d (despite the name) is uniform: the divergence of Entry's branch ends at B5.
//
// @test_ctrl_divergence_unstructured (unstructured-branch.ll): Alpha branches uniformly to
// Entry or B4; Entry branches on the thread id to B0 (-> B1 -> B2) or B3 (-> B4). The chains
// rejoin only at B6, through uniform diamonds after B2 and after B4: B6's three arguments are
// divergent. B4 (reached from Alpha and from B3) has no arguments.
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s --check-prefix=SUM
// RUN: %kc %s -O0 --emit=uniformity --no-locs | FileCheck %s
kernel.func @test_ctrl_divergence {
^Entry(%a: i32, %b: i32, %c: i32, %d: i32):
  %zero = arith.constant 0 : i32
  %tid = kernel.workitem_id x : i32
  %div.cond = arith.cmpi eq, %tid, %zero : i32
  cf.cond_br %div.cond, ^B3, ^B0
^B0:
  %a0 = arith.addi %a, %a : i32
  cf.br ^B1
^B1:
  %b0 = arith.addi %b, %b : i32
  cf.br ^B5(%a0, %b0 : i32, i32)
^B3:
  %a1 = arith.muli %a, %a : i32
  cf.br ^B4
^B4:
  %b1 = arith.muli %b, %b : i32
  cf.br ^B5(%a1, %b1 : i32, i32)
^B5(%div_a: i32, %div_b: i32):
  cf.br ^B6
^B6:
  %uni.cond = arith.cmpi eq, %c, %zero : i32
  cf.cond_br %uni.cond, ^B7, ^B9
^B7:
  %d1 = arith.addi %d, %d : i32
  cf.br ^B8
^B8:
  cf.br ^B11(%d1 : i32)
^B9:
  %d2 = arith.muli %d, %d : i32
  cf.br ^B10
^B10:
  cf.br ^B11(%d2 : i32)
^B11(%div_d: i32):
  kernel.return
}
// SUM-LABEL: // uniformity of @test_ctrl_divergence:
// SUM-NEXT:  //   4 divergent values, 1 divergent branches
// CHECK-LABEL: kernel.func @test_ctrl_divergence {
// CHECK-NEXT:  ^Entry(%a: i32, %b: i32, %c: i32, %d: i32): // %a uniform, %b uniform, %c uniform, %d uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %div.cond = arith.cmpi eq, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.cond, ^B3, ^B0 // divergent branch; joins: ^B5
// CHECK-NEXT:  ^B0:
// CHECK-NEXT:  %a0 = arith.addi %a, %a : i32 // uniform
// CHECK-NEXT:  cf.br ^B1
// CHECK-NEXT:  ^B1:
// CHECK-NEXT:  %b0 = arith.addi %b, %b : i32 // uniform
// CHECK-NEXT:  cf.br ^B5(%a0, %b0 : i32, i32)
// CHECK-NEXT:  ^B3:
// CHECK-NEXT:  %a1 = arith.muli %a, %a : i32 // uniform
// CHECK-NEXT:  cf.br ^B4
// CHECK-NEXT:  ^B4:
// CHECK-NEXT:  %b1 = arith.muli %b, %b : i32 // uniform
// CHECK-NEXT:  cf.br ^B5(%a1, %b1 : i32, i32)
// CHECK-NEXT:  ^B5(%div_a: i32, %div_b: i32): // %div_a divergent, %div_b divergent; join of the divergent branch in ^Entry
// CHECK-NEXT:  cf.br ^B6
// CHECK-NEXT:  ^B6:
// CHECK-NEXT:  %uni.cond = arith.cmpi eq, %c, %zero : i32 // uniform
// CHECK-NEXT:  cf.cond_br %uni.cond, ^B7, ^B9 // uniform branch
// CHECK-NEXT:  ^B7:
// CHECK-NEXT:  %d1 = arith.addi %d, %d : i32 // uniform
// CHECK-NEXT:  cf.br ^B8
// CHECK-NEXT:  ^B8:
// CHECK-NEXT:  cf.br ^B11(%d1 : i32)
// CHECK-NEXT:  ^B9:
// CHECK-NEXT:  %d2 = arith.muli %d, %d : i32 // uniform
// CHECK-NEXT:  cf.br ^B10
// CHECK-NEXT:  ^B10:
// CHECK-NEXT:  cf.br ^B11(%d2 : i32)
// CHECK-NEXT:  ^B11(%div_d: i32): // %div_d uniform
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }

kernel.func @test_ctrl_divergence_unstructured {
^Alpha(%a: i32, %b: i32, %c: i32, %d: i32):
  %zero = arith.constant 0 : i32
  %tid = kernel.workitem_id x : i32
  %div.uni = arith.cmpi eq, %a, %zero : i32
  cf.cond_br %div.uni, ^Entry, ^B4
^Entry:
  %div.cond = arith.cmpi eq, %tid, %zero : i32
  cf.cond_br %div.cond, ^B3, ^B0
^B0:
  cf.br ^B1
^B1:
  cf.br ^B2
^B2:
  %a0 = arith.addi %a, %a : i32
  %b0 = arith.addi %b, %b : i32
  %c0 = arith.addi %c, %c : i32
  cf.cond_br %div.uni, ^B201, ^B202
^B201:
  cf.br ^B202
^B202:
  cf.br ^B6(%a0, %b0, %c0 : i32, i32, i32)
^B3:
  cf.br ^B4
^B4:
  %a1 = arith.muli %a, %a : i32
  %b1 = arith.muli %b, %b : i32
  %c1 = arith.muli %c, %c : i32
  cf.cond_br %div.uni, ^B5, ^B501
^B5:
  cf.br ^B501
^B501:
  cf.br ^B502
^B502:
  cf.br ^B6(%a1, %b1, %c1 : i32, i32, i32)
^B6(%div_a: i32, %div_b: i32, %div_c: i32):
  kernel.return
}
// SUM-NEXT:  // uniformity of @test_ctrl_divergence_unstructured:
// SUM-NEXT:  //   5 divergent values, 1 divergent branches
// SUM-NEXT:  module {
// CHECK-LABEL: kernel.func @test_ctrl_divergence_unstructured {
// CHECK-NEXT:  ^Alpha(%a: i32, %b: i32, %c: i32, %d: i32): // %a uniform, %b uniform, %c uniform, %d uniform
// CHECK-NEXT:  %zero = arith.constant 0 : i32 // uniform
// CHECK-NEXT:  %tid = kernel.workitem_id x : i32 // divergent
// CHECK-NEXT:  %div.uni = arith.cmpi eq, %a, %zero : i32 // uniform
// CHECK-NEXT:  cf.cond_br %div.uni, ^Entry, ^B4 // uniform branch
// CHECK-NEXT:  ^Entry:
// CHECK-NEXT:  %div.cond = arith.cmpi eq, %tid, %zero : i32 // divergent
// CHECK-NEXT:  cf.cond_br %div.cond, ^B3, ^B0 // divergent branch; joins: ^B6
// CHECK-NEXT:  ^B0:
// CHECK-NEXT:  cf.br ^B1
// CHECK-NEXT:  ^B1:
// CHECK-NEXT:  cf.br ^B2
// CHECK-NEXT:  ^B2:
// CHECK-NEXT:  %a0 = arith.addi %a, %a : i32 // uniform
// CHECK-NEXT:  %b0 = arith.addi %b, %b : i32 // uniform
// CHECK-NEXT:  %c0 = arith.addi %c, %c : i32 // uniform
// CHECK-NEXT:  cf.cond_br %div.uni, ^B201, ^B202 // uniform branch
// CHECK-NEXT:  ^B201:
// CHECK-NEXT:  cf.br ^B202
// CHECK-NEXT:  ^B202:
// CHECK-NEXT:  cf.br ^B6(%a0, %b0, %c0 : i32, i32, i32)
// CHECK-NEXT:  ^B3:
// CHECK-NEXT:  cf.br ^B4
// CHECK-NEXT:  ^B4:
// CHECK-NEXT:  %a1 = arith.muli %a, %a : i32 // uniform
// CHECK-NEXT:  %b1 = arith.muli %b, %b : i32 // uniform
// CHECK-NEXT:  %c1 = arith.muli %c, %c : i32 // uniform
// CHECK-NEXT:  cf.cond_br %div.uni, ^B5, ^B501 // uniform branch
// CHECK-NEXT:  ^B5:
// CHECK-NEXT:  cf.br ^B501
// CHECK-NEXT:  ^B501:
// CHECK-NEXT:  cf.br ^B502
// CHECK-NEXT:  ^B502:
// CHECK-NEXT:  cf.br ^B6(%a1, %b1, %c1 : i32, i32, i32)
// CHECK-NEXT:  ^B6(%div_a: i32, %div_b: i32, %div_c: i32): // %div_a divergent, %div_b divergent, %div_c divergent; join of the divergent branch in ^Entry
// CHECK-NEXT:  kernel.return
// CHECK-NEXT:  }
