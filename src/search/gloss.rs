//! The Hindi glossary: the words of a question in Hindi (Devanagari, or typed in Latin
//! letters) → the English words a citizen would use for them ("राज्यपाल" → "Governor",
//! "maulik kartavya" → "fundamental duties"). Search adds them to the question before the
//! English glossary ([`super::glossary`]) reads it, so both legs get words they can match and the
//! English glossary's phrases and refs follow ("लोक सभा" → "Lok Sabha" → House of the People,
//! 81). The entries are `data/glossary_hi.toml`. Pure.

use std::collections::HashMap;
use std::sync::OnceLock;

use regex::Regex;
use serde::Deserialize;

const BUILTIN_TOML: &str = include_str!("../../data/glossary_hi.toml");

#[derive(Debug, Deserialize)]
struct File {
    entry: Vec<Entry>,
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
        let alternation: Vec<String> = terms
            .iter()
            .map(|t| {
                t.split_whitespace()
                    .map(regex::escape)
                    .collect::<Vec<_>>()
                    .join(r"\s+")
            })
            .collect();
        let re = Regex::new(&format!(r"\b(?:{})\b", alternation.join("|")))
            .map_err(|e| e.to_string())?;
        Ok(HindiGlossary {
            entries: file.entry,
            re,
            by_term,
        })
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The English for the terms in `text`, in the order they appear, each once.
    pub fn gloss(&self, text: &str) -> Vec<&str> {
        let text = normalise(text);
        let mut out: Vec<&str> = Vec::new();
        for m in self.re.find_iter(&text) {
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
        assert_eq!(g.gloss("शिक्षा का अधिकार क्या है?"), ["education", "right"]);
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
    fn a_term_in_two_entries_is_refused() {
        let err = HindiGlossary::parse(
            "[[entry]]\nterms = [\"a\"]\nenglish = \"x\"\n[[entry]]\nterms = [\"A\"]\nenglish = \"y\"\n",
        )
        .unwrap_err();
        assert!(err.contains("two entries"), "{err}");
    }
}
