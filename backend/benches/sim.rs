//! Simulator throughput on a VALU-heavy loop (`valu_loop.s`): 256 work-items (4 waves),
//! 2000 iterations of 8 VALU + 3 scalar ops. Criterion reports elements/s, where an
//! element is one lane-instruction (popcount(EXEC) summed over vector instructions).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kc_backend::sim::{parse, run, Launch, Memory, SimOptions};

const OUT: u64 = 0x1000;

fn bench_sim(c: &mut Criterion) {
    let p = parse(include_str!("valu_loop.s")).expect("valu_loop.s parses");
    let iterations = 2000u32;
    let mut kernarg = OUT.to_le_bytes().to_vec();
    kernarg.extend(iterations.to_le_bytes());
    let launch = Launch {
        kernel: "valu_loop".into(),
        grid: [1, 1, 1],
        block: [256, 1, 1],
        kernarg,
    };
    let opts = SimOptions::default();
    let mut mem = Memory {
        allocs: vec![(OUT, vec![0; 1024])],
        ..Default::default()
    };
    let stats = run(&p, &launch, &mut mem, &opts).expect("runs");
    let mut g = c.benchmark_group("sim");
    g.throughput(Throughput::Elements(stats.lane_instructions));
    g.sample_size(20);
    g.bench_function("valu_loop_lane_instructions", |b| {
        b.iter(|| run(&p, &launch, &mut mem, &opts).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench_sim);
criterion_main!(benches);
