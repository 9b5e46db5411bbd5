//! Abstract syntax tree of a `.k` file.
//!
//! Plain data: every node carries a [`Span`]; every expression carries a dense
//! [`ExprId`] (assigned by the parser in creation order, `0..Module::num_exprs`)
//! so later passes can keep per-expression side tables in flat vectors.
//! Names are not resolved here; the checker does that.

use crate::source::SourceFile;
pub use crate::source::{FileId, Span};
use std::fmt::{self, Write};

/// Dense per-file expression index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExprId(pub u32);

impl ExprId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A name as written, with its span.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// Scalar types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scalar {
    Bool,
    I32,
    U32,
    I64,
    U64,
    F32,
}

impl Scalar {
    pub fn is_int(self) -> bool {
        matches!(self, Scalar::I32 | Scalar::U32 | Scalar::I64 | Scalar::U64)
    }

    pub fn is_signed(self) -> bool {
        matches!(self, Scalar::I32 | Scalar::I64)
    }

    pub fn is_numeric(self) -> bool {
        self.is_int() || self == Scalar::F32
    }

    /// Size in bytes (bool is stored as one byte only conceptually; it has no
    /// memory representation in this language).
    pub fn size(self) -> u64 {
        match self {
            Scalar::Bool => 1,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 4,
            Scalar::I64 | Scalar::U64 => 8,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::I32 => "i32",
            Scalar::U32 => "u32",
            Scalar::I64 => "i64",
            Scalar::U64 => "u64",
            Scalar::F32 => "f32",
        }
    }
}

/// Address spaces a pointer can refer to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddrSpace {
    Global,
    Shared,
}

impl AddrSpace {
    pub fn name(self) -> &'static str {
        match self {
            AddrSpace::Global => "global",
            AddrSpace::Shared => "shared",
        }
    }
}

/// Types of values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Type {
    Scalar(Scalar),
    /// `ptr<AS, T>`; the pointee is a scalar (never bool once checked).
    Ptr(AddrSpace, Scalar),
    /// A convergence token.
    Token,
}

impl Type {
    pub const BOOL: Type = Type::Scalar(Scalar::Bool);
    pub const I32: Type = Type::Scalar(Scalar::I32);
    pub const U32: Type = Type::Scalar(Scalar::U32);
    pub const I64: Type = Type::Scalar(Scalar::I64);
    pub const U64: Type = Type::Scalar(Scalar::U64);
    pub const F32: Type = Type::Scalar(Scalar::F32);

    pub fn scalar(self) -> Option<Scalar> {
        match self {
            Type::Scalar(s) => Some(s),
            _ => None,
        }
    }

    pub fn is_int(self) -> bool {
        self.scalar().is_some_and(Scalar::is_int)
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Scalar(s) => f.write_str(s.name()),
            Type::Ptr(a, s) => write!(f, "ptr<{}, {}>", a.name(), s.name()),
            Type::Token => f.write_str("token"),
        }
    }
}

/// A type as written in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeExpr {
    pub ty: Type,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Module {
    pub file: FileId,
    pub kernels: Vec<Kernel>,
    /// Number of expressions; every `ExprId` is below this.
    pub num_exprs: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Kernel {
    pub name: Ident,
    pub params: Vec<Param>,
    pub body: Block,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub name: Ident,
    pub ty: TypeExpr,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

/// `heart NAME(PARENT)` on a loop.
#[derive(Debug, Clone, PartialEq)]
pub struct Heart {
    pub name: Ident,
    pub parent: Ident,
    pub span: Span,
}

/// One `if COND { ... }` of an if statement: the first, or one after an `else`.
#[derive(Debug, Clone, PartialEq)]
pub struct IfArm {
    pub cond: Expr,
    pub block: Block,
    /// From `if` to the end of the block.
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    Let {
        name: Ident,
        ty: Option<TypeExpr>,
        init: Expr,
    },
    Var {
        name: Ident,
        ty: Option<TypeExpr>,
        init: Expr,
    },
    /// `shared NAME: [T; N];`
    Shared {
        name: Ident,
        elem: TypeExpr,
        len: u64,
        len_span: Span,
    },
    /// `place = value;` (`op` is `None`) or `place OP= value;`.
    Assign {
        op: Option<BinOp>,
        place: Expr,
        value: Expr,
    },
    /// `if c1 {} else if c2 {} ... else {}`: the arms in order (at least one), then the
    /// final `else` block. A chain is flat here, however long; it nests from lowering on
    /// (`kernel.if` in the else region of the previous arm).
    If {
        arms: Vec<IfArm>,
        else_block: Option<Block>,
    },
    While {
        cond: Expr,
        heart: Option<Heart>,
        body: Block,
    },
    /// `for var in start..end`
    For {
        var: Ident,
        start: Expr,
        end: Expr,
        heart: Option<Heart>,
        body: Block,
    },
    Loop {
        heart: Option<Heart>,
        body: Block,
    },
    Break,
    Continue,
    Return,
    Expr(Expr),
    Block(Block),
    /// A statement that failed to parse (only present in modules that also
    /// produced parse errors, so never seen by later passes).
    Error,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub id: ExprId,
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// Integer literal; its type comes from context (see the checker).
    Int(u64),
    /// Float literal (always `f32`; kept in f64 until lowering).
    Float(f64),
    Bool(bool),
    Name(Ident),
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Cast {
        expr: Box<Expr>,
        ty: TypeExpr,
    },
    Index {
        base: Box<Expr>,
        index: Box<Expr>,
    },
    /// `&place`; the checker requires `place` to be an `Index`.
    AddrOf(Box<Expr>),
    /// `callee(args) @ token`; the callee is resolved to a builtin by the checker.
    Call {
        callee: Ident,
        args: Vec<Expr>,
        token: Option<Ident>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Not,
    BitNot,
}

impl UnaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Not => "!",
            UnaryOp::BitNot => "~",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }

    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
}

/// Renders the module as an indented tree, one node per line, each ending in
/// the `[line:col]` of its start; expressions also show their `#ExprId`.
/// An `else if` prints as an `If` nested in the previous arm's (the shape lowering gives
/// it). Indentation stops growing at [`MAX_INDENT`] levels, so a long `else if` chain dumps
/// in space linear in its length. Used by `kc --emit=ast`; the format is stable.
pub fn dump(module: &Module, file: &SourceFile) -> String {
    let mut d = Dumper {
        out: String::new(),
        depth: 0,
        file,
    };
    for k in &module.kernels {
        d.kernel(k);
    }
    d.out
}

/// The deepest indentation level `dump` and the IR printer show; deeper lines are indented
/// as this level.
pub const MAX_INDENT: usize = 100;

struct Dumper<'a> {
    out: String,
    depth: usize,
    file: &'a SourceFile,
}

impl Dumper<'_> {
    fn line(&mut self, span: Span, text: fmt::Arguments<'_>) {
        let (l, c) = self.file.line_col(span.start);
        for _ in 0..self.depth.min(MAX_INDENT) {
            self.out.push_str("  ");
        }
        let _ = writeln!(self.out, "{text} [{l}:{c}]");
    }

    fn nested(&mut self, f: impl FnOnce(&mut Self)) {
        self.depth += 1;
        f(self);
        self.depth -= 1;
    }

    fn kernel(&mut self, k: &Kernel) {
        self.line(k.span, format_args!("Kernel {}", k.name.name));
        self.nested(|d| {
            for p in &k.params {
                d.line(p.span, format_args!("Param {}: {}", p.name.name, p.ty.ty));
            }
            d.block(&k.body);
        });
    }

    fn block(&mut self, b: &Block) {
        self.line(b.span, format_args!("Block"));
        self.nested(|d| b.stmts.iter().for_each(|s| d.stmt(s)));
    }

    fn heart(&mut self, h: &Option<Heart>) {
        if let Some(h) = h {
            self.line(
                h.span,
                format_args!("Heart {}({})", h.name.name, h.parent.name),
            );
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        let sp = s.span;
        match &s.kind {
            StmtKind::Let { name, ty, init } | StmtKind::Var { name, ty, init } => {
                let kw = if matches!(s.kind, StmtKind::Let { .. }) {
                    "Let"
                } else {
                    "Var"
                };
                match ty {
                    Some(t) => self.line(sp, format_args!("{kw} {}: {}", name.name, t.ty)),
                    None => self.line(sp, format_args!("{kw} {}", name.name)),
                }
                self.nested(|d| d.expr(init));
            }
            StmtKind::Shared {
                name, elem, len, ..
            } => self.line(
                sp,
                format_args!("Shared {}: [{}; {len}]", name.name, elem.ty),
            ),
            StmtKind::Assign { op, place, value } => {
                let op = op.map_or(String::new(), |o| o.symbol().to_string());
                self.line(sp, format_args!("Assign {op}="));
                self.nested(|d| {
                    d.expr(place);
                    d.expr(value);
                });
            }
            StmtKind::If { arms, else_block } => {
                // Each arm one level deeper than the one before (a loop, not recursion).
                let depth = self.depth;
                for arm in arms {
                    self.line(arm.span, format_args!("If"));
                    self.depth += 1;
                    self.expr(&arm.cond);
                    self.block(&arm.block);
                }
                if let Some(b) = else_block {
                    self.block(b);
                }
                self.depth = depth;
            }
            StmtKind::While { cond, heart, body } => {
                self.line(sp, format_args!("While"));
                self.nested(|d| {
                    d.expr(cond);
                    d.heart(heart);
                    d.block(body);
                });
            }
            StmtKind::For {
                var,
                start,
                end,
                heart,
                body,
            } => {
                self.line(sp, format_args!("For {}", var.name));
                self.nested(|d| {
                    d.expr(start);
                    d.expr(end);
                    d.heart(heart);
                    d.block(body);
                });
            }
            StmtKind::Loop { heart, body } => {
                self.line(sp, format_args!("Loop"));
                self.nested(|d| {
                    d.heart(heart);
                    d.block(body);
                });
            }
            StmtKind::Break => self.line(sp, format_args!("Break")),
            StmtKind::Continue => self.line(sp, format_args!("Continue")),
            StmtKind::Return => self.line(sp, format_args!("Return")),
            StmtKind::Expr(e) => {
                self.line(sp, format_args!("ExprStmt"));
                self.nested(|d| d.expr(e));
            }
            StmtKind::Block(b) => self.block(b),
            StmtKind::Error => self.line(sp, format_args!("<error>")),
        }
    }

    fn expr(&mut self, e: &Expr) {
        let sp = e.span;
        let id = e.id.0;
        match &e.kind {
            ExprKind::Int(v) => self.line(sp, format_args!("Int {v} #{id}")),
            ExprKind::Float(v) => self.line(sp, format_args!("Float {v:?} #{id}")),
            ExprKind::Bool(v) => self.line(sp, format_args!("Bool {v} #{id}")),
            ExprKind::Name(n) => self.line(sp, format_args!("Name {} #{id}", n.name)),
            ExprKind::Unary { op, operand } => {
                self.line(sp, format_args!("Unary {} #{id}", op.symbol()));
                self.nested(|d| d.expr(operand));
            }
            ExprKind::Binary { op, lhs, rhs } => {
                self.line(sp, format_args!("Binary {} #{id}", op.symbol()));
                self.nested(|d| {
                    d.expr(lhs);
                    d.expr(rhs);
                });
            }
            ExprKind::Cast { expr, ty } => {
                self.line(sp, format_args!("Cast {} #{id}", ty.ty));
                self.nested(|d| d.expr(expr));
            }
            ExprKind::Index { base, index } => {
                self.line(sp, format_args!("Index #{id}"));
                self.nested(|d| {
                    d.expr(base);
                    d.expr(index);
                });
            }
            ExprKind::AddrOf(place) => {
                self.line(sp, format_args!("AddrOf #{id}"));
                self.nested(|d| d.expr(place));
            }
            ExprKind::Call {
                callee,
                args,
                token,
            } => {
                match token {
                    Some(t) => {
                        self.line(sp, format_args!("Call {} @{} #{id}", callee.name, t.name))
                    }
                    None => self.line(sp, format_args!("Call {} #{id}", callee.name)),
                }
                self.nested(|d| args.iter().for_each(|a| d.expr(a)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::source::SourceFile;

    #[test]
    fn dump_statements() {
        let src = "kernel k(p: ptr<shared, u32>, n: u32) {
    shared t: [f32; 8];
    let e = convergence_entry();
    var s: u32 = 0;
    for i in 0..n heart h(e) { s += ballot(i < 3) @ h as u32; }
    if s == 1 { return; } else if s == 2 { p[0] = s; } else { loop { break; } }
    atomic_add(&p[1], 1);
}
";
        let f = SourceFile::new("t.k", src);
        let m = crate::parse::parse(&f).unwrap();
        let expected = "\
Kernel k [1:1]
  Param p: ptr<shared, u32> [1:10]
  Param n: u32 [1:31]
  Block [1:39]
    Shared t: [f32; 8] [2:5]
    Let e [3:5]
      Call convergence_entry #0 [3:13]
    Var s: u32 [4:5]
      Int 0 #1 [4:18]
    For i [5:5]
      Int 0 #2 [5:14]
      Name n #3 [5:17]
      Heart h(e) [5:19]
      Block [5:30]
        Assign += [5:32]
          Name s #4 [5:32]
          Cast u32 #9 [5:37]
            Call ballot @h #8 [5:37]
              Binary < #7 [5:44]
                Name i #5 [5:44]
                Int 3 #6 [5:48]
    If [6:5]
      Binary == #12 [6:8]
        Name s #10 [6:8]
        Int 1 #11 [6:13]
      Block [6:15]
        Return [6:17]
      If [6:32]
        Binary == #15 [6:35]
          Name s #13 [6:35]
          Int 2 #14 [6:40]
        Block [6:42]
          Assign = [6:44]
            Index #18 [6:44]
              Name p #16 [6:44]
              Int 0 #17 [6:46]
            Name s #19 [6:51]
        Block [6:61]
          Loop [6:63]
            Block [6:68]
              Break [6:70]
    ExprStmt [7:5]
      Call atomic_add #25 [7:5]
        AddrOf #23 [7:16]
          Index #22 [7:17]
            Name p #20 [7:17]
            Int 1 #21 [7:19]
        Int 1 #24 [7:23]
";
        let got = super::dump(&m, &f);
        assert_eq!(got, expected, "\n{got}");
    }
}
