//! The eligibility route: "Can I become President at 30?" is answered by the checker
//! ([`crate::eligibility`]), not by retrieval. The facts come from the question's words
//! ([`crate::eligibility_text`]) and from a form's answers sent beside it; each criterion is
//! cited from the provision that imposes it, quoted verbatim from the stored text; the answer
//! leads with the verdict and asks for the facts it still needs. The audit keeps the verdict
//! and each criterion's status, and of the person's facts only an age band.

use std::collections::BTreeMap;

use serde::Serialize;
use sqlx::PgPool;

use nyaya_ingest::RefId;

use crate::eligibility::{self, Catalogue, CriterionResult, FactValue, Facts, MissingFact, Office};
use crate::eligibility::{Status, VerdictKind};
use crate::error::{AppError, AppResult};
use crate::store::{self, ProvisionView};

use super::extract::{self, Span};
use super::{citation, clause_label, quote, Citation};

/// The verdict as an answer carries it: the checker's verdict, each criterion with the number
/// of the citation that quotes it, and the facts it was given.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct EligibilityView {
    pub office: String,
    pub office_name: String,
    pub verdict: VerdictKind,
    /// The criteria not met (`not_eligible` only).
    pub failing: Vec<String>,
    /// The facts to ask for next, in the order a person would answer them.
    pub missing_facts: Vec<MissingFact>,
    /// Not met first, then unknown, met, and informational notes.
    pub criteria: Vec<CriterionView>,
    /// The facts the checker used: read from the question, then those sent in `facts`.
    #[schema(value_type = Object)]
    pub facts: Facts,
    pub note: &'static str,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct CriterionView {
    #[serde(flatten)]
    pub result: CriterionResult,
    /// The citation (`n`) quoting the clause this criterion comes from; none for a moot one.
    #[schema(required)]
    pub citation: Option<usize>,
    /// Left unknown (or a note) when another criterion already rules the asker out
    /// (`not_eligible`): no answer to it could change the verdict, so it is listed apart and
    /// not quoted among the citations.
    pub moot: bool,
}

/// Whether a criterion of a verdict is moot ([`CriterionView::moot`]).
fn moot(verdict: VerdictKind, status: Status) -> bool {
    verdict == VerdictKind::NotEligible && matches!(status, Status::Unknown | Status::Note)
}

/// The facts a question states, overlaid by the facts sent with it (a form's answers win:
/// they were asked for).
pub fn merged_facts(question: &str, sent: &Facts) -> Facts {
    let mut facts = crate::eligibility_text::facts_in(question);
    facts.extend(sent.iter().map(|(k, v)| (k.clone(), *v)));
    facts
}

fn rank(s: Status) -> u8 {
    match s {
        Status::NotMet => 0,
        Status::Unknown => 1,
        Status::Met => 2,
        Status::Note => 3,
    }
}

/// Checks `facts` against `office` and cites every criterion: one citation per clause, in the
/// order the criteria are shown.
pub async fn check_and_cite(
    pool: &PgPool,
    document_id: i64,
    office: &Office,
    facts: Facts,
) -> AppResult<(EligibilityView, Vec<Citation>)> {
    let mut v = eligibility::check(Catalogue::builtin(), office, &facts);
    let mut results = std::mem::take(&mut v.criteria);
    results.sort_by_key(|r| rank(r.status));
    let mut views: BTreeMap<String, Option<ProvisionView>> = BTreeMap::new();
    for r in &results {
        if !views.contains_key(&r.ref_id) {
            let id: RefId = r.ref_id.parse().map_err(|_| AppError::UnknownRef {
                query: r.ref_id.clone(),
            })?;
            views.insert(
                r.ref_id.clone(),
                store::get_provision(pool, document_id, &id).await?,
            );
        }
    }
    let mut citations: Vec<Citation> = Vec::new();
    // (ref, clause) → the citation quoting it.
    let mut cited: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut criteria = Vec::new();
    for r in results {
        let key = (r.ref_id.clone(), r.clause.clone());
        let moot = moot(v.verdict, r.status);
        let n = match cited.get(&key) {
            _ if moot => None,
            Some(n) => Some(*n),
            None => {
                let made = match views.get(&r.ref_id).and_then(Option::as_ref) {
                    Some(view) => match span_for(view, &r.clause, &r.quote) {
                        Some(span) => citation(citations.len() + 1, view, &span)?,
                        None => None,
                    },
                    None => None,
                };
                made.map(|c| {
                    let n = c.n;
                    citations.push(c);
                    cited.insert(key, n);
                    n
                })
            }
        };
        criteria.push(CriterionView {
            result: r,
            citation: n,
            moot,
        });
    }
    Ok((
        EligibilityView {
            office: v.office,
            office_name: v.office_name,
            verdict: v.verdict,
            failing: v.failing,
            missing_facts: v.missing_facts,
            criteria,
            facts,
            note: v.note,
        },
        citations,
    ))
}

/// The span to quote for a criterion: its clause when that clause's quote holds the phrase,
/// else just the phrase where it sits in the text.
fn span_for(view: &ProvisionView, clause: &str, phrase: &str) -> Option<Span> {
    let spans = extract::all_spans(&view.text, &view.clauses);
    let holds = |s: &&Span| quote::is_verbatim(phrase, &extract::quote_of(s).0);
    let named = if clause.is_empty() {
        spans.iter().find(|s| s.label.is_none())
    } else {
        extract::named_span(&spans, clause)
    };
    if let Some(s) = named.filter(holds) {
        return Some(s.clone());
    }
    let (start, end) = quote::locate(&view.text, phrase)?;
    Some(Span {
        label: (!clause.is_empty()).then(|| clause.to_string()),
        start,
        end,
        text: view.text.chars().skip(start).take(end - start).collect(),
    })
}

/// The answer's text: the verdict first, then the criteria as a checklist with their quotes,
/// then the questions still open and the note. Pure.
pub fn render(v: &EligibilityView, citations: &[Citation]) -> String {
    let label = |c: &CriterionView| {
        c.citation
            .and_then(|n| citations.iter().find(|x| x.n == n))
            .map(|x| format!("{} [{}]", x.label, x.n))
            .unwrap_or_else(|| match c.result.ref_id.parse::<RefId>() {
                Ok(id) => clause_label(&id, Some(&c.result.clause)),
                Err(_) => c.result.ref_id.clone(),
            })
    };
    let mut out = Vec::new();
    out.push(match v.verdict {
        VerdictKind::NotEligible => {
            let why: Vec<String> = v
                .criteria
                .iter()
                .filter(|c| c.result.status == Status::NotMet)
                .map(|c| {
                    format!(
                        "{} requires that a person “{}”, and {}",
                        label(c),
                        c.result.quote,
                        plain_detail(&c.result.detail)
                    )
                })
                .collect();
            format!(
                "Not eligible: on what you said, you cannot be {}. {}.",
                v.office_name,
                why.join("; ")
            )
        }
        VerdictKind::NeedMoreInfo => format!(
            "More information needed: nothing you said rules you out as {}, but the Constitution's text sets conditions you have not said you meet. {}",
            v.office_name,
            v.missing_facts
                .iter()
                .map(|m| m.question.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        ),
        VerdictKind::LikelyEligible => format!(
            "Likely eligible: on what you said, you meet every qualification the Constitution's text lists for {}.",
            v.office_name
        ),
    });
    let lines: Vec<String> = v
        .criteria
        .iter()
        .filter(|c| !c.moot)
        .map(|c| {
            let mark = match c.result.status {
                Status::NotMet => "✗ not met",
                Status::Unknown => "? not known",
                Status::Met => "✓ met",
                Status::Note => "• note",
            };
            let detail = if c.result.detail.is_empty() || c.result.status == Status::Unknown {
                String::new()
            } else {
                format!(" ({})", c.result.detail)
            };
            format!("{mark} — {}: “{}”{detail}", label(c), c.result.quote)
        })
        .collect();
    out.push(lines.join("\n"));
    let moot: Vec<String> = v.criteria.iter().filter(|c| c.moot).map(label).collect();
    if !moot.is_empty() {
        out.push(format!(
            "Not checked, since the text already rules you out: {}.",
            moot.join(", ")
        ));
    }
    out.push(v.note.to_string());
    out.join("\n\n")
}

/// "age: 30; the text requires at least 35" → "you said age: 30 (at least 35 is required)".
fn plain_detail(detail: &str) -> String {
    match detail.split_once("; the text requires ") {
        Some((said, need)) => format!("you said {said} ({need} is required)"),
        None => detail.to_string(),
    }
}

/// What the audit keeps of an eligibility answer: the office, the verdict, each criterion's
/// status and the facts asked for — and of the facts stated, only the age as a five-year
/// band. The rest of what a person said about themselves is not stored (the statuses say
/// what the verdict needed).
pub fn audit_record(v: &EligibilityView) -> serde_json::Value {
    let age_band = match v.facts.get("age") {
        Some(FactValue::Number(n)) => {
            let low = (*n as i64 / 5) * 5;
            Some(format!("{low}-{}", low + 4))
        }
        _ => None,
    };
    serde_json::json!({
        "office": v.office,
        "verdict": v.verdict,
        "failing": v.failing,
        "missing_facts": v.missing_facts.iter().map(|m| &m.id).collect::<Vec<_>>(),
        "criteria": v.criteria.iter().map(|c| serde_json::json!({
            "id": c.result.id, "status": c.result.status,
        })).collect::<Vec<_>>(),
        "age_band": age_band,
    })
}

/// The question as the audit stores it on this route: numbers (ages, years) are personal
/// facts here, so each becomes "[number]" (digits and number words alike).
pub fn audit_question(question: &str) -> String {
    static NUMBER: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i)\b(?:\d+(?:\.\d+)?|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|hundred)\b")
            .expect("pattern")
    });
    NUMBER.replace_all(question, "[number]").into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_audit_keeps_an_age_band_and_no_numbers() {
        assert_eq!(
            audit_question("I'm 23 and practised for eight years; can I be an MLA?"),
            "I'm [number] and practised for [number] years; can I be an MLA?"
        );
        let c = Catalogue::builtin();
        let office = c.office("president").unwrap();
        let facts = merged_facts("Can I become President at 32?", &Facts::new());
        let v = eligibility::check(c, office, &facts);
        let verdict = v.verdict;
        let view = EligibilityView {
            office: v.office,
            office_name: v.office_name,
            verdict: v.verdict,
            failing: v.failing,
            missing_facts: v.missing_facts,
            criteria: v
                .criteria
                .into_iter()
                .map(|r| CriterionView {
                    moot: moot(verdict, r.status),
                    result: r,
                    citation: None,
                })
                .collect(),
            facts,
            note: v.note,
        };
        let record = audit_record(&view);
        assert_eq!(record["age_band"], "30-34");
        assert_eq!(record["verdict"], "not_eligible");
        assert!(!record.to_string().contains("32"), "{record}");
        let text = render(&view, &[]);
        assert!(text.starts_with("Not eligible: on what you said, you cannot be President of India. Article 58(1)(b) requires that a person “has completed the age of thirty-five years”, and you said age: 32 (at least 35 is required)."), "{text}");
        // Age rules the asker out, so the conditions left unknown are listed, not quoted.
        assert!(
            text.contains("Not checked, since the text already rules you out: Article 58(1)(a), "),
            "{text}"
        );
        assert!(!text.contains("? not known"), "{text}");
    }

    #[test]
    fn only_a_verdict_that_rules_out_makes_criteria_moot() {
        assert!(moot(VerdictKind::NotEligible, Status::Unknown));
        assert!(moot(VerdictKind::NotEligible, Status::Note));
        assert!(!moot(VerdictKind::NotEligible, Status::Met));
        assert!(!moot(VerdictKind::NotEligible, Status::NotMet));
        assert!(!moot(VerdictKind::NeedMoreInfo, Status::Unknown));
        assert!(!moot(VerdictKind::LikelyEligible, Status::Note));
    }

    #[test]
    fn a_form_answer_overrides_the_words() {
        let mut sent = Facts::new();
        sent.insert("age".into(), FactValue::Number(41.0));
        sent.insert("citizen".into(), FactValue::Bool(true));
        let f = merged_facts("Can I become President at 30?", &sent);
        assert_eq!(f.get("age"), Some(&FactValue::Number(41.0)));
        assert_eq!(f.get("citizen"), Some(&FactValue::Bool(true)));
    }
}
