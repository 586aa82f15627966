//! What the service accepts as text. Every text a client sends (a question, a query, a history
//! turn, a reference, a path parameter) passes [`check_text`] before it reaches a parser, a
//! table or a log line: Postgres rejects NUL in a `text` value with a driver error, and other
//! C0 control characters are never part of a question (they come from binary pasted by
//! mistake or from probes). Tab, newline and carriage return are ordinary whitespace.

use crate::error::{AppError, AppResult};

/// The first character a client's text may not contain, with its char offset.
pub fn forbidden_char(text: &str) -> Option<(usize, char)> {
    text.chars().enumerate().find(|(_, c)| is_forbidden(*c))
}

/// C0 controls other than tab, newline and carriage return, and DEL. (C1 controls and
/// non-characters are left alone: Postgres stores them, and they are rare in real text.)
fn is_forbidden(c: char) -> bool {
    (c.is_ascii_control() && !matches!(c, '\t' | '\n' | '\r')) || c == '\u{7f}'
}

/// `Err(InvalidText)` naming the field, the character and where it is.
pub fn check_text(field: &str, text: &str) -> AppResult<()> {
    match forbidden_char(text) {
        None => Ok(()),
        Some((at, c)) => Err(AppError::InvalidText {
            field: field.to_string(),
            at,
            codepoint: format!("U+{:04X}", c as u32),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_refused_and_whitespace_is_not() {
        assert!(check_text("q", "What is Article 21?\tand\r\nArticle 22?").is_ok());
        assert!(check_text("q", "अनुच्छेद २१ क्या है?").is_ok());
        for bad in [
            "What is Article 21?\u{0}",
            "\u{1b}[31m",
            "a\u{7f}b",
            "\u{8}",
        ] {
            let e = check_text("question", bad).unwrap_err();
            assert!(matches!(e, AppError::InvalidText { .. }), "{bad:?}");
        }
        match check_text("query", "ab\u{0}c").unwrap_err() {
            AppError::InvalidText {
                field,
                at,
                codepoint,
            } => assert_eq!(
                (field.as_str(), at, codepoint.as_str()),
                ("query", 2, "U+0000")
            ),
            e => panic!("{e:?}"),
        }
    }
}
