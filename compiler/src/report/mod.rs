//! Human- and tool-readable reports of analysis results (the `--emit=uniformity` family):
//! the annotated listing ([`uniformity`]), JSON ([`json`]), Graphviz ([`dot`]) and
//! `--explain` chains ([`explain`]), all built on one per-kernel view ([`view`]).

pub mod dot;
pub mod explain;
pub mod json;
pub mod uniformity;
pub mod view;
