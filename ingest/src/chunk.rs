//! Provisions → retrieval chunks that fit the embedding model's budget.
//!
//! One chunk per provision when it fits. A longer provision is cut at the coarsest boundary
//! that works: top-level clauses, then sub-clauses and provisos, then paragraphs, then
//! sentences, and only then words — so a chunk never starts mid-clause unless one clause alone
//! is too long for the model.

use std::path::Path;

use crate::model::{Chunk, ClauseKind, Provision};

/// Counts tokens the way the embedding model will.
pub trait TokenCounter {
    fn count(&self, text: &str) -> usize;
}

/// The bundled MiniLM WordPiece tokenizer (`tokenizer.json`).
pub struct HfTokenCounter(tokenizers::Tokenizer);

impl HfTokenCounter {
    /// Loads `dir/tokenizer.json`.
    pub fn from_dir(dir: &Path) -> Result<Self, String> {
        let path = dir.join("tokenizer.json");
        let mut tok = tokenizers::Tokenizer::from_file(&path).map_err(|e| {
            format!(
                "cannot load tokenizer {}: {e} (run `make setup`, or set NYAYA_MODEL_DIR)",
                path.display()
            )
        })?;
        // The shipped tokenizer truncates at 128 pieces; a counter must see every piece.
        tok.with_truncation(None).map_err(|e| e.to_string())?;
        tok.with_padding(None);
        Ok(Self(tok))
    }
}

impl TokenCounter for HfTokenCounter {
    fn count(&self, text: &str) -> usize {
        self.0
            .encode(text, true)
            .map(|e| e.get_ids().len())
            .unwrap_or_else(|_| text.split_whitespace().count() * 2)
    }
}

/// Default budget: MiniLM was trained on 256 word pieces.
pub const DEFAULT_MAX_TOKENS: usize = 256;

/// Cuts one provision into chunks of at most `max_tokens` (heading included).
pub fn chunk_provision(p: &Provision, counter: &dyn TokenCounter, max_tokens: usize) -> Vec<Chunk> {
    let heading = p.heading_line();
    let chars: Vec<char> = p.text.chars().collect();
    let total = chars.len();
    let slice = |s: usize, e: usize| -> String { chars[s..e].iter().collect() };
    let fits =
        |s: usize, e: usize| counter.count(&format!("{heading}\n{}", slice(s, e))) <= max_tokens;

    let mut ranges: Vec<(usize, usize)> = Vec::new();
    split(p, &chars, 0, total, 0, &fits, &mut ranges);

    ranges
        .into_iter()
        .enumerate()
        .map(|(seq, (s, e))| {
            let (s, e) = trim_range(&chars, s, e);
            let text = slice(s, e);
            let clause_labels = p
                .clauses
                .iter()
                .filter(|c| (c.start >= s && c.start < e) || (c.start <= s && s < c.end))
                .filter(|c| total_outside(c.start, c.end, s, e) || c.start >= s)
                .map(|c| c.label.clone())
                .collect();
            let tokens = counter.count(&format!("{heading}\n{text}")) as u32;
            Chunk {
                provision: p.id.clone(),
                seq: seq as u32,
                clause_labels,
                start: s,
                end: e,
                heading: heading.clone(),
                text,
                tokens,
            }
        })
        .collect()
}

fn total_outside(cs: usize, ce: usize, s: usize, e: usize) -> bool {
    cs <= s && ce >= e
}

fn trim_range(chars: &[char], mut s: usize, mut e: usize) -> (usize, usize) {
    while s < e && chars[s].is_whitespace() {
        s += 1;
    }
    while e > s && chars[e - 1].is_whitespace() {
        e -= 1;
    }
    (s, e)
}

/// Boundaries to try, coarsest first. Level 0: top-level clauses; 1: any clause, proviso or
/// Explanation; 2: paragraphs; 3: sentence ends; 4: words.
fn boundaries(p: &Provision, chars: &[char], s: usize, e: usize, level: u8) -> Vec<usize> {
    let inside = |x: usize| x > s && x < e;
    let mut b: Vec<usize> = match level {
        0 => p
            .clauses
            .iter()
            .filter(|c| {
                matches!(c.kind, ClauseKind::Clause | ClauseKind::ScheduleItem)
                    || !c.label.starts_with('(')
            })
            .map(|c| c.start)
            .filter(|x| inside(*x))
            .collect(),
        1 => p
            .clauses
            .iter()
            .map(|c| c.start)
            .filter(|x| inside(*x))
            .collect(),
        2 => (s + 1..e).filter(|&i| chars[i - 1] == '\n').collect(),
        3 => (s + 1..e)
            .filter(|&i| {
                chars[i - 1] == ' ' && i >= 2 && matches!(chars[i - 2], '.' | ';' | ':' | '—')
            })
            .collect(),
        _ => (s + 1..e).filter(|&i| chars[i - 1] == ' ').collect(),
    };
    b.sort_unstable();
    b.dedup();
    b
}

fn split(
    p: &Provision,
    chars: &[char],
    s: usize,
    e: usize,
    level: u8,
    fits: &dyn Fn(usize, usize) -> bool,
    out: &mut Vec<(usize, usize)>,
) {
    if fits(s, e) || e - s <= 1 {
        out.push((s, e));
        return;
    }
    if level > 4 {
        // A single word longer than the budget: keep it whole rather than cut a word.
        out.push((s, e));
        return;
    }
    let cuts = boundaries(p, chars, s, e, level);
    if cuts.is_empty() {
        split(p, chars, s, e, level + 1, fits, out);
        return;
    }
    // Pieces between cuts, packed greedily; a piece that alone is too big is split finer.
    let mut points = vec![s];
    points.extend(cuts);
    points.push(e);
    let mut start = points[0];
    let mut i = 1;
    while i < points.len() {
        let piece_end = points[i];
        if fits(start, piece_end) {
            // Try to extend further.
            let mut j = i;
            while j + 1 < points.len() && fits(start, points[j + 1]) {
                j += 1;
            }
            out.push((start, points[j]));
            start = points[j];
            i = j + 1;
        } else {
            // Even the single piece [start, piece_end) is too big.
            split(p, chars, start, piece_end, level + 1, fits, out);
            start = piece_end;
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Clause, Status};
    use crate::refid::{ProvisionKind, RefId};

    /// One token per whitespace-separated word, for tests that need no model files.
    struct Words;
    impl TokenCounter for Words {
        fn count(&self, text: &str) -> usize {
            text.split_whitespace().count()
        }
    }

    fn provision(text: &str, clauses: Vec<Clause>) -> Provision {
        Provision {
            id: RefId::article("19").unwrap(),
            kind: ProvisionKind::Article,
            number: "19".into(),
            title: "Protection".into(),
            part: None,
            chapter: None,
            subheading: None,
            status: Status::InForce,
            page_start: 1,
            page_end: 1,
            text: text.into(),
            clauses,
            amendments: vec![],
            cross_refs: vec![],
        }
    }

    fn clause(
        label: &str,
        kind: ClauseKind,
        text: &str,
        needle: &str,
        end_needle: Option<&str>,
    ) -> Clause {
        let start = text[..text.find(needle).unwrap()].chars().count();
        let end = end_needle
            .map(|n| text[..text.find(n).unwrap()].chars().count())
            .unwrap_or(text.chars().count());
        Clause {
            label: label.into(),
            kind,
            start,
            end,
        }
    }

    #[test]
    fn short_provision_is_one_chunk() {
        let p = provision("No person shall be deprived of his life.", vec![]);
        let chunks = chunk_provision(&p, &Words, 100);
        assert_eq!(chunks.len(), 1);
        assert_eq!(chunks[0].text, p.text);
        assert_eq!(
            (chunks[0].start, chunks[0].end),
            (0, p.text.chars().count())
        );
    }

    #[test]
    fn long_provision_splits_at_clause_boundaries() {
        let text = "(1) one two three four five six.\n(2) seven eight nine ten eleven twelve.\n(3) a b c d e f.";
        let clauses = vec![
            clause("(1)", ClauseKind::Clause, text, "(1)", Some("(2)")),
            clause("(2)", ClauseKind::Clause, text, "(2)", Some("(3)")),
            clause("(3)", ClauseKind::Clause, text, "(3)", None),
        ];
        let p = provision(text, clauses);
        // Heading is 4 words; each clause is 7 words → one clause per chunk at a budget of 12.
        let chunks = chunk_provision(&p, &Words, 12);
        assert_eq!(chunks.len(), 3);
        assert!(chunks[0].text.starts_with("(1)"));
        assert!(chunks[1].text.starts_with("(2)"));
        assert_eq!(chunks[1].clause_labels, vec!["(2)".to_string()]);
        // Offsets slice the provision text back to the chunk.
        for c in &chunks {
            let s: String = text.chars().skip(c.start).take(c.end - c.start).collect();
            assert_eq!(s, c.text);
            assert!(c.tokens <= 12);
        }
    }

    #[test]
    fn one_clause_too_long_splits_at_sentences() {
        let text = "(1) a b c d e. f g h i j. k l m n o.";
        let p = provision(
            text,
            vec![clause("(1)", ClauseKind::Clause, text, "(1)", None)],
        );
        let chunks = chunk_provision(&p, &Words, 10);
        assert!(chunks.len() >= 2);
        assert!(chunks.iter().all(|c| c.tokens <= 10));
        assert!(chunks[1].text.starts_with('f') || chunks[1].text.starts_with('k'));
    }
}
