//! Laid-out pages → [`Provision`]s. Pure: no PDF library, no I/O.
//!
//! The walk has three stages, each small enough to test on hand-made lines:
//! 1. [`clean_lines`] strips amendment apparatus from body lines — raised marker digits, the
//!    square brackets they open and close (a stack, since they nest: `2[3[(1)`), omission
//!    asterisks — and records where each marker sat, so notes can be attached to clauses.
//! 2. [`Segmenter`] walks the cleaned lines and cuts them into provisions, keeping Part,
//!    Chapter and sub-heading as it goes. An Article starts only where a bold number begins a
//!    line *and* the Contents lists that number *and* it comes after the previous Article: this
//!    is what rejects the false starts (numbered Acts in the Ninth Schedule, quoted footnotes).
//! 3. [`label_clauses`] finds `(1)`, `(2)(a)`, provisos, Explanations and Schedule entries in
//!    the finished text, with char offsets.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::LazyLock;

use regex::Regex;

use crate::amendment::{self, AmendmentKind, AmendmentNote};
use crate::contents::{self, ContentsEntry};
use crate::layout::{Line, PageLayout, Tok};
use crate::model::{AmendmentLink, Clause, ClauseKind, PartInfo, Provision, Status};
use crate::refid::{ProvisionKind, RefId};
use crate::xref::{self, XrefTarget};

/// Why a document could not be parsed as the Constitution.
#[derive(Debug, thiserror::Error)]
pub enum StructureError {
    #[error("this PDF is not the Constitution of India: {0}")]
    NotConstitution(String),
}

/// Everything the parser learned from one PDF.
#[derive(Debug, Clone)]
pub struct ParsedDocument {
    /// "As on 1st May, 2024".
    pub edition: String,
    pub contents: Vec<ContentsEntry>,
    pub provisions: Vec<Provision>,
    /// Listed in the Contents but not found in the body.
    pub missing: Vec<RefId>,
    /// Found more than once in the body.
    pub duplicates: Vec<RefId>,
    /// Things the parser noticed but could work around (a marker without a footnote, …).
    pub warnings: Vec<String>,
}

// ---------------------------------------------------------------------------------------------
// Stage 1: cleaning

/// A raised marker as found in the body.
#[derive(Debug, Clone, PartialEq)]
pub struct MarkerOcc {
    pub page: u32,
    /// `None` for a `*` note.
    pub number: Option<u32>,
}

/// Something that happened at a byte offset of a cleaned line's text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ev {
    /// Marker `i` (an index into the marker list) sits here.
    Marker(usize),
    /// The bracket opened by marker `i` closes here.
    Close(usize),
}

/// A body line after the amendment apparatus is stripped.
#[derive(Debug, Clone)]
pub struct CLine {
    pub page: u32,
    pub y: f32,
    pub x0: f32,
    pub size: f32,
    pub centred: bool,
    /// Centred within a looser tolerance: long Part titles start close to the margin.
    pub roughly_centred: bool,
    /// Text segments with their weight.
    pub segs: Vec<(String, bool)>,
    pub text: String,
    pub events: Vec<(usize, Ev)>,
}

impl CLine {
    /// The leading bold text (empty if the line does not start bold).
    pub fn bold_prefix(&self) -> &str {
        self.heading_bold().1
    }

    /// Where the leading bold text starts and what it is. A plain `[` before it is skipped: an
    /// inserted or omitted Article whose bracket no marker opened (`[232. Interpretation`).
    pub fn heading_bold(&self) -> (usize, &str) {
        match self.segs.as_slice() {
            [(s, true), ..] => (0, s),
            [(open, false), (s, true), ..] if open.trim() == "[" => (open.len(), s),
            _ => (0, ""),
        }
    }
}

/// Strips markers, their brackets and omission asterisks from a run of body lines.
///
/// A `[` is a marker's bracket when a marker precedes it with nothing but spaces or `*` in
/// between; its matching `]` is found with a stack, so brackets that are part of the text
/// (`[Sikkim to be associated with the Union.]` in an omitted stub) survive.
pub fn clean_lines(lines: &[(&Line, f32)], markers: &mut Vec<MarkerOcc>) -> Vec<CLine> {
    let mut brackets = Brackets::default();
    let mut out = Vec::with_capacity(lines.len());
    for (line, width) in lines {
        let cleaned = brackets.clean(line, markers);
        if cleaned.text.is_empty() && cleaned.events.is_empty() {
            continue;
        }
        out.push(CLine {
            page: line.page,
            y: line.y,
            x0: line.x0,
            size: line.size,
            centred: line.is_centred(*width),
            roughly_centred: ((line.x0 + line.x1) / 2.0 - width / 2.0).abs() < 20.0
                && line.x0 > 175.0,
            segs: cleaned.segs,
            text: cleaned.text,
            events: cleaned.events,
        });
    }
    out
}

/// One line's text without markers, marker brackets or omission asterisks: its segments by
/// weight, its text, and where the markers and their closing brackets were.
#[derive(Default)]
struct Cleaned {
    segs: Vec<(String, bool)>,
    text: String,
    events: Vec<(usize, Ev)>,
}

impl Cleaned {
    /// Appends `ch` (whitespace as one space, never leading or doubled) to the segment of its
    /// weight; a space joins whichever segment is open.
    fn push(&mut self, ch: char, bold: bool) {
        let ch = if ch.is_whitespace() { ' ' } else { ch };
        if ch == ' ' && (self.text.is_empty() || self.text.ends_with(' ')) {
            return;
        }
        match self.segs.last_mut() {
            Some((seg, b)) if *b == bold || ch == ' ' => seg.push(ch),
            _ => self.segs.push((ch.to_string(), bold)),
        }
        self.text.push(ch);
    }

    /// Trailing spaces are layout; events past the end move to it.
    fn finish(mut self) -> Cleaned {
        while self.text.ends_with(' ') {
            self.text.pop();
            if let Some((seg, _)) = self.segs.last_mut() {
                seg.pop();
                if seg.is_empty() {
                    self.segs.pop();
                }
            }
        }
        for e in self.events.iter_mut() {
            e.0 = e.0.min(self.text.len());
        }
        self
    }
}

/// What the bracket matching carries from line to line: the open brackets (each a marker's
/// or the text's own), the markers still waiting for their bracket, and whether an omission
/// asterisk came last.
#[derive(Default)]
struct Brackets {
    stack: Vec<Option<usize>>,
    pending: Vec<usize>,
    star: bool,
}

impl Brackets {
    fn clean(&mut self, line: &Line, markers: &mut Vec<MarkerOcc>) -> Cleaned {
        let mut out = Cleaned::default();
        for tok in &line.toks {
            match tok {
                Tok::Marker(n) => {
                    let i = new_marker(markers, line.page, Some(*n));
                    self.pending.push(i);
                    out.events.push((out.text.len(), Ev::Marker(i)));
                }
                Tok::Text { s, bold } => {
                    for ch in s.chars() {
                        if self.keeps(ch, line.page, markers, &mut out) {
                            out.push(ch, *bold);
                        }
                    }
                }
            }
        }
        out.finish()
    }

    /// Whether `ch` is text (false: an asterisk, or a marker's bracket, which become events).
    fn keeps(
        &mut self,
        ch: char,
        page: u32,
        markers: &mut Vec<MarkerOcc>,
        out: &mut Cleaned,
    ) -> bool {
        match ch {
            '*' => {
                self.star = true;
                return false;
            }
            '[' => {
                // "*[" with no numbered marker waiting: an omission note's bracket.
                if self.star && self.pending.is_empty() {
                    let i = new_marker(markers, page, None);
                    out.events.push((out.text.len(), Ev::Marker(i)));
                    self.pending.push(i);
                }
                self.star = false;
                if !self.pending.is_empty() {
                    self.stack.push(Some(self.pending.remove(0)));
                    return false;
                }
                self.stack.push(None);
            }
            ']' => {
                self.star = false;
                if let Some(Some(i)) = self.stack.last() {
                    out.events.push((out.text.len(), Ev::Close(*i)));
                    self.stack.pop();
                    return false;
                }
                self.stack.pop();
            }
            c if c.is_whitespace() => {}
            _ => {
                self.star = false;
                self.pending.clear();
            }
        }
        true
    }
}

/// Records a marker met on `page` (`None`: an asterisk's) and returns its index.
fn new_marker(markers: &mut Vec<MarkerOcc>, page: u32, number: Option<u32>) -> usize {
    markers.push(MarkerOcc { page, number });
    markers.len() - 1
}

// ---------------------------------------------------------------------------------------------
// Footnotes

/// A footnote as printed at the foot of one page.
#[derive(Debug, Clone, PartialEq)]
pub struct Footnote {
    pub page: u32,
    /// `None` for `*` notes and unnumbered notes.
    pub number: Option<u32>,
    pub star: bool,
    pub text: String,
}

/// Groups a page's footnote lines into notes. A note starts at the left margin with its number
/// (`1.`, `1 .`, `2Ins.`) or `*`; a line further right continues the note before it. A page
/// whose first note line carries no number holds an unnumbered note (pp.43, 142).
pub fn group_footnotes(page: &PageLayout) -> Vec<Footnote> {
    let mut notes: Vec<Footnote> = Vec::new();
    for line in &page.footnotes {
        let text = line.text();
        let t = text.trim();
        if t.is_empty() {
            continue;
        }
        let at_margin = line.x0 < 165.0;
        // At the margin a number and a full stop always start a note, even when a date follows
        // ("4. 7-1-2004, vide notification …", p.104).
        let numbered = if at_margin {
            amendment::split_footnote_number(t).or_else(|| {
                FOOTNOTE_AT_MARGIN
                    .captures(t)
                    .and_then(|c| Some((c[1].parse().ok()?, c.get(2)?.as_str())))
            })
        } else {
            None
        };
        if let Some((n, rest)) = numbered {
            notes.push(Footnote {
                page: page.number,
                number: Some(n),
                star: false,
                text: rest.trim().to_string(),
            });
        } else if at_margin && t.starts_with('*') {
            notes.push(Footnote {
                page: page.number,
                number: None,
                star: true,
                text: t.trim_start_matches('*').trim().to_string(),
            });
        } else if let Some(last) = notes.last_mut() {
            join_line(&mut last.text, t);
        } else {
            notes.push(Footnote {
                page: page.number,
                number: None,
                star: false,
                text: t.to_string(),
            });
        }
    }
    split_lost_star_note(&mut notes);
    notes
}

/// A `*` note whose star the print dropped runs on as the tail of the note above it: the 2024
/// print's p.88 reads "1. Ins. by … (w.e.f. 20-6-1979). Now “thirty-three” vide the Supreme
/// Court (Number of Judges) Amendment Act, 2019 …", where the 2022 print has the "Now" sentence
/// as a `*` note of its own. On a page with no `*` note, that sentence is split off as one.
fn split_lost_star_note(notes: &mut Vec<Footnote>) {
    if notes.iter().any(|n| n.star) {
        return;
    }
    let Some((i, at)) = notes.iter().enumerate().find_map(|(i, n)| {
        LOST_STAR_NOTE
            .find(&n.text)
            .map(|m| (i, m.start() + m.as_str().find("Now").unwrap_or(0)))
    }) else {
        return;
    };
    let tail = notes[i].text.split_off(at);
    let kept = notes[i].text.trim_end().len();
    notes[i].text.truncate(kept);
    let page = notes[i].page;
    notes.insert(
        i + 1,
        Footnote {
            page,
            number: None,
            star: true,
            text: tail,
        },
    );
}

/// "Now “thirty-three” vide …" after a full stop: a note of its own ([`split_lost_star_note`]).
static LOST_STAR_NOTE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\.\s+Now “[^”]+” vide ").unwrap());

/// The `*` a page's body lost with its note ([`split_lost_star_note`]): put back before the
/// page's one bracket that no marker opens ("[seven] other Judges", 124(1) in the 2024 print),
/// so the bracket pairs with the note as the 2022 print's `*[seven]` does. Only a page with no
/// `*[` of its own and exactly one such bracket is touched.
fn restore_lost_star(page: &mut PageLayout) {
    let lost = group_footnotes(page)
        .iter()
        .any(|n| n.star && n.text.starts_with("Now “"));
    if !lost || page.body.iter().any(|l| l.text().contains("*[")) {
        return;
    }
    // (line, token, byte offset) of every '[' that neither a marker nor a `*` opens (the page's
    // omission asterisks, "(4)* * * * *", open none).
    let mut unmarked = Vec::new();
    for (li, line) in page.body.iter().enumerate() {
        let mut after_marker = false;
        for (ti, tok) in line.toks.iter().enumerate() {
            match tok {
                Tok::Marker(_) => after_marker = true,
                Tok::Text { s, .. } => {
                    for (at, ch) in s.char_indices() {
                        if ch == '[' && !after_marker {
                            unmarked.push((li, ti, at));
                        }
                        if !ch.is_whitespace() {
                            after_marker = ch == '*';
                        }
                    }
                }
            }
        }
    }
    if let [(li, ti, at)] = unmarked[..] {
        if let Tok::Text { s, .. } = &mut page.body[li].toks[ti] {
            s.insert(at, '*');
        }
    }
}

/// A line that ends in a hyphen ("twenty-" / "four") joins the next without a space.
fn ends_with_hyphen(text: &str) -> bool {
    text.ends_with('-') && !text.ends_with(" -")
}

fn join_line(text: &mut String, more: &str) {
    if ends_with_hyphen(text) {
        text.push_str(more);
    } else {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(more);
    }
}

// ---------------------------------------------------------------------------------------------
// Stage 2: segmentation

static FOOTNOTE_AT_MARGIN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\d{1,2})\s*\.\s+(\d.*)$").unwrap());
static PART_HEADING: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^PART\s+([IVXLC]+[A-Z]?)\b\s*\.?\s*(.*)$").unwrap());
static ARTICLE_NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(\d{1,3}(?:[A-Z]{1,2}|-[A-Z]{1,2})?)\s*(?:\.|$)\s*(.*)$").unwrap()
});
static SCHEDULE_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(FIRST|SECOND|THIRD|FOURTH|FIFTH|SIXTH|SEVENTH|EIGHTH|NINTH|TENTH|ELEVENTH|TWELFTH)\s+SCHEDULE\b").unwrap()
});
static APPENDIX_HEADING: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^APPENDIX\s+(I{1,3})\b").unwrap());
static BRACKETED_TITLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*\.?\s*\[([^\]]+)\]\s*\.?\s*—?\s*(.*)$").unwrap());
static ORDINAL_DAY: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^As on (\d{1,2})\b").unwrap());
static SMALL_CAPS_GAP: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b([A-Z]) ([A-Z]{2,})\b").unwrap());

/// What the segmenter is inside.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Zone {
    BeforePreamble,
    Preamble,
    Articles,
    Annexes,
}

/// A provision being assembled.
struct Builder {
    id: RefId,
    kind: ProvisionKind,
    number: String,
    title: String,
    title_open: bool,
    part: Option<PartInfo>,
    chapter: Option<String>,
    subheading: Option<String>,
    page_start: u32,
    page_end: u32,
    text: String,
    chars: usize,
    /// Char offsets where paragraphs start.
    paras: Vec<usize>,
    /// Paragraphs that are centred headings inside a Schedule.
    heading_paras: HashSet<usize>,
    /// (marker index, char offset or None when on the heading).
    markers: Vec<(usize, Option<usize>)>,
    closes: HashMap<usize, usize>,
    last_y: Option<(u32, f32)>,
    /// The heading opened with a plain `[` whose `]` closes the provision's text.
    framed: bool,
}

impl Builder {
    fn new(id: RefId, kind: ProvisionKind, number: String, page: u32) -> Self {
        Builder {
            id,
            kind,
            number,
            title: String::new(),
            title_open: false,
            part: None,
            chapter: None,
            subheading: None,
            page_start: page,
            page_end: page,
            text: String::new(),
            chars: 0,
            paras: Vec::new(),
            heading_paras: HashSet::new(),
            markers: Vec::new(),
            closes: HashMap::new(),
            last_y: None,
            framed: false,
        }
    }

    /// Appends `line.text[from..]`, starting a paragraph if `new_para`.
    fn append(&mut self, line: &CLine, from: usize, new_para: bool) {
        let piece = &line.text[from..];
        let piece_trim_start = piece.len() - piece.trim_start().len();
        let piece = piece.trim();
        self.page_end = line.page;
        self.last_y = Some((line.page, line.y));
        let start_chars;
        if piece.is_empty() {
            start_chars = self.chars;
        } else {
            if self.text.is_empty() {
                self.paras.push(0);
            } else if new_para {
                self.push_str("\n");
                self.paras.push(self.chars);
            } else if !ends_with_hyphen(&self.text) {
                self.push_str(" ");
            }
            start_chars = self.chars;
            self.push_str(piece);
        }
        let base = from + piece_trim_start;
        for (off, ev) in &line.events {
            let at = if *off <= base {
                start_chars
            } else {
                start_chars
                    + line.text[base..(*off).min(base + piece.len())]
                        .chars()
                        .count()
            };
            match ev {
                Ev::Marker(i) => {
                    if *off >= from || self.text.is_empty() && from == 0 {
                        self.markers.push((*i, Some(at)));
                    } else {
                        self.markers.push((*i, None));
                    }
                }
                Ev::Close(i) => {
                    self.closes.insert(*i, at);
                }
            }
        }
    }

    /// An omitted Article whose bold heading is only its number carries its old title in the
    /// text, across lines: `131A. Exclusive … Central laws.].—Omitted by the Constitution …`.
    /// Moves that title out of the text.
    fn split_stub_title(&mut self) {
        let Some(at) = self.text.find("Omitted") else {
            return;
        };
        let head = &self.text[..at];
        if head.chars().count() > 300 {
            return;
        }
        let title = clean_marginal_title(
            head.trim_matches(|c: char| c.is_whitespace() || "[].—-".contains(c)),
        );
        self.title = title;
        self.drop_head(at);
    }

    /// A marginal title printed in roman rather than bold (2022's `[232. Interpretation.—Articles
    /// 230, …`): a short capitalised phrase ending ".—" at the start of the text is the title.
    fn split_roman_title(&mut self) {
        let Some(at) = self.text.find(".—") else {
            return;
        };
        let head = &self.text[..at];
        let words = head.split_whitespace().count();
        if !(1..=12).contains(&words)
            || !head.starts_with(|c: char| c.is_uppercase())
            || head.contains(['(', ')', ',', ';', ':', '\n'])
        {
            return;
        }
        self.title = head.trim().to_string();
        self.drop_head(at + ".—".len());
    }

    /// Cuts the text before byte `at` (a title that was read as text), moving the markers'
    /// and brackets' char offsets with it.
    fn drop_head(&mut self, at: usize) {
        let removed = self.text[..at].chars().count();
        self.text = self.text[at..].to_string();
        self.chars = self.text.chars().count();
        self.paras = vec![0];
        for (_, off) in self.markers.iter_mut() {
            *off = off.map(|o| o.saturating_sub(removed));
        }
        for off in self.closes.values_mut() {
            *off = off.saturating_sub(removed);
        }
    }

    /// Drops the `]` that closes a bracketed provision (`[232. … (w.e.f. 1-11-1956)].`).
    fn unframe(&mut self) {
        let t = self.text.trim_end();
        let cut = if t.ends_with("].") {
            Some(t.len() - 2)
        } else if t.ends_with(']') {
            Some(t.len() - 1)
        } else {
            None
        };
        if let Some(at) = cut {
            self.text.replace_range(at..at + 1, "");
            self.chars -= 1;
            self.text.truncate(self.text.trim_end().len());
            self.chars = self.text.chars().count();
        }
    }

    fn push_str(&mut self, s: &str) {
        self.text.push_str(s);
        self.chars += s.chars().count();
    }
}

struct Segmenter<'a> {
    contents: HashMap<RefId, &'a ContentsEntry>,
    zone: Zone,
    part: Option<PartInfo>,
    part_title_open: bool,
    chapter: Option<String>,
    chapter_title_open: bool,
    subheading: Option<String>,
    subheading_open: bool,
    /// The previous line ended a sentence or was a heading.
    prev_ended: bool,
    last_article: Option<RefId>,
    last_annex: Option<RefId>,
    current: Option<Builder>,
    done: Vec<Builder>,
    warnings: Vec<String>,
}

impl<'a> Segmenter<'a> {
    fn new(contents: &'a [ContentsEntry]) -> Self {
        Segmenter {
            contents: contents.iter().map(|e| (e.id.clone(), e)).collect(),
            zone: Zone::BeforePreamble,
            part: None,
            part_title_open: false,
            chapter: None,
            chapter_title_open: false,
            subheading: None,
            subheading_open: false,
            prev_ended: true,
            last_article: None,
            last_annex: None,
            current: None,
            done: Vec::new(),
            warnings: Vec::new(),
        }
    }

    fn finish(&mut self) {
        if let Some(mut b) = self.current.take() {
            if b.framed {
                b.unframe();
            }
            if b.kind == ProvisionKind::Article && b.title.is_empty() {
                b.split_stub_title();
            }
            if b.kind == ProvisionKind::Article && b.title.is_empty() {
                b.split_roman_title();
            }
            self.done.push(b);
        }
    }

    fn feed(&mut self, line: &CLine) {
        self.feed_inner(line);
        let t = line.text.trim_end();
        self.prev_ended = t.ends_with(['.', ']', ')', ':', '—']) || self.current.is_none();
    }

    fn feed_inner(&mut self, line: &CLine) {
        match self.zone {
            Zone::BeforePreamble => self.try_preamble(line),
            Zone::Preamble | Zone::Articles => self.feed_body(line),
            Zone::Annexes => {
                if !self.try_annex_heading(line) {
                    self.continue_current(line);
                }
            }
        }
    }

    /// The Preamble opens the text proper; everything before it (the cover, the contents) is
    /// skipped.
    fn try_preamble(&mut self, line: &CLine) {
        if !line.text.trim().starts_with("WE, THE PEOPLE") {
            return;
        }
        self.zone = Zone::Preamble;
        let mut b = Builder::new(
            RefId::preamble(),
            ProvisionKind::Preamble,
            String::new(),
            line.page,
        );
        b.title = "Preamble".to_string();
        b.append(line, 0, true);
        self.current = Some(b);
    }

    /// A line of the Preamble or the Parts: a heading (Schedule, Part, Chapter, the rest of a
    /// heading's title, an Article's start, a sub-heading) or the current provision's text.
    fn feed_body(&mut self, line: &CLine) {
        if self.try_annex_heading(line) || self.try_part_heading(line) {
            return;
        }
        if self.zone == Zone::Preamble {
            self.continue_current(line);
            return;
        }
        if self.try_chapter_heading(line) || self.try_heading_title_line(line) {
            return;
        }
        self.part_title_open = false;
        self.chapter_title_open = false;
        if let Some(start) = self.article_start(line) {
            self.subheading_open = false;
            self.start_article(line, start);
            return;
        }
        if self.try_subheading(line) {
            return;
        }
        self.subheading_open = false;
        self.continue_current(line);
    }

    /// "PART III — FUNDAMENTAL RIGHTS": centred, bold. Opens the Articles zone.
    fn try_part_heading(&mut self, line: &CLine) -> bool {
        if !line.centred || line.bold_prefix().len() <= 3 {
            return false;
        }
        let Some(c) = PART_HEADING.captures(line.text.trim()) else {
            return false;
        };
        self.finish();
        self.zone = Zone::Articles;
        self.part = Some(PartInfo {
            number: c[1].to_string(),
            title: title_from_caps(c[2].trim_start_matches(['—', '.', ' '])),
        });
        self.part_title_open = true;
        self.chapter = None;
        self.chapter_title_open = false;
        self.subheading = None;
        self.subheading_open = false;
        true
    }

    /// "CHAPTER I.—THE EXECUTIVE" (small capitals may print with a gap: "C HAPTER").
    fn try_chapter_heading(&mut self, line: &CLine) -> bool {
        let text = line.text.trim();
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        if !line.centred || !compact.starts_with("CHAPTER") {
            return false;
        }
        self.finish();
        let fixed = SMALL_CAPS_GAP.replace_all(text, "$1$2").to_string();
        let title = fixed
            .split_once('—')
            .map(|(_, t)| t.to_string())
            .unwrap_or_default();
        self.chapter = Some(title_from_caps(&title));
        self.chapter_title_open = true;
        self.part_title_open = false;
        self.subheading = None;
        self.subheading_open = false;
        true
    }

    /// A further line of a Part's or Chapter's title in capitals, right after its heading.
    fn try_heading_title_line(&mut self, line: &CLine) -> bool {
        let text = line.text.trim();
        if !((line.centred || line.roughly_centred)
            && is_caps(text)
            && (self.part_title_open || self.chapter_title_open))
        {
            return false;
        }
        let fixed = SMALL_CAPS_GAP.replace_all(text, "$1$2").to_string();
        if self.chapter_title_open {
            if let Some(c) = self.chapter.as_mut() {
                append_title(c, &title_from_caps(&fixed));
            }
        } else if let Some(p) = self.part.as_mut() {
            append_title(&mut p.title, &title_from_caps(&fixed));
        }
        true
    }

    /// A centred sub-heading between Articles ("Conduct of Business"), or its second line.
    fn try_subheading(&mut self, line: &CLine) -> bool {
        if !line.centred {
            return false;
        }
        let text = line.text.trim();
        if self.subheading_open {
            // The second line of a two-line sub-heading ("… State Legislatures" /
            // "and their Members").
            if let Some(s) = self.subheading.as_mut() {
                append_title(s, text.trim_matches(['[', ']', ' ']));
            }
            return true;
        }
        // A sub-heading follows the end of a sentence or another heading; a centred line after
        // "… Government of India or the" is a short body line.
        if !(self.prev_ended && looks_like_subheading(text)) {
            return false;
        }
        self.finish();
        self.subheading = Some(text.trim_matches(['[', ']', ' ']).to_string());
        self.subheading_open = true;
        true
    }

    /// A Schedule or Appendix heading: centred, bold, and the next in sequence.
    fn try_annex_heading(&mut self, line: &CLine) -> bool {
        if !line.centred || line.bold_prefix().is_empty() {
            return false;
        }
        let text = line.text.trim();
        let (id, number) = if let Some(c) = SCHEDULE_HEADING.captures(text) {
            match contents::schedule_number(&c[1]).map(RefId::schedule) {
                Some(id) => (id, c[1].to_string()),
                None => return false,
            }
        } else if let Some(c) = APPENDIX_HEADING.captures(text) {
            match contents::appendix_number(&c[1]).map(RefId::appendix) {
                Some(id) => (id, c[1].to_string()),
                None => return false,
            }
        } else {
            return false;
        };
        if self.last_annex.as_ref().is_some_and(|last| *last >= id) {
            return false;
        }
        self.finish();
        self.zone = Zone::Annexes;
        self.part = None;
        self.chapter = None;
        self.subheading = None;
        let kind = id.kind();
        let mut b = Builder::new(id.clone(), kind, number, line.page);
        b.title = self
            .contents
            .get(&id)
            .map(|e| e.title.trim_end_matches('.').to_string())
            .unwrap_or_default();
        // The heading's own markers (e.g. "[FOURTH SCHEDULE" inserted) belong to the whole.
        for (_, ev) in &line.events {
            if let Ev::Marker(i) = ev {
                b.markers.push((*i, None));
            }
        }
        b.last_y = Some((line.page, line.y));
        self.last_annex = Some(id);
        self.current = Some(b);
        true
    }

    /// If `line` starts an Article, returns the byte offset where its number starts.
    fn article_start(&self, line: &CLine) -> Option<(RefId, String, String)> {
        if !(176.0..=212.0).contains(&line.x0) {
            return None;
        }
        let bold = line.bold_prefix();
        let c = ARTICLE_NUMBER.captures(bold)?;
        let id = RefId::article(&c[1])?;
        if !self.contents.contains_key(&id) {
            return None;
        }
        if self.last_article.as_ref().is_some_and(|last| *last >= id) {
            return None;
        }
        Some((id, c[1].to_string(), c[2].to_string()))
    }

    fn start_article(&mut self, line: &CLine, (id, number, title_rest): (RefId, String, String)) {
        self.finish();
        let mut b = Builder::new(id.clone(), ProvisionKind::Article, number, line.page);
        b.part = self.part.clone();
        b.chapter = self.chapter.clone();
        b.subheading = self.subheading.clone();
        let (bold_at, bold) = line.heading_bold();
        let bold_len = bold_at + bold.len();
        b.framed = bold_at > 0;
        let rest = &line.text[bold_len..];
        let mut text_from = bold_len;
        let title_rest = title_rest.trim();
        if title_rest.is_empty() || title_rest.starts_with('[') {
            // An omitted stub: `31D. [Saving of laws ….].—Omitted by …`, the title bracketed.
            let probe = if title_rest.starts_with('[') {
                format!("{title_rest}{rest}")
            } else {
                rest.to_string()
            };
            if let Some(c) = BRACKETED_TITLE.captures(&probe) {
                b.title = clean_marginal_title(&c[1]);
                let body = c.get(2).map(|m| m.as_str()).unwrap_or("");
                text_from = line.text.len() - body.len();
            }
        } else {
            b.title = title_rest.to_string();
            // A title without its closing full stop continues in bold on the next line.
            b.title_open =
                rest.trim().is_empty() && !title_rest.ends_with('.') && !title_rest.ends_with('—');
            b.title = clean_marginal_title(&b.title);
        }
        let text_from = skip_heading_dash(&line.text, text_from);
        // Markers before the text (on the number) belong to the whole Article.
        for (off, ev) in &line.events {
            if let Ev::Marker(i) = ev {
                if *off < text_from {
                    b.markers.push((*i, None));
                }
            }
        }
        let body_line = CLine {
            events: line
                .events
                .iter()
                .filter(|(off, ev)| !(matches!(ev, Ev::Marker(_)) && *off < text_from))
                .cloned()
                .collect(),
            ..line.clone()
        };
        b.append(&body_line, text_from, true);
        self.last_article = Some(id);
        self.current = Some(b);
    }

    fn continue_current(&mut self, line: &CLine) {
        let Some(b) = self.current.as_mut() else {
            if !line.text.trim().is_empty() {
                self.warnings.push(format!(
                    "p.{}: text outside any provision: {:?}",
                    line.page,
                    truncate(&line.text, 60)
                ));
            }
            return;
        };
        let mut from = 0;
        if b.title_open {
            let bold = line.bold_prefix();
            if !bold.is_empty() {
                append_title(&mut b.title, bold.trim());
                b.title = clean_marginal_title(&b.title);
                from = skip_heading_dash(&line.text, bold.len());
                let t = line.text[bold.len()..].trim();
                b.title_open = t.is_empty()
                    && !bold.trim_end().ends_with('.')
                    && !bold.trim_end().ends_with('—');
            } else {
                b.title_open = false;
            }
        }
        let new_para = starts_paragraph(b, line);
        if matches!(b.kind, ProvisionKind::Schedule | ProvisionKind::Appendix) && line.centred {
            b.append(line, from, true);
            if let Some(&last) = b.paras.last() {
                b.heading_paras.insert(last);
            }
            return;
        }
        b.append(line, from, new_para);
    }
}

/// A paragraph starts where a line opens with a clause label, a proviso or an Explanation, or
/// where an indented line follows a wider gap than the line spacing.
fn starts_paragraph(b: &Builder, line: &CLine) -> bool {
    let t = line.text.trim_start();
    if b.text.is_empty() {
        return true;
    }
    let labelled = CLAUSE_LABEL.is_match(t)
        || t.starts_with("Provided")
        || t.starts_with("Explanation")
        || (matches!(b.kind, ProvisionKind::Schedule | ProvisionKind::Appendix)
            && ITEM_NUMBER.is_match(t));
    if line.x0 < 175.0 {
        return labelled && line.x0 > 165.0;
    }
    if labelled {
        return true;
    }
    match b.last_y {
        Some((page, y)) if page == line.page => y - line.y > line.size * 1.33,
        _ => false,
    }
}

fn skip_heading_dash(text: &str, from: usize) -> usize {
    let rest = &text[from..];
    let trimmed = rest.trim_start_matches([' ', '.', '—', '-', '–']);
    text.len() - trimmed.len()
}

fn clean_marginal_title(t: &str) -> String {
    let t = t
        .trim()
        .trim_end_matches(['—', ' ', '-'])
        .trim_end_matches('.')
        .trim_end_matches(['—', ' ']);
    let t = t.trim_end_matches('.');
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn append_title(title: &mut String, more: &str) {
    if more.is_empty() {
        return;
    }
    if !title.is_empty() && !title.ends_with('-') {
        title.push(' ');
    }
    title.push_str(more);
}

fn is_caps(t: &str) -> bool {
    let letters: Vec<char> = t.chars().filter(|c| c.is_alphabetic()).collect();
    !letters.is_empty() && letters.iter().all(|c| c.is_uppercase())
}

/// "FUNDAMENTAL RIGHTS" → "Fundamental Rights" (small words stay lower-case).
fn title_from_caps(t: &str) -> String {
    const SMALL: [&str; 10] = [
        "and", "of", "the", "in", "to", "for", "on", "or", "as", "by",
    ];
    let t = t.trim().trim_matches(['[', ']', ' ']);
    if !is_caps(t) {
        return t.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    t.split_whitespace()
        .enumerate()
        .map(|(i, w)| {
            let lower = w.to_lowercase();
            if i > 0 && SMALL.contains(&lower.as_str()) {
                lower
            } else {
                let mut cs = lower.chars();
                match cs.next() {
                    Some(f) => f.to_uppercase().collect::<String>() + cs.as_str(),
                    None => String::new(),
                }
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn looks_like_subheading(t: &str) -> bool {
    let t = t.trim();
    !t.is_empty()
        && t.len() < 120
        && !CLAUSE_LABEL.is_match(t)
        && !t.ends_with(['—', ';', ':', ','])
        && t.chars()
            .next()
            .is_some_and(|c| c.is_uppercase() || c == '[')
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

// ---------------------------------------------------------------------------------------------
// Stage 3: clauses

static CLAUSE_LABEL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\((\d+[A-Z]{0,2}|[a-z]{1,4})\)").unwrap());
static ITEM_NUMBER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\d+[A-Z]{0,2})\.\s").unwrap());
static EXPLANATION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^Explanation\s*([IVX]+|\d+)?\s*\.?").unwrap());
static LIST_HEADING: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^List\s+(I{1,3})\b").unwrap());

fn is_roman(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| matches!(c, 'i' | 'v' | 'x' | 'l'))
}

/// Finds clause spans in a finished provision text. `paras` are the char offsets where
/// paragraphs start; `heading_paras` those that are headings inside a Schedule.
pub fn label_clauses(
    kind: ProvisionKind,
    id: &RefId,
    text: &str,
    paras: &[usize],
    heading_paras: &HashSet<usize>,
) -> Vec<Clause> {
    let chars: Vec<char> = text.chars().collect();
    let paragraphs = paras.iter().enumerate().map(|(i, &start)| {
        let end = paras.get(i + 1).copied().unwrap_or(chars.len());
        (start, chars[start..end].iter().collect::<String>())
    });
    let opened = if matches!(kind, ProvisionKind::Schedule | ProvisionKind::Appendix) {
        let mut walk = AnnexWalk::new(kind, id);
        for (start, p) in paragraphs {
            walk.read(p.trim_start(), start, heading_paras.contains(&start));
        }
        walk.opened
    } else {
        let mut walk = ClauseWalk::default();
        for (start, p) in paragraphs {
            walk.read(p.trim_start(), start);
        }
        walk.opened
    };
    close_clauses(&opened, &chars)
}

/// Where a clause opens. Levels: 10 clause, 15 proviso or Explanation of a clause (its
/// sub-clauses nest inside it), 20 sub-clause, 30 item; 5 for a proviso or Explanation of
/// the whole Article; 0 for a heading inside a Schedule (which has no label).
struct Opening {
    label: String,
    kind: ClauseKind,
    level: u8,
    start: usize,
}

/// The walk over a Schedule's or an Appendix's paragraphs: its numbered entries ("List II,
/// entry 5" in the Seventh Schedule, "para 3" in the Fifth, Sixth and Tenth and in an
/// Appendix), closed by the headings between them.
struct AnnexWalk<'a> {
    kind: ProvisionKind,
    id: &'a RefId,
    opened: Vec<Opening>,
    /// The Seventh Schedule's List ("II") the entries are in.
    list: Option<String>,
}

impl<'a> AnnexWalk<'a> {
    fn new(kind: ProvisionKind, id: &'a RefId) -> Self {
        AnnexWalk {
            kind,
            id,
            opened: Vec::new(),
            list: None,
        }
    }

    fn read(&mut self, p: &str, start: usize, heading: bool) {
        if heading {
            if let Some(c) = LIST_HEADING.captures(p) {
                self.list = Some(c[1].to_string());
            }
            self.opened.push(Opening {
                label: String::new(),
                kind: ClauseKind::ScheduleItem,
                level: 0,
                start,
            });
            return;
        }
        let Some(c) = ITEM_NUMBER.captures(p) else {
            return;
        };
        let n = &c[1];
        let label = match (&self.list, self.id.as_str()) {
            (Some(l), "SCH-7") => format!("List {l}, entry {n}"),
            (_, "SCH-5" | "SCH-6" | "SCH-10") => format!("para {n}"),
            _ if self.kind == ProvisionKind::Appendix => format!("para {n}"),
            _ => format!("entry {n}"),
        };
        self.opened.push(Opening {
            label,
            kind: ClauseKind::ScheduleItem,
            level: 10,
            start,
        });
    }
}

/// The walk over an Article's paragraphs: "(1)" clauses, "(a)" sub-clauses, "(i)" items,
/// provisos and Explanations, each labelled by the clause and sub-clause it is in.
#[derive(Default)]
struct ClauseWalk {
    opened: Vec<Opening>,
    /// The clause ("(2)") and sub-clause ("(b)") open.
    clause: Option<String>,
    sub_clause: Option<String>,
    /// Provisos seen so far under each clause ("" for the whole Article).
    provisos: HashMap<String, u32>,
}

impl ClauseWalk {
    fn read(&mut self, p: &str, start: usize) {
        if let Some(c) = CLAUSE_LABEL.captures(p) {
            let lab = &c[1];
            if lab.chars().next().is_some_and(|c| c.is_ascii_digit()) {
                self.numbered(lab, start);
            } else {
                self.lettered(lab, start);
            }
        } else if p.starts_with("Provided") {
            self.proviso(start);
        } else if let Some(c) = EXPLANATION.captures(p) {
            let name = match c.get(1) {
                Some(n) => format!("Explanation {}", n.as_str()),
                None => "Explanation".to_string(),
            };
            self.explanation(name, start);
        }
    }

    fn open(&mut self, label: String, kind: ClauseKind, level: u8, start: usize) {
        self.opened.push(Opening {
            label,
            kind,
            level,
            start,
        });
    }

    fn numbered(&mut self, lab: &str, start: usize) {
        let label = format!("({lab})");
        self.clause = Some(label.clone());
        self.sub_clause = None;
        self.open(label, ClauseKind::Clause, 10, start);
    }

    /// "(i)" is an item under a sub-clause unless the letters have run on to it ("(h)" then
    /// "(i)").
    fn lettered(&mut self, lab: &str, start: usize) {
        let prev_letter = self
            .sub_clause
            .as_deref()
            .map(|s| s.trim_matches(['(', ')']).to_string());
        let roman_item = is_roman(lab)
            && self.sub_clause.is_some()
            && !(lab == "i" && prev_letter.as_deref() == Some("h"))
            && !(lab == "v" && prev_letter.as_deref() == Some("u"))
            && !(lab == "x" && prev_letter.as_deref() == Some("w"));
        let clause = self.clause.clone().unwrap_or_default();
        if roman_item {
            let sub_clause = self.sub_clause.clone().unwrap_or_default();
            self.open(
                format!("{clause}{sub_clause}({lab})"),
                ClauseKind::Item,
                30,
                start,
            );
        } else {
            let label = format!("({lab})");
            self.sub_clause = Some(label.clone());
            self.open(format!("{clause}{label}"), ClauseKind::SubClause, 20, start);
        }
    }

    /// "Provided …": the clause's first proviso is "(2) proviso", its second "(2) proviso 2";
    /// the whole Article's are "proviso", "proviso 2".
    fn proviso(&mut self, start: usize) {
        let parent = self.clause.clone().unwrap_or_default();
        let n = self.provisos.entry(parent.clone()).or_insert(0);
        *n += 1;
        let label = match (*n, parent.is_empty()) {
            (1, true) => "proviso".to_string(),
            (k, true) => format!("proviso {k}"),
            (1, false) => format!("{parent} proviso"),
            (k, false) => format!("{parent} proviso {k}"),
        };
        let level = if parent.is_empty() { 5 } else { 15 };
        self.sub_clause = None;
        self.open(label, ClauseKind::Proviso, level, start);
    }

    fn explanation(&mut self, name: String, start: usize) {
        let (label, level) = match &self.clause {
            Some(parent) => (format!("{parent} {name}"), 15),
            None => (name, 5),
        };
        self.sub_clause = None;
        self.open(label, ClauseKind::Explanation, level, start);
    }
}

/// Each labelled opening as a clause that ends where the next one of the same or a shallower
/// level starts (or the text ends), never inside trailing whitespace.
fn close_clauses(opened: &[Opening], chars: &[char]) -> Vec<Clause> {
    opened
        .iter()
        .enumerate()
        .filter(|(_, o)| !o.label.is_empty())
        .map(|(i, o)| {
            let mut end = opened[i + 1..]
                .iter()
                .find(|next| next.level <= o.level)
                .map_or(chars.len(), |next| next.start);
            while end > o.start && chars[end - 1].is_whitespace() {
                end -= 1;
            }
            Clause {
                label: o.label.clone(),
                kind: o.kind,
                start: o.start,
                end,
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The whole document

/// Parses laid-out pages into provisions: the Contents (what the body must hold), the
/// footnotes (the amendment notes), the body cut into provisions ([`segment`]), each finished
/// with its clauses, notes and cross-references ([`finish_provision`]), and the omitted Parts
/// that the body shows only as a note ([`add_missing_stubs`]); then checked against the
/// Contents.
pub fn parse_layout(pages: &[PageLayout]) -> Result<ParsedDocument, StructureError> {
    let preamble_page = preamble_page(pages)?;
    let contents = read_contents(pages, preamble_page)?;
    let edition = find_edition(pages).unwrap_or_default();
    let mut body_pages: Vec<PageLayout> = pages
        .iter()
        .filter(|p| p.number >= preamble_page)
        .cloned()
        .collect();
    body_pages.iter_mut().for_each(restore_lost_star);
    let notes = Notes::of(&body_pages);
    let (blocks, markers, mut warnings) = segment(&body_pages, &contents);
    let enclosing = opened_before(&blocks);
    let mut provisions: Vec<Provision> = blocks
        .into_iter()
        .zip(enclosing)
        .map(|(b, opened)| {
            let mut p = finish_provision(b, &contents, &markers, &notes, &mut warnings);
            p.amendments
                .extend(enclosing_links(&opened, &markers, &notes));
            p
        })
        .collect();
    add_missing_stubs(
        &contents,
        &mut provisions,
        &notes.footnotes,
        &notes.parsed,
        &body_pages,
    );
    let (missing, duplicates) = against_contents(&contents, &provisions);
    provisions.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(ParsedDocument {
        edition,
        contents,
        provisions,
        missing,
        duplicates,
        warnings,
    })
}

/// The page the Preamble starts on: the body begins there.
fn preamble_page(pages: &[PageLayout]) -> Result<u32, StructureError> {
    pages
        .iter()
        .find(|p| {
            p.body
                .iter()
                .any(|l| l.text().trim_start().starts_with("WE, THE PEOPLE"))
        })
        .map(|p| p.number)
        .ok_or_else(|| {
            StructureError::NotConstitution(
                "no Preamble (\"WE, THE PEOPLE OF INDIA\") found".into(),
            )
        })
}

/// The Contents list, from its "CONTENTS" heading to the Preamble. Fewer than 300 Articles
/// listed means this is not the Constitution.
fn read_contents(
    pages: &[PageLayout],
    preamble_page: u32,
) -> Result<Vec<ContentsEntry>, StructureError> {
    let contents_pages: Vec<PageLayout> = pages
        .iter()
        .filter(|p| p.number < preamble_page)
        .skip_while(|p| {
            !p.body
                .iter()
                .any(|l| l.text().trim().eq_ignore_ascii_case("CONTENTS"))
        })
        .cloned()
        .collect();
    let contents = contents::parse_contents(&contents_pages);
    let n_articles = contents
        .iter()
        .filter(|e| e.id.kind() == ProvisionKind::Article)
        .count();
    if n_articles < 300 {
        return Err(StructureError::NotConstitution(format!(
            "its Contents list has {n_articles} Articles; the Constitution has over 400"
        )));
    }
    Ok(contents)
}

/// The body's footnotes in document order (the order "ibid." is resolved in), each parsed as
/// an amendment note, and where each is printed.
struct Notes {
    footnotes: Vec<Footnote>,
    /// `footnotes[i]` parsed.
    parsed: Vec<AmendmentNote>,
    /// (page, number, a `*` note) → index.
    by_key: HashMap<(u32, Option<u32>, bool), usize>,
}

impl Notes {
    fn of(body_pages: &[PageLayout]) -> Notes {
        let footnotes: Vec<Footnote> = body_pages.iter().flat_map(group_footnotes).collect();
        let parsed = parse_footnotes(&footnotes);
        let by_key = footnotes
            .iter()
            .enumerate()
            .map(|(i, f)| ((f.page, f.number, f.star), i))
            .collect();
        Notes {
            footnotes,
            parsed,
            by_key,
        }
    }

    /// The notes a marker refers to. Two adjacent markers print as one number ("12" for 1
    /// and 2; "42" where only 2 exists): then the single digits that have notes on the page.
    fn of_marker(&self, m: &MarkerOcc) -> Vec<usize> {
        let key = (m.page, m.number, m.number.is_none());
        match self.by_key.get(&key) {
            Some(&fi) => vec![fi],
            None => m
                .number
                .filter(|n| *n >= 10)
                .map(|n| {
                    n.to_string()
                        .chars()
                        .filter_map(|d| d.to_digit(10))
                        .filter_map(|d| self.by_key.get(&(m.page, Some(d), false)).copied())
                        .collect()
                })
                .unwrap_or_default(),
        }
    }
}

/// The body cut into provisions: its lines cleaned of the amendment apparatus
/// ([`clean_lines`], which records the markers) and walked by the [`Segmenter`]. Returns the
/// provisions as assembled, the markers, and what the walk warned of.
fn segment(
    body_pages: &[PageLayout],
    contents: &[ContentsEntry],
) -> (Vec<Builder>, Vec<MarkerOcc>, Vec<String>) {
    let body: Vec<(&Line, f32)> = body_pages
        .iter()
        .flat_map(|p| p.body.iter().map(move |l| (l, p.width)))
        .collect();
    let mut markers = Vec::new();
    let lines = clean_lines(&body, &mut markers);
    let mut seg = Segmenter::new(contents);
    for line in &lines {
        seg.feed(line);
    }
    seg.finish();
    (seg.done, markers, seg.warnings)
}

/// An assembled provision finished: its clauses, its status (an Article whose text is
/// "Omitted …" is omitted, its note the text), the amendment notes its markers point at, its
/// cross-references (not to itself), and its title (the Contents' when the body has none).
fn finish_provision(
    mut b: Builder,
    contents: &[ContentsEntry],
    markers: &[MarkerOcc],
    notes: &Notes,
    warnings: &mut Vec<String>,
) -> Provision {
    let text = std::mem::take(&mut b.text);
    let clauses = label_clauses(b.kind, &b.id, &text, &b.paras, &b.heading_paras);
    let mut status = Status::InForce;
    let mut amendments = Vec::new();
    if b.kind == ProvisionKind::Article && text.trim_start().starts_with("Omitted") {
        status = Status::Omitted;
        let mut note = amendment::parse_footnote(text.trim());
        note.kind = AmendmentKind::Omitted;
        amendments.push(AmendmentLink {
            note,
            clause: None,
            start: None,
            end: None,
            page: b.page_start,
        });
    }
    amendments.extend(amendment_links(&b, &clauses, markers, notes, warnings));
    let this_part = b.part.as_ref().map(|p| p.number.clone());
    let cross_refs = xref::find_cross_refs(&text, this_part.as_deref())
        .into_iter()
        .filter(|r| !matches!(&r.target, XrefTarget::Provision(t) if *t == b.id))
        .collect();
    let title = if b.title.is_empty() {
        contents_title(contents, &b.id).unwrap_or_default()
    } else {
        b.title
    };
    Provision {
        id: b.id,
        kind: b.kind,
        number: b.number,
        title,
        part: b.part,
        chapter: b.chapter,
        subheading: b.subheading,
        status,
        page_start: b.page_start,
        page_end: b.page_end,
        text,
        clauses,
        amendments,
        cross_refs,
    }
}

/// The amendment notes of a provision's markers, each on the narrowest clause the marker sits
/// in; a marker without a footnote is a warning.
fn amendment_links(
    b: &Builder,
    clauses: &[Clause],
    markers: &[MarkerOcc],
    notes: &Notes,
    warnings: &mut Vec<String>,
) -> Vec<AmendmentLink> {
    let mut links = Vec::new();
    for (mi, at) in &b.markers {
        let m = &markers[*mi];
        let found = notes.of_marker(m);
        if found.is_empty() {
            warnings.push(format!(
                "p.{}: marker {} in {} has no footnote",
                m.page,
                m.number
                    .map(|n| n.to_string())
                    .unwrap_or_else(|| "*".into()),
                b.id
            ));
            continue;
        }
        let clause = at.and_then(|a| {
            clauses
                .iter()
                .filter(|c| c.start <= a && a < c.end.max(c.start + 1))
                .min_by_key(|c| c.end - c.start)
                .map(|c| c.label.clone())
        });
        for fi in found {
            let mut note = notes.parsed[fi].clone();
            note.marker = notes.footnotes[fi].number;
            links.push(AmendmentLink {
                note,
                clause: clause.clone(),
                start: *at,
                end: b.closes.get(mi).copied(),
                page: m.page,
            });
        }
    }
    links
}

/// Per assembled provision, the markers whose bracket opened in an earlier provision and
/// closes in this one or a later one: `[124A. … 124B. … 124C. … it.]` is one insertion, its
/// footnote marked once, on 124A's heading ("Ins. by the Constitution (Ninety-ninth Amendment)
/// Act, 2014, s. 3 … This amendment has been struck down …"), and 124B and 124C are inside it.
fn opened_before(blocks: &[Builder]) -> Vec<Vec<usize>> {
    let opener: HashMap<usize, usize> = blocks
        .iter()
        .enumerate()
        .flat_map(|(k, b)| b.markers.iter().map(move |(mi, _)| (*mi, k)))
        .collect();
    let mut inside = vec![Vec::new(); blocks.len()];
    for (closer, b) in blocks.iter().enumerate() {
        let mut closed: Vec<usize> = b.closes.keys().copied().collect();
        closed.sort_unstable();
        for mi in closed {
            let Some(&open) = opener.get(&mi).filter(|&&open| open < closer) else {
                continue;
            };
            // Only between Articles: the Schedules' tables print brackets the stack cannot
            // pair (a renumbering note of the Fourth Schedule's table would close in the
            // Ninth).
            if blocks[open..=closer]
                .iter()
                .all(|b| b.kind == ProvisionKind::Article)
            {
                for list in &mut inside[open + 1..=closer] {
                    list.push(mi);
                }
            }
        }
    }
    inside
}

/// The notes of the brackets a provision sits inside ([`opened_before`]), each about the whole
/// provision.
fn enclosing_links(opened: &[usize], markers: &[MarkerOcc], notes: &Notes) -> Vec<AmendmentLink> {
    opened
        .iter()
        .flat_map(|&mi| {
            let m = &markers[mi];
            notes.of_marker(m).into_iter().map(move |fi| {
                let mut note = notes.parsed[fi].clone();
                note.marker = notes.footnotes[fi].number;
                AmendmentLink {
                    note,
                    clause: None,
                    start: None,
                    end: None,
                    page: m.page,
                }
            })
        })
        .collect()
}

/// What the Contents lists that the body lacks, and what the body holds twice.
fn against_contents(
    contents: &[ContentsEntry],
    provisions: &[Provision],
) -> (Vec<RefId>, Vec<RefId>) {
    let mut seen: BTreeMap<RefId, usize> = BTreeMap::new();
    for p in provisions {
        *seen.entry(p.id.clone()).or_default() += 1;
    }
    let missing = contents
        .iter()
        .filter(|e| !seen.contains_key(&e.id))
        .map(|e| e.id.clone())
        .collect();
    let duplicates = seen
        .iter()
        .filter(|(_, n)| **n > 1)
        .map(|(id, _)| id.clone())
        .collect();
    (missing, duplicates)
}

fn contents_title(contents: &[ContentsEntry], id: &RefId) -> Option<String> {
    contents.iter().find(|e| &e.id == id).map(|e| {
        let t = e.title.trim_start_matches('[').trim_end_matches([']', ' ']);
        clean_marginal_title(
            t.trim_end_matches("Omitted")
                .trim_end_matches(['.', ' ', '—']),
        )
    })
}

/// An Article the Contents lists as omitted that has no heading of its own in the body (238,
/// whose whole Part VII was omitted) gets a stub carrying its Part's omission note. `pages` are
/// the body's pages (the Contents also prints the Part's heading).
fn add_missing_stubs(
    contents: &[ContentsEntry],
    provisions: &mut Vec<Provision>,
    footnotes: &[Footnote],
    notes: &[AmendmentNote],
    pages: &[PageLayout],
) {
    let have: HashSet<RefId> = provisions.iter().map(|p| p.id.clone()).collect();
    for e in contents
        .iter()
        .filter(|e| e.omitted && !have.contains(&e.id))
    {
        let Some(part) = e.part.clone() else { continue };
        // The omitted Part's page: the page whose body is its heading.
        let page = pages.iter().find(|p| {
            p.body.iter().any(|l| {
                let t = l.text();
                // The 2022 edition puts a `*` note on the heading.
                PART_HEADING
                    .captures(t.trim().trim_start_matches(['*', '[']))
                    .is_some_and(|c| c[1] == *part)
            })
        });
        let Some(page) = page else { continue };
        let note_idx = footnotes
            .iter()
            .position(|f| f.page == page.number && f.text.contains("Omitted"));
        let Some(ni) = note_idx else { continue };
        let mut note = notes[ni].clone();
        note.kind = AmendmentKind::Omitted;
        let title = page
            .body
            .iter()
            .map(|l| l.text())
            .find(|t| t.trim_start().starts_with('['))
            .map(|t| title_from_caps(t.trim().trim_end_matches('.').trim_matches(['[', ']'])))
            .unwrap_or_default();
        provisions.push(Provision {
            id: e.id.clone(),
            kind: ProvisionKind::Article,
            number: e.id.as_str().to_string(),
            title: contents_title(contents, &e.id).unwrap_or_default(),
            part: Some(PartInfo {
                number: part,
                title,
            }),
            chapter: None,
            subheading: None,
            status: Status::Omitted,
            page_start: page.number,
            page_end: page.number,
            text: footnotes[ni].text.trim().trim_end_matches('.').to_string() + ".",
            clauses: Vec::new(),
            amendments: vec![AmendmentLink {
                note,
                clause: None,
                start: None,
                end: None,
                page: page.number,
            }],
            cross_refs: Vec::new(),
        });
    }
}

/// Parses every footnote in document order; "Subs. by s. 2, ibid." takes its instrument from
/// the note before it.
fn parse_footnotes(footnotes: &[Footnote]) -> Vec<AmendmentNote> {
    let mut notes: Vec<AmendmentNote> = footnotes
        .iter()
        .map(|f| amendment::parse_footnote(&f.text))
        .collect();
    amendment::resolve_ibid(&mut notes);
    notes
}

fn find_edition(pages: &[PageLayout]) -> Option<String> {
    for p in pages.iter().take(3) {
        let lines: Vec<String> = p.body.iter().map(|l| l.text()).collect();
        for (i, t) in lines.iter().enumerate() {
            if let Some(pos) = t.find("[As on") {
                let mut s = t[pos + 1..].to_string();
                if !s.contains(']') {
                    if let Some(next) = lines.get(i + 1) {
                        s.push(' ');
                        s.push_str(next);
                    }
                }
                let s = s.split(']').next().unwrap_or("").to_string();
                // The ordinal suffix is a superscript on a line of its own ("st").
                let s = match lines.get(i.wrapping_sub(1)).map(|l| l.trim()) {
                    Some(suffix @ ("st" | "nd" | "rd" | "th")) => ORDINAL_DAY
                        .replace(&s, |c: &regex::Captures| format!("As on {}{suffix}", &c[1]))
                        .to_string(),
                    _ => s,
                };
                let s = s.replace("1 st", "1st").replace(" ,", ",");
                return Some(s.split_whitespace().collect::<Vec<_>>().join(" "));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line built from tokens; `m(n)` is a marker, `t(s)` regular text, `b(s)` bold.
    fn line(page: u32, x0: f32, toks: Vec<Tok>) -> Line {
        Line {
            page,
            y: 500.0,
            x0,
            x1: 450.0,
            size: 9.12,
            toks,
        }
    }
    fn m(n: u32) -> Tok {
        Tok::Marker(n)
    }
    fn t(s: &str) -> Tok {
        Tok::Text {
            s: s.into(),
            bold: false,
        }
    }
    fn b(s: &str) -> Tok {
        Tok::Text {
            s: s.into(),
            bold: true,
        }
    }

    fn clean(lines: &[Line]) -> (Vec<CLine>, Vec<MarkerOcc>) {
        let with_width: Vec<(&Line, f32)> = lines.iter().map(|l| (l, 612.0)).collect();
        let mut markers = Vec::new();
        let out = clean_lines(&with_width, &mut markers);
        (out, markers)
    }

    #[test]
    fn nested_markers_and_their_brackets_are_stripped() {
        // p.143, Article 239A(1): "4[for the Union territory of 5[Puducherry]]—"
        let (out, markers) = clean(&[
            line(
                143,
                305.0,
                vec![t("(1) Parliament may by law create "), m(4), t("[for")],
            ),
            line(
                143,
                162.0,
                vec![t("the Union territory of "), m(5), t("[Puducherry]]— ")],
            ),
        ]);
        assert_eq!(out[0].text, "(1) Parliament may by law create for");
        assert_eq!(out[1].text, "the Union territory of Puducherry—");
        assert_eq!(
            markers.iter().map(|m| m.number).collect::<Vec<_>>(),
            vec![Some(4), Some(5)]
        );
        // Both brackets close on the second line: 5 first (innermost), then 4.
        let closes: Vec<Ev> = out[1]
            .events
            .iter()
            .map(|e| e.1)
            .filter(|e| matches!(e, Ev::Close(_)))
            .collect();
        assert_eq!(closes, vec![Ev::Close(1), Ev::Close(0)]);
    }

    #[test]
    fn an_asterisk_bracket_is_a_note_and_the_texts_own_brackets_stay() {
        let (out, markers) = clean(&[
            line(40, 162.0, vec![t("*[Omitted.]   ")]),
            line(
                41,
                162.0,
                vec![t("[Sikkim to be associated with the Union.]")],
            ),
        ]);
        assert_eq!(out[0].text, "Omitted.");
        assert_eq!(out[0].events, vec![(0, Ev::Marker(0)), (8, Ev::Close(0))]);
        assert_eq!(markers.len(), 1);
        assert_eq!(markers[0].number, None);
        assert_eq!(out[1].text, "[Sikkim to be associated with the Union.]");
        assert!(out[1].events.is_empty());
    }

    #[test]
    fn marker_after_the_number_and_inserted_heading() {
        // p.223: "334. 4[Reservation of seats …" and p.42: "2[21A. Right to education."
        let (out, _) = clean(&[
            line(
                223,
                186.0,
                vec![b("334. "), m(4), t("["), b("Reservation of seats")],
            ),
            line(
                42,
                189.0,
                vec![
                    m(2),
                    t("["),
                    b("21A. Right to education."),
                    t("—The State shall"),
                ],
            ),
        ]);
        assert_eq!(out[0].text, "334. Reservation of seats");
        assert_eq!(out[1].text, "21A. Right to education.—The State shall");
        assert_eq!(out[1].bold_prefix(), "21A. Right to education.");
    }

    #[test]
    fn omission_asterisks_go_and_printed_brackets_stay() {
        // p.348 (Seventh Schedule, List II): "3. 3*** Officers and servants of the High Court"
        // p.33 (Article 2A stub): "3[2A. [Sikkim to be associated with the Union.] —Omitted …]"
        let (out, _) = clean(&[
            line(
                348,
                180.0,
                vec![t("3. "), m(3), t("*** Officers and servants")],
            ),
            line(
                33,
                189.0,
                vec![
                    m(3),
                    t("["),
                    b("2A. "),
                    t("[Sikkim to be associated with the Union.] —Omitted by the"),
                ],
            ),
            line(
                33,
                162.0,
                vec![t(
                    "Constitution (Thirty-sixth Amendment) Act, 1975, s. 5 (w.e.f. 26-4-1975).]",
                )],
            ),
        ]);
        assert_eq!(out[0].text, "3. Officers and servants");
        assert_eq!(
            out[1].text,
            "2A. [Sikkim to be associated with the Union.] —Omitted by the"
        );
        assert!(out[2].text.ends_with("(w.e.f. 26-4-1975)."));
    }

    #[test]
    fn a_star_before_a_bracket_is_a_note_reference() {
        // p.143: "3*[239A. Creation of local Legislatures …" with a "*" footnote on the page.
        let (out, markers) = clean(&[line(143, 189.0, vec![m(3), t("*["), b("239A. Creation")])]);
        assert_eq!(out[0].text, "239A. Creation");
        assert_eq!(
            markers.len(),
            1,
            "the marker opens the bracket; the star adds no marker"
        );
        let (_, markers) = clean(&[line(143, 189.0, vec![t("*["), b("239A. Creation")])]);
        assert_eq!(
            markers,
            vec![MarkerOcc {
                page: 143,
                number: None
            }]
        );
    }

    /// Page 32 with these footnote lines (left edge, text) and no body.
    fn footnote_page(lines: &[(f32, &str)]) -> PageLayout {
        PageLayout {
            number: 32,
            width: 612.0,
            body_size: 9.12,
            body: vec![],
            footnotes: lines
                .iter()
                .map(|(x0, s)| line(32, *x0, vec![t(s)]))
                .collect(),
        }
    }

    #[test]
    fn footnotes_group_by_number_with_odd_spacing() {
        // p.32: "2 . Subs. by s. 2, ibid." has a space before the full stop; p.42: "2Ins." none.
        let page = footnote_page(&[
            (162.0, "1. Subs. by the Constitution (Forty-second Amendment) Act, 1976, s.2, for \"SOVEREIGN"),
            (170.4, "DEMOCRATIC REPUBLIC\" (w.e.f. 3-1-1977)."),
            (162.0, "2 . Subs. by s. 2, ibid., for \"Unity of the Nation\" (w.e.f. 3-1-1977)."),
            (162.0, "3Ins. by the Constitution (Eighty-sixth Amendment) Act, 2002, s. 2 (w.e.f. 1-4-2010)."),
        ]);
        let notes = group_footnotes(&page);
        assert_eq!(
            notes.iter().map(|n| n.number).collect::<Vec<_>>(),
            vec![Some(1), Some(2), Some(3)]
        );
        assert!(notes[0]
            .text
            .ends_with("DEMOCRATIC REPUBLIC\" (w.e.f. 3-1-1977)."));
        assert!(notes[1].text.starts_with("Subs. by s. 2, ibid."));
        assert!(notes[2].text.starts_with("Ins. by"));
    }

    #[test]
    fn a_marker_finds_its_note_or_the_notes_of_its_merged_digits() {
        let page = footnote_page(&[
            (
                162.0,
                "1. Subs. by the Constitution (Forty-second Amendment) Act, 1976, s.2.",
            ),
            (
                162.0,
                "2. Ins. by the Constitution (Eighty-sixth Amendment) Act, 2002, s. 2.",
            ),
            (
                162.0,
                "* Omitted by the Constitution (Seventh Amendment) Act, 1956, s. 29.",
            ),
        ]);
        let notes = Notes::of(&[page]);
        assert_eq!(notes.parsed.len(), 3);
        let marker = |number| MarkerOcc { page: 32, number };
        assert_eq!(notes.of_marker(&marker(Some(2))), [1]);
        assert_eq!(notes.of_marker(&marker(None)), [2]);
        // "12" printed for markers 1 and 2 side by side; "42" where only 2 has a note.
        assert_eq!(notes.of_marker(&marker(Some(12))), [0, 1]);
        assert_eq!(notes.of_marker(&marker(Some(42))), [1]);
        // A single digit without a note is not split further; another page's notes never count.
        assert!(notes.of_marker(&marker(Some(7))).is_empty());
        assert!(notes
            .of_marker(&MarkerOcc {
                page: 33,
                number: Some(1)
            })
            .is_empty());
    }

    #[test]
    fn clause_labels_nest_and_roman_items_are_told_from_letters() {
        let text = "(1) A.\n(a) b;\n(h) c;\n(i) d;\n(2) E—\n(a) f—\n(i) g;\n(ii) h.\nProvided that i.\nExplanation.—j.";
        let mut paras = vec![0];
        for (i, ch) in text.chars().enumerate() {
            if ch == '\n' {
                paras.push(i + 1);
            }
        }
        let id = RefId::article("19").unwrap();
        let labels: Vec<String> =
            label_clauses(ProvisionKind::Article, &id, text, &paras, &HashSet::new())
                .into_iter()
                .map(|c| c.label)
                .collect();
        assert_eq!(
            labels,
            vec![
                "(1)",
                "(1)(a)",
                "(1)(h)",
                "(1)(i)",
                "(2)",
                "(2)(a)",
                "(2)(a)(i)",
                "(2)(a)(ii)",
                "(2) proviso",
                "(2) Explanation"
            ]
        );
    }
}
