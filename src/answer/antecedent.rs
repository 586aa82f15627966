//! A later part of a split question often names its subject only by a pronoun: "Who appoints the
//! Governor and how long is *his* term?". Searched alone, "how long is his term" finds the
//! President's term (56). This module puts the earlier part's noun phrase in the pronoun's place
//! ("how long is the Governor's term"), so each part is a question of its own — for the search
//! and for the reader, who sees the part above its quotes. The router applies it to the parts
//! `search::split` cuts; search's own fused split keeps the user's words (ADR 0007). Pure,
//! rule-based, English only; when no noun phrase fits, the part is left as the user wrote it.

use std::sync::LazyLock;

use serde::Deserialize;

use crate::search::split::OPENING_PREPOSITIONS;

/// The word classes of `data/antecedent.toml` (closed classes of English, not grown from
/// golden questions).
#[derive(Debug, Deserialize)]
struct WordClasses {
    /// Words that frame a question without naming anything ("how many", "did any of").
    frame: Vec<String>,
    /// Words that end a noun phrase (prepositions but "of", auxiliaries, common verbs …).
    phrase_end: Vec<String>,
    determiners: Vec<String>,
    /// Heads of noun phrases that name a person: what "he" and "his" can stand for.
    persons: Vec<String>,
}

impl WordClasses {
    fn frame(&self, w: &str) -> bool {
        self.frame.iter().any(|x| x == w)
    }
    fn ends_phrase(&self, w: &str) -> bool {
        self.phrase_end.iter().any(|x| x == w)
    }
    fn determiner(&self, w: &str) -> bool {
        self.determiners.iter().any(|x| x == w)
    }
    fn person(&self, head: &str) -> bool {
        let singular = head.strip_suffix('s').unwrap_or(head);
        self.persons.iter().any(|x| x == head || x == singular)
    }
}

static WORDS: LazyLock<WordClasses> = LazyLock::new(|| {
    toml::from_str(include_str!("../../data/antecedent.toml"))
        .expect("data/antecedent.toml is valid (a unit test parses it)")
});

/// A part refers back when a pronoun is its subject or object: within its first few words,
/// after at most this many words that are not question framing ("who *chairs* it", "how many
/// *members* can it have"). "can religious minorities run their own schools" names its own.
const MAX_WORDS_BEFORE_PRONOUN: usize = 1;
const PRONOUN_WITHIN: usize = 6;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Number {
    Singular,
    Plural,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Case {
    Plain,
    Possessive,
}

/// What a pronoun can stand for.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Reference {
    number: Number,
    case: Case,
    /// `Some(true)` for "he"/"his", `Some(false)` for "it"/"its", `None` for "they".
    person: Option<bool>,
}

impl Reference {
    fn fits(&self, p: &Phrase) -> bool {
        p.number == self.number && self.person.is_none_or(|person| person == p.person)
    }
}

fn pronoun(word: &str) -> Option<Reference> {
    let (number, case, person) = match word {
        "he" | "him" | "she" => (Number::Singular, Case::Plain, Some(true)),
        // "her" is left alone: possessive ("her term") or not ("remove her") is not clear.
        "his" => (Number::Singular, Case::Possessive, Some(true)),
        "it" => (Number::Singular, Case::Plain, Some(false)),
        "its" => (Number::Singular, Case::Possessive, Some(false)),
        "they" | "them" => (Number::Plural, Case::Plain, None),
        "their" => (Number::Plural, Case::Possessive, None),
        _ => return None,
    };
    Some(Reference {
        number,
        case,
        person,
    })
}

/// A word with its byte range in the part, and its lowercase, punctuation-free form.
struct Word<'a> {
    start: usize,
    end: usize,
    raw: &'a str,
    norm: String,
}

fn words(text: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut offset = 0;
    for raw in text.split_inclusive(char::is_whitespace) {
        let trimmed = raw.trim_end();
        let lead = trimmed.len()
            - trimmed
                .trim_start_matches(|c: char| !c.is_alphanumeric())
                .len();
        let core = trimmed.trim_matches(|c: char| !c.is_alphanumeric());
        if !core.is_empty() {
            let start = offset + lead;
            out.push(Word {
                start,
                end: start + core.len(),
                raw: core,
                norm: core.to_lowercase(),
            });
        }
        offset += raw.len();
    }
    out
}

/// The first word of a part that is a referring pronoun, with its number and case.
fn referring_pronoun(ws: &[Word]) -> Option<(usize, Reference)> {
    let mut named = 0;
    for (i, w) in ws.iter().enumerate().take(PRONOUN_WITHIN) {
        if let Some(reference) = pronoun(&w.norm) {
            return Some((i, reference));
        }
        // "for how long …", "on what grounds …": a part's opening preposition frames it.
        let opens = i == 0 && OPENING_PREPOSITIONS.contains(&w.norm.as_str());
        if !(opens || WORDS.frame(&w.norm)) {
            named += 1;
            if named > MAX_WORDS_BEFORE_PRONOUN {
                return None;
            }
        }
    }
    None
}

fn capitalised(w: &Word) -> bool {
    w.raw.chars().next().is_some_and(char::is_uppercase)
}

/// A noun phrase of a part: its text and grammatical number.
#[derive(Debug, Clone, PartialEq)]
struct Phrase {
    text: String,
    number: Number,
    person: bool,
}

/// "the chairman and members": the head decides; "the Comptroller and Auditor-General" is one.
fn plural(head: &str) -> bool {
    head.ends_with('s') && !head.ends_with("ss") && head.len() > 3
}

/// The words of a noun phrase starting at `i` (after its determiner): nominal words, joined by
/// "of" or "and" to more of them, ending at a `phrase_end` word or where a capitalised name
/// is followed by a lowercase word ("the Rajya Sabha | rejects").
fn phrase_end(ws: &[Word], mut i: usize) -> usize {
    let mut seen_name = false;
    while i < ws.len() {
        let w = &ws[i];
        let joiner = matches!(w.norm.as_str(), "of" | "and");
        if joiner {
            // "of the UPSC", "chairman and members": only when a nominal word follows.
            let next = ws[i + 1..].iter().find(|n| !WORDS.determiner(&n.norm));
            match next {
                Some(n) if !WORDS.ends_phrase(&n.norm) => {
                    i += 1;
                    while i < ws.len() && WORDS.determiner(&ws[i].norm) {
                        i += 1;
                    }
                    seen_name = false;
                    continue;
                }
                _ => break,
            }
        }
        if WORDS.ends_phrase(&w.norm) || (seen_name && !capitalised(w)) {
            break;
        }
        seen_name |= capitalised(w);
        i += 1;
    }
    i
}

/// Noun phrases of a part in order: determiner phrases ("the chairman and members of the
/// UPSC", and the "of" phrase inside it on its own), names not led by a determiner
/// ("Parliament"), and "how many N … X have" read as "the N of X".
fn phrases(text: &str) -> Vec<Phrase> {
    let ws = words(text);
    let mut out = Vec::new();
    let mut how_many: Option<String> = None;
    let mut i = 0;
    while i < ws.len() {
        let w = &ws[i];
        let det = WORDS.determiner(&w.norm);
        let name = i > 0 && capitalised(w) && !WORDS.ends_phrase(&w.norm);
        if i + 2 < ws.len() && w.norm == "how" && ws[i + 1].norm == "many" {
            how_many = Some(ws[i + 2].raw.to_string());
            i += 3;
            continue;
        }
        if !(det || name) {
            i += 1;
            continue;
        }
        let first = if det { i + 1 } else { i };
        let end = phrase_end(&ws, first);
        if end > first {
            let phrase_text = &text[w.start..ws[end - 1].end];
            let head_end = (first..end).find(|&j| ws[j].norm == "of").unwrap_or(end);
            let head = &ws[head_end - 1].norm;
            let person = WORDS.person(head);
            let number = if plural(head) {
                Number::Plural
            } else {
                Number::Singular
            };
            out.push(Phrase {
                text: phrase_text.to_string(),
                number,
                person,
            });
            // The "of" phrase inside ("the GST Council" in "the members of the GST Council").
            if head_end < end {
                let inner = phrases(&text[ws[head_end + 1].start..ws[end - 1].end]);
                if let Some(p) = inner.into_iter().next() {
                    out.push(p);
                }
            }
            if let Some(n) = how_many.take() {
                out.push(Phrase {
                    text: format!("the {n} of {phrase_text}"),
                    number: Number::Plural,
                    person: WORDS.person(&n.to_lowercase()),
                });
            }
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// `part` with its referring pronoun replaced by the first noun phrase of `earlier` that agrees
/// with it in number and in being a person or not; `None` when the part does not refer back or no phrase fits.
pub fn resolve(part: &str, earlier: &str) -> Option<String> {
    let ws = words(part);
    let (i, reference) = referring_pronoun(&ws)?;
    let antecedent = phrases(earlier).into_iter().find(|p| reference.fits(p))?;
    // "My grandfather came …" / "was he …" → "was my grandfather …"; names keep their case.
    let text = match antecedent.text.split_once(' ') {
        Some((det, rest)) if i > 0 && WORDS.determiner(&det.to_lowercase()) => {
            format!("{} {rest}", det.to_lowercase())
        }
        _ => antecedent.text,
    };
    let replacement = match reference.case {
        Case::Plain => text.clone(),
        Case::Possessive if text.ends_with('s') => format!("{text}'"),
        Case::Possessive => format!("{text}'s"),
    };
    Some(format!(
        "{}{}{}",
        &part[..ws[i].start],
        replacement,
        &part[ws[i].end..]
    ))
}

/// Each part after the first that refers back gets the nearest earlier part's noun phrase.
pub fn resolve_all(parts: &mut [String]) {
    for i in 1..parts.len() {
        let resolved = (0..i).rev().find_map(|j| resolve(&parts[i], &parts[j]));
        if let Some(r) = resolved {
            parts[i] = r;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pronoun_subject_takes_the_earlier_parts_phrase() {
        for (earlier, part, want) in [
            (
                "Who appoints the Governor",
                "how long is his term?",
                "how long is the Governor's term?",
            ),
            (
                "Who are the members of the GST Council",
                "who chairs it?",
                "who chairs the GST Council?",
            ),
            (
                "Who appoints the chairman and members of the UPSC,",
                "how can they be removed from office?",
                "how can the chairman and members of the UPSC be removed from office?",
            ),
            (
                "Who sits on a Tribes Advisory Council",
                "how many members can it have?",
                "how many members can a Tribes Advisory Council have?",
            ),
            (
                "How many members does an autonomous District Council in the northeast have,",
                "how are they chosen?",
                "how are the members of an autonomous District Council chosen?",
            ),
            (
                "Who appoints the Comptroller and Auditor-General,",
                "on what grounds may he be removed?",
                "on what grounds may the Comptroller and Auditor-General be removed?",
            ),
            (
                "What happens if the Rajya Sabha rejects a bill the Lok Sabha has passed?",
                "And can it do the same to a money bill?",
                "And can the Rajya Sabha do the same to a money bill?",
            ),
            (
                "On what date did the constitution come into force,",
                "did any of its articles start earlier?",
                "did any of the constitution's articles start earlier?",
            ),
            (
                "Does the constitution say alcohol should be banned,",
                "does it say anything about cow slaughter?",
                "does the constitution say anything about cow slaughter?",
            ),
            (
                "My grandfather came over from Pakistan in March 1948.",
                "Was he an Indian citizen when the constitution began?",
                "Was my grandfather an Indian citizen when the constitution began?",
            ),
            (
                "Can Parliament amend the Preamble",
                "can it abolish the States?",
                "can Parliament abolish the States?",
            ),
        ] {
            assert_eq!(
                resolve(part, earlier).as_deref(),
                Some(want),
                "{earlier} / {part}"
            );
        }
    }

    #[test]
    fn parts_that_name_their_own_subject_are_left_alone() {
        // "their" belongs to "religious minorities", named in the same part.
        assert_eq!(
            resolve(
                "can religious minorities run their own schools?",
                "Do I have freedom of religion"
            ),
            None
        );
        assert_eq!(
            resolve(
                "who can pardon a convicted person?",
                "Who commands the armed forces"
            ),
            None
        );
        // No phrase of the pronoun's number, or none that is a person: left as written.
        assert_eq!(
            resolve("how are they chosen?", "Who appoints the Governor"),
            None
        );
        assert_eq!(
            resolve("how is he chosen?", "Who chairs the Council of States"),
            None
        );
        assert_eq!(
            resolve(
                "who appoints its members?",
                "What is the Finance Commission"
            ),
            Some("who appoints the Finance Commission's members?".to_string())
        );
    }

    #[test]
    fn the_word_classes_parse_and_are_lowercase() {
        for list in [
            &WORDS.frame,
            &WORDS.phrase_end,
            &WORDS.determiners,
            &WORDS.persons,
        ] {
            assert!(!list.is_empty());
            assert!(list.iter().all(|w| *w == w.to_lowercase()), "{list:?}");
        }
    }

    #[test]
    fn resolve_all_uses_the_nearest_earlier_part() {
        let mut parts = vec![
            "Who appoints the Governor".to_string(),
            "how long is his term?".to_string(),
        ];
        resolve_all(&mut parts);
        assert_eq!(parts[1], "how long is the Governor's term?");
    }
}
