//! `nyaya`: the command line and the server.

mod cli;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use nyaya::answer::settings::AnswerSettings;
use nyaya::config::Config;
use nyaya::error::AppError;
use nyaya::search::settings::SearchSettings;

use cli::bench::{ablate_command, bench_command, load_command, BenchArgs, LoadArgs};
use cli::corpus::{
    answer_command, ask_command, diff_command, ingest_command, provision_command, purge_command,
    search_command,
};
use cli::eligible::{eligible_command, parse_yes_no};
use cli::eval::{calibrate_command, eval_command, eval_diff_command, EvalArgs, Knobs};
use cli::golden::GoldenArgs;
use cli::serve::serve_command;
use cli::train::{train_adapter_command, train_command};

#[derive(Debug, Parser)]
#[command(
    name = "nyaya",
    version,
    about = "The Constitution of India, answered in its own words"
)]
struct Cli {
    #[command(flatten)]
    config: Config,
    #[command(flatten)]
    search: SearchSettings,
    #[command(flatten)]
    answer: AnswerSettings,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Parse the official PDF and store it (a no-op when it is already stored).
    Ingest {
        /// The PDF (default: the bundled 2024 edition).
        pdf: Option<PathBuf>,
        /// Print one JSON object instead of a summary.
        #[arg(long)]
        json: bool,
    },
    /// What changed between two editions: per provision amended (with the amending Acts from
    /// the newer edition's footnotes), inserted, omitted, or revised in printing, and the
    /// changed words (`nyaya diff 2022-05-01 2024-05-01`). Reads the PDFs; no database needed.
    Diff {
        /// The older edition: its date (YYYY-MM-DD, YYYY-MM or YYYY) or a PDF.
        from: String,
        /// The newer edition: its date or a PDF.
        to: String,
        /// Where editions are looked up by date (default: the default PDF's folder).
        #[arg(long)]
        corpus: Option<PathBuf>,
        /// Print the whole diff as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Show one provision: "21A", "Art. 21-A", "Seventh Schedule", "preamble" …
    Provision {
        reference: String,
        #[arg(long)]
        json: bool,
    },
    /// Search the Constitution: refs named in the query first, then dense + lexical fused and
    /// re-ranked.
    Search {
        query: String,
        /// How many provisions.
        #[arg(short, long, default_value_t = 10)]
        k: usize,
        /// Do not put refs named in the query first.
        #[arg(long)]
        no_pin: bool,
        #[command(flatten)]
        knobs: Knobs,
        #[arg(long)]
        json: bool,
    },
    /// Run the golden set through search and print its metrics (pinned and unpinned).
    Eval(EvalArgs),
    /// Compare two `nyaya eval --dump` files of one set, case by case: which answers' first
    /// citations (and retrieval's unpinned firsts) turned right or wrong, which refusals
    /// changed. Reads the files only; no database needed.
    EvalDiff {
        /// The dump of the run before the change.
        before: PathBuf,
        /// The dump of the run after it.
        after: PathBuf,
        /// Print one JSON object instead of the list.
        #[arg(long)]
        json: bool,
        /// Read whether each answer quoted its evidence phrase from this set's phrases (for
        /// dumps written before stop 48, which do not record it).
        #[arg(long)]
        golden: Option<PathBuf>,
    },
    /// Sweep the "not covered" threshold over a split and print the refusal curve.
    Calibrate {
        #[command(flatten)]
        set: GoldenArgs,
    },
    /// Latency of search per mode over the golden set's questions (p50/p95/p99 per stage, QPS).
    Bench(BenchArgs),
    /// Can a person hold an office? Checks stated facts against the Constitution's
    /// qualifications for it (`nyaya eligible president --age 30`); facts not given are
    /// unknown, never assumed. `nyaya eligible --list` lists offices and facts.
    Eligible {
        /// An office id or alias: president, vice_president, mp, rajya_sabha_member, mla, mlc,
        /// supreme_court_judge, high_court_judge, governor, attorney_general, …
        office: Option<String>,
        /// Age in completed years.
        #[arg(long)]
        age: Option<f64>,
        /// Citizen of India: yes or no.
        #[arg(long, value_parser = parse_yes_no)]
        citizen: Option<bool>,
        /// Any other fact, as id=value (yes/no or a number), e.g. --fact years_advocate_high_court=8.
        #[arg(long = "fact", value_name = "ID=VALUE")]
        facts: Vec<String>,
        /// Read the office and the facts from a question ("Can I become President at 30?");
        /// facts given as flags override what it reads.
        #[arg(long)]
        question: Option<String>,
        /// List the offices and the facts they read.
        #[arg(long)]
        list: bool,
        /// Print the verdict as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Drive a running server over HTTP: searches and answers over the golden questions at a
    /// fixed concurrency, optionally with Postgres stopped mid-run; exits 1 on any error
    /// outside the outage (or anything but 503 inside it).
    Load(LoadArgs),
    /// Train the learned second stage on questions generated from the corpus (never the golden
    /// set): writes data/train/questions.jsonl and data/second_stage.json.
    Train {
        /// Retrain and compare with the shipped model instead of writing (exit 1 when a weight
        /// differs by more than the tolerance, or the data's hash differs).
        #[arg(long)]
        check: bool,
        /// Where the generated questions go.
        #[arg(long, default_value = "data/train/questions.jsonl")]
        questions: PathBuf,
        /// Where the models go: the one for heads fused with the second dense list (questions
        /// in Latin letters) is `data/second_stage.json` in this folder, the other
        /// `data/second_stage_one_list.json`.
        #[arg(long, default_value = ".")]
        models_root: PathBuf,
        /// Which questions teach the ranker: generated from the text (the shipped model's),
        /// written by hand (data/train/written.jsonl; measured, not shipped: ADR 0008), or both.
        #[arg(long, value_enum, default_value = "generated")]
        teacher: nyaya::train::Teacher,
    },
    /// Fit the query adapter on the hand-written questions (data/train/written.jsonl, their
    /// near-copies of evaluated questions left out): writes data/query_adapter.json and .bin.
    TrainAdapter {
        /// Refit and compare with the shipped adapter instead of writing (exit 1 when an entry
        /// differs by more than the tolerance, or the data's hash differs).
        #[arg(long)]
        check: bool,
        /// Where the description goes (the matrix goes beside it, `.bin`).
        #[arg(long, default_value = "data/query_adapter.json")]
        out: PathBuf,
    },
    /// Run every mode and switch over a split and write the ablation ADR.
    Ablate {
        #[command(flatten)]
        set: GoldenArgs,
        /// The ADR to write.
        #[arg(long, default_value = "adr/0006-retrieval-ablation.md")]
        out: PathBuf,
    },
    /// Answer a question in the Constitution's own words (quotes with citations, or a refusal).
    Ask {
        question: String,
        /// extractive (quotes only; no model call) or llm (needs NYAYA_LLM_BASE_URL).
        #[arg(long, value_enum)]
        mode: Option<nyaya::answer::AnswerMode>,
        /// Print the whole answer object as JSON.
        #[arg(long)]
        json: bool,
        /// For an eligibility question ("Can I become President?"), a fact the question does
        /// not state, as id=value (`nyaya eligible --list` lists them), e.g. --fact citizen=yes.
        #[arg(long = "fact", value_name = "ID=VALUE")]
        facts: Vec<String>,
    },
    /// Rebuild a stored answer's basis from the corpus and check its quotes still match.
    Answer { request_id: String },
    /// Delete audit and llm_calls rows older than the retention (NYAYA_AUDIT_RETENTION_DAYS).
    Purge {
        /// Override the retention, in days.
        #[arg(long)]
        older_than_days: Option<u32>,
    },
    /// Serve the HTTP API (ingests the default PDF first if no corpus is loaded).
    Serve {
        #[arg(long, env = "NYAYA_ADDR", default_value = "127.0.0.1:8080")]
        addr: SocketAddr,
    },
}

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    init_tracing();
    match run(cli).await {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

fn init_tracing() {
    use tracing_subscriber::EnvFilter;
    let filter =
        EnvFilter::try_from_env("NYAYA_LOG").unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    tracing_subscriber::fmt()
        .json()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
}

async fn run(cli: Cli) -> Result<ExitCode, AppError> {
    let cfg = cli.config;
    // The search's defaults, over the edition the configuration names.
    let search = cli.search.options(cfg.edition.clone());
    let answer = cli.answer;
    match cli.command {
        Command::Ingest { pdf, json } => ingest_command(&cfg, pdf, json).await,
        Command::Provision { reference, json } => provision_command(&cfg, &reference, json).await,
        Command::Search {
            query,
            k,
            no_pin,
            knobs,
            json,
        } => search_command(&cfg, &search, &query, k, no_pin, &knobs, json).await,
        Command::Ask {
            question,
            mode,
            json,
            facts,
        } => ask_command(&cfg, &search, answer, question, mode, json, &facts).await,
        Command::Answer { request_id } => answer_command(&cfg, request_id).await,
        Command::Purge { older_than_days } => purge_command(&cfg, older_than_days).await,
        Command::Eval(args) => eval_command(&cfg, &search, answer, args).await,
        Command::Train {
            check,
            questions,
            models_root,
            teacher,
        } => train_command(&cfg, &search, check, &questions, &models_root, teacher).await,
        Command::TrainAdapter { check, out } => train_adapter_command(&cfg, check, &out).await,
        Command::Calibrate { set } => calibrate_command(&cfg, &search, &set).await,
        Command::Diff {
            from,
            to,
            corpus,
            json,
        } => diff_command(&cfg, &from, &to, corpus, json),
        Command::EvalDiff {
            before,
            after,
            json,
            golden,
        } => eval_diff_command(&before, &after, json, golden),
        Command::Eligible {
            office,
            age,
            citizen,
            facts,
            question,
            list,
            json,
        } => eligible_command(office, age, citizen, facts, question, list, json),
        Command::Load(args) => load_command(args).await,
        Command::Bench(args) => bench_command(&cfg, &search, args).await,
        Command::Ablate { set, out } => ablate_command(&cfg, &search, &set, &out).await,
        Command::Serve { addr } => serve_command(cfg, search, answer, addr).await,
    }
}
