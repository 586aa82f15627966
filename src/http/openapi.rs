//! `GET /openapi.json`: the API as an OpenAPI 3.1 document.
//!
//! Generated at compile time by utoipa from the handlers' `#[utoipa::path]` attributes and the
//! types' `ToSchema` derives, so the description lives next to the code it describes rather
//! than in a hand-kept file. Nothing forces a new route to be listed here, so
//! `tests/openapi.rs` checks that every route of the router is documented and that real
//! responses validate against the documented schemas.

use axum::routing::get;
use axum::{Json, Router};
use utoipa::OpenApi;

use super::AppState;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Nyaya",
        description = "Answers questions about the Constitution of India with the Constitution's own words.",
        license(name = "MIT OR Apache-2.0", identifier = "MIT OR Apache-2.0"),
    ),
    paths(
        super::health::healthz,
        super::health::readyz,
        super::provisions::list,
        super::provisions::one,
        super::provisions::editions,
        super::provisions::as_of,
        super::diff::diff,
        super::search::search_handler,
        super::ask::ask,
        super::ask::ask_stream,
        super::ask::answer_basis,
        super::eligibility::offices,
        super::eligibility::check,
        super::page::index,
        super::page::asset,
        super::page::document,
        super::metrics::metrics,
        openapi_json,
    ),
    // The payloads of `POST /v1/ask/stream`'s events that no other response uses.
    components(schemas(super::ask::StreamDelta, super::ask::StreamError)),
    tags(
        (name = "health", description = "Liveness and readiness"),
        (name = "provisions", description = "The text, provision by provision"),
        (name = "search", description = "Retrieval over the text"),
        (name = "answers", description = "Questions answered with verbatim quotes, and their audit"),
        (name = "eligibility", description = "Whether stated facts meet an office's qualifications in the text"),
        (name = "page", description = "The chat page and the PDF it links to"),
        (name = "operations", description = "Metrics and this document"),
    ),
)]
struct ApiDoc;

pub fn router() -> Router<AppState> {
    Router::new().route("/openapi.json", get(openapi_json))
}

/// This document.
#[utoipa::path(get, path = "/openapi.json", tag = "operations", operation_id = "openapi", responses(
    (status = 200, description = "OpenAPI 3.1", body = Object)))]
async fn openapi_json() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}
