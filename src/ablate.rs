//! `nyaya ablate`: every retrieval mode and switch over one split, as the Markdown table of the
//! ablation ADR, with the command and commit that made it.

use std::fmt::Write as _;

use sqlx::PgPool;

use nyaya_eval::{GoldenCase, Paraphrase, ParaphraseCard};

use crate::error::AppResult;
use crate::evaluate::{evaluate, paraphrase_firsts_search, CaseRun, Evaluation};
use crate::search::rerank::SecondStage;
use crate::search::{Mode, Models, SearchOptions};

/// One row of the table.
struct Variant {
    name: String,
    opts: SearchOptions,
}

fn variants(base: &SearchOptions) -> Vec<Variant> {
    let with = |name: &str, f: &dyn Fn(&mut SearchOptions)| {
        let mut o = base.clone();
        f(&mut o);
        Variant {
            name: name.to_string(),
            opts: o,
        }
    };
    vec![
        with("dense", &|o| o.mode = Mode::Dense),
        with("lexical", &|o| o.mode = Mode::Lexical),
        with("hybrid", &|o| o.mode = Mode::Hybrid),
        with("hybrid+rerank (learned second stage)", &|o| {
            o.mode = Mode::HybridRerank
        }),
        with("dense+rerank (learned)", &|o| o.mode = Mode::DenseRerank),
        with("hybrid+rerank, second stage rescore (hand-set)", &|o| {
            o.mode = Mode::HybridRerank;
            o.second_stage = SecondStage::Rescore;
            o.rerank_depth = 10;
        }),
        with("hybrid+rerank + query adapter", &|o| {
            o.mode = Mode::HybridRerank;
            o.query_adapter = true;
        }),
        with("dense + query adapter", &|o| {
            o.mode = Mode::Dense;
            o.query_adapter = true;
        }),
        with("hybrid+rerank − the multilingual model's list", &|o| {
            o.mode = Mode::HybridRerank;
            o.second_dense = false;
        }),
        with("hybrid+rerank − question bank", &|o| {
            o.mode = Mode::HybridRerank;
            o.bank_weight = 0.0;
        }),
        with("hybrid+rerank − the bank's scope vote", &|o| {
            o.mode = Mode::HybridRerank;
            o.scope_bank = false;
        }),
        with("hybrid+rerank, second stage none", &|o| {
            o.mode = Mode::HybridRerank;
            o.second_stage = SecondStage::None;
        }),
        with("hybrid+rerank − glossary", &|o| {
            o.mode = Mode::HybridRerank;
            o.glossary = false;
        }),
        with("hybrid − glossary", &|o| {
            o.mode = Mode::Hybrid;
            o.glossary = false;
        }),
        with("dense − glossary", &|o| {
            o.mode = Mode::Dense;
            o.glossary = false;
        }),
        with("lexical − glossary", &|o| {
            o.mode = Mode::Lexical;
            o.glossary = false;
        }),
        with("hybrid+rerank − name pins", &|o| {
            o.mode = Mode::HybridRerank;
            o.name_pins = false;
        }),
        with("hybrid+rerank + sub-query split", &|o| {
            o.mode = Mode::HybridRerank;
            o.split = true;
        }),
        with("hybrid+rerank, lexical ts_rank_cd (not BM25)", &|o| {
            o.mode = Mode::HybridRerank;
            o.lexical_ranking = crate::search::legs::LexicalRanking::TsRankCd;
        }),
        with("lexical, ts_rank_cd (not BM25)", &|o| {
            o.mode = Mode::Lexical;
            o.lexical_ranking = crate::search::legs::LexicalRanking::TsRankCd;
        }),
        with("hybrid+rerank, lexical weight 0.5", &|o| {
            o.mode = Mode::HybridRerank;
            o.leg_weights.lexical = 0.5;
        }),
        with("hybrid+rerank − cross-ref hop", &|o| {
            o.mode = Mode::HybridRerank;
            o.hop = false;
        }),
        with("hybrid+rerank, RRF k = 60", &|o| {
            o.mode = Mode::HybridRerank;
            o.rrf_k = 60.0;
        }),
        with("hybrid, RRF k = 60", &|o| {
            o.mode = Mode::Hybrid;
            o.rrf_k = 60.0;
        }),
        with("hybrid+rerank, leg depth 20", &|o| {
            o.mode = Mode::HybridRerank;
            o.depth = 20;
        }),
        with("hybrid+rerank, learned over rerank depth 10", &|o| {
            o.mode = Mode::HybridRerank;
            o.rerank_depth = 10;
        }),
    ]
}

/// Share of expected refs found in the top 5 or among the supporting provisions (what the
/// cross-reference hop adds to an answer's reach), over answerable cases.
fn reach_at_5(cases: &[GoldenCase], runs: &[CaseRun]) -> f64 {
    let mut sum = 0.0;
    let mut n = 0;
    for c in cases.iter().filter(|c| c.is_answerable()) {
        let Some(r) = runs.iter().find(|r| r.id == c.id) else {
            continue;
        };
        let found = c
            .expected_refs
            .iter()
            .filter(|e| {
                let e = e.to_string();
                r.ranking.iter().take(5).any(|x| *x == e) || r.supporting.contains(&e)
            })
            .count();
        sum += found as f64 / c.expected_refs.len().max(1) as f64;
        n += 1;
    }
    sum / n.max(1) as f64
}

fn f3(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.3}")).unwrap_or_else(|| "–".into())
}

fn row(name: &str, cases: &[GoldenCase], ev: &Evaluation, paraphrase: Option<f64>) -> String {
    let c = &ev.scorecard;
    format!(
        "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.3} | {:.1} | {:.1} |",
        f3(c.unpinned.recall_at_1),
        f3(c.unpinned.recall_at_5),
        f3(c.unpinned.recall_at_10),
        f3(c.unpinned.mrr_at_10),
        f3(c.unpinned.ndcg_at_5),
        f3(c.unpinned.candidate_recall),
        f3(c.pinned.recall_at_5),
        f3(c.pinned.lookup_hit_at_1),
        f3(c.refusal_accuracy),
        f3(c.false_refusal_rate),
        f3(paraphrase),
        reach_at_5(cases, &ev.unpinned),
        c.latency_ms.p50.unwrap_or(0.0),
        c.latency_ms.p95.unwrap_or(0.0),
    )
}

fn git(args: &[&str]) -> String {
    std::process::Command::new("git")
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}

/// One split's cases and the paraphrase groups that belong to them.
pub struct SplitCases<'a> {
    pub name: String,
    pub cases: Vec<GoldenCase>,
    pub paraphrases: Vec<&'a Paraphrase>,
}

/// Runs the variants over each split and renders the ADR.
pub async fn run(
    pool: &PgPool,
    models: &Models,
    defaults: &SearchOptions,
    splits: &[SplitCases<'_>],
) -> AppResult<String> {
    // As `nyaya eval`: a golden question's near-copies in the question bank are held out.
    let base = SearchOptions {
        bank_holdout: Some(crate::search::bank::EVAL_HOLDOUT_COSINE),
        ..defaults.clone()
    };
    let mut tables = Vec::new();
    for split in splits {
        let mut rows = Vec::new();
        for v in variants(&base) {
            let ev = evaluate(pool, models, &split.cases, &v.opts).await?;
            let paraphrase = if split.paraphrases.is_empty() {
                None
            } else {
                let first = paraphrase_firsts_search(
                    pool,
                    models,
                    &split.paraphrases,
                    &ev.unpinned,
                    &v.opts,
                )
                .await?;
                ParaphraseCard::new(&split.paraphrases, &split.cases, &first).consistency
            };
            eprintln!(
                "{} {}: unpinned R@5 {}, MRR@10 {}, paraphrase consistency {}",
                split.name,
                v.name,
                f3(ev.scorecard.unpinned.recall_at_5),
                f3(ev.scorecard.unpinned.mrr_at_10),
                f3(paraphrase)
            );
            rows.push(row(&v.name, &split.cases, &ev, paraphrase));
        }
        tables.push((split, rows));
    }
    let commit = git(&["rev-parse", "--short", "HEAD"]);
    // Only what can change a number counts as dirty (docs and the ADRs themselves do not).
    let dirty = !git(&[
        "status",
        "--porcelain",
        "--untracked-files=no",
        "--",
        "src",
        "ingest/src",
        "eval/src",
        "eval/golden",
        "data",
        "migrations",
        "Cargo.toml",
        "Cargo.lock",
    ])
    .is_empty();
    let names: Vec<&str> = splits.iter().map(|s| s.name.as_str()).collect();
    let mut s = String::new();
    let _ = writeln!(s, "# ADR 0006: Retrieval ablation\n");
    let _ = writeln!(
        s,
        "Generated by `nyaya ablate` (`make ablate`) at commit `{commit}`{} on {} UTC, over the {} splits of `eval/golden/single_turn.jsonl` and their groups of `eval/golden/paraphrases.jsonl`. Do not edit by hand; rerun the command. The decisions it informs are in [ADR 0004](0004-retrieval.md), [ADR 0005](0005-refusal-threshold.md) and [ADR 0008](0008-learned-second-stage.md). Choices are made on dev; test is reported, never tuned on.\n",
        if dirty {
            " (with uncommitted code changes)"
        } else {
            ""
        },
        chrono::Utc::now().format("%Y-%m-%d %H:%M"),
        names.join(" and "),
    );
    let _ = writeln!(
        s,
        "Base configuration: mode `{}`, second stage `{:?}`, RRF k {}, leg depth {}, rerank depth {}, rescore weights {:?}, refusal threshold {:.3}.\n",
        base.mode, base.second_stage, base.rrf_k, base.depth, base.rerank_depth, base.weights, base.refusal_threshold
    );
    let _ = writeln!(
        s,
        "Columns: \"u.\" = unpinned (refs named in the question not put first; retrieval alone). R@5 pinned and lookup Hit@1 are what users get. Candidate recall is Recall@50 of the first stage's fused list, before the second stage. Paraphrase consistency: the share of paraphrase groups whose four wordings all lead (unpinned) with the same expected provision. Reach@5 counts an expected ref found in the unpinned top 5 *or* among the supporting provisions one cross-reference hop away. Refusal figures are the search-level decision (out-of-scope rules + calibrated threshold). Latency is the whole search per query (pinned run), on this machine, debug or release as built.\n"
    );
    for (split, rows) in tables {
        let _ = writeln!(s, "## {} split ({} cases)\n", split.name, split.cases.len());
        let _ = writeln!(
            s,
            "| variant | u. R@1 | u. R@5 | u. R@10 | u. MRR@10 | u. nDCG@5 | cand. recall | R@5 pinned | lookup Hit@1 | refusal acc. | false refusal | paraphrase cons. | u. reach@5 | p50 ms | p95 ms |"
        );
        let _ = writeln!(
            s,
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        );
        for r in rows {
            let _ = writeln!(s, "{r}");
        }
        let _ = writeln!(s);
    }
    Ok(s)
}
