//! The answer's fixed strings in the question's language (`crate::language`). A question in
//! Hindi — Devanagari or typed in Latin letters — gets them in Hindi (`data/messages_hi.toml`);
//! every other question gets English. The quotes never change language: they are the official
//! English text, and an answer in Hindi says so, since the service does not hold the official
//! Hindi translation. Pure.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde::Deserialize;

use crate::language::Language;

/// The Hindi catalogue.
#[derive(Debug, Deserialize)]
pub struct Catalogue {
    /// The answer text of a refusal.
    pub refusal: String,
    /// Put before a quoted answer: the quotes are the official English text.
    pub official_text_note: String,
    /// Each fixed reason, by its English text.
    pub reasons: HashMap<String, String>,
    /// The words around an extractive answer's quotes.
    pub framing: Framing,
}

/// The words an extractive answer puts around its quotes (never in them).
#[derive(Debug, Deserialize)]
pub struct Framing {
    /// Opens the answer to a vague question; `{readings}` becomes the list of its readings.
    pub several_readings: String,
    /// Opens the answer to a question with a premise.
    pub premise_check: String,
    /// Before the first quote for one part of a many-part question; `{part}` is the part.
    pub on_part: String,
    /// Before a quote shown beside the one that leads.
    pub also_relevant: String,
    /// A reading of a vague question, as a question the reader can send: `{label}` is the
    /// provision's label ("Article 156") with "Article" in this language, `{title}` its heading.
    pub suggestion: String,
    /// "Article" in this language, as the ref reader reads it.
    pub article: String,
}

impl Framing {
    pub fn several_readings(&self, readings: &str) -> String {
        self.several_readings.replace("{readings}", readings)
    }

    pub fn on_part(&self, part: &str) -> String {
        self.on_part.replace("{part}", part)
    }

    pub fn suggestion(&self, label: &str, title: &str) -> String {
        let label = match label.strip_prefix("Article ") {
            Some(number) => format!("{} {number}", self.article),
            None => label.to_string(),
        };
        self.suggestion
            .replace("{label}", &label)
            .replace("{title}", title)
    }
}

/// The framing in `language`: Hindi for a question in Hindi, else English.
pub fn framing(language: Language) -> &'static Framing {
    static ENGLISH: OnceLock<Framing> = OnceLock::new();
    if language.hindi() {
        return &hindi().framing;
    }
    ENGLISH.get_or_init(|| Framing {
        several_readings: "Your question could mean several things. Which of these do you mean: {readings}? The closest match is below.".into(),
        premise_check: "Here is what the text actually says; compare it with the premise of the question.".into(),
        on_part: "On “{part}”: ".into(),
        also_relevant: "Also relevant — ".into(),
        suggestion: "What does {label} ({title}) say?".into(),
        article: "Article".into(),
    })
}

/// `data/messages_hi.toml`, compiled in.
pub fn hindi() -> &'static Catalogue {
    static HINDI: OnceLock<Catalogue> = OnceLock::new();
    HINDI.get_or_init(|| {
        toml::from_str(include_str!("../../data/messages_hi.toml"))
            .expect("data/messages_hi.toml is valid (a unit test parses it)")
    })
}

/// `answer` as a reader of `language` gets it: a refusal in their words, a fixed reply
/// (greeting) translated, and a quoted answer with the note that its quotes are the official
/// English text.
pub fn localise(language: Language, refused: bool, quoted: bool, answer: String) -> String {
    if !language.hindi() {
        return answer;
    }
    let hi = hindi();
    if refused {
        hi.refusal.clone()
    } else if quoted {
        format!("{}\n\n{answer}", hi.official_text_note)
    } else {
        translate(language, answer)
    }
}

/// A fixed English string (a refusal reason, a canned reply) in `language`: translated when the
/// catalogue has it, else as it is.
pub fn translate(language: Language, text: String) -> String {
    if !language.hindi() {
        return text;
    }
    hindi().reasons.get(&text).cloned().unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scope::OutOfScope;

    /// Every fixed reason the service gives, in English.
    fn english_reasons() -> Vec<&'static str> {
        let mut all: Vec<&str> = OutOfScope::ALL.iter().map(|c| c.reason()).collect();
        all.extend([
            crate::search::NOT_CLOSE_ENOUGH,
            super::super::OUTSIDE_THE_TEXT,
            super::super::NOTHING_RETRIEVED,
            super::super::NOTHING_QUOTABLE,
            super::super::NO_SHARED_WORD,
            super::super::NO_KNOWN_OFFICE,
            super::super::NO_SUCH_PROVISION,
        ]);
        all
    }

    #[test]
    fn every_fixed_reason_has_its_hindi_and_nothing_else_is_there() {
        let hi = hindi();
        let english = english_reasons();
        for r in &english {
            let t = translate(Language::Hindi, r.to_string());
            assert!(
                t != *r && crate::language::detect(&t) == Language::Hindi,
                "no Hindi for {r:?}"
            );
        }
        for key in hi.reasons.keys() {
            assert!(
                english.contains(&key.as_str()),
                "{key:?} is no reason the service gives"
            );
        }
    }

    #[test]
    fn hindi_questions_get_hindi_fixed_strings_and_english_quotes() {
        let quoted = "[1] Article 21A: \"The State shall provide free and compulsory education\"";
        let hi = localise(Language::Hindi, false, true, quoted.into());
        assert!(
            hi.starts_with("नीचे के उद्धरण") && hi.ends_with(quoted),
            "{hi}"
        );
        assert_eq!(
            localise(
                Language::RomanisedHindi,
                true,
                false,
                super::super::REFUSAL.into()
            ),
            hindi().refusal
        );
        let hello = OutOfScope::ChitChat.reason().to_string();
        assert!(localise(Language::Hindi, false, false, hello.clone()).starts_with("नमस्ते"));
        // The words around the quotes, with their slots filled.
        let f = framing(Language::Hindi);
        assert!(f
            .several_readings("Article 59 (x)")
            .contains("Article 59 (x)"));
        assert!(f.on_part("राज्यपाल").contains("राज्यपाल"));
        for text in [&f.premise_check, &f.also_relevant, &f.several_readings] {
            assert_eq!(crate::language::detect(text), Language::Hindi, "{text}");
        }
        assert_eq!(
            f.suggestion("Article 156", "Term of office of Governor"),
            "अनुच्छेद 156 क्या कहता है?"
        );
        let en = framing(Language::Tamil);
        assert_eq!(
            en.suggestion("Article 156", "Term of office of Governor"),
            "What does Article 156 (Term of office of Governor) say?"
        );
        assert!(en
            .several_readings("x")
            .starts_with("Your question could mean several things"));
        assert_eq!(en.on_part("who appoints"), "On “who appoints”: ");
        // English, and the other languages until they have their strings, are unchanged.
        for l in [Language::English, Language::Tamil] {
            assert_eq!(localise(l, false, true, quoted.into()), quoted);
            assert_eq!(localise(l, false, false, hello.clone()), hello);
            assert_eq!(
                translate(l, crate::search::NOT_CLOSE_ENOUGH.into()),
                crate::search::NOT_CLOSE_ENOUGH
            );
        }
    }
}
