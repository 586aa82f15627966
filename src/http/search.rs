//! `POST /v1/search`.

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use tracing::Instrument;

use super::error::ErrorBody;
use super::request_id::RequestId;
use super::{ApiError, AppState};
use crate::search::{self, Mode, SearchOptions, SearchResponse};

pub fn router() -> Router<AppState> {
    Router::new().route("/v1/search", post(search_handler))
}

/// `POST /v1/search`'s body.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct SearchRequest {
    query: String,
    /// How many provisions, 1 to 50 (default 10).
    k: Option<usize>,
    /// Default: the server's `NYAYA_SEARCH_MODE`.
    mode: Option<Mode>,
    /// Put provisions the query names first (default true).
    pin: Option<bool>,
    /// The edition to search, by its date ("2022", "2022-05-01"); the server's default when
    /// absent (`GET /v1/editions`).
    edition: Option<String>,
}

/// Ranked provisions for a query.
///
/// With the provisions they cite, and whether the text covers the query at all.
#[utoipa::path(post, path = "/v1/search", tag = "search", operation_id = "search",
    request_body = SearchRequest,
    responses(
        (status = 200, description = "The ranking", body = SearchResponse),
        (status = 400, description = "`bad_request`: a malformed body, an empty or too long query, k out of range; `invalid_text`: a control character in the query", body = ErrorBody),
        (status = 404, description = "`unknown_edition`: no stored edition has that date", body = ErrorBody),
        (status = 413, description = "`payload_too_large`: a body over 256 KiB", body = ErrorBody),
        (status = 500, description = "`internal`: the embedder failed", body = ErrorBody),
        (status = 503, description = "`model_unavailable` (a dense mode without the embedder) or `database_unavailable` (with `Retry-After`)", body = ErrorBody),
    ))]
async fn search_handler(
    State(state): State<AppState>,
    RequestId(request_id): RequestId,
    body: Result<Json<SearchRequest>, JsonRejection>,
) -> Result<Json<SearchResponse>, ApiError> {
    let Json(req) = body?;
    let defaults = state.search.clone();
    let opts = SearchOptions {
        k: req.k.unwrap_or(defaults.k),
        mode: req.mode.unwrap_or(defaults.mode),
        pin: req.pin.unwrap_or(defaults.pin),
        edition: req.edition.clone().or(defaults.edition.clone()),
        ..defaults
    };
    let span = tracing::info_span!("search");
    let response = search::search(
        &state.pool,
        &state.models,
        &req.query,
        &opts,
        request_id.clone(),
    )
    .instrument(span)
    .await?;
    crate::metrics::global().observe_stages("search", &response.timings_ms.stages());
    tracing::info!(
        results = response.results.len(),
        total_ms = response.timings_ms.total,
        "search"
    );
    Ok(Json(response))
}
