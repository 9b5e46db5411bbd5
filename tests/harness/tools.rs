//! Locating the external tools (LLVM 22) and the `kc` binary, and the
//! `%`-substitutions applied to RUN lines.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Searches `$PATH` for an executable called `name`.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = env::var_os("PATH")?;
    env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// An external tool: its name in messages, the env var that overrides it and
/// the candidates tried in order (absolute paths or names looked up in PATH).
struct ToolSpec {
    name: &'static str,
    env_var: &'static str,
    candidates: &'static [&'static str],
    package: &'static str,
}

const FILECHECK: ToolSpec = ToolSpec {
    name: "FileCheck",
    env_var: "KC_FILECHECK",
    candidates: &["/usr/lib/llvm-22/bin/FileCheck", "FileCheck-22"],
    package: "llvm-22-tools",
};
const MLIR_OPT: ToolSpec = ToolSpec {
    name: "mlir-opt",
    env_var: "KC_MLIR_OPT",
    candidates: &["mlir-opt-22", "/usr/lib/llvm-22/bin/mlir-opt"],
    package: "mlir-22-tools",
};
const LLVM_MC: ToolSpec = ToolSpec {
    name: "llvm-mc",
    env_var: "KC_LLVM_MC",
    candidates: &["llvm-mc-22", "/usr/lib/llvm-22/bin/llvm-mc"],
    package: "llvm-22",
};
const OPT: ToolSpec = ToolSpec {
    name: "opt",
    env_var: "KC_OPT",
    candidates: &["opt-22", "/usr/lib/llvm-22/bin/opt"],
    package: "llvm-22",
};
const LLC: ToolSpec = ToolSpec {
    name: "llc",
    env_var: "KC_LLC",
    candidates: &["llc-22", "/usr/lib/llvm-22/bin/llc"],
    package: "llvm-22",
};
const CLANG: ToolSpec = ToolSpec {
    name: "clang",
    env_var: "KC_CLANG",
    candidates: &["clang-22", "/usr/lib/llvm-22/bin/clang"],
    package: "clang-22",
};

impl ToolSpec {
    /// Finds the tool, or explains why not.
    fn locate(&self) -> Result<PathBuf, String> {
        if let Some(v) = env::var_os(self.env_var) {
            let p = PathBuf::from(&v);
            let found = if p.components().count() > 1 {
                Some(p.clone()).filter(|p| is_executable(p))
            } else {
                which(&p.to_string_lossy())
            };
            return found.ok_or_else(|| {
                format!(
                    "{}={} does not name an executable",
                    self.env_var,
                    p.display()
                )
            });
        }
        for c in self.candidates {
            let p = Path::new(c);
            if p.is_absolute() {
                if is_executable(p) {
                    return Ok(p.to_path_buf());
                }
            } else if let Some(p) = which(c) {
                return Ok(p);
            }
        }
        Err(format!(
            "{} not found (tried {}; install the Debian package {} or set {})",
            self.name,
            self.candidates.join(", "),
            self.package,
            self.env_var
        ))
    }
}

/// LLVM 22's `llvm-mc` (`$KC_LLVM_MC`, `llvm-mc-22`, `/usr/lib/llvm-22/bin/llvm-mc`), or why
/// not found.
pub fn locate_llvm_mc() -> Result<PathBuf, String> {
    LLVM_MC.locate()
}

/// Assembles a gfx942 listing with `mc` into an object that is thrown away: `Err` with the
/// first lines of llvm-mc's output on any error or warning.
pub fn assemble_gfx942(mc: &Path, listing: &str) -> Result<(), String> {
    assemble_gfx942_to(mc, listing, Path::new("/dev/null"))
}

/// Assembles a gfx942 listing into the object file `object`: `Err` with the first lines of
/// llvm-mc's output on any error or warning.
pub fn assemble_gfx942_to(mc: &Path, listing: &str, object: &Path) -> Result<(), String> {
    use std::io::Write as _;
    use std::process::Stdio;
    let mut child = Command::new(mc)
        .args([
            "-triple=amdgcn-amd-amdhsa",
            "-mcpu=gfx942",
            "-filetype=obj",
            "-o",
        ])
        .arg(object)
        .arg("-")
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", mc.display()))?;
    // A write error means llvm-mc exited early; its status and stderr say why.
    let _ = child
        .stdin
        .take()
        .map(|mut i| i.write_all(listing.as_bytes()));
    let out = child
        .wait_with_output()
        .map_err(|e| format!("cannot run {}: {e}", mc.display()))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() || !stderr.trim().is_empty() {
        let first: Vec<&str> = stderr.lines().take(4).collect();
        return Err(format!("llvm-mc: {}", first.join(" | ")));
    }
    Ok(())
}

/// MLIR 22's `mlir-opt` (`$KC_MLIR_OPT`, `mlir-opt-22`, `/usr/lib/llvm-22/bin/mlir-opt`), or
/// why not found.
pub fn locate_mlir_opt() -> Result<PathBuf, String> {
    MLIR_OPT.locate()
}

/// LLVM 22's `opt` (`$KC_OPT`, `opt-22`, `/usr/lib/llvm-22/bin/opt`), or why not found.
pub fn locate_opt() -> Result<PathBuf, String> {
    OPT.locate()
}

/// The resolved tool paths. Optional tools keep their error message so a test
/// that uses them fails with a useful explanation.
pub struct Tools {
    pub filecheck: PathBuf,
    pub mlir_opt: Result<PathBuf, String>,
    pub llvm_mc: Result<PathBuf, String>,
    pub opt: Result<PathBuf, String>,
    pub llc: Result<PathBuf, String>,
    pub clang: Result<PathBuf, String>,
    /// The `kc` binary: `None` when no selected test uses `%kc`.
    pub kc: Option<PathBuf>,
    /// The `mlir-opt` plugin of kc's dialects (built from `dialect/mlir/` when a selected
    /// test uses `%mlir-plugin`), or why not.
    pub mlir_plugin: Result<PathBuf, String>,
}

impl Tools {
    /// Locates every tool. FileCheck is mandatory: without it no test can run.
    pub fn locate() -> Result<Tools, String> {
        Ok(Tools {
            filecheck: FILECHECK.locate()?,
            mlir_opt: MLIR_OPT.locate(),
            llvm_mc: LLVM_MC.locate(),
            opt: OPT.locate(),
            llc: LLC.locate(),
            clang: CLANG.locate(),
            kc: None,
            mlir_plugin: Err("no selected test uses %mlir-plugin".into()),
        })
    }

    /// Is the tool named in a `REQUIRES:` line available?
    pub fn has(&self, feature: &str) -> bool {
        match feature {
            "FileCheck" => true,
            "mlir-opt" => self.mlir_opt.is_ok(),
            "llvm-mc" => self.llvm_mc.is_ok(),
            "opt" => self.opt.is_ok(),
            "llc" => self.llc.is_ok(),
            "clang" => self.clang.is_ok(),
            "kc" => self.kc.is_some(),
            "mlir-plugin" => self.mlir_plugin.is_ok(),
            // kc links MLIR (`--verify-with-mlir`, upstream MLIR input): kc-tests' `mlir`
            // feature.
            "kc-mlir" => cfg!(feature = "mlir"),
            other => which(other).is_some(),
        }
    }
}

/// Where things are: the workspace, the target dir, the temp dirs.
pub struct Layout {
    pub workspace: PathBuf,
    pub target_dir: PathBuf,
    /// Cargo profile the test binary was built with (`debug`, `release`, ...).
    pub profile: String,
}

impl Layout {
    pub fn detect() -> Layout {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("kc-tests lives one level below the workspace root")
            .to_path_buf();
        let target_dir = env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .map(|p| {
                if p.is_absolute() {
                    p
                } else {
                    workspace.join(p)
                }
            })
            .unwrap_or_else(|| workspace.join("target"));
        // A test binary is `<target>/<profile>/deps/filetests-<hash>`, a binary of this crate
        // (`size-table`) `<target>/<profile>/size-table`.
        let profile = env::current_exe()
            .ok()
            .and_then(|exe| {
                let dir = exe.parent()?;
                let profile_dir = if dir.file_name()? == "deps" {
                    dir.parent()?
                } else {
                    dir
                };
                Some(profile_dir.file_name()?.to_string_lossy().into_owned())
            })
            .unwrap_or_else(|| "debug".to_string());
        Layout {
            workspace,
            target_dir,
            profile,
        }
    }

    pub fn filetests_dir(&self) -> PathBuf {
        self.workspace.join("tests").join("filetests")
    }

    pub fn tmp_root(&self) -> PathBuf {
        self.target_dir.join("filetests-tmp")
    }

    /// Returns the `kc` binary: `$KC_BIN`, or builds it with cargo (a no-op
    /// when up to date) and returns `<target>/<profile>/kc`.
    pub fn build_kc(&self, verbose: bool) -> Result<PathBuf, String> {
        if let Some(bin) = env::var_os("KC_BIN") {
            let p = PathBuf::from(bin);
            return if is_executable(&p) {
                Ok(p)
            } else {
                Err(format!("KC_BIN={} is not an executable", p.display()))
            };
        }
        let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut cmd = Command::new(&cargo);
        cmd.current_dir(&self.workspace)
            .args(["build", "-q", "-p", "kc-compiler", "--bin", "kc"]);
        // The same features as this test binary's build, so cargo does not rebuild kc
        // without them.
        if cfg!(feature = "mlir") {
            cmd.args(["--features", "kc-compiler/mlir"]);
        }
        // `target/debug` holds both the `dev` and the `test` profile.
        if self.profile != "debug" {
            cmd.args(["--profile", &self.profile]);
        }
        if verbose {
            println!("harness: building kc: {cmd:?}");
        }
        let status = cmd
            .status()
            .map_err(|e| format!("cannot run {}: {e}", Path::new(&cargo).display()))?;
        if !status.success() {
            return Err(format!("building kc failed ({status}): {cmd:?}"));
        }
        let kc = self.target_dir.join(&self.profile).join("kc");
        if !is_executable(&kc) {
            return Err(format!(
                "cargo built kc but {} does not exist (set KC_BIN to point at it)",
                kc.display()
            ));
        }
        Ok(kc)
    }

    /// Builds the `mlir-opt` plugin of kc's dialects (mlir-tblgen-22 and clang++ from the LLVM
    /// 22 prefix, on the committed `dialect/mlir/` definitions) into `<target>/mlir-plugin/`,
    /// a no-op when it is newer than its inputs.
    pub fn build_mlir_plugin(&self, verbose: bool) -> Result<PathBuf, String> {
        let prefix = mlir_build::llvm_prefix();
        let defs = self.workspace.join("dialect").join("mlir");
        let out = self.target_dir.join("mlir-plugin");
        if verbose {
            println!("harness: building the MLIR plugin in {}", out.display());
        }
        mlir_build::build_plugin(&prefix, &defs, &out)
    }
}

#[path = "../../dialect/mlir/build_support.rs"]
mod build_support;
use build_support::mlir_build;

/// Quotes `s` for bash (single quotes).
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The per-test values of the `%` substitutions.
pub struct Substitutions<'a> {
    pub tools: &'a Tools,
    pub layout: &'a Layout,
    /// The test file (absolute).
    pub source: &'a Path,
    /// The per-test temp path (`%t`); its parent (`%T`) exists.
    pub tmp: &'a Path,
}

impl Substitutions<'_> {
    /// The value of `%name`, `None` if `name` is not a substitution.
    fn value(&self, name: &str) -> Option<Result<String, String>> {
        let path = |p: &Path| Ok(p.display().to_string());
        let tool = |r: &Result<PathBuf, String>| match r {
            Ok(p) => Ok(p.display().to_string()),
            Err(e) => Err(format!("%{name}: {e}")),
        };
        Some(match name {
            "kc" => match &self.tools.kc {
                Some(p) => path(p),
                None => Err("%kc: kc binary not available".to_string()),
            },
            "s" => path(self.source),
            "S" => path(self.source.parent().unwrap_or(Path::new("/"))),
            "t" => path(self.tmp),
            "T" => path(self.tmp.parent().unwrap_or(Path::new("/"))),
            "examples" => path(&self.layout.workspace.join("examples")),
            "mlir-defs" => path(&self.layout.workspace.join("dialect").join("mlir")),
            "mlir-opt" => tool(&self.tools.mlir_opt),
            "mlir-plugin" => tool(&self.tools.mlir_plugin),
            "llvm-mc" => tool(&self.tools.llvm_mc),
            "opt" => tool(&self.tools.opt),
            "llc" => tool(&self.tools.llc),
            "clang" => tool(&self.tools.clang),
            "FileCheck" => path(&self.tools.filecheck),
            _ => return None,
        })
    }

    /// Applies the substitutions. Longest name wins (`%examples` before
    /// `%s`...); `%%` is a literal `%`; any other `%` is left alone.
    pub fn apply(&self, command: &str) -> Result<String, String> {
        const NAMES: &[&str] = &[
            "FileCheck",
            "mlir-defs",
            "mlir-opt",
            "mlir-plugin",
            "examples",
            "llvm-mc",
            "clang",
            "opt",
            "llc",
            "kc",
            "s",
            "S",
            "t",
            "T",
        ];
        let mut out = String::with_capacity(command.len());
        let mut rest = command;
        while let Some(pos) = rest.find('%') {
            out.push_str(&rest[..pos]);
            let after = &rest[pos + 1..];
            if let Some(tail) = after.strip_prefix('%') {
                out.push('%');
                rest = tail;
                continue;
            }
            match NAMES.iter().find(|n| after.starts_with(**n)) {
                Some(name) => {
                    out.push_str(&self.value(name).expect("known name")?);
                    rest = &after[name.len()..];
                }
                None => {
                    out.push('%');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn substitutions() {
        let tools = Tools {
            filecheck: "/fc".into(),
            mlir_opt: Ok("/bin/mlir-opt-22".into()),
            llvm_mc: Err("missing".into()),
            opt: Ok("/bin/opt-22".into()),
            llc: Ok("/bin/llc-22".into()),
            clang: Ok("/bin/clang-22".into()),
            kc: Some("/t/debug/kc".into()),
            mlir_plugin: Ok("/ws/target/mlir-plugin/libkc_mlir_plugin.so".into()),
        };
        let layout = Layout {
            workspace: "/ws".into(),
            target_dir: "/ws/target".into(),
            profile: "debug".into(),
        };
        let s = Substitutions {
            tools: &tools,
            layout: &layout,
            source: Path::new("/ws/tests/filetests/a/b.k"),
            tmp: Path::new("/tmp/x/b.k.tmp"),
        };
        assert_eq!(
            s.apply("%kc %s -o %t.o && ls %S %T %examples/x.k | %opt %mlir-opt 100%% %d | %llc")
                .unwrap(),
            "/t/debug/kc /ws/tests/filetests/a/b.k -o /tmp/x/b.k.tmp.o && ls \
             /ws/tests/filetests/a /tmp/x /ws/examples/x.k | /bin/opt-22 /bin/mlir-opt-22 100% %d \
             | /bin/llc-22"
        );
        assert!(s.apply("%llvm-mc x").unwrap_err().contains("missing"));
    }

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("a'b"), r"'a'\''b'");
    }
}
