//! The typed output of ingestion. These are the shapes the database stores and the API serves.

use serde::{Deserialize, Serialize};

use crate::amendment::AmendmentNote;
use crate::refid::{ProvisionKind, RefId};
use crate::xref::CrossRef;

/// Whether a provision is law today.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    InForce,
    Omitted,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::InForce => "in_force",
            Status::Omitted => "omitted",
        }
    }
}

/// A Part of the Constitution ("III", "Fundamental Rights").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartInfo {
    pub number: String,
    pub title: String,
}

/// What sort of division of a provision's text a [`Clause`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClauseKind {
    /// `(1)`
    Clause,
    /// `(a)` inside a clause (or directly inside the Article)
    SubClause,
    /// `(i)` inside a sub-clause
    Item,
    Proviso,
    Explanation,
    /// A numbered entry or paragraph of a Schedule or Appendix (`List II, entry 2`).
    ScheduleItem,
}

impl ClauseKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ClauseKind::Clause => "clause",
            ClauseKind::SubClause => "sub_clause",
            ClauseKind::Item => "item",
            ClauseKind::Proviso => "proviso",
            ClauseKind::Explanation => "explanation",
            ClauseKind::ScheduleItem => "schedule_item",
        }
    }
}

/// A labelled span of a provision's text. Offsets count Unicode scalar values (chars), not
/// bytes, so clients in any language can slice with them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clause {
    /// The path as a lawyer writes it: `(2)(a)`, `(1) proviso`, `Explanation`, `List II, entry 2`.
    pub label: String,
    pub kind: ClauseKind,
    /// First char of the clause in [`Provision::text`].
    pub start: usize,
    /// One past the last char.
    pub end: usize,
}

/// An amendment footnote attached to a provision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AmendmentLink {
    pub note: AmendmentNote,
    /// The clause the marker sits in, when it sits inside one.
    pub clause: Option<String>,
    /// Char offset in the provision text where the amended text starts; `None` when the marker
    /// sits on the heading (the whole provision was inserted or substituted).
    pub start: Option<usize>,
    /// Char offset where the amended text ends (its closing bracket), when known.
    pub end: Option<usize>,
    /// PDF page of the footnote.
    pub page: u32,
}

/// One Preamble, Article, Schedule or Appendix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Provision {
    pub id: RefId,
    pub kind: ProvisionKind,
    /// As printed: "21A", "SEVENTH", "II"; "" for the Preamble.
    pub number: String,
    /// Marginal title without the number ("Right to education").
    pub title: String,
    pub part: Option<PartInfo>,
    pub chapter: Option<String>,
    /// The italic or bracketed heading over a group of Articles ("Right to Equality").
    pub subheading: Option<String>,
    pub status: Status,
    pub page_start: u32,
    pub page_end: u32,
    /// The text exactly as printed after the heading, without amendment markers, their
    /// brackets, omission asterisks or footnotes. Paragraphs are separated by `\n`. Quotes are
    /// cut from this.
    pub text: String,
    pub clauses: Vec<Clause>,
    pub amendments: Vec<AmendmentLink>,
    pub cross_refs: Vec<CrossRef>,
}

impl Provision {
    /// A one-line heading for display and embedding:
    /// "Article 21A — Right to education (Part III — Fundamental Rights)".
    pub fn heading_line(&self) -> String {
        let name = match self.kind {
            ProvisionKind::Preamble => "Preamble".to_string(),
            ProvisionKind::Article => format!("Article {}", self.id),
            ProvisionKind::Schedule => format!("{} Schedule", title_case(&self.number)),
            ProvisionKind::Appendix => format!("Appendix {}", self.number),
        };
        let mut s = name;
        if !self.title.is_empty() && self.kind != ProvisionKind::Preamble {
            s.push_str(" — ");
            s.push_str(&self.title);
        }
        if let Some(p) = &self.part {
            s.push_str(&format!(" (Part {} — {})", p.number, p.title));
        }
        s
    }

    /// The clause whose span contains char offset `at`, preferring the innermost.
    pub fn clause_at(&self, at: usize) -> Option<&Clause> {
        self.clauses
            .iter()
            .filter(|c| c.start <= at && at < c.end)
            .min_by_key(|c| c.end - c.start)
    }
}

fn title_case(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for (i, ch) in word.chars().enumerate() {
        if i == 0 {
            out.extend(ch.to_uppercase());
        } else {
            out.extend(ch.to_lowercase());
        }
    }
    out
}

/// A unit of retrieval: a whole provision, or a run of its clauses when it is too long.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Chunk {
    pub provision: RefId,
    /// 0-based position within the provision.
    pub seq: u32,
    /// Labels of the clauses the chunk covers (empty for an unsplit provision).
    pub clause_labels: Vec<String>,
    /// Char offsets into the provision's text.
    pub start: usize,
    pub end: usize,
    /// The heading line, prefixed to the text when embedding.
    pub heading: String,
    pub text: String,
    /// Tokens of `heading + text` by the embedding tokenizer.
    pub tokens: u32,
}
