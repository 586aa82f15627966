//! `nyaya-eval`: the evaluation harness's pure half — the golden set and the metrics.
//!
//! What it is:
//! - [`golden`]: the types of the golden-set JSONL contract (`eval/golden/*.jsonl`) and a
//!   loader that validates every line and reports errors by line and field.
//! - [`metrics`]: Recall@k, MRR@10, nDCG@5, lookup Hit@1, candidate recall@K, refusal
//!   accuracy, false-refusal rate and nearest-rank latency percentiles, each defined once,
//!   and a [`Report`] that averages them over a run's [`CaseResult`]s.
//!
//! - [`scorecard`]: a run's pinned and unpinned reports as the figures `nyaya eval` prints,
//!   and the Markdown report.
//! - [`answers`]: the answer pipeline's metrics (citation validity, refusals, routes, what a
//!   reader sees first, citation precision), overall and per category.
//! - [`eligibility`]: the eligibility golden set (`eval/golden/eligibility.jsonl`) and verdict
//!   accuracy.
//! - [`paraphrase`]: the paraphrase suite (`eval/golden/paraphrases.jsonl`) and paraphrase
//!   consistency.
//! - [`gates`]: `eval/gates.toml` and `eval/baseline.json`, and the check that fails a run.
//! - [`dumpdiff`]: two runs' `--dump` files compared case by case (`nyaya eval-diff`): which
//!   leads turned right or wrong, which refusals changed.
//!
//! What it is not: it runs no search, opens no database or socket, and reads no file except
//! one it is given a path to. The service's command line drives it: it asks the search for a
//! ranking per case, times it, builds [`CaseResult`]s and hands them to [`Report::new`] (once
//! per run it wants to compare, e.g. pinned and unpinned). Whether each case's evidence really
//! is in the Constitution is checked against the parsed PDF by `tests/evidence.rs`.

pub mod answers;
pub mod dumpdiff;
pub mod eligibility;
pub mod gates;
pub mod golden;
pub mod metrics;
pub mod paraphrase;
pub mod scorecard;
pub mod wording;

pub use answers::{evidence_quoted, AnswerCard, AnswerOutcome};
pub use eligibility::{EligibilityCard, EligibilityCase, EligibilityOutcome};
pub use gates::{check as check_gates, Baseline, GateResult, Gates, GatesError};
pub use golden::{
    Category, Evidence, GoldenCase, GoldenError, GoldenSet, LenientNotes, SkippedCase, Split,
};
pub use metrics::{CaseMetrics, CaseResult, Report, ReportError, ReportOptions, Summary};
pub use paraphrase::{Paraphrase, ParaphraseCard, ParaphraseSet};
pub use scorecard::{Failure, Scorecard};
pub use wording::WordingCard;

/// The eligibility cases shipped with the crate: `eval/golden/eligibility.jsonl`.
pub fn default_eligibility_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/eligibility.jsonl")
}

/// The golden set shipped with the crate: `eval/golden/single_turn.jsonl`.
pub fn default_golden_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/single_turn.jsonl")
}

/// The multilingual golden set (`golden/multilingual.jsonl`, described in
/// `golden/multilingual.md`): questions in Indian languages with a `lang` field and their
/// refs, without the English set's evidence and categories; read leniently, reported per
/// language.
pub fn default_multilingual_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/multilingual.jsonl")
}
