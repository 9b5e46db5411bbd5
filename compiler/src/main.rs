//! The `kc` command.

fn main() {
    std::process::exit(kc_compiler::driver::main());
}
