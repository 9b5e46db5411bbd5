//! Tests of the reference interpreter: scalar semantics, every op through a one-lane kernel,
//! active masks of divergent control flow, cross-lane ops, barriers, errors with locations,
//! the step limit, multi-wave workgroups, several workgroups and CF-form kernels. Kernels are
//! written in the textual IR and verified before they run.

use super::eval;
use super::*;
use kc_dialect::text;
use kc_dialect::verify::verify;

// ---- helpers ----

fn parse(src: &str) -> (Ir, Op) {
    let ir = text::parse(src, "t.mlir").unwrap_or_else(|e| panic!("parse: {e}\n{src}"));
    if let Err(errs) = verify(&ir) {
        panic!("verify: {errs:?}\n{src}");
    }
    let k = ir.kernels()[0];
    (ir, k)
}

fn launch(grid: u32, block: u32) -> Launch {
    Launch {
        grid: [grid, 1, 1],
        block: [block, 1, 1],
    }
}

fn buf(elem: Scalar, n: usize) -> Buffer {
    Buffer {
        elem,
        data: vec![0; n],
    }
}

fn i32s(b: &Buffer) -> Vec<i32> {
    b.data.iter().map(|&v| v as u32 as i32).collect()
}

/// Runs `src` with one buffer per entry of `bufs` (bound to the pointer parameters in order)
/// and the scalars `scalars` (bound to the other parameters in order).
fn exec(
    src: &str,
    l: Launch,
    bufs: Vec<Buffer>,
    scalars: &[u64],
) -> Result<(Memory, Counts), InterpError> {
    exec_limit(src, l, bufs, scalars, Limits::default())
}

fn exec_limit(
    src: &str,
    l: Launch,
    bufs: Vec<Buffer>,
    scalars: &[u64],
    limits: Limits,
) -> Result<(Memory, Counts), InterpError> {
    let (ir, k) = parse(src);
    let entry = ir.entry_block(ir.ops[k].regions[0]).unwrap();
    let (mut nb, mut ns) = (0, 0);
    let args: Vec<ArgValue> = ir.blocks[entry]
        .args
        .iter()
        .map(|&p| match ir.value_type(p) {
            Type::Ptr(..) => {
                nb += 1;
                ArgValue::Buffer(nb - 1)
            }
            _ => {
                ns += 1;
                ArgValue::Scalar(scalars[ns - 1])
            }
        })
        .collect();
    let mut mem = Memory { buffers: bufs };
    let counts = run(&ir, k, &l, &args, &mut mem, &limits)?;
    Ok((mem, counts))
}

/// Runs a one-lane kernel computing `%r = BODY` from parameters `%a` and `%b` of type `ty`
/// and storing `%r` (of type `rty`) to `out[0]`.
fn op1(body: &str, ty: &str, rty: &str, a: u64, b: u64) -> Result<u64, InterpError> {
    let src = format!(
        "kernel.func @k {{
        ^entry(%out: !kernel.ptr<global, {rty}>, %a: {ty}, %b: {ty}):
          %r = {body}
          %z = arith.constant 0 : i32
          kernel.store %r, %out, %z : !kernel.ptr<global, {rty}>, i32
          kernel.return
        }}"
    );
    let elem = Scalar::from_name(rty).unwrap();
    let (mem, _) = exec(&src, launch(1, 1), vec![buf(elem, 1)], &[a, b])?;
    Ok(mem.buffers[0].data[0])
}

fn int(body: &str, a: i64, b: i64) -> Result<i32, InterpError> {
    op1(body, "i32", "i32", a as u64, b as u64).map(|v| v as u32 as i32)
}

fn fl(x: f32) -> u64 {
    x.to_bits() as u64
}

fn fbin(body: &str, a: f32, b: f32) -> f32 {
    f32::from_bits(op1(body, "f32", "f32", fl(a), fl(b)).unwrap() as u32)
}

// ---- scalar semantics ----

#[test]
fn integer_ops_wrap_truncate_and_shift_modulo_width() {
    assert_eq!(
        int("arith.addi %a, %b : i32", i32::MAX as i64, 1),
        Ok(i32::MIN)
    );
    assert_eq!(
        int("arith.subi %a, %b : i32", i32::MIN as i64, 1),
        Ok(i32::MAX)
    );
    assert_eq!(int("arith.muli %a, %b : i32", 65536, 65536), Ok(0));
    assert_eq!(int("arith.divsi %a, %b : i32", -7, 2), Ok(-3));
    assert_eq!(int("arith.remsi %a, %b : i32", -7, 2), Ok(-1));
    assert_eq!(int("arith.remsi %a, %b : i32", 7, -2), Ok(1));
    assert_eq!(int("arith.divui %a, %b : i32", -2, 2), Ok(i32::MAX));
    assert_eq!(int("arith.remui %a, %b : i32", -1, 10), Ok(5)); // 4294967295 % 10
    assert_eq!(int("arith.shli %a, %b : i32", 1, 33), Ok(2));
    assert_eq!(int("arith.shrsi %a, %b : i32", -8, 1), Ok(-4));
    assert_eq!(int("arith.shrui %a, %b : i32", -8, 1), Ok(0x7FFF_FFFC));
    assert_eq!(int("arith.shrsi %a, %b : i32", -8, 32), Ok(-8));
    assert_eq!(int("arith.andi %a, %b : i32", 12, 10), Ok(8));
    assert_eq!(int("arith.ori %a, %b : i32", 12, 10), Ok(14));
    assert_eq!(int("arith.xori %a, %b : i32", 12, 10), Ok(6));
    assert_eq!(int("arith.minsi %a, %b : i32", -1, 1), Ok(-1));
    assert_eq!(int("arith.maxsi %a, %b : i32", -1, 1), Ok(1));
    assert_eq!(int("arith.minui %a, %b : i32", -1, 1), Ok(1));
    assert_eq!(int("arith.maxui %a, %b : i32", -1, 1), Ok(-1));
    // i64
    let r = op1("arith.muli %a, %b : i64", "i64", "i64", 1 << 62, 4).unwrap();
    assert_eq!(r, 0);
    let r = op1(
        "arith.shrsi %a, %b : i64",
        "i64",
        "i64",
        (-16i64) as u64,
        66,
    )
    .unwrap();
    assert_eq!(r as i64, -4);
    let r = op1("arith.divsi %a, %b : i64", "i64", "i64", (-9i64) as u64, 4).unwrap();
    assert_eq!(r as i64, -2);
}

#[test]
fn compares_and_select() {
    let c = |pred: &str, a: i64, b: i64| -> bool {
        let src = format!(
            "kernel.func @k {{
            ^entry(%out: !kernel.ptr<global, i32>, %a: i32, %b: i32):
              %c = arith.cmpi {pred}, %a, %b : i32
              %r = arith.extui %c : i1 to i32
              %z = arith.constant 0 : i32
              kernel.store %r, %out, %z : !kernel.ptr<global, i32>, i32
              kernel.return
            }}"
        );
        let (m, _) = exec(
            &src,
            launch(1, 1),
            vec![buf(Scalar::I32, 1)],
            &[a as u64, b as u64],
        )
        .unwrap();
        m.buffers[0].data[0] == 1
    };
    assert!(c("slt", -1, 0));
    assert!(!c("ult", -1, 0));
    assert!(c("uge", -1, 0));
    assert!(c("sle", 3, 3));
    assert!(c("ne", 3, 4));
    assert!(!c("eq", 3, 4));
    assert!(c("sgt", 0, i32::MIN as i64));
    let sel = "kernel.func @k {
        ^entry(%out: !kernel.ptr<global, i32>, %a: i32, %b: i32):
          %z = arith.constant 0 : i32
          %c = arith.cmpi slt, %a, %b : i32
          %r = arith.select %c, %a, %b : i32
          kernel.store %r, %out, %z : !kernel.ptr<global, i32>, i32
          kernel.return
        }";
    let (m, _) = exec(sel, launch(1, 1), vec![buf(Scalar::I32, 1)], &[5, 9]).unwrap();
    assert_eq!(m.buffers[0].data[0], 5);
    // cmpf: ordered predicates are false on NaN, unordered true.
    assert!(!eval::cmpf(4, fl(f32::NAN), fl(1.0))); // olt
    assert!(eval::cmpf(11, fl(f32::NAN), fl(1.0))); // ult
    assert!(eval::cmpf(13, fl(f32::NAN), fl(f32::NAN))); // une
    assert!(eval::cmpf(1, fl(0.0), fl(-0.0))); // oeq
    assert!(!eval::cmpf(7, fl(f32::NAN), fl(0.0))); // ord
}

#[test]
fn float_ops() {
    assert_eq!(fbin("arith.addf %a, %b : f32", 1.5, 2.25), 3.75);
    assert_eq!(fbin("arith.subf %a, %b : f32", 1.5, 2.25), -0.75);
    assert_eq!(fbin("arith.mulf %a, %b : f32", 1.5, 2.0), 3.0);
    assert_eq!(fbin("arith.divf %a, %b : f32", 1.0, 0.0), f32::INFINITY);
    assert_eq!(fbin("arith.remf %a, %b : f32", -7.5, 2.0), -1.5);
    assert!(fbin("arith.minimumf %a, %b : f32", f32::NAN, 1.0).is_nan());
    assert!(fbin("arith.maximumf %a, %b : f32", 1.0, f32::NAN).is_nan());
    assert_eq!(
        fbin("arith.minimumf %a, %b : f32", 0.0, -0.0).to_bits(),
        (-0.0f32).to_bits()
    );
    assert_eq!(fbin("arith.maximumf %a, %b : f32", -0.0, 0.0).to_bits(), 0);
    assert_eq!(fbin("arith.minimumf %a, %b : f32", 2.0, -3.0), -3.0);
    assert_eq!(fbin("arith.negf %a : f32", 2.0, 0.0), -2.0);
    // Rounding: 0.1 + 0.2 in f32.
    assert_eq!(fbin("arith.addf %a, %b : f32", 0.1, 0.2), 0.1f32 + 0.2f32);
}

#[test]
fn casts_round_toward_zero_saturate_and_extend() {
    let cast = |body: &str, ty: &str, rty: &str, a: u64| op1(body, ty, rty, a, 0).unwrap();
    let fp = |x: f32| fl(x);
    assert_eq!(
        cast("arith.fptosi %a : f32 to i32", "f32", "i32", fp(-2.9)) as u32 as i32,
        -2
    );
    assert_eq!(
        cast("arith.fptosi %a : f32 to i32", "f32", "i32", fp(3e9)) as u32 as i32,
        i32::MAX
    );
    assert_eq!(
        cast("arith.fptosi %a : f32 to i32", "f32", "i32", fp(-3e9)) as u32 as i32,
        i32::MIN
    );
    assert_eq!(
        cast("arith.fptosi %a : f32 to i32", "f32", "i32", fp(f32::NAN)),
        0
    );
    assert_eq!(
        cast("arith.fptoui %a : f32 to i32", "f32", "i32", fp(-5.0)),
        0
    );
    assert_eq!(
        cast("arith.fptoui %a : f32 to i32", "f32", "i32", fp(5e9)),
        u32::MAX as u64
    );
    assert_eq!(
        cast("arith.fptoui %a : f32 to i64", "f32", "i64", fp(1e30)),
        u64::MAX
    );
    assert_eq!(
        cast("arith.fptosi %a : f32 to i64", "f32", "i64", fp(-1e30)),
        i64::MIN as u64
    );
    assert_eq!(
        cast(
            "arith.fptosi %a : f32 to i64",
            "f32",
            "i64",
            fp(f32::INFINITY)
        ),
        i64::MAX as u64
    );
    let f = |v: u64| f32::from_bits(v as u32);
    assert_eq!(
        f(cast(
            "arith.sitofp %a : i32 to f32",
            "i32",
            "f32",
            (-3i32) as u32 as u64
        )),
        -3.0
    );
    assert_eq!(
        f(cast(
            "arith.uitofp %a : i32 to f32",
            "i32",
            "f32",
            u32::MAX as u64
        )),
        4294967296.0
    );
    // 16777217 is not an f32: round to nearest even.
    assert_eq!(
        f(cast(
            "arith.sitofp %a : i32 to f32",
            "i32",
            "f32",
            16_777_217
        )),
        16_777_216.0
    );
    assert_eq!(
        cast("arith.extsi %a : i32 to i64", "i32", "i64", 0xFFFF_FFFF),
        u64::MAX
    );
    assert_eq!(
        cast("arith.extui %a : i32 to i64", "i32", "i64", 0xFFFF_FFFF),
        0xFFFF_FFFF
    );
    assert_eq!(
        cast("arith.trunci %a : i64 to i32", "i64", "i32", 0x1_2345_6789),
        0x2345_6789
    );
    assert_eq!(
        cast("arith.bitcast %a : i32 to f32", "i32", "f32", 0x3F80_0000),
        fp(1.0)
    );
}

#[test]
fn division_errors_are_located() {
    let src = "kernel.func @k {
        ^entry(%out: !kernel.ptr<global, i32>, %a: i32, %b: i32):
          %r = arith.divsi %a, %b : i32 loc(\"t.k\":7:13)
          %z = arith.constant 0 : i32
          kernel.store %r, %out, %z : !kernel.ptr<global, i32>, i32
          kernel.return
        }";
    let e = exec(src, launch(1, 1), vec![buf(Scalar::I32, 1)], &[1, 0]).unwrap_err();
    assert_eq!(e.message, "integer division by zero");
    assert_eq!((e.loc.line, e.loc.col), (7, 13));
    assert_eq!(
        e.work_item,
        Some(WorkItem {
            workgroup: [0; 3],
            local: [0; 3]
        })
    );
    let e = exec(
        src,
        launch(1, 1),
        vec![buf(Scalar::I32, 1)],
        &[i32::MIN as u32 as u64, u32::MAX as u64],
    )
    .unwrap_err();
    assert_eq!(e.message, "signed division overflow: -2147483648 / -1");
    assert_eq!(
        int("arith.remui %a, %b : i32", 3, 0).unwrap_err().message,
        "integer remainder by zero"
    );
    assert_eq!(
        int("arith.remsi %a, %b : i32", i32::MIN as i64, -1)
            .unwrap_err()
            .message,
        "signed remainder overflow: -2147483648 % -1"
    );
}

// ---- geometry and memory ----

#[test]
fn geometry_of_a_3d_launch() {
    // out[gid * 8 + k] for k in: workitem_id x y z, workgroup_id x, workgroup_size y,
    // num_workgroups x, lane_id, wave_size.
    let src = "kernel.func @k {
        ^entry(%out: !kernel.ptr<global, i32>):
          %x = kernel.workitem_id x : i32
          %y = kernel.workitem_id y : i32
          %zz = kernel.workitem_id z : i32
          %g = kernel.workgroup_id x : i32
          %sy = kernel.workgroup_size y : i32
          %n = kernel.num_workgroups x : i32
          %lane = kernel.lane_id : i32
          %ws = kernel.wave_size : i32
          %bx = kernel.workgroup_size x : i32
          %bz = kernel.workgroup_size z : i32
          %t0 = arith.muli %y, %bx : i32
          %t1 = arith.muli %zz, %bx : i32
          %t2 = arith.muli %t1, %sy : i32
          %t3 = arith.addi %x, %t0 : i32
          %lin = arith.addi %t3, %t2 : i32
          %t4 = arith.muli %bx, %sy : i32
          %size = arith.muli %t4, %bz : i32
          %t5 = arith.muli %g, %size : i32
          %gid = arith.addi %t5, %lin : i32
          %eight = arith.constant 8 : i32
          %base = arith.muli %gid, %eight : i32
          %c1 = arith.constant 1 : i32
          %i1 = arith.addi %base, %c1 : i32
          %i2 = arith.addi %i1, %c1 : i32
          %i3 = arith.addi %i2, %c1 : i32
          %i4 = arith.addi %i3, %c1 : i32
          %i5 = arith.addi %i4, %c1 : i32
          %i6 = arith.addi %i5, %c1 : i32
          %i7 = arith.addi %i6, %c1 : i32
          kernel.store %x, %out, %base : !kernel.ptr<global, i32>, i32
          kernel.store %y, %out, %i1 : !kernel.ptr<global, i32>, i32
          kernel.store %zz, %out, %i2 : !kernel.ptr<global, i32>, i32
          kernel.store %g, %out, %i3 : !kernel.ptr<global, i32>, i32
          kernel.store %sy, %out, %i4 : !kernel.ptr<global, i32>, i32
          kernel.store %n, %out, %i5 : !kernel.ptr<global, i32>, i32
          kernel.store %lane, %out, %i6 : !kernel.ptr<global, i32>, i32
          kernel.store %ws, %out, %i7 : !kernel.ptr<global, i32>, i32
          kernel.return
        }";
    let l = Launch {
        grid: [2, 1, 1],
        block: [5, 4, 4],
    };
    let (m, _) = exec(src, l, vec![buf(Scalar::I32, 2 * 80 * 8)], &[]).unwrap();
    let out = i32s(&m.buffers[0]);
    for g in 0..2 {
        for lin in 0..80 {
            let at = ((g * 80 + lin) * 8) as usize;
            let (x, y, z) = (lin % 5, (lin / 5) % 4, lin / 20);
            assert_eq!(
                &out[at..at + 8],
                &[x, y, z, g, 4, 2, lin % 64, 64],
                "g {g} lin {lin}"
            );
        }
    }
}

#[test]
fn loads_stores_offsets_and_oob_location() {
    let src = "kernel.func @k {
        ^entry(%out: !kernel.ptr<global, i32>, %in: !kernel.ptr<global, i64>):
          %tid = kernel.workitem_id x : i32
          %v = kernel.load %in, %tid : !kernel.ptr<global, i64>, i32
          %t = arith.trunci %v : i64 to i32
          %one = arith.constant 1 : i32
          %p = kernel.ptr_offset %out, %one : !kernel.ptr<global, i32>, i32
          kernel.store %t, %p, %tid : !kernel.ptr<global, i32>, i32 loc(\"t.k\":4:9)
          kernel.return
        }";
    let mut input = buf(Scalar::I64, 4);
    input.data = vec![10, 20, 30, 40];
    let (m, _) = exec(
        src,
        launch(1, 4),
        vec![buf(Scalar::I32, 5), input.clone()],
        &[],
    )
    .unwrap();
    assert_eq!(i32s(&m.buffers[0]), vec![0, 10, 20, 30, 40]);
    // out has 4 elements: lane 3 stores to index 1 + 3 = 4.
    let e = exec(src, launch(1, 4), vec![buf(Scalar::I32, 4), input], &[]).unwrap_err();
    assert_eq!(
        e.message,
        "index 4 out of bounds for buffer `out` of 4 elements"
    );
    assert_eq!((e.loc.line, e.loc.col), (4, 9));
    assert_eq!(e.work_item.unwrap().local, [3, 0, 0]);
    // A negative index is out of bounds too (i32 indices are signed).
    let neg = "kernel.func @k {
        ^entry(%out: !kernel.ptr<global, i32>):
          %m = arith.constant -1 : i32
          %v = kernel.load %out, %m : !kernel.ptr<global, i32>, i32
          kernel.return
        }";
    let e = exec(neg, launch(1, 1), vec![buf(Scalar::I32, 4)], &[]).unwrap_err();
    assert_eq!(
        e.message,
        "index -1 out of bounds for buffer `out` of 4 elements"
    );
}

#[test]
fn atomics_return_old_values_in_lane_order() {
    let src = "kernel.func @k {
        ^entry(%out: !kernel.ptr<global, i32>, %cnt: !kernel.ptr<global, i32>, %f: !kernel.ptr<global, f32>):
          %tid = kernel.workitem_id x : i32
          %z = arith.constant 0 : i32
          %one = arith.constant 1 : i32
          %c0 = kernel.ptr_offset %cnt, %z : !kernel.ptr<global, i32>, i32
          %old = kernel.atomic add, %c0, %tid {ordering = \"seq_cst\", scope = \"agent\"} : !kernel.ptr<global, i32>
          kernel.store %old, %out, %tid : !kernel.ptr<global, i32>, i32
          %c1 = kernel.ptr_offset %cnt, %one : !kernel.ptr<global, i32>, i32
          %m = arith.constant 5 : i32
          %neg = arith.subi %m, %tid : i32
          %o2 = kernel.atomic min, %c1, %neg {ordering = \"seq_cst\", scope = \"agent\"} : !kernel.ptr<global, i32>
          %two = arith.constant 2 : i32
          %c2 = kernel.ptr_offset %cnt, %two : !kernel.ptr<global, i32>, i32
          %o3 = kernel.atomic umax, %c2, %neg {ordering = \"seq_cst\", scope = \"agent\"} : !kernel.ptr<global, i32>
          %three = arith.constant 3 : i32
          %c3 = kernel.ptr_offset %cnt, %three : !kernel.ptr<global, i32>, i32
          %o4 = kernel.atomic_cmpxchg %c3, %z, %tid {ordering = \"seq_cst\", scope = \"agent\"} : !kernel.ptr<global, i32>
          %four = arith.constant 4 : i32
          %c4 = kernel.ptr_offset %cnt, %four : !kernel.ptr<global, i32>, i32
          %o5 = kernel.atomic xchg, %c4, %tid {ordering = \"seq_cst\", scope = \"agent\"} : !kernel.ptr<global, i32>
          %half = arith.constant 5.000000e-01 : f32
          %f0 = kernel.ptr_offset %f, %z : !kernel.ptr<global, f32>, i32
          %o6 = kernel.atomic fadd, %f0, %half {ordering = \"seq_cst\", scope = \"agent\"} : !kernel.ptr<global, f32>
          kernel.return
        }";
    let (m, _) = exec(
        src,
        launch(1, 8),
        vec![
            buf(Scalar::I32, 8),
            buf(Scalar::I32, 5),
            buf(Scalar::F32, 1),
        ],
        &[],
    )
    .unwrap();
    // Lane l sees the sum of the lanes before it.
    assert_eq!(i32s(&m.buffers[0]), vec![0, 0, 1, 3, 6, 10, 15, 21]);
    let cnt = i32s(&m.buffers[1]);
    assert_eq!(cnt[0], 28);
    assert_eq!(cnt[1], -2); // min(0, 5, 4, ..., -2)
    assert_eq!(cnt[2], -1); // umax of 5..-2 as unsigned: -1 = 0xFFFFFFFF
    assert_eq!(cnt[3], 1); // lane 0 swaps 0 for 0, lane 1 then 0 for 1, later lanes fail
    assert_eq!(cnt[4], 7);
    assert_eq!(f32::from_bits(m.buffers[2].data[0] as u32), 4.0);
}

#[test]
fn shared_memory_is_per_workgroup_and_zeroed() {
    // Each workgroup adds its lanes' ids into tile[0] and writes the tile's old value first.
    let src = "kernel.func @k {
        ^entry(%out: !kernel.ptr<global, i32>):
          %tile = kernel.shared_alloc 4 : !kernel.ptr<shared, i32>
          %tid = kernel.workitem_id x : i32
          %g = kernel.workgroup_id x : i32
          %z = arith.constant 0 : i32
          %t0 = kernel.ptr_offset %tile, %z : !kernel.ptr<shared, i32>, i32
          %old = kernel.atomic add, %t0, %tid {ordering = \"seq_cst\", scope = \"agent\"} : !kernel.ptr<shared, i32>
          kernel.barrier
          %sum = kernel.load %tile, %z : !kernel.ptr<shared, i32>, i32
          %c = arith.cmpi eq, %tid, %z : i32
          kernel.if %c {
            kernel.store %sum, %out, %g : !kernel.ptr<global, i32>, i32
            kernel.yield
          } else {
            kernel.yield
          }
          %big = arith.constant 4 : i32
          %bad = kernel.load %tile, %big : !kernel.ptr<shared, i32>, i32 loc(\"t.k\":9:3)
          kernel.return
        }";
    let e = exec(src, launch(2, 10), vec![buf(Scalar::I32, 2)], &[]).unwrap_err();
    assert_eq!(
        e.message,
        "index 4 out of bounds for shared array `tile` of 4 elements"
    );
    let ok = src.replace("%big = arith.constant 4", "%big = arith.constant 3");
    let (m, _) = exec(&ok, launch(2, 10), vec![buf(Scalar::I32, 2)], &[]).unwrap();
    assert_eq!(i32s(&m.buffers[0]), vec![45, 45]);
}

// ---- divergent control flow ----

/// `if tid == 0 { out[0] = 1 } else { out[1] = 2 }; out[2] = 3` plus a counter of lanes that
/// reach the end.
const DIAMOND: &str = "kernel.func @diamond {
    ^entry(%out: !kernel.ptr<global, i32>):
      %tid = kernel.workitem_id x : i32
      %z = arith.constant 0 : i32
      %c = arith.cmpi eq, %tid, %z : i32
      kernel.if %c {
        %one = arith.constant 1 : i32
        kernel.store %one, %out, %z : !kernel.ptr<global, i32>, i32
        kernel.yield
      } else {
        %i1 = arith.constant 1 : i32
        %two = arith.constant 2 : i32
        %old = kernel.atomic add, %out, %two {ordering = \"seq_cst\", scope = \"agent\"} : !kernel.ptr<global, i32>
        kernel.store %two, %out, %i1 : !kernel.ptr<global, i32>, i32
        kernel.yield
      }
      %i2 = arith.constant 2 : i32
      %three = arith.constant 3 : i32
      %p = kernel.ptr_offset %out, %i2 : !kernel.ptr<global, i32>, i32
      %o = kernel.atomic add, %p, %three {ordering = \"seq_cst\", scope = \"agent\"} : !kernel.ptr<global, i32>
      kernel.return
    }";

#[test]
fn diamond_runs_both_sides_and_reconverges() {
    let (m, counts) = exec(DIAMOND, launch(1, 64), vec![buf(Scalar::I32, 3)], &[]).unwrap();
    // out[0] = 1 by lane 0 then +2 by the 63 other lanes (the else side runs after).
    assert_eq!(i32s(&m.buffers[0]), vec![1 + 63 * 2, 2, 64 * 3]);
    // One wave: every op executed once, the two regions' ops with disjoint masks:
    // 3 + if + then (3) + else (5) + 5 after = 17 wave-ops.
    assert_eq!(counts.ops, 17);
    assert_eq!(counts.lane_ops, 3 * 64 + 64 + 3 + 5 * 63 + 5 * 64);
}

#[test]
fn multi_wave_workgroup_of_65_lanes() {
    // Wave 1 has one lane (linear id 64, lane_id 0): ballot and readfirstlane see only it.
    let src = "kernel.func @k {
        ^entry(%out: !kernel.ptr<global, i64>):
          %tid = kernel.workitem_id x : i32
          %t = arith.constant 1 : i1
          %b = kernel.ballot %t : i64
          kernel.store %b, %out, %tid : !kernel.ptr<global, i64>, i32
          %first = kernel.readfirstlane %tid : i32
          %lane = kernel.lane_id : i32
          %f64 = arith.extsi %first : i32 to i64
          %l64 = arith.extsi %lane : i32 to i64
          %big = arith.constant 100 : i64
          %s = arith.muli %f64, %big : i64
          %v = arith.addi %s, %l64 : i64
          %off = arith.constant 65 : i32
          %i = arith.addi %tid, %off : i32
          kernel.store %v, %out, %i : !kernel.ptr<global, i64>, i32
          kernel.return
        }";
    let (m, counts) = exec(src, launch(1, 65), vec![buf(Scalar::I64, 130)], &[]).unwrap();
    let out = &m.buffers[0].data;
    assert!(out[..64].iter().all(|&b| b == u64::MAX));
    assert_eq!(out[64], 1);
    assert_eq!(out[65 + 5], 5); // first lane 0, lane 5
    assert_eq!(out[65 + 64], 64 * 100); // first lane of wave 1 is tid 64, its lane_id is 0
                                        // Every op runs once per wave.
    assert_eq!(counts.ops, 2 * 15);
    assert_eq!(counts.lane_ops, 65 * 15);
}

#[test]
fn two_workgroups_run_in_order() {
    let src = "kernel.func @k {
        ^entry(%out: !kernel.ptr<global, i32>):
          %g = kernel.workgroup_id x : i32
          %z = arith.constant 0 : i32
          %p = kernel.ptr_offset %out, %z : !kernel.ptr<global, i32>, i32
          %old = kernel.atomic xchg, %p, %g {ordering = \"seq_cst\", scope = \"agent\"} : !kernel.ptr<global, i32>
          %tid = kernel.workitem_id x : i32
          %n = kernel.workgroup_size x : i32
          %a = arith.muli %g, %n : i32
          %gid = arith.addi %a, %tid : i32
          %one = arith.constant 1 : i32
          %i = arith.addi %gid, %one : i32
          kernel.store %old, %out, %i : !kernel.ptr<global, i32>, i32
          kernel.return
        }";
    let (m, _) = exec(src, launch(2, 3), vec![buf(Scalar::I32, 7)], &[]).unwrap();
    // Workgroup 1 runs after workgroup 0 and sees its last exchange.
    assert_eq!(i32s(&m.buffers[0]), vec![1, 0, 0, 0, 0, 1, 1]);
}

/// `var i = 0; var sum = 0; loop { if i >= tid { break } sum += i; i += 1 } out[tid] = sum`,
/// plus a count of loop iterations of the whole wave in `out[64]`.
const DIVERGENT_BREAK: &str = "kernel.func @k {
    ^entry(%out: !kernel.ptr<global, i32>):
      %tid = kernel.workitem_id x : i32
      %z = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %i = kernel.var %z : !kernel.var<i32>
      %sum = kernel.var %z : !kernel.var<i32>
      kernel.loop {
        %iv = kernel.get %i : i32
        %c = arith.cmpi sge, %iv, %tid : i32
        kernel.if %c {
          kernel.break
        } else {
          kernel.yield
        }
        %s = kernel.get %sum : i32
        %s2 = arith.addi %s, %iv : i32
        kernel.set %sum, %s2 : i32
        %i2 = arith.addi %iv, %one : i32
        kernel.set %i, %i2 : i32
        kernel.yield
      } latch {
        %n = arith.constant 64 : i32
        %rf = kernel.readfirstlane %tid : i32
        %c0 = arith.cmpi eq, %tid, %rf : i32
        kernel.if %c0 {
          %p = kernel.ptr_offset %out, %n : !kernel.ptr<global, i32>, i32
          %old = kernel.atomic add, %p, %one {ordering = \"seq_cst\", scope = \"agent\"} : !kernel.ptr<global, i32>
          kernel.yield
        } else {
          kernel.yield
        }
        kernel.yield
      }
      %r = kernel.get %sum : i32
      kernel.store %r, %out, %tid : !kernel.ptr<global, i32>, i32
      kernel.return
    }";

#[test]
fn divergent_break_keeps_lanes_until_the_last_exits() {
    let (m, _) = exec(
        DIVERGENT_BREAK,
        launch(1, 64),
        vec![buf(Scalar::I32, 65)],
        &[],
    )
    .unwrap();
    let out = i32s(&m.buffers[0]);
    for t in 0..64 {
        assert_eq!(out[t as usize], t * (t - 1) / 2, "lane {t}");
    }
    // The latch runs 63 times (lane 63 iterates 63 times); one lane counts each.
    assert_eq!(out[64], 63);
}

#[test]
fn continue_goes_to_the_latch_and_return_leaves_for_good() {
    // for i in 0..8 { if (i + tid) % 2 == 1 { continue } if i == 5 && tid == 2 { return }
    //   sum += i }; out[tid] = sum  (the latch increments i)
    let src = "kernel.func @k {
        ^entry(%out: !kernel.ptr<global, i32>):
          %tid = kernel.workitem_id x : i32
          %z = arith.constant 0 : i32
          %one = arith.constant 1 : i32
          %two = arith.constant 2 : i32
          %five = arith.constant 5 : i32
          %eight = arith.constant 8 : i32
          %m1 = arith.constant -1 : i32
          kernel.store %m1, %out, %tid : !kernel.ptr<global, i32>, i32
          %i = kernel.var %z : !kernel.var<i32>
          %sum = kernel.var %z : !kernel.var<i32>
          kernel.loop {
            %iv = kernel.get %i : i32
            %lt = arith.cmpi slt, %iv, %eight : i32
            kernel.if %lt {
              kernel.yield
            } else {
              kernel.break
            }
            %a = arith.addi %iv, %tid : i32
            %r = arith.remsi %a, %two : i32
            %odd = arith.cmpi eq, %r, %one : i32
            kernel.if %odd {
              kernel.continue
            } else {
              kernel.yield
            }
            %is5 = arith.cmpi eq, %iv, %five : i32
            %is2 = arith.cmpi eq, %tid, %two : i32
            %both = arith.andi %is5, %is2 : i1
            kernel.if %both {
              kernel.return
            } else {
              kernel.yield
            }
            %s = kernel.get %sum : i32
            %s2 = arith.addi %s, %iv : i32
            kernel.set %sum, %s2 : i32
            kernel.yield
          } latch {
            %iv2 = kernel.get %i : i32
            %n = arith.addi %iv2, %one : i32
            kernel.set %i, %n : i32
            kernel.yield
          }
          %res = kernel.get %sum : i32
          kernel.store %res, %out, %tid : !kernel.ptr<global, i32>, i32
          kernel.return
        }";
    let (m, _) = exec(src, launch(1, 4), vec![buf(Scalar::I32, 4)], &[]).unwrap();
    // Even tid: even i (0+2+4+6 = 12); odd tid: odd i (1+3+5+7 = 16); tid 2 returns at i = 5
    // (odd + even = odd: continue first, so never at i = 5 for tid 2: it sums 12). tid 3 at
    // i = 5 sums; tid 2 returning needs (5 + 2) even: it is odd, so tid 2 does not return.
    assert_eq!(i32s(&m.buffers[0]), vec![12, 16, 12, 16]);
    let ret = src.replace("%two = arith.constant 2 : i32\n          %five", "%two = arith.constant 2 : i32\n          %three = arith.constant 3 : i32\n          %five").replace("%is2 = arith.cmpi eq, %tid, %two", "%is2 = arith.cmpi eq, %tid, %three");
    let (m, _) = exec(&ret, launch(1, 4), vec![buf(Scalar::I32, 4)], &[]).unwrap();
    // tid 3 returns at i = 5 before adding it, and never stores: out[3] keeps -1.
    assert_eq!(i32s(&m.buffers[0]), vec![12, 16, 12, -1]);
}

#[test]
fn nested_loops_break_only_the_inner_one() {
    // for a in 0..3 { for b in 0..10 { if b >= tid { break } n += 1 } }; out[tid] = n
    let src = "kernel.func @k {
        ^entry(%out: !kernel.ptr<global, i32>):
          %tid = kernel.workitem_id x : i32
          %z = arith.constant 0 : i32
          %one = arith.constant 1 : i32
          %three = arith.constant 3 : i32
          %ten = arith.constant 10 : i32
          %n = kernel.var %z : !kernel.var<i32>
          %a = kernel.var %z : !kernel.var<i32>
          kernel.loop {
            %av = kernel.get %a : i32
            %ca = arith.cmpi slt, %av, %three : i32
            kernel.if %ca {
              kernel.yield
            } else {
              kernel.break
            }
            %b = kernel.var %z : !kernel.var<i32>
            kernel.loop {
              %bv = kernel.get %b : i32
              %cb = arith.cmpi slt, %bv, %ten : i32
              kernel.if %cb {
                kernel.yield
              } else {
                kernel.break
              }
              %stop = arith.cmpi sge, %bv, %tid : i32
              kernel.if %stop {
                kernel.break
              } else {
                kernel.yield
              }
              %nv = kernel.get %n : i32
              %n2 = arith.addi %nv, %one : i32
              kernel.set %n, %n2 : i32
              kernel.yield
            } latch {
              %bv2 = kernel.get %b : i32
              %b2 = arith.addi %bv2, %one : i32
              kernel.set %b, %b2 : i32
              kernel.yield
            }
            kernel.yield
          } latch {
            %av2 = kernel.get %a : i32
            %a2 = arith.addi %av2, %one : i32
            kernel.set %a, %a2 : i32
            kernel.yield
          }
          %r = kernel.get %n : i32
          kernel.store %r, %out, %tid : !kernel.ptr<global, i32>, i32
          kernel.return
        }";
    let (m, _) = exec(src, launch(1, 12), vec![buf(Scalar::I32, 12)], &[]).unwrap();
    let want: Vec<i32> = (0..12).map(|t: i32| 3 * t.min(10)).collect();
    assert_eq!(i32s(&m.buffers[0]), want);
}

// ---- cross-lane ops ----

#[test]
fn ballot_in_a_branch_sees_only_the_active_lanes() {
    // if tid < 32 { out[tid] = ballot(tid % 2 == 0) }
    let src = "kernel.func @k {
        ^entry(%out: !kernel.ptr<global, i64>):
          %tid = kernel.workitem_id x : i32
          %n = arith.constant 32 : i32
          %c = arith.cmpi slt, %tid, %n : i32
          kernel.if %c {
            %two = arith.constant 2 : i32
            %r = arith.remsi %tid, %two : i32
            %z = arith.constant 0 : i32
            %even = arith.cmpi eq, %r, %z : i32
            %b = kernel.ballot %even : i64
            kernel.store %b, %out, %tid : !kernel.ptr<global, i64>, i32
            kernel.yield
          } else {
            kernel.yield
          }
          kernel.return
        }";
    let (m, _) = exec(src, launch(1, 64), vec![buf(Scalar::I64, 64)], &[]).unwrap();
    let out = &m.buffers[0].data;
    assert!(out[..32].iter().all(|&b| b == 0x5555_5555));
    assert!(out[32..].iter().all(|&b| b == 0));
}

#[test]
fn readfirstlane_in_a_branch_reads_the_first_active_lane() {
    let src = "kernel.func @k {
        ^entry(%out: !kernel.ptr<global, i32>, %data: !kernel.ptr<global, i32>):
          %tid = kernel.workitem_id x : i32
          %v = kernel.load %data, %tid : !kernel.ptr<global, i32>, i32
          %first = kernel.readfirstlane %v : i32
          %eight = arith.constant 8 : i32
          %c = arith.cmpi sge, %tid, %eight : i32
          kernel.if %c {
            %inner = kernel.readfirstlane %v : i32
            %s = arith.addi %inner, %first : i32
            kernel.store %s, %out, %tid : !kernel.ptr<global, i32>, i32
            kernel.yield
          } else {
            kernel.yield
          }
          kernel.return
        }";
    let mut data = buf(Scalar::I32, 16);
    data.data = (0..16).map(|i| 100 + i).collect();
    let (m, _) = exec(src, launch(1, 16), vec![buf(Scalar::I32, 16), data], &[]).unwrap();
    let out = i32s(&m.buffers[0]);
    assert_eq!(&out[..8], &[0; 8]);
    assert!(out[8..].iter().all(|&v| v == 108 + 100));
}

const SHUFFLE: &str = "kernel.func @k {
    ^entry(%out: !kernel.ptr<global, i32>, %k: i32):
      %tid = kernel.workitem_id x : i32
      %lane = kernel.lane_id : i32
      %ten = arith.constant 10 : i32
      %v = arith.muli %tid, %ten : i32
      %src = arith.xori %lane, %k : i32
      %s = kernel.shuffle %v, %src : i32 loc(\"t.k\":3:14)
      kernel.store %s, %out, %tid : !kernel.ptr<global, i32>, i32
      %r = kernel.readlane %v, %k : i32
      %big = arith.constant 128 : i32
      %i = arith.addi %tid, %big : i32
      kernel.store %r, %out, %i : !kernel.ptr<global, i32>, i32
      kernel.return
    }";

#[test]
fn shuffle_and_readlane() {
    let (m, _) = exec(SHUFFLE, launch(1, 64), vec![buf(Scalar::I32, 192)], &[1]).unwrap();
    let out = i32s(&m.buffers[0]);
    for t in 0..64 {
        assert_eq!(out[t as usize], (t ^ 1) * 10);
        assert_eq!(out[128 + t as usize], 10);
    }
    // Two waves: lane_id restarts at 0, and shuffle / readlane stay within the wave.
    let (m, _) = exec(SHUFFLE, launch(1, 128), vec![buf(Scalar::I32, 256)], &[3]).unwrap();
    let out = i32s(&m.buffers[0]);
    assert_eq!(out[64], 67 * 10);
    assert_eq!(out[127], 124 * 10);
    assert_eq!(out[128 + 5], 30);
    assert_eq!(out[128 + 64], 670);
}

#[test]
fn shuffle_of_an_inactive_or_missing_lane_is_an_error() {
    // Block 60: lanes 60..64 do not exist; lane 56 ^ 4 = 60 is the first to read one.
    let e = exec(SHUFFLE, launch(1, 60), vec![buf(Scalar::I32, 192)], &[4]).unwrap_err();
    assert_eq!(
        e.message,
        "`kernel.shuffle` reads lane 60, which is an inactive lane"
    );
    assert_eq!((e.loc.line, e.loc.col), (3, 14));
    assert_eq!(e.work_item.unwrap().local, [56, 0, 0]);
    let e = exec(SHUFFLE, launch(1, 64), vec![buf(Scalar::I32, 192)], &[64]).unwrap_err();
    assert_eq!(
        e.message,
        "`kernel.shuffle` reads lane 64, which is not a lane of the wave (0..64)"
    );
    assert_eq!(e.work_item.unwrap().local, [0, 0, 0]);
}

#[test]
fn scans_over_active_lanes() {
    // Lanes 0..3 inactive (the if); each active lane folds the active lanes at or below it.
    let src = |kind: &str, ty: &str| {
        format!(
            "kernel.func @k {{
            ^entry(%out: !kernel.ptr<global, {ty}>, %in: !kernel.ptr<global, {ty}>):
              %tid = kernel.workitem_id x : i32
              %v = kernel.load %in, %tid : !kernel.ptr<global, {ty}>, i32
              %three = arith.constant 3 : i32
              %c = arith.cmpi sge, %tid, %three : i32
              kernel.if %c {{
                %r = kernel.scan {kind}, %v : {ty}
                kernel.store %r, %out, %tid : !kernel.ptr<global, {ty}>, i32
                kernel.yield
              }} else {{
                kernel.yield
              }}
              kernel.return
            }}"
        )
    };
    let go = |kind: &str| {
        let mut input = buf(Scalar::I32, 8);
        input.data = [100, -100, 7, -5, 9, 2, -3, 4]
            .iter()
            .map(|&v: &i32| v as u32 as u64)
            .collect();
        let (m, _) = exec(
            &src(kind, "i32"),
            launch(1, 8),
            vec![buf(Scalar::I32, 8), input],
            &[],
        )
        .unwrap();
        i32s(&m.buffers[0])
    };
    assert_eq!(go("add"), [0, 0, 0, -5, 4, 6, 3, 7]);
    assert_eq!(go("min"), [0, 0, 0, -5, -5, -5, -5, -5]);
    assert_eq!(go("max"), [0, 0, 0, -5, 9, 9, 9, 9]);
    assert_eq!(go("umin"), [0, 0, 0, -5, 9, 2, 2, 2]);
    assert_eq!(go("umax"), [0, 0, 0, -5, -5, -5, -3, -3]);
    // f32 sums round after each lane, lowest first: 1e8 + 1 + 1 + 1 stays 1e8.
    let mut input = buf(Scalar::F32, 8);
    input.data = [0.0, 0.0, 0.0, 1e8, 1.0, 1.0, 1.0, -1e8]
        .iter()
        .map(|&v| fl(v))
        .collect();
    let (m, _) = exec(
        &src("fadd", "f32"),
        launch(1, 8),
        vec![buf(Scalar::F32, 8), input],
        &[],
    )
    .unwrap();
    let got: Vec<f32> = m.buffers[0].data[3..]
        .iter()
        .map(|&b| f32::from_bits(b as u32))
        .collect();
    assert_eq!(got, [1e8, 1e8, 1e8, 1e8, 0.0]);
}

#[test]
fn reductions_over_active_lanes() {
    let src = |kind: &str, ty: &str| {
        format!(
            "kernel.func @k {{
            ^entry(%out: !kernel.ptr<global, {ty}>, %in: !kernel.ptr<global, {ty}>):
              %tid = kernel.workitem_id x : i32
              %v = kernel.load %in, %tid : !kernel.ptr<global, {ty}>, i32
              %three = arith.constant 3 : i32
              %c = arith.cmpi sge, %tid, %three : i32
              kernel.if %c {{
                %r = kernel.reduce {kind}, %v : {ty}
                kernel.store %r, %out, %tid : !kernel.ptr<global, {ty}>, i32
                kernel.yield
              }} else {{
                kernel.yield
              }}
              kernel.return
            }}"
        )
    };
    let vals: Vec<i32> = vec![100, -100, 7, -5, 9, 2, -3, 4];
    let go = |kind: &str| {
        let mut input = buf(Scalar::I32, 8);
        input.data = vals.iter().map(|&v| v as u32 as u64).collect();
        let (m, _) = exec(
            &src(kind, "i32"),
            launch(1, 8),
            vec![buf(Scalar::I32, 8), input],
            &[],
        )
        .unwrap();
        let out = i32s(&m.buffers[0]);
        assert!(out[..3].iter().all(|&v| v == 0));
        assert!(out[3..].iter().all(|&v| v == out[3]), "{kind}: {out:?}");
        out[3]
    };
    // Lanes 3..8: -5, 9, 2, -3, 4.
    assert_eq!(go("add"), 7);
    assert_eq!(go("min"), -5);
    assert_eq!(go("max"), 9);
    assert_eq!(go("umin"), 2);
    assert_eq!(go("umax"), -3);
    let fgo = |kind: &str, vals: &[f32]| {
        let mut input = buf(Scalar::F32, 8);
        input.data = vals.iter().map(|&v| fl(v)).collect();
        let (m, _) = exec(
            &src(kind, "f32"),
            launch(1, 8),
            vec![buf(Scalar::F32, 8), input],
            &[],
        )
        .unwrap();
        f32::from_bits(m.buffers[0].data[7] as u32)
    };
    // In increasing lane order: ((1e8 + 1) + 1) ... stays 1e8; then -1e8 gives 0.0 exactly.
    let v = [0.0, 0.0, 0.0, 1e8, 1.0, 1.0, 1.0, -1e8];
    assert_eq!(fgo("fadd", &v), 0.0);
    assert_eq!(
        fgo("fmin", &[0.0, 0.0, 0.0, 3.0, f32::NAN, -2.0, 5.0, 1.0]),
        -2.0
    );
    assert_eq!(
        fgo("fmax", &[0.0, 0.0, 0.0, 3.0, f32::NAN, -2.0, 5.0, 1.0]),
        5.0
    );
    // -0 is below +0 whichever lane holds it (f32::min may return either zero).
    for z in [[0.0, -0.0], [-0.0, 0.0]] {
        let v = [0.0, 0.0, 0.0, z[0], z[1], 0.0, 0.0, 0.0];
        assert_eq!(fgo("fmin", &v).to_bits(), (-0.0f32).to_bits());
        let v = [0.0, 0.0, 0.0, -z[0], -z[1], -0.0, -0.0, -0.0];
        assert_eq!(fgo("fmax", &v).to_bits(), 0.0f32.to_bits());
    }
    // 64-bit add wraps at 64 bits.
    let mut input = buf(Scalar::I64, 8);
    input.data = vec![0, 0, 0, u64::MAX, 2, 0, 0, 0];
    let (m, _) = exec(
        &src("add", "i64"),
        launch(1, 8),
        vec![buf(Scalar::I64, 8), input],
        &[],
    )
    .unwrap();
    assert_eq!(m.buffers[0].data[3], 1);
}

// ---- barriers ----

#[test]
fn barrier_in_divergent_control_flow_is_an_error() {
    let src = "kernel.func @k {
        ^entry(%out: !kernel.ptr<global, i32>):
          %tid = kernel.workitem_id x : i32
          %n = arith.constant 70 : i32
          %c = arith.cmpi slt, %tid, %n : i32
          kernel.if %c {
            kernel.barrier loc(\"t.k\":12:7)
            kernel.yield
          } else {
            kernel.yield
          }
          kernel.return
        }";
    // 128 lanes, 70 of them in the branch.
    let e = exec(src, launch(1, 128), vec![buf(Scalar::I32, 1)], &[]).unwrap_err();
    assert_eq!(
        e.message,
        "barrier in divergent control flow: 70 of the 128 work-items of workgroup (0, 0, 0) that have not returned reach it; work-item (70, 0, 0) does not"
    );
    assert_eq!((e.loc.line, e.loc.col), (12, 7));
    // With 70 lanes every lane takes the branch: fine.
    assert!(exec(src, launch(1, 70), vec![buf(Scalar::I32, 1)], &[]).is_ok());
}

#[test]
fn barrier_after_some_lanes_returned_waits_only_for_the_others() {
    // if tid >= 5 { return }; tile[tid] = tid; barrier; out[tid] = tile[4 - tid]
    let src = "kernel.func @k {
        ^entry(%out: !kernel.ptr<global, i32>):
          %tile = kernel.shared_alloc 8 : !kernel.ptr<shared, i32>
          %tid = kernel.workitem_id x : i32
          %five = arith.constant 5 : i32
          %c = arith.cmpi sge, %tid, %five : i32
          kernel.if %c {
            kernel.return
          } else {
            kernel.yield
          }
          %one = arith.constant 1 : i32
          %v = arith.addi %tid, %one : i32
          kernel.store %v, %tile, %tid : !kernel.ptr<shared, i32>, i32
          kernel.barrier
          %four = arith.constant 4 : i32
          %j = arith.subi %four, %tid : i32
          %w = kernel.load %tile, %j : !kernel.ptr<shared, i32>, i32
          kernel.store %w, %out, %tid : !kernel.ptr<global, i32>, i32
          kernel.return
        }";
    let (m, _) = exec(src, launch(1, 100), vec![buf(Scalar::I32, 5)], &[]).unwrap();
    assert_eq!(i32s(&m.buffers[0]), vec![5, 4, 3, 2, 1]);
}

// ---- step limit ----

#[test]
fn step_limit_reports_the_innermost_loop() {
    // Lane 0 takes a lock and leaves the loop; the others spin forever waiting for it: the
    // SIMT deadlock of examples/spinlock.k.
    let src = "kernel.func @k {
        ^entry(%lock: !kernel.ptr<global, i32>, %cnt: !kernel.ptr<global, i32>):
          kernel.loop {
            %z = arith.constant 0 : i32
            %one = arith.constant 1 : i32
            %p = kernel.ptr_offset %lock, %z : !kernel.ptr<global, i32>, i32
            %old = kernel.atomic_cmpxchg %p, %z, %one {ordering = \"seq_cst\", scope = \"agent\"} : !kernel.ptr<global, i32>
            %taken = arith.cmpi ne, %old, %z : i32
            kernel.if %taken {
              kernel.yield
            } else {
              kernel.break
            }
            kernel.yield
          } latch {
            kernel.yield
          } loc(\"s.k\":7:5)
          %z2 = arith.constant 0 : i32
          %q = kernel.ptr_offset %lock, %z2 : !kernel.ptr<global, i32>, i32
          %o = kernel.atomic xchg, %q, %z2 {ordering = \"seq_cst\", scope = \"agent\"} : !kernel.ptr<global, i32>
          kernel.return
        }";
    let limits = Limits {
        max_steps: 10_000,
        ..Limits::default()
    };
    let e = exec_limit(
        src,
        launch(1, 64),
        vec![buf(Scalar::I32, 1), buf(Scalar::I32, 1)],
        &[],
        limits,
    )
    .unwrap_err();
    assert_eq!(
        e.message,
        "no progress after 10000 steps (possible SIMT deadlock) in loop at s.k:7:5"
    );
    assert_eq!((e.loc.line, e.loc.col), (7, 5));
    // One lane: no deadlock.
    let (m, c) = exec_limit(
        src,
        launch(1, 1),
        vec![buf(Scalar::I32, 1), buf(Scalar::I32, 1)],
        &[],
        limits,
    )
    .unwrap();
    assert_eq!(m.buffers[0].data[0], 0);
    assert!(c.ops < 100);
}

// ---- CF form ----

/// `sum = 0; for i in 0..tid { sum += i }; out[tid] = sum`, in CF form.
const CF_LOOP: &str = "kernel.func @k {
    ^entry(%out: !kernel.ptr<global, i32>):
      %tid = kernel.workitem_id x : i32
      %z = arith.constant 0 : i32
      cf.br ^head(%z, %z : i32, i32)
    ^head(%i: i32, %sum: i32):
      %c = arith.cmpi slt, %i, %tid : i32
      cf.cond_br %c, ^body, ^exit
    ^body:
      %one = arith.constant 1 : i32
      %s2 = arith.addi %sum, %i : i32
      %i2 = arith.addi %i, %one : i32
      cf.br ^head(%i2, %s2 : i32, i32)
    ^exit:
      kernel.store %sum, %out, %tid : !kernel.ptr<global, i32>, i32
      kernel.return
    }";

#[test]
fn cf_form_runs_thread_by_thread() {
    let (ir, k) = parse(CF_LOOP);
    assert_eq!(mode(&ir, k), Ok(Mode::ThreadByThread));
    let (m, c) = exec(CF_LOOP, launch(2, 8), vec![buf(Scalar::I32, 8)], &[]).unwrap();
    let want: Vec<i32> = (0..8).map(|t| t * (t - 1) / 2).collect();
    assert_eq!(i32s(&m.buffers[0]), want);
    // Per work-item: 3 entry ops, 2 per header visit (t + 1 visits), 4 per body (t), 2 exit.
    let per: u64 = (0..8u64).map(|t| 3 + 2 * (t + 1) + 4 * t + 2).sum();
    assert_eq!(c.ops, 2 * per);
    assert_eq!(c.lane_ops, c.ops);
}

#[test]
fn cf_form_block_arguments_are_a_parallel_copy() {
    // Swap two values 3 times through block arguments: (1, 2) -> (2, 1).
    let src = "kernel.func @k {
        ^entry(%out: !kernel.ptr<global, i32>):
          %z = arith.constant 0 : i32
          %one = arith.constant 1 : i32
          %two = arith.constant 2 : i32
          %three = arith.constant 3 : i32
          cf.br ^head(%z, %one, %two : i32, i32, i32)
        ^head(%n: i32, %a: i32, %b: i32):
          %c = arith.cmpi slt, %n, %three : i32
          %n2 = arith.addi %n, %one : i32
          cf.cond_br %c, ^head(%n2, %b, %a : i32, i32, i32), ^exit
        ^exit:
          kernel.store %a, %out, %z : !kernel.ptr<global, i32>, i32
          kernel.store %b, %out, %one : !kernel.ptr<global, i32>, i32
          kernel.return
        }";
    let (m, _) = exec(src, launch(1, 1), vec![buf(Scalar::I32, 2)], &[]).unwrap();
    assert_eq!(i32s(&m.buffers[0]), vec![2, 1]);
}

#[test]
fn cf_form_lanes_meet_after_an_if_whose_side_may_return() {
    // The then-side returns for lanes 0..4 and joins for lanes 5..9; the join's only
    // post-dominator is the exit, yet the lanes still there (5..63) run the ballot together,
    // as in the structured IR.
    let src = "kernel.func @k {
        ^entry(%out: !kernel.ptr<global, i64>):
          %lane = kernel.lane_id : i32
          %five = arith.constant 5 : i32
          %ten = arith.constant 10 : i32
          %t = arith.constant true
          %z = arith.constant 0 : i32
          %c = arith.cmpi slt, %lane, %ten : i32
          cf.cond_br %c, ^then, ^join
        ^then:
          %r = arith.cmpi slt, %lane, %five : i32
          cf.cond_br %r, ^ret, ^join
        ^ret:
          kernel.return
        ^join:
          %b = kernel.ballot %t : i64
          kernel.store %b, %out, %z : !kernel.ptr<global, i64>, i32
          kernel.return
        }";
    let (m, _) = exec(src, launch(1, 64), vec![buf(Scalar::I64, 1)], &[]).unwrap();
    assert_eq!(m.buffers[0].data, vec![u64::MAX << 5]);
}

/// A CF kernel of two waves (65 lanes): lanes with `tid < 64` return on one side of a branch,
/// the other side runs a barrier. `ret_first` lists the returning block first in the branch.
fn cf_return_then_barrier(ret_first: bool) -> String {
    let (pred, succs) = if ret_first {
        ("slt", "^ret, ^bar")
    } else {
        ("sge", "^bar, ^ret")
    };
    format!(
        "kernel.func @k {{
        ^entry(%out: !kernel.ptr<global, i32>):
          %e = conv.entry : !conv.token
          %tid = kernel.workitem_id x : i32
          %w = arith.constant 64 : i32
          %c = arith.cmpi {pred}, %tid, %w : i32
          cf.cond_br %c, {succs}
        ^bar:
          kernel.barrier(%e) loc(\"t.k\":8:5)
          kernel.store %tid, %out, %tid : !kernel.ptr<global, i32>, i32
          kernel.return
        ^ret:
          kernel.return
        }}"
    )
}

#[test]
fn cf_form_barrier_after_a_whole_wave_returned_on_the_other_side() {
    // The barrier waits only for the lanes that have not returned, whichever side of the
    // branch the schedule runs first (the structured IR runs the returning side first).
    for ret_first in [true, false] {
        let src = cf_return_then_barrier(ret_first);
        let (m, _) = exec(&src, launch(1, 65), vec![buf(Scalar::I32, 65)], &[])
            .unwrap_or_else(|e| panic!("ret_first {ret_first}: {}", e.message));
        let mut want = vec![0; 65];
        want[64] = 64;
        assert_eq!(i32s(&m.buffers[0]), want, "ret_first {ret_first}");
    }
}

#[test]
fn cf_form_barrier_skipped_by_some_lanes_is_an_error() {
    // Lanes 70..127 branch around the barrier and meet the others after it: an error, with
    // the message of the structured IR's `if tid < 70 { barrier }`.
    let src = "kernel.func @k {
        ^entry(%out: !kernel.ptr<global, i32>):
          %e = conv.entry : !conv.token
          %tid = kernel.workitem_id x : i32
          %n = arith.constant 70 : i32
          %c = arith.cmpi slt, %tid, %n : i32
          cf.cond_br %c, ^bar, ^join
        ^bar:
          kernel.barrier(%e) loc(\"t.k\":12:7)
          cf.br ^join
        ^join:
          kernel.store %tid, %out, %tid : !kernel.ptr<global, i32>, i32
          kernel.return
        }";
    let e = exec(src, launch(1, 128), vec![buf(Scalar::I32, 128)], &[]).unwrap_err();
    assert_eq!(
        e.message,
        "barrier in divergent control flow: 70 of the 128 work-items of workgroup (0, 0, 0) that have not returned reach it; work-item (70, 0, 0) does not"
    );
    assert_eq!((e.loc.line, e.loc.col), (12, 7));
}

/// A CF loop of three iterations whose body returns for the lanes with `tid >= 40 - i` and
/// then runs a barrier; `continue_instead` sends those lanes to the next iteration instead.
fn cf_loop_barrier(continue_instead: bool) -> String {
    // The continuing lanes take their own back edge, so they wait for the next iteration
    // while the others are at the barrier.
    let side = if continue_instead {
        "%onec = arith.constant 1 : i32
          %ic = arith.addi %i, %onec : i32
          cf.br ^head(%ic : i32)"
    } else {
        "kernel.return"
    };
    format!(
        "kernel.func @k {{
        ^entry(%out: !kernel.ptr<global, i32>):
          %e = conv.entry : !conv.token
          %tid = kernel.workitem_id x : i32
          %z = arith.constant 0 : i32
          cf.br ^head(%z : i32)
        ^head(%i: i32):
          %h = conv.loop %e : !conv.token
          %three = arith.constant 3 : i32
          %more = arith.cmpi slt, %i, %three : i32
          cf.cond_br %more, ^body, ^exit
        ^body:
          %lim = arith.constant 40 : i32
          %off = arith.subi %lim, %i : i32
          %c = arith.cmpi sge, %tid, %off : i32
          cf.cond_br %c, ^side, ^bar
        ^side:
          {side}
        ^bar:
          kernel.barrier(%e) loc(\"t.k\":9:7)
          kernel.store %i, %out, %tid : !kernel.ptr<global, i32>, i32
          cf.br ^latch
        ^latch:
          %one = arith.constant 1 : i32
          %i2 = arith.addi %i, %one : i32
          cf.br ^head(%i2 : i32)
        ^exit:
          kernel.return
        }}"
    )
}

#[test]
fn cf_form_barrier_in_a_loop_after_lanes_returned_there() {
    // Iteration i: lanes 40-i.. return, the others pass the barrier: each lane records the
    // last iteration it saw (lanes below 38 all three).
    let (m, _) = exec(
        &cf_loop_barrier(false),
        launch(1, 64),
        vec![buf(Scalar::I32, 64)],
        &[],
    )
    .unwrap_or_else(|e| panic!("{}", e.message));
    let got = i32s(&m.buffers[0]);
    let want: Vec<i32> = (0..64)
        .map(|t| match t {
            0..=37 => 2,
            38 => 1,
            39 => 0,
            _ => 0,
        })
        .collect();
    assert_eq!(got, want);
}

#[test]
fn cf_form_barrier_in_a_loop_skipped_by_continuing_lanes_is_an_error() {
    // The lanes that go on to the next iteration without the barrier are still live: the
    // structured IR's error, not a barrier mixing two iterations' lanes.
    let e = exec(
        &cf_loop_barrier(true),
        launch(1, 64),
        vec![buf(Scalar::I32, 64)],
        &[],
    )
    .unwrap_err();
    assert!(
        e.message
            .starts_with("barrier in divergent control flow: 40 of the 64 work-items"),
        "{}",
        e.message
    );
    assert_eq!((e.loc.line, e.loc.col), (9, 7));
}

#[test]
fn cf_form_with_cross_lane_ops_runs_in_lockstep() {
    // Lanes 0..9 take the branch and ballot there; everyone meets again at the join and after
    // a loop whose exit is divergent.
    let src = "kernel.func @k {
        ^entry(%out: !kernel.ptr<global, i64>):
          %lane = kernel.lane_id : i32
          %ten = arith.constant 10 : i32
          %four = arith.constant 4 : i32
          %t = arith.constant 1 : i1
          %z = arith.constant 0 : i32
          %one = arith.constant 1 : i32
          %two = arith.constant 2 : i32
          %c = arith.cmpi slt, %lane, %ten : i32
          cf.cond_br %c, ^then, ^join
        ^then:
          %b1 = kernel.ballot %t : i64
          kernel.store %b1, %out, %z : !kernel.ptr<global, i64>, i32
          cf.br ^join
        ^join:
          %b2 = kernel.ballot %t : i64
          kernel.store %b2, %out, %one : !kernel.ptr<global, i64>, i32
          cf.br ^head(%z : i32)
        ^head(%i: i32):
          %m = arith.remui %lane, %four : i32
          %go = arith.cmpi slt, %i, %m : i32
          %i2 = arith.addi %i, %one : i32
          cf.cond_br %go, ^head(%i2 : i32), ^exit
        ^exit:
          %b3 = kernel.ballot %t : i64
          kernel.store %b3, %out, %two : !kernel.ptr<global, i64>, i32
          kernel.return
        }";
    let ir = kc_dialect::text::parse(src, "t.mlir").unwrap();
    let k = ir.kernels()[0];
    assert_eq!(mode(&ir, k), Ok(Mode::LockstepCf));
    let (m, _) = exec(src, launch(1, 64), vec![buf(Scalar::I64, 3)], &[]).unwrap();
    assert_eq!(m.buffers[0].data, vec![0x3ff, u64::MAX, u64::MAX]);
}

#[test]
fn cf_form_step_limit_and_errors() {
    // The limit is per work-item: work-item 63 alone runs 385 ops.
    let e = exec_limit(
        CF_LOOP,
        launch(1, 64),
        vec![buf(Scalar::I32, 64)],
        &[],
        Limits {
            max_steps: 300,
            ..Limits::default()
        },
    )
    .unwrap_err();
    assert_eq!(
        e.message,
        "no progress after 300 steps of one work-item (a loop that never ends?)"
    );
    assert_eq!(e.work_item, None);
    // 64 work-items of at most 385 ops: more in total than the limit, but none alone.
    exec_limit(
        CF_LOOP,
        launch(1, 64),
        vec![buf(Scalar::I32, 64)],
        &[],
        Limits {
            max_steps: 400,
            ..Limits::default()
        },
    )
    .unwrap();
    let e = exec(CF_LOOP, launch(1, 8), vec![buf(Scalar::I32, 7)], &[]).unwrap_err();
    assert_eq!(
        e.message,
        "index 7 out of bounds for buffer `out` of 7 elements"
    );
    assert_eq!(e.work_item.unwrap().local, [7, 0, 0]);
}

// ---- arguments and launch ----

#[test]
fn arguments_and_launch_are_checked() {
    let (ir, k) = parse(DIAMOND);
    let mut mem = Memory {
        buffers: vec![buf(Scalar::I64, 3)],
    };
    let l = launch(1, 4);
    let lim = Limits::default();
    let e = run(&ir, k, &l, &[ArgValue::Buffer(0)], &mut mem, &lim).unwrap_err();
    assert!(e.message.contains("a buffer of i64"), "{}", e.message);
    let e = run(&ir, k, &l, &[], &mut mem, &lim).unwrap_err();
    assert_eq!(e.message, "kernel `diamond` takes 1 arguments, 0 given");
    let e = run(&ir, k, &l, &[ArgValue::Scalar(1)], &mut mem, &lim).unwrap_err();
    assert!(
        e.message.contains("a scalar for a parameter"),
        "{}",
        e.message
    );
    mem.buffers[0].elem = Scalar::I32;
    let big = Launch {
        grid: [1, 1, 1],
        block: [1025, 1, 1],
    };
    let e = run(&ir, k, &big, &[ArgValue::Buffer(0)], &mut mem, &lim).unwrap_err();
    assert!(
        e.message.contains("larger than the maximum 1024"),
        "{}",
        e.message
    );
    let zero = launch(0, 4);
    assert!(run(&ir, k, &zero, &[ArgValue::Buffer(0)], &mut mem, &lim).is_err());
}

#[test]
fn trace_prints_masks() {
    let (ir, k) = parse(DIAMOND);
    let mut mem = Memory {
        buffers: vec![buf(Scalar::I32, 3)],
    };
    let mut out: Vec<u8> = Vec::new();
    run_traced(
        &ir,
        k,
        &launch(1, 4),
        &[ArgValue::Buffer(0)],
        &mut mem,
        &Limits::default(),
        Some(&mut out),
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 17);
    assert!(lines[0].starts_with(&format!(
        "wg (0, 0, 0) wave 0 {:064b} kernel.workitem_id",
        0xF
    )));
    assert!(lines[4].contains(&format!("{:064b} arith.constant", 1)));
    assert!(lines[7].contains(&format!("{:064b} arith.constant", 0xE)));
}

#[test]
fn pointer_encoding() {
    assert_eq!(eval::sext(0xFFFF_FFFF, 32), -1);
    assert_eq!(eval::index(1, 1), 1);
    assert_eq!(pointer_parts(pointer_add(pointer(3, 5), -7)), (3, -2));
    assert_eq!(
        pointer_parts(pointer_add(pointer(3, 0), i64::MAX)).1,
        POISON_OFFSET
    );
}

#[test]
fn atomic_kinds() {
    // ATOMIC_KINDS: add min max umin umax xchg fadd, on i32 patterns.
    let m1 = 0xFFFF_FFFF; // -1
    assert_eq!(eval::atomic(0, m1, 2, 32), 1);
    assert_eq!(eval::atomic(1, m1, 2, 32), m1);
    assert_eq!(eval::atomic(2, m1, 2, 32), 2);
    assert_eq!(eval::atomic(3, m1, 2, 32), 2);
    assert_eq!(eval::atomic(4, m1, 2, 32), m1);
    assert_eq!(eval::atomic(5, m1, 2, 32), 2);
    assert_eq!(eval::atomic(6, fl(1.5), fl(2.0), 32), fl(3.5));
}

/// The step limit counts per workgroup, and outside any loop it says so: a loop-free kernel
/// on a large grid used to stop with "possible SIMT deadlock in loop at" the op running (no
/// loop there) once all workgroups together passed the limit.
#[test]
fn step_limit_is_per_workgroup_and_names_only_real_loops() {
    let src = "kernel.func @k {
        ^entry(%out: !kernel.ptr<global, i32>):
          %g = kernel.workgroup_id x : i32 loc(\"g.k\":2:11)
          %z = arith.constant 0 : i32
          kernel.store %g, %out, %z : !kernel.ptr<global, i32>, i32 loc(\"g.k\":3:5)
          kernel.return
        }";
    // 5 ops per workgroup, 1000 workgroups, a limit of 100 steps.
    let (m, c) = exec_limit(
        src,
        launch(1000, 64),
        vec![buf(Scalar::I32, 1)],
        &[],
        Limits {
            max_steps: 100,
            ..Limits::default()
        },
    )
    .unwrap();
    assert_eq!(c.ops, 4 * 1000);
    assert_eq!(i32s(&m.buffers[0]), vec![999]);
    // A single workgroup of 16 waves over a limit of 10 steps (its first op takes 16): not a
    // deadlock.
    let e = exec_limit(
        src,
        launch(1, 1024),
        vec![buf(Scalar::I32, 1)],
        &[],
        Limits {
            max_steps: 10,
            ..Limits::default()
        },
    )
    .unwrap_err();
    assert_eq!(
        e.message,
        "a workgroup took more than 10 steps, outside any loop (not a deadlock: its work \
         exceeds the step limit)"
    );
    assert_eq!((e.loc.line, e.loc.col), (2, 11));
}
