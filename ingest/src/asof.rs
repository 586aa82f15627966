//! A provision's wording "as it stood" on an earlier date, rebuilt from its own amendment
//! footnotes. Pure: no I/O.
//!
//! The official PDF prints only the current text; each amended passage carries a footnote
//! ("Subs. by the Constitution (Forty-second Amendment) Act, 1976, s. 2, for "SOVEREIGN
//! DEMOCRATIC REPUBLIC" (w.e.f. 3-1-1977)."). [`as_of`] undoes, newest first, every note that
//! took effect after the date:
//!
//! - **Inserted / Added** — the marked words are removed.
//! - **Substituted** — the words the note records after "for" (`for "…"`) are put back in
//!   place of the marked words.
//! - **Omitted / Repealed** — the words the note records (`The words "…" omitted by`, `The
//!   proviso was as under:— "…"`) are put back at the marker.
//! - **Renumbered** — `Cl. (a) re-lettered as cl. (aa)` puts `(a)` back for `(aa)`;
//!   `Entries 2 to 30 renumbered as entries 3 to 31` puts `4.` back for `5.`.
//! - **A heading note** (the marker sits on the heading): an insertion after the date means
//!   the provision did not exist then ([`Rebuilt::inserted_after`], empty text); a whole
//!   provision substituted or omitted after the date is a [`Gap`], because no footnote prints
//!   the earlier provision.
//!
//! Whatever cannot be recovered — a note that gives no earlier words ("for cl. (2)", "for
//! certain words"), a marker whose extent or position the parser did not find, a passage that
//! overlaps words already rebuilt from a newer note — keeps the printed words and is reported
//! as a [`Gap`] with a plain reason. Nothing panics on odd input: it becomes a gap.
//!
//! **Every rebuilt passage is a reconstruction, never an official text.** Each
//! [`RebuiltSpan`] names the footnote it came from (its full text, Act and w.e.f. date), and
//! [`RebuiltSpan::label`] says so in words a reader sees.
//!
//! # When a note took effect
//!
//! - The note's w.e.f. date, as printed, when there is one — even when it is retrospective
//!   ("(retrospectively) (w.e.f. 17-6-1995)" on an Act of 2001): the law is deemed to have
//!   read so from that date, and the footnote is the only authority we have.
//! - A note that prints no effect at all ("Subs. by s. 2, ibid. for "…"") takes the earliest
//!   w.e.f. date that another note of the same Act on the same provision prints: one Act,
//!   one commencement, and the print simply did not repeat it.
//! - Otherwise the year of its Act ("with retrospective effect", "date yet to be notified",
//!   "not enforced"): the note counts as after the date when the Act's year is after the
//!   date's year. Before its Act was made the words were in no text of the Constitution;
//!   once made, the print shows them. So the One Hundred and Sixth Amendment Act, 2023
//!   (inserted, date not notified) is undone for any date in 2022 or before.
//! - Otherwise a "dated d-m-yyyy" in the note (State notifications).
//! - A note that can be dated by none of these, and would change the text, is a gap.
//!
//! A note in force on the date itself (w.e.f. equal to the date) is kept: the date reads
//! "on that day". Undo order is newest first; notes of the same time are undone from the end
//! of the text backwards, the inner (shorter) passage first.
//!
//! # Notes left alone
//!
//! - Commentary ("See …", court rulings) and "amended in its application to the State of
//!   Assam" notes: they never changed the printed words.
//! - A note about the marginal heading only: this module rebuilds the text, not the title.
//! - A substitution "to read as …" or "shall stand substituted … as —", and an omission whose
//!   bracket still encloses the printed words, that were never brought into force ("date not
//!   notified"): the print shows the earlier words already, so there is nothing to undo. (An
//!   omission in force whose bracket keeps only a label, "[(f)* * *]", restores its words
//!   after the label.)
//!
//! # Compound footnotes
//!
//! The parser reads the first note of a footnote such as "Cl. (4) was ins. by … (w.e.f.
//! 3-1-1977) and omitted by … (w.e.f. 20-6-1979)". When a later change recorded in the same
//! footnote is after the date but the first is not, the words between the two changes are
//! not printed anywhere: a gap. When both are after the date, undoing the first note alone
//! gives the words before either. Informational tails ("Now … vide …") are not changes to
//! the Constitution's words and are ignored.
//!
//! # "Before the Nth Amendment"
//!
//! [`day_before_amendment`] turns an amendment number into a date: the day before the
//! earliest w.e.f. date any given note of that Act records, or, when no note of it is dated,
//! 31 December of the year before its Act. Pass one provision's notes, or a whole edition's
//! to date an Act that did not touch this provision. [`as_of_before_amendment`] does both
//! steps for one provision. Being a date, the cut-off also undoes other Acts' notes dated
//! after it (an earlier Act brought into force later, for example): that is how the text
//! stood on that day.
//!
//! # Limits
//!
//! - The rebuilt text's layout is approximate (a removed paragraph's line break, a restored
//!   word's spaces); compare with [`crate::diff::comparable`].
//! - Words are restored as the footnote quotes them, abbreviations included ("art. 331"
//!   where the text read "article 331", "Unity" with the footnote's capital).
//! - The provision's clause offsets describe the printed text, not the rebuilt one.
//! - Court rulings that struck an amendment down are not applied.

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

use crate::amendment::{mask_quotes, quotations, AmendmentKind, AmendmentNote};
use crate::model::{AmendmentLink, Provision};

/// Shown with every rebuilt passage.
pub const NOT_OFFICIAL: &str =
    "reconstructed from the amendment footnote; not an official text of the Constitution";

/// The footnote a rebuilt passage or a gap comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// The footnote as printed.
    pub raw: String,
    pub kind: AmendmentKind,
    /// "Constitution (Forty-second Amendment) Act, 1976".
    pub instrument: Option<String>,
    pub amendment_number: Option<u32>,
    /// ISO w.e.f. date, when printed.
    pub effective_from: Option<String>,
    /// The effect as printed ("3-1-1977", "date yet to be notified").
    pub effective_text: Option<String>,
    /// The clause the marker sits in.
    pub clause: Option<String>,
}

impl Source {
    fn of(link: &AmendmentLink) -> Source {
        let n = &link.note;
        Source {
            raw: n.raw.clone(),
            kind: n.kind,
            instrument: n.instrument.clone(),
            amendment_number: n.amendment_number,
            effective_from: n.effective_from.clone(),
            effective_text: n.effective_text.clone(),
            clause: link.clause.clone(),
        }
    }
}

/// What undoing a note did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Undo {
    /// Words inserted or added after the date were taken out; the span is empty and marks
    /// where they were.
    RemovedInsertion,
    /// The words a substitution replaced, as the footnote quotes them.
    RestoredSubstitutedWords,
    /// The words an omission took out, as the footnote quotes them.
    RestoredOmittedWords,
    /// The label a renumbering replaced ("(a)" for "(aa)").
    RestoredEarlierNumber,
}

impl Undo {
    pub fn as_str(self) -> &'static str {
        match self {
            Undo::RemovedInsertion => "removed insertion",
            Undo::RestoredSubstitutedWords => "restored substituted words",
            Undo::RestoredOmittedWords => "restored omitted words",
            Undo::RestoredEarlierNumber => "restored earlier number",
        }
    }
}

/// A passage of the rebuilt text that is not the print: always a reconstruction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RebuiltSpan {
    /// Char offsets in [`Rebuilt::text`]; `start == end` for a removed insertion.
    pub start: usize,
    pub end: usize,
    pub undo: Undo,
    /// The printed words this passage stands in for (the removed insertion, the
    /// substituted words); empty for restored omissions.
    pub printed_words: String,
    pub source: Source,
}

impl RebuiltSpan {
    /// "restored substituted words — reconstructed from the amendment footnote; not an
    /// official text of the Constitution: Subs. by …".
    pub fn label(&self) -> String {
        format!(
            "{} — {NOT_OFFICIAL}: {}",
            self.undo.as_str(),
            self.source.raw
        )
    }
}

/// Why a change could not be undone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GapReason {
    /// "for cl. (2)", "for certain words", a whole provision substituted or omitted.
    EarlierWordsNotRecorded,
    /// The parser found no closing bracket for the marked words.
    ExtentNotMarked,
    /// The marker's offsets lie outside the text or run backwards.
    OffsetsOutOfRange,
    /// The marked words overlap words already rebuilt from a newer note.
    OverlapsNewerChange,
    /// The same footnote records a later change after the date, and the words in between
    /// are printed nowhere.
    LaterChangeInSameNote,
    /// The note has no w.e.f. date, no Act year and no "dated".
    Undatable,
    /// The requested date is not `YYYY-MM-DD`.
    InvalidDate,
}

impl GapReason {
    pub fn as_str(self) -> &'static str {
        match self {
            GapReason::EarlierWordsNotRecorded => "the footnote does not record the earlier words",
            GapReason::ExtentNotMarked => "the end of the amended words is not marked in the text",
            GapReason::OffsetsOutOfRange => "the footnote marker's position lies outside the text",
            GapReason::OverlapsNewerChange => {
                "the amended words overlap words already rebuilt from a newer footnote"
            }
            GapReason::LaterChangeInSameNote => {
                "the footnote records a later change after the date; the words between the two changes are not recorded"
            }
            GapReason::Undatable => {
                "the footnote gives no date or Act year, so it cannot be placed before or after the date"
            }
            GapReason::InvalidDate => "the date is not a valid YYYY-MM-DD date",
        }
    }
}

/// A change after the date that was not undone: the printed words stand there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gap {
    /// `None` only for [`GapReason::InvalidDate`].
    pub source: Option<Source>,
    pub reason: GapReason,
}

impl Gap {
    pub fn reason_text(&self) -> &'static str {
        self.reason.as_str()
    }
}

/// A provision as rebuilt for a date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rebuilt {
    /// The date asked for (`YYYY-MM-DD`).
    pub date: String,
    /// The heading footnote that inserted the provision after the date: it was not in the
    /// Constitution on that date, and `text` is empty.
    pub inserted_after: Option<Source>,
    pub text: String,
    /// Reconstructed passages, in text order.
    pub spans: Vec<RebuiltSpan>,
    /// Changes after the date that could not be undone.
    pub gaps: Vec<Gap>,
}

impl Rebuilt {
    /// Whether the provision was in the Constitution on the date.
    pub fn existed(&self) -> bool {
        self.inserted_after.is_none()
    }

    /// Whether the text is the print's, untouched and complete for the date: nothing was
    /// rebuilt and nothing is missing.
    pub fn is_as_printed(&self) -> bool {
        self.existed() && self.spans.is_empty() && self.gaps.is_empty()
    }
}

/// The provision's wording as it stood on `date` (`YYYY-MM-DD`). See the module docs.
pub fn as_of(provision: &Provision, date: &str) -> Rebuilt {
    let printed = |gaps| Rebuilt {
        date: date.to_string(),
        inserted_after: None,
        text: provision.text.clone(),
        spans: Vec::new(),
        gaps,
    };
    let Some(cutoff) = Cutoff::parse(date) else {
        return printed(vec![Gap {
            source: None,
            reason: GapReason::InvalidDate,
        }]);
    };
    let (mut to_undo, mut gaps) = notes_after(provision, &cutoff);
    if let Some(link) = to_undo
        .iter()
        .map(|(_, l)| *l)
        .find(|l| l.start.is_none() && is_insertion(l.note.kind))
    {
        return Rebuilt {
            inserted_after: Some(Source::of(link)),
            text: String::new(),
            ..printed(Vec::new())
        };
    }
    // Newest first; at one time, from the end of the text, the inner passage first.
    to_undo.sort_by(|(ta, a), (tb, b)| {
        tb.order_key()
            .cmp(&ta.order_key())
            .then(b.start.cmp(&a.start))
            .then(span_len(a).cmp(&span_len(b)))
    });
    let mut text = Text::new(&provision.text);
    for (_, link) in to_undo {
        if let Err(reason) = undo(&mut text, link) {
            gaps.push(Gap {
                source: Some(Source::of(link)),
                reason,
            });
        }
    }
    let mut spans = text.spans;
    spans.sort_by_key(|s| (s.start, s.end));
    Rebuilt {
        text: text.chars.into_iter().collect(),
        spans,
        ..printed(gaps)
    }
}

/// The day before the earliest w.e.f. date that any of `notes` records for the Constitution
/// Amendment Act numbered `number`; when none of them is dated, 31 December of the year
/// before that Act. `None` when no note names the Act.
pub fn day_before_amendment<'a>(
    notes: impl IntoIterator<Item = &'a AmendmentNote>,
    number: u32,
) -> Option<String> {
    let mut earliest: Option<&str> = None;
    let mut act_year: Option<u32> = None;
    for n in notes
        .into_iter()
        .filter(|n| n.amendment_number == Some(number))
    {
        if let Some(d) = n
            .effective_from
            .as_deref()
            .filter(|d| parse_iso(d).is_some())
        {
            if earliest.is_none_or(|e| d < e) {
                earliest = Some(d);
            }
        }
        act_year = act_year.or_else(|| n.instrument.as_deref().and_then(instrument_year));
    }
    match (earliest, act_year) {
        (Some(d), _) => parse_iso(d).map(|(y, m, d)| day_before(y, m, d)),
        (None, Some(y)) => Some(format!("{:04}-12-31", y.saturating_sub(1))),
        (None, None) => None,
    }
}

/// The provision as it stood the day before the Nth Amendment, dated from the provision's
/// own notes; `None` when none of them names that Amendment (date it from the whole edition
/// with [`day_before_amendment`] and call [`as_of`]).
pub fn as_of_before_amendment(provision: &Provision, number: u32) -> Option<Rebuilt> {
    let date = day_before_amendment(provision.amendments.iter().map(|l| &l.note), number)?;
    Some(as_of(provision, &date))
}

// ---------------------------------------------------------------------------------------------
// Which notes to undo

/// The notes to undo with their times, and the gaps found while choosing them.
fn notes_after<'a>(
    provision: &'a Provision,
    cutoff: &Cutoff,
) -> (Vec<(NoteTime, &'a AmendmentLink)>, Vec<Gap>) {
    let mut to_undo = Vec::new();
    let mut gaps = Vec::new();
    for link in &provision.amendments {
        if leaves_text_alone(link) {
            continue;
        }
        let gap = |reason| Gap {
            source: Some(Source::of(link)),
            reason,
        };
        let Some(time) = note_time(&link.note, &provision.amendments) else {
            gaps.push(gap(GapReason::Undatable));
            continue;
        };
        if time.after(cutoff) {
            to_undo.push((time, link));
        } else if later_changes(&link.note.raw, &time)
            .iter()
            .any(|t| t.after(cutoff))
        {
            gaps.push(gap(GapReason::LaterChangeInSameNote));
        }
    }
    (to_undo, gaps)
}

/// Notes whose undoing never changes the printed words. See "Notes left alone".
fn leaves_text_alone(link: &AmendmentLink) -> bool {
    let n = &link.note;
    let outside_quotes = mask_quotes(&n.raw).to_lowercase();
    match n.kind {
        AmendmentKind::Note | AmendmentKind::Amended => true,
        _ if outside_quotes.contains("marginal heading") => true,
        AmendmentKind::Substituted => never_in_force(n) && quotes_new_words(&outside_quotes),
        AmendmentKind::Omitted | AmendmentKind::Repealed => {
            never_in_force(n) && matches!((link.start, link.end), (Some(s), Some(e)) if e > s)
        }
        _ => false,
    }
}

fn never_in_force(n: &AmendmentNote) -> bool {
    n.effective_from.is_none()
        && n.effective_text.as_deref().is_some_and(|t| {
            let t = t.to_lowercase();
            t.contains("notif") || t.contains("not enforced")
        })
}

/// "to read as …", "shall stand substituted … as—": the note prints the new words, so the
/// text keeps the earlier ones.
fn quotes_new_words(outside_quotes_lower: &str) -> bool {
    outside_quotes_lower.contains("to read as")
        || outside_quotes_lower.contains("read as follows")
        || outside_quotes_lower.contains("stand substituted")
}

fn is_insertion(kind: AmendmentKind) -> bool {
    matches!(kind, AmendmentKind::Inserted | AmendmentKind::Added)
}

fn span_len(link: &AmendmentLink) -> usize {
    match (link.start, link.end) {
        (Some(s), Some(e)) => e.saturating_sub(s),
        _ => 0,
    }
}

// ---------------------------------------------------------------------------------------------
// Dates

/// The date asked for.
struct Cutoff {
    iso: String,
    year: u32,
}

impl Cutoff {
    fn parse(date: &str) -> Option<Cutoff> {
        let (year, ..) = parse_iso(date)?;
        Some(Cutoff {
            iso: date.to_string(),
            year,
        })
    }
}

/// When a note took effect: a day, or only a year.
#[derive(Debug, Clone, PartialEq, Eq)]
enum NoteTime {
    Day(String),
    Year(u32),
}

impl NoteTime {
    fn year(&self) -> u32 {
        match self {
            NoteTime::Day(d) => parse_iso(d).map_or(0, |(y, ..)| y),
            NoteTime::Year(y) => *y,
        }
    }

    fn after(&self, cutoff: &Cutoff) -> bool {
        match self {
            NoteTime::Day(d) => d.as_str() > cutoff.iso.as_str(),
            NoteTime::Year(y) => *y > cutoff.year,
        }
    }

    /// Strictly later; a bare year is later than a day only in a later year.
    fn later_than(&self, other: &NoteTime) -> bool {
        match (self, other) {
            (NoteTime::Day(a), NoteTime::Day(b)) => a > b,
            _ => self.year() > other.year(),
        }
    }

    /// Orders times; a bare year sorts before the days of that year.
    fn order_key(&self) -> (u32, String) {
        match self {
            NoteTime::Day(d) => (self.year(), d.clone()),
            NoteTime::Year(y) => (*y, String::new()),
        }
    }
}

fn note_time(n: &AmendmentNote, siblings: &[AmendmentLink]) -> Option<NoteTime> {
    if let Some(d) = n
        .effective_from
        .as_deref()
        .filter(|d| parse_iso(d).is_some())
    {
        return Some(NoteTime::Day(d.to_string()));
    }
    // A note that prints no effect at all ("Subs. by s. 2, ibid. for "…"") takes the
    // earliest date its Act's other notes on this provision print; a note that says "not
    // notified" or "retrospective" does not, because it says something else about its date.
    if n.effective_text.is_none() {
        if let Some(d) = sibling_date(n, siblings) {
            return Some(NoteTime::Day(d));
        }
    }
    if let Some(y) = n.instrument.as_deref().and_then(instrument_year) {
        return Some(NoteTime::Year(y));
    }
    DATED
        .captures(&n.raw)
        .and_then(|c| iso_date(&c[1], &c[2], &c[3]))
        .map(NoteTime::Day)
}

/// The earliest w.e.f. date among the other notes of the same instrument.
fn sibling_date(n: &AmendmentNote, siblings: &[AmendmentLink]) -> Option<String> {
    let instrument = n.instrument.as_deref()?;
    siblings
        .iter()
        .filter(|l| l.note.instrument.as_deref() == Some(instrument))
        .filter_map(|l| l.note.effective_from.as_deref())
        .filter(|d| parse_iso(d).is_some())
        .min()
        .map(str::to_string)
}

/// The times of the changes a footnote records after its first note: w.e.f. dates and Act
/// years outside quotations, later than the first note's own time. An informational tail
/// ("Now … vide the … Act, 2018 …") is not a change to the text and is cut off first.
fn later_changes(raw: &str, own: &NoteTime) -> Vec<NoteTime> {
    let masked = mask_quotes(raw);
    let changes = match NOW_VIDE.find(&masked) {
        Some(m) => &masked[..m.start()],
        None => masked.as_str(),
    };
    let dates = WEF
        .captures_iter(changes)
        .filter_map(|c| iso_date(&c[1], &c[2], &c[3]).map(NoteTime::Day));
    let years = ACT_YEAR
        .captures_iter(changes)
        .filter_map(|c| c[1].parse().ok().map(NoteTime::Year));
    dates.chain(years).filter(|t| t.later_than(own)).collect()
}

/// "Constitution (Forty-second Amendment) Act, 1976" → 1976.
fn instrument_year(instrument: &str) -> Option<u32> {
    INSTRUMENT_YEAR
        .captures(instrument)
        .and_then(|c| c[1].parse().ok())
}

fn parse_iso(date: &str) -> Option<(u32, u32, u32)> {
    let b = date.as_bytes();
    let shaped = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if !shaped {
        return None;
    }
    let (y, m, d) = (
        date[..4].parse().ok()?,
        date[5..7].parse().ok()?,
        date[8..].parse().ok()?,
    );
    ((1..=12).contains(&m) && (1..=days_in_month(y, m)).contains(&d)).then_some((y, m, d))
}

fn iso_date(d: &str, m: &str, y: &str) -> Option<String> {
    let date = format!(
        "{:04}-{:02}-{:02}",
        y.parse::<u32>().ok()?,
        m.parse::<u32>().ok()?,
        d.parse::<u32>().ok()?
    );
    parse_iso(&date).map(|_| date)
}

fn days_in_month(y: u32, m: u32) -> u32 {
    // Remainders rather than `is_multiple_of`, which is newer than the workspace's Rust 1.85.
    let leap = matches!((y % 4, y % 100, y % 400), (0, 1.., _) | (_, _, 0));
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => 0,
    }
}

fn day_before(y: u32, m: u32, d: u32) -> String {
    let (y, m, d) = match (m, d) {
        (1, 1) => (y.saturating_sub(1), 12, 31),
        (m, 1) => (y, m - 1, days_in_month(y, m - 1)),
        (m, d) => (y, m, d - 1),
    };
    format!("{y:04}-{m:02}-{d:02}")
}

static WEF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)w\.\s*e\.\s*f\s*\.?\s*(\d{1,2})\s*-\s*(\d{1,2})\s*-\s*(\d{4})")
        .expect("pattern")
});
static ACT_YEAR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\bAct\s*,?\s*(\d{4})\b").expect("pattern"));
static INSTRUMENT_YEAR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r",\s*(\d{4})\s*$").expect("pattern"));
static DATED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\bdated\s+(\d{1,2})\s*-\s*(\d{1,2})\s*-\s*(\d{4})").expect("pattern")
});
static NOW_VIDE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|[.)]\s+)Now\b").expect("pattern"));

// ---------------------------------------------------------------------------------------------
// The words a footnote records

/// The earlier words a substitution records: the first quotation introduced by "for"
/// ("for "…"", "for the words "…"").
fn substituted_words(raw: &str) -> Option<&str> {
    quotations(raw)
        .into_iter()
        .find(|(start, _, _)| FOR_BEFORE_QUOTE.is_match(&raw[..*start]))
        .map(|(_, _, words)| words.trim())
        .filter(|w| !w.is_empty())
}

/// The words an omission records: "The words "…" omitted", or the omitted proviso quoted
/// after "was as under:—".
fn omitted_words(raw: &str) -> Option<&str> {
    quotations(raw)
        .into_iter()
        .find(|(start, end, _)| {
            (THE_WORDS_BEFORE_QUOTE.is_match(&raw[..*start])
                && OMITTED_AFTER_QUOTE.is_match(&raw[*end..]))
                || WAS_AS_UNDER_BEFORE_QUOTE.is_match(&raw[..*start])
        })
        .map(|(_, _, words)| words.trim())
        .filter(|w| !w.is_empty())
}

/// The label a renumbering replaced, given the label now printed (`printed`, trimmed, its
/// full stop dropped): "Cl. (a) re-lettered as cl. (aa)" gives "(a)" for "(aa)"; "Entries 2
/// to 30 renumbered as entries 3 to 31" gives "4" for "5"; "Entry 8 renumbered as entry 9"
/// gives "8" for "9". `None` when the note says something else or the label does not match.
fn earlier_label(raw: &str, printed: &str) -> Option<String> {
    if let Some(c) = RENUMBERED_LABEL.captures(raw) {
        return (printed == format!("({})", &c[2])).then(|| format!("({})", &c[1]));
    }
    if let Some(c) = RENUMBERED_RANGE.captures(raw) {
        let n: [u32; 4] = [
            c[1].parse().ok()?,
            c[2].parse().ok()?,
            c[3].parse().ok()?,
            c[4].parse().ok()?,
        ];
        let now: u32 = printed.parse().ok()?;
        let consistent = n[1].checked_sub(n[0]) == n[3].checked_sub(n[2]);
        return (consistent && (n[2]..=n[3]).contains(&now))
            .then(|| (now + n[0]).checked_sub(n[2]).map(|v| v.to_string()))
            .flatten();
    }
    let c = RENUMBERED_ONE.captures(raw)?;
    (printed == &c[2]).then(|| c[1].to_string())
}

static FOR_BEFORE_QUOTE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\bfor\s+(?:the\s+)?(?:(?:words?|letters?|figures?|brackets?|signs?|and|or)[\s,]*)*$",
    )
    .expect("pattern")
});
static THE_WORDS_BEFORE_QUOTE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\bthe\s+(?:(?:words?|letters?|figures?|brackets?|signs?|and|or)[\s,]*)+$")
        .expect("pattern")
});
static OMITTED_AFTER_QUOTE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^[\s,]*(?:(?:was|were|has|have|been)\s+)*(?:omitted|deleted)\b")
        .expect("pattern")
});
static WAS_AS_UNDER_BEFORE_QUOTE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:was|were|read)\s+as\s+(?:under|follows)\s*[:\-\u{2014}\u{2013}\s]*$")
        .expect("pattern")
});
static RENUMBERED_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\((\w+)\)\s+re-?\s?(?:numbered|lettered)\s+as\s+(?:[a-z-]+\.?\s+)?\((\w+)\)")
        .expect("pattern")
});
static RENUMBERED_RANGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:entries|items|paragraphs)\s+(\d+)\s+to\s+(\d+)\s+(?:have\s+been\s+|were\s+)?re-?\s?numbered\s+as\s+(?:entries|items|paragraphs)\s+(\d+)\s+to\s+(\d+)")
        .expect("pattern")
});
static RENUMBERED_ONE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:entry|item|paragraph)\s+(\d+[A-Z]*)\s+(?:has\s+been\s+|was\s+)?re-?\s?numbered\s+as\s+(?:entry|item|paragraph)\s+(\d+[A-Z]*)")
        .expect("pattern")
});

// ---------------------------------------------------------------------------------------------
// Undoing one note

/// Undoes one note on the text, or says why it cannot.
fn undo(text: &mut Text, link: &AmendmentLink) -> Result<(), GapReason> {
    let raw = link.note.raw.as_str();
    let Some(start) = link.start else {
        // On the heading: a whole provision substituted, omitted or renumbered (an
        // insertion was handled before).
        return Err(GapReason::EarlierWordsNotRecorded);
    };
    match link.note.kind {
        AmendmentKind::Inserted | AmendmentKind::Added => {
            let (a, b) = text.range(start, link.end)?;
            text.remove(a, b, Undo::RemovedInsertion, link);
            Ok(())
        }
        AmendmentKind::Substituted => {
            let words = substituted_words(raw).ok_or(GapReason::EarlierWordsNotRecorded)?;
            let (a, b) = text.range(start, link.end)?;
            text.replace(a, b, words, Undo::RestoredSubstitutedWords, link);
            Ok(())
        }
        AmendmentKind::Omitted | AmendmentKind::Repealed => {
            let words = omitted_words(raw).ok_or(GapReason::EarlierWordsNotRecorded)?;
            // "[(f)* * *]": a bracket that keeps a label; the words went after it.
            let at = text.point(link.end.filter(|e| *e > start).unwrap_or(start))?;
            text.insert(at, words, link);
            Ok(())
        }
        AmendmentKind::Renumbered => {
            let (a, b) = text.range(start, link.end)?;
            // The label as it reads now, after any newer renumbering was undone.
            let now: String = text.chars[a..b].iter().collect();
            let old = earlier_label(raw, now.trim().trim_end_matches('.'))
                .ok_or(GapReason::EarlierWordsNotRecorded)?;
            text.replace(a, b, &old, Undo::RestoredEarlierNumber, link);
            Ok(())
        }
        AmendmentKind::Note | AmendmentKind::Amended => Ok(()),
    }
}

/// One replacement made on the text: `removed` chars at `at` became `inserted` chars.
#[derive(Debug, Clone, Copy)]
struct Edit {
    at: usize,
    removed: usize,
    inserted: usize,
}

/// Which end of a passage an offset is: at a pure insertion point, a start moves past the
/// inserted words and an end stays before them, so an older passage never takes in words
/// rebuilt from a newer note.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Side {
    Start,
    End,
}

/// The text being rebuilt, the edits made so far (to map the print's offsets onto it) and
/// the rebuilt passages.
struct Text {
    chars: Vec<char>,
    len_printed: usize,
    edits: Vec<Edit>,
    spans: Vec<RebuiltSpan>,
}

impl Text {
    fn new(printed: &str) -> Text {
        let chars: Vec<char> = printed.chars().collect();
        Text {
            len_printed: chars.len(),
            chars,
            edits: Vec::new(),
            spans: Vec::new(),
        }
    }

    /// Where an offset of the print is now; `None` when it lies inside words already
    /// replaced.
    fn map(&self, printed: usize, side: Side) -> Option<usize> {
        self.edits
            .iter()
            .try_fold(printed, |p, e| shift(p, e, side))
    }

    /// The current char range of a marked passage of the print.
    fn range(&self, start: usize, end: Option<usize>) -> Result<(usize, usize), GapReason> {
        let end = end.ok_or(GapReason::ExtentNotMarked)?;
        if start > end || end > self.len_printed {
            return Err(GapReason::OffsetsOutOfRange);
        }
        let a = self
            .map(start, Side::Start)
            .ok_or(GapReason::OverlapsNewerChange)?;
        let b = self
            .map(end, Side::End)
            .ok_or(GapReason::OverlapsNewerChange)?;
        if a > b || b > self.chars.len() {
            return Err(GapReason::OverlapsNewerChange);
        }
        // A passage that would cut into words rebuilt from a newer note.
        if self
            .spans
            .iter()
            .any(|s| a < s.end && s.start < b && !(a <= s.start && s.end <= b))
        {
            return Err(GapReason::OverlapsNewerChange);
        }
        Ok((a, b))
    }

    /// The current position of a marker of the print.
    fn point(&self, at: usize) -> Result<usize, GapReason> {
        if at > self.len_printed {
            return Err(GapReason::OffsetsOutOfRange);
        }
        let p = self
            .map(at, Side::Start)
            .ok_or(GapReason::OverlapsNewerChange)?;
        if self.spans.iter().any(|s| s.start < p && p < s.end) {
            return Err(GapReason::OverlapsNewerChange);
        }
        Ok(p)
    }

    /// Takes out `a..b`, with one of the spaces left doubled at the joint.
    fn remove(&mut self, a: usize, b: usize, undo: Undo, link: &AmendmentLink) {
        let printed_words: String = self.chars[a..b].iter().collect();
        let (a, b) = self.widen_for_joint(a, b);
        self.splice(a, b, &[]);
        self.spans.push(RebuiltSpan {
            start: a,
            end: a,
            undo,
            printed_words: printed_words.trim().to_string(),
            source: Source::of(link),
        });
    }

    /// Replaces `a..b` by `words`, keeping the passage's leading space and its trailing space
    /// and punctuation when the quoted words do not have them ("article 19;" for "article
    /// 31").
    fn replace(&mut self, a: usize, b: usize, words: &str, undo: Undo, link: &AmendmentLink) {
        let printed_words: String = self.chars[a..b].iter().collect();
        let lead = self.chars[a..b]
            .iter()
            .take_while(|c| c.is_whitespace())
            .count();
        let core_start = a + lead;
        let mut core_end = b;
        while core_end > core_start && self.chars[core_end - 1].is_whitespace() {
            core_end -= 1;
        }
        while core_end > core_start
            && is_trailing_punct(self.chars[core_end - 1])
            && !words.ends_with(self.chars[core_end - 1])
        {
            core_end -= 1;
        }
        let new: Vec<char> = words.chars().collect();
        self.splice(core_start, core_end, &new);
        self.spans.push(RebuiltSpan {
            start: core_start,
            end: core_start + new.len(),
            undo,
            printed_words: printed_words.trim().to_string(),
            source: Source::of(link),
        });
    }

    /// Puts `words` in at `at` with a space on either side where the neighbours need one.
    fn insert(&mut self, at: usize, words: &str, link: &AmendmentLink) {
        let before = at.checked_sub(1).and_then(|i| self.chars.get(i)).copied();
        let after = self.chars.get(at).copied();
        let space_before =
            before.is_some_and(|c| !c.is_whitespace() && !matches!(c, '(' | '[' | '\u{201c}'));
        let space_after =
            after.is_some_and(|c| c.is_alphanumeric() || matches!(c, '(' | '\u{201c}'));
        let mut new: Vec<char> = Vec::new();
        if space_before {
            new.push(' ');
        }
        let words_start = at + new.len();
        new.extend(words.chars());
        let words_end = at + new.len();
        if space_after {
            new.push(' ');
        }
        self.splice(at, at, &new);
        self.spans.push(RebuiltSpan {
            start: words_start,
            end: words_end,
            undo: Undo::RestoredOmittedWords,
            printed_words: String::new(),
            source: Source::of(link),
        });
    }

    /// Widens a removal so the joint does not keep two spaces or a space before closing
    /// punctuation; a line break is kept over a space.
    fn widen_for_joint(&self, a: usize, b: usize) -> (usize, usize) {
        let before = a.checked_sub(1).map(|i| self.chars[i]);
        let after = self.chars.get(b).copied();
        match (before, after) {
            (Some(p), Some(n)) if p.is_whitespace() && n.is_whitespace() => {
                if n == '\n' && p != '\n' {
                    (a - 1, b)
                } else {
                    (a, b + 1)
                }
            }
            (Some(p), Some(n)) if p.is_whitespace() && is_trailing_punct(n) => (a - 1, b),
            (None, Some(n)) if n.is_whitespace() => (a, b + 1),
            (Some(p), None) if p.is_whitespace() => (a - 1, b),
            _ => (a, b),
        }
    }

    /// Replaces `a..b` by `new`, moving the rebuilt passages after it and dropping those it
    /// swallows (an older note's passage covers them now).
    fn splice(&mut self, a: usize, b: usize, new: &[char]) {
        let edit = Edit {
            at: a,
            removed: b - a,
            inserted: new.len(),
        };
        self.chars.splice(a..b, new.iter().copied());
        self.spans
            .retain(|s| !(b > a && a <= s.start && s.end <= b));
        for s in &mut self.spans {
            s.start = shift(s.start, &edit, Side::Start).unwrap_or(a);
            s.end = shift(s.end, &edit, Side::End).unwrap_or(a + new.len());
        }
        self.edits.push(edit);
    }
}

/// Where offset `p` is after `edit`; `None` when the edit replaced it.
fn shift(p: usize, edit: &Edit, side: Side) -> Option<usize> {
    let (a, b) = (edit.at, edit.at + edit.removed);
    if a == b {
        // A pure insertion.
        return Some(match (p.cmp(&a), side) {
            (std::cmp::Ordering::Less, _) | (std::cmp::Ordering::Equal, Side::End) => p,
            _ => p + edit.inserted,
        });
    }
    if p <= a {
        Some(p)
    } else if p >= b {
        Some(p - edit.removed + edit.inserted)
    } else {
        None
    }
}

fn is_trailing_punct(c: char) -> bool {
    matches!(c, ',' | ';' | ':' | '.' | ')' | '\u{2014}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::amendment::parse_footnote;
    use crate::model::Status;
    use crate::refid::{ProvisionKind, RefId};

    fn provision(text: &str, notes: Vec<AmendmentLink>) -> Provision {
        Provision {
            id: RefId::article("19").unwrap(),
            kind: ProvisionKind::Article,
            number: "19".into(),
            title: "Test".into(),
            part: None,
            chapter: None,
            subheading: None,
            status: Status::InForce,
            page_start: 1,
            page_end: 1,
            text: text.into(),
            clauses: Vec::new(),
            amendments: notes,
            cross_refs: Vec::new(),
        }
    }

    /// A note whose marker covers the first occurrence of `marked` in `text` (a point before
    /// it when `marked` starts with '@': "@, the" marks the point before ", the").
    fn link(text: &str, marked: &str, footnote: &str) -> AmendmentLink {
        let (point, needle) = match marked.strip_prefix('@') {
            Some(n) => (true, n),
            None => (false, marked),
        };
        let byte = text.find(needle).expect("marked words are in the text");
        let start = text[..byte].chars().count();
        let end = start + needle.chars().count();
        AmendmentLink {
            note: parse_footnote(footnote),
            clause: None,
            start: Some(start),
            end: (!point).then_some(end),
            page: 1,
        }
    }

    fn heading(footnote: &str) -> AmendmentLink {
        AmendmentLink {
            note: parse_footnote(footnote),
            clause: None,
            start: None,
            end: None,
            page: 1,
        }
    }

    const PREAMBLE: &str = "WE, THE PEOPLE OF INDIA, having solemnly resolved to constitute India into a SOVEREIGN SOCIALIST SECULAR DEMOCRATIC REPUBLIC and to secure to all its citizens: FRATERNITY assuring the dignity of the individual and the unity and integrity of the Nation;";

    fn preamble() -> Provision {
        provision(
            PREAMBLE,
            vec![
                link(PREAMBLE, "SOVEREIGN SOCIALIST SECULAR DEMOCRATIC REPUBLIC", "1. Subs. by the Constitution (Forty-second Amendment) Act, 1976, s.2, for \"SOVEREIGN DEMOCRATIC REPUBLIC\" (w.e.f. 3-1-1977)."),
                link(PREAMBLE, "unity and integrity of the Nation", "2. Subs. by the Constitution (Forty-second Amendment) Act, 1976, s. 2, for \"unity of the Nation\" (w.e.f. 3-1-1977)."),
            ],
        )
    }

    #[test]
    fn substitutions_are_restored_and_labelled() {
        let r = as_of(&preamble(), "1976-01-01");
        assert!(r.text.contains("into a SOVEREIGN DEMOCRATIC REPUBLIC and"));
        assert!(r.text.contains("and the unity of the Nation;"));
        assert!(!r.text.contains("SOCIALIST"));
        assert!(r.gaps.is_empty());
        assert_eq!(r.spans.len(), 2);
        let chars: Vec<char> = r.text.chars().collect();
        let first: String = chars[r.spans[0].start..r.spans[0].end].iter().collect();
        assert_eq!(first, "SOVEREIGN DEMOCRATIC REPUBLIC");
        assert_eq!(r.spans[0].undo, Undo::RestoredSubstitutedWords);
        assert_eq!(
            r.spans[0].printed_words,
            "SOVEREIGN SOCIALIST SECULAR DEMOCRATIC REPUBLIC"
        );
        assert_eq!(r.spans[0].source.amendment_number, Some(42));
        assert_eq!(
            r.spans[0].source.effective_from.as_deref(),
            Some("1977-01-03")
        );
        assert!(r.spans[0].label().contains(NOT_OFFICIAL));
        assert!(r.spans[0].label().contains("Forty-second Amendment"));
        let second: String = chars[r.spans[1].start..r.spans[1].end].iter().collect();
        assert_eq!(second, "unity of the Nation");
    }

    #[test]
    fn amendments_on_or_before_the_date_are_left_alone() {
        for date in ["1977-01-03", "2024-05-01"] {
            let r = as_of(&preamble(), date);
            assert_eq!(r.text, PREAMBLE, "{date}");
            assert!(r.is_as_printed());
        }
    }

    #[test]
    fn insertions_are_removed_with_their_spacing() {
        let text = "(c) to form associations or unions or co-operative societies;\n(d) to move freely;\nExplanation.—In this article, State includes Puducherry.";
        let p = provision(
            text,
            vec![
                link(text, "or co-operative societies", "1. Ins. by the Constitution (Ninety-seventh Amendment) Act, 2011, s. 2 (w.e.f. 8-2-2012)."),
                link(text, "Explanation.—In this article, State includes Puducherry.", "2. Ins. by the Constitution (Seventieth Amendment) Act, 1992, s. 2 (w.e.f. 1-6-1995)."),
            ],
        );
        let r = as_of(&p, "1990-01-01");
        assert_eq!(
            r.text,
            "(c) to form associations or unions;\n(d) to move freely;"
        );
        assert_eq!(r.spans.len(), 2);
        assert!(r
            .spans
            .iter()
            .all(|s| s.undo == Undo::RemovedInsertion && s.start == s.end));
        assert_eq!(r.spans[0].printed_words, "or co-operative societies");
        // Between the two: only the 2012 insertion is undone.
        let r = as_of(&p, "2000-01-01");
        assert!(r.text.contains("unions;") && r.text.contains("Explanation"));
    }

    #[test]
    fn omitted_words_are_restored_at_the_marker() {
        let text = "(1) Subject to the provisions of article 331, the House of the People shall consist of—";
        let p = provision(
            text,
            vec![link(text, "@, the House", "2. The words and figure \"and para. 4 of the Tenth Schedule\" omitted by the Constitution (Thirty-sixth Amendment) Act, 1975, s. 5 (w.e.f. 26-4-1975).")],
        );
        let r = as_of(&p, "1975-01-01");
        assert_eq!(r.text, "(1) Subject to the provisions of article 331 and para. 4 of the Tenth Schedule, the House of the People shall consist of—");
        assert_eq!(r.spans[0].undo, Undo::RestoredOmittedWords);
        let chars: Vec<char> = r.text.chars().collect();
        let restored: String = chars[r.spans[0].start..r.spans[0].end].iter().collect();
        assert_eq!(restored, "and para. 4 of the Tenth Schedule");
        // A quoted proviso "was as under".
        let text =
            "(2) Every Judge shall be appointed.\nProvided that the Judge shall hold office.";
        let p = provision(text, vec![link(text, "@\nProvided", "3. The first proviso was omitted by the Constitution (Ninety-ninth Amendment) Act, 2014, s. 2. The proviso was as under:\u{2014} \"Provided that the Chief Justice of India shall always be consulted:\" This amendment has been struck down by the Supreme Court")]);
        let r = as_of(&p, "2010-01-01");
        assert!(r.text.contains("appointed. Provided that the Chief Justice of India shall always be consulted:\nProvided that the Judge"), "{}", r.text);
    }

    #[test]
    fn changes_without_earlier_words_are_gaps() {
        let text = "(2) Nothing in sub-clause (a) shall affect any law.\n(3) Other words.";
        let p = provision(
            text,
            vec![
                link(text, "(2) Nothing in sub-clause (a) shall affect any law.", "1. Subs. by the Constitution (First Amendment) Act, 1951, s. 3, for cl. (2) (with retrospective effect)."),
                link(text, "@\n(3)", "2. Certain words omitted by the Constitution (Seventh Amendment) Act, 1956, s. 29 and Sch. (w.e.f. 1-11-1956)."),
            ],
        );
        let r = as_of(&p, "1950-06-01");
        assert_eq!(r.text, text, "the printed words stand");
        assert!(r.spans.is_empty());
        assert_eq!(r.gaps.len(), 2);
        assert!(r
            .gaps
            .iter()
            .all(|g| g.reason == GapReason::EarlierWordsNotRecorded));
        assert_eq!(
            r.gaps[0].reason_text(),
            "the footnote does not record the earlier words"
        );
        // The First Amendment has no w.e.f. date: its Act's year decides.
        let r = as_of(&p, "1951-12-31");
        assert_eq!(r.gaps.len(), 1);
    }

    #[test]
    fn provisions_inserted_after_the_date_did_not_exist() {
        let p = provision(
            "(1) Seats shall be reserved for women.",
            vec![heading("1. Ins. by the Constitution (One Hundred and Sixth Amendment) Act, 2023, s.3 (date yet to be notified).")],
        );
        let r = as_of(&p, "2022-05-01");
        assert!(!r.existed());
        assert_eq!(r.text, "");
        assert_eq!(
            r.inserted_after.as_ref().and_then(|s| s.amendment_number),
            Some(106)
        );
        assert!(as_of(&p, "2023-12-31").existed());
        // A whole provision substituted after the date is a gap, not an absence.
        let p = provision(
            "New words.",
            vec![heading("1. Subs. by the Constitution (Eightieth Amendment) Act, 2000, s. 3, for art. 270 (w.e.f. 1-4-1996).")],
        );
        let r = as_of(&p, "1990-01-01");
        assert!(r.existed());
        assert_eq!(r.text, "New words.");
        assert_eq!(r.gaps[0].reason, GapReason::EarlierWordsNotRecorded);
    }

    #[test]
    fn overlapping_notes_are_undone_newest_first() {
        // 217(1): the 7th Amendment (1956) substituted the whole passage; the 15th (1963) then
        // substituted "sixty years" inside it.
        let text = "A Judge shall hold office until he attains the age of sixty-two years:";
        let outer = link(text, "shall hold office until he attains the age of sixty-two years:", "1. Subs. by the Constitution (Seventh Amendment) Act, 1956, s. 12, for \"shall remain in office until he attains the age of sixty years\" (w.e.f. 1-11-1956).");
        let inner = link(text, "sixty-two years:", "2. Subs. by the Constitution (Fifteenth Amendment) Act, 1963, s. 4(a), for \"sixty years\" (w.e.f. 5-10-1963).");
        // Either order in the list: the newer inner note is undone first.
        for notes in [
            vec![outer.clone(), inner.clone()],
            vec![inner.clone(), outer.clone()],
        ] {
            let p = provision(text, notes);
            let r = as_of(&p, "1960-01-01");
            assert_eq!(
                r.text,
                "A Judge shall hold office until he attains the age of sixty years:"
            );
            assert_eq!(r.spans.len(), 1);
            assert_eq!(r.spans[0].source.amendment_number, Some(15));
            let r = as_of(&p, "1950-01-01");
            assert_eq!(
                r.text,
                "A Judge shall remain in office until he attains the age of sixty years:"
            );
            // The inner passage was swallowed by the outer one: one span, the 7th's.
            assert_eq!(r.spans.len(), 1);
            assert_eq!(r.spans[0].source.amendment_number, Some(7));
            assert!(r.gaps.is_empty());
        }
        // An older note that cuts into words rebuilt from a newer one is a gap.
        let text = "one two three four";
        let newer = link(text, "two three", "1. Subs. by the Constitution (Fifteenth Amendment) Act, 1963, s. 4, for \"2 3\" (w.e.f. 5-10-1963).");
        let older = link(text, "three four", "2. Subs. by the Constitution (Seventh Amendment) Act, 1956, s. 4, for \"3 4\" (w.e.f. 1-11-1956).");
        let r = as_of(&provision(text, vec![older, newer]), "1950-01-01");
        assert_eq!(r.text, "one 2 3 four");
        assert_eq!(r.gaps.len(), 1);
        assert_eq!(r.gaps[0].reason, GapReason::OverlapsNewerChange);
    }

    #[test]
    fn compound_notes_and_never_notified_substitutions() {
        // Inserted in 1977 and omitted in 1979: the words of 1977–1979 are printed nowhere.
        let text = "(3) Words.";
        let p = provision(text, vec![link(text, "@", "2. Cl. (4) was ins. by the Constitution (Forty-second Amendment) Act, 1976, s.14 (w.e.f. 3-1-1977) and omitted by the Constitution (Forty-fourth Amendment) Act, 1978, s. 12 (w.e.f. 20-6-1979).")]);
        let r = as_of(&p, "1978-01-01");
        assert_eq!(r.gaps[0].reason, GapReason::LaterChangeInSameNote);
        assert!(as_of(&p, "1980-01-01").is_as_printed());
        // "to read as" (date not notified): the print keeps the earlier words.
        let text = "(a) if he holds any office of profit;";
        let p = provision(text, vec![link(text, "(a) if he holds any office of profit;", "1. Subs. by the Constitution (Forty-second Amendment) Act, 1976, s. 19 to read as \"(a) if he holds any such office\" (date not notified). This amendment was omitted by the Constitution (Forty-fourth Amendment) Act, 1978, s. 45 (w.e.f. 20-6-1979).")]);
        assert!(as_of(&p, "1970-01-01").is_as_printed());
        assert!(as_of(&p, "1978-01-01").is_as_printed());
        // "Now … vide …" is information, not a later change.
        let text = "10. 8,000 rupees";
        let p = provision(text, vec![link(text, "8,000 rupees", "1. Subs. by the Constitution (Fifty-fourth Amendment) Act, 1986, s. 4, for \"3,500 rupees\" (w.e.f. 1-4-1986). Now two lakh rupees, vide the High Court and Supreme Court Judges (Salaries and Conditions of Service) Amendment Act, 2018 (10 of 2018), s. 2 (w.e.f. 1-1-2016).")]);
        assert!(as_of(&p, "2010-01-01").is_as_printed());
        assert_eq!(as_of(&p, "1980-01-01").text, "10. 3,500 rupees");
    }

    #[test]
    fn renumbering_is_undone_when_the_label_matches() {
        let text = "(a) new item;\n(aa) old item.";
        let p = provision(
            text,
            vec![
                link(text, "(a) new item;", "1. Ins. by the Constitution (Forty-fourth Amendment) Act, 1978, s. 28 (w.e.f. 20-6-1979)."),
                link(text, "(aa)", "2. Cl. (a) re-lettered as cl. (aa) by the Constitution (Forty-fourth Amendment) Act, 1978, s. 28 (w.e.f. 20-6-1979)."),
            ],
        );
        let r = as_of(&p, "1979-01-01");
        assert_eq!(r.text, "(a) old item.");
        assert!(r.gaps.is_empty());
    }

    #[test]
    fn renumbered_entries_take_their_earlier_numbers() {
        let text = "1. Andhra Pradesh 11\n2. Telangana 7\n3. Assam 7\n4. Bihar 16";
        let p = provision(
            text,
            vec![
                link(text, "2. Telangana 7", "1. Ins. by the Andhra Pradesh Reorganisation Act, 2014, s. 12 (w.e.f. 2-6-2014)."),
                link(text, "3.", "2. Entries 2 to 30 renumbered as entries 3 to 31 respectively by s. 12, ibid. (w.e.f. 2-6-2014)."),
                link(text, "4.", "2. Entries 2 to 30 renumbered as entries 3 to 31 respectively by s. 12, ibid. (w.e.f. 2-6-2014)."),
            ],
        );
        let r = as_of(&p, "2010-01-01");
        assert_eq!(r.text, "1. Andhra Pradesh 11\n2. Assam 7\n3. Bihar 16");
        assert!(r.gaps.is_empty());
        // A label the note does not account for is left, as a gap.
        assert_eq!(
            earlier_label("Entries 2 to 30 renumbered as entries 3 to 31", "2"),
            None
        );
        assert_eq!(
            earlier_label("Entry 8 renumbered as entry 9 by", "9").as_deref(),
            Some("8")
        );
    }

    #[test]
    fn an_undated_note_takes_its_acts_date_from_a_sibling() {
        // 124(2): the 99th Amendment's notes; only the first prints "w.e.f. 13-4-2015".
        let text = "seal on the recommendation of the Commission and shall hold office:\nProvided that a Judge may resign.";
        let mut omitted_proviso = link(text, "@\nProvided", "3. The first proviso was omitted by s. 2, ibid. The proviso was as under:\u{2014} \"Provided that the Chief Justice of India shall always be consulted:\" This amendment has been struck down by the Supreme Court");
        omitted_proviso.note.instrument =
            Some("Constitution (Ninety-ninth Amendment) Act, 2014".into());
        let p = provision(
            text,
            vec![
                link(text, "on the recommendation of the Commission", "1. Subs. by the Constitution (Ninety-ninth Amendment) Act, 2014, s. 2, for \"after consultation with the Judges\" (w.e.f. 13-4-2015)."),
                omitted_proviso,
            ],
        );
        // In 2014 the Act was made but not yet in force: both notes are undone.
        let r = as_of(&p, "2014-06-01");
        assert_eq!(r.spans.len(), 2, "{r:?}");
        assert!(r.text.contains("seal after consultation with the Judges and shall hold office: Provided that the Chief Justice"));
        assert!(as_of(&p, "2015-04-13").is_as_printed());
    }

    #[test]
    fn odd_input_becomes_gaps_not_panics() {
        let text = "short";
        let mut out_of_range = link(text, "short", "1. Ins. by the Constitution (Forty-fourth Amendment) Act, 1978, s. 2 (w.e.f. 20-6-1979).");
        out_of_range.end = Some(99);
        let mut backwards = out_of_range.clone();
        backwards.start = Some(4);
        backwards.end = Some(2);
        let mut no_end = out_of_range.clone();
        no_end.end = None;
        let mut far_point = link(text, "@short", "2. The words \"x\" omitted by the Constitution (Forty-fourth Amendment) Act, 1978, s. 2 (w.e.f. 20-6-1979).");
        far_point.start = Some(1000);
        let undated = link(
            text,
            "short",
            "3. Subs. by the Governor's order, for \"long\".",
        );
        let p = provision(
            text,
            vec![out_of_range, backwards, no_end, far_point, undated],
        );
        let r = as_of(&p, "1970-01-01");
        assert_eq!(r.text, "short");
        let reasons: Vec<GapReason> = r.gaps.iter().map(|g| g.reason).collect();
        assert_eq!(
            reasons,
            [
                GapReason::Undatable,
                GapReason::OffsetsOutOfRange,
                GapReason::OffsetsOutOfRange,
                GapReason::ExtentNotMarked,
                GapReason::OffsetsOutOfRange,
            ]
        );
        for bad in ["1976", "1976-13-01", "1976-02-30", "76-01-01", ""] {
            let r = as_of(&p, bad);
            assert_eq!(r.text, "short");
            assert_eq!(r.gaps[0].reason, GapReason::InvalidDate, "{bad}");
        }
    }

    #[test]
    fn before_the_nth_amendment() {
        let p = preamble();
        assert_eq!(
            day_before_amendment(p.amendments.iter().map(|l| &l.note), 42).as_deref(),
            Some("1977-01-02")
        );
        let r = as_of_before_amendment(&p, 42).expect("the Preamble names the 42nd");
        assert!(r.text.contains("SOVEREIGN DEMOCRATIC REPUBLIC"));
        assert!(as_of_before_amendment(&p, 44).is_none());
        let undated = [parse_footnote("1. Ins. by the Constitution (One Hundred and Sixth Amendment) Act, 2023, s.3 (date yet to be notified).")];
        assert_eq!(
            day_before_amendment(&undated, 106).as_deref(),
            Some("2022-12-31")
        );
        assert_eq!(day_before(2024, 3, 1), "2024-02-29");
        assert_eq!(day_before(1977, 1, 1), "1976-12-31");
    }
}
