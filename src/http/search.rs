//! `POST /v1/search`.

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use tracing::Instrument;

use super::request_id::RequestId;
use super::{ApiError, AppState};
use crate::error::AppError;
use crate::search::{self, Mode, SearchOptions, SearchResponse};

pub fn router() -> Router<AppState> {
    Router::new().route("/v1/search", post(search_handler))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchRequest {
    query: String,
    k: Option<usize>,
    mode: Option<Mode>,
    pin: Option<bool>,
}

async fn search_handler(
    State(state): State<AppState>,
    RequestId(request_id): RequestId,
    body: Result<Json<SearchRequest>, JsonRejection>,
) -> Result<Json<SearchResponse>, ApiError> {
    let Json(req) =
        body.map_err(|e| AppError::BadRequest(format!("invalid request body: {}", e.body_text())))?;
    let defaults = state.config.search_options();
    let opts = SearchOptions {
        k: req.k.unwrap_or(defaults.k),
        mode: req.mode.unwrap_or(defaults.mode),
        pin: req.pin.unwrap_or(defaults.pin),
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
    tracing::info!(
        results = response.results.len(),
        total_ms = response.timings_ms.total,
        "search"
    );
    Ok(Json(response))
}
