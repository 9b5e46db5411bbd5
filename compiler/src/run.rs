//! `kc run`: executes one kernel of a `.k` file (or IR) on buffers given in a JSON args file
//! and prints every buffer after the run as JSON on stdout.
//!
//! Guarantees: the output is deterministic (buffers in parameter order, fixed formatting);
//! every problem is a message, never a panic: problems with the input, the args file or the
//! run itself (out-of-bounds access, division by zero, step limit, ...) are diagnostics with
//! exit code 1, rendered with the kernel's source line when the location is known; bad flags
//! and a missing args file are usage errors with exit code 2. The args file format is
//! documented in `compiler/RUN.md` and in `kc run --help` ([`ARGS_HELP`]).
//!
//! Engines are one function each ([`Engine`]): `ref` is the reference interpreter
//! (`crate::interp`) on the structured IR after insert-tokens; `sim` compiles the kernel for
//! gfx942 and runs the listing on the backend's wave64 simulator (`kc_backend::sim`). The
//! args file is read and checked in `run/args.rs`.

use crate::ast::Span;
use crate::diag::{self, Diagnostic, SourceFile};
use crate::input::{read_input, LangArg};
use crate::interp::{
    self, ArgValue, Buffer, Counts, InterpError, Launch, Limits, Memory, DEFAULT_MAX_STEPS,
};
use crate::output;
use crate::pipeline::{self, Failure, Input};
use clap::{Parser, ValueEnum};
use kc_dialect::{Ir, Op};
use serde_json::Value as Json;
use std::ffi::OsString;

mod args;
use args::{params, parse_args, parse_block, parse_grid, ArgsSpec, BufferSpec};
use std::io::{IsTerminal, Write};

/// The args-file format, shown by `kc run --help`.
pub const ARGS_HELP: &str = "\
ARGS FILE (JSON):
  {\"grid\": 2, \"block\": [64, 1, 1], \"out\": {\"type\": \"i32\", \"len\": 1024},
   \"input\": {\"type\": \"f32\", \"data\": [1.5, 2, \"nan\"]}, \"n\": 10}

  \"grid\", \"block\"  launch defaults: a number or an array of 1 to 3 numbers
                   (the flags override them; defaults 1 and 64)
  NAME             a kernel parameter: a scalar takes a number (bool: true/false,
                   f32 also \"nan\", \"inf\", \"-inf\"); a pointer takes a buffer
                   {\"type\": T, \"data\": [...]} or {\"type\": T, \"len\": N} (zeros),
                   or both (data padded with zeros to N); T is i32, u32, i64, u64
                   or f32 and must match the pointee (i32/u32 and i64/u64 mix)

  Without --args, kc run reads INPUT with .k (or .mlir) replaced by .args.json
  if that file exists. See compiler/RUN.md.";

/// Executes a kernel and prints its buffers as JSON.
#[derive(Parser, Debug)]
#[command(
    name = "kc run",
    bin_name = "kc run",
    version,
    about = "kc run: execute a kernel and print its buffers as JSON",
    after_help = ARGS_HELP
)]
struct RunCli {
    /// Input file: `.k` source or `.mlir` IR (structured or CF form).
    input: String,

    /// The kernel to run (needed when the file has several).
    #[arg(long, value_name = "NAME")]
    kernel: Option<String>,

    /// Workgroups per dimension (default: the args file's "grid", else 1).
    #[arg(long, value_name = "X[,Y,Z]", value_parser = parse_grid)]
    grid: Option<[u32; 3]>,

    /// Work-items per workgroup (default: the args file's "block", else 64).
    #[arg(long, value_name = "X[,Y,Z]", value_parser = parse_block)]
    block: Option<[u32; 3]>,

    /// The args file (default: INPUT with `.k` replaced by `.args.json`, if it exists).
    #[arg(long, value_name = "FILE")]
    args: Option<String>,

    /// Execution engine: `sim`, the kernel compiled for gfx942 on the wave64 simulator (the
    /// default); `ref`, the reference interpreter (what the kernel means).
    #[arg(long, value_enum, default_value = "sim")]
    engine: Engine,

    /// Print each executed instruction (`sim`: wave, position, instruction, EXEC) or op
    /// (`ref`: wave, active mask) to stderr; masks in binary, lane 0 on the right.
    #[arg(long)]
    trace: bool,

    /// Stop a run when a workgroup takes more than N steps (`sim`: wave-instructions; `ref`:
    /// ops executed by one wave, or by one work-item for CF IR) and report a possible deadlock.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_STEPS)]
    step_limit: u64,

    /// Stop a run after N steps over the whole grid (`sim`: wave-instructions; `ref`: ops
    /// executed by all waves): a bound on the run's time, however large the grid.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_TOTAL_STEPS)]
    total_step_limit: u64,

    /// Optimization level of the compile for the simulator: -O0, -O1, -O2 (the default). The
    /// reference engine runs the kernel as written.
    #[arg(short = 'O', value_name = "LEVEL", default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=2))]
    opt: u8,

    /// Treat the input as this language regardless of its extension.
    #[arg(short = 'x', value_enum, value_name = "LANG")]
    lang: Option<LangArg>,

    /// Colored diagnostics: auto (when stderr is a terminal), always, never.
    #[arg(long, value_name = "WHEN", default_value = "auto", value_parser = ["auto", "always", "never"])]
    color: String,

    /// How `--engine ref` schedules a `.k` kernel: `lockstep`, each wave's lanes together
    /// with maximal convergence (the default; a spin lock stops there as on unrepaired
    /// hardware), or `threads`, its CF IR one work-item after another to the end (a fair
    /// schedule: spin locks complete; cross-lane operations and barriers are rejected).
    #[arg(long, value_enum, value_name = "SCHEDULE", default_value = "lockstep")]
    schedule: Schedule,

    /// What the simulator's compile does with a spin loop that deadlocks under lock-step
    /// execution: repair it (the default), or leave it (`warn`, `off`); as `kc --simt-deadlock`.
    #[arg(long, value_enum, value_name = "MODE", default_value = "repair")]
    simt_deadlock: pipeline::SimtDeadlock,

    /// How the simulator's compile lowers divergent branches; as `kc --divergence`.
    #[arg(long, value_enum, value_name = "SCHEME", default_value = "exec-mask")]
    divergence: pipeline::DivergenceArg,

    /// Run this gfx942 listing (clang-22's, say) on the simulator instead of kc's compile of
    /// INPUT. INPUT still gives the kernel's parameters (the args file binds them); the
    /// kernarg layout is the listing's `.amdgpu_metadata` (explicit arguments in order, the
    /// hidden block counts, group sizes and grid dimensions filled, other hidden ones 0).
    #[arg(long, value_name = "FILE.s")]
    listing: Option<String>,

    /// As `kc --fork-depth`.
    #[arg(long, value_name = "N", default_value = "6", value_parser = clap::value_parser!(u8).range(1..=6))]
    fork_depth: u8,

    /// As `kc --max-sgprs`: the simulator's compile gets at most N SGPRs (forces spilling).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=102))]
    max_sgprs: Option<u16>,

    /// As `kc --max-vgprs`: the simulator's compile gets at most N VGPRs (forces VGPR
    /// spilling to scratch).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    max_vgprs: Option<u16>,
}

/// How the reference interpreter schedules the work-items of structured IR.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Schedule {
    /// A wave's lanes in lock step (maximal convergence).
    Lockstep,
    /// The CF IR, one work-item after another.
    Threads,
}

/// How a kernel is executed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Engine {
    /// The gfx942 simulator (kc-backend): runs the compiled machine code.
    Sim,
    /// The reference interpreter: what the kernel means (LANGUAGE.md).
    Ref,
}

/// One `kc run` request, flags already parsed.
pub struct Request {
    pub kernel: Option<String>,
    pub grid: Option<[u32; 3]>,
    pub block: Option<[u32; 3]>,
    /// The args file's name (for messages) and text.
    pub args: Option<(String, String)>,
    pub engine: Engine,
    pub step_limit: u64,
    /// Steps over the whole grid before the run stops.
    pub total_step_limit: u64,
    /// Optimization level of the simulator's compile (0, 1, 2).
    pub opt_level: u8,
    /// `--simt-deadlock` of the simulator's compile.
    pub simt_deadlock: pipeline::SimtDeadlock,
    /// `--divergence` of the simulator's compile.
    pub divergence: pipeline::Divergence,
    /// `--max-sgprs` / `--max-vgprs` of the simulator's compile.
    pub budget: pipeline::Budget,
    /// `--listing`: a listing's file name and text, run instead of kc's compile.
    pub listing: Option<(String, String)>,
    /// `--schedule` of the reference interpreter.
    pub schedule: Schedule,
    /// Trace to stderr.
    pub trace: bool,
    /// ANSI colors in diagnostics.
    pub color: bool,
}

/// `kc run ARGS...` (the arguments after `run`); returns the exit code.
pub fn main(args: &[OsString]) -> i32 {
    let argv = std::iter::once(OsString::from("kc run")).chain(args.iter().cloned());
    let cli = match RunCli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => return output::clap(&e),
    };
    match run_cli(cli) {
        Ok(json) => match output::stdout(&json) {
            Ok(()) => 0,
            Err(e) => output::fail(&e),
        },
        Err(failure) => failure.report(),
    }
}

fn run_cli(cli: RunCli) -> Result<String, Failure> {
    let (name, text) = read_input(&cli.input)?;
    let is_ir = match cli
        .lang
        .unwrap_or_else(|| crate::input::language(&cli.input, &text))
    {
        LangArg::K => false,
        LangArg::Mlir => true,
        LangArg::Mir => {
            return Err(Failure::Usage(
                "kc run takes .k or .mlir input, not MIR".into(),
            ))
        }
    };
    let args = match &cli.args {
        Some(path) => Some(read_args(path)?),
        None => default_args_path(&cli.input)
            .filter(|p| std::path::Path::new(p).is_file())
            .map(|p| read_args(&p))
            .transpose()?,
    };
    let color = match cli.color.as_str() {
        "always" => true,
        "never" => false,
        _ => std::io::stderr().is_terminal(),
    };
    let listing = match &cli.listing {
        Some(path) => {
            if cli.engine != Engine::Sim {
                return Err(Failure::Usage(
                    "--listing runs on the simulator: it takes --engine sim".into(),
                ));
            }
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure::Usage(format!("cannot read listing `{path}`: {e}")))?;
            Some((path.clone(), text))
        }
        None => None,
    };
    let req = Request {
        kernel: cli.kernel,
        grid: cli.grid,
        block: cli.block,
        args,
        engine: cli.engine,
        step_limit: cli.step_limit,
        total_step_limit: cli.total_step_limit,
        opt_level: cli.opt,
        simt_deadlock: cli.simt_deadlock,
        divergence: cli.divergence.with_depth(cli.fork_depth),
        budget: pipeline::Budget::limited(cli.max_sgprs, cli.max_vgprs),
        listing,
        schedule: cli.schedule,
        trace: cli.trace,
        color,
    };
    execute(&Input { name, text, is_ir }, &req)
}

fn read_args(path: &str) -> Result<(String, String), Failure> {
    std::fs::read_to_string(path)
        .map(|t| (path.to_string(), t))
        .map_err(|e| Failure::Usage(format!("cannot read args file `{path}`: {e}")))
}

/// `dir/name.k` -> `dir/name.args.json` (also for `.mlir`); none for stdin.
pub fn default_args_path(input: &str) -> Option<String> {
    if input == "-" {
        return None;
    }
    let stem = input
        .strip_suffix(".k")
        .or_else(|| input.strip_suffix(".mlir"))
        .unwrap_or(input);
    Some(format!("{stem}.args.json"))
}

/// Compiles `input`, binds the args, runs the kernel on `req.engine` and returns the JSON
/// report.
pub fn execute(input: &Input, req: &Request) -> Result<String, Failure> {
    let ir = pipeline::compile_to_kernel_ir(input)?;
    let func = pick_kernel(&ir, input, req.kernel.as_deref())?;
    let params = params(&ir, func, input);
    let kernel = ir.func_name(func).to_string();
    let spec = match &req.args {
        Some((file, text)) => parse_args(file, text, &kernel, &params)?,
        None if params.is_empty() => ArgsSpec::default(),
        None => {
            let names: Vec<String> = params.iter().map(|p| format!("`{}`", p.name)).collect();
            let hint = default_args_path(&input.name).map_or("pass --args FILE".to_string(), |p| {
                format!("write `{p}` or pass --args FILE")
            });
            return Err(Failure::Usage(format!(
                "no args file: kernel `{kernel}` takes {}; {hint} (see kc run --help)",
                names.join(", ")
            )));
        }
    };
    let launch = Launch {
        grid: req.grid.or(spec.grid).unwrap_or([1, 1, 1]),
        block: req.block.or(spec.block).unwrap_or([64, 1, 1]),
    };
    let mut job = Job {
        input,
        ir: &ir,
        func,
        launch,
        args: spec.args,
        mem: Memory {
            buffers: spec.buffers.iter().map(|b| b.buffer.clone()).collect(),
        },
        buffer_names: spec.buffers.iter().map(|b| b.param.clone()).collect(),
        step_limit: req.step_limit,
        total_step_limit: req.total_step_limit,
        opt_level: req.opt_level,
        simt_deadlock: req.simt_deadlock,
        divergence: req.divergence,
        budget: req.budget,
        listing: req.listing.clone(),
        schedule: req.schedule,
        trace: req.trace,
    };
    let counts = match req.engine {
        Engine::Ref => engine_ref(&mut job),
        Engine::Sim => engine_sim(&mut job),
    }
    .map_err(|e| match e {
        EngineError::Run(e) => Failure::Diagnostics(render_runtime(&ir, &e, input, req.color)),
        EngineError::Failure(f) => f,
    })?;
    Ok(report(
        &kernel,
        req.engine,
        &launch,
        &spec.buffers,
        &job.mem,
        &counts,
    ))
}

// ---- engines ----

/// Everything an engine needs: the IR, the kernel, the launch, its arguments and memory.
pub struct Job<'a> {
    pub input: &'a Input,
    /// Structured IR after insert-tokens (or CF IR for CF-form input).
    pub ir: &'a Ir,
    pub func: Op,
    pub launch: Launch,
    pub args: Vec<ArgValue>,
    pub mem: Memory,
    /// The parameter name of each buffer of `mem`, for error messages.
    pub buffer_names: Vec<String>,
    pub step_limit: u64,
    pub total_step_limit: u64,
    pub opt_level: u8,
    pub simt_deadlock: pipeline::SimtDeadlock,
    pub divergence: pipeline::Divergence,
    pub budget: pipeline::Budget,
    pub listing: Option<(String, String)>,
    pub schedule: Schedule,
    pub trace: bool,
}

/// Why an engine stopped.
pub enum EngineError {
    /// A run-time error of the kernel.
    Run(InterpError),
    Failure(Failure),
}

/// An engine's counts, named, in report order.
pub type EngineCounts = Vec<(&'static str, u64)>;

/// `--engine ref`: the reference interpreter.
pub fn engine_ref(job: &mut Job) -> Result<EngineCounts, EngineError> {
    let limits = Limits {
        max_steps: job.step_limit,
        max_total_steps: job.total_step_limit,
    };
    // `--schedule=threads` on structured IR: the kernel's CF IR (as written: no repair),
    // which the interpreter runs one work-item after another.
    let cf;
    let (ir, func) = if job.schedule == Schedule::Threads && !job.ir.is_cf_kernel(job.func) {
        cf = pipeline::compile_to_cf_with(job.input, pipeline::SimtDeadlock::Off)
            .map_err(EngineError::Failure)?;
        let name = job.ir.func_name(job.func);
        let func = cf
            .kernels()
            .into_iter()
            .find(|&k| cf.func_name(k) == name)
            .ok_or_else(|| {
                EngineError::Failure(Failure::Diagnostics(format!(
                    "internal compiler error: no CF IR for `{name}`\n"
                )))
            })?;
        (&cf, func)
    } else {
        (job.ir, job.func)
    };
    if job.schedule == Schedule::Threads {
        if let Some(e) = interp::thread_by_thread_error(ir, func) {
            return Err(EngineError::Run(e));
        }
    }
    let r = if job.trace {
        let mut sink = output::StderrSink::new();
        let r = interp::run_traced(
            ir,
            func,
            &job.launch,
            &job.args,
            &mut job.mem,
            &limits,
            Some(&mut sink),
        );
        // A trace that could not be written stops the run (the interpreter's error only
        // says so): the write error is what to report.
        sink.finish()
            .map_err(|e| EngineError::Failure(Failure::Usage(e.to_string())))?;
        r
    } else {
        interp::run(ir, func, &job.launch, &job.args, &mut job.mem, &limits)
    };
    let c: Counts = r.map_err(EngineError::Run)?;
    Ok(vec![("ops", c.ops), ("lane_ops", c.lane_ops)])
}

/// Default of `--total-step-limit`: about a minute and a half of simulation.
pub const DEFAULT_MAX_TOTAL_STEPS: u64 = 1_000_000_000;

/// Where `kc run` places buffer `i` in the simulator's global memory: each buffer alone in
/// a 2 TiB window, 1 TiB from its start (buffers are at most `MAX_BUFFER_LEN` elements, far
/// less than 1 TiB). Any access an `i32` or `u32` index can make (at most 32 GiB either side
/// of the base) therefore lies in the buffer's own window, so the simulator's "nearest
/// allocation" is the buffer the address was derived from, and an out-of-bounds index is an
/// error naming it, never a read of a neighbour. (A 64-bit index more than 1 TiB out of
/// bounds may reach another buffer; `--engine ref` checks every index exactly.)
fn sim_buffer_base(i: usize) -> u64 {
    (2 * i as u64 + 1) << 40
}

/// The kernarg segment of a listing from its metadata (`sim::metadata_args`): the explicit
/// arguments in order take `args`; the hidden block counts, group sizes and grid dimensions
/// are the launch's; every other hidden argument is 0.
fn listing_kernarg(
    layout: &kc_backend::sim::MetadataArgs,
    args: &[ArgValue],
    launch: &Launch,
    bits: impl Fn(&ArgValue) -> u64,
) -> Result<Vec<u8>, String> {
    let explicit: Vec<_> = layout
        .args
        .iter()
        .filter(|a| !a.kind.starts_with("hidden_"))
        .collect();
    if explicit.len() != args.len() {
        return Err(format!(
            "kernel `{}` takes {} explicit arguments in the listing's metadata, the kernel {}",
            layout.name,
            explicit.len(),
            args.len()
        ));
    }
    let mut kernarg = vec![0u8; layout.kernarg_size as usize];
    let mut put = |offset: u32, size: u32, v: u64| -> Result<(), String> {
        let (at, n) = (offset as usize, size as usize);
        if n > 8 || at + n > kernarg.len() {
            return Err(format!(
                "argument at offset {offset} of {size} bytes does not fit the kernarg segment"
            ));
        }
        kernarg[at..at + n].copy_from_slice(&v.to_le_bytes()[..n]);
        Ok(())
    };
    for (a, v) in explicit.iter().zip(args) {
        put(a.offset, a.size, bits(v))?;
    }
    let dims = if launch.grid[2] > 1 || launch.block[2] > 1 {
        3
    } else if launch.grid[1] > 1 || launch.block[1] > 1 {
        2
    } else {
        1
    };
    for a in layout.args.iter().filter(|a| a.kind.starts_with("hidden_")) {
        let d = |s: &str| match s {
            "x" => 0,
            "y" => 1,
            _ => 2,
        };
        let v = match a.kind.as_str() {
            k if k.starts_with("hidden_block_count_") => launch.grid[d(&k[19..])] as u64,
            k if k.starts_with("hidden_group_size_") => launch.block[d(&k[18..])] as u64,
            "hidden_grid_dims" => dims,
            _ => 0,
        };
        put(a.offset, a.size, v)?;
    }
    Ok(kernarg)
}

/// `--engine sim`: compiles the kernel with the gfx942 backend and runs the listing on the
/// wave64 simulator. The kernarg segment follows the backend's layout (explicit arguments,
/// then the COv5 hidden block counts and group sizes); buffers are copied in and out.
pub fn engine_sim(job: &mut Job) -> Result<EngineCounts, EngineError> {
    use kc_backend::sim;
    let fail = |m: String| EngineError::Failure(Failure::Diagnostics(m));
    let name = job.ir.func_name(job.func).to_string();
    let arg_bits = |v: &ArgValue| match *v {
        ArgValue::Scalar(bits) => bits,
        ArgValue::Buffer(i) => sim_buffer_base(i),
    };
    let (program, kernarg) = match &job.listing {
        // Someone else's listing: its metadata says where the arguments go.
        Some((file, text)) => {
            let program = sim::parse(text).map_err(|e| {
                fail(format!(
                    "{file}:{}: error: the simulator cannot read this listing: {}\n",
                    e.line, e.message
                ))
            })?;
            let layout = sim::metadata_args(&program, &name)
                .map_err(|m| fail(format!("{file}: error: {m}\n")))?;
            let kernarg = listing_kernarg(&layout, &job.args, &job.launch, arg_bits)
                .map_err(|m| fail(format!("{file}: error: {m}\n")))?;
            (program, kernarg)
        }
        None => {
            let cf = pipeline::compile_to_cf_with(job.input, job.simt_deadlock)
                .map_err(EngineError::Failure)?;
            let (listing, layouts) =
                pipeline::compile_listing(cf, job.input, job.opt_level, job.divergence, job.budget)
                    .map_err(EngineError::Failure)?;
            let layout = layouts.iter().find(|k| k.name == name).ok_or_else(|| {
                fail(format!(
                    "internal compiler error: no listing for `{name}`\n"
                ))
            })?;
            let program = sim::parse(&listing).map_err(|e| {
                fail(format!(
                    "internal compiler error: the simulator rejects kc's listing at line {}: {}\n",
                    e.line, e.message
                ))
            })?;
            // Kernel arguments.
            let mut kernarg = vec![0u8; layout.kernarg_size as usize];
            for (a, v) in layout.args.iter().zip(&job.args) {
                let bits = arg_bits(v);
                let at = a.offset as usize;
                kernarg[at..at + a.size as usize]
                    .copy_from_slice(&bits.to_le_bytes()[..a.size as usize]);
            }
            let hidden = layout.explicit_size.next_multiple_of(8) as usize;
            for d in 0..3 {
                let (g, b) = (job.launch.grid[d], job.launch.block[d] as u16);
                kernarg[hidden + 4 * d..hidden + 4 * d + 4].copy_from_slice(&g.to_le_bytes());
                kernarg[hidden + 12 + 2 * d..hidden + 14 + 2 * d].copy_from_slice(&b.to_le_bytes());
            }
            (program, kernarg)
        }
    };
    // Buffers.
    let elem_bytes = |b: &Buffer| (b.elem.bits() / 8).max(1) as usize;
    let mut mem = sim::Memory {
        allocs: job
            .mem
            .buffers
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let w = elem_bytes(b);
                let bytes = b
                    .data
                    .iter()
                    .flat_map(|x| x.to_le_bytes()[..w].to_vec())
                    .collect();
                (sim_buffer_base(i), bytes)
            })
            .collect(),
        names: job.buffer_names.clone(),
    };
    // The simulator's trace callback cannot stop the run: after a failed write the rest of
    // the trace is dropped and the failure reported when the run ends.
    let sink = std::rc::Rc::new(std::cell::RefCell::new(output::StderrSink::new()));
    let trace: Option<sim::TraceFn> = job.trace.then(|| {
        let sink = sink.clone();
        std::rc::Rc::new(move |l: &sim::TraceLine| {
            let mut sink = sink.borrow_mut();
            if !sink.has_failed() {
                let _ = writeln!(sink, "{l}");
            }
        }) as sim::TraceFn
    });
    let opts = sim::SimOptions {
        max_steps: job.step_limit,
        max_total_steps: job.total_step_limit,
        trace,
        ..sim::SimOptions::default()
    };
    let launch = sim::Launch {
        kernel: name.clone(),
        grid: job.launch.grid,
        block: job.launch.block,
        kernarg,
    };
    let stats = sim::run(&program, &launch, &mut mem, &opts);
    sink.borrow_mut()
        .finish()
        .map_err(|e| EngineError::Failure(Failure::Usage(e.to_string())))?;
    let stats = stats.map_err(|e| {
        let hint = match e {
            sim::SimError::Budget { .. } => " (raise --total-step-limit for a longer run)",
            _ => "",
        };
        fail(format!(
            "{}: error: kernel `{name}` on the gfx942 simulator: {e}{hint}\n",
            job.input.name
        ))
    })?;
    // Buffers back.
    for (i, b) in job.mem.buffers.iter_mut().enumerate() {
        let w = elem_bytes(b);
        let bytes = mem.get(sim_buffer_base(i)).unwrap_or(&[]);
        for (x, chunk) in b.data.iter_mut().zip(bytes.chunks(w)) {
            let mut le = [0u8; 8];
            le[..w].copy_from_slice(chunk);
            *x = u64::from_le_bytes(le);
        }
    }
    let mut counts = vec![
        ("scalar", stats.scalar()),
        ("vector", stats.vector()),
        ("memory", stats.memory()),
        ("total", stats.total()),
        ("lane_instructions", stats.lane_instructions),
        ("valu", stats.valu),
        ("valu_lanes", stats.valu_lanes),
    ];
    // The deepest FORK/JOIN stack of any wave, for listings that use it.
    if job.divergence != pipeline::Divergence::ExecMask {
        counts.push(("max_stack_depth", stats.max_stack_depth));
    }
    Ok(counts)
}

// ---- kernels and parameters ----

fn pick_kernel(ir: &Ir, input: &Input, want: Option<&str>) -> Result<Op, Failure> {
    let kernels = ir.kernels();
    let names = || {
        kernels
            .iter()
            .map(|&k| format!("`{}`", ir.func_name(k)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match want {
        Some(w) => kernels
            .iter()
            .copied()
            .find(|&k| ir.func_name(k) == w)
            .ok_or_else(|| {
                Failure::Usage(format!(
                    "no kernel `{w}` in `{}` (kernels: {})",
                    input.name,
                    names()
                ))
            }),
        None => match kernels[..] {
            [k] => Ok(k),
            [] => Err(Failure::Diagnostics(format!(
                "{}: error: no kernel to run\n",
                input.name
            ))),
            _ => Err(Failure::Usage(format!(
                "`{}` has several kernels ({}); choose one with --kernel NAME",
                input.name,
                names()
            ))),
        },
    }
}

// ---- output ----

/// The JSON report: kernel, engine, launch, every buffer in parameter order, counts.
fn report(
    kernel: &str,
    engine: Engine,
    launch: &Launch,
    specs: &[BufferSpec],
    mem: &Memory,
    counts: &EngineCounts,
) -> String {
    let dims = |d: [u32; 3]| format!("[{}, {}, {}]", d[0], d[1], d[2]);
    let engine = match engine {
        Engine::Ref => "ref",
        Engine::Sim => "sim",
    };
    let mut out = String::from("{\n");
    out.push_str(&format!("  \"kernel\": {},\n", Json::from(kernel)));
    out.push_str(&format!("  \"engine\": \"{engine}\",\n"));
    out.push_str(&format!("  \"grid\": {},\n", dims(launch.grid)));
    out.push_str(&format!("  \"block\": {},\n", dims(launch.block)));
    out.push_str("  \"buffers\": {");
    for (i, (spec, buf)) in specs.iter().zip(&mem.buffers).enumerate() {
        let sep = if i == 0 { "\n" } else { ",\n" };
        let data: Vec<String> = buf.data.iter().map(|&b| element(spec.ty, b)).collect();
        out.push_str(&format!(
            "{sep}    {}: {{\"type\": \"{}\", \"data\": [{}]}}",
            Json::from(spec.param.as_str()),
            spec.ty,
            data.join(", ")
        ));
    }
    out.push_str(if specs.is_empty() { "},\n" } else { "\n  },\n" });
    let counts: Vec<String> = counts
        .iter()
        .map(|(k, v)| format!("\"{k}\": {v}"))
        .collect();
    out.push_str(&format!("  \"counts\": {{{}}}\n}}\n", counts.join(", ")));
    out
}

/// One element in JSON: integers in decimal, f32 as the shortest round-tripping number or
/// `"nan"` / `"inf"` / `"-inf"`.
fn element(ty: &str, bits: u64) -> String {
    match ty {
        "i32" => (bits as u32 as i32).to_string(),
        "u32" => (bits as u32).to_string(),
        "i64" => (bits as i64).to_string(),
        "u64" => bits.to_string(),
        _ => {
            let x = f32::from_bits(bits as u32);
            if x.is_nan() {
                "\"nan\"".into()
            } else if x.is_infinite() {
                if x > 0.0 { "\"inf\"" } else { "\"-inf\"" }.into()
            } else {
                format!("{x:?}")
            }
        }
    }
}

// ---- run-time errors ----

/// Renders a run-time error: with the source line when the location's file is the input (or
/// a readable file), else `file:line:col: error: ...`.
fn render_runtime(ir: &Ir, e: &InterpError, input: &Input, color: bool) -> String {
    let mut notes = Vec::new();
    if let Some(w) = e.work_item {
        notes.push(format!("in {}", interp::describe_work_item(w)));
    }
    if e.message.starts_with("no progress after") {
        notes.push("raise the limit with --step-limit N if the kernel is just slow".into());
    }
    if !e.loc.is_known() {
        let mut out = format!("{}: error: {}\n", input.name, e.message);
        for n in &notes {
            out.push_str(&format!("  = {n}\n"));
        }
        return out;
    }
    let name = ir.file_name(e.loc.file).to_string();
    let text = if name == input.name {
        Some(input.text.clone())
    } else {
        std::fs::read_to_string(&name).ok()
    };
    let span = text
        .as_deref()
        .and_then(|t| span_at(t, e.loc.line, e.loc.col));
    match (text, span) {
        (Some(text), Some((start, end))) => {
            let file = SourceFile::new(name, text);
            let mut d = Diagnostic::error(e.message.clone(), Span::new(file.id, start, end), "");
            for n in notes {
                d = d.with_note(n);
            }
            diag::render(&file, &[d], color)
        }
        _ => {
            let mut out = format!(
                "{name}:{}:{}: error: {}\n",
                e.loc.line, e.loc.col, e.message
            );
            for n in &notes {
                out.push_str(&format!("  = {n}\n"));
            }
            out
        }
    }
}

/// The byte range of the token at 1-based `line`:`col` (a word, or one character).
fn span_at(text: &str, line: u32, col: u32) -> Option<(usize, usize)> {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.checked_sub(1)? as usize)
        .map(str::len)
        .sum();
    let start = line_start + col.checked_sub(1)? as usize;
    if start >= text.len() || !text.is_char_boundary(start) {
        return None;
    }
    let rest = &text[start..];
    let word = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let len = if word > 0 {
        word
    } else {
        rest.chars().next().map_or(0, char::len_utf8)
    };
    Some((start, start + len))
}
