//! The one place where errors become HTTP responses:
//! `{"error": {"code": "unknown_ref", "message": "..."}}` with a 4xx/5xx status.

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::http::{Method, StatusCode};
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
    /// Stable and machine-readable: bad_request, unknown_ref, unknown_answer, not_found,
    /// method_not_allowed, bad_document, no_corpus, database_unavailable, model_unavailable,
    /// internal.
    #[schema(value_type = String, example = "unknown_ref")]
    pub code: &'static str,
    /// For people; may change.
    pub message: String,
    /// The reference that was not found (`unknown_ref` only).
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub reference: Option<String>,
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

impl ApiError {
    /// The status and the stable error code of this error.
    pub fn status_and_code(&self) -> (StatusCode, &'static str) {
        match &self.0 {
            AppError::UnknownRef { .. } => (StatusCode::NOT_FOUND, "unknown_ref"),
            AppError::NoSuchEndpoint { .. } => (StatusCode::NOT_FOUND, "not_found"),
            AppError::NoSuchAnswer { .. } => (StatusCode::NOT_FOUND, "unknown_answer"),
            AppError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            AppError::MethodNotAllowed { .. } => {
                (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed")
            }
            AppError::NoCorpus => (StatusCode::SERVICE_UNAVAILABLE, "no_corpus"),
            AppError::ModelUnavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "model_unavailable"),
            AppError::File { .. } | AppError::Ingest(_) | AppError::Incomplete { .. } => {
                (StatusCode::UNPROCESSABLE_ENTITY, "bad_document")
            }
            AppError::Db(_) | AppError::Migrate(_) => {
                (StatusCode::SERVICE_UNAVAILABLE, "database_unavailable")
            }
            AppError::Resource(_) | AppError::Embed(_) => {
                (StatusCode::INTERNAL_SERVER_ERROR, "internal")
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        if status.is_server_error() {
            tracing::error!(error = %self.0, "request failed");
        }
        let reference = match &self.0 {
            AppError::UnknownRef { query } => Some(query.clone()),
            _ => None,
        };
        let error = ErrorDetail {
            code,
            message: self.0.to_string(),
            reference,
        };
        (status, Json(ErrorBody { error })).into_response()
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
