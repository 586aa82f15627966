//! The Nyaya service: storage, HTTP API and CLI over the `nyaya-ingest` parser.

pub mod ablate;
pub mod answer;
pub mod bench;
pub mod breaker;
pub mod config;
pub mod db;
pub mod definition;
pub mod editions;
pub mod eligibility;
pub mod eligibility_text;
pub mod embed;
pub mod error;
pub mod evaluate;
pub mod http;
pub mod ingest;
pub mod input;
pub mod language;
pub mod llm;
pub mod load;
pub mod metrics;
pub mod provision;
pub mod scope;
pub mod search;
pub mod store;
pub mod tier;
pub mod train;
