//! `POST /v1/ask`, `POST /v1/ask/stream` (server-sent events) and `GET /v1/answers/{id}`.

use std::convert::Infallible;

use axum::extract::rejection::{JsonRejection, PathRejection};
use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures::Stream;
use serde_json::json;
use tokio_stream::wrappers::UnboundedReceiverStream;
use tokio_stream::StreamExt;
use tracing::Instrument;

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
    let Json(req) =
        body.map_err(|e| AppError::BadRequest(format!("invalid request body: {}", e.body_text())))?;
    Ok(req)
}

async fn ask(
    State(state): State<AppState>,
    RequestId(request_id): RequestId,
    req: Result<Json<AskRequest>, JsonRejection>,
) -> Result<Json<AskResponse>, ApiError> {
    let req = body(req)?;
    let answerer = state.answerer();
    Ok(Json(answer::ask(&answerer, req, request_id, None).await?))
}

/// Events: `route`, `citations`, `delta` (LLM text as it comes), `final` (the verified
/// answer, which replaces the streamed text), `error` (`{"code", "message"}`). A request that
/// fails validation gets its 400 before the stream opens.
async fn ask_stream(
    State(state): State<AppState>,
    RequestId(request_id): RequestId,
    req: Result<Json<AskRequest>, JsonRejection>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let req = body(req)?;
    answer::validate(&req, state.config.max_query_chars)?;
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

fn sse_event(e: AskEvent) -> Event {
    let (name, data) = match e {
        AskEvent::Route(r) => ("route", json!(r)),
        AskEvent::Citations(c) => ("citations", json!(c)),
        AskEvent::Delta(d) => ("delta", json!({"text": d})),
        AskEvent::Final(f) => ("final", json!(f)),
        AskEvent::Error { code } => (
            "error",
            json!({"code": code, "message": "the answer could not be completed"}),
        ),
    };
    Event::default().event(name).data(data.to_string())
}

/// The stored basis of an answer, rebuilt from the corpus: 404 when unknown or purged.
async fn answer_basis(
    State(state): State<AppState>,
    id: Result<Path<String>, PathRejection>,
) -> Result<Json<audit::Reconstruction>, ApiError> {
    let Path(id) = id?;
    audit::reconstruct(&state.pool, &id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError(AppError::NoSuchAnswer { request_id: id }))
}
