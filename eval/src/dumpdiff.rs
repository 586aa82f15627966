//! Two runs of one set compared case by case, from the files `nyaya eval --dump` writes: which
//! answers' leads turned right or wrong, which refusals changed, and the same for retrieval's
//! own first provision (unpinned). An ADR's "15 changed: 14 led right, 1 wrong" is read from
//! here (`nyaya eval-diff BEFORE AFTER`), not from a script outside the repository.
//!
//! "Right" is what the scorecard counts: a first citation (or first unpinned result) among the
//! case's expected refs; a refusal is right for a must-refuse case and wrong otherwise.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::golden::{Category, Split};

/// One line of a dump: a case, how search ranked it (pinned and unpinned) and what the answer
/// cited and quoted. `nyaya eval --dump` writes it ([`DumpCase::to_line`]), the comparison
/// reads it; every field but `id` and `question` may be missing from a hand-made line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DumpCase {
    pub id: String,
    #[serde(default)]
    pub split: Option<Split>,
    #[serde(default)]
    pub category: Option<Category>,
    pub question: String,
    #[serde(default)]
    pub expected: Vec<String>,
    #[serde(default)]
    pub acceptable: Vec<String>,
    #[serde(default)]
    pub must_refuse: bool,
    #[serde(default)]
    pub pinned: Option<DumpRun>,
    #[serde(default)]
    pub unpinned: Option<DumpRun>,
    #[serde(default)]
    pub answer: Option<DumpAnswer>,
}

impl DumpCase {
    /// Its line of a dump (no newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a dump line serialises")
    }
}

/// A search run's part of a dump line: its first ten refs and its coverage figures.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct DumpRun {
    #[serde(default)]
    pub ranking: Vec<String>,
    #[serde(default)]
    pub refused: bool,
    #[serde(default)]
    pub confidence: Option<f64>,
    #[serde(default)]
    pub bank_margin: Option<f64>,
}

/// The answer's part of a dump line.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct DumpAnswer {
    #[serde(default)]
    pub route: String,
    #[serde(default)]
    pub refused: bool,
    #[serde(default)]
    pub cited: Vec<String>,
    /// The quotes, as shown.
    #[serde(default)]
    pub quotes: Vec<String>,
    /// The first ten provisions retrieval returned for the answer.
    #[serde(default)]
    pub retrieved: Vec<String>,
    /// The main search's results and their scores, best first.
    #[serde(default)]
    pub scores: Vec<(String, f64)>,
    /// Whether a quote holds the case's evidence phrase ([`crate::evidence_quoted`]); `None`
    /// when the case has none.
    #[serde(default)]
    pub evidence_quoted: Option<bool>,
}

#[derive(Debug, thiserror::Error)]
#[error("dump line {line}: {source}")]
pub struct DumpError {
    pub line: usize,
    pub source: serde_json::Error,
}

/// The cases of a dump, in file order (blank lines skipped).
pub fn parse(text: &str) -> Result<Vec<DumpCase>, DumpError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|source| DumpError {
                line: i + 1,
                source,
            })
        })
        .collect()
}

/// How one case's outcome moved between the runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    /// Led by an expected ref now, not before (or refused now, rightly).
    Won,
    /// Led by an expected ref before, not now (or answered now a case it refused rightly).
    Lost,
    /// Wrong both times, led by another provision.
    Moved,
    /// Right both times; only what follows the lead changed (the answer's other citations).
    Reordered,
}

impl Change {
    /// Its name in the JSON and the listing.
    pub fn name(self) -> &'static str {
        match self {
            Change::Won => "won",
            Change::Lost => "lost",
            Change::Moved => "moved",
            Change::Reordered => "reordered",
        }
    }
}

/// One case whose outcome differs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseChange {
    pub id: String,
    pub question: String,
    pub expected: Vec<String>,
    /// What the run showed: the cited refs, retrieval's first, or `["refused"]`.
    pub before: Vec<String>,
    pub after: Vec<String>,
    pub change: Change,
}

/// What changed for one side of the runs (the answers, or retrieval unpinned).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SideDiff {
    /// Cases present in both runs and read on this side.
    pub compared: usize,
    /// Per kind of change, how many cases.
    pub counts: BTreeMap<Change, usize>,
    pub changes: Vec<CaseChange>,
}

/// Both sides, the evidence phrases, and the cases only one run holds.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct DumpDiff {
    pub answers: SideDiff,
    pub retrieval: SideDiff,
    /// Whether a quote holds the case's evidence phrase, over the cases that have one in
    /// both runs: won (quoted now, not before) and lost.
    pub evidence: SideDiff,
    /// The answers (in both runs) whose refusal, cited refs or quotes differ at all, by id:
    /// what a change to quoting alone moves, which the sides above do not show.
    pub shown_changed: Vec<String>,
    pub only_before: Vec<String>,
    pub only_after: Vec<String>,
}

/// What a run showed for a case, and whether it was right.
struct Shown {
    refs: Vec<String>,
    refused: bool,
}

impl Shown {
    fn right(&self, case: &DumpCase) -> bool {
        if case.must_refuse {
            return self.refused;
        }
        !self.refused && self.refs.first().is_some_and(|r| case.expected.contains(r))
    }

    fn shown(&self) -> Vec<String> {
        if self.refused {
            vec!["refused".to_string()]
        } else {
            self.refs.clone()
        }
    }
}

fn side(pairs: &[(&DumpCase, Shown, Shown)]) -> SideDiff {
    let mut out = SideDiff {
        compared: pairs.len(),
        ..SideDiff::default()
    };
    for (case, b, a) in pairs {
        if b.shown() == a.shown() {
            continue;
        }
        let change = match (b.right(case), a.right(case)) {
            (false, true) => Change::Won,
            (true, false) => Change::Lost,
            (false, false) => Change::Moved,
            (true, true) => Change::Reordered,
        };
        *out.counts.entry(change).or_default() += 1;
        out.changes.push(CaseChange {
            id: case.id.clone(),
            question: case.question.clone(),
            expected: case.expected.clone(),
            before: b.shown(),
            after: a.shown(),
            change,
        });
    }
    // By kind, then in the run's order (a stable sort).
    out.changes.sort_by_key(|c| c.change);
    out
}

/// Each answer's `evidence_quoted` read again from its quotes and `set`'s evidence phrases
/// (matched by id): for dumps written before the field was, or against another set's phrases.
pub fn read_evidence(cases: &mut [DumpCase], set: &[crate::GoldenCase]) {
    let by_id: BTreeMap<&str, &crate::GoldenCase> =
        set.iter().map(|c| (c.id.as_str(), c)).collect();
    for case in cases {
        if let (Some(answer), Some(golden)) = (case.answer.as_mut(), by_id.get(case.id.as_str())) {
            answer.evidence_quoted = crate::evidence_quoted(golden, &answer.quotes);
        }
    }
}

/// The evidence phrases that became quoted (won) or stopped being quoted (lost).
fn evidence_side(pairs: &[(&DumpCase, bool, bool)]) -> SideDiff {
    let mut out = SideDiff {
        compared: pairs.len(),
        ..SideDiff::default()
    };
    let said = |quoted: bool| vec![if quoted { "quoted" } else { "not quoted" }.to_string()];
    for &(case, was, is) in pairs.iter().filter(|(_, was, is)| was != is) {
        let change = if is { Change::Won } else { Change::Lost };
        *out.counts.entry(change).or_default() += 1;
        out.changes.push(CaseChange {
            id: case.id.clone(),
            question: case.question.clone(),
            expected: case.expected.clone(),
            before: said(was),
            after: said(is),
            change,
        });
    }
    out.changes.sort_by_key(|c| c.change);
    out
}

/// The two runs compared, case by case (matched by id).
pub fn compare(before: &[DumpCase], after: &[DumpCase]) -> DumpDiff {
    let after_by_id: BTreeMap<&str, &DumpCase> = after.iter().map(|c| (c.id.as_str(), c)).collect();
    let before_ids: std::collections::BTreeSet<&str> =
        before.iter().map(|c| c.id.as_str()).collect();
    let mut answers = Vec::new();
    let mut retrieval = Vec::new();
    let mut evidence = Vec::new();
    let mut shown_changed = Vec::new();
    let mut only_before = Vec::new();
    for b in before {
        let Some(a) = after_by_id.get(b.id.as_str()) else {
            only_before.push(b.id.clone());
            continue;
        };
        if let (Some(x), Some(y)) = (&b.answer, &a.answer) {
            let shown = |d: &DumpAnswer| Shown {
                refs: d.cited.clone(),
                refused: d.refused,
            };
            answers.push((b, shown(x), shown(y)));
            if (x.refused, &x.cited, &x.quotes) != (y.refused, &y.cited, &y.quotes) {
                shown_changed.push(b.id.clone());
            }
            if let (Some(was), Some(is)) = (x.evidence_quoted, y.evidence_quoted) {
                evidence.push((b, was, is));
            }
        }
        if let (Some(x), Some(y)) = (&b.unpinned, &a.unpinned) {
            // Retrieval's order below its first moves with any change: only the first counts.
            let shown = |d: &DumpRun| Shown {
                refs: d.ranking.iter().take(1).cloned().collect(),
                refused: d.refused,
            };
            retrieval.push((b, shown(x), shown(y)));
        }
    }
    let only_after = after
        .iter()
        .filter(|c| !before_ids.contains(c.id.as_str()))
        .map(|c| c.id.clone())
        .collect();
    DumpDiff {
        answers: side(&answers),
        retrieval: side(&retrieval),
        evidence: evidence_side(&evidence),
        shown_changed,
        only_before,
        only_after,
    }
}

impl fmt::Display for SideDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = |c: Change| self.counts.get(&c).copied().unwrap_or(0);
        writeln!(
            f,
            "{} compared, {} changed: {} won, {} lost, {} moved (wrong both times), {} reordered (right both times)",
            self.compared,
            self.changes.len(),
            count(Change::Won),
            count(Change::Lost),
            count(Change::Moved),
            count(Change::Reordered),
        )?;
        for c in &self.changes {
            let short: String = c.question.chars().take(90).collect();
            writeln!(
                f,
                "  {:<9} {:<8} {short}\n            expected {:?}: {:?} -> {:?}",
                c.change.name(),
                c.id,
                c.expected,
                c.before,
                c.after
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for DumpDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "answers (first citation): {}", self.answers)?;
        write!(f, "retrieval (unpinned first): {}", self.retrieval)?;
        if self.evidence.compared > 0 {
            write!(f, "evidence phrase quoted: {}", self.evidence)?;
        }
        writeln!(
            f,
            "answers whose citations or quotes changed: {}",
            self.shown_changed.len()
        )?;
        if !self.only_before.is_empty() || !self.only_after.is_empty() {
            writeln!(
                f,
                "cases in one run only: {} before, {} after",
                self.only_before.len(),
                self.only_after.len()
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_line_reads_back_whole() {
        let case = DumpCase {
            id: "GS-001".into(),
            split: Some(Split::Dev),
            category: Some(Category::ArticleLookup),
            question: "What does Article 21 say?".into(),
            expected: vec!["21".into()],
            acceptable: vec![],
            must_refuse: false,
            pinned: Some(DumpRun {
                ranking: vec!["21".into(), "22".into()],
                refused: false,
                confidence: Some(0.61),
                bank_margin: None,
            }),
            unpinned: None,
            answer: Some(DumpAnswer {
                route: "article_lookup".into(),
                cited: vec!["21".into()],
                quotes: vec!["No person shall be deprived of his life".into()],
                scores: vec![("21".into(), 5.5)],
                evidence_quoted: Some(true),
                ..Default::default()
            }),
        };
        let line = case.to_line();
        assert!(line.contains(r#""split":"dev""#), "{line}");
        assert_eq!(parse(&line).unwrap(), vec![case]);
    }

    fn line(
        id: &str,
        expected: &[&str],
        must_refuse: bool,
        cited: &[&str],
        refused: bool,
    ) -> String {
        serde_json::json!({
            "id": id, "question": format!("question {id}"), "expected": expected,
            "acceptable": [], "must_refuse": must_refuse,
            "unpinned": {"ranking": cited, "refused": refused, "confidence": 0.5},
            "answer": {"cited": cited, "refused": refused, "route": "simple"},
        })
        .to_string()
    }

    #[test]
    fn compare_counts_evidence_phrases_quoted_and_no_longer_quoted() {
        let with = |id: &str, quoted: Option<bool>| {
            let mut c = parse(&line(id, &["21"], false, &["21"], false)).unwrap();
            c[0].answer.as_mut().unwrap().evidence_quoted = quoted;
            c.remove(0)
        };
        let before = [
            with("W", Some(false)),
            with("L", Some(true)),
            with("S", Some(true)),
            with("N", None),
        ];
        let after = [
            with("W", Some(true)),
            with("L", Some(false)),
            with("S", Some(true)),
            with("N", None),
        ];
        let d = compare(&before, &after);
        assert_eq!(d.evidence.compared, 3);
        assert_eq!(
            (
                d.evidence.counts[&Change::Won],
                d.evidence.counts[&Change::Lost]
            ),
            (1, 1)
        );
        assert_eq!(d.evidence.changes[0].after, vec!["quoted"]);
        assert!(d
            .to_string()
            .contains("evidence phrase quoted: 3 compared, 2 changed: 1 won, 1 lost"));
        // The same cited refs with other quotes count as shown differently.
        assert!(d.shown_changed.is_empty(), "{:?}", d.shown_changed);
        let mut requoted = after.clone();
        requoted[2].answer.as_mut().unwrap().quotes = vec!["another clause".into()];
        let d = compare(&before, &requoted);
        assert_eq!(d.shown_changed, vec!["S".to_string()]);
        assert!(d
            .to_string()
            .contains("answers whose citations or quotes changed: 1"));
        // Lines without the field (hand-made, or older dumps) compare no evidence.
        let old = [with("W", None)];
        assert!(!compare(&old, &old).to_string().contains("evidence"));
    }

    #[test]
    fn parse_reads_dump_lines_and_names_a_bad_one() {
        let text = format!("{}\n\n{}\n", line("A", &["21"], false, &["21"], false), "{");
        let err = parse(&text).unwrap_err();
        assert_eq!(err.line, 3);
        let ok = parse(&line("A", &["21"], false, &["21", "14"], false)).unwrap();
        assert_eq!(ok[0].answer.as_ref().unwrap().cited, vec!["21", "14"]);
    }

    #[test]
    fn compare_counts_leads_won_lost_moved_and_reordered() {
        let before = parse(
            &[
                line("W", &["75"], false, &["78"], false),
                line("L", &["56"], false, &["56"], false),
                line("M", &["6"], false, &["7"], false),
                line("R", &["81"], false, &["81", "80"], false),
                line("S", &["21"], false, &["21"], false),
                line("Z", &[], true, &["279A"], false),
                line("gone", &["1"], false, &["1"], false),
            ]
            .join("\n"),
        )
        .unwrap();
        let after = parse(
            &[
                line("W", &["75"], false, &["75"], false),
                line("L", &["56"], false, &["62"], false),
                line("M", &["6"], false, &["5"], false),
                line("R", &["81"], false, &["81"], false),
                line("S", &["21"], false, &["21"], false),
                line("Z", &[], true, &[], true),
                line("new", &["2"], false, &["2"], false),
            ]
            .join("\n"),
        )
        .unwrap();
        let d = compare(&before, &after);
        assert_eq!(d.answers.compared, 6);
        let kinds: Vec<(&str, Change)> = d
            .answers
            .changes
            .iter()
            .map(|c| (c.id.as_str(), c.change))
            .collect();
        assert_eq!(
            kinds,
            vec![
                ("W", Change::Won),
                ("Z", Change::Won),
                ("L", Change::Lost),
                ("M", Change::Moved),
                ("R", Change::Reordered),
            ]
        );
        assert_eq!(d.answers.counts[&Change::Won], 2);
        let json = serde_json::to_value(&d).unwrap();
        assert_eq!(json["answers"]["counts"]["won"], 2, "{json}");
        assert_eq!(d.answers.changes[1].after, vec!["refused"]);
        // Retrieval reads only its first: "R" kept 81 first, so it did not change there.
        assert!(d.retrieval.changes.iter().all(|c| c.id != "R"));
        assert_eq!(d.only_before, vec!["gone"]);
        assert_eq!(d.only_after, vec!["new"]);
        let text = d.to_string();
        assert!(
            text.contains("6 compared, 5 changed: 2 won, 1 lost, 1 moved"),
            "{text}"
        );
    }

    #[test]
    fn a_false_refusal_is_a_loss() {
        let before = parse(&line("F", &["21"], false, &["21"], false)).unwrap();
        let after = parse(&line("F", &["21"], false, &[], true)).unwrap();
        let d = compare(&before, &after);
        assert_eq!(d.answers.changes[0].change, Change::Lost);
        assert_eq!(d.retrieval.changes[0].change, Change::Lost);
    }
}
