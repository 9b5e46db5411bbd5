//! The MIR text form and validator on real kernels (issue #12).
//!
//! - Every example (`examples/*.k`) at -O0 and -O2, and generated kernels (`kc_tests::gen`:
//!   structured `.k` and CF `.mlir` on random CFGs) and large ones (`gen::large`): after
//!   `isel` and after every later backend pass, the module validates; printing, parsing and
//!   printing again gives the same text; and compiling on from the parsed module gives the
//!   same listing, byte for byte, as compiling on in memory (so the text form holds
//!   everything the later passes and the listing depend on).
//! - Mutated MIR (lines deleted, duplicated or swapped, numbers and registers changed) never
//!   panics the parser, the validator, the passes or the printer: it is rejected with a
//!   message or compiled.
//!
//! Environment: `KC_MIR_COUNT` (generated kernels, default 150), `KC_MIR_MUTATIONS` (default
//! 600), `KC_MIR_SEED`.

use kc_backend::mir::{parse, print, validate, MirModule};
use kc_backend::passes::{self, PASSES};
use kc_compiler::pipeline::{self, Input};
use kc_tests::gen::{cfg, large, source, Rng};
use std::path::Path;

use kc_tests::env_u64;

/// The module after isel of `text` at `-O<level>`.
fn mir_of(name: &str, text: &str, is_ir: bool, level: u8) -> MirModule {
    let input = Input {
        name: name.to_string(),
        text: text.to_string(),
        is_ir,
    };
    let ir = match pipeline::compile_to_cf(&input) {
        Ok(ir) => ir,
        Err(e) => panic!("{name}: {e:?}"),
    };
    match pipeline::compile_to_mir(ir, &input, level) {
        Ok(m) => m,
        Err(e) => panic!("{name}: {e:?}"),
    }
}

/// The listing of `m` after the passes that follow its `after`.
fn finish(mut m: MirModule) -> Result<String, String> {
    for pass in passes::remaining(m.after) {
        passes::run(&mut m, pass).map_err(|e| e.message)?;
    }
    passes::listing(&m).map_err(|e| e.message)
}

fn assert_valid(what: &str, m: &MirModule) {
    let problems = validate::validate(m);
    assert!(
        problems.is_empty(),
        "{what}: invalid MIR after {}:\n{}",
        m.after,
        validate::render(m, &problems)
    );
}

/// Validation, text round trip and listing equality after isel and after every pass; returns
/// the printed module after each stage.
fn check_kernel(what: &str, mut m: MirModule) -> Vec<String> {
    let reference = finish(m.clone()).unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut texts = Vec::new();
    for stage in 0..=PASSES.len() {
        assert_valid(what, &m);
        let text = print::print(&m);
        let (parsed, _) = parse::parse(&text)
            .unwrap_or_else(|e| panic!("{what} after {}: parse error {e:?}\n{text}", m.after));
        let again = print::print(&parsed);
        assert_eq!(
            again, text,
            "{what} after {}: print(parse(print)) differs",
            m.after
        );
        assert_valid(what, &parsed);
        let listing = finish(parsed).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(
            listing == reference,
            "{what}: the listing compiled on from the MIR printed after {} differs",
            m.after
        );
        texts.push(text);
        if let Some(pass) = PASSES.get(stage) {
            passes::run(&mut m, pass).unwrap_or_else(|e| panic!("{what}: {}", e.message));
        }
    }
    texts
}

fn examples() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("examples/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "k"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("an example");
            (
                format!("examples/{}", p.file_name().unwrap().to_string_lossy()),
                text,
            )
        })
        .collect();
    out.sort();
    assert!(out.len() >= 10, "examples/ has {} kernels", out.len());
    out
}

#[test]
fn examples_round_trip_after_every_pass() {
    for (name, text) in examples() {
        for level in [0, 2] {
            let what = format!("{name} -O{level}");
            let texts = check_kernel(&what, mir_of(&name, &text, false, level));
            // Virtual registers until regalloc, none from it on (texts: isel, then PASSES).
            let ra = 1 + kc_backend::passes::PASSES
                .iter()
                .position(|p| p.name == "regalloc")
                .expect("a regalloc pass");
            assert!(texts[..ra].iter().all(|t| t.contains("%r")), "{what}");
            assert!(texts[ra..].iter().all(|t| !t.contains("%r")), "{what}");
        }
    }
}

fn generated(count: usize, seed: u64) -> Vec<(String, String, bool)> {
    (0..count)
        .map(|i| {
            let s = Rng::derive(seed, i as u64);
            let name = format!("g{i}");
            let (text, is_ir) = match i % 4 {
                0 => (source::kernel(&name, s, source::Tokens::Implicit), false),
                1 => (source::kernel(&name, s, source::Tokens::Explicit), false),
                2 => (cfg::kernel(&name, s, cfg::CfTokens::None), true),
                _ => (cfg::kernel(&name, s, cfg::CfTokens::Entry), true),
            };
            let file = format!("{name}.{}", if is_ir { "mlir" } else { "k" });
            (file, text, is_ir)
        })
        .collect()
}

#[test]
fn generated_kernels_validate_and_round_trip() {
    let count = env_u64("KC_MIR_COUNT", 150) as usize;
    let seed = env_u64("KC_MIR_SEED", 0x6b63_0012);
    for (name, text, is_ir) in generated(count, seed) {
        for level in [0, 2] {
            check_kernel(
                &format!("{name} -O{level} (seed {seed:#x})\n{text}"),
                mir_of(&name, &text, is_ir, level),
            );
        }
    }
}

#[test]
fn large_kernels_validate_and_round_trip() {
    for shape in large::Shape::ALL {
        let text = shape.kernel(300);
        check_kernel(shape.name(), mir_of("large.k", &text, false, 2));
    }
}

/// One random edit of a line-based text.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if lines.len() < 2 {
        return text.to_string();
    }
    let i = rng.below(lines.len());
    let j = rng.below(lines.len());
    match rng.below(7) {
        0 => {
            lines.remove(i);
        }
        1 => {
            let l = lines[i].clone();
            lines.insert(j, l);
        }
        2 => lines.swap(i, j),
        3 => {
            // Change a number.
            let l = &lines[i];
            let digits: Vec<usize> = l
                .char_indices()
                .filter(|(_, c)| c.is_ascii_digit())
                .map(|(k, _)| k)
                .collect();
            if let Some(&k) = digits.get(rng.below(digits.len().max(1))) {
                let new = *rng.pick(&["0", "1", "7", "99", "65535", "4000000000", "-3"]);
                lines[i] = format!("{}{}{}", &l[..k], new, &l[k + 1..]);
            }
        }
        4 => {
            // Swap register files or names.
            let (a, b) = *rng.pick(&[
                ("s", "v"),
                ("v", "s"),
                ("%r", "s"),
                ("exec", "vcc"),
                ("bb", "%r"),
            ]);
            lines[i] = lines[i].replacen(a, b, 1);
        }
        5 => {
            // Drop an operand.
            if let Some(k) = lines[i].rfind(',') {
                let end = lines[i][k..].find(" loc").map_or(lines[i].len(), |e| k + e);
                lines[i].replace_range(k..end, "");
            }
        }
        _ => {
            // Cut a line short.
            let l = &lines[i];
            let cut = rng.below(l.len().max(1));
            let cut = (0..=cut)
                .rev()
                .find(|&c| l.is_char_boundary(c))
                .unwrap_or(0);
            lines[i] = l[..cut].to_string();
        }
    }
    lines.join("\n") + "\n"
}

/// What a mutated module gives: rejected by the parser, by the validator, by a pass
/// (a diagnostic), or compiled.
#[derive(Debug, Default)]
struct Outcomes {
    parse: usize,
    invalid: usize,
    pass: usize,
    compiled: usize,
}

#[test]
fn mutated_mir_never_panics() {
    let mut rng = Rng::new(env_u64("KC_MIR_SEED", 0x6b63_0012));
    let mut outcomes = Outcomes::default();
    let mut texts = Vec::new();
    for (name, text) in examples().into_iter().take(8) {
        let m = mir_of(&name, &text, false, 2);
        let mut m2 = m.clone();
        texts.push(print::print(&m2));
        for pass in PASSES {
            passes::run(&mut m2, pass).unwrap();
            texts.push(print::print(&m2));
        }
    }
    let rounds = env_u64("KC_MIR_MUTATIONS", 600) as usize;
    for round in 0..rounds {
        let base = &texts[round % texts.len()];
        let mut text = mutate(base, &mut rng);
        if rng.chance(30) {
            text = mutate(&text, &mut rng);
        }
        let run = std::panic::catch_unwind(|| {
            let Ok((m, _)) = parse::parse(&text) else {
                return 0;
            };
            if !validate::validate(&m).is_empty() {
                return 1;
            }
            match finish(m) {
                Err(_) => 2,
                Ok(_) => 3,
            }
        });
        match run {
            Ok(0) => outcomes.parse += 1,
            Ok(1) => outcomes.invalid += 1,
            Ok(2) => outcomes.pass += 1,
            Ok(_) => outcomes.compiled += 1,
            Err(_) => panic!("panic on mutated MIR:\n{text}"),
        }
    }
    println!("mutated MIR: {outcomes:?}");
    // The mutations exercise every stage.
    assert!(
        outcomes.parse > 0 && outcomes.invalid > 0 && outcomes.compiled > 0,
        "{outcomes:?}"
    );
}
