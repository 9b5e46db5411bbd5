// The multi-instruction lowerings inside divergent control flow: an f32 remainder (whose own
// loop narrows EXEC further) inside a divergent `if` inside a loop with a divergent break
// (structured IR: arith.remf has no .k spelling; the .k source was `acc = acc / (b[i] + 0.5)`
// under `if acc > 1.0` in `for k in 0..n { ...; if k == i % 5 { break; } }` under
// `if i % 3 != 0`, with the division replaced by a remainder). The listing assembles and the
// simulator gives the reference interpreter's buffer. gfx942/int64_in_loop.k does the same for
// 64-bit division, remainder, min and a 64-bit reduction.
// RUN: %kc %s -S | %llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null
// RUN: %kc run %s --engine ref --args %S/Inputs/frem_in_loop.args.json | grep -v -e engine -e counts > %t.ref
// RUN: %kc run %s --engine sim --args %S/Inputs/frem_in_loop.args.json | grep -v -e engine -e counts > %t.sim
// RUN: diff %t.ref %t.sim
// RUN: FileCheck %s < %t.sim
// CHECK: "out": {"type": "f32", "data": [245803.39, 7.759586e-31, 4.09375, 3.0, 0.21875,
module {
  kernel.func @frem_in_loop {
  ^entry(%out: !kernel.ptr<global, f32>, %a: !kernel.ptr<global, f32>, %b: !kernel.ptr<global, f32>, %n: i32):
    %entry = conv.entry : !conv.token
    %i = kernel.workitem_id x : i32
    %acc = kernel.load %a, %i : !kernel.ptr<global, f32>, i32
    %acc_1 = kernel.var %acc : !kernel.var<f32>
    %0 = arith.constant 3 : i32
    %1 = arith.remsi %i, %0 : i32
    %2 = arith.constant 0 : i32
    %3 = arith.cmpi ne, %1, %2 : i32
    kernel.if %3 {
      %4 = arith.constant 0 : i32
      %k = kernel.var %4 : !kernel.var<i32>
      kernel.loop {
        %heart = conv.loop %entry : !conv.token
        %k_1 = kernel.get %k : i32
        %5 = arith.cmpi slt, %k_1, %n : i32
        kernel.if %5 {
          kernel.yield
        } else {
          kernel.break
        }
        %acc_2 = kernel.get %acc_1 : f32
        %6 = arith.constant 1.000000e+00 : f32
        %7 = arith.cmpf ogt, %acc_2, %6 : f32
        kernel.if %7 {
          %acc_3 = kernel.get %acc_1 : f32
          %8 = kernel.load %b, %i : !kernel.ptr<global, f32>, i32
          %9 = arith.constant 5.000000e-01 : f32
          %10 = arith.addf %8, %9 : f32
          %acc_4 = arith.remf %acc_3, %10 : f32
          kernel.set %acc_1, %acc_4 : f32
          kernel.yield
        } else {
          kernel.yield
        }
        %11 = arith.constant 5 : i32
        %12 = arith.remsi %i, %11 : i32
        %13 = arith.cmpi eq, %k_1, %12 : i32
        kernel.if %13 {
          kernel.break
        } else {
          kernel.yield
        }
        kernel.yield
      } latch {
        %14 = kernel.get %k : i32
        %15 = arith.constant 1 : i32
        %k_2 = arith.addi %14, %15 : i32
        kernel.set %k, %k_2 : i32
        kernel.yield
      }
      kernel.yield
    } else {
      kernel.yield
    }
    %acc_5 = kernel.get %acc_1 : f32
    kernel.store %acc_5, %out, %i : !kernel.ptr<global, f32>, i32
    kernel.return
  }
}
