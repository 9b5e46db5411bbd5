//! The LLVM names of a kernel's kc values and blocks, and the uniquing of names.

use super::*;

/// The LLVM names of one kernel's kc values and blocks (without `%`), see the module docs.
pub struct LlvmNames {
    /// Every value of the kernel (parameters, block arguments, op results). Values that become
    /// LLVM constants ([`is_folded`]) have a name here that the output never defines.
    pub values: SecondaryMap<Value, String>,
    /// Every block's label.
    pub blocks: SecondaryMap<Block, String>,
}

/// The LLVM name of a value that kc prints as `%kc_name`: numbered names (`12`) become `.12`,
/// every other name is kept. [`llvm_names`] is the exact per-kernel map (it differs from this
/// only when IR input names a value `.N` itself).
pub fn llvm_value_name(kc_name: &str) -> String {
    if is_numbered(kc_name) {
        format!(".{kc_name}")
    } else {
        kc_name.to_string()
    }
}

/// Whether `emit_llvm` turns kc value `v` into an LLVM constant rather than a named value
/// (`arith.constant`, and `kernel.wave_size`, which is 64): such values have a name in
/// [`llvm_names`] that the output never defines, so a value-by-value comparison skips them.
pub fn is_folded(ir: &Ir, v: Value) -> bool {
    ir.defining_op(v)
        .is_some_and(|op| matches!(ir.opcode(op), Opcode::Constant | Opcode::WaveSize))
}

pub(super) fn is_numbered(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit())
}

/// The LLVM names of the values and blocks of kernel `func`, as `emit_llvm` writes them.
pub fn llvm_names(ir: &Ir, func: Op) -> LlvmNames {
    let text::Names {
        values: kc_values,
        blocks: kc_blocks,
        ..
    } = text::names(ir, func);
    let mut values = SecondaryMap::new();
    let mut blocks = SecondaryMap::new();
    let mut used = Used::default();
    let mut vals = Vec::new();
    let mut blks = Vec::new();
    collect(ir, func, &mut vals, &mut blks);
    // Source names first (they are unique among themselves), then the numbered ones.
    let mut numbered = Vec::new();
    for &v in &vals {
        let n = &kc_values[v];
        if is_numbered(n) {
            numbered.push(v);
        } else {
            used.insert(n.clone());
            values[v] = n.clone();
        }
    }
    for v in numbered {
        values[v] = unique(&mut used, llvm_value_name(&kc_values[v]));
    }
    for b in blks {
        let base = &kc_blocks[b];
        let mut cand = base.clone();
        let mut i = 1;
        while used.contains(&cand) {
            cand = if i == 1 {
                format!("{base}.bb")
            } else {
                format!("{base}.bb{i}")
            };
            i += 1;
        }
        used.insert(cand.clone());
        blocks[b] = cand;
    }
    LlvmNames { values, blocks }
}

/// Values and blocks under `op`, in print order.
pub(super) fn collect(ir: &Ir, op: Op, vals: &mut Vec<Value>, blks: &mut Vec<Block>) {
    for event in ir.events(op) {
        match event {
            Event::Block(b) => {
                blks.push(b);
                vals.extend_from_slice(&ir.blocks[b].args);
            }
            Event::Op(o) if o != op => vals.extend_from_slice(&ir.ops[o].results),
            _ => {}
        }
    }
}

/// Names in use, and per base name the next suffix worth trying.
#[derive(Default)]
pub(super) struct Used {
    pub(super) names: HashSet<String>,
    pub(super) next: HashMap<String, u32>,
}

impl Used {
    pub(super) fn insert(&mut self, name: String) -> bool {
        self.names.insert(name)
    }

    pub(super) fn contains(&self, name: &str) -> bool {
        self.names.contains(name)
    }
}

/// `base` if unused, else `base.1`, `base.2`, ... (the first unused); marks the result used.
/// Suffixes already found taken are not tried again, so n names on one base cost O(n).
pub(super) fn unique(used: &mut Used, base: String) -> String {
    if used.insert(base.clone()) {
        return base;
    }
    let mut i = used.next.get(&base).copied().unwrap_or(1);
    loop {
        let cand = format!("{base}.{i}");
        i += 1;
        if used.insert(cand.clone()) {
            used.next.insert(base, i);
            return cand;
        }
    }
}
