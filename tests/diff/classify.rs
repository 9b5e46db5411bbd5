//! Explanations of disagreements between kc and LLVM (filled in below).

use super::{llvm::FuncVerdicts, KernelDiff};
use kc_dialect::Ir;

/// Why kc and LLVM disagree on an item, when the disagreement is understood.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {}

impl Class {
    pub fn describe(self) -> &'static str {
        match self {}
    }
}

/// Sets `class` on the mismatches of `d` that an explanation covers.
pub fn classify(_ir: &Ir, _d: &mut KernelDiff, _llvm: &FuncVerdicts) {}
