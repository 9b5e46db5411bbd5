//! The parser for every form (mixed freely, op by op).
//!
//! One pass over a token vector, recursive descent within an op; the ops whose regions are being
//! read wait on an explicit stack, so regions nest to any depth (no recursion per level). Ops
//! are created when their name is read (so their regions can be parsed into them) and completed
//! when the op ends. Names are scoped as MLIR scopes them: per isolated op (`kernel.func`,
//! `builtin.module`), and within it per region (a name defined in a region is gone after it, so
//! sibling regions may reuse it; block labels belong to their region). A use of a value not yet
//! defined is a fix-up, resolved when the name is defined; one left at the end of the isolated
//! op is an error.
//!
//! This file reads ops in general (generic form, kc's custom form); `upstream.rs` the MLIR
//! custom syntax of `arith` and `cf`, `locations.rs` locations and their aliases, `values.rs`
//! types, attributes and literals.

mod format;
mod locations;
mod upstream;
mod values;

use super::lexer::{lex, unescape, Tok, Token};
use super::print::{is_numbered_block, literal_type, upstream_syntax, Upstream, REGION_SEPARATORS};
use super::TextError;
use crate::attrs::Attr;
use crate::entities::{Block, Op, Value};
use crate::ir::{Ir, Successor, ThinVec, ValueData, ValueDef};
use crate::location::Loc;
use crate::registry::{syntax, Arity, Keyword, Opcode, Traits};
use crate::types::Type;
use cranelift_entity::packed_option::ReservedValue;
use cranelift_entity::SecondaryMap;
use std::collections::HashMap;

type PResult<T> = Result<T, TextError>;

#[derive(Clone, Copy)]
enum Slot {
    Operand(usize),
    SuccArg(usize, usize),
}

struct Fixup {
    op: Op,
    slot: Slot,
    name: String,
    offset: usize,
    ty: Option<Type>,
}

struct BlockEntry {
    block: Block,
    defined: bool,
    first_use: usize,
}

/// The names defined in one region: MLIR scopes value and block names per region (sibling
/// regions reuse them, as `mlir-opt` prints them), within an isolated op's scope.
#[derive(Default)]
struct Frame {
    values: Vec<String>,
    blocks: HashMap<String, BlockEntry>,
}

/// The names of one isolated op (`kernel.func`, `builtin.module`).
struct Scope {
    values: HashMap<String, Value>,
    /// Uses of values not defined yet, by name; resolved when the name is defined.
    fixups: HashMap<String, Vec<Fixup>>,
    /// The open regions, innermost last; the first holds what is outside any region.
    frames: Vec<Frame>,
}

impl Default for Scope {
    fn default() -> Scope {
        Scope {
            values: HashMap::new(),
            fixups: HashMap::new(),
            frames: vec![Frame::default()],
        }
    }
}

impl Scope {
    fn frame(&mut self) -> &mut Frame {
        if self.frames.is_empty() {
            self.frames.push(Frame::default());
        }
        let n = self.frames.len() - 1;
        &mut self.frames[n]
    }
}

/// A `%name` or `^name` reference (name without the sigil).
struct Use {
    name: String,
    offset: usize,
}

/// An operand reference with the type the text gives it, if it gives one (the generic form
/// and MLIR's custom syntax do, kc's custom syntax does not).
type TypedUse = (Use, Option<Type>);

/// What an op's text gave before its regions, by form.
enum Form {
    Generic {
        uses: Vec<Use>,
        succs: Vec<Use>,
        attrs: Vec<(String, Attr)>,
    },
    Custom {
        /// The keyword literal, typed once the result types are read.
        literal: Option<Token>,
        uses: Vec<TypedUse>,
        succs: Vec<(Use, Vec<TypedUse>)>,
    },
    /// A `kernel` / `conv` op in its custom format, read up to the next region.
    Format(format::FormatState),
    /// An upstream op in MLIR's custom syntax, read whole but for its location.
    Upstream {
        uses: Vec<TypedUse>,
        succs: Vec<(Use, Vec<TypedUse>)>,
        result_tys: Vec<Type>,
    },
}

/// An op whose regions are being read.
struct Pending {
    op: Op,
    res: Vec<Use>,
    name_tok: Token,
    name: String,
    isolated: bool,
    form: Form,
    /// Regions started so far.
    regions: usize,
    /// The block of the current region that takes the ops read (none before a label).
    block: Option<Block>,
}

/// What the form-specific part of an op yields.
struct Body {
    operands: Vec<TypedUse>,
    succs: Vec<(Use, Vec<TypedUse>)>,
    result_tys: Vec<Type>,
    loc: Loc,
}

struct Parser<'t> {
    text: &'t str,
    toks: Vec<Token>,
    pos: usize,
    ir: Ir,
    scopes: Vec<Scope>,
    /// Location aliases (`#loc3 = loc(...)`): where each one's location starts (after `loc(`).
    loc_aliases: HashMap<String, usize>,
    /// Where each op starts in the text (`u32::MAX`: not read from it).
    starts: SecondaryMap<Op, u32>,
}

pub(super) fn parse(text: &str, file_name: &str) -> PResult<(Ir, SecondaryMap<Op, u32>)> {
    let _ = file_name;
    parse_tokens(text, lex(text)?)
}

fn parse_tokens(text: &str, toks: Vec<Token>) -> PResult<(Ir, SecondaryMap<Op, u32>)> {
    let mut p = Parser {
        text,
        toks,
        pos: 0,
        ir: Ir::new(),
        scopes: vec![Scope::default()],
        loc_aliases: HashMap::new(),
        starts: SecondaryMap::with_default(u32::MAX),
    };
    p.find_aliases()?;
    p.skip_alias_defs()?;
    let first = p.tok();
    let is_module = match first.kind {
        Tok::Ident => matches!(p.slice(first), "module" | "builtin.module"),
        Tok::Str => unescape(p.slice(first)).is_ok_and(|s| s == "builtin.module"),
        _ => false,
    };
    if is_module {
        p.parse_op(None)?;
        p.skip_alias_defs()?;
        if p.peek() != Tok::Eof {
            return Err(p.unexpected("end of input after the module"));
        }
    } else {
        let b = p.ir.top_block();
        while p.peek() != Tok::Eof {
            p.parse_op(Some(b))?;
            p.skip_alias_defs()?;
        }
    }
    p.pop_scope()?;
    // The module always has a region with a block.
    let top = p.ir.top;
    let r = match p.ir.ops[top].regions.first() {
        Some(&r) => r,
        None => p.ir.add_region(top),
    };
    if p.ir.entry_block(r).is_none() {
        let b = p.ir.create_block();
        p.ir.append_block(r, b);
    }
    Ok((p.ir, p.starts))
}

fn is_numeric(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit())
}

fn min_count(a: Arity) -> usize {
    match a {
        Arity::Exact(k) | Arity::AtLeast(k) => k as usize,
    }
}

impl Parser<'_> {
    // ---- tokens ----

    /// Sets the keyword attribute of `op` from the literal token `t`, typed by the op's
    /// results (a boolean literal needs `i1`).
    fn literal_attr(&mut self, op: Op, kw: Keyword, t: Token, result_tys: &[Type]) -> PResult<()> {
        let ty = literal_type(result_tys);
        let a = match self.slice(t) {
            "true" | "false" if ty == Type::I1 => Attr::Int((self.slice(t) == "true") as i64, ty),
            "true" | "false" => {
                return Err(self.err(
                    t.start,
                    format!("a boolean literal needs type i1, not {ty}"),
                ))
            }
            _ => self.number(t, ty)?,
        };
        self.ir.set_attr(op, kw.attr(), a);
        Ok(())
    }

    /// The position in `names` of the current token, a bare word (not consumed); an error
    /// listing the names otherwise.
    fn word_in(&self, names: &[&str]) -> PResult<usize> {
        let t = self.tok();
        let word = self.slice(t);
        match names
            .iter()
            .position(|n| t.kind == Tok::Ident && *n == word)
        {
            Some(i) => Ok(i),
            None => {
                let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
                Err(self.unexpected(&format!("one of {}", list.join(", "))))
            }
        }
    }

    fn tok(&self) -> Token {
        self.toks[self.pos.min(self.toks.len() - 1)]
    }
    fn peek(&self) -> Tok {
        self.tok().kind
    }
    fn peek_at(&self, k: usize) -> Tok {
        self.toks.get(self.pos + k).map_or(Tok::Eof, |t| t.kind)
    }
    fn slice(&self, t: Token) -> &str {
        &self.text[t.start..t.end]
    }
    fn bump(&mut self) -> Token {
        let t = self.tok();
        if t.kind != Tok::Eof {
            self.pos += 1;
        }
        t
    }
    /// Consumes the next token if it is `kind`.
    fn eat(&mut self, kind: Tok) -> bool {
        let hit = self.peek() == kind;
        if hit {
            self.bump();
        }
        hit
    }
    fn is_ident(&self, s: &str) -> bool {
        self.peek() == Tok::Ident && self.slice(self.tok()) == s
    }
    fn err(&self, offset: usize, msg: String) -> TextError {
        TextError::at(self.text, offset, msg)
    }
    fn unexpected(&self, what: &str) -> TextError {
        let t = self.tok();
        let found = if t.kind == Tok::Eof {
            "end of input".to_string()
        } else {
            let s = self.slice(t);
            let s: String = s.chars().take(40).collect();
            format!("`{s}`")
        };
        self.err(t.start, format!("expected {what}, found {found}"))
    }
    fn expect(&mut self, kind: Tok, what: &str) -> PResult<Token> {
        if self.peek() == kind {
            Ok(self.bump())
        } else {
            Err(self.unexpected(what))
        }
    }
    fn string(&self, t: Token) -> PResult<String> {
        unescape(self.slice(t)).map_err(|m| self.err(t.start, m))
    }
    fn name_use(&mut self) -> Use {
        let t = self.bump();
        Use {
            name: self.slice(t)[1..].to_string(),
            offset: t.start,
        }
    }

    // ---- names ----

    fn scope(&mut self) -> &mut Scope {
        if self.scopes.is_empty() {
            self.scopes.push(Scope::default());
        }
        let n = self.scopes.len() - 1;
        &mut self.scopes[n]
    }

    fn define_value(&mut self, u: &Use, v: Value) -> PResult<()> {
        if self.scope().values.contains_key(&u.name) {
            return Err(self.err(u.offset, format!("value `%{}` redefined", u.name)));
        }
        self.scope().values.insert(u.name.clone(), v);
        self.scope().frame().values.push(u.name.clone());
        if !is_numeric(&u.name) {
            self.ir.values[v].name = Some(u.name.clone());
        }
        for f in self.scope().fixups.remove(&u.name).unwrap_or_default() {
            self.check_type(v, f.ty, &f.name, f.offset)?;
            let data = &mut self.ir.ops[f.op];
            let slot = match f.slot {
                Slot::Operand(i) => data.operands.get_mut(i),
                Slot::SuccArg(s, i) => data.succs.get_mut(s).and_then(|s| s.args.get_mut(i)),
            };
            if let Some(slot) = slot {
                *slot = v;
            }
        }
        Ok(())
    }

    fn check_type(&self, v: Value, ty: Option<Type>, u_name: &str, offset: usize) -> PResult<()> {
        match ty {
            Some(t) if self.ir.values[v].ty != t => Err(self.err(
                offset,
                format!(
                    "`%{u_name}` has type {} but is used as {t}",
                    self.ir.values[v].ty
                ),
            )),
            _ => Ok(()),
        }
    }

    fn use_value(&mut self, u: Use, ty: Option<Type>, op: Op, slot: Slot) -> PResult<Value> {
        if let Some(&v) = self.scope().values.get(&u.name) {
            self.check_type(v, ty, &u.name, u.offset)?;
            return Ok(v);
        }
        let f = Fixup {
            op,
            slot,
            name: u.name.clone(),
            offset: u.offset,
            ty,
        };
        self.scope().fixups.entry(u.name).or_default().push(f);
        Ok(Value::reserved_value())
    }

    fn use_block(&mut self, u: &Use) -> Block {
        if let Some(e) = self.scope().frame().blocks.get(&u.name) {
            return e.block;
        }
        let b = self.new_block(&u.name);
        self.scope().frame().blocks.insert(
            u.name.clone(),
            BlockEntry {
                block: b,
                defined: false,
                first_use: u.offset,
            },
        );
        b
    }

    fn new_block(&mut self, name: &str) -> Block {
        let b = self.ir.create_block();
        if !is_numbered_block(name) {
            self.ir.blocks[b].name = Some(name.to_string());
        }
        b
    }

    fn define_block(&mut self, u: &Use) -> PResult<Block> {
        if let Some(e) = self.scope().frame().blocks.get_mut(&u.name) {
            if e.defined {
                return Err(self.err(u.offset, format!("block `^{}` redefined", u.name)));
            }
            e.defined = true;
            return Ok(e.block);
        }
        let b = self.new_block(&u.name);
        self.scope().frame().blocks.insert(
            u.name.clone(),
            BlockEntry {
                block: b,
                defined: true,
                first_use: u.offset,
            },
        );
        Ok(b)
    }

    /// Ends an isolated scope: every value used must have been defined.
    fn pop_scope(&mut self) -> PResult<()> {
        let Some(mut scope) = self.scopes.pop() else {
            return Ok(());
        };
        if let Some(f) = scope.fixups.values().flatten().min_by_key(|f| f.offset) {
            return Err(self.err(f.offset, format!("use of undefined value `%{}`", f.name)));
        }
        while let Some(frame) = scope.frames.pop() {
            self.check_blocks(&frame)?;
        }
        Ok(())
    }

    /// Ends a region: its names go out of scope, and the blocks it branches to must be its own.
    fn end_region(&mut self) -> PResult<()> {
        let scope = self.scope();
        let frame = if scope.frames.len() > 1 {
            scope.frames.pop().unwrap_or_default()
        } else {
            Frame::default()
        };
        for name in &frame.values {
            self.scope().values.remove(name);
        }
        self.check_blocks(&frame)
    }

    fn check_blocks(&self, frame: &Frame) -> PResult<()> {
        match frame
            .blocks
            .iter()
            .filter(|(_, e)| !e.defined)
            .min_by_key(|(_, e)| e.first_use)
        {
            Some((name, e)) => {
                Err(self.err(e.first_use, format!("use of undefined block `^{name}`")))
            }
            None => Ok(()),
        }
    }

    // ---- ops ----

    /// Parses one op, and everything nested in it, into `block` (`None`: the text's
    /// top-level module, which becomes `ir.top`). Regions nest to any depth: the ops whose
    /// regions are being read wait on a stack, not on the call stack.
    fn parse_op(&mut self, block: Option<Block>) -> PResult<()> {
        let mut open: Vec<Pending> = Vec::new();
        let mut cur = self.op_head(block)?;
        let mut follows = self.region_follows(&mut cur)?;
        loop {
            // `cur` is an op; `follows`: its next region follows (what leads to its `{` read).
            if follows {
                self.region_start(&mut cur)?;
                open.push(cur);
            } else {
                self.op_finish(cur)?;
                if open.is_empty() {
                    return Ok(());
                }
            }
            // The ops of the innermost open region, up to one with regions or the `}`.
            (cur, follows) = loop {
                let top = open.last_mut().expect("a region is open");
                match self.peek() {
                    Tok::Caret => self.block_label(top)?,
                    Tok::RBrace => {
                        self.bump();
                        self.end_region()?;
                        let mut p = open.pop().expect("a region is open");
                        let f = self.region_follows(&mut p)?;
                        break (p, f);
                    }
                    Tok::Eof => return Err(self.unexpected("`}`")),
                    _ => {
                        let Some(b) = top.block else {
                            return Err(self.unexpected("a block label"));
                        };
                        let mut p = self.op_head(Some(b))?;
                        if self.region_follows(&mut p)? {
                            break (p, true);
                        }
                        self.op_finish(p)?;
                    }
                }
            };
        }
    }

    /// An op up to its regions: result names, the name, and what the form puts before the
    /// regions. The op is created (and linked into `block`) so its regions can be read into it.
    fn op_head(&mut self, block: Option<Block>) -> PResult<Pending> {
        let start = u32::try_from(self.tok().start).unwrap_or(u32::MAX);
        let mut res = Vec::new();
        if self.peek() == Tok::Percent {
            loop {
                res.push(self.name_use());
                if self.peek() == Tok::Comma {
                    self.bump();
                    if self.peek() != Tok::Percent {
                        return Err(self.unexpected("a result name"));
                    }
                } else {
                    break;
                }
            }
            self.expect(Tok::Equal, "`=`")?;
        }
        let name_tok = self.tok();
        let generic = match name_tok.kind {
            Tok::Str => true,
            Tok::Ident => false,
            _ => return Err(self.unexpected("an operation")),
        };
        self.bump();
        let name = if generic {
            self.string(name_tok)?
        } else {
            self.slice(name_tok).to_string()
        };
        let opcode = match (generic, name.as_str()) {
            (false, "module") => Some(Opcode::Module),
            _ => Opcode::from_name(&name),
        };
        let Some(opcode) = opcode else {
            return Err(self.err(name_tok.start, format!("unknown operation `{name}`")));
        };
        let op = match block {
            Some(b) => {
                let op = self.ir.create_op(opcode, &[], &[], Loc::UNKNOWN);
                self.ir.append_op(b, op);
                op
            }
            None => {
                let top = self.ir.top;
                self.ir.ops[top].regions.clear();
                top
            }
        };
        self.starts[op] = start;
        let isolated = opcode.spec().has(Traits::ISOLATED);
        if isolated {
            self.scopes.push(Scope::default());
        }
        let form = match (upstream_syntax(opcode), syntax::format(opcode)) {
            _ if generic => self.generic_head()?,
            (Some(u), _) if u != Upstream::Module => self.upstream(op, u)?,
            (_, Some(f)) => {
                let mut st = format::FormatState::new(f);
                self.format_elems(op, &f.pieces[0], &mut st)?;
                Form::Format(st)
            }
            _ => self.custom_head(op)?,
        };
        Ok(Pending {
            op,
            res,
            name_tok,
            name,
            isolated,
            form,
            regions: 0,
            block: None,
        })
    }

    /// Does region number `p.regions` of `p` follow? Consumes what leads up to its `{`.
    fn region_follows(&mut self, p: &mut Pending) -> PResult<bool> {
        match &mut p.form {
            Form::Upstream { .. } => Ok(false),
            Form::Format(st) => {
                let f = st.format;
                if p.regions + 1 == f.pieces.len() {
                    return Ok(false);
                }
                if p.regions > 0 {
                    self.format_elems(p.op, &f.pieces[p.regions], st)?;
                }
                if self.peek() != Tok::LBrace {
                    return Err(self.unexpected("`{`"));
                }
                Ok(true)
            }
            Form::Generic { .. } if p.regions == 0 => Ok(self.eat(Tok::LParen)),
            Form::Generic { .. } => {
                if self.eat(Tok::Comma) {
                    return Ok(true);
                }
                self.expect(Tok::RParen, "`)`")?;
                Ok(false)
            }
            Form::Custom { .. } => {
                if self.peek() == Tok::LBrace {
                    return Ok(true);
                }
                let sep = self.peek() == Tok::Ident
                    && REGION_SEPARATORS.contains(&self.slice(self.tok()))
                    && self.peek_at(1) == Tok::LBrace;
                if sep {
                    self.bump();
                }
                Ok(sep)
            }
        }
    }

    /// `{` and the region; an unlabelled entry block if no label follows.
    fn region_start(&mut self, p: &mut Pending) -> PResult<()> {
        self.expect(Tok::LBrace, "`{`")?;
        self.scope().frames.push(Frame::default());
        let r = self.ir.add_region(p.op);
        p.regions += 1;
        p.block = None;
        if self.peek() != Tok::Caret {
            let b = self.ir.create_block();
            self.ir.append_block(r, b);
            p.block = Some(b);
        }
        Ok(())
    }

    /// `^label(args):` starting a block of `p`'s current region.
    fn block_label(&mut self, p: &mut Pending) -> PResult<()> {
        let r = *self.ir.ops[p.op]
            .regions
            .last()
            .expect("a region was started");
        let label = self.name_use();
        let b = self.define_block(&label)?;
        self.ir.append_block(r, b);
        if self.peek() == Tok::LParen {
            self.bump();
            while self.peek() == Tok::Percent {
                let u = self.name_use();
                self.expect(Tok::Colon, "`:`")?;
                let ty = self.parse_type()?;
                let loc = self.parse_loc()?;
                let v = self.ir.add_block_arg(b, ty, None, loc);
                self.define_value(&u, v)?;
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RParen, "`)`")?;
        }
        self.expect(Tok::Colon, "`:`")?;
        p.block = Some(b);
        Ok(())
    }

    /// The rest of an op after its regions, then its results, operands and successors.
    fn op_finish(&mut self, p: Pending) -> PResult<()> {
        let op = p.op;
        let body = match p.form {
            Form::Generic { uses, succs, attrs } => self.generic_tail(op, uses, succs, attrs)?,
            Form::Custom {
                literal,
                uses,
                succs,
            } => self.custom_tail(op, literal, uses, succs)?,
            Form::Format(st) => self.format_finish(op, st)?,
            Form::Upstream {
                uses,
                succs,
                result_tys,
            } => Body {
                operands: uses,
                succs,
                result_tys,
                loc: self.parse_loc()?,
            },
        };
        if p.isolated {
            self.pop_scope()?;
        }
        if p.res.len() != body.result_tys.len() {
            return Err(self.err(
                p.name_tok.start,
                format!(
                    "`{}` is given {} result names but {} result types",
                    p.name,
                    p.res.len(),
                    body.result_tys.len()
                ),
            ));
        }
        self.ir.ops[op].loc = body.loc;
        for (i, (u, ty)) in p.res.iter().zip(body.result_tys).enumerate() {
            let v = self.ir.values.push(ValueData {
                ty,
                def: ValueDef::Result(op, i as u32),
                name: None,
                loc: body.loc,
            });
            self.ir.ops[op].results.push(v);
            self.define_value(u, v)?;
        }
        for (i, (u, ty)) in body.operands.into_iter().enumerate() {
            let v = self.use_value(u, ty, op, Slot::Operand(i))?;
            self.ir.ops[op].operands.push(v);
        }
        for (s, (bu, args)) in body.succs.into_iter().enumerate() {
            let block = self.use_block(&bu);
            self.ir.ops[op].succs.push(Successor {
                block,
                args: ThinVec::new(),
            });
            for (i, (u, ty)) in args.into_iter().enumerate() {
                let v = self.use_value(u, ty, op, Slot::SuccArg(s, i))?;
                self.ir.ops[op].succs[s].args.push(v);
            }
        }
        Ok(())
    }

    /// `"name"(operands) [succs] <{props}>`, after the name; the regions may follow.
    fn generic_head(&mut self) -> PResult<Form> {
        self.expect(Tok::LParen, "`(`")?;
        let mut uses = Vec::new();
        if self.peek() != Tok::RParen {
            loop {
                if self.peek() != Tok::Percent {
                    return Err(self.unexpected("an operand"));
                }
                uses.push(self.name_use());
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RParen, "`)`")?;
        let mut succs = Vec::new();
        if self.peek() == Tok::LBracket {
            self.bump();
            loop {
                if self.peek() != Tok::Caret {
                    return Err(self.unexpected("a successor block"));
                }
                succs.push(self.name_use());
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RBracket, "`]`")?;
        }
        let mut attrs = Vec::new();
        if self.peek() == Tok::Lt {
            self.bump();
            attrs = self.parse_attr_dict()?;
            self.expect(Tok::Gt, "`>`")?;
        }
        Ok(Form::Generic { uses, succs, attrs })
    }

    /// `{attrs} : (types) -> types loc`, after the regions.
    fn generic_tail(
        &mut self,
        op: Op,
        uses: Vec<Use>,
        succs: Vec<Use>,
        mut attrs: Vec<(String, Attr)>,
    ) -> PResult<Body> {
        if self.peek() == Tok::LBrace {
            attrs.extend(self.parse_attr_dict()?);
        }
        let colon = self.expect(Tok::Colon, "`:`")?;
        self.expect(Tok::LParen, "`(`")?;
        let operand_tys = self.type_list(Tok::RParen)?;
        self.expect(Tok::RParen, "`)`")?;
        self.expect(Tok::Arrow, "`->`")?;
        let result_tys = if self.peek() == Tok::LParen {
            self.bump();
            let tys = self.type_list(Tok::RParen)?;
            self.expect(Tok::RParen, "`)`")?;
            tys
        } else {
            vec![self.parse_type()?]
        };
        let loc = self.parse_loc()?;
        if operand_tys.len() != uses.len() {
            return Err(self.err(
                colon.start,
                format!(
                    "{} operands but {} operand types",
                    uses.len(),
                    operand_tys.len()
                ),
            ));
        }
        // Split the flat operand list into the op's operands and successor arguments.
        let mut sizes = vec![uses.len()];
        if !succs.is_empty() {
            let seg = attrs
                .iter()
                .position(|(n, _)| n == "operandSegmentSizes")
                .map(|i| attrs.remove(i).1);
            sizes = match seg {
                Some(Attr::I32Array(seg)) => {
                    let ok = seg.len() == succs.len() + 1
                        && seg.iter().all(|&s| s >= 0)
                        && seg.iter().map(|&s| s as i64).sum::<i64>() == uses.len() as i64;
                    if !ok {
                        return Err(self.err(
                            colon.start,
                            "`operandSegmentSizes` does not match the operands and successors"
                                .into(),
                        ));
                    }
                    seg.iter().map(|&s| s as usize).collect()
                }
                Some(_) => {
                    return Err(self.err(
                        colon.start,
                        "`operandSegmentSizes` must be an `array<i32: ...>`".into(),
                    ))
                }
                None => {
                    let own = min_count(self.ir.ops[op].opcode.spec().operands).min(uses.len());
                    let mut s = vec![own, uses.len() - own];
                    s.resize(succs.len() + 1, 0);
                    s
                }
            };
        }
        for (n, mut a) in attrs {
            // An i1 constant's value prints as `true` / `false` (kc and MLIR alike): the
            // integer of type i1, as the custom form reads it.
            if let (Attr::Bool(b), Opcode::Constant, [Type::I1]) =
                (&a, self.ir.ops[op].opcode, result_tys.as_slice())
            {
                a = Attr::Int(*b as i64, Type::I1);
            }
            self.ir.set_attr(op, &n, a);
        }
        let mut flat = uses.into_iter().zip(operand_tys.into_iter().map(Some));
        let operands: Vec<_> = flat.by_ref().take(sizes[0]).collect();
        let succs = succs
            .into_iter()
            .zip(&sizes[1..])
            .map(|(b, &n)| (b, flat.by_ref().take(n).collect()))
            .collect();
        Ok(Body {
            operands,
            succs,
            result_tys,
            loc,
        })
    }

    /// `keyword? operands? attr-dict? successors?`, after the name; the regions may follow.
    fn custom_head(&mut self, op: Op) -> PResult<Form> {
        let spec = self.ir.ops[op].opcode.spec();
        let mut has_kw = false;
        let mut literal = None;
        let t = self.tok();
        if let Some(kw) = spec.keyword.filter(|_| !t.nl) {
            let word = self.slice(t);
            let is_word =
                t.kind == Tok::Ident && !REGION_SEPARATORS.contains(&word) && word != "loc";
            match kw {
                Keyword::Literal(attr)
                    if matches!(t.kind, Tok::Int | Tok::Float)
                        || (t.kind == Tok::Ident && matches!(word, "true" | "false")) =>
                {
                    literal = Some(self.bump());
                    // Reserve the attribute's place; the value needs the result type.
                    self.ir.set_attr(op, attr, Attr::Unit);
                    has_kw = true;
                }
                Keyword::Enum(attr, names) | Keyword::Ident(attr, names) if is_word => {
                    let Some(i) = names.iter().position(|n| *n == word) else {
                        let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
                        return Err(self.unexpected(&format!("one of {}", list.join(", "))));
                    };
                    let a = match kw {
                        Keyword::Enum(..) => Attr::Int(i as i64, Type::I64),
                        _ => Attr::Str(word.to_string()),
                    };
                    self.bump();
                    self.ir.set_attr(op, attr, a);
                    has_kw = true;
                }
                Keyword::Symbol(attr) if t.kind == Tok::At => {
                    self.bump();
                    let s = self.symbol(t)?;
                    self.ir.set_attr(op, attr, Attr::Str(s));
                    has_kw = true;
                }
                _ => {}
            }
        }
        let mut uses = Vec::new();
        if has_kw && self.peek() == Tok::Comma && self.peek_at(1) == Tok::Percent {
            self.bump();
        }
        if self.peek() == Tok::Percent && !self.tok().nl {
            loop {
                uses.push((self.name_use(), None));
                if self.peek() == Tok::Comma && self.peek_at(1) == Tok::Percent {
                    self.bump();
                } else {
                    break;
                }
            }
        }
        if self.peek() == Tok::LBrace
            && matches!(self.peek_at(1), Tok::Ident | Tok::Str)
            && self.peek_at(2) == Tok::Equal
        {
            for (n, a) in self.parse_attr_dict()? {
                self.ir.set_attr(op, &n, a);
            }
        }
        if self.peek() == Tok::Comma && self.peek_at(1) == Tok::LBracket {
            self.bump();
        }
        let mut succs = Vec::new();
        if self.peek() == Tok::LBracket {
            self.bump();
            loop {
                if self.peek() != Tok::Caret {
                    return Err(self.unexpected("a successor block"));
                }
                let b = self.name_use();
                let mut args = Vec::new();
                if self.peek() == Tok::LParen {
                    self.bump();
                    while self.peek() == Tok::Percent {
                        args.push((self.name_use(), None));
                        if !self.eat(Tok::Comma) {
                            break;
                        }
                    }
                    self.expect(Tok::RParen, "`)`")?;
                }
                succs.push((b, args));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RBracket, "`]`")?;
        }
        Ok(Form::Custom {
            literal,
            uses,
            succs,
        })
    }

    /// `(: types)? loc?`, after the regions; the keyword literal takes its type from them.
    fn custom_tail(
        &mut self,
        op: Op,
        literal: Option<Token>,
        uses: Vec<TypedUse>,
        succs: Vec<(Use, Vec<TypedUse>)>,
    ) -> PResult<Body> {
        let spec = self.ir.ops[op].opcode.spec();
        let mut result_tys = Vec::new();
        if self.peek() == Tok::Colon {
            self.bump();
            loop {
                result_tys.push(self.parse_type()?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        let loc = self.parse_loc()?;
        if let (Some(t), Some(kw)) = (literal, spec.keyword) {
            self.literal_attr(op, kw, t, &result_tys)?;
        }
        Ok(Body {
            operands: uses,
            succs,
            result_tys,
            loc,
        })
    }
}
