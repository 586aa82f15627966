//! The service's one error type. Every failure a request can meet is a variant here, and
//! `http::error` maps each to a status code and a JSON body in one place.

use nyaya_ingest::IngestError;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// A reference that parses but names no stored provision, or does not parse at all.
    #[error("no provision matches {query:?}")]
    UnknownRef { query: String },
    /// The request itself is malformed.
    #[error("{0}")]
    BadRequest(String),
    /// This client sent more requests than its rate allows.
    #[error("too many requests from this client; retry in {retry_after_s} s")]
    RateLimited { retry_after_s: u64 },
    /// The server is at its bound of requests in flight.
    #[error("the server is busy ({limit} requests in flight); retry shortly")]
    Overloaded { limit: usize },
    /// The request ran past the server's per-request deadline.
    #[error("the request did not finish within {after_ms} ms")]
    Timeout { after_ms: u64 },
    /// The request body is larger than the server accepts.
    #[error("the request body is larger than {limit_bytes} bytes")]
    PayloadTooLarge { limit_bytes: usize },
    /// A text field holds a control character (NUL, ESC …) that no question contains.
    #[error("{field} contains the control character {codepoint} at char {at}; text may not contain control characters other than tab and newline")]
    InvalidText {
        field: String,
        at: usize,
        codepoint: String,
    },
    /// The path exists but not for this HTTP method.
    #[error("{method} is not allowed on {path}")]
    MethodNotAllowed { method: String, path: String },
    /// A path the API does not have.
    #[error("no such endpoint: {path}")]
    NoSuchEndpoint { path: String },
    /// No stored answer has this request id (never made, or purged).
    #[error("no stored answer has request id {request_id:?}")]
    NoSuchAnswer { request_id: String },
    /// No corpus has been ingested yet.
    #[error("no corpus is loaded yet: run `nyaya ingest`")]
    NoCorpus,

    #[error("no single stored edition matches {selector:?} (name one by its date, YYYY, YYYY-MM or YYYY-MM-DD); stored editions: {available:?}")]
    UnknownEdition {
        selector: String,
        available: Vec<String>,
    },
    /// The file to ingest could not be read.
    #[error("cannot read {path}: {reason}")]
    File { path: String, reason: String },
    /// The PDF is not usable (not a PDF, damaged, not the Constitution).
    #[error(transparent)]
    Ingest(#[from] IngestError),
    /// The parse succeeded but the result fails the coverage check against the Contents.
    #[error("the parse is incomplete: missing {missing:?}, duplicated {duplicates:?}; nothing was stored")]
    Incomplete {
        missing: Vec<String>,
        duplicates: Vec<String>,
    },
    /// Loading a tokenizer or another local resource failed.
    #[error("{0}")]
    Resource(String),
    /// A dense search was asked for but the server runs without its embedding model.
    #[error("dense search is unavailable: {0}")]
    ModelUnavailable(String),
    /// The embedding model could not be loaded or run.
    #[error(transparent)]
    Embed(#[from] crate::embed::EmbedError),
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    /// The database did not answer within the readiness deadline.
    #[error("the database did not answer in time")]
    DbTimeout,
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

pub type AppResult<T> = Result<T, AppError>;
