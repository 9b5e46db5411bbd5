// 1,000 nested loops (only IR can nest this deep: source allows 64 levels of braces), each
// leaving on a uniform condition: every stage and the gfx942 listing run with a 1 MiB stack
// (1 KiB per level: no pass recurses over the nesting of regions or cycles), and both
// engines run the kernel.
// REQUIRES: llvm-mc
// RUN: echo 'kernel.func @k {' > %t.mlir
// RUN: echo '^entry(%%out: !kernel.ptr<global, i32>, %%n: i32):' >> %t.mlir
// RUN: echo '%%z = arith.constant 0 : i32' >> %t.mlir
// RUN: for i in $(seq 1000); do echo 'kernel.loop {'; done >> %t.mlir
// RUN: echo '%%one = arith.constant 1 : i32' >> %t.mlir
// RUN: echo 'kernel.store %%one, %%out, %%z : !kernel.ptr<global, i32>, i32' >> %t.mlir
// RUN: for i in $(seq 1000); do echo "%%c$i = arith.cmpi sgt, %%n, %%z : i32"; \
// RUN:   echo "kernel.if %%c$i {"; echo 'kernel.break'; echo '} else {'; echo 'kernel.yield'; \
// RUN:   echo '}'; echo 'kernel.yield'; echo '} latch {'; echo 'kernel.yield'; echo '}'; \
// RUN: done >> %t.mlir
// RUN: echo 'kernel.return' >> %t.mlir
// RUN: echo '}' >> %t.mlir
// RUN: bash -c 'ulimit -s 1024; for s in kernel-ir tokens cf-ir reducible llvm; do "$0" "$1" --emit=$s > /dev/null || exit 1; done' %kc %t.mlir
// RUN: bash -c 'ulimit -s 1024; exec "$0" "$1" --emit=uniformity' %kc %t.mlir | FileCheck %s --check-prefix=UNI
// UNI: 0 divergent values, 0 divergent branches
// UNI: depth=1000: entries(^loop.header_999)
// RUN: bash -c 'ulimit -s 1024; exec "$0" "$1" -S' %kc %t.mlir > %t.s
// RUN: %llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.o
// RUN: bash -c 'ulimit -s 1024; exec "$0" run --engine ref "$1" --args "$2"' %kc %t.mlir %S/Inputs/chain.args.json | FileCheck %s --check-prefix=OUT
// RUN: bash -c 'ulimit -s 1024; exec "$0" run --engine sim "$1" --args "$2"' %kc %t.mlir %S/Inputs/chain.args.json | FileCheck %s --check-prefix=OUT
// OUT: "data": [1]
