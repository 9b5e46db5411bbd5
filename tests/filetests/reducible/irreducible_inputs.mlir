// Every irreducible (and reducible) kernel of the uniformity suites goes through
// --emit=reducible, and the uniformity analysis of the output finds only single-entry cycles.
// RUN: for f in %S/../uniformity_seed/*.mlir %S/../uniformity_llvm/*.mlir \
// RUN:     %S/../uniformity_diff/*.mlir %S/../cf/irreducible_input.mlir; do \
// RUN:   %kc $f --emit=reducible > %t.mlir \
// RUN:     && %kc %t.mlir -O0 --emit=uniformity --no-locs > %t.txt || exit 1; \
// RUN:   if grep -E 'entries\([^) ]+ ' %t.txt; then echo "irreducible: $f"; exit 1; fi; \
// RUN: done
// RUN: %kc %S/../uniformity_seed/nested_irreducible.mlir -O0 --emit=reducible --no-locs \
// RUN:   | FileCheck %s
// The outer cycle (entries ^R and ^P) gets a guard, which also removes the nested cycle
// (entries ^S and ^P) since every edge into ^P now goes through the guard.
// CHECK-LABEL: kernel.func @headers_r_s {
// CHECK:         cf.cond_br %div.entry, ^irr.guard(%c0, %c0 : i32, i32), ^irr.guard(%c1, %a : i32, i32)
// CHECK-NEXT:  ^irr.guard(%irr.sel: i32, %p.irr: i32):
// CHECK:         cf.cond_br %{{.*}}, ^R, ^P(%p.irr : i32)
// CHECK-NOT:   irr.guard_
// CHECK-LABEL: kernel.func @header_p {
