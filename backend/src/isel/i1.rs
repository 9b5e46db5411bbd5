//! Instruction selection for `i1` arithmetic: every integer binary op and compare on `i1`
//! operands, and the casts between `i1` and f32, legalized here once, in both
//! representations of a boolean (a uniform one is an SGPR holding 0/1, a divergent one a
//! 64-bit lane mask in an SGPR pair; `Isel::sbool` / `Isel::mask` read any value as either).
//!
//! `i1` is 1-bit two's complement (`kc_dialect::eval`): true is 1 unsigned and -1 signed,
//! and arithmetic wraps mod 2. So every binary op is a boolean function of its two
//! operands:
//! - `addi`, `subi`, `xori`: a ^ b;
//! - `muli`, `andi`, `minui`, `maxsi` (true = -1 is the smaller signed value): a & b;
//! - `ori`, `maxui`, `minsi`: a | b;
//! - `shli`, `shrui`, `shrsi`: a (the amount is taken modulo the width, 1);
//! - `divui`: a (dividing by 0, the only other divisor, is undefined); `remui`, `divsi`,
//!   `remsi`: 0 (the defined cases: x % 1, 0 / -1, 0 % -1; -1 / -1 overflows);
//! - `cmpi`: eq = !(a ^ b), ne = a ^ b, slt = ugt = a & !b, sgt = ult = !a & b,
//!   sle = uge = a | !b, sge = ule = !a | b.
//!
//! Casts: `sitofp` selects -1.0 or 0.0, `uitofp` 1.0 or 0.0; `fptosi` to `i1` truncates and
//! saturates to [-1, 0], so it is true exactly when x <= -1 (an ordered `cmpf ole`);
//! `fptoui` saturates to [0, 1]: true exactly when x >= 1 (`cmpf oge`); NaN gives false.
//!
//! Guarantees: a result is an SGPR 0/1 (`s_*_b32`) when it is uniform and no operand is a lane
//! mask, otherwise a lane mask (`s_*_b64`; bits of inactive lanes are unspecified, as after
//! any `s_not_b64`). No divergent value is ever read with `v_readfirstlane_b32`.

use super::{Isel, IselError, Val};
use crate::isa::Opc;
use crate::mir::{self, Operand, VReg};
use kc_dialect::{Op, Opcode, Type};

/// `f(a, b)` for the boolean function of an `i1` op.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Bool2 {
    Zero,
    A,
    And,
    Or,
    Xor,
    Xnor,
    /// a & !b.
    AndNotB,
    /// !a & b.
    NotAAndB,
    /// a | !b.
    OrNotB,
    /// !a | b.
    NotAOrB,
}

/// The boolean function computing `opc` (with `cmpi` predicate `pred`) on `i1`; `None` for an
/// op that is not a binary integer op or compare.
fn bool_function(opc: Opcode, pred: i64) -> Option<Bool2> {
    use Bool2::*;
    use Opcode::*;
    Some(match opc {
        AddI | SubI | XOrI => Xor,
        MulI | AndI | MinUI | MaxSI => And,
        OrI | MaxUI | MinSI => Or,
        ShLI | ShRUI | ShRSI | DivUI => A,
        RemUI | DivSI | RemSI => Zero,
        CmpI => match pred {
            0 => Xnor,
            1 => Xor,
            2 | 8 => AndNotB,
            4 | 6 => NotAAndB,
            3 | 9 => OrNotB,
            _ => NotAOrB,
        },
        _ => return None,
    })
}

/// Whether `opc` on operands of type `oty` with result `rty` is selected here.
pub(super) fn is_i1_op(opc: Opcode, oty: Type, rty: Type) -> bool {
    use Opcode::*;
    match opc {
        SIToFP | UIToFP => oty == Type::I1,
        FPToSI | FPToUI => rty == Type::I1,
        _ => oty == Type::I1 && bool_function(opc, 0).is_some(),
    }
}

impl Isel<'_> {
    /// Selects an op `is_i1_op` accepts.
    pub(super) fn i1_op(
        &mut self,
        op: Op,
        opc: Opcode,
        pred: i64,
        xs: &[Val],
        div: bool,
    ) -> Result<(), IselError> {
        use Opcode::*;
        match opc {
            SIToFP | UIToFP => {
                let one = if opc == SIToFP { -1.0f32 } else { 1.0 };
                let t = Val::Const(one.to_bits() as i64);
                self.select_op(op, Type::F32, xs[0], t, Val::Const(0), div)
            }
            FPToSI | FPToUI => {
                // cmpf ole x, -1.0 / cmpf oge x, 1.0.
                let (p, k) = if opc == FPToSI {
                    (5, -1.0f32)
                } else {
                    (3, 1.0)
                };
                let k = Val::Const(k.to_bits() as i64);
                self.compare(op, true, p, Type::F32, xs[0], k, div)
            }
            _ => {
                let f = bool_function(opc, pred)
                    .ok_or_else(|| self.internal("i1 op without a boolean function"))?;
                let r = self.bool2(f, xs[0], xs[1], div)?;
                self.def(op, r);
                Ok(())
            }
        }
    }

    /// `f(a, b)`: an SGPR 0/1 when the result is uniform and no operand a lane mask,
    /// otherwise a lane mask.
    fn bool2(&mut self, f: Bool2, a: Val, b: Val, div: bool) -> Result<Val, IselError> {
        use Bool2::*;
        let any_mask = [a, b].iter().any(|x| matches!(x, Val::Mask(_) | Val::V(_)));
        let scalar = !div && !any_mask;
        // Functions of one operand or none.
        match f {
            Zero | A => {
                let x = if f == Zero { Val::Const(0) } else { a };
                return Ok(match x {
                    Val::Const(c) if scalar => Val::Const(c & 1),
                    Val::SBool(_) if scalar => x,
                    _ if scalar => {
                        let s = self.sbool(x)?;
                        let r = self.s32();
                        self.emit(Opc::S_AND_B32, vec![mir::r(r), s, Operand::Imm(1)]);
                        Val::SBool(r)
                    }
                    Val::Mask(_) => x,
                    _ => Val::Mask(self.mask(x)?),
                });
            }
            _ => {}
        }
        // Both swapped forms reduce to the unswapped ones.
        let (f, a, b) = match f {
            NotAAndB => (AndNotB, b, a),
            NotAOrB => (OrNotB, b, a),
            _ => (f, a, b),
        };
        if scalar {
            let sa = self.sbool(a)?;
            let sb = self.sbool(b)?;
            let r = self.s32();
            // a | !b = !(b & !a); xnor = !xor; !x = x ^ 1 on 0/1.
            let (o, x, y, negate) = match f {
                And => (Opc::S_AND_B32, sa, sb, false),
                Or => (Opc::S_OR_B32, sa, sb, false),
                Xor => (Opc::S_XOR_B32, sa, sb, false),
                Xnor => (Opc::S_XOR_B32, sa, sb, true),
                AndNotB => (Opc::S_ANDN2_B32, sa, sb, false),
                _ => (Opc::S_ANDN2_B32, sb, sa, true),
            };
            self.emit(o, vec![mir::r(r), x, y]);
            if !negate {
                return Ok(Val::SBool(r));
            }
            let n = self.s32();
            self.emit(Opc::S_XOR_B32, vec![mir::r(n), mir::r(r), Operand::Imm(1)]);
            return Ok(Val::SBool(n));
        }
        let ma = self.mask(a)?;
        let mb = self.mask(b)?;
        let r = self.s64();
        let o = match f {
            And => Opc::S_AND_B64,
            Or => Opc::S_OR_B64,
            Xor | Xnor => Opc::S_XOR_B64,
            AndNotB => Opc::S_ANDN2_B64,
            _ => Opc::S_ORN2_B64,
        };
        self.emit(o, vec![mir::r(r), mir::r(ma), mir::r(mb)]);
        let within = |s: &Self, m: VReg| s.masked.contains(&m);
        match f {
            Xnor => {
                let n = self.s64();
                self.emit(Opc::S_NOT_B64, vec![mir::r(n), mir::r(r)]);
                return Ok(Val::Mask(n));
            }
            And if within(self, ma) || within(self, mb) => {
                self.masked.insert(r);
            }
            AndNotB if within(self, ma) => {
                self.masked.insert(r);
            }
            _ => {}
        }
        Ok(Val::Mask(r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kc_dialect::eval;

    fn apply(f: Bool2, a: bool, b: bool) -> bool {
        use Bool2::*;
        match f {
            Zero => false,
            A => a,
            And => a & b,
            Or => a | b,
            Xor => a ^ b,
            Xnor => !(a ^ b),
            AndNotB => a & !b,
            NotAAndB => !a & b,
            OrNotB => a | !b,
            NotAOrB => !a | b,
        }
    }

    /// Each boolean function is the reference's op at width 1 wherever the reference defines
    /// it (division by false and signed -1 / -1 are undefined there).
    #[test]
    fn i1_ops_are_the_reference_at_width_1() {
        use Opcode::*;
        let binops = [
            AddI, SubI, MulI, DivSI, DivUI, RemSI, RemUI, AndI, OrI, XOrI, ShLI, ShRSI, ShRUI,
            MinSI, MaxSI, MinUI, MaxUI,
        ];
        let mut defined = 0;
        for (a, b) in [(0u64, 0u64), (0, 1), (1, 0), (1, 1)] {
            for opc in binops {
                let f = bool_function(opc, 0).unwrap();
                if let Ok(r) = eval::int_binop(opc, a, b, 1) {
                    defined += 1;
                    assert_eq!(apply(f, a == 1, b == 1), r == 1, "{opc:?} {a} {b}");
                }
            }
            for pred in 0..10 {
                let f = bool_function(CmpI, pred).unwrap();
                let r = eval::cmpi(pred as u64, a, b, 1);
                assert_eq!(apply(f, a == 1, b == 1), r, "cmpi {pred} {a} {b}");
            }
        }
        // 13 ops defined everywhere, divui / remui for b = 1, divsi / remsi for (0, 1).
        assert_eq!(defined, 13 * 4 + 2 * 2 + 2);
    }

    /// `fptosi` / `fptoui` to i1 are the compares `x <= -1`, `x >= 1` (false for NaN).
    #[test]
    fn f32_to_i1_thresholds() {
        let xs = [
            f32::NAN,
            f32::NEG_INFINITY,
            -2.0,
            -1.0,
            -0.99,
            -0.0,
            0.0,
            0.99,
            1.0,
            1.5,
            f32::INFINITY,
        ];
        for x in xs {
            let bits = x.to_bits() as u64;
            assert_eq!(
                eval::cast(Opcode::FPToSI, bits, 32, 1) == 1,
                x <= -1.0,
                "{x}"
            );
            assert_eq!(
                eval::cast(Opcode::FPToUI, bits, 32, 1) == 1,
                x >= 1.0,
                "{x}"
            );
        }
        let (t, f) = (1u64, 0u64);
        assert_eq!(
            f32::from_bits(eval::cast(Opcode::SIToFP, t, 1, 32) as u32),
            -1.0
        );
        assert_eq!(
            f32::from_bits(eval::cast(Opcode::UIToFP, t, 1, 32) as u32),
            1.0
        );
        assert_eq!(
            f32::from_bits(eval::cast(Opcode::SIToFP, f, 1, 32) as u32),
            0.0
        );
    }
}
