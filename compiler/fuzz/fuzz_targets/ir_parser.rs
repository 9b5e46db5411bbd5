//! IR text -> parse. Whatever parses (verified or not) must print and re-parse, and
//! print -> parse -> print must be the identity, in the custom form, the generic form and the
//! mixed one (`--generic=kc`).
#![no_main]

use kc_dialect::text::{self, Generic, PrintOptions};
use libfuzzer_sys::fuzz_target;

fn round_trip(ir: &kc_dialect::Ir, opts: &PrintOptions, form: &str) {
    let first = text::print(ir, opts);
    let reparsed = match text::parse(&first, "printed.mlir") {
        Ok(ir) => ir,
        Err(e) => panic!("{form} print does not parse again: {e}\n--- printed ---\n{first}"),
    };
    let second = text::print(&reparsed, opts);
    assert!(
        first == second,
        "{form} print -> parse -> print is not the identity\n--- first ---\n{first}\n--- second ---\n{second}"
    );
}

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(ir) = text::parse(src, "fuzz.mlir") else {
        return;
    };
    // The verifiers may reject parsed IR; they must not panic (the token verifier assumes
    // verified IR, but must not panic on any).
    let _ = kc_dialect::verify::verify(&ir);
    let _ = kc_dialect::verify_tokens::verify_tokens(&ir);
    round_trip(&ir, &PrintOptions::default(), "custom");
    round_trip(&ir, &PrintOptions::generic(), "generic");
    let mixed = PrintOptions {
        generic: Generic::Kc,
        ..PrintOptions::default()
    };
    round_trip(&ir, &mixed, "mixed");
});
