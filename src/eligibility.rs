//! "Can I hold this office?" — the Constitution's qualifications as data
//! (`data/eligibility.toml`: each criterion with its provision, clause and verbatim phrase; a
//! test checks every phrase against the parsed PDF) and a pure checker that lines stated facts
//! up against them.
//!
//! The checker never guesses: a fact not stated is unknown, an unknown criterion makes the
//! verdict `need_more_info` (naming the facts to ask for, in the order a person would answer
//! them), and the best verdict is `likely_eligible` — never a bare "eligible" — because laws of
//! Parliament (on elections, for instance) add conditions the Constitution's text does not
//! list.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

/// What the checker adds to every verdict.
pub const NOTE: &str = "This checks only the qualifications the Constitution's text lists. Laws made by Parliament (for example on elections) add conditions it does not list; the verdict is never more than \"likely eligible\".";

/// How deep `qualified_for` may chain (Attorney-General → Supreme Court judge → …).
const MAX_DEPTH: usize = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FactKind {
    Bool,
    Number,
}

/// A fact a person may state.
#[derive(Debug, Clone, Deserialize, Serialize, utoipa::ToSchema)]
pub struct FactDef {
    pub id: String,
    pub kind: FactKind,
    /// How the fact is asked for.
    pub question: String,
    /// Patterns (regular expressions, matched in lower case) that, in a statement a person
    /// makes about themselves, say this yes/no fact is true; negated ("I hold *no* office of
    /// profit"), they say it is false (`eligibility_text` reads them).
    #[serde(default, skip_serializing)]
    #[schema(ignore)]
    pub said: Vec<String>,
    /// Patterns that say the fact is false ("an OCI card holder" for `citizen`).
    #[serde(default, skip_serializing)]
    #[schema(ignore)]
    pub said_not: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RuleKind {
    /// The fact equals `value`.
    FactIs,
    /// The fact is at least `min`.
    Min,
    /// An `any_of` option: `facts` added together are at least `min`, the second counting only
    /// when the yes/no fact `given` is true (an Explanation that counts one period towards
    /// another: judicial office held after becoming an advocate counts as years at the bar).
    MinSum,
    /// Qualified for another office (its criteria, with the same facts).
    QualifiedFor,
    /// Any of the options.
    AnyOf,
    /// Informational (a time limit, a consequence); never a bar.
    Note,
}

/// One way of meeting an `any_of` criterion.
#[derive(Debug, Clone, Deserialize, Serialize, utoipa::ToSchema)]
pub struct CriterionOption {
    pub clause: String,
    pub phrase: String,
    pub rule: RuleKind,
    pub fact: Option<String>,
    pub value: Option<bool>,
    pub min: Option<f64>,
    /// `min_sum`: the two number facts added, and the yes/no fact the second needs.
    #[serde(default)]
    pub facts: Vec<String>,
    pub given: Option<String>,
}

/// One qualification or disqualification, with the words of the text that impose it.
#[derive(Debug, Clone, Deserialize, Serialize, utoipa::ToSchema)]
pub struct Criterion {
    pub id: String,
    #[serde(rename = "ref")]
    pub ref_id: String,
    pub clause: String,
    /// Verbatim from the clause (whitespace-normalised).
    pub phrase: String,
    pub rule: RuleKind,
    pub fact: Option<String>,
    pub value: Option<bool>,
    pub min: Option<f64>,
    pub office: Option<String>,
    #[serde(default, rename = "option")]
    pub options: Vec<CriterionOption>,
}

#[derive(Debug, Clone, Deserialize, Serialize, utoipa::ToSchema)]
pub struct Office {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    pub refs: Vec<String>,
    #[serde(rename = "criterion")]
    pub criteria: Vec<Criterion>,
}

/// The offices and the facts they read.
#[derive(Debug, Clone, Deserialize)]
pub struct Catalogue {
    #[serde(rename = "fact")]
    pub facts: Vec<FactDef>,
    #[serde(rename = "office")]
    pub offices: Vec<Office>,
}

impl Catalogue {
    /// The shipped catalogue (`data/eligibility.toml`, compiled in).
    pub fn builtin() -> &'static Catalogue {
        static C: LazyLock<Catalogue> = LazyLock::new(|| {
            Catalogue::parse(include_str!("../data/eligibility.toml"))
                .expect("data/eligibility.toml is valid (a unit test checks it)")
        });
        &C
    }

    /// Parses and checks the references inside (facts and offices named exist, each rule has
    /// what it needs).
    pub fn parse(text: &str) -> Result<Catalogue, String> {
        let c: Catalogue = toml::from_str(text).map_err(|e| e.to_string())?;
        c.validate()?;
        Ok(c)
    }

    fn validate(&self) -> Result<(), String> {
        for f in &self.facts {
            if f.kind == FactKind::Number && !(f.said.is_empty() && f.said_not.is_empty()) {
                return Err(format!(
                    "fact {}: only a yes/no fact has `said` patterns",
                    f.id
                ));
            }
            for p in f.said.iter().chain(&f.said_not) {
                regex::Regex::new(p).map_err(|e| format!("fact {}: pattern {p:?}: {e}", f.id))?;
            }
        }
        for o in &self.offices {
            for c in &o.criteria {
                let at = format!("{}/{}", o.id, c.id);
                match c.rule {
                    RuleKind::FactIs | RuleKind::Min => {
                        self.validate_test(c.rule, c.fact.as_deref(), c.value, c.min, &at)?
                    }
                    RuleKind::MinSum => {
                        return Err(format!("{at}: min_sum is only an any_of option"))
                    }
                    RuleKind::QualifiedFor => {
                        let target = c.office.as_deref().unwrap_or("");
                        if self.office(target).is_none() {
                            return Err(format!("{at}: unknown office {target:?}"));
                        }
                    }
                    RuleKind::AnyOf => {
                        if c.options.len() < 2 {
                            return Err(format!("{at}: any_of needs two options or more"));
                        }
                        for opt in &c.options {
                            if opt.rule == RuleKind::MinSum {
                                self.validate_sum(opt, &at)?;
                                continue;
                            }
                            self.validate_test(
                                opt.rule,
                                opt.fact.as_deref(),
                                opt.value,
                                opt.min,
                                &at,
                            )?;
                        }
                    }
                    RuleKind::Note => {}
                }
            }
        }
        Ok(())
    }

    /// A `min_sum` option adds two number facts, the second counting when a yes/no fact holds.
    fn validate_sum(&self, opt: &CriterionOption, at: &str) -> Result<(), String> {
        let kind = |id: &str| self.fact(id).map(|f| f.kind);
        if opt.facts.len() != 2 || opt.facts.iter().any(|f| kind(f) != Some(FactKind::Number)) {
            return Err(format!("{at}: min_sum needs two number facts"));
        }
        if opt.given.as_deref().and_then(kind) != Some(FactKind::Bool) {
            return Err(format!("{at}: min_sum needs a yes/no `given` fact"));
        }
        if opt.min.is_none() {
            return Err(format!("{at}: min_sum needs a minimum"));
        }
        Ok(())
    }

    /// A `fact_is` or `min` test names a fact of the right kind and has its value or minimum.
    fn validate_test(
        &self,
        rule: RuleKind,
        fact: Option<&str>,
        value: Option<bool>,
        min: Option<f64>,
        at: &str,
    ) -> Result<(), String> {
        let kind = match rule {
            RuleKind::FactIs if value.is_some() => FactKind::Bool,
            RuleKind::Min if min.is_some() => FactKind::Number,
            RuleKind::FactIs => return Err(format!("{at}: fact_is needs a value")),
            RuleKind::Min => return Err(format!("{at}: min needs a minimum")),
            _ => return Err(format!("{at}: an option is fact_is or min")),
        };
        let id = fact.ok_or(format!("{at}: no fact"))?;
        match self.fact(id) {
            Some(f) if f.kind == kind => Ok(()),
            Some(_) => Err(format!("{at}: fact {id} has the wrong kind")),
            None => Err(format!("{at}: unknown fact {id}")),
        }
    }

    /// An office by id or alias (any case, any punctuation: "High-Court judge").
    pub fn office(&self, name: &str) -> Option<&Office> {
        let n = normalise(name);
        self.offices
            .iter()
            .find(|o| normalise(&o.id) == n || o.aliases.iter().any(|a| normalise(a) == n))
    }

    pub fn fact(&self, id: &str) -> Option<&FactDef> {
        self.facts.iter().find(|f| f.id == id)
    }
}

/// Lower case, letters and digits only, single spaces ("High-Court_judge" → "high court
/// judge"): how office names are compared.
pub(crate) fn normalise(s: &str) -> String {
    s.to_lowercase()
        .split(|ch: char| !ch.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A stated fact's value.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum FactValue {
    Bool(bool),
    Number(f64),
}

/// Stated facts by id; a fact not in the map is unknown.
pub type Facts = BTreeMap<String, FactValue>;

/// Checks stated facts against the catalogue's facts: unknown ids and wrong kinds are errors
/// (a typo must not read as "unknown").
pub fn check_facts(c: &Catalogue, facts: &Facts) -> Result<(), String> {
    for (id, v) in facts {
        let def = c.fact(id).ok_or_else(|| {
            let known: Vec<&str> = c.facts.iter().map(|f| f.id.as_str()).collect();
            format!("unknown fact {id:?}; known facts: {}", known.join(", "))
        })?;
        match (def.kind, v) {
            (FactKind::Bool, FactValue::Bool(_)) => {}
            (FactKind::Number, FactValue::Number(n)) if (0.0..=150.0).contains(n) => {}
            (FactKind::Number, FactValue::Number(n)) => {
                return Err(format!("{id} = {n} is not a plausible number of years"))
            }
            (kind, _) => return Err(format!("{id} must be a {kind:?}").to_lowercase()),
        }
    }
    Ok(())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Met,
    NotMet,
    Unknown,
    /// Informational: shown, never decides.
    Note,
}

/// How one criterion came out, with the words that impose it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct CriterionResult {
    pub id: String,
    pub status: Status,
    #[serde(rename = "ref")]
    pub ref_id: String,
    /// The clause the quote comes from (for an `any_of`, the option that decided it).
    pub clause: String,
    /// Verbatim text of the Constitution.
    pub quote: String,
    /// What was compared ("you are 30; the text requires 35").
    pub detail: String,
    /// Facts still needed to decide it.
    pub missing: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum VerdictKind {
    NotEligible,
    NeedMoreInfo,
    LikelyEligible,
}

impl VerdictKind {
    /// The wire name ("not_eligible", …).
    pub fn as_str(self) -> &'static str {
        match self {
            VerdictKind::NotEligible => "not_eligible",
            VerdictKind::NeedMoreInfo => "need_more_info",
            VerdictKind::LikelyEligible => "likely_eligible",
        }
    }
}

/// A fact to ask for.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct MissingFact {
    pub id: String,
    pub kind: FactKind,
    pub question: String,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Verdict {
    pub office: String,
    pub office_name: String,
    pub verdict: VerdictKind,
    /// The criteria not met (`not_eligible` only).
    pub failing: Vec<String>,
    /// The facts to ask for next, in the order a person would answer them.
    pub missing_facts: Vec<MissingFact>,
    pub criteria: Vec<CriterionResult>,
    pub note: &'static str,
}

/// Lines `facts` up against `office`'s criteria.
pub fn check(c: &Catalogue, office: &Office, facts: &Facts) -> Verdict {
    let criteria = evaluate(c, office, facts, 0);
    let failing: Vec<String> = criteria
        .iter()
        .filter(|r| r.status == Status::NotMet)
        .map(|r| r.id.clone())
        .collect();
    let mut wanted: Vec<&str> = criteria
        .iter()
        .flat_map(|r| r.missing.iter().map(String::as_str))
        .collect();
    wanted.sort_by_key(|id| c.facts.iter().position(|f| f.id == *id));
    wanted.dedup();
    let verdict = if !failing.is_empty() {
        VerdictKind::NotEligible
    } else if !wanted.is_empty() || criteria.iter().any(|r| r.status == Status::Unknown) {
        VerdictKind::NeedMoreInfo
    } else {
        VerdictKind::LikelyEligible
    };
    let missing_facts = if verdict == VerdictKind::NotEligible {
        Vec::new()
    } else {
        wanted
            .iter()
            .filter_map(|id| c.fact(id))
            .map(|f| MissingFact {
                id: f.id.clone(),
                kind: f.kind,
                question: f.question.clone(),
            })
            .collect()
    };
    Verdict {
        office: office.id.clone(),
        office_name: office.name.clone(),
        verdict,
        failing,
        missing_facts,
        criteria,
        note: NOTE,
    }
}

/// Each of `office`'s criteria judged against `facts`; `depth` counts the `qualified_for` steps
/// taken to reach `office`.
fn evaluate(c: &Catalogue, office: &Office, facts: &Facts, depth: usize) -> Vec<CriterionResult> {
    office
        .criteria
        .iter()
        .map(|cr| evaluate_criterion(c, cr, facts, depth))
        .collect()
}

/// One criterion: unknown, quoting its own clause, until its rule decides otherwise.
fn evaluate_criterion(
    c: &Catalogue,
    cr: &Criterion,
    facts: &Facts,
    depth: usize,
) -> CriterionResult {
    let mut r = CriterionResult {
        id: cr.id.clone(),
        status: Status::Unknown,
        ref_id: cr.ref_id.clone(),
        clause: cr.clause.clone(),
        quote: cr.phrase.clone(),
        detail: String::new(),
        missing: Vec::new(),
    };
    match cr.rule {
        // Refused when the catalogue is parsed.
        RuleKind::Note | RuleKind::MinSum => r.status = Status::Note,
        RuleKind::FactIs | RuleKind::Min => decide_fact_test(c, cr, facts, &mut r),
        RuleKind::AnyOf => decide_any_of(c, cr, facts, &mut r),
        RuleKind::QualifiedFor => decide_qualified_for(c, cr, facts, depth, &mut r),
    }
    r
}

/// A `fact_is` or `min` criterion: its one fact decides it, or is asked for.
fn decide_fact_test(c: &Catalogue, cr: &Criterion, facts: &Facts, r: &mut CriterionResult) {
    let (status, detail) = simple(c, cr.rule, cr.fact.as_deref(), cr.value, cr.min, facts);
    r.status = status;
    r.detail = detail;
    if status == Status::Unknown {
        r.missing = cr.fact.iter().cloned().collect();
    }
}

/// An `any_of` criterion: met by the first option met (quoting that option's clause), not met
/// when every option fails, otherwise undecided.
fn decide_any_of(c: &Catalogue, cr: &Criterion, facts: &Facts, r: &mut CriterionResult) {
    // Each option's status, what was compared, and the facts it still needs.
    let outcomes: Vec<(Status, String, Vec<String>)> = cr
        .options
        .iter()
        .map(|o| option_test(c, o, facts))
        .collect();
    if let Some(i) = outcomes.iter().position(|(s, _, _)| *s == Status::Met) {
        r.status = Status::Met;
        r.clause = cr.options[i].clause.clone();
        r.quote = cr.options[i].phrase.clone();
        r.detail = outcomes[i].1.clone();
    } else if outcomes.iter().all(|(s, _, _)| *s == Status::NotMet) {
        r.status = Status::NotMet;
        r.detail = outcomes
            .iter()
            .map(|(_, d, _)| d.as_str())
            .collect::<Vec<_>>()
            .join("; ");
    } else {
        any_of_undecided(&outcomes, r);
    }
}

/// No option met, some unknown: the facts the unknown ones need (each once), and what ruled
/// the others out.
fn any_of_undecided(outcomes: &[(Status, String, Vec<String>)], r: &mut CriterionResult) {
    for (_, _, missing) in outcomes.iter().filter(|(s, _, _)| *s == Status::Unknown) {
        for m in missing {
            if !r.missing.contains(m) {
                r.missing.push(m.clone());
            }
        }
    }
    let said: Vec<&str> = outcomes
        .iter()
        .filter(|(s, _, _)| *s == Status::NotMet)
        .map(|(_, d, _)| d.as_str())
        .collect();
    r.detail = if said.is_empty() {
        "any one of these is enough".into()
    } else {
        format!("{}; any one of the others is enough", said.join("; "))
    };
}

/// A `qualified_for` criterion: the other office's criteria, with the same facts, one step
/// deeper (at `MAX_DEPTH`, or with no such office, it stays unknown).
fn decide_qualified_for(
    c: &Catalogue,
    cr: &Criterion,
    facts: &Facts,
    depth: usize,
    r: &mut CriterionResult,
) {
    let target = cr.office.as_deref().and_then(|o| c.office(o));
    match target {
        Some(t) if depth < MAX_DEPTH => {
            let sub = evaluate(c, t, facts, depth + 1);
            let failing: Vec<&str> = sub
                .iter()
                .filter(|s| s.status == Status::NotMet)
                .map(|s| s.id.as_str())
                .collect();
            if !failing.is_empty() {
                r.status = Status::NotMet;
                r.detail = format!("not qualified as {}: {}", t.name, failing.join(", "));
            } else {
                r.missing = sub.into_iter().flat_map(|s| s.missing).collect();
                if r.missing.is_empty() {
                    r.status = Status::Met;
                    r.detail = format!("qualified as {}", t.name);
                } else {
                    r.detail = format!("depends on the qualifications of {}", t.name);
                }
            }
        }
        _ => r.detail = "cannot be decided here".into(),
    }
}

/// One `any_of` option: a `fact_is` / `min` test, or a `min_sum`.
fn option_test(c: &Catalogue, o: &CriterionOption, facts: &Facts) -> (Status, String, Vec<String>) {
    if o.rule != RuleKind::MinSum {
        let (status, detail) = simple(c, o.rule, o.fact.as_deref(), o.value, o.min, facts);
        let missing = match status {
            Status::Unknown => o.fact.iter().cloned().collect(),
            _ => Vec::new(),
        };
        return (status, detail, missing);
    }
    let need = o.min.unwrap_or(0.0);
    let number = |id: &str| match facts.get(id) {
        Some(FactValue::Number(n)) => Some(*n),
        _ => None,
    };
    let (Some(first), Some(second)) = (o.facts.first(), o.facts.get(1)) else {
        return (Status::Unknown, String::new(), Vec::new());
    };
    let given = o.given.clone().unwrap_or_default();
    match (number(first), number(second)) {
        (Some(a), _) if a >= need => (Status::Met, format!("{first}: {a}"), Vec::new()),
        (Some(a), Some(b)) if a + b < need => (
            Status::NotMet,
            format!("{first} {a} and {second} {b} together: {}; the text requires at least {need}", a + b),
            Vec::new(),
        ),
        (Some(a), Some(b)) => match facts.get(&given) {
            Some(FactValue::Bool(true)) => (
                Status::Met,
                format!("{first} {a} and {second} {b} together: {}", a + b),
                Vec::new(),
            ),
            Some(_) => (
                Status::NotMet,
                format!("{second} does not count ({given}: no); {first}: {a}; the text requires at least {need}"),
                Vec::new(),
            ),
            None => (
                Status::Unknown,
                format!("{first} {a} and {second} {b} together reach {need} only if {given}"),
                vec![given],
            ),
        },
        (a, b) => (
            Status::Unknown,
            String::new(),
            [(first, a), (second, b)]
                .into_iter()
                .filter(|(_, v)| v.is_none())
                .map(|(id, _)| id.clone())
                .collect(),
        ),
    }
}

/// A `fact_is` or `min` test of one fact.
fn simple(
    c: &Catalogue,
    rule: RuleKind,
    fact: Option<&str>,
    value: Option<bool>,
    min: Option<f64>,
    facts: &Facts,
) -> (Status, String) {
    let Some(id) = fact else {
        return (Status::Unknown, String::new());
    };
    let asked = c.fact(id).map(|f| f.question.as_str()).unwrap_or(id);
    match (rule, facts.get(id)) {
        (_, None) => (Status::Unknown, format!("not stated: {asked}")),
        (RuleKind::FactIs, Some(FactValue::Bool(b))) => {
            let ok = Some(*b) == value;
            let status = if ok { Status::Met } else { Status::NotMet };
            (status, format!("{id}: {}", if *b { "yes" } else { "no" }))
        }
        (RuleKind::Min, Some(FactValue::Number(n))) => {
            let need = min.unwrap_or(0.0);
            let status = if *n >= need {
                Status::Met
            } else {
                Status::NotMet
            };
            (
                status,
                format!("{id}: {n}; the text requires at least {need}"),
            )
        }
        _ => (Status::Unknown, format!("{id} has the wrong kind")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"
[[fact]]
id = "citizen"
kind = "bool"
question = "Are you a citizen of India?"
[[fact]]
id = "age"
kind = "number"
question = "How old are you?"
[[fact]]
id = "years_a"
kind = "number"
question = "Years as A?"
[[fact]]
id = "years_b"
kind = "number"
question = "Years as B?"
[[fact]]
id = "profit"
kind = "bool"
question = "Office of profit?"

[[office]]
id = "member"
name = "Member"
refs = ["84"]
[[office.criterion]]
id = "citizen"
ref = "84"
clause = "(a)"
phrase = "is a citizen of India"
rule = "fact_is"
fact = "citizen"
value = true
[[office.criterion]]
id = "age"
ref = "84"
clause = "(b)"
phrase = "not less than twenty-five years of age"
rule = "min"
fact = "age"
min = 25

[[office]]
id = "head"
name = "Head"
aliases = ["chief"]
refs = ["58"]
[[office.criterion]]
id = "age"
ref = "58"
clause = "(1)(b)"
phrase = "has completed the age of thirty-five years"
rule = "min"
fact = "age"
min = 35
[[office.criterion]]
id = "member"
ref = "58"
clause = "(1)(c)"
phrase = "is qualified for election as a member"
rule = "qualified_for"
office = "member"
[[office.criterion]]
id = "experience"
ref = "217"
clause = "(2)"
phrase = "unless he is a citizen"
rule = "any_of"
  [[office.criterion.option]]
  clause = "(2)(a)"
  phrase = "ten years"
  rule = "min"
  fact = "years_a"
  min = 10
  [[office.criterion.option]]
  clause = "(2)(b)"
  phrase = "ten years"
  rule = "min"
  fact = "years_b"
  min = 10
[[office.criterion]]
id = "no_profit"
ref = "58"
clause = "(2)"
phrase = "holds any office of profit"
rule = "fact_is"
fact = "profit"
value = false
[[office.criterion]]
id = "vacate"
ref = "59"
clause = "(1)"
phrase = "deemed to have vacated"
rule = "note"
"#;

    fn facts(pairs: &[(&str, FactValue)]) -> Facts {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }
    use FactValue::{Bool, Number};

    #[test]
    fn too_young_is_not_eligible_and_names_the_clause() {
        let c = Catalogue::parse(SAMPLE).unwrap();
        let head = c.office("Chief").unwrap();
        let v = check(&c, head, &facts(&[("age", Number(30.0))]));
        assert_eq!(v.verdict, VerdictKind::NotEligible);
        assert_eq!(serde_json::to_value(v.verdict).unwrap(), v.verdict.as_str());
        assert_eq!(v.failing, vec!["age"]);
        let age = &v.criteria[0];
        assert_eq!(
            (age.clause.as_str(), age.status),
            ("(1)(b)", Status::NotMet)
        );
        assert!(age.quote.contains("thirty-five"));
        assert!(
            v.missing_facts.is_empty(),
            "a failing verdict asks nothing more"
        );
    }

    #[test]
    fn unknowns_are_asked_for_in_the_facts_order_never_assumed() {
        let c = Catalogue::parse(SAMPLE).unwrap();
        let head = c.office("head").unwrap();
        let v = check(&c, head, &facts(&[("age", Number(40.0))]));
        assert_eq!(v.verdict, VerdictKind::NeedMoreInfo);
        let asked: Vec<&str> = v.missing_facts.iter().map(|m| m.id.as_str()).collect();
        // citizen comes from the office it must be qualified for; order = the facts' order.
        assert_eq!(asked, vec!["citizen", "years_a", "years_b", "profit"]);
        let note = v.criteria.iter().find(|r| r.id == "vacate").unwrap();
        assert_eq!(note.status, Status::Note);
    }

    #[test]
    fn all_met_is_only_likely_eligible_and_any_of_quotes_the_option_that_met() {
        let c = Catalogue::parse(SAMPLE).unwrap();
        let head = c.office("head").unwrap();
        let all = facts(&[
            ("age", Number(40.0)),
            ("citizen", Bool(true)),
            ("years_a", Number(3.0)),
            ("years_b", Number(12.0)),
            ("profit", Bool(false)),
        ]);
        let v = check(&c, head, &all);
        assert_eq!(v.verdict, VerdictKind::LikelyEligible);
        assert!(v.note.contains("never more than"));
        let exp = v.criteria.iter().find(|r| r.id == "experience").unwrap();
        assert_eq!((exp.status, exp.clause.as_str()), (Status::Met, "(2)(b)"));
        // Both options short: not met, with both reasons.
        let mut short = all.clone();
        short.insert("years_b".into(), Number(8.0));
        let v = check(&c, head, &short);
        assert_eq!(v.failing, vec!["experience"]);
        // Not a citizen fails through the office it must be qualified for.
        let mut foreign = all;
        foreign.insert("citizen".into(), Bool(false));
        let v = check(&c, head, &foreign);
        assert_eq!(v.failing, vec!["member"]);
    }

    #[test]
    fn stated_facts_are_checked() {
        let c = Catalogue::parse(SAMPLE).unwrap();
        assert!(check_facts(&c, &facts(&[("age", Number(30.0))])).is_ok());
        assert!(check_facts(&c, &facts(&[("agee", Number(30.0))]))
            .unwrap_err()
            .contains("known facts"));
        assert!(check_facts(&c, &facts(&[("age", Bool(true))])).is_err());
        assert!(check_facts(&c, &facts(&[("age", Number(-3.0))])).is_err());
        assert!(check_facts(&c, &facts(&[("citizen", Number(1.0))])).is_err());
    }

    #[test]
    fn the_shipped_catalogue_is_valid_and_covers_the_issues_offices() {
        let c = Catalogue::builtin();
        for office in [
            "president",
            "vice_president",
            "lok_sabha_member",
            "rajya_sabha_member",
            "mla",
            "mlc",
            "supreme_court_judge",
            "high_court_judge",
            "governor",
            "attorney_general",
            "advocate_general",
            "panchayat_member",
            "municipality_member",
            "union_minister",
            "state_minister",
        ] {
            assert!(c.office(office).is_some(), "{office}");
        }
        assert_eq!(
            c.office("MP").map(|o| o.id.as_str()),
            Some("lok_sabha_member")
        );
        // No stated fact: never eligible, never refused.
        for o in &c.offices {
            let v = check(c, o, &Facts::new());
            assert_ne!(v.verdict, VerdictKind::NotEligible, "{}", o.id);
        }
    }

    #[test]
    fn judicial_office_after_the_bar_counts_towards_it_when_said() {
        // 217(2), Explanation (aa): 3 years at the bar and then 8 as a district judge.
        let c = Catalogue::builtin();
        let hc = c.office("high_court_judge").unwrap();
        let mut facts = Facts::new();
        facts.insert("citizen".into(), FactValue::Bool(true));
        facts.insert("years_advocate_high_court".into(), FactValue::Number(3.0));
        facts.insert("years_judicial_office".into(), FactValue::Number(8.0));
        let v = check(c, hc, &facts);
        assert_eq!(v.verdict, VerdictKind::NeedMoreInfo, "{v:?}");
        assert_eq!(v.missing_facts[0].id, "judicial_office_after_advocate");
        facts.insert(
            "judicial_office_after_advocate".into(),
            FactValue::Bool(true),
        );
        let v = check(c, hc, &facts);
        assert_eq!(v.verdict, VerdictKind::LikelyEligible, "{v:?}");
        let met = v
            .criteria
            .iter()
            .find(|r| r.id == "judicial_or_bar_experience")
            .unwrap();
        assert_eq!(met.clause, "(2)(aa)");
        facts.insert(
            "judicial_office_after_advocate".into(),
            FactValue::Bool(false),
        );
        assert_eq!(check(c, hc, &facts).verdict, VerdictKind::NotEligible);
        // Too few years together: no need to ask.
        facts.remove("judicial_office_after_advocate");
        facts.insert("years_judicial_office".into(), FactValue::Number(5.0));
        assert_eq!(check(c, hc, &facts).verdict, VerdictKind::NotEligible);
    }

    #[test]
    fn broken_catalogues_are_refused() {
        let bad_fact = SAMPLE.replace("fact = \"profit\"", "fact = \"proft\"");
        assert!(Catalogue::parse(&bad_fact)
            .unwrap_err()
            .contains("unknown fact"));
        let bad_office = SAMPLE.replace("office = \"member\"", "office = \"membr\"");
        assert!(Catalogue::parse(&bad_office)
            .unwrap_err()
            .contains("unknown office"));
    }
}
