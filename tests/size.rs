//! The size test (issue #10): kernels far larger than the other tests' compile with `-S`, and
//! their listings assemble with llvm-mc-22. Shapes (`kc_tests::gen::large`): 30,000
//! sequential `if`s, a 10,000-arm `else if` chain with a uniform and with a divergent
//! condition, 100,000 stores. These once overflowed the stack (recursion over the nesting),
//! took quadratic time (waitcnt, sync dependence, the control tree) or produced branches out
//! of `s_cbranch` range.
//!
//! Each kernel is compiled by the `kc` binary, on its main thread's default 8 MiB stack (no
//! pass may recurse in proportion to the kernel), under a 4 GiB address-space limit so a
//! blow-up fails here instead of starving the machine. Time growth is measured by the
//! criterion benchmark `compiler/benches/size.rs`; this test only checks the outcome.
//!
//! Environment: `KC_BIN` (the `kc` binary; built with cargo otherwise). Assembling is
//! skipped, with a message, when llvm-mc-22 is missing (`tests/run` fails on that message).
//! `KC_SIZE_TABLE=1` prints instead the README's table: each shape at N, 2N and 4N compiled
//! with `-S`, wall time and peak memory (GNU `/usr/bin/time`), so linear growth reads as 2x
//! per column.

use kc_tests::gen::large::Shape;
use kc_tests::harness::Layout;
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
    ]
}

fn llvm_mc() -> Option<String> {
    ["llvm-mc-22", "/usr/lib/llvm-22/bin/llvm-mc"]
        .into_iter()
        .find(|t| {
            Command::new(t)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .map(str::to_string)
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

/// Assembles the listing `s` with llvm-mc-22: no error and no warning.
fn assemble(mc: &str, s: &Path) -> Result<(), String> {
    let obj = s.with_extension("o");
    let o = Command::new(mc)
        .args([
            "-triple=amdgcn-amd-amdhsa",
            "-mcpu=gfx942",
            "-filetype=obj",
            "-o",
        ])
        .arg(&obj)
        .arg(s)
        .output()
        .map_err(|e| format!("cannot run {mc}: {e}"))?;
    let stderr = String::from_utf8_lossy(&o.stderr);
    if !o.status.success() || !stderr.trim().is_empty() {
        let first: Vec<&str> = stderr.lines().take(4).collect();
        return Err(format!("{mc}: {}", first.join(" | ")));
    }
    Ok(())
}

/// The base size N of each shape in the growth table.
fn table_base(shape: Shape) -> usize {
    match shape {
        Shape::SequentialIfs => 5_000,
        Shape::UniformChain | Shape::DivergentChain => 2_500,
        Shape::Stores => 25_000,
    }
}

/// Prints the growth table (`KC_SIZE_TABLE=1`): `-S` at N, 2N, 4N, time and peak memory.
fn table(kc: &Path, dir: &Path) -> ExitCode {
    println!("| shape, `-S` | N | 2N | 4N |");
    println!("|---|---|---|---|");
    for shape in Shape::ALL {
        let n = table_base(shape);
        let mut cells = Vec::new();
        for size in [n, 2 * n, 4 * n] {
            let src = dir.join(format!("{}_{size}.k", shape.name()));
            if let Err(e) = std::fs::write(&src, shape.kernel(size)) {
                println!("size: cannot write {}: {e}", src.display());
                return ExitCode::FAILURE;
            }
            let o = Command::new("/usr/bin/time")
                .args(["-f", "%e %M"])
                .arg(kc)
                .arg(&src)
                .args(["-S", "-o"])
                .arg(src.with_extension("s"))
                .output();
            let stderr = o
                .as_ref()
                .map(|o| String::from_utf8_lossy(&o.stderr).to_string());
            let fields: Vec<f64> = stderr
                .as_deref()
                .unwrap_or("")
                .lines()
                .last()
                .unwrap_or("")
                .split(' ')
                .filter_map(|x| x.parse().ok())
                .collect();
            match (&o, fields.as_slice()) {
                (Ok(o), [secs, kib]) if o.status.success() => {
                    cells.push(format!("{secs:.2} s, {:.0} MB", kib / 1024.0))
                }
                _ => cells.push(format!("failed: {}", stderr.unwrap_or_default().trim())),
            }
        }
        println!("| {} ({n}) | {} |", shape.name(), cells.join(" | "));
    }
    ExitCode::SUCCESS
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
    if std::env::var_os("KC_SIZE_TABLE").is_some() {
        let dir = layout.target_dir.join("size-table");
        if let Err(e) = std::fs::create_dir_all(&dir) {
            println!("size: cannot create {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
        return table(&kc, &dir);
    }
    let mc = llvm_mc();
    if mc.is_none() {
        println!("size: skipped assembling (llvm-mc-22 not found)");
    }
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
