//! `GET /v1/provisions/{ref}` and the table of contents.

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use super::error::ErrorBody;
use super::{ApiError, AppState};
use crate::error::AppError;
use crate::input::check_text;
use crate::provision::lookup;
use crate::store::{self, ProvisionView, TocEntry};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/v1/provisions", get(list))
        .route("/v1/provisions/{reference}", get(one))
}

/// One provision: its text, clauses, amendment notes and cross-references.
#[utoipa::path(get, path = "/v1/provisions/{reference}", tag = "provisions", operation_id = "get_provision",
    params(("reference" = String, Path,
        description = "A provision as people write it: \"21A\", \"Art. 21-A\", \"Article 370\"")),
    responses(
        (status = 200, description = "The provision", body = ProvisionView),
        (status = 404, description = "`unknown_ref`: no such provision (`ref` echoes the request)", body = ErrorBody),
        (status = 503, description = "`no_corpus` or `database_unavailable`", body = ErrorBody),
    ))]
async fn one(
    State(state): State<AppState>,
    reference: Result<Path<String>, PathRejection>,
) -> Result<Json<ProvisionView>, ApiError> {
    let Path(reference) = reference?;
    check_text("reference", &reference)?;
    Ok(Json(lookup(&state.pool, &reference).await?))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct ListQuery {
    /// Only this Part ("III", "IVA"; any case).
    part: Option<String>,
    /// Only this kind: preamble, article, schedule or appendix (any case).
    kind: Option<String>,
}

/// The table of contents.
#[derive(Serialize, utoipa::ToSchema)]
struct ProvisionList {
    count: usize,
    provisions: Vec<TocEntry>,
}

const KINDS: [&str; 4] = ["preamble", "article", "schedule", "appendix"];

/// The table of contents, in the Constitution's order, optionally filtered.
#[utoipa::path(get, path = "/v1/provisions", tag = "provisions", operation_id = "list_provisions",
    params(ListQuery), responses(
    (status = 200, description = "Every matching provision", body = ProvisionList),
    (status = 400, description = "`bad_request`: an unknown kind or Part", body = ErrorBody),
    (status = 503, description = "`database_unavailable`", body = ErrorBody),
))]
async fn list(
    State(state): State<AppState>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Json<ProvisionList>, ApiError> {
    let Query(q) = query?;
    check_text("part", q.part.as_deref().unwrap_or(""))?;
    check_text("kind", q.kind.as_deref().unwrap_or(""))?;
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
    Ok(Json(ProvisionList {
        count: items.len(),
        provisions: items,
    }))
}
