//! `nyaya ingest`: file → parse → check coverage → chunk → store, or a no-op when the same file
//! was already ingested by the same parser version.

use std::path::Path;
use std::time::Instant;

use sqlx::PgPool;

use nyaya_ingest::chunk::{chunk_provision, HfTokenCounter};
use nyaya_ingest::{ProvisionKind, PARSER_VERSION};

use crate::config::Config;
use crate::error::{AppError, AppResult};
use crate::store::{self, IngestSummary};

/// The outcome of one ingest: what it found, and whether it was stored.
#[derive(Debug, Clone)]
pub struct IngestOutcome {
    pub summary: IngestSummary,
    /// False when the parse failed the coverage check and nothing was written.
    pub complete: bool,
}

/// Ingests `path`. Never leaves a partial corpus: any error before the commit leaves the stored
/// corpus as it was.
pub async fn ingest_file(pool: &PgPool, cfg: &Config, path: &Path) -> AppResult<IngestOutcome> {
    let started = Instant::now();
    let bytes = tokio::fs::read(path).await.map_err(|e| AppError::File {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    let sha256 = nyaya_ingest::sha256_hex(&bytes);
    if let Some(mut summary) = store::current_if_same(pool, &sha256, PARSER_VERSION).await? {
        summary.changed = false;
        summary.seconds = started.elapsed().as_secs_f64();
        return Ok(IngestOutcome {
            summary,
            complete: true,
        });
    }

    let lib = cfg.pdfium_lib.clone();
    let tokenizer_dir = cfg.tokenizer_dir.clone();
    let max_tokens = cfg.chunk_tokens;
    let (doc, chunks, pages, bytes) = tokio::task::spawn_blocking(move || -> AppResult<_> {
        let doc = nyaya_ingest::parse_pdf(&bytes, &lib)?;
        let counter = HfTokenCounter::from_dir(&tokenizer_dir).map_err(AppError::Resource)?;
        let chunks: Vec<_> = doc
            .provisions
            .iter()
            .flat_map(|p| chunk_provision(p, &counter, max_tokens))
            .collect();
        let pages = doc.provisions.iter().map(|p| p.page_end).max().unwrap_or(0);
        Ok((doc, chunks, pages, bytes))
    })
    .await
    .map_err(|e| AppError::Resource(format!("ingest task failed: {e}")))??;

    let count = |k: ProvisionKind| doc.provisions.iter().filter(|p| p.kind == k).count();
    let mut summary = IngestSummary {
        edition: doc.edition.clone(),
        sha256,
        parser_version: PARSER_VERSION.to_string(),
        pages,
        provisions: doc.provisions.len(),
        articles: count(ProvisionKind::Article),
        schedules: count(ProvisionKind::Schedule),
        appendices: count(ProvisionKind::Appendix),
        chunks: chunks.len(),
        amendment_notes: doc.provisions.iter().map(|p| p.amendments.len()).sum(),
        cross_refs: doc.provisions.iter().map(|p| p.cross_refs.len()).sum(),
        missing: doc.missing.iter().map(|r| r.to_string()).collect(),
        duplicates: doc.duplicates.iter().map(|r| r.to_string()).collect(),
        changed: true,
        seconds: 0.0,
    };
    for w in &doc.warnings {
        tracing::warn!(warning = %w, "parser");
    }
    if !summary.missing.is_empty() || !summary.duplicates.is_empty() {
        summary.changed = false;
        summary.seconds = started.elapsed().as_secs_f64();
        return Ok(IngestOutcome {
            summary,
            complete: false,
        });
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    summary.changed = store::replace_corpus(pool, &doc, &chunks, &summary, &name, &bytes).await?;
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(IngestOutcome {
        summary,
        complete: true,
    })
}
