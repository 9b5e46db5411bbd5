//! The `kc` command.

// mimalloc: kc allocates and frees many small IR records; glibc's allocator spends a fifth of
// a large compile in malloc/free and spreads the records over more cache lines.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(kc_compiler::driver::main());
}
