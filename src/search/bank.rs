//! The question bank: questions people ask, each labelled with the provision that governs it.
//! The second stage moves a head candidate up when the question is close to one the bank
//! files under it, and down when the bank's closest questions are about another candidate:
//! "what do people who ask like this mean?" answered from questions in users' words, which
//! headings and clause text are not (ADR 0008, stop 32).
//!
//! The bank is the 3,422 questions of `data/train/written.jsonl`, written by hand from the
//! text by people barred from the golden set (1,029 at stop 30, two more rounds at stop 33,
//! 745 at stop 34: questions that look out of scope but are not, situations, and the thin
//! Articles'). Its vectors are the configured model's, embedded once per database (13 s on
//! 2 cores, by `nyaya ingest` or by the `nyaya serve` that ingests) and stored in
//! `bank_vectors`; a process loads them once (under 0.1 s): `nyaya serve` before it listens,
//! `nyaya eval` and `nyaya bench` before they measure, any other in the first search that
//! needs them.
//!
//! The bank also holds questions the text does *not* answer (`data/train/out_of_scope.jsonl`,
//! 1,035 of them: other statutes, case law, current affairs, other countries, general
//! knowledge, opinions, creative tasks, injections), each with the refusal class it calls for.
//! [`QuestionBank::scope_vote`] compares a question's closest unanswerable questions with its
//! closest answerable ones: a question that reads like the former is refused as its closest
//! one is, which word lists alone never generalised to (ADR 0005, stop 34).
//!
//! The multilingual model reads the same answerable questions across languages
//! ([`Sources::CrossLingual`]): a question in Hindi or Tamil has no learned stage, and
//! [`reorder_head`] moves its fused head by how close each candidate's questions are to it
//! (ADR 0013, stop 35).
//!
//! Measured honestly: `nyaya eval` searches with [`SearchOptions::bank_holdout`] set, so that a
//! golden question's own near-copies in the bank (cosine ≥ [`EVAL_HOLDOUT_COSINE`]) do not
//! count; what it reports is the bank's effect on a question nobody wrote down before.
//!
//! [`SearchOptions::bank_holdout`]: super::SearchOptions::bank_holdout

use std::collections::HashMap;
use std::sync::Arc;

use serde::Deserialize;

use sqlx::PgPool;

use super::fusion::Fused;
use crate::embed::{EmbedError, Embedder};
use crate::scope::OutOfScope;
use crate::store;
use crate::tier::{self, Tiers};

/// The hand-written questions, one JSON object a line (`question`, `ref`, `template`): the
/// bank, and a teacher `nyaya train --teacher written` can fit the ranker on (ADR 0008).
pub(crate) const WRITTEN_JSONL: &str = include_str!("../../data/train/written.jsonl");

/// Questions the text does not answer, one JSON object a line (`question`, `class`, `form`),
/// written by hand by people barred from the golden set and the outside refusal set (stop 34).
pub(crate) const OUT_OF_SCOPE_JSONL: &str = include_str!("../../data/train/out_of_scope.jsonl");

/// How many of its closest answerable and unanswerable questions [`QuestionBank::scope_vote`]
/// averages on each side.
pub const SCOPE_NEIGHBOURS: usize = 5;

/// How much closer (mean cosine of the [`SCOPE_NEIGHBOURS`] closest) a question must be to the
/// unanswerable questions than to the answerable ones to be refused. Chosen on the dev halves
/// of the golden set and the outside refusal set, the dev paraphrases and the bank itself
/// (each question left out of its own vote) (ADR 0005, stop 34).
pub const SCOPE_MARGIN: f64 = 0.05;

/// And how close its closest unanswerable question must be at least: far from everything,
/// the vote is noise (the coverage threshold judges such a question).
pub const SCOPE_FLOOR: f64 = 0.5;

/// What `nyaya eval` leaves out of the bank for each question it asks: bank questions at least
/// this close to it (cosine) are the same question reworded, found rather than answered.
pub const EVAL_HOLDOUT_COSINE: f64 = 0.9;

/// How much a candidate's closeness to the bank (cosine, against the head's closest) adds to
/// its learned score (log-odds). Chosen on the dev split among 4 to 200 (ADR 0008, stop 32);
/// 0 switches the bank off.
pub const DEFAULT_WEIGHT: f64 = 20.0;

/// How much a candidate's closeness to the bank as e5 reads it ([`Sources::CrossLingual`],
/// the same answerable questions) adds to an English question's learned score, beside
/// [`DEFAULT_WEIGHT`]'s: two embedders' readings of "who asks like this" err apart. Chosen on
/// the bank itself (each question's near-copies held out) among 10 to 80 (ADR 0008, stop
/// 65); 0 switches it off.
pub const DEFAULT_E5_WEIGHT: f64 = 20.0;

/// The same for the multilingual model, whose cosines all sit high: a question and its
/// rewording meet at 0.97 and more, where two different questions on one subject can meet at
/// 0.95 (ADR 0013, stop 35).
pub const EVAL_HOLDOUT_MULTILINGUAL: f64 = 0.97;

/// How much a head candidate's closeness to the cross-lingual bank (cosine, against the
/// head's closest) outweighs one step down the fused order (in units of ln(1 + rank)). Chosen
/// on the multilingual golden set's dev split and on Hindi questions written from the text
/// (`eval/written/hi.jsonl`) (ADR 0013, stop 35); 0 switches it off.
pub const DEFAULT_MULTILINGUAL_WEIGHT: f64 = 160.0;

/// How many of a provision's closest questions its cross-lingual closeness averages: one
/// English question that happens to sit near a Hindi one is weaker evidence than two.
pub const CROSS_LINGUAL_NEIGHBOURS: usize = 2;

/// A bank question and the provision that governs it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Entry {
    pub question: String,
    #[serde(rename = "ref")]
    pub ref_id: String,
}

/// A question the text does not answer and the refusal it calls for.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Unanswerable {
    pub question: String,
    pub class: OutOfScope,
}

/// The shipped unanswerable questions, in file order.
///
/// # Panics
/// Never for the shipped file (a unit test parses it).
pub fn shipped_out_of_scope() -> Vec<Unanswerable> {
    parse(OUT_OF_SCOPE_JSONL).expect("data/train/out_of_scope.jsonl is a list of questions")
}

/// The shipped bank's entries, in file order.
///
/// # Panics
/// Never for the shipped file (a unit test parses it); a line that is not an entry would be a
/// build defect.
pub fn shipped() -> Vec<Entry> {
    parse(WRITTEN_JSONL).expect("data/train/written.jsonl is a list of entries")
}

/// Which questions a bank holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sources {
    /// The English model's: the answerable questions, which move the learned stage, and the
    /// unanswerable ones, which vote on scope.
    English,
    /// The multilingual model's: the answerable questions only, read across languages (a
    /// question in Hindi or Tamil meets the English question it means). Hindi questions
    /// were tried too and did not help: their closeness to a Hindi question is mostly of
    /// wording (ADR 0013, stop 35).
    CrossLingual,
}

impl Sources {
    pub const ALL: [Sources; 2] = [Sources::English, Sources::CrossLingual];

    fn unanswerable(self) -> Vec<Unanswerable> {
        match self {
            Sources::English => shipped_out_of_scope(),
            Sources::CrossLingual => Vec::new(),
        }
    }
}

/// Entries from JSONL text (blank lines skipped; fields the type does not name ignored).
pub fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<Vec<T>, serde_json::Error> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(serde_json::from_str)
        .collect()
}

/// The bank's questions as vectors of one model.
#[derive(Debug)]
pub struct QuestionBank {
    refs: Vec<String>,
    vectors: Vec<Vec<f32>>,
    /// The tiers of government each answerable question names ([`crate::tier::named_in`]).
    tiers: Vec<Tiers>,
    /// The unanswerable questions' classes and vectors.
    classes: Vec<OutOfScope>,
    out_vectors: Vec<Vec<f32>>,
}

/// What the bank says of a question's scope: how much closer it is to the unanswerable
/// questions than to the answerable ones, and the class of the closest unanswerable one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScopeVote {
    pub margin: f64,
    pub closest: f64,
    pub class: OutOfScope,
}

impl ScopeVote {
    /// The class to refuse with, when the vote is clear enough to refuse.
    pub fn refusal(&self) -> Option<OutOfScope> {
        (self.margin > SCOPE_MARGIN && self.closest >= SCOPE_FLOOR).then_some(self.class)
    }
}

/// Texts embedded now, with their vectors: what a bank adds to the store.
pub type Embedded = Vec<(String, Vec<f32>)>;

/// The texts a model embeds for `questions`: its query prefix, then the question.
pub fn texts<'a>(embedder: &dyn Embedder, questions: impl Iterator<Item = &'a str>) -> Vec<String> {
    let prefix = &embedder.manifest().query_prefix;
    questions.map(|q| format!("{prefix}{q}")).collect()
}

impl QuestionBank {
    /// The bank of `entries` and `unanswerable` (embedded as `texts`, in that order) from the
    /// vectors `stored` by text, embedding only the texts not among them with `embed`; also
    /// returns what it embedded, to be stored.
    pub fn complete(
        entries: &[Entry],
        unanswerable: &[Unanswerable],
        texts: Vec<String>,
        mut stored: HashMap<String, Vec<f32>>,
        mut embed: impl FnMut(&[String]) -> Result<Vec<Vec<f32>>, EmbedError>,
    ) -> Result<(Self, Embedded), EmbedError> {
        let mut missing: Vec<&String> = texts.iter().filter(|t| !stored.contains_key(*t)).collect();
        // Batched by length, so that a batch pads its short questions to a short longest one
        // (5.05 s → 4.8 s for 2,687 questions against file order; one a run took 7.7 s).
        missing.sort_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)));
        missing.dedup();
        let mut fresh: Embedded = Vec::with_capacity(missing.len());
        for batch in missing.chunks(64) {
            let batch: Vec<String> = batch.iter().map(|t| t.to_string()).collect();
            let vectors = embed(&batch)?;
            if vectors.len() != batch.len() {
                return Err(EmbedError::Run(format!(
                    "{} vectors for {} questions",
                    vectors.len(),
                    batch.len()
                )));
            }
            fresh.extend(batch.into_iter().zip(vectors));
        }
        for (t, v) in &fresh {
            stored.insert(t.clone(), v.clone());
        }
        let mut vectors: Vec<Vec<f32>> = texts
            .iter()
            .map(|t| stored.get(t).cloned().unwrap_or_default())
            .collect();
        let out_vectors = vectors.split_off(entries.len().min(vectors.len()));
        let bank = Self {
            refs: entries.iter().map(|e| e.ref_id.clone()).collect(),
            vectors,
            tiers: entries
                .iter()
                .map(|e| tier::named_in(&e.question))
                .collect(),
            classes: unanswerable.iter().map(|u| u.class).collect(),
            out_vectors,
        };
        Ok((bank, fresh))
    }

    /// From vectors already computed.
    #[cfg(test)]
    fn from_vectors(refs: Vec<String>, vectors: Vec<Vec<f32>>) -> Self {
        Self {
            tiers: vec![Tiers::default(); refs.len()],
            refs,
            vectors,
            classes: Vec::new(),
            out_vectors: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.refs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.refs.is_empty()
    }

    /// How many of its questions are ones the text does not answer.
    pub fn unanswerable_len(&self) -> usize {
        self.out_vectors.len()
    }

    /// Each provision's closest bank question to the query (cosine; the vectors are unit),
    /// leaving out bank questions at least `holdout` close (an evaluation's near-copies).
    pub fn closeness(&self, query: &[f32], holdout: Option<f64>) -> HashMap<&str, f64> {
        // Every English search takes this: a running maximum, no list per provision.
        let mut best: HashMap<&str, f64> = HashMap::new();
        for (r, v) in self.refs.iter().zip(&self.vectors) {
            let cos = cosine(v, query);
            if holdout.is_some_and(|h| cos >= h) {
                continue;
            }
            let e = best.entry(r.as_str()).or_insert(f64::NEG_INFINITY);
            *e = e.max(cos);
        }
        best
    }

    /// The mean cosine of each provision's `n` closest bank questions (fewer when it has
    /// fewer), leaving out those at least `holdout` close and those about another tier of
    /// government than the question `named` ([`tier::excludes`]; for a question in Hindi, the
    /// tiers its glossed English words name). The Constitution's parallel Articles differ in
    /// little but the office ("How long is a governor's term?" beside "How long is the
    /// President's term?"), and a model reads the wording more than the office. On the Hindi
    /// questions written from the text it moved R@1 0.720 → 0.734 (1,952 of `hi.jsonl`) and
    /// 0.833 → 0.845 (484 of `hi_fresh.jsonl`) (ADR 0013, stop 40). The English bank's
    /// [`Self::closeness`] does not: there the same rule lost a first citation on dev and on
    /// test (ADR 0008, stop 40).
    pub fn closeness_of(
        &self,
        query: &[f32],
        holdout: Option<f64>,
        n: usize,
        named: Tiers,
    ) -> HashMap<&str, f64> {
        let mut best: HashMap<&str, Vec<f64>> = HashMap::new();
        for ((r, v), t) in self.refs.iter().zip(&self.vectors).zip(&self.tiers) {
            if tier::excludes(named, *t) {
                continue;
            }
            let cos = cosine(v, query);
            if holdout.is_some_and(|h| cos >= h) {
                continue;
            }
            let top = best.entry(r.as_str()).or_default();
            // Kept best first, at most `n` long.
            let at = top.iter().position(|c| cos > *c).unwrap_or(top.len());
            if at < n.max(1) {
                top.insert(at, cos);
                top.truncate(n.max(1));
            }
        }
        best.into_iter()
            .map(|(r, top)| (r, top.iter().sum::<f64>() / top.len() as f64))
            .collect()
    }

    /// How the question's closest unanswerable questions compare with its closest answerable
    /// ones (the mean cosine of the [`SCOPE_NEIGHBOURS`] closest on each side), leaving out
    /// questions at least `holdout` close; `None` when either side is empty.
    pub fn scope_vote(&self, query: &[f32], holdout: Option<f64>) -> Option<ScopeVote> {
        let answerable = closest(&self.vectors, query, holdout);
        let unanswerable = closest(&self.out_vectors, query, holdout);
        let (&(closest, at), _) = (unanswerable.first()?, answerable.first()?);
        Some(ScopeVote {
            margin: mean(&unanswerable) - mean(&answerable),
            closest,
            class: self.classes[at],
        })
    }
}

/// The [`SCOPE_NEIGHBOURS`] highest cosines of `vectors` to `query` (unit vectors), best
/// first, with their index; those at least `holdout` close left out.
fn closest(vectors: &[Vec<f32>], query: &[f32], holdout: Option<f64>) -> Vec<(f64, usize)> {
    let mut cos: Vec<(f64, usize)> = vectors
        .iter()
        .enumerate()
        .map(|(i, v)| (cosine(v, query), i))
        .filter(|(c, _)| !holdout.is_some_and(|h| *c >= h))
        .collect();
    let best_first = |a: &(f64, usize), b: &(f64, usize)| b.0.total_cmp(&a.0);
    if cos.len() > SCOPE_NEIGHBOURS {
        cos.select_nth_unstable_by(SCOPE_NEIGHBOURS, best_first);
        cos.truncate(SCOPE_NEIGHBOURS);
    }
    cos.sort_by(best_first);
    cos
}

/// The cosine of two unit vectors. Eight running sums, so that the compiler can keep them in
/// one vector register: a single sum is a chain of dependent float adds it may not reorder,
/// and a search takes 4,457 of these (the nudge's part, the rerank stage, went from p50
/// 0.9 ms to 0.7 ms on `nyaya bench --modes hybrid+rerank`, stop 34).
fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let mut lanes = [0f32; 8];
    let (a8, b8) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = a8
        .remainder()
        .iter()
        .zip(b8.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a8.zip(b8) {
        for i in 0..8 {
            lanes[i] += x[i] * y[i];
        }
    }
    (lanes.iter().sum::<f32>() + tail) as f64
}

fn mean(head: &[(f64, usize)]) -> f64 {
    head.iter().map(|(c, _)| c).sum::<f64>() / head.len().max(1) as f64
}

/// Adds `weight` × (each candidate's closeness − the head's closest) to its score, so the
/// candidate the bank finds closest keeps its score and the others lose by their distance.
/// A candidate the bank holds no question about (an Appendix, an omitted Article) is taken
/// to be as close as the head's average: the bank knows nothing of it, which is no evidence
/// against it (with 0 it fell out of the head).
pub fn nudge(scores: &mut [f64], closeness: &[Option<f64>], weight: f64) {
    let known: Vec<f64> = closeness.iter().flatten().copied().collect();
    if known.is_empty() || weight == 0.0 {
        return;
    }
    let neutral = known.iter().sum::<f64>() / known.len() as f64;
    let top = known.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    for (s, c) in scores.iter_mut().zip(closeness) {
        *s += weight * (c.unwrap_or(neutral) - top);
    }
}

/// The fused head (its first `depth`) re-ordered by the bank: each candidate's place in the
/// fused order, as −ln(1 + rank), [`nudge`]d by its `closeness`. A fused order has no
/// calibrated score to move, and its first places are worth more apart than its last.
pub fn reorder_head(
    fused: Vec<Fused>,
    closeness: &HashMap<&str, f64>,
    depth: usize,
    weight: f64,
) -> Vec<Fused> {
    let n = depth.min(fused.len());
    let near: Vec<Option<f64>> = fused[..n]
        .iter()
        .map(|f| closeness.get(f.ref_id.as_str()).copied())
        .collect();
    let mut scores: Vec<f64> = (0..n).map(|i| -((1 + i) as f64).ln()).collect();
    nudge(&mut scores, &near, weight);
    super::fusion::sort_head(fused, &scores)
}

/// The banks of one process, each on first use: loaded from the vectors stored in Postgres
/// (`bank_vectors`), and whatever is missing embedded with the given embedder and stored.
#[derive(Debug, Default)]
pub struct BankCache {
    english: tokio::sync::OnceCell<Option<Arc<QuestionBank>>>,
    cross_lingual: tokio::sync::OnceCell<Option<Arc<QuestionBank>>>,
}

impl BankCache {
    /// The bank of `sources` as `embedder`'s vectors (the English model's for
    /// [`Sources::English`], the multilingual one's for [`Sources::CrossLingual`]): `None` when
    /// embedding failed (logged; searches go on without it). A database that cannot be read or
    /// written costs only time: the bank is then embedded whole and kept in this process.
    pub async fn get(
        &self,
        pool: &PgPool,
        embedder: &Arc<dyn Embedder>,
        sources: Sources,
    ) -> Option<Arc<QuestionBank>> {
        let cell = match sources {
            Sources::English => &self.english,
            Sources::CrossLingual => &self.cross_lingual,
        };
        cell.get_or_init(|| async {
            let started = std::time::Instant::now();
            let entries = shipped();
            let unanswerable = sources.unanswerable();
            let texts = texts(
                embedder.as_ref(),
                entries
                    .iter()
                    .map(|e| e.question.as_str())
                    .chain(unanswerable.iter().map(|u| u.question.as_str())),
            );
            let model_id = embedder.manifest().id.clone();
            let stored: HashMap<String, Vec<f32>> =
                match store::bank_vectors(pool, &model_id, &texts).await {
                    Ok(rows) => rows.into_iter().collect(),
                    Err(e) => {
                        tracing::warn!(error = %e, "stored question bank not read; embedding it");
                        HashMap::new()
                    }
                };
            let loaded = stored.len();
            let e = embedder.clone();
            let bank = tokio::task::spawn_blocking(move || {
                QuestionBank::complete(&entries, &unanswerable, texts, stored, |batch| {
                    e.embed_raw(batch)
                })
            })
            .await;
            match bank {
                Ok(Ok((bank, fresh))) => {
                    let embedded = fresh.len();
                    if !fresh.is_empty() {
                        let (keys, vectors): (Vec<String>, Vec<Vec<f32>>) =
                            fresh.into_iter().unzip();
                        if let Err(e) =
                            store::insert_bank_vectors(pool, &model_id, &keys, &vectors).await
                        {
                            tracing::warn!(error = %e, "question bank vectors not stored");
                        }
                    }
                    tracing::info!(
                        questions = bank.len(),
                        unanswerable = bank.unanswerable_len(),
                        loaded,
                        embedded,
                        ms = started.elapsed().as_secs_f64() * 1000.0,
                        "question bank ready"
                    );
                    Some(Arc::new(bank))
                }
                Ok(Err(e)) => {
                    tracing::warn!(error = %e, "question bank not embedded; searching without it");
                    None
                }
                Err(e) => {
                    tracing::warn!(error = %e, "question bank task failed; searching without it");
                    None
                }
            }
        })
        .await
        .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_bank_parses_and_names_canonical_provisions() {
        let entries = shipped();
        assert!(entries.len() > 1000, "{}", entries.len());
        for e in &entries {
            let canonical = e
                .ref_id
                .parse::<nyaya_ingest::RefId>()
                .map(|r| r.to_string());
            assert_eq!(canonical.as_deref().ok(), Some(e.ref_id.as_str()), "{e:?}");
        }
    }

    #[test]
    fn reorder_head_moves_the_bank_s_closest_up_only_by_enough() {
        let fused = |ids: &[&str]| -> Vec<Fused> {
            ids.iter()
                .map(|id| Fused {
                    ref_id: id.parse().unwrap(),
                    score: 0.0,
                    legs: Default::default(),
                })
                .collect()
        };
        let order = |f: Vec<Fused>| f.iter().map(|f| f.ref_id.to_string()).collect::<Vec<_>>();
        let near: HashMap<&str, f64> = [("21", 0.80), ("21A", 0.85), ("45", 0.90)].into();
        // At weight 50, 0.05 closer is worth 2.5 in log-rank: 45 comes up from third place
        // (ln 3 = 1.1 behind), and 21A (0.05 behind 45) passes 21 (0.1 behind).
        let moved = reorder_head(fused(&["21", "21A", "45", "14"]), &near, 3, 50.0);
        assert_eq!(order(moved), ["45", "21A", "21", "14"]);
        // Too little weight to overcome two places: the fused order stays.
        let kept = reorder_head(fused(&["21", "21A", "45", "14"]), &near, 3, 5.0);
        assert_eq!(order(kept), ["21", "21A", "45", "14"]);
        // Beyond the depth nothing moves, however close.
        let deep = reorder_head(fused(&["21", "21A", "45"]), &near, 2, 500.0);
        assert_eq!(order(deep), ["21A", "21", "45"]);
    }

    #[test]
    fn the_shipped_unanswerable_questions_parse_and_are_not_also_answerable() {
        let out = shipped_out_of_scope();
        assert!(out.len() > 1000, "{}", out.len());
        assert!(out.iter().all(|u| u.class != OutOfScope::ChitChat));
        let answerable: std::collections::HashSet<String> = shipped()
            .into_iter()
            .map(|e| e.question.to_lowercase())
            .collect();
        for u in &out {
            assert!(!answerable.contains(&u.question.to_lowercase()), "{u:?}");
        }
    }

    #[test]
    fn the_scope_vote_compares_both_sides_and_refuses_only_when_clear() {
        let unit = |a: f32| vec![a.cos(), a.sin()];
        let (entries, unanswerable): (Vec<Entry>, Vec<Unanswerable>) = (
            vec![Entry {
                question: "a".into(),
                ref_id: "21".into(),
            }],
            vec![Unanswerable {
                question: "b".into(),
                class: OutOfScope::CaseLaw,
            }],
        );
        let stored = HashMap::from([("a".to_string(), unit(0.0)), ("b".to_string(), unit(1.0))]);
        let (bank, fresh) = QuestionBank::complete(
            &entries,
            &unanswerable,
            vec!["a".into(), "b".into()],
            stored,
            |_| unreachable!("everything is stored"),
        )
        .unwrap();
        assert!(fresh.is_empty());
        // Next to the unanswerable question: refused as it is.
        let v = bank.scope_vote(&unit(0.95), None).unwrap();
        assert!(v.margin > 0.3, "{v:?}");
        assert_eq!(v.refusal(), Some(OutOfScope::CaseLaw));
        // Half-way: no clear side, no refusal.
        assert_eq!(bank.scope_vote(&unit(0.5), None).unwrap().refusal(), None);
        // Close to the answerable one: none either.
        assert_eq!(bank.scope_vote(&unit(0.1), None).unwrap().refusal(), None);
        // Far from both (closest unanswerable below the floor): none, whatever the margin.
        let far = bank.scope_vote(&unit(2.2), None).unwrap();
        assert!(
            far.margin > SCOPE_MARGIN && far.refusal().is_none(),
            "{far:?}"
        );
        // Held out: the unanswerable question itself does not vote for its own copy.
        assert!(bank.scope_vote(&unit(1.0), Some(0.9)).is_none());
    }

    #[test]
    fn cosine_is_the_dot_product_at_any_length() {
        let a: Vec<f32> = (0..19).map(|i| i as f32 * 0.1).collect();
        let b: Vec<f32> = (0..19).map(|i| 1.0 - i as f32 * 0.05).collect();
        let plain: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert!((cosine(&a, &b) - plain as f64).abs() < 1e-5);
        assert_eq!(cosine(&[], &[]), 0.0);
        assert!((cosine(&[0.6, 0.8], &[0.6, 0.8]) - 1.0).abs() < 1e-6);
    }

    #[test]
    fn closeness_is_each_provisions_best_question() {
        let bank = QuestionBank::from_vectors(
            vec!["21".into(), "21".into(), "32".into()],
            vec![vec![1.0, 0.0], vec![0.6, 0.8], vec![0.0, 1.0]],
        );
        let c = bank.closeness(&[0.0, 1.0], None);
        assert!((c["21"] - 0.8).abs() < 1e-6);
        assert!((c["32"] - 1.0).abs() < 1e-6);
        assert_eq!(c.len(), 2);
        // Held out: 32's question is the query itself; 21's 0.8 stays.
        let c = bank.closeness(&[0.0, 1.0], Some(0.9));
        assert_eq!(c.len(), 1);
        assert!((c["21"] - 0.8).abs() < 1e-6);
        // Two neighbours: 21 averages its 0.8 and 0.0; 32 has only its one.
        let c = bank.closeness_of(&[0.0, 1.0], None, 2, Tiers::default());
        assert!((c["21"] - 0.4).abs() < 1e-6);
        assert!((c["32"] - 1.0).abs() < 1e-6);
    }

    #[test]
    fn cross_lingual_closeness_leaves_out_questions_about_another_tier() {
        let entries: Vec<Entry> = parse(
            r#"{"question": "How long is a governor's term in office?", "ref": "156"}
{"question": "What is the term of the President of India?", "ref": "56"}
{"question": "How long is the term of office?", "ref": "83"}"#,
        )
        .unwrap();
        let texts: Vec<String> = entries.iter().map(|e| e.question.clone()).collect();
        let vectors = [vec![1.0, 0.0], vec![0.6, 0.8], vec![0.8, 0.6]];
        let stored = texts.iter().cloned().zip(vectors).collect();
        let (bank, _) =
            QuestionBank::complete(&entries, &[], texts, stored, |_| unreachable!()).unwrap();
        let query = [1.0, 0.0];
        // A question that names no tier: every bank question counts.
        let c = bank.closeness_of(&query, None, 1, Tiers::default());
        assert!((c["156"] - 1.0).abs() < 1e-6);
        // One about the President: the Governor's question says nothing of it; the question
        // that names no tier still counts.
        let c = bank.closeness_of(&query, None, 1, tier::named_in("President's term"));
        assert!(!c.contains_key("156"), "{c:?}");
        assert!((c["56"] - 0.6).abs() < 1e-6);
        assert!((c["83"] - 0.8).abs() < 1e-6);
    }

    #[test]
    fn complete_embeds_only_what_is_not_stored_and_keeps_file_order() {
        let entries: Vec<Entry> = parse(
            r#"{"question": "long question here", "ref": "21"}
{"question": "short", "ref": "32"}
{"question": "mid one", "ref": "14"}"#,
        )
        .unwrap();
        let texts: Vec<String> = entries
            .iter()
            .map(|e| format!("q: {}", e.question))
            .collect();
        let stored = HashMap::from([("q: mid one".to_string(), vec![0.0, 1.0])]);
        let mut asked: Vec<String> = Vec::new();
        let (bank, fresh) = QuestionBank::complete(&entries, &[], texts, stored, |batch| {
            asked.extend(batch.iter().cloned());
            Ok(batch.iter().map(|t| vec![t.len() as f32, 0.0]).collect())
        })
        .unwrap();
        // Only the two missing texts, shortest first; the stored one is not embedded again.
        assert_eq!(asked, vec!["q: short", "q: long question here"]);
        assert_eq!(fresh.len(), 2);
        assert_eq!(bank.refs, vec!["21", "32", "14"]);
        assert_eq!(
            bank.vectors,
            vec![vec![21.0, 0.0], vec![8.0, 0.0], vec![0.0, 1.0]]
        );
    }

    #[test]
    fn nudge_keeps_the_closest_and_treats_the_unknown_as_average() {
        let mut scores = vec![1.0, 0.5, 0.0];
        nudge(&mut scores, &[Some(0.6), Some(0.9), None], 10.0);
        // 0.9 is the head's closest: unchanged; 0.6 loses 3; the unknown sits at the mean 0.75.
        assert!((scores[0] - (1.0 - 3.0)).abs() < 1e-9);
        assert!((scores[1] - 0.5).abs() < 1e-9);
        assert!((scores[2] - (0.0 - 1.5)).abs() < 1e-9);
        let mut same = vec![1.0, 0.5];
        nudge(&mut same, &[None, None], 10.0);
        assert_eq!(
            same,
            vec![1.0, 0.5],
            "a bank that knows none of the head changes nothing"
        );
        nudge(&mut same, &[Some(0.1), Some(0.9)], 0.0);
        assert_eq!(same, vec![1.0, 0.5], "weight 0 is off");
    }
}
