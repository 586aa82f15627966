//! The golden set against the Constitution itself: every answerable case's evidence phrase is
//! printed, verbatim, in one of its expected or acceptable provisions on the page it cites, and
//! every provision the set names exists in the parse of the official 2024 PDF.
//!
//! Needs PDFium: `NYAYA_PDFIUM_LIB`, or `.cache/lib/libpdfium.so` (`make setup`).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;

use nyaya_eval::{Category, GoldenSet, Split};
use nyaya_ingest::{refid::find_refs, Provision, RefId};

const PDF: &str = "constitution-of-india-2024-05-01.pdf";
const MIN_CASES: usize = 150;
const MIN_MUST_REFUSE: usize = 20;

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
        let named: HashSet<RefId> = find_refs(&case.question)
            .into_iter()
            .map(|(r, _)| r.id)
            .collect();
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

#[test]
fn evidence_is_verbatim_on_the_cited_page() {
    let set = golden();
    let bytes = std::fs::read(repo().join("corpus").join(PDF)).expect("the corpus PDF");
    let doc = nyaya_ingest::parse_pdf(&bytes, &pdfium_lib())
        .expect("the official PDF parses (set NYAYA_PDFIUM_LIB or run `make setup`)");
    let by_id: HashMap<&RefId, &Provision> = doc.provisions.iter().map(|p| (&p.id, p)).collect();
    let texts: HashMap<&RefId, String> = doc
        .provisions
        .iter()
        .map(|p| (&p.id, normalise(&p.text)))
        .collect();

    let mut failures = Vec::new();
    let mut checked = 0;
    let mut cited: BTreeMap<&str, usize> = BTreeMap::new();
    for case in &set {
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
    println!(
        "{checked} evidence phrases found verbatim, in {} provisions",
        cited.len()
    );
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
