//! parse + check + lower on a generated kernel of 100k lines (issue: front-end speed).
//!
//! The kernel mixes the statement forms a real kernel has (lets, variables, if/else, for and
//! while loops, loads/stores, a ballot), at nesting depth up to 3, repeated to 100k lines.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kc_compiler::diag::SourceFile;
use kc_compiler::{check, lower, parse};

/// A kernel of about `lines` lines.
pub fn generate(lines: usize) -> String {
    let mut s =
        String::from("kernel big(out: ptr<global, i32>, inp: ptr<global, i32>, n: i32) {\n");
    s.push_str("    let tid = workitem_id(x);\n    var acc = 0;\n");
    let mut i = 0;
    let mut count = 3;
    while count < lines {
        count += 14;
        s.push_str(&format!(
            "    let a{i} = inp[tid] * {m} + n;
    if a{i} > tid {{
        acc += a{i};
        if acc < 0 {{ acc = 0; }}
    }} else {{
        acc -= 1;
    }}
    for j{i} in 0..n {{
        out[j{i}] = acc + j{i};
        if j{i} == tid {{ break; }}
    }}
    var k{i} = 0;
    while k{i} < n {{ k{i} += 1; }}
    let b{i} = ballot(a{i} > 3);
",
            m = i % 7 + 1
        ));
        i += 1;
    }
    s.push_str("    out[tid] = acc;\n}\n");
    s
}

fn bench(c: &mut Criterion) {
    let text = generate(100_000);
    let file = SourceFile::new("big.k", text.clone());
    let mut g = c.benchmark_group("frontend");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("parse+check+lower 100k lines", |b| {
        b.iter(|| {
            let module = parse::parse(&file).expect("generated kernel parses");
            let checked = check::check(&file, &module).expect("generated kernel checks");
            lower::lower(&file, &module, &checked)
        })
    });
    // The whole -O2 pipeline to the optimized CF IR (front end, insert-tokens, lower-to-cf,
    // the convergence checks, the passes of pass_manager::pipeline(2), the verifier after
    // each pass), as `kc big.k --emit=opt`.
    let input = kc_compiler::pipeline::Input {
        name: "big.k".into(),
        text: text.clone(),
        is_ir: false,
    };
    let opts = kc_compiler::pipeline::Options::new(kc_compiler::pipeline::Stage::Opt);
    g.bench_function("-O2 pipeline to optimized CF IR, 100k lines", |b| {
        b.iter(|| kc_compiler::pipeline::run(&input, &opts).expect("generated kernel compiles"))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
