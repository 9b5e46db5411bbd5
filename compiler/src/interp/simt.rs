//! Lockstep execution of structured IR: a whole workgroup under a per-lane active mask.
//!
//! Guarantees (maximal convergence for structured control flow):
//! - An op runs once for the active lanes, in increasing lane order; a wave with no active
//!   lane does not run it (nor count it). A block stops as soon as no lane is active in it.
//! - `kernel.if`: the then-region with the active lanes whose condition is true, then the
//!   else-region with the others; afterwards the lanes that reached the end of either region
//!   continue. Lanes that `break` / `continue` leave toward the enclosing loop.
//! - `kernel.loop`: the body with the lanes in the loop, then the latch with the lanes that
//!   finished the body or continued; repeated while any lane is left. Lanes that break wait
//!   at the exit and continue after the loop together once no lane is left inside.
//! - `kernel.return`: the lanes are done for the rest of the kernel.
//! - Cross-lane ops work per wave (64 consecutive linear local ids) over its active lanes;
//!   `kernel.barrier` requires every lane of the workgroup that has not returned.
//!
//! CF-form IR with cross-lane ops ([`run_cf`]) runs the same way over blocks instead of
//! regions: the blocks are put in an order in which every forward edge goes forward and each
//! loop's blocks are contiguous (`CycleInfo::contiguous_order`); lanes wait at the block a
//! branch sent them to, and the earliest block with waiting lanes runs next with all of them.
//! So the two sides of a branch run one after the other and the lanes meet again at the
//! first block both reach (the end of an `if`, even when one side may return); a loop runs
//! until no lane is left in it while the lanes that left wait after it. One iteration's lanes
//! finish it together: lanes that take a back edge (or enter an irreducible cycle's entry
//! from inside it) wait until no lane is left in the cycle's iteration region, the cycle and
//! the exit paths its heart token still reaches (a `break` path reading `readfirstlane` with
//! the iteration's lanes), which the order moves right behind the cycle. For the CFGs of
//! structured code this is the structured IR's reconvergence. Block arguments are a parallel
//! copy per lane.
//!
//! A barrier reached by only some of the lanes left holds them there while the lanes
//! waiting at blocks the barrier's block cannot reach in the iteration run (the other side of
//! a branch, which the structured IR runs first and which may return); lanes waiting after
//! the barrier or for the next iteration stay. Once nothing else can run, the barrier needs
//! every lane that has not returned, as in the structured IR. (Lanes that left the barrier's
//! loop run on meanwhile and may return: the CF form no longer tells a `break` from a
//! `return` there, and the hardware's barrier does not wait for a wave that ended either.)

use super::InterpError;
use super::{local_id, workgroups, Item, Mem, Run, NO_SLOT, WAVE_SIZE};
use cranelift_entity::SecondaryMap;
use kc_dialect::analysis::cfg::RegionCfg;
use kc_dialect::analysis::cycles::{CycleId, CycleInfo};
use kc_dialect::entities::{Block, Op};
use kc_dialect::eval;
use kc_dialect::ir::Ir;
use kc_dialect::location::Loc;
use kc_dialect::registry::Opcode;
use std::collections::HashMap;
use std::io::Write;

/// What a CF workgroup run has still to do: lanes waiting at blocks, lanes deferred to a
/// cycle entry, the queue of both, and lanes held at a barrier.
#[derive(Default)]
struct Pending {
    /// Lanes waiting at each block.
    waiting: SecondaryMap<Block, Mask>,
    /// Lanes that took a back edge, released to the cycle entry after the iteration region.
    deferred: SecondaryMap<Block, Mask>,
    /// Keys `(2 * position, BLOCK, 0)` for a block; `(2 * region end - 1, RELEASE, position of
    /// the entry)` for the release of the lanes deferred to an entry (after every block of the
    /// region, before anything beyond). Smallest first.
    queue: std::collections::BinaryHeap<std::cmp::Reverse<(u32, u32, u32)>>,
    /// Lanes stopped at a barrier that not every lane left has reached yet. While they wait,
    /// lanes at blocks the barrier's block cannot reach in this iteration run (the other side
    /// of a branch, which may return: structured IR runs it first); lanes at blocks it reaches
    /// and lanes deferred to the next iteration wait in `parked`. Once nothing else can run,
    /// the barrier needs every lane left.
    held: Vec<(Block, Op, Mask)>,
    parked: Vec<(u32, u32, u32)>,
    /// Per block holding lanes at a barrier: the CFG nodes reachable from its successors.
    reach: HashMap<Block, Vec<bool>>,
}

impl Pending {
    /// May lanes waiting at `b` run while lanes are held at barriers? Not when a held
    /// barrier's block reaches `b` within the iteration (forward edges: `b` comes after the
    /// barrier, so its lanes went around it or past it).
    fn may_run(&mut self, b: Block, sched: &Schedule) -> bool {
        let cfg = &sched.cfg;
        let Some(n) = cfg.node(b) else {
            return true;
        };
        for &(h, _, _) in &self.held {
            let reach = self.reach.entry(h).or_insert_with(|| {
                let mut seen = vec![false; cfg.len()];
                let forward = |x: u32| {
                    let from = cfg.blocks[x as usize];
                    cfg.succs[x as usize]
                        .iter()
                        .copied()
                        .filter(move |&y| !sched.is_back_edge(from, cfg.blocks[y as usize]))
                };
                let mut stack: Vec<u32> = cfg.node(h).map_or(Vec::new(), |n| forward(n).collect());
                while let Some(x) = stack.pop() {
                    if !std::mem::replace(&mut seen[x as usize], true) {
                        stack.extend(forward(x));
                    }
                }
                seen
            });
            if reach[n as usize] {
                return false;
            }
        }
        true
    }
}

const BLOCK: u32 = 0;
const RELEASE: u32 = 1;

/// Words of a mask: one per wave of the largest workgroup.
const WORDS: usize = (super::MAX_WORKGROUP_SIZE / WAVE_SIZE) as usize;

/// A set of lanes of the workgroup; word `w` is wave `w`, bit `i` its lane `i`.
#[derive(Copy, Clone, PartialEq, Eq, Default, Debug)]
struct Mask([u64; WORDS]);

impl Mask {
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    fn or(self, o: Mask) -> Mask {
        Mask(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
    fn and_not(self, o: Mask) -> Mask {
        Mask(std::array::from_fn(|i| self.0[i] & !o.0[i]))
    }
    fn count(&self) -> u64 {
        self.0.iter().map(|w| w.count_ones() as u64).sum()
    }
    fn waves(&self) -> u64 {
        self.0.iter().filter(|&&w| w != 0).count() as u64
    }
    /// The first `n` lanes.
    fn first(n: usize) -> Mask {
        Mask(std::array::from_fn(|w| {
            let lo = w * 64;
            if n >= lo + 64 {
                u64::MAX
            } else if n > lo {
                (1u64 << (n - lo)) - 1
            } else {
                0
            }
        }))
    }
}

/// A block being run: its next op, its active lanes, where lanes went so far, and the
/// construct whose region it is waiting on.
struct Frame {
    next: Option<Op>,
    m: Mask,
    ex: Exits,
    waiting: Waiting,
}

impl Frame {
    fn new(first: Option<Op>, m: Mask) -> Frame {
        Frame {
            next: first,
            m,
            ex: Exits::default(),
            waiting: Waiting::Nothing,
        }
    }
}

/// What a [`Frame`] waits for. (Unboxed: one per frame, and a box would cost an allocation
/// per `if` run.)
#[allow(clippy::large_enum_variant)]
enum Waiting {
    Nothing,
    /// The region `side` (0: then, 1: else) of `op`, run with `lanes[side]`; `after`: the lanes
    /// that reached the end of a side so far.
    If {
        op: Op,
        side: usize,
        lanes: [Mask; 2],
        after: Mask,
    },
    /// The body (or with `in_latch` the latch) of the loop `op`; `out`: the lanes that broke.
    Loop {
        op: Op,
        out: Mask,
        in_latch: bool,
    },
}

/// What [`Simt::advance`] stopped at. (Unboxed, like [`Waiting`]: it is moved straight onto
/// the frame stack.)
#[allow(clippy::large_enum_variant)]
enum Step {
    /// The block ended; where its lanes went.
    Done(Exits),
    /// A region must run first (the frame waits on it).
    Run(Frame),
}

/// Where the lanes that ran a block went.
#[derive(Default)]
struct Exits {
    /// Reached the end (`kernel.yield`).
    normal: Mask,
    brk: Mask,
    cont: Mask,
}

struct Simt<'r, 'p, 'm, 't> {
    run: &'r mut Run<'p>,
    mem: &'r mut Mem<'m>,
    /// Lanes of the workgroup.
    n: usize,
    /// Slot-major values: slot `s` of lane `l` is `vals[s * n + l]`.
    vals: Vec<u64>,
    items: Vec<Item>,
    group: [u32; 3],
    returned: Mask,
    all: Mask,
    /// Enclosing `kernel.loop`s, innermost last (for the step-limit message).
    loops: Vec<Op>,
    trace: Option<&'t mut dyn Write>,
}

/// Runs every workgroup of the launch in lockstep.
pub(super) fn run(
    run: &mut Run,
    mem: &mut Mem,
    params: &[(u32, u64)],
    trace: Option<&mut dyn Write>,
) -> Result<(), InterpError> {
    each_workgroup(run, mem, params, trace, |s, entry| {
        s.block(entry, s.all).map(|_| ())
    })
}

/// Runs every workgroup of a CF-form launch in lockstep; see the module docs.
pub(super) fn run_cf(
    run: &mut Run,
    mem: &mut Mem,
    params: &[(u32, u64)],
    trace: Option<&mut dyn Write>,
) -> Result<(), InterpError> {
    let sched = Schedule::compute(run.prep.ir, run.prep.func);
    each_workgroup(run, mem, params, trace, |s, entry| s.cf(entry, &sched))
}

/// The CF engine's block order and iteration regions (see `Simt::cf`).
struct Schedule {
    /// Blocks in run order: [`CycleInfo::contiguous_order`], with the blocks each loop's
    /// heart token reaches after its exits moved right behind the loop.
    ///
    /// [`CycleInfo::contiguous_order`]: CycleInfo::contiguous_order
    blocks: Vec<Block>,
    position: SecondaryMap<Block, u32>,
    /// Per block that an edge from inside its cycle enters (a header: a back edge; an
    /// irreducible cycle's other entries too): the position one past the cycle's iteration
    /// region (the cycle and its heart's exit blocks).
    region_end: SecondaryMap<Block, u32>,
    /// Per cycle entry: its cycle.
    cycle_of_entry: SecondaryMap<Block, Option<CycleId>>,
    cfg: RegionCfg,
    cycles: CycleInfo,
}

impl Schedule {
    fn compute(ir: &Ir, func: Op) -> Schedule {
        let cfg = RegionCfg::compute(ir, ir.ops[func].regions[0]);
        let cycles = CycleInfo::compute(&cfg);
        let mut order = cycles.contiguous_order(&cfg);
        // Innermost cycles first: a heart's exit blocks (outside its cycle, where its token is
        // still used: a `break` path reading the iteration's threads) run with the
        // iteration's lanes, before the next iteration starts: move them right behind the
        // cycle.
        let mut ids: Vec<_> = (0..cycles.cycles.len() as u32).map(CycleId).collect();
        ids.sort_by_key(|&c| std::cmp::Reverse(cycles.cycle(c).depth));
        let mut region_end_of: HashMap<CycleId, usize> = HashMap::new();
        for &c in &ids {
            let exits = heart_exit_blocks(ir, &cfg, &cycles, c);
            let mut pos = vec![u32::MAX; cfg.len()];
            for (i, &n) in order.iter().enumerate() {
                pos[n as usize] = i as u32;
            }
            let last = order
                .iter()
                .rposition(|&n| cycles.contains(c, n))
                .unwrap_or(0);
            let moved: Vec<u32> = order
                .iter()
                .copied()
                .filter(|n| exits.contains(n) && pos[*n as usize] as usize > last)
                .collect();
            order.retain(|n| !moved.contains(n) || pos[*n as usize] as usize <= last);
            let at = last + 1;
            let k = moved.len();
            order.splice(at..at, moved);
            region_end_of.insert(c, at + k);
        }
        let blocks: Vec<Block> = order.iter().map(|&n| cfg.blocks[n as usize]).collect();
        let mut position = SecondaryMap::with_default(u32::MAX);
        for (i, &b) in blocks.iter().enumerate() {
            position[b] = i as u32;
        }
        let mut region_end = SecondaryMap::with_default(u32::MAX);
        let mut cycle_of_entry = SecondaryMap::new();
        for &c in &ids {
            for &e in &cycles.cycle(c).entries {
                let b = cfg.blocks[e as usize];
                region_end[b] = region_end_of[&c] as u32;
                cycle_of_entry[b] = Some(c);
            }
        }
        Schedule {
            blocks,
            position,
            region_end,
            cycle_of_entry,
            cfg,
            cycles,
        }
    }

    /// Is the edge from `from` into `to` an edge inside `to`'s cycle (a back edge, or into
    /// another entry of an irreducible cycle from within it)?
    fn is_back_edge(&self, from: Block, to: Block) -> bool {
        let (Some(c), Some(f)) = (self.cycle_of_entry[to], self.cfg.node(from)) else {
            return false;
        };
        self.cycles.contains(c, f)
    }
}

/// The blocks outside cycle `c` in which the token of a `conv.loop` in its header is live or
/// used: the exit paths that still belong to one iteration.
fn heart_exit_blocks(ir: &Ir, cfg: &RegionCfg, cycles: &CycleInfo, c: CycleId) -> Vec<u32> {
    let header = cycles.cycle(c).header();
    let Some(heart) = ir
        .block_ops(cfg.blocks[header as usize])
        .find(|&o| ir.opcode(o) == Opcode::ConvLoop)
        .map(|o| ir.ops[o].results[0])
    else {
        return Vec::new();
    };
    let mut seen = vec![false; cfg.len()];
    let mut stack = Vec::new();
    for (n, &b) in cfg.blocks.iter().enumerate() {
        if !cycles.contains(c, n as u32)
            && ir.block_ops(b).any(|o| ir.ops[o].operands.contains(&heart))
        {
            seen[n] = true;
            stack.push(n as u32);
        }
    }
    let mut out = Vec::new();
    while let Some(n) = stack.pop() {
        out.push(n);
        for &p in &cfg.preds[n as usize] {
            if !seen[p as usize] && !cycles.contains(c, p) {
                seen[p as usize] = true;
                stack.push(p);
            }
        }
    }
    out
}

/// Sets up the lanes' values and runs `body` (from the kernel's entry block) once per
/// workgroup, in launch order, with fresh shared memory and step count.
fn each_workgroup(
    run: &mut Run,
    mem: &mut Mem,
    params: &[(u32, u64)],
    trace: Option<&mut dyn Write>,
    mut body: impl FnMut(&mut Simt, Block) -> Result<(), InterpError>,
) -> Result<(), InterpError> {
    let block = run.launch.block;
    let n = (block[0] * block[1] * block[2]) as usize;
    let mut vals = vec![0u64; run.prep.nslots * n];
    for &(slot, v) in params {
        if slot != NO_SLOT {
            vals[slot as usize * n..(slot as usize + 1) * n].fill(v);
        }
    }
    let grid = run.launch.grid;
    let func = run.prep.func;
    let region = run.prep.ir.ops[func].regions[0];
    let entry = run
        .prep
        .ir
        .entry_block(region)
        .expect("a kernel region has a block");
    let mut s = Simt {
        run,
        mem,
        n,
        vals,
        items: Vec::with_capacity(n),
        group: [0; 3],
        returned: Mask::default(),
        all: Mask::first(n),
        loops: Vec::new(),
        trace,
    };
    for group in workgroups(grid) {
        s.group = group;
        s.items = (0..n as u32)
            .map(|l| Item {
                group,
                local: local_id(block, l),
                linear: l,
            })
            .collect();
        s.returned = Mask::default();
        s.mem.reset_shared();
        // The step limit is per workgroup: a large grid is no deadlock.
        s.run.steps = 0;
        body(&mut s, entry)?;
    }
    Ok(())
}

impl<'p> Simt<'_, 'p, '_, '_> {
    /// One workgroup of CF-form IR: the block that comes first in the schedule's order among
    /// those lanes wait at runs next, with all of them. Lanes that take a back edge (or enter
    /// an irreducible cycle's entry from inside it) wait until no lane is left in the cycle's
    /// iteration region (the cycle and its heart's exit blocks): an iteration's lanes finish
    /// it together before the next one starts, as the structured engine runs a loop.
    fn cf(&mut self, entry: Block, sched: &Schedule) -> Result<(), InterpError> {
        use std::cmp::Reverse;
        let ir = self.run.prep.ir;
        let (blocks, position) = (&sched.blocks, &sched.position);
        let mut p = Pending::default();
        p.waiting[entry] = self.all;
        p.queue.push(Reverse((2 * position[entry], BLOCK, 0)));
        loop {
            let Some(Reverse((key, kind, at))) = p.queue.pop() else {
                let Some((b, barrier, m)) = self.release_held(&mut p.held)? else {
                    break;
                };
                p.queue.extend(p.parked.drain(..).map(Reverse));
                self.run_block(b, ir.next_op(barrier), m, sched, &mut p)?;
                continue;
            };
            if !p.held.is_empty() {
                // Lanes deferred to a cycle entry start another iteration: not while this
                // iteration's lanes wait at a barrier (those that took a back edge before it
                // went around it).
                let park = kind == RELEASE
                    || blocks
                        .get((key / 2) as usize)
                        .is_some_and(|&b| !p.may_run(b, sched));
                if park {
                    p.parked.push((key, kind, at));
                    continue;
                }
            }
            if kind == RELEASE {
                let e = blocks[at as usize];
                let m = std::mem::take(&mut p.deferred[e]);
                if m.is_empty() {
                    continue;
                }
                if p.waiting[e].is_empty() {
                    p.queue.push(Reverse((2 * position[e], BLOCK, 0)));
                }
                p.waiting[e] = p.waiting[e].or(m);
                continue;
            }
            let Some(&b) = blocks.get((key / 2) as usize) else {
                continue;
            };
            let m = std::mem::take(&mut p.waiting[b]).and_not(self.returned);
            if m.is_empty() {
                continue; // a stale entry, or lanes that all returned
            }
            self.run_block(b, ir.first_op(b), m, sched, &mut p)?;
        }
        Ok(())
    }

    /// Runs block `b` from op `from` with lanes `m` and queues where they go, or holds them
    /// at a barrier that some lanes left have not reached (`Pending::held`).
    fn run_block(
        &mut self,
        b: Block,
        from: Option<Op>,
        m: Mask,
        sched: &Schedule,
        p: &mut Pending,
    ) -> Result<(), InterpError> {
        use std::cmp::Reverse;
        let ir = self.run.prep.ir;
        let position = &sched.position;
        let mut taken = None;
        let mut cursor = from;
        while let Some(op) = cursor {
            cursor = ir.next_op(op);
            self.step(op, &m)?;
            let code = ir.opcode(op);
            match code {
                Opcode::Return => {
                    self.returned = self.returned.or(m);
                    taken = Some([Mask::default(), Mask::default()]);
                }
                Opcode::Br => {
                    self.pass_args(op, 0, &m);
                    taken = Some([m, Mask::default()]);
                }
                Opcode::CondBr => {
                    let cond = self.run.prep.info[op].args[0];
                    let mut t = Mask::default();
                    for w in 0..WORDS {
                        let mut bits = m.0[w];
                        while bits != 0 {
                            let i = bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            if self.val(cond, w * 64 + i) & 1 != 0 {
                                t.0[w] |= 1 << i;
                            }
                        }
                    }
                    let f = m.and_not(t);
                    self.pass_args(op, 0, &t);
                    self.pass_args(op, 1, &f);
                    taken = Some([t, f]);
                }
                Opcode::Barrier => {
                    if m != self.all.and_not(self.returned) {
                        p.held.push((b, op, m));
                        return Ok(());
                    }
                }
                Opcode::Ballot
                | Opcode::ReadFirstLane
                | Opcode::ReadLane
                | Opcode::Shuffle
                | Opcode::Reduce
                | Opcode::Scan => self.cross_lane(op, code, &m)?,
                Opcode::ConvEntry | Opcode::ConvAnchor | Opcode::ConvLoop => {}
                _ => self.lanes(op, code, &m)?,
            }
            if taken.is_some() {
                break;
            }
        }
        let Some(lanes) = taken else {
            // Verified CF blocks end in a terminator; falling off one ends the lanes.
            self.returned = self.returned.or(m);
            return Ok(());
        };
        let succs = &ir.ops[ir.terminator(b).expect("a terminator")].succs;
        for (s, lanes) in succs.iter().zip(lanes) {
            if lanes.is_empty() {
                continue;
            }
            if sched.is_back_edge(b, s.block) {
                let release = 2 * sched.region_end[s.block] - 1;
                if p.deferred[s.block].is_empty() {
                    p.queue.push(Reverse((release, RELEASE, position[s.block])));
                }
                p.deferred[s.block] = p.deferred[s.block].or(lanes);
                continue;
            }
            let target = &mut p.waiting[s.block];
            if target.is_empty() {
                p.queue.push(Reverse((2 * position[s.block], BLOCK, 0)));
            }
            *target = target.or(lanes);
        }
        Ok(())
    }

    /// Writes successor `succ`'s arguments of branch `op` into its block's arguments, for the
    /// lanes of `m` (each lane reads all its arguments before writing any).
    fn pass_args(&mut self, op: Op, succ: usize, m: &Mask) {
        let prep = self.run.prep;
        let s = &prep.ir.ops[op].succs[succ];
        let params = &prep.ir.blocks[s.block].args;
        if params.is_empty() || m.is_empty() {
            return;
        }
        let mut copy = Vec::with_capacity(params.len());
        for w in 0..WORDS {
            let mut bits = m.0[w];
            while bits != 0 {
                let lane = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                copy.clear();
                copy.extend(s.args.iter().map(|&v| self.val(prep.slot[v], lane)));
                for (&p, &v) in params.iter().zip(copy.iter()) {
                    let slot = prep.slot[p];
                    if slot != NO_SLOT {
                        self.vals[slot as usize * self.n + lane] = v;
                    }
                }
            }
        }
    }

    fn err(&self, op: Op, lane: usize, message: String) -> InterpError {
        InterpError {
            loc: self.run.prep.ir.ops[op].loc,
            message,
            work_item: Some(self.items[lane].work_item()),
        }
    }

    fn val(&self, slot: u32, lane: usize) -> u64 {
        if slot == NO_SLOT {
            0
        } else {
            self.vals[slot as usize * self.n + lane]
        }
    }

    /// Counts one execution of `op` by the waves of `m`; enforces the step limit; traces.
    fn step(&mut self, op: Op, m: &Mask) -> Result<(), InterpError> {
        let waves = m.waves();
        let run = &mut *self.run;
        run.counts.ops += waves;
        run.counts.lane_ops += m.count();
        run.steps += waves;
        if run.counts.ops > run.max_total_steps {
            return Err(run.out_of_budget(run.prep.ir.ops[op].loc));
        }
        if run.steps > run.max_steps {
            let ir = run.prep.ir;
            let in_loop = self.loops.last().map(|&l| ir.ops[l].loc);
            return Err(run.out_of_steps(in_loop, ir.ops[op].loc));
        }
        if let Some(t) = self.trace.as_deref_mut() {
            let ir = self.run.prep.ir;
            let loc = ir.ops[op].loc;
            let [x, y, z] = self.group;
            for (w, &bits) in m.0.iter().enumerate().filter(|(_, &b)| b != 0) {
                // A trace that cannot be written ends the run (the caller owns the writer
                // and reports why).
                writeln!(
                    t,
                    "wg ({x}, {y}, {z}) wave {w} {bits:064b} {} {}:{}",
                    ir.spec(op).name,
                    loc.line,
                    loc.col
                )
                .map_err(|e| {
                    InterpError::new(Loc::UNKNOWN, format!("cannot write the trace: {e}"))
                })?;
            }
        }
        Ok(())
    }

    /// Runs `b` with lanes `m`; returns where the lanes went (returns go to `self.returned`).
    /// Regions nest to any depth: the blocks being run wait on a stack of [`Frame`]s, each
    /// knowing which construct it is running a region of, instead of on the call stack.
    fn block(&mut self, b: Block, m: Mask) -> Result<Exits, InterpError> {
        let ir = self.run.prep.ir;
        let mut frames = vec![Frame::new(ir.first_op(b), m)];
        loop {
            let top = frames.last_mut().expect("a block is running");
            match self.advance(top)? {
                Step::Run(child) => frames.push(child),
                Step::Done(ex) => {
                    frames.pop();
                    let Some(parent) = frames.last_mut() else {
                        return Ok(ex);
                    };
                    if let Some(child) = self.resume(parent, ex) {
                        frames.push(child);
                    }
                }
            }
        }
    }

    /// Runs the ops of `f`'s block until it ends or an `if` or a loop needs a region run.
    fn advance(&mut self, f: &mut Frame) -> Result<Step, InterpError> {
        let ir = self.run.prep.ir;
        while let Some(op) = f.next {
            if f.m.is_empty() {
                return Ok(Step::Done(std::mem::take(&mut f.ex)));
            }
            f.next = ir.next_op(op);
            self.step(op, &f.m)?;
            let code = ir.opcode(op);
            match code {
                Opcode::If => {
                    let cond = self.run.prep.info[op].args[0];
                    let mut then = Mask::default();
                    for w in 0..WORDS {
                        let mut bits = f.m.0[w];
                        while bits != 0 {
                            let i = bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            if self.val(cond, w * 64 + i) & 1 != 0 {
                                then.0[w] |= 1 << i;
                            }
                        }
                    }
                    let els = f.m.and_not(then);
                    f.waiting = Waiting::If {
                        op,
                        side: 0,
                        lanes: [then, els],
                        after: Mask::default(),
                    };
                    if let Some(child) = self.next_if_side(f) {
                        return Ok(Step::Run(child));
                    }
                }
                Opcode::Loop => {
                    self.loops.push(op);
                    f.waiting = Waiting::Loop {
                        op,
                        out: Mask::default(),
                        in_latch: false,
                    };
                    return Ok(Step::Run(self.region_frame(op, 0, f.m)));
                }
                Opcode::Yield => {
                    f.ex.normal = f.ex.normal.or(f.m);
                    return Ok(Step::Done(std::mem::take(&mut f.ex)));
                }
                Opcode::Break => {
                    f.ex.brk = f.ex.brk.or(f.m);
                    return Ok(Step::Done(std::mem::take(&mut f.ex)));
                }
                Opcode::Continue => {
                    f.ex.cont = f.ex.cont.or(f.m);
                    return Ok(Step::Done(std::mem::take(&mut f.ex)));
                }
                Opcode::Return => {
                    self.returned = self.returned.or(f.m);
                    return Ok(Step::Done(std::mem::take(&mut f.ex)));
                }
                Opcode::Barrier => self.barrier(op, &f.m)?,
                Opcode::Ballot
                | Opcode::ReadFirstLane
                | Opcode::ReadLane
                | Opcode::Shuffle
                | Opcode::Reduce
                | Opcode::Scan => self.cross_lane(op, code, &f.m)?,
                Opcode::ConvEntry | Opcode::ConvAnchor | Opcode::ConvLoop => {}
                _ => self.lanes(op, code, &f.m)?,
            }
        }
        // A block without a terminator (not in verified IR) falls through.
        f.ex.normal = f.ex.normal.or(f.m);
        Ok(Step::Done(std::mem::take(&mut f.ex)))
    }

    /// A frame running region `index` of `op` with lanes `m`.
    fn region_frame(&self, op: Op, index: usize, m: Mask) -> Frame {
        let ir = self.run.prep.ir;
        let b = ir
            .entry_block(ir.ops[op].regions[index])
            .expect("a structured region has a block");
        Frame::new(ir.first_op(b), m)
    }

    /// The next side of the `if` `f` waits on that has lanes; if none, the `if` is done and
    /// `f` continues with the lanes that reached the end of a side.
    fn next_if_side(&self, f: &mut Frame) -> Option<Frame> {
        let Waiting::If {
            op,
            side,
            lanes,
            after,
        } = &mut f.waiting
        else {
            return None;
        };
        while *side < 2 {
            let m = lanes[*side];
            if !m.is_empty() {
                return Some(self.region_frame(*op, *side, m));
            }
            *side += 1;
        }
        f.m = *after;
        f.waiting = Waiting::Nothing;
        None
    }

    /// A region `parent` waited on ended with `ex`: the next region to run, if any.
    fn resume(&mut self, parent: &mut Frame, ex: Exits) -> Option<Frame> {
        match &mut parent.waiting {
            Waiting::Nothing => None,
            Waiting::If { side, after, .. } => {
                *after = after.or(ex.normal);
                *side += 1;
                parent.ex.brk = parent.ex.brk.or(ex.brk);
                parent.ex.cont = parent.ex.cont.or(ex.cont);
                self.next_if_side(parent)
            }
            Waiting::Loop { op, out, in_latch } => {
                // The body ended: the lanes that finished it or continued run the latch; the
                // latch ended: those that reached its end go round again.
                *out = out.or(ex.brk);
                let next = ex.normal.or(ex.cont);
                let op = *op;
                if next.is_empty() {
                    parent.m = *out;
                    parent.waiting = Waiting::Nothing;
                    self.loops.pop();
                    return None;
                }
                *in_latch = !*in_latch;
                let index = usize::from(*in_latch);
                Some(self.region_frame(op, index, next))
            }
        }
    }

    /// Once nothing else can run: the lanes held at the earliest held barrier, if they are
    /// every lane that has not returned (they pass it), else the divergent-barrier error.
    fn release_held(
        &self,
        held: &mut Vec<(Block, Op, Mask)>,
    ) -> Result<Option<(Block, Op, Mask)>, InterpError> {
        let Some(&(b, op, _)) = held.first() else {
            return Ok(None);
        };
        // Lanes normally reach a barrier in one run of its block (the earliest block runs with
        // every lane waiting there); the union covers any later arrival at the same barrier.
        let m = held
            .iter()
            .filter(|h| h.1 == op)
            .fold(Mask::default(), |acc, h| acc.or(h.2));
        self.barrier(op, &m)?;
        held.clear();
        Ok(Some((b, op, m)))
    }

    /// `kernel.barrier` with lanes `m`: every lane of the workgroup that has not returned.
    fn barrier(&self, op: Op, m: &Mask) -> Result<(), InterpError> {
        let ir = self.run.prep.ir;
        let live = self.all.and_not(self.returned);
        if *m == live {
            return Ok(());
        }
        let missing = live.and_not(*m);
        let lane = (0..self.n)
            .find(|&l| missing.0[l / 64] >> (l % 64) & 1 != 0)
            .unwrap_or(0);
        let w = self.items[lane].local;
        let g = self.group;
        Err(InterpError {
            loc: ir.ops[op].loc,
            message: format!(
                "barrier in divergent control flow: {} of the {} work-items of workgroup ({}, {}, {}) that have not returned reach it; work-item ({}, {}, {}) does not",
                m.count(),
                live.count(),
                g[0],
                g[1],
                g[2],
                w[0],
                w[1],
                w[2]
            ),
            work_item: None,
        })
    }

    /// A lane-local op for every lane of `m`, in increasing lane order.
    fn lanes(&mut self, op: Op, code: Opcode, m: &Mask) -> Result<(), InterpError> {
        let prep: &'p super::Prep<'p> = self.run.prep;
        let info = &prep.info[op];
        let dest = info.dest;
        let args = info.args;
        for w in 0..WORDS {
            let mut bits = m.0[w];
            while bits != 0 {
                let lane = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let a = [
                    self.val(args[0], lane),
                    self.val(args[1], lane),
                    self.val(args[2], lane),
                ];
                let item = self.items[lane];
                let r = super::eval_op(self.run, self.mem, op, code, info, a, &item)
                    .map_err(|msg| self.err(op, lane, msg))?;
                if dest != NO_SLOT {
                    self.vals[dest as usize * self.n + lane] = r;
                }
            }
        }
        Ok(())
    }

    /// `ballot`, `readfirstlane`, `readlane`, `shuffle`, `reduce`, `scan`, one wave at a time
    /// over its active lanes.
    fn cross_lane(&mut self, op: Op, code: Opcode, m: &Mask) -> Result<(), InterpError> {
        let info = self.run.prep.info[op].clone();
        let (src, lane_arg, dest) = (info.args[0], info.args[1], info.dest);
        let bits = info.rbits as u32;
        for w in 0..WORDS {
            let active = m.0[w];
            if active == 0 {
                continue;
            }
            let base = w * 64;
            let lanes = || {
                let mut b = active;
                std::iter::from_fn(move || {
                    (b != 0).then(|| {
                        let i = b.trailing_zeros() as usize;
                        b &= b - 1;
                        base + i
                    })
                })
            };
            // One value for the whole wave (ballot, readfirstlane, reduce), or per lane.
            let uniform = match code {
                Opcode::Ballot => Some(
                    lanes()
                        .filter(|&l| self.val(src, l) & 1 != 0)
                        .fold(0u64, |acc, l| acc | 1 << (l - base)),
                ),
                Opcode::ReadFirstLane => {
                    Some(self.val(src, base + active.trailing_zeros() as usize))
                }
                Opcode::Reduce => {
                    let mut it = lanes();
                    let first = it.next().map_or(0, |l| self.val(src, l));
                    Some(it.fold(first, |acc, l| {
                        eval::reduce_step(info.attr, acc, self.val(src, l), bits)
                    }))
                }
                _ => None,
            };
            if let Some(v) = uniform {
                for l in lanes() {
                    self.vals[dest as usize * self.n + l] = v;
                }
                continue;
            }
            if code == Opcode::Scan {
                // Inclusive prefix in lane order: lane l folds the active lanes at or below it,
                // lowest first (as `reduce` folds them all).
                let mut acc: Option<u64> = None;
                for l in lanes() {
                    let x = self.val(src, l);
                    let v = acc.map_or(x, |a| eval::reduce_step(info.attr, a, x, bits));
                    acc = Some(v);
                    self.vals[dest as usize * self.n + l] = v;
                }
                continue;
            }
            // readlane / shuffle: read every source first (dest is a fresh SSA slot anyway).
            let mut got = [0u64; 64];
            for l in lanes() {
                let from = eval::sext(self.val(lane_arg, l), 32);
                let ok = (0..64).contains(&from) && active >> from & 1 != 0;
                if !ok {
                    let why = if (0..64).contains(&from) {
                        "an inactive lane"
                    } else {
                        "not a lane of the wave (0..64)"
                    };
                    return Err(self.err(
                        op,
                        l,
                        format!("`{}` reads lane {from}, which is {why}", code.name()),
                    ));
                }
                got[l - base] = self.val(src, base + from as usize);
            }
            for l in lanes() {
                self.vals[dest as usize * self.n + l] = got[l - base];
            }
        }
        Ok(())
    }
}
