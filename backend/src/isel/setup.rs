//! Per-kernel analyses before selection, over the IR and its uniformity (`Isel::run` calls
//! them before emitting any code):
//! - `memory_facts`: the global pointer arguments no store or atomic in the kernel may write
//!   (every store and atomic address must be an argument plus `ptr_offset`s, else none
//!   qualifies): uniform loads through them may be scalar loads (SMEM, `memory.rs`);
//! - `needs_shadow`: the values that need a per-lane copy next to their definition: uniform
//!   values read after a divergent exit of their cycle (temporal divergence) and lane masks
//!   read outside their cycle (`after_def` writes the copy, `use_val` reads it);
//! - `forwarding` (after `analyse_branches`, which decides the staged blocks): block arguments
//!   that only pass their value on to the next block's argument share its register.
//!
//! Register classes follow from uniformity where each value is defined: a divergent value in
//! VGPRs (a divergent `i1` a lane mask in an SGPR pair), a uniform one in SGPRs (a uniform
//! `i1` an SGPR holding 0/1) unless only the vector unit computes it (f32 arithmetic).

use super::Isel;
use kc_dialect::{AddrSpace, Op, Opcode, Type, Value, ValueDef};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

impl Isel<'_> {
    /// SMEM is allowed for loads from pointer arguments no store or atomic may write.
    pub(super) fn memory_facts(&mut self, func: Op) {
        let region = self.ir.ops[func].regions[0];
        let entry = self.ir.entry_block(region).unwrap();
        let args: Vec<Value> = self.ir.blocks[entry].args.clone();
        let mut stored: HashSet<Value> = HashSet::default();
        let mut unknown = false;
        for b in self.ir.region_blocks(region) {
            for op in self.ir.block_ops(b) {
                let ptr = match self.ir.opcode(op) {
                    Opcode::Store | Opcode::AtomicStore => Some(self.ir.ops[op].operands[1]),
                    Opcode::Atomic | Opcode::AtomicCmpxchg => Some(self.ir.ops[op].operands[0]),
                    _ => None,
                };
                if let Some(p) = ptr {
                    match self.root_arg(p) {
                        Some(a) => {
                            stored.insert(a);
                        }
                        None => unknown = true,
                    }
                }
            }
        }
        if !unknown {
            for a in args {
                if matches!(self.ir.value_type(a), Type::Ptr(AddrSpace::Global, _))
                    && !stored.contains(&a)
                {
                    self.smem_ok.insert(a);
                }
            }
        }
    }

    /// Values that need a per-lane copy next to their definition: uniform values read after
    /// a divergent exit of their cycle (temporal divergence), and lane masks read outside
    /// their cycle (a lane mask is rewritten whole each iteration, so lanes that left would
    /// lose their bits). One walk over the kernel.
    pub(super) fn needs_shadow(&self, func: Op) -> HashSet<Value> {
        let mut out: HashSet<Value> = self.u.temporal.iter().map(|t| t.value).collect();
        let region = self.ir.ops[func].regions[0];
        let cfg = &self.u.cfg;
        for b in self.ir.region_blocks(region) {
            for op in self.ir.block_ops(b) {
                let d = &self.ir.ops[op];
                let used = d
                    .operands
                    .iter()
                    .chain(d.succs.iter().flat_map(|s| &s.args));
                for &v in used {
                    if self.ir.value_type(v) != Type::I1 || !self.u.is_divergent(v) {
                        continue;
                    }
                    let Some(db) = self.ir.value_block(v) else {
                        continue;
                    };
                    let inner = self.u.cycles.innermost(cfg.index[db]);
                    if inner.is_some_and(|c| !self.u.cycles.contains(c, cfg.index[b])) {
                        out.insert(v);
                    }
                }
            }
        }
        out
    }

    /// Block arguments `x` of a block `B` ending in `cf.br S(.., x, ..)` that nothing else
    /// reads, when `x` and `S`'s argument `y` there live in registers written per lane
    /// (divergent values, lane masks, `f32`) and neither block stages its arguments: `x` can
    /// live in `y`'s register. `y` is live only where `S` dominates (it is defined on entry to
    /// `S`), and `S` does not dominate `B`, so `y`'s register is free from the edges into `B`
    /// to `S`: the lanes that write `x` there go straight on to `S`, where `y` takes that
    /// value. An else-if chain's joins pass the variable down like this at every level.
    pub(super) fn forwarding(&self, func: Op) -> HashMap<Value, Value> {
        let ir = self.ir;
        let region = ir.ops[func].regions[0];
        let mut uses: HashMap<Value, u32> = HashMap::default();
        for b in ir.region_blocks(region) {
            for op in ir.block_ops(b) {
                let d = &ir.ops[op];
                for &v in d
                    .operands
                    .iter()
                    .chain(d.succs.iter().flat_map(|s| &s.args))
                {
                    *uses.entry(v).or_default() += 1;
                }
            }
        }
        let cfg = &self.u.cfg;
        let mut out = HashMap::default();
        for b in ir.region_blocks(region) {
            let Some(term) = ir.terminator(b) else {
                continue;
            };
            if ir.opcode(term) != Opcode::Br {
                continue;
            }
            let succ = &ir.ops[term].succs[0];
            let (bi, si) = (cfg.index[b], cfg.index[succ.block]);
            let dom = &self.u.dom;
            // (Reachable blocks only: among them forwarding never goes round a cycle.)
            if !dom.is_reachable(bi) || !dom.is_reachable(si) || dom.dominates(si, bi) {
                continue;
            }
            if self.staged.contains(&bi) || self.staged.contains(&si) {
                continue;
            }
            for (&x, &y) in succ.args.iter().zip(&ir.blocks[succ.block].args) {
                let own_arg = matches!(ir.values[x].def, ValueDef::BlockArg(xb, _) if xb == b);
                if own_arg
                    && uses.get(&x) == Some(&1)
                    && ir.value_type(x) == ir.value_type(y)
                    && ir.value_type(x) != Type::Token
                    && !self.is_staged_kind(x)
                    && !self.is_staged_kind(y)
                    && !self.shadowed.contains(&x)
                    && !self.shadowed.contains(&y)
                {
                    out.insert(x, y);
                }
            }
        }
        out
    }

    pub(super) fn root_arg(&self, mut v: Value) -> Option<Value> {
        for _ in 0..64 {
            match self.ir.values[v].def {
                ValueDef::BlockArg(b, _) => {
                    let region = self.ir.block_region(b)?;
                    return (self.ir.entry_block(region) == Some(b)).then_some(v);
                }
                ValueDef::Result(op, _) => {
                    if self.ir.opcode(op) == Opcode::PtrOffset {
                        v = self.ir.ops[op].operands[0];
                    } else {
                        return None;
                    }
                }
            }
        }
        None
    }
}
