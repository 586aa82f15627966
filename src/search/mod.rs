//! Retrieval: refs named in the question first (pinned, by direct lookup), then the dense and
//! lexical legs fused by rank ([`fusion`]), then one hop along cross-references as
//! `supporting` provisions that never outrank a hit.

pub mod fusion;
pub mod legs;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use sqlx::PgPool;

use nyaya_ingest::refid::find_refs;
use nyaya_ingest::RefId;

use crate::embed::Embedder;
use crate::error::{AppError, AppResult};
use fusion::{rrf, Leg, LegHit};

/// Which legs run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Dense,
    Lexical,
    #[default]
    Hybrid,
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "dense" => Ok(Mode::Dense),
            "lexical" => Ok(Mode::Lexical),
            "hybrid" => Ok(Mode::Hybrid),
            other => Err(format!(
                "mode must be dense, lexical or hybrid, not {other:?}"
            )),
        }
    }
}

/// Limits and knobs of one search.
#[derive(Debug, Clone)]
pub struct SearchOptions {
    pub k: usize,
    pub mode: Mode,
    /// Put refs named in the question first.
    pub pin: bool,
    /// RRF's k.
    pub rrf_k: f64,
    /// Chunks each leg returns before fusion.
    pub depth: usize,
    pub max_query_chars: usize,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            k: 10,
            mode: Mode::Hybrid,
            pin: true,
            rrf_k: 60.0,
            depth: 50,
            max_query_chars: 4000,
        }
    }
}

/// One ranked provision.
#[derive(Debug, Clone, Serialize)]
pub struct SearchHit {
    #[serde(rename = "ref")]
    pub ref_id: String,
    pub title: String,
    pub score: f64,
    pub pinned: bool,
    pub legs: BTreeMap<Leg, LegHit>,
    /// The clause the question named ("15(4)" → "(4)").
    pub clause: Option<String>,
    pub snippet: String,
    pub page: i32,
}

/// A provision a top hit cites, one hop away.
#[derive(Debug, Clone, Serialize)]
pub struct Supporting {
    #[serde(rename = "ref")]
    pub ref_id: String,
    pub title: String,
    /// "cited by 31A".
    pub relation: String,
    pub page: i32,
}

#[derive(Debug, Clone, Serialize, Default)]
pub struct Timings {
    pub embed: f64,
    pub dense: f64,
    pub lexical: f64,
    pub fuse: f64,
    pub total: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct SearchResponse {
    pub request_id: String,
    pub results: Vec<SearchHit>,
    pub supporting: Vec<Supporting>,
    pub timings_ms: Timings,
}

/// Checks the request before any work: typed 400s, never a 500.
pub fn validate(query: &str, opts: &SearchOptions) -> AppResult<()> {
    if query.trim().is_empty() {
        return Err(AppError::BadRequest("query is empty".into()));
    }
    let n = query.chars().count();
    if n > opts.max_query_chars {
        return Err(AppError::BadRequest(format!(
            "query is {n} characters; the limit is {}",
            opts.max_query_chars
        )));
    }
    if !(1..=50).contains(&opts.k) {
        return Err(AppError::BadRequest(format!(
            "k must be between 1 and 50, not {}",
            opts.k
        )));
    }
    Ok(())
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// Runs one search.
pub async fn search(
    pool: &PgPool,
    embedder: Option<Arc<dyn Embedder>>,
    query: &str,
    opts: &SearchOptions,
    request_id: String,
) -> AppResult<SearchResponse> {
    validate(query, opts)?;
    let started = Instant::now();
    let mut timings = Timings::default();

    let mut legs_out: Vec<(Leg, Vec<(RefId, f32)>)> = Vec::new();
    if matches!(opts.mode, Mode::Dense | Mode::Hybrid) {
        let embedder = embedder.ok_or_else(|| {
            AppError::ModelUnavailable(
                "the embedding model is not loaded; use mode \"lexical\"".into(),
            )
        })?;
        let t = Instant::now();
        let q = query.to_string();
        let model = embedder.clone();
        let vector = tokio::task::spawn_blocking(move || model.embed_query(&q))
            .await
            .map_err(|e| AppError::Resource(format!("embedding task failed: {e}")))??;
        timings.embed = ms(t);
        let t = Instant::now();
        let hits = legs::dense(pool, &vector, &embedder.manifest().id, opts.depth).await?;
        timings.dense = ms(t);
        legs_out.push((Leg::Dense, hits));
    }
    if matches!(opts.mode, Mode::Lexical | Mode::Hybrid) {
        let t = Instant::now();
        let hits = legs::lexical(pool, query, opts.depth).await?;
        timings.lexical = ms(t);
        legs_out.push((Leg::Lexical, hits));
    }
    let t = Instant::now();
    let fused = rrf(&legs_out, opts.rrf_k, opts.depth);
    timings.fuse = ms(t);

    // Pinned refs: named in the question and present in the corpus, in the order named.
    let mut pinned: Vec<(RefId, Option<String>)> = Vec::new();
    if opts.pin {
        for (r, _) in find_refs(query) {
            if !pinned.iter().any(|(id, _)| *id == r.id) {
                pinned.push((r.id, r.clause));
            }
        }
    }
    let pinned_ids: Vec<String> = pinned.iter().map(|(id, _)| id.to_string()).collect();
    // Up to k fused hits besides the pinned ones; `truncate` below keeps k in all. One lookup
    // serves both lists.
    let wanted: Vec<String> = fused
        .iter()
        .filter(|f| !pinned_ids.contains(&f.ref_id.to_string()))
        .take(opts.k)
        .map(|f| f.ref_id.to_string())
        .collect();
    let info = provision_info(pool, &[pinned_ids.as_slice(), wanted.as_slice()].concat()).await?;
    let mut results: Vec<SearchHit> = Vec::new();
    for (id, clause) in &pinned {
        let Some(p) = info.get(id.as_str()) else {
            continue;
        };
        let snippet = clause
            .as_deref()
            .and_then(|c| clause_text(p, c))
            .unwrap_or_else(|| snippet_of(&p.text));
        results.push(SearchHit {
            ref_id: id.to_string(),
            title: p.title.clone(),
            score: 1.0,
            pinned: true,
            legs: BTreeMap::new(),
            clause: clause.clone(),
            snippet,
            page: p.page_start,
        });
    }
    for f in fused
        .iter()
        .filter(|f| wanted.contains(&f.ref_id.to_string()))
    {
        let Some(p) = info.get(f.ref_id.as_str()) else {
            continue;
        };
        results.push(SearchHit {
            ref_id: f.ref_id.to_string(),
            title: p.title.clone(),
            score: f.score,
            pinned: false,
            legs: f.legs.clone(),
            clause: None,
            snippet: snippet_of(&p.text),
            page: p.page_start,
        });
    }
    results.truncate(opts.k);

    let supporting = one_hop(pool, &results).await?;
    timings.total = ms(started);
    Ok(SearchResponse {
        request_id,
        results,
        supporting,
        timings_ms: timings,
    })
}

struct ProvisionInfo {
    title: String,
    page_start: i32,
    text: String,
    clauses: Vec<(String, i32, i32)>,
}

async fn provision_info(
    pool: &PgPool,
    ids: &[String],
) -> AppResult<BTreeMap<String, ProvisionInfo>> {
    if ids.is_empty() {
        return Ok(BTreeMap::new());
    }
    let rows: Vec<(String, String, i32, String)> = sqlx::query_as(
        "SELECT ref_id, title, page_start, text FROM provisions WHERE ref_id = ANY($1)",
    )
    .bind(ids)
    .fetch_all(pool)
    .await?;
    let clauses: Vec<(String, String, i32, i32)> = sqlx::query_as(
        "SELECT ref_id, label, start_char, end_char FROM clauses WHERE ref_id = ANY($1) ORDER BY ref_id, seq",
    )
    .bind(ids)
    .fetch_all(pool)
    .await?;
    let mut out: BTreeMap<String, ProvisionInfo> = rows
        .into_iter()
        .map(|(id, title, page_start, text)| {
            (
                id,
                ProvisionInfo {
                    title,
                    page_start,
                    text,
                    clauses: Vec::new(),
                },
            )
        })
        .collect();
    for (id, label, s, e) in clauses {
        if let Some(p) = out.get_mut(&id) {
            p.clauses.push((label, s, e));
        }
    }
    Ok(out)
}

/// The text of the clause the question named, if the provision has it.
fn clause_text(p: &ProvisionInfo, clause: &str) -> Option<String> {
    let (_, s, e) = p.clauses.iter().find(|(label, _, _)| label == clause)?;
    Some(
        p.text
            .chars()
            .skip(*s as usize)
            .take((*e - *s) as usize)
            .collect(),
    )
}

/// The opening of a provision, cut at a word boundary (a preview, not a quote).
fn snippet_of(text: &str) -> String {
    const MAX: usize = 240;
    if text.chars().count() <= MAX {
        return text.to_string();
    }
    let cut: String = text.chars().take(MAX).collect();
    match cut.rfind(' ') {
        Some(i) => format!("{}…", &cut[..i]),
        None => format!("{cut}…"),
    }
}

/// Provisions the top hits cite, not already among the results, with the relation.
async fn one_hop(pool: &PgPool, results: &[SearchHit]) -> AppResult<Vec<Supporting>> {
    let top: Vec<String> = results.iter().take(3).map(|r| r.ref_id.clone()).collect();
    if top.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<(String, String, String, i32)> = sqlx::query_as(
        "SELECT DISTINCT ON (x.to_ref) x.to_ref, x.from_ref, p.title, p.page_start
         FROM cross_refs x JOIN provisions p ON p.ref_id = x.to_ref
         WHERE x.from_ref = ANY($1) AND NOT (x.to_ref = ANY($2))
         ORDER BY x.to_ref, array_position($1, x.from_ref), x.seq",
    )
    .bind(&top)
    .bind(results.iter().map(|r| r.ref_id.clone()).collect::<Vec<_>>())
    .fetch_all(pool)
    .await?;
    let mut out: Vec<Supporting> = rows
        .into_iter()
        .map(|(to, from, title, page)| Supporting {
            ref_id: to,
            title,
            relation: format!("cited by {from}"),
            page,
        })
        .collect();
    // Constitutional order reads better than the order of the SQL.
    out.sort_by(
        |a, b| match (a.ref_id.parse::<RefId>(), b.ref_id.parse::<RefId>()) {
            (Ok(x), Ok(y)) => x.cmp(&y),
            _ => a.ref_id.cmp(&b.ref_id),
        },
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_gives_typed_errors() {
        let o = SearchOptions::default();
        assert!(matches!(validate("   ", &o), Err(AppError::BadRequest(_))));
        assert!(matches!(
            validate(&"a".repeat(4001), &o),
            Err(AppError::BadRequest(_))
        ));
        let bad_k = SearchOptions {
            k: 51,
            ..SearchOptions::default()
        };
        assert!(matches!(
            validate("right to education", &bad_k),
            Err(AppError::BadRequest(_))
        ));
        assert!(validate("right to education", &o).is_ok());
    }

    #[test]
    fn snippets_cut_at_a_word() {
        let s = snippet_of(&"word ".repeat(100));
        assert!(s.ends_with('…') && s.chars().count() <= 241);
        assert_eq!(snippet_of("short text"), "short text");
    }

    #[test]
    fn modes_parse() {
        assert_eq!("hybrid".parse::<Mode>(), Ok(Mode::Hybrid));
        assert!("fuzzy".parse::<Mode>().is_err());
    }
}
