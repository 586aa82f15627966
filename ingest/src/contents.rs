//! The Contents list (PDF pp.4–31): the authority on which provisions must exist.
//!
//! The body is checked against it: every Article listed must be found exactly once, and a body
//! line that looks like an Article heading but is not listed (a numbered Act in the Ninth
//! Schedule, a quoted footnote) is not an Article.

use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;

use crate::layout::{Line, PageLayout};
use crate::refid::RefId;

/// One entry of the Contents.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContentsEntry {
    pub id: RefId,
    /// The title as listed ("Right to education."), without the number.
    pub title: String,
    /// The Contents marks the entry "Omitted".
    pub omitted: bool,
    /// The Part the entry is listed under ("III"), for Articles.
    pub part: Option<String>,
}

static ARTICLE_ENTRY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*\*?\[?\*?\s*(\d{1,3}\s*(?:[A-Z]{1,2}(?:\s*-\s*[A-Z])?|-\s*[A-Z]{1,2})?)\s*\.\s*(.*)$",
    )
    .unwrap()
});
static PART_ENTRY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\[?PART\s+([IVXLC]+[A-Z]?)\b").unwrap());
static SCHEDULE_ENTRY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\[?(FIRST|SECOND|THIRD|FOURTH|FIFTH|SIXTH|SEVENTH|EIGHTH|NINTH|TENTH|ELEVENTH|TWELFTH)\s+SCHEDULE\s*—?\s*(.*)$").unwrap()
});
static APPENDIX_ENTRY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^APPENDIX\s+(I{1,3})\s*\.?\s*—?\s*(.*)$").unwrap());

/// The ordinal word of a Schedule ("SEVENTH") → its number.
pub fn schedule_number(word: &str) -> Option<u8> {
    const WORDS: [&str; 12] = [
        "FIRST", "SECOND", "THIRD", "FOURTH", "FIFTH", "SIXTH", "SEVENTH", "EIGHTH", "NINTH",
        "TENTH", "ELEVENTH", "TWELFTH",
    ];
    WORDS
        .iter()
        .position(|w| w.eq_ignore_ascii_case(word))
        .map(|i| i as u8 + 1)
}

/// A Roman numeral I–III → number.
pub fn appendix_number(roman: &str) -> Option<u8> {
    match roman {
        "I" => Some(1),
        "II" => Some(2),
        "III" => Some(3),
        _ => None,
    }
}

/// Parses the Contents pages. `pages` are the laid-out pages of the Contents only.
pub fn parse_contents(pages: &[PageLayout]) -> Vec<ContentsEntry> {
    let mut walk = ContentsWalk::default();
    for line in pages.iter().flat_map(|p| p.body.iter()) {
        walk.feed(line);
    }
    let mut entries = walk.entries;
    for e in &mut entries {
        if e.title.contains("Omitted") {
            e.omitted = true;
        }
    }
    entries
}

/// The Contents read line by line: the entries so far, the Part the Articles are in, and
/// whether the Schedules have begun.
#[derive(Default)]
struct ContentsWalk {
    entries: Vec<ContentsEntry>,
    part: Option<String>,
    in_schedules: bool,
    /// Whether the last entry may still take continuation lines.
    open: bool,
}

impl ContentsWalk {
    fn feed(&mut self, line: &Line) {
        let text = line.text();
        let t = text.trim();
        if t.is_empty() || t == "Contents" || t == "ARTICLES" || t == "ARTICLES ARTICLES" {
            return;
        }
        if t == "SCHEDULES" {
            self.in_schedules = true;
            self.open = false;
            return;
        }
        if let Some(c) = PART_ENTRY.captures(t) {
            if line.starts_bold() && !self.in_schedules {
                self.part = Some(c[1].to_string());
                self.open = false;
                return;
            }
        }
        if self.in_schedules {
            self.feed_schedules(t);
        } else {
            self.feed_articles(line, t);
        }
    }

    /// A line after "SCHEDULES": a Schedule's or an Appendix's entry, or more of the last
    /// title.
    fn feed_schedules(&mut self, t: &str) {
        let annex = SCHEDULE_ENTRY
            .captures(t)
            .and_then(|c| Some((schedule_number(&c[1]).map(RefId::schedule)?, c)))
            .or_else(|| {
                APPENDIX_ENTRY
                    .captures(t)
                    .and_then(|c| Some((appendix_number(&c[1]).map(RefId::appendix)?, c)))
            });
        if let Some((id, c)) = annex {
            self.push(id, &c[2], None);
            return;
        }
        if t == "APPENDICES" {
            self.open = false;
            return;
        }
        if self.open {
            self.continue_title(t);
        }
    }

    /// A line of the Articles: an Article's entry (at the left margin, not bold), or more of
    /// the last title (further right and not centred).
    fn feed_articles(&mut self, line: &Line, t: &str) {
        if line.x0 < 200.0 && !line.starts_bold() {
            if let Some(c) = ARTICLE_ENTRY.captures(t) {
                if let Some(id) = RefId::article(&c[1]) {
                    self.push(id, &c[2], self.part.clone());
                    return;
                }
            }
        }
        if self.open && (205.0..=216.0).contains(&line.x0) {
            self.continue_title(t);
            return;
        }
        self.open = false;
    }

    fn push(&mut self, id: RefId, title: &str, part: Option<String>) {
        self.entries.push(ContentsEntry {
            id,
            title: clean_title(title),
            omitted: false,
            part,
        });
        self.open = true;
    }

    fn continue_title(&mut self, t: &str) {
        if let Some(last) = self.entries.last_mut() {
            push_title(&mut last.title, t);
        }
    }
}

fn push_title(title: &mut String, more: &str) {
    if title.ends_with('-') {
        title.push_str(more.trim());
    } else {
        if !title.is_empty() {
            title.push(' ');
        }
        title.push_str(more.trim());
    }
    *title = clean_title(title);
}

/// Trims brackets and dashes that frame a listed title ("[Omitted.]", "—The States.").
fn clean_title(t: &str) -> String {
    let t = t.trim().trim_start_matches(['—', '-', '.', ' ']);
    let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
    // "List II— State List", "PART C—Provisions": one spacing for the dash.
    DASH.replace_all(&t, " — ").to_string()
}

static DASH: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\s*—\s*").unwrap());

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn article_entry_spellings() {
        for (line, id) in [
            ("21A. Right to education.", "21A"),
            ("243-I. Constitution of Finance Commission", "243I"),
            ("243Z-O. Power of Legislature", "243ZO"),
            ("371-I. Special provision with respect to Goa.", "371I"),
            ("371B . Special provision", "371B"),
            ("[390. Money received or raised", "390"),
            (" 393. Short title.", "393"),
        ] {
            let c = ARTICLE_ENTRY.captures(line).expect(line);
            assert_eq!(RefId::article(&c[1]).unwrap().as_str(), id, "{line}");
        }
    }

    #[test]
    fn ordinal_schedules() {
        assert_eq!(schedule_number("SEVENTH"), Some(7));
        assert_eq!(schedule_number("Twelfth"), Some(12));
        assert_eq!(schedule_number("THIRTEENTH"), None);
    }
}
