//! Unit tests of the simulator (see also backend/tests/sim*.rs).
