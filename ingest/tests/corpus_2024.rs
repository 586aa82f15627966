//! The 2024 edition, parsed for real. Every quirk listed in `../shared/notes/corpus-and-pdf.md`
//! is pinned here with the provision where the PDF shows it.
//!
//! The golden texts in `tests/golden/2024/` were checked word for word against the PDF pages
//! (pp.32, 37, 42, 47, 154–155, 201, 259–260, 262–263); a change to any of them is a change to
//! what users are quoted.

mod common;

use std::collections::BTreeSet;

use common::{clause_text, get, DOC_2024 as DOC};
use nyaya_ingest::amendment::AmendmentKind;
use nyaya_ingest::xref::XrefTarget;
use nyaya_ingest::{ClauseKind, ProvisionKind, RefId, Status};

#[test]
fn every_contents_entry_is_found_exactly_once() {
    let doc = &*DOC;
    assert_eq!(doc.edition, "As on 1st May, 2024");
    assert!(doc.missing.is_empty(), "missing: {:?}", doc.missing);
    assert!(
        doc.duplicates.is_empty(),
        "duplicates: {:?}",
        doc.duplicates
    );

    let listed: BTreeSet<&RefId> = doc.contents.iter().map(|e| &e.id).collect();
    let found: Vec<&RefId> = doc.provisions.iter().map(|p| &p.id).collect();
    let found_set: BTreeSet<&RefId> = found.iter().copied().collect();
    assert_eq!(found.len(), found_set.len(), "no provision twice");
    let preamble = RefId::preamble();
    let expected: BTreeSet<&RefId> = listed.iter().copied().chain([&preamble]).collect();
    assert_eq!(found_set, expected);

    let count = |k: ProvisionKind| doc.provisions.iter().filter(|p| p.kind == k).count();
    assert_eq!(
        count(ProvisionKind::Article),
        506,
        "the 2024 Contents lists 506 Articles"
    );
    assert_eq!(count(ProvisionKind::Schedule), 12);
    assert_eq!(count(ProvisionKind::Appendix), 3);
    assert_eq!(count(ProvisionKind::Preamble), 1);
    for n in 1..=12u8 {
        assert!(found_set.contains(&RefId::schedule(n)), "SCH-{n}");
    }
    // Provisions come out in constitutional order.
    assert!(found.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn golden_texts_are_exact() {
    for id in [
        "PREAMBLE", "14", "21", "21A", "31", "243I", "300A", "368", "370",
    ] {
        let golden = std::fs::read_to_string(format!(
            "{}/tests/golden/2024/{id}.txt",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("golden file");
        assert_eq!(
            get(&DOC, id).text,
            golden.trim_end_matches('\n'),
            "text of {id}"
        );
    }
    let police = clause_text(get(&DOC, "SCH-7"), "List II, entry 2");
    assert_eq!(
        police,
        "2. Police (including railway and village police) subject to the provisions of entry 2A of List I."
    );
}

#[test]
fn titles_parts_chapters_and_subheadings() {
    let p = get(&DOC, "21A");
    assert_eq!(p.title, "Right to education");
    assert_eq!(
        p.heading_line(),
        "Article 21A — Right to education (Part III — Fundamental Rights)"
    );
    assert_eq!((p.page_start, p.page_end), (42, 42));
    // Quirk 7: sub-headings are structure, not the text of the Article before them.
    assert_eq!(
        get(&DOC, "14").subheading.as_deref(),
        Some("Right to Equality")
    );
    assert_eq!(
        get(&DOC, "31A").subheading.as_deref(),
        Some("Saving of Certain Laws")
    );
    assert!(!get(&DOC, "13").text.contains("Right to Equality"));
    assert!(!get(&DOC, "30").text.contains("Saving of Certain Laws"));
    // Fake small caps: "C" + "HAPTER I.—T" + "HE" …
    let president = get(&DOC, "52");
    assert_eq!(president.chapter.as_deref(), Some("The Executive"));
    assert_eq!(
        president.part.as_ref().map(|x| x.title.as_str()),
        Some("The Union")
    );
    // p.143: fonts F7/F8 swap meaning; bold comes from the embedded font's weight.
    assert_eq!(
        get(&DOC, "239").title,
        "Administration of Union territories"
    );
    assert_eq!(
        get(&DOC, "239A").title,
        "Creation of local Legislatures or Council of Ministers or both for certain Union territories"
    );
    // A marginal title over two bold lines.
    assert_eq!(
        get(&DOC, "3").title,
        "Formation of new States and alteration of areas, boundaries or names of existing States"
    );
    // A marginal title printed in roman (inserted Articles): the title, not the text's start.
    for (id, title, start) in [
        (
            "43A",
            "Participation of workers in management of industries",
            "The State shall take steps",
        ),
        (
            "246A",
            "Special provision with respect to goods and services tax",
            "(1) Notwithstanding",
        ),
        (
            "361B",
            "Disqualification for appointment on remunerative political post",
            "A member of a House",
        ),
    ] {
        assert_eq!(get(&DOC, id).title, title);
        assert!(
            get(&DOC, id).text.starts_with(start),
            "{id}: {}",
            get(&DOC, id).text
        );
    }
}

#[test]
fn no_amendment_apparatus_survives_in_any_text() {
    // Brackets the PDF prints as text (not opened by a marker): "[seven]" in 124(1), the
    // "[whether before or after …]" of 368(4), 371D(3), and the "[Articles …]" headings and
    // tables of the Schedules and Appendix I.
    let printed_brackets: BTreeSet<&str> = [
        "124", "368", "371D", "SCH-1", "SCH-2", "SCH-3", "SCH-4", "SCH-5", "SCH-6", "SCH-8",
        "SCH-10", "APP-I",
    ]
    .into_iter()
    .collect();
    let marker_glued = regex::Regex::new(r"(^|\n)\d{1,2}[\[(][a-z0-9]").unwrap();
    for p in &DOC.provisions {
        assert!(!p.text.contains('*'), "{}: omission asterisks left", p.id);
        if !printed_brackets.contains(p.id.as_str()) {
            assert!(
                !p.text.contains(['[', ']']),
                "{}: a bracket left in {:?}",
                p.id,
                p.text
            );
        }
        assert!(
            !marker_glued.is_match(&p.text),
            "{}: a marker digit left at a paragraph start",
            p.id
        );
        assert!(!p.text.contains("  "), "{}: doubled space", p.id);
        assert_eq!(p.text.trim(), p.text, "{}: untrimmed", p.id);
        assert!(!p.text.is_empty(), "{}: empty", p.id);
    }
    // Quirk 1: nested markers `4[for the Union territory of 5[Puducherry]]`.
    assert!(get(&DOC, "239A")
        .text
        .starts_with("(1) Parliament may by law create for the Union territory of Puducherry—"));
    // Quirk 5: the footnote on p.43 quotes an un-notified clause (4) of Article 22.
    assert!(!get(&DOC, "22").text.contains("two months"));
    // … and p.262 quotes "370. All provisions …" from the C.O. 272 substitution.
    assert!(!get(&DOC, "370")
        .text
        .contains("All provisions of this Constitution, as amended"));
    // Every marker found its footnote but for six the PDF prints without one.
    assert!(DOC.warnings.len() <= 6, "{:#?}", DOC.warnings);
}

#[test]
fn amendment_notes_are_parsed_and_placed() {
    let notes = &get(&DOC, "21A").amendments;
    assert_eq!(notes.len(), 1);
    let n = &notes[0].note;
    assert_eq!(n.kind, AmendmentKind::Inserted);
    assert_eq!(
        n.instrument.as_deref(),
        Some("Constitution (Eighty-sixth Amendment) Act, 2002")
    );
    assert_eq!(n.amendment_number, Some(86));
    assert_eq!(n.effective_from.as_deref(), Some("2010-04-01"));
    assert_eq!(
        notes[0].clause, None,
        "the marker sits on the heading: the whole Article was inserted"
    );

    // "Subs. by s. 2, ibid." takes the Act from the note before it.
    let preamble = &get(&DOC, "PREAMBLE").amendments;
    assert_eq!(preamble.len(), 2);
    assert!(preamble
        .iter()
        .all(|a| a.note.kind == AmendmentKind::Substituted && a.note.amendment_number == Some(42)));

    // Markers inside clauses attach to them; quirk 1, markers after the number (`368. 1[`).
    let a368 = &get(&DOC, "368").amendments;
    assert_eq!(a368[0].clause, None);
    assert!(a368
        .iter()
        .any(|a| a.clause.as_deref() == Some("(4)") && a.note.amendment_number == Some(42)));
    assert!(a368
        .iter()
        .any(|a| a.clause.as_deref() == Some("(2)(a)") && a.note.amendment_number == Some(101)));
    let a334 = &get(&DOC, "334").amendments;
    assert!(a334
        .iter()
        .any(|a| a.clause.is_none() && a.note.amendment_number == Some(104)));
    assert_eq!(
        get(&DOC, "334").title,
        "Reservation of seats and special representation to cease after certain period"
    );

    // Quirk 2: inserted Articles start with `[`.
    let a31a = &get(&DOC, "31A").amendments;
    assert!(a31a.iter().any(|a| a.clause.is_none()
        && a.note.kind == AmendmentKind::Inserted
        && a.note.amendment_number == Some(1)));
}

#[test]
fn a_bracket_around_several_articles_gives_each_its_note() {
    // `[124A. … 124B. … 124C. … by it.]`: one insertion, one footnote marked on 124A's
    // heading. 124B and 124C are inside it too, and the Court's striking it down with them.
    for id in ["124A", "124B", "124C"] {
        let notes = &get(&DOC, id).amendments;
        assert!(
            notes.iter().any(|a| a.clause.is_none()
                && a.note.kind == AmendmentKind::Inserted
                && a.note.amendment_number == Some(99)
                && a.note.raw.contains("struck down")),
            "{id}: {notes:#?}"
        );
    }
    // "Arts. 371D and 371E ins. …": the note names both.
    for (id, amendment) in [("371E", 32), ("239AB", 69)] {
        assert!(
            get(&DOC, id)
                .amendments
                .iter()
                .any(|a| a.clause.is_none() && a.note.amendment_number == Some(amendment)),
            "{id}"
        );
    }
    // The Article after a bracket keeps its own notes only: 124D does not exist, and 125
    // is not inside the Commission's insertion.
    assert!(get(&DOC, "125")
        .amendments
        .iter()
        .all(|a| a.note.amendment_number != Some(99) || !a.note.raw.contains("s. 3 ")));
    // Schedules print brackets in tables that the stack cannot pair: none of theirs spreads.
    assert!(get(&DOC, "SCH-9")
        .amendments
        .iter()
        .all(|a| !a.note.raw.contains("renumbered as entries 5 to 30")));
}

#[test]
fn the_note_whose_star_the_print_lost_is_on_its_bracket() {
    // p.88 prints "[seven] other Judges" with no `*`, and "Now “thirty-three” vide …" as the
    // tail of footnote 1 (123(4)'s). The sentence is a note of 124(1)'s, as in the 2022 print.
    let judges = &get(&DOC, "124").amendments;
    assert!(
        judges.iter().any(|a| a.clause.as_deref() == Some("(1)")
            && a.note.raw.starts_with("Now “thirty-three” vide")),
        "{judges:#?}"
    );
    let ordinances = &get(&DOC, "123").amendments;
    assert!(
        ordinances
            .iter()
            .all(|a| !a.note.raw.contains("thirty-three")),
        "{ordinances:#?}"
    );
    assert!(!get(&DOC, "124").text.contains("[seven]"));
    assert!(get(&DOC, "124")
        .text
        .contains("not more than seven other Judges"));
}

#[test]
fn omitted_articles_are_dated_stubs() {
    // Quirk 3, the list in the corpus notes.
    let omitted: BTreeSet<&str> = DOC
        .provisions
        .iter()
        .filter(|p| p.status == Status::Omitted)
        .map(|p| p.id.as_str())
        .collect();
    let mut expected: BTreeSet<&str> = [
        "2A", "31", "31D", "32A", "131A", "144A", "226A", "228A", "238", "242", "257A", "259",
        "268A", "272", "278", "291", "306", "314", "329A", "359A", "362",
    ]
    .into_iter()
    .collect();
    let late: Vec<String> = (379..=391).map(|n| n.to_string()).collect();
    expected.extend(late.iter().map(String::as_str));
    assert_eq!(omitted, expected);

    let a31 = get(&DOC, "31");
    assert_eq!(a31.title, "Compulsory acquisition of property");
    assert!(a31
        .text
        .starts_with("Omitted by the Constitution (Forty-fourth Amendment) Act, 1978"));
    assert_eq!(a31.amendments[0].note.kind, AmendmentKind::Omitted);
    assert_eq!(
        a31.amendments[0].note.effective_from.as_deref(),
        Some("1979-06-20")
    );

    // A stub whose old title runs over two lines in regular type.
    assert_eq!(
        get(&DOC, "131A").title,
        "Exclusive jurisdiction of the Supreme Court in regard to questions as to constitutional validity of Central laws"
    );

    // 238: Part VII was omitted whole; the Article has no heading of its own.
    let a238 = get(&DOC, "238");
    assert_eq!(a238.part.as_ref().map(|p| p.number.as_str()), Some("VII"));
    assert!(a238
        .text
        .starts_with("Omitted by the Constitution (Seventh Amendment) Act, 1956"));
    assert_eq!(a238.amendments[0].note.amendment_number, Some(7));
}

#[test]
fn number_spellings_normalise_and_false_starts_are_rejected() {
    // Quirk 4: the Contents prints 243-I, 243Z-O, 371-I; the body 243I, 243ZO, 371-I.
    assert_eq!(
        get(&DOC, "243I").title,
        "Constitution of Finance Commission to review financial position"
    );
    assert_eq!(
        get(&DOC, "243ZO").title,
        "Right of a member to get information"
    );
    assert_eq!(
        get(&DOC, "371I").title,
        "Special provision with respect to the State of Goa"
    );
    // Quirk 5: "259. The Bihar …" in the Ninth Schedule is entry 259 there, not Article 259.
    let a259 = get(&DOC, "259");
    assert!(a259.page_end < 284 && a259.status == Status::Omitted);
    let ninth = get(&DOC, "SCH-9");
    assert!(clause_text(ninth, "entry 259").starts_with("259. The"));
    assert_eq!(
        ninth
            .clauses
            .iter()
            .filter(|c| c.kind == ClauseKind::ScheduleItem)
            .count(),
        281
    );
    // Articles end where the Schedules begin.
    assert!(DOC
        .provisions
        .iter()
        .filter(|p| p.kind == ProvisionKind::Article)
        .all(|p| p.page_end <= 283));
}

#[test]
fn clauses_have_labels_and_exact_offsets() {
    let a19 = get(&DOC, "19");
    for label in ["(1)", "(1)(a)", "(1)(g)", "(2)", "(6)"] {
        assert!(
            clause_text(a19, label).starts_with(&label[label.len() - 3..]),
            "{label}"
        );
    }
    assert_eq!(
        clause_text(a19, "(1)(a)"),
        "(a) to freedom of speech and expression;"
    );
    // A proviso holds the sub-clauses that follow it.
    let a368 = get(&DOC, "368");
    let proviso = a368
        .clauses
        .iter()
        .find(|c| c.label == "(2) proviso")
        .unwrap();
    let sub_a = a368.clauses.iter().find(|c| c.label == "(2)(a)").unwrap();
    assert!(proviso.start < sub_a.start && sub_a.end <= proviso.end);
    assert!(clause_text(a368, "(2) proviso").starts_with("Provided that if such amendment seeks"));
    // Items under sub-clauses, and an Explanation of a clause.
    let a370 = get(&DOC, "370");
    assert!(clause_text(a370, "(1)(b)(ii)").starts_with("(ii) such other matters"));
    assert!(clause_text(a370, "(1) Explanation")
        .starts_with("Explanation.—For the purposes of this article"));
    // Every clause of every provision slices inside its text and starts where its label says.
    for p in &DOC.provisions {
        let n = p.text.chars().count();
        for c in &p.clauses {
            assert!(c.start < c.end && c.end <= n, "{} {}", p.id, c.label);
            let t: String = p.text.chars().skip(c.start).take(c.end - c.start).collect();
            match c.kind {
                ClauseKind::Clause | ClauseKind::SubClause | ClauseKind::Item => {
                    let own = c.label.rsplit('(').next().unwrap();
                    assert!(
                        t.starts_with(&format!("({own}")),
                        "{} {}: {t:.40}",
                        p.id,
                        c.label
                    );
                }
                ClauseKind::Proviso => assert!(t.starts_with("Provided"), "{} {}", p.id, c.label),
                ClauseKind::Explanation => {
                    assert!(t.starts_with("Explanation"), "{} {}", p.id, c.label)
                }
                ClauseKind::ScheduleItem => assert!(
                    t.chars().next().is_some_and(|c| c.is_ascii_digit()),
                    "{} {}",
                    p.id,
                    c.label
                ),
            }
        }
    }
}

#[test]
fn schedules_are_split_into_their_items() {
    let seventh = get(&DOC, "SCH-7");
    let lists: Vec<usize> = ["List I,", "List II,", "List III,"]
        .iter()
        .map(|l| {
            seventh
                .clauses
                .iter()
                .filter(|c| c.label.starts_with(l))
                .count()
        })
        .collect();
    assert!(lists.iter().all(|n| *n >= 45), "{lists:?}");
    assert!(
        clause_text(seventh, "List I, entry 2A").starts_with("2A. Deployment of any armed force")
    );
    let eighth = get(&DOC, "SCH-8");
    assert_eq!(eighth.clauses.len(), 22, "22 languages");
    assert_eq!(clause_text(eighth, "entry 1"), "1. Assamese.");
    assert_eq!(clause_text(eighth, "entry 22"), "22. Urdu.");
    let tenth = get(&DOC, "SCH-10");
    assert!(clause_text(tenth, "para 2").starts_with("2. Disqualification on ground of defection"));
    let sixth = get(&DOC, "SCH-6");
    assert!(
        clause_text(sixth, "para 1").starts_with("1. Autonomous districts and autonomous regions")
    );
}

#[test]
fn cross_references_become_edges() {
    let targets = |id: &str| -> Vec<String> {
        get(&DOC, id)
            .cross_refs
            .iter()
            .map(|x| match &x.target {
                XrefTarget::Provision(r) => r.to_string(),
                XrefTarget::Part(p) => format!("Part {p}"),
            })
            .collect()
    };
    let t31a = targets("31A");
    assert!(
        ["13", "14", "19"]
            .iter()
            .all(|t| t31a.contains(&t.to_string())),
        "{t31a:?}"
    );
    assert!(targets("246").contains(&"SCH-7".to_string()));
    let t368 = targets("368");
    assert!(
        t368.contains(&"13".to_string()) && t368.contains(&"Part III".to_string()),
        "{t368:?}"
    );
    // "this Part" resolves to the Part the Article is in.
    assert!(targets("334").contains(&"Part XVI".to_string()));
    // Self references are not edges.
    assert!(DOC.provisions.iter().all(|p| p
        .cross_refs
        .iter()
        .all(|x| !matches!(&x.target, XrefTarget::Provision(r) if *r == p.id))));
}
