//! Running a launch: initial wave state from the kernel descriptor, the workgroup loop, the
//! wave scheduler with `s_barrier`, the step limit, counts and the trace.
//!
//! Guarantees:
//! - Initial state per wave: user SGPRs in hardware order (dispatch ptr, then kernarg ptr;
//!   the others are refused), then the enabled workgroup ids x, y, z; v0 = work-item id
//!   x | y << 10 | z << 20 (only the dimensions `.amdhsa_system_vgpr_workitem_id` enables);
//!   EXEC = the wave's existing lanes; everything else 0, the private segment (scratch) of
//!   every lane included.
//! - Workgroups run one after another (x fastest); within one, the live waves take turns
//!   one instruction at a time (round-robin, or a seeded random runnable wave). A barrier
//!   releases when every wave that has not ended waits at it.
//! - More than `max_steps` wave-instructions in one workgroup is `SimError::NoProgress`,
//!   naming each live wave's position, EXEC and innermost enclosing loop; more than
//!   `max_total_steps` over the grid is `SimError::Budget`. A launch whose grid exceeds the
//!   2^32 - 1 work-items per dimension of an HSA dispatch packet is refused.

use super::exec::{step, Flow, Shared, Stop, Wave, EXEC};
use super::mem::{Lds, MemView};
use super::{Kernel, Launch, Memory, Program, SimError, SimOptions, Stats, TraceLine, WaveAt};

/// Runs `launch` of a kernel of `p` over `mem`; the kernarg segment (and dispatch packet)
/// are added to `mem` for the run and removed afterwards.
pub fn run(
    p: &Program,
    launch: &Launch,
    mem: &mut Memory,
    opts: &SimOptions,
) -> Result<Stats, SimError> {
    let k = p
        .kernel(&launch.kernel)
        .ok_or_else(|| SimError::Launch(format!("no kernel `{}`", launch.kernel)))?;
    check_kernel(k, launch)?;
    check_allocs(mem)?;
    let n_user = mem.allocs.len();
    let (kernarg_addr, dispatch_addr) = place_segments(k, launch, mem);
    let result = run_grid(p, k, launch, mem, n_user, opts, kernarg_addr, dispatch_addr);
    mem.allocs.truncate(n_user);
    result
}

fn check_kernel(k: &Kernel, launch: &Launch) -> Result<(), SimError> {
    let d = &k.desc;
    let bad = |m: String| Err(SimError::Launch(format!("kernel `{}`: {m}", k.name)));
    if d.user_sgpr_queue_ptr
        || d.user_sgpr_dispatch_id
        || d.user_sgpr_private_segment_buffer
        || d.user_sgpr_flat_scratch_init
        || d.user_sgpr_kernarg_preload_length != 0
    {
        return bad(
            "only the dispatch_ptr and kernarg_segment_ptr user SGPRs are supported".into(),
        );
    }
    if d.private_segment_fixed_size > super::MAX_PRIVATE_BYTES {
        return bad(format!(
            "a private segment of {} bytes per lane; the simulator gives at most {}",
            d.private_segment_fixed_size,
            super::MAX_PRIVATE_BYTES
        ));
    }
    if d.private_segment_fixed_size != 0 && !d.enable_private_segment {
        return bad(format!(
            ".amdhsa_private_segment_fixed_size is {} but the private segment is not enabled \
             (.amdhsa_enable_private_segment 0)",
            d.private_segment_fixed_size
        ));
    }
    if k.vgprs_used > d.next_free_vgpr {
        return bad(format!(
            "uses {} VGPRs but .amdhsa_next_free_vgpr is {}",
            k.vgprs_used, d.next_free_vgpr
        ));
    }
    if k.sgprs_used > d.next_free_sgpr {
        return bad(format!(
            "uses {} SGPRs but .amdhsa_next_free_sgpr is {}",
            k.sgprs_used, d.next_free_sgpr
        ));
    }
    for d in 0..3 {
        if launch.grid[d] as u64 * launch.block[d] as u64 > u32::MAX as u64 {
            return bad(format!(
                "grid {:?} of blocks {:?} has more than 2^32 - 1 work-items in dimension {}, \
                 the most an HSA dispatch packet holds",
                launch.grid,
                launch.block,
                ["x", "y", "z"][d]
            ));
        }
    }
    let items: u64 = launch.block.iter().map(|&b| b as u64).product();
    if items == 0 || items > 1024 {
        return bad(format!(
            "block {:?} is not 1..=1024 work-items",
            launch.block
        ));
    }
    if launch.block[0] > 1024 || launch.block[1] > 1024 || launch.block[2] > 1024 {
        return bad(format!(
            "block {:?} exceeds 1024 in a dimension",
            launch.block
        ));
    }
    Ok(())
}

fn check_allocs(mem: &Memory) -> Result<(), SimError> {
    let mut spans: Vec<(u64, u64)> = mem
        .allocs
        .iter()
        .map(|a| (a.0, a.0 + a.1.len() as u64))
        .collect();
    spans.sort_unstable();
    for w in spans.windows(2) {
        if w[1].0 < w[0].1 {
            return Err(SimError::Launch(format!(
                "allocations at {:#x} and {:#x} overlap",
                w[0].0, w[1].0
            )));
        }
    }
    Ok(())
}

/// The gap left between the caller's allocations and the kernarg segment, so that an
/// access past the end of the highest buffer is not read from the kernarg segment.
const SEGMENT_GAP: u64 = 1 << 40;

/// Places the kernarg segment and the HSA dispatch packet above every allocation, at least
/// [`SEGMENT_GAP`] bytes above the end of the highest one (a zero-length allocation included:
/// its base is a valid address that no access fits in).
fn place_segments(k: &Kernel, launch: &Launch, mem: &mut Memory) -> (u64, u64) {
    let top = mem
        .allocs
        .iter()
        .map(|a| a.0 + a.1.len() as u64)
        .max()
        .unwrap_or(0);
    let kernarg_addr = (top + SEGMENT_GAP).next_multiple_of(0x1_0000);
    let mut kernarg = launch.kernarg.clone();
    let size = (k.desc.kernarg_size as usize).max(kernarg.len());
    kernarg.resize(size.max(4).div_ceil(4) * 4, 0);
    let dispatch_addr = (kernarg_addr + kernarg.len() as u64 + 0xff) & !0xff;
    // hsa_kernel_dispatch_packet_t: workgroup_size_{x,y,z} (u16) at 4, grid_size_{x,y,z}
    // (u32, in work-items) at 12, group segment size at 20... (see the HSA runtime spec).
    let mut pk = vec![0u8; 64];
    pk[2..4].copy_from_slice(&3u16.to_le_bytes()); // setup: 3 dimensions
    for i in 0..3 {
        let b = launch.block[i];
        pk[4 + 2 * i..6 + 2 * i].copy_from_slice(&(b as u16).to_le_bytes());
        let g = launch.grid[i].wrapping_mul(b);
        pk[12 + 4 * i..16 + 4 * i].copy_from_slice(&g.to_le_bytes());
    }
    pk[28..32].copy_from_slice(&k.desc.group_segment_fixed_size.to_le_bytes());
    pk[40..48].copy_from_slice(&kernarg_addr.to_le_bytes());
    mem.allocs.push((kernarg_addr, kernarg));
    mem.allocs.push((dispatch_addr, pk));
    (kernarg_addr, dispatch_addr)
}

#[allow(clippy::too_many_arguments)]
fn run_grid(
    p: &Program,
    k: &Kernel,
    launch: &Launch,
    mem: &mut Memory,
    n_user: usize,
    opts: &SimOptions,
    kernarg_addr: u64,
    dispatch_addr: u64,
) -> Result<Stats, SimError> {
    let mut view = MemView::named(&mut mem.allocs, &mem.names, n_user);
    let mut stats = Stats::default();
    let mut lds = Lds {
        bytes: vec![0; k.desc.group_segment_fixed_size as usize],
    };
    let [bx, by, bz] = launch.block;
    let items = (bx * by * bz) as usize;
    let n_waves = items.div_ceil(64);
    let vgprs = (k.desc.next_free_vgpr as usize).max(1);
    let mut waves: Vec<Wave> = (0..n_waves).map(|_| Wave::new(vgprs)).collect();
    let mut rng = opts.seed.map(|s| s ^ 0x9e37_79b9_7f4a_7c15);
    let workgroups = launch.grid.iter().map(|&g| g as u64).product();
    let mut total = 0u64;
    for gz in 0..launch.grid[2] {
        for gy in 0..launch.grid[1] {
            for gx in 0..launch.grid[0] {
                let wg = [gx, gy, gz];
                lds.bytes.fill(0);
                for (i, w) in waves.iter_mut().enumerate() {
                    init_wave(w, k, launch, wg, i, kernarg_addr, dispatch_addr);
                }
                let mut sh = Shared {
                    mem: &mut view,
                    lds: &mut lds,
                    stats: &mut stats,
                };
                run_workgroup(p, &mut waves, &mut sh, wg, opts, &mut rng, &mut total).map_err(
                    |e| match e {
                        SimError::Budget { steps, .. } => SimError::Budget {
                            steps,
                            finished: stats.workgroups,
                            workgroups,
                        },
                        e => e,
                    },
                )?;
                stats.workgroups += 1;
                stats.waves += n_waves as u64;
                for w in &waves {
                    stats.max_stack_depth = stats.max_stack_depth.max(w.max_csp as u64);
                }
            }
        }
    }
    Ok(stats)
}

fn init_wave(
    w: &mut Wave,
    k: &Kernel,
    launch: &Launch,
    wg: [u32; 3],
    index: usize,
    kernarg_addr: u64,
    dispatch_addr: u64,
) {
    let d = &k.desc;
    w.s.fill(0);
    for r in w.v.iter_mut() {
        *r = [0; 64];
    }
    w.scratch_on = d.enable_private_segment;
    w.scratch.clear();
    if d.enable_private_segment {
        w.scratch
            .resize(d.private_segment_fixed_size.div_ceil(4) as usize * 64, 0);
    }
    w.spend.fill(0);
    w.vpend.fill(0);
    w.vmq.clear();
    w.lgkmq.clear();
    w.scc = false;
    w.csp = 0;
    w.mode = d.fp_mode().mode_register();
    w.max_csp = 0;
    w.stack_event = None;
    w.done = false;
    w.at_barrier = false;
    w.pc = k.entry;
    let mut s = 0usize;
    let mut pair = |w: &mut Wave, v: u64| {
        w.s[s] = v as u32;
        w.s[s + 1] = (v >> 32) as u32;
        s += 2;
    };
    if d.user_sgpr_dispatch_ptr {
        pair(w, dispatch_addr);
    }
    if d.user_sgpr_kernarg_segment_ptr {
        pair(w, kernarg_addr);
    }
    let mut s = s.max(d.user_sgpr_count.unwrap_or(0) as usize);
    for (dim, &id) in wg.iter().enumerate() {
        if d.workgroup_id[dim] {
            w.s[s] = id;
            s += 1;
        }
    }
    let [bx, by, bz] = launch.block;
    let items = bx * by * bz;
    let mut exec = 0u64;
    for lane in 0..64u32 {
        let i = index as u32 * 64 + lane;
        if i >= items {
            break;
        }
        exec |= 1 << lane;
        let (x, y, z) = (i % bx, (i / bx) % by, i / (bx * by));
        let mut id = x;
        if d.workitem_id >= 1 {
            id |= y << 10;
        }
        if d.workitem_id >= 2 {
            id |= z << 20;
        }
        w.v[0][lane as usize] = id;
    }
    w.s[EXEC as usize] = exec as u32;
    w.s[EXEC as usize + 1] = (exec >> 32) as u32;
}

fn next_random(state: &mut u64) -> u64 {
    // splitmix64
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn run_workgroup(
    p: &Program,
    waves: &mut [Wave],
    sh: &mut Shared,
    wg: [u32; 3],
    opts: &SimOptions,
    rng: &mut Option<u64>,
    total: &mut u64,
) -> Result<(), SimError> {
    let n = waves.len();
    let mut live = n;
    let mut cursor = 0usize;
    let mut steps = 0u64;
    while live > 0 {
        // Pick a runnable wave: not ended, not waiting at a barrier.
        let start = match rng {
            Some(s) => (next_random(s) % n as u64) as usize,
            None => cursor,
        };
        let Some(i) = (0..n)
            .map(|j| (start + j) % n)
            .find(|&i| !waves[i].done && !waves[i].at_barrier)
        else {
            // Every live wave waits at the barrier: release it.
            waves.iter_mut().for_each(|w| w.at_barrier = false);
            continue;
        };
        cursor = (i + 1) % n;
        if steps >= opts.max_steps {
            return Err(no_progress(p, waves, wg, steps));
        }
        if *total >= opts.max_total_steps {
            return Err(SimError::Budget {
                steps: *total,
                finished: 0,
                workgroups: 0,
            });
        }
        steps += 1;
        *total += 1;
        let w = &mut waves[i];
        let pc = w.pc;
        if pc as usize >= p.insts.len() {
            return Err(fault(
                p,
                wg,
                i,
                pc.saturating_sub(1),
                "ran past the end of the code",
            ));
        }
        let flow = step(w, &p.insts, sh).map_err(|e| stop_error(p, wg, i, pc, e))?;
        if let Some(t) = &opts.trace {
            t(&TraceLine {
                workgroup: wg,
                wave: i as u32,
                pos: position(p, pc),
                line: p.insts[pc as usize].line,
                text: &p.texts[pc as usize],
                exec: w.exec(),
                stack: w.stack_event.take(),
            });
        }
        match flow {
            Flow::Next => {}
            Flow::Barrier => w.at_barrier = true,
            Flow::End => {
                w.done = true;
                live -= 1;
            }
        }
    }
    Ok(())
}

fn fault(p: &Program, wg: [u32; 3], wave: usize, pc: u32, m: &str) -> SimError {
    let (line, text) = p
        .insts
        .get(pc as usize)
        .map(|i| (i.line, p.texts[pc as usize].clone()))
        .unwrap_or((0, String::new()));
    SimError::Fault {
        workgroup: wg,
        wave: wave as u32,
        line,
        text,
        message: m.to_string(),
    }
}

fn stop_error(p: &Program, wg: [u32; 3], wave: usize, pc: u32, e: Stop) -> SimError {
    match e {
        Stop::Fault(m) => fault(p, wg, wave, pc, &m),
        Stop::Hazard(reg, load) => SimError::Hazard {
            workgroup: wg,
            wave: wave as u32,
            line: p.insts[pc as usize].line,
            text: p.texts[pc as usize].clone(),
            reg,
            load_line: p.insts[load as usize].line,
            load_text: p.texts[load as usize].clone(),
        },
    }
}

/// `label+offset` of an instruction index (the nearest label at or before it).
pub fn position(p: &Program, pc: u32) -> String {
    let i = p.labels.partition_point(|l| l.0 <= pc);
    match i.checked_sub(1).map(|i| &p.labels[i]) {
        Some((at, name)) if pc == *at => name.clone(),
        Some((at, name)) => format!("{name}+{}", pc - at),
        None => format!("+{pc}"),
    }
}

/// The label of the innermost loop (backward branch) whose body contains `pc`.
fn innermost_loop(p: &Program, pc: u32) -> Option<String> {
    let (target, _) = p
        .back_edges
        .iter()
        .filter(|(t, b)| *t <= pc && pc <= *b)
        .min_by_key(|(t, b)| b - t)?;
    let i = p.labels.partition_point(|l| l.0 < *target);
    p.labels
        .get(i)
        .filter(|l| l.0 == *target)
        .map(|l| l.1.clone())
}

fn no_progress(p: &Program, waves: &[Wave], wg: [u32; 3], steps: u64) -> SimError {
    let waves = waves
        .iter()
        .enumerate()
        .filter(|(_, w)| !w.done)
        .map(|(i, w)| {
            let pc = w.pc.min(p.insts.len().saturating_sub(1) as u32);
            WaveAt {
                wave: i as u32,
                pos: position(p, pc),
                line: p.insts[pc as usize].line,
                text: p.texts[pc as usize].clone(),
                exec: w.exec(),
                at_barrier: w.at_barrier,
                loop_label: innermost_loop(p, pc),
            }
        })
        .collect();
    SimError::NoProgress {
        workgroup: wg,
        steps,
        waves,
    }
}
