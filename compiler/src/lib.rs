//! kc front end: `.k` source -> AST -> checked AST -> kernel-dialect IR, and the driver.
//!
//! Front-end pipeline: [`parse::parse`] (lexer + LALR parser) produces an
//! [`ast::Module`]; [`check::check`] resolves names and types and produces the
//! side tables in [`check::Checked`]; [`lower::lower`] builds the structured kernel dialect;
//! [`pipeline`] runs the IR passes; [`interp`] is the reference interpreter (`kc run --engine
//! ref`); [`report`] renders the uniformity analysis (`--emit=uniformity` and its JSON, dot
//! and `--explain` forms) and [`target`] translates CF kernels to LLVM IR (`--emit=llvm`);
//! every user error is a [`diag::Diagnostic`] rendered with
//! [`diag::render`].

pub mod ast;
pub mod builtins;
pub mod check;
pub mod diag;
pub mod driver;
pub mod input;
pub mod interp;
pub mod lexer;
pub mod lower;
pub mod mlir_gpu;
pub mod output;
pub mod parse;
pub mod pass_manager;
pub mod pipeline;
pub mod report;
pub mod run;
pub mod source;
pub mod spin_loops;
pub mod target;
pub mod warnings;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, clippy::pedantic, unused_parens, unused_qualifications)]
    pub grammar
);
