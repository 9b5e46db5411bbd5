//! Parsing LLVM's `opt -passes='print<uniformity>'` output (LLVM 22; it prints to stderr).
//!
//! Per function: `UniformityInfo for function 'NAME':`, then either `ALL VALUES UNIFORM` or
//! optional sections (`DIVERGENT ARGUMENTS:`, `CYCLES ASSUMED DIVERGENT:`, `CYCLES WITH
//! DIVERGENT EXIT:`, `TEMPORAL DIVERGENCE LIST:`) followed by one `BLOCK label` ...
//! `END BLOCK` group per block, whose `DEFINITIONS` and `TERMINATORS` lines start with
//! `  DIVERGENT:` or blanks.

use std::collections::{HashMap, HashSet};

/// LLVM's verdicts for one function.
#[derive(Clone, Debug, Default)]
pub struct FuncVerdicts {
    pub name: String,
    /// `ALL VALUES UNIFORM` (no blocks are listed then).
    pub all_uniform: bool,
    /// Every named instruction LLVM listed: divergent or not.
    pub values: HashMap<String, bool>,
    /// Arguments listed under `DIVERGENT ARGUMENTS:` (the others are uniform).
    pub divergent_args: HashSet<String>,
    /// Every block: is its terminator divergent, and its text.
    pub terminators: HashMap<String, (bool, String)>,
    pub assumed_divergent: Vec<String>,
    pub divergent_exit: Vec<String>,
    pub temporal: Vec<Temporal>,
    /// The function's section of the output, for reports.
    pub text: String,
}

/// One entry of the `TEMPORAL DIVERGENCE LIST`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Temporal {
    /// The value defined in the cycle (its name, without `%`).
    pub value: String,
    /// The user's name, if it has one (a store does not).
    pub user: Option<String>,
    /// The user's text.
    pub user_text: String,
    /// The cycle, as `print<cycles>` prints it.
    pub cycle: String,
}

impl FuncVerdicts {
    /// LLVM's verdict on value `name` (without `%`): `None` if LLVM did not list it.
    pub fn value(&self, name: &str) -> Option<bool> {
        if self.all_uniform {
            return Some(false);
        }
        self.values.get(name).copied()
    }

    /// LLVM's verdict on function argument `name` (without `%`): arguments are listed only
    /// when divergent.
    pub fn argument(&self, name: &str) -> bool {
        self.divergent_args.contains(name)
    }

    /// LLVM's verdict on the terminator of block `label`.
    pub fn terminator(&self, label: &str) -> Option<bool> {
        if self.all_uniform {
            return Some(false);
        }
        self.terminators.get(label).map(|t| t.0)
    }
}

/// The name an instruction line defines (`%x = ...`), without `%`.
fn defined_name(line: &str) -> Option<String> {
    let rest = line.strip_prefix('%')?;
    let (name, _) = rest.split_once(" = ")?;
    Some(name.trim_matches('"').to_string())
}

/// Parses the whole output (all functions), keyed by function name.
pub fn parse(output: &str) -> Result<HashMap<String, FuncVerdicts>, String> {
    #[derive(PartialEq)]
    enum Mode {
        None,
        Args,
        Assumed,
        Exit,
        Temporal,
        Defs,
        Terms,
    }
    let mut funcs = HashMap::new();
    let mut cur: Option<FuncVerdicts> = None;
    let mut mode = Mode::None;
    let mut block = String::new();
    let mut pending = Temporal::default();
    for line in output.lines() {
        if let Some(rest) = line.strip_prefix("UniformityInfo for function '") {
            if let Some(f) = cur.take() {
                funcs.insert(f.name.clone(), f);
            }
            let name = rest
                .strip_suffix("':")
                .ok_or_else(|| format!("bad line: {line}"))?;
            cur = Some(FuncVerdicts {
                name: name.to_string(),
                ..FuncVerdicts::default()
            });
            mode = Mode::None;
        }
        let Some(f) = cur.as_mut() else { continue };
        f.text.push_str(line);
        f.text.push('\n');
        let t = line.trim();
        match t {
            "ALL VALUES UNIFORM" => {
                f.all_uniform = true;
                continue;
            }
            "DIVERGENT ARGUMENTS:" => {
                mode = Mode::Args;
                continue;
            }
            "CYCLES ASSUMED DIVERGENT:" => {
                mode = Mode::Assumed;
                continue;
            }
            "CYCLES WITH DIVERGENT EXIT:" => {
                mode = Mode::Exit;
                continue;
            }
            "TEMPORAL DIVERGENCE LIST:" => {
                mode = Mode::Temporal;
                continue;
            }
            "DEFINITIONS" => {
                mode = Mode::Defs;
                continue;
            }
            "TERMINATORS" => {
                mode = Mode::Terms;
                continue;
            }
            "END BLOCK" => {
                mode = Mode::None;
                continue;
            }
            _ => {}
        }
        if let Some(label) = t.strip_prefix("BLOCK ") {
            block = label.to_string();
            mode = Mode::None;
            continue;
        }
        if t.is_empty() || t.starts_with("UniformityInfo") {
            continue;
        }
        let (divergent, body) = match t.strip_prefix("DIVERGENT:") {
            Some(rest) => (true, rest.trim()),
            None => (false, t),
        };
        match mode {
            Mode::Args => {
                // `  DIVERGENT: i32 %a`
                if let Some(a) = body
                    .split_whitespace()
                    .last()
                    .and_then(|a| a.strip_prefix('%'))
                {
                    f.divergent_args.insert(a.trim_matches('"').to_string());
                }
            }
            Mode::Assumed => f.assumed_divergent.push(body.to_string()),
            Mode::Exit => f.divergent_exit.push(body.to_string()),
            Mode::Temporal => {
                let (key, val) = t
                    .split_once(':')
                    .ok_or_else(|| format!("bad temporal line: {line}"))?;
                let val = val.trim();
                match key.trim() {
                    "Value" => {
                        pending = Temporal::default();
                        pending.value = defined_name(val).unwrap_or_else(|| val.to_string());
                    }
                    "Used by" => {
                        pending.user = defined_name(val);
                        pending.user_text = val.to_string();
                    }
                    "Outside cycle" => {
                        pending.cycle = val.to_string();
                        f.temporal.push(std::mem::take(&mut pending));
                    }
                    _ => return Err(format!("bad temporal line: {line}")),
                }
            }
            Mode::Defs => {
                if let Some(name) = defined_name(body) {
                    f.values.insert(name, divergent);
                }
            }
            Mode::Terms => {
                f.terminators
                    .insert(block.clone(), (divergent, body.to_string()));
            }
            Mode::None => {
                return Err(format!(
                    "unexpected line in print<uniformity> output: {line}"
                ))
            }
        }
    }
    if let Some(f) = cur.take() {
        funcs.insert(f.name.clone(), f);
    }
    Ok(funcs)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\
UniformityInfo for function 'f':
CYCLES WITH DIVERGENT EXIT:
  depth=1: entries(h) l

TEMPORAL DIVERGENCE LIST:
Value         :  %s = phi i32 [ 0, %e ], [ %t, %l ]
Used by       :  store i32 %s, ptr addrspace(1) %p, align 4
Outside cycle :depth=1: entries(h) l


BLOCK h
DEFINITIONS
               %s = phi i32 [ 0, %e ], [ %t, %l ]
  DIVERGENT:   %.0 = icmp sge i32 %s, %tid
TERMINATORS
  DIVERGENT:   br i1 %.0, label %x, label %l
END BLOCK

UniformityInfo for function 'h':
DIVERGENT ARGUMENTS:
  DIVERGENT: ptr addrspace(1) %p

BLOCK entry
DEFINITIONS
TERMINATORS
               ret void
END BLOCK

UniformityInfo for function 'g':
ALL VALUES UNIFORM
";

    #[test]
    fn parses_sections() {
        let m = parse(SAMPLE).unwrap();
        let f = &m["f"];
        assert_eq!(f.value("s"), Some(false));
        assert_eq!(f.value(".0"), Some(true));
        assert_eq!(f.value("nope"), None);
        assert_eq!(f.terminator("h"), Some(true));
        assert_eq!(f.divergent_exit, vec!["depth=1: entries(h) l".to_string()]);
        assert_eq!(f.temporal.len(), 1);
        assert_eq!(f.temporal[0].value, "s");
        assert_eq!(f.temporal[0].user, None);
        assert!(m["h"].argument("p"));
        assert!(!m["h"].argument("q"));
        assert!(m["g"].all_uniform);
        assert_eq!(m["g"].value("anything"), Some(false));
    }
}
