//! A glossary from the words citizens use to the words the Constitution uses.
//!
//! People ask about the "Lok Sabha", "the Centre", "President's rule", "anti-defection law" or
//! an "MLA"; the text says "House of the People", "the Union", "failure of constitutional
//! machinery", "disqualification on ground of defection" and "member of the Legislative
//! Assembly". Neither retrieval leg bridges that gap reliably: full-text search only matches
//! words that are there, and a small embedding model does not know Indian political usage. The
//! glossary ([`Glossary::expand`]) finds the everyday terms in a question and returns the text's
//! own phrases, which are added to the lexical query and to the query text that is embedded
//! ([`Expansion::expanded_query`]); `refs` name the provisions a term most directly points at.
//!
//! The entries live in `data/glossary.toml` (bundled at compile time; see its header for the
//! format) and are hand-written. Every expansion phrase is printed in the Constitution: a test
//! checks each against the parse of the official PDF. Grow the file from evaluation misses:
//! when a question misses its provision because the question and the text use different words,
//! add the question's words there, mapped to the text's.
//!
//! Pure: no I/O besides the `include_str!` of the data file.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use serde::Deserialize;

use nyaya_ingest::RefId;

use crate::tier;

mod passive;
use passive::Passive;

/// The bundled glossary file.
const BUILTIN_TOML: &str = include_str!("../../data/glossary.toml");

/// One glossary entry: everyday `terms` and the text's own words to add for them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Everyday spellings, matched case-insensitively on word boundaries.
    pub terms: Vec<String>,
    /// Phrases of the Constitution's text to add to the query.
    pub expand: Vec<String>,
    /// Canonical ids of the provisions the terms most directly name.
    pub refs: Vec<String>,
    pub note: Option<String>,
}

/// The parsed glossary with its terms compiled for matching.
#[derive(Debug, Clone)]
pub struct Glossary {
    entries: Vec<Entry>,
    /// `entries[i].expand`, compiled, each with the tiers of government it names (read once
    /// here, not per question).
    expansions: Vec<Vec<(Pattern, tier::Tiers)>>,
    /// Every term of every entry, compiled.
    terms: Vec<Term>,
    /// First word of a term → indices into `terms`.
    by_first_word: HashMap<String, Vec<usize>>,
    /// The passive readings of verb-led terms ("state government … dismissed") and their
    /// entries.
    passives: Vec<(usize, Passive)>,
    /// First word of a passive's object → indices into `passives`.
    passive_by_first_word: HashMap<String, Vec<usize>>,
}

/// What the glossary found in one question (a search response reports it as `expansion`).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct Expansion {
    /// The terms that matched, as spelt in the query, in the order they occur.
    pub matched: Vec<String>,
    /// Phrases of the text to add: deduplicated, none already in the query, none contained in
    /// another added phrase.
    pub added: Vec<String>,
    /// Provision ids of the matched entries, deduplicated, in order of first mention.
    pub refs: Vec<String>,
    /// The question names its terms and asks nothing else about them ("What is the Lok
    /// Sabha?", "Lok Sabha vs Rajya Sabha", "Concurrent List"): search pins `refs` as it pins
    /// "Art. 21-A". When it asks more ("What is the term of the Lok Sabha?"), the refs are
    /// only a fused leg, since the institution's own Article is seldom the one that answers.
    #[serde(skip)]
    pub names_only: bool,
}

/// Words that ask about a name itself: a question made of glossary terms and these words
/// names its terms and asks nothing else.
const NAMING_WORDS: &[&str] = &[
    "what",
    "whats",
    "who",
    "is",
    "are",
    "the",
    "a",
    "an",
    "of",
    "about",
    "tell",
    "me",
    "explain",
    "describe",
    "define",
    "definition",
    "meaning",
    "mean",
    "means",
    "vs",
    "v",
    "s",
    "versus",
    "difference",
    "differences",
    "between",
    "and",
    "compare",
    "comparison",
    "with",
    "to",
    "in",
    "india",
    "indian",
    "constitution",
    "please",
];

/// Why a glossary file was refused.
#[derive(Debug, thiserror::Error)]
pub enum GlossaryError {
    /// Not TOML, or not the glossary's shape (an unknown key, a string where a list goes, …).
    #[error("the glossary is not valid: {0}")]
    Toml(#[from] toml::de::Error),
    /// A well-formed entry whose content is wrong.
    #[error("glossary entry {index} ({label}): {problem}")]
    Entry {
        /// Index of the `[[entry]]`, counting from 0 in file order.
        index: usize,
        /// The entry's first term, to find it in the file.
        label: String,
        problem: EntryProblem,
    },
}

/// What is wrong with one entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EntryProblem {
    #[error("`terms` is empty")]
    NoTerms,
    #[error("`expand` is empty")]
    NoExpansions,
    #[error("term {0:?} has no letters or digits")]
    BlankTerm(String),
    #[error("expansion {0:?} has no letters or digits")]
    BlankExpansion(String),
    #[error("term {term:?} is already a term of entry {first}")]
    DuplicateTerm { term: String, first: usize },
    #[error("ref {ref_id:?} is not a canonical provision id ({reason})")]
    BadRef { ref_id: String, reason: String },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    entry: Vec<RawEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    #[serde(default)]
    terms: Vec<String>,
    #[serde(default)]
    expand: Vec<String>,
    #[serde(default)]
    refs: Vec<String>,
    note: Option<String>,
}

impl Glossary {
    /// The glossary bundled from `data/glossary.toml`, parsed on first use.
    ///
    /// # Panics
    /// If the bundled file is invalid, which a unit test rules out.
    pub fn builtin() -> &'static Glossary {
        static BUILTIN: OnceLock<Glossary> = OnceLock::new();
        BUILTIN.get_or_init(|| {
            Glossary::parse(BUILTIN_TOML)
                .unwrap_or_else(|e| panic!("data/glossary.toml is invalid: {e}"))
        })
    }

    /// Parses and checks a glossary file: every entry has terms and expansions, no term (in
    /// its matching form) belongs to two entries, refs are canonical provision ids.
    pub fn parse(toml_text: &str) -> Result<Glossary, GlossaryError> {
        let raw: RawFile = toml::from_str(toml_text)?;
        let mut entries = Vec::with_capacity(raw.entry.len());
        let mut expansions = Vec::with_capacity(raw.entry.len());
        let mut terms = Vec::new();
        let mut by_first_word: HashMap<String, Vec<usize>> = HashMap::new();
        let mut seen: HashMap<String, usize> = HashMap::new();
        let mut passives = Vec::new();
        let mut passive_by_first_word: HashMap<String, Vec<usize>> = HashMap::new();
        for (index, e) in raw.entry.into_iter().enumerate() {
            let label = e
                .terms
                .first()
                .map(|t| format!("{t:?}"))
                .unwrap_or_else(|| "no terms".to_string());
            let fail = |problem| GlossaryError::Entry {
                index,
                label: label.clone(),
                problem,
            };
            if e.terms.is_empty() {
                return Err(fail(EntryProblem::NoTerms));
            }
            if e.expand.is_empty() {
                return Err(fail(EntryProblem::NoExpansions));
            }
            let mut compiled = Vec::with_capacity(e.expand.len());
            for phrase in &e.expand {
                match Pattern::new(phrase) {
                    Some(p) => compiled.push((p, tier::named_in(phrase))),
                    None => return Err(fail(EntryProblem::BlankExpansion(phrase.clone()))),
                }
            }
            for r in &e.refs {
                if let Err(err) = r.parse::<RefId>() {
                    return Err(fail(EntryProblem::BadRef {
                        ref_id: r.clone(),
                        reason: err.to_string(),
                    }));
                }
            }
            for term in &e.terms {
                let Some(pattern) = Pattern::new(term) else {
                    return Err(fail(EntryProblem::BlankTerm(term.clone())));
                };
                if let Some(&first) = seen.get(&pattern.key) {
                    return Err(fail(EntryProblem::DuplicateTerm {
                        term: term.clone(),
                        first,
                    }));
                }
                seen.insert(pattern.key.clone(), index);
                by_first_word
                    .entry(pattern.words[0].clone())
                    .or_default()
                    .push(terms.len());
                if let Some(p) = Passive::of(&pattern) {
                    passive_by_first_word
                        .entry(p.first_word().to_string())
                        .or_default()
                        .push(passives.len());
                    passives.push((index, p));
                }
                terms.push(Term {
                    entry: index,
                    pattern,
                });
            }
            expansions.push(compiled);
            entries.push(Entry {
                terms: e.terms.iter().map(|t| t.trim().to_string()).collect(),
                expand: e.expand.iter().map(|t| t.trim().to_string()).collect(),
                refs: e.refs,
                note: e.note,
            });
        }
        Ok(Glossary {
            entries,
            expansions,
            terms,
            by_first_word,
            passives,
            passive_by_first_word,
        })
    }

    /// The entries, in file order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Finds the glossary's terms in `query` and collects what they add.
    ///
    /// Terms match case-insensitively on whole words (a trailing plural "s"/"es" is allowed);
    /// where matches overlap the longest wins ("dismiss a state government" over "state
    /// government"), then an exact match over a plural one, then the earlier. A verb-led term
    /// also matches in the passive voice ("a State government be dismissed"; [`passive`]).
    pub fn expand(&self, query: &str) -> Expansion {
        let toks = tokenize(query);
        let (chosen, taken) = self.choose(query, &toks);

        let mut out = Expansion {
            names_only: !chosen.is_empty()
                && toks
                    .iter()
                    .zip(&taken)
                    .all(|(t, taken)| *taken || NAMING_WORDS.contains(&t.lower.as_str())),
            ..Expansion::default()
        };
        let mut matched_keys = HashSet::new();
        let mut entries_done = HashSet::new();
        // (pattern, its tiers, phrase) of each candidate addition, deduplicated by the
        // pattern's key.
        let mut adds: Vec<(&Pattern, tier::Tiers, &str)> = Vec::new();
        for c in &chosen {
            let text = &query[toks[c.start].start..toks[c.end - 1].end];
            if matched_keys.insert(text.to_lowercase()) {
                out.matched.push(text.to_string());
            }
            if !entries_done.insert(c.entry) {
                continue;
            }
            let entry = &self.entries[c.entry];
            for ((p, tiers), phrase) in self.expansions[c.entry].iter().zip(&entry.expand) {
                if p.occurs_in(&toks) || adds.iter().any(|(q, _, _)| q.key == p.key) {
                    continue;
                }
                adds.push((p, *tiers, phrase));
            }
            for r in &entry.refs {
                if !out.refs.contains(r) {
                    out.refs.push(r.clone());
                }
            }
        }
        // A phrase inside another added phrase adds nothing ("Legislative Council" beside
        // "members of the Legislative Council").
        let phrase_toks: Vec<Vec<Tok>> = adds.iter().map(|(_, _, s)| tokenize(s)).collect();
        let tiers_named = if adds.is_empty() {
            tier::Tiers::default()
        } else {
            tier::named_in(query)
        };
        for (i, (p, phrase_tiers, phrase)) in adds.iter().enumerate() {
            let inside_another = phrase_toks
                .iter()
                .enumerate()
                .any(|(j, t)| j != i && t.len() > p.words.len() && p.occurs_in(t));
            // An entry that covers every tier ("judge" → "Judge of the Supreme Court", "Judge
            // of a High Court") adds only the tiers the question names, if it names one.
            let other_tier = tier::excludes(tiers_named, *phrase_tiers);
            if !inside_another && !other_tier {
                out.added.push((*phrase).to_string());
            }
        }
        out
    }

    /// The byte spans of the terms in `query`, as [`Glossary::expand`] chooses them where
    /// matches overlap.
    pub fn term_spans(&self, query: &str) -> Vec<std::ops::Range<usize>> {
        let toks = tokenize(query);
        self.choose(query, &toks)
            .0
            .iter()
            .map(|c| toks[c.start].start..toks[c.end - 1].end)
            .collect()
    }

    /// Every term's matches in `toks`, overlaps resolved (longest, then exact, then earliest),
    /// in order; and which tokens they took.
    fn choose(&self, query: &str, toks: &[Tok]) -> (Vec<Candidate>, Vec<bool>) {
        let mut candidates: Vec<Candidate> = Vec::new();
        for start in 0..toks.len() {
            for key in stems(&toks[start].lower) {
                for &id in self.by_first_word.get(&key).into_iter().flatten() {
                    let term = &self.terms[id];
                    if let Some((end, exact)) = term.pattern.match_at(toks, start) {
                        candidates.push(Candidate {
                            start,
                            end,
                            chars: query[toks[start].start..toks[end - 1].end].chars().count(),
                            exact,
                            entry: term.entry,
                        });
                    }
                }
                for &id in self.passive_by_first_word.get(&key).into_iter().flatten() {
                    let (entry, passive) = &self.passives[id];
                    if let Some(end) = passive.match_at(toks, start) {
                        candidates.push(Candidate {
                            start,
                            end,
                            chars: query[toks[start].start..toks[end - 1].end].chars().count(),
                            exact: true,
                            entry: *entry,
                        });
                    }
                }
            }
        }
        candidates.sort_by(|a, b| {
            b.chars
                .cmp(&a.chars)
                .then(b.exact.cmp(&a.exact))
                .then(a.start.cmp(&b.start))
                .then(a.entry.cmp(&b.entry))
        });
        let mut taken = vec![false; toks.len()];
        let mut chosen: Vec<Candidate> = Vec::new();
        for c in candidates {
            if taken[c.start..c.end].iter().any(|&t| t) {
                continue;
            }
            taken[c.start..c.end].fill(true);
            chosen.push(c);
        }
        chosen.sort_by_key(|c| c.start);
        (chosen, taken)
    }
}

impl Expansion {
    /// True when the glossary has nothing to add: no phrase and no ref (a term may still have
    /// matched whose expansions the query already contains).
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.refs.is_empty()
    }

    /// Query text + added phrases, for the lexical leg and the embedded query text: e.g.
    /// "Can the centre dismiss a state government? (Union; Government of India; failure of
    /// constitutional machinery; Government of the State)". The query alone when nothing is
    /// added.
    pub fn expanded_query(&self, query: &str) -> String {
        if self.added.is_empty() {
            return query.to_string();
        }
        format!("{} ({})", query.trim_end(), self.added.join("; "))
    }
}

/// One compiled term and the entry it belongs to.
#[derive(Debug, Clone)]
struct Term {
    entry: usize,
    pattern: Pattern,
}

/// A match of one term, in tokens `start..end`.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    start: usize,
    end: usize,
    chars: usize,
    exact: bool,
    entry: usize,
}

/// A phrase as lower-cased words and the normalised punctuation between them.
#[derive(Debug, Clone)]
struct Pattern {
    words: Vec<String>,
    /// `gaps[i]` separates `words[i]` and `words[i + 1]`.
    gaps: Vec<String>,
    /// The matching form, for duplicate checks: "lok sabha", "j&k", "self incrimination".
    key: String,
}

impl Pattern {
    /// `None` when the phrase has no letters or digits.
    fn new(phrase: &str) -> Option<Pattern> {
        let toks = tokenize(phrase);
        if toks.is_empty() {
            return None;
        }
        let words: Vec<String> = toks.iter().map(|t| t.lower.clone()).collect();
        let gaps: Vec<String> = toks[1..].iter().map(|t| t.gap.clone()).collect();
        let mut key = words[0].clone();
        for (w, g) in words[1..].iter().zip(&gaps) {
            key.push_str(if g.is_empty() { " " } else { g });
            key.push_str(w);
        }
        Some(Pattern { words, gaps, key })
    }

    /// Matches at token `start`: (end token, exact) where `exact` is false when the last word
    /// matched only with a plural ending.
    fn match_at(&self, toks: &[Tok], start: usize) -> Option<(usize, bool)> {
        let n = self.words.len();
        if start + n > toks.len() {
            return None;
        }
        let mut exact = true;
        for (k, word) in self.words.iter().enumerate() {
            let t = &toks[start + k];
            if k > 0 && t.gap != self.gaps[k - 1] {
                return None;
            }
            if t.lower == *word {
                continue;
            }
            if k + 1 < n || !is_plural_of(&t.lower, word) {
                return None;
            }
            exact = false;
        }
        Some((start + n, exact))
    }

    fn occurs_in(&self, toks: &[Tok]) -> bool {
        (0..toks.len()).any(|i| self.match_at(toks, i).is_some())
    }
}

/// A word of the query: a maximal run of letters and digits.
#[derive(Debug, Clone)]
struct Tok {
    lower: String,
    /// Byte span in the original text.
    start: usize,
    end: usize,
    /// The punctuation before this word, without spaces or hyphens, curly apostrophes made
    /// straight: "" for "lok sabha" and "Lok-Sabha", "&" for "J & K", "'" for "President’s".
    gap: String,
}

fn tokenize(s: &str) -> Vec<Tok> {
    let mut out: Vec<Tok> = Vec::new();
    let mut gap = String::new();
    let mut word: Option<(usize, String)> = None;
    for (i, c) in s.char_indices() {
        if c.is_alphanumeric() {
            let (_, lower) = word.get_or_insert_with(|| (i, String::new()));
            lower.extend(c.to_lowercase());
            continue;
        }
        if let Some((start, lower)) = word.take() {
            out.push(Tok {
                lower,
                start,
                end: i,
                gap: std::mem::take(&mut gap),
            });
        }
        match c {
            '\u{2018}' | '\u{2019}' | '\u{02BC}' | '`' => gap.push('\''),
            '-' | '\u{2010}' | '\u{2011}' | '\u{2013}' => {}
            c if c.is_whitespace() => {}
            c => gap.push(c),
        }
    }
    if let Some((start, lower)) = word {
        out.push(Tok {
            lower,
            start,
            end: s.len(),
            gap,
        });
    }
    out
}

/// Whether `token` is `word` with a regular English plural ending: "mps", "taxes" (-es only
/// after s, x, z, ch, sh, so "writes" is not "writ"), "minorities" (y → ies after a consonant).
fn is_plural_of(token: &str, word: &str) -> bool {
    let sibilant = ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|e| word.ends_with(e));
    match token.strip_prefix(word) {
        Some("s") => !sibilant,
        Some("es") => sibilant,
        _ => word.strip_suffix('y').is_some_and(|stem| {
            !stem.is_empty()
                && !stem.ends_with(['a', 'e', 'i', 'o', 'u'])
                && token.strip_prefix(stem) == Some("ies")
        }),
    }
}

/// The forms under which a query word can begin a term: itself, and the words it may be a
/// plural of (so that "MPs" finds "mp"); [`is_plural_of`] then decides.
fn stems(token: &str) -> Vec<String> {
    let mut out = vec![token.to_string()];
    for (ending, replacement) in [("s", ""), ("es", ""), ("ies", "y")] {
        if let Some(stem) = token.strip_suffix(ending).filter(|s| !s.is_empty()) {
            out.push(format!("{stem}{replacement}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g() -> &'static Glossary {
        Glossary::builtin()
    }

    #[test]
    fn the_bundled_file_parses() {
        let g = Glossary::parse(BUILTIN_TOML).expect("data/glossary.toml is valid");
        let n = g.entries().len();
        assert!(n >= 80, "{n} entries");
        assert!(g.entries().iter().all(|e| !e.terms.is_empty()));
    }

    #[test]
    fn lok_sabha_is_the_house_of_the_people() {
        let e = g().expand("how long dose the lok sabha last?");
        assert!(e.matched.iter().any(|m| m == "lok sabha"), "{e:?}");
        assert!(
            e.added.contains(&"House of the People".to_string()),
            "{e:?}"
        );
        // Case, hyphens and possessives.
        for q in ["LOK SABHA", "the Lok-Sabha", "the Lok Sabha's term"] {
            let e = g().expand(q);
            assert!(
                e.added.iter().any(|a| a == "House of the People"),
                "{q}: {e:?}"
            );
        }
    }

    #[test]
    fn a_question_that_only_names_its_terms_is_names_only() {
        let g = Glossary::builtin();
        for q in [
            "Lok Sabha vs Rajya Sabha",
            "What is the Lok Sabha?",
            "difference between lok sabha and rajya sabha",
            "Election Commission",
        ] {
            let e = g.expand(q);
            assert!(e.names_only, "{q}: {e:?}");
            assert!(!e.refs.is_empty(), "{q}");
        }
        assert_eq!(g.expand("Lok Sabha vs Rajya Sabha").refs, ["81", "80"]);
        for q in [
            "What is the term of the Lok Sabha?",
            "Who appoints the Election Commission?",
            "Can the Lok Sabha be dissolved early?",
        ] {
            assert!(!g.expand(q).names_only, "{q}");
        }
    }

    #[test]
    fn the_centre_dismissing_a_state_government() {
        let q = "Can the centre dismiss a state government?";
        let e = g().expand(q);
        assert_eq!(e.matched, ["centre", "dismiss a state government"]);
        for want in ["Union", "failure of constitutional machinery"] {
            assert!(e.added.iter().any(|a| a == want), "{want}: {e:?}");
        }
        assert!(e.refs.contains(&"356".to_string()));
    }

    #[test]
    fn terms_match_whole_words_only() {
        // "mp" inside "example", "sc" inside "school", "pm" inside "pmla".
        for q in [
            "for example",
            "a school in Kerala",
            "the PMLA case",
            "campus",
        ] {
            let e = g().expand(q);
            assert!(
                !e.matched.iter().any(|m| {
                    let m = m.to_lowercase();
                    m == "mp" || m == "sc" || m == "pm"
                }),
                "{q}: {e:?}"
            );
        }
        assert!(g().expand("for example").added.is_empty());
        let e = g().expand("Can an MP be sued?");
        assert!(e.added.iter().any(|a| a == "member of Parliament"), "{e:?}");
        let e = g().expand("salaries of MPs and MLAs");
        assert_eq!(e.matched, ["MPs", "MLAs"]);
    }

    #[test]
    fn regular_plurals_match_but_other_endings_do_not() {
        assert!(is_plural_of("mps", "mp"));
        assert!(is_plural_of("taxes", "tax"));
        assert!(is_plural_of("minorities", "minority"));
        assert!(!is_plural_of("writes", "writ"));
        assert!(!is_plural_of("taxs", "tax"));
        assert!(!is_plural_of("days", "dy"));
        assert!(!is_plural_of("mpeg", "mp"));
        let e = g().expand("He writes to the tribunal");
        assert_eq!(e.matched, ["tribunal"]);
        let e = g().expand("What are municipalities responsible for?");
        assert_eq!(e.matched, ["municipalities"]);
        assert!(e.added.iter().any(|a| a == "Twelfth Schedule"), "{e:?}");
    }

    #[test]
    fn punctuation_in_terms() {
        for q in [
            "Is J&K a state now?",
            "status of J & K",
            "J&K's special status",
        ] {
            let e = g().expand(q);
            assert!(
                e.added.iter().any(|a| a == "Jammu and Kashmir"),
                "{q}: {e:?}"
            );
        }
        let e = g().expand("Can the President’s rule last forever?");
        assert_eq!(e.matched, ["President’s rule"]);
        let e = g().expand("What are SC/ST rights? And SC-ST quotas?");
        assert_eq!(e.matched[0], "SC/ST");
        assert!(e.added.iter().any(|a| a == "Scheduled Tribes"), "{e:?}");
        assert!(!e.added.iter().any(|a| a == "Supreme Court"), "{e:?}");
        // "Art." and a ref do not disturb the rest.
        let e = g().expand("Art. 356 - can the centre use it?");
        assert_eq!(e.matched, ["centre"]);
    }

    #[test]
    fn the_longest_of_overlapping_terms_wins() {
        // "state government" alone is another entry, with other expansions.
        let alone = g().expand("the state government");
        assert_eq!(alone.added, ["Government of the State"]);
        let e = g().expand("Can the Governor dismiss the state government?");
        assert_eq!(e.matched, ["dismiss the state government"]);
        // "deputy speaker" over "speaker"; "supreme court judge" over "judge"; a plural.
        assert_eq!(g().expand("the deputy speaker").matched, ["deputy speaker"]);
        let e = g().expand("retirement age of supreme court judges");
        assert_eq!(e.matched, ["retirement age", "supreme court judges"]);
        assert!(e.added.iter().any(|a| a == "Judge of the Supreme Court"));
        assert!(
            !e.added.iter().any(|a| a == "Judge of a High Court"),
            "{e:?}"
        );
        // An exact term over a plural of a shorter one: "SCs" is Scheduled Castes only.
        let e = g().expand("jobs for SCs");
        assert_eq!(e.added, ["Scheduled Castes"]);
    }

    #[test]
    fn nothing_is_added_twice_or_already_there() {
        let e = g().expand("Lok Sabha, lok sabha and the lower house of the House of the People");
        assert!(e.added.is_empty(), "{e:?}");
        assert_eq!(e.matched, ["Lok Sabha", "lower house"]);
        let e = g().expand("SC/ST and SCs and dalits in the Centre and the central government");
        let mut seen = HashSet::new();
        for a in &e.added {
            assert!(seen.insert(a.to_lowercase()), "{a} twice: {e:?}");
        }
        let mut refs = HashSet::new();
        assert!(e.refs.iter().all(|r| refs.insert(r)), "{e:?}");
        // A phrase inside another added phrase is left out.
        let e = g().expand("Who elects an MLC?");
        assert_eq!(e.added, ["members of the Legislative Council"]);
    }

    #[test]
    fn expanded_query_format() {
        let q = "Can the centre dismiss a state government? ";
        let e = g().expand(q);
        assert_eq!(
            e.expanded_query(q),
            format!("{} ({})", q.trim_end(), e.added.join("; "))
        );
        assert!(e
            .expanded_query(q)
            .starts_with("Can the centre dismiss a state government? (Union; "));
        let none = g().expand("What does Article 21 say?");
        assert!(none.is_empty(), "{none:?}");
        assert_eq!(
            none.expanded_query("What does Article 21 say?"),
            "What does Article 21 say?"
        );
    }

    fn problem(toml_text: &str) -> (usize, String, EntryProblem) {
        match Glossary::parse(toml_text) {
            Err(GlossaryError::Entry {
                index,
                label,
                problem,
            }) => (index, label, problem),
            other => panic!("expected an entry error, got {other:?}"),
        }
    }

    #[test]
    fn a_bad_file_gives_a_typed_error_naming_the_entry() {
        let ok = "[[entry]]\nterms = [\"lok sabha\"]\nexpand = [\"House of the People\"]\n";
        assert!(Glossary::parse(ok).is_ok());

        let (i, label, p) = problem(&format!("{ok}[[entry]]\nterms = []\nexpand = [\"x\"]\n"));
        assert_eq!(
            (i, label.as_str(), p),
            (1, "no terms", EntryProblem::NoTerms)
        );

        let (i, label, p) = problem(&format!("{ok}[[entry]]\nterms = [\"centre\"]\n"));
        assert_eq!(
            (i, label.as_str(), p),
            (1, "\"centre\"", EntryProblem::NoExpansions)
        );

        let (i, _, p) = problem(&format!(
            "{ok}[[entry]]\nterms = [\"Lok-Sabha\"]\nexpand = [\"Union\"]\n"
        ));
        assert_eq!(
            (i, p),
            (
                1,
                EntryProblem::DuplicateTerm {
                    term: "Lok-Sabha".into(),
                    first: 0
                }
            )
        );

        let (i, _, p) =
            problem("[[entry]]\nterms = [\"x\"]\nexpand = [\"y\"]\nrefs = [\"PART-III\"]\n");
        assert_eq!(i, 0);
        assert!(matches!(p, EntryProblem::BadRef { ref_id, .. } if ref_id == "PART-III"));

        let (_, _, p) = problem("[[entry]]\nterms = [\" & \"]\nexpand = [\"y\"]\n");
        assert_eq!(p, EntryProblem::BlankTerm(" & ".into()));

        let err = Glossary::parse(&format!("{ok}[[entry]]\nterms = []\nexpand = [\"x\"]\n"))
            .unwrap_err()
            .to_string();
        assert_eq!(err, "glossary entry 1 (no terms): `terms` is empty");

        // Not the glossary's shape: a misspelt key, a string for a list, not TOML.
        for bad in [
            "[[entry]]\nterms = [\"a\"]\nexpands = [\"b\"]\n",
            "[[entry]]\nterms = \"a\"\nexpand = [\"b\"]\n",
            "[[entry]\n",
        ] {
            assert!(
                matches!(Glossary::parse(bad), Err(GlossaryError::Toml(_))),
                "{bad}"
            );
        }
    }

    fn normalise(s: &str) -> String {
        s.replace(['\u{2018}', '\u{2019}'], "'")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    }

    /// `needle` in `hay` with no letter or digit either side.
    fn contains_phrase(hay: &str, needle: &str) -> bool {
        hay.match_indices(needle).any(|(i, _)| {
            let before = hay[..i].chars().next_back();
            let after = hay[i + needle.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
    }

    /// Every expansion is the Constitution's own words: printed, verbatim (case and whitespace
    /// aside), in the heading or text of some provision of the official 2024 PDF, the strings
    /// the lexical leg indexes; every ref is a provision of that parse; and the Hindi
    /// glossary's English is an English glossary term or printed in the text too.
    ///
    /// Needs PDFium: `NYAYA_PDFIUM_LIB`, or `.cache/lib/libpdfium.so` (`make setup`).
    #[test]
    fn every_expansion_and_ref_is_in_the_constitution() {
        let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let lib = std::env::var_os("NYAYA_PDFIUM_LIB")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| repo.join(".cache/lib/libpdfium.so"));
        let bytes = std::fs::read(repo.join("corpus/constitution-of-india-2024-05-01.pdf"))
            .expect("the corpus PDF");
        let doc = nyaya_ingest::parse_pdf(&bytes, &lib)
            .expect("the official PDF parses (set NYAYA_PDFIUM_LIB or run `make setup`)");
        let texts: Vec<String> = doc
            .provisions
            .iter()
            .map(|p| normalise(&format!("{}\n{}", p.heading_line(), p.text)))
            .collect();
        let ids: HashSet<&str> = doc.provisions.iter().map(|p| p.id.as_str()).collect();

        let mut missing = Vec::new();
        let mut phrases = 0;
        for (i, e) in g().entries().iter().enumerate() {
            for phrase in &e.expand {
                phrases += 1;
                let p = normalise(phrase);
                if !texts.iter().any(|t| contains_phrase(t, &p)) {
                    missing.push(format!(
                        "entry {i} ({:?}): expansion {phrase:?}",
                        e.terms[0]
                    ));
                }
            }
            for r in &e.refs {
                if !ids.contains(r.as_str()) {
                    missing.push(format!(
                        "entry {i} ({:?}): ref {r} is not in the parse",
                        e.terms[0]
                    ));
                }
            }
        }
        // The Hindi glossary's English (`data/glossary_hi.toml`) is an English glossary term or
        // the text's own words.
        let terms: HashSet<String> = g()
            .entries()
            .iter()
            .flat_map(|e| e.terms.iter().map(|t| normalise(t)))
            .collect();
        for e in crate::search::gloss::HindiGlossary::builtin().entries() {
            phrases += 1;
            let p = normalise(&e.english);
            if !terms.contains(&p) && !texts.iter().any(|t| contains_phrase(t, &p)) {
                missing.push(format!(
                    "glossary_hi.toml ({:?}): english {:?} is neither a glossary term nor in the text",
                    e.terms[0], e.english
                ));
            }
        }
        println!("{phrases} expansion phrases checked against the text");
        assert!(missing.is_empty(), "\n{}", missing.join("\n"));
    }
}
