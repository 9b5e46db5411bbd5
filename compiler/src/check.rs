//! Semantic checking (placeholder while the parser is brought up).
