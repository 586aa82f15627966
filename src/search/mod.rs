//! Retrieval: refs named in the question first (pinned, by direct lookup), then the dense and
//! lexical legs (and the glossary's refs) fused by rank ([`fusion`]), optionally re-ordered by
//! a second stage ([`rerank`]), then one hop along cross-references as `supporting`
//! provisions that never outrank a hit. The question's everyday words are expanded into the
//! text's own by the [`glossary`] before either leg sees them.

pub mod adapter;
pub mod bank;
pub mod features;
pub mod fusion;
pub mod gloss;
pub mod glossary;
pub mod legs;
pub mod ltr;
pub mod rerank;
mod results;
pub mod settings;
pub mod spell;
pub mod split;

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use sqlx::PgPool;

use nyaya_ingest::refid::{find_refs, UserRef};
use nyaya_ingest::RefId;

use crate::embed::Embedder;
use crate::error::{AppError, AppResult};
use crate::language::Language;
use fusion::{rrf, Leg, LegHit, LegWeights};
use glossary::Glossary;
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
    /// from Postgres, or embedded where it is not stored: about ten seconds for the English
    /// model's, 53 for the multilingual one's): in a server's background start-up work, and
    /// before a measurement. Nothing without the model `sources` needs.
    pub async fn preload_question_bank(&self, pool: &PgPool, sources: bank::Sources) {
        let model = match sources {
            bank::Sources::English => &self.embedder,
            bank::Sources::CrossLingual => &self.multilingual,
        };
        if let Some(m) = model {
            self.question_bank.get(pool, m, sources).await;
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

/// Above this many words a question that splits into parts is embedded by its last
/// [`LONG_QUERY_DENSE_PARTS`] parts only (a story ends with its question); the lexical leg
/// still reads every part and the whole.
pub const LONG_QUERY_WORDS: usize = 80;
pub const LONG_QUERY_DENSE_PARTS: usize = 2;

/// What the dense leg embeds for one question, and which of those vectors stands for the
/// question in the second stage and in the coverage judgement.
#[derive(Debug, PartialEq)]
struct DensePlan {
    texts: Vec<String>,
    query_index: usize,
}

/// Chooses the dense leg's texts. Embedding costs about 0.23 ms a token on 2 cores and a batch
/// is padded to its longest text, so every text here is paid for (see `adr/0004-retrieval.md`):
/// - a question that does not split: its glossary-expanded text;
/// - a question in parts: the question as asked, then each part with its own glossary phrases
///   (the expanded whole would repeat every part's phrases, in the longest text of the batch);
/// - a story of more than [`LONG_QUERY_WORDS`] words: its last [`LONG_QUERY_DENSE_PARTS`]
///   parts as written, the last standing for the question. A story's everyday words are its
///   facts; a dozen glossary phrases would outweigh them (and the lexical leg reads them).
///
/// `parts` are the question's parts as written; `expanded` is the expanded whole followed by
/// the expanded parts.
fn dense_plan(query: &str, parts: &[String], expanded: &[String]) -> DensePlan {
    if parts.is_empty() {
        return DensePlan {
            texts: expanded[..1].to_vec(),
            query_index: 0,
        };
    }
    if words(query) > LONG_QUERY_WORDS {
        let texts = parts[parts.len().saturating_sub(LONG_QUERY_DENSE_PARTS)..].to_vec();
        return DensePlan {
            query_index: texts.len() - 1,
            texts,
        };
    }
    DensePlan {
        texts: std::iter::once(query.to_string())
            .chain(expanded[1..].iter().cloned())
            .collect(),
        query_index: 0,
    }
}

/// What the dense leg searches through the query adapter: the question as written and its
/// parts as written, or, for a long story, the plan's texts (already its last parts as
/// written).
fn texts_as_written(query: &str, parts: &[String], plan: &DensePlan) -> Vec<String> {
    if !parts.is_empty() && words(query) > LONG_QUERY_WORDS {
        return plan.texts.clone();
    }
    std::iter::once(query.to_string())
        .chain(parts.iter().cloned())
        .collect()
}

fn words(s: &str) -> usize {
    s.split_whitespace().count()
}

/// Embeds query texts in one batch, off the async runtime.
async fn embed_queries(embedder: &Arc<dyn Embedder>, texts: &[String]) -> AppResult<Vec<Vec<f32>>> {
    let prefix = embedder.manifest().query_prefix.clone();
    let q: Vec<String> = texts.iter().map(|t| format!("{prefix}{t}")).collect();
    let model = embedder.clone();
    Ok(tokio::task::spawn_blocking(move || model.embed_raw(&q))
        .await
        .map_err(|e| AppError::Resource(format!("embedding task failed: {e}")))??)
}

/// A question as the legs read it (ADR 0004, 0013).
struct PreparedQuestion {
    /// Spelling put right; an English question's Hindi words in Latin letters in English.
    query: String,
    /// The misspelt words and what they were searched as.
    spelling: Vec<spell::Correction>,
    /// A Hindi question's terms in English, added to it.
    gloss: Vec<String>,
    /// An English question's Hindi words, put into English in place.
    hinglish: Vec<String>,
    /// A romanised Hindi question's English words, glossary-expanded (what MiniLM embeds).
    romanised_english: Option<String>,
    /// What the glossary added to the whole question.
    expansion: glossary::Expansion,
    /// The question's parts as written (none when it is one).
    parts: Vec<String>,
    /// The expanded whole, then the expanded parts: what both legs search.
    texts: Vec<String>,
}

/// Spelling, Hindi words, the glossaries and the split: everything done to a question's words
/// before a leg runs. The scope rules read the question as typed, not this.
async fn prepare_question(
    pool: &PgPool,
    models: &Models,
    opts: &SearchOptions,
    doc: i64,
    query: &str,
    language: crate::language::Language,
    timings: &mut Timings,
) -> AppResult<PreparedQuestion> {
    // Misspelt words of an English question are searched as the text's nearest words; the
    // scope rules read the question as typed, and the response lists what was put right.
    let t = Instant::now();
    let (spelled, spelling) = if opts.spelling && language == crate::language::Language::English {
        let speller = models
            .spelling
            .get(pool, doc, || known_words(models))
            .await?;
        speller.correct(query)
    } else {
        (query.to_string(), Vec::new())
    };
    timings.spell = ms(t);
    if !spelling.is_empty() {
        tracing::info!(corrections = ?spelling, "misspelt words searched as the text's");
    }
    // An English question's Hindi words in Latin letters ("umar", "Rajyapal") are searched as
    // their English, in place ([`gloss::HindiGlossary::translate_latin`]).
    let (translated, hinglish) = if language == crate::language::Language::English {
        let (text, english) = gloss::english_question(&spelled);
        (text, english.into_iter().map(str::to_string).collect())
    } else {
        (spelled, Vec::new())
    };
    let query = translated.as_str();

    let glossary = Glossary::builtin();
    let expand = |text: &str| -> (String, glossary::Expansion) {
        if opts.glossary {
            let e = glossary.expand(text);
            (e.expanded_query(text), e)
        } else {
            (text.to_string(), glossary::Expansion::default())
        }
    };
    // A question in Hindi carries the English words for its terms too ([`gloss`]), so that
    // the English glossary and the lexical leg can read it.
    let gloss: Vec<String> = if language.hindi() {
        gloss::HindiGlossary::builtin()
            .gloss(query)
            .into_iter()
            .map(str::to_string)
            .collect()
    } else {
        Vec::new()
    };
    let glossed = if gloss.is_empty() {
        query.to_string()
    } else {
        format!("{} ({})", query.trim_end(), gloss.join("; "))
    };
    // Romanised Hindi reaches MiniLM as its English words only (glossary-expanded): its Hindi
    // terms' English and the words the text uses ("rajya sabha", "retirement age"); MiniLM
    // reads the Hindi ones as noise (ADR 0013).
    let romanised_english =
        if language == crate::language::Language::RomanisedHindi && opts.mode.dense() {
            let speller = models
                .spelling
                .get(pool, doc, || known_words(models))
                .await?;
            Some(gloss::romanised_english(query, |w| speller.in_text(w)))
                .filter(|e| !e.is_empty())
                .map(|e| expand(&e).0)
        } else {
            None
        };
    // The whole question first, then its parts; every text goes through both legs.
    let (whole, expansion) = expand(&glossed);
    let parts = if opts.split {
        split::sub_queries(query)
    } else {
        Vec::new()
    };
    let texts: Vec<String> = std::iter::once(whole)
        .chain(parts.iter().map(|p| expand(p).0))
        .collect();
    Ok(PreparedQuestion {
        query: translated,
        spelling,
        gloss,
        hinglish,
        romanised_english,
        expansion,
        parts,
        texts,
    })
}

/// What the dense leg reads of one question.
struct DenseQuery<'a> {
    /// The question (spelling put right, Hindi words in Latin letters put into English).
    query: &'a str,
    /// Its parts as written.
    parts: &'a [String],
    /// The expanded whole, then the expanded parts.
    texts: &'a [String],
    /// A romanised Hindi question's English words, glossary-expanded.
    romanised_english: Option<&'a str>,
    /// The multilingual model, for a question in an Indian script.
    multilingual: Option<&'a Arc<dyn Embedder>>,
    /// An LLM's hypothetical passage (HyDE), embedded last.
    dense_hint: Option<&'a str>,
}

/// What the dense leg found: a list per embedded text, and what the later stages read.
#[derive(Default)]
struct DenseLists {
    lists: Vec<Vec<(RefId, f32)>>,
    /// The question's own vector (never the hint's), for the second stage and the bank.
    query_vector: Option<Vec<f32>>,
    embed_ms: f64,
    dense_ms: f64,
    /// Whether the multilingual model embedded the question.
    multilingual: bool,
    /// A romanised question's best cosine as glossed, for the coverage judgement only.
    coverage_floor: Option<f64>,
    /// When the query adapter moved the searched vectors: the best cosine any chunk reached
    /// with a question text's own vector, which is what the "not covered" threshold was
    /// calibrated on (the lists' scores are the adapted vectors').
    own_closeness: Option<f64>,
}

/// The dense leg: the question's texts embedded in one batch ([`dense_plan`]), each searched
/// on the pool concurrently, on the multilingual model for a question in an Indian script once
/// it covers the edition, else on the English one.
async fn dense_leg(
    pool: &PgPool,
    models: &Models,
    opts: &SearchOptions,
    doc: i64,
    q: DenseQuery<'_>,
) -> AppResult<DenseLists> {
    if !opts.mode.dense() {
        return Ok(DenseLists::default());
    }
    // A question in an Indian script: the multilingual model, once it covers the edition.
    let multilingual = match q.multilingual {
        Some(m)
            if models
                .multilingual_covered
                .ready(pool, doc, &m.manifest().id)
                .await? =>
        {
            Some(m)
        }
        _ => None,
    };
    let embedder = match multilingual {
        Some(m) => m,
        None => models.embedder.as_ref().ok_or_else(|| {
            AppError::ModelUnavailable(
                "the embedding model is not loaded; use mode \"lexical\"".into(),
            )
        })?,
    };
    // Romanised Hindi with glossed words: MiniLM cannot read the Hindi words, so it ranks
    // by the English ones alone (ADR 0013 has the comparison); the question as glossed is
    // embedded too, for the coverage judgement only.
    let romanised = q.romanised_english.filter(|_| multilingual.is_none());
    // The multilingual model reads the question as typed: the English words the
    // glossaries add are for the English legs.
    let plan = match multilingual {
        Some(_) => DensePlan {
            texts: vec![q.query.to_string()],
            query_index: 0,
        },
        None => match romanised {
            Some(english) => DensePlan {
                texts: vec![english.to_string(), q.texts[0].clone()],
                query_index: 0,
            },
            None => dense_plan(q.query, q.parts, q.texts),
        },
    };
    let model_id = &embedder.manifest().id;
    // An English question (not romanised Hindi) is searched as the query adapter maps the
    // question as written, which is what the adapter was fitted on (ADR 0014). The expanded
    // texts are still embedded: their vectors are what the "not covered" threshold, the learned
    // stage and the question bank were calibrated on.
    let adapter = (multilingual.is_none() && romanised.is_none() && opts.query_adapter)
        .then(|| adapter::QueryAdapter::for_model(model_id))
        .flatten();
    let as_written = match adapter {
        Some(_) => texts_as_written(q.query, q.parts, &plan),
        None => Vec::new(),
    };
    let question_texts = plan.texts.len();
    let mut dense_texts = plan.texts;
    dense_texts.extend(q.dense_hint.map(str::to_string));
    let hint_at = question_texts..dense_texts.len();
    dense_texts.extend(as_written);
    let t = Instant::now();
    let vectors = embed_queries(embedder, &dense_texts).await?;
    let embed_ms = ms(t);
    let t = Instant::now();
    let coverage_only = |i: usize| romanised.is_some() && i == 1;
    // What each list searches, at what depth: without the adapter, every text's vector (of the
    // coverage-only one, only the best score is read); with it, the mapped vectors of the
    // question as written, then the hint's own.
    let searched: Vec<(Cow<[f32]>, usize)> = match adapter {
        None => vectors
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let depth = if coverage_only(i) { 1 } else { opts.depth };
                (Cow::from(v.as_slice()), depth)
            })
            .collect(),
        Some(a) => vectors[hint_at.end..]
            .iter()
            .map(|v| (Cow::from(a.apply(v)), opts.depth))
            .chain(
                vectors[hint_at.clone()]
                    .iter()
                    .map(|v| (Cow::from(v.as_slice()), opts.depth)),
            )
            .collect(),
    };
    let (mut lists, own_best) = tokio::try_join!(
        futures::future::try_join_all(searched.iter().map(|(v, depth)| async move {
            match multilingual {
                Some(_) => legs::multilingual(pool, doc, v, model_id, *depth).await,
                None => legs::dense(pool, doc, v, model_id, *depth).await,
            }
        })),
        // The closeness the threshold reads: the expanded texts' own vectors, best chunk only.
        futures::future::try_join_all(
            vectors[..question_texts]
                .iter()
                .filter(|_| adapter.is_some())
                .map(|v| legs::dense(pool, doc, v, model_id, 1))
        )
    )?;
    let own_closeness = adapter.map(|_| {
        own_best
            .iter()
            .filter_map(|l| l.first().map(|(_, s)| f64::from(*s)))
            .fold(0.0, f64::max)
    });
    let coverage_only = romanised.map(|_| lists.remove(1));
    let coverage_floor = coverage_only.and_then(|l| l.first().map(|(_, s)| f64::from(*s)));
    let dense_ms = ms(t);
    // The question's own vector, never the hint's (which comes last).
    let query_vector = vectors.into_iter().nth(plan.query_index);
    Ok(DenseLists {
        lists,
        query_vector,
        embed_ms,
        dense_ms,
        multilingual: multilingual.is_some(),
        coverage_floor,
        own_closeness,
    })
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
    let doc = edition.document_id;
    let language = crate::language::detect(query);
    let typed = query;
    let PreparedQuestion {
        query: translated,
        spelling,
        gloss,
        hinglish,
        romanised_english,
        expansion,
        parts,
        texts,
    } = prepare_question(pool, models, opts, doc, query, language, &mut timings).await?;
    let query = translated.as_str();
    let multilingual = models
        .multilingual
        .as_ref()
        .filter(|_| language.indic_script() && opts.mode.dense());
    // Refs the question names: pinned below, and spelled out for the lexical leg.
    let named_refs = find_refs(query);
    let expanded = texts[0].clone();

    // The two legs run concurrently (the lexical queries while the question is embedded), and
    // each leg's queries (one per text) concurrently on the pool.
    let dense_query = DenseQuery {
        query,
        parts: &parts,
        texts: &texts,
        romanised_english: romanised_english.as_deref(),
        multilingual,
        dense_hint,
    };
    let dense_leg = dense_leg(pool, models, opts, doc, dense_query);
    let lexical_leg = lexical_leg(pool, opts, doc, &texts, &named_refs);
    // e5 reads what it can of the question: an English one as typed (its subwords read a
    // misspelling better than the speller's repair does) but with its Hindi words in English,
    // a romanised Hindi one as its English words (it cannot read Hindi in Latin letters:
    // ADR 0013). A question in an Indian script already has e5 as its own dense leg.
    let second_dense_text = match romanised_english.as_deref() {
        _ if language.indic_script() => None,
        Some(english) => Some(english.to_string()),
        None if hinglish.is_empty() => Some(typed.to_string()),
        None => Some(gloss::english_question(typed).0),
    };
    let second_dense = second_dense_list(pool, models, opts, doc, second_dense_text.as_deref());
    // The rescorer's per-query facts (lexemes, the corpus key) come alongside the legs, so
    // the second stage needs no round trip of its own.
    let facts = async {
        match &models.embedder {
            Some(e)
                if opts.mode.rerank()
                    && matches!(
                        opts.second_stage,
                        SecondStage::Rescore | SecondStage::Learned
                    ) =>
            {
                legs::query_facts(pool, doc, &expanded, &e.manifest().id)
                    .await
                    .map(Some)
            }
            _ => Ok(None),
        }
    };
    let (dense, (lexical_lists, lexical_ms), facts, second_dense) =
        tokio::try_join!(dense_leg, lexical_leg, facts, second_dense)?;
    let DenseLists {
        lists: dense_lists,
        query_vector,
        embed_ms,
        dense_ms,
        multilingual,
        coverage_floor,
        own_closeness,
    } = dense;
    // The second stage reads the English model's vectors: a multilingual question vector
    // cannot be compared with them, so such a question keeps the fused order.
    let rerank_vector = query_vector.as_deref().filter(|_| !multilingual);
    timings.embed = embed_ms;
    timings.dense = dense_ms;
    timings.lexical = lexical_ms;
    // The closeness that coverage judges is the question's own, never the hint's.
    let question_dense_lists =
        dense_lists.len() - usize::from(dense_hint.is_some() && !dense_lists.is_empty());
    // A question in parts gets the hand-set rescorer: the learned stage was fitted on single
    // questions, and its features, measured against the whole question, let one part's
    // provisions crowd out the other's. A single question gets the model fitted on heads fused
    // as its own is (ADR 0008, stop 52).
    let ranker = parts
        .is_empty()
        .then(|| ltr::LtrModel::builtin(ltr::Heads::of(second_dense.is_some())));
    let legs_out = fusion_lists(
        dense_lists,
        second_dense,
        lexical_lists,
        &expansion,
        &opts.context_refs,
    );
    let t = Instant::now();
    let fused = rrf(&legs_out, opts.rrf_k, opts.depth, &opts.leg_weights);
    timings.fuse = ms(t);
    let candidates: Vec<String> = fused.iter().map(|f| f.ref_id.to_string()).collect();

    let named: Vec<UserRef> = named_refs.into_iter().map(|(r, _)| r).collect();
    let defining = defining_refs(pool, models, opts, doc, query).await?;
    let pinned = results::pins(&named, &defining, &expansion, opts);
    // Their text and cross-references are fetched concurrently with the second stage.
    let prefetch = results::prefetch(&pinned, &fused, opts.k.max(opts.rerank_depth));
    // A question in an Indian script cannot have the English learned stage (its features are
    // the English model's): the cross-lingual bank moves its fused head, or, switched on, a
    // model of its own fitted on written Hindi questions.
    let (fused, indian_script_rows) = match (&models.multilingual, query_vector.as_deref()) {
        (Some(m), Some(v))
            if multilingual
                && opts.mode.rerank()
                && opts.second_stage != SecondStage::None
                && (opts.multilingual_bank_weight > 0.0 || opts.indian_script_ranker) =>
        {
            let t = Instant::now();
            // The tiers the question names, read from its glossed English words: the bank's
            // questions about another tier are no evidence (ADR 0013, stop 40).
            let named = crate::tier::named_in(&gloss.join(" "));
            let moved = cross_lingual_order(pool, models, m, v, opts, named, fused).await;
            timings.rerank = ms(t);
            moved
        }
        _ => (fused, Vec::new()),
    };
    let question_bank =
        english_question_bank(pool, models, opts, language, &parts, rerank_vector).await;
    let ((fused, mut head_rows), info, edges) = tokio::try_join!(
        second_stage(
            pool,
            doc,
            models,
            opts,
            query,
            ranker,
            facts.as_ref(),
            rerank_vector,
            question_bank.as_deref(),
            &legs_out,
            fused,
            &mut timings
        ),
        results::provision_info(pool, doc, &prefetch),
        async {
            if opts.hop {
                results::hop_edges(pool, doc, &prefetch).await
            } else {
                Ok(Vec::new())
            }
        }
    )?;
    if head_rows.is_empty() {
        head_rows = indian_script_rows;
    }
    let mut results = results::hits(&pinned, &fused, &info, opts.k);
    let spelt: Vec<String> = named.iter().map(|r| r.id.to_string()).collect();
    results::mark_citing_named(&mut results, &fused, &spelt, &edges);
    let supporting = results::supporting_from(&edges, &results);

    let coverage = judge_coverage(
        pool,
        models,
        opts,
        typed,
        language,
        &results,
        &legs_out,
        question_dense_lists,
        coverage_floor,
        own_closeness,
        multilingual,
        rerank_vector,
    )
    .await;
    timings.total = ms(started);
    Ok(SearchResponse {
        request_id,
        mode: opts.mode,
        edition,
        language,
        multilingual,
        gloss: [gloss, hinglish].concat(),
        spelling,
        results,
        supporting,
        coverage,
        expansion,
        timings_ms: timings,
        candidates,
        head_rows,
    })
}

/// The provisions that define the term a question asks the meaning of ("What is a Money
/// Bill?", "धन विधेयक क्या है?" → 110), to be pinned; none when the question asks no term's
/// meaning, or the edition defines it in none or in too many
/// ([`crate::definition::DefinitionIndex::defining`]).
async fn defining_refs(
    pool: &PgPool,
    models: &Models,
    opts: &SearchOptions,
    doc: i64,
    query: &str,
) -> AppResult<Vec<RefId>> {
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
    pool: &PgPool,
    opts: &SearchOptions,
    doc: i64,
    texts: &[String],
    named_refs: &[(UserRef, std::ops::Range<usize>)],
) -> AppResult<(Vec<Vec<(RefId, f32)>>, f64)> {
    if !opts.mode.lexical() {
        return Ok((Vec::new(), 0.0));
    }
    let t = Instant::now();
    let mut lexical_texts = texts.to_vec();
    let labels: Vec<String> = named_refs.iter().map(|(r, _)| r.id.label()).collect();
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

/// The multilingual model's dense list for `question` (what the caller decided e5 reads of
/// the question: ADR 0008, stop 52), once the model covers the edition.
/// Fused as one more dense list: a second opinion from a differently trained model, which on
/// questions nobody tuned on put the governing provision first more often (ADR 0008, stop 50
/// and 51). Its ONNX encoder ([`crate::embed::e5_graph`]) makes it cheap enough to run
/// beside the other legs.
async fn second_dense_list(
    pool: &PgPool,
    models: &Models,
    opts: &SearchOptions,
    doc: i64,
    question: Option<&str>,
) -> AppResult<Option<Vec<(RefId, f32)>>> {
    let (Some(model), Some(question)) = (
        models
            .second_dense
            .as_ref()
            .filter(|_| opts.second_dense && opts.mode.dense()),
        question,
    ) else {
        return Ok(None);
    };
    let id = &model.manifest().id;
    if !models.multilingual_covered.ready(pool, doc, id).await? {
        return Ok(None);
    }
    let vector = embed_queries(model, &[question.to_string()]).await?;
    match vector.first() {
        Some(v) => Ok(Some(
            legs::multilingual(pool, doc, v, id, opts.depth).await?,
        )),
        None => Ok(None),
    }
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

/// The English question bank, when it moves this question's order: an English question's
/// only. The bank holds single questions in English, which is also what the ranker it moves
/// was fitted on. Romanised Hindi (as its glossed English words) was moved by it at stop 40:
/// its questions written from the text led with the governing provision 0.519 → 0.594 of the
/// time, but one must-refuse golden test question was then answered (answers' refusal
/// accuracy 0.857 → 0.786), a test loss on a gated kind of figure; reverted at stop 41
/// (ADR 0013).
async fn english_question_bank(
    pool: &PgPool,
    models: &Models,
    opts: &SearchOptions,
    language: Language,
    parts: &[String],
    rerank_vector: Option<&[f32]>,
) -> Option<Arc<bank::QuestionBank>> {
    let e = models.embedder.as_ref()?;
    let applies = opts.bank_weight > 0.0
        && opts.mode.rerank()
        && opts.second_stage == SecondStage::Learned
        && parts.is_empty()
        && language == Language::English
        && rerank_vector.is_some();
    if !applies {
        return None;
    }
    models
        .question_bank
        .get(pool, e, bank::Sources::English)
        .await
}

/// Whether the text covers the question ([`coverage`]), from the closest any chunk came to
/// the question or one of its parts (never the hint's list), and the bank's scope vote.
#[allow(clippy::too_many_arguments)]
async fn judge_coverage(
    pool: &PgPool,
    models: &Models,
    opts: &SearchOptions,
    typed: &str,
    language: Language,
    results: &[SearchHit],
    lists: &[(Leg, Vec<(RefId, f32)>)],
    question_dense_lists: usize,
    coverage_floor: Option<f64>,
    own_closeness: Option<f64>,
    multilingual: bool,
    rerank_vector: Option<&[f32]>,
) -> Coverage {
    let confidence = opts.mode.dense().then(|| {
        let closest = own_closeness.unwrap_or_else(|| {
            lists
                .iter()
                .filter(|(l, _)| *l == Leg::Dense)
                .take(question_dense_lists)
                .filter_map(|(_, hits)| hits.first().map(|(_, s)| *s as f64))
                .fold(0.0, f64::max)
        });
        closest.max(coverage_floor.unwrap_or(0.0))
    });
    let threshold = opts.refusal_threshold_for(multilingual);
    // The bank's scope vote reads the question's own vector. English only: MiniLM reads
    // romanised Hindi as noise, and such a question's closest bank questions are whatever else
    // is romanised Hindi, answerable or not (ADR 0005, stop 34). The question as typed,
    // embedded apart from its glossary words, voted the same on every dev set and cost 2 ms
    // more at p50.
    let scope_vector = rerank_vector.filter(|_| opts.scope_bank && language == Language::English);
    let scope_vote = match (scope_vector, &models.embedder) {
        (Some(v), Some(e)) => models
            .question_bank
            .get(pool, e, bank::Sources::English)
            .await
            .and_then(|b| b.scope_vote(v, opts.bank_holdout)),
        _ => None,
    };
    coverage(
        typed,
        results.iter().any(|r| r.pinned),
        confidence,
        threshold,
        scope_vote,
    )
}

/// Words that are words though an edition's text may not use them: the embedder's whole
/// words, the glossary's terms, and the words of romanised Hindi ([`spell`]).
fn known_words(models: &Models) -> Vec<String> {
    let mut known: Vec<String> = models
        .embedder
        .as_ref()
        .map(|e| e.whole_words())
        .unwrap_or_default();
    known.extend(
        Glossary::builtin()
            .entries()
            .iter()
            .flat_map(|e| e.terms.iter().cloned()),
    );
    known.extend(
        gloss::HindiGlossary::builtin()
            .latin_terms()
            .chain(crate::language::romanised_hindi_words())
            .map(str::to_string),
    );
    known
}

/// The search-level "not covered" decision: the out-of-scope rules first (another statute,
/// case law, an injection …); then, unless the question named a provision, the question
/// bank's vote (a question that reads like those the text does not answer), and the best
/// chunk's similarity against the calibrated threshold.
fn coverage(
    query: &str,
    pinned: bool,
    confidence: Option<f64>,
    threshold: f64,
    vote: Option<bank::ScopeVote>,
) -> Coverage {
    let bank_margin = vote.map(|v| v.margin);
    let class = crate::scope::check(query)
        .verdict
        .or_else(|| vote.and_then(|v| v.refusal()).filter(|_| !pinned));
    if let Some(class) = class {
        return Coverage {
            covered: false,
            confidence,
            reason: Some(class.reason().to_string()),
            out_of_scope: Some(class),
            bank_margin,
        };
    }
    let weak = !pinned && confidence.is_some_and(|c| c < threshold);
    Coverage {
        covered: !weak,
        confidence,
        reason: weak.then(|| NOT_CLOSE_ENOUGH.to_string()),
        out_of_scope: None,
        bank_margin,
    }
}

/// The second stage, when the mode has one: re-orders the first `rerank_depth` fused hits.
/// Returns the new order and, for the learned stage, each head candidate's feature row.
/// `ranker` is the learned model for this head; without one (a question in parts) the learned
/// stage falls back to the hand-set rescorer.
#[allow(clippy::too_many_arguments)]
async fn second_stage(
    pool: &PgPool,
    document_id: i64,
    models: &Models,
    opts: &SearchOptions,
    query: &str,
    ranker: Option<&ltr::LtrModel>,
    facts: Option<&features::QueryFacts>,
    query_vector: Option<&[f32]>,
    question_bank: Option<&bank::QuestionBank>,
    legs_out: &[(Leg, Vec<(RefId, f32)>)],
    mut fused: Vec<fusion::Fused>,
    timings: &mut Timings,
) -> AppResult<(Vec<fusion::Fused>, Vec<(String, Vec<f64>)>)> {
    let mut rows_out = Vec::new();
    if !opts.mode.rerank() || opts.second_stage == SecondStage::None {
        return Ok((fused, rows_out));
    }
    let t = Instant::now();
    if let Some(vector) = query_vector {
        let n = opts.rerank_depth.min(fused.len());
        let head: Vec<(RefId, f64)> = fused[..n]
            .iter()
            .map(|f| (f.ref_id.clone(), f.score))
            .collect();
        let order: Vec<(RefId, f64)> = match opts.second_stage {
            SecondStage::Rescore | SecondStage::Learned => {
                // The best lexical score each provision reached in any lexical list.
                let mut lexical_scores = std::collections::HashMap::new();
                for (_, hits) in legs_out.iter().filter(|(l, _)| *l == Leg::Lexical) {
                    for (id, score) in hits {
                        let best = lexical_scores.entry(id.clone()).or_insert(*score);
                        *best = best.max(*score);
                    }
                }
                let corpus = match facts {
                    Some(features::QueryFacts { key: Some(key), .. }) => {
                        Some(models.rescore_cache.get(pool, key).await?)
                    }
                    // No corpus: nothing to re-order.
                    _ => None,
                };
                let lexemes = facts.map(|f| f.lexemes.as_slice()).unwrap_or(&[]);
                let feats = corpus
                    .as_ref()
                    .map(|c| c.features(lexemes, vector, &head, &lexical_scores))
                    .unwrap_or_default();
                match (opts.second_stage, &corpus, ranker) {
                    (SecondStage::Learned, Some(c), Some(model)) => {
                        let rows = ltr::rows(
                            &fused[..n],
                            &feats,
                            &|id| c.facts.get(id).cloned(),
                            ltr::QueryCues::of(query),
                        );
                        let mut order: Vec<(usize, RefId, f64)> = fused[..n]
                            .iter()
                            .zip(&rows)
                            .enumerate()
                            .map(|(i, (f, r))| (i, f.ref_id.clone(), model.score(r)))
                            .collect();
                        rows_out = fused[..n]
                            .iter()
                            .zip(rows)
                            .map(|(f, r)| (f.ref_id.to_string(), r.to_vec()))
                            .collect();
                        // The bank moves the ranker's scores, so the answer's "also relevant"
                        // bar reads the moved gaps (ADR 0008, stop 32: reporting the ranker's
                        // own scores instead lost test precision 0.835 → 0.788).
                        if let Some(bank) = question_bank {
                            let closeness = bank.closeness(vector, opts.bank_holdout);
                            let near: Vec<Option<f64>> = order
                                .iter()
                                .map(|(_, id, _)| closeness.get(id.as_str()).copied())
                                .collect();
                            let mut scores: Vec<f64> = order.iter().map(|o| o.2).collect();
                            bank::nudge(&mut scores, &near, opts.bank_weight);
                            for (o, s) in order.iter_mut().zip(scores) {
                                o.2 = s;
                            }
                        }
                        order.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
                        order.into_iter().map(|(_, id, s)| (id, s)).collect()
                    }
                    (SecondStage::Learned, None, _) => Vec::new(),
                    _ => rerank::rescore(&feats, &opts.weights),
                }
            }
            SecondStage::CrossEncoder => {
                let ce = models.cross_encoder.clone().ok_or_else(|| {
                        AppError::ModelUnavailable(
                            "no cross-encoder is configured (NYAYA_RERANKER_DIR); use --second-stage learned".into(),
                        )
                    })?;
                let ids: Vec<RefId> = head.iter().map(|(r, _)| r.clone()).collect();
                let texts = legs::best_chunk_texts(pool, document_id, vector, &ids).await?;
                let q = query.to_string();
                let scores = tokio::task::spawn_blocking(move || ce.score(&q, &texts))
                    .await
                    .map_err(|e| AppError::Resource(format!("reranking task failed: {e}")))??;
                let mut order: Vec<(RefId, f64)> = ids
                    .into_iter()
                    .zip(scores)
                    .map(|(id, s)| (id, s as f64))
                    .collect();
                order.sort_by(|a, b| b.1.total_cmp(&a.1));
                order
            }
            SecondStage::None => Vec::new(),
        };
        let mut head_fused: Vec<fusion::Fused> = fused.drain(..n).collect();
        let mut reordered = Vec::with_capacity(fused.len() + n);
        for (id, score) in order {
            if let Some(i) = head_fused.iter().position(|f| f.ref_id == id) {
                let mut f = head_fused.remove(i);
                f.score = score;
                reordered.push(f);
            }
        }
        reordered.extend(head_fused);
        reordered.append(&mut fused);
        fused = reordered;
    }
    timings.rerank += ms(t);
    Ok((fused, rows_out))
}

/// The fused head of a question in an Indian script, re-ordered by its learned model
/// ([`ltr::Heads::IndianScript`], which reads the bank's closeness as one feature) when it
/// is on, or else by the bank's English questions as the multilingual model reads them
/// ([`bank::reorder_head`]). Also returns the head's feature rows (what `nyaya train` fits).
async fn cross_lingual_order(
    pool: &PgPool,
    models: &Models,
    multilingual: &Arc<dyn Embedder>,
    question: &[f32],
    opts: &SearchOptions,
    named: crate::tier::Tiers,
    fused: Vec<fusion::Fused>,
) -> (Vec<fusion::Fused>, Vec<(String, Vec<f64>)>) {
    let bank = models
        .question_bank
        .get(pool, multilingual, bank::Sources::CrossLingual)
        .await;
    let holdout = opts.bank_holdout.map(|_| bank::EVAL_HOLDOUT_MULTILINGUAL);
    let closeness = bank
        .as_ref()
        .map(|b| b.closeness_of(question, holdout, bank::CROSS_LINGUAL_NEIGHBOURS, named))
        .unwrap_or_default();
    let learned = opts.indian_script_ranker && opts.second_stage == SecondStage::Learned;
    if !learned {
        if bank.is_none() {
            return (fused, Vec::new());
        }
        let moved = bank::reorder_head(
            fused,
            &closeness,
            opts.rerank_depth,
            opts.multilingual_bank_weight,
        );
        return (moved, Vec::new());
    }
    let n = opts.rerank_depth.min(fused.len());
    let near: Vec<Option<f64>> = fused[..n]
        .iter()
        .map(|f| closeness.get(f.ref_id.as_str()).copied())
        .collect();
    let rows = ltr::indian_script_rows(&fused[..n], &near);
    let model = ltr::LtrModel::builtin(ltr::Heads::IndianScript);
    let head_rows = fused[..n]
        .iter()
        .zip(&rows)
        .map(|(f, r)| (f.ref_id.to_string(), r.clone()))
        .collect();
    (ltr::reorder(fused, &rows, model), head_rows)
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
    fn coverage_rules_first_then_the_bank_then_the_threshold_unless_pinned() {
        let t = SearchOptions::default().refusal_threshold;
        // The rules refuse whatever the similarity.
        let c = coverage("What does section 302 IPC say?", false, Some(0.9), t, None);
        assert!(!c.covered && c.out_of_scope.is_some() && c.reason.is_some());
        // Weak retrieval refuses…
        let c = coverage(
            "Is there a right to a pension?",
            false,
            Some(t - 0.01),
            t,
            None,
        );
        assert!(!c.covered && c.out_of_scope.is_none());
        // …unless the question named a provision, or the similarity is high enough.
        assert!(coverage("What does Article 21 say?", true, Some(t - 0.01), t, None).covered);
        assert!(
            coverage(
                "Is there a right to a pension?",
                false,
                Some(t + 0.01),
                t,
                None
            )
            .covered
        );
        // Without the dense leg there is no similarity to judge by.
        assert!(coverage("Is there a right to a pension?", false, None, t, None).covered);
        // The bank's clear vote refuses a question the rules let through, with its class…
        let vote = |margin| bank::ScopeVote {
            margin,
            closest: 0.8,
            class: crate::scope::OutOfScope::GeneralKnowledge,
        };
        let q = "Who hand-wrote the original copy?";
        let c = coverage(q, false, Some(0.9), t, Some(vote(0.2)));
        assert!(!c.covered && c.bank_margin == Some(0.2));
        assert_eq!(
            c.out_of_scope,
            Some(crate::scope::OutOfScope::GeneralKnowledge)
        );
        // …but not a question that names a provision, nor one with an unclear vote.
        assert!(coverage(q, true, Some(0.9), t, Some(vote(0.2))).covered);
        let c = coverage(q, false, Some(0.9), t, Some(vote(0.0)));
        assert!(c.covered && c.out_of_scope.is_none() && c.bank_margin == Some(0.0));
    }

    #[test]
    fn the_adapter_reads_the_question_as_written() {
        let expanded = vec!["who is the cag comptroller and auditor-general".to_string()];
        let plan = dense_plan("who is the cag", &[], &expanded);
        assert_eq!(
            texts_as_written("who is the cag", &[], &plan),
            vec!["who is the cag"]
        );
        let parts = vec!["who is the cag".to_string(), "who appoints him".to_string()];
        let expanded = vec![
            "whole expanded".to_string(),
            "who is the cag comptroller and auditor-general".to_string(),
            "who appoints him".to_string(),
        ];
        let q = "who is the cag and who appoints him";
        let plan = dense_plan(q, &parts, &expanded);
        assert_eq!(
            texts_as_written(q, &parts, &plan),
            vec![q, "who is the cag", "who appoints him"]
        );
        let story = "word ".repeat(LONG_QUERY_WORDS) + "what now";
        let parts = vec!["first part".to_string(), "second".into(), "what now".into()];
        let plan = dense_plan(
            &story,
            &parts,
            &[story.clone(), "a".into(), "b".into(), "c".into()],
        );
        assert_eq!(
            texts_as_written(&story, &parts, &plan),
            vec!["second", "what now"]
        );
    }

    #[test]
    fn dense_plan_pays_for_each_word_once() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        // One question, expanded.
        assert_eq!(
            dense_plan("Who audits?", &[], &s(&["Who audits? (Comptroller)"])),
            DensePlan {
                texts: s(&["Who audits? (Comptroller)"]),
                query_index: 0
            }
        );
        // Parts: the question as asked, then each part with its own phrases.
        let q = "Who audits, and who splits taxes?";
        assert_eq!(
            dense_plan(
                q,
                &s(&["Who audits", "who splits taxes?"]),
                &s(&[
                    "Who audits, and who splits taxes? (CAG; Finance Commission)",
                    "Who audits (CAG)",
                    "who splits taxes? (Finance Commission)"
                ])
            ),
            DensePlan {
                texts: s(&[
                    q,
                    "Who audits (CAG)",
                    "who splits taxes? (Finance Commission)"
                ]),
                query_index: 0
            }
        );
        // A story: its last two parts as written, the last standing for it.
        let story = format!(
            "{} Can they do that?",
            "I was dismissed without a hearing. ".repeat(20)
        );
        let parts = s(&["Facts one", "Facts two", "Facts three", "Can they do that?"]);
        let expanded: Vec<String> = std::iter::once(format!("{story} (expanded)"))
            .chain(parts.iter().map(|p| format!("{p} (expanded)")))
            .collect();
        assert_eq!(
            dense_plan(&story, &parts, &expanded),
            DensePlan {
                texts: s(&["Facts three", "Can they do that?"]),
                query_index: 1
            }
        );
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
