// A pointer is a memref plus an index offset: kernel.ptr_offset moves the offset, a pointer
// block argument becomes two (the memref, `.off`), a select of pointers two selects, and a
// pointer passed to a block without an offset passes the kernel's zero index.
// RUN: %kc %s --emit=mlir-gpu -O0 --no-locs | FileCheck %s
// REQUIRES: mlir-opt
// RUN: %kc %s --emit=mlir-gpu -O0 | %mlir-opt > /dev/null
"builtin.module"() ({
  "kernel.func"() ({
  ^entry(%a: !kernel.ptr<global, i32>, %b: !kernel.ptr<global, i32>, %n: i32):
    %tid = "kernel.workitem_id"() {dim = "x"} : () -> i32
    %c = "arith.cmpi"(%tid, %n) <{predicate = 2 : i64}> : (i32, i32) -> i1
    %p = "kernel.ptr_offset"(%a, %n) : (!kernel.ptr<global, i32>, i32) -> !kernel.ptr<global, i32>
    %q = "arith.select"(%c, %p, %b) : (i1, !kernel.ptr<global, i32>, !kernel.ptr<global, i32>) -> !kernel.ptr<global, i32>
    "cf.cond_br"(%c, %q, %b)[^join, ^join] <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (i1, !kernel.ptr<global, i32>, !kernel.ptr<global, i32>) -> ()
  ^join(%r: !kernel.ptr<global, i32>):
    %s = "kernel.ptr_offset"(%r, %tid) : (!kernel.ptr<global, i32>, i32) -> !kernel.ptr<global, i32>
    "kernel.store"(%n, %s, %tid) : (i32, !kernel.ptr<global, i32>, i32) -> ()
    "kernel.return"() : () -> ()
  }) {sym_name = "ptrs"} : () -> ()
}) : () -> ()
// CHECK-LABEL: gpu.func @ptrs(%a: memref<?xi32, 1>, %b: memref<?xi32, 1>, %n: i32) kernel {
// CHECK-NEXT:    %zero.index = arith.constant 0 : index
// CHECK-NEXT:    %tid.index = gpu.thread_id x
// CHECK-NEXT:    %tid = arith.index_cast %tid.index : index to i32
// CHECK-NEXT:    %c = arith.cmpi slt, %tid, %n : i32
// CHECK-NEXT:    %p.idx = arith.index_cast %n : i32 to index
// CHECK-NEXT:    %q = arith.select %c, %a, %b : memref<?xi32, 1>
// CHECK-NEXT:    %q.zero = arith.constant 0 : index
// CHECK-NEXT:    %q.off = arith.select %c, %p.idx, %q.zero : index
// CHECK-NEXT:    cf.cond_br %c, ^join(%q, %q.off : memref<?xi32, 1>, index), ^join(%b, %zero.index : memref<?xi32, 1>, index)
// CHECK-NEXT:  ^join(%r: memref<?xi32, 1>, %r.off: index):
// CHECK-NEXT:    %s.idx = arith.index_cast %tid : i32 to index
// CHECK-NEXT:    %s.off = arith.addi %r.off, %s.idx : index
// CHECK-NEXT:    %s.idx.1 = arith.index_cast %tid : i32 to index
// CHECK-NEXT:    %s.addr = arith.addi %s.off, %s.idx.1 : index
// CHECK-NEXT:    memref.store %n, %r[%s.addr] : memref<?xi32, 1>
// CHECK-NEXT:    gpu.return
