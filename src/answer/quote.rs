//! Quotes: what counts as verbatim, and how a long span is shortened without ceasing to be a
//! substring. Pure.

use sha2::{Digest, Sha256};

/// Whitespace runs (spaces, the PDF's line breaks) become one space; ends are trimmed.
pub fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Typographic quote marks and dashes that a writer (or a model) may use for the PDF's plain
/// ones; folded only for the *comparison*, never in what is shown.
fn fold_typography(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' => '\'',
            '\u{201C}' | '\u{201D}' => '"',
            '\u{2013}' | '\u{2014}' => '-',
            c => c,
        })
        .collect()
}

/// True when `quote` is an exact substring of `text` once whitespace is normalised (and
/// typographic quote marks and dashes folded). An empty quote is never verbatim.
pub fn is_verbatim(quote: &str, text: &str) -> bool {
    let q = fold_typography(&normalise(quote));
    !q.is_empty() && fold_typography(&normalise(text)).contains(&q)
}

/// Where `phrase` sits in `text`, as char offsets of `text`, matching as [`is_verbatim`] does
/// (whitespace runs are one space; typographic marks fold). The first occurrence.
pub fn locate(text: &str, phrase: &str) -> Option<(usize, usize)> {
    let want: Vec<char> = fold_typography(&normalise(phrase)).chars().collect();
    if want.is_empty() {
        return None;
    }
    // The text normalised char by char, remembering each kept char's offset in `text`.
    let mut kept: Vec<(char, usize)> = Vec::new();
    for (i, c) in fold_typography(text).chars().enumerate() {
        if c.is_whitespace() {
            if kept.last().is_some_and(|(k, _)| *k != ' ') {
                kept.push((' ', i));
            }
        } else {
            kept.push((c, i));
        }
    }
    let at = kept
        .windows(want.len())
        .position(|w| w.iter().map(|(c, _)| *c).eq(want.iter().copied()))?;
    Some((kept[at].1, kept[at + want.len() - 1].1 + 1))
}

/// The hex sha256 of a quote's normalised form: what the audit stores instead of the quote.
pub fn sha256(quote: &str) -> String {
    hex::encode(Sha256::digest(normalise(quote).as_bytes()))
}

/// `span` (normalised) cut to at most `max_chars`, at the last clause boundary ("; ", ": ",
/// ", ") or else word boundary before the limit; the flag says whether anything was cut.
/// The result is always a prefix of the normalised span, so it stays verbatim.
pub fn shorten(span: &str, max_chars: usize) -> (String, bool) {
    let s = normalise(span);
    if s.chars().count() <= max_chars {
        return (s, false);
    }
    let byte_limit = s
        .char_indices()
        .nth(max_chars)
        .map(|(i, _)| i)
        .unwrap_or(s.len());
    let head = &s[..byte_limit];
    // Prefer to end where the text itself pauses, if that keeps at least half the budget.
    let min = byte_limit / 2;
    let cut = ["; ", ": ", ", ", " "]
        .iter()
        .find_map(|sep| head.rfind(sep).filter(|&i| i >= min).map(|i| i + 1))
        .unwrap_or(byte_limit);
    (s[..cut].trim_end().to_string(), true)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "(1) No person who is arrested shall be detained in custody\nwithout being informed, as soon as may be, of the grounds for such arrest.";

    #[test]
    fn verbatim_ignores_whitespace_and_typography_but_nothing_else() {
        assert!(is_verbatim(
            "detained in custody without being informed",
            TEXT
        ));
        assert!(is_verbatim("  detained   in custody\nwithout ", TEXT));
        assert!(!is_verbatim("detained in custody without being told", TEXT));
        assert!(!is_verbatim("Detained in custody", TEXT), "case matters");
        assert!(!is_verbatim("", TEXT));
        assert!(!is_verbatim("   ", TEXT));
        assert!(is_verbatim("“word”", "the \"word\" here"));
    }

    #[test]
    fn shortening_keeps_a_verbatim_prefix() {
        let (s, cut) = shorten(TEXT, 70);
        assert!(cut && s.chars().count() <= 70, "{s}");
        assert!(is_verbatim(&s, TEXT));
        assert!(s.ends_with("without"), "{s}");
        let (s, _) = shorten(TEXT, 90);
        assert!(s.ends_with("informed,"), "{s}");
        let (s, cut) = shorten("short", 70);
        assert_eq!((s.as_str(), cut), ("short", false));
    }

    #[test]
    fn locate_finds_char_offsets_across_line_breaks() {
        let (s, e) = locate(TEXT, "detained in custody without").unwrap();
        let found: String = TEXT.chars().skip(s).take(e - s).collect();
        assert_eq!(found, "detained in custody\nwithout");
        assert_eq!(locate(TEXT, "not there"), None);
        assert_eq!(locate(TEXT, "  "), None);
        let t = "“ré” a  b";
        let (s, e) = locate(t, "\"ré\" a b").unwrap();
        assert_eq!((s, e), (0, t.chars().count()));
    }

    #[test]
    fn hashes_ignore_whitespace() {
        assert_eq!(sha256("a  b\nc"), sha256("a b c"));
        assert_ne!(sha256("a b c"), sha256("a b d"));
    }
}
