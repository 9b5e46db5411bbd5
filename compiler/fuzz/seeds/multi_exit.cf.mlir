module {
  kernel.func @multi_exit {
  ^entry(%out: !kernel.ptr<global, i32> loc("examples/multi_exit.k":8:19), %cond: !kernel.ptr<global, i32> loc("examples/multi_exit.k":8:42)):
    %entry = conv.entry : !conv.token loc("examples/multi_exit.k":8:1)
    %tid = kernel.workitem_id x : i32 loc("examples/multi_exit.k":9:15)
    %0 = arith.constant 0 : i32 loc("examples/multi_exit.k":10:19)
    %c1 = kernel.load %cond, %0 : i32 loc("examples/multi_exit.k":10:14)
    %1 = arith.constant 1 : i32 loc("examples/multi_exit.k":11:19)
    %c2 = kernel.load %cond, %1 : i32 loc("examples/multi_exit.k":11:14)
    %2 = arith.cmpi sgt, %tid, %c1 : i32 loc("examples/multi_exit.k":12:8)
    cf.cond_br %2, ^then, ^else loc("examples/multi_exit.k":12:5)
  ^then:
    %3 = arith.constant 1 : i32 loc("examples/multi_exit.k":13:13)
    %4 = arith.constant 0 : i32 loc("examples/multi_exit.k":13:18)
    kernel.store %4, %out, %3 loc("examples/multi_exit.k":13:9)
    kernel.return loc("examples/multi_exit.k":14:9)
  ^else:
    cf.br ^endif loc("examples/multi_exit.k":12:5)
  ^endif:
    %5 = arith.cmpi sgt, %tid, %c2 : i32 loc("examples/multi_exit.k":16:8)
    cf.cond_br %5, ^then_1, ^else_1 loc("examples/multi_exit.k":16:5)
  ^then_1:
    %6 = arith.constant 1 : i32 loc("examples/multi_exit.k":17:13)
    %7 = arith.constant 0 : i32 loc("examples/multi_exit.k":17:18)
    kernel.store %7, %out, %6 loc("examples/multi_exit.k":17:9)
    kernel.return loc("examples/multi_exit.k":18:9)
  ^else_1:
    cf.br ^endif_1 loc("examples/multi_exit.k":16:5)
  ^endif_1:
    %8 = arith.constant 0 : i32 loc("examples/multi_exit.k":20:9)
    %9 = arith.constant 42 : i32 loc("examples/multi_exit.k":20:14)
    kernel.store %9, %out, %8 loc("examples/multi_exit.k":20:5)
    kernel.return loc("examples/multi_exit.k":21:1)
  } loc("examples/multi_exit.k":8:1)
}
