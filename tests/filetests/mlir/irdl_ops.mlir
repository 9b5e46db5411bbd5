// kc's dialects in IRDL (dialect/mlir/kc.irdl.mlir, generated from the op registry) load into
// mlir-opt and check single ops: well-formed ones pass, malformed ones are rejected.
// Whole kernels cannot be checked this way: IRDL declares no traits and MLIR 22's dynamic
// ops report none (DynamicOpDefinition::hasTrait is always false), so kernel.return is no
// terminator and every kernel fails with "block with no terminator" (see irdl_kernel.mlir).
// The ops sit directly in the module, whose region needs no terminator; the ODS plugin
// (plugin_*.k) verifies whole kernels.
// REQUIRES: mlir-opt
// RUN: %mlir-opt --irdl-file=%mlir-defs/kc.irdl.mlir %s --split-input-file --verify-diagnostics

"builtin.module"() ({
  %t = "conv.entry"() : () -> !conv.token
  %h = "conv.loop"(%t) : (!conv.token) -> !conv.token
  "kernel.barrier"(%h) : (!conv.token) -> ()
  "kernel.barrier"() : () -> ()
  %x = "kernel.workitem_id"() {dim = "x"} : () -> i32
  %c = "arith.constant"() <{value = true}> : () -> i1
  %b = "kernel.ballot"(%c, %t) : (i1, !conv.token) -> i64
  %v = "kernel.var"(%x) : (i32) -> !kernel.variable<i32>
  %g = "kernel.get"(%v) : (!kernel.variable<i32>) -> i32
  %p = "kernel.shared_alloc"() {size = 64 : i64} : () -> !kernel.ptr<"shared", f32>
  %f = "kernel.load"(%p, %g) : (!kernel.ptr<"shared", f32>, i32) -> f32
  "kernel.store"(%f, %p, %x) : (f32, !kernel.ptr<"shared", f32>, i32) -> ()
  %o = "kernel.atomic"(%p, %f) {kind = "fadd", ordering = "acq_rel", scope = "agent"} : (!kernel.ptr<"shared", f32>, f32) -> f32
  %l = "kernel.atomic_load"(%p) {ordering = "acquire", scope = "workgroup"} : (!kernel.ptr<"shared", f32>) -> f32
  "kernel.atomic_store"(%l, %p) {ordering = "release", scope = "system"} : (f32, !kernel.ptr<"shared", f32>) -> ()
  "kernel.fence"() {ordering = "seq_cst", scope = "wavefront"} : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  %c = "arith.constant"() <{value = 0 : i32}> : () -> i32
  // A token is required where kc's registry says TAKES_TOKEN.
  // expected-error@+1 {{expected base type 'conv.token' but got 'builtin.integer'}}
  "kernel.barrier"(%c) : (i32) -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  %p = "kernel.shared_alloc"() {size = 64 : i64} : () -> !kernel.ptr<"shared", f32>
  // kernel.store takes value, pointer and index.
  // expected-error@+1 {{op expects exactly 3 operands, but got 2}}
  "kernel.store"(%p, %p) : (!kernel.ptr<"shared", f32>, !kernel.ptr<"shared", f32>) -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  // The dimension is one of x, y, z.
  // expected-error@+1 {{'"w"' does not satisfy the constraint}}
  %x = "kernel.workitem_id"() {dim = "w"} : () -> i32
}) : () -> ()

// -----

"builtin.module"() ({
  // Thread queries return i32.
  // expected-error@+1 {{expected 'i32' but got 'i64'}}
  %x = "kernel.lane_id"() : () -> i64
}) : () -> ()

// -----

"builtin.module"() ({
  // A fence names its ordering from kc's list (the verifier's own rules, such as "a fence
  // cannot be relaxed", are kc's, not the definition's).
  // expected-error@+1 {{'"sometimes"' does not satisfy the constraint}}
  "kernel.fence"() {ordering = "sometimes", scope = "agent"} : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  // Ordering and scope are required.
  // expected-error@+1 {{attribute "scope" is expected but not provided}}
  "kernel.fence"() {ordering = "release"} : () -> ()
}) : () -> ()
