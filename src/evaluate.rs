//! Drives the evaluation harness (`nyaya-eval`, pure) with the real search: one search per
//! golden case, pinned and unpinned, and the scorecard, gates, refusal sweep and ablation
//! built from them.

use std::collections::{BTreeMap, HashMap};

use sqlx::PgPool;

use nyaya_eval::{
    CaseResult, GoldenCase, Paraphrase, Report, ReportOptions, Scorecard, WordingCard,
};
use nyaya_ingest::RefId;

use crate::error::{AppError, AppResult};
use crate::search::{search, Models, SearchOptions};

/// What one case produced in one run.
#[derive(Debug, Clone)]
pub struct CaseRun {
    pub id: String,
    pub ranking: Vec<String>,
    /// Provisions one hop from the top hits.
    pub supporting: Vec<String>,
    pub candidates: Vec<String>,
    pub refused: bool,
    /// The best-chunk cosine (for the refusal sweep).
    pub confidence: Option<f64>,
    /// The question bank's scope margin ([`crate::search::Coverage::bank_margin`]).
    pub bank_margin: Option<f64>,
    /// Refused by the out-of-scope rules (so no threshold can un-refuse it).
    pub ruled_out: bool,
    pub pinned_hit: bool,
    pub latency_ms: f64,
}

/// A whole evaluation: the pinned and unpinned runs of the same cases.
pub struct Evaluation {
    pub pinned: Vec<CaseRun>,
    pub unpinned: Vec<CaseRun>,
    pub pinned_report: Report,
    pub unpinned_report: Report,
    pub scorecard: Scorecard,
}

async fn run_cases(
    pool: &PgPool,
    models: &Models,
    cases: &[&GoldenCase],
    opts: &SearchOptions,
) -> AppResult<Vec<CaseRun>> {
    let mut out = Vec::with_capacity(cases.len());
    for case in cases {
        let r = search(pool, models, &case.question, opts, case.id.clone()).await?;
        out.push(CaseRun {
            id: case.id.clone(),
            ranking: r.results.iter().map(|h| h.ref_id.clone()).collect(),
            supporting: r.supporting.iter().map(|s| s.ref_id.clone()).collect(),
            candidates: r.candidates.clone(),
            refused: !r.coverage.covered,
            confidence: r.coverage.confidence,
            bank_margin: r.coverage.bank_margin,
            ruled_out: r.coverage.out_of_scope.is_some(),
            pinned_hit: r.results.iter().any(|h| h.pinned),
            latency_ms: r.timings_ms.total,
        });
    }
    Ok(out)
}

fn to_results(runs: &[CaseRun]) -> Vec<CaseResult> {
    let parse = |v: &[String]| v.iter().filter_map(|r| r.parse().ok()).collect();
    runs.iter()
        .map(|r| CaseResult {
            id: r.id.clone(),
            ranking: parse(&r.ranking),
            candidates: parse(&r.candidates),
            refused: r.refused,
            latency_ms: r.latency_ms,
        })
        .collect()
}

fn report(cases: &[GoldenCase], runs: &[CaseRun]) -> AppResult<Report> {
    Report::new(cases, &to_results(runs), ReportOptions::default())
        .map_err(|e| AppError::BadRequest(format!("evaluation: {e}")))
}

/// Runs every case twice (refs pinned and not) with `opts` (its `k` is raised to 10 so that
/// Recall@10 and MRR@10 are defined).
pub async fn evaluate(
    pool: &PgPool,
    models: &Models,
    cases: &[GoldenCase],
    opts: &SearchOptions,
) -> AppResult<Evaluation> {
    let refs: Vec<&GoldenCase> = cases.iter().collect();
    let base = SearchOptions {
        k: opts.k.max(10),
        ..opts.clone()
    };
    let pinned = run_cases(
        pool,
        models,
        &refs,
        &SearchOptions {
            pin: true,
            ..base.clone()
        },
    )
    .await?;
    let unpinned = run_cases(pool, models, &refs, &SearchOptions { pin: false, ..base }).await?;
    let pinned_report = report(cases, &pinned)?;
    let unpinned_report = report(cases, &unpinned)?;
    let rankings: BTreeMap<String, Vec<String>> = unpinned
        .iter()
        .map(|r| (r.id.clone(), r.ranking.clone()))
        .collect();
    let scorecard = Scorecard::new(cases, &pinned_report, &unpinned_report, &rankings);
    Ok(Evaluation {
        pinned,
        unpinned,
        pinned_report,
        unpinned_report,
        scorecard,
    })
}

/// Every provision's stored text in the edition the answers read, by ref: what the
/// evaluations check quotes against (not the pipeline's own copy).
async fn provision_texts(
    pool: &sqlx::PgPool,
    edition: Option<&str>,
) -> AppResult<BTreeMap<String, String>> {
    let edition = crate::store::resolve_edition(pool, edition).await?;
    Ok(sqlx::query_as::<_, (String, String)>(
        "SELECT ref_id, text FROM provisions WHERE document_id = $1",
    )
    .bind(edition.document_id)
    .fetch_all(pool)
    .await?
    .into_iter()
    .collect())
}

/// Whether a citation's quote is an exact substring of its provision's stored text.
fn verbatim(c: &crate::answer::Citation, texts: &BTreeMap<String, String>) -> bool {
    texts
        .get(&c.ref_id)
        .is_some_and(|t| crate::answer::quote::is_verbatim(&c.quote, t))
}

/// Runs every case through the answer pipeline (the answerer's default mode) and scores it.
/// Each quote is checked against the provision's text as stored, not the pipeline's copy.
pub async fn evaluate_answers(
    answerer: &crate::answer::Answerer,
    cases: &[GoldenCase],
) -> AppResult<(nyaya_eval::AnswerCard, Vec<nyaya_eval::AnswerOutcome>)> {
    let texts = provision_texts(&answerer.pool, answerer.search.edition.as_deref()).await?;
    let run = uuid::Uuid::new_v4().simple().to_string();
    let mut outcomes = Vec::with_capacity(cases.len());
    for case in cases {
        let req = crate::answer::AskRequest {
            question: case.question.clone(),
            history: Vec::new(),
            mode: None,
            facts: Default::default(),
            edition: None,
        };
        let request_id = format!("eval-{}-{}-{}", &run[..8], case.split.as_str(), case.id);
        let r = crate::answer::ask(answerer, req, request_id, None).await?;
        outcomes.push(nyaya_eval::AnswerOutcome {
            id: case.id.clone(),
            route: r.route.as_str().to_string(),
            refused: r.refused,
            cited: r.citations.iter().map(|c| c.ref_id.clone()).collect(),
            retrieved: r.retrieval.retrieved.clone(),
            scores: r
                .retrieval
                .results
                .iter()
                .map(|h| (h.ref_id.clone(), h.score))
                .collect(),
            quotes: r.citations.iter().map(|c| c.quote.clone()).collect(),
            quotes_verbatim: r.citations.iter().map(|c| verbatim(c, &texts)).collect(),
            latency_ms: r.timings_ms.total,
        });
    }
    Ok((nyaya_eval::AnswerCard::new(cases, &outcomes), outcomes))
}

/// Each wording of `groups` (question, rewordings, romanised Hindi) → the first provision of
/// its unpinned ranking. Questions already in `unpinned` are not searched again.
pub async fn paraphrase_firsts_search(
    pool: &PgPool,
    models: &Models,
    groups: &[&Paraphrase],
    unpinned: &[CaseRun],
    opts: &SearchOptions,
) -> AppResult<BTreeMap<String, Option<String>>> {
    let known: BTreeMap<&str, &CaseRun> = unpinned.iter().map(|r| (r.id.as_str(), r)).collect();
    let opts = SearchOptions {
        pin: false,
        ..opts.clone()
    };
    let mut first = BTreeMap::new();
    for g in groups {
        if let Some(run) = known.get(g.case.as_str()) {
            first.insert(g.question.clone(), run.ranking.first().cloned());
        }
        for w in g.wordings().chain(g.romanised_hindi.as_deref()) {
            if first.contains_key(w) {
                continue;
            }
            let id = format!("{}-paraphrase", g.case);
            let r = search(pool, models, w, &opts, id).await?;
            first.insert(w.to_string(), r.results.first().map(|h| h.ref_id.clone()));
        }
    }
    Ok(first)
}

/// Each wording of `groups` → the first citation of its answer (`None` when refused). The
/// questions' own answers are taken from `outcomes`; romanised Hindi is not asked (it is a
/// retrieval figure only).
pub async fn paraphrase_firsts_answers(
    answerer: &crate::answer::Answerer,
    groups: &[&Paraphrase],
    outcomes: &[nyaya_eval::AnswerOutcome],
) -> AppResult<BTreeMap<String, Option<String>>> {
    let lead =
        |refused: bool, cited: &[String]| (!refused).then(|| cited.first().cloned()).flatten();
    let known: BTreeMap<&str, &nyaya_eval::AnswerOutcome> =
        outcomes.iter().map(|o| (o.id.as_str(), o)).collect();
    let mut first = BTreeMap::new();
    for g in groups {
        if let Some(o) = known.get(g.case.as_str()) {
            first.insert(g.question.clone(), lead(o.refused, &o.cited));
        }
        for w in g.wordings() {
            if first.contains_key(w) {
                continue;
            }
            let req = crate::answer::AskRequest {
                question: w.to_string(),
                history: Vec::new(),
                mode: None,
                facts: Default::default(),
                edition: None,
            };
            let request_id = format!(
                "eval-paraphrase-{}-{}",
                g.case,
                uuid::Uuid::new_v4().simple()
            );
            let r = crate::answer::ask(answerer, req, request_id, None).await?;
            let cited: Vec<String> = r.citations.iter().map(|c| c.ref_id.clone()).collect();
            first.insert(w.to_string(), lead(r.refused, &cited));
        }
    }
    Ok(first)
}

/// Wording-group consistency ([`WordingCard`]) of the unpinned search (its first result, as
/// the paraphrase suite reads it) and, when the answers ran, of the answers (the first
/// citation; a refusal leads with nothing). `None` for a set without groups.
pub fn wording_cards(
    cases: &[GoldenCase],
    unpinned: &[CaseRun],
    outcomes: Option<&[nyaya_eval::AnswerOutcome]>,
) -> (Option<WordingCard>, Option<WordingCard>) {
    let parse = |r: Option<&String>| r.and_then(|r| r.parse::<RefId>().ok());
    let search: HashMap<&str, Option<RefId>> = unpinned
        .iter()
        .map(|r| (r.id.as_str(), parse(r.ranking.first())))
        .collect();
    let answers = outcomes.map(|outcomes| {
        let firsts: HashMap<&str, Option<RefId>> = outcomes
            .iter()
            .map(|o| (o.id.as_str(), parse(o.cited.first()).filter(|_| !o.refused)))
            .collect();
        WordingCard::new(cases, &firsts)
    });
    (WordingCard::new(cases, &search), answers.flatten())
}

/// One JSON line per case ([`nyaya_eval::dumpdiff::DumpCase`]): the question, its refs, the
/// pinned and unpinned top 10 (with the best chunk's cosine and the question bank's scope
/// margin, for replaying refusals) and, when the answers ran, the route, what the answer cited
/// (in order) and quoted — the raw material of FAILURES.md, of `nyaya eval-diff` and of any
/// analysis the scorecard does not make.
pub fn dump_lines(
    cases: &[GoldenCase],
    ev: &Evaluation,
    outcomes: &[nyaya_eval::AnswerOutcome],
) -> String {
    use nyaya_eval::dumpdiff::{DumpAnswer, DumpCase, DumpRun};
    let run = |runs: &[CaseRun], id: &str| {
        runs.iter().find(|r| r.id == id).map(|r| DumpRun {
            ranking: r.ranking.iter().take(10).cloned().collect(),
            refused: r.refused,
            confidence: r.confidence,
            bank_margin: r.bank_margin,
        })
    };
    let refs = |refs: &[nyaya_ingest::RefId]| refs.iter().map(|r| r.to_string()).collect();
    let mut out = String::new();
    for c in cases {
        let answer = outcomes.iter().find(|o| o.id == c.id).map(|o| DumpAnswer {
            route: o.route.clone(),
            refused: o.refused,
            cited: o.cited.clone(),
            quotes: o.quotes.clone(),
            retrieved: o.retrieved.iter().take(10).cloned().collect(),
            scores: o.scores.clone(),
            evidence_quoted: nyaya_eval::evidence_quoted(c, &o.quotes),
        });
        let line = DumpCase {
            id: c.id.clone(),
            split: Some(c.split),
            category: Some(c.category),
            question: c.question.clone(),
            expected: refs(&c.expected_refs),
            acceptable: refs(&c.acceptable_refs),
            must_refuse: c.must_refuse,
            pinned: run(&ev.pinned, &c.id),
            unpinned: run(&ev.unpinned, &c.id),
            answer,
        };
        out.push_str(&line.to_line());
        out.push('\n');
    }
    out
}

/// One point of the refusal curve.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SweepPoint {
    pub threshold: f64,
    pub refusal_accuracy: f64,
    pub false_refusal_rate: f64,
    /// Refusal accuracy of the threshold alone, without the out-of-scope rules: how much of
    /// what the rules might miss the similarity still catches.
    pub threshold_only_accuracy: f64,
}

/// Refusal accuracy and false-refusal rate for each threshold, from one pinned run's
/// confidences: a case is refused when the rules ruled it out, or when no ref was pinned and
/// its confidence is below the threshold — the same decision `search::coverage::coverage` makes.
pub fn sweep(cases: &[GoldenCase], runs: &[CaseRun], thresholds: &[f64]) -> Vec<SweepPoint> {
    let must: BTreeMap<&str, bool> = cases
        .iter()
        .map(|c| (c.id.as_str(), c.must_refuse))
        .collect();
    thresholds
        .iter()
        .map(|&t| {
            let (mut right, mut refuse_n, mut wrong, mut answer_n) = (0, 0, 0, 0);
            let mut right_alone = 0;
            for r in runs {
                let weak = !r.pinned_hit && r.confidence.is_some_and(|c| c < t);
                let refused = r.ruled_out || weak;
                if must.get(r.id.as_str()).copied().unwrap_or(false) {
                    refuse_n += 1;
                    right += refused as usize;
                    right_alone += weak as usize;
                } else {
                    answer_n += 1;
                    wrong += refused as usize;
                }
            }
            SweepPoint {
                threshold: t,
                refusal_accuracy: right as f64 / refuse_n.max(1) as f64,
                false_refusal_rate: wrong as f64 / answer_n.max(1) as f64,
                threshold_only_accuracy: right_alone as f64 / refuse_n.max(1) as f64,
            }
        })
        .collect()
}

/// Below the last threshold that refuses no answerable dev case, this much margin is kept.
pub const THRESHOLD_MARGIN: f64 = 0.03;

/// The threshold to ship. The out-of-scope rules do most of the refusing; the threshold is the
/// second line, for what the rules miss, and a wrong refusal costs a citizen their answer. So:
/// the highest threshold that meets both refusal gates *and* refuses no answerable case, less
/// [`THRESHOLD_MARGIN`]; if none refuses nothing, the highest that meets both gates; if none
/// meets both, the one with the fewest errors.
pub fn pick_threshold(points: &[SweepPoint], min_accuracy: f64, max_false: f64) -> f64 {
    let ok =
        |p: &&SweepPoint| p.refusal_accuracy >= min_accuracy && p.false_refusal_rate <= max_false;
    let highest = |f: &dyn Fn(&&SweepPoint) -> bool| {
        points
            .iter()
            .filter(|p| ok(p) && f(p))
            .map(|p| p.threshold)
            .fold(None, |m: Option<f64>, t| Some(m.map_or(t, |m| m.max(t))))
    };
    if let Some(t) = highest(&|p| p.false_refusal_rate == 0.0) {
        return (t - THRESHOLD_MARGIN).max(0.0);
    }
    if let Some(t) = highest(&|_| true) {
        return t;
    }
    points
        .iter()
        .min_by(|x, y| {
            let ex = (1.0 - x.refusal_accuracy) + x.false_refusal_rate;
            let ey = (1.0 - y.refusal_accuracy) + y.false_refusal_rate;
            ex.total_cmp(&ey)
        })
        .map(|p| p.threshold)
        .unwrap_or(0.0)
}

/// Runs the eligibility cases of a split through the answer pipeline (with each case's form
/// facts) and checks every quote against the stored text.
pub async fn evaluate_eligibility(
    answerer: &crate::answer::Answerer,
    cases: &[nyaya_eval::EligibilityCase],
) -> AppResult<nyaya_eval::EligibilityCard> {
    let texts = provision_texts(&answerer.pool, answerer.search.edition.as_deref()).await?;
    let run = uuid::Uuid::new_v4().simple().to_string();
    let mut outcomes = Vec::with_capacity(cases.len());
    for case in cases {
        // The case's JSON facts are the request's: the same untagged yes/no-or-number values.
        let facts = serde_json::from_value(serde_json::Value::Object(
            case.facts.clone().into_iter().collect(),
        ))
        .map_err(|e| AppError::BadRequest(format!("{}: facts: {e}", case.id)))?;
        let req = crate::answer::AskRequest {
            question: case.question.clone(),
            history: Vec::new(),
            mode: None,
            facts,
            edition: None,
        };
        let request_id = format!("eval-{}-eligibility-{}", &run[..8], case.id);
        let r = crate::answer::ask(answerer, req, request_id, None).await?;
        let v = r.eligibility.as_ref();
        outcomes.push(nyaya_eval::EligibilityOutcome {
            id: case.id.clone(),
            route: r.route.as_str().to_string(),
            office: v.map(|v| v.office.clone()),
            verdict: v.map(|v| v.verdict.as_str().to_string()),
            not_met: v.map(|v| v.failing.clone()).unwrap_or_default(),
            asked: v
                .map(|v| v.missing_facts.iter().map(|m| m.id.clone()).collect())
                .unwrap_or_default(),
            cited: r.citations.iter().map(|c| c.ref_id.clone()).collect(),
            quotes_verbatim: r.citations.iter().all(|c| verbatim(c, &texts)),
        });
    }
    Ok(nyaya_eval::EligibilityCard::new(cases, &outcomes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(t: f64, acc: f64, fr: f64) -> SweepPoint {
        SweepPoint {
            threshold: t,
            refusal_accuracy: acc,
            false_refusal_rate: fr,
            threshold_only_accuracy: 0.0,
        }
    }

    #[test]
    fn the_threshold_stays_a_margin_below_the_first_wrong_refusal() {
        let points = [
            pt(0.1, 0.80, 0.00),
            pt(0.2, 0.96, 0.00),
            pt(0.3, 0.96, 0.00),
            pt(0.4, 0.97, 0.04),
            pt(0.5, 1.00, 0.10),
        ];
        assert!((pick_threshold(&points, 0.95, 0.05) - (0.3 - THRESHOLD_MARGIN)).abs() < 1e-9);
        // Every passing threshold refuses someone: the highest passing one.
        let points = [
            pt(0.1, 0.90, 0.01),
            pt(0.2, 0.96, 0.02),
            pt(0.3, 0.97, 0.04),
        ];
        assert!((pick_threshold(&points, 0.95, 0.05) - 0.3).abs() < 1e-9);
    }

    #[test]
    fn without_a_passing_threshold_the_fewest_errors_win() {
        let points = [pt(0.1, 0.5, 0.0), pt(0.2, 0.9, 0.1), pt(0.3, 1.0, 0.5)];
        assert_eq!(pick_threshold(&points, 0.95, 0.05), 0.2);
    }
}
