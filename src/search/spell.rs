//! Misspelt words of an English question put right against the Constitution's own words
//! ("police arested my bro" → "police arrested my bro", "goverment", "parliment"). Pure; the
//! vocabulary is loaded once per edition ([`SpellCache`]).
//!
//! The lexical leg cannot match a misspelt word at all, and the embedder's word pieces read it
//! as something else, so a typo costs a question its best provision. A word is put right only
//! when nothing says it is a word already: it is not in the edition's text, not a whole word
//! of the embedder's vocabulary (about 22,000 English words: "sacked" stays "sacked", not
//! "sacred"), not a glossary term's word and not a word of romanised Hindi; and only to the
//! edition's word nearest to it (one edit, two for a long word), the most frequent of those.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use sqlx::PgPool;

use crate::error::AppResult;

/// Words shorter than this are left alone: too many real words are one edit from another.
const MIN_LEN: usize = 5;
/// From this length on, two edits are allowed.
const TWO_EDITS_FROM: usize = 9;
/// Unknown words looked up per question at most: each lookup scans the vocabulary, and a
/// long question of gibberish must not cost one scan a word.
const MAX_LOOKUPS: usize = 12;
/// Editions whose words are kept (one per stored edition in practice; a re-ingest is a new
/// document).
const CACHED_EDITIONS: usize = 4;

/// The words a question is checked against.
#[derive(Debug, Default)]
pub struct Speller {
    /// The edition's words (lowercase) and how often each occurs.
    corpus: HashMap<String, u32>,
    /// Words known to be words though the text does not use them.
    known: HashSet<String>,
}

/// One word put right.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct Correction {
    pub from: String,
    pub to: String,
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
}

impl Speller {
    /// From the edition's texts and the words known otherwise (any case).
    pub fn new<'a>(
        texts: impl IntoIterator<Item = &'a str>,
        known: impl IntoIterator<Item = String>,
    ) -> Speller {
        let mut corpus: HashMap<String, u32> = HashMap::new();
        for t in texts {
            for w in words(t) {
                *corpus.entry(w.to_ascii_lowercase()).or_default() += 1;
            }
        }
        let known = known
            .into_iter()
            .flat_map(|k| {
                words(&k)
                    .map(|w| w.to_ascii_lowercase())
                    .collect::<Vec<_>>()
            })
            .collect();
        Speller { corpus, known }
    }

    /// Whether the edition's text uses `word` (lowercase).
    pub fn in_text(&self, word: &str) -> bool {
        self.corpus.contains_key(word)
    }

    fn is_word(&self, w: &str) -> bool {
        self.corpus.contains_key(w) || self.known.contains(w)
    }

    /// Whether `word` is a word, or a regular inflection of one ("appoints", "dissolves",
    /// "levies", "consented", "constitutionally"): the embedder's vocabulary holds few
    /// inflected forms whole, and the text may use only the stem.
    fn is_word_or_inflection(&self, word: &str) -> bool {
        const SUFFIXES: [(&str, &[&str]); 7] = [
            ("ies", &["y"]),
            ("es", &["", "e"]),
            ("s", &[""]),
            ("ed", &["", "e"]),
            ("ing", &["", "e"]),
            ("ly", &[""]),
            ("able", &["e", ""]),
        ];
        // A negating or other common prefix on a word is a word ("uninterested" is not a
        // misspelt "interested").
        const PREFIXES: [&str; 8] = ["un", "in", "im", "dis", "non", "re", "pre", "sub"];
        if PREFIXES.iter().any(|p| {
            word.strip_prefix(p)
                .is_some_and(|rest| rest.len() >= 4 && self.is_word_or_inflection(rest))
        }) {
            return true;
        }
        self.is_word(word)
            || SUFFIXES.iter().any(|(suffix, endings)| {
                word.strip_suffix(suffix).is_some_and(|stem| {
                    stem.len() >= 3 && endings.iter().any(|e| self.is_word(&format!("{stem}{e}")))
                })
            })
    }

    /// Whether `word` (lowercase) is one to look up: long enough and not a word already.
    fn unknown(&self, word: &str) -> bool {
        word.chars().count() >= MIN_LEN && !self.is_word_or_inflection(word)
    }

    /// The edition's word nearest to the unknown `word` (lowercase).
    fn nearest(&self, word: &str) -> Option<&str> {
        let n = word.chars().count();
        let max = if n >= TWO_EDITS_FROM { 2 } else { 1 };
        let mut best: Option<(usize, u32, &str)> = None;
        for (w, &freq) in &self.corpus {
            let m = w.chars().count();
            if m.abs_diff(n) > max || m < MIN_LEN - 1 {
                continue;
            }
            let Some(d) = distance_within(word, w, max) else {
                continue;
            };
            // Fewer edits first, then the more frequent word, then the first in order (so
            // that the result does not depend on the map's order).
            let better = match best {
                None => true,
                Some((bd, bf, bw)) => {
                    (d, std::cmp::Reverse(freq), w.as_str()) < (bd, std::cmp::Reverse(bf), bw)
                }
            };
            if better {
                best = Some((d, freq, w));
            }
        }
        best.map(|(_, _, w)| w)
    }

    /// `question` with its misspelt words put right, and what was put right. Case is kept
    /// where the word began with a capital.
    pub fn correct(&self, question: &str) -> (String, Vec<Correction>) {
        let mut out = String::with_capacity(question.len());
        let mut fixes = Vec::new();
        let mut rest = question;
        let mut lookups = 0;
        while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic()) {
            out.push_str(&rest[..start]);
            let tail = &rest[start..];
            let end = tail
                .find(|c: char| !c.is_ascii_alphabetic())
                .unwrap_or(tail.len());
            let word = &tail[..end];
            // A word joined to digits or other letters ("21A", "é") is not a word to mend.
            let joined = tail[end..]
                .chars()
                .next()
                .is_some_and(|c| c.is_alphanumeric());
            let lower = word.to_ascii_lowercase();
            let look_up = !joined
                && !out.ends_with(|c: char| c.is_alphanumeric())
                && lookups < MAX_LOOKUPS
                && self.unknown(&lower);
            lookups += usize::from(look_up);
            match look_up.then(|| self.nearest(&lower)).flatten() {
                Some(to) => {
                    let to = if word.starts_with(|c: char| c.is_ascii_uppercase()) {
                        let mut c = to.chars();
                        c.next()
                            .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                            .unwrap_or_default()
                    } else {
                        to.to_string()
                    };
                    fixes.push(Correction {
                        from: word.to_string(),
                        to: to.clone(),
                    });
                    out.push_str(&to);
                }
                None => out.push_str(word),
            }
            rest = &tail[end..];
        }
        out.push_str(rest);
        (out, fixes)
    }
}

/// The optimal-string-alignment distance of `a` and `b` (insertions, deletions,
/// substitutions and adjacent transpositions), if it is at most `max`.
fn distance_within(a: &str, b: &str, max: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let (n, m) = (a.len(), b.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        let mut row_min = usize::MAX;
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
            row_min = row_min.min(v);
        }
        if row_min > max {
            return None;
        }
    }
    (d[n][m] <= max).then_some(d[n][m])
}

/// One [`Speller`] per edition, loaded on first use.
#[derive(Default)]
pub struct SpellCache(tokio::sync::Mutex<HashMap<i64, Arc<Speller>>>);

impl SpellCache {
    /// The speller of edition `document_id`: its provisions' headings and texts, and `known`.
    pub async fn get(
        &self,
        pool: &PgPool,
        document_id: i64,
        known: impl FnOnce() -> Vec<String>,
    ) -> AppResult<Arc<Speller>> {
        let mut slots = self.0.lock().await;
        if let Some(s) = slots.get(&document_id) {
            return Ok(s.clone());
        }
        let texts: Vec<(String,)> =
            sqlx::query_as("SELECT title || ' ' || text FROM provisions WHERE document_id = $1")
                .bind(document_id)
                .fetch_all(pool)
                .await?;
        let speller = Arc::new(Speller::new(texts.iter().map(|(t,)| t.as_str()), known()));
        if slots.len() >= CACHED_EDITIONS {
            slots.clear();
        }
        slots.insert(document_id, speller.clone());
        Ok(speller)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn speller() -> Speller {
        Speller::new(
            [
                "No person who is arrested shall be detained in custody without being informed",
                "produced before the nearest magistrate within a period of twenty-four hours",
                "Government of India; Parliament; Parliament; the Government of a State",
                "No child below the age of fourteen years shall be employed to work in any factory",
                "freedom of religion; sacred; the State shall not; consent; appoint; arrest; interested",
            ],
            ["sacked".to_string(), "lok sabha".to_string()],
        )
    }

    #[test]
    fn misspelt_words_become_the_texts_words() {
        let (q, fixes) = speller().correct("police arested my bro, how many hrs to a magistrte?");
        assert_eq!(q, "police arrested my bro, how many hrs to a magistrate?");
        assert_eq!(fixes.len(), 2);
        let (q, _) = speller().correct("Can the goverment ask Parliment?");
        assert_eq!(q, "Can the government ask Parliament?");
        let (q, _) = speller().correct("a 12 yr old kid in a factary");
        assert_eq!(q, "a 12 yr old kid in a factory");
    }

    #[test]
    fn words_that_are_words_stay() {
        // Known though the text does not use it, short, or in the text already.
        let (q, fixes) = speller().correct("Can a State be sacked? Is it in Lok Sabha? child");
        assert!(fixes.is_empty(), "{fixes:?}");
        assert_eq!(q, "Can a State be sacked? Is it in Lok Sabha? child");
        // A prefix on a word of the text.
        assert!(speller().correct("an uninterested person").1.is_empty());
        // Inflections of the text's words.
        let (_, fixes) = speller().correct("Who appoints and arrests? It was consented.");
        assert!(fixes.is_empty(), "{fixes:?}");
        // At most MAX_LOOKUPS unknown words are looked up in one question.
        let many = "goverment ".repeat(MAX_LOOKUPS + 3);
        assert_eq!(speller().correct(&many).1.len(), MAX_LOOKUPS);
        // Nothing near enough.
        assert!(speller().correct("zzzzzzzz qqqqq").1.is_empty());
        // Joined to digits: a reference, not a word.
        assert!(speller().correct("Article 21A and 31C").1.is_empty());
    }

    #[test]
    fn distance_counts_transpositions_once() {
        assert_eq!(distance_within("goverment", "government", 2), Some(1));
        assert_eq!(distance_within("parliment", "parliament", 2), Some(1));
        assert_eq!(distance_within("arrseted", "arrested", 1), Some(1));
        assert_eq!(distance_within("factory", "history", 1), None);
    }
}
