kernel.func @k {
^entry(%a: i32, %f: f32):
  %x = "arith.addf"(%a, %a) : (i32, i32) -> f32
    %y = "arith.cmpi"(%f, %f) <{predicate = 0 : i64}> : (f32, f32) -> i1
  kernel.return
}
// Errors about ops written without `loc(...)` are at the op's place in the text (its first
// result name), with the line and a caret, as MLIR locates such ops; the IR itself gains no
// locations (printing it adds none).
// RUN: not %kc %s --emit=cf-ir 2>&1 | FileCheck %s --match-full-lines
// CHECK:      {{.*}}unlocated_ops.mlir:3:3: error: `arith.addf`: operands and result must be f32
// CHECK-NEXT:     %x = "arith.addf"(%a, %a) : (i32, i32) -> f32
// CHECK-NEXT:     ^
// CHECK:      {{.*}}unlocated_ops.mlir:4:5: error: `arith.cmpi`: compares two integers of one type into i1
// CHECK-NEXT:       %y = "arith.cmpi"(%f, %f) <{predicate = 0 : i64}> : (f32, f32) -> i1
// CHECK-NEXT:       ^
// RUN: sed -e 's/"arith.addf"(%%a, %%a) : (i32, i32)/"arith.addf"(%%f, %%f) : (f32, f32)/' \
// RUN:   -e 's/"arith.cmpi"(%%f, %%f)/"arith.cmpi"(%%a, %%a)/' -e 's/(f32, f32) -> i1/(i32, i32) -> i1/' %s \
// RUN:   | %kc - -x mlir --emit=kernel-ir | FileCheck %s --check-prefix=IR
// IR-NOT: loc(
// IR: kernel.return
