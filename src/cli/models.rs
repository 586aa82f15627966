//! The models the commands load from the configuration: the query embedder, the
//! multilingual model, the cross-encoder.

use std::sync::Arc;

use nyaya::config::Config;
use nyaya::error::AppError;

/// The models a search in `mode` needs, loaded from the configuration.
pub(super) fn load_models(
    cfg: &Config,
    mode: nyaya::search::Mode,
) -> Result<nyaya::search::Models, AppError> {
    let embedder: Option<Arc<dyn nyaya::embed::Embedder>> = if mode == nyaya::search::Mode::Lexical
    {
        None
    } else {
        Some(Arc::new(nyaya::embed::OnnxEmbedder::load(
            &cfg.model_dir,
            &cfg.ort_lib,
        )?))
    };
    let (multilingual, english_questions) = match embedder {
        Some(_) => load_multilingual(cfg),
        None => (None, None),
    };
    Ok(nyaya::search::Models {
        embedder,
        cross_encoder: load_cross_encoder(cfg),
        multilingual,
        second_dense: english_questions,
        ..Default::default()
    })
}

/// The multilingual model, unless switched off (`NYAYA_MULTILINGUAL=false`) or missing: then
/// questions in Indian scripts take the English path. Second, the same model for English
/// questions (its ONNX encoder; `search`'s second dense list), when that builds.
pub(super) fn load_multilingual(cfg: &Config) -> MultilingualModels {
    if !cfg.multilingual {
        return (None, None);
    }
    match nyaya::embed::e5::E5Embedder::load(&cfg.multilingual_dir) {
        Ok(e) => {
            let engine = Arc::new(e);
            let questions = match nyaya::embed::e5::E5Questions::load(engine.clone(), &cfg.ort_lib)
            {
                Ok(q) => Some(Arc::new(q) as Arc<dyn nyaya::embed::Embedder>),
                Err(e) => {
                    tracing::warn!(error = %e, "the e5 question encoder was not built; English questions take one dense list");
                    None
                }
            };
            (Some(engine), questions)
        }
        Err(e) => {
            tracing::warn!(error = %e, "multilingual model not loaded; questions in Indian scripts take the English path");
            (None, None)
        }
    }
}

/// The multilingual model (the engine), and its question encoder for English questions.
pub(super) type MultilingualModels = (
    Option<Arc<dyn nyaya::embed::Embedder>>,
    Option<Arc<dyn nyaya::embed::Embedder>>,
);

pub(super) fn load_cross_encoder(
    cfg: &Config,
) -> Option<Arc<dyn nyaya::search::rerank::CrossEncoder>> {
    let dir = cfg.reranker_dir.as_ref()?;
    match nyaya::search::rerank::OnnxCrossEncoder::load(dir, &cfg.ort_lib) {
        Ok(m) => Some(Arc::new(m)),
        Err(e) => {
            tracing::warn!(error = %e, "cross-encoder not loaded");
            None
        }
    }
}

/// The query embedder for the server; without it, lexical search still works.
pub(super) fn load_embedder(cfg: &Config) -> Option<Arc<dyn nyaya::embed::Embedder>> {
    match nyaya::embed::OnnxEmbedder::load(&cfg.model_dir, &cfg.ort_lib) {
        Ok(e) => Some(Arc::new(e)),
        Err(e) => {
            tracing::warn!(error = %e, "embedding model not loaded; dense search is unavailable");
            None
        }
    }
}
