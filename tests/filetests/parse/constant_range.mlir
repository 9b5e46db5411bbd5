// An integer constant must fit its type as MLIR reads it (N bits, signed or unsigned): out of
// range is a diagnostic at the literal, never a silent truncation printed back unchanged (which
// mlir-opt would reject). The generic form's attribute is checked the same way.
// RUN: sed -n '/^kernel.func @ok/,/^}/p' %s > %t.ok.mlir
// RUN: %kc %t.ok.mlir --emit=cf-ir | FileCheck %s --check-prefix=OK
// OK: arith.constant 4294967295 : i32
// OK: arith.constant -2147483648 : i32
// OK: arith.constant true
// OK: arith.constant -9223372036854775808 : i64
// RUN: sed -e '/^kernel.func @ok/,/^}/d' -e 's/VALUE/99999999999 : i32/' %s > %t.1.mlir
// RUN: not %kc %t.1.mlir 2>&1 | FileCheck %s --check-prefix=BIG
// BIG: error: integer literal `99999999999` out of range for i32
// BIG: constant_range.mlir.tmp.1.mlir:[[#LINE:]]:23
// RUN: sed -e '/^kernel.func @ok/,/^}/d' -e 's/VALUE/-2147483649 : i32/' %s > %t.2.mlir
// RUN: not %kc %t.2.mlir 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: error: integer literal `-2147483649` out of range for i32
// RUN: sed -e '/^kernel.func @ok/,/^}/d' -e 's/VALUE/2 : i1/' %s > %t.3.mlir
// RUN: not %kc %t.3.mlir 2>&1 | FileCheck %s --check-prefix=BOOL
// BOOL: error: integer literal `2` out of range for i1
// RUN: sed -e '/^kernel.func @ok/,/^}/d' -e 's/%%c = arith.constant VALUE/%%c = "arith.constant"() {value = 4294967296 : i32} : () -> i32/' %s > %t.4.mlir
// RUN: not %kc %t.4.mlir 2>&1 | FileCheck %s --check-prefix=GENERIC
// GENERIC: error: integer literal `4294967296` out of range for i32
kernel.func @ok {
^entry(%out: !kernel.ptr<global, i32>):
  %a = arith.constant 4294967295 : i32
  %b = arith.constant -2147483648 : i32
  %c = arith.constant -1 : i1
  %d = arith.constant 18446744073709551615 : i64
  %e = arith.constant -9223372036854775808 : i64
  kernel.return
}
kernel.func @bad {
^entry(%out: !kernel.ptr<global, i32>):
  %c = arith.constant VALUE
  kernel.return
}
