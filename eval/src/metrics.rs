//! Retrieval and refusal metrics, each defined once, here.
//!
//! # Rankings are provision rankings
//!
//! A search returns chunks, and a long provision has several, so a ranking may name the same
//! provision more than once. Every metric first collapses the ranking with
//! [`provision_ranking`]: a provision counts once, at the position of its first occurrence,
//! and later repeats are dropped (they take no slot). So `[19, 19, 19, 22]` is the provision
//! ranking `[19, 22]`, and Recall@2 for an expected `22` is 1. Positions below are 1-based
//! positions in the collapsed ranking.
//!
//! # The metrics
//!
//! For a case with expected refs `E` (the provisions that govern the answer) and acceptable
//! refs `A` (defensible neighbours), and the collapsed ranking `r₁, r₂, …`:
//!
//! | metric | definition | defined for |
//! |---|---|---|
//! | Recall@k | \|E ∩ {r₁..r_k}\| / \|E\| | answerable cases |
//! | MRR@10 | 1 / (position of the first rᵢ ∈ E), 0 if none in the top 10 | answerable cases |
//! | nDCG@5 | DCG@5 / IDCG@5 with gain g(r) = 2 if r ∈ E, 1 if r ∈ A, else 0; DCG@5 = Σᵢ₌₁..₅ g(rᵢ) / log₂(i + 1); IDCG@5 is the DCG of the case's own refs in the best order (all of E, then all of A) | answerable cases |
//! | lookup Hit@1 | r₁ ∈ question_refs ∪ E | cases whose `question_refs` is non-empty |
//! | candidate recall@K | Recall@K on the longer pre-rerank candidate list | answerable cases |
//! | refusal accuracy | share of `must_refuse` cases that were refused | `must_refuse` cases |
//! | false-refusal rate | share of answerable cases that were refused | answerable cases |
//! | latency p50 / p95 | nearest-rank percentile of `latency_ms` (see [`percentile`]) | all cases |
//!
//! Retrieval metrics are computed on the ranking whether or not the case was refused: a
//! refusal is scored by the two refusal metrics, not by zeroing the ranking.
//!
//! A [`Report`] averages each metric over the cases it is defined for (a plain mean; a
//! metric no case is defined for is `None`), overall and per category. Callers that compare
//! runs (pinned vs unpinned, dev vs test) build one report per run.

use std::collections::{BTreeMap, HashMap, HashSet};

use nyaya_ingest::RefId;
use serde::{Deserialize, Serialize};

use crate::golden::{Category, GoldenCase, Split};

/// The k of the Recall@k figures a [`Report`] carries.
pub const RECALL_KS: [usize; 4] = [1, 3, 5, 10];
/// The cut-off of MRR.
pub const MRR_K: usize = 10;
/// The cut-off of nDCG.
pub const NDCG_K: usize = 5;
/// The default K of candidate recall (the length of the pre-rerank list scored).
pub const DEFAULT_CANDIDATE_K: usize = 50;

/// Gain of an expected ref in nDCG.
pub const GAIN_EXPECTED: f64 = 2.0;
/// Gain of an acceptable ref in nDCG.
pub const GAIN_ACCEPTABLE: f64 = 1.0;

// ---------------------------------------------------------------------------------------------
// Per-case metrics

/// The ranking with repeats removed, each provision at its first position.
pub fn provision_ranking(ranking: &[RefId]) -> Vec<&RefId> {
    let mut seen = HashSet::new();
    ranking.iter().filter(|r| seen.insert(*r)).collect()
}

/// Recall@k: the share of `expected` among the first `k` provisions of `ranking`. `None`
/// when `expected` is empty (the metric is undefined, not 0 or 1).
pub fn recall_at_k(ranking: &[RefId], expected: &[RefId], k: usize) -> Option<f64> {
    if expected.is_empty() {
        return None;
    }
    let expected: HashSet<&RefId> = expected.iter().collect();
    let found = provision_ranking(ranking)
        .into_iter()
        .take(k)
        .filter(|r| expected.contains(r))
        .count();
    Some(found as f64 / expected.len() as f64)
}

/// Candidate recall@K: [`recall_at_k`] on the pre-rerank candidate list. It is the ceiling of
/// what a reranker can reach at any k.
pub fn candidate_recall_at_k(candidates: &[RefId], expected: &[RefId], k: usize) -> Option<f64> {
    recall_at_k(candidates, expected, k)
}

/// Reciprocal rank within the first `k` provisions: 1/position of the first expected ref,
/// 0 when none is in the first `k`. `None` when `expected` is empty. MRR@10 is the mean of
/// this with `k` = [`MRR_K`].
pub fn reciprocal_rank_at_k(ranking: &[RefId], expected: &[RefId], k: usize) -> Option<f64> {
    if expected.is_empty() {
        return None;
    }
    let rank = provision_ranking(ranking)
        .into_iter()
        .take(k)
        .position(|r| expected.contains(r));
    Some(rank.map_or(0.0, |i| 1.0 / (i + 1) as f64))
}

fn discount(position: usize) -> f64 {
    // position is 1-based
    ((position + 1) as f64).log2()
}

/// nDCG@k with gain [`GAIN_EXPECTED`] for expected refs and [`GAIN_ACCEPTABLE`] for
/// acceptable ones; the ideal DCG puts the case's own refs in the best order. `None` when
/// `expected` is empty.
pub fn ndcg_at_k(
    ranking: &[RefId],
    expected: &[RefId],
    acceptable: &[RefId],
    k: usize,
) -> Option<f64> {
    if expected.is_empty() {
        return None;
    }
    let gain = |r: &RefId| {
        if expected.contains(r) {
            GAIN_EXPECTED
        } else if acceptable.contains(r) {
            GAIN_ACCEPTABLE
        } else {
            0.0
        }
    };
    let dcg: f64 = provision_ranking(ranking)
        .into_iter()
        .take(k)
        .enumerate()
        .map(|(i, r)| gain(r) / discount(i + 1))
        .sum();
    let ideal_gains = std::iter::repeat_n(GAIN_EXPECTED, expected.len())
        .chain(std::iter::repeat_n(GAIN_ACCEPTABLE, acceptable.len()));
    let idcg: f64 = ideal_gains
        .take(k)
        .enumerate()
        .map(|(i, g)| g / discount(i + 1))
        .sum();
    Some(dcg / idcg)
}

/// Lookup Hit@1: whether the first provision is one the question names or an expected one.
/// `None` when the question names none (`question_refs` empty).
pub fn lookup_hit_at_1(
    ranking: &[RefId],
    question_refs: &[RefId],
    expected: &[RefId],
) -> Option<bool> {
    if question_refs.is_empty() {
        return None;
    }
    Some(
        ranking
            .first()
            .is_some_and(|top| question_refs.contains(top) || expected.contains(top)),
    )
}

/// The nearest-rank percentile: sort ascending, take the value at 1-based rank
/// ⌈p/100 · n⌉ (at least 1). It is always one of the observed values, never interpolated:
/// with 20 values p95 is the 19th, with 10 values it is the largest. `p` is clamped to
/// 0..=100; `None` for no values. NaNs sort last ([`f64::total_cmp`]).
pub fn percentile(values: &[f64], p: f64) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let p = if p.is_nan() {
        100.0
    } else {
        p.clamp(0.0, 100.0)
    };
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

/// The mean of the defined values; `None` when there are none.
pub fn mean(values: impl IntoIterator<Item = Option<f64>>) -> Option<f64> {
    let (sum, n) = values
        .into_iter()
        .flatten()
        .fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

/// A share of booleans as a number in 0..=1; `None` when there are none.
fn share(values: impl IntoIterator<Item = Option<bool>>) -> Option<f64> {
    mean(
        values
            .into_iter()
            .map(|v| v.map(|b| if b { 1.0 } else { 0.0 })),
    )
}

// ---------------------------------------------------------------------------------------------
// Runs and reports

/// What the system did for one golden case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseResult {
    /// The golden case's id.
    pub id: String,
    /// The final ranking, best first (chunk-level is fine: repeats collapse).
    pub ranking: Vec<RefId>,
    /// The longer pre-rerank candidate list, best first.
    #[serde(default)]
    pub candidates: Vec<RefId>,
    /// The system declined to answer.
    pub refused: bool,
    pub latency_ms: f64,
}

/// Knobs of a report.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ReportOptions {
    /// K of candidate recall.
    pub candidate_k: usize,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            candidate_k: DEFAULT_CANDIDATE_K,
        }
    }
}

/// Every metric of one case; undefined metrics are `None` (or empty for `recall_at`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseMetrics {
    pub id: String,
    pub category: Category,
    pub split: Split,
    /// The case's language (`GoldenCase::language`).
    #[serde(default)]
    pub language: Option<String>,
    pub must_refuse: bool,
    pub refused: bool,
    /// Recall@k for each k of [`RECALL_KS`].
    pub recall_at: BTreeMap<usize, f64>,
    pub reciprocal_rank_at_10: Option<f64>,
    pub ndcg_at_5: Option<f64>,
    pub lookup_hit_at_1: Option<bool>,
    pub candidate_recall: Option<f64>,
    pub latency_ms: f64,
}

impl CaseMetrics {
    /// Scores one result against its case (the ids are not compared here).
    pub fn compute(case: &GoldenCase, result: &CaseResult, options: &ReportOptions) -> Self {
        let e = &case.expected_refs;
        let recall_at = RECALL_KS
            .iter()
            .filter_map(|&k| recall_at_k(&result.ranking, e, k).map(|v| (k, v)))
            .collect();
        CaseMetrics {
            id: case.id.clone(),
            category: case.category,
            split: case.split,
            language: case.language.clone(),
            must_refuse: case.must_refuse,
            refused: result.refused,
            recall_at,
            reciprocal_rank_at_10: reciprocal_rank_at_k(&result.ranking, e, MRR_K),
            ndcg_at_5: ndcg_at_k(&result.ranking, e, &case.acceptable_refs, NDCG_K),
            lookup_hit_at_1: lookup_hit_at_1(&result.ranking, &case.question_refs, e),
            candidate_recall: candidate_recall_at_k(&result.candidates, e, options.candidate_k),
            latency_ms: result.latency_ms,
        }
    }

    /// Refused a case that must be refused; `None` for answerable cases.
    pub fn refused_correctly(&self) -> Option<bool> {
        self.must_refuse.then_some(self.refused)
    }

    /// Refused an answerable case; `None` for `must_refuse` cases.
    pub fn refused_wrongly(&self) -> Option<bool> {
        (!self.must_refuse).then_some(self.refused)
    }
}

/// Means of the per-case metrics over a group of cases.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub cases: usize,
    pub answerable: usize,
    pub must_refuse: usize,
    /// Cases with `question_refs` (the denominator of lookup Hit@1).
    pub lookup_cases: usize,
    /// Mean Recall@k over answerable cases, for each k of [`RECALL_KS`].
    pub recall_at: BTreeMap<usize, f64>,
    pub mrr_at_10: Option<f64>,
    pub ndcg_at_5: Option<f64>,
    pub lookup_hit_at_1: Option<f64>,
    pub candidate_recall: Option<f64>,
    pub refusal_accuracy: Option<f64>,
    pub false_refusal_rate: Option<f64>,
    pub latency_p50_ms: Option<f64>,
    pub latency_p95_ms: Option<f64>,
}

impl Summary {
    pub fn of(cases: &[&CaseMetrics]) -> Summary {
        let recall_at = RECALL_KS
            .iter()
            .filter_map(|k| {
                mean(cases.iter().map(|c| c.recall_at.get(k).copied())).map(|m| (*k, m))
            })
            .collect();
        let latencies: Vec<f64> = cases.iter().map(|c| c.latency_ms).collect();
        Summary {
            cases: cases.len(),
            answerable: cases.iter().filter(|c| !c.must_refuse).count(),
            must_refuse: cases.iter().filter(|c| c.must_refuse).count(),
            lookup_cases: cases.iter().filter(|c| c.lookup_hit_at_1.is_some()).count(),
            recall_at,
            mrr_at_10: mean(cases.iter().map(|c| c.reciprocal_rank_at_10)),
            ndcg_at_5: mean(cases.iter().map(|c| c.ndcg_at_5)),
            lookup_hit_at_1: share(cases.iter().map(|c| c.lookup_hit_at_1)),
            candidate_recall: mean(cases.iter().map(|c| c.candidate_recall)),
            refusal_accuracy: share(cases.iter().map(|c| c.refused_correctly())),
            false_refusal_rate: share(cases.iter().map(|c| c.refused_wrongly())),
            latency_p50_ms: percentile(&latencies, 50.0),
            latency_p95_ms: percentile(&latencies, 95.0),
        }
    }
}

/// Why results cannot be scored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReportError {
    #[error("result {0:?} names no golden case")]
    UnknownCase(String),
    #[error("case {0:?} has more than one result")]
    DuplicateResult(String),
}

/// The scores of one run: overall, per category, per case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub options: ReportOptions,
    pub overall: Summary,
    pub by_category: BTreeMap<Category, Summary>,
    /// Per language, for a set whose cases name theirs (the multilingual set); empty else.
    #[serde(default)]
    pub by_language: BTreeMap<String, Summary>,
    /// In the order of the results.
    pub cases: Vec<CaseMetrics>,
}

impl Report {
    /// Scores `results` against the golden `cases` they name. Only the cases with a result are
    /// scored, so a run over the dev split passes the dev results only.
    pub fn new(
        cases: &[GoldenCase],
        results: &[CaseResult],
        options: ReportOptions,
    ) -> Result<Report, ReportError> {
        let by_id: HashMap<&str, &GoldenCase> = cases.iter().map(|c| (c.id.as_str(), c)).collect();
        let mut seen = HashSet::new();
        let mut scored = Vec::with_capacity(results.len());
        for r in results {
            let case = by_id
                .get(r.id.as_str())
                .ok_or_else(|| ReportError::UnknownCase(r.id.clone()))?;
            if !seen.insert(r.id.as_str()) {
                return Err(ReportError::DuplicateResult(r.id.clone()));
            }
            scored.push(CaseMetrics::compute(case, r, &options));
        }
        let all: Vec<&CaseMetrics> = scored.iter().collect();
        let mut groups: BTreeMap<Category, Vec<&CaseMetrics>> = BTreeMap::new();
        let mut languages: BTreeMap<String, Vec<&CaseMetrics>> = BTreeMap::new();
        for c in &scored {
            groups.entry(c.category).or_default().push(c);
            if let Some(l) = &c.language {
                languages.entry(l.clone()).or_default().push(c);
            }
        }
        Ok(Report {
            options,
            overall: Summary::of(&all),
            by_category: groups
                .into_iter()
                .map(|(k, v)| (k, Summary::of(&v)))
                .collect(),
            by_language: languages
                .into_iter()
                .map(|(k, v)| (k, Summary::of(&v)))
                .collect(),
            cases: scored,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::golden::GoldenSet;

    fn ids(s: &[&str]) -> Vec<RefId> {
        s.iter().map(|x| x.parse().unwrap()).collect()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn repeats_collapse_to_their_first_position() {
        let r = ids(&["19", "19", "22", "19", "21"]);
        let p: Vec<&str> = provision_ranking(&r).iter().map(|x| x.as_str()).collect();
        assert_eq!(p, ["19", "22", "21"]);
    }

    #[test]
    fn recall_at_k() {
        let e = ids(&["58", "84"]);
        let r = ids(&["84", "84", "84", "102", "58"]);
        assert_eq!(super::recall_at_k(&r, &e, 1), Some(0.5));
        // the repeats of 84 take no slot: the provision ranking is [84, 102, 58]
        assert_eq!(super::recall_at_k(&r, &e, 2), Some(0.5));
        assert_eq!(super::recall_at_k(&r, &e, 3), Some(1.0));
        // a repeated expected ref counts once
        assert_eq!(super::recall_at_k(&ids(&["84", "84"]), &e, 5), Some(0.5));
        assert_eq!(super::recall_at_k(&[], &e, 5), Some(0.0));
        assert_eq!(super::recall_at_k(&r, &[], 5), None);
        assert_eq!(super::recall_at_k(&r, &e, 0), Some(0.0));
    }

    #[test]
    fn reciprocal_rank() {
        let e = ids(&["22"]);
        assert_eq!(reciprocal_rank_at_k(&ids(&["22", "21"]), &e, 10), Some(1.0));
        assert_eq!(
            reciprocal_rank_at_k(&ids(&["21", "21", "20", "22"]), &e, 10),
            Some(1.0 / 3.0)
        );
        // acceptable refs are not hits
        assert_eq!(reciprocal_rank_at_k(&ids(&["21"]), &e, 10), Some(0.0));
        let far: Vec<RefId> = (1..=10)
            .map(|n| RefId::article_from_parts(n, "").unwrap())
            .chain(ids(&["22"]))
            .collect();
        assert_eq!(reciprocal_rank_at_k(&far, &e, 10), Some(0.0));
        assert_eq!(reciprocal_rank_at_k(&far, &e, 11), Some(1.0 / 11.0));
        assert_eq!(reciprocal_rank_at_k(&far, &[], 10), None);
    }

    #[test]
    fn ndcg() {
        let e = ids(&["356"]);
        let a = ids(&["355", "365"]);
        // ideal order: 356, then the two acceptable ones
        assert_eq!(
            ndcg_at_k(&ids(&["356", "355", "365"]), &e, &a, 5),
            Some(1.0)
        );
        assert_eq!(
            ndcg_at_k(&ids(&["356", "356", "365", "355"]), &e, &a, 5),
            Some(1.0)
        );
        let idcg = 2.0 + 1.0 / 3f64.log2() + 1.0 / 2.0;
        // [355, 356]: 1/log2(2) + 2/log2(3)
        let got = ndcg_at_k(&ids(&["355", "356"]), &e, &a, 5).unwrap();
        assert!(close(got, (1.0 + 2.0 / 3f64.log2()) / idcg), "{got}");
        // only acceptable refs
        let got = ndcg_at_k(&ids(&["365"]), &e, &a, 5).unwrap();
        assert!(close(got, 1.0 / idcg), "{got}");
        assert_eq!(ndcg_at_k(&ids(&["1", "2"]), &e, &a, 5), Some(0.0));
        // beyond the cut-off counts nothing
        let late = ids(&["1", "2", "3", "4", "5", "356"]);
        assert_eq!(ndcg_at_k(&late, &e, &a, 5), Some(0.0));
        assert_eq!(ndcg_at_k(&late, &[], &a, 5), None);
        // the ideal is cut at k too: 6 expected refs, the top 5 of them found is perfect
        let six = ids(&["1", "2", "3", "4", "5", "6"]);
        assert_eq!(ndcg_at_k(&six, &six, &[], 5), Some(1.0));
    }

    #[test]
    fn lookup_hit() {
        let q = ids(&["21A"]);
        assert_eq!(lookup_hit_at_1(&ids(&["21A", "21"]), &q, &q), Some(true));
        assert_eq!(lookup_hit_at_1(&ids(&["21", "21A"]), &q, &q), Some(false));
        // an expected ref at the top counts too
        assert_eq!(
            lookup_hit_at_1(&ids(&["300A"]), &ids(&["31"]), &ids(&["300A"])),
            Some(true)
        );
        assert_eq!(lookup_hit_at_1(&[], &q, &q), Some(false));
        assert_eq!(lookup_hit_at_1(&ids(&["21A"]), &[], &q), None);
    }

    #[test]
    fn candidate_recall() {
        let e = ids(&["200", "201"]);
        let c: Vec<RefId> = (1..=60)
            .map(|n| RefId::article_from_parts(n, "").unwrap())
            .chain(ids(&["201"]))
            .collect();
        assert_eq!(candidate_recall_at_k(&c, &e, 50), Some(0.0));
        assert_eq!(candidate_recall_at_k(&c, &e, 100), Some(0.5));
    }

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<f64> = (1..=20).map(f64::from).rev().collect();
        assert_eq!(percentile(&v, 50.0), Some(10.0));
        assert_eq!(percentile(&v, 95.0), Some(19.0));
        assert_eq!(percentile(&v, 100.0), Some(20.0));
        assert_eq!(percentile(&v, 0.0), Some(1.0));
        let ten: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(percentile(&ten, 95.0), Some(10.0));
        assert_eq!(percentile(&ten, 50.0), Some(5.0));
        assert_eq!(percentile(&[7.0], 95.0), Some(7.0));
        assert_eq!(percentile(&[], 50.0), None);
    }

    const SET: &str = r#"{"id": "A", "split": "dev", "category": "simple", "question": "arrest?", "expected_refs": ["22"], "acceptable_refs": ["21"], "must_refuse": false, "reference_answer": "x", "evidence": "p.42: one two three four five six"}
{"id": "B", "split": "dev", "category": "article_lookup", "question": "A32", "expected_refs": ["32"], "question_refs": ["32"], "must_refuse": false, "reference_answer": "x", "evidence": "p.52: one two three four five six"}
{"id": "C", "split": "test", "category": "out_of_scope", "question": "IPC 302?", "expected_refs": [], "must_refuse": true}
{"id": "D", "split": "test", "category": "out_of_scope", "question": "Who is the CJI today?", "expected_refs": [], "must_refuse": true}"#;

    fn result(id: &str, ranking: &[&str], refused: bool, latency_ms: f64) -> CaseResult {
        CaseResult {
            id: id.into(),
            ranking: ids(ranking),
            candidates: ids(ranking),
            refused,
            latency_ms,
        }
    }

    #[test]
    fn report_aggregates_means_over_defined_cases() {
        let set = GoldenSet::parse(SET).unwrap();
        let results = [
            result("A", &["21", "22"], false, 10.0),
            result("B", &["32"], true, 30.0),
            result("C", &["21"], true, 20.0),
            result("D", &[], false, 40.0),
        ];
        let report = Report::new(set.cases(), &results, ReportOptions::default()).unwrap();
        let o = &report.overall;
        assert_eq!(
            (o.cases, o.answerable, o.must_refuse, o.lookup_cases),
            (4, 2, 2, 1)
        );
        assert_eq!(o.recall_at[&1], 0.5); // A misses at 1, B hits
        assert_eq!(o.recall_at[&3], 1.0);
        assert_eq!(o.mrr_at_10, Some(0.75));
        assert_eq!(o.lookup_hit_at_1, Some(1.0));
        assert_eq!(o.candidate_recall, Some(1.0));
        assert_eq!(o.refusal_accuracy, Some(0.5));
        assert_eq!(o.false_refusal_rate, Some(0.5));
        assert_eq!(o.latency_p50_ms, Some(20.0));
        assert_eq!(o.latency_p95_ms, Some(40.0));
        let a = &report.cases[0];
        let idcg = 2.0 + 1.0 / 3f64.log2();
        assert!(close(
            a.ndcg_at_5.unwrap(),
            (1.0 + 2.0 / 3f64.log2()) / idcg
        ));
        let oos = &report.by_category[&Category::OutOfScope];
        assert_eq!(oos.cases, 2);
        assert_eq!(oos.mrr_at_10, None);
        assert!(oos.recall_at.is_empty());
        assert_eq!(oos.false_refusal_rate, None);
        let simple = &report.by_category[&Category::Simple];
        assert_eq!(simple.refusal_accuracy, None);
        assert_eq!(simple.lookup_hit_at_1, None);

        // serialisable, with categories and ks as keys
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["by_category"]["out_of_scope"]["cases"], 2);
        assert_eq!(json["overall"]["recall_at"]["3"], 1.0);
        let back: Report = serde_json::from_value(json).unwrap();
        assert_eq!(back.cases.len(), 4);
        assert_eq!(back.by_category.len(), 3);
    }

    #[test]
    fn report_scores_a_subset_and_rejects_strangers_and_repeats() {
        let set = GoldenSet::parse(SET).unwrap();
        let dev = Report::new(
            set.cases(),
            &[result("A", &["22"], false, 1.0)],
            ReportOptions::default(),
        )
        .unwrap();
        assert_eq!(dev.overall.cases, 1);
        assert_eq!(dev.overall.refusal_accuracy, None);
        assert_eq!(
            Report::new(
                set.cases(),
                &[result("Z", &[], false, 1.0)],
                ReportOptions::default()
            ),
            Err(ReportError::UnknownCase("Z".into()))
        );
        assert_eq!(
            Report::new(
                set.cases(),
                &[result("A", &[], false, 1.0), result("A", &[], false, 1.0)],
                ReportOptions::default()
            ),
            Err(ReportError::DuplicateResult("A".into()))
        );
        let empty = Report::new(set.cases(), &[], ReportOptions::default()).unwrap();
        assert_eq!(empty.overall.mrr_at_10, None);
        assert_eq!(empty.overall.latency_p50_ms, None);
    }

    #[test]
    fn case_results_read_from_json() {
        let r: CaseResult = serde_json::from_str(
            r#"{"id": "A", "ranking": ["22", "SCH-7"], "refused": false, "latency_ms": 12.5}"#,
        )
        .unwrap();
        assert_eq!(r.ranking, ids(&["22", "SCH-7"]));
        assert!(r.candidates.is_empty());
        assert!(serde_json::from_str::<CaseResult>(
            r#"{"id": "A", "ranking": ["Art. 22"], "refused": false, "latency_ms": 1}"#
        )
        .is_err());
    }
}
