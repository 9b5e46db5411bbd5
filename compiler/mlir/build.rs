//! Compiles kc's dialects for MLIR into this crate: mlir-tblgen-22 on the committed
//! `dialect/mlir/KcDialects.td` (generated from kc's op registry), then the C++ units of
//! `dialect/mlir/` with the `cc` crate, linked statically with MLIR (mlir-sys links MLIR).

#[cfg(feature = "mlir")]
#[path = "../../dialect/mlir/build_support.rs"]
mod build_support;

#[cfg(not(feature = "mlir"))]
fn main() {}

#[cfg(feature = "mlir")]
fn main() {
    use build_support::mlir_build;
    use std::path::PathBuf;
    for var in [
        "KC_LLVM_PREFIX",
        "TABLEGEN_220_PREFIX",
        "MLIR_SYS_220_PREFIX",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    let defs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../dialect/mlir");
    for input in mlir_build::INPUTS {
        println!("cargo:rerun-if-changed={}", defs.join(input).display());
    }
    let prefix = mlir_build::llvm_prefix();
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let generated = out.join("include");
    if let Err(e) = mlir_build::tblgen(&prefix, &defs, &generated) {
        panic!("generating kc's dialects with mlir-tblgen failed: {e}");
    }
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .flag("-fno-rtti")
        .flag_if_supported("-Wno-unused-parameter")
        .warnings(false)
        .include(&generated)
        .include(&defs)
        .include(prefix.join("include"));
    // LLVM 22's clang++ matches the headers; the system c++ may be older.
    let clang = prefix.join("bin").join("clang++");
    if clang.exists() && std::env::var_os("CXX").is_none() {
        build.compiler(clang);
    }
    for src in mlir_build::SOURCES {
        build.file(defs.join(src));
    }
    build.compile("kc_mlir_dialects");
}
