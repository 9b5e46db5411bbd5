kernel.func @exit_arg {
^entry(%out: !kernel.ptr<global, i32>, %n: i32):
  %e = conv.entry : !conv.token
  %tid = kernel.workitem_id x : i32 loc("src.k":2:15)
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  cf.br ^header(%zero : i32)
^header(%i: i32):
  %c = arith.cmpi slt, %i, %n : i32
  cf.cond_br %c, ^body, ^exit(%zero : i32)
^body:
  %d = arith.cmpi eq, %i, %tid : i32 loc("src.k":6:12)
  %i1 = arith.addi %i, %one : i32
  cf.cond_br %d, ^exit(%one : i32), ^header(%i1 : i32) loc("src.k":6:9)
^exit(%r: i32 loc("src.k":3:9)):
  kernel.store %r, %out, %zero : !kernel.ptr<global, i32>, i32
  kernel.return
}
// A loop exit whose argument gets different constants from a uniform and a divergent exit:
// divergent because threads leave on different iterations (kc is stricter than LLVM here,
// see analysis/uniformity.rs). IR input: printed names; locations where the IR has them.
// RUN: %kc %s --explain=r | FileCheck %s
// RUN: %kc %s --emit=uniformity-json | python3 %S/Inputs/check_json.py exit_arg \
// RUN:   divergent=r,d uniform=i,i1 divergent_exit=header divergent_branches=body

// CHECK:      @exit_arg %r: divergent
// CHECK-NEXT:   src.k:3:9: %r is divergent: it is a block argument of ^exit, an exit of the loop (depth=1: entries(^header) ^body) that threads leave on different iterations or paths because of the divergent branch at 6:9
// CHECK-NEXT:   src.k:6:9: the branch at 6:9 (in ^body) is divergent: its condition %d (`arith.cmpi eq, %i, %tid : i32`) is divergent
// CHECK-NEXT:   src.k:6:12: %d (`arith.cmpi eq, %i, %tid : i32`) is divergent: it uses %tid at 2:15
// CHECK-NEXT:   src.k:2:15: %tid is a source of divergence: `kernel.workitem_id x : i32` (each thread has its own id)
// CHECK-NOT: {{.}}
