//! Every example and every kernel the differential generators make compiles with the gfx942
//! backend to a listing llvm-mc-22 assembles without an error or a warning, and the kernel
//! descriptor in the assembled object says what kc's semantics and kc's own figures need.
//!
//! Generated kernels compile with EXEC masking, with FORK/JOIN (`--divergence=fork-join`),
//! and with EXEC masking under a budget of 16 SGPRs and 16 VGPRs (`--max-sgprs 16
//! --max-vgprs 16`: the spill code, SGPRs to VGPR lanes and VGPRs to scratch).
//!
//! Kernels: every example (`examples/*.k`, `examples/simt/*.k`, `examples/simt/safe/*.k`,
//! and `examples/mlir/*.mlir`, which only a kc built with the `mlir` feature reads: the `kc`
//! binary turns each into kc's CF IR when this test is built with that feature, and they are
//! left out, with a message, otherwise), then `kc_tests::gen::source` (structured `.k`,
//! implicit and explicit tokens, and the race-free variant the differential execution test
//! runs) and `kc_tests::gen::cfg` (CF `.mlir` on random, often irreducible CFGs, with and
//! without an entry token), the generators of the uniformity and execution differential
//! tests. A kernel the backend rejects with a diagnostic (an op it does not support yet) is
//! counted and listed, and fails the test: the generators only use what the backend claims
//! to support. A panic or an llvm-mc complaint fails it too. (`examples/simt/divergent_barrier.k`
//! is the exception: kc must reject it, see [`REJECTED`].)
//!
//! Each kernel goes through the steps of kc's pipeline from its library (front end,
//! optimizer at -O2, `isel` and every backend pass, each followed by the MIR validator, then
//! the asm printer), so kc's figures come from the machine module the listing is printed
//! from: the LDS bytes and kernarg size (`KernelInfo`) and the registers allocated and the
//! scratch bytes (`Usage`). The object's descriptor, as llvm-objdump-22 disassembles
//! `NAME.kd` (one llvm-objdump run per batch of objects), must then hold:
//! - the floating-point mode `compiler/LANGUAGE.md` states (§4.3): f32 and f16/f64
//!   subnormals kept (`float_denorm_mode_32 3`, `_16_64 3`), round to nearest even (both
//!   rounding modes 0), IEEE mode and DX10 clamp on, as clang-22 sets them;
//! - `group_segment_fixed_size` kc's LDS bytes, `kernarg_size` kc's kernarg size,
//!   `private_segment_fixed_size` kc's scratch bytes, the private segment enabled iff any;
//! - `next_free_vgpr` kc's VGPR count rounded up to gfx942's granule of 8, `next_free_sgpr`
//!   kc's SGPR count plus the 6 the assembler adds (VCC, XNACK mask, flat scratch) rounded up
//!   to 8 (what llvm-mc-22 encodes and llvm-objdump-22 prints back), `accum_offset` a multiple
//!   of 4 at or above kc's VGPR count;
//! - and both counts cover every register the kernel's code names, as the simulator's parser
//!   reads them from the listing's instructions (not from its descriptor).
//!
//! Environment: `KC_ASM_SEED` (decimal or 0x-hex), `KC_ASM_COUNT` (generated kernels,
//! default 400), `KC_ASM_VERBOSE=1` (the first line of every failure, not only of the first
//! five). Skips, with a message, when llvm-mc-22 or llvm-objdump-22 is missing.

use kc_backend::mir::{validate, Budget, Divergence, KernelInfo, Usage};
use kc_backend::passes;
use kc_compiler::pipeline::{self, Failure, Input};
use kc_tests::gen::{cfg, source, Rng};
use kc_tests::harness::{assemble_gfx942_to, locate_llvm_mc, Layout};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use kc_tests::env_u64;

/// Examples kc rejects by design (`tests/simt.rs` checks the diagnostic): here only that
/// they do not compile.
const REJECTED: &[&str] = &["examples/simt/divergent_barrier.k"];

/// Objects read back by one llvm-objdump run.
const BATCH: usize = 64;

fn main() -> ExitCode {
    let mc = match locate_llvm_mc() {
        Ok(mc) => mc,
        Err(e) => {
            println!("backend_assembles: skipped ({e})");
            return ExitCode::SUCCESS;
        }
    };
    let Some(objdump) = locate_objdump(&mc) else {
        println!("backend_assembles: skipped (llvm-objdump-22 not found next to {mc:?})");
        return ExitCode::SUCCESS;
    };
    let dir = Layout::detect().tmp_root().join("backend_assembles");
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = std::fs::create_dir_all(&dir) {
        println!("backend_assembles: cannot create {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    let mut checker = Checker {
        mc,
        objdump,
        dir: dir.clone(),
        pending: Vec::new(),
        objects: 0,
        failures: Vec::new(),
    };
    let examples = examples(&mut checker.failures);
    let config = Config {
        divergence: Divergence::ExecMask,
        budget: Budget::default(),
    };
    for (name, input) in &examples {
        if REJECTED.contains(&name.as_str()) {
            if compile(input, config).is_ok() {
                checker
                    .failures
                    .push(format!("{name}: compiled, but kc must reject it"));
            }
            continue;
        }
        checker.check(name, input, config);
    }
    let seed = env_u64("KC_ASM_SEED", 0x6b63_0004);
    let count = env_u64("KC_ASM_COUNT", 400) as usize;
    for i in 0..count {
        let s = Rng::derive(seed, i as u64);
        let name = format!("k{i}");
        let (text, is_ir) = match i % 5 {
            0 => (source::kernel(&name, s, source::Tokens::Implicit), false),
            1 => (source::kernel(&name, s, source::Tokens::Explicit), false),
            2 => (cfg::kernel(&name, s, cfg::CfTokens::None), true),
            3 => (cfg::kernel(&name, s, cfg::CfTokens::Entry), true),
            _ => (
                source::race_free_kernel(&name, s, source::Tokens::Explicit).text,
                false,
            ),
        };
        let input = Input {
            name: format!("{name}.{}", if is_ir { "mlir" } else { "k" }),
            text,
            is_ir,
        };
        let hw = Budget::default();
        let tight = Budget {
            sgprs: 16,
            vgprs: 16,
        };
        for (divergence, budget) in [
            (Divergence::ExecMask, hw),
            (Divergence::ForkJoin { depth: 6 }, hw),
            (Divergence::ExecMask, tight),
        ] {
            let what = format!("kernel {i} (seed {s:#x})");
            if !checker.check(&what, &input, Config { divergence, budget }) {
                break;
            }
        }
    }
    checker.flush();
    let _ = std::fs::remove_dir_all(&dir);
    let failures = checker.failures;
    println!(
        "backend_assembles: {} examples and {count} generated kernels (EXEC masking, FORK/JOIN, \
         and EXEC masking with 16 SGPRs and 16 VGPRs): {} objects assembled and their \
         descriptors checked, {} failures",
        examples.len(),
        checker.objects,
        failures.len()
    );
    if failures.is_empty() {
        return ExitCode::SUCCESS;
    }
    let all = std::env::var("KC_ASM_VERBOSE").is_ok();
    for (k, f) in failures.iter().enumerate() {
        if k < 5 {
            println!("---- {f}");
        } else if all {
            println!("---- {}", f.lines().next().unwrap_or(""));
        }
    }
    ExitCode::FAILURE
}

/// `llvm-objdump` of the same LLVM as `mc`: its sibling (`llvm-objdump-22` next to
/// `llvm-mc-22`), else LLVM 22's own directory.
fn locate_objdump(mc: &Path) -> Option<PathBuf> {
    let name = mc.file_name()?.to_str()?.replace("llvm-mc", "llvm-objdump");
    let sibling = mc.with_file_name(name);
    [sibling, PathBuf::from("/usr/lib/llvm-22/bin/llvm-objdump")]
        .into_iter()
        .find(|p| p.is_file())
}

/// Every example, named by its path: `.k` source as is, `examples/mlir/*.mlir` (upstream
/// MLIR) as the CF IR the `kc` binary makes of it when built with the `mlir` feature. A
/// failure to read or convert one is recorded in `failures`.
fn examples(failures: &mut Vec<String>) -> Vec<(String, Input)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut out = Vec::new();
    for dir in ["", "simt", "simt/safe"] {
        for path in files(&root.join(dir), "k") {
            let name = format!("examples/{}", path.strip_prefix(&root).unwrap().display());
            match std::fs::read_to_string(&path) {
                Ok(text) => out.push((
                    name.clone(),
                    Input {
                        name,
                        text,
                        is_ir: false,
                    },
                )),
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
    }
    let mlir = files(&root.join("mlir"), "mlir");
    if !cfg!(feature = "mlir") {
        println!(
            "backend_assembles: the {} examples/mlir/*.mlir left out: upstream MLIR needs kc \
             built with the `mlir` feature (--features kc-tests/mlir)",
            mlir.len()
        );
        return out;
    }
    let kc = match Layout::detect().build_kc(false) {
        Ok(kc) => kc,
        Err(e) => {
            failures.push(format!("examples/mlir: {e}"));
            return out;
        }
    };
    for path in mlir {
        let name = format!("examples/{}", path.strip_prefix(&root).unwrap().display());
        let cf = Command::new(&kc).arg(&path).arg("--emit=cf-ir").output();
        match cf {
            Ok(o) if o.status.success() => out.push((
                name.clone(),
                Input {
                    name: format!("{name} (cf-ir)"),
                    text: String::from_utf8_lossy(&o.stdout).into_owned(),
                    is_ir: true,
                },
            )),
            Ok(o) => failures.push(format!(
                "{name}: kc --emit=cf-ir failed: {}",
                String::from_utf8_lossy(&o.stderr)
            )),
            Err(e) => failures.push(format!("{name}: cannot run {}: {e}", kc.display())),
        }
    }
    out
}

/// The files of `dir` ending in `.ext`, sorted.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.is_file() && p.extension().is_some_and(|e| e == ext));
    v.sort();
    v
}

#[derive(Clone, Copy)]
struct Config {
    divergence: Divergence,
    budget: Budget,
}

impl std::fmt::Display for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "{:?}, {} SGPRs, {} VGPRs",
            self.divergence, self.budget.sgprs, self.budget.vgprs
        )
    }
}

/// A listing and what kc says each of its kernels needs.
struct Compiled {
    listing: String,
    kernels: Vec<(KernelInfo, Usage)>,
}

/// `input` through kc's pipeline under `config`, the MIR validated after every pass.
fn compile(input: &Input, config: Config) -> Result<Compiled, String> {
    let fail = |f: Failure| match f {
        Failure::Diagnostics(d) | Failure::Usage(d) => format!("kc: {d}"),
    };
    let ir = pipeline::compile_to_cf(input).map_err(fail)?;
    let mut m = pipeline::compile_to_mir(ir, input, 2, config.divergence).map_err(fail)?;
    m.set_budget(config.budget);
    for pass in passes::PASSES {
        passes::run(&mut m, pass).map_err(|e| format!("kc: {}: {}", pass.name, e.message))?;
        let problems = validate::validate(&m);
        if !problems.is_empty() {
            return Err(format!(
                "MIR invalid after {}:\n{}",
                pass.name,
                validate::render(&m, &problems)
            ));
        }
    }
    let listing = passes::listing(&m).map_err(|e| format!("kc: {}", e.message))?;
    let kernels = m
        .kernels
        .iter()
        .map(|k| (k.info.clone(), k.usage.unwrap_or_default()))
        .collect();
    Ok(Compiled { listing, kernels })
}

/// An assembled object waiting for its descriptors to be read back.
struct Pending {
    what: String,
    object: PathBuf,
    listing: String,
    kernels: Vec<(KernelInfo, Usage)>,
}

struct Checker {
    mc: PathBuf,
    objdump: PathBuf,
    dir: PathBuf,
    pending: Vec<Pending>,
    objects: usize,
    failures: Vec<String>,
}

impl Checker {
    /// Compiles and assembles `input` under `config` and queues its descriptor check; false
    /// (with the failure recorded) when it does not compile or assemble.
    fn check(&mut self, what: &str, input: &Input, config: Config) -> bool {
        let what = format!("{what} ({config})");
        let compiled = match std::panic::catch_unwind(|| compile(input, config)) {
            Ok(Ok(c)) => c,
            Ok(Err(e)) => {
                self.failures.push(format!("{what}: {e}\n{}", input.text));
                return false;
            }
            Err(_) => {
                self.failures
                    .push(format!("{what}: kc panicked\n{}", input.text));
                return false;
            }
        };
        let object = self.dir.join(format!("{}.o", self.objects));
        self.objects += 1;
        if let Err(e) = assemble_gfx942_to(&self.mc, &compiled.listing, &object) {
            self.failures
                .push(format!("{what}: {e}\n{}", compiled.listing));
            return false;
        }
        self.pending.push(Pending {
            what,
            object,
            listing: compiled.listing,
            kernels: compiled.kernels,
        });
        if self.pending.len() == BATCH {
            self.flush();
        }
        true
    }

    /// Reads back the descriptors of the queued objects and checks them.
    fn flush(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        if pending.is_empty() {
            return;
        }
        let objects: Vec<&Path> = pending.iter().map(|p| p.object.as_path()).collect();
        let read = match read_descriptors(&self.objdump, &objects) {
            Ok(r) => r,
            Err(e) => {
                self.failures.push(e);
                return;
            }
        };
        for p in &pending {
            let descriptors = read.get(&p.object).cloned().unwrap_or_default();
            let problems = check_object(&p.listing, &p.kernels, &descriptors);
            if !problems.is_empty() {
                self.failures.push(format!(
                    "{}: the kernel descriptor read back from the object:\n  {}\n{}",
                    p.what,
                    problems.join("\n  "),
                    p.listing
                ));
            }
            let _ = std::fs::remove_file(&p.object);
        }
    }
}

/// A kernel descriptor's `.amdhsa_*` fields (without the prefix) and values.
type Fields = BTreeMap<String, u64>;

/// The descriptors llvm-objdump-22 disassembles from `.rodata` (`<NAME.kd>:` then one
/// `.amdhsa_FIELD VALUE` line per field) in each object: object → kernel name → fields.
fn read_descriptors(
    objdump: &Path,
    objects: &[&Path],
) -> Result<BTreeMap<PathBuf, BTreeMap<String, Fields>>, String> {
    let out = Command::new(objdump)
        .args(["-D", "--mcpu=gfx942", "-j", ".rodata"])
        .args(objects)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", objdump.display()))?;
    if !out.status.success() {
        return Err(format!(
            "llvm-objdump failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut all: BTreeMap<PathBuf, BTreeMap<String, Fields>> = BTreeMap::new();
    let mut object: Option<PathBuf> = None;
    let mut kernel: Option<String> = None;
    for line in text.lines() {
        if let Some(path) = line.strip_suffix("file format elf64-amdgpu") {
            let path = PathBuf::from(path.trim_end().trim_end_matches(':'));
            all.entry(path.clone()).or_default();
            object = Some(path);
            kernel = None;
        } else if let Some(name) = line
            .split_once('<')
            .and_then(|(_, r)| r.strip_suffix(".kd>:"))
        {
            kernel = Some(name.to_string());
        } else if let Some(field) = line.trim().strip_prefix(".amdhsa_") {
            let (Some(o), Some(k)) = (&object, &kernel) else {
                continue;
            };
            let Some((key, value)) = field.split_once(' ') else {
                continue;
            };
            if key == "kernel" {
                continue;
            }
            let Ok(v) = value.trim().parse::<u64>() else {
                return Err(format!("llvm-objdump: `{line}` has no number"));
            };
            all.entry(o.clone())
                .or_default()
                .entry(k.clone())
                .or_default()
                .insert(key.to_string(), v);
        }
    }
    Ok(all)
}

/// The ways an object's descriptors disagree with kc's semantics and figures (`listing` is
/// the listing it was assembled from: its instructions give the registers the code names).
fn check_object(
    listing: &str,
    kernels: &[(KernelInfo, Usage)],
    descriptors: &BTreeMap<String, Fields>,
) -> Vec<String> {
    let program = match kc_backend::sim::parse(listing) {
        Ok(p) => p,
        Err(e) => return vec![format!("the simulator cannot read the listing: {e}")],
    };
    let mut problems = Vec::new();
    if descriptors.len() != kernels.len() {
        problems.push(format!(
            "{} descriptors in the object, {} kernels compiled",
            descriptors.len(),
            kernels.len()
        ));
    }
    for (info, usage) in kernels {
        let name = &info.name;
        let Some(d) = descriptors.get(name) else {
            problems.push(format!("no descriptor {name}.kd"));
            continue;
        };
        let Some(code) = program.kernel(name) else {
            problems.push(format!("no kernel {name} in the listing"));
            continue;
        };
        let mut expect = |field: &str, want: u64, why: &str| match d.get(field) {
            Some(&got) if got == want => {}
            got => problems.push(format!("{name}: {field} is {got:?}, want {want} ({why})")),
        };
        // LANGUAGE.md §4.3.
        expect("float_denorm_mode_32", 3, "f32 subnormals kept");
        expect("float_denorm_mode_16_64", 3, "f16/f64 subnormals kept");
        expect("float_round_mode_32", 0, "round to nearest even");
        expect("float_round_mode_16_64", 0, "round to nearest even");
        expect("ieee_mode", 1, "IEEE mode, as clang-22");
        expect("dx10_clamp", 1, "DX10 clamp, as clang-22");
        expect(
            "group_segment_fixed_size",
            info.lds_size as u64,
            "kc's LDS bytes",
        );
        expect(
            "kernarg_size",
            info.kernarg_size as u64,
            "kc's kernarg size",
        );
        let private = usage.private_bytes as u64;
        expect("private_segment_fixed_size", private, "kc's scratch bytes");
        expect(
            "enable_private_segment",
            (private != 0) as u64,
            "scratch used",
        );
        let vgprs = (usage.vgprs.max(1) as u64).next_multiple_of(8);
        expect("next_free_vgpr", vgprs, "kc's VGPRs, granule 8");
        let sgprs = (usage.sgprs as u64 + 6).next_multiple_of(8);
        expect(
            "next_free_sgpr",
            sgprs,
            "kc's SGPRs + VCC, XNACK, flat scratch, granule 8",
        );
        let accum = d.get("accum_offset").copied().unwrap_or(0);
        if !accum.is_multiple_of(4) || accum < usage.vgprs as u64 {
            problems.push(format!(
                "{name}: accum_offset {accum} is not a multiple of 4 at or above kc's {} VGPRs",
                usage.vgprs
            ));
        }
        // The code itself, as the simulator reads it, fits in what the descriptor grants.
        let granted = |f: &str| d.get(f).copied().unwrap_or(0);
        if code.vgprs_used as u64 > granted("next_free_vgpr") {
            problems.push(format!(
                "{name}: the code names {} VGPRs, the descriptor grants {}",
                code.vgprs_used,
                granted("next_free_vgpr")
            ));
        }
        if code.sgprs_used as u64 + 6 > granted("next_free_sgpr") {
            problems.push(format!(
                "{name}: the code names {} SGPRs (+6 special), the descriptor grants {}",
                code.sgprs_used,
                granted("next_free_sgpr")
            ));
        }
    }
    problems
}
