//! The printer for every form: custom (upstream ops in MLIR's syntax, kc's ops in kc's), generic,
//! and a mix of the two (`Generic::Kc`).

use super::{Annot, Generic, PrintOptions};
use crate::attrs::{is_bare_ident, quote, Attr};
use crate::entities::{Block, Op, Value};
use crate::ir::{Event, Ir};
use crate::location::Loc;
use crate::mlir_float::format_f32;
use crate::registry::syntax::{format, Elem, Format, Infer, Ref};
use crate::registry::{Keyword, Opcode, Traits};
use crate::types::Type;
use cranelift_entity::SecondaryMap;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// Words printed between the regions of an op in the custom form (`kernel.if ... else ...`).
pub(super) fn region_separators(opcode: Opcode) -> &'static [&'static str] {
    match opcode {
        Opcode::If => &["else"],
        Opcode::Loop => &["latch"],
        _ => &[],
    }
}

/// The custom syntax of an upstream op, as MLIR 22 prints it (its `assemblyFormat`).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Upstream {
    /// `module {`.
    Module,
    /// `arith.constant 4 : i32`, `arith.constant true`, `arith.constant 1.000000e+00 : f32`.
    Constant,
    /// `arith.addi %a, %b : i32`, `arith.negf %x : f32`, `arith.select %c, %a, %b : i32`:
    /// the operands, then the result type (which the operands share, but a select's condition).
    Operands,
    /// `arith.cmpi slt, %a, %b : i32`: the predicate, then the *operand* type.
    Compare,
    /// `arith.extsi %x : i32 to i64`.
    Cast,
    /// `cf.br ^bb1(%a, %b : i32, i32)`.
    Br,
    /// `cf.cond_br %c, ^bb1(%a : i32), ^bb2`.
    CondBr,
}

pub(super) fn upstream_syntax(opcode: Opcode) -> Option<Upstream> {
    use Opcode::*;
    Some(match opcode {
        Module => Upstream::Module,
        Constant => Upstream::Constant,
        CmpI | CmpF => Upstream::Compare,
        ExtSI | ExtUI | TruncI | SIToFP | UIToFP | FPToSI | FPToUI | Bitcast => Upstream::Cast,
        Br => Upstream::Br,
        CondBr => Upstream::CondBr,
        op if op.spec().has(Traits::UPSTREAM) => Upstream::Operands,
        _ => return None,
    })
}

/// All words the parser accepts between regions.
pub(super) const REGION_SEPARATORS: &[&str] = &["else", "latch"];

/// The type a `Keyword::Literal` attribute takes in the custom form: the single scalar result
/// type, else `i64`.
pub(super) fn literal_type(result_tys: &[Type]) -> Type {
    match result_tys {
        [t @ Type::Scalar(_)] => *t,
        _ => Type::I64,
    }
}

/// `bb` followed by digits: the form of unnamed block labels.
pub(super) fn is_numbered_block(s: &str) -> bool {
    s.strip_prefix("bb")
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()))
}

/// Makes a source name usable after `%` / `^`: invalid characters become `_`, and a leading
/// digit gets a `_` prefix so it can't clash with numbered names.
fn sanitize(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.as_bytes()[0].is_ascii_digit() {
        s.insert(0, '_');
    }
    s
}

/// Names used in one isolated scope.
#[derive(Default)]
struct Scope {
    used_values: HashSet<String>,
    used_blocks: HashSet<String>,
    /// Next suffix to try per base name.
    hints: HashMap<(bool, String), u32>,
    next_value: u32,
    next_block: u32,
}

impl Scope {
    fn unique(&mut self, is_block: bool, base: String, base_ok: bool) -> String {
        let used = if is_block {
            &mut self.used_blocks
        } else {
            &mut self.used_values
        };
        if base_ok && !used.contains(&base) {
            used.insert(base.clone());
            return base;
        }
        let hint = self.hints.entry((is_block, base.clone())).or_insert(1);
        loop {
            let cand = format!("{base}_{hint}");
            *hint += 1;
            if used.insert(cand.clone()) {
                return cand;
            }
        }
    }
}

/// Printed names of values and blocks.
struct Names {
    values: SecondaryMap<Value, String>,
    blocks: SecondaryMap<Block, String>,
    /// Blocks that are branch targets (an entry block that is one needs its label).
    targets: SecondaryMap<Block, bool>,
}

impl Names {
    /// Names everything under `root` (and `root`'s results) in print order. A value or block
    /// is named in the scope of its nearest isolated ancestor; one walk with a stack of
    /// scopes, no recursion.
    fn new(ir: &Ir, root: Op) -> Names {
        let mut n = Names {
            values: SecondaryMap::new(),
            blocks: SecondaryMap::new(),
            targets: SecondaryMap::new(),
        };
        let mut scopes = vec![Scope::default()];
        for &r in &ir.ops[root].results {
            n.name_value(ir, r, scopes.last_mut().expect("a scope"));
        }
        for event in ir.events(root) {
            match event {
                Event::Op(o) => {
                    if o != root {
                        for s in &ir.ops[o].succs {
                            n.targets[s.block] = true;
                        }
                        let scope = scopes.last_mut().expect("a scope");
                        for &r in &ir.ops[o].results {
                            n.name_value(ir, r, scope);
                        }
                    }
                    if ir.spec(o).has(Traits::ISOLATED) {
                        scopes.push(Scope::default());
                    }
                }
                Event::OpEnd(o) => {
                    if ir.spec(o).has(Traits::ISOLATED) {
                        scopes.pop();
                    }
                }
                Event::Block(b) => {
                    let scope = scopes.last_mut().expect("a scope");
                    n.name_block(ir, b, scope);
                }
                Event::Region(_) | Event::RegionEnd(_) => {}
            }
        }
        n
    }

    fn name_value(&mut self, ir: &Ir, v: Value, scope: &mut Scope) {
        let name = match ir.values[v].name.as_deref() {
            Some(s) => scope.unique(false, sanitize(s), true),
            None => {
                scope.next_value += 1;
                (scope.next_value - 1).to_string()
            }
        };
        self.values[v] = name;
    }

    fn name_block(&mut self, ir: &Ir, b: Block, scope: &mut Scope) {
        let name = match ir.blocks[b].name.as_deref() {
            Some(s) => {
                let s = sanitize(s);
                let ok = !is_numbered_block(&s);
                scope.unique(true, s, ok)
            }
            None => {
                scope.next_block += 1;
                format!("bb{}", scope.next_block - 1)
            }
        };
        self.blocks[b] = name;
        for &a in &ir.blocks[b].args {
            self.name_value(ir, a, scope);
        }
    }
}

struct Printer<'a> {
    ir: &'a Ir,
    opts: &'a PrintOptions<'a>,
    names: &'a super::Names,
    out: String,
}

/// The nearest isolated ancestor of `op` (or `op` itself): the scope its names come from.
fn isolated_root(ir: &Ir, op: Op) -> Op {
    let mut root = op;
    while !ir.spec(root).has(Traits::ISOLATED) {
        match ir.parent_op(root) {
            Some(p) => root = p,
            None => break,
        }
    }
    root
}

/// The printed names (without `%` / `^`) of the values and blocks in `op`'s isolated scope.
pub(super) fn names(ir: &Ir, op: Op) -> super::Names {
    let n = Names::new(ir, isolated_root(ir, op));
    super::Names {
        values: n.values,
        blocks: n.blocks,
        targets: n.targets,
    }
}

/// Prints `op` at indentation 0; names come from its nearest isolated ancestor (or itself).
pub(super) fn print_op(ir: &Ir, op: Op, opts: &PrintOptions) -> String {
    print_op_named(ir, op, opts, &names(ir, op))
}

/// Prints `op` at indentation 0 with `names`, those of its isolated scope.
pub(super) fn print_op_named(ir: &Ir, op: Op, opts: &PrintOptions, names: &super::Names) -> String {
    let mut p = Printer {
        ir,
        opts,
        names,
        out: String::new(),
    };
    p.print(op);
    p.out
}

/// Indentation stops growing at this nesting level, so the text of deeply nested IR (a long
/// `else if` chain is one `kernel.if` per arm, each in the previous one's else region) stays
/// linear in its size. The parser does not care about indentation.
const MAX_INDENT: usize = 100;

/// Printed attributes: names and values.
type AttrList = Vec<(String, String)>;

/// An op whose regions are being printed.
struct Open {
    op: Op,
    indent: usize,
    /// The op's annotation until a region's `{` takes it.
    annot: Option<String>,
    /// Regions started so far.
    regions: usize,
}

impl Printer<'_> {
    fn indent(&mut self, n: usize) {
        for _ in 0..n {
            self.out.push(' ');
        }
    }

    fn value(&mut self, v: Value) {
        self.out.push('%');
        match self.names.values.get(v).filter(|s| !s.is_empty()) {
            Some(s) => self.out.push_str(s),
            None => {
                let _ = write!(self.out, "<{v}>");
            }
        }
    }

    fn values(&mut self, vs: &[Value]) {
        for (i, &v) in vs.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.value(v);
        }
    }

    fn block_ref(&mut self, b: Block) {
        self.out.push('^');
        match self.names.blocks.get(b).filter(|s| !s.is_empty()) {
            Some(s) => self.out.push_str(s),
            None => {
                let _ = write!(self.out, "<{b}>");
            }
        }
    }

    fn loc(&mut self, loc: Loc) {
        if self.opts.locations && loc.is_known() {
            let _ = write!(
                self.out,
                " loc({}:{}:{})",
                quote(self.ir.file_name(loc.file)),
                loc.line,
                loc.col
            );
        }
    }

    fn comment(&mut self, text: Option<String>) {
        if let Some(t) = text {
            self.out.push_str(" // ");
            self.out.push_str(&t.replace(['\n', '\r'], " "));
        }
    }

    /// Does `op` print in the generic form? Besides what the options ask, an op whose shape
    /// its custom syntax cannot express (IR the verifier would reject, such as a load whose
    /// result is not its pointer's element type, or attributes the syntax has no place for)
    /// prints generically, so nothing is lost.
    fn is_generic(&self, op: Op) -> bool {
        match self.opts.generic {
            Generic::All => true,
            Generic::Kc if !self.ir.spec(op).has(Traits::UPSTREAM) => true,
            _ => match (
                upstream_syntax(self.ir.opcode(op)),
                format(self.ir.opcode(op)),
            ) {
                (Some(u), _) => !upstream_fits(self.ir, op, u),
                (None, Some(f)) => !format_fits(self.ir, op, f),
                (None, None) => false,
            },
        }
    }

    fn annot(&self, a: Annot) -> Option<String> {
        self.opts.annotate.and_then(|f| f(a))
    }

    fn attr_dict(&mut self, attrs: &[(String, String)]) {
        self.out.push('{');
        for (i, (name, val)) in attrs.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            if is_bare_ident(name) {
                self.out.push_str(name);
            } else {
                self.out.push_str(&quote(name));
            }
            self.out.push_str(" = ");
            self.out.push_str(val);
        }
        self.out.push('}');
    }

    fn types(&mut self, tys: impl Iterator<Item = Type>) {
        for (i, t) in tys.enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let _ = write!(self.out, "{t}");
        }
    }

    /// Prints `root` and everything nested in it: one walk over the IR's events with a stack
    /// of the ops whose regions are open (no recursion, so any depth prints).
    fn print(&mut self, root: Op) {
        let ir = self.ir;
        let mut open: Vec<Open> = Vec::new();
        for event in ir.events(root) {
            match event {
                Event::Op(op) => {
                    let indent = 2 * open.len().min(MAX_INDENT);
                    let annot = self.head(op, indent);
                    open.push(Open {
                        op,
                        indent,
                        annot,
                        regions: 0,
                    });
                }
                Event::Region(_) => {
                    let top = open.last_mut().expect("a region's op is open");
                    let (op, index, annot) = (top.op, top.regions, top.annot.take());
                    top.regions += 1;
                    self.region_start(op, index, annot);
                }
                Event::Block(b) => {
                    let indent = open.last().map_or(0, |o| o.indent);
                    self.block_label(b, indent);
                }
                Event::RegionEnd(_) => {
                    let indent = open.last().map_or(0, |o| o.indent);
                    self.indent(indent);
                    self.out.push('}');
                }
                Event::OpEnd(_) => {
                    let top = open.pop().expect("an op is open");
                    self.tail(top.op, top.annot);
                }
            }
        }
    }

    /// An op up to its first region: results, then the form's text before the regions.
    /// Returns the op's annotation (the first region's `{` or the end of the line takes it).
    fn head(&mut self, op: Op, indent: usize) -> Option<String> {
        let data = &self.ir.ops[op];
        self.indent(indent);
        if !data.results.is_empty() {
            self.values(&data.results);
            self.out.push_str(" = ");
        }
        if self.is_generic(op) {
            self.generic_head(op);
        } else if let Some(u) = upstream_syntax(data.opcode) {
            self.upstream(op, u);
        } else if let Some(f) = format(data.opcode) {
            self.out.push_str(data.opcode.name());
            self.format_elems(op, &f.pieces[0], false);
        } else {
            self.custom_head(op);
        }
        self.annot(Annot::Op(op))
    }

    /// The text before region `index` of `op` and its `{`; the annotation (if any) goes after
    /// the `{`.
    fn region_start(&mut self, op: Op, index: usize, annot: Option<String>) {
        if self.is_generic(op) {
            if index > 0 {
                self.out.push_str(", ");
            }
        } else if let Some(f) = format(self.ir.opcode(op)) {
            if index > 0 {
                self.format_elems(op, &f.pieces[index], false);
            }
            self.out.push(' ');
        } else {
            self.out.push(' ');
            let seps = region_separators(self.ir.opcode(op));
            if let Some(w) = index.checked_sub(1).and_then(|j| seps.get(j)) {
                self.out.push_str(w);
                self.out.push(' ');
            }
        }
        self.out.push('{');
        self.comment(annot);
        self.out.push('\n');
    }

    /// A block's label line, unless the block is an entry block that needs none.
    fn block_label(&mut self, b: Block, indent: usize) {
        let ir = self.ir;
        let args = &ir.blocks[b].args;
        let first = ir
            .block_region(b)
            .and_then(|r| ir.entry_block(r))
            .is_none_or(|e| e == b);
        // MLIR reads `{}` as a region without blocks, so the generic form labels an empty
        // entry block.
        let generic = ir
            .block_region(b)
            .and_then(|r| ir.region_parent(r))
            .is_some_and(|o| self.is_generic(o));
        let empty = generic && ir.first_op(b).is_none();
        if !first || !args.is_empty() || empty || self.names.targets[b] {
            self.indent(indent);
            self.block_ref(b);
            if !args.is_empty() {
                self.out.push('(');
                for (j, &a) in args.iter().enumerate() {
                    if j > 0 {
                        self.out.push_str(", ");
                    }
                    self.value(a);
                    let _ = write!(self.out, ": {}", ir.values[a].ty);
                    self.loc(ir.values[a].loc);
                }
                self.out.push(')');
            }
            self.out.push(':');
            let a = self.annot(Annot::Block(b));
            self.comment(a);
            self.out.push('\n');
        }
    }

    /// An op after its last region: the form's text after the regions, the location and the
    /// annotation if no region took it.
    fn tail(&mut self, op: Op, annot: Option<String>) {
        if self.is_generic(op) {
            self.generic_tail(op);
        } else if let Some(f) = format(self.ir.opcode(op)) {
            // Without regions the head printed the whole format.
            if f.pieces.len() > 1 {
                let last = f.pieces.last().expect("a format has a piece");
                self.format_elems(op, last, false);
            }
        } else if upstream_syntax(self.ir.opcode(op)).is_none() {
            self.custom_tail(op);
        }
        self.loc(self.ir.ops[op].loc);
        self.comment(annot);
        self.out.push('\n');
    }

    /// The generic form's operands: the op's own, then each successor's arguments.
    fn generic_operands(&self, op: Op) -> Vec<Value> {
        let data = &self.ir.ops[op];
        let mut operands = data.operands.to_vec();
        for s in &data.succs {
            operands.extend_from_slice(&s.args);
        }
        operands
    }

    /// The generic form's attributes: properties (`<{...}>`) and the plain dictionary.
    fn generic_attrs(&self, op: Op) -> (AttrList, AttrList) {
        let ir = self.ir;
        let data = &ir.ops[op];
        let attrs: Vec<(String, String)> = ordered_attrs(ir, op)
            .map(|(n, a)| (n.to_string(), a.to_string()))
            .collect();
        let (mut props, plain) = if data.opcode.spec().has(Traits::UPSTREAM) {
            (attrs, Vec::new())
        } else {
            (Vec::new(), attrs)
        };
        if data.succs.len() > 1 {
            let seg = Attr::I32Array(
                std::iter::once(data.operands.len() as i32)
                    .chain(data.succs.iter().map(|s| s.args.len() as i32))
                    .collect(),
            );
            props.push(("operandSegmentSizes".to_string(), seg.to_string()));
        }
        (props, plain)
    }

    /// `"name"(operands) [succs] <{props}>`, and ` (` if regions follow.
    fn generic_head(&mut self, op: Op) {
        let ir = self.ir;
        let data = &ir.ops[op];
        self.out.push_str(&quote(data.opcode.spec().name));
        self.out.push('(');
        let operands = self.generic_operands(op);
        self.values(&operands);
        self.out.push(')');
        if !data.succs.is_empty() {
            self.out.push('[');
            for (i, s) in data.succs.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.block_ref(s.block);
            }
            self.out.push(']');
        }
        let (props, _) = self.generic_attrs(op);
        if !props.is_empty() {
            self.out.push_str(" <");
            self.attr_dict(&props);
            self.out.push('>');
        }
        if !data.regions.is_empty() {
            self.out.push_str(" (");
        }
    }

    /// `)` after the regions, `{attrs}`, `: (operand types) -> result types`.
    fn generic_tail(&mut self, op: Op) {
        let ir = self.ir;
        let data = &ir.ops[op];
        if !data.regions.is_empty() {
            self.out.push(')');
        }
        let (_, plain) = self.generic_attrs(op);
        if !plain.is_empty() {
            self.out.push(' ');
            self.attr_dict(&plain);
        }
        self.out.push_str(" : (");
        let operands = self.generic_operands(op);
        self.types(operands.iter().map(|&v| ir.values[v].ty));
        self.out.push_str(") -> ");
        if data.results.len() == 1 {
            let _ = write!(self.out, "{}", ir.values[data.results[0]].ty);
        } else {
            self.out.push('(');
            self.types(data.results.iter().map(|&v| ir.values[v].ty));
            self.out.push(')');
        }
    }

    /// `name keyword, operands {attrs} [succs]`.
    fn custom_head(&mut self, op: Op) {
        let ir = self.ir;
        let data = &ir.ops[op];
        let spec = data.opcode.spec();
        self.out.push_str(spec.name);
        let result_tys: Vec<Type> = data.results.iter().map(|&v| ir.values[v].ty).collect();
        let mut kw_attr = None;
        if let Some(kw) = spec.keyword {
            if let Some(text) = ir
                .attr(op, kw.attr())
                .and_then(|a| keyword_text(kw, a, &result_tys))
            {
                self.out.push(' ');
                self.out.push_str(&text);
                kw_attr = Some(kw.attr());
            }
        }
        let mut sep = if kw_attr.is_some() { ", " } else { " " };
        if !data.operands.is_empty() {
            self.out.push_str(sep);
            self.values(&data.operands);
            sep = ", ";
        }
        let attrs: Vec<(String, String)> = ordered_attrs(ir, op)
            .filter(|(n, _)| Some(*n) != kw_attr)
            .map(|(n, a)| (n.to_string(), a.to_string()))
            .collect();
        if !attrs.is_empty() {
            self.out.push(' ');
            self.attr_dict(&attrs);
            sep = " ";
        }
        if !data.succs.is_empty() {
            self.out.push_str(sep);
            self.out.push('[');
            for (i, s) in data.succs.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.block_ref(s.block);
                if !s.args.is_empty() {
                    self.out.push('(');
                    self.values(&s.args);
                    self.out.push(')');
                }
            }
            self.out.push(']');
        }
    }

    /// An upstream op in MLIR's custom syntax, all of it but the location (only a module has
    /// a region, which follows). [`upstream_fits`] has checked its shape.
    fn upstream(&mut self, op: Op, u: Upstream) {
        let ir = self.ir;
        let data = &ir.ops[op];
        let ty = |v: Value| ir.values[v].ty;
        if u == Upstream::Module {
            // MLIR prints builtin ops without the dialect prefix.
            self.out.push_str("module");
            return;
        }
        self.out.push_str(data.opcode.name());
        self.out.push(' ');
        match u {
            Upstream::Module => {}
            Upstream::Constant => {
                let a = ir.attr(op, "value").expect("checked by upstream_fits");
                let t = ty(data.results[0]);
                self.out
                    .push_str(&constant_text(a, t).expect("checked by upstream_fits"));
                if t != Type::I1 {
                    let _ = write!(self.out, " : {t}");
                }
            }
            Upstream::Operands => {
                self.values(&data.operands);
                let _ = write!(self.out, " : {}", ty(data.results[0]));
            }
            Upstream::Compare => {
                let kw = data
                    .opcode
                    .spec()
                    .keyword
                    .expect("a compare has a predicate");
                let a = ir.attr(op, kw.attr()).expect("checked by upstream_fits");
                let pred = keyword_text(kw, a, &[]).expect("checked by upstream_fits");
                let _ = write!(self.out, "{pred}, ");
                self.values(&data.operands);
                let _ = write!(self.out, " : {}", ty(data.operands[0]));
            }
            Upstream::Cast => {
                self.values(&data.operands);
                let (from, to) = (ty(data.operands[0]), ty(data.results[0]));
                let _ = write!(self.out, " : {from} to {to}");
            }
            Upstream::Br | Upstream::CondBr => {
                if u == Upstream::CondBr {
                    self.values(&data.operands);
                    self.out.push_str(", ");
                }
                for (i, s) in data.succs.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.block_ref(s.block);
                    if !s.args.is_empty() {
                        self.out.push('(');
                        self.values(&s.args);
                        self.out.push_str(" : ");
                        self.types(s.args.iter().map(|&v| ty(v)));
                        self.out.push(')');
                    }
                }
            }
        }
    }

    /// Elements of `op`'s custom format ([`crate::registry::syntax`]), each with the space
    /// before it that MLIR's generated printers write (none before `,` `)` `]`, none after
    /// `(` `[`, none before a `(` that follows a name); `open`: the last text was `(` or `[`.
    fn format_elems(&mut self, op: Op, elems: &[Elem], mut open: bool) -> bool {
        let ir = self.ir;
        let data = &ir.ops[op];
        for e in elems {
            let space = |out: &mut String, open: bool| {
                if !open {
                    out.push(' ');
                }
            };
            match e {
                Elem::Lit(l) => {
                    if !matches!(*l, "," | ")" | "]" | "(" | "[") {
                        space(&mut self.out, open);
                    }
                    self.out.push_str(l);
                    open = matches!(*l, "(" | "[");
                    continue;
                }
                Elem::Var(Ref::Operand(i)) => {
                    space(&mut self.out, open);
                    self.value(data.operands[*i]);
                }
                Elem::Var(Ref::Keyword(kw)) => {
                    space(&mut self.out, open);
                    let tys: Vec<Type> = data.results.iter().map(|&v| ir.values[v].ty).collect();
                    let a = ir.attr(op, kw.attr()).expect("checked by format_fits");
                    let text = keyword_text(*kw, a, &tys).expect("checked by format_fits");
                    self.out.push_str(&text);
                }
                Elem::Var(_) => unreachable!("regions split a format"),
                Elem::Type(r) => {
                    space(&mut self.out, open);
                    let t = ref_type(ir, op, *r).expect("checked by format_fits");
                    let _ = write!(self.out, "{t}");
                }
                Elem::AttrDict { with_keyword } => {
                    let kw = ir.spec(op).keyword.map(|k| k.attr());
                    let attrs: Vec<(String, String)> = ordered_attrs(ir, op)
                        .filter(|(n, _)| Some(*n) != kw)
                        .map(|(n, a)| (n.to_string(), a.to_string()))
                        .collect();
                    if attrs.is_empty() {
                        continue;
                    }
                    space(&mut self.out, open);
                    if *with_keyword {
                        self.out.push_str("attributes ");
                    }
                    self.attr_dict(&attrs);
                }
                Elem::Optional(Ref::Operand(i), inner) => {
                    if *i < data.operands.len() {
                        open = self.format_elems(op, inner, open);
                    }
                    continue;
                }
                Elem::Optional(..) => unreachable!("groups are anchored on operands"),
            }
            open = false;
        }
        open
    }

    /// ` : result types`.
    fn custom_tail(&mut self, op: Op) {
        let ir = self.ir;
        let results = &ir.ops[op].results;
        if !results.is_empty() {
            self.out.push_str(" : ");
            self.types(results.iter().map(|&v| ir.values[v].ty));
        }
    }
}

/// Can `op` print in its upstream custom syntax `u` and parse back the same? It needs the
/// operands, results and successors the syntax has places for, the types it implies (the
/// syntax names one type for several values) and no attribute beyond the one it spells.
fn upstream_fits(ir: &Ir, op: Op, u: Upstream) -> bool {
    let data = &ir.ops[op];
    let spec = data.opcode.spec();
    let ty = |v: &Value| ir.values[*v].ty;
    let kw = spec.keyword.map(|k| k.attr());
    let attrs_ok = data.attrs.iter().all(|(n, _)| Some(&**n) == kw);
    let shape_ok = spec.operands.accepts(data.operands.len())
        && spec.results.accepts(data.results.len())
        && spec.succs.accepts(data.succs.len())
        && data.regions.len() == spec.regions as usize;
    if !attrs_ok || !shape_ok {
        return false;
    }
    let result = data.results.first().map(ty);
    match u {
        Upstream::Module => data.attrs.is_empty(),
        Upstream::Constant => {
            matches!((ir.attr(op, "value"), result), (Some(a), Some(t)) if constant_text(a, t).is_some())
        }
        Upstream::Operands => {
            // A select's condition is i1; every other operand has the result's type.
            let skip = usize::from(data.opcode == Opcode::Select);
            (skip == 0 || ty(&data.operands[0]) == Type::I1)
                && data.operands[skip..].iter().all(|v| Some(ty(v)) == result)
        }
        Upstream::Compare => {
            let known = match (spec.keyword, kw.and_then(|k| ir.attr(op, k))) {
                (Some(k), Some(a)) => keyword_text(k, a, &[]).is_some(),
                _ => false,
            };
            known && ty(&data.operands[0]) == ty(&data.operands[1]) && result == Some(Type::I1)
        }
        Upstream::CondBr => ty(&data.operands[0]) == Type::I1,
        Upstream::Cast | Upstream::Br => true,
    }
}

/// The type of an operand or result of `op`, if it has it.
pub(super) fn ref_type(ir: &Ir, op: Op, r: Ref) -> Option<Type> {
    let data = &ir.ops[op];
    match r {
        Ref::Operand(i) => data.operands.get(i).map(|&v| ir.values[v].ty),
        Ref::Result(i) => data.results.get(i).map(|&v| ir.values[v].ty),
        Ref::Keyword(_) | Ref::Region(_) => None,
    }
}

/// The type rule `i` gives for the type `from`, if `from` is one it applies to.
pub(super) fn infer_type(i: Infer, from: Type) -> Option<Type> {
    match (i, from) {
        (Infer::Same { .. }, t) => Some(t),
        (Infer::Elem { .. }, Type::Ptr(_, s) | Type::Var(s)) => Some(Type::Scalar(s)),
        (Infer::VarOf { .. }, Type::Scalar(s)) => Some(Type::Var(s)),
        _ => None,
    }
}

/// Can `op` print in its custom format `f` and parse back the same? It needs the operands,
/// results and regions the format has places for (an optional token operand of type
/// `!conv.token`), a keyword attribute the format can spell, and types that agree with the
/// format's rules (the types it does not write are inferred from those it does).
fn format_fits(ir: &Ir, op: Op, f: &Format) -> bool {
    let data = &ir.ops[op];
    let spec = data.opcode.spec();
    let n = data.operands.len();
    let token_ok = f.optional_token
        && n == f.operands + 1
        && ir.values[data.operands[n - 1]].ty == Type::Token;
    let shape_ok = (n == f.operands || token_ok)
        && spec.results.accepts(data.results.len())
        && data.succs.is_empty()
        && data.regions.len() + 1 == f.pieces.len();
    let tys: Vec<Type> = data.results.iter().map(|&v| ir.values[v].ty).collect();
    let kw_ok = spec.keyword.is_none_or(|k| {
        ir.attr(op, k.attr())
            .is_some_and(|a| keyword_text(k, a, &tys).is_some())
    });
    let types_ok = f.infer.iter().zip(&f.from).all(|(&(to, rule), &from)| {
        let inferred = ref_type(ir, op, from).and_then(|t| infer_type(rule, t));
        inferred.is_some() && inferred == ref_type(ir, op, to)
    });
    shape_ok && kw_ok && types_ok
}

/// An `arith.constant` value as MLIR prints it (`4`, `true`, `1.000000e+00`), if `a` is a
/// literal of type `ty`.
fn constant_text(a: &Attr, ty: Type) -> Option<String> {
    match a {
        Attr::Int(v, t) if *t == ty && ty == Type::I1 => Some((*v != 0).to_string()),
        Attr::Int(v, t) if *t == ty && ty.is_int() => Some(v.to_string()),
        Attr::Float(f) if ty == Type::F32 => Some(format_f32(*f)),
        Attr::Bool(b) if ty == Type::I1 => Some(b.to_string()),
        _ => None,
    }
}

/// An op's attributes, its keyword attribute first (where the custom form's parser puts it),
/// then the others in insertion order.
fn ordered_attrs(ir: &Ir, op: Op) -> impl Iterator<Item = (&str, &Attr)> {
    let attrs = &ir.ops[op].attrs;
    let kw = ir.spec(op).keyword.map(|k| k.attr());
    let is_kw = move |n: &str| Some(n) == kw;
    attrs
        .iter()
        .filter(move |(n, _)| is_kw(n))
        .chain(attrs.iter().filter(move |(n, _)| !is_kw(n)))
        .map(|(n, a)| (&**n, a))
}

/// The custom-form keyword for attribute `a`, if it has a form the parser maps back to `a`.
fn keyword_text(kw: Keyword, a: &Attr, result_tys: &[Type]) -> Option<String> {
    match (kw, a) {
        (Keyword::Enum(_, names), Attr::Int(i, Type::Scalar(crate::types::Scalar::I64))) => {
            usize::try_from(*i)
                .ok()
                .and_then(|i| names.get(i))
                .map(|s| s.to_string())
        }
        (Keyword::Ident(_, names), Attr::Str(s)) if names.contains(&s.as_str()) => Some(s.clone()),
        (Keyword::Symbol(_), Attr::Str(s)) => Some(if is_bare_ident(s) {
            format!("@{s}")
        } else {
            format!("@{}", quote(s))
        }),
        (Keyword::Literal(_), a) => {
            let ty = literal_type(result_tys);
            match a {
                Attr::Int(v, t) if *t == ty && ty.is_int() => Some(if ty == Type::I1 {
                    (*v != 0).to_string()
                } else {
                    v.to_string()
                }),
                Attr::Float(f) if ty == Type::F32 => Some(format_f32(*f)),
                Attr::Bool(b) if ty == Type::I1 => Some(b.to_string()),
                _ => None,
            }
        }
        _ => None,
    }
}
