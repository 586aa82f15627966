//! `nyaya bench`: a fixed question list (the golden set's questions, all splits) through search,
//! per mode, with per-stage latency percentiles and sequential queries per second.

use std::fmt::Write as _;
use std::time::Instant;

use sqlx::PgPool;

use nyaya_eval::metrics::percentile;

use crate::error::AppResult;
use crate::search::{search, Mode, Models, SearchOptions, Timings};

/// One mode's figures.
pub struct ModeBench {
    pub mode: Mode,
    pub queries: usize,
    /// stage → (p50, p95, p99) in ms.
    pub stages: Vec<(&'static str, [f64; 3])>,
    pub qps: f64,
    /// The slowest questions by their median total over the rounds, slowest first, with the
    /// stage timings of their median round.
    pub slowest: Vec<(String, Timings)>,
}

fn stage_names() -> Vec<&'static str> {
    Timings::default()
        .stages()
        .iter()
        .map(|(n, _)| *n)
        .collect()
}

/// Runs every question `rounds` times in `mode` (after one warm-up pass) and measures.
pub async fn bench_mode(
    pool: &PgPool,
    models: &Models,
    questions: &[String],
    base: &SearchOptions,
    mode: Mode,
    rounds: usize,
    show_slowest: usize,
) -> AppResult<ModeBench> {
    let opts = SearchOptions {
        mode,
        ..base.clone()
    };
    for q in questions.iter().take(20) {
        search(pool, models, q, &opts, String::new()).await?;
    }
    let mut per_question: Vec<Vec<Timings>> = vec![Vec::with_capacity(rounds); questions.len()];
    let started = Instant::now();
    for _ in 0..rounds {
        for (i, q) in questions.iter().enumerate() {
            per_question[i].push(
                search(pool, models, q, &opts, String::new())
                    .await?
                    .timings_ms,
            );
        }
    }
    let wall = started.elapsed().as_secs_f64();
    let timings: Vec<&Timings> = per_question.iter().flatten().collect();
    let stages = stage_names()
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            let v: Vec<f64> = timings.iter().map(|t| t.stages()[i].1).collect();
            let p = |q| percentile(&v, q).unwrap_or(0.0);
            (name, [p(50.0), p(95.0), p(99.0)])
        })
        .collect();
    let queries = timings.len();
    let mut slowest: Vec<(String, Timings)> = questions
        .iter()
        .zip(per_question)
        .filter_map(|(q, mut ts)| {
            ts.sort_by(|a, b| a.total.total_cmp(&b.total));
            let median = ts.get(ts.len() / 2)?.clone();
            Some((q.clone(), median))
        })
        .collect();
    slowest.sort_by(|a, b| b.1.total.total_cmp(&a.1.total));
    slowest.truncate(show_slowest);
    Ok(ModeBench {
        mode,
        queries,
        stages,
        qps: queries as f64 / wall.max(1e-9),
        slowest,
    })
}

/// The table `make bench` prints.
pub fn render(results: &[ModeBench]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<14} {:>8} {:>7}  {}",
        "mode",
        "queries",
        "QPS",
        stage_names()
            .iter()
            .map(|n| format!("{n:>22}"))
            .collect::<String>()
    );
    let _ = writeln!(
        s,
        "{:<14} {:>8} {:>7}  {}",
        "",
        "",
        "",
        stage_names()
            .iter()
            .map(|_| format!("{:>22}", "p50/p95/p99 ms"))
            .collect::<String>()
    );
    for r in results {
        let cells: String = r
            .stages
            .iter()
            .map(|(_, p)| format!("{:>22}", format!("{:.1}/{:.1}/{:.1}", p[0], p[1], p[2])))
            .collect();
        let _ = writeln!(
            s,
            "{:<14} {:>8} {:>7.1}  {}",
            r.mode.as_str(),
            r.queries,
            r.qps,
            cells
        );
    }
    for r in results.iter().filter(|r| !r.slowest.is_empty()) {
        let _ = writeln!(
            s,
            "\n{}: slowest questions (median round; words, then ms per stage)",
            r.mode.as_str()
        );
        for (q, t) in &r.slowest {
            let stages: String = t
                .stages()
                .iter()
                .map(|(n, v)| format!(" {n} {v:.1}"))
                .collect();
            let short: String = q.chars().take(60).collect();
            let _ = writeln!(
                s,
                "  {:>4}w {stages}  {short}",
                q.split_whitespace().count()
            );
        }
    }
    s
}
