// MLIR's verifier, with kc's dialects from the plugin, rejects broken kernels: the traits and
// operand lists of KcDialects.td (generated from kc's op registry) are checked for real.
// REQUIRES: mlir-opt, mlir-plugin
// RUN: %mlir-opt --load-dialect-plugin=%mlir-plugin %s --split-input-file --verify-diagnostics

// A block that does not end in a terminator: kernel.store is none.
"builtin.module"() ({
  "kernel.func"() ({
  ^entry(%out: !kernel.ptr<global, i32>, %i: i32):
    "cf.br"()[^next] : () -> ()
  ^next:
    // expected-error@+1 {{block with no terminator}}
    "kernel.store"(%i, %out, %i) : (i32, !kernel.ptr<global, i32>, i32) -> ()
  }) {sym_name = "k"} : () -> ()
}) : () -> ()

// -----

// kernel.store without its index operand.
"builtin.module"() ({
  "kernel.func"() ({
  ^entry(%out: !kernel.ptr<global, i32>, %i: i32):
    // expected-error@+1 {{expected 3 operands, but found 2}}
    "kernel.store"(%i, %out) : (i32, !kernel.ptr<global, i32>) -> ()
    "kernel.return"() : () -> ()
  }) {sym_name = "k"} : () -> ()
}) : () -> ()

// -----

// A terminator in the middle of a block.
"builtin.module"() ({
  "kernel.func"() ({
  ^entry:
    // expected-error@+1 {{must be the last operation in the parent block}}
    "kernel.return"() : () -> ()
    "kernel.return"() : () -> ()
  }) {sym_name = "k"} : () -> ()
}) : () -> ()

// -----

// A kernel is isolated from above: it cannot use a value defined outside it.
"builtin.module"() ({
  %c = "arith.constant"() <{value = 0 : i32}> : () -> i32
  // expected-note@+1 {{required by region isolation constraints}}
  "kernel.func"() ({
  ^entry(%out: !kernel.ptr<global, i32>):
    // expected-error@+1 {{using value defined outside the region}}
    "kernel.store"(%c, %out, %c) : (i32, !kernel.ptr<global, i32>, i32) -> ()
    "kernel.return"() : () -> ()
  }) {sym_name = "k"} : () -> ()
}) : () -> ()

// -----

// A convergent op's optional trailing operand must be a token.
"builtin.module"() ({
  "kernel.func"() ({
  ^entry(%x: i32):
    // expected-error@+1 {{operand #1 must be a convergence token, but got 'i32'}}
    %r = "kernel.readfirstlane"(%x, %x) : (i32, i32) -> i32
    "kernel.return"() : () -> ()
  }) {sym_name = "k"} : () -> ()
}) : () -> ()

// -----

// kc's type syntax is checked: no such address space.
"builtin.module"() ({
  "kernel.func"() ({
  // expected-error@+2 {{expected address space `global` or `shared`}}
  // expected-error@+1 {{failed to parse Kernel_PtrType parameter 'space'}}
  ^entry(%out: !kernel.ptr<private, i32>):
    "kernel.return"() : () -> ()
  }) {sym_name = "k"} : () -> ()
}) : () -> ()
