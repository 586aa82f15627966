//! The learned second stage: a linear ranker over the fused head, trained on questions the
//! corpus generates about itself (`nyaya train`, `src/train/`), never on the golden set.
//!
//! Each candidate of the head becomes a row of [`FEATURES`]: what the first stage knew (fused
//! score and rank, each leg's rank, the best chunk's exact cosine, e5's cosine against the
//! head's best when its list was fused, the lexical score, the heading's share of the query)
//! and what sort of provision it is *as far as the question
//! asks about it* ("which list …" × a Schedule, "when was … added" × amended or omitted).
//! Priors that do not depend on the question (a Schedule, omitted, long, much cited) are left
//! out on purpose: fitted on generated questions, they learn how often the generator asks
//! about Schedules, not how often users do (ADR 0008). The model standardises each feature with the training set's mean and
//! spread and scores the row with one weight per feature; the head is re-ordered by score.
//! Scores are log-odds within one head: a gap of 1 between two candidates means the first is
//! e ≈ 2.7 times as likely to be the governing provision, which is what the answer step's
//! "also relevant" bar reads.
//!
//! Two models ship, compiled in, each with the hash of the data it was trained on: one fitted
//! on heads fused with multilingual-e5's second dense list (`data/second_stage.json`, questions
//! in Latin letters) and one on heads fused without it (`data/second_stage_one_list.json`: no
//! e5 vectors stored yet, or `NYAYA_SECOND_DENSE=false`). The features read the fused ranks and scores, which
//! the extra list moves, so each head is ranked by the model fitted on heads like it ([`Heads`]).
//! ADR 0008 records the data, the features and the measured effect.

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

use super::fusion::{Fused, Leg};
use super::rerank::Features;

/// The features, in row order. A model names them too, and must match.
pub const FEATURES: [&str; 14] = [
    "fused_share",
    "fused_rank_rr",
    "dense_best",
    "dense_gap",
    "dense_rank_rr",
    "second_dense_rank_rr",
    "second_dense_gap",
    "lexical_rank_rr",
    "lexical_share",
    "glossary",
    "title_share",
    "asks_schedule_x_schedule",
    "asks_history_x_amended",
    "asks_history_x_omitted",
];

/// The features of a head fused for a question in an Indian script, in row order. Its dense
/// leg is multilingual-e5's and its lexical leg reads the glossary's English for the
/// question's words; the cross-lingual bank's closeness ([`super::bank`]) is one feature
/// among them (ADR 0013, stop 54).
pub const INDIAN_SCRIPT_FEATURES: [&str; 8] = [
    "fused_share",
    "fused_rank_log",
    "dense_rank_rr",
    "dense_gap",
    "lexical_rank_rr",
    "lexical_share",
    "glossary",
    "bank_gap",
];

/// One row of [`INDIAN_SCRIPT_FEATURES`] per candidate of `head` (fused order); `closeness`
/// holds the cross-lingual bank's closeness of each (`None`: the bank holds no question about
/// it, which counts as the head's average, as [`super::bank::nudge`] takes it).
pub fn indian_script_rows(head: &[Fused], closeness: &[Option<f64>]) -> Vec<Vec<f64>> {
    let fused_max = positive_max(head.iter().map(|f| f.score));
    let leg_score = |f: &Fused, leg: Leg| f.legs.get(&leg).map(|h| f64::from(h.score));
    let dense_gap = cosine_gaps(head, Leg::Dense);
    let lexical_max = positive_max(head.iter().filter_map(|f| leg_score(f, Leg::Lexical)));
    // The bank's closeness less the head's closest, as the bank's own nudge adds it.
    let mut bank_gap = vec![0.0; head.len()];
    super::bank::nudge(&mut bank_gap, closeness, 1.0);
    head.iter()
        .enumerate()
        .map(|(i, f)| {
            vec![
                f.score / fused_max,
                -((1 + i) as f64).ln(),
                rank_rr(f, Leg::Dense),
                dense_gap[i],
                rank_rr(f, Leg::Lexical),
                leg_score(f, Leg::Lexical).unwrap_or(0.0) / lexical_max,
                flag(f.legs.contains_key(&Leg::Glossary)),
                bank_gap[i],
            ]
        })
        .collect()
}

/// `fused` with its first `rows.len()` candidates (one row each) re-ordered by `model`'s
/// score, best first (ties keep the fused order). Scores stay the fused ones, as
/// [`super::bank::reorder_head`] leaves them: the answer's "also relevant" bar was calibrated
/// on the English model's log-odds, not on these.
pub fn reorder(fused: Vec<Fused>, rows: &[Vec<f64>], model: &LtrModel) -> Vec<Fused> {
    let scores: Vec<f64> = rows.iter().map(|r| model.score(r)).collect();
    super::fusion::sort_head(fused, &scores)
}

/// The largest of `values`, never below the smallest positive number: a divisor that scales
/// the best of the head to 1 (0 when nothing scores).
fn positive_max(values: impl Iterator<Item = f64>) -> f64 {
    values.fold(0.0_f64, f64::max).max(f64::MIN_POSITIVE)
}

/// The reciprocal of the candidate's rank in `leg`'s list; 0 when the list did not reach it.
fn rank_rr(f: &Fused, leg: Leg) -> f64 {
    f.legs.get(&leg).map_or(0.0, |h| 1.0 / h.rank as f64)
}

fn flag(b: bool) -> f64 {
    if b {
        1.0
    } else {
        0.0
    }
}

/// Each candidate's cosine in `leg`'s list less the best in the head: a dense leg's closeness
/// relative to the head. A candidate the list did not reach counts as the head's lowest (being
/// beyond the list's depth is evidence against it: ADR 0008, stop 54); 0 throughout when no
/// candidate has the leg.
fn cosine_gaps(head: &[Fused], leg: Leg) -> Vec<f64> {
    let cosines: Vec<Option<f64>> = head
        .iter()
        .map(|f| f.legs.get(&leg).map(|h| f64::from(h.score)))
        .collect();
    let (hi, lo) = cosines
        .iter()
        .flatten()
        .fold((f64::NEG_INFINITY, f64::INFINITY), |(hi, lo), c| {
            (hi.max(*c), lo.min(*c))
        });
    cosines
        .iter()
        .map(|c| match c {
            _ if !hi.is_finite() => 0.0,
            Some(c) => c - hi,
            None => lo - hi,
        })
        .collect()
}

/// Facts about a provision that do not depend on the question.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProvisionFacts {
    /// "article", "schedule", "preamble", "appendix".
    pub kind: String,
    pub omitted: bool,
    /// An amendment note inserted or substituted some of its text.
    pub amended: bool,
}

/// What the question itself asks, as far as the features care.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct QueryCues {
    /// "which list", "schedule", "union list" …
    pub schedule: bool,
    /// "when was … added", "amendment", "omitted", "originally" …
    pub history: bool,
}

static ASKS_SCHEDULE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:schedules?|lists?|entry|entries|state subjects?|central subjects?|union subjects?|concurrent|languages? (?:recognised|listed|in the constitution)|official languages?)\b")
        .expect("valid regex")
});
static ASKS_HISTORY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:when (?:was|were|did)|added|inserted|omitted|repealed|removed from the constitution|deleted|amendment|amended|originally|always|still (?:a|in|part)|any ?more|no longer|used to|earlier|before the|history)\b")
        .expect("valid regex")
});

impl QueryCues {
    pub fn of(query: &str) -> QueryCues {
        QueryCues {
            schedule: ASKS_SCHEDULE.is_match(query),
            history: ASKS_HISTORY.is_match(query),
        }
    }
}

/// One row per candidate of `head` (fused order). `base` holds the rescorer's features of
/// the same candidates (missing ones count as zero), `facts` the provision facts.
pub fn rows(
    head: &[Fused],
    base: &[Features],
    facts: &dyn Fn(&str) -> Option<ProvisionFacts>,
    cues: QueryCues,
) -> Vec<[f64; FEATURES.len()]> {
    let fused_max = positive_max(head.iter().map(|f| f.score));
    let lexical_max = positive_max(base.iter().map(|b| b.lexical_best));
    let dense_max = base
        .iter()
        .map(|b| b.dense_best)
        .fold(f64::NEG_INFINITY, f64::max);
    // multilingual-e5's cosine against the best in the head.
    let second_gap = cosine_gaps(head, Leg::SecondDense);
    head.iter()
        .enumerate()
        .map(|(i, f)| {
            let b = base.iter().find(|b| b.ref_id == f.ref_id);
            let (dense, lexical, title) = b.map_or((0.0, 0.0, 0.0), |b| {
                (b.dense_best, b.lexical_best, b.title_share)
            });
            let p = facts(f.ref_id.as_str()).unwrap_or_default();
            let schedule = p.kind == "schedule";
            [
                f.score / fused_max,
                1.0 / (i + 1) as f64,
                dense,
                if dense_max.is_finite() {
                    dense - dense_max
                } else {
                    0.0
                },
                rank_rr(f, Leg::Dense),
                rank_rr(f, Leg::SecondDense),
                second_gap[i],
                rank_rr(f, Leg::Lexical),
                lexical / lexical_max,
                flag(f.legs.contains_key(&Leg::Glossary)),
                title,
                flag(cues.schedule && schedule),
                flag(cues.history && p.amended),
                flag(cues.history && p.omitted),
            ]
        })
        .collect()
}

/// How the shipped model was trained.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct TrainingInfo {
    /// sha256 of the generated questions file the model was fitted on.
    pub data_sha256: String,
    pub questions: usize,
    /// Questions whose source provision was in the head (the lists fitted).
    pub lists: usize,
    pub head: usize,
    pub l2: f64,
    pub iterations: usize,
    /// Mean negative log-likelihood of the source provision at the end.
    pub loss: f64,
    /// Share of lists whose source the model puts first (training data).
    pub top1: f64,
}

/// A linear ranker: standardise, then weigh.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LtrModel {
    pub id: String,
    pub features: Vec<String>,
    pub mean: Vec<f64>,
    pub scale: Vec<f64>,
    pub weights: Vec<f64>,
    pub training: TrainingInfo,
}

/// Why a model file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LtrError {
    #[error("second-stage model: {0}")]
    Json(#[from] serde_json::Error),
    #[error("second-stage model: {0}")]
    Shape(String),
}

/// How the head a model ranks was fused: with or without the second dense list
/// (`search::dense::second_dense_list`), or for a question in an Indian script. A model is fitted on
/// one kind and ranks only that kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heads {
    /// The question's own dense list(s) and the lexical leg: no e5 vectors stored yet, or
    /// `NYAYA_SECOND_DENSE=false`.
    OneDenseList,
    /// A question in Latin letters: multilingual-e5's list fused as one more dense list.
    TwoDenseLists,
    /// A question in an Indian script: e5's list is its dense leg ([`INDIAN_SCRIPT_FEATURES`]),
    /// fitted on the written Hindi questions (`eval/written/hi.jsonl`), not generated ones.
    IndianScript,
}

impl Heads {
    /// The heads fitted on the generated (English) questions.
    pub const ALL: [Heads; 2] = [Heads::TwoDenseLists, Heads::OneDenseList];

    /// The features a model for this kind of head reads, in row order.
    pub fn features(self) -> &'static [&'static str] {
        match self {
            Heads::IndianScript => &INDIAN_SCRIPT_FEATURES,
            Heads::TwoDenseLists | Heads::OneDenseList => &FEATURES,
        }
    }

    pub fn of(second_dense_list: bool) -> Heads {
        if second_dense_list {
            Heads::TwoDenseLists
        } else {
            Heads::OneDenseList
        }
    }

    /// Whether mining for this kind of head fuses the second dense list.
    pub fn second_dense_list(self) -> bool {
        self == Heads::TwoDenseLists
    }

    /// Where `nyaya train` writes the model, and what is compiled in.
    pub fn shipped_path(self) -> &'static str {
        match self {
            Heads::TwoDenseLists => "data/second_stage.json",
            Heads::OneDenseList => "data/second_stage_one_list.json",
            Heads::IndianScript => "data/second_stage_indian_script.json",
        }
    }
}

impl LtrModel {
    /// The model compiled into the binary for this kind of head.
    pub fn builtin(heads: Heads) -> &'static LtrModel {
        static TWO: LazyLock<LtrModel> = LazyLock::new(|| {
            LtrModel::parse(
                include_str!("../../data/second_stage.json"),
                Heads::TwoDenseLists,
            )
            .expect("data/second_stage.json is a valid model (a unit test checks it)")
        });
        static ONE: LazyLock<LtrModel> = LazyLock::new(|| {
            LtrModel::parse(
                include_str!("../../data/second_stage_one_list.json"),
                Heads::OneDenseList,
            )
            .expect("data/second_stage_one_list.json is a valid model (a unit test checks it)")
        });
        static INDIAN: LazyLock<LtrModel> = LazyLock::new(|| {
            LtrModel::parse(
                include_str!("../../data/second_stage_indian_script.json"),
                Heads::IndianScript,
            )
            .expect("data/second_stage_indian_script.json is a valid model (a unit test checks it)")
        });
        match heads {
            Heads::TwoDenseLists => &TWO,
            Heads::OneDenseList => &ONE,
            Heads::IndianScript => &INDIAN,
        }
    }

    /// A model for `heads`, checked against the features this build computes for them.
    pub fn parse(json: &str, heads: Heads) -> Result<LtrModel, LtrError> {
        let m: LtrModel = serde_json::from_str(json)?;
        let expected = heads.features();
        let n = expected.len();
        if m.features
            .iter()
            .map(String::as_str)
            .ne(expected.iter().copied())
        {
            return Err(LtrError::Shape(format!(
                "its features {:?} are not this build's {expected:?}",
                m.features
            )));
        }
        if m.mean.len() != n || m.scale.len() != n || m.weights.len() != n {
            return Err(LtrError::Shape(format!(
                "mean, scale and weights must each have {n} numbers"
            )));
        }
        if m.scale.iter().any(|s| *s <= 0.0 || !s.is_finite())
            || m.weights.iter().chain(&m.mean).any(|w| !w.is_finite())
        {
            return Err(LtrError::Shape(
                "scales must be positive, all numbers finite".into(),
            ));
        }
        Ok(m)
    }

    /// The standardised row.
    pub fn standardise(&self, row: &[f64]) -> Vec<f64> {
        row.iter()
            .zip(self.mean.iter().zip(&self.scale))
            .map(|(x, (m, s))| (x - m) / s)
            .collect()
    }

    /// The row's score (log-odds within its head).
    pub fn score(&self, row: &[f64]) -> f64 {
        self.standardise(row)
            .iter()
            .zip(&self.weights)
            .map(|(x, w)| x * w)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::search::fusion::LegHit;

    fn fused(id: &str, score: f64, legs: &[(Leg, usize)]) -> Fused {
        Fused {
            ref_id: id.parse().unwrap(),
            score,
            legs: legs
                .iter()
                .map(|(l, r)| {
                    (
                        *l,
                        LegHit {
                            rank: *r,
                            score: 0.0,
                        },
                    )
                })
                .collect::<BTreeMap<_, _>>(),
        }
    }

    /// `f` with the given legs' scores (cosines, lexical ranks' scores) set.
    fn with_scores(mut f: Fused, scores: &[(Leg, f32)]) -> Fused {
        for (leg, s) in scores {
            f.legs.get_mut(leg).unwrap().score = *s;
        }
        f
    }

    /// A feature's column in a row of `names`.
    fn column(names: &[&str], name: &str) -> usize {
        names.iter().position(|f| *f == name).unwrap()
    }

    #[test]
    fn the_shipped_models_load_and_name_this_builds_features() {
        for heads in Heads::ALL.into_iter().chain([Heads::IndianScript]) {
            let m = LtrModel::builtin(heads);
            assert_eq!(m.features.len(), heads.features().len());
            assert!(!m.training.data_sha256.is_empty());
        }
        // Two fits, not one file twice.
        assert_ne!(
            LtrModel::builtin(Heads::OneDenseList).weights,
            LtrModel::builtin(Heads::TwoDenseLists).weights
        );
    }

    #[test]
    fn a_model_for_other_features_is_refused() {
        let mut m = LtrModel::builtin(Heads::TwoDenseLists).clone();
        m.features.pop();
        let json = serde_json::to_string(&m).unwrap();
        assert!(matches!(
            LtrModel::parse(&json, Heads::TwoDenseLists),
            Err(LtrError::Shape(_))
        ));
        let mut m = LtrModel::builtin(Heads::TwoDenseLists).clone();
        m.scale[0] = 0.0;
        let json = serde_json::to_string(&m).unwrap();
        assert!(LtrModel::parse(&json, Heads::TwoDenseLists).is_err());
    }

    #[test]
    fn rows_read_ranks_legs_and_cues() {
        let head = [
            fused("246", 0.2, &[(Leg::Dense, 1), (Leg::Lexical, 2)]),
            fused("SCH-7", 0.1, &[(Leg::Lexical, 1), (Leg::Glossary, 1)]),
        ];
        let base = [Features {
            ref_id: "SCH-7".parse().unwrap(),
            fused: 0.1,
            dense_best: 0.5,
            lexical_best: 4.0,
            title_share: 0.5,
        }];
        let facts = |id: &str| {
            Some(ProvisionFacts {
                kind: if id == "SCH-7" { "schedule" } else { "article" }.into(),
                amended: true,
                ..Default::default()
            })
        };
        let cues = QueryCues::of("Which list is defence in?");
        assert!(cues.schedule && !cues.history);
        let r = rows(&head, &base, &facts, cues);
        let at = |name: &str| column(&FEATURES, name);
        assert_eq!(r[0][at("fused_share")], 1.0);
        assert_eq!(r[1][at("fused_share")], 0.5);
        assert_eq!(r[1][at("fused_rank_rr")], 0.5);
        assert_eq!(r[0][at("dense_rank_rr")], 1.0);
        assert_eq!(r[1][at("dense_rank_rr")], 0.0);
        assert_eq!(r[1][at("glossary")], 1.0);
        assert_eq!(r[1][at("lexical_share")], 1.0);
        assert_eq!(r[1][at("asks_schedule_x_schedule")], 1.0);
        assert_eq!(r[0][at("asks_schedule_x_schedule")], 0.0);
        assert_eq!(r[0][at("dense_best")], 0.0, "no base features: zero");
        assert_eq!(r[0][at("second_dense_rank_rr")], 0.0);
        assert_eq!(r[0][at("second_dense_gap")], 0.0, "no second list: zero");
        assert!(QueryCues::of("When was the right to education added?").history);
    }

    #[test]
    fn rows_read_each_embedders_rank_apart() {
        let head = [
            with_scores(
                fused("356", 0.3, &[(Leg::Dense, 2), (Leg::SecondDense, 1)]),
                &[(Leg::SecondDense, 0.9)],
            ),
            with_scores(
                fused("311", 0.2, &[(Leg::Dense, 1), (Leg::SecondDense, 4)]),
                &[(Leg::SecondDense, 0.8)],
            ),
            fused("365", 0.1, &[(Leg::Lexical, 1)]),
        ];
        let r = rows(&head, &[], &|_| None, QueryCues::default());
        let at = |name: &str| column(&FEATURES, name);
        assert_eq!(r[0][at("dense_rank_rr")], 0.5, "MiniLM's rank alone");
        assert_eq!(r[0][at("second_dense_rank_rr")], 1.0);
        assert_eq!(r[1][at("second_dense_rank_rr")], 0.25);
        assert_eq!(r[2][at("second_dense_rank_rr")], 0.0);
        assert_eq!(r[0][at("second_dense_gap")], 0.0);
        assert!((r[1][at("second_dense_gap")] + 0.1).abs() < 1e-6);
        // Not reached by e5's list: as low as the head's lowest.
        assert!((r[2][at("second_dense_gap")] + 0.1).abs() < 1e-6);
    }

    #[test]
    fn indian_script_rows_read_legs_and_the_banks_closeness() {
        let head = [
            with_scores(
                fused("21", 0.4, &[(Leg::Dense, 1), (Leg::Lexical, 2)]),
                &[(Leg::Dense, 0.9), (Leg::Lexical, 2.0)],
            ),
            with_scores(
                fused("21A", 0.2, &[(Leg::Dense, 3), (Leg::Glossary, 1)]),
                &[(Leg::Dense, 0.85)],
            ),
            with_scores(
                fused("45", 0.1, &[(Leg::Lexical, 1)]),
                &[(Leg::Lexical, 4.0)],
            ),
        ];
        let r = indian_script_rows(&head, &[Some(0.7), Some(0.9), None]);
        let at = |name: &str| column(&INDIAN_SCRIPT_FEATURES, name);
        assert_eq!(r.len(), 3);
        assert!(r
            .iter()
            .all(|row| row.len() == INDIAN_SCRIPT_FEATURES.len()));
        assert_eq!(r[0][at("fused_share")], 1.0);
        assert_eq!(r[0][at("fused_rank_log")], 0.0);
        assert!((r[2][at("fused_rank_log")] + 3f64.ln()).abs() < 1e-12);
        assert_eq!(r[1][at("dense_rank_rr")], 1.0 / 3.0);
        assert!((r[1][at("dense_gap")] + 0.05).abs() < 1e-6);
        // Not in the dense list: as far as the head's farthest.
        assert!((r[2][at("dense_gap")] + 0.05).abs() < 1e-6);
        assert_eq!(r[2][at("lexical_rank_rr")], 1.0);
        assert_eq!(r[0][at("lexical_share")], 0.5);
        assert_eq!(r[1][at("lexical_share")], 0.0);
        assert_eq!(r[1][at("glossary")], 1.0);
        assert_eq!(r[1][at("bank_gap")], 0.0);
        assert!((r[0][at("bank_gap")] + 0.2).abs() < 1e-9);
        // No bank question about it: the head's average, as the bank's nudge takes it.
        assert!((r[2][at("bank_gap")] + 0.1).abs() < 1e-9);
        // Without the bank, the feature says nothing.
        let r = indian_script_rows(&head, &[None, None, None]);
        assert!(r.iter().all(|row| row[at("bank_gap")] == 0.0));
    }

    /// An Indian-script model that reads raw features with the given (index, weight)s.
    fn indian_script_model(weights: &[(usize, f64)]) -> LtrModel {
        let n = INDIAN_SCRIPT_FEATURES.len();
        let mut model = LtrModel::builtin(Heads::IndianScript).clone();
        model.mean = vec![0.0; n];
        model.scale = vec![1.0; n];
        model.weights = vec![0.0; n];
        for (i, w) in weights {
            model.weights[*i] = *w;
        }
        model
    }

    #[test]
    fn reorder_moves_the_head_by_score_and_leaves_the_rest() {
        let head = vec![
            fused("21", 0.3, &[(Leg::Dense, 1)]),
            fused("21A", 0.2, &[(Leg::Dense, 2)]),
            fused("45", 0.1, &[(Leg::Dense, 3)]),
        ];
        let n = INDIAN_SCRIPT_FEATURES.len();
        let model = indian_script_model(&[(0, 1.0)]);
        // Two rows: the third candidate is outside the head.
        let rows = vec![vec![0.1; n], vec![0.5; n]];
        let order: Vec<String> = reorder(head, &rows, &model)
            .iter()
            .map(|f| f.ref_id.to_string())
            .collect();
        assert_eq!(order, ["21A", "21", "45"]);
    }

    #[test]
    fn the_hand_set_indian_script_order_is_the_banks_nudge() {
        // A model with weight 1 on the fused rank's log and the bank's weight on its gap
        // orders a head as `bank::reorder_head` does: the learned model's starting point.
        let bank_gap = INDIAN_SCRIPT_FEATURES.len() - 1;
        let model = indian_script_model(&[(1, 1.0), (bank_gap, 160.0)]);
        let head: Vec<Fused> = ["14", "15", "16", "17"]
            .iter()
            .enumerate()
            .map(|(i, id)| fused(id, 1.0 / (i + 1) as f64, &[(Leg::Dense, i + 1)]))
            .collect();
        let closeness = [Some(0.80), Some(0.82), None, Some(0.84)];
        let rows = indian_script_rows(&head, &closeness);
        let learned: Vec<String> = reorder(head.clone(), &rows, &model)
            .iter()
            .map(|f| f.ref_id.to_string())
            .collect();
        let map: std::collections::HashMap<&str, f64> = ["14", "15", "17"]
            .into_iter()
            .zip([0.80, 0.82, 0.84])
            .collect();
        let hand: Vec<String> = super::super::bank::reorder_head(head, &map, 4, 160.0)
            .iter()
            .map(|f| f.ref_id.to_string())
            .collect();
        assert_eq!(learned, hand);
        assert_eq!(hand, ["17", "15", "16", "14"]);
    }

    #[test]
    fn scores_standardise_then_weigh() {
        let n = FEATURES.len();
        let mut m = LtrModel::builtin(Heads::TwoDenseLists).clone();
        m.mean = vec![1.0; n];
        m.scale = vec![2.0; n];
        m.weights = vec![0.0; n];
        m.weights[0] = 4.0;
        let mut row = vec![1.0; n];
        row[0] = 3.0;
        assert!((m.score(&row) - 4.0).abs() < 1e-12);
    }
}
