// Tokens written in structured IR meet the CF rules after lower-to-cf; a violation is the
// user's error (exit 1, no internal compiler error). Here the heart sits in an `if` inside the
// loop, so once lowered it is not in the loop header.
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s
// Stopping before lower-to-cf, the structured kernel is not checked.
// RUN: %kc %s --emit=tokens > /dev/null
kernel.func @k {
^entry(%c: i1, %v: i32):
  %e = conv.entry : !conv.token
  kernel.loop {
    kernel.if %c {
      %h = conv.loop %e : !conv.token loc("tok.k":12:12)
      %x = kernel.readfirstlane %v, %h : i32
      kernel.yield
    } else {
      kernel.break
    }
    kernel.yield
  } latch {
    kernel.yield
  }
  kernel.return
}
// CHECK-NOT: internal compiler error
// CHECK:     tok.k:12:12: error: cycle heart must dominate all blocks in the cycle: `conv.loop` is in ^then, not in the cycle's header ^loop.header
// CHECK-NOT: internal compiler error
