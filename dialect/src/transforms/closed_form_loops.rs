//! closed-form-loops: a counting loop whose only effect is the values it leaves is replaced by
//! their closed forms (LLVM gets there with SCEV's exit values, `indvars`, and
//! `loop-deletion`). `for i in 0..n { sum += i; }` becomes `sum = tri(max(n, 0))`: a few scalar
//! or vector ops instead of `n` iterations.
//!
//! Pre: verified IR; only CF kernels are changed.
//! Post: the IR verifies and computes the same buffers. A reducible cycle with header `H` is
//! replaced when
//! - it holds no other cycle, is entered by one `cf.br` (from the preheader `P`) and left by
//!   one edge, from `H`'s `cf.cond_br` to a block `E` outside it; every other block of it ends
//!   in a branch to blocks of it;
//! - one argument `i` of `H` (i32) is a counter: every back edge passes `i + 1`, and `H`
//!   stays in the loop while `i < b` (signed or unsigned, in any spelling of the compare and
//!   the branch) for a `b` defined outside the loop;
//! - every op of the loop other than its branches and its `conv.loop` is free
//!   (`legality::is_free`) and read only inside the loop, and the heart's token is unread;
//! - every argument of `H` read after the loop (including on the exit edge) is a scalar
//!   (never a token or a pointer) and is the counter, unchanged by the back
//!   edges, set to a value defined outside the loop, or an i32 accumulator the back edges pass
//!   as `acc + i` or `acc + v` (`v` defined outside).
//!
//! Then, with `T = i0 < b ? b - i0 : 0` (exact as an unsigned 32-bit number: the loop runs
//! `T` times), `P` computes the exit values (`i0 + T`; `acc0 + T*i0 + T(T-1)/2`, the halving
//! done on the 64-bit product (`arith.muli` and `kernel.mulhiu`) so that nothing is lost; `acc0 + T*v`;
//! `T != 0 ? v : acc0`; all modulo 2^32, as kc's arithmetic wraps), branches to `E` directly,
//! and the loop's blocks are gone.
//!
//! Legality: the removed ops are free (the ops `dce` removes when unread: no memory, no side
//! effect, not convergent) and the loop terminates (one counter, no inner cycle), so removing
//! it changes no buffer and no convergence; the exit values are per-lane functions of values
//! that dominate the loop, uniform where those are (`T` of a divergent bound is divergent,
//! as the values the loop left were).
//!
//! Cost: one cycle analysis and one use map per kernel; each candidate checks its own ops and
//! their uses once, and candidates are disjoint (innermost loops): linear.

use super::{other_operand, Users};
use crate::analysis::{value_range, CycleId, CycleInfo, RegionCfg};
use crate::attrs::Attr;
use crate::entities::{Block, Op, Value};
use crate::ir::{Ir, Successor};
use crate::location::Loc;
use crate::registry::Opcode;
use crate::transforms::legality;
use crate::types::Type;
use cranelift_entity::{packed_option::PackedOption, SecondaryMap};

/// Replaces the closed-form loops of every CF kernel; returns how many were replaced.
pub fn closed_form_loops(ir: &mut Ir) -> usize {
    super::each_cf_kernel(ir, kernel)
}

/// What a header argument is worth when the loop exits.
#[derive(Clone, Copy, Debug)]
enum Exit {
    /// The counter: `i0 + T`.
    Counter,
    /// Unchanged by the loop: its entry value.
    Same,
    /// Set to `v` by every iteration: `T != 0 ? v : entry`.
    Set(Value),
    /// `acc + i` per iteration: `entry + T*i0 + T(T-1)/2`.
    SumCounter,
    /// `acc + v` per iteration: `entry + T*v`.
    SumInvariant(Value),
}

/// A loop to replace: blocks, edges and what each read argument of its header becomes.
struct Candidate {
    header: Block,
    blocks: Vec<Block>,
    /// The entering `cf.br`.
    enter: Op,
    /// The header's `cf.cond_br` and the index of its exit successor.
    exit: (Op, usize),
    counter: usize,
    bound: Value,
    signed: bool,
    /// Per header argument: its exit value, `None` for arguments nobody reads after the loop.
    args: Vec<Option<Exit>>,
}

fn kernel(ir: &mut Ir, func: Op) -> usize {
    let region = ir.ops[func].regions[0];
    let cfg = RegionCfg::compute(ir, region);
    let cycles = CycleInfo::compute(&cfg);
    let users = ir.users(func);
    let mut found = Vec::new();
    for (ci, cycle) in cycles.cycles.iter().enumerate() {
        if cycle.is_reducible() && cycle.children.is_empty() {
            if let Some(c) = candidate(ir, &cfg, &cycles, CycleId(ci as u32), &users) {
                found.push((cycle.header(), c));
            }
        }
    }
    // In reverse postorder: a loop whose values another one reads (its bound, an increment,
    // an entry value) dominates it and is replaced first, so the later one reads the exit
    // values through `subst`.
    let order = cfg.reverse_postorder();
    found.sort_by_key(|&(h, _)| order[h as usize]);
    let mut subst: SecondaryMap<Value, PackedOption<Value>> = SecondaryMap::new();
    let n = found.len();
    for (_, c) in found {
        replace(ir, &c, &users, &mut subst);
    }
    n
}

/// `arith.cmpi` predicates in the registry's order.
const NE: i64 = 1;
const SLT: i64 = 2;
const SGT: i64 = 4;
const ULT: i64 = 6;
const UGT: i64 = 8;

/// The predicate true exactly when `p` is false.
fn negate(p: i64) -> Option<i64> {
    // eq ne slt sle sgt sge ult ule ugt uge
    Some(match p {
        0 => 1,
        1 => 0,
        2 => 5,
        3 => 4,
        4 => 3,
        5 => 2,
        6 => 9,
        7 => 8,
        8 => 7,
        9 => 6,
        _ => return None,
    })
}

fn candidate(
    ir: &Ir,
    cfg: &RegionCfg,
    cycles: &CycleInfo,
    c: CycleId,
    users: &Users,
) -> Option<Candidate> {
    let cycle = cycles.cycle(c);
    let h = cycle.header();
    let header = cfg.blocks[h as usize];
    let blocks: Vec<Block> = cycle
        .own_blocks
        .iter()
        .map(|&n| cfg.blocks[n as usize])
        .collect();
    let inside_node = |n: u32| cycles.contains(c, n);
    let inside = |b: Block| cfg.node(b).is_some_and(inside_node);
    // Only the header is entered from outside: unreachable blocks, which the cycle analysis
    // does not see, may still branch into the loop.
    if cycle
        .own_blocks
        .iter()
        .any(|&n| n != h && cfg.preds[n as usize].iter().any(|&p| !inside_node(p)))
    {
        return None;
    }
    // One entering edge, a `cf.br`; back edges from the loop.
    let mut enter = None;
    let mut back = Vec::new();
    for &p in &cfg.preds[h as usize] {
        let t = ir.terminator(cfg.blocks[p as usize])?;
        for (si, s) in ir.ops[t].succs.iter().enumerate() {
            if s.block != header {
                continue;
            }
            if inside_node(p) {
                back.push((t, si));
            } else if enter.replace(t).is_some() {
                return None;
            }
        }
    }
    let enter = enter?;
    if ir.opcode(enter) != Opcode::Br || back.is_empty() {
        return None;
    }
    // One exit, from the header's conditional branch.
    let ht = ir.terminator(header)?;
    if ir.opcode(ht) != Opcode::CondBr {
        return None;
    }
    let hs = &ir.ops[ht].succs;
    let exit_index = match (inside(hs[0].block), inside(hs[1].block)) {
        (true, false) => 1,
        (false, true) => 0,
        _ => return None,
    };
    // Every op free and read only inside, branches staying inside, the heart unread.
    for &b in &blocks {
        for op in ir.block_ops(b) {
            let code = ir.opcode(op);
            if op == ht {
                continue;
            }
            if matches!(code, Opcode::Br | Opcode::CondBr) {
                if ir.ops[op].succs.iter().any(|s| !inside(s.block)) {
                    return None;
                }
                continue;
            }
            let read_outside = |r: &Value| {
                users[*r]
                    .iter()
                    .any(|&u| !ir.op_block(u).is_some_and(inside))
            };
            if code == Opcode::ConvLoop {
                if ir.ops[op].results.iter().any(|r| !users[*r].is_empty()) {
                    return None;
                }
                continue;
            }
            if !legality::is_free(ir, op) || ir.ops[op].results.iter().any(read_outside) {
                return None;
            }
        }
    }
    let defined_outside = |v: Value| ir.value_block(v).is_some_and(|b| !inside(b));
    let args = &ir.blocks[header].args;
    let next = |j: usize| {
        let v = ir.ops[back[0].0].succs[back[0].1].args[j];
        back.iter()
            .all(|&(t, s)| ir.ops[t].succs[s].args[j] == v)
            .then_some(v)
    };
    // The counter: the compare the header branches on, `i < b` to stay.
    let cond = ir.defining_op(ir.ops[ht].operands[0])?;
    if ir.opcode(cond) != Opcode::CmpI {
        return None;
    }
    let mut pred = ir.attr(cond, "predicate").and_then(Attr::as_int)?;
    if exit_index == 0 {
        pred = negate(pred)?;
    }
    let [x, y] = ir.ops[cond].operands[..] else {
        return None;
    };
    let (i, bound, signed) = match pred {
        SLT => (x, y, true),
        SGT => (y, x, true),
        ULT => (x, y, false),
        UGT => (y, x, false),
        _ => return None,
    };
    let counter = args.iter().position(|&a| a == i)?;
    if ir.value_type(i) != Type::I32 || !defined_outside(bound) {
        return None;
    }
    let step = ir.defining_op(next(counter)?)?;
    if ir.opcode(step) != Opcode::AddI || ir.int_constant(other_operand(ir, step, i)?) != Some(1) {
        return None;
    }
    // The exit value of every header argument read after the loop.
    let exit_args = &ir.ops[ht].succs[exit_index].args;
    let mut exits = Vec::with_capacity(args.len());
    for (j, &a) in args.iter().enumerate() {
        let read = exit_args.contains(&a)
            || users[a]
                .iter()
                .any(|&u| !ir.op_block(u).is_some_and(inside));
        if !read {
            exits.push(None);
            continue;
        }
        // Values only: a token read after the loop stays with its loop, and a select (the
        // last value set) is built for scalars.
        if !matches!(ir.value_type(a), Type::Scalar(_)) {
            return None;
        }
        let n = next(j)?;
        let e = if j == counter {
            Exit::Counter
        } else if n == a {
            Exit::Same
        } else if defined_outside(n) {
            Exit::Set(n)
        } else {
            let add = ir.defining_op(n)?;
            if ir.opcode(add) != Opcode::AddI || ir.value_type(a) != Type::I32 {
                return None;
            }
            let v = other_operand(ir, add, a)?;
            if v == i {
                Exit::SumCounter
            } else if defined_outside(v) {
                Exit::SumInvariant(v)
            } else {
                return None;
            }
        };
        exits.push(Some(e));
    }
    // The exit edge passes header arguments or values from outside the loop.
    if exit_args
        .iter()
        .any(|&v| !args.contains(&v) && !defined_outside(v))
    {
        return None;
    }
    Some(Candidate {
        header,
        blocks,
        enter,
        exit: (ht, exit_index),
        counter,
        bound,
        signed,
        args: exits,
    })
}

/// Builds ops before `at`.
struct Builder {
    at: Op,
    loc: Loc,
}

impl Builder {
    fn op(&self, ir: &mut Ir, code: Opcode, operands: &[Value], ty: Type) -> Value {
        let op = ir.create_op(code, operands, &[ty], self.loc);
        ir.insert_op_before(op, self.at);
        ir.ops[op].results[0]
    }
    fn konst(&self, ir: &mut Ir, v: i64) -> Value {
        let op = ir.create_op(Opcode::Constant, &[], &[Type::I32], self.loc);
        ir.set_attr(op, "value", Attr::Int(v, Type::I32));
        ir.insert_op_before(op, self.at);
        ir.ops[op].results[0]
    }
    fn cmp(&self, ir: &mut Ir, pred: i64, a: Value, b: Value) -> Value {
        let op = ir.create_op(Opcode::CmpI, &[a, b], &[Type::I1], self.loc);
        ir.set_attr(op, "predicate", Attr::Int(pred, Type::I64));
        ir.insert_op_before(op, self.at);
        ir.ops[op].results[0]
    }
}

/// `v`, or the exit value that replaced it.
fn resolve(subst: &SecondaryMap<Value, PackedOption<Value>>, v: Value) -> Value {
    subst[v].expand().unwrap_or(v)
}

fn replace(
    ir: &mut Ir,
    c: &Candidate,
    users: &Users,
    subst: &mut SecondaryMap<Value, PackedOption<Value>>,
) {
    let (ht, exit_index) = c.exit;
    let w = Builder {
        at: c.enter,
        loc: ir.ops[ht].loc,
    };
    let entry: Vec<Value> = ir.ops[c.enter].succs[0]
        .args
        .iter()
        .map(|&v| resolve(subst, v))
        .collect();
    let i0 = entry[c.counter];
    let b = resolve(subst, c.bound);
    let i32 = Type::I32;
    // T = i0 < b ? b - i0 : 0; with i0 = 0, b itself when b cannot be negative (unsigned,
    // or a bound `value_range` knows), else max(b, 0).
    let zero = w.konst(ir, 0);
    let t = if ir.int_constant(i0) == Some(0) {
        if !c.signed || value_range::nonneg_bound(ir, b).is_some() {
            b
        } else {
            w.op(ir, Opcode::MaxSI, &[b, zero], i32)
        }
    } else {
        let runs = w.cmp(ir, if c.signed { SLT } else { ULT }, i0, b);
        let diff = w.op(ir, Opcode::SubI, &[b, i0], i32);
        w.op(ir, Opcode::Select, &[runs, diff, zero], i32)
    };
    let mut tri = None;
    let args: Vec<Value> = ir.blocks[c.header].args.to_vec();
    for (j, e) in c.args.iter().enumerate() {
        let Some(e) = *e else { continue };
        let a0 = entry[j];
        let v = match e {
            Exit::Counter => w.op(ir, Opcode::AddI, &[i0, t], i32),
            Exit::Same => a0,
            Exit::Set(v) => {
                let v = resolve(subst, v);
                let ran = w.cmp(ir, NE, t, zero);
                w.op(ir, Opcode::Select, &[ran, v, a0], ir.value_type(a0))
            }
            Exit::SumInvariant(v) => {
                let v = resolve(subst, v);
                let tv = w.op(ir, Opcode::MulI, &[t, v], i32);
                w.op(ir, Opcode::AddI, &[a0, tv], i32)
            }
            Exit::SumCounter => {
                // T(T-1)/2: bits 1 to 32 of the 64-bit product T(T-1) (T < 2^32 is exact
                // as an unsigned number; T = 0 gives 0).
                let tri = *tri.get_or_insert_with(|| {
                    let one = w.konst(ir, 1);
                    let t1 = w.op(ir, Opcode::SubI, &[t, one], i32);
                    let lo = w.op(ir, Opcode::MulI, &[t, t1], i32);
                    let hi = w.op(ir, Opcode::MulHiU, &[t, t1], i32);
                    let k31 = w.konst(ir, 31);
                    let lo1 = w.op(ir, Opcode::ShRUI, &[lo, one], i32);
                    let hi31 = w.op(ir, Opcode::ShLI, &[hi, k31], i32);
                    w.op(ir, Opcode::OrI, &[lo1, hi31], i32)
                });
                let ti = w.op(ir, Opcode::MulI, &[t, i0], i32);
                let s = w.op(ir, Opcode::AddI, &[a0, ti], i32);
                w.op(ir, Opcode::AddI, &[s, tri], i32)
            }
        };
        if v != a0 && ir.values[v].name.is_none() {
            if let Some(name) = ir.values[args[j]].name.clone() {
                ir.set_value_name(v, &name);
            }
        }
        subst[args[j]] = v.into();
    }
    // Reads after the loop (the exit edge included) read the exit values.
    let inside = |ir: &Ir, op: Op| ir.op_block(op).is_some_and(|b| c.blocks.contains(&b));
    let readers: Vec<Op> = args
        .iter()
        .flat_map(|&a| users[a].iter().copied())
        .filter(|&u| !inside(ir, u))
        .collect();
    for u in readers {
        for v in ir.uses_mut(u) {
            *v = resolve(subst, *v);
        }
    }
    let exit = &ir.ops[ht].succs[exit_index];
    let to = Successor {
        block: exit.block,
        args: exit.args.iter().map(|&v| resolve(subst, v)).collect(),
    };
    ir.ops[c.enter].succs[0] = to;
    for &blk in &c.blocks {
        ir.remove_block(blk);
    }
}
