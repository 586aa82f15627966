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
