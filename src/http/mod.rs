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
    /// The query embedder and the optional cross-encoder; a missing embedder makes the dense
    /// modes fail with a clear error while lexical search still works.
    pub models: crate::search::Models,
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
