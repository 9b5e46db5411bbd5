//! Test harness support.
