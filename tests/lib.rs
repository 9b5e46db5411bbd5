//! Test harness support for kc.
//!
//! The main piece is [`harness`], an LLVM-lit-style runner for the files under
//! `tests/filetests/<suite>/`: each file carries `// RUN:` lines that are run
//! through `bash` after `%`-substitution, typically piping into LLVM's
//! `FileCheck`. The `filetests` test target (`tests/filetests.rs`) is a thin
//! `main` around [`harness::main`].

pub mod harness;
