"builtin.module"() ({
  "kernel.func"() ({
  ^entry(%out: !kernel.ptr<global, i32> loc("examples/diamond.k":3:16)):
    %tid = "kernel.workitem_id"() {dim = "x"} : () -> i32 loc("examples/diamond.k":4:15)
    %0 = "arith.constant"() <{value = 0 : i32}> : () -> i32 loc("examples/diamond.k":5:15)
    %1 = "arith.cmpi"(%tid, %0) <{predicate = 0 : i64}> : (i32, i32) -> i1 loc("examples/diamond.k":5:8)
    "kernel.if"(%1) ({
      %2 = "arith.constant"() <{value = 0 : i32}> : () -> i32 loc("examples/diamond.k":5:23)
      %3 = "arith.constant"() <{value = 1 : i32}> : () -> i32 loc("examples/diamond.k":5:28)
      "kernel.store"(%3, %out, %2) : (i32, !kernel.ptr<global, i32>, i32) -> () loc("examples/diamond.k":5:19)
      "kernel.yield"() : () -> () loc("examples/diamond.k":5:17)
    }, {
      %4 = "arith.constant"() <{value = 1 : i32}> : () -> i32 loc("examples/diamond.k":5:44)
      %5 = "arith.constant"() <{value = 2 : i32}> : () -> i32 loc("examples/diamond.k":5:49)
      "kernel.store"(%5, %out, %4) : (i32, !kernel.ptr<global, i32>, i32) -> () loc("examples/diamond.k":5:40)
      "kernel.yield"() : () -> () loc("examples/diamond.k":5:38)
    }) : (i1) -> () loc("examples/diamond.k":5:5)
    %6 = "arith.constant"() <{value = 2 : i32}> : () -> i32 loc("examples/diamond.k":6:9)
    %7 = "arith.constant"() <{value = 3 : i32}> : () -> i32 loc("examples/diamond.k":6:14)
    "kernel.store"(%7, %out, %6) : (i32, !kernel.ptr<global, i32>, i32) -> () loc("examples/diamond.k":6:5)
    "kernel.return"() : () -> () loc("examples/diamond.k":7:1)
  }) {sym_name = "diamond"} : () -> () loc("examples/diamond.k":3:1)
}) : () -> ()
