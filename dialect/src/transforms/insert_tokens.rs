//! Convergence-token insertion: structured form -> structured form.
//!
//! **Pre-condition**: kernels are in the structured form of the kernel dialect (each region of
//! `kernel.func`, `kernel.if` and `kernel.loop` is one block ending in a terminator).
//!
//! **Post-condition**, for every kernel that contained no convergence token (no `conv.*` op and
//! no `!conv.token` value anywhere, including kernel parameters):
//! - `%entry = conv.entry : !conv.token` is the first op of the kernel (loc of the kernel);
//! - every `kernel.loop` that is a real cycle (some path through the body reaches its end or a
//!   `kernel.continue` of this loop, and the latch can then fall back to the body) starts its
//!   body with `%heart = conv.loop %parent : !conv.token` (loc of the loop), where `%parent` is
//!   the heart of the innermost enclosing real loop, else `%entry`. A loop that always leaves
//!   through `break`/`return` is not a cycle and gets no heart (cf. LLVM bug #157459);
//! - every op with [`Traits::TAKES_TOKEN`] that had no trailing token operand gets the innermost
//!   token (innermost enclosing heart, else `%entry`) appended as its last operand. Ops in a
//!   loop's latch use that loop's heart (the latch is inside the cycle, and the heart, first
//!   op of the body, dominates it once lowered; this is what clang does for a `for` increment).
//!   Known conflict: the structured verifier (`verify.rs`) scopes values by region, so it
//!   rejects a latch op using the body's heart before lowering; the CFG form verifies. Using
//!   the outer token there instead would verify but silently change the convergence semantics
//!   (the op would be convergent across iterations), so the heart is kept.
//!
//! Kernels that already contain tokens are left untouched (mixing controlled and uncontrolled
//! convergent ops is rejected by the front end), and so are kernels already in CFG form with
//! several blocks (IR read from a file past this pass): the loop structure needed to place
//! hearts is gone, and tokens on the entry block's ops alone would mix controlled and
//! uncontrolled convergence. Nothing else changes: no op is moved or removed. Cost: two linear
//! walks per kernel, neither recursive (any nesting depth).

use crate::entities::{Block, Op, Region, Value};
use crate::ir::{Event, Ir};
use crate::registry::{Opcode, Traits};
use crate::types::Type;
use cranelift_entity::SecondaryMap;
use rustc_hash::FxHashMap as HashMap;

/// Inserts convergence tokens into every kernel of `ir` that has none (see the module docs).
/// Returns the kernels it gave tokens to (the others' tokens, if any, are the input's).
pub fn insert_tokens(ir: &mut Ir) -> Vec<Op> {
    let mut changed = Vec::new();
    for func in ir.kernels() {
        if has_tokens(ir, func) {
            continue;
        }
        let Some(&region) = ir.ops[func].regions.first() else {
            continue;
        };
        let Some(entry_block) = ir.entry_block(region) else {
            continue;
        };
        if ir.next_block(entry_block).is_some() {
            continue; // CFG form (structured kernels have one block): see the module docs
        }
        let cycles = loop_cycles(ir, func);

        let loc = ir.ops[func].loc;
        let entry = ir.create_op(Opcode::ConvEntry, &[], &[Type::Token], loc);
        prepend_op(ir, entry_block, entry);
        let token = ir.ops[entry].results[0];
        ir.set_value_name(token, "entry");
        insert_in_block(ir, entry_block, token, &cycles);
        changed.push(func);
    }
    changed
}

/// Whether `func` already uses controlled convergence.
fn has_tokens(ir: &Ir, func: Op) -> bool {
    let region = ir.ops[func].regions.first().copied();
    let params_have_token = region.and_then(|r| ir.entry_block(r)).is_some_and(|b| {
        ir.blocks[b]
            .args
            .iter()
            .any(|&v| ir.value_type(v) == Type::Token)
    });
    let mut found = params_have_token;
    ir.walk(func, &mut |o| {
        let data = &ir.ops[o];
        found |= data.opcode.spec().dialect() == "conv"
            || data
                .operands
                .iter()
                .chain(&data.results)
                .any(|&v| ir.value_type(v) == Type::Token);
    });
    found
}

fn prepend_op(ir: &mut Ir, block: Block, op: Op) {
    match ir.first_op(block) {
        Some(first) => ir.insert_op_before(op, first),
        None => ir.append_op(block, op),
    }
}

/// How control can leave a structured region, relative to the innermost enclosing loop.
#[derive(Copy, Clone, Default, Debug)]
pub(crate) struct Flow {
    /// Some path reaches the region's `kernel.yield` (falls through to its parent's successor).
    pub falls: bool,
    /// Some path reaches a `kernel.break` of the innermost enclosing loop.
    pub breaks: bool,
    /// Some path reaches a `kernel.continue` of the innermost enclosing loop.
    pub continues: bool,
}

/// For every `kernel.loop` in `func`, whether it is a real cycle (see the module docs). One
/// walk: the [`Flow`] of each region is accumulated on a stack while its ops are visited, and
/// an `if` or a loop applies its regions' flows when the walk leaves it (no recursion).
fn loop_cycles(ir: &Ir, func: Op) -> HashMap<Op, bool> {
    let mut cycles = HashMap::default();
    // Per open region: its flow so far, and whether the point after its last op is reachable.
    let mut open: Vec<(Flow, bool)> = Vec::new();
    let mut flows: SecondaryMap<Region, Flow> = SecondaryMap::new();
    for event in ir.events(func) {
        match event {
            Event::Region(_) => open.push((Flow::default(), true)),
            Event::RegionEnd(r) => {
                if let Some((f, _)) = open.pop() {
                    flows[r] = f;
                }
            }
            Event::OpEnd(op) if op != func => {
                if let Some((f, reachable)) = open.last_mut() {
                    step(ir, op, f, reachable, &flows, &mut cycles);
                }
            }
            _ => {}
        }
    }
    cycles
}

/// The effect of `op` (whose regions' flows are known) on the flow `f` of its region.
fn step(
    ir: &Ir,
    op: Op,
    f: &mut Flow,
    reachable: &mut bool,
    flows: &SecondaryMap<Region, Flow>,
    cycles: &mut HashMap<Op, bool>,
) {
    let region = |i: usize| {
        ir.ops[op]
            .regions
            .get(i)
            .map_or(Flow::default(), |&r| flows[r])
    };
    match ir.opcode(op) {
        Opcode::If => {
            let (t, e) = (region(0), region(1));
            if *reachable {
                f.breaks |= t.breaks || e.breaks;
                f.continues |= t.continues || e.continues;
                *reachable = t.falls || e.falls;
            }
        }
        Opcode::Loop => {
            let (body, latch) = (region(0), region(1));
            let latch_reached = body.falls || body.continues;
            cycles.insert(op, latch_reached && latch.falls);
            let exits = body.breaks || (latch_reached && latch.breaks);
            *reachable &= exits;
        }
        Opcode::Yield => {
            f.falls |= *reachable;
            *reachable = false;
        }
        Opcode::Break => {
            f.breaks |= *reachable;
            *reachable = false;
        }
        Opcode::Continue => {
            f.continues |= *reachable;
            *reachable = false;
        }
        Opcode::Return => *reachable = false,
        _ => {}
    }
}

/// Gives the ops of `block` and everything nested in it their token (see the module docs), in
/// layout order: a stack of blocks being walked, each with the token its ops take.
fn insert_in_block(ir: &mut Ir, block: Block, token: Value, cycles: &HashMap<Op, bool>) {
    let mut stack = vec![(ir.first_op(block), token)];
    while let Some(top) = stack.last_mut() {
        let (Some(op), token) = *top else {
            stack.pop();
            continue;
        };
        top.0 = ir.next_op(op);
        let spec = ir.spec(op);
        if spec.has(Traits::TAKES_TOKEN) {
            let last = ir.ops[op].operands.last().copied();
            if last.is_none_or(|v| ir.value_type(v) != Type::Token) {
                ir.ops[op].operands.push(token);
            }
        }
        match ir.opcode(op) {
            Opcode::If => {
                // The then region first: pushed last.
                for &r in ir.ops[op].regions.iter().rev() {
                    if let Some(b) = ir.entry_block(r) {
                        stack.push((ir.first_op(b), token));
                    }
                }
            }
            Opcode::Loop => {
                let regions = ir.ops[op].regions.clone();
                let (Some(body), latch) = (ir.entry_block(regions[0]), ir.entry_block(regions[1]))
                else {
                    continue;
                };
                let mut inner = token;
                if cycles.get(&op).copied().unwrap_or(true) {
                    let loc = ir.ops[op].loc;
                    let heart = ir.create_op(Opcode::ConvLoop, &[token], &[Type::Token], loc);
                    prepend_op(ir, body, heart);
                    inner = ir.ops[heart].results[0];
                    ir.set_value_name(inner, "heart");
                }
                if let Some(latch) = latch {
                    stack.push((ir.first_op(latch), inner));
                }
                stack.push((ir.first_op(body), inner));
            }
            _ => {}
        }
    }
}
