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

/// A question before its everyday rewording, with the template that made it.
type Asked = (String, &'static str);

/// Every question the generators make for one provision, deduplicated, in a fixed order.
pub fn for_provision(p: &ProvisionView, everyday: &Everyday) -> Vec<Generated> {
    let heading = Heading::of(p);
    let mut asked: Vec<Asked> = Vec::new();
    asked.extend(heading_question(p, &heading, everyday));
    if !heading.omitted {
        for clause in clause_texts(p).iter() {
            asked.extend(clause_questions(head_of(without_label(clause))));
        }
        asked.extend(office_questions(p, &heading));
    }
    asked.extend(history_questions(p, &heading));
    if p.kind == "schedule" {
        asked.extend(schedule_questions(p));
    }
    reworded_and_deduplicated(asked, &p.ref_id, everyday)
}

/// A provision's marginal heading as the generators read it.
struct Heading {
    /// As printed, without the closing full stop.
    title: String,
    /// Lower-cased, the form questions quote.
    lower: String,
    omitted: bool,
    /// Long enough to say something and short enough to read as a question.
    usable: bool,
}

impl Heading {
    fn of(p: &ProvisionView) -> Heading {
        let title = p.title.trim().trim_end_matches('.').to_string();
        let omitted = p.status == "omitted";
        let lower = title.to_lowercase();
        let usable = !omitted && lower.split_whitespace().count() >= 2 && lower.len() <= 90;
        Heading {
            title,
            lower,
            omitted,
            usable,
        }
    }
}

/// One heading question per provision (not a Schedule's), its form chosen by the provision's
/// number so that the set holds both (and the model does not learn that questions are
/// headings).
fn heading_question(p: &ProvisionView, heading: &Heading, everyday: &Everyday) -> Option<Asked> {
    if !heading.usable || p.kind == "schedule" {
        return None;
    }
    let as_question = p.ref_id.bytes().map(usize::from).sum::<usize>() % 2 == 0;
    let question = if as_question {
        format!("What does the constitution say about {}?", heading.lower)
    } else {
        everyday.apply(&heading.lower)
    };
    Some((question, "heading"))
}

/// The questions one clause's opening sentence answers: who appoints, how long, how removed,
/// what Parliament may make a law on, what the State shall not do.
///
/// Keyword searches cut from the clauses were tried and left out: they copy the text's words,
/// and a ranker fitted on them trusts word overlap more than real questions deserve (dev MRR
/// fell; ADR 0008).
fn clause_questions(first: &str) -> Vec<Asked> {
    let mut out = Vec::new();
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
    out
}

/// What it takes to hold the office the heading names, and the oath its holder takes.
fn office_questions(p: &ProvisionView, heading: &Heading) -> Vec<Asked> {
    let mut out = Vec::new();
    if let Some(office) = office_from_heading(&heading.title) {
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
    if heading.lower.contains("oath or affirmation by") {
        if let Some(who) = heading.lower.split(" by ").nth(1) {
            out.push((format!("What oath does {} take?", phrase(who)), "oath"));
        }
    }
    out
}

/// When an Article was added (a note on no clause: a note on one clause dates that clause
/// only), and whether an omitted one is still there.
fn history_questions(p: &ProvisionView, heading: &Heading) -> Vec<Asked> {
    let mut out = Vec::new();
    let inserted = p
        .amendments
        .iter()
        .any(|a| a.kind == "inserted" && a.clause.is_none());
    if inserted && heading.usable && p.kind == "article" {
        out.push((
            format!("When was {} added to the constitution?", heading.lower),
            "inserted",
        ));
    }
    if heading.omitted && p.kind == "article" {
        if let Some(h) = omitted_heading(&p.text, &heading.title) {
            out.push((
                format!("Is there still a provision on {h} in the constitution?"),
                "omitted",
            ));
        }
    }
    out
}

/// Every other question in everyday wording, whitespace normalised, one-word and repeated
/// questions dropped (the first occurrence wins, case aside).
fn reworded_and_deduplicated(
    asked: Vec<Asked>,
    ref_id: &str,
    everyday: &Everyday,
) -> Vec<Generated> {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut result = Vec::new();
    for (i, (q, template)) in asked.into_iter().enumerate() {
        let q = if i % 2 == 1 { everyday.apply(&q) } else { q };
        let q = q.split_whitespace().collect::<Vec<_>>().join(" ");
        if q.split_whitespace().count() < 2 || !seen.insert(q.to_lowercase()) {
            continue;
        }
        result.push(Generated {
            question: q,
            ref_id: ref_id.to_string(),
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
fn schedule_questions(p: &ProvisionView) -> Vec<Asked> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn templates(asked: &[Asked]) -> Vec<&str> {
        asked.iter().map(|(_, t)| *t).collect()
    }

    #[test]
    fn a_clause_says_who_appoints_and_for_how_long() {
        let asked = clause_questions(
            "The Governor of a State shall be appointed by the President by warrant under his hand and seal",
        );
        assert_eq!(templates(&asked), ["appoint"]);
        assert!(asked[0].0.starts_with("Who appoints the governor of"));
        let asked = clause_questions("The Governor shall hold office for a term of five years");
        assert_eq!(templates(&asked), ["term"]);
    }

    #[test]
    fn a_vague_subject_asks_nothing() {
        assert!(
            clause_questions("Such person shall hold office for a term of five years").is_empty()
        );
        assert!(clause_questions("The Union and the States shall cooperate").is_empty());
    }

    #[test]
    fn every_other_question_is_reworded_and_repeats_are_dropped() {
        let everyday = Everyday(vec![("house of the people".into(), "lok sabha".into())]);
        let asked = vec![
            ("Who chairs the house of the people?".to_string(), "heading"),
            (
                "Who  chairs the house of the people?".to_string(),
                "appoint",
            ),
            ("WHO chairs the lok sabha?".to_string(), "term"),
            ("Why?".to_string(), "oath"),
        ];
        let out = reworded_and_deduplicated(asked, "93", &everyday);
        let questions: Vec<&str> = out.iter().map(|g| g.question.as_str()).collect();
        // The second is reworded (lower-cased, "lok sabha") and kept; the third repeats it, case aside; the
        // fourth is one word.
        assert_eq!(
            questions,
            [
                "Who chairs the house of the people?",
                "who chairs the lok sabha?"
            ]
        );
        assert!(out.iter().all(|g| g.ref_id == "93"));
    }
}
