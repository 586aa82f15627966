//! Answer metrics: what the answer pipeline did with each golden case, scored. Pure — the
//! service runs the pipeline, checks each quote against the stored text, and hands the
//! outcomes here.
//!
//! - **citation validity**: the share of answered cases whose every citation names a
//!   provision retrieval returned *and* whose every quote is an exact substring (whitespace
//!   normalised) of that provision's stored text. Anything below 1.00 is a bug.
//! - **refusal accuracy / false-refusal rate**: as for retrieval, but from the pipeline's own
//!   decision (rules router, threshold, "no quote survives").
//! - **route accuracy**: the router's route against the case's category (see
//!   [`expected_routes`]).
//! - **cited expected**: answerable cases where a citation is an expected or acceptable ref.
//! - **first cited expected**: answered cases whose first citation — what a reader sees
//!   first — is an expected ref (acceptable is not enough).
//! - **citation precision**: of all the provisions answers cite (each counted once per
//!   answer), the share that are expected or acceptable; the rest is noise a reader must
//!   wade through.
//! - **evidence quoted**: cases with an evidence phrase where some quote contains it.
//!
//! The last four are over answered cases that expect something; route accuracy, first cited
//! expected and citation precision are also given per category.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::golden::{Category, GoldenCase};
use crate::metrics::percentile;

/// What the pipeline did with one case.
#[derive(Debug, Clone, Serialize)]
pub struct AnswerOutcome {
    pub id: String,
    pub route: String,
    pub refused: bool,
    /// Refs of the citations, in order.
    pub cited: Vec<String>,
    /// Every provision retrieval returned for the answer.
    pub retrieved: Vec<String>,
    /// The main search's results and their scores, best first (for analysis: how far below
    /// the lead a second citation scored).
    #[serde(default)]
    pub scores: Vec<(String, f64)>,
    /// The quotes, as shown.
    pub quotes: Vec<String>,
    /// Each quote is an exact substring of its provision's stored text (checked by the caller
    /// against the database, not against the pipeline's own copy).
    pub quotes_verbatim: Vec<bool>,
    pub latency_ms: f64,
}

/// The routes a category accepts. Lookups, multi-part and vague questions have one right
/// route; "simple" and "conceptual" are a matter of degree, so either is right for both; the
/// other categories are right with any answering route; a case that must be refused is right
/// only as `out_of_scope`.
pub fn expected_routes(category: Category, must_refuse: bool) -> &'static [&'static str] {
    const ANSWERING: &[&str] = &[
        "article_lookup",
        "simple",
        "conceptual",
        "multi_part",
        "ambiguous",
    ];
    if must_refuse {
        return &["out_of_scope"];
    }
    match category {
        Category::ArticleLookup => &["article_lookup"],
        Category::Simple | Category::Conceptual => &["simple", "conceptual"],
        Category::MultiPart => &["multi_part"],
        Category::Ambiguous => &["ambiguous"],
        Category::OutOfScope => &["out_of_scope"],
        Category::Schedule
        | Category::OmittedAmended
        | Category::LongQuery
        | Category::Adversarial
        | Category::Other => ANSWERING,
    }
}

/// One case the answer metrics count against.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AnswerFailure {
    pub id: String,
    /// invalid_citation, unverified_quote, wrong_refusal, missed_refusal, route, not_cited,
    /// first_not_expected, noise
    pub kind: String,
    pub detail: String,
}

/// The reader-facing figures of one category.
#[derive(Debug, Clone, Serialize, Default, PartialEq)]
pub struct CategoryFigures {
    pub cases: usize,
    pub route_accuracy: Option<f64>,
    pub first_cited_expected: Option<f64>,
    pub citation_precision: Option<f64>,
}

/// The reader-facing figures of one language (a set whose cases name theirs, as the
/// multilingual set does): what issue 17 judges a language by besides retrieval.
#[derive(Debug, Clone, Serialize, Default, PartialEq)]
pub struct LanguageAnswers {
    pub cases: usize,
    pub first_cited_expected: Option<f64>,
    pub citation_precision: Option<f64>,
    pub refusal_accuracy: Option<f64>,
    pub false_refusal_rate: Option<f64>,
}

/// Hits over a count, kept until the share is taken.
#[derive(Debug, Clone, Copy, Default)]
struct Tally {
    hits: usize,
    n: usize,
}

impl Tally {
    fn add(&mut self, hits: usize, n: usize) {
        self.hits += hits;
        self.n += n;
    }
    fn share(self) -> Option<f64> {
        share(self.hits, self.n)
    }
}

#[derive(Default)]
struct CategoryTally {
    cases: usize,
    route: Tally,
    first: Tally,
    precision: Tally,
}

/// What [`AnswerCard::score`] counts, case by case, and the failures it records.
#[derive(Default)]
struct Tallies {
    cases: usize,
    latencies: Vec<f64>,
    route: Tally,
    /// Must-refuse cases refused.
    refusals: Tally,
    /// Answerable cases refused.
    false_refusals: Tally,
    /// Answers whose every citation was retrieved and every quote is verbatim.
    valid: Tally,
    /// Answers citing an expected or acceptable provision anywhere.
    cited: Tally,
    /// Answers whose first citation is expected.
    first: Tally,
    precision: Tally,
    evidence: Tally,
    /// Evidence quoted, among answers whose first citation is expected.
    evidence_when_led: Tally,
    per_category: BTreeMap<String, CategoryTally>,
    failures: Vec<AnswerFailure>,
}

impl Tallies {
    fn case(&mut self, case: &GoldenCase, o: &AnswerOutcome) {
        self.cases += 1;
        self.latencies.push(o.latency_ms);
        self.category(case).cases += 1;
        self.route(case, o);
        if case.must_refuse {
            self.refusals.add(o.refused as usize, 1);
            if !o.refused {
                self.fail(
                    case,
                    "missed_refusal",
                    format!("answered citing {:?}", o.cited),
                );
            }
            return;
        }
        self.false_refusals.add(o.refused as usize, 1);
        if o.refused {
            self.fail(
                case,
                "wrong_refusal",
                "refused an answerable question".into(),
            );
            return;
        }
        self.validity(case, o);
        let led = self.citations(case, o);
        if let Some(quoted) = evidence_quoted(case, &o.quotes) {
            self.evidence.add(quoted as usize, 1);
            if led {
                self.evidence_when_led.add(quoted as usize, 1);
            }
        }
    }

    fn category(&mut self, case: &GoldenCase) -> &mut CategoryTally {
        self.per_category
            .entry(case.category.as_str().to_string())
            .or_default()
    }

    fn fail(&mut self, case: &GoldenCase, kind: &str, detail: String) {
        self.failures.push(AnswerFailure {
            id: case.id.clone(),
            kind: kind.into(),
            detail,
        });
    }

    fn route(&mut self, case: &GoldenCase, o: &AnswerOutcome) {
        let ok_routes = expected_routes(case.category, case.must_refuse);
        let route_ok = ok_routes.contains(&o.route.as_str());
        self.route.add(route_ok as usize, 1);
        self.category(case).route.add(route_ok as usize, 1);
        if !route_ok {
            let detail = format!("expected {}, got {}", ok_routes.join("|"), o.route);
            self.fail(case, "route", detail);
        }
    }

    /// Every citation retrieved, every quote verbatim, one quote per citation.
    fn validity(&mut self, case: &GoldenCase, o: &AnswerOutcome) {
        let unretrieved: Vec<&String> = o
            .cited
            .iter()
            .filter(|r| !o.retrieved.contains(r))
            .collect();
        let unverified = o.quotes_verbatim.iter().filter(|v| !**v).count();
        let valid =
            unretrieved.is_empty() && unverified == 0 && o.quotes_verbatim.len() == o.cited.len();
        self.valid.add(valid as usize, 1);
        if !unretrieved.is_empty() {
            let detail = format!("cited {unretrieved:?}, not retrieved");
            self.fail(case, "invalid_citation", detail);
        }
        if unverified > 0 {
            let detail = format!("{unverified} quote(s) not in the text");
            self.fail(case, "unverified_quote", detail);
        }
    }

    /// The first citation, precision and whether anything wanted is cited, for a case that
    /// names what it wants and an answer that cites; returns whether the first is expected.
    fn citations(&mut self, case: &GoldenCase, o: &AnswerOutcome) -> bool {
        let wanted: Vec<String> = case
            .expected_refs
            .iter()
            .chain(&case.acceptable_refs)
            .map(|r| r.to_string())
            .collect();
        if wanted.is_empty() || o.cited.is_empty() {
            return false;
        }
        let first_ok = case
            .expected_refs
            .iter()
            .any(|r| r.to_string() == o.cited[0]);
        self.first.add(first_ok as usize, 1);
        self.category(case).first.add(first_ok as usize, 1);
        if !first_ok {
            let detail = format!(
                "first cited {} (retrieval led with {}), expected one of {:?}",
                o.cited[0],
                o.retrieved.first().map(String::as_str).unwrap_or("nothing"),
                case.expected_refs
            );
            self.fail(case, "first_not_expected", detail);
        }
        let mut distinct: Vec<&String> = Vec::new();
        for c in &o.cited {
            if !distinct.contains(&c) {
                distinct.push(c);
            }
        }
        let noise: Vec<&String> = distinct
            .iter()
            .copied()
            .filter(|c| !wanted.contains(c))
            .collect();
        let relevant = distinct.len() - noise.len();
        self.precision.add(relevant, distinct.len());
        self.category(case).precision.add(relevant, distinct.len());
        if !noise.is_empty() {
            let detail = format!("cited {noise:?}, neither expected nor acceptable");
            self.fail(case, "noise", detail);
        }
        let cited_wanted = o.cited.iter().any(|c| wanted.contains(c));
        self.cited.add(cited_wanted as usize, 1);
        if !cited_wanted {
            let detail = format!("expected one of {wanted:?}, cited {:?}", o.cited);
            self.fail(case, "not_cited", detail);
        }
        first_ok
    }

    fn card(self) -> AnswerCard {
        AnswerCard {
            cases: self.cases,
            citation_validity: self.valid.share(),
            refusal_accuracy: self.refusals.share(),
            false_refusal_rate: self.false_refusals.share(),
            route_accuracy: self.route.share(),
            cited_expected: self.cited.share(),
            first_cited_expected: self.first.share(),
            citation_precision: self.precision.share(),
            evidence_quoted: self.evidence.share(),
            evidence_quoted_when_led: self.evidence_when_led.share(),
            latency_ms_p50: percentile(&self.latencies, 50.0),
            latency_ms_p95: percentile(&self.latencies, 95.0),
            by_category: self
                .per_category
                .into_iter()
                .map(|(k, t)| {
                    let figures = CategoryFigures {
                        cases: t.cases,
                        route_accuracy: t.route.share(),
                        first_cited_expected: t.first.share(),
                        citation_precision: t.precision.share(),
                    };
                    (k, figures)
                })
                .collect(),
            failures: self.failures,
            ..AnswerCard::default()
        }
    }
}

#[derive(Debug, Clone, Serialize, Default)]
pub struct AnswerCard {
    pub cases: usize,
    pub citation_validity: Option<f64>,
    pub refusal_accuracy: Option<f64>,
    pub false_refusal_rate: Option<f64>,
    pub route_accuracy: Option<f64>,
    pub cited_expected: Option<f64>,
    /// Answered cases whose first citation is an expected ref.
    pub first_cited_expected: Option<f64>,
    /// Cited provisions that are expected or acceptable, over all cited.
    pub citation_precision: Option<f64>,
    pub evidence_quoted: Option<f64>,
    /// Evidence quoted among the cases whose answer leads with an expected ref: which clause
    /// is quoted, apart from which provision leads.
    pub evidence_quoted_when_led: Option<f64>,
    pub latency_ms_p50: Option<f64>,
    pub latency_ms_p95: Option<f64>,
    pub by_category: BTreeMap<String, CategoryFigures>,
    /// Per language, when the cases name one (empty otherwise).
    pub by_language: BTreeMap<String, LanguageAnswers>,
    pub failures: Vec<AnswerFailure>,
}

fn share(hits: usize, n: usize) -> Option<f64> {
    (n > 0).then(|| hits as f64 / n as f64)
}

/// Whether a quote holds the case's evidence phrase (whitespace aside); `None` when
/// the case has none. What **evidence quoted** counts, and what a dump line records.
pub fn evidence_quoted(case: &GoldenCase, quotes: &[String]) -> Option<bool> {
    let phrase = normalise(&case.evidence.as_ref()?.phrase);
    Some(quotes.iter().any(|q| normalise(q).contains(&phrase)))
}

fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl AnswerCard {
    /// Scores outcomes against their cases (matched by id; cases without an outcome are
    /// skipped), overall and, when the cases name their language, per language.
    pub fn new(cases: &[GoldenCase], outcomes: &[AnswerOutcome]) -> AnswerCard {
        let mut card = AnswerCard::score(cases, outcomes);
        let mut languages: BTreeMap<&str, Vec<GoldenCase>> = BTreeMap::new();
        for case in cases {
            if let Some(lang) = case.language.as_deref() {
                languages.entry(lang).or_default().push(case.clone());
            }
        }
        card.by_language = languages
            .into_iter()
            .map(|(lang, subset)| {
                let c = AnswerCard::score(&subset, outcomes);
                let figures = LanguageAnswers {
                    cases: c.cases,
                    first_cited_expected: c.first_cited_expected,
                    citation_precision: c.citation_precision,
                    refusal_accuracy: c.refusal_accuracy,
                    false_refusal_rate: c.false_refusal_rate,
                };
                (lang.to_string(), figures)
            })
            .filter(|(_, f)| f.cases > 0)
            .collect();
        card
    }

    /// The figures of `cases`, without the per-language split.
    fn score(cases: &[GoldenCase], outcomes: &[AnswerOutcome]) -> AnswerCard {
        let by_id: BTreeMap<&str, &AnswerOutcome> =
            outcomes.iter().map(|o| (o.id.as_str(), o)).collect();
        let mut tallies = Tallies::default();
        for case in cases {
            if let Some(o) = by_id.get(case.id.as_str()) {
                tallies.case(case, o);
            }
        }
        tallies.card()
    }

    /// `answers.<metric>` → value, for the gates.
    pub fn flat(&self) -> BTreeMap<String, f64> {
        [
            ("citation_validity", self.citation_validity),
            ("refusal_accuracy", self.refusal_accuracy),
            ("false_refusal_rate", self.false_refusal_rate),
            ("route_accuracy", self.route_accuracy),
            ("cited_expected", self.cited_expected),
            ("first_cited_expected", self.first_cited_expected),
            ("citation_precision", self.citation_precision),
            ("evidence_quoted", self.evidence_quoted),
            ("evidence_quoted_when_led", self.evidence_quoted_when_led),
            ("latency_ms.p50", self.latency_ms_p50),
            ("latency_ms.p95", self.latency_ms_p95),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (format!("answers.{k}"), v)))
        .chain(self.by_language.iter().flat_map(|(lang, f)| {
            [
                ("first_cited_expected", f.first_cited_expected),
                ("citation_precision", f.citation_precision),
                ("refusal_accuracy", f.refusal_accuracy),
                ("false_refusal_rate", f.false_refusal_rate),
            ]
            .into_iter()
            .filter_map(move |(k, v)| v.map(|v| (format!("answers.language.{lang}.{k}"), v)))
        }))
        .collect()
    }

    /// A terminal table.
    pub fn render(&self) -> String {
        let f = |v: Option<f64>| v.map(|v| format!("{v:.3}")).unwrap_or_else(|| "–".into());
        let mut s = format!("answers ({} cases)\n", self.cases);
        for (name, v) in [
            ("citation validity", self.citation_validity),
            ("refusal accuracy", self.refusal_accuracy),
            ("false refusal rate", self.false_refusal_rate),
            ("route accuracy", self.route_accuracy),
            ("cited an expected ref", self.cited_expected),
            ("first cite expected", self.first_cited_expected),
            ("citation precision", self.citation_precision),
            ("evidence quoted", self.evidence_quoted),
            ("  when led right", self.evidence_quoted_when_led),
        ] {
            s.push_str(&format!("  {name:<24} {}\n", f(v)));
        }
        s.push_str(&format!(
            "  {:<17} {:>5} {:>6} {:>6} {:>9}\n",
            "by category", "cases", "route", "first", "precision"
        ));
        for (cat, c) in &self.by_category {
            s.push_str(&format!(
                "  {cat:<17} {:>5} {:>6} {:>6} {:>9}\n",
                c.cases,
                f(c.route_accuracy),
                f(c.first_cited_expected),
                f(c.citation_precision)
            ));
        }
        if !self.by_language.is_empty() {
            s.push_str(&format!(
                "  {:<17} {:>5} {:>6} {:>9} {:>8} {:>8}\n",
                "by language", "cases", "first", "precision", "refusal", "false_r"
            ));
            for (lang, l) in &self.by_language {
                s.push_str(&format!(
                    "  {lang:<17} {:>5} {:>6} {:>9} {:>8} {:>8}\n",
                    l.cases,
                    f(l.first_cited_expected),
                    f(l.citation_precision),
                    f(l.refusal_accuracy),
                    f(l.false_refusal_rate)
                ));
            }
        }
        s.push_str(&format!(
            "  latency ms p50/p95       {} / {}\n",
            self.latency_ms_p50
                .map(|v| format!("{v:.0}"))
                .unwrap_or_default(),
            self.latency_ms_p95
                .map(|v| format!("{v:.0}"))
                .unwrap_or_default()
        ));
        s
    }
}

fn md_cell(s: &str, max: usize) -> String {
    let s = s.replace('|', "\\|").replace('\n', " ");
    if s.chars().count() > max {
        format!("{}…", s.chars().take(max).collect::<String>())
    } else {
        s
    }
}

/// The answer section of the Markdown report: figures, the per-category table, and every
/// failure with its question.
pub fn render_markdown(card: &AnswerCard, cases: &[GoldenCase]) -> String {
    let f = |v: Option<f64>| v.map(|v| format!("{v:.3}")).unwrap_or_else(|| "–".into());
    let mut s = format!(
        "\n## Answers ({} cases, extractive)\n\n```\n{}```\n",
        card.cases,
        card.render()
    );
    s.push_str("\n### By category\n\n| category | cases | route | first cited expected | citation precision |\n|---|---:|---:|---:|---:|\n");
    for (cat, c) in &card.by_category {
        s.push_str(&format!(
            "| {cat} | {} | {} | {} | {} |\n",
            c.cases,
            f(c.route_accuracy),
            f(c.first_cited_expected),
            f(c.citation_precision)
        ));
    }
    s.push_str(&format!(
        "\n### Answer failures ({})\n\n",
        card.failures.len()
    ));
    if card.failures.is_empty() {
        s.push_str("None.\n");
        return s;
    }
    s.push_str("| id | category | kind | question | detail |\n|---|---|---|---|---|\n");
    for fail in &card.failures {
        let case = cases.iter().find(|c| c.id == fail.id);
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            fail.id,
            case.map(|c| c.category.as_str()).unwrap_or(""),
            fail.kind,
            md_cell(case.map(|c| c.question.as_str()).unwrap_or(""), 120),
            md_cell(&fail.detail, 200)
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::golden::GoldenSet;

    fn cases() -> Vec<GoldenCase> {
        let jsonl = r#"{"id": "A", "split": "dev", "category": "article_lookup", "question": "What does Art. 21-A say?", "expected_refs": ["21A"], "acceptable_refs": [], "question_refs": ["21A"], "must_refuse": false, "reference_answer": "x", "evidence": "p.42: provide free and compulsory education to all children", "notes": ""}
{"id": "B", "split": "dev", "category": "out_of_scope", "question": "Who won the 2011 cricket world cup?", "expected_refs": [], "acceptable_refs": [], "question_refs": [], "must_refuse": true, "reference_answer": "", "evidence": null, "notes": ""}
{"id": "C", "split": "dev", "category": "simple", "question": "What is the voting age?", "expected_refs": ["326"], "acceptable_refs": [], "question_refs": [], "must_refuse": false, "reference_answer": "x", "evidence": "p.218: who is not less than eighteen years of age", "notes": ""}"#;
        GoldenSet::parse(jsonl).unwrap().cases().to_vec()
    }

    fn outcome(
        id: &str,
        route: &str,
        refused: bool,
        cited: &[&str],
        verbatim: bool,
    ) -> AnswerOutcome {
        AnswerOutcome {
            id: id.into(),
            route: route.into(),
            refused,
            cited: cited.iter().map(|s| s.to_string()).collect(),
            retrieved: vec!["21A".into(), "326".into()],
            scores: Vec::new(),
            quotes: vec![
                "The State shall provide free and compulsory education to all children of the age".into(),
                "every person who is a citizen of India and who is not less than eighteen years of age".into(),
            ],
            quotes_verbatim: cited.iter().map(|_| verbatim).collect(),
            latency_ms: 10.0,
        }
    }

    #[test]
    fn a_perfect_run_scores_one() {
        let card = AnswerCard::new(
            &cases(),
            &[
                outcome("A", "article_lookup", false, &["21A"], true),
                outcome("B", "out_of_scope", true, &[], true),
                outcome("C", "conceptual", false, &["326"], true),
            ],
        );
        assert_eq!(card.citation_validity, Some(1.0));
        assert_eq!(card.refusal_accuracy, Some(1.0));
        assert_eq!(card.false_refusal_rate, Some(0.0));
        assert_eq!(card.route_accuracy, Some(1.0));
        assert_eq!(card.cited_expected, Some(1.0));
        assert_eq!(card.evidence_quoted, Some(1.0));
        assert_eq!(card.evidence_quoted_when_led, Some(1.0));
        assert!(card.failures.is_empty());
        assert_eq!(card.flat()["answers.citation_validity"], 1.0);
        assert!(card.by_language.is_empty(), "no case names its language");
    }

    #[test]
    fn cases_that_name_their_language_are_scored_per_language_too() {
        let mut cases = cases();
        cases[0].language = Some("hi".into());
        cases[1].language = Some("hi".into());
        cases[2].language = Some("ta".into());
        let card = AnswerCard::new(
            &cases,
            &[
                outcome("A", "article_lookup", false, &["21A"], true),
                outcome("B", "simple", false, &["21A"], true),
                outcome("C", "simple", false, &["21A", "326"], true),
            ],
        );
        assert_eq!(card.cases, 3);
        let hi = &card.by_language["hi"];
        assert_eq!(hi.cases, 2);
        assert_eq!(hi.first_cited_expected, Some(1.0));
        assert_eq!(hi.refusal_accuracy, Some(0.0), "B should have been refused");
        let ta = &card.by_language["ta"];
        assert_eq!((ta.cases, ta.first_cited_expected), (1, Some(0.0)));
        assert_eq!(ta.refusal_accuracy, None, "no Tamil case must be refused");
        let flat = card.flat();
        assert_eq!(flat["answers.language.ta.first_cited_expected"], 0.0);
        assert_eq!(flat["answers.language.hi.refusal_accuracy"], 0.0);
        assert!(!flat.contains_key("answers.language.ta.refusal_accuracy"));
        assert_eq!(
            card.first_cited_expected,
            Some(0.5),
            "the whole set unchanged"
        );
    }

    #[test]
    fn bad_citations_refusals_and_routes_are_counted() {
        let card = AnswerCard::new(
            &cases(),
            &[
                outcome("A", "simple", false, &["999"], true),
                outcome("B", "simple", false, &["21A"], true),
                outcome("C", "simple", false, &["326"], false),
            ],
        );
        assert_eq!(card.citation_validity, Some(0.0));
        assert_eq!(card.refusal_accuracy, Some(0.0));
        assert_eq!(card.route_accuracy, Some(1.0 / 3.0));
        let kinds: Vec<&str> = card.failures.iter().map(|f| f.kind.as_str()).collect();
        for k in [
            "route",
            "invalid_citation",
            "missed_refusal",
            "unverified_quote",
            "not_cited",
        ] {
            assert!(kinds.contains(&k), "{k} in {kinds:?}");
        }
        let card = AnswerCard::new(&cases(), &[outcome("C", "simple", true, &[], true)]);
        assert_eq!(card.false_refusal_rate, Some(1.0));
    }

    #[test]
    fn precision_counts_each_cited_provision_once_and_first_must_be_expected() {
        // A cites its expected ref first; C cites 326 twice (two clauses) and 21A, which is
        // noise for a voting-age question.
        let card = AnswerCard::new(
            &cases(),
            &[
                outcome("A", "article_lookup", false, &["21A"], true),
                outcome("C", "simple", false, &["326", "326", "21A"], true),
            ],
        );
        assert_eq!(card.first_cited_expected, Some(1.0));
        // 21A (A) + 326 (C) of 21A, 326, 21A.
        assert!((card.citation_precision.unwrap() - 2.0 / 3.0).abs() < 1e-9);
        assert_eq!(card.by_category["simple"].citation_precision, Some(0.5));
        assert_eq!(
            card.by_category["article_lookup"].citation_precision,
            Some(1.0)
        );
        assert!(card
            .failures
            .iter()
            .any(|f| f.id == "C" && f.kind == "noise" && f.detail.contains("21A")));
        // The right provision second is not enough to lead.
        let card = AnswerCard::new(
            &cases(),
            &[outcome("C", "simple", false, &["21A", "326"], true)],
        );
        assert_eq!(card.first_cited_expected, Some(0.0));
        assert_eq!(card.cited_expected, Some(1.0));
        assert_eq!(card.by_category["simple"].first_cited_expected, Some(0.0));
        assert!(card.failures.iter().any(|f| f.kind == "first_not_expected"));
        assert_eq!(card.flat()["answers.citation_precision"], 0.5);
        // Its evidence is quoted, but not by an answer that leads right.
        assert_eq!(card.evidence_quoted, Some(1.0));
        assert_eq!(card.evidence_quoted_when_led, None);
    }
}
