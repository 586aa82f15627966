//! "What is a Money Bill?": the term a question asks the meaning of, where the text says what
//! a term is, and an edition's index of the terms it defines. Pure but for the index's
//! per-edition cache.
//!
//! The text defines its terms in a few fixed shapes:
//! - `“Panchayat” means …`, `the expression “population” includes …`, also in a list
//!   (`“a smaller urban area” or “a larger urban area” means …`);
//! - a name given: `… to be entitled “the Consolidated Fund of India”`, `(in this Constitution
//!   referred to as the “Union List”)`, `… known as “…”`;
//! - `… shall be deemed to be a Money Bill …`, `… deemed to be Scheduled Castes …`.
//!
//! Search pins the provision that defines the asked term when the edition defines it in one
//! or two provisions (more, as with "population", defined per Article, say nothing about
//! which one is meant); the answer quotes the defining clause and lets a candidate that
//! defines the term lead.
//!
//! A question's term must be the whole of what it asks about ("What is a Money Bill under the
//! Constitution?" → "money bill"), so a question about something else that happens to
//! contain a defined word is left alone.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, LazyLock};

use regex::Regex;
use sqlx::PgPool;

use crate::error::AppResult;

/// The words of a term, lower-cased and singular, without a leading article.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Term(Vec<String>);

impl Term {
    fn new(words: &[String]) -> Option<Term> {
        let mut words: Vec<String> = words.iter().map(|w| singular(w)).collect();
        while words
            .first()
            .is_some_and(|w| matches!(w.as_str(), "the" | "a" | "an"))
        {
            words.remove(0);
        }
        (!words.is_empty() && words.len() <= MAX_TERM_WORDS).then_some(Term(words))
    }
}

/// Longer "terms" are questions, not names ("the maximum number of ministers in the central
/// government" is not defined anywhere and need not be looked for).
const MAX_TERM_WORDS: usize = 6;

/// How questions ask what a term is (`data/definitions.toml`): phrases as words.
struct Phrasing {
    /// What opens an English question about what something is; the term follows.
    openings: Vec<Vec<String>>,
    /// Words that end the term and start a qualifier.
    qualifiers: Vec<String>,
    /// Words that introduce the term itself ("the expression").
    introducers: Vec<Vec<String>>,
    /// How a question in Hindi asks what a term is, after the term.
    hindi_endings: Vec<String>,
}

#[derive(serde::Deserialize)]
struct PhrasingFile {
    openings: Vec<String>,
    qualifiers: Vec<String>,
    introducers: Vec<String>,
    hindi_endings: Vec<String>,
}

impl Phrasing {
    fn parse(toml_text: &str) -> Result<Phrasing, String> {
        let file: PhrasingFile = toml::from_str(toml_text).map_err(|e| e.to_string())?;
        let as_words = |list: Vec<String>| -> Result<Vec<Vec<String>>, String> {
            list.into_iter()
                .map(|p| {
                    let w = words(&p);
                    if w.is_empty() || w.join(" ") != p {
                        return Err(format!("{p:?} is not lower-case words"));
                    }
                    Ok(w)
                })
                .collect()
        };
        let qualifiers = as_words(file.qualifiers)?;
        if let Some(q) = qualifiers.iter().find(|q| q.len() != 1) {
            return Err(format!("the qualifier {:?} is not one word", q.join(" ")));
        }
        Ok(Phrasing {
            openings: as_words(file.openings)?,
            qualifiers: qualifiers.into_iter().flatten().collect(),
            introducers: as_words(file.introducers)?,
            hindi_endings: file.hindi_endings,
        })
    }

    fn builtin() -> &'static Phrasing {
        static BUILTIN: LazyLock<Phrasing> = LazyLock::new(|| {
            Phrasing::parse(include_str!("../data/definitions.toml"))
                .expect("data/definitions.toml is valid (a unit test parses it)")
        });
        &BUILTIN
    }
}

/// The term the question asks the meaning of, if it asks one: read in English, or in Hindi
/// (Devanagari or Latin letters) through the Hindi glossary ([`asked_term_in_hindi`]).
pub fn asked_term(question: &str) -> Option<Term> {
    use crate::language::Language;
    match crate::language::detect(question) {
        Language::English => asked_term_in_english(question),
        Language::Hindi | Language::RomanisedHindi => asked_term_in_hindi(question),
        _ => None,
    }
}

/// A question in Hindi that is only a term and an ending that asks what it is: the term's
/// English from the Hindi glossary (`data/glossary_hi.toml`), when the whole of what comes
/// before the ending is one of its terms ("धन विधेयक क्या है?" → "Money Bill").
fn asked_term_in_hindi(question: &str) -> Option<Term> {
    let q = question
        .trim()
        .trim_end_matches(['?', '।', '.', ' '])
        .to_lowercase();
    let q = q.split_whitespace().collect::<Vec<_>>().join(" ");
    let before = Phrasing::builtin()
        .hindi_endings
        .iter()
        .find_map(|ending| q.strip_suffix(ending))?;
    let english = crate::search::gloss::HindiGlossary::builtin().english_of(before.trim())?;
    Term::new(&words(english))
}

/// The term an English question (its asking sentence) asks the meaning of, if it asks one.
fn asked_term_in_english(question: &str) -> Option<Term> {
    let sentence = crate::answer::asks::asking_sentence(question);
    let w = words(sentence);
    // "What does X mean?", "What do the words X mean?" (but "What does the Constitution mean
    // by X?" names X after "by", an opening below).
    if let Some(at) = w
        .iter()
        .position(|x| x == "what")
        .filter(|&i| matches!(w.get(i + 1).map(String::as_str), Some("does" | "do")))
    {
        let rest = &w[at + 2..];
        if let Some(end) = rest.iter().position(|x| x == "mean") {
            if rest.get(end + 1).map(String::as_str) != Some("by") {
                return Term::new(without_introducer(&rest[..end]));
            }
        }
    }
    let phrasing = Phrasing::builtin();
    for opening in &phrasing.openings {
        let n = opening.len();
        let Some(at) = w
            .windows(n)
            .position(|win| win.iter().zip(opening.iter()).all(|(a, b)| a == b))
        else {
            continue;
        };
        let rest = without_introducer(&w[at + n..]);
        // The term runs to a qualifier or the end: "What is a Money Bill and who certifies
        // it?" reads "money bill and who certifies it", which no text defines, so a question
        // that asks more than the term's meaning is left alone.
        let end = rest
            .iter()
            .position(|x| phrasing.qualifiers.contains(x))
            .unwrap_or(rest.len());
        return Term::new(&rest[..end]);
    }
    None
}

fn without_introducer(words: &[String]) -> &[String] {
    for intro in &Phrasing::builtin().introducers {
        let n = intro.len();
        if words.len() > n && words.iter().zip(intro.iter()).all(|(a, b)| a == b) {
            return &words[n..];
        }
    }
    words
}

/// How a provision defines a term; the earlier shapes say it more directly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Shape {
    /// `“X” means …`, `“X” includes …`.
    Means,
    /// `… to be entitled “X”`, `referred to as the “X”`.
    Named,
    /// `… deemed to be a X …`.
    Deemed,
}

/// The terms `text` defines, each with its shape, in the order the shapes are read.
pub fn defined_terms(text: &str) -> Vec<(Term, Shape)> {
    let mut out: Vec<(Term, Shape)> = Vec::new();
    for q in quoted_terms(text) {
        let shape = if is_defining(&q.follows) {
            Shape::Means
        } else if is_naming(&q.precedes) {
            Shape::Named
        } else {
            continue;
        };
        if let Some(term) = Term::new(&words(&q.quoted)) {
            out.push((term, shape));
        }
    }
    // "For the purposes of this Chapter, a Bill shall be deemed to be a Money Bill if": the
    // capitalised words name the term. Only a fiction made "for the purposes of" a Chapter or
    // the Constitution defines a class; "… shall be deemed to be the High Court for the State
    // of Sikkim" or "… deemed to be an Act of the Legislature" makes one thing count as
    // another.
    static DEEMED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"deemed\s+to\s+be\s+(?:an?\s+)?((?:[A-Z][\w-]*\s+)*[A-Z][\w-]*)")
            .expect("a valid pattern")
    });
    for c in DEEMED.captures_iter(text) {
        let start = c.get(0).map_or(0, |m| m.start());
        let before = &text[text.floor_char_boundary(start.saturating_sub(DEEMED_SCOPE))..start];
        if !before.to_lowercase().contains("for the purposes of") {
            continue;
        }
        if let Some(term) = Term::new(&words(&c[1])) {
            out.push((term, Shape::Deemed));
        }
    }
    out
}

/// How far before "deemed to be" its "for the purposes of" may stand, in bytes.
const DEEMED_SCOPE: usize = 160;

/// Whether `span` is where the text says what `term` is (the shapes in the module's docs).
pub fn defines(span: &str, term: &Term) -> bool {
    defined_terms(span).iter().any(|(t, _)| t == term)
}

/// One “…” of a text: what it quotes, the text after its closing quote (past any further
/// quoted terms listed with it) and the text before its opening quote.
struct Quoted {
    quoted: String,
    follows: String,
    precedes: String,
}

fn quoted_terms(text: &str) -> Vec<Quoted> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find(['“', '"']).map(|i| from + i) {
        let body_start = open + char_len(text, open);
        let Some(close) = text[body_start..].find(['”', '"']).map(|i| body_start + i) else {
            break;
        };
        let after = close + char_len(text, close);
        out.push(Quoted {
            quoted: text[body_start..close].to_string(),
            follows: past_listed_terms(&text[after..]).to_string(),
            precedes: text[text.floor_char_boundary(open.saturating_sub(60))..open].to_string(),
        });
        from = after;
    }
    out
}

fn char_len(text: &str, at: usize) -> usize {
    text[at..].chars().next().map_or(1, char::len_utf8)
}

/// `text` past `, “…”`, `or “…”` and `and “…”`, the other terms a definition lists.
fn past_listed_terms(text: &str) -> &str {
    let mut rest = text;
    loop {
        let t = rest.trim_start_matches(|c: char| c == ',' || c.is_whitespace());
        let t = t
            .strip_prefix("or ")
            .or_else(|| t.strip_prefix("and "))
            .unwrap_or(t)
            .trim_start();
        if !t.starts_with(['“', '"']) {
            return rest;
        }
        let body = &t[char_len(t, 0)..];
        let Some(close) = body.find(['”', '"']) else {
            return rest;
        };
        rest = &body[close + char_len(body, close)..];
    }
}

/// The words after a quoted term say what it is ("means", "includes", "shall mean").
fn is_defining(follows: &str) -> bool {
    let w = words(&follows.chars().take(40).collect::<String>());
    let first: Vec<&str> = w.iter().take(2).map(String::as_str).collect();
    matches!(
        first.as_slice(),
        ["means", ..] | ["includes", ..] | ["shall", "mean"] | ["shall", "include"]
    )
}

/// The words before a quoted term give it as a name ("to be entitled", "referred to as the",
/// "known as").
fn is_naming(precedes: &str) -> bool {
    let w = words(precedes);
    let mut last: Vec<&str> = w.iter().rev().take(4).map(String::as_str).collect();
    if last.first() == Some(&"the") {
        last.remove(0);
    }
    matches!(
        last.as_slice(),
        ["entitled", ..] | ["as", "known", ..] | ["as", "to", "referred", ..] | ["called", ..]
    )
}

/// Lower-cased words; anything not a letter or digit separates them ("what's" is "what s").
fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// A plural's singular, enough to meet "Scheduled Castes" with "a Scheduled Caste".
fn singular(w: &str) -> String {
    let w = w.to_lowercase();
    if let Some(base) = w.strip_suffix("ies").filter(|b| b.len() >= 3) {
        return format!("{base}y");
    }
    if let Some(base) = w.strip_suffix("sses") {
        return format!("{base}ss");
    }
    if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") {
        return w[..w.len() - 1].to_string();
    }
    w
}

/// The provisions an edition defines each term in, with the most direct shape each uses.
#[derive(Debug, Default)]
pub struct DefinitionIndex(HashMap<Term, Vec<(String, Shape)>>);

/// More provisions than this defining one term ("population", defined per Article) say
/// nothing about which is meant.
const MAX_DEFINING: usize = 2;

impl DefinitionIndex {
    /// From `(ref, text)` in reading order.
    pub fn new<'a>(provisions: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        let mut index: HashMap<Term, Vec<(String, Shape)>> = HashMap::new();
        for (r, text) in provisions {
            for (term, shape) in defined_terms(text) {
                let refs = index.entry(term).or_default();
                match refs.iter_mut().find(|(x, _)| x == r) {
                    Some((_, s)) => *s = (*s).min(shape),
                    None => refs.push((r.to_string(), shape)),
                }
            }
        }
        DefinitionIndex(index)
    }

    /// The provisions that define `term`, the most direct first; none when more than
    /// [`MAX_DEFINING`] do. Both of two are pinned, in reading order within a shape: which
    /// of two alike is meant (363's "Indian State" or 366's, 199's Money Bill or 110's) the
    /// question says, not the index; ranking one over the other by stated scope was measured
    /// and lost on the held-out half (ADR 0007, stop 48).
    pub fn defining(&self, term: &Term) -> Vec<String> {
        let Some(refs) = self.0.get(term).filter(|r| r.len() <= MAX_DEFINING) else {
            return Vec::new();
        };
        let mut refs = refs.clone();
        refs.sort_by_key(|(_, shape)| *shape);
        refs.into_iter().map(|(r, _)| r).collect()
    }
}

/// One [`DefinitionIndex`] per edition, built on first use.
#[derive(Default)]
pub struct DefinitionCache(tokio::sync::Mutex<BTreeMap<i64, Arc<DefinitionIndex>>>);

impl DefinitionCache {
    pub async fn get(&self, pool: &PgPool, document_id: i64) -> AppResult<Arc<DefinitionIndex>> {
        let mut slots = self.0.lock().await;
        if let Some(index) = slots.get(&document_id) {
            return Ok(index.clone());
        }
        let rows: Vec<(String, String)> = sqlx::query_as(
            "SELECT ref_id, text FROM provisions WHERE document_id = $1 AND status = 'in_force' \
             ORDER BY ordinal",
        )
        .bind(document_id)
        .fetch_all(pool)
        .await?;
        let index = Arc::new(DefinitionIndex::new(
            rows.iter().map(|(r, t)| (r.as_str(), t.as_str())),
        ));
        // Editions are few (two ship); keep them all.
        slots.insert(document_id, index.clone());
        Ok(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn term(s: &str) -> Term {
        Term::new(&words(s)).unwrap()
    }

    #[test]
    fn reads_the_term_a_question_asks_about() {
        let cases = [
            ("What is a Money Bill?", Some("money bill")),
            (
                "what's a money bill under the constitution",
                Some("money bill"),
            ),
            ("What does 'State' mean in Part III?", Some("state")),
            (
                "What does the expression “population” mean?",
                Some("population"),
            ),
            (
                "What does the Constitution mean by 'Scheduled Castes'?",
                Some("scheduled caste"),
            ),
            ("Who are Scheduled Tribes?", Some("scheduled tribe")),
            ("define panchayat", Some("panchayat")),
            (
                "What is meant by agricultural income?",
                Some("agricultural income"),
            ),
            (
                "What is the Consolidated Fund of India?",
                Some("consolidated fund of india"),
            ),
            (
                "My teacher said otherwise. So what exactly is a Finance Bill?",
                Some("finance bill"),
            ),
            (
                "What is a Money Bill and who certifies it?",
                Some("money bill and who certifies it"),
            ),
            (
                "Who are the socially and educationally backward classes?",
                Some("socially and educationally backward class"),
            ),
            ("What is the right to equality?", Some("right to equality")),
            ("Can Parliament abolish a State?", None),
            ("Who is the Chief Justice of India?", None),
            ("Who is a Ruler under the Constitution?", Some("ruler")),
            ("धन विधेयक क्या है?", Some("money bill")),
            ("अनुसूचित जाति किसे कहते हैं", Some("scheduled caste")),
            ("panchayat ka matlab kya hai?", Some("panchayat")),
            ("शिक्षा का अधिकार किसे मिलता है?", None),
        ];
        for (q, want) in cases {
            assert_eq!(asked_term(q), want.map(term), "{q}");
        }
    }

    #[test]
    fn knows_the_text_s_shapes_of_a_definition() {
        let money = term("money bill");
        assert!(defines(
            "(1) For the purposes of this Chapter, a Bill shall be deemed to be a Money Bill if",
            &money
        ));
        // One thing made to count as another is not a definition.
        assert!(!defines(
            "the High Court for Sikkim shall, on and from the appointed day, be deemed to be the \
             High Court for the State of Sikkim",
            &term("high court")
        ));
        assert!(!defines(
            "An Ordinance promulgated under this article in pursuance of instructions from the \
             President shall be deemed to be an Act of the Legislature of the State",
            &term("act")
        ));
        assert!(!defines(
            "(4) There shall be endorsed on every Money Bill when it is transmitted to the Council",
            &money
        ));
        assert!(defines(
            "(d) “Panchayat” means an institution (by whatever name called) of self-government",
            &term("panchayats")
        ));
        assert!(defines(
            "In this Part, unless the context otherwise requires, “the State” includes the \
             Government and Parliament of India",
            &term("state")
        ));
        assert!(defines(
            "(2) In this article, “a transitional area”, “a smaller urban area” or “a larger \
             urban area” means such area as the Governor may specify",
            &term("smaller urban area")
        ));
        assert!(defines(
            "shall form one consolidated fund to be entitled “the Consolidated Fund of India”",
            &term("consolidated fund of india")
        ));
        assert!(defines(
            "matters enumerated in List I in the Seventh Schedule (in this Constitution referred \
             to as the “Union List”).",
            &term("union list")
        ));
        assert!(defines(
            "specify the castes … which shall for the purposes of this Constitution be deemed \
             to be Scheduled Castes in relation to that State",
            &term("scheduled caste")
        ));
        // Naming the term is not defining it.
        assert!(!defines(
            "(3) No moneys out of the Consolidated Fund of India shall be appropriated",
            &term("consolidated fund of india")
        ));
        assert!(!defines(
            "“Panchayat area” means the territorial area",
            &term("panchayat")
        ));
    }

    #[test]
    fn the_phrasing_file_parses_and_refuses_what_no_question_could_match() {
        let builtin = Phrasing::builtin();
        assert!(builtin
            .openings
            .iter()
            .any(|o| o.join(" ") == "what is meant by"));
        assert!(builtin.hindi_endings.iter().any(|e| e == "क्या है"));
        let file = |openings: &str, qualifiers: &str| {
            format!(
                "openings = [{openings}]\nqualifiers = [{qualifiers}]\nintroducers = []\nhindi_endings = []"
            )
        };
        assert!(Phrasing::parse(&file(r#""what is""#, r#""under""#)).is_ok());
        // Capitals and punctuation never occur in a question's words; a qualifier is a word.
        assert!(Phrasing::parse(&file(r#""What is""#, r#""under""#)).is_err());
        assert!(Phrasing::parse(&file(r#""what's""#, r#""under""#)).is_err());
        assert!(Phrasing::parse(&file(r#""what is""#, r#""as per""#)).is_err());
    }

    #[test]
    fn the_index_names_a_term_s_provisions_unless_too_many_define_it() {
        let index = DefinitionIndex::new([
            ("110", "(1) For the purposes of this Chapter, a Bill shall be deemed to be a Money Bill"),
            ("199", "(1) For the purposes of this Chapter, a Bill shall be deemed to be a Money Bill"),
            ("366", "(24) “Scheduled Castes” means such castes as are deemed under article 341"),
            ("341", "which shall for the purposes of this Constitution be deemed to be Scheduled Castes"),
            ("81", "the expression “population” means the population as ascertained"),
            ("82", "the expression “population” means the population as ascertained"),
            ("330", "the expression “population” means the population as ascertained"),
        ]);
        // 199 repeats 110's definition for a State's Legislature: both, in reading order.
        assert_eq!(index.defining(&term("money bills")), ["110", "199"]);
        // The direct definition first, then the provision that deems.
        assert_eq!(index.defining(&term("scheduled caste")), ["366", "341"]);
        assert!(index.defining(&term("population")).is_empty());
        assert!(index.defining(&term("governor")).is_empty());
    }
}
