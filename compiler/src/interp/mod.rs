//! The reference interpreter: what a kernel means.
//!
//! [`run`] executes one kernel (`kernel.func`) of an [`Ir`] on a grid of workgroups, one
//! workgroup after another in order (x fastest, then y, then z), and returns how much work it
//! did. Guarantees:
//!
//! - **Structured IR** (the IR after lowering and `insert_tokens`: `kernel.if`, `kernel.loop`,
//!   `kernel.var/get/set`) runs a whole workgroup in lockstep under a per-lane active mask
//!   (maximal convergence): an `if` runs its then-region with the lanes whose condition holds,
//!   then its else-region with the others, and continues with the union of the lanes that
//!   reach its end; a loop runs until no lane is left in it; `break` / `continue` / `return`
//!   remove lanes until the loop exit, the latch, or the end of the kernel. Cross-lane ops
//!   (`ballot`, `readfirstlane`, `readlane`, `shuffle`, `reduce`, `scan`) see the active lanes of their
//!   wave: 64 consecutive lanes by linear local id `x + y*bx + z*bx*by`. A `barrier` needs
//!   every lane of the workgroup that has not returned. See `simt.rs`.
//! - **CF-form IR** ([`Ir::is_cf_kernel`]) runs thread by thread, each work-item to
//!   completion in linear order (`thread.rs`), unless it has cross-lane ops or barriers: then
//!   whole workgroups run in lockstep: the earliest block (in a topological order with each
//!   loop contiguous) where lanes wait runs next with all of them, so lanes that a branch
//!   sends apart meet again at the first block both reach, and one loop iteration's lanes
//!   finish it (its heart's exit paths included) before the next starts (for the structured
//!   CFGs of `.k` sources and of `scf`, the reconvergence of structured IR), see `simt.rs`.
//! - Arithmetic is LANGUAGE.md's (see `eval.rs`). What LANGUAGE.md leaves undefined is an
//!   error here rather than a value: out-of-bounds accesses, integer division or remainder by
//!   zero, `MIN / -1`, reading an inactive or nonexistent lane with `shuffle`/`readlane`, a
//!   barrier in divergent control flow. Errors carry the op's source location and the
//!   work-item; nothing panics on verified IR.
//! - Every run is deterministic: lanes of one op execute in increasing lane order (so atomics
//!   and racing stores resolve the same way every time).
//! - Memory orderings: every access takes effect when its op executes, in one global order
//!   (sequential consistency), so the `ordering` and `scope` of atomics do not change what
//!   they compute, and `kernel.fence` does nothing: whatever a fence or an acquire/release
//!   atomic guarantees on the hardware already holds here. (A relaxed program the hardware
//!   may run differently, say a flag published without a release, gets the result of this
//!   one order; the simulator, which also has no caches, agrees.)
//! - A run stops with an error once a workgroup takes more than [`Limits::max_steps`] steps
//!   (one op executed by one wave) for structured IR, or a work-item more than that many ops
//!   for CF IR: e.g. a SIMT deadlock such as `examples/spinlock.k`. The error names the loop
//!   running, and says when none is (a workgroup whose work exceeds the limit is no
//!   deadlock); the count starts again for every workgroup (work-item), so a large grid
//!   never trips it. [`Limits::max_total_steps`] bounds the whole run instead.
//! - Cost is linear in the number of lane-ops executed: slots, decoded attributes and operand
//!   slots are computed once per run (`Prep`).
//!
//! Values are `u64` bit patterns, canonical for their type: zero above the type's width (`i1`
//! is 0 or 1, `i32`/`f32` use the low 32 bits). Pointers are an object id (a buffer of
//! [`Memory`], or a `kernel.shared_alloc` of the kernel, allocated zeroed per workgroup) in the
//! high 16 bits and a signed 48-bit element offset.

mod simt;
mod thread;

#[cfg(test)]
mod tests;

use cranelift_entity::SecondaryMap;
use kc_dialect::attrs::Attr;
use kc_dialect::entities::{Op, Value};
use kc_dialect::ir::{Event, Ir};
use kc_dialect::location::Loc;
use kc_dialect::registry::{Opcode, ATOMIC_KINDS, DIMS, REDUCE_KINDS};
use kc_dialect::types::{AddrSpace, Scalar, Type};
use std::fmt;
use std::io::Write;

use kc_dialect::eval;
pub use kc_dialect::eval::WAVE_SIZE;
/// Largest workgroup, in work-items (gfx942's limit).
pub const MAX_WORKGROUP_SIZE: u32 = 1024;
/// Default for [`Limits::max_steps`].
pub const DEFAULT_MAX_STEPS: u64 = 50_000_000;

/// Launch geometry: `grid` in workgroups, `block` in work-items, both `[x, y, z]`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    pub grid: [u32; 3],
    pub block: [u32; 3],
}

/// The value bound to one kernel parameter.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ArgValue {
    /// A scalar's bit pattern (masked to the parameter's width).
    Scalar(u64),
    /// A `ptr<global, T>` parameter: index into [`Memory::buffers`].
    Buffer(usize),
}

/// A global buffer: its element type and one bit pattern per element.
#[derive(Clone, Debug, PartialEq)]
pub struct Buffer {
    pub elem: Scalar,
    pub data: Vec<u64>,
}

/// Global memory: the buffers the kernel's pointer parameters refer to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Memory {
    pub buffers: Vec<Buffer>,
}

/// Work done by a run.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Ops executed: once per wave that executes an op (structured IR), once per work-item
    /// (CF IR).
    pub ops: u64,
    /// Ops executed, counted once per lane.
    pub lane_ops: u64,
}

/// Resource limits of a run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Steps (see [`Counts::ops`]) of one workgroup (of one work-item for CF IR) after which
    /// a run is stopped with an error.
    pub max_steps: u64,
    /// Steps over the whole grid after which a run is stopped with an error (`u64::MAX`:
    /// none): a bound on the run's time, whatever the grid.
    pub max_total_steps: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: DEFAULT_MAX_STEPS,
            max_total_steps: u64::MAX,
        }
    }
}

/// The work-item an error happened in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WorkItem {
    pub workgroup: [u32; 3],
    pub local: [u32; 3],
}

/// A run-time error: what went wrong, at which op (its source location), in which work-item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InterpError {
    pub loc: Loc,
    pub message: String,
    pub work_item: Option<WorkItem>,
}

impl InterpError {
    fn new(loc: Loc, message: impl Into<String>) -> InterpError {
        InterpError {
            loc,
            message: message.into(),
            work_item: None,
        }
    }
}

impl fmt::Display for InterpError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.loc.is_known() {
            write!(f, "{}:{}: ", self.loc.line, self.loc.col)?;
        }
        f.write_str(&self.message)?;
        if let Some(w) = self.work_item {
            write!(f, " (in {})", describe_work_item(w))?;
        }
        Ok(())
    }
}

impl std::error::Error for InterpError {}

/// `work-item (3, 0, 0) of workgroup (1, 0, 0)`.
pub fn describe_work_item(w: WorkItem) -> String {
    let [x, y, z] = w.local;
    let [a, b, c] = w.workgroup;
    format!("work-item ({x}, {y}, {z}) of workgroup ({a}, {b}, {c})")
}

/// How a kernel is executed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Structured IR: whole workgroups in lockstep under an active mask.
    Lockstep,
    /// CF-form IR: one work-item at a time.
    ThreadByThread,
    /// CF-form IR with cross-lane ops or barriers: whole workgroups in lockstep, lanes that
    /// branch apart meeting again at the first block both reach (see `simt.rs`).
    LockstepCf,
}

/// How [`run`] would execute `func`, or why it cannot.
pub fn mode(ir: &Ir, func: Op) -> Result<Mode, InterpError> {
    if ir.opcode(func) != Opcode::Func {
        return Err(InterpError::new(
            ir.ops[func].loc,
            format!("`{}` is not a kernel", ir.spec(func).name),
        ));
    }
    // Straight-line code (one block, no branch) is both forms: lockstep evaluates its
    // cross-lane ops.
    let one_block = ir.ops[func]
        .regions
        .first()
        .is_some_and(|&r| ir.region_blocks(r).count() == 1);
    let mut branch = None;
    ir.walk(func, &mut |o| {
        if branch.is_none() && matches!(ir.opcode(o), Opcode::Br | Opcode::CondBr) {
            branch = Some(o);
        }
    });
    if one_block && branch.is_none() {
        return Ok(Mode::Lockstep);
    }
    if !ir.is_cf_kernel(func) {
        return Err(InterpError::new(
            branch.map_or(ir.ops[func].loc, |o| ir.ops[o].loc),
            format!(
                "kernel `{}` is neither structured (one block of structured ops) nor in CF form; cannot interpret it",
                ir.func_name(func)
            ),
        ));
    }
    let mut bad = None;
    ir.walk(func, &mut |o| {
        if bad.is_none() && is_cross_lane(ir.opcode(o)) {
            bad = Some(o);
        }
    });
    Ok(match bad {
        None => Mode::ThreadByThread,
        Some(_) => Mode::LockstepCf,
    })
}

/// The first cross-lane op or barrier of `func`, which one work-item alone cannot evaluate:
/// the error of a thread-by-thread schedule asked for a kernel that has one.
pub fn thread_by_thread_error(ir: &Ir, func: Op) -> Option<InterpError> {
    let mut bad = None;
    ir.walk(func, &mut |o| {
        if bad.is_none() && is_cross_lane(ir.opcode(o)) {
            bad = Some(o);
        }
    });
    bad.map(|o| {
        InterpError::new(
            ir.ops[o].loc,
            format!(
                "thread-by-thread execution cannot evaluate cross-lane op `{}`",
                ir.spec(o).name
            ),
        )
    })
}

/// Ops that need the other lanes of the wave or workgroup.
fn is_cross_lane(code: Opcode) -> bool {
    matches!(
        code,
        Opcode::Barrier
            | Opcode::Ballot
            | Opcode::ReadFirstLane
            | Opcode::ReadLane
            | Opcode::Shuffle
            | Opcode::Reduce
            | Opcode::Scan
    )
}

/// Runs `func` on `launch` with `args` (one per kernel parameter) over `mem`; the buffers are
/// updated in place.
pub fn run(
    ir: &Ir,
    func: Op,
    launch: &Launch,
    args: &[ArgValue],
    mem: &mut Memory,
    limits: &Limits,
) -> Result<Counts, InterpError> {
    run_traced(ir, func, launch, args, mem, limits, None)
}

/// [`run`], writing to `trace` one line per op executed by a wave (structured IR only):
/// workgroup, wave, the wave's active mask in binary (lane 0 on the right), op and location.
pub fn run_traced(
    ir: &Ir,
    func: Op,
    launch: &Launch,
    args: &[ArgValue],
    mem: &mut Memory,
    limits: &Limits,
    trace: Option<&mut dyn Write>,
) -> Result<Counts, InterpError> {
    let mode = mode(ir, func)?;
    check_launch(ir.ops[func].loc, launch)?;
    let prep = Prep::new(ir, func, mem.buffers.len())?;
    let params = bind_args(ir, func, &prep, args, mem)?;
    let names = object_names(ir, &prep, args, mem.buffers.len());
    let shared = prep.shared.iter().map(|&(_, len)| vec![0; len]).collect();
    let mut memory = Mem {
        global: &mut mem.buffers,
        shared,
        names,
    };
    let mut run = Run {
        prep: &prep,
        launch: *launch,
        counts: Counts::default(),
        steps: 0,
        max_steps: limits.max_steps,
        max_total_steps: limits.max_total_steps,
    };
    match mode {
        Mode::Lockstep => simt::run(&mut run, &mut memory, &params, trace)?,
        Mode::ThreadByThread => thread::run(&mut run, &mut memory, &params)?,
        Mode::LockstepCf => simt::run_cf(&mut run, &mut memory, &params, trace)?,
    }
    Ok(run.counts)
}

fn check_launch(loc: Loc, l: &Launch) -> Result<(), InterpError> {
    if l.grid.contains(&0) || l.block.contains(&0) {
        return Err(InterpError::new(
            loc,
            "grid and block dimensions must be at least 1",
        ));
    }
    let size = l.block.iter().map(|&d| d as u64).product::<u64>();
    if size > MAX_WORKGROUP_SIZE as u64 {
        return Err(InterpError::new(
            loc,
            format!(
                "a workgroup of {size} work-items is larger than the maximum {MAX_WORKGROUP_SIZE}"
            ),
        ));
    }
    Ok(())
}

// ---- per-run state shared by both executors ----

/// A run in progress: the prepared kernel, geometry, counters.
struct Run<'p> {
    prep: &'p Prep<'p>,
    launch: Launch,
    counts: Counts,
    steps: u64,
    max_steps: u64,
    max_total_steps: u64,
}

impl Run<'_> {
    /// The error ending a run that spent its budget over the grid at the op at `at`.
    fn out_of_budget(&self, at: Loc) -> InterpError {
        InterpError::new(
            at,
            format!(
                "stopped after {} steps over the grid, the run's budget (a large grid, not a \
                 deadlock)",
                self.counts.ops
            ),
        )
    }

    /// The error ending a lockstep run whose workgroup exceeded the step limit at the op at
    /// `at`: a possible SIMT deadlock in the innermost running loop (`in_loop`); with no loop
    /// running, only a workgroup too big for the limit.
    fn out_of_steps(&self, in_loop: Option<Loc>, at: Loc) -> InterpError {
        let ir = self.prep.ir;
        let place = |loc: Loc| format!("{}:{}:{}", ir.file_name(loc.file), loc.line, loc.col);
        match in_loop {
            Some(l) => {
                let where_ = if l.is_known() {
                    format!(" in loop at {}", place(l))
                } else {
                    String::new()
                };
                InterpError::new(
                    if l.is_known() { l } else { Loc::UNKNOWN },
                    format!(
                        "no progress after {} steps (possible SIMT deadlock){where_}",
                        self.max_steps
                    ),
                )
            }
            None => InterpError::new(
                at,
                format!(
                    "a workgroup took more than {} steps, outside any loop (not a deadlock: \
                     its work exceeds the step limit)",
                    self.max_steps
                ),
            ),
        }
    }

    /// The error ending a thread-by-thread run (CF IR, where loops are not marked) whose
    /// work-item exceeded the step limit at the op at `at`.
    fn out_of_steps_cf(&self, at: Loc) -> InterpError {
        InterpError::new(
            at,
            format!(
                "no progress after {} steps of one work-item (a loop that never ends?)",
                self.max_steps
            ),
        )
    }
}

/// Geometry of one work-item.
#[derive(Copy, Clone, Debug)]
struct Item {
    group: [u32; 3],
    local: [u32; 3],
    /// Linear local id `x + y*bx + z*bx*by`.
    linear: u32,
}

impl Item {
    fn work_item(&self) -> WorkItem {
        WorkItem {
            workgroup: self.group,
            local: self.local,
        }
    }
}

/// Local id of linear local id `l` in a workgroup of shape `block`.
fn local_id(block: [u32; 3], l: u32) -> [u32; 3] {
    [
        l % block[0],
        (l / block[0]) % block[1],
        l / (block[0] * block[1]),
    ]
}

/// Workgroup ids in launch order: x fastest.
fn workgroups(grid: [u32; 3]) -> impl Iterator<Item = [u32; 3]> {
    (0..grid[2])
        .flat_map(move |z| (0..grid[1]).flat_map(move |y| (0..grid[0]).map(move |x| [x, y, z])))
}

// ---- memory ----

const OFFSET_BITS: u32 = 48;
const OFFSET_MASK: u64 = (1 << OFFSET_BITS) - 1;
/// The offset of a pointer moved outside the 48-bit range: always out of bounds.
const POISON_OFFSET: i64 = -(1 << (OFFSET_BITS - 1));
/// Most memory objects (buffers plus shared arrays) a run can address.
const MAX_OBJECTS: usize = 1 << (64 - OFFSET_BITS);

fn pointer(obj: usize, offset: i64) -> u64 {
    ((obj as u64) << OFFSET_BITS) | (offset as u64 & OFFSET_MASK)
}

fn pointer_parts(p: u64) -> (usize, i64) {
    (
        (p >> OFFSET_BITS) as usize,
        eval::sext(p & OFFSET_MASK, OFFSET_BITS),
    )
}

/// `&p[idx]`; a result outside the offset range is poisoned (every access is out of bounds).
fn pointer_add(p: u64, idx: i64) -> u64 {
    let (obj, off) = pointer_parts(p);
    let lim = 1i64 << (OFFSET_BITS - 1);
    let off = match off.checked_add(idx) {
        Some(o) if (-lim..lim).contains(&o) && off != POISON_OFFSET => o,
        _ => POISON_OFFSET,
    };
    pointer(obj, off)
}

/// Global buffers and this workgroup's shared arrays.
struct Mem<'m> {
    global: &'m mut Vec<Buffer>,
    shared: Vec<Vec<u64>>,
    /// For messages: `buffer `out`` / `shared array `tile``, by object id.
    names: Vec<String>,
}

impl Mem<'_> {
    /// Zeroes the shared arrays (a new workgroup).
    fn reset_shared(&mut self) {
        for s in &mut self.shared {
            s.fill(0);
        }
    }

    /// The element `p[idx]`.
    fn cell(&mut self, p: u64, idx: i64) -> Result<&mut u64, String> {
        let (obj, off) = pointer_parts(p);
        let nglobal = self.global.len();
        let data = if obj < nglobal {
            &mut self.global[obj].data
        } else {
            match self.shared.get_mut(obj - nglobal) {
                Some(d) => d,
                None => return Err("access through an invalid pointer".into()),
            }
        };
        let e = off as i128 + idx as i128;
        if e < 0 || e >= data.len() as i128 {
            let name = self.names.get(obj).map_or("memory", String::as_str);
            return Err(format!(
                "index {e} out of bounds for {name} of {} elements",
                data.len()
            ));
        }
        Ok(&mut data[e as usize])
    }
}

// ---- prepared kernel ----

/// No slot: the value is a token (ignored) or the op has no destination.
const NO_SLOT: u32 = u32::MAX;

/// What each op needs at run time, decoded once.
#[derive(Clone, Debug)]
struct OpInfo {
    /// Slots of the non-token operands, in order.
    args: [u32; 3],
    /// Where the result goes: the result's slot, or for `kernel.set` the variable's slot.
    dest: u32,
    /// The decoded keyword attribute: constant bits, predicate, dimension, kind index, or
    /// for `shared_alloc` its ordinal.
    attr: u64,
    /// Width of operand 0 when it is a scalar (the source of casts and compares).
    sbits: u8,
    /// Width of the result (the element for memory ops).
    rbits: u8,
    /// Width of the index operand of `load` / `store` / `ptr_offset`.
    ibits: u8,
}

impl Default for OpInfo {
    fn default() -> Self {
        OpInfo {
            args: [NO_SLOT; 3],
            dest: NO_SLOT,
            attr: 0,
            sbits: 0,
            rbits: 0,
            ibits: 0,
        }
    }
}

/// A kernel prepared for execution: one value slot per SSA value, decoded ops.
struct Prep<'a> {
    ir: &'a Ir,
    func: Op,
    slot: SecondaryMap<Value, u32>,
    nslots: usize,
    info: SecondaryMap<Op, OpInfo>,
    /// Shared arrays by ordinal: element type and length.
    shared: Vec<(Scalar, usize)>,
    /// Shared array names by ordinal.
    shared_names: Vec<String>,
    /// Number of global buffers: object id of shared array `k` is `nglobal + k`.
    nglobal: usize,
}

fn scalar_bits(t: Type) -> u8 {
    match t {
        Type::Scalar(s) => s.bits() as u8,
        _ => 0,
    }
}

impl<'a> Prep<'a> {
    fn new(ir: &'a Ir, func: Op, nglobal: usize) -> Result<Prep<'a>, InterpError> {
        let mut p = Prep {
            ir,
            func,
            slot: SecondaryMap::with_default(NO_SLOT),
            nslots: 0,
            info: SecondaryMap::new(),
            shared: Vec::new(),
            shared_names: Vec::new(),
            nglobal,
        };
        p.prepare(func)?;
        if nglobal + p.shared.len() > MAX_OBJECTS {
            return Err(InterpError::new(
                ir.ops[func].loc,
                "too many buffers and shared arrays",
            ));
        }
        Ok(p)
    }

    fn new_slot(&mut self, v: Value) {
        if self.ir.value_type(v) != Type::Token {
            self.slot[v] = self.nslots as u32;
            self.nslots += 1;
        }
    }

    /// Gives slots to the values defined in `op`'s regions and decodes their ops, in one
    /// walk (definitions before uses).
    fn prepare(&mut self, op: Op) -> Result<(), InterpError> {
        let ir = self.ir;
        for event in ir.events(op) {
            match event {
                Event::Block(b) => {
                    for &a in &ir.blocks[b].args {
                        self.new_slot(a);
                    }
                }
                Event::Op(o) if o != op => {
                    for &v in &ir.ops[o].results {
                        self.new_slot(v);
                    }
                    self.decode(o)?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn decode(&mut self, o: Op) -> Result<(), InterpError> {
        let ir = self.ir;
        let data = &ir.ops[o];
        let mut info = OpInfo::default();
        let mut n = 0;
        for &v in &data.operands {
            if ir.value_type(v) == Type::Token {
                continue;
            }
            if n == 3 {
                return Err(InterpError::new(
                    data.loc,
                    format!("`{}` has too many operands", data.opcode.name()),
                ));
            }
            info.args[n] = self.slot[v];
            n += 1;
        }
        info.dest = match data.opcode {
            Opcode::Set => data.operands.first().map_or(NO_SLOT, |&v| self.slot[v]),
            _ => data.results.first().map_or(NO_SLOT, |&v| self.slot[v]),
        };
        info.sbits = data
            .operands
            .first()
            .map_or(0, |&v| scalar_bits(ir.value_type(v)));
        info.rbits = data
            .results
            .first()
            .map_or(0, |&v| scalar_bits(ir.value_type(v)));
        let index = match data.opcode {
            Opcode::Load | Opcode::PtrOffset => data.operands.get(1),
            Opcode::Store => {
                // The element width of a store is its value's.
                info.rbits = info.sbits;
                data.operands.get(2)
            }
            _ => None,
        };
        info.ibits = index.map_or(0, |&v| scalar_bits(ir.value_type(v)));
        let bad = |what: &str| {
            InterpError::new(
                data.loc,
                format!("`{}` has an invalid {what}", data.opcode.name()),
            )
        };
        let str_attr = |name: &str, table: &[&str]| -> Result<u64, InterpError> {
            ir.attr(o, name)
                .and_then(Attr::as_str)
                .and_then(|s| table.iter().position(|t| *t == s))
                .map(|i| i as u64)
                .ok_or_else(|| bad(name))
        };
        info.attr = match data.opcode {
            Opcode::Constant => match ir.attr(o, "value") {
                Some(Attr::Int(v, _)) => *v as u64 & eval::mask(info.rbits as u32),
                Some(Attr::Float(f)) => f.to_bits() as u64,
                _ => return Err(bad("value")),
            },
            Opcode::CmpI | Opcode::CmpF => ir
                .attr(o, "predicate")
                .and_then(Attr::as_int)
                .map(|p| p as u64)
                .ok_or_else(|| bad("predicate"))?,
            Opcode::WorkitemId
            | Opcode::WorkgroupId
            | Opcode::WorkgroupSize
            | Opcode::NumWorkgroups => str_attr("dim", DIMS)?,
            Opcode::Atomic => str_attr("kind", ATOMIC_KINDS)?,
            Opcode::Reduce | Opcode::Scan => str_attr("kind", REDUCE_KINDS)?,
            Opcode::SharedAlloc => {
                let len = ir
                    .attr(o, "size")
                    .and_then(Attr::as_int)
                    .filter(|&n| n > 0)
                    .ok_or_else(|| bad("size"))?;
                let Some(Type::Ptr(AddrSpace::Shared, elem)) =
                    data.results.first().map(|&v| ir.value_type(v))
                else {
                    return Err(bad("result type"));
                };
                let name = data.results[0];
                self.shared_names.push(
                    ir.value_name(name)
                        .map_or(format!("shared array #{}", self.shared.len()), |n| {
                            format!("shared array `{n}`")
                        }),
                );
                self.shared.push((elem, len as usize));
                (self.shared.len() - 1) as u64
            }
            _ => 0,
        };
        self.info[o] = info;
        Ok(())
    }

    fn params(&self) -> &[Value] {
        let r = self.ir.ops[self.func].regions[0];
        let entry = self.ir.entry_block(r).expect("a kernel region has a block");
        &self.ir.blocks[entry].args
    }
}

/// Checks `args` against the kernel's parameters and returns `(slot, value)` per parameter.
fn bind_args(
    ir: &Ir,
    func: Op,
    prep: &Prep,
    args: &[ArgValue],
    mem: &Memory,
) -> Result<Vec<(u32, u64)>, InterpError> {
    let params = prep.params();
    let loc = ir.ops[func].loc;
    if params.len() != args.len() {
        return Err(InterpError::new(
            loc,
            format!(
                "kernel `{}` takes {} arguments, {} given",
                ir.func_name(func),
                params.len(),
                args.len()
            ),
        ));
    }
    let mut out = Vec::with_capacity(args.len());
    for (&p, &a) in params.iter().zip(args) {
        let name = ir.value_name(p).unwrap_or("?");
        let ty = ir.value_type(p);
        let ploc = if ir.values[p].loc.is_known() {
            ir.values[p].loc
        } else {
            loc
        };
        let v = match (ty, a) {
            (Type::Scalar(s), ArgValue::Scalar(v)) => v & eval::mask(s.bits()),
            (Type::Ptr(AddrSpace::Global, elem), ArgValue::Buffer(i)) => {
                let Some(b) = mem.buffers.get(i) else {
                    return Err(InterpError::new(
                        ploc,
                        format!("argument `{name}`: there is no buffer #{i}"),
                    ));
                };
                if b.elem != elem {
                    return Err(InterpError::new(
                        ploc,
                        format!(
                            "argument `{name}`: a buffer of {} for a parameter of type {ty}",
                            b.elem
                        ),
                    ));
                }
                pointer(i, 0)
            }
            (Type::Ptr(AddrSpace::Shared, _), _) => {
                return Err(InterpError::new(
                    ploc,
                    format!("argument `{name}`: shared-memory pointer parameters cannot be bound"),
                ))
            }
            (_, ArgValue::Buffer(_)) => {
                return Err(InterpError::new(
                    ploc,
                    format!("argument `{name}`: a buffer for a parameter of type {ty}"),
                ))
            }
            (_, ArgValue::Scalar(_)) => {
                return Err(InterpError::new(
                    ploc,
                    format!("argument `{name}`: a scalar for a parameter of type {ty}"),
                ))
            }
        };
        out.push((prep.slot[p], v));
    }
    Ok(out)
}

/// Message names of the memory objects by id: the first parameter bound to each buffer,
/// then the shared arrays.
fn object_names(ir: &Ir, prep: &Prep, args: &[ArgValue], nbuf: usize) -> Vec<String> {
    let mut names: Vec<Option<String>> = vec![None; nbuf];
    for (&p, a) in prep.params().iter().zip(args) {
        if let ArgValue::Buffer(i) = *a {
            if names[i].is_none() {
                names[i] = ir.value_name(p).map(|n| format!("buffer `{n}`"));
            }
        }
    }
    names
        .into_iter()
        .enumerate()
        .map(|(i, n)| n.unwrap_or_else(|| format!("buffer #{i}")))
        .chain(prep.shared_names.iter().cloned())
        .collect()
}

// ---- one op for one lane ----

/// Evaluates a lane-local op (anything but control flow, variables' `set` aside, and
/// cross-lane ops) for one work-item with operand values `a`; returns the result (0 for ops
/// without one).
fn eval_op(
    run: &Run,
    mem: &mut Mem,
    op: Op,
    code: Opcode,
    info: &OpInfo,
    a: [u64; 3],
    item: &Item,
) -> Result<u64, String> {
    use Opcode::*;
    let rbits = info.rbits as u32;
    let dim = info.attr as usize % 3;
    Ok(match code {
        Constant => info.attr,
        AddI | SubI | MulI | DivSI | DivUI | RemSI | RemUI | AndI | OrI | XOrI | ShLI | ShRSI
        | ShRUI | MinSI | MaxSI | MinUI | MaxUI | MulHiU => {
            eval::int_binop(code, a[0], a[1], rbits)?
        }
        AddF | SubF | MulF | DivF | RemF | MinimumF | MaximumF => {
            eval::float_binop(code, a[0], a[1])
        }
        NegF => a[0] ^ 0x8000_0000,
        CmpI => eval::cmpi(info.attr, a[0], a[1], info.sbits as u32) as u64,
        CmpF => eval::cmpf(info.attr, a[0], a[1]) as u64,
        Select => {
            if a[0] & 1 != 0 {
                a[1]
            } else {
                a[2]
            }
        }
        ExtSI | ExtUI | TruncI | SIToFP | UIToFP | FPToSI | FPToUI | Bitcast => {
            eval::cast(code, a[0], info.sbits as u32, rbits)
        }
        WorkitemId => item.local[dim] as u64,
        WorkgroupId => item.group[dim] as u64,
        WorkgroupSize => run.launch.block[dim] as u64,
        NumWorkgroups => run.launch.grid[dim] as u64,
        LaneId => (item.linear % WAVE_SIZE) as u64,
        WaveSize => WAVE_SIZE as u64,
        SharedAlloc => pointer(run.prep.nglobal + info.attr as usize, 0),
        PtrOffset => pointer_add(a[0], eval::index(a[1], info.ibits as u32)),
        Load => *mem.cell(a[0], eval::index(a[1], info.ibits as u32))? & eval::mask(rbits),
        Store => {
            *mem.cell(a[1], eval::index(a[2], info.ibits as u32))? = a[0] & eval::mask(rbits);
            0
        }
        Atomic => {
            let cell = mem.cell(a[0], 0)?;
            let old = *cell & eval::mask(rbits);
            *cell = eval::atomic(info.attr, old, a[1], rbits);
            old
        }
        AtomicCmpxchg => {
            let cell = mem.cell(a[0], 0)?;
            let old = *cell & eval::mask(rbits);
            if old == a[1] {
                *cell = a[2];
            }
            old
        }
        AtomicLoad => *mem.cell(a[0], 0)? & eval::mask(rbits),
        AtomicStore => {
            *mem.cell(a[1], 0)? = a[0] & eval::mask(info.sbits as u32);
            0
        }
        // Every access is already ordered: see "Memory orderings" in the module docs.
        Fence => 0,
        // A variable lives in the slot of its `kernel.var` value.
        Var | Get => a[0],
        Set => a[1],
        ConvEntry | ConvAnchor | ConvLoop => 0,
        Module | Func | Return | If | Loop | Yield | Break | Continue | Br | CondBr | Barrier
        | Ballot | ReadFirstLane | ReadLane | Shuffle | Reduce | Scan => {
            return Err(format!(
                "internal error: `{}` is not a lane-local op",
                run.prep.ir.spec(op).name
            ))
        }
    })
}
