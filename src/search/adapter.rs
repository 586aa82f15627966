//! The query adapter: a linear map, learned from questions written in users' words, that moves
//! an English question's MiniLM vector towards the chunks of the provision that answers it
//! before the dense leg searches (ADR 0014).
//!
//! MiniLM places "Who is the central government's top lawyer?" near whatever passage says
//! "lawyer" or "government"; it never learned that such a question is asked of Article 76. A
//! matrix `A` fitted on the hand-written questions of `data/train/written.jsonl` (each under
//! the provision it asks about; `nyaya train-adapter`, [`crate::train::adapter`]) maps a
//! question vector `q` to `q + A·q`, normalised: what the questions about a provision share,
//! and the text of that provision does not, is learned once and then carries to wordings it
//! never saw. Only the dense leg's search reads the mapped vector: how close the text came to
//! the question (the "not covered" judgement), the question bank and the answer's clause
//! scoring keep the model's own vector, so their calibrations stand.
//!
//! The shipped adapter is `data/query_adapter.json` (what it was fitted on and how) and
//! `data/query_adapter.bin` (the matrix, row-major little-endian f32), compiled in. It belongs
//! to one embedding model and is applied only to that model's vectors.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

/// What an adapter was fitted on and how; the matrix's shape and model are checked on load.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdapterInfo {
    /// The embedding model whose question vectors the matrix maps.
    pub model_id: String,
    pub dim: usize,
    /// sha256 of `data/train/written.jsonl`, the questions it was fitted on.
    pub data_sha256: String,
    /// Questions fitted (after the held-out ones were dropped).
    pub questions: usize,
    /// Written questions left out because they are near-copies (cosine ≥
    /// [`crate::train::adapter::HOLDOUT_COSINE`]) of a question some evaluation asks.
    pub held_out: usize,
    /// The edition whose chunk vectors were the targets, by its cover date.
    pub edition: String,
    /// sha256 of those chunks as the parser left them ([`crate::train::corpus_sha256`]): a
    /// parser change moves the vectors, and so the fit, without touching `data_sha256`. Empty
    /// in a file from before stop 66.
    #[serde(default)]
    pub corpus_sha256: String,
    pub l2: f64,
    pub temperature: f64,
    pub steps: usize,
    pub learning_rate: f64,
    /// The training loss at the end, and how often the right provision's chunk was the closest
    /// of all chunks before and after (training questions).
    pub loss: f64,
    pub top1_before: f64,
    pub top1_after: f64,
    /// sha256 of the matrix file.
    pub matrix_sha256: String,
}

/// A fitted adapter: the matrix `A` (row-major, `dim × dim`) and what it was fitted on.
#[derive(Debug, Clone)]
pub struct QueryAdapter {
    pub info: AdapterInfo,
    matrix: Vec<f32>,
}

const BUILTIN_INFO: &str = include_str!("../../data/query_adapter.json");
const BUILTIN_MATRIX: &[u8] = include_bytes!("../../data/query_adapter.bin");

static BUILTIN: LazyLock<Result<QueryAdapter, String>> =
    LazyLock::new(|| QueryAdapter::from_parts(BUILTIN_INFO, BUILTIN_MATRIX));

/// A matrix as its file holds it: row-major, little-endian f32.
pub fn matrix_bytes(matrix: &[f32]) -> Vec<u8> {
    matrix.iter().flat_map(|x| x.to_le_bytes()).collect()
}

impl QueryAdapter {
    /// Reads an adapter from its description and its matrix file.
    ///
    /// # Errors
    /// Malformed JSON, or a matrix whose length or hash is not the description's.
    pub fn from_parts(info_json: &str, matrix: &[u8]) -> Result<QueryAdapter, String> {
        let info: AdapterInfo =
            serde_json::from_str(info_json).map_err(|e| format!("adapter description: {e}"))?;
        if matrix.len() != info.dim * info.dim * 4 {
            return Err(format!(
                "adapter matrix: {} bytes, a {d}×{d} f32 matrix has {}",
                matrix.len(),
                info.dim * info.dim * 4,
                d = info.dim
            ));
        }
        let sha = nyaya_ingest::sha256_hex(matrix);
        if sha != info.matrix_sha256 {
            return Err(format!(
                "adapter matrix: sha256 {sha}, the description says {}",
                info.matrix_sha256
            ));
        }
        Ok(QueryAdapter {
            info,
            matrix: matrix
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect(),
        })
    }

    #[cfg(test)]
    fn new(info: AdapterInfo, matrix: Vec<f32>) -> QueryAdapter {
        QueryAdapter { info, matrix }
    }

    /// The shipped adapter (a unit test checks it loads).
    ///
    /// # Errors
    /// The compiled-in files do not agree.
    pub fn builtin() -> Result<&'static QueryAdapter, String> {
        BUILTIN.as_ref().map_err(Clone::clone)
    }

    /// The shipped adapter, when it was fitted for `model_id`'s vectors.
    pub fn for_model(model_id: &str) -> Option<&'static QueryAdapter> {
        QueryAdapter::builtin()
            .ok()
            .filter(|a| a.info.model_id == model_id)
    }

    /// The matrix, row-major.
    pub fn matrix(&self) -> &[f32] {
        &self.matrix
    }

    /// `q + A·q`, normalised to unit length; `q` itself when its length is not the
    /// adapter's.
    pub fn apply(&self, q: &[f32]) -> Vec<f32> {
        let d = self.info.dim;
        if q.len() != d {
            return q.to_vec();
        }
        let mut out: Vec<f32> = self
            .matrix
            .chunks_exact(d)
            .zip(q)
            .map(|(row, x)| x + row.iter().zip(q).map(|(a, b)| a * b).sum::<f32>())
            .collect();
        let norm = out.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 {
            out.iter_mut().for_each(|x| *x /= norm);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(dim: usize, matrix: &[f32]) -> AdapterInfo {
        let bytes = matrix_bytes(matrix);
        AdapterInfo {
            model_id: "m".into(),
            dim,
            data_sha256: String::new(),
            questions: 0,
            held_out: 0,
            edition: String::new(),
            corpus_sha256: String::new(),
            l2: 0.0,
            temperature: 0.0,
            steps: 0,
            learning_rate: 0.0,
            loss: 0.0,
            top1_before: 0.0,
            top1_after: 0.0,
            matrix_sha256: nyaya_ingest::sha256_hex(&bytes),
        }
    }

    #[test]
    fn the_shipped_adapter_loads_and_maps_to_unit_vectors() {
        let a = QueryAdapter::builtin().expect("the shipped adapter loads");
        assert_eq!(a.matrix.len(), a.info.dim * a.info.dim);
        let q: Vec<f32> = (0..a.info.dim).map(|i| ((i % 7) as f32) - 3.0).collect();
        let out = a.apply(&q);
        let norm: f32 = out.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-4, "{norm}");
        assert!(QueryAdapter::for_model(&a.info.model_id).is_some());
        assert!(QueryAdapter::for_model("another/model").is_none());
    }

    #[test]
    fn the_zero_matrix_only_normalises() {
        let m = vec![0.0f32; 4];
        let a = QueryAdapter::new(info(2, &m), m);
        assert_eq!(a.apply(&[3.0, 4.0]), vec![0.6, 0.8]);
        // A vector of another length passes unchanged.
        assert_eq!(a.apply(&[1.0, 2.0, 3.0]), vec![1.0, 2.0, 3.0]);
    }

    #[test]
    fn the_matrix_maps_rows_onto_the_vector() {
        // A = [[0, 1], [0, 0]]: (1, 0) ↦ (1, 0) + (0, 0); (0, 1) ↦ (0, 1) + (1, 0).
        let m = vec![0.0f32, 1.0, 0.0, 0.0];
        let a = QueryAdapter::new(info(2, &m), m);
        assert_eq!(a.apply(&[1.0, 0.0]), vec![1.0, 0.0]);
        let v = a.apply(&[0.0, 1.0]);
        assert!((v[0] - v[1]).abs() < 1e-6 && v[0] > 0.7);
    }

    #[test]
    fn a_file_that_disagrees_with_its_description_is_refused() {
        let m = vec![0.0f32, 1.0, 0.0, 0.0];
        let i = info(2, &m);
        let json = serde_json::to_string(&i).unwrap();
        let bytes = matrix_bytes(&m);
        assert!(QueryAdapter::from_parts(&json, &bytes).is_ok());
        assert!(QueryAdapter::from_parts(&json, &bytes[..12]).is_err());
        let mut other = bytes.clone();
        other[0] ^= 1;
        assert!(QueryAdapter::from_parts(&json, &other).is_err());
    }
}
