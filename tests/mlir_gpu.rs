//! `--emit=mlir-gpu` on generated kernels: every kernel of the general generator
//! (`kc_tests::gen::source::kernel`, the whole language: divergent and uniform control flow,
//! loops with break/continue/return, shared arrays, atomics, cross-lane ops, both token
//! modes) translates to upstream `gpu` + `arith` + `cf` + `memref` that `mlir-opt-22` parses
//! and verifies with no unregistered dialect. The kernels go to mlir-opt in batches
//! (`--split-input-file`); a failing batch is retried kernel by kernel to name the culprit.

use kc_compiler::pipeline::{self, Input, Options, Stage};
use kc_tests::gen::source::{self, Tokens};
use kc_tests::harness::locate_mlir_opt;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

const KERNELS: u64 = 2_000;
const BATCH: usize = 250;
const SEED: u64 = 0x6d6c_6972;

/// Runs `mlir-opt` on `text` (with `--split-input-file` when `split`): `Err` with its
/// first lines of output on failure.
fn mlir_opt(tool: &Path, text: &str, split: bool) -> Result<(), String> {
    let mut cmd = Command::new(tool);
    if split {
        cmd.arg("--split-input-file");
    }
    let mut child = cmd
        .args(["-o", "/dev/null", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", tool.display()))?;
    let _ = child.stdin.take().map(|mut i| i.write_all(text.as_bytes()));
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if out.status.success() {
        return Ok(());
    }
    let err = String::from_utf8_lossy(&out.stderr);
    Err(err.lines().take(6).collect::<Vec<_>>().join("\n"))
}

#[test]
fn generated_kernels_verify_in_mlir() {
    let tool = locate_mlir_opt().unwrap_or_else(|e| panic!("{e}"));
    let mut outputs = Vec::new();
    for i in 0..KERNELS {
        let tokens = if i % 2 == 0 {
            Tokens::Implicit
        } else {
            Tokens::Explicit
        };
        let name = format!("m{i}");
        let input = Input {
            name: format!("{name}.k"),
            text: source::kernel(&name, SEED + i, tokens),
            is_ir: false,
        };
        let out = pipeline::run(&input, &Options::new(Stage::MlirGpu))
            .unwrap_or_else(|e| panic!("{name}.k (seed {}): {e:?}\n{}", SEED + i, input.text));
        outputs.push((input, out));
    }
    let mut failures = Vec::new();
    for batch in outputs.chunks(BATCH) {
        let text: Vec<&str> = batch.iter().map(|(_, o)| o.as_str()).collect();
        if mlir_opt(&tool, &text.join("\n// -----\n"), true).is_ok() {
            continue;
        }
        for (input, out) in batch {
            if let Err(e) = mlir_opt(&tool, out, false) {
                failures.push(format!("{}:\n{e}\n{}\n{out}", input.name, input.text));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} generated kernels rejected by mlir-opt:\n{}",
        failures.len(),
        failures
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}
