//! What a search returns, once the order is known: the pinned refs first, then the fused
//! hits, each with its heading, page and a preview; and the provisions the top hits cite, one
//! hop along cross-references. Pure functions over rows fetched by the two queries here.

use std::collections::BTreeMap;

use nyaya_ingest::refid::UserRef;
use nyaya_ingest::RefId;
use sqlx::PgPool;

use super::fusion::Fused;
use super::glossary::Expansion;
use super::{SearchHit, SearchOptions, Supporting};
use crate::error::AppResult;

/// A ref pinned ahead of every hit, and the clause the question named in it, if any.
pub(super) type Pin = (RefId, Option<String>);

/// Pinned refs: those the question names and the corpus may hold, in the order named; then
/// the provisions that define the term it asks the meaning of (`defining`, "What is a Money
/// Bill?"); then, for a question that only names institutions or Lists ("Lok Sabha vs Rajya
/// Sabha"), the glossary's governing provisions for them.
pub(super) fn pins(
    named: &[UserRef],
    defining: &[RefId],
    expansion: &Expansion,
    opts: &SearchOptions,
) -> Vec<Pin> {
    let mut pinned: Vec<Pin> = Vec::new();
    if !opts.pin {
        return pinned;
    }
    for r in named {
        if !pinned.iter().any(|(id, _)| *id == r.id) {
            pinned.push((r.id.clone(), r.clause.clone()));
        }
    }
    for id in defining {
        if !pinned.iter().any(|(p, _)| p == id) {
            pinned.push((id.clone(), None));
        }
    }
    if opts.name_pins && opts.glossary && expansion.names_only {
        for id in expansion
            .refs
            .iter()
            .filter_map(|r| r.parse::<RefId>().ok())
        {
            if !pinned.iter().any(|(p, _)| *p == id) {
                pinned.push((id, None));
            }
        }
    }
    pinned
}

/// Every provision a result can come from, known before the second stage runs (it only
/// permutes the first `head` fused hits): the pinned ones, then the fused head.
pub(super) fn prefetch(pinned: &[Pin], fused: &[Fused], head: usize) -> Vec<String> {
    let pinned_ids: Vec<String> = pinned.iter().map(|(id, _)| id.to_string()).collect();
    let head = fused
        .iter()
        .map(|f| f.ref_id.to_string())
        .filter(|id| !pinned_ids.contains(id))
        .take(head);
    pinned_ids.iter().cloned().chain(head).collect()
}

/// The hits shown: the pinned refs (with the named clause as the preview when there is one),
/// then the fused order, `k` in all. A ref the corpus does not hold is left out.
pub(super) fn hits(
    pinned: &[Pin],
    fused: &[Fused],
    info: &BTreeMap<String, ProvisionInfo>,
    k: usize,
) -> Vec<SearchHit> {
    let mut results: Vec<SearchHit> = Vec::new();
    for (id, clause) in pinned {
        let Some(p) = info.get(id.as_str()) else {
            continue;
        };
        let snippet = clause
            .as_deref()
            .and_then(|c| clause_text(p, c))
            .unwrap_or_else(|| snippet_of(&p.text));
        results.push(SearchHit {
            ref_id: id.to_string(),
            title: p.title.clone(),
            score: 1.0,
            pinned: true,
            legs: BTreeMap::new(),
            clause: clause.clone(),
            snippet,
            page: p.page_start,
            cites_named: false,
        });
    }
    let unpinned = fused
        .iter()
        .filter(|f| !pinned.iter().any(|(id, _)| *id == f.ref_id))
        .take(k);
    for f in unpinned {
        let Some(p) = info.get(f.ref_id.as_str()) else {
            continue;
        };
        results.push(SearchHit {
            ref_id: f.ref_id.to_string(),
            title: p.title.clone(),
            score: f.score,
            pinned: false,
            legs: f.legs.clone(),
            clause: None,
            snippet: snippet_of(&p.text),
            page: p.page_start,
            cites_named: false,
        });
    }
    results.truncate(k);
    results
}

pub(super) struct ProvisionInfo {
    title: String,
    page_start: i32,
    text: String,
    clauses: Vec<(String, i32, i32)>,
}

pub(super) async fn provision_info(
    pool: &PgPool,
    document_id: i64,
    ids: &[String],
) -> AppResult<BTreeMap<String, ProvisionInfo>> {
    if ids.is_empty() {
        return Ok(BTreeMap::new());
    }
    let provisions = sqlx::query_as::<_, (String, String, i32, String)>(
        "SELECT ref_id, title, page_start, text FROM provisions
         WHERE document_id = $2 AND ref_id = ANY($1)",
    )
    .bind(ids)
    .bind(document_id)
    .fetch_all(pool);
    let clauses = sqlx::query_as::<_, (String, String, i32, i32)>(
        "SELECT ref_id, label, start_char, end_char FROM clauses
         WHERE document_id = $2 AND ref_id = ANY($1) ORDER BY ref_id, seq",
    )
    .bind(ids)
    .bind(document_id)
    .fetch_all(pool);
    let (rows, clauses) = tokio::try_join!(provisions, clauses)?;
    let mut out: BTreeMap<String, ProvisionInfo> = rows
        .into_iter()
        .map(|(id, title, page_start, text)| {
            (
                id,
                ProvisionInfo {
                    title,
                    page_start,
                    text,
                    clauses: Vec::new(),
                },
            )
        })
        .collect();
    for (id, label, s, e) in clauses {
        if let Some(p) = out.get_mut(&id) {
            p.clauses.push((label, s, e));
        }
    }
    Ok(out)
}

/// The text of the clause the question named, if the provision has it.
fn clause_text(p: &ProvisionInfo, clause: &str) -> Option<String> {
    let (_, s, e) = p.clauses.iter().find(|(label, _, _)| label == clause)?;
    Some(
        p.text
            .chars()
            .skip(*s as usize)
            .take((*e - *s) as usize)
            .collect(),
    )
}

/// The opening of a provision, cut at a word boundary (a preview, not a quote).
fn snippet_of(text: &str) -> String {
    const MAX: usize = 240;
    if text.chars().count() <= MAX {
        return text.to_string();
    }
    let cut: String = text.chars().take(MAX).collect();
    match cut.rfind(' ') {
        Some(i) => format!("{}…", &cut[..i]),
        None => format!("{cut}…"),
    }
}

/// A cross-reference from a candidate provision: (from, to, to's title, to's first page).
pub(super) type HopEdge = (String, String, String, i32);

/// The cross-references of the candidate provisions, in the order their text makes them.
pub(super) async fn hop_edges(
    pool: &PgPool,
    document_id: i64,
    from: &[String],
) -> AppResult<Vec<HopEdge>> {
    if from.is_empty() {
        return Ok(Vec::new());
    }
    Ok(sqlx::query_as(
        "SELECT x.from_ref, x.to_ref, p.title, p.page_start
         FROM cross_refs x
         JOIN provisions p ON p.document_id = x.document_id AND p.ref_id = x.to_ref
         WHERE x.document_id = $2 AND x.from_ref = ANY($1)
         ORDER BY x.from_ref, x.seq",
    )
    .bind(from)
    .bind(document_id)
    .fetch_all(pool)
    .await?)
}

/// Marks retrieval's own first choice [`SearchHit::cites_named`] when the question names
/// provisions (`named`: refs it spells, not the glossary's names-only pins: "Lok Sabha" pins
/// Article 81, which 331 cites, yet asks about nothing else), retrieval put no pinned one
/// first, and the first one's text refers to one of them. Only the first: a provision
/// further down that cites them is what the one-hop expansion is for.
pub(super) fn mark_citing_named(
    results: &mut [SearchHit],
    fused: &[Fused],
    named: &[String],
    edges: &[HopEdge],
) {
    let Some(top) = fused.first().map(|f| f.ref_id.to_string()) else {
        return;
    };
    if named.is_empty() || results.iter().any(|h| h.pinned && h.ref_id == top) {
        return;
    }
    if let Some(first) = results.iter_mut().find(|h| h.ref_id == top) {
        first.cites_named = edges
            .iter()
            .any(|(from, to, _, _)| *from == top && named.contains(to));
    }
}

/// Provisions the top 3 hits cite, not already among the results, each with the first hit
/// that cites it; in constitutional order.
pub(super) fn supporting_from(edges: &[HopEdge], results: &[SearchHit]) -> Vec<Supporting> {
    let mut out: Vec<Supporting> = Vec::new();
    for hit in results.iter().take(3) {
        for (from, to, title, page) in edges.iter().filter(|e| e.0 == hit.ref_id) {
            if results.iter().any(|r| r.ref_id == *to) || out.iter().any(|s| s.ref_id == *to) {
                continue;
            }
            out.push(Supporting {
                ref_id: to.clone(),
                title: title.clone(),
                relation: format!("cited by {from}"),
                page: *page,
            });
        }
    }
    // Constitutional order reads better than the order of discovery.
    out.sort_by(
        |a, b| match (a.ref_id.parse::<RefId>(), b.ref_id.parse::<RefId>()) {
            (Ok(x), Ok(y)) => x.cmp(&y),
            _ => a.ref_id.cmp(&b.ref_id),
        },
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> RefId {
        s.parse().unwrap()
    }

    fn fused(ids: &[&str]) -> Vec<Fused> {
        ids.iter()
            .enumerate()
            .map(|(i, r)| Fused {
                ref_id: id(r),
                score: 1.0 / (i as f64 + 1.0),
                legs: BTreeMap::new(),
            })
            .collect()
    }

    fn info(ids: &[&str]) -> BTreeMap<String, ProvisionInfo> {
        ids.iter()
            .map(|r| {
                let p = ProvisionInfo {
                    title: format!("title of {r}"),
                    page_start: 1,
                    text: "(1) first clause. (2) second clause.".into(),
                    clauses: vec![("(1)".into(), 0, 17), ("(2)".into(), 18, 36)],
                };
                (r.to_string(), p)
            })
            .collect()
    }

    #[test]
    fn pins_keep_the_order_named_then_the_defining_then_the_names_only_refs_once_each() {
        let named = [
            UserRef {
                id: id("21"),
                clause: None,
            },
            UserRef {
                id: id("14"),
                clause: Some("(1)".into()),
            },
            UserRef {
                id: id("21"),
                clause: Some("(2)".into()),
            },
        ];
        let expansion = Expansion {
            refs: vec!["14".into(), "81".into()],
            names_only: true,
            ..Expansion::default()
        };
        let opts = SearchOptions::default();
        let defining = [id("366"), id("14")];
        let got: Vec<String> = pins(&named, &defining, &expansion, &opts)
            .iter()
            .map(|(id, c)| format!("{id}{}", c.as_deref().unwrap_or("")))
            .collect();
        assert_eq!(got, ["21", "14(1)", "366", "81"]);
        // Asking more than the names: the glossary's refs are a fused leg, not pins.
        let asks_more = Expansion {
            names_only: false,
            ..expansion.clone()
        };
        assert_eq!(pins(&named, &[], &asks_more, &opts).len(), 2);
        let unpinned = SearchOptions {
            pin: false,
            ..SearchOptions::default()
        };
        assert!(pins(&named, &defining, &expansion, &unpinned).is_empty());
    }

    #[test]
    fn prefetch_is_the_pins_then_the_head_without_repeats() {
        let pinned = vec![(id("21"), None)];
        let head = prefetch(&pinned, &fused(&["14", "21", "19", "32"]), 2);
        assert_eq!(head, ["21", "14", "19"]);
    }

    #[test]
    fn hits_put_pins_first_with_their_clause_and_keep_k() {
        let pinned = vec![(id("21"), Some("(2)".to_string())), (id("999"), None)];
        let order = fused(&["14", "21", "19", "32"]);
        let got = hits(&pinned, &order, &info(&["14", "21", "19", "32"]), 3);
        let ids: Vec<&str> = got.iter().map(|h| h.ref_id.as_str()).collect();
        // 999 is not in the corpus; 21 is not shown twice; k = 3 in all.
        assert_eq!(ids, ["21", "14", "19"]);
        assert!(got[0].pinned && got[0].score == 1.0);
        assert_eq!(got[0].snippet, "(2) second clause.");
        assert!(!got[1].pinned && got[1].snippet.starts_with("(1) first"));
    }

    #[test]
    fn only_retrievals_first_is_marked_and_only_when_it_cites_a_named_provision() {
        let edge = |from: &str, to: &str| (from.to_string(), to.to_string(), String::new(), 1);
        let pinned = vec![(id("SCH-9"), None)];
        let all = info(&["SCH-9", "31B", "31A", "13"]);
        let marked = |order: &[&str], named: &[&str], edges: &[HopEdge]| -> Vec<String> {
            let order = fused(order);
            let mut got = hits(&pinned, &order, &all, 4);
            let named: Vec<String> = named.iter().map(|n| n.to_string()).collect();
            mark_citing_named(&mut got, &order, &named, edges);
            got.iter()
                .filter(|h| h.cites_named)
                .map(|h| h.ref_id.clone())
                .collect()
        };
        let edges = [
            edge("31B", "SCH-9"),
            edge("31A", "SCH-9"),
            edge("31B", "31A"),
        ];
        assert_eq!(marked(&["31B", "31A", "13"], &["SCH-9"], &edges), ["31B"]);
        // Not the second, though it cites the Schedule too; nothing when the first cites
        // something else, or when retrieval put the named provision first itself.
        assert!(marked(&["13", "31A"], &["SCH-9"], &edges).is_empty());
        assert!(marked(&["31B", "31A"], &["SCH-9"], &[edge("31B", "31A")]).is_empty());
        assert!(marked(&["SCH-9", "31B"], &["SCH-9"], &edges).is_empty());
        // A pin the question does not spell (the glossary's, for a names-only question)
        // marks nothing.
        assert!(marked(&["31B", "31A", "13"], &[], &edges).is_empty());
    }

    #[test]
    fn snippets_cut_at_a_word() {
        let s = snippet_of(&"word ".repeat(100));
        assert!(s.ends_with('…') && s.chars().count() <= 241);
        assert_eq!(snippet_of("short text"), "short text");
    }
}
