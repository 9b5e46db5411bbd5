//! The gfx942 backend (isel, control-flow lowering, register allocation, waitcnt, printer,
//! simulator). Empty until the backend issue lands; the crate exists so the layout is fixed.
