//! Properties of the pure parsers that read what users type: for arbitrary Unicode (and for
//! text built from the pieces legal questions are made of), none of them panics and each keeps
//! its contract. The request-level counterpart (no 5xx for arbitrary text over HTTP) is in
//! `tests/api.rs`.

use proptest::prelude::*;

use nyaya::answer::router::{route_by_rules, Turn};
use nyaya::answer::scrub::scrub;
use nyaya::input::check_text;
use nyaya::search::glossary::Glossary;
use nyaya::search::split::{comparison_sides, sub_queries};
use nyaya_ingest::refid::{find_refs, parse_user_ref};

/// Text made of the pieces questions are made of (references, numbers, connectives, Indic
/// script, controls, odd punctuation) as well as any character at all.
fn question_like() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        any::<char>().prop_map(String::from),
        "[a-zA-Z]{1,12}",
        Just("Article ".to_string()),
        Just("Art. 21-A".to_string()),
        Just("(4A)".to_string()),
        Just("clause (1) of article 19".to_string()),
        Just("Seventh Schedule".to_string()),
        Just("List II entry 5".to_string()),
        Just(" and ".to_string()),
        Just(" vs ".to_string()),
        Just(" or ".to_string()),
        Just("?".to_string()),
        Just(", ".to_string()),
        Just("अनुच्छेद २१".to_string()),
        Just("9876543210".to_string()),
        Just("\u{0}".to_string()),
        Just("\u{200d}".to_string()),
        Just("ǅ".to_string()),
        "[0-9]{1,14}",
        Just("Can I become President at ".to_string()),
        Just("I'm 23, can I be a panchayat member".to_string()),
        Just("I hold no office of profit".to_string()),
        Just(" not ".to_string()),
        Just("for 8 years".to_string()),
        Just("practised for 999 years".to_string()),
    ];
    prop::collection::vec(piece, 0..30).prop_map(|v| v.concat())
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), question_like()]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn ref_parsers_never_panic_and_ranges_are_in_bounds(s in text()) {
        let _ = parse_user_ref(&s);
        for (r, range) in find_refs(&s) {
            prop_assert!(s.get(range.clone()).is_some(), "{range:?} in {s:?}");
            prop_assert!(!r.id.as_str().is_empty());
        }
    }

    #[test]
    fn the_scrubber_never_panics_and_reports_what_it_changed(s in text()) {
        let out = scrub(&s);
        prop_assert_eq!(out.removed.is_empty(), out.text == s, "{:?} → {:?}", s, out);
    }

    #[test]
    fn splitting_never_panics_and_gives_non_empty_parts(s in text()) {
        for part in sub_queries(&s) {
            prop_assert!(!part.trim().is_empty(), "empty part of {s:?}");
        }
        if let Some([a, b]) = comparison_sides(&s) {
            prop_assert!(!a.trim().is_empty() && !b.trim().is_empty());
        }
    }

    #[test]
    fn routing_and_scope_never_panic(s in text(), prev in text()) {
        let history = [Turn { question: prev, refs: vec!["21".into()], answer: None }];
        let routing = route_by_rules(&s, &history);
        let _ = nyaya::scope::check(&s);
        let _ = Glossary::builtin().expand(&s);
        prop_assert!(routing.refs.iter().all(|r| !r.is_empty()));
    }

    #[test]
    fn eligibility_reading_never_panics_and_reads_only_known_facts(s in text()) {
        let c = nyaya::eligibility::Catalogue::builtin();
        let reading = nyaya::eligibility_text::read(c, &s);
        let _ = nyaya::eligibility_text::asked_office(c, &s);
        let _ = nyaya::eligibility_text::asks_eligibility(c, &s);
        prop_assert!(nyaya::eligibility::check_facts(c, &reading.facts).is_ok(), "{:?}", reading.facts);
        let _ = nyaya::answer::eligible::audit_question(&s);
    }

    #[test]
    fn text_is_refused_exactly_when_it_holds_a_control_character(s in text()) {
        let has_control = s.chars().any(|c| {
            (c.is_ascii_control() && !matches!(c, '\t' | '\n' | '\r')) || c == '\u{7f}'
        });
        prop_assert_eq!(check_text("q", &s).is_err(), has_control);
    }
}
