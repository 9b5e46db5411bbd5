//! .k source -> parse -> check -> lower -> verify. Any input may be rejected by the parser
//! or the checker; a program that checked must lower to IR that verifies. The diagnostics of
//! a rejected input render with every source line cut to windows around the labels: their
//! size grows with the number of errors, never with errors times the line's length.
#![no_main]

use kc_compiler::diag::{render, Diagnostic, SourceFile};
use kc_compiler::{check, lower, parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let file = SourceFile::new("fuzz.k", text);
    let module = match parse::parse(&file) {
        Ok(m) => m,
        Err(diags) => return rendered_lines_bounded(&file, &diags),
    };
    let checked = match check::check(&file, &module) {
        Ok(c) => c,
        Err(diags) => return rendered_lines_bounded(&file, &diags),
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

/// Every source line a diagnostic shows (`N │ text`) is at most two windows of about 100
/// characters per label, whatever the length of the line in the file.
fn rendered_lines_bounded(file: &SourceFile, diags: &[Diagnostic]) {
    for d in diags {
        let out = render(file, std::slice::from_ref(d), false);
        let labels = 1 + d.secondary.len();
        let bound = 2 * labels * 110 + 16;
        for line in out.lines() {
            let digits = line.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 && line[digits..].starts_with(" │ ") {
                let width = line.chars().count();
                assert!(
                    width <= bound,
                    "a rendered source line of {width} characters (bound {bound}):\n{out}"
                );
            }
        }
    }
}
