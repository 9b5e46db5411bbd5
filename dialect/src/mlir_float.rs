//! `f32` literals printed exactly as MLIR prints them (`1.000000e+00`, `0.1` as
//! `1.000000e-01`, `3.40282347E+38`, `0x7FC00000`), so that kc's text and `mlir-opt`'s agree
//! character for character.
//!
//! MLIR's `printFloatValue` first tries LLVM's `APFloat::toString(6, 0, false)` (scientific, 6
//! significant digits, padded to 7) and keeps it if it parses back to the same bits; else the
//! default `APFloat::toString()` (up to 9 digits, `E` exponent or plain, trailing zeros cut) if
//! that has a `.`; else (and for infinities and NaNs) the bit pattern in hexadecimal. Both
//! `toString`s are reproduced here step by step, including APFloat's two-stage rounding (an
//! integer division that truncates, then round-half-up on the digits), because a correctly
//! rounded formatter differs from it in the last digit for some values.

/// A little-endian arbitrary-precision unsigned integer: just what `to_string` needs.
struct Big(Vec<u32>);

impl Big {
    fn from_u64(v: u64) -> Big {
        let mut b = Big(vec![v as u32, (v >> 32) as u32]);
        b.trim();
        b
    }
    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }
    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
    fn bits(&self) -> u32 {
        match self.0.last() {
            Some(&top) => 32 * (self.0.len() as u32 - 1) + (32 - top.leading_zeros()),
            None => 0,
        }
    }
    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for limb in &mut self.0 {
            let x = *limb as u64 * m as u64 + carry;
            *limb = x as u32;
            carry = x >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
    }
    /// Divides in place, returns the remainder.
    fn div_small(&mut self, d: u32) -> u32 {
        let mut rem = 0u64;
        for limb in self.0.iter_mut().rev() {
            let x = (rem << 32) | *limb as u64;
            *limb = (x / d as u64) as u32;
            rem = x % d as u64;
        }
        self.trim();
        rem as u32
    }
}

/// `APFloat::toString(precision, max_padding, truncate_zero)` of a finite `v`.
fn to_string(v: f32, precision: u32, max_padding: u32, truncate_zero: bool) -> String {
    let mut out = String::new();
    if v.is_sign_negative() {
        out.push('-');
    }
    if v == 0.0 {
        if max_padding != 0 {
            out.push('0');
        } else if truncate_zero {
            out.push_str("0.0E+0");
        } else {
            out.push_str("0.0");
            for _ in 1..precision {
                out.push('0');
            }
            out.push_str("e+00");
        }
        return out;
    }
    // v = significand * 2^exp.
    let bits = v.to_bits();
    let (mut sig, mut exp) = match (bits >> 23) & 0xFF {
        0 => ((bits & 0x7F_FFFF) as u64, -149i32),
        e => (((bits & 0x7F_FFFF) | 0x80_0000) as u64, e as i32 - 150),
    };
    // f32 has 24 bits of precision: the default precision is 2 + 24 * 59 / 196 = 9 digits.
    let precision = if precision == 0 { 9 } else { precision };
    let tz = sig.trailing_zeros();
    sig >>= tz;
    exp += tz as i32;
    // Change the exponent from 2^exp to 10^exp: N * 2^-e = N * 5^e * 10^-e.
    let mut n = Big::from_u64(sig);
    if exp > 0 {
        for _ in 0..exp {
            n.mul_small(2);
        }
        exp = 0;
    } else {
        for _ in 0..-exp {
            n.mul_small(5);
        }
    }
    // First rounding: drop the decimal digits well past the precision, truncating.
    let required = (precision * 196).div_ceil(59); // APFloat: (p * 196 + 58) / 59
    if n.bits() > required {
        let removable = (n.bits() - required) * 59 / 196;
        for _ in 0..removable {
            n.div_small(10);
        }
        exp += removable as i32;
    }
    // The digits, least significant first, trailing zeros dropped.
    let mut digits: Vec<u8> = Vec::new();
    while !n.is_zero() {
        let d = n.div_small(10) as u8;
        if digits.is_empty() && d == 0 {
            exp += 1;
        } else {
            digits.push(b'0' + d);
        }
    }
    // Second rounding: round half up to `precision` digits.
    let len = digits.len();
    if len > precision as usize {
        let mut first = len - precision as usize;
        if digits[first - 1] < b'5' {
            while first < len && digits[first] == b'0' {
                first += 1;
            }
        } else {
            while first < len && digits[first] == b'9' {
                first += 1;
            }
            if first < len {
                digits[first] += 1;
            }
        }
        exp += first as i32;
        if first == len {
            digits = vec![b'1'];
        } else {
            digits.drain(..first);
        }
    }
    let nd = digits.len();
    let digit = |i: usize| digits[nd - 1 - i] as char; // most significant first
    let scientific = if max_padding == 0 {
        true
    } else if exp >= 0 {
        exp as u32 > max_padding || nd as u32 + exp as u32 > precision
    } else {
        let msd = exp + nd as i32 - 1;
        msd < 0 && (-msd) as u32 > max_padding
    };
    if scientific {
        let e = exp + nd as i32 - 1;
        out.push(digit(0));
        out.push('.');
        if nd == 1 && truncate_zero {
            out.push('0');
        } else {
            (1..nd).for_each(|i| out.push(digit(i)));
        }
        if !truncate_zero && precision as usize > nd - 1 {
            for _ in 0..precision as usize - nd + 1 {
                out.push('0');
            }
        }
        out.push(if truncate_zero { 'E' } else { 'e' });
        out.push(if e >= 0 { '+' } else { '-' });
        let e = e.unsigned_abs();
        if !truncate_zero && e < 10 {
            out.push('0');
        }
        out.push_str(&e.to_string());
    } else if exp >= 0 {
        (0..nd).for_each(|i| out.push(digit(i)));
        (0..exp).for_each(|_| out.push('0'));
    } else {
        let whole = exp + nd as i32;
        if whole > 0 {
            (0..whole as usize).for_each(|i| out.push(digit(i)));
            out.push('.');
            (whole as usize..nd).for_each(|i| out.push(digit(i)));
        } else {
            out.push_str("0.");
            (0..-whole).for_each(|_| out.push('0'));
            (0..nd).for_each(|i| out.push(digit(i)));
        }
    }
    out
}

/// `v` as MLIR prints an `f32` attribute value (without the `: f32`).
pub fn format_f32(v: f32) -> String {
    if v.is_finite() {
        let s = to_string(v, 6, 0, false);
        if s.parse::<f32>().map(f32::to_bits) == Ok(v.to_bits()) {
            return s;
        }
        let s = to_string(v, 0, 3, true);
        if s.contains('.') {
            return s;
        }
    }
    format!("0x{:08X}", v.to_bits())
}

#[cfg(test)]
mod tests {
    use super::format_f32;

    /// What `mlir-opt-22` prints for these values (checked by hand against it).
    #[test]
    fn as_mlir_prints() {
        let cases: &[(f32, &str)] = &[
            (1.0, "1.000000e+00"),
            (0.1, "1.000000e-01"),
            (1.0e30, "1.000000e+30"),
            (-0.0, "-0.000000e+00"),
            (0.0, "0.000000e+00"),
            (f32::MAX, "3.40282347E+38"),
            (f32::from_bits(1), "1.401300e-45"),
            (123456.79, "123456.789"),
            (f32::NAN, "0x7FC00000"),
            (f32::INFINITY, "0x7F800000"),
            (f32::NEG_INFINITY, "0xFF800000"),
        ];
        for &(v, s) in cases {
            assert_eq!(format_f32(v), s, "{v:?}");
            assert_eq!(
                s.parse::<f32>()
                    .ok()
                    .map(f32::to_bits)
                    .unwrap_or(v.to_bits()),
                v.to_bits()
            );
        }
    }
}
