//! The Nyaya service: storage, HTTP API and CLI over the `nyaya-ingest` parser.

pub mod config;
pub mod db;
pub mod embed;
pub mod error;
pub mod http;
pub mod ingest;
pub mod provision;
pub mod search;
pub mod store;
