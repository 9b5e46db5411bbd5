//! The README's kernel-size table: each shape of `kc_tests::gen::large` at N, 2N and 4N,
//! compiled by the `kc` binary with `-S`, wall time and peak memory (GNU `/usr/bin/time`),
//! so linear growth reads as 2x per column. A measurement, not a test (`tests/size.rs`
//! checks that the large shapes compile and assemble; `compiler/benches/size.rs` is the
//! criterion benchmark).
//!
//! `cargo run --release -p kc-tests --bin size-table` (`KC_BIN` names the `kc` binary).

use kc_tests::gen::large::Shape;
use kc_tests::harness::Layout;
use std::path::Path;
use std::process::{Command, ExitCode};

/// The base size N of each shape in the growth table.
fn table_base(shape: Shape) -> usize {
    match shape {
        Shape::SequentialIfs => 5_000,
        Shape::UniformChain | Shape::DivergentChain => 2_500,
        Shape::Stores => 25_000,
    }
}

/// Prints the growth table: `-S` at N, 2N, 4N, time and peak memory.
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
            eprintln!("size-table: {e}");
            return ExitCode::FAILURE;
        }
    };
    let dir = layout.target_dir.join("size-table");
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("size-table: cannot create {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    table(&kc, &dir)
}
