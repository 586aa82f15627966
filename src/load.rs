//! `nyaya load`: drives a running server over HTTP at a fixed concurrency — a mix of searches
//! and answers over the golden questions — optionally stopping the embedded Postgres for a
//! window mid-run, and reports what a client saw: requests per second, latency percentiles per
//! kind, statuses inside and outside the outage, and the server's resident memory before and
//! after. `scripts/load.sh` (`make load`) strings the phases together.
//!
//! The verdict is strict: outside the outage window every response must be a 2xx; inside it
//! only 2xx and 503 (fast, typed refusals) are acceptable.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nyaya_eval::metrics::percentile;

/// What one run does.
#[derive(Debug, Clone)]
pub struct LoadPlan {
    pub url: String,
    pub concurrency: usize,
    /// Stop after this long…
    pub duration: Option<Duration>,
    /// …or after this many requests (whichever comes first; at least one must be set).
    pub requests: Option<usize>,
    /// The share of requests that are answers (`POST /v1/ask`, extractive); the rest search.
    pub ask_share: f64,
    pub questions: Vec<String>,
    /// Stop Postgres `at` seconds into the run for `len` seconds (`scripts/pg.sh down|up`).
    pub outage: Option<(Duration, Duration)>,
}

/// One request as the client saw it.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    /// Seconds from the start of the run to the request's start.
    pub at: f64,
    pub ms: f64,
    /// 0 when the request got no HTTP response at all.
    pub status: u16,
    pub ask: bool,
}

/// The `i`th request of a run: which kind and which question. Deterministic, so runs compare:
/// every `round(1 / ask_share)`th request is an answer.
pub fn request_for(i: usize, ask_share: f64, questions: &[String]) -> (bool, &str) {
    let every = if ask_share <= 0.0 {
        usize::MAX
    } else {
        (1.0 / ask_share).round().max(1.0) as usize
    };
    let ask = every != usize::MAX && i.is_multiple_of(every);
    (ask, questions[i % questions.len()].as_str())
}

/// Runs the plan and returns every sample, in completion order.
pub async fn run(plan: &LoadPlan) -> Result<Vec<Sample>, String> {
    if plan.questions.is_empty() {
        return Err("no questions to send".into());
    }
    if plan.duration.is_none() && plan.requests.is_none() {
        return Err("give a duration or a number of requests".into());
    }
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .pool_max_idle_per_host(plan.concurrency)
        .build()
        .map_err(|e| e.to_string())?;
    let started = Instant::now();
    let next = Arc::new(AtomicUsize::new(0));
    let samples = Arc::new(Mutex::new(Vec::new()));
    let plan = Arc::new(plan.clone());
    let outage = plan.outage.map(|(at, len)| {
        tokio::spawn(async move {
            tokio::time::sleep(at).await;
            eprintln!("load: stopping Postgres for {} s", len.as_secs());
            pg("down").await;
            tokio::time::sleep(len).await;
            pg("up").await;
            eprintln!("load: Postgres is back");
        })
    });
    let workers: Vec<_> = (0..plan.concurrency.max(1))
        .map(|_| {
            let (client, next, samples, plan) =
                (client.clone(), next.clone(), samples.clone(), plan.clone());
            tokio::spawn(async move {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if plan.requests.is_some_and(|n| i >= n)
                        || plan.duration.is_some_and(|d| started.elapsed() >= d)
                    {
                        break;
                    }
                    let (ask, question) = request_for(i, plan.ask_share, &plan.questions);
                    let (path, body) = if ask {
                        (
                            "/v1/ask",
                            serde_json::json!({"question": question, "mode": "extractive"}),
                        )
                    } else {
                        ("/v1/search", serde_json::json!({"query": question}))
                    };
                    let at = started.elapsed().as_secs_f64();
                    let t = Instant::now();
                    let status = match client
                        .post(format!("{}{path}", plan.url))
                        .json(&body)
                        .send()
                        .await
                    {
                        Ok(resp) => {
                            let status = resp.status().as_u16();
                            let _ = resp.bytes().await;
                            status
                        }
                        Err(_) => 0,
                    };
                    let ms = t.elapsed().as_secs_f64() * 1000.0;
                    samples.lock().unwrap().push(Sample {
                        at,
                        ms,
                        status,
                        ask,
                    });
                }
            })
        })
        .collect();
    for w in workers {
        w.await.map_err(|e| e.to_string())?;
    }
    if let Some(o) = outage {
        o.await.map_err(|e| e.to_string())?;
    }
    let samples = samples.lock().unwrap().clone();
    Ok(samples)
}

/// `bash scripts/pg.sh <cmd>` (the embedded Postgres).
async fn pg(cmd: &str) {
    let cmd = cmd.to_string();
    let status = tokio::task::spawn_blocking(move || {
        std::process::Command::new("bash")
            .args(["scripts/pg.sh", &cmd])
            .status()
    })
    .await
    .map_err(|e| std::io::Error::other(e.to_string()))
    .and_then(|r| r);
    if !status.is_ok_and(|s| s.success()) {
        eprintln!("load: scripts/pg.sh failed");
    }
}

/// Latency percentiles and throughput of one kind of request.
#[derive(Debug, Clone, serde::Serialize)]
pub struct KindFigures {
    pub requests: usize,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub p99_ms: f64,
}

/// A run's report.
#[derive(Debug, Clone, serde::Serialize)]
pub struct LoadReport {
    pub seconds: f64,
    pub requests: usize,
    pub rps: f64,
    pub search: Option<KindFigures>,
    pub ask: Option<KindFigures>,
    /// status → count, outside the outage window (0 = no response).
    pub statuses: BTreeMap<u16, usize>,
    /// status → count, for requests started inside the outage window (plus 2 s for the pool
    /// to reconnect).
    pub outage_statuses: BTreeMap<u16, usize>,
    /// p95 of the requests answered 503 during the outage: how fast the refusals were.
    pub outage_503_p95_ms: Option<f64>,
    pub rss_before_mb: Option<f64>,
    pub rss_after_mb: Option<f64>,
    /// Outside the window only 2xx; inside it only 2xx and 503.
    pub ok: bool,
}

/// How long after Postgres is back requests may still fail (the pool reconnects on demand).
const RECOVERY_GRACE_S: f64 = 2.0;

pub fn report(
    samples: &[Sample],
    seconds: f64,
    outage: Option<(Duration, Duration)>,
    rss_before_mb: Option<f64>,
    rss_after_mb: Option<f64>,
) -> LoadReport {
    let in_outage = |s: &Sample| {
        outage.is_some_and(|(at, len)| {
            let (from, to) = (
                at.as_secs_f64(),
                (at + len).as_secs_f64() + RECOVERY_GRACE_S,
            );
            // A request that started before the stop may still be running when it comes.
            s.at + s.ms / 1000.0 >= from && s.at <= to
        })
    };
    let figures = |ask: bool| {
        let ms: Vec<f64> = samples
            .iter()
            .filter(|s| s.ask == ask && !in_outage(s) && (200..300).contains(&s.status))
            .map(|s| s.ms)
            .collect();
        (!ms.is_empty()).then(|| KindFigures {
            requests: ms.len(),
            p50_ms: percentile(&ms, 50.0).unwrap_or(0.0),
            p95_ms: percentile(&ms, 95.0).unwrap_or(0.0),
            p99_ms: percentile(&ms, 99.0).unwrap_or(0.0),
        })
    };
    let mut statuses = BTreeMap::new();
    let mut outage_statuses = BTreeMap::new();
    for s in samples {
        let map = if in_outage(s) {
            &mut outage_statuses
        } else {
            &mut statuses
        };
        *map.entry(s.status).or_insert(0) += 1;
    }
    let refusals: Vec<f64> = samples
        .iter()
        .filter(|s| in_outage(s) && s.status == 503)
        .map(|s| s.ms)
        .collect();
    let ok = statuses.keys().all(|s| (200..300).contains(s))
        && outage_statuses
            .keys()
            .all(|s| (200..300).contains(s) || *s == 503);
    LoadReport {
        seconds,
        requests: samples.len(),
        rps: samples.len() as f64 / seconds.max(1e-9),
        search: figures(false),
        ask: figures(true),
        statuses,
        outage_statuses,
        outage_503_p95_ms: percentile(&refusals, 95.0),
        rss_before_mb,
        rss_after_mb,
        ok,
    }
}

/// The report as a few lines of text.
pub fn render(label: &str, r: &LoadReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{label}: {} requests in {:.1} s = {:.1} req/s",
        r.requests, r.seconds, r.rps
    );
    for (kind, f) in [("search", &r.search), ("ask", &r.ask)] {
        if let Some(f) = f {
            let _ = writeln!(
                out,
                "  {kind:<6} n={:<6} p50 {:>7.1} ms  p95 {:>7.1} ms  p99 {:>7.1} ms",
                f.requests, f.p50_ms, f.p95_ms, f.p99_ms
            );
        }
    }
    let _ = writeln!(out, "  statuses: {:?}", r.statuses);
    if !r.outage_statuses.is_empty() {
        let _ = writeln!(
            out,
            "  during the outage: {:?}; 503 p95 {:.0} ms",
            r.outage_statuses,
            r.outage_503_p95_ms.unwrap_or(0.0)
        );
    }
    if let (Some(b), Some(a)) = (r.rss_before_mb, r.rss_after_mb) {
        let _ = writeln!(out, "  server RSS: {b:.0} MB before, {a:.0} MB after");
    }
    let _ = writeln!(out, "  verdict: {}", if r.ok { "ok" } else { "FAILED" });
    out
}

/// A process's resident set size in MB, from `/proc/<pid>/status` (Linux).
pub fn rss_mb(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mix_is_deterministic() {
        let qs: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let asks = (0..100).filter(|&i| request_for(i, 0.25, &qs).0).count();
        assert_eq!(asks, 25);
        assert_eq!(request_for(4, 0.25, &qs), (true, "b"));
        assert!(!(0..10).any(|i| request_for(i, 0.0, &qs).0));
        assert!((0..10).all(|i| request_for(i, 1.0, &qs).0));
    }

    #[test]
    fn the_verdict_allows_only_503s_in_the_outage() {
        let s = |at: f64, status: u16| Sample {
            at,
            ms: 10.0,
            status,
            ask: false,
        };
        let outage = Some((Duration::from_secs(10), Duration::from_secs(5)));
        let good = [s(1.0, 200), s(11.0, 503), s(12.0, 200), s(20.0, 200)];
        let r = report(&good, 30.0, outage, None, None);
        assert!(r.ok, "{r:?}");
        assert_eq!(r.outage_statuses.get(&503), Some(&1));
        assert_eq!(r.search.as_ref().unwrap().requests, 2);
        let bad_outside = [s(1.0, 503), s(11.0, 503)];
        assert!(!report(&bad_outside, 30.0, outage, None, None).ok);
        let bad_inside = [s(11.0, 500)];
        assert!(!report(&bad_inside, 30.0, outage, None, None).ok);
    }
}
