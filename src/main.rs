//! `nyaya`: the command line and the server.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};

use nyaya::config::Config;
use nyaya::error::AppError;
use nyaya::{db, http, ingest, provision};

#[derive(Debug, Parser)]
#[command(
    name = "nyaya",
    version,
    about = "The Constitution of India, answered in its own words"
)]
struct Cli {
    #[command(flatten)]
    config: Config,
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
    /// Show one provision: "21A", "Art. 21-A", "Seventh Schedule", "preamble" …
    Provision {
        reference: String,
        #[arg(long)]
        json: bool,
    },
    /// Search the Constitution: refs named in the query first, then dense + lexical fused.
    Search {
        query: String,
        /// How many provisions.
        #[arg(short, long, default_value_t = 10)]
        k: usize,
        /// dense | lexical | hybrid
        #[arg(long, default_value = "hybrid")]
        mode: nyaya::search::Mode,
        /// Do not put refs named in the query first.
        #[arg(long)]
        no_pin: bool,
        #[arg(long)]
        json: bool,
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

/// The query embedder for the server; without it, lexical search still works.
fn load_embedder(cfg: &Config) -> Option<Arc<dyn nyaya::embed::Embedder>> {
    match nyaya::embed::OnnxEmbedder::load(&cfg.model_dir, &cfg.ort_lib) {
        Ok(e) => Some(Arc::new(e)),
        Err(e) => {
            tracing::warn!(error = %e, "embedding model not loaded; dense search is unavailable");
            None
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
    match cli.command {
        Command::Ingest { pdf, json } => {
            let pool = db::connect(&cfg.database_url).await?;
            let path = pdf.unwrap_or_else(|| cfg.default_pdf.clone());
            let outcome = ingest::ingest_file(&pool, &cfg, &path).await?;
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
        Command::Provision { reference, json } => {
            let pool = db::connect(&cfg.database_url).await?;
            let p = provision::lookup(&pool, &reference).await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&p).unwrap_or_default());
            } else {
                println!("{}", p.heading);
                println!(
                    "Pages {}–{} of the official PDF ({})",
                    p.pages.start, p.pages.end, p.edition
                );
                println!();
                println!("{}", p.text);
                let out: Vec<String> = p
                    .cross_refs
                    .outgoing
                    .iter()
                    .map(|x| match (&x.to, &x.to_part) {
                        (Some(r), _) => format!("{r}{}", x.clause.as_deref().unwrap_or("")),
                        (None, Some(part)) => format!("Part {part}"),
                        _ => x.surface.clone(),
                    })
                    .collect();
                if !out.is_empty() {
                    println!();
                    println!("Refers to: {}", out.join(", "));
                }
                let mut incoming: Vec<&str> = Vec::new();
                for x in &p.cross_refs.incoming {
                    if !incoming.contains(&x.from.as_str()) {
                        incoming.push(&x.from);
                    }
                }
                if !incoming.is_empty() {
                    println!("Referred to by: {}", incoming.join(", "));
                }
                if !p.amendments.is_empty() {
                    println!();
                    for a in &p.amendments {
                        let on = a
                            .clause
                            .as_deref()
                            .map(|c| format!(" [{c}]"))
                            .unwrap_or_default();
                        println!("  note{on}: {}", a.raw);
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Search {
            query,
            k,
            mode,
            no_pin,
            json,
        } => {
            let pool = db::connect(&cfg.database_url).await?;
            let embedder = if mode == nyaya::search::Mode::Lexical {
                None
            } else {
                let e: Arc<dyn nyaya::embed::Embedder> = Arc::new(
                    nyaya::embed::OnnxEmbedder::load(&cfg.model_dir, &cfg.ort_lib)?,
                );
                Some(e)
            };
            let opts = nyaya::search::SearchOptions {
                k,
                mode,
                pin: !no_pin,
                ..Default::default()
            };
            let id = uuid::Uuid::new_v4().to_string();
            let r = nyaya::search::search(&pool, embedder, &query, &opts, id).await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&r).unwrap_or_default());
            } else {
                for (i, hit) in r.results.iter().enumerate() {
                    let legs: Vec<String> = hit
                        .legs
                        .iter()
                        .map(|(l, h)| format!("{l:?}#{}", h.rank))
                        .collect();
                    let how = if hit.pinned {
                        "pinned".to_string()
                    } else {
                        legs.join(" ")
                    };
                    println!(
                        "{:>2}. {} — {} (p.{}) [{how}]",
                        i + 1,
                        hit.ref_id,
                        hit.title,
                        hit.page
                    );
                }
                for s in &r.supporting {
                    println!("    + {} — {} ({})", s.ref_id, s.title, s.relation);
                }
                println!("({:.1} ms)", r.timings_ms.total);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Serve { addr } => {
            let pool = db::connect(&cfg.database_url).await?;
            if nyaya::store::corpus_info(&pool).await?.is_none() {
                tracing::info!(pdf = %cfg.default_pdf.display(), "no corpus loaded; ingesting");
                let outcome = ingest::ingest_file(&pool, &cfg, &cfg.default_pdf).await?;
                if !outcome.complete {
                    return Err(AppError::Incomplete {
                        missing: outcome.summary.missing,
                        duplicates: outcome.summary.duplicates,
                    });
                }
            }
            let embedder = load_embedder(&cfg);
            let state = http::AppState {
                pool,
                embedder,
                config: Arc::new(cfg),
            };
            let listener = tokio::net::TcpListener::bind(addr)
                .await
                .map_err(|e| AppError::Resource(format!("cannot listen on {addr}: {e}")))?;
            tracing::info!(%addr, "serving");
            axum::serve(listener, http::router(state))
                .with_graceful_shutdown(async {
                    let _ = tokio::signal::ctrl_c().await;
                })
                .await
                .map_err(|e| AppError::Resource(e.to_string()))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
