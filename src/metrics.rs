//! Prometheus metrics (`GET /metrics`): requests by route and status, latency per request and
//! per pipeline stage, answers and refusals, what the guards removed, LLM calls by status and each LLM endpoint's circuit breaker.
//!
//! One process-wide registry, like every Prometheus client's default: the pipeline records
//! where the facts are (the HTTP layer, the end of `answer::ask`, the `llm_calls` writer)
//! without threading a handle through every call. Labels are bounded sets (route templates,
//! stage names, statuses), never user text.

use std::sync::OnceLock;
use std::time::Duration;

use prometheus_client::encoding::text::encode;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    /// The matched route template ("/v1/provisions/{reference}"), or "unmatched".
    route: String,
    method: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabel {
    route: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct StageLabels {
    /// "ask" or "search".
    pipeline: &'static str,
    stage: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct AnswerLabels {
    /// The router's route ("simple", "out_of_scope", …).
    route: &'static str,
    mode: &'static str,
    /// "answered", "refused" or "degraded".
    outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct GuardLabel {
    /// "stripped_citations", "dropped_quotes" or "dropped_figures".
    kind: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ProviderLabel {
    /// "primary" or "fallback".
    provider: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct LlmLabels {
    purpose: &'static str,
    status: &'static str,
}

/// 1 ms … about 33 s, doubling.
fn latency_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.001, 2.0, 16))
}

pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    request_seconds: Family<RouteLabel, Histogram, fn() -> Histogram>,
    stage_seconds: Family<StageLabels, Histogram, fn() -> Histogram>,
    answers: Family<AnswerLabels, Counter>,
    refusals: Family<RouteLabel, Counter>,
    guard_removals: Family<GuardLabel, Counter>,
    llm_calls: Family<LlmLabels, Counter>,
    llm_breakers: Family<ProviderLabel, Gauge>,
}

impl Metrics {
    fn new() -> Self {
        let mut registry = Registry::default();
        let requests = Family::<RequestLabels, Counter>::default();
        let request_seconds: Family<RouteLabel, Histogram, fn() -> Histogram> =
            Family::new_with_constructor(latency_histogram);
        let stage_seconds: Family<StageLabels, Histogram, fn() -> Histogram> =
            Family::new_with_constructor(latency_histogram);
        let answers = Family::<AnswerLabels, Counter>::default();
        let refusals = Family::<RouteLabel, Counter>::default();
        let guard_removals = Family::<GuardLabel, Counter>::default();
        let llm_calls = Family::<LlmLabels, Counter>::default();
        let llm_breakers = Family::<ProviderLabel, Gauge>::default();
        // Counters get their `_total` suffix from the encoder.
        registry.register(
            "nyaya_http_requests",
            "HTTP requests by route template, method and status",
            requests.clone(),
        );
        registry.register(
            "nyaya_http_request_duration_seconds",
            "HTTP request latency by route template",
            request_seconds.clone(),
        );
        registry.register(
            "nyaya_stage_duration_seconds",
            "Latency of each pipeline stage (ask: route, retrieve, quote, llm, total; search: embed, dense, lexical, fuse, rerank, total)",
            stage_seconds.clone(),
        );
        registry.register(
            "nyaya_answers",
            "Answers by route, mode and outcome (answered, refused, degraded)",
            answers.clone(),
        );
        registry.register(
            "nyaya_refusals",
            "Refusals (the text does not cover the question) by route",
            refusals.clone(),
        );
        registry.register(
            "nyaya_guard_removals",
            "What the guards removed from LLM answers, by kind",
            guard_removals.clone(),
        );
        registry.register(
            "nyaya_llm_calls",
            "LLM call attempts by purpose and status",
            llm_calls.clone(),
        );
        registry.register(
            "nyaya_llm_breaker_state",
            "Each LLM endpoint's circuit breaker: 0 closed, 1 open (skipped), 2 half-open (probing)",
            llm_breakers.clone(),
        );
        Metrics {
            llm_breakers,
            registry,
            requests,
            request_seconds,
            stage_seconds,
            answers,
            refusals,
            guard_removals,
            llm_calls,
        }
    }

    /// One finished HTTP request.
    pub fn observe_request(&self, route: &str, method: &str, status: u16, elapsed: Duration) {
        self.requests
            .get_or_create(&RequestLabels {
                route: route.to_string(),
                method: method.to_string(),
                status,
            })
            .inc();
        self.request_seconds
            .get_or_create(&RouteLabel {
                route: route.to_string(),
            })
            .observe(elapsed.as_secs_f64());
    }

    /// Stage latencies, given in milliseconds as the responses report them.
    pub fn observe_stages(&self, pipeline: &'static str, stages: &[(&'static str, f64)]) {
        for (stage, ms) in stages {
            self.stage_seconds
                .get_or_create(&StageLabels { pipeline, stage })
                .observe(ms / 1000.0);
        }
    }

    /// One answer: its outcome, and what the guards removed.
    pub fn observe_answer(
        &self,
        route: &'static str,
        mode: &'static str,
        refused: bool,
        degraded: bool,
        guards: &crate::answer::guard::GuardCounts,
    ) {
        let outcome = if refused {
            "refused"
        } else if degraded {
            "degraded"
        } else {
            "answered"
        };
        self.answers
            .get_or_create(&AnswerLabels {
                route,
                mode,
                outcome,
            })
            .inc();
        if refused {
            self.refusals
                .get_or_create(&RouteLabel {
                    route: route.to_string(),
                })
                .inc();
        }
        for (kind, n) in [
            ("stripped_citations", guards.stripped_citations),
            ("dropped_quotes", guards.dropped_quotes),
            ("dropped_figures", guards.dropped_figures),
        ] {
            // Created even at zero so every kind is exported from the first answer on.
            self.guard_removals
                .get_or_create(&GuardLabel { kind })
                .inc_by(n as u64);
        }
    }

    pub fn observe_llm_call(&self, purpose: &'static str, status: &'static str) {
        self.llm_calls
            .get_or_create(&LlmLabels { purpose, status })
            .inc();
    }

    pub fn set_llm_breaker(&self, provider: &'static str, state: i64) {
        self.llm_breakers
            .get_or_create(&ProviderLabel { provider })
            .set(state);
    }

    /// The text exposition (OpenMetrics, which Prometheus scrapes).
    pub fn render(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = encode(&mut out, &self.registry);
        out
    }
}

/// The process's metrics.
pub fn global() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(Metrics::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_what_was_observed() {
        let m = Metrics::new();
        m.observe_request("/v1/ask", "POST", 200, Duration::from_millis(12));
        m.observe_stages("ask", &[("retrieve", 40.0)]);
        m.observe_answer(
            "out_of_scope",
            "extractive",
            true,
            false,
            &Default::default(),
        );
        m.observe_llm_call("answer", "ok");
        m.set_llm_breaker("primary", 1);
        let text = m.render();
        for needle in [
            r#"nyaya_http_requests_total{route="/v1/ask",method="POST",status="200"} 1"#,
            r#"nyaya_http_request_duration_seconds_count{route="/v1/ask"} 1"#,
            r#"nyaya_stage_duration_seconds_bucket{le="0.064",pipeline="ask",stage="retrieve"} 1"#,
            r#"nyaya_answers_total{route="out_of_scope",mode="extractive",outcome="refused"} 1"#,
            r#"nyaya_refusals_total{route="out_of_scope"} 1"#,
            r#"nyaya_guard_removals_total{kind="dropped_quotes"} 0"#,
            r#"nyaya_llm_calls_total{purpose="answer",status="ok"} 1"#,
            r#"nyaya_llm_breaker_state{provider="primary"} 1"#,
        ] {
            assert!(text.contains(needle), "{needle} missing from\n{text}");
        }
        assert!(text.ends_with("# EOF\n"));
    }
}
