//! Scaling of the uniformity analysis (CFG, dominators, cycles, sync dependence and
//! propagation) on generated CF kernels of 1k, 10k and 100k blocks, in three shapes:
//! - `reducible`: a sequence of divergent and uniform diamonds and loops with divergent
//!   breaks and if/else bodies (what structured source lowers to);
//! - `irreducible`: a chain of two-entry cycles entered by divergent branches;
//! - `nested`: loop nests 50 deep, each level with a divergent break.
//!
//! The README's scaling table comes from `cargo bench -p kc-dialect --bench uniformity`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use kc_dialect::analysis::Uniformity;
use kc_dialect::text;
use std::fmt::Write;

/// Text of a kernel with about `blocks` blocks of the given shape.
pub fn kernel(shape: &str, blocks: usize) -> String {
    let mut s = String::from(
        "kernel.func @bench {\n^entry(%n: i32):\n  %tid = kernel.workitem_id x : i32\n  %one = arith.constant 1 : i32\n  cf.br ^s0(%one : i32)\n",
    );
    let mut k = 0; // segment counter
    let mut made = 1;
    while made < blocks {
        let v = format!("%v{k}");
        let next = format!("^s{}", k + 1);
        match shape {
            "reducible" => match k % 3 {
                0 => {
                    // divergent diamond with a join argument
                    let _ = write!(s, "^s{k}({v}: i32):\n  %c{k} = arith.cmpi slt, {v}, %tid : i32\n  cf.cond_br %c{k}, ^t{k}, ^e{k}\n^t{k}:\n  %a{k} = arith.addi {v}, %one : i32\n  cf.br {next}(%a{k} : i32)\n^e{k}:\n  cf.br {next}({v} : i32)\n");
                    made += 3;
                }
                1 => {
                    // uniform diamond
                    let _ = write!(s, "^s{k}({v}: i32):\n  %c{k} = arith.cmpi slt, {v}, %n : i32\n  cf.cond_br %c{k}, ^t{k}, ^e{k}\n^t{k}:\n  %a{k} = arith.muli {v}, %n : i32\n  cf.br {next}(%a{k} : i32)\n^e{k}:\n  cf.br {next}({v} : i32)\n");
                    made += 3;
                }
                _ => {
                    // loop: header, if/else body, latch, divergent break
                    let _ = write!(s, "^s{k}({v}: i32):\n  cf.br ^h{k}({v} : i32)\n^h{k}(%i{k}: i32):\n  %c{k} = arith.cmpi slt, %i{k}, %n : i32\n  cf.cond_br %c{k}, ^b{k}, {next}(%i{k} : i32)\n^b{k}:\n  %d{k} = arith.cmpi eq, %i{k}, %tid : i32\n  cf.cond_br %d{k}, ^x{k}, ^y{k}\n^x{k}:\n  cf.br {next}(%i{k} : i32)\n^y{k}:\n  %j{k} = arith.addi %i{k}, %one : i32\n  cf.br ^h{k}(%j{k} : i32)\n");
                    made += 5;
                }
            },
            "irreducible" => {
                // divergent entry into the two-entry cycle {p, q}
                let _ = write!(s, "^s{k}({v}: i32):\n  %c{k} = arith.cmpi slt, {v}, %tid : i32\n  cf.cond_br %c{k}, ^p{k}({v} : i32), ^q{k}({v} : i32)\n^p{k}(%pv{k}: i32):\n  %pa{k} = arith.addi %pv{k}, %one : i32\n  %pc{k} = arith.cmpi slt, %pa{k}, %n : i32\n  cf.cond_br %pc{k}, ^q{k}(%pa{k} : i32), {next}(%pa{k} : i32)\n^q{k}(%qv{k}: i32):\n  %qa{k} = arith.muli %qv{k}, %n : i32\n  %qc{k} = arith.cmpi sgt, %qa{k}, %n : i32\n  cf.cond_br %qc{k}, ^p{k}(%qa{k} : i32), {next}(%qa{k} : i32)\n");
                made += 3;
            }
            _ => {
                // a nest of 50 loops, each with a divergent break to the nest's exit
                let depth = 50;
                let _ = write!(s, "^s{k}({v}: i32):\n  cf.br ^n{k}_0({v} : i32)\n");
                for d in 0..depth {
                    let inner = if d + 1 < depth {
                        format!("^n{k}_{}(%w{k}_{d} : i32)", d + 1)
                    } else {
                        format!("^l{k}_{d}")
                    };
                    let _ = write!(s, "^n{k}_{d}(%w{k}_{d}: i32):\n  %c{k}_{d} = arith.cmpi eq, %w{k}_{d}, %tid : i32\n  cf.cond_br %c{k}_{d}, {next}(%w{k}_{d} : i32), {inner}\n");
                }
                for d in (0..depth).rev() {
                    let back = format!("^n{k}_{d}(%w{k}_{d} : i32)");
                    let after = if d > 0 {
                        format!("^l{k}_{}", d - 1)
                    } else {
                        format!("{next}(%w{k}_0 : i32)")
                    };
                    let _ = write!(s, "^l{k}_{d}:\n  %u{k}_{d} = arith.cmpi slt, %w{k}_{d}, %n : i32\n  cf.cond_br %u{k}_{d}, {back}, {after}\n");
                }
                made += 2 * depth + 1;
            }
        }
        k += 1;
    }
    let _ = write!(s, "^s{k}(%v{k}: i32):\n  kernel.return\n}}\n");
    s
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("uniformity");
    g.sample_size(10);
    for shape in ["reducible", "irreducible", "nested"] {
        for blocks in [1_000usize, 10_000, 100_000] {
            let src = kernel(shape, blocks);
            let ir = text::parse(&src, "bench.mlir").expect("generated IR parses");
            let func = ir.kernels()[0];
            g.throughput(Throughput::Elements(blocks as u64));
            g.bench_with_input(BenchmarkId::new(shape, blocks), &blocks, |b, _| {
                b.iter(|| Uniformity::compute(&ir, func).expect("CF form"))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
