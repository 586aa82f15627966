//! Reciprocal rank fusion.
//!
//! A provision's fused score is `Σ 1 / (k + rank)` over the legs that found it, with rank
//! 1-based within each leg. Only positions count, so a bounded cosine and an unbounded text
//! rank never have to be calibrated against each other. Every result keeps, per leg, the rank
//! and raw score it had there, so an answer can say which leg found what.

use std::collections::BTreeMap;

use nyaya_ingest::RefId;
use serde::Serialize;

/// Where a hit came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Leg {
    /// The question's own embedder: MiniLM for a question in Latin letters, multilingual-e5
    /// for one in an Indian script.
    Dense,
    /// multilingual-e5's list beside MiniLM's, for a question in Latin letters
    /// (`search::dense::second_dense_list`). Fused with the dense leg's weight; kept apart so the
    /// learned stage can weigh each embedder's rank on its own (ADR 0008, stop 53).
    SecondDense,
    Lexical,
    /// Refs the glossary attaches to a term it found in the question ("President's rule" →
    /// 356), in the glossary's order.
    Glossary,
    /// Refs the previous turn's answer cited, for a follow-up ("and who can remove them?").
    Context,
}

/// A provision as one leg ranked it.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct LegHit {
    /// 1-based position in the leg, after chunk hits were folded into provisions.
    pub rank: usize,
    /// The leg's own score (cosine similarity, text rank).
    pub score: f32,
}

/// One fused result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fused {
    #[serde(rename = "ref")]
    pub ref_id: RefId,
    pub score: f64,
    pub legs: BTreeMap<Leg, LegHit>,
}

/// Folds chunk hits (best first) into provision hits: a provision keeps its first, best chunk's
/// score and position; later chunks of the same provision do not take a place.
pub fn provisions_from_chunks(hits: &[(RefId, f32)]) -> Vec<(RefId, f32)> {
    let mut out: Vec<(RefId, f32)> = Vec::with_capacity(hits.len());
    for (id, score) in hits {
        if !out.iter().any(|(seen, _)| seen == id) {
            out.push((id.clone(), *score));
        }
    }
    out
}

/// How much each leg's `1 / (k + rank)` counts in the fused score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LegWeights {
    pub dense: f64,
    pub lexical: f64,
    pub glossary: f64,
}

impl Default for LegWeights {
    fn default() -> Self {
        LegWeights {
            dense: 1.0,
            lexical: 1.0,
            glossary: 1.0,
        }
    }
}

impl LegWeights {
    fn of(&self, leg: Leg) -> f64 {
        match leg {
            Leg::Dense | Leg::SecondDense => self.dense,
            Leg::Lexical => self.lexical,
            Leg::Glossary => self.glossary,
            Leg::Context => self.glossary,
        }
    }
}

/// `fused` with its first `scores.len()` candidates (one score each) re-ordered by score, best
/// first; ties, and everything after them, keep the fused order. What the second stages that
/// re-order a head with scores of their own share.
pub fn sort_head(mut fused: Vec<Fused>, scores: &[f64]) -> Vec<Fused> {
    let rest = fused.split_off(scores.len().min(fused.len()));
    let mut head: Vec<(f64, Fused)> = scores.iter().copied().zip(fused).collect();
    // Stable: equal scores keep their fused order.
    head.sort_by(|a, b| b.0.total_cmp(&a.0));
    head.into_iter().map(|(_, f)| f).chain(rest).collect()
}

/// Fuses ranked provision lists; a leg may appear more than once (one list per sub-query).
/// `k` damps the head of each list (60 in the literature); each leg contributes at most its
/// first `depth` entries, each `weights.of(leg) / (k + rank)`. Ties are broken by the best rank
/// in any leg, then by constitutional order, so the output is deterministic.
pub fn rrf(
    legs: &[(Leg, Vec<(RefId, f32)>)],
    k: f64,
    depth: usize,
    weights: &LegWeights,
) -> Vec<Fused> {
    let mut by_ref: BTreeMap<RefId, Fused> = BTreeMap::new();
    for (leg, hits) in legs {
        for (i, (id, score)) in provisions_from_chunks(hits)
            .into_iter()
            .take(depth)
            .enumerate()
        {
            let rank = i + 1;
            let entry = by_ref.entry(id.clone()).or_insert_with(|| Fused {
                ref_id: id,
                score: 0.0,
                legs: BTreeMap::new(),
            });
            entry.score += weights.of(*leg) / (k + rank as f64);
            // A leg may contribute several lists (one per sub-query); it reports its best.
            let better = entry.legs.get(leg).is_none_or(|h| rank < h.rank);
            if better {
                entry.legs.insert(*leg, LegHit { rank, score });
            }
        }
    }
    let mut fused: Vec<Fused> = by_ref.into_values().collect();
    let best_rank = |f: &Fused| f.legs.values().map(|h| h.rank).min().unwrap_or(usize::MAX);
    fused.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| best_rank(a).cmp(&best_rank(b)))
            .then_with(|| a.ref_id.cmp(&b.ref_id))
    });
    fused
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: LegWeights = LegWeights {
        dense: 1.0,
        lexical: 1.0,
        glossary: 1.0,
    };

    fn r(s: &str) -> RefId {
        s.parse().unwrap()
    }

    fn list(ids: &[&str]) -> Vec<(RefId, f32)> {
        ids.iter()
            .enumerate()
            .map(|(i, id)| (r(id), 1.0 - i as f32 / 10.0))
            .collect()
    }

    #[test]
    fn agreement_beats_a_single_first_place() {
        // 21A is second in both legs; 21 first in one only.
        let fused = rrf(
            &[
                (Leg::Dense, list(&["21", "21A", "45"])),
                (Leg::Lexical, list(&["41", "21A", "30"])),
            ],
            60.0,
            10,
            &W,
        );
        assert_eq!(fused[0].ref_id, r("21A"));
        assert!((fused[0].score - 2.0 / 62.0).abs() < 1e-12);
        assert_eq!(fused[0].legs[&Leg::Dense].rank, 2);
        assert_eq!(fused[0].legs[&Leg::Lexical].rank, 2);
        // Single-leg hits keep only the leg that found them.
        let only_dense = fused.iter().find(|f| f.ref_id == r("45")).unwrap();
        assert_eq!(
            only_dense.legs.keys().copied().collect::<Vec<_>>(),
            vec![Leg::Dense]
        );
    }

    #[test]
    fn chunks_of_one_provision_take_one_place() {
        let hits = vec![
            (r("19"), 0.9),
            (r("19"), 0.8),
            (r("22"), 0.7),
            (r("19"), 0.6),
        ];
        assert_eq!(
            provisions_from_chunks(&hits),
            vec![(r("19"), 0.9), (r("22"), 0.7)]
        );
        let fused = rrf(&[(Leg::Dense, hits)], 60.0, 10, &W);
        assert_eq!(
            fused[1].legs[&Leg::Dense].rank,
            2,
            "22 is second, not third"
        );
    }

    #[test]
    fn depth_limits_each_leg() {
        let fused = rrf(&[(Leg::Lexical, list(&["14", "15", "16"]))], 60.0, 2, &W);
        assert_eq!(
            fused.iter().map(|f| f.ref_id.as_str()).collect::<Vec<_>>(),
            vec!["14", "15"]
        );
    }

    #[test]
    fn ties_break_by_best_rank_then_constitutional_order() {
        // 14 is first in dense, 15 first in lexical: equal scores, equal best rank → 14 first.
        let fused = rrf(
            &[
                (Leg::Dense, list(&["14", "15"])),
                (Leg::Lexical, list(&["15", "14"])),
            ],
            60.0,
            10,
            &W,
        );
        assert_eq!(fused[0].ref_id, r("14"));
        assert_eq!(fused[0].score, fused[1].score);
    }

    #[test]
    fn a_leg_with_several_lists_keeps_its_best_rank_and_sums() {
        let fused = rrf(
            &[
                (Leg::Dense, list(&["53", "72"])),
                (Leg::Dense, list(&["72", "161"])),
            ],
            60.0,
            10,
            &W,
        );
        assert_eq!(fused[0].ref_id, r("72"));
        assert_eq!(fused[0].legs[&Leg::Dense].rank, 1);
        assert!((fused[0].score - (1.0 / 62.0 + 1.0 / 61.0)).abs() < 1e-12);
    }

    #[test]
    fn empty_legs_fuse_to_nothing() {
        assert!(rrf(
            &[(Leg::Dense, vec![]), (Leg::Lexical, vec![])],
            60.0,
            10,
            &W
        )
        .is_empty());
    }
}
