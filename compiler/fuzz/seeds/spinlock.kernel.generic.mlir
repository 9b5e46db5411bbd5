"builtin.module"() ({
  "kernel.func"() ({
  ^entry(%lock: !kernel.ptr<global, i32> loc("examples/spinlock.k":6:17), %counter: !kernel.ptr<global, i32> loc("examples/spinlock.k":6:41)):
    "kernel.loop"() ({
      %0 = "arith.constant"() <{value = 0 : i32}> : () -> i32 loc("examples/spinlock.k":7:32)
      %1 = "kernel.ptr_offset"(%lock, %0) : (!kernel.ptr<global, i32>, i32) -> !kernel.ptr<global, i32> loc("examples/spinlock.k":7:26)
      %2 = "arith.constant"() <{value = 0 : i32}> : () -> i32 loc("examples/spinlock.k":7:36)
      %3 = "arith.constant"() <{value = 1 : i32}> : () -> i32 loc("examples/spinlock.k":7:39)
      %4 = "kernel.atomic_cmpxchg"(%1, %2, %3) {ordering = "seq_cst", scope = "agent"} : (!kernel.ptr<global, i32>, i32, i32) -> i32 loc("examples/spinlock.k":7:11)
      %5 = "arith.constant"() <{value = 0 : i32}> : () -> i32 loc("examples/spinlock.k":7:45)
      %6 = "arith.cmpi"(%4, %5) <{predicate = 1 : i64}> : (i32, i32) -> i1 loc("examples/spinlock.k":7:11)
      "kernel.if"(%6) ({
        "kernel.yield"() : () -> () loc("examples/spinlock.k":7:11)
      }, {
        "kernel.break"() : () -> () loc("examples/spinlock.k":7:11)
      }) : (i1) -> () loc("examples/spinlock.k":7:11)
      "kernel.yield"() : () -> () loc("examples/spinlock.k":7:47)
    }, {
      "kernel.yield"() : () -> () loc("examples/spinlock.k":7:5)
    }) : () -> () loc("examples/spinlock.k":7:5)
    %7 = "arith.constant"() <{value = 0 : i32}> : () -> i32 loc("examples/spinlock.k":10:13)
    %8 = "arith.constant"() <{value = 0 : i32}> : () -> i32 loc("examples/spinlock.k":10:26)
    %9 = "kernel.load"(%counter, %8) : (!kernel.ptr<global, i32>, i32) -> i32 loc("examples/spinlock.k":10:18)
    %10 = "arith.constant"() <{value = 1 : i32}> : () -> i32 loc("examples/spinlock.k":10:31)
    %11 = "arith.addi"(%9, %10) : (i32, i32) -> i32 loc("examples/spinlock.k":10:18)
    "kernel.store"(%11, %counter, %7) : (i32, !kernel.ptr<global, i32>, i32) -> () loc("examples/spinlock.k":10:5)
    %12 = "arith.constant"() <{value = 0 : i32}> : () -> i32 loc("examples/spinlock.k":11:23)
    %13 = "kernel.ptr_offset"(%lock, %12) : (!kernel.ptr<global, i32>, i32) -> !kernel.ptr<global, i32> loc("examples/spinlock.k":11:17)
    %14 = "arith.constant"() <{value = 0 : i32}> : () -> i32 loc("examples/spinlock.k":11:27)
    %15 = "kernel.atomic"(%13, %14) {kind = "xchg", ordering = "seq_cst", scope = "agent"} : (!kernel.ptr<global, i32>, i32) -> i32 loc("examples/spinlock.k":11:5)
    "kernel.return"() : () -> () loc("examples/spinlock.k":12:1)
  }) {sym_name = "spinlock"} : () -> () loc("examples/spinlock.k":6:1)
}) : () -> ()
