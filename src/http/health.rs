//! Liveness and readiness.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};

use super::{ApiError, AppState};
use crate::error::AppError;
use crate::store;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
}

/// The process is up.
async fn healthz() -> Json<Value> {
    Json(json!({"status": "ok"}))
}

/// The database answers and a corpus is loaded.
async fn readyz(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    match store::corpus_info(&state.pool).await? {
        Some(info) if info.provisions > 0 => Ok(Json(json!({"status": "ready", "corpus": info}))),
        _ => Err(ApiError(AppError::NoCorpus)),
    }
}
