//! The editions in the corpus folder, found by their date, and the diff between two of them
//! as a reader sees it on the command line (`nyaya diff 2022-05-01 2024-05-01`).
//!
//! The comparison itself is `nyaya_ingest::diff` (pure); this module reads the PDFs.

use std::path::{Path, PathBuf};

use nyaya_ingest::diff::{edition_date, ChangeKind, EditionDiff, WordRun};
use nyaya_ingest::ParsedDocument;

use crate::error::AppError;

/// The editions named on the command line, each by its date ("2024-05-01", "2024-05", "2024")
/// or a PDF. Dates are looked up in `corpus_dir`, and each PDF there is parsed at most once.
pub fn load_editions<const N: usize>(
    specs: [&str; N],
    corpus_dir: &Path,
    pdfium_lib: &Path,
) -> Result<[ParsedDocument; N], AppError> {
    let mut found: [Option<ParsedDocument>; N] = std::array::from_fn(|_| None);
    for (slot, spec) in found.iter_mut().zip(specs) {
        let path = Path::new(spec);
        if spec.ends_with(".pdf") || path.is_file() {
            *slot = Some(parse(path, pdfium_lib)?);
        } else if !looks_like_date(spec) {
            return Err(AppError::BadRequest(format!(
                "{spec:?} is neither a PDF nor an edition date (YYYY-MM-DD, YYYY-MM or YYYY)"
            )));
        }
    }
    let mut seen = Vec::new();
    if found.iter().any(Option::is_none) {
        for pdf in corpus_pdfs(corpus_dir)? {
            let doc = parse(&pdf, pdfium_lib)?;
            let date = edition_date(&doc.edition).unwrap_or_default();
            for (slot, spec) in found.iter_mut().zip(specs) {
                if slot.is_none() && date.starts_with(spec) {
                    *slot = Some(doc.clone());
                }
            }
            seen.push(format!("{date} ({})", pdf.display()));
            if found.iter().all(Option::is_some) {
                break;
            }
        }
    }
    let mut out = Vec::with_capacity(N);
    for (slot, spec) in found.into_iter().zip(specs) {
        out.push(slot.ok_or_else(|| {
            AppError::BadRequest(format!(
                "no edition dated {spec} in {}; found: {}",
                corpus_dir.display(),
                if seen.is_empty() {
                    "none".to_string()
                } else {
                    seen.join(", ")
                }
            ))
        })?);
    }
    Ok(out
        .try_into()
        .unwrap_or_else(|_| unreachable!("one document per spec")))
}

fn looks_like_date(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    !parts.is_empty()
        && parts.len() <= 3
        && parts[0].len() == 4
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
}

pub fn corpus_pdfs(dir: &Path) -> Result<Vec<PathBuf>, AppError> {
    let entries = std::fs::read_dir(dir).map_err(|e| AppError::File {
        path: dir.display().to_string(),
        reason: e.to_string(),
    })?;
    let mut pdfs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "pdf"))
        .collect();
    pdfs.sort();
    Ok(pdfs)
}

fn parse(path: &Path, pdfium_lib: &Path) -> Result<ParsedDocument, AppError> {
    let bytes = std::fs::read(path).map_err(|e| AppError::File {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    Ok(nyaya_ingest::parse_pdf(&bytes, pdfium_lib)?)
}

/// The diff as text: a summary line, then one block per changed provision with its Acts and
/// its changed words in context (`[-old-]{+new+}`, as `git diff --word-diff` writes them).
pub fn render_text(d: &EditionDiff) -> String {
    let count = |k: ChangeKind| d.changes.iter().filter(|c| c.kind == k).count();
    let mut out = format!(
        "{} ({}) → {} ({}): {} amended, {} inserted, {} omitted, {} revised in printing; {} unchanged\n",
        d.from.label,
        d.from.date.as_deref().unwrap_or("?"),
        d.to.label,
        d.to.date.as_deref().unwrap_or("?"),
        count(ChangeKind::Amended),
        count(ChangeKind::Inserted),
        count(ChangeKind::Omitted),
        count(ChangeKind::Revised),
        d.unchanged
    );
    for kind in [
        ChangeKind::Amended,
        ChangeKind::Inserted,
        ChangeKind::Omitted,
        ChangeKind::Revised,
    ] {
        for c in d.changes.iter().filter(|c| c.kind == kind) {
            out.push_str(&format!("\n{} {}\n", kind.as_str(), c.heading));
            for act in &c.acts {
                let clause = act
                    .clause
                    .as_deref()
                    .map(|l| format!(" {l}"))
                    .unwrap_or_default();
                let from = act
                    .effective_from
                    .as_deref()
                    .map(|d| format!(", w.e.f. {d}"))
                    .unwrap_or_default();
                out.push_str(&format!(
                    "  by the {} ({}{clause}{from})\n",
                    act.instrument,
                    format!("{:?}", act.kind).to_lowercase()
                ));
            }
            if let (Some(a), Some(b)) = (&c.title_from, &c.title_to) {
                out.push_str(&format!("  title: {a:?} → {b:?}\n"));
            }
            for line in changed_words(&c.words, 8) {
                out.push_str(&format!("  {line}\n"));
            }
        }
    }
    out
}

/// Each change with up to `context` words either side, as `[-removed-]{+added+}`.
fn changed_words(runs: &[WordRun], context: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut i = 0;
    while i < runs.len() {
        if matches!(runs[i], WordRun::Same(_)) {
            i += 1;
            continue;
        }
        let before = match i.checked_sub(1).map(|j| &runs[j]) {
            Some(WordRun::Same(s)) => tail_words(s, context),
            _ => String::new(),
        };
        let mut line = format!("…{before}");
        while i < runs.len() {
            match &runs[i] {
                WordRun::Removed(s) => line.push_str(&format!("[-{}-]", shortened(s))),
                WordRun::Added(s) => line.push_str(&format!("{{+{}+}}", shortened(s))),
                WordRun::Same(s) if s.split_whitespace().count() <= 2 => line.push_str(s),
                WordRun::Same(_) => break,
            }
            i += 1;
        }
        if let Some(WordRun::Same(s)) = runs.get(i) {
            line.push_str(&head_words(s, context));
        }
        line.push('…');
        lines.push(line);
    }
    lines
}

/// A long run (an inserted clause) as its first and last words; `--json` has it whole.
fn shortened(s: &str) -> String {
    let words: Vec<&str> = s.split_whitespace().collect();
    if words.len() <= RUN_WORDS {
        return words.join(" ");
    }
    format!(
        "{} … ({} words) … {}",
        words[..RUN_WORDS / 2].join(" "),
        words.len(),
        words[words.len() - RUN_WORDS / 4..].join(" ")
    )
}

/// Words of a changed run shown on the command line.
const RUN_WORDS: usize = 40;

fn tail_words(s: &str, n: usize) -> String {
    let words: Vec<&str> = s.split_whitespace().collect();
    let tail = words[words.len().saturating_sub(n)..].join(" ");
    if tail.is_empty() {
        tail
    } else {
        format!("{tail} ")
    }
}

fn head_words(s: &str, n: usize) -> String {
    let head = s.split_whitespace().take(n).collect::<Vec<_>>().join(" ");
    if head.is_empty() {
        head
    } else {
        format!(" {head}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nyaya_ingest::diff::word_runs;

    #[test]
    fn dates_and_files_are_told_apart() {
        assert!(looks_like_date("2024-05-01"));
        assert!(looks_like_date("2022-05"));
        assert!(looks_like_date("2024"));
        assert!(!looks_like_date("last year"));
        assert!(!looks_like_date("24-05-01"));
        let err = load_editions(["yesterday"], Path::new("corpus"), Path::new("x")).unwrap_err();
        assert!(err
            .to_string()
            .contains("neither a PDF nor an edition date"));
    }

    #[test]
    fn changed_words_show_context_and_both_sides() {
        let runs = word_runs(
            "the Union territory of Pondicherry. And more words follow here",
            "the Union territory of Puducherry. And more words follow here",
        );
        let lines = changed_words(&runs, 3);
        assert_eq!(lines.len(), 1);
        assert!(
            lines[0].contains("territory of [-Pondicherry.-]{+Puducherry.+}"),
            "{}",
            lines[0]
        );
        assert!(lines[0].ends_with("And more words…"), "{}", lines[0]);
    }
}
