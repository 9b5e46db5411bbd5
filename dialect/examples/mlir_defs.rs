//! Writes kc's dialect definitions for MLIR, generated from the op registry, into a directory:
//! `kc.irdl.mlir` (IRDL) and `KcDialects.td` (ODS). `cargo run -p kc-dialect --example
//! mlir_defs -- dialect/mlir` refreshes the committed copies.

use kc_dialect::registry::mlir_defs;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(dir) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: mlir_defs DIR");
        return ExitCode::from(2);
    };
    for (name, text) in [
        ("kc.irdl.mlir", mlir_defs::irdl()),
        ("KcDialects.td", mlir_defs::ods()),
    ] {
        let path = dir.join(name);
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        println!("wrote {}", path.display());
    }
    ExitCode::SUCCESS
}
