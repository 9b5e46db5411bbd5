//! Exactness of the gfx942 lowerings that take more than one instruction per operation
//! (issue #16): 64-bit division, remainder, minimum, maximum (and add, subtract, multiply),
//! f32 division and remainder,
//! and the casts between f32 and every integer type. Each kernel runs on the reference
//! interpreter and, compiled by the backend, on the wave64 simulator over thousands of
//! operands (edge values and pseudo-random ones); every output element must be identical
//! (f32 compared as printed: bit-exact except NaN payloads, which print as "nan").
//!
//! Operands come in divergent form (one per lane) and uniform form (one per workgroup, read
//! with a uniform index, so the backend keeps them in SGPRs). Division operands avoid the
//! cases the language leaves undefined (division by zero, `MIN / -1`), where the reference
//! stops with an error.

use kc_compiler::pipeline::{Failure, Input};
use kc_compiler::run::{self, Engine, Request};

/// A xorshift generator (deterministic operands).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Random bits with a random number of significant bits.
    fn wide(&mut self) -> u64 {
        let r = self.next();
        r >> (self.next() % 64)
    }
}

/// Interesting 64-bit patterns: powers of two and their neighbours, 32-bit boundaries, the
/// signed and unsigned extremes, alternating bits.
fn edges64() -> Vec<u64> {
    let mut v = vec![
        0,
        1,
        2,
        3,
        5,
        7,
        10,
        0xaaaa_aaaa_aaaa_aaaa,
        0x5555_5555_5555_5555,
    ];
    for k in 0..64 {
        let p = 1u64 << k;
        v.extend([p, p - 1, p + 1, p.wrapping_neg(), !p]);
    }
    v.extend([
        0xffff_ffff_0000_0000,
        0x0000_0001_ffff_ffff,
        0x7fff_ffff_8000_0000,
    ]);
    v.sort_unstable();
    v.dedup();
    v
}

/// f32 operands: the specials and their neighbours, integer boundaries of every cast,
/// rounding ties, denormals, then random bit patterns and random normal numbers.
fn f32_operands(rng: &mut Rng, n: usize) -> Vec<f32> {
    let mut v: Vec<f32> = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        1.5,
        2.5,
        -2.5,
        0.1,
        3.0,
        f32::MAX,
        -f32::MAX,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        1e-40,
        -1e-45,
        1.4e-45,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        1e30,
        1e-30,
    ];
    for e in [23, 24, 31, 32, 52, 53, 62, 63, 64, 65, 126, 127] {
        let p = 2f32.powi(e);
        for x in [p, -p] {
            v.extend([x, x.next_up(), x.next_down()]);
        }
    }
    for _ in 0..n {
        let r = rng.next();
        v.push(f32::from_bits(r as u32));
        // Exponents around 2^-30..2^70 (integers of every width, fractions).
        let e = (r >> 40) as u32 % 100 + 97;
        v.push(f32::from_bits((r as u32 & 0x807f_ffff) | e << 23));
    }
    v
}

fn json_f32(x: f32) -> String {
    if x.is_nan() {
        "\"nan\"".into()
    } else if x.is_infinite() {
        if x > 0.0 { "\"inf\"" } else { "\"-inf\"" }.into()
    } else {
        // The f64 of an f32 prints (shortest round trip) as a decimal that reads back exactly.
        format!("{:e}", x as f64)
    }
}

fn list<T>(v: &[T], f: impl Fn(&T) -> String) -> String {
    v.iter().map(f).collect::<Vec<_>>().join(", ")
}

fn buffer(ty: &str, data: String) -> String {
    format!("{{\"type\": \"{ty}\", \"data\": [{data}]}}")
}

fn zeros(ty: &str, n: usize) -> String {
    format!("{{\"type\": \"{ty}\", \"len\": {n}}}")
}

/// The JSON array of buffer `name` in a run's output.
fn data<'a>(out: &'a str, name: &str) -> Vec<&'a str> {
    let key = format!("\"{name}\": {{");
    let at = out.find(&key).unwrap_or_else(|| panic!("no buffer {name}"));
    let rest = &out[at..];
    let start = rest.find('[').unwrap() + 1;
    let end = rest.find(']').unwrap();
    rest[start..end].split(", ").collect()
}

/// Runs `text` on both engines (1-D launch) and compares the named output buffers element by
/// element; `describe(o, i)` names the operands of element `i` of output `o` in a failure.
fn compare(
    name: &str,
    text: &str,
    is_ir: bool,
    args: String,
    launch: (u32, u32),
    outputs: &[&str],
    describe: &dyn Fn(&str, usize) -> String,
) {
    let input = Input {
        name: format!("{name}.{}", if is_ir { "mlir" } else { "k" }),
        text: text.to_string(),
        is_ir,
    };
    let request = |engine| Request {
        kernel: None,
        grid: Some([launch.0, 1, 1]),
        block: Some([launch.1, 1, 1]),
        args: Some(("args.json".to_string(), args.clone())),
        engine,
        step_limit: 100_000_000,
        total_step_limit: kc_compiler::run::DEFAULT_MAX_TOTAL_STEPS,
        opt_level: 2,
        simt_deadlock: kc_compiler::pipeline::SimtDeadlock::Repair,
        divergence: kc_compiler::pipeline::Divergence::ExecMask,
        budget: Default::default(),
        listing: None,
        schedule: kc_compiler::run::Schedule::Lockstep,
        trace: false,
        color: false,
    };
    let run = |engine| match run::execute(&input, &request(engine)) {
        Ok(out) => out,
        Err(Failure::Diagnostics(d) | Failure::Usage(d)) => panic!("{name} ({engine:?}): {d}"),
    };
    let (reference, sim) = (run(Engine::Ref), run(Engine::Sim));
    let mut bad = Vec::new();
    let mut total = 0;
    for o in outputs {
        let (r, s) = (data(&reference, o), data(&sim, o));
        assert_eq!(r.len(), s.len(), "{name}: length of {o}");
        total += r.len();
        for (i, (a, b)) in r.iter().zip(&s).enumerate() {
            if a != b {
                bad.push(format!("{o}[{i}] ({}): ref {a}, sim {b}", describe(o, i)));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{name}: {} of {total} elements differ:\n{}",
        bad.len(),
        bad[..bad.len().min(20)].join("\n")
    );
}

/// Division operand pairs defined for both the unsigned and the signed reading of the bits.
fn div_pairs(rng: &mut Rng, n: usize) -> Vec<(u64, u64)> {
    let e = edges64();
    let mut v = Vec::new();
    for (k, &a) in e.iter().enumerate() {
        for &b in e.iter().skip(k % 7).step_by(7) {
            v.push((a, b));
        }
    }
    while v.len() < n {
        let (a, b) = match rng.next() % 4 {
            0 => (rng.next(), rng.wide()),
            1 => (rng.wide(), rng.wide()),
            2 => (rng.next(), rng.next() >> 32),
            _ => (e[rng.next() as usize % e.len()], rng.wide()),
        };
        v.push((a, b));
    }
    for p in v.iter_mut() {
        if p.1 == 0 || (p.0 == 1 << 63 && p.1 == u64::MAX) {
            p.1 = 3;
        }
    }
    v
}

/// `{IDX}`: the operand index (the lane's own element, or the workgroup's).
const DIV64: &str = "
kernel div64(q: ptr<global, u64>, r: ptr<global, u64>, sq: ptr<global, i64>,
             sr: ptr<global, i64>, mn: ptr<global, i64>, mx: ptr<global, u64>,
             ar: ptr<global, u64>, a: ptr<global, u64>, b: ptr<global, u64>) {
    let i = workgroup_id(x) * workgroup_size(x) + workitem_id(x);
    let x = a[{IDX}];
    let y = b[{IDX}];
    q[i] = x / y;
    r[i] = x % y;
    sq[i] = x as i64 / y as i64;
    sr[i] = x as i64 % y as i64;
    mn[2 * i] = min(x as i64, y as i64);
    mn[2 * i + 1] = max(x as i64, y as i64);
    mx[2 * i] = min(x, y);
    mx[2 * i + 1] = max(x, y);
    ar[3 * i] = x + y;
    ar[3 * i + 1] = x - y;
    ar[3 * i + 2] = x * y;
}";

/// Element `i` of output `o`: which operand pair it came from.
fn pair_index(o: &str, i: usize) -> usize {
    match o {
        "mn" | "mx" => i / 2,
        "ar" => i / 3,
        _ => i,
    }
}

fn div64_case(uniform: bool) {
    let mut rng = Rng(0x6b63_0016 + uniform as u64);
    let mut pairs = div_pairs(&mut rng, if uniform { 1024 } else { 16384 });
    let m = pairs.len().next_multiple_of(64);
    pairs.resize(m, (1, 1));
    // Uniform: one pair per workgroup of one lane, read at the workgroup's index (a scalar
    // load: the operands live in SGPRs).
    let idx = if uniform { "workgroup_id(x)" } else { "i" };
    let text = DIV64.replace("{IDX}", idx);
    let args = format!(
        "{{\"q\": {}, \"r\": {}, \"sq\": {}, \"sr\": {}, \"mn\": {}, \"mx\": {}, \"ar\": {}, \"a\": {}, \"b\": {}}}",
        zeros("u64", m),
        zeros("u64", m),
        zeros("i64", m),
        zeros("i64", m),
        zeros("i64", 2 * m),
        zeros("u64", 2 * m),
        zeros("u64", 3 * m),
        buffer("u64", list(&pairs, |p| p.0.to_string())),
        buffer("u64", list(&pairs, |p| p.1.to_string())),
    );
    let launch = if uniform {
        (m as u32, 1)
    } else {
        (m as u32 / 64, 64)
    };
    compare(
        if uniform { "div64_uniform" } else { "div64" },
        &text,
        false,
        args,
        launch,
        &["q", "r", "sq", "sr", "mn", "mx", "ar"],
        &|o, i| {
            let (a, b) = pairs[pair_index(o, i)];
            format!("a {a:#x}, b {b:#x}")
        },
    );
}

#[test]
fn div_rem_min_max_64_divergent() {
    div64_case(false);
}

#[test]
fn div_rem_min_max_64_uniform() {
    div64_case(true);
}

/// f32 pairs: every special operand against every other, then random pairs.
fn f32_pairs(rng: &mut Rng) -> Vec<(f32, f32)> {
    let ops = f32_operands(rng, 40);
    let mut v = Vec::new();
    for &a in &ops {
        for &b in &ops {
            v.push((a, b));
        }
    }
    for _ in 0..8192 {
        let r = rng.next();
        v.push((f32::from_bits(r as u32), f32::from_bits((r >> 32) as u32)));
    }
    v
}

/// `out[i] = a[i] OP b[i]` (divergent) and `outu[w] = a[w] OP b[w]` (uniform, one lane per
/// workgroup) for an f32 operator, as structured IR (`arith.remf` has no `.k` spelling).
fn float_binop_ir(name: &str, op: &str, uniform: bool) -> String {
    let idx = if uniform {
        "%i = kernel.workgroup_id x : i32"
    } else {
        "%0 = kernel.workgroup_id x : i32
    %1 = kernel.workgroup_size x : i32
    %2 = arith.muli %0, %1 : i32
    %3 = kernel.workitem_id x : i32
    %i = arith.addi %2, %3 : i32"
    };
    format!(
        "builtin.module {{
  kernel.func @{name} {{
  ^entry(%out: !kernel.ptr<global, f32>, %a: !kernel.ptr<global, f32>, %b: !kernel.ptr<global, f32>):
    {idx}
    %x = kernel.load %a, %i : !kernel.ptr<global, f32>, i32
    %y = kernel.load %b, %i : !kernel.ptr<global, f32>, i32
    %r = {op} %x, %y : f32
    kernel.store %r, %out, %i : !kernel.ptr<global, f32>, i32
    kernel.return
  }}
}}"
    )
}

fn float_binop_case(name: &str, op: &str, uniform: bool, seed: u64) {
    let mut rng = Rng(seed);
    let mut pairs = f32_pairs(&mut rng);
    if uniform {
        pairs.truncate(4096);
    }
    let m = pairs.len().next_multiple_of(64);
    pairs.resize(m, (1.0, 1.0));
    let args = format!(
        "{{\"out\": {}, \"a\": {}, \"b\": {}}}",
        zeros("f32", m),
        buffer("f32", list(&pairs, |p| json_f32(p.0))),
        buffer("f32", list(&pairs, |p| json_f32(p.1))),
    );
    let launch = if uniform {
        (m as u32, 1)
    } else {
        (m as u32 / 64, 64)
    };
    compare(
        name,
        &float_binop_ir(name, op, uniform),
        true,
        args,
        launch,
        &["out"],
        &|_, i| format!("{:e} {op} {:e}", pairs[i].0, pairs[i].1),
    );
}

#[test]
fn f32_division() {
    float_binop_case("fdiv", "arith.divf", false, 0xf32d);
    float_binop_case("fdiv_uniform", "arith.divf", true, 0xf32e);
}

#[test]
fn f32_remainder() {
    float_binop_case("frem", "arith.remf", false, 0xf32f);
    float_binop_case("frem_uniform", "arith.remf", true, 0xf330);
}

const TO_INT: &str = "
kernel to_int(fi: ptr<global, i64>, fu: ptr<global, u64>, wi: ptr<global, i32>,
              wu: ptr<global, u32>, src: ptr<global, f32>) {
    let i = workgroup_id(x) * workgroup_size(x) + workitem_id(x);
    let x = src[{IDX}];
    fi[i] = x as i64;
    fu[i] = x as u64;
    wi[i] = x as i32;
    wu[i] = x as u32;
}";

const TO_FLOAT: &str = "
kernel to_float(out: ptr<global, f32>, src: ptr<global, i64>) {
    let i = workgroup_id(x) * workgroup_size(x) + workitem_id(x);
    let v = src[{IDX}];
    out[4 * i] = v as f32;
    out[4 * i + 1] = v as u64 as f32;
    out[4 * i + 2] = v as i32 as f32;
    out[4 * i + 3] = v as u32 as f32;
}";

/// Integers around f32 rounding ties at every magnitude (2^k + 2^(k-24) is halfway between
/// two floats, rounding to the even one), their negations, the 64-bit edges, random widths.
fn int_operands(rng: &mut Rng) -> Vec<u64> {
    let mut v = edges64();
    for k in 24..64 {
        let (p, h) = (1u64 << k, 1u64 << (k - 24));
        for x in [
            p + h,
            p + 3 * h,
            p + h - 1,
            p + h + 1,
            p - h / 2,
            (p - 1) & !(h - 1),
        ] {
            v.extend([x, x.wrapping_neg(), x.rotate_left(32)]);
        }
    }
    for _ in 0..4096 {
        let w = rng.wide();
        v.extend([w, w.wrapping_neg()]);
    }
    v
}

fn casts_case(uniform: bool) {
    let mut rng = Rng(0xca57 + uniform as u64);
    let mut floats = f32_operands(&mut rng, 4096);
    let mut ints = int_operands(&mut rng);
    let m = floats.len().next_multiple_of(64);
    floats.resize(m, 0.0);
    let idx = if uniform { "workgroup_id(x)" } else { "i" };
    let launch = |m: usize| {
        if uniform {
            (m as u32, 1)
        } else {
            (m as u32 / 64, 64)
        }
    };
    let args = format!(
        "{{\"fi\": {}, \"fu\": {}, \"wi\": {}, \"wu\": {}, \"src\": {}}}",
        zeros("i64", m),
        zeros("u64", m),
        zeros("i32", m),
        zeros("u32", m),
        buffer("f32", list(&floats, |x| json_f32(*x))),
    );
    compare(
        "to_int",
        &TO_INT.replace("{IDX}", idx),
        false,
        args,
        launch(m),
        &["fi", "fu", "wi", "wu"],
        &|_, i| format!("{:e}", floats[i]),
    );
    let m = ints.len().next_multiple_of(64);
    ints.resize(m, 0);
    let args = format!(
        "{{\"out\": {}, \"src\": {}}}",
        zeros("f32", 4 * m),
        buffer("i64", list(&ints, |x| (*x as i64).to_string())),
    );
    compare(
        "to_float",
        &TO_FLOAT.replace("{IDX}", idx),
        false,
        args,
        launch(m),
        &["out"],
        &|_, i| format!("{:#x}", ints[i / 4]),
    );
}

#[test]
fn casts_between_f32_and_integers_divergent() {
    casts_case(false);
}

#[test]
fn casts_between_f32_and_integers_uniform() {
    casts_case(true);
}
