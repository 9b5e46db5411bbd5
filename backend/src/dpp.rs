//! DPP (data-parallel primitives) controls of gfx942's VOP1/VOP2 `_dpp` encoding: which lane
//! each lane's src0 is read from, which lanes are written, and what an invalid source gives.
//!
//! One description shared by the MIR (`mir::Inst::dpp`, printed and parsed in MIR text), the
//! asm printer and the simulator (parser and execution), so the modifiers kc prints are the
//! ones the simulator runs. Facts from the CDNA3 ISA manual ("DPP"), spelled as llvm-mc-22
//! prints them for gfx942:
//! - rows are 16 lanes, banks 4 lanes of a row; `row_mask` / `bank_mask` bit k enables row k
//!   / bank k of every row; a lane of a disabled row or bank is not written.
//! - `quad_perm:[a,b,c,d]` reads lane `a..d` of the lane's quad; `row_shl:n` / `row_shr:n`
//!   (1..15) lane `i + n` / `i - n` of the same row, invalid past the row's end; `row_ror:n`
//!   lane `i - n` rotated within the row; `wave_shl:1` / `wave_shr:1` lane `i + 1` / `i - 1`
//!   (invalid past the wave's ends), `wave_rol:1` / `wave_ror:1` the same rotated over the
//!   wave; `row_mirror` lane `15 - i` of the row, `row_half_mirror` lane `7 - i` of the half
//!   row; `row_bcast:15` lane 15 of the previous row (invalid in row 0); `row_bcast:31` lane
//!   31 for rows 2 and 3 (invalid in rows 0 and 1).
//! - A source lane that is invalid or not in EXEC: with `bound_ctrl` (the BOUND_CTRL bit) src0
//!   reads 0; without, the lane is not written. llvm-mc-22 sets the bit for both
//!   `bound_ctrl:0` (the old spelling) and `bound_ctrl:1`, and prints `bound_ctrl:1`.

use crate::isa::{Fmt, Kind, Opc, Unit};
use std::fmt;

/// The lane pattern (DPP_CTRL).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum DppCtrl {
    QuadPerm([u8; 4]),
    RowShl(u8),
    RowShr(u8),
    RowRor(u8),
    WaveShl1,
    WaveRol1,
    WaveShr1,
    WaveRor1,
    RowMirror,
    RowHalfMirror,
    RowBcast15,
    RowBcast31,
}

/// A DPP control with its masks.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Dpp {
    pub ctrl: DppCtrl,
    /// Bit k: row k (lanes 16k..16k+15) is written.
    pub row_mask: u8,
    /// Bit k: lanes 4k..4k+3 of each row are written.
    pub bank_mask: u8,
    /// An invalid or inactive source lane reads 0 (else the lane is not written).
    pub bound_ctrl: bool,
}

impl Dpp {
    /// `ctrl` with every row and bank enabled and no `bound_ctrl`.
    pub fn new(ctrl: DppCtrl) -> Dpp {
        Dpp {
            ctrl,
            row_mask: 0xf,
            bank_mask: 0xf,
            bound_ctrl: false,
        }
    }

    pub fn row_mask(self, m: u8) -> Dpp {
        Dpp {
            row_mask: m,
            ..self
        }
    }

    pub fn bound_ctrl(self) -> Dpp {
        Dpp {
            bound_ctrl: true,
            ..self
        }
    }

    /// The lane `lane` (0..64) reads src0 from, or `None` when the pattern gives none.
    pub fn source_lane(&self, lane: usize) -> Option<usize> {
        let row = lane & !15;
        let i = lane & 15;
        match self.ctrl {
            DppCtrl::QuadPerm(p) => Some((lane & !3) | (p[lane & 3] & 3) as usize),
            DppCtrl::RowShl(n) => (i + n as usize <= 15).then(|| lane + n as usize),
            DppCtrl::RowShr(n) => (i >= n as usize).then(|| lane - n as usize),
            DppCtrl::RowRor(n) => Some(row | ((i + 16 - (n as usize & 15)) & 15)),
            DppCtrl::WaveShl1 => (lane < 63).then(|| lane + 1),
            DppCtrl::WaveShr1 => (lane > 0).then(|| lane - 1),
            DppCtrl::WaveRol1 => Some((lane + 1) & 63),
            DppCtrl::WaveRor1 => Some((lane + 63) & 63),
            DppCtrl::RowMirror => Some(row | (15 - i)),
            DppCtrl::RowHalfMirror => Some((lane & !7) | (7 - (lane & 7))),
            DppCtrl::RowBcast15 => (row >= 16).then(|| row - 1),
            DppCtrl::RowBcast31 => (row >= 32).then_some(31),
        }
    }

    /// Whether the fields are in range (masks 4 bits, shifts 1..=15, quad lanes 0..=3).
    pub fn valid(&self) -> bool {
        let ctrl = match self.ctrl {
            DppCtrl::QuadPerm(p) => p.iter().all(|&x| x <= 3),
            DppCtrl::RowShl(n) | DppCtrl::RowShr(n) | DppCtrl::RowRor(n) => (1..=15).contains(&n),
            _ => true,
        };
        ctrl && self.row_mask <= 0xf && self.bank_mask <= 0xf
    }

    /// Whether the row and bank masks let `lane` be written.
    pub fn lane_enabled(&self, lane: usize) -> bool {
        self.row_mask >> (lane >> 4) & 1 != 0 && self.bank_mask >> ((lane >> 2) & 3) & 1 != 0
    }

    /// Whether some lane may keep its old value although EXEC has it: a masked row or bank,
    /// or a source the pattern leaves invalid without `bound_ctrl`. (A source lane outside
    /// EXEC also disables the write without `bound_ctrl`; kc emits DPP under a full EXEC.)
    pub fn partial_write(&self) -> bool {
        self.row_mask & 0xf != 0xf
            || self.bank_mask & 0xf != 0xf
            || (!self.bound_ctrl && (0..64).any(|l| self.source_lane(l).is_none()))
    }

    /// Sets the modifier `key:value` (`row_shr` and `1`, `quad_perm` and `[1,0,3,2]`,
    /// `row_mirror` and the empty value) as llvm-mc-22 spells it; an unknown key or a value out of range is an error.
    pub fn set(dpp: &mut Option<Dpp>, key: &str, value: &str) -> Result<(), String> {
        let bad = || format!("bad DPP modifier `{key}:{value}`");
        let num = || -> Result<u64, String> {
            let v = value.trim();
            match v.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16),
                None => v.parse(),
            }
            .map_err(|_| bad())
        };
        let ctrl = match key {
            "row_mask" | "bank_mask" | "bound_ctrl" => {
                let d = dpp
                    .as_mut()
                    .ok_or_else(|| format!("`{key}` before the DPP control"))?;
                let v = num()?;
                match key {
                    "bound_ctrl" if v <= 1 => d.bound_ctrl = true,
                    "row_mask" if v <= 0xf => d.row_mask = v as u8,
                    "bank_mask" if v <= 0xf => d.bank_mask = v as u8,
                    _ => return Err(bad()),
                }
                return Ok(());
            }
            "quad_perm" => {
                let inner = value
                    .trim()
                    .strip_prefix('[')
                    .and_then(|s| s.strip_suffix(']'))
                    .ok_or_else(bad)?;
                let mut p = [0u8; 4];
                let mut n = 0;
                for part in inner.split(',') {
                    let x: u8 = part.trim().parse().map_err(|_| bad())?;
                    if n == 4 || x > 3 {
                        return Err(bad());
                    }
                    p[n] = x;
                    n += 1;
                }
                if n != 4 {
                    return Err(bad());
                }
                DppCtrl::QuadPerm(p)
            }
            "row_shl" | "row_shr" | "row_ror" => {
                let n = num()?;
                if !(1..=15).contains(&n) {
                    return Err(bad());
                }
                match key {
                    "row_shl" => DppCtrl::RowShl(n as u8),
                    "row_shr" => DppCtrl::RowShr(n as u8),
                    _ => DppCtrl::RowRor(n as u8),
                }
            }
            "wave_shl" | "wave_rol" | "wave_shr" | "wave_ror" if num()? == 1 => match key {
                "wave_shl" => DppCtrl::WaveShl1,
                "wave_rol" => DppCtrl::WaveRol1,
                "wave_shr" => DppCtrl::WaveShr1,
                _ => DppCtrl::WaveRor1,
            },
            "row_mirror" if value.is_empty() => DppCtrl::RowMirror,
            "row_half_mirror" if value.is_empty() => DppCtrl::RowHalfMirror,
            "row_bcast" => match num()? {
                15 => DppCtrl::RowBcast15,
                31 => DppCtrl::RowBcast31,
                _ => return Err(bad()),
            },
            _ => return Err(bad()),
        };
        if dpp.is_some() {
            return Err(format!("a second DPP control `{key}:{value}`"));
        }
        *dpp = Some(Dpp::new(ctrl));
        Ok(())
    }

    /// Whether `key` names a DPP modifier (the word before `:`).
    pub fn is_key(key: &str) -> bool {
        matches!(
            key,
            "quad_perm"
                | "row_shl"
                | "row_shr"
                | "row_ror"
                | "wave_shl"
                | "wave_rol"
                | "wave_shr"
                | "wave_ror"
                | "row_bcast"
                | "row_mirror"
                | "row_half_mirror"
                | "row_mask"
                | "bank_mask"
                | "bound_ctrl"
        )
    }
}

/// Whether `op` has a DPP encoding kc can use: a VOP1/VOP2 operation on 32-bit VGPRs
/// (`v_add_co_u32` and the other carry ops and `v_cndmask_b32` in their VOP2 form, with VCC).
pub fn capable(op: Opc) -> bool {
    let d = op.desc();
    let vop2_carry = matches!(
        op,
        Opc::V_ADD_CO_U32
            | Opc::V_ADDC_CO_U32
            | Opc::V_SUB_CO_U32
            | Opc::V_SUBB_CO_U32
            | Opc::V_CNDMASK_B32
    );
    let words32 = d.operands.iter().all(|k| match k {
        Kind::VReg(n) | Kind::VSrc(n) => *n == 1,
        Kind::SReg(n) | Kind::SSrc(n) => *n == 2 && vop2_carry,
        _ => false,
    });
    d.unit == Unit::Valu
        && (matches!(d.fmt, Fmt::Vop1 | Fmt::Vop2) || vop2_carry)
        && matches!(d.operands.first(), Some(Kind::VReg(1)))
        && words32
}

/// `row_shr:1 row_mask:0xf bank_mask:0xf [bound_ctrl:1]`, llvm-mc-22's spelling.
impl fmt::Display for Dpp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ctrl {
            DppCtrl::QuadPerm([a, b, c, d]) => write!(f, "quad_perm:[{a},{b},{c},{d}]")?,
            DppCtrl::RowShl(n) => write!(f, "row_shl:{n}")?,
            DppCtrl::RowShr(n) => write!(f, "row_shr:{n}")?,
            DppCtrl::RowRor(n) => write!(f, "row_ror:{n}")?,
            DppCtrl::WaveShl1 => f.write_str("wave_shl:1")?,
            DppCtrl::WaveRol1 => f.write_str("wave_rol:1")?,
            DppCtrl::WaveShr1 => f.write_str("wave_shr:1")?,
            DppCtrl::WaveRor1 => f.write_str("wave_ror:1")?,
            DppCtrl::RowMirror => f.write_str("row_mirror")?,
            DppCtrl::RowHalfMirror => f.write_str("row_half_mirror")?,
            DppCtrl::RowBcast15 => f.write_str("row_bcast:15")?,
            DppCtrl::RowBcast31 => f.write_str("row_bcast:31")?,
        }
        write!(
            f,
            " row_mask:0x{:x} bank_mask:0x{:x}",
            self.row_mask, self.bank_mask
        )?;
        if self.bound_ctrl {
            f.write_str(" bound_ctrl:1")?;
        }
        Ok(())
    }
}
