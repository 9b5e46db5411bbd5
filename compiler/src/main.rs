//! The `kc` command.

// mimalloc: kc allocates and frees many small IR records; glibc's allocator spends a fifth of
// a large compile in malloc/free and spreads the records over more cache lines.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    // `--verify-with-mlir` and upstream MLIR input need MLIR, linked only into this binary
    // (never into the library the test binaries use) and only with the `mlir` feature.
    #[cfg(feature = "mlir")]
    let mlir: Option<kc_compiler::pipeline::MlirVerifier> = {
        kc_compiler::pipeline::register_mlir_importer(kc_mlir::import::import);
        Some(kc_mlir::verify)
    };
    #[cfg(not(feature = "mlir"))]
    let mlir = None;
    std::process::exit(kc_compiler::driver::main_with(mlir));
}
