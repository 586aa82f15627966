//! Removes identifying details from a question before it reaches a table, a log line or an
//! LLM. Each becomes a bracketed placeholder ("[phone]"), so the question still reads as a
//! question:
//!
//! - direct identifiers: emails, phone numbers, Aadhaar / PAN / passport / voter-ID-like
//!   numbers, account or card numbers and PIN codes;
//! - labelled fields: "Name: …", "Full name - …", "Father's name: …" → "[name]", "Address: …"
//!   → "[address]", "DOB: …", "Date of birth: …" → "[dob]";
//! - a personal name introduced by "my name is", "I am", "I'm", "this is", "myself", "s/o" or
//!   "son of" …: one to four capitalised words, unless the first is a word that is not a name ("I am Indian",
//!   "I am Muslim", "I am Governor", "This is Article 21" stay);
//! - street addresses: a house number and a street ("14 MG Road"), or a unit with a number
//!   ("Flat 3B,", "H.No. 12-3-45", "House No 7"), with the places and PIN code that follow;
//! - a date of birth introduced as one ("born on 12/03/1990", "DOB 12-03-1990").
//!
//! What it must never touch: the references a legal question is made of ("Article 370",
//! "15(4)", "Article 243ZH", "the 86th Amendment", "1950", "SCH-7", "List II entry 5"), nor
//! what a citizen says about themselves that the answer may turn on ("I am 34", "I am an
//! Indian citizen", "I am a Hindu"). Identifiers are long digit runs or fixed letter-digit
//! shapes; references are short. The word lists the name and address rules consult are in
//! `data/scrub.toml`; the chat page (`src/http/page/app.js`) strips the same kinds in the
//! browser before sending, and the server scrubs again.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;

/// The word lists, bundled at compile time.
const LISTS_TOML: &str = include_str!("../../data/scrub.toml");

/// What [`scrub`] removed, by placeholder (never the values themselves).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Scrubbed {
    pub text: String,
    /// Placeholders inserted, in order of the rules ("[phone]", "[email]" …).
    pub removed: Vec<&'static str>,
}

/// The text with every identifying detail replaced by its placeholder.
pub fn scrub(text: &str) -> Scrubbed {
    let mut out = text.to_string();
    let mut removed = Vec::new();
    for rule in RULES.iter() {
        let spans = rule.find(&LEXICON, &out);
        if spans.is_empty() {
            continue;
        }
        let mut next = String::with_capacity(out.len());
        let mut last = 0;
        for (range, placeholder) in &spans {
            next.push_str(&out[last..range.start]);
            next.push_str(placeholder);
            last = range.end;
            removed.push(*placeholder);
        }
        next.push_str(&out[last..]);
        out = next;
    }
    Scrubbed { text: out, removed }
}

// ---------------------------------------------------------------------------------------------
// Rules. Order matters: a labelled field before the shapes inside it, an address before the
// PIN code at its end, longer digit shapes before shorter ones (a 16-digit card before a
// 12-digit Aadhaar, an Aadhaar before a phone).

enum Rule {
    /// Every match of a pattern becomes the placeholder.
    Pattern(&'static str, Regex),
    /// "Name: …", "Address: …", "DOB: …".
    Labels,
    /// "born on 12/03/1990", "DOB 12-03-1990".
    BirthDates,
    /// "14 MG Road, Bengaluru 560001", "Flat 3B, Shanti Apartments".
    Addresses,
    /// "my name is Ravi Kumar", "I am Ravi".
    Names,
}

/// A span of the text and the placeholder that replaces it; sorted, never overlapping.
type Spans = Vec<(Range<usize>, &'static str)>;

impl Rule {
    fn find(&self, lx: &Lexicon, text: &str) -> Spans {
        match self {
            Rule::Pattern(placeholder, re) => re
                .find_iter(text)
                .map(|m| (m.range(), *placeholder))
                .collect(),
            Rule::Labels => lx.labels(text),
            Rule::BirthDates => lx.birth_dates(text),
            Rule::Addresses => lx.addresses(text),
            Rule::Names => lx.names(text),
        }
    }
}

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| panic!("scrub pattern {pattern:?}: {e}"))
}

static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    let rule = |placeholder, pattern: &str| Rule::Pattern(placeholder, re(pattern));
    vec![
        rule("[email]", r"(?i)\b[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}\b"),
        Rule::Labels,
        Rule::BirthDates,
        Rule::Addresses,
        Rule::Names,
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
        rule("[pin-code]", PIN),
    ]
});

/// A PIN code: six digits, the first 1–9, sometimes split 3 + 3.
const PIN: &str = r"\b[1-9]\d{2} ?\d{3}\b";

/// A date as people write one: 12/03/1990, 12-3-90, 1990-03-12, 12th March 1990, March 12, 1990.
const DATE: &str = r"(?i:\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})|\d{4}-\d{1,2}-\d{1,2}|\d{1,2}(?:st|nd|rd|th)?[ \t]+(?:of[ \t]+)?(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?,?[ \t]+\d{4}|(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?[ \t]+\d{1,2}(?:st|nd|rd|th)?,?[ \t]+\d{4})\b";

/// A capitalised word ("Ravi", "MG", "M.G.", "Rd.", "O'Brien") or an ordinal ("3rd").
const WORD: &str =
    r"(?:\p{Lu}[\p{L}\p{M}'’\-]*(?:\.\p{Lu}[\p{L}\p{M}'’\-]*)*\.?|\d{1,3}(?:st|nd|rd|th)\b)";

/// A house number: 14, 3B, 221B, B-12, 12/3, 12-3-45.
const NUM: &str = r"[A-Za-z]?\d{1,5}[A-Za-z]?(?:[-/][A-Za-z0-9]{1,5})*\b";

// ---------------------------------------------------------------------------------------------
// The word lists and the patterns built from them.

#[derive(Deserialize)]
struct Lists {
    labels: LabelLists,
    names: NameLists,
    address: AddressLists,
}

#[derive(Deserialize)]
struct LabelLists {
    name: Vec<String>,
    address: Vec<String>,
    dob: Vec<String>,
    address_parts: Vec<String>,
    other: Vec<String>,
}

#[derive(Deserialize)]
struct NameLists {
    not_names: Vec<String>,
    titles: Vec<String>,
}

#[derive(Deserialize)]
struct AddressLists {
    street_words: Vec<String>,
    unit_words: Vec<String>,
    reference_words: Vec<String>,
    stop_words: Vec<String>,
    abbreviations: Vec<String>,
}

/// A set of lower-case words; a word is looked up lower-cased, without a trailing ".".
struct Words(HashSet<String>);

impl Words {
    fn new(list: &[String]) -> Words {
        Words(list.iter().map(|w| w.trim().to_lowercase()).collect())
    }

    fn has(&self, word: &str) -> bool {
        let w = word.trim_end_matches('.');
        !w.is_empty() && self.0.contains(&w.to_lowercase())
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Name,
    Address,
    Dob,
}

impl Kind {
    fn placeholder(self) -> &'static str {
        match self {
            Kind::Name => "[name]",
            Kind::Address => "[address]",
            Kind::Dob => "[dob]",
        }
    }
}

struct Lexicon {
    not_names: Words,
    titles: Words,
    street: Words,
    reference: Words,
    stop: Words,
    abbreviations: Words,
    /// Where a label starts a field: groups `name`, `address`, `dob`; ends after the separator.
    label: Regex,
    /// Any label (the start of the next field), for a name's or a date's value.
    next_label: Regex,
    /// Any label but the parts of an address, for an address's value.
    next_label_in_address: Regex,
    /// Where a run-on address value turns back into the question (" and I …").
    clause: Regex,
    date_at_start: Regex,
    birth_date: Regex,
    name_intro: Regex,
    /// One word of a name, at the start of the haystack.
    name_word: Regex,
    /// A unit word and a number: "Flat No. 3B", "H.No. 12-3-45".
    unit_no: Regex,
    /// A capitalised unit word and a number, to be followed by a comma: "Flat 3B,".
    unit_cap: Regex,
    /// "#14," as in "#14, 3rd Cross".
    hash_no: Regex,
    /// A house number and up to four words after it, one of which should be a street word.
    house: Regex,
    /// A run of two to four capitalised words (a street without a number).
    caps: Regex,
    /// What may separate the parts of an address.
    sep: Regex,
    pin_at_start: Regex,
    /// One word or number of a place, at the start of the haystack.
    place_word: Regex,
}

/// The regex for a list of labels: longest first; "'" may be ’ or left out, "." may be left
/// out, a space is any run of spaces.
fn alternatives<'a>(labels: impl IntoIterator<Item = &'a String>) -> String {
    let mut labels: Vec<&String> = labels.into_iter().collect();
    labels.sort_by_key(|l| std::cmp::Reverse(l.len()));
    labels
        .iter()
        .map(|l| {
            let mut out = String::new();
            for c in l.trim().chars() {
                match c {
                    '\'' | '’' => out.push_str("['’]?"),
                    '.' => out.push_str(r"\.?"),
                    ' ' => out.push_str(r"[ \t]+"),
                    c => out.push_str(&regex::escape(&c.to_string())),
                }
            }
            out
        })
        .collect::<Vec<_>>()
        .join("|")
}

static LEXICON: LazyLock<Lexicon> = LazyLock::new(|| {
    let lists: Lists =
        toml::from_str(LISTS_TOML).unwrap_or_else(|e| panic!("data/scrub.toml is invalid: {e}"));
    let l = &lists.labels;
    let label = format!(
        r"(?im)(?:^|[,;:.!?(]|\b(?:my|his|her|our|your|their)\b)[ \t]*(?:(?P<name>{})|(?P<address>{})|(?P<dob>{}))[ \t]*(?::|[-–—])[ \t]*",
        alternatives(&l.name),
        alternatives(&l.address),
        alternatives(&l.dob),
    );
    let every: Vec<&String> = [&l.name, &l.address, &l.dob, &l.address_parts, &l.other]
        .into_iter()
        .flatten()
        .collect();
    let not_address: Vec<&String> = [&l.name, &l.address, &l.dob, &l.other]
        .into_iter()
        .flatten()
        .collect();
    let next = |labels: Vec<&String>| {
        re(&format!(
            r"(?im)(?:^|[\s,;(])(?:{})[ \t]*(?::|[-–—])",
            alternatives(labels)
        ))
    };
    let a = &lists.address;
    let capitalised: Vec<String> = a
        .unit_words
        .iter()
        .filter(|w| w.chars().count() > 1)
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect())
                .unwrap_or_default()
        })
        .collect();
    Lexicon {
        not_names: Words::new(&lists.names.not_names),
        titles: Words::new(&lists.names.titles),
        street: Words::new(&a.street_words),
        reference: Words::new(&a.reference_words),
        stop: Words::new(&a.stop_words),
        abbreviations: Words::new(&a.abbreviations),
        label: re(&label),
        next_label: next(every),
        next_label_in_address: next(not_address),
        clause: re(
            r"[ \t]+(?:and|but|so|can|could|will|would|should|what|why|how|is|are|was|were|i|my|please|because|who|which|whether|if)\b",
        ),
        date_at_start: re(&format!("^{DATE}")),
        birth_date: re(&format!(
            r"(?i)\b(?:born[ \t]+(?:on[ \t]+)?(?:the[ \t]+)?|(?:d\.?[ \t]?o\.?[ \t]?b\.?|date[ \t]+of[ \t]+birth|birth[ \t]*date)[ \t]*(?:is[ \t]+|[:\-–][ \t]*)?)(?P<v>{DATE})"
        )),
        name_intro: re(
            r"(?i)(?:\b(?:(?:my|his|her|our)[ \t]+(?:(?:father|mother|husband|wife|son|daughter|brother|sister|guardian)['’]?s[ \t]+)?(?:full[ \t]+)?name[ \t]+is|my[ \t]+name['’]s|i[ \t]+am|i['’]m|this[ \t]+is|myself|(?:son|daughter|wife|husband)[ \t]+of)\b|\b[sdwch]/o\b)[ \t]*[:,\-]?[ \t]*",
        ),
        name_word: re(r"^\p{Lu}[\p{L}\p{M}'’\-]*(?:\.\p{Lu}[\p{L}\p{M}'’\-]*)*\.?"),
        unit_no: re(&format!(
            r"(?i)\b(?:{})\b\.?[ \t]*(?:no\b\.?|number\b|#)[ \t]*[:.\-]?[ \t]*{NUM}",
            alternatives(&a.unit_words)
        )),
        unit_cap: re(&format!(
            r"\b(?:{})[ \t]+{NUM}",
            capitalised
                .iter()
                .map(|w| regex::escape(w))
                .collect::<Vec<_>>()
                .join("|")
        )),
        hash_no: re(&format!(r"(?:^|[\s(])(#[ \t]?{NUM})")),
        house: re(&format!(
            r"\b(?:(?i:no)\.?[ \t]*)?(?P<num>{NUM}),?[ \t]+(?P<words>{WORD}(?:[ \t]+{WORD}){{0,3}})"
        )),
        caps: re(&format!(r"\b{WORD}(?:[ \t]+{WORD}){{1,3}}")),
        sep: re(r"^(?:[ \t]*(?:,|[-–]|\r?\n)[ \t]*|[ \t]+)"),
        pin_at_start: re(&format!("^{PIN}")),
        place_word: re(&format!(r"^(?:{WORD}|\d{{1,4}}[A-Za-z]?\b)")),
    }
});

/// The next char boundary after `i` (to retry a pattern one character further on).
fn after_char(text: &str, i: usize) -> usize {
    i + text[i..].chars().next().map_or(1, char::len_utf8)
}

/// The spaces and tabs at the start of `s`, in bytes.
fn blanks(s: &str) -> usize {
    s.len() - s.trim_start_matches([' ', '\t']).len()
}

impl Lexicon {
    /// How much of a word token is the word: a trailing "." that ends a sentence is not
    /// ("Kumar." → "Kumar", true); an initial's or an abbreviation's is ("R.", "Rd.", "M.G.").
    fn word_end(&self, tok: &str) -> (usize, bool) {
        match tok.strip_suffix('.') {
            Some(core)
                if core.chars().count() > 2
                    && !core.contains('.')
                    && !self.abbreviations.has(core) =>
            {
                (core.len(), true)
            }
            _ => (tok.len(), false),
        }
    }

    /// Where a sentence ends in `s`: a newline, "?", "!", or a "." before a space that is not
    /// an initial's or an abbreviation's.
    fn sentence_end(&self, s: &str) -> usize {
        for (i, c) in s.char_indices() {
            match c {
                '\n' | '\r' | '?' | '!' => return i,
                '.' => {
                    let next = s[i + 1..].chars().next();
                    if next.is_some_and(|n| !n.is_whitespace()) {
                        continue;
                    }
                    let word_start = s[..i]
                        .rfind(|c: char| !(c.is_alphanumeric() || c == '.'))
                        .map_or(0, |j| j + 1);
                    let word = &s[word_start..i];
                    let initial = word.chars().count() <= 2 || word.contains('.');
                    if !initial && !self.abbreviations.has(word) {
                        return i;
                    }
                }
                _ => {}
            }
        }
        s.len()
    }

    // -----------------------------------------------------------------------------------------
    // Labelled fields.

    fn labels(&self, text: &str) -> Spans {
        let mut out: Spans = Vec::new();
        let mut pos = 0;
        while let Some(c) = self.label.captures_at(text, pos) {
            let m = c.get(0).expect("group 0");
            let kind = if c.name("name").is_some() {
                Kind::Name
            } else if c.name("address").is_some() {
                Kind::Address
            } else {
                Kind::Dob
            };
            match self.label_value(text, m.end(), kind) {
                Some(v) => {
                    pos = v.end;
                    out.push((v, kind.placeholder()));
                }
                None => pos = m.end().max(after_char(text, m.start())),
            }
            if pos >= text.len() {
                break;
            }
        }
        out
    }

    /// The value of a field that starts at `start`: to the end of the line or sentence, or the
    /// next label; a name's also to a comma or a word that is not a name, a date's to its end.
    fn label_value(&self, text: &str, start: usize, kind: Kind) -> Option<Range<usize>> {
        let rest = &text[start..];
        if kind == Kind::Dob {
            if let Some(m) = self.date_at_start.find(rest) {
                return Some(start..start + m.end());
            }
        }
        let mut end = self.sentence_end(rest);
        let next = if kind == Kind::Address {
            &self.next_label_in_address
        } else {
            &self.next_label
        };
        if let Some(m) = next.find(rest) {
            end = end.min(m.start());
        }
        if kind == Kind::Address {
            if let Some(m) = self.clause.find(rest) {
                end = end.min(m.start());
            }
        } else if let Some(i) = rest.find([',', ';', '(']) {
            end = end.min(i);
        }
        let mut value = &rest[..end];
        if kind == Kind::Name {
            // "Name: Ravi Kumar I am 34" → "Ravi Kumar".
            let mut offset = 0;
            for word in value.split_whitespace() {
                let at = offset + value[offset..].find(word).expect("a word of value");
                if self.not_names.has(word.trim_end_matches([':', '.'])) {
                    value = &value[..at];
                    break;
                }
                offset = at + word.len();
            }
        }
        let value = value.trim_end_matches(|c: char| {
            c.is_whitespace() || matches!(c, ',' | ';' | ':' | '-' | '–' | '—')
        });
        if value.trim().is_empty() {
            return None;
        }
        Some(start..start + value.len())
    }

    // -----------------------------------------------------------------------------------------
    // Dates of birth.

    fn birth_dates(&self, text: &str) -> Spans {
        self.birth_date
            .captures_iter(text)
            .filter_map(|c| c.name("v"))
            .map(|v| (v.range(), "[dob]"))
            .collect()
    }

    // -----------------------------------------------------------------------------------------
    // Names.

    fn names(&self, text: &str) -> Spans {
        let mut out: Spans = Vec::new();
        for m in self.name_intro.find_iter(text) {
            if out.last().is_some_and(|(r, _)| r.end > m.start()) {
                continue;
            }
            if let Some(r) = self.name_after(text, m.end()) {
                out.push((r, "[name]"));
            }
        }
        out
    }

    /// One to four capitalised words from `start` that are a personal name, after any titles
    /// ("Dr.", "Advocate"), which stay.
    fn name_after(&self, text: &str, start: usize) -> Option<Range<usize>> {
        let mut pos = start;
        let mut first = None;
        let mut end = start;
        let mut count = 0;
        loop {
            let at = pos + blanks(&text[pos..]);
            let Some(m) = self.name_word.find(&text[at..]) else {
                break;
            };
            let tok = m.as_str();
            let (mut len, sentence_end) = self.word_end(tok);
            // A possessive ends the name: "this is Ravi's question".
            let possessive = ["'s", "’s"].iter().find(|p| tok[..len].ends_with(*p));
            if let Some(p) = possessive {
                len -= p.len();
            }
            let word = &tok[..len];
            if count == 0 && self.titles.has(word) {
                pos = at + m.end();
                continue;
            }
            if self.not_names.has(word) {
                break;
            }
            first.get_or_insert(at);
            end = at + len;
            count += 1;
            if sentence_end || possessive.is_some() || count == 4 {
                break;
            }
            pos = at + m.end();
        }
        first.map(|f| f..end)
    }

    // -----------------------------------------------------------------------------------------
    // Street addresses.

    fn addresses(&self, text: &str) -> Spans {
        // (start, end of the anchor, whether it needs a PIN code, whether a sentence ended).
        let mut anchors: Vec<(usize, usize, bool, bool)> = Vec::new();
        for m in self.unit_no.find_iter(text) {
            anchors.push((m.start(), m.end(), false, false));
        }
        let comma_follows =
            |end: usize| text[end..].trim_start_matches([' ', '\t']).starts_with(',');
        for m in self.unit_cap.find_iter(text) {
            if comma_follows(m.end()) {
                anchors.push((m.start(), m.end(), false, false));
            }
        }
        for c in self.hash_no.captures_iter(text) {
            let m = c.get(1).expect("group 1");
            if comma_follows(m.end()) {
                anchors.push((m.start(), m.end(), false, false));
            }
        }
        let mut pos = 0;
        while let Some(c) = self.house.captures_at(text, pos) {
            let m = c.get(0).expect("group 0");
            match self.house_anchor(text, &c) {
                Some((end, sentence_end)) => {
                    anchors.push((m.start(), end, false, sentence_end));
                    pos = end;
                }
                None => pos = after_char(text, m.start()),
            }
        }
        let mut pos = 0;
        while let Some(m) = self.caps.find_at(text, pos) {
            match self.street_words_end(m.as_str(), 1) {
                Some((from, end, sentence_end)) => {
                    anchors.push((m.start() + from, m.start() + end, true, sentence_end));
                    pos = m.start() + end;
                }
                None => pos = after_char(text, m.start()),
            }
        }
        anchors.sort_by_key(|&(start, end, ..)| (start, std::cmp::Reverse(end)));

        let mut out: Spans = Vec::new();
        for (start, end, needs_pin, sentence_end) in anchors {
            if out.last().is_some_and(|(r, _)| r.end > start) {
                continue;
            }
            let (end, has_pin) = if sentence_end {
                (end, false)
            } else {
                self.extend_address(text, end)
            };
            if needs_pin && !has_pin {
                continue;
            }
            out.push((start..end, "[address]"));
        }
        out
    }

    /// A house number and the words after it: the end of the street word, if the number is
    /// not a reference ("Article 14") or a year and a street word follows ("14 MG Road").
    fn house_anchor(&self, text: &str, c: &regex::Captures) -> Option<(usize, bool)> {
        let m = c.get(0)?;
        let num = c.name("num")?.as_str();
        if num.len() == 4 && num.parse::<u32>().is_ok_and(|y| (1800..2100).contains(&y)) {
            return None;
        }
        let before = text[..m.start()].trim_end();
        let prev = before
            .rsplit(|c: char| !(c.is_alphanumeric() || c == '-' || c == '.'))
            .next()
            .unwrap_or("");
        if before.ends_with(['(', '[']) || self.reference.has(prev) {
            return None;
        }
        let words = c.name("words")?;
        let (_, end, sentence_end) = self.street_words_end(words.as_str(), 1)?;
        Some((words.start() + end, sentence_end))
    }

    /// In a run of capitalised words, the first street word with at least `min_before` words
    /// before it (none of them a stop word): (start of the first word kept, end of the street
    /// word, whether a sentence ends there).
    fn street_words_end(&self, run: &str, min_before: usize) -> Option<(usize, usize, bool)> {
        let mut from = None;
        let mut before = 0;
        let mut offset = 0;
        for tok in run.split([' ', '\t']).filter(|t| !t.is_empty()) {
            let at = offset + run[offset..].find(tok)?;
            offset = at + tok.len();
            let (len, sentence_end) = self.word_end(tok);
            let word = &tok[..len];
            if self.stop.has(word) {
                if from.is_some() {
                    return None;
                }
                continue; // leading "The", "Near"…: not part of the street
            }
            if self.street.has(word) && before >= min_before {
                return Some((from.unwrap_or(at), at + len, sentence_end));
            }
            if sentence_end {
                return None;
            }
            from.get_or_insert(at);
            before += 1;
        }
        None
    }

    /// From the end of an anchor, the places and PIN code that continue the address:
    /// ", Shanti Apartments", ", Sector 15", " Bengaluru", " - 560001". Returns the new end and
    /// whether a PIN code was among them.
    fn extend_address(&self, text: &str, mut end: usize) -> (usize, bool) {
        let mut has_pin = false;
        for _ in 0..8 {
            let Some(sep) = self.sep.find(&text[end..]) else {
                break;
            };
            let after = end + sep.end();
            if let Some(p) = self.pin_at_start.find(&text[after..]) {
                end = after + p.end();
                has_pin = true;
                continue;
            }
            if sep.as_str().contains(['-', '–']) {
                break; // a dash joins a PIN code only
            }
            match self.place(&text[after..]) {
                Some((len, sentence_end)) => {
                    end = after + len;
                    if sentence_end {
                        break;
                    }
                }
                None => break,
            }
        }
        (end, has_pin)
    }

    /// One place at the start of `s`: up to five capitalised words and short numbers, at least
    /// one a word, none a stop word ("Shanti Apartments", "Sector 15", "3rd Cross").
    fn place(&self, s: &str) -> Option<(usize, bool)> {
        let mut pos = 0;
        let mut end = None;
        let mut words = 0;
        for n in 0..5 {
            let at = if n == 0 {
                0
            } else {
                let b = blanks(&s[pos..]);
                if b == 0 {
                    break;
                }
                pos + b
            };
            let Some(m) = self.place_word.find(&s[at..]) else {
                break;
            };
            let tok = m.as_str();
            let ordinal = ["st", "nd", "rd", "th"].iter().any(|o| tok.ends_with(o));
            let number = tok.starts_with(|c: char| c.is_ascii_digit()) && !ordinal;
            let (len, sentence_end) = if number {
                (tok.len(), false)
            } else {
                if self.stop.has(tok) {
                    break;
                }
                words += 1;
                self.word_end(tok)
            };
            end = Some((at + len, sentence_end));
            pos = at + m.end();
            if sentence_end {
                break;
            }
        }
        if words == 0 {
            return None;
        }
        end
    }
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

    #[test]
    fn labelled_fields_become_placeholders() {
        let cases = [
            ("Name: Ravi Kumar", "Name: [name]"),
            (
                "Full name - Ravi Kumar, Age: 34. Can I vote?",
                "Full name - [name], Age: 34. Can I vote?",
            ),
            (
                "Name: Ravi Kumar\nFather's name: Ramesh Kumar\nAddress: 14 MG Road, Bengaluru 560001\nDOB: 12/03/1990\nQuestion: can the police arrest me without a warrant?",
                "Name: [name]\nFather's name: [name]\nAddress: [address]\nDOB: [dob]\nQuestion: can the police arrest me without a warrant?",
            ),
            (
                "My address: H.No. 12-3-45, Sector 15, Gurugram. Is this legal?",
                "My address: [address]. Is this legal?",
            ),
            (
                "Address - Flat 3B, Shanti Apartments, City: Pune, PIN: 411001. Phone: 9876543210",
                "Address - [address]. Phone: [phone]",
            ),
            (
                "Date of birth: 12 March 1990, can I contest?",
                "Date of birth: [dob], can I contest?",
            ),
            ("name: ravi kumar. what are my rights?", "name: [name]. what are my rights?"),
            ("Father’s name – Ramesh", "Father’s name – [name]"),
        ];
        for (input, want) in cases {
            assert_eq!(scrub(input).text, want, "{input}");
        }
        let s = scrub("Name: Ravi\nAddress: 14 MG Road, Bengaluru 560001\nDOB: 1-2-1990");
        assert_eq!(s.removed, vec!["[name]", "[address]", "[dob]"]);
    }

    #[test]
    fn introduced_names_become_placeholders() {
        let cases = [
            (
                "My name is Ravi Kumar and the police arrested me.",
                "My name is [name] and the police arrested me.",
            ),
            (
                "my name is Ravi. Can I vote?",
                "my name is [name]. Can I vote?",
            ),
            ("I am Ravi Kumar from Delhi", "I am [name] from Delhi"),
            ("I'm Priya, a teacher", "I'm [name], a teacher"),
            ("I’m Mohammed Ali Khan Saheb Junior", "I’m [name] Junior"),
            ("Hello, this is R. K. Sharma.", "Hello, this is [name]."),
            (
                "Myself Sunita Devi, from Bihar",
                "Myself [name], from Bihar",
            ),
            ("I am Dr. Anil Mehta", "I am Dr. [name]"),
            ("I am Advocate Ravi Kumar", "I am Advocate [name]"),
            (
                "My father's name is Ramesh Kumar",
                "My father's name is [name]",
            ),
            ("I AM RAVI KUMAR", "I AM [name]"),
            ("this is Ravi's question", "this is [name]'s question"),
            (
                "Ravi s/o Ramesh Kumar, wife of Mohan Lal, was detained",
                "Ravi s/o [name], wife of [name], was detained",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(scrub(input).text, want, "{input}");
        }
        assert_eq!(scrub("I am Ravi").removed, vec!["[name]"]);
    }

    #[test]
    fn street_addresses_become_one_placeholder() {
        let cases = [
            (
                "I live at 14 MG Road, Bengaluru 560001 and the police came",
                "I live at [address] and the police came",
            ),
            (
                "I live at 14 M.G. Rd. Bengaluru - 560 001. Can they evict me?",
                "I live at [address]. Can they evict me?",
            ),
            (
                "Flat 3B, Shanti Apartments, Andheri East, Mumbai 400069",
                "[address]",
            ),
            (
                "H.No. 12-3-45, Banjara Hills, Hyderabad. My landlord...",
                "[address]. My landlord...",
            ),
            (
                "House No 7, Sector 15, Chandigarh: can the municipality demolish it?",
                "[address]: can the municipality demolish it?",
            ),
            ("we stay at 221B Baker Street", "we stay at [address]"),
            ("#45, 3rd Cross, Indiranagar, Bengaluru", "[address]"),
            ("near 7 Lok Kalyan Marg, New Delhi 110011", "near [address]"),
            (
                "shop on MG Road, Bengaluru 560001 was sealed",
                "shop on [address] was sealed",
            ),
            ("D. No. 4-5, Main Bazar", "[address]"),
        ];
        for (input, want) in cases {
            assert_eq!(scrub(input).text, want, "{input}");
        }
        // The PIN goes with its address: one placeholder, not an address and a PIN code.
        let s = scrub("I live at 14 MG Road, Bengaluru 560001");
        assert_eq!(s.removed, vec!["[address]"]);
        assert_eq!(s.text, "I live at [address]");
    }

    #[test]
    fn birth_dates_become_placeholders() {
        let cases = [
            ("I was born on 12/03/1990.", "I was born on [dob]."),
            ("born 12-03-1990 in Delhi", "born [dob] in Delhi"),
            ("DOB 12-03-1990", "DOB [dob]"),
            ("d.o.b. 1990-03-12", "d.o.b. [dob]"),
            (
                "my date of birth is 5th March 1990",
                "my date of birth is [dob]",
            ),
            ("born on March 5, 1990", "born on [dob]"),
        ];
        for (input, want) in cases {
            assert_eq!(scrub(input).text, want, "{input}");
        }
    }

    #[test]
    fn everything_at_once() {
        let q = "My name is Ravi Kumar, I live at 14 MG Road, Bengaluru 560001, born on 12/03/1990. \
                 Call me on 9876543210 or mail ravi.kumar@example.com. Can the police keep my brother locked up?";
        let s = scrub(q);
        assert_eq!(
            s.text,
            "My name is [name], I live at [address], born on [dob]. \
             Call me on [phone] or mail [email]. Can the police keep my brother locked up?"
        );
        assert_eq!(
            s.removed,
            vec!["[email]", "[dob]", "[address]", "[name]", "[phone]"]
        );
    }

    /// Questions that name no one: what a citizen says about themselves (age, citizenship,
    /// religion, community, office, place) and the references a question is made of.
    #[test]
    fn legal_and_eligibility_questions_survive() {
        for q in [
            "I am 34 years old, can I become President?",
            "I'm an Indian citizen aged 23, can I contest a panchayat election?",
            "I am an advocate of a High Court for 10 years, can I be appointed a judge of the Supreme Court?",
            "I am an Indian citizen living abroad. Can I vote?",
            "I am 23",
            "I am a Hindu and my wife is a Christian; which personal law applies?",
            "I'm a Scheduled Caste person, is reservation in promotion allowed?",
            "I am Muslim. Can the State fund my madrasa?",
            "I am Indian, can I own land in Kashmir?",
            "I am OBC, what does Article 15(4) say?",
            "I am SC/ST, is there reservation in Lok Sabha?",
            "I am the Governor; can I withhold assent to a Bill?",
            "I am Governor of a State, can I be prosecuted?",
            "I am in Delhi, which High Court do I go to?",
            "I am Dalit, what does Article 17 say?",
            "I am Advocate General, can I appear in the Legislative Assembly?",
            "I am MLA, can I be disqualified for defection?",
            "This is Article 370, is it still in force?",
            "This is about Part IXA and the 74th Amendment",
            "I am a Sikh, can I carry a kirpan?",
            "I'm Citizen of India by birth",
            "I am Christian and want to know about Article 25",
            "Sector 15 of the Seventh Schedule?",
            "What does Schedule 7, List II entry 5 cover?",
            "Is Part IXA about municipalities?",
            "the 86th Amendment inserted Article 21A",
            "Article 243Q Nagar Panchayat composition",
            "What happened in 1950?",
            "w.e.f. 1-4-2010 the right to education came into force",
            "Articles 14 and 21 Main principles",
            "Can a Flat 10% tax be levied?",
            "I was born in 1990, am I eligible?",
            "What are Ward No. 5 seats reserved for?",
            "Can the President address both Houses?",
            "My name is on the voter list twice. Is that an offence?",
            "I am 25 years old and was born in India",
            "Name and territory of the Union",
            "Article 1: Name and territory of the Union",
        ] {
            assert_eq!(scrub(q).text, q, "changed");
        }
    }

    /// Every question of the golden set, its paraphrases and the ranker's training questions
    /// (thousands of real-looking questions, none with a personal detail) comes back unchanged.
    #[test]
    fn the_eval_and_training_questions_survive() {
        fn strings(v: &serde_json::Value, key: Option<&str>, out: &mut Vec<String>) {
            match v {
                serde_json::Value::String(s)
                    if matches!(key, Some("question" | "rewordings" | "romanised_hindi")) =>
                {
                    out.push(s.clone())
                }
                serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, key, out)),
                serde_json::Value::Object(o) => o
                    .iter()
                    .for_each(|(k, x)| strings(x, Some(k.as_str()), out)),
                _ => {}
            }
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut questions = Vec::new();
        for file in [
            "eval/golden/single_turn.jsonl",
            "eval/golden/paraphrases.jsonl",
            "data/train/questions.jsonl",
        ] {
            let Ok(text) = std::fs::read_to_string(root.join(file)) else {
                continue;
            };
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
                    strings(&v, None, &mut questions);
                }
            }
        }
        assert!(questions.len() > 1000, "{} questions", questions.len());
        let changed: Vec<String> = questions
            .iter()
            .filter_map(|q| {
                let s = scrub(q);
                (s.text != *q).then(|| format!("{q}\n  → {}", s.text))
            })
            .collect();
        assert!(changed.is_empty(), "{}", changed.join("\n"));
    }

    /// The chat page strips the same kinds in the browser with copies of these word lists
    /// (`const W` in app.js): they must not drift apart.
    #[test]
    fn the_chat_page_has_the_same_word_lists() {
        let js = include_str!("../http/page/app.js");
        let lists: Lists = toml::from_str(LISTS_TOML).expect("data/scrub.toml is valid");
        let check = |key: &str, want: &[String], separator: char| {
            let open = format!("{key}: `");
            let start = js
                .find(&open)
                .unwrap_or_else(|| panic!("app.js has no list {key}"))
                + open.len();
            let end = start + js[start..].find('`').expect("the list's closing `");
            let split = |s: &str| {
                let mut v: Vec<String> = s
                    .split(separator)
                    .map(|w| w.trim().to_lowercase())
                    .filter(|w| !w.is_empty())
                    .collect();
                v.sort();
                v
            };
            let got = split(&js[start..end].replace(char::is_whitespace, " "));
            let want = split(&want.join(&separator.to_string()));
            assert_eq!(got, want, "app.js {key} differs from data/scrub.toml");
        };
        check("not_names", &lists.names.not_names, ' ');
        check("titles", &lists.names.titles, ' ');
        let a = &lists.address;
        check("street_words", &a.street_words, ' ');
        check("unit_words", &a.unit_words, ' ');
        check("reference_words", &a.reference_words, ' ');
        check("stop_words", &a.stop_words, ' ');
        check("abbreviations", &a.abbreviations, ' ');
        let l = &lists.labels;
        check("labels_name", &l.name, '|');
        check("labels_address", &l.address, '|');
        check("labels_dob", &l.dob, '|');
        check("labels_address_parts", &l.address_parts, '|');
        check("labels_other", &l.other, '|');
    }
}
