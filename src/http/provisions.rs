//! `GET /v1/provisions/{ref}` and the table of contents.

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use super::{ApiError, AppState};
use crate::error::AppError;
use crate::provision::lookup;
use crate::store::{self, ProvisionView};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/v1/provisions", get(list))
        .route("/v1/provisions/{reference}", get(one))
}

async fn one(
    State(state): State<AppState>,
    reference: Result<Path<String>, PathRejection>,
) -> Result<Json<ProvisionView>, ApiError> {
    let Path(reference) = reference?;
    Ok(Json(lookup(&state.pool, &reference).await?))
}

#[derive(Debug, Deserialize)]
struct ListQuery {
    part: Option<String>,
    kind: Option<String>,
}

const KINDS: [&str; 4] = ["preamble", "article", "schedule", "appendix"];

async fn list(
    State(state): State<AppState>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(q) = query?;
    let part = q.part.map(|p| p.trim().to_ascii_uppercase());
    let kind = q.kind.map(|k| k.trim().to_ascii_lowercase());
    if let Some(k) = &kind {
        if !KINDS.contains(&k.as_str()) {
            return Err(AppError::BadRequest(format!(
                "kind must be one of {}, not {k:?}",
                KINDS.join(", ")
            ))
            .into());
        }
    }
    if let Some(p) = &part {
        if !store::part_exists(&state.pool, p).await? {
            return Err(AppError::BadRequest(format!("no Part {p:?} in the Constitution")).into());
        }
    }
    let items = store::list_provisions(&state.pool, part.as_deref(), kind.as_deref()).await?;
    Ok(Json(json!({"count": items.len(), "provisions": items})))
}
