//! `GET /v1/eligibility/offices` and `POST /v1/eligibility`: the Constitution's qualifications
//! for an office, checked against stated facts (`crate::eligibility`).

use axum::extract::rejection::JsonRejection;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use super::error::ErrorBody;
use super::{ApiError, AppState};
use crate::eligibility::{self, Catalogue, Criterion, FactDef, Facts, Verdict};
use crate::error::AppError;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/v1/eligibility/offices", get(offices))
        .route("/v1/eligibility", post(check))
}

/// One office and what it asks.
#[derive(Serialize, utoipa::ToSchema)]
struct OfficeEntry {
    id: String,
    name: String,
    aliases: Vec<String>,
    refs: Vec<String>,
    criteria: Vec<Criterion>,
}

#[derive(Serialize, utoipa::ToSchema)]
struct OfficeList {
    offices: Vec<OfficeEntry>,
    /// Every fact a request may state, in the order they are asked.
    facts: Vec<FactDef>,
}

/// The offices the checker knows, their criteria (with the verbatim words of the text) and the
/// facts it reads.
#[utoipa::path(get, path = "/v1/eligibility/offices", tag = "eligibility", operation_id = "eligibility_offices",
    responses((status = 200, description = "Offices, criteria and facts", body = OfficeList)))]
async fn offices() -> Json<OfficeList> {
    let c = Catalogue::builtin();
    Json(OfficeList {
        offices: c
            .offices
            .iter()
            .map(|o| OfficeEntry {
                id: o.id.clone(),
                name: o.name.clone(),
                aliases: o.aliases.clone(),
                refs: o.refs.clone(),
                criteria: o.criteria.clone(),
            })
            .collect(),
        facts: c.facts.clone(),
    })
}

/// `POST /v1/eligibility`'s body.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct EligibilityRequest {
    /// An office id or alias ("president", "mp", "high court judge").
    office: String,
    /// Stated facts by id (see `/v1/eligibility/offices`); a fact left out is unknown, never
    /// assumed.
    #[serde(default)]
    #[schema(value_type = Object)]
    facts: Facts,
}

/// Checks stated facts against an office's constitutional qualifications.
///
/// `not_eligible` names the failing criteria; `need_more_info` lists the facts to ask for;
/// the best verdict is `likely_eligible` (laws of Parliament add conditions the text does not
/// list). Every criterion carries its provision, clause and the verbatim words of the text.
#[utoipa::path(post, path = "/v1/eligibility", tag = "eligibility", operation_id = "eligibility",
    request_body = EligibilityRequest,
    responses(
        (status = 200, description = "The verdict, criterion by criterion", body = Verdict),
        (status = 400, description = "`bad_request`: an unknown office or fact, a fact of the wrong kind; `invalid_text`", body = ErrorBody),
    ))]
async fn check(
    body: Result<Json<EligibilityRequest>, JsonRejection>,
) -> Result<Json<Verdict>, ApiError> {
    let Json(req) = body?;
    crate::input::check_text("office", &req.office)?;
    let c = Catalogue::builtin();
    let office = c.office(&req.office).ok_or_else(|| {
        let known: Vec<&str> = c.offices.iter().map(|o| o.id.as_str()).collect();
        AppError::BadRequest(format!(
            "no office {:?}; known offices: {}",
            req.office,
            known.join(", ")
        ))
    })?;
    eligibility::check_facts(c, &req.facts).map_err(AppError::BadRequest)?;
    Ok(Json(eligibility::check(c, office, &req.facts)))
}
