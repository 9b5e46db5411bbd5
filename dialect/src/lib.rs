//! kc IR core: MLIR-style ops, SSA values, blocks with arguments and regions, stored in
//! cranelift-entity arenas with typed indices; the dialect registry (`kernel`, `arith`, `cf`,
//! `conv`); textual forms (custom and MLIR generic); the verifier and the token verifier;
//! analyses.

pub mod analysis;
pub mod attrs;
pub mod entities;
pub mod eval;
pub mod ir;
pub mod location;
pub mod mlir_float;
pub mod registry;
pub mod sync;
pub mod text;
pub mod transforms;
pub mod types;
pub mod verify;
pub mod verify_tokens;

pub use attrs::Attr;
pub use entities::{Block, Op, Region, Value};
pub use ir::{Ir, OpData, OpList, Successor, ValueDef, ValueList};
pub use location::{FileId, Loc};
pub use registry::{OpSpec, Opcode, Traits};
pub use types::{AddrSpace, Scalar, Type};
