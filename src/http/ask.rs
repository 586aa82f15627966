//! `POST /v1/ask`, `POST /v1/ask/stream` (server-sent events) and `GET /v1/answers/{id}`.

use std::convert::Infallible;

use axum::extract::rejection::{JsonRejection, PathRejection};
use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures::Stream;
use serde::Serialize;
use serde_json::json;
use tokio_stream::wrappers::UnboundedReceiverStream;
use tokio_stream::StreamExt;
use tracing::Instrument;

use super::error::ErrorBody;
use super::request_id::RequestId;
use super::{ApiError, AppState};
use crate::answer::{self, audit, AskEvent, AskRequest, AskResponse};
use crate::error::AppError;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/v1/ask", post(ask))
        .route("/v1/ask/stream", post(ask_stream))
        .route("/v1/answers/{request_id}", get(answer_basis))
}

fn body(body: Result<Json<AskRequest>, JsonRejection>) -> Result<AskRequest, ApiError> {
    let Json(req) = body?;
    Ok(req)
}

/// Answers a question with verbatim quotes of the Constitution, or refuses.
#[utoipa::path(post, path = "/v1/ask", tag = "answers", request_body = AskRequest, responses(
    (status = 200, description = "An answer, a refusal (`refused`), a reply to small talk or a clarifying question (`suggestions`)", body = AskResponse),
    (status = 400, description = "`bad_request`: a malformed body, an empty or too long question, too much history; `invalid_text`: a control character in a text field", body = ErrorBody),
    (status = 413, description = "`payload_too_large`: a body over 256 KiB", body = ErrorBody),
    (status = 500, description = "`internal`: the embedder failed", body = ErrorBody),
    (status = 503, description = "`model_unavailable`, or `database_unavailable` (with `Retry-After`)", body = ErrorBody),
))]
async fn ask(
    State(state): State<AppState>,
    RequestId(request_id): RequestId,
    req: Result<Json<AskRequest>, JsonRejection>,
) -> Result<Json<AskResponse>, ApiError> {
    let req = body(req)?;
    let answerer = state.answerer();
    Ok(Json(answer::ask(&answerer, req, request_id, None).await?))
}

/// `POST /v1/ask` as server-sent events.
///
/// Events: `route`, `citations`, `delta` (LLM text as it comes), `final` (the verified
/// answer, which replaces the streamed text), `error`. A request that fails validation gets
/// its 400 before the stream opens.
#[utoipa::path(post, path = "/v1/ask/stream", tag = "answers", request_body = AskRequest, responses(
    (status = 200, content_type = "text/event-stream", body = String, description = "Frames \
`event: <name>` + `data: <json>`, in this order: `route` (schema Routing), `citations` (array of \
Citation), `delta` (StreamDelta; llm mode only, repeated), `final` (AskResponse; replaces the \
streamed text), or `error` (StreamError) instead of the rest when the answer fails."),
    (status = 400, description = "`bad_request` or `invalid_text`, before the stream opens", body = ErrorBody),
    (status = 413, description = "`payload_too_large`: a body over 256 KiB", body = ErrorBody),
))]
async fn ask_stream(
    State(state): State<AppState>,
    RequestId(request_id): RequestId,
    req: Result<Json<AskRequest>, JsonRejection>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let req = body(req)?;
    answer::validate(&req, state.search.max_query_chars)?;
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<AskEvent>();
    let answerer = state.answerer();
    tokio::spawn(
        async move {
            if let Err(e) = answer::ask(&answerer, req, request_id, Some(&tx)).await {
                let (status, code) = ApiError(e).status_and_code();
                tracing::warn!(%status, code, "streamed answer failed");
                let _ = tx.send(AskEvent::Error { code });
            }
        }
        .instrument(tracing::Span::current()),
    );
    let stream = UnboundedReceiverStream::new(rx).map(|e| Ok(sse_event(e)));
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// A `delta` event's data: a piece of the LLM's text, before the guards.
#[derive(Serialize, utoipa::ToSchema)]
pub(super) struct StreamDelta {
    text: String,
}

/// An `error` event's data: the request failed after the stream opened.
#[derive(Serialize, utoipa::ToSchema)]
pub(super) struct StreamError {
    /// The code a non-streamed request would have got (see ErrorBody).
    #[schema(value_type = String, example = "model_unavailable")]
    code: &'static str,
    #[schema(value_type = String)]
    message: &'static str,
}

fn sse_event(e: AskEvent) -> Event {
    let (name, data) = match e {
        AskEvent::Route(r) => ("route", json!(r)),
        AskEvent::Citations(c) => ("citations", json!(c)),
        AskEvent::Delta(text) => ("delta", json!(StreamDelta { text })),
        AskEvent::Final(f) => ("final", json!(f)),
        AskEvent::Error { code } => (
            "error",
            json!(StreamError {
                code,
                message: "the answer could not be completed",
            }),
        ),
    };
    Event::default().event(name).data(data.to_string())
}

/// The stored basis of an answer, rebuilt from the corpus: 404 when unknown or purged.
#[utoipa::path(get, path = "/v1/answers/{request_id}", tag = "answers", operation_id = "get_answer",
    params(("request_id" = String, Path, description = "The `request_id` of an earlier answer")),
    responses(
        (status = 200, description = "What the answer cited, and whether each quote still matches the corpus", body = audit::Reconstruction),
        (status = 404, description = "`unknown_answer`: no answer has that id (or it was purged)", body = ErrorBody),
        (status = 503, description = "`database_unavailable`", body = ErrorBody),
    ))]
async fn answer_basis(
    State(state): State<AppState>,
    id: Result<Path<String>, PathRejection>,
) -> Result<Json<audit::Reconstruction>, ApiError> {
    let Path(id) = id?;
    crate::input::check_text("request_id", &id)?;
    audit::reconstruct(&state.pool, &id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError(AppError::NoSuchAnswer { request_id: id }))
}
