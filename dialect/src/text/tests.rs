use super::*;
use crate::attrs::Attr;
use crate::entities::{Block, Op, Value};
use crate::location::Loc;
use crate::registry::Opcode;
use crate::types::{AddrSpace, Scalar, Type};

fn op(ir: &mut Ir, b: Block, opc: Opcode, operands: &[Value], tys: &[Type], loc: Loc) -> Op {
    let o = ir.create_op(opc, operands, tys, loc);
    ir.append_op(b, o);
    o
}
fn r(ir: &Ir, o: Op) -> Value {
    ir.ops[o].results[0]
}
fn named(ir: &mut Ir, o: Op, name: &str) -> Value {
    let v = r(ir, o);
    ir.set_value_name(v, name);
    v
}
fn func(ir: &mut Ir, name: &str) -> (Op, Block) {
    let top = ir.top_block();
    let f = op(ir, top, Opcode::Func, &[], &[], Loc::UNKNOWN);
    ir.set_attr(f, "sym_name", Attr::Str(name.into()));
    let reg = ir.add_region(f);
    let b = ir.create_block();
    ir.append_block(reg, b);
    (f, b)
}
fn constant(ir: &mut Ir, b: Block, a: Attr, ty: Type) -> Value {
    let o = op(ir, b, Opcode::Constant, &[], &[ty], Loc::UNKNOWN);
    ir.set_attr(o, "value", a);
    r(ir, o)
}

/// A CFG diamond with block arguments, successor arguments, tokens and names to uniquify.
fn diamond() -> Ir {
    let mut ir = Ir::new();
    let (f, entry) = func(&mut ir, "diamond");
    ir.blocks[entry].name = Some("entry".into());
    let l = ir.loc("d.k", 1, 17);
    let out = ir.add_block_arg(
        entry,
        Type::Ptr(AddrSpace::Global, Scalar::I32),
        Some("out".into()),
        l,
    );
    let n = ir.add_block_arg(entry, Type::I32, Some("n".into()), Loc::UNKNOWN);
    let l1 = ir.loc("d.k", 1, 1);
    let tok = op(&mut ir, entry, Opcode::ConvEntry, &[], &[Type::Token], l1);
    let tok = named(&mut ir, tok, "tok");
    let l2 = ir.loc("d.k", 2, 15);
    let tid = op(&mut ir, entry, Opcode::WorkitemId, &[], &[Type::I32], l2);
    ir.set_attr(tid, "dim", Attr::Str("x".into()));
    let tid = named(&mut ir, tid, "tid");
    let c0 = constant(&mut ir, entry, Attr::Int(0, Type::I32), Type::I32);
    ir.set_value_name(c0, "x");
    let cmp = op(
        &mut ir,
        entry,
        Opcode::CmpI,
        &[tid, c0],
        &[Type::I1],
        Loc::UNKNOWN,
    );
    ir.set_attr(cmp, "predicate", Attr::Int(0, Type::I64));
    let c = r(&ir, cmp);
    let then = ir.create_block();
    ir.blocks[then].name = Some("then".into());
    let merge = ir.create_block();
    ir.blocks[merge].name = Some("merge".into());
    let odd = ir.create_block();
    ir.blocks[odd].name = Some("bb3".into());
    let a = ir.add_block_arg(then, Type::I32, Some("x".into()), Loc::UNKNOWN);
    let m = ir.add_block_arg(merge, Type::I32, Some("x_1".into()), Loc::UNKNOWN);
    let cb = op(&mut ir, entry, Opcode::CondBr, &[c], &[], Loc::UNKNOWN);
    ir.add_successor(cb, then, &[tid]);
    ir.add_successor(cb, merge, &[n]);
    let reg = ir.ops[f].regions[0];
    for b in [then, odd, merge] {
        ir.append_block(reg, b);
    }
    let bal = op(
        &mut ir,
        then,
        Opcode::Ballot,
        &[c, tok],
        &[Type::I64],
        Loc::UNKNOWN,
    );
    named(&mut ir, bal, "3 weird name");
    constant(&mut ir, then, Attr::Float(0.1), Type::F32);
    constant(&mut ir, then, Attr::Float(1e30), Type::F32);
    constant(&mut ir, then, Attr::Float(f32::NAN), Type::F32);
    constant(&mut ir, then, Attr::Int(-7, Type::I64), Type::I64);
    constant(&mut ir, then, Attr::Int(1, Type::I1), Type::I1);
    let st = op(
        &mut ir,
        then,
        Opcode::Store,
        &[a, out, c0],
        &[],
        Loc::UNKNOWN,
    );
    ir.set_attr(st, "volatile", Attr::Unit);
    let br = op(&mut ir, then, Opcode::Br, &[], &[], Loc::UNKNOWN);
    ir.add_successor(br, odd, &[]);
    // A use before its definition in text order (`odd` jumps back to `merge` below it).
    let br = op(&mut ir, odd, Opcode::Br, &[], &[], Loc::UNKNOWN);
    ir.add_successor(br, merge, &[a]);
    let ad = op(
        &mut ir,
        merge,
        Opcode::AddI,
        &[m, m],
        &[Type::I32],
        Loc::UNKNOWN,
    );
    named(&mut ir, ad, "x");
    op(&mut ir, merge, Opcode::Return, &[], &[], Loc::UNKNOWN);
    ir
}

/// Structured control flow, variables, tokens, and every keyword kind.
fn structured() -> Ir {
    let mut ir = Ir::new();
    let (_, entry) = func(&mut ir, "structured");
    let p = ir.add_block_arg(
        entry,
        Type::Ptr(AddrSpace::Global, Scalar::F32),
        Some("p".into()),
        Loc::UNKNOWN,
    );
    let n = ir.add_block_arg(entry, Type::I32, Some("n".into()), Loc::UNKNOWN);
    let b = entry;
    let tok = op(
        &mut ir,
        b,
        Opcode::ConvEntry,
        &[],
        &[Type::Token],
        Loc::UNKNOWN,
    );
    let tok = r(&ir, tok);
    let c0 = constant(&mut ir, b, Attr::Int(0, Type::I32), Type::I32);
    let var = op(
        &mut ir,
        b,
        Opcode::Var,
        &[c0],
        &[Type::Var(Scalar::I32)],
        Loc::UNKNOWN,
    );
    let var = named(&mut ir, var, "i");
    let lp = op(&mut ir, b, Opcode::Loop, &[], &[], Loc::UNKNOWN);
    let body = ir.add_region(lp);
    let bb = ir.create_block();
    ir.append_block(body, bb);
    let lt = op(
        &mut ir,
        bb,
        Opcode::ConvLoop,
        &[tok],
        &[Type::Token],
        Loc::UNKNOWN,
    );
    let lt = r(&ir, lt);
    let g = op(&mut ir, bb, Opcode::Get, &[var], &[Type::I32], Loc::UNKNOWN);
    let i = named(&mut ir, g, "i");
    let cmp = op(
        &mut ir,
        bb,
        Opcode::CmpI,
        &[i, n],
        &[Type::I1],
        Loc::UNKNOWN,
    );
    ir.set_attr(cmp, "predicate", Attr::Int(2, Type::I64));
    let c = r(&ir, cmp);
    let iff = op(&mut ir, bb, Opcode::If, &[c], &[], Loc::UNKNOWN);
    for term in [Opcode::Yield, Opcode::Break] {
        let rg = ir.add_region(iff);
        let blk = ir.create_block();
        ir.append_block(rg, blk);
        if term == Opcode::Yield {
            let bal = op(
                &mut ir,
                blk,
                Opcode::Ballot,
                &[c, lt],
                &[Type::I64],
                Loc::UNKNOWN,
            );
            named(&mut ir, bal, "i");
        }
        op(&mut ir, blk, term, &[], &[], Loc::UNKNOWN);
    }
    op(&mut ir, bb, Opcode::Yield, &[], &[], Loc::UNKNOWN);
    let latch = ir.add_region(lp);
    let lb = ir.create_block();
    ir.append_block(latch, lb);
    let g = op(&mut ir, lb, Opcode::Get, &[var], &[Type::I32], Loc::UNKNOWN);
    let i2 = r(&ir, g);
    let one = constant(&mut ir, lb, Attr::Int(1, Type::I32), Type::I32);
    let s = op(
        &mut ir,
        lb,
        Opcode::AddI,
        &[i2, one],
        &[Type::I32],
        Loc::UNKNOWN,
    );
    let s = r(&ir, s);
    op(&mut ir, lb, Opcode::Set, &[var, s], &[], Loc::UNKNOWN);
    op(&mut ir, lb, Opcode::Yield, &[], &[], Loc::UNKNOWN);
    // Keyword kinds.
    let wg = op(
        &mut ir,
        b,
        Opcode::WorkgroupId,
        &[],
        &[Type::I32],
        Loc::UNKNOWN,
    );
    ir.set_attr(wg, "dim", Attr::Str("y".into()));
    let sh = op(
        &mut ir,
        b,
        Opcode::SharedAlloc,
        &[],
        &[Type::Ptr(AddrSpace::Shared, Scalar::F32)],
        Loc::UNKNOWN,
    );
    ir.set_attr(sh, "size", Attr::Int(1024, Type::I64));
    let f1 = constant(&mut ir, b, Attr::Float(-1.5), Type::F32);
    let at = op(
        &mut ir,
        b,
        Opcode::Atomic,
        &[p, f1],
        &[Type::F32],
        Loc::UNKNOWN,
    );
    ir.set_attr(at, "kind", Attr::Str("fadd".into()));
    let atv = r(&ir, at);
    let cf = op(
        &mut ir,
        b,
        Opcode::CmpF,
        &[atv, f1],
        &[Type::I1],
        Loc::UNKNOWN,
    );
    ir.set_attr(cf, "predicate", Attr::Int(4, Type::I64));
    let red = op(
        &mut ir,
        b,
        Opcode::Reduce,
        &[atv, tok],
        &[Type::F32],
        Loc::UNKNOWN,
    );
    ir.set_attr(red, "kind", Attr::Str("fadd".into()));
    // A keyword attribute with no keyword form (out of range) and extra attributes first.
    let odd = op(
        &mut ir,
        b,
        Opcode::Atomic,
        &[p, f1],
        &[Type::F32],
        Loc::UNKNOWN,
    );
    ir.set_attr(odd, "volatile", Attr::Bool(true));
    ir.set_attr(odd, "kind", Attr::Str("bogus".into()));
    op(&mut ir, b, Opcode::Barrier, &[tok], &[], Loc::UNKNOWN);
    op(&mut ir, b, Opcode::Return, &[], &[], Loc::UNKNOWN);
    // A second kernel reusing names: they are scoped per kernel.
    let (_, e2) = func(&mut ir, "second kernel");
    let x = op(&mut ir, e2, Opcode::LaneId, &[], &[Type::I32], Loc::UNKNOWN);
    named(&mut ir, x, "i");
    op(&mut ir, e2, Opcode::Return, &[], &[], Loc::UNKNOWN);
    ir
}

fn custom(ir: &Ir) -> String {
    print(ir, &PrintOptions::default())
}
fn generic(ir: &Ir) -> String {
    print(ir, &PrintOptions::generic())
}
fn mixed(ir: &Ir) -> String {
    let opts = PrintOptions {
        generic: Generic::Kc,
        ..Default::default()
    };
    print(ir, &opts)
}
fn parse_ok(text: &str) -> Ir {
    parse(text, "t.mlir").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn mlir_accepts(text: &str, tag: &str) {
    let ok = std::process::Command::new("mlir-opt-22")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("mlir-opt-22 not found; skipping");
        return;
    }
    let path = std::env::temp_dir().join(format!("kc-text-{}-{tag}.mlir", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let out = std::process::Command::new("mlir-opt-22")
        .arg("--allow-unregistered-dialect")
        .arg(&path)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(
        out.status.success(),
        "mlir-opt rejected:\n{}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn round_trips(ir: &Ir, tag: &str) {
    let c = custom(ir);
    let g = generic(ir);
    let from_c = parse_ok(&c);
    assert_eq!(custom(&from_c), c);
    assert_eq!(generic(&from_c), g);
    let from_g = parse_ok(&g);
    assert_eq!(generic(&from_g), g);
    assert_eq!(custom(&from_g), c);
    // Without locations too.
    let nl = PrintOptions {
        locations: false,
        ..Default::default()
    };
    let c2 = print(ir, &nl);
    assert_eq!(print(&parse_ok(&c2), &nl), c2);
    mlir_accepts(&g, tag);
    // The mixed form (kc's ops generic, upstream ops custom) reads back to the same IR, and
    // upstream MLIR reads it.
    let m = mixed(ir);
    let from_m = parse_ok(&m);
    assert_eq!(mixed(&from_m), m);
    assert_eq!(custom(&from_m), c);
    assert_eq!(generic(&from_m), g);
    mlir_accepts(&m, &format!("{tag}-mixed"));
}

#[test]
fn diamond_round_trips() {
    let ir = diamond();
    let c = custom(&ir);
    assert!(
        c.contains("cf.cond_br %0, ^then(%tid : i32), ^merge(%n : i32)"),
        "{c}"
    );
    assert!(
        c.contains("%tid = kernel.workitem_id x : i32 loc(\"d.k\":2:15)"),
        "{c}"
    );
    assert!(c.contains("^entry(%out: !kernel.ptr<global, i32> loc(\"d.k\":1:17), %n: i32):"));
    assert!(c.contains("^then(%x_1: i32):"), "{c}");
    assert!(c.contains("^merge(%x_1_1: i32):"), "{c}");
    assert!(c.contains("^bb3_1:"), "{c}");
    assert!(c.contains("%x_2 = arith.addi %x_1_1, %x_1_1 : i32"), "{c}");
    assert!(
        c.contains("%_3_weird_name = kernel.ballot %0, %tok : i64"),
        "{c}"
    );
    assert!(c.contains("arith.constant 1.000000e-01 : f32"), "{c}");
    assert!(c.contains("arith.constant 1.000000e+30 : f32"), "{c}");
    assert!(c.contains("arith.constant true"), "{c}");
    assert!(
        c.contains("kernel.store %x_1, %out, %x {volatile = unit} : !kernel.ptr<global, i32>, i32"),
        "{c}"
    );
    let g = generic(&ir);
    assert!(
        g.contains("\"cf.cond_br\"(%0, %tid, %n)[^then, ^merge] <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (i1, i32, i32) -> ()"),
        "{g}"
    );
    assert!(g.contains("}) {sym_name = \"diamond\"} : () -> ()"), "{g}");
    round_trips(&ir, "diamond");
}

#[test]
fn structured_round_trips() {
    let ir = structured();
    let c = custom(&ir);
    for s in [
        "kernel.loop {",
        "} latch {",
        "} else {",
        "kernel.if %3 {",
        "kernel.workgroup_id y : i32",
        "kernel.shared_alloc 1024 : !kernel.ptr<shared, f32>",
        "kernel.atomic fadd, %p, %",
        "arith.cmpf olt, %",
        "arith.cmpi slt, %i_1, %n : i32",
        "kernel.reduce fadd, %",
        // An op its custom syntax cannot spell prints generically.
        "\"kernel.atomic\"(%p, %9) {kind = \"bogus\", volatile = true} : (!kernel.ptr<global, f32>, f32) -> f32",
        "kernel.func @\"second kernel\" {",
        "%i = kernel.lane_id : i32",
    ] {
        assert!(c.contains(s), "missing `{s}` in\n{c}");
    }
    round_trips(&ir, "structured");
}

#[test]
fn empty_module_and_bare_functions() {
    let ir = Ir::new();
    assert_eq!(custom(&ir), "module {\n}\n");
    round_trips(&ir, "empty");
    let ir =
        parse_ok("kernel.func @a {\n  kernel.return\n}\nkernel.func @b {\n  kernel.return\n}\n");
    assert_eq!(ir.kernels().len(), 2);
    assert_eq!(ir.func_name(ir.kernels()[1]), "b");
    // MLIR prints the module without its dialect prefix and reads either.
    let ir = parse_ok("builtin.module {\n  kernel.func @a {\n    kernel.return\n  }\n}");
    assert_eq!(ir.kernels().len(), 1);
    assert!(custom(&ir).starts_with("module {\n  kernel.func @a {\n"));
}

#[test]
fn mixed_forms_and_comments() {
    let text = r#"
// a comment
kernel.func @k {   // trailing
^entry(%a: i32):
  %b = "arith.addi"(%a, %c) : (i32, i32) -> i32 // uses %c before its definition
  %c = arith.constant 3 : i32
  "kernel.return"() : () -> ()
}
"#;
    let ir = parse_ok(text);
    let c = custom(&ir);
    assert!(c.contains("%b = arith.addi %a, %c : i32"), "{c}");
    // The generic type annotation is checked against the definition.
    let bad = text.replace("(i32, i32) -> i32", "(i32, i64) -> i32");
    let e = parse(&bad, "t").unwrap_err();
    assert!(e.message.contains("has type i32 but is used as i64"), "{e}");
}

#[test]
fn annotations_are_comments() {
    let ir = diamond();
    let f = |a: Annot| match a {
        Annot::Op(o) if ir.spec(o).is_terminator() => Some("divergent".to_string()),
        Annot::Block(_) => Some("args: uniform".to_string()),
        _ => None,
    };
    let opts = PrintOptions {
        annotate: Some(&f),
        ..Default::default()
    };
    let a = print(&ir, &opts);
    assert!(a.contains("^merge(%x_1_1: i32): // args: uniform\n"), "{a}");
    assert!(a.contains("kernel.return // divergent\n"), "{a}");
    assert_eq!(custom(&parse_ok(&a)), custom(&ir));
    let g = print(
        &ir,
        &PrintOptions {
            generic: Generic::All,
            ..opts
        },
    );
    assert_eq!(generic(&parse_ok(&g)), generic(&ir));
}

#[test]
fn print_op_uses_function_names() {
    let ir = diamond();
    let f = ir.kernels()[0];
    let merge = ir.region_blocks(ir.ops[f].regions[0]).last().unwrap();
    let add = ir.first_op(merge).unwrap();
    assert_eq!(
        print_op(&ir, add, &PrintOptions::default()),
        "%x_2 = arith.addi %x_1_1, %x_1_1 : i32\n"
    );
}

fn err(text: &str) -> TextError {
    match parse(text, "t") {
        Ok(ir) => panic!("parsed:\n{}", custom(&ir)),
        Err(e) => e,
    }
}

#[test]
fn errors_have_positions() {
    let e = err("kernel.func @f {\n  %x = foo.bar : i32\n}");
    assert_eq!(
        (e.line, e.col, e.message.as_str()),
        (2, 8, "unknown operation `foo.bar`")
    );
    let e = err(
        "kernel.func @f {\n  kernel.store %a, %b, %a : !kernel.ptr<global, i32>, i32\n  kernel.return\n}",
    );
    assert_eq!((e.line, e.col), (2, 16));
    assert_eq!(e.message, "use of undefined value `%a`");
    let e = err("kernel.func @f {\n  %a = kernel.lane_id : i32\n  %a = kernel.lane_id : i32\n}");
    assert_eq!(
        (e.line, e.col, e.message.as_str()),
        (3, 3, "value `%a` redefined")
    );
    let e = err("kernel.func @f {\n  cf.br ^nowhere\n}");
    assert_eq!((e.line, e.col), (2, 9));
    assert_eq!(e.message, "use of undefined block `^nowhere`");
    let e = err("\"kernel.return\"(%a %b) : () -> ()");
    assert_eq!((e.line, e.col), (1, 20));
    assert_eq!(e.message, "expected `)`, found `%b`");
    let e = err("kernel.func @f {\n  %a = kernel.lane_id : i31\n}");
    assert_eq!((e.line, e.col), (2, 25));
    let e = err("kernel.func @f {\n  %a = kernel.workitem_id w : i32\n}");
    assert_eq!((e.line, e.col), (2, 27));
    let e = err("kernel.func @f {\n  %a = arith.constant 1.5 : i32\n}");
    assert_eq!((e.line, e.col), (2, 23));
    let e = err("%a = \"arith.constant\"() <{value = 1 : !kernel.nope}> : () -> i32");
    assert_eq!((e.line, e.col), (1, 39));
    let e = err("kernel.func @f {\n  %a = \"kernel.lane_id\"() : () -> ()\n}");
    assert!(
        e.message.contains("1 result names but 0 result types"),
        "{e}"
    );
    let e = err("kernel.func @f {");
    assert_eq!(e.message, "expected `}`, found end of input");
    let e = err("kernel.func @f { \"unterminated }");
    assert_eq!(
        (e.line, e.col, e.message.as_str()),
        (1, 18, "unterminated string")
    );
}

/// `depth` nested `kernel.if`s in a kernel.
fn nested_ifs(depth: usize) -> String {
    let mut s = String::from("kernel.func @f {\n%c = arith.constant true\n");
    for _ in 0..depth {
        s.push_str("kernel.if %c {\n");
    }
    for _ in 0..depth {
        s.push_str("kernel.yield\n} else {\nkernel.yield\n}\n");
    }
    s.push_str("kernel.return\n}\n");
    s
}

/// Regions nest to any depth: 20,000 nested `kernel.if`s parse, verify, print in both forms
/// and reparse to the same text on a thread with a 256 KiB stack, which recursion per level
/// would overflow (the parser used to reject 500 levels).
#[test]
fn deep_nesting_round_trips_on_a_small_stack() {
    let s = nested_ifs(20_000);
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || {
            let ir = parse(&s, "t").expect("deep nesting parses");
            crate::verify::verify(&ir).expect("and verifies");
            let c = custom(&ir);
            let g = generic(&ir);
            assert_eq!(custom(&parse_ok(&c)), c);
            assert_eq!(generic(&parse_ok(&g)), g);
            // Indentation stops growing at 100 levels: the text stays linear in the depth.
            assert!(c.lines().all(|l| l.len() - l.trim_start().len() <= 200));
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn never_panics_on_mangled_input() {
    let texts = [
        custom(&diamond()),
        generic(&structured()),
        custom(&structured()),
        generic(&diamond()),
        mixed(&structured()),
        UPSTREAM_OPS.to_string(),
        FROM_MLIR_OPT.to_string(),
    ];
    for t in &texts {
        let bytes = t.as_bytes();
        // Every prefix.
        for n in 0..bytes.len() {
            if t.is_char_boundary(n) {
                let _ = parse(&t[..n], "t");
            }
        }
        // Deletions and substitutions with a cheap deterministic PRNG.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let alphabet = b"%^@!#\"(){}[]<>,:=-0123456789ax.\n /";
        let iters = std::env::var("KC_FUZZ_ITERS").map_or(3000, |s| s.parse().unwrap());
        for _ in 0..iters {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut m = bytes.to_vec();
            let i = (x as usize) % m.len();
            if x & (1 << 40) != 0 {
                m.remove(i);
            } else if x & (1 << 41) != 0 {
                // Duplicate a chunk (nesting, repeated definitions).
                let j = (i + (x >> 44) as usize % 64).min(m.len());
                let chunk = m[i..j].to_vec();
                m.splice(i..i, chunk);
            } else {
                m[i] = alphabet[(x >> 20) as usize % alphabet.len()];
            }
            if let Ok(s) = String::from_utf8(m) {
                if let Ok(ir) = parse(&s, "t") {
                    // Whatever parses must print and re-parse.
                    let c = custom(&ir);
                    let g = generic(&ir);
                    let again = parse(&c, "t").unwrap_or_else(|e| panic!("{e}\n{c}"));
                    assert_eq!(custom(&again), c);
                    assert_eq!(generic(&again), g);
                    let m = mixed(&ir);
                    let again = parse(&m, "t").unwrap_or_else(|e| panic!("{e}\n{m}"));
                    assert_eq!(mixed(&again), m);
                    assert_eq!(generic(&again), g);
                    let again = parse(&g, "t").unwrap_or_else(|e| panic!("{e}\n{g}"));
                    assert_eq!(generic(&again), g);
                    assert_eq!(custom(&again), c);
                }
            }
        }
    }
}

#[test]
fn large_module_is_linear() {
    let mut ir = Ir::new();
    let (_, b) = func(&mut ir, "big");
    let mut v = constant(&mut ir, b, Attr::Int(1, Type::I32), Type::I32);
    for i in 0..100_000 {
        let o = op(
            &mut ir,
            b,
            Opcode::AddI,
            &[v, v],
            &[Type::I32],
            Loc::UNKNOWN,
        );
        v = r(&ir, o);
        if i % 3 == 0 {
            ir.set_value_name(v, "t");
        }
    }
    op(&mut ir, b, Opcode::Return, &[], &[], Loc::UNKNOWN);
    let t0 = std::time::Instant::now();
    let c = custom(&ir);
    let t1 = std::time::Instant::now();
    let ir2 = parse_ok(&c);
    let t2 = std::time::Instant::now();
    let g = generic(&ir2);
    let t3 = std::time::Instant::now();
    let ir3 = parse_ok(&g);
    let t4 = std::time::Instant::now();
    assert_eq!(custom(&ir3), c);
    eprintln!(
        "100k ops: print {:?}, parse {:?}, print generic {:?}, parse generic {:?}",
        t1 - t0,
        t2 - t1,
        t3 - t2,
        t4 - t3
    );
}

#[test]
fn brief_generic_example_is_a_fixed_point() {
    let g = r#""builtin.module"() ({
  "kernel.func"() ({
  ^entry(%out: !kernel.ptr<global, i32> loc("d.k":1:17), %n: i32):
    %tok = "conv.entry"() : () -> !conv.token loc("d.k":1:1)
    %tid = "kernel.workitem_id"() {dim = "x"} : () -> i32 loc("d.k":2:15)
    %c0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %0 = "arith.cmpi"(%tid, %c0) <{predicate = 0 : i64}> : (i32, i32) -> i1
    "cf.cond_br"(%0, %tid)[^then, ^merge] <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i1, i32) -> ()
  ^then(%a: i32):
    %b = "kernel.ballot"(%0, %tok) : (i1, !conv.token) -> i64
    "cf.br"()[^merge] : () -> ()
  ^merge:
    "kernel.return"() : () -> ()
  }) {sym_name = "diamond"} : () -> ()
}) : () -> ()
"#;
    let ir = parse_ok(g);
    assert_eq!(generic(&ir), g);
    let c = custom(&ir);
    assert!(
        c.contains("    cf.cond_br %0, ^then(%tid : i32), ^merge\n"),
        "{c}"
    );
    assert!(
        c.contains("    %0 = arith.cmpi eq, %tid, %c0 : i32\n"),
        "{c}"
    );
    assert_eq!(generic(&parse_ok(&c)), g);
    mlir_accepts(g, "brief");
}

#[test]
fn entry_block_as_branch_target_keeps_its_label() {
    let mut ir = Ir::new();
    let (_, b) = func(&mut ir, "spin");
    let br = op(&mut ir, b, Opcode::Br, &[], &[], Loc::UNKNOWN);
    ir.add_successor(br, b, &[]);
    let c = custom(&ir);
    assert!(c.contains("  ^bb0:\n    cf.br ^bb0\n"), "{c}");
    assert_eq!(custom(&parse_ok(&c)), c);
}

/// Every upstream op family in MLIR 22's custom syntax (checked against `mlir-opt-22`, which
/// prints this text back unchanged but for value names): kc prints it back exactly.
const UPSTREAM_OPS: &str = r#"module {
  kernel.func @ops {
  ^entry(%a: i32, %b: i32, %l: i64, %x: f32, %c: i1):
    %0 = arith.constant 4 : i32
    %1 = arith.constant -5 : i64
    %2 = arith.constant true
    %3 = arith.constant false
    %4 = arith.constant 1.000000e+00 : f32
    %5 = arith.constant 1.000000e-01 : f32
    %6 = arith.constant 0x7FC00000 : f32
    %7 = arith.constant 3.40282347E+38 : f32
    %8 = arith.addi %a, %b : i32
    %9 = arith.shrui %l, %1 : i64
    %10 = arith.maxsi %a, %0 : i32
    %11 = arith.addf %x, %4 : f32
    %12 = arith.negf %x : f32
    %13 = arith.minimumf %x, %5 : f32
    %14 = arith.cmpi slt, %a, %b : i32
    %15 = arith.cmpi uge, %l, %1 : i64
    %16 = arith.cmpi eq, %c, %2 : i1
    %17 = arith.cmpf olt, %x, %4 : f32
    %18 = arith.cmpf false, %x, %x : f32
    %19 = arith.select %c, %a, %b : i32
    %20 = arith.select %14, %x, %11 : f32
    %21 = arith.extsi %a : i32 to i64
    %22 = arith.extui %c : i1 to i32
    %23 = arith.trunci %l : i64 to i32
    %24 = arith.sitofp %a : i32 to f32
    %25 = arith.uitofp %b : i32 to f32
    %26 = arith.fptosi %x : f32 to i32
    %27 = arith.fptoui %x : f32 to i64
    %28 = arith.bitcast %x : f32 to i32
    cf.br ^loop(%0, %8 : i32, i32)
  ^loop(%i: i32, %acc: i32):
    %29 = arith.cmpi slt, %i, %b : i32
    cf.cond_br %29, ^body, ^exit(%acc : i32)
  ^body:
    %30 = arith.addi %i, %0 : i32
    cf.cond_br %c, ^loop(%30, %acc : i32, i32), ^loop(%30, %30 : i32, i32)
  ^exit(%r: i32):
    kernel.return
  }
}
"#;

#[test]
fn upstream_ops_print_as_mlir_does() {
    let ir = parse_ok(UPSTREAM_OPS);
    assert!(crate::verify::verify(&ir).is_ok());
    assert_eq!(custom(&ir), UPSTREAM_OPS);
    // The predicate and the types are read into the same IR as the generic form gives.
    let g = generic(&ir);
    for want in [
        r#"%14 = "arith.cmpi"(%a, %b) <{predicate = 2 : i64}> : (i32, i32) -> i1"#,
        r#"%21 = "arith.extsi"(%a) : (i32) -> i64"#,
        r#"%2 = "arith.constant"() <{value = true}> : () -> i1"#,
        r#"%5 = "arith.constant"() <{value = 1.000000e-01 : f32}> : () -> f32"#,
        r#""cf.cond_br"(%c, %30, %acc, %30, %30)[^loop, ^loop] <{operandSegmentSizes = array<i32: 1, 2, 2>}>"#,
    ] {
        assert!(g.contains(want), "{want}\n{g}");
    }
    round_trips(&ir, "upstream");
}

#[test]
fn constants_as_kc_printed_them_still_read() {
    let ir = parse_ok(
        "kernel.func @k {\n  %a = arith.constant 1.5 : f32\n  %b = arith.constant true : i1\n  \
         %c = arith.constant 1.0e30 : f32\n  kernel.return\n}",
    );
    let c = custom(&ir);
    assert!(
        c.contains("%a = arith.constant 1.500000e+00 : f32\n"),
        "{c}"
    );
    assert!(c.contains("%b = arith.constant true\n"), "{c}");
    assert!(
        c.contains("%c = arith.constant 1.000000e+30 : f32\n"),
        "{c}"
    );
}

#[test]
fn ops_the_custom_syntax_cannot_say_print_generically() {
    // An ill-typed compare (the syntax has one type for both operands) and a constant with
    // an attribute the syntax has no place for: printed and read back in the generic form.
    let text = r#"kernel.func @k {
^entry(%a: i32, %l: i64):
  %0 = "arith.cmpi"(%a, %l) <{predicate = 0 : i64}> : (i32, i64) -> i1
  %1 = "arith.constant"() <{value = 1 : i32, extra = 2 : i32}> : () -> i32
  kernel.return
}"#;
    let ir = parse_ok(text);
    let c = custom(&ir);
    assert!(c.contains(r#"%0 = "arith.cmpi"(%a, %l)"#), "{c}");
    assert!(
        c.contains(r#"%1 = "arith.constant"() <{value = 1 : i32, extra = 2 : i32}>"#),
        "{c}"
    );
    assert_eq!(custom(&parse_ok(&c)), c);
}

/// What `mlir-opt-22 --allow-unregistered-dialect -mlir-print-debuginfo` prints for kc's
/// mixed output: `module`, renamed values and blocks (names reused in sibling regions),
/// location aliases defined before and after their uses, and other kinds of locations.
const FROM_MLIR_OPT: &str = r#"#loc2 = loc("s.k":1:10)
module {
  "kernel.func"() ({
  ^bb0(%arg0: !kernel.ptr<global, i32> loc("s.k":1:10), %arg1: i32 loc(#loc2)):
    %0 = "kernel.workitem_id"() {dim = "x"} : () -> i32 loc(#loc3)
    %c0_i32 = arith.constant 0 : i32 loc(#loc4)
    %1 = arith.cmpi eq, %0, %c0_i32 : i32 loc(#loc5)
    "kernel.if"(%1) ({
      %2 = arith.addi %0, %arg1 : i32 loc(fused["s.k":3:26, "s.k":3:30])
      "kernel.store"(%2, %arg0, %0) : (i32, !kernel.ptr<global, i32>, i32) -> () loc(fused<"x">[unknown, #loc8])
      "kernel.yield"() : () -> () loc("name"("s.k":3:15))
    }, {
      %2 = arith.subi %0, %arg1 : i32 loc(callsite("s.k":3:47 at "s.k":9:9))
      "kernel.store"(%2, %arg0, %0) : (i32, !kernel.ptr<global, i32>, i32) -> () loc("s.k":3:38 to 3:40)
      "kernel.yield"() : () -> () loc(unknown)
    }) : (i1) -> () loc(#loc6)
    cf.br ^bb1 loc(#loc6)
  ^bb1:  // pred: ^bb0
    "kernel.return"() : () -> () loc(#loc13)
  }) {sym_name = "k"} : () -> () loc(#loc1)
} loc(#loc)
#loc = loc("s.mlir":1:1)
#loc1 = loc("s.k":1:1)
#loc3 = loc("s.k":2:13)
#loc4 = loc("s.k":3:13)
#loc5 = loc("s.k":3:8)
#loc6 = loc(#loc5)
#loc8 = loc("s.k":3:17)
#loc13 = loc("s.k":4:1)
"#;

#[test]
fn reads_what_mlir_opt_prints() {
    let ir = parse_ok(FROM_MLIR_OPT);
    let c = custom(&ir);
    for want in [
        r#"^bb0(%arg0: !kernel.ptr<global, i32> loc("s.k":1:10), %arg1: i32 loc("s.k":1:10)):"#,
        r#"%0 = kernel.workitem_id x : i32 loc("s.k":2:13)"#,
        r#"%c0_i32 = arith.constant 0 : i32 loc("s.k":3:13)"#,
        r#"%2 = arith.addi %0, %arg1 : i32 loc("s.k":3:26)"#,
        r#"kernel.store %2, %arg0, %0 : !kernel.ptr<global, i32>, i32 loc("s.k":3:17)"#,
        r#"kernel.yield loc("s.k":3:15)"#,
        // Numbered names are renumbered, per isolated op.
        r#"%3 = arith.subi %0, %arg1 : i32 loc("s.k":3:47)"#,
        r#"kernel.store %3, %arg0, %0 : !kernel.ptr<global, i32>, i32 loc("s.k":3:38)"#,
        r#"} loc("s.k":3:8)"#,
        r#"cf.br ^bb3 loc("s.k":3:8)"#,
        r#"} loc("s.mlir":1:1)"#,
    ] {
        assert!(c.contains(want), "{want}\n{c}");
    }
    assert_eq!(custom(&parse_ok(&c)), c);
}

#[test]
fn upstream_syntax_errors_have_positions() {
    let cases: &[(&str, (u32, u32), &str)] = &[
        (
            "kernel.func @f {\n^e(%a: i32):\n  %c = arith.cmpi foo, %a, %a : i32\n}",
            (3, 19),
            "expected one of `eq`",
        ),
        (
            "kernel.func @f {\n^e(%a: i32):\n  %c = arith.extsi %a : i32 i64\n}",
            (3, 29),
            "expected `to`, found `i64`",
        ),
        (
            "kernel.func @f {\n^e(%a: i64):\n  %c = arith.addi %a, %a : i32\n}",
            (3, 19),
            "`%a` has type i64 but is used as i32",
        ),
        (
            "kernel.func @f {\n  %c = arith.constant 4\n}",
            (3, 1),
            "expected `:` and the constant's type",
        ),
        (
            "kernel.func @f {\n  %c = arith.constant 1.5 : i32\n}",
            (2, 23),
            "expected an integer literal for type i32",
        ),
        (
            "kernel.func @f {\n^e(%a: i32):\n  cf.br ^e(%a : i32, i32)\n}",
            (3, 15),
            "1 arguments but 2 types",
        ),
        (
            "kernel.func @f {\n^e(%a: i32):\n  cf.br ^e(%a)\n}",
            (3, 14),
            "expected `:` and the types of the block's arguments",
        ),
        (
            "kernel.func @f {\n^e(%a: i32):\n  cf.cond_br %a, ^e(%a : i32), ^e(%a : i32)\n}",
            (3, 14),
            "`%a` has type i32 but is used as i1",
        ),
        (
            "kernel.func @f {\n  kernel.return loc(#nope)\n}",
            (2, 21),
            "undefined alias `#nope`",
        ),
        (
            "kernel.func @f {\n  kernel.return loc(#a)\n}\n#a = loc(#a)",
            (4, 10),
            "location nested too deeply",
        ),
        (
            "#map = affine_map<(d0) -> (d0)>\nkernel.func @f {\n}",
            (1, 8),
            "kc reads only location aliases",
        ),
        (
            "#a = loc(unknown)\n#a = loc(unknown)\nkernel.func @f {\n}",
            (2, 1),
            "alias `#a` redefined",
        ),
        (
            "kernel.func @f {\n^e(%a: i32):\n  kernel.if %a {\n  ^x:\n    cf.br ^y\n  }\n  ^y:\n}",
            (5, 11),
            "use of undefined block `^y`",
        ),
    ];
    for &(text, pos, msg) in cases {
        let e = err(text);
        assert_eq!((e.line, e.col), pos, "{text}\n{e}");
        assert!(e.message.contains(msg), "{text}\n{e}");
    }
}

#[test]
fn names_are_scoped_per_region() {
    // Sibling regions may reuse a name (mlir-opt prints them so); a name defined in a region
    // is not visible after it.
    let ok = "kernel.func @f {\n^e(%c: i1):\n  kernel.if %c {\n    %x = kernel.lane_id : i32\n    \
              kernel.yield\n  } else {\n    %x = kernel.lane_id : i32\n    kernel.yield\n  }\n  \
              kernel.return\n}";
    let ir = parse_ok(ok);
    assert_eq!(custom(&parse_ok(&custom(&ir))), custom(&ir));
    let e = err(
        "kernel.func @f {\n^e(%c: i1):\n  kernel.if %c {\n    %x = kernel.lane_id : i32\n    \
         kernel.yield\n  } else {\n    kernel.yield\n  }\n  kernel.store %x, %x, %x : !kernel.ptr<global, i32>, i32\n}",
    );
    assert_eq!(e.message, "use of undefined value `%x`");
}
