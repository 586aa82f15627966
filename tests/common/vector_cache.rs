//! Vectors shared by every test binary: the bundled model's vector of each text it was asked
//! to embed, kept in one file under `.cache/` keyed by the model and the exact text.
//!
//! Each test that needs a corpus with vectors gets a fresh database (`#[sqlx::test]`), and
//! embedding the corpus's chunks and clause spans costs a minute or more per database on two
//! cores; five test binaries did it, about five minutes of every CI run. The model is
//! deterministic, so a text's vector is the same in every database: the first binary embeds,
//! the others read. A text not in the file (the parser or the chunker changed it) is embedded
//! and added. `tests/embed.rs` still drives the real ingest embedding end to end.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::PathBuf;

/// The file for `model_id` (a model id is not a file name: it holds `/` and `@`).
pub fn path(model_id: &str) -> PathBuf {
    let name: String = model_id
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    super::repo_path(&format!(".cache/test-vectors/{name}.bin"))
}

/// Reads the file: (text length, text, dimension, floats) per entry, little-endian. A file
/// that cannot be read whole counts as empty (it is rewritten).
pub fn load(model_id: &str) -> HashMap<String, Vec<f32>> {
    let mut bytes = Vec::new();
    let Ok(mut f) = std::fs::File::open(path(model_id)) else {
        return HashMap::new();
    };
    if f.read_to_end(&mut bytes).is_err() {
        return HashMap::new();
    }
    parse(&bytes).unwrap_or_default()
}

pub fn parse(mut b: &[u8]) -> Option<HashMap<String, Vec<f32>>> {
    fn take<'a>(b: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
        (b.len() >= n).then(|| {
            let (head, rest) = b.split_at(n);
            *b = rest;
            head
        })
    }
    let u32_of = |b: &mut &[u8]| take(b, 4).map(|x| u32::from_le_bytes(x.try_into().unwrap()));
    let mut out = HashMap::new();
    while !b.is_empty() {
        let n = u32_of(&mut b)? as usize;
        let text = String::from_utf8(take(&mut b, n)?.to_vec()).ok()?;
        let dim = u32_of(&mut b)? as usize;
        let floats = take(&mut b, dim * 4)?
            .chunks_exact(4)
            .map(|x| f32::from_le_bytes(x.try_into().unwrap()))
            .collect();
        out.insert(text, floats);
    }
    Some(out)
}

/// Writes the whole map through a temporary file and a rename, so that a binary reading the
/// file while another writes it sees the old file or the new one, never half of one.
pub fn save(model_id: &str, vectors: &HashMap<String, Vec<f32>>) {
    let target = path(model_id);
    let Some(dir) = target.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let mut keys: Vec<&String> = vectors.keys().collect();
    keys.sort();
    let mut bytes = Vec::new();
    for k in keys {
        let v = &vectors[k];
        bytes.extend((k.len() as u32).to_le_bytes());
        bytes.extend(k.as_bytes());
        bytes.extend((v.len() as u32).to_le_bytes());
        for x in v {
            bytes.extend(x.to_le_bytes());
        }
    }
    let tmp = dir.join(format!(
        ".{}-{:?}.tmp",
        std::process::id(),
        std::thread::current().id()
    ));
    let written = std::fs::File::create(&tmp).and_then(|mut f| f.write_all(&bytes));
    if written.is_err() || std::fs::rename(&tmp, &target).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// The vectors of `texts` (as the ingest embeds them: without the passage prefix) from the
/// model `model_id`: from the file where it has them, the rest by `embed`, and added to it.
pub fn vectors_of(
    model_id: &str,
    texts: &[String],
    embed: impl FnOnce(&[String]) -> Vec<Vec<f32>>,
) -> Vec<Vec<f32>> {
    let mut cache = load(model_id);
    let missing: Vec<String> = texts
        .iter()
        .filter(|t| !cache.contains_key(*t))
        .cloned()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    if !missing.is_empty() {
        let vectors = embed(&missing);
        cache.extend(missing.into_iter().zip(vectors));
        save(model_id, &cache);
    }
    texts.iter().map(|t| cache[t].clone()).collect()
}
