//! The acceptance test of VGPR spilling (issue #16, item 1): kernels that need more VGPRs
//! than gfx942 has compile with `kc --target gfx942 -S`, spill to scratch (the listing has
//! scratch stores and reloads, the private segment in its descriptor and the spill count in
//! its metadata), assemble with llvm-mc-22, and run on the simulator to exactly the reference
//! engine's buffers, which are the values `kc_tests::gen::spill` computes independently:
//! - 2,000 simultaneously live values, loaded at lane-dependent addresses and combined
//!   under a divergent if (hardware budget);
//! - 100 live 64-bit values updated in a loop with a lane-dependent trip count and a
//!   divergent if inside (hardware budget, and `--max-vgprs 64` so that pairs spill too).
//!
//! Environment: `KC_BIN` (the `kc` binary; built with cargo otherwise). Assembling is
//! skipped, with a message, when llvm-mc-22 is missing (`tests/run` fails on that message).

use kc_tests::gen::spill::{live_pairs_across_loop, live_values, SpillKernel};
use kc_tests::harness::{assemble_gfx942, locate_llvm_mc, Layout};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, ExitCode};

/// Runs `kc` with `args`: its stdout, or its stderr as the error.
fn kc(kc: &Path, args: &[&str]) -> Result<String, String> {
    let o = Command::new(kc)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run kc: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "kc {} failed ({}): {}",
            args.join(" "),
            o.status,
            String::from_utf8_lossy(&o.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&o.stdout).into_owned())
}

/// The `out` buffer of a `kc run` report, as integers.
fn out_buffer(report: &str) -> Result<Vec<i64>, String> {
    let v: Value = serde_json::from_str(report).map_err(|e| format!("bad report: {e}"))?;
    v["buffers"]["out"]["data"]
        .as_array()
        .ok_or("no out buffer in the report")?
        .iter()
        .map(|x| x.as_i64().ok_or_else(|| format!("not an integer: {x}")))
        .collect()
}

/// The number after `key` in the listing (`.vgpr_spill_count: 12`).
fn field(listing: &str, key: &str) -> Option<u64> {
    let at = listing.find(key)? + key.len();
    let digits: String = listing[at..]
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// Compiles, checks and runs one kernel with extra `flags`; `Ok` with a summary line.
fn check(
    kc_bin: &Path,
    mc: Option<&Path>,
    dir: &Path,
    k: &SpillKernel,
    flags: &[&str],
) -> Result<String, String> {
    let src = dir.join(format!("{}.k", k.name));
    let args = dir.join(format!("{}.args.json", k.name));
    std::fs::write(&src, &k.source).map_err(|e| e.to_string())?;
    std::fs::write(&args, &k.args).map_err(|e| e.to_string())?;
    let (src, args) = (src.to_str().unwrap(), args.to_str().unwrap());
    let mut compile = vec![src, "--target", "gfx942", "-S"];
    compile.extend_from_slice(flags);
    let listing = kc(kc_bin, &compile)?;
    let stores = listing.matches("scratch_store_dword").count();
    let reloads = listing.matches("scratch_load_dword").count();
    let spills = field(&listing, ".vgpr_spill_count:").unwrap_or(0);
    let private = field(&listing, ".amdhsa_private_segment_fixed_size").unwrap_or(0);
    if stores == 0 || reloads == 0 || spills == 0 || private == 0 {
        return Err(format!(
            "no VGPR spill in the listing ({stores} stores, {reloads} reloads, \
             .vgpr_spill_count {spills}, private segment {private} bytes)"
        ));
    }
    if !listing.contains(".amdhsa_enable_private_segment 1")
        || field(&listing, ".private_segment_fixed_size:") != Some(private)
    {
        return Err("the descriptor and the metadata disagree on the private segment".into());
    }
    // Past 4 KiB a slot is addressed through a VGPR holding its page.
    if private > 4096 && !listing.contains("scratch_store_dword v") {
        return Err("slots past 4 KiB but no VGPR-addressed scratch store".into());
    }
    if let Some(mc) = mc {
        assemble_gfx942(mc, &listing)?;
    }
    let run = |engine: &str| {
        let mut a = vec!["run", src, "--args", args, "--engine", engine];
        a.extend_from_slice(flags);
        kc(kc_bin, &a).and_then(|r| out_buffer(&r))
    };
    let (reference, sim) = (run("ref")?, run("sim")?);
    if reference != k.expected_out {
        return Err("the reference engine disagrees with the values computed in Rust".into());
    }
    if sim != reference {
        let lane = sim.iter().zip(&reference).position(|(a, b)| a != b);
        return Err(format!(
            "the simulator's buffer differs from the reference's (first at lane {lane:?})"
        ));
    }
    Ok(format!(
        "{} stores, {} reloads, .vgpr_spill_count {spills}, private segment {private} bytes, \
         sim == ref == expected",
        stores, reloads
    ))
}

fn main() -> ExitCode {
    let layout = Layout::detect();
    let kc_bin = match layout.build_kc(false) {
        Ok(kc) => kc,
        Err(e) => {
            println!("spill: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mc = locate_llvm_mc()
        .map_err(|e| println!("spill: skipped assembling ({e})"))
        .ok();
    let dir = layout.target_dir.join("spill-test");
    if let Err(e) = std::fs::create_dir_all(&dir) {
        println!("spill: cannot create {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    let cases: Vec<(SpillKernel, &[&str])> = vec![
        (live_values(2000), &[]),
        (live_pairs_across_loop(100), &[]),
        (live_pairs_across_loop(100), &["--max-vgprs", "64"]),
    ];
    let mut failed = 0;
    for (k, flags) in &cases {
        let what = format!("{} {}", k.name, flags.join(" "));
        match check(&kc_bin, mc.as_deref(), &dir, k, flags) {
            Ok(summary) => println!("PASS: {what}: {summary}"),
            Err(e) => {
                failed += 1;
                println!("FAIL: {what}: {e}");
            }
        }
    }
    if failed > 0 {
        println!("spill: {failed} failed");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
