//! Machine IR: gfx942 instructions over virtual registers, in laid-out blocks.
//!
//! A machine function is a list of blocks in layout order; control falls through from one
//! block to the next unless the block ends in `s_branch` or `s_endpgm`. That layout is the
//! *wave-level* CFG: the one the hardware follows, with both sides of a divergent branch
//! executed one after the other under different EXEC masks. SGPRs, written for the whole
//! wave, live on it.
//!
//! Per-lane control flow is not that CFG: lanes parked while the wave runs other code (the
//! else lanes of a divergent if while its then side runs, the then lanes between the then
//! side and the join, lanes waiting in a label, continue or loop-exit mask) resume elsewhere
//! than where the layout goes. Each block lists those resume points (`lanes_to`) and says
//! whether its lanes fall through to the next block (`lanes_stop`); VGPR liveness follows the
//! per-lane CFG this gives (a VGPR write touches only the lanes in EXEC, so a lane's value is
//! safe as long as the register stays live along that lane's path), SGPR liveness the
//! wave-level one.
//!
//! Registers are virtual (`VReg`, with a class: SGPR or VGPR, 1..4 dwords) until `regalloc`
//! rewrites them to physical ones. An operand names a register and a dword range of it, so the
//! halves of a 64-bit value are operands too.
//!
//! Between backend passes the kernels travel as a [`MirModule`], which has a text form
//! (`print`, `parse`: `kc --emit=mir`, `.mir` input) and a validator (`validate`).

mod lex;
pub mod module;
pub mod parse;
pub mod print;
pub mod validate;

pub use module::{ArgInfo, At, Budget, Divergence, KernelInfo, MachineKernel, MirModule, Usage};

use crate::isa::Opc;
use cranelift_entity::{entity_impl, PrimaryMap};
use kc_dialect::Loc;

#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VReg(u32);
entity_impl!(VReg, "%r");

#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MBlock(u32);
entity_impl!(MBlock, "bb");

/// Register files.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum File {
    S,
    V,
}

/// A virtual register's class: file and width in dwords.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Class {
    pub file: File,
    pub dwords: u8,
}

impl Class {
    pub const S32: Class = Class {
        file: File::S,
        dwords: 1,
    };
    pub const S64: Class = Class {
        file: File::S,
        dwords: 2,
    };
    pub const V32: Class = Class {
        file: File::V,
        dwords: 1,
    };
    pub const V64: Class = Class {
        file: File::V,
        dwords: 2,
    };
}

/// A physical register or register tuple.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum PReg {
    /// SGPRs `first..first+n`.
    S(u16, u8),
    /// VGPRs `first..first+n`.
    V(u16, u8),
    Vcc,
    Exec,
    M0,
}

/// A register operand: a virtual or physical register and the dwords of it used.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Reg {
    Virt(VReg),
    Phys(PReg),
}

/// One explicit operand.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// Register `reg`, dwords `sub..sub+n` of it.
    Reg {
        reg: Reg,
        sub: u8,
        n: u8,
    },
    /// An integer constant (printed inline when the hardware allows, else as a literal).
    Imm(i64),
    Label(MBlock),
    /// `off` in the SAddr slot.
    Off,
    /// `s_waitcnt` counters (`None`: not waited on).
    Wait {
        vm: Option<u8>,
        lgkm: Option<u8>,
    },
    /// The byte distance from the start of block `from` to the start of block `to`, a 32-bit
    /// literal: its low half, or with `hi` its high half (a long branch's offset).
    LabelDiff {
        to: MBlock,
        from: MBlock,
        hi: bool,
    },
}

impl Operand {
    pub fn reg(&self) -> Option<Reg> {
        match self {
            Operand::Reg { reg, .. } => Some(*reg),
            _ => None,
        }
    }
}

/// An instruction's operands: up to four live inside the instruction (most have two to
/// four), so walking the instructions of a block does not chase a pointer per instruction.
pub type Operands = smallvec::SmallVec<[Operand; 4]>;

/// One machine instruction.
#[derive(Clone, Debug)]
pub struct Inst {
    pub op: Opc,
    pub ops: Operands,
    /// `offset:N` of memory instructions.
    pub offset: u32,
    /// `sc0` (for atomics: return the old value).
    pub sc0: bool,
    /// `sc1` (the cache operations of the memory model: agent scope).
    pub sc1: bool,
    /// The DPP control of a VOP1/VOP2 instruction in its `_dpp` encoding (src0 read across
    /// lanes; see `dpp`).
    pub dpp: Option<crate::dpp::Dpp>,
    pub loc: Loc,
    pub comment: Option<String>,
}

impl Inst {
    /// The label a branch goes to (the first label operand: `s_cbranch_i_fork`'s is its
    /// second operand).
    pub fn target(&self) -> Option<MBlock> {
        if !self.op.desc().is_branch() {
            return None;
        }
        self.ops.iter().find_map(|o| match o {
            Operand::Label(t) => Some(*t),
            _ => None,
        })
    }

    /// `op` on `ops` at `loc`: no memory offset, no `sc0`, no comment.
    pub fn new(op: Opc, ops: impl Into<Operands>, loc: Loc) -> Inst {
        Inst {
            op,
            ops: ops.into(),
            offset: 0,
            sc0: false,
            sc1: false,
            dpp: None,
            loc,
            comment: None,
        }
    }

    /// The first definition is also read: the table says so (`v_writelane_b32`), or a DPP
    /// control may leave lanes of it unwritten.
    pub fn reads_dst(&self) -> bool {
        self.op.desc().reads_dst || self.dpp.is_some_and(|d| d.partial_write())
    }

    /// The operands it writes (the table's leading `defs`) and the ones after them.
    pub fn defs_and_uses(&self) -> (&[Operand], &[Operand]) {
        self.ops
            .split_at(usize::from(self.op.desc().defs).min(self.ops.len()))
    }
}

#[derive(Clone, Debug, Default)]
pub struct BlockData {
    pub insts: Vec<Inst>,
    /// Printed before the block's label (e.g. `; %bb.3: divergent if`).
    pub comment: Option<String>,
    /// Blocks where lanes that are in EXEC at the end of this block (or are taken out of it
    /// by its last instructions) resume, when the wave-level CFG does not lead there
    /// directly: per-lane edges, for VGPR liveness.
    pub lanes_to: Vec<MBlock>,
    /// No lane falls through from this block into the next one: the lanes in EXEC at its
    /// end resume at `lanes_to` (the end of a divergent if's then side, before its else side).
    pub lanes_stop: bool,
    /// Blocks where the wave may go on from the end of this block besides its branches and
    /// fall-through: the resume points an `s_cbranch_join` here may pop (`fork_join`).
    /// Wave-level edges, for SGPR liveness.
    pub wave_to: Vec<MBlock>,
}

/// A machine function.
#[derive(Clone, Debug, Default)]
pub struct Func {
    pub name: String,
    pub blocks: PrimaryMap<MBlock, BlockData>,
    /// Layout order.
    pub layout: Vec<MBlock>,
    pub vregs: PrimaryMap<VReg, Class>,
}

impl Func {
    pub fn new_vreg(&mut self, c: Class) -> VReg {
        self.vregs.push(c)
    }
    pub fn new_block(&mut self) -> MBlock {
        self.blocks.push(BlockData::default())
    }
}

/// Builders for operands.
pub fn r(v: VReg) -> Operand {
    Operand::Reg {
        reg: Reg::Virt(v),
        sub: 0,
        n: 0, // 0 = the whole register (its class width)
    }
}
pub fn rsub(v: VReg, sub: u8, n: u8) -> Operand {
    Operand::Reg {
        reg: Reg::Virt(v),
        sub,
        n,
    }
}
pub fn p(reg: PReg) -> Operand {
    Operand::Reg {
        reg: Reg::Phys(reg),
        sub: 0,
        n: 0,
    }
}

/// An instruction selected in its VOP3 (e64) form that has the short e32 encoding: its
/// lane-mask operands (carry out/in, compare result, `v_cndmask_b32`'s select) are all VCC,
/// and its src1 is a VGPR (e32 takes VCC implicitly and an SGPR, a constant or a literal in
/// src0 only). The listing spells it `_e32`, and a literal src0 is legal then.
pub fn has_e32(i: &Inst) -> bool {
    let d = i.op.desc();
    if !matches!(d.fmt, crate::isa::Fmt::Vopc | crate::isa::Fmt::Vop3) {
        return false;
    }
    let mut masks = 0;
    let mut srcs = 0;
    for (k, o) in i.ops.iter().enumerate() {
        match d.operands.get(k) {
            Some(crate::isa::Kind::SReg(2) | crate::isa::Kind::SSrc(2)) => {
                if *o != p(PReg::Vcc) {
                    return false;
                }
                masks += 1;
            }
            Some(crate::isa::Kind::VSrc(_)) => {
                srcs += 1;
                let vgpr = matches!(
                    o,
                    Operand::Reg {
                        reg: Reg::Phys(PReg::V(..)),
                        ..
                    }
                );
                if srcs == 2 && !vgpr {
                    return false;
                }
            }
            _ => {}
        }
    }
    masks > 0 && srcs >= 2
}
