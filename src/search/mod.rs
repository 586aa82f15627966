//! Retrieval. Pure parts first: [`fusion`] combines ranked lists by rank, never by raw score.
//! The legs (dense over pgvector, lexical over Postgres full-text search), pinning and the
//! one-hop expansion build on it.

pub mod fusion;
