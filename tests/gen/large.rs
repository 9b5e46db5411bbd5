//! Large kernels of the shapes that once broke kc by their size (issue #10): thousands of
//! sequential `if`s (the dominator tree is as deep as the kernel is long), an `else if`
//! chain (nested regions and an equally deep control tree) with a uniform or a divergent
//! condition, and a straight line of stores (many memory operations in flight).
//!
//! Used by the size test (`tests/size.rs`) and the criterion benchmark
//! `compiler/benches/size.rs` (which includes this file by path, so the compiler crate needs
//! no dependency on the test crate). Deterministic: a kernel is a function of its shape and
//! size.

use std::fmt::Write;

/// The shapes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `n` sequential `if t == K { out[K % 64] = K; }` on the work-item id.
    SequentialIfs,
    /// `if t == 0 {..} else if t == 1 {..} ...` with `n` arms, `t` a kernel parameter.
    UniformChain,
    /// The same chain with `t` the work-item id.
    DivergentChain,
    /// `n` stores `out[t + K] = K;`.
    Stores,
}

impl Shape {
    pub const ALL: [Shape; 4] = [
        Shape::SequentialIfs,
        Shape::UniformChain,
        Shape::DivergentChain,
        Shape::Stores,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Shape::SequentialIfs => "sequential_ifs",
            Shape::UniformChain => "uniform_else_if_chain",
            Shape::DivergentChain => "divergent_else_if_chain",
            Shape::Stores => "stores",
        }
    }

    /// The kernel of this shape with `n` statements, arms or stores.
    pub fn kernel(self, n: usize) -> String {
        match self {
            Shape::SequentialIfs => sequential_ifs(n),
            Shape::UniformChain => else_if_chain(n, true),
            Shape::DivergentChain => else_if_chain(n, false),
            Shape::Stores => stores(n),
        }
    }
}

/// `n` sequential `if`s on the work-item id, each storing to one of 64 slots.
pub fn sequential_ifs(n: usize) -> String {
    let mut s = String::from("kernel seq(out: ptr<global, i32>) {\n    let t = workitem_id(x);\n");
    for k in 0..n {
        let _ = writeln!(s, "    if t == {k} {{ out[{}] = {k}; }}", k % 64);
    }
    s.push_str("}\n");
    s
}

/// An `else if` chain of `n` arms on `t`: a kernel parameter (`uniform`) or the work-item id.
pub fn else_if_chain(n: usize, uniform: bool) -> String {
    let mut s = String::from("kernel chain(out: ptr<global, i32>, n: i32) {\n");
    s.push_str(if uniform {
        "    let t = n;\n"
    } else {
        "    let t = workitem_id(x);\n"
    });
    for k in 0..n {
        let kw = if k == 0 { "    if" } else { " else if" };
        let _ = write!(
            s,
            "{kw} t == {k} {{\n        out[{}] = {k};\n    }}",
            k % 64
        );
    }
    s.push_str(" else {\n        out[0] = -1;\n    }\n}\n");
    s
}

/// `n` stores of constants at `out[t + K]`.
pub fn stores(n: usize) -> String {
    let mut s =
        String::from("kernel stores(out: ptr<global, i32>) {\n    let t = workitem_id(x);\n");
    for k in 0..n {
        let _ = writeln!(s, "    out[t + {k}] = {k};");
    }
    s.push_str("}\n");
    s
}
