kernel.func @k {
^entry(%c: i1):
  kernel.if %c {
    kernel.break loc("b.k":4:5)
  } else {
    kernel.yield
  }
  kernel.return
}
// RUN: not %kc %s --emit=kernel-ir 2>&1 | FileCheck %s
// CHECK: b.k:4:5: error: `kernel.break` outside of a `kernel.loop`
