//! The answer pipeline's tables: `llm_calls` (one row per attempt) and `answers` (the audit:
//! no personal data — a scrubbed question, refs, clause offsets and quote hashes), the
//! reconstruction of a stored answer's basis from the corpus, and the retention purge.

use serde::{Deserialize, Serialize};
use sqlx::postgres::PgRow;
use sqlx::{PgPool, Row};

use crate::error::AppResult;
use crate::llm::Attempt;

use super::guard::GuardCounts;
use super::quote;

/// Names this pipeline in every audit row; bump when what an answer is made of changes.
pub const PIPELINE_VERSION: &str = concat!("nyaya-", env!("CARGO_PKG_VERSION"), "/answer-1");

/// Writes one `llm_calls` row per attempt.
pub async fn record_calls(pool: &PgPool, request_id: &str, attempts: &[Attempt]) -> AppResult<()> {
    for a in attempts {
        crate::metrics::global().observe_llm_call(a.purpose.as_str(), a.status.as_str());
        sqlx::query(
            "INSERT INTO llm_calls (request_id, purpose, provider, model, prompt_name, prompt_version,
                                    prompt_sha256, tokens_in, tokens_out, latency_ms, ttft_ms, status, error)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        )
        .bind(request_id)
        .bind(a.purpose.as_str())
        .bind(a.provider)
        .bind(&a.model)
        .bind(a.prompt_name)
        .bind(a.prompt_version)
        .bind(&a.prompt_sha256)
        .bind(a.tokens_in)
        .bind(a.tokens_out)
        .bind(a.latency_ms)
        .bind(a.ttft_ms)
        .bind(a.status.as_str())
        .bind(&a.error)
        .execute(pool)
        .await?;
    }
    Ok(())
}

/// A citation as the audit stores it: where the quote sits in the corpus and its hash.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct CitedSpan {
    pub n: usize,
    #[serde(rename = "ref")]
    pub ref_id: String,
    #[schema(required)]
    pub clause: Option<String>,
    /// Char offsets of the span the quote was cut from, in the provision's text.
    pub start_char: usize,
    pub end_char: usize,
    /// Length of the (normalised) quote: a prefix of the normalised span.
    pub quote_chars: usize,
    pub quote_sha256: String,
}

/// One audit row.
#[derive(Debug, Clone)]
pub struct AnswerRecord<'a> {
    pub request_id: &'a str,
    pub question_scrubbed: &'a str,
    /// An eligibility answer's verdict and criteria (`eligible::audit_record`).
    pub eligibility: Option<serde_json::Value>,
    pub route: &'a str,
    pub mode: &'a str,
    pub refused: bool,
    pub refusal_reason: Option<&'a str>,
    pub degraded: bool,
    pub llm_used: bool,
    pub citations: &'a [CitedSpan],
    pub retrieved: &'a [String],
    pub guards: GuardCounts,
    /// The edition the answer read (`None` when nothing was ingested).
    pub edition: Option<&'a crate::store::Edition>,
}

/// Stores the audit row, with the edition (label, hash and document) the answer read. A
/// request id seen before keeps its first answer.
pub async fn record_answer(pool: &PgPool, r: &AnswerRecord<'_>) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO answers (request_id, question_scrubbed, route, mode, refused, refusal_reason,
                              degraded, llm_used, citations, retrieved_refs, guards,
                              corpus_edition, corpus_sha256, pipeline_version, eligibility,
                              corpus_document_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $14, $15, $12, $13, $16)
         ON CONFLICT (request_id) DO NOTHING",
    )
    .bind(r.request_id)
    .bind(r.question_scrubbed)
    .bind(r.route)
    .bind(r.mode)
    .bind(r.refused)
    .bind(r.refusal_reason)
    .bind(r.degraded)
    .bind(r.llm_used)
    .bind(serde_json::to_value(r.citations).unwrap_or_default())
    .bind(r.retrieved)
    .bind(serde_json::to_value(r.guards).unwrap_or_default())
    .bind(PIPELINE_VERSION)
    .bind(&r.eligibility)
    .bind(r.edition.map(|e| e.label.as_str()).unwrap_or(""))
    .bind(r.edition.map(|e| e.sha256.as_str()).unwrap_or(""))
    .bind(r.edition.map(|e| e.document_id))
    .execute(pool)
    .await?;
    Ok(())
}

/// One citation of a stored answer, rebuilt from the corpus as it is now.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct RebuiltCitation {
    #[serde(flatten)]
    pub stored: CitedSpan,
    /// The quote as the current corpus has it (null when the provision is gone).
    #[schema(required)]
    pub quote: Option<String>,
    #[schema(required)]
    pub title: Option<String>,
    #[schema(required)]
    pub page: Option<i32>,
    /// True when the current text at those offsets hashes to the stored quote hash.
    pub matches: bool,
}

/// What `GET /v1/answers/{request_id}` returns.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Reconstruction {
    pub request_id: String,
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// The question as stored: scrubbed of direct identifiers.
    pub question: String,
    #[schema(value_type = super::router::Route)]
    pub route: String,
    #[schema(value_type = super::AnswerMode)]
    pub mode: String,
    pub refused: bool,
    #[schema(required)]
    pub refusal_reason: Option<String>,
    pub degraded: bool,
    pub llm_used: bool,
    pub retrieved: Vec<String>,
    #[schema(value_type = GuardCounts)]
    pub guards: serde_json::Value,
    pub pipeline_version: String,
    pub corpus: CorpusThenNow,
    pub citations: Vec<RebuiltCitation>,
    /// Every quote still matches the corpus.
    pub all_quotes_match: bool,
    /// Call attempts made for this request.
    #[schema(value_type = Vec<LlmCallRecord>)]
    pub llm_calls: Vec<serde_json::Value>,
    /// An eligibility answer's record: office, verdict, each criterion's status, the facts
    /// asked for and an age band (never the facts stated).
    #[schema(required, value_type = Option<Object>)]
    pub eligibility: Option<serde_json::Value>,
}

/// One LLM call attempt of a stored answer, as `reconstruct` builds it in SQL (this type only
/// documents that shape).
#[derive(utoipa::ToSchema)]
pub struct LlmCallRecord {
    /// router, hyde or answer.
    pub purpose: String,
    /// Which configured endpoint was tried: primary or fallback.
    pub provider: String,
    pub model: String,
    /// Prompt name and version, "answer.v1".
    pub prompt: String,
    /// sha256 of the rendered messages.
    pub prompt_sha256: String,
    /// ok, timeout, http_error, transport_error, bad_response or invalid_output.
    pub status: String,
    pub latency_ms: f64,
    /// Time to the first token of a streamed reply.
    #[schema(required)]
    pub ttft_ms: Option<f64>,
    #[schema(required)]
    pub tokens_in: Option<i32>,
    #[schema(required)]
    pub tokens_out: Option<i32>,
    #[schema(required)]
    pub error: Option<String>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct CorpusThenNow {
    /// The edition the answer read, as printed on its cover.
    pub edition: String,
    /// The edition's date (null for answers recorded before editions were stored apart).
    #[schema(required, value_type = Option<String>, example = "2024-05-01")]
    pub edition_date: Option<chrono::NaiveDate>,
    pub sha256: String,
    /// The sha256 of that edition's document as stored now (null when none is).
    #[schema(required)]
    pub current_sha256: Option<String>,
    /// The document the answer was built from is still the stored one of its edition.
    pub unchanged: bool,
}

/// Rebuilds a stored answer's basis from the edition it read, even after a newer edition was
/// ingested; `None` when no answer has that id (or it was purged). The quotes are read from
/// that edition's live document: the same one unless the edition was re-ingested since.
pub async fn reconstruct(pool: &PgPool, request_id: &str) -> AppResult<Option<Reconstruction>> {
    let Some(row) = answer_row(pool, request_id).await? else {
        return Ok(None);
    };
    let now_id: Option<i64> = row.get("now_id");
    let stored: Vec<CitedSpan> =
        serde_json::from_value(row.get::<serde_json::Value, _>("citations")).unwrap_or_default();
    let citations = rebuild_citations(pool, now_id, stored).await?;
    let calls = llm_calls(pool, request_id).await?;
    Ok(Some(reconstruction(&row, citations, calls)))
}

/// The audit row, with the edition's document then (`edition_date`) and now (`now_id`,
/// `current_sha256`).
async fn answer_row(pool: &PgPool, request_id: &str) -> AppResult<Option<PgRow>> {
    Ok(sqlx::query(
        "SELECT a.*, then_doc.edition_date,
                coalesce(now_doc.id, legacy.id) AS now_id,
                coalesce(now_doc.sha256, legacy.sha256) AS current_sha256
         FROM answers a
         LEFT JOIN documents then_doc ON then_doc.id = a.corpus_document_id
         LEFT JOIN documents now_doc
                ON now_doc.is_current AND now_doc.edition_date = then_doc.edition_date
         -- An answer recorded before editions were stored apart names only its edition label.
         LEFT JOIN LATERAL (SELECT id, sha256 FROM documents
                            WHERE a.corpus_document_id IS NULL AND is_current
                              AND edition = a.corpus_edition
                            ORDER BY edition_date DESC LIMIT 1) legacy ON true
         WHERE a.request_id = $1",
    )
    .bind(request_id)
    .fetch_optional(pool)
    .await?)
}

/// Each stored citation re-read from the document `now_id` (the edition's live one).
async fn rebuild_citations(
    pool: &PgPool,
    now_id: Option<i64>,
    stored: Vec<CitedSpan>,
) -> AppResult<Vec<RebuiltCitation>> {
    let mut citations = Vec::new();
    for c in stored {
        let p: Option<(String, String, i32)> = sqlx::query_as(
            "SELECT text, title, page_start FROM provisions WHERE document_id = $1 AND ref_id = $2",
        )
        .bind(now_id)
        .bind(&c.ref_id)
        .fetch_optional(pool)
        .await?;
        let (quote, title, page, matches) = reread_quote(&c, p);
        citations.push(RebuiltCitation {
            stored: c,
            quote,
            title,
            page,
            matches,
        });
    }
    Ok(citations)
}

/// The quote at a citation's offsets in the provision's current text (its text, title and
/// page), and whether it still hashes to the stored quote hash; all empty when the provision is
/// gone.
fn reread_quote(
    c: &CitedSpan,
    p: Option<(String, String, i32)>,
) -> (Option<String>, Option<String>, Option<i32>, bool) {
    match p {
        Some((text, title, page)) => {
            let span: String = text
                .chars()
                .skip(c.start_char)
                .take(c.end_char.saturating_sub(c.start_char))
                .collect();
            let q: String = quote::normalise(&span)
                .chars()
                .take(c.quote_chars)
                .collect();
            let matches = quote::sha256(&q) == c.quote_sha256;
            (Some(q), Some(title), Some(page), matches)
        }
        None => (None, None, None, false),
    }
}

/// The request's LLM call attempts, in order, in the shape `LlmCallRecord` documents.
async fn llm_calls(pool: &PgPool, request_id: &str) -> AppResult<Vec<serde_json::Value>> {
    let calls: Vec<serde_json::Value> = sqlx::query_scalar(
        "SELECT jsonb_build_object('purpose', purpose, 'provider', provider, 'model', model,
                'prompt', prompt_name || '.v' || prompt_version, 'prompt_sha256', prompt_sha256,
                'status', status, 'latency_ms', latency_ms, 'ttft_ms', ttft_ms,
                'tokens_in', tokens_in, 'tokens_out', tokens_out, 'error', error)
         FROM llm_calls WHERE request_id = $1 ORDER BY id",
    )
    .bind(request_id)
    .fetch_all(pool)
    .await?;
    Ok(calls)
}

/// The stored row, its rebuilt citations and its calls, as `GET /v1/answers/{request_id}`
/// returns them.
fn reconstruction(
    row: &PgRow,
    citations: Vec<RebuiltCitation>,
    calls: Vec<serde_json::Value>,
) -> Reconstruction {
    let sha: String = row.get("corpus_sha256");
    let current: Option<String> = row.get("current_sha256");
    Reconstruction {
        request_id: row.get("request_id"),
        created_at: row.get("created_at"),
        question: row.get("question_scrubbed"),
        route: row.get("route"),
        mode: row.get("mode"),
        refused: row.get("refused"),
        refusal_reason: row.get("refusal_reason"),
        degraded: row.get("degraded"),
        llm_used: row.get("llm_used"),
        retrieved: row.get("retrieved_refs"),
        guards: row.get("guards"),
        eligibility: row.get("eligibility"),
        pipeline_version: row.get("pipeline_version"),
        all_quotes_match: citations.iter().all(|c| c.matches),
        citations,
        corpus: CorpusThenNow {
            edition: row.get("corpus_edition"),
            edition_date: row.get("edition_date"),
            unchanged: current.as_deref() == Some(sha.as_str()),
            sha256: sha,
            current_sha256: current,
        },
        llm_calls: calls,
    }
}

/// What a purge removed.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Purged {
    pub answers: u64,
    pub llm_calls: u64,
}

/// Deletes audit rows and LLM call rows older than `days` days.
pub async fn purge(pool: &PgPool, days: u32) -> AppResult<Purged> {
    let mut tx = pool.begin().await?;
    let cutoff = format!("{days} days");
    let answers = sqlx::query("DELETE FROM answers WHERE created_at < now() - $1::interval")
        .bind(&cutoff)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    let llm_calls = sqlx::query("DELETE FROM llm_calls WHERE created_at < now() - $1::interval")
        .bind(&cutoff)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    tx.commit().await?;
    Ok(Purged { answers, llm_calls })
}
