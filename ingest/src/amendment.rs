//! Amendment footnotes: "1. Ins. by the Constitution (Eighty-sixth
//! Amendment) Act, 2002, s. 2 (w.e.f. 1-4-2010)." → a typed [`AmendmentNote`].
//!
//! Answers cite these notes ("inserted by the 86th Amendment, in force from
//! 1 April 2010"), and a question such as "what did the 44th Amendment
//! change?" is answered by grouping notes on their instrument. So the parser
//! favours fields that group reliably over fields copied verbatim:
//!
//! - Constitution Amendment Acts are rewritten to one canonical title built
//!   from the amendment number ("Constitution (One Hundred and Sixth
//!   Amendment) Act, 2023"), because the PDF spells the same Act several ways
//!   ("One-hundred and Sixth", "One hundred and fourth", "Constitition",
//!   "Amenement", lower-case "constitution").
//! - Other Acts and Orders keep their printed short title and year
//!   ("Madras State (Alteration of Name) Act, 1968") without the Act number
//!   "(53 of 1968)", which some notes print and others omit.
//! - `raw` keeps the whole note as printed, so nothing is lost.
//!
//! A footnote may hold several notes ("Ins. by … (w.e.f. …) and omitted by
//! …", "Subs. by … and further subs. by …", "… This amendment was omitted by
//! …"). Only the first is parsed: it is the one that produced the marked
//! text, and the fields of a second note would otherwise be mixed into it.
//! The first note ends at its effect bracket ("(w.e.f. …)", "(date not
//! notified)", "(with retrospective effect)") or at the first "and further",
//! "and omitted by", "This amendment…" style continuation, whichever is first.
//!
//! "ibid." notes ("Subs. by s. 2, ibid.") name no instrument of their own;
//! they set [`AmendmentNote::ibid`] and [`resolve_ibid`] fills the instrument
//! from the note before, once the caller has the notes in document order.

use crate::refid::{ordinal_from_words, ordinal_words};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

/// What a note did to the text it is attached to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AmendmentKind {
    /// "Ins. by", "has been inserted … by".
    Inserted,
    /// "Subs. by", "shall stand substituted by".
    Substituted,
    /// "Omitted by", "The words "…" omitted by", "deleted by".
    Omitted,
    /// "Rep. by".
    Repealed,
    /// "Added by".
    Added,
    /// "renumbered", "re-numbered", "re-lettered" … "by".
    Renumbered,
    /// "has been amended in its application to … by".
    Amended,
    /// Not an amendment: "See …", "Now …", court rulings, publication notes.
    Note,
}

/// One parsed footnote. See the module docs for how each field is chosen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmendmentNote {
    /// The footnote number printed before the note (numbering restarts on
    /// every page); `None` for unnumbered and continued notes.
    pub marker: Option<u32>,
    pub kind: AmendmentKind,
    /// The Act or Order that made the change, without a leading "the":
    /// "Constitution (Eighty-sixth Amendment) Act, 2002", "C.O. 272".
    pub instrument: Option<String>,
    /// 86 for the Constitution (Eighty-sixth Amendment) Act.
    pub amendment_number: Option<u32>,
    /// The section of the instrument: "s. 2", "s. 29 and Sch.", "s. 13(i)(B)".
    pub section: Option<String>,
    /// The note says "ibid." instead of naming its instrument; after
    /// [`resolve_ibid`] the instrument is the previous note's and this stays
    /// `true` so callers can tell it was inferred.
    pub ibid: bool,
    /// ISO date from "w.e.f. d-m-yyyy": "2010-04-01".
    pub effective_from: Option<String>,
    /// The effect as printed: the date ("1-4-2010", "1 -11-1956"), or the
    /// phrase when there is no date ("date yet to be notified", "with
    /// retrospective effect"), because an answer must not present an
    /// un-notified amendment as law in force.
    pub effective_text: Option<String>,
    /// The footnote text without its leading number, whitespace-normalised.
    pub raw: String,
}

/// Splits a footnote's leading number from its text: "1. Ins.", "1 . Subs.",
/// "1.Ins.", and "2 Ins." (no full stop) are all printed in the 2024 edition.
/// Without a full stop the number must be followed by a capitalised word
/// ("2 Ins."), so a wrapped citation such as "1 S.C.C. 362" or a date such as
/// "31st day of July" is not taken for a numbered note.
pub fn split_footnote_number(text: &str) -> Option<(u32, &str)> {
    let t = text.trim_start();
    let digits_end = t.find(|c: char| !c.is_ascii_digit())?;
    if digits_end == 0 || digits_end > 3 {
        return None;
    }
    let n: u32 = t[..digits_end].parse().ok()?;
    if n == 0 {
        return None;
    }
    let after = &t[digits_end..];
    let after_spaces = after.trim_start();
    if let Some(rest) = after_spaces.strip_prefix('.') {
        let rest = rest.trim_start();
        let first = rest.chars().next()?;
        let starts_note = first.is_alphabetic()
            || matches!(first, '"' | '\u{201c}' | '\u{2018}' | '*' | '[' | '(');
        return starts_note.then_some((n, rest));
    }
    if after.len() == after_spaces.len() {
        // "31st", "2019(": no separator after the digits — unless a note's verb follows, as in
        // p.42's "2Ins. by the Constitution (Eighty-sixth Amendment) Act".
        const VERBS: [&str; 6] = ["Ins.", "Subs.", "Omitted", "Added", "Rep.", "Renumbered"];
        return VERBS
            .iter()
            .any(|v| after.starts_with(v))
            .then_some((n, after));
    }
    let mut chars = after_spaces.chars();
    let capital = chars.next().is_some_and(char::is_uppercase);
    let lower_next = chars.next().is_some_and(char::is_lowercase);
    (capital && lower_next).then_some((n, after_spaces))
}

/// The number of a Constitution Amendment Act from its ordinal title words:
/// "Eighty-sixth" → 86, "One Hundred and Sixth" → 106, "First" → 1. Also
/// accepts the variant spellings printed in the PDF ("One-hundred and
/// Sixth", "One hundred and fourth") and "86th".
pub fn ordinal_amendment_number(words: &str) -> Option<u32> {
    ordinal_from_words(words)
}

/// Parses one footnote; `text` may start with its number ("1. Ins. by …").
/// Never fails: text that is not an amendment comes back as
/// [`AmendmentKind::Note`] with whatever could still be read (an instrument
/// cited by a "See …" note, a w.e.f. date).
pub fn parse_footnote(text: &str) -> AmendmentNote {
    let (marker, body) = match split_footnote_number(text) {
        Some((n, rest)) => (Some(n), rest),
        None => (None, text),
    };
    let raw = body.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut parsed = parse_body(&raw, false);
    // One footnote (p. 288) is letter-spaced: "Ad d e d by th e C on st itut
    // io n (On e Hu n d red th Ame n d ment ) Ac t , 20 1 5". With the spaces
    // squeezed out the constitutional-amendment pattern still reads it.
    if parsed.kind == AmendmentKind::Note && parsed.instrument.is_none() && letter_spaced(&raw) {
        let squeezed: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
        let alt = parse_body(&squeezed, true);
        if alt.kind != AmendmentKind::Note || alt.instrument.is_some() {
            parsed = alt;
        }
    }
    AmendmentNote {
        marker,
        kind: parsed.kind,
        instrument: parsed.instrument,
        amendment_number: parsed.amendment_number,
        section: parsed.section,
        ibid: parsed.ibid,
        effective_from: parsed.effective_from,
        effective_text: parsed.effective_text,
        raw,
    }
}

/// Fills the instrument of "ibid." notes from the closest earlier note that
/// has one. `notes` must be in document order across pages, because a note
/// at the top of a page can be "ibid." to the last note of the page before.
/// A compound earlier note ("Subs. by the 42nd … and further subs. by the
/// 44th …") contributes its first instrument, which is the one the PDF's
/// following "s. 50, ibid." notes refer to (pp. 244, 273).
pub fn resolve_ibid(notes: &mut [AmendmentNote]) {
    let mut last: Option<(String, Option<u32>)> = None;
    for note in notes.iter_mut() {
        if note.ibid && note.instrument.is_none() {
            if let Some((instrument, number)) = &last {
                note.instrument = Some(instrument.clone());
                note.amendment_number = *number;
            }
        }
        if let Some(instrument) = &note.instrument {
            last = Some((instrument.clone(), note.amendment_number));
        }
    }
}

#[derive(Debug)]
struct Parsed {
    kind: AmendmentKind,
    instrument: Option<String>,
    amendment_number: Option<u32>,
    section: Option<String>,
    ibid: bool,
    effective_from: Option<String>,
    effective_text: Option<String>,
}

fn re(pattern: &str) -> Regex {
    match Regex::new(pattern) {
        Ok(r) => r,
        Err(e) => panic!("invalid built-in pattern {pattern:?}: {e}"),
    }
}

/// Notes that open like this are commentary even if they contain a verb
/// ("See the Adaptation of Laws Order, 1950, … as amended by …").
static LEADING_NOTE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^(?:\*+\s*)?(?:See\b|Now\b|In exercise\b|Published\b|Corrected\b|Vide\b)")
});

/// The verb of a note. Full words need a trailing boundary so that
/// "subsequently" is not read as "subs".
static VERB: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(substituted\b|subs(?:\.|\b)|sub\.|ins\.{1,2}|inserted\b|omitted\b|deleted\b|rep\.|repealed\b|added\b|re-?numbered\b|re-?lettered\b|amended\b)",
    )
});

/// The same verbs for letter-spaced notes squeezed into one run of letters
/// ("Addedbythe…"), where no word boundaries are left.
static VERB_SQUEEZED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(substituted|subs\.|sub\.|ins\.{1,2}|inserted|omitted|deleted|rep\.|repealed|added|re-?numbered|re-?lettered|amended)",
    )
});

static BY: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)\bby\b"));

/// "(w.e.f. …)", "(date yet to be notified)", "(with retrospective effect)",
/// "(retrospectively)", "(not enforced)".
static EFFECT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\(\s*(?:w\.?\s*e\.?\s*f\b\.?[^)]*|date[^)]*|with\s+retrospective\s+effect|retrospectively|(?:which\s+was\s+)?not\s+enforced)\s*\)",
    )
});

static WEF_DATE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)w\.?\s*e\.?\s*f\b\s*\.?\s*(?P<d>\d{1,2})\s*-\s*(?P<m>\d{1,2})\s*-\s*(?P<y>\d{4})")
});

/// Where a second note starts inside the same footnote.
static BOUNDARY: LazyLock<Regex> = LazyLock::new(|| {
    re(concat!(
        r"\s+and\s+(?:further|subsequently|thereafter|later|then)\b",
        r"|\s+and\s+(?:ins|subs?|omitted|added|rep|renumbered|re-numbered)\b",
        r"|[.;]\s+(?:\*+\s*)?(?:This|That|These|See|Now|For|The|It|Section|Rep|Sub|Ins|Omitted|Also|Paragraph|Entry|Entries|Cl|Cls|Art|Arts|In|And|Subsequently|Further)\b",
        r"|\s\*+\s*(?:Now|See|Article|The|Paragraph|Entry)\b",
    ))
});

/// A Constitution Amendment Act, tolerant of the PDF's misspellings and of
/// squeezed letter-spaced text.
static CONSTITUTION_AMENDMENT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"[Cc]onsti[a-z]*\s*\(\s*(?P<ord>[A-Za-z][A-Za-z\s\-]*?)\s*Amen[a-z]*\s*\)\s*Act\s*,?\s*(?P<year>\d{4})",
    )
});

/// Any other Act, Order or Rules with its year, introduced by "by".
/// Bracketed words are allowed ("(Alteration of Name)") but not brackets with
/// digits, which are Act numbers and w.e.f. dates. "the the" is printed once.
static OTHER_INSTRUMENT_BY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bby\s+(?:the\s+)*(?P<name>[A-Z](?:[A-Za-z.,'\u{2019}\- ]|\([^()0-9]*\))*?\b(?:Act|Order|Rules|Ordinance|Regulations?))\s*,?\s*(?P<year>\d{4})\b",
    )
});

/// The same introduced by "of" ("s. 74 and Fourth Sch. of the Assam
/// Reorganisation (Meghalaya) Act"), "vide" or "See". Only tried when no "by"
/// form matches, because "the State of Assam by the Sixth Schedule to the
/// Constitution (Amendment) Act" would otherwise start at "of Assam".
static OTHER_INSTRUMENT_OF: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:\bof|\bvide|\b[Ss]ee)\s+(?:the\s+)*(?P<name>[A-Z](?:[A-Za-z.,'\u{2019}\- ]|\([^()0-9]*\))*?\b(?:Act|Order|Rules|Ordinance|Regulations?))\s*,?\s*(?P<year>\d{4})\b",
    )
});

/// "North- Eastern": a hyphen left hanging by a line break.
static HANGING_HYPHEN: LazyLock<Regex> = LazyLock::new(|| re(r"(\w)- (\w)"));

static CONSTITUTION_ORDER: LazyLock<Regex> =
    LazyLock::new(|| re(r"\bby\s+(?P<name>C\.\s?O\.\s?\d+)"));

static NOTIFICATION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bby\s+(?:the\s+)?(?P<name>Government\s+of\s+[A-Z][A-Za-z ]*?\s+Notification\s+No\.\s*[A-Za-z0-9/.\-]+(?:\s+\d+/[\d/]+)?)",
    )
});

static SECTION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bs\.\s*(?P<num>\d+[A-Z]?)(?P<subs>(?:\s*,?\s*\((?:[ivxlc]+|[A-Za-z]|\d{1,2})\))*)(?P<and>\s+and\s+\([a-z]\))?(?P<sch>\.?\s*,?\s*and\s+(?:(?P<schord>[A-Z][a-z]+)\s+)?[Ss]ch\.?)?",
    )
});

static IBID: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)\bibid\b"));

static PAREN_GROUP: LazyLock<Regex> = LazyLock::new(|| re(r"\(([^)]*)\)"));

/// A verb only counts when "by" follows it closely, within the same phrase:
/// "the following proviso were added to paragraph (i) …" (p. 266) is
/// commentary, not an amendment.
const VERB_TO_BY_MAX: usize = 100;

fn parse_body(s: &str, squeezed: bool) -> Parsed {
    let masked = mask_quotes(s);
    let (kind, verb_end) = find_verb(s, &masked, squeezed);
    let (seg_end, effect) = first_note_end(&masked, verb_end);
    let mseg = &masked[..seg_end];
    let after_verb = &mseg[verb_end..];

    let (instrument, amendment_number) = find_instrument(s, mseg, verb_end);
    let section = SECTION.captures(after_verb).map(|c| {
        let mut out = format!("s. {}", &c["num"]);
        if let Some(subs) = c.name("subs") {
            for g in PAREN_GROUP.captures_iter(&s[verb_end + subs.start()..verb_end + subs.end()]) {
                out.push('(');
                out.push_str(g[1].trim());
                out.push(')');
            }
        }
        if let Some(a) = c.name("and") {
            out.push_str(" and ");
            out.push_str(a.as_str().trim_start().trim_start_matches("and").trim());
        }
        if c.name("sch").is_some() {
            out.push_str(" and ");
            if let Some(ord) = c.name("schord") {
                out.push_str(ord.as_str());
                out.push(' ');
            }
            out.push_str("Sch.");
        }
        out
    });
    let ibid = IBID.is_match(after_verb);

    let (effective_from, effective_text) = match effect {
        Some(range) => {
            let text = &s[range.clone()];
            match WEF_DATE.captures(text) {
                Some(c) => {
                    let d = c.name("d").map_or(0, |m| m.start());
                    let y = c.name("y").map_or(0, |m| m.end());
                    let printed = text[d..y].to_string();
                    let iso = iso_date(&c["d"], &c["m"], &c["y"]);
                    (iso, Some(printed))
                }
                None => {
                    let first = EFFECT.find(text).map_or(text, |m| m.as_str());
                    let inner = first.trim_start_matches('(').trim_end_matches(')');
                    let phrase = inner.split_whitespace().collect::<Vec<_>>().join(" ");
                    (None, Some(phrase))
                }
            }
        }
        None => (None, None),
    };

    Parsed {
        kind,
        instrument,
        amendment_number,
        section,
        ibid,
        effective_from,
        effective_text,
    }
}

/// The note's verb and the byte offset just after it (0 for a plain note).
fn find_verb(s: &str, masked: &str, squeezed: bool) -> (AmendmentKind, usize) {
    if LEADING_NOTE.is_match(masked) {
        return (AmendmentKind::Note, 0);
    }
    let verbs = if squeezed { &*VERB_SQUEEZED } else { &*VERB };
    for m in verbs.find_iter(masked) {
        let window_end = (m.end() + VERB_TO_BY_MAX).min(masked.len());
        let Some(window) = masked.get(m.end()..window_end) else {
            continue;
        };
        let by_at = if squeezed {
            window.to_ascii_lowercase().find("by")
        } else {
            BY.find(window).map(|b| b.start())
        };
        let Some(by_at) = by_at else { continue };
        let between = &s[m.end()..m.end() + by_at];
        let crosses_phrase = between
            .chars()
            .any(|c| matches!(c, ':' | ';' | '\u{2014}' | '"' | '\u{201c}' | '\u{201d}'));
        if crosses_phrase {
            continue;
        }
        return (verb_kind(m.as_str()), m.end());
    }
    (AmendmentKind::Note, 0)
}

fn verb_kind(verb: &str) -> AmendmentKind {
    let v = verb.to_ascii_lowercase();
    if v.starts_with("ins") {
        AmendmentKind::Inserted
    } else if v.starts_with("sub") {
        AmendmentKind::Substituted
    } else if v.starts_with("omitted") || v.starts_with("deleted") {
        AmendmentKind::Omitted
    } else if v.starts_with("rep") {
        AmendmentKind::Repealed
    } else if v.starts_with("added") {
        AmendmentKind::Added
    } else if v.contains("numbered") || v.contains("lettered") {
        AmendmentKind::Renumbered
    } else {
        AmendmentKind::Amended
    }
}

/// Where the first note ends, and the byte range of its effect brackets (one
/// or more adjacent ones, as in "(retrospectively) (w.e.f. 17-6-1995)").
fn first_note_end(masked: &str, from: usize) -> (usize, Option<std::ops::Range<usize>>) {
    let rest = &masked[from..];
    let boundary = BOUNDARY.find(rest).map(|m| from + m.start());
    let effect = EFFECT
        .find(rest)
        .map(|m| (from + m.start(), from + m.end()));
    match (effect, boundary) {
        (Some((start, mut end)), b) if b.is_none_or(|b| start < b) => {
            while let Some(m) = EFFECT.find(&masked[end..]) {
                if !masked[end..end + m.start()].trim().is_empty() {
                    break;
                }
                end += m.end();
            }
            (end, Some(start..end))
        }
        (_, Some(b)) => (b, None),
        (_, None) => (masked.len(), None),
    }
}

/// The earliest instrument named after the verb, and the amendment number
/// when it is a Constitution Amendment Act.
fn find_instrument(s: &str, mseg: &str, from: usize) -> (Option<String>, Option<u32>) {
    let hay = &mseg[from..];
    let mut best: Option<(usize, String, Option<u32>)> = None;
    let mut consider = |start: usize, name: String, number: Option<u32>| {
        if best.as_ref().is_none_or(|(b, _, _)| start < *b) {
            best = Some((start, name, number));
        }
    };
    if let Some(c) = CONSTITUTION_AMENDMENT.captures(hay) {
        let start = c.get(0).map_or(0, |m| m.start());
        let number = ordinal_amendment_number(&c["ord"]);
        if let (Some(n), Some(title)) = (number, number.and_then(ordinal_words)) {
            consider(
                start,
                format!("Constitution ({title} Amendment) Act, {}", &c["year"]),
                Some(n),
            );
        }
    }
    let other = OTHER_INSTRUMENT_BY
        .captures(hay)
        .or_else(|| OTHER_INSTRUMENT_OF.captures(hay));
    let candidates = [
        other,
        CONSTITUTION_ORDER.captures(hay),
        NOTIFICATION.captures(hay),
    ];
    for c in candidates.into_iter().flatten() {
        let Some(name) = c.name("name") else { continue };
        let printed = &s[from + name.start()..from + name.end()];
        let mut title = printed.split_whitespace().collect::<Vec<_>>().join(" ");
        title = HANGING_HYPHEN.replace_all(&title, "$1-$2").into_owned();
        if let Some(year) = c.name("year") {
            title = format!("{}, {}", title.trim_end_matches(','), year.as_str());
        }
        consider(name.start(), title, None);
    }
    match best {
        Some((_, name, number)) => (Some(name), number),
        None => (None, None),
    }
}

/// Hides quoted text ("for "…"", "The words "…" omitted") behind `_` of the
/// same byte length, so that words inside quotations are never taken for the
/// note's own verb or instrument while offsets stay valid for `s`. An
/// unclosed quotation (one that runs onto the next page) is left visible.
pub(crate) fn mask_quotes(s: &str) -> String {
    let mut out = s.to_string();
    for (start, end, _) in quotations(s).into_iter().rev() {
        out.replace_range(start..end, &"_".repeat(end - start));
    }
    out
}

/// Quotations in a footnote: (byte offset of the opening mark, byte offset past the closing
/// mark, the quoted words). "…" and ‘…’ pair as printed; an unclosed one is not returned.
pub(crate) fn quotations(raw: &str) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    let mut open: Option<(usize, char)> = None;
    for (i, c) in raw.char_indices() {
        match open {
            None => match c {
                '"' | '\u{201c}' => open = Some((i, '"')),
                '\u{2018}' => open = Some((i, '\'')),
                _ => {}
            },
            Some((start, kind)) => {
                let closes = match kind {
                    '"' => matches!(c, '"' | '\u{201d}'),
                    _ => c == '\u{2019}',
                };
                if closes {
                    let inner = start + raw[start..].chars().next().map_or(1, char::len_utf8);
                    out.push((start, i + c.len_utf8(), &raw[inner..i]));
                    open = None;
                }
            }
        }
    }
    out
}

/// Whether most words are one- or two-letter fragments, as in a
/// letter-spaced line.
fn letter_spaced(s: &str) -> bool {
    let words: Vec<&str> = s.split_whitespace().collect();
    let fragments = words
        .iter()
        .filter(|w| w.len() <= 2 && w.chars().all(char::is_alphabetic))
        .count();
    words.len() >= 6 && fragments * 10 >= words.len() * 4
}

fn iso_date(d: &str, m: &str, y: &str) -> Option<String> {
    let (d, m, y): (u32, u32, u32) = (d.parse().ok()?, m.parse().ok()?, y.parse().ok()?);
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    ((1..=days).contains(&d) && (1800..=2200).contains(&y)).then(|| format!("{y:04}-{m:02}-{d:02}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> AmendmentNote {
        parse_footnote(s)
    }

    const SEVENTH: &str = "Constitution (Seventh Amendment) Act, 1956";
    const FORTY_FOURTH: &str = "Constitution (Forty-fourth Amendment) Act, 1978";

    #[test]
    fn inserted_86th_amendment_p42() {
        let n = parse("2 Ins. by the Constitution (Eighty-sixth Amendment) Act, 2002, s. 2 (w.e.f. 1-4-2010).");
        assert_eq!(
            n,
            AmendmentNote {
                marker: Some(2),
                kind: AmendmentKind::Inserted,
                instrument: Some("Constitution (Eighty-sixth Amendment) Act, 2002".into()),
                amendment_number: Some(86),
                section: Some("s. 2".into()),
                ibid: false,
                effective_from: Some("2010-04-01".into()),
                effective_text: Some("1-4-2010".into()),
                raw: "Ins. by the Constitution (Eighty-sixth Amendment) Act, 2002, s. 2 (w.e.f. 1-4-2010).".into(),
            }
        );
    }

    #[test]
    fn substituted_with_quoted_words_p39() {
        let n = parse(
            "1. Subs. by the Constitution (Seventh Amendment) Act, 1956, s. 29 and Sch., for \"under any \
             State specified in the First Schedule or any local or other authority within its territory, \
             any requirement as to residence within that State\" (w.e.f. 1-11-1956).",
        );
        assert_eq!(n.marker, Some(1));
        assert_eq!(n.kind, AmendmentKind::Substituted);
        assert_eq!(n.instrument.as_deref(), Some(SEVENTH));
        assert_eq!(n.amendment_number, Some(7));
        assert_eq!(n.section.as_deref(), Some("s. 29 and Sch."));
        assert_eq!(n.effective_from.as_deref(), Some("1956-11-01"));
    }

    #[test]
    fn the_words_omitted_p34() {
        let n = parse(
            "2. The words and letters \"specified in Part A or Part B of the First Schedule\" omitted by \
             the Constitution (Seventh Amendment) Act, 1956, s. 29 and Sch. (w.e.f. 1-11-1956).",
        );
        assert_eq!(n.kind, AmendmentKind::Omitted);
        assert_eq!(n.instrument.as_deref(), Some(SEVENTH));
        assert_eq!(n.section.as_deref(), Some("s. 29 and Sch."));
        // Quoted words that look like a verb do not count.
        let n = parse(
            "2. The words \"Subject to the provisions of para. 4 of the Tenth Schedule,\" omitted by the \
             Constitution (Thirty-sixth Amendment) Act, 1975, s. 5 (w.e.f. 26-4-1975).",
        );
        assert_eq!(n.kind, AmendmentKind::Omitted);
        assert_eq!(n.amendment_number, Some(36));
    }

    #[test]
    fn footnote_numbers() {
        assert_eq!(split_footnote_number("1. Ins. by"), Some((1, "Ins. by")));
        assert_eq!(split_footnote_number("1 . Subs. by"), Some((1, "Subs. by")));
        assert_eq!(split_footnote_number("2 Ins. by"), Some((2, "Ins. by")));
        assert_eq!(split_footnote_number("1.Ins. by"), Some((1, "Ins. by")));
        assert_eq!(
            split_footnote_number("  10. Ins. by"),
            Some((10, "Ins. by"))
        );
        assert_eq!(split_footnote_number("2. ins. by"), Some((2, "ins. by")));
        assert_eq!(
            split_footnote_number("1. **Entry 15"),
            Some((1, "**Entry 15"))
        );
        assert_eq!(split_footnote_number("4 Ins. by"), Some((4, "Ins. by")));
        // Not numbered notes.
        assert_eq!(
            split_footnote_number("1 S.C.C. 362, the Supreme Court"),
            None
        );
        assert_eq!(split_footnote_number("31st day of July, 2015"), None);
        assert_eq!(split_footnote_number("2019 (34 of 2019)"), None);
        assert_eq!(split_footnote_number("Ins. by"), None);
        assert_eq!(split_footnote_number("1.5 per cent"), None);
        assert_eq!(split_footnote_number("0. Ins."), None);
        assert_eq!(split_footnote_number("12"), None);
        assert_eq!(split_footnote_number("3 ins. by"), None);
    }

    #[test]
    fn odd_numbering_and_spacing() {
        let n = parse("1 . Subs. by the Constitution (First Amendment) Act, 1951, s. 3, for certain words\n  (w.e.f. 18-6-1951).");
        assert_eq!(n.marker, Some(1));
        assert_eq!(n.kind, AmendmentKind::Substituted);
        assert_eq!(n.amendment_number, Some(1));
        assert_eq!(n.section.as_deref(), Some("s. 3"));
        assert_eq!(n.effective_from.as_deref(), Some("1951-06-18"));
        assert_eq!(
            n.raw,
            "Subs. by the Constitution (First Amendment) Act, 1951, s. 3, for certain words (w.e.f. 18-6-1951)."
        );
        // p.142: unnumbered stub with a stray space in the date.
        let n = parse("Omitted by the Constitution (Seventh Amendment) Act, 1956, s. 29 and Sch. (w.e.f. 1 -11-1956)");
        assert_eq!(n.marker, None);
        assert_eq!(n.kind, AmendmentKind::Omitted);
        assert_eq!(n.effective_from.as_deref(), Some("1956-11-01"));
        assert_eq!(n.effective_text.as_deref(), Some("1 -11-1956"));
        // p.148, p.285: spaces after the hyphen; "w.e.f" without its last dot; "(w.e.f . …)".
        let n = parse("2. Subs. by the Constitution (Seventh Amendment) Act, 1956, s. 17, for art. 240 (w.e.f. 1-11- 1956).");
        assert_eq!(n.effective_from.as_deref(), Some("1956-11-01"));
        let n = parse("1. Subs. by the Constitution (Thirty-ninth Amendment) Act, 1975, s. 2 (w.e.f 10-8-1975) and further subs. by the Constitution (Forty-fourth Amendment) Act, 1978, s. 10. (w.e.f. 20-6-1979).");
        assert_eq!(n.effective_from.as_deref(), Some("1975-08-10"));
        assert_eq!(n.amendment_number, Some(39));
        let n = parse("Paragraph 10 has been amended in its application to the State of Assam by the Sixth Schedule to the Constitution (Amendment) Act, 2003 (44 of 2003), s. 2 (w.e.f . 7-9-2003), so as to insert the following");
        assert_eq!(n.effective_from.as_deref(), Some("2003-09-07"));
        let n = parse("7. Ins. by the Constitution (Forty-second Amendment) Act, 1976, s. 5 (w.e.f. 03-01-1977).");
        assert_eq!(n.effective_from.as_deref(), Some("1977-01-03"));
        assert_eq!(n.effective_text.as_deref(), Some("03-01-1977"));
    }

    #[test]
    fn kinds_from_real_notes() {
        let cases = [
            ("1. Added by the Constitution (First Amendment) Act, 1951, s. 2 (w.e.f. 18-6-1951).", AmendmentKind::Added, Some(1)),
            ("2. Cl. (3) renumbered as cl. (10) by the Constitution (Sixty-fifth Amendment) Act, 1990, s. 2 (w.e.f. 12-3-1992).", AmendmentKind::Renumbered, Some(65)),
            ("3. Art. 368 re-numbered as cl. (2) thereof by s. 3, ibid. (w.e.f. 5-11-1971).", AmendmentKind::Renumbered, None),
            ("2. Sub-clause (h) re-lettered as sub-clause (i) by s. 2, ibid. (w.e.f. 15-5-1994).", AmendmentKind::Renumbered, None),
            ("1. Entries 8 to 14 renumbered as entries 9 to 15 by the Bombay Reorganisation Act, 1960 (11 of 1960), s. 4 (w.e.f. 1-5-1960).", AmendmentKind::Renumbered, None),
            ("2. Sub-clause (f) omitted by s.2, ibid. (w.e.f. 20-6-1979).", AmendmentKind::Omitted, None),
            ("1. Proviso omitted by s.2, ibid. (w.e.f. 20-12-1988).", AmendmentKind::Omitted, None),
            ("1. Certain words Omitted by the constitution (Seventh Amendment) Act, 1956, s. 29 and Sch., ibid, (w.e.f. 1-11-1956).", AmendmentKind::Omitted, Some(7)),
            ("1. **Entry 15 relating to Jammu and Kashmir deleted by the Jammu and Kashmir Reorganisation Act, 2019 (34 of 2019), s. 6 (w.e.f. 31-10-2019).", AmendmentKind::Omitted, None),
            ("2. Rep. by the Competition Act, 2002 (12 of 2003) s. 66 (w.e.f. 1-9-2009).", AmendmentKind::Repealed, None),
            ("1. Sub. by the Government of Union Territory (Amendment) Act, 1971 (83 of 1971), s. 13 for paragraph 20A (w.e.f. 16-2-1972).", AmendmentKind::Substituted, None),
            ("1. Subs. By the Constitution (Fifty-first Amendment) Act, 1984, s. 2, for sub-clause (b) (w.e.f. 16-6-1986).", AmendmentKind::Substituted, Some(51)),
            ("3. Ins.by the Constitution (Forty-sixth Amendment) Act, 1982, s. 5 (w.e.f. 2-2-1983).", AmendmentKind::Inserted, Some(46)),
            ("2. Entries 67 and 86 ins.. by the Constitution (Thirty-fourth Amendment) Act, 1974, s. 2 (w.e.f. 7-9-1974).", AmendmentKind::Inserted, Some(34)),
            ("1. Paragraph 20BA has been inserted in its application to the State of Assam by the Sixth Schedule to the Constitution (Amendment) Act, 1995 (42 of 1995), s. 2 (w.e.f. 12-9-1995).", AmendmentKind::Inserted, None),
            ("2. Paragraph 1 has been amended in its application to the State of Assam by the Sixth Schedule to the Constitution (Amendment) Act, 2003 (44 of 2003), s. 2, so as to insert the following proviso after sub-paragraph (2), namely :—", AmendmentKind::Amended, None),
            ("1. Tenth Schedule added by the Constitution (Fifty-second Amendment) Act, 1985, s. 6 (w.e.f. 1-3-1985).", AmendmentKind::Added, Some(52)),
            ("1. Fourth Schedule Subs. by the Constitution (Seventh Amendment) Act, 1956, s. 3(2), for \u{2018}Fourth Schedule\u{2019} (w.e.f. 1-11-1956).", AmendmentKind::Substituted, Some(7)),
        ];
        for (text, kind, number) in cases {
            let n = parse(text);
            assert_eq!(n.kind, kind, "{text}");
            assert_eq!(n.amendment_number, number, "{text}");
        }
    }

    #[test]
    fn notes_that_are_not_amendments() {
        for text in [
            "1. See notifin No. S.O. 2297, dated the 3rd November, 1958, Gazette of India, Extraordinary, Pt. II, Sec. 3 (ii), p. 1315, as amended from time to time.",
            "See Appendix II.",
            "* Now Puducherry vide the Pondicherry (Alteration of Name) Act, 2006 (44 of 2006), s. 3 (w.e.f. 1-10-2006).",
            "6. The words in italics struck down by the Supreme Court in Kesavananda Bharati vs. State of Kerala, AIR 1973, SC 1461.",
            "1 S.C.C. 362, the Supreme Court declared cl. (5) of art. 371D along with the proviso to be unconstitutional and void.",
            "1.Published with the Ministry of Law and Justice, (Legislative Department) notification No. G.S.R. 551 (E), dated the 5th August, 2019, Gazette of India, Extraordinary, Part II, Section 3, Sub-section (i).",
            "In exercise of the powers conferred by clause (3) of article 370 read with clause (1) of article 370 of the Constitution of India, the President, on the recommendation of Parliament, is pleased to declare that",
            // p.266: "were added to" has no "by" after it.
            "1. Paragraph 2 of the Constitution (Removal of Difficulties) Order No. X provides (w.e.f. 1-12-1963) that article 371A of the Constitution of India shall have effect as if the following proviso were added to paragraph (i) of sub-clause (e) of clause (2) thereof, namely:\u{2014} \"Provided that the Governor may",
            "* Paragraph 7 declared invalid for want of ratification in accordance with the proviso to clause (2) of article 368 as per majority opinion in Kihoto Hollohon Vs. Zachilhu and Others A.I.R. 1993 SC 412.",
        ] {
            assert_eq!(parse(text).kind, AmendmentKind::Note, "{text}");
        }
        let n = parse("2. See the Constitution (Scheduled Castes) Order, 1950 (C.O. 19), the Constitution (Scheduled Castes) (Union Territories) Order, 1951 (C.O. 32)");
        assert_eq!(n.kind, AmendmentKind::Note);
        assert_eq!(
            n.instrument.as_deref(),
            Some("Constitution (Scheduled Castes) Order, 1950")
        );
        let n = parse("* Now Puducherry vide the Pondicherry (Alteration of Name) Act, 2006 (44 of 2006), s. 3 (w.e.f. 1-10-2006).");
        assert_eq!(
            n.instrument.as_deref(),
            Some("Pondicherry (Alteration of Name) Act, 2006")
        );
        assert_eq!(n.effective_from.as_deref(), Some("2006-10-01"));
    }

    #[test]
    fn other_instruments() {
        let n = parse("4. Subs. by the Madras State (Alteration of Name) Act, 1968 (53 of 1968), s. 4, for \"Madras\" (w.e.f. 14-1-1969).");
        assert_eq!(
            n.instrument.as_deref(),
            Some("Madras State (Alteration of Name) Act, 1968")
        );
        assert_eq!(n.amendment_number, None);
        assert_eq!(n.section.as_deref(), Some("s. 4"));
        let n = parse("5. Added by the Constitution (Application to Jammu and Kashmir) Order, 2019 (C.O. 272) (w.e.f. 5-8-2019), for the text of this C.O., see Appendix II.");
        assert_eq!(n.kind, AmendmentKind::Added);
        assert_eq!(
            n.instrument.as_deref(),
            Some("Constitution (Application to Jammu and Kashmir) Order, 2019")
        );
        assert_eq!(n.effective_from.as_deref(), Some("2019-08-05"));
        let n = parse("1. Subs. by C.O. 272, dated the 5-8-2019, s.2. for \u{201c}Constituent Assembly of the State referred to in clause (2)\u{201d} (w.e.f. 5-8-2019).");
        assert_eq!(n.instrument.as_deref(), Some("C.O. 272"));
        assert_eq!(n.section.as_deref(), Some("s. 2"));
        assert_eq!(n.effective_from.as_deref(), Some("2019-08-05"));
        let n = parse("3. Subs. by the Repealing and Amending Act, 1974 (56 of 1974), s. 4, for \"cattle ponds\" (w.e.f. 20-12-1974).");
        assert_eq!(
            n.instrument.as_deref(),
            Some("Repealing and Amending Act, 1974")
        );
        let n = parse("4. Subs. by the Goa, Daman and Diu Reorganisation Act, 1987 (18 of 1987) s. 63, for \"for any of the Union territories of Goa, Daman and Diu and Pondicherry\" (w.e.f. 30-5-1987).");
        assert_eq!(
            n.instrument.as_deref(),
            Some("Goa, Daman and Diu Reorganisation Act, 1987")
        );
        assert_eq!(n.section.as_deref(), Some("s. 63"));
        let n = parse("2. Ins. by the Fifth Schedule to the Constitution (Amendment) Act, 1976 (101 of 1976), s. 2 (w.e.f. 7-9-1976).");
        assert_eq!(
            n.instrument.as_deref(),
            Some("Fifth Schedule to the Constitution (Amendment) Act, 1976")
        );
        assert_eq!(n.amendment_number, None);
        let n = parse("1. Second proviso omitted by s. 74 and Fourth Sch. of the Assam Reorganisation (Meghalaya) Act, 1969 (55 of 1969) (w.e.f. 2-4-1970).");
        assert_eq!(n.kind, AmendmentKind::Omitted);
        assert_eq!(
            n.instrument.as_deref(),
            Some("Assam Reorganisation (Meghalaya) Act, 1969")
        );
        assert_eq!(n.section.as_deref(), Some("s. 74 and Fourth Sch."));
        let n = parse("1. Subs. by the Government of Assam Notification No. TAD/R/115/74/47, dated 14-10-1976 for \"The Mikir Hills District\".");
        assert_eq!(
            n.instrument.as_deref(),
            Some("Government of Assam Notification No. TAD/R/115/74/47")
        );
        let n = parse("5. Subs. by the Government of Meghalaya Notification No. DCA 31/72/11, dated the 14th June, 1973, Gazette of Meghalaya, Pt. VA, dated 23-6-1973, p. 200.");
        assert_eq!(
            n.instrument.as_deref(),
            Some("Government of Meghalaya Notification No. DCA 31/72/11")
        );
        // p.311: "of Assam by the …" must not start the title at "Assam".
        let n = parse("2. Paragraph 1 has been amended in its application to the State of Assam by the Sixth Schedule to the Constitution (Amendment) Act, 2003 (44 of 2003), s. 2, so as to insert the following proviso");
        assert_eq!(
            n.instrument.as_deref(),
            Some("Sixth Schedule to the Constitution (Amendment) Act, 2003")
        );
        // p.288 prints "the the"; p.322 breaks "North- Eastern" over a line.
        let n = parse("1. Entries 8 to 14 renumbered as entries 9 to 15 by the the Bombay Reorganisation Act, 1960 (11 of 1960), s. 4 (w.e.f. 1-5-1960).");
        assert_eq!(
            n.instrument.as_deref(),
            Some("Bombay Reorganisation Act, 1960")
        );
        let n = parse("4. The words \"of Assam or Meghalaya, as the case may be,\" omitted by the North- Eastern Areas (Reorganisation) Act, 1971 (81 of 1971), s. 71(i) and Eighth Sch. (w.e.f. 21-1-1972).");
        assert_eq!(
            n.instrument.as_deref(),
            Some("North-Eastern Areas (Reorganisation) Act, 1971")
        );
        assert_eq!(n.section.as_deref(), Some("s. 71(i) and Eighth Sch."));
        let n = parse("4. Subs. by the Andhra Pradesh Reorganisation Act, 2014, (6 of 2014), s. 97, for \u{201c}the State of Andhra Pradesh\u{201d} (w.e.f. 2-6-2014).");
        assert_eq!(
            n.instrument.as_deref(),
            Some("Andhra Pradesh Reorganisation Act, 2014")
        );
        assert_eq!(n.section.as_deref(), Some("s. 97"));
    }

    #[test]
    fn constitution_titles_are_canonical_despite_misspellings() {
        for (text, number, year) in [
            ("2. ins. by the Constitution (One-hundred and Sixth Amendment) Act, 2023, s. 2 (date yet to be notified).", 106, 2023),
            ("4. Subs. by the Constitution (One hundred and fourth Amendment) Act, 2019, s. 2, for marginal heading (w.e.f. 25-1-2020).", 104, 2019),
            ("1. Ins. by the Constitition (Seventy-second Amendment) Act, 1992, s. 2 (w.e.f. 5-12-1992).", 72, 1992),
            ("3. Ins. by the Constitutiton (Seventh Amendment) Act, 1956, s. 29 and Sch. (w.e.f. 1-11-1956).", 7, 1956),
            ("5. Ins. by the Constitution (Thirty-sixth Amenement) Act, 1975, s. 4 (w.e.f. 26-4-1975).", 36, 1975),
            ("1. Subs. by the Constitution (Eightieth Amendment) Act, 2000. s. 2, for cls. (1) and (2) (w.e.f. 9-6-2000).", 80, 2000),
            ("3. Cl. (26C) was ins. by the Constitution (One Hundred and second Amendment) Act, 2018, s. 5 (w.e.f. 14-8-2018), and subsequently subs. by the Constitution (One Hundred and Fifth Amendment) Act, 2021, s. 4 (w.e.f. 15-9-2021).", 102, 2018),
        ] {
            let n = parse(text);
            let title = format!("Constitution ({} Amendment) Act, {year}", ordinal_words(number).unwrap());
            assert_eq!(n.amendment_number, Some(number), "{text}");
            assert_eq!(n.instrument.as_deref(), Some(title.as_str()), "{text}");
        }
        assert_eq!(
            parse("2. ins. by the Constitution (One-hundred and Sixth Amendment) Act, 2023, s. 2 (date yet to be notified).")
                .instrument
                .as_deref(),
            Some("Constitution (One Hundred and Sixth Amendment) Act, 2023")
        );
    }

    #[test]
    fn letter_spaced_note_p288() {
        let n = parse("4. Ad d e d by th e C on st itut io n (On e Hu n d red th Ame n d ment ) Ac t , 20 1 5, s. 3 (w.e.f. 31-7-2015). For the text of the Act, see Appendix I.");
        assert_eq!(n.marker, Some(4));
        assert_eq!(n.kind, AmendmentKind::Added);
        assert_eq!(
            n.instrument.as_deref(),
            Some("Constitution (One Hundredth Amendment) Act, 2015")
        );
        assert_eq!(n.amendment_number, Some(100));
        assert_eq!(n.section.as_deref(), Some("s. 3"));
        assert_eq!(n.effective_from.as_deref(), Some("2015-07-31"));
        assert!(n.raw.starts_with("Ad d e d by"));
    }

    #[test]
    fn effects_without_a_date() {
        // p.43: Article 22(4) as substituted by the 44th Amendment was never notified.
        let n = parse("Cl. (4) shall stand substituted by the Constitution (Forty-fourth Amendment) Act, 1978, s. 3 (date yet to be notified) as\u{2014} \"(4) No law providing for preventive detention shall authorise");
        assert_eq!(n.marker, None);
        assert_eq!(n.kind, AmendmentKind::Substituted);
        assert_eq!(n.instrument.as_deref(), Some(FORTY_FOURTH));
        assert_eq!(n.effective_from, None);
        assert_eq!(n.effective_text.as_deref(), Some("date yet to be notified"));
        let n = parse("4. Ins. by the Constitution (First Amendment) Act, 1951, s. 4, (with retrospective effect).");
        assert_eq!(
            n.effective_text.as_deref(),
            Some("with retrospective effect")
        );
        assert_eq!(n.section.as_deref(), Some("s. 4"));
        let n = parse("4. Ins. by the Constitution (Eighty-eighth Amendment) Act, 2003, s. 2 (date not notifed).");
        assert_eq!(n.effective_text.as_deref(), Some("date not notifed"));
        // "(retrospectively) (w.e.f. …)": the date wins.
        let n = parse("3. Subs. by the Constitution (Eighty-fifth Amendment) Act, 2001, s. 2, for certain words (retrospectively) (w.e.f. 17-6-1995).");
        assert_eq!(n.effective_from.as_deref(), Some("1995-06-17"));
        assert_eq!(n.effective_text.as_deref(), Some("17-6-1995"));
    }

    #[test]
    fn compound_notes_parse_the_first() {
        // p.75: the first note's "(date not notified)" must not take the second's date.
        let n = parse("1. Cls. (3) and (4) omitted by the Constitution (Forty-second Amendment) Act, 1976, s. 18 (date not notified). This amendment was omitted by the Constitution (Forty-fourth Amendment) Act, 1978, s. 45 (w.e.f. 20-6-1979).");
        assert_eq!(n.kind, AmendmentKind::Omitted);
        assert_eq!(n.amendment_number, Some(42));
        assert_eq!(n.section.as_deref(), Some("s. 18"));
        assert_eq!(n.effective_from, None);
        assert_eq!(n.effective_text.as_deref(), Some("date not notified"));
        assert!(n.raw.ends_with("(w.e.f. 20-6-1979)."));
        // p.66
        let n = parse("2. Cl. (4) was ins. by the Constitution (Forty-second Amendment) Act, 1976, s.14 (w.e.f. 3-1-1977) and omitted by the Constitution (Forty-fourth Amendment) Act, 1978, s. 12 (w.e.f. 20-6-1979).");
        assert_eq!(n.kind, AmendmentKind::Inserted);
        assert_eq!(n.amendment_number, Some(42));
        assert_eq!(n.section.as_deref(), Some("s. 14"));
        assert_eq!(n.effective_from.as_deref(), Some("1977-01-03"));
        // p.148: another instrument quoted after the first note's date.
        let n = parse("4. Subs. by the Dadra and Nagar Haveli and Daman and Diu (Merger of Union territories) Act, 2019 (44 of 2019) s. 4(i) (w.e.f. 26-1-2020) for entry (c) which was ins. by the Constitution (Tenth Amendment) Act, 1961, s.3 (w.e.f. 11-8-1961).");
        assert_eq!(
            n.instrument.as_deref(),
            Some(
                "Dadra and Nagar Haveli and Daman and Diu (Merger of Union territories) Act, 2019"
            )
        );
        assert_eq!(n.section.as_deref(), Some("s. 4(i)"));
        assert_eq!(n.effective_from.as_deref(), Some("2020-01-26"));
        // p.88: "ibid. The proviso was as under" starts a second sentence.
        let n = parse("3. The first proviso was omitted by s. 2, ibid. The proviso was as under:\u{2014} \"Provided that in the case of appointment of a Judge other than the Chief Justice, the Chief Justice of India shall always be consulted:\" This amendment has been struck down by the Supreme Court");
        assert_eq!(n.kind, AmendmentKind::Omitted);
        assert!(n.ibid);
        assert_eq!(n.instrument, None);
    }

    #[test]
    fn sections() {
        let s = |text: &str| parse(text).section;
        assert_eq!(
            s("2. Subs. by s. 71(i) and Eighth Sch., ibid."),
            Some("s. 71(i) and Eighth Sch.".into())
        );
        assert_eq!(
            s("5. Subs. by s. 29. and Sch., ibid., for \"such State\" (w.e.f. 1-11-1956)."),
            Some("s. 29 and Sch.".into())
        );
        assert_eq!(
            s("6. Subs. by s. 29, and Sch., ibid., for cls. (3) and (4) (w.e.f. 1-11-1956)."),
            Some("s. 29 and Sch.".into())
        );
        assert_eq!(
            s("2. Subs. by s. 13 (i)(B), ibid., for \"goods\" (w.e.f. 16-9-2016)."),
            Some("s. 13(i)(B)".into())
        );
        assert_eq!(s("1. Subs. by the Constitution (One Hundred and First Amendment) Act, 2016, s. 13, (i)(A) for \"the sale\" (w.e.f. 16-9-2016)."), Some("s. 13(i)(A)".into()));
        assert_eq!(s("1. Subs. by the Constitution (Seventh Amendment) Act, 1956, s. 25(c), (i), for sub-paragraph (1) (w.e.f. 1-11-1956)."), Some("s. 25(c)(i)".into()));
        assert_eq!(s("7. Entries 4 to 26 renumbered as entries 5 to 27 respectively by the Goa, Daman and Diu Reorganisation Act, 1987 (18 of 1987), s. 6(a) and (b) (w.e.f. 30-5-1987)."), Some("s. 6(a) and (b)".into()));
        assert_eq!(
            s("2. Sub-clause (f) omitted by s.2, ibid. (w.e.f. 20-6-1979)."),
            Some("s. 2".into())
        );
        assert_eq!(
            s("2. Arts. 350A and 350B ins. by s.21., ibid. (w.e.f. 1-11-1956)."),
            Some("s. 21".into())
        );
        assert_eq!(s("See Appendix II."), None);
    }

    #[test]
    fn ibid_notes_resolve_to_the_previous_instrument() {
        // p.32, the Preamble's two notes, then p.33's first.
        let mut notes: Vec<AmendmentNote> = [
            "1. Subs. by the Constitution (Forty-second Amendment) Act, 1976, s.2, for \"SOVEREIGN DEMOCRATIC REPUBLIC\" (w.e.f. 3-1-1977).",
            "2. Subs. by s. 2, ibid., for \"Unity of the Nation\" (w.e.f. 3-1-1977).",
            "1. See the Supreme Court (Decrees and Orders) Enforcement Order, 1954 (C.O. 47).",
            "1. Subs. by the Constitution (Seventh Amendment) Act, 1956, s. 2, for cl. (2) (w.e.f. 1-11-1956).",
            "2. Subs. by s. 2 ibid. for sub-clause (b) (w.e.f. 1-11-1956).",
        ]
        .iter()
        .map(|t| parse_footnote(t))
        .collect();
        assert!(notes[1].ibid);
        assert_eq!(notes[1].instrument, None);
        assert_eq!(notes[1].section.as_deref(), Some("s. 2"));
        resolve_ibid(&mut notes);
        assert_eq!(
            notes[1].instrument.as_deref(),
            Some("Constitution (Forty-second Amendment) Act, 1976")
        );
        assert_eq!(notes[1].amendment_number, Some(42));
        assert!(notes[1].ibid);
        assert_eq!(notes[4].instrument.as_deref(), Some(SEVENTH));
        assert_eq!(notes[4].amendment_number, Some(7));
        assert!(!notes[0].ibid);
        // An ibid with nothing before it stays unresolved.
        let mut alone = vec![parse_footnote("2. Ins. by s. 3, ibid. (w.e.f. 1-3-1985).")];
        resolve_ibid(&mut alone);
        assert_eq!(alone[0].instrument, None);
    }

    #[test]
    fn ordinal_numbers() {
        assert_eq!(ordinal_amendment_number("Eighty-sixth"), Some(86));
        assert_eq!(ordinal_amendment_number("One Hundred and Sixth"), Some(106));
        assert_eq!(ordinal_amendment_number("One-hundred and Sixth"), Some(106));
        assert_eq!(ordinal_amendment_number("One Hundredth"), Some(100));
        assert_eq!(ordinal_amendment_number("First"), Some(1));
        assert_eq!(ordinal_amendment_number("Forty-fourth"), Some(44));
        assert_eq!(ordinal_amendment_number("Twentieth"), Some(20));
        assert_eq!(ordinal_amendment_number("86th"), Some(86));
        assert_eq!(ordinal_amendment_number("Amendment"), None);
        assert_eq!(ordinal_amendment_number(""), None);
    }

    #[test]
    fn dates() {
        assert_eq!(iso_date("29", "2", "2000").as_deref(), Some("2000-02-29"));
        assert_eq!(iso_date("29", "2", "1900"), None);
        assert_eq!(iso_date("31", "4", "1990"), None);
        assert_eq!(iso_date("1", "13", "1990"), None);
        // An impossible printed date keeps its text but gets no ISO date.
        let n = parse(
            "1. Ins. by the Constitution (First Amendment) Act, 1951, s. 2 (w.e.f. 31-6-1951).",
        );
        assert_eq!(n.effective_from, None);
        assert_eq!(n.effective_text.as_deref(), Some("31-6-1951"));
    }

    #[test]
    fn quote_masking_keeps_offsets() {
        let s = "for \u{201c}art\u{201d} and \"x\" and \u{2018}y\u{2019} don\u{2019}t \"open";
        let m = mask_quotes(s);
        assert_eq!(m.len(), s.len());
        assert!(!m.contains("art") && !m.contains('x') && !m.contains('y'));
        assert!(m.contains("don\u{2019}t") && m.ends_with("\"open"));
    }

    #[test]
    fn serde_shape() {
        let n = parse("2 Ins. by the Constitution (Eighty-sixth Amendment) Act, 2002, s. 2 (w.e.f. 1-4-2010).");
        let v = serde_json::to_value(&n).unwrap();
        assert_eq!(v["kind"], "inserted");
        assert_eq!(v["amendment_number"], 86);
        assert_eq!(serde_json::from_value::<AmendmentNote>(v).unwrap(), n);
        assert_eq!(serde_json::to_value(AmendmentKind::Note).unwrap(), "note");
    }
}
