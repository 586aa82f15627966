//! Measurements beside `nyaya eval`: `nyaya bench` (the search's latency), `nyaya ablate` (the
//! ablation ADR) and `nyaya load` (a running server under load).

use std::path::PathBuf;
use std::process::ExitCode;

use nyaya::config::Config;
use nyaya::error::AppError;
use nyaya::search::SearchOptions;
use nyaya::{ablate, db};

use super::golden::GoldenArgs;
use super::models::load_models;

/// `nyaya bench`'s arguments.
#[derive(Debug, clap::Args)]
pub(crate) struct BenchArgs {
    /// A golden set whose questions to run (default: eval/golden/single_turn.jsonl).
    #[arg(long)]
    golden: Option<PathBuf>,
    /// Passes over the questions.
    #[arg(long, default_value_t = 3)]
    rounds: usize,
    /// Modes to measure (default: all five).
    #[arg(long, value_delimiter = ',')]
    modes: Vec<nyaya::search::Mode>,
    /// Only questions of at most this many words (e.g. 40 leaves out the fact patterns).
    #[arg(long)]
    max_words: Option<usize>,
    /// Also list this many slowest questions per mode, with their stage timings.
    #[arg(long, default_value_t = 0)]
    slowest: usize,
    /// Only the cases of this language (a golden set's `lang`: "hi", "hi-latn", "ta" …).
    #[arg(long)]
    language: Option<String>,
}

/// `nyaya load`'s arguments.
#[derive(Debug, clap::Args)]
pub(crate) struct LoadArgs {
    /// The server's base URL.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// Requests in flight at once.
    #[arg(long, default_value_t = 8)]
    concurrency: usize,
    /// Seconds to run (default 60 unless --requests is given).
    #[arg(long)]
    seconds: Option<u64>,
    /// Stop after this many requests.
    #[arg(long)]
    requests: Option<usize>,
    /// The share of answers (POST /v1/ask, extractive) among the requests.
    #[arg(long, default_value_t = 0.25)]
    ask_share: f64,
    /// Stop the embedded Postgres this many seconds into the run (scripts/pg.sh down)…
    #[arg(long)]
    outage_at: Option<u64>,
    /// …for this many seconds.
    #[arg(long, default_value_t = 10)]
    outage_seconds: u64,
    /// The server's process id, to report its resident memory before and after.
    #[arg(long)]
    pid: Option<u32>,
    /// A name for this run in the report.
    #[arg(long, default_value = "load")]
    label: String,
    /// Print the report as one JSON object.
    #[arg(long)]
    json: bool,
}

/// `nyaya load`: drive a running server over HTTP and report.
pub(crate) async fn load_command(args: LoadArgs) -> Result<ExitCode, AppError> {
    let LoadArgs {
        url,
        concurrency,
        seconds,
        requests,
        ask_share,
        outage_at,
        outage_seconds,
        pid,
        label,
        json,
    } = args;
    let set = GoldenArgs {
        split: Some("all".into()),
        golden: None,
        paraphrases: None,
    };
    // Questions the text covers: a refusal is cheap and would flatter the figures.
    let questions: Vec<String> = set
        .load()?
        .cases
        .into_iter()
        .filter(|c| !c.must_refuse)
        .map(|c| c.question)
        .collect();
    let duration = match (seconds, requests) {
        (None, None) => Some(std::time::Duration::from_secs(60)),
        (s, _) => s.map(std::time::Duration::from_secs),
    };
    let plan = nyaya::load::LoadPlan {
        url: url.trim_end_matches('/').to_string(),
        concurrency,
        duration,
        requests,
        ask_share: ask_share.clamp(0.0, 1.0),
        questions,
        outage: outage_at.map(|at| {
            (
                std::time::Duration::from_secs(at),
                std::time::Duration::from_secs(outage_seconds),
            )
        }),
    };
    let before = pid.and_then(nyaya::load::rss_mb);
    let started = std::time::Instant::now();
    let samples = nyaya::load::run(&plan).await.map_err(AppError::Resource)?;
    let report = nyaya::load::report(
        &samples,
        started.elapsed().as_secs_f64(),
        plan.outage,
        before,
        pid.and_then(nyaya::load::rss_mb),
    );
    if json {
        println!("{}", serde_json::to_string(&report).unwrap_or_default());
    } else {
        print!("{}", nyaya::load::render(&label, &report));
    }
    Ok(if report.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `nyaya bench`: search latency per mode over the golden questions.
pub(crate) async fn bench_command(
    cfg: &Config,
    defaults: &SearchOptions,
    args: BenchArgs,
) -> Result<ExitCode, AppError> {
    let BenchArgs {
        golden,
        rounds,
        modes,
        max_words,
        slowest,
        language,
    } = args;
    let set = GoldenArgs {
        split: Some("all".into()),
        golden,
        paraphrases: None,
    };
    let questions: Vec<String> = set
        .load()?
        .cases
        .into_iter()
        .filter(|c| language.is_none() || c.language == language)
        .map(|c| c.question)
        .filter(|q| max_words.is_none_or(|m| q.split_whitespace().count() <= m))
        .collect();
    let pool = db::connect(&cfg.database_url).await?;
    let models = load_models(cfg, nyaya::search::Mode::Hybrid)?;
    for sources in nyaya::search::bank::Sources::ALL {
        models.preload_question_bank(&pool, sources).await;
    }
    let modes = if modes.is_empty() {
        nyaya::search::Mode::ALL.to_vec()
    } else {
        modes
    };
    let base = defaults.clone();
    let mut results = Vec::new();
    for mode in modes {
        let r = nyaya::bench::bench_mode(&pool, &models, &questions, &base, mode, rounds, slowest)
            .await?;
        eprintln!("{mode}: {} queries", r.queries);
        results.push(r);
    }
    println!(
        "{} questions{}{} × {rounds} rounds, sequential, one client",
        questions.len(),
        language
            .as_ref()
            .map(|l| format!(" in {l}"))
            .unwrap_or_default(),
        max_words
            .map(|m| format!(" of at most {m} words"))
            .unwrap_or_default()
    );
    print!("{}", nyaya::bench::render(&results));
    Ok(ExitCode::SUCCESS)
}

/// `nyaya ablate`: every mode and switch over a split, written as the ablation ADR.
pub(crate) async fn ablate_command(
    cfg: &Config,
    defaults: &SearchOptions,
    set: &GoldenArgs,
    out: &std::path::Path,
) -> Result<ExitCode, AppError> {
    // Dev and test unless a split is asked for.
    let names: Vec<String> = match &set.split {
        Some(s) => vec![s.clone()],
        None => vec!["dev".into(), "test".into()],
    };
    let selections = names
        .iter()
        .map(|n| {
            GoldenArgs {
                split: Some(n.clone()),
                golden: set.golden.clone(),
                paraphrases: set.paraphrases.clone(),
            }
            .load()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let splits: Vec<ablate::SplitCases> = selections
        .iter()
        .map(|sel| ablate::SplitCases {
            name: sel.split.clone(),
            cases: sel.cases.clone(),
            paraphrases: sel.paraphrase_groups(),
        })
        .collect();
    let pool = db::connect(&cfg.database_url).await?;
    let models = load_models(cfg, nyaya::search::Mode::Hybrid)?;
    let text = ablate::run(&pool, &models, defaults, &splits).await?;
    std::fs::write(out, &text)
        .map_err(|e| AppError::Resource(format!("{}: {e}", out.display())))?;
    print!("{text}");
    eprintln!("wrote {}", out.display());
    Ok(ExitCode::SUCCESS)
}
