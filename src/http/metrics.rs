//! `GET /metrics` and the middleware that counts and times every request.

use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use super::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/metrics", get(metrics))
}

/// Request, search, answer and LLM call counters and latencies for Prometheus.
#[utoipa::path(get, path = "/metrics", tag = "operations", responses(
    (status = 200, description = "OpenMetrics text", body = String,
        content_type = "application/openmetrics-text; version=1.0.0; charset=utf-8")))]
async fn metrics() -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/openmetrics-text; version=1.0.0; charset=utf-8"),
        )],
        crate::metrics::global().render(),
    )
        .into_response()
}

/// Labels a request by its route template, never its raw path (an unknown path is
/// "unmatched"), so a scan of random URLs cannot blow up the series count.
pub async fn track(request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| "unmatched".to_string());
    let method = request.method().to_string();
    let started = Instant::now();
    let response = next.run(request).await;
    crate::metrics::global().observe_request(
        &route,
        &method,
        response.status().as_u16(),
        started.elapsed(),
    );
    response
}
