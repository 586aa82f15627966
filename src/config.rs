//! Configuration from flags and environment (each flag has an env var).

use std::path::PathBuf;

use clap::Args;

/// Settings shared by every command.
#[derive(Debug, Clone, Args)]
pub struct Config {
    /// Postgres (with pgvector) to use. `make` points this at the embedded server.
    #[arg(
        long,
        env = "DATABASE_URL",
        global = true,
        default_value = "postgres://postgres@127.0.0.1:54329/nyaya"
    )]
    pub database_url: String,

    /// Path of libpdfium.so (installed by `make setup`).
    #[arg(
        long,
        env = "NYAYA_PDFIUM_LIB",
        global = true,
        default_value = ".cache/lib/libpdfium.so"
    )]
    pub pdfium_lib: PathBuf,

    /// Folder holding the embedding model's tokenizer.json (installed by `make setup`).
    #[arg(
        long,
        env = "NYAYA_MODEL_DIR",
        global = true,
        default_value = ".cache/models/all-minilm-l6-v2"
    )]
    pub model_dir: PathBuf,

    /// ONNX Runtime shared library (installed by `make setup`), loaded at run time.
    #[arg(
        long,
        env = "NYAYA_ORT_LIB",
        global = true,
        default_value = ".cache/lib/libonnxruntime.so.1.32.0"
    )]
    pub ort_lib: PathBuf,

    /// Store the corpus without vectors (a later `nyaya ingest` embeds what is missing).
    #[arg(long, env = "NYAYA_NO_EMBED", global = true)]
    pub no_embed: bool,

    /// Token budget of one chunk, heading included.
    #[arg(long, env = "NYAYA_CHUNK_TOKENS", global = true, default_value_t = nyaya_ingest::chunk::DEFAULT_MAX_TOKENS)]
    pub chunk_tokens: usize,

    /// The PDF that `serve` ingests when the database holds no corpus yet.
    #[arg(
        long,
        env = "NYAYA_PDF",
        global = true,
        default_value = "corpus/constitution-of-india-2024-05-01.pdf"
    )]
    pub default_pdf: PathBuf,
}
