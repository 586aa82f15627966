//! Gates that decide what merges: `eval/gates.toml` (absolute bounds) and `eval/baseline.json`
//! (the figures the last accepted change reached). A run fails when a gated metric misses its
//! bound, or falls more than `max_drop` below its baseline (above, for metrics where lower is
//! better) — so a change that quietly drops recall fails even while the bound still holds.
//!
//! ```toml
//! max_drop = 0.02
//! [[gate]]
//! metric = "unpinned.recall_at_5"   # a name from Scorecard::flat
//! min = 0.90
//! group = "retrieval"               # `make test` runs this group on the dev split
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Gate {
    pub metric: String,
    #[serde(default)]
    pub min: Option<f64>,
    #[serde(default)]
    pub max: Option<f64>,
    /// Which runs check it ("retrieval", "answers" …).
    #[serde(default = "default_group")]
    pub group: String,
    #[serde(default)]
    pub why: Option<String>,
}

fn default_group() -> String {
    "retrieval".into()
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Gates {
    /// How far below its baseline a metric may fall (0.02 = 2 points).
    pub max_drop: f64,
    #[serde(rename = "gate")]
    pub gates: Vec<Gate>,
}

#[derive(Debug, thiserror::Error)]
pub enum GatesError {
    #[error("gates file: {0}")]
    Toml(#[from] toml::de::Error),
    #[error("gate {index} ({metric}): {problem}")]
    Invalid {
        index: usize,
        metric: String,
        problem: &'static str,
    },
}

impl Gates {
    pub fn parse(text: &str) -> Result<Gates, GatesError> {
        let gates: Gates = toml::from_str(text)?;
        for (index, g) in gates.gates.iter().enumerate() {
            let problem = match (g.min, g.max) {
                (None, None) => Some("needs min or max"),
                (Some(_), Some(_)) => Some("has both min and max; use two gates"),
                _ => None,
            };
            if let Some(problem) = problem {
                return Err(GatesError::Invalid {
                    index,
                    metric: g.metric.clone(),
                    problem,
                });
            }
        }
        Ok(gates)
    }
}

/// The baseline file: per split, the accepted figures by metric name.
pub type Baseline = BTreeMap<String, BTreeMap<String, f64>>;

/// One gate's verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GateResult {
    pub metric: String,
    pub value: Option<f64>,
    /// "≥ 0.900" or "≤ 0.050".
    pub bound: String,
    pub baseline: Option<f64>,
    pub passed: bool,
    /// Empty when passed.
    pub reason: String,
}

/// Checks every gate of `group` against a run's flat figures.
pub fn check(
    gates: &Gates,
    group: &str,
    figures: &BTreeMap<String, f64>,
    baseline: Option<&BTreeMap<String, f64>>,
) -> Vec<GateResult> {
    let eps = 1e-9;
    gates
        .gates
        .iter()
        .filter(|g| g.group == group)
        .map(|g| {
            let value = figures.get(&g.metric).copied();
            let base = baseline.and_then(|b| b.get(&g.metric).copied());
            let (bound, higher_is_better) = match (g.min, g.max) {
                (Some(m), _) => (format!("≥ {m:.3}"), true),
                (_, Some(m)) => (format!("≤ {m:.3}"), false),
                _ => (String::new(), true),
            };
            let mut reasons = Vec::new();
            match value {
                None => reasons.push("not measured in this run".to_string()),
                Some(v) => {
                    if let Some(m) = g.min.filter(|m| v + eps < *m) {
                        reasons.push(format!("{v:.3} is below the gate {m:.3}"));
                    }
                    if let Some(m) = g.max.filter(|m| v > *m + eps) {
                        reasons.push(format!("{v:.3} is above the gate {m:.3}"));
                    }
                    if let Some(b) = base {
                        if higher_is_better && v + gates.max_drop + eps < b {
                            reasons.push(format!(
                                "{v:.3} dropped more than {:.0} points below the baseline {b:.3}",
                                gates.max_drop * 100.0
                            ));
                        }
                        if !higher_is_better && v > b + gates.max_drop + eps {
                            reasons.push(format!(
                                "{v:.3} rose more than {:.0} points above the baseline {b:.3}",
                                gates.max_drop * 100.0
                            ));
                        }
                    }
                }
            }
            GateResult {
                metric: g.metric.clone(),
                value,
                bound,
                baseline: base,
                passed: reasons.is_empty(),
                reason: reasons.join("; "),
            }
        })
        .collect()
}

pub fn render(results: &[GateResult]) -> String {
    let mut s = String::new();
    let w = results.iter().map(|r| r.metric.len()).fold(34, usize::max);
    let _ = writeln!(
        s,
        "{:<w$} {:>8} {:>9} {:>9}  verdict",
        "gate", "value", "bound", "baseline"
    );
    for r in results {
        let _ = writeln!(
            s,
            "{:<w$} {:>8} {:>9} {:>9}  {}",
            r.metric,
            r.value.map(|v| format!("{v:.3}")).unwrap_or("–".into()),
            r.bound,
            r.baseline.map(|v| format!("{v:.3}")).unwrap_or("–".into()),
            if r.passed {
                "pass".to_string()
            } else {
                format!("FAIL: {}", r.reason)
            }
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const GATES: &str = r#"
max_drop = 0.02
[[gate]]
metric = "unpinned.recall_at_5"
min = 0.90
[[gate]]
metric = "false_refusal_rate"
max = 0.05
[[gate]]
metric = "citation_validity"
min = 1.0
group = "answers"
"#;

    fn figures(pairs: &[(&str, f64)]) -> BTreeMap<String, f64> {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    #[test]
    fn bounds_and_baseline_drops_both_fail() {
        let g = Gates::parse(GATES).unwrap();
        let base = figures(&[("unpinned.recall_at_5", 0.97), ("false_refusal_rate", 0.0)]);
        // Above the bound but 3 points below the baseline: fails.
        let r = check(
            &g,
            "retrieval",
            &figures(&[("unpinned.recall_at_5", 0.94), ("false_refusal_rate", 0.01)]),
            Some(&base),
        );
        assert_eq!(r.len(), 2, "the answers gate is another group");
        assert!(!r[0].passed && r[0].reason.contains("baseline"), "{r:?}");
        assert!(r[1].passed);
        // Below the bound.
        let r = check(
            &g,
            "retrieval",
            &figures(&[("unpinned.recall_at_5", 0.85), ("false_refusal_rate", 0.06)]),
            None,
        );
        assert!(r.iter().all(|x| !x.passed));
        // Within 2 points of the baseline and above the bound: passes.
        let r = check(
            &g,
            "retrieval",
            &figures(&[("unpinned.recall_at_5", 0.955), ("false_refusal_rate", 0.0)]),
            Some(&base),
        );
        assert!(r.iter().all(|x| x.passed), "{r:?}");
    }

    #[test]
    fn a_gate_on_an_unmeasured_metric_fails() {
        let g = Gates::parse(GATES).unwrap();
        let r = check(&g, "answers", &BTreeMap::new(), None);
        assert!(!r[0].passed && r[0].reason.contains("not measured"));
    }

    #[test]
    fn malformed_gates_are_typed_errors() {
        let both = "max_drop = 0.02\n[[gate]]\nmetric = \"x\"\nmin = 1.0\nmax = 2.0\n";
        assert!(matches!(
            Gates::parse(both),
            Err(GatesError::Invalid { index: 0, .. })
        ));
        assert!(matches!(
            Gates::parse("max_drop = 0.02\n[[gate]]\nmetrc = \"x\"\n"),
            Err(GatesError::Toml(_))
        ));
    }

    #[test]
    fn the_shipped_gates_parse() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("gates.toml");
        let text = std::fs::read_to_string(&path).unwrap();
        let g = Gates::parse(&text).unwrap();
        assert!(g
            .gates
            .iter()
            .any(|g| g.metric == "unpinned.recall_at_5" && g.group == "retrieval"));
    }
}
