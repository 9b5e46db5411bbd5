module {
  kernel.func @diamond {
  ^entry(%out: !kernel.ptr<global, i32> loc("examples/diamond.k":3:16)):
    %entry = conv.entry : !conv.token loc("examples/diamond.k":3:1)
    %tid = kernel.workitem_id x : i32 loc("examples/diamond.k":4:15)
    %0 = arith.constant 0 : i32 loc("examples/diamond.k":5:15)
    %1 = arith.cmpi eq, %tid, %0 : i32 loc("examples/diamond.k":5:8)
    cf.cond_br %1, ^then, ^else loc("examples/diamond.k":5:5)
  ^then:
    %2 = arith.constant 0 : i32 loc("examples/diamond.k":5:23)
    %3 = arith.constant 1 : i32 loc("examples/diamond.k":5:28)
    kernel.store %3, %out, %2 loc("examples/diamond.k":5:19)
    cf.br ^endif loc("examples/diamond.k":5:17)
  ^else:
    %4 = arith.constant 1 : i32 loc("examples/diamond.k":5:44)
    %5 = arith.constant 2 : i32 loc("examples/diamond.k":5:49)
    kernel.store %5, %out, %4 loc("examples/diamond.k":5:40)
    cf.br ^endif loc("examples/diamond.k":5:38)
  ^endif:
    %6 = arith.constant 2 : i32 loc("examples/diamond.k":6:9)
    %7 = arith.constant 3 : i32 loc("examples/diamond.k":6:14)
    kernel.store %7, %out, %6 loc("examples/diamond.k":6:5)
    kernel.return loc("examples/diamond.k":7:1)
  } loc("examples/diamond.k":3:1)
}
