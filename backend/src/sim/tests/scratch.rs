//! Scratch (private memory): per-lane segments, the three addressing forms, EXEC, 64-bit
//! accesses, the descriptor fields and the errors.

use super::*;

const SCRATCH: &str = include_str!("../testdata/scratch.s");

fn run_scratch(text: &str, block: u32) -> Result<Vec<u32>, SimError> {
    let p = parse(text).unwrap();
    let mut mem = Memory {
        allocs: vec![(OUT, words(&[0xdead; 256]))],
        ..Default::default()
    };
    run(
        &p,
        &launch("scratch", 2, block, &[OUT]),
        &mut mem,
        &SimOptions::default(),
    )?;
    Ok(mem.dwords(OUT).unwrap())
}

/// Every lane reads back what it stored in its own segment: the odd lanes the value they
/// overwrote under a partial EXEC, the even ones their first store; the pair and the slot
/// past 4 KiB (SGPR base, then VGPR offset) per lane.
#[test]
fn lanes_have_private_segments_and_exec_is_respected() {
    for block in [64u32, 40] {
        let out = run_scratch(SCRATCH, block).unwrap();
        for t in 0..64u32 {
            let got = [0, 1, 2, 3].map(|k| out[(k * 64 + t) as usize]);
            let want = if t < block {
                [if t % 2 == 1 { 100 } else { t }, 3 * t, 0, 7 * t]
            } else {
                [0xdead; 4]
            };
            assert_eq!(got, want, "block {block}, lane {t}");
        }
    }
}

#[test]
fn descriptor_fields_are_read() {
    let p = parse(SCRATCH).unwrap();
    let d = &p.kernel("scratch").unwrap().desc;
    assert_eq!(d.private_segment_fixed_size, 4112);
    assert!(d.enable_private_segment);
}

fn fault(text: &str) -> String {
    match run_scratch(text, 64) {
        Err(SimError::Fault { message, .. }) => message,
        Err(SimError::Launch(m)) => m,
        r => panic!("expected an error, got {r:?}"),
    }
}

/// Past the segment, misaligned, or with the segment disabled: an error naming the lane and
/// the address, never a wrong value; a size without the enable bit, or beyond what the
/// simulator gives, is refused at launch.
#[test]
fn scratch_errors() {
    let small = SCRATCH.replace("fixed_size 4112", "fixed_size 4108");
    let m = fault(&small);
    assert!(
        m.contains("lane 0, address 0x100c") && m.contains("outside"),
        "{m}"
    );
    let odd = SCRATCH.replace("v_mov_b32_e32 v6, 0x1000", "v_mov_b32_e32 v6, 0x1002");
    assert!(fault(&odd).contains("unaligned"), "{}", fault(&odd));
    let off = SCRATCH.replace("enable_private_segment 1", "enable_private_segment 0");
    assert!(fault(&off).contains("not enabled"), "{}", fault(&off));
    let none = off.replace("fixed_size 4112", "fixed_size 0");
    assert!(fault(&none).contains("does not enable the private segment"));
    let huge = SCRATCH.replace("fixed_size 4112", "fixed_size 1048576");
    assert!(fault(&huge).contains("at most"), "{}", fault(&huge));
}

#[test]
fn scratch_parse_errors() {
    for (body, want) in [
        (
            "scratch_store_dword off, v1, off offset:4096",
            "out of range",
        ),
        ("scratch_store_dword off, v1, s[0:1]", "`off` or an SGPR"),
        ("scratch_load_dword v1, s2, off", "`off` or a VGPR"),
        ("scratch_load_dwordx2 v1, off, off", "2-dword VGPR"),
    ] {
        let Err(e) = parse(&format!("k:\n\t{body}\n")) else {
            panic!("{body} parsed")
        };
        assert!(e.message.contains(want), "{body}: {}", e.message);
    }
}
