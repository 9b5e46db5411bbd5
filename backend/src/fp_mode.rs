//! The kernel's floating-point mode: the one decision of how gfx942 rounds and what it does
//! with subnormal numbers while a kc kernel runs.
//!
//! The hardware reads the mode from the kernel descriptor (COMPUTE_PGM_RSRC1's FLOAT_MODE,
//! DX10_CLAMP and IEEE_MODE fields) into the wave's MODE register. llvm-mc-22 assembles an
//! absent `.amdhsa_float_denorm_mode_32` as 0, which flushes every f32 subnormal input and
//! output to zero; kc's semantics keep them (`compiler/LANGUAGE.md`, "Floating point"), as
//! both engines compute. So the asm printer writes every mode directive from [`KERNEL`], and
//! an instruction sequence that needs a mode of its own (the f32 division's FMA steps need
//! f32 subnormals kept) asks [`FpMode::keep_f32_denormals`] whether it must switch the MODE
//! register around it, as LLVM brackets them with `s_setreg_imm32_b32` when the kernel
//! flushes.
//!
//! [`KERNEL`] is what clang-22 writes for an OpenCL kernel on gfx942: round to nearest even
//! (f32 and f16/f64), subnormals kept (f32 and f16/f64), DX10 clamp and IEEE mode on.
//!
//! The denormal field values are AMDGPUUsage's FLOAT_DENORM_MODE_* (LLVM's `SIDefines.h`
//! FP_DENORM_*): 0 flushes sources and results, 1 results only, 2 sources only, 3 nothing.
//! Flushing keeps the sign (a subnormal becomes a zero of its sign).

/// A denormal field of the MODE register (2 bits).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Denormals {
    /// 0: subnormal sources read as zero, subnormal results written as zero.
    FlushInOut,
    /// 1: subnormal results written as zero.
    FlushOut,
    /// 2: subnormal sources read as zero.
    FlushIn,
    /// 3: IEEE: subnormals kept.
    Keep,
}

impl Denormals {
    /// The field's value (`.amdhsa_float_denorm_mode_*`).
    pub const fn bits(self) -> u32 {
        match self {
            Denormals::FlushInOut => 0,
            Denormals::FlushOut => 1,
            Denormals::FlushIn => 2,
            Denormals::Keep => 3,
        }
    }

    /// The field of value `b` (its low two bits).
    pub const fn from_bits(b: u32) -> Denormals {
        match b & 3 {
            0 => Denormals::FlushInOut,
            1 => Denormals::FlushOut,
            2 => Denormals::FlushIn,
            _ => Denormals::Keep,
        }
    }

    pub const fn flushes_inputs(self) -> bool {
        matches!(self, Denormals::FlushInOut | Denormals::FlushIn)
    }

    pub const fn flushes_outputs(self) -> bool {
        matches!(self, Denormals::FlushInOut | Denormals::FlushOut)
    }
}

/// The floating-point fields of the kernel descriptor.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FpMode {
    /// FLOAT_ROUND_MODE_32 and _16_64: 0 is round to nearest even.
    pub round_32: u32,
    pub round_16_64: u32,
    pub denorm_32: Denormals,
    pub denorm_16_64: Denormals,
    pub dx10_clamp: bool,
    pub ieee: bool,
}

/// The mode every kc kernel runs in.
pub const KERNEL: FpMode = FpMode {
    round_32: 0,
    round_16_64: 0,
    denorm_32: Denormals::Keep,
    denorm_16_64: Denormals::Keep,
    dx10_clamp: true,
    ieee: true,
};

/// Bit offsets of the MODE register's fields (each denormal field is 2 bits wide).
pub const MODE_ROUND_32: u32 = 0;
pub const MODE_ROUND_16_64: u32 = 2;
pub const MODE_DENORM_32: u32 = 4;
pub const MODE_DENORM_16_64: u32 = 6;
pub const MODE_DX10_CLAMP: u32 = 8;
pub const MODE_IEEE: u32 = 9;

/// `HW_REG_MODE`'s hardware register id in an `s_getreg`/`s_setreg` immediate.
pub const HW_REG_MODE: u32 = 1;

/// The SIMM16 of `hwreg(HW_REG_MODE, offset, size)`: id in bits 5:0, offset in 10:6, size - 1
/// in 15:11.
pub const fn hwreg_mode(offset: u32, size: u32) -> i64 {
    (HW_REG_MODE | offset << 6 | (size - 1) << 11) as i64
}

/// The (id, offset, size) a `hwreg(...)` immediate encodes.
pub const fn decode_hwreg(imm: u32) -> (u32, u32, u32) {
    (imm & 0x3f, (imm >> 6) & 0x1f, ((imm >> 11) & 0x1f) + 1)
}

/// A MODE register switch around an instruction sequence: `s_setreg_imm32_b32 hwreg, enter`
/// before it, `s_setreg_imm32_b32 hwreg, leave` after it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bracket {
    pub hwreg: i64,
    pub enter: i64,
    pub leave: i64,
}

impl FpMode {
    /// The descriptor's mode directives, in clang-22's order, with their values.
    pub fn directives(&self) -> [(&'static str, u32); 6] {
        [
            (".amdhsa_float_round_mode_32", self.round_32),
            (".amdhsa_float_round_mode_16_64", self.round_16_64),
            (".amdhsa_float_denorm_mode_32", self.denorm_32.bits()),
            (".amdhsa_float_denorm_mode_16_64", self.denorm_16_64.bits()),
            (".amdhsa_dx10_clamp", self.dx10_clamp as u32),
            (".amdhsa_ieee_mode", self.ieee as u32),
        ]
    }

    /// The MODE register's low ten bits as the wave starts with them.
    pub fn mode_register(&self) -> u32 {
        self.round_32 << MODE_ROUND_32
            | self.round_16_64 << MODE_ROUND_16_64
            | self.denorm_32.bits() << MODE_DENORM_32
            | self.denorm_16_64.bits() << MODE_DENORM_16_64
            | (self.dx10_clamp as u32) << MODE_DX10_CLAMP
            | (self.ieee as u32) << MODE_IEEE
    }

    /// What a sequence that needs f32 subnormals kept (sources and results) must do in a
    /// kernel of this mode: nothing when the mode keeps them, else switch the f32 denormal
    /// field to 3 and back (LLVM's `hwreg(HW_REG_MODE, 4, 2)` bracket).
    pub fn keep_f32_denormals(&self) -> Option<Bracket> {
        (self.denorm_32 != Denormals::Keep).then(|| Bracket {
            hwreg: hwreg_mode(MODE_DENORM_32, 2),
            enter: Denormals::Keep.bits() as i64,
            leave: self.denorm_32.bits() as i64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kernel_mode_is_clangs() {
        // clang-22 -mcpu=gfx942 writes these for an OpenCL kernel.
        let d = KERNEL.directives();
        assert_eq!(
            d.map(|(_, v)| v),
            [0, 0, 3, 3, 1, 1],
            "round 32, round 16_64, denorm 32, denorm 16_64, dx10 clamp, ieee"
        );
        assert_eq!(KERNEL.keep_f32_denormals(), None);
    }

    #[test]
    fn denormal_fields_round_trip_and_say_what_they_flush() {
        for b in 0..4 {
            let d = Denormals::from_bits(b);
            assert_eq!(d.bits(), b);
            assert_eq!(d.flushes_inputs(), b == 0 || b == 2, "{d:?}");
            assert_eq!(d.flushes_outputs(), b == 0 || b == 1, "{d:?}");
        }
    }

    #[test]
    fn a_flushing_kernel_brackets_as_llvm_does() {
        // llc-22 on gfx942 with "denormal-fp-math-f32"="preserve-sign" brackets the f32
        // division's FMA steps with s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3 / 0.
        let flush = FpMode {
            denorm_32: Denormals::FlushInOut,
            ..KERNEL
        };
        let b = flush.keep_f32_denormals().unwrap();
        assert_eq!(decode_hwreg(b.hwreg as u32), (HW_REG_MODE, 4, 2));
        assert_eq!((b.enter, b.leave), (3, 0));
        assert_eq!(flush.mode_register() >> MODE_DENORM_32 & 3, 0);
        assert_eq!(KERNEL.mode_register() >> MODE_DENORM_32 & 3, 3);
    }
}
