//! `nyaya-ingest`: the official PDF of the Constitution of India → typed provisions and chunks.
//!
//! Invariant: this crate never touches a database or the network. It reads bytes and returns
//! values; the service decides what to store. See `ARCHITECTURE.md`.
//!
//! Pipeline: [`pdf::read_pages`] (glyphs) → [`layout::layout_page`] (lines, footnotes) →
//! [`structure::parse_layout`] (provisions, clauses, notes, cross-references) →
//! [`chunk::chunk_provision`] (retrieval units).

pub mod amendment;
pub mod asof;
pub mod chunk;
pub mod contents;
pub mod diff;
pub mod indic;
pub mod layout;
pub mod model;
pub mod pdf;
pub mod refid;
pub mod structure;
pub mod xref;

use std::path::Path;

pub use model::{AmendmentLink, Chunk, Clause, ClauseKind, PartInfo, Provision, Status};
pub use refid::{ProvisionKind, RefId};
pub use structure::ParsedDocument;

/// Bumped whenever a change alters what the parser produces for the same PDF. The store keys
/// "already ingested" on (sha256, parser version), so a bump makes the next ingest replace the
/// corpus.
pub const PARSER_VERSION: &str = "6";

/// Anything that stops a PDF from becoming provisions.
#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    #[error(transparent)]
    Pdf(#[from] pdf::PdfError),
    #[error(transparent)]
    Structure(#[from] structure::StructureError),
}

/// Parses the PDF bytes into provisions. `pdfium_lib` is the path of `libpdfium.so`.
pub fn parse_pdf(bytes: &[u8], pdfium_lib: &Path) -> Result<ParsedDocument, IngestError> {
    let pages = pdf::read_pages(bytes, pdfium_lib)?;
    let layouts: Vec<layout::PageLayout> = pages.iter().map(layout::layout_page).collect();
    Ok(structure::parse_layout(&layouts)?)
}

/// The hex SHA-256 of the bytes: the identity of an ingested file.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(bytes))
}
