//! Lowering of the structured kernel dialect to `cf` CFG form, with SSA construction.
//!
//! **Pre-condition** (structured form): every `kernel.func` has one region with one block whose
//! arguments are the kernel parameters; every region of `kernel.func`, `kernel.if` and
//! `kernel.loop` is a single block ending in a terminator (`kernel.yield`, `kernel.break`,
//! `kernel.continue`, `kernel.return`) with the meaning given in the registry docs: the kernel
//! block ends in `kernel.return`, a loop latch ends in `kernel.yield` and contains no
//! `kernel.continue`, break/continue only appear inside a loop; every `kernel.get` / `kernel.set`
//! refers to a `kernel.var` declared in an enclosing scope, before it. Violations give `Err`
//! (the IR may then be partially lowered).
//!
//! **Post-condition** (CFG form), for every kernel:
//! - its region is a list of blocks, the first (`entry`) keeping the parameters; every block ends
//!   in `cf.br`, `cf.cond_br` or `kernel.return`, and no `kernel.if/loop/yield/break/continue/
//!   var/get/set` remains; every block is reachable from the entry (unreachable code, e.g. after
//!   an `if` whose arms both return, is dropped);
//! - the CFG keeps the source structure: an `if` is a `cf.cond_br` to `then` / `else` blocks that
//!   branch to an `endif` merge block; a `loop` is a `cf.br` to `loop.header` (the first block of
//!   the body, so a heart `conv.loop` stays its first op), `continue` and the end of the body
//!   branch to `loop.latch`, which branches back to the header, and `break` branches to
//!   `loop.exit`; `return` stays a `kernel.return` in place. Block names are hints (the printer
//!   uniquifies them). Blocks are laid out in source order;
//! - variables are in SSA form: each `kernel.get` is replaced by the reaching definition; merges
//!   get block arguments named after the variable (with the variable's loc), and only where
//!   needed (trivial phis are removed, Braun et al. 2013); every branch passes exactly as many
//!   arguments as its target has, and every use is dominated by its definition;
//! - created branches take the loc of the op they replace (`cf.cond_br` and the `cf.br` into a
//!   loop header: the `kernel.if` / `kernel.loop`; a `cf.br` from a terminator: that
//!   terminator); all other ops are moved, not recreated, so they keep their loc and names. A
//!   named `kernel.get` result passes its name on to its replacement if that is unnamed.
//!
//! SSA construction follows Braun et al., "Simple and Efficient Construction of Static Single
//! Assignment Form" (CC 2013): blocks are sealed as soon as all their predecessors are emitted
//! (`then`/`else` at once, `endif`/`loop.latch`/`loop.exit` when entered, `loop.header` after the
//! latch), reads in unsealed blocks create incomplete phis, and trivial phis are removed as soon
//! as they are complete. Phi operands are kept per predecessor edge and written into the
//! predecessors' successor arguments once at the end; replacements go through a union-find map
//! applied in one final walk, so the whole pass is near-linear in the kernel size. Emission
//! keeps its own stack of tasks instead of recursing, so regions nest to any depth.

use crate::entities::{Block, Op, Region, Value};
use crate::ir::Ir;
use crate::location::Loc;
use crate::registry::Opcode;
use crate::types::Type;
use cranelift_entity::SecondaryMap;
use rustc_hash::FxHashMap as HashMap;

/// Lowers every kernel of `ir` from structured form to CFG form (see the module docs).
pub fn lower_to_cf(ir: &mut Ir) -> Result<(), String> {
    for func in ir.kernels() {
        if ir.is_cf_kernel(func) {
            continue; // IR read from a file may already be past this pass
        }
        let name = ir.func_name(func).to_string();
        Lowering::new(ir, func)
            .run()
            .map_err(|e| format!("kernel @{name}: {e}"))?;
    }
    Ok(())
}

/// A CFG edge: successor `succ` of terminator `term`.
#[derive(Copy, Clone)]
struct Edge {
    term: Op,
    succ: usize,
}

#[derive(Clone, Default)]
struct BlockState {
    sealed: bool,
    /// Linked into the kernel region (it is reachable and code is being or was emitted into it).
    linked: bool,
    preds: Vec<Edge>,
    /// Phis created while the block was unsealed: (variable, phi).
    incomplete: Vec<(Value, Value)>,
}

/// A phi of a sealed merge block whose operands are being read, one predecessor at a time.
struct Frame {
    phi: Value,
    block: Block,
    /// Index of the next predecessor edge to read.
    next: usize,
    /// Single-predecessor blocks below the merge whose reads led here: they get its value.
    chain: Vec<Block>,
}

struct LoopCtx {
    latch: Block,
    exit: Block,
}

struct Lowering<'a> {
    ir: &'a mut Ir,
    func: Op,
    region: Region,
    /// The block being emitted into; `None` after a terminator (the rest is unreachable).
    cur: Option<Block>,
    blocks: SecondaryMap<Block, BlockState>,
    loops: Vec<LoopCtx>,
    /// Braun's `currentDef[var][block]`.
    defs: HashMap<(Value, Block), Value>,
    /// Union-find of replacements: `kernel.get` results and removed trivial phis.
    repl: SecondaryMap<Value, Option<Value>>,
    /// Per phi (block argument created here): one operand per predecessor edge, in order.
    phi_ops: HashMap<Value, Vec<Value>>,
    /// Phis that use a given value as an operand (for recursive trivial-phi removal).
    phi_users: HashMap<Value, Vec<Value>>,
    removed: SecondaryMap<Value, bool>,
    /// Phis whose operands are being collected (on a [`Frame`] stack): not yet checkable for
    /// triviality, they are checked when complete.
    pending: SecondaryMap<Value, bool>,
}

impl<'a> Lowering<'a> {
    fn new(ir: &'a mut Ir, func: Op) -> Self {
        let region = ir.ops[func].regions[0];
        let (nb, nv) = (ir.blocks.len(), ir.values.len());
        Lowering {
            ir,
            func,
            region,
            cur: None,
            blocks: SecondaryMap::with_capacity(nb),
            loops: Vec::new(),
            defs: HashMap::default(),
            repl: SecondaryMap::with_capacity(nv),
            phi_ops: HashMap::default(),
            phi_users: HashMap::default(),
            removed: SecondaryMap::with_capacity(nv),
            pending: SecondaryMap::with_capacity(nv),
        }
    }

    fn run(mut self) -> Result<(), String> {
        let entry = self
            .ir
            .entry_block(self.region)
            .ok_or("kernel has no block")?;
        if self.ir.next_block(entry).is_some() {
            return Err("kernel region has more than one block (already lowered?)".into());
        }
        let ops: Vec<Op> = self.ir.block_ops(entry).collect();
        for &op in &ops {
            self.ir.remove_op(op);
        }
        if self.ir.blocks[entry].name.is_none() {
            self.ir.blocks[entry].name = Some("entry".into());
        }
        self.blocks[entry].sealed = true;
        self.blocks[entry].linked = true;
        self.cur = Some(entry);
        self.emit(ops)?;
        if self.cur.is_some() {
            return Err("kernel body does not end in a terminator".into());
        }
        self.finish()
    }

    // ---- emission ----

    /// Emits the kernel's ops: a stack of [`Task`]s (the rest of each open region, and what
    /// follows the `if` or loop being emitted), so regions nest to any depth.
    fn emit(&mut self, ops: Vec<Op>) -> Result<(), String> {
        let mut stack = vec![Task::Ops {
            ops,
            next: 0,
            kind: RegionKind::Kernel,
        }];
        while let Some(task) = stack.pop() {
            match task {
                Task::Ops { ops, next, kind } => {
                    let Some(&op) = ops.get(next) else {
                        if self.cur.is_some() {
                            return Err("structured region does not end in a terminator".into());
                        }
                        continue;
                    };
                    let Some(cur) = self.cur else {
                        // Unreachable code after a terminator or a construct that never falls
                        // through.
                        continue;
                    };
                    stack.push(Task::Ops {
                        ops,
                        next: next + 1,
                        kind,
                    });
                    self.emit_op(op, cur, kind, &mut stack)?;
                }
                Task::Enter(b) => self.enter(b),
                Task::EndIf(endif) => {
                    self.enter_if_reachable(endif);
                }
                Task::Latch { header, latch, ops } => {
                    if self.enter_if_reachable(latch) {
                        stack.push(Task::Ops {
                            ops,
                            next: 0,
                            kind: RegionKind::LoopLatch(header),
                        });
                    }
                }
                Task::EndLoop { header, exit } => {
                    self.loops.pop();
                    self.seal(header)?;
                    self.enter_if_reachable(exit);
                }
            }
        }
        Ok(())
    }

    /// Emits one op into `cur`; an `if` or a loop pushes the tasks of its regions.
    fn emit_op(
        &mut self,
        op: Op,
        cur: Block,
        kind: RegionKind,
        stack: &mut Vec<Task>,
    ) -> Result<(), String> {
        let loc = self.ir.ops[op].loc;
        match self.ir.opcode(op) {
            Opcode::Var => {
                let init = self.ir.ops[op].operands[0];
                let var = self.ir.ops[op].results[0];
                self.ir.remove_op(op);
                self.defs.insert((var, cur), init);
            }
            Opcode::Get => {
                let var = self.ir.ops[op].operands[0];
                let res = self.ir.ops[op].results[0];
                self.ir.remove_op(op);
                let val = self.read(var, cur)?;
                if self.ir.values[val].name.is_none() {
                    self.ir.values[val].name = self.ir.values[res].name.clone();
                }
                self.repl[res] = Some(val);
            }
            Opcode::Set => {
                let (var, val) = (self.ir.ops[op].operands[0], self.ir.ops[op].operands[1]);
                self.ir.remove_op(op);
                self.defs.insert((var, cur), val);
            }
            Opcode::If => self.emit_if(op, cur, loc, stack)?,
            Opcode::Loop => self.emit_loop(op, cur, loc, stack)?,
            Opcode::Yield => {
                let target = match kind {
                    RegionKind::Kernel => return Err("kernel.yield at kernel level".into()),
                    RegionKind::IfArm(endif) => endif,
                    RegionKind::LoopBody => self.innermost()?.latch,
                    RegionKind::LoopLatch(header) => header,
                };
                self.branch(cur, target, loc);
            }
            Opcode::Break => {
                let exit = self.innermost()?.exit;
                self.branch(cur, exit, loc);
            }
            Opcode::Continue => {
                if matches!(kind, RegionKind::LoopLatch(_)) {
                    return Err("kernel.continue in a loop latch".into());
                }
                let latch = self.innermost()?.latch;
                self.branch(cur, latch, loc);
            }
            Opcode::Return => {
                self.ir.move_op_to_end(op, cur);
                self.cur = None;
            }
            Opcode::Func | Opcode::Module => {
                return Err(format!("unexpected {}", self.ir.opcode(op).name()))
            }
            _ => self.ir.move_op_to_end(op, cur),
        }
        Ok(())
    }

    fn innermost(&self) -> Result<&LoopCtx, String> {
        self.loops
            .last()
            .ok_or_else(|| "kernel.break / kernel.continue outside a loop".to_string())
    }

    /// The ops of the single block of `region`.
    fn region_ops(&self, region: Region) -> Result<Vec<Op>, String> {
        let b = self.ir.entry_block(region).ok_or("empty region")?;
        if self.ir.next_block(b).is_some() {
            return Err("structured region with more than one block".into());
        }
        Ok(self.ir.block_ops(b).collect())
    }

    fn emit_if(
        &mut self,
        op: Op,
        cur: Block,
        loc: Loc,
        stack: &mut Vec<Task>,
    ) -> Result<(), String> {
        let cond = self.ir.ops[op].operands[0];
        let regions = self.ir.ops[op].regions.clone();
        let (then_ops, else_ops) = (self.region_ops(regions[0])?, self.region_ops(regions[1])?);
        self.ir.remove_op(op);
        let endif = self.new_block("endif");
        let br = self.ir.create_op(Opcode::CondBr, &[cond], &[], loc);
        self.ir.append_op(cur, br);
        // An arm that is only `yield` / `break` / `continue` branches straight to its target:
        // no empty forwarding block.
        let mut arms = Vec::new();
        for (ops, name) in [(then_ops, "then"), (else_ops, "else")] {
            match self.direct_target(&ops, endif) {
                Some(target) => self.add_edge(br, target),
                None => {
                    let b = self.new_block(name);
                    self.add_edge(br, b);
                    arms.push((b, ops));
                }
            }
        }
        // Each arm in its block, then the merge block: pushed in reverse.
        stack.push(Task::EndIf(endif));
        for (b, ops) in arms.into_iter().rev() {
            stack.push(Task::Ops {
                ops,
                next: 0,
                kind: RegionKind::IfArm(endif),
            });
            stack.push(Task::Enter(b));
        }
        Ok(())
    }

    /// Where an if arm consisting of a single `yield` / `break` / `continue` goes.
    fn direct_target(&self, ops: &[Op], endif: Block) -> Option<Block> {
        let [only] = ops else { return None };
        match self.ir.opcode(*only) {
            Opcode::Yield => Some(endif),
            Opcode::Break => self.loops.last().map(|l| l.exit),
            Opcode::Continue => self.loops.last().map(|l| l.latch),
            _ => None,
        }
    }

    fn emit_loop(
        &mut self,
        op: Op,
        cur: Block,
        loc: Loc,
        stack: &mut Vec<Task>,
    ) -> Result<(), String> {
        let regions = self.ir.ops[op].regions.clone();
        let (body_ops, latch_ops) = (self.region_ops(regions[0])?, self.region_ops(regions[1])?);
        self.ir.remove_op(op);
        let header = self.new_block("loop.header");
        let latch = self.new_block("loop.latch");
        let exit = self.new_block("loop.exit");
        self.branch(cur, header, loc);
        // The header stays unsealed until the back edge from the latch is known.
        self.link(header);
        self.cur = Some(header);
        self.loops.push(LoopCtx { latch, exit });
        // The body, the latch if reachable, then the exit: pushed in reverse.
        stack.push(Task::EndLoop { header, exit });
        stack.push(Task::Latch {
            header,
            latch,
            ops: latch_ops,
        });
        stack.push(Task::Ops {
            ops: body_ops,
            next: 0,
            kind: RegionKind::LoopBody,
        });
        Ok(())
    }

    fn new_block(&mut self, name: &str) -> Block {
        let b = self.ir.create_block();
        self.ir.blocks[b].name = Some(name.to_string());
        b
    }

    fn link(&mut self, b: Block) {
        self.ir.append_block(self.region, b);
        self.blocks[b].linked = true;
    }

    /// Starts emitting into `b`, whose predecessors are all known.
    fn enter(&mut self, b: Block) {
        self.link(b);
        self.blocks[b].sealed = true;
        self.cur = Some(b);
    }

    /// Enters `b` if it has predecessors (is reachable), else marks the code unreachable.
    fn enter_if_reachable(&mut self, b: Block) -> bool {
        if self.blocks[b].preds.is_empty() {
            self.cur = None;
            false
        } else {
            self.enter(b);
            true
        }
    }

    /// Ends `from` with `cf.br target`.
    fn branch(&mut self, from: Block, target: Block, loc: Loc) {
        let br = self.ir.create_op(Opcode::Br, &[], &[], loc);
        self.ir.append_op(from, br);
        self.add_edge(br, target);
        self.cur = None;
    }

    fn add_edge(&mut self, term: Op, target: Block) {
        debug_assert!(!self.blocks[target].sealed, "edge into a sealed block");
        let succ = self.ir.ops[term].succs.len();
        self.ir.add_successor(term, target, &[]);
        self.blocks[target].preds.push(Edge { term, succ });
    }

    fn edge_source(&self, e: Edge) -> Block {
        self.ir.op_block(e.term).expect("terminators are linked")
    }

    // ---- SSA construction (Braun et al. 2013) ----

    fn find(&mut self, v: Value) -> Value {
        let mut root = v;
        while let Some(next) = self.repl[root] {
            root = next;
        }
        // Path compression.
        let mut x = v;
        while let Some(next) = self.repl[x] {
            if next != root {
                self.repl[x] = Some(root);
            }
            x = next;
        }
        root
    }

    /// Braun's `readVariable`: the value of `var` at the end of `block`.
    fn read(&mut self, var: Value, block: Block) -> Result<Value, String> {
        let mut stack = Vec::new();
        match self.start_read(var, block, &mut stack)? {
            Some(v) => Ok(v),
            None => self.drive(var, stack),
        }
    }

    /// Walks up from `block` through sealed single-predecessor blocks (no phi needed there)
    /// to a definition or a merge. Returns the value if known without reading predecessors
    /// (a definition, or an incomplete phi in an unsealed block); otherwise creates the phi of
    /// a sealed merge block, pushes a frame to collect its operands and returns `None`.
    fn start_read(
        &mut self,
        var: Value,
        block: Block,
        stack: &mut Vec<Frame>,
    ) -> Result<Option<Value>, String> {
        let mut chain = Vec::new();
        let mut b = block;
        loop {
            if let Some(&v) = self.defs.get(&(var, b)) {
                let v = self.find(v);
                self.write_chain(var, &chain, v);
                return Ok(Some(v));
            }
            let st = &self.blocks[b];
            if st.sealed && st.preds.len() == 1 {
                chain.push(b);
                b = self.edge_source(st.preds[0]);
                continue;
            }
            if st.sealed && st.preds.is_empty() {
                return Err(format!(
                    "read of variable {} not dominated by its declaration",
                    self.ir.value_name(var).unwrap_or("?")
                ));
            }
            let phi = self.new_phi(var, b)?;
            self.defs.insert((var, b), phi);
            if !self.blocks[b].sealed {
                self.blocks[b].incomplete.push((var, phi));
                self.write_chain(var, &chain, phi);
                return Ok(Some(phi));
            }
            self.pending[phi] = true;
            stack.push(Frame {
                phi,
                block: b,
                next: 0,
                chain,
            });
            return Ok(None);
        }
    }

    fn write_chain(&mut self, var: Value, chain: &[Block], v: Value) {
        for &c in chain {
            self.defs.insert((var, c), v);
        }
    }

    /// Completes the phis on `stack` (Braun's `addPhiOperands`, with an explicit stack instead
    /// of recursion so long chains of merges cannot overflow the call stack). Returns the value
    /// of the bottom frame's phi after trivial-phi removal.
    fn drive(&mut self, var: Value, mut stack: Vec<Frame>) -> Result<Value, String> {
        let mut operand: Option<Value> = None;
        loop {
            let Some(top) = stack.last_mut() else {
                return Ok(operand.expect("the bottom frame produced a value"));
            };
            if let Some(v) = operand.take() {
                let phi = top.phi;
                top.next += 1;
                self.phi_ops.get_mut(&phi).expect("phi").push(v);
                if self.phi_ops.contains_key(&v) {
                    self.phi_users.entry(v).or_default().push(phi);
                }
            }
            let top = stack.last().expect("nonempty");
            let preds = &self.blocks[top.block].preds;
            if top.next < preds.len() {
                let src = self.edge_source(preds[top.next]);
                operand = self.start_read(var, src, &mut stack)?;
                continue;
            }
            let f = stack.pop().expect("nonempty");
            self.pending[f.phi] = false;
            let val = self.try_remove_trivial_phi(f.phi);
            // No write of `defs[(var, f.block)]`: a read frame's block already maps to the phi
            // (lookups go through `find`), and a block sealed late (a loop header) may have
            // redefined the variable after the phi, so its entry must keep that definition.
            self.write_chain(var, &f.chain, val);
            operand = Some(val);
        }
    }

    fn new_phi(&mut self, var: Value, b: Block) -> Result<Value, String> {
        let Type::Var(s) = self.ir.value_type(var) else {
            return Err("kernel.get / kernel.set of a value that is not a kernel.var".into());
        };
        let (name, loc) = (self.ir.values[var].name.clone(), self.ir.values[var].loc);
        let phi = self.ir.add_block_arg(b, Type::Scalar(s), name, loc);
        self.phi_ops.insert(phi, Vec::new());
        Ok(phi)
    }

    /// Braun's `tryRemoveTrivialPhi`, with a worklist instead of recursion. Returns what `phi`
    /// stands for afterwards.
    fn try_remove_trivial_phi(&mut self, phi: Value) -> Value {
        let mut work = vec![phi];
        while let Some(p) = work.pop() {
            if self.removed[p] || self.pending[p] {
                continue;
            }
            let mut same = None;
            let mut trivial = true;
            for i in 0..self.phi_ops[&p].len() {
                let op = self.find(self.phi_ops[&p][i]);
                if Some(op) == same || op == p {
                    continue;
                }
                if same.is_some() {
                    trivial = false; // Merges at least two values.
                    break;
                }
                same = Some(op);
            }
            // No operand other than itself is only possible in unreachable code, which is
            // never emitted; keep such a phi to stay safe.
            let (true, Some(same)) = (trivial, same) else {
                continue;
            };
            self.repl[p] = Some(same);
            self.removed[p] = true;
            if let Some(users) = self.phi_users.remove(&p) {
                // The users of `p` now use `same`: if that is a phi, they must be revisited
                // when it turns out trivial in turn.
                if self.phi_ops.contains_key(&same) {
                    self.phi_users
                        .entry(same)
                        .or_default()
                        .extend(users.iter().copied());
                }
                work.extend(users.into_iter().filter(|&u| u != p));
            }
        }
        self.find(phi)
    }

    /// Braun's `sealBlock`: all predecessors of `b` are known; complete its incomplete phis.
    fn seal(&mut self, b: Block) -> Result<(), String> {
        let mut i = 0;
        while i < self.blocks[b].incomplete.len() {
            let (var, phi) = self.blocks[b].incomplete[i];
            self.pending[phi] = true;
            let frame = Frame {
                phi,
                block: b,
                next: 0,
                chain: Vec::new(),
            };
            self.drive(var, vec![frame])?;
            i += 1;
        }
        self.blocks[b].incomplete.clear();
        self.blocks[b].sealed = true;
        Ok(())
    }

    // ---- finishing ----

    /// Drops removed phis, writes phi operands into the predecessors' successor arguments and
    /// applies all replacements in one walk.
    fn finish(mut self) -> Result<(), String> {
        let blocks: Vec<Block> = self.ir.region_blocks(self.region).collect();
        for &b in &blocks {
            debug_assert!(self.blocks[b].linked && self.blocks[b].sealed);
            let removed = &self.removed;
            self.ir.retain_block_args(b, |v| !removed[v]);
            let args = self.ir.blocks[b].args.clone();
            let preds = self.blocks[b].preds.clone();
            for (i, e) in preds.iter().enumerate() {
                let mut succ_args = Vec::new();
                for &phi in &args {
                    let Some(ops) = self.phi_ops.get(&phi) else {
                        continue; // A kernel parameter (entry has no preds anyway).
                    };
                    let v = ops[i];
                    succ_args.push(self.find(v));
                }
                self.ir.ops[e.term].succs[e.succ].args = succ_args.into();
            }
        }
        let mut ops = Vec::new();
        self.ir.walk(self.func, &mut |o| ops.push(o));
        for o in ops {
            let mut operands = std::mem::take(&mut self.ir.ops[o].operands);
            for v in &mut operands {
                *v = self.find(*v);
                if matches!(self.ir.value_type(*v), Type::Var(_)) {
                    return Err(format!(
                        "{} uses a kernel.var other than through kernel.get/set",
                        self.ir.opcode(o).name()
                    ));
                }
            }
            self.ir.ops[o].operands = operands;
        }
        Ok(())
    }
}

/// A step of [`Lowering::emit`].
enum Task {
    /// Emit `ops[next..]` of a structured region into the current block.
    Ops {
        ops: Vec<Op>,
        next: usize,
        kind: RegionKind,
    },
    /// Start emitting into the arm block `b` of an `if`.
    Enter(Block),
    /// After the arms of an `if`: continue in its merge block, if reachable.
    EndIf(Block),
    /// After a loop body: emit the latch `ops` into `latch`, if reachable.
    Latch {
        header: Block,
        latch: Block,
        ops: Vec<Op>,
    },
    /// After a loop: seal its header, continue in its exit block if reachable.
    EndLoop { header: Block, exit: Block },
}

/// Which structured region is being emitted, to resolve `kernel.yield`.
#[derive(Copy, Clone)]
enum RegionKind {
    Kernel,
    /// An arm of an `if`; yield goes to the merge block.
    IfArm(Block),
    LoopBody,
    /// A loop latch; yield goes back to the header.
    LoopLatch(Block),
}
