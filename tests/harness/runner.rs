//! Running one test file: directives, substitution, `bash` per RUN line.

use std::fmt::Write as _;
use std::fs::{self, File};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use super::directives;
use super::tools::{shell_quote, Layout, Substitutions, Tools};

/// A test file found under `tests/filetests/`.
#[derive(Debug, Clone)]
pub struct TestFile {
    /// Absolute path.
    pub path: PathBuf,
    /// Path relative to `tests/filetests/`, `/`-separated: `suite/name.k`.
    pub name: String,
}

/// The outcome of one test.
#[derive(Debug)]
pub enum Outcome {
    Pass,
    /// Failed as `XFAIL:` said it would.
    ExpectedFail,
    /// Failed; the text says which command and how.
    Fail(String),
    /// Passed although marked `XFAIL:`.
    UnexpectedPass,
    Skip(String),
}

/// Settings shared by every test of a run.
pub struct Context {
    pub tools: Tools,
    pub layout: Layout,
    pub verbose: bool,
    /// Per RUN line; `None`: no limit.
    pub timeout: Option<Duration>,
}

/// Shell prelude: LLVM's `FileCheck` as a function, and `not`.
///
/// `not CMD` succeeds iff CMD exits with a plain failure. Unlike LLVM's `not`
/// it does *not* accept a crash: death by signal, a Rust panic (exit 101) or
/// "command not found" (126/127) fail the test. `not --crash CMD` succeeds
/// iff CMD dies by a signal or panics.
fn prelude(tools: &Tools) -> String {
    let mut p = String::new();
    let _ = writeln!(
        p,
        "FileCheck() {{ {} \"$@\"; }}; export -f FileCheck",
        shell_quote(&tools.filecheck.display().to_string())
    );
    p.push_str(
        r#"not() {
  local crash=0 rc
  if [ "${1-}" = "--crash" ]; then crash=1; shift; fi
  "$@"; rc=$?
  if [ "$crash" = 1 ]; then
    if [ "$rc" -ge 128 ] || [ "$rc" -eq 101 ]; then return 0; fi
    echo "not --crash: command did not crash (exit $rc): $*" >&2; return 1
  fi
  if [ "$rc" -eq 0 ]; then echo "not: command unexpectedly succeeded: $*" >&2; return 1; fi
  if [ "$rc" -ge 126 ] || [ "$rc" -eq 101 ]; then
    echo "not: command crashed, panicked or was not found (exit $rc): $*" >&2; return "$rc"
  fi
  return 0
}
export -f not
"#,
    );
    p
}

/// The per-test temp path (`%t`) for `name`, under `target/filetests-tmp/`.
fn tmp_path(layout: &Layout, name: &str) -> PathBuf {
    layout.tmp_root().join(format!("{name}.tmp"))
}

fn describe_status(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(c), _) => format!("exit code {c}"),
        (None, Some(s)) => format!("killed by signal {s}"),
        _ => status.to_string(),
    }
}

/// Result of running one command.
struct CmdResult {
    status: Option<ExitStatus>,
    timed_out: bool,
    stdout: String,
    stderr: String,
}

fn read_lossy(p: &Path) -> String {
    fs::read(p)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}

/// Runs `script` with `bash -o pipefail -c` in `cwd`; output goes to files
/// next to `%t` so a chatty command can never block on a full pipe.
fn run_command(
    ctx: &Context,
    script: &str,
    cwd: &Path,
    out_base: &Path,
) -> Result<CmdResult, String> {
    let with_suffix = |suffix: &str| {
        let mut p = out_base.as_os_str().to_owned();
        p.push(suffix);
        PathBuf::from(p)
    };
    let out_path = with_suffix(".stdout");
    let err_path = with_suffix(".stderr");
    let stdout =
        File::create(&out_path).map_err(|e| format!("create {}: {e}", out_path.display()))?;
    let stderr =
        File::create(&err_path).map_err(|e| format!("create {}: {e}", err_path.display()))?;
    let mut child = Command::new("bash")
        .args(["--noprofile", "--norc", "-o", "pipefail", "-c", script])
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env("LC_ALL", "C")
        // Tests verify the IR after every pass, as debug builds do (release `kc` otherwise
        // verifies only where the IR changes hands).
        .env("KC_VERIFY_EACH", "1")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot spawn bash: {e}"))?;

    let start = Instant::now();
    let mut delay = Duration::from_millis(1);
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) => {}
            Err(e) => return Err(format!("waiting for bash: {e}")),
        }
        if ctx.timeout.is_some_and(|t| start.elapsed() > t) {
            // Kill the whole process group: bash and everything it started.
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.kill();
            let _ = child.wait();
            timed_out = true;
            break None;
        }
        thread::sleep(delay);
        delay = (delay * 2).min(Duration::from_millis(50));
    };
    Ok(CmdResult {
        status,
        timed_out,
        stdout: read_lossy(&out_path),
        stderr: read_lossy(&err_path),
    })
}

/// Keeps at most `max` bytes of `s` (the end, where errors usually are).
fn tail(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut start = s.len() - max;
    while !s.is_char_boundary(start) {
        start += 1;
    }
    &s[start..]
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("  | {l}\n")).collect()
}

/// Runs every RUN line of `test`. The result string is printed by the caller
/// (one block per test, so parallel output never interleaves); in verbose
/// mode it also lists every command.
pub fn run_test(ctx: &Context, test: &TestFile) -> (Outcome, String) {
    let mut log = String::new();
    let outcome = run_test_inner(ctx, test, &mut log);
    (outcome, log)
}

fn run_test_inner(ctx: &Context, test: &TestFile, log: &mut String) -> Outcome {
    let source = match fs::read(&test.path) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => return Outcome::Fail(format!("cannot read {}: {e}", test.path.display())),
    };
    let d = match directives::parse(&source) {
        Ok(d) => d,
        Err(e) => return Outcome::Fail(format!("{}: {e}", test.name)),
    };
    let missing: Vec<&str> = d
        .requires
        .iter()
        .filter(|r| !ctx.tools.has(r))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        return Outcome::Skip(format!("REQUIRES missing: {}", missing.join(", ")));
    }

    let tmp = tmp_path(&ctx.layout, &test.name);
    let tmp_dir = tmp.parent().expect("tmp path has a parent");
    if let Err(e) = fs::create_dir_all(tmp_dir) {
        return Outcome::Fail(format!("cannot create {}: {e}", tmp_dir.display()));
    }
    // Start from a clean %t (a file or a directory left by an earlier run).
    let _ = fs::remove_dir_all(&tmp);
    let _ = fs::remove_file(&tmp);

    let cwd = test.path.parent().expect("test file has a parent");
    let subst = Substitutions {
        tools: &ctx.tools,
        layout: &ctx.layout,
        source: &test.path,
        tmp: &tmp,
    };
    let prelude = prelude(&ctx.tools);
    let file_name = test.name.rsplit('/').next().unwrap_or(&test.name);

    let mut failure = None;
    for (i, run) in d.run.iter().enumerate() {
        let where_ = format!("RUN at {file_name}:{}", run.line);
        let cmd = match subst.apply(&run.command) {
            Ok(c) => c,
            Err(e) => {
                failure = Some(format!("{where_}: {e}\n  command: {}\n", run.command));
                break;
            }
        };
        if ctx.verbose {
            let _ = writeln!(log, "  {where_}: {cmd}");
        }
        let script = format!("{prelude}{cmd}\n");
        let out_base = tmp_dir.join(format!("{file_name}.run{}", i + 1));
        let res = match run_command(ctx, &script, cwd, &out_base) {
            Ok(r) => r,
            Err(e) => {
                failure = Some(format!("{where_}: harness error: {e}\n"));
                break;
            }
        };
        let ok = res.status.is_some_and(|s| s.success());
        if ctx.verbose {
            let st = match res.status {
                Some(s) => describe_status(s),
                None => "timed out".to_string(),
            };
            let _ = writeln!(log, "    -> {st}");
        }
        if !ok {
            let how = if res.timed_out {
                format!(
                    "timed out after {}s (KC_FILETESTS_TIMEOUT)",
                    ctx.timeout.map_or(0, |t| t.as_secs())
                )
            } else {
                describe_status(res.status.expect("not timed out"))
            };
            let mut msg = format!("{where_} failed: {how}\n  command: {cmd}\n");
            for (label, text) in [("stdout", &res.stdout), ("stderr", &res.stderr)] {
                if !text.is_empty() {
                    let _ = write!(msg, "  --- {label} ---\n{}", indent(tail(text, 16 * 1024)));
                }
            }
            failure = Some(msg);
            break;
        }
    }

    match (failure, d.xfail) {
        (None, false) => Outcome::Pass,
        (None, true) => Outcome::UnexpectedPass,
        (Some(_), true) => Outcome::ExpectedFail,
        (Some(msg), false) => Outcome::Fail(msg),
    }
}
