//! Lowering of a checked AST to the structured kernel dialect.
//!
//! Pre: the module parsed and passed `check` (names resolve, types agree, tokens are used
//! where they may be), so lowering never reports errors; anything unexpected is a bug caught
//! by the verifier right after.
//! Post: one `kernel.func` per kernel whose single-block region holds structured ops
//! (`kernel.if`, `kernel.loop` with `kernel.break` / `kernel.continue`, `kernel.return`),
//! mutable variables as `kernel.var` / `kernel.get` / `kernel.set`, and every op located at
//! the source construct it comes from. Values bound by `let` carry the source name, and so do
//! values assigned to a variable, so later stages (uniformity `--explain`, listings) speak in
//! source terms. Statements after `break` / `continue` / `return` in the same block are dead
//! and not lowered.
//!
//! Shapes: `while c {B}` is `kernel.loop { if c {} else {break}; B } latch {}`; `for i in a..b
//! {B}` evaluates `a` and `b` once, keeps the induction variable in a `kernel.var`, tests
//! `i < b` at the top of the body and increments in the latch (so `continue` increments too).
//! A loop heart `heart h(p)` is the first op of the body. `a && b` / `a || b` evaluate `b`
//! only when needed (a `kernel.if` on a variable) unless `b` is cheap and cannot fault, in
//! which case they are plain `arith.andi` / `arith.ori`.

use crate::ast::{self, BinOp, Expr, ExprKind, Stmt, StmtKind, UnaryOp};
use crate::check::{BindingId, BindingKind, Builtin, Checked, Dim};
use crate::diag::SourceFile;
use kc_dialect::registry::Opcode;
use kc_dialect::{AddrSpace, Attr, Block, FileId, Ir, Loc, Op, Scalar, Type, Value};

/// Lowers every kernel of `module` into a fresh IR module.
pub fn lower(file: &SourceFile, module: &ast::Module, checked: &Checked) -> Ir {
    let mut ir = Ir::new();
    let file_id = ir.intern_file(&file.name);
    let mut lw = Lowerer {
        ir,
        file,
        checked,
        file_id,
        bindings: vec![None; checked.bindings.len()],
        block: None,
    };
    for k in &module.kernels {
        lw.kernel(k);
    }
    lw.ir
}

#[derive(Copy, Clone)]
enum Binding {
    /// An SSA value (`let`, parameter, for variable, shared array, token).
    Value(Value),
    /// A `kernel.var` holding a mutable variable of this element type.
    Var(Value, Scalar),
}

struct Lowerer<'a> {
    ir: Ir,
    file: &'a SourceFile,
    checked: &'a Checked,
    file_id: FileId,
    /// The IR entity of each checker binding; names are resolved by the checker
    /// (`Checked::uses` / `decls`), so lowering keeps no scopes of its own.
    bindings: Vec<Option<Binding>>,
    /// Insertion block; `None` after a terminator (the rest of the block is dead).
    block: Option<Block>,
}

pub(crate) fn scalar_of(s: ast::Scalar) -> Scalar {
    match s {
        ast::Scalar::Bool => Scalar::I1,
        ast::Scalar::I32 | ast::Scalar::U32 => Scalar::I32,
        ast::Scalar::I64 | ast::Scalar::U64 => Scalar::I64,
        ast::Scalar::F32 => Scalar::F32,
    }
}

fn type_of(t: ast::Type) -> Type {
    match t {
        ast::Type::Scalar(s) => Type::Scalar(scalar_of(s)),
        ast::Type::Ptr(a, s) => Type::Ptr(
            match a {
                ast::AddrSpace::Global => AddrSpace::Global,
                ast::AddrSpace::Shared => AddrSpace::Shared,
            },
            scalar_of(s),
        ),
        ast::Type::Token => Type::Token,
    }
}

impl Lowerer<'_> {
    // ---- plumbing ----

    fn loc(&self, span: ast::Span) -> Loc {
        let (line, col) = self.file.line_col(span.start);
        Loc {
            file: self.file_id,
            line,
            col,
        }
    }

    fn ty(&self, e: &Expr) -> ast::Type {
        self.checked
            .type_of(e)
            .expect("checked: value expressions are typed")
    }

    fn signed(&self, e: &Expr) -> bool {
        self.ty(e).scalar().is_some_and(ast::Scalar::is_signed)
    }

    fn binding(&self, id: BindingId) -> Binding {
        match self.bindings[id.index()] {
            Some(b) => b,
            None => unreachable!(
                "checked program: binding {} is declared before use",
                id.index()
            ),
        }
    }

    /// The binding a name expression refers to.
    fn lookup(&self, e: &Expr) -> Binding {
        let id = self
            .checked
            .use_of(e)
            .expect("checked program: names resolve");
        self.binding(id)
    }

    /// A token operand (`@ tok`, heart parent) as an SSA value.
    fn token(&self, id: BindingId) -> Value {
        match self.binding(id) {
            Binding::Value(v) => v,
            Binding::Var(..) => unreachable!("checked program: tokens are `let` bindings"),
        }
    }

    /// Records the IR entity of the binding declared by `name`.
    fn bind(&mut self, name: &ast::Ident, b: Binding) {
        let id = self
            .checked
            .decl(name)
            .expect("checked program: every declaration has a binding");
        self.bindings[id.index()] = Some(b);
    }

    /// Creates an op at `span` and appends it to the insertion block (if the code is live).
    fn op(&mut self, code: Opcode, operands: &[Value], results: &[Type], span: ast::Span) -> Op {
        let loc = self.loc(span);
        let op = self.ir.create_op(code, operands, results, loc);
        if let Some(b) = self.block {
            self.ir.append_op(b, op);
        }
        op
    }

    fn value(&mut self, code: Opcode, operands: &[Value], ty: Type, span: ast::Span) -> Value {
        let op = self.op(code, operands, &[ty], span);
        self.ir.ops[op].results[0]
    }

    fn with_attr(&mut self, op: Op, name: &str, a: Attr) -> Value {
        self.ir.set_attr(op, name, a);
        self.ir.ops[op].results[0]
    }

    fn constant(&mut self, attr: Attr, ty: Type, span: ast::Span) -> Value {
        let op = self.op(Opcode::Constant, &[], &[ty], span);
        self.with_attr(op, "value", attr)
    }

    fn int_const(&mut self, v: i64, ty: Type, span: ast::Span) -> Value {
        self.constant(Attr::Int(v, ty), ty, span)
    }

    fn name_value(&mut self, v: Value, name: &str) {
        if self.ir.value_name(v).is_none() {
            self.ir.set_value_name(v, name);
        }
    }

    /// Adds a region with one block to `op` and makes it the insertion block.
    fn enter_region(&mut self, op: Op) -> Block {
        let r = self.ir.add_region(op);
        let b = self.ir.create_block();
        self.ir.append_block(r, b);
        self.block = Some(b);
        b
    }

    /// Ends the insertion block with `code` unless it already ended.
    fn terminate(&mut self, code: Opcode, span: ast::Span) {
        if self.block.is_some() {
            self.op(code, &[], &[], span);
            self.block = None;
        }
    }

    // ---- kernels and statements ----

    fn kernel(&mut self, k: &ast::Kernel) {
        let func = self.ir.create_op(Opcode::Func, &[], &[], self.loc(k.span));
        self.ir
            .set_attr(func, "sym_name", Attr::Str(k.name.name.clone()));
        let top = self.ir.top_block();
        self.ir.append_op(top, func);
        let entry = self.enter_region(func);
        self.ir.blocks[entry].name = Some("entry".into());
        for p in &k.params {
            let loc = self.loc(p.name.span);
            let v = self
                .ir
                .add_block_arg(entry, type_of(p.ty.ty), Some(p.name.name.clone()), loc);
            self.bind(&p.name, Binding::Value(v));
        }
        self.stmts(&k.body.stmts);
        let end = ast::Span {
            start: k.body.span.end.saturating_sub(1),
            ..k.body.span
        };
        self.terminate(Opcode::Return, end);
    }

    fn block(&mut self, b: &ast::Block) {
        self.stmts(&b.stmts);
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            if self.block.is_none() {
                return; // dead code after break/continue/return
            }
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Let { name, init, .. } => {
                let v = self.expr(init);
                self.name_value(v, &name.name);
                self.bind(name, Binding::Value(v));
            }
            StmtKind::Var { name, init, .. } => {
                let v = self.expr(init);
                let elem = self
                    .ir
                    .value_type(v)
                    .scalar()
                    .expect("variables hold scalars");
                self.name_value(v, &name.name);
                let var = self.value(Opcode::Var, &[v], Type::Var(elem), name.span);
                self.ir.set_value_name(var, &name.name);
                self.bind(name, Binding::Var(var, elem));
            }
            StmtKind::Shared {
                name, elem, len, ..
            } => {
                let ty = type_of(ast::Type::Ptr(
                    ast::AddrSpace::Shared,
                    elem.ty.scalar().unwrap_or(ast::Scalar::I32),
                ));
                let op = self.op(Opcode::SharedAlloc, &[], &[ty], s.span);
                let v = self.with_attr(op, "size", Attr::Int(*len as i64, Type::I64));
                self.ir.set_value_name(v, &name.name);
                self.bind(name, Binding::Value(v));
            }
            StmtKind::Assign { op, place, value } => self.assign(*op, place, value, s.span),
            StmtKind::If { arms, else_block } => self.if_stmt(arms, else_block.as_ref(), s.span),
            StmtKind::While { cond, heart, body } => {
                self.loop_stmt(heart.as_ref(), Some(cond), None, body, s.span)
            }
            StmtKind::For {
                var,
                start,
                end,
                heart,
                body,
            } => self.loop_stmt(heart.as_ref(), None, Some((var, start, end)), body, s.span),
            StmtKind::Loop { heart, body } => {
                self.loop_stmt(heart.as_ref(), None, None, body, s.span)
            }
            StmtKind::Break => self.terminate(Opcode::Break, s.span),
            StmtKind::Continue => self.terminate(Opcode::Continue, s.span),
            StmtKind::Return => self.terminate(Opcode::Return, s.span),
            StmtKind::Expr(e) => match &e.kind {
                // Calls may have no result (barrier).
                ExprKind::Call { args, .. } => {
                    self.call(e, args);
                }
                _ => {
                    self.expr(e);
                }
            },
            StmtKind::Block(b) => self.block(b),
            StmtKind::Error => unreachable!("checked program has no error statements"),
        }
    }

    fn assign(&mut self, op: Option<BinOp>, place: &Expr, value: &Expr, span: ast::Span) {
        match &place.kind {
            ExprKind::Name(id) => {
                let Binding::Var(var, elem) = self.lookup(place) else {
                    unreachable!("checked program assigns only variables")
                };
                let new = match op {
                    None => self.expr(value),
                    Some(op) => {
                        let old = self.value(Opcode::Get, &[var], Type::Scalar(elem), span);
                        let rhs = self.expr(value);
                        self.binary(op, old, rhs, self.signed(place), span)
                    }
                };
                self.name_value(new, &id.name);
                self.op(Opcode::Set, &[var, new], &[], span);
            }
            ExprKind::Index { base, index } => {
                let ptr = self.expr(base);
                let idx = self.index(index);
                let new = match op {
                    None => self.expr(value),
                    Some(op) => {
                        let elem = self.elem_type(ptr);
                        let old = self.value(Opcode::Load, &[ptr, idx], elem, place.span);
                        let rhs = self.expr(value);
                        self.binary(op, old, rhs, self.signed(place), span)
                    }
                };
                self.op(Opcode::Store, &[new, ptr, idx], &[], span);
            }
            _ => unreachable!("checked program assigns only to names and elements"),
        }
    }

    /// `if` / `else if` / `else`: the `kernel.if` of each `else if` arm sits in the else
    /// region of the arm before it, the final `else` block (or nothing) in the last one's. A
    /// loop over the arms, not recursion, so a chain of any length lowers.
    fn if_stmt(&mut self, arms: &[ast::IfArm], else_b: Option<&ast::Block>, span: ast::Span) {
        // Per arm: the block its `kernel.if` is in, and its location.
        let mut open = Vec::with_capacity(arms.len());
        for (k, arm) in arms.iter().enumerate() {
            let at = if k == 0 { span } else { arm.span };
            let c = self.expr(&arm.cond);
            let op = self.op(Opcode::If, &[c], &[], at);
            open.push((self.block, at));
            self.enter_region(op);
            self.block(&arm.block);
            self.terminate(Opcode::Yield, arm.block.span);
            self.enter_region(op);
        }
        match else_b {
            Some(b) => {
                self.block(b);
                self.terminate(Opcode::Yield, b.span);
            }
            None => self.terminate(Opcode::Yield, open.last().map_or(span, |&(_, at)| at)),
        }
        // Close the else regions that hold the inner arms, innermost first.
        while let Some((after, at)) = open.pop() {
            self.block = after;
            if !open.is_empty() {
                self.terminate(Opcode::Yield, at);
            }
        }
    }

    fn loop_stmt(
        &mut self,
        heart: Option<&ast::Heart>,
        cond: Option<&Expr>,
        range: Option<(&ast::Ident, &Expr, &Expr)>,
        body: &ast::Block,
        span: ast::Span,
    ) {
        // `for`: bounds evaluated once, before the loop.
        let range = range.map(|(var, start, end)| {
            let s = self.expr(start);
            let e = self.expr(end);
            let elem = self.ir.value_type(s).scalar().expect("integer bounds");
            let iv = self.value(Opcode::Var, &[s], Type::Var(elem), var.span);
            self.ir.set_value_name(iv, &var.name);
            (var, iv, e, elem, self.signed(start))
        });
        let op = self.op(Opcode::Loop, &[], &[], span);
        let after = self.block;
        self.enter_region(op);
        if let Some(h) = heart {
            let id = self
                .checked
                .decl(&h.name)
                .expect("checked program: hearts are bindings");
            let BindingKind::Heart { parent } = self.checked.binding(id).kind else {
                unreachable!("checked program: a heart binding")
            };
            let parent = self.token(parent);
            let t = self.value(Opcode::ConvLoop, &[parent], Type::Token, h.span);
            self.ir.set_value_name(t, &h.name.name);
            self.bind(&h.name, Binding::Value(t));
        }
        if let Some(c) = cond {
            let cv = self.expr(c);
            self.exit_unless(cv, c.span);
        }
        if let Some((var, iv, end, elem, signed)) = range {
            let i = self.value(Opcode::Get, &[iv], Type::Scalar(elem), var.span);
            self.ir.set_value_name(i, &var.name);
            let pred = if signed { "slt" } else { "ult" };
            let c = self.cmpi(pred, i, end, var.span);
            self.exit_unless(c, var.span);
            self.bind(var, Binding::Value(i));
        }
        self.block(body);
        self.terminate(Opcode::Yield, body.span);
        // Latch: the `for` increment.
        self.enter_region(op);
        if let Some((var, iv, _, elem, _)) = range {
            let i = self.value(Opcode::Get, &[iv], Type::Scalar(elem), var.span);
            let one = self.int_const(1, Type::Scalar(elem), var.span);
            let next = self.value(Opcode::AddI, &[i, one], Type::Scalar(elem), var.span);
            self.ir.set_value_name(next, &var.name);
            self.op(Opcode::Set, &[iv, next], &[], var.span);
        }
        self.terminate(Opcode::Yield, span);
        self.block = after;
    }

    /// `kernel.if %c {} else { kernel.break }`, continuing after it.
    fn exit_unless(&mut self, c: Value, span: ast::Span) {
        let op = self.op(Opcode::If, &[c], &[], span);
        let after = self.block;
        self.enter_region(op);
        self.terminate(Opcode::Yield, span);
        self.enter_region(op);
        self.terminate(Opcode::Break, span);
        self.block = after;
    }

    // ---- expressions ----

    fn expr(&mut self, e: &Expr) -> Value {
        let span = e.span;
        match &e.kind {
            ExprKind::Int(v) => {
                let ty = type_of(self.ty(e));
                let v = truncate(*v, ty);
                self.int_const(v, ty, span)
            }
            ExprKind::Float(f) => self.constant(Attr::Float(*f as f32), Type::F32, span),
            ExprKind::Bool(b) => self.int_const(*b as i64, Type::I1, span),
            ExprKind::Name(id) => match self.lookup(e) {
                Binding::Value(v) => v,
                Binding::Var(var, elem) => {
                    let v = self.value(Opcode::Get, &[var], Type::Scalar(elem), span);
                    self.ir.set_value_name(v, &id.name);
                    v
                }
            },
            ExprKind::Unary { op, operand } => {
                let x = self.expr(operand);
                let ty = self.ir.value_type(x);
                match op {
                    UnaryOp::Neg if ty == Type::F32 => self.value(Opcode::NegF, &[x], ty, span),
                    UnaryOp::Neg => {
                        let zero = self.int_const(0, ty, span);
                        self.value(Opcode::SubI, &[zero, x], ty, span)
                    }
                    UnaryOp::Not | UnaryOp::BitNot => {
                        let ones = self.int_const(-1, ty, span);
                        self.value(Opcode::XOrI, &[x, ones], ty, span)
                    }
                }
            }
            ExprKind::Binary {
                op: BinOp::And,
                lhs,
                rhs,
            } => self.short_circuit(true, lhs, rhs, span),
            ExprKind::Binary {
                op: BinOp::Or,
                lhs,
                rhs,
            } => self.short_circuit(false, lhs, rhs, span),
            ExprKind::Binary { op, lhs, rhs } => {
                let a = self.expr(lhs);
                let b = self.expr(rhs);
                self.binary(*op, a, b, self.signed(lhs), span)
            }
            ExprKind::Cast { expr, ty } => {
                let x = self.expr(expr);
                self.cast(x, self.ty(expr), ty.ty, span)
            }
            ExprKind::Index { base, index } => {
                let p = self.expr(base);
                let i = self.index(index);
                let elem = self.elem_type(p);
                self.value(Opcode::Load, &[p, i], elem, span)
            }
            ExprKind::AddrOf(place) => {
                let ExprKind::Index { base, index } = &place.kind else {
                    unreachable!("checked: &p[i]")
                };
                let p = self.expr(base);
                let i = self.index(index);
                let ty = self.ir.value_type(p);
                self.value(Opcode::PtrOffset, &[p, i], ty, span)
            }
            ExprKind::Call { args, .. } => self
                .call(e, args)
                .expect("checked: a call used as a value has one"),
        }
    }

    fn elem_type(&self, ptr: Value) -> Type {
        match self.ir.value_type(ptr) {
            Type::Ptr(_, e) => Type::Scalar(e),
            t => unreachable!("checked program indexes pointers, not {t}"),
        }
    }

    /// An index operand: i32 (read as signed) or i64; a u32 index is zero-extended to i64 so
    /// its meaning survives.
    fn index(&mut self, e: &Expr) -> Value {
        let v = self.expr(e);
        if self.ty(e) == ast::Type::U32 {
            return self.value(Opcode::ExtUI, &[v], Type::I64, e.span);
        }
        v
    }

    fn cmpi(&mut self, pred: &str, a: Value, b: Value, span: ast::Span) -> Value {
        let idx = kc_dialect::registry::CMPI_PREDICATES
            .iter()
            .position(|p| *p == pred)
            .expect("predicate");
        let op = self.op(Opcode::CmpI, &[a, b], &[Type::I1], span);
        self.with_attr(op, "predicate", Attr::Int(idx as i64, Type::I64))
    }

    fn cmpf(&mut self, pred: &str, a: Value, b: Value, span: ast::Span) -> Value {
        let idx = kc_dialect::registry::CMPF_PREDICATES
            .iter()
            .position(|p| *p == pred)
            .expect("predicate");
        let op = self.op(Opcode::CmpF, &[a, b], &[Type::I1], span);
        self.with_attr(op, "predicate", Attr::Int(idx as i64, Type::I64))
    }

    fn binary(&mut self, op: BinOp, a: Value, b: Value, signed: bool, span: ast::Span) -> Value {
        let ty = self.ir.value_type(a);
        let float = ty == Type::F32;
        use Opcode as O;
        let code = match (op, float) {
            (BinOp::Add, false) => O::AddI,
            (BinOp::Add, true) => O::AddF,
            (BinOp::Sub, false) => O::SubI,
            (BinOp::Sub, true) => O::SubF,
            (BinOp::Mul, false) => O::MulI,
            (BinOp::Mul, true) => O::MulF,
            (BinOp::Div, true) => O::DivF,
            (BinOp::Div, false) if signed => O::DivSI,
            (BinOp::Div, false) => O::DivUI,
            (BinOp::Rem, true) => O::RemF,
            (BinOp::Rem, false) if signed => O::RemSI,
            (BinOp::Rem, false) => O::RemUI,
            (BinOp::BitAnd | BinOp::And, _) => O::AndI,
            (BinOp::BitOr | BinOp::Or, _) => O::OrI,
            (BinOp::BitXor, _) => O::XOrI,
            (BinOp::Shl, _) => O::ShLI,
            (BinOp::Shr, _) if signed => O::ShRSI,
            (BinOp::Shr, _) => O::ShRUI,
            (cmp, true) => {
                let pred = match cmp {
                    BinOp::Eq => "oeq",
                    BinOp::Ne => "une",
                    BinOp::Lt => "olt",
                    BinOp::Le => "ole",
                    BinOp::Gt => "ogt",
                    _ => "oge",
                };
                return self.cmpf(pred, a, b, span);
            }
            (cmp, false) => {
                let s = signed && ty != Type::I1;
                let pred = match (cmp, s) {
                    (BinOp::Eq, _) => "eq",
                    (BinOp::Ne, _) => "ne",
                    (BinOp::Lt, true) => "slt",
                    (BinOp::Le, true) => "sle",
                    (BinOp::Gt, true) => "sgt",
                    (BinOp::Ge, true) => "sge",
                    (BinOp::Lt, false) => "ult",
                    (BinOp::Le, false) => "ule",
                    (BinOp::Gt, false) => "ugt",
                    _ => "uge",
                };
                return self.cmpi(pred, a, b, span);
            }
        };
        self.value(code, &[a, b], ty, span)
    }

    /// `a && b` (`and`) or `a || b`: `b` runs only if needed, unless it is cheap and safe.
    fn short_circuit(&mut self, and: bool, lhs: &Expr, rhs: &Expr, span: ast::Span) -> Value {
        let a = self.expr(lhs);
        if is_cheap_and_safe(self.checked, rhs) {
            let b = self.expr(rhs);
            let code = if and { Opcode::AndI } else { Opcode::OrI };
            return self.value(code, &[a, b], Type::I1, span);
        }
        // var r = a; if a (&&) / if !a (||) { r = b }
        let r = self.value(Opcode::Var, &[a], Type::Var(Scalar::I1), span);
        let op = self.op(Opcode::If, &[a], &[], span);
        let after = self.block;
        let eval_region = if and { 0 } else { 1 };
        for region in 0..2 {
            self.enter_region(op);
            if region == eval_region {
                let b = self.expr(rhs);
                self.op(Opcode::Set, &[r, b], &[], rhs.span);
            }
            self.terminate(Opcode::Yield, span);
        }
        self.block = after;
        self.value(Opcode::Get, &[r], Type::I1, span)
    }

    fn cast(&mut self, x: Value, from: ast::Type, to: ast::Type, span: ast::Span) -> Value {
        let (Some(f), Some(t)) = (from.scalar(), to.scalar()) else {
            return x;
        };
        let (fi, ti) = (type_of(from), type_of(to));
        if fi == ti {
            return x; // same width and kind: signedness lives in the ops
        }
        let code = match (f, t) {
            (ast::Scalar::F32, t) if t.is_signed() => Opcode::FPToSI,
            (ast::Scalar::F32, _) => Opcode::FPToUI,
            (f, ast::Scalar::F32) if f.is_signed() => Opcode::SIToFP,
            (_, ast::Scalar::F32) => Opcode::UIToFP,
            _ if fi.bits() > ti.bits() => Opcode::TruncI,
            (f, _) if f.is_signed() => Opcode::ExtSI,
            _ => Opcode::ExtUI,
        };
        self.value(code, &[x], ti, span)
    }

    /// A builtin call, dispatched on the checker's resolution; `None` for calls without a
    /// result (`barrier`).
    fn call(&mut self, e: &Expr, args: &[Expr]) -> Option<Value> {
        let span = e.span;
        let builtin = self
            .checked
            .builtin(e)
            .expect("checked program: calls resolve to builtins");
        let result = self.checked.type_of(e).map(type_of);
        let ty = || result.expect("checked program: a valued builtin is typed");
        let dims = match builtin {
            Builtin::WorkitemId(d)
            | Builtin::WorkgroupId(d)
            | Builtin::WorkgroupSize(d)
            | Builtin::NumWorkgroups(d) => Some((builtin.def().op, d)),
            _ => None,
        };
        if let Some((code, dim)) = dims {
            let name = match dim {
                Dim::X => "x",
                Dim::Y => "y",
                Dim::Z => "z",
            };
            let op = self.op(code, &[], &[Type::I32], span);
            return Some(self.with_attr(op, "dim", Attr::Str(name.into())));
        }
        // The ordering and scope names after a synchronizing builtin's arguments are no values.
        let args = &args[..builtin.arity().min(args.len())];
        let mut vals: Vec<Value> = args.iter().map(|a| self.expr(a)).collect();
        // Signedness and float-ness of the data operand (the value for atomics).
        let data = if builtin.is_atomic() {
            args.get(1)
        } else {
            args.first()
        };
        let signed = data.is_some_and(|a| self.signed(a));
        let float = data.is_some_and(|a| self.ty(a) == ast::Type::F32);
        if builtin.is_convergent() {
            if let Some(tok) = self.checked.call_token(e) {
                vals.push(self.token(tok));
            }
        }
        if builtin == Builtin::Barrier {
            self.op(Opcode::Barrier, &vals, &[], span);
            return None;
        }
        if builtin.syncs() {
            let sync = self
                .checked
                .sync(e)
                .expect("checked program: a synchronizing call has its ordering and scope");
            let op = match builtin {
                Builtin::Fence => self.op(Opcode::Fence, &[], &[], span),
                // The IR op takes the value first, like `kernel.store`.
                Builtin::AtomicStore => {
                    self.op(Opcode::AtomicStore, &[vals[1], vals[0]], &[], span)
                }
                _ => return self.atomic(builtin, &vals, ty(), signed, float, sync, span),
            };
            kc_dialect::sync::set(&mut self.ir, op, sync);
            return None;
        }
        // The table's op, in the variant the data type asks for, and the `kind` of
        // reductions and atomics.
        let code = match builtin {
            Builtin::Min if float => Opcode::MinimumF,
            Builtin::Min if !signed => Opcode::MinUI,
            Builtin::Max if float => Opcode::MaximumF,
            Builtin::Max if signed => Opcode::MaxSI,
            Builtin::Max => Opcode::MaxUI,
            b => b.def().op,
        };
        let kind = match builtin {
            Builtin::ReduceAdd | Builtin::ScanAdd => Some(if float { "fadd" } else { "add" }),
            Builtin::ReduceMin | Builtin::ScanMin => Some(minmax("min", float, signed)),
            Builtin::ReduceMax | Builtin::ScanMax => Some(minmax("max", float, signed)),
            _ => None,
        };
        let op = self.op(code, &vals, &[ty()], span);
        if let Some(kind) = kind {
            self.ir.set_attr(op, "kind", Attr::Str(kind.into()));
        }
        Some(self.ir.ops[op].results[0])
    }

    /// A valued atomic (read-modify-write or load) with its `kind`, ordering and scope.
    #[allow(clippy::too_many_arguments)]
    fn atomic(
        &mut self,
        builtin: Builtin,
        vals: &[Value],
        ty: Type,
        signed: bool,
        float: bool,
        sync: kc_dialect::sync::Sync,
        span: ast::Span,
    ) -> Option<Value> {
        let kind = match builtin {
            Builtin::AtomicAdd => Some(if float { "fadd" } else { "add" }),
            // Atomics have no float min/max (the checker rejects them).
            Builtin::AtomicMin => Some(minmax("min", false, signed)),
            Builtin::AtomicMax => Some(minmax("max", false, signed)),
            Builtin::AtomicXchg => Some("xchg"),
            _ => None,
        };
        let op = self.op(builtin.def().op, vals, &[ty], span);
        if let Some(kind) = kind {
            self.ir.set_attr(op, "kind", Attr::Str(kind.into()));
        }
        kc_dialect::sync::set(&mut self.ir, op, sync);
        Some(self.ir.ops[op].results[0])
    }
}

/// The `kind` of a min/max reduction or atomic: `min`/`umin`/`fmin` (and `max` alike).
fn minmax(base: &'static str, float: bool, signed: bool) -> &'static str {
    match (base, float, signed) {
        ("min", true, _) => "fmin",
        ("min", _, true) => "min",
        ("min", _, false) => "umin",
        (_, true, _) => "fmax",
        (_, _, true) => "max",
        _ => "umax",
    }
}

/// Literal bits for a type: u64 literals above i64::MAX keep their bit pattern.
fn truncate(v: u64, ty: Type) -> i64 {
    match ty {
        Type::Scalar(Scalar::I32) => v as u32 as i32 as i64,
        _ => v as i64,
    }
}

/// Expressions that can run unconditionally: no memory access, no division, no calls other
/// than pure queries, and small.
fn is_cheap_and_safe(checked: &Checked, e: &Expr) -> bool {
    fn walk(checked: &Checked, e: &Expr, budget: &mut u32) -> bool {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) | ExprKind::Name(_) => true,
            ExprKind::Unary { operand, .. } => walk(checked, operand, budget),
            ExprKind::Cast { expr, .. } => walk(checked, expr, budget),
            ExprKind::Binary {
                op: BinOp::Div | BinOp::Rem,
                ..
            } => false,
            ExprKind::Binary { lhs, rhs, .. } => {
                walk(checked, lhs, budget) && walk(checked, rhs, budget)
            }
            ExprKind::Call { args, .. } => {
                let pure = checked.builtin(e).is_some_and(Builtin::is_pure_query);
                // The dimension argument of the id builtins is a bare `x`/`y`/`z`, not a value.
                pure && args
                    .iter()
                    .all(|a| checked.type_of(a).is_none() || walk(checked, a, budget))
            }
            ExprKind::Index { .. } | ExprKind::AddrOf(_) => false,
        }
    }
    walk(checked, e, &mut 8)
}
