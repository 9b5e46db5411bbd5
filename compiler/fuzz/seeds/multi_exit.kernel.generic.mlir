"builtin.module"() ({
  "kernel.func"() ({
  ^entry(%out: !kernel.ptr<global, i32> loc("examples/multi_exit.k":8:19), %cond: !kernel.ptr<global, i32> loc("examples/multi_exit.k":8:42)):
    %tid = "kernel.workitem_id"() {dim = "x"} : () -> i32 loc("examples/multi_exit.k":9:15)
    %0 = "arith.constant"() <{value = 0 : i32}> : () -> i32 loc("examples/multi_exit.k":10:19)
    %c1 = "kernel.load"(%cond, %0) : (!kernel.ptr<global, i32>, i32) -> i32 loc("examples/multi_exit.k":10:14)
    %1 = "arith.constant"() <{value = 1 : i32}> : () -> i32 loc("examples/multi_exit.k":11:19)
    %c2 = "kernel.load"(%cond, %1) : (!kernel.ptr<global, i32>, i32) -> i32 loc("examples/multi_exit.k":11:14)
    %2 = "arith.cmpi"(%tid, %c1) <{predicate = 4 : i64}> : (i32, i32) -> i1 loc("examples/multi_exit.k":12:8)
    "kernel.if"(%2) ({
      %3 = "arith.constant"() <{value = 1 : i32}> : () -> i32 loc("examples/multi_exit.k":13:13)
      %4 = "arith.constant"() <{value = 0 : i32}> : () -> i32 loc("examples/multi_exit.k":13:18)
      "kernel.store"(%4, %out, %3) : (i32, !kernel.ptr<global, i32>, i32) -> () loc("examples/multi_exit.k":13:9)
      "kernel.return"() : () -> () loc("examples/multi_exit.k":14:9)
    }, {
      "kernel.yield"() : () -> () loc("examples/multi_exit.k":12:5)
    }) : (i1) -> () loc("examples/multi_exit.k":12:5)
    %5 = "arith.cmpi"(%tid, %c2) <{predicate = 4 : i64}> : (i32, i32) -> i1 loc("examples/multi_exit.k":16:8)
    "kernel.if"(%5) ({
      %6 = "arith.constant"() <{value = 1 : i32}> : () -> i32 loc("examples/multi_exit.k":17:13)
      %7 = "arith.constant"() <{value = 0 : i32}> : () -> i32 loc("examples/multi_exit.k":17:18)
      "kernel.store"(%7, %out, %6) : (i32, !kernel.ptr<global, i32>, i32) -> () loc("examples/multi_exit.k":17:9)
      "kernel.return"() : () -> () loc("examples/multi_exit.k":18:9)
    }, {
      "kernel.yield"() : () -> () loc("examples/multi_exit.k":16:5)
    }) : (i1) -> () loc("examples/multi_exit.k":16:5)
    %8 = "arith.constant"() <{value = 0 : i32}> : () -> i32 loc("examples/multi_exit.k":20:9)
    %9 = "arith.constant"() <{value = 42 : i32}> : () -> i32 loc("examples/multi_exit.k":20:14)
    "kernel.store"(%9, %out, %8) : (i32, !kernel.ptr<global, i32>, i32) -> () loc("examples/multi_exit.k":20:5)
    "kernel.return"() : () -> () loc("examples/multi_exit.k":21:1)
  }) {sym_name = "multi_exit"} : () -> () loc("examples/multi_exit.k":8:1)
}) : () -> ()
