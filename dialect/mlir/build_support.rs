// Building kc's dialects for MLIR from the committed definitions: mlir-tblgen-22 on
// KcDialects.td, then the C++ sources. Included (`#[path]`) by the filetest harness, which
// links an `mlir-opt` plugin from them, and by compiler/build.rs, which compiles them into kc
// for `--verify-with-mlir`; one list of generator runs and sources for both.
//
// Std only: it runs inside a build script and the test harness.

#[allow(dead_code)]
pub mod mlir_build {
    use std::path::{Path, PathBuf};
    use std::process::Command;

    /// The C++ translation units (one per dialect: two dialects' generated definitions clash
    /// in one file; then registration), under `dialect/mlir/`.
    pub const SOURCES: &[&str] = &["kc_conv.cpp", "kc_kernel.cpp", "kc_dialects.cpp"];
    /// Every input whose change means a rebuild.
    pub const INPUTS: &[&str] = &[
        "KcDialects.td",
        "kc_dialects.h",
        "kc_conv.cpp",
        "kc_kernel.cpp",
        "kc_dialects.cpp",
    ];

    /// mlir-tblgen's runs: output file and generator arguments (kc_dialects.h lists them).
    pub fn tblgen_runs() -> Vec<(String, Vec<String>)> {
        let mut runs = Vec::new();
        for (dialect, title) in [("conv", "Conv"), ("kernel", "Kernel")] {
            let ops = format!("-op-include-regex=^{dialect}\\.");
            for (file, args) in [
                (
                    "Dialect.h.inc",
                    vec!["-gen-dialect-decls".into(), format!("-dialect={dialect}")],
                ),
                (
                    "Dialect.cpp.inc",
                    vec!["-gen-dialect-defs".into(), format!("-dialect={dialect}")],
                ),
                (
                    "Types.h.inc",
                    vec![
                        "-gen-typedef-decls".into(),
                        format!("-typedefs-dialect={dialect}"),
                    ],
                ),
                (
                    "Types.cpp.inc",
                    vec![
                        "-gen-typedef-defs".into(),
                        format!("-typedefs-dialect={dialect}"),
                    ],
                ),
                ("Ops.h.inc", vec!["-gen-op-decls".into(), ops.clone()]),
                ("Ops.cpp.inc", vec!["-gen-op-defs".into(), ops.clone()]),
            ] {
                runs.push((format!("{title}{file}"), args));
            }
        }
        runs
    }

    /// The LLVM 22 installation: `$KC_LLVM_PREFIX`, `$TABLEGEN_220_PREFIX`,
    /// `$MLIR_SYS_220_PREFIX`, `llvm-config-22 --prefix`, else `/usr/lib/llvm-22`.
    pub fn llvm_prefix() -> PathBuf {
        for var in [
            "KC_LLVM_PREFIX",
            "TABLEGEN_220_PREFIX",
            "MLIR_SYS_220_PREFIX",
        ] {
            if let Some(p) = std::env::var_os(var).filter(|p| !p.is_empty()) {
                return PathBuf::from(p);
            }
        }
        Command::new("llvm-config-22")
            .arg("--prefix")
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
            .unwrap_or_else(|| PathBuf::from("/usr/lib/llvm-22"))
    }

    fn run(cmd: &mut Command) -> Result<(), String> {
        let out = cmd
            .output()
            .map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
        if out.status.success() {
            return Ok(());
        }
        let err = String::from_utf8_lossy(&out.stderr);
        let first: Vec<&str> = err.lines().take(20).collect();
        Err(format!(
            "{cmd:?} failed ({}):\n{}",
            out.status,
            first.join("\n")
        ))
    }

    /// Runs mlir-tblgen on `defs/KcDialects.td`, writing the headers into `out`.
    pub fn tblgen(prefix: &Path, defs: &Path, out: &Path) -> Result<(), String> {
        std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
        let tool = prefix.join("bin").join("mlir-tblgen");
        for (file, args) in tblgen_runs() {
            run(Command::new(&tool)
                .args(&args)
                .arg(format!("-I{}", prefix.join("include").display()))
                .arg(defs.join("KcDialects.td"))
                .arg("-o")
                .arg(out.join(file)))?;
        }
        Ok(())
    }

    /// Is `target` newer than every input under `defs`?
    pub fn up_to_date(defs: &Path, target: &Path) -> bool {
        let modified = |p: &Path| p.metadata().and_then(|m| m.modified()).ok();
        let Some(built) = modified(target) else {
            return false;
        };
        INPUTS
            .iter()
            .all(|i| modified(&defs.join(i)).is_some_and(|t| t <= built))
    }

    /// Builds the `mlir-opt` plugin `out/libkc_mlir_plugin.so` (linked against libMLIR.so),
    /// unless it is newer than its inputs; returns its path.
    pub fn build_plugin(prefix: &Path, defs: &Path, out: &Path) -> Result<PathBuf, String> {
        let lib = out.join("libkc_mlir_plugin.so");
        if up_to_date(defs, &lib) {
            return Ok(lib);
        }
        let generated = out.join("include");
        tblgen(prefix, defs, &generated)?;
        let clang = prefix.join("bin").join("clang++");
        // The units compile in parallel: each takes seconds.
        let objects: Vec<PathBuf> = SOURCES
            .iter()
            .map(|s| out.join(s.replace(".cpp", ".o")))
            .collect();
        let results: Vec<Result<(), String>> = std::thread::scope(|scope| {
            let jobs: Vec<_> = SOURCES
                .iter()
                .zip(&objects)
                .map(|(src, obj)| {
                    let (generated, defs, prefix, clang) = (&generated, defs, prefix, &clang);
                    scope.spawn(move || {
                        run(Command::new(clang)
                            .args(["-c", "-std=c++17", "-fPIC", "-fno-rtti", "-O1", "-w"])
                            .arg(format!("-I{}", generated.display()))
                            .arg(format!("-I{}", defs.display()))
                            .arg(format!("-I{}", prefix.join("include").display()))
                            .arg(defs.join(src))
                            .arg("-o")
                            .arg(obj))
                    })
                })
                .collect();
            jobs.into_iter()
                .map(|j| {
                    j.join()
                        .unwrap_or_else(|_| Err("compiler thread panicked".into()))
                })
                .collect()
        });
        results.into_iter().collect::<Result<Vec<()>, String>>()?;
        let tmp = out.join("libkc_mlir_plugin.so.tmp");
        run(Command::new(&clang)
            .arg("-shared")
            .args(&objects)
            .arg("-o")
            .arg(&tmp)
            .arg(format!("-L{}", prefix.join("lib").display()))
            .arg(format!("-Wl,-rpath,{}", prefix.join("lib").display()))
            .arg("-lMLIR"))?;
        std::fs::rename(&tmp, &lib).map_err(|e| format!("{}: {e}", lib.display()))?;
        Ok(lib)
    }
}
