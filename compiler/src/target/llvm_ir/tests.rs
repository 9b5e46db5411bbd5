use super::*;

#[test]
fn value_names() {
    assert_eq!(llvm_value_name("12"), ".12");
    assert_eq!(llvm_value_name("tid"), "tid");
    assert_eq!(llvm_value_name("x_1"), "x_1");
}

#[test]
fn float_literals() {
    assert_eq!(float_literal(1.0), "1.0");
    assert_eq!(float_literal(0.5), "0.5");
    assert_eq!(float_literal(1e30), "1.0000000150474662e30");
    assert_eq!(float_literal(1e-7), "1.0000000116860974e-7");
    assert_eq!(float_literal(-0.0), "-0.0");
    assert_eq!(float_literal(f32::INFINITY), "0x7FF0000000000000");
    assert_eq!(float_literal(f32::NEG_INFINITY), "0xFFF0000000000000");
    assert_eq!(float_literal(f32::NAN), "0x7FF8000000000000");
}

fn emit(text: &str) -> Result<String, String> {
    let ir = kc_dialect::text::parse(text, "t.mlir").expect("test IR parses");
    emit_llvm(&ir)
}

#[test]
fn kernels_without_tokens_get_no_bundles() {
    // The driver always inserts tokens; emit_llvm itself accepts token-free kernels.
    let out = emit(
        "kernel.func @k {\n\
         ^entry(%out: !kernel.ptr<global, i64>, %c: i1):\n\
           %b = kernel.ballot %c : i64\n\
           kernel.barrier\n\
           %r = kernel.reduce umax, %b : i64\n\
           %zero = arith.constant 0 : i32\n\
           kernel.store %r, %out, %zero : !kernel.ptr<global, i64>, i32\n\
           kernel.return\n\
         }\n",
    )
    .unwrap();
    assert!(!out.contains("convergencectrl"), "{out}");
    assert!(
        out.contains("%b = call i64 @llvm.amdgcn.ballot.i64(i1 %c)\n"),
        "{out}"
    );
    assert!(
        out.contains("%r.reduce = call i64 @llvm.amdgcn.wave.reduce.umax.i64(i64 %b, i32 0)\n"),
        "{out}"
    );
    assert!(out.contains("%r = call i64 @llvm.amdgcn.readfirstlane.i64(i64 %r.reduce)\n"));
    assert!(
        out.contains("call void @llvm.amdgcn.s.barrier()\n"),
        "{out}"
    );
}

#[test]
fn structured_input_is_rejected() {
    let err = emit(
        "kernel.func @k {\n\
         ^entry(%c: i1):\n\
           kernel.if %c {\n  kernel.yield\n} else {\n  kernel.yield\n}\n\
           kernel.return\n\
         }\n",
    )
    .unwrap_err();
    assert!(
        err.contains("kernel @k") && err.contains("not in CF form"),
        "{err}"
    );
}

#[test]
fn name_collisions_are_resolved() {
    // IR input naming a value `.1` next to an unnamed (printed `%1`) value, and a block
    // named like a value.
    let text = "kernel.func @k {\n\
         ^x(%out: !kernel.ptr<global, i32>, %a: i32):\n\
           %0 = arith.addi %a, %a : i32\n\
           %.1 = arith.addi %0, %a : i32\n\
           %1 = arith.addi %.1, %a : i32\n\
           kernel.store %1, %out, %a : !kernel.ptr<global, i32>, i32\n\
           kernel.return\n\
         }\n";
    let ir = kc_dialect::text::parse(text, "t.mlir").unwrap();
    let f = ir.kernels()[0];
    let names = llvm_names(&ir, f);
    let kc_values = kc_dialect::text::names(&ir, f).values;
    let mut by_kc: Vec<(String, String)> = Vec::new();
    let mut vals = Vec::new();
    let mut blks = Vec::new();
    collect(&ir, f, &mut vals, &mut blks);
    for v in vals {
        by_kc.push((kc_values[v].clone(), names.values[v].clone()));
    }
    let get = |k: &str| by_kc.iter().find(|(a, _)| a == k).unwrap().1.clone();
    assert_eq!(get("0"), ".0");
    assert_eq!(get(".1"), ".1");
    assert_eq!(get("1"), ".1.1");
    assert_eq!(names.blocks[blks[0]], "x");
    let out = emit_llvm(&ir).unwrap();
    assert!(out.contains("%.1.1 = add i32 %.1, %a\n"), "{out}");
}

#[test]
fn block_label_colliding_with_a_value() {
    let out = emit(
        "kernel.func @k {\n\
         ^entry(%entry: i32):\n\
           kernel.return\n\
         }\n",
    )
    .unwrap();
    assert!(out.contains("@k(i32 %entry) #0 {\nentry.bb:\n"), "{out}");
}

#[test]
fn kernel_attributes_name_the_target_cpu() {
    assert!(ATTRIBUTE_GROUPS[0].contains(&format!("\"target-cpu\"=\"{TARGET_CPU}\"")));
}

#[test]
fn global_idents() {
    assert_eq!(global_ident("k"), "@k");
    assert_eq!(global_ident("k.tile"), "@k.tile");
    assert_eq!(global_ident("1k"), "@\"1k\"");
    assert_eq!(global_ident("a b\"c"), "@\"a b\\22c\"");
}
