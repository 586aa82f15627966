//! `nyaya`: the command line and the server.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};
use tracing::Instrument;

use nyaya::answer::settings::AnswerSettings;
use nyaya::config::Config;
use nyaya::error::AppError;
use nyaya::llm::LlmClient;
use nyaya::search::settings::SearchSettings;
use nyaya::search::SearchOptions;
use nyaya::store::StartupLock;
use nyaya::{ablate, db, evaluate, http, ingest, provision};

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

/// Which golden cases to run.
#[derive(Debug, clap::Args)]
struct GoldenArgs {
    /// dev | test | all (default: dev for the shipped set, all for a file given with --golden)
    #[arg(long)]
    split: Option<String>,
    /// A golden set (default: eval/golden/single_turn.jsonl). A file outside eval/golden/ is
    /// read leniently: what it lacks is warned about once and left unscored, and the cases it
    /// cannot score are listed and skipped.
    #[arg(long)]
    golden: Option<PathBuf>,
    /// A paraphrase suite (default: eval/golden/paraphrases.jsonl with the shipped set, none
    /// with another).
    #[arg(long)]
    paraphrases: Option<PathBuf>,
}

/// `nyaya bench`'s arguments.
#[derive(Debug, clap::Args)]
struct BenchArgs {
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

/// `nyaya eval`'s arguments.
#[derive(Debug, clap::Args)]
struct EvalArgs {
    #[command(flatten)]
    set: GoldenArgs,
    /// Report the unpinned run at the top level too.
    #[arg(long)]
    no_pin: bool,
    #[command(flatten)]
    knobs: Knobs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Write eval/reports/<UTC timestamp>_<split>.md with the misses.
    #[arg(long)]
    report: bool,
    /// Check these groups of eval/gates.toml (comma-separated, e.g. retrieval,answers) and
    /// the split's baseline; exit 1 on a miss.
    #[arg(long, value_delimiter = ',')]
    gates: Vec<String>,
    /// Also run every case through the answer pipeline (extractive) and report citation
    /// validity, refusals and routes (the "answers" gates).
    #[arg(long)]
    answers: bool,
    /// Store this run's figures as the baseline of the split (of this golden set) in the file.
    #[arg(long)]
    write_baseline: bool,
    /// The gates file.
    #[arg(long, default_value = "eval/gates.toml")]
    gates_file: PathBuf,
    /// The baseline file (per split; "<file stem>/<split>" for a golden set not the shipped one).
    #[arg(long, default_value = "eval/baseline.json")]
    baseline_file: PathBuf,
    /// Write one JSON line per case (question, expected refs, pinned and unpinned top 10, and
    /// with --answers what the answer cited and quoted) to this file, for analysis.
    #[arg(long)]
    dump: Option<PathBuf>,
    /// Let the question bank use its near-copies of the questions asked (cosine ≥ 0.9), as
    /// the service does; by default they are held out, so the figures are a new question's.
    #[arg(long)]
    bank_keeps_copies: bool,
}

/// `nyaya load`'s arguments.
#[derive(Debug, clap::Args)]
struct LoadArgs {
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

/// The cases of one run, and the paraphrase groups that belong to them.
struct Selection {
    cases: Vec<nyaya_eval::GoldenCase>,
    /// "dev", "test" or "all".
    split: String,
    paraphrases: Option<nyaya_eval::ParaphraseSet>,
    /// The shipped golden set (so its eligibility cases go with it).
    shipped: bool,
    /// Where this run's figures sit in the baseline file: the split for the shipped set,
    /// "<file stem>/<split>" for any other (the multilingual set's figures are not the
    /// English set's).
    baseline_key: String,
}

impl Selection {
    /// The shipped eligibility cases of this split (none with a golden file of one's own).
    fn eligibility_cases(&self) -> Result<Option<Vec<nyaya_eval::EligibilityCase>>, AppError> {
        if !self.shipped {
            return Ok(None);
        }
        let path = nyaya_eval::default_eligibility_path();
        let text = std::fs::read_to_string(&path)
            .map_err(|e| AppError::Resource(format!("{}: {e}", path.display())))?;
        let cases = nyaya_eval::eligibility::parse(&text)
            .map_err(|e| AppError::BadRequest(format!("{}: {e}", path.display())))?;
        Ok(Some(
            cases
                .into_iter()
                .filter(|c| self.split == "all" || c.split.as_str() == self.split)
                .collect(),
        ))
    }

    fn paraphrase_groups(&self) -> Vec<&nyaya_eval::Paraphrase> {
        self.paraphrases
            .as_ref()
            .map(|p| p.for_cases(&self.cases))
            .unwrap_or_default()
    }
}

impl GoldenArgs {
    /// Whether `path` is one of the shipped golden files held to the whole contract: the
    /// multilingual set, which has no evidence or categories, is read leniently.
    fn is_shipped(path: &std::path::Path) -> bool {
        let dir = nyaya_eval::default_golden_path()
            .parent()
            .and_then(|d| d.canonicalize().ok());
        let canonical = path.canonicalize().ok();
        let parent = canonical
            .as_deref()
            .and_then(|p| p.parent().map(PathBuf::from));
        dir.is_some()
            && dir == parent
            && canonical != nyaya_eval::default_multilingual_path().canonicalize().ok()
    }

    fn load(&self) -> Result<Selection, AppError> {
        let bad = |path: &std::path::Path, e: nyaya_eval::GoldenError| {
            AppError::BadRequest(format!("{}: {e}", path.display()))
        };
        let path = self
            .golden
            .clone()
            .unwrap_or_else(nyaya_eval::default_golden_path);
        let shipped = Self::is_shipped(&path);
        let set = if shipped {
            nyaya_eval::GoldenSet::load(&path).map_err(|e| bad(&path, e))?
        } else {
            let (set, notes) =
                nyaya_eval::GoldenSet::load_lenient(&path).map_err(|e| bad(&path, e))?;
            for w in &notes.warnings {
                eprintln!("warning: {}: {w}", path.display());
            }
            for s in &notes.skipped {
                eprintln!(
                    "skipped: {} line {} ({}): {}",
                    path.display(),
                    s.line,
                    s.id,
                    s.reason
                );
            }
            set
        };
        let split = self
            .split
            .clone()
            .unwrap_or_else(|| if self.golden.is_none() { "dev" } else { "all" }.to_string());
        let cases: Vec<nyaya_eval::GoldenCase> = match split.as_str() {
            "all" => set.cases().to_vec(),
            "dev" => set.split(nyaya_eval::Split::Dev).cloned().collect(),
            "test" => set.split(nyaya_eval::Split::Test).cloned().collect(),
            other => {
                return Err(AppError::BadRequest(format!(
                    "--split must be dev, test or all, not {other:?}"
                )))
            }
        };
        if cases.is_empty() {
            return Err(AppError::BadRequest(format!(
                "{} has no {split} cases",
                path.display()
            )));
        }
        let paraphrase_path = match (&self.paraphrases, shipped) {
            (Some(p), _) => Some(p.clone()),
            (None, true) => Some(nyaya_eval::paraphrase::default_paraphrases_path()),
            (None, false) => None,
        };
        let paraphrases = paraphrase_path
            .map(|p| nyaya_eval::ParaphraseSet::load(&p, &set).map_err(|e| bad(&p, e)))
            .transpose()?;
        let baseline_key = if shipped {
            split.clone()
        } else {
            let stem = path
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("golden");
            format!("{stem}/{split}")
        };
        Ok(Selection {
            cases,
            split,
            paraphrases,
            shipped,
            baseline_key,
        })
    }
}

/// Switches for ablations and experiments.
#[derive(Debug, Clone, clap::Args)]
struct Knobs {
    /// dense | lexical | hybrid | hybrid+rerank | dense+rerank (default: NYAYA_SEARCH_MODE)
    #[arg(long)]
    mode: Option<nyaya::search::Mode>,
    /// Do not expand the query with the glossary.
    #[arg(long)]
    no_glossary: bool,
    /// Do not return supporting provisions.
    #[arg(long)]
    no_hop: bool,
    /// Do not search the parts of a many-part question separately.
    #[arg(long)]
    no_split: bool,
    /// Do not pin the provisions of institutions a question only names ("Lok Sabha vs Rajya
    /// Sabha").
    #[arg(long)]
    no_name_pins: bool,
    /// Do not pin the provisions that define the term a question asks the meaning of ("What
    /// is a Money Bill?").
    #[arg(long)]
    no_definition_pins: bool,
    /// Do not put an English question's misspelt words right ("arested" → "arrested").
    #[arg(long)]
    no_spelling: bool,
    /// The lexical leg's weight in the fusion (dense counts 1).
    #[arg(long)]
    lexical_weight: Option<f64>,
    /// The glossary leg's weight in the fusion.
    #[arg(long)]
    glossary_weight: Option<f64>,
    /// How the lexical leg ranks: bm25 | ts-rank-cd.
    #[arg(long, value_enum)]
    lexical_ranking: Option<nyaya::search::legs::LexicalRanking>,
    /// The rescorer's weights: fused,dense,lexical,title.
    #[arg(long, env = "NYAYA_RESCORE_WEIGHTS")]
    weights: Option<nyaya::search::rerank::Weights>,
    /// How many fused provisions the second stage re-orders.
    #[arg(long)]
    rerank_depth: Option<usize>,
}

impl Knobs {
    fn apply(&self, mut o: nyaya::search::SearchOptions) -> nyaya::search::SearchOptions {
        o.mode = self.mode.unwrap_or(o.mode);
        o.glossary &= !self.no_glossary;
        o.hop &= !self.no_hop;
        o.split &= !self.no_split;
        o.name_pins &= !self.no_name_pins;
        o.definition_pins &= !self.no_definition_pins;
        o.spelling &= !self.no_spelling;
        if let Some(w) = self.weights {
            o.weights = w;
        }
        if let Some(w) = self.lexical_weight {
            o.leg_weights.lexical = w;
        }
        if let Some(w) = self.glossary_weight {
            o.leg_weights.glossary = w;
        }
        if let Some(r) = self.lexical_ranking {
            o.lexical_ranking = r;
        }
        if let Some(d) = self.rerank_depth {
            o.rerank_depth = d;
        }
        o
    }
}

/// The models a search in `mode` needs, loaded from the configuration.
fn load_models(cfg: &Config, mode: nyaya::search::Mode) -> Result<nyaya::search::Models, AppError> {
    let embedder: Option<Arc<dyn nyaya::embed::Embedder>> = if mode == nyaya::search::Mode::Lexical
    {
        None
    } else {
        Some(Arc::new(nyaya::embed::OnnxEmbedder::load(
            &cfg.model_dir,
            &cfg.ort_lib,
        )?))
    };
    let (multilingual, english_questions) = match embedder {
        Some(_) => load_multilingual(cfg),
        None => (None, None),
    };
    Ok(nyaya::search::Models {
        embedder,
        cross_encoder: load_cross_encoder(cfg),
        multilingual,
        second_dense: english_questions,
        ..Default::default()
    })
}

/// The multilingual model, unless switched off (`NYAYA_MULTILINGUAL=false`) or missing: then
/// questions in Indian scripts take the English path. Second, the same model for English
/// questions (its ONNX encoder; `search`'s second dense list), when that builds.
fn load_multilingual(cfg: &Config) -> MultilingualModels {
    if !cfg.multilingual {
        return (None, None);
    }
    match nyaya::embed::e5::E5Embedder::load(&cfg.multilingual_dir) {
        Ok(e) => {
            let engine = Arc::new(e);
            let questions = match nyaya::embed::e5::E5Questions::load(engine.clone(), &cfg.ort_lib)
            {
                Ok(q) => Some(Arc::new(q) as Arc<dyn nyaya::embed::Embedder>),
                Err(e) => {
                    tracing::warn!(error = %e, "the e5 question encoder was not built; English questions take one dense list");
                    None
                }
            };
            (Some(engine), questions)
        }
        Err(e) => {
            tracing::warn!(error = %e, "multilingual model not loaded; questions in Indian scripts take the English path");
            (None, None)
        }
    }
}

/// The multilingual model (the engine), and its question encoder for English questions.
type MultilingualModels = (
    Option<Arc<dyn nyaya::embed::Embedder>>,
    Option<Arc<dyn nyaya::embed::Embedder>>,
);

fn load_cross_encoder(cfg: &Config) -> Option<Arc<dyn nyaya::search::rerank::CrossEncoder>> {
    let dir = cfg.reranker_dir.as_ref()?;
    match nyaya::search::rerank::OnnxCrossEncoder::load(dir, &cfg.ort_lib) {
        Ok(m) => Some(Arc::new(m)),
        Err(e) => {
            tracing::warn!(error = %e, "cross-encoder not loaded");
            None
        }
    }
}

/// An answer for a terminal: the text, then each citation with its page and notes.
fn print_answer(r: &nyaya::answer::AskResponse) {
    if r.refused {
        println!("{}", r.answer);
        if let Some(reason) = &r.refusal_reason {
            println!("({reason})");
        }
    } else {
        println!("{}", r.answer);
        if !r.citations.is_empty() {
            println!();
        }
        for c in &r.citations {
            println!(
                "[{}] {} — {} (p.{}, {})",
                c.n, c.label, c.title, c.page, c.edition
            );
            for a in &c.amendments {
                println!("     {}", a.note);
            }
        }
        for s in &r.suggestions {
            println!("  ? {}", s.question);
        }
    }
    if r.degraded {
        println!(
            "(degraded to quotes: {})",
            r.degraded_reason.as_deref().unwrap_or("")
        );
    }
    println!(
        "— {} · {} · request {} · {:.0} ms · the text of the Constitution, not legal advice",
        r.route.as_str(),
        r.mode.as_str(),
        r.request_id,
        r.timings_ms.total
    );
}

/// A provision for a terminal: heading, pages, text, cross-references and notes.
fn print_provision(p: &nyaya::store::ProvisionView) {
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

/// Search hits for a terminal: rank, provision, page and the legs that found it.
fn print_search(r: &nyaya::search::SearchResponse) {
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
    if !r.expansion.added.is_empty() || !r.expansion.refs.is_empty() {
        println!(
            "glossary: {} → {} {}",
            r.expansion.matched.join(", "),
            r.expansion.added.join("; "),
            r.expansion.refs.join(" ")
        );
    }
    if !r.coverage.covered {
        println!(
            "not covered: {}",
            r.coverage.reason.as_deref().unwrap_or("")
        );
    }
    println!("({} mode, {:.1} ms)", r.mode, r.timings_ms.total);
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

/// `nyaya ingest`: parse the PDF and store it.
async fn ingest_command(
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
async fn provision_command(
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
async fn search_command(
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
async fn ask_command(
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
async fn answer_command(cfg: &Config, request_id: String) -> Result<ExitCode, AppError> {
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
async fn purge_command(cfg: &Config, older_than_days: Option<u32>) -> Result<ExitCode, AppError> {
    let pool = db::connect(&cfg.database_url).await?;
    let days = older_than_days.unwrap_or(cfg.audit_retention_days);
    let p = nyaya::answer::audit::purge(&pool, days).await?;
    println!(
        "purged {} answers and {} llm_calls rows older than {days} days",
        p.answers, p.llm_calls
    );
    Ok(ExitCode::SUCCESS)
}

/// `nyaya calibrate`: the refusal curve over the "not covered" threshold.
async fn calibrate_command(
    cfg: &Config,
    opts: &SearchOptions,
    set: &GoldenArgs,
) -> Result<ExitCode, AppError> {
    let sel = set.load()?;
    let cases = sel.cases;
    let pool = db::connect(&cfg.database_url).await?;
    let models = load_models(cfg, opts.mode)?;
    let ev = evaluate::evaluate(&pool, &models, &cases, opts).await?;
    let thresholds: Vec<f64> = (0..=70).map(|i| i as f64 / 100.0).collect();
    let points = evaluate::sweep(&cases, &ev.pinned, &thresholds);
    println!(
        "| threshold | refusal accuracy | false-refusal rate | threshold alone: refusal accuracy |"
    );
    println!("|---:|---:|---:|---:|");
    for p in &points {
        println!(
            "| {:.2} | {:.3} | {:.3} | {:.3} |",
            p.threshold, p.refusal_accuracy, p.false_refusal_rate, p.threshold_only_accuracy
        );
    }
    let t = evaluate::pick_threshold(&points, 0.95, 0.05);
    println!(
        "\npicked threshold: {t:.3} ({} split, mode {})",
        sel.split, opts.mode
    );
    Ok(ExitCode::SUCCESS)
}

/// `nyaya diff`: what changed between two editions.
fn diff_command(
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

/// `nyaya eval-diff`: two dumps of one set compared case by case.
fn eval_diff_command(
    before: &Path,
    after: &Path,
    json: bool,
    golden: Option<PathBuf>,
) -> Result<ExitCode, AppError> {
    use nyaya_eval::dumpdiff;
    let set = match golden {
        Some(path) => Some(
            GoldenArgs {
                split: Some("all".into()),
                golden: Some(path),
                paraphrases: None,
            }
            .load()?
            .cases,
        ),
        None => None,
    };
    let read = |path: &Path| -> Result<Vec<dumpdiff::DumpCase>, AppError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| AppError::Resource(format!("{}: {e}", path.display())))?;
        let mut cases = dumpdiff::parse(&text)
            .map_err(|e| AppError::BadRequest(format!("{}: {e}", path.display())))?;
        if let Some(set) = &set {
            dumpdiff::read_evidence(&mut cases, set);
        }
        Ok(cases)
    };
    let d = dumpdiff::compare(&read(before)?, &read(after)?);
    let text = if json {
        serde_json::to_string(&d).unwrap_or_default() + "\n"
    } else {
        d.to_string()
    };
    // A closed pipe (`| head`) ends the listing; it is not an error.
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes());
    Ok(ExitCode::SUCCESS)
}

/// `nyaya load`: drive a running server over HTTP and report.
async fn load_command(args: LoadArgs) -> Result<ExitCode, AppError> {
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
async fn bench_command(
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
async fn ablate_command(
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

/// `nyaya serve`: the HTTP API, ingesting the default PDF first on an empty database.
async fn serve_command(
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
    ensure_corpus(&pool, &cfg).await?;
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

/// Ingests the default PDF when no edition is stored. Replicas started together on an empty
/// database: the first to take the lock ingests, the others wait for it and find the corpus
/// there.
async fn ensure_corpus(pool: &sqlx::PgPool, cfg: &Config) -> Result<(), AppError> {
    let lock = StartupLock::acquire(pool, StartupLock::CORPUS).await?;
    if nyaya::store::editions(pool).await?.is_empty() {
        tracing::info!(pdf = %cfg.default_pdf.display(), "no corpus loaded; ingesting");
        let outcome = ingest::ingest_corpus(pool, cfg, &cfg.default_pdf).await?;
        if !outcome.complete {
            return Err(AppError::Incomplete {
                missing: outcome.summary.missing,
                duplicates: outcome.summary.duplicates,
            });
        }
    }
    lock.release().await
}

/// In the background, in order: the English question bank (a search that needs it first
/// waits for it), the other editions of the corpus folder, then the clause spans of every
/// stored edition, then their chunks for the multilingual leg, then the cross-lingual bank
/// (53 s where not stored: only a question the multilingual leg takes reads it, and one that
/// comes first waits for it).
fn spawn_background_passes(pool: sqlx::PgPool, cfg: Config, models: nyaya::search::Models) {
    tokio::spawn(async move {
        models
            .preload_question_bank(&pool, nyaya::search::bank::Sources::English)
            .await;
        if cfg.other_editions {
            ingest::edition_pass(pool.clone(), cfg.clone()).await;
        }
        if models.embedder.is_some() && !cfg.no_embed {
            ingest::span_pass(pool.clone(), cfg.clone(), models.clone()).await;
        }
        if models.multilingual.is_some() && !cfg.no_embed {
            ingest::multilingual_pass(pool.clone(), cfg).await;
            models
                .preload_question_bank(&pool, nyaya::search::bank::Sources::CrossLingual)
                .await;
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

/// `--fact id=value`: yes/no or a number.
fn parse_fact(f: &str) -> Result<(String, nyaya::eligibility::FactValue), AppError> {
    use nyaya::eligibility::FactValue;
    let (k, v) = f
        .split_once('=')
        .ok_or_else(|| AppError::BadRequest(format!("--fact {f:?}: expected id=value")))?;
    let value = match parse_yes_no(v) {
        Ok(b) => FactValue::Bool(b),
        Err(_) => FactValue::Number(v.trim().parse().map_err(|_| {
            AppError::BadRequest(format!("--fact {f:?}: the value is yes, no or a number"))
        })?),
    };
    Ok((k.trim().to_string(), value))
}

fn parse_yes_no(s: &str) -> Result<bool, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "yes" | "y" | "true" => Ok(true),
        "no" | "n" | "false" => Ok(false),
        other => Err(format!("expected yes or no, not {other:?}")),
    }
}

/// `nyaya eligible`: the checker on the command line (no database needed).
fn eligible_command(
    office: Option<String>,
    age: Option<f64>,
    citizen: Option<bool>,
    fact_args: Vec<String>,
    question: Option<String>,
    list: bool,
    json: bool,
) -> Result<ExitCode, AppError> {
    use nyaya::eligibility::{self, Catalogue, FactValue, Status};
    let c = Catalogue::builtin();
    let reading = question
        .as_deref()
        .map(|q| nyaya::eligibility_text::read(c, q));
    let office = office.or_else(|| reading.as_ref()?.office.map(|o| o.id.clone()));
    if list || office.is_none() {
        println!("offices:");
        for o in &c.offices {
            println!("  {:<22} {} ({})", o.id, o.name, o.aliases.join(", "));
        }
        println!("facts (--fact id=value):");
        for f in &c.facts {
            println!("  {:<28} {}", f.id, f.question);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let name = office.unwrap_or_default();
    let o = c.office(&name).ok_or_else(|| {
        AppError::BadRequest(format!(
            "no office {name:?}; `nyaya eligible --list` lists them"
        ))
    })?;
    let mut facts = reading.map(|r| r.facts).unwrap_or_default();
    if let Some(a) = age {
        facts.insert("age".into(), FactValue::Number(a));
    }
    if let Some(b) = citizen {
        facts.insert("citizen".into(), FactValue::Bool(b));
    }
    for f in fact_args {
        let (k, v) = parse_fact(&f)?;
        facts.insert(k, v);
    }
    eligibility::check_facts(c, &facts).map_err(AppError::BadRequest)?;
    let v = eligibility::check(c, o, &facts);
    if json {
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        return Ok(ExitCode::SUCCESS);
    }
    let verdict = match v.verdict {
        eligibility::VerdictKind::NotEligible => "not eligible",
        eligibility::VerdictKind::NeedMoreInfo => "need more information",
        eligibility::VerdictKind::LikelyEligible => "likely eligible",
    };
    println!("{}: {verdict}", v.office_name);
    for r in &v.criteria {
        let mark = match r.status {
            Status::Met => "✓",
            Status::NotMet => "✗",
            Status::Unknown => "?",
            Status::Note => "·",
        };
        println!(
            "  {mark} {}{}: \"{}\" {}",
            r.ref_id,
            r.clause,
            r.quote,
            if r.detail.is_empty() {
                String::new()
            } else {
                format!("({})", r.detail)
            }
        );
    }
    if !v.missing_facts.is_empty() {
        println!("still needed:");
        for m in &v.missing_facts {
            println!("  --fact {}=…   {}", m.id, m.question);
        }
    }
    println!("{}", v.note);
    Ok(ExitCode::SUCCESS)
}

/// `nyaya eval`: search (pinned and unpinned), paraphrases, and with `--answers` the answer
/// pipeline; prints, reports, checks gates and writes the baseline.
/// What one `nyaya eval` run measured: the search's two runs (pinned and unpinned), and what
/// the set and the flags added to them.
struct EvalRun {
    ev: evaluate::Evaluation,
    /// The paraphrase suite on the unpinned search, when the set has one.
    paraphrases: Option<nyaya_eval::ParaphraseCard>,
    /// With `--answers`: the answers' card, their paraphrase card, and each case's outcome.
    answers: Option<(
        nyaya_eval::AnswerCard,
        Option<nyaya_eval::ParaphraseCard>,
        Vec<nyaya_eval::AnswerOutcome>,
    )>,
    /// With `--answers` on the shipped golden set: the eligibility cases of the same split.
    eligibility: Option<nyaya_eval::EligibilityCard>,
    /// A written set's groups of wordings: the unpinned search's card and the answers'.
    wordings: (
        Option<nyaya_eval::WordingCard>,
        Option<nyaya_eval::WordingCard>,
    ),
}

/// Runs the selected cases through search (and with `--answers` the answer pipeline).
async fn measure(
    pool: &sqlx::PgPool,
    models: &nyaya::search::Models,
    sel: &Selection,
    opts: &SearchOptions,
    args: &EvalArgs,
    quote_weights: nyaya::answer::extract::QuoteWeights,
) -> Result<EvalRun, AppError> {
    use nyaya_eval::ParaphraseCard;
    let cases = &sel.cases;
    let mut ev = evaluate::evaluate(pool, models, cases, opts).await?;
    if args.no_pin {
        ev.scorecard.pinned = ev.scorecard.unpinned.clone();
    }
    let groups = sel.paraphrase_groups();
    let paraphrases = if groups.is_empty() {
        None
    } else {
        let first =
            evaluate::paraphrase_firsts_search(pool, models, &groups, &ev.unpinned, opts).await?;
        Some(ParaphraseCard::new(&groups, cases, &first))
    };
    let mut eligibility = None;
    let answers = if args.answers {
        let answerer = nyaya::answer::Answerer {
            pool: pool.clone(),
            models: models.clone(),
            llm: None,
            search: opts.clone(),
            default_mode: nyaya::answer::AnswerMode::Extractive,
            quote_weights,
        };
        let (card, outcomes) = evaluate::evaluate_answers(&answerer, cases).await?;
        let para = if groups.is_empty() {
            None
        } else {
            let first = evaluate::paraphrase_firsts_answers(&answerer, &groups, &outcomes).await?;
            Some(ParaphraseCard::new(&groups, cases, &first))
        };
        // The eligibility cases of the same split, with the shipped golden set only.
        if let Some(cases) = sel.eligibility_cases()? {
            eligibility = Some(evaluate::evaluate_eligibility(&answerer, &cases).await?);
        }
        Some((card, para, outcomes))
    } else {
        None
    };
    let wordings = evaluate::wording_cards(
        cases,
        &ev.unpinned,
        answers.as_ref().map(|(_, _, o)| o.as_slice()),
    );
    Ok(EvalRun {
        ev,
        paraphrases,
        answers,
        eligibility,
        wordings,
    })
}

impl EvalRun {
    /// Every figure by its gate name (`answers.<metric>` …), for the gates and the baseline.
    fn flat(&self) -> std::collections::BTreeMap<String, f64> {
        let mut flat = self.ev.scorecard.flat();
        if let Some(p) = &self.paraphrases {
            flat.extend(p.flat("unpinned"));
        }
        if let Some((a, p, _)) = &self.answers {
            flat.extend(a.flat());
            if let Some(p) = p {
                flat.extend(p.flat("answers"));
            }
        }
        if let Some(e) = &self.eligibility {
            flat.extend(e.flat());
        }
        flat
    }

    /// The run as one JSON object (`nyaya eval --json`).
    fn to_json(&self) -> serde_json::Value {
        let mut v = serde_json::to_value(&self.ev.scorecard).unwrap_or_default();
        if let Some(p) = &self.paraphrases {
            v["paraphrases"] = serde_json::to_value(p).unwrap_or_default();
        }
        if let Some((a, p, _)) = &self.answers {
            v["answers"] = serde_json::to_value(a).unwrap_or_default();
            if let Some(p) = p {
                v["answers"]["paraphrase_consistency"] = serde_json::json!(p.consistency);
                v["answers"]["paraphrases"] = serde_json::to_value(p).unwrap_or_default();
            }
        }
        if let Some(e) = &self.eligibility {
            v["eligibility"] = serde_json::to_value(e).unwrap_or_default();
        }
        // The answers' card exists only beside the search's (the same cases).
        if self.wordings.0.is_some() {
            v["wording_groups"] = serde_json::json!({
                "unpinned": self.wordings.0,
                "answers": self.wordings.1,
            });
        }
        v
    }

    /// The tables on stdout, the first 40 misses of each kind on stderr.
    fn print_text(&self, header: &str) {
        let card = &self.ev.scorecard;
        println!("{header}");
        print!("{}", nyaya_eval::scorecard::render_table(card));
        for f in card.failures.iter().take(40) {
            eprintln!(
                "  {} {}: expected {:?}, got {:?}",
                f.id, f.kind, f.expected, f.got
            );
        }
        if let Some(p) = &self.paraphrases {
            print!("{}", p.render("unpinned search"));
        }
        if let Some((a, p, _)) = &self.answers {
            print!("{}", a.render());
            for f in a.failures.iter().take(40) {
                eprintln!("  {} {}: {}", f.id, f.kind, f.detail);
            }
            if let Some(p) = p {
                print!("{}", p.render("answers' first citation"));
            }
        }
        if let Some(e) = &self.eligibility {
            print!("{}", e.render());
        }
        let share = |c: &Option<nyaya_eval::WordingCard>| {
            c.as_ref().map_or("-".to_string(), |c| {
                format!("{:.3} ({}/{})", c.consistency, c.consistent, c.groups)
            })
        };
        if self.wordings.0.is_some() {
            println!(
                "wording groups, every wording led by an expected ref: unpinned search {}, answers {}",
                share(&self.wordings.0),
                share(&self.wordings.1)
            );
        }
    }

    /// The Markdown report (`--report`): every miss, per kind.
    fn markdown(&self, title: &str, cases: &[nyaya_eval::GoldenCase]) -> String {
        let ev = &self.ev;
        let mut md = nyaya_eval::scorecard::render_markdown(
            title,
            &ev.scorecard,
            &ev.pinned_report,
            &ev.unpinned_report,
            cases,
        );
        if let Some((a, _, _)) = &self.answers {
            md.push_str(&nyaya_eval::answers::render_markdown(a, cases));
        }
        if let Some(p) = &self.paraphrases {
            md.push_str(&p.render_markdown("unpinned search: first result"));
        }
        if let Some((_, Some(p), _)) = &self.answers {
            md.push_str(&p.render_markdown("answers: first citation"));
        }
        md
    }
}

/// Checks each gate group in `args.gates` against `flat` and the stored baseline; with
/// `--write-baseline`, stores `flat` as the baseline. Exit 1 when a gate fails.
fn gate_and_store(
    args: &EvalArgs,
    sel: &Selection,
    flat: std::collections::BTreeMap<String, f64>,
) -> Result<ExitCode, AppError> {
    let split = &sel.split;
    let mut baseline: nyaya_eval::Baseline = std::fs::read_to_string(&args.baseline_file)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    let mut code = ExitCode::SUCCESS;
    for group in &args.gates {
        let text = std::fs::read_to_string(&args.gates_file)
            .map_err(|e| AppError::Resource(format!("{}: {e}", args.gates_file.display())))?;
        let g = nyaya_eval::Gates::parse(&text).map_err(|e| AppError::BadRequest(e.to_string()))?;
        let results = nyaya_eval::check_gates(&g, group, &flat, baseline.get(&sel.baseline_key));
        eprint!("{}", nyaya_eval::gates::render(&results));
        if results.iter().any(|r| !r.passed) {
            eprintln!("gates: FAILED ({group}, {split} split)");
            code = ExitCode::from(1);
        } else {
            eprintln!("gates: passed ({group}, {split} split)");
        }
    }
    if args.write_baseline {
        // Four decimals: enough for a 2-point rule, readable in a diff.
        let rounded = flat
            .into_iter()
            .map(|(k, v)| (k, (v * 1e4).round() / 1e4))
            .collect();
        baseline.insert(sel.baseline_key.clone(), rounded);
        let text = serde_json::to_string_pretty(&baseline).unwrap_or_default();
        std::fs::write(&args.baseline_file, text + "\n")
            .map_err(|e| AppError::Resource(format!("{}: {e}", args.baseline_file.display())))?;
        eprintln!(
            "baseline: {} updated ({})",
            args.baseline_file.display(),
            sel.baseline_key
        );
    }
    Ok(code)
}

/// `nyaya eval`: measure, then dump, print, report, gate, as the flags ask.
async fn eval_command(
    cfg: &Config,
    defaults: &SearchOptions,
    answer: AnswerSettings,
    args: EvalArgs,
) -> Result<ExitCode, AppError> {
    let sel = args.set.load()?;
    let cases = &sel.cases;
    let pool = db::connect(&cfg.database_url).await?;
    let mut opts = args.knobs.apply(defaults.clone());
    if !args.bank_keeps_copies {
        opts.bank_holdout = Some(nyaya::search::bank::EVAL_HOLDOUT_COSINE);
    }
    let models = load_models(cfg, opts.mode)?;
    nyaya::answer::preload_span_vectors(&pool, &models).await?;
    for sources in nyaya::search::bank::Sources::ALL {
        models.preload_question_bank(&pool, sources).await;
    }
    let run = measure(&pool, &models, &sel, &opts, &args, answer.quote_weights).await?;
    if let Some(path) = &args.dump {
        let outcomes = run
            .answers
            .as_ref()
            .map(|(_, _, o)| o.as_slice())
            .unwrap_or(&[]);
        let text = evaluate::dump_lines(cases, &run.ev, outcomes);
        std::fs::write(path, text)
            .map_err(|e| AppError::Resource(format!("{}: {e}", path.display())))?;
        eprintln!("dump: {}", path.display());
    }
    let split = &sel.split;
    if args.json {
        println!("{}", run.to_json());
    } else {
        run.print_text(&format!(
            "{split} split, {} cases, mode {}{}",
            cases.len(),
            opts.mode,
            if opts.glossary { "" } else { ", no glossary" }
        ));
    }
    if args.report {
        let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%SZ");
        let dir = PathBuf::from("eval/reports");
        std::fs::create_dir_all(&dir)
            .map_err(|e| AppError::Resource(format!("{}: {e}", dir.display())))?;
        let path = dir.join(format!("{stamp}_{split}.md"));
        let title = format!(
            "Evaluation: {split} split, mode {}, {} UTC",
            opts.mode,
            chrono::Utc::now().format("%Y-%m-%d %H:%M")
        );
        std::fs::write(&path, run.markdown(&title, cases))
            .map_err(|e| AppError::Resource(format!("{}: {e}", path.display())))?;
        eprintln!("report: {}", path.display());
    }
    gate_and_store(&args, &sel, run.flat())
}

/// `nyaya train-adapter`: embed, hold out, fit; write (or `--check` against) the shipped
/// query adapter.
async fn train_adapter_command(
    cfg: &Config,
    check: bool,
    out: &std::path::Path,
) -> Result<ExitCode, AppError> {
    use nyaya::search::adapter::{matrix_bytes, AdapterInfo, QueryAdapter};
    use nyaya::train::{self, adapter};
    let started = std::time::Instant::now();
    let pool = db::connect(&cfg.database_url).await?;
    let embedder = nyaya::embed::OnnxEmbedder::load(&cfg.model_dir, &cfg.ort_lib)?;
    let train::AdapterData {
        problem,
        held_out,
        edition,
        data_sha256,
    } = train::adapter_problem(&pool, &embedder).await?;
    let questions = problem.questions.nrows();
    eprintln!(
        "{questions} written questions ({held_out} held out: near-copies of evaluated questions), {} chunks of {edition}",
        problem.chunks.nrows()
    );
    let fitted = tokio::task::spawn_blocking(move || adapter::fit(&problem))
        .await
        .map_err(|e| AppError::Resource(format!("fitting failed: {e}")))?;
    let matrix: Vec<f32> = fitted.matrix.iter().copied().collect();
    let bytes = matrix_bytes(&matrix);
    let info = AdapterInfo {
        model_id: nyaya::embed::Embedder::manifest(&embedder).id.clone(),
        dim: fitted.matrix.nrows(),
        data_sha256,
        questions,
        held_out,
        edition,
        l2: adapter::L2,
        temperature: adapter::TEMPERATURE,
        steps: adapter::STEPS,
        learning_rate: adapter::LEARNING_RATE,
        loss: fitted.loss,
        top1_before: fitted.top1_before,
        top1_after: fitted.top1_after,
        matrix_sha256: nyaya_ingest::sha256_hex(&bytes),
    };
    eprintln!(
        "fitted in {} steps: loss {:.4}, training top-1 chunk {:.3} -> {:.3} ({:.0} s in all)",
        info.steps,
        info.loss,
        info.top1_before,
        info.top1_after,
        started.elapsed().as_secs_f64()
    );
    if check {
        let shipped = QueryAdapter::builtin().map_err(AppError::Resource)?;
        let d = adapter::distance(&matrix, shipped.matrix());
        let same_data = shipped.info.data_sha256 == info.data_sha256;
        println!(
            "refitted vs shipped: data {}, largest entry difference {d:.2e} (tolerance {})",
            if same_data { "identical" } else { "differs" },
            adapter::TOLERANCE
        );
        return Ok(if same_data && d <= adapter::TOLERANCE {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        });
    }
    let json = serde_json::to_string_pretty(&info).unwrap_or_default() + "\n";
    train::write(out, &json)?;
    let bin = out.with_extension("bin");
    std::fs::write(&bin, &bytes)
        .map_err(|e| AppError::Resource(format!("{}: {e}", bin.display())))?;
    println!("wrote {} and {}", out.display(), bin.display());
    Ok(ExitCode::SUCCESS)
}

/// `nyaya train`: generate, mine, fit; write (or `--check` against) the shipped model.
async fn train_command(
    cfg: &Config,
    defaults: &SearchOptions,
    check: bool,
    questions_path: &std::path::Path,
    models_root: &std::path::Path,
    teacher: nyaya::train::Teacher,
) -> Result<ExitCode, AppError> {
    use nyaya::search::ltr::{Heads, LtrModel};
    use nyaya::train;
    let started = std::time::Instant::now();
    let pool = db::connect(&cfg.database_url).await?;
    let held_out = train::held_out_questions()?;
    let (questions, dropped) = train::generate(&pool, &held_out, teacher).await?;
    let text = train::to_jsonl(&questions);
    let sha = nyaya_ingest::sha256_hex(text.as_bytes());
    eprintln!(
        "generated {} questions ({dropped} dropped: they match golden or paraphrase questions), sha256 {sha}",
        questions.len()
    );
    let models = load_models(cfg, nyaya::search::Mode::HybridRerank)?;
    let mut fitted: Vec<(Heads, LtrModel)> = Vec::new();
    for heads in Heads::ALL {
        eprintln!("== heads: {heads:?}");
        let mined = train::mine(&pool, &models, defaults, heads, &questions).await?;
        print_mined(&mined, questions.len());
        let model = train::train(&mined, heads, questions.len(), sha.clone());
        print_fitted(&model, started);
        fitted.push((heads, model));
    }
    // Questions in an Indian script: fitted on the written Hindi questions, whose heads need
    // the multilingual model and its cross-lingual bank.
    if models.multilingual.is_some() {
        let heads = Heads::IndianScript;
        eprintln!("== heads: {heads:?}");
        models
            .preload_question_bank(&pool, nyaya::search::bank::Sources::CrossLingual)
            .await;
        let (hindi, dropped) = train::written_hindi(&train::held_out_hindi_questions()?)?;
        let hindi_sha = nyaya_ingest::sha256_hex(train::to_jsonl(&hindi).as_bytes());
        eprintln!(
            "{} written Hindi questions ({dropped} dropped: asked by a set that judges them), sha256 {hindi_sha}",
            hindi.len()
        );
        let mined = train::mine(&pool, &models, defaults, heads, &hindi).await?;
        print_mined(&mined, hindi.len());
        let model = train::train(&mined, heads, hindi.len(), hindi_sha);
        print_fitted(&model, started);
        fitted.push((heads, model));
    } else {
        eprintln!("no multilingual model: the Indian-script model is not refitted");
    }
    if check {
        let mut all_match = true;
        for (heads, model) in &fitted {
            let shipped = LtrModel::builtin(*heads);
            let d = train::distance(model, shipped);
            let same_data = shipped.training.data_sha256 == model.training.data_sha256;
            println!(
                "{heads:?}: retrained vs shipped: data {}, largest weight difference {d:.2e} (tolerance {})",
                if same_data { "identical" } else { "differs" },
                train::TOLERANCE
            );
            all_match &= same_data && d <= train::TOLERANCE;
        }
        return Ok(if all_match {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        });
    }
    train::write(questions_path, &text)?;
    println!("wrote {}", questions_path.display());
    for (heads, model) in &fitted {
        let path = models_root.join(heads.shipped_path());
        let json = serde_json::to_string_pretty(model).unwrap_or_default() + "\n";
        train::write(&path, &json)?;
        println!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The fitted model's loss and weights, on stderr.
fn print_fitted(model: &nyaya::search::ltr::LtrModel, started: std::time::Instant) {
    eprintln!(
        "fitted in {} Newton steps: loss {:.4}, training top1 {:.3} ({:.0} s so far)",
        model.training.iterations,
        model.training.loss,
        model.training.top1,
        started.elapsed().as_secs_f64()
    );
    for (name, w) in model.features.iter().zip(&model.weights) {
        eprintln!("  {name:<26} {w:>8.3}");
    }
}

/// What mining found, per template: how often the first stage alone put the source first, and
/// in the head.
fn print_mined(mined: &nyaya::train::Mined, questions: usize) {
    eprintln!(
        "mined {} heads of {questions} ({} sources not in the head)",
        mined.lists.len(),
        mined.missed
    );
    eprintln!("template          questions  first-stage top1  in head");
    for (t, (n, top, head)) in &mined.by_template {
        eprintln!(
            "{t:<17} {n:>9} {:>17.3} {:>8.3}",
            *top as f64 / *n as f64,
            *head as f64 / *n as f64
        );
    }
}
