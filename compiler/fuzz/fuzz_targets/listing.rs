//! .k source through the whole pipeline to the gfx942 listing (`kc -S`), then llvm-mc-22.
//! Every input must end in a user diagnostic (what `kc` exits 1 with) or in a listing that
//! llvm-mc-22 assembles without an error or a warning. A panic, a stack overflow, an
//! "internal compiler error", a usage failure or a listing llvm-mc rejects is a bug.
//!
//! `KC_FUZZ_LLVM_MC` names the assembler (default `llvm-mc-22`).
#![no_main]

use kc_compiler::pipeline::{self, Failure, Input, Options, Stage};
use libfuzzer_sys::fuzz_target;
use std::io::Write;
use std::process::{Command, Stdio};

fn assemble(listing: &str) -> Result<(), String> {
    let mc = std::env::var("KC_FUZZ_LLVM_MC").unwrap_or_else(|_| "llvm-mc-22".into());
    let mut child = Command::new(&mc)
        .args([
            "-triple=amdgcn-amd-amdhsa",
            "-mcpu=gfx942",
            "-filetype=obj",
            "-o",
            "/dev/null",
            "-",
        ])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {mc}: {e}"));
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(listing.as_bytes())
        .expect("write the listing to llvm-mc");
    let out = child.wait_with_output().expect("llvm-mc finishes");
    if out.status.success() && out.stderr.is_empty() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let input = Input {
        name: "fuzz.k".into(),
        text: text.into(),
        is_ir: false,
    };
    match pipeline::run(&input, &Options::new(Stage::Asm)) {
        Ok(listing) => {
            if let Err(e) = assemble(&listing) {
                panic!("llvm-mc-22 rejects kc's listing:\n{e}\n--- listing ---\n{listing}");
            }
        }
        Err(Failure::Diagnostics(d)) => {
            assert!(
                !d.contains("internal compiler error"),
                "internal compiler error:\n{d}"
            );
        }
        Err(Failure::Usage(u)) => panic!("usage failure on a source input: {u}"),
    }
});
