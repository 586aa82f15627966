//! The chat page at `/`: four static files compiled into the binary (no CDN, no build step),
//! and `GET /v1/document.pdf`, the ingested PDF the page links to at a page (`#page=N`).
//! `catalogue.json` holds every fixed string of the page in English and Hindi (`{"en": {key:
//! text}, "hi": {…}}`); index.html and app.js name strings by key, and a test below checks
//! that each key they use is there in both languages.
//!
//! `NYAYA_PAGE_DIR` (`Config::page_dir`, a folder holding the same four files) makes the
//! server read them from disk on every request instead, so the page can be edited without
//! rebuilding.

use axum::body::Body;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use super::{ApiError, AppState};
use crate::error::AppError;

/// The page's files: name, content type, embedded bytes.
const ASSETS: [(&str, &str, &str); 4] = [
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("page/index.html"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("page/app.js"),
    ),
    (
        "app.css",
        "text/css; charset=utf-8",
        include_str!("page/app.css"),
    ),
    (
        "catalogue.json",
        "application/json",
        include_str!("page/catalogue.json"),
    ),
];

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(index))
        .route("/assets/{file}", get(asset))
        .route("/v1/document.pdf", get(document))
}

/// The chat page.
#[utoipa::path(get, path = "/", tag = "page", operation_id = "page", responses(
    (status = 200, description = "The page", content_type = "text/html", body = String)))]
async fn index(State(state): State<AppState>) -> Result<Response, ApiError> {
    serve(&state, "index.html")
}

/// The page's script, style sheet and string catalogue.
#[utoipa::path(get, path = "/assets/{file}", tag = "page",
    params(("file" = String, Path, description = "app.js, app.css or catalogue.json")),
    responses(
        (status = 200, description = "The file", content((String = "text/javascript"), (String = "text/css"), (Object = "application/json"))),
        (status = 404, description = "`not_found`: no such file", body = super::error::ErrorBody),
    ))]
async fn asset(
    State(state): State<AppState>,
    Path(file): Path<String>,
) -> Result<Response, ApiError> {
    if file == "index.html" {
        return Err(not_found(&file));
    }
    serve(&state, &file)
}

fn not_found(file: &str) -> ApiError {
    ApiError(AppError::NoSuchEndpoint {
        path: format!("/assets/{file}"),
    })
}

fn serve(state: &AppState, file: &str) -> Result<Response, ApiError> {
    let (name, content_type, embedded) = ASSETS
        .iter()
        .find(|(name, _, _)| *name == file)
        .ok_or_else(|| not_found(file))?;
    let body = match &state.config.page_dir {
        Some(dir) => Body::from(
            std::fs::read_to_string(dir.join(name))
                .map_err(|e| AppError::Resource(format!("{}: {e}", dir.join(name).display())))?,
        ),
        None => Body::from(*embedded),
    };
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            // Small files that change with the binary: revalidate rather than go stale.
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
        ],
        body,
    )
        .into_response())
}

/// The PDF an edition was ingested from (the default edition's unless `?edition=` names
/// another), shown inline (browsers open it at `#page=N`). 503 `no_corpus` before the first
/// ingest.
#[utoipa::path(get, path = "/v1/document.pdf", tag = "page", operation_id = "document_pdf",
    summary = "The PDF an edition was ingested from, shown inline",
    params(super::provisions::EditionQuery),
    responses(
    (status = 200, description = "The PDF", content(("application/pdf"))),
    (status = 404, description = "`unknown_edition`: no stored edition has that date", body = super::error::ErrorBody),
    (status = 503, description = "`no_corpus` or `database_unavailable`", body = super::error::ErrorBody),
))]
async fn document(
    State(state): State<AppState>,
    query: Result<Query<super::provisions::EditionQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query?;
    let edition = state.edition(q.edition.as_deref()).await?;
    let pdf = crate::store::edition_pdf(&state.pool, edition.document_id)
        .await?
        .ok_or(AppError::NoCorpus)?;
    let disposition = format!(
        "inline; filename=\"{}\"",
        pdf.source_name.replace(['"', '\\', '\r', '\n'], "_")
    );
    Ok((
        StatusCode::OK,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/pdf"),
            ),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&disposition)
                    .unwrap_or_else(|_| HeaderValue::from_static("inline")),
            ),
            (
                header::ETAG,
                HeaderValue::from_str(&format!("\"{}\"", pdf.sha256))
                    .unwrap_or_else(|_| HeaderValue::from_static("\"pdf\"")),
            ),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=3600"),
            ),
        ],
        pdf.bytes,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use regex::Regex;

    use super::ASSETS;

    fn asset(name: &str) -> &'static str {
        ASSETS.iter().find(|(n, _, _)| *n == name).unwrap().2
    }

    fn catalogue() -> BTreeMap<String, BTreeMap<String, String>> {
        serde_json::from_str(asset("catalogue.json")).expect("catalogue.json parses")
    }

    /// Both languages have the same keys and no empty text, and the placeholders match: a
    /// Hindi string that lost `{n}` would show a count-less sentence.
    #[test]
    fn the_catalogue_has_every_key_in_both_languages() {
        let c = catalogue();
        assert_eq!(
            c.keys().collect::<Vec<_>>(),
            ["en", "hi"],
            "languages in the catalogue"
        );
        let (en, hi) = (&c["en"], &c["hi"]);
        let en_keys: BTreeSet<_> = en.keys().collect();
        let hi_keys: BTreeSet<_> = hi.keys().collect();
        assert_eq!(
            en_keys.symmetric_difference(&hi_keys).collect::<Vec<_>>(),
            Vec::<&&String>::new(),
            "keys in one language only"
        );
        let placeholder = Regex::new(r"\{(\w+)\}").unwrap();
        let names = |s: &str| -> BTreeSet<String> {
            placeholder
                .captures_iter(s)
                .map(|m| m[1].to_string())
                .collect()
        };
        for (lang, table) in &c {
            for (key, text) in table {
                assert!(!text.trim().is_empty(), "{lang}.{key} is empty");
            }
        }
        for (key, text) in en {
            assert_eq!(names(text), names(&hi[key]), "placeholders of {key}");
        }
        // The Hindi is Hindi: most strings are in Devanagari (a few, such as the Latin-letter
        // example question or ", ", are not), and the disclaimer still says "not legal advice".
        let devanagari = hi
            .values()
            .filter(|t| t.chars().any(|ch| ('\u{0900}'..='\u{097F}').contains(&ch)))
            .count();
        assert!(
            devanagari * 10 >= hi.len() * 9,
            "{devanagari} of {}",
            hi.len()
        );
        assert!(en["disclaimer"].contains("not legal advice"));
        assert!(hi["disclaimer"].contains("कानूनी सलाह नहीं"));
    }

    /// Every key index.html (`data-i18n*="key"`) and app.js (`t('key'`, and the scrub notice's
    /// table of keys) use is in the catalogue, and every catalogue key is used somewhere.
    #[test]
    fn every_key_the_page_uses_is_in_the_catalogue() {
        let c = catalogue();
        let en = &c["en"];
        let (html, js) = (asset("index.html"), asset("app.js"));
        let attr = Regex::new(r#"data-i18n(?:-[a-z-]+)?="([^"]+)""#).unwrap();
        let call = Regex::new(r"\bt\('([^']+)'").unwrap();
        let table = Regex::new(r"'(scrub\.[a-z_]+\.(?:one|many))'").unwrap();
        let mut used = BTreeSet::new();
        for m in attr.captures_iter(html) {
            used.insert(m[1].to_string());
        }
        let from_html = used.len();
        for re in [&call, &table] {
            for m in re.captures_iter(js) {
                used.insert(m[1].to_string());
            }
        }
        assert!(from_html > 30, "only {from_html} keys found in index.html");
        assert!(used.len() > 150, "only {} keys found", used.len());
        let missing: Vec<_> = used.iter().filter(|k| !en.contains_key(*k)).collect();
        assert!(missing.is_empty(), "not in the catalogue: {missing:?}");
        let unused: Vec<_> = en.keys().filter(|k| !used.contains(*k)).collect();
        assert!(
            unused.is_empty(),
            "in the catalogue but never used: {unused:?}"
        );
        // No key is built at run time (t('status.' + x)): this check could not see it.
        assert!(
            !Regex::new(r"\bt\('[^']*'\s*\+").unwrap().is_match(js),
            "a t() call whose key is built from pieces"
        );
    }

    /// The Hindi example questions are the catalogue's, in the intro.
    #[test]
    fn the_hindi_intro_asks_in_hindi() {
        let c = catalogue();
        let examples: Vec<&str> = (1..=4)
            .map(|i| c["hi"][&format!("intro.example{i}")].as_str())
            .collect();
        assert!(examples.contains(&"शिक्षा का अधिकार क्या है?"), "{examples:?}");
        assert!(examples.contains(&"rajyapal ki niyukti kaun karta hai?"));
    }
}
