//! The answer pipeline: a fixed sequence, not an agent.
//!
//! 1. Validate; scrub direct identifiers from the question (the raw text goes no further).
//! 2. Route ([`router`]: rules by default; the LLM router in llm mode, validated, falling
//!    back to the rules).
//! 3. Refuse out-of-scope questions, reply to chit-chat; no retrieval, no model call.
//! 4. Retrieve per route: pinned refs for a lookup, one search per part for a multi-part
//!    question, HyDE for a conceptual one when an LLM is configured.
//! 5. Refuse when retrieval says the text does not cover the question (no model call).
//! 6. Quote: for each chosen provision, the best clause-level span, copied verbatim
//!    ([`extract`], [`quote`]). No quote, no answer; nor when no quote shares a word with the
//!    question ([`support`]).
//! 7. In llm mode, prose over the numbered quotes, then the [`guard`]s; if the LLM is
//!    unavailable or nothing it wrote survives, the extractive answer (`degraded`).
//! 8. Audit row ([`audit`]) and one `llm_calls` row per attempt.

pub mod antecedent;
pub mod asks;
pub mod audit;
pub mod eligible;
pub mod extract;
pub mod generate;
pub mod guard;
pub mod messages;
pub mod quote;
pub mod router;
pub mod scrub;
pub mod settings;
pub mod support;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use tokio::sync::mpsc::UnboundedSender;

use nyaya_ingest::RefId;

use crate::error::{AppError, AppResult};
use crate::input::check_text;
use crate::llm::LlmClient;
use crate::search::glossary::Glossary;
use crate::search::{self, Models, SearchHit, SearchOptions, SearchResponse, Supporting};
use crate::store::{self, ProvisionView};
use crate::tier;
use extract::AmendmentNote;
use guard::GuardCounts;
use router::{QuestionRouter, Route, Routing, Turn};

/// What a refusal says, whatever the reason (the reason is given beside it).
pub const REFUSAL: &str =
    "The Constitution's text I hold does not cover this — check the official text or ask a lawyer.";

/// The refusal reasons the pipeline gives itself (the search's and the scope classes' are
/// theirs); `messages` holds each in Hindi.
pub const OUTSIDE_THE_TEXT: &str = "the question is outside what the Constitution's text answers";
pub const NOTHING_RETRIEVED: &str = "nothing relevant was retrieved";
pub const NOTHING_QUOTABLE: &str = "no passage of the retrieved provisions could be quoted";
pub const NO_SHARED_WORD: &str =
    "no passage retrieved shares a word with the question, so none of them answers it";
pub const NO_KNOWN_OFFICE: &str = "the question names no office the checker knows";
pub const NO_SUCH_PROVISION: &str =
    "the question names an Article or Schedule that this edition of the Constitution does not have";

/// At most this many turns of history are read.
pub const MAX_HISTORY: usize = 10;

/// Extractive (quotes only, no model call) or LLM prose over the quotes.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    Serialize,
    Deserialize,
    clap::ValueEnum,
    utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum AnswerMode {
    #[default]
    Extractive,
    Llm,
}

impl AnswerMode {
    pub fn as_str(self) -> &'static str {
        match self {
            AnswerMode::Extractive => "extractive",
            AnswerMode::Llm => "llm",
        }
    }
}

/// `POST /v1/ask`'s body.
#[derive(Debug, Clone, Deserialize, Default, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AskRequest {
    pub question: String,
    #[serde(default)]
    pub history: Vec<Turn>,
    /// The server's default (`NYAYA_ANSWER_MODE`) when absent.
    pub mode: Option<AnswerMode>,
    /// For an eligibility question: facts the person stated in a form (ids from
    /// `GET /v1/eligibility/offices`), overriding what the question's words say. Ignored on
    /// other routes; never stored.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub facts: crate::eligibility::Facts,
    /// The edition to answer from, by its date ("2022", "2022-05-01"); the server's default
    /// (the newest unless `NYAYA_EDITION` says otherwise) when absent.
    #[serde(default)]
    pub edition: Option<String>,
}

/// One numbered citation: a verbatim quote of a retrieved provision.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Citation {
    pub n: usize,
    #[serde(rename = "ref")]
    pub ref_id: String,
    pub title: String,
    /// "Article 22(1)", "Seventh Schedule, List I, entry 97".
    pub label: String,
    #[schema(required)]
    pub clause: Option<String>,
    /// Exact text of the provision (whitespace-normalised).
    pub quote: String,
    /// The span continues beyond the quote.
    pub truncated: bool,
    pub page: i32,
    pub edition: String,
    pub amendments: Vec<AmendmentNote>,
    /// Char (Unicode scalar) offsets of the quoted clause in the provision's text, as
    /// `GET /v1/provisions/{ref}` returns it: what the chat page highlights.
    pub span: CharSpan,
    #[serde(skip)]
    provision_text: String,
}

/// A half-open range of char offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct CharSpan {
    pub start: usize,
    pub end: usize,
}

/// A reading of an ambiguous question the user may mean.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Suggestion {
    #[serde(rename = "ref")]
    pub ref_id: String,
    pub title: String,
    /// A question that would get that provision's answer.
    pub question: String,
}

/// Milliseconds per stage.
#[derive(Debug, Clone, Serialize, Default, utoipa::ToSchema)]
pub struct AskTimings {
    pub route: f64,
    pub retrieve: f64,
    pub quote: f64,
    pub llm: f64,
    pub total: f64,
}

/// What retrieval found, for "details on demand".
#[derive(Debug, Clone, Serialize, Default, utoipa::ToSchema)]
pub struct RetrievalView {
    #[schema(required)]
    pub confidence: Option<f64>,
    pub results: Vec<SearchHit>,
    /// Every provision any of the request's searches returned (hits and supporting): what a
    /// citation may point at.
    pub retrieved: Vec<String>,
}

/// `POST /v1/ask`'s reply (and `nyaya ask --json`).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct AskResponse {
    pub request_id: String,
    pub route: Route,
    pub refused: bool,
    #[schema(required)]
    pub refusal_reason: Option<String>,
    /// The answer; for a question in Hindi its fixed strings are Hindi and it says that the
    /// quotes are the official English text (`messages`).
    pub answer: String,
    /// The question's language (`crate::language`).
    pub language: crate::language::Language,
    pub citations: Vec<Citation>,
    pub supporting: Vec<Supporting>,
    /// For an ambiguous question: readings to choose from.
    pub suggestions: Vec<Suggestion>,
    /// For an eligibility question: the verdict, criterion by criterion.
    #[schema(required)]
    pub eligibility: Option<eligible::EligibilityView>,
    pub mode: AnswerMode,
    pub llm_used: bool,
    /// The LLM answer was asked for but the extractive one is given (see `degraded_reason`).
    pub degraded: bool,
    #[schema(required)]
    pub degraded_reason: Option<String>,
    /// What the guards removed from the LLM's text.
    pub guards: GuardCounts,
    pub routing: Routing,
    pub retrieval: RetrievalView,
    pub timings_ms: AskTimings,
}

/// Server-sent events of `POST /v1/ask/stream`.
#[derive(Debug, Clone)]
pub enum AskEvent {
    Route(Routing),
    Citations(Vec<Citation>),
    /// A piece of the LLM's text, before the guards.
    Delta(String),
    /// The verified answer; replaces whatever was streamed.
    Final(Box<AskResponse>),
    /// The request failed after the stream opened (sent by the streaming handler, with the
    /// error's code; the pipeline itself returns its errors).
    Error {
        code: &'static str,
    },
}

/// What the pipeline runs with.
#[derive(Clone)]
pub struct Answerer {
    pub pool: PgPool,
    pub models: Models,
    pub llm: Option<Arc<LlmClient>>,
    pub search: SearchOptions,
    pub default_mode: AnswerMode,
    pub quote_weights: extract::QuoteWeights,
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// Checks the request before any work: typed 400s.
pub fn validate(req: &AskRequest, max_chars: usize) -> AppResult<()> {
    check_text("question", &req.question)?;
    for (i, t) in req.history.iter().enumerate() {
        check_text(&format!("history[{i}].question"), &t.question)?;
        for (j, r) in t.refs.iter().enumerate() {
            check_text(&format!("history[{i}].refs[{j}]"), r)?;
        }
    }
    if req.question.trim().is_empty() {
        return Err(AppError::BadRequest("question is empty".into()));
    }
    let n = req.question.chars().count();
    if n > max_chars {
        return Err(AppError::BadRequest(format!(
            "question is {n} characters; the limit is {max_chars}"
        )));
    }
    crate::eligibility::check_facts(crate::eligibility::Catalogue::builtin(), &req.facts)
        .map_err(|e| AppError::BadRequest(format!("facts: {e}")))?;
    if req.history.len() > MAX_HISTORY {
        return Err(AppError::BadRequest(format!(
            "history has {} turns; the limit is {MAX_HISTORY}",
            req.history.len()
        )));
    }
    for (i, t) in req.history.iter().enumerate() {
        if t.question.chars().count() > max_chars {
            return Err(AppError::BadRequest(format!(
                "history[{i}].question is longer than {max_chars} characters"
            )));
        }
        if let Some(bad) = t.refs.iter().find(|r| r.parse::<RefId>().is_err()) {
            return Err(AppError::BadRequest(format!(
                "history[{i}].refs has {bad:?}, which is not a provision id"
            )));
        }
    }
    Ok(())
}

/// Loads the clause-span vectors ingest stored for the embedder's model into the answer
/// step's passage cache, so that no answer embeds more than its question (spans missing from
/// the table are still embedded on first use). Returns how many were loaded.
pub async fn preload_span_vectors(pool: &PgPool, models: &Models) -> AppResult<usize> {
    let Some(embedder) = &models.embedder else {
        return Ok(0);
    };
    let rows = store::span_vectors(pool, &embedder.manifest().id).await?;
    Ok(models.passage_cache.preload(rows)?)
}

/// The state of one request as it moves through the pipeline.
struct Run<'a> {
    a: &'a Answerer,
    /// The edition every search, quote and the audit row read (`None` before any ingest).
    edition: Option<store::Edition>,
    request_id: String,
    question: String,
    /// The question's language, read once: the answer's fixed strings follow it.
    language: crate::language::Language,
    mode: AnswerMode,
    events: Option<&'a UnboundedSender<AskEvent>>,
    timings: AskTimings,
    started: Instant,
    llm_used: bool,
}

impl Run<'_> {
    fn emit(&self, e: AskEvent) {
        if let Some(tx) = self.events {
            let _ = tx.send(e);
        }
    }

    async fn record_calls(&mut self, attempts: &[crate::llm::Attempt]) -> AppResult<()> {
        if !attempts.is_empty() {
            self.llm_used = true;
        }
        audit::record_calls(&self.a.pool, &self.request_id, attempts).await
    }
}

/// Answers one question: route, retrieve, refuse or quote, then (in llm mode) write prose
/// over the quotes. Each step is a function below; this one says in what order they run and
/// where a refusal stops them.
pub async fn ask(
    a: &Answerer,
    req: AskRequest,
    request_id: String,
    events: Option<&UnboundedSender<AskEvent>>,
) -> AppResult<AskResponse> {
    validate(&req, a.search.max_query_chars)?;
    let started = Instant::now();
    // The raw question goes no further than this line.
    let question = scrub::scrub(&req.question).text;
    let history: Vec<Turn> = req
        .history
        .iter()
        .map(|t| Turn {
            question: scrub::scrub(&t.question).text,
            refs: t.refs.clone(),
            answer: None,
        })
        .collect();
    let mode = req.mode.unwrap_or(a.default_mode);
    let mut run = Run {
        a,
        edition: resolve_edition(a, req.edition.as_deref()).await?,
        request_id,
        language: crate::language::detect(&question),
        question,
        mode,
        events,
        timings: AskTimings::default(),
        started,
        llm_used: false,
    };
    // One LLM deadline for the whole request: router, HyDE and answer share it.
    let llm = match mode {
        AnswerMode::Llm => a.llm.as_deref().map(|c| Arc::new(c.for_request())),
        AnswerMode::Extractive => None,
    };

    // 2. Route.
    let routing = route(&mut run, &history, llm.as_deref()).await?;

    // 3. No retrieval for these.
    match routing.route {
        Route::OutOfScope => {
            let reason = routing
                .out_of_scope
                .map(|c| c.reason().to_string())
                .unwrap_or_else(|| OUTSIDE_THE_TEXT.into());
            return finish_refusal(&mut run, routing, reason, None, Vec::new()).await;
        }
        Route::ChitChat => {
            let reply = crate::scope::OutOfScope::ChitChat.reason().to_string();
            let response = response(&run, routing, reply, Vec::new(), Vec::new(), None);
            return finish_with(&mut run, response, Vec::new()).await;
        }
        Route::Eligibility => return answer_eligibility(&mut run, routing, &req.facts).await,
        _ => {}
    }

    // 4. Retrieve.
    let t = Instant::now();
    let searches = retrieve(&mut run, &routing, llm.as_deref()).await?;
    run.timings.retrieve = ms(t);
    let main = &searches[0].1;
    let retrieved = retrieved_refs(&searches);
    let view = RetrievalView {
        confidence: main.coverage.confidence,
        results: main.results.clone(),
        retrieved: retrieved.clone(),
    };

    // 5. Not covered → refusal, before any answer model runs.
    if let Some(reason) = not_covered(&routing, &searches) {
        return finish_refusal(&mut run, routing, reason, Some(view), retrieved).await;
    }

    // 6. Quote; a refusal when nothing quotable shares a word with the question.
    let t = Instant::now();
    let groups = quote_groups(&routing, &searches, run.language);
    let document_id = run.edition.as_ref().ok_or(AppError::NoCorpus)?.document_id;
    let (picks, citations) = quote_groups_text(a, document_id, &groups).await?;
    run.timings.quote = ms(t);
    let unsupported = if citations.is_empty() {
        Some(NOTHING_QUOTABLE)
    } else if !quotes_share_a_word(&run, &routing, &searches, &citations) {
        Some(NO_SHARED_WORD)
    } else {
        None
    };
    if let Some(reason) = unsupported {
        return finish_refusal(&mut run, routing, reason.into(), Some(view), retrieved).await;
    }
    run.emit(AskEvent::Citations(citations.clone()));
    let framing = messages::framing(run.language);
    let suggestions = if routing.route == Route::Ambiguous {
        suggestions_from(&main.results, framing)
    } else {
        Vec::new()
    };
    let extractive = render_extractive(&routing, &picks, &citations, &suggestions, framing);
    let supporting: Vec<Supporting> = main.supporting.clone();

    // 7. LLM prose, guarded; or the extractive answer.
    let prose = match (mode, &llm) {
        (AnswerMode::Llm, None) => Prose {
            degraded_reason: Some("no LLM is configured (NYAYA_LLM_BASE_URL)".to_string()),
            ..Prose::default()
        },
        (AnswerMode::Llm, Some(llm)) => {
            llm_prose(a, &mut run, llm, &citations, main, &retrieved).await?
        }
        (AnswerMode::Extractive, _) => Prose::default(),
    };
    let (answer, final_citations) = prose.text.unwrap_or((extractive, citations));
    let mut response = response(
        &run,
        routing,
        answer,
        final_citations,
        supporting,
        Some(view),
    );
    response.suggestions = suggestions;
    response.degraded = prose.degraded_reason.is_some();
    response.degraded_reason = prose.degraded_reason;
    response.guards = prose.guards;
    finish_with(&mut run, response, retrieved).await
}

/// The edition the request names, or the configured one. Resolved once, so that every search
/// and quote of an answer reads the same document. An empty database still routes (a refusal
/// needs no corpus): `None`, and a search then says so.
async fn resolve_edition(
    a: &Answerer,
    requested: Option<&str>,
) -> AppResult<Option<store::Edition>> {
    let selector = requested.or(a.search.edition.as_deref());
    crate::input::check_text("edition", selector.unwrap_or(""))?;
    match store::resolve_edition(&a.pool, selector).await {
        Ok(e) => Ok(Some(e)),
        Err(AppError::NoCorpus) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Step 2: the route. The rules always route first. The LLM router only sees what they let
/// through: an injection attempt or a cricket score never reaches a model, not even the
/// router; nor does an eligibility question, whose office the rules find and the checker
/// answers.
async fn route(run: &mut Run<'_>, history: &[Turn], llm: Option<&LlmClient>) -> AppResult<Routing> {
    let t = Instant::now();
    let rules = router::route_by_rules(&run.question, history);
    let (routing, attempts) = match llm {
        Some(l)
            if !matches!(
                rules.route,
                Route::OutOfScope | Route::ChitChat | Route::Eligibility
            ) =>
        {
            generate::LlmRouter(l).route(&run.question, history).await
        }
        _ => (rules, Vec::new()),
    };
    run.record_calls(&attempts).await?;
    run.timings.route = ms(t);
    tracing::info!(
        route = routing.route.as_str(),
        router = routing.router,
        "routed"
    );
    run.emit(AskEvent::Route(routing.clone()));
    Ok(routing)
}

/// Every provision the searches returned, hits and then cross-referenced ones, each once, in
/// the order first seen: what the audit row records and the response lists as `retrieved`.
fn retrieved_refs(searches: &[(Option<String>, SearchResponse)]) -> Vec<String> {
    let mut refs: Vec<String> = Vec::new();
    let all = searches.iter().flat_map(|(_, s)| {
        s.results
            .iter()
            .map(|h| &h.ref_id)
            .chain(s.supporting.iter().map(|p| &p.ref_id))
    });
    for id in all {
        if !refs.contains(id) {
            refs.push(id.clone());
        }
    }
    refs
}

/// Step 5: why the searches do not cover the question, if they do not. A question that names
/// only provisions the edition does not have ("Quote Article 21C", "What does Article 500
/// say?") is told so, not answered from whatever else was found.
fn not_covered(routing: &Routing, searches: &[(Option<String>, SearchResponse)]) -> Option<String> {
    let named_none = routing.route == Route::ArticleLookup
        && !routing.refs.is_empty()
        && !searches
            .iter()
            .any(|(_, s)| s.results.iter().any(|h| h.pinned));
    if named_none {
        return Some(NO_SUCH_PROVISION.into());
    }
    let covered = searches
        .iter()
        .any(|(_, s)| s.coverage.covered && !s.results.is_empty());
    if covered {
        return None;
    }
    Some(
        searches[0]
            .1
            .coverage
            .reason
            .clone()
            .unwrap_or_else(|| NOTHING_RETRIEVED.into()),
    )
}

/// Whether the quotes chosen share a word with what was asked ([`support`]): the question,
/// what each search read in it (the glossaries' words, spelling corrections, a follow-up's
/// rewritten query), against the quotes and their provisions' headings. A question that names
/// a provision, or whose search pinned one, is a lookup and always passes; so does a question
/// in an Indian script, whose words are not English.
fn quotes_share_a_word(
    run: &Run<'_>,
    routing: &Routing,
    searches: &[(Option<String>, SearchResponse)],
    citations: &[Citation],
) -> bool {
    let pinned = searches
        .iter()
        .any(|(_, s)| s.results.iter().any(|h| h.pinned));
    if run.language.indic_script() || !routing.refs.is_empty() || pinned {
        return true;
    }
    let read = searches.iter().flat_map(|(q, s)| {
        q.iter()
            .chain(&s.expansion.added)
            .chain(&s.gloss)
            .map(String::as_str)
            .chain(s.spelling.iter().map(|c| c.to.as_str()))
    });
    let asked = [run.question.as_str(), routing.rewritten_query.as_str()]
        .into_iter()
        .chain(read);
    let shown = citations
        .iter()
        .flat_map(|c| [c.quote.as_str(), c.title.as_str()]);
    support::shares_a_word(asked, shown)
}

/// What the LLM step made of an answer's citations.
#[derive(Default)]
struct Prose {
    /// The guarded text and the citations it still cites; `None`: the extractive answer stands.
    text: Option<(String, Vec<Citation>)>,
    /// Why the extractive answer stands in llm mode (no model, a failed call, nothing survived).
    degraded_reason: Option<String>,
    guards: GuardCounts,
}

/// The LLM's prose over the numbered citations, then the guards: unsupported citations
/// stripped, quotes and figures not in the excerpts dropped. Every call is recorded.
async fn llm_prose(
    a: &Answerer,
    run: &mut Run<'_>,
    llm: &LlmClient,
    citations: &[Citation],
    main: &SearchResponse,
    retrieved: &[String],
) -> AppResult<Prose> {
    let mut prose = Prose::default();
    let t = Instant::now();
    let labels: Vec<String> = citations
        .iter()
        .map(|c| format!("{} — {}", c.label, c.title))
        .collect();
    let excerpts: Vec<generate::PromptExcerpt> = citations
        .iter()
        .zip(&labels)
        .map(|(c, l)| generate::PromptExcerpt {
            n: c.n,
            label: l.clone(),
            text: &c.quote,
        })
        .collect();
    let threshold = a.search.refusal_threshold_for(main.multilingual);
    let weak = main
        .coverage
        .confidence
        .is_some_and(|c| c < threshold + 0.05)
        && !main.results.iter().any(|r| r.pinned);
    let tx = run.events.cloned();
    let on_delta = move |d: &str| {
        if let Some(tx) = &tx {
            let _ = tx.send(AskEvent::Delta(d.to_string()));
        }
    };
    let (result, attempts) = generate::llm_answer(
        llm,
        &run.question,
        &excerpts,
        weak,
        run.events
            .is_some()
            .then_some(&on_delta as &(dyn Fn(&str) + Send + Sync)),
    )
    .await;
    run.record_calls(&attempts).await?;
    run.timings.llm = ms(t);
    match result {
        Err(e) => prose.degraded_reason = Some(e.to_string()),
        Ok(text) => {
            let guard_excerpts: Vec<guard::Excerpt> = citations
                .iter()
                .map(|c| guard::Excerpt {
                    n: c.n,
                    ref_id: c.ref_id.clone(),
                    text: c.quote.clone(),
                    provision_text: c.provision_text.clone(),
                })
                .collect();
            let g = guard::guard(&text, &guard_excerpts, retrieved);
            prose.guards = g.counts;
            if g.counts.any() {
                tracing::warn!(
                    stripped_citations = g.counts.stripped_citations,
                    dropped_quotes = g.counts.dropped_quotes,
                    dropped_figures = g.counts.dropped_figures,
                    "guards removed parts of the LLM answer"
                );
            }
            if g.cited.is_empty() {
                prose.degraded_reason =
                    Some("nothing the LLM wrote survived the citation guards".to_string());
            } else {
                let kept = citations
                    .iter()
                    .filter(|c| g.cited.contains(&c.n))
                    .cloned()
                    .collect();
                prose.text = Some((g.text, kept));
            }
        }
    }
    Ok(prose)
}

/// The eligibility route: the checker's verdict over the question's facts and the form's,
/// each criterion quoted from its clause. No retrieval: the criteria name their provisions,
/// and those are what the citations may point at.
async fn answer_eligibility(
    run: &mut Run<'_>,
    routing: Routing,
    sent: &crate::eligibility::Facts,
) -> AppResult<AskResponse> {
    let t = Instant::now();
    let catalogue = crate::eligibility::Catalogue::builtin();
    let Some(office) = crate::eligibility_text::asked_office(catalogue, &run.question) else {
        return finish_refusal(run, routing, NO_KNOWN_OFFICE.into(), None, Vec::new()).await;
    };
    let facts = eligible::merged_facts(&run.question, sent);
    let document_id = run.edition.as_ref().ok_or(AppError::NoCorpus)?.document_id;
    let (view, citations) =
        eligible::check_and_cite(&run.a.pool, document_id, office, facts).await?;
    run.timings.quote = ms(t);
    run.emit(AskEvent::Citations(citations.clone()));
    let retrieved: Vec<String> = citations.iter().fold(Vec::new(), |mut acc, c| {
        if !acc.contains(&c.ref_id) {
            acc.push(c.ref_id.clone());
        }
        acc
    });
    let text = eligible::render(&view, &citations);
    let mut r = response(run, routing, text, citations, Vec::new(), None);
    r.retrieval.retrieved = retrieved.clone();
    r.eligibility = Some(view);
    finish_with(run, r, retrieved).await
}

/// One search per part for a multi-part question (at most [`router::MAX_SUB_QUESTIONS`],
/// concurrently), else one; HyDE for a conceptual question when an LLM is configured. The
/// first search is the main one (coverage, details).
async fn retrieve(
    run: &mut Run<'_>,
    routing: &Routing,
    llm: Option<&LlmClient>,
) -> AppResult<Vec<(Option<String>, SearchResponse)>> {
    let a = run.a;
    let opts = SearchOptions {
        k: 5,
        context_refs: routing.context_refs.clone(),
        edition: run.edition.as_ref().map(|e| e.date.to_string()),
        ..a.search.clone()
    };
    let query = routing.rewritten_query.as_str();
    if routing.route == Route::MultiPart && !routing.sub_questions.is_empty() {
        let parts = futures::future::try_join_all(
            routing
                .sub_questions
                .iter()
                .map(|q| search::search(&a.pool, &a.models, q, &opts, run.request_id.clone())),
        )
        .await?;
        return Ok(routing
            .sub_questions
            .iter()
            .cloned()
            .map(Some)
            .zip(parts)
            .collect());
    }
    let hint = match (routing.route, llm) {
        (Route::Conceptual, Some(llm)) => {
            let (passage, attempts) = generate::hyde(llm, query).await;
            run.record_calls(&attempts).await?;
            passage
        }
        _ => None,
    };
    let s = search::search_with_hint(
        &a.pool,
        &a.models,
        query,
        hint.as_deref(),
        &opts,
        run.request_id.clone(),
    )
    .await?;
    Ok(vec![(None, s)])
}

/// A provision chosen for quoting: which search found it (the part's question, for a
/// multi-part answer), the hit, and the text to choose its span by.
struct Pick {
    part: Option<String>,
    hit: SearchHit,
    /// The second provision of a one-question answer ("Also relevant").
    also: bool,
}

/// The provisions one search offers for quoting, and how many of them to quote.
struct Group {
    part: Option<String>,
    query: String,
    /// Pinned hits (always quoted, in the order named) or the top candidates.
    candidates: Vec<SearchHit>,
    take: usize,
    /// A follow-up's previous refs: shown whatever their gap to the lead.
    context_refs: Vec<String>,
    /// Candidates keep retrieval's order instead of competing by their best span: the span
    /// step's similarity is the English embedder's, which cannot read a question in another
    /// language, while retrieval's order came from the multilingual leg.
    retrieval_order: bool,
}

/// Retrieval candidates this many deep compete for the quotes, by their best span.
const QUOTE_CANDIDATES: usize = 3;

/// What each search offers: the hits of a lookup ([`lookup_hits`], all quoted); otherwise the
/// top [`QUOTE_CANDIDATES`] (and, for a follow-up, the previous answer's refs retrieval
/// returned), of which the best one per part (or two for a single question) are quoted.
fn quote_groups(
    routing: &Routing,
    searches: &[(Option<String>, SearchResponse)],
    language: crate::language::Language,
) -> Vec<Group> {
    searches
        .iter()
        .filter(|(part, s)| part.is_none() || s.coverage.covered)
        .map(|(part, s)| {
            let query = part
                .clone()
                .unwrap_or_else(|| routing.rewritten_query.clone());
            let lookup = lookup_hits(s, &query, language);
            // A multilingual search keeps its fused order, whose reciprocal-rank scores do not
            // say how far a second provision is from the lead: no "also relevant" for it.
            let take = if !lookup.is_empty() {
                lookup.len()
            } else if part.is_some() || routing.route == Route::Ambiguous || s.multilingual {
                1
            } else {
                2
            };
            Group {
                part: part.clone(),
                query,
                candidates: if lookup.is_empty() {
                    // A follow-up's previous refs compete too, wherever retrieval put them:
                    // "and who can remove them?" is about what the last answer cited.
                    s.results
                        .iter()
                        .enumerate()
                        .filter(|(i, h)| {
                            *i < QUOTE_CANDIDATES || routing.context_refs.contains(&h.ref_id)
                        })
                        .map(|(_, h)| h.clone())
                        .collect()
                } else {
                    lookup
                },
                take,
                context_refs: routing.context_refs.clone(),
                retrieval_order: language != crate::language::Language::English,
            }
        })
        .collect()
}

/// A lookup's candidates: the pinned hits (up to 3), all quoted, in the order named. A
/// question that names a provision but asks about what cites it ("Can laws listed in the
/// Ninth Schedule be declared void?" → 31B) is led by retrieval's own first when that one
/// refers to a named provision ([`SearchHit::cites_named`]) and the question has a word
/// beyond the named provisions' headings (ADR 0007, stop 45). English only: those words are
/// read as English words.
fn lookup_hits(
    search: &SearchResponse,
    query: &str,
    language: crate::language::Language,
) -> Vec<SearchHit> {
    let mut hits: Vec<SearchHit> = search
        .results
        .iter()
        .filter(|h| h.pinned)
        .take(3)
        .cloned()
        .collect();
    let citing = search.results.iter().find(|h| h.cites_named);
    if let Some(citing) = citing.filter(|_| language == crate::language::Language::English) {
        if extract::asks_beyond_named(query, hits.iter().map(|h| h.title.as_str())) {
            hits.insert(0, citing.clone());
        }
    }
    hits
}

/// A candidate's best span and its score.
struct Scored {
    group: usize,
    rank: usize,
    hit: SearchHit,
    view: ProvisionView,
    span: extract::Span,
    score: f64,
    /// Its quoted clause is where the text says what the asked term is
    /// ([`crate::definition::defines`]).
    defines_asked: bool,
}

/// One quote candidate: a provision retrieval found, its quotable spans, and the question
/// (as search read it) they are judged against.
struct Prepared<'v> {
    /// Its place in the groups' candidates, flattened.
    at: usize,
    view: &'v ProvisionView,
    spans: Vec<extract::Span>,
    terms: &'v BTreeSet<String>,
    expanded: &'v str,
    /// What the group's question asks for beyond its subject.
    asked: &'v asks::Asked,
    /// The term the group's question asks the meaning of.
    defined: Option<&'v crate::definition::Term>,
}

/// Each candidate's spans' cosine to its question (`None` without an embedder): each distinct
/// question embedded, then every span (from the process's passage cache where a provision was
/// quoted before), off the async runtime.
async fn span_similarities(
    a: &Answerer,
    prepared: &[Prepared<'_>],
) -> AppResult<Vec<Option<Vec<f32>>>> {
    let Some(embedder) = &a.models.embedder else {
        return Ok(vec![None; prepared.len()]);
    };
    let m = embedder.manifest();
    let mut queries: Vec<String> = Vec::new();
    let mut q_index = Vec::new();
    for p in prepared {
        let text = format!("{}{}", m.query_prefix, p.expanded);
        let at = match queries.iter().position(|t| *t == text) {
            Some(i) => i,
            None => {
                queries.push(text);
                queries.len() - 1
            }
        };
        q_index.push(at);
    }
    let spans: Vec<String> = prepared
        .iter()
        .flat_map(|p| p.spans.iter())
        .map(|s| format!("{}{}", m.passage_prefix, s.text))
        .collect();
    let model = embedder.clone();
    let cache = a.models.passage_cache.clone();
    let (query_vectors, span_vectors) = tokio::task::spawn_blocking(move || {
        let q = model.embed_raw(&queries)?;
        let s = cache.get_or_embed(&spans, |missing| model.embed_raw(missing))?;
        Ok::<_, crate::embed::EmbedError>((q, s))
    })
    .await
    .map_err(|e| AppError::Resource(format!("embedding task failed: {e}")))??;
    // With the query adapter on, the expanded question is mapped by it: on dev it chose the
    // clause that carries the answer a little more often (ADR 0014).
    let adapter = a
        .search
        .query_adapter
        .then(|| crate::search::adapter::QueryAdapter::for_model(&m.id))
        .flatten();
    let query_vectors: Vec<Vec<f32>> = match adapter {
        Some(ad) => query_vectors.iter().map(|q| ad.apply(q)).collect(),
        None => query_vectors,
    };
    let mut out = Vec::new();
    let mut at = 0;
    for (p, qi) in prepared.iter().zip(q_index) {
        let q = &query_vectors[qi];
        let sims: Vec<f32> = span_vectors[at..at + p.spans.len()]
            .iter()
            .map(|v| v.iter().zip(q).map(|(x, y)| x * y).sum())
            .collect();
        at += p.spans.len();
        out.push(Some(sims));
    }
    Ok(out)
}

/// Quotes the groups' provisions: for each candidate, its named clause or the span closest
/// to the question ([`score_candidates`]); then, per group, the candidates whose best span is
/// best (pinned ones always, in order; [`pick_group`]). Retrieval's order breaks near-ties.
async fn quote_groups_text(
    a: &Answerer,
    document_id: i64,
    groups: &[Group],
) -> AppResult<(Vec<Pick>, Vec<Citation>)> {
    let flat: Vec<(usize, usize, &SearchHit)> = groups
        .iter()
        .enumerate()
        .flat_map(|(g, group)| {
            group
                .candidates
                .iter()
                .enumerate()
                .map(move |(rank, h)| (g, rank, h))
        })
        .collect();
    let views = futures::future::try_join_all(flat.iter().map(|(_, _, h)| async {
        let id: RefId = h.ref_id.parse().map_err(|_| AppError::UnknownRef {
            query: h.ref_id.clone(),
        })?;
        store::get_provision(&a.pool, document_id, &id).await
    }))
    .await?;
    let readings = group_readings(groups);
    let mut prepared: Vec<Prepared> = Vec::new();
    for (at, ((g, _, _), view)) in flat.iter().zip(&views).enumerate() {
        let Some(view) = view else { continue };
        let Reading {
            expanded,
            terms,
            asked,
            defined,
        } = &readings[*g];
        let spans = extract::candidate_spans(view, terms);
        prepared.push(Prepared {
            at,
            view,
            spans,
            terms,
            expanded,
            asked,
            defined: defined.as_ref(),
        });
    }
    let similarity = span_similarities(a, &prepared).await?;
    let scored = score_candidates(&a.quote_weights, &flat, &prepared, similarity);
    let mut picks: Vec<Pick> = Vec::new();
    let mut citations: Vec<Citation> = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let mine: Vec<&Scored> = scored.iter().filter(|s| s.group == g).collect();
        pick_group(&a.quote_weights, group, mine, &mut picks, &mut citations)?;
    }
    Ok((picks, citations))
}

/// A group's question as the quote step reads it.
struct Reading {
    /// As search read it: Hindi words in Latin letters in their English, then the glossary's
    /// expansion.
    expanded: String,
    /// The words that pick a clause.
    terms: BTreeSet<String>,
    /// What it asks for beyond its subject (read in the question as asked, not the glossary's
    /// added phrases).
    asked: asks::Asked,
    /// The term it asks the meaning of ("What is a Money Bill?"), read as asked too.
    defined: Option<crate::definition::Term>,
}

/// Each group's question, read once ([`Reading`]).
fn group_readings(groups: &[Group]) -> Vec<Reading> {
    let glossary = Glossary::builtin();
    groups
        .iter()
        .map(|group| {
            let (query, _) = crate::search::gloss::english_question(&group.query);
            let expanded = glossary.expand(&query).expanded_query(&query);
            // The words that name a ref ("Art. 243-D", "article three hundred and
            // sixty-eight") say nothing about which clause is meant.
            let refs = nyaya_ingest::refid::find_refs(&query);
            let spans: Vec<_> = refs.iter().map(|(_, at)| at.clone()).collect();
            let unnamed = without_spans(&query, &spans);
            let terms = if refs.is_empty() {
                extract::terms(&expanded)
            } else {
                extract::terms_beside_a_ref(&glossary.expand(&unnamed).expanded_query(&unnamed))
            };
            Reading {
                expanded,
                terms,
                asked: asks::Asks::builtin().asked(&query),
                defined: crate::definition::asked_term(&query),
            }
        })
        .collect()
}

/// `text` with the characters in the byte ranges `spans` blanked (the ref scanner's ranges,
/// which are `text`'s even for a ref in an Indian script).
fn without_spans(text: &str, spans: &[std::ops::Range<usize>]) -> String {
    text.char_indices()
        .map(|(i, c)| {
            if spans.iter().any(|r| r.contains(&i)) {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// Each candidate's quote: the clause the question named, the opening of a pinned provision
/// the question asks nothing more of, or else its best span (weighing what the question asks
/// for, [`extract::with_what_is_asked`]); scored with retrieval's order as a prior and its
/// best span's score without what is asked. `flat` is every group's candidates, `(group,
/// rank, hit)`; `similarity` is each prepared candidate's spans' cosines.
fn score_candidates(
    weights: &extract::QuoteWeights,
    flat: &[(usize, usize, &SearchHit)],
    prepared: &[Prepared],
    similarity: Vec<Option<Vec<f32>>>,
) -> Vec<Scored> {
    let mut scored: Vec<Scored> = Vec::new();
    for (p, sims) in prepared.iter().zip(similarity) {
        let (g, rank, hit) = flat[p.at];
        let scores = extract::score_spans(&p.spans, p.terms, sims.as_deref(), weights.overlap);
        let named = hit.clause.as_deref().and_then(|c| {
            let i = p
                .spans
                .iter()
                .position(|s| Some(s) == extract::named_span(&p.spans, c))?;
            Some(i)
        });
        let best = |scores: &[f64]| {
            extract::best_span(&p.spans, scores).and_then(|s| p.spans.iter().position(|x| x == s))
        };
        // The clause where the text says what the asked term is ("What is a Money Bill?"),
        // when the provision has one.
        let defining = p.defined.and_then(|term| {
            p.spans
                .iter()
                .position(|s| crate::definition::defines(&s.text, term))
        });
        // Whether the provision is quoted from its own first words ([`extract::opening`]).
        let mut from_opening = false;
        // The span whose score the provision competes for the lead with, and the span quoted.
        let (competing, quoted) = match named {
            Some(i) => (Some(i), Some(i)),
            // It is quoted; the provision competes for the lead with its best span's score.
            None if defining.is_some() => (best(&scores), defining),
            // "What does Article 21 say?", "Article 352 national emergency": the provision's
            // opening (all of it if short; from its first word when that precedes a clause).
            None if hit.pinned && extract::asks_for_whole(p.terms, &p.view.title, &p.spans) => {
                from_opening = true;
                let opening = (!p.spans.is_empty()).then_some(0);
                (opening, opening)
            }
            None => {
                let competing = best(&scores);
                // The clause quoted also weighs what the question asks for; the provision
                // competes for the lead with the score it had without it.
                let quoted = if weights.asks > 0.0 && !p.asked.is_empty() {
                    best(&extract::with_what_is_asked(
                        &scores,
                        &p.spans,
                        p.asked,
                        weights.asks,
                    ))
                } else {
                    competing
                };
                (competing, quoted)
            }
        };
        let (Some(competing), Some(quoted)) = (competing, quoted) else {
            continue;
        };
        let defines_asked = defining.is_some() && defining == Some(quoted);
        // Retrieval's order as a prior: a near-tie goes to the higher-ranked provision.
        let score = scores.get(competing).copied().unwrap_or(0.0)
            + weights.rank_prior * (QUOTE_CANDIDATES - rank.min(QUOTE_CANDIDATES)) as f64;
        tracing::debug!(
            r#ref = %hit.ref_id,
            rank,
            span = ?p.spans[quoted].label,
            asked = ?asks::Asks::builtin().names(p.asked),
            score,
            "quote candidate"
        );
        scored.push(Scored {
            group: g,
            rank,
            hit: hit.clone(),
            view: p.view.clone(),
            span: if from_opening {
                extract::opening(&p.view.text, &p.spans[quoted])
            } else {
                extract::with_lead_in(&p.view.text, &p.spans, &p.spans[quoted])
            },
            score,
            defines_asked,
        });
    }
    scored
}

/// One group's citations, appended to `picks` and `citations`: its candidates in the order
/// they compete for the lead ([`lead_order`], then the tier the question names), then up to
/// `group.take` of them, a second one only when retrieval could not tell it from the lead.
fn pick_group(
    weights: &extract::QuoteWeights,
    group: &Group,
    mut mine: Vec<&Scored>,
    picks: &mut Vec<Pick>,
    citations: &mut Vec<Citation>,
) -> AppResult<()> {
    let tiers_named = tier::named_in(&group.query);
    if !group.retrieval_order && !mine.iter().any(|s| s.hit.pinned) {
        let order = lead_order(
            &mine
                .iter()
                .map(|s| {
                    let exempt = group.context_refs.contains(&s.hit.ref_id);
                    (s.score, (!exempt).then_some(s.hit.score), s.rank)
                })
                .collect::<Vec<_>>(),
            weights.lead_gap,
        );
        mine = order.into_iter().map(|i| mine[i]).collect();
        // "What is a Money Bill?": the provision where the text says what it is leads, ahead
        // of one that only uses the term.
        mine.sort_by_key(|s| !s.defines_asked);
        // A provision of a government the question does not name ("the Rajya Sabha" →
        // 243A's Gram Sabha) leads only when no candidate of its own does.
        mine.sort_by_key(|s| tier::excludes_provision(tiers_named, tier_of(s)));
    }
    let mut taken = 0;
    let mut lead_score: Option<f64> = None;
    let mut lead_refers_to: Vec<String> = Vec::new();
    for s in mine {
        if taken == group.take {
            break;
        }
        let quoted_before = picks.iter().any(|p| p.hit.ref_id == s.hit.ref_id);
        if quoted_before && (group.part.is_none() || taken > 0) {
            continue;
        }
        // A second provision is shown only when retrieval could not tell it from the lead
        // (their scores within the calibrated gap, either way round): "also relevant"
        // that is not is noise a reader learns to skip (ADR 0007).
        let exempt = s.hit.pinned || group.context_refs.contains(&s.hit.ref_id);
        if let Some(lead) = lead_score.filter(|_| !exempt) {
            if (lead - s.hit.score).abs() > weights.also_gap {
                continue;
            }
        }
        let also = group.part.is_none() && taken > 0 && !s.hit.pinned;
        if also && !exempt && also_in_another_tier(tiers_named, s, &lead_refers_to) {
            continue;
        }
        let Some(c) = citation(citations.len() + 1, &s.view, &s.span)? else {
            continue;
        };
        // A part whose best provision an earlier part quoted ("Who are the members of the
        // GST Council and who chairs it?") is answered by it — its next candidate would be
        // noise: by its own clause (quoted below), or by the same quote above, whose
        // heading then names both parts.
        if quoted_before {
            let same = citations
                .iter()
                .position(|q| q.ref_id == c.ref_id && q.quote == c.quote);
            if let (Some(i), Some(part)) = (same, group.part.as_deref()) {
                let shown = picks[i].part.get_or_insert_with(String::new);
                if !shown.is_empty() {
                    shown.push_str(" — ");
                }
                shown.push_str(part.trim());
                lead_score.get_or_insert(s.hit.score);
                taken += 1;
                continue;
            }
        }
        picks.push(Pick {
            part: group.part.clone(),
            hit: s.hit.clone(),
            also,
        });
        citations.push(c);
        if lead_score.is_none() {
            lead_refers_to = s
                .view
                .cross_refs
                .outgoing
                .iter()
                .filter_map(|r| r.to.clone())
                .collect();
        }
        lead_score.get_or_insert(s.hit.score);
        taken += 1;
    }
    Ok(())
}

/// The order in which a group's candidates, each `(quote score, retrieval score, rank)`,
/// compete for the lead: by their best span's score, except that a candidate whose retrieval
/// score is more than `gap` below the best cannot take the lead by its span. Retrieval could
/// tell the two apart, and its learned order is the better judge then: on dev the answer's
/// first citation went 0.783 → 0.820, on the written set 0.712 → 0.721 (ADR 0007, stop 35).
/// `gap` is [`extract::QuoteWeights::lead_gap`] (0.5; until stop 44 it was also the bar "also
/// relevant" must clear). A follow-up's previous refs come without a retrieval score and always
/// compete, as they are always shown.
fn lead_order(candidates: &[(f64, Option<f64>, usize)], gap: f64) -> Vec<usize> {
    let best = candidates
        .iter()
        .filter_map(|c| c.1)
        .fold(f64::NEG_INFINITY, f64::max);
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by(|&i, &j| {
        let (x, y) = (candidates[i], candidates[j]);
        let apart = |c: (f64, Option<f64>, usize)| c.1.is_some_and(|r| best - r > gap);
        apart(x)
            .cmp(&apart(y))
            .then(y.0.total_cmp(&x.0))
            .then(x.2.cmp(&y.2))
    });
    order
}

/// Whether `candidate`, as a one-question answer's "also relevant" provision, belongs to a
/// tier of government the question does not name (`tiers_named`), when it names one ("Can the President
/// pardon …?" → a Governor's Article; "… a Supreme Court judge …" → a High Court one): the
/// parallel Article of another tier reads alike, so retrieval cannot tell it apart, but it
/// does not answer. Not when the lead refers to it (217's "in the manner provided in clause
/// (4) of article 124"): `lead_refers_to` is the lead's outgoing cross-references.
fn also_in_another_tier(
    tiers_named: tier::Tiers,
    candidate: &Scored,
    lead_refers_to: &[String],
) -> bool {
    tier::mismatch(tiers_named, tier_of(candidate))
        && !lead_refers_to.contains(&candidate.hit.ref_id)
}

/// The tier of government a candidate's Part belongs to, if any.
fn tier_of(candidate: &Scored) -> Option<tier::Tier> {
    candidate
        .view
        .part
        .as_ref()
        .and_then(|p| tier::of_part(&p.number))
}

/// The citation of one span: its quote (verbatim by construction, checked anyway), label,
/// page and amendment notes. `None` if the quote somehow is not verbatim.
fn citation(n: usize, view: &ProvisionView, span: &extract::Span) -> AppResult<Option<Citation>> {
    let (quote_text, truncated) = extract::quote_of(span);
    if !quote::is_verbatim(&quote_text, &view.text) {
        tracing::error!(r#ref = %view.ref_id, "a chosen span is not verbatim; skipped");
        return Ok(None);
    }
    let id: RefId = view.ref_id.parse().map_err(|_| AppError::UnknownRef {
        query: view.ref_id.clone(),
    })?;
    let label = clause_label(&id, span.label.as_deref());
    Ok(Some(Citation {
        n,
        ref_id: view.ref_id.clone(),
        title: extract::title_for_span(&view.title, span.label.as_deref()),
        label,
        clause: span.label.clone(),
        quote: quote_text,
        truncated,
        page: view.pages.start,
        edition: view.edition.clone(),
        amendments: extract::notes_for(&view.amendments, span.label.as_deref()),
        span: CharSpan {
            start: span.start,
            end: span.end,
        },
        provision_text: view.text.clone(),
    }))
}

/// "Article 22(1)", "Seventh Schedule, List I, entry 97", "Article 21".
fn clause_label(id: &RefId, clause: Option<&str>) -> String {
    match clause.filter(|l| !l.is_empty()) {
        Some(l) if id.label().starts_with("Article") => format!("{}{}", id.label(), l),
        Some(l) => format!("{}, {}", id.label(), l),
        None => id.label(),
    }
}

/// Readings of an ambiguous question: the top provisions found, each as a question in the
/// asker's language.
fn suggestions_from(results: &[SearchHit], framing: &messages::Framing) -> Vec<Suggestion> {
    results
        .iter()
        .take(4)
        .filter_map(|h| {
            let id: RefId = h.ref_id.parse().ok()?;
            Some(Suggestion {
                ref_id: h.ref_id.clone(),
                title: h.title.clone(),
                question: framing.suggestion(&id.label(), &h.title),
            })
        })
        .collect()
}

/// The extractive answer: each quote with its marker, its provision and its amendment notes.
fn render_extractive(
    routing: &Routing,
    picks: &[Pick],
    citations: &[Citation],
    suggestions: &[Suggestion],
    framing: &messages::Framing,
) -> String {
    let mut out: Vec<String> = Vec::new();
    if routing.route == Route::Ambiguous && !suggestions.is_empty() {
        let list: Vec<String> = suggestions
            .iter()
            .map(|s| {
                let label = s
                    .ref_id
                    .parse::<RefId>()
                    .map(|r| r.label())
                    .unwrap_or_default();
                format!("{label} ({})", s.title)
            })
            .collect();
        out.push(framing.several_readings(&list.join("; ")));
    } else if routing.premise_check {
        out.push(framing.premise_check.clone());
    }
    let mut last_part: Option<&str> = None;
    // One pick per citation, in order (a provision two parts quote is picked twice).
    for (c, pick) in citations.iter().zip(picks) {
        let mut block = String::new();
        if let Some(part) = pick.part.as_deref() {
            if last_part != Some(part) {
                block.push_str(&framing.on_part(part.trim()));
                last_part = Some(part);
            }
        }
        if pick.also {
            block.push_str(&framing.also_relevant);
        }
        block.push_str(&format!(
            "{} ({}): “{}”{} [{}]",
            c.label,
            c.title,
            c.quote,
            if c.truncated { " …" } else { "" },
            c.n
        ));
        let notes: Vec<&str> = c
            .amendments
            .iter()
            .filter(|a| a.clause.is_none() || a.clause == c.clause)
            .map(|a| a.note.as_str())
            .take(2)
            .collect();
        if !notes.is_empty() {
            block.push_str(&format!(" ({})", notes.join(" ")));
        }
        out.push(block);
    }
    out.join("\n\n")
}

fn response(
    run: &Run<'_>,
    routing: Routing,
    answer: String,
    citations: Vec<Citation>,
    supporting: Vec<Supporting>,
    retrieval: Option<RetrievalView>,
) -> AskResponse {
    AskResponse {
        request_id: run.request_id.clone(),
        route: routing.route,
        refused: false,
        refusal_reason: None,
        answer,
        language: run.language,
        citations,
        supporting,
        suggestions: Vec::new(),
        eligibility: None,
        mode: run.mode,
        llm_used: run.llm_used,
        degraded: false,
        degraded_reason: None,
        guards: GuardCounts::default(),
        routing,
        retrieval: retrieval.unwrap_or_default(),
        timings_ms: AskTimings::default(),
    }
}

async fn finish_refusal(
    run: &mut Run<'_>,
    routing: Routing,
    reason: String,
    retrieval: Option<RetrievalView>,
    retrieved: Vec<String>,
) -> AppResult<AskResponse> {
    let mut r = response(
        run,
        routing,
        REFUSAL.to_string(),
        Vec::new(),
        Vec::new(),
        retrieval,
    );
    r.refused = true;
    r.refusal_reason = Some(reason);
    finish_with(run, r, retrieved).await
}

/// Times, audits and emits the final answer.
async fn finish_with(
    run: &mut Run<'_>,
    mut response: AskResponse,
    retrieved: Vec<String>,
) -> AppResult<AskResponse> {
    response.llm_used = run.llm_used;
    response.answer = messages::localise(
        response.language,
        response.refused,
        !response.citations.is_empty(),
        std::mem::take(&mut response.answer),
    );
    response.refusal_reason = response
        .refusal_reason
        .take()
        .map(|r| messages::translate(response.language, r));
    run.timings.total = ms(run.started);
    response.timings_ms = run.timings.clone();
    let cited: Vec<audit::CitedSpan> = response
        .citations
        .iter()
        .map(|c| audit::CitedSpan {
            n: c.n,
            ref_id: c.ref_id.clone(),
            clause: c.clause.clone(),
            start_char: c.span.start,
            end_char: c.span.end,
            quote_chars: c.quote.chars().count(),
            quote_sha256: quote::sha256(&c.quote),
        })
        .collect();
    // On the eligibility route the question's numbers are the person's age and years: the
    // audit keeps neither, only the verdict and an age band.
    let (question, eligibility) = match &response.eligibility {
        Some(v) => (
            eligible::audit_question(&run.question),
            Some(eligible::audit_record(v)),
        ),
        None => (run.question.clone(), None),
    };
    audit::record_answer(
        &run.a.pool,
        &audit::AnswerRecord {
            request_id: &run.request_id,
            question_scrubbed: &question,
            eligibility,
            route: response.route.as_str(),
            mode: run.mode.as_str(),
            refused: response.refused,
            refusal_reason: response.refusal_reason.as_deref(),
            degraded: response.degraded,
            llm_used: response.llm_used,
            citations: &cited,
            retrieved: &retrieved,
            guards: response.guards,
            edition: run.edition.as_ref(),
        },
    )
    .await?;
    tracing::info!(
        route = response.route.as_str(),
        refused = response.refused,
        citations = response.citations.len(),
        degraded = response.degraded,
        llm_used = response.llm_used,
        total_ms = response.timings_ms.total,
        "answered"
    );
    let t = &response.timings_ms;
    let metrics = crate::metrics::global();
    metrics.observe_stages(
        "ask",
        &[
            ("route", t.route),
            ("retrieve", t.retrieve),
            ("quote", t.quote),
            ("llm", t.llm),
            ("total", t.total),
        ],
    );
    metrics.observe_answer(
        response.route.as_str(),
        run.mode.as_str(),
        response.refused,
        response.degraded,
        &response.guards,
    );
    run.emit(AskEvent::Final(Box::new(response.clone())));
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::{lead_order, without_spans};

    #[test]
    fn the_words_naming_a_ref_are_blanked_in_any_script() {
        let q = "Art. 243-D reservation in panchayats";
        let spans: Vec<_> = nyaya_ingest::refid::find_refs(q)
            .into_iter()
            .map(|(_, at)| at)
            .collect();
        let blanked = without_spans(q, &spans);
        assert!(!blanked.contains("243") && blanked.contains("reservation in panchayats"));
        let hi = "अनुच्छेद 21 क्या कहता है?";
        let spans: Vec<_> = nyaya_ingest::refid::find_refs(hi)
            .into_iter()
            .map(|(_, at)| at)
            .collect();
        let blanked = without_spans(hi, &spans);
        assert!(
            !blanked.contains("21") && blanked.contains("क्या कहता है"),
            "{blanked}"
        );
    }

    #[test]
    fn a_span_takes_the_lead_only_from_a_candidate_retrieval_could_not_tell_apart() {
        // (quote score, retrieval score, rank): the third's span is best, but retrieval put
        // it 0.8 below its first; the second's is better than the first's, within the gap.
        let c = [
            (0.5, Some(3.0), 0),
            (0.6, Some(2.7), 1),
            (0.9, Some(2.2), 2),
        ];
        assert_eq!(lead_order(&c, 0.5), [1, 0, 2]);
        // With a wider bar all three compete by their spans.
        assert_eq!(lead_order(&c, 1.0), [2, 1, 0]);
        // Equal spans: retrieval's order.
        let tie = [(0.5, Some(3.0), 0), (0.5, Some(2.9), 1)];
        assert_eq!(lead_order(&tie, 0.5), [0, 1]);
        // A follow-up's previous ref (no retrieval score) competes whatever retrieval said.
        let follow_up = [(0.5, Some(3.0), 0), (0.9, None, 7)];
        assert_eq!(lead_order(&follow_up, 0.5), [1, 0]);
    }
}
