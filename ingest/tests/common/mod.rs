//! Shared by the corpus tests: where the PDFs and native libraries are, parsed once per binary.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::LazyLock;

use nyaya_ingest::{ParsedDocument, Provision, RefId};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `NYAYA_PDFIUM_LIB`, or where `make setup` puts it.
pub fn pdfium_lib() -> PathBuf {
    std::env::var_os("NYAYA_PDFIUM_LIB")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join(".cache/lib/libpdfium.so"))
}

/// `NYAYA_MODEL_DIR`, or where `make setup` puts it.
pub fn model_dir() -> PathBuf {
    std::env::var_os("NYAYA_MODEL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join(".cache/models/all-minilm-l6-v2"))
}

pub fn corpus(name: &str) -> PathBuf {
    repo().join("corpus").join(name)
}

fn parse(name: &str) -> ParsedDocument {
    let bytes = std::fs::read(corpus(name)).expect("the corpus PDF is in the repo");
    nyaya_ingest::parse_pdf(&bytes, &pdfium_lib())
        .expect("the official PDF parses (run `make setup` first)")
}

pub static DOC_2024: LazyLock<ParsedDocument> =
    LazyLock::new(|| parse("constitution-of-india-2024-05-01.pdf"));
pub static DOC_2022: LazyLock<ParsedDocument> =
    LazyLock::new(|| parse("constitution-of-india-2022-05.pdf"));

pub fn get<'a>(doc: &'a ParsedDocument, id: &str) -> &'a Provision {
    let id: RefId = id.parse().expect("canonical id");
    doc.provisions
        .iter()
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("{id} is in the parse"))
}

/// The text of a clause by its label.
pub fn clause_text(p: &Provision, label: &str) -> String {
    let c = p
        .clauses
        .iter()
        .find(|c| c.label == label)
        .unwrap_or_else(|| {
            panic!(
                "{} has clause {label}; it has {:?}",
                p.id,
                p.clauses.iter().map(|c| &c.label).collect::<Vec<_>>()
            )
        });
    p.text.chars().skip(c.start).take(c.end - c.start).collect()
}
