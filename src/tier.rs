//! Tiers of government: which ones a question names, and which one a provision belongs to.
//! Pure; the word lists and the Parts are in `data/tiers.toml`.
//!
//! The Constitution says most things once per tier, in parallel Articles whose words differ in
//! little but the tier (the President's term and the Governor's, Parliament's Speaker and a
//! State Assembly's, removal of a Supreme Court judge and of a High Court judge). Dense and
//! lexical similarity barely see that difference; a question does name it. The glossary reads
//! it to add none of the text's words for a tier the question does not name ("Judge of a High
//! Court" for a question about a Supreme Court judge; `search::glossary`), and the answer where
//! retrieval's scores cannot tell relevance from likeness: whether a second provision deserves
//! its "also relevant" (`answer::quoting::quote_groups_text`); and the cross-lingual question bank to
//! leave out its questions about another tier (`search::bank::QuestionBank::closeness_of`).

use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;

/// A tier of government, as the Parts of the Constitution divide them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    Union,
    State,
    UnionTerritory,
    Panchayat,
    Municipality,
}

const ALL: [Tier; 5] = [
    Tier::Union,
    Tier::State,
    Tier::UnionTerritory,
    Tier::Panchayat,
    Tier::Municipality,
];

impl Tier {
    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A set of tiers (what a question names).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tiers(u8);

impl Tiers {
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn contains(self, t: Tier) -> bool {
        self.0 & t.bit() != 0
    }
    /// Some tier is in both sets.
    pub fn intersects(self, other: Tiers) -> bool {
        self.0 & other.0 != 0
    }
    fn insert(&mut self, t: Tier) {
        self.0 |= t.bit();
    }
}

impl From<Tier> for Tiers {
    fn from(t: Tier) -> Tiers {
        Tiers(t.bit())
    }
}

#[derive(Debug, Deserialize)]
struct PerTier<T> {
    union: T,
    state: T,
    union_territory: T,
    panchayat: T,
    municipality: T,
}

impl<T> PerTier<T> {
    fn get(&self, t: Tier) -> &T {
        match t {
            Tier::Union => &self.union,
            Tier::State => &self.state,
            Tier::UnionTerritory => &self.union_territory,
            Tier::Panchayat => &self.panchayat,
            Tier::Municipality => &self.municipality,
        }
    }
}

#[derive(Debug, Deserialize)]
struct TierData {
    parts: PerTier<Vec<String>>,
    words: PerTier<Vec<String>>,
}

struct Compiled {
    data: TierData,
    /// One whole-word, case-insensitive alternation per tier, in [`ALL`]'s order.
    words: Vec<Regex>,
}

static TIERS: LazyLock<Compiled> = LazyLock::new(|| {
    let data: TierData = toml::from_str(include_str!("../data/tiers.toml"))
        .expect("data/tiers.toml is valid (a unit test parses it)");
    let words = ALL
        .iter()
        .map(|t| {
            let alts: Vec<String> = data
                .words
                .get(*t)
                .iter()
                .map(|w| regex::escape(w))
                .collect();
            // Words are bounded by anything but a letter, digit, hyphen or apostrophe, so that
            // "president" does not match inside "vice-president"; a possessive is the word's
            // own ("a high court's jurisdiction").
            Regex::new(&format!(
                r"(?i)(?:^|[^\w'-])(?:{})(?:'s)?(?:$|[^\w'-])",
                alts.join("|")
            ))
            .expect("tier words make a valid regex")
        })
        .collect();
    Compiled { data, words }
});

/// The tiers a question names by the words it uses.
pub fn named_in(question: &str) -> Tiers {
    let q = question.replace(['\u{2019}', '\u{2018}'], "'");
    let mut out = Tiers::default();
    for (t, re) in ALL.iter().zip(&TIERS.words) {
        if re.is_match(&q) {
            out.insert(*t);
        }
    }
    out
}

/// The tier a provision in Part `part` belongs to, if its Part belongs to one.
pub fn of_part(part: &str) -> Option<Tier> {
    ALL.into_iter()
        .find(|t| TIERS.data.parts.get(*t).iter().any(|p| p == part))
}

/// A phrase that names only tiers the question does not (`phrase`) speaks of another
/// government than the question, when the question names one (`named`). Panchayats and
/// municipalities are the States' own creation (Parts IX and IXA are laws "the Legislature of
/// a State may" make), so the State and a local tier never exclude each other.
pub fn excludes(named: Tiers, phrase: Tiers) -> bool {
    let local = Tiers(Tier::Panchayat.bit() | Tier::Municipality.bit());
    let only_local = |t: Tiers| !t.is_empty() && t.0 & !local.0 == 0;
    let nested = (named.contains(Tier::State) && only_local(phrase))
        || (phrase.contains(Tier::State) && only_local(named));
    !named.is_empty() && !phrase.is_empty() && !phrase.intersects(named) && !nested
}

/// [`excludes`] for a provision of tier `provision` (none when its Part belongs to no tier).
pub fn excludes_provision(named: Tiers, provision: Option<Tier>) -> bool {
    provision.is_some_and(|t| excludes(named, t.into()))
}

/// The question names at least one tier and `provision` belongs to another. Flat, unlike
/// [`excludes`]: the "also relevant" check was measured with it (ADR 0007, stop 29), and a
/// panchayat's provision beside a State's lead stays out.
pub fn mismatch(named: Tiers, provision: Option<Tier>) -> bool {
    provision.is_some_and(|t| !named.is_empty() && !named.contains(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_file_parses_and_every_tier_has_words_and_a_part() {
        for t in ALL {
            assert!(!TIERS.data.words.get(t).is_empty(), "{t:?}");
            assert!(!TIERS.data.parts.get(t).is_empty(), "{t:?}");
        }
    }

    #[test]
    fn questions_name_tiers_by_offices_and_bodies() {
        let q = named_in("How can a judge of the Supreme Court be removed?");
        assert!(q.contains(Tier::Union) && !q.contains(Tier::State));
        let q = named_in("Who appoints the Governor and what is an MLA's salary?");
        assert!(q.contains(Tier::State) && !q.contains(Tier::Union));
        let q = named_in("Lok Sabha vs Gram Sabha");
        assert!(q.contains(Tier::Union) && q.contains(Tier::Panchayat));
        assert!(named_in("Can a state ban the sale of alcohol?").is_empty());
        assert!(named_in("What is the right to equality?").is_empty());
    }

    #[test]
    fn words_match_whole() {
        // "vice-president" is the union tier by its own entry, not by "president".
        assert!(named_in("Who elects the Vice-President?").contains(Tier::Union));
        // "but", "cut", "input" are not "ut"; "cmd" is not "cm".
        assert!(named_in("but cut the input cmd").is_empty());
        assert!(named_in("the President’s rule").contains(Tier::Union));
        assert!(named_in("a state high court's jurisdiction").contains(Tier::State));
    }

    #[test]
    fn a_phrase_of_another_government_is_excluded_but_local_bodies_nest_in_the_state() {
        let sc = named_in("a judge of the Supreme Court");
        assert!(excludes(sc, named_in("Judge of a High Court")));
        assert!(!excludes(sc, named_in("Judge of the Supreme Court")));
        assert!(!excludes(sc, named_in("proved misbehaviour")));
        assert!(!excludes(
            Tiers::default(),
            named_in("Judge of a High Court")
        ));
        let state = named_in("the state government");
        assert!(!excludes(state, named_in("Panchayats")));
        assert!(!excludes(named_in("a gram panchayat"), state));
        assert!(excludes(
            named_in("a gram panchayat"),
            named_in("Municipalities")
        ));
        assert!(excludes(sc, named_in("Panchayats")));
    }

    #[test]
    fn a_provision_of_another_government_is_excluded() {
        let rajya_sabha = named_in("the maximum strength of the Rajya Sabha");
        assert!(excludes_provision(rajya_sabha, Some(Tier::Panchayat)));
        assert!(!excludes_provision(rajya_sabha, Some(Tier::Union)));
        assert!(!excludes_provision(rajya_sabha, None));
        let state = named_in("Can the state government remove the State Election Commissioner?");
        assert!(!excludes_provision(state, Some(Tier::Panchayat)));
    }

    #[test]
    fn parts_give_a_provision_its_tier() {
        assert_eq!(of_part("V"), Some(Tier::Union));
        assert_eq!(of_part("VI"), Some(Tier::State));
        assert_eq!(of_part("IXA"), Some(Tier::Municipality));
        assert_eq!(of_part("XI"), None);
        assert_eq!(of_part(""), None);
    }

    #[test]
    fn a_mismatch_needs_a_named_tier_and_another_for_the_provision() {
        let union = named_in("the Supreme Court");
        assert!(mismatch(union, Some(Tier::State)));
        assert!(!mismatch(union, Some(Tier::Union)));
        assert!(!mismatch(union, None));
        assert!(!mismatch(Tiers::default(), Some(Tier::State)));
    }
}
