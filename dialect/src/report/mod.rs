//! Human- and tool-readable reports of analysis results (the `--emit=uniformity` family).

pub mod uniformity;
