// closed-form-loops keeps a loop that an unreachable block branches into (cycle analysis
// does not see that edge; removing the loop would leave the branch dangling), and replaces
// the same loop without it. The IR verifies after the pass.
// RUN: %kc %s --passes=closed-form-loops --verify-each | FileCheck %s
// CHECK-LABEL: kernel.func @entered_from_dead_code
// CHECK: conv.loop
// CHECK: ^dead:
// CHECK-LABEL: kernel.func @plain
// CHECK-NOT: conv.loop
// CHECK: kernel.mulhiu
// CHECK: kernel.return
module {
  kernel.func @entered_from_dead_code {
  ^entry(%out: !kernel.ptr<global, i32>, %n: i32):
    %entry = conv.entry : !conv.token
    %tid = kernel.workitem_id x : i32
    %0 = arith.constant 0 : i32
    %1 = arith.constant 1 : i32
    cf.br ^header(%0, %0 : i32, i32)
  ^header(%i: i32, %s: i32):
    %heart = conv.loop %entry : !conv.token
    %c = arith.cmpi slt, %i, %n : i32
    cf.cond_br %c, ^body, ^exit
  ^body:
    %s1 = arith.addi %s, %i : i32
    %i1 = arith.addi %i, %1 : i32
    cf.br ^latch
  ^dead:
    cf.br ^latch
  ^latch:
    cf.br ^header(%i1, %s1 : i32, i32)
  ^exit:
    kernel.store %s, %out, %tid : !kernel.ptr<global, i32>, i32
    kernel.return
  }
  kernel.func @plain {
  ^entry(%out: !kernel.ptr<global, i32>, %n: i32):
    %entry = conv.entry : !conv.token
    %tid = kernel.workitem_id x : i32
    %0 = arith.constant 0 : i32
    %1 = arith.constant 1 : i32
    cf.br ^header(%0, %0 : i32, i32)
  ^header(%i: i32, %s: i32):
    %heart = conv.loop %entry : !conv.token
    %c = arith.cmpi slt, %i, %n : i32
    cf.cond_br %c, ^body, ^exit
  ^body:
    %s1 = arith.addi %s, %i : i32
    %i1 = arith.addi %i, %1 : i32
    cf.br ^header(%i1, %s1 : i32, i32)
  ^exit:
    kernel.store %s, %out, %tid : !kernel.ptr<global, i32>, i32
    kernel.return
  }
}
