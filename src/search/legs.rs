//! The two retrieval legs as SQL. Each returns chunk hits, best first, as (provision, score).

use sqlx::PgPool;

use nyaya_ingest::RefId;

use crate::embed::to_pgvector;
use crate::error::AppResult;

/// Nearest chunks by cosine distance over the HNSW index of the query vector's dimension.
/// Score is cosine similarity.
pub async fn dense(
    pool: &PgPool,
    query_vector: &[f32],
    model_id: &str,
    depth: usize,
) -> AppResult<Vec<(RefId, f32)>> {
    let dim = query_vector.len();
    // The expression and predicate match the per-dimension index made at ingest.
    let sql = format!(
        "SELECT ref_id, (1 - (embedding::vector({dim}) <=> $1::vector({dim})))::real AS score
         FROM chunks
         WHERE vector_dims(embedding) = {dim} AND embedding_model = $2
         ORDER BY embedding::vector({dim}) <=> $1::vector({dim})
         LIMIT $3"
    );
    let rows: Vec<(String, f32)> = sqlx::query_as(&sql)
        .bind(to_pgvector(query_vector))
        .bind(model_id)
        .bind(depth as i64)
        .fetch_all(pool)
        .await?;
    Ok(to_refs(rows))
}

/// Full-text search with OR semantics over the query's terms (a question rarely repeats every
/// word of the provision), ranked by `ts_rank_cd` with length normalisation (rank / (1 + log
/// length)) so short, dense chunks win; the heading is weighted above the body (`A` vs `B`).
pub async fn lexical(pool: &PgPool, query: &str, depth: usize) -> AppResult<Vec<(RefId, f32)>> {
    let rows: Vec<(String, f32)> = sqlx::query_as(
        "WITH q AS (
             SELECT to_tsquery('english', string_agg(lexeme, ' | ')) AS tsq
             FROM unnest(tsvector_to_array(to_tsvector('english', $1))) AS lexeme
         )
         SELECT c.ref_id, ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', c.tsv, q.tsq, 1)::real AS score
         FROM chunks c, q
         WHERE q.tsq IS NOT NULL AND c.tsv @@ q.tsq
         ORDER BY score DESC, c.id
         LIMIT $2",
    )
    .bind(query)
    .bind(depth as i64)
    .fetch_all(pool)
    .await?;
    Ok(to_refs(rows))
}

fn to_refs(rows: Vec<(String, f32)>) -> Vec<(RefId, f32)> {
    rows.into_iter()
        .filter_map(|(id, score)| id.parse().ok().map(|r| (r, score)))
        .collect()
}
