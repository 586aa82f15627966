//! `nyaya ingest`: file → parse → check coverage → chunk → store, or a no-op when the same file
//! was already ingested by the same parser version.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use sqlx::PgPool;

use nyaya_ingest::chunk::{chunk_provision, HfTokenCounter};
use nyaya_ingest::{Chunk, ParsedDocument, ProvisionKind, PARSER_VERSION};

use crate::answer::extract::all_spans;
use crate::config::Config;
use crate::embed::e5::E5Embedder;
use crate::embed::{embed_all, Embedder, ModelManifest, OnnxEmbedder};
use crate::error::{AppError, AppResult};
use crate::search::bank::{BankCache, Sources};
use crate::store::{self, IngestSummary, StartupLock};

/// The outcome of one ingest: what it found, and whether it was stored.
#[derive(Debug, Clone)]
pub struct IngestOutcome {
    pub summary: IngestSummary,
    /// False when the parse failed the coverage check and nothing was written.
    pub complete: bool,
}

/// Ingests `path` and embeds every clause span an answer can quote: [`ingest_corpus`], then
/// [`embed_spans`], then (unless switched off) [`embed_multilingual`], then the question banks
/// ([`embed_question_bank`]). Never leaves a partial corpus.
pub async fn ingest_file(pool: &PgPool, cfg: &Config, path: &Path) -> AppResult<IngestOutcome> {
    let started = Instant::now();
    let mut outcome = ingest_corpus(pool, cfg, path).await?;
    if outcome.complete && !cfg.no_embed {
        embed_spans(pool, cfg).await?;
        if cfg.multilingual {
            embed_multilingual(pool, cfg).await?;
        }
        embed_question_bank(pool, cfg).await?;
    }
    outcome.summary.seconds = started.elapsed().as_secs_f64();
    Ok(outcome)
}

/// Embeds the question bank's questions ([`crate::search::bank`]) and stores them
/// (`bank_vectors`), so that no process's first question waits for them: the English model's
/// (4,456 questions: 13 s in a release build on 2 idle cores, 52 s beside a debug test run)
/// and, with the multilingual model on, its vectors of the answerable ones, which questions
/// in Indian scripts meet. Only what is not stored is embedded. The bank belongs to a model,
/// not to an edition. Each is embedded by the shape of its model a search embeds with
/// ([`OnnxEmbedder::load`], [`E5Embedder::load`]), so the stored vectors are the ones a search
/// would have made. An embedding failure is an error here, where a search would go on without
/// the bank.
pub async fn embed_question_bank(pool: &PgPool, cfg: &Config) -> AppResult<()> {
    let english: Arc<dyn Embedder> = Arc::new(OnnxEmbedder::load(&cfg.model_dir, &cfg.ort_lib)?);
    ready_bank(pool, &english, Sources::English).await?;
    if cfg.multilingual {
        let multilingual: Arc<dyn Embedder> = Arc::new(E5Embedder::load(&cfg.multilingual_dir)?);
        ready_bank(pool, &multilingual, Sources::CrossLingual).await?;
    }
    Ok(())
}

/// One bank of [`embed_question_bank`], loaded or embedded and stored.
async fn ready_bank(
    pool: &PgPool,
    embedder: &Arc<dyn Embedder>,
    sources: Sources,
) -> AppResult<()> {
    eprintln!(
        "readying the question bank for {} (embedded once per database)",
        embedder.manifest().id
    );
    BankCache::default()
        .get(pool, embedder, sources)
        .await
        .map(|_| ())
        .ok_or_else(|| AppError::Resource("the question bank could not be embedded".into()))
}

/// Ingests `path` and embeds its chunks: everything search needs, committed in one
/// transaction. Clause-span vectors are left to [`embed_spans`], which `nyaya serve` runs after
/// it starts answering (answers embed a missing span on first use meanwhile). Never leaves a
/// partial corpus: any error before the commit leaves the stored corpus as it was.
pub async fn ingest_corpus(pool: &PgPool, cfg: &Config, path: &Path) -> AppResult<IngestOutcome> {
    let started = Instant::now();
    let bytes = read_pdf(path).await?;
    let sha256 = nyaya_ingest::sha256_hex(&bytes);
    if let Some(stored) = store::current_if_same(pool, &sha256, PARSER_VERSION).await? {
        let summary = already_stored(pool, cfg, stored).await?;
        return Ok(IngestOutcome::finished(summary, started, true));
    }

    let corpus = ParsedCorpus::in_background(cfg, bytes).await?;
    let mut summary = corpus.summary(sha256);
    for w in &corpus.doc.warnings {
        tracing::warn!(warning = %w, "parser");
    }
    if !summary.missing.is_empty() || !summary.duplicates.is_empty() {
        summary.changed = false;
        return Ok(IngestOutcome::finished(summary, started, false));
    }
    let name = source_name(path);
    let edition_date = edition_date(path, &corpus.doc.edition)?;
    let stored = corpus.to_store(&summary, &name, edition_date);
    summary.changed = store::replace_corpus(pool, &stored).await?;
    Ok(IngestOutcome::finished(summary, started, true))
}

impl IngestOutcome {
    /// The outcome of an ingest that started at `started` and ends now.
    fn finished(mut summary: IngestSummary, started: Instant, complete: bool) -> IngestOutcome {
        summary.seconds = started.elapsed().as_secs_f64();
        IngestOutcome { summary, complete }
    }
}

/// The PDF's bytes; a file that cannot be read is [`AppError::File`].
async fn read_pdf(path: &Path) -> AppResult<Vec<u8>> {
    tokio::fs::read(path).await.map_err(|e| AppError::File {
        path: path.display().to_string(),
        reason: e.to_string(),
    })
}

/// The summary of a file already stored by this parser version (`changed` false), after
/// embedding the chunks the configured model has no vector for, if any.
async fn already_stored(
    pool: &PgPool,
    cfg: &Config,
    mut summary: IngestSummary,
) -> AppResult<IngestSummary> {
    summary.changed = false;
    // The corpus is the same; the embedding model may not be. Only vectors change then.
    let manifest = ModelManifest::load(&cfg.model_dir)?;
    if !cfg.no_embed && store::chunks_not_embedded_by(pool, &manifest.id).await? > 0 {
        summary.embedded = reembed(pool, cfg).await?;
        summary.model = manifest.id;
        store::update_summary(pool, &summary).await?;
    } else {
        summary.embedded = 0;
    }
    Ok(summary)
}

/// A parsed PDF, cut into chunks, with their vectors (none when the parse is incomplete or
/// embedding is switched off): everything an ingest stores besides its summary.
struct ParsedCorpus {
    doc: ParsedDocument,
    chunks: Vec<Chunk>,
    /// One per chunk, in order, or none.
    vectors: Vec<Vec<f32>>,
    /// The model that made `vectors` ("" when there are none).
    model_id: String,
    pdf: Vec<u8>,
}

impl ParsedCorpus {
    /// [`ParsedCorpus::parse`] on a blocking thread: parsing and embedding are CPU-bound.
    async fn in_background(cfg: &Config, pdf: Vec<u8>) -> AppResult<ParsedCorpus> {
        let cfg = cfg.clone();
        tokio::task::spawn_blocking(move || ParsedCorpus::parse(&cfg, pdf))
            .await
            .map_err(|e| AppError::Resource(format!("ingest task failed: {e}")))?
    }

    /// Parses `pdf`, chunks every provision and, when the parse is complete, embeds the chunks.
    fn parse(cfg: &Config, pdf: Vec<u8>) -> AppResult<ParsedCorpus> {
        let doc = nyaya_ingest::parse_pdf(&pdf, &cfg.pdfium_lib)?;
        let counter = HfTokenCounter::from_dir(&cfg.model_dir).map_err(AppError::Resource)?;
        let chunks: Vec<_> = doc
            .provisions
            .iter()
            .flat_map(|p| chunk_provision(p, &counter, cfg.chunk_tokens))
            .collect();
        // An incomplete parse is reported, not stored: no need to embed it.
        let (vectors, model_id) =
            if doc.missing.is_empty() && doc.duplicates.is_empty() && !cfg.no_embed {
                embed_chunks(cfg, &chunks)?
            } else {
                (Vec::new(), String::new())
            };
        Ok(ParsedCorpus {
            doc,
            chunks,
            vectors,
            model_id,
            pdf,
        })
    }

    /// What the ingest found, for a new file with hash `sha256` (`changed` true, no time yet).
    fn summary(&self, sha256: String) -> IngestSummary {
        let provisions = &self.doc.provisions;
        let count = |k: ProvisionKind| provisions.iter().filter(|p| p.kind == k).count();
        IngestSummary {
            edition: self.doc.edition.clone(),
            sha256,
            parser_version: PARSER_VERSION.to_string(),
            pages: provisions.iter().map(|p| p.page_end).max().unwrap_or(0),
            provisions: provisions.len(),
            articles: count(ProvisionKind::Article),
            schedules: count(ProvisionKind::Schedule),
            appendices: count(ProvisionKind::Appendix),
            chunks: self.chunks.len(),
            amendment_notes: provisions.iter().map(|p| p.amendments.len()).sum(),
            cross_refs: provisions.iter().map(|p| p.cross_refs.len()).sum(),
            missing: self.doc.missing.iter().map(|r| r.to_string()).collect(),
            duplicates: self.doc.duplicates.iter().map(|r| r.to_string()).collect(),
            embedded: self.vectors.len(),
            model: self.model_id.clone(),
            changed: true,
            seconds: 0.0,
        }
    }

    /// Everything [`store::replace_corpus`] writes for this corpus.
    fn to_store<'a>(
        &'a self,
        summary: &'a IngestSummary,
        source_name: &'a str,
        edition_date: chrono::NaiveDate,
    ) -> store::NewCorpus<'a> {
        store::NewCorpus {
            doc: &self.doc,
            chunks: &self.chunks,
            vectors: &self.vectors,
            model_id: &self.model_id,
            summary,
            source_name,
            pdf: &self.pdf,
            edition_date,
        }
    }
}

/// The chunks' vectors from the configured model, and that model's id.
fn embed_chunks(cfg: &Config, chunks: &[Chunk]) -> AppResult<(Vec<Vec<f32>>, String)> {
    let embedder = OnnxEmbedder::load_for_bulk(&cfg.model_dir, &cfg.ort_lib)?;
    let texts: Vec<String> = chunks.iter().map(embedding_text).collect();
    let vectors = embed_all(&embedder, &texts, progress_bar("embedding chunks"))?;
    Ok((vectors, embedder.manifest().id.clone()))
}

/// The file's name as stored with the document ("" for a path without one).
fn source_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default()
}

/// The date on the cover of the edition labelled `edition` (read from `path`).
fn edition_date(path: &Path, edition: &str) -> AppResult<chrono::NaiveDate> {
    // Editions are stored side by side, keyed by the date on the cover.
    nyaya_ingest::diff::edition_date(edition)
        .and_then(|d| chrono::NaiveDate::parse_from_str(&d, "%Y-%m-%d").ok())
        .ok_or_else(|| AppError::File {
            path: path.display().to_string(),
            reason: format!(
                "its cover gives no edition date ({edition:?}); editions are stored by date"
            ),
        })
}

/// What a chunk's vector is made from: its heading line, then its text.
fn embedding_text(c: &nyaya_ingest::Chunk) -> String {
    format!("{}\n{}", c.heading, c.text)
}

/// Embeds the stored chunks that lack a vector from the configured model: all of them after a
/// model change, the rest after an interrupted or `--no-embed` ingest. The corpus is unchanged.
async fn reembed(pool: &PgPool, cfg: &Config) -> AppResult<usize> {
    let model_id = ModelManifest::load(&cfg.model_dir)?.id;
    let chunks = store::chunk_texts_not_embedded_by(pool, &model_id).await?;
    let (dir, lib) = (cfg.model_dir.clone(), cfg.ort_lib.clone());
    let texts: Vec<String> = chunks
        .iter()
        .map(|(_, heading, text)| format!("{heading}\n{text}"))
        .collect();
    let (vectors, model_id) = tokio::task::spawn_blocking(move || -> AppResult<_> {
        let embedder = OnnxEmbedder::load_for_bulk(&dir, &lib)?;
        let vectors = embed_all(&embedder, &texts, progress_bar("re-embedding chunks"))?;
        Ok((vectors, embedder.manifest().id.clone()))
    })
    .await
    .map_err(|e| AppError::Resource(format!("embedding task failed: {e}")))??;
    let ids: Vec<i64> = chunks.iter().map(|(id, _, _)| *id).collect();
    store::replace_vectors(pool, &ids, &vectors, &model_id).await?;
    Ok(vectors.len())
}

/// Embeds every span an answer can quote ([`all_spans`]) that has no stored vector from the
/// configured model, so that an answer embeds only its question (the first answer after a
/// start is then as fast as the hundredth, and ONNX Runtime never sees a hundred-span batch at
/// run time). Outside the corpus transaction: the table is content-addressed, a derived cache
/// that an interrupted run leaves merely incomplete (answers embed what is missing).
pub async fn embed_spans(pool: &PgPool, cfg: &Config) -> AppResult<SpanCounts> {
    let manifest = ModelManifest::load(&cfg.model_dir)?;
    let stored = store::span_texts_embedded_by(pool, &manifest.id).await?;
    let spans = quotable_span_texts(pool).await?;
    let mut missing: std::collections::BTreeMap<String, String> = Default::default();
    for text in &spans {
        let key = format!("{}{text}", manifest.passage_prefix);
        if !stored.contains(&key) {
            missing.insert(key, text.clone());
        }
    }
    let spans = spans.len();
    if missing.is_empty() {
        return Ok(SpanCounts { embedded: 0, spans });
    }
    let (keys, texts): (Vec<String>, Vec<String>) = missing.into_iter().unzip();
    let (dir, lib) = (cfg.model_dir.clone(), cfg.ort_lib.clone());
    let (vectors, model_id) = tokio::task::spawn_blocking(move || -> AppResult<_> {
        let embedder = OnnxEmbedder::load_for_bulk(&dir, &lib)?;
        // embed_all adds the passage prefix, as the keys do.
        let vectors = embed_all(&embedder, &texts, progress_bar("embedding clause spans"))?;
        Ok((vectors, embedder.manifest().id.clone()))
    })
    .await
    .map_err(|e| AppError::Resource(format!("embedding task failed: {e}")))??;
    store::insert_span_vectors(pool, &model_id, &keys, &vectors).await?;
    tracing::info!(spans = keys.len(), model = %model_id, "embedded clause spans");
    Ok(SpanCounts {
        embedded: keys.len(),
        spans,
    })
}

/// The text of every span an answer can quote ([`all_spans`]) in every stored edition, each
/// once: what [`embed_spans`] embeds (the stored keys carry the model's passage prefix).
pub async fn quotable_span_texts(pool: &PgPool) -> AppResult<std::collections::BTreeSet<String>> {
    Ok(store::texts_and_clauses(pool)
        .await?
        .iter()
        .flat_map(|(text, clauses)| all_spans(text, clauses))
        .map(|span| span.text)
        .collect())
}

/// What [`embed_spans`] found: how many spans it embedded, of how many distinct ones the
/// corpus has.
#[derive(Debug, Clone, Copy)]
pub struct SpanCounts {
    pub embedded: usize,
    pub spans: usize,
}

/// Embeds the clause spans that have no vector yet (all of them after a first ingest, none on
/// a later start) while the server already answers, then loads them: until it is done an
/// answer embeds the spans it needs on first use, which is slower but gives the same quotes.
/// Replicas take turns, so the spans are embedded once. Returns how many it embedded.
pub async fn span_pass(pool: PgPool, cfg: Config, models: crate::search::Models) -> usize {
    let run = async {
        let lock = StartupLock::acquire(&pool, StartupLock::SPANS).await?;
        let started = std::time::Instant::now();
        let embedded = embed_spans(&pool, &cfg).await;
        lock.release().await?;
        let counts = embedded?;
        // Loaded when this process lacks some: after embedding them, or in a replica that
        // started before another finished the pass. A start that found them all loaded at
        // start-up loads nothing twice.
        if counts.embedded > 0 || models.passage_cache.len() < counts.spans {
            let loaded = crate::answer::preload_span_vectors(&pool, &models).await?;
            tracing::info!(
                embedded = counts.embedded,
                loaded,
                seconds = started.elapsed().as_secs_f64(),
                "clause-span vectors embedded and loaded"
            );
        }
        Ok::<_, AppError>(counts.embedded)
    };
    run.await.unwrap_or_else(|e| {
        tracing::warn!(error = %e, "clause spans not embedded; answers embed them on first use");
        0
    })
}

/// Embeds, with the multilingual model, every stored chunk text (of any edition) that has no
/// vector from it yet: the dense leg of questions not in English. Each distinct text once, the
/// editions sharing most of theirs. Outside the corpus transaction, like [`embed_spans`]: an
/// interrupted run leaves the leg incomplete, and search keeps questions on the English path
/// until an edition is covered. Returns how many texts it embedded.
pub async fn embed_multilingual(pool: &PgPool, cfg: &Config) -> AppResult<usize> {
    let manifest = ModelManifest::load(&cfg.multilingual_dir)?;
    let missing = store::chunk_texts_without_multilingual(pool, &manifest.id).await?;
    if missing.is_empty() {
        return Ok(0);
    }
    let (hashes, texts): (Vec<String>, Vec<String>) = missing.into_iter().unzip();
    let dir = cfg.multilingual_dir.clone();
    let (vectors, model_id) = tokio::task::spawn_blocking(move || -> AppResult<_> {
        let embedder = E5Embedder::load(&dir)?;
        let vectors = embed_all(
            &embedder,
            &texts,
            progress_bar("embedding chunks for questions in Indian languages"),
        )?;
        Ok((vectors, embedder.manifest().id.clone()))
    })
    .await
    .map_err(|e| AppError::Resource(format!("embedding task failed: {e}")))??;
    store::insert_multilingual_vectors(pool, &model_id, &hashes, &vectors).await?;
    tracing::info!(texts = hashes.len(), model = %model_id, "embedded chunks with the multilingual model");
    Ok(hashes.len())
}

/// [`embed_multilingual`] in the background of `nyaya serve`, replicas taking turns. English
/// questions are answered meanwhile as always; questions in Indian scripts take the English
/// path until their edition's chunks are all embedded. Returns how many texts it embedded.
pub async fn multilingual_pass(pool: PgPool, cfg: Config) -> usize {
    let run = async {
        let lock = StartupLock::acquire(&pool, StartupLock::MULTILINGUAL).await?;
        let started = std::time::Instant::now();
        let embedded = embed_multilingual(&pool, &cfg).await;
        lock.release().await?;
        let embedded = embedded?;
        if embedded > 0 {
            tracing::info!(
                embedded,
                seconds = started.elapsed().as_secs_f64(),
                "multilingual vectors embedded"
            );
        }
        Ok::<_, AppError>(embedded)
    };
    run.await.unwrap_or_else(|e| {
        tracing::warn!(error = %e, "multilingual vectors not embedded; questions in Indian scripts take the English path");
        0
    })
}

/// Ingests, one at a time, every other edition in the default PDF's folder (`corpus/`: the
/// 2022 printing beside the 2024 one) while the server already answers from the default, so
/// that the first start is not twice as long. Each is its own transaction, and a stored one is
/// a no-op; replicas take turns under the corpus lock. Returns how many it stored.
pub async fn edition_pass(pool: PgPool, cfg: Config) -> usize {
    let Some(dir) = cfg.default_pdf.parent().map(Path::to_path_buf) else {
        return 0;
    };
    let pdfs = match crate::editions::corpus_pdfs(&dir) {
        Ok(p) => p,
        Err(e) => {
            tracing::warn!(error = %e, "other editions not ingested");
            return 0;
        }
    };
    let default = std::fs::canonicalize(&cfg.default_pdf).ok();
    let mut stored = 0;
    for pdf in pdfs {
        if std::fs::canonicalize(&pdf).ok() == default {
            continue;
        }
        let run = async {
            let lock = StartupLock::acquire(&pool, StartupLock::CORPUS).await?;
            let outcome = ingest_corpus(&pool, &cfg, &pdf).await;
            lock.release().await?;
            outcome
        };
        match run.await {
            Ok(o) if o.complete => {
                stored += usize::from(o.summary.changed);
                tracing::info!(pdf = %pdf.display(), edition = %o.summary.edition, changed = o.summary.changed, "edition ingested");
            }
            Ok(o) => {
                tracing::warn!(pdf = %pdf.display(), missing = ?o.summary.missing, "edition not stored: incomplete parse")
            }
            Err(e) => tracing::warn!(pdf = %pdf.display(), error = %e, "edition not ingested"),
        }
    }
    stored
}

/// Progress on stderr, one line that redraws itself, at most every 10 %.
fn progress_bar(what: &'static str) -> impl FnMut(usize, usize) {
    let mut last_tenth = 0;
    move |done, total| {
        let tenth = (done * 10).checked_div(total).unwrap_or(10);
        if tenth > last_tenth || done == total {
            last_tenth = tenth;
            eprint!("\r{what}: {done}/{total}");
            if done == total {
                eprintln!();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nyaya_ingest::{Provision, RefId, Status};

    fn provision(id: RefId, page_end: u32) -> Provision {
        Provision {
            kind: id.kind(),
            number: String::new(),
            title: String::new(),
            part: None,
            chapter: None,
            subheading: None,
            status: Status::InForce,
            page_start: 1,
            page_end,
            text: String::new(),
            clauses: Vec::new(),
            amendments: Vec::new(),
            cross_refs: Vec::new(),
            id,
        }
    }

    #[test]
    fn a_summary_counts_what_the_parse_found() {
        let corpus = ParsedCorpus {
            doc: ParsedDocument {
                edition: "As on 1st May, 2024".into(),
                contents: Vec::new(),
                provisions: vec![
                    provision(RefId::preamble(), 1),
                    provision(RefId::article("1").unwrap(), 7),
                    provision(RefId::article("21A").unwrap(), 12),
                    provision(RefId::schedule(7), 9),
                ],
                missing: vec![RefId::appendix(1)],
                duplicates: Vec::new(),
                warnings: vec!["a warning".into()],
            },
            chunks: Vec::new(),
            vectors: vec![vec![0.5; 3]; 2],
            model_id: "m".into(),
            pdf: Vec::new(),
        };
        let s = corpus.summary("abc".into());
        assert_eq!(s.edition, "As on 1st May, 2024");
        assert_eq!(s.sha256, "abc");
        assert_eq!(s.parser_version, PARSER_VERSION);
        assert_eq!(s.pages, 12, "the last page any provision ends on");
        assert_eq!(
            (s.provisions, s.articles, s.schedules, s.appendices),
            (4, 2, 1, 0)
        );
        assert_eq!((s.chunks, s.amendment_notes, s.cross_refs), (0, 0, 0));
        assert_eq!(s.missing, vec![RefId::appendix(1).to_string()]);
        assert!(s.duplicates.is_empty());
        assert_eq!((s.embedded, s.model.as_str()), (2, "m"));
        assert!(s.changed);
        assert_eq!(s.seconds, 0.0);
    }

    #[test]
    fn an_edition_is_stored_under_the_date_on_its_cover() {
        let pdf = Path::new("corpus/x.pdf");
        assert_eq!(
            edition_date(pdf, "As on 1st May, 2024").unwrap(),
            chrono::NaiveDate::from_ymd_opt(2024, 5, 1).unwrap()
        );
        match edition_date(pdf, "The Constitution") {
            Err(AppError::File { path, reason }) => {
                assert_eq!(path, "corpus/x.pdf");
                assert_eq!(
                    reason,
                    "its cover gives no edition date (\"The Constitution\"); editions are stored by date"
                );
            }
            other => panic!("expected AppError::File, got {other:?}"),
        }
    }

    #[test]
    fn a_source_is_named_by_its_file_name() {
        assert_eq!(source_name(Path::new("corpus/a b.pdf")), "a b.pdf");
        assert_eq!(source_name(Path::new("/")), "");
    }
}
