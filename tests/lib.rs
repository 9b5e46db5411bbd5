//! Test harness support for kc.
//!
//! - [`harness`]: an LLVM-lit-style runner for the files under `tests/filetests/<suite>/`:
//!   each file carries `// RUN:` lines that are run through `bash` after `%`-substitution,
//!   typically piping into LLVM's `FileCheck`. The `filetests` test target
//!   (`tests/filetests.rs`) is a thin `main` around [`harness::main`].
//! - [`gen`]: deterministic random kernels (structured `.k` source and CF `.mlir`).
//! - [`diff`]: comparison of kc's uniformity verdicts with LLVM 22's, used by the
//!   `uniformity_diff` test target (`tests/uniformity_diff.rs`).

pub mod diff;
pub mod gen;
pub mod harness;
