//! The size test (issues #10 and #12): kernels far larger than the other tests' compile with
//! `-S`, and their listings assemble with llvm-mc-22. Shapes (`kc_tests::gen::large`): 30,000
//! sequential `if`s, a 10,000-arm `else if` chain with a uniform and with a divergent
//! condition, 100,000 stores, and the mixed kernel of 25,600 statements (divergent and
//! uniform ifs, small divergent loops, loads and stores). These once overflowed the stack
//! (recursion over the nesting), took quadratic time (waitcnt, sync dependence, the control
//! tree, unify-loop-exits) or produced branches out of `s_cbranch` range (the mixed kernel:
//! a never-taken skip to the kernel's end after every loop).
//!
//! Each kernel is compiled by the `kc` binary, on its main thread's default 8 MiB stack (no
//! pass may recurse in proportion to the kernel), under a 4 GiB address-space limit so a
//! blow-up fails here instead of starving the machine. Time growth is measured by the
//! criterion benchmark `compiler/benches/size.rs`; this test only checks the outcome.
//!
//! Environment: `KC_BIN` (the `kc` binary; built with cargo otherwise). Assembling is
//! skipped, with a message, when llvm-mc-22 is missing (`tests/run` fails on that message).
//! The README's growth table comes from `tests/size_table.rs` (`cargo run --release -p
//! kc-tests --bin size-table`).

use kc_tests::gen::large::Shape;
use kc_tests::harness::{assemble_gfx942, locate_llvm_mc, Layout};
use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::Instant;

/// The address-space limit for one compile, in KiB.
const MEMORY_LIMIT_KIB: u64 = 4 << 20;

/// The shapes and their sizes.
fn cases() -> Vec<(Shape, usize)> {
    vec![
        (Shape::SequentialIfs, 30_000),
        (Shape::UniformChain, 10_000),
        (Shape::DivergentChain, 10_000),
        (Shape::Stores, 100_000),
        (Shape::Mixed, 25_600),
    ]
}

/// Compiles `src` with `kc -S` under the memory limit: the listing or kc's stderr.
fn compile(kc: &Path, src: &Path, out: &Path) -> Result<(), String> {
    let script = format!("ulimit -v {MEMORY_LIMIT_KIB} && exec \"$0\" \"$1\" -S -o \"$2\"",);
    let o = Command::new("bash")
        .args(["-c", &script])
        .arg(kc)
        .arg(src)
        .arg(out)
        .output()
        .map_err(|e| format!("cannot run kc: {e}"))?;
    if o.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{} {}",
            o.status,
            String::from_utf8_lossy(&o.stderr).trim()
        ))
    }
}

/// Assembles the listing file `s` with llvm-mc-22: no error and no warning.
fn assemble(mc: &Path, s: &Path) -> Result<(), String> {
    let listing =
        std::fs::read_to_string(s).map_err(|e| format!("cannot read {}: {e}", s.display()))?;
    assemble_gfx942(mc, &listing)
}

fn main() -> ExitCode {
    let layout = Layout::detect();
    let kc = match layout.build_kc(false) {
        Ok(kc) => kc,
        Err(e) => {
            println!("size: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mc = locate_llvm_mc()
        .map_err(|e| println!("size: skipped assembling ({e})"))
        .ok();
    let dir = layout.target_dir.join("size-test");
    if let Err(e) = std::fs::create_dir_all(&dir) {
        println!("size: cannot create {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    let mut failed = 0;
    for (shape, n) in cases() {
        let src = dir.join(format!("{}_{n}.k", shape.name()));
        let out = dir.join(format!("{}_{n}.s", shape.name()));
        if let Err(e) = std::fs::write(&src, shape.kernel(n)) {
            println!("size: cannot write {}: {e}", src.display());
            return ExitCode::FAILURE;
        }
        let t = Instant::now();
        let mut result = compile(&kc, &src, &out);
        let secs = t.elapsed().as_secs_f64();
        if let (Ok(()), Some(mc)) = (&result, &mc) {
            result = assemble(mc, &out);
        }
        let what = format!("{} ({n})", shape.name());
        match result {
            Ok(()) => {
                let bytes = std::fs::metadata(&out).map_or(0, |m| m.len());
                println!("PASS: {what}: -S in {secs:.1} s, {bytes} bytes of listing, assembles");
            }
            Err(e) => {
                failed += 1;
                println!("FAIL: {what}: {e}");
            }
        }
    }
    if failed > 0 {
        println!("size: {failed} failed");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
