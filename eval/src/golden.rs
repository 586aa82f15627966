//! The golden set: questions with the provisions that answer them, and its loader.
//!
//! # The file format (a contract)
//!
//! JSON Lines: one JSON object per line, blank lines skipped, fields not listed here ignored.
//!
//! ```text
//! {"id": "GS-001", "split": "dev", "category": "simple", "question": "...",
//!  "expected_refs": ["22"], "acceptable_refs": ["21"], "question_refs": [],
//!  "must_refuse": false, "reference_answer": "...", "evidence": "p.43: ...", "notes": "..."}
//! ```
//!
//! | field | type | meaning |
//! |---|---|---|
//! | `id` | string, required | unique in the file |
//! | `split` | `"dev"` \| `"test"`, required | tune on dev, report on test |
//! | `category` | string, required | one of [`Category`] (snake_case) |
//! | `question` | string, required | as a user would type it |
//! | `expected_refs` | canonical ids, required | the provisions that govern the answer |
//! | `acceptable_refs` | canonical ids, default `[]` | defensible neighbours (half credit in nDCG) |
//! | `question_refs` | canonical ids, default `[]` | provisions the question names itself ("Art. 21-A") |
//! | `must_refuse` | bool, required | the Constitution does not answer this; the service must decline |
//! | `reference_answer` | string | a short answer quoting the text; required when answerable |
//! | `evidence` | string | `p.<PDF page>: <verbatim phrase>`; required when answerable |
//! | `notes` | string, optional | anything a reviewer should know |
//!
//! Ids are canonical [`RefId`]s (`21A`, `SCH-7`, `PREAMBLE`), not user spellings.
//!
//! # What loading checks
//!
//! Unique ids; a known split and category; every ref parses as a [`RefId`]; no ref is listed
//! twice in a field or both expected and acceptable; a `must_refuse` case has no
//! `expected_refs`; an answerable case has at least one expected ref, a non-empty
//! `reference_answer` and an `evidence` of the form `p.<page>: <phrase>` whose phrase has at
//! least [`EVIDENCE_MIN_WORDS`] words; an `out_of_scope` case must be `must_refuse`; an
//! `article_lookup` case names its provision in `question_refs`. Every failure is a
//! [`GoldenError`] naming the line and the field.
//!
//! Whether the evidence phrase really is in the text of the provision on that page needs the
//! parsed PDF, so it is checked by `tests/evidence.rs`, not here.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use nyaya_ingest::RefId;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// An evidence phrase must have at least this many words: shorter phrases ("the President
/// may") occur in too many provisions to pin one down.
pub const EVIDENCE_MIN_WORDS: usize = 6;

/// Which half of the golden set a case belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Split {
    /// Look at these while tuning.
    Dev,
    /// Held out: report on these, do not tune on them.
    Test,
}

impl Split {
    pub const ALL: [Split; 2] = [Split::Dev, Split::Test];

    pub fn as_str(self) -> &'static str {
        match self {
            Split::Dev => "dev",
            Split::Test => "test",
        }
    }
}

impl fmt::Display for Split {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Split {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        Split::ALL.into_iter().find(|v| v.as_str() == s).ok_or(())
    }
}

/// What sort of question a case is; reports break metrics down by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// Names the provision: "What does Art. 21-A say?", "A32", "15(4)".
    ArticleLookup,
    /// One plain-language question answered by one provision.
    Simple,
    /// Needs the reader to connect the question's idea to the text's wording.
    Conceptual,
    /// Two or more questions in one, each with its own provision.
    MultiPart,
    /// Answered by a Schedule.
    Schedule,
    /// About provisions inserted, substituted or omitted by amendments.
    OmittedAmended,
    /// Not answerable from the Constitution: must be refused.
    OutOfScope,
    /// False premises and prompt injections.
    Adversarial,
    /// Vague questions with several defensible readings.
    Ambiguous,
    /// Fact patterns of several hundred words.
    LongQuery,
}

impl Category {
    pub const ALL: [Category; 10] = [
        Category::ArticleLookup,
        Category::Simple,
        Category::Conceptual,
        Category::MultiPart,
        Category::Schedule,
        Category::OmittedAmended,
        Category::OutOfScope,
        Category::Adversarial,
        Category::Ambiguous,
        Category::LongQuery,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Category::ArticleLookup => "article_lookup",
            Category::Simple => "simple",
            Category::Conceptual => "conceptual",
            Category::MultiPart => "multi_part",
            Category::Schedule => "schedule",
            Category::OmittedAmended => "omitted_amended",
            Category::OutOfScope => "out_of_scope",
            Category::Adversarial => "adversarial",
            Category::Ambiguous => "ambiguous",
            Category::LongQuery => "long_query",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Category {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        Category::ALL
            .into_iter()
            .find(|v| v.as_str() == s)
            .ok_or(())
    }
}

/// Where the answer is printed: a PDF page and a phrase copied verbatim from the provision's
/// text on that page. Written `p.<page>: <phrase>` in the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    /// PDF page number (1-based, as in `Provision::page_start`).
    pub page: u32,
    pub phrase: String,
}

impl fmt::Display for Evidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "p.{}: {}", self.page, self.phrase)
    }
}

impl FromStr for Evidence {
    type Err = &'static str;

    /// Parses `p.<page>: <phrase>`; the phrase is trimmed.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const SHAPE: &str = "expected \"p.<PDF page>: <verbatim phrase>\"";
        let rest = s.trim_start().strip_prefix("p.").ok_or(SHAPE)?;
        let (page, phrase) = rest.split_once(':').ok_or(SHAPE)?;
        let page = page.trim();
        if page.is_empty() || !page.bytes().all(|b| b.is_ascii_digit()) {
            return Err("the page must be a PDF page number");
        }
        let page: u32 = page
            .parse()
            .map_err(|_| "the page must be a PDF page number")?;
        if page == 0 {
            return Err("PDF pages count from 1");
        }
        let phrase = phrase.trim();
        if phrase.split_whitespace().count() < EVIDENCE_MIN_WORDS {
            return Err("the phrase must have at least 6 words");
        }
        Ok(Evidence {
            page,
            phrase: phrase.to_string(),
        })
    }
}

/// One question of the golden set, validated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GoldenCase {
    pub id: String,
    pub split: Split,
    pub category: Category,
    pub question: String,
    /// The provisions that govern the answer; empty exactly when `must_refuse`.
    pub expected_refs: Vec<RefId>,
    /// Defensible neighbours: not required, but not wrong.
    pub acceptable_refs: Vec<RefId>,
    /// Provisions the question names itself.
    pub question_refs: Vec<RefId>,
    pub must_refuse: bool,
    /// Empty for `must_refuse` cases that have none.
    pub reference_answer: String,
    /// `None` only for `must_refuse` cases.
    pub evidence: Option<Evidence>,
    pub notes: String,
    /// 1-based line of the case in its file (0 when built in code).
    pub line: usize,
}

impl GoldenCase {
    /// The answer is in the Constitution (the opposite of `must_refuse`).
    pub fn is_answerable(&self) -> bool {
        !self.must_refuse
    }

    /// Whether `id` is an expected or acceptable ref of this case.
    pub fn is_relevant(&self, id: &RefId) -> bool {
        self.expected_refs.contains(id) || self.acceptable_refs.contains(id)
    }
}

/// Why a golden-set file does not load. Every variant that concerns a case names its 1-based
/// line and, where one is at fault, the field.
#[derive(Debug, thiserror::Error)]
pub enum GoldenError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("line {line}: not a JSON object: {source}")]
    Json {
        line: usize,
        #[source]
        source: serde_json::Error,
    },
    #[error("line {line}: field `{field}` is missing")]
    MissingField { line: usize, field: &'static str },
    #[error("line {line}: field `{field}` must be {expected}")]
    WrongType {
        line: usize,
        field: &'static str,
        expected: &'static str,
    },
    #[error("line {line}: field `{field}`: {reason}")]
    Invalid {
        line: usize,
        field: &'static str,
        reason: String,
    },
    #[error("line {line}: field `id`: {id:?} is already used on line {first_line}")]
    DuplicateId {
        line: usize,
        id: String,
        first_line: usize,
    },
    #[error("the golden set is empty")]
    Empty,
}

impl GoldenError {
    /// The line the error is about, when it is about one.
    pub fn line(&self) -> Option<usize> {
        match self {
            GoldenError::Json { line, .. }
            | GoldenError::MissingField { line, .. }
            | GoldenError::WrongType { line, .. }
            | GoldenError::Invalid { line, .. }
            | GoldenError::DuplicateId { line, .. } => Some(*line),
            GoldenError::Io { .. } | GoldenError::Empty => None,
        }
    }

    /// The field at fault, when one is.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            GoldenError::MissingField { field, .. }
            | GoldenError::WrongType { field, .. }
            | GoldenError::Invalid { field, .. } => Some(field),
            GoldenError::DuplicateId { .. } => Some("id"),
            _ => None,
        }
    }
}

/// A loaded, validated golden set, in file order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GoldenSet {
    cases: Vec<GoldenCase>,
}

impl GoldenSet {
    /// Reads and validates a JSONL file.
    pub fn load(path: impl AsRef<Path>) -> Result<GoldenSet, GoldenError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| GoldenError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        GoldenSet::parse(&text)
    }

    /// Validates JSONL text (see the module docs). Stops at the first error.
    pub fn parse(text: &str) -> Result<GoldenSet, GoldenError> {
        let mut cases = Vec::new();
        let mut seen: HashMap<String, usize> = HashMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            if raw.trim().is_empty() {
                continue;
            }
            let case = parse_case(raw, line)?;
            if let Some(&first_line) = seen.get(&case.id) {
                return Err(GoldenError::DuplicateId {
                    line,
                    id: case.id,
                    first_line,
                });
            }
            seen.insert(case.id.clone(), line);
            cases.push(case);
        }
        if cases.is_empty() {
            return Err(GoldenError::Empty);
        }
        Ok(GoldenSet { cases })
    }

    pub fn cases(&self) -> &[GoldenCase] {
        &self.cases
    }

    pub fn len(&self) -> usize {
        self.cases.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cases.is_empty()
    }

    /// The case with this id.
    pub fn get(&self, id: &str) -> Option<&GoldenCase> {
        self.cases.iter().find(|c| c.id == id)
    }

    /// The cases of one split, in file order.
    pub fn split(&self, split: Split) -> impl Iterator<Item = &GoldenCase> {
        self.cases.iter().filter(move |c| c.split == split)
    }

    /// How many cases each (category, split) pair has; pairs with none are absent.
    pub fn counts(&self) -> BTreeMap<(Category, Split), usize> {
        let mut out = BTreeMap::new();
        for c in &self.cases {
            *out.entry((c.category, c.split)).or_insert(0) += 1;
        }
        out
    }
}

impl<'a> IntoIterator for &'a GoldenSet {
    type Item = &'a GoldenCase;
    type IntoIter = std::slice::Iter<'a, GoldenCase>;
    fn into_iter(self) -> Self::IntoIter {
        self.cases.iter()
    }
}

// ---------------------------------------------------------------------------------------------
// One line → one case

/// Field access on one line's object, producing errors that name the line and field.
struct Fields<'a> {
    obj: &'a Map<String, Value>,
    line: usize,
}

impl Fields<'_> {
    fn invalid(&self, field: &'static str, reason: impl Into<String>) -> GoldenError {
        GoldenError::Invalid {
            line: self.line,
            field,
            reason: reason.into(),
        }
    }

    fn wrong_type(&self, field: &'static str, expected: &'static str) -> GoldenError {
        GoldenError::WrongType {
            line: self.line,
            field,
            expected,
        }
    }

    /// A string field; `None` when absent or null.
    fn opt_str(&self, field: &'static str) -> Result<Option<&str>, GoldenError> {
        match self.obj.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(self.wrong_type(field, "a string")),
        }
    }

    /// A required, non-blank string field.
    fn req_str(&self, field: &'static str) -> Result<&str, GoldenError> {
        let s = self.opt_str(field)?.ok_or(GoldenError::MissingField {
            line: self.line,
            field,
        })?;
        if s.trim().is_empty() {
            return Err(self.invalid(field, "must not be empty"));
        }
        Ok(s)
    }

    fn req_bool(&self, field: &'static str) -> Result<bool, GoldenError> {
        match self.obj.get(field) {
            None | Some(Value::Null) => Err(GoldenError::MissingField {
                line: self.line,
                field,
            }),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.wrong_type(field, "true or false")),
        }
    }

    /// A list of canonical ids; `required` decides whether absence is an error or `[]`.
    fn refs(&self, field: &'static str, required: bool) -> Result<Vec<RefId>, GoldenError> {
        let items = match self.obj.get(field) {
            None | Some(Value::Null) if required => {
                return Err(GoldenError::MissingField {
                    line: self.line,
                    field,
                })
            }
            None | Some(Value::Null) => return Ok(Vec::new()),
            Some(Value::Array(items)) => items,
            Some(_) => return Err(self.wrong_type(field, "a list of provision ids")),
        };
        let mut out: Vec<RefId> = Vec::with_capacity(items.len());
        for item in items {
            let Value::String(s) = item else {
                return Err(self.wrong_type(field, "a list of provision ids"));
            };
            let id: RefId = s.parse().map_err(|e| self.invalid(field, format!("{e}")))?;
            if out.contains(&id) {
                return Err(self.invalid(field, format!("{id} is listed twice")));
            }
            out.push(id);
        }
        Ok(out)
    }
}

fn parse_case(raw: &str, line: usize) -> Result<GoldenCase, GoldenError> {
    let value: Value =
        serde_json::from_str(raw).map_err(|source| GoldenError::Json { line, source })?;
    let Value::Object(obj) = &value else {
        return Err(GoldenError::Invalid {
            line,
            field: "(line)",
            reason: "each line must be a JSON object".to_string(),
        });
    };
    let f = Fields { obj, line };

    let id = f.req_str("id")?.trim().to_string();
    let split = f.req_str("split")?;
    let split: Split = split
        .parse()
        .map_err(|()| f.invalid("split", format!("{split:?} is not one of dev, test")))?;
    let category = f.req_str("category")?;
    let category: Category = category.parse().map_err(|()| {
        let known: Vec<&str> = Category::ALL.iter().map(|c| c.as_str()).collect();
        f.invalid(
            "category",
            format!("{category:?} is not one of {}", known.join(", ")),
        )
    })?;
    let question = f.req_str("question")?.to_string();
    let expected_refs = f.refs("expected_refs", true)?;
    let acceptable_refs = f.refs("acceptable_refs", false)?;
    let question_refs = f.refs("question_refs", false)?;
    let must_refuse = f.req_bool("must_refuse")?;
    let reference_answer = f.opt_str("reference_answer")?.unwrap_or("").to_string();
    let evidence = f.opt_str("evidence")?;
    let notes = f.opt_str("notes")?.unwrap_or("").to_string();

    let expected: HashSet<&RefId> = expected_refs.iter().collect();
    if let Some(both) = acceptable_refs.iter().find(|r| expected.contains(r)) {
        return Err(f.invalid(
            "acceptable_refs",
            format!("{both} is also in expected_refs"),
        ));
    }

    let evidence = if must_refuse {
        if !expected_refs.is_empty() {
            return Err(f.invalid("expected_refs", "a must_refuse case expects no provision"));
        }
        match evidence {
            Some(e) if !e.trim().is_empty() => Some(
                e.parse::<Evidence>()
                    .map_err(|reason| f.invalid("evidence", reason))?,
            ),
            _ => None,
        }
    } else {
        if category == Category::OutOfScope {
            return Err(f.invalid("must_refuse", "an out_of_scope case must be refused"));
        }
        if expected_refs.is_empty() {
            return Err(f.invalid(
                "expected_refs",
                "an answerable case expects at least one provision",
            ));
        }
        if reference_answer.trim().is_empty() {
            return Err(match f.opt_str("reference_answer")? {
                None => GoldenError::MissingField {
                    line,
                    field: "reference_answer",
                },
                Some(_) => f.invalid("reference_answer", "must not be empty"),
            });
        }
        let e = f.req_str("evidence")?;
        Some(
            e.parse::<Evidence>()
                .map_err(|reason| f.invalid("evidence", reason))?,
        )
    };

    if category == Category::ArticleLookup && question_refs.is_empty() {
        return Err(f.invalid(
            "question_refs",
            "an article_lookup case names the provision it asks for",
        ));
    }

    Ok(GoldenCase {
        id,
        split,
        category,
        question,
        expected_refs,
        acceptable_refs,
        question_refs,
        must_refuse,
        reference_answer,
        evidence,
        notes,
        line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"id": "GS-001", "split": "dev", "category": "simple", "question": "Can I be arrested without being told why?", "expected_refs": ["22"], "acceptable_refs": ["21"], "question_refs": [], "must_refuse": false, "reference_answer": "No.", "evidence": "p.42: shall be detained in custody without being informed", "notes": "", "extra": 1}"#;
    const REFUSE: &str = r#"{"id": "GS-002", "split": "test", "category": "out_of_scope", "question": "What is IPC section 302?", "expected_refs": [], "must_refuse": true}"#;

    fn with(field: &str, value: &str) -> String {
        let mut v: Value = serde_json::from_str(GOOD).unwrap();
        if value == "<absent>" {
            v.as_object_mut().unwrap().remove(field);
        } else {
            v[field] = serde_json::from_str(value).unwrap();
        }
        v.to_string()
    }

    fn err(text: &str) -> GoldenError {
        GoldenSet::parse(text).expect_err("should not load")
    }

    #[test]
    fn loads_good_lines_and_ignores_extra_fields_and_blank_lines() {
        let set = GoldenSet::parse(&format!("{GOOD}\n\n{REFUSE}\n")).unwrap();
        assert_eq!(set.len(), 2);
        let c = &set.cases()[0];
        assert_eq!(c.id, "GS-001");
        assert_eq!(c.split, Split::Dev);
        assert_eq!(c.category, Category::Simple);
        assert_eq!(c.expected_refs, vec!["22".parse::<RefId>().unwrap()]);
        assert_eq!(c.acceptable_refs, vec!["21".parse::<RefId>().unwrap()]);
        assert_eq!(
            c.evidence,
            Some(Evidence {
                page: 42,
                phrase: "shall be detained in custody without being informed".into()
            })
        );
        assert_eq!(c.line, 1);
        let r = &set.cases()[1];
        assert!(r.must_refuse && r.evidence.is_none() && r.acceptable_refs.is_empty());
        assert_eq!(r.line, 3);
        assert_eq!(set.split(Split::Test).count(), 1);
        assert_eq!(set.counts()[&(Category::OutOfScope, Split::Test)], 1);
        assert!(set.get("GS-002").is_some());
    }

    #[test]
    fn duplicate_ids_name_both_lines() {
        match err(&format!("{GOOD}\n{GOOD}")) {
            GoldenError::DuplicateId {
                line, first_line, ..
            } => assert_eq!((line, first_line), (2, 1)),
            e => panic!("{e}"),
        }
    }

    #[test]
    fn errors_name_line_and_field() {
        let cases: &[(&str, &str, &str)] = &[
            ("split", r#""train""#, "split"),
            ("category", r#""trivia""#, "category"),
            ("expected_refs", r#"["Art. 22"]"#, "expected_refs"),
            ("expected_refs", r#"["22", "22"]"#, "expected_refs"),
            ("expected_refs", r#"[]"#, "expected_refs"),
            ("expected_refs", r#""22""#, "expected_refs"),
            ("expected_refs", "<absent>", "expected_refs"),
            ("acceptable_refs", r#"["22"]"#, "acceptable_refs"),
            ("question_refs", r#"["21a"]"#, "question_refs"),
            (
                "evidence",
                r#""page 42: shall be detained in custody without""#,
                "evidence",
            ),
            ("evidence", r#""p.42: too short a phrase""#, "evidence"),
            (
                "evidence",
                r#""p.0: shall be detained in custody without being""#,
                "evidence",
            ),
            ("evidence", "<absent>", "evidence"),
            ("reference_answer", r#""  ""#, "reference_answer"),
            ("reference_answer", "<absent>", "reference_answer"),
            ("must_refuse", r#""no""#, "must_refuse"),
            ("must_refuse", "<absent>", "must_refuse"),
            ("question", "<absent>", "question"),
            ("id", r#"7"#, "id"),
        ];
        for (field, value, at_fault) in cases {
            let text = format!("{REFUSE}\n{}", with(field, value));
            let e = err(&text);
            assert_eq!(e.line(), Some(2), "{field}={value}: {e}");
            assert_eq!(e.field(), Some(*at_fault), "{field}={value}: {e}");
            assert!(e.to_string().contains("line 2"), "{e}");
        }
    }

    #[test]
    fn must_refuse_cases_expect_nothing_and_out_of_scope_must_refuse() {
        let e = err(&REFUSE.replace(r#""expected_refs": []"#, r#""expected_refs": ["21"]"#));
        assert_eq!(e.field(), Some("expected_refs"));
        let e = err(&with("category", r#""out_of_scope""#));
        assert_eq!(e.field(), Some("must_refuse"));
        let e = err(&with("category", r#""article_lookup""#));
        assert_eq!(e.field(), Some("question_refs"));
    }

    #[test]
    fn bad_json_and_empty_files() {
        assert!(matches!(
            err("{not json"),
            GoldenError::Json { line: 1, .. }
        ));
        assert!(matches!(
            err("[1, 2]"),
            GoldenError::Invalid { line: 1, .. }
        ));
        assert!(matches!(err("\n \n"), GoldenError::Empty));
        assert!(matches!(
            GoldenSet::load("/nonexistent/golden.jsonl"),
            Err(GoldenError::Io { .. })
        ));
    }

    #[test]
    fn evidence_round_trips() {
        let e: Evidence = "p.43: produced before the nearest magistrate within a period"
            .parse()
            .unwrap();
        assert_eq!(e.page, 43);
        assert_eq!(
            e.to_string(),
            "p.43: produced before the nearest magistrate within a period"
        );
        assert!("p.x: one two three four five six"
            .parse::<Evidence>()
            .is_err());
        assert!("p.12 one two three four five six"
            .parse::<Evidence>()
            .is_err());
    }

    #[test]
    fn names_round_trip() {
        for c in Category::ALL {
            assert_eq!(c.as_str().parse::<Category>(), Ok(c));
            assert_eq!(
                serde_json::to_string(&c).unwrap(),
                format!("\"{}\"", c.as_str())
            );
        }
        for s in Split::ALL {
            assert_eq!(s.as_str().parse::<Split>(), Ok(s));
        }
    }
}
