// f32 division (arith.divf, `/` in .k) and remainder (arith.remf: C fmodf, Rust's `%`; it has
// no .k spelling, so the kernel is IR) on divergent operands - zeros of both signs, denormals,
// infinities, NaN, the largest and smallest normals, quotients that overflow or underflow,
// remainders with exponent differences up to 277 (the twelve-bit loop's longest trip) - and on
// uniform ones (parameters). The listing assembles and the simulator gives the reference
// interpreter's buffers bit for bit. (Before: "f32 division is not supported by the gfx942
// backend yet".) tests/ops_exact.rs checks both on ~39,000 pairs.
// RUN: %kc %s -S | %llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null
// RUN: %kc %s -S | FileCheck %s --check-prefix=ASM
// RUN: %kc run %s --engine ref --args %S/Inputs/float_divide.args.json | grep -v -e engine -e counts > %t.ref
// RUN: %kc run %s --engine sim --args %S/Inputs/float_divide.args.json | grep -v -e engine -e counts > %t.sim
// RUN: diff %t.ref %t.sim
// RUN: FileCheck %s < %t.sim
// The division: LLVM's sequence with denormals on; the second scale writes VCC for div_fmas.
// ASM: v_div_scale_f32 [[D:v[0-9]+]], {{s\[[0-9]+:[0-9]+\]|vcc}}, [[Y:v[0-9]+]], [[Y]], [[X:v[0-9]+]]
// ASM-NEXT: v_rcp_f32_e32
// ASM-NEXT: v_div_scale_f32 {{v[0-9]+}}, vcc, [[X]], [[Y]], [[X]]
// ASM: v_div_fmas_f32
// ASM-NEXT: v_div_fixup_f32 {{v[0-9]+}}, {{v[0-9]+}}, [[Y]], [[X]]
// The remainder's loop over the lanes that still have quotient bits to clear.
// ASM: s_and_saveexec_b64
// ASM: v_rndne_f32_e32
// ASM: v_ldexp_f32 {{v[0-9]+}}, {{v[0-9]+}}, 12
// ASM: s_cbranch_execnz
// CHECK: "q": {"type": "f32", "data": [2.0, -2.0, "inf", "-inf", "nan", "nan", 0.0, -0.0, 3.4028235e38, 1e-45, 0.0, "inf", "nan", "nan", "inf", 0.0, 0.0, "inf", 3.918315e-39,
// CHECK: "r": {"type": "f32", "data": [0.0, 0.0, "nan", "nan", "nan", "nan", 0.0, -0.0, 0.0, 1e-45, 1e-45, 0.0, "nan", "nan", "nan", 3.0, -3.0,
module {
  kernel.func @float_divide {
  ^entry(%q: !kernel.ptr<global, f32>, %r: !kernel.ptr<global, f32>, %uq: !kernel.ptr<global, f32>, %a: !kernel.ptr<global, f32>, %b: !kernel.ptr<global, f32>, %s: f32, %t: f32):
    %i = kernel.workitem_id x : i32
    %x = kernel.load %a, %i : !kernel.ptr<global, f32>, i32
    %y = kernel.load %b, %i : !kernel.ptr<global, f32>, i32
    %d = arith.divf %x, %y : f32
    kernel.store %d, %q, %i : !kernel.ptr<global, f32>, i32
    %m = arith.remf %x, %y : f32
    kernel.store %m, %r, %i : !kernel.ptr<global, f32>, i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %ud = arith.divf %s, %t : f32
    kernel.store %ud, %uq, %c0 : !kernel.ptr<global, f32>, i32
    %um = arith.remf %s, %t : f32
    kernel.store %um, %uq, %c1 : !kernel.ptr<global, f32>, i32
    %xd = arith.divf %x, %t : f32
    %k = arith.addi %i, %c2 : i32
    %k4 = arith.muli %k, %c2 : i32
    kernel.store %xd, %uq, %k4 : !kernel.ptr<global, f32>, i32
    %xm = arith.remf %s, %y : f32
    %k5 = arith.addi %k4, %c1 : i32
    kernel.store %xm, %uq, %k5 : !kernel.ptr<global, f32>, i32
    kernel.return
  }
}
