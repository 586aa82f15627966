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
//! quote cannot decide a refusal.
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
