//! The chat page at `/`: three static files compiled into the binary (no CDN, no build step),
//! and `GET /v1/document.pdf`, the ingested PDF the page links to at a page (`#page=N`).
//!
//! `NYAYA_PAGE_DIR` (`Config::page_dir`, a folder holding the same three files) makes the
//! server read them from disk on every request instead, so the page can be edited without
//! rebuilding.

use axum::body::Body;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use super::{ApiError, AppState};
use crate::error::AppError;

/// The page's files: name, content type, embedded bytes.
const ASSETS: [(&str, &str, &str); 3] = [
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("page/index.html"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("page/app.js"),
    ),
    (
        "app.css",
        "text/css; charset=utf-8",
        include_str!("page/app.css"),
    ),
];

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(index))
        .route("/assets/{file}", get(asset))
        .route("/v1/document.pdf", get(document))
}

/// The chat page.
#[utoipa::path(get, path = "/", tag = "page", operation_id = "page", responses(
    (status = 200, description = "The page", content_type = "text/html", body = String)))]
async fn index(State(state): State<AppState>) -> Result<Response, ApiError> {
    serve(&state, "index.html")
}

/// The page's script and style sheet.
#[utoipa::path(get, path = "/assets/{file}", tag = "page",
    params(("file" = String, Path, description = "app.js or app.css")),
    responses(
        (status = 200, description = "The file", content((String = "text/javascript"), (String = "text/css"))),
        (status = 404, description = "`not_found`: no such file", body = super::error::ErrorBody),
    ))]
async fn asset(
    State(state): State<AppState>,
    Path(file): Path<String>,
) -> Result<Response, ApiError> {
    if file == "index.html" {
        return Err(not_found(&file));
    }
    serve(&state, &file)
}

fn not_found(file: &str) -> ApiError {
    ApiError(AppError::NoSuchEndpoint {
        path: format!("/assets/{file}"),
    })
}

fn serve(state: &AppState, file: &str) -> Result<Response, ApiError> {
    let (name, content_type, embedded) = ASSETS
        .iter()
        .find(|(name, _, _)| *name == file)
        .ok_or_else(|| not_found(file))?;
    let body = match &state.config.page_dir {
        Some(dir) => Body::from(
            std::fs::read_to_string(dir.join(name))
                .map_err(|e| AppError::Resource(format!("{}: {e}", dir.join(name).display())))?,
        ),
        None => Body::from(*embedded),
    };
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            // Small files that change with the binary: revalidate rather than go stale.
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
        ],
        body,
    )
        .into_response())
}

/// The PDF an edition was ingested from (the default edition's unless `?edition=` names
/// another), shown inline (browsers open it at `#page=N`). 503 `no_corpus` before the first
/// ingest.
#[utoipa::path(get, path = "/v1/document.pdf", tag = "page", operation_id = "document_pdf",
    summary = "The PDF an edition was ingested from, shown inline",
    params(super::provisions::EditionQuery),
    responses(
    (status = 200, description = "The PDF", content(("application/pdf"))),
    (status = 404, description = "`unknown_edition`: no stored edition has that date", body = super::error::ErrorBody),
    (status = 503, description = "`no_corpus` or `database_unavailable`", body = super::error::ErrorBody),
))]
async fn document(
    State(state): State<AppState>,
    query: Result<Query<super::provisions::EditionQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query?;
    let edition = state.edition(q.edition.as_deref()).await?;
    let pdf = crate::store::edition_pdf(&state.pool, edition.document_id)
        .await?
        .ok_or(AppError::NoCorpus)?;
    let disposition = format!(
        "inline; filename=\"{}\"",
        pdf.source_name.replace(['"', '\\', '\r', '\n'], "_")
    );
    Ok((
        StatusCode::OK,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/pdf"),
            ),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&disposition)
                    .unwrap_or_else(|_| HeaderValue::from_static("inline")),
            ),
            (
                header::ETAG,
                HeaderValue::from_str(&format!("\"{}\"", pdf.sha256))
                    .unwrap_or_else(|_| HeaderValue::from_static("\"pdf\"")),
            ),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=3600"),
            ),
        ],
        pdf.bytes,
    )
        .into_response())
}
