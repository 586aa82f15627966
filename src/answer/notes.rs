//! The amendment notes an answer shows beside a quote: the footnotes on the quoted clause,
//! each told in one line ("Inserted by the Constitution (Eighty-sixth Amendment) Act, 2002,
//! w.e.f. 1-4-2010."), with what a court held about the amendment when the footnote says so.
//! Pure.
//!
//! The line is built from the note's parsed Act and date, which used to drop the rest of the
//! footnote. For most notes that rest is the replaced words; for eleven Articles it is the
//! Supreme Court striking the amendment down ("This amendment has been struck down by the
//! Supreme Court in … Advocates-on-Record Association … 16-10-2015"). Without it, an answer
//! quoting the National Judicial Appointments Commission (124A) said only "Inserted by the
//! Constitution (Ninety-ninth Amendment) Act, 2014", as if the Commission were law.

use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;

use crate::store::AmendmentView;

/// An amendment note as an answer shows it.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
pub struct AmendmentNote {
    /// inserted, substituted, omitted …
    pub kind: String,
    /// "Constitution (Eighty-sixth Amendment) Act, 2002"
    #[schema(required)]
    pub act: Option<String>,
    /// "1-4-2010"
    #[schema(required)]
    pub effective: Option<String>,
    /// The clause the note is about, if not the whole provision.
    #[schema(required)]
    pub clause: Option<String>,
    /// What a court held about the amendment, in the footnote's words: "This amendment has
    /// been struck down by the Supreme Court in … judgment dated 16-10-2015, AIR 2016 SC 117."
    #[schema(required)]
    pub ruling: Option<String>,
    /// "Inserted by the Constitution (Eighty-sixth Amendment) Act, 2002, w.e.f. 1-4-2010.",
    /// followed by the ruling when there is one.
    pub note: String,
}

/// What a court did to an amendment, as the footnotes say it.
static HELD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:struck down|declared (?:invalid|void|unconstitutional))\b")
        .expect("a valid pattern")
});

/// Where the footnotes' sentences about a ruling start: "This amendment …", "This section …",
/// "Section 4 has been …", "The words in italics …".
static RULING_SUBJECT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:This (?:amendment|section)|Section \d+|The words)\b")
        .expect("a valid pattern")
});

/// The footnote's sentence about a court's ruling on the amendment it records, to the
/// footnote's end (the case and its citation): `None` when it records none.
pub fn court_ruling(raw: &str) -> Option<String> {
    let held = HELD.find(raw)?.start();
    // The ruling's own subject, not an earlier sentence: "The first proviso was omitted …
    // The proviso was as under:— "Provided that …:" This amendment has been struck down …".
    let start = RULING_SUBJECT.find_iter(&raw[..held]).last()?.start();
    let ruling = raw[start..]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    Some(if ruling.ends_with('.') {
        ruling
    } else {
        ruling + "."
    })
}

/// The notes that concern a quote of `clause` (`None`: the whole provision): notes on the
/// whole provision, on that clause, and on clauses inside it.
pub fn notes_for(amendments: &[AmendmentView], clause: Option<&str>) -> Vec<AmendmentNote> {
    amendments
        .iter()
        .filter(|a| match (clause, a.clause.as_deref()) {
            (_, None) | (None, _) => true,
            // "(1)(c)" is inside "(1)"; "entry 2A" is not inside "entry 2".
            (Some(q), Some(c)) => {
                c == q || c.starts_with(&format!("{q}(")) || c.starts_with(&format!("{q} "))
            }
        })
        .map(note)
        .collect()
}

/// One footnote told in a line.
fn note(a: &AmendmentView) -> AmendmentNote {
    let verb = match a.kind.as_str() {
        "inserted" => "Inserted",
        "substituted" => "Substituted",
        "omitted" => "Omitted",
        "renumbered" => "Renumbered",
        "amended" => "Amended",
        other => other,
    };
    let mut line = match (&a.instrument, &a.effective_text) {
        // A footnote that records no change is told in its own words: "Now “thirty-three”
        // vide the Supreme Court (Number of Judges) Amendment Act, 2019 …" says what the
        // bracketed "[seven]" now reads; "note by the … Act" said nothing of it.
        _ if a.kind == "note" => a.raw.split_whitespace().collect::<Vec<_>>().join(" "),
        (Some(act), Some(eff)) if eff.chars().next().is_some_and(|c| c.is_ascii_digit()) => {
            format!("{verb} by the {act}, w.e.f. {eff}.")
        }
        (Some(act), Some(eff)) => format!("{verb} by the {act} ({eff})."),
        (Some(act), None) => format!("{verb} by the {act}."),
        _ => a.raw.clone(),
    };
    let ruling = court_ruling(&a.raw);
    // A note told by its raw text ("The words in italics struck down …") already says it.
    if let Some(r) = ruling.as_deref().filter(|r| !line.contains(r)) {
        line.push(' ');
        line.push_str(r);
    }
    AmendmentNote {
        kind: a.kind.clone(),
        act: a.instrument.clone(),
        effective: a.effective_text.clone(),
        clause: a.clause.clone(),
        ruling,
        note: line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(kind: &str, act: Option<&str>, eff: Option<&str>, raw: &str) -> AmendmentView {
        AmendmentView {
            kind: kind.into(),
            instrument: act.map(Into::into),
            amendment_number: None,
            section: None,
            effective_from: None,
            effective_text: eff.map(Into::into),
            clause: None,
            marker: None,
            page: 1,
            raw: raw.into(),
        }
    }

    const NJAC: &str = "Ins. by the Constitution (Ninety-ninth Amendment) Act, 2014, s. 3 (w.e.f. \
        13-4-2015). This amendment has been struck down by the Supreme Court in the case of \
        Supreme Court Advocates-on-Record Association and another Vs Union of India in its \
        judgment dated 16-10-2015, AIR 2016 SC 117.";

    #[test]
    fn a_struck_down_amendment_says_so() {
        let notes = notes_for(
            &[view(
                "inserted",
                Some("Constitution (Ninety-ninth Amendment) Act, 2014"),
                Some("13-4-2015"),
                NJAC,
            )],
            None,
        );
        let ruling = "This amendment has been struck down by the Supreme Court in the case of \
            Supreme Court Advocates-on-Record Association and another Vs Union of India in its \
            judgment dated 16-10-2015, AIR 2016 SC 117.";
        assert_eq!(notes[0].ruling.as_deref(), Some(ruling));
        assert_eq!(
            notes[0].note,
            format!(
                "Inserted by the Constitution (Ninety-ninth Amendment) Act, 2014, w.e.f. \
                 13-4-2015. {ruling}"
            )
        );
    }

    #[test]
    fn the_ruling_is_its_own_sentence_not_the_quoted_proviso_before_it() {
        let raw = "The first proviso was omitted by s. 2, ibid. The proviso was as under:— \
            \"Provided that in the case of appointment of a Judge other than the Chief Justice, \
            the Chief Justice of India shall always be consulted:\" This amendment has been \
            struck down by the Supreme Court in the case of Supreme Court Advocates-on-Record \
            Association and another Vs. Union of India in its judgment dated 16-10-2015, AIR \
            2016 SC 117.";
        assert!(court_ruling(raw)
            .unwrap()
            .starts_with("This amendment has been struck down"));
        // The 2022 edition prints no space after the date.
        let raw = "Subs. by s. 2, ibid. for \"provided further that\" (w.e.f.13-4-2015).This \
            amendment has been struck down by the Supreme Court";
        assert_eq!(
            court_ruling(raw).as_deref(),
            Some("This amendment has been struck down by the Supreme Court.")
        );
        let raw = "Subs. by the Constitution (Forty-second Amendment) Act, 1976, s. 4, for “the \
            principles specified in clause (b) or clause (c) of article 39” (w.e.f. 3-1-1977). \
            Section 4 has been declared invalid by the Supreme Court in Minerva Mills Ltd. and \
            Others Vs. Union of India AIR 1980 SC 1789.";
        assert_eq!(
            court_ruling(raw).as_deref(),
            Some(
                "Section 4 has been declared invalid by the Supreme Court in Minerva Mills Ltd. \
                 and Others Vs. Union of India AIR 1980 SC 1789."
            )
        );
    }

    #[test]
    fn a_note_that_records_no_change_is_told_in_its_own_words() {
        // The 2022 print's `*` note on 124(1)'s "[seven]" (the 2024 print's, since its star
        // was restored).
        let raw = "Now “thirty-three” vide the Supreme Court (Number of Judges) Amendment Act, \
                   2019 (37 of 2019), s. 2 (w.e.f. 9-8-2019).";
        let v = view(
            "note",
            Some("Supreme Court (Number of Judges) Amendment Act, 2019"),
            Some("9-8-2019"),
            raw,
        );
        assert_eq!(
            notes_for(&[v], None)[0].note,
            "Now “thirty-three” vide the Supreme Court (Number of Judges) Amendment Act, 2019 \
             (37 of 2019), s. 2 (w.e.f. 9-8-2019)."
        );
    }

    #[test]
    fn a_note_without_a_ruling_is_told_by_its_act_alone() {
        let raw = "Ins. by the Constitution (Eighty-sixth Amendment) Act, 2002, s. 2 (w.e.f. \
            1-4-2010).";
        assert_eq!(court_ruling(raw), None);
        let notes = notes_for(
            &[view(
                "inserted",
                Some("Constitution (Eighty-sixth Amendment) Act, 2002"),
                Some("1-4-2010"),
                raw,
            )],
            None,
        );
        assert_eq!(
            notes[0].note,
            "Inserted by the Constitution (Eighty-sixth Amendment) Act, 2002, w.e.f. 1-4-2010."
        );
        // A note told by its raw words says its ruling once.
        let raw = "The words in italics struck down by the Supreme Court in Kesavananda Bharati \
            vs. State of Kerala, AIR 1973, SC 1461.";
        let notes = notes_for(&[view("note", None, None, raw)], None);
        assert_eq!(notes[0].note, raw);
        assert_eq!(notes[0].ruling.as_deref(), Some(raw));
    }
}
