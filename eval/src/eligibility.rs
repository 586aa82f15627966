//! The eligibility golden set (`eval/golden/eligibility.jsonl`) and its metrics. Each case is
//! a question (and, for some, the facts a form sent beside it) with the verdict a careful
//! reader of the Constitution gives; a case with no office is a question that must *not* be
//! answered as an eligibility question ("Can I sue the President?").
//!
//! - **verdict accuracy**: cases whose route, office and verdict are all right (for a case
//!   with no office: the route is not `eligibility`).
//! - **criteria accuracy**: eligibility cases whose expected failing criteria are all
//!   `not_met` and whose expected missing facts are all asked for.
//! - **refs cited**: eligibility cases whose citations include every expected provision.
//! - **false trigger rate**: cases with no office that were answered as eligibility.
//! - **quotes verbatim**: the share of eligibility answers whose every quote is an exact
//!   substring of its provision's stored text.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::golden::Split;

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EligibilityCase {
    pub id: String,
    pub split: Split,
    pub question: String,
    /// What a form sent beside the question (fact id → true/false/number).
    #[serde(default)]
    pub facts: BTreeMap<String, serde_json::Value>,
    /// None: not an eligibility question.
    pub office: Option<String>,
    pub verdict: Option<String>,
    #[serde(default)]
    pub failing: Vec<String>,
    #[serde(default)]
    pub missing: Vec<String>,
    #[serde(default)]
    pub refs: Vec<String>,
    #[serde(default)]
    pub notes: String,
}

/// Parses the JSONL file, line by line; errors name the line.
pub fn parse(text: &str) -> Result<Vec<EligibilityCase>, String> {
    let mut cases: Vec<EligibilityCase> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let c: EligibilityCase =
            serde_json::from_str(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        if c.office.is_some() != c.verdict.is_some() {
            return Err(format!(
                "line {}: {}: office and verdict are both set or both null",
                i + 1,
                c.id
            ));
        }
        if cases.iter().any(|x| x.id == c.id) {
            return Err(format!("line {}: duplicate id {}", i + 1, c.id));
        }
        cases.push(c);
    }
    Ok(cases)
}

/// What the answer pipeline did with one case.
#[derive(Debug, Clone, Serialize)]
pub struct EligibilityOutcome {
    pub id: String,
    pub route: String,
    pub office: Option<String>,
    pub verdict: Option<String>,
    /// Criteria the answer found not met.
    pub not_met: Vec<String>,
    /// Facts the answer asked for.
    pub asked: Vec<String>,
    /// Refs of the citations.
    pub cited: Vec<String>,
    /// Every quote is an exact substring of its provision's stored text.
    pub quotes_verbatim: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct EligibilityMiss {
    pub id: String,
    pub question: String,
    pub expected: String,
    pub got: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct EligibilityCard {
    pub cases: usize,
    pub eligibility_cases: usize,
    pub verdict_accuracy: f64,
    pub criteria_accuracy: f64,
    pub refs_cited: f64,
    pub false_trigger_rate: f64,
    pub quotes_verbatim: f64,
    pub misses: Vec<EligibilityMiss>,
}

fn share(n: usize, d: usize) -> f64 {
    if d == 0 {
        1.0
    } else {
        n as f64 / d as f64
    }
}

impl EligibilityCard {
    pub fn new(cases: &[EligibilityCase], outcomes: &[EligibilityOutcome]) -> EligibilityCard {
        let by_id: BTreeMap<&str, &EligibilityOutcome> =
            outcomes.iter().map(|o| (o.id.as_str(), o)).collect();
        let (mut right, mut criteria, mut refs, mut triggered, mut verbatim) = (0, 0, 0, 0, 0);
        let (mut eligible_cases, mut other_cases, mut answered) = (0, 0, 0);
        let mut misses = Vec::new();
        for c in cases {
            let Some(o) = by_id.get(c.id.as_str()) else {
                continue;
            };
            let routed = o.route == "eligibility";
            let ok = match (&c.office, &c.verdict) {
                (Some(office), Some(verdict)) => {
                    eligible_cases += 1;
                    if routed {
                        answered += 1;
                        verbatim += usize::from(o.quotes_verbatim);
                    }
                    if c.failing.iter().all(|f| o.not_met.contains(f))
                        && c.missing.iter().all(|m| o.asked.contains(m))
                        && routed
                    {
                        criteria += 1;
                    }
                    if routed && c.refs.iter().all(|r| o.cited.contains(r)) {
                        refs += 1;
                    }
                    routed
                        && o.office.as_deref() == Some(office)
                        && o.verdict.as_deref() == Some(verdict)
                }
                _ => {
                    other_cases += 1;
                    triggered += usize::from(routed);
                    !routed
                }
            };
            if ok {
                right += 1;
            } else {
                misses.push(EligibilityMiss {
                    id: c.id.clone(),
                    question: c.question.clone(),
                    expected: match (&c.office, &c.verdict) {
                        (Some(o), Some(v)) => format!("{o}: {v}"),
                        _ => "not an eligibility question".into(),
                    },
                    got: if routed {
                        format!(
                            "{}: {}",
                            o.office.as_deref().unwrap_or("?"),
                            o.verdict.as_deref().unwrap_or("?")
                        )
                    } else {
                        format!("route {}", o.route)
                    },
                });
            }
        }
        EligibilityCard {
            cases: eligible_cases + other_cases,
            eligibility_cases: eligible_cases,
            verdict_accuracy: share(right, eligible_cases + other_cases),
            criteria_accuracy: share(criteria, eligible_cases),
            refs_cited: share(refs, eligible_cases),
            false_trigger_rate: if other_cases == 0 {
                0.0
            } else {
                triggered as f64 / other_cases as f64
            },
            quotes_verbatim: share(verbatim, answered),
            misses,
        }
    }

    /// Figures by gate name (`eligibility.*`).
    pub fn flat(&self) -> BTreeMap<String, f64> {
        [
            ("verdict_accuracy", self.verdict_accuracy),
            ("criteria_accuracy", self.criteria_accuracy),
            ("refs_cited", self.refs_cited),
            ("false_trigger_rate", self.false_trigger_rate),
            ("quotes_verbatim", self.quotes_verbatim),
        ]
        .into_iter()
        .map(|(k, v)| (format!("eligibility.{k}"), v))
        .collect()
    }

    pub fn render(&self) -> String {
        let mut out = format!(
            "eligibility ({} cases, {} asking about an office): verdict accuracy {:.3}, criteria accuracy {:.3}, refs cited {:.3}, false triggers {:.3}, quotes verbatim {:.3}\n",
            self.cases,
            self.eligibility_cases,
            self.verdict_accuracy,
            self.criteria_accuracy,
            self.refs_cited,
            self.false_trigger_rate,
            self.quotes_verbatim
        );
        for m in &self.misses {
            out.push_str(&format!(
                "  {} {:?}: expected {}, got {}\n",
                m.id, m.question, m.expected, m.got
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(id: &str, office: Option<&str>, verdict: Option<&str>) -> EligibilityCase {
        EligibilityCase {
            id: id.into(),
            split: Split::Dev,
            question: "q".into(),
            facts: BTreeMap::new(),
            office: office.map(String::from),
            verdict: verdict.map(String::from),
            failing: vec!["age".into()],
            missing: Vec::new(),
            refs: vec!["58".into()],
            notes: String::new(),
        }
    }

    fn outcome(
        id: &str,
        route: &str,
        verdict: Option<&str>,
        not_met: &[&str],
    ) -> EligibilityOutcome {
        EligibilityOutcome {
            id: id.into(),
            route: route.into(),
            office: verdict.map(|_| "president".into()),
            verdict: verdict.map(String::from),
            not_met: not_met.iter().map(|s| s.to_string()).collect(),
            asked: Vec::new(),
            cited: vec!["58".into()],
            quotes_verbatim: true,
        }
    }

    #[test]
    fn a_verdict_is_right_only_with_route_office_and_verdict() {
        let mut none = case("N", None, None);
        none.failing.clear();
        none.refs.clear();
        let cases = [
            case("A", Some("president"), Some("not_eligible")),
            case("B", Some("president"), Some("not_eligible")),
            none,
        ];
        let outcomes = [
            outcome("A", "eligibility", Some("not_eligible"), &["age"]),
            outcome("B", "eligibility", Some("need_more_info"), &[]),
            outcome("N", "eligibility", Some("need_more_info"), &[]),
        ];
        let card = EligibilityCard::new(&cases, &outcomes);
        assert!((card.verdict_accuracy - 1.0 / 3.0).abs() < 1e-9);
        assert!((card.criteria_accuracy - 0.5).abs() < 1e-9);
        assert_eq!(card.false_trigger_rate, 1.0);
        assert_eq!(card.misses.len(), 2);
        assert_eq!(card.flat()["eligibility.refs_cited"], 1.0);
    }

    #[test]
    fn the_shipped_file_parses() {
        let text = include_str!("../golden/eligibility.jsonl");
        let cases = parse(text).unwrap();
        assert!(cases.len() >= 40, "{}", cases.len());
        for split in [Split::Dev, Split::Test] {
            let n = cases
                .iter()
                .filter(|c| c.split == split && c.office.is_some())
                .count();
            assert!(n >= 20, "{split:?}: {n} eligibility cases");
        }
        assert!(parse("{\"id\":\"X\"}").is_err());
    }
}
