//! The dense legs: what a question's texts are embedded as ([`dense_plan`]), the dense leg
//! itself on MiniLM or, for a question in an Indian script, on the multilingual model
//! ([`dense_leg`]), and e5's second English list ([`second_dense_list`]).

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;
use std::time::Instant;

use nyaya_ingest::RefId;

use super::{adapter, gloss, legs, ms, SearchRun};
use crate::embed::Embedder;
use crate::error::{AppError, AppResult};
use crate::language::Language;

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
pub(super) async fn embed_queries(
    embedder: &Arc<dyn Embedder>,
    texts: &[String],
) -> AppResult<Vec<Vec<f32>>> {
    let prefix = embedder.manifest().query_prefix.clone();
    let q: Vec<String> = texts.iter().map(|t| format!("{prefix}{t}")).collect();
    let model = embedder.clone();
    Ok(tokio::task::spawn_blocking(move || model.embed_raw(&q))
        .await
        .map_err(|e| AppError::Resource(format!("embedding task failed: {e}")))??)
}

/// What the dense leg reads of one question.
pub(super) struct DenseQuery<'a> {
    /// The question (spelling put right, Hindi words in Latin letters put into English).
    pub(super) query: &'a str,
    /// Its parts as written.
    pub(super) parts: &'a [String],
    /// The expanded whole, then the expanded parts.
    pub(super) texts: &'a [String],
    /// A romanised Hindi question's English words, glossary-expanded.
    pub(super) romanised_english: Option<&'a str>,
    /// The multilingual model, for a question in an Indian script.
    pub(super) multilingual: Option<&'a Arc<dyn Embedder>>,
    /// An LLM's hypothetical passage (HyDE), embedded last.
    pub(super) dense_hint: Option<&'a str>,
}

/// What the dense leg found: a list per embedded text, and what the later stages read.
#[derive(Default)]
pub(super) struct DenseLists {
    pub(super) lists: Vec<Vec<(RefId, f32)>>,
    /// The question's own vector (never the hint's), for the second stage and the bank.
    pub(super) query_vector: Option<Vec<f32>>,
    pub(super) embed_ms: f64,
    pub(super) dense_ms: f64,
    /// Whether the multilingual model embedded the question.
    pub(super) multilingual: bool,
    /// A romanised question's best cosine as glossed, for the coverage judgement only.
    pub(super) coverage_floor: Option<f64>,
    /// When the query adapter moved the searched vectors: the best cosine any chunk reached
    /// with a question text's own vector, which is what the "not covered" threshold was
    /// calibrated on (the lists' scores are the adapted vectors').
    pub(super) own_closeness: Option<f64>,
}

/// The dense leg: the question's texts embedded in one batch ([`dense_plan`]), each searched
/// on the pool concurrently, on the multilingual model for a question in an Indian script once
/// it covers the edition, else on the English one.
pub(super) async fn dense_leg(run: &SearchRun<'_>, q: DenseQuery<'_>) -> AppResult<DenseLists> {
    let (pool, models, opts, doc) = run.parts();
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
    let romanised = q.romanised_english.filter(|_| multilingual.is_none());
    let plan = plan_for(&q, multilingual.is_some());
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
    // The romanised question as glossed is the plan's second text.
    let coverage_only = romanised.map(|_| 1);
    let searched = searched(&vectors, adapter, hint_at, coverage_only, opts.depth);
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

/// What the dense leg embeds for `q`. The multilingual model reads the question as typed: the
/// English words the glossaries add are for the English legs. Romanised Hindi with glossed
/// words, on MiniLM: its English words alone (MiniLM cannot read the Hindi words; ADR 0013 has
/// the comparison), then the question as glossed, for the coverage judgement only. Any other
/// question: [`dense_plan`].
fn plan_for(q: &DenseQuery<'_>, multilingual: bool) -> DensePlan {
    match (multilingual, q.romanised_english) {
        (true, _) => DensePlan {
            texts: vec![q.query.to_string()],
            query_index: 0,
        },
        (false, Some(english)) => DensePlan {
            texts: vec![english.to_string(), q.texts[0].clone()],
            query_index: 0,
        },
        (false, None) => dense_plan(q.query, q.parts, q.texts),
    }
}

/// What each dense list searches, at what depth. Without the query adapter, every embedded
/// text's vector (the coverage-only one, at `coverage_only`, at depth 1: only its best score is
/// read); with it, the mapped vectors of the question as written (embedded after the hint, at
/// `hint_at`), then the hint's own.
fn searched<'v>(
    vectors: &'v [Vec<f32>],
    adapter: Option<&adapter::QueryAdapter>,
    hint_at: Range<usize>,
    coverage_only: Option<usize>,
    depth: usize,
) -> Vec<(Cow<'v, [f32]>, usize)> {
    match adapter {
        None => vectors
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let depth = if coverage_only == Some(i) { 1 } else { depth };
                (Cow::from(v.as_slice()), depth)
            })
            .collect(),
        Some(a) => vectors[hint_at.end..]
            .iter()
            .map(|v| (Cow::from(a.apply(v)), depth))
            .chain(
                vectors[hint_at]
                    .iter()
                    .map(|v| (Cow::from(v.as_slice()), depth)),
            )
            .collect(),
    }
}

/// What e5 reads of a question for its second English list ([`second_dense_list`]): an
/// English one as typed (its subwords read a misspelling better than the speller's repair does)
/// but with its Hindi words in English, a romanised Hindi one as its English words (it cannot
/// read Hindi in Latin letters: ADR 0013). None for a question in an Indian script, which
/// already has e5 as its own dense leg. The glossary's added words are left out: e5 reading
/// them lost first citations on golden dev and on the fresh English set (ADR 0008, stop 55).
pub(super) fn second_dense_text(
    typed: &str,
    language: Language,
    romanised_english: Option<&str>,
    hinglish: &[String],
) -> Option<String> {
    match romanised_english {
        _ if language.indic_script() => None,
        Some(english) => Some(english.to_string()),
        None if hinglish.is_empty() => Some(typed.to_string()),
        None => Some(gloss::english_question(typed).0),
    }
}

/// The multilingual model's dense list for `question` (what the caller decided e5 reads of
/// the question: ADR 0008, stop 52), once the model covers the edition.
/// Fused as one more dense list: a second opinion from a differently trained model, which on
/// questions nobody tuned on put the governing provision first more often (ADR 0008, stop 50
/// and 51). Its ONNX encoder ([`crate::embed::e5_graph`]) makes it cheap enough to run
/// beside the other legs.
pub(super) async fn second_dense_list(
    run: &SearchRun<'_>,
    question: Option<&str>,
) -> AppResult<Option<SecondDense>> {
    let (pool, models, opts, doc) = run.parts();
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
    match vector.into_iter().next() {
        Some(v) => Ok(Some(SecondDense {
            list: legs::multilingual(pool, doc, &v, id, opts.depth).await?,
            vector: v,
        })),
        None => Ok(None),
    }
}

/// e5's list for an English question, and the question's e5 vector (which the cross-lingual
/// bank's closeness reads in the second stage).
pub(super) struct SecondDense {
    pub list: Vec<(RefId, f32)>,
    pub vector: Vec<f32>,
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn each_model_embeds_what_it_can_read() {
        let texts = vec!["rajyapal ki niyukti (Governor; appointment)".to_string()];
        let q = DenseQuery {
            query: "rajyapal ki niyukti",
            parts: &[],
            texts: &texts,
            romanised_english: Some("governor appointment"),
            multilingual: None,
            dense_hint: None,
        };
        // MiniLM: the English words, then the question as glossed (for coverage only).
        assert_eq!(
            plan_for(&q, false).texts,
            ["governor appointment", texts[0].as_str()]
        );
        // The multilingual model: the question as typed, nothing added.
        assert_eq!(plan_for(&q, true).texts, ["rajyapal ki niyukti"]);
        let english = DenseQuery {
            romanised_english: None,
            ..q
        };
        assert_eq!(plan_for(&english, false).texts, [texts[0].as_str()]);
    }

    #[test]
    fn without_the_adapter_every_vector_is_searched_and_the_coverage_only_one_shallowly() {
        let vectors = vec![vec![1.0_f32, 0.0], vec![0.0, 1.0], vec![0.6, 0.8]];
        let depths: Vec<usize> = searched(&vectors, None, 3..3, Some(1), 50)
            .iter()
            .map(|(_, d)| *d)
            .collect();
        assert_eq!(depths, [50, 1, 50]);
        let all = searched(&vectors, None, 2..3, None, 50);
        assert_eq!(all.len(), 3);
        assert_eq!(&*all[2].0, &[0.6, 0.8][..]);
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
}
