//! IR types.
//!
//! Integers are signless, as in MLIR's `arith`: signedness lives in the op (`divsi`/`divui`,
//! `cmpi slt`/`cmpi ult`). Pointers carry their address space and element type so loads,
//! stores and atomics are typed without a separate element attribute.

use std::fmt;

/// Scalar element types (also the element type of pointers and variables).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Scalar {
    I1,
    I32,
    I64,
    F32,
}

/// Address spaces of kernel pointers.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AddrSpace {
    /// Device memory (64-bit addresses).
    Global,
    /// Workgroup-shared memory, LDS on AMD (32-bit addresses).
    Shared,
}

/// A value type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Type {
    Scalar(Scalar),
    /// `!kernel.ptr<global, i32>`
    Ptr(AddrSpace, Scalar),
    /// `!kernel.var<i32>`: a mutable per-thread variable of the structured kernel dialect.
    Var(Scalar),
    /// `!conv.token`: a convergence token.
    Token,
}

impl Type {
    pub const I1: Type = Type::Scalar(Scalar::I1);
    pub const I32: Type = Type::Scalar(Scalar::I32);
    pub const I64: Type = Type::Scalar(Scalar::I64);
    pub const F32: Type = Type::Scalar(Scalar::F32);

    pub fn scalar(self) -> Option<Scalar> {
        match self {
            Type::Scalar(s) => Some(s),
            _ => None,
        }
    }
    pub fn is_int(self) -> bool {
        matches!(self, Type::Scalar(Scalar::I1 | Scalar::I32 | Scalar::I64))
    }
    pub fn is_float(self) -> bool {
        self == Type::F32
    }
    /// Width in bits of a scalar (pointers: 64 global, 32 shared).
    pub fn bits(self) -> u32 {
        match self {
            Type::Scalar(s) => s.bits(),
            Type::Ptr(AddrSpace::Global, _) => 64,
            Type::Ptr(AddrSpace::Shared, _) => 32,
            Type::Var(_) | Type::Token => 0,
        }
    }
}

impl Scalar {
    pub fn bits(self) -> u32 {
        match self {
            Scalar::I1 => 1,
            Scalar::I32 | Scalar::F32 => 32,
            Scalar::I64 => 64,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Scalar::I1 => "i1",
            Scalar::I32 => "i32",
            Scalar::I64 => "i64",
            Scalar::F32 => "f32",
        }
    }
    pub fn from_name(s: &str) -> Option<Scalar> {
        Some(match s {
            "i1" => Scalar::I1,
            "i32" => Scalar::I32,
            "i64" => Scalar::I64,
            "f32" => Scalar::F32,
            _ => return None,
        })
    }
}

impl AddrSpace {
    pub fn name(self) -> &'static str {
        match self {
            AddrSpace::Global => "global",
            AddrSpace::Shared => "shared",
        }
    }
    pub fn from_name(s: &str) -> Option<AddrSpace> {
        match s {
            "global" => Some(AddrSpace::Global),
            "shared" => Some(AddrSpace::Shared),
            _ => None,
        }
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Type::Scalar(s) => write!(f, "{s}"),
            Type::Ptr(a, s) => write!(f, "!kernel.ptr<{}, {s}>", a.name()),
            Type::Var(s) => write!(f, "!kernel.var<{s}>"),
            Type::Token => f.write_str("!conv.token"),
        }
    }
}

/// Parses the textual form printed by `Display`. Whitespace inside `<>` is ignored.
pub fn parse_type(text: &str) -> Option<Type> {
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if let Some(s) = Scalar::from_name(&t) {
        return Some(Type::Scalar(s));
    }
    if t == "!conv.token" {
        return Some(Type::Token);
    }
    if let Some(inner) = t
        .strip_prefix("!kernel.var<")
        .and_then(|r| r.strip_suffix('>'))
    {
        return Scalar::from_name(inner).map(Type::Var);
    }
    let inner = t.strip_prefix("!kernel.ptr<")?.strip_suffix('>')?;
    let (space, elem) = inner.split_once(',')?;
    Some(Type::Ptr(
        AddrSpace::from_name(space)?,
        Scalar::from_name(elem)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn type_text_round_trips() {
        for t in [
            Type::I1,
            Type::I64,
            Type::F32,
            Type::Token,
            Type::Var(Scalar::I32),
            Type::Ptr(AddrSpace::Shared, Scalar::F32),
        ] {
            assert_eq!(parse_type(&t.to_string()), Some(t));
        }
        assert_eq!(
            parse_type("!kernel.ptr<global,i32>"),
            Some(Type::Ptr(AddrSpace::Global, Scalar::I32))
        );
        assert_eq!(parse_type("!kernel.ptr<local, i32>"), None);
    }
}
