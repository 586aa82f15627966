//! Step 6 of the pipeline, the quotes: which provisions an answer quotes and which clause of
//! each. Each search offers its top candidates ([`quote_groups`]); each candidate's spans are
//! scored against the question as search read it (its cosine to the question, its share of the
//! question's words, and what the question asks for, [`asks`]); the candidates then compete for
//! the lead by their best span, within a gap of retrieval's own order, and a second one is shown
//! as "also relevant" only within a narrower gap ([`quote_groups_text`]). Every quote is cut
//! verbatim from the provision's text ([`extract`]).

use std::collections::BTreeSet;

use nyaya_ingest::RefId;

use super::router::{Route, Routing};
use super::{asks, citation, extract, office, Answerer, Citation};
use crate::error::{AppError, AppResult};
use crate::search::glossary::Glossary;
use crate::search::{SearchHit, SearchResponse};
use crate::store::{self, ProvisionView};
use crate::tier;

/// A provision chosen for quoting: which search found it (the part's question, for a
/// multi-part answer), the hit, and the text to choose its span by.
pub(super) struct Pick {
    pub(super) part: Option<String>,
    hit: SearchHit,
    /// The second provision of a one-question answer ("Also relevant").
    pub(super) also: bool,
    /// The text of the span the provision competed for its place with: what the shared-word
    /// refusal reads, so that a change to which clause is quoted (what is asked, a lead-in)
    /// cannot turn an answer into a refusal or back.
    pub(super) compared: String,
}

/// The provisions one search offers for quoting, and how many of them to quote.
pub(super) struct Group {
    part: Option<String>,
    /// The question (or part) as its search read it: misspelt words put right, Hindi words
    /// in Latin letters in their English.
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
pub(super) fn quote_groups(
    routing: &Routing,
    searches: &[(Option<String>, SearchResponse)],
    language: crate::language::Language,
) -> Vec<Group> {
    searches
        .iter()
        .filter(|(part, s)| part.is_none() || s.coverage.covered)
        .map(|(part, s)| {
            // Read as search read it (`SearchResponse::read_as`): "Suprme Court" names the
            // Union's tier as "Supreme Court" does, "kendra sarkar" as "the Centre" does.
            let query = s.read_as.clone();
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
    /// The text of the span `score` is of (not always the quoted one).
    compared: String,
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
    /// The question as asked, without the glossary's phrases.
    as_asked: &'v str,
    /// What the group's question asks for beyond its subject.
    asked: &'v asks::Asked,
    /// The term the group's question asks the meaning of.
    defined: Option<&'v crate::definition::Term>,
}

/// A candidate's spans' cosines to its question, read two ways.
struct SpanSimilarity {
    /// To the question as search read it, the glossary's phrases added: what the provisions
    /// compete for the lead with (its words found the provision).
    expanded: Vec<f32>,
    /// To the question as asked: what picks the clause quoted. The glossary's phrases are the
    /// provision's own words ("failure of constitutional machinery"), so read with them every
    /// question leans to the clause that repeats its heading, not the one that answers; read
    /// without them the clause that carries the answer was quoted more often on the dev halves
    /// of both clause sets and on golden dev and test (ADR 0007, stop 62).
    as_asked: Vec<f32>,
}

/// Each candidate's spans' cosines to its question (`None` without an embedder): each distinct
/// question embedded, then every span (from the process's passage cache where a provision was
/// quoted before), off the async runtime.
async fn span_similarities(
    a: &Answerer,
    prepared: &[Prepared<'_>],
) -> AppResult<Vec<Option<SpanSimilarity>>> {
    let Some(embedder) = &a.models.embedder else {
        return Ok(prepared.iter().map(|_| None).collect());
    };
    let m = embedder.manifest();
    let mut queries: Vec<String> = Vec::new();
    let mut index_of = |question: &str| {
        let text = format!("{}{}", m.query_prefix, question);
        match queries.iter().position(|t| *t == text) {
            Some(i) => i,
            None => {
                queries.push(text);
                queries.len() - 1
            }
        }
    };
    let q_index: Vec<(usize, usize)> = prepared
        .iter()
        .map(|p| (index_of(p.expanded), index_of(p.as_asked)))
        .collect();
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
    for (p, (expanded, as_asked)) in prepared.iter().zip(q_index) {
        let spans = &span_vectors[at..at + p.spans.len()];
        let cosines = |q: &[f32]| -> Vec<f32> {
            spans
                .iter()
                .map(|v| v.iter().zip(q).map(|(x, y)| x * y).sum())
                .collect()
        };
        at += p.spans.len();
        out.push(Some(SpanSimilarity {
            expanded: cosines(&query_vectors[expanded]),
            as_asked: cosines(&query_vectors[as_asked]),
        }));
    }
    Ok(out)
}

/// Quotes the groups' provisions: for each candidate, its named clause or the span closest
/// to the question ([`score_candidates`]); then, per group, the candidates whose best span is
/// best (pinned ones always, in order; [`pick_group`]). Retrieval's order breaks near-ties.
pub(super) async fn quote_groups_text(
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
            as_asked,
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
            as_asked,
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
    /// As search read it ([`Group::query`]), then the glossary's expansion.
    expanded: String,
    /// As asked ([`Group::query`]), without the glossary's phrases: what the clause quoted
    /// is chosen by.
    as_asked: String,
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
            let query = group.query.as_str();
            let expanded = glossary.expand(query).expanded_query(query);
            // The words that name a ref ("Art. 243-D", "article three hundred and
            // sixty-eight") say nothing about which clause is meant.
            let refs = nyaya_ingest::refid::find_refs(query);
            let spans: Vec<_> = refs.iter().map(|(_, at)| at.clone()).collect();
            let unnamed = without_spans(query, &spans);
            let terms = if refs.is_empty() {
                extract::terms(&expanded)
            } else {
                extract::terms_beside_a_ref(&glossary.expand(&unnamed).expanded_query(&unnamed))
            };
            // A part of a question ("… and who chairs it?") leans on the whole's subject,
            // which only the glossary's phrases carry into it; it is read as searched.
            let as_asked = if groups.len() > 1 {
                expanded.clone()
            } else {
                query.to_string()
            };
            Reading {
                expanded,
                as_asked,
                terms,
                asked: asks::Asks::builtin().asked(query),
                defined: crate::definition::asked_term(query),
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
    similarity: Vec<Option<SpanSimilarity>>,
) -> Vec<Scored> {
    let mut scored: Vec<Scored> = Vec::new();
    for (p, sims) in prepared.iter().zip(similarity) {
        let (g, rank, hit) = flat[p.at];
        let span_scores = |cosines: Option<&[f32]>| {
            extract::score_spans(&p.spans, p.terms, cosines, weights.overlap)
        };
        let scores = span_scores(sims.as_ref().map(|s| s.expanded.as_slice()));
        let scores_as_asked = span_scores(sims.as_ref().map(|s| s.as_asked.as_slice()));
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
            None => best_clauses(&p.spans, &scores, &scores_as_asked, p.asked, weights.asks),
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
            compared: p.spans[competing].text.clone(),
            defines_asked,
        });
    }
    scored
}

/// A provision's best clause as the provisions compete for the lead (by `scores`, the question
/// as search read it) and the clause quoted (by `scores_as_asked`, the question as asked, also
/// weighing what it asks for, [`extract::with_what_is_asked`]), as indexes into `spans`.
fn best_clauses(
    spans: &[extract::Span],
    scores: &[f64],
    scores_as_asked: &[f64],
    asked: &asks::Asked,
    asks_weight: f64,
) -> (Option<usize>, Option<usize>) {
    let best = |scores: &[f64]| {
        extract::best_span(spans, scores).and_then(|s| spans.iter().position(|x| x == s))
    };
    let quoted = if asks_weight > 0.0 && !asked.is_empty() {
        best(&extract::with_what_is_asked(
            scores_as_asked,
            spans,
            asked,
            asks_weight,
        ))
    } else {
        best(scores_as_asked)
    };
    (best(scores), quoted)
}

/// One group's citations, appended to `picks` and `citations`: its candidates in the order
/// they compete for the lead ([`competing_order`]), then up to `group.take` of them, a second
/// one only when retrieval could not tell it from the lead.
fn pick_group(
    weights: &extract::QuoteWeights,
    group: &Group,
    mine: Vec<&Scored>,
    picks: &mut Vec<Pick>,
    citations: &mut Vec<Citation>,
) -> AppResult<()> {
    let named = Named::in_query(&group.query);
    let mut shown = Shown::default();
    for s in competing_order(weights, group, named, mine) {
        if shown.taken == group.take {
            break;
        }
        let quoted_before = picks.iter().any(|p| p.hit.ref_id == s.hit.ref_id);
        if quoted_before && (group.part.is_none() || shown.taken > 0) {
            continue;
        }
        let exempt = s.hit.pinned || group.context_refs.contains(&s.hit.ref_id);
        let also = group.part.is_none() && shown.taken > 0 && !s.hit.pinned;
        if !exempt && !shown.admits(s, also, named, weights.also_gap) {
            continue;
        }
        let Some(c) = citation(citations.len() + 1, &s.view, &s.span)? else {
            continue;
        };
        // A part whose best provision an earlier part quoted ("Who are the members of the
        // GST Council and who chairs it?") is answered by it — its next candidate would be
        // noise: by its own clause (quoted below), or by the same quote above, whose
        // heading then names both parts.
        if quoted_before && named_on_the_same_quote(group, &c, picks, citations) {
            shown.took(s, false);
            continue;
        }
        picks.push(Pick {
            part: group.part.clone(),
            hit: s.hit.clone(),
            also,
            compared: s.compared.clone(),
        });
        citations.push(c);
        shown.took(s, true);
    }
    Ok(())
}

/// A group's candidates in the order they compete for the lead: [`lead_order`], then the
/// provision that says what the asked term is, then the office and the tier the question
/// names ([`Named`]; a later sort takes precedence, so the tier's is strongest). Retrieval's
/// order stands for a group that keeps it or that holds a pinned provision.
fn competing_order<'s>(
    weights: &extract::QuoteWeights,
    group: &Group,
    named: Named,
    mine: Vec<&'s Scored>,
) -> Vec<&'s Scored> {
    if group.retrieval_order || mine.iter().any(|s| s.hit.pinned) {
        return mine;
    }
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
    let mut mine: Vec<&Scored> = order.into_iter().map(|i| mine[i]).collect();
    // "What is a Money Bill?": the provision where the text says what it is leads, ahead
    // of one that only uses the term.
    mine.sort_by_key(|s| !s.defines_asked);
    // A provision about the qualified form of the office the question asks about ("Election
    // of Vice-President" for "… to become President?") leads only when nothing else can.
    mine.sort_by_key(|s| office::heading_names_another(named.offices, &s.view.title));
    // A provision of a government the question does not name ("the Rajya Sabha" →
    // 243A's Gram Sabha) leads only when no candidate of its own does.
    mine.sort_by_key(|s| tier::excludes_provision(named.tiers, tier_of(s)));
    mine
}

/// The tiers of government and the offices a group's query names (`crate::tier`,
/// [`office`]): what decides which parallel Article answers it.
#[derive(Clone, Copy)]
struct Named {
    tiers: tier::Tiers,
    offices: office::PlainOffices,
}

impl Named {
    fn in_query(query: &str) -> Self {
        Self {
            tiers: tier::named_in(query),
            offices: office::plain_in(query),
        }
    }
}

/// What a group has shown so far: how many provisions, the lead's retrieval score and what
/// the lead refers to.
#[derive(Default)]
struct Shown {
    taken: usize,
    lead_score: Option<f64>,
    lead_refers_to: Vec<String>,
}

impl Shown {
    /// Whether a candidate that is neither pinned nor the context's may be shown after the
    /// lead. Only when retrieval could not tell it from the lead (their scores within the
    /// calibrated gap, either way round): "also relevant" that is not is noise a reader
    /// learns to skip (ADR 0007); and, as "also relevant", not of a tier the question does
    /// not name unless the lead refers to it, nor about the qualified form of an office the
    /// question asks about plainly (the Vice-President's age under the President's).
    fn admits(&self, s: &Scored, also: bool, named: Named, also_gap: f64) -> bool {
        if let Some(lead) = self.lead_score {
            if (lead - s.hit.score).abs() > also_gap {
                return false;
            }
        }
        !(also
            && (also_in_another_tier(named.tiers, s, &self.lead_refers_to)
                || office::heading_names_another(named.offices, &s.view.title)))
    }

    /// Counts `s` as shown; the first shown `quoted` (not merged into an earlier part's quote)
    /// is the lead whose references later candidates may follow.
    fn took(&mut self, s: &Scored, quoted: bool) {
        if quoted && self.lead_score.is_none() {
            self.lead_refers_to = s
                .view
                .cross_refs
                .outgoing
                .iter()
                .filter_map(|r| r.to.clone())
                .collect();
        }
        self.lead_score.get_or_insert(s.hit.score);
        self.taken += 1;
    }
}

/// When an earlier part showed the very quote `c` is, this part's name joins that quote's
/// (and nothing new is shown); false otherwise.
fn named_on_the_same_quote(
    group: &Group,
    c: &Citation,
    picks: &mut [Pick],
    citations: &[Citation],
) -> bool {
    let same = citations
        .iter()
        .position(|q| q.ref_id == c.ref_id && q.quote == c.quote);
    let (Some(i), Some(part)) = (same, group.part.as_deref()) else {
        return false;
    };
    let shown = picks[i].part.get_or_insert_with(String::new);
    if !shown.is_empty() {
        shown.push_str(" — ");
    }
    shown.push_str(part.trim());
    true
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

#[cfg(test)]
mod tests {
    use super::{asks, best_clauses, extract, group_readings, lead_order, without_spans, Group};

    #[test]
    fn a_single_question_is_read_as_asked_and_a_part_as_searched() {
        let group = |query: &str| Group {
            part: None,
            query: query.to_string(),
            candidates: Vec::new(),
            take: 1,
            context_refs: Vec::new(),
            retrieval_order: false,
        };
        let single = group_readings(&[group("Who chairs the GST Council?")]);
        assert_eq!(single[0].as_asked, "Who chairs the GST Council?");
        assert_ne!(
            single[0].expanded, single[0].as_asked,
            "the glossary adds phrases"
        );
        let parts = group_readings(&[
            group("Who are the members of the GST Council?"),
            group("Who chairs the GST Council?"),
        ]);
        assert!(parts.iter().all(|r| r.as_asked == r.expanded));
    }

    #[test]
    fn the_clause_quoted_is_read_as_asked_and_the_lead_as_searched() {
        let span = |label: &str, text: &str| extract::Span {
            label: Some(label.to_string()),
            start: 0,
            end: text.chars().count(),
            text: text.to_string(),
        };
        let spans = [
            span(
                "(1)",
                "The State Election Commission shall conduct all elections.",
            ),
            span(
                "(3)",
                "The Governor shall make available the staff it needs.",
            ),
        ];
        let asked = asks::Asks::builtin().asked("Who lends it staff?");
        // The glossary's phrases pull the question to (1), which repeats the heading; as
        // asked, it is (3) that answers. The provision still competes with (1)'s score.
        let (competing, quoted) = best_clauses(&spans, &[0.8, 0.6], &[0.5, 0.7], &asked, 0.2);
        assert_eq!((competing, quoted), (Some(0), Some(1)));
        // Read alike, one clause is both.
        let (competing, quoted) = best_clauses(&spans, &[0.5, 0.7], &[0.5, 0.7], &asked, 0.2);
        assert_eq!((competing, quoted), (Some(1), Some(1)));
    }

    #[test]
    fn the_words_naming_a_ref_are_blanked_in_any_script() {
        let blank = |q: &str| {
            let spans: Vec<_> = nyaya_ingest::refid::find_refs(q)
                .into_iter()
                .map(|(_, at)| at)
                .collect();
            without_spans(q, &spans)
        };
        let blanked = blank("Art. 243-D reservation in panchayats");
        assert!(!blanked.contains("243") && blanked.contains("reservation in panchayats"));
        let blanked = blank("अनुच्छेद 21 क्या कहता है?");
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
