//! Offices the text names twice, plainly and qualified ("President" and "Vice-President"):
//! whether a provision's heading names only the qualified office of a question that asks
//! about the plain one. Pure; the offices are in `data/offices.toml`.
//!
//! The two Articles read alike ("Election of Vice-President", "Qualifications for election as
//! President"), and MiniLM, e5 and the question bank weigh the wording over the office: "What
//! is the minimum age to become President?" led with the Vice-President's 66(3). The tier
//! rule (`crate::tier`) cannot see it: both offices are the Union's.

use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;

#[derive(Deserialize)]
struct File {
    office: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    plain: String,
    qualified: Vec<String>,
}

struct Office {
    plain: Regex,
    qualified: Regex,
}

fn whole_words(phrases: &[&str]) -> Regex {
    let alternatives: Vec<String> = phrases
        .iter()
        .map(|p| regex::escape(p).replace("\\-", "[- ]?"))
        .collect();
    Regex::new(&format!(r"(?i)\b(?:{})s?\b", alternatives.join("|")))
        .expect("office phrases are escaped")
}

static OFFICES: LazyLock<Vec<Office>> = LazyLock::new(|| {
    let file: File = toml::from_str(include_str!("../../data/offices.toml"))
        .expect("data/offices.toml is valid (a unit test parses it)");
    file.office
        .iter()
        .map(|e| Office {
            plain: whole_words(&[e.plain.as_str()]),
            qualified: whole_words(&e.qualified.iter().map(String::as_str).collect::<Vec<_>>()),
        })
        .collect()
});

/// How a text mentions one office: plainly, qualified, or both.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Mention {
    plain: bool,
    qualified: bool,
}

impl Office {
    fn mentioned_in(&self, text: &str) -> Mention {
        let qualified = self.qualified.is_match(text);
        // "Vice-President" holds "President": the plain office is named only outside the
        // qualified phrases.
        let rest = self.qualified.replace_all(text, " ");
        Mention {
            plain: self.plain.is_match(&rest),
            qualified,
        }
    }
}

/// The offices a question names plainly and not qualified, as a mask over `data/offices.toml`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlainOffices(u32);

/// Which offices `question` asks about plainly ("the President", not "the Vice-President").
pub fn plain_in(question: &str) -> PlainOffices {
    let mut mask = 0;
    for (i, office) in OFFICES.iter().enumerate() {
        let n = office.mentioned_in(question);
        if n.plain && !n.qualified {
            mask |= 1 << i;
        }
    }
    PlainOffices(mask)
}

/// Whether `heading` names only the qualified form of an office the question asks about
/// plainly ("Election of Vice-President" for a question about the President; not "Vice-
/// President to act as President …", which names both).
pub fn heading_names_another(plain: PlainOffices, heading: &str) -> bool {
    OFFICES.iter().enumerate().any(|(i, office)| {
        let n = office.mentioned_in(heading);
        plain.0 & (1 << i) != 0 && n.qualified && !n.plain
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offices_parse() {
        assert!(OFFICES.len() >= 3);
        assert!(OFFICES.len() < 32, "the mask is a u32");
    }

    #[test]
    fn a_question_about_the_president_is_not_answered_by_the_vice_presidents_heading() {
        let plain = plain_in("What is the minimum age to become President?");
        assert!(heading_names_another(plain, "Election of Vice-President"));
        assert!(heading_names_another(
            plain,
            "Term of office of Vice President"
        ));
        assert!(!heading_names_another(
            plain,
            "Qualifications for election as President"
        ));
        // A heading that names both offices answers either.
        assert!(!heading_names_another(
            plain,
            "Vice-President to act as President or to discharge his functions during casual \
             vacancies in the office, or during the absence, of President"
        ));
        // A heading that names no office is never held back.
        assert!(!heading_names_another(plain, "Oath or affirmation"));
    }

    #[test]
    fn a_question_that_names_the_qualified_office_asks_about_it() {
        let plain = plain_in("Can the Vice-President act as President?");
        assert_eq!(plain, PlainOffices::default());
        assert_eq!(
            plain_in("vp acting as president still gets paid?"),
            PlainOffices::default()
        );
        assert!(!heading_names_another(plain, "Election of Vice-President"));
        let plain = plain_in("Who elects the Deputy Speaker?");
        assert!(!heading_names_another(
            plain,
            "The Speaker and Deputy Speaker of the House of the People"
        ));
    }

    #[test]
    fn other_offices_and_plurals() {
        // An acting Chief Justice is the same office filled for a time, not another office.
        let plain = plain_in("The Chief Justice of India is abroad. Who handles his duties?");
        assert!(!heading_names_another(
            plain,
            "Appointment of acting Chief Justice"
        ));
        let plain = plain_in("How is the Speaker removed?");
        assert!(heading_names_another(
            plain,
            "The Deputy Speaker of the Legislative Assembly"
        ));
        assert!(!heading_names_another(
            plain,
            "Power of the Deputy Speaker or other person to perform the duties of the office of, \
             or to act as, Speaker"
        ));
        // "presidential" is not the office.
        assert_eq!(plain_in("a presidential order"), PlainOffices::default());
    }
}
