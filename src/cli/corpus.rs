//! The commands on the corpus itself: `ingest`, `provision`, `search`, `ask`, `answer`,
//! `purge` and `diff`.

use std::path::PathBuf;
use std::process::ExitCode;

use tracing::Instrument;

use nyaya::answer::settings::AnswerSettings;
use nyaya::config::Config;
use nyaya::error::AppError;
use nyaya::llm::LlmClient;
use nyaya::search::SearchOptions;
use nyaya::{db, ingest, provision};

use super::eligible::parse_fact;
use super::eval::Knobs;
use super::models::load_models;
use super::print::{print_answer, print_provision, print_search};

/// `nyaya ingest`: parse the PDF and store it.
pub(crate) async fn ingest_command(
    cfg: &Config,
    pdf: Option<PathBuf>,
    json: bool,
) -> Result<ExitCode, AppError> {
    let pool = db::connect(&cfg.database_url).await?;
    let path = pdf.unwrap_or_else(|| cfg.default_pdf.clone());
    let outcome = ingest::ingest_file(&pool, cfg, &path).await?;
    let s = &outcome.summary;
    if json {
        println!("{}", serde_json::to_string(s).unwrap_or_default());
    } else {
        println!(
            "{} ({}): {} provisions ({} articles, {} schedules, {} appendices), {} chunks, {} amendment notes, {} cross-references; {} in {:.2} s",
            path.display(),
            s.edition,
            s.provisions,
            s.articles,
            s.schedules,
            s.appendices,
            s.chunks,
            s.amendment_notes,
            s.cross_refs,
            if s.changed { "stored" } else { "unchanged" },
            s.seconds
        );
    }
    if !outcome.complete {
        eprintln!(
            "error: the parse does not match the Contents (missing {:?}, duplicated {:?}); nothing was stored",
            s.missing, s.duplicates
        );
        return Ok(ExitCode::from(2));
    }
    Ok(ExitCode::SUCCESS)
}

/// `nyaya provision`: show one provision.
pub(crate) async fn provision_command(
    cfg: &Config,
    reference: &str,
    json: bool,
) -> Result<ExitCode, AppError> {
    let pool = db::connect(&cfg.database_url).await?;
    let edition = match nyaya::store::resolve_edition(&pool, cfg.edition.as_deref()).await {
        Err(AppError::NoCorpus) => {
            eprintln!("error: {reference:?} cannot be looked up: no corpus is loaded yet (run `nyaya ingest`)");
            return Ok(ExitCode::from(1));
        }
        other => other?,
    };
    let p = provision::lookup(&pool, edition.document_id, reference).await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&p).unwrap_or_default());
    } else {
        print_provision(&p);
    }
    Ok(ExitCode::SUCCESS)
}

/// `nyaya search`: the ranked provisions for a query.
pub(crate) async fn search_command(
    cfg: &Config,
    defaults: &SearchOptions,
    query: &str,
    k: usize,
    no_pin: bool,
    knobs: &Knobs,
    json: bool,
) -> Result<ExitCode, AppError> {
    let pool = db::connect(&cfg.database_url).await?;
    let mut opts = knobs.apply(defaults.clone());
    opts.k = k;
    opts.pin = !no_pin;
    let models = load_models(cfg, opts.mode)?;
    let id = uuid::Uuid::new_v4().to_string();
    let r = nyaya::search::search(&pool, &models, query, &opts, id).await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&r).unwrap_or_default());
    } else {
        print_search(&r);
    }
    Ok(ExitCode::SUCCESS)
}

/// `nyaya ask`: answer a question in the Constitution's own words.
pub(crate) async fn ask_command(
    cfg: &Config,
    search: &SearchOptions,
    answer: AnswerSettings,
    question: String,
    mode: Option<nyaya::answer::AnswerMode>,
    json: bool,
    facts: &[String],
) -> Result<ExitCode, AppError> {
    let facts = facts
        .iter()
        .map(|f| parse_fact(f))
        .collect::<Result<_, _>>()?;
    let pool = db::connect(&cfg.database_url).await?;
    let models = load_models(cfg, search.mode)?;
    nyaya::answer::preload_span_vectors(&pool, &models).await?;
    let llm = LlmClient::from_config(cfg).map_err(AppError::Resource)?;
    let answerer = nyaya::answer::Answerer {
        pool,
        models,
        llm,
        search: search.clone(),
        default_mode: answer.answer_mode,
        quote_weights: answer.quote_weights,
    };
    let request_id = uuid::Uuid::new_v4().to_string();
    let span = tracing::info_span!("request", request_id = %request_id);
    let req = nyaya::answer::AskRequest {
        question,
        history: Vec::new(),
        mode,
        facts,
        edition: None,
    };
    let r = nyaya::answer::ask(&answerer, req, request_id, None)
        .instrument(span)
        .await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&r).unwrap_or_default());
    } else {
        print_answer(&r);
    }
    Ok(ExitCode::SUCCESS)
}

/// `nyaya answer`: rebuild a stored answer and check its quotes.
pub(crate) async fn answer_command(cfg: &Config, request_id: String) -> Result<ExitCode, AppError> {
    let pool = db::connect(&cfg.database_url).await?;
    let r = nyaya::answer::audit::reconstruct(&pool, &request_id)
        .await?
        .ok_or(AppError::NoSuchAnswer { request_id })?;
    println!("{}", serde_json::to_string_pretty(&r).unwrap_or_default());
    Ok(if r.all_quotes_match {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

/// `nyaya purge`: delete audit rows older than the retention.
pub(crate) async fn purge_command(
    cfg: &Config,
    older_than_days: Option<u32>,
) -> Result<ExitCode, AppError> {
    let pool = db::connect(&cfg.database_url).await?;
    let days = older_than_days.unwrap_or(cfg.audit_retention_days);
    let p = nyaya::answer::audit::purge(&pool, days).await?;
    println!(
        "purged {} answers and {} llm_calls rows older than {days} days",
        p.answers, p.llm_calls
    );
    Ok(ExitCode::SUCCESS)
}

/// `nyaya diff`: what changed between two editions.
pub(crate) fn diff_command(
    cfg: &Config,
    from: &str,
    to: &str,
    corpus: Option<PathBuf>,
    json: bool,
) -> Result<ExitCode, AppError> {
    let dir = corpus.unwrap_or_else(|| {
        cfg.default_pdf
            .parent()
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("."))
    });
    let [old, new] = nyaya::editions::load_editions([from, to], &dir, &cfg.pdfium_lib)?;
    let d = nyaya_ingest::diff::compare(&old, &new);
    if json {
        println!("{}", serde_json::to_string(&d).unwrap_or_default());
    } else {
        print!("{}", nyaya::editions::render_text(&d));
    }
    Ok(ExitCode::SUCCESS)
}
