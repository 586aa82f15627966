//! Whether the passages an answer would show share a word with the question.
//!
//! Retrieval always finds *something*: the dense leg's nearest chunk to "How do I make rajma
//! chawal for six people?" is some chunk, and a threshold on its cosine cannot tell every such
//! question from a terse real one. A quote that shares no content word with the question, nor
//! with what the glossaries read in it, nor does its provision's heading, is no evidence that
//! the text answers it; showing it as the answer ("Fourth Schedule, entry 13: Maharashtra …
//! 19") is the "citation the text does not support" the product promises never to show. So
//! the answer step refuses instead (ADR 0005, stop 39). Since stop 49 the passage read is the
//! span each provision competed with, not its quote, so the rules that choose which clause to
//! quote cannot decide a refusal; since stop 58 only the leads (one per part) count, not an
//! "also relevant" provision below them ([`leads_share_a_word`]).
//!
//! Words are compared by their first four letters ("working" meets "work", "appointed" meets
//! "appoints"), lower-cased, with the function words of `data/support.toml` left out. Only
//! letters count: a number alone ("at 30") is not a subject. Pure; the caller decides which
//! questions it applies to (not a question that names a provision: that is a lookup).
//!
//! Why not [`super::extract::terms`], the quote step's words: it also drops "constitution",
//! "india" and "say" (`router::TOPICLESS`), which for this check are real evidence. Read
//! without them, two answered golden dev questions and one written one had nothing left to
//! share and would have been refused (ADR 0005, stop 39).

use std::collections::HashSet;
use std::sync::LazyLock;

use serde::Deserialize;

#[derive(Deserialize)]
struct Lists {
    function_words: Vec<String>,
}

static FUNCTION_WORDS: LazyLock<HashSet<String>> = LazyLock::new(|| {
    let lists: Lists = toml::from_str(include_str!("../../data/support.toml"))
        .expect("data/support.toml is valid (a unit test parses it)");
    lists.function_words.into_iter().collect()
});

/// How many leading letters two words must share to count as the same word.
const STEM: usize = 4;

/// The stems of the content words of `text`.
fn stems(text: &str) -> HashSet<String> {
    text.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() >= 3)
        .map(str::to_ascii_lowercase)
        .filter(|w| !FUNCTION_WORDS.contains(w))
        .map(|w| w.chars().take(STEM).collect())
        .collect()
}

/// Whether any text of `asked` (the question and what the glossaries read in it) shares a
/// content word with any text of `shown` (the quotes and their provisions' headings).
pub fn shares_a_word<'a>(
    asked: impl IntoIterator<Item = &'a str>,
    shown: impl IntoIterator<Item = &'a str>,
) -> bool {
    let asked: HashSet<String> = asked.into_iter().flat_map(stems).collect();
    shown
        .into_iter()
        .any(|t| stems(t).iter().any(|s| asked.contains(s)))
}

/// One provision an answer shows, as the shared-word check reads it.
#[derive(Clone, Copy)]
pub struct ShownProvision<'a> {
    /// The span it competed with for its place (not its quote).
    pub span: &'a str,
    pub heading: &'a str,
    /// A one-question answer's "also relevant" second provision.
    pub also: bool,
}

/// Whether the provisions an answer leads with (one per part) share a word with what was
/// asked. An "also relevant" provision cannot vouch for a lead that shares none: "How do I
/// make rajma chawal for six people?" led with the Sixth Schedule's "1. The Chakma District."
/// because Article 81, shown below it, is about "the House of the People" (ADR 0005, stop 58).
pub fn leads_share_a_word<'a>(
    asked: impl IntoIterator<Item = &'a str>,
    shown: &[ShownProvision<'a>],
) -> bool {
    let leads = shown
        .iter()
        .filter(|s| !s.also)
        .flat_map(|s| [s.span, s.heading]);
    shares_a_word(asked, leads)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_function_words_parse_and_are_lower_case() {
        assert!(FUNCTION_WORDS.len() > 50);
        assert!(FUNCTION_WORDS.iter().all(|w| *w == w.to_lowercase()));
    }

    #[test]
    fn a_quote_about_something_else_shares_no_word() {
        let asked = ["How do I make rajma chawal for six people?"];
        let shown = [
            "13. Maharashtra ....19",
            "Allocation of seats in the Council of States",
        ];
        assert!(!shares_a_word(asked, shown));
    }

    #[test]
    fn only_the_leads_vouch_for_an_answer() {
        let asked = ["How do I make rajma chawal for six people?"];
        let lead = ShownProvision {
            span: "1. The Chakma District.",
            heading: "Provisions as to the Administration of Tribal Areas in the States of \
                      Assam, Meghalaya, Tripura and Mizoram",
            also: false,
        };
        let second = |also| ShownProvision {
            span: "(1) Subject to the provisions of article 331, the House of the People shall \
                   consist of",
            heading: "Composition of the House of the People",
            also,
        };
        assert!(!leads_share_a_word(asked, &[lead, second(true)]));
        // The same provision as the lead of a second part does vouch (one per part).
        assert!(leads_share_a_word(asked, &[lead, second(false)]));
    }

    #[test]
    fn words_meet_by_their_stem_and_through_what_the_glossary_added() {
        let shown =
            ["No child below the age of fourteen years shall be employed to work in any factory"];
        assert!(shares_a_word(["Is my 13-year-old working legally?"], shown));
        // "Can the PM be removed?" meets "Prime Minister" only through the glossary's words.
        let quote = ["The Prime Minister shall be appointed by the President"];
        assert!(!shares_a_word(["Who picks the PM?"], quote));
        assert!(shares_a_word(
            ["Who picks the PM?", "Prime Minister"],
            quote
        ));
    }

    #[test]
    fn function_words_and_numbers_are_not_evidence() {
        assert!(!shares_a_word(
            ["What is it that they have at 30?"],
            ["It is what they have at 30 years"]
        ));
    }
}
