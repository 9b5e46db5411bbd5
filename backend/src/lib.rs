//! The gfx942 backend: control tree (structurization of divergent regions), instruction
//! selection driven by uniformity, EXEC-mask control-flow lowering, register allocation,
//! s_waitcnt and hazard insertion, and the asm printer. `isa` is the one instruction table
//! the printer and the simulator's parser share.

pub mod isa;
pub mod sim;
