//! Two editions side by side: which provisions changed between them, word by word, and the
//! amending Acts (from the newer edition's footnotes) that explain each change. Pure.
//!
//! Two printings of the same text differ in layout as well as in law: a space before a
//! semicolon, a dash glyph, a dotted leader in a table, a running head caught inside a
//! Schedule. [`comparable`] removes those differences before anything is compared, so what is
//! left is a difference of words or punctuation. Such a difference is:
//! - `amended` when a footnote of the newer edition records an amendment made after the older
//!   edition's date (the Acts are listed);
//! - `revised` when none does: the newer printing corrects or re-words without an amendment
//!   ("Pondicherry" → "Puducherry", ", or" → "; or", a marginal title gaining "the"). These are
//!   real differences between two official printings, shown as such, never as amendments.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::Regex;

use serde::{Deserialize, Serialize};
use similar::{ChangeTag, TextDiff};

use crate::amendment::AmendmentKind;
use crate::model::{Provision, Status};
use crate::refid::RefId;
use crate::structure::ParsedDocument;

/// How a provision differs between two editions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// In the newer edition only, or in force there and omitted in the older.
    Inserted,
    /// Omitted in the newer edition (or absent from it) and in force in the older.
    Omitted,
    /// The words differ, and an amendment made after the older edition explains it.
    Amended,
    /// The words or the marginal title differ, and no amendment after the older edition does.
    Revised,
}

impl ChangeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Inserted => "inserted",
            ChangeKind::Omitted => "omitted",
            ChangeKind::Amended => "amended",
            ChangeKind::Revised => "revised",
        }
    }
}

/// One run of words in a word-level diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", content = "text", rename_all = "snake_case")]
pub enum WordRun {
    Same(String),
    Removed(String),
    Added(String),
}

/// An amending instrument recorded by a footnote of the newer edition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActNote {
    /// "Constitution (One Hundred and Sixth Amendment) Act, 2023".
    pub instrument: String,
    pub amendment_number: Option<u32>,
    pub kind: AmendmentKind,
    /// The clause the footnote's marker sits in.
    pub clause: Option<String>,
    /// ISO date from "w.e.f.", when printed.
    pub effective_from: Option<String>,
}

/// One provision that differs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProvisionChange {
    pub id: RefId,
    pub kind: ChangeKind,
    /// The heading line in the newer edition (the older one's when the provision left).
    pub heading: String,
    /// Marginal titles, when they differ.
    pub title_from: Option<String>,
    pub title_to: Option<String>,
    /// Word runs from the older text to the newer (empty when one side is absent).
    pub words: Vec<WordRun>,
    /// The amendments after the older edition that the newer edition's footnotes record here.
    pub acts: Vec<ActNote>,
}

/// An edition as the diff names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EditionName {
    /// As printed: "As on 1st May, 2024".
    pub label: String,
    /// ISO date read from the label: "2024-05-01".
    pub date: Option<String>,
}

/// What changed from one edition to another.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EditionDiff {
    pub from: EditionName,
    pub to: EditionName,
    /// Provisions in both editions that read the same.
    pub unchanged: usize,
    /// Every provision that differs, in document order of the newer edition (then the
    /// older edition's leavers).
    pub changes: Vec<ProvisionChange>,
}

impl EditionDiff {
    /// The ids of one kind of change, in order.
    pub fn ids(&self, kind: ChangeKind) -> Vec<&str> {
        self.changes
            .iter()
            .filter(|c| c.kind == kind)
            .map(|c| c.id.as_str())
            .collect()
    }
}

/// The ISO date of an edition label: "As on 1st May, 2024" → "2024-05-01"; "As on May, 2022"
/// → "2022-05-01" (a month alone means its first day).
pub fn edition_date(label: &str) -> Option<String> {
    const MONTHS: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    let lower = label.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let month_at = words.iter().position(|w| MONTHS.contains(w))?;
    let month = MONTHS.iter().position(|m| *m == words[month_at])? + 1;
    let year: u32 = words[month_at + 1..]
        .iter()
        .find_map(|w| w.parse().ok().filter(|y| (1900..3000).contains(y)))?;
    let day: u32 = month_at
        .checked_sub(1)
        .and_then(|i| {
            words[i]
                .trim_end_matches(|c: char| c.is_alphabetic())
                .parse()
                .ok()
        })
        .filter(|d| (1..=31).contains(d))
        .unwrap_or(1);
    Some(format!("{year:04}-{month:02}-{day:02}"))
}

/// A provision's text with the differences of layout removed: runs of whitespace as one space,
/// no space before closing punctuation or after an opening bracket, one dash glyph, dotted
/// leaders as one ellipsis, and a Schedule's running head ("(Seventh Schedule)") dropped.
pub fn comparable(text: &str) -> String {
    let mut s: String = text
        .chars()
        .filter(|c| !matches!(c, '\u{00AD}' | '\u{200B}'..='\u{200D}' | '\u{FEFF}'))
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .collect();
    s = s.replace(['―', '–'], "—").replace('…', "...");
    // A footnote marker inside a table's dotted leader ("Andhra Pradesh ....[..11]",
    // "[.1. 1]", "1..1"): the digits are the entry, the dots and brackets the printing.
    s = MARKED_NUMBER
        .replace_all(&s, |c: &regex::Captures| {
            c[0].chars()
                .filter(char::is_ascii_digit)
                .collect::<String>()
        })
        .into_owned();
    // What is left of an amendment's brackets ("[seven]") marks, never words.
    s = s.replace(['[', ']'], "");
    // A space the glyphs did not print: "1959and", "15.Odisha".
    s = GLUED.replace_all(&s, "$1 $2").into_owned();
    // Dotted leaders: any run of three or more dots (with spaces) is one leader.
    s = collapse_leaders(&s);
    s = RUNNING_HEAD.replace_all(&s, " ").into_owned();
    let joined = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::with_capacity(joined.len());
    let chars: Vec<char> = joined.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            let next = chars.get(i + 1).copied().unwrap_or(' ');
            let prev = if i > 0 { chars[i - 1] } else { ' ' };
            if matches!(next, ',' | ';' | ':' | '.' | ')' | '—' | ']')
                || matches!(prev, '(' | '—' | '[')
            {
                continue;
            }
        }
        out.push(c);
    }
    out.trim().to_string()
}

fn collapse_leaders(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '.' {
            let mut j = i;
            let mut dots = 0;
            while j < chars.len() && (chars[j] == '.' || chars[j] == ' ') {
                dots += usize::from(chars[j] == '.');
                j += 1;
            }
            if dots >= 3 {
                out.push_str(" … ");
                i = j;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

static MARKED_NUMBER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\[[\d. ]*\d[\d. ]*\]|\b\d+\.\.+\d+\b").expect("pattern"));

static GLUED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(\d\.?)([a-z]{3,}|[A-Z][a-z]+)").expect("pattern"));

/// The parenthesised Schedule name of a page's running head ("(Seventh Schedule)"): the
/// parser keeps it where a head falls inside a table, and each printing breaks pages elsewhere.
static RUNNING_HEAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\((?:First|Second|Third|Fourth|Fifth|Sixth|Seventh|Eighth|Ninth|Tenth|Eleventh|Twelfth) Schedule\)")
        .expect("pattern")
});

/// Compares two parsed editions. `old` is the earlier one. Each provision of the newer
/// edition is judged against its namesake in the older ([`judge`]), with the amendments the
/// newer footnotes record since the older edition ([`AmendmentWindow::acts`]); then the
/// provisions in force in the older edition that the newer lacks are omitted.
pub fn compare(old: &ParsedDocument, new: &ParsedDocument) -> EditionDiff {
    let window = AmendmentWindow::between(old, new);
    let olds: BTreeMap<&RefId, &Provision> = old.provisions.iter().map(|p| (&p.id, p)).collect();
    let mut changes = Vec::new();
    let mut unchanged = 0;
    for p in &new.provisions {
        let acts = window.acts(p);
        match judge(olds.get(&p.id).copied(), p, !acts.is_empty()) {
            Verdict::Changed {
                kind,
                titles,
                words,
            } => {
                let (title_from, title_to) = titles.unzip();
                changes.push(ProvisionChange {
                    id: p.id.clone(),
                    kind,
                    heading: p.heading_line(),
                    title_from,
                    title_to,
                    words,
                    acts,
                });
            }
            Verdict::Unchanged => unchanged += 1,
            Verdict::NotCounted => {}
        }
    }
    let news: BTreeMap<&RefId, &Provision> = new.provisions.iter().map(|p| (&p.id, p)).collect();
    changes.extend(
        old.provisions
            .iter()
            .filter(|o| !news.contains_key(&o.id) && o.status == Status::InForce)
            .map(|o| ProvisionChange {
                id: o.id.clone(),
                kind: ChangeKind::Omitted,
                heading: o.heading_line(),
                title_from: None,
                title_to: None,
                words: Vec::new(),
                acts: Vec::new(),
            }),
    );
    EditionDiff {
        from: EditionName {
            label: old.edition.clone(),
            date: window.old_date,
        },
        to: EditionName {
            label: new.edition.clone(),
            date: window.new_date,
        },
        unchanged,
        changes,
    }
}

/// What came between two editions: the older one's date and highest amendment, the newer
/// one's date.
struct AmendmentWindow {
    old_date: Option<String>,
    new_date: Option<String>,
    old_max_amendment: Option<u32>,
}

impl AmendmentWindow {
    fn between(old: &ParsedDocument, new: &ParsedDocument) -> AmendmentWindow {
        AmendmentWindow {
            old_date: edition_date(&old.edition),
            new_date: edition_date(&new.edition),
            old_max_amendment: old
                .provisions
                .iter()
                .flat_map(|p| &p.amendments)
                .filter_map(|l| l.note.amendment_number)
                .max(),
        }
    }

    /// The Acts the newer edition's footnotes on `p` record after the older edition: an
    /// amendment numbered above the older edition's highest, or in force between the two
    /// dates. Editorial notes never count; each Act once.
    fn acts(&self, p: &Provision) -> Vec<ActNote> {
        let mut acts: Vec<ActNote> = Vec::new();
        for l in &p.amendments {
            let n = &l.note;
            let Some(instrument) = n.instrument.clone() else {
                continue;
            };
            let after_number = matches!(
                (n.amendment_number, self.old_max_amendment),
                (Some(a), Some(m)) if a > m
            );
            let after_date = match (&n.effective_from, &self.old_date, &self.new_date) {
                (Some(d), Some(o), Some(nw)) => {
                    d.as_str() > o.as_str() && d.as_str() <= nw.as_str()
                }
                _ => false,
            };
            if n.kind == AmendmentKind::Note || !(after_number || after_date) {
                continue;
            }
            let act = ActNote {
                instrument,
                amendment_number: n.amendment_number,
                kind: n.kind,
                clause: l.clause.clone(),
                effective_from: n.effective_from.clone(),
            };
            if !acts.contains(&act) {
                acts.push(act);
            }
        }
        acts
    }
}

/// What became of one provision of the newer edition.
#[derive(Debug, PartialEq)]
enum Verdict {
    Changed {
        kind: ChangeKind,
        /// (older, newer) marginal titles, when they differ.
        titles: Option<(String, String)>,
        words: Vec<WordRun>,
    },
    Unchanged,
    /// A stub of an omitted provision that the older edition did not have: neither.
    NotCounted,
}

/// `p` of the newer edition against `old`, its namesake in the older (None: it had none).
/// `amended`: the newer footnotes record an amendment to it since the older edition. Layout
/// differences (`comparable`) are not changes; words that only moved are not either, unless
/// an amendment says they changed.
fn judge(old: Option<&Provision>, p: &Provision, amended: bool) -> Verdict {
    let changed = |kind| Verdict::Changed {
        kind,
        titles: None,
        words: Vec::new(),
    };
    let Some(o) = old else {
        return if p.status == Status::InForce {
            changed(ChangeKind::Inserted)
        } else {
            Verdict::NotCounted
        };
    };
    match (o.status, p.status) {
        (Status::Omitted, Status::InForce) => return changed(ChangeKind::Inserted),
        (Status::InForce, Status::Omitted) => return changed(ChangeKind::Omitted),
        // Two stubs ("Omitted by the Constitution (Seventh Amendment) Act, 1956 …"): the
        // law is the same; their wording is the editors'.
        (Status::Omitted, Status::Omitted) => return Verdict::Unchanged,
        _ => {}
    }
    let (a, b) = (comparable(&o.text), comparable(&p.text));
    let titles_differ = comparable(&o.title) != comparable(&p.title);
    if (a == b || (!amended && same_words_reordered(&a, &b))) && !titles_differ {
        return Verdict::Unchanged;
    }
    Verdict::Changed {
        kind: if a != b && amended {
            ChangeKind::Amended
        } else {
            ChangeKind::Revised
        },
        titles: titles_differ.then(|| (o.title.clone(), p.title.clone())),
        words: if a == b {
            Vec::new()
        } else {
            word_runs(&a, &b)
        },
    }
}

/// True when `a` and `b` hold the same words the same number of times, in another order.
///
/// Two columns set side by side (Appendix I's signature blocks: "Director Land Records &
/// Survey (Ex officio) …" beside "Director General, Land Records …") are read line by line
/// across both; when one printing wraps a column's lines elsewhere, the words interleave in
/// another order. No amendment reorders words without changing one, so such a difference is
/// one of layout.
pub fn same_words_reordered(a: &str, b: &str) -> bool {
    fn sorted(s: &str) -> Vec<&str> {
        let mut w: Vec<&str> = s.split_whitespace().collect();
        w.sort_unstable();
        w
    }
    sorted(a) == sorted(b)
}

/// Word runs from `a` to `b`: equal, removed and added runs merged where adjacent.
pub fn word_runs(a: &str, b: &str) -> Vec<WordRun> {
    let diff = TextDiff::from_words(a, b);
    let mut runs: Vec<WordRun> = Vec::new();
    for change in diff.iter_all_changes() {
        let text = change.value();
        let run = match change.tag() {
            ChangeTag::Equal => WordRun::Same(text.to_string()),
            ChangeTag::Delete => WordRun::Removed(text.to_string()),
            ChangeTag::Insert => WordRun::Added(text.to_string()),
        };
        match (runs.last_mut(), run) {
            (Some(WordRun::Same(s)), WordRun::Same(t))
            | (Some(WordRun::Removed(s)), WordRun::Removed(t))
            | (Some(WordRun::Added(s)), WordRun::Added(t)) => s.push_str(&t),
            (_, run) => runs.push(run),
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edition_labels_give_dates() {
        assert_eq!(
            edition_date("As on 1st May, 2024").as_deref(),
            Some("2024-05-01")
        );
        assert_eq!(
            edition_date("As on May, 2022").as_deref(),
            Some("2022-05-01")
        );
        assert_eq!(
            edition_date("As on 26th November, 2021").as_deref(),
            Some("2021-11-26")
        );
        assert_eq!(edition_date("The Constitution"), None);
    }

    #[test]
    fn layout_differences_compare_equal() {
        assert_eq!(
            comparable("goods and services tax ; (f) any"),
            comparable("goods and services tax; (f) any")
        );
        assert_eq!(comparable("namely :— (a)"), comparable("namely:— (a)"));
        assert_eq!(
            comparable("Explanation. — For"),
            comparable("Explanation.— For")
        );
        assert_eq!(
            comparable("1. Andhra ...........  [1] 2."),
            comparable("1. Andhra ....... [1] 2.")
        );
        assert_ne!(
            comparable("trade or business, or (ii)"),
            comparable("trade or business; or (ii)")
        );
        assert_ne!(comparable("Pondicherry"), comparable("Puducherry"));
    }

    #[test]
    fn words_read_in_another_order_are_layout() {
        // Appendix I, 2022 and 2024: the left column wraps after "(Ex" in one printing only.
        let a = "Survey (Ex Director General, Land Records officio) West Bengal, India & Director,";
        let b = "Survey Director General, Land Records (Ex officio) West Bengal, India & Director,";
        assert!(same_words_reordered(a, b));
        assert!(!same_words_reordered("the tax; or", "the tax; and"));
        assert!(!same_words_reordered("a a b", "a b b"));
    }

    fn article(title: &str, text: &str, status: Status) -> Provision {
        Provision {
            id: "3".parse().unwrap(),
            kind: crate::refid::ProvisionKind::Article,
            number: "3".into(),
            title: title.into(),
            part: None,
            chapter: None,
            subheading: None,
            status,
            page_start: 1,
            page_end: 1,
            text: text.into(),
            clauses: Vec::new(),
            amendments: Vec::new(),
            cross_refs: Vec::new(),
        }
    }

    #[test]
    fn a_provision_is_judged_against_its_namesake() {
        let in_force = |title, text| article(title, text, Status::InForce);
        let stub = article(
            "",
            "Omitted by the Constitution (Seventh Amendment) Act.",
            Status::Omitted,
        );
        let p = in_force(
            "Formation of new States",
            "Parliament may by law form a new State.",
        );
        let kind = |v: Verdict| match v {
            Verdict::Changed { kind, .. } => Some(kind),
            _ => None,
        };
        // No namesake: inserted when in force; a stub is counted neither way.
        assert_eq!(kind(judge(None, &p, false)), Some(ChangeKind::Inserted));
        assert_eq!(judge(None, &stub, false), Verdict::NotCounted);
        // Stub to text and back; two stubs are the same law.
        assert_eq!(
            kind(judge(Some(&stub), &p, false)),
            Some(ChangeKind::Inserted)
        );
        assert_eq!(
            kind(judge(Some(&p), &stub, false)),
            Some(ChangeKind::Omitted)
        );
        assert_eq!(judge(Some(&stub), &stub, false), Verdict::Unchanged);
        // Layout is not a change; words moved are not either, unless an Act amended it.
        let spaced = in_force(
            "Formation of new States",
            "Parliament  may by law form a new State .",
        );
        assert_eq!(judge(Some(&spaced), &p, false), Verdict::Unchanged);
        let moved = in_force(
            "Formation of new States",
            "Parliament may form by law a new State.",
        );
        assert_eq!(judge(Some(&moved), &p, false), Verdict::Unchanged);
        assert_eq!(
            kind(judge(Some(&moved), &p, true)),
            Some(ChangeKind::Amended)
        );
        // New words without an Act are a revision in printing; a new title is shown.
        let worded = in_force(
            "Formation of new States",
            "Parliament may by law form a new Union territory.",
        );
        assert_eq!(
            kind(judge(Some(&worded), &p, false)),
            Some(ChangeKind::Revised)
        );
        let retitled = in_force("New States", "Parliament may by law form a new State.");
        match judge(Some(&retitled), &p, false) {
            Verdict::Changed {
                kind,
                titles,
                words,
            } => {
                assert_eq!(kind, ChangeKind::Revised);
                assert_eq!(
                    titles,
                    Some(("New States".into(), "Formation of new States".into()))
                );
                assert!(words.is_empty());
            }
            v => panic!("{v:?}"),
        }
    }

    #[test]
    fn word_runs_show_what_changed() {
        let runs = word_runs(
            "the Union territory of Pondicherry.",
            "the Union territory of Puducherry.",
        );
        assert_eq!(
            runs.first(),
            Some(&WordRun::Same("the Union territory of ".into()))
        );
        assert!(runs.contains(&WordRun::Removed("Pondicherry.".into())));
        assert!(runs.contains(&WordRun::Added("Puducherry.".into())));
    }
}
