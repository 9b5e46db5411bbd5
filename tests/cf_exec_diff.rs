//! Differential execution of random CF-form `.mlir` kernels (`kc_tests::gen::cfg::exec_kernel`:
//! arbitrary control-flow graphs, irreducible cycles included, `i1` values through every op,
//! block argument, compare, select and cast that takes one): each runs on the reference
//! interpreter and, compiled by the gfx942 backend at -O0 and -O2 with EXEC masking and with
//! FORK/JOIN, on the wave64 simulator; every buffer must match. The kernels have no cross-lane
//! op and every work-item writes only its own slots, so the result is the program's alone.
//!
//! A kernel whose reference run reports an error is skipped and counted (every cycle of the
//! generated kernels ends, within the fuel the generator gives each work-item). Each runs with a random block size among 1, 17, 64,
//! 65 and 128 work-items and one or two workgroups, on random `%c`, `%d`, `%n` and `%buf`.
//!
//! Environment: `KC_CFEXEC_SEED`, `KC_CFEXEC_COUNT` (kernels, default 300), `KC_CFEXEC_FIRST`
//! (first index, to rerun the kernel a failure names), `KC_CFEXEC_VERBOSE=1`.

use kc_compiler::pipeline::{self, Failure, Input};
use kc_compiler::run::{self, Engine, Request};
use kc_tests::env_u64;
use kc_tests::gen::{cfg, Rng};
use std::process::ExitCode;

/// The reference's step limit per workgroup: generous for a kernel that ends (a few hundred
/// ops per work-item), small enough that one that loops forever is dropped quickly.
const REF_STEPS: u64 = 400_000;

fn args(rng: &mut Rng, block: u32, grid: u32) -> String {
    let buf: Vec<String> = (0..64)
        .map(|_| {
            if rng.chance(5) {
                rng.pick(&["2147483647", "-2147483648"]).to_string()
            } else {
                (rng.below(41) as i64 - 20).to_string()
            }
        })
        .collect();
    format!(
        "{{\"c\": {}, \"d\": {}, \"n\": {}, \"buf\": {{\"type\": \"i32\", \"data\": [{}]}}, \
         \"out\": {{\"type\": \"i32\", \"len\": {}}}, \"fuel\": {{\"type\": \"i32\", \"len\": {}}}}}",
        rng.chance(50),
        rng.chance(50),
        rng.below(12),
        buf.join(", "),
        4 * block * grid,
        block * grid
    )
}

fn buffers(json: &str) -> String {
    let start = json.find("\"buffers\"").unwrap_or(0);
    let end = json.find("\"counts\"").unwrap_or(json.len());
    json[start..end].to_string()
}

fn main() -> ExitCode {
    let seed = env_u64("KC_CFEXEC_SEED", 0x6b63_0021);
    let count = env_u64("KC_CFEXEC_COUNT", 300) as usize;
    let first = env_u64("KC_CFEXEC_FIRST", 0) as usize;
    let verbose = std::env::var("KC_CFEXEC_VERBOSE").is_ok();
    let (mut compared, mut skipped, mut failures) = (0usize, 0usize, Vec::new());
    let (mut with_i1_ops, mut i1_args) = (0usize, 0usize);
    for i in first..first + count {
        let s = Rng::derive(seed, i as u64);
        let text = cfg::exec_kernel(&format!("k{i}"), s);
        let mut rng = Rng::new(s ^ 0x5eed);
        let block = *rng.pick(&[1u32, 17, 64, 65, 128]);
        let grid = 1 + rng.below(2) as u32;
        let args = args(&mut rng, block, grid);
        let input = Input {
            name: format!("k{i}.mlir"),
            text: text.clone(),
            is_ir: true,
        };
        let request = |engine, opt_level, divergence| Request {
            kernel: None,
            grid: Some([grid, 1, 1]),
            block: Some([block, 1, 1]),
            args: Some(("args.json".to_string(), args.clone())),
            engine,
            step_limit: if engine == Engine::Ref {
                REF_STEPS
            } else {
                200_000_000
            },
            total_step_limit: run::DEFAULT_MAX_TOTAL_STEPS,
            opt_level,
            simt_deadlock: pipeline::SimtDeadlock::Repair,
            divergence,
            budget: pipeline::Budget::default(),
            listing: None,
            schedule: run::Schedule::Lockstep,
            trace: false,
            color: false,
        };
        let exec_mask = pipeline::Divergence::ExecMask;
        let reference = match run::execute(&input, &request(Engine::Ref, 0, exec_mask)) {
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
                    "kernel {i} (seed {s:#x}): usage error: {u}\n{text}"
                ));
                continue;
            }
        };
        compared += 1;
        with_i1_ops += text.contains(" : i1\n") as usize;
        i1_args += text
            .lines()
            .any(|l| l.starts_with("^b") && l.contains(": i1")) as usize;
        'runs: for (divergence, scheme) in [
            (exec_mask, "exec-mask"),
            (pipeline::Divergence::ForkJoin { depth: 6 }, "fork-join"),
        ] {
            for opt in [0u8, 2] {
                let what = format!("the simulator at -O{opt} with {scheme}");
                let m = match run::execute(&input, &request(Engine::Sim, opt, divergence)) {
                    Ok(out) if buffers(&out) == buffers(&reference) => continue,
                    Ok(out) => format!(
                        "buffers differ on {what}\n--- ref\n{}\n--- {what}\n{}",
                        buffers(&reference),
                        buffers(&out)
                    ),
                    Err(Failure::Diagnostics(d) | Failure::Usage(d)) => {
                        format!("{what} failed: {d}")
                    }
                };
                failures.push(format!(
                    "kernel {i} (seed {s:#x}), block {block}, grid {grid}, args {args}: {m}\n{text}"
                ));
                break 'runs;
            }
        }
    }
    println!(
        "cf_exec_diff: {} of {compared} compared kernels agree ({with_i1_ops} with i1 ops, \
         {i1_args} with i1 block arguments); {skipped} skipped (the reference run stopped)",
        compared - failures.len()
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
