//! `GET /v1/provisions/{ref}` and the table of contents.

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use super::error::ErrorBody;
use super::{ApiError, AppState};
use crate::error::AppError;
use crate::input::check_text;
use crate::provision::lookup;
use crate::store::{self, ProvisionView, TocEntry};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/v1/provisions", get(list))
        .route("/v1/provisions/{reference}", get(one))
        .route("/v1/provisions/{reference}/as-of", get(as_of))
        .route("/v1/editions", get(editions))
}

/// Which stored edition to read.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EditionQuery {
    /// An edition by its date: "2022", "2022-05" or "2022-05-01" (`GET /v1/editions` lists
    /// them); the server's default (the newest unless configured) when absent.
    pub edition: Option<String>,
}

/// One provision: its text, clauses, amendment notes and cross-references.
#[utoipa::path(get, path = "/v1/provisions/{reference}", tag = "provisions", operation_id = "get_provision",
    params(("reference" = String, Path,
        description = "A provision as people write it: \"21A\", \"Art. 21-A\", \"Article 370\""),
        EditionQuery),
    responses(
        (status = 200, description = "The provision", body = ProvisionView),
        (status = 404, description = "`unknown_ref`: no such provision in that edition (`ref` echoes the request); `unknown_edition`: no stored edition has that date", body = ErrorBody),
        (status = 503, description = "`no_corpus` or `database_unavailable`", body = ErrorBody),
    ))]
async fn one(
    State(state): State<AppState>,
    reference: Result<Path<String>, PathRejection>,
    query: Result<Query<EditionQuery>, QueryRejection>,
) -> Result<Json<ProvisionView>, ApiError> {
    let Path(reference) = reference?;
    let Query(q) = query?;
    check_text("reference", &reference)?;
    let edition = state.edition(q.edition.as_deref()).await?;
    Ok(Json(
        lookup(&state.pool, edition.document_id, &reference).await?,
    ))
}

/// The stored editions.
#[derive(Serialize, utoipa::ToSchema)]
struct EditionList {
    /// The date of the edition a request without `edition` reads.
    #[schema(value_type = String, example = "2024-05-01")]
    default: chrono::NaiveDate,
    /// Newest first.
    editions: Vec<store::Edition>,
}

/// Every stored edition of the Constitution, and the default one.
#[utoipa::path(get, path = "/v1/editions", tag = "provisions", operation_id = "list_editions",
    responses(
        (status = 200, description = "The stored editions", body = EditionList),
        (status = 503, description = "`no_corpus` or `database_unavailable`", body = ErrorBody),
    ))]
async fn editions(State(state): State<AppState>) -> Result<Json<EditionList>, ApiError> {
    let default = state.edition(None).await?;
    Ok(Json(EditionList {
        default: default.date,
        editions: store::editions(&state.pool).await?,
    }))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct ListQuery {
    /// An edition by its date ("2022", "2022-05-01"); the default when absent.
    edition: Option<String>,
    /// Only this Part ("III", "IVA"; any case).
    part: Option<String>,
    /// Only this kind: preamble, article, schedule or appendix (any case).
    kind: Option<String>,
}

/// The table of contents.
#[derive(Serialize, utoipa::ToSchema)]
struct ProvisionList {
    count: usize,
    provisions: Vec<TocEntry>,
}

const KINDS: [&str; 4] = ["preamble", "article", "schedule", "appendix"];

/// The table of contents, in the Constitution's order, optionally filtered.
#[utoipa::path(get, path = "/v1/provisions", tag = "provisions", operation_id = "list_provisions",
    params(ListQuery), responses(
    (status = 200, description = "Every matching provision", body = ProvisionList),
    (status = 400, description = "`bad_request`: an unknown kind or Part", body = ErrorBody),
    (status = 404, description = "`unknown_edition`: no stored edition has that date", body = ErrorBody),
    (status = 503, description = "`no_corpus` or `database_unavailable`", body = ErrorBody),
))]
async fn list(
    State(state): State<AppState>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Json<ProvisionList>, ApiError> {
    let Query(q) = query?;
    check_text("part", q.part.as_deref().unwrap_or(""))?;
    check_text("kind", q.kind.as_deref().unwrap_or(""))?;
    let part = q.part.map(|p| p.trim().to_ascii_uppercase());
    let kind = q.kind.map(|k| k.trim().to_ascii_lowercase());
    if let Some(k) = &kind {
        if !KINDS.contains(&k.as_str()) {
            return Err(AppError::BadRequest(format!(
                "kind must be one of {}, not {k:?}",
                KINDS.join(", ")
            ))
            .into());
        }
    }
    let edition = state.edition(q.edition.as_deref()).await?;
    if let Some(p) = &part {
        if !store::part_exists(&state.pool, edition.document_id, p).await? {
            return Err(AppError::BadRequest(format!("no Part {p:?} in the Constitution")).into());
        }
    }
    let items = store::list_provisions(
        &state.pool,
        edition.document_id,
        part.as_deref(),
        kind.as_deref(),
    )
    .await?;
    Ok(Json(ProvisionList {
        count: items.len(),
        provisions: items,
    }))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct AsOfQuery {
    /// The day to rebuild the wording for, "1976-01-01".
    date: Option<String>,
    /// Or: the day before the Nth Amendment took effect ("42").
    before_amendment: Option<u32>,
    /// The printed edition to rebuild from (default: the default edition).
    edition: Option<String>,
}

/// A footnote a rebuilt passage or a gap comes from.
#[derive(Debug, Serialize, utoipa::ToSchema)]
struct FootnoteView {
    /// The footnote as printed.
    footnote: String,
    /// inserted, substituted, omitted, renumbered, …
    kind: String,
    #[schema(required)]
    act: Option<String>,
    #[schema(required)]
    amendment_number: Option<u32>,
    /// w.e.f., "YYYY-MM-DD", when printed.
    #[schema(required)]
    effective_from: Option<String>,
    #[schema(required)]
    effective_text: Option<String>,
    #[schema(required)]
    clause: Option<String>,
}

impl From<&nyaya_ingest::asof::Source> for FootnoteView {
    fn from(s: &nyaya_ingest::asof::Source) -> Self {
        FootnoteView {
            footnote: s.raw.clone(),
            kind: kind_name(s.kind),
            act: s.instrument.clone(),
            amendment_number: s.amendment_number,
            effective_from: s.effective_from.clone(),
            effective_text: s.effective_text.clone(),
            clause: s.clause.clone(),
        }
    }
}

/// A passage of the rebuilt text that is not the print.
#[derive(Debug, Serialize, utoipa::ToSchema)]
struct ReconstructedSpan {
    /// Char offsets in `text` (`start == end` where an insertion was removed).
    start: usize,
    end: usize,
    /// removed_insertion, restored_substituted_words, restored_omitted_words,
    /// restored_earlier_number.
    undo: String,
    /// The printed words this passage stands in for.
    printed_words: String,
    /// What a reader is shown: what was done, that it is not official text, and the footnote.
    label: String,
    source: FootnoteView,
}

impl From<&nyaya_ingest::asof::RebuiltSpan> for ReconstructedSpan {
    /// A rebuilt passage as the API shows it, with its label and the footnote it comes from.
    fn from(s: &nyaya_ingest::asof::RebuiltSpan) -> Self {
        ReconstructedSpan {
            start: s.start,
            end: s.end,
            undo: kind_name(s.undo),
            printed_words: s.printed_words.clone(),
            label: s.label(),
            source: FootnoteView::from(&s.source),
        }
    }
}

/// A change after the date that could not be undone: the printed words stand there.
#[derive(Debug, Serialize, utoipa::ToSchema)]
struct GapView {
    /// A stable code: earlier_words_not_recorded, extent_not_marked, …
    reason: String,
    /// In words: "the footnote does not record the earlier words".
    explanation: String,
    #[schema(required)]
    source: Option<FootnoteView>,
}

impl From<&nyaya_ingest::asof::Gap> for GapView {
    /// A change that could not be undone, its reason as a code and in words.
    fn from(g: &nyaya_ingest::asof::Gap) -> Self {
        GapView {
            reason: kind_name(g.reason),
            explanation: g.reason_text().to_string(),
            source: g.source.as_ref().map(FootnoteView::from),
        }
    }
}

/// What `GET /v1/provisions/{ref}/as-of` returns.
#[derive(Debug, Serialize, utoipa::ToSchema)]
struct AsOfView {
    #[serde(rename = "ref")]
    ref_id: String,
    title: String,
    /// The printed edition the wording was rebuilt from.
    edition: store::Edition,
    /// The day the wording is for.
    date: String,
    /// The provision was in the Constitution on that day.
    existed: bool,
    /// The footnote that inserted the provision after that day (when `existed` is false).
    #[schema(required)]
    inserted_by: Option<FootnoteView>,
    /// Nothing was rebuilt and nothing is missing: the text is the print's.
    as_printed: bool,
    /// Always shown: rebuilt wording is a reconstruction, never an official text.
    notice: String,
    /// The wording on that day, as far as the footnotes record it (empty when it did not exist).
    text: String,
    reconstructed: Vec<ReconstructedSpan>,
    gaps: Vec<GapView>,
}

fn kind_name<T: Serialize>(v: T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default()
}

/// A provision's wording as it stood on an earlier day, rebuilt from the amendment footnotes
/// of a printed edition: insertions after the day removed, substituted and omitted words put
/// back where the footnote records them. Every rebuilt passage is labelled as a
/// reconstruction with its footnote; changes whose earlier words no footnote records are
/// listed as gaps. Never an official text.
#[utoipa::path(get, path = "/v1/provisions/{reference}/as-of", tag = "provisions", operation_id = "provision_as_of",
    params(("reference" = String, Path, description = "A provision as people write it"), AsOfQuery),
    responses(
        (status = 200, description = "The rebuilt wording", body = AsOfView),
        (status = 400, description = "`bad_request`: neither or both of `date` and `before_amendment`, a malformed date, a date after the edition, or an amendment no footnote dates", body = ErrorBody),
        (status = 404, description = "`unknown_ref` or `unknown_edition`", body = ErrorBody),
        (status = 503, description = "`no_corpus` or `database_unavailable`", body = ErrorBody),
    ))]
async fn as_of(
    State(state): State<AppState>,
    reference: Result<Path<String>, PathRejection>,
    query: Result<Query<AsOfQuery>, QueryRejection>,
) -> Result<Json<AsOfView>, ApiError> {
    let Path(reference) = reference?;
    let Query(q) = query?;
    check_text("reference", &reference)?;
    check_text("date", q.date.as_deref().unwrap_or(""))?;
    let edition = state.edition(q.edition.as_deref()).await?;
    // The ref is checked before the day, so an unknown ref is a 404 whatever the day.
    let printed = printed_provision(&state.pool, &edition, &reference).await?;
    let day = requested_day(&state.pool, &edition, &q).await?;
    check_not_after_edition(&edition, day)?;
    let rebuilt = nyaya_ingest::asof::as_of(&printed.parsed, &day.to_string());
    Ok(Json(as_of_view(printed.view, edition, rebuilt)))
}

/// A provision as an edition prints it, in the two forms the as-of answer needs.
struct PrintedProvision {
    /// As `GET /v1/provisions/{ref}` shows it: the answer echoes its ref and title.
    view: ProvisionView,
    /// As the ingester parsed it, amendment notes linked: what the wording is rebuilt from.
    parsed: nyaya_ingest::Provision,
}

/// The provision `reference` names in `edition`. [`lookup`] answers `unknown_ref` for a ref
/// the edition lacks; the ref it found should parse and load, and if it does not the answer
/// is the same `unknown_ref` rather than a 500.
async fn printed_provision(
    pool: &sqlx::PgPool,
    edition: &store::Edition,
    reference: &str,
) -> Result<PrintedProvision, AppError> {
    let unknown = || AppError::UnknownRef {
        query: reference.to_string(),
    };
    let view = lookup(pool, edition.document_id, reference).await?;
    let id: nyaya_ingest::RefId = view.ref_id.parse().map_err(|_| unknown())?;
    let parsed = store::load_provision(pool, edition.document_id, &id)
        .await?
        .ok_or_else(unknown)?;
    Ok(PrintedProvision { view, parsed })
}

/// The day the wording is asked for: `date` (trimmed), or the day before the Amendment
/// `before_amendment` numbers took effect; exactly one of the two.
async fn requested_day(
    pool: &sqlx::PgPool,
    edition: &store::Edition,
    q: &AsOfQuery,
) -> Result<chrono::NaiveDate, AppError> {
    match (q.date.as_deref().map(str::trim), q.before_amendment) {
        (Some(d), None) => chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d")
            .map_err(|_| AppError::BadRequest(format!("date must be YYYY-MM-DD, not {d:?}"))),
        (None, Some(n)) => day_before_amendment_in(pool, edition, n).await,
        _ => Err(AppError::BadRequest(
            "give exactly one of `date` (YYYY-MM-DD) and `before_amendment` (a number)".into(),
        )),
    }
}

/// The day before the Amendment numbered `n` took effect, dated from the footnotes of the
/// whole edition: the asked provision's own notes need not name that Amendment at all.
async fn day_before_amendment_in(
    pool: &sqlx::PgPool,
    edition: &store::Edition,
    n: u32,
) -> Result<chrono::NaiveDate, AppError> {
    let doc = store::load_document(pool, edition.document_id)
        .await?
        .ok_or(AppError::NoCorpus)?;
    let notes = doc
        .provisions
        .iter()
        .flat_map(|p| p.amendments.iter().map(|l| &l.note));
    nyaya_ingest::asof::day_before_amendment(notes, n)
        .and_then(|d| chrono::NaiveDate::parse_from_str(&d, "%Y-%m-%d").ok())
        .ok_or_else(|| {
            AppError::BadRequest(format!(
                "no footnote of the {} edition records when the Amendment numbered {n} took effect",
                edition.date
            ))
        })
}

/// Refuses a day after the edition's own: its footnotes record the changes up to its date,
/// so it cannot say how the text read later.
fn check_not_after_edition(
    edition: &store::Edition,
    day: chrono::NaiveDate,
) -> Result<(), AppError> {
    if day > edition.date {
        return Err(AppError::BadRequest(format!(
            "the {} edition prints the text as on {}; it cannot say how it read on {day}",
            edition.label, edition.date
        )));
    }
    Ok(())
}

/// The answer: the rebuilt wording, every reconstructed passage and gap with its footnote,
/// and the notice (always shown) that it is not an official text.
fn as_of_view(
    view: ProvisionView,
    edition: store::Edition,
    rebuilt: nyaya_ingest::asof::Rebuilt,
) -> AsOfView {
    AsOfView {
        ref_id: view.ref_id,
        title: view.title,
        existed: rebuilt.existed(),
        inserted_by: rebuilt.inserted_after.as_ref().map(FootnoteView::from),
        as_printed: rebuilt.is_as_printed(),
        notice: format!(
            "Rebuilt from the amendment footnotes of the {} edition: not an official text of the Constitution.",
            edition.label
        ),
        reconstructed: rebuilt.spans.iter().map(ReconstructedSpan::from).collect(),
        gaps: rebuilt.gaps.iter().map(GapView::from).collect(),
        text: rebuilt.text,
        date: rebuilt.date,
        edition,
    }
}
