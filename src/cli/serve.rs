//! `nyaya serve`: the HTTP API, with the corpus ingested on an empty database and the
//! background passes and the audit purge started.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;

use nyaya::answer::settings::AnswerSettings;
use nyaya::config::Config;
use nyaya::error::AppError;
use nyaya::llm::LlmClient;
use nyaya::search::SearchOptions;
use nyaya::store::StartupLock;
use nyaya::{db, http, ingest};

use super::models::{load_cross_encoder, load_embedder, load_multilingual};

/// `nyaya serve`: the HTTP API, ingesting the default PDF first on an empty database.
pub(crate) async fn serve_command(
    cfg: Config,
    search: SearchOptions,
    answer: AnswerSettings,
    addr: SocketAddr,
) -> Result<ExitCode, AppError> {
    let pool = db::connect(&cfg.database_url).await?;
    let (multilingual, english_questions) = load_multilingual(&cfg);
    let models = nyaya::search::Models {
        embedder: load_embedder(&cfg),
        cross_encoder: load_cross_encoder(&cfg),
        multilingual,
        second_dense: english_questions,
        ..Default::default()
    };
    ensure_corpus_and_bank(&pool, &cfg, &models, &search).await?;
    let spans = nyaya::answer::preload_span_vectors(&pool, &models).await?;
    tracing::info!(spans, "clause-span vectors loaded");
    spawn_background_passes(pool.clone(), cfg.clone(), models.clone());
    let llm = LlmClient::from_config(&cfg).map_err(AppError::Resource)?;
    if let Some(l) = &llm {
        tracing::info!(base_url = %l.config.primary.base_url, model = %l.config.primary.model, fallback = l.config.fallback.is_some(), "LLM configured");
    }
    spawn_audit_purge(pool.clone(), cfg.audit_retention_days);
    let state = http::AppState {
        pool,
        models,
        config: Arc::new(cfg),
        search,
        answer,
        llm,
    };
    listen_and_serve(addr, state).await?;
    Ok(ExitCode::SUCCESS)
}

/// Ingests the default PDF when no edition is stored, and readies the English question bank
/// (loaded in under 0.1 s where stored; embedded and stored, 13 s, where not), so that no
/// question waits for either. Replicas started together on an empty database: the first to
/// take the lock ingests and embeds, the others wait for it and find both there.
async fn ensure_corpus_and_bank(
    pool: &sqlx::PgPool,
    cfg: &Config,
    models: &nyaya::search::Models,
    search: &SearchOptions,
) -> Result<(), AppError> {
    let lock = StartupLock::acquire(pool, StartupLock::CORPUS).await?;
    let editions = nyaya::store::editions(pool).await?;
    if editions.is_empty() {
        tracing::info!(pdf = %cfg.default_pdf.display(), "no corpus loaded; ingesting");
        let outcome = ingest::ingest_corpus(pool, cfg, &cfg.default_pdf).await?;
        if !outcome.complete {
            return Err(AppError::Incomplete {
                missing: outcome.summary.missing,
                duplicates: outcome.summary.duplicates,
            });
        }
    }
    // Switched off both ways (`NYAYA_BANK_WEIGHT=0`, `NYAYA_SCOPE_BANK=false`), no search
    // reads it.
    if search.bank_weight > 0.0 || search.scope_bank {
        models
            .preload_question_bank(pool, nyaya::search::bank::Sources::English)
            .await;
    }
    // Once an edition's multilingual chunks are in, an English question's e5 list is fused
    // and the cross-lingual bank moves its order: a database that has them gets the bank
    // before the server listens (loaded in under 0.1 s; embedded, 60 s, only where a
    // database from before stop 61 has the chunks without it).
    // (A corpus ingested just now has none of them.)
    if multilingual_covered(pool, models, editions.first()).await? {
        models
            .preload_question_bank(pool, nyaya::search::bank::Sources::CrossLingual)
            .await;
    }
    lock.release().await
}

/// Whether the newest edition's chunks all have the multilingual model's vectors.
async fn multilingual_covered(
    pool: &sqlx::PgPool,
    models: &nyaya::search::Models,
    newest: Option<&nyaya::store::Edition>,
) -> Result<bool, AppError> {
    let (Some(m), Some(newest)) = (models.multilingual.as_ref(), newest) else {
        return Ok(false);
    };
    nyaya::search::legs::multilingual_ready(pool, newest.document_id, &m.manifest().id).await
}

/// In the background, in order: the other editions of the corpus folder, then the clause
/// spans of every stored edition, then the cross-lingual bank (60 s where not stored), then
/// the chunks for the multilingual leg. The bank comes before the chunks because only a
/// search the multilingual model covers reads it (the leg of a question in an Indian script,
/// e5's list beside an English question's), and that opens when an edition's chunks are
/// covered: so no question waits for the bank (questions in Indian scripts take the English
/// path meanwhile, English ones go without e5's list).
fn spawn_background_passes(pool: sqlx::PgPool, cfg: Config, models: nyaya::search::Models) {
    tokio::spawn(async move {
        if cfg.other_editions {
            ingest::edition_pass(pool.clone(), cfg.clone()).await;
        }
        if models.embedder.is_some() && !cfg.no_embed {
            ingest::span_pass(pool.clone(), cfg.clone(), models.clone()).await;
        }
        if models.multilingual.is_some() && !cfg.no_embed {
            models
                .preload_question_bank(&pool, nyaya::search::bank::Sources::CrossLingual)
                .await;
            ingest::multilingual_pass(pool.clone(), cfg).await;
        }
    });
}

/// Retention: purges audit rows older than `days` at start, then daily.
fn spawn_audit_purge(pool: sqlx::PgPool, days: u32) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_secs(24 * 3600));
        loop {
            every.tick().await;
            match nyaya::answer::audit::purge(&pool, days).await {
                Ok(p) => tracing::info!(
                    answers = p.answers,
                    llm_calls = p.llm_calls,
                    days,
                    "audit purge"
                ),
                Err(e) => tracing::warn!(error = %e, "audit purge failed"),
            }
        }
    });
}

/// Serves the HTTP API on `addr` until Ctrl-C.
async fn listen_and_serve(addr: SocketAddr, state: http::AppState) -> Result<(), AppError> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| AppError::Resource(format!("cannot listen on {addr}: {e}")))?;
    tracing::info!(%addr, "serving");
    // The peer address keys the per-client rate limit.
    let app = http::router(state).into_make_service_with_connect_info::<std::net::SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| AppError::Resource(e.to_string()))
}
