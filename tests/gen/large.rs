//! Large kernels of the shapes that once broke kc by their size (issue #10): thousands of
//! sequential `if`s (the dominator tree is as deep as the kernel is long), an `else if`
//! chain (nested regions and an equally deep control tree) with a uniform or a divergent
//! condition, and a straight line of stores (many memory operations in flight); and a mixed
//! kernel like a real one (issue #12): divergent and uniform `if`s, small divergent loops,
//! loads and stores, nested a few levels at most.
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
    /// `n` top-level statements mixing divergent ifs, uniform ifs, small divergent loops,
    /// loads and stores (see [`mixed`]).
    Mixed,
}

impl Shape {
    pub const ALL: [Shape; 5] = [
        Shape::SequentialIfs,
        Shape::UniformChain,
        Shape::DivergentChain,
        Shape::Stores,
        Shape::Mixed,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Shape::SequentialIfs => "sequential_ifs",
            Shape::UniformChain => "uniform_else_if_chain",
            Shape::DivergentChain => "divergent_else_if_chain",
            Shape::Stores => "stores",
            Shape::Mixed => "mixed",
        }
    }

    /// The kernel of this shape with `n` statements, arms or stores.
    pub fn kernel(self, n: usize) -> String {
        match self {
            Shape::SequentialIfs => sequential_ifs(n),
            Shape::UniformChain => else_if_chain(n, true),
            Shape::DivergentChain => else_if_chain(n, false),
            Shape::Stores => stores(n),
            Shape::Mixed => mixed(n),
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

/// A kernel like a real one, of `n` top-level statements: each is one of a divergent `if`
/// on the work-item id (some with an `else`, some holding a uniform `if`), a uniform `if` on
/// the kernel arguments (some holding a small divergent loop), a small divergent loop (a
/// trip count of at most 3 depending on the work-item id, or a `loop` with a `break` on it,
/// a few statements inside), or a load and a store; nothing nests deeper than three levels.
/// Two accumulators live across the whole kernel; every other value is the statement's own
/// (its constants include `k`, so the optimizer's CSE does not keep values of one statement
/// live until a later one). The kind of statement `k` is a fixed hash of `k`, so a kernel
/// is a function of `n` and a longer kernel starts with the shorter one's statements.
pub fn mixed(n: usize) -> String {
    let mut s = String::from(
        "kernel mixed(out: ptr<global, i32>, inp: ptr<global, i32>, n: i32, m: i32) {\n    \
         let t = workitem_id(x);\n    var acc = inp[t];\n    var acc2 = m;\n",
    );
    for k in 0..n {
        // A hash of k (multiply, xor-shift: murmur3's finalizer) chooses the statement.
        let mut h = (k as u32).wrapping_mul(0x9e37_79b1);
        h ^= h >> 15;
        h = h.wrapping_mul(0x85eb_ca77);
        h ^= h >> 13;
        let (a, b) = (k % 64, k % 7);
        let body = match h % 10 {
            0 | 1 => format!(
                "if (t + {k}) % 8 == 0 {{\n        acc += inp[t + {k}];\n        \
                 out[t + {k}] = acc;\n    }}"
            ),
            2 => format!(
                "if (t ^ {k}) > {a} {{\n        acc2 = acc2 * 3 + {b};\n    }} else {{\n        \
                 out[t + {k}] = acc2 - acc;\n    }}"
            ),
            3 => format!(
                "if (t ^ {k}) < {a} {{\n        if n > {k} {{\n            acc ^= inp[t + {k}];\n        \
                 }} else {{\n            acc2 += m * {k};\n        }}\n    }}"
            ),
            4 => format!(
                "if n > {k} {{\n        acc += m ^ {k};\n        out[t + {k}] = acc;\n    \
                 }} else {{\n        acc2 -= {b};\n    }}"
            ),
            5 => format!(
                "if m == {k} {{\n        for i in 0..(t + {k}) % 4 {{\n            \
                 acc2 += inp[i + {k}];\n        }}\n    }}"
            ),
            6 | 7 => format!(
                "for i in 0..(t + {k}) % 4 {{\n        acc += inp[t + i + {k}];\n        \
                 out[t + {k}] = acc + i;\n    }}"
            ),
            8 => format!(
                "{{\n        var j = 0;\n        loop {{\n            if j >= (t + {k}) % 3 {{\n                \
                 break;\n            }}\n            acc2 ^= inp[j + {k}];\n            j += 1;\n        \
                 }}\n    }}"
            ),
            _ => format!("acc = acc * 5 + inp[t + {k}];\n    out[t + {k}] = acc ^ acc2;"),
        };
        let _ = writeln!(s, "    {body}");
    }
    s.push_str("    out[t] = acc + acc2;\n}\n");
    s
}
