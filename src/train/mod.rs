//! `nyaya train`: the learned second stage, from the corpus to `data/second_stage.json` and
//! `data/second_stage_one_list.json` (one model per way a head is fused, [`Heads`]).
//!
//! 1. **Generate** questions from every stored provision ([`questions`]), or take the ones
//!    written by hand from the text (`data/train/written.jsonl`: users' words, situations, the
//!    Union and the States contrasted; measured and not shipped, ADR 0008), or both
//!    ([`Teacher`]); drop any that match a golden or paraphrase question (the golden set never
//!    enters training; a test checks the shipped file too). Written to
//!    `data/train/questions.jsonl`, whose sha256 the model keeps.
//! 2. **Mine** each question's head: the real first stage (unpinned, glossary on) fuses its
//!    candidates and the learned stage computes their feature rows — so the negatives are the
//!    near-misses today's retriever actually makes (High Court for Supreme Court, Legislative
//!    Council for Council of States …). Questions whose source is not in the head teach the
//!    ranker nothing and are counted, not fitted.
//!    Mined twice: with multilingual-e5's second dense list fused (the heads of questions in
//!    Latin letters) and without it (no e5 vectors, or `NYAYA_SECOND_DENSE=false`).
//! 3. **Fit** a linear ranker per kind of head by listwise softmax ([`fit`]) and write both.
//!
//! Deterministic: the same corpus, model and database give the same file, bit for bit (the
//! HNSW index can differ between ingests, so across ingests the weights agree within the
//! tolerance `--check` uses).

pub mod adapter;
pub mod fit;
pub mod questions;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use sqlx::PgPool;

use crate::error::{AppError, AppResult};
use crate::search::bank::WRITTEN_JSONL;
use crate::search::glossary::Glossary;
use crate::search::ltr::{Heads, LtrModel, TrainingInfo};
use crate::search::{search, Models, SearchOptions};
use crate::store;
use questions::{Everyday, Generated};

/// Candidates per head, as the learned stage re-orders at search time.
pub const HEAD: usize = 30;
/// The L2 penalty (on standardised features).
pub const L2: f64 = 0.01;
/// Newton steps at most (it converges in far fewer).
pub const MAX_ITERATIONS: usize = 50;
/// How far a retrained weight may be from the shipped one for `--check` to pass.
pub const TOLERANCE: f64 = 0.05;

/// Questions in Hindi (Devanagari) written from the text, each with the provision that
/// governs it: what [`Heads::IndianScript`]'s model is fitted on. Never the golden set (a test
/// checks); the fresh Hindi set (`eval/written/hi_fresh.jsonl`) and the multilingual golden
/// set judge the model.
pub const WRITTEN_HINDI_JSONL: &str = include_str!("../../eval/written/hi.jsonl");

/// The sets that judge the Indian-script model: no question of theirs is fitted on.
const HINDI_JUDGES: [(&str, &str); 2] = [
    (
        "eval/golden/multilingual.jsonl",
        include_str!("../../eval/golden/multilingual.jsonl"),
    ),
    (
        "eval/written/hi_fresh.jsonl",
        include_str!("../../eval/written/hi_fresh.jsonl"),
    ),
];

/// Every question of the golden set, the paraphrase suite and [`HINDI_JUDGES`], normalised.
pub fn held_out_hindi_questions() -> Result<BTreeSet<String>, AppError> {
    #[derive(serde::Deserialize)]
    struct Asked {
        question: String,
    }
    let mut held = held_out_questions()?;
    for (path, text) in HINDI_JUDGES {
        let asked: Vec<Asked> = crate::search::bank::parse(text)
            .map_err(|e| AppError::BadRequest(format!("{path}: {e}")))?;
        held.extend(asked.iter().map(|a| questions::normalise(&a.question)));
    }
    Ok(held)
}

/// [`WRITTEN_HINDI_JSONL`]'s questions in file order, each with its `form` as its template,
/// less those `held_out` holds (the same question in a set that judges the model), and how
/// many were left out.
///
/// # Errors
/// A line that is not a question with a provision id.
pub fn written_hindi(held_out: &BTreeSet<String>) -> Result<(Vec<Generated>, usize), AppError> {
    #[derive(serde::Deserialize)]
    struct Line {
        question: String,
        #[serde(rename = "ref")]
        ref_id: String,
        #[serde(default)]
        form: String,
    }
    let lines: Vec<Line> = crate::search::bank::parse(WRITTEN_HINDI_JSONL)
        .map_err(|e| AppError::BadRequest(format!("eval/written/hi.jsonl: {e}")))?;
    let n = lines.len();
    let kept: Vec<Generated> = lines
        .into_iter()
        .filter(|l| !held_out.contains(&questions::normalise(&l.question)))
        .map(|l| Generated {
            question: l.question,
            ref_id: l.ref_id,
            template: l.form,
        })
        .collect();
    let dropped = n - kept.len();
    Ok((kept, dropped))
}

/// The hand-written questions, in file order.
///
/// # Errors
/// A line that is not a question with a canonical provision id (a unit test rules it out for
/// the shipped file).
pub fn written() -> Result<Vec<Generated>, AppError> {
    let mut out = Vec::new();
    for (i, line) in WRITTEN_JSONL.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let g: Generated = serde_json::from_str(line).map_err(|e| {
            AppError::BadRequest(format!("data/train/written.jsonl line {}: {e}", i + 1))
        })?;
        let canonical = g
            .ref_id
            .parse::<nyaya_ingest::RefId>()
            .ok()
            .map(|r| r.to_string());
        if canonical.as_deref() != Some(g.ref_id.as_str()) {
            return Err(AppError::BadRequest(format!(
                "data/train/written.jsonl line {}: {:?} is not a canonical provision id",
                i + 1,
                g.ref_id
            )));
        }
        out.push(g);
    }
    Ok(out)
}

/// Which questions teach the ranker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Teacher {
    /// Generated from the stored text by templates (the shipped model's teacher).
    Generated,
    /// Written by hand (`data/train/written.jsonl`).
    Written,
    /// Generated, then written.
    Both,
}

/// The teacher's questions for the stored corpus (generated ones first), golden and
/// paraphrase questions removed. Returns the questions and how many were dropped for overlap.
///
/// # Errors
/// A written question about a provision the newest stored edition does not hold.
pub async fn generate(
    pool: &PgPool,
    held_out: &BTreeSet<String>,
    teacher: Teacher,
) -> AppResult<(Vec<Generated>, usize)> {
    let everyday = Everyday::from_glossary(Glossary::builtin());
    // The newest edition: the one searches read unless told otherwise.
    let document_id = store::resolve_edition(pool, None).await?.document_id;
    let toc = store::list_provisions(pool, document_id, None, None).await?;
    let mut asked = Vec::new();
    let known: BTreeSet<String> = toc.iter().map(|e| e.ref_id.clone()).collect();
    let templated = if teacher == Teacher::Written {
        &[][..]
    } else {
        &toc[..]
    };
    for entry in templated {
        let id = entry.ref_id.parse().map_err(|_| AppError::UnknownRef {
            query: entry.ref_id.clone(),
        })?;
        let Some(view) = store::get_provision(pool, document_id, &id).await? else {
            continue;
        };
        asked.extend(questions::for_provision(&view, &everyday));
    }
    if teacher != Teacher::Generated {
        for g in written()? {
            if !known.contains(&g.ref_id) {
                return Err(AppError::UnknownRef { query: g.ref_id });
            }
            asked.push(g);
        }
    }
    let n = asked.len();
    let out: Vec<Generated> = asked
        .into_iter()
        .filter(|g| !overlaps(&g.question, held_out))
        .collect();
    let dropped = n - out.len();
    Ok((out, dropped))
}

/// A generated question the golden set (or its paraphrases) also asks: the same words, or
/// nearly (token Jaccard ≥ 0.8).
pub fn overlaps(question: &str, held_out: &BTreeSet<String>) -> bool {
    let q = questions::normalise(question);
    if held_out.contains(&q) {
        return true;
    }
    let mine: BTreeSet<&str> = q.split(' ').collect();
    held_out.iter().any(|h| {
        let theirs: BTreeSet<&str> = h.split(' ').collect();
        let inter = mine.intersection(&theirs).count() as f64;
        let union = mine.union(&theirs).count() as f64;
        union > 0.0 && inter / union >= 0.8
    })
}

/// Every golden question (both splits) and every wording of the paraphrase suite, romanised
/// ones too, as written.
fn golden_and_paraphrase_questions() -> Result<Vec<String>, AppError> {
    let golden = nyaya_eval::GoldenSet::load(nyaya_eval::default_golden_path())
        .map_err(|e| AppError::BadRequest(format!("golden set: {e}")))?;
    let paraphrases = nyaya_eval::ParaphraseSet::load(
        nyaya_eval::paraphrase::default_paraphrases_path(),
        &golden,
    )
    .map_err(|e| AppError::BadRequest(format!("paraphrases: {e}")))?;
    let mut out: Vec<String> = golden.cases().iter().map(|c| c.question.clone()).collect();
    for g in paraphrases.groups() {
        out.extend(
            g.wordings()
                .chain(g.romanised_hindi.as_deref())
                .map(str::to_string),
        );
    }
    Ok(out)
}

/// Every golden question and every wording of the paraphrase suite, normalised.
pub fn held_out_questions() -> Result<BTreeSet<String>, AppError> {
    Ok(golden_and_paraphrase_questions()?
        .iter()
        .map(|q| questions::normalise(q))
        .collect())
}

/// Every question an evaluation asks, as written: the golden set and its paraphrases, the
/// outside refusal sets (`eval/outside/scope.jsonl`, `eval/outside/scope_fresh.jsonl`), the
/// multilingual golden set and the fresh English set (`eval/written/en_fresh.jsonl`). The
/// question bank never repeats one, and the query adapter never trains on a near-copy of one
/// ([`adapter::HOLDOUT_COSINE`]).
pub fn evaluated_questions() -> Result<Vec<String>, AppError> {
    let mut out = golden_and_paraphrase_questions()?;
    for file in [
        include_str!("../../eval/outside/scope.jsonl"),
        include_str!("../../eval/outside/scope_fresh.jsonl"),
        include_str!("../../eval/golden/multilingual.jsonl"),
        include_str!("../../eval/written/en_fresh.jsonl"),
    ] {
        for line in file.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line)
                .map_err(|e| AppError::BadRequest(format!("an evaluated case: {e}")))?;
            if let Some(q) = v["question"].as_str() {
                out.push(q.to_string());
            }
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// What the query adapter is fitted on.
pub struct AdapterData {
    pub problem: adapter::Problem,
    /// Written questions left out as near-copies of evaluated ones.
    pub held_out: usize,
    /// The edition whose chunks are the targets, by its date.
    pub edition: String,
    /// Those chunks' [`corpus_sha256`].
    pub corpus_sha256: String,
    /// sha256 of `data/train/written.jsonl`.
    pub data_sha256: String,
}

/// The adapter's training problem from the newest edition's chunk vectors and the written
/// questions, near-copies of evaluated questions left out.
///
/// # Errors
/// The edition has no vectors of `embedder`'s model, or a written question names a provision
/// it does not hold.
pub async fn adapter_problem(
    pool: &PgPool,
    embedder: &dyn crate::embed::Embedder,
) -> AppResult<AdapterData> {
    use ndarray::Array2;
    let edition = store::resolve_edition(pool, None).await?;
    let model_id = embedder.manifest().id.clone();
    // In reading order, so that the fit sums in the same order on every run.
    let rows: Vec<(String, String, String, Vec<f32>)> = sqlx::query_as(
        "SELECT c.ref_id, c.heading, c.text, c.embedding::real[] FROM chunks c
         JOIN provisions p ON p.document_id = c.document_id AND p.ref_id = c.ref_id
         WHERE c.document_id = $1 AND c.embedding_model = $2 AND c.embedding IS NOT NULL
         ORDER BY p.ordinal, c.seq",
    )
    .bind(edition.document_id)
    .bind(&model_id)
    .fetch_all(pool)
    .await?;
    if rows.is_empty() {
        return Err(AppError::ModelUnavailable(format!(
            "the edition of {} has no chunk vectors of {model_id}; run `nyaya ingest`",
            edition.date
        )));
    }
    let corpus_sha256 = corpus_sha256(
        rows.iter()
            .map(|(r, h, t, _)| (r.as_str(), h.as_str(), t.as_str())),
    );
    let dim = rows[0].3.len();
    let to_matrix = |vectors: Vec<Vec<f32>>| -> AppResult<Array2<f32>> {
        let n = vectors.len();
        Array2::from_shape_vec((n, dim), vectors.into_iter().flatten().collect())
            .map_err(|e| AppError::Resource(format!("vectors of unequal length: {e}")))
    };
    let refs: Vec<String> = rows.iter().map(|(r, ..)| r.clone()).collect();
    let chunks = to_matrix(rows.into_iter().map(|(.., v)| v).collect())?;
    let written = written()?;
    let embed = |texts: Vec<String>| -> AppResult<Array2<f32>> {
        let prefix = &embedder.manifest().query_prefix;
        let q: Vec<String> = texts.iter().map(|t| format!("{prefix}{t}")).collect();
        let mut out = Vec::with_capacity(q.len());
        for batch in q.chunks(64) {
            out.extend(embedder.embed_raw(batch)?);
        }
        to_matrix(out)
    };
    let questions = embed(written.iter().map(|g| g.question.clone()).collect())?;
    let evaluated = embed(evaluated_questions()?)?;
    let near = adapter::near_copies(&questions, &evaluated);
    let mut kept_rows = Vec::new();
    let mut positives = Vec::new();
    for (i, g) in written.iter().enumerate() {
        let own: Vec<usize> = (0..refs.len()).filter(|&j| refs[j] == g.ref_id).collect();
        if own.is_empty() {
            return Err(AppError::UnknownRef {
                query: g.ref_id.clone(),
            });
        }
        if !near[i] {
            kept_rows.push(i);
            positives.push(own);
        }
    }
    let held_out = written.len() - kept_rows.len();
    let problem = adapter::Problem {
        questions: questions.select(ndarray::Axis(0), &kept_rows),
        chunks,
        positives,
    };
    Ok(AdapterData {
        problem,
        held_out,
        edition: edition.date.to_string(),
        corpus_sha256,
        data_sha256: nyaya_ingest::sha256_hex(WRITTEN_JSONL.as_bytes()),
    })
}

/// sha256 of chunks (provision, heading, text), in the order given: what says whether two
/// fits read the same corpus.
pub fn corpus_sha256<'a>(chunks: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>) -> String {
    let mut joined = String::new();
    for (ref_id, heading, text) in chunks {
        for field in [ref_id, heading, text] {
            joined.push_str(field);
            joined.push('\u{1f}');
        }
        joined.push('\u{1e}');
    }
    nyaya_ingest::sha256_hex(joined.as_bytes())
}

/// The JSONL text of the generated questions (the file the model's hash is of).
pub fn to_jsonl(questions: &[Generated]) -> String {
    questions
        .iter()
        .map(|g| serde_json::to_string(g).unwrap_or_default() + "\n")
        .collect()
}

/// What mining found: the fitted lists and how the sources fared in the first stage.
pub struct Mined {
    pub lists: Vec<fit::List>,
    /// Questions whose source was not in the head.
    pub missed: usize,
    /// Per template: (questions, source first in the fused order, source in the head).
    pub by_template: BTreeMap<String, (usize, usize, usize)>,
}

/// Runs the first stage for every question, its head fused as `heads` says, and keeps the
/// head's feature rows.
pub async fn mine(
    pool: &PgPool,
    models: &Models,
    base: &SearchOptions,
    heads: Heads,
    questions: &[Generated],
) -> AppResult<Mined> {
    let opts = SearchOptions {
        pin: false,
        hop: false,
        k: HEAD,
        rerank_depth: HEAD,
        second_stage: crate::search::rerank::SecondStage::Learned,
        second_dense: heads.second_dense_list(),
        // Written questions may have near-copies in the question bank, whose closeness is a
        // feature of the Indian-script model: left out as `nyaya eval` leaves them out.
        bank_holdout: (heads == Heads::IndianScript)
            .then_some(crate::search::bank::EVAL_HOLDOUT_COSINE)
            .or(base.bank_holdout),
        // The Indian-script rows are computed only where its model runs (off by default); the
        // rows are of the fused head, before the model moves it.
        indian_script_ranker: heads == Heads::IndianScript,
        ..base.clone()
    };
    let mut mined = Mined {
        lists: Vec::new(),
        missed: 0,
        by_template: BTreeMap::new(),
    };
    for (i, g) in questions.iter().enumerate() {
        let r = search(pool, models, &g.question, &opts, format!("train-{i}")).await?;
        let stats = mined.by_template.entry(g.template.clone()).or_default();
        stats.0 += 1;
        match r.head_rows.iter().position(|(id, _)| *id == g.ref_id) {
            Some(pos) => {
                stats.1 += (pos == 0) as usize;
                stats.2 += 1;
                mined.lists.push(fit::List {
                    rows: r.head_rows.into_iter().map(|(_, row)| row).collect(),
                    positive: pos,
                });
            }
            None => mined.missed += 1,
        }
    }
    Ok(mined)
}

/// Fits the model on mined lists.
pub fn train(mined: &Mined, heads: Heads, questions: usize, data_sha256: String) -> LtrModel {
    let features = heads.features();
    let fitted = fit::fit(&mined.lists, features.len(), L2, MAX_ITERATIONS);
    LtrModel {
        id: format!(
            "linear listwise ranker over {HEAD} candidates, {} features",
            features.len()
        ),
        features: features.iter().map(|s| s.to_string()).collect(),
        mean: fitted.mean,
        scale: fitted.scale,
        weights: fitted.weights,
        training: TrainingInfo {
            data_sha256,
            questions,
            lists: mined.lists.len(),
            head: HEAD,
            l2: L2,
            iterations: fitted.iterations,
            loss: fitted.loss,
            top1: fitted.top1,
        },
    }
}

/// The largest difference between two models' weights (and whether they saw the same data).
pub fn distance(a: &LtrModel, b: &LtrModel) -> f64 {
    a.weights
        .iter()
        .zip(&b.weights)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// Writes a file, creating its folder.
pub fn write(path: &Path, text: &str) -> AppResult<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| AppError::Resource(format!("{}: {e}", dir.display())))?;
    }
    std::fs::write(path, text).map_err(|e| AppError::Resource(format!("{}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlap_is_equality_or_near_equality_of_words() {
        let held: BTreeSet<String> = ["who appoints the governor".to_string()].into();
        assert!(overlaps("Who appoints the Governor?", &held));
        assert!(!overlaps("who appoints the governor of a state", &held));
        assert!(!overlaps("How is the Governor removed?", &held));
    }

    #[test]
    fn the_corpus_hash_sees_every_field_and_its_bounds() {
        let one = corpus_sha256([("21", "Protection of life", "No person shall")]);
        assert_eq!(
            one,
            corpus_sha256([("21", "Protection of life", "No person shall")])
        );
        assert_ne!(
            one,
            corpus_sha256([("21", "Protection of life", "No person shall.")])
        );
        assert_ne!(
            one,
            corpus_sha256([("21", "Protection of lif", "eNo person shall")])
        );
        assert_ne!(
            corpus_sha256([("1", "a", "b"), ("2", "c", "d")]),
            corpus_sha256([("2", "c", "d"), ("1", "a", "b")])
        );
    }

    #[test]
    fn written_questions_name_canonical_provisions() {
        let w = written().expect("data/train/written.jsonl parses");
        assert!(w.len() > 500, "{} written questions", w.len());
        assert!(w.iter().all(|g| g.template == "written"));
        let distinct: BTreeSet<String> = w
            .iter()
            .map(|g| questions::normalise(&g.question))
            .collect();
        assert_eq!(distinct.len(), w.len(), "a written question is repeated");
    }

    /// Neither side of the question bank (answerable, unanswerable) repeats a question the
    /// evaluation asks ([`evaluated_questions`]).
    #[test]
    fn the_bank_never_repeats_an_evaluated_question() {
        let held: BTreeSet<String> = evaluated_questions()
            .expect("the evaluated sets load")
            .iter()
            .map(|q| questions::normalise(q))
            .collect();
        let bank = written().expect("data/train/written.jsonl parses");
        let unanswerable = crate::search::bank::shipped_out_of_scope();
        let asked: Vec<&str> = bank
            .iter()
            .map(|g| g.question.as_str())
            .chain(unanswerable.iter().map(|u| u.question.as_str()))
            .filter(|q| held.contains(&questions::normalise(q)))
            .collect();
        assert!(asked.is_empty(), "{asked:?}");
    }

    /// The shipped query adapter was fitted on the shipped written questions: a change to the
    /// file needs `make train` (the adapter, then the learned stage that reads its cosines).
    #[test]
    fn the_shipped_adapter_was_fitted_on_the_shipped_written_questions() {
        let a = crate::search::adapter::QueryAdapter::builtin().expect("the adapter loads");
        assert_eq!(
            a.info.data_sha256,
            nyaya_ingest::sha256_hex(WRITTEN_JSONL.as_bytes())
        );
        assert_eq!(a.info.steps, adapter::STEPS);
        assert!(a.info.top1_after > a.info.top1_before);
    }

    /// The shipped training data never asks a golden or paraphrase question, and both shipped
    /// models were fitted on exactly that file.
    #[test]
    fn shipped_training_data_is_held_out_and_matches_the_model() {
        let text = include_str!("../../data/train/questions.jsonl");
        let held = held_out_questions().expect("golden set and paraphrases load");
        let mut overlapping = Vec::new();
        let mut n = 0;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let g: Generated = serde_json::from_str(line).expect("a generated question");
            n += 1;
            if overlaps(&g.question, &held) {
                overlapping.push(g.question);
            }
        }
        assert!(n > 500, "{n} questions");
        assert!(overlapping.is_empty(), "{overlapping:?}");
        for heads in Heads::ALL {
            let model = LtrModel::builtin(heads);
            assert_eq!(
                model.training.data_sha256,
                nyaya_ingest::sha256_hex(text.as_bytes()),
                "{heads:?}"
            );
            assert_eq!(model.training.questions, n, "{heads:?}");
        }
    }

    /// The Indian-script model was fitted on the written Hindi questions less every question a
    /// judging set asks, and the file itself asks none of the golden set's.
    #[test]
    fn the_indian_script_model_was_fitted_on_held_out_hindi_questions() {
        let held = held_out_hindi_questions().expect("the judging sets load");
        let (kept, dropped) = written_hindi(&held).expect("hi.jsonl loads");
        assert!(kept.len() > 1500, "{} questions", kept.len());
        assert!(dropped < 50, "{dropped} dropped");
        assert!(kept
            .iter()
            .all(|g| !held.contains(&questions::normalise(&g.question))));
        let model = LtrModel::builtin(Heads::IndianScript);
        assert_eq!(
            model.training.data_sha256,
            nyaya_ingest::sha256_hex(to_jsonl(&kept).as_bytes())
        );
        assert_eq!(model.training.questions, kept.len());
        assert!(kept
            .iter()
            .all(|g| g.ref_id.parse::<nyaya_ingest::RefId>().is_ok()));
    }
}
