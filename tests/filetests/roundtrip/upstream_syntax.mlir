module {
  kernel.func @upstream {
  ^entry(%a: i32, %b: i32, %l: i64, %x: f32, %c: i1, %out: !kernel.ptr<global, i32>):
    %k4 = arith.constant 4 : i32
    %km5 = arith.constant -5 : i64
    %t = arith.constant true
    %f = arith.constant false
    %one = arith.constant 1.000000e+00 : f32
    %tenth = arith.constant 0.1 : f32
    %nan = arith.constant 0x7FC00000 : f32
    %big = arith.constant 3.40282347E+38 : f32
    %add = arith.addi %a, %b : i32
    %sub = arith.subi %a, %b : i32
    %mul = arith.muli %a, %b : i32
    %divs = arith.divsi %a, %b : i32
    %divu = arith.divui %a, %b : i32
    %rems = arith.remsi %a, %b : i32
    %remu = arith.remui %a, %b : i32
    %and = arith.andi %a, %b : i32
    %or = arith.ori %a, %b : i32
    %xor = arith.xori %c, %t : i1
    %shl = arith.shli %l, %km5 : i64
    %shrs = arith.shrsi %l, %km5 : i64
    %shru = arith.shrui %l, %km5 : i64
    %mins = arith.minsi %a, %k4 : i32
    %maxs = arith.maxsi %a, %k4 : i32
    %minu = arith.minui %a, %k4 : i32
    %maxu = arith.maxui %a, %k4 : i32
    %addf = arith.addf %x, %one : f32
    %subf = arith.subf %x, %one : f32
    %mulf = arith.mulf %x, %tenth : f32
    %divf = arith.divf %x, %tenth : f32
    %remf = arith.remf %x, %nan : f32
    %minf = arith.minimumf %x, %big : f32
    %maxf = arith.maximumf %x, %big : f32
    %neg = arith.negf %x : f32
    %lt = arith.cmpi slt, %a, %b : i32
    %uge = arith.cmpi uge, %l, %km5 : i64
    %eq1 = arith.cmpi eq, %c, %t : i1
    %olt = arith.cmpf olt, %x, %one : f32
    %une = arith.cmpf une, %x, %x : f32
    %sel = arith.select %c, %a, %b : i32
    %self = arith.select %lt, %x, %addf : f32
    %sext = arith.extsi %a : i32 to i64
    %zext = arith.extui %c : i1 to i32
    %trunc = arith.trunci %l : i64 to i32
    %sitofp = arith.sitofp %a : i32 to f32
    %uitofp = arith.uitofp %b : i32 to f32
    %fptosi = arith.fptosi %x : f32 to i32
    %fptoui = arith.fptoui %x : f32 to i64
    %bits = arith.bitcast %x : f32 to i32
    cf.br ^loop(%k4, %add : i32, i32)
  ^loop(%i: i32, %acc: i32):
    %more = arith.cmpi slt, %i, %b : i32
    cf.cond_br %more, ^body, ^exit(%acc : i32)
  ^body:
    %next = arith.addi %i, %k4 : i32
    cf.cond_br %c, ^loop(%next, %acc : i32, i32), ^loop(%next, %next : i32, i32)
  ^exit(%r: i32):
    kernel.store %r, %out, %a : !kernel.ptr<global, i32>, i32
    kernel.return
  }
}
// The custom syntax of every arith op family and of cf.br / cf.cond_br, exactly as mlir-opt-22
// prints them: kc prints this file back line for line (the input's `0.1` as MLIR spells it).
// RUN: %kc %s --emit=cf-ir --no-locs | FileCheck %s --match-full-lines
//
// mlir-opt-22 reads the mixed form (--generic=kc) and prints every op the same way, but for
// the value and block names it chooses (stripped here) and its `// N preds` comments.
// REQUIRES: mlir-opt
// RUN: %kc %s --emit=cf-ir --no-locs --generic=kc > %t.mixed.mlir
// RUN: %mlir-opt --allow-unregistered-dialect %t.mixed.mlir > %t.back.mlir
// RUN: diff -B <(sed -E 's/%%[A-Za-z0-9_.$-]+/%%V/g; s/\^[A-Za-z0-9_.$-]+/^B/g' %t.mixed.mlir) \
// RUN:   <(sed -E 's/%%[A-Za-z0-9_.$-]+/%%V/g; s/\^[A-Za-z0-9_.$-]+/^B/g; s| *//.*||' %t.back.mlir)
// RUN: FileCheck %s --check-prefix=MIXED < %t.mixed.mlir
// MIXED:      module {
// MIXED-NEXT:   "kernel.func"() ({
// MIXED:          %lt = arith.cmpi slt, %a, %b : i32
// MIXED:          "kernel.store"(%r, %out, %a) : (i32, !kernel.ptr<global, i32>, i32) -> ()
// MIXED-NEXT:     "kernel.return"() : () -> ()
// MIXED-NEXT:   }) {sym_name = "upstream"} : () -> ()
// MIXED-NEXT: }
//
// And the generic form of the same ops, for reference.
// RUN: %kc %s --emit=cf-ir --no-locs --generic | FileCheck %s --check-prefix=GENERIC
// GENERIC: %tenth = "arith.constant"() <{value = 1.000000e-01 : f32}> : () -> f32
// GENERIC: %lt = "arith.cmpi"(%a, %b) <{predicate = 2 : i64}> : (i32, i32) -> i1
// GENERIC: %sext = "arith.extsi"(%a) : (i32) -> i64
// GENERIC: "cf.br"(%k4, %add)[^loop] : (i32, i32) -> ()
// GENERIC: "cf.cond_br"(%more, %acc)[^body, ^exit] <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (i1, i32) -> ()
// CHECK:      module {
// CHECK-NEXT:   kernel.func @upstream {
// CHECK-NEXT:   ^entry(%a: i32, %b: i32, %l: i64, %x: f32, %c: i1, %out: !kernel.ptr<global, i32>):
// CHECK-NEXT:     %k4 = arith.constant 4 : i32
// CHECK-NEXT:     %km5 = arith.constant -5 : i64
// CHECK-NEXT:     %t = arith.constant true
// CHECK-NEXT:     %f = arith.constant false
// CHECK-NEXT:     %one = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:     %tenth = arith.constant 1.000000e-01 : f32
// CHECK-NEXT:     %nan = arith.constant 0x7FC00000 : f32
// CHECK-NEXT:     %big = arith.constant 3.40282347E+38 : f32
// CHECK-NEXT:     %add = arith.addi %a, %b : i32
// CHECK-NEXT:     %sub = arith.subi %a, %b : i32
// CHECK-NEXT:     %mul = arith.muli %a, %b : i32
// CHECK-NEXT:     %divs = arith.divsi %a, %b : i32
// CHECK-NEXT:     %divu = arith.divui %a, %b : i32
// CHECK-NEXT:     %rems = arith.remsi %a, %b : i32
// CHECK-NEXT:     %remu = arith.remui %a, %b : i32
// CHECK-NEXT:     %and = arith.andi %a, %b : i32
// CHECK-NEXT:     %or = arith.ori %a, %b : i32
// CHECK-NEXT:     %xor = arith.xori %c, %t : i1
// CHECK-NEXT:     %shl = arith.shli %l, %km5 : i64
// CHECK-NEXT:     %shrs = arith.shrsi %l, %km5 : i64
// CHECK-NEXT:     %shru = arith.shrui %l, %km5 : i64
// CHECK-NEXT:     %mins = arith.minsi %a, %k4 : i32
// CHECK-NEXT:     %maxs = arith.maxsi %a, %k4 : i32
// CHECK-NEXT:     %minu = arith.minui %a, %k4 : i32
// CHECK-NEXT:     %maxu = arith.maxui %a, %k4 : i32
// CHECK-NEXT:     %addf = arith.addf %x, %one : f32
// CHECK-NEXT:     %subf = arith.subf %x, %one : f32
// CHECK-NEXT:     %mulf = arith.mulf %x, %tenth : f32
// CHECK-NEXT:     %divf = arith.divf %x, %tenth : f32
// CHECK-NEXT:     %remf = arith.remf %x, %nan : f32
// CHECK-NEXT:     %minf = arith.minimumf %x, %big : f32
// CHECK-NEXT:     %maxf = arith.maximumf %x, %big : f32
// CHECK-NEXT:     %neg = arith.negf %x : f32
// CHECK-NEXT:     %lt = arith.cmpi slt, %a, %b : i32
// CHECK-NEXT:     %uge = arith.cmpi uge, %l, %km5 : i64
// CHECK-NEXT:     %eq1 = arith.cmpi eq, %c, %t : i1
// CHECK-NEXT:     %olt = arith.cmpf olt, %x, %one : f32
// CHECK-NEXT:     %une = arith.cmpf une, %x, %x : f32
// CHECK-NEXT:     %sel = arith.select %c, %a, %b : i32
// CHECK-NEXT:     %self = arith.select %lt, %x, %addf : f32
// CHECK-NEXT:     %sext = arith.extsi %a : i32 to i64
// CHECK-NEXT:     %zext = arith.extui %c : i1 to i32
// CHECK-NEXT:     %trunc = arith.trunci %l : i64 to i32
// CHECK-NEXT:     %sitofp = arith.sitofp %a : i32 to f32
// CHECK-NEXT:     %uitofp = arith.uitofp %b : i32 to f32
// CHECK-NEXT:     %fptosi = arith.fptosi %x : f32 to i32
// CHECK-NEXT:     %fptoui = arith.fptoui %x : f32 to i64
// CHECK-NEXT:     %bits = arith.bitcast %x : f32 to i32
// CHECK-NEXT:     cf.br ^loop(%k4, %add : i32, i32)
// CHECK-NEXT:   ^loop(%i: i32, %acc: i32):
// CHECK-NEXT:     %more = arith.cmpi slt, %i, %b : i32
// CHECK-NEXT:     cf.cond_br %more, ^body, ^exit(%acc : i32)
// CHECK-NEXT:   ^body:
// CHECK-NEXT:     %next = arith.addi %i, %k4 : i32
// CHECK-NEXT:     cf.cond_br %c, ^loop(%next, %acc : i32, i32), ^loop(%next, %next : i32, i32)
// CHECK-NEXT:   ^exit(%r: i32):
// CHECK-NEXT:     kernel.store %r, %out, %a : !kernel.ptr<global, i32>, i32
// CHECK-NEXT:     kernel.return
// CHECK-NEXT:   }
// CHECK-NEXT: }
