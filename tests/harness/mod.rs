//! LLVM-lit-style file tests.
//!
//! Every `.k`, `.mlir`, `.s` or `.json` file under `tests/filetests/<suite>/`
//! (except in `Inputs/` directories) is a test. It holds one or more
//! `// RUN: <command>` lines (`; RUN:` and `# RUN:` work too; a trailing `\`
//! continues onto the next RUN line). Each command runs under
//! `bash -o pipefail -c` in the test file's directory after substitution:
//!
//! | text         | becomes                                                  |
//! |--------------|----------------------------------------------------------|
//! | `%kc`        | the `kc` binary (`$KC_BIN`, else built with cargo)       |
//! | `%s` / `%S`  | the test file / its directory                            |
//! | `%t` / `%T`  | a per-test temp path / its directory (`target/filetests-tmp/`) |
//! | `%examples`  | the repo's `examples/` directory                         |
//! | `%mlir-defs` | `dialect/mlir/`: kc's dialects for MLIR (IRDL, ODS, C++) |
//! | `%mlir-plugin` | the `mlir-opt` plugin of kc's dialects, built from `dialect/mlir/` into `target/mlir-plugin/` |
//! | `%mlir-opt`, `%llvm-mc`, `%opt`, `%llc`, `%clang` | the LLVM 22 tool |
//! | `%%`         | `%`                                                      |
//!
//! `FileCheck` (LLVM 22's; `$KC_FILECHECK` overrides) and `not` are shell
//! functions available to every command. A test passes when all its RUN lines
//! exit 0. `// XFAIL:` marks an expected failure, `// REQUIRES: tool, ...`
//! skips the test when a tool is missing.
//!
//! Arguments (after `cargo test -p kc-tests --test filetests --`): substrings
//! selecting tests by `suite/name.ext`; `--exact`, `--skip S`, `--list`,
//! `--test-threads N` as in libtest. Environment: `KC_FILETESTS_VERBOSE=1`
//! prints every command, `KC_FILETESTS_JOBS`, `KC_FILETESTS_TIMEOUT`
//! (seconds per RUN line, default 120, 0 = none).

mod directives;
mod runner;
mod tools;

pub use directives::{parse as parse_directives, Directives, RunLine};
pub use runner::{Outcome, TestFile};
pub use tools::{
    assemble_gfx942, assemble_gfx942_to, locate_llvm_mc, locate_mlir_opt, locate_opt, Layout, Tools,
};

use std::env;
use std::fs;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// File extensions that make a file a test.
pub const TEST_EXTENSIONS: &[&str] = &["k", "mlir", "mir", "s", "json"];

/// Command-line options.
#[derive(Debug, Default)]
struct Options {
    filters: Vec<String>,
    skip: Vec<String>,
    exact: bool,
    list: bool,
    ignored: bool,
    threads: Option<usize>,
}

fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Options, String> {
    // libtest flags that take a value; we accept and ignore those we don't use.
    const WITH_VALUE: &[&str] = &["--color", "--format", "--logfile", "--shuffle-seed", "-Z"];
    let mut o = Options::default();
    let mut args = args.into_iter();
    while let Some(a) = args.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if a.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (a.clone(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag.as_str() {
            "--test-threads" => {
                let v = value("--test-threads")?;
                o.threads = Some(
                    v.parse()
                        .map_err(|_| format!("bad --test-threads value {v:?}"))?,
                );
            }
            "--skip" => o.skip.push(value("--skip")?),
            "--exact" => o.exact = true,
            "--list" => o.list = true,
            "--ignored" => o.ignored = true,
            f if WITH_VALUE.contains(&f) => {
                if inline.is_none() {
                    value(f)?;
                }
            }
            f if f.starts_with('-') => {} // --nocapture, -q, --include-ignored, ...
            _ => o.filters.push(a),
        }
    }
    Ok(o)
}

impl Options {
    fn selects(&self, name: &str) -> bool {
        let hit = |f: &String| {
            if self.exact {
                name == f
            } else {
                name.contains(f.as_str())
            }
        };
        (self.filters.is_empty() || self.filters.iter().any(hit))
            && !self.skip.iter().any(|s| name.contains(s.as_str()))
    }
}

/// Finds every test file under `root`, sorted by name.
pub fn discover(root: &Path) -> Result<Vec<TestFile>, String> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<TestFile>) -> Result<(), String> {
        let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || name == "Inputs" {
                continue;
            }
            let path = entry.path();
            let rel_name = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            if path.is_dir() {
                walk(&path, &rel_name, out)?;
            } else if !rel.is_empty()
                && path
                    .extension()
                    .is_some_and(|e| TEST_EXTENSIONS.iter().any(|t| e == *t))
            {
                out.push(TestFile {
                    path,
                    name: rel_name,
                });
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(root, "", &mut out)?;
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

fn env_flag(name: &str) -> bool {
    env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

fn harness_error(msg: &str) -> ExitCode {
    eprintln!("filetests: error: {msg}");
    println!("0 passed, 1 failed");
    ExitCode::FAILURE
}

/// Entry point of the `filetests` test target.
pub fn main() -> ExitCode {
    let opts = match parse_args(env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => return harness_error(&e),
    };
    let verbose = env_flag("KC_FILETESTS_VERBOSE");
    let layout = Layout::detect();
    let root = layout.filetests_dir();

    let all = match discover(&root) {
        Ok(t) => t,
        Err(e) => return harness_error(&format!("cannot scan {}: {e}", root.display())),
    };
    if all.is_empty() {
        return harness_error(&format!("no test files found under {}", root.display()));
    }
    let tests: Vec<TestFile> = all.into_iter().filter(|t| opts.selects(&t.name)).collect();

    if opts.list {
        for t in &tests {
            println!("{}: test", t.name);
        }
        return ExitCode::SUCCESS;
    }
    if opts.ignored || tests.is_empty() {
        // Like libtest: a filter that matches nothing (e.g. a unit test name
        // passed to `cargo test --workspace`) runs nothing and succeeds.
        println!("filetests: no test selected");
        println!("0 passed, 0 failed");
        return ExitCode::SUCCESS;
    }

    let mut tools = match Tools::locate() {
        Ok(t) => t,
        Err(e) => return harness_error(&e),
    };
    let uses_kc = tests.iter().any(|t| {
        fs::read_to_string(&t.path).is_ok_and(|s| s.contains("%kc") || s.contains("REQUIRES: kc"))
    });
    if uses_kc {
        match layout.build_kc(verbose) {
            Ok(kc) => tools.kc = Some(kc),
            Err(e) => return harness_error(&e),
        }
    }

    let uses_plugin = tests.iter().any(|t| {
        fs::read_to_string(&t.path)
            .is_ok_and(|s| s.contains("%mlir-plugin") || s.contains("REQUIRES: mlir-plugin"))
    });
    if uses_plugin {
        // A failed build fails the tests that need the plugin, with this message.
        tools.mlir_plugin = layout.build_mlir_plugin(verbose);
        if let Err(e) = &tools.mlir_plugin {
            eprintln!("filetests: cannot build the MLIR plugin: {e}");
        }
    }

    let timeout = match env::var("KC_FILETESTS_TIMEOUT") {
        Ok(v) => match v.parse::<u64>() {
            Ok(0) => None,
            Ok(s) => Some(Duration::from_secs(s)),
            Err(_) => return harness_error(&format!("bad KC_FILETESTS_TIMEOUT {v:?}")),
        },
        Err(_) => Some(Duration::from_secs(120)),
    };
    let jobs = opts
        .threads
        .or_else(|| env::var("KC_FILETESTS_JOBS").ok()?.parse().ok())
        .unwrap_or_else(|| thread::available_parallelism().map_or(2, |n| n.get().min(4)))
        .max(1)
        .min(tests.len());

    if verbose {
        println!(
            "filetests: {} tests, {jobs} threads, FileCheck = {}, kc = {}",
            tests.len(),
            tools.filecheck.display(),
            tools
                .kc
                .as_ref()
                .map_or("(unused)".to_string(), |p| p.display().to_string())
        );
    }

    let ctx = runner::Context {
        tools,
        layout,
        verbose,
        timeout,
    };
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    let (mut passed, mut failed, mut skipped) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();

    thread::scope(|s| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (ctx, tests, next) = (&ctx, &tests, &next);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(test) = tests.get(i) else { break };
                let result = runner::run_test(ctx, test);
                if tx.send((test, result)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (test, (outcome, log)) in rx {
            let name = &test.name;
            match outcome {
                Outcome::Pass => {
                    passed += 1;
                    println!("PASS: {name}");
                }
                Outcome::ExpectedFail => {
                    passed += 1;
                    println!("XFAIL: {name}");
                }
                Outcome::Skip(why) => {
                    skipped += 1;
                    println!("SKIP: {name} ({why})");
                }
                Outcome::UnexpectedPass => {
                    failed += 1;
                    failures.push(name.clone());
                    println!("FAIL: {name} (XPASS: marked XFAIL but passed)");
                }
                Outcome::Fail(msg) => {
                    failed += 1;
                    failures.push(name.clone());
                    println!("FAIL: {name}");
                    for line in msg.lines() {
                        let pad = if line.starts_with(' ') { "" } else { "  " };
                        println!("{pad}{line}");
                    }
                }
            }
            if !log.is_empty() {
                print!("{log}");
            }
        }
    });

    if !failures.is_empty() {
        failures.sort();
        println!("\nFailed tests:");
        for f in &failures {
            println!("  {f}");
        }
    }
    println!(
        "\nfiletests: ran {} tests in {:.1}s",
        passed + failed + skipped,
        started.elapsed().as_secs_f64()
    );
    println!("{passed} passed, {failed} failed, {skipped} skipped");
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Options {
        parse_args(a.iter().map(|s| s.to_string())).unwrap()
    }

    #[test]
    fn filters() {
        let o = args(&[
            "--nocapture",
            "harness",
            "--skip",
            "slow",
            "--test-threads=3",
        ]);
        assert_eq!(o.threads, Some(3));
        assert!(o.selects("harness/a.mlir"));
        assert!(!o.selects("harness/slow.mlir"));
        assert!(!o.selects("lower/a.k"));
        let o = args(&["--exact", "lower/a.k", "--format", "terse"]);
        assert!(o.selects("lower/a.k") && !o.selects("lower/a.k2"));
        assert!(args(&[]).selects("anything"));
    }

    #[test]
    fn suite_layout_is_discovered() {
        let tests = discover(&Layout::detect().filetests_dir()).unwrap();
        assert!(tests.iter().any(|t| t.name.starts_with("harness/")));
        assert!(tests.iter().all(|t| t.name.contains('/')));
    }
}
