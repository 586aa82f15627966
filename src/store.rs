//! Everything the service reads from and writes to Postgres. SQL lives here and nowhere else.

use serde::{Deserialize, Serialize};
use sqlx::{PgPool, Postgres, QueryBuilder, Row, Transaction};

use nyaya_ingest::amendment::AmendmentKind;
use nyaya_ingest::xref::{CrossRef, XrefTarget};
use nyaya_ingest::{AmendmentLink, Chunk, Clause, ParsedDocument, Provision, RefId};

use crate::error::{AppError, AppResult};

/// What an ingest did; also what `nyaya ingest --json` prints.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct IngestSummary {
    pub edition: String,
    pub sha256: String,
    pub parser_version: String,
    pub pages: u32,
    pub provisions: usize,
    pub articles: usize,
    pub schedules: usize,
    pub appendices: usize,
    pub chunks: usize,
    pub amendment_notes: usize,
    pub cross_refs: usize,
    /// Chunks embedded by this run (0 when nothing needed it).
    #[serde(default)]
    pub embedded: usize,
    /// The embedding model's id, stored with every vector.
    #[serde(default)]
    pub model: String,
    pub missing: Vec<String>,
    pub duplicates: Vec<String>,
    pub changed: bool,
    pub seconds: f64,
}

/// The stored summary of an edition's live document if it came from this file and parser
/// version (a file's hash names its edition).
pub async fn current_if_same(
    pool: &PgPool,
    sha256: &str,
    parser_version: &str,
) -> AppResult<Option<IngestSummary>> {
    let row = sqlx::query(
        "SELECT summary FROM documents WHERE is_current AND sha256 = $1 AND parser_version = $2",
    )
    .bind(sha256)
    .bind(parser_version)
    .fetch_optional(pool)
    .await?;
    Ok(row.and_then(|r| serde_json::from_value(r.get::<serde_json::Value, _>("summary")).ok()))
}

/// Everything one ingest stores.
pub struct NewCorpus<'a> {
    pub doc: &'a ParsedDocument,
    pub chunks: &'a [Chunk],
    /// One vector per chunk, in order.
    pub vectors: &'a [Vec<f32>],
    pub model_id: &'a str,
    pub summary: &'a IngestSummary,
    pub source_name: &'a str,
    pub pdf: &'a [u8],
    /// The edition's date ("2024-05-01"): the key an edition is stored under.
    pub edition_date: chrono::NaiveDate,
}

/// A session-level advisory lock, so that replicas started together on an empty database do
/// the start-up work once: [`StartupLock::CORPUS`] is held while a server checks for, and if need
/// be ingests, the corpus (the ingest transaction's own lock only keeps two ingests from both
/// storing; this one keeps the second from parsing and embedding at all);
/// [`StartupLock::SPANS`] while one embeds the clause spans after it started serving, and
/// [`StartupLock::MULTILINGUAL`] while one embeds the chunks with the multilingual model.
pub struct StartupLock {
    conn: sqlx::pool::PoolConnection<Postgres>,
    key: i64,
}

impl StartupLock {
    pub const CORPUS: i64 = 7262432;
    pub const SPANS: i64 = 7262433;
    pub const MULTILINGUAL: i64 = 7262434;

    pub async fn acquire(pool: &PgPool, key: i64) -> AppResult<StartupLock> {
        let mut conn = pool.acquire().await?;
        sqlx::query("SELECT pg_advisory_lock($1)")
            .bind(key)
            .execute(&mut *conn)
            .await?;
        Ok(StartupLock { conn, key })
    }

    pub async fn release(mut self) -> AppResult<()> {
        sqlx::query("SELECT pg_advisory_unlock($1)")
            .bind(self.key)
            .execute(&mut *self.conn)
            .await?;
        Ok(())
    }
}

/// Replaces one edition's corpus (the rows of its previous document, if any) in one
/// transaction; other editions are untouched. Readers see the old rows until commit.
/// Returns false (and writes nothing) when a concurrent ingest already stored this file.
pub async fn replace_corpus(pool: &PgPool, new: &NewCorpus<'_>) -> AppResult<bool> {
    let summary = new.summary;
    let mut tx = pool.begin().await?;
    // One ingest at a time; the loser of a race sees the winner's row and stops.
    sqlx::query("SELECT pg_advisory_xact_lock(7262431)")
        .execute(&mut *tx)
        .await?;
    let same: Option<i64> = sqlx::query_scalar(
        "SELECT id FROM documents WHERE is_current AND sha256 = $1 AND parser_version = $2",
    )
    .bind(&summary.sha256)
    .bind(&summary.parser_version)
    .fetch_optional(&mut *tx)
    .await?;
    if same.is_some() {
        tx.rollback().await?;
        return Ok(false);
    }
    sqlx::query(
        "DELETE FROM provisions WHERE document_id IN
             (SELECT id FROM documents WHERE is_current AND edition_date = $1)",
    )
    .bind(new.edition_date)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "UPDATE documents SET is_current = false, pdf = NULL WHERE is_current AND edition_date = $1",
    )
    .bind(new.edition_date)
    .execute(&mut *tx)
    .await?;
    let document_id: i64 = sqlx::query_scalar(
        "INSERT INTO documents (edition, sha256, parser_version, source_name, pages, summary, pdf,
                                is_current, edition_date)
         VALUES ($1, $2, $3, $4, $5, $6, $7, true, $8) RETURNING id",
    )
    .bind(&new.doc.edition)
    .bind(&summary.sha256)
    .bind(&summary.parser_version)
    .bind(new.source_name)
    .bind(summary.pages as i32)
    .bind(serde_json::to_value(summary).unwrap_or_default())
    .bind(new.pdf)
    .bind(new.edition_date)
    .fetch_one(&mut *tx)
    .await?;

    insert_provisions(&mut tx, document_id, &new.doc.provisions).await?;
    insert_chunks(&mut tx, document_id, new.chunks, new.vectors, new.model_id).await?;
    if let Some(dim) = new.vectors.first().map(Vec::len) {
        ensure_vector_index(&mut tx, dim).await?;
    }
    // In dependency order: the lexicon counts chunk_terms.
    for view in ["chunk_terms", "chunk_lexicon", "chunk_stats"] {
        sqlx::query(&format!("REFRESH MATERIALIZED VIEW {view}"))
            .execute(&mut *tx)
            .await?;
        // Fresh statistics keep the BM25 query on the lexeme index.
        sqlx::query(&format!("ANALYZE {view}"))
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(true)
}

/// An HNSW (cosine) index over vectors of one dimension. The column is untyped so that any
/// model fits; the index is on the cast, and the dense query uses the same cast.
async fn ensure_vector_index(tx: &mut Transaction<'_, Postgres>, dim: usize) -> AppResult<()> {
    let sql = format!(
        "CREATE INDEX IF NOT EXISTS chunks_embedding_hnsw_{dim} ON chunks \
         USING hnsw ((embedding::vector({dim})) vector_cosine_ops) WHERE vector_dims(embedding) = {dim}"
    );
    sqlx::query(&sql).execute(&mut **tx).await?;
    Ok(())
}

/// How many stored chunks lack a vector from `model_id`.
pub async fn chunks_not_embedded_by(pool: &PgPool, model_id: &str) -> AppResult<i64> {
    Ok(sqlx::query_scalar(
        "SELECT count(*) FROM chunks WHERE embedding IS NULL OR embedding_model IS DISTINCT FROM $1",
    )
    .bind(model_id)
    .fetch_one(pool)
    .await?)
}

/// (id, heading, text) of the chunks without a vector from `model_id`, for (re-)embedding.
pub async fn chunk_texts_not_embedded_by(
    pool: &PgPool,
    model_id: &str,
) -> AppResult<Vec<(i64, String, String)>> {
    Ok(sqlx::query_as(
        "SELECT id, heading, text FROM chunks
         WHERE embedding IS NULL OR embedding_model IS DISTINCT FROM $1 ORDER BY id",
    )
    .bind(model_id)
    .fetch_all(pool)
    .await?)
}

/// Swaps in vectors from another model, in one transaction.
pub async fn replace_vectors(
    pool: &PgPool,
    ids: &[i64],
    vectors: &[Vec<f32>],
    model_id: &str,
) -> AppResult<()> {
    let mut tx = pool.begin().await?;
    let texts: Vec<String> = vectors
        .iter()
        .map(|v| crate::embed::to_pgvector(v))
        .collect();
    sqlx::query(
        "UPDATE chunks c SET embedding = v.e::vector, embedding_model = $3
         FROM unnest($1::bigint[], $2::text[]) AS v(id, e) WHERE c.id = v.id",
    )
    .bind(ids)
    .bind(&texts)
    .bind(model_id)
    .execute(&mut *tx)
    .await?;
    if let Some(dim) = vectors.first().map(Vec::len) {
        ensure_vector_index(&mut tx, dim).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// The texts that already have a stored span vector from `model_id`.
pub async fn span_texts_embedded_by(
    pool: &PgPool,
    model_id: &str,
) -> AppResult<std::collections::HashSet<String>> {
    Ok(
        sqlx::query_scalar("SELECT text FROM span_vectors WHERE model_id = $1")
            .bind(model_id)
            .fetch_all(pool)
            .await?
            .into_iter()
            .collect(),
    )
}

/// Stores span vectors (one transaction; texts already stored are left as they are).
pub async fn insert_span_vectors(
    pool: &PgPool,
    model_id: &str,
    texts: &[String],
    vectors: &[Vec<f32>],
) -> AppResult<()> {
    insert_keyed_vectors(
        pool,
        &insert_by_text("span_vectors"),
        model_id,
        texts,
        vectors,
    )
    .await
}

/// The insert of a table keyed by model and exact text (`span_vectors`, `bank_vectors`), for
/// [`insert_keyed_vectors`]: a text already stored is left as it is.
fn insert_by_text(table: &str) -> String {
    format!(
        "INSERT INTO {table} (model_id, text, embedding)
         SELECT $1, t, ($3::real[])[(i - 1) * $4 + 1 : i * $4]
         FROM unnest($2::text[]) WITH ORDINALITY AS u(t, i)
         ON CONFLICT (model_id, md5(text)) DO NOTHING"
    )
}

/// The stored question-bank vectors of `model_id` for `texts` (the texts as embedded), by
/// text; texts not stored are absent.
pub async fn bank_vectors(
    pool: &PgPool,
    model_id: &str,
    texts: &[String],
) -> AppResult<Vec<(String, Vec<f32>)>> {
    Ok(sqlx::query_as(
        "SELECT text, embedding FROM bank_vectors
         WHERE model_id = $1 AND md5(text) = ANY(SELECT md5(t) FROM unnest($2::text[]) AS t)",
    )
    .bind(model_id)
    .bind(texts)
    .fetch_all(pool)
    .await?)
}

/// Stores question-bank vectors (one transaction; texts already stored are left as they are).
pub async fn insert_bank_vectors(
    pool: &PgPool,
    model_id: &str,
    texts: &[String],
    vectors: &[Vec<f32>],
) -> AppResult<()> {
    insert_keyed_vectors(
        pool,
        &insert_by_text("bank_vectors"),
        model_id,
        texts,
        vectors,
    )
    .await
}

/// Runs `sql` (binding the model `$1`, a batch of keys `$2`, their vectors as one flat array
/// `$3` and the dimension `$4`) over `keys` and `vectors` in batches, in one transaction.
async fn insert_keyed_vectors(
    pool: &PgPool,
    sql: &str,
    model_id: &str,
    keys: &[String],
    vectors: &[Vec<f32>],
) -> AppResult<()> {
    let Some(dim) = vectors.first().map(Vec::len) else {
        return Ok(());
    };
    // One flat array, sliced per row in SQL: sqlx binds no 2-D arrays.
    let flat: Vec<f32> = vectors.iter().flatten().copied().collect();
    let mut tx = pool.begin().await?;
    for (keys, flat) in keys.chunks(BATCH).zip(flat.chunks(BATCH * dim)) {
        sqlx::query(sql)
            .bind(model_id)
            .bind(keys)
            .bind(flat)
            .bind(dim as i32)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// The distinct chunk texts (heading, newline, text: what `text_md5` hashes), over every
/// stored edition, that have no vector from the multilingual model `model_id`, keyed by that
/// hash.
pub async fn chunk_texts_without_multilingual(
    pool: &PgPool,
    model_id: &str,
) -> AppResult<Vec<(String, String)>> {
    Ok(sqlx::query_as(
        "SELECT DISTINCT ON (c.text_md5) c.text_md5, c.heading || E'\n' || c.text
         FROM chunks c
         WHERE NOT EXISTS (SELECT 1 FROM chunk_text_vectors v
                           WHERE v.model_id = $1 AND v.text_md5 = c.text_md5)
         ORDER BY c.text_md5",
    )
    .bind(model_id)
    .fetch_all(pool)
    .await?)
}

/// How many of the edition's chunks have a vector from the multilingual model `model_id`,
/// of how many chunks it has.
pub async fn multilingual_coverage(
    pool: &PgPool,
    document_id: i64,
    model_id: &str,
) -> AppResult<(i64, i64)> {
    Ok(sqlx::query_as(
        "SELECT count(v.text_md5), count(*) FROM chunks c
         LEFT JOIN chunk_text_vectors v ON v.model_id = $2 AND v.text_md5 = c.text_md5
         WHERE c.document_id = $1",
    )
    .bind(document_id)
    .bind(model_id)
    .fetch_one(pool)
    .await?)
}

/// Stores multilingual vectors by chunk-text hash; one already stored is kept.
pub async fn insert_multilingual_vectors(
    pool: &PgPool,
    model_id: &str,
    hashes: &[String],
    vectors: &[Vec<f32>],
) -> AppResult<()> {
    insert_keyed_vectors(
        pool,
        "INSERT INTO chunk_text_vectors (model_id, text_md5, embedding)
         SELECT $1, h, (($3::real[])[(i - 1) * $4 + 1 : i * $4])::vector
         FROM unnest($2::text[]) WITH ORDINALITY AS u(h, i)
         ON CONFLICT (model_id, text_md5) DO NOTHING",
        model_id,
        hashes,
        vectors,
    )
    .await
}

/// Every stored span vector of `model_id`, by text.
pub async fn span_vectors(pool: &PgPool, model_id: &str) -> AppResult<Vec<(String, Vec<f32>)>> {
    Ok(
        sqlx::query_as("SELECT text, embedding FROM span_vectors WHERE model_id = $1")
            .bind(model_id)
            .fetch_all(pool)
            .await?,
    )
}

/// Rewrites a live document's stored summary (after a re-embed).
pub async fn update_summary(pool: &PgPool, summary: &IngestSummary) -> AppResult<()> {
    sqlx::query("UPDATE documents SET summary = $1 WHERE is_current AND sha256 = $2")
        .bind(serde_json::to_value(summary).unwrap_or_default())
        .bind(&summary.sha256)
        .execute(pool)
        .await?;
    Ok(())
}

const BATCH: usize = 500;

/// A document's provisions, then their clauses, amendment notes and cross-references, each in
/// batches of [`BATCH`] rows.
async fn insert_provisions(
    tx: &mut Transaction<'_, Postgres>,
    document_id: i64,
    provisions: &[Provision],
) -> AppResult<()> {
    insert_provision_rows(tx, document_id, provisions).await?;
    insert_clauses(tx, document_id, &numbered(provisions, |p| &p.clauses)).await?;
    insert_amendment_notes(tx, document_id, &numbered(provisions, |p| &p.amendments)).await?;
    insert_cross_refs(tx, document_id, &numbered(provisions, |p| &p.cross_refs)).await?;
    Ok(())
}

/// One of a provision's clauses, amendment notes or cross-references, with its place among
/// them (`seq`, from 0).
struct Numbered<'a, T> {
    provision: &'a Provision,
    seq: usize,
    item: &'a T,
}

/// Every provision's `items`, provision by provision, each numbered within its provision.
fn numbered<'a, T>(
    provisions: &'a [Provision],
    items: impl Fn(&'a Provision) -> &'a Vec<T>,
) -> Vec<Numbered<'a, T>> {
    provisions
        .iter()
        .flat_map(|provision| {
            items(provision)
                .iter()
                .enumerate()
                .map(move |(seq, item)| Numbered {
                    provision,
                    seq,
                    item,
                })
        })
        .collect()
}

/// The provisions themselves, numbered (`ordinal`) in document order.
async fn insert_provision_rows(
    tx: &mut Transaction<'_, Postgres>,
    document_id: i64,
    provisions: &[Provision],
) -> AppResult<()> {
    for (batch_no, batch) in provisions.chunks(BATCH).enumerate() {
        let mut qb = QueryBuilder::new(
            "INSERT INTO provisions (ref_id, document_id, ordinal, kind, number, title, part_number, part_title, \
             chapter, subheading, status, page_start, page_end, heading_line, text) ",
        );
        qb.push_values(batch.iter().enumerate(), |mut b, (i, p)| {
            b.push_bind(p.id.as_str())
                .push_bind(document_id)
                .push_bind((batch_no * BATCH + i) as i32)
                .push_bind(p.kind.to_string())
                .push_bind(&p.number)
                .push_bind(&p.title)
                .push_bind(p.part.as_ref().map(|x| x.number.clone()))
                .push_bind(p.part.as_ref().map(|x| x.title.clone()))
                .push_bind(&p.chapter)
                .push_bind(&p.subheading)
                .push_bind(p.status.as_str())
                .push_bind(p.page_start as i32)
                .push_bind(p.page_end as i32)
                .push_bind(p.heading_line())
                .push_bind(&p.text);
        });
        qb.build().execute(&mut **tx).await?;
    }
    Ok(())
}

async fn insert_clauses(
    tx: &mut Transaction<'_, Postgres>,
    document_id: i64,
    clauses: &[Numbered<'_, Clause>],
) -> AppResult<()> {
    for batch in clauses.chunks(BATCH) {
        let mut qb = QueryBuilder::new(
            "INSERT INTO clauses (document_id, ref_id, seq, label, kind, start_char, end_char) ",
        );
        qb.push_values(batch, |mut b, n| {
            let c = n.item;
            b.push_bind(document_id)
                .push_bind(n.provision.id.as_str())
                .push_bind(n.seq as i32)
                .push_bind(&c.label)
                .push_bind(c.kind.as_str())
                .push_bind(c.start as i32)
                .push_bind(c.end as i32);
        });
        qb.build().execute(&mut **tx).await?;
    }
    Ok(())
}

async fn insert_amendment_notes(
    tx: &mut Transaction<'_, Postgres>,
    document_id: i64,
    notes: &[Numbered<'_, AmendmentLink>],
) -> AppResult<()> {
    for batch in notes.chunks(BATCH) {
        let mut qb = QueryBuilder::new(
            "INSERT INTO amendment_notes (document_id, ref_id, seq, marker, kind, instrument, amendment_number, section, \
             effective_from, effective_text, clause_label, start_char, end_char, page, raw) ",
        );
        qb.push_values(batch, |mut b, link| {
            let (a, n) = (link.item, &link.item.note);
            b.push_bind(document_id)
                .push_bind(link.provision.id.as_str())
                .push_bind(link.seq as i32)
                .push_bind(n.marker.map(|m| m as i32))
                .push_bind(amendment_kind_name(n.kind))
                .push_bind(&n.instrument)
                .push_bind(n.amendment_number.map(|m| m as i32))
                .push_bind(&n.section)
                .push_bind(effective_date(n.effective_from.as_deref()))
                .push_bind(&n.effective_text)
                .push_bind(&a.clause)
                .push_bind(a.start.map(|s| s as i32))
                .push_bind(a.end.map(|s| s as i32))
                .push_bind(a.page as i32)
                .push_bind(&n.raw);
        });
        qb.build().execute(&mut **tx).await?;
    }
    Ok(())
}

/// An amendment's kind as stored: its serde name ("" if it has none).
fn amendment_kind_name(kind: AmendmentKind) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default()
}

/// A note's "effective from" date, when it is one (YYYY-MM-DD).
fn effective_date(effective_from: Option<&str>) -> Option<chrono::NaiveDate> {
    effective_from.and_then(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
}

async fn insert_cross_refs(
    tx: &mut Transaction<'_, Postgres>,
    document_id: i64,
    xrefs: &[Numbered<'_, CrossRef>],
) -> AppResult<()> {
    for batch in xrefs.chunks(BATCH) {
        let mut qb = QueryBuilder::new(
            "INSERT INTO cross_refs (document_id, from_ref, seq, to_ref, to_part, clause, surface) ",
        );
        qb.push_values(batch, |mut b, n| {
            let x = n.item;
            let (to_ref, to_part) = xref_target(&x.target);
            b.push_bind(document_id)
                .push_bind(n.provision.id.as_str())
                .push_bind(n.seq as i32)
                .push_bind(to_ref)
                .push_bind(to_part)
                .push_bind(&x.clause)
                .push_bind(&x.surface);
        });
        qb.build().execute(&mut **tx).await?;
    }
    Ok(())
}

/// A cross-reference's target as stored: `(to_ref, to_part)`, exactly one of them set.
fn xref_target(target: &XrefTarget) -> (Option<String>, Option<String>) {
    match target {
        XrefTarget::Provision(r) => (Some(r.as_str().to_string()), None),
        XrefTarget::Part(part) => (None, Some(part.clone())),
    }
}

async fn insert_chunks(
    tx: &mut Transaction<'_, Postgres>,
    document_id: i64,
    chunks: &[Chunk],
    vectors: &[Vec<f32>],
    model_id: &str,
) -> AppResult<()> {
    let rows: Vec<(&Chunk, Option<String>)> = chunks
        .iter()
        .enumerate()
        .map(|(i, c)| (c, vectors.get(i).map(|v| crate::embed::to_pgvector(v))))
        .collect();
    for batch in rows.chunks(BATCH) {
        let mut qb = QueryBuilder::new(
            "INSERT INTO chunks (document_id, ref_id, seq, clause_labels, start_char, end_char, heading, text, tokens, \
             embedding, embedding_model) ",
        );
        qb.push_values(batch, |mut b, (c, vector)| {
            b.push_bind(document_id)
                .push_bind(c.provision.as_str())
                .push_bind(c.seq as i32)
                .push_bind(&c.clause_labels)
                .push_bind(c.start as i32)
                .push_bind(c.end as i32)
                .push_bind(&c.heading)
                .push_bind(&c.text)
                .push_bind(c.tokens as i32)
                .push_bind(vector.clone())
                .push_unseparated("::vector")
                .push_bind(vector.as_ref().map(|_| model_id.to_string()));
        });
        qb.build().execute(&mut **tx).await?;
    }
    Ok(())
}

// ------------------------------------------------------------------------------------------
// Reads

/// One stored edition: the live document of an edition date. Every corpus read below takes
/// the `document_id` of the edition it reads ([`resolve_edition`] picks it).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Edition {
    #[serde(skip)]
    pub document_id: i64,
    /// As printed on the cover: "As on 1st May, 2024".
    pub label: String,
    /// The edition's date, "2024-05-01": what `?edition=` names.
    #[schema(value_type = String, example = "2024-05-01")]
    pub date: chrono::NaiveDate,
    pub sha256: String,
}

/// The stored editions, newest first.
pub async fn editions(pool: &PgPool) -> AppResult<Vec<Edition>> {
    let rows: Vec<(i64, String, chrono::NaiveDate, String)> = sqlx::query_as(
        "SELECT id, edition, edition_date, sha256 FROM documents
         WHERE is_current ORDER BY edition_date DESC",
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(document_id, label, date, sha256)| Edition {
            document_id,
            label,
            date,
            sha256,
        })
        .collect())
}

/// The edition a request reads: the one `selector` names ("2022", "2022-05", "2022-05-01"),
/// or the newest stored when it names none. A selector that matches no stored edition, or
/// more than one, is an [`AppError::UnknownEdition`] (404) listing the stored dates.
pub async fn resolve_edition(pool: &PgPool, selector: Option<&str>) -> AppResult<Edition> {
    let stored = editions(pool).await?;
    pick_edition(&stored, selector)
}

/// [`resolve_edition`]'s choice among `stored` (newest first); pure.
pub fn pick_edition(stored: &[Edition], selector: Option<&str>) -> AppResult<Edition> {
    let Some(newest) = stored.first() else {
        return Err(AppError::NoCorpus);
    };
    let Some(selector) = selector.map(str::trim).filter(|s| !s.is_empty()) else {
        return Ok(newest.clone());
    };
    let well_formed = {
        let parts: Vec<&str> = selector.split('-').collect();
        let widths = [4, 2, 2];
        parts.len() <= 3
            && parts
                .iter()
                .zip(widths)
                .all(|(p, w)| p.len() == w && p.bytes().all(|b| b.is_ascii_digit()))
    };
    let matching: Vec<&Edition> = stored
        .iter()
        .filter(|e| well_formed && e.date.format("%Y-%m-%d").to_string().starts_with(selector))
        .collect();
    match matching.as_slice() {
        [one] => Ok((*one).clone()),
        _ => Err(AppError::UnknownEdition {
            selector: selector.to_string(),
            available: stored.iter().map(|e| e.date.to_string()).collect(),
        }),
    }
}

/// What `/readyz` reports: the default edition, and every stored one.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct CorpusInfo {
    /// The default edition's label.
    pub edition: String,
    pub sha256: String,
    pub parser_version: String,
    /// The default edition's provisions.
    pub provisions: i64,
    /// Every stored edition, newest first.
    pub editions: Vec<Edition>,
}

/// The corpus as `/readyz` reports it: `None` when no edition is stored. `default` selects the
/// default edition as `?edition=` would (the newest when `None`).
pub async fn corpus_info(pool: &PgPool, default: Option<&str>) -> AppResult<Option<CorpusInfo>> {
    let editions = editions(pool).await?;
    if editions.is_empty() {
        return Ok(None);
    }
    let chosen = pick_edition(&editions, default)?;
    let (parser_version, provisions): (String, i64) = sqlx::query_as(
        "SELECT d.parser_version, (SELECT count(*) FROM provisions p WHERE p.document_id = d.id)
         FROM documents d WHERE d.id = $1",
    )
    .bind(chosen.document_id)
    .fetch_one(pool)
    .await?;
    Ok(Some(CorpusInfo {
        edition: chosen.label,
        sha256: chosen.sha256,
        parser_version,
        provisions,
        editions,
    }))
}

/// The bytes of the PDF an edition came from.
pub struct StoredPdf {
    pub source_name: String,
    pub sha256: String,
    pub bytes: Vec<u8>,
}

pub async fn edition_pdf(pool: &PgPool, document_id: i64) -> AppResult<Option<StoredPdf>> {
    let row = sqlx::query(
        "SELECT source_name, sha256, pdf FROM documents WHERE id = $1 AND pdf IS NOT NULL",
    )
    .bind(document_id)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|r| StoredPdf {
        source_name: r.get("source_name"),
        sha256: r.get("sha256"),
        bytes: r.get("pdf"),
    }))
}

#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct PartView {
    pub number: String,
    pub title: String,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ClauseView {
    pub label: String,
    pub kind: String,
    pub start: i32,
    pub end: i32,
    pub text: String,
}

#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct AmendmentView {
    pub kind: String,
    #[schema(required)]
    pub instrument: Option<String>,
    #[schema(required)]
    pub amendment_number: Option<i32>,
    #[schema(required)]
    pub section: Option<String>,
    /// "YYYY-MM-DD".
    #[schema(required)]
    pub effective_from: Option<chrono::NaiveDate>,
    #[schema(required)]
    pub effective_text: Option<String>,
    #[schema(required)]
    pub clause: Option<String>,
    #[schema(required)]
    pub marker: Option<i32>,
    pub page: i32,
    pub raw: String,
}

#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct OutgoingRef {
    #[schema(required)]
    pub to: Option<String>,
    #[schema(required)]
    pub to_part: Option<String>,
    #[schema(required)]
    pub clause: Option<String>,
    pub surface: String,
}

#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct IncomingRef {
    pub from: String,
    pub title: String,
    #[schema(required)]
    pub clause: Option<String>,
    pub surface: String,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct CrossRefsView {
    pub outgoing: Vec<OutgoingRef>,
    pub incoming: Vec<IncomingRef>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Pages {
    pub start: i32,
    pub end: i32,
}

/// A provision with everything known about it: what `GET /v1/provisions/{ref}` returns.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ProvisionView {
    #[serde(rename = "ref")]
    pub ref_id: String,
    pub kind: String,
    pub number: String,
    pub title: String,
    pub heading: String,
    #[schema(required)]
    pub part: Option<PartView>,
    #[schema(required)]
    pub chapter: Option<String>,
    #[schema(required)]
    pub subheading: Option<String>,
    pub status: String,
    pub pages: Pages,
    /// The edition's label, as printed on its cover.
    pub edition: String,
    /// The edition's date ("2024-05-01").
    #[schema(value_type = String, example = "2024-05-01")]
    pub edition_date: chrono::NaiveDate,
    pub text: String,
    pub clauses: Vec<ClauseView>,
    pub amendments: Vec<AmendmentView>,
    pub cross_refs: CrossRefsView,
}

/// A clause row as a view, its text sliced from the provision's chars.
fn clause_view(chars: &[char], c: &sqlx::postgres::PgRow) -> ClauseView {
    let (s, e): (i32, i32) = (c.get("start_char"), c.get("end_char"));
    let text = chars
        .get(s.max(0) as usize..(e.max(s) as usize).min(chars.len()))
        .map(|x| x.iter().collect())
        .unwrap_or_default();
    ClauseView {
        label: c.get("label"),
        kind: c.get("kind"),
        start: s,
        end: e,
        text,
    }
}

/// Every provision's text with its clauses, of every stored edition, in two queries (what
/// ingest reads to embed the quotable spans).
pub async fn texts_and_clauses(pool: &PgPool) -> AppResult<Vec<(String, Vec<ClauseView>)>> {
    let provisions: Vec<(i64, String, String)> = sqlx::query_as(
        "SELECT document_id, ref_id, text FROM provisions ORDER BY document_id, ordinal",
    )
    .fetch_all(pool)
    .await?;
    let rows = sqlx::query(
        "SELECT document_id, ref_id, label, kind, start_char, end_char FROM clauses
         ORDER BY document_id, ref_id, seq",
    )
    .fetch_all(pool)
    .await?;
    let mut by_ref: std::collections::HashMap<(i64, String), Vec<sqlx::postgres::PgRow>> =
        std::collections::HashMap::new();
    for r in rows {
        by_ref
            .entry((r.get("document_id"), r.get("ref_id")))
            .or_default()
            .push(r);
    }
    Ok(provisions
        .into_iter()
        .map(|(document_id, ref_id, text)| {
            let chars: Vec<char> = text.chars().collect();
            let clauses = by_ref
                .get(&(document_id, ref_id))
                .map(|rows| rows.iter().map(|c| clause_view(&chars, c)).collect())
                .unwrap_or_default();
            (text, clauses)
        })
        .collect())
}

/// A provision of the edition stored as `document_id`: its own row, then what the clauses,
/// amendment_notes and cross_refs tables hold of it.
pub async fn get_provision(
    pool: &PgPool,
    document_id: i64,
    id: &RefId,
) -> AppResult<Option<ProvisionView>> {
    let Some(row) = provision_row(pool, document_id, id).await? else {
        return Ok(None);
    };
    let clauses = clauses_of(pool, document_id, id, &row.text).await?;
    let amendments = amendment_notes_of(pool, document_id, id).await?;
    let cross_refs = cross_refs_of(pool, document_id, id).await?;
    Ok(Some(row.into_view(clauses, amendments, cross_refs)))
}

/// What a provision's own row says, with its edition's label and date: a [`ProvisionView`]
/// without what the other tables hold.
struct ProvisionRow {
    ref_id: String,
    kind: String,
    number: String,
    title: String,
    heading: String,
    part: Option<PartView>,
    chapter: Option<String>,
    subheading: Option<String>,
    status: String,
    pages: Pages,
    edition: String,
    edition_date: chrono::NaiveDate,
    text: String,
}

/// The provision's row joined to its document; `None` when the edition has no such provision.
async fn provision_row(
    pool: &PgPool,
    document_id: i64,
    id: &RefId,
) -> AppResult<Option<ProvisionRow>> {
    let row = sqlx::query(
        "SELECT p.ref_id, p.kind, p.number, p.title, p.heading_line, p.part_number, p.part_title, p.chapter,
                p.subheading, p.status, p.page_start, p.page_end, p.text, d.edition, d.edition_date
         FROM provisions p JOIN documents d ON d.id = p.document_id
         WHERE p.document_id = $1 AND p.ref_id = $2",
    )
    .bind(document_id)
    .bind(id.as_str())
    .fetch_optional(pool)
    .await?;
    Ok(row.as_ref().map(ProvisionRow::from_row))
}

impl ProvisionRow {
    /// Reads the columns [`provision_row`] selects. `Row::get`, as in [`clause_view`]: the
    /// schema is ours, so a column of another type is a bug, not an input to report.
    fn from_row(r: &sqlx::postgres::PgRow) -> ProvisionRow {
        ProvisionRow {
            ref_id: r.get("ref_id"),
            kind: r.get("kind"),
            number: r.get("number"),
            title: r.get("title"),
            heading: r.get("heading_line"),
            part: part_view(r.get("part_number"), r.get("part_title")),
            chapter: r.get("chapter"),
            subheading: r.get("subheading"),
            status: r.get("status"),
            pages: Pages {
                start: r.get("page_start"),
                end: r.get("page_end"),
            },
            edition: r.get("edition"),
            edition_date: r.get("edition_date"),
            text: r.get("text"),
        }
    }

    /// The whole view: this row with the provision's clauses, notes and cross-references.
    fn into_view(
        self,
        clauses: Vec<ClauseView>,
        amendments: Vec<AmendmentView>,
        cross_refs: CrossRefsView,
    ) -> ProvisionView {
        ProvisionView {
            ref_id: self.ref_id,
            kind: self.kind,
            number: self.number,
            title: self.title,
            heading: self.heading,
            part: self.part,
            chapter: self.chapter,
            subheading: self.subheading,
            status: self.status,
            pages: self.pages,
            edition: self.edition,
            edition_date: self.edition_date,
            text: self.text,
            clauses,
            amendments,
            cross_refs,
        }
    }
}

/// The Part a provision sits in: none when its row has no Part number; a Part stored
/// without a title gets an empty one, so that `part` is either absent or whole.
fn part_view(number: Option<String>, title: Option<String>) -> Option<PartView> {
    number.map(|number| PartView {
        number,
        title: title.unwrap_or_default(),
    })
}

/// The provision's clauses in order, each with its words sliced from `text`: the clause
/// rows hold only char offsets.
async fn clauses_of(
    pool: &PgPool,
    document_id: i64,
    id: &RefId,
    text: &str,
) -> AppResult<Vec<ClauseView>> {
    let chars: Vec<char> = text.chars().collect();
    Ok(sqlx::query(
        "SELECT label, kind, start_char, end_char FROM clauses
         WHERE document_id = $1 AND ref_id = $2 ORDER BY seq",
    )
    .bind(document_id)
    .bind(id.as_str())
    .fetch_all(pool)
    .await?
    .iter()
    .map(|c| clause_view(&chars, c))
    .collect())
}

/// The provision's amendment footnotes, in their stored order (`seq`).
async fn amendment_notes_of(
    pool: &PgPool,
    document_id: i64,
    id: &RefId,
) -> AppResult<Vec<AmendmentView>> {
    Ok(sqlx::query_as::<_, AmendmentView>(
        "SELECT kind, instrument, amendment_number, section, effective_from, effective_text,
                clause_label AS clause, marker, page, raw
         FROM amendment_notes WHERE document_id = $1 AND ref_id = $2 ORDER BY seq",
    )
    .bind(document_id)
    .bind(id.as_str())
    .fetch_all(pool)
    .await?)
}

/// What the provision cites (in `seq` order), and what cites it: in the Constitution's
/// order of the citing provisions (their ordinal), then each one's `seq`.
async fn cross_refs_of(pool: &PgPool, document_id: i64, id: &RefId) -> AppResult<CrossRefsView> {
    let outgoing = sqlx::query_as::<_, OutgoingRef>(
        "SELECT to_ref AS to, to_part, clause, surface FROM cross_refs
         WHERE document_id = $1 AND from_ref = $2 ORDER BY seq",
    )
    .bind(document_id)
    .bind(id.as_str())
    .fetch_all(pool)
    .await?;
    let incoming = sqlx::query_as::<_, IncomingRef>(
        "SELECT x.from_ref AS from, p.title, x.clause, x.surface
         FROM cross_refs x
         JOIN provisions p ON p.document_id = x.document_id AND p.ref_id = x.from_ref
         WHERE x.document_id = $1 AND x.to_ref = $2 ORDER BY p.ordinal, x.seq",
    )
    .bind(document_id)
    .bind(id.as_str())
    .fetch_all(pool)
    .await?;
    Ok(CrossRefsView { outgoing, incoming })
}

/// One line of the table of contents.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct TocEntry {
    #[serde(rename = "ref")]
    #[sqlx(rename = "ref_id")]
    pub ref_id: String,
    pub kind: String,
    pub number: String,
    pub title: String,
    #[schema(required)]
    pub part_number: Option<String>,
    #[schema(required)]
    pub part_title: Option<String>,
    #[schema(required)]
    pub chapter: Option<String>,
    /// The italic group heading within a Part or Chapter ("Right to Equality").
    #[schema(required)]
    pub subheading: Option<String>,
    pub status: String,
    pub page_start: i32,
}

pub async fn list_provisions(
    pool: &PgPool,
    document_id: i64,
    part: Option<&str>,
    kind: Option<&str>,
) -> AppResult<Vec<TocEntry>> {
    Ok(sqlx::query_as::<_, TocEntry>(
        "SELECT ref_id, kind, number, title, part_number, part_title, chapter, subheading, status, page_start
         FROM provisions
         WHERE document_id = $3
           AND ($1::text IS NULL OR part_number = $1) AND ($2::text IS NULL OR kind = $2)
         ORDER BY ordinal",
    )
    .bind(part)
    .bind(kind)
    .bind(document_id)
    .fetch_all(pool)
    .await?)
}

/// Every stored Part number, for validating `?part=`.
pub async fn part_exists(pool: &PgPool, document_id: i64, part: &str) -> AppResult<bool> {
    Ok(sqlx::query_scalar::<_, bool>(
        "SELECT EXISTS (SELECT 1 FROM provisions WHERE document_id = $1 AND part_number = $2)",
    )
    .bind(document_id)
    .bind(part)
    .fetch_one(pool)
    .await?)
}

/// A snake_case enum of the ingest model back from the name it was stored under.
fn stored_enum<T: serde::de::DeserializeOwned>(name: &str) -> Option<T> {
    serde_json::from_value(serde_json::Value::String(name.to_string())).ok()
}

/// An edition as the ingester parsed it, rebuilt from its stored rows (provisions, clauses and
/// amendment notes; cross-references and the Contents are not needed by its readers, the
/// edition diff and the as-of rebuild, and are left empty). `None` when no such document is
/// stored.
pub async fn load_document(pool: &PgPool, document_id: i64) -> AppResult<Option<ParsedDocument>> {
    let Some(edition) = sqlx::query_scalar::<_, String>(
        "SELECT edition FROM documents WHERE id = $1 AND is_current",
    )
    .bind(document_id)
    .fetch_optional(pool)
    .await?
    else {
        return Ok(None);
    };
    Ok(Some(ParsedDocument {
        edition,
        contents: Vec::new(),
        provisions: load_provisions(pool, document_id, None).await?,
        missing: Vec::new(),
        duplicates: Vec::new(),
        warnings: Vec::new(),
    }))
}

/// One provision of an edition as the ingester parsed it (see [`load_document`]).
pub async fn load_provision(
    pool: &PgPool,
    document_id: i64,
    id: &RefId,
) -> AppResult<Option<Provision>> {
    Ok(load_provisions(pool, document_id, Some(id.as_str()))
        .await?
        .into_iter()
        .next())
}

/// The provisions of a document (all, or the one `only` names), in constitutional order.
async fn load_provisions(
    pool: &PgPool,
    document_id: i64,
    only: Option<&str>,
) -> AppResult<Vec<Provision>> {
    let rows = sqlx::query(
        "SELECT ref_id, kind, number, title, part_number, part_title, chapter, subheading, status,
                page_start, page_end, text
         FROM provisions WHERE document_id = $1 AND ($2::text IS NULL OR ref_id = $2)
         ORDER BY ordinal",
    )
    .bind(document_id)
    .bind(only)
    .fetch_all(pool)
    .await?;
    let clauses = sqlx::query(
        "SELECT ref_id, label, kind, start_char, end_char FROM clauses
         WHERE document_id = $1 AND ($2::text IS NULL OR ref_id = $2) ORDER BY ref_id, seq",
    )
    .bind(document_id)
    .bind(only)
    .fetch_all(pool)
    .await?;
    let notes = sqlx::query(
        "SELECT ref_id, marker, kind, instrument, amendment_number, section, effective_from,
                effective_text, clause_label, start_char, end_char, page, raw
         FROM amendment_notes WHERE document_id = $1 AND ($2::text IS NULL OR ref_id = $2)
         ORDER BY ref_id, seq",
    )
    .bind(document_id)
    .bind(only)
    .fetch_all(pool)
    .await?;
    let mut by_ref: std::collections::HashMap<String, Provision> = Default::default();
    let mut order = Vec::with_capacity(rows.len());
    for r in &rows {
        if let Some(p) = provision_from_row(r) {
            let ref_id: String = r.get("ref_id");
            order.push(ref_id.clone());
            by_ref.insert(ref_id, p);
        }
    }
    for c in &clauses {
        if let (Some(p), Some(clause)) = (
            by_ref.get_mut(c.get::<&str, _>("ref_id")),
            clause_from_row(c),
        ) {
            p.clauses.push(clause);
        }
    }
    for n in &notes {
        if let (Some(p), Some(link)) = (
            by_ref.get_mut(n.get::<&str, _>("ref_id")),
            amendment_from_row(n),
        ) {
            p.amendments.push(link);
        }
    }
    Ok(order
        .into_iter()
        .filter_map(|id| by_ref.remove(&id))
        .collect())
}

/// A `provisions` row as the ingester's type, without its clauses and notes; None when a
/// stored id or enum no longer parses.
fn provision_from_row(r: &sqlx::postgres::PgRow) -> Option<Provision> {
    let (Ok(id), Some(kind), Some(status)) = (
        r.get::<&str, _>("ref_id").parse::<RefId>(),
        stored_enum(r.get::<&str, _>("kind")),
        stored_enum(r.get::<&str, _>("status")),
    ) else {
        return None;
    };
    let part =
        r.get::<Option<String>, _>("part_number")
            .map(|number| nyaya_ingest::model::PartInfo {
                number,
                title: r.get::<Option<String>, _>("part_title").unwrap_or_default(),
            });
    Some(Provision {
        id,
        kind,
        number: r.get("number"),
        title: r.get("title"),
        part,
        chapter: r.get("chapter"),
        subheading: r.get("subheading"),
        status,
        page_start: r.get::<i32, _>("page_start").max(0) as u32,
        page_end: r.get::<i32, _>("page_end").max(0) as u32,
        text: r.get("text"),
        clauses: Vec::new(),
        amendments: Vec::new(),
        cross_refs: Vec::new(),
    })
}

/// A `clauses` row; None when its stored kind no longer parses.
fn clause_from_row(c: &sqlx::postgres::PgRow) -> Option<nyaya_ingest::model::Clause> {
    Some(nyaya_ingest::model::Clause {
        label: c.get("label"),
        kind: stored_enum(c.get::<&str, _>("kind"))?,
        start: c.get::<i32, _>("start_char").max(0) as usize,
        end: c.get::<i32, _>("end_char").max(0) as usize,
    })
}

/// An `amendment_notes` row as the link the ingester made; None when its stored kind no
/// longer parses.
fn amendment_from_row(n: &sqlx::postgres::PgRow) -> Option<nyaya_ingest::model::AmendmentLink> {
    let kind = stored_enum(n.get::<&str, _>("kind"))?;
    let offset = |col: &str| n.get::<Option<i32>, _>(col).map(|v| v.max(0) as usize);
    Some(nyaya_ingest::model::AmendmentLink {
        note: nyaya_ingest::amendment::AmendmentNote {
            marker: n.get::<Option<i32>, _>("marker").map(|m| m.max(0) as u32),
            kind,
            instrument: n.get("instrument"),
            amendment_number: n
                .get::<Option<i32>, _>("amendment_number")
                .map(|m| m.max(0) as u32),
            section: n.get("section"),
            ibid: false,
            effective_from: n
                .get::<Option<chrono::NaiveDate>, _>("effective_from")
                .map(|d| d.to_string()),
            effective_text: n.get("effective_text"),
            raw: n.get("raw"),
        },
        clause: n.get("clause_label"),
        start: offset("start_char"),
        end: offset("end_char"),
        page: n.get::<i32, _>("page").max(0) as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edition(id: i64, date: &str) -> Edition {
        Edition {
            document_id: id,
            label: format!("As on {date}"),
            date: chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").unwrap(),
            sha256: format!("sha-{id}"),
        }
    }

    fn provision_with_clauses(id: RefId, labels: &[&str]) -> Provision {
        Provision {
            kind: id.kind(),
            number: String::new(),
            title: String::new(),
            part: None,
            chapter: None,
            subheading: None,
            status: nyaya_ingest::Status::InForce,
            page_start: 1,
            page_end: 1,
            text: String::new(),
            clauses: labels
                .iter()
                .map(|label| Clause {
                    label: label.to_string(),
                    kind: nyaya_ingest::ClauseKind::Clause,
                    start: 0,
                    end: 0,
                })
                .collect(),
            amendments: Vec::new(),
            cross_refs: Vec::new(),
            id,
        }
    }

    #[test]
    fn clauses_are_numbered_within_their_provision_in_document_order() {
        let provisions = [
            provision_with_clauses(RefId::article("1").unwrap(), &["(1)", "(2)"]),
            provision_with_clauses(RefId::article("2").unwrap(), &[]),
            provision_with_clauses(RefId::article("3").unwrap(), &["(a)"]),
        ];
        let rows: Vec<_> = numbered(&provisions, |p| &p.clauses)
            .iter()
            .map(|n| (n.provision.id.as_str(), n.seq, n.item.label.as_str()))
            .collect();
        assert_eq!(rows, [("1", 0, "(1)"), ("1", 1, "(2)"), ("3", 0, "(a)")]);
    }

    #[test]
    fn amendment_columns_are_stored_as_their_names_and_dates() {
        assert_eq!(amendment_kind_name(AmendmentKind::Inserted), "inserted");
        assert_eq!(amendment_kind_name(AmendmentKind::Note), "note");
        assert_eq!(
            effective_date(Some("1977-01-03")),
            chrono::NaiveDate::from_ymd_opt(1977, 1, 3)
        );
        assert_eq!(effective_date(Some("3-1-1977")), None);
        assert_eq!(effective_date(None), None);
    }

    #[test]
    fn a_cross_reference_targets_a_provision_or_a_part() {
        let article = RefId::article("32").unwrap();
        assert_eq!(
            xref_target(&XrefTarget::Provision(article.clone())),
            (Some(article.as_str().to_string()), None)
        );
        assert_eq!(
            xref_target(&XrefTarget::Part("III".into())),
            (None, Some("III".to_string()))
        );
    }

    #[test]
    fn an_edition_is_picked_by_year_month_or_date_and_defaults_to_the_newest() {
        let stored = [edition(2, "2024-05-01"), edition(1, "2022-05-01")];
        let pick = |s: Option<&str>| pick_edition(&stored, s).map(|e| e.document_id);
        assert_eq!(pick(None).unwrap(), 2);
        assert_eq!(pick(Some("  ")).unwrap(), 2);
        for s in ["2022", "2022-05", "2022-05-01", " 2022 "] {
            assert_eq!(pick(Some(s)).unwrap(), 1, "{s}");
        }
        for s in [
            "2023",
            "2022-5",
            "22",
            "2022-05-01x",
            "20-22",
            "2022-05-01-01",
            "May 2022",
        ] {
            match pick_edition(&stored, Some(s)) {
                Err(AppError::UnknownEdition { available, .. }) => {
                    assert_eq!(available, ["2024-05-01", "2022-05-01"], "{s}")
                }
                other => panic!("{s}: {other:?}"),
            }
        }
        assert!(matches!(pick_edition(&[], None), Err(AppError::NoCorpus)));
    }

    #[test]
    fn two_editions_of_one_year_make_the_year_ambiguous() {
        let stored = [edition(3, "2024-11-01"), edition(2, "2024-05-01")];
        assert!(matches!(
            pick_edition(&stored, Some("2024")),
            Err(AppError::UnknownEdition { .. })
        ));
        assert_eq!(
            pick_edition(&stored, Some("2024-05")).unwrap().document_id,
            2
        );
    }
}
