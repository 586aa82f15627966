//! The scorecard of one evaluation run: the pinned and unpinned reports reduced to the figures
//! `nyaya eval --json` prints, a flat `name → value` view of them for gates, and the Markdown
//! report `--report` writes.
//!
//! Every retrieval metric is reported twice: with refs the question names pinned first (what a
//! user gets) and without (what retrieval alone achieves). The headline gate is the unpinned
//! one, so pinning can never hide a retrieval regression.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::golden::{Category, GoldenCase};
use crate::metrics::{Report, Summary};

/// The retrieval figures of one run (pinned or unpinned).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Retrieval {
    pub recall_at_1: Option<f64>,
    pub recall_at_5: Option<f64>,
    pub recall_at_10: Option<f64>,
    pub mrr_at_10: Option<f64>,
    pub ndcg_at_5: Option<f64>,
    pub lookup_hit_at_1: Option<f64>,
    pub candidate_recall: Option<f64>,
}

impl Retrieval {
    pub fn of(s: &Summary) -> Retrieval {
        Retrieval {
            recall_at_1: s.recall_at.get(&1).copied(),
            recall_at_5: s.recall_at.get(&5).copied(),
            recall_at_10: s.recall_at.get(&10).copied(),
            mrr_at_10: s.mrr_at_10,
            ndcg_at_5: s.ndcg_at_5,
            lookup_hit_at_1: s.lookup_hit_at_1,
            candidate_recall: s.candidate_recall,
        }
    }

    fn named(&self) -> [(&'static str, Option<f64>); 7] {
        [
            ("recall_at_1", self.recall_at_1),
            ("recall_at_5", self.recall_at_5),
            ("recall_at_10", self.recall_at_10),
            ("mrr_at_10", self.mrr_at_10),
            ("ndcg_at_5", self.ndcg_at_5),
            ("lookup_hit_at_1", self.lookup_hit_at_1),
            ("candidate_recall", self.candidate_recall),
        ]
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Latency {
    pub p50: Option<f64>,
    pub p95: Option<f64>,
}

/// A case whose expected refs are not all in the top 5 (unpinned), or whose refusal was wrong.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Failure {
    pub id: String,
    pub expected: Vec<String>,
    /// The top of the unpinned ranking.
    pub got: Vec<String>,
    /// Why it is listed: "missed", "refused", "not refused".
    pub kind: String,
}

/// What `nyaya eval --json` prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scorecard {
    pub cases: usize,
    #[serde(flatten)]
    pub pinned: Retrieval,
    pub refusal_accuracy: Option<f64>,
    pub false_refusal_rate: Option<f64>,
    pub latency_ms: Latency,
    pub unpinned: Retrieval,
    /// Per language, for a set whose cases name theirs (`lang`); empty else.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub by_language: BTreeMap<String, LanguageFigures>,
    pub failures: Vec<Failure>,
}

/// One language's figures: retrieval unpinned (what the words of the question find), refusals
/// and latency from the pinned run, as for the whole set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LanguageFigures {
    pub cases: usize,
    pub unpinned: Retrieval,
    pub refusal_accuracy: Option<f64>,
    pub false_refusal_rate: Option<f64>,
    pub latency_p95_ms: Option<f64>,
}

/// How many refs of the unpinned ranking a failure shows.
const FAILURE_TOP: usize = 5;

impl Scorecard {
    /// `pinned` and `unpinned` are reports of the same cases; refusals and latency are taken
    /// from the pinned run (the one users get).
    pub fn new(
        cases: &[GoldenCase],
        pinned: &Report,
        unpinned: &Report,
        unpinned_rankings: &BTreeMap<String, Vec<String>>,
    ) -> Scorecard {
        let mut failures = Vec::new();
        for c in &unpinned.cases {
            let Some(case) = cases.iter().find(|g| g.id == c.id) else {
                continue;
            };
            let pinned_case = pinned.cases.iter().find(|p| p.id == c.id);
            let got: Vec<String> = unpinned_rankings
                .get(&c.id)
                .map(|r| r.iter().take(FAILURE_TOP).cloned().collect())
                .unwrap_or_default();
            let expected: Vec<String> = case.expected_refs.iter().map(|r| r.to_string()).collect();
            let kind = if c.must_refuse {
                (!pinned_case.is_some_and(|p| p.refused)).then_some("not refused")
            } else if pinned_case.is_some_and(|p| p.refused) {
                Some("refused")
            } else if c.recall_at.get(&5).is_some_and(|r| *r < 1.0) {
                Some("missed")
            } else {
                None
            };
            if let Some(kind) = kind {
                failures.push(Failure {
                    id: c.id.clone(),
                    expected,
                    got,
                    kind: kind.into(),
                });
            }
        }
        Scorecard {
            cases: pinned.overall.cases,
            pinned: Retrieval::of(&pinned.overall),
            refusal_accuracy: pinned.overall.refusal_accuracy,
            false_refusal_rate: pinned.overall.false_refusal_rate,
            latency_ms: Latency {
                p50: pinned.overall.latency_p50_ms,
                p95: pinned.overall.latency_p95_ms,
            },
            unpinned: Retrieval::of(&unpinned.overall),
            by_language: pinned
                .by_language
                .iter()
                .filter_map(|(lang, p)| {
                    let u = unpinned.by_language.get(lang)?;
                    Some((
                        lang.clone(),
                        LanguageFigures {
                            cases: p.cases,
                            unpinned: Retrieval::of(u),
                            refusal_accuracy: p.refusal_accuracy,
                            false_refusal_rate: p.false_refusal_rate,
                            latency_p95_ms: p.latency_p95_ms,
                        },
                    ))
                })
                .collect(),
            failures,
        }
    }

    /// Every figure by the name gates use: `recall_at_5` (pinned), `unpinned.recall_at_5`,
    /// `refusal_accuracy`, `false_refusal_rate`, `latency_ms.p95` …  Undefined figures are left
    /// out.
    pub fn flat(&self) -> BTreeMap<String, f64> {
        let mut out = BTreeMap::new();
        for (name, v) in self.pinned.named() {
            if let Some(v) = v {
                out.insert(name.to_string(), v);
            }
        }
        for (name, v) in self.unpinned.named() {
            if let Some(v) = v {
                out.insert(format!("unpinned.{name}"), v);
            }
        }
        let rest = [
            ("refusal_accuracy", self.refusal_accuracy),
            ("false_refusal_rate", self.false_refusal_rate),
            ("latency_ms.p50", self.latency_ms.p50),
            ("latency_ms.p95", self.latency_ms.p95),
        ];
        for (name, v) in rest {
            if let Some(v) = v {
                out.insert(name.to_string(), v);
            }
        }
        // `language.hi.unpinned.recall_at_5`, `language.hi.refusal_accuracy` …
        for (lang, f) in &self.by_language {
            for (name, v) in f.unpinned.named() {
                if let Some(v) = v {
                    out.insert(format!("language.{lang}.unpinned.{name}"), v);
                }
            }
            let rest = [
                ("refusal_accuracy", f.refusal_accuracy),
                ("false_refusal_rate", f.false_refusal_rate),
                ("latency_ms.p95", f.latency_p95_ms),
            ];
            for (name, v) in rest {
                if let Some(v) = v {
                    out.insert(format!("language.{lang}.{name}"), v);
                }
            }
        }
        out
    }
}

fn fmt(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.3}")).unwrap_or_else(|| "–".into())
}

/// The terminal table: one row per metric, pinned and unpinned side by side.
pub fn render_table(card: &Scorecard) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{:<22} {:>8} {:>9}", "metric", "pinned", "unpinned");
    for ((name, p), (_, u)) in card.pinned.named().iter().zip(card.unpinned.named().iter()) {
        let _ = writeln!(s, "{:<22} {:>8} {:>9}", name, fmt(*p), fmt(*u));
    }
    let _ = writeln!(
        s,
        "{:<22} {:>8}",
        "refusal_accuracy",
        fmt(card.refusal_accuracy)
    );
    let _ = writeln!(
        s,
        "{:<22} {:>8}",
        "false_refusal_rate",
        fmt(card.false_refusal_rate)
    );
    let _ = writeln!(
        s,
        "{:<22} {:>8}",
        "latency p50 ms",
        card.latency_ms
            .p50
            .map(|v| format!("{v:.1}"))
            .unwrap_or_default()
    );
    let _ = writeln!(
        s,
        "{:<22} {:>8}",
        "latency p95 ms",
        card.latency_ms
            .p95
            .map(|v| format!("{v:.1}"))
            .unwrap_or_default()
    );
    if !card.by_language.is_empty() {
        let _ = writeln!(
            s,
            "{:<8} {:>5} {:>6} {:>6} {:>6} {:>8} {:>8} {:>7}",
            "language", "cases", "R@1", "R@5", "MRR", "refusal", "false_r", "p95 ms"
        );
        for (lang, f) in &card.by_language {
            let _ = writeln!(
                s,
                "{:<8} {:>5} {:>6} {:>6} {:>6} {:>8} {:>8} {:>7}",
                lang,
                f.cases,
                fmt(f.unpinned.recall_at_1),
                fmt(f.unpinned.recall_at_5),
                fmt(f.unpinned.mrr_at_10),
                fmt(f.refusal_accuracy),
                fmt(f.false_refusal_rate),
                f.latency_p95_ms
                    .map(|v| format!("{v:.1}"))
                    .unwrap_or_default()
            );
        }
        let _ = writeln!(s, "(per language: retrieval unpinned; refusals pinned)");
    }
    let _ = writeln!(
        s,
        "cases: {}, failures: {}",
        card.cases,
        card.failures.len()
    );
    s
}

/// The Markdown report: the scorecard, per-category figures and every failure with its
/// question.
pub fn render_markdown(
    title: &str,
    card: &Scorecard,
    pinned: &Report,
    unpinned: &Report,
    cases: &[GoldenCase],
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# {title}\n");
    let _ = writeln!(s, "```\n{}```\n", render_table(card));
    let _ = writeln!(s, "## By category\n");
    let _ = writeln!(
        s,
        "| category | cases | R@5 pinned | R@5 unpinned | MRR@10 unpinned | refused right | refused wrongly |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|");
    let categories: Vec<&Category> = pinned.by_category.keys().collect();
    for cat in categories {
        let p = &pinned.by_category[cat];
        let u = unpinned.by_category.get(cat);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} |",
            cat.as_str(),
            p.cases,
            fmt(p.recall_at.get(&5).copied()),
            fmt(u.and_then(|u| u.recall_at.get(&5).copied())),
            fmt(u.and_then(|u| u.mrr_at_10)),
            fmt(p.refusal_accuracy),
            fmt(p.false_refusal_rate),
        );
    }
    let _ = writeln!(s, "\n## Failures ({})\n", card.failures.len());
    if card.failures.is_empty() {
        let _ = writeln!(s, "None.");
    } else {
        let _ = writeln!(
            s,
            "| id | kind | question | expected | got (unpinned top 5) |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|");
        for f in &card.failures {
            let q = cases
                .iter()
                .find(|c| c.id == f.id)
                .map(|c| c.question.replace('|', "\\|").replace('\n', " "))
                .unwrap_or_default();
            let q: String = if q.chars().count() > 120 {
                format!("{}…", q.chars().take(120).collect::<String>())
            } else {
                q
            };
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} |",
                f.id,
                f.kind,
                q,
                f.expected.join(", "),
                f.got.join(", ")
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::golden::GoldenSet;
    use crate::metrics::{CaseResult, ReportOptions};

    const SET: &str = r#"{"id": "A", "split": "dev", "category": "simple", "question": "q1", "expected_refs": ["21A"], "must_refuse": false, "reference_answer": "a", "evidence": "p.1: one two three four five six"}
{"id": "B", "split": "dev", "category": "out_of_scope", "question": "q2", "expected_refs": [], "must_refuse": true, "reference_answer": "none"}
{"id": "C", "split": "dev", "category": "article_lookup", "question": "Art. 14", "expected_refs": ["14"], "question_refs": ["14"], "must_refuse": false, "reference_answer": "a", "evidence": "p.1: one two three four five six"}
"#;

    fn result(id: &str, ranking: &[&str], refused: bool) -> CaseResult {
        CaseResult {
            id: id.into(),
            ranking: ranking.iter().map(|r| r.parse().unwrap()).collect(),
            candidates: ranking.iter().map(|r| r.parse().unwrap()).collect(),
            refused,
            latency_ms: 10.0,
        }
    }

    #[test]
    fn pinned_and_unpinned_are_kept_apart_and_failures_listed() {
        let set = GoldenSet::parse(SET).unwrap();
        let pinned = Report::new(
            set.cases(),
            &[
                result("A", &["21", "21A"], false),
                result("B", &["19"], false),
                result("C", &["14"], false),
            ],
            ReportOptions::default(),
        )
        .unwrap();
        let unpinned = Report::new(
            set.cases(),
            &[
                result("A", &["21", "21A"], false),
                result("B", &["19"], false),
                result("C", &["15", "16", "17", "18", "19", "14"], false),
            ],
            ReportOptions::default(),
        )
        .unwrap();
        let rankings = BTreeMap::from([(
            "C".to_string(),
            vec!["15", "16", "17", "18", "19", "14"]
                .into_iter()
                .map(String::from)
                .collect(),
        )]);
        let card = Scorecard::new(set.cases(), &pinned, &unpinned, &rankings);
        assert_eq!(card.pinned.lookup_hit_at_1, Some(1.0));
        assert_eq!(card.unpinned.lookup_hit_at_1, Some(0.0));
        assert_eq!(card.refusal_accuracy, Some(0.0));
        let kinds: Vec<(&str, &str)> = card
            .failures
            .iter()
            .map(|f| (f.id.as_str(), f.kind.as_str()))
            .collect();
        assert_eq!(kinds, [("B", "not refused"), ("C", "missed")]);
        assert_eq!(card.failures[1].got.len(), 5, "got shows the top 5");
        let flat = card.flat();
        assert_eq!(flat["unpinned.lookup_hit_at_1"], 0.0);
        assert_eq!(flat["recall_at_5"], 1.0);
        assert_eq!(flat["refusal_accuracy"], 0.0);
        // The JSON is the contract's shape: pinned figures at the top level.
        let json = serde_json::to_value(&card).unwrap();
        assert!(json["recall_at_5"].is_number());
        assert!(json["unpinned"]["mrr_at_10"].is_number());
        assert!(json["latency_ms"]["p95"].is_number());
        let md = render_markdown("t", &card, &pinned, &unpinned, set.cases());
        assert!(md.contains("| C | missed | Art. 14 | 14 |"), "{md}");
    }
}
