// A kernel parameter cannot point to i1 (LANGUAGE.md: bool has no memory representation): no
// host buffer could be bound to it. The verifier says so at the parameter.
kernel.func @k {
^entry(%flags: !kernel.ptr<global, i1> loc("t.k":1:10)):
  kernel.return
}
// RUN: not %kc %s -S 2>&1 | FileCheck %s
// CHECK: t.k:1:10: error: a kernel parameter cannot point to i1
