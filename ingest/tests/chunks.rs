//! Chunking the real corpus with the bundled MiniLM tokenizer.

mod common;

use nyaya_ingest::chunk::{chunk_provision, HfTokenCounter, TokenCounter, DEFAULT_MAX_TOKENS};

#[test]
fn chunks_fit_the_budget_and_tile_each_provision() {
    let counter =
        HfTokenCounter::from_dir(&common::model_dir()).expect("tokenizer (run `make setup`)");
    // The shipped tokenizer truncates at 128; the counter must not.
    let long = "word ".repeat(400);
    assert!(counter.count(&long) > 400);

    let mut split = 0;
    for p in &common::DOC_2024.provisions {
        let chunks = chunk_provision(p, &counter, DEFAULT_MAX_TOKENS);
        assert!(!chunks.is_empty(), "{}", p.id);
        if chunks.len() > 1 {
            split += 1;
        }
        let mut last_end = 0;
        for c in &chunks {
            assert!(
                c.tokens as usize <= DEFAULT_MAX_TOKENS,
                "{} chunk {} has {} tokens",
                p.id,
                c.seq,
                c.tokens
            );
            assert!(c.start >= last_end, "{}: chunks overlap", p.id);
            let slice: String = p.text.chars().skip(c.start).take(c.end - c.start).collect();
            assert_eq!(slice, c.text, "{}: offsets slice the text", p.id);
            assert!(c.heading.starts_with(&match p.kind {
                nyaya_ingest::ProvisionKind::Article => format!("Article {}", p.id),
                _ => String::new(),
            }));
            last_end = c.end;
        }
        // Nothing but whitespace falls between chunks.
        let covered: usize = chunks
            .iter()
            .map(|c| c.text.split_whitespace().count())
            .sum();
        assert_eq!(
            covered,
            p.text.split_whitespace().count(),
            "{}: every word is in a chunk",
            p.id
        );
    }
    assert!(split > 50, "long provisions are split ({split})");

    // Article 19 splits at clause boundaries: each chunk starts with a clause label.
    let a19 = common::get(&common::DOC_2024, "19");
    let chunks = chunk_provision(a19, &counter, DEFAULT_MAX_TOKENS);
    assert!(chunks.len() >= 2);
    for c in &chunks {
        assert!(
            c.text.starts_with('('),
            "chunk of 19 starts mid-clause: {:.40}",
            c.text
        );
        assert!(!c.clause_labels.is_empty());
    }
}
