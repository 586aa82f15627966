//! The Hindi glossary: the words of a question in Hindi (Devanagari, or typed in Latin
//! letters) → the English words a citizen would use for them ("राज्यपाल" → "Governor",
//! "maulik kartavya" → "fundamental duties"). Search adds them to the question before the
//! English glossary ([`super::glossary`]) reads it, so both legs get words they can match and the
//! English glossary's phrases and refs follow ("लोक सभा" → "Lok Sabha" → House of the People,
//! 81). An English question that types a Hindi word in Latin letters ("What is the minimum umar
//! for voting?") has it put into English in place instead ([`english_question`]). The entries
//! are `data/glossary_hi.toml`. Pure.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use regex::Regex;
use serde::Deserialize;

const BUILTIN_TOML: &str = include_str!("../../data/glossary_hi.toml");

#[derive(Debug, Deserialize)]
struct File {
    entry: Vec<Entry>,
    /// Latin-letter terms that are English words too, left alone in an English question.
    #[serde(default)]
    english_words: Vec<String>,
}

/// One entry: spellings in Hindi, and the English for them.
#[derive(Debug, Clone, Deserialize)]
pub struct Entry {
    pub terms: Vec<String>,
    pub english: String,
}

/// The compiled glossary: one alternation of every term, longest first.
#[derive(Debug)]
pub struct HindiGlossary {
    entries: Vec<Entry>,
    re: Regex,
    /// Normalised term → entry.
    by_term: HashMap<String, usize>,
    /// The Latin-letter terms whose English is another word ("umar", not "vote"), for
    /// [`HindiGlossary::translate_latin`]; `None` when there are none.
    latin: Option<Regex>,
}

impl HindiGlossary {
    /// The bundled glossary (`data/glossary_hi.toml`).
    pub fn builtin() -> &'static HindiGlossary {
        static BUILTIN: OnceLock<HindiGlossary> = OnceLock::new();
        BUILTIN.get_or_init(|| {
            HindiGlossary::parse(BUILTIN_TOML)
                .expect("data/glossary_hi.toml is valid (a unit test parses it)")
        })
    }

    /// Every term written in Latin letters ("maulik adhikar").
    pub fn latin_terms(&self) -> impl Iterator<Item = &str> {
        self.entries
            .iter()
            .flat_map(|e| e.terms.iter())
            .map(String::as_str)
            .filter(|t| t.is_ascii())
    }

    pub fn parse(toml_text: &str) -> Result<HindiGlossary, String> {
        let file: File = toml::from_str(toml_text).map_err(|e| e.to_string())?;
        let mut by_term = HashMap::new();
        for (i, e) in file.entry.iter().enumerate() {
            if e.english.trim().is_empty() {
                return Err(format!("entry {i} has no english"));
            }
            for t in &e.terms {
                let key = normalise(t);
                if key.trim().is_empty() {
                    return Err(format!("entry {i} has an empty term"));
                }
                // Spellings that differ by a nukta only are one term.
                if by_term.insert(key, i).is_some_and(|other| other != i) {
                    return Err(format!("the term {t:?} is in two entries"));
                }
            }
        }
        let mut terms: Vec<&String> = by_term.keys().collect();
        // Leftmost-first alternation: at one position the longest term wins.
        terms.sort_by(|a, b| b.chars().count().cmp(&a.chars().count()).then(a.cmp(b)));
        let re =
            Regex::new(&format!(r"\b(?:{})\b", alternation(&terms))).map_err(|e| e.to_string())?;
        let mut english_words = HashSet::new();
        for w in &file.english_words {
            let key = normalise(w);
            if !by_term.contains_key(&key) {
                return Err(format!("english_words: {w:?} is not a term of any entry"));
            }
            english_words.insert(key);
        }
        let latin_terms: Vec<&String> = terms
            .iter()
            .copied()
            .filter(|t| {
                t.is_ascii()
                    && !english_words.contains(*t)
                    && **t != normalise(&file.entry[by_term[*t]].english)
            })
            .collect();
        let latin = if latin_terms.is_empty() {
            None
        } else {
            let pattern = format!(r"(?i)\b(?:{})\b", alternation(&latin_terms));
            Some(Regex::new(&pattern).map_err(|e| e.to_string())?)
        };
        Ok(HindiGlossary {
            entries: file.entry,
            re,
            by_term,
            latin,
        })
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The English of `term` when it is, whole, one of the glossary's terms.
    pub fn english_of(&self, term: &str) -> Option<&str> {
        let key = normalise(term)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        self.by_term
            .get(&key)
            .map(|&i| self.entries[i].english.as_str())
    }

    /// The English for the terms in `text`, in the order they appear, each once.
    pub fn gloss(&self, text: &str) -> Vec<&str> {
        let text = normalise(text);
        // "rajya" in the English glossary's "rajya sabha" is not the Hindi for State.
        let english_terms = super::glossary::Glossary::builtin().term_spans(&text);
        let mut out: Vec<&str> = Vec::new();
        for m in self.re.find_iter(&text) {
            if inside_a_longer(&english_terms, m.range()) {
                continue;
            }
            let key = m.as_str().split_whitespace().collect::<Vec<_>>().join(" ");
            if let Some(&i) = self.by_term.get(&key) {
                let english = self.entries[i].english.as_str();
                if !out.contains(&english) {
                    out.push(english);
                }
            }
        }
        out
    }

    /// An English question's Hindi words typed in Latin letters put into English in place
    /// ("What is the minimum umar for voting?" → "What is the minimum age for voting?"), and
    /// what was put in (each English once). In place, not added: the dense leg, the learned
    /// stage and the question bank all read the question through an English model, which
    /// reads "age" and not "umar". A term inside a longer span of `keep` is left alone
    /// ("rajya" in the English glossary's "Rajya Sabha"); so is one whose English is itself.
    pub fn translate_latin(
        &self,
        text: &str,
        keep: &[std::ops::Range<usize>],
    ) -> (String, Vec<&str>) {
        let Some(latin) = &self.latin else {
            return (text.to_string(), Vec::new());
        };
        let mut out = String::with_capacity(text.len());
        let mut english: Vec<&str> = Vec::new();
        let mut last = 0;
        for m in latin.find_iter(text) {
            if inside_a_longer(keep, m.range()) {
                continue;
            }
            let Some(&i) = self.by_term.get(&normalise(m.as_str())) else {
                continue;
            };
            let to = self.entries[i].english.as_str();
            out.push_str(&text[last..m.start()]);
            out.push_str(to);
            last = m.end();
            if !english.contains(&to) {
                english.push(to);
            }
        }
        out.push_str(&text[last..]);
        (out, english)
    }
}

/// `question` with its Hindi words in Latin letters put into English when it is an English
/// question ([`HindiGlossary::translate_latin`], the English glossary's longer terms kept), and
/// the English put in. A question in Hindi is left as it is: it is glossed, not translated.
pub fn english_question(question: &str) -> (String, Vec<&'static str>) {
    if crate::language::detect(question) != crate::language::Language::English {
        return (question.to_string(), Vec::new());
    }
    let keep = super::glossary::Glossary::builtin().term_spans(question);
    HindiGlossary::builtin().translate_latin(question, &keep)
}

/// A romanised Hindi question's English: its Hindi terms put into English, then only the words
/// that `is_english` (the edition's text uses them) or the English glossary's terms hold, in
/// order ("kya rajya sabha bhi lok sabha ki tarah bhang hoti hai?" → "rajya sabha lok sabha";
/// "rajyapal ki niyukti kaun karta hai?" → "Governor appointment"). Empty when none is left.
pub fn romanised_english(question: &str, is_english: impl Fn(&str) -> bool) -> String {
    let glossary = super::glossary::Glossary::builtin();
    let keep = glossary.term_spans(question);
    let (translated, _) = HindiGlossary::builtin().translate_latin(question, &keep);
    // The English glossary's terms as they stand after translation ("rajya sabha", "LG").
    let terms = glossary.term_spans(&translated);
    let function_words: HashSet<&str> = crate::language::romanised_hindi_words().collect();
    let mut words: Vec<&str> = Vec::new();
    let mut rest = translated.as_str();
    let mut offset = 0;
    while let Some(start) = rest.find(char::is_alphanumeric) {
        let len = rest[start..]
            .find(|c: char| !c.is_alphanumeric())
            .unwrap_or(rest.len() - start);
        let word = &rest[start..start + len];
        let at = offset + start;
        let lower = word.to_lowercase();
        let in_term = terms.iter().any(|t| t.start <= at && at < t.end);
        if in_term || (!function_words.contains(lower.as_str()) && is_english(&lower)) {
            words.push(word);
        }
        offset = at + len;
        rest = &translated[offset..];
    }
    words.join(" ")
}

/// Whether `m` lies inside one of `spans` that is longer than it.
fn inside_a_longer(spans: &[std::ops::Range<usize>], m: std::ops::Range<usize>) -> bool {
    spans
        .iter()
        .any(|s| s.start <= m.start && m.end <= s.end && s.len() > m.len())
}

/// `terms` (longest first) as one regex alternation, any run of spaces between words.
fn alternation(terms: &[&String]) -> String {
    terms
        .iter()
        .map(|t| {
            t.split_whitespace()
                .map(regex::escape)
                .collect::<Vec<_>>()
                .join(r"\s+")
        })
        .collect::<Vec<_>>()
        .join("|")
}

/// Lower case, single spaces, and Devanagari's nukta dropped ("फ़" and "फ" are written both
/// ways), in the precomposed letters too.
fn normalise(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\u{093C}' => {}
            '\u{0958}' => out.push('क'),
            '\u{0959}' => out.push('ख'),
            '\u{095A}' => out.push('ग'),
            '\u{095B}' => out.push('ज'),
            '\u{095C}' => out.push('ड'),
            '\u{095D}' => out.push('ढ'),
            '\u{095E}' => out.push('फ'),
            '\u{095F}' => out.push('य'),
            c => out.extend(c.to_lowercase()),
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_glossary_parses() {
        assert!(HindiGlossary::builtin().entries().len() > 80);
    }

    #[test]
    fn hindi_words_become_english_ones() {
        let g = HindiGlossary::builtin();
        // Read whole since stop 62's round of everyday words, not word by word.
        assert_eq!(g.gloss("शिक्षा का अधिकार क्या है?"), ["right to education"]);
        assert_eq!(
            g.gloss("राज्यपाल की नियुक्ति कौन करता है?"),
            ["Governor", "appointment"]
        );
        assert_eq!(
            g.gloss("rajyapal ki niyukti kaun karta hai?"),
            ["Governor", "appointment"]
        );
        // The longest term wins; a word inside another word is not a match.
        assert_eq!(g.gloss("मौलिक अधिकार कौन से हैं"), ["fundamental rights"]);
        assert_eq!(g.gloss("राज्यपालों"), Vec::<&str>::new());
        // Nukta or not, and any spacing.
        assert_eq!(g.gloss("गिरफ़्तारी"), g.gloss("गिरफ्तारी"));
        assert_eq!(g.gloss("लोक   सभा"), ["Lok Sabha"]);
        assert!(g.gloss("What is the right to education?").is_empty());
    }

    #[test]
    fn an_english_question_s_hindi_words_are_put_into_english_in_place() {
        let q = |s: &str| english_question(s);
        assert_eq!(
            q("What is the minimum umar for voting in India?"),
            (
                "What is the minimum age for voting in India?".to_string(),
                vec!["age"]
            )
        );
        assert_eq!(
            q("Can the rajya sarkar take my zameen?").0,
            "Can the State Government take my land?"
        );
        // Any case; a longer term over a shorter one; each English once.
        assert_eq!(
            q("How long can Rashtrapati shasan last, and who advises the RASHTRAPATI?").1,
            ["President's rule", "President"]
        );
        // Inside a longer English glossary term ("rajya" in "Rajya Sabha"), an English word
        // Hindi borrows ("CAG"), or a term whose English is itself: left as typed.
        for kept in [
            "What is the difference between Rajya Sabha and Lok Sabha?",
            "Can a retired CAG take up another government job?",
            "Who can vote in elections to the Panchayat?",
        ] {
            assert_eq!(q(kept), (kept.to_string(), vec![]), "{kept}");
        }
        // A word inside another word is not a term.
        assert_eq!(q("Is humara a word?").1, Vec::<&str>::new());
        // A question in Hindi is glossed by search, not translated here.
        let hindi = "rajyapal ki niyukti kaun karta hai?";
        assert_eq!(q(hindi), (hindi.to_string(), vec![]));
    }

    #[test]
    fn romanised_hindi_reaches_the_english_model_as_its_english_words() {
        // As the edition's text has them (the glossary's English is in the text, a test checks).
        let text_words = [
            "governor",
            "appointment",
            "president",
            "retirement",
            "age",
            "judge",
            "high",
            "court",
        ];
        let english = |q: &str| romanised_english(q, |w| text_words.contains(&w));
        // The glossary's English for its Hindi terms, in place.
        assert_eq!(
            english("rajyapal ki niyukti kaun karta hai?"),
            "Governor appointment"
        );
        // An English glossary term stays whole, though "rajya" alone is Hindi for State.
        assert_eq!(
            english("kya rajya sabha bhi lok sabha ki tarah bhang hoti hai?"),
            "rajya sabha lok sabha"
        );
        // English words the text uses stay; Hindi ones it does not are dropped.
        assert_eq!(
            english("high court judge ki retirement age kya hai?"),
            "high court judge retirement age"
        );
        assert_eq!(english("kitne saal tak pad par rehte hain?"), "");
        // The Hindi gloss skips "rajya" inside "rajya sabha" too.
        assert!(HindiGlossary::builtin()
            .gloss("rajya sabha kya hai")
            .is_empty());
    }

    #[test]
    fn an_english_word_that_is_no_term_is_refused() {
        let err = HindiGlossary::parse(
            "english_words = [\"tax\"]\n[[entry]]\nterms = [\"kar\"]\nenglish = \"tax\"\n",
        )
        .unwrap_err();
        assert!(err.contains("not a term"), "{err}");
    }

    #[test]
    fn a_term_in_two_entries_is_refused() {
        let err = HindiGlossary::parse(
            "[[entry]]\nterms = [\"a\"]\nenglish = \"x\"\n[[entry]]\nterms = [\"A\"]\nenglish = \"y\"\n",
        )
        .unwrap_err();
        assert!(err.contains("two entries"), "{err}");
    }
}
