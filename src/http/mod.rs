//! The HTTP API. One [`AppState`], one `router()` per module, errors mapped in `error`.

mod ask;
mod diff;
mod eligibility;
mod error;
mod health;
mod limits;
mod metrics;
mod openapi;
mod page;
mod provisions;
pub mod request_id;
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
    /// A search's options when a request does not say (`config.edition` included).
    pub search: crate::search::SearchOptions,
    /// How answers are written when a request does not say.
    pub answer: crate::answer::settings::AnswerSettings,
    /// The OpenAI-compatible client when an LLM is configured.
    pub llm: Option<Arc<crate::llm::LlmClient>>,
}

impl AppState {
    /// The edition a request reads: the one it names (`?edition=`), else the server's default
    /// (`NYAYA_EDITION`), else the newest stored.
    pub async fn edition(
        &self,
        requested: Option<&str>,
    ) -> crate::error::AppResult<crate::store::Edition> {
        let selector = requested.or(self.config.edition.as_deref());
        crate::input::check_text("edition", selector.unwrap_or(""))?;
        crate::store::resolve_edition(&self.pool, selector).await
    }

    /// The answer pipeline with this server's settings.
    pub fn answerer(&self) -> crate::answer::Answerer {
        crate::answer::Answerer {
            pool: self.pool.clone(),
            models: self.models.clone(),
            llm: self.llm.clone(),
            search: self.search.clone(),
            default_mode: self.answer.answer_mode,
            quote_weights: self.answer.quote_weights,
        }
    }
}

/// The whole API.
pub fn router(state: AppState) -> Router {
    let c = &state.config;
    let limits = limits::Limits::new(limits::LimitSettings {
        max_in_flight: c.max_in_flight,
        request_timeout: std::time::Duration::from_millis(c.request_timeout_ms),
        rate_per_s: c.rate_limit_per_s.max(0.0),
        burst: c.rate_limit_burst.max(1.0),
    });
    Router::new()
        .merge(health::router())
        .merge(provisions::router())
        .merge(diff::router())
        .merge(search::router())
        .merge(ask::router())
        .merge(eligibility::router())
        .merge(page::router())
        .merge(metrics::router())
        .merge(openapi::router())
        .fallback(error::not_found)
        .method_not_allowed_fallback(error::method_not_allowed)
        .layer(axum::extract::DefaultBodyLimit::max(
            error::BODY_LIMIT_BYTES,
        ))
        .layer(axum::middleware::from_fn_with_state(
            limits,
            limits::middleware,
        ))
        .layer(axum::middleware::from_fn(metrics::track))
        .layer(TraceLayer::new_for_http())
        .layer(axum::middleware::from_fn(request_id::middleware))
        .with_state(state)
}
