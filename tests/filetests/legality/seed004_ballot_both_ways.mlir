// Seed 004, example 3: `v = ballot(cond); if (other) use(v)` must not become
// `if (other) use(ballot(cond))` (inside the branch the ballot sees only the threads that
// took it), and the reverse is forbidden too: a ballot inside the branch must not be
// replaced by an equal one before it. sink (the first direction) and cse (the second: the
// later ballot would read the earlier one) both ask legality (co-convergent rule: the same
// threads on both sides). With a divergent `other` neither happens; with a uniform one both
// do.
// RUN: %kc %s --passes=sink | FileCheck %s --check-prefix=SINK
// RUN: %kc %s --passes=cse | FileCheck %s --check-prefix=CSE
// SINK-LABEL: kernel.func @divergent
// SINK: ^entry(
// SINK: %v = kernel.ballot %cond, %e : i64
// SINK: ^then:
// SINK-NEXT: %w = kernel.ballot %cond, %e : i64
// SINK-LABEL: kernel.func @uniform
// SINK: ^then:
// SINK: %v = kernel.ballot %cond, %e : i64
// SINK-NEXT: %w = kernel.ballot %cond, %e : i64
// CSE-LABEL: kernel.func @divergent
// CSE: ^then:
// CSE-NEXT: %w = kernel.ballot %cond, %e : i64
// CSE-NEXT: kernel.store %v, %buf, %t : !kernel.ptr<global, i64>, i32
// CSE-NEXT: kernel.store %w, %buf, %t : !kernel.ptr<global, i64>, i32
// CSE-LABEL: kernel.func @uniform
// CSE: ^then:
// CSE-NEXT: kernel.store %v, %buf, %t : !kernel.ptr<global, i64>, i32
// CSE-NEXT: kernel.store %v, %buf, %t : !kernel.ptr<global, i64>, i32
module {
  kernel.func @divergent {
  ^entry(%buf: !kernel.ptr<global, i64>, %n: i32):
    %e = conv.entry : !conv.token
    %t = kernel.workitem_id x : i32
    %cond = arith.cmpi slt, %t, %n : i32
    %v = kernel.ballot %cond, %e : i64
    %other = arith.cmpi sgt, %t, %n : i32
    cf.cond_br %other, ^then, ^join
  ^then:
    %w = kernel.ballot %cond, %e : i64
    kernel.store %v, %buf, %t : !kernel.ptr<global, i64>, i32
    kernel.store %w, %buf, %t : !kernel.ptr<global, i64>, i32
    cf.br ^join
  ^join:
    kernel.return
  }
  kernel.func @uniform {
  ^entry(%buf: !kernel.ptr<global, i64>, %n: i32, %m: i32):
    %e = conv.entry : !conv.token
    %t = kernel.workitem_id x : i32
    %cond = arith.cmpi slt, %t, %n : i32
    %v = kernel.ballot %cond, %e : i64
    %other = arith.cmpi sgt, %m, %n : i32
    cf.cond_br %other, ^then, ^join
  ^then:
    %w = kernel.ballot %cond, %e : i64
    kernel.store %v, %buf, %t : !kernel.ptr<global, i64>, i32
    kernel.store %w, %buf, %t : !kernel.ptr<global, i64>, i32
    cf.br ^join
  ^join:
    kernel.return
  }
}
