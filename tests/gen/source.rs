//! Random structured `.k` kernels.
//!
//! A kernel is a random statement tree: `let`/`var` declarations, assignments and compound
//! assignments to `var`s (in branches and loops, so joins and loop exits get block
//! arguments), stores and atomics, `if`/`else if`/`else`, `while` (counted or on an arbitrary
//! condition), `for` over uniform or divergent ranges, `loop` (always with a guarded
//! `break`), and `break`/`continue`/`return` at any depth, often right after assigning a
//! constant to a `var` (so different exits carry different constants). Expressions mix
//! uniform values (parameters, constants, `workgroup_id`, `readfirstlane`, `ballot`,
//! `reduce_*`, loads at uniform indices) with divergent ones (`workitem_id`, `lane_id`,
//! `shuffle`, atomics, loads at divergent indices); conditions are biased towards one or the
//! other so both uniform and divergent branches are common.
//!
//! With [`Tokens::Explicit`] the kernel starts with `convergence_entry()`, loops get
//! `heart`s (or, without one, anchors inside the body), and every convergent call carries
//! `@ token` following the rules of LANGUAGE.md §7; otherwise kc inserts the tokens.

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

/// A random kernel named `name`, a function of `seed` alone.
pub fn kernel(name: &str, seed: u64, tokens: Tokens) -> String {
    generate(name, seed, tokens, false)
}

/// A random kernel without data races, for differential execution: every store and atomic
/// goes to the executing work-item's own 16 slots of `out` (`out` needs 16 elements per
/// work-item of the grid), `buf` is only read, and shared memory is used only at the
/// work-item's own index (workgroups of at most 128); loads of `buf` stay within its first
/// 1024 elements. Its result is then the same on every
/// interleaving of lanes and waves.
pub fn race_free_kernel(name: &str, seed: u64, tokens: Tokens) -> String {
    generate(name, seed, tokens, true)
}

fn generate(name: &str, seed: u64, tokens: Tokens, race_free: bool) -> String {
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
        shared: false,
        no_convergent: false,
    };
    g.budget = g.rng.range(8, 30);
    g.shared = g.rng.chance(30);
    let _ = writeln!(
        g.out,
        "kernel {name}(out: ptr<global, i32>, buf: ptr<global, i32>, n: i32, m: i32, flag: bool) {{"
    );
    g.scopes.push(Scope::default());
    if g.shared {
        // Race-free kernels give each work-item of a workgroup (up to 128) its own element.
        g.line(if race_free {
            "shared sh: [i32; 128];"
        } else {
            "shared sh: [i32; 64];"
        });
    }
    if g.explicit {
        g.line("let e = convergence_entry();");
        g.scopes[0].tok = Some("e".into());
    }
    // A few values to start from, so expressions have bindings to refer to.
    g.line("let tid = workitem_id(x);");
    g.bind("tid", false, true);
    if g.rng.chance(50) {
        g.line("let wg = workgroup_id(x);");
        g.bind("wg", false, false);
    }
    g.body(0, false);
    // Keep every variable alive to the end.
    let vars: Vec<String> = g
        .visible()
        .filter(|b| b.mutable)
        .map(|b| b.name.clone())
        .collect();
    for (i, v) in vars.iter().enumerate() {
        let place = g.place("out", &format!("{}", 100 + i));
        g.line(&format!("{place} = {v};"));
    }
    g.out.push_str("}\n");
    g.out
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
    shared: bool,
    /// Inside an expression where a convergent call cannot get a token.
    no_convergent: bool,
    /// See [`race_free_kernel`].
    race_free: bool,
}

impl Gen {
    /// The element `buffer[i]` a store or atomic writes: with `race_free`, one of the work
    /// item's own slots of `out` instead.
    fn place(&self, buffer: &str, i: &str) -> String {
        if self.race_free {
            format!("out[(workgroup_id(x) * workgroup_size(x) + tid) * 16 + (({i}) & 15)]")
        } else {
            format!("{buffer}[{i}]")
        }
    }

    /// A shared-memory element: with `race_free`, the work-item's own.
    fn shared_place(&self, i: &str) -> String {
        if self.race_free {
            "sh[tid & 127]".to_string()
        } else {
            format!("sh[({i}) & 63]")
        }
    }

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

    fn bind(&mut self, name: &str, mutable: bool, divergent: bool) {
        self.scopes.last_mut().expect("scope").vals.push(Binding {
            name: name.into(),
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

    /// An `i32` expression; `div` biases towards divergent (`Some(true)`) or uniform
    /// (`Some(false)`) leaves.
    fn expr(&mut self, depth: u32, div: Option<bool>) -> String {
        let leafy = depth == 0 || self.rng.chance(35 + 15 * (3u32.saturating_sub(depth)));
        if leafy {
            return self.leaf(div);
        }
        let conv = self.convergent_ok();
        let w = [
            30,                                     // binary
            8,                                      // load
            if div == Some(false) { 1 } else { 5 }, // atomic
            if conv { 10 } else { 0 },              // cross-lane
            5,                                      // select
            5,                                      // min/max
        ];
        match self.rng.weighted(&w) {
            0 => {
                let op = *self
                    .rng
                    .pick(&["+", "-", "*", "&", "|", "^", "<<", ">>", "+", "-", "/", "%"]);
                let a = self.expr(depth - 1, div);
                let b = self.expr(depth - 1, div);
                format!("({a} {op} {b})")
            }
            1 => {
                let i = self.expr(depth - 1, div);
                if self.shared && self.rng.chance(40) {
                    self.shared_place(&i)
                } else if self.race_free {
                    // In bounds of the 1024-element `buf` of the differential execution test.
                    format!("buf[({i}) & 1023]")
                } else {
                    format!("buf[{i}]")
                }
            }
            2 => {
                let i = self.expr(depth - 1, None);
                let v = self.expr(depth - 1, None);
                let p = if self.shared && self.rng.chance(30) {
                    format!("&{}", self.shared_place(&i))
                } else {
                    format!("&{}", self.place("buf", &i))
                };
                match self.rng.below(4) {
                    0 => format!("atomic_add({p}, {v})"),
                    1 => format!("atomic_max({p}, {v})"),
                    2 => format!("atomic_xchg({p}, {v})"),
                    _ => {
                        let c = self.expr(depth - 1, None);
                        format!("atomic_cmpxchg({p}, {c}, {v})")
                    }
                }
            }
            3 => {
                let at = self.at();
                match self.rng.below(6) {
                    0 => format!("readfirstlane({}){at}", self.expr(depth - 1, None)),
                    1 => format!("reduce_add({}){at}", self.expr(depth - 1, None)),
                    2 => format!("reduce_min({}){at}", self.expr(depth - 1, None)),
                    3 => format!("reduce_max({}){at}", self.expr(depth - 1, None)),
                    4 => {
                        let v = self.expr(depth - 1, None);
                        let l = self.expr(depth - 1, None);
                        format!("shuffle({v}, {l}){at}")
                    }
                    _ => format!("(ballot({}){at} as i32)", self.cond(depth - 1, None)),
                }
            }
            4 => {
                let c = self.cond(depth - 1, div);
                let a = self.expr(depth - 1, div);
                let b = self.expr(depth - 1, div);
                format!("select({c}, {a}, {b})")
            }
            _ => {
                let f = *self.rng.pick(&["min", "max"]);
                let a = self.expr(depth - 1, div);
                let b = self.expr(depth - 1, div);
                format!("{f}({a}, {b})")
            }
        }
    }

    fn leaf(&mut self, div: Option<bool>) -> String {
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
            .filter(|b| b.divergent == want_div)
            .map(|b| b.name.clone())
            .collect();
        if !candidates.is_empty() && self.rng.chance(55) {
            return self.rng.pick(&candidates).clone();
        }
        if want_div {
            match self.rng.below(5) {
                0 | 1 => "workitem_id(x)".into(),
                2 => "lane_id()".into(),
                3 => "workitem_id(y)".into(),
                _ => "tid".into(),
            }
        } else {
            match self.rng.below(9) {
                0 | 1 => "n".into(),
                2 => "m".into(),
                3 => "workgroup_id(x)".into(),
                4 => "workgroup_size(x)".into(),
                5 => "num_workgroups(x)".into(),
                6 => "wave_size()".into(),
                _ => format!("{}", self.rng.below(16)),
            }
        }
    }

    /// A `bool` expression.
    fn cond(&mut self, depth: u32, div: Option<bool>) -> String {
        if depth > 0 && self.rng.chance(20) {
            let a = self.cond(depth - 1, div);
            let b = self.cond(depth - 1, div);
            let op = *self.rng.pick(&["&&", "||"]);
            return format!("({a} {op} {b})");
        }
        if depth > 0 && self.rng.chance(8) {
            return format!("!({})", self.cond(depth - 1, div));
        }
        if div != Some(true) && self.rng.chance(8) {
            return "flag".into();
        }
        let op = *self.rng.pick(&["<", "<=", ">", ">=", "==", "!="]);
        let a = self.expr(depth.min(2), div);
        let b = self.expr(depth.min(1), div);
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

    fn mutable_vars(&self) -> Vec<String> {
        self.visible()
            .filter(|b| b.mutable)
            .map(|b| b.name.clone())
            .collect()
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
            2,  // 4 atomic / barrier statement
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
                let e = self.expr(3, Some(div));
                self.line(&format!("let {name} = {e};"));
                self.bind(&name, false, div);
            }
            1 => {
                let name = self.fresh("v");
                let div = self.rng.chance(30);
                let e = if self.rng.chance(50) {
                    format!("{}", self.rng.below(10))
                } else {
                    self.expr(2, Some(div))
                };
                self.line(&format!("var {name} = {e};"));
                self.bind(&name, true, div);
            }
            2 => self.assign(dctx),
            3 => {
                let i = self.expr(2, None);
                let v = self.expr(3, None);
                if self.shared && self.rng.chance(30) {
                    let place = self.shared_place(&i);
                    self.line(&format!("{place} = {v};"));
                } else {
                    let p = *self.rng.pick(&["out", "buf"]);
                    let place = self.place(p, &i);
                    self.line(&format!("{place} = {v};"));
                }
            }
            4 => {
                if self.rng.chance(40) {
                    self.ensure_token();
                    let at = self.at();
                    self.line(&format!("barrier(){at};"));
                } else {
                    let i = self.expr(2, None);
                    let v = self.expr(2, None);
                    let place = self.place("buf", &i);
                    self.line(&format!("atomic_add(&{place}, {v});"));
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
                let (c, div) = self.any_cond();
                self.line(&format!("if {c} {{"));
                self.push_scope(false, None);
                if self.rng.chance(50) {
                    let i = self.expr(1, None);
                    let v = self.expr(2, None);
                    let place = self.place("out", &i);
                    self.line(&format!("{place} = {v};"));
                }
                let _ = div;
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

    fn assign(&mut self, dctx: bool) {
        let vars = self.mutable_vars();
        let v = self.rng.pick(&vars).clone();
        let div = self.rng.chance(40);
        match self.rng.below(4) {
            0 => {
                let c = self.rng.below(10);
                self.line(&format!("{v} = {c};"));
                self.mark_assigned(&v, dctx);
            }
            1 => {
                let op = *self.rng.pick(&["+=", "-=", "*=", "^=", "|=", "<<=", ">>="]);
                let e = self.expr(2, Some(div));
                self.line(&format!("{v} {op} {e};"));
                self.mark_assigned(&v, dctx || div);
            }
            _ => {
                let e = self.expr(3, Some(div));
                self.line(&format!("{v} = {e};"));
                self.mark_assigned(&v, dctx || div);
            }
        }
    }

    fn assign_const(&mut self, dctx: bool) {
        let vars = self.mutable_vars();
        if vars.is_empty() {
            return;
        }
        let v = self.rng.pick(&vars).clone();
        let c = self.rng.below(10);
        self.line(&format!("{v} = {c};"));
        self.mark_assigned(&v, dctx);
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

    fn loop_body(&mut self, depth: u32, dctx: bool, tok: Option<String>, force_break: bool) {
        self.loops += 1;
        self.push_scope(true, tok);
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
                    let v = self.expr(1, None);
                    let at = self.at();
                    let i = self.rng.below(8);
                    let place = self.place("out", &i.to_string());
                    self.line(&format!("{place} = readfirstlane({v}){at};"));
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
            // Counted: `var i = 0; while i < bound { ...; i += 1; }`.
            let i = self.fresh("i");
            self.line(&format!("var {i} = 0;"));
            self.bind(&i, true, false);
            // The condition is inside the loop: no convergent call (explicit mode).
            self.no_convergent = self.explicit;
            let bound = self.expr(1, Some(div));
            self.no_convergent = false;
            let (heart, tok) = self.heart();
            self.line(&format!("while {i} < {bound}{heart} {{"));
            self.loops += 1;
            self.push_scope(true, tok);
            self.body(depth + 1, dctx || div);
            if !self.scopes.last().expect("scope").closed {
                self.line(&format!("{i} += 1;"));
            }
            self.pop_scope();
            self.loops -= 1;
            self.line("}");
        } else {
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
            self.loop_body(depth, dctx || div, tok, false);
        }
    }

    fn for_stmt(&mut self, depth: u32, dctx: bool) {
        let div = self.rng.chance(45);
        let lo = if self.rng.chance(70) {
            format!("{}", self.rng.below(3))
        } else {
            self.expr(1, Some(div))
        };
        let hi = self.expr(1, Some(div));
        let (heart, tok) = self.heart();
        let f = self.fresh("f");
        self.line(&format!("for {f} in {lo}..{hi}{heart} {{"));
        self.loops += 1;
        self.push_scope(true, tok);
        self.bind(&f, false, div);
        self.body(depth + 1, dctx || div);
        self.pop_scope();
        self.loops -= 1;
        self.line("}");
    }

    fn loop_stmt(&mut self, depth: u32, dctx: bool) {
        let (heart, tok) = self.heart();
        self.line(&format!("loop{heart} {{"));
        // Which exit is taken is unknown: treat the body as divergent context.
        let div = dctx || self.rng.chance(50);
        self.loop_body(depth, div, tok, true);
    }
}

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
}
