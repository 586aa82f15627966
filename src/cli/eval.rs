//! `nyaya eval` (measure, print, report, gate, store the baseline), `nyaya eval-diff` and
//! `nyaya calibrate`, with the search's switches (`Knobs`) they and `nyaya search` take.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use nyaya::answer::settings::AnswerSettings;
use nyaya::config::Config;
use nyaya::error::AppError;
use nyaya::search::SearchOptions;
use nyaya::{db, evaluate};

use super::golden::{GoldenArgs, Selection};
use super::models::load_models;

/// `nyaya eval`'s arguments.
#[derive(Debug, clap::Args)]
pub(crate) struct EvalArgs {
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

/// Switches for ablations and experiments.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct Knobs {
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
    pub(super) fn apply(
        &self,
        mut o: nyaya::search::SearchOptions,
    ) -> nyaya::search::SearchOptions {
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

/// `nyaya calibrate`: the refusal curve over the "not covered" threshold.
pub(crate) async fn calibrate_command(
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

/// `nyaya eval-diff`: two dumps of one set compared case by case.
pub(crate) fn eval_diff_command(
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
pub(crate) async fn eval_command(
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
