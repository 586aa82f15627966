//! The search's "not covered" decision: the out-of-scope rules, the question bank's scope
//! vote, and the best chunk's closeness against the calibrated threshold (ADR 0005).

use super::{bank, Asked, Coverage, Gathered, Leg, SearchHit, SearchRun, NOT_CLOSE_ENOUGH};
use crate::language::Language;

/// Whether the text covers the question ([`coverage`]), from the closest any chunk came to
/// the question or one of its parts (never the hint's list), and the bank's scope vote.
pub(super) async fn judge_coverage(
    run: &SearchRun<'_>,
    asked: &Asked<'_>,
    results: &[SearchHit],
    gathered: &Gathered,
) -> Coverage {
    let (pool, models, opts, _) = run.parts();
    let confidence = opts.mode.dense().then(|| {
        let closest = gathered.own_closeness.unwrap_or_else(|| {
            gathered
                .lists
                .iter()
                .filter(|(l, _)| *l == Leg::Dense)
                .take(gathered.question_dense_lists)
                .filter_map(|(_, hits)| hits.first().map(|(_, s)| *s as f64))
                .fold(0.0, f64::max)
        });
        closest.max(gathered.coverage_floor.unwrap_or(0.0))
    });
    let threshold = opts.refusal_threshold_for(gathered.multilingual);
    // The bank's scope vote reads the question's own vector. English only: MiniLM reads
    // romanised Hindi as noise, and such a question's closest bank questions are whatever else
    // is romanised Hindi, answerable or not (ADR 0005, stop 34). The question as typed,
    // embedded apart from its glossary words, voted the same on every dev set and cost 2 ms
    // more at p50.
    let scope_vector = gathered
        .rerank_vector()
        .filter(|_| opts.scope_bank && asked.language == Language::English);
    let scope_vote = match (scope_vector, &models.embedder) {
        (Some(v), Some(e)) => models
            .question_bank
            .get(pool, e, bank::Sources::English)
            .await
            .and_then(|b| b.scope_vote(v, opts.bank_holdout)),
        _ => None,
    };
    coverage(
        asked.typed,
        results.iter().any(|r| r.pinned),
        confidence,
        threshold,
        scope_vote,
    )
}

/// The search-level "not covered" decision: the out-of-scope rules first (another statute,
/// case law, an injection …); then, unless the question named a provision, the question
/// bank's vote (a question that reads like those the text does not answer), and the best
/// chunk's similarity against the calibrated threshold.
pub(super) fn coverage(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SearchOptions;

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
}
