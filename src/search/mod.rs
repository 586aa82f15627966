//! Retrieval: refs named in the question first (pinned, by direct lookup), then the dense and
//! lexical legs (and the glossary's refs) fused by rank ([`fusion`]), optionally re-ordered by
//! a second stage ([`rerank`]), then one hop along cross-references as `supporting`
//! provisions that never outrank a hit. The question's everyday words are expanded into the
//! text's own by the [`glossary`] before either leg sees them.

pub mod adapter;
pub mod bank;
mod coverage;
mod dense;
pub mod features;
pub mod fusion;
pub mod gloss;
pub mod glossary;
mod head;
pub mod legs;
pub mod ltr;
mod prepare;
pub mod rerank;
mod results;
pub mod settings;
pub mod spell;
pub mod split;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use sqlx::PgPool;

use nyaya_ingest::refid::UserRef;
use nyaya_ingest::RefId;

use crate::embed::Embedder;
use crate::error::{AppError, AppResult};
use crate::language::Language;
use coverage::judge_coverage;
use dense::{dense_leg, second_dense_list, DenseQuery};
use fusion::{rrf, Leg, LegHit, LegWeights};
use glossary::Glossary;
use head::{bank_moves, cross_lingual_order, moving_bank, second_stage};
use prepare::{prepare_question, PreparedQuestion};
use rerank::{CrossEncoder, SecondStage, Weights};

/// Which legs run, and whether the second stage re-orders their fusion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, utoipa::ToSchema)]
pub enum Mode {
    #[serde(rename = "dense")]
    Dense,
    #[serde(rename = "lexical")]
    Lexical,
    #[serde(rename = "hybrid")]
    Hybrid,
    #[default]
    #[serde(rename = "hybrid+rerank")]
    HybridRerank,
    #[serde(rename = "dense+rerank")]
    DenseRerank,
}

impl Mode {
    pub const ALL: [Mode; 5] = [
        Mode::Dense,
        Mode::Lexical,
        Mode::Hybrid,
        Mode::HybridRerank,
        Mode::DenseRerank,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Dense => "dense",
            Mode::Lexical => "lexical",
            Mode::Hybrid => "hybrid",
            Mode::HybridRerank => "hybrid+rerank",
            Mode::DenseRerank => "dense+rerank",
        }
    }

    fn dense(self) -> bool {
        !matches!(self, Mode::Lexical)
    }

    fn lexical(self) -> bool {
        matches!(self, Mode::Lexical | Mode::Hybrid | Mode::HybridRerank)
    }

    fn rerank(self) -> bool {
        matches!(self, Mode::HybridRerank | Mode::DenseRerank)
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Mode::ALL
            .into_iter()
            .find(|m| m.as_str() == s)
            .ok_or_else(|| {
                format!(
                    "mode must be dense, lexical, hybrid, hybrid+rerank or dense+rerank, not {s:?}"
                )
            })
    }
}

/// The models a search may use; either may be missing (lexical search needs neither).
#[derive(Clone, Default)]
pub struct Models {
    pub embedder: Option<Arc<dyn Embedder>>,
    pub cross_encoder: Option<Arc<dyn CrossEncoder>>,
    /// The rescorer's chunk vectors and heading lexemes, loaded on first use.
    pub rescore_cache: Arc<features::RescoreCache>,
    /// Clause-span vectors the answer step has computed (`embed::PassageCache`).
    pub passage_cache: Arc<crate::embed::PassageCache>,
    /// The multilingual model (`embed::e5`): the dense leg of questions in Indian scripts,
    /// once their edition's chunks carry its vectors.
    pub multilingual: Option<Arc<dyn Embedder>>,
    /// The same model for English questions, fast enough for every one (`embed::e5`'s
    /// `E5Questions`): [`second_dense_list`]'s embedder.
    pub second_dense: Option<Arc<dyn Embedder>>,
    /// Each edition's words, for putting an English question's misspelt words right.
    pub spelling: Arc<spell::SpellCache>,
    /// The terms each edition defines, indexed on first use.
    pub definitions: Arc<crate::definition::DefinitionCache>,
    /// The editions found covered by the multilingual model's vectors.
    pub multilingual_covered: Arc<legs::CoveredEditions>,
    /// The question banks' vectors, each embedded on first use ([`bank`]): the English
    /// model's, and the multilingual model's, which moves the fused order of a question in an
    /// Indian script.
    pub question_bank: Arc<bank::BankCache>,
}

impl Models {
    /// Readies a question bank now rather than in the first search that needs it (loaded
    /// from Postgres, or embedded where it is not stored: 13 s for the English model's, 60 for
    /// the multilingual one's, on 2 cores): the English one before a server listens, the
    /// multilingual one in its background start-up work, both before a measurement. Nothing
    /// without the model `sources` needs.
    pub async fn preload_question_bank(&self, pool: &PgPool, sources: bank::Sources) {
        if let Some(m) = self.bank_embedder(sources) {
            self.question_bank.get(pool, m, sources).await;
        }
    }

    /// The model that embeds the bank of `sources`: the English one, or the multilingual one.
    fn bank_embedder(&self, sources: bank::Sources) -> Option<&Arc<dyn Embedder>> {
        match sources {
            bank::Sources::English => self.embedder.as_ref(),
            bank::Sources::CrossLingual => self.multilingual.as_ref(),
        }
    }
}

/// Limits and knobs of one search.
#[derive(Debug, Clone)]
pub struct SearchOptions {
    pub k: usize,
    pub mode: Mode,
    /// Put refs named in the question first.
    pub pin: bool,
    /// Also pin the refs of glossary terms when the question only names them ("Lok Sabha vs
    /// Rajya Sabha"; [`glossary::Expansion::names_only`]).
    pub name_pins: bool,
    /// Also pin the provisions that define the term an English question asks the meaning of
    /// ("What is a Money Bill?" → 110; [`crate::definition`]).
    pub definition_pins: bool,
    /// The refs a previous turn's answer cited, when this search is for a follow-up: fused as
    /// a leg of their own (weighted as the glossary's), never pinned — a follow-up may move on.
    pub context_refs: Vec<String>,
    /// Expand everyday words with the glossary (both legs) and fuse its refs as a leg.
    pub glossary: bool,
    /// Return the provisions the top hits cite as `supporting`.
    pub hop: bool,
    /// Search each part of a many-part question too, fusing the parts' lists with the whole's
    /// ([`split`]). Off by default since stop 51: on every set it measured, fusing the parts
    /// diluted the lead (ADR 0004). The answer's multi-part route searches each part itself.
    pub split: bool,
    /// Put an English question's misspelt words right first ([`spell`]).
    pub spelling: bool,
    /// How the lexical leg ranks.
    pub lexical_ranking: legs::LexicalRanking,
    /// RRF's k: 60 in the literature; 10 here, which weighs the head of each list more
    /// (`make ablate`, ADR 0006).
    pub rrf_k: f64,
    /// Each leg's weight in the fusion.
    pub leg_weights: LegWeights,
    /// Chunks each leg returns before fusion.
    pub depth: usize,
    /// How many fused provisions the second stage re-orders.
    pub rerank_depth: usize,
    /// What the `+rerank` modes run.
    pub second_stage: SecondStage,
    /// How far the question bank moves the learned stage's order ([`bank::DEFAULT_WEIGHT`];
    /// 0 is off).
    pub bank_weight: f64,
    /// How far the same bank, read by e5 ([`bank::Sources::CrossLingual`]), moves an English
    /// question's learned order beside it ([`bank::DEFAULT_E5_WEIGHT`]; 0 is off).
    pub e5_bank_weight: f64,
    /// How far the multilingual bank moves the fused order of a question in an Indian script
    /// ([`bank::DEFAULT_MULTILINGUAL_WEIGHT`]; 0 is off).
    pub multilingual_bank_weight: f64,
    /// Re-order a question in an Indian script with its learned model
    /// ([`ltr::Heads::IndianScript`]) rather than by the multilingual bank's weight alone.
    /// Off by default: it led right more often on every dev-side set, but on the multilingual
    /// test split the Hindi questions' R@5 fell 1.000 → 0.882 (ADR 0013, stop 54).
    pub indian_script_ranker: bool,
    /// Search the English model's question vectors as the query adapter maps them, and let
    /// the answer score clauses with them ([`adapter`]; ADR 0014). The learned stage, fitted
    /// on the model's own cosines, reads the model's own vector either way.
    pub query_adapter: bool,
    /// Fuse the multilingual model's list with an English question's legs: a second opinion
    /// from a differently trained embedder ([`second_dense_list`]; ADR 0008, stop 51).
    pub second_dense: bool,
    /// Refuse a question whose closest bank questions are ones the text does not answer
    /// ([`bank::QuestionBank::scope_vote`]).
    pub scope_bank: bool,
    /// Leave out bank questions at least this close to the question: `nyaya eval` sets it
    /// ([`bank::EVAL_HOLDOUT_COSINE`]) so that a golden question's near-copy in the bank does
    /// not flatter the figures. `None` (every bank question counts) elsewhere. The
    /// multilingual model's bank, whose cosines sit higher, holds out at
    /// [`bank::EVAL_HOLDOUT_MULTILINGUAL`] instead whenever this is set.
    pub bank_holdout: Option<f64>,
    pub weights: Weights,
    /// Below this best-chunk cosine (and with no pinned ref) the search says the text does not
    /// cover the question. Calibrated on the dev split (`adr/0005-refusal-threshold.md`).
    pub refusal_threshold: f64,
    /// The same for the multilingual leg, whose cosines sit in another range (e5's are all
    /// high). Calibrated on the multilingual golden set's dev split (ADR 0013).
    pub multilingual_refusal_threshold: f64,
    pub max_query_chars: usize,
    /// The edition searched, by its date ("2022", "2024-05-01"); the newest stored when `None`
    /// (`store::resolve_edition`).
    pub edition: Option<String>,
}

/// Why a search says the text does not cover a question when no chunk is close enough.
pub const NOT_CLOSE_ENOUGH: &str =
    "no provision is close enough to the question; the text may not cover it";

/// The calibrated default of [`SearchOptions::refusal_threshold`].
pub const DEFAULT_REFUSAL_THRESHOLD: f64 = 0.33;

/// The calibrated default of [`SearchOptions::multilingual_refusal_threshold`].
pub const DEFAULT_MULTILINGUAL_REFUSAL_THRESHOLD: f64 = 0.79;

impl SearchOptions {
    /// The "not covered" threshold for a search whose dense leg ran on the multilingual model
    /// (`multilingual`) or on the English one.
    pub fn refusal_threshold_for(&self, multilingual: bool) -> f64 {
        if multilingual {
            self.multilingual_refusal_threshold
        } else {
            self.refusal_threshold
        }
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            k: 10,
            mode: Mode::default(),
            pin: true,
            name_pins: true,
            definition_pins: true,
            context_refs: Vec::new(),
            glossary: true,
            hop: true,
            split: false,
            spelling: true,
            lexical_ranking: legs::LexicalRanking::default(),
            rrf_k: 10.0,
            leg_weights: LegWeights::default(),
            depth: 50,
            rerank_depth: 30,
            second_stage: SecondStage::default(),
            bank_weight: bank::DEFAULT_WEIGHT,
            e5_bank_weight: bank::DEFAULT_E5_WEIGHT,
            multilingual_bank_weight: bank::DEFAULT_MULTILINGUAL_WEIGHT,
            indian_script_ranker: false,
            scope_bank: true,
            // Off: on the golden test split it cost two first citations and a refusal while
            // it gained on dev and the fresh English set (ADR 0014).
            query_adapter: false,
            second_dense: true,
            bank_holdout: None,
            weights: Weights::default(),
            refusal_threshold: DEFAULT_REFUSAL_THRESHOLD,
            multilingual_refusal_threshold: DEFAULT_MULTILINGUAL_REFUSAL_THRESHOLD,
            max_query_chars: 4000,
            edition: None,
        }
    }
}

/// One ranked provision.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct SearchHit {
    #[serde(rename = "ref")]
    pub ref_id: String,
    pub title: String,
    pub score: f64,
    pub pinned: bool,
    /// How each leg that found this provision ranked it, keyed by leg name.
    pub legs: BTreeMap<Leg, LegHit>,
    /// The clause the question named ("15(4)" → "(4)").
    #[schema(required)]
    pub clause: Option<String>,
    pub snippet: String,
    pub page: i32,
    /// Set on retrieval's own first (unpinned) provision when the question names provisions
    /// by their refs and this one's text refers to one of them: "Can laws listed in the Ninth Schedule be
    /// declared void?" names the Schedule, and Article 31B, which says they are not, cites it.
    /// The answer may then lead with it ([`crate::answer`], ADR 0007, stop 45).
    pub cites_named: bool,
}

/// A provision a top hit cites, one hop away.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Supporting {
    #[serde(rename = "ref")]
    pub ref_id: String,
    pub title: String,
    /// "cited by 31A".
    pub relation: String,
    pub page: i32,
}

/// Milliseconds per stage; the legs run concurrently, so the stages need not add up to `total`.
#[derive(Debug, Clone, Serialize, Default, utoipa::ToSchema)]
pub struct Timings {
    /// Putting misspelt words right (the first search of an edition also loads its words).
    pub spell: f64,
    pub embed: f64,
    pub dense: f64,
    pub lexical: f64,
    pub fuse: f64,
    pub rerank: f64,
    pub total: f64,
}

impl Timings {
    /// Every stage by name, in pipeline order. The legs run concurrently, so the stages need
    /// not add up to `total`.
    pub fn stages(&self) -> [(&'static str, f64); 7] {
        [
            ("spell", self.spell),
            ("embed", self.embed),
            ("dense", self.dense),
            ("lexical", self.lexical),
            ("fuse", self.fuse),
            ("rerank", self.rerank),
            ("total", self.total),
        ]
    }
}

/// Whether the text covers the question, as far as retrieval can tell.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Coverage {
    pub covered: bool,
    /// The best cosine similarity of any chunk to the question (`None` without the dense leg).
    #[schema(required)]
    pub confidence: Option<f64>,
    /// Why not, when not covered.
    #[schema(required)]
    pub reason: Option<String>,
    /// The out-of-scope class, when the rules or the question bank recognised one.
    #[schema(required)]
    pub out_of_scope: Option<crate::scope::OutOfScope>,
    /// How much closer the question is to the bank's unanswerable questions than to its
    /// answerable ones (mean cosine of the closest five each; `None` without the bank). Above
    /// 0.05 the search says the text does not cover it (`bank::SCOPE_MARGIN`).
    #[schema(required)]
    pub bank_margin: Option<f64>,
}

/// `POST /v1/search`'s reply.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct SearchResponse {
    pub request_id: String,
    pub mode: Mode,
    /// The edition searched.
    pub edition: crate::store::Edition,
    /// The question's language; a question in an Indian script is searched by the
    /// multilingual model when it is loaded and has embedded the edition.
    pub language: crate::language::Language,
    /// Whether the dense leg ran on the multilingual model.
    pub multilingual: bool,
    /// The English words the Hindi glossary read (`search::gloss`): in a question in Hindi,
    /// added to it before the English glossary; in an English question with Hindi words in
    /// Latin letters ("minimum umar"), put in their place.
    pub gloss: Vec<String>,
    /// The misspelt words of an English question and what they were searched as
    /// (`search::spell`).
    pub spelling: Vec<spell::Correction>,
    pub results: Vec<SearchHit>,
    pub supporting: Vec<Supporting>,
    pub coverage: Coverage,
    /// What the glossary added to the question.
    pub expansion: glossary::Expansion,
    pub timings_ms: Timings,
    /// The question as the legs read it: misspelt words put right and, in an English
    /// question, Hindi words in Latin letters in their English, before the glossary's
    /// expansion. What the answer step reads too, so that both read one question.
    #[serde(skip)]
    pub read_as: String,
    /// The first stage's fused provisions, before the second stage (for candidate recall).
    #[serde(skip)]
    pub candidates: Vec<String>,
    /// The learned stage's feature row of each candidate of the head, in fused order (what
    /// `nyaya train` fits on); empty unless the learned stage ran.
    #[serde(skip)]
    pub head_rows: Vec<(String, Vec<f64>)>,
}

/// Checks the request before any work: typed 400s, never a 500.
pub fn validate(query: &str, opts: &SearchOptions) -> AppResult<()> {
    crate::input::check_text("query", query)?;
    crate::input::check_text("edition", opts.edition.as_deref().unwrap_or(""))?;
    if query.trim().is_empty() {
        return Err(AppError::BadRequest("query is empty".into()));
    }
    let n = query.chars().count();
    if n > opts.max_query_chars {
        return Err(AppError::BadRequest(format!(
            "query is {n} characters; the limit is {}",
            opts.max_query_chars
        )));
    }
    if !(1..=50).contains(&opts.k) {
        return Err(AppError::BadRequest(format!(
            "k must be between 1 and 50, not {}",
            opts.k
        )));
    }
    Ok(())
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// Runs one search.
pub async fn search(
    pool: &PgPool,
    models: &Models,
    query: &str,
    opts: &SearchOptions,
    request_id: String,
) -> AppResult<SearchResponse> {
    search_with_hint(pool, models, query, None, opts, request_id).await
}

/// Runs one search with an extra text for the dense leg only: a hypothetical passage written
/// by an LLM (HyDE) in the text's own style. It adds one dense list to the fusion; it is
/// never shown and never used by the lexical leg or the second stage.
pub async fn search_with_hint(
    pool: &PgPool,
    models: &Models,
    query: &str,
    dense_hint: Option<&str>,
    opts: &SearchOptions,
    request_id: String,
) -> AppResult<SearchResponse> {
    validate(query, opts)?;
    let started = Instant::now();
    let mut timings = Timings::default();
    let edition = crate::store::resolve_edition(pool, opts.edition.as_deref()).await?;
    let run = SearchRun {
        pool,
        models,
        opts,
        doc: edition.document_id,
    };
    let asked = Asked {
        typed: query,
        language: crate::language::detect(query),
        dense_hint,
    };
    let question = prepare_question(&run, query, asked.language, &mut timings).await?;
    let gathered = gather(&run, &asked, &question, &mut timings).await?;
    let t = Instant::now();
    let fused = rrf(&gathered.lists, opts.rrf_k, opts.depth, &opts.leg_weights);
    timings.fuse = ms(t);
    let candidates: Vec<String> = fused.iter().map(|f| f.ref_id.to_string()).collect();

    let defining = defining_refs(&run, &question.query).await?;
    let pinned = results::pins(&question.named, &defining, &question.expansion, opts);
    // Their text and cross-references are fetched concurrently with the second stage.
    let prefetch = results::prefetch(&pinned, &fused, opts.k.max(opts.rerank_depth));
    let edges = async {
        if opts.hop {
            results::hop_edges(pool, run.doc, &prefetch).await
        } else {
            Ok(Vec::new())
        }
    };
    let ((fused, head_rows), info, edges) = tokio::try_join!(
        order_head(&run, &asked, &question, &gathered, fused, &mut timings),
        results::provision_info(pool, run.doc, &prefetch),
        edges
    )?;
    let mut results = results::hits(&pinned, &fused, &info, opts.k);
    let spelt: Vec<String> = question.named.iter().map(|r| r.id.to_string()).collect();
    results::mark_citing_named(&mut results, &fused, &spelt, &edges);
    let supporting = results::supporting_from(&edges, &results);

    let coverage = judge_coverage(&run, &asked, &results, &gathered).await;
    timings.total = ms(started);
    Ok(SearchResponse {
        request_id,
        mode: opts.mode,
        edition,
        language: asked.language,
        multilingual: gathered.multilingual,
        gloss: [question.gloss, question.hinglish].concat(),
        spelling: question.spelling,
        results,
        supporting,
        coverage,
        expansion: question.expansion,
        read_as: question.query,
        timings_ms: timings,
        candidates,
        head_rows,
    })
}

/// What every stage of one search shares: the pool, the models, the options and the
/// edition's document.
#[derive(Clone, Copy)]
struct SearchRun<'a> {
    pool: &'a PgPool,
    models: &'a Models,
    opts: &'a SearchOptions,
    doc: i64,
}

/// The question as it was asked.
struct Asked<'a> {
    /// As typed: what the scope rules read.
    typed: &'a str,
    language: Language,
    /// An LLM's hypothetical passage (HyDE), for the dense leg only.
    dense_hint: Option<&'a str>,
}

/// What the legs found, and what the later stages read of how they found it.
struct Gathered {
    /// The ranked lists fusion reads, each with its leg ([`fusion_lists`]).
    lists: Vec<(Leg, Vec<(RefId, f32)>)>,
    /// How many of the dense lists are the question's own: the closeness coverage judges is
    /// never the hint's.
    question_dense_lists: usize,
    /// The dense leg's vector of the question (never the hint's).
    query_vector: Option<Vec<f32>>,
    /// Whether the multilingual model embedded the question (it is in an Indian script).
    multilingual: bool,
    /// A romanised question's best cosine as glossed, for the coverage judgement only.
    coverage_floor: Option<f64>,
    /// With the query adapter on, the best cosine of the question's own vectors (what the "not
    /// covered" threshold was calibrated on).
    own_closeness: Option<f64>,
    /// The rescorer's per-query facts (lexemes, the corpus key).
    facts: Option<features::QueryFacts>,
    /// e5's vector of an English question, when its list was fused (which learned model ranks
    /// the head, and what the bank as e5 reads it is compared with).
    second_dense_vector: Option<Vec<f32>>,
}

impl<'a> SearchRun<'a> {
    /// The pool, the models, the options and the document, for a stage that reads them all.
    fn parts(self) -> (&'a PgPool, &'a Models, &'a SearchOptions, i64) {
        (self.pool, self.models, self.opts, self.doc)
    }
}

impl Gathered {
    /// The question's vector as the English second stage and the question bank read it: the
    /// English model's. A multilingual question vector cannot be compared with their vectors.
    fn rerank_vector(&self) -> Option<&[f32]> {
        self.query_vector.as_deref().filter(|_| !self.multilingual)
    }
}

/// The legs, run concurrently (the lexical queries while the question is embedded), each leg's
/// queries (one per text) concurrently on the pool: the dense leg, e5's second English list,
/// the lexical leg, and the rescorer's per-query facts, so the second stage needs no round trip
/// of its own.
async fn gather(
    run: &SearchRun<'_>,
    asked: &Asked<'_>,
    question: &PreparedQuestion,
    timings: &mut Timings,
) -> AppResult<Gathered> {
    let (pool, models, opts, doc) = run.parts();
    let multilingual = models
        .multilingual
        .as_ref()
        .filter(|_| asked.language.indic_script() && opts.mode.dense());
    let dense = dense_leg(
        run,
        DenseQuery {
            query: &question.query,
            parts: &question.parts,
            texts: &question.texts,
            romanised_english: question.romanised_english.as_deref(),
            multilingual,
            dense_hint: asked.dense_hint,
        },
    );
    let lexical = lexical_leg(run, &question.texts, &question.named);
    let second_dense_text = dense::second_dense_text(
        asked.typed,
        asked.language,
        question.romanised_english.as_deref(),
        &question.hinglish,
    );
    let second_dense = second_dense_list(run, second_dense_text.as_deref());
    let facts = async {
        match &models.embedder {
            Some(e)
                if opts.mode.rerank()
                    && matches!(
                        opts.second_stage,
                        SecondStage::Rescore | SecondStage::Learned
                    ) =>
            {
                legs::query_facts(pool, doc, &question.texts[0], &e.manifest().id)
                    .await
                    .map(Some)
            }
            _ => Ok(None),
        }
    };
    let (dense, (lexical_lists, lexical_ms), facts, second_dense) =
        tokio::try_join!(dense, lexical, facts, second_dense)?;
    timings.embed = dense.embed_ms;
    timings.dense = dense.dense_ms;
    timings.lexical = lexical_ms;
    let question_dense_lists =
        dense.lists.len() - usize::from(asked.dense_hint.is_some() && !dense.lists.is_empty());
    let (second_dense, second_dense_vector) = match second_dense {
        Some(d) => (Some(d.list), Some(d.vector)),
        None => (None, None),
    };
    Ok(Gathered {
        lists: fusion_lists(
            dense.lists,
            second_dense,
            lexical_lists,
            &question.expansion,
            &opts.context_refs,
        ),
        question_dense_lists,
        query_vector: dense.query_vector,
        multilingual: dense.multilingual,
        coverage_floor: dense.coverage_floor,
        own_closeness: dense.own_closeness,
        facts,
        second_dense_vector,
    })
}

/// The fused head's second order. A question in an Indian script cannot have the English
/// learned stage (its features are the English model's): the cross-lingual bank moves its
/// fused head, or, switched on, a model of its own fitted on written Hindi questions. Any
/// other question gets the second stage ([`head::second_stage`]). Returns the order and the
/// head's feature rows.
async fn order_head(
    run: &SearchRun<'_>,
    asked: &Asked<'_>,
    question: &PreparedQuestion,
    gathered: &Gathered,
    fused: Vec<fusion::Fused>,
    timings: &mut Timings,
) -> AppResult<(Vec<fusion::Fused>, head::HeadRows)> {
    let opts = run.opts;
    let (fused, indian_script_rows) = match (&run.models.multilingual, &gathered.query_vector) {
        (Some(m), Some(v))
            if gathered.multilingual
                && opts.mode.rerank()
                && opts.second_stage != SecondStage::None
                && (opts.multilingual_bank_weight > 0.0 || opts.indian_script_ranker) =>
        {
            let t = Instant::now();
            // The tiers the question names, read from its glossed English words: the bank's
            // questions about another tier are no evidence (ADR 0013, stop 40).
            let named = crate::tier::named_in(&question.gloss.join(" "));
            let moved = cross_lingual_order(run, m, v, named, fused).await;
            timings.rerank = ms(t);
            moved
        }
        _ => (fused, Vec::new()),
    };
    // A question in parts gets the hand-set rescorer: the learned stage was fitted on single
    // questions, and its features, measured against the whole question, let one part's
    // provisions crowd out the other's. A single question gets the model fitted on heads fused
    // as its own is (ADR 0008, stop 52).
    let ranker = question
        .parts
        .is_empty()
        .then(|| ltr::LtrModel::builtin(ltr::Heads::of(gathered.second_dense_vector.is_some())));
    let moves = bank_moves(
        run.opts,
        asked.language,
        &question.parts,
        gathered.rerank_vector(),
    );
    let question_bank = moving_bank(run, moves, run.opts.bank_weight, bank::Sources::English).await;
    let e5_vector = gathered.second_dense_vector.as_deref();
    let e5_bank = moving_bank(
        run,
        moves && e5_vector.is_some(),
        run.opts.e5_bank_weight,
        bank::Sources::CrossLingual,
    )
    .await;
    let banks = head::Banks {
        english: question_bank.as_deref(),
        e5: e5_bank.as_deref().zip(e5_vector),
    };
    let (fused, head_rows) = second_stage(
        run,
        &question.query,
        ranker,
        gathered,
        banks,
        fused,
        timings,
    )
    .await?;
    Ok(if head_rows.is_empty() {
        (fused, indian_script_rows)
    } else {
        (fused, head_rows)
    })
}

/// The provisions that define the term a question asks the meaning of ("What is a Money
/// Bill?", "धन विधेयक क्या है?" → 110), to be pinned; none when the question asks no term's
/// meaning, or the edition defines it in none or in too many
/// ([`crate::definition::DefinitionIndex::defining`]).
async fn defining_refs(run: &SearchRun<'_>, query: &str) -> AppResult<Vec<RefId>> {
    let (pool, models, opts, doc) = run.parts();
    if !(opts.pin && opts.definition_pins) {
        return Ok(Vec::new());
    }
    let Some(term) = crate::definition::asked_term(query) else {
        return Ok(Vec::new());
    };
    let index = models.definitions.get(pool, doc).await?;
    Ok(index
        .defining(&term)
        .iter()
        .filter_map(|r| r.parse().ok())
        .collect())
}

/// The lexical leg: one full-text query per text, concurrently on the pool. Refs the
/// question names are added in the text's own spelling ("article three hundred and
/// sixty-eight" → "Article 368", "Art. 21-A" → "Article 21A"), so the heading matches even
/// when nothing is pinned. Returns the lists and the leg's time.
async fn lexical_leg(
    run: &SearchRun<'_>,
    texts: &[String],
    named: &[UserRef],
) -> AppResult<(Vec<Vec<(RefId, f32)>>, f64)> {
    let (pool, _, opts, doc) = run.parts();
    if !opts.mode.lexical() {
        return Ok((Vec::new(), 0.0));
    }
    let t = Instant::now();
    let mut lexical_texts = texts.to_vec();
    let labels: Vec<String> = named.iter().map(|r| r.id.label()).collect();
    if !labels.is_empty() {
        lexical_texts[0] = format!("{} {}", lexical_texts[0], labels.join(" "));
    }
    let lists = futures::future::try_join_all(
        lexical_texts
            .iter()
            .map(|text| legs::lexical(pool, doc, text, opts.depth, opts.lexical_ranking)),
    )
    .await?;
    Ok((lists, ms(t)))
}

/// The ranked lists fusion reads: the dense lists, the lexical lists, the glossary's refs and
/// the conversation's refs (each a list of its own, so each counts once).
fn fusion_lists(
    dense: Vec<Vec<(RefId, f32)>>,
    second_dense: Option<Vec<(RefId, f32)>>,
    lexical: Vec<Vec<(RefId, f32)>>,
    expansion: &glossary::Expansion,
    context_refs: &[String],
) -> Vec<(Leg, Vec<(RefId, f32)>)> {
    let mut lists: Vec<(Leg, Vec<(RefId, f32)>)> = Vec::new();
    lists.extend(dense.into_iter().map(|l| (Leg::Dense, l)));
    // A leg of its own: coverage reads MiniLM's closeness only (what the "not covered"
    // threshold was calibrated on), and the learned stage reads each embedder's rank apart.
    lists.extend(second_dense.map(|l| (Leg::SecondDense, l)));
    lists.extend(lexical.into_iter().map(|l| (Leg::Lexical, l)));
    let as_list = |refs: &[String]| -> Vec<(RefId, f32)> {
        refs.iter()
            .filter_map(|r| r.parse().ok().map(|id| (id, 1.0)))
            .collect()
    };
    if !expansion.refs.is_empty() {
        lists.push((Leg::Glossary, as_list(&expansion.refs)));
    }
    let context = as_list(context_refs);
    if !context.is_empty() {
        lists.push((Leg::Context, context));
    }
    lists
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_gives_typed_errors() {
        let o = SearchOptions::default();
        assert!(matches!(validate("   ", &o), Err(AppError::BadRequest(_))));
        assert!(matches!(
            validate(&"a".repeat(4001), &o),
            Err(AppError::BadRequest(_))
        ));
        let bad_k = SearchOptions {
            k: 51,
            ..SearchOptions::default()
        };
        assert!(matches!(
            validate("right to education", &bad_k),
            Err(AppError::BadRequest(_))
        ));
        assert!(validate("right to education", &o).is_ok());
    }

    #[test]
    fn modes_parse() {
        for m in Mode::ALL {
            assert_eq!(m.as_str().parse::<Mode>(), Ok(m));
            assert_eq!(
                serde_json::to_value(m).unwrap(),
                serde_json::json!(m.as_str())
            );
        }
        assert!("fuzzy".parse::<Mode>().is_err());
    }
}
