//! Random kernel generators for differential tests.
//!
//! - [`source`]: structured `.k` kernels (nested `if`/`else`, `while`/`for`/`loop` with
//!   uniform and divergent conditions, `break`/`continue`/`return` at any depth, `var`s
//!   updated in branches and loops, uniform and divergent values, cross-lane operations,
//!   atomics, loads and stores), with implicit tokens or explicit `heart`/`@` tokens.
//! - [`cfg`]: CF-form `.mlir` kernels on random control-flow graphs, irreducible ones
//!   included (multiple-entry and nested cycles), with block arguments, without tokens or
//!   with an entry token (hearts in reducible cycles, anchors elsewhere).
//! - [`large`]: very large kernels of fixed shapes (sequential `if`s, `else if` chains,
//!   straight-line stores) for the size test and benchmark.
//! - [`spill`]: kernels with more live values than gfx942 has VGPRs (2,000 32-bit values;
//!   100 64-bit values across a loop), with their args and expected buffers, for the
//!   spilling test.
//!
//! Everything is deterministic: a kernel is a function of its seed ([`Rng`]).

pub mod cfg;
pub mod large;
pub mod source;
pub mod spill;

/// SplitMix64: small, fast, good enough for test generation, and stable across platforms
/// and Rust versions (unlike `std`'s hashers).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The seed of item `index` of a run with base seed `base`.
    pub fn derive(base: u64, index: u64) -> u64 {
        let mut r = Rng(base ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
        r.next_u64()
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "Rng::below(0)");
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// An index drawn with the given weights (not all zero).
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        let mut x = self.below(total as usize) as u32;
        for (i, &w) in weights.iter().enumerate() {
            if x < w {
                return i;
            }
            x -= w;
        }
        unreachable!("weights sum to total")
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn deterministic() {
        let a: Vec<u64> = (0..4).map(|i| Rng::derive(7, i)).collect();
        let b: Vec<u64> = (0..4).map(|i| Rng::derive(7, i)).collect();
        assert_eq!(a, b);
        assert_ne!(a[0], a[1]);
        let mut r = Rng::new(1);
        assert!((0..100).all(|_| r.below(3) < 3));
    }
}
