//! The rescorer's features computed in memory: every chunk vector of the configured model and
//! every heading's lexemes, loaded once per corpus and model, so the second stage costs no
//! database round trip after the legs (it used to be the slowest query of a default search).
//!
//! The cache is keyed by [`CorpusKey`] (the current document's hash, the model, and how many
//! of its vectors are stored), which each search reads concurrently with its legs: a re-ingest
//! or a re-embed changes the key and the next search reloads.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use nyaya_ingest::RefId;
use sqlx::PgPool;

use super::legs;
use super::rerank::Features;
use crate::error::AppResult;

/// What identifies the stored vectors and headings the features are computed from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorpusKey {
    /// The edition's document.
    pub document_id: i64,
    pub sha256: String,
    pub model_id: String,
    pub vectors: i64,
}

/// One search's facts for the rescorer, read while the legs run.
#[derive(Debug, Clone)]
pub struct QueryFacts {
    /// The (expanded) query's content lexemes, stemmed by Postgres as the index is.
    pub lexemes: Vec<String>,
    /// `None` when no corpus is loaded.
    pub key: Option<CorpusKey>,
}

/// Every chunk vector of one model, by provision, every heading's lexemes, and the
/// question-independent facts the learned stage reads.
#[derive(Debug)]
pub struct RescoreCorpus {
    pub key: CorpusKey,
    pub vectors: HashMap<String, Vec<Vec<f32>>>,
    pub title_lexemes: HashMap<String, HashSet<String>>,
    pub facts: HashMap<String, super::ltr::ProvisionFacts>,
}

/// Cosine similarity in f32, as pgvector computes it.
fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let (mut dot, mut na, mut nb) = (0.0f32, 0.0f32, 0.0f32);
    for (x, y) in a.iter().zip(b) {
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    let denom = (na as f64 * nb as f64).sqrt();
    if denom == 0.0 {
        0.0
    } else {
        dot as f64 / denom
    }
}

impl RescoreCorpus {
    /// The features of `candidates` (in their first-stage order, which breaks the rescorer's
    /// ties): the best cosine of any chunk of each to the query vector, its best lexical
    /// score, and the share of the query's lexemes in its heading.
    pub fn features(
        &self,
        query_lexemes: &[String],
        query_vector: &[f32],
        candidates: &[(RefId, f64)],
        lexical_scores: &HashMap<RefId, f32>,
    ) -> Vec<Features> {
        let distinct: HashSet<&str> = query_lexemes.iter().map(String::as_str).collect();
        candidates
            .iter()
            .filter_map(|(id, fused)| {
                let title = self.title_lexemes.get(id.as_str())?;
                let dense_best = self
                    .vectors
                    .get(id.as_str())
                    .map(|vs| {
                        vs.iter()
                            .filter(|v| v.len() == query_vector.len())
                            .map(|v| cosine(v, query_vector))
                            .fold(f64::NEG_INFINITY, f64::max)
                    })
                    .filter(|s| s.is_finite())
                    .unwrap_or(0.0);
                let shared = distinct.iter().filter(|l| title.contains(**l)).count();
                Some(Features {
                    ref_id: id.clone(),
                    fused: *fused,
                    dense_best,
                    lexical_best: lexical_scores.get(id).copied().unwrap_or(0.0) as f64,
                    title_share: shared as f64 / distinct.len().max(1) as f64,
                })
            })
            .collect()
    }
}

/// The loaded [`RescoreCorpus`] of each edition searched, shared by every search of a process
/// (it lives in [`super::Models`]).
#[derive(Debug, Default)]
pub struct RescoreCache(tokio::sync::Mutex<Vec<Arc<RescoreCorpus>>>);

/// How many editions' corpora the cache keeps (about 2 MB each with MiniLM's 384-d vectors).
const CACHED_EDITIONS: usize = 4;

impl RescoreCache {
    /// The corpus for `key`, loaded from the database when the cached one of its edition is for
    /// another key (a re-ingest or a re-embed). Searches that arrive during a load wait for it
    /// rather than load again.
    pub async fn get(&self, pool: &PgPool, key: &CorpusKey) -> AppResult<Arc<RescoreCorpus>> {
        let mut slots = self.0.lock().await;
        if let Some(c) = slots.iter().find(|c| c.key == *key) {
            return Ok(c.clone());
        }
        let t = std::time::Instant::now();
        let (vectors, title_lexemes, facts) = tokio::try_join!(
            legs::chunk_vectors(pool, key.document_id, &key.model_id),
            legs::title_lexemes(pool, key.document_id),
            legs::provision_facts(pool, key.document_id)
        )?;
        let corpus = Arc::new(RescoreCorpus {
            key: key.clone(),
            vectors,
            title_lexemes,
            facts,
        });
        tracing::info!(
            document_id = key.document_id,
            vectors = key.vectors,
            ms = t.elapsed().as_secs_f64() * 1000.0,
            "rescorer corpus loaded"
        );
        slots.retain(|c| c.key.document_id != key.document_id);
        if slots.len() >= CACHED_EDITIONS {
            slots.remove(0);
        }
        slots.push(corpus.clone());
        Ok(corpus)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> RefId {
        s.parse().unwrap()
    }

    #[test]
    fn features_take_the_best_chunk_and_the_heading_share() {
        let corpus = RescoreCorpus {
            key: CorpusKey {
                document_id: 1,
                sha256: "test".into(),
                model_id: "test".into(),
                vectors: 3,
            },
            vectors: HashMap::from([
                ("21A".to_string(), vec![vec![1.0, 0.0], vec![0.6, 0.8]]),
                ("21".to_string(), vec![vec![0.0, 1.0]]),
            ]),
            title_lexemes: HashMap::from([
                (
                    "21A".to_string(),
                    HashSet::from(["right".to_string(), "educ".to_string()]),
                ),
                ("21".to_string(), HashSet::from(["life".to_string()])),
                ("22".to_string(), HashSet::new()),
            ]),
            facts: HashMap::new(),
        };
        let lexemes = vec!["right".to_string(), "educ".to_string(), "child".to_string()];
        let lexical = HashMap::from([(id("21A"), 2.5f32)]);
        let f = corpus.features(
            &lexemes,
            &[1.0, 0.0],
            &[
                (id("21"), 0.3),
                (id("21A"), 0.2),
                (id("22"), 0.1),
                (id("99"), 0.05),
            ],
            &lexical,
        );
        // 99 is not in the corpus; 22 has no vectors (0, as the SQL's coalesce gave).
        let got: Vec<(&str, f64, f64, f64)> = f
            .iter()
            .map(|x| {
                (
                    x.ref_id.as_str(),
                    x.dense_best,
                    x.lexical_best,
                    x.title_share,
                )
            })
            .collect();
        assert_eq!(got.len(), 3);
        assert_eq!(got[0], ("21", 0.0, 0.0, 0.0));
        assert_eq!(got[1].0, "21A");
        assert!((got[1].1 - 1.0).abs() < 1e-9 && got[1].2 == 2.5);
        assert!((got[1].3 - 2.0 / 3.0).abs() < 1e-9);
        assert_eq!(got[2], ("22", 0.0, 0.0, 0.0));
    }
}
