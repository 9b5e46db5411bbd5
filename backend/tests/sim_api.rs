//! The simulator through its public API, and its hand-written listings checked against the
//! real assembler: every `.s` file under `src/sim/testdata` and `benches` must assemble with
//! `llvm-mc-22 -triple=amdgcn-amd-amdhsa -mcpu=gfx942` (skipped, with a note, when llvm-mc-22
//! is not installed).

use kc_backend::sim::{parse, run, Launch, Memory, SimError, SimOptions};
use std::path::{Path, PathBuf};
use std::process::Command;

fn listings() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut v = Vec::new();
    for dir in ["src/sim/testdata", "benches"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "s") {
                v.push(p);
            }
        }
    }
    v.sort();
    assert!(v.len() >= 6, "{v:?}");
    v
}

fn llvm_mc() -> Option<PathBuf> {
    ["llvm-mc-22", "/usr/lib/llvm-22/bin/llvm-mc"]
        .iter()
        .map(PathBuf::from)
        .find(|p| Command::new(p).arg("--version").output().is_ok())
}

#[test]
fn listings_assemble_with_llvm_mc() {
    let Some(mc) = llvm_mc() else {
        eprintln!("llvm-mc-22 not installed: listings not checked against the assembler");
        return;
    };
    let out = std::env::temp_dir().join(format!("kc-sim-{}.o", std::process::id()));
    for l in listings() {
        let r = Command::new(&mc)
            .args([
                "-triple=amdgcn-amd-amdhsa",
                "-mcpu=gfx942",
                "-filetype=obj",
                "-o",
            ])
            .arg(&out)
            .arg(&l)
            .output()
            .unwrap();
        assert!(
            r.status.success(),
            "{}: {}",
            l.display(),
            String::from_utf8_lossy(&r.stderr)
        );
    }
    let _ = std::fs::remove_file(out);
}

#[test]
fn listings_parse() {
    for l in listings() {
        let text = std::fs::read_to_string(&l).unwrap();
        let p = parse(&text).unwrap_or_else(|e| panic!("{}: {e}", l.display()));
        assert_eq!(p.kernels.len(), 1, "{}", l.display());
    }
}

#[test]
fn public_api_runs_the_diamond() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src/sim/testdata/diamond.s"),
    )
    .unwrap();
    let p = parse(&text).unwrap();
    let k = p.kernel("diamond").unwrap();
    assert_eq!(k.desc.kernarg_size, 8);
    let out = 0x4000u64;
    let mut mem = Memory {
        allocs: vec![(out, vec![0; 512])],
        ..Default::default()
    };
    let launch = Launch {
        kernel: "diamond".into(),
        grid: [1, 1, 1],
        block: [16, 1, 1],
        kernarg: out.to_le_bytes().to_vec(),
    };
    let stats = run(&p, &launch, &mut mem, &SimOptions::default()).unwrap();
    let w = mem.dwords(out).unwrap();
    assert_eq!(&w[..3], &[1, 2, 2]);
    assert_eq!(w[64], 3);
    assert_eq!(mem.allocs.len(), 1, "kernarg segment removed after the run");
    assert!(stats.valu > 0 && stats.lane_instructions > 0);
    // An allocation too small for out[64 + tid]: the fault names the store.
    let mut small = Memory {
        allocs: vec![(out, vec![0; 64])],
        ..Default::default()
    };
    let e = run(&p, &launch, &mut small, &SimOptions::default()).unwrap_err();
    assert!(matches!(e, SimError::Fault { .. }), "{e}");
    assert!(e.to_string().contains("offset:256"), "{e}");
}
