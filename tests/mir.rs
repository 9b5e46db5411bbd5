//! The MIR text form and validator on real kernels (issue #12).
//!
//! - Every example (`examples/*.k`) at -O0 and -O2, with EXEC masking and with FORK/JOIN
//!   (every other generated kernel too), and generated kernels (`kc_tests::gen`:
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

use kc_backend::isa::Kind;
use kc_backend::mir::{parse, print, validate, MirModule, Operand, PReg, Reg};
use kc_backend::passes::{self, PASSES};
use kc_compiler::pipeline::{self, Input};
use kc_tests::gen::{cfg, large, source, Rng};
use std::path::Path;

use kc_tests::env_u64;

/// The module after isel of `text` at `-O<level>`.
fn mir_of(name: &str, text: &str, is_ir: bool, level: u8) -> MirModule {
    mir_with(name, text, is_ir, level, pipeline::Divergence::ExecMask)
}

/// The module after isel of `text` at `-O<level>`, divergent ifs for `divergence`.
fn mir_with(
    name: &str,
    text: &str,
    is_ir: bool,
    level: u8,
    divergence: pipeline::Divergence,
) -> MirModule {
    let input = Input {
        name: name.to_string(),
        text: text.to_string(),
        is_ir,
    };
    let ir = match pipeline::compile_to_cf(&input) {
        Ok(ir) => ir,
        Err(e) => panic!("{name}: {e:?}"),
    };
    match pipeline::compile_to_mir(ir, &input, level, divergence) {
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
        for (level, divergence) in [0, 2].into_iter().flat_map(|l| {
            [
                (l, pipeline::Divergence::ExecMask),
                (l, pipeline::Divergence::ForkJoin { depth: 6 }),
            ]
        }) {
            let what = format!("{name} -O{level} {divergence:?}");
            let texts = check_kernel(&what, mir_with(&name, &text, false, level, divergence));
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
    for (i, (name, text, is_ir)) in generated(count, seed).into_iter().enumerate() {
        // Every other kernel with FORK/JOIN.
        let divergence = if i % 2 == 1 {
            pipeline::Divergence::ForkJoin { depth: 6 }
        } else {
            pipeline::Divergence::ExecMask
        };
        for level in [0, 2] {
            check_kernel(
                &format!("{name} -O{level} {divergence:?} (seed {seed:#x})\n{text}"),
                mir_with(&name, &text, is_ir, level, divergence),
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

/// A deliberately broken backend pass: a real pass's job done wrong in one way.
struct BrokenPass {
    what: &'static str,
    /// The stage the bug is planted after.
    after: &'static str,
    /// Plants the bug; false when the kernel offers no place for it.
    plant: fn(&mut kc_backend::mir::Func) -> bool,
    /// Words the validator's report must contain.
    expect: &'static str,
}

/// Every register operand of `f`, mutably.
fn reg_operands(f: &mut kc_backend::mir::Func) -> impl Iterator<Item = &mut Operand> {
    f.blocks
        .values_mut()
        .flat_map(|b| b.insts.iter_mut())
        .flat_map(|i| i.ops.iter_mut())
        .filter(|o| o.reg().is_some())
}

const BROKEN: &[BrokenPass] = &[
    BrokenPass {
        // dead-defs that deletes a definition somebody reads.
        what: "a definition removed while still read",
        after: "isel",
        plant: |f| {
            let order: Vec<_> = f.layout.clone();
            for b in order {
                for i in 0..f.blocks[b].insts.len() {
                    let inst = &f.blocks[b].insts[i];
                    let defs = inst.op.desc().defs as usize;
                    let Some(Reg::Virt(v)) = inst.ops.first().and_then(|o| o.reg()) else {
                        continue;
                    };
                    if defs != 1 || inst.op.desc().reads_dst {
                        continue;
                    }
                    let written_elsewhere = f
                        .blocks
                        .values()
                        .flat_map(|b| b.insts.iter())
                        .filter(|j| {
                            j.op.desc().defs >= 1
                                && j.ops.first().and_then(|o| o.reg()) == Some(Reg::Virt(v))
                        })
                        .count()
                        > 1;
                    if written_elsewhere {
                        continue;
                    }
                    let read = f.blocks.values().flat_map(|b| b.insts.iter()).any(|j| {
                        j.ops
                            .iter()
                            .skip(j.op.desc().defs as usize)
                            .any(|o| o.reg() == Some(Reg::Virt(v)))
                    });
                    if read {
                        f.blocks[b].insts.remove(i);
                        return true;
                    }
                }
            }
            false
        },
        expect: "no write reaches",
    },
    BrokenPass {
        // regalloc that forgets gfx942's tuple alignment.
        what: "an SGPR pair at an odd register",
        after: "regalloc",
        plant: |f| {
            let mut planted = false;
            for o in reg_operands(f) {
                if let Operand::Reg {
                    reg: Reg::Phys(PReg::S(first, 2)),
                    sub: 0,
                    n: 0,
                } = o
                {
                    if *first >= 2 && *first % 2 == 0 {
                        *o = Operand::Reg {
                            reg: Reg::Phys(PReg::S(*first + 1, 2)),
                            sub: 0,
                            n: 0,
                        };
                        planted = true;
                        break;
                    }
                }
            }
            planted
        },
        expect: "align",
    },
    BrokenPass {
        // isel that lets a VALU compare write EXEC directly.
        what: "EXEC written by a vector compare",
        after: "isel",
        plant: |f| {
            for b in f.blocks.values_mut() {
                for inst in &mut b.insts {
                    if inst.op.name().starts_with("v_cmp_") && inst.op.desc().defs == 1 {
                        inst.ops[0] = kc_backend::mir::p(PReg::Exec);
                        return true;
                    }
                }
            }
            false
        },
        expect: "EXEC",
    },
    BrokenPass {
        // isel that puts a uniform value where only a VGPR is accepted.
        what: "an SGPR in a VGPR-only slot",
        after: "isel",
        plant: |f| {
            let sgpr = f.new_vreg(kc_backend::mir::Class::S32);
            for b in f.blocks.values_mut() {
                for inst in &mut b.insts {
                    let kinds = inst.op.desc().operands;
                    for (k, o) in kinds.iter().zip(inst.ops.iter_mut()) {
                        if matches!(k, Kind::VReg(1)) && o.reg().is_some() {
                            *o = kc_backend::mir::r(sgpr);
                            return true;
                        }
                    }
                }
            }
            false
        },
        expect: "VGPR",
    },
    BrokenPass {
        // branch folding that deletes the kernel's end.
        what: "the final s_endpgm removed",
        after: "branch-folding",
        plant: |f| {
            let Some(&last) = f.layout.last() else {
                return false;
            };
            let insts = &mut f.blocks[last].insts;
            if insts.last().is_some_and(|i| i.op.name() == "s_endpgm") {
                insts.pop();
                return true;
            }
            false
        },
        expect: "falls off",
    },
];

/// The validator catches each deliberately broken pass on every example it can be planted
/// in (and the unbroken pipeline validates there, so the report is the bug's).
#[test]
fn validator_catches_deliberately_broken_passes() {
    for bug in BROKEN {
        let mut planted = 0;
        for (name, text) in examples() {
            let mut m = mir_of(&name, &text, false, 2);
            for pass in PASSES {
                if m.after == bug.after {
                    break;
                }
                passes::run(&mut m, pass).unwrap();
            }
            assert_eq!(m.after, bug.after);
            assert_valid(&name, &m);
            if !(bug.plant)(&mut m.kernels[0].func) {
                continue;
            }
            planted += 1;
            let problems = validate::validate(&m);
            let report = validate::render(&m, &problems);
            assert!(
                !problems.is_empty(),
                "{name}: the validator missed {}",
                bug.what
            );
            assert!(
                problems.iter().any(|(_, p)| p.message.contains(bug.expect)),
                "{name}: {}: the report does not say `{}`:\n{report}",
                bug.what,
                bug.expect
            );
        }
        assert!(
            planted >= 5,
            "{}: planted in only {planted} examples",
            bug.what
        );
    }
}
