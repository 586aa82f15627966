//! The retrieval legs and the second stage's features as SQL. Each leg returns chunk hits, best
//! first, as (provision, score).

use std::collections::{HashMap, HashSet};

use sqlx::PgPool;

use nyaya_ingest::RefId;

use super::features::{CorpusKey, QueryFacts};
use crate::error::AppResult;

/// Stemmed words that questions use to talk *about* the text and that tell the lexical leg
/// nothing about which provision is meant ("What does the Constitution say about …").
pub const NOISE_LEXEMES: &[&str] = &[
    "articl",
    "constitut",
    "india",
    "indian",
    "say",
    "tell",
    "mean",
    "explain",
    "pleas",
    "know",
    "want",
    "accord",
    "provis",
    "question",
    "happen",
];

/// The query's content lexemes as rows (`lexeme`), stemmed in SQL so that they match the
/// index exactly; every lexical query below starts from it. `$1` is the query, `$2` the
/// [`NOISE_LEXEMES`].
const QUERY_LEXEMES: &str = "SELECT lexeme
     FROM unnest(tsvector_to_array(to_tsvector('english', $1))) AS lexeme
     WHERE NOT (lexeme = ANY($2))";

/// The ts_rank_cd weights {D, C, B, A}: the marginal heading (A) counts 2.5 times the body (B).
const RANK_WEIGHTS: &str = "'{0.1, 0.2, 0.4, 1.0}'";

/// Nearest chunks by cosine distance over the HNSW index of the query vector's dimension.
/// Score is cosine similarity.
pub async fn dense(
    pool: &PgPool,
    document_id: i64,
    query_vector: &[f32],
    model_id: &str,
    depth: usize,
) -> AppResult<Vec<(RefId, f32)>> {
    let dim = query_vector.len();
    // The expression and predicate match the per-dimension index made at ingest. The vector is
    // bound as `real[]` (binary), not as text: in the prepared statement's generic plan the
    // cast of `$1` runs for every row's score, and parsing 384 floats from text 50 times made
    // the query three times slower (4.4 ms against 1.8 ms, `EXPLAIN ANALYZE EXECUTE`).
    let sql = format!(
        "SELECT ref_id, (1 - (embedding::vector({dim}) <=> $1::vector({dim})))::real AS score
         FROM chunks
         WHERE vector_dims(embedding) = {dim} AND embedding_model = $2 AND document_id = $4
         ORDER BY embedding::vector({dim}) <=> $1::vector({dim})
         LIMIT $3"
    );
    let query = sqlx::query_as::<_, (String, f32)>(&sql)
        .bind(query_vector)
        .bind(model_id)
        .bind(depth as i64)
        .bind(document_id);
    // The pool sets `hnsw.ef_search` on every connection (`db::HNSW_EF_SEARCH`); a deeper leg
    // raises it for its own query, since a scan returns at most that many rows.
    let wanted = depth * 4;
    let rows = if wanted <= crate::db::HNSW_EF_SEARCH {
        query.fetch_all(pool).await?
    } else {
        let mut tx = pool.begin().await?;
        sqlx::query(&format!("SET LOCAL hnsw.ef_search = {wanted}"))
            .execute(&mut *tx)
            .await?;
        let rows = query.fetch_all(&mut *tx).await?;
        tx.commit().await?;
        rows
    };
    Ok(to_refs(rows))
}

/// How the lexical leg ranks the chunks that match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum LexicalRanking {
    /// Okapi BM25 (k1 1.2, b 0.75) over the inverted index `chunk_terms` (heading occurrences
    /// counted twice; see `migrations/0002_lexicon.sql`).
    #[default]
    Bm25,
    /// Postgres's cover-density rank with length normalisation (the first version).
    TsRankCd,
}

/// BM25's term-frequency saturation and length normalisation.
const BM25_K1: f64 = 1.2;
const BM25_B: f64 = 0.75;

/// Full-text search with OR semantics over the query's content terms (a question rarely repeats
/// every word of the provision). BM25 by default, so rare terms weigh more than common ones
/// ("suffrage" over "state") and long chunks do not win by length; the heading counts above
/// the body. See `adr/0004-retrieval.md` for the comparison with `ts_rank_cd`.
pub async fn lexical(
    pool: &PgPool,
    document_id: i64,
    query: &str,
    depth: usize,
    ranking: LexicalRanking,
) -> AppResult<Vec<(RefId, f32)>> {
    let sql = match ranking {
        LexicalRanking::TsRankCd => format!(
            // The lexemes quoted into a `|`-joined tsquery, so they are not stemmed twice.
            "WITH q AS (
                 SELECT string_agg(quote_literal(lexeme), ' | ')::tsquery AS tsq
                 FROM ({QUERY_LEXEMES}) l
             )
             SELECT c.ref_id, ts_rank_cd({RANK_WEIGHTS}, c.tsv, q.tsq, 1)::real AS score
             FROM chunks c, q
             WHERE q.tsq IS NOT NULL AND c.tsv @@ q.tsq AND c.document_id = $4
             ORDER BY score DESC, c.id
             LIMIT $3"
        ),
        // Written so the planner walks the lexeme index: the query's lexemes as rows, joined
        // to the lexicon, then to the postings (about 5 ms; a cross join on the statistics
        // made it scan all 44k postings).
        LexicalRanking::Bm25 => format!(
            "WITH q AS ({QUERY_LEXEMES}),
             stats AS (SELECT n, avg_tokens FROM chunk_stats WHERE document_id = $4),
             idf AS (
                 SELECT l.lexeme,
                        ln(1 + ((SELECT n FROM stats) - l.ndoc + 0.5) / (l.ndoc + 0.5)) AS idf
                 FROM q JOIN chunk_lexicon l ON l.lexeme = q.lexeme AND l.document_id = $4
             )
             SELECT t.ref_id,
                    sum(idf.idf * t.tf * ({BM25_K1} + 1)
                        / (t.tf + {BM25_K1} * (1 - {BM25_B} + {BM25_B} * t.tokens
                                               / (SELECT avg_tokens FROM stats))))::real AS score
             FROM idf JOIN chunk_terms t ON t.lexeme = idf.lexeme AND t.document_id = $4
             GROUP BY t.chunk_id, t.ref_id
             ORDER BY score DESC, t.chunk_id
             LIMIT $3"
        ),
    };
    let rows: Vec<(String, f32)> = sqlx::query_as(&sql)
        .bind(query)
        .bind(NOISE_LEXEMES)
        .bind(depth as i64)
        .bind(document_id)
        .fetch_all(pool)
        .await?;
    Ok(to_refs(rows))
}

/// What the in-memory rescorer needs from one search, in one small query run alongside the
/// legs: the (expanded) query's content lexemes and the key of the stored vectors.
pub async fn query_facts(
    pool: &PgPool,
    document_id: i64,
    query: &str,
    model_id: &str,
) -> AppResult<QueryFacts> {
    let sql = format!(
        "SELECT coalesce((SELECT array_agg(lexeme) FROM ({QUERY_LEXEMES}) l), '{{}}'),
                (SELECT sha256 FROM documents WHERE id = $4 AND is_current),
                (SELECT count(*) FROM chunks WHERE embedding_model = $3 AND document_id = $4)"
    );
    let (lexemes, sha256, vectors): (Vec<String>, Option<String>, i64) = sqlx::query_as(&sql)
        .bind(query)
        .bind(NOISE_LEXEMES)
        .bind(model_id)
        .bind(document_id)
        .fetch_one(pool)
        .await?;
    Ok(QueryFacts {
        lexemes,
        key: sha256.map(|sha256| CorpusKey {
            document_id,
            sha256,
            model_id: model_id.to_string(),
            vectors,
        }),
    })
}

/// Every chunk vector of one model in one edition, by provision.
pub async fn chunk_vectors(
    pool: &PgPool,
    document_id: i64,
    model_id: &str,
) -> AppResult<HashMap<String, Vec<Vec<f32>>>> {
    let rows: Vec<(String, Vec<f32>)> = sqlx::query_as(
        "SELECT ref_id, embedding::real[] FROM chunks
         WHERE embedding_model = $1 AND embedding IS NOT NULL AND document_id = $2",
    )
    .bind(model_id)
    .bind(document_id)
    .fetch_all(pool)
    .await?;
    let mut by_ref: HashMap<String, Vec<Vec<f32>>> = HashMap::new();
    for (r, v) in rows {
        by_ref.entry(r).or_default().push(v);
    }
    Ok(by_ref)
}

/// What the learned second stage knows of every provision apart from the question: its kind
/// and whether it is omitted or was amended.
pub async fn provision_facts(
    pool: &PgPool,
    document_id: i64,
) -> AppResult<HashMap<String, super::ltr::ProvisionFacts>> {
    let rows: Vec<(String, String, bool, bool)> = sqlx::query_as(
        "SELECT p.ref_id, p.kind, p.status = 'omitted',
                EXISTS (SELECT 1 FROM amendment_notes a
                        WHERE a.document_id = p.document_id AND a.ref_id = p.ref_id
                        AND a.kind IN ('inserted', 'substituted', 'added', 'amended'))
         FROM provisions p WHERE p.document_id = $1",
    )
    .bind(document_id)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(r, kind, omitted, amended)| {
            let facts = super::ltr::ProvisionFacts {
                kind,
                omitted,
                amended,
            };
            (r, facts)
        })
        .collect())
}

/// Every marginal heading's lexemes (stemmed as the query's are), by provision.
pub async fn title_lexemes(
    pool: &PgPool,
    document_id: i64,
) -> AppResult<HashMap<String, HashSet<String>>> {
    let rows: Vec<(String, Vec<String>)> = sqlx::query_as(
        "SELECT ref_id, tsvector_to_array(to_tsvector('english', title)) FROM provisions
         WHERE document_id = $1",
    )
    .bind(document_id)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(r, l)| (r, l.into_iter().collect()))
        .collect())
}

/// The text a cross-encoder reads for each candidate: heading and the provision's best chunk.
pub async fn best_chunk_texts(
    pool: &PgPool,
    document_id: i64,
    query_vector: &[f32],
    candidates: &[RefId],
) -> AppResult<Vec<String>> {
    let dim = query_vector.len();
    let ids: Vec<String> = candidates.iter().map(|r| r.to_string()).collect();
    let sql = format!(
        "SELECT DISTINCT ON (ref_id) ref_id, heading || '\n' || text FROM chunks
         WHERE ref_id = ANY($1) AND vector_dims(embedding) = {dim} AND document_id = $3
         ORDER BY ref_id, embedding::vector({dim}) <=> $2::vector({dim})"
    );
    let rows: Vec<(String, String)> = sqlx::query_as(&sql)
        .bind(&ids)
        .bind(query_vector)
        .bind(document_id)
        .fetch_all(pool)
        .await?;
    Ok(ids
        .iter()
        .map(|id| {
            rows.iter()
                .find(|(r, _)| r == id)
                .map(|(_, t)| t.clone())
                .unwrap_or_default()
        })
        .collect())
}

/// The multilingual dense leg: the edition's chunks by cosine to the question's vector from
/// the multilingual model, read through the chunk-text hash its vectors are keyed by
/// (`migrations/0007_multilingual_vectors.sql`). An exact scan: an edition has about a
/// thousand chunks.
pub async fn multilingual(
    pool: &PgPool,
    document_id: i64,
    query_vector: &[f32],
    model_id: &str,
    depth: usize,
) -> AppResult<Vec<(RefId, f32)>> {
    let rows = sqlx::query_as::<_, (String, f32)>(
        "SELECT c.ref_id, (1 - (v.embedding <=> $1::real[]::vector))::real AS score
         FROM chunks c
         JOIN chunk_text_vectors v ON v.model_id = $2 AND v.text_md5 = c.text_md5
         WHERE c.document_id = $4
         ORDER BY v.embedding <=> $1::real[]::vector
         LIMIT $3",
    )
    .bind(query_vector)
    .bind(model_id)
    .bind(depth as i64)
    .bind(document_id)
    .fetch_all(pool)
    .await?;
    Ok(to_refs(rows))
}

/// The editions this process has found fully embedded by a multilingual model. A stored
/// edition's chunks never change (a re-ingest stores a new document), so an edition once
/// covered stays covered, and later questions in Indian languages skip the count.
#[derive(Debug, Default)]
pub struct CoveredEditions(std::sync::Mutex<std::collections::HashSet<(i64, String)>>);

impl CoveredEditions {
    /// [`multilingual_ready`], asked of the database only until it says yes.
    pub async fn ready(&self, pool: &PgPool, document_id: i64, model_id: &str) -> AppResult<bool> {
        let key = (document_id, model_id.to_string());
        if self.0.lock().is_ok_and(|known| known.contains(&key)) {
            return Ok(true);
        }
        let ready = multilingual_ready(pool, document_id, model_id).await?;
        if ready {
            if let Ok(mut known) = self.0.lock() {
                known.insert(key);
            }
        }
        Ok(ready)
    }
}

/// Whether every chunk of the edition has a vector from the multilingual model `model_id`:
/// until the embedding pass has covered it, its questions take the English path.
pub async fn multilingual_ready(
    pool: &PgPool,
    document_id: i64,
    model_id: &str,
) -> AppResult<bool> {
    let (embedded, chunks) =
        crate::store::multilingual_coverage(pool, document_id, model_id).await?;
    Ok(chunks > 0 && embedded == chunks)
}

fn to_refs(rows: Vec<(String, f32)>) -> Vec<(RefId, f32)> {
    rows.into_iter()
        .filter_map(|(id, score)| id.parse().ok().map(|r| (r, score)))
        .collect()
}
