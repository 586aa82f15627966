//! The second stage: re-orders the head of the fused list.
//!
//! Three implementations behind [`SecondStage`]:
//! - `learned` (default): the linear ranker of [`super::ltr`], trained on questions the
//!   corpus generates about itself (`nyaya train`; ADR 0008).
//! - `rescore` (offline, hand-weighted; the default before the learned stage): a weighted sum of per-provision features that the
//!   legs' ranks alone do not see — the best similarity of any of the provision's chunks to the
//!   query (computed exactly, not through the approximate index), how much of the query the
//!   marginal heading says, the lexical score of the best chunk, and the fused score itself.
//!   The weights were chosen on the dev split; `adr/0004-retrieval.md` has the ablation.
//! - `cross-encoder`: a cross-encoder (e.g. BAAI/bge-reranker-v2-m3) from a local ONNX folder,
//!   through fastembed's user-defined reranker. No registry ships such weights; the tests run
//!   this path end to end with a tiny ONNX model they write (`tests/common/tiny_onnx.rs`).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use fastembed::{
    RerankInitOptionsUserDefined, TextRerank, TokenizerFiles, UserDefinedRerankingModel,
};
use serde::{Deserialize, Serialize};

use nyaya_ingest::RefId;

use crate::embed::EmbedError;

/// Which second stage the `+rerank` modes run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum SecondStage {
    #[default]
    Learned,
    Rescore,
    CrossEncoder,
    None,
}

/// What the rescorer knows about one candidate provision.
#[derive(Debug, Clone, PartialEq)]
pub struct Features {
    pub ref_id: RefId,
    /// RRF score from the first stage.
    pub fused: f64,
    /// Best cosine similarity of any chunk of the provision to the query.
    pub dense_best: f64,
    /// Best lexical-leg score (BM25) of any chunk (0 when the lexical leg did not find it).
    pub lexical_best: f64,
    /// Share of the query's content words (stemmed) found in the marginal heading.
    pub title_share: f64,
}

/// The rescorer's weights. Each feature is scaled to 0..1 within the candidate set first
/// (except the title share and the cosine, which already are), so the weights compare.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    pub fused: f64,
    pub dense: f64,
    pub lexical: f64,
    pub title: f64,
}

impl Default for Weights {
    fn default() -> Self {
        // Chosen on the dev split (adr/0004-retrieval.md): the fused rank stays the backbone;
        // the exact best-chunk cosine and the heading break its near-ties. The lexical score
        // added nothing the fused rank did not already carry, so it weighs 0.
        Weights {
            fused: 2.0,
            dense: 0.3,
            lexical: 0.0,
            title: 0.1,
        }
    }
}

impl std::str::FromStr for Weights {
    type Err = String;
    /// "fused,dense,lexical,title", e.g. "0.3,1,0.2,0.25".
    fn from_str(s: &str) -> Result<Self, String> {
        let [fused, dense, lexical, title] =
            crate::config::comma_numbers(s, "fused,dense,lexical,title")?;
        Ok(Weights {
            fused,
            dense,
            lexical,
            title,
        })
    }
}

/// Scores candidates, best first. Ties keep the first stage's order (the input order).
pub fn rescore(candidates: &[Features], w: &Weights) -> Vec<(RefId, f64)> {
    let max_of = |f: fn(&Features) -> f64| {
        candidates
            .iter()
            .map(f)
            .fold(0.0_f64, f64::max)
            .max(f64::MIN_POSITIVE)
    };
    let fused_max = max_of(|c| c.fused);
    let lexical_max = max_of(|c| c.lexical_best);
    let mut scored: Vec<(usize, RefId, f64)> = candidates
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let s = w.fused * c.fused / fused_max
                + w.dense * c.dense_best
                + w.lexical * c.lexical_best / lexical_max
                + w.title * c.title_share;
            (i, c.ref_id.clone(), s)
        })
        .collect();
    scored.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
    scored.into_iter().map(|(_, id, s)| (id, s)).collect()
}

/// A query–passage relevance model.
pub trait CrossEncoder: Send + Sync {
    fn id(&self) -> &str;
    /// One score per passage, higher is more relevant.
    fn score(&self, query: &str, passages: &[String]) -> Result<Vec<f32>, EmbedError>;
}

/// `nyaya-reranker.json` in the model folder.
#[derive(Debug, Clone, Deserialize)]
pub struct RerankerManifest {
    pub id: String,
    pub onnx: String,
    pub max_tokens: usize,
}

/// A cross-encoder run by fastembed from a local folder (ONNX + tokenizer files + manifest).
pub struct OnnxCrossEncoder {
    manifest: RerankerManifest,
    model: Mutex<TextRerank>,
}

impl OnnxCrossEncoder {
    pub fn load(dir: &Path, ort_lib: &Path) -> Result<Self, EmbedError> {
        let model_err = |reason: String| EmbedError::Model {
            dir: dir.to_path_buf(),
            reason,
        };
        let read = |name: &str| -> Result<Vec<u8>, EmbedError> {
            std::fs::read(dir.join(name)).map_err(|e| model_err(format!("{name}: {e}")))
        };
        let manifest: RerankerManifest = serde_json::from_slice(&read("nyaya-reranker.json")?)
            .map_err(|e| model_err(format!("nyaya-reranker.json: {e}")))?;
        let tokenizer_files = TokenizerFiles {
            tokenizer_file: read("tokenizer.json")?,
            config_file: read("config.json")?,
            special_tokens_map_file: read("special_tokens_map.json")?,
            tokenizer_config_file: read("tokenizer_config.json")?,
        };
        let onnx: PathBuf = dir.join(&manifest.onnx);
        let model = UserDefinedRerankingModel::new(onnx, tokenizer_files);
        let options = RerankInitOptionsUserDefined::new()
            .with_environment(crate::embed::ort_environment(ort_lib)?)
            .with_max_length(manifest.max_tokens);
        let model = TextRerank::try_new_from_user_defined(model, options)
            .map_err(|e| model_err(e.to_string()))?;
        Ok(OnnxCrossEncoder {
            manifest,
            model: Mutex::new(model),
        })
    }
}

impl CrossEncoder for OnnxCrossEncoder {
    fn id(&self) -> &str {
        &self.manifest.id
    }

    fn score(&self, query: &str, passages: &[String]) -> Result<Vec<f32>, EmbedError> {
        let docs: Vec<&str> = passages.iter().map(String::as_str).collect();
        let mut model = self
            .model
            .lock()
            .map_err(|_| EmbedError::Run("the reranker lock is poisoned".into()))?;
        let results = model
            .rerank(query, docs, false, Some(16))
            .map_err(|e| EmbedError::Run(e.to_string()))?;
        let mut scores = vec![f32::MIN; passages.len()];
        for r in results {
            if let Some(s) = scores.get_mut(r.index) {
                *s = r.score;
            }
        }
        Ok(scores)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(id: &str, fused: f64, dense: f64, lexical: f64, title: f64) -> Features {
        Features {
            ref_id: id.parse().unwrap(),
            fused,
            dense_best: dense,
            lexical_best: lexical,
            title_share: title,
        }
    }

    #[test]
    fn a_heading_that_says_the_query_lifts_its_provision() {
        // 21 is fused first by a hair; 21A's heading is "Right to education" and its chunk
        // is closer.
        let c = [
            f("21", 0.0330, 0.55, 0.4, 0.0),
            f("21A", 0.0325, 0.60, 0.3, 1.0),
        ];
        let out = rescore(&c, &Weights::default());
        assert_eq!(out[0].0.as_str(), "21A");
    }

    #[test]
    fn zero_weights_keep_the_first_stage_order() {
        let c = [f("14", 0.03, 0.1, 0.0, 0.0), f("15", 0.02, 0.9, 1.0, 1.0)];
        let w = Weights {
            fused: 0.0,
            dense: 0.0,
            lexical: 0.0,
            title: 0.0,
        };
        let ids: Vec<String> = rescore(&c, &w)
            .into_iter()
            .map(|(r, _)| r.to_string())
            .collect();
        assert_eq!(ids, ["14", "15"]);
    }

    #[test]
    fn weights_parse() {
        assert_eq!("2,0.3,0,0.1".parse::<Weights>(), Ok(Weights::default()));
        assert!("1,2".parse::<Weights>().is_err());
        assert!("a,b,c,d".parse::<Weights>().is_err());
    }

    #[test]
    fn a_missing_cross_encoder_folder_is_a_typed_error() {
        let err = OnnxCrossEncoder::load(
            Path::new("/nonexistent/reranker"),
            Path::new("/nonexistent/libonnxruntime.so"),
        )
        .err()
        .expect("no folder, no model");
        assert!(
            matches!(&err, EmbedError::Model { reason, .. } if reason.contains("nyaya-reranker.json")),
            "{err}"
        );
    }

    #[test]
    fn empty_candidates_rescore_to_nothing() {
        assert!(rescore(&[], &Weights::default()).is_empty());
    }
}
