//! Differential execution test (issue #5): random kernels run on the reference interpreter
//! and, compiled by the gfx942 backend, on the wave64 simulator; every buffer must match.
//!
//! Kernels come from `kc_tests::gen::source::race_free_kernel` (nested if/else, loops with
//! uniform and divergent trip counts, break/continue/return at any depth, uniform and
//! divergent arithmetic, loads, stores, atomics, ballot, readfirstlane, shuffles,
//! reductions, scans, shared arrays up to the 65536 bytes of LDS), with implicit and
//! explicit convergence tokens, in which every store and atomic goes to the work-item's own
//! slots: with data races, the engines could legitimately disagree (they order lanes and waves differently: a store that follows a
//! loop exit in the CFG runs after the loop on the GPU). Each runs with a random block size
//! among 1, 17, 33, 64, 65 and 128 work-items (partial and several waves) and one or two
//! workgroups, on random buffers and scalars. A kernel whose reference run reports undefined behaviour (an index
//! out of bounds, a division by zero, a shuffle of an inactive lane, no progress) is
//! skipped and counted: it has no meaning to compare. Otherwise the simulator must finish
//! and give identical buffers, with the kernel compiled at -O0 and at -O2 (the optimizer
//! must not change a defined result), each with EXEC masking and with FORK/JOIN
//! (`--divergence=fork-join`).
//!
//! The optimized kernel also runs with a tight register budget ([`TIGHT`]: SGPRs spill to
//! VGPR lanes, VGPRs to scratch) and EXEC masking. A kernel that needs more registers than a
//! reduced budget allows even with spilling gets kc's diagnostic naming the budget: counted
//! apart, not as a failure (at the hardware's budget it is one).
//!
//! Environment: `KC_EXEC_SEED`, `KC_EXEC_COUNT` (kernels, default 200), `KC_EXEC_FIRST`
//! (first index, to rerun the kernel a failure names), `KC_EXEC_VERBOSE=1`, `KC_EXEC_KEEP=DIR`
//! (write each failing kernel as `DIR/kN.k` with its `DIR/kN.args.json`, grid and block
//! included, so `kc run DIR/kN.k --engine ref|sim` reproduces it), `KC_EXEC_MAX_SGPRS=N` /
//! `KC_EXEC_MAX_VGPRS=N` (every simulator compile with EXEC masking gets that budget, as `kc
//! run --max-sgprs N --max-vgprs N`, instead of the hardware's plus the tight run; FORK/JOIN
//! keeps the hardware's, since its stack is pinned to s[4L:4L+3]).

use kc_compiler::pipeline::{self, Failure, Input, Options, Stage};
use kc_compiler::run::{self, Engine, Request};
use kc_tests::gen::source::{self, Kernel, ParamKind, Ty};
use kc_tests::gen::Rng;
use std::process::ExitCode;

use kc_tests::env_u64;

/// The budget of the extra spilling run: few enough registers that most kernels spill.
const TIGHT: pipeline::Budget = pipeline::Budget {
    sgprs: 16,
    vgprs: 16,
};

/// Whether the -O2 listing of `input` under `budget` spills VGPRs to scratch and SGPRs to
/// VGPR lanes (for the summary: how much of the run exercised spilling).
fn spills(input: &Input, budget: pipeline::Budget) -> (bool, bool) {
    let mut opts = Options::new(Stage::Asm);
    opts.budget = budget;
    match pipeline::run(input, &opts) {
        Ok(listing) => (
            listing.contains("scratch_store"),
            listing.contains("v_writelane_b32"),
        ),
        Err(_) => (false, false),
    }
}

const EXEC_MASK: pipeline::Divergence = pipeline::Divergence::ExecMask;
const FORK_JOIN: pipeline::Divergence = pipeline::Divergence::ForkJoin { depth: 6 };

/// A random value of type `t` as JSON: small ones mostly, and sometimes the type's extremes
/// (and, for `f32`, an infinity or a NaN).
fn value(rng: &mut Rng, t: Ty) -> String {
    let small = rng.below(41) as i64 - 20;
    match t {
        Ty::Bool => rng.chance(50).to_string(),
        Ty::I32 if rng.chance(5) => rng.pick(&["2147483647", "-2147483648"]).to_string(),
        Ty::I32 => small.to_string(),
        Ty::U32 if rng.chance(5) => "4294967295".into(),
        Ty::U32 => small.unsigned_abs().to_string(),
        Ty::I64 if rng.chance(5) => rng
            .pick(&[
                "9223372036854775807",
                "-9223372036854775808",
                "1099511627776",
            ])
            .to_string(),
        Ty::I64 => small.to_string(),
        Ty::U64 if rng.chance(5) => rng
            .pick(&["18446744073709551615", "9223372036854775808", "4294967296"])
            .to_string(),
        Ty::U64 => small.unsigned_abs().to_string(),
        Ty::F32 if rng.chance(2) => rng.pick(&["\"nan\"", "\"inf\"", "\"-inf\""]).to_string(),
        Ty::F32 => format!("{:?}", small as f32 / 4.0),
    }
}

/// The args file of a generated kernel: every buffer filled with random values of its
/// type, `n` in 0..12 and `m` in 0..6 (loop bounds), the other scalars random.
fn args(k: &Kernel, rng: &mut Rng) -> String {
    let mut fields = Vec::new();
    for p in &k.params {
        let v = match p.kind {
            ParamKind::Buffer { elem, len, .. } => {
                // Fill the first 1024 elements; the rest start as 0.
                let data: Vec<String> = (0..len.min(1024)).map(|_| value(rng, elem)).collect();
                format!(
                    "{{\"type\": \"{}\", \"data\": [{}], \"len\": {len}}}",
                    elem.name(),
                    data.join(", ")
                )
            }
            ParamKind::Scalar(t) => match p.name.as_str() {
                "n" => rng.below(12).to_string(),
                "m" => rng.below(6).to_string(),
                _ => value(rng, t),
            },
        };
        fields.push(format!("{:?}: {v}", p.name));
    }
    format!("{{{}}}", fields.join(", "))
}

fn buffers(json: &str) -> String {
    let start = json.find("\"buffers\"").unwrap_or(0);
    let end = json.find("\"counts\"").unwrap_or(json.len());
    json[start..end].to_string()
}

/// Whether `got` is kc's refusal of a kernel that does not fit a register budget smaller than
/// the hardware's even with spilling: a limit of that budget, not a wrong result. At the
/// hardware's budget the same refusal stays a failure.
fn over_budget(got: &Result<String, Failure>) -> bool {
    matches!(got, Err(Failure::Diagnostics(d))
        if kc_backend::regalloc::refused_for_reduced_budget(d))
}

/// `None` when `got` has the reference run's buffers, else what differs (`what` names the
/// run).
fn mismatch(reference: &str, got: Result<String, Failure>, what: &str) -> Option<String> {
    match got {
        Ok(out) if buffers(&out) == buffers(reference) => None,
        Ok(out) => Some(format!(
            "buffers differ on {what}\n--- ref\n{}\n--- {what}\n{}",
            buffers(reference),
            buffers(&out)
        )),
        Err(Failure::Diagnostics(d) | Failure::Usage(d)) => Some(format!("{what} failed: {d}")),
    }
}

fn main() -> ExitCode {
    let seed = env_u64("KC_EXEC_SEED", 0x6b63_0005);
    let count = env_u64("KC_EXEC_COUNT", 200) as usize;
    let first = env_u64("KC_EXEC_FIRST", 0) as usize;
    let verbose = std::env::var("KC_EXEC_VERBOSE").is_ok();
    // The budget of every simulator compile, and of the extra one (the tight budget unless
    // the environment sets one for all).
    let hw = pipeline::Budget::default();
    let forced = pipeline::Budget {
        sgprs: env_u64("KC_EXEC_MAX_SGPRS", hw.sgprs as u64) as u16,
        vgprs: env_u64("KC_EXEC_MAX_VGPRS", hw.vgprs as u64) as u16,
    };
    let (mut vgpr_spilling, mut sgpr_spilling) = (0, 0);
    let (budget, extra) = if forced == hw {
        (hw, Some(TIGHT))
    } else {
        (forced, None)
    };
    let keep = std::env::var("KC_EXEC_KEEP").ok();
    let (mut compared, mut skipped, mut failures) = (0, 0, Vec::new());
    // Compiles refused for needing more registers than a reduced budget, even with spilling.
    let mut over = 0;
    // Compared kernels whose shared arrays fill LDS to (nearly) its 65536 bytes.
    let mut full_lds = 0;
    for i in first..first + count {
        let s = Rng::derive(seed, i as u64);
        let mut rng = Rng::new(s ^ 0x5eed);
        let tokens = if i % 2 == 0 {
            source::Tokens::Implicit
        } else {
            source::Tokens::Explicit
        };
        let kernel = source::race_free_kernel(&format!("k{i}"), s, tokens);
        let text = kernel.text.clone();
        let block = *rng.pick(&[1u32, 17, 33, 64, 65, 128]);
        let grid = 1 + rng.below(2) as u32;
        let input = Input {
            name: format!("k{i}.k"),
            text: text.clone(),
            is_ir: false,
        };
        let request = |engine, opt_level, divergence, budget| Request {
            kernel: None,
            grid: Some([grid, 1, 1]),
            block: Some([block, 1, 1]),
            args: Some(("args.json".to_string(), args(&kernel, &mut Rng::new(s)))),
            engine,
            // The reference counts ops per wave, the simulator wave-instructions per
            // workgroup (several per op, several waves): the simulator gets the room to finish
            // whatever the reference finishes.
            step_limit: if engine == Engine::Ref {
                2_000_000
            } else {
                200_000_000
            },
            total_step_limit: kc_compiler::run::DEFAULT_MAX_TOTAL_STEPS,
            opt_level,
            simt_deadlock: kc_compiler::pipeline::SimtDeadlock::Repair,
            divergence,
            budget,
            listing: None,
            schedule: kc_compiler::run::Schedule::Lockstep,
            trace: false,
            color: false,
        };
        let reference = match run::execute(&input, &request(Engine::Ref, 0, EXEC_MASK, hw)) {
            Ok(out) => out,
            Err(Failure::Diagnostics(d)) => {
                skipped += 1;
                if verbose {
                    println!("kernel {i}: skipped: {}", d.lines().next().unwrap_or(""));
                }
                continue;
            }
            Err(Failure::Usage(u)) => {
                failures.push(format!(
                    "kernel {i} (seed {s:#x}): usage error on ref: {u}\n{text}"
                ));
                continue;
            }
        };
        compared += 1;
        full_lds += text.contains("shared big") as usize;
        let describe = format!("kernel {i} (seed {s:#x}), block {block}, grid {grid}");
        let failed_before = failures.len();
        // The simulator runs the listing of the unoptimized and of the optimized kernel, with
        // EXEC masking and with FORK/JOIN.
        'lowerings: for (divergence, scheme) in [(EXEC_MASK, "exec-mask"), (FORK_JOIN, "fork-join")]
        {
            for opt in [0u8, 2] {
                // FORK/JOIN pins its stack to s[4L:4L+3], which a small SGPR budget may
                // not hold: it keeps the hardware's budget.
                let budget = if divergence == EXEC_MASK { budget } else { hw };
                let got = run::execute(&input, &request(Engine::Sim, opt, divergence, budget));
                if over_budget(&got) {
                    over += 1;
                    if verbose {
                        println!("kernel {i}: over the budget at -O{opt} with {scheme}");
                    }
                    continue;
                }
                let what = format!("the simulator at -O{opt} with {scheme}");
                if let Some(m) = mismatch(&reference, got, &what) {
                    failures.push(format!("{describe}: {m}\n{text}"));
                    break 'lowerings;
                }
            }
        }
        let spilled = spills(&input, extra.unwrap_or(budget));
        vgpr_spilling += spilled.0 as usize;
        sgpr_spilling += spilled.1 as usize;
        if let (Some(tight), true) = (extra, failures.len() == failed_before) {
            let got = run::execute(&input, &request(Engine::Sim, 2, EXEC_MASK, tight));
            let what = format!(
                "the simulator at -O2 with --max-sgprs {} --max-vgprs {}",
                tight.sgprs, tight.vgprs
            );
            if over_budget(&got) {
                over += 1;
                if verbose {
                    println!("kernel {i}: over the budget of {what}");
                }
            } else if let Some(m) = mismatch(&reference, got, &what) {
                failures.push(format!("{describe}: {m}\n{text}"));
            }
        }
        // The reference engine on the kernel's CF IR, before and after the optimizer (in
        // lockstep over the cycle-contiguous block order when the kernel has cross-lane ops,
        // else one work-item at a time): the same buffers as on the structured IR.
        if failures.len() == failed_before {
            for stage in [Stage::CfIr, Stage::Opt] {
                let got = pipeline::run(&input, &Options::new(stage)).and_then(|cf| {
                    let cf_input = Input {
                        name: format!("k{i}.mlir"),
                        text: cf,
                        is_ir: true,
                    };
                    run::execute(&cf_input, &request(Engine::Ref, 0, EXEC_MASK, hw))
                });
                let what = format!("the reference on the {stage:?} IR");
                if let Some(m) = mismatch(&reference, got, &what) {
                    failures.push(format!("{describe}: {m}\n{text}"));
                    break;
                }
            }
        }
        if let (Some(dir), true) = (&keep, failures.len() > failed_before) {
            let args = args(&kernel, &mut Rng::new(s));
            let args = format!("{{\"grid\": {grid}, \"block\": {block}, {}", &args[1..]);
            let _ = std::fs::create_dir_all(dir);
            let _ = std::fs::write(format!("{dir}/k{i}.k"), &text);
            let _ = std::fs::write(format!("{dir}/k{i}.args.json"), args);
        }
    }
    println!(
        "exec_diff: {} of {compared} compared kernels agree; {skipped} skipped (undefined \
         behaviour in the reference run)",
        compared - failures.len()
    );
    println!(
        "exec_diff: {full_lds} of them fill LDS to within 16 bytes of its 65536 (shared arrays \
         near the limit)"
    );
    if over > 0 {
        println!(
            "exec_diff: {over} compiles refused with a reduced register budget (the kernel \
             needs more registers than it allows, even with spilling); not compared"
        );
    }
    let b = extra.unwrap_or(budget);
    println!(
        "exec_diff: with --max-sgprs {} --max-vgprs {}, {vgpr_spilling} of them spill VGPRs to \
         scratch and {sgpr_spilling} SGPRs to VGPR lanes",
        b.sgprs, b.vgprs
    );
    if failures.is_empty() {
        return ExitCode::SUCCESS;
    }
    for f in failures.iter().take(3) {
        println!("---- {f}");
    }
    for f in failures.iter().skip(3) {
        println!("---- {}", f.lines().next().unwrap_or(""));
    }
    println!("{} failures", failures.len());
    ExitCode::FAILURE
}
