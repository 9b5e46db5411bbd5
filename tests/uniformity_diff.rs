//! Differential test of kc's uniformity analysis against LLVM 22's (issue #3).
//!
//! Generates random kernels (`kc_tests::gen`: structured `.k` with implicit and explicit
//! tokens, CF `.mlir` on random, often irreducible CFGs, with and without an entry token),
//! compiles them with kc's library, runs `Uniformity::compute` on each CF kernel, translates
//! them with `emit_llvm`, runs `opt-22 -passes='print<uniformity>'` once per batch, and
//! compares the verdicts value by value and branch by branch (`kc_tests::diff`). Every
//! disagreement must fall in a class `kc_tests::diff::classify` explains (kc provably more
//! precise, or LLVM 22 unsound); anything else fails the test with the kernel, kc's and
//! LLVM's verdicts.
//!
//! Environment: `KC_DIFF_SEED` (base seed, decimal or 0x-hex), `KC_DIFF_COUNT` (kernels,
//! default 1000), `KC_DIFF_FIRST` (index of the first kernel, to rerun one: the failure
//! report names it), `KC_DIFF_BATCH` (kernels per opt run, default 100), `KC_DIFF_VERBOSE=1`
//! (print every explained mismatch too), `KC_DIFF_KEEP=DIR` (write each batch's sources,
//! LLVM IR and opt output there). Skips, with a message, when opt-22 is missing.

use kc_compiler::pipeline::{self, Failure, Input, Options, Stage};
use kc_dialect::analysis::Reason;
use kc_dialect::text;
use kc_dialect::Ir;
use kc_tests::diff::{self, classify::Class, llvm, Item, KernelDiff};
use kc_tests::gen::{cfg, source, Rng};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

const DEFAULT_SEED: u64 = 0x6b63_0003;
const DEFAULT_COUNT: usize = 1000;
const DEFAULT_BATCH: usize = 100;

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    SourceImplicit,
    SourceExplicit,
    CfPlain,
    CfEntryToken,
}

impl Kind {
    fn describe(self) -> &'static str {
        match self {
            Kind::SourceImplicit => ".k, implicit tokens",
            Kind::SourceExplicit => ".k, explicit heart/@ tokens",
            Kind::CfPlain => "CF .mlir, no tokens",
            Kind::CfEntryToken => "CF .mlir, entry token",
        }
    }
    fn is_ir(self) -> bool {
        matches!(self, Kind::CfPlain | Kind::CfEntryToken)
    }
}

struct Kernel {
    name: String,
    index: usize,
    seed: u64,
    kind: Kind,
    text: String,
}

fn make_kernel(base: u64, index: usize) -> Kernel {
    let seed = Rng::derive(base, index as u64);
    // 30% .k implicit, 20% .k explicit, 30% CF without tokens, 20% CF with an entry token.
    let kind = match index % 10 {
        0..=2 => Kind::SourceImplicit,
        3 | 4 => Kind::SourceExplicit,
        5..=7 => Kind::CfPlain,
        _ => Kind::CfEntryToken,
    };
    let name = format!("{}{index}", if kind.is_ir() { "c" } else { "s" });
    let text = match kind {
        Kind::SourceImplicit => source::kernel(&name, seed, source::Tokens::Implicit),
        Kind::SourceExplicit => source::kernel(&name, seed, source::Tokens::Explicit),
        Kind::CfPlain => cfg::kernel(&name, seed, cfg::CfTokens::None),
        Kind::CfEntryToken => cfg::kernel(&name, seed, cfg::CfTokens::Entry),
    };
    Kernel {
        name,
        index,
        seed,
        kind,
        text,
    }
}

fn env_num(name: &str, default: u64) -> Result<u64, String> {
    match std::env::var(name) {
        Err(_) => Ok(default),
        Ok(s) => {
            let s = s.trim().replace('_', "");
            let r = match s.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16),
                None => s.parse(),
            };
            r.map_err(|e| format!("{name}={s}: {e}"))
        }
    }
}

#[derive(Default)]
struct Totals {
    kernels: usize,
    by_kind: BTreeMap<Kind, usize>,
    irreducible: usize,
    assumed_divergent: usize,
    divergent_exit: usize,
    temporal: usize,
    values: usize,
    branches: usize,
    values_agree: usize,
    branches_agree: usize,
    no_counterpart: usize,
    no_counterpart_examples: Vec<String>,
    /// (kc divergent, class) -> (count, roots).
    classes: BTreeMap<(bool, Option<Class>), (usize, usize)>,
    /// The same for kc run on LLVM's DFS order (kernels with irreducible cycles).
    order_kernels: usize,
    order_classes: BTreeMap<(bool, Option<Class>), (usize, usize)>,
    failures: Vec<String>,
}

fn main() -> ExitCode {
    let started = Instant::now();
    let (base, count, batch) = match (|| {
        Ok::<_, String>((
            env_num("KC_DIFF_SEED", DEFAULT_SEED)?,
            env_num("KC_DIFF_COUNT", DEFAULT_COUNT as u64)? as usize,
            env_num("KC_DIFF_BATCH", DEFAULT_BATCH as u64)?.max(1) as usize,
        ))
    })() {
        Ok(x) => x,
        Err(e) => {
            eprintln!("uniformity_diff: {e}");
            return ExitCode::FAILURE;
        }
    };
    let verbose = std::env::var_os("KC_DIFF_VERBOSE").is_some_and(|v| v != "0");
    let keep = std::env::var_os("KC_DIFF_KEEP").map(PathBuf::from);
    let opt = match kc_tests::harness::locate_opt() {
        Ok(p) => p,
        Err(e) => {
            println!("uniformity_diff: skipped: {e}");
            println!("0 passed, 0 failed, 1 skipped");
            return ExitCode::SUCCESS;
        }
    };

    let first = match env_num("KC_DIFF_FIRST", 0) {
        Ok(f) => f as usize,
        Err(e) => {
            eprintln!("uniformity_diff: {e}");
            return ExitCode::FAILURE;
        }
    };
    let kernels: Vec<Kernel> = (first..first + count)
        .map(|i| make_kernel(base, i))
        .collect();
    let mut t = Totals::default();
    for is_ir in [false, true] {
        let group: Vec<&Kernel> = kernels.iter().filter(|k| k.kind.is_ir() == is_ir).collect();
        for (bi, chunk) in group.chunks(batch).enumerate() {
            run_batch(chunk, &opt, &mut t, verbose, keep.as_deref(), bi);
        }
    }

    println!(
        "uniformity_diff: KC_DIFF_SEED={base:#x} KC_DIFF_COUNT={count}: {} kernels compared in {:.1}s",
        t.kernels,
        started.elapsed().as_secs_f64()
    );
    for (k, n) in &t.by_kind {
        println!("  {n:6} {}", k.describe());
    }
    println!(
        "  coverage (kc): {} kernels with irreducible cycles, {} with a cycle assumed divergent, \
         {} with a divergent cycle exit, {} with temporal divergence",
        t.irreducible, t.assumed_divergent, t.divergent_exit, t.temporal
    );
    println!(
        "  values compared: {} ({} agree); branches compared: {} ({} agree); kc values without an LLVM counterpart: {}",
        t.values, t.values_agree, t.branches, t.branches_agree, t.no_counterpart
    );
    if !t.no_counterpart_examples.is_empty() {
        println!("    e.g. {}", t.no_counterpart_examples.join(", "));
    }
    let mut unexplained = 0;
    unexplained += print_classes(&t.classes, "");
    println!(
        "  kc on LLVM's DFS order ({} kernels with irreducible cycles), same comparison:",
        t.order_kernels
    );
    unexplained += print_classes(&t.order_classes, "  ");
    for f in &t.failures {
        println!("{f}");
    }
    let failed = !t.failures.is_empty() || unexplained > 0;
    if failed {
        println!(
            "uniformity_diff: FAILED ({} kernels failed)",
            t.failures.len()
        );
        println!("0 passed, 1 failed");
        ExitCode::FAILURE
    } else {
        println!("1 passed, 0 failed");
        ExitCode::SUCCESS
    }
}

/// Prints mismatch counts by direction and class; returns the unexplained ones.
fn print_classes(classes: &BTreeMap<(bool, Option<Class>), (usize, usize)>, indent: &str) -> usize {
    let mut unexplained = 0;
    for dir in [true, false] {
        let label = if dir {
            "kc divergent, LLVM uniform"
        } else {
            "kc uniform, LLVM divergent"
        };
        let total: usize = classes
            .iter()
            .filter(|((d, _), _)| *d == dir)
            .map(|(_, n)| n.0)
            .sum();
        println!("{indent}  mismatches {label}: {total}");
        for ((d, c), (n, roots)) in classes {
            if *d != dir {
                continue;
            }
            match c {
                Some(c) => println!("{indent}    {n:6} ({roots} roots) {}", c.describe()),
                None => {
                    unexplained += n;
                    println!("{indent}    {n:6} UNEXPLAINED");
                }
            }
        }
    }
    unexplained
}

/// Compiles a batch into one module; kernels kc rejects are reported as failures (the
/// generator makes valid kernels, so a rejection is kc's error or the generator's: the report
/// shows kc's message to tell which) and left out.
fn compile(kernels: &[&Kernel], t: &mut Totals) -> Option<(Ir, Vec<usize>)> {
    let is_ir = kernels[0].kind.is_ir();
    let input = |text: String| Input {
        name: if is_ir {
            "batch.mlir".into()
        } else {
            "batch.k".into()
        },
        text,
        is_ir,
    };
    let join = |ks: &[&Kernel]| {
        ks.iter()
            .map(|k| k.text.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    };
    if let Ok(ir) = pipeline::compile_to_cf(&input(join(kernels))) {
        return Some((ir, (0..kernels.len()).collect()));
    }
    let mut ok = Vec::new();
    for (i, k) in kernels.iter().enumerate() {
        match pipeline::compile_to_cf(&input(k.text.clone())) {
            Ok(_) => ok.push(i),
            Err(e) => t.failures.push(format!(
                "=== generated kernel {} (seed {:#x}, {}) is rejected by kc\n{}\n{}",
                k.name,
                k.seed,
                k.kind.describe(),
                k.text,
                failure_text(&e)
            )),
        }
    }
    if ok.is_empty() {
        return None;
    }
    let sub: Vec<&Kernel> = ok.iter().map(|&i| kernels[i]).collect();
    match pipeline::compile_to_cf(&input(join(&sub))) {
        Ok(ir) => Some((ir, ok)),
        Err(e) => {
            t.failures.push(format!(
                "=== a batch of valid kernels is rejected\n{}",
                failure_text(&e)
            ));
            None
        }
    }
}

fn failure_text(f: &Failure) -> String {
    match f {
        Failure::Diagnostics(s) | Failure::Usage(s) => s.clone(),
    }
}

fn run_opt(opt: &Path, module: &str) -> Result<String, String> {
    let mut child = Command::new(opt)
        .args(["-passes=print<uniformity>", "-disable-output", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", opt.display()))?;
    let mut stdin = child.stdin.take().expect("piped");
    let text = module.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child.wait_with_output().map_err(|e| format!("opt: {e}"))?;
    writer
        .join()
        .expect("writer thread")
        .map_err(|e| format!("writing to opt: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        return Err(format!("opt failed ({}):\n{stderr}", out.status));
    }
    // print<uniformity> writes to stderr (LLVM's dbgs-style errs()); accept stdout too.
    Ok(stderr + &String::from_utf8_lossy(&out.stdout))
}

fn run_batch(
    kernels: &[&Kernel],
    opt: &Path,
    t: &mut Totals,
    verbose: bool,
    keep: Option<&Path>,
    bi: usize,
) {
    let Some((ir, ok)) = compile(kernels, t) else {
        return;
    };
    let module = match kc_compiler::target::emit_llvm(&ir) {
        Ok(m) => m,
        Err(e) => {
            t.failures
                .push(format!("=== emit_llvm failed on a batch: {e}"));
            return;
        }
    };
    let output = match run_opt(opt, &module) {
        Ok(o) => o,
        Err(e) => {
            t.failures.push(format!("=== {e}"));
            return;
        }
    };
    if let Some(dir) = keep {
        let tag = format!("{}{bi}", if kernels[0].kind.is_ir() { "cf" } else { "src" });
        let _ = std::fs::create_dir_all(dir);
        let src: Vec<&str> = ok.iter().map(|&i| kernels[i].text.as_str()).collect();
        let ext = if kernels[0].kind.is_ir() { "mlir" } else { "k" };
        let _ = std::fs::write(dir.join(format!("{tag}.{ext}")), src.join("\n"));
        let _ = std::fs::write(dir.join(format!("{tag}.ll")), &module);
        let _ = std::fs::write(dir.join(format!("{tag}.uniformity.txt")), &output);
    }
    let verdicts = match llvm::parse(&output) {
        Ok(v) => v,
        Err(e) => {
            t.failures
                .push(format!("=== cannot parse opt's output: {e}"));
            return;
        }
    };
    for func in ir.kernels() {
        let name = ir.func_name(func).to_string();
        let k = kernels
            .iter()
            .find(|k| k.name == name)
            .expect("every kernel of the batch was generated");
        let Some(lv) = verdicts.get(&name) else {
            t.failures
                .push(format!("=== opt printed nothing for @{name}"));
            continue;
        };
        let d = diff::compare_kernel(&ir, func, lv);
        t.kernels += 1;
        *t.by_kind.entry(k.kind).or_default() += 1;
        t.irreducible += usize::from(d.u.cycles.cycles.iter().any(|c| !c.is_reducible()));
        t.assumed_divergent += usize::from(!d.u.assumed_divergent.is_empty());
        t.divergent_exit += usize::from(!d.u.divergent_exit_cycles.is_empty());
        t.temporal += usize::from(!d.u.temporal.is_empty());
        t.values += d.values_compared;
        t.branches += d.branches_compared;
        t.values_agree += d.values_agreeing;
        t.branches_agree += d.branches_agreeing;
        t.no_counterpart += d.no_counterpart.len();
        if t.no_counterpart_examples.len() < 12 {
            for n in d.no_counterpart.iter().take(3) {
                t.no_counterpart_examples.push(format!("@{name}: %{n}"));
            }
        }
        for m in &d.mismatches {
            let e = t.classes.entry((m.kc_divergent, m.class)).or_default();
            e.0 += 1;
            e.1 += usize::from(m.root);
        }
        if let Some(o) = &d.llvm_order {
            t.order_kernels += 1;
            for m in &o.mismatches {
                let e = t
                    .order_classes
                    .entry((m.kc_divergent, m.class))
                    .or_default();
                e.0 += 1;
                e.1 += usize::from(m.root);
            }
        }
        let order_bad = d
            .llvm_order
            .as_ref()
            .is_some_and(|o| o.unexplained().next().is_some());
        if order_bad {
            let o = d.llvm_order.as_ref().expect("checked");
            t.failures.push(format!(
                "(with LLVM's DFS order)\n{}",
                report(&ir, k, o, lv)
            ));
        }
        if d.unexplained().next().is_some() || (verbose && !d.mismatches.is_empty()) {
            let report = report(&ir, k, &d, lv);
            if d.unexplained().next().is_some() {
                t.failures.push(report);
            } else {
                println!("{report}");
            }
        }
    }
}

/// The kernel, kc's and LLVM's verdicts, and the disagreements.
fn report(ir: &Ir, k: &Kernel, d: &KernelDiff, lv: &llvm::FuncVerdicts) -> String {
    let mut s = String::new();
    let unexplained = d.unexplained().count();
    let _ = writeln!(
        s,
        "=== kernel {} ({}; KC_DIFF_SEED index {}, kernel seed {:#x}): {} mismatches, {} unexplained",
        k.name,
        k.kind.describe(),
        k.index,
        k.seed,
        d.mismatches.len(),
        unexplained
    );
    let names = text::names(ir, d.func);
    for m in &d.mismatches {
        let what = match m.item {
            Item::Value(v) => format!("value %{} (LLVM %{})", names.values[v], m.name),
            Item::Branch(b) => format!(
                "branch in ^{} (LLVM block {})",
                ir.op_block(b)
                    .map(|blk| names.blocks[blk].clone())
                    .unwrap_or_default(),
                m.name
            ),
        };
        let (kc, ll) = if m.kc_divergent {
            ("divergent", "uniform")
        } else {
            ("uniform", "divergent")
        };
        let class = m
            .class
            .map_or("UNEXPLAINED".to_string(), |c| c.describe().to_string());
        let _ = writeln!(s, "  {what}: kc {kc}, LLVM {ll}: {class}");
        let reason = match m.item {
            Item::Value(v) => d.u.reason(v),
            Item::Branch(b) => d.u.branch_reason(b),
        };
        if let Some(r) = reason {
            let _ = writeln!(s, "    kc's reason: {}", reason_text(ir, &names, r));
        }
    }
    let _ = writeln!(s, "--- source\n{}", k.text);
    let input = Input {
        name: format!("{}.{}", k.name, if k.kind.is_ir() { "mlir" } else { "k" }),
        text: k.text.clone(),
        is_ir: k.kind.is_ir(),
    };
    let opts = Options::new(Stage::Uniformity);
    match pipeline::run(&input, &opts) {
        Ok(u) => {
            let _ = writeln!(s, "--- kc --emit=uniformity\n{u}");
        }
        Err(e) => {
            let _ = writeln!(s, "--- kc --emit=uniformity failed\n{}", failure_text(&e));
        }
    }
    let _ = writeln!(s, "--- LLVM print<uniformity>\n{}", lv.text);
    s
}

fn reason_text(ir: &Ir, names: &text::Names, r: &Reason) -> String {
    let op = |o: kc_dialect::Op| {
        let t = text::print_op(ir, o, &text::PrintOptions::default());
        t.lines().next().unwrap_or("").trim().to_string()
    };
    let v = |x: kc_dialect::Value| format!("%{}", names.values[x]);
    let b = |x: kc_dialect::Block| format!("^{}", names.blocks[x]);
    match r {
        Reason::Source(o) => format!("divergence source `{}`", op(*o)),
        Reason::Operand { op: o, operand } => format!("operand {} of `{}`", v(*operand), op(*o)),
        Reason::Incoming { from, value } => format!("incoming {} from `{}`", v(*value), op(*from)),
        Reason::Join { branch, block } => format!("join {} of `{}`", b(*block), op(*branch)),
        Reason::DivergentExit { branch, block, .. } => {
            format!("divergent exit {} of `{}`", b(*block), op(*branch))
        }
        Reason::DivergentCycle { branch, join, .. } => {
            format!(
                "in a cycle assumed divergent (join {} of `{}`)",
                b(*join),
                op(*branch)
            )
        }
        Reason::Temporal { op: o, value, .. } => {
            format!("temporal divergence of {} at `{}`", v(*value), op(*o))
        }
    }
}
