module {
  kernel.func @wave_reduce {
  ^entry(%out: !kernel.ptr<global, i32> loc("examples/wave_reduce.k":3:20), %input: !kernel.ptr<global, i32> loc("examples/wave_reduce.k":3:43)):
    %entry = conv.entry : !conv.token loc("examples/wave_reduce.k":3:1)
    %lane = kernel.lane_id : i32 loc("examples/wave_reduce.k":4:16)
    %0 = kernel.workitem_id x : i32 loc("examples/wave_reduce.k":5:19)
    %v = kernel.load %input, %0 : i32 loc("examples/wave_reduce.k":5:13)
    %1 = kernel.wave_size : i32 loc("examples/wave_reduce.k":7:18)
    %2 = arith.constant 2 : i32 loc("examples/wave_reduce.k":7:32)
    %offset = arith.divsi %1, %2 : i32 loc("examples/wave_reduce.k":7:18)
    cf.br ^loop.header(%offset, %v : i32, i32) loc("examples/wave_reduce.k":8:5)
  ^loop.header(%offset_1: i32 loc("examples/wave_reduce.k":7:9), %sum: i32 loc("examples/wave_reduce.k":6:9)):
    %heart = conv.loop %entry : !conv.token loc("examples/wave_reduce.k":8:5)
    %3 = arith.constant 0 : i32 loc("examples/wave_reduce.k":8:20)
    %4 = arith.cmpi sgt, %offset_1, %3 : i32 loc("examples/wave_reduce.k":8:11)
    cf.cond_br %4, ^then, ^else loc("examples/wave_reduce.k":8:11)
  ^then:
    cf.br ^endif loc("examples/wave_reduce.k":8:11)
  ^else:
    cf.br ^loop.exit loc("examples/wave_reduce.k":8:11)
  ^endif:
    %5 = arith.xori %lane, %offset_1 : i32 loc("examples/wave_reduce.k":9:29)
    %6 = kernel.shuffle %sum, %5, %heart : i32 loc("examples/wave_reduce.k":9:16)
    %sum_1 = arith.addi %sum, %6 : i32 loc("examples/wave_reduce.k":9:9)
    %7 = arith.constant 2 : i32 loc("examples/wave_reduce.k":10:19)
    %offset_2 = arith.divsi %offset_1, %7 : i32 loc("examples/wave_reduce.k":10:9)
    cf.br ^loop.latch loc("examples/wave_reduce.k":8:22)
  ^loop.latch:
    cf.br ^loop.header(%offset_2, %sum_1 : i32, i32) loc("examples/wave_reduce.k":8:5)
  ^loop.exit:
    %total = kernel.reduce add, %v, %entry : i32 loc("examples/wave_reduce.k":12:17)
    %biggest = kernel.reduce max, %v, %entry : i32 loc("examples/wave_reduce.k":13:19)
    %8 = arith.constant 0 : i32 loc("examples/wave_reduce.k":14:16)
    %9 = arith.cmpi eq, %lane, %8 : i32 loc("examples/wave_reduce.k":14:8)
    cf.cond_br %9, ^then_1, ^else_1 loc("examples/wave_reduce.k":14:5)
  ^then_1:
    %10 = arith.constant 0 : i32 loc("examples/wave_reduce.k":15:13)
    kernel.store %sum, %out, %10 loc("examples/wave_reduce.k":15:9)
    %11 = arith.constant 1 : i32 loc("examples/wave_reduce.k":16:13)
    kernel.store %total, %out, %11 loc("examples/wave_reduce.k":16:9)
    %12 = arith.constant 2 : i32 loc("examples/wave_reduce.k":17:13)
    kernel.store %biggest, %out, %12 loc("examples/wave_reduce.k":17:9)
    cf.br ^endif_1 loc("examples/wave_reduce.k":14:18)
  ^else_1:
    cf.br ^endif_1 loc("examples/wave_reduce.k":14:5)
  ^endif_1:
    kernel.return loc("examples/wave_reduce.k":19:1)
  } loc("examples/wave_reduce.k":3:1)
}
