//! Liveness and readiness.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

use super::error::ErrorBody;
use super::{ApiError, AppState};
use crate::error::AppError;
use crate::store::{self, CorpusInfo};

/// How long `/readyz` waits for the database.
const READY_DEADLINE: std::time::Duration = std::time::Duration::from_millis(900);

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
}

#[derive(Serialize, utoipa::ToSchema)]
struct Health {
    /// Always "ok".
    #[schema(value_type = String, example = "ok")]
    status: &'static str,
}

#[derive(Serialize, utoipa::ToSchema)]
struct Readiness {
    /// Always "ready".
    #[schema(value_type = String, example = "ready")]
    status: &'static str,
    corpus: CorpusInfo,
}

/// The process is up (never touches the database).
#[utoipa::path(get, path = "/healthz", tag = "health",
    responses((status = 200, description = "Alive", body = Health)))]
async fn healthz() -> Json<Health> {
    Json(Health { status: "ok" })
}

/// The database answers and a corpus is loaded.
#[utoipa::path(get, path = "/readyz", tag = "health", responses(
    (status = 200, description = "Ready to answer", body = Readiness),
    (status = 503, description = "`no_corpus` or `database_unavailable`", body = ErrorBody),
))]
async fn readyz(State(state): State<AppState>) -> Result<Json<Readiness>, ApiError> {
    // Answer within a second whatever the database does: a probe that hangs is worse than one
    // that says no.
    let info = tokio::time::timeout(
        READY_DEADLINE,
        store::corpus_info(&state.pool, state.config.edition.as_deref()),
    )
    .await
    .map_err(|_| AppError::DbTimeout)??;
    match info {
        Some(corpus) if corpus.provisions > 0 => Ok(Json(Readiness {
            status: "ready",
            corpus,
        })),
        _ => Err(ApiError(AppError::NoCorpus)),
    }
}
