//! Translations of kc IR into other compilers' IRs (MLIR's `Target/` idea: leave the kc
//! dialects for an external representation, one module per target format).
//!
//! - [`llvm_ir`]: CF-form kernels -> textual LLVM IR for `amdgcn-amd-amdhsa` (`--emit=llvm`).

pub mod llvm_ir;

pub use llvm_ir::{emit_llvm, is_folded, llvm_names, llvm_value_name, LlvmNames};
