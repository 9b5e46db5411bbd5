//! The checker's unit tests: side tables, literal typing, every diagnostic.

use super::*;
use crate::parse::parse;

fn run(src: &str) -> Result<(Module, Checked), Vec<String>> {
    let f = SourceFile::new("t.k", src);
    let m = parse(&f).map_err(|d| d.iter().map(|d| d.short(&f)).collect::<Vec<_>>())?;
    let c = check(&f, &m).map_err(|d| d.iter().map(|d| d.short(&f)).collect::<Vec<_>>())?;
    Ok((m, c))
}

/// Errors for a kernel body (wrapped in a kernel with a few parameters;
/// the body starts on line 2, column 1).
fn errs(body: &str) -> Vec<String> {
    let src =
        format!("kernel k(out: ptr<global, i32>, n: i32, f: ptr<global, f32>) {{\n{body}\n}}\n");
    match run(&src) {
        Ok(_) => Vec::new(),
        Err(e) => e,
    }
}

#[test]
fn examples_parse_and_check() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("examples dir") {
        let path = entry.expect("dir entry").path();
        if path.extension().is_some_and(|e| e == "k") {
            let text = std::fs::read_to_string(&path).expect("read example");
            let f = SourceFile::new(path.display().to_string(), text);
            let m = parse(&f).unwrap_or_else(|d| panic!("{}", crate::diag::render(&f, &d, false)));
            check(&f, &m).unwrap_or_else(|d| panic!("{}", crate::diag::render(&f, &d, false)));
            count += 1;
        }
    }
    assert!(count >= 14, "only {count} examples found");
}

#[test]
fn side_tables() {
    let (m, c) = run(
        "kernel k(p: ptr<global, u64>) {\n  let e = convergence_entry();\n  \
         loop heart h(e) { let b = ballot(true) @ h; p[0] = b + 1; break; }\n}\n",
    )
    .unwrap();
    let k = &m.kernels[0];
    assert!(c.kernels[0].explicit_tokens);
    let StmtKind::Loop {
        heart: Some(h),
        body,
    } = &k.body.stmts[1].kind
    else {
        panic!("not a loop")
    };
    let hb = c.decl(&h.name).unwrap();
    let e = c.decl(match &k.body.stmts[0].kind {
        StmtKind::Let { name, .. } => name,
        _ => panic!(),
    });
    assert_eq!(
        c.binding(hb).kind,
        BindingKind::Heart { parent: e.unwrap() }
    );
    let StmtKind::Let { init, .. } = &body.stmts[0].kind else {
        panic!()
    };
    assert_eq!(c.builtin(init), Some(Builtin::Ballot));
    assert_eq!(c.call_token(init), Some(hb));
    assert_eq!(c.type_of(init), Some(Type::U64));
    let StmtKind::Assign { value, .. } = &body.stmts[1].kind else {
        panic!()
    };
    let ExprKind::Binary { lhs, rhs, .. } = &value.kind else {
        panic!()
    };
    assert_eq!(
        c.type_of(rhs),
        Some(Type::U64),
        "literal typed from context"
    );
    assert_eq!(c.binding(c.use_of(lhs).unwrap()).name, "b");
}

#[test]
fn literal_typing() {
    assert_eq!(
        errs("var x: u64 = 1 << 40; let y = -2147483648; let z: u32 = 0xFFFF_FFFF;"),
        Vec::<String>::new()
    );
    assert_eq!(
        errs("let a = workitem_id(x) as u32; let b = 3 + a; let c = min(1, b);"),
        Vec::<String>::new()
    );
}

#[test]
fn diagnostics() {
    let cases: &[(&str, &str)] = &[
        ("let a = b;", "2:9: undefined name `b`"),
        (
            "let a = 1; a = 2;",
            "2:12: cannot assign to immutable binding `a`",
        ),
        ("n = 2;", "2:1: cannot assign to immutable binding `n`"),
        (
            "for i in 0..n { i += 1; }",
            "2:17: cannot assign to immutable binding `i`",
        ),
        (
            "let a: i32 = 1.5;",
            "2:14: mismatched types: expected `i32`, found `f32`",
        ),
        (
            "let a = 1 + 1.5;",
            "2:9: mismatched operand types for `+`: `i32` and `f32`",
        ),
        (
            "if n { }",
            "2:4: `if` condition must be `bool`, found `i32`",
        ),
        (
            "while 1 { }",
            "2:7: `while` condition must be `bool`, found `i32`",
        ),
        (
            "let a = n[0];",
            "2:9: cannot index into a value of type `i32`",
        ),
        (
            "let a = out[1.5];",
            "2:13: index must be an integer, found `f32`",
        ),
        (
            "let a = ballot(1 == 1, 2);",
            "2:9: `ballot` takes 1 argument but 2 were supplied",
        ),
        (
            "let a = ballot(n);",
            "2:16: mismatched types: expected `bool`, found `i32`",
        ),
        ("let a = foo(1);", "2:9: unknown function `foo`"),
        ("break;", "2:1: `break` outside of a loop"),
        ("continue;", "2:1: `continue` outside of a loop"),
        (
            "if true { shared t: [i32; 4]; }",
            "2:11: `shared` arrays must be declared at kernel top level",
        ),
        (
            "let a: i32 = 3000000000;",
            "2:14: integer literal `3000000000` is out of range for `i32`",
        ),
        (
            "let a: u32 = -1;",
            "2:14: integer literal `-1` is out of range for `u32`",
        ),
        (
            "let a = 1.5 % 2.0;",
            "2:9: operator `%` cannot be applied to type `f32`",
        ),
        (
            "let a = !n;",
            "2:9: operator `!` cannot be applied to type `i32`",
        ),
        ("let a = 1.5 as bool;", "2:9: cannot cast `f32` to `bool`"),
        ("let a = true as f32;", "2:9: cannot cast `bool` to `f32`"),
        (
            "let a = out as u64;",
            "2:9: cannot cast `ptr<global, i32>` to `u64`",
        ),
        (
            "let a = barrier();",
            "2:9: `barrier()` does not return a value",
        ),
        (
            "n + 1;",
            "2:1: only calls can be used as expression statements",
        ),
        ("1 + 1 = 2;", "2:1: invalid left-hand side of assignment"),
        (
            "let a = &n;",
            "2:10: can only take the address of an element `p[i]`",
        ),
        (
            "let a = atomic_add(n, 1);",
            "2:20: first argument of `atomic_add` must be a pointer, found `i32`",
        ),
        (
            "let a = atomic_min(&f[0], 1.0);",
            "2:20: `atomic_min` does not support element type `f32`",
        ),
        (
            "let a = min(n, 1.0);",
            "2:13: mismatched argument types for `min`: `i32` and `f32`",
        ),
        (
            "let a = workitem_id(w);",
            "2:21: `workitem_id` expects a dimension `x`, `y` or `z`",
        ),
        (
            "for i in 0..1.5 { }",
            "2:13: `for` range bounds must be integers, found `f32`",
        ),
        (
            "for i in n..(n as u32) { }",
            "2:10: `for` range bounds have different types: `i32` and `u32`",
        ),
        (
            "shared t: [bool; 4];",
            "2:12: shared array element type cannot be `bool`",
        ),
        (
            "shared t: [i32; 20000];",
            "2:17: kernel `k` uses more than 65536 bytes of shared memory",
        ),
        // 4 + 65532 = 65536 bytes, but `u` starts at offset 8: its end is 65540.
        (
            "shared t: [i32; 1]; shared u: [i32; 16383];",
            "2:37: kernel `k` uses more than 65536 bytes of shared memory",
        ),
        // No wrap-around in the byte count.
        (
            "shared t: [i64; 2305843009213693952];",
            "2:17: kernel `k` uses more than 65536 bytes of shared memory",
        ),
        // Pointer variables: `!kernel.var<T>` holds a scalar.
        ("var p = out;", "2:5: a pointer cannot be stored in a `var`"),
        (
            "var p = &out[n];",
            "2:5: a pointer cannot be stored in a `var`",
        ),
        (
            "shared t: [i32; 4]; var p: ptr<shared, i32> = t;",
            "2:25: a pointer cannot be stored in a `var`",
        ),
        // Tokens.
        (
            "var t = convergence_entry();",
            "2:5: a convergence token cannot be stored in a `var`",
        ),
        (
            "let t = convergence_anchor(); let u = t;",
            "2:39: convergence token `t` cannot be used as a value",
        ),
        (
            "let a = atomic_add(&out[0], 1) @ t;",
            "2:34: `@` can only be attached to a convergent operation",
        ),
        (
            "let a = ballot(true) @ n;",
            "2:24: `n` is not a convergence token",
        ),
        (
            "loop heart h(n) { break; }",
            "2:14: heart parent `n` is not a convergence token",
        ),
        ("barrier() @ t;", "2:13: undefined name `t`"),
        (
            "if true { let e = convergence_entry(); }",
            "2:19: `convergence_entry()` must be at kernel top level",
        ),
        (
            "barrier(); let e = convergence_entry();",
            "2:20: `convergence_entry()` must come before any other convergent operation",
        ),
        (
            "let e = convergence_entry(); let f = convergence_entry();",
            "2:38: `convergence_entry()` is used more than once in kernel `k`",
        ),
        (
            "let e = convergence_entry(); barrier() @ e; barrier();",
            "2:45: cannot mix controlled and uncontrolled convergent operations",
        ),
        (
            "let e = convergence_entry(); loop { barrier() @ e; break; }",
            "2:49: convergence token `e` cannot be used inside a loop it is defined outside of",
        ),
        (
            "let a = ballot(convergence_anchor() == 1);",
            "2:16: `convergence_anchor()` must be bound directly with `let`",
        ),
    ];
    let mut failures = Vec::new();
    for (body, want) in cases {
        let got = errs(body);
        // Exactly one error each: no cascades.
        if got != [*want] {
            failures.push(format!("{body}\n  want {want}\n  got  {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn duplicates_and_params() {
    assert_eq!(
        run("kernel a() {}\nkernel a() {}\n").unwrap_err(),
        vec!["2:8: kernel `a` is defined more than once"]
    );
    assert_eq!(
        run("kernel a(x: i32, x: i32) {}").unwrap_err(),
        vec!["1:18: parameter `x` is declared more than once"]
    );
    assert_eq!(
        run("kernel a(t: token) {}").unwrap_err(),
        vec!["1:13: kernel parameters cannot have type `token`"]
    );
    assert_eq!(
        run("kernel a(p: ptr<global, bool>) {}").unwrap_err(),
        vec!["1:13: pointer element type cannot be `bool`"]
    );
}

#[test]
fn several_errors_without_cascades() {
    let e = errs("let a = b + 1;\nlet c = a * 2.0;\nlet d: bool = 1;\n");
    assert_eq!(
        e,
        vec![
            "2:9: undefined name `b`",
            "4:15: mismatched types: expected `bool`, found `i32`",
        ]
    );
}

#[test]
fn immutable_note_points_at_declaration() {
    let f = SourceFile::new("t.k", "kernel k() {\n  let x = 1;\n  x = 2;\n}\n");
    let m = parse(&f).unwrap();
    let d = check(&f, &m).unwrap_err();
    let text = crate::diag::render(&f, &d, false);
    assert!(text.contains("t.k:3:3"), "{text}");
    assert!(
        text.contains("`x` is declared here as a `let` binding"),
        "{text}"
    );
}
