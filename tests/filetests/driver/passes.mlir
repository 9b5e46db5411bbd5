// --passes=a,b,c runs exactly the named passes on IR input, verifying after each, and prints
// the IR (like mlir-opt / opt -passes). Misuse is a usage error (exit 2) naming the problem.
// RUN: %kc %s --passes=insert-tokens | FileCheck %s --check-prefix=TOK
// TOK: conv.entry
// TOK: kernel.if
// TOK-NOT: cf.cond_br
// RUN: %kc %s --passes=insert-tokens,lower-to-cf,unify-loop-exits | FileCheck %s --check-prefix=CF
// CF: conv.entry
// CF: cf.cond_br
// CF-NOT: kernel.if
// The output is IR kc reads back.
// RUN: %kc %s --passes=insert-tokens,lower-to-cf > %t.mlir && %kc %t.mlir -S | %llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null
// RUN: %kc %s --passes=insert-tokens,lower-to-cf --print-ir-after=lower-to-cf 2>&1 >/dev/null | FileCheck %s --check-prefix=DUMP
// DUMP: // -----// IR Dump After lower-to-cf //----- //
// DUMP-NOT: IR Dump After insert-tokens
// RUN: %kc %s --passes=unify-loop-exits 2>&1; test $? -eq 2
// RUN: not %kc %s --passes=unify-loop-exits 2>&1 | FileCheck %s --check-prefix=LEVEL
// LEVEL: kc: error: --passes: `unify-loop-exits` runs on CF IR, and kernel @k is in the structured kernel dialect (run lower-to-cf first)
// RUN: %kc %s --passes=lower-to-cf,bogus; test $? -eq 2
// RUN: not %kc %s --passes=lower-to-cf,bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: kc: error: --passes: unknown pass `bogus` (passes: insert-tokens, lower-to-cf,
// RUN: %kc %s --passes=lower-to-cf,,insert-tokens; test $? -eq 2
// RUN: %kc %s --passes=lower-to-cf -S; test $? -eq 2
// RUN: %kc %s --passes=lower-to-cf --emit=cf-ir; test $? -eq 2
// RUN: %kc %examples/diamond.k --passes=lower-to-cf; test $? -eq 2
// RUN: not %kc %examples/diamond.k --passes=lower-to-cf 2>&1 | FileCheck %s --check-prefix=SRC
// SRC: kc: error: --passes runs passes on IR input
// RUN: %kc --list-passes | FileCheck %s --check-prefix=LIST
// LIST: pass level preserves what it does
// LIST: insert-tokens kernel
// LIST: lower-to-cf kernel
// LIST: fix-irreducible cf
// LIST: unify-loop-exits cf
// LIST: isel cf - structurize divergent regions and select gfx942 instructions
// LIST: regalloc mir
// LIST: branch-folding mir
// LIST: waitcnt mir
// LIST: hazards mir
// LIST: branch-relax mir
module {
  kernel.func @k {
  ^entry(%out: !kernel.ptr<global, i32>, %n: i32):
    %t = kernel.workitem_id x : i32
    %0 = arith.cmpi slt, %t, %n : i32
    kernel.if %0 {
      %1 = arith.constant 1 : i32
      kernel.store %1, %out, %t : !kernel.ptr<global, i32>, i32
      kernel.yield
    } else {
      kernel.yield
    }
    kernel.return
  }
}
