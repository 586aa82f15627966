//! What language a question is written in, as far as search and answers need to know: its
//! script (the Unicode block most of its letters come from), and, for Latin letters, whether it
//! is Hindi written in them (a word list, `data/romanised_hindi.toml`). Pure.
//!
//! Search sends a question in an Indian script to the multilingual dense leg; answers speak
//! Hindi to a question in Devanagari or in romanised Hindi.

use std::collections::HashSet;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// A question's language, by script: `en` is any Latin-script text that is not romanised
/// Hindi; Devanagari is reported as Hindi (Marathi shares it; the answer's fixed strings are
/// Hindi for both).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
pub enum Language {
    #[serde(rename = "en")]
    English,
    #[serde(rename = "hi")]
    Hindi,
    #[serde(rename = "hi-latn")]
    RomanisedHindi,
    #[serde(rename = "bn")]
    Bengali,
    #[serde(rename = "pa")]
    Punjabi,
    #[serde(rename = "gu")]
    Gujarati,
    #[serde(rename = "or")]
    Odia,
    #[serde(rename = "ta")]
    Tamil,
    #[serde(rename = "te")]
    Telugu,
    #[serde(rename = "kn")]
    Kannada,
    #[serde(rename = "ml")]
    Malayalam,
}

/// The Unicode blocks of the Indian scripts and the language each stands for.
const INDIC_BLOCKS: [(u32, Language); 9] = [
    (0x0900, Language::Hindi),
    (0x0980, Language::Bengali),
    (0x0A00, Language::Punjabi),
    (0x0A80, Language::Gujarati),
    (0x0B00, Language::Odia),
    (0x0B80, Language::Tamil),
    (0x0C00, Language::Telugu),
    (0x0C80, Language::Kannada),
    (0x0D00, Language::Malayalam),
];

/// Of a text's letters, at least this share must be in one Indian script for the text to be
/// in it ("Article 21 का क्या मतलब है?" is; an English question quoting one Hindi word is not).
const INDIC_SHARE: f64 = 0.3;

impl Language {
    /// The code `nyaya eval` and the API use ("hi", "hi-latn", "ta" …).
    pub fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Hindi => "hi",
            Language::RomanisedHindi => "hi-latn",
            Language::Bengali => "bn",
            Language::Punjabi => "pa",
            Language::Gujarati => "gu",
            Language::Odia => "or",
            Language::Tamil => "ta",
            Language::Telugu => "te",
            Language::Kannada => "kn",
            Language::Malayalam => "ml",
        }
    }

    /// Written in an Indian script: the English legs cannot read it.
    pub fn indic_script(self) -> bool {
        !matches!(self, Language::English | Language::RomanisedHindi)
    }

    /// Answered with Hindi fixed strings.
    pub fn hindi(self) -> bool {
        matches!(self, Language::Hindi | Language::RomanisedHindi)
    }
}

/// The language of `text`: the Indian script most of its letters are in when they are at
/// least [`INDIC_SHARE`] of them, else romanised Hindi when its words say so, else English.
pub fn detect(text: &str) -> Language {
    let mut counts = [0usize; INDIC_BLOCKS.len()];
    let mut letters = 0usize;
    for c in text
        .chars()
        .filter(|c| c.is_alphabetic() || is_indic_mark(*c))
    {
        letters += 1;
        if let Some(i) = indic_block(c) {
            counts[i] += 1;
        }
    }
    let best = counts
        .iter()
        .enumerate()
        .max_by_key(|(i, n)| (**n, std::cmp::Reverse(*i)));
    if let Some((i, &n)) = best {
        if n > 0 && n as f64 >= INDIC_SHARE * letters as f64 {
            return INDIC_BLOCKS[i].1;
        }
    }
    if romanised_hindi(text) {
        Language::RomanisedHindi
    } else {
        Language::English
    }
}

fn indic_block(c: char) -> Option<usize> {
    let cp = c as u32;
    INDIC_BLOCKS
        .iter()
        .position(|(start, _)| (*start..*start + 0x80).contains(&cp))
}

/// Vowel signs and viramas are marks, not letters, but they are the script all the same.
fn is_indic_mark(c: char) -> bool {
    indic_block(c).is_some()
}

/// At least two of the words, and at least a quarter of them, are Hindi function words.
fn romanised_hindi(text: &str) -> bool {
    let words: Vec<String> = text
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let list = hindi_words();
    let hits = words.iter().filter(|w| list.contains(w.as_str())).count();
    hits >= 2 && hits * 4 >= words.len()
}

/// The function words that mark romanised Hindi (`data/romanised_hindi.toml`).
pub fn romanised_hindi_words() -> impl Iterator<Item = &'static str> {
    hindi_words().iter().map(String::as_str)
}

fn hindi_words() -> &'static HashSet<String> {
    static WORDS: OnceLock<HashSet<String>> = OnceLock::new();
    WORDS.get_or_init(|| {
        #[derive(Deserialize)]
        struct List {
            words: Vec<String>,
        }
        let list: List = toml::from_str(include_str!("../data/romanised_hindi.toml"))
            .expect("data/romanised_hindi.toml is valid (a unit test parses it)");
        list.words.into_iter().collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_are_told_apart() {
        for (q, want) in [
            ("शिक्षा का अधिकार क्या है?", Language::Hindi),
            ("अनुच्छेद 21 क्या कहता है?", Language::Hindi),
            ("Article 21 का क्या मतलब है?", Language::Hindi),
            ("শিক্ষার অধিকার কী?", Language::Bengali),
            ("கல்வி உரிமை என்றால் என்ன?", Language::Tamil),
            ("విద్యా హక్కు అంటే ఏమిటి?", Language::Telugu),
            ("ಶಿಕ್ಷಣದ ಹಕ್ಕು ಏನು?", Language::Kannada),
            ("What is the right to education?", Language::English),
            (
                "Is 'dharma' (धर्म) mentioned in the Preamble of the Constitution?",
                Language::English,
            ),
            ("", Language::English),
            ("21", Language::English),
        ] {
            assert_eq!(detect(q), want, "{q}");
        }
    }

    #[test]
    fn romanised_hindi_is_read_by_its_grammar_words() {
        for q in [
            "shiksha ka adhikar kya hai?",
            "rajyapal ki niyukti kaun karta hai?",
            "kya police mujhe bina warrant ke giraftar kar sakti hai",
            "lok sabha ke chunav kitne saal mein hote hain",
        ] {
            assert_eq!(detect(q), Language::RomanisedHindi, "{q}");
        }
        for q in [
            "What is the right to education?",
            "Who appoints the Governor of a State?",
            "Lok Sabha vs Rajya Sabha",
            "Can I become President at 30?",
            "What is the Kesavananda Bharati case about?",
            "Is a Hindu Undivided Family a person under Article 14?",
        ] {
            assert_eq!(detect(q), Language::English, "{q}");
        }
    }

    /// English questions keep the English path: every question of the English golden set and
    /// every English rewording of the paraphrase suite reads as English (but the four the set
    /// itself writes in romanised Hindi), and the suite's romanised Hindi forms read as
    /// romanised Hindi.
    #[test]
    fn the_english_golden_questions_read_as_english() {
        let mut english = Vec::new();
        let mut romanised = Vec::new();
        for line in include_str!("../eval/golden/single_turn.jsonl").lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            english.push(v["question"].as_str().unwrap().to_string());
        }
        for line in include_str!("../eval/golden/paraphrases.jsonl").lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            for r in v["rewordings"].as_array().into_iter().flatten() {
                english.push(r.as_str().unwrap().to_string());
            }
            if let Some(r) = v["romanised_hindi"].as_str() {
                romanised.push(r.to_string());
            }
        }
        // The English set holds four questions typed in romanised Hindi itself.
        let romanised_in_english_set = [
            "gram sabha ke member kaun hote hain?",
            "RTI ka jawab 30 din me nahi aaya, PIO pe kitna penalty lagta hai?",
            "Passport ke liye tatkal me apply kaise karte hain aur kaunse documents chahiye?",
            "quorum kitna hota hai?",
        ];
        let wrong: Vec<&String> = english
            .iter()
            .filter(|q| detect(q) != Language::English)
            .filter(|q| {
                !(romanised_in_english_set.contains(&q.as_str())
                    && detect(q) == Language::RomanisedHindi)
            })
            .collect();
        assert!(wrong.is_empty(), "read as not English: {wrong:#?}");
        let missed: Vec<&String> = romanised
            .iter()
            .filter(|q| detect(q) != Language::RomanisedHindi)
            .collect();
        assert!(
            missed.len() * 10 <= romanised.len(),
            "{} of {} romanised Hindi rewordings not recognised: {missed:#?}",
            missed.len(),
            romanised.len()
        );
    }

    #[test]
    fn the_word_list_parses_and_holds_no_common_english_word() {
        let list = hindi_words();
        assert!(list.len() > 50);
        for english in [
            "the", "to", "me", "is", "a", "in", "hi", "main", "par", "so", "do",
        ] {
            assert!(!list.contains(english), "{english} is English too");
        }
    }
}
