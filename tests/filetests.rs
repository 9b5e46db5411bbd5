//! `cargo test -p kc-tests --test filetests [-- FILTER...]`: runs every file
//! under `tests/filetests/`. See `kc_tests::harness` for the format.

use std::process::ExitCode;

fn main() -> ExitCode {
    kc_tests::harness::main()
}
