//! The request id: taken from `X-Request-Id` when the client sends a sane one, generated
//! otherwise; echoed in the response header, handed to handlers, and carried by the span that
//! wraps the whole request, so every log line of the request has it.

use axum::extract::{FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;
use tracing::Instrument;

pub const HEADER: &str = "x-request-id";

tokio::task_local! {
    /// The id of the request this task serves (set by [`middleware`] around the handler).
    static CURRENT: String;
}

/// The id of the request being served, if any (an error body quotes it).
pub fn current() -> Option<String> {
    CURRENT.try_with(String::clone).ok()
}

/// The current request's id (an extractor).
#[derive(Debug, Clone)]
pub struct RequestId(pub String);

/// A client's id is used only if it is short and plain (it ends up in logs and tables).
fn acceptable(id: &str) -> bool {
    (1..=128).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
}

pub async fn middleware(mut req: Request, next: Next) -> Response {
    let id = req
        .headers()
        .get(HEADER)
        .and_then(|v| v.to_str().ok())
        .filter(|v| acceptable(v))
        .map(str::to_string)
        .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    req.extensions_mut().insert(RequestId(id.clone()));
    // The path only: no query string, no body, nothing a user typed.
    let span = tracing::info_span!("request", request_id = %id, method = %req.method(), path = %req.uri().path());
    let mut response = CURRENT
        .scope(id.clone(), next.run(req).instrument(span))
        .await;
    if let Ok(v) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(HEADER, v);
    }
    response
}

impl<S: Send + Sync> FromRequestParts<S> for RequestId {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts
            .extensions
            .get::<RequestId>()
            .cloned()
            .unwrap_or_else(|| RequestId(uuid::Uuid::new_v4().to_string())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_ids_are_accepted() {
        assert!(acceptable("abc-123_X.y:z"));
        assert!(acceptable(&"a".repeat(128)));
        assert!(!acceptable(""));
        assert!(!acceptable(&"a".repeat(129)));
        assert!(!acceptable("call me 9876543210"));
        assert!(!acceptable("a\nb"));
    }
}
