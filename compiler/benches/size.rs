//! Compile time against kernel size (issues #10 and #12), `-S`: the whole pipeline down to
//! the gfx942 listing, in process.
//!
//! - `size/mixed`: the mixed shape of `tests/gen/large.rs` (divergent and uniform ifs, small
//!   divergent loops, loads and stores) at 1,600, 6,400, 25,600 and 100,000 statements; linear
//!   compile time grows 4x per size (issue #12 asks for at most 4.5x). The two largest take
//!   seconds per compile, so they run criterion's minimum of 10 samples, one compile each.
//! - `size/<shape>`: every other shape at N and 2N, so the ratio of the two medians shows
//!   whether the pipeline is linear (2x) or worse (4x for quadratic).
//!
//! `cargo bench -p kc-compiler --bench size` (all, about 15 minutes on 2 cores);
//! `cargo bench -p kc-compiler --bench size -- mixed` for the mixed shape only.

use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use kc_compiler::pipeline::{self, Input, Options, Stage};
use std::time::Duration;

// The allocator of the `kc` binary (src/main.rs), so that the figures are the command's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../../tests/gen/large.rs"]
#[allow(dead_code)]
mod large;

use large::Shape;

/// The sizes of the mixed shape.
const MIXED_SIZES: [usize; 4] = [1_600, 6_400, 25_600, 100_000];

/// The base size N of each other shape (2N is measured too).
fn base(shape: Shape) -> Option<usize> {
    match shape {
        Shape::SequentialIfs | Shape::UniformChain | Shape::DivergentChain => Some(2_500),
        Shape::Stores => Some(25_000),
        Shape::Mixed => None,
    }
}

fn input(shape: Shape, size: usize) -> Input {
    Input {
        name: format!("{}.k", shape.name()),
        text: shape.kernel(size),
        is_ir: false,
    }
}

fn bench(c: &mut Criterion) {
    let opts = Options::new(Stage::Asm);
    let mut g = c.benchmark_group("size");
    g.sample_size(10);
    // One compile per sample: the large kernels take seconds each.
    g.sampling_mode(SamplingMode::Flat);
    for size in MIXED_SIZES {
        let input = input(Shape::Mixed, size);
        pipeline::run(&input, &opts).expect("the generated kernel compiles");
        g.warm_up_time(Duration::from_millis(if size > 10_000 { 1 } else { 1_000 }));
        g.measurement_time(Duration::from_secs(if size > 10_000 { 1 } else { 5 }));
        g.throughput(Throughput::Elements(size as u64));
        g.bench_with_input(BenchmarkId::new("mixed", size), &input, |b, input| {
            b.iter(|| pipeline::run(input, &opts).expect("compiles"))
        });
    }
    g.warm_up_time(Duration::from_secs(3));
    g.measurement_time(Duration::from_secs(5));
    for shape in Shape::ALL {
        let Some(n) = base(shape) else { continue };
        for size in [n, 2 * n] {
            let input = input(shape, size);
            pipeline::run(&input, &opts).expect("the generated kernel compiles");
            g.throughput(Throughput::Elements(size as u64));
            g.bench_with_input(BenchmarkId::new(shape.name(), size), &input, |b, input| {
                b.iter(|| pipeline::run(input, &opts).expect("compiles"))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
