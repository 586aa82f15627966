//! The golden set against the Constitution itself: every answerable case's evidence phrase is
//! printed, verbatim, in one of its expected or acceptable provisions on the page it cites;
//! every provision the set names exists in the parse of the official 2024 PDF; every Part and
//! every Schedule governs at least one case (the coverage table in `eval/golden/README.md` is
//! generated here); and the paraphrase suite has the size and shape the harness relies on.
//!
//! Needs PDFium: `NYAYA_PDFIUM_LIB`, or `.cache/lib/libpdfium.so` (`make setup`).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::sync::OnceLock;

use nyaya_eval::{Category, GoldenSet, ParaphraseSet, Split};
use nyaya_ingest::{refid::find_refs, ParsedDocument, Provision, RefId};

const PDF: &str = "constitution-of-india-2024-05-01.pdf";
const MIN_CASES: usize = 400;
const MIN_MUST_REFUSE: usize = 40;
const MIN_PARAPHRASE_GROUPS: [(Split, usize); 2] = [(Split::Dev, 80), (Split::Test, 30)];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn pdfium_lib() -> PathBuf {
    std::env::var_os("NYAYA_PDFIUM_LIB")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join(".cache/lib/libpdfium.so"))
}

fn golden() -> GoldenSet {
    let path = nyaya_eval::default_golden_path();
    GoldenSet::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The parse of the official PDF, once per test binary.
fn parsed() -> &'static ParsedDocument {
    static DOC: OnceLock<ParsedDocument> = OnceLock::new();
    DOC.get_or_init(|| {
        let bytes = std::fs::read(repo().join("corpus").join(PDF)).expect("the corpus PDF");
        nyaya_ingest::parse_pdf(&bytes, &pdfium_lib())
            .expect("the official PDF parses (set NYAYA_PDFIUM_LIB or run `make setup`)")
    })
}

fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn golden_set_shape() {
    let set = golden();
    let counts = set.counts();

    println!(
        "{:<16} {:>4} {:>5} {:>6}",
        "category", "dev", "test", "total"
    );
    for cat in Category::ALL {
        let dev = counts.get(&(cat, Split::Dev)).copied().unwrap_or(0);
        let test = counts.get(&(cat, Split::Test)).copied().unwrap_or(0);
        println!("{:<16} {dev:>4} {test:>5} {:>6}", cat.as_str(), dev + test);
    }
    let dev = set.split(Split::Dev).count();
    let test = set.split(Split::Test).count();
    let refuse = set.cases().iter().filter(|c| c.must_refuse).count();
    println!("{:<16} {dev:>4} {test:>5} {:>6}", "all", set.len());
    println!("must_refuse: {refuse}");

    assert!(set.len() >= MIN_CASES, "{} cases < {MIN_CASES}", set.len());
    assert!(refuse >= MIN_MUST_REFUSE, "{refuse} must_refuse cases");
    assert!(dev > 0 && test > 0, "both splits are present");
    let dev_share = dev as f64 / set.len() as f64;
    assert!(
        (0.60..=0.80).contains(&dev_share),
        "dev share {dev_share:.2} is outside 60–80%"
    );
    for cat in Category::ALL {
        for split in Split::ALL {
            assert!(
                counts.contains_key(&(cat, split)),
                "no {cat} case in the {split} split"
            );
        }
    }
}

/// `question_refs` are exactly the provisions the question names, as the service's own
/// reference finder reads them.
#[test]
fn question_refs_are_what_the_question_names() {
    let mut failures = Vec::new();
    for case in &golden() {
        let named = named_refs(&case.question);
        let listed: HashSet<RefId> = case.question_refs.iter().cloned().collect();
        if named != listed {
            let mut named: Vec<_> = named.into_iter().collect();
            named.sort();
            failures.push(format!(
                "{} (line {}): question_refs {:?}, the question names {:?}",
                case.id, case.line, case.question_refs, named
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// The provisions `question` names, as the service's own reference finder reads them.
fn named_refs(question: &str) -> HashSet<RefId> {
    find_refs(question).into_iter().map(|(r, _)| r.id).collect()
}

#[test]
fn evidence_is_verbatim_on_the_cited_page() {
    let (checked, provisions) = check_evidence(&golden());
    println!("{checked} evidence phrases found verbatim, in {provisions} provisions");
}

/// The clause sets (`eval/written/clauses.jsonl` and the fresh `clauses_fresh.jsonl`, one
/// question per clause it asks about) keep the golden contract too: each phrase is in its
/// provision, on its page.
#[test]
fn the_clause_sets_are_verbatim_and_never_name_their_provision() {
    for (file, cases, provisions) in [
        ("clauses.jsonl", 350, 250),
        ("clauses_fresh.jsonl", 440, 300),
    ] {
        clause_set_keeps_the_contract(file, cases, provisions);
    }
}

fn clause_set_keeps_the_contract(file: &str, min_cases: usize, min_provisions: usize) {
    let path = repo().join("eval/written").join(file);
    let set = GoldenSet::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (checked, provisions) = check_evidence(&set);
    assert!(checked >= min_cases, "{file}: {checked} clause cases");
    assert!(
        provisions >= min_provisions,
        "{file}: {provisions} provisions"
    );
    let mut named = Vec::new();
    for case in &set {
        let refs = named_refs(&case.question);
        let listed: HashSet<RefId> = case.question_refs.iter().cloned().collect();
        if case.expected_refs.iter().any(|r| refs.contains(r)) || refs != listed {
            named.push(case.id.as_str());
        }
    }
    assert!(
        named.is_empty(),
        "{file}: questions that name their provision, or whose question_refs are not what \
         they name: {named:?}"
    );
}

/// Checks that every case's refs are in the parse and its evidence phrase is verbatim in one of
/// its expected or acceptable provisions on the page it cites; panics with every problem.
/// Returns how many phrases were found, in how many provisions.
fn check_evidence(set: &GoldenSet) -> (usize, usize) {
    let doc = parsed();
    let by_id: HashMap<&RefId, &Provision> = doc.provisions.iter().map(|p| (&p.id, p)).collect();
    let texts: HashMap<&RefId, String> = doc
        .provisions
        .iter()
        .map(|p| (&p.id, normalise(&p.text)))
        .collect();

    let mut failures = Vec::new();
    let mut checked = 0;
    let mut cited: BTreeMap<&str, usize> = BTreeMap::new();
    for case in set {
        let refs = case
            .expected_refs
            .iter()
            .chain(&case.acceptable_refs)
            .chain(&case.question_refs);
        for r in refs {
            if !by_id.contains_key(r) {
                failures.push(format!("{}: {r} is not in the parse", case.id));
            }
        }
        let Some(ev) = &case.evidence else {
            continue;
        };
        let phrase = normalise(&ev.phrase);
        let candidates: Vec<&RefId> = case
            .expected_refs
            .iter()
            .chain(&case.acceptable_refs)
            .collect();
        let on_page: Vec<&&RefId> = candidates
            .iter()
            .filter(|r| {
                by_id
                    .get(**r)
                    .is_some_and(|p| (p.page_start..=p.page_end).contains(&ev.page))
            })
            .collect();
        let found = on_page
            .iter()
            .find(|r| texts.get(**r).is_some_and(|t| t.contains(&phrase)));
        match found {
            Some(r) => {
                checked += 1;
                *cited.entry(r.as_str()).or_insert(0) += 1;
            }
            None if on_page.is_empty() => failures.push(format!(
                "{} (line {}): no expected or acceptable ref spans p.{}: {}",
                case.id,
                case.line,
                ev.page,
                candidates
                    .iter()
                    .filter_map(|r| by_id.get(*r))
                    .map(|p| format!("{} pp.{}-{}", p.id, p.page_start, p.page_end))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            None => failures.push(format!(
                "{} (line {}): {:?} is not in the text of {:?}",
                case.id, case.line, ev.phrase, on_page
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
    (checked, cited.len())
}

/// The division of the text a provision belongs to: its Part for an Article, else itself
/// (the Preamble, a Schedule, an Appendix). Returns (key, title).
fn division(p: &Provision) -> (String, String) {
    match &p.part {
        Some(part) if p.id.kind() == nyaya_ingest::ProvisionKind::Article => {
            (format!("Part {}", part.number), part.title.clone())
        }
        _ => {
            // A Schedule's title lists its Parts; the table needs only the start.
            let title: String = p.title.chars().take(60).collect();
            let more = if p.title.chars().count() > 60 {
                "…"
            } else {
                ""
            };
            (p.id.label(), format!("{}{more}", title.trim_end()))
        }
    }
}

const COVERAGE_BEGIN: &str = "<!-- coverage:begin (generated by eval/tests/evidence.rs) -->";
const COVERAGE_END: &str = "<!-- coverage:end -->";

/// Every Part and every Schedule governs at least one answerable case, and
/// `eval/golden/README.md` shows the table (`NYAYA_BLESS=1` rewrites it).
#[test]
fn every_part_and_schedule_governs_a_case() {
    let set = golden();
    let doc = parsed();
    let by_id: HashMap<&RefId, &Provision> = doc.provisions.iter().map(|p| (&p.id, p)).collect();
    // Divisions in constitutional order, with their cases per split.
    let mut order: Vec<(String, String)> = Vec::new();
    for p in &doc.provisions {
        let d = division(p);
        if !order.iter().any(|(k, _)| *k == d.0) {
            order.push(d);
        }
    }
    let mut counts: HashMap<String, (usize, usize)> = HashMap::new();
    for case in set.cases().iter().filter(|c| !c.must_refuse) {
        let divisions: HashSet<String> = case
            .expected_refs
            .iter()
            .filter_map(|r| by_id.get(r))
            .map(|p| division(p).0)
            .collect();
        for d in divisions {
            let e = counts.entry(d).or_default();
            match case.split {
                Split::Dev => e.0 += 1,
                Split::Test => e.1 += 1,
            }
        }
    }
    let mut table = String::from(
        "| Part or Schedule | title | cases | dev | test |\n|---|---|---:|---:|---:|\n",
    );
    let mut uncovered = Vec::new();
    for (key, title) in &order {
        let (dev, test) = counts.get(key).copied().unwrap_or_default();
        table.push_str(&format!(
            "| {key} | {title} | {} | {dev} | {test} |\n",
            dev + test
        ));
        let required = key.starts_with("Part ") || key.ends_with("Schedule");
        if required && dev + test == 0 {
            uncovered.push(key.clone());
        }
    }
    let schedules = order
        .iter()
        .filter(|(k, _)| k.ends_with("Schedule"))
        .count();
    assert_eq!(schedules, 12, "the parse has twelve Schedules");
    assert!(
        uncovered.is_empty(),
        "no answerable case is governed by: {uncovered:?}"
    );

    let readme_path = repo().join("eval/golden/README.md");
    let readme = std::fs::read_to_string(&readme_path).expect("eval/golden/README.md");
    let (Some(b), Some(e)) = (readme.find(COVERAGE_BEGIN), readme.find(COVERAGE_END)) else {
        panic!("eval/golden/README.md lacks the coverage markers");
    };
    let block = format!("{COVERAGE_BEGIN}\n{table}{COVERAGE_END}");
    let current = &readme[b..e + COVERAGE_END.len()];
    if current != block {
        if std::env::var_os("NYAYA_BLESS").is_some() {
            let updated = format!(
                "{}{block}{}",
                &readme[..b],
                &readme[e + COVERAGE_END.len()..]
            );
            std::fs::write(&readme_path, updated).expect("write README");
        } else {
            panic!(
                "the coverage table in eval/golden/README.md is stale; run \
                 `NYAYA_BLESS=1 cargo test -p nyaya-eval --test evidence` and commit it:\n{table}"
            );
        }
    }
}

/// The paraphrase suite: enough groups in each split, and no rewording names a provision its
/// question does not (a rewording that names the Article would be a lookup, not a paraphrase;
/// one that loses the name — "preambel" — is still a fair rewording).
#[test]
fn paraphrase_suite_shape() {
    let set = golden();
    let path = nyaya_eval::paraphrase::default_paraphrases_path();
    let suite =
        ParaphraseSet::load(&path, &set).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    for (split, min) in MIN_PARAPHRASE_GROUPS {
        let n = suite.groups().iter().filter(|g| g.split == split).count();
        println!("{split}: {n} paraphrase groups");
        assert!(n >= min, "{n} {split} groups < {min}");
    }
    let mut failures = Vec::new();
    for g in suite.groups() {
        let case = set.get(&g.case).expect("validated on load");
        let listed: HashSet<&RefId> = case.question_refs.iter().collect();
        for w in g.rewordings.iter().chain(&g.romanised_hindi) {
            let named: Vec<RefId> = find_refs(w).into_iter().map(|(r, _)| r.id).collect();
            if !named.iter().all(|r| listed.contains(r)) {
                failures.push(format!(
                    "{} (line {}): {w:?} names {named:?}, its question {:?}",
                    g.case, g.line, case.question_refs
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
