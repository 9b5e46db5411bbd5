//! MLIR inside kc (melior): `kc --verify-with-mlir`, MLIR's own verifier on kc's IR, and the
//! import of upstream MLIR kernels ([`import`]).
//!
//! Guarantees: [`verify`] parses kc's IR (kc's own ops in the generic form, `arith` and `cf` in
//! MLIR's custom syntax) in an MLIR context where exactly `builtin`,
//! `arith`, `cf` and kc's `kernel` and `conv` dialects are registered (the latter from the
//! ODS definitions generated from kc's op registry, compiled in by build.rs), unregistered
//! dialects are not allowed, and runs MLIR's verifier; any MLIR error (parse or verify) is
//! returned as text, located at the op's `file:line:col` when the IR carries locations.
//!
//! Empty without the `mlir` feature (which needs LLVM/MLIR 22).

#![cfg(feature = "mlir")]

pub mod import;

use melior::dialect::DialectRegistry;
use melior::ir::operation::OperationLike;
use melior::ir::Module;
use melior::Context;
use std::cell::RefCell;

#[allow(unsafe_code)]
mod ffi {
    extern "C" {
        /// dialect/mlir/kc_dialects.cpp: inserts the `kernel` and `conv` dialects.
        pub fn kcRegisterDialects(registry: mlir_sys::MlirDialectRegistry);
    }
}

/// A handle getter of an upstream dialect (`mlir_sys::mlirGetDialectHandle__arith__`, ...).
pub(crate) type DialectGetter = unsafe extern "C" fn() -> mlir_sys::MlirDialectHandle;

/// A registry of builtin (always there) and the upstream dialects of `getters`.
#[allow(unsafe_code)]
pub(crate) fn upstream_registry(getters: &[DialectGetter]) -> DialectRegistry {
    let registry = DialectRegistry::new();
    // SAFETY: the getters return MLIR's static dialect handles and the registry is live.
    unsafe {
        for getter in getters {
            mlir_sys::mlirDialectHandleInsertDialect(getter(), registry.to_raw());
        }
    }
    registry
}

/// A registry of builtin, arith, cf, kernel and conv.
#[allow(unsafe_code)]
fn registry() -> DialectRegistry {
    let registry = upstream_registry(&[
        mlir_sys::mlirGetDialectHandle__arith__,
        mlir_sys::mlirGetDialectHandle__cf__,
    ]);
    // SAFETY: kcRegisterDialects only inserts dialects into the live registry.
    unsafe { ffi::kcRegisterDialects(registry.to_raw()) };
    registry
}

/// Parses `generic` (kc's IR in MLIR's generic form) and verifies it with MLIR; `Err` holds
/// MLIR's diagnostics, one per line (`file:line:col: error: ...`, notes after).
pub fn verify(generic: &str) -> Result<(), String> {
    let context = Context::new_with_threading(false);
    context.append_dialect_registry(&registry());
    context.set_allow_unregistered_dialects(false);
    let messages = RefCell::new(Vec::<String>::new());
    let id = context.attach_diagnostic_handler(|d| {
        let mut m = messages.borrow_mut();
        m.push(format!(
            "{}: {}: {}",
            location(&d.location().to_string()),
            format!("{:?}", d.severity()).to_lowercase(),
            d
        ));
        for i in 0..d.note_count() {
            if let Ok(n) = d.note(i) {
                m.push(format!(
                    "{}: note: {n}",
                    location(&n.location().to_string())
                ));
            }
        }
        true
    });
    let ok = match Module::parse(&context, generic) {
        Some(module) => module.as_operation().verify(),
        None => false,
    };
    context.detach_diagnostic_handler(id);
    let messages = messages.into_inner();
    match (ok, messages.is_empty()) {
        (true, true) => Ok(()),
        (true, false) => Err(messages.join("\n")),
        (false, true) => Err("MLIR rejects the IR (no diagnostic)".into()),
        (false, false) => Err(messages.join("\n")),
    }
}

/// `loc("f.k":3:5)` as `f.k:3:5`; other locations as MLIR prints them.
fn location(loc: &str) -> String {
    let inner = loc
        .strip_prefix("loc(")
        .and_then(|l| l.strip_suffix(')'))
        .unwrap_or(loc);
    match inner.strip_prefix('"').and_then(|r| r.split_once('"')) {
        Some((file, rest)) => format!("{file}{rest}"),
        None => inner.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations() {
        assert_eq!(location("loc(\"a.k\":3:5)"), "a.k:3:5");
        assert_eq!(location("loc(unknown)"), "unknown");
    }

    #[test]
    fn accepts_a_kernel_and_rejects_a_broken_one() {
        let ok = r#""builtin.module"() ({
  "kernel.func"() ({
  ^entry(%out: !kernel.ptr<global, i32> loc("k.k":1:10)):
    %t = "conv.entry"() : () -> !conv.token loc("k.k":2:3)
    %x = "kernel.workitem_id"() {dim = "x"} : () -> i32 loc("k.k":3:3)
    "kernel.barrier"(%t) : (!conv.token) -> () loc("k.k":4:3)
    "kernel.store"(%x, %out, %x) : (i32, !kernel.ptr<global, i32>, i32) -> () loc("k.k":5:3)
    "kernel.return"() : () -> () loc("k.k":6:1)
  }) {sym_name = "k"} : () -> () loc("k.k":1:1)
}) : () -> ()
"#;
        assert_eq!(verify(ok), Ok(()));
        // The kernel's last block ends in a store: not a terminator.
        let bad = ok.replace("    \"kernel.return\"() : () -> () loc(\"k.k\":6:1)\n", "");
        let err = verify(&bad).unwrap_err();
        assert!(
            err.starts_with("k.k:5:3: error: block with no terminator"),
            "{err}"
        );
        // Not a kc op: unregistered dialects are errors.
        let err = verify(&ok.replace("kernel.barrier", "kernel.nope")).unwrap_err();
        assert!(err.contains("k.k:4:3: error:"), "{err}");
    }
}
