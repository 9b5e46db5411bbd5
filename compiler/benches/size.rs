//! Compile time against kernel size (issue #10): each shape of `tests/gen/large.rs` at N and
//! 2N, so the ratio of the two medians shows whether the pipeline is linear (2x) or worse
//! (4x for quadratic). `-S`: the whole pipeline down to the gfx942 listing.
//!
//! `cargo bench -p kc-compiler --bench size`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use kc_compiler::pipeline::{self, Input, Options, Stage};

#[path = "../../tests/gen/large.rs"]
#[allow(dead_code)]
mod large;

use large::Shape;

/// The base size N of each shape (2N is measured too), and the stage compiled to.
fn plan(shape: Shape) -> (usize, Stage) {
    match shape {
        Shape::SequentialIfs => (2_500, Stage::Asm),
        Shape::UniformChain => (2_500, Stage::Asm),
        Shape::DivergentChain => (2_500, Stage::Asm),
        Shape::Stores => (25_000, Stage::Asm),
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("size");
    g.sample_size(10);
    for shape in Shape::ALL {
        let (n, stage) = plan(shape);
        for size in [n, 2 * n] {
            let input = Input {
                name: format!("{}.k", shape.name()),
                text: shape.kernel(size),
                is_ir: false,
            };
            let opts = Options::new(stage);
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
