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

/// A count or seed from the environment (`KC_EXEC_COUNT=17000`, `KC_EXEC_SEED=0x10000`):
/// decimal or `0x` hexadecimal, `default` when unset or unreadable.
pub fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| match s.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16).ok(),
            None => s.parse().ok(),
        })
        .unwrap_or(default)
}
