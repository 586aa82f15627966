//! Canonical identifiers for the provisions of the Constitution, and the
//! parsers that turn the PDF's and people's spellings into them.
//!
//! Every other part of Nyaya (database keys, citations in answers,
//! cross-reference edges, amendment links) compares provisions by [`RefId`].
//! The official PDF spells the same Article differently in different places
//! (`243-I` in the Contents, `243I` in the body, `371-I` in both), and users
//! write "Art. 21-A", "article 21a" or "article twenty-one A". If two spellings
//! survived as two ids we would silently split one provision in two, so this
//! module is the single place where spellings collapse to one canonical string:
//!
//! | provision | canonical form |
//! |-----------|----------------|
//! | Preamble  | `PREAMBLE` |
//! | Articles  | digits then upper-case letters, no hyphen or space: `21`, `21A`, `243ZO`, `371I`, `239AA` |
//! | Schedules | `SCH-1` … `SCH-12` |
//! | Appendices| `APP-I`, `APP-II`, `APP-III` |
//!
//! Nothing here looks anything up: `RefId` says a string is *shaped* like a
//! provision id, not that the provision exists. Existence is checked against
//! the ingested corpus elsewhere, which keeps this module pure and lets the
//! same code run on any edition of the text.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// A range such as "articles 14 to 18" is expanded into its members only when
/// it has at most this many; longer ranges yield just their two ends. A
/// silently truncated list would misstate what the text says, while the two
/// ends let a caller that knows the corpus expand it exactly with
/// `BTreeSet::range(from..=to)` (that is why [`RefId`]'s order is the
/// Constitution's own order).
pub const MAX_RANGE_ITEMS: usize = 20;

const PREAMBLE: &str = "PREAMBLE";
const SCHEDULE_PREFIX: &str = "SCH-";
const APPENDIX_PREFIX: &str = "APP-";

/// The four kinds of top-level provision. The declaration order is the order
/// in which they appear in the Constitution, which the derived `Ord` relies on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProvisionKind {
    Preamble,
    Article,
    Schedule,
    Appendix,
}

impl fmt::Display for ProvisionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ProvisionKind::Preamble => "preamble",
            ProvisionKind::Article => "article",
            ProvisionKind::Schedule => "schedule",
            ProvisionKind::Appendix => "appendix",
        })
    }
}

/// Why a string is not a canonical provision id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RefIdError {
    #[error("empty provision id")]
    Empty,
    #[error("{id:?} is not a canonical provision id: {reason}")]
    Invalid { id: String, reason: &'static str },
}

/// The canonical id of one provision (see the module docs for the forms).
///
/// It is a plain string on the wire and in the database so that ids stay
/// readable in SQL, logs and JSON; the constructors guarantee the string is
/// canonical, so equality and hashing on the string are equality of
/// provisions. Ordering is the Constitution's own order (Preamble, Articles by
/// number then suffix, Schedules, Appendices), not string order, because
/// `"21A" < "3"` as strings would list Articles nonsensically.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct RefId(String);

/// The decoded parts of a canonical id; derived on demand so that `RefId`
/// itself stays a bare string.
enum Parts<'a> {
    Preamble,
    Article(u32, &'a str),
    Schedule(u8),
    Appendix(u8),
}

impl RefId {
    /// The Preamble's id.
    pub fn preamble() -> RefId {
        RefId(PREAMBLE.to_string())
    }

    /// An Article's id from a spelling printed in the PDF (body or Contents):
    /// `21A`, `243-I`, `243Z-O`, `371-I`, `371B .`, ` 31A `. Hyphens and
    /// spaces between the number and its letters are dropped and letters are
    /// upper-cased, because the Contents and the body disagree on them.
    /// Returns `None` for anything that is not an Article number (no digits,
    /// leading zero, more than three digits, stray characters).
    pub fn article(printed: &str) -> Option<RefId> {
        let t = printed
            .trim()
            .trim_end_matches(|c: char| c == '.' || c.is_whitespace());
        let digits_end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
        let (digits, rest) = t.split_at(digits_end);
        let mut id = digits.to_string();
        let mut pending_separator = false;
        for c in rest.chars() {
            if c.is_ascii_alphabetic() {
                id.push(c.to_ascii_uppercase());
                pending_separator = false;
            } else if is_hyphen(c) || c.is_whitespace() {
                pending_separator = true;
            } else {
                return None;
            }
        }
        if pending_separator {
            return None;
        }
        check_article(&id).ok()?;
        Some(RefId(id))
    }

    /// An Article's id from its number and letter suffix (`(21, "A")`).
    pub fn article_from_parts(number: u32, suffix: &str) -> Option<RefId> {
        let id = format!("{number}{}", suffix.to_ascii_uppercase());
        check_article(&id).ok()?;
        Some(RefId(id))
    }

    /// A Schedule's id: `SCH-7` for 7.
    ///
    /// # Panics
    ///
    /// If `n` is 0: no Schedule has that number, and callers get `n` from a
    /// parser that never yields it. [`RefId::try_schedule`] does not panic.
    pub fn schedule(n: u8) -> RefId {
        match RefId::try_schedule(u32::from(n)) {
            Some(id) => id,
            None => panic!("there is no Schedule 0"),
        }
    }

    /// An Appendix's id: `APP-II` for 2.
    ///
    /// # Panics
    ///
    /// If `n` is 0; see [`RefId::try_appendix`].
    pub fn appendix(n: u8) -> RefId {
        match RefId::try_appendix(u32::from(n)) {
            Some(id) => id,
            None => panic!("there is no Appendix 0"),
        }
    }

    /// A Schedule's id, or `None` when `n` is 0 or above 255 (a number read
    /// from user text can be anything).
    pub fn try_schedule(n: u32) -> Option<RefId> {
        (1..=255)
            .contains(&n)
            .then(|| RefId(format!("{SCHEDULE_PREFIX}{n}")))
    }

    /// An Appendix's id, or `None` when `n` is 0 or above 255.
    pub fn try_appendix(n: u32) -> Option<RefId> {
        (1..=255)
            .contains(&n)
            .then(|| RefId(format!("{APPENDIX_PREFIX}{}", to_roman(n))))
    }

    /// The canonical string.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    fn parts(&self) -> Parts<'_> {
        let s = self.0.as_str();
        if s == PREAMBLE {
            Parts::Preamble
        } else if let Some(n) = s.strip_prefix(SCHEDULE_PREFIX) {
            Parts::Schedule(n.parse().unwrap_or(0))
        } else if let Some(r) = s.strip_prefix(APPENDIX_PREFIX) {
            Parts::Appendix(
                from_roman(r)
                    .and_then(|v| u8::try_from(v).ok())
                    .unwrap_or(0),
            )
        } else {
            let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
            Parts::Article(s[..end].parse().unwrap_or(0), &s[end..])
        }
    }

    /// Which kind of provision this is.
    pub fn kind(&self) -> ProvisionKind {
        match self.parts() {
            Parts::Preamble => ProvisionKind::Preamble,
            Parts::Article(..) => ProvisionKind::Article,
            Parts::Schedule(_) => ProvisionKind::Schedule,
            Parts::Appendix(_) => ProvisionKind::Appendix,
        }
    }

    /// For an Article, its number and letter suffix: `243ZA` → `(243, "ZA")`.
    pub fn article_number(&self) -> Option<(u32, String)> {
        match self.parts() {
            Parts::Article(n, s) => Some((n, s.to_string())),
            _ => None,
        }
    }

    /// For a Schedule, its number.
    pub fn schedule_number(&self) -> Option<u8> {
        match self.parts() {
            Parts::Schedule(n) => Some(n),
            _ => None,
        }
    }

    /// For an Appendix, its number (`APP-II` → 2).
    pub fn appendix_number(&self) -> Option<u8> {
        match self.parts() {
            Parts::Appendix(n) => Some(n),
            _ => None,
        }
    }

    /// The name a reader expects in an answer: "Article 21A", "Seventh
    /// Schedule", "Appendix II", "Preamble".
    pub fn label(&self) -> String {
        match self.parts() {
            Parts::Preamble => "Preamble".to_string(),
            Parts::Article(..) => format!("Article {}", self.0),
            Parts::Schedule(n) => match ordinal_words(u32::from(n)) {
                Some(w) => format!("{w} Schedule"),
                None => format!("Schedule {n}"),
            },
            Parts::Appendix(n) => format!("Appendix {}", to_roman(u32::from(n))),
        }
    }

    fn sort_key(&self) -> (ProvisionKind, u32, &str) {
        match self.parts() {
            Parts::Preamble => (ProvisionKind::Preamble, 0, ""),
            Parts::Article(n, s) => (ProvisionKind::Article, n, s),
            Parts::Schedule(n) => (ProvisionKind::Schedule, u32::from(n), ""),
            Parts::Appendix(n) => (ProvisionKind::Appendix, u32::from(n), ""),
        }
    }
}

impl Ord for RefId {
    /// Suffixes compare as strings after the number, which is exactly the
    /// Constitution's order: `243 < 243A < 243Z < 243ZA < 243ZT < 244` and
    /// `239A < 239AA < 239AB < 239B`. Canonical strings map one-to-one onto
    /// keys, so this agrees with `Eq`.
    fn cmp(&self, other: &Self) -> Ordering {
        self.sort_key().cmp(&other.sort_key())
    }
}

impl PartialOrd for RefId {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for RefId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for RefId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl From<RefId> for String {
    fn from(id: RefId) -> String {
        id.0
    }
}

impl TryFrom<String> for RefId {
    type Error = RefIdError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl FromStr for RefId {
    type Err = RefIdError;

    /// Accepts exactly the canonical forms and nothing else, so that a stored
    /// id that is not canonical is caught instead of silently normalised.
    /// Use [`RefId::article`] or [`parse_user_ref`] for other spellings.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let invalid = |reason| RefIdError::Invalid {
            id: s.to_string(),
            reason,
        };
        if s.is_empty() {
            return Err(RefIdError::Empty);
        }
        if s == PREAMBLE {
            return Ok(RefId::preamble());
        }
        if let Some(n) = s.strip_prefix(SCHEDULE_PREFIX) {
            let ok = !n.is_empty()
                && n.bytes().all(|b| b.is_ascii_digit())
                && !n.starts_with('0')
                && n.parse::<u8>().is_ok();
            return if ok {
                Ok(RefId(s.to_string()))
            } else {
                Err(invalid("a schedule id is SCH- followed by a number from 1 to 255 without leading zeros"))
            };
        }
        if let Some(r) = s.strip_prefix(APPENDIX_PREFIX) {
            let ok = r.bytes().all(|b| b.is_ascii_uppercase())
                && from_roman(r).is_some_and(|v| (1..=255).contains(&v));
            return if ok {
                Ok(RefId(s.to_string()))
            } else {
                Err(invalid(
                    "an appendix id is APP- followed by an upper-case Roman numeral such as II",
                ))
            };
        }
        check_article(s).map_err(invalid)?;
        Ok(RefId(s.to_string()))
    }
}

/// Checks the canonical Article shape; the reason is shown to whoever fed us
/// a bad id, so it says what the right shape is.
fn check_article(s: &str) -> Result<(), &'static str> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (digits, letters) = s.split_at(end);
    if digits.is_empty() {
        return Err("expected PREAMBLE, an article number such as 21A, SCH-<n> or APP-<roman>");
    }
    if digits.len() > 3 || digits.starts_with('0') {
        return Err("article numbers run from 1 to 999 without leading zeros");
    }
    if letters.len() > 3 || !letters.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(
            "an article suffix is at most three upper-case letters with no hyphen or space \
             (use RefId::article for printed spellings such as 243-I)",
        );
    }
    Ok(())
}

fn is_hyphen(c: char) -> bool {
    matches!(c, '-' | '\u{2010}' | '\u{2011}')
}

/// Roman numerals for Appendix ids and Part numbers.
pub(crate) fn to_roman(mut n: u32) -> String {
    const TABLE: [(u32, &str); 13] = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    let mut out = String::new();
    for (value, digits) in TABLE {
        while n >= value {
            out.push_str(digits);
            n -= value;
        }
    }
    out
}

/// Parses a Roman numeral in either case. Only the canonical spelling is
/// accepted (checked by writing it back), so words like "DID" or "MIX" that
/// happen to use Roman letters are not mistaken for numbers.
pub(crate) fn from_roman(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 12 {
        return None;
    }
    let upper = s.to_ascii_uppercase();
    let mut total = 0u32;
    let mut prev = 0u32;
    for c in upper.chars().rev() {
        let v = match c {
            'I' => 1,
            'V' => 5,
            'X' => 10,
            'L' => 50,
            'C' => 100,
            'D' => 500,
            'M' => 1000,
            _ => return None,
        };
        if v < prev {
            total = total.checked_sub(v)?;
        } else {
            total += v;
            prev = v;
        }
    }
    (total > 0 && to_roman(total) == upper).then_some(total)
}

// ---------------------------------------------------------------------------
// Number words ("three hundred and sixty-eight", "Eighty-sixth").
// ---------------------------------------------------------------------------

const UNITS: [&str; 9] = [
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
];
const TEENS: [&str; 10] = [
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];
const TENS: [&str; 8] = [
    "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];
const ORD_UNITS: [&str; 9] = [
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
];
const ORD_TEENS: [&str; 10] = [
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
];
const ORD_TENS: [&str; 8] = [
    "twentieth",
    "thirtieth",
    "fortieth",
    "fiftieth",
    "sixtieth",
    "seventieth",
    "eightieth",
    "ninetieth",
];

fn index_of(list: &[&str], w: &str) -> Option<u32> {
    list.iter()
        .position(|x| *x == w)
        .and_then(|i| u32::try_from(i).ok())
}

/// Value of a single number word below 100 and whether it is an ordinal.
fn small_word(w: &str) -> Option<(u32, bool, bool)> {
    // (value, ordinal, is_tens_cardinal)
    if let Some(i) = index_of(&UNITS, w) {
        return Some((i + 1, false, false));
    }
    if let Some(i) = index_of(&ORD_UNITS, w) {
        return Some((i + 1, true, false));
    }
    if let Some(i) = index_of(&TEENS, w) {
        return Some((i + 10, false, false));
    }
    if let Some(i) = index_of(&ORD_TEENS, w) {
        return Some((i + 10, true, false));
    }
    if let Some(i) = index_of(&TENS, w) {
        return Some(((i + 2) * 10, false, true));
    }
    if let Some(i) = index_of(&ORD_TENS, w) {
        return Some(((i + 2) * 10, true, false));
    }
    None
}

/// A cardinal number word ("six", "fourteen", "twenty", "hundred"), lower-case; not an
/// ordinal, not "and".
pub fn is_cardinal_word(w: &str) -> bool {
    matches!(small_word(w), Some((_, false, _))) || w == "hundred"
}

fn is_number_word(w: &str) -> bool {
    small_word(w).is_some() || w == "hundred" || w == "hundredth" || w == "and"
}

/// The cardinal value of a whole string of number words ("three hundred and
/// sixty-eight" → 368). Case-insensitive; hyphens and spaces both separate.
pub fn cardinal_from_words(s: &str) -> Option<u32> {
    match words_value(s)? {
        (v, false) => Some(v),
        _ => None,
    }
}

/// The value of a whole ordinal string: "Eighty-sixth" → 86, "One Hundred
/// and Sixth" → 106, "One-hundred and Sixth" → 106, "7th" → 7. Words run
/// together by a PDF extractor ("OneHundredth") are split back apart, because
/// at least one footnote in the 2024 edition is letter-spaced and comes out
/// that way once its spaces are squeezed.
pub fn ordinal_from_words(s: &str) -> Option<u32> {
    let t = s.trim();
    let digits_end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    if digits_end > 0 {
        let suffix = t[digits_end..].trim_start().to_ascii_lowercase();
        return (matches!(suffix.as_str(), "st" | "nd" | "rd" | "th") && digits_end <= 4)
            .then(|| t[..digits_end].parse().ok())
            .flatten();
    }
    match words_value(s)? {
        (v, true) => Some(v),
        _ => None,
    }
}

fn words_value(s: &str) -> Option<(u32, bool)> {
    if let Some(v) = words_value_exact(s) {
        return Some(v);
    }
    // Retry with run-together words split apart ("OneHundredth").
    let mut rebuilt = String::new();
    for tok in tokenize(s) {
        match tok.kind {
            TokKind::Word => {
                let parts = split_compound(&tok.text.to_lowercase())?;
                for p in parts {
                    rebuilt.push_str(p);
                    rebuilt.push(' ');
                }
            }
            TokKind::Punct if is_hyphen(tok.text.chars().next()?) => rebuilt.push(' '),
            _ => return None,
        }
    }
    words_value_exact(&rebuilt)
}

fn words_value_exact(s: &str) -> Option<(u32, bool)> {
    let toks = tokenize(s);
    if toks.is_empty() {
        return None;
    }
    let sc = Scanner {
        toks: &toks,
        mode: Mode::Whole,
    };
    let (v, ord, next) = sc.number_phrase(0)?;
    (next == toks.len()).then_some((v, ord))
}

/// Splits a run-together word ("onehundredandsixth") into number words.
fn split_compound(w: &str) -> Option<Vec<&'static str>> {
    if w.is_empty() {
        return Some(Vec::new());
    }
    let vocab = UNITS
        .iter()
        .chain(TEENS.iter())
        .chain(TENS.iter())
        .chain(ORD_UNITS.iter())
        .chain(ORD_TEENS.iter())
        .chain(ORD_TENS.iter())
        .chain(["hundred", "hundredth", "and"].iter());
    // Longest words first so "seventeenth" wins over "seven" + "teenth".
    let mut candidates: Vec<&'static str> = vocab.copied().filter(|v| w.starts_with(v)).collect();
    candidates.sort_by_key(|v| std::cmp::Reverse(v.len()));
    for c in candidates {
        if let Some(mut rest) = split_compound(&w[c.len()..]) {
            rest.insert(0, c);
            return Some(rest);
        }
    }
    None
}

/// Writes an ordinal the way the Constitution's amendment titles do:
/// "First", "Eighty-sixth", "One Hundredth", "One Hundred and Sixth".
/// Used to print canonical Schedule names and amendment titles; 1..=999.
pub fn ordinal_words(n: u32) -> Option<String> {
    if n == 0 || n > 999 {
        return None;
    }
    let hundreds = n / 100;
    let rest = n % 100;
    let mut out = String::new();
    if hundreds > 0 {
        out.push_str(&capitalise(UNITS[(hundreds - 1) as usize]));
        if rest == 0 {
            out.push_str(" Hundredth");
            return Some(out);
        }
        out.push_str(" Hundred and ");
    }
    let (tens, units) = ((rest / 10) as usize, (rest % 10) as usize);
    let below = match (tens, units) {
        (0, u) => ORD_UNITS[u - 1].to_string(),
        (1, u) => ORD_TEENS[u].to_string(),
        (t, 0) => ORD_TENS[t - 2].to_string(),
        (t, u) => format!("{}-{}", TENS[t - 2], ORD_UNITS[u - 1]),
    };
    out.push_str(&capitalise(&below));
    Some(out)
}

fn capitalise(w: &str) -> String {
    let mut c = w.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

// ---------------------------------------------------------------------------
// User references.
// ---------------------------------------------------------------------------

/// A provision a user pointed at, possibly narrowed to a clause.
///
/// `clause` is normalised to the Constitution's bracket chain: `(4)`,
/// `(2)(a)`, `(1)(a)(i)`, `(4A)`; numbers keep upper-case letters and letter
/// designators are lower-case, as printed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UserRef {
    pub id: RefId,
    pub clause: Option<String>,
}

impl fmt::Display for UserRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.id, self.clause.as_deref().unwrap_or(""))
    }
}

/// Parses a string that is, as a whole, one reference written by a person:
/// "Art. 21-A", "article 21a", "Article 21 A", "A32", "a 32", "15(4)",
/// "Article 15 (4)", "art.19(1)(a)", "Seventh Schedule", "schedule 7",
/// "7th schedule", "Schedule VII", "Eighth Sch.", "the Preamble",
/// "Appendix II", "article three hundred and sixty-eight", "Article
/// Twenty-one A", or a bare "21A" (a bare number means an Article).
///
/// Returns `None` when the string holds anything else, including several
/// references ("Articles 14 and 19"): use [`find_refs`] for free text.
pub fn parse_user_ref(s: &str) -> Option<UserRef> {
    // "अनुच्छेद २१-क" is read as "article 21-A" (crate::indic).
    let latin = crate::indic::latinise(s);
    let s = latin.as_ref().map_or(s, |l| l.text.as_str());
    let toks = tokenize(s);
    let mut i = 0;
    while i < toks.len() && toks[i].kind == TokKind::Punct {
        i += 1;
    }
    if i < toks.len() && toks[i].is_word("the") {
        i += 1;
    }
    let sc = Scanner {
        toks: &toks,
        mode: Mode::Whole,
    };
    let (mut found, next) = sc.match_at(i)?;
    if found.len() != 1 || toks[next..].iter().any(|t| t.kind != TokKind::Punct) {
        return None;
    }
    let f = found.pop()?;
    Some(UserRef {
        id: f.id,
        clause: f.clause,
    })
}

/// Finds every reference to a provision in free text such as a user's
/// question, with the byte range of the words that made it.
///
/// What counts, and why:
/// - Articles need a keyword (`article(s)`, `art(s).`, or an `A` glued to the
///   number as in "A32"), or a clause glued to a bare number ("15(4)"):
///   bare numbers are ages, years and counts far more often than Articles
///   ("18 years", "in 1950"). The glued `A` does mean "A4" reads as Article
///   4; in questions put to a Constitution assistant that is the likelier
///   sense. A number after "section", "rule", "page", "entry" … is never an
///   Article, even with a clause ("section 498(a)").
/// - Lists ("articles 14, 15 and 16") give one entry per item; the first
///   item's range starts at the keyword.
/// - Ranges ("articles 14 to 18", "243-ZA to 243-ZC") are expanded when both
///   ends are plain numbers, or share a number and differ only in their last
///   suffix letter, and the range has at most [`MAX_RANGE_ITEMS`] members;
///   otherwise only the two ends are returned (see [`expand_article_range`]).
///   Expanded members share the range's byte range.
/// - "Part III" is not a reference to a provision (a Part is a group of
///   Articles), so it is not returned here.
/// - A provision mentioned twice is returned twice, with both ranges.
///
/// References in Indian scripts ("अनुच्छेद २१-क", "आठवीं अनुसूची") are found too, with their
/// ranges in `text` as typed (see [`crate::indic`]).
pub fn find_refs(text: &str) -> Vec<(UserRef, Range<usize>)> {
    let latin = crate::indic::latinise(text);
    let scanned = latin.as_ref().map_or(text, |l| l.text.as_str());
    scan(scanned, Mode::Free)
        .into_iter()
        .map(|f| {
            let span = latin
                .as_ref()
                .map_or(f.span.clone(), |l| l.original(f.span));
            (
                UserRef {
                    id: f.id,
                    clause: f.clause,
                },
                span,
            )
        })
        .collect()
}

/// The Articles from `from` to `to` inclusive, when that can be known without
/// the corpus: both plain numbers (`14..=18`), or the same number with
/// suffixes that differ only in their last letter (`243ZA..=243ZC`,
/// `243A..=243D`, and `243..=243D` which starts at the plain number).
/// `None` when the range is of another shape, reversed, not two Articles, or
/// longer than [`MAX_RANGE_ITEMS`]: the members cannot be listed without
/// knowing which lettered Articles exist (e.g. 14 to 16A).
pub fn expand_article_range(from: &RefId, to: &RefId) -> Option<Vec<RefId>> {
    let (a, sa) = from.article_number()?;
    let (b, sb) = to.article_number()?;
    let mut out = Vec::new();
    if sa.is_empty() && sb.is_empty() {
        if a > b || (b - a) as usize >= MAX_RANGE_ITEMS {
            return None;
        }
        for n in a..=b {
            out.push(RefId::article_from_parts(n, "")?);
        }
        return Some(out);
    }
    if a != b {
        return None;
    }
    let (prefix, first_letter) = if sa.is_empty() {
        if sb.len() != 1 {
            return None;
        }
        out.push(from.clone());
        (String::new(), b'A')
    } else {
        if sa.len() != sb.len() || sa[..sa.len() - 1] != sb[..sb.len() - 1] {
            return None;
        }
        (sa[..sa.len() - 1].to_string(), *sa.as_bytes().last()?)
    };
    let last_letter = *sb.as_bytes().last()?;
    if first_letter > last_letter {
        return None;
    }
    for c in first_letter..=last_letter {
        out.push(RefId::article_from_parts(
            a,
            &format!("{prefix}{}", char::from(c)),
        )?);
    }
    (out.len() <= MAX_RANGE_ITEMS).then_some(out)
}

// ---------------------------------------------------------------------------
// Tokens and the shared scanner (also used by `xref`).
// ---------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokKind {
    /// A run of ASCII digits.
    Num,
    /// A run of letters.
    Word,
    /// Any other single non-space character.
    Punct,
}

/// One token with its byte range. `gap` records whether whitespace came
/// before it, because "21A", "21-A" and "21 A" must be told apart.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tok<'a> {
    pub(crate) kind: TokKind,
    pub(crate) text: &'a str,
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) gap: bool,
}

impl Tok<'_> {
    pub(crate) fn is_word(&self, w: &str) -> bool {
        self.kind == TokKind::Word && self.text.eq_ignore_ascii_case(w)
    }

    pub(crate) fn is_punct(&self, c: char) -> bool {
        self.kind == TokKind::Punct && self.text.starts_with(c)
    }
}

pub(crate) fn tokenize(s: &str) -> Vec<Tok<'_>> {
    let mut out = Vec::new();
    let mut gap = false;
    let mut iter = s.char_indices().peekable();
    while let Some((start, c)) = iter.next() {
        if c.is_whitespace() {
            gap = true;
            continue;
        }
        let kind = if c.is_ascii_digit() {
            TokKind::Num
        } else if c.is_alphabetic() {
            TokKind::Word
        } else {
            TokKind::Punct
        };
        let mut end = start + c.len_utf8();
        if kind != TokKind::Punct {
            while let Some(&(i, n)) = iter.peek() {
                let same = match kind {
                    TokKind::Num => n.is_ascii_digit(),
                    _ => n.is_alphabetic(),
                };
                if !same {
                    break;
                }
                end = i + n.len_utf8();
                iter.next();
            }
        }
        out.push(Tok {
            kind,
            text: &s[start..end],
            start,
            end,
            gap,
        });
        gap = false;
    }
    out
}

/// How strict the scanner is, which depends on who wrote the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// One user reference making up a whole string: the most tolerant,
    /// because nothing else competes for the words ("a 32", "21 a", "21A").
    Whole,
    /// A user's free text: tolerant spellings, but bare numbers are not refs.
    Free,
    /// The Constitution's own text: only its printed forms ("article 21A",
    /// "the Seventh Schedule"), so prose is never misread as a reference.
    Legal,
}

/// One reference found by the scanner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    pub(crate) id: RefId,
    pub(crate) clause: Option<String>,
    pub(crate) span: Range<usize>,
}

pub(crate) fn scan(text: &str, mode: Mode) -> Vec<Found> {
    let toks = tokenize(text);
    let sc = Scanner { toks: &toks, mode };
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        match sc.match_at(i) {
            Some((found, next)) => {
                out.extend(found);
                i = next.max(i + 1);
            }
            None => i += 1,
        }
    }
    out
}

/// Words that may follow a spaced suffix in free text ("Article 21 A says"):
/// after anything else the letter is more likely the article "a"/"A" of the
/// next phrase ("Is Article 14 A fundamental right?").
const SPACED_SUFFIX_FOLLOWERS: [&str; 24] = [
    "and",
    "or",
    "to",
    "of",
    "is",
    "are",
    "was",
    "were",
    "says",
    "say",
    "said",
    "provides",
    "provide",
    "deals",
    "means",
    "mean",
    "apply",
    "applies",
    "in",
    "on",
    "under",
    "with",
    "read",
    "guarantees",
];

/// Words that turn a listed number into a quantity ("Article 14 and 18
/// years"): such an item ends the list in free text.
const QUANTITY_WORDS: [&str; 14] = [
    "year", "years", "month", "months", "day", "days", "percent", "per", "crore", "lakh", "rupees",
    "members", "seats", "times",
];

/// Words before a bare "15(4)" that make it something other than an Article:
/// a section, rule, paragraph, entry, page and so on.
const BARE_STOP_WORDS: [&str; 26] = [
    "section",
    "sections",
    "sec",
    "s",
    "ss",
    "rule",
    "rules",
    "order",
    "para",
    "paragraph",
    "clause",
    "clauses",
    "entry",
    "item",
    "list",
    "part",
    "chapter",
    "schedule",
    "page",
    "p",
    "pp",
    "no",
    "regulation",
    "act",
    "form",
    "table",
];

/// An Article number with its suffix and clause chain.
#[derive(Debug, Clone)]
struct Item {
    number: u32,
    suffix: String,
    clause: Option<String>,
    start: usize,
    end: usize,
    from_words: bool,
}

impl Item {
    fn id(&self) -> Option<RefId> {
        RefId::article_from_parts(self.number, &self.suffix)
    }
}

#[derive(Debug, Clone, Copy)]
struct ItemOpts {
    allow_words: bool,
    spaced_suffix: bool,
    clause_gap: bool,
}

pub(crate) struct Scanner<'t, 'a> {
    pub(crate) toks: &'t [Tok<'a>],
    pub(crate) mode: Mode,
}

impl<'a> Scanner<'_, 'a> {
    fn tok(&self, i: usize) -> Option<&Tok<'a>> {
        self.toks.get(i)
    }

    fn is_word(&self, i: usize, w: &str) -> bool {
        self.tok(i).is_some_and(|t| t.is_word(w))
    }

    fn is_punct(&self, i: usize, c: char) -> bool {
        self.tok(i).is_some_and(|t| t.is_punct(c))
    }

    fn word_lower(&self, i: usize) -> Option<String> {
        self.tok(i)
            .filter(|t| t.kind == TokKind::Word)
            .map(|t| t.text.to_lowercase())
    }

    /// A token glued to the previous one (no whitespace between).
    fn glued(&self, i: usize) -> Option<&Tok<'a>> {
        self.tok(i).filter(|t| !t.gap)
    }

    fn is_hyphen_at(&self, i: usize) -> bool {
        self.tok(i).is_some_and(|t| {
            t.kind == TokKind::Punct && t.text.chars().next().is_some_and(is_hyphen)
        })
    }

    fn span(&self, from: usize, to_exclusive: usize) -> Range<usize> {
        let start = self.toks[from].start;
        let end = self.toks[to_exclusive.max(from + 1) - 1].end;
        start..end
    }

    /// Tries every pattern at token `i`; returns the references and the index
    /// just past what they consumed.
    pub(crate) fn match_at(&self, i: usize) -> Option<(Vec<Found>, usize)> {
        self.clause_chain(i)
            .or_else(|| self.article_list(i))
            .or_else(|| self.schedule_by_ordinal(i))
            .or_else(|| self.schedule_by_number(i))
            .or_else(|| self.preamble(i))
            .or_else(|| self.appendix(i))
            .or_else(|| self.bare_article(i))
    }

    // -- number words -------------------------------------------------------

    /// The next number word at `k`, allowing one hyphen before it: number
    /// words are joined by spaces or hyphens ("sixty-eight", "One-hundred").
    fn next_number_word(&self, k: usize, allow_hyphen: bool) -> Option<(String, usize)> {
        let mut k = k;
        if allow_hyphen && self.is_hyphen_at(k) {
            k += 1;
        }
        let w = self.word_lower(k)?;
        is_number_word(&w).then_some((w, k + 1))
    }

    /// A number phrase at `i`: (value, ordinal, index after). Greedy; "and"
    /// is only taken after "hundred" and when a number follows it, so "14 and
    /// nineteen" style lists are not swallowed.
    pub(crate) fn number_phrase(&self, i: usize) -> Option<(u32, bool, usize)> {
        let (w0, k1) = self.next_number_word(i, false)?;
        let mut hundreds = None;
        if w0 == "hundred" {
            hundreds = Some((100, k1));
        } else if w0 == "hundredth" {
            return Some((100, true, k1));
        } else if let Some(u) = index_of(&UNITS, &w0) {
            if let Some((w1, k2)) = self.next_number_word(k1, true) {
                if w1 == "hundred" {
                    hundreds = Some(((u + 1) * 100, k2));
                } else if w1 == "hundredth" {
                    return Some(((u + 1) * 100, true, k2));
                }
            }
        }
        match hundreds {
            Some((h, k)) => {
                let mut after_and = k;
                if let Some((w, ka)) = self.next_number_word(k, true) {
                    if w == "and" {
                        after_and = ka;
                    }
                }
                if let Some((v, ord, kn)) = self.below_hundred(after_and, true) {
                    return Some((h + v, ord, kn));
                }
                if after_and == k {
                    if let Some((v, ord, kn)) = self.below_hundred(k, true) {
                        return Some((h + v, ord, kn));
                    }
                }
                Some((h, false, k))
            }
            None => self.below_hundred(i, false),
        }
    }

    fn below_hundred(&self, k: usize, allow_hyphen: bool) -> Option<(u32, bool, usize)> {
        let (w, k1) = self.next_number_word(k, allow_hyphen)?;
        let (v, ord, tens) = small_word(&w)?;
        if tens {
            if let Some((w2, k2)) = self.next_number_word(k1, true) {
                if let Some((u, uord, false)) = small_word(&w2) {
                    if u < 10 {
                        return Some((v + u, uord, k2));
                    }
                }
            }
        }
        Some((v, ord, k1))
    }

    /// An ordinal at `i`: words ("Seventh") or, outside legal text, digits
    /// with a suffix ("7th").
    fn ordinal_at(&self, i: usize) -> Option<(u32, usize)> {
        let t = self.tok(i)?;
        if t.kind == TokKind::Num {
            if self.mode == Mode::Legal || t.text.len() > 3 {
                return None;
            }
            let s = self.glued(i + 1)?;
            let sl = s.text.to_ascii_lowercase();
            if s.kind != TokKind::Word || !matches!(sl.as_str(), "st" | "nd" | "rd" | "th") {
                return None;
            }
            return Some((t.text.parse().ok()?, i + 2));
        }
        let (v, ord, next) = self.number_phrase(i)?;
        ord.then_some((v, next))
    }

    // -- articles -----------------------------------------------------------

    /// An Article keyword at `i`; returns the index of what follows it. User
    /// text may also put "No.", "-", ":" or "#" between the keyword and the
    /// number ("article no. 21", "Art-21").
    fn article_keyword(&self, i: usize, allow_a_prefix: bool) -> Option<usize> {
        let t = self.tok(i)?;
        if t.kind != TokKind::Word {
            return None;
        }
        let w = t.text.to_lowercase();
        let mut k = match w.as_str() {
            "article" | "articles" => i + 1,
            "art" | "arts" | "artt" => {
                if self.glued(i + 1).is_some_and(|n| n.is_punct('.')) {
                    i + 2
                } else {
                    i + 1
                }
            }
            "a" if allow_a_prefix && self.mode != Mode::Legal => {
                let n = self.tok(i + 1)?;
                let glued = !n.gap;
                return (n.kind == TokKind::Num && (glued || self.mode == Mode::Whole))
                    .then_some(i + 1);
            }
            _ => return None,
        };
        if self.mode != Mode::Legal {
            if [':', '#'].iter().any(|c| self.is_punct(k, *c)) || self.is_hyphen_at(k) {
                k += 1;
            } else if self.is_word(k, "no") {
                k += 1;
                if self.glued(k).is_some_and(|n| n.is_punct('.')) {
                    k += 1;
                }
            }
        }
        Some(k)
    }

    fn plausible_suffix(&self, w: &str) -> bool {
        let ascii = !w.is_empty() && w.len() <= 2 && w.bytes().all(|b| b.is_ascii_alphabetic());
        if !ascii {
            return false;
        }
        let lower = w.to_ascii_lowercase();
        if matches!(lower.as_str(), "st" | "nd" | "rd" | "th") {
            return false;
        }
        self.mode != Mode::Legal || w.bytes().all(|b| b.is_ascii_uppercase())
    }

    /// Whether the token at `k` may follow a space-separated suffix letter.
    fn spaced_suffix_follow_ok(&self, k: usize) -> bool {
        match self.tok(k) {
            None => true,
            Some(t) if t.kind == TokKind::Punct => !is_hyphen(t.text.chars().next().unwrap_or('-')),
            Some(t) if t.kind == TokKind::Word && self.mode == Mode::Free => {
                let w = t.text.to_lowercase();
                SPACED_SUFFIX_FOLLOWERS.contains(&w.as_str())
            }
            Some(_) => false,
        }
    }

    fn article_item(&self, i: usize, opts: ItemOpts) -> Option<(Item, usize)> {
        let t = self.tok(i)?;
        let (number, mut j, from_words) = match t.kind {
            TokKind::Num => {
                if t.text.len() > 3 || t.text.starts_with('0') {
                    return None;
                }
                (t.text.parse::<u32>().ok()?, i + 1, false)
            }
            TokKind::Word if opts.allow_words => {
                let (v, ord, next) = self.number_phrase(i)?;
                if ord || v == 0 || v > 999 {
                    return None;
                }
                (v, next, true)
            }
            _ => return None,
        };
        // `1[` is an amendment marker left in unclean text, not an Article.
        if !from_words && self.glued(j).is_some_and(|n| n.is_punct('[')) {
            return None;
        }
        let mut suffix = String::new();
        let glued_word = self
            .glued(j)
            .filter(|n| n.kind == TokKind::Word && !from_words);
        if let Some(w) = glued_word {
            if !self.plausible_suffix(w.text) {
                // "21st", "1950s": a number that is not an Article.
                return None;
            }
            suffix = w.text.to_ascii_uppercase();
            j += 1;
            // "243Z-O" as printed in the Contents.
            if self.is_hyphen_at(j) && self.glued(j).is_some() {
                if let Some(w2) = self.glued(j + 1).filter(|n| n.kind == TokKind::Word) {
                    if w2.text.len() == 1 && self.plausible_suffix(w2.text) {
                        suffix.push_str(&w2.text.to_ascii_uppercase());
                        j += 2;
                    }
                }
            }
        } else if self.is_hyphen_at(j) && self.glued(j).is_some() {
            if let Some(w) = self.glued(j + 1).filter(|n| n.kind == TokKind::Word) {
                if self.plausible_suffix(w.text) {
                    suffix = w.text.to_ascii_uppercase();
                    j += 2;
                }
            }
        } else if opts.spaced_suffix && self.mode != Mode::Legal {
            if let Some(w) = self.tok(j).filter(|n| n.kind == TokKind::Word && n.gap) {
                let case_ok =
                    self.mode == Mode::Whole || w.text.bytes().all(|b| b.is_ascii_uppercase());
                if case_ok && self.plausible_suffix(w.text) && self.spaced_suffix_follow_ok(j + 1) {
                    suffix = w.text.to_ascii_uppercase();
                    j += 1;
                }
            }
        }
        let (clause, next) = self.clauses(j, opts.clause_gap);
        let item = Item {
            number,
            suffix,
            clause,
            start: t.start,
            end: self.toks[next - 1].end,
            from_words,
        };
        Some((item, next))
    }

    /// A chain of bracketed designators "(1)(a)(i)" at `j`; `gap_ok` allows
    /// spaces before the brackets ("Article 19 (1) (a)" in user text).
    fn clauses(&self, j: usize, gap_ok: bool) -> (Option<String>, usize) {
        let mut out = String::new();
        let mut k = j;
        while let Some((d, next)) = self.paren_designator(k, gap_ok) {
            out.push('(');
            out.push_str(&d);
            out.push(')');
            k = next;
        }
        ((!out.is_empty()).then_some(out), k)
    }

    /// "(4)", "(4A)", "(a)", "(iv)" at `k`; returns the normalised designator.
    fn paren_designator(&self, k: usize, gap_ok: bool) -> Option<(String, usize)> {
        let open = self.tok(k)?;
        let inner_gaps_ok = self.mode != Mode::Legal;
        if !open.is_punct('(') || (open.gap && !gap_ok) {
            return None;
        }
        let d = self.tok(k + 1)?;
        if d.gap && !inner_gaps_ok {
            return None;
        }
        let mut k2 = k + 2;
        let designator = match d.kind {
            TokKind::Num if d.text.len() <= 3 => {
                let mut s = d.text.to_string();
                if let Some(l) = self.glued(k2).filter(|n| n.kind == TokKind::Word) {
                    if l.text.len() > 2 || !l.text.bytes().all(|b| b.is_ascii_alphabetic()) {
                        return None;
                    }
                    s.push_str(&l.text.to_ascii_uppercase());
                    k2 += 1;
                }
                s
            }
            TokKind::Word => {
                let ascii = d.text.bytes().all(|b| b.is_ascii_alphabetic());
                let short = d.text.len() <= 2;
                let roman = d.text.len() <= 6 && from_roman(d.text).is_some();
                if !ascii || !(short || roman) {
                    return None;
                }
                d.text.to_ascii_lowercase()
            }
            _ => return None,
        };
        let close = self.tok(k2)?;
        if !close.is_punct(')') || (close.gap && !inner_gaps_ok) {
            return None;
        }
        Some((designator, k2 + 1))
    }

    fn found(&self, item: &Item, start: usize) -> Option<Found> {
        Some(Found {
            id: item.id()?,
            clause: item.clause.clone(),
            span: start..item.end,
        })
    }

    /// A list separator at `k` (",", "and", "or", ", and", "&", "/");
    /// returns the index after it. A repeated keyword ends the list: the
    /// main loop will start a new one there.
    fn list_sep(&self, k: usize) -> Option<usize> {
        let mut k = k;
        let mut seen = false;
        if self.is_punct(k, ',') || self.is_punct(k, '&') || self.is_punct(k, '/') {
            k += 1;
            seen = true;
        }
        if self.is_word(k, "and") || self.is_word(k, "or") {
            k += 1;
            seen = true;
        }
        seen.then_some(k)
    }

    /// A range separator at `k` ("to", "through", an en dash, or a hyphen
    /// between two numbers); returns the index after it.
    fn range_sep(&self, k: usize) -> Option<usize> {
        let t = self.tok(k)?;
        let is_range = t.is_word("to")
            || t.is_word("through")
            || t.is_punct('\u{2013}')
            || t.is_punct('\u{2014}')
            || (self.mode != Mode::Legal
                && t.is_punct('-')
                && self.tok(k + 1).is_some_and(|n| n.kind == TokKind::Num));
        is_range.then_some(k + 1)
    }

    fn article_list(&self, i: usize) -> Option<(Vec<Found>, usize)> {
        let kw_end = self.article_keyword(i, true)?;
        let a_prefix = self.is_word(i, "a");
        let opts = ItemOpts {
            allow_words: self.mode != Mode::Legal && !a_prefix,
            spaced_suffix: true,
            clause_gap: self.mode != Mode::Legal,
        };
        let (first, mut j) = self.article_item(kw_end, opts)?;
        let start = self.toks[i].start;
        let mut out = vec![self.found(&first, start)?];
        let later = ItemOpts {
            allow_words: opts.allow_words && first.from_words,
            ..opts
        };
        let mut last = first;
        let mut last_start = start;
        loop {
            if let Some(k) = self.range_sep(j) {
                if let Some((end_item, next)) = self.article_item(k, later) {
                    let span = last_start..end_item.end;
                    let ends = (last.id(), end_item.id());
                    if let (Some(from), Some(to)) = ends {
                        out.pop();
                        let members = match (&last.clause, &end_item.clause) {
                            (None, None) => expand_article_range(&from, &to),
                            _ => None,
                        };
                        match members {
                            Some(ids) => out.extend(ids.into_iter().map(|id| Found {
                                id,
                                clause: None,
                                span: span.clone(),
                            })),
                            None => {
                                out.push(Found {
                                    id: from,
                                    clause: last.clause.clone(),
                                    span: last_start..last.end,
                                });
                                out.push(Found {
                                    id: to,
                                    clause: end_item.clause.clone(),
                                    span: end_item.start..end_item.end,
                                });
                            }
                        }
                        last_start = end_item.start;
                        last = end_item;
                        j = next;
                        continue;
                    }
                }
            }
            if let Some(k) = self.list_sep(j) {
                if let Some((item, next)) = self.article_item(k, later) {
                    let quantity = self.mode != Mode::Legal
                        && self
                            .word_lower(next)
                            .is_some_and(|w| QUANTITY_WORDS.contains(&w.as_str()));
                    if !quantity {
                        out.push(self.found(&item, item.start)?);
                        last_start = item.start;
                        last = item;
                        j = next;
                        continue;
                    }
                }
            }
            break;
        }
        Some((out, j))
    }

    /// "sub-clause (a) of clause (1) of article 19" → 19 with clause (1)(a).
    /// When a level names several designators ("clauses (1) and (2) of
    /// article 316") the clause is cut above that level, since one `Found`
    /// can only hold one chain.
    fn clause_chain(&self, i: usize) -> Option<(Vec<Found>, usize)> {
        let mut levels: Vec<Option<String>> = Vec::new();
        let mut j = i;
        loop {
            let k = self.level_keyword(j)?;
            let (designators, k2) = self.designator_list(k)?;
            levels.push(if designators.len() == 1 {
                designators.into_iter().next()
            } else {
                None
            });
            let mut k3 = k2;
            if self.is_punct(k3, ',') {
                k3 += 1;
            }
            if !self.is_word(k3, "of") {
                return None;
            }
            j = k3 + 1;
            if self.level_keyword(j).is_none() {
                break;
            }
        }
        let kw_end = self.article_keyword(j, false)?;
        let opts = ItemOpts {
            allow_words: self.mode != Mode::Legal,
            spaced_suffix: true,
            clause_gap: self.mode != Mode::Legal,
        };
        let (item, next) = self.article_item(kw_end, opts)?;
        let mut clause = item.clause.clone().unwrap_or_default();
        for level in levels.iter().rev() {
            match level {
                Some(d) => {
                    clause.push('(');
                    clause.push_str(d);
                    clause.push(')');
                }
                None => break,
            }
        }
        let found = Found {
            id: item.id()?,
            clause: (!clause.is_empty()).then_some(clause),
            span: self.span(i, next),
        };
        Some((vec![found], next))
    }

    /// "clause", "sub-clause", "clauses", "paragraph", "cl." … at `j`.
    fn level_keyword(&self, j: usize) -> Option<usize> {
        let mut k = j;
        if self.is_word(k, "sub") && self.is_hyphen_at(k + 1) {
            k += 2;
        }
        let w = self.word_lower(k)?;
        let level = matches!(
            w.as_str(),
            "clause"
                | "clauses"
                | "subclause"
                | "subclauses"
                | "paragraph"
                | "paragraphs"
                | "subparagraph"
                | "cl"
                | "cls"
        );
        if !level {
            return None;
        }
        k += 1;
        if matches!(w.as_str(), "cl" | "cls") && self.glued(k).is_some_and(|t| t.is_punct('.')) {
            k += 1;
        }
        Some(k)
    }

    /// "(1)", "(1) and (2)", "(a) to (f)", or in user text a bare "4".
    fn designator_list(&self, k: usize) -> Option<(Vec<String>, usize)> {
        let one = |k: usize| -> Option<(String, usize)> {
            if let Some(r) = self.paren_designator(k, true) {
                return Some(r);
            }
            let t = self.tok(k)?;
            (self.mode != Mode::Legal && t.kind == TokKind::Num && t.text.len() <= 3)
                .then(|| (t.text.to_string(), k + 1))
        };
        let (first, mut k) = one(k)?;
        let mut out = vec![first];
        loop {
            let sep = self
                .list_sep(k)
                .or_else(|| self.is_word(k, "to").then_some(k + 1));
            match sep.and_then(&one) {
                Some((d, next)) => {
                    out.push(d);
                    k = next;
                }
                None => break,
            }
        }
        Some((out, k))
    }

    /// Any bare number in Whole mode; in free text only a number glued to a
    /// clause ("15(4)") that is not a section, rule, page, etc.
    fn bare_article(&self, i: usize) -> Option<(Vec<Found>, usize)> {
        let t = self.tok(i)?;
        if t.kind != TokKind::Num || self.mode == Mode::Legal {
            return None;
        }
        let free = self.mode == Mode::Free;
        if free && i > 0 {
            let prev = &self.toks[i - 1];
            let bad_prev = match prev.kind {
                TokKind::Num => true,
                TokKind::Punct => {
                    !t.gap
                        && ['.', '/', ':', '-', '$', '\u{20b9}', '\u{a7}', '#']
                            .iter()
                            .any(|c| prev.is_punct(*c))
                }
                TokKind::Word => {
                    let w = prev.text.to_lowercase();
                    BARE_STOP_WORDS.contains(&w.as_str())
                }
            };
            if bad_prev {
                return None;
            }
        }
        let opts = ItemOpts {
            allow_words: false,
            spaced_suffix: !free,
            clause_gap: !free,
        };
        let (item, next) = self.article_item(i, opts)?;
        if free && item.clause.is_none() {
            return None;
        }
        Some((vec![self.found(&item, item.start)?], next))
    }

    // -- schedules, preamble, appendices ------------------------------------

    /// "the Seventh Schedule", "7th schedule", "First and Fourth Schedules",
    /// "Eighth Sch.".
    fn schedule_by_ordinal(&self, i: usize) -> Option<(Vec<Found>, usize)> {
        let (v, mut j) = self.ordinal_at(i)?;
        let mut items = vec![(v, i, j)];
        while let Some((k, (v2, next))) = self
            .list_sep(j)
            .and_then(|k| self.ordinal_at(k).map(|o| (k, o)))
        {
            items.push((v2, k, next));
            j = next;
        }
        let w = self.word_lower(j)?;
        if !matches!(w.as_str(), "schedule" | "schedules" | "sch") {
            return None;
        }
        // In the Constitution's text "SEVENTH SCHEDULE" is a heading, not a
        // reference (like "PART III").
        if self.mode == Mode::Legal && self.toks[j].text.bytes().all(|b| b.is_ascii_uppercase()) {
            return None;
        }
        let mut next = j + 1;
        if w == "sch" && self.glued(next).is_some_and(|t| t.is_punct('.')) {
            next += 1;
        }
        // "the Sixth Schedule to the Constitution (Amendment) Act" names an Act.
        if self.is_word(next, "to")
            && self.is_word(next + 1, "the")
            && self.is_word(next + 2, "constitution")
        {
            return None;
        }
        let end = self.toks[next - 1].end;
        let mut out = Vec::new();
        for (n, (v, from, _)) in items.iter().enumerate() {
            let id = RefId::try_schedule(*v)?;
            let span = if n == items.len() - 1 {
                self.toks[*from].start..end
            } else {
                self.span(*from, items[n].2)
            };
            out.push(Found {
                id,
                clause: None,
                span,
            });
        }
        Some((out, next))
    }

    /// "schedule 7", "Schedule VII", "Sch. 7" (user text only; the
    /// Constitution never numbers its Schedules this way).
    fn schedule_by_number(&self, i: usize) -> Option<(Vec<Found>, usize)> {
        if self.mode == Mode::Legal {
            return None;
        }
        let w = self.word_lower(i)?;
        if !matches!(w.as_str(), "schedule" | "sch") {
            return None;
        }
        let mut k = i + 1;
        if self.glued(k).is_some_and(|t| t.is_punct('.')) {
            k += 1;
        }
        let (n, next) = self.small_number_or_roman(k)?;
        let id = RefId::try_schedule(n)?;
        Some((
            vec![Found {
                id,
                clause: None,
                span: self.span(i, next),
            }],
            next,
        ))
    }

    fn small_number_or_roman(&self, k: usize) -> Option<(u32, usize)> {
        let t = self.tok(k)?;
        let n = match t.kind {
            TokKind::Num if t.text.len() <= 3 => t.text.parse().ok()?,
            TokKind::Word => {
                // Lower-case numerals only in user text ("schedule vii").
                let upper = t.text.bytes().all(|b| b.is_ascii_uppercase());
                if self.mode == Mode::Legal && !upper {
                    return None;
                }
                from_roman(t.text)?
            }
            _ => return None,
        };
        // "Schedule 7th" or "Appendix IIs" are not numbers we understand.
        if self.glued(k + 1).is_some_and(|n| n.kind != TokKind::Punct) {
            return None;
        }
        Some((n, k + 1))
    }

    fn preamble(&self, i: usize) -> Option<(Vec<Found>, usize)> {
        self.is_word(i, "preamble").then(|| {
            (
                vec![Found {
                    id: RefId::preamble(),
                    clause: None,
                    span: self.span(i, i + 1),
                }],
                i + 1,
            )
        })
    }

    fn appendix(&self, i: usize) -> Option<(Vec<Found>, usize)> {
        let w = self.word_lower(i)?;
        if !matches!(w.as_str(), "appendix" | "app") {
            return None;
        }
        let mut k = i + 1;
        if self.glued(k).is_some_and(|t| t.is_punct('.')) {
            k += 1;
        }
        let (n, next) = self.small_number_or_roman(k)?;
        let id = RefId::try_appendix(n)?;
        Some((
            vec![Found {
                id,
                clause: None,
                span: self.span(i, next),
            }],
            next,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> RefId {
        s.parse().unwrap()
    }

    fn user(s: &str) -> Option<(String, Option<String>)> {
        parse_user_ref(s).map(|u| (u.id.to_string(), u.clause))
    }

    fn refs(text: &str) -> Vec<String> {
        find_refs(text)
            .into_iter()
            .map(|(u, _)| u.to_string())
            .collect()
    }

    // -- canonical ids ------------------------------------------------------

    #[test]
    fn article_normalises_contents_and_body_spellings() {
        // Contents (pp. 4-31) and body spellings of the same Articles.
        for (printed, canonical) in [
            ("243-I", "243I"),
            ("243I", "243I"),
            ("243-O", "243O"),
            ("243Z-O", "243ZO"),
            ("243Z-I", "243ZI"),
            ("243ZO", "243ZO"),
            ("371-I", "371I"),
            ("371B .", "371B"),
            ("21A", "21A"),
            (" 31A ", "31A"),
            ("239AA", "239AA"),
            ("31D", "31D"),
            ("21", "21"),
            ("395.", "395"),
            ("21a", "21A"),
        ] {
            assert_eq!(
                RefId::article(printed).map(|r| r.to_string()),
                Some(canonical.to_string()),
                "{printed:?}"
            );
        }
    }

    #[test]
    fn article_rejects_non_articles() {
        for bad in [
            "", "A", "PART III", "SCH-7", "0", "021", "1234", "21ABCD", "21(1)", "21A-", "2 1",
            "-21", "21.5", "[21A",
        ] {
            assert_eq!(RefId::article(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn from_str_accepts_only_canonical_forms() {
        for ok in [
            "PREAMBLE", "21", "21A", "243ZT", "239AA", "SCH-1", "SCH-12", "APP-I", "APP-III",
        ] {
            assert_eq!(id(ok).as_str(), ok);
        }
        for bad in [
            "preamble",
            "21a",
            "243-I",
            "SCH-07",
            "SCH-0",
            "SCH-",
            "SCH-VII",
            "APP-2",
            "APP-ii",
            "APP-IIII",
            "Article 21",
            " 21",
            "0",
            "1000",
        ] {
            assert!(bad.parse::<RefId>().is_err(), "{bad:?}");
        }
        assert_eq!("".parse::<RefId>(), Err(RefIdError::Empty));
    }

    #[test]
    fn from_str_errors_say_what_is_wrong() {
        let msg = "243-I".parse::<RefId>().unwrap_err().to_string();
        assert!(
            msg.contains("243-I") && msg.contains("RefId::article"),
            "{msg}"
        );
        let msg = "SCH-07".parse::<RefId>().unwrap_err().to_string();
        assert!(msg.contains("leading zeros"), "{msg}");
        let msg = "APP-2".parse::<RefId>().unwrap_err().to_string();
        assert!(msg.contains("Roman"), "{msg}");
    }

    #[test]
    fn constructors_kinds_and_parts() {
        assert_eq!(RefId::preamble().as_str(), "PREAMBLE");
        assert_eq!(RefId::preamble().kind(), ProvisionKind::Preamble);
        assert_eq!(RefId::schedule(7).as_str(), "SCH-7");
        assert_eq!(RefId::try_schedule(0), None);
        assert_eq!(RefId::try_schedule(256), None);
        assert_eq!(RefId::appendix(2).as_str(), "APP-II");
        assert_eq!(RefId::try_appendix(3).unwrap().as_str(), "APP-III");
        assert_eq!(RefId::try_appendix(0), None);
        assert_eq!(id("APP-III").appendix_number(), Some(3));
        assert_eq!(id("SCH-10").schedule_number(), Some(10));
        assert_eq!(id("SCH-10").kind(), ProvisionKind::Schedule);
        assert_eq!(id("APP-I").kind(), ProvisionKind::Appendix);
        assert_eq!(id("243ZA").kind(), ProvisionKind::Article);
        assert_eq!(id("243ZA").article_number(), Some((243, "ZA".to_string())));
        assert_eq!(id("21").article_number(), Some((21, String::new())));
        assert_eq!(id("SCH-1").article_number(), None);
        assert_eq!(id("21").schedule_number(), None);
        assert_eq!(RefId::article_from_parts(21, "a").unwrap().as_str(), "21A");
        assert_eq!(RefId::article_from_parts(0, ""), None);
    }

    #[test]
    #[should_panic(expected = "no Schedule 0")]
    fn schedule_zero_is_a_bug() {
        let _ = RefId::schedule(0);
    }

    #[test]
    fn labels_read_like_the_constitution() {
        assert_eq!(id("21A").label(), "Article 21A");
        assert_eq!(id("SCH-7").label(), "Seventh Schedule");
        assert_eq!(id("SCH-12").label(), "Twelfth Schedule");
        assert_eq!(id("APP-II").label(), "Appendix II");
        assert_eq!(RefId::preamble().label(), "Preamble");
    }

    #[test]
    fn ordering_follows_the_constitution() {
        let mut ids: Vec<RefId> = [
            "APP-I", "SCH-12", "SCH-2", "244", "243ZT", "243ZA", "243Z", "243A", "243", "22",
            "21A", "21", "3", "PREAMBLE", "239B", "239AB", "239AA", "239A", "APP-III", "SCH-10",
        ]
        .iter()
        .map(|s| id(s))
        .collect();
        ids.sort();
        let got: Vec<&str> = ids.iter().map(RefId::as_str).collect();
        assert_eq!(
            got,
            [
                "PREAMBLE", "3", "21", "21A", "22", "239A", "239AA", "239AB", "239B", "243",
                "243A", "243Z", "243ZA", "243ZT", "244", "SCH-2", "SCH-10", "SCH-12", "APP-I",
                "APP-III"
            ]
        );
        assert!(ProvisionKind::Preamble < ProvisionKind::Article);
        assert!(ProvisionKind::Schedule < ProvisionKind::Appendix);
    }

    #[test]
    fn ordering_supports_range_queries_over_known_ids() {
        use std::collections::BTreeSet;
        let known: BTreeSet<RefId> = ["268", "268A", "269", "269A", "270", "279", "279A", "280"]
            .iter()
            .map(|s| id(s))
            .collect();
        let members: Vec<&str> = known
            .range(id("268")..=id("279"))
            .map(RefId::as_str)
            .collect();
        assert_eq!(members, ["268", "268A", "269", "269A", "270", "279"]);
    }

    #[test]
    fn serde_is_a_plain_string_and_validates() {
        assert_eq!(serde_json::to_string(&id("21A")).unwrap(), "\"21A\"");
        assert_eq!(
            serde_json::from_str::<RefId>("\"SCH-7\"").unwrap(),
            id("SCH-7")
        );
        assert!(serde_json::from_str::<RefId>("\"243-I\"").is_err());
        assert_eq!(
            serde_json::to_string(&ProvisionKind::Appendix).unwrap(),
            "\"appendix\""
        );
        let u = UserRef {
            id: id("19"),
            clause: Some("(1)(a)".into()),
        };
        let json = serde_json::to_string(&u).unwrap();
        assert_eq!(json, r#"{"id":"19","clause":"(1)(a)"}"#);
        assert_eq!(serde_json::from_str::<UserRef>(&json).unwrap(), u);
        assert_eq!(u.to_string(), "19(1)(a)");
    }

    #[test]
    fn roman_numerals_round_trip_and_reject_words() {
        assert_eq!(from_roman("III"), Some(3));
        assert_eq!(from_roman("xiv"), Some(14));
        assert_eq!(from_roman("IIII"), None);
        assert_eq!(from_roman("MIX"), Some(1009));
        assert_eq!(from_roman("DID"), None);
        assert_eq!(from_roman(""), None);
        assert_eq!(to_roman(12), "XII");
    }

    // -- number words -------------------------------------------------------

    #[test]
    fn number_words() {
        assert_eq!(
            cardinal_from_words("three hundred and sixty-eight"),
            Some(368)
        );
        assert_eq!(cardinal_from_words("Twenty-one"), Some(21));
        assert_eq!(cardinal_from_words("twenty one"), Some(21));
        assert_eq!(cardinal_from_words("one hundred"), Some(100));
        assert_eq!(cardinal_from_words("three hundred ninety-five"), Some(395));
        assert_eq!(cardinal_from_words("fourteen"), Some(14));
        assert_eq!(cardinal_from_words("first"), None);
        assert_eq!(cardinal_from_words("twenty and one"), None);
        assert_eq!(cardinal_from_words("banana"), None);
        assert_eq!(ordinal_from_words("Eighty-sixth"), Some(86));
        assert_eq!(ordinal_from_words("One Hundred and Sixth"), Some(106));
        assert_eq!(ordinal_from_words("One-hundred and Sixth"), Some(106));
        assert_eq!(ordinal_from_words("One hundred and fourth"), Some(104));
        assert_eq!(ordinal_from_words("One Hundredth"), Some(100));
        assert_eq!(ordinal_from_words("OneHundredth"), Some(100));
        assert_eq!(ordinal_from_words("Seventh"), Some(7));
        assert_eq!(ordinal_from_words("Twentieth"), Some(20));
        assert_eq!(ordinal_from_words("7th"), Some(7));
        assert_eq!(ordinal_from_words("86th"), Some(86));
        assert_eq!(ordinal_from_words("seven"), None);
        assert_eq!(ordinal_from_words("7"), None);
    }

    #[test]
    fn ordinal_words_match_the_amendment_titles() {
        assert_eq!(ordinal_words(1).unwrap(), "First");
        assert_eq!(ordinal_words(7).unwrap(), "Seventh");
        assert_eq!(ordinal_words(12).unwrap(), "Twelfth");
        assert_eq!(ordinal_words(40).unwrap(), "Fortieth");
        assert_eq!(ordinal_words(44).unwrap(), "Forty-fourth");
        assert_eq!(ordinal_words(86).unwrap(), "Eighty-sixth");
        assert_eq!(ordinal_words(100).unwrap(), "One Hundredth");
        assert_eq!(ordinal_words(101).unwrap(), "One Hundred and First");
        assert_eq!(ordinal_words(106).unwrap(), "One Hundred and Sixth");
        assert_eq!(ordinal_words(0), None);
        assert_eq!(ordinal_words(1000), None);
        for n in 1..=999 {
            assert_eq!(
                ordinal_from_words(&ordinal_words(n).unwrap()),
                Some(n),
                "{n}"
            );
        }
    }

    // -- parse_user_ref -----------------------------------------------------

    #[test]
    fn user_refs_to_articles() {
        let a = |s: &str| Some((s.to_string(), None));
        assert_eq!(user("Art. 21-A"), a("21A"));
        assert_eq!(user("article 21a"), a("21A"));
        assert_eq!(user("Article 21 A"), a("21A"));
        assert_eq!(user("article 21 a"), a("21A"));
        assert_eq!(user("A32"), a("32"));
        assert_eq!(user("a 32"), a("32"));
        assert_eq!(user("21A"), a("21A"));
        assert_eq!(user("21"), a("21"));
        assert_eq!(user("243-ZA"), a("243ZA"));
        assert_eq!(user("Article 243Z-O"), a("243ZO"));
        assert_eq!(user("ARTICLE 371-I"), a("371I"));
        assert_eq!(user("  Article   14 ?"), a("14"));
        assert_eq!(user("“Article 21”"), a("21"));
        assert_eq!(user("article three hundred and sixty-eight"), a("368"));
        assert_eq!(user("Article Twenty-one A"), a("21A"));
        assert_eq!(user("arts. 14"), a("14"));
        assert_eq!(user("Art-21"), a("21"));
        assert_eq!(user("article no. 21"), a("21"));
        assert_eq!(user("Article: 21A"), a("21A"));
    }

    #[test]
    fn user_refs_with_clauses() {
        let c = |s: &str, cl: &str| Some((s.to_string(), Some(cl.to_string())));
        assert_eq!(user("15(4)"), c("15", "(4)"));
        assert_eq!(user("Article 15 (4)"), c("15", "(4)"));
        assert_eq!(user("Art 19(1)(a)"), c("19", "(1)(a)"));
        assert_eq!(user("art.19(1)(a)"), c("19", "(1)(a)"));
        assert_eq!(user("article 19 (1) (a)"), c("19", "(1)(a)"));
        assert_eq!(user("Article 19( 1 )( A )"), c("19", "(1)(a)"));
        assert_eq!(user("article 16(4a)"), c("16", "(4A)"));
        assert_eq!(user("Article 21A(1)"), c("21A", "(1)"));
        assert_eq!(user("clause (2) of article 32"), c("32", "(2)"));
        assert_eq!(user("clause 4 of article 15"), c("15", "(4)"));
        assert_eq!(
            user("sub-clause (a) of clause (1) of article 19"),
            c("19", "(1)(a)")
        );
        assert_eq!(user("article 22(4)(a)"), c("22", "(4)(a)"));
        assert_eq!(user("art 31A(1)(ii)"), c("31A", "(1)(ii)"));
    }

    #[test]
    fn user_refs_to_schedules_preamble_appendices() {
        let a = |s: &str| Some((s.to_string(), None));
        assert_eq!(user("Seventh Schedule"), a("SCH-7"));
        assert_eq!(user("the seventh schedule"), a("SCH-7"));
        assert_eq!(user("schedule 7"), a("SCH-7"));
        assert_eq!(user("7th schedule"), a("SCH-7"));
        assert_eq!(user("Schedule VII"), a("SCH-7"));
        assert_eq!(user("schedule vii"), a("SCH-7"));
        assert_eq!(user("Eighth Sch."), a("SCH-8"));
        assert_eq!(user("Sch. 10"), a("SCH-10"));
        assert_eq!(user("Twelfth Schedule"), a("SCH-12"));
        assert_eq!(user("the Preamble"), a("PREAMBLE"));
        assert_eq!(user("preamble"), a("PREAMBLE"));
        assert_eq!(user("PREAMBLE."), a("PREAMBLE"));
        assert_eq!(user("Appendix II"), a("APP-II"));
        assert_eq!(user("appendix 3"), a("APP-III"));
        assert_eq!(user("App. I"), a("APP-I"));
    }

    #[test]
    fn user_ref_rejects_anything_else() {
        for s in [
            "",
            "Part III",
            "what is article 21",
            "Articles 14 and 19",
            "article",
            "schedule",
            "21st",
            "1950s",
            "article 1234",
            "Schedule 0",
            "seven",
            "this article",
            "21 and",
            "Article 14 of the Constitution",
        ] {
            assert_eq!(user(s), None, "{s:?}");
        }
    }

    // -- find_refs ----------------------------------------------------------

    #[test]
    fn finds_lists_in_questions() {
        assert_eq!(refs("What do Articles 14 and 19 say?"), ["14", "19"]);
        assert_eq!(refs("articles 14, 15 and 16"), ["14", "15", "16"]);
        assert_eq!(refs("articles 14, 15, and 16"), ["14", "15", "16"]);
        assert_eq!(refs("Articles 14, 19 or 21"), ["14", "19", "21"]);
        assert_eq!(refs("articles 14 & 21"), ["14", "21"]);
        assert_eq!(refs("Compare article 14 and article 21A."), ["14", "21A"]);
        assert_eq!(
            refs("Is art. 21A enforceable against private schools under 15(5)?"),
            ["21A", "15(5)"]
        );
        assert_eq!(refs("Articles 15(4) and 16(4)"), ["15(4)", "16(4)"]);
    }

    #[test]
    fn spans_point_at_the_words() {
        let text = "What do Articles 14 and 19 say?";
        let found = find_refs(text);
        assert_eq!(&text[found[0].1.clone()], "Articles 14");
        assert_eq!(&text[found[1].1.clone()], "19");
        let text = "Is art. 21A enforceable under 15(5)?";
        let found = find_refs(text);
        assert_eq!(&text[found[0].1.clone()], "art. 21A");
        assert_eq!(&text[found[1].1.clone()], "15(5)");
        let text = "see clause (2) of article 32 now";
        let found = find_refs(text);
        assert_eq!(&text[found[0].1.clone()], "clause (2) of article 32");
        assert_eq!(found[0].0.clause.as_deref(), Some("(2)"));
    }

    #[test]
    fn ranges_expand_within_one_base_and_cap() {
        assert_eq!(
            refs("Articles 243-ZA to 243-ZC"),
            ["243ZA", "243ZB", "243ZC"]
        );
        assert_eq!(refs("articles 14 to 18"), ["14", "15", "16", "17", "18"]);
        assert_eq!(refs("articles 14-16"), ["14", "15", "16"]);
        assert_eq!(refs("articles 14–16"), ["14", "15", "16"]);
        assert_eq!(
            refs("articles 243 to 243C"),
            ["243", "243A", "243B", "243C"]
        );
        // Different bases or too long: only the two ends.
        assert_eq!(refs("articles 14 to 16A"), ["14", "16A"]);
        assert_eq!(refs("articles 1 to 395"), ["1", "395"]);
        assert_eq!(refs("articles 18 to 14"), ["18", "14"]);
        assert_eq!(refs("articles 243 to 243ZT"), ["243", "243ZT"]);
        // A list after a range, as in "articles 324 to 327 and 329".
        assert_eq!(
            refs("articles 324 to 327 and 329"),
            ["324", "325", "326", "327", "329"]
        );
        let text = "Articles 243-ZA to 243-ZC";
        for (_, span) in find_refs(text) {
            assert_eq!(&text[span], text);
        }
    }

    #[test]
    fn expand_article_range_shapes() {
        let e = |a: &str, b: &str| {
            expand_article_range(&id(a), &id(b))
                .map(|v| v.iter().map(|r| r.to_string()).collect::<Vec<_>>())
        };
        assert_eq!(
            e("14", "16"),
            Some(vec!["14".into(), "15".into(), "16".into()])
        );
        assert_eq!(e("21", "21"), Some(vec!["21".into()]));
        assert_eq!(
            e("243ZA", "243ZB"),
            Some(vec!["243ZA".into(), "243ZB".into()])
        );
        assert_eq!(e("243", "243A"), Some(vec!["243".into(), "243A".into()]));
        assert_eq!(e("1", "20").map(|v| v.len()), Some(20));
        assert_eq!(e("1", "21"), None);
        assert_eq!(e("243A", "243ZT"), None);
        assert_eq!(e("243A", "244"), None);
        assert_eq!(e("16", "14"), None);
        assert_eq!(e("SCH-1", "SCH-3"), None);
        assert_eq!(
            e("239AA", "239AB"),
            Some(vec!["239AA".into(), "239AB".into()])
        );
    }

    #[test]
    fn bare_numbers_are_not_refs_in_free_text() {
        assert!(refs("Can a person of 18 years vote?").is_empty());
        assert!(refs("What happened in 1950?").is_empty());
        assert!(refs("Is section 498(a) of the IPC valid?").is_empty());
        assert!(refs("see page 12(a)").is_empty());
        assert!(refs("version 1.15(4)").is_empty());
        assert!(refs("21A is a flat number").is_empty());
        assert!(refs("the 21st century").is_empty());
        assert!(refs("Is 15 (4) valid?").is_empty());
        assert!(refs("Part III and Part IVA").is_empty());
        assert_eq!(refs("under 15(4) and 16(4)"), ["15(4)", "16(4)"]);
        assert_eq!(refs("What does 19(1)(a) protect?"), ["19(1)(a)"]);
    }

    #[test]
    fn free_text_guards_against_prose() {
        assert_eq!(refs("Is Article 14 A fundamental right?"), ["14"]);
        assert_eq!(refs("Article 21 A says what?"), ["21A"]);
        assert_eq!(refs("article 21, 1950"), ["21"]);
        assert_eq!(refs("Article 14 and 18 years"), ["14"]);
        assert_eq!(refs("What is an article?"), Vec::<String>::new());
        assert_eq!(refs("a 32 year old"), Vec::<String>::new());
        assert_eq!(refs("What does A32 say?"), ["32"]);
        assert_eq!(refs("article 21 (right to life)"), ["21"]);
        assert_eq!(refs("Articles 2 and 3 to provide"), ["2", "3"]);
    }

    #[test]
    fn finds_schedules_preamble_appendices_and_words() {
        assert_eq!(refs("What is in the Tenth Schedule?"), ["SCH-10"]);
        assert_eq!(refs("the 7th schedule and schedule 8"), ["SCH-7", "SCH-8"]);
        assert_eq!(refs("the First and Fourth Schedules"), ["SCH-1", "SCH-4"]);
        assert_eq!(refs("Does the preamble say secular?"), ["PREAMBLE"]);
        assert_eq!(refs("see Appendix II"), ["APP-II"]);
        assert_eq!(refs("article three hundred and sixty-eight"), ["368"]);
        assert_eq!(refs("Article Twenty-one A"), ["21A"]);
        assert_eq!(refs("articles fourteen and nineteen"), ["14", "19"]);
        assert_eq!(
            refs("sub-clause (a) of clause (1) of article 19 and the Eighth Sch."),
            ["19(1)(a)", "SCH-8"]
        );
        // An Act's name is not a Schedule of the Constitution.
        assert!(refs("the Sixth Schedule to the Constitution (Amendment) Act, 2003").is_empty());
    }

    #[test]
    fn references_in_indian_scripts_are_found_where_they_were_typed() {
        let q = "अनुच्छेद २१-क क्या कहता है?";
        let found = find_refs(q);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0.id.as_str(), "21A");
        assert_eq!(&q[found[0].1.clone()], "अनुच्छेद २१-क");
        let ids = |q: &str| -> Vec<String> {
            find_refs(q)
                .into_iter()
                .map(|(r, _)| r.to_string())
                .collect()
        };
        assert_eq!(ids("अनुच्छेद 21 क्या कहता है?"), ["21"]);
        assert_eq!(ids("आठवीं अनुसूची में कितनी भाषाएँ हैं?"), ["SCH-8"]);
        assert_eq!(ids("அரசியலமைப்பு உறுப்பு 32 என்ன?"), ["32"]);
        assert_eq!(ids("अनुच्छेद 19(1)(क) में क्या है"), ["19(1)"]);
        assert!(ids("धारा 302 में सज़ा क्या है?").is_empty());
        assert!(ids("21 साल की उम्र में").is_empty());
        assert_eq!(parse_user_ref("अनुच्छेद २१क").unwrap().id.as_str(), "21A");
    }

    #[test]
    fn tokenizer_records_gaps_and_spans() {
        let toks = tokenize("Art. 21-A (4)");
        let kinds: Vec<(TokKind, &str, bool)> =
            toks.iter().map(|t| (t.kind, t.text, t.gap)).collect();
        assert_eq!(
            kinds,
            [
                (TokKind::Word, "Art", false),
                (TokKind::Punct, ".", false),
                (TokKind::Num, "21", true),
                (TokKind::Punct, "-", false),
                (TokKind::Word, "A", false),
                (TokKind::Punct, "(", true),
                (TokKind::Num, "4", false),
                (TokKind::Punct, ")", false),
            ]
        );
        let s = "“Article”—21";
        for t in tokenize(s) {
            assert_eq!(&s[t.start..t.end], t.text);
        }
    }
}
