// Harness self-test: `not` inverts a plain failure, and fails on success,
// on "command not found" and on crashes (signals, Rust panics = exit 101).
// RUN: not false
// RUN: not bash -c 'exit 3'
// RUN: not not true
// RUN: ! not bash -c 'exit 101'
// RUN: ! not nonexistent-kc-test-command
// RUN: not --crash bash -c 'kill -KILL $$'
// RUN: not --crash bash -c 'exit 101'
// RUN: not FileCheck %s < /dev/null
// RUN: not mlir-opt-22 %s 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: error:
// REQUIRES: mlir-opt

"not.registered"() : () -> ()
