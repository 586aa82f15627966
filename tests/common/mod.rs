//! Shared helpers for the integration tests: configuration that works from any CWD, the real
//! PDF, a snapshot of the stored corpus, an HTTP driver for the router, and a hand-made PDF.
#![allow(dead_code)] // each test binary uses a different subset

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::Value;
use sqlx::{PgPool, Row};
use tower::ServiceExt;

use nyaya::config::Config;
use nyaya::http::AppState;

pub mod fake_llm;
pub mod tiny_onnx;
pub mod vector_cache;
pub mod webdriver;

/// A TCP port free on loopback right now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `<manifest>/<rel>`: the repository root, whatever the current directory is.
pub fn repo_path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The official PDF the service is built around.
pub fn real_pdf() -> PathBuf {
    repo_path("corpus/constitution-of-india-2024-05-01.pdf")
}

/// `$var` if set, else `<manifest>/<fallback>`.
fn env_path(var: &str, fallback: &str) -> PathBuf {
    std::env::var_os(var)
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_path(fallback))
}

pub fn pdfium_lib() -> PathBuf {
    env_path("NYAYA_PDFIUM_LIB", ".cache/lib/libpdfium.so")
}

pub fn model_dir() -> PathBuf {
    env_path("NYAYA_MODEL_DIR", ".cache/models/all-minilm-l6-v2")
}

pub fn ort_lib() -> PathBuf {
    env_path("NYAYA_ORT_LIB", ".cache/lib/libonnxruntime.so.1.32.0")
}

/// The URL of the database behind `pool` (a per-test database made by `#[sqlx::test]`):
/// `DATABASE_URL` with its database name replaced, so credentials and host stay as given.
pub fn database_url(pool: &PgPool) -> String {
    let base = std::env::var("DATABASE_URL").expect("DATABASE_URL must be set for these tests");
    let db = pool
        .connect_options()
        .get_database()
        .expect("a sqlx::test pool names its database")
        .to_string();
    let after_scheme = base.find("://").map(|i| i + 3).unwrap_or(0);
    let (head, query) = match base.find('?') {
        Some(q) => (&base[..q], &base[q..]),
        None => (base.as_str(), ""),
    };
    let path_start = head[after_scheme..]
        .find('/')
        .map(|i| after_scheme + i)
        .unwrap_or(head.len());
    format!("{}/{db}{query}", &head[..path_start])
}

/// A configuration for the per-test database, built directly (no clap, no CWD dependence).
pub fn config(pool: &PgPool) -> Config {
    #[derive(clap::Parser)]
    struct Defaults {
        #[command(flatten)]
        config: Config,
    }
    // Every other setting at its default, as `nyaya` with no flags would have it.
    let mut c = <Defaults as clap::Parser>::parse_from(["nyaya"]).config;
    c.database_url = database_url(pool);
    c.pdfium_lib = pdfium_lib();
    c.model_dir = model_dir();
    c.ort_lib = ort_lib();
    // Embedding the corpus takes about a minute; tests/embed.rs does it once.
    c.no_embed = true;
    // The multilingual pass takes minutes more; `make test` checks that path on its own
    // database (`nyaya eval --golden eval/golden/multilingual.jsonl --gates multilingual`).
    c.multilingual = false;
    c.chunk_tokens = nyaya_ingest::chunk::DEFAULT_MAX_TOKENS;
    c.default_pdf = real_pdf();
    c
}

/// A search's options as `nyaya` with no flags has them, over no named edition.
pub fn search_options() -> nyaya::search::SearchOptions {
    #[derive(clap::Parser)]
    struct Defaults {
        #[command(flatten)]
        search: nyaya::search::settings::SearchSettings,
    }
    <Defaults as clap::Parser>::parse_from(["nyaya"])
        .search
        .options(None)
}

/// The API's state over `pool` with the default search and answer settings.
pub fn state(
    pool: &PgPool,
    models: nyaya::search::Models,
    config: Config,
    llm: Option<Arc<nyaya::llm::LlmClient>>,
) -> AppState {
    AppState {
        pool: pool.clone(),
        models,
        config: Arc::new(config),
        search: search_options(),
        answer: Default::default(),
        llm,
    }
}

/// Ingests the real PDF with its chunk and clause-span vectors: what the answer tests need.
/// The PDF is parsed and stored by the real ingest; the vectors it would embed come from
/// [`vector_cache`] (embedded by the first test binary that needs them, read by the others),
/// then stored as `nyaya ingest` stores them.
pub async fn ingest_with_vectors(pool: &PgPool) {
    use nyaya::store;
    let cfg = config(pool);
    let outcome = nyaya::ingest::ingest_file(pool, &cfg, &real_pdf())
        .await
        .unwrap();
    let manifest = nyaya::embed::ModelManifest::load(&model_dir()).unwrap();
    let model_id = manifest.id.clone();
    let embed = |texts: &[String]| {
        let bulk = nyaya::embed::OnnxEmbedder::load_for_bulk(&model_dir(), &ort_lib()).unwrap();
        nyaya::embed::embed_all(&bulk, texts, |_, _| {}).unwrap()
    };
    let chunks = store::chunk_texts_not_embedded_by(pool, &model_id)
        .await
        .unwrap();
    let texts: Vec<String> = chunks.iter().map(|(_, h, t)| format!("{h}\n{t}")).collect();
    let vectors = vector_cache::vectors_of(&model_id, &texts, embed);
    let ids: Vec<i64> = chunks.iter().map(|(id, _, _)| *id).collect();
    store::replace_vectors(pool, &ids, &vectors, &model_id)
        .await
        .unwrap();
    let mut summary = outcome.summary;
    summary.embedded = vectors.len();
    summary.model = model_id.clone();
    store::update_summary(pool, &summary).await.unwrap();
    // The clause spans, keyed as `nyaya::ingest::embed_spans` keys them.
    let spans: Vec<String> = nyaya::ingest::quotable_span_texts(pool)
        .await
        .unwrap()
        .into_iter()
        .collect();
    let vectors = vector_cache::vectors_of(&model_id, &spans, embed);
    let keys: Vec<String> = spans
        .iter()
        .map(|s| format!("{}{s}", manifest.passage_prefix))
        .collect();
    store::insert_span_vectors(pool, &model_id, &keys, &vectors)
        .await
        .unwrap();
}

/// The bundled model, loaded once per test binary.
pub fn embedder() -> Option<Arc<dyn nyaya::embed::Embedder>> {
    static E: std::sync::OnceLock<Arc<dyn nyaya::embed::Embedder>> = std::sync::OnceLock::new();
    Some(
        E.get_or_init(|| {
            Arc::new(nyaya::embed::OnnxEmbedder::load(&model_dir(), &ort_lib()).expect("model"))
        })
        .clone(),
    )
}

/// The models a search uses: the bundled embedder, no cross-encoder, and one question bank
/// per test binary (embedding it takes seconds; a server does it once at start-up too).
pub fn models() -> nyaya::search::Models {
    static BANK: std::sync::OnceLock<Arc<nyaya::search::bank::BankCache>> =
        std::sync::OnceLock::new();
    nyaya::search::Models {
        embedder: embedder(),
        cross_encoder: None,
        question_bank: BANK.get_or_init(Default::default).clone(),
        ..Default::default()
    }
}

pub fn app(pool: &PgPool) -> Router {
    app_with_llm(pool, None)
}

/// The API with an LLM client (e.g. pointed at a [`fake_llm::FakeLlm`]).
pub fn app_with_llm(pool: &PgPool, llm: Option<Arc<nyaya::llm::LlmClient>>) -> Router {
    nyaya::http::router(state(pool, models(), config(pool), llm))
}

/// Sends one request through the router; returns the status and the body parsed as JSON.
/// Panics (naming the URI) when the body is not JSON: every response of this API is JSON.
pub async fn call(app: &Router, method: &str, uri: &str) -> (StatusCode, Value) {
    let req = Request::builder()
        .method(method)
        .uri(uri)
        .body(Body::empty())
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let content_type = resp
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let body: Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        panic!(
            "{method} {uri} → {status}: body is not JSON ({e}); content-type {content_type:?}, body {:?}",
            String::from_utf8_lossy(&bytes)
        )
    });
    assert!(
        content_type.starts_with("application/json"),
        "{method} {uri} → {status}: content-type {content_type:?}"
    );
    (status, body)
}

pub async fn get(app: &Router, uri: &str) -> (StatusCode, Value) {
    call(app, "GET", uri).await
}

/// Asserts the API's error shape `{"error": {"code", "message", …}}` and returns the error object.
pub fn expect_error(body: &Value, code: &str) -> Value {
    let err = body
        .get("error")
        .unwrap_or_else(|| panic!("no \"error\" object in {body}"));
    assert_eq!(err["code"], code, "error code in {body}");
    let msg = err["message"].as_str().unwrap_or("");
    assert!(!msg.trim().is_empty(), "empty error message in {body}");
    err.clone()
}

/// Everything that identifies the stored corpus: if two snapshots are equal, nothing changed.
#[derive(Debug, Clone, PartialEq)]
pub struct CorpusSnapshot {
    /// (id, sha256, is_current, has_pdf) of every document row, by id.
    pub documents: Vec<(i64, String, bool, bool)>,
    pub provisions: i64,
    pub clauses: i64,
    pub amendment_notes: i64,
    pub cross_refs: i64,
    /// (min id, max id, count) of chunks: a re-insert would give new ids.
    pub chunk_ids: (Option<i64>, Option<i64>, i64),
    /// The document every provision belongs to.
    pub provision_documents: Vec<i64>,
    /// md5 over every provision's id, status and text, in order.
    pub provisions_md5: Option<String>,
}

pub async fn snapshot(pool: &PgPool) -> CorpusSnapshot {
    let documents = sqlx::query(
        "SELECT id, sha256, is_current, pdf IS NOT NULL AS has_pdf FROM documents ORDER BY id",
    )
    .fetch_all(pool)
    .await
    .unwrap()
    .into_iter()
    .map(|r| {
        (
            r.get("id"),
            r.get("sha256"),
            r.get("is_current"),
            r.get("has_pdf"),
        )
    })
    .collect();
    let count = |table: &'static str| async move {
        sqlx::query_scalar::<_, i64>(&format!("SELECT count(*) FROM {table}"))
            .fetch_one(pool)
            .await
            .unwrap()
    };
    let chunk_ids = sqlx::query("SELECT min(id) AS lo, max(id) AS hi, count(*) AS n FROM chunks")
        .fetch_one(pool)
        .await
        .map(|r| (r.get("lo"), r.get("hi"), r.get("n")))
        .unwrap();
    let provision_documents =
        sqlx::query_scalar("SELECT DISTINCT document_id FROM provisions ORDER BY 1")
            .fetch_all(pool)
            .await
            .unwrap();
    let provisions_md5 = sqlx::query_scalar(
        "SELECT md5(string_agg(ref_id || '|' || status || '|' || text, E'\\n' ORDER BY ordinal))
         FROM provisions",
    )
    .fetch_one(pool)
    .await
    .unwrap();
    CorpusSnapshot {
        documents,
        provisions: count("provisions").await,
        clauses: count("clauses").await,
        amendment_notes: count("amendment_notes").await,
        cross_refs: count("cross_refs").await,
        chunk_ids,
        provision_documents,
        provisions_md5,
    }
}

/// A valid one-page PDF that says "Hello world" in Helvetica, with a correct xref table.
pub fn hello_world_pdf() -> Vec<u8> {
    let content = b"BT /F1 24 Tf 72 720 Td (Hello world) Tj ET\n";
    let objects: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
           /Resources << /Font << /F1 5 0 R >> >> >>"
            .to_vec(),
        [
            format!("<< /Length {} >>\nstream\n", content.len()).into_bytes(),
            content.to_vec(),
            b"endstream".to_vec(),
        ]
        .concat(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
    ];
    let mut pdf = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        pdf.extend_from_slice(body);
        pdf.extend_from_slice(b"\nendobj\n");
    }
    let xref_at = pdf.len();
    pdf.extend_from_slice(format!("xref\n0 {}\n", objects.len() + 1).as_bytes());
    // Each entry is exactly 20 bytes: 10-digit offset, 5-digit generation, type, " \n".
    pdf.extend_from_slice(b"0000000000 65535 f \n");
    for off in offsets {
        pdf.extend_from_slice(format!("{off:010} 00000 n \n").as_bytes());
    }
    pdf.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref_at}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    pdf
}

/// POSTs a raw body (JSON or not) and returns the status and the JSON answer.
pub async fn post_raw(app: &Router, uri: &str, body: &str) -> (StatusCode, Value) {
    let req = Request::builder()
        .method("POST")
        .uri(uri)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let body: Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        panic!(
            "POST {uri} → {status}: not JSON ({e}): {:?}",
            String::from_utf8_lossy(&bytes)
        )
    });
    (status, body)
}

/// A request with headers, raw body; returns status, headers and the body as text.
pub async fn send(
    app: &Router,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (StatusCode, axum::http::HeaderMap, String) {
    let mut req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json");
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let resp = app
        .clone()
        .oneshot(req.body(Body::from(body.to_string())).unwrap())
        .await
        .unwrap();
    let status = resp.status();
    let headers = resp.headers().clone();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        headers,
        String::from_utf8_lossy(&bytes).into_owned(),
    )
}

/// `GET /metrics` as text.
pub async fn metrics_text(app: &Router) -> String {
    let (status, headers, body) = send(app, "GET", "/metrics", &[], "").await;
    assert_eq!(status, StatusCode::OK);
    let ct = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    assert!(ct.starts_with("application/openmetrics-text"), "{ct}");
    body
}

/// The value of one series (`name{labels}` exactly as exposed), if it is there.
pub fn metric(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .and_then(|v| v.trim().parse().ok())
}

/// The events of a server-sent-events body: `(name, data as JSON)` per frame.
pub fn sse_events(body: &str) -> Vec<(String, Value)> {
    body.split("\n\n")
        .filter_map(|frame| {
            let name = frame.lines().find_map(|l| l.strip_prefix("event: "))?;
            let data = frame.lines().find_map(|l| l.strip_prefix("data: "))?;
            Some((name.to_string(), serde_json::from_str(data).unwrap()))
        })
        .collect()
}
