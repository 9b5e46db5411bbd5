//! Thread-by-thread execution of CF-form IR: each work-item runs to completion, workgroups in
//! launch order, work-items in linear local-id order.
//!
//! Guarantees: block arguments are assigned as a parallel copy (all successor arguments are
//! read before any is written), shared arrays are zeroed at the start of each workgroup, and
//! cross-lane ops never run here ([`super::mode`] rejects kernels that have them, since one
//! work-item alone cannot evaluate them).

use super::InterpError;
use super::{local_id, workgroups, Item, Mem, Run, NO_SLOT};
use kc_dialect::entities::Block;
use kc_dialect::registry::Opcode;

/// Runs every work-item of the launch.
pub(super) fn run(run: &mut Run, mem: &mut Mem, params: &[(u32, u64)]) -> Result<(), InterpError> {
    let prep = run.prep;
    let ir = prep.ir;
    let body = ir.ops[prep.func].regions[0];
    let entry = ir.entry_block(body).expect("a kernel region has a block");
    let mut vals = vec![0u64; prep.nslots];
    for &(slot, v) in params {
        if slot != NO_SLOT {
            vals[slot as usize] = v;
        }
    }
    let block = run.launch.block;
    let n = block[0] * block[1] * block[2];
    let mut copy = Vec::new();
    for group in workgroups(run.launch.grid) {
        mem.reset_shared();
        for linear in 0..n {
            let item = Item {
                group,
                local: local_id(block, linear),
                linear,
            };
            // The step limit is per work-item: a large launch is no deadlock.
            run.steps = 0;
            work_item(run, mem, &item, entry, &mut vals, &mut copy)?;
        }
    }
    Ok(())
}

fn work_item(
    run: &mut Run,
    mem: &mut Mem,
    item: &Item,
    entry: Block,
    vals: &mut [u64],
    copy: &mut Vec<u64>,
) -> Result<(), InterpError> {
    let prep = run.prep;
    let ir = prep.ir;
    let val = |vals: &[u64], s: u32| if s == NO_SLOT { 0 } else { vals[s as usize] };
    let mut block = entry;
    'blocks: loop {
        for op in ir.block_ops(block) {
            run.counts.ops += 1;
            run.counts.lane_ops += 1;
            run.steps += 1;
            if run.counts.ops > run.max_total_steps {
                return Err(run.out_of_budget(ir.ops[op].loc));
            }
            if run.steps > run.max_steps {
                return Err(run.out_of_steps_cf(ir.ops[op].loc));
            }
            let code = ir.opcode(op);
            let info = &prep.info[op];
            let succ = match code {
                Opcode::Return => return Ok(()),
                Opcode::Br => 0,
                Opcode::CondBr => {
                    if val(vals, info.args[0]) & 1 != 0 {
                        0
                    } else {
                        1
                    }
                }
                Opcode::ConvEntry | Opcode::ConvAnchor | Opcode::ConvLoop => continue,
                _ => {
                    let a = info.args.map(|s| val(vals, s));
                    let r =
                        super::eval_op(run, mem, op, code, info, a, item).map_err(|message| {
                            InterpError {
                                loc: ir.ops[op].loc,
                                message,
                                work_item: Some(item.work_item()),
                            }
                        })?;
                    if info.dest != NO_SLOT {
                        vals[info.dest as usize] = r;
                    }
                    continue;
                }
            };
            let s = &ir.ops[op].succs[succ];
            copy.clear();
            copy.extend(s.args.iter().map(|&v| val(vals, prep.slot[v])));
            for (&p, &v) in ir.blocks[s.block].args.iter().zip(copy.iter()) {
                let slot = prep.slot[p];
                if slot != NO_SLOT {
                    vals[slot as usize] = v;
                }
            }
            block = s.block;
            continue 'blocks;
        }
        // Verified CF blocks end in a terminator; falling off one ends the work-item.
        return Ok(());
    }
}
