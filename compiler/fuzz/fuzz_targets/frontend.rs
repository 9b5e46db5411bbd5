//! .k source -> parse -> check -> lower -> verify. Any input may be rejected by the parser
//! or the checker; a program that checked must lower to IR that verifies.
#![no_main]

use kc_compiler::diag::SourceFile;
use kc_compiler::{check, lower, parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let file = SourceFile::new("fuzz.k", text);
    let Ok(module) = parse::parse(&file) else {
        return;
    };
    let Ok(checked) = check::check(&file, &module) else {
        return;
    };
    let ir = lower::lower(&file, &module, &checked);
    if let Err(errs) = kc_dialect::verify::verify(&ir) {
        let msgs: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        panic!(
            "lowered IR of a checked program fails to verify:\n{}\n--- IR ---\n{}",
            msgs.join("\n"),
            kc_dialect::text::print(&ir, &Default::default())
        );
    }
});
