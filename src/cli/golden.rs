//! Which golden cases a command runs: `GoldenArgs` (`--split`, `--golden`, `--paraphrases`)
//! loaded into a `Selection`.

use std::path::PathBuf;

use nyaya::error::AppError;

/// Which golden cases to run.
#[derive(Debug, clap::Args)]
pub(crate) struct GoldenArgs {
    /// dev | test | all (default: dev for the shipped set, all for a file given with --golden)
    #[arg(long)]
    pub(super) split: Option<String>,
    /// A golden set (default: eval/golden/single_turn.jsonl). A file outside eval/golden/ is
    /// read leniently: what it lacks is warned about once and left unscored, and the cases it
    /// cannot score are listed and skipped.
    #[arg(long)]
    pub(super) golden: Option<PathBuf>,
    /// A paraphrase suite (default: eval/golden/paraphrases.jsonl with the shipped set, none
    /// with another).
    #[arg(long)]
    pub(super) paraphrases: Option<PathBuf>,
}

/// The cases of one run, and the paraphrase groups that belong to them.
pub(super) struct Selection {
    pub(super) cases: Vec<nyaya_eval::GoldenCase>,
    /// "dev", "test" or "all".
    pub(super) split: String,
    paraphrases: Option<nyaya_eval::ParaphraseSet>,
    /// The shipped golden set (so its eligibility cases go with it).
    shipped: bool,
    /// Where this run's figures sit in the baseline file: the split for the shipped set,
    /// "<file stem>/<split>" for any other (the multilingual set's figures are not the
    /// English set's).
    pub(super) baseline_key: String,
}

impl Selection {
    /// The shipped eligibility cases of this split (none with a golden file of one's own).
    pub(super) fn eligibility_cases(
        &self,
    ) -> Result<Option<Vec<nyaya_eval::EligibilityCase>>, AppError> {
        if !self.shipped {
            return Ok(None);
        }
        let path = nyaya_eval::default_eligibility_path();
        let text = std::fs::read_to_string(&path)
            .map_err(|e| AppError::Resource(format!("{}: {e}", path.display())))?;
        let cases = nyaya_eval::eligibility::parse(&text)
            .map_err(|e| AppError::BadRequest(format!("{}: {e}", path.display())))?;
        Ok(Some(
            cases
                .into_iter()
                .filter(|c| self.split == "all" || c.split.as_str() == self.split)
                .collect(),
        ))
    }

    pub(super) fn paraphrase_groups(&self) -> Vec<&nyaya_eval::Paraphrase> {
        self.paraphrases
            .as_ref()
            .map(|p| p.for_cases(&self.cases))
            .unwrap_or_default()
    }
}

impl GoldenArgs {
    /// Whether `path` is one of the shipped golden files held to the whole contract: the
    /// multilingual set, which has no evidence or categories, is read leniently.
    fn is_shipped(path: &std::path::Path) -> bool {
        let dir = nyaya_eval::default_golden_path()
            .parent()
            .and_then(|d| d.canonicalize().ok());
        let canonical = path.canonicalize().ok();
        let parent = canonical
            .as_deref()
            .and_then(|p| p.parent().map(PathBuf::from));
        dir.is_some()
            && dir == parent
            && canonical != nyaya_eval::default_multilingual_path().canonicalize().ok()
    }

    pub(super) fn load(&self) -> Result<Selection, AppError> {
        let bad = |path: &std::path::Path, e: nyaya_eval::GoldenError| {
            AppError::BadRequest(format!("{}: {e}", path.display()))
        };
        let path = self
            .golden
            .clone()
            .unwrap_or_else(nyaya_eval::default_golden_path);
        let shipped = Self::is_shipped(&path);
        let set = if shipped {
            nyaya_eval::GoldenSet::load(&path).map_err(|e| bad(&path, e))?
        } else {
            let (set, notes) =
                nyaya_eval::GoldenSet::load_lenient(&path).map_err(|e| bad(&path, e))?;
            for w in &notes.warnings {
                eprintln!("warning: {}: {w}", path.display());
            }
            for s in &notes.skipped {
                eprintln!(
                    "skipped: {} line {} ({}): {}",
                    path.display(),
                    s.line,
                    s.id,
                    s.reason
                );
            }
            set
        };
        let split = self
            .split
            .clone()
            .unwrap_or_else(|| if self.golden.is_none() { "dev" } else { "all" }.to_string());
        let cases: Vec<nyaya_eval::GoldenCase> = match split.as_str() {
            "all" => set.cases().to_vec(),
            "dev" => set.split(nyaya_eval::Split::Dev).cloned().collect(),
            "test" => set.split(nyaya_eval::Split::Test).cloned().collect(),
            other => {
                return Err(AppError::BadRequest(format!(
                    "--split must be dev, test or all, not {other:?}"
                )))
            }
        };
        if cases.is_empty() {
            return Err(AppError::BadRequest(format!(
                "{} has no {split} cases",
                path.display()
            )));
        }
        let paraphrase_path = match (&self.paraphrases, shipped) {
            (Some(p), _) => Some(p.clone()),
            (None, true) => Some(nyaya_eval::paraphrase::default_paraphrases_path()),
            (None, false) => None,
        };
        let paraphrases = paraphrase_path
            .map(|p| nyaya_eval::ParaphraseSet::load(&p, &set).map_err(|e| bad(&p, e)))
            .transpose()?;
        let baseline_key = if shipped {
            split.clone()
        } else {
            let stem = path
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("golden");
            format!("{stem}/{split}")
        };
        Ok(Selection {
            cases,
            split,
            paraphrases,
            shipped,
            baseline_key,
        })
    }
}
