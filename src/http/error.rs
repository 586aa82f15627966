//! The one place where errors become HTTP responses:
//! `{"error": {"code": "unknown_ref", "message": "..."}}` with a 4xx/5xx status.

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

use crate::error::AppError;

/// The body of every error response.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

/// What went wrong.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ErrorDetail {
    /// Stable and machine-readable: bad_request, invalid_text, payload_too_large, unknown_ref, unknown_answer,
    /// not_found, method_not_allowed, bad_document, no_corpus, database_unavailable,
    /// model_unavailable, overloaded, timeout, rate_limited (429), internal. Errors worth
    /// retrying (`database_unavailable`, `no_corpus`, `overloaded`, `timeout`,
    /// `rate_limited`) carry `Retry-After`.
    #[schema(value_type = String, example = "unknown_ref")]
    pub code: &'static str,
    /// For people; may change. A 5xx says only what kind of failure it was: the detail is in
    /// the server's log line with this request id.
    pub message: String,
    /// The reference that was not found (`unknown_ref` only).
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub reference: Option<String>,
    /// The request's id (also the `X-Request-Id` response header).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub request_id: Option<String>,
}

/// An error on its way to the client.
#[derive(Debug)]
pub struct ApiError(pub AppError);

impl From<AppError> for ApiError {
    fn from(e: AppError) -> Self {
        ApiError(e)
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        ApiError(AppError::Db(e))
    }
}

/// The largest request body the API reads: a question at its length limit with a full history
/// is well under 100 KB.
pub const BODY_LIMIT_BYTES: usize = 256 * 1024;

/// A body that is not the expected JSON is a bad request; one over the size limit is 413.
impl From<JsonRejection> for ApiError {
    fn from(e: JsonRejection) -> Self {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            return ApiError(AppError::PayloadTooLarge {
                limit_bytes: BODY_LIMIT_BYTES,
            });
        }
        ApiError(AppError::BadRequest(format!(
            "invalid request body: {}",
            e.body_text()
        )))
    }
}

/// A path or query string the extractors cannot decode is a bad request, in the same JSON shape.
impl From<PathRejection> for ApiError {
    fn from(e: PathRejection) -> Self {
        ApiError(AppError::BadRequest(e.body_text()))
    }
}

impl From<QueryRejection> for ApiError {
    fn from(e: QueryRejection) -> Self {
        ApiError(AppError::BadRequest(e.body_text()))
    }
}

/// Whether a driver error means "the database cannot be reached" (503, worth a retry) rather
/// than "this statement failed" (a bug: 500). Connection-class SQLSTATEs (08…), an
/// administrator's shutdown (57P01–57P03) and too many connections (53300) count as the former.
fn unreachable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(db) => db.code().is_some_and(|c| {
            c.starts_with("08") || matches!(c.as_ref(), "57P01" | "57P02" | "57P03" | "53300")
        }),
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        _ => false,
    }
}

/// Seconds a client should wait before retrying, for the errors where retrying helps.
fn retry_after(e: &AppError, code: &str) -> Option<u64> {
    match (e, code) {
        (AppError::RateLimited { retry_after_s }, _) => Some(*retry_after_s),
        (_, "database_unavailable" | "overloaded" | "timeout") => Some(1),
        // Start-up ingests the corpus in about a minute.
        (_, "no_corpus") => Some(10),
        _ => None,
    }
}

impl ApiError {
    /// The status and the stable error code of this error.
    pub fn status_and_code(&self) -> (StatusCode, &'static str) {
        match &self.0 {
            AppError::UnknownRef { .. } => (StatusCode::NOT_FOUND, "unknown_ref"),
            AppError::NoSuchEndpoint { .. } => (StatusCode::NOT_FOUND, "not_found"),
            AppError::NoSuchAnswer { .. } => (StatusCode::NOT_FOUND, "unknown_answer"),
            AppError::UnknownEdition { .. } => (StatusCode::NOT_FOUND, "unknown_edition"),
            AppError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            AppError::InvalidText { .. } => (StatusCode::BAD_REQUEST, "invalid_text"),
            AppError::RateLimited { .. } => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
            AppError::Overloaded { .. } => (StatusCode::SERVICE_UNAVAILABLE, "overloaded"),
            AppError::Timeout { .. } => (StatusCode::SERVICE_UNAVAILABLE, "timeout"),
            AppError::PayloadTooLarge { .. } => {
                (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large")
            }
            AppError::MethodNotAllowed { .. } => {
                (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed")
            }
            AppError::NoCorpus => (StatusCode::SERVICE_UNAVAILABLE, "no_corpus"),
            AppError::ModelUnavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "model_unavailable"),
            AppError::File { .. } | AppError::Ingest(_) | AppError::Incomplete { .. } => {
                (StatusCode::UNPROCESSABLE_ENTITY, "bad_document")
            }
            AppError::Db(e) if !unreachable(e) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
            AppError::Db(_) | AppError::Migrate(_) | AppError::DbTimeout => {
                (StatusCode::SERVICE_UNAVAILABLE, "database_unavailable")
            }
            AppError::Resource(_) | AppError::Embed(_) => {
                (StatusCode::INTERNAL_SERVER_ERROR, "internal")
            }
        }
    }
}

/// What a client is told about a server-side failure: fixed words per code. The error's own
/// text (a driver message, a file path, a model's complaint) goes to the log line, which
/// carries the request id the body also gives.
fn public_message(code: &str) -> &'static str {
    match code {
        "database_unavailable" => "the database is unavailable; retry shortly",
        "no_corpus" => "no corpus is loaded yet: run `nyaya ingest` (the server ingests on start)",
        "overloaded" => "the server is busy; retry shortly",
        "timeout" => "the request did not finish in time; retry shortly",
        "model_unavailable" => {
            "this mode needs the embedding model, which this server has not loaded; use mode \"lexical\""
        }
        _ => "an internal error occurred; quote the request id when reporting it",
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        let request_id = super::request_id::current();
        let message = if status.is_server_error() {
            // The detail is logged here, with the request id the span carries.
            if code == "internal" {
                tracing::error!(error = %self.0, code, "request failed");
            } else {
                tracing::warn!(error = %self.0, code, "request refused");
            }
            public_message(code).to_string()
        } else {
            self.0.to_string()
        };
        let reference = match &self.0 {
            AppError::UnknownRef { query } => Some(query.clone()),
            _ => None,
        };
        let error = ErrorDetail {
            code,
            message,
            reference,
            request_id,
        };
        let retry = retry_after(&self.0, code);
        let mut response = (status, Json(ErrorBody { error })).into_response();
        if let Some(secs) = retry {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

/// Unknown paths get the same JSON shape as every other error.
pub async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError(AppError::NoSuchEndpoint {
        path: uri.path().to_string(),
    })
}

/// A known path with the wrong method: 405 (axum keeps the `Allow` header) with a JSON body.
pub async fn method_not_allowed(method: Method, uri: axum::http::Uri) -> ApiError {
    ApiError(AppError::MethodNotAllowed {
        method: method.to_string(),
        path: uri.path().to_string(),
    })
}
