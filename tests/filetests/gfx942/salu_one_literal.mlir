// A uniform 64-bit signed min/max of constants compares their high words with the sign bits
// flipped: two different literals (0x80000000, 0x7fffffff) in one s_subb_u32, which llvm-mc
// rejects ("only one unique literal operand is allowed"). Every SALU instruction isel emits
// now keeps one literal and moves any other into an SGPR. Found by the typed generator
// (backend_assembles, kernel 758 of seed 0x6b630004).
// RUN: %kc %s -O0 -S | %llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null
// RUN: %kc %s -O0 -S | FileCheck %s
// CHECK: s_mov_b32 [[R:s[0-9]+]], 0x7fffffff
// CHECK-NEXT: s_subb_u32 {{s[0-9]+}}, 0x80000000, [[R]]
// RUN: %kc run %s -O0 --engine ref --args %S/Inputs/out2_i64.args.json | grep -v -e engine -e counts > %t.ref
// RUN: %kc run %s -O0 --engine sim --args %S/Inputs/out2_i64.args.json | grep -v -e engine -e counts > %t.sim
// RUN: diff %t.ref %t.sim
// RUN: FileCheck %s --check-prefix=OUT < %t.sim
// OUT: "out": {"type": "i64", "data": [-7, 5]}
kernel.func @two_literals {
^entry(%out: !kernel.ptr<global, i64>):
  %a = arith.constant 5 : i64
  %b = arith.constant -7 : i64
  %mn = arith.minsi %a, %b : i64
  %mx = arith.maxsi %a, %b : i64
  %z = arith.constant 0 : i32
  %o = arith.constant 1 : i32
  kernel.store %mn, %out, %z : !kernel.ptr<global, i64>, i32
  kernel.store %mx, %out, %o : !kernel.ptr<global, i64>, i32
  kernel.return
}
