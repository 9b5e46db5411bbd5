// CF-form IR read from a file (an irreducible cycle; a structured kernel that kc lowers first)
// also gives valid LLVM IR that llc compiles.
// REQUIRES: opt, llc
// RUN: for f in %S/../cf/irreducible_input.mlir %S/../cf/ir_input.mlir %s; do \
// RUN:   %kc $f --emit=llvm -o %t.ll && %opt -passes=verify -disable-output %t.ll && \
// RUN:   %llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -o /dev/null %t.ll \
// RUN:   || { echo "FAILED: $f"; exit 1; }; done
// RUN: %kc %S/../cf/irreducible_input.mlir --emit=llvm | FileCheck %s --check-prefix=IRRED
// RUN: %kc %s --emit=llvm | FileCheck %s
kernel.func @unnamed {
^bb0(%0: !kernel.ptr<global, i32>, %1: i32):
  %2 = kernel.workitem_id x : i32
  %3 = arith.addi %2, %1 : i32
  kernel.store %3, %0, %2 : !kernel.ptr<global, i32>, i32
  kernel.return
}
// IRRED:      define amdgpu_kernel void @irreducible(i1 %c, i1 %d) #0 {
// IRRED-NEXT: entry:
// IRRED-NEXT:   %e = call token @llvm.experimental.convergence.entry()
// IRRED-NEXT:   br i1 %c, label %a, label %b
// IRRED-NEXT: a:
// IRRED-NEXT:   br i1 %d, label %b, label %exit
// IRRED-NEXT: b:
// IRRED-NEXT:   br label %a
// IRRED-NEXT: exit:
// IRRED-NEXT:   ret void

// Unnamed values (kc prints %N) become %.N in LLVM; kc's inserted entry token keeps its name.
// CHECK:      define amdgpu_kernel void @unnamed(ptr addrspace(1) %.0, i32 %.1) #0 {
// CHECK-NEXT: bb0:
// CHECK-NEXT:   %entry = call token @llvm.experimental.convergence.entry()
// CHECK-NEXT:   %.2 = call i32 @llvm.amdgcn.workitem.id.x()
// CHECK-NEXT:   %.3 = add i32 %.2, %.1
// CHECK-NEXT:   %.0.gep = getelementptr inbounds i32, ptr addrspace(1) %.0, i32 %.2
// CHECK-NEXT:   store i32 %.3, ptr addrspace(1) %.0.gep, align 4
