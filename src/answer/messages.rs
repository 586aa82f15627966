//! The answer's fixed strings in the question's language (`crate::language`). A question in
//! Hindi — Devanagari or typed in Latin letters — gets them in Hindi; every other question
//! gets English. The quotes never change language: they are the official English text, and an
//! answer in Hindi says so, since the service does not hold the official Hindi translation.
//! Pure.

use crate::language::Language;

/// The fixed strings of one language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Messages {
    /// The answer text of a refusal.
    pub refusal: &'static str,
    /// Put before a quoted answer: the quotes are the official English text.
    pub official_text_note: Option<&'static str>,
}

const ENGLISH: Messages = Messages {
    refusal: super::REFUSAL,
    official_text_note: None,
};

const HINDI: Messages = Messages {
    refusal: "मेरे पास संविधान का जो पाठ है, वह इस प्रश्न का उत्तर नहीं देता — आधिकारिक पाठ देखें या किसी वकील से पूछें।",
    official_text_note: Some(
        "नीचे के उद्धरण भारत के संविधान के आधिकारिक अंग्रेज़ी पाठ से हैं; यह सेवा संविधान का आधिकारिक हिंदी अनुवाद नहीं रखती।",
    ),
};

/// The strings for a question in `language`.
pub fn for_language(language: Language) -> Messages {
    if language.hindi() {
        HINDI
    } else {
        ENGLISH
    }
}

/// `answer` as a reader of `language` gets it: a refusal in their words, and a quoted answer
/// with the note that its quotes are the official English text.
pub fn localise(language: Language, refused: bool, quoted: bool, answer: String) -> String {
    let m = for_language(language);
    match (refused, m.official_text_note) {
        (true, _) if language.hindi() => m.refusal.to_string(),
        (false, Some(note)) if quoted => format!("{note}\n\n{answer}"),
        _ => answer,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            HINDI.refusal
        );
        // English, and the other languages until they have their strings, are unchanged.
        for l in [Language::English, Language::Tamil] {
            assert_eq!(localise(l, false, true, quoted.into()), quoted);
            assert_eq!(
                localise(l, true, false, super::super::REFUSAL.into()),
                super::super::REFUSAL
            );
        }
    }
}
