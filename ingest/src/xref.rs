//! Cross-references inside the Constitution's own text ("article 13",
//! "clause (2) of article 32", "Part III", "List II in the Seventh
//! Schedule").
//!
//! They become edges between provisions, so that an answer quoting Article
//! 31A can also fetch Articles 13, 14 and 19 that it depends on. Edges that
//! point nowhere, or at the wrong provision, are worse than missing ones (they
//! pull unrelated text into an answer), so this module only reads the forms the
//! Constitution actually prints and leaves out references it cannot resolve
//! from the text alone:
//!
//! - self references ("this article", "this clause", "the said article",
//!   "that Schedule") are skipped: the edge would point back at its source;
//! - a bare "clause (3)" is skipped: it means a clause of the same Article,
//!   which the caller already has, and the text does not say which Article;
//! - "this Part" resolves to the caller's Part when one is given, else it is
//!   skipped; "this Chapter" is skipped (a Chapter is not a target kind);
//! - "the Schedule" / "that Schedule" are ambiguous and skipped;
//! - "Part A of the First Schedule", "Part III of the table below" and the
//!   like name parts of a Schedule or a table, not Parts of the Constitution,
//!   and are skipped (the Schedule itself is still found);
//! - "List I/II/III", "Union/State/Concurrent List" and "entry 92A of List I"
//!   point at the Seventh Schedule, which holds the Lists; the entry is not
//!   kept as a clause, because `clause` is the Article bracket chain and the
//!   matched words are in `surface`.
//!
//! Articles are parsed by [`crate::refid`] in its strict legal mode, so the
//! same spellings collapse to the same [`RefId`] everywhere.

use crate::refid::{from_roman, tokenize, Mode, RefId, Scanner, Tok, TokKind};
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// What a cross-reference points at.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum XrefTarget {
    /// An Article, Schedule, Appendix or the Preamble.
    Provision(RefId),
    /// A Part of the Constitution by its Roman numeral as printed: "III",
    /// "IXA", "XIVA". Kept apart from provisions because a Part is a group of
    /// Articles, which only the structure pass knows.
    Part(String),
}

/// One cross-reference found in a provision's text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrossRef {
    pub target: XrefTarget,
    /// The clause chain within an Article: "(2)", "(1)(g)".
    pub clause: Option<String>,
    /// Byte range of the reference in the text that was scanned.
    pub span: Range<usize>,
    /// The matched words, e.g. "clause (2) of article 32".
    pub surface: String,
}

/// Finds the cross-references in one provision's text.
///
/// `this_part` is the Part the provision sits in ("III", or "Part III"), so
/// that "this Part" can be resolved; pass `None` for Schedules and the
/// Preamble. Identical targets with the same clause are reported once, at
/// their first occurrence; results are in text order. Ranges such as
/// "articles 268 to 279" are expanded as [`crate::refid::find_refs`]
/// documents (plain numbers only; use the ends with the corpus for the
/// lettered Articles in between).
pub fn find_cross_refs(text: &str, this_part: Option<&str>) -> Vec<CrossRef> {
    let this_part = this_part.and_then(normalise_part);
    let toks = tokenize(text);
    let scanner = Scanner {
        toks: &toks,
        mode: Mode::Legal,
    };
    let x = XScan {
        toks: &toks,
        this_part: this_part.as_deref(),
    };
    let mut raw: Vec<(XrefTarget, Option<String>, Range<usize>)> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if let Some((found, next)) = x.match_at(i) {
            raw.extend(found);
            i = next.max(i + 1);
        } else if let Some((found, next)) = scanner.match_at(i) {
            raw.extend(
                found
                    .into_iter()
                    .map(|f| (XrefTarget::Provision(f.id), f.clause, f.span)),
            );
            i = next.max(i + 1);
        } else {
            i += 1;
        }
    }
    raw.sort_by_key(|(_, _, span)| span.start);
    let mut out: Vec<CrossRef> = Vec::new();
    for (target, clause, span) in raw {
        if out.iter().any(|c| c.target == target && c.clause == clause) {
            continue;
        }
        out.push(CrossRef {
            surface: text[span.clone()].to_string(),
            target,
            clause,
            span,
        });
    }
    out
}

/// Accepts "III", "iii", "Part III", "IXA" and returns the printed numeral,
/// so callers may pass the Part however their structure pass stores it.
fn normalise_part(s: &str) -> Option<String> {
    let t = s.trim();
    let t = match t.get(..4) {
        Some(p) if p.eq_ignore_ascii_case("part") => t[4..].trim(),
        _ => t,
    };
    part_numeral(&t.to_ascii_uppercase())
}

/// A Part numeral: I to XXX in I/V/X only, optionally followed by A or B
/// (IVA, IXA, IXB, XIVA). Other Roman letters are excluded so that the old
/// state classes "Part C" and "Part D" (100 and 500 as numerals) are not read
/// as Parts.
fn part_numeral(s: &str) -> Option<String> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_uppercase()) {
        return None;
    }
    let numeral_ok = |r: &str| {
        !r.is_empty()
            && r.bytes().all(|b| matches!(b, b'I' | b'V' | b'X'))
            && from_roman(r).is_some_and(|v| (1..=30).contains(&v))
    };
    if numeral_ok(s) {
        return Some(s.to_string());
    }
    let (body, last) = s.split_at(s.len() - 1);
    (matches!(last, "A" | "B") && numeral_ok(body)).then(|| s.to_string())
}

type Hit = (XrefTarget, Option<String>, Range<usize>);

/// The patterns that only exist in legal text: Parts, Lists, entries and
/// self references. Everything else is delegated to the `refid` scanner.
struct XScan<'t, 'a> {
    toks: &'t [Tok<'a>],
    this_part: Option<&'t str>,
}

impl<'a> XScan<'_, 'a> {
    fn tok(&self, i: usize) -> Option<&Tok<'a>> {
        self.toks.get(i)
    }

    fn is_word(&self, i: usize, w: &str) -> bool {
        self.tok(i).is_some_and(|t| t.is_word(w))
    }

    /// Exact-case word, for "Part"/"List" which the Constitution always
    /// capitalises in references (upper-case "PART III" is a heading).
    fn is_word_exact(&self, i: usize, w: &str) -> bool {
        self.tok(i)
            .is_some_and(|t| t.kind == TokKind::Word && t.text == w)
    }

    fn span(&self, from: usize, to_exclusive: usize) -> Range<usize> {
        self.toks[from].start..self.toks[to_exclusive - 1].end
    }

    fn match_at(&self, i: usize) -> Option<(Vec<Hit>, usize)> {
        self.self_reference(i)
            .or_else(|| self.entries(i))
            .or_else(|| self.list(i))
            .or_else(|| self.parts(i))
    }

    /// "this Part" (resolved), "this article", "the said Part III", "that
    /// Schedule" … consumed so that nothing after them is misread.
    fn self_reference(&self, i: usize) -> Option<(Vec<Hit>, usize)> {
        let t = self.tok(i)?;
        if !["this", "that", "said", "such"]
            .iter()
            .any(|w| t.is_word(w))
        {
            return None;
        }
        let noun = self.tok(i + 1)?;
        let is_part = noun.kind == TokKind::Word && noun.text == "Part";
        let other = [
            "article",
            "clause",
            "chapter",
            "schedule",
            "sub-clause",
            "list",
            "entry",
        ]
        .iter()
        .any(|w| noun.is_word(w));
        if !is_part && !other {
            return None;
        }
        let mut next = i + 2;
        if is_part && t.is_word("this") {
            let hits = self
                .this_part
                .map(|p| vec![(XrefTarget::Part(p.to_string()), None, self.span(i, next))])
                .unwrap_or_default();
            return Some((hits, next));
        }
        // "the said Part III": swallow the numeral too.
        if is_part
            && self
                .tok(next)
                .is_some_and(|n| part_numeral(n.text).is_some())
        {
            next += 1;
        }
        Some((Vec::new(), next))
    }

    /// "Part III", "Parts V and VI", "this Part or Part VIII".
    fn parts(&self, i: usize) -> Option<(Vec<Hit>, usize)> {
        if !(self.is_word_exact(i, "Part") || self.is_word_exact(i, "Parts")) {
            return None;
        }
        let first = part_numeral(self.tok(i + 1)?.text)?;
        let mut hits = vec![(XrefTarget::Part(first), None, self.span(i, i + 2))];
        let mut j = i + 2;
        loop {
            let mut k = j;
            let mut sep = false;
            if self.tok(k).is_some_and(|t| t.is_punct(',')) {
                k += 1;
                sep = true;
            }
            if self.is_word(k, "and") || self.is_word(k, "or") {
                k += 1;
                sep = true;
            }
            if !sep {
                break;
            }
            let item_start = k;
            if self.is_word_exact(k, "Part") {
                k += 1;
            }
            match self.tok(k).and_then(|t| part_numeral(t.text)) {
                Some(p) => {
                    hits.push((XrefTarget::Part(p), None, self.span(item_start, k + 1)));
                    j = k + 1;
                }
                None => break,
            }
        }
        // A running head "(Part III.—Fundamental Rights)" left in the text.
        let running_head = i > 0
            && self.toks[i - 1].is_punct('(')
            && self.tok(j).is_some_and(|t| t.is_punct('.'))
            && self
                .tok(j + 1)
                .is_some_and(|t| t.is_punct('\u{2014}') || t.is_punct('-'));
        if running_head || self.names_part_of_schedule_or_table(j) {
            return Some((Vec::new(), j));
        }
        Some((hits, j))
    }

    /// Whether the words after a Part list show it is a part of a Schedule or
    /// of a table: "Part A of the First Schedule", "Parts I, II and IIA and in
    /// Part III of the table below".
    fn names_part_of_schedule_or_table(&self, j: usize) -> bool {
        let starts_with_of = self.is_word(j, "of") || self.is_word(j, "in");
        for (n, t) in self.toks.iter().skip(j).take(10).enumerate() {
            if [';', ':', '.'].iter().any(|c| t.is_punct(*c)) {
                return false;
            }
            if t.is_word("table") {
                return true;
            }
            if starts_with_of && n <= 4 && (t.is_word("schedule") || t.is_word("sch")) {
                return true;
            }
        }
        false
    }

    /// "List I", "List II in the Seventh Schedule", "List III of the Seventh
    /// Schedule", "the Union List"; all are the Seventh Schedule.
    fn list(&self, i: usize) -> Option<(Vec<Hit>, usize)> {
        let mut next = if self.is_word_exact(i, "List") {
            let n = self.tok(i + 1)?;
            if !matches!(n.text, "I" | "II" | "III") {
                return None;
            }
            i + 2
        } else if ["Union", "State", "Concurrent"]
            .iter()
            .any(|w| self.is_word_exact(i, w))
            && self.is_word_exact(i + 1, "List")
        {
            i + 2
        } else {
            return None;
        };
        // "in the Seventh Schedule" / "of the Seventh Schedule" belongs to it.
        if (self.is_word(next, "in") || self.is_word(next, "of"))
            && self.is_word(next + 1, "the")
            && self.is_word(next + 2, "seventh")
            && self.is_word(next + 3, "schedule")
        {
            next += 4;
        }
        let id = RefId::schedule(7);
        Some((
            vec![(XrefTarget::Provision(id), None, self.span(i, next))],
            next,
        ))
    }

    /// "entry 92A of List I", "entries 87 and 92 of List I".
    fn entries(&self, i: usize) -> Option<(Vec<Hit>, usize)> {
        if !(self.is_word(i, "entry") || self.is_word(i, "entries")) {
            return None;
        }
        let mut k = i + 1;
        let mut items = 0;
        loop {
            if self.tok(k)?.kind != TokKind::Num {
                break;
            }
            k += 1;
            if self
                .tok(k)
                .is_some_and(|t| t.kind == TokKind::Word && !t.gap)
            {
                k += 1;
            }
            items += 1;
            let sep = [",", "and", "or", "to"]
                .iter()
                .find(|s| self.tok(k).is_some_and(|t| t.text.eq_ignore_ascii_case(s)));
            if sep.is_some() && self.tok(k + 1).is_some_and(|t| t.kind == TokKind::Num) {
                k += 1;
            } else {
                break;
            }
        }
        if items == 0 || !self.is_word(k, "of") {
            return None;
        }
        let mut list_at = k + 1;
        if self.is_word(list_at, "the") {
            list_at += 1;
        }
        let (mut hits, next) = self.list(list_at)?;
        if let Some(hit) = hits.first_mut() {
            hit.2 = self.span(i, next);
        }
        Some((hits, next))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prov(s: &str) -> XrefTarget {
        XrefTarget::Provision(s.parse().unwrap())
    }

    fn part(s: &str) -> XrefTarget {
        XrefTarget::Part(s.to_string())
    }

    /// (target, clause) pairs, the usual thing a test wants to compare.
    fn targets(text: &str, this_part: Option<&str>) -> Vec<(XrefTarget, Option<String>)> {
        find_cross_refs(text, this_part)
            .into_iter()
            .map(|c| (c.target, c.clause))
            .collect()
    }

    fn p(s: &str) -> (XrefTarget, Option<String>) {
        (prov(s), None)
    }

    fn pc(s: &str, c: &str) -> (XrefTarget, Option<String>) {
        (prov(s), Some(c.to_string()))
    }

    fn pt(s: &str) -> (XrefTarget, Option<String>) {
        (part(s), None)
    }

    // Article 13 (PDF p. 37), text as printed.
    const ART_13: &str = "13. Laws inconsistent with or in derogation of the fundamental \
rights.\u{2014}(1) All laws in force in the territory of India immediately before the \
commencement of this Constitution, in so far as they are inconsistent with the \
provisions of this Part, shall, to the extent of such inconsistency, be void.
        (2) The State shall not make any law which takes away or abridges the
rights conferred by this Part and any law made in contravention of this clause
shall, to the extent of the contravention, be void.
        (3) In this article, unless the context otherwise requires,\u{2014}
        (4) Nothing in this article shall apply to any amendment of this
Constitution made under article 368.";

    #[test]
    fn article_13_refers_to_its_part_and_article_368() {
        assert_eq!(targets(ART_13, Some("III")), [pt("III"), p("368")]);
        // Without a Part, "this Part" cannot be resolved and is skipped.
        assert_eq!(targets(ART_13, None), [p("368")]);
        let refs = find_cross_refs(ART_13, Some("Part III"));
        assert_eq!(refs[0].surface, "this Part");
        assert_eq!(refs[1].surface, "article 368");
        assert_eq!(&ART_13[refs[1].span.clone()], "article 368");
    }

    // Article 31A(1) (PDF pp. 47-48), once with its amendment markers left in.
    const ART_31A: &str = "(1) Notwithstanding anything contained in article 13, no law \
providing for\u{2014} (a) the acquisition by the State of any estate ... shall be deemed to be \
void on the ground that it is inconsistent with, or takes away or abridges any of the rights \
conferred by article 14 or article 19: Provided that where such law is a law made by the \
Legislature of a State, the provisions of this article shall not apply thereto unless such \
law, having been reserved for the consideration of the President, has received his assent:";

    #[test]
    fn article_31a() {
        assert_eq!(targets(ART_31A, Some("III")), [p("13"), p("14"), p("19")]);
        let marked = "abridges any of the rights conferred by 1[article 14 or article 19]:";
        assert_eq!(targets(marked, None), [p("14"), p("19")]);
        // "articles 1[except the goods and services tax": a marker, not Article 1.
        let marked =
            "referred to in articles 1[except the goods and services tax under article 246A,]";
        assert_eq!(targets(marked, None), [p("246A")]);
    }

    // Article 32 (PDF p. 50).
    const ART_32: &str = "32. Remedies for enforcement of rights conferred by this Part.\u{2014}(1)
The right to move the Supreme Court by appropriate proceedings for the
enforcement of the rights conferred by this Part is guaranteed.
       (2) The Supreme Court shall have power to issue directions or orders or
writs, including writs in the nature of habeas corpus, mandamus, prohibition,
quo warranto and certiorari, whichever may be appropriate, for the
enforcement of any of the rights conferred by this Part.
      (3) Without prejudice to the powers conferred on the Supreme Court by
clauses (1) and (2), Parliament may by law empower any other court to exercise
within the local limits of its jurisdiction all or any of the powers exercisable by
the Supreme Court under clause (2).
      (4) The right guaranteed by this article shall not be suspended except as
otherwise provided for by this Constitution.";

    #[test]
    fn article_32_only_refers_to_its_part() {
        // "clauses (1) and (2)" and "clause (2)" are its own clauses: skipped.
        assert_eq!(targets(ART_32, Some("III")), [pt("III")]);
        assert!(targets(ART_32, None).is_empty());
    }

    // Article 246 (PDF p. 188) and the opening of 246A.
    const ART_246: &str = "(1) Notwithstanding anything in clauses (2) and (3),
Parliament has exclusive power to make laws with respect to any of the matters
enumerated in List I in the Seventh Schedule (in this Constitution referred to as
the \u{201c}Union List\u{201d}).
       (2) Notwithstanding anything in clause (3), Parliament, and, subject to
clause (1), the Legislature of any State also, have power to make laws
with respect to any of the matters enumerated in List III in the Seventh
Schedule (in this Constitution referred to as the \u{201c}Concurrent List\u{201d}).
       (3) Subject to clauses (1) and (2), the Legislature of any State has
exclusive power to make laws for such State or any part thereof with respect to
any of the matters enumerated in List II in the Seventh Schedule (in this
Constitution referred to as the \u{201c}State List\u{201d}).";

    #[test]
    fn article_246_lists_are_the_seventh_schedule() {
        let refs = find_cross_refs(ART_246, Some("XI"));
        assert_eq!(refs.len(), 1, "{refs:?}");
        assert_eq!(refs[0].target, prov("SCH-7"));
        assert_eq!(refs[0].surface, "List I in the Seventh Schedule");
    }

    #[test]
    fn article_246a_lists_and_chains() {
        let text = "(1) Notwithstanding anything contained in articles 246 and 254, Parliament, \
and, subject to clause (2), the Legislature of every State, have power to make laws with \
respect to goods and services tax imposed by the Union or by such State. ... \
Explanation.\u{2014}The provisions of this article, shall, in respect of goods and services \
tax referred to in clause (5) of article 279A, take effect from the date recommended by the \
Goods and Services Tax Council.";
        assert_eq!(
            targets(text, Some("XI")),
            [p("246"), p("254"), pc("279A", "(5)")]
        );
        let refs = find_cross_refs(text, Some("XI"));
        assert_eq!(refs[0].surface, "articles 246");
        assert_eq!(refs[1].surface, "254");
        assert_eq!(refs[2].surface, "clause (5) of article 279A");
    }

    // Article 368(2) proviso and (3)-(4) (PDF pp. 259-260).
    const ART_368: &str = "Provided that if such amendment seeks to make any change in\u{2014}
           (a) article 54, article 55, article 73, article 162, article 241 or
       article 279A; or
             (b) Chapter IV of Part V, Chapter V of Part VI, or Chapter I of Part XI; or
             (c) any of the Lists in the Seventh Schedule; or
             (d) the representation of States in Parliament; or
             (e) the provisions of this article,
the amendment shall also require to be ratified by the Legislatures of not less
than one-half of the States by resolutions to that effect passed by those
Legislatures before the Bill making provision for such amendment is presented
to the President for assent.
            (3) Nothing in article 13 shall apply to any amendment made under this
article.
            (4) No amendment of this Constitution (including the provisions of
Part III) made or purporting to have been made under this article [whether before
or after the commencement of section 55 of the Constitution (Forty-second
Amendment) Act, 1976] shall be called in question in any court on any ground.";

    #[test]
    fn article_368() {
        assert_eq!(
            targets(ART_368, Some("XX")),
            [
                p("54"),
                p("55"),
                p("73"),
                p("162"),
                p("241"),
                p("279A"),
                pt("V"),
                pt("VI"),
                pt("XI"),
                p("SCH-7"),
                p("13"),
                pt("III"),
            ]
        );
    }

    #[test]
    fn clause_chains_from_articles_15_and_30() {
        // Article 15(5) and 15(6) (PDF pp. 38-39).
        let text = "(5) Nothing in this article or in sub-clause (g) of clause (1) of article 19 \
shall prevent the State from making any special provision ... other than the minority \
educational institutions referred to in clause (1) of article 30. (6) Nothing in this article \
or sub-clause (g) of clause (1) of article 19 or clause (2) of article 29 shall prevent";
        assert_eq!(
            targets(text, Some("III")),
            [pc("19", "(1)(g)"), pc("30", "(1)"), pc("29", "(2)")]
        );
        let refs = find_cross_refs(text, None);
        assert_eq!(
            refs[0].surface,
            "sub-clause (g) of clause (1) of article 19"
        );
    }

    #[test]
    fn clause_chain_variants() {
        assert_eq!(targets("article 19(1)(g)", None), [pc("19", "(1)(g)")]);
        assert_eq!(
            targets("sub-clause (c) of clause (1) of article 134", None),
            [pc("134", "(1)(c)")]
        );
        // Several designators at one level: the chain is cut above it.
        assert_eq!(
            targets("clauses (1) and (2) of article 316 but", None),
            [p("316")]
        );
        assert_eq!(
            targets("sub-clauses (a) to (f) of clause (1) of article 199", None),
            [pc("199", "(1)")]
        );
        assert_eq!(
            targets("clause (2), of article 244", None),
            [pc("244", "(2)")]
        );
        // Chains into "this article" or with no Article are skipped.
        assert!(targets(
            "paragraph (i) of sub-clause (e) of clause (2) thereof",
            None
        )
        .is_empty());
        assert!(targets("clause (3) of this article", None).is_empty());
        assert!(targets("subject to clause (3)", None).is_empty());
    }

    #[test]
    fn lists_and_ranges_of_articles() {
        assert_eq!(
            targets("articles 112, 113 and 114 shall have effect", None),
            [p("112"), p("113"), p("114")]
        );
        assert_eq!(
            targets("articles 239AA, 330A and 332A, seats reserved", None),
            [p("239AA"), p("330A"), p("332A")]
        );
        assert_eq!(
            targets("articles 324 to 327 and 329 shall apply", None),
            [p("324"), p("325"), p("326"), p("327"), p("329")]
        );
        assert_eq!(
            targets("articles 243ZA and 243ZB", None),
            [p("243ZA"), p("243ZB")]
        );
        assert_eq!(targets("under article 243ZA shall not", None), [p("243ZA")]);
        assert_eq!(targets("article 243-I", None), [p("243I")]);
        assert_eq!(targets("article 371-I", None), [p("371I")]);
        assert_eq!(
            targets("articles 2 and 3 to provide", None),
            [p("2"), p("3")]
        );
        // Twelve members: expanded, but only plain numbers (269A is not known here).
        assert_eq!(targets("articles 268 to 279 shall", None).len(), 12);
        assert_eq!(
            targets("the first proviso to article 200 and", None),
            [p("200")]
        );
        // Footnote abbreviations.
        assert_eq!(
            targets("for \u{201c}arts. 268, 268A and 269\u{201d}", None),
            [p("268"), p("268A"), p("269")]
        );
    }

    #[test]
    fn identical_targets_are_reported_once_at_first_occurrence() {
        let text = "article 14, article 19 or article 14 and again article 19(1)(g) and article 19";
        let refs = find_cross_refs(text, None);
        let got: Vec<_> = refs
            .iter()
            .map(|c| (c.target.clone(), c.clause.clone()))
            .collect();
        assert_eq!(got, [p("14"), p("19"), pc("19", "(1)(g)")]);
        assert_eq!(refs[0].span, 0..10);
    }

    #[test]
    fn schedules_and_appendices() {
        assert_eq!(
            targets(
                "subject to the provisions of paragraph 2 of the Tenth Schedule",
                None
            ),
            [p("SCH-10")]
        );
        assert_eq!(
            targets("the First and Fourth Schedules", None),
            [p("SCH-1"), p("SCH-4")]
        );
        assert_eq!(
            targets("For the text of this C.O., see Appendix II.", None),
            [p("APP-II")]
        );
        // The Schedule of an Act is not a Schedule of the Constitution; a bare
        // "the Schedule" is ambiguous.
        assert!(targets(
            "by the Sixth Schedule to the Constitution (Amendment) Act, 2003",
            None
        )
        .is_empty());
        assert!(targets("specified in that Schedule or in the Schedule", None).is_empty());
        // A Schedule's own heading (PDF p. 376) is not a reference; the
        // articles it is made under are.
        assert_eq!(
            targets("TENTH SCHEDULE [Articles 102(2) and 191(2)] Provisions as to disqualification on ground of defection", None),
            [pc("102", "(2)"), pc("191", "(2)")]
        );
    }

    #[test]
    fn lists_and_entries() {
        // Eleventh Schedule and Seventh Schedule List II items (PDF pp. 318-380).
        let refs = find_cross_refs(
            "water storage and water power subject to the provisions of entry 56 of List I.",
            None,
        );
        assert_eq!(refs.len(), 1);
        assert_eq!(refs[0].target, prov("SCH-7"));
        assert_eq!(refs[0].surface, "entry 56 of List I");
        let refs = find_cross_refs(
            "lotteries (subject to the provisions of entry 40 of List I of the Seventh Schedule)",
            None,
        );
        assert_eq!(
            refs[0].surface,
            "entry 40 of List I of the Seventh Schedule"
        );
        assert_eq!(targets("entry 92A of List I", None), [p("SCH-7")]);
        assert_eq!(
            targets("matter enumerated in the State List", None),
            [p("SCH-7")]
        );
        assert!(targets("a list of names", None).is_empty());
    }

    #[test]
    fn parts() {
        assert_eq!(
            targets(
                "Notwithstanding any provision of this Part or Part VIII",
                Some("IX")
            ),
            [pt("IX"), pt("VIII")]
        );
        assert_eq!(
            targets("Part IXA and Part XIVA", None),
            [pt("IXA"), pt("XIVA")]
        );
        assert_eq!(targets("Parts V and VI", None), [pt("V"), pt("VI")]);
        // Parts of the First Schedule, of a table, old state classes, headings:
        // no Part, though the Schedule itself is a reference.
        assert_eq!(
            targets("a State specified in Part B of the First Schedule", None),
            [p("SCH-1")]
        );
        assert_eq!(
            targets(
                "the territories referred to in Part III of the First Schedule",
                None
            ),
            [p("SCH-1")]
        );
        assert!(targets(
            "in each item of Parts I, II and IIA and in Part III of the table below",
            None
        )
        .is_empty());
        assert_eq!(
            targets("States in Part C of the First Schedule", None),
            [p("SCH-1")]
        );
        assert!(targets("PART III FUNDAMENTAL RIGHTS", None).is_empty());
        assert!(targets("(Part III.\u{2014}Fundamental Rights)", None).is_empty());
        assert!(targets("the said Part III shall be deemed", None).is_empty());
        // "this Part" with a caller-supplied Part in any spelling.
        assert_eq!(targets("this Part", Some("part ixa")), [pt("IXA")]);
        assert_eq!(targets("this Part", Some("nonsense")), []);
        assert!(targets("this Chapter and this Part", None).is_empty());
    }

    #[test]
    fn prose_is_not_a_reference() {
        assert!(targets(
            "the President shall, within fourteen days, by order, for a period of 18 months in 1950",
            None
        )
        .is_empty());
        assert!(targets(
            "section 55 of the Constitution (Forty-second Amendment) Act, 1976",
            None
        )
        .is_empty());
        assert!(targets("the said article and that article", None).is_empty());
        // Legal text never writes "A32" or "article fourteen".
        assert!(targets("A32 and article fourteen", None).is_empty());
    }

    #[test]
    fn part_numerals() {
        assert_eq!(part_numeral("III").as_deref(), Some("III"));
        assert_eq!(part_numeral("IVA").as_deref(), Some("IVA"));
        assert_eq!(part_numeral("XIVA").as_deref(), Some("XIVA"));
        assert_eq!(part_numeral("IXB").as_deref(), Some("IXB"));
        assert_eq!(part_numeral("XXII").as_deref(), Some("XXII"));
        assert_eq!(part_numeral("C"), None);
        assert_eq!(part_numeral("A"), None);
        assert_eq!(part_numeral("IIII"), None);
        assert_eq!(part_numeral("iii"), None);
        assert_eq!(normalise_part(" Part  iii ").as_deref(), Some("III"));
    }

    #[test]
    fn serde_shape() {
        let c = &find_cross_refs("clause (2) of article 32", None)[0];
        let json = serde_json::to_value(c).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "target": {"provision": "32"},
                "clause": "(2)",
                "span": {"start": 0, "end": 24},
                "surface": "clause (2) of article 32"
            })
        );
        let back: CrossRef = serde_json::from_value(json).unwrap();
        assert_eq!(&back, c);
        assert_eq!(
            serde_json::to_value(part("III")).unwrap(),
            serde_json::json!({"part": "III"})
        );
    }
}
