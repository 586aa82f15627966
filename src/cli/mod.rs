//! The `nyaya` binary's commands, grouped by what they do; `main.rs` parses the command line
//! and `run` dispatches to them. Each command is a `<name>_command` function: load, call, print.

pub(crate) mod bench;
pub(crate) mod corpus;
pub(crate) mod eligible;
pub(crate) mod eval;
pub(crate) mod golden;
mod models;
mod print;
pub(crate) mod serve;
pub(crate) mod train;
