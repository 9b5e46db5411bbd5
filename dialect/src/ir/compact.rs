//! Compaction: the module moved into fresh arenas holding only what is linked, numbered in
//! walk (print) order.
//!
//! The arenas never free (see `ir.rs`): a pass that rewrites an op leaves the old one in its
//! slot, so after lowering and the optimizer the arenas are two to three times the live IR,
//! and the live records lie in creation order. Later passes then walk more memory than the
//! kernel needs, in an order the cache cannot predict. [`Ir::compact`] fixes both, once, at
//! the points where the pipeline hands the IR on (after the front end, after the optimizer).
//!
//! Pre: every value an op, a successor or a block reads, and every successor block, is
//! linked (verified IR has this). If one is not, nothing changes and `compact` says so.
//! Post: the same module: it prints the same text (names are given in walk order, not from
//! entity numbers), and the attributes, names and locations are the same. Every entity handle
//! taken before is invalid, so no analysis may be kept across a compaction.
//! Cost: linear in the arenas' length; the records' heap parts (spilled operand lists,
//! successors, attributes, names) move without being copied.

use super::{BlockData, Ir, OpData, RegionData, ValueData, ValueDef};
use crate::entities::{Block, Op, Region, Value};
use crate::ir::Event;
use cranelift_entity::packed_option::PackedOption;
use cranelift_entity::{EntityRef, PrimaryMap, SecondaryMap};

/// Old entity -> new entity, for one kind of entity.
type Map<K> = SecondaryMap<K, PackedOption<K>>;

/// The new number of every linked entity, and the old entities in their new order.
struct Numbering {
    ops: Map<Op>,
    blocks: Map<Block>,
    regions: Map<Region>,
    values: Map<Value>,
    op_order: Vec<Op>,
    block_order: Vec<Block>,
    region_order: Vec<Region>,
    value_order: Vec<Value>,
}

impl Numbering {
    /// Numbers what the walk from the module op reaches: an op and its results when it is
    /// entered, a region, a block and its arguments.
    fn of(ir: &Ir) -> Numbering {
        let mut n = Numbering {
            ops: SecondaryMap::with_capacity(ir.ops.len()),
            blocks: SecondaryMap::with_capacity(ir.blocks.len()),
            regions: SecondaryMap::with_capacity(ir.regions.len()),
            values: SecondaryMap::with_capacity(ir.values.len()),
            op_order: Vec::new(),
            block_order: Vec::new(),
            region_order: Vec::new(),
            value_order: Vec::new(),
        };
        for e in ir.events(ir.top) {
            match e {
                Event::Op(o) => {
                    n.ops[o] = Op::new(n.op_order.len()).into();
                    n.op_order.push(o);
                    for &v in &ir.ops[o].results {
                        n.value(v);
                    }
                }
                Event::Region(r) => {
                    n.regions[r] = Region::new(n.region_order.len()).into();
                    n.region_order.push(r);
                }
                Event::Block(b) => {
                    n.blocks[b] = Block::new(n.block_order.len()).into();
                    n.block_order.push(b);
                    for &v in &ir.blocks[b].args {
                        n.value(v);
                    }
                }
                Event::RegionEnd(_) | Event::OpEnd(_) => {}
            }
        }
        n
    }

    fn value(&mut self, v: Value) {
        self.values[v] = Value::new(self.value_order.len()).into();
        self.value_order.push(v);
    }

    /// Whether everything the linked ops read is linked too.
    fn complete(&self, ir: &Ir) -> bool {
        self.op_order.iter().all(|&o| {
            let d = &ir.ops[o];
            d.operands.iter().all(|&v| self.values[v].is_some())
                && d.succs.iter().all(|s| {
                    self.blocks[s.block].is_some()
                        && s.args.iter().all(|&v| self.values[v].is_some())
                })
        })
    }
}

/// `map[k]`, which the numbering guarantees is set for what a linked entity refers to.
fn get<K: EntityRef + cranelift_entity::packed_option::ReservedValue>(map: &Map<K>, k: K) -> K {
    map[k].expect("a linked entity refers only to linked ones")
}

/// `map[k]` for every `k` of `xs`, in place.
fn remap<K: EntityRef + cranelift_entity::packed_option::ReservedValue>(
    map: &Map<K>,
    xs: &mut [K],
) {
    for x in xs {
        *x = get(map, *x);
    }
}

/// `map[k]` for an optional link.
fn link<K: EntityRef + cranelift_entity::packed_option::ReservedValue>(
    map: &Map<K>,
    k: PackedOption<K>,
) -> PackedOption<K> {
    k.expand().map(|k| get(map, k)).into()
}

impl Ir {
    /// Moves the linked IR into fresh arenas in walk order (see the module comment). `false`
    /// when a linked op reads something unlinked: the IR is then left as it was.
    pub fn compact(&mut self) -> bool {
        let n = Numbering::of(self);
        if !n.complete(self) {
            return false;
        }
        let mut ops: PrimaryMap<Op, OpData> = PrimaryMap::with_capacity(n.op_order.len());
        for &o in &n.op_order {
            let d = &mut self.ops[o];
            let mut operands = std::mem::take(&mut d.operands);
            remap(&n.values, &mut operands);
            let mut results = std::mem::take(&mut d.results);
            remap(&n.values, &mut results);
            let mut regions = std::mem::take(&mut d.regions);
            remap(&n.regions, &mut regions);
            let mut succs = std::mem::take(&mut d.succs);
            for s in &mut succs {
                s.block = get(&n.blocks, s.block);
                remap(&n.values, &mut s.args);
            }
            ops.push(OpData {
                opcode: d.opcode,
                operands,
                results,
                regions,
                succs,
                attrs: std::mem::take(&mut d.attrs),
                loc: d.loc,
                block: link(&n.blocks, d.block),
                prev: link(&n.ops, d.prev),
                next: link(&n.ops, d.next),
            });
        }
        let mut blocks: PrimaryMap<Block, BlockData> =
            PrimaryMap::with_capacity(n.block_order.len());
        for &b in &n.block_order {
            let d = &mut self.blocks[b];
            let mut args = std::mem::take(&mut d.args);
            remap(&n.values, &mut args);
            blocks.push(BlockData {
                args,
                name: d.name.take(),
                region: link(&n.regions, d.region),
                prev: link(&n.blocks, d.prev),
                next: link(&n.blocks, d.next),
                first: link(&n.ops, d.first),
                last: link(&n.ops, d.last),
            });
        }
        let mut regions: PrimaryMap<Region, RegionData> =
            PrimaryMap::with_capacity(n.region_order.len());
        for &r in &n.region_order {
            let d = &self.regions[r];
            regions.push(RegionData {
                parent: link(&n.ops, d.parent),
                first: link(&n.blocks, d.first),
                last: link(&n.blocks, d.last),
            });
        }
        let mut values: PrimaryMap<Value, ValueData> =
            PrimaryMap::with_capacity(n.value_order.len());
        for &v in &n.value_order {
            let d = &mut self.values[v];
            values.push(ValueData {
                ty: d.ty,
                def: match d.def {
                    ValueDef::Result(o, i) => ValueDef::Result(get(&n.ops, o), i),
                    ValueDef::BlockArg(b, i) => ValueDef::BlockArg(get(&n.blocks, b), i),
                },
                name: d.name.take(),
                loc: d.loc,
            });
        }
        self.top = get(&n.ops, self.top);
        self.ops = ops;
        self.blocks = blocks;
        self.regions = regions;
        self.values = values;
        true
    }
}

#[cfg(test)]
mod tests {
    use crate::registry::Opcode;
    use crate::text::{parse, print, PrintOptions};

    const SRC: &str = r#"
module {
  kernel.func @k {
  ^entry(%a: !kernel.ptr<global, i32>, %n: i32):
    %entry = conv.entry : !conv.token
    %t = kernel.workitem_id x : i32
    %i = arith.constant 0 : i32
    cf.br ^loop.header(%i : i32)
  ^loop.header(%i_1: i32):
    %heart = conv.loop %entry : !conv.token
    %0 = arith.cmpi slt, %i_1, %n : i32
    cf.cond_br %0, ^body, ^loop.exit
  ^body:
    %1 = arith.addi %i_1, %t : i32
    kernel.store %1, %a, %i_1 : !kernel.ptr<global, i32>, i32
    %2 = arith.constant 1 : i32
    %i_2 = arith.addi %i_1, %2 : i32
    cf.br ^loop.header(%i_2 : i32)
  ^loop.exit:
    kernel.return
  }
}
"#;

    fn text(ir: &crate::ir::Ir) -> String {
        print(ir, &PrintOptions::generic())
    }

    /// An op removed from its block and one never linked go; the text stays the same; the
    /// entities are numbered in walk order.
    #[test]
    fn compaction_keeps_the_text_and_drops_the_dead() {
        let mut ir = parse(SRC, "t.mlir").expect("the test module parses");
        let k = ir.kernels()[0];
        let loc = ir.ops[k].loc;
        // A dead op: an unused constant, created, linked, then removed.
        let dead = ir.create_op(Opcode::Constant, &[], &[crate::types::Type::I32], loc);
        let body_first = ir.descendants(k).find(|&o| ir.opcode(o) == Opcode::AddI);
        ir.insert_op_before(dead, body_first.expect("an addi"));
        ir.remove_op(dead);
        // A never-linked op.
        ir.create_op(Opcode::Constant, &[], &[], loc);
        let before = text(&ir);
        let (ops, values) = (ir.ops.len(), ir.values.len());
        assert!(ir.compact());
        assert_eq!(text(&ir), before);
        assert_eq!(ir.ops.len(), ops - 2);
        assert_eq!(ir.values.len(), values - 1);
        // Walk order is arena order.
        let walked: Vec<_> = std::iter::once(ir.top)
            .chain(ir.descendants(ir.top))
            .collect();
        assert!(walked.windows(2).all(|w| w[0] < w[1]));
        assert!(crate::verify::verify(&ir).is_ok());
        // Compacting compact IR changes nothing.
        assert!(ir.compact());
        assert_eq!(text(&ir), before);
        assert_eq!(ir.ops.len(), ops - 2);
    }

    /// A linked op that reads a value of a removed op: the IR is left alone.
    #[test]
    fn compaction_refuses_dangling_uses() {
        let mut ir = parse(SRC, "t.mlir").expect("the test module parses");
        let k = ir.kernels()[0];
        let add = ir
            .descendants(k)
            .find(|&o| ir.opcode(o) == Opcode::AddI)
            .expect("an addi");
        ir.remove_op(add);
        let (before, ops) = (text(&ir), ir.ops.len());
        assert!(!ir.compact());
        assert_eq!(text(&ir), before);
        assert_eq!(ir.ops.len(), ops);
    }
}
