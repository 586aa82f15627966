//! `GET /v1/diff`: what changed between two stored editions (`nyaya_ingest::diff` over the
//! stored rows of each).

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use super::error::ErrorBody;
use super::{ApiError, AppState};
use crate::error::AppError;
use crate::store;

pub fn router() -> Router<AppState> {
    Router::new().route("/v1/diff", get(diff))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct DiffQuery {
    /// The older edition, by its date: "2022", "2022-05-01".
    from: Option<String>,
    /// The newer edition; the default edition when absent.
    to: Option<String>,
    /// Only this provision's change, in any spelling ("239AA", "Art. 239-AA").
    #[param(rename = "ref")]
    #[serde(rename = "ref")]
    reference: Option<String>,
}

/// Counts of each kind of change.
#[derive(Debug, Serialize, utoipa::ToSchema)]
struct DiffCounts {
    unchanged: usize,
    amended: usize,
    inserted: usize,
    omitted: usize,
    revised: usize,
}

/// What `GET /v1/diff` returns.
#[derive(Debug, Serialize, utoipa::ToSchema)]
struct DiffResponse {
    from: store::Edition,
    to: store::Edition,
    counts: DiffCounts,
    /// Every provision that differs, in the newer edition's order: `kind` is `amended` (a
    /// footnote of the newer edition records an amendment after the older edition; `acts`
    /// lists them), `inserted`, `omitted`, or `revised` (a printing difference no amendment
    /// explains); `words` are the word runs from the older text to the newer (`same`,
    /// `removed`, `added`).
    #[schema(value_type = Vec<Object>)]
    changes: Vec<nyaya_ingest::diff::ProvisionChange>,
}

/// What changed between two stored editions: per provision amended, inserted, omitted or
/// revised, the word-level changes, and the amending Acts that explain them.
#[utoipa::path(get, path = "/v1/diff", tag = "provisions", operation_id = "diff_editions",
    params(DiffQuery),
    responses(
        (status = 200, description = "The changes", body = DiffResponse),
        (status = 400, description = "`bad_request`: `from` missing, or not older than `to`", body = ErrorBody),
        (status = 404, description = "`unknown_edition`: no stored edition has that date; `unknown_ref`: no such provision", body = ErrorBody),
        (status = 503, description = "`no_corpus` or `database_unavailable`", body = ErrorBody),
    ))]
async fn diff(
    State(state): State<AppState>,
    query: Result<Query<DiffQuery>, QueryRejection>,
) -> Result<Json<DiffResponse>, ApiError> {
    let Query(q) = query?;
    for (field, v) in [("from", &q.from), ("to", &q.to), ("ref", &q.reference)] {
        crate::input::check_text(field, v.as_deref().unwrap_or(""))?;
    }
    let from = q.from.as_deref().ok_or_else(|| {
        AppError::BadRequest("`from` is required: the older edition's date, \"2022\"".into())
    })?;
    let from = state.edition(Some(from)).await?;
    let to = state.edition(q.to.as_deref()).await?;
    if from.date >= to.date {
        return Err(AppError::BadRequest(format!(
            "`from` ({}) must be an older edition than `to` ({})",
            from.date, to.date
        ))
        .into());
    }
    let only = match q.reference.as_deref() {
        // The newer edition first; an omitted or renumbered provision only the older one has.
        Some(r) => Some(
            match crate::provision::lookup(&state.pool, to.document_id, r).await {
                Ok(p) => p,
                Err(_) => crate::provision::lookup(&state.pool, from.document_id, r).await?,
            },
        ),
        None => None,
    };
    let (old, new) = tokio::try_join!(
        store::load_document(&state.pool, from.document_id),
        store::load_document(&state.pool, to.document_id)
    )?;
    let (Some(old), Some(new)) = (old, new) else {
        // Replaced by a re-ingest between the two reads.
        return Err(AppError::NoCorpus.into());
    };
    let d = tokio::task::spawn_blocking(move || nyaya_ingest::diff::compare(&old, &new))
        .await
        .map_err(|e| AppError::Resource(format!("diff task failed: {e}")))?;
    let count = |k| d.changes.iter().filter(|c| c.kind == k).count();
    use nyaya_ingest::diff::ChangeKind;
    let counts = DiffCounts {
        unchanged: d.unchanged,
        amended: count(ChangeKind::Amended),
        inserted: count(ChangeKind::Inserted),
        omitted: count(ChangeKind::Omitted),
        revised: count(ChangeKind::Revised),
    };
    let changes = d
        .changes
        .into_iter()
        .filter(|c| only.as_ref().is_none_or(|p| c.id.as_str() == p.ref_id))
        .collect();
    Ok(Json(DiffResponse {
        from,
        to,
        counts,
        changes,
    }))
}
