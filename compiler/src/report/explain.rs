//! `--explain=NAME` / `--explain=LINE:COL`: why a value is divergent (or uniform), as a chain
//! of source-level reasons.
//!
//! Guarantees:
//! - Every step of a chain is one line, `  FILE:LINE:COL: text` (or `  @kernel ^block: text`
//!   when the thing it talks about has no location), and follows the analysis's own
//!   [`Reason`]s, so the chain ends at a divergence source (reasons are acyclic; a repeated
//!   item would print `(see above)` and stop).
//! - Each explained value starts with a header line
//!   `@kernel %name: divergent | uniform | uniform, temporally divergent at N use(s) | token`.
//!   Several matches are explained in IR order, separated by a blank line.
//! - Lookup: `NAME` without `%` matches the `let`/`var` binding of `.k` input, which gives
//!   *every* SSA version of that variable (`sum` -> `%sum`, `%sum_1`, `%sum_2`); if no binding
//!   has that name, or for IR input, or with a leading `%`, it matches the printed name, which
//!   is unique per kernel. `LINE:COL` matches every value whose location (the `loc(...)` of
//!   the listing: the start of the defining expression, or the variable's declaration for a
//!   block argument) is exactly there, in any file; if none is, the values at the nearest
//!   position after COL on that line (so pointing at `let x` finds the initializer). Every
//!   kernel of the module is searched.
//! - No match is an [`ExplainError`] naming close candidates (edit distance).
//!
//! Values are named `` `x` (%x_1) `` after their binding in `.k` input, else after their
//! printed name; an unnamed op result is shown as a short source-like rendering of its
//! expression (`` `i >= tid` (%0) ``) for `.k` input and as its IR text for IR input.

use super::uniformity::ModuleUniformity;
use super::view::KernelView;
use kc_dialect::analysis::cycles::CycleId;
use kc_dialect::analysis::uniformity::Reason;
use kc_dialect::attrs::{format_f32, Attr};
use kc_dialect::entities::{Block, Op, Value};
use kc_dialect::ir::{Ir, ValueDef};
use kc_dialect::location::Loc;
use kc_dialect::registry::{Opcode, Traits, CMPF_PREDICATES, CMPI_PREDICATES};
use kc_dialect::text::Names;
use kc_dialect::types::Type;
use std::collections::{HashMap, HashSet};
use std::fmt;

/// What `--explain` asks about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    /// A source or printed name; `printed_only` when written with a leading `%`.
    Name { name: String, printed_only: bool },
    /// A source position.
    Pos { line: u32, col: u32 },
}

impl Query {
    /// `NAME`, `%NAME` or `LINE:COL`.
    pub fn parse(s: &str) -> Query {
        if let Some((l, c)) = s.split_once(':') {
            if let (Ok(line), Ok(col)) = (l.parse(), c.parse()) {
                return Query::Pos { line, col };
            }
        }
        match s.strip_prefix('%') {
            Some(n) => Query::Name {
                name: n.to_string(),
                printed_only: true,
            },
            None => Query::Name {
                name: s.to_string(),
                printed_only: false,
            },
        }
    }
}

impl fmt::Display for Query {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Query::Name {
                name,
                printed_only: true,
            } => write!(f, "%{name}"),
            Query::Name { name, .. } => write!(f, "{name}"),
            Query::Pos { line, col } => write!(f, "{line}:{col}"),
        }
    }
}

/// Nothing matched the query: the message names close candidates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplainError {
    pub message: String,
}

impl fmt::Display for ExplainError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Explains every value matching `query`. `source_names`: the IR came from `.k` source, so
/// value name hints are `let`/`var` bindings.
pub fn explain(
    ir: &Ir,
    mu: &ModuleUniformity,
    query: &Query,
    source_names: bool,
) -> Result<String, ExplainError> {
    let views: Vec<KernelView> = mu.kernels.iter().map(|u| KernelView::new(ir, u)).collect();
    let matches = find(&views, query, source_names);
    if matches.is_empty() {
        return Err(ExplainError {
            message: no_match(&views, query, source_names),
        });
    }
    let explainers: Vec<Explainer> = views
        .iter()
        .map(|kv| Explainer::new(kv, source_names))
        .collect();
    let mut out = String::new();
    for (i, (k, v)) in matches.into_iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&explainers[k].value(v));
    }
    Ok(out)
}

/// `(kernel index, value)` pairs, IR order.
fn find(views: &[KernelView], query: &Query, source_names: bool) -> Vec<(usize, Value)> {
    let mut out = Vec::new();
    match query {
        Query::Name { name, printed_only } => {
            if source_names && !printed_only {
                for (k, kv) in views.iter().enumerate() {
                    for v in kv.all_values() {
                        if kv.ir.values[v].name.as_deref() == Some(name.as_str()) {
                            out.push((k, v));
                        }
                    }
                }
            }
            if out.is_empty() {
                for (k, kv) in views.iter().enumerate() {
                    for v in kv.all_values() {
                        if kv.value_name(v) == name {
                            out.push((k, v));
                        }
                    }
                }
            }
        }
        &Query::Pos { line, col } => {
            let at = |l: Loc| l.is_known() && l.line == line;
            for (k, kv) in views.iter().enumerate() {
                for v in kv.all_values() {
                    let l = kv.value_loc(v);
                    if at(l) && l.col == col {
                        out.push((k, v));
                    }
                }
            }
            if out.is_empty() {
                let next = views
                    .iter()
                    .flat_map(|kv| kv.all_values().into_iter().map(|v| kv.value_loc(v)))
                    .filter(|&l| at(l) && l.col > col)
                    .map(|l| l.col)
                    .min();
                if let Some(c) = next {
                    for (k, kv) in views.iter().enumerate() {
                        for v in kv.all_values() {
                            let l = kv.value_loc(v);
                            if at(l) && l.col == c {
                                out.push((k, v));
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

fn no_match(views: &[KernelView], query: &Query, source_names: bool) -> String {
    match query {
        Query::Name { name, .. } => {
            // (candidate as shown, the string compared)
            let mut cands: Vec<(String, String)> = Vec::new();
            let mut seen: HashSet<String> = HashSet::new();
            let mut add = |shown: String, n: &str| {
                if seen.insert(shown.clone()) {
                    cands.push((shown, n.to_string()));
                }
            };
            for kv in views {
                for v in kv.all_values() {
                    if source_names {
                        if let Some(n) = &kv.ir.values[v].name {
                            add(format!("`{n}`"), n);
                        }
                    }
                    let p = kv.value_name(v);
                    add(format!("%{p}"), p);
                }
            }
            // Closest first; bindings before printed names.
            let mut scored: Vec<(usize, bool, &String)> = cands
                .iter()
                .map(|(shown, n)| (distance(name, n), shown.starts_with('%'), shown))
                .filter(|&(d, _, _)| d <= (name.chars().count() / 3).max(2))
                .collect();
            scored.sort();
            let close: Vec<&str> = scored.iter().take(6).map(|(_, _, s)| s.as_str()).collect();
            let mut msg = format!("--explain={query}: no value named `{name}`");
            if !close.is_empty() {
                msg.push_str(&format!("; close candidates: {}", close.join(", ")));
            } else if !cands.is_empty() {
                let some: Vec<&str> = cands.iter().take(12).map(|(s, _)| s.as_str()).collect();
                msg.push_str(&format!(
                    "; values are named {}{}",
                    some.join(", "),
                    if cands.len() > 12 { ", ..." } else { "" }
                ));
            }
            msg
        }
        &Query::Pos { line, .. } => {
            let mut lines: Vec<(u32, u32, String)> = Vec::new();
            for kv in views {
                for v in kv.all_values() {
                    let l = kv.value_loc(v);
                    if l.is_known() && l.line.abs_diff(line) <= 2 {
                        lines.push((
                            l.line,
                            l.col,
                            format!("{}:{} (%{})", l.line, l.col, kv.value_name(v)),
                        ));
                    }
                }
            }
            lines.sort();
            lines.dedup();
            let mut msg = format!("--explain={query}: no value is defined at {query}");
            if !lines.is_empty() {
                let c: Vec<&str> = lines.iter().take(8).map(|x| x.2.as_str()).collect();
                msg.push_str(&format!("; values nearby: {}", c.join(", ")));
            }
            msg
        }
    }
}

/// Levenshtein distance over chars.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Something a step of a chain is about.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
enum Item {
    Value(Value),
    Branch(Op),
}

struct Explainer<'a, 'k> {
    kv: &'a KernelView<'k>,
    source_names: bool,
    /// How many values of the kernel each binding names.
    versions: HashMap<&'a str, usize>,
}

impl<'a, 'k> Explainer<'a, 'k> {
    fn new(kv: &'a KernelView<'k>, source_names: bool) -> Self {
        let mut versions: HashMap<&'a str, usize> = HashMap::new();
        for v in kv.all_values() {
            if let Some(n) = kv.ir.values[v].name.as_deref() {
                *versions.entry(n).or_default() += 1;
            }
        }
        Explainer {
            kv,
            source_names,
            versions,
        }
    }

    fn ir(&self) -> &Ir {
        self.kv.ir
    }

    /// One value: header, then its chain.
    fn value(&self, v: Value) -> String {
        let kv = self.kv;
        let u = kv.u;
        let ir = self.ir();
        let mut out = String::new();
        let mut temporal: Vec<_> = u.temporal.iter().filter(|t| t.value == v).collect();
        temporal.sort_by_key(|t| kv.op_key(t.user));
        let verdict = if ir.value_type(v) == Type::Token {
            "token".to_string()
        } else if u.is_divergent(v) {
            "divergent".to_string()
        } else if !temporal.is_empty() {
            format!(
                "uniform, temporally divergent at {} use{}",
                temporal.len(),
                if temporal.len() == 1 { "" } else { "s" }
            )
        } else {
            "uniform".to_string()
        };
        out.push_str(&format!(
            "@{} %{}: {verdict}\n",
            kv.kernel_name(),
            kv.value_name(v)
        ));
        let desc = self.desc(v);
        let vloc = kv.value_loc(v);
        let vblock = kv.value_block(v);
        if ir.value_type(v) == Type::Token {
            self.step(&mut out, vloc, vblock, &format!("{desc} is a convergence token; tokens are not data, the analysis gives them no verdict"));
            return out;
        }
        if u.is_divergent(v) {
            self.chain(&mut out, Item::Value(v));
            return out;
        }
        self.step(
            &mut out,
            vloc,
            vblock,
            &format!("{desc} is uniform: {}", self.why_uniform(v)),
        );
        let mut seen_cycles: Vec<CycleId> = Vec::new();
        for t in temporal {
            let user = t.user;
            let exit = kv.exit_branch_of(t.cycle);
            let exit_at = exit.map_or(String::new(), |j| {
                format!(" after a divergent exit {}", self.at_op(j.branch))
            });
            self.step(
                &mut out,
                ir.ops[user].loc,
                ir.op_block(user),
                &format!(
                    "but it is temporally divergent where `{}` uses it: used outside the {} {}{exit_at}; threads leave on different iterations",
                    self.render_op(user),
                    self.cycle_noun(t.cycle),
                    self.at_op(user),
                ),
            );
            if let (Some(j), false) = (exit, seen_cycles.contains(&t.cycle)) {
                seen_cycles.push(t.cycle);
                self.chain(&mut out, Item::Branch(j.branch));
            }
        }
        out
    }

    /// Follows reasons from `start` to a source, one step per line.
    fn chain(&self, out: &mut String, start: Item) {
        let kv = self.kv;
        let u = kv.u;
        let ir = self.ir();
        let mut seen: HashSet<Item> = HashSet::new();
        let mut cur = Some(start);
        while let Some(item) = cur.take() {
            if !seen.insert(item) {
                out.push_str("  (see above)\n");
                break;
            }
            match item {
                Item::Value(v) => {
                    let loc = kv.value_loc(v);
                    let blk = kv.value_block(v);
                    let desc = self.desc(v);
                    let Some(reason) = u.reason(v) else {
                        let what = if u.is_divergent(v) {
                            "divergent (no recorded reason)"
                        } else {
                            "uniform"
                        };
                        self.step(out, loc, blk, &format!("{desc} is {what}"));
                        break;
                    };
                    let text = match *reason {
                        Reason::Source(op) => {
                            format!(
                                "{} is a source of divergence: `{}` ({})",
                                self.desc_name(v),
                                self.render_op(op),
                                source_kind(ir, op)
                            )
                        }
                        Reason::Operand { operand, .. } => {
                            cur = Some(Item::Value(operand));
                            format!(
                                "{desc} is divergent: it uses {} {}",
                                self.desc_short(operand),
                                self.at_value(operand)
                            )
                        }
                        Reason::Incoming { from, value } => {
                            cur = Some(Item::Value(value));
                            format!(
                                "{desc} is divergent: it is a block argument of ^{} that receives the divergent {} from the branch {}",
                                self.block_of(v),
                                self.desc_short(value),
                                self.at_op(from)
                            )
                        }
                        Reason::Join { branch, block } => {
                            cur = Some(Item::Branch(branch));
                            format!(
                                "{desc} is divergent: it is a block argument at the join (^{}) of the divergent branch {}; threads that took different paths meet there with different values",
                                kv.block_name(block),
                                self.at_op(branch)
                            )
                        }
                        Reason::DivergentExit {
                            branch,
                            block,
                            cycle,
                        } => {
                            cur = Some(Item::Branch(branch));
                            format!(
                                "{desc} is divergent: it is a block argument of ^{}, an exit of the {} ({}) that threads leave on different iterations or paths because of the divergent branch {}",
                                kv.block_name(block),
                                self.cycle_noun(cycle),
                                kv.cycle_text(cycle),
                                self.at_op(branch)
                            )
                        }
                        Reason::DivergentCycle {
                            branch,
                            cycle,
                            join,
                        } => {
                            cur = Some(Item::Branch(branch));
                            let inside = ir
                                .op_block(branch)
                                .is_some_and(|b| kv.cycle_contains(cycle, b));
                            let why = if inside {
                                format!(
                                    "the divergent branch {} in the cycle re-converges at ^{}, which the cycle's header does not dominate (the diverged-entry criterion fails)",
                                    self.at_op(branch),
                                    kv.block_name(join)
                                )
                            } else {
                                format!(
                                    "threads that split at the divergent branch {} outside the cycle enter it through different entries and meet at ^{}, so they run its iterations out of step",
                                    self.at_op(branch),
                                    kv.block_name(join)
                                )
                            };
                            format!(
                                "{desc} is divergent: it is defined in the irreducible cycle ({}), assumed divergent: {why}",
                                kv.cycle_text(cycle)
                            )
                        }
                        Reason::Temporal { op, value, cycle } => {
                            let exit = kv.exit_branch_of(cycle);
                            cur = exit.map(|j| Item::Branch(j.branch));
                            let exit_at = exit.map_or(String::new(), |j| {
                                format!(" after a divergent exit {}", self.at_op(j.branch))
                            });
                            let noun = self.cycle_noun(cycle);
                            let what = if matches!(ir.values[v].def, ValueDef::BlockArg(..)) {
                                format!(
                                    "it is a block argument of ^{} that receives {}, defined in the {noun} ({}), from the branch {} leaving the {noun}",
                                    self.block_of(v),
                                    self.desc_short(value),
                                    kv.cycle_text(cycle),
                                    self.at_op(op),
                                )
                            } else {
                                format!(
                                    "it uses {}, defined in the {noun} ({}), outside the {noun} {}",
                                    self.desc_short(value),
                                    kv.cycle_text(cycle),
                                    self.at_op(op),
                                )
                            };
                            format!(
                                "{desc} is divergent: {what}{exit_at}; threads leave on different iterations"
                            )
                        }
                    };
                    self.step(out, loc, blk, &text);
                }
                Item::Branch(t) => {
                    let loc = ir.ops[t].loc;
                    let blk = ir.op_block(t);
                    let what = match self.at_loc(loc) {
                        Some(at) => format!("the branch {at} (in ^{})", kv.op_block_name(t)),
                        None => format!("the branch in ^{}", kv.op_block_name(t)),
                    };
                    let text = match u.branch_reason(t) {
                        Some(&Reason::Operand { operand, .. }) => {
                            cur = Some(Item::Value(operand));
                            format!(
                                "{what} is divergent: its condition {} is divergent",
                                self.desc(operand)
                            )
                        }
                        Some(&Reason::Temporal { value, cycle, .. }) => {
                            let exit = kv.exit_branch_of(cycle);
                            cur = exit.map(|j| Item::Branch(j.branch));
                            let exit_at = exit.map_or(String::new(), |j| {
                                format!(" after a divergent exit {}", self.at_op(j.branch))
                            });
                            format!(
                                "{what} is divergent: its condition {} is used outside the {} ({}){exit_at}; threads leave on different iterations",
                                self.desc(value),
                                self.cycle_noun(cycle),
                                kv.cycle_text(cycle)
                            )
                        }
                        _ if u.is_divergent_branch(t) => format!("{what} is divergent"),
                        _ => format!("{what} is uniform"),
                    };
                    self.step(out, loc, blk, &text);
                }
            }
        }
    }

    /// Why a value the analysis calls uniform is uniform (one phrase).
    fn why_uniform(&self, v: Value) -> String {
        let kv = self.kv;
        let ir = self.ir();
        if let Some(b) = kv.value_block(v) {
            if !kv.is_reachable(b) {
                return "unreachable code (the analysis leaves it uniform)".into();
            }
        }
        match ir.values[v].def {
            ValueDef::BlockArg(b, i) => {
                if kv.is_entry(b) {
                    return "kernel argument (the same for every thread)".into();
                }
                let incoming = self.incoming(b, i as usize);
                let all_same = incoming.windows(2).all(|w| w[0] == w[1]);
                let join = kv
                    .joins_at(b, false)
                    .next()
                    .or_else(|| kv.joins_at(b, true).next());
                if let Some(j) = join {
                    let kind = if j.is_exit {
                        "a divergent exit"
                    } else {
                        "a join"
                    };
                    let same = if all_same && !incoming.is_empty() {
                        format!("the same value {}", self.desc_short(incoming[0]))
                    } else {
                        "the same constant".to_string()
                    };
                    return format!(
                        "^{} is {kind} of the divergent branch {}, but every path brings {same}",
                        kv.block_name(b),
                        self.at_op(j.branch)
                    );
                }
                let names: Vec<String> = dedup(incoming)
                    .into_iter()
                    .map(|x| self.desc_short(x))
                    .collect();
                format!(
                    "all incoming values are uniform ({}) and ^{} is not a join of a divergent branch",
                    names.join(", "),
                    kv.block_name(b)
                )
            }
            ValueDef::Result(op, _) => {
                let spec = ir.spec(op);
                if ir.opcode(op) == Opcode::Constant {
                    return "a constant".into();
                }
                if spec.has(Traits::ALWAYS_UNIFORM) {
                    return format!("always uniform: {}", short_op_name(ir, op));
                }
                let operands: Vec<Value> = ir.ops[op]
                    .operands
                    .iter()
                    .copied()
                    .filter(|&o| ir.value_type(o) != Type::Token)
                    .collect();
                if operands.is_empty() {
                    return "no operands".into();
                }
                let names: Vec<String> = dedup(operands)
                    .into_iter()
                    .map(|x| self.desc_short(x))
                    .collect();
                format!("all operands uniform ({})", names.join(", "))
            }
        }
    }

    /// Values passed to argument `i` of block `b` by its predecessors.
    fn incoming(&self, b: Block, i: usize) -> Vec<Value> {
        let kv = self.kv;
        let ir = self.ir();
        let mut out = Vec::new();
        let Some(n) = kv.u.cfg.node(b) else {
            return out;
        };
        for &p in &kv.u.cfg.preds[n as usize] {
            let Some(t) = ir.terminator(kv.u.cfg.blocks[p as usize]) else {
                continue;
            };
            for s in ir.ops[t].succs.iter().filter(|s| s.block == b) {
                if let Some(&a) = s.args.get(i) {
                    out.push(a);
                }
            }
        }
        out
    }

    fn step(&self, out: &mut String, loc: Loc, block: Option<Block>, text: &str) {
        let kv = self.kv;
        let place = match kv.loc_parts(loc) {
            Some((f, l, c)) => format!("{f}:{l}:{c}"),
            None => match block {
                Some(b) => format!("@{} ^{}", kv.kernel_name(), kv.block_name(b)),
                None => format!("@{}", kv.kernel_name()),
            },
        };
        out.push_str(&format!("  {place}: {text}\n"));
    }

    /// `at 7:5`, if known.
    fn at_loc(&self, loc: Loc) -> Option<String> {
        loc.is_known()
            .then(|| format!("at {}:{}", loc.line, loc.col))
    }

    /// `at 7:5`, else `in ^block`.
    fn at_op(&self, op: Op) -> String {
        self.at_loc(self.ir().ops[op].loc)
            .unwrap_or_else(|| format!("in ^{}", self.kv.op_block_name(op)))
    }

    /// `(defined) at 3:15`, else `(defined) in ^block`.
    fn at_value(&self, v: Value) -> String {
        match self.at_loc(self.kv.value_loc(v)) {
            Some(s) => s,
            None => format!("defined in ^{}", self.block_of(v)),
        }
    }

    fn block_of(&self, v: Value) -> &str {
        self.kv.value_block(v).map_or("", |b| self.kv.block_name(b))
    }

    fn cycle_noun(&self, c: CycleId) -> &'static str {
        if self.kv.u.cycles.cycle(c).is_reducible() {
            "loop"
        } else {
            "irreducible cycle"
        }
    }

    fn source_name(&self, v: Value) -> Option<&str> {
        if self.source_names {
            self.ir().values[v].name.as_deref()
        } else {
            None
        }
    }

    /// The value as the subject of a step: `` `c` (%c, `tid > c1`) ``, `` `i >= tid` (%0) ``,
    /// `` `sum` (%sum_1) ``, or for IR input `` %c (`arith.cmpi sgt, %tid, %c1`) ``.
    fn desc(&self, v: Value) -> String {
        let printed = self.kv.value_name(v);
        let def = match self.ir().values[v].def {
            ValueDef::Result(op, _) if !self.trivial(op) => Some(self.render_op(op)),
            _ => None,
        };
        match (self.source_name(v), def) {
            (Some(n), Some(d)) => format!("`{n}` (%{printed}, `{d}`)"),
            (Some(_), None) => self.desc_name(v),
            (None, Some(d)) if self.source_names => format!("`{d}` (%{printed})"),
            (None, Some(d)) => format!("%{printed} (`{d}`)"),
            (None, None) => format!("%{printed}"),
        }
    }

    /// The value by name only: `` `sum` (%sum_1) ``, `` `tid` ``, `%3`.
    fn desc_name(&self, v: Value) -> String {
        let printed = self.kv.value_name(v);
        match self.source_name(v) {
            Some(n) if n == printed && !self.has_versions(n) => format!("`{n}`"),
            Some(n) => format!("`{n}` (%{printed})"),
            None => format!("%{printed}"),
        }
    }

    /// Does the binding `n` name more than one SSA value of the kernel?
    fn has_versions(&self, n: &str) -> bool {
        self.versions.get(n).is_some_and(|&c| c > 1)
    }

    /// The value as an operand: `` `tid` ``, `` `sum` (%sum_1) ``, `` `i >= tid` (%0) ``, `%x`.
    fn desc_short(&self, v: Value) -> String {
        let printed = self.kv.value_name(v);
        if self.source_name(v).is_some() {
            return self.desc_name(v);
        }
        match self.ir().values[v].def {
            ValueDef::Result(op, _) if self.source_names => {
                format!("`{}` (%{printed})", self.render_op(op))
            }
            _ => format!("%{printed}"),
        }
    }

    /// Constants are not worth a rendering of their own.
    fn trivial(&self, op: Op) -> bool {
        self.ir().opcode(op) == Opcode::Constant && !self.source_names
    }

    /// A short rendering of `op`: source-like for `.k` input, the IR text otherwise.
    fn render_op(&self, op: Op) -> String {
        if self.source_names {
            render_expr(self.ir(), &self.kv.names, op, 2)
        } else {
            let first = self.kv.op_text(op);
            match first.split_once(" = ") {
                Some((lhs, rhs)) if lhs.starts_with('%') => rhs.to_string(),
                _ => first.to_string(),
            }
        }
    }
}

fn dedup(vs: Vec<Value>) -> Vec<Value> {
    let mut out = Vec::new();
    for v in vs {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

fn short_op_name(ir: &Ir, op: Op) -> &'static str {
    let n = ir.opcode(op).name();
    n.split_once('.').map_or(n, |(_, rest)| rest)
}

/// What kind of divergence source an op is.
fn source_kind(ir: &Ir, op: Op) -> &'static str {
    match ir.opcode(op) {
        Opcode::WorkitemId => "each thread has its own id",
        Opcode::LaneId => "each lane has its own id",
        Opcode::Atomic | Opcode::AtomicCmpxchg | Opcode::AtomicLoad => {
            "each thread sees the memory at a different time"
        }
        Opcode::Shuffle => "each lane reads another lane's value",
        _ => "its result differs between threads",
    }
}

/// Operand as an expression: its binding, a literal, a nested rendering (`depth` more levels,
/// parenthesized under an operator when `paren`) or its printed name.
fn render_operand(ir: &Ir, names: &Names, v: Value, depth: u32, paren: bool) -> String {
    if let Some(n) = &ir.values[v].name {
        return n.clone();
    }
    match ir.values[v].def {
        ValueDef::Result(op, _) if ir.opcode(op) == Opcode::Constant => {
            render_expr(ir, names, op, 0)
        }
        ValueDef::Result(op, _) if depth > 0 => {
            let s = render_expr(ir, names, op, depth - 1);
            if paren && is_compound(ir.opcode(op)) {
                format!("({s})")
            } else {
                s
            }
        }
        _ => format!("%{}", names.values[v]),
    }
}

/// Ops rendered as an infix or prefix expression (they need parentheses as operands).
fn is_compound(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        AddI | AddF
            | SubI
            | SubF
            | MulI
            | MulF
            | DivSI
            | DivUI
            | DivF
            | RemSI
            | RemUI
            | RemF
            | AndI
            | OrI
            | XOrI
            | ShLI
            | ShRSI
            | ShRUI
            | NegF
            | CmpI
            | CmpF
            | Select
            | ExtSI
            | ExtUI
            | TruncI
            | SIToFP
            | UIToFP
            | FPToSI
            | FPToUI
            | Bitcast
    )
}

/// A source-like rendering of `op` (`i >= tid`, `workitem_id(x)`, `out[tid] = sum`).
fn render_expr(ir: &Ir, names: &Names, op: Op, depth: u32) -> String {
    let data = &ir.ops[op];
    let args: Vec<Value> = data
        .operands
        .iter()
        .copied()
        .filter(|&o| ir.value_type(o) != Type::Token)
        .collect();
    // `a`: an operand of an operator (parenthesized if compound); `p`: a call argument or index.
    let a = |i: usize| {
        args.get(i).map_or("?".to_string(), |&x| {
            render_operand(ir, names, x, depth, true)
        })
    };
    let p = |i: usize| {
        args.get(i).map_or("?".to_string(), |&x| {
            render_operand(ir, names, x, depth, false)
        })
    };
    let kw = |name: &str| {
        ir.attr(op, name).and_then(|x| {
            x.as_str()
                .map(str::to_string)
                .or_else(|| x.as_int().map(|i| i.to_string()))
        })
    };
    let binary = |sym: &str| format!("{} {sym} {}", a(0), a(1));
    let call = |f: &str| {
        let xs: Vec<String> = (0..args.len()).map(p).collect();
        format!("{f}({})", xs.join(", "))
    };
    let pred = |table: &[&str]| -> String {
        ir.attr(op, "predicate")
            .and_then(Attr::as_int)
            .and_then(|i| table.get(i as usize))
            .copied()
            .unwrap_or("?")
            .to_string()
    };
    let dim = || {
        ir.attr(op, "dim")
            .and_then(|x| {
                x.as_str().map(str::to_string).or_else(|| {
                    x.as_int()
                        .and_then(|i| kc_dialect::registry::DIMS.get(i as usize))
                        .map(|s| s.to_string())
                })
            })
            .unwrap_or_default()
    };
    match ir.opcode(op) {
        Opcode::Constant => match ir.attr(op, "value") {
            Some(Attr::Int(v, t)) if *t == Type::I1 => {
                (if *v != 0 { "true" } else { "false" }).to_string()
            }
            Some(Attr::Int(v, _)) => v.to_string(),
            Some(Attr::Float(f)) => format_f32(*f),
            Some(Attr::Bool(b)) => b.to_string(),
            Some(other) => other.to_string(),
            None => "constant".into(),
        },
        Opcode::AddI | Opcode::AddF => binary("+"),
        Opcode::SubI | Opcode::SubF => binary("-"),
        Opcode::MulI | Opcode::MulF => binary("*"),
        Opcode::DivSI | Opcode::DivUI | Opcode::DivF => binary("/"),
        Opcode::RemSI | Opcode::RemUI | Opcode::RemF => binary("%"),
        Opcode::AndI => binary("&"),
        Opcode::OrI => binary("|"),
        Opcode::XOrI => binary("^"),
        Opcode::ShLI => binary("<<"),
        Opcode::ShRSI | Opcode::ShRUI => binary(">>"),
        Opcode::MinSI | Opcode::MinUI | Opcode::MinimumF => call("min"),
        Opcode::MaxSI | Opcode::MaxUI | Opcode::MaximumF => call("max"),
        Opcode::NegF => format!("-{}", a(0)),
        Opcode::CmpI => {
            let sym = match pred(CMPI_PREDICATES).as_str() {
                "eq" => "==",
                "ne" => "!=",
                "slt" | "ult" => "<",
                "sle" | "ule" => "<=",
                "sgt" | "ugt" => ">",
                "sge" | "uge" => ">=",
                _ => "cmp",
            };
            binary(sym)
        }
        Opcode::CmpF => {
            let p = pred(CMPF_PREDICATES);
            let sym = match p.get(1..).unwrap_or("") {
                "eq" => "==",
                "ne" => "!=",
                "lt" => "<",
                "le" => "<=",
                "gt" => ">",
                "ge" => ">=",
                _ => return call(&format!("cmpf_{p}")),
            };
            binary(sym)
        }
        Opcode::Select => format!("if {} {{ {} }} else {{ {} }}", p(0), p(1), p(2)),
        Opcode::ExtSI
        | Opcode::ExtUI
        | Opcode::TruncI
        | Opcode::SIToFP
        | Opcode::UIToFP
        | Opcode::FPToSI
        | Opcode::FPToUI
        | Opcode::Bitcast => {
            let ty = data
                .results
                .first()
                .map(|&r| ir.value_type(r).to_string())
                .unwrap_or_default();
            format!("{} as {ty}", a(0))
        }
        Opcode::WorkitemId => format!("workitem_id({})", dim()),
        Opcode::WorkgroupId => format!("workgroup_id({})", dim()),
        Opcode::WorkgroupSize => format!("workgroup_size({})", dim()),
        Opcode::NumWorkgroups => format!("num_workgroups({})", dim()),
        Opcode::LaneId => "lane_id()".into(),
        Opcode::WaveSize => "wave_size()".into(),
        Opcode::SharedAlloc => format!("shared[{}]", kw("size").unwrap_or_default()),
        Opcode::PtrOffset => format!("&{}[{}]", a(0), p(1)),
        Opcode::Load => format!("{}[{}]", a(0), p(1)),
        Opcode::Store => format!("{}[{}] = {}", a(1), p(2), p(0)),
        Opcode::Atomic => call(&format!("atomic_{}", kw("kind").unwrap_or_default())),
        Opcode::AtomicCmpxchg => call("atomic_cmpxchg"),
        Opcode::Ballot => call("ballot"),
        Opcode::ReadFirstLane => call("readfirstlane"),
        Opcode::ReadLane => call("readlane"),
        Opcode::Shuffle => call("shuffle"),
        Opcode::Reduce => call(&format!("reduce_{}", kw("kind").unwrap_or_default())),
        Opcode::Scan => call(&format!("scan_{}", kw("kind").unwrap_or_default())),
        Opcode::CondBr => format!("if {}", p(0)),
        Opcode::ConvEntry => "convergence_entry()".into(),
        Opcode::ConvAnchor => "convergence_anchor()".into(),
        Opcode::ConvLoop => format!(
            "heart({})",
            data.operands
                .first()
                .map_or(String::new(), |&t| render_operand(ir, names, t, 0, false))
        ),
        _ => call(short_op_name(ir, op)),
    }
}

/// The `--explain` text of one value of the kernel `u` describes (its verdict line and cause
/// chain), for diagnostics that cite why a value is divergent.
pub fn explain_value(
    ir: &Ir,
    u: &kc_dialect::analysis::Uniformity,
    v: Value,
    source_names: bool,
) -> String {
    let kv = KernelView::new(ir, u);
    Explainer::new(&kv, source_names).value(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_forms() {
        assert_eq!(Query::parse("12:5"), Query::Pos { line: 12, col: 5 });
        assert_eq!(
            Query::parse("%x_1"),
            Query::Name {
                name: "x_1".into(),
                printed_only: true
            }
        );
        assert_eq!(
            Query::parse("x"),
            Query::Name {
                name: "x".into(),
                printed_only: false
            }
        );
        assert_eq!(
            Query::parse("a:b"),
            Query::Name {
                name: "a:b".into(),
                printed_only: false
            }
        );
    }

    #[test]
    fn edit_distance() {
        assert_eq!(distance("sum", "sum"), 0);
        assert_eq!(distance("summ", "sum"), 1);
        assert_eq!(distance("tdi", "tid"), 2);
        assert_eq!(distance("", "ab"), 2);
    }
}
