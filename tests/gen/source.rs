//! Random structured `.k` kernels covering the whole language.
//!
//! A kernel is a random statement tree: `let`/`var` declarations of every scalar type
//! (`bool i32 u32 i64 u64 f32`), assignments and compound assignments to `var`s (in branches
//! and loops, so joins and loop exits get block arguments), stores and atomics to typed
//! buffers and shared arrays (some kernels fill LDS to its 65536-byte limit), `if`/`else if`/`else`, `while` (counted or on an arbitrary
//! condition), `for` over uniform or divergent ranges of any integer type, `loop` (always
//! with a guarded `break`), and `break`/`continue`/`return` at any depth, often right after
//! assigning a constant to a `var` (so different exits carry different constants).
//!
//! Expressions are typed: arithmetic, bitwise, shift and comparison operators on every type
//! they accept, unary `-`/`!`/`~`, casts in every direction `as` allows, integer literals
//! typed by context (up to the type's limits) and float literals, `select`, `min`/`max`,
//! loads with indices of every integer type, every atomic (`add min max xchg cmpxchg load
//! store`, and `atomic_add`/`load`/`store` on `f32`) on global and shared memory, with no,
//! one or both of a memory ordering and a scope (every combination LANGUAGE.md §6.1 allows),
//! `fence` with every ordering and scope, every cross-lane builtin
//! (`ballot readfirstlane shuffle reduce_add/min/max scan_add/min/max`) on every type they take, and the
//! work-item and grid queries. Leaves mix uniform values (parameters, constants, workgroup
//! queries, cross-lane results, loads at uniform indices) with divergent ones (`workitem_id`,
//! `lane_id`, `shuffle`, atomics, loads at divergent indices); conditions are biased towards
//! one or the other so both uniform and divergent branches are common. Barriers are placed
//! in (what the generator believes is) uniform control flow; those kc's check still finds
//! under divergent control flow (the beliefs are a bias) are removed.
//!
//! Kernel and parameter names are sometimes words YAML reads as numbers or booleans (`inf`,
//! `NaN`, `y`) or assembler words (`s0`, `vcc`, `exec`, `off`), and some kernels have a
//! wide shape: a long `else if` chain, many parameters, or a deep nest of `if`s.
//!
//! With [`Tokens::Explicit`] the kernel starts with `convergence_entry()`, loops get
//! `heart`s (or, without one, anchors inside the body), and every convergent call carries
//! `@ token` following the rules of LANGUAGE.md §7; otherwise kc inserts the tokens.
//!
//! A generated [`Kernel`] lists its parameters, so a test can bind arguments to them.

use super::Rng;
use std::fmt::Write;

/// How the kernel states convergence.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Tokens {
    /// No tokens in the source: kc's insert-tokens adds `conv.entry`/`conv.loop`.
    Implicit,
    /// `convergence_entry()`, `heart`s, anchors and `@ token` on every convergent call.
    Explicit,
}

/// A scalar type of the language: the front end's own.
pub use kc_compiler::ast::Scalar as Ty;

/// The integer types, and the numeric ones.
const INTS: [Ty; 4] = [Ty::I32, Ty::U32, Ty::I64, Ty::U64];
const NUMS: [Ty; 5] = [Ty::I32, Ty::U32, Ty::I64, Ty::U64, Ty::F32];

/// A kernel parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub kind: ParamKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ParamKind {
    Scalar(Ty),
    /// A `ptr<global, elem>` of `len` elements; only `writable` ones are stored to.
    Buffer {
        elem: Ty,
        len: usize,
        writable: bool,
    },
}

/// A generated kernel: its source and its parameters in order.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub name: String,
    pub text: String,
    pub params: Vec<Param>,
}

/// Elements of every writable buffer of a race-free kernel: 16 per work-item of up to 256.
pub const RACE_FREE_OUT_LEN: usize = 4096;
/// Elements of every read-only buffer (race-free loads stay within them).
pub const READ_ONLY_LEN: usize = 1024;

/// A random kernel named `name`, a function of `seed` alone.
pub fn kernel(name: &str, seed: u64, tokens: Tokens) -> String {
    generate(name, seed, tokens, false).text
}

/// A random kernel without data races, for differential execution: every store and atomic
/// goes to the executing work-item's own 16 slots of a writable buffer (each needs 16
/// elements per work-item of the grid: [`RACE_FREE_OUT_LEN`] for grids of up to 256
/// work-items), read-only buffers are only read, within their first [`READ_ONLY_LEN`]
/// elements, and shared memory is used only at the work-item's own index (workgroups of at
/// most 128). Its result is then the same on every interleaving of lanes and waves.
pub fn race_free_kernel(name: &str, seed: u64, tokens: Tokens) -> Kernel {
    generate(name, seed, tokens, true)
}

/// Names YAML reads as floats or booleans, and words the AMDGPU assembler knows: kernel and
/// parameter names that must survive into the listing and its metadata.
const SPECIAL_NAMES: &[&str] = &[
    "inf",
    "nan",
    "Inf",
    "NaN",
    "INF",
    "Infinity",
    "NAN",
    "y",
    "n",
    "on",
    "off",
    "yes",
    "no",
    "null",
    "True",
    "False",
    "s0",
    "s1",
    "v0",
    "v255",
    "vcc",
    "exec",
    "m0",
    "scc",
    "vccz",
    "execz",
    "ttmp0",
    "flat_scratch",
    "src_scc",
    "lds_direct",
    "sc0",
    "sc1",
    "nt",
    "offset",
    "abs",
    "neg",
    "sext",
    "off_",
    "kernel_",
    "_",
    "__",
    "L",
    "LBB0_1",
    "end_amdgpu_metadata",
    "amdhsa_kernel",
    "text",
    "section",
    "ballot",
    "min",
    "shuffle",
];

/// Plain names of the extra parameters, by role.
const PLAIN_NAMES: &[&str] = &["p", "q", "r", "s", "t", "u", "w", "k", "src", "dst"];

fn generate(name: &str, seed: u64, tokens: Tokens, race_free: bool) -> Kernel {
    let mut g = Gen {
        race_free,
        rng: Rng::new(seed),
        out: String::new(),
        indent: 1,
        scopes: Vec::new(),
        loops: 0,
        explicit: tokens == Tokens::Explicit,
        next_id: 0,
        budget: 0,
        shared: Vec::new(),
        no_convergent: false,
        params: Vec::new(),
        used_names: Vec::new(),
    };
    g.budget = g.rng.range(8, 30);
    let shape = g.rng.weighted(&[88, 4, 4, 4]);
    // Special kernel names only for kernels compiled alone (the uniformity differential
    // batches `kernel`s into one module, where names must stay unique).
    let kname = if race_free && g.rng.chance(10) {
        g.special_name(name)
    } else {
        name.to_string()
    };
    g.declare_params(shape == 2);
    g.scopes.push(Scope::default());
    let sig: Vec<String> = g
        .params
        .iter()
        .map(|p| match &p.kind {
            ParamKind::Scalar(t) => format!("{}: {}", p.name, t.name()),
            ParamKind::Buffer { elem, .. } => format!("{}: ptr<global, {}>", p.name, elem.name()),
        })
        .collect();
    let _ = writeln!(g.out, "kernel {kname}({}) {{", sig.join(", "));
    for p in g.params.clone() {
        if let ParamKind::Scalar(t) = p.kind {
            g.bind(&p.name, t, false, false);
        }
    }
    // Shared arrays: race-free kernels give each work-item of a workgroup (up to 128) its
    // own element. A quarter of the time one more array fills LDS to its 65536-byte limit
    // or just under it (arrays sit at 8-byte-aligned offsets, as LANGUAGE.md says): placed
    // first, it puts the others at the top of LDS; placed last, it ends there.
    if g.rng.chance(40) {
        let len = if race_free { 128 } else { 64 };
        let mut arrays: Vec<(String, Ty, u64)> = (0..g.rng.range(1, 2))
            .map(|_| (g.fresh("sh"), *g.rng.pick(&NUMS), len))
            .collect();
        if g.rng.chance(25) {
            // Every other array is a multiple of 8 bytes, so the filler may take the rest.
            let used: u64 = arrays.iter().map(|(_, t, n)| n * t.size()).sum();
            let t = *g.rng.pick(&NUMS);
            let fill = (65536 - used) / t.size() - g.rng.below(3) as u64;
            let filler = (g.fresh("big"), t, fill);
            if g.rng.chance(50) {
                arrays.insert(0, filler);
            } else {
                arrays.push(filler);
            }
        }
        for (sh, t, n) in arrays {
            g.line(&format!("shared {sh}: [{}; {n}];", t.name()));
            g.shared.push((sh, t));
        }
    }
    if g.explicit {
        g.line("let e = convergence_entry();");
        g.scopes[0].tok = Some("e".into());
    }
    // A few values to start from, so expressions have bindings to refer to.
    g.line("let tid = workitem_id(x);");
    g.bind("tid", Ty::I32, false, true);
    if g.rng.chance(50) {
        g.line("let wg = workgroup_id(x);");
        g.bind("wg", Ty::I32, false, false);
    }
    match shape {
        1 => g.else_if_chain(),
        3 => g.deep_nest(),
        _ => {}
    }
    g.body(0, false);
    // Keep every variable alive to the end.
    let vars: Vec<Binding> = g.visible().filter(|b| b.mutable).cloned().collect();
    for (i, v) in vars.iter().enumerate() {
        let (buf, elem) = g.out_buffer_for(v.ty);
        let place = g.place(&buf, &format!("{}", 100 + i), elem);
        let val = g.convert(&v.name, v.ty, elem);
        g.line(&format!("{place} = {val};"));
    }
    g.out.push_str("}\n");
    Kernel {
        name: kname,
        text: without_divergent_barriers(g.out),
        params: g.params,
    }
}

/// The kernel without the barriers kc rejects as under divergent control flow. The
/// generator's divergence flags are a bias, not a proof (a "uniform" condition may pick a
/// divergent leaf), so kc's own check (analysis/convergence_checks.rs) decides; such a
/// barrier was undefined behaviour before that check existed, so the reference run failed
/// and the kernel was skipped. One statement per line: the flagged lines are emptied.
fn without_divergent_barriers(text: String) -> String {
    use kc_compiler::pipeline::{self, Failure, Input, Options, Stage};
    let input = Input {
        name: "gen.k".into(),
        text: text.clone(),
        is_ir: false,
    };
    let Err(Failure::Diagnostics(d)) = pipeline::run(&input, &Options::new(Stage::CfIr)) else {
        return text;
    };
    let lines: Vec<usize> = d
        .lines()
        .filter(|l| l.contains("error: barrier() under divergent control flow"))
        .filter_map(|l| l.strip_prefix("gen.k:")?.split(':').next()?.parse().ok())
        .collect();
    if lines.is_empty() {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.lines().enumerate() {
        if lines.contains(&(i + 1)) && line.trim_start().starts_with("barrier()") {
            out.push('\n');
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[derive(Default)]
struct Scope {
    vals: Vec<Binding>,
    /// The token convergent calls in this scope use (a heart, an anchor, the entry token).
    tok: Option<String>,
    /// A loop body: tokens of enclosing scopes are not usable here (LANGUAGE.md §7).
    loop_body: bool,
    /// This scope ended with `break`/`continue`/`return`.
    closed: bool,
}

#[derive(Clone)]
struct Binding {
    name: String,
    ty: Ty,
    mutable: bool,
    /// Rough guess (the generator does not track divergence precisely): derived from a
    /// divergent expression or assigned under divergent control.
    divergent: bool,
}

struct Gen {
    rng: Rng,
    out: String,
    indent: usize,
    scopes: Vec<Scope>,
    /// Enclosing loops.
    loops: usize,
    explicit: bool,
    next_id: usize,
    /// Statements left to generate.
    budget: usize,
    /// Shared arrays: (name, element type).
    shared: Vec<(String, Ty)>,
    /// Inside an expression where a convergent call cannot get a token.
    no_convergent: bool,
    /// See [`race_free_kernel`].
    race_free: bool,
    params: Vec<Param>,
    /// Parameter names taken (they must be unique).
    used_names: Vec<String>,
}

impl Gen {
    // --- parameters and names -----------------------------------------------------------

    /// A special name not yet used (or `fallback` with a suffix if all are).
    fn special_name(&mut self, fallback: &str) -> String {
        for _ in 0..8 {
            let n = self.rng.pick(SPECIAL_NAMES).to_string();
            if !self.used_names.contains(&n) && !RESERVED.contains(&n.as_str()) {
                self.used_names.push(n.clone());
                return n;
            }
        }
        let n = format!("{fallback}_{}", self.used_names.len());
        self.used_names.push(n.clone());
        n
    }

    fn param_name(&mut self, plain: &str) -> String {
        if self.rng.chance(12) {
            return self.special_name(plain);
        }
        // Generated local names (`a1`, `v2`, ...) never contain `_`.
        let mut n = plain.to_string();
        while self.used_names.contains(&n) {
            n = format!("{plain}_{}", self.used_names.len());
        }
        self.used_names.push(n.clone());
        n
    }

    /// `out` and `buf` (i32, as before), `n`, `m` (i32), `flag` (bool), and a random
    /// selection of typed buffers and scalars; `many` adds dozens of scalars.
    fn declare_params(&mut self, many: bool) {
        let out_len = if self.race_free {
            RACE_FREE_OUT_LEN
        } else {
            READ_ONLY_LEN
        };
        for n in ["out", "buf", "n", "m", "flag", "tid", "wg", "e"] {
            self.used_names.push(n.into());
        }
        let buffer = |name: &str, elem, writable| Param {
            name: name.into(),
            kind: ParamKind::Buffer {
                elem,
                len: if writable { out_len } else { READ_ONLY_LEN },
                writable,
            },
        };
        self.params.push(buffer("out", Ty::I32, true));
        self.params.push(buffer("buf", Ty::I32, false));
        for _ in 0..self.rng.range(0, 3) {
            let elem = *self
                .rng
                .pick(&[Ty::U32, Ty::I64, Ty::U64, Ty::F32, Ty::I32]);
            let writable = self.rng.chance(60);
            let name = self.param_name(if writable { "dst" } else { "src" });
            self.params.push(buffer(&name, elem, writable));
        }
        let scalar = |name: &str, t| Param {
            name: name.into(),
            kind: ParamKind::Scalar(t),
        };
        self.params.push(scalar("n", Ty::I32));
        self.params.push(scalar("m", Ty::I32));
        self.params.push(scalar("flag", Ty::Bool));
        let extra = if many {
            self.rng.range(20, 110)
        } else {
            self.rng.range(0, 4)
        };
        for _ in 0..extra {
            let t = *self
                .rng
                .pick(&[Ty::I32, Ty::U32, Ty::I64, Ty::U64, Ty::F32, Ty::Bool]);
            let plain = self.rng.pick(PLAIN_NAMES).to_string();
            let name = self.param_name(&plain);
            self.params.push(scalar(&name, t));
        }
    }

    /// Writable buffers of element type `t`.
    fn out_buffers(&self, t: Ty) -> Vec<String> {
        self.params
            .iter()
            .filter_map(|p| match p.kind {
                ParamKind::Buffer {
                    elem,
                    writable: true,
                    ..
                } if elem == t => Some(p.name.clone()),
                _ => None,
            })
            .collect()
    }

    fn buffers(&self, writable_only: bool) -> Vec<(String, Ty)> {
        self.params
            .iter()
            .filter_map(|p| match p.kind {
                ParamKind::Buffer { elem, writable, .. } if writable || !writable_only => {
                    Some((p.name.clone(), elem))
                }
                _ => None,
            })
            .collect()
    }

    /// A writable buffer for a value of type `t`: one of that element type if there is one,
    /// else `out` (the value is then converted).
    fn out_buffer_for(&mut self, t: Ty) -> (String, Ty) {
        let same = self.out_buffers(t);
        if !same.is_empty() {
            return (self.rng.pick(&same).clone(), t);
        }
        ("out".into(), Ty::I32)
    }

    /// `e` of type `from` as a value of type `to` (`bool` becomes 0/1, never the reverse).
    fn convert(&mut self, e: &str, from: Ty, to: Ty) -> String {
        if from == to {
            e.to_string()
        } else if to == Ty::Bool {
            let zero = if from == Ty::F32 { "0.0" } else { "0" };
            format!("(({e}) != {zero})")
        } else {
            format!("(({e}) as {})", to.name())
        }
    }

    // --- places -------------------------------------------------------------------------

    /// The element `buffer[i]` a store or atomic writes: with `race_free`, one of the work
    /// item's own slots instead. `i` is an expression of any integer type (`elem` unused
    /// but for symmetry with loads).
    fn place(&self, buffer: &str, i: &str, _elem: Ty) -> String {
        if self.race_free {
            format!("{buffer}[(workgroup_id(x) * workgroup_size(x) + tid) * 16 + ((({i}) & 15) as i32)]")
        } else {
            format!("{buffer}[{i}]")
        }
    }

    /// A shared-memory element: with `race_free`, the work-item's own.
    fn shared_place(&self, sh: &str, i: &str) -> String {
        if self.race_free {
            format!("{sh}[tid & 127]")
        } else {
            format!("{sh}[({i}) & 63]")
        }
    }

    /// An index expression of a random integer type; `bounded` keeps it within a read-only
    /// buffer (race-free loads).
    fn index(&mut self, depth: u32, div: Option<bool>, bounded: bool) -> String {
        let t = *self
            .rng
            .pick(&[Ty::I32, Ty::I32, Ty::U32, Ty::I64, Ty::U64]);
        let i = self.expr(t, depth, div);
        if bounded {
            format!("({i}) & {}", READ_ONLY_LEN - 1)
        } else {
            i
        }
    }

    // --- output -------------------------------------------------------------------------

    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!("{prefix}{}", self.next_id)
    }

    fn bind(&mut self, name: &str, ty: Ty, mutable: bool, divergent: bool) {
        self.scopes.last_mut().expect("scope").vals.push(Binding {
            name: name.into(),
            ty,
            mutable,
            divergent,
        });
    }

    fn visible(&self) -> impl Iterator<Item = &Binding> {
        self.scopes.iter().flat_map(|s| s.vals.iter())
    }

    /// The token for a convergent call here, if there is one (explicit mode).
    fn token(&self) -> Option<String> {
        for s in self.scopes.iter().rev() {
            if s.tok.is_some() {
                return s.tok.clone();
            }
            if s.loop_body {
                return None;
            }
        }
        None
    }

    /// Can a convergent call be generated here?
    fn convergent_ok(&self) -> bool {
        !self.no_convergent && (!self.explicit || self.token().is_some())
    }

    /// ` @ tok` in explicit mode.
    fn at(&self) -> String {
        match (self.explicit, self.token()) {
            (true, Some(t)) => format!(" @ {t}"),
            _ => String::new(),
        }
    }

    /// In explicit mode, makes sure a token is usable here by defining an anchor.
    fn ensure_token(&mut self) {
        if self.explicit && self.token().is_none() {
            let a = self.fresh("t");
            self.line(&format!("let {a} = convergence_anchor();"));
            self.scopes.last_mut().expect("scope").tok = Some(a);
        }
    }

    // --- expressions ------------------------------------------------------------------

    /// An expression of type `ty`; `div` biases towards divergent (`Some(true)`) or uniform
    /// (`Some(false)`) leaves.
    fn expr(&mut self, ty: Ty, depth: u32, div: Option<bool>) -> String {
        if ty == Ty::Bool {
            return self.cond(depth, div);
        }
        let leafy = depth == 0 || self.rng.chance(35 + 15 * (3u32.saturating_sub(depth)));
        if leafy {
            return self.leaf(ty, div);
        }
        let conv = self.convergent_ok();
        let loadable = !self.loads_of(ty).is_empty();
        let atomics = !self.atomic_places(ty).is_empty();
        let w = [
            30,                                                // 0 binary
            if loadable { 8 } else { 0 },                      // 1 load
            if atomics && div != Some(false) { 4 } else { 0 }, // 2 atomic
            if conv { 10 } else { 0 },                         // 3 cross-lane
            5,                                                 // 4 select
            5,                                                 // 5 min/max
            8,                                                 // 6 cast
            if ty == Ty::F32 || ty.is_int() { 4 } else { 0 },  // 7 unary
        ];
        match self.rng.weighted(&w) {
            0 => self.binary(ty, depth, div),
            1 => {
                let loads = self.loads_of(ty);
                let (src, shared) = self.rng.pick(&loads).clone();
                if shared {
                    let i = self.index(depth - 1, div, false);
                    self.shared_place(&src, &i)
                } else if self.race_free && self.buffers(true).iter().any(|b| b.0 == src) {
                    // Other work-items write the rest of a writable buffer: read an own slot.
                    let i = self.index(depth - 1, div, false);
                    self.place(&src, &i, ty)
                } else {
                    let i = self.index(depth - 1, div, self.race_free);
                    format!("{src}[{i}]")
                }
            }
            2 => self.atomic(ty, depth),
            3 => self.cross_lane(ty, depth),
            4 => {
                let c = self.cond(depth - 1, div);
                let a = self.expr(ty, depth - 1, div);
                let b = self.expr(ty, depth - 1, div);
                format!("select({c}, {a}, {b})")
            }
            5 => {
                let f = *self.rng.pick(&["min", "max"]);
                let a = self.expr(ty, depth - 1, div);
                let b = self.expr(ty, depth - 1, div);
                format!("{f}({a}, {b})")
            }
            6 => {
                // From any numeric type, or from bool to an integer.
                let from = if ty.is_int() && self.rng.chance(15) {
                    Ty::Bool
                } else {
                    *self.rng.pick(&NUMS)
                };
                let e = self.expr(from, depth - 1, div);
                format!("(({e}) as {})", ty.name())
            }
            _ => {
                let a = self.expr(ty, depth - 1, div);
                if ty == Ty::F32 || ty.is_signed() && self.rng.chance(50) {
                    format!("(-{a})")
                } else {
                    format!("(~{a})")
                }
            }
        }
    }

    fn binary(&mut self, ty: Ty, depth: u32, div: Option<bool>) -> String {
        let ops: &[&str] = if ty == Ty::F32 {
            &["+", "-", "*", "/", "+", "*"]
        } else {
            &["+", "-", "*", "&", "|", "^", "<<", ">>", "+", "-", "/", "%"]
        };
        let op = *self.rng.pick(ops);
        let a = self.expr(ty, depth - 1, div);
        // A literal right operand takes its type from the left one (LANGUAGE.md §4.1),
        // up to the type's limits.
        let b = if ty.is_int() && self.rng.chance(20) {
            self.int_literal(ty, true)
        } else {
            self.expr(ty, depth - 1, div)
        };
        if matches!(op, "/" | "%") && ty.is_int() && self.rng.chance(70) {
            // Mostly a divisor that cannot be 0 (or -1), so the reference run has a meaning.
            return format!("({a} {op} (({b}) & 7 | 1))");
        }
        format!("({a} {op} {b})")
    }

    /// An integer literal of type `t` (without a cast: the context types it), sometimes at
    /// the limits of the type.
    fn int_literal(&mut self, t: Ty, typed_by_context: bool) -> String {
        let small = self.rng.below(16).to_string();
        if !typed_by_context || self.rng.chance(60) {
            return small;
        }
        match t {
            Ty::I32 => self
                .rng
                .pick(&["2147483647", "-2147483648", "0x7fff_ffff", "65536"]),
            Ty::U32 => self
                .rng
                .pick(&["4294967295", "0xffff_ffff", "2147483648", "65536"]),
            Ty::I64 => self.rng.pick(&[
                "9223372036854775807",
                "-9223372036854775808",
                "4294967296",
                "0x1_0000_0001",
            ]),
            _ => self.rng.pick(&[
                "18446744073709551615",
                "0xffff_ffff_ffff_ffff",
                "4294967296",
                "9223372036854775808",
            ]),
        }
        .to_string()
    }

    fn float_literal(&mut self) -> String {
        self.rng
            .pick(&[
                "0.0", "1.0", "0.5", "2.5", "1.5e3", "1e-3", "3.0", "1e30", "1e-40", "100.25",
            ])
            .to_string()
    }

    /// Read-only and writable buffers and shared arrays of element type `t`: (name, shared).
    fn loads_of(&self, t: Ty) -> Vec<(String, bool)> {
        let mut v: Vec<(String, bool)> = self
            .buffers(false)
            .into_iter()
            .filter(|b| b.1 == t)
            .map(|b| (b.0, false))
            .collect();
        v.extend(self.shared_of(t));
        v
    }

    /// The shared arrays of element type `t`, as `(name, true)` places.
    fn shared_of(&self, t: Ty) -> impl Iterator<Item = (String, bool)> + '_ {
        self.shared
            .iter()
            .filter(move |s| s.1 == t)
            .map(|s| (s.0.clone(), true))
    }

    /// Places atomics of result type `t` can use: writable buffers and shared arrays of
    /// element type `t` (integers, or `f32` for `atomic_add`).
    fn atomic_places(&self, t: Ty) -> Vec<(String, bool)> {
        if t == Ty::Bool {
            return Vec::new();
        }
        let mut v: Vec<(String, bool)> = self
            .out_buffers(t)
            .into_iter()
            .map(|b| (b, false))
            .collect();
        v.extend(self.shared_of(t));
        v
    }

    /// `&place` for an atomic of type `ty`, at a random index.
    fn atomic_pointer(&mut self, ty: Ty, depth: u32) -> String {
        let places = self.atomic_places(ty);
        let (target, shared) = self.rng.pick(&places).clone();
        let i = self.index(depth - 1, None, false);
        if shared {
            format!("&{}", self.shared_place(&target, &i))
        } else {
            format!("&{}", self.place(&target, &i, ty))
        }
    }

    /// The optional memory ordering and scope after an atomic's or a fence's arguments: none
    /// (the defaults), an ordering from `orderings`, or an ordering and a scope (LANGUAGE.md
    /// §6.1); with a leading `, ` when `comma`.
    fn sync_args(&mut self, orderings: &[&str], comma: bool) -> String {
        const SCOPES: [&str; 4] = ["wavefront", "workgroup", "agent", "system"];
        let sep = if comma { ", " } else { "" };
        match self.rng.below(3) {
            0 => String::new(),
            1 => format!("{sep}{}", self.rng.pick(orderings)),
            _ => format!(
                "{sep}{}, {}",
                self.rng.pick(orderings),
                self.rng.pick(&SCOPES)
            ),
        }
    }

    fn atomic(&mut self, ty: Ty, depth: u32) -> String {
        const ALL: [&str; 5] = ["relaxed", "acquire", "release", "acq_rel", "seq_cst"];
        let p = self.atomic_pointer(ty, depth);
        if self.rng.chance(15) {
            let o = self.sync_args(&["relaxed", "acquire", "seq_cst"], true);
            return format!("atomic_load({p}{o})");
        }
        let v = self.expr(ty, depth - 1, None);
        let o = self.sync_args(&ALL, true);
        if ty == Ty::F32 {
            return format!("atomic_add({p}, {v}{o})");
        }
        match self.rng.below(6) {
            0 => format!("atomic_add({p}, {v}{o})"),
            1 => format!("atomic_min({p}, {v}{o})"),
            2 => format!("atomic_max({p}, {v}{o})"),
            3 => format!("atomic_xchg({p}, {v}{o})"),
            _ => {
                let c = self.expr(ty, depth - 1, None);
                format!("atomic_cmpxchg({p}, {c}, {v}{o})")
            }
        }
    }

    fn cross_lane(&mut self, ty: Ty, depth: u32) -> String {
        let at = self.at();
        match self.rng.below(6) {
            0 => format!("readfirstlane({}){at}", self.expr(ty, depth - 1, None)),
            k @ 1..=3 => {
                // A reduction or, a third of the time in race-free kernels, an inclusive scan
                // (only those: `kernel`'s other users export to MLIR's gpu dialect, which has
                // no scan, and keep their kernels as they were).
                let scan = self.race_free && self.rng.chance(33);
                let f = if scan { "scan" } else { "reduce" };
                let op = ["add", "min", "max"][k - 1];
                format!("{f}_{op}({}){at}", self.expr(ty, depth - 1, None))
            }
            4 => {
                let v = self.expr(ty, depth - 1, None);
                let l = self.expr(Ty::I32, depth - 1, None);
                format!("shuffle({v}, {l}){at}")
            }
            _ => {
                let b = format!("ballot({}){at}", self.cond(depth - 1, None));
                self.convert(&b, Ty::U64, ty)
            }
        }
    }

    fn leaf(&mut self, ty: Ty, div: Option<bool>) -> String {
        let want_div = match div {
            Some(d) => {
                if self.rng.chance(85) {
                    d
                } else {
                    !d
                }
            }
            None => self.rng.chance(40),
        };
        let candidates: Vec<String> = self
            .visible()
            .filter(|b| b.divergent == want_div && b.ty == ty)
            .map(|b| b.name.clone())
            .collect();
        if !candidates.is_empty() && self.rng.chance(55) {
            return self.rng.pick(&candidates).clone();
        }
        let base = if want_div {
            match self.rng.below(5) {
                0 | 1 => "workitem_id(x)",
                2 => "lane_id()",
                3 => "workitem_id(y)",
                _ => "tid",
            }
            .to_string()
        } else {
            match self.rng.below(9) {
                0 | 1 => "n".into(),
                2 => "m".into(),
                3 => "workgroup_id(x)".into(),
                4 => "workgroup_size(x)".into(),
                5 => "num_workgroups(x)".into(),
                6 => "wave_size()".into(),
                _ => {
                    return match ty {
                        Ty::F32 => self.float_literal(),
                        Ty::I32 => self.int_literal(ty, false),
                        // A literal alone has no context: cast an i32 one.
                        _ => format!("({} as {})", self.int_literal(ty, false), ty.name()),
                    };
                }
            }
        };
        if ty == Ty::I32 {
            base
        } else {
            format!("({base} as {})", ty.name())
        }
    }

    /// A `bool` expression.
    fn cond(&mut self, depth: u32, div: Option<bool>) -> String {
        if depth > 0 && self.rng.chance(20) {
            let a = self.cond(depth - 1, div);
            let b = self.cond(depth - 1, div);
            let op = *self.rng.pick(&["&&", "||", "&", "|", "^"]);
            return format!("({a} {op} {b})");
        }
        if depth > 0 && self.rng.chance(8) {
            return format!("!({})", self.cond(depth - 1, div));
        }
        if div != Some(true) && self.rng.chance(8) {
            return "flag".into();
        }
        let bools: Vec<String> = self
            .visible()
            .filter(|b| b.ty == Ty::Bool && (div.is_none() || Some(b.divergent) == div))
            .map(|b| b.name.clone())
            .collect();
        if !bools.is_empty() && self.rng.chance(10) {
            return self.rng.pick(&bools).clone();
        }
        // Mostly i32 (loop counters and ids), the other types too.
        let t = if self.rng.chance(60) {
            Ty::I32
        } else {
            *self.rng.pick(&NUMS)
        };
        let op = *self.rng.pick(&["<", "<=", ">", ">=", "==", "!="]);
        let a = self.expr(t, depth.min(2), div);
        let b = self.expr(t, depth.min(1), div);
        format!("{a} {op} {b}")
    }

    /// A condition that is uniform or divergent (roughly) at random.
    fn any_cond(&mut self) -> (String, bool) {
        let div = self.rng.chance(50);
        (self.cond(2, Some(div)), div)
    }

    // --- statements -------------------------------------------------------------------

    fn push_scope(&mut self, loop_body: bool, tok: Option<String>) {
        self.scopes.push(Scope {
            vals: Vec::new(),
            tok,
            loop_body,
            closed: false,
        });
        self.indent += 1;
    }

    fn pop_scope(&mut self) -> bool {
        self.indent -= 1;
        self.scopes.pop().expect("scope").closed
    }

    /// Statements of the current scope (already pushed by the caller, except at top level).
    fn body(&mut self, depth: u32, divergent_ctx: bool) {
        let n = self.rng.range(1, 4);
        for _ in 0..n {
            if self.budget == 0 || self.scopes.last().expect("scope").closed {
                break;
            }
            self.budget -= 1;
            self.stmt(depth, divergent_ctx);
        }
    }

    fn mutable_vars(&self) -> Vec<Binding> {
        self.visible().filter(|b| b.mutable).cloned().collect()
    }

    fn mark_assigned(&mut self, name: &str, divergent: bool) {
        if !divergent {
            return;
        }
        for s in self.scopes.iter_mut() {
            for b in s.vals.iter_mut() {
                if b.name == name {
                    b.divergent = true;
                }
            }
        }
    }

    /// A random type for a new binding: mostly `i32`.
    fn binding_type(&mut self) -> Ty {
        if self.rng.chance(50) {
            Ty::I32
        } else {
            *self
                .rng
                .pick(&[Ty::U32, Ty::I64, Ty::U64, Ty::F32, Ty::Bool, Ty::F32])
        }
    }

    fn stmt(&mut self, depth: u32, dctx: bool) {
        let nest = depth < 4;
        let in_loop = self.loops > 0;
        let w = [
            10, // 0 let
            6,  // 1 var
            if self.mutable_vars().is_empty() {
                0
            } else {
                14
            }, // 2 assign
            6,  // 3 store
            3,  // 4 atomic / barrier statement
            if nest { 14 } else { 0 }, // 5 if
            if nest { 5 } else { 0 }, // 6 while
            if nest { 5 } else { 0 }, // 7 for
            if nest { 5 } else { 0 }, // 8 loop
            if in_loop { 7 } else { 0 }, // 9 guarded break/continue
            3,  // 10 guarded return
            if self.explicit { 2 } else { 0 }, // 11 anchor
        ];
        match self.rng.weighted(&w) {
            0 => {
                let name = self.fresh("a");
                let div = self.rng.chance(50);
                let t = self.binding_type();
                let e = self.expr(t, 3, Some(div));
                if self.rng.chance(40) {
                    self.line(&format!("let {name}: {} = {e};", t.name()));
                } else {
                    self.line(&format!("let {name} = {e};"));
                }
                self.bind(&name, t, false, div);
            }
            1 => {
                let name = self.fresh("v");
                let div = self.rng.chance(30);
                let t = self.binding_type();
                let e = match t {
                    Ty::Bool if self.rng.chance(50) => "false".to_string(),
                    Ty::F32 if self.rng.chance(50) => self.float_literal(),
                    t if t.is_int() && self.rng.chance(50) => self.int_literal(t, true),
                    t => self.expr(t, 2, Some(div)),
                };
                self.line(&format!("var {name}: {} = {e};", t.name()));
                self.bind(&name, t, true, div);
            }
            2 => self.assign(dctx),
            3 => self.store(),
            4 => {
                if !dctx && self.rng.chance(40) {
                    self.ensure_token();
                    let at = self.at();
                    self.line(&format!("barrier(){at};"));
                } else if self.rng.chance(25) {
                    let o = self.sync_args(&["acquire", "release", "acq_rel", "seq_cst"], false);
                    self.line(&format!("fence({o});"));
                } else {
                    let t = *self.rng.pick(&NUMS);
                    if self.atomic_places(t).is_empty() {
                        return self.store();
                    }
                    if self.rng.chance(25) {
                        let p = self.atomic_pointer(t, 2);
                        let v = self.expr(t, 1, None);
                        let o = self.sync_args(&["relaxed", "release", "seq_cst"], true);
                        self.line(&format!("atomic_store({p}, {v}{o});"));
                        return;
                    }
                    let a = self.atomic(t, 2);
                    self.line(&format!("{a};"));
                }
            }
            5 => self.if_stmt(depth, dctx),
            6 => self.while_stmt(depth, dctx),
            7 => self.for_stmt(depth, dctx),
            8 => self.loop_stmt(depth, dctx),
            9 => {
                let (c, div) = self.any_cond();
                self.line(&format!("if {c} {{"));
                self.push_scope(false, None);
                if self.rng.chance(60) {
                    self.assign_const(dctx || div);
                }
                if self.rng.chance(20) {
                    self.body(depth + 1, dctx || div);
                }
                if !self.scopes.last().expect("scope").closed {
                    let kw = if self.rng.chance(65) {
                        "break"
                    } else {
                        "continue"
                    };
                    self.line(&format!("{kw};"));
                }
                self.pop_scope();
                self.line("}");
            }
            10 => {
                let (c, _) = self.any_cond();
                self.line(&format!("if {c} {{"));
                self.push_scope(false, None);
                if self.rng.chance(50) {
                    self.store();
                }
                self.line("return;");
                self.pop_scope();
                self.line("}");
            }
            _ => {
                let a = self.fresh("t");
                self.line(&format!("let {a} = convergence_anchor();"));
                self.scopes.last_mut().expect("scope").tok = Some(a);
            }
        }
    }

    /// A store of a value of the element type to a writable buffer or a shared array.
    fn store(&mut self) {
        if !self.shared.is_empty() && self.rng.chance(30) {
            let (sh, t) = self.rng.pick(&self.shared).clone();
            let i = self.index(2, None, false);
            let v = self.expr(t, 3, None);
            let place = self.shared_place(&sh, &i);
            self.line(&format!("{place} = {v};"));
            return;
        }
        // Without the race-free rule, stores may also go to the read-only inputs.
        let outs = self.buffers(self.race_free);
        let (b, t) = self.rng.pick(&outs).clone();
        let i = self.index(2, None, false);
        let v = self.expr(t, 3, None);
        let place = self.place(&b, &i, t);
        self.line(&format!("{place} = {v};"));
    }

    fn assign(&mut self, dctx: bool) {
        let vars = self.mutable_vars();
        let var = self.rng.pick(&vars).clone();
        let (v, t) = (var.name.as_str(), var.ty);
        let div = self.rng.chance(40);
        match self.rng.below(4) {
            0 => {
                let c = match t {
                    Ty::Bool => "true".to_string(),
                    Ty::F32 => self.float_literal(),
                    _ => self.int_literal(t, true),
                };
                self.line(&format!("{v} = {c};"));
                self.mark_assigned(v, dctx);
            }
            1 => {
                let ops: &[&str] = match t {
                    Ty::Bool => &["&=", "|=", "^="],
                    Ty::F32 => &["+=", "-=", "*=", "/="],
                    _ => &["+=", "-=", "*=", "^=", "|=", "&=", "<<=", ">>=", "%=", "/="],
                };
                let op = *self.rng.pick(ops);
                let mut e = self.expr(t, 2, Some(div));
                if t.is_int() && matches!(op, "%=" | "/=") {
                    e = format!("(({e}) & 7 | 1)");
                }
                self.line(&format!("{v} {op} {e};"));
                self.mark_assigned(v, dctx || div);
            }
            _ => {
                let e = self.expr(t, 3, Some(div));
                self.line(&format!("{v} = {e};"));
                self.mark_assigned(v, dctx || div);
            }
        }
    }

    fn assign_const(&mut self, dctx: bool) {
        let vars = self.mutable_vars();
        if vars.is_empty() {
            return;
        }
        let var = self.rng.pick(&vars).clone();
        let c = match var.ty {
            Ty::Bool => "true".to_string(),
            Ty::F32 => self.float_literal(),
            t => self.int_literal(t, true),
        };
        self.line(&format!("{} = {c};", var.name));
        self.mark_assigned(&var.name, dctx);
    }

    /// A block `{ ... }` after a header line that the caller printed (ending in `{`).
    fn block(&mut self, depth: u32, dctx: bool) -> bool {
        self.push_scope(false, None);
        self.body(depth + 1, dctx);
        let closed = self.pop_scope();
        self.line("}");
        closed
    }

    fn if_stmt(&mut self, depth: u32, dctx: bool) {
        let (c, div) = self.any_cond();
        self.line(&format!("if {c} {{"));
        let mut all_closed = self.block(depth, dctx || div);
        let mut has_else = false;
        while self.rng.chance(35) {
            // `} else if c {` / `} else {`: rewrite the closing brace just printed.
            self.unprint_close();
            has_else = true;
            if self.rng.chance(40) {
                let (c2, div2) = self.any_cond();
                self.line(&format!("}} else if {c2} {{"));
                all_closed &= self.block(depth, dctx || div || div2);
            } else {
                self.line("} else {");
                all_closed &= self.block(depth, dctx || div);
                break;
            }
        }
        if !has_else {
            all_closed = false;
        }
        // Code after an if whose every branch left is unreachable; end the scope.
        if all_closed {
            self.scopes.last_mut().expect("scope").closed = true;
        }
    }

    /// A wide shape: a long `else if` chain on one selector (uniform or divergent), each arm
    /// assigning a `var` and sometimes storing.
    fn else_if_chain(&mut self) {
        let arms = self.rng.range(20, 300);
        let div = self.rng.chance(50);
        let sel = self.fresh("sel");
        let t = *self.rng.pick(&INTS);
        let e = self.expr(t, 1, Some(div));
        self.line(&format!("let {sel} = {e};"));
        self.bind(&sel, t, false, div);
        let acc = self.fresh("v");
        self.line(&format!("var {acc}: {} = 0;", t.name()));
        self.bind(&acc, t, true, div);
        for k in 0..arms {
            let head = if k == 0 { "if" } else { "} else if" };
            self.line(&format!("{head} {sel} == {k} {{"));
            self.indent += 1;
            self.line(&format!("{acc} = {};", k * 3 + 1));
            if self.rng.chance(25) {
                let place = self.place("out", &format!("{}", k % 16), Ty::I32);
                self.line(&format!("{place} = {k};"));
            }
            self.indent -= 1;
        }
        self.line("}");
        self.mark_assigned(&acc, div);
    }

    /// A wide shape: `if`s nested 20 to 50 deep (the language allows 64 levels of brackets),
    /// each with code after its inner `if`.
    fn deep_nest(&mut self) {
        let levels = self.rng.range(20, 50);
        for k in 0..levels {
            let div = self.rng.chance(70);
            let c = if div {
                format!("tid > {k}")
            } else {
                format!("n > {}", k as i64 - 30)
            };
            self.line(&format!("if {c} {{"));
            self.indent += 1;
        }
        let place = self.place("out", "0", Ty::I32);
        self.line(&format!("{place} = tid;"));
        for k in (0..levels).rev() {
            if self.rng.chance(60) {
                let place = self.place("out", &format!("{}", k % 16), Ty::I32);
                self.line(&format!("{place} = {k};"));
            }
            self.indent -= 1;
            self.line("}");
        }
    }

    /// Removes the last line (a lone `}`) so an `else` can continue the `if`.
    fn unprint_close(&mut self) {
        let trimmed = self.out.trim_end_matches('\n');
        let cut = trimmed.rfind('\n').map_or(0, |i| i + 1);
        debug_assert_eq!(self.out[cut..].trim(), "}");
        self.out.truncate(cut);
    }

    /// ` heart hN(parent)` (explicit mode, usually), and the token for the body.
    fn heart(&mut self) -> (String, Option<String>) {
        if !self.explicit || self.rng.chance(20) {
            return (String::new(), None);
        }
        self.ensure_token();
        let parent = self.token().expect("ensured");
        let h = self.fresh("h");
        (format!(" heart {h}({parent})"), Some(h))
    }

    /// Often, a trip guard for a `loop` or an uncounted `while`: a counter declared before
    /// the loop (so that most generated loops end and the execution test can compare them).
    fn trip_guard(&mut self) -> Option<String> {
        if !self.rng.chance(70) {
            return None;
        }
        let g = self.fresh("g");
        self.line(&format!("var {g} = 0;"));
        Some(g)
    }

    fn loop_body(
        &mut self,
        depth: u32,
        dctx: bool,
        tok: Option<String>,
        force_break: bool,
        guard: Option<String>,
    ) {
        self.loops += 1;
        self.push_scope(true, tok);
        if let Some(g) = guard {
            self.line(&format!("{g} += 1;"));
            self.line(&format!("if {g} > 24 {{ break; }}"));
        }
        let n = self.rng.range(1, 4);
        let brk = if force_break {
            self.rng.below(n + 1)
        } else {
            usize::MAX
        };
        for i in 0..=n {
            if i == brk {
                let (c, div) = self.any_cond();
                self.line(&format!("if {c} {{"));
                self.push_scope(false, None);
                if self.rng.chance(60) {
                    self.assign_const(dctx || div);
                }
                if self.rng.chance(30) && self.convergent_ok() {
                    let t = *self.rng.pick(&NUMS);
                    let v = self.expr(t, 1, None);
                    let at = self.at();
                    let slot = self.rng.below(8);
                    let (buf, elem) = self.out_buffer_for(t);
                    let place = self.place(&buf, &slot.to_string(), elem);
                    let val = self.convert(&format!("readfirstlane({v}){at}"), t, elem);
                    self.line(&format!("{place} = {val};"));
                }
                self.line("break;");
                self.pop_scope();
                self.line("}");
            }
            if i < n && self.budget > 0 && !self.scopes.last().expect("scope").closed {
                self.budget -= 1;
                self.stmt(depth + 1, dctx);
            }
        }
        self.pop_scope();
        self.loops -= 1;
        self.line("}");
    }

    fn while_stmt(&mut self, depth: u32, dctx: bool) {
        let div = self.rng.chance(45);
        if self.rng.chance(60) {
            // Counted: `var i: T = 0; while i < bound { i += 1; ... }`, the counter
            // incremented first (a `continue` cannot skip it) and not assigned by the body
            // (bound as immutable here), so the loop ends.
            let i = self.fresh("i");
            let t = *self
                .rng
                .pick(&[Ty::I32, Ty::I32, Ty::U32, Ty::I64, Ty::U64]);
            self.line(&format!("var {i}: {} = 0;", t.name()));
            self.bind(&i, t, false, false);
            // The condition is inside the loop: no convergent call (explicit mode).
            self.no_convergent = self.explicit;
            let mut bound = self.expr(t, 1, Some(div));
            if t != Ty::I32 || self.rng.chance(50) {
                // Keep the trip count small (a 64-bit bound can be astronomically large).
                bound = format!("(({bound}) & 15)");
            }
            self.no_convergent = false;
            let (heart, tok) = self.heart();
            self.line(&format!("while {i} < {bound}{heart} {{"));
            self.loops += 1;
            self.push_scope(true, tok);
            self.line(&format!("{i} += 1;"));
            self.body(depth + 1, dctx || div);
            self.pop_scope();
            self.loops -= 1;
            self.line("}");
        } else {
            let guard = self.trip_guard();
            let (heart, tok) = self.heart();
            // The condition is inside the loop, before the heart's scope opens: no
            // convergent call there in explicit mode.
            self.no_convergent = self.explicit;
            self.scopes.push(Scope {
                loop_body: true,
                ..Scope::default()
            });
            let c = self.cond(2, Some(div));
            self.scopes.pop();
            self.no_convergent = false;
            self.line(&format!("while {c}{heart} {{"));
            self.loop_body(depth, dctx || div, tok, false, guard);
        }
    }

    fn for_stmt(&mut self, depth: u32, dctx: bool) {
        let div = self.rng.chance(45);
        let t = *self
            .rng
            .pick(&[Ty::I32, Ty::I32, Ty::U32, Ty::I64, Ty::U64]);
        // Small ranges: a 64-bit bound is masked so the loop stays short.
        let lo = if self.rng.chance(70) {
            format!("{}", self.rng.below(3))
        } else {
            format!("(({}) & 7)", self.expr(t, 1, Some(div)))
        };
        let hi = format!("(({}) & 15)", self.expr(t, 1, Some(div)));
        let (lo, hi) = if t == Ty::I32 {
            (lo, hi)
        } else {
            // The range takes the bounds' type: make the first one typed.
            (format!("(({lo}) as {})", t.name()), hi)
        };
        // Sometimes a counting loop that only sums (its counter or a value from before it)
        // or sets an accumulator read after it: what closed-form-loops replaces.
        let acc = (matches!(t, Ty::I32 | Ty::U32) && self.rng.chance(25)).then(|| {
            let a = self.fresh("c");
            let init = self.int_literal(t, true);
            self.line(&format!("var {a}: {} = {init};", t.name()));
            a
        });
        let (heart, tok) = self.heart();
        let f = self.fresh("f");
        self.line(&format!("for {f} in {lo}..{hi}{heart} {{"));
        self.loops += 1;
        self.push_scope(true, tok);
        if let Some(a) = &acc {
            let step = match self.rng.below(3) {
                0 => format!("{a} += {f};"),
                1 => format!("{a} += {};", self.expr(t, 1, Some(div))),
                _ => format!("{a} = {};", self.expr(t, 1, Some(div))),
            };
            self.line(&step);
        }
        self.bind(&f, t, false, div);
        if acc.is_none() || self.rng.chance(30) {
            self.body(depth + 1, dctx || div);
        }
        self.pop_scope();
        self.loops -= 1;
        self.line("}");
        if let Some(a) = acc {
            self.bind(&a, t, true, div);
        }
    }

    fn loop_stmt(&mut self, depth: u32, dctx: bool) {
        let guard = self.trip_guard();
        let (heart, tok) = self.heart();
        self.line(&format!("loop{heart} {{"));
        // Which exit is taken is unknown: treat the body as divergent context.
        let div = dctx || self.rng.chance(50);
        self.loop_body(depth, div, tok, true, guard);
    }
}

/// Names the generator must not use for parameters: keywords, and names its own code uses.
const RESERVED: &[&str] = &["out", "buf", "n", "m", "flag", "tid", "wg", "e", "x", "z"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_varied() {
        let a = kernel("k", 1, Tokens::Implicit);
        assert_eq!(a, kernel("k", 1, Tokens::Implicit));
        assert_ne!(a, kernel("k", 2, Tokens::Implicit));
        assert!(kernel("k", 3, Tokens::Explicit).contains("convergence_entry()"));
    }

    /// Every generated kernel is a valid program: kc's front end accepts it.
    #[test]
    fn every_kernel_checks() {
        use kc_compiler::pipeline::{self, Input, Options, Stage};
        for seed in 0..300u64 {
            for (text, what) in [
                (kernel("k", seed, Tokens::Implicit), "implicit"),
                (kernel("k", seed, Tokens::Explicit), "explicit"),
                (
                    race_free_kernel("k", seed, Tokens::Explicit).text,
                    "race-free",
                ),
            ] {
                let input = Input {
                    name: "gen.k".into(),
                    text: text.clone(),
                    is_ir: false,
                };
                if let Err(e) = pipeline::run(&input, &Options::new(Stage::CfIr)) {
                    panic!("seed {seed} ({what}) is rejected:\n{e:?}\n{text}");
                }
            }
        }
    }

    #[test]
    fn covers_every_type_and_builtin() {
        let all: String = (0..400)
            .map(|s| race_free_kernel("k", s, Tokens::Implicit).text)
            .collect();
        for needle in [
            "u32",
            "i64",
            "u64",
            "f32",
            "bool",
            " as ",
            "atomic_add",
            "atomic_min",
            "atomic_max",
            "atomic_xchg",
            "atomic_cmpxchg",
            "atomic_load(",
            "atomic_store(",
            "fence(",
            "fence()",
            ", relaxed",
            ", acquire",
            ", release",
            ", acq_rel",
            ", seq_cst",
            "(acquire",
            "(release",
            ", wavefront)",
            ", workgroup)",
            ", agent)",
            ", system)",
            "ballot(",
            "readfirstlane(",
            "shuffle(",
            "reduce_add(",
            "reduce_min(",
            "reduce_max(",
            "scan_add(",
            "scan_min(",
            "scan_max(",
            "barrier()",
            "select(",
            "min(",
            "max(",
            "shared ",
            "else if",
            "18446744073709551615",
            "1e-3",
        ] {
            assert!(all.contains(needle), "no `{needle}` in 400 kernels");
        }
    }
}
