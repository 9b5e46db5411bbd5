//! The gfx942 instruction table: the one description of every machine instruction kc emits.
//!
//! Per instruction: its assembler mnemonic, its encoding family, its explicit operands in
//! assembler order (which of them are definitions, register class and width of each), the
//! implicit state it reads or writes (EXEC, SCC, VCC), and whether a trailing `offset:N` /
//! cache-policy modifiers are accepted. The asm printer prints from this table and the
//! simulator's parser parses with it, so a listing kc prints is by construction a listing the
//! simulator reads; the simulator gives each `Opc` its meaning.
//!
//! The table also holds the control-flow pseudos (`Fmt::Pseudo`, `cf_*`): MIR-only
//! instructions isel selects and `exec_lowering` replaces (its header says what each means and
//! becomes). Their rows give their operands and implicit EXEC/SCC effects for the MIR parser,
//! printer and validator; the validator rejects them after `isel`, so no listing has one, and
//! the simulator's parser refuses them.
//!
//! Guarantees: mnemonics are unique and, except the pseudos', spelled as llvm-mc-22 accepts
//! them for `-mcpu=gfx942`; `defs` leading operands are written, the rest are read (a `VDst`
//! that the instruction also reads, like `v_writelane_b32`, is marked `reads_dst`).

use std::fmt;

/// SGPRs a gfx942 kernel can address (VCC above them), and VGPRs.
pub const SGPR_BUDGET: u16 = 102;
pub const VGPR_BUDGET: u16 = 256;

/// The largest `tid_dims` (`.amdhsa_system_vgpr_workitem_id`): 0 enables the x work-item id,
/// 1 x and y, 2 all three (3 is reserved; llvm-mc-22 rejects more).
pub const MAX_TID_DIMS: u8 = 2;

/// Registers the kernel ABI fixes: s[0:1] kernarg pointer, s2..s4 workgroup ids, v0 ids.
pub const RESERVED_SGPRS: u16 = 5;
pub const RESERVED_VGPRS: u16 = 1;

/// Encoding families (they decide which operand kinds are legal where).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Fmt {
    Sop1,
    Sop2,
    Sopc,
    Sopp,
    /// `s_getreg_b32`, `s_cbranch_i_fork`: a 16-bit immediate (or branch offset) and an SGPR.
    Sopk,
    Smem,
    Vop1,
    Vop2,
    Vop3,
    Vopc,
    Ds,
    Global,
    /// Scratch (private memory, gfx942's architected flat scratch): per-lane addresses in the
    /// wave's private segment.
    Scratch,
    /// A control-flow pseudo instruction: isel emits it on the logical CFG and
    /// `exec_lowering` replaces it; it has no encoding and never reaches a listing.
    Pseudo,
}

/// Which execution unit runs it (for the simulator's counts and the hazard recognizer).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Unit {
    Salu,
    Valu,
    Smem,
    Vmem,
    Lds,
    Branch,
    /// `s_waitcnt`, `s_nop`, `s_barrier`, `s_endpgm`.
    Control,
}

/// An explicit operand slot.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Kind {
    /// Scalar register (SGPR, VCC, EXEC, M0) of `n` dwords.
    SReg(u8),
    /// Scalar source: an SGPR tuple of `n` dwords, VCC/EXEC, or a constant.
    SSrc(u8),
    /// Vector register (VGPR tuple of `n` dwords).
    VReg(u8),
    /// Vector-ALU source of `n` dwords: a VGPR, an SGPR or a constant.
    VSrc(u8),
    /// A branch target label.
    Label,
    /// A raw immediate (`s_nop 3`, `v_bfe_u32`'s operands use `VSrc`).
    Imm,
    /// The `s_waitcnt` counter list (`vmcnt(0) lgkmcnt(0)`).
    Waitcnt,
    /// `off` or an SGPR pair: the scalar base of a global access.
    SAddr,
    /// `off` or a VGPR: the per-lane byte offset of a scratch access.
    VAddr,
    /// `off` or an SGPR: the scalar byte offset of a scratch access.
    SBase,
}

/// Implicit state.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Implicit {
    pub reads_exec: bool,
    pub writes_exec: bool,
    pub reads_scc: bool,
    pub writes_scc: bool,
}

/// One instruction description.
#[derive(Debug)]
pub struct Desc {
    pub name: &'static str,
    pub fmt: Fmt,
    pub unit: Unit,
    pub operands: &'static [Kind],
    /// How many leading operands are definitions.
    pub defs: u8,
    pub implicit: Implicit,
    /// The first def is also read (only the active lanes are written: `v_writelane_b32`,
    /// `v_cndmask` is not one of these).
    pub reads_dst: bool,
    /// Accepts `offset:N` and cache-policy bits (`sc0 sc1 nt`).
    pub mem: bool,
}

impl Desc {
    pub fn is_branch(&self) -> bool {
        self.unit == Unit::Branch
    }
    /// A control-flow pseudo (`exec_lowering` replaces it).
    pub fn is_pseudo(&self) -> bool {
        self.fmt == Fmt::Pseudo
    }
}

const NO: Implicit = Implicit {
    reads_exec: false,
    writes_exec: false,
    reads_scc: false,
    writes_scc: false,
};
const SCC_W: Implicit = Implicit {
    writes_scc: true,
    ..NO
};
const SCC_R: Implicit = Implicit {
    reads_scc: true,
    ..NO
};
const SCC_RW: Implicit = Implicit {
    reads_scc: true,
    writes_scc: true,
    ..NO
};
const EX: Implicit = Implicit {
    reads_exec: true,
    ..NO
};
const EXEC_RW: Implicit = Implicit {
    reads_exec: true,
    writes_exec: true,
    writes_scc: true,
    ..NO
};
const SAVEEXEC: Implicit = Implicit {
    reads_exec: true,
    writes_exec: true,
    writes_scc: true,
    ..NO
};

use Kind::{Imm, Label, SAddr, SBase, SReg, SSrc, VAddr, VReg, VSrc, Waitcnt};

macro_rules! isa {
    ($( $v:ident = $name:literal $fmt:ident $unit:ident [$($k:expr),*] defs $d:literal $imp:ident $(+ $flag:ident)* ;)*) => {
        /// Every machine opcode kc emits; `Opc::desc` gives its table row.
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        #[allow(non_camel_case_types)]
        pub enum Opc { $($v),* }

        static DESCS: &[Desc] = &[$(Desc {
            name: $name,
            fmt: Fmt::$fmt,
            unit: Unit::$unit,
            operands: &[$($k),*],
            defs: $d,
            implicit: $imp,
            reads_dst: isa!(@flag reads_dst $($flag)*),
            mem: isa!(@flag mem $($flag)*),
        }),*];

        impl Opc {
            pub const ALL: &'static [Opc] = &[$(Opc::$v),*];
            pub fn desc(self) -> &'static Desc {
                &DESCS[self as usize]
            }
            pub fn name(self) -> &'static str {
                self.desc().name
            }
            /// The opcode of an assembler mnemonic.
            pub fn from_name(name: &str) -> Option<Opc> {
                match name {
                    $($name => Some(Opc::$v),)*
                    _ => None,
                }
            }
        }
    };
    (@flag $want:ident) => { false };
    (@flag reads_dst reads_dst $($rest:ident)*) => { true };
    (@flag mem mem $($rest:ident)*) => { true };
    (@flag $want:ident $other:ident $($rest:ident)*) => { isa!(@flag $want $($rest)*) };
}

isa! {
    // ---- SOP1 ----
    S_MOV_B32 = "s_mov_b32" Sop1 Salu [SReg(1), SSrc(1)] defs 1 NO;
    S_MOV_B64 = "s_mov_b64" Sop1 Salu [SReg(2), SSrc(2)] defs 1 NO;
    S_NOT_B32 = "s_not_b32" Sop1 Salu [SReg(1), SSrc(1)] defs 1 SCC_W;
    S_BREV_B32 = "s_brev_b32" Sop1 Salu [SReg(1), SSrc(1)] defs 1 NO;
    S_NOT_B64 = "s_not_b64" Sop1 Salu [SReg(2), SSrc(2)] defs 1 SCC_W;
    S_AND_SAVEEXEC_B64 = "s_and_saveexec_b64" Sop1 Salu [SReg(2), SSrc(2)] defs 1 SAVEEXEC;
    S_OR_SAVEEXEC_B64 = "s_or_saveexec_b64" Sop1 Salu [SReg(2), SSrc(2)] defs 1 SAVEEXEC;
    S_ANDN2_SAVEEXEC_B64 = "s_andn2_saveexec_b64" Sop1 Salu [SReg(2), SSrc(2)] defs 1 SAVEEXEC;
    S_FF1_I32_B64 = "s_ff1_i32_b64" Sop1 Salu [SReg(1), SSrc(2)] defs 1 NO;
    S_BCNT1_I32_B64 = "s_bcnt1_i32_b64" Sop1 Salu [SReg(1), SSrc(2)] defs 1 SCC_W;
    S_BITSET0_B64 = "s_bitset0_b64" Sop1 Salu [SReg(2), SSrc(1)] defs 1 NO + reads_dst;
    S_SEXT_I32_I16 = "s_sext_i32_i16" Sop1 Salu [SReg(1), SSrc(1)] defs 1 NO;
    S_ABS_I32 = "s_abs_i32" Sop1 Salu [SReg(1), SSrc(1)] defs 1 SCC_W;
    // Long branches (`branch_relax`): the address of the next instruction; a jump to an
    // address.
    S_GETPC_B64 = "s_getpc_b64" Sop1 Salu [SReg(2)] defs 1 NO;
    S_SETPC_B64 = "s_setpc_b64" Sop1 Branch [SReg(2)] defs 0 NO;

    // ---- SOP2 ----
    S_ADD_U32 = "s_add_u32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 SCC_W;
    S_ADDC_U32 = "s_addc_u32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 SCC_RW;
    S_SUB_U32 = "s_sub_u32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 SCC_W;
    S_SUBB_U32 = "s_subb_u32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 SCC_RW;
    S_ADD_I32 = "s_add_i32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 SCC_W;
    S_SUB_I32 = "s_sub_i32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 SCC_W;
    S_MUL_I32 = "s_mul_i32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 NO;
    S_MUL_HI_U32 = "s_mul_hi_u32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 NO;
    S_MUL_HI_I32 = "s_mul_hi_i32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 NO;
    S_AND_B32 = "s_and_b32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 SCC_W;
    S_OR_B32 = "s_or_b32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 SCC_W;
    S_XOR_B32 = "s_xor_b32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 SCC_W;
    S_ANDN2_B32 = "s_andn2_b32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 SCC_W;
    S_AND_B64 = "s_and_b64" Sop2 Salu [SReg(2), SSrc(2), SSrc(2)] defs 1 SCC_W;
    S_OR_B64 = "s_or_b64" Sop2 Salu [SReg(2), SSrc(2), SSrc(2)] defs 1 SCC_W;
    S_XOR_B64 = "s_xor_b64" Sop2 Salu [SReg(2), SSrc(2), SSrc(2)] defs 1 SCC_W;
    S_ANDN2_B64 = "s_andn2_b64" Sop2 Salu [SReg(2), SSrc(2), SSrc(2)] defs 1 SCC_W;
    S_ORN2_B64 = "s_orn2_b64" Sop2 Salu [SReg(2), SSrc(2), SSrc(2)] defs 1 SCC_W;
    S_LSHL_B32 = "s_lshl_b32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 SCC_W;
    S_LSHR_B32 = "s_lshr_b32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 SCC_W;
    S_ASHR_I32 = "s_ashr_i32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 SCC_W;
    S_LSHL_B64 = "s_lshl_b64" Sop2 Salu [SReg(2), SSrc(2), SSrc(1)] defs 1 SCC_W;
    S_LSHR_B64 = "s_lshr_b64" Sop2 Salu [SReg(2), SSrc(2), SSrc(1)] defs 1 SCC_W;
    S_ASHR_I64 = "s_ashr_i64" Sop2 Salu [SReg(2), SSrc(2), SSrc(1)] defs 1 SCC_W;
    S_MIN_I32 = "s_min_i32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 SCC_W;
    S_MAX_I32 = "s_max_i32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 SCC_W;
    S_MIN_U32 = "s_min_u32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 SCC_W;
    S_MAX_U32 = "s_max_u32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 SCC_W;
    S_CSELECT_B32 = "s_cselect_b32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 SCC_R;
    S_CSELECT_B64 = "s_cselect_b64" Sop2 Salu [SReg(2), SSrc(2), SSrc(2)] defs 1 SCC_R;
    S_BFE_U32 = "s_bfe_u32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 SCC_W;
    S_LSHL2_ADD_U32 = "s_lshl2_add_u32" Sop2 Salu [SReg(1), SSrc(1), SSrc(1)] defs 1 SCC_W;

    // ---- SOPC (write SCC) ----
    S_CMP_EQ_U32 = "s_cmp_eq_u32" Sopc Salu [SSrc(1), SSrc(1)] defs 0 SCC_W;
    S_CMP_LG_U32 = "s_cmp_lg_u32" Sopc Salu [SSrc(1), SSrc(1)] defs 0 SCC_W;
    S_CMP_LT_I32 = "s_cmp_lt_i32" Sopc Salu [SSrc(1), SSrc(1)] defs 0 SCC_W;
    S_CMP_LE_I32 = "s_cmp_le_i32" Sopc Salu [SSrc(1), SSrc(1)] defs 0 SCC_W;
    S_CMP_GT_I32 = "s_cmp_gt_i32" Sopc Salu [SSrc(1), SSrc(1)] defs 0 SCC_W;
    S_CMP_GE_I32 = "s_cmp_ge_i32" Sopc Salu [SSrc(1), SSrc(1)] defs 0 SCC_W;
    S_CMP_LT_U32 = "s_cmp_lt_u32" Sopc Salu [SSrc(1), SSrc(1)] defs 0 SCC_W;
    S_CMP_LE_U32 = "s_cmp_le_u32" Sopc Salu [SSrc(1), SSrc(1)] defs 0 SCC_W;
    S_CMP_GT_U32 = "s_cmp_gt_u32" Sopc Salu [SSrc(1), SSrc(1)] defs 0 SCC_W;
    S_CMP_GE_U32 = "s_cmp_ge_u32" Sopc Salu [SSrc(1), SSrc(1)] defs 0 SCC_W;
    S_CMP_EQ_U64 = "s_cmp_eq_u64" Sopc Salu [SSrc(2), SSrc(2)] defs 0 SCC_W;
    S_CMP_LG_U64 = "s_cmp_lg_u64" Sopc Salu [SSrc(2), SSrc(2)] defs 0 SCC_W;

    // ---- SOPK compares: SCC = sdst <op> the 16-bit immediate (sign-extended for the `_i32`
    // forms, zero-extended for `_u32`); `s_addk_i32` / `s_mulk_i32`: sdst op= sign-extended
    // immediate (addk's SCC is the signed overflow) ----
    S_CMPK_EQ_I32 = "s_cmpk_eq_i32" Sopk Salu [SReg(1), Imm] defs 0 SCC_W;
    S_CMPK_LG_I32 = "s_cmpk_lg_i32" Sopk Salu [SReg(1), Imm] defs 0 SCC_W;
    S_CMPK_GT_I32 = "s_cmpk_gt_i32" Sopk Salu [SReg(1), Imm] defs 0 SCC_W;
    S_CMPK_GE_I32 = "s_cmpk_ge_i32" Sopk Salu [SReg(1), Imm] defs 0 SCC_W;
    S_CMPK_LT_I32 = "s_cmpk_lt_i32" Sopk Salu [SReg(1), Imm] defs 0 SCC_W;
    S_CMPK_LE_I32 = "s_cmpk_le_i32" Sopk Salu [SReg(1), Imm] defs 0 SCC_W;
    S_CMPK_EQ_U32 = "s_cmpk_eq_u32" Sopk Salu [SReg(1), Imm] defs 0 SCC_W;
    S_CMPK_LG_U32 = "s_cmpk_lg_u32" Sopk Salu [SReg(1), Imm] defs 0 SCC_W;
    S_CMPK_GT_U32 = "s_cmpk_gt_u32" Sopk Salu [SReg(1), Imm] defs 0 SCC_W;
    S_CMPK_GE_U32 = "s_cmpk_ge_u32" Sopk Salu [SReg(1), Imm] defs 0 SCC_W;
    S_CMPK_LT_U32 = "s_cmpk_lt_u32" Sopk Salu [SReg(1), Imm] defs 0 SCC_W;
    S_CMPK_LE_U32 = "s_cmpk_le_u32" Sopk Salu [SReg(1), Imm] defs 0 SCC_W;
    S_ADDK_I32 = "s_addk_i32" Sopk Salu [SReg(1), Imm] defs 1 SCC_W + reads_dst;
    S_MULK_I32 = "s_mulk_i32" Sopk Salu [SReg(1), Imm] defs 1 NO + reads_dst;

    // ---- SOPP ----
    S_BRANCH = "s_branch" Sopp Branch [Label] defs 0 NO;
    S_CBRANCH_SCC0 = "s_cbranch_scc0" Sopp Branch [Label] defs 0 SCC_R;
    S_CBRANCH_SCC1 = "s_cbranch_scc1" Sopp Branch [Label] defs 0 SCC_R;
    S_CBRANCH_EXECZ = "s_cbranch_execz" Sopp Branch [Label] defs 0 EX;
    S_CBRANCH_EXECNZ = "s_cbranch_execnz" Sopp Branch [Label] defs 0 EX;
    // Taken when VCC is zero / not zero (clang's listings branch on a compare in VCC).
    S_CBRANCH_VCCZ = "s_cbranch_vccz" Sopp Branch [Label] defs 0 NO;
    S_CBRANCH_VCCNZ = "s_cbranch_vccnz" Sopp Branch [Label] defs 0 NO;
    S_WAITCNT = "s_waitcnt" Sopp Control [Waitcnt] defs 0 NO;
    S_NOP = "s_nop" Sopp Control [Imm] defs 0 NO;
    S_BARRIER = "s_barrier" Sopp Control [] defs 0 NO;
    S_ENDPGM = "s_endpgm" Sopp Control [] defs 0 NO;
    // A trap (clang's listings end unreachable code with one): the simulator stops with an
    // error if one runs.
    S_TRAP = "s_trap" Sopp Control [Imm] defs 0 NO;
    // Cache write-back / invalidate of the memory model (`sc0`/`sc1` scope bits): the
    // simulator has no caches, so they do nothing there.
    BUFFER_WBL2 = "buffer_wbl2" Global Vmem [] defs 0 NO + mem;
    BUFFER_INV = "buffer_inv" Global Vmem [] defs 0 NO + mem;

    // ---- FORK/JOIN (`fork_join`; their semantics in `sim/exec/mod.rs`) ----
    // `s_getreg_b32 sN, hwreg(HW_REG_MODE, 29, 3)` reads the control stack pointer (CSP).
    S_GETREG_B32 = "s_getreg_b32" Sopk Salu [SReg(1), Imm] defs 1 NO;
    // Writes `hwreg(HW_REG_MODE, offset, size)` from an SGPR / a 32-bit constant: the MODE
    // register's denormal fields (`fp_mode`; an f32 division in a flushing kernel).
    S_SETREG_B32 = "s_setreg_b32" Sopk Salu [Imm, SReg(1)] defs 0 NO;
    S_SETREG_IMM32_B32 = "s_setreg_imm32_b32" Sopk Salu [Imm, SSrc(1)] defs 0 NO;
    // The 16-bit immediate sign-extended (clang's listings).
    S_MOVK_I32 = "s_movk_i32" Sopk Salu [SReg(1), Imm] defs 1 NO;
    S_CBRANCH_I_FORK = "s_cbranch_i_fork" Sopk Branch [SSrc(2), Label] defs 0 EXEC_RW;
    S_CBRANCH_G_FORK = "s_cbranch_g_fork" Sop2 Branch [SSrc(2), SSrc(2)] defs 0 EXEC_RW;
    S_CBRANCH_JOIN = "s_cbranch_join" Sop1 Branch [SSrc(1)] defs 0 EXEC_RW;

    // ---- SMEM: dst, base pair, offset (byte immediate or SGPR) ----
    S_LOAD_DWORD = "s_load_dword" Smem Smem [SReg(1), SSrc(2), SSrc(1)] defs 1 NO;
    S_LOAD_DWORDX2 = "s_load_dwordx2" Smem Smem [SReg(2), SSrc(2), SSrc(1)] defs 1 NO;
    S_LOAD_DWORDX4 = "s_load_dwordx4" Smem Smem [SReg(4), SSrc(2), SSrc(1)] defs 1 NO;
    S_LOAD_DWORDX8 = "s_load_dwordx8" Smem Smem [SReg(8), SSrc(2), SSrc(1)] defs 1 NO;
    S_LOAD_DWORDX16 = "s_load_dwordx16" Smem Smem [SReg(16), SSrc(2), SSrc(1)] defs 1 NO;

    // ---- VOP1 ----
    V_MOV_B32 = "v_mov_b32_e32" Vop1 Valu [VReg(1), VSrc(1)] defs 1 EX;
    // gfx940+: a 64-bit move (an aligned VGPR/SGPR pair or a 64-bit inline constant).
    V_MOV_B64 = "v_mov_b64_e32" Vop1 Valu [VReg(2), VSrc(2)] defs 1 EX;
    V_NOT_B32 = "v_not_b32_e32" Vop1 Valu [VReg(1), VSrc(1)] defs 1 EX;
    V_READFIRSTLANE_B32 = "v_readfirstlane_b32" Vop1 Valu [SReg(1), VReg(1)] defs 1 EX;
    V_CVT_F32_I32 = "v_cvt_f32_i32_e32" Vop1 Valu [VReg(1), VSrc(1)] defs 1 EX;
    V_CVT_F32_U32 = "v_cvt_f32_u32_e32" Vop1 Valu [VReg(1), VSrc(1)] defs 1 EX;
    V_CVT_I32_F32 = "v_cvt_i32_f32_e32" Vop1 Valu [VReg(1), VSrc(1)] defs 1 EX;
    V_CVT_U32_F32 = "v_cvt_u32_f32_e32" Vop1 Valu [VReg(1), VSrc(1)] defs 1 EX;
    V_RCP_F32 = "v_rcp_f32_e32" Vop1 Valu [VReg(1), VSrc(1)] defs 1 EX;
    V_RCP_IFLAG_F32 = "v_rcp_iflag_f32_e32" Vop1 Valu [VReg(1), VSrc(1)] defs 1 EX;
    V_TRUNC_F32 = "v_trunc_f32_e32" Vop1 Valu [VReg(1), VSrc(1)] defs 1 EX;
    V_FLOOR_F32 = "v_floor_f32_e32" Vop1 Valu [VReg(1), VSrc(1)] defs 1 EX;
    V_RNDNE_F32 = "v_rndne_f32_e32" Vop1 Valu [VReg(1), VSrc(1)] defs 1 EX;
    // Leading zeros / leading sign bits from the MSB; -1 when there is no such bit.
    V_FFBH_U32 = "v_ffbh_u32_e32" Vop1 Valu [VReg(1), VSrc(1)] defs 1 EX;
    V_FFBH_I32 = "v_ffbh_i32_e32" Vop1 Valu [VReg(1), VSrc(1)] defs 1 EX;
    // x = mant * 2^exp with |mant| in [0.5, 1) (denormals included; 0, inf, NaN: see alu).
    V_FREXP_MANT_F32 = "v_frexp_mant_f32_e32" Vop1 Valu [VReg(1), VSrc(1)] defs 1 EX;
    V_FREXP_EXP_I32_F32 = "v_frexp_exp_i32_f32_e32" Vop1 Valu [VReg(1), VSrc(1)] defs 1 EX;
    // The bits in reverse order.
    V_BFREV_B32 = "v_bfrev_b32_e32" Vop1 Valu [VReg(1), VSrc(1)] defs 1 EX;

    // ---- VOP2 (src0 any, src1 VGPR) ----
    V_ADD_U32 = "v_add_u32_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    V_SUB_U32 = "v_sub_u32_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    V_SUBREV_U32 = "v_subrev_u32_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    V_AND_B32 = "v_and_b32_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    V_OR_B32 = "v_or_b32_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    V_XOR_B32 = "v_xor_b32_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    V_LSHLREV_B32 = "v_lshlrev_b32_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    V_LSHRREV_B32 = "v_lshrrev_b32_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    V_ASHRREV_I32 = "v_ashrrev_i32_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    V_MIN_I32 = "v_min_i32_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    V_MAX_I32 = "v_max_i32_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    V_MIN_U32 = "v_min_u32_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    V_MAX_U32 = "v_max_u32_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    V_ADD_F32 = "v_add_f32_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    V_SUB_F32 = "v_sub_f32_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    V_MUL_F32 = "v_mul_f32_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    // The low 16 bits of each operand multiplied; the upper half of the result is zeroed.
    V_MUL_LO_U16 = "v_mul_lo_u16_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    V_MIN_F32 = "v_min_f32_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    V_MAX_F32 = "v_max_f32_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    // vdst = src0 * src1 + vdst (one rounding); src0 may be a literal.
    V_FMAC_F32 = "v_fmac_f32_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX + reads_dst;
    // src1 - src0.
    V_SUBREV_F32 = "v_subrev_f32_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    // 24-bit multiplies: the low 24 bits of each source, sign-extended (`_i32_i24`) or
    // zero-extended (`_u32_u24`); the low or high 32 bits of the 48-bit product.
    V_MUL_I32_I24 = "v_mul_i32_i24_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    V_MUL_HI_I32_I24 = "v_mul_hi_i32_i24_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    V_MUL_U32_U24 = "v_mul_u32_u24_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;
    V_MUL_HI_U32_U24 = "v_mul_hi_u32_u24_e32" Vop2 Valu [VReg(1), VSrc(1), VReg(1)] defs 1 EX;

    // ---- VOP3 (two scalar-bus sources at most one SGPR; no literals) ----
    V_MUL_LO_U32 = "v_mul_lo_u32" Vop3 Valu [VReg(1), VSrc(1), VSrc(1)] defs 1 EX;
    V_MUL_HI_U32 = "v_mul_hi_u32" Vop3 Valu [VReg(1), VSrc(1), VSrc(1)] defs 1 EX;
    V_MUL_HI_I32 = "v_mul_hi_i32" Vop3 Valu [VReg(1), VSrc(1), VSrc(1)] defs 1 EX;
    V_ADD_U32_E64 = "v_add_u32_e64" Vop3 Valu [VReg(1), VSrc(1), VSrc(1)] defs 1 EX;
    V_SUB_U32_E64 = "v_sub_u32_e64" Vop3 Valu [VReg(1), VSrc(1), VSrc(1)] defs 1 EX;
    V_LSHLREV_B32_E64 = "v_lshlrev_b32_e64" Vop3 Valu [VReg(1), VSrc(1), VSrc(1)] defs 1 EX;
    V_CNDMASK_B32 = "v_cndmask_b32_e64" Vop3 Valu [VReg(1), VSrc(1), VSrc(1), SSrc(2)] defs 1 EX;
    V_BFE_U32 = "v_bfe_u32" Vop3 Valu [VReg(1), VSrc(1), VSrc(1), VSrc(1)] defs 1 EX;
    // (src0 << src1) + src2; the funnel shift ({src0, src1} >> src2)[31:0].
    V_LSHL_ADD_U32 = "v_lshl_add_u32" Vop3 Valu [VReg(1), VSrc(1), VSrc(1), VSrc(1)] defs 1 EX;
    V_ALIGNBIT_B32 = "v_alignbit_b32" Vop3 Valu [VReg(1), VSrc(1), VSrc(1), VSrc(1)] defs 1 EX;
    V_LSHL_ADD_U64 = "v_lshl_add_u64" Vop3 Valu [VReg(2), VSrc(2), VSrc(1), VSrc(2)] defs 1 EX;
    V_ADD_CO_U32 = "v_add_co_u32_e64" Vop3 Valu [VReg(1), SReg(2), VSrc(1), VSrc(1)] defs 2 EX;
    V_ADDC_CO_U32 = "v_addc_co_u32_e64" Vop3 Valu [VReg(1), SReg(2), VSrc(1), VSrc(1), SSrc(2)] defs 2 EX;
    V_SUB_CO_U32 = "v_sub_co_u32_e64" Vop3 Valu [VReg(1), SReg(2), VSrc(1), VSrc(1)] defs 2 EX;
    V_SUBB_CO_U32 = "v_subb_co_u32_e64" Vop3 Valu [VReg(1), SReg(2), VSrc(1), VSrc(1), SSrc(2)] defs 2 EX;
    // src1 - src0; sdst = the borrow (src0 > src1).
    V_SUBREV_CO_U32 = "v_subrev_co_u32_e64" Vop3 Valu [VReg(1), SReg(2), VSrc(1), VSrc(1)] defs 2 EX;
    // src1 - src0 - borrow-in; sdst = the borrow out.
    V_SUBBREV_CO_U32 = "v_subbrev_co_u32_e64" Vop3 Valu [VReg(1), SReg(2), VSrc(1), VSrc(1), SSrc(2)] defs 2 EX;
    // popcount(src0) + src1.
    V_BCNT_U32_B32 = "v_bcnt_u32_b32" Vop3 Valu [VReg(1), VSrc(1), VSrc(1)] defs 1 EX;
    // (src0 & src1) | (!src0 & src2).
    V_BFI_B32 = "v_bfi_b32" Vop3 Valu [VReg(1), VSrc(1), VSrc(1), VSrc(1)] defs 1 EX;
    // 24-bit multiply (as v_mul_u32_u24 / v_mul_i32_i24) plus src2, low 32 bits.
    V_MAD_U32_U24 = "v_mad_u32_u24" Vop3 Valu [VReg(1), VSrc(1), VSrc(1), VSrc(1)] defs 1 EX;
    V_MAD_I32_I24 = "v_mad_i32_i24" Vop3 Valu [VReg(1), VSrc(1), VSrc(1), VSrc(1)] defs 1 EX;
    // (src0 ^ src1) + src2; (src0 + src1) << src2[4:0]; (src0 << src1[4:0]) | src2;
    // (src0 & src1) | src2; src0 | src1 | src2.
    V_XAD_U32 = "v_xad_u32" Vop3 Valu [VReg(1), VSrc(1), VSrc(1), VSrc(1)] defs 1 EX;
    V_ADD_LSHL_U32 = "v_add_lshl_u32" Vop3 Valu [VReg(1), VSrc(1), VSrc(1), VSrc(1)] defs 1 EX;
    V_LSHL_OR_B32 = "v_lshl_or_b32" Vop3 Valu [VReg(1), VSrc(1), VSrc(1), VSrc(1)] defs 1 EX;
    V_AND_OR_B32 = "v_and_or_b32" Vop3 Valu [VReg(1), VSrc(1), VSrc(1), VSrc(1)] defs 1 EX;
    V_OR3_B32 = "v_or3_b32" Vop3 Valu [VReg(1), VSrc(1), VSrc(1), VSrc(1)] defs 1 EX;
    // ---- VOP3P packed f32 (gfx90a+): each source an f32 pair; result half i from the
    // halves `op_sel` (low result) / `op_sel_hi` (high result) pick, `neg_lo` / `neg_hi`
    // negating them ----
    V_PK_ADD_F32 = "v_pk_add_f32" Vop3 Valu [VReg(2), VSrc(2), VSrc(2)] defs 1 EX;
    V_PK_MUL_F32 = "v_pk_mul_f32" Vop3 Valu [VReg(2), VSrc(2), VSrc(2)] defs 1 EX;
    V_PK_FMA_F32 = "v_pk_fma_f32" Vop3 Valu [VReg(2), VSrc(2), VSrc(2), VSrc(2)] defs 1 EX;
    V_LSHLREV_B64 = "v_lshlrev_b64" Vop3 Valu [VReg(2), VSrc(1), VSrc(2)] defs 1 EX;
    V_LSHRREV_B64 = "v_lshrrev_b64" Vop3 Valu [VReg(2), VSrc(1), VSrc(2)] defs 1 EX;
    V_ASHRREV_I64 = "v_ashrrev_i64" Vop3 Valu [VReg(2), VSrc(1), VSrc(2)] defs 1 EX;
    V_MBCNT_LO_U32_B32 = "v_mbcnt_lo_u32_b32" Vop3 Valu [VReg(1), VSrc(1), VSrc(1)] defs 1 EX;
    V_MBCNT_HI_U32_B32 = "v_mbcnt_hi_u32_b32" Vop3 Valu [VReg(1), VSrc(1), VSrc(1)] defs 1 EX;
    V_READLANE_B32 = "v_readlane_b32" Vop3 Valu [SReg(1), VReg(1), SSrc(1)] defs 1 NO;
    V_WRITELANE_B32 = "v_writelane_b32" Vop3 Valu [VReg(1), SSrc(1), SSrc(1)] defs 1 NO + reads_dst;
    V_FMA_F32 = "v_fma_f32" Vop3 Valu [VReg(1), VSrc(1), VSrc(1), VSrc(1)] defs 1 EX;
    V_DIV_SCALE_F32 = "v_div_scale_f32" Vop3 Valu [VReg(1), SReg(2), VSrc(1), VSrc(1), VSrc(1)] defs 2 EX;
    V_DIV_FMAS_F32 = "v_div_fmas_f32" Vop3 Valu [VReg(1), VSrc(1), VSrc(1), VSrc(1)] defs 1 EX;
    V_DIV_FIXUP_F32 = "v_div_fixup_f32" Vop3 Valu [VReg(1), VSrc(1), VSrc(1), VSrc(1)] defs 1 EX;
    // vdst[2] = src0 * src1 + src2[2] (unsigned 32 x 32 + 64); sdst = the carry out of bit 63.
    V_MAD_U64_U32 = "v_mad_u64_u32" Vop3 Valu [VReg(2), SReg(2), VSrc(1), VSrc(1), VSrc(2)] defs 2 EX;
    V_ADD3_U32 = "v_add3_u32" Vop3 Valu [VReg(1), VSrc(1), VSrc(1), VSrc(1)] defs 1 EX;
    // vdst = src0 * 2^src1 (src1 a signed integer), rounded once.
    V_LDEXP_F32 = "v_ldexp_f32" Vop3 Valu [VReg(1), VSrc(1), VSrc(1)] defs 1 EX;

    // ---- VOPC, VOP3 encoding: lane mask into an SGPR pair (inactive lanes get 0) ----
    V_CMP_EQ_U32 = "v_cmp_eq_u32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_NE_U32 = "v_cmp_ne_u32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_LT_I32 = "v_cmp_lt_i32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_LE_I32 = "v_cmp_le_i32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_GT_I32 = "v_cmp_gt_i32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_GE_I32 = "v_cmp_ge_i32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_LT_U32 = "v_cmp_lt_u32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_LE_U32 = "v_cmp_le_u32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_GT_U32 = "v_cmp_gt_u32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    // The low 16 bits compared unsigned (clang's listings).
    V_CMP_GT_U16 = "v_cmp_gt_u16_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_GE_U32 = "v_cmp_ge_u32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_EQ_U64 = "v_cmp_eq_u64_e64" Vopc Valu [SReg(2), VSrc(2), VSrc(2)] defs 1 EX;
    V_CMP_NE_U64 = "v_cmp_ne_u64_e64" Vopc Valu [SReg(2), VSrc(2), VSrc(2)] defs 1 EX;
    V_CMP_LT_I64 = "v_cmp_lt_i64_e64" Vopc Valu [SReg(2), VSrc(2), VSrc(2)] defs 1 EX;
    V_CMP_LE_I64 = "v_cmp_le_i64_e64" Vopc Valu [SReg(2), VSrc(2), VSrc(2)] defs 1 EX;
    V_CMP_GT_I64 = "v_cmp_gt_i64_e64" Vopc Valu [SReg(2), VSrc(2), VSrc(2)] defs 1 EX;
    V_CMP_GE_I64 = "v_cmp_ge_i64_e64" Vopc Valu [SReg(2), VSrc(2), VSrc(2)] defs 1 EX;
    V_CMP_LT_U64 = "v_cmp_lt_u64_e64" Vopc Valu [SReg(2), VSrc(2), VSrc(2)] defs 1 EX;
    V_CMP_LE_U64 = "v_cmp_le_u64_e64" Vopc Valu [SReg(2), VSrc(2), VSrc(2)] defs 1 EX;
    V_CMP_GT_U64 = "v_cmp_gt_u64_e64" Vopc Valu [SReg(2), VSrc(2), VSrc(2)] defs 1 EX;
    V_CMP_GE_U64 = "v_cmp_ge_u64_e64" Vopc Valu [SReg(2), VSrc(2), VSrc(2)] defs 1 EX;
    V_CMP_EQ_F32 = "v_cmp_eq_f32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_LG_F32 = "v_cmp_lg_f32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_LT_F32 = "v_cmp_lt_f32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_LE_F32 = "v_cmp_le_f32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_GT_F32 = "v_cmp_gt_f32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_GE_F32 = "v_cmp_ge_f32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_O_F32 = "v_cmp_o_f32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_U_F32 = "v_cmp_u_f32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_NEQ_F32 = "v_cmp_neq_f32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_NLG_F32 = "v_cmp_nlg_f32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_NGE_F32 = "v_cmp_nge_f32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_NGT_F32 = "v_cmp_ngt_f32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_NLE_F32 = "v_cmp_nle_f32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;
    V_CMP_NLT_F32 = "v_cmp_nlt_f32_e64" Vopc Valu [SReg(2), VSrc(1), VSrc(1)] defs 1 EX;

    // ---- LDS: address VGPR (byte address), data VGPRs; `offset:N` ----
    DS_READ_B32 = "ds_read_b32" Ds Lds [VReg(1), VReg(1)] defs 1 EX + mem;
    DS_READ_B64 = "ds_read_b64" Ds Lds [VReg(2), VReg(1)] defs 1 EX + mem;
    DS_WRITE_B32 = "ds_write_b32" Ds Lds [VReg(1), VReg(1)] defs 0 EX + mem;
    DS_WRITE_B64 = "ds_write_b64" Ds Lds [VReg(1), VReg(2)] defs 0 EX + mem;
    // Two accesses per lane at addr + 4 * offset0 and addr + 4 * offset1 (`_b64`: units of
    // 8 bytes; `st64`: of 256 / 512 bytes), offsets 0..255: `ds_read2_b32 vdst[2], addr
    // offset0:A offset1:B`, `ds_write2_b32 addr, data0, data1 offset0:A offset1:B`.
    DS_READ2_B32 = "ds_read2_b32" Ds Lds [VReg(2), VReg(1)] defs 1 EX + mem;
    DS_READ2ST64_B32 = "ds_read2st64_b32" Ds Lds [VReg(2), VReg(1)] defs 1 EX + mem;
    DS_READ2_B64 = "ds_read2_b64" Ds Lds [VReg(4), VReg(1)] defs 1 EX + mem;
    DS_READ2ST64_B64 = "ds_read2st64_b64" Ds Lds [VReg(4), VReg(1)] defs 1 EX + mem;
    DS_WRITE2_B32 = "ds_write2_b32" Ds Lds [VReg(1), VReg(1), VReg(1)] defs 0 EX + mem;
    DS_WRITE2ST64_B32 = "ds_write2st64_b32" Ds Lds [VReg(1), VReg(1), VReg(1)] defs 0 EX + mem;
    DS_WRITE2_B64 = "ds_write2_b64" Ds Lds [VReg(1), VReg(2), VReg(2)] defs 0 EX + mem;
    DS_WRITE2ST64_B64 = "ds_write2st64_b64" Ds Lds [VReg(1), VReg(2), VReg(2)] defs 0 EX + mem;
    // Non-returning atomics: addr, data.
    DS_ADD_U32 = "ds_add_u32" Ds Lds [VReg(1), VReg(1)] defs 0 EX + mem;
    DS_SUB_U32 = "ds_sub_u32" Ds Lds [VReg(1), VReg(1)] defs 0 EX + mem;
    DS_MIN_I32 = "ds_min_i32" Ds Lds [VReg(1), VReg(1)] defs 0 EX + mem;
    DS_MAX_I32 = "ds_max_i32" Ds Lds [VReg(1), VReg(1)] defs 0 EX + mem;
    DS_MIN_U32 = "ds_min_u32" Ds Lds [VReg(1), VReg(1)] defs 0 EX + mem;
    DS_MAX_U32 = "ds_max_u32" Ds Lds [VReg(1), VReg(1)] defs 0 EX + mem;
    DS_AND_B32 = "ds_and_b32" Ds Lds [VReg(1), VReg(1)] defs 0 EX + mem;
    DS_OR_B32 = "ds_or_b32" Ds Lds [VReg(1), VReg(1)] defs 0 EX + mem;
    DS_XOR_B32 = "ds_xor_b32" Ds Lds [VReg(1), VReg(1)] defs 0 EX + mem;
    DS_ADD_F32 = "ds_add_f32" Ds Lds [VReg(1), VReg(1)] defs 0 EX + mem;
    DS_ADD_RTN_U32 = "ds_add_rtn_u32" Ds Lds [VReg(1), VReg(1), VReg(1)] defs 1 EX + mem;
    DS_MIN_RTN_I32 = "ds_min_rtn_i32" Ds Lds [VReg(1), VReg(1), VReg(1)] defs 1 EX + mem;
    DS_MAX_RTN_I32 = "ds_max_rtn_i32" Ds Lds [VReg(1), VReg(1), VReg(1)] defs 1 EX + mem;
    DS_MIN_RTN_U32 = "ds_min_rtn_u32" Ds Lds [VReg(1), VReg(1), VReg(1)] defs 1 EX + mem;
    DS_MAX_RTN_U32 = "ds_max_rtn_u32" Ds Lds [VReg(1), VReg(1), VReg(1)] defs 1 EX + mem;
    DS_WRXCHG_RTN_B32 = "ds_wrxchg_rtn_b32" Ds Lds [VReg(1), VReg(1), VReg(1)] defs 1 EX + mem;
    DS_ADD_RTN_F32 = "ds_add_rtn_f32" Ds Lds [VReg(1), VReg(1), VReg(1)] defs 1 EX + mem;
    // ds_cmpst_rtn_b32 vdst, addr, cmp, new
    DS_CMPST_RTN_B32 = "ds_cmpst_rtn_b32" Ds Lds [VReg(1), VReg(1), VReg(1), VReg(1)] defs 1 EX + mem;
    // ds_bpermute_b32 vdst, byte-lane-address, data: vdst = data of lane (addr / 4) % 64
    // 64-bit returning atomics: vdst pair, address, data pair(s) (cmpst: compare, then new).
    DS_ADD_RTN_U64 = "ds_add_rtn_u64" Ds Lds [VReg(2), VReg(1), VReg(2)] defs 1 EX + mem;
    DS_MIN_RTN_I64 = "ds_min_rtn_i64" Ds Lds [VReg(2), VReg(1), VReg(2)] defs 1 EX + mem;
    DS_MAX_RTN_I64 = "ds_max_rtn_i64" Ds Lds [VReg(2), VReg(1), VReg(2)] defs 1 EX + mem;
    DS_MIN_RTN_U64 = "ds_min_rtn_u64" Ds Lds [VReg(2), VReg(1), VReg(2)] defs 1 EX + mem;
    DS_MAX_RTN_U64 = "ds_max_rtn_u64" Ds Lds [VReg(2), VReg(1), VReg(2)] defs 1 EX + mem;
    DS_WRXCHG_RTN_B64 = "ds_wrxchg_rtn_b64" Ds Lds [VReg(2), VReg(1), VReg(2)] defs 1 EX + mem;
    DS_CMPST_RTN_B64 = "ds_cmpst_rtn_b64" Ds Lds [VReg(2), VReg(1), VReg(2), VReg(2)] defs 1 EX + mem;
    DS_BPERMUTE_B32 = "ds_bpermute_b32" Ds Lds [VReg(1), VReg(1), VReg(1)] defs 1 EX + mem;

    // ---- global: vaddr is a 32-bit byte offset from an SGPR-pair base (or a 64-bit address
    // with `off`) ----
    GLOBAL_LOAD_DWORD = "global_load_dword" Global Vmem [VReg(1), VReg(1), SAddr] defs 1 EX + mem;
    GLOBAL_LOAD_DWORDX2 = "global_load_dwordx2" Global Vmem [VReg(2), VReg(1), SAddr] defs 1 EX + mem;
    GLOBAL_STORE_DWORD = "global_store_dword" Global Vmem [VReg(1), VReg(1), SAddr] defs 0 EX + mem;
    GLOBAL_STORE_DWORDX3 = "global_store_dwordx3" Global Vmem [VReg(1), VReg(3), SAddr] defs 0 EX + mem;
    GLOBAL_STORE_DWORDX2 = "global_store_dwordx2" Global Vmem [VReg(1), VReg(2), SAddr] defs 0 EX + mem;
    // Returning atomics (the `sc0` bit asks for the old value): vdst, vaddr, vdata, saddr.
    GLOBAL_ATOMIC_ADD = "global_atomic_add" Global Vmem [VReg(1), VReg(1), VReg(1), SAddr] defs 1 EX + mem;
    GLOBAL_ATOMIC_SMIN = "global_atomic_smin" Global Vmem [VReg(1), VReg(1), VReg(1), SAddr] defs 1 EX + mem;
    GLOBAL_ATOMIC_SMAX = "global_atomic_smax" Global Vmem [VReg(1), VReg(1), VReg(1), SAddr] defs 1 EX + mem;
    GLOBAL_ATOMIC_UMIN = "global_atomic_umin" Global Vmem [VReg(1), VReg(1), VReg(1), SAddr] defs 1 EX + mem;
    GLOBAL_ATOMIC_UMAX = "global_atomic_umax" Global Vmem [VReg(1), VReg(1), VReg(1), SAddr] defs 1 EX + mem;
    GLOBAL_ATOMIC_SWAP = "global_atomic_swap" Global Vmem [VReg(1), VReg(1), VReg(1), SAddr] defs 1 EX + mem;
    GLOBAL_ATOMIC_ADD_F32 = "global_atomic_add_f32" Global Vmem [VReg(1), VReg(1), VReg(1), SAddr] defs 1 EX + mem;
    // vdata is the pair {new, cmp}.
    GLOBAL_ATOMIC_CMPSWAP = "global_atomic_cmpswap" Global Vmem [VReg(1), VReg(1), VReg(2), SAddr] defs 1 EX + mem;
    // 64-bit forms: vdst and vdata pairs; cmpswap's vdata is the quad {new, cmp}.
    GLOBAL_ATOMIC_ADD_X2 = "global_atomic_add_x2" Global Vmem [VReg(2), VReg(1), VReg(2), SAddr] defs 1 EX + mem;
    GLOBAL_ATOMIC_SMIN_X2 = "global_atomic_smin_x2" Global Vmem [VReg(2), VReg(1), VReg(2), SAddr] defs 1 EX + mem;
    GLOBAL_ATOMIC_SMAX_X2 = "global_atomic_smax_x2" Global Vmem [VReg(2), VReg(1), VReg(2), SAddr] defs 1 EX + mem;
    GLOBAL_ATOMIC_UMIN_X2 = "global_atomic_umin_x2" Global Vmem [VReg(2), VReg(1), VReg(2), SAddr] defs 1 EX + mem;
    GLOBAL_ATOMIC_UMAX_X2 = "global_atomic_umax_x2" Global Vmem [VReg(2), VReg(1), VReg(2), SAddr] defs 1 EX + mem;
    GLOBAL_ATOMIC_SWAP_X2 = "global_atomic_swap_x2" Global Vmem [VReg(2), VReg(1), VReg(2), SAddr] defs 1 EX + mem;
    GLOBAL_ATOMIC_CMPSWAP_X2 = "global_atomic_cmpswap_x2" Global Vmem [VReg(2), VReg(1), VReg(4), SAddr] defs 1 EX + mem;

    // ---- scratch (private memory; architected flat scratch, as clang-22 emits for gfx942):
    // the lane's private address is saddr + vaddr + offset (each `off` = 0), offset 0..4095;
    // VGPR spills (`regalloc/spill_vgpr.rs`) ----
    SCRATCH_LOAD_DWORD = "scratch_load_dword" Scratch Vmem [VReg(1), VAddr, SBase] defs 1 EX + mem;
    SCRATCH_LOAD_DWORDX2 = "scratch_load_dwordx2" Scratch Vmem [VReg(2), VAddr, SBase] defs 1 EX + mem;
    SCRATCH_STORE_DWORD = "scratch_store_dword" Scratch Vmem [VAddr, VReg(1), SBase] defs 0 EX + mem;
    SCRATCH_STORE_DWORDX2 = "scratch_store_dwordx2" Scratch Vmem [VAddr, VReg(2), SBase] defs 0 EX + mem;

    // ---- control-flow pseudos: isel -> `exec_lowering` (meaning and expansion of each
    // there); operands as in the first instruction each expands to ----
    CF_IF = "cf_if" Pseudo Salu [SReg(2), SSrc(2)] defs 1 SAVEEXEC;
    CF_IF_SIMPLE = "cf_if_simple" Pseudo Salu [SReg(2), SSrc(2)] defs 1 SAVEEXEC;
    CF_ELSE = "cf_else" Pseudo Salu [SReg(2), SSrc(2)] defs 1 SAVEEXEC;
    CF_END = "cf_end" Pseudo Salu [SSrc(2)] defs 0 EXEC_RW;
    CF_JOIN_OUTER = "cf_join_outer" Pseudo Salu [SReg(2), SSrc(2), SSrc(2)] defs 1 SCC_W;
    CF_BREAK = "cf_break" Pseudo Salu [SReg(2), SSrc(2), SSrc(2)] defs 1 EXEC_RW;
    CF_EXIT = "cf_exit" Pseudo Salu [SSrc(2)] defs 0 EXEC_RW;
    CF_PARK = "cf_park" Pseudo Salu [SSrc(2)] defs 0 EXEC_RW;
    CF_LOOP = "cf_loop" Pseudo Branch [Label] defs 0 EX;
    CF_SKIP = "cf_skip" Pseudo Branch [Label] defs 0 EX;
}

impl fmt::Display for Opc {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Integer constants the hardware encodes inline (no literal dword): -16..=64.
/// The values a raw immediate operand ([`Kind::Imm`]) of `op` can take: the field it is
/// encoded in, as llvm-mc-22 reads it (the listing must mean what the MIR says, so a value
/// the assembler would truncate is out of range too).
pub fn imm_range(op: Opc) -> std::ops::RangeInclusive<i64> {
    match op {
        // SIMM16[3:0]: waits N+1 cycles.
        Opc::S_NOP => 0..=15,
        // SIMM16[7:0] is the trap id (llvm-mc-22 truncates larger values silently).
        Opc::S_TRAP => 0..=255,
        // `hwreg(id, offset, size)` packed into the 16-bit SIMM16 field.
        Opc::S_GETREG_B32 => 0..=0xffff,
        // SIMM16, sign-extended: written signed or as its 16 bits.
        Opc::S_MOVK_I32 => -0x8000..=0xffff,
        // Every other SOPP / SOPK immediate is a 16-bit field.
        _ => 0..=0xffff,
    }
}

pub fn is_inline_int(v: i64) -> bool {
    (-16..=64).contains(&v)
}

/// f32 bit patterns the hardware encodes inline: ±0.5, ±1, ±2, ±4 and 1/(2π).
pub fn is_inline_f32(bits: u32) -> bool {
    const INLINE: [u32; 9] = [
        0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000,
        0xc0800000, 0x3e22f983,
    ];
    bits == 0 || INLINE.contains(&bits)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn mnemonics_unique_and_resolve() {
        for &o in Opc::ALL {
            assert_eq!(Opc::from_name(o.name()), Some(o), "{o}");
            assert!(o.desc().defs as usize <= o.desc().operands.len());
        }
    }
}
