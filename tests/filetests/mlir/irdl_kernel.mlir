// Why kc's kernels are verified with the ODS dialects, not IRDL: a well-formed kernel is
// rejected under the IRDL definitions because MLIR 22's dynamic ops never have traits
// (DynamicOpDefinition::hasTrait answers false), so kernel.return is not a terminator. If a
// later MLIR accepts this, IRDL could verify whole kernels and this test should be flipped.
// REQUIRES: mlir-opt
// RUN: not %mlir-opt --irdl-file=%mlir-defs/kc.irdl.mlir %s 2>&1 | FileCheck %s
// CHECK: error: block with no terminator, has "kernel.return"

"builtin.module"() ({
  "kernel.func"() ({
  ^entry:
    "kernel.return"() : () -> ()
  }) {sym_name = "k"} : () -> ()
}) : () -> ()
