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
//!
//! # Outside files ([`GoldenSet::parse_lenient`])
//!
//! A user's own set need not keep the whole contract. Loaded leniently, a file scores what it
//! has: a missing `evidence` or `reference_answer` is allowed (evidence is then not scored); a
//! missing `id` becomes `line-N`, a missing `split` `test`, a missing or unknown `category`
//! [`Category::Other`], a missing `must_refuse` "refuse only if `out_of_scope`", missing
//! `question_refs` what the ref parser reads in the question; refs may be user spellings
//! ("Art. 21-A"); an answerable case may expect nothing (an `ambiguous` one, say: it is scored
//! on route and refusal only). Each kind of gap is one warning with its count. A line that
//! cannot be scored at all (not JSON, no question, an unknown split, a ref that names no
//! provision, `must_refuse` with expected refs, a repeated id) is skipped and listed.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use nyaya_ingest::refid::{find_refs, parse_user_ref};
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
    /// Not one of the contract's categories: only from an outside file loaded leniently
    /// ([`GoldenSet::parse_lenient`]); any answering route is right for it.
    Other,
}

impl Category {
    /// The contract's categories ([`Category::Other`] is not one of them).
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
            Category::Other => "other",
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
    /// The question's language, as the file's `lang` field names it ("hi", "hi-latn", "ta" …);
    /// `None` for English sets, which have no such field. Reports group by it.
    pub language: Option<String>,
    /// The wording group of a written set whose questions come as several wordings of one
    /// question (`"group"`, e.g. `eval/written/en_fresh.jsonl`); `None` elsewhere.
    pub group: Option<String>,
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
    #[error("no case can be scored: {}", .0.iter().map(|s| format!("line {}: {}", s.line, s.reason)).collect::<Vec<_>>().join("; "))]
    NothingScorable(Vec<SkippedCase>),
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
            GoldenError::Io { .. } | GoldenError::Empty | GoldenError::NothingScorable(_) => None,
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

    /// Reads an outside file leniently (see the module docs): what it lacks is filled in or left
    /// unscored, with one warning per kind of gap; lines that cannot be scored are skipped and
    /// listed. Fails only when the file cannot be read or no case survives.
    pub fn load_lenient(path: impl AsRef<Path>) -> Result<(GoldenSet, LenientNotes), GoldenError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| GoldenError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        GoldenSet::parse_lenient(&text)
    }

    /// [`GoldenSet::load_lenient`] on text.
    pub fn parse_lenient(text: &str) -> Result<(GoldenSet, LenientNotes), GoldenError> {
        let mut cases: Vec<GoldenCase> = Vec::new();
        let mut gaps = Gaps::default();
        let mut skipped = Vec::new();
        let mut seen: HashMap<String, usize> = HashMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            if raw.trim().is_empty() {
                continue;
            }
            let skip = |id: String, reason: String| SkippedCase { line, id, reason };
            // A skipped line's gaps are not the set's: count them only for kept cases.
            let mut case_gaps = Gaps::default();
            match parse_case_lenient(raw, line, &mut case_gaps) {
                Err(reason) => skipped.push(skip(format!("line-{line}"), reason)),
                Ok(case) => match seen.get(&case.id) {
                    Some(first) => skipped.push(skip(
                        case.id.clone(),
                        format!("the id is already used on line {first}"),
                    )),
                    None => {
                        seen.insert(case.id.clone(), line);
                        cases.push(case);
                        gaps.merge(case_gaps);
                    }
                },
            }
        }
        if cases.is_empty() {
            return Err(if skipped.is_empty() {
                GoldenError::Empty
            } else {
                GoldenError::NothingScorable(skipped)
            });
        }
        let notes = LenientNotes {
            warnings: gaps.warnings(),
            skipped,
        };
        Ok((GoldenSet { cases }, notes))
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

/// One line of the golden file, held to the contract: every required field present and
/// well-formed, and the fields agreeing with each other. Fields are read in a fixed order,
/// which fixes which fault a bad line reports.
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
    let split = f.split()?;
    let category = f.category()?;
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
        f.refusal_evidence(&expected_refs, evidence)?
    } else {
        Some(f.answer_evidence(category, &expected_refs, &reference_answer)?)
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
        language: f.opt_str("lang")?.map(str::to_string),
        group: f.opt_str("group")?.map(str::to_string),
        line,
    })
}

impl Fields<'_> {
    fn split(&self) -> Result<Split, GoldenError> {
        let split = self.req_str("split")?;
        split
            .parse()
            .map_err(|()| self.invalid("split", format!("{split:?} is not one of dev, test")))
    }

    fn category(&self) -> Result<Category, GoldenError> {
        let category = self.req_str("category")?;
        category.parse().map_err(|()| {
            let known: Vec<&str> = Category::ALL.iter().map(|c| c.as_str()).collect();
            self.invalid(
                "category",
                format!("{category:?} is not one of {}", known.join(", ")),
            )
        })
    }

    /// A case to refuse expects no provision; its evidence, if any, must parse.
    fn refusal_evidence(
        &self,
        expected_refs: &[RefId],
        evidence: Option<&str>,
    ) -> Result<Option<Evidence>, GoldenError> {
        if !expected_refs.is_empty() {
            return Err(self.invalid("expected_refs", "a must_refuse case expects no provision"));
        }
        match evidence {
            Some(e) if !e.trim().is_empty() => Ok(Some(self.evidence(e)?)),
            _ => Ok(None),
        }
    }

    /// A case to answer is not out of scope, expects a provision, and says what the answer is
    /// and where the text says it (its evidence, required).
    fn answer_evidence(
        &self,
        category: Category,
        expected_refs: &[RefId],
        reference_answer: &str,
    ) -> Result<Evidence, GoldenError> {
        if category == Category::OutOfScope {
            return Err(self.invalid("must_refuse", "an out_of_scope case must be refused"));
        }
        if expected_refs.is_empty() {
            return Err(self.invalid(
                "expected_refs",
                "an answerable case expects at least one provision",
            ));
        }
        if reference_answer.trim().is_empty() {
            return Err(match self.opt_str("reference_answer")? {
                None => GoldenError::MissingField {
                    line: self.line,
                    field: "reference_answer",
                },
                Some(_) => self.invalid("reference_answer", "must not be empty"),
            });
        }
        self.evidence(self.req_str("evidence")?)
    }

    fn evidence(&self, e: &str) -> Result<Evidence, GoldenError> {
        e.parse::<Evidence>()
            .map_err(|reason| self.invalid("evidence", reason))
    }
}

// ---------------------------------------------------------------------------------------------
// Outside files: one line → one case, leniently

/// What a lenient load filled in or left unscored, and what it skipped.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LenientNotes {
    /// One line per kind of gap, with how many cases had it.
    pub warnings: Vec<String>,
    pub skipped: Vec<SkippedCase>,
}

/// A line of an outside file that cannot be scored.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkippedCase {
    pub line: usize,
    /// The case's id, or `line-N` when it had none (or was not read).
    pub id: String,
    pub reason: String,
}

/// Kinds of gap, counted: each becomes one warning.
#[derive(Default)]
struct Gaps(BTreeMap<&'static str, usize>);

impl Gaps {
    fn note(&mut self, what: &'static str) {
        *self.0.entry(what).or_insert(0) += 1;
    }

    fn merge(&mut self, other: Gaps) {
        for (what, n) in other.0 {
            *self.0.entry(what).or_insert(0) += n;
        }
    }

    fn warnings(&self) -> Vec<String> {
        self.0
            .iter()
            .map(|(what, n)| format!("{n} case{} {what}", if *n == 1 { "" } else { "s" }))
            .collect()
    }
}

/// Canonical ids, or user spellings the ref parser reads as exactly one provision.
fn lenient_refs(
    f: &Fields,
    field: &'static str,
    gaps: &mut Gaps,
) -> Result<Option<Vec<RefId>>, String> {
    let items = match f.obj.get(field) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(items)) => items,
        Some(Value::String(s)) => &vec![Value::String(s.clone())],
        Some(_) => return Err(format!("`{field}` is not a list of provisions")),
    };
    let mut out: Vec<RefId> = Vec::new();
    for item in items {
        let Value::String(s) = item else {
            return Err(format!("`{field}` is not a list of provisions"));
        };
        let id = match s.trim().parse::<RefId>() {
            Ok(id) => id,
            Err(_) => {
                let id = parse_user_ref(s)
                    .map(|r| r.id)
                    .ok_or_else(|| format!("`{field}`: {s:?} names no provision"))?;
                gaps.note(
                    "with refs spelled as users spell them (\"Art. 21-A\"): read by the ref parser",
                );
                id
            }
        };
        if !out.contains(&id) {
            out.push(id);
        }
    }
    Ok(Some(out))
}

/// One line of an outside file as a JSON object, or why it is not one.
fn json_object(raw: &str) -> Result<Map<String, Value>, String> {
    let value: Value = serde_json::from_str(raw).map_err(|e| format!("not JSON: {e}"))?;
    match value {
        Value::Object(obj) => Ok(obj),
        _ => Err("not a JSON object".into()),
    }
}

impl Fields<'_> {
    /// [`Fields::opt_str`] with its error as a skip reason.
    fn lenient_str(&self, field: &'static str) -> Result<Option<&str>, String> {
        self.opt_str(field).map_err(|e| e.to_string())
    }
}

/// The question: the one field a case cannot be scored without.
fn lenient_question(f: &Fields) -> Result<String, String> {
    match f.lenient_str("question")? {
        Some(q) if !q.trim().is_empty() => Ok(q.to_string()),
        _ => Err("no question".into()),
    }
}

/// The id, or `line-N` when it has none.
fn lenient_id(f: &Fields, gaps: &mut Gaps) -> Result<String, String> {
    Ok(match f.lenient_str("id")? {
        Some(id) if !id.trim().is_empty() => id.trim().to_string(),
        _ => {
            gaps.note("without `id`: named by their line (`line-N`)");
            format!("line-{}", f.line)
        }
    })
}

/// The split, `test` when absent; an unknown split cannot be scored.
fn lenient_split(f: &Fields, gaps: &mut Gaps) -> Result<Split, String> {
    Ok(match f.lenient_str("split")? {
        Some(s) => s
            .parse()
            .map_err(|()| format!("split {s:?} is not dev or test"))?,
        None => {
            gaps.note("without `split`: counted as test");
            Split::Test
        }
    })
}

/// The category, [`Category::Other`] when absent or outside the contract.
fn lenient_category(f: &Fields, gaps: &mut Gaps) -> Result<Category, String> {
    Ok(match f.lenient_str("category")? {
        Some(c) => c.parse().unwrap_or_else(|()| {
            gaps.note("with a category outside the contract: scored as `other`");
            Category::Other
        }),
        None => {
            gaps.note("without `category`: scored as `other` (any answering route)");
            Category::Other
        }
    })
}

/// A lenient case's three lists of provisions.
struct LenientRefs {
    expected: Vec<RefId>,
    /// Never one that is also expected.
    acceptable: Vec<RefId>,
    question: Vec<RefId>,
}

impl LenientRefs {
    /// Reads `expected_refs` (or a training file's `ref`), `acceptable_refs` and
    /// `question_refs` (or what the ref parser finds in `question`), in that order.
    fn read(f: &Fields, question: &str, gaps: &mut Gaps) -> Result<LenientRefs, String> {
        let expected = match lenient_refs(f, "expected_refs", gaps)? {
            Some(refs) => refs,
            // The training files (`data/train/*.jsonl`) name one provision as `ref`.
            None => match lenient_refs(f, "ref", gaps)? {
                Some(refs) => {
                    gaps.note(
                        "with `ref` (a training file's one provision): read as `expected_refs`",
                    );
                    refs
                }
                None => Vec::new(),
            },
        };
        let acceptable: Vec<RefId> = lenient_refs(f, "acceptable_refs", gaps)?
            .unwrap_or_default()
            .into_iter()
            .filter(|r| !expected.contains(r))
            .collect();
        let question = match lenient_refs(f, "question_refs", gaps)? {
            Some(refs) => refs,
            None => {
                gaps.note("without `question_refs`: read from the question by the ref parser");
                refs_named_in(question)
            }
        };
        Ok(LenientRefs {
            expected,
            acceptable,
            question,
        })
    }
}

/// The provisions the ref parser finds in a question, sorted, each once.
fn refs_named_in(question: &str) -> Vec<RefId> {
    let mut named: Vec<RefId> = find_refs(question).into_iter().map(|(r, _)| r.id).collect();
    named.sort();
    named.dedup();
    named
}

/// `must_refuse`; when absent, refused exactly when the category is `out_of_scope`.
fn lenient_must_refuse(f: &Fields, category: Category, gaps: &mut Gaps) -> Result<bool, String> {
    match f.obj.get("must_refuse") {
        Some(Value::Bool(b)) => Ok(*b),
        None | Some(Value::Null) => {
            gaps.note("without `must_refuse`: refused only when `out_of_scope`");
            Ok(category == Category::OutOfScope)
        }
        Some(_) => Err("`must_refuse` is not true or false".into()),
    }
}

/// The evidence, `None` (unscored) when absent, blank or not of the form `p.<page>: <phrase>`.
fn lenient_evidence(f: &Fields, gaps: &mut Gaps) -> Result<Option<Evidence>, String> {
    Ok(match f.lenient_str("evidence")? {
        Some(e) if !e.trim().is_empty() => match e.parse::<Evidence>() {
            Ok(e) => Some(e),
            Err(_) => {
                gaps.note("with an `evidence` not of the form `p.<page>: <phrase>`: not scored");
                None
            }
        },
        _ => None,
    })
}

/// What an answerable case lacks and is scored without; a refused case needs none of it.
fn note_unscored(case: &GoldenCase, gaps: &mut Gaps) {
    if case.must_refuse {
        return;
    }
    if case.evidence.is_none() {
        gaps.note("without `evidence`: evidence_quoted skips them");
    }
    if case.reference_answer.trim().is_empty() {
        gaps.note("without `reference_answer` (not needed to score)");
    }
    if case.expected_refs.is_empty() {
        gaps.note("expecting no provision: scored on route and refusal only");
    }
}

/// One line of an outside file → one case, or why the line is skipped. The fields are read in
/// a fixed order, so a line with several faults is always skipped for the same one.
fn parse_case_lenient(raw: &str, line: usize, gaps: &mut Gaps) -> Result<GoldenCase, String> {
    let obj = json_object(raw)?;
    let f = Fields { obj: &obj, line };
    let question = lenient_question(&f)?;
    let id = lenient_id(&f, gaps)?;
    let split = lenient_split(&f, gaps)?;
    let category = lenient_category(&f, gaps)?;
    let refs = LenientRefs::read(&f, &question, gaps)?;
    let must_refuse = lenient_must_refuse(&f, category, gaps)?;
    if must_refuse && !refs.expected.is_empty() {
        return Err("`must_refuse` and `expected_refs` contradict each other".into());
    }
    let reference_answer = f.lenient_str("reference_answer")?.unwrap_or("").to_string();
    let evidence = lenient_evidence(&f, gaps)?;
    let case = GoldenCase {
        id,
        split,
        category,
        question,
        expected_refs: refs.expected,
        acceptable_refs: refs.acceptable,
        question_refs: refs.question,
        must_refuse,
        reference_answer,
        evidence,
        notes: f.lenient_str("notes")?.unwrap_or("").to_string(),
        language: f.lenient_str("lang")?.map(str::to_string),
        group: f.lenient_str("group")?.map(str::to_string),
        line,
    };
    // Noted once the line is known to be kept (a skipped line's gaps are dropped anyway).
    note_unscored(&case, gaps);
    Ok(case)
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

    #[test]
    fn a_lenient_line_must_be_a_json_object() {
        assert!(json_object("{not json")
            .unwrap_err()
            .starts_with("not JSON: "));
        assert_eq!(json_object("[1, 2]").unwrap_err(), "not a JSON object");
        assert_eq!(json_object(r#"{"a": 1}"#).unwrap().len(), 1);
    }

    #[test]
    fn refs_named_in_a_question_are_sorted_and_unique() {
        let ids = |ids: &[&str]| -> Vec<RefId> { ids.iter().map(|i| i.parse().unwrap()).collect() };
        assert_eq!(
            refs_named_in("Do Art. 22 and Article 21-A, or Art. 22 again, apply?"),
            ids(&["21A", "22"])
        );
        assert!(refs_named_in("Who won the 2011 world cup?").is_empty());
    }

    #[test]
    fn only_an_answerable_case_notes_what_it_is_scored_without() {
        let (set, _) =
            GoldenSet::parse_lenient(r#"{"question": "q", "must_refuse": true}"#).unwrap();
        let mut case = set.cases()[0].clone();
        let mut gaps = Gaps::default();
        note_unscored(&case, &mut gaps);
        assert!(gaps.warnings().is_empty());
        case.must_refuse = false;
        note_unscored(&case, &mut gaps);
        assert_eq!(gaps.warnings().len(), 3, "{:?}", gaps.warnings());
    }

    #[test]
    fn a_training_file_loads_as_an_outside_set() {
        let text = r#"{"question": "Who appoints the Governor?", "ref": "155", "template": "written"}
{"question": "Right to education?", "ref": "21A"}"#;
        let (set, notes) = GoldenSet::parse_lenient(text).unwrap();
        let refs: Vec<String> = set
            .cases()
            .iter()
            .map(|c| c.expected_refs[0].to_string())
            .collect();
        assert_eq!(refs, ["155", "21A"]);
        assert!(set.cases().iter().all(|c| !c.must_refuse));
        assert!(
            notes.warnings.iter().any(|w| w.contains("`ref`")),
            "{:?}",
            notes.warnings
        );
    }

    #[test]
    fn an_outside_file_loads_leniently_and_lists_what_it_skips() {
        let text = r#"{"question": "What does Art. 21-A say?", "expected_refs": ["Art. 21-A"]}
{"id": "amb", "category": "ambiguous", "question": "What is the term?", "expected_refs": [], "must_refuse": false}
{"id": "oos", "category": "out_of_scope", "question": "Who won the 2011 world cup?"}
{"id": "x", "split": "dev", "category": "factual", "question": "Voting age?", "expected_refs": ["326"], "evidence": "somewhere"}
not json
{"id": "bad", "question": "Who?", "expected_refs": ["banana"]}
{"id": "both", "question": "Both?", "expected_refs": ["21"], "must_refuse": true}
{"id": "amb", "question": "again"}
{"id": "nq", "expected_refs": ["21"]}
{"id": "split", "split": "train", "question": "q"}"#;
        // The strict loader refuses such a file at its first line.
        assert!(GoldenSet::parse(text).is_err());
        let (set, notes) = GoldenSet::parse_lenient(text).unwrap();
        let ids: Vec<&str> = set.cases().iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["line-1", "amb", "oos", "x"]);
        let first = &set.cases()[0];
        assert_eq!(first.expected_refs, vec!["21A".parse::<RefId>().unwrap()]);
        assert_eq!(
            first.question_refs, first.expected_refs,
            "read from the question"
        );
        assert_eq!(
            (first.split, first.category),
            (Split::Test, Category::Other)
        );
        assert!(!first.must_refuse && first.evidence.is_none());
        let amb = set.get("amb").unwrap();
        assert!(amb.expected_refs.is_empty() && !amb.must_refuse);
        assert!(
            set.get("oos").unwrap().must_refuse,
            "out_of_scope is refused"
        );
        let x = set.get("x").unwrap();
        assert_eq!(
            (x.split, x.category, x.evidence.is_none()),
            (Split::Dev, Category::Other, true)
        );
        let skipped: Vec<(usize, &str)> = notes
            .skipped
            .iter()
            .map(|s| (s.line, s.id.as_str()))
            .collect();
        assert_eq!(
            skipped,
            [
                (5, "line-5"),
                (6, "line-6"),
                (7, "line-7"),
                (8, "amb"),
                (9, "line-9"),
                (10, "line-10")
            ]
        );
        assert!(
            notes.skipped[1].reason.contains("banana"),
            "{:?}",
            notes.skipped[1]
        );
        assert!(
            notes.skipped[3].reason.contains("line 2"),
            "{:?}",
            notes.skipped[3]
        );
        // One warning per kind of gap, with its count.
        let w = notes.warnings.join("\n");
        for needle in [
            "3 cases without `evidence`",
            "1 case without `id`",
            "expecting no provision",
            "category outside the contract",
            "as users spell them",
        ] {
            assert!(w.contains(needle), "{needle:?} in\n{w}");
        }
        assert_eq!(
            notes
                .warnings
                .iter()
                .filter(|w| w.contains("`evidence`"))
                .count(),
            2
        );
    }
}
