// i1 arithmetic, compares and casts: i1 is 1-bit two's complement (true is 1 unsigned, -1
// signed, arithmetic wraps mod 2), so addi / subi are xor, muli is and, shifts (by the amount
// modulo 1) keep the value, signed min / max see true below false, and each compare is a
// boolean function of its operands. Every binary op runs on all four input combinations with
// operands that are divergent (lane masks), uniform (SGPR 0/1), mixed, and constant; each
// result is stored sign-extended. Division is only defined for a true divisor (and, signed,
// a false dividend: -1 / -1 and -1 % -1 overflow). sitofp of true is -1.0, uitofp 1.0;
// fptosi to i1 saturates to [-1, 0] and fptoui to [0, 1], NaN giving 0, per lane and for
// uniform values.
// The simulator (at -O0 and -O2, with EXEC masking and FORK/JOIN) gives the reference
// interpreter's buffers, and the CHECK lines are the truth tables of the ops written out.
// Buffer index: 16 * variant + 4 * workgroup + lane.
// RUN: %kc %s -S | %llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null
// RUN: %kc run %s --kernel i1_ops --engine ref --args %S/Inputs/i1_ops.args.json | grep -v -e engine -e counts > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: %kc run %s --kernel i1_ops --engine sim -O0 --args %S/Inputs/i1_ops.args.json | grep -v -e engine -e counts > %t.sim0
// RUN: diff %t.ref %t.sim0
// RUN: %kc run %s --kernel i1_ops --engine sim -O2 --args %S/Inputs/i1_ops.args.json | grep -v -e engine -e counts > %t.sim2
// RUN: diff %t.ref %t.sim2
// RUN: %kc run %s --kernel i1_ops --engine sim -O2 --divergence=fork-join --args %S/Inputs/i1_ops.args.json | grep -v -e engine -e counts > %t.fj
// RUN: diff %t.ref %t.fj
// RUN: %kc run %s --kernel i1_casts --engine ref --args %S/Inputs/i1_casts.args.json | grep -v -e engine -e counts > %t.cref
// RUN: FileCheck %s --check-prefix=CASTS < %t.cref
// RUN: %kc run %s --kernel i1_casts --engine sim -O0 --args %S/Inputs/i1_casts.args.json | grep -v -e engine -e counts > %t.csim0
// RUN: diff %t.cref %t.csim0
// RUN: %kc run %s --kernel i1_casts --engine sim -O2 --args %S/Inputs/i1_casts.args.json | grep -v -e engine -e counts > %t.csim2
// CHECK-DAG: "o_addi": {"type": "i32", "data": [0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, -1, 0, -1, 0, -1, 0, -1, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0]}
// CHECK-DAG: "o_subi": {"type": "i32", "data": [0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, -1, 0, -1, 0, -1, 0, -1, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0]}
// CHECK-DAG: "o_muli": {"type": "i32", "data": [0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1]}
// CHECK-DAG: "o_andi": {"type": "i32", "data": [0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1]}
// CHECK-DAG: "o_ori": {"type": "i32", "data": [0, -1, -1, -1, 0, -1, -1, -1, 0, -1, -1, -1, 0, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, -1, -1, -1, -1, -1, -1, 0, 0, -1, -1, -1, -1, -1, -1, 0, -1, 0, -1, 0, -1, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]}
// CHECK-DAG: "o_xori": {"type": "i32", "data": [0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, -1, 0, -1, 0, -1, 0, -1, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0]}
// CHECK-DAG: "o_shli": {"type": "i32", "data": [0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]}
// CHECK-DAG: "o_shrui": {"type": "i32", "data": [0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]}
// CHECK-DAG: "o_shrsi": {"type": "i32", "data": [0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]}
// CHECK-DAG: "o_maxsi": {"type": "i32", "data": [0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1]}
// CHECK-DAG: "o_minsi": {"type": "i32", "data": [0, -1, -1, -1, 0, -1, -1, -1, 0, -1, -1, -1, 0, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, -1, -1, -1, -1, -1, -1, 0, 0, -1, -1, -1, -1, -1, -1, 0, -1, 0, -1, 0, -1, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]}
// CHECK-DAG: "o_maxui": {"type": "i32", "data": [0, -1, -1, -1, 0, -1, -1, -1, 0, -1, -1, -1, 0, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, -1, -1, -1, -1, -1, -1, 0, 0, -1, -1, -1, -1, -1, -1, 0, -1, 0, -1, 0, -1, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]}
// CHECK-DAG: "o_minui": {"type": "i32", "data": [0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1]}
// CHECK-DAG: "o_cmpi_eq": {"type": "i32", "data": [-1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, 0, -1, 0, -1, 0, -1, 0, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1]}
// CHECK-DAG: "o_cmpi_ne": {"type": "i32", "data": [0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, -1, 0, -1, 0, -1, 0, -1, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0]}
// CHECK-DAG: "o_cmpi_slt": {"type": "i32", "data": [0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, 0, -1, 0, -1, 0, -1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0]}
// CHECK-DAG: "o_cmpi_sle": {"type": "i32", "data": [-1, -1, 0, -1, -1, -1, 0, -1, -1, -1, 0, -1, -1, -1, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, 0, 0, -1, -1, -1, -1, -1, -1, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]}
// CHECK-DAG: "o_cmpi_sgt": {"type": "i32", "data": [0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}
// CHECK-DAG: "o_cmpi_sge": {"type": "i32", "data": [-1, 0, -1, -1, -1, 0, -1, -1, -1, 0, -1, -1, -1, 0, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, -1, -1, -1, -1, -1, -1, 0, 0, -1, -1, -1, 0, -1, 0, -1, 0, -1, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1]}
// CHECK-DAG: "o_cmpi_ult": {"type": "i32", "data": [0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}
// CHECK-DAG: "o_cmpi_ule": {"type": "i32", "data": [-1, 0, -1, -1, -1, 0, -1, -1, -1, 0, -1, -1, -1, 0, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, -1, -1, -1, -1, -1, -1, 0, 0, -1, -1, -1, 0, -1, 0, -1, 0, -1, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1]}
// CHECK-DAG: "o_cmpi_ugt": {"type": "i32", "data": [0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, 0, -1, 0, -1, 0, -1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0]}
// CHECK-DAG: "o_cmpi_uge": {"type": "i32", "data": [-1, -1, 0, -1, -1, -1, 0, -1, -1, -1, 0, -1, -1, -1, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, 0, 0, -1, -1, -1, -1, -1, -1, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]}
// CHECK-DAG: "o_divui": {"type": "i32", "data": [0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1]}
// CHECK-DAG: "o_remui": {"type": "i32", "data": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}
// CHECK-DAG: "o_divsi": {"type": "i32", "data": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}
// CHECK-DAG: "o_remsi": {"type": "i32", "data": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}
// CHECK-DAG: "o_sitofp": {"type": "f32", "data": [0.0, -1.0, 0.0, -1.0, 0.0, -1.0, 0.0, -1.0, 0.0, -1.0, 0.0, -1.0, 0.0, -1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, -1.0, -1.0, -1.0, -1.0, 0.0, 0.0, 0.0, 0.0, -1.0, -1.0, -1.0, -1.0]}
// CHECK-DAG: "o_uitofp": {"type": "f32", "data": [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]}
// CASTS-DAG: "o_fptosi": {"type": "i32", "data": [0, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}
// CASTS-DAG: "o_fptoui": {"type": "i32", "data": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1]}
// CASTS-DAG: "o_fptosi_u": {"type": "i32", "data": [0, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}
// CASTS-DAG: "o_fptoui_u": {"type": "i32", "data": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1]}
module {
  kernel.func @i1_ops {
  ^entry(%o_addi: !kernel.ptr<global, i32>, %o_subi: !kernel.ptr<global, i32>, %o_muli: !kernel.ptr<global, i32>, %o_andi: !kernel.ptr<global, i32>, %o_ori: !kernel.ptr<global, i32>, %o_xori: !kernel.ptr<global, i32>, %o_shli: !kernel.ptr<global, i32>, %o_shrui: !kernel.ptr<global, i32>, %o_shrsi: !kernel.ptr<global, i32>, %o_maxsi: !kernel.ptr<global, i32>, %o_minsi: !kernel.ptr<global, i32>, %o_maxui: !kernel.ptr<global, i32>, %o_minui: !kernel.ptr<global, i32>, %o_cmpi_eq: !kernel.ptr<global, i32>, %o_cmpi_ne: !kernel.ptr<global, i32>, %o_cmpi_slt: !kernel.ptr<global, i32>, %o_cmpi_sle: !kernel.ptr<global, i32>, %o_cmpi_sgt: !kernel.ptr<global, i32>, %o_cmpi_sge: !kernel.ptr<global, i32>, %o_cmpi_ult: !kernel.ptr<global, i32>, %o_cmpi_ule: !kernel.ptr<global, i32>, %o_cmpi_ugt: !kernel.ptr<global, i32>, %o_cmpi_uge: !kernel.ptr<global, i32>, %o_divui: !kernel.ptr<global, i32>, %o_remui: !kernel.ptr<global, i32>, %o_divsi: !kernel.ptr<global, i32>, %o_remsi: !kernel.ptr<global, i32>, %o_sitofp: !kernel.ptr<global, f32>, %o_uitofp: !kernel.ptr<global, f32>):
    %tid = kernel.workitem_id x : i32
    %wg = kernel.workgroup_id x : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %c16 = arith.constant 16 : i32
    %wg4 = arith.muli %wg, %c4 : i32
    %slot = arith.addi %wg4, %tid : i32
    %tid1 = arith.shrui %tid, %c1 : i32
    %wg1 = arith.shrui %wg, %c1 : i32
    %da = arith.trunci %tid : i32 to i1
    %db = arith.trunci %tid1 : i32 to i1
    %ua = arith.trunci %wg : i32 to i1
    %ub = arith.trunci %wg1 : i32 to i1
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %dtrue = arith.cmpi sge, %tid, %c0 : i32
    %utrue = arith.cmpi sge, %wg, %c0 : i32
    %dfalse = arith.cmpi slt, %tid, %c0 : i32
    %ufalse = arith.cmpi slt, %wg, %c0 : i32
    %k0 = arith.constant 0 : i32
    %i0 = arith.addi %slot, %k0 : i32
    %k1 = arith.constant 16 : i32
    %i1 = arith.addi %slot, %k1 : i32
    %k2 = arith.constant 32 : i32
    %i2 = arith.addi %slot, %k2 : i32
    %k3 = arith.constant 48 : i32
    %i3 = arith.addi %slot, %k3 : i32
    %k4 = arith.constant 64 : i32
    %i4 = arith.addi %slot, %k4 : i32
    %k5 = arith.constant 80 : i32
    %i5 = arith.addi %slot, %k5 : i32
    %r1 = arith.addi %da, %db : i1
    %e1 = arith.extsi %r1 : i1 to i32
    kernel.store %e1, %o_addi, %i0 : !kernel.ptr<global, i32>, i32
    %r2 = arith.addi %ua, %ub : i1
    %e2 = arith.extsi %r2 : i1 to i32
    kernel.store %e2, %o_addi, %i1 : !kernel.ptr<global, i32>, i32
    %r3 = arith.addi %ua, %db : i1
    %e3 = arith.extsi %r3 : i1 to i32
    kernel.store %e3, %o_addi, %i2 : !kernel.ptr<global, i32>, i32
    %r4 = arith.addi %da, %ub : i1
    %e4 = arith.extsi %r4 : i1 to i32
    kernel.store %e4, %o_addi, %i3 : !kernel.ptr<global, i32>, i32
    %r5 = arith.addi %da, %true : i1
    %e5 = arith.extsi %r5 : i1 to i32
    kernel.store %e5, %o_addi, %i4 : !kernel.ptr<global, i32>, i32
    %r6 = arith.addi %true, %db : i1
    %e6 = arith.extsi %r6 : i1 to i32
    kernel.store %e6, %o_addi, %i5 : !kernel.ptr<global, i32>, i32
    %r7 = arith.subi %da, %db : i1
    %e7 = arith.extsi %r7 : i1 to i32
    kernel.store %e7, %o_subi, %i0 : !kernel.ptr<global, i32>, i32
    %r8 = arith.subi %ua, %ub : i1
    %e8 = arith.extsi %r8 : i1 to i32
    kernel.store %e8, %o_subi, %i1 : !kernel.ptr<global, i32>, i32
    %r9 = arith.subi %ua, %db : i1
    %e9 = arith.extsi %r9 : i1 to i32
    kernel.store %e9, %o_subi, %i2 : !kernel.ptr<global, i32>, i32
    %r10 = arith.subi %da, %ub : i1
    %e10 = arith.extsi %r10 : i1 to i32
    kernel.store %e10, %o_subi, %i3 : !kernel.ptr<global, i32>, i32
    %r11 = arith.subi %da, %true : i1
    %e11 = arith.extsi %r11 : i1 to i32
    kernel.store %e11, %o_subi, %i4 : !kernel.ptr<global, i32>, i32
    %r12 = arith.subi %true, %db : i1
    %e12 = arith.extsi %r12 : i1 to i32
    kernel.store %e12, %o_subi, %i5 : !kernel.ptr<global, i32>, i32
    %r13 = arith.muli %da, %db : i1
    %e13 = arith.extsi %r13 : i1 to i32
    kernel.store %e13, %o_muli, %i0 : !kernel.ptr<global, i32>, i32
    %r14 = arith.muli %ua, %ub : i1
    %e14 = arith.extsi %r14 : i1 to i32
    kernel.store %e14, %o_muli, %i1 : !kernel.ptr<global, i32>, i32
    %r15 = arith.muli %ua, %db : i1
    %e15 = arith.extsi %r15 : i1 to i32
    kernel.store %e15, %o_muli, %i2 : !kernel.ptr<global, i32>, i32
    %r16 = arith.muli %da, %ub : i1
    %e16 = arith.extsi %r16 : i1 to i32
    kernel.store %e16, %o_muli, %i3 : !kernel.ptr<global, i32>, i32
    %r17 = arith.muli %da, %true : i1
    %e17 = arith.extsi %r17 : i1 to i32
    kernel.store %e17, %o_muli, %i4 : !kernel.ptr<global, i32>, i32
    %r18 = arith.muli %true, %db : i1
    %e18 = arith.extsi %r18 : i1 to i32
    kernel.store %e18, %o_muli, %i5 : !kernel.ptr<global, i32>, i32
    %r19 = arith.andi %da, %db : i1
    %e19 = arith.extsi %r19 : i1 to i32
    kernel.store %e19, %o_andi, %i0 : !kernel.ptr<global, i32>, i32
    %r20 = arith.andi %ua, %ub : i1
    %e20 = arith.extsi %r20 : i1 to i32
    kernel.store %e20, %o_andi, %i1 : !kernel.ptr<global, i32>, i32
    %r21 = arith.andi %ua, %db : i1
    %e21 = arith.extsi %r21 : i1 to i32
    kernel.store %e21, %o_andi, %i2 : !kernel.ptr<global, i32>, i32
    %r22 = arith.andi %da, %ub : i1
    %e22 = arith.extsi %r22 : i1 to i32
    kernel.store %e22, %o_andi, %i3 : !kernel.ptr<global, i32>, i32
    %r23 = arith.andi %da, %true : i1
    %e23 = arith.extsi %r23 : i1 to i32
    kernel.store %e23, %o_andi, %i4 : !kernel.ptr<global, i32>, i32
    %r24 = arith.andi %true, %db : i1
    %e24 = arith.extsi %r24 : i1 to i32
    kernel.store %e24, %o_andi, %i5 : !kernel.ptr<global, i32>, i32
    %r25 = arith.ori %da, %db : i1
    %e25 = arith.extsi %r25 : i1 to i32
    kernel.store %e25, %o_ori, %i0 : !kernel.ptr<global, i32>, i32
    %r26 = arith.ori %ua, %ub : i1
    %e26 = arith.extsi %r26 : i1 to i32
    kernel.store %e26, %o_ori, %i1 : !kernel.ptr<global, i32>, i32
    %r27 = arith.ori %ua, %db : i1
    %e27 = arith.extsi %r27 : i1 to i32
    kernel.store %e27, %o_ori, %i2 : !kernel.ptr<global, i32>, i32
    %r28 = arith.ori %da, %ub : i1
    %e28 = arith.extsi %r28 : i1 to i32
    kernel.store %e28, %o_ori, %i3 : !kernel.ptr<global, i32>, i32
    %r29 = arith.ori %da, %true : i1
    %e29 = arith.extsi %r29 : i1 to i32
    kernel.store %e29, %o_ori, %i4 : !kernel.ptr<global, i32>, i32
    %r30 = arith.ori %true, %db : i1
    %e30 = arith.extsi %r30 : i1 to i32
    kernel.store %e30, %o_ori, %i5 : !kernel.ptr<global, i32>, i32
    %r31 = arith.xori %da, %db : i1
    %e31 = arith.extsi %r31 : i1 to i32
    kernel.store %e31, %o_xori, %i0 : !kernel.ptr<global, i32>, i32
    %r32 = arith.xori %ua, %ub : i1
    %e32 = arith.extsi %r32 : i1 to i32
    kernel.store %e32, %o_xori, %i1 : !kernel.ptr<global, i32>, i32
    %r33 = arith.xori %ua, %db : i1
    %e33 = arith.extsi %r33 : i1 to i32
    kernel.store %e33, %o_xori, %i2 : !kernel.ptr<global, i32>, i32
    %r34 = arith.xori %da, %ub : i1
    %e34 = arith.extsi %r34 : i1 to i32
    kernel.store %e34, %o_xori, %i3 : !kernel.ptr<global, i32>, i32
    %r35 = arith.xori %da, %true : i1
    %e35 = arith.extsi %r35 : i1 to i32
    kernel.store %e35, %o_xori, %i4 : !kernel.ptr<global, i32>, i32
    %r36 = arith.xori %true, %db : i1
    %e36 = arith.extsi %r36 : i1 to i32
    kernel.store %e36, %o_xori, %i5 : !kernel.ptr<global, i32>, i32
    %r37 = arith.shli %da, %db : i1
    %e37 = arith.extsi %r37 : i1 to i32
    kernel.store %e37, %o_shli, %i0 : !kernel.ptr<global, i32>, i32
    %r38 = arith.shli %ua, %ub : i1
    %e38 = arith.extsi %r38 : i1 to i32
    kernel.store %e38, %o_shli, %i1 : !kernel.ptr<global, i32>, i32
    %r39 = arith.shli %ua, %db : i1
    %e39 = arith.extsi %r39 : i1 to i32
    kernel.store %e39, %o_shli, %i2 : !kernel.ptr<global, i32>, i32
    %r40 = arith.shli %da, %ub : i1
    %e40 = arith.extsi %r40 : i1 to i32
    kernel.store %e40, %o_shli, %i3 : !kernel.ptr<global, i32>, i32
    %r41 = arith.shli %da, %true : i1
    %e41 = arith.extsi %r41 : i1 to i32
    kernel.store %e41, %o_shli, %i4 : !kernel.ptr<global, i32>, i32
    %r42 = arith.shli %true, %db : i1
    %e42 = arith.extsi %r42 : i1 to i32
    kernel.store %e42, %o_shli, %i5 : !kernel.ptr<global, i32>, i32
    %r43 = arith.shrui %da, %db : i1
    %e43 = arith.extsi %r43 : i1 to i32
    kernel.store %e43, %o_shrui, %i0 : !kernel.ptr<global, i32>, i32
    %r44 = arith.shrui %ua, %ub : i1
    %e44 = arith.extsi %r44 : i1 to i32
    kernel.store %e44, %o_shrui, %i1 : !kernel.ptr<global, i32>, i32
    %r45 = arith.shrui %ua, %db : i1
    %e45 = arith.extsi %r45 : i1 to i32
    kernel.store %e45, %o_shrui, %i2 : !kernel.ptr<global, i32>, i32
    %r46 = arith.shrui %da, %ub : i1
    %e46 = arith.extsi %r46 : i1 to i32
    kernel.store %e46, %o_shrui, %i3 : !kernel.ptr<global, i32>, i32
    %r47 = arith.shrui %da, %true : i1
    %e47 = arith.extsi %r47 : i1 to i32
    kernel.store %e47, %o_shrui, %i4 : !kernel.ptr<global, i32>, i32
    %r48 = arith.shrui %true, %db : i1
    %e48 = arith.extsi %r48 : i1 to i32
    kernel.store %e48, %o_shrui, %i5 : !kernel.ptr<global, i32>, i32
    %r49 = arith.shrsi %da, %db : i1
    %e49 = arith.extsi %r49 : i1 to i32
    kernel.store %e49, %o_shrsi, %i0 : !kernel.ptr<global, i32>, i32
    %r50 = arith.shrsi %ua, %ub : i1
    %e50 = arith.extsi %r50 : i1 to i32
    kernel.store %e50, %o_shrsi, %i1 : !kernel.ptr<global, i32>, i32
    %r51 = arith.shrsi %ua, %db : i1
    %e51 = arith.extsi %r51 : i1 to i32
    kernel.store %e51, %o_shrsi, %i2 : !kernel.ptr<global, i32>, i32
    %r52 = arith.shrsi %da, %ub : i1
    %e52 = arith.extsi %r52 : i1 to i32
    kernel.store %e52, %o_shrsi, %i3 : !kernel.ptr<global, i32>, i32
    %r53 = arith.shrsi %da, %true : i1
    %e53 = arith.extsi %r53 : i1 to i32
    kernel.store %e53, %o_shrsi, %i4 : !kernel.ptr<global, i32>, i32
    %r54 = arith.shrsi %true, %db : i1
    %e54 = arith.extsi %r54 : i1 to i32
    kernel.store %e54, %o_shrsi, %i5 : !kernel.ptr<global, i32>, i32
    %r55 = arith.maxsi %da, %db : i1
    %e55 = arith.extsi %r55 : i1 to i32
    kernel.store %e55, %o_maxsi, %i0 : !kernel.ptr<global, i32>, i32
    %r56 = arith.maxsi %ua, %ub : i1
    %e56 = arith.extsi %r56 : i1 to i32
    kernel.store %e56, %o_maxsi, %i1 : !kernel.ptr<global, i32>, i32
    %r57 = arith.maxsi %ua, %db : i1
    %e57 = arith.extsi %r57 : i1 to i32
    kernel.store %e57, %o_maxsi, %i2 : !kernel.ptr<global, i32>, i32
    %r58 = arith.maxsi %da, %ub : i1
    %e58 = arith.extsi %r58 : i1 to i32
    kernel.store %e58, %o_maxsi, %i3 : !kernel.ptr<global, i32>, i32
    %r59 = arith.maxsi %da, %true : i1
    %e59 = arith.extsi %r59 : i1 to i32
    kernel.store %e59, %o_maxsi, %i4 : !kernel.ptr<global, i32>, i32
    %r60 = arith.maxsi %true, %db : i1
    %e60 = arith.extsi %r60 : i1 to i32
    kernel.store %e60, %o_maxsi, %i5 : !kernel.ptr<global, i32>, i32
    %r61 = arith.minsi %da, %db : i1
    %e61 = arith.extsi %r61 : i1 to i32
    kernel.store %e61, %o_minsi, %i0 : !kernel.ptr<global, i32>, i32
    %r62 = arith.minsi %ua, %ub : i1
    %e62 = arith.extsi %r62 : i1 to i32
    kernel.store %e62, %o_minsi, %i1 : !kernel.ptr<global, i32>, i32
    %r63 = arith.minsi %ua, %db : i1
    %e63 = arith.extsi %r63 : i1 to i32
    kernel.store %e63, %o_minsi, %i2 : !kernel.ptr<global, i32>, i32
    %r64 = arith.minsi %da, %ub : i1
    %e64 = arith.extsi %r64 : i1 to i32
    kernel.store %e64, %o_minsi, %i3 : !kernel.ptr<global, i32>, i32
    %r65 = arith.minsi %da, %true : i1
    %e65 = arith.extsi %r65 : i1 to i32
    kernel.store %e65, %o_minsi, %i4 : !kernel.ptr<global, i32>, i32
    %r66 = arith.minsi %true, %db : i1
    %e66 = arith.extsi %r66 : i1 to i32
    kernel.store %e66, %o_minsi, %i5 : !kernel.ptr<global, i32>, i32
    %r67 = arith.maxui %da, %db : i1
    %e67 = arith.extsi %r67 : i1 to i32
    kernel.store %e67, %o_maxui, %i0 : !kernel.ptr<global, i32>, i32
    %r68 = arith.maxui %ua, %ub : i1
    %e68 = arith.extsi %r68 : i1 to i32
    kernel.store %e68, %o_maxui, %i1 : !kernel.ptr<global, i32>, i32
    %r69 = arith.maxui %ua, %db : i1
    %e69 = arith.extsi %r69 : i1 to i32
    kernel.store %e69, %o_maxui, %i2 : !kernel.ptr<global, i32>, i32
    %r70 = arith.maxui %da, %ub : i1
    %e70 = arith.extsi %r70 : i1 to i32
    kernel.store %e70, %o_maxui, %i3 : !kernel.ptr<global, i32>, i32
    %r71 = arith.maxui %da, %true : i1
    %e71 = arith.extsi %r71 : i1 to i32
    kernel.store %e71, %o_maxui, %i4 : !kernel.ptr<global, i32>, i32
    %r72 = arith.maxui %true, %db : i1
    %e72 = arith.extsi %r72 : i1 to i32
    kernel.store %e72, %o_maxui, %i5 : !kernel.ptr<global, i32>, i32
    %r73 = arith.minui %da, %db : i1
    %e73 = arith.extsi %r73 : i1 to i32
    kernel.store %e73, %o_minui, %i0 : !kernel.ptr<global, i32>, i32
    %r74 = arith.minui %ua, %ub : i1
    %e74 = arith.extsi %r74 : i1 to i32
    kernel.store %e74, %o_minui, %i1 : !kernel.ptr<global, i32>, i32
    %r75 = arith.minui %ua, %db : i1
    %e75 = arith.extsi %r75 : i1 to i32
    kernel.store %e75, %o_minui, %i2 : !kernel.ptr<global, i32>, i32
    %r76 = arith.minui %da, %ub : i1
    %e76 = arith.extsi %r76 : i1 to i32
    kernel.store %e76, %o_minui, %i3 : !kernel.ptr<global, i32>, i32
    %r77 = arith.minui %da, %true : i1
    %e77 = arith.extsi %r77 : i1 to i32
    kernel.store %e77, %o_minui, %i4 : !kernel.ptr<global, i32>, i32
    %r78 = arith.minui %true, %db : i1
    %e78 = arith.extsi %r78 : i1 to i32
    kernel.store %e78, %o_minui, %i5 : !kernel.ptr<global, i32>, i32
    %r79 = arith.cmpi eq, %da, %db : i1
    %e79 = arith.extsi %r79 : i1 to i32
    kernel.store %e79, %o_cmpi_eq, %i0 : !kernel.ptr<global, i32>, i32
    %r80 = arith.cmpi eq, %ua, %ub : i1
    %e80 = arith.extsi %r80 : i1 to i32
    kernel.store %e80, %o_cmpi_eq, %i1 : !kernel.ptr<global, i32>, i32
    %r81 = arith.cmpi eq, %ua, %db : i1
    %e81 = arith.extsi %r81 : i1 to i32
    kernel.store %e81, %o_cmpi_eq, %i2 : !kernel.ptr<global, i32>, i32
    %r82 = arith.cmpi eq, %da, %ub : i1
    %e82 = arith.extsi %r82 : i1 to i32
    kernel.store %e82, %o_cmpi_eq, %i3 : !kernel.ptr<global, i32>, i32
    %r83 = arith.cmpi eq, %da, %true : i1
    %e83 = arith.extsi %r83 : i1 to i32
    kernel.store %e83, %o_cmpi_eq, %i4 : !kernel.ptr<global, i32>, i32
    %r84 = arith.cmpi eq, %true, %db : i1
    %e84 = arith.extsi %r84 : i1 to i32
    kernel.store %e84, %o_cmpi_eq, %i5 : !kernel.ptr<global, i32>, i32
    %r85 = arith.cmpi ne, %da, %db : i1
    %e85 = arith.extsi %r85 : i1 to i32
    kernel.store %e85, %o_cmpi_ne, %i0 : !kernel.ptr<global, i32>, i32
    %r86 = arith.cmpi ne, %ua, %ub : i1
    %e86 = arith.extsi %r86 : i1 to i32
    kernel.store %e86, %o_cmpi_ne, %i1 : !kernel.ptr<global, i32>, i32
    %r87 = arith.cmpi ne, %ua, %db : i1
    %e87 = arith.extsi %r87 : i1 to i32
    kernel.store %e87, %o_cmpi_ne, %i2 : !kernel.ptr<global, i32>, i32
    %r88 = arith.cmpi ne, %da, %ub : i1
    %e88 = arith.extsi %r88 : i1 to i32
    kernel.store %e88, %o_cmpi_ne, %i3 : !kernel.ptr<global, i32>, i32
    %r89 = arith.cmpi ne, %da, %true : i1
    %e89 = arith.extsi %r89 : i1 to i32
    kernel.store %e89, %o_cmpi_ne, %i4 : !kernel.ptr<global, i32>, i32
    %r90 = arith.cmpi ne, %true, %db : i1
    %e90 = arith.extsi %r90 : i1 to i32
    kernel.store %e90, %o_cmpi_ne, %i5 : !kernel.ptr<global, i32>, i32
    %r91 = arith.cmpi slt, %da, %db : i1
    %e91 = arith.extsi %r91 : i1 to i32
    kernel.store %e91, %o_cmpi_slt, %i0 : !kernel.ptr<global, i32>, i32
    %r92 = arith.cmpi slt, %ua, %ub : i1
    %e92 = arith.extsi %r92 : i1 to i32
    kernel.store %e92, %o_cmpi_slt, %i1 : !kernel.ptr<global, i32>, i32
    %r93 = arith.cmpi slt, %ua, %db : i1
    %e93 = arith.extsi %r93 : i1 to i32
    kernel.store %e93, %o_cmpi_slt, %i2 : !kernel.ptr<global, i32>, i32
    %r94 = arith.cmpi slt, %da, %ub : i1
    %e94 = arith.extsi %r94 : i1 to i32
    kernel.store %e94, %o_cmpi_slt, %i3 : !kernel.ptr<global, i32>, i32
    %r95 = arith.cmpi slt, %da, %true : i1
    %e95 = arith.extsi %r95 : i1 to i32
    kernel.store %e95, %o_cmpi_slt, %i4 : !kernel.ptr<global, i32>, i32
    %r96 = arith.cmpi slt, %true, %db : i1
    %e96 = arith.extsi %r96 : i1 to i32
    kernel.store %e96, %o_cmpi_slt, %i5 : !kernel.ptr<global, i32>, i32
    %r97 = arith.cmpi sle, %da, %db : i1
    %e97 = arith.extsi %r97 : i1 to i32
    kernel.store %e97, %o_cmpi_sle, %i0 : !kernel.ptr<global, i32>, i32
    %r98 = arith.cmpi sle, %ua, %ub : i1
    %e98 = arith.extsi %r98 : i1 to i32
    kernel.store %e98, %o_cmpi_sle, %i1 : !kernel.ptr<global, i32>, i32
    %r99 = arith.cmpi sle, %ua, %db : i1
    %e99 = arith.extsi %r99 : i1 to i32
    kernel.store %e99, %o_cmpi_sle, %i2 : !kernel.ptr<global, i32>, i32
    %r100 = arith.cmpi sle, %da, %ub : i1
    %e100 = arith.extsi %r100 : i1 to i32
    kernel.store %e100, %o_cmpi_sle, %i3 : !kernel.ptr<global, i32>, i32
    %r101 = arith.cmpi sle, %da, %true : i1
    %e101 = arith.extsi %r101 : i1 to i32
    kernel.store %e101, %o_cmpi_sle, %i4 : !kernel.ptr<global, i32>, i32
    %r102 = arith.cmpi sle, %true, %db : i1
    %e102 = arith.extsi %r102 : i1 to i32
    kernel.store %e102, %o_cmpi_sle, %i5 : !kernel.ptr<global, i32>, i32
    %r103 = arith.cmpi sgt, %da, %db : i1
    %e103 = arith.extsi %r103 : i1 to i32
    kernel.store %e103, %o_cmpi_sgt, %i0 : !kernel.ptr<global, i32>, i32
    %r104 = arith.cmpi sgt, %ua, %ub : i1
    %e104 = arith.extsi %r104 : i1 to i32
    kernel.store %e104, %o_cmpi_sgt, %i1 : !kernel.ptr<global, i32>, i32
    %r105 = arith.cmpi sgt, %ua, %db : i1
    %e105 = arith.extsi %r105 : i1 to i32
    kernel.store %e105, %o_cmpi_sgt, %i2 : !kernel.ptr<global, i32>, i32
    %r106 = arith.cmpi sgt, %da, %ub : i1
    %e106 = arith.extsi %r106 : i1 to i32
    kernel.store %e106, %o_cmpi_sgt, %i3 : !kernel.ptr<global, i32>, i32
    %r107 = arith.cmpi sgt, %da, %true : i1
    %e107 = arith.extsi %r107 : i1 to i32
    kernel.store %e107, %o_cmpi_sgt, %i4 : !kernel.ptr<global, i32>, i32
    %r108 = arith.cmpi sgt, %true, %db : i1
    %e108 = arith.extsi %r108 : i1 to i32
    kernel.store %e108, %o_cmpi_sgt, %i5 : !kernel.ptr<global, i32>, i32
    %r109 = arith.cmpi sge, %da, %db : i1
    %e109 = arith.extsi %r109 : i1 to i32
    kernel.store %e109, %o_cmpi_sge, %i0 : !kernel.ptr<global, i32>, i32
    %r110 = arith.cmpi sge, %ua, %ub : i1
    %e110 = arith.extsi %r110 : i1 to i32
    kernel.store %e110, %o_cmpi_sge, %i1 : !kernel.ptr<global, i32>, i32
    %r111 = arith.cmpi sge, %ua, %db : i1
    %e111 = arith.extsi %r111 : i1 to i32
    kernel.store %e111, %o_cmpi_sge, %i2 : !kernel.ptr<global, i32>, i32
    %r112 = arith.cmpi sge, %da, %ub : i1
    %e112 = arith.extsi %r112 : i1 to i32
    kernel.store %e112, %o_cmpi_sge, %i3 : !kernel.ptr<global, i32>, i32
    %r113 = arith.cmpi sge, %da, %true : i1
    %e113 = arith.extsi %r113 : i1 to i32
    kernel.store %e113, %o_cmpi_sge, %i4 : !kernel.ptr<global, i32>, i32
    %r114 = arith.cmpi sge, %true, %db : i1
    %e114 = arith.extsi %r114 : i1 to i32
    kernel.store %e114, %o_cmpi_sge, %i5 : !kernel.ptr<global, i32>, i32
    %r115 = arith.cmpi ult, %da, %db : i1
    %e115 = arith.extsi %r115 : i1 to i32
    kernel.store %e115, %o_cmpi_ult, %i0 : !kernel.ptr<global, i32>, i32
    %r116 = arith.cmpi ult, %ua, %ub : i1
    %e116 = arith.extsi %r116 : i1 to i32
    kernel.store %e116, %o_cmpi_ult, %i1 : !kernel.ptr<global, i32>, i32
    %r117 = arith.cmpi ult, %ua, %db : i1
    %e117 = arith.extsi %r117 : i1 to i32
    kernel.store %e117, %o_cmpi_ult, %i2 : !kernel.ptr<global, i32>, i32
    %r118 = arith.cmpi ult, %da, %ub : i1
    %e118 = arith.extsi %r118 : i1 to i32
    kernel.store %e118, %o_cmpi_ult, %i3 : !kernel.ptr<global, i32>, i32
    %r119 = arith.cmpi ult, %da, %true : i1
    %e119 = arith.extsi %r119 : i1 to i32
    kernel.store %e119, %o_cmpi_ult, %i4 : !kernel.ptr<global, i32>, i32
    %r120 = arith.cmpi ult, %true, %db : i1
    %e120 = arith.extsi %r120 : i1 to i32
    kernel.store %e120, %o_cmpi_ult, %i5 : !kernel.ptr<global, i32>, i32
    %r121 = arith.cmpi ule, %da, %db : i1
    %e121 = arith.extsi %r121 : i1 to i32
    kernel.store %e121, %o_cmpi_ule, %i0 : !kernel.ptr<global, i32>, i32
    %r122 = arith.cmpi ule, %ua, %ub : i1
    %e122 = arith.extsi %r122 : i1 to i32
    kernel.store %e122, %o_cmpi_ule, %i1 : !kernel.ptr<global, i32>, i32
    %r123 = arith.cmpi ule, %ua, %db : i1
    %e123 = arith.extsi %r123 : i1 to i32
    kernel.store %e123, %o_cmpi_ule, %i2 : !kernel.ptr<global, i32>, i32
    %r124 = arith.cmpi ule, %da, %ub : i1
    %e124 = arith.extsi %r124 : i1 to i32
    kernel.store %e124, %o_cmpi_ule, %i3 : !kernel.ptr<global, i32>, i32
    %r125 = arith.cmpi ule, %da, %true : i1
    %e125 = arith.extsi %r125 : i1 to i32
    kernel.store %e125, %o_cmpi_ule, %i4 : !kernel.ptr<global, i32>, i32
    %r126 = arith.cmpi ule, %true, %db : i1
    %e126 = arith.extsi %r126 : i1 to i32
    kernel.store %e126, %o_cmpi_ule, %i5 : !kernel.ptr<global, i32>, i32
    %r127 = arith.cmpi ugt, %da, %db : i1
    %e127 = arith.extsi %r127 : i1 to i32
    kernel.store %e127, %o_cmpi_ugt, %i0 : !kernel.ptr<global, i32>, i32
    %r128 = arith.cmpi ugt, %ua, %ub : i1
    %e128 = arith.extsi %r128 : i1 to i32
    kernel.store %e128, %o_cmpi_ugt, %i1 : !kernel.ptr<global, i32>, i32
    %r129 = arith.cmpi ugt, %ua, %db : i1
    %e129 = arith.extsi %r129 : i1 to i32
    kernel.store %e129, %o_cmpi_ugt, %i2 : !kernel.ptr<global, i32>, i32
    %r130 = arith.cmpi ugt, %da, %ub : i1
    %e130 = arith.extsi %r130 : i1 to i32
    kernel.store %e130, %o_cmpi_ugt, %i3 : !kernel.ptr<global, i32>, i32
    %r131 = arith.cmpi ugt, %da, %true : i1
    %e131 = arith.extsi %r131 : i1 to i32
    kernel.store %e131, %o_cmpi_ugt, %i4 : !kernel.ptr<global, i32>, i32
    %r132 = arith.cmpi ugt, %true, %db : i1
    %e132 = arith.extsi %r132 : i1 to i32
    kernel.store %e132, %o_cmpi_ugt, %i5 : !kernel.ptr<global, i32>, i32
    %r133 = arith.cmpi uge, %da, %db : i1
    %e133 = arith.extsi %r133 : i1 to i32
    kernel.store %e133, %o_cmpi_uge, %i0 : !kernel.ptr<global, i32>, i32
    %r134 = arith.cmpi uge, %ua, %ub : i1
    %e134 = arith.extsi %r134 : i1 to i32
    kernel.store %e134, %o_cmpi_uge, %i1 : !kernel.ptr<global, i32>, i32
    %r135 = arith.cmpi uge, %ua, %db : i1
    %e135 = arith.extsi %r135 : i1 to i32
    kernel.store %e135, %o_cmpi_uge, %i2 : !kernel.ptr<global, i32>, i32
    %r136 = arith.cmpi uge, %da, %ub : i1
    %e136 = arith.extsi %r136 : i1 to i32
    kernel.store %e136, %o_cmpi_uge, %i3 : !kernel.ptr<global, i32>, i32
    %r137 = arith.cmpi uge, %da, %true : i1
    %e137 = arith.extsi %r137 : i1 to i32
    kernel.store %e137, %o_cmpi_uge, %i4 : !kernel.ptr<global, i32>, i32
    %r138 = arith.cmpi uge, %true, %db : i1
    %e138 = arith.extsi %r138 : i1 to i32
    kernel.store %e138, %o_cmpi_uge, %i5 : !kernel.ptr<global, i32>, i32
    %r139 = arith.divui %da, %dtrue : i1
    %e139 = arith.extsi %r139 : i1 to i32
    kernel.store %e139, %o_divui, %i0 : !kernel.ptr<global, i32>, i32
    %r140 = arith.divui %ua, %utrue : i1
    %e140 = arith.extsi %r140 : i1 to i32
    kernel.store %e140, %o_divui, %i1 : !kernel.ptr<global, i32>, i32
    %r141 = arith.remui %da, %dtrue : i1
    %e141 = arith.extsi %r141 : i1 to i32
    kernel.store %e141, %o_remui, %i0 : !kernel.ptr<global, i32>, i32
    %r142 = arith.remui %ua, %utrue : i1
    %e142 = arith.extsi %r142 : i1 to i32
    kernel.store %e142, %o_remui, %i1 : !kernel.ptr<global, i32>, i32
    %r143 = arith.divsi %dfalse, %dtrue : i1
    %e143 = arith.extsi %r143 : i1 to i32
    kernel.store %e143, %o_divsi, %i0 : !kernel.ptr<global, i32>, i32
    %r144 = arith.divsi %ufalse, %utrue : i1
    %e144 = arith.extsi %r144 : i1 to i32
    kernel.store %e144, %o_divsi, %i1 : !kernel.ptr<global, i32>, i32
    %r145 = arith.remsi %dfalse, %dtrue : i1
    %e145 = arith.extsi %r145 : i1 to i32
    kernel.store %e145, %o_remsi, %i0 : !kernel.ptr<global, i32>, i32
    %r146 = arith.remsi %ufalse, %utrue : i1
    %e146 = arith.extsi %r146 : i1 to i32
    kernel.store %e146, %o_remsi, %i1 : !kernel.ptr<global, i32>, i32
    %r147 = arith.sitofp %da : i1 to f32
    kernel.store %r147, %o_sitofp, %i0 : !kernel.ptr<global, f32>, i32
    %r148 = arith.sitofp %ua : i1 to f32
    kernel.store %r148, %o_sitofp, %i1 : !kernel.ptr<global, f32>, i32
    %r149 = arith.uitofp %da : i1 to f32
    kernel.store %r149, %o_uitofp, %i0 : !kernel.ptr<global, f32>, i32
    %r150 = arith.uitofp %ua : i1 to f32
    kernel.store %r150, %o_uitofp, %i1 : !kernel.ptr<global, f32>, i32
    kernel.return
  }
  kernel.func @i1_casts {
  ^entry(%fin: !kernel.ptr<global, f32>, %o_fptosi: !kernel.ptr<global, i32>, %o_fptoui: !kernel.ptr<global, i32>, %o_fptosi_u: !kernel.ptr<global, i32>, %o_fptoui_u: !kernel.ptr<global, i32>):
    %tid = kernel.workitem_id x : i32
    %x = kernel.load %fin, %tid : !kernel.ptr<global, f32>, i32
    %fptosi_d = arith.fptosi %x : f32 to i1
    %fptosi_e = arith.extsi %fptosi_d : i1 to i32
    kernel.store %fptosi_e, %o_fptosi, %tid : !kernel.ptr<global, i32>, i32
    %fptoui_d = arith.fptoui %x : f32 to i1
    %fptoui_e = arith.extsi %fptoui_d : i1 to i32
    kernel.store %fptoui_e, %o_fptoui, %tid : !kernel.ptr<global, i32>, i32
    %k0 = arith.constant 0 : i32
    %u0 = kernel.load %fin, %k0 : !kernel.ptr<global, f32>, i32
    %fptosi0 = arith.fptosi %u0 : f32 to i1
    %fptosie0 = arith.extsi %fptosi0 : i1 to i32
    kernel.store %fptosie0, %o_fptosi_u, %k0 : !kernel.ptr<global, i32>, i32
    %fptoui0 = arith.fptoui %u0 : f32 to i1
    %fptouie0 = arith.extsi %fptoui0 : i1 to i32
    kernel.store %fptouie0, %o_fptoui_u, %k0 : !kernel.ptr<global, i32>, i32
    %k1 = arith.constant 1 : i32
    %u1 = kernel.load %fin, %k1 : !kernel.ptr<global, f32>, i32
    %fptosi1 = arith.fptosi %u1 : f32 to i1
    %fptosie1 = arith.extsi %fptosi1 : i1 to i32
    kernel.store %fptosie1, %o_fptosi_u, %k1 : !kernel.ptr<global, i32>, i32
    %fptoui1 = arith.fptoui %u1 : f32 to i1
    %fptouie1 = arith.extsi %fptoui1 : i1 to i32
    kernel.store %fptouie1, %o_fptoui_u, %k1 : !kernel.ptr<global, i32>, i32
    %k2 = arith.constant 2 : i32
    %u2 = kernel.load %fin, %k2 : !kernel.ptr<global, f32>, i32
    %fptosi2 = arith.fptosi %u2 : f32 to i1
    %fptosie2 = arith.extsi %fptosi2 : i1 to i32
    kernel.store %fptosie2, %o_fptosi_u, %k2 : !kernel.ptr<global, i32>, i32
    %fptoui2 = arith.fptoui %u2 : f32 to i1
    %fptouie2 = arith.extsi %fptoui2 : i1 to i32
    kernel.store %fptouie2, %o_fptoui_u, %k2 : !kernel.ptr<global, i32>, i32
    %k3 = arith.constant 3 : i32
    %u3 = kernel.load %fin, %k3 : !kernel.ptr<global, f32>, i32
    %fptosi3 = arith.fptosi %u3 : f32 to i1
    %fptosie3 = arith.extsi %fptosi3 : i1 to i32
    kernel.store %fptosie3, %o_fptosi_u, %k3 : !kernel.ptr<global, i32>, i32
    %fptoui3 = arith.fptoui %u3 : f32 to i1
    %fptouie3 = arith.extsi %fptoui3 : i1 to i32
    kernel.store %fptouie3, %o_fptoui_u, %k3 : !kernel.ptr<global, i32>, i32
    %k4 = arith.constant 4 : i32
    %u4 = kernel.load %fin, %k4 : !kernel.ptr<global, f32>, i32
    %fptosi4 = arith.fptosi %u4 : f32 to i1
    %fptosie4 = arith.extsi %fptosi4 : i1 to i32
    kernel.store %fptosie4, %o_fptosi_u, %k4 : !kernel.ptr<global, i32>, i32
    %fptoui4 = arith.fptoui %u4 : f32 to i1
    %fptouie4 = arith.extsi %fptoui4 : i1 to i32
    kernel.store %fptouie4, %o_fptoui_u, %k4 : !kernel.ptr<global, i32>, i32
    %k5 = arith.constant 5 : i32
    %u5 = kernel.load %fin, %k5 : !kernel.ptr<global, f32>, i32
    %fptosi5 = arith.fptosi %u5 : f32 to i1
    %fptosie5 = arith.extsi %fptosi5 : i1 to i32
    kernel.store %fptosie5, %o_fptosi_u, %k5 : !kernel.ptr<global, i32>, i32
    %fptoui5 = arith.fptoui %u5 : f32 to i1
    %fptouie5 = arith.extsi %fptoui5 : i1 to i32
    kernel.store %fptouie5, %o_fptoui_u, %k5 : !kernel.ptr<global, i32>, i32
    %k6 = arith.constant 6 : i32
    %u6 = kernel.load %fin, %k6 : !kernel.ptr<global, f32>, i32
    %fptosi6 = arith.fptosi %u6 : f32 to i1
    %fptosie6 = arith.extsi %fptosi6 : i1 to i32
    kernel.store %fptosie6, %o_fptosi_u, %k6 : !kernel.ptr<global, i32>, i32
    %fptoui6 = arith.fptoui %u6 : f32 to i1
    %fptouie6 = arith.extsi %fptoui6 : i1 to i32
    kernel.store %fptouie6, %o_fptoui_u, %k6 : !kernel.ptr<global, i32>, i32
    %k7 = arith.constant 7 : i32
    %u7 = kernel.load %fin, %k7 : !kernel.ptr<global, f32>, i32
    %fptosi7 = arith.fptosi %u7 : f32 to i1
    %fptosie7 = arith.extsi %fptosi7 : i1 to i32
    kernel.store %fptosie7, %o_fptosi_u, %k7 : !kernel.ptr<global, i32>, i32
    %fptoui7 = arith.fptoui %u7 : f32 to i1
    %fptouie7 = arith.extsi %fptoui7 : i1 to i32
    kernel.store %fptouie7, %o_fptoui_u, %k7 : !kernel.ptr<global, i32>, i32
    %k8 = arith.constant 8 : i32
    %u8 = kernel.load %fin, %k8 : !kernel.ptr<global, f32>, i32
    %fptosi8 = arith.fptosi %u8 : f32 to i1
    %fptosie8 = arith.extsi %fptosi8 : i1 to i32
    kernel.store %fptosie8, %o_fptosi_u, %k8 : !kernel.ptr<global, i32>, i32
    %fptoui8 = arith.fptoui %u8 : f32 to i1
    %fptouie8 = arith.extsi %fptoui8 : i1 to i32
    kernel.store %fptouie8, %o_fptoui_u, %k8 : !kernel.ptr<global, i32>, i32
    %k9 = arith.constant 9 : i32
    %u9 = kernel.load %fin, %k9 : !kernel.ptr<global, f32>, i32
    %fptosi9 = arith.fptosi %u9 : f32 to i1
    %fptosie9 = arith.extsi %fptosi9 : i1 to i32
    kernel.store %fptosie9, %o_fptosi_u, %k9 : !kernel.ptr<global, i32>, i32
    %fptoui9 = arith.fptoui %u9 : f32 to i1
    %fptouie9 = arith.extsi %fptoui9 : i1 to i32
    kernel.store %fptouie9, %o_fptoui_u, %k9 : !kernel.ptr<global, i32>, i32
    %k10 = arith.constant 10 : i32
    %u10 = kernel.load %fin, %k10 : !kernel.ptr<global, f32>, i32
    %fptosi10 = arith.fptosi %u10 : f32 to i1
    %fptosie10 = arith.extsi %fptosi10 : i1 to i32
    kernel.store %fptosie10, %o_fptosi_u, %k10 : !kernel.ptr<global, i32>, i32
    %fptoui10 = arith.fptoui %u10 : f32 to i1
    %fptouie10 = arith.extsi %fptoui10 : i1 to i32
    kernel.store %fptouie10, %o_fptoui_u, %k10 : !kernel.ptr<global, i32>, i32
    %k11 = arith.constant 11 : i32
    %u11 = kernel.load %fin, %k11 : !kernel.ptr<global, f32>, i32
    %fptosi11 = arith.fptosi %u11 : f32 to i1
    %fptosie11 = arith.extsi %fptosi11 : i1 to i32
    kernel.store %fptosie11, %o_fptosi_u, %k11 : !kernel.ptr<global, i32>, i32
    %fptoui11 = arith.fptoui %u11 : f32 to i1
    %fptouie11 = arith.extsi %fptoui11 : i1 to i32
    kernel.store %fptouie11, %o_fptoui_u, %k11 : !kernel.ptr<global, i32>, i32
    %k12 = arith.constant 12 : i32
    %u12 = kernel.load %fin, %k12 : !kernel.ptr<global, f32>, i32
    %fptosi12 = arith.fptosi %u12 : f32 to i1
    %fptosie12 = arith.extsi %fptosi12 : i1 to i32
    kernel.store %fptosie12, %o_fptosi_u, %k12 : !kernel.ptr<global, i32>, i32
    %fptoui12 = arith.fptoui %u12 : f32 to i1
    %fptouie12 = arith.extsi %fptoui12 : i1 to i32
    kernel.store %fptouie12, %o_fptoui_u, %k12 : !kernel.ptr<global, i32>, i32
    %k13 = arith.constant 13 : i32
    %u13 = kernel.load %fin, %k13 : !kernel.ptr<global, f32>, i32
    %fptosi13 = arith.fptosi %u13 : f32 to i1
    %fptosie13 = arith.extsi %fptosi13 : i1 to i32
    kernel.store %fptosie13, %o_fptosi_u, %k13 : !kernel.ptr<global, i32>, i32
    %fptoui13 = arith.fptoui %u13 : f32 to i1
    %fptouie13 = arith.extsi %fptoui13 : i1 to i32
    kernel.store %fptouie13, %o_fptoui_u, %k13 : !kernel.ptr<global, i32>, i32
    %k14 = arith.constant 14 : i32
    %u14 = kernel.load %fin, %k14 : !kernel.ptr<global, f32>, i32
    %fptosi14 = arith.fptosi %u14 : f32 to i1
    %fptosie14 = arith.extsi %fptosi14 : i1 to i32
    kernel.store %fptosie14, %o_fptosi_u, %k14 : !kernel.ptr<global, i32>, i32
    %fptoui14 = arith.fptoui %u14 : f32 to i1
    %fptouie14 = arith.extsi %fptoui14 : i1 to i32
    kernel.store %fptouie14, %o_fptoui_u, %k14 : !kernel.ptr<global, i32>, i32
    %k15 = arith.constant 15 : i32
    %u15 = kernel.load %fin, %k15 : !kernel.ptr<global, f32>, i32
    %fptosi15 = arith.fptosi %u15 : f32 to i1
    %fptosie15 = arith.extsi %fptosi15 : i1 to i32
    kernel.store %fptosie15, %o_fptosi_u, %k15 : !kernel.ptr<global, i32>, i32
    %fptoui15 = arith.fptoui %u15 : f32 to i1
    %fptouie15 = arith.extsi %fptoui15 : i1 to i32
    kernel.store %fptouie15, %o_fptoui_u, %k15 : !kernel.ptr<global, i32>, i32
    kernel.return
  }
}
