//! IR-to-IR transforms.
//!
//! - [`insert_tokens`]: structured form -> structured form; makes convergence explicit by
//!   giving every structured kernel without tokens an entry token, a loop heart per real loop,
//!   and a token operand on every convergent op (what clang does for HLSL).
//! - [`lower_to_cf`]: structured form -> CFG form (`cf.br` / `cf.cond_br` between blocks with
//!   arguments), building SSA for the mutable variables on the fly (Braun et al. 2013).

pub mod insert_tokens;
pub mod lower_to_cf;

pub use insert_tokens::insert_tokens;
pub use lower_to_cf::lower_to_cf;

#[cfg(test)]
mod tests;
