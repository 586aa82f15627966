//! Questions generated from the Constitution's own text: the training data of the learned
//! second stage. Pure and deterministic — the same provisions give the same questions, in the
//! same order — so the data (and the model trained on it) can be rebuilt and its hash checked.
//!
//! The golden set is never read here. Each generator turns something the text says into what a
//! reader would ask about it, and labels the question with the provision it came from:
//!
//! | template | from | e.g. |
//! |---|---|---|
//! | `heading` | the marginal heading, in everyday words where the glossary has them | "Duration of Houses of Parliament" → "how long do lok sabha and rajya sabha last?" is beyond it; it gives "what does the constitution say about duration of houses of parliament?" |
//! | `appoint` | "X shall be appointed by Y" / "Y shall appoint X" | "Who appoints every judge of the supreme court?" |
//! | `term` | "shall hold office for a term of N years" | "How long does the governor hold office?" |
//! | `age` | "completed the age of N years" | "What is the minimum age for a member of the lok sabha?" |
//! | `remove` | "shall not be removed from his office except …" | "How can a judge of the supreme court be removed?" |
//! | `oath` | "oath or affirmation" | "Who administers the oath to the president?" |
//! | `may_by_law` | "Parliament may by law …" | "Can parliament make a law to regulate …?" |
//! | `shall_not` | "The State shall not …" | "Can the government deny to any person equality before the law?" |
//! | `inserted` / `omitted` | amendment notes | "When was right to education added to the constitution?" |
//! | `list_entry` | Seventh, Eleventh and Twelfth Schedule entries | "Which list is railways in?" |
//! | `language` | Eighth Schedule | "Is Santhali one of the languages in the constitution?" |
//!
//! Everyday words come from the glossary read backwards ("House of the People" → "lok sabha"),
//! applied to every other question of a provision, so the model sees both registers.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use crate::search::glossary::Glossary;
use crate::store::ProvisionView;

/// One generated question and the provision that answers it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Generated {
    pub question: String,
    #[serde(rename = "ref")]
    pub ref_id: String,
    pub template: String,
}

/// The glossary read backwards: a phrase of the text → the everyday term people use for it.
pub struct Everyday(Vec<(String, String)>);

impl Everyday {
    /// From the glossary: each `expand` phrase of an entry maps to the entry's first term.
    /// Longer phrases first, so "Council of Ministers" wins over "Council".
    pub fn from_glossary(g: &Glossary) -> Everyday {
        let mut pairs: Vec<(String, String)> = Vec::new();
        for e in g.entries() {
            let Some(term) = e.terms.first() else {
                continue;
            };
            for phrase in &e.expand {
                let phrase = phrase.to_lowercase();
                // Only multi-word phrases: single words ("Union") are too often not the thing.
                if phrase.split_whitespace().count() >= 2
                    && !pairs.iter().any(|(p, _)| *p == phrase)
                {
                    pairs.push((phrase, term.clone()));
                }
            }
        }
        pairs.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0)));
        Everyday(pairs)
    }

    /// `text` (lower-cased) with each phrase replaced by its everyday term.
    pub fn apply(&self, text: &str) -> String {
        let mut out = text.to_lowercase();
        for (phrase, term) in &self.0 {
            if out.contains(phrase.as_str()) {
                out = out.replace(phrase.as_str(), term);
            }
        }
        out
    }
}

fn re(p: &str) -> Regex {
    Regex::new(p).expect("valid regex")
}

/// A noun phrase of up to seven words, no commas: "a judge of the supreme court".
const NP: &str = r"(?:[a-z'-]+ ){0,6}[a-z'-]+";

static APPOINTED_BY: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)(?P<who>{NP}) shall be appointed by (?P<by>the president|the governor|parliament|the chief justice|the legislature)\b"
    ))
});
static APPOINTS: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)(?P<by>the president|the governor|the prime minister|the chief minister) shall (?:by warrant under his hand and seal )?appoint (?:a |an |the )?(?P<who>{NP})(?: who| to| and|,|\.|$)"
    ))
});
static TERM: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)(?P<who>{NP}) shall hold office (?:for a (?:term|period) of|until he attains the age of|during the pleasure of) (?P<n>[a-z- ]+?)(?:[,;:.]|$| from)"
    ))
});
static AGE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:completed|attained|attains|not less than) (?:the age of )?(?P<n>[a-z-]+(?: years)?)(?: of age)?",
    )
});
static REMOVED: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)(?P<who>{NP}) (?:shall not be|may be) removed from (?:his |their )?office"
    ))
});
static MAY_BY_LAW: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?P<who>parliament|the legislature of a state) may,? by law,? (?P<what>(?:[a-z'-]+ ){2,12}[a-z'-]+)",
    )
});
static SHALL_NOT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\b(?:the state|no state|parliament) shall not (?P<what>(?:[a-z'-]+ ){2,12}[a-z'-]+)")
});
/// Subjects that say nothing on their own ("Who appoints the person?").
const VAGUE: &[&str] = &[
    "person",
    "persons",
    "he",
    "such person",
    "such persons",
    "members",
    "member",
    "there",
    "provided that",
    "any person",
    "officers",
    "such officers",
    "the same",
];

/// A subject worth asking about: not vague, not a proviso or a "there shall be" clause.
fn subject(who: &str) -> Option<String> {
    let p = phrase(who);
    let p = p
        .strip_prefix("a ")
        .or_else(|| p.strip_prefix("an "))
        .or_else(|| p.strip_prefix("every "))
        .unwrap_or(&p)
        .to_string();
    let bad = VAGUE.contains(&p.as_str())
        || p.starts_with("provided")
        || p.starts_with("there ")
        || p.starts_with("such ")
        || p.contains(" who ")
        || p.split_whitespace().count() > 7;
    (!bad && p.len() >= 3).then_some(p)
}

static ENTRY: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^(?P<n>\d+[A-Z]?)\. (?P<text>[^\n]{3,})$"));
static LIST_HEADING: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^List (?P<n>I{1,3})\s*[—-]\s*(?P<name>[A-Za-z ]+List)$"));

/// A noun phrase cleaned for a question: lower-case, no leading article, no trailing comma.
fn phrase(s: &str) -> String {
    let s = s.trim().trim_end_matches([',', ';']).trim();
    let s = s
        .strip_prefix("the ")
        .or_else(|| s.strip_prefix("The "))
        .unwrap_or(s);
    s.to_lowercase()
}

/// The first sentence-ish piece of a clause: up to the first colon or full stop.
fn head_of(text: &str) -> &str {
    let end = text
        .char_indices()
        .find(|(_, c)| matches!(c, ':' | '.' | '\n'))
        .map(|(i, _)| i)
        .unwrap_or(text.len());
    &text[..end]
}

/// Strips a clause label ("(1) ", "(a) ") from the start of a clause's text.
fn without_label(text: &str) -> &str {
    let t = text.trim_start();
    if t.starts_with('(') {
        if let Some(close) = t.find(')') {
            if close <= 6 {
                return t[close + 1..].trim_start();
            }
        }
    }
    t
}

fn office_from_heading(title: &str) -> Option<String> {
    // "Qualifications for election as President" → "president".
    static AS: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)(?:election|appointment) as (?:a |an )?(?P<o>[a-z][a-z ,'-]{2,60})$|^qualifications? (?:of|for) (?:a |an )?(?P<p>[a-z][a-z ,'-]{2,60})$|^qualification for membership of (?P<q>[a-z][a-z ,'-]{2,60})$",
        )
    });
    let c = AS.captures(title.trim().trim_end_matches('.'))?;
    c.name("o")
        .or(c.name("p"))
        .or(c.name("q"))
        .map(|m| phrase(m.as_str()))
}

/// The clause texts of a provision (or the whole text when it has no clauses).
fn clause_texts(p: &ProvisionView) -> Vec<String> {
    if p.clauses.is_empty() {
        return vec![p.text.clone()];
    }
    p.clauses.iter().map(|c| c.text.clone()).collect()
}

/// Every question the generators make for one provision, deduplicated, in a fixed order.
pub fn for_provision(p: &ProvisionView, everyday: &Everyday) -> Vec<Generated> {
    let mut out: Vec<(String, &'static str)> = Vec::new();
    let title = p.title.trim().trim_end_matches('.').to_string();
    let omitted = p.status == "omitted";
    let heading = title.to_lowercase();
    let usable_heading = !omitted && heading.split_whitespace().count() >= 2 && heading.len() <= 90;
    if usable_heading && p.kind != "schedule" {
        // One heading question per provision, its form chosen by the provision's number so
        // that the set holds both (and the model does not learn that questions are headings).
        let as_question = p.ref_id.bytes().map(usize::from).sum::<usize>() % 2 == 0;
        out.push((
            if as_question {
                format!("What does the constitution say about {heading}?")
            } else {
                everyday.apply(&heading)
            },
            "heading",
        ));
    }
    if !omitted {
        for clause in clause_texts(p).iter() {
            let body = without_label(clause);
            let first = head_of(body);
            if let Some(who) = APPOINTED_BY
                .captures(first)
                .or_else(|| APPOINTS.captures(first))
                .and_then(|c| subject(&c["who"]))
            {
                out.push((format!("Who appoints the {who}?"), "appoint"));
            }
            if let Some(who) = TERM.captures(first).and_then(|c| subject(&c["who"])) {
                out.push((format!("How long does the {who} hold office?"), "term"));
            }
            if let Some(who) = REMOVED.captures(first).and_then(|c| subject(&c["who"])) {
                out.push((
                    format!("How can the {who} be removed from office?"),
                    "remove",
                ));
            }
            if let Some(c) = MAY_BY_LAW.captures(first) {
                let who = phrase(&c["who"]);
                let what = phrase(&c["what"]);
                out.push((format!("Can {who} make a law to {what}?"), "may_by_law"));
            }
            if let Some(c) = SHALL_NOT.captures(first) {
                let what = phrase(&c["what"]);
                out.push((format!("Can the government {what}?"), "shall_not"));
            }
            // Keyword searches cut from the clauses were tried and left out: they copy the
            // text's words, and a ranker fitted on them trusts word overlap more than real
            // questions deserve (dev MRR fell; ADR 0008).
        }
        if let Some(office) = office_from_heading(&title) {
            if AGE.is_match(&p.text) {
                out.push((
                    format!("What is the minimum age to become {office}?"),
                    "age",
                ));
            }
            out.push((
                format!("What qualifications does one need to become {office}?"),
                "age",
            ));
        }
        if heading.contains("oath or affirmation by") {
            if let Some(who) = heading.split(" by ").nth(1) {
                out.push((format!("What oath does {} take?", phrase(who)), "oath"));
            }
        }
    }
    // Inserted whole: a note on no clause (a note on one clause dates that clause only).
    let inserted = p
        .amendments
        .iter()
        .any(|a| a.kind == "inserted" && a.clause.is_none());
    if inserted && usable_heading && p.kind == "article" {
        out.push((
            format!("When was {heading} added to the constitution?"),
            "inserted",
        ));
    }
    if omitted && p.kind == "article" {
        if let Some(h) = omitted_heading(&p.text, &title) {
            out.push((
                format!("Is there still a provision on {h} in the constitution?"),
                "omitted",
            ));
        }
    }
    if p.kind == "schedule" {
        out.extend(schedule_questions(p));
    }
    // Everyday wording of every other question, then dedupe (first occurrence wins).
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut result = Vec::new();
    for (i, (q, template)) in out.into_iter().enumerate() {
        let q = if i % 2 == 1 { everyday.apply(&q) } else { q };
        let q = q.split_whitespace().collect::<Vec<_>>().join(" ");
        if q.split_whitespace().count() < 2 || !seen.insert(q.to_lowercase()) {
            continue;
        }
        result.push(Generated {
            question: q,
            ref_id: p.ref_id.clone(),
            template: template.to_string(),
        });
    }
    result
}

/// An omitted Article's stub heading, when the text has one ("[Compulsory acquisition of
/// property.]").
fn omitted_heading(text: &str, title: &str) -> Option<String> {
    static BRACKETED: LazyLock<Regex> = LazyLock::new(|| re(r"^\[(?P<h>[^\]]{4,80})\]"));
    let h = BRACKETED
        .captures(text.trim())
        .map(|c| c["h"].to_string())
        .unwrap_or_else(|| title.to_string());
    let h = phrase(h.trim_end_matches('.'));
    (h.split_whitespace().count() >= 2 && h != "omitted").then_some(h)
}

/// Questions whose answer is an entry of a Schedule: which List a subject is in, what a
/// panchayat or municipality may be given, which languages are listed.
fn schedule_questions(p: &ProvisionView) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    let entries = |text: &str| -> Vec<String> {
        ENTRY
            .captures_iter(text)
            .map(|c| head_of(&c["text"]).trim().to_string())
            .filter(|t| {
                let w = t.split_whitespace().count();
                (1..=8).contains(&w) && !t.starts_with('[')
            })
            .collect()
    };
    match p.ref_id.as_str() {
        "SCH-7" => {
            // Entries between one List heading and the next belong to that List.
            let mut bounds: Vec<(usize, String)> = LIST_HEADING
                .captures_iter(&p.text)
                .filter_map(|c| Some((c.get(0)?.start(), c["name"].to_string())))
                .collect();
            bounds.push((p.text.len(), String::new()));
            for w in bounds.windows(2) {
                let (start, name) = (&w[0].0, &w[0].1);
                let part = &p.text[*start..w[1].0];
                for (i, e) in entries(part).into_iter().enumerate() {
                    let subject = phrase(&e);
                    let q = match i % 3 {
                        0 => format!("Which list is {subject} in?"),
                        1 => format!("Who makes laws on {subject} - the centre or the states?"),
                        _ => format!("Is {subject} in the {}?", name.to_lowercase()),
                    };
                    out.push((q, "list_entry"));
                }
            }
        }
        "SCH-11" => {
            for e in entries(&p.text) {
                out.push((
                    format!("Can {} be given to the panchayats?", phrase(&e)),
                    "list_entry",
                ));
            }
        }
        "SCH-12" => {
            for e in entries(&p.text) {
                out.push((
                    format!("Is {} a function of municipalities?", phrase(&e)),
                    "list_entry",
                ));
            }
        }
        "SCH-8" => {
            for e in entries(&p.text) {
                let lang = e.trim_end_matches('.');
                out.push((
                    format!("Is {lang} one of the languages recognised in the constitution?"),
                    "language",
                ));
            }
        }
        _ => {}
    }
    out
}

/// Lower-cased, whitespace-squashed: the form in which generated and golden questions are
/// compared for overlap.
pub fn normalise(q: &str) -> String {
    q.split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
