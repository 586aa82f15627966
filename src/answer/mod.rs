//! The answer pipeline: a fixed sequence, not an agent.
//!
//! 1. Validate; scrub direct identifiers from the question (the raw text goes no further).
//! 2. Route ([`router`]: rules by default; the LLM router in llm mode, validated, falling
//!    back to the rules).
//! 3. Refuse out-of-scope questions, reply to chit-chat; no retrieval, no model call.
//! 4. Retrieve per route: pinned refs for a lookup, one search per part for a multi-part
//!    question, HyDE for a conceptual one when an LLM is configured.
//! 5. Refuse when retrieval says the text does not cover the question (no model call).
//! 6. Quote ([`quoting`]): for each chosen provision, the best clause-level span, copied
//!    verbatim ([`extract`], [`quote`]). No quote, no answer; nor when no quote shares a word
//!    with the question ([`support`]).
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
pub mod notes;
pub mod office;
pub mod quote;
mod quoting;
pub mod router;
pub mod scrub;
pub mod settings;
pub mod support;

use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use tokio::sync::mpsc::UnboundedSender;

use nyaya_ingest::RefId;

use crate::error::{AppError, AppResult};
use crate::input::check_text;
use crate::llm::LlmClient;
use crate::search::{self, Models, SearchHit, SearchOptions, SearchResponse, Supporting};
use crate::store::{self, ProvisionView};
use guard::GuardCounts;
use notes::AmendmentNote;
use quoting::{quote_groups, quote_groups_text, Pick};
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
    let mut run = Run::start(a, &req, request_id, events).await?;
    let history = scrubbed_history(&req.history);
    // One LLM deadline for the whole request: router, HyDE and answer share it.
    let llm = match run.mode {
        AnswerMode::Llm => a.llm.as_deref().map(|c| Arc::new(c.for_request())),
        AnswerMode::Extractive => None,
    };

    // 2. Route.
    let routing = route(&mut run, &history, llm.as_deref()).await?;

    // 3. No retrieval for these.
    if let Route::OutOfScope | Route::ChitChat | Route::Eligibility = routing.route {
        return answer_without_retrieval(&mut run, routing, &req.facts).await;
    }

    // 4. Retrieve.
    let t = Instant::now();
    let searches = retrieve(&mut run, &routing, llm.as_deref()).await?;
    run.timings.retrieve = ms(t);
    let retrieved = retrieved_refs(&searches);
    let main = &searches[0].1;
    let view = RetrievalView {
        confidence: main.coverage.confidence,
        results: main.results.clone(),
        retrieved: retrieved.clone(),
    };

    // 5. Not covered → refusal, before any answer model runs.
    if let Some(reason) = not_covered(&routing, &searches) {
        return finish_refusal(&mut run, routing, reason, Some(view), retrieved).await;
    }

    // 6. and 7. Quote, then write prose over the quotes in llm mode.
    let retrieval = Retrieval {
        searches: &searches,
        view,
        retrieved,
    };
    answer_from_quotes(&mut run, routing, retrieval, llm.as_deref()).await
}

impl<'a> Run<'a> {
    /// A request's state once its question is scrubbed: the raw question goes no further.
    async fn start(
        a: &'a Answerer,
        req: &AskRequest,
        request_id: String,
        events: Option<&'a UnboundedSender<AskEvent>>,
    ) -> AppResult<Run<'a>> {
        let started = Instant::now();
        let question = scrub::scrub(&req.question).text;
        Ok(Run {
            a,
            edition: resolve_edition(a, req.edition.as_deref()).await?,
            request_id,
            language: crate::language::detect(&question),
            question,
            mode: req.mode.unwrap_or(a.default_mode),
            events,
            timings: AskTimings::default(),
            started,
            llm_used: false,
        })
    }
}

/// The answer to a question routed out of scope, to chit-chat or to the eligibility check
/// (the routes [`ask`] sends here): a refusal, a fixed reply, or the check's verdict.
async fn answer_without_retrieval(
    run: &mut Run<'_>,
    routing: Routing,
    facts: &crate::eligibility::Facts,
) -> AppResult<AskResponse> {
    match routing.route {
        Route::OutOfScope => {
            let reason = routing
                .out_of_scope
                .map(|c| c.reason().to_string())
                .unwrap_or_else(|| OUTSIDE_THE_TEXT.into());
            finish_refusal(run, routing, reason, None, Vec::new()).await
        }
        Route::ChitChat => {
            let reply = crate::scope::OutOfScope::ChitChat.reason().to_string();
            let response = response(run, routing, reply, Vec::new(), Vec::new(), None);
            finish_with(run, response, Vec::new()).await
        }
        _ => answer_eligibility(run, routing, facts).await,
    }
}

/// What retrieval gave an answer: each search (the first is the question's own), the view of
/// it the response shows, and every provision retrieved (what a citation may point at).
struct Retrieval<'s> {
    searches: &'s [(Option<String>, SearchResponse)],
    view: RetrievalView,
    retrieved: Vec<String>,
}

/// Quotes the provisions to show (a refusal when nothing quotable shares a word with the
/// question), then, in llm mode, prose over them, guarded; the extractive answer otherwise or
/// when the prose fails.
async fn answer_from_quotes(
    run: &mut Run<'_>,
    routing: Routing,
    retrieval: Retrieval<'_>,
    llm: Option<&LlmClient>,
) -> AppResult<AskResponse> {
    let Retrieval {
        searches,
        view,
        retrieved,
    } = retrieval;
    let (picks, citations) = match quote(run, &routing, searches).await? {
        Ok(quoted) => quoted,
        Err(reason) => {
            return finish_refusal(run, routing, reason.into(), Some(view), retrieved).await
        }
    };
    run.emit(AskEvent::Citations(citations.clone()));
    let main = &searches[0].1;
    let framing = messages::framing(run.language);
    let suggestions = if routing.route == Route::Ambiguous {
        suggestions_from(&main.results, framing)
    } else {
        Vec::new()
    };
    let extractive = render_extractive(&routing, &picks, &citations, &suggestions, framing);
    let prose = match (run.mode, llm) {
        (AnswerMode::Llm, Some(llm)) => llm_prose(run, llm, &citations, main, &retrieved).await?,
        (AnswerMode::Llm, None) => Prose::without_llm(),
        (AnswerMode::Extractive, _) => Prose::default(),
    };
    let (answer, final_citations) = prose.text.unwrap_or((extractive, citations));
    let supporting = main.supporting.clone();
    let mut response = response(
        run,
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
    finish_with(run, response, retrieved).await
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

/// The earlier turns of a conversation, each question scrubbed as the question is.
fn scrubbed_history(history: &[Turn]) -> Vec<Turn> {
    history
        .iter()
        .map(|t| Turn {
            question: scrub::scrub(&t.question).text,
            refs: t.refs.clone(),
            answer: None,
        })
        .collect()
}

/// The quotes of the provisions to show, and their citations; or why none can be shown:
/// nothing quotable, or nothing shown shares a word with the question.
async fn quote(
    run: &mut Run<'_>,
    routing: &Routing,
    searches: &[(Option<String>, SearchResponse)],
) -> AppResult<Result<(Vec<Pick>, Vec<Citation>), &'static str>> {
    let t = Instant::now();
    let groups = quote_groups(routing, searches, run.language);
    let document_id = run.edition.as_ref().ok_or(AppError::NoCorpus)?.document_id;
    let (picks, citations) = quote_groups_text(run.a, document_id, &groups).await?;
    run.timings.quote = ms(t);
    Ok(if citations.is_empty() {
        Err(NOTHING_QUOTABLE)
    } else if !shown_spans_share_a_word(run, routing, searches, &picks, &citations) {
        Err(NO_SHARED_WORD)
    } else {
        Ok((picks, citations))
    })
}

/// Whether the provisions an answer leads with (one per part; not "also relevant") share a
/// word with what was asked ([`support`]): the question, what each search read in it (the
/// glossaries' words, spelling corrections, a follow-up's rewritten query), against the span
/// each provision competed with ([`Pick::compared`], not its quote: which clause is quoted
/// must not decide a refusal) and the provisions' headings. A question that names a
/// provision, or whose search pinned one, is a lookup and always passes; so does a question in
/// an Indian script, whose words are not English.
fn shown_spans_share_a_word(
    run: &Run<'_>,
    routing: &Routing,
    searches: &[(Option<String>, SearchResponse)],
    picks: &[Pick],
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
    // Picks and citations are pushed together, one for one (`quoting::pick_group`).
    let shown: Vec<support::ShownProvision<'_>> = picks
        .iter()
        .zip(citations)
        .map(|(p, c)| support::ShownProvision {
            span: &p.compared,
            heading: &c.title,
            also: p.also,
        })
        .collect();
    support::leads_share_a_word(asked, &shown)
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

impl Prose {
    /// llm mode with no model configured: the extractive answer, saying why.
    fn without_llm() -> Prose {
        Prose {
            degraded_reason: Some("no LLM is configured (NYAYA_LLM_BASE_URL)".to_string()),
            ..Prose::default()
        }
    }
}

/// The LLM's prose over the numbered citations, then the guards: unsupported citations
/// stripped, quotes and figures not in the excerpts dropped. Every call is recorded.
async fn llm_prose(
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
    let threshold = run.a.search.refusal_threshold_for(main.multilingual);
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
        amendments: notes::notes_for(&view.amendments, span.label.as_deref()),
        span: CharSpan {
            start: span.start,
            end: span.end,
        },
        provision_text: view.text.clone(),
    }))
}

/// "Article 22(1)", "Article 124(2) proviso", "Article 64, proviso", "Seventh Schedule, List
/// I, entry 97", "Article 21". A bracketed clause follows an Article's number directly; a
/// word (a proviso or an Explanation of the whole Article) after a comma, not "64proviso".
fn clause_label(id: &RefId, clause: Option<&str>) -> String {
    match clause.filter(|l| !l.is_empty()) {
        Some(l) if id.label().starts_with("Article") && l.starts_with('(') => {
            format!("{}{}", id.label(), l)
        }
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
    use super::clause_label;
    use nyaya_ingest::RefId;

    #[test]
    fn a_clause_label_reads_as_a_citation() {
        let label = |r: &str, c: Option<&str>| clause_label(&r.parse::<RefId>().unwrap(), c);
        assert_eq!(label("22", Some("(1)")), "Article 22(1)");
        assert_eq!(label("124", Some("(2) proviso")), "Article 124(2) proviso");
        assert_eq!(label("64", Some("proviso")), "Article 64, proviso");
        assert_eq!(label("15", Some("Explanation")), "Article 15, Explanation");
        assert_eq!(label("21", None), "Article 21");
        assert_eq!(label("21", Some("")), "Article 21");
        assert_eq!(
            label("SCH-7", Some("List I, entry 97")),
            "Seventh Schedule, List I, entry 97"
        );
    }
}
