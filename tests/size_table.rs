//! The README's kernel-size tables, measured on the `kc` binary (GNU `/usr/bin/time`: wall
//! clock, CPU time (user + system) and peak resident memory). A measurement, not a test
//! (`tests/size.rs` checks that the large shapes compile and assemble;
//! `compiler/benches/size.rs` is the criterion benchmark).
//!
//! - The mixed table (issue #12): the `mixed` shape of `kc_tests::gen::large` (divergent and
//!   uniform ifs, small divergent loops, loads and stores) at 1,600, 6,400, 25,600 and 100,000
//!   statements, `-S` and `--emit=uniformity`, each column with its growth over the previous
//!   one: linear growth reads as 4x per column.
//! - The shape table (issue #10): each other shape at N, 2N and 4N with `-S`, so linear growth
//!   reads as 2x per column.
//!
//! - The sweep: the mixed shape at every doubling from 400 to 102,400 statements, `-S` CPU
//!   time per statement, which shows where the cost per statement steps up.
//!
//! - The chain table: the uniform and the divergent `else if` chain at 20,000, 40,000 and
//!   80,000 arms, `-S` CPU time and its growth per 2x.
//!
//! - The latency table: the machine's load latency by working-set size (no compile).
//!
//! `cargo run --release -p kc-tests --bin size-table [mixed|shapes|chains|sweep|latency]` (the
//! first two tables without an argument; `KC_BIN` names the `kc` binary, `KC_SIZE_RUNS` the runs per compile, of which
//! the least times and the largest memory are shown).

use kc_tests::gen::large::Shape;
use kc_tests::harness::Layout;
use std::path::Path;
use std::process::{Command, ExitCode};

/// The sizes of the mixed table.
const MIXED_SIZES: [usize; 4] = [1_600, 6_400, 25_600, 100_000];

/// One compile: wall seconds, CPU seconds, peak resident KiB.
struct Run {
    wall: f64,
    cpu: f64,
    kib: f64,
}

/// How many times each compile runs (`KC_SIZE_RUNS`, default 3): the table shows the least
/// wall and CPU time and the largest peak memory, which a machine shared with other builds
/// disturbs least.
fn runs() -> usize {
    std::env::var("KC_SIZE_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(3)
}

/// Runs `kc src args -o out` under GNU time [`runs`] times.
fn measure(kc: &Path, src: &Path, args: &[&str], out: &Path) -> Result<Run, String> {
    let mut best: Option<Run> = None;
    for _ in 0..runs() {
        let r = measure_once(kc, src, args, out)?;
        best = Some(match best {
            None => r,
            Some(b) => Run {
                wall: b.wall.min(r.wall),
                cpu: b.cpu.min(r.cpu),
                kib: b.kib.max(r.kib),
            },
        });
    }
    Ok(best.expect("at least one run"))
}

/// Runs `kc src args -o out` once under GNU time.
fn measure_once(kc: &Path, src: &Path, args: &[&str], out: &Path) -> Result<Run, String> {
    let o = Command::new("/usr/bin/time")
        .args(["-f", "%e %U %S %M"])
        .arg(kc)
        .arg(src)
        .args(args)
        .arg("-o")
        .arg(out)
        .output()
        .map_err(|e| format!("cannot run /usr/bin/time: {e}"))?;
    let stderr = String::from_utf8_lossy(&o.stderr).to_string();
    let fields: Vec<f64> = stderr
        .lines()
        .last()
        .unwrap_or("")
        .split(' ')
        .filter_map(|x| x.parse().ok())
        .collect();
    match fields.as_slice() {
        [wall, user, sys, kib] if o.status.success() => Ok(Run {
            wall: *wall,
            cpu: user + sys,
            kib: *kib,
        }),
        _ => Err(format!("failed: {}", stderr.trim().replace('\n', " "))),
    }
}

/// Writes the kernel of `shape` with `size` statements into `dir`.
fn write_kernel(dir: &Path, shape: Shape, size: usize) -> Result<std::path::PathBuf, String> {
    let src = dir.join(format!("{}_{size}.k", shape.name()));
    std::fs::write(&src, shape.kernel(size))
        .map_err(|e| format!("cannot write {}: {e}", src.display()))?;
    Ok(src)
}

/// `value` and, after the first column, its ratio to the previous column's.
fn cell(value: f64, prev: Option<f64>, unit: &str, digits: usize) -> String {
    let v = format!("{value:.digits$} {unit}");
    match prev {
        Some(p) if p > 0.0 => format!("{v} ({:.1}x)", value / p),
        _ => v,
    }
}

/// The mixed table: rows of wall time, CPU time and peak memory for `-S` and for
/// `--emit=uniformity`, one column per size with the growth per 4x.
fn mixed_table(kc: &Path, dir: &Path) -> Result<(), String> {
    let mut srcs = Vec::new();
    for n in MIXED_SIZES {
        srcs.push(write_kernel(dir, Shape::Mixed, n)?);
    }
    let header: Vec<String> = MIXED_SIZES
        .iter()
        .map(|n| format!("N = {}", group_digits(*n)))
        .collect();
    println!("| mixed kernel | {} |", header.join(" | "));
    println!("|---|{}", "---|".repeat(MIXED_SIZES.len()));
    for (what, args, ext) in [
        ("`-S`", &["-S"][..], "s"),
        ("`--emit=uniformity`", &["--emit=uniformity"][..], "u"),
    ] {
        let mut runs = Vec::new();
        for src in &srcs {
            runs.push(measure(kc, src, args, &src.with_extension(ext)));
        }
        type Field = fn(&Run) -> f64;
        let rows: [(&str, Field, &str, usize); 3] = [
            ("wall time", |r| r.wall, "s", 2),
            ("CPU time", |r| r.cpu, "s", 2),
            ("peak memory", |r| r.kib / 1024.0, "MB", 0),
        ];
        for (name, field, unit, digits) in rows {
            let mut cells = Vec::new();
            let mut prev = None;
            for r in &runs {
                match r {
                    Ok(r) => {
                        let v = field(r);
                        cells.push(cell(v, prev, unit, digits));
                        prev = Some(v);
                    }
                    Err(e) => {
                        cells.push(e.clone());
                        prev = None;
                    }
                }
            }
            println!("| {what} {name} | {} |", cells.join(" | "));
        }
    }
    Ok(())
}

/// `25600` as `25,600`.
fn group_digits(n: usize) -> String {
    let digits = n.to_string().into_bytes();
    let groups: Vec<&str> = digits
        .rchunks(3)
        .rev()
        .map(|g| std::str::from_utf8(g).expect("ASCII digits"))
        .collect();
    groups.join(",")
}

/// The sizes of the sweep: 400 to 102,400 statements, doubling.
const SWEEP_SIZES: [usize; 9] = [
    400, 800, 1_600, 3_200, 6_400, 12_800, 25_600, 51_200, 102_400,
];

/// The sweep: the mixed kernel at every size of [`SWEEP_SIZES`], `-S`, CPU time per statement
/// and its growth per 2x. Linear work reads as a flat column; a step in it is the working set
/// leaving a cache level, not a pass growing faster than its input.
fn sweep_table(kc: &Path, dir: &Path) -> Result<(), String> {
    println!("| N | `-S` CPU time | per statement | growth per 2x | peak memory |");
    println!("|---|---|---|---|---|");
    let mut prev = None;
    for n in SWEEP_SIZES {
        let src = write_kernel(dir, Shape::Mixed, n)?;
        let r = measure(kc, &src, &["-S"], &src.with_extension("s"))?;
        let per = r.cpu / n as f64 * 1e6;
        let growth = match prev {
            Some(p) if p > 0.0 => format!("{:.2}x", r.cpu / p),
            _ => String::new(),
        };
        println!(
            "| {} | {:.3} s | {per:.1} µs | {growth} | {:.0} MB |",
            group_digits(n),
            r.cpu,
            r.kib / 1024.0
        );
        prev = Some(r.cpu);
    }
    Ok(())
}

/// The machine's memory latency by working-set size: a dependent load chase through a random
/// cyclic permutation of 64-byte lines, 256 KiB to 256 MiB, nanoseconds per load. Where it
/// steps up is the cache a compile's working set must fit in to run at the small kernels'
/// speed per statement.
fn latency_table() {
    println!("| working set | ns per dependent load |");
    println!("|---|---|");
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut kib = 256usize;
    while kib <= 256 * 1024 {
        let lines = kib * 1024 / 64;
        // One u64 per 64-byte line (8 words), linked in a random cyclic order.
        let mut order: Vec<usize> = (0..lines).collect();
        for i in (1..lines).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            order.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        let mut next = vec![0usize; lines * 8];
        for w in 0..lines {
            next[order[w] * 8] = order[(w + 1) % lines] * 8;
        }
        let steps = 20_000_000usize;
        let start = std::time::Instant::now();
        let mut p = 0usize;
        for _ in 0..steps {
            p = next[p];
        }
        let ns = start.elapsed().as_secs_f64() * 1e9 / steps as f64;
        std::hint::black_box(p);
        let size = if kib >= 1024 {
            format!("{} MiB", kib / 1024)
        } else {
            format!("{kib} KiB")
        };
        println!("| {size} | {ns:.1} |");
        kib *= 2;
    }
}

/// The arms of the chain table: the long chains the README promises to compile in linear time.
const CHAIN_SIZES: [usize; 3] = [20_000, 40_000, 80_000];

/// The chain table: the uniform and the divergent `else if` chain at every size of
/// [`CHAIN_SIZES`], `-S` CPU time and peak memory, each with its growth per 2x (linear: 2x;
/// a pass quadratic in the arms, like a walk of the chain's run of empty join blocks per
/// arm, shows as 4x).
fn chain_table(kc: &Path, dir: &Path) -> Result<(), String> {
    let header: Vec<String> = CHAIN_SIZES
        .iter()
        .map(|n| format!("{} arms", group_digits(*n)))
        .collect();
    println!("| `else if` chain, `-S` | {} |", header.join(" | "));
    println!("|---|{}", "---|".repeat(CHAIN_SIZES.len()));
    for shape in [Shape::UniformChain, Shape::DivergentChain] {
        let mut cells = Vec::new();
        let mut prev = None;
        for n in CHAIN_SIZES {
            let src = write_kernel(dir, shape, n)?;
            match measure(kc, &src, &["-S"], &src.with_extension("s")) {
                Ok(r) => {
                    cells.push(format!(
                        "{}, {:.0} MB",
                        cell(r.cpu, prev, "s", 2),
                        r.kib / 1024.0
                    ));
                    prev = Some(r.cpu);
                }
                Err(e) => {
                    cells.push(e);
                    prev = None;
                }
            }
        }
        println!("| {} | {} |", shape.name(), cells.join(" | "));
    }
    Ok(())
}

/// The base size N of each shape in the growth table.
fn table_base(shape: Shape) -> Option<usize> {
    match shape {
        Shape::SequentialIfs => Some(5_000),
        Shape::UniformChain | Shape::DivergentChain => Some(2_500),
        Shape::Stores => Some(25_000),
        Shape::Mixed => None,
    }
}

/// The shape table: `-S` at N, 2N, 4N, wall time and peak memory.
fn shape_table(kc: &Path, dir: &Path) -> Result<(), String> {
    println!("| shape, `-S` | N | 2N | 4N |");
    println!("|---|---|---|---|");
    for shape in Shape::ALL {
        let Some(n) = table_base(shape) else { continue };
        let mut cells = Vec::new();
        for size in [n, 2 * n, 4 * n] {
            let src = write_kernel(dir, shape, size)?;
            cells.push(match measure(kc, &src, &["-S"], &src.with_extension("s")) {
                Ok(r) => format!("{:.2} s, {:.0} MB", r.wall, r.kib / 1024.0),
                Err(e) => e,
            });
        }
        println!("| {} ({n}) | {} |", shape.name(), cells.join(" | "));
    }
    Ok(())
}

fn main() -> ExitCode {
    let which = std::env::args().nth(1);
    let (mixed, shapes) = match which.as_deref() {
        None => (true, true),
        Some("sweep") | Some("latency") | Some("chains") => (false, false),
        Some("mixed") => (true, false),
        Some("shapes") => (false, true),
        Some(other) => {
            eprintln!(
                "size-table: unknown table `{other}` (mixed, shapes, chains, sweep or latency)"
            );
            return ExitCode::FAILURE;
        }
    };
    if which.as_deref() == Some("latency") {
        latency_table();
        return ExitCode::SUCCESS;
    }
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
    let mut result = Ok(());
    if which.as_deref() == Some("sweep") {
        result = sweep_table(&kc, &dir);
    }
    if which.as_deref() == Some("chains") {
        result = chain_table(&kc, &dir);
    }
    if mixed {
        result = mixed_table(&kc, &dir);
        if shapes {
            println!();
        }
    }
    if shapes && result.is_ok() {
        result = shape_table(&kc, &dir);
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("size-table: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn group_digits() {
        assert_eq!(super::group_digits(1_600), "1,600");
        assert_eq!(super::group_digits(100_000), "100,000");
        assert_eq!(super::group_digits(25_600), "25,600");
        assert_eq!(super::group_digits(999), "999");
    }
}
