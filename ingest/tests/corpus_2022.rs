//! The 2022 edition through the same code and the same checks: a second printing with other
//! page offsets (its text block sits 144 pt higher), a symbol-font asterisk (U+F02A) and
//! footnote sizes of its own.

mod common;

use common::{get, DOC_2022 as DOC};
use nyaya_ingest::{ProvisionKind, RefId, Status};

#[test]
fn every_contents_entry_is_found_exactly_once() {
    assert_eq!(DOC.edition, "As on May, 2022");
    assert!(DOC.missing.is_empty(), "missing: {:?}", DOC.missing);
    assert!(
        DOC.duplicates.is_empty(),
        "duplicates: {:?}",
        DOC.duplicates
    );
    let count = |k: ProvisionKind| DOC.provisions.iter().filter(|p| p.kind == k).count();
    assert_eq!(count(ProvisionKind::Schedule), 12);
    assert_eq!(count(ProvisionKind::Appendix), 3);
    assert_eq!(DOC.provisions.len(), DOC.contents.len() + 1);
}

#[test]
fn differs_from_2024_where_the_amendments_do() {
    // The 106th Amendment (2023) inserted 330A, 332A and 334A, and 239AA(2)(ba).
    for id in ["330A", "332A", "334A"] {
        let id: RefId = id.parse().unwrap();
        assert!(
            DOC.provisions.iter().all(|p| p.id != id),
            "{id} is not in the 2022 edition"
        );
    }
    assert!(!get(&DOC, "239AA").text.contains("(ba)"));
    assert!(common::DOC_2024
        .provisions
        .iter()
        .any(|p| p.id.as_str() == "334A"));
    assert!(get(&common::DOC_2024, "239AA").text.contains("(ba)"));
    // The same Articles read the same where nothing changed.
    assert_eq!(get(&DOC, "21A").text, get(&common::DOC_2024, "21A").text);
    assert_eq!(get(&DOC, "14").text, get(&common::DOC_2024, "14").text);
}

#[test]
fn stubs_and_apparatus() {
    // A page whose footnote rule is drawn, not typed (p. 34): its notes are still notes, and
    // a page number set large beside the text (p. 382) is not the Eleventh Schedule's.
    assert!(get(&DOC, "4")
        .text
        .ends_with("for the purposes of article 368."));
    assert_eq!(get(&DOC, "3").amendments.len(), 3);
    // A marginal title set in roman, not bold, is still the title, not the text's opening.
    assert_eq!(get(&DOC, "232").title, "Interpretation");
    assert!(get(&DOC, "232")
        .text
        .starts_with("Articles 230, 231 and 232 subs."));
    assert!(get(&DOC, "SCH-11")
        .text
        .ends_with("Maintenance of community assets."));
    let a238 = get(&DOC, "238");
    assert_eq!(a238.status, Status::Omitted);
    assert!(a238
        .text
        .starts_with("Omitted by the Constitution (Seventh Amendment) Act, 1956"));
    // The asterisk of "1*[370." is a private-use glyph in this printing.
    assert_eq!(
        get(&DOC, "370").title,
        "Temporary provisions with respect to the State of Jammu and Kashmir"
    );
    for p in &DOC.provisions {
        assert!(
            !p.text.contains('*') && !p.text.contains('\u{F02A}'),
            "{}: asterisk left",
            p.id
        );
    }
}

/// The diff between the two printings lists what the 106th Amendment did as amendments, and
/// everything else it finds as a difference of printing; the list is pinned, so a parser
/// change that makes a layout difference show (or hides a real one) fails here.
#[test]
fn the_diff_between_the_editions_is_the_106th_amendment_and_the_printing() {
    use nyaya_ingest::diff::{compare, ChangeKind};
    let d = compare(&DOC, &common::DOC_2024);
    assert_eq!(d.from.date.as_deref(), Some("2022-05-01"));
    assert_eq!(d.to.date.as_deref(), Some("2024-05-01"));
    assert_eq!(d.ids(ChangeKind::Amended), ["239AA"]);
    assert_eq!(d.ids(ChangeKind::Inserted), ["330A", "332A", "334A"]);
    assert!(d.ids(ChangeKind::Omitted).is_empty());
    for c in d
        .changes
        .iter()
        .filter(|c| matches!(c.kind, ChangeKind::Amended | ChangeKind::Inserted))
    {
        assert!(
            c.acts.iter().any(|a| a.amendment_number == Some(106)
                && a.instrument == "Constitution (One Hundred and Sixth Amendment) Act, 2023"),
            "{}: {:?}",
            c.id,
            c.acts
        );
    }
    let a239aa = d.changes.iter().find(|c| c.id.as_str() == "239AA").unwrap();
    assert_eq!(
        a239aa.acts.len(),
        1,
        "the 1991 and 1992 Acts predate both editions"
    );
    assert_eq!(a239aa.acts[0].clause.as_deref(), Some("(2)(ba)"));
    // Differences of printing (punctuation, "the" in titles, renamed places, reprint fixes),
    // each read in both PDFs by hand; none is an amendment between the editions. (The Fourth
    // Schedule: 2022 prints a stray ".]" under Himachal Pradesh's figure; Appendix I's
    // signature columns, wrapped differently, differ only in reading order and count as layout.)
    const PRINTING: [&str; 39] = [
        "19", "31A", "54", "81", "82", "101", "108", "115", "124", "132", "133", "134", "140",
        "142", "143", "202", "205", "206", "243Y", "243ZK", "243ZL", "256", "279A", "284", "294",
        "338B", "343", "348", "364", "366", "370", "371A", "371G", "371J", "SCH-2", "SCH-4",
        "SCH-6", "SCH-9", "APP-II",
    ];
    let mut expected: Vec<&str> = PRINTING.to_vec();
    let order = |id: &str| d.changes.iter().position(|c| c.id.as_str() == id);
    expected.sort_by_key(|id| order(id));
    assert_eq!(d.ids(ChangeKind::Revised), expected);
    // A layout difference alone is no difference: 2022 prints "tax ;" where 2024 prints "tax;".
    assert!(d.unchanged > 470, "{}", d.unchanged);
}
