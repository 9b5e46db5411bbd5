//! SIMT-induced deadlock evaluation kernels (issue #13): `examples/simt/`.
//!
//! Every lock kernel `examples/simt/NAME.k` is written in the natural form a CUDA
//! programmer writes (spin loop first, critical section and release after it), which
//! deadlocks under lock-step execution; `examples/simt/safe/NAME.k` is the same kernel
//! restructured by hand so that it completes in lock step. Both share the args file
//! `examples/simt/NAME.args.json`. For blocks of 1, 17, 64, 65 and 256 work-items and 2
//! workgroups this test
//!
//! * runs the reference: `kc run --engine ref --schedule=threads`, the natural kernel as
//!   written (its CF IR) on the reference interpreter one work-item after another (a fair
//!   MIMD schedule, so the locks are always free when taken), and checks its buffers with
//!   the kernel's checker;
//! * runs the safe kernel on the reference the same way: same buffers;
//! * runs the safe kernel on the gfx942 simulator: it completes, with the reference's
//!   buffers (the kernels are written so that their final buffers do not depend on the
//!   order in which the work-items took the locks);
//! * runs the natural kernel on the simulator: compiled as written (`--simt-deadlock=off`)
//!   it must stop with "possible SIMT deadlock" (a small `--step-limit` keeps that fast)
//!   whenever a wave has more than one lane (block 1 cannot deadlock: it must complete with
//!   the reference's buffers); repaired (the default) it must complete with the
//!   reference's buffers, the checker holding;
//! * compiles the natural kernel: the `-Wsimt-deadlock` warning with the repair's note; the
//!   safe one: no warning.
//!
//! `examples/simt/divergent_barrier.k` is not a spin deadlock: kc must reject it with its
//! barrier-divergence error and say nothing about SIMT deadlocks.
//!
//! The checkers are the functions `check_*` over the JSON buffers of `kc run`.
//! Environment: `KC_BIN` (the kc binary; otherwise cargo builds it).

use kc_tests::harness::Layout;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Work-items per workgroup of every run.
const BLOCKS: [u32; 5] = [1, 17, 64, 65, 256];
/// Workgroups of every run.
const GRID: u32 = 2;
/// `--step-limit` of the runs expected to deadlock (wave-instructions of one workgroup):
/// every kernel completes on the simulator well below it at block 1.
const DEADLOCK_STEP_LIMIT: u32 = 20_000;
/// `--step-limit` of the runs expected to complete: the largest safe run on the
/// simulator, bank at block 256, takes about 90,000 wave-instructions for both workgroups;
/// the CF-IR reference counts ops of one work-item.
const STEP_LIMIT: u32 = 2_000_000;
/// The reference's schedule: each work-item to its end in turn, on the kernel as written (a
/// fair MIMD schedule, so the locks are always free when taken).
const THREADS: &[&str] = &["--schedule=threads"];
/// What the simulator says when a run does not complete.
const DEADLOCK_MESSAGE: &str = "possible SIMT deadlock";

type Checker = fn(&Value, usize) -> Result<(), String>;

/// The lock kernels of `examples/simt/` and their checkers. `divergent_barrier` is the
/// only other kernel there; [`every_kernel_is_tested`] keeps this list complete.
const LOCK_KERNELS: &[(&str, Checker)] = &[
    ("spinlock", check_spinlock),
    ("hashtable", check_hashtable),
    ("bank", check_bank),
    ("barnes_hut", check_barnes_hut),
];

fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(Layout::detect)
}

fn kc() -> &'static Path {
    static KC: OnceLock<PathBuf> = OnceLock::new();
    KC.get_or_init(|| layout().build_kc(false).unwrap_or_else(|e| panic!("{e}")))
}

fn simt_dir() -> PathBuf {
    layout().workspace.join("examples").join("simt")
}

struct Output {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    command: String,
}

impl Output {
    fn describe(&self) -> String {
        format!(
            "`{}` exited with {:?}\nstderr: {}",
            self.command,
            self.code,
            self.stderr.trim_end()
        )
    }

    /// The `buffers` object of a run that completed.
    fn buffers(&self) -> Result<Value, String> {
        if self.code != Some(0) {
            return Err(format!("the run did not complete: {}", self.describe()));
        }
        let json: Value = serde_json::from_str(&self.stdout)
            .map_err(|e| format!("`{}`: output is not JSON: {e}", self.command))?;
        json.get("buffers")
            .cloned()
            .ok_or_else(|| format!("`{}`: no `buffers` in the output", self.command))
    }

    fn is_deadlock(&self) -> bool {
        self.code == Some(1) && self.stderr.contains(DEADLOCK_MESSAGE)
    }
}

fn kc_cmd(args: &[String]) -> Output {
    let out = Command::new(kc())
        .args(args)
        .arg("--color=never")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", kc().display()));
    Output {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        command: format!("kc {}", args.join(" ")),
    }
}

fn s(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// `kc run FILE` with the args file, block, grid and step limit, plus `extra`.
fn run(file: &Path, args: &Path, engine: &str, block: u32, limit: u32, extra: &[&str]) -> Output {
    let mut a = vec![
        "run".to_string(),
        s(file),
        "--engine".into(),
        engine.into(),
        "--args".into(),
        s(args),
        "--block".into(),
        block.to_string(),
        "--grid".into(),
        GRID.to_string(),
        "--step-limit".into(),
        limit.to_string(),
    ];
    a.extend(extra.iter().map(|e| e.to_string()));
    kc_cmd(&a)
}

/// The names of the buffers that differ (or a note when the sets of buffers differ).
fn differing(a: &Value, b: &Value) -> Vec<String> {
    match (a.as_object(), b.as_object()) {
        (Some(a), Some(b)) => {
            let mut names: Vec<String> = a
                .iter()
                .filter(|(k, v)| b.get(*k) != Some(*v))
                .map(|(k, _)| k.clone())
                .collect();
            names.extend(b.keys().filter(|k| !a.contains_key(*k)).cloned());
            names
        }
        _ => vec!["(not objects)".into()],
    }
}

fn expect_same(what: &str, got: &Value, reference: &Value) -> Result<(), String> {
    if got == reference {
        Ok(())
    } else {
        Err(format!(
            "{what}: buffers {:?} differ from the reference's",
            differing(got, reference)
        ))
    }
}

/// Everything this test asserts about one lock kernel; the failures, one line each.
fn check_lock_kernel(name: &str, checker: Checker) -> Vec<String> {
    let dir = simt_dir();
    let natural = dir.join(format!("{name}.k"));
    let safe = dir.join("safe").join(format!("{name}.k"));
    let args = dir.join(format!("{name}.args.json"));
    let mut failures = Vec::new();
    for block in BLOCKS {
        let n = (block * GRID) as usize;
        let at = format!("{name} block {block} grid {GRID}");
        let mut fail = |what: &str, r: Result<(), String>| {
            if let Err(e) = r {
                failures.push(format!("{at}: {what}: {e}"));
            }
        };
        // The reference: CF-form IR, one work-item after another.
        let reference = match run(&natural, &args, "ref", block, STEP_LIMIT, THREADS).buffers() {
            Ok(b) => b,
            Err(e) => {
                fail("reference (--schedule=threads)", Err(e));
                continue;
            }
        };
        fail(
            "reference (--schedule=threads) checker",
            checker(&reference, n),
        );
        // The safe form on the reference interpreter and on the simulator.
        fail(
            "safe form, reference (--schedule=threads)",
            run(&safe, &args, "ref", block, STEP_LIMIT, THREADS)
                .buffers()
                .and_then(|b| expect_same("safe form (--schedule=threads)", &b, &reference)),
        );
        fail(
            "safe form, sim",
            run(&safe, &args, "sim", block, STEP_LIMIT, &[])
                .buffers()
                .and_then(|b| {
                    checker(&b, n)?;
                    expect_same("safe form on sim", &b, &reference)
                }),
        );
        // The natural form on the simulator. Block 1 (one lane per wave) cannot deadlock.
        let completes = |r: Output| -> Result<(), String> {
            let b = r.buffers()?;
            checker(&b, n)?;
            expect_same("natural form on sim", &b, &reference)
        };
        let deadlocks = |r: Output| -> Result<(), String> {
            if r.is_deadlock() {
                Ok(())
            } else {
                Err(format!("expected \"{DEADLOCK_MESSAGE}\": {}", r.describe()))
            }
        };
        let off = run(
            &natural,
            &args,
            "sim",
            block,
            DEADLOCK_STEP_LIMIT,
            &["--simt-deadlock=off"],
        );
        if block == 1 {
            fail("natural form, sim, --simt-deadlock=off", completes(off));
        } else {
            fail("natural form, sim, --simt-deadlock=off", deadlocks(off));
        }
        fail(
            "natural form, sim (repaired)",
            completes(run(&natural, &args, "sim", block, STEP_LIMIT, &[])),
        );
        // The warning names the loop; the repair says where the switch block went.
        if block == BLOCKS[0] {
            let r = kc_cmd(&[s(&natural), "-S".into(), "-o".into(), "/dev/null".into()]);
            let warned = r.stderr.contains("warning: this loop can deadlock")
                && r.stderr.contains("[-Wsimt-deadlock]")
                && r.stderr.contains("note: repaired:");
            if r.code != Some(0) || !warned {
                failures.push(format!(
                    "{name}: expected the -Wsimt-deadlock warning with the repair's note: {}",
                    r.describe()
                ));
            }
            let r = kc_cmd(&[s(&safe), "-S".into(), "-o".into(), "/dev/null".into()]);
            if r.code != Some(0) || r.stderr.contains("warning") {
                failures.push(format!("{name}: the safe form warns: {}", r.describe()));
            }
        }
    }
    failures
}

fn lock_kernel(name: &str) {
    let checker = LOCK_KERNELS
        .iter()
        .find(|(k, _)| *k == name)
        .map(|(_, c)| *c)
        .unwrap_or_else(|| panic!("{name} is not in LOCK_KERNELS"));
    let failures = check_lock_kernel(name, checker);
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn spinlock() {
    lock_kernel("spinlock");
}

#[test]
fn hashtable() {
    lock_kernel("hashtable");
}

#[test]
fn bank() {
    lock_kernel("bank");
}

#[test]
fn barnes_hut() {
    lock_kernel("barnes_hut");
}

/// A barrier in both arms of a divergent `if`: kc's barrier-divergence error (exit 1), and
/// no word about SIMT deadlocks, in any `--simt-deadlock` mode.
#[test]
fn divergent_barrier() {
    let file = simt_dir().join("divergent_barrier.k");
    let mut modes: Vec<Vec<String>> = vec![vec![]];
    for m in ["repair", "warn", "off"] {
        modes.push(vec![format!("--simt-deadlock={m}")]);
    }
    for mode in modes {
        let mut a = vec![s(&file), "-S".into(), "-o".into(), "/dev/null".into()];
        a.extend(mode);
        let r = kc_cmd(&a);
        assert_eq!(r.code, Some(1), "{}", r.describe());
        assert!(
            r.stderr
                .contains("error: barrier() under divergent control flow"),
            "expected the barrier-divergence error: {}",
            r.describe()
        );
        assert!(
            !r.stderr.to_lowercase().contains("deadlock"),
            "a barrier divergence is no SIMT deadlock: {}",
            r.describe()
        );
    }
}

/// Every kernel of `examples/simt/` is tested here, has an args file and (lock kernels) a
/// safe form.
#[test]
fn every_kernel_is_tested() {
    let dir = simt_dir();
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "k") {
            found.push(path.file_stem().unwrap().to_string_lossy().into_owned());
        }
    }
    found.sort();
    let mut expected: Vec<String> = LOCK_KERNELS.iter().map(|(k, _)| k.to_string()).collect();
    expected.push("divergent_barrier".into());
    expected.sort();
    assert_eq!(found, expected, "kernels in {}", dir.display());
    for name in &expected {
        assert!(
            dir.join(format!("{name}.args.json")).is_file(),
            "{name}: args file"
        );
    }
    for (name, _) in LOCK_KERNELS {
        assert!(
            dir.join("safe").join(format!("{name}.k")).is_file(),
            "{name}: safe form"
        );
    }
}

// ---- checkers -------------------------------------------------------------------------

/// Buffer `name` as integers.
fn data(buffers: &Value, name: &str) -> Result<Vec<i64>, String> {
    buffers
        .get(name)
        .and_then(|b| b.get("data"))
        .and_then(Value::as_array)
        .ok_or_else(|| format!("no buffer `{name}`"))?
        .iter()
        .map(|v| {
            v.as_i64()
                .ok_or_else(|| format!("`{name}`: {v} is no integer"))
        })
        .collect()
}

fn all_free(locks: &[i64], name: &str) -> Result<(), String> {
    match locks.iter().position(|&l| l != 0) {
        None => Ok(()),
        Some(i) => Err(format!("{name}[{i}] = {} after the run", locks[i])),
    }
}

/// spinlock: the counter counted every work-item, the lock is free.
fn check_spinlock(b: &Value, n: usize) -> Result<(), String> {
    all_free(&data(b, "lock")?, "lock")?;
    let counter = data(b, "counter")?[0];
    if counter != n as i64 {
        return Err(format!("counter = {counter}, expected {n}"));
    }
    Ok(())
}

/// hashtable.k's key of work-item `gid` and the key's bucket.
fn ht_key(gid: i64) -> i64 {
    gid * 3 + 7
}

fn ht_bucket(key: i64, nbuckets: i64) -> i64 {
    ((key * 13) ^ (key >> 3)) & (nbuckets - 1)
}

/// hashtable: node i holds work-item i's key; each bucket's chain is well formed (no
/// cycle, nodes of the pool only, keys of that bucket, sorted), and every node is on
/// exactly one chain.
fn check_hashtable(b: &Value, n: usize) -> Result<(), String> {
    let locks = data(b, "locks")?;
    let heads = data(b, "heads")?;
    let key = data(b, "node_key")?;
    let next = data(b, "node_next")?;
    all_free(&locks, "locks")?;
    let nbuckets = heads.len() as i64;
    if key.len() < n || next.len() < n {
        return Err(format!("node pool smaller than {n} work-items"));
    }
    for (i, &k) in key.iter().enumerate().take(n) {
        if k != ht_key(i as i64) {
            return Err(format!(
                "node_key[{i}] = {k}, expected {}",
                ht_key(i as i64)
            ));
        }
    }
    let mut seen = vec![false; n];
    for (bucket, &head) in heads.iter().enumerate() {
        let mut cur = head;
        let mut last_key = i64::MIN;
        while cur != -1 {
            if cur < 0 || cur as usize >= n {
                return Err(format!("bucket {bucket}: chain reaches node {cur}"));
            }
            let c = cur as usize;
            if seen[c] {
                return Err(format!(
                    "bucket {bucket}: node {c} reached twice (cycle or shared)"
                ));
            }
            seen[c] = true;
            if ht_bucket(key[c], nbuckets) != bucket as i64 {
                return Err(format!(
                    "node {c} (key {}) on the chain of bucket {bucket}",
                    key[c]
                ));
            }
            if key[c] <= last_key {
                return Err(format!("bucket {bucket}: chain not sorted at node {c}"));
            }
            last_key = key[c];
            cur = next[c];
        }
    }
    match seen.iter().position(|s| !s) {
        None => Ok(()),
        Some(i) => Err(format!("node {i} (key {}) is on no chain", key[i])),
    }
}

const BANK_ACCOUNTS: i64 = 8;
const BANK_INITIAL: i64 = 1000;

/// bank: locks free, money conserved, and each balance is the initial one plus what the
/// account received minus what it sent (the transfers of bank.k, recomputed).
fn check_bank(b: &Value, n: usize) -> Result<(), String> {
    all_free(&data(b, "locks")?, "locks")?;
    let balance = data(b, "balance")?;
    let k = BANK_ACCOUNTS;
    let mut expected = vec![BANK_INITIAL; k as usize];
    for gid in 0..n as i64 {
        let from = gid & (k - 1);
        let to = (from + 1 + (gid / k) % (k - 1)) & (k - 1);
        let amount = gid % 5 + 1;
        expected[from as usize] -= amount;
        expected[to as usize] += amount;
    }
    let total: i64 = balance.iter().sum();
    if total != BANK_INITIAL * k {
        return Err(format!("total {total}, expected {}", BANK_INITIAL * k));
    }
    if balance != expected {
        return Err(format!("balances {balance:?}, expected {expected:?}"));
    }
    Ok(())
}

/// barnes_hut.k's encoding of cells in a child slot.
const BH_CELL_BASE: i64 = 1 << 20;

/// barnes_hut.k's point of body `b` on the 64x64 grid.
fn bh_point(b: i64) -> (i64, i64) {
    let p = (b * 1237 + 91) & 4095;
    (p & 63, p >> 6)
}

/// barnes_hut: a walk from the root finds every body exactly once, each in the quadrant
/// that contains its point; slots hold -1, a body or the cell numbered 4c + 1 + q (no lock
/// marker left); every cell but the root holds at least two bodies (cells are made only to
/// separate bodies).
fn check_barnes_hut(b: &Value, n: usize) -> Result<(), String> {
    let child = data(b, "child")?;
    let mut seen = vec![false; n];
    bh_cell(&child, 0, (0, 0, 32), &mut seen)?;
    match seen.iter().position(|s| !s) {
        None => Ok(()),
        Some(i) => Err(format!("body {i} is not in the tree")),
    }
}

/// Checks the subtree of `cell` (square `[x0, x0 + 2 half) x [y0, y0 + 2 half)`); returns
/// its number of bodies.
fn bh_cell(
    child: &[i64],
    cell: i64,
    (x0, y0, half): (i64, i64, i64),
    seen: &mut [bool],
) -> Result<usize, String> {
    let mut bodies = 0;
    for q in 0..4 {
        let slot = (cell * 4 + q) as usize;
        let v = *child
            .get(slot)
            .ok_or_else(|| format!("cell {cell}: slot {slot} outside the pool"))?;
        let (qx, qy) = (x0 + (q & 1) * half, y0 + (q >> 1) * half);
        if v == -1 {
            continue;
        } else if v == -2 {
            return Err(format!("cell {cell} quadrant {q}: lock marker left"));
        } else if (0..seen.len() as i64).contains(&v) {
            let (px, py) = bh_point(v);
            if !(qx..qx + half).contains(&px) || !(qy..qy + half).contains(&py) {
                return Err(format!(
                    "body {v} at ({px}, {py}) in cell {cell} quadrant {q} [{qx}+{half}, {qy}+{half})"
                ));
            }
            if std::mem::replace(&mut seen[v as usize], true) {
                return Err(format!("body {v} is in the tree twice"));
            }
            bodies += 1;
        } else if v >= BH_CELL_BASE {
            let sub = v - BH_CELL_BASE;
            if sub != cell * 4 + 1 + q || half < 2 {
                return Err(format!(
                    "cell {cell} quadrant {q} (half {half}): holds cell {sub}"
                ));
            }
            let k = bh_cell(child, sub, (qx, qy, half / 2), seen)?;
            if k < 2 {
                return Err(format!("cell {sub} holds {k} bodies"));
            }
            bodies += k;
        } else {
            return Err(format!("cell {cell} quadrant {q}: bad slot value {v}"));
        }
    }
    Ok(bodies)
}

#[test]
fn checkers_reject_wrong_buffers() {
    // A checker that accepts anything would make the tests above pass vacuously.
    let buf = |pairs: &[(&str, Vec<i64>)]| -> Value {
        let mut m = serde_json::Map::new();
        for (k, v) in pairs {
            m.insert(k.to_string(), serde_json::json!({"type": "i32", "data": v}));
        }
        Value::Object(m)
    };
    assert!(check_spinlock(&buf(&[("lock", vec![0]), ("counter", vec![4])]), 4).is_ok());
    assert!(check_spinlock(&buf(&[("lock", vec![0]), ("counter", vec![3])]), 4).is_err());
    assert!(check_spinlock(&buf(&[("lock", vec![1]), ("counter", vec![4])]), 4).is_err());
    // Two nodes, keys 7 and 10.
    let (b7, b10) = (ht_bucket(7, 4), ht_bucket(10, 4));
    let mut heads = vec![-1; 4];
    let mut next = vec![-1, -1];
    heads[b7 as usize] = 0;
    if b7 == b10 {
        next[0] = 1;
    } else {
        heads[b10 as usize] = 1;
    }
    let ht = |heads: Vec<i64>, next: Vec<i64>| {
        buf(&[
            ("locks", vec![0; 4]),
            ("heads", heads),
            ("node_key", vec![7, 10]),
            ("node_next", next),
        ])
    };
    assert!(check_hashtable(&ht(heads.clone(), next.clone()), 2).is_ok());
    assert!(check_hashtable(&ht(vec![-1; 4], next.clone()), 2).is_err());
    let mut cyclic = next.clone();
    cyclic[1] = 1;
    assert!(check_hashtable(&ht(heads.clone(), cyclic), 2).is_err());
    let mut bank = vec![BANK_INITIAL; 8];
    assert!(check_bank(&buf(&[("locks", vec![0; 8]), ("balance", bank.clone())]), 0).is_ok());
    bank[0] += 1;
    bank[1] -= 1;
    assert!(check_bank(&buf(&[("locks", vec![0; 8]), ("balance", bank)]), 0).is_err());
    // Body 0 alone, in the root quadrant of its point.
    let (x, y) = bh_point(0);
    let q = (x >= 32) as usize + 2 * (y >= 32) as usize;
    let mut child = vec![-1; 4];
    child[q] = 0;
    assert!(check_barnes_hut(&buf(&[("child", child.clone())]), 1).is_ok());
    child[q] = -2;
    assert!(check_barnes_hut(&buf(&[("child", child.clone())]), 1).is_err());
    child[q] = -1;
    child[3 - q] = 0;
    assert!(check_barnes_hut(&buf(&[("child", child)]), 1).is_err());
}

/// Race-free kernels checked for false positives (both token modes).
const GENERATED: u64 = 10_000;
/// The seed of the generated kernels (kernel `i` has seed `SEED + i`).
const SEED: u64 = 0x51_4d54;

/// Generated kernel number `i`: from `race_free_kernel` (exec_diff's generator) or
/// `kernel`, implicit tokens for even `i`, explicit for odd.
fn generated(i: u64, race_free: bool) -> kc_compiler::pipeline::Input {
    use kc_tests::gen::source::{self, Tokens};
    let tokens = if i.is_multiple_of(2) {
        Tokens::Implicit
    } else {
        Tokens::Explicit
    };
    let name = format!("g{i}");
    let text = if race_free {
        source::race_free_kernel(&name, SEED + i, tokens).text
    } else {
        source::kernel(&name, SEED + i, tokens)
    };
    kc_compiler::pipeline::Input {
        name: format!("{name}.k"),
        text,
        is_ir: false,
    }
}

/// Whether a kernel of `ir` (CF IR compiled with `--simt-deadlock=off`: nothing repaired)
/// has a loop `-Wsimt-deadlock` warns about.
fn spins(ir: &kc_dialect::Ir) -> bool {
    use kc_dialect::analysis::{simt_deadlock, Uniformity};
    ir.kernels().into_iter().any(|func| {
        let u = Uniformity::compute(ir, func).expect("a CF kernel");
        !simt_deadlock::detect(ir, func, &u).is_empty()
    })
}

/// `-Wsimt-deadlock` on no kernel of the differential execution generator
/// (`race_free_kernel`, exec_diff's): its kernels end under lock-step execution (exec_diff runs
/// them on the simulator), so they have no SIMT deadlock, and every warning would be a false
/// positive. 10,000 kernels, both token modes; the analysis runs in process on each kernel's
/// CF IR as written, as the driver runs it. (The general generator, `kernel`, which is
/// compiled but never run, does write real spin loops now and then, such as
/// `loop { if tid == out[tid] { break; } }` followed by `out[100] = ...`: Algorithm 1 rightly
/// flags those; the README gives the count.)
#[test]
fn no_false_positives_on_generated_kernels() {
    use kc_compiler::pipeline::{compile_to_cf_with, SimtDeadlock};
    let mut flagged = Vec::new();
    for i in 0..GENERATED {
        let input = generated(i, true);
        let ir = match compile_to_cf_with(&input, SimtDeadlock::Off) {
            Ok(ir) => ir,
            Err(e) => panic!("generated kernel {} is rejected: {e:?}", input.name),
        };
        if spins(&ir) {
            flagged.push(input.name);
        }
    }
    eprintln!(
        "simt-deadlock false positives: {} of {GENERATED} generated kernels",
        flagged.len()
    );
    assert!(
        flagged.is_empty(),
        "warned on generated kernels: {flagged:?}"
    );
}

/// The repair on the loops the general generator's kernels spin in (about 1% of them): every
/// kernel the warning fires on compiles through the whole pipeline at -O0 and -O2 with the
/// verifier after every pass (the token rules included), whether the repair applies or
/// refuses. 4,000 kernels, both token modes.
#[test]
fn repair_keeps_generated_kernels_valid() {
    use kc_compiler::pipeline::{self, compile_to_cf_with, Options, SimtDeadlock, Stage};
    let (mut flagged, mut failures) = (0, Vec::new());
    for i in 0..4_000u64 {
        let input = generated(i, false);
        let Ok(ir) = compile_to_cf_with(&input, SimtDeadlock::Off) else {
            continue;
        };
        if !spins(&ir) {
            continue;
        }
        flagged += 1;
        for level in [0, 2] {
            let mut opts = Options::new(Stage::Asm);
            opts.opt_level = level;
            opts.verify_each = true;
            if let Err(e) = pipeline::run(&input, &opts) {
                failures.push(format!("{} -O{level}: {e:?}", input.name));
            }
        }
    }
    eprintln!("repair: {flagged} generated kernels with spin loops compiled at -O0 and -O2");
    assert!(
        flagged > 0,
        "the generator wrote no spin loop: the test tests nothing"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
