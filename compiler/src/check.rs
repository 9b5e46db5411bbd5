//! Semantic checking: name resolution, typing and the language's static rules.
//!
//! [`check`] either returns [`Checked`] side tables that fully describe the
//! module for lowering (every expression typed, every name and call resolved,
//! every binding site numbered), or every error it found. Errors are
//! collected, not fatal: an erroneous expression gets the internal `Error`
//! type, which is compatible with everything, so one mistake yields one
//! diagnostic rather than a cascade.

use crate::ast::*;
use crate::diag::{Diagnostic, SourceFile};
use kc_dialect::sync::Sync;
use kc_dialect::verify::{LdsLayout, LDS_LIMIT};
use std::collections::HashMap;

mod calls;
mod sync;

/// Index of a binding site (parameter, `let`, `var`, `for` variable, shared
/// array, token, heart) in [`Checked::bindings`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BindingId(pub u32);

impl BindingId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BindingKind {
    Param,
    Let,
    Var,
    ForVar,
    /// `shared NAME: [T; len];`, typed `ptr<shared, T>`.
    Shared {
        len: u64,
    },
    /// `let t = convergence_entry()` / `convergence_anchor()`.
    Token,
    /// `heart NAME(parent)` on a loop.
    Heart {
        parent: BindingId,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    pub name: String,
    pub ty: Type,
    pub mutable: bool,
    pub kind: BindingKind,
    /// Span of the name at the binding site.
    pub span: Span,
}

pub use crate::builtins::{Builtin, Dim};

/// Per-kernel facts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelInfo {
    pub params: Vec<BindingId>,
    /// The kernel writes explicit convergence tokens (`@` or `heart`).
    pub explicit_tokens: bool,
    /// Bytes of LDS the `shared` arrays take, laid out as the backend places them
    /// ([`kc_dialect::verify::LdsLayout`]: 8-byte-aligned, in declaration order).
    pub shared_bytes: u64,
}

/// Side tables for a checked module. Per-expression tables are indexed by
/// [`ExprId`] and have `Module::num_exprs` entries.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Checked {
    /// Type of each expression; `None` for calls that return nothing and for
    /// the dimension argument of `workitem_id(x)` and friends.
    pub expr_types: Vec<Option<Type>>,
    /// For `Name` expressions: the binding they refer to.
    pub uses: Vec<Option<BindingId>>,
    /// For `Call` expressions: the builtin.
    pub builtins: Vec<Option<Builtin>>,
    /// For `Call` expressions with `@ tok`: the token binding.
    pub call_tokens: Vec<Option<BindingId>>,
    /// For calls to synchronizing builtins (atomics, `fence`): the ordering and scope, given
    /// or defaulted (`check/sync.rs`).
    pub syncs: Vec<Option<Sync>>,
    pub bindings: Vec<Binding>,
    /// Binding site (span of the declared name) -> binding.
    pub decls: HashMap<Span, BindingId>,
    /// Parallel to `Module::kernels`.
    pub kernels: Vec<KernelInfo>,
}

impl Checked {
    pub fn type_of(&self, e: &Expr) -> Option<Type> {
        self.expr_types.get(e.id.index()).copied().flatten()
    }

    pub fn use_of(&self, e: &Expr) -> Option<BindingId> {
        self.uses.get(e.id.index()).copied().flatten()
    }

    pub fn builtin(&self, e: &Expr) -> Option<Builtin> {
        self.builtins.get(e.id.index()).copied().flatten()
    }

    pub fn call_token(&self, e: &Expr) -> Option<BindingId> {
        self.call_tokens.get(e.id.index()).copied().flatten()
    }

    pub fn sync(&self, e: &Expr) -> Option<Sync> {
        self.syncs.get(e.id.index()).copied().flatten()
    }

    /// The binding introduced by a binding site's name (param, let, var, for
    /// variable, shared array, heart).
    pub fn decl(&self, name: &Ident) -> Option<BindingId> {
        self.decls.get(&name.span).copied()
    }

    pub fn binding(&self, id: BindingId) -> &Binding {
        &self.bindings[id.index()]
    }
}

/// Checks a parsed module.
pub fn check(file: &SourceFile, module: &Module) -> Result<Checked, Vec<Diagnostic>> {
    let n = module.num_exprs as usize;
    let mut c = Checker {
        file,
        diags: Vec::new(),
        out: Checked {
            expr_types: vec![None; n],
            uses: vec![None; n],
            builtins: vec![None; n],
            call_tokens: vec![None; n],
            syncs: vec![None; n],
            ..Checked::default()
        },
        poisoned: Vec::new(),
        scope: Vec::new(),
        visible: HashMap::new(),
        k: KernelState::default(),
    };
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for kernel in &module.kernels {
        if let Some(first) = seen.get(kernel.name.name.as_str()) {
            c.diags.push(
                Diagnostic::error(
                    format!("kernel `{}` is defined more than once", kernel.name.name),
                    kernel.name.span,
                    "redefined here",
                )
                .with_label(*first, "first defined here"),
            );
        } else {
            seen.insert(&kernel.name.name, kernel.name.span);
        }
        c.kernel(kernel);
    }
    if c.diags.is_empty() {
        Ok(c.out)
    } else {
        c.diags.sort_by_key(|d| d.primary.span.start);
        Err(c.diags)
    }
}

/// Internal type of an expression while checking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ty {
    Val(Type),
    /// A call that returns nothing (`barrier()`), or a dimension argument.
    Void,
    /// Already diagnosed; compatible with everything.
    Error,
}

impl Ty {
    fn val(self) -> Option<Type> {
        match self {
            Ty::Val(t) => Some(t),
            _ => None,
        }
    }

    fn scalar(self) -> Option<Scalar> {
        self.val().and_then(Type::scalar)
    }
}

#[derive(Default)]
struct KernelState {
    name: String,
    /// Nesting of blocks below the kernel body (0 = kernel top level).
    block_depth: u32,
    loop_depth: u32,
    entry: Option<Span>,
    first_convergent: Option<Span>,
    first_controlled: Option<Span>,
    uncontrolled: Vec<Span>,
    /// Loop depth at which each token binding was defined.
    token_depth: HashMap<BindingId, u32>,
    shared: LdsLayout,
}

struct Checker<'a> {
    file: &'a SourceFile,
    diags: Vec<Diagnostic>,
    out: Checked,
    /// Bindings whose type is unknown because of an earlier error.
    poisoned: Vec<bool>,
    /// Lexical scope stack; later entries shadow earlier ones.
    scope: Vec<(String, BindingId)>,
    /// Name -> its visible bindings, innermost last: O(1) lookup whatever the kernel size
    /// (kept in step with `scope`).
    visible: HashMap<String, Vec<BindingId>>,
    k: KernelState,
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

impl Checker<'_> {
    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn record(&mut self, e: &Expr, ty: Ty) {
        if let Some(slot) = self.out.expr_types.get_mut(e.id.index()) {
            *slot = ty.val();
        }
    }

    fn bind(&mut self, name: &Ident, ty: Ty, kind: BindingKind) -> BindingId {
        let id = BindingId(self.out.bindings.len() as u32);
        self.out.bindings.push(Binding {
            name: name.name.clone(),
            ty: ty.val().unwrap_or(Type::I32),
            mutable: kind == BindingKind::Var,
            kind,
            span: name.span,
        });
        self.poisoned.push(ty.val().is_none());
        self.out.decls.insert(name.span, id);
        self.scope.push((name.name.clone(), id));
        self.visible.entry(name.name.clone()).or_default().push(id);
        id
    }

    /// Leaves the scopes opened since `mark` (a length of `scope`).
    fn truncate_scope(&mut self, mark: usize) {
        for (name, _) in self.scope.drain(mark..) {
            if let Some(ids) = self.visible.get_mut(&name) {
                ids.pop();
            }
        }
    }

    fn binding_ty(&self, id: BindingId) -> Ty {
        if self.poisoned[id.index()] {
            Ty::Error
        } else {
            Ty::Val(self.out.bindings[id.index()].ty)
        }
    }

    fn lookup(&self, name: &str) -> Option<BindingId> {
        self.visible.get(name).and_then(|ids| ids.last()).copied()
    }

    fn undefined(&mut self, name: &Ident) {
        self.error(Diagnostic::error(
            format!("undefined name `{}`", name.name),
            name.span,
            "not found in this scope",
        ));
    }

    /// `d` about `value` where `expected` is required, with the hint to write an integer
    /// literal given for an `f32` as a float (`0` -> `0.0`), as for operands.
    fn f32_literal_note(&self, d: Diagnostic, expected: Type, value: &Expr) -> Diagnostic {
        if expected != Type::F32 || !matches!(value.kind, ExprKind::Int(_)) {
            return d;
        }
        let text = self.file.snippet(value.span);
        if text.bytes().all(|c| c.is_ascii_digit() || c == b'_') {
            d.with_note(format!(
                "integer literals are never `f32`; write `{text}.0` instead of `{text}`"
            ))
        } else {
            d.with_note("integer literals are never `f32`; write a float literal (`2.0`)")
        }
    }

    /// Reports `found` where `expected` is required (both known).
    fn expect(&mut self, found: Ty, expected: Type, span: Span, label: &str) {
        if let Ty::Val(t) = found {
            if t != expected {
                self.error(Diagnostic::error(
                    format!("mismatched types: expected `{expected}`, found `{t}`"),
                    span,
                    label,
                ));
            }
        }
    }

    // ---- Kernels and types ----

    fn kernel(&mut self, k: &Kernel) {
        self.k = KernelState {
            name: k.name.name.clone(),
            ..KernelState::default()
        };
        self.truncate_scope(0);
        let mut params = Vec::new();
        for p in &k.params {
            if let Some(&first) = params
                .iter()
                .find(|&&id: &&BindingId| self.out.bindings[id.index()].name == p.name.name)
                .map(|id| &self.out.bindings[id.index()].span)
            {
                self.error(
                    Diagnostic::error(
                        format!("parameter `{}` is declared more than once", p.name.name),
                        p.name.span,
                        "redeclared here",
                    )
                    .with_label(first, "first declared here"),
                );
            }
            let mut ty = self.type_expr(&p.ty);
            if ty == Ty::Val(Type::Token) {
                self.error(Diagnostic::error(
                    "kernel parameters cannot have type `token`",
                    p.ty.span,
                    "convergence tokens are created inside the kernel",
                ));
                ty = Ty::Error;
            }
            params.push(self.bind(&p.name, ty, BindingKind::Param));
        }
        self.stmts(&k.body.stmts);
        self.check_mixing();
        self.out.kernels.push(KernelInfo {
            params,
            explicit_tokens: self.k.first_controlled.is_some(),
            shared_bytes: self.k.shared.size,
        });
    }

    /// Validates a written type (pointers to `bool` are not allowed).
    fn type_expr(&mut self, t: &TypeExpr) -> Ty {
        if let Type::Ptr(_, Scalar::Bool) = t.ty {
            self.error(Diagnostic::error(
                "pointer element type cannot be `bool`",
                t.span,
                "`bool` has no memory representation",
            ));
            return Ty::Error;
        }
        Ty::Val(t.ty)
    }

    fn check_mixing(&mut self) {
        let Some(controlled) = self.k.first_controlled else {
            return;
        };
        for span in std::mem::take(&mut self.k.uncontrolled) {
            self.error(
                Diagnostic::error(
                    "cannot mix controlled and uncontrolled convergent operations",
                    span,
                    "this convergent operation has no `@` token",
                )
                .with_label(controlled, "explicit convergence token used here")
                .with_note(
                    "once a kernel uses `@` or `heart`, every convergent operation in it \
                     needs an `@ token`",
                ),
            );
        }
    }

    // ---- Statements ----

    fn stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            self.stmt(s);
        }
    }

    /// Checks a nested block in its own scope.
    fn block(&mut self, b: &Block) {
        let mark = self.scope.len();
        self.k.block_depth += 1;
        self.stmts(&b.stmts);
        self.k.block_depth -= 1;
        self.truncate_scope(mark);
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Let { name, ty, init } => self.let_stmt(name, ty.as_ref(), init, false),
            StmtKind::Var { name, ty, init } => self.let_stmt(name, ty.as_ref(), init, true),
            StmtKind::Shared {
                name,
                elem,
                len,
                len_span,
            } => self.shared(s.span, name, elem, *len, *len_span),
            StmtKind::Assign { op, place, value } => self.assign(*op, place, value),
            StmtKind::If { arms, else_block } => {
                for arm in arms {
                    self.cond(&arm.cond, "if");
                    self.block(&arm.block);
                }
                if let Some(b) = else_block {
                    self.block(b);
                }
            }
            StmtKind::While { cond, heart, body } => {
                // The condition runs on every iteration: it is inside the loop.
                self.k.loop_depth += 1;
                self.cond(cond, "while");
                self.k.loop_depth -= 1;
                self.loop_body(heart.as_ref(), body, None);
            }
            StmtKind::For {
                var,
                start,
                end,
                heart,
                body,
            } => {
                let ty = self.for_bounds(start, end);
                self.loop_body(heart.as_ref(), body, Some((var, ty)));
            }
            StmtKind::Loop { heart, body } => self.loop_body(heart.as_ref(), body, None),
            StmtKind::Break | StmtKind::Continue => {
                if self.k.loop_depth == 0 {
                    let kw = if s.kind == StmtKind::Break {
                        "break"
                    } else {
                        "continue"
                    };
                    self.error(Diagnostic::error(
                        format!("`{kw}` outside of a loop"),
                        s.span,
                        "not inside `while`, `for` or `loop`",
                    ));
                }
            }
            StmtKind::Return | StmtKind::Error => {}
            StmtKind::Expr(e) => {
                self.expr(e, None);
                if !matches!(e.kind, ExprKind::Call { .. }) {
                    self.error(Diagnostic::error(
                        "only calls can be used as expression statements",
                        e.span,
                        "this expression has no effect",
                    ));
                }
            }
            StmtKind::Block(b) => self.block(b),
        }
    }

    fn let_stmt(&mut self, name: &Ident, ty: Option<&TypeExpr>, init: &Expr, is_var: bool) {
        let declared = ty.map(|t| self.type_expr(t));
        let hint = declared.and_then(Ty::val);
        let mut init_ty = match &init.kind {
            ExprKind::Call { .. } => {
                let t = self.call(init, hint, true);
                self.record(init, t);
                self.void_check(init, t)
            }
            _ => self.value(init, hint),
        };
        if let (Some(Ty::Val(d)), Ty::Val(found), Some(t)) = (declared, init_ty, ty) {
            if d != found {
                let diag = Diagnostic::error(
                    format!("mismatched types: expected `{d}`, found `{found}`"),
                    init.span,
                    format!("expected `{d}`"),
                )
                .with_label(t.span, "expected due to this type");
                self.error(self.f32_literal_note(diag, d, init));
                init_ty = Ty::Error;
            }
        }
        let ty = declared.unwrap_or(init_ty);
        let is_token = ty == Ty::Val(Type::Token);
        if is_var && is_token {
            self.error(
                Diagnostic::error(
                    "a convergence token cannot be stored in a `var`",
                    name.span,
                    "declared with `var`",
                )
                .with_note("bind tokens with `let`"),
            );
            self.bind(name, Ty::Error, BindingKind::Var);
            return;
        }
        if is_var && matches!(ty, Ty::Val(Type::Ptr(..))) {
            self.error(
                Diagnostic::error(
                    "a pointer cannot be stored in a `var`",
                    name.span,
                    "declared with `var`",
                )
                .with_note(
                    "variables hold scalars; bind the pointer with `let`, or keep an index \
                     in a `var` and write `p[i]`",
                ),
            );
            self.bind(name, Ty::Error, BindingKind::Var);
            return;
        }
        let kind = match (is_var, is_token) {
            (true, _) => BindingKind::Var,
            (false, true) => BindingKind::Token,
            (false, false) => BindingKind::Let,
        };
        let id = self.bind(name, ty, kind);
        if is_token {
            self.k.token_depth.insert(id, self.k.loop_depth);
        }
    }

    fn shared(&mut self, stmt: Span, name: &Ident, elem: &TypeExpr, len: u64, len_span: Span) {
        if self.k.block_depth > 0 {
            self.error(Diagnostic::error(
                "`shared` arrays must be declared at kernel top level",
                stmt,
                "nested inside a block",
            ));
        }
        let mut ty = Ty::Val(Type::Ptr(
            AddrSpace::Shared,
            elem.ty.scalar().unwrap_or(Scalar::I32),
        ));
        match elem.ty.scalar() {
            Some(Scalar::Bool) | None => {
                self.error(Diagnostic::error(
                    "shared array element type cannot be `bool`",
                    elem.span,
                    "`bool` has no memory representation",
                ));
                ty = Ty::Error;
            }
            Some(s) => {
                if len == 0 {
                    self.error(Diagnostic::error(
                        "shared array length must be at least 1",
                        len_span,
                        "",
                    ));
                }
                let fitted = self.k.shared.fits();
                self.k.shared.place(len, crate::lower::scalar_of(s));
                if fitted && !self.k.shared.fits() {
                    self.error(
                        Diagnostic::error(
                            format!(
                                "kernel `{}` uses more than {LDS_LIMIT} bytes of shared memory",
                                self.k.name
                            ),
                            len_span,
                            "limit exceeded by this array",
                        )
                        .with_note(
                            "each shared array starts at an 8-byte-aligned offset, after the \
                             arrays declared before it",
                        ),
                    );
                }
            }
        }
        self.bind(name, ty, BindingKind::Shared { len });
    }

    fn assign(&mut self, op: Option<BinOp>, place: &Expr, value: &Expr) {
        let place_ty = match &place.kind {
            ExprKind::Name(n) => self.assign_target(place, n),
            ExprKind::Index { .. } => self.value(place, None),
            _ => {
                self.error(Diagnostic::error(
                    "invalid left-hand side of assignment",
                    place.span,
                    "cannot assign to this expression",
                ));
                self.value(place, None);
                Ty::Error
            }
        };
        let value_ty = self.value(value, place_ty.val());
        match op {
            None => {
                if let (Ty::Val(p), Ty::Val(v)) = (place_ty, value_ty) {
                    if p != v {
                        let d = Diagnostic::error(
                            format!("mismatched types: expected `{p}`, found `{v}`"),
                            value.span,
                            format!("expected `{p}`"),
                        );
                        self.error(self.f32_literal_note(d, p, value));
                    }
                }
            }
            Some(op) => {
                let span = place.span.to(value.span);
                self.binary_type(op, (place_ty, place), (value_ty, value), span);
            }
        }
    }

    /// Resolves `x` in `x = ...`; `x` must be a `var`.
    fn assign_target(&mut self, place: &Expr, n: &Ident) -> Ty {
        let Some(id) = self.lookup(&n.name) else {
            self.undefined(n);
            return Ty::Error;
        };
        if let Some(slot) = self.out.uses.get_mut(place.id.index()) {
            *slot = Some(id);
        }
        let b = &self.out.bindings[id.index()];
        if !b.mutable {
            let what = match b.kind {
                BindingKind::Param => "parameter",
                BindingKind::ForVar => "loop variable",
                BindingKind::Shared { .. } => "shared array",
                BindingKind::Token | BindingKind::Heart { .. } => "convergence token",
                _ => "`let` binding",
            };
            let d = Diagnostic::error(
                format!("cannot assign to immutable binding `{}`", n.name),
                n.span,
                "cannot assign twice to an immutable binding",
            )
            .with_label(b.span, format!("`{}` is declared here as a {what}", n.name));
            let d = if b.kind == BindingKind::Let {
                d.with_note("declare it with `var` to make it mutable")
            } else {
                d
            };
            self.error(d);
            return Ty::Error;
        }
        let ty = self.binding_ty(id);
        self.record(place, ty);
        ty
    }

    fn cond(&mut self, cond: &Expr, kw: &str) {
        let ty = self.value(cond, Some(Type::BOOL));
        if let Ty::Val(t) = ty {
            if t != Type::BOOL {
                let d = Diagnostic::error(
                    format!("`{kw}` condition must be `bool`, found `{t}`"),
                    cond.span,
                    "expected `bool`",
                );
                let d = if t.is_int() {
                    d.with_note("compare explicitly, e.g. `x != 0`")
                } else {
                    d
                };
                self.error(d);
            }
        }
    }

    fn for_bounds(&mut self, start: &Expr, end: &Expr) -> Ty {
        let (a, b) = self.pair(start, end, None);
        for (t, e) in [(a, start), (b, end)] {
            if let Ty::Val(t) = t {
                if !t.is_int() {
                    self.error(Diagnostic::error(
                        format!("`for` range bounds must be integers, found `{t}`"),
                        e.span,
                        "expected an integer type",
                    ));
                    return Ty::Error;
                }
            }
        }
        match (a, b) {
            (Ty::Val(x), Ty::Val(y)) if x != y => {
                self.error(
                    Diagnostic::error(
                        format!("`for` range bounds have different types: `{x}` and `{y}`"),
                        start.span.to(end.span),
                        "",
                    )
                    .with_label(start.span, format!("`{x}`"))
                    .with_label(end.span, format!("`{y}`")),
                );
                Ty::Error
            }
            (Ty::Val(x), _) => Ty::Val(x),
            (_, t) => t,
        }
    }

    fn loop_body(&mut self, heart: Option<&Heart>, body: &Block, var: Option<(&Ident, Ty)>) {
        let mark = self.scope.len();
        let parent = heart.map(|h| self.heart_parent(h));
        self.k.loop_depth += 1;
        if let (Some(h), Some(parent)) = (heart, parent) {
            let kind = match parent {
                Some(p) => BindingKind::Heart { parent: p },
                None => BindingKind::Heart {
                    parent: BindingId(u32::MAX),
                },
            };
            let ty = if parent.is_some() {
                Ty::Val(Type::Token)
            } else {
                Ty::Error
            };
            let id = self.bind(&h.name, ty, kind);
            self.k.token_depth.insert(id, self.k.loop_depth);
        }
        if let Some((v, ty)) = var {
            self.bind(v, ty, BindingKind::ForVar);
        }
        self.block(body);
        self.k.loop_depth -= 1;
        self.truncate_scope(mark);
    }

    /// Resolves a heart's parent token; `None` if it is not a valid token.
    fn heart_parent(&mut self, h: &Heart) -> Option<BindingId> {
        self.k.first_controlled.get_or_insert(h.span);
        self.k.first_convergent.get_or_insert(h.span);
        let Some(id) = self.lookup(&h.parent.name) else {
            self.undefined(&h.parent);
            return None;
        };
        match self.binding_ty(id) {
            Ty::Val(Type::Token) => Some(id),
            Ty::Val(t) => {
                self.error(
                    Diagnostic::error(
                        format!(
                            "heart parent `{}` is not a convergence token",
                            h.parent.name
                        ),
                        h.parent.span,
                        format!("has type `{t}`"),
                    )
                    .with_label(self.out.bindings[id.index()].span, "declared here"),
                );
                None
            }
            _ => None,
        }
    }

    // ---- Expressions ----

    /// Checks an expression that must produce a value.
    fn value(&mut self, e: &Expr, hint: Option<Type>) -> Ty {
        let t = self.expr(e, hint);
        self.void_check(e, t)
    }

    fn void_check(&mut self, e: &Expr, t: Ty) -> Ty {
        if t != Ty::Void {
            return t;
        }
        let name = match &e.kind {
            ExprKind::Call { callee, .. } => callee.name.as_str(),
            _ => "expression",
        };
        self.error(Diagnostic::error(
            format!("`{name}()` does not return a value"),
            e.span,
            "used as a value here",
        ));
        Ty::Error
    }

    /// Checks an expression; `hint` is the type the context expects, used to
    /// type integer literals.
    fn expr(&mut self, e: &Expr, hint: Option<Type>) -> Ty {
        let ty = match &e.kind {
            ExprKind::Int(v) => self.int_lit(e, *v, false, hint),
            ExprKind::Float(_) => Ty::Val(Type::F32),
            ExprKind::Bool(_) => Ty::Val(Type::BOOL),
            ExprKind::Name(n) => self.name(e, n),
            ExprKind::Unary { op, operand } => self.unary(e, *op, operand, hint),
            ExprKind::Binary { op, lhs, rhs } => {
                let operand_hint = match op {
                    BinOp::And | BinOp::Or => Some(Type::BOOL),
                    op if op.is_comparison() => None,
                    _ => hint,
                };
                let (l, r) = self.pair(lhs, rhs, operand_hint);
                self.binary_type(*op, (l, lhs), (r, rhs), e.span)
            }
            ExprKind::Cast { expr, ty } => self.cast(expr, ty),
            ExprKind::Index { base, index } => self.index(base, index).1,
            ExprKind::AddrOf(inner) => self.addr_of(inner),
            ExprKind::Call { .. } => self.call(e, hint, false),
        };
        self.record(e, ty);
        ty
    }

    /// Checks two operands that must have the same type. An untyped integer
    /// literal operand is checked second so it takes the other one's type.
    fn pair(&mut self, a: &Expr, b: &Expr, hint: Option<Type>) -> (Ty, Ty) {
        if is_untyped_lit(a) && !is_untyped_lit(b) {
            let tb = self.value(b, hint);
            let ta = self.value(a, tb.val().or(hint));
            (ta, tb)
        } else {
            let ta = self.value(a, hint);
            let tb = self.value(b, ta.val().or(hint));
            (ta, tb)
        }
    }

    fn int_lit(&mut self, e: &Expr, v: u64, negative: bool, hint: Option<Type>) -> Ty {
        let s = match hint.and_then(Type::scalar) {
            Some(s) if s.is_int() => s,
            _ => Scalar::I32,
        };
        let (max_pos, max_neg): (u64, u64) = match s {
            Scalar::I32 => (i32::MAX as u64, 1 << 31),
            Scalar::U32 => (u32::MAX as u64, 0),
            Scalar::I64 => (i64::MAX as u64, 1 << 63),
            _ => (u64::MAX, 0),
        };
        let limit = if negative { max_neg } else { max_pos };
        if v > limit {
            let sign = if negative { "-" } else { "" };
            let (lo, hi): (i128, i128) = (-(max_neg as i128), max_pos as i128);
            self.error(Diagnostic::error(
                format!(
                    "integer literal `{sign}{}` is out of range for `{}`",
                    self.file
                        .snippet(e.span)
                        .trim_start_matches(['-', ' ', '\t']),
                    s.name()
                ),
                e.span,
                format!("`{}` ranges from {lo} to {hi}", s.name()),
            ));
            return Ty::Error;
        }
        Ty::Val(Type::Scalar(s))
    }

    fn name(&mut self, e: &Expr, n: &Ident) -> Ty {
        let Some(id) = self.lookup(&n.name) else {
            self.undefined(n);
            return Ty::Error;
        };
        if let Some(slot) = self.out.uses.get_mut(e.id.index()) {
            *slot = Some(id);
        }
        let ty = self.binding_ty(id);
        if ty == Ty::Val(Type::Token) {
            self.error(
                Diagnostic::error(
                    format!("convergence token `{}` cannot be used as a value", n.name),
                    n.span,
                    "used as a value here",
                )
                .with_note("tokens can only appear after `@` or as the parent of a `heart`"),
            );
            return Ty::Error;
        }
        ty
    }

    fn unary(&mut self, e: &Expr, op: UnaryOp, operand: &Expr, hint: Option<Type>) -> Ty {
        if let (UnaryOp::Neg, ExprKind::Int(v)) = (op, &operand.kind) {
            // `-2147483648` is a valid i32 literal: check the negated value.
            let t = self.int_lit(e, *v, true, hint);
            self.record(operand, t);
            return t;
        }
        let t = self.value(operand, hint);
        let Some(s) = t.scalar() else {
            if let Ty::Val(t) = t {
                self.op_error(op.symbol(), t, e.span);
            }
            return Ty::Error;
        };
        let ok = match op {
            UnaryOp::Neg => s.is_signed() || s == Scalar::F32,
            UnaryOp::Not => s == Scalar::Bool,
            UnaryOp::BitNot => s.is_int(),
        };
        if !ok {
            self.op_error(op.symbol(), Type::Scalar(s), e.span);
            return Ty::Error;
        }
        t
    }

    fn op_error(&mut self, op: &str, t: Type, span: Span) {
        let d = Diagnostic::error(
            format!("operator `{op}` cannot be applied to type `{t}`"),
            span,
            "",
        );
        let d = match (op, t) {
            ("!", t) if t.is_int() => {
                d.with_note("use `~` for bitwise not, or compare with `== 0`")
            }
            (_, Type::Ptr(..)) => d.with_note("use `&p[i]` to offset a pointer"),
            _ => d,
        };
        self.error(d);
    }

    /// Type of `l OP r` given the operand types.
    fn binary_type(&mut self, op: BinOp, l: (Ty, &Expr), r: (Ty, &Expr), span: Span) -> Ty {
        let result = |s: Scalar| {
            if op.is_comparison() {
                Ty::Val(Type::BOOL)
            } else {
                Ty::Val(Type::Scalar(s))
            }
        };
        let (Ty::Val(lt), Ty::Val(rt)) = (l.0, r.0) else {
            return if op.is_comparison() || matches!(op, BinOp::And | BinOp::Or) {
                Ty::Val(Type::BOOL)
            } else {
                Ty::Error
            };
        };
        for t in [lt, rt] {
            if t.scalar().is_none() {
                self.op_error(op.symbol(), t, span);
                return Ty::Error;
            }
        }
        if lt != rt {
            let d = Diagnostic::error(
                format!(
                    "mismatched operand types for `{}`: `{lt}` and `{rt}`",
                    op.symbol()
                ),
                span,
                "",
            )
            .with_label(l.1.span, format!("`{lt}`"))
            .with_label(r.1.span, format!("`{rt}`"));
            let lit_f32 = (lt == Type::F32 && is_untyped_lit(r.1))
                || (rt == Type::F32 && is_untyped_lit(l.1));
            let d = if lit_f32 {
                d.with_note("integer literals are never `f32`; write `2.0` instead of `2`")
            } else {
                d.with_note("use `as` to convert one operand")
            };
            self.error(d);
            return Ty::Error;
        }
        let Some(s) = lt.scalar() else {
            return Ty::Error;
        };
        let ok = match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => s.is_numeric(),
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => s.is_numeric(),
            BinOp::Rem | BinOp::Shl | BinOp::Shr => s.is_int(),
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => s.is_int() || s == Scalar::Bool,
            BinOp::Eq | BinOp::Ne => true,
            BinOp::And | BinOp::Or => s == Scalar::Bool,
        };
        if !ok {
            self.op_error(op.symbol(), lt, span);
            return if op.is_comparison() {
                Ty::Val(Type::BOOL)
            } else {
                Ty::Error
            };
        }
        result(s)
    }

    fn cast(&mut self, inner: &Expr, ty: &TypeExpr) -> Ty {
        let from = self.value(inner, None);
        let to = self.type_expr(ty);
        let (Ty::Val(f), Ty::Val(t)) = (from, to) else {
            return to;
        };
        let ok = match (f.scalar(), t.scalar()) {
            (Some(a), Some(b)) => {
                (a.is_numeric() && b.is_numeric()) || (a == Scalar::Bool && b.is_int())
            }
            _ => false,
        };
        if !ok {
            let d = Diagnostic::error(
                format!("cannot cast `{f}` to `{t}`"),
                inner.span.to(ty.span),
                "invalid cast",
            );
            let d = if t == Type::BOOL && f.is_int() {
                d.with_note("compare with `!= 0` instead")
            } else {
                d
            };
            self.error(d);
            return Ty::Error;
        }
        to
    }

    /// `base[index]`: the address space of `base` (if a pointer) and the
    /// element type.
    fn index(&mut self, base: &Expr, index: &Expr) -> (Option<AddrSpace>, Ty) {
        let bt = self.value(base, None);
        let it = self.value(index, None);
        if let Ty::Val(t) = it {
            if !t.is_int() {
                self.error(Diagnostic::error(
                    format!("index must be an integer, found `{t}`"),
                    index.span,
                    "expected an integer type",
                ));
            }
        }
        match bt {
            Ty::Val(Type::Ptr(a, s)) => (Some(a), Ty::Val(Type::Scalar(s))),
            Ty::Val(t) => {
                self.error(Diagnostic::error(
                    format!("cannot index into a value of type `{t}`"),
                    base.span,
                    "not a pointer",
                ));
                (None, Ty::Error)
            }
            _ => (None, Ty::Error),
        }
    }

    fn addr_of(&mut self, inner: &Expr) -> Ty {
        let ExprKind::Index { base, index } = &inner.kind else {
            self.error(Diagnostic::error(
                "can only take the address of an element `p[i]`",
                inner.span,
                "not an indexed element",
            ));
            self.value(inner, None);
            return Ty::Error;
        };
        let (space, elem) = self.index(base, index);
        self.record(inner, elem);
        match (space, elem.scalar()) {
            (Some(a), Some(s)) => Ty::Val(Type::Ptr(a, s)),
            _ => Ty::Error,
        }
    }
}

/// An integer literal whose type is still open (possibly negated or combined
/// with other such literals).
fn is_untyped_lit(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) => true,
        ExprKind::Unary { op, operand } => *op != UnaryOp::Not && is_untyped_lit(operand),
        ExprKind::Binary { op, lhs, rhs } => {
            !op.is_comparison()
                && !matches!(op, BinOp::And | BinOp::Or)
                && is_untyped_lit(lhs)
                && is_untyped_lit(rhs)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests;
