module {
  kernel.func @spinlock {
  ^entry(%lock: !kernel.ptr<global, i32> loc("examples/spinlock.k":6:17), %counter: !kernel.ptr<global, i32> loc("examples/spinlock.k":6:41)):
    %entry = conv.entry : !conv.token loc("examples/spinlock.k":6:1)
    cf.br ^loop.header loc("examples/spinlock.k":7:5)
  ^loop.header:
    %heart = conv.loop %entry : !conv.token loc("examples/spinlock.k":7:5)
    %0 = arith.constant 0 : i32 loc("examples/spinlock.k":7:32)
    %1 = kernel.ptr_offset %lock, %0 : !kernel.ptr<global, i32> loc("examples/spinlock.k":7:26)
    %2 = arith.constant 0 : i32 loc("examples/spinlock.k":7:36)
    %3 = arith.constant 1 : i32 loc("examples/spinlock.k":7:39)
    %4 = kernel.atomic_cmpxchg %1, %2, %3 {ordering = "seq_cst", scope = "agent"} : i32 loc("examples/spinlock.k":7:11)
    %5 = arith.constant 0 : i32 loc("examples/spinlock.k":7:45)
    %6 = arith.cmpi ne, %4, %5 : i32 loc("examples/spinlock.k":7:11)
    cf.cond_br %6, ^then, ^else loc("examples/spinlock.k":7:11)
  ^then:
    cf.br ^endif loc("examples/spinlock.k":7:11)
  ^else:
    cf.br ^loop.exit loc("examples/spinlock.k":7:11)
  ^endif:
    cf.br ^loop.latch loc("examples/spinlock.k":7:47)
  ^loop.latch:
    cf.br ^loop.header loc("examples/spinlock.k":7:5)
  ^loop.exit:
    %7 = arith.constant 0 : i32 loc("examples/spinlock.k":10:13)
    %8 = arith.constant 0 : i32 loc("examples/spinlock.k":10:26)
    %9 = kernel.load %counter, %8 : i32 loc("examples/spinlock.k":10:18)
    %10 = arith.constant 1 : i32 loc("examples/spinlock.k":10:31)
    %11 = arith.addi %9, %10 : i32 loc("examples/spinlock.k":10:18)
    kernel.store %11, %counter, %7 loc("examples/spinlock.k":10:5)
    %12 = arith.constant 0 : i32 loc("examples/spinlock.k":11:23)
    %13 = kernel.ptr_offset %lock, %12 : !kernel.ptr<global, i32> loc("examples/spinlock.k":11:17)
    %14 = arith.constant 0 : i32 loc("examples/spinlock.k":11:27)
    %15 = kernel.atomic xchg, %13, %14 {ordering = "seq_cst", scope = "agent"} : i32 loc("examples/spinlock.k":11:5)
    kernel.return loc("examples/spinlock.k":12:1)
  } loc("examples/spinlock.k":6:1)
}
