//! The HTTP API. One [`AppState`], one `router()` per module, errors mapped in `error`.

mod error;
mod health;
mod provisions;
mod search;

use std::sync::Arc;

use axum::Router;
use sqlx::PgPool;
use tower_http::trace::TraceLayer;

pub use error::ApiError;

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub pool: PgPool,
    /// The query embedder; `None` when the model could not be loaded (dense modes then fail
    /// with a clear error, lexical search still works).
    pub embedder: Option<Arc<dyn crate::embed::Embedder>>,
    pub config: Arc<crate::config::Config>,
}

/// The whole API.
pub fn router(state: AppState) -> Router {
    Router::new()
        .merge(health::router())
        .merge(provisions::router())
        .merge(search::router())
        .fallback(error::not_found)
        .method_not_allowed_fallback(error::method_not_allowed)
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}
