//! Every kernel the differential generators make compiles with the gfx942 backend to a
//! listing llvm-mc-22 assembles without an error or a warning (issue #4), with EXEC masking
//! and with FORK/JOIN (`--divergence=fork-join`, issue #15), and with EXEC masking under a
//! budget of 16 SGPRs and 16 VGPRs (`--max-sgprs 16 --max-vgprs 16`: the spill code, SGPRs to
//! VGPR lanes and VGPRs to scratch, issue #16).
//!
//! Kernels: `kc_tests::gen::source` (structured `.k`, implicit and explicit tokens, and the
//! race-free variant the differential execution test runs) and `kc_tests::gen::cfg` (CF
//! `.mlir` on random, often irreducible CFGs, with and without an entry token), the
//! generators of the uniformity and execution differential tests. A kernel the
//! backend rejects with a diagnostic (an op it does not support yet) is counted and listed,
//! and fails the test: the generators only use what the backend claims to support. A panic
//! or an llvm-mc complaint fails it too.
//!
//! Environment: `KC_ASM_SEED` (decimal or 0x-hex), `KC_ASM_COUNT` (kernels, default 400),
//! `KC_ASM_VERBOSE=1` (the first line of every failure, not only of the first five).
//! Skips, with a message, when llvm-mc-22 is missing.

use kc_compiler::pipeline::{self, Failure, Input, Options, Stage};
use kc_tests::gen::{cfg, source, Rng};
use kc_tests::harness::{assemble_gfx942, locate_llvm_mc};
use std::process::ExitCode;

use kc_tests::env_u64;

fn main() -> ExitCode {
    let mc = match locate_llvm_mc() {
        Ok(mc) => mc,
        Err(e) => {
            println!("backend_assembles: skipped ({e})");
            return ExitCode::SUCCESS;
        }
    };
    let seed = env_u64("KC_ASM_SEED", 0x6b63_0004);
    let count = env_u64("KC_ASM_COUNT", 400) as usize;
    let mut failures = Vec::new();
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
            text: text.clone(),
            is_ir,
        };
        // With EXEC masking and with FORK/JOIN, then spilling.
        let hw = pipeline::Budget::default();
        let tight = pipeline::Budget {
            sgprs: 16,
            vgprs: 16,
        };
        for (divergence, budget) in [
            (pipeline::Divergence::ExecMask, hw),
            (pipeline::Divergence::ForkJoin { depth: 6 }, hw),
            (pipeline::Divergence::ExecMask, tight),
        ] {
            let mut opts = Options::new(Stage::Asm);
            opts.divergence = divergence;
            opts.budget = budget;
            let divergence = format!(
                "{divergence:?}, {} SGPRs, {} VGPRs",
                budget.sgprs, budget.vgprs
            );
            let listing = match std::panic::catch_unwind(|| pipeline::run(&input, &opts)) {
                Ok(Ok(l)) => l,
                Ok(Err(Failure::Diagnostics(d) | Failure::Usage(d))) => {
                    failures.push(format!(
                        "kernel {i} (seed {s:#x}, {divergence}): kc: {d}\n{text}"
                    ));
                    break;
                }
                Err(_) => {
                    failures.push(format!(
                        "kernel {i} (seed {s:#x}, {divergence}): kc panicked\n{text}"
                    ));
                    break;
                }
            };
            if let Err(e) = assemble_gfx942(&mc, &listing) {
                failures.push(format!(
                    "kernel {i} (seed {s:#x}, {divergence}): {e}\n{listing}"
                ));
                break;
            }
        }
    }
    println!(
        "backend_assembles: {} of {count} kernels compiled and assembled (EXEC masking, FORK/JOIN, \
         and EXEC masking with 16 SGPRs and 16 VGPRs)",
        count - failures.len()
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
    println!("{} failures", failures.len());
    ExitCode::FAILURE
}
