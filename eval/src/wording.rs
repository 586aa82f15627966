//! Wording groups: a written set whose questions come as several wordings of one question
//! (`"group"` on each line, as in `eval/written/en_fresh.jsonl`), and whether every wording of
//! a group is led by an expected provision — the paraphrase suite's consistency, on questions
//! written apart from the golden set.

use std::collections::{BTreeMap, HashMap};

use nyaya_ingest::RefId;
use serde::Serialize;

use crate::golden::GoldenCase;

/// How consistently a run led the wordings of each group.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WordingCard {
    /// Groups of two or more answerable wordings.
    pub groups: usize,
    /// Groups whose every wording was led by an expected (or acceptable) ref.
    pub consistent: usize,
    pub consistency: f64,
}

impl WordingCard {
    /// `firsts` maps a case id to what led its result (`None`: refused or empty); a case not
    /// in it counts as led by nothing. `None` when the cases form no group.
    pub fn new(cases: &[GoldenCase], firsts: &HashMap<&str, Option<RefId>>) -> Option<WordingCard> {
        let mut groups: BTreeMap<&str, Vec<&GoldenCase>> = BTreeMap::new();
        for c in cases.iter().filter(|c| c.is_answerable()) {
            if let Some(g) = &c.group {
                groups.entry(g.as_str()).or_default().push(c);
            }
        }
        groups.retain(|_, wordings| wordings.len() >= 2);
        if groups.is_empty() {
            return None;
        }
        let led = |c: &GoldenCase| {
            firsts
                .get(c.id.as_str())
                .and_then(|f| f.as_ref())
                .is_some_and(|f| c.is_relevant(f))
        };
        let consistent = groups
            .values()
            .filter(|wordings| wordings.iter().all(|c| led(c)))
            .count();
        Some(WordingCard {
            groups: groups.len(),
            consistent,
            consistency: consistent as f64 / groups.len() as f64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::golden::GoldenSet;

    const SET: &str = r#"{"question": "Who appoints the Governor?", "ref": "155", "form": "written", "group": "A", "wording": "plain"}
{"question": "By whom is a State's Governor appointed?", "ref": "155", "form": "written", "group": "A", "wording": "alt"}
{"question": "How long is a Governor's term?", "ref": "156", "form": "written", "group": "B", "wording": "plain"}
{"question": "For how many years does a Governor hold office?", "ref": "156", "form": "written", "group": "B", "wording": "alt"}
{"question": "Who is the head of a State?", "ref": "154", "form": "written", "group": "C"}
{"question": "What is the Governor's salary?", "ref": "158", "form": "written"}"#;

    #[test]
    fn a_group_counts_only_when_every_wording_leads_with_its_provision() {
        let (set, _) = GoldenSet::parse_lenient(SET).unwrap();
        let cases = set.cases();
        let id = |s: &str| Some(s.parse::<RefId>().unwrap());
        let mut firsts: HashMap<&str, Option<RefId>> = HashMap::new();
        for (c, first) in
            cases
                .iter()
                .zip([id("155"), id("155"), id("156"), None, id("154"), id("1")])
        {
            firsts.insert(c.id.as_str(), first);
        }
        // C has one wording and the last line none: neither is a group.
        let card = WordingCard::new(cases, &firsts).unwrap();
        assert_eq!((card.groups, card.consistent), (2, 1));
        assert_eq!(card.consistency, 0.5);
        // A wording that was refused breaks its group.
        firsts.insert(cases[1].id.as_str(), None);
        assert_eq!(WordingCard::new(cases, &firsts).unwrap().consistent, 0);
    }

    #[test]
    fn a_set_without_groups_has_no_card() {
        let line = r#"{"question": "Who appoints the Governor?", "ref": "155", "form": "written"}"#;
        let (set, _) = GoldenSet::parse_lenient(line).unwrap();
        assert_eq!(WordingCard::new(set.cases(), &HashMap::new()), None);
    }
}
