//! .k source through the whole pipeline to cf-ir (verifier after every pass). Diagnostics
//! are fine; a panic or a verifier failure after a pass is a bug.
#![no_main]

use kc_compiler::pipeline::{self, Failure, Input, Options, Stage};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let input = Input {
        name: "fuzz.k".into(),
        text: text.into(),
        is_ir: false,
    };
    let opts = Options {
        locations: true,
        ..Options::new(Stage::CfIr)
    };
    match pipeline::run(&input, &opts) {
        Ok(_) => {}
        Err(Failure::Diagnostics(d)) => {
            // Internal errors (a pass produced invalid IR) are bugs, not user diagnostics.
            assert!(
                !d.starts_with("internal compiler error"),
                "pipeline internal error:\n{d}"
            );
        }
        Err(Failure::Usage(u)) => panic!("unexpected usage failure: {u}"),
    }
});
