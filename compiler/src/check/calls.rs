//! Calls: builtin resolution, arity and argument typing, the atomics' pointer and value
//! rules, and the convergence-token rules of convergent builtins (`@ token`, anchors,
//! `convergence_entry` at the kernel's top level).

use super::*;

impl Checker<'_> {
    pub(super) fn call(&mut self, e: &Expr, hint: Option<Type>, token_ok: bool) -> Ty {
        let ExprKind::Call {
            callee,
            args,
            token,
        } = &e.kind
        else {
            return Ty::Error;
        };
        let Some(mut b) = Builtin::from_name(&callee.name) else {
            self.error(
                Diagnostic::error(
                    format!("unknown function `{}`", callee.name),
                    callee.span,
                    "not a builtin",
                )
                .with_note(
                    "kernels cannot call user-defined functions; see LANGUAGE.md for the builtins",
                ),
            );
            for a in args {
                self.value(a, None);
            }
            return Ty::Error;
        };
        let ty = self.builtin_args(&mut b, e, callee, args, hint);
        if let Some(slot) = self.out.builtins.get_mut(e.id.index()) {
            *slot = Some(b);
        }
        self.convergence(e, b, token.as_ref(), token_ok);
        if ty == Ty::Val(Type::Token) && !token_ok {
            return Ty::Error; // Already diagnosed; don't cascade.
        }
        ty
    }

    /// Checks arity, argument types and the ordering and scope of synchronizing builtins;
    /// returns the result type.
    pub(super) fn builtin_args(
        &mut self,
        b: &mut Builtin,
        e: &Expr,
        callee: &Ident,
        args: &[Expr],
        hint: Option<Type>,
    ) -> Ty {
        let (arity, max) = (b.arity(), b.max_arity());
        if args.len() < arity || args.len() > max {
            let expected = if max == arity {
                format!("{arity} argument{}", plural(arity))
            } else {
                format!("{arity} to {max} arguments")
            };
            let mut d = Diagnostic::error(
                format!(
                    "`{}` takes {expected} but {} {} supplied",
                    callee.name,
                    args.len(),
                    if args.len() == 1 { "was" } else { "were" }
                ),
                e.span,
                format!("expected {expected}"),
            );
            if max > arity {
                d = d.with_note(format!(
                    "the last two are the memory ordering and the scope: `{}`",
                    sync::example(*b)
                ));
            }
            self.error(d);
            for a in &args[..args.len().min(arity)] {
                self.value(a, None);
            }
            return Ty::Error;
        }
        let (args, extra) = args.split_at(arity);
        let ty = self.builtin_types(b, args, hint);
        if b.syncs() {
            let space = match args.first().and_then(|a| self.out.expr_types[a.id.index()]) {
                Some(Type::Ptr(space, _)) => Some(space),
                _ => None,
            };
            if b.is_atomic() && space.is_none() {
                return ty; // The pointer is already diagnosed.
            }
            self.sync_args(e, *b, extra, space);
        }
        ty
    }

    /// The argument and result types of builtin `b` (arity already checked); dimension
    /// builtins get their `Dim` filled in.
    pub(super) fn builtin_types(
        &mut self,
        b: &mut Builtin,
        args: &[Expr],
        hint: Option<Type>,
    ) -> Ty {
        let name = b.name();
        match b {
            Builtin::WorkitemId(d)
            | Builtin::WorkgroupId(d)
            | Builtin::WorkgroupSize(d)
            | Builtin::NumWorkgroups(d) => {
                match dim_arg(&args[0]) {
                    Some(dim) => *d = dim,
                    None => self.error(Diagnostic::error(
                        format!("`{name}` expects a dimension `x`, `y` or `z`"),
                        args[0].span,
                        "not a dimension",
                    )),
                }
                Ty::Val(Type::I32)
            }
            Builtin::LaneId | Builtin::WaveSize => Ty::Val(Type::I32),
            Builtin::Barrier | Builtin::Fence => Ty::Void,
            Builtin::ConvergenceEntry | Builtin::ConvergenceAnchor => Ty::Val(Type::Token),
            Builtin::Ballot => {
                let t = self.value(&args[0], Some(Type::BOOL));
                self.expect(t, Type::BOOL, args[0].span, "argument of `ballot`");
                Ty::Val(Type::U64)
            }
            Builtin::ReadFirstLane
            | Builtin::ReduceAdd
            | Builtin::ReduceMin
            | Builtin::ReduceMax
            | Builtin::ScanAdd
            | Builtin::ScanMin
            | Builtin::ScanMax => {
                let t = self.value(&args[0], hint);
                self.numeric_arg(name, t, &args[0])
            }
            Builtin::Shuffle => {
                let t = self.value(&args[0], hint);
                let lane = self.value(&args[1], Some(Type::I32));
                self.expect(lane, Type::I32, args[1].span, "lane index of `shuffle`");
                self.numeric_arg(name, t, &args[0])
            }
            Builtin::Min | Builtin::Max => {
                let (a, c) = self.pair(&args[0], &args[1], hint);
                let t = self.same_args(name, (a, &args[0]), (c, &args[1]));
                self.numeric_arg(name, t, &args[0])
            }
            Builtin::Select => {
                let cond = self.value(&args[0], Some(Type::BOOL));
                self.expect(cond, Type::BOOL, args[0].span, "condition of `select`");
                let (a, c) = self.pair(&args[1], &args[2], hint);
                let t = self.same_args(name, (a, &args[1]), (c, &args[2]));
                if let Ty::Val(t @ (Type::Ptr(..) | Type::Token)) = t {
                    self.error(Diagnostic::error(
                        format!("`select` operands must be scalars, found `{t}`"),
                        args[1].span,
                        "",
                    ));
                    return Ty::Error;
                }
                t
            }
            Builtin::AtomicAdd
            | Builtin::AtomicMin
            | Builtin::AtomicMax
            | Builtin::AtomicXchg
            | Builtin::AtomicCmpXchg
            | Builtin::AtomicLoad
            | Builtin::AtomicStore => self.atomic(*b, name, args),
        }
    }

    pub(super) fn numeric_arg(&mut self, name: &str, t: Ty, arg: &Expr) -> Ty {
        match t {
            Ty::Val(Type::Scalar(s)) if s.is_numeric() => t,
            Ty::Val(t) => {
                self.error(Diagnostic::error(
                    format!("`{name}` expects an integer or `f32` argument, found `{t}`"),
                    arg.span,
                    "",
                ));
                Ty::Error
            }
            _ => Ty::Error,
        }
    }

    pub(super) fn same_args(&mut self, name: &str, a: (Ty, &Expr), b: (Ty, &Expr)) -> Ty {
        match (a.0, b.0) {
            (Ty::Val(x), Ty::Val(y)) if x != y => {
                self.error(
                    Diagnostic::error(
                        format!("mismatched argument types for `{name}`: `{x}` and `{y}`"),
                        a.1.span.to(b.1.span),
                        "",
                    )
                    .with_label(a.1.span, format!("`{x}`"))
                    .with_label(b.1.span, format!("`{y}`")),
                );
                Ty::Error
            }
            (Ty::Val(x), _) => Ty::Val(x),
            (_, t) => t,
        }
    }

    pub(super) fn atomic(&mut self, b: Builtin, name: &str, args: &[Expr]) -> Ty {
        let pt = self.value(&args[0], None);
        let elem = match pt {
            Ty::Val(Type::Ptr(_, s)) => {
                // Loads and stores move any element; of the updates only add has an f32 form.
                let float_ok = matches!(
                    b,
                    Builtin::AtomicAdd | Builtin::AtomicLoad | Builtin::AtomicStore
                );
                let ok = s.is_int() || (s == Scalar::F32 && float_ok);
                if !ok {
                    self.error(Diagnostic::error(
                        format!("`{name}` does not support element type `{}`", s.name()),
                        args[0].span,
                        "",
                    ));
                }
                ok.then_some(Type::Scalar(s))
            }
            Ty::Val(t) => {
                self.error(
                    Diagnostic::error(
                        format!("first argument of `{name}` must be a pointer, found `{t}`"),
                        args[0].span,
                        "expected a pointer",
                    )
                    .with_note("pass the address of an element, e.g. `&buf[i]`"),
                );
                None
            }
            _ => None,
        };
        for a in &args[1..] {
            let t = self.value(a, elem);
            if let Some(elem) = elem {
                self.expect(
                    t,
                    elem,
                    a.span,
                    "operand must match the pointer's element type",
                );
            }
        }
        if b == Builtin::AtomicStore {
            return Ty::Void;
        }
        elem.map_or(Ty::Error, Ty::Val)
    }

    /// Token bookkeeping and rules for one resolved call.
    pub(super) fn convergence(
        &mut self,
        e: &Expr,
        b: Builtin,
        token: Option<&Ident>,
        token_ok: bool,
    ) {
        let name = b.name();
        match b {
            Builtin::ConvergenceEntry | Builtin::ConvergenceAnchor => {
                if !token_ok {
                    self.error(Diagnostic::error(
                        format!("`{name}()` must be bound directly with `let`"),
                        e.span,
                        format!("write `let t = {name}();`"),
                    ));
                }
                if b == Builtin::ConvergenceEntry {
                    self.entry(e.span);
                }
                self.k.first_convergent.get_or_insert(e.span);
            }
            b if b.is_convergent() => {
                self.k.first_convergent.get_or_insert(e.span);
                if token.is_none() {
                    self.k.uncontrolled.push(e.span);
                }
            }
            _ => {}
        }
        let Some(tok) = token else {
            return;
        };
        if !b.is_convergent() {
            self.error(Diagnostic::error(
                "`@` can only be attached to a convergent operation",
                tok.span,
                format!("`{name}` is not convergent"),
            ));
            return;
        }
        self.k.first_controlled.get_or_insert(e.span);
        let Some(id) = self.lookup(&tok.name) else {
            self.undefined(tok);
            return;
        };
        match self.binding_ty(id) {
            Ty::Val(Type::Token) => {}
            Ty::Val(t) => {
                self.error(
                    Diagnostic::error(
                        format!("`{}` is not a convergence token", tok.name),
                        tok.span,
                        format!("has type `{t}`"),
                    )
                    .with_label(self.out.bindings[id.index()].span, "declared here"),
                );
                return;
            }
            _ => return,
        }
        if let Some(slot) = self.out.call_tokens.get_mut(e.id.index()) {
            *slot = Some(id);
        }
        let depth = self.k.token_depth.get(&id).copied().unwrap_or(0);
        if depth < self.k.loop_depth {
            self.error(
                Diagnostic::error(
                    format!(
                        "convergence token `{}` cannot be used inside a loop it is defined outside of",
                        tok.name
                    ),
                    tok.span,
                    "used inside the loop",
                )
                .with_label(
                    self.out.bindings[id.index()].span,
                    "defined outside the loop",
                )
                .with_note(format!(
                    "give the loop a heart, e.g. `loop heart h({}) {{ ... }}`, and use `@ h` in its body",
                    tok.name
                )),
            );
        }
    }

    pub(super) fn entry(&mut self, span: Span) {
        if let Some(first) = self.k.entry {
            self.error(
                Diagnostic::error(
                    format!(
                        "`convergence_entry()` is used more than once in kernel `{}`",
                        self.k.name
                    ),
                    span,
                    "second use",
                )
                .with_label(first, "first used here"),
            );
            return;
        }
        self.k.entry = Some(span);
        if self.k.block_depth > 0 || self.k.loop_depth > 0 {
            self.error(Diagnostic::error(
                "`convergence_entry()` must be at kernel top level",
                span,
                "nested inside a block",
            ));
        } else if let Some(first) = self.k.first_convergent {
            self.error(
                Diagnostic::error(
                    "`convergence_entry()` must come before any other convergent operation",
                    span,
                    "too late",
                )
                .with_label(first, "earlier convergent operation"),
            );
        }
    }
}

fn dim_arg(e: &Expr) -> Option<Dim> {
    match &e.kind {
        ExprKind::Name(n) => match n.name.as_str() {
            "x" => Some(Dim::X),
            "y" => Some(Dim::Y),
            "z" => Some(Dim::Z),
            _ => None,
        },
        _ => None,
    }
}
