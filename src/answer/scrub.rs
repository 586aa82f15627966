//! Removes direct identifiers from a question before it reaches a table, a log line or an
//! LLM: emails, phone numbers, Aadhaar / PAN / passport / voter-ID-like numbers, PIN codes and
//! account or card numbers. Each becomes a bracketed placeholder ("[phone]"), so the question
//! still reads as a question.
//!
//! What it must never touch: the references a legal question is made of ("Article 370",
//! "15(4)", "Article 243ZH", "the 86th Amendment", "1950", "SCH-7"). Identifiers are long
//! digit runs or fixed letter-digit shapes; references are short.

use std::sync::LazyLock;

use regex::Regex;

/// One kind of identifier and the pattern that finds it. Order matters: longer, more specific
/// shapes run first (a 16-digit card before a 12-digit Aadhaar, an Aadhaar before a phone).
struct Rule {
    placeholder: &'static str,
    pattern: Regex,
}

static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    let rule = |placeholder, pattern: &str| Rule {
        placeholder,
        pattern: Regex::new(pattern).expect("scrub pattern compiles"),
    };
    vec![
        rule("[email]", r"(?i)\b[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}\b"),
        // Card numbers: 16 digits in groups of four.
        rule("[account]", r"\b\d{4}[ -]\d{4}[ -]\d{4}[ -]\d{4}\b"),
        // Aadhaar: 12 digits, often in groups of four; the first digit is 2–9.
        rule("[aadhaar]", r"\b[2-9]\d{3}[ -]?\d{4}[ -]?\d{4}\b"),
        // PAN: five letters, four digits, one letter (ABCDE1234F).
        rule("[pan]", r"(?i)\b[a-z]{5}\d{4}[a-z]\b"),
        // Voter ID (EPIC): three letters and seven digits.
        rule("[voter-id]", r"(?i)\b[a-z]{3}\d{7}\b"),
        // Passport: one letter and seven digits.
        rule("[passport]", r"(?i)\b[a-z]\d{7}\b"),
        // Phone: an Indian mobile (6–9 then nine digits), optionally +91 / 0 first, with
        // spaces or dashes; or a landline with an STD code (0xx-xxxxxxx).
        rule(
            "[phone]",
            r"(?:\+91[ -]?|\b0|\b)[6-9]\d{4}[ -]?\d{5}\b|\b0\d{2,4}[ -]\d{6,8}\b",
        ),
        // Account numbers: any other run of 9 to 18 digits.
        rule("[account]", r"\b\d{9,18}\b"),
        // PIN code: six digits, first 1–9 (a year or an Article number is shorter).
        rule("[pin-code]", r"\b[1-9]\d{2} ?\d{3}\b"),
    ]
});

/// What [`scrub`] removed, by placeholder (never the values themselves).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Scrubbed {
    pub text: String,
    /// Placeholders inserted, in order of the rules ("[phone]", "[email]" …).
    pub removed: Vec<&'static str>,
}

/// The text with every direct identifier replaced by its placeholder.
pub fn scrub(text: &str) -> Scrubbed {
    let mut out = text.to_string();
    let mut removed = Vec::new();
    for rule in RULES.iter() {
        let n = rule.pattern.find_iter(&out).count();
        if n > 0 {
            out = rule
                .pattern
                .replace_all(&out, rule.placeholder)
                .into_owned();
            removed.extend(std::iter::repeat_n(rule.placeholder, n));
        }
    }
    Scrubbed { text: out, removed }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_become_placeholders() {
        let cases = [
            (
                "mail me at ravi.k@example.co.in please",
                "mail me at [email] please",
            ),
            ("call 9876543210", "call [phone]"),
            ("call +91 98765 43210 now", "call [phone] now"),
            ("my number is 098765-43210", "my number is [phone]"),
            ("landline 011-23456789", "landline [phone]"),
            (
                "Aadhaar 2345 6789 0123 was refused",
                "Aadhaar [aadhaar] was refused",
            ),
            ("aadhaar 234567890123", "aadhaar [aadhaar]"),
            ("PAN ABCDE1234F", "PAN [pan]"),
            ("my voter id ABC1234567", "my voter id [voter-id]"),
            ("passport K1234567 seized", "passport [passport] seized"),
            ("account 00123456789 frozen", "account [account] frozen"),
            ("card 4111 1111 1111 1111", "card [account]"),
            (
                "I live at PIN 110001 Delhi",
                "I live at PIN [pin-code] Delhi",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(scrub(input).text, want, "{input}");
        }
        let s = scrub("email a@b.com or call 9876543210");
        assert_eq!(s.removed, vec!["[email]", "[phone]"]);
    }

    #[test]
    fn legal_references_survive() {
        for q in [
            "What does Article 370 say?",
            "Explain 15(4) and 16(4A)",
            "Article 243ZH and Article 21-A",
            "the Constitution (Eighty-sixth Amendment) Act, 2002, w.e.f. 1-4-2010",
            "the 42nd Amendment of 1976",
            "Is the age 25 or 35 for the Lok Sabha?",
            "SCH-7 List I entry 97",
            "within a period of twenty-four hours",
            "Article 31A(1)(a) and 368(2)",
        ] {
            assert_eq!(scrub(q).text, q);
        }
    }
}
