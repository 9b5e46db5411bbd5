// simt-repair on IR input (--passes): the spin lock's back edge goes through a switch block after
// the release; the switch returns to the header on selector 1 and goes on on 0.
// RUN: %kc %s --passes=simt-repair --no-locs | FileCheck %s
// CHECK: ^loop.latch:
// CHECK-NEXT: cf.br ^simt.switch(%c1 : i32)
// CHECK: kernel.atomic xchg
// CHECK-NEXT: cf.br ^simt.switch(%c0 : i32)
// CHECK-NEXT: ^simt.switch(%simt.sel: i32):
// CHECK-NEXT: %[[S:[0-9]+]] = arith.cmpi eq, %simt.sel, %c0 : i32
// CHECK-NEXT: cf.cond_br %[[S]], ^[[AFTER:[a-z0-9._]+]], ^loop.header
// CHECK-NEXT: ^[[AFTER]]:
// CHECK-NEXT: kernel.return
// Running it twice changes nothing more (the release is in the loop now).
// RUN: %kc %s --passes=simt-repair,simt-repair --no-locs | FileCheck %s --check-prefix=TWICE
// TWICE-COUNT-1: ^simt.switch(%simt.sel: i32):
// TWICE-NOT: ^simt.switch{{.*}}: i32):
module {
  kernel.func @spinlock {
  ^entry(%lock: !kernel.ptr<global, i32>, %counter: !kernel.ptr<global, i32>):
    %entry = conv.entry : !conv.token
    cf.br ^loop.header
  ^loop.header:
    %heart = conv.loop %entry : !conv.token
    %0 = arith.constant 0 : i32
    %1 = kernel.ptr_offset %lock, %0 : !kernel.ptr<global, i32>, i32
    %2 = arith.constant 0 : i32
    %3 = arith.constant 1 : i32
    %4 = kernel.atomic_cmpxchg %1, %2, %3 {ordering = "seq_cst", scope = "agent"} : !kernel.ptr<global, i32>
    %5 = arith.constant 0 : i32
    %6 = arith.cmpi ne, %4, %5 : i32
    cf.cond_br %6, ^endif, ^loop.exit
  ^endif:
    cf.br ^loop.latch
  ^loop.latch:
    cf.br ^loop.header
  ^loop.exit:
    %7 = arith.constant 0 : i32
    %8 = arith.constant 0 : i32
    %9 = kernel.load %counter, %8 : !kernel.ptr<global, i32>, i32
    %10 = arith.constant 1 : i32
    %11 = arith.addi %9, %10 : i32
    kernel.store %11, %counter, %7 : !kernel.ptr<global, i32>, i32
    %12 = arith.constant 0 : i32
    %13 = kernel.ptr_offset %lock, %12 : !kernel.ptr<global, i32>, i32
    %14 = arith.constant 0 : i32
    %15 = kernel.atomic xchg, %13, %14 {ordering = "seq_cst", scope = "agent"} : !kernel.ptr<global, i32>
    kernel.return
  }
}
