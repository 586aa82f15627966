//! Configuration from flags and environment (each flag has an env var): what every command
//! shares (the database, model and library paths, the edition, the LLM endpoints, the server's
//! limits). The search's and the answer's own settings live with them
//! ([`crate::search::settings`], [`crate::answer::settings`]) and the binary flattens all
//! three, so this module imports none of the modules it configures.

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

    /// The multilingual model's folder: multilingual-e5-small (4-bit) and the engine `make setup`
    /// compiled for it, the dense leg of questions not in English.
    #[arg(
        long,
        env = "NYAYA_MULTILINGUAL_DIR",
        global = true,
        default_value = ".cache/models/multilingual-e5-small"
    )]
    pub multilingual_dir: PathBuf,

    /// Embed the corpus with the multilingual model too (`nyaya ingest`, or in the background
    /// of `nyaya serve`) and search questions in Indian scripts with it; `false` switches it
    /// off (English questions take the same path either way).
    #[arg(long, env = "NYAYA_MULTILINGUAL", global = true, default_value_t = true, action = clap::ArgAction::Set)]
    pub multilingual: bool,

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

    /// The edition searches, answers and provision lookups read when a request names none
    /// ("2022", "2024-05-01"); the newest stored when unset.
    #[arg(long = "edition", env = "NYAYA_EDITION", global = true)]
    pub edition: Option<String>,

    /// `nyaya serve` also ingests, after it starts answering, every other edition (PDF) in the
    /// default PDF's folder; `false` keeps to the default PDF alone.
    #[arg(long, env = "NYAYA_OTHER_EDITIONS", global = true, default_value_t = true, action = clap::ArgAction::Set)]
    pub other_editions: bool,

    /// A cross-encoder folder (ONNX + tokenizer files + nyaya-reranker.json), e.g.
    /// bge-reranker-v2-m3. Optional; nothing ships it.
    #[arg(long, env = "NYAYA_RERANKER_DIR", global = true)]
    pub reranker_dir: Option<PathBuf>,

    /// An OpenAI-compatible endpoint, up to and including `/v1` (Ollama, vLLM, llama.cpp,
    /// a hosted API). Unset: no LLM; every answer is extractive.
    #[arg(long, env = "NYAYA_LLM_BASE_URL", global = true)]
    pub llm_base_url: Option<String>,

    /// The primary endpoint's model name.
    #[arg(
        long,
        env = "NYAYA_LLM_MODEL",
        global = true,
        default_value = "default"
    )]
    pub llm_model: String,

    /// The primary endpoint's API key (sent as a bearer token).
    #[arg(long, env = "NYAYA_LLM_API_KEY", global = true, hide_env_values = true)]
    pub llm_api_key: Option<String>,

    /// A fallback endpoint, tried when the primary fails twice.
    #[arg(long, env = "NYAYA_LLM_FALLBACK_BASE_URL", global = true)]
    pub llm_fallback_base_url: Option<String>,

    #[arg(
        long,
        env = "NYAYA_LLM_FALLBACK_MODEL",
        global = true,
        default_value = "default"
    )]
    pub llm_fallback_model: String,

    #[arg(
        long,
        env = "NYAYA_LLM_FALLBACK_API_KEY",
        global = true,
        hide_env_values = true
    )]
    pub llm_fallback_api_key: Option<String>,

    /// Bound on each LLM attempt, in milliseconds.
    #[arg(
        long,
        env = "NYAYA_LLM_TIMEOUT_MS",
        global = true,
        default_value_t = 30_000
    )]
    pub llm_timeout_ms: u64,

    /// Wait before retrying the same endpoint, in milliseconds.
    #[arg(
        long,
        env = "NYAYA_LLM_BACKOFF_MS",
        global = true,
        default_value_t = 500
    )]
    pub llm_backoff_ms: u64,

    /// Consecutive failed attempts after which an LLM endpoint is skipped (circuit open).
    #[arg(
        long,
        env = "NYAYA_LLM_BREAKER_FAILURES",
        global = true,
        default_value_t = 3
    )]
    pub llm_breaker_failures: u32,

    /// How long an open circuit skips its endpoint before one probe call, in milliseconds.
    #[arg(
        long,
        env = "NYAYA_LLM_BREAKER_COOL_DOWN_MS",
        global = true,
        default_value_t = 30_000
    )]
    pub llm_breaker_cool_down_ms: u64,

    /// One request's whole LLM budget (router, HyDE and answer with their retries and the
    /// fallback), in milliseconds; past it the answer degrades to the extractive one.
    #[arg(
        long,
        env = "NYAYA_LLM_DEADLINE_MS",
        global = true,
        default_value_t = 60_000
    )]
    pub llm_deadline_ms: u64,

    /// Requests served at once; beyond it a request gets 503 `overloaded` at once (0: no
    /// bound). Health, readiness and metrics are never refused.
    #[arg(long, env = "NYAYA_MAX_IN_FLIGHT", global = true, default_value_t = 64)]
    pub max_in_flight: usize,

    /// A request's deadline in milliseconds (503 `timeout` past it; 0: none). Longer than
    /// NYAYA_LLM_DEADLINE_MS so an llm-mode answer can still degrade rather than time out.
    #[arg(
        long,
        env = "NYAYA_REQUEST_TIMEOUT_MS",
        global = true,
        default_value_t = 90_000
    )]
    pub request_timeout_ms: u64,

    /// Requests per second each client IP may sustain (429 `rate_limited` beyond it; 0: no
    /// limit).
    #[arg(
        long,
        env = "NYAYA_RATE_LIMIT_PER_S",
        global = true,
        default_value_t = 20.0
    )]
    pub rate_limit_per_s: f64,

    /// Requests a client IP may send in a burst before its rate applies.
    #[arg(
        long,
        env = "NYAYA_RATE_LIMIT_BURST",
        global = true,
        default_value_t = 60.0
    )]
    pub rate_limit_burst: f64,

    /// Days the audit (`answers`) and `llm_calls` rows are kept; `nyaya purge` and the server
    /// (at start and daily) delete older ones.
    #[arg(
        long,
        env = "NYAYA_AUDIT_RETENTION_DAYS",
        global = true,
        default_value_t = 30
    )]
    pub audit_retention_days: u32,

    /// A folder with the chat page's files (index.html, app.js, app.css) to serve from disk on
    /// every request instead of the copies compiled in: for editing the page without a rebuild.
    #[arg(long, env = "NYAYA_PAGE_DIR", global = true)]
    pub page_dir: Option<PathBuf>,
}

/// `N` comma-separated numbers ("2,0.3,0,0.1"), for the weight settings; `names` says what
/// they are in the error ("fused,dense,lexical,title").
pub fn comma_numbers<const N: usize>(s: &str, names: &str) -> Result<[f64; N], String> {
    leading_comma_numbers(s, names, N, [0.0; N])
}

/// At least `required` and at most `N` comma-separated numbers; those left off keep their
/// `defaults` ("0.25,0.1" sets the first two of four).
pub fn leading_comma_numbers<const N: usize>(
    s: &str,
    names: &str,
    required: usize,
    defaults: [f64; N],
) -> Result<[f64; N], String> {
    let given: Vec<f64> = s
        .split(',')
        .map(|x| x.trim().parse::<f64>().map_err(|e| format!("{x:?}: {e}")))
        .collect::<Result<_, _>>()?;
    if !(required..=N).contains(&given.len()) {
        let count = if required == N {
            format!("{N}")
        } else {
            format!("{required} to {N}")
        };
        return Err(format!("expected {count} comma-separated numbers: {names}"));
    }
    let mut numbers = defaults;
    numbers[..given.len()].copy_from_slice(&given);
    Ok(numbers)
}

#[cfg(test)]
mod tests {
    use super::{comma_numbers, leading_comma_numbers};

    #[test]
    fn comma_numbers_wants_exactly_n_numbers() {
        assert_eq!(comma_numbers::<2>(" 0.25, 0.1", "a,b"), Ok([0.25, 0.1]));
        assert!(comma_numbers::<2>("1,2,3", "a,b")
            .unwrap_err()
            .contains("expected 2"));
        assert!(comma_numbers::<4>("1,x,3,4", "a,b,c,d")
            .unwrap_err()
            .contains("\"x\""));
    }

    #[test]
    fn leading_comma_numbers_keep_the_defaults_of_those_left_off() {
        let d = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(
            leading_comma_numbers(" 0.5,0", "a,b[,c[,d]]", 2, d),
            Ok([0.5, 0.0, 3.0, 4.0])
        );
        assert_eq!(
            leading_comma_numbers("5,6,7,8", "a,b[,c[,d]]", 2, d),
            Ok([5.0, 6.0, 7.0, 8.0])
        );
        assert!(leading_comma_numbers("5", "a,b[,c[,d]]", 2, d)
            .unwrap_err()
            .contains("expected 2 to 4"));
        assert!(leading_comma_numbers("1,2,3,4,5", "a,b[,c[,d]]", 2, d).is_err());
        assert!(leading_comma_numbers("1,inff", "a,b[,c[,d]]", 2, d).is_err());
    }
}
