//! The paraphrase suite: golden questions reworded three ways, and whether the system gives
//! every wording the same, right, first provision.
//!
//! # The file format (`eval/golden/paraphrases.jsonl`)
//!
//! ```text
//! {"case": "GS-012", "rewordings": ["…", "…", "…"], "kinds": ["voice", "register", "hinglish"]}
//! ```
//!
//! A group belongs to an answerable golden case and takes its split and expected refs from it,
//! so a rewording can never leak from test into dev. Exactly three rewordings, each different
//! from the question and from each other (case and spacing aside), of three kinds: a change of
//! voice or structure (`voice`), of register (`register`: everyday ↔ the text's own words), and
//! a misspelling (`typo`) or a Hindi-English term (`hinglish`). An optional
//! `"romanised_hindi"` is the question written wholly in romanised Hindi; it is not one of the
//! three (it tests another language, not a rewording) and is scored on its own.
//!
//! # The metric
//!
//! **paraphrase consistency**: the share of groups whose four wordings (the question and its
//! three rewordings) all get the same first provision, *and* that provision is an expected
//! ref. A refusal or an empty answer has no first provision, so it breaks its group. The
//! caller decides what "first" means (the unpinned ranking's top, or the answer's first
//! citation) and hands the firsts over by question text.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::golden::{GoldenCase, GoldenError, GoldenSet, Split};

/// Rewordings per group.
pub const REWORDINGS: usize = 3;

/// How a rewording differs from the question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RewordingKind {
    /// Active ↔ passive, question ↔ statement, reordered.
    Voice,
    /// Everyday words ↔ the Constitution's own.
    Register,
    /// A misspelling.
    Typo,
    /// A Hindi-English term.
    Hinglish,
}

impl RewordingKind {
    fn parse(s: &str) -> Option<RewordingKind> {
        Some(match s {
            "voice" => RewordingKind::Voice,
            "register" => RewordingKind::Register,
            "typo" => RewordingKind::Typo,
            "hinglish" => RewordingKind::Hinglish,
            _ => return None,
        })
    }
}

/// One golden question and its rewordings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Paraphrase {
    /// The golden case's id.
    pub case: String,
    pub split: Split,
    pub question: String,
    pub rewordings: Vec<String>,
    pub kinds: Vec<RewordingKind>,
    /// The question in romanised Hindi ("Kya kendra sarkar …"), when written.
    pub romanised_hindi: Option<String>,
    /// 1-based line in its file.
    pub line: usize,
}

impl Paraphrase {
    /// The question, then its rewordings.
    pub fn wordings(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.question.as_str()).chain(self.rewordings.iter().map(String::as_str))
    }
}

/// A validated paraphrase suite, in file order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ParaphraseSet {
    groups: Vec<Paraphrase>,
}

/// The suite shipped beside the golden set.
pub fn default_paraphrases_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/paraphrases.jsonl")
}

fn squash(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

impl ParaphraseSet {
    pub fn load(path: impl AsRef<Path>, golden: &GoldenSet) -> Result<ParaphraseSet, GoldenError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| GoldenError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        ParaphraseSet::parse(&text, golden)
    }

    /// Validates JSONL text against the golden set its groups belong to.
    pub fn parse(text: &str, golden: &GoldenSet) -> Result<ParaphraseSet, GoldenError> {
        let mut groups = Vec::new();
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            if raw.trim().is_empty() {
                continue;
            }
            let group = parse_group(raw, line, golden)?;
            if let Some(&first_line) = seen.get(&group.case) {
                return Err(GoldenError::DuplicateId {
                    line,
                    id: group.case,
                    first_line,
                });
            }
            seen.insert(group.case.clone(), line);
            groups.push(group);
        }
        if groups.is_empty() {
            return Err(GoldenError::Empty);
        }
        Ok(ParaphraseSet { groups })
    }

    pub fn groups(&self) -> &[Paraphrase] {
        &self.groups
    }

    /// The groups of these cases (a split's, say), in file order.
    pub fn for_cases<'a>(&'a self, cases: &[GoldenCase]) -> Vec<&'a Paraphrase> {
        let ids: HashSet<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        self.groups
            .iter()
            .filter(|g| ids.contains(g.case.as_str()))
            .collect()
    }
}

/// One line of the suite, read field by field into errors that name the line and the field.
struct GroupLine<'a> {
    /// Not necessarily an object: a field of anything else reads as missing.
    value: &'a Value,
    line: usize,
}

impl GroupLine<'_> {
    fn invalid(&self, field: &'static str, reason: String) -> GoldenError {
        GoldenError::Invalid {
            line: self.line,
            field,
            reason,
        }
    }

    /// A required list of non-blank strings.
    fn strings(&self, field: &'static str) -> Result<Vec<String>, GoldenError> {
        match self.value.get(field) {
            None | Some(Value::Null) => Err(GoldenError::MissingField {
                line: self.line,
                field,
            }),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| match v {
                    Value::String(s) if !s.trim().is_empty() => Ok(s.clone()),
                    _ => Err(self.invalid(field, "every item is a non-empty string".into())),
                })
                .collect(),
            Some(_) => Err(GoldenError::WrongType {
                line: self.line,
                field,
                expected: "a list of strings",
            }),
        }
    }

    /// `case`: the golden case the group rewords, which must be answerable and expect a
    /// provision (consistency is about the first provision).
    fn case<'g>(&self, golden: &'g GoldenSet) -> Result<&'g GoldenCase, GoldenError> {
        let case_id = match self.value.get("case") {
            Some(Value::String(s)) => s.trim().to_string(),
            None | Some(Value::Null) => {
                return Err(GoldenError::MissingField {
                    line: self.line,
                    field: "case",
                })
            }
            Some(_) => {
                return Err(GoldenError::WrongType {
                    line: self.line,
                    field: "case",
                    expected: "a golden case id",
                })
            }
        };
        let case = golden
            .get(&case_id)
            .ok_or_else(|| self.invalid("case", format!("{case_id:?} is not in the golden set")))?;
        if case.must_refuse || case.expected_refs.is_empty() {
            return Err(self.invalid(
                "case",
                format!("{case_id} expects no provision: nothing to be consistent about"),
            ));
        }
        Ok(case)
    }

    /// `rewordings`: exactly [`REWORDINGS`] of them, none repeating `question` or another.
    fn rewordings(&self, question: &str) -> Result<Vec<String>, GoldenError> {
        let rewordings = self.strings("rewordings")?;
        if rewordings.len() != REWORDINGS {
            return Err(self.invalid(
                "rewordings",
                format!("{} rewordings, not {REWORDINGS}", rewordings.len()),
            ));
        }
        if let Some(r) = first_repeat(question, &rewordings) {
            return Err(self.invalid(
                "rewordings",
                format!("{r:?} repeats the question or another rewording"),
            ));
        }
        Ok(rewordings)
    }

    /// `kinds`: known kinds, one each of voice, register, and typo or hinglish.
    fn kinds(&self) -> Result<Vec<RewordingKind>, GoldenError> {
        let kinds = self
            .strings("kinds")?
            .iter()
            .map(|k| {
                RewordingKind::parse(k).ok_or_else(|| {
                    self.invalid(
                        "kinds",
                        format!("{k:?} is not one of voice, register, typo, hinglish"),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        if !covers_the_three_kinds(&kinds) {
            return Err(self.invalid(
                "kinds",
                "one each of voice, register, and typo or hinglish".into(),
            ));
        }
        Ok(kinds)
    }

    /// `romanised_hindi`: optional, but not blank when present.
    fn romanised_hindi(&self) -> Result<Option<String>, GoldenError> {
        match self.value.get("romanised_hindi") {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if !s.trim().is_empty() => Ok(Some(s.clone())),
            Some(_) => {
                Err(self.invalid("romanised_hindi", "a non-empty string when present".into()))
            }
        }
    }
}

/// The first rewording that repeats the question or an earlier rewording, case and spacing
/// aside.
fn first_repeat<'r>(question: &str, rewordings: &'r [String]) -> Option<&'r String> {
    let mut distinct: HashSet<String> = HashSet::from([squash(question)]);
    rewordings.iter().find(|r| !distinct.insert(squash(r)))
}

/// [`REWORDINGS`] kinds that include a voice, a register, and a typo or hinglish rewording.
fn covers_the_three_kinds(kinds: &[RewordingKind]) -> bool {
    let has = |k: &[RewordingKind]| kinds.iter().any(|x| k.contains(x));
    kinds.len() == REWORDINGS
        && has(&[RewordingKind::Voice])
        && has(&[RewordingKind::Register])
        && has(&[RewordingKind::Typo, RewordingKind::Hinglish])
}

/// One line → one group, its split and question taken from its golden case. The fields are
/// checked in a fixed order (case, rewordings, kinds, romanised_hindi), so a line with several
/// faults always reports the same one.
fn parse_group(raw: &str, line: usize, golden: &GoldenSet) -> Result<Paraphrase, GoldenError> {
    let value: Value =
        serde_json::from_str(raw).map_err(|source| GoldenError::Json { line, source })?;
    let group = GroupLine {
        value: &value,
        line,
    };
    let case = group.case(golden)?;
    let rewordings = group.rewordings(&case.question)?;
    let kinds = group.kinds()?;
    let romanised_hindi = group.romanised_hindi()?;
    Ok(Paraphrase {
        case: case.id.clone(),
        split: case.split,
        question: case.question.clone(),
        rewordings,
        kinds,
        romanised_hindi,
        line,
    })
}

/// A group whose wordings disagree, or agree on a provision that does not govern.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ParaphraseFailure {
    pub case: String,
    pub expected: Vec<String>,
    /// Each wording and its first provision (`None`: refused or nothing).
    pub firsts: Vec<(String, Option<String>)>,
}

/// Paraphrase consistency over a run.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct ParaphraseCard {
    pub groups: usize,
    /// Every wording leads with the same provision, and it is expected.
    pub consistency: Option<f64>,
    /// Every wording leads with the same provision, right or wrong.
    pub agreement: Option<f64>,
    /// Wordings (questions and rewordings) that lead with an expected provision.
    pub wording_first_expected: Option<f64>,
    /// Romanised-Hindi wordings that lead with an expected provision (those `first` holds).
    pub romanised_hindi_first_expected: Option<f64>,
    /// Wordings led by an expected provision, by kind: `question` (the golden question),
    /// `voice`, `register`, `typo`, `hinglish`.
    pub first_expected_by_kind: BTreeMap<String, f64>,
    pub failures: Vec<ParaphraseFailure>,
}

impl ParaphraseCard {
    /// Scores `groups`; `first` gives each wording's first provision (by its text).
    pub fn new(
        groups: &[&Paraphrase],
        cases: &[GoldenCase],
        first: &BTreeMap<String, Option<String>>,
    ) -> ParaphraseCard {
        let mut card = ParaphraseCard::default();
        let (mut consistent, mut agreeing) = (0, 0);
        let (mut wordings, mut wordings_right) = (0, 0);
        let (mut hindi, mut hindi_right) = (0, 0);
        let mut by_kind: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        for g in groups {
            let Some(case) = cases.iter().find(|c| c.id == g.case) else {
                continue;
            };
            card.groups += 1;
            let expected: Vec<String> = case.expected_refs.iter().map(|r| r.to_string()).collect();
            let firsts: Vec<(String, Option<String>)> = g
                .wordings()
                .map(|w| (w.to_string(), first.get(w).cloned().flatten()))
                .collect();
            let lead = &firsts[0].1;
            let agree = lead.is_some() && firsts.iter().all(|(_, f)| f == lead);
            let right = |f: &Option<String>| f.as_ref().is_some_and(|f| expected.contains(f));
            wordings += firsts.len();
            wordings_right += firsts.iter().filter(|(_, f)| right(f)).count();
            let kinds = std::iter::once("question".to_string()).chain(g.kinds.iter().map(|k| {
                serde_json::to_value(k)
                    .ok()
                    .and_then(|v| v.as_str().map(String::from))
                    .unwrap_or_default()
            }));
            for (kind, (_, f)) in kinds.zip(&firsts) {
                let e = by_kind.entry(kind).or_default();
                e.0 += right(f) as usize;
                e.1 += 1;
            }
            if let Some(f) = g.romanised_hindi.as_ref().and_then(|h| first.get(h)) {
                hindi += 1;
                hindi_right += right(f) as usize;
            }
            agreeing += agree as usize;
            if agree && right(lead) {
                consistent += 1;
            } else {
                card.failures.push(ParaphraseFailure {
                    case: g.case.clone(),
                    expected,
                    firsts,
                });
            }
        }
        let share = |hits: usize, n: usize| (n > 0).then(|| hits as f64 / n as f64);
        card.consistency = share(consistent, card.groups);
        card.agreement = share(agreeing, card.groups);
        card.wording_first_expected = share(wordings_right, wordings);
        card.romanised_hindi_first_expected = share(hindi_right, hindi);
        card.first_expected_by_kind = by_kind
            .into_iter()
            .map(|(k, (hits, n))| (k, hits as f64 / n as f64))
            .collect();
        card
    }

    /// `<prefix>.paraphrase_consistency` and its companions, for the gates.
    pub fn flat(&self, prefix: &str) -> BTreeMap<String, f64> {
        [
            ("paraphrase_consistency", self.consistency),
            ("paraphrase_agreement", self.agreement),
            (
                "paraphrase_wording_first_expected",
                self.wording_first_expected,
            ),
            (
                "romanised_hindi_first_expected",
                self.romanised_hindi_first_expected,
            ),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (format!("{prefix}.{k}"), v)))
        .collect()
    }

    /// A terminal line.
    pub fn render(&self, what: &str) -> String {
        let f = |v: Option<f64>| v.map(|v| format!("{v:.3}")).unwrap_or_else(|| "–".into());
        let mut s = format!(
            "paraphrases ({what}, {} groups): consistency {}, agreement {}, wordings led by an expected ref {}\n",
            self.groups,
            f(self.consistency),
            f(self.agreement),
            f(self.wording_first_expected)
        );
        let kinds: Vec<String> = self
            .first_expected_by_kind
            .iter()
            .map(|(k, v)| format!("{k} {v:.3}"))
            .collect();
        if !kinds.is_empty() {
            s.push_str(&format!(
                "  led by an expected ref, by wording: {}\n",
                kinds.join(", ")
            ));
        }
        if self.romanised_hindi_first_expected.is_some() {
            s.push_str(&format!(
                "  romanised Hindi wordings led by an expected ref {}\n",
                f(self.romanised_hindi_first_expected)
            ));
        }
        s
    }

    /// A Markdown section: the figures and every failing group with each wording's first.
    pub fn render_markdown(&self, what: &str) -> String {
        let mut s = format!(
            "\n## Paraphrases ({what})\n\n```\n{}```\n",
            self.render(what)
        );
        if self.failures.is_empty() {
            return s;
        }
        s.push_str("\n| case | expected | wording | first |\n|---|---|---|---|\n");
        for f in &self.failures {
            for (i, (w, first)) in f.firsts.iter().enumerate() {
                let (case, expected) = if i == 0 {
                    (f.case.as_str(), f.expected.join(", "))
                } else {
                    ("", String::new())
                };
                s.push_str(&format!(
                    "| {case} | {expected} | {} | {} |\n",
                    w.replace('|', "\\|"),
                    first.as_deref().unwrap_or("(none)")
                ));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOLDEN: &str = r#"{"id": "A", "split": "dev", "category": "simple", "question": "What is the voting age?", "expected_refs": ["326"], "must_refuse": false, "reference_answer": "x", "evidence": "p.218: who is not less than eighteen years of age"}
{"id": "B", "split": "test", "category": "simple", "question": "Who removes a Supreme Court judge?", "expected_refs": ["124"], "must_refuse": false, "reference_answer": "x", "evidence": "p.90: shall not be removed from his office except by"}
{"id": "R", "split": "dev", "category": "out_of_scope", "question": "IPC 302?", "expected_refs": [], "must_refuse": true}"#;

    fn golden() -> GoldenSet {
        GoldenSet::parse(GOLDEN).unwrap()
    }

    const A: &str = r#"{"case": "A", "rewordings": ["At what age can one vote?", "Minimum age to be an elector?", "voting age kitni hai?"], "kinds": ["voice", "register", "hinglish"]}"#;
    const H: &str = r#"{"case": "A", "rewordings": ["At what age can one vote?", "Minimum age to be an elector?", "voting age kitni hai?"], "kinds": ["voice", "register", "hinglish"], "romanised_hindi": "vote dene ki umar kya hai?"}"#;
    const B: &str = r#"{"case": "B", "rewordings": ["How is a Supreme Court judge removed?", "Removal of a judge of the SC?", "who removs a supreme court judge"], "kinds": ["voice", "register", "typo"]}"#;

    #[test]
    fn groups_take_split_and_question_from_their_case() {
        let set = ParaphraseSet::parse(&format!("{A}\n\n{B}\n"), &golden()).unwrap();
        assert_eq!(set.groups().len(), 2);
        let a = &set.groups()[0];
        assert_eq!((a.split, a.line), (Split::Dev, 1));
        assert_eq!(a.wordings().count(), 4);
        assert_eq!(a.wordings().next(), Some("What is the voting age?"));
        let g = golden();
        let dev: Vec<GoldenCase> = g.split(Split::Dev).cloned().collect();
        assert_eq!(set.for_cases(&dev).len(), 1);
    }

    #[test]
    fn bad_groups_name_line_and_field() {
        let g = golden();
        let bad = [
            (A.replace(r#""case": "A""#, r#""case": "Z""#), "case"),
            (A.replace(r#""case": "A""#, r#""case": "R""#), "case"),
            (
                A.replace(r#""voting age kitni hai?""#, r#""What is the voting age?""#),
                "rewordings",
            ),
            (A.replace(r#", "voting age kitni hai?""#, ""), "rewordings"),
            (A.replace(r#""hinglish""#, r#""register""#), "kinds"),
            (A.replace(r#""hinglish""#, r#""slang""#), "kinds"),
        ];
        for (text, field) in bad {
            let e = ParaphraseSet::parse(&text, &g).expect_err(&text);
            assert_eq!(e.field(), Some(field), "{text}: {e}");
            assert_eq!(e.line(), Some(1));
        }
        let e = ParaphraseSet::parse(&format!("{A}\n{A}"), &g).unwrap_err();
        assert!(matches!(e, GoldenError::DuplicateId { line: 2, .. }), "{e}");
    }

    #[test]
    fn repeats_ignore_case_and_spacing() {
        let r = |words: &[&str]| -> Vec<String> { words.iter().map(|w| w.to_string()).collect() };
        assert_eq!(first_repeat("Voting age?", &r(&["a", "b", "c"])), None);
        let twice = r(&["a", "b", " A "]);
        assert_eq!(first_repeat("Voting age?", &twice), Some(&twice[2]));
        let question = r(&["a", "voting  AGE?", "c"]);
        assert_eq!(first_repeat("Voting age?", &question), Some(&question[1]));
    }

    #[test]
    fn the_three_kinds_are_voice_register_and_typo_or_hinglish() {
        use RewordingKind::*;
        assert!(covers_the_three_kinds(&[Voice, Register, Typo]));
        assert!(covers_the_three_kinds(&[Hinglish, Voice, Register]));
        assert!(!covers_the_three_kinds(&[Voice, Register]));
        assert!(!covers_the_three_kinds(&[Voice, Voice, Typo]));
        assert!(!covers_the_three_kinds(&[Voice, Register, Typo, Hinglish]));
    }

    #[test]
    fn a_group_is_consistent_only_when_every_wording_leads_with_an_expected_ref() {
        let g = golden();
        let set = ParaphraseSet::parse(&format!("{A}\n{B}"), &g).unwrap();
        let groups: Vec<&Paraphrase> = set.groups().iter().collect();
        let mut first: BTreeMap<String, Option<String>> = BTreeMap::new();
        for w in groups[0].wordings() {
            first.insert(w.into(), Some("326".into()));
        }
        // B: all agree, but on the High Court's Article.
        for w in groups[1].wordings() {
            first.insert(w.into(), Some("217".into()));
        }
        let card = ParaphraseCard::new(&groups, g.cases(), &first);
        assert_eq!(card.groups, 2);
        assert_eq!(card.consistency, Some(0.5));
        assert_eq!(card.agreement, Some(1.0));
        assert_eq!(card.wording_first_expected, Some(0.5));
        assert_eq!(card.first_expected_by_kind["question"], 0.5);
        assert_eq!(card.first_expected_by_kind["hinglish"], 1.0);
        assert_eq!(card.first_expected_by_kind["typo"], 0.0);
        assert_eq!(card.failures.len(), 1);
        assert_eq!(card.failures[0].case, "B");
        assert_eq!(card.romanised_hindi_first_expected, None);
        // The romanised-Hindi wording is scored apart and never breaks its group.
        let with_hindi = ParaphraseSet::parse(&format!("{H}\n{B}"), &g).unwrap();
        let hg: Vec<&Paraphrase> = with_hindi.groups().iter().collect();
        assert_eq!(
            hg[0].romanised_hindi.as_deref(),
            Some("vote dene ki umar kya hai?")
        );
        first.insert("vote dene ki umar kya hai?".into(), Some("243F".into()));
        let card = ParaphraseCard::new(&hg, g.cases(), &first);
        assert_eq!(card.consistency, Some(0.5));
        assert_eq!(card.romanised_hindi_first_expected, Some(0.0));
        // One refused rewording breaks A.
        first.insert("voting age kitni hai?".into(), None);
        let card = ParaphraseCard::new(&groups, g.cases(), &first);
        assert_eq!(card.consistency, Some(0.0));
        assert_eq!(card.agreement, Some(0.5));
        assert_eq!(card.flat("answers")["answers.paraphrase_consistency"], 0.0);
    }
}
