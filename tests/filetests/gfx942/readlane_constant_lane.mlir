// A lane past the wave (65) is undefined behaviour (the interpreter stops with an error). A
// constant one written in the input is an error (verify/readlane_lane_range.mlir), but one
// that canonicalize folds (60 + 5, 0 - 1) reaches isel, and the listing must still assemble: v_readlane_b32 has no literal operand, so a
// constant lane must be an inline constant, and the hardware reads the lane select's low 6
// bits, so lane 65 is lane 1 (and -1 lane 63).
// RUN: %kc %s -S | FileCheck %s
// RUN: %kc %s -S | %llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null
// CHECK: v_readlane_b32 s{{[0-9]+}}, v{{[0-9]+}}, 1{{$| }}
// CHECK: v_readlane_b32 s{{[0-9]+}}, v{{[0-9]+}}, 63{{$| }}
module {
  kernel.func @k {
  ^entry(%buf: !kernel.ptr<global, i32>, %n: i32):
    %e = conv.entry : !conv.token
    %t = kernel.workitem_id x : i32
    %c60 = arith.constant 60 : i32
    %c5 = arith.constant 5 : i32
    %far = arith.addi %c60, %c5 : i32
    %a = kernel.readlane %t, %far, %e : i32
    kernel.store %a, %buf, %t : !kernel.ptr<global, i32>, i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %neg = arith.subi %c0, %c1 : i32
    %b = kernel.readlane %t, %neg, %e : i32
    %one = arith.constant 1 : i32
    %t1 = arith.addi %t, %one : i32
    kernel.store %b, %buf, %t1 : !kernel.ptr<global, i32>, i32
    kernel.return
  }
}
