//! The custom syntax of kc's own ops (`kernel`, `conv`): one description per op that drives
//! kc's printer and parser (`text/`) and the `assemblyFormat` of the ODS definitions
//! (`mlir_defs.rs`), so `mlir-opt` with kc's dialects reads and prints exactly kc's custom form.
//!
//! A description is a format in MLIR's declarative assembly format (the subset below) plus
//! the rules that give every type the format does not write ([`Infer`]). Names are those of
//! [`signature`]: `$name` is an operand, a region, or the op's keyword attribute (printed as
//! the registry's [`Keyword`] says: `x`, `@name`, `256`); `type($name)` the type of an operand
//! or result; `` `lit` `` a literal; `attr-dict` the other attributes as `{name = value}`,
//! `attr-dict-with-keyword` as `attributes {...}`; `(... $token^)?` an optional group, present
//! when its anchor (the optional trailing `!conv.token` operand) is.
//!
//! Guarantees (unit tests below): every own op has a description; its format names every
//! operand, result type (written or inferred), region and keyword attribute exactly once, and
//! every type it does not write is inferred from a written one in one step, as ODS requires.

use super::mlir_defs::{signature, Signature};
use super::{Keyword, Opcode};
use std::sync::OnceLock;

/// A type the format does not write, given by a written one (`from`) in one step.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Infer {
    /// `to` has the type of `from`.
    Same {
        to: &'static str,
        from: &'static str,
    },
    /// `to` has the element type of the pointer or variable `from`.
    Elem {
        to: &'static str,
        from: &'static str,
    },
    /// `to` is the `!kernel.var<T>` of the scalar `from`.
    VarOf {
        to: &'static str,
        from: &'static str,
    },
}

impl Infer {
    pub fn to(self) -> &'static str {
        match self {
            Infer::Same { to, .. } | Infer::Elem { to, .. } | Infer::VarOf { to, .. } => to,
        }
    }
    pub fn from(self) -> &'static str {
        match self {
            Infer::Same { from, .. } | Infer::Elem { from, .. } | Infer::VarOf { from, .. } => from,
        }
    }
}

/// The custom syntax of one op, as written in the table below.
#[derive(Copy, Clone, Debug)]
pub struct Syntax {
    /// MLIR's declarative assembly format.
    pub format: &'static str,
    /// The types the format does not write.
    pub infer: &'static [Infer],
}

/// The custom syntax of a `kernel` / `conv` op; `None` for upstream ops, which have MLIR's.
pub fn syntax(op: Opcode) -> Option<Syntax> {
    use Infer::{Elem, Same, VarOf};
    use Opcode::*;
    let s = |format, infer| Some(Syntax { format, infer });
    const MEM: &str = "$ptr `,` $index attr-dict `:` type($ptr) `,` type($index)";
    match op {
        Module | Constant | AddI | SubI | MulI | DivSI | DivUI | RemSI | RemUI | AndI | OrI
        | XOrI | ShLI | ShRSI | ShRUI | MinSI | MaxSI | MinUI | MaxUI | AddF | SubF | MulF
        | DivF | RemF | MinimumF | MaximumF | NegF | CmpI | CmpF | Select | ExtSI | ExtUI
        | TruncI | SIToFP | UIToFP | FPToSI | FPToUI | Bitcast | Br | CondBr => None,
        Func => s("$sym_name attr-dict-with-keyword $body", &[]),
        Return | Yield | Break | Continue | Fence => s("attr-dict", &[]),
        If => s("$cond $then `else` $else attr-dict", &[]),
        Loop => s("$body `latch` $latch attr-dict", &[]),
        Var => s(
            "$init attr-dict `:` type($var)",
            &[Elem {
                to: "init",
                from: "var",
            }],
        ),
        Get => s(
            "$var attr-dict `:` type($value)",
            &[VarOf {
                to: "var",
                from: "value",
            }],
        ),
        Set => s(
            "$var `,` $value attr-dict `:` type($value)",
            &[VarOf {
                to: "var",
                from: "value",
            }],
        ),
        WorkitemId | WorkgroupId | WorkgroupSize | NumWorkgroups => {
            s("$dim attr-dict `:` type($res)", &[])
        }
        LaneId | WaveSize => s("attr-dict `:` type($res)", &[]),
        SharedAlloc => s("$size attr-dict `:` type($ptr)", &[]),
        PtrOffset => s(
            MEM,
            &[Same {
                to: "res",
                from: "ptr",
            }],
        ),
        Load => s(
            MEM,
            &[Elem {
                to: "value",
                from: "ptr",
            }],
        ),
        Store => s(
            "$value `,` $ptr `,` $index attr-dict `:` type($ptr) `,` type($index)",
            &[Elem {
                to: "value",
                from: "ptr",
            }],
        ),
        Atomic => s(
            "$kind `,` $ptr `,` $value attr-dict `:` type($ptr)",
            &[
                Elem {
                    to: "value",
                    from: "ptr",
                },
                Elem {
                    to: "old",
                    from: "ptr",
                },
            ],
        ),
        AtomicCmpxchg => s(
            "$ptr `,` $expected `,` $desired attr-dict `:` type($ptr)",
            &[
                Elem {
                    to: "expected",
                    from: "ptr",
                },
                Elem {
                    to: "desired",
                    from: "ptr",
                },
                Elem {
                    to: "old",
                    from: "ptr",
                },
            ],
        ),
        AtomicLoad => s(
            "$ptr attr-dict `:` type($ptr)",
            &[Elem {
                to: "value",
                from: "ptr",
            }],
        ),
        AtomicStore => s(
            "$value `,` $ptr attr-dict `:` type($ptr)",
            &[Elem {
                to: "value",
                from: "ptr",
            }],
        ),
        // The token in parentheses: a bare optional operand would take the first result of
        // the next op (`kernel.barrier` then `%5 = ...`) for it, as MLIR's parser ignores
        // line breaks.
        Barrier => s("(`(` $token^ `)`)? attr-dict", &[]),
        Ballot => s("$cond (`,` $token^)? attr-dict `:` type($mask)", &[]),
        ReadFirstLane => s(
            "$value (`,` $token^)? attr-dict `:` type($res)",
            &[Same {
                to: "value",
                from: "res",
            }],
        ),
        ReadLane | Shuffle => s(
            "$value `,` $lane (`,` $token^)? attr-dict `:` type($res)",
            &[Same {
                to: "value",
                from: "res",
            }],
        ),
        Reduce | Scan => s(
            "$kind `,` $value (`,` $token^)? attr-dict `:` type($res)",
            &[Same {
                to: "value",
                from: "res",
            }],
        ),
        MulHiU => s("$lhs `,` $rhs attr-dict `:` type($res)", &[]),
        ConvEntry | ConvAnchor => s("attr-dict `:` type($token)", &[]),
        ConvLoop => s("$parent attr-dict `:` type($token)", &[]),
    }
}

/// What a `$name` or `type($name)` in a format refers to.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Ref {
    /// The op's operand number `i` (the optional token is the one after the others).
    Operand(usize),
    /// The op's result number `i`.
    Result(usize),
    /// The keyword attribute ([`OpSpec::keyword`](super::OpSpec)).
    Keyword(Keyword),
    /// The op's region number `i`.
    Region(usize),
}

/// One element of a parsed format.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Elem {
    /// A literal: `,`, `:`, `(`, `else`.
    Lit(&'static str),
    /// `$name`: an operand or the keyword attribute (regions split the format, [`Format`]).
    Var(Ref),
    /// `type($name)`.
    Type(Ref),
    /// `attr-dict` (`with_keyword`: `attr-dict-with-keyword`).
    AttrDict { with_keyword: bool },
    /// `( ... )?`: present when its anchor, the operand `Ref`, is.
    Optional(Ref, Vec<Elem>),
}

/// A parsed format, split at its regions: `pieces[0]` comes before the first region,
/// `pieces[i]` between regions `i - 1` and `i`, the last after the last region.
#[derive(Clone, Debug)]
pub struct Format {
    pub pieces: Vec<Vec<Elem>>,
    pub infer: Vec<(Ref, Infer)>,
    /// Where each `Infer::from` points, in the order of `infer`.
    pub from: Vec<Ref>,
    /// Operands the op has besides the optional token.
    pub operands: usize,
    pub results: usize,
    pub optional_token: bool,
}

impl Format {
    /// The rule that gives `r`'s type, if the format does not write it.
    pub fn inferred(&self, r: Ref) -> Option<(Infer, Ref)> {
        let i = self.infer.iter().position(|(to, _)| *to == r)?;
        Some((self.infer[i].1, self.from[i]))
    }
}

/// The parsed format of a `kernel` / `conv` op (parsed once).
pub fn format(op: Opcode) -> Option<&'static Format> {
    static FORMATS: OnceLock<Vec<Option<Format>>> = OnceLock::new();
    FORMATS
        .get_or_init(|| {
            Opcode::ALL
                .iter()
                .map(|&o| {
                    let (syn, sig) = (syntax(o)?, signature(o)?);
                    Some(
                        parse_format(o, &syn, &sig).unwrap_or_else(|e| panic!("{}: {e}", o.name())),
                    )
                })
                .collect()
        })
        .get(op as usize)
        .and_then(Option::as_ref)
}

/// Resolves `$name` in `op`'s signature.
fn resolve(op: Opcode, sig: &Signature, name: &str) -> Result<Ref, String> {
    if let Some(i) = sig.operands.iter().position(|(n, _)| *n == name) {
        return Ok(Ref::Operand(i));
    }
    if sig.optional_token && name == "token" {
        return Ok(Ref::Operand(sig.operands.len()));
    }
    if let Some(i) = sig.results.iter().position(|(n, _)| *n == name) {
        return Ok(Ref::Result(i));
    }
    if let Some(i) = sig.regions.iter().position(|n| *n == name) {
        return Ok(Ref::Region(i));
    }
    match op.spec().keyword {
        Some(k) if k.attr() == name => Ok(Ref::Keyword(k)),
        _ => Err(format!("unknown name `${name}`")),
    }
}

/// Splits a format into its words: `` `lit` ``, `$name`, `type($name)`, `attr-dict`, `(`,
/// `)?`, `^`.
pub(super) fn words(format: &'static str) -> Result<Vec<&'static str>, String> {
    let mut out = Vec::new();
    let mut rest = format.trim_start();
    while !rest.is_empty() {
        let len = if let Some(lit) = rest.strip_prefix('`') {
            lit.find('`').ok_or("unclosed literal")? + 2
        } else if rest.starts_with("type(") {
            rest.find(')').ok_or("unclosed type(")? + 1
        } else if rest.starts_with(")?") {
            2
        } else if rest.starts_with(['(', '^']) {
            1
        } else {
            rest.find([' ', '^', ')']).unwrap_or(rest.len())
        };
        out.push(&rest[..len]);
        rest = rest[len..].trim_start();
    }
    Ok(out)
}

fn parse_format(op: Opcode, syn: &Syntax, sig: &Signature) -> Result<Format, String> {
    let mut pieces = vec![Vec::new()];
    // Open optional groups: the elements so far, and the anchor once `^` names it.
    let mut groups: Vec<(Vec<Elem>, Option<Ref>)> = Vec::new();
    let mut last_var = None;
    for w in words(syn.format)? {
        let elem = if let Some(lit) = w.strip_prefix('`') {
            Elem::Lit(&lit[..lit.len() - 1])
        } else if let Some(name) = w.strip_prefix("type($") {
            Elem::Type(resolve(op, sig, &name[..name.len() - 1])?)
        } else if let Some(name) = w.strip_prefix('$') {
            let r = resolve(op, sig, name)?;
            last_var = Some(r);
            if let Ref::Region(_) = r {
                if !groups.is_empty() {
                    return Err("a region in an optional group".into());
                }
                pieces.push(Vec::new());
                continue;
            }
            Elem::Var(r)
        } else {
            match w {
                "attr-dict" => Elem::AttrDict {
                    with_keyword: false,
                },
                "attr-dict-with-keyword" => Elem::AttrDict { with_keyword: true },
                "(" => {
                    groups.push((Vec::new(), None));
                    continue;
                }
                "^" => {
                    let g = groups.last_mut().ok_or("`^` outside a group")?;
                    g.1 = last_var;
                    continue;
                }
                ")?" => {
                    let (elems, anchor) = groups.pop().ok_or("unopened group")?;
                    Elem::Optional(anchor.ok_or("a group without anchor")?, elems)
                }
                _ => return Err(format!("unknown format word `{w}`")),
            }
        };
        match groups.last_mut() {
            Some(g) => g.0.push(elem),
            None => pieces.last_mut().expect("a piece").push(elem),
        }
    }
    if !groups.is_empty() {
        return Err("unclosed group".into());
    }
    let infer: Vec<(Ref, Infer)> = (syn.infer.iter())
        .map(|&i| Ok((resolve(op, sig, i.to())?, i)))
        .collect::<Result<_, String>>()?;
    let from = (syn.infer.iter())
        .map(|i| resolve(op, sig, i.from()))
        .collect::<Result<_, String>>()?;
    Ok(Format {
        pieces,
        infer,
        from,
        operands: sig.operands.len(),
        results: sig.results.len(),
        optional_token: sig.optional_token,
    })
}

/// Every element of `elems`, optional groups flattened.
pub fn flat(elems: &[Elem]) -> Vec<&Elem> {
    let mut out = Vec::new();
    for e in elems {
        match e {
            Elem::Optional(_, inner) => out.extend(flat(inner)),
            e => out.push(e),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every own op: each operand, region and keyword attribute appears once; each result
    /// type is written or inferred; inferred types come from written ones.
    #[test]
    fn formats_are_complete() {
        for &op in Opcode::ALL {
            let Some(sig) = signature(op) else {
                assert!(syntax(op).is_none(), "{}", op.name());
                continue;
            };
            let f = format(op).unwrap_or_else(|| panic!("{} has no syntax", op.name()));
            let all: Vec<&Elem> = f.pieces.iter().flat_map(|p| flat(p)).collect();
            let count = |e: Elem| all.iter().filter(|x| ***x == e).count();
            let written = |r: Ref| count(Elem::Type(r)) == 1;
            let n = sig.operands.len() + usize::from(sig.optional_token);
            for i in 0..n {
                assert_eq!(
                    count(Elem::Var(Ref::Operand(i))),
                    1,
                    "{} operand {i}",
                    op.name()
                );
            }
            assert_eq!(f.pieces.len(), sig.regions.len() + 1, "{}", op.name());
            if let Some(k) = op.spec().keyword {
                assert_eq!(count(Elem::Var(Ref::Keyword(k))), 1, "{}", op.name());
            }
            for i in 0..sig.results.len() {
                let r = Ref::Result(i);
                assert!(
                    written(r) ^ f.inferred(r).is_some(),
                    "{} result {i}",
                    op.name()
                );
            }
            for (i, &(to, _)) in f.infer.iter().enumerate() {
                assert!(
                    !written(to) && written(f.from[i]),
                    "{}: {:?}",
                    op.name(),
                    to
                );
            }
        }
    }
}
