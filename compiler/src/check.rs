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
use std::collections::HashMap;

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
    /// Total bytes of `shared` arrays.
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
    shared_bytes: u64,
}

const SHARED_LIMIT: u64 = 65536;

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
            shared_bytes: self.k.shared_bytes,
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
                self.error(
                    Diagnostic::error(
                        format!("mismatched types: expected `{d}`, found `{found}`"),
                        init.span,
                        format!("expected `{d}`"),
                    )
                    .with_label(t.span, "expected due to this type"),
                );
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
                let before = self.k.shared_bytes;
                self.k.shared_bytes = before.saturating_add(len.saturating_mul(s.size()));
                if before <= SHARED_LIMIT && self.k.shared_bytes > SHARED_LIMIT {
                    self.error(Diagnostic::error(
                        format!(
                            "kernel `{}` uses more than {SHARED_LIMIT} bytes of shared memory",
                            self.k.name
                        ),
                        len_span,
                        "limit exceeded by this array",
                    ));
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
                        self.error(Diagnostic::error(
                            format!("mismatched types: expected `{p}`, found `{v}`"),
                            value.span,
                            format!("expected `{p}`"),
                        ));
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

    // ---- Calls ----

    fn call(&mut self, e: &Expr, hint: Option<Type>, token_ok: bool) -> Ty {
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
    fn builtin_args(
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
    fn builtin_types(&mut self, b: &mut Builtin, args: &[Expr], hint: Option<Type>) -> Ty {
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

    fn numeric_arg(&mut self, name: &str, t: Ty, arg: &Expr) -> Ty {
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

    fn same_args(&mut self, name: &str, a: (Ty, &Expr), b: (Ty, &Expr)) -> Ty {
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

    fn atomic(&mut self, b: Builtin, name: &str, args: &[Expr]) -> Ty {
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
    fn convergence(&mut self, e: &Expr, b: Builtin, token: Option<&Ident>, token_ok: bool) {
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

    fn entry(&mut self, span: Span) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn run(src: &str) -> Result<(Module, Checked), Vec<String>> {
        let f = SourceFile::new("t.k", src);
        let m = parse(&f).map_err(|d| d.iter().map(|d| d.short(&f)).collect::<Vec<_>>())?;
        let c = check(&f, &m).map_err(|d| d.iter().map(|d| d.short(&f)).collect::<Vec<_>>())?;
        Ok((m, c))
    }

    /// Errors for a kernel body (wrapped in a kernel with a few parameters;
    /// the body starts on line 2, column 1).
    fn errs(body: &str) -> Vec<String> {
        let src = format!(
            "kernel k(out: ptr<global, i32>, n: i32, f: ptr<global, f32>) {{\n{body}\n}}\n"
        );
        match run(&src) {
            Ok(_) => Vec::new(),
            Err(e) => e,
        }
    }

    #[test]
    fn examples_parse_and_check() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
        let mut count = 0;
        for entry in std::fs::read_dir(&dir).expect("examples dir") {
            let path = entry.expect("dir entry").path();
            if path.extension().is_some_and(|e| e == "k") {
                let text = std::fs::read_to_string(&path).expect("read example");
                let f = SourceFile::new(path.display().to_string(), text);
                let m =
                    parse(&f).unwrap_or_else(|d| panic!("{}", crate::diag::render(&f, &d, false)));
                check(&f, &m).unwrap_or_else(|d| panic!("{}", crate::diag::render(&f, &d, false)));
                count += 1;
            }
        }
        assert!(count >= 14, "only {count} examples found");
    }

    #[test]
    fn side_tables() {
        let (m, c) = run(
            "kernel k(p: ptr<global, u64>) {\n  let e = convergence_entry();\n  \
             loop heart h(e) { let b = ballot(true) @ h; p[0] = b + 1; break; }\n}\n",
        )
        .unwrap();
        let k = &m.kernels[0];
        assert!(c.kernels[0].explicit_tokens);
        let StmtKind::Loop {
            heart: Some(h),
            body,
        } = &k.body.stmts[1].kind
        else {
            panic!("not a loop")
        };
        let hb = c.decl(&h.name).unwrap();
        let e = c.decl(match &k.body.stmts[0].kind {
            StmtKind::Let { name, .. } => name,
            _ => panic!(),
        });
        assert_eq!(
            c.binding(hb).kind,
            BindingKind::Heart { parent: e.unwrap() }
        );
        let StmtKind::Let { init, .. } = &body.stmts[0].kind else {
            panic!()
        };
        assert_eq!(c.builtin(init), Some(Builtin::Ballot));
        assert_eq!(c.call_token(init), Some(hb));
        assert_eq!(c.type_of(init), Some(Type::U64));
        let StmtKind::Assign { value, .. } = &body.stmts[1].kind else {
            panic!()
        };
        let ExprKind::Binary { lhs, rhs, .. } = &value.kind else {
            panic!()
        };
        assert_eq!(
            c.type_of(rhs),
            Some(Type::U64),
            "literal typed from context"
        );
        assert_eq!(c.binding(c.use_of(lhs).unwrap()).name, "b");
    }

    #[test]
    fn literal_typing() {
        assert_eq!(
            errs("var x: u64 = 1 << 40; let y = -2147483648; let z: u32 = 0xFFFF_FFFF;"),
            Vec::<String>::new()
        );
        assert_eq!(
            errs("let a = workitem_id(x) as u32; let b = 3 + a; let c = min(1, b);"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn diagnostics() {
        let cases: &[(&str, &str)] = &[
            ("let a = b;", "2:9: undefined name `b`"),
            (
                "let a = 1; a = 2;",
                "2:12: cannot assign to immutable binding `a`",
            ),
            ("n = 2;", "2:1: cannot assign to immutable binding `n`"),
            (
                "for i in 0..n { i += 1; }",
                "2:17: cannot assign to immutable binding `i`",
            ),
            (
                "let a: i32 = 1.5;",
                "2:14: mismatched types: expected `i32`, found `f32`",
            ),
            (
                "let a = 1 + 1.5;",
                "2:9: mismatched operand types for `+`: `i32` and `f32`",
            ),
            (
                "if n { }",
                "2:4: `if` condition must be `bool`, found `i32`",
            ),
            (
                "while 1 { }",
                "2:7: `while` condition must be `bool`, found `i32`",
            ),
            (
                "let a = n[0];",
                "2:9: cannot index into a value of type `i32`",
            ),
            (
                "let a = out[1.5];",
                "2:13: index must be an integer, found `f32`",
            ),
            (
                "let a = ballot(1 == 1, 2);",
                "2:9: `ballot` takes 1 argument but 2 were supplied",
            ),
            (
                "let a = ballot(n);",
                "2:16: mismatched types: expected `bool`, found `i32`",
            ),
            ("let a = foo(1);", "2:9: unknown function `foo`"),
            ("break;", "2:1: `break` outside of a loop"),
            ("continue;", "2:1: `continue` outside of a loop"),
            (
                "if true { shared t: [i32; 4]; }",
                "2:11: `shared` arrays must be declared at kernel top level",
            ),
            (
                "let a: i32 = 3000000000;",
                "2:14: integer literal `3000000000` is out of range for `i32`",
            ),
            (
                "let a: u32 = -1;",
                "2:14: integer literal `-1` is out of range for `u32`",
            ),
            (
                "let a = 1.5 % 2.0;",
                "2:9: operator `%` cannot be applied to type `f32`",
            ),
            (
                "let a = !n;",
                "2:9: operator `!` cannot be applied to type `i32`",
            ),
            ("let a = 1.5 as bool;", "2:9: cannot cast `f32` to `bool`"),
            ("let a = true as f32;", "2:9: cannot cast `bool` to `f32`"),
            (
                "let a = out as u64;",
                "2:9: cannot cast `ptr<global, i32>` to `u64`",
            ),
            (
                "let a = barrier();",
                "2:9: `barrier()` does not return a value",
            ),
            (
                "n + 1;",
                "2:1: only calls can be used as expression statements",
            ),
            ("1 + 1 = 2;", "2:1: invalid left-hand side of assignment"),
            (
                "let a = &n;",
                "2:10: can only take the address of an element `p[i]`",
            ),
            (
                "let a = atomic_add(n, 1);",
                "2:20: first argument of `atomic_add` must be a pointer, found `i32`",
            ),
            (
                "let a = atomic_min(&f[0], 1.0);",
                "2:20: `atomic_min` does not support element type `f32`",
            ),
            (
                "let a = min(n, 1.0);",
                "2:13: mismatched argument types for `min`: `i32` and `f32`",
            ),
            (
                "let a = workitem_id(w);",
                "2:21: `workitem_id` expects a dimension `x`, `y` or `z`",
            ),
            (
                "for i in 0..1.5 { }",
                "2:13: `for` range bounds must be integers, found `f32`",
            ),
            (
                "for i in n..(n as u32) { }",
                "2:10: `for` range bounds have different types: `i32` and `u32`",
            ),
            (
                "shared t: [bool; 4];",
                "2:12: shared array element type cannot be `bool`",
            ),
            (
                "shared t: [i32; 20000];",
                "2:17: kernel `k` uses more than 65536 bytes of shared memory",
            ),
            // Tokens.
            (
                "var t = convergence_entry();",
                "2:5: a convergence token cannot be stored in a `var`",
            ),
            (
                "let t = convergence_anchor(); let u = t;",
                "2:39: convergence token `t` cannot be used as a value",
            ),
            (
                "let a = atomic_add(&out[0], 1) @ t;",
                "2:34: `@` can only be attached to a convergent operation",
            ),
            (
                "let a = ballot(true) @ n;",
                "2:24: `n` is not a convergence token",
            ),
            (
                "loop heart h(n) { break; }",
                "2:14: heart parent `n` is not a convergence token",
            ),
            ("barrier() @ t;", "2:13: undefined name `t`"),
            (
                "if true { let e = convergence_entry(); }",
                "2:19: `convergence_entry()` must be at kernel top level",
            ),
            (
                "barrier(); let e = convergence_entry();",
                "2:20: `convergence_entry()` must come before any other convergent operation",
            ),
            (
                "let e = convergence_entry(); let f = convergence_entry();",
                "2:38: `convergence_entry()` is used more than once in kernel `k`",
            ),
            (
                "let e = convergence_entry(); barrier() @ e; barrier();",
                "2:45: cannot mix controlled and uncontrolled convergent operations",
            ),
            (
                "let e = convergence_entry(); loop { barrier() @ e; break; }",
                "2:49: convergence token `e` cannot be used inside a loop it is defined outside of",
            ),
            (
                "let a = ballot(convergence_anchor() == 1);",
                "2:16: `convergence_anchor()` must be bound directly with `let`",
            ),
        ];
        let mut failures = Vec::new();
        for (body, want) in cases {
            let got = errs(body);
            // Exactly one error each: no cascades.
            if got != [*want] {
                failures.push(format!("{body}\n  want {want}\n  got  {got:?}"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn duplicates_and_params() {
        assert_eq!(
            run("kernel a() {}\nkernel a() {}\n").unwrap_err(),
            vec!["2:8: kernel `a` is defined more than once"]
        );
        assert_eq!(
            run("kernel a(x: i32, x: i32) {}").unwrap_err(),
            vec!["1:18: parameter `x` is declared more than once"]
        );
        assert_eq!(
            run("kernel a(t: token) {}").unwrap_err(),
            vec!["1:13: kernel parameters cannot have type `token`"]
        );
        assert_eq!(
            run("kernel a(p: ptr<global, bool>) {}").unwrap_err(),
            vec!["1:13: pointer element type cannot be `bool`"]
        );
    }

    #[test]
    fn several_errors_without_cascades() {
        let e = errs("let a = b + 1;\nlet c = a * 2.0;\nlet d: bool = 1;\n");
        assert_eq!(
            e,
            vec![
                "2:9: undefined name `b`",
                "4:15: mismatched types: expected `bool`, found `i32`",
            ]
        );
    }

    #[test]
    fn immutable_note_points_at_declaration() {
        let f = SourceFile::new("t.k", "kernel k() {\n  let x = 1;\n  x = 2;\n}\n");
        let m = parse(&f).unwrap();
        let d = check(&f, &m).unwrap_err();
        let text = crate::diag::render(&f, &d, false);
        assert!(text.contains("t.k:3:3"), "{text}");
        assert!(
            text.contains("`x` is declared here as a `let` binding"),
            "{text}"
        );
    }
}
