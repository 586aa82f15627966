//! Reading an eligibility question: which office it asks about, and the facts the person
//! states about themselves ("Can I become President at 30?", "I'm an Indian citizen aged
//! twenty-three; can I contest a panchayat election?", "I have practised as an advocate in a
//! High Court for 8 years"). Pure. It reads only what is said: nothing is inferred, so a fact
//! not stated stays unknown for the checker to ask about.

use std::sync::LazyLock;

use regex::Regex;

use crate::eligibility::{normalise, Catalogue, FactValue, Facts, Office};

/// What a question says.
#[derive(Debug, Clone)]
pub struct Reading<'c> {
    pub office: Option<&'c Office>,
    pub facts: Facts,
}

/// The office a question names (the longest alias found, on word boundaries).
pub fn office_in<'c>(c: &'c Catalogue, question: &str) -> Option<&'c Office> {
    let q = format!(" {} ", normalise(question));
    let mut best: Option<(&Office, usize)> = None;
    for o in &c.offices {
        for name in o.aliases.iter().chain(std::iter::once(&o.name)) {
            let a = normalise(name);
            if !a.is_empty()
                && q.contains(&format!(" {a} "))
                && best.is_none_or(|(_, len)| a.len() > len)
            {
                best = Some((o, a.len()));
            }
        }
    }
    best.map(|(o, _)| o)
}

/// A number in digits or words ("30", "thirty", "twenty-three").
fn number(s: &str) -> Option<f64> {
    s.parse::<f64>()
        .ok()
        .or_else(|| nyaya_ingest::refid::cardinal_from_words(s).map(f64::from))
}

const NUM: &str = r"(\d{1,3}|(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?)|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)";

static AGE: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        format!(r"(?i)\b(?:i am|i'm|im|i’m)\s+(?:now\s+|only\s+|just\s+)?{NUM}\b(?:\s+(?:years?|yrs?)(?:\s+old)?)?(?:\s*[,.?!;]|\s+(?:and|but|so|now)\b|\s*$)"),
        format!(r"(?i)\b(?:aged?|age of|at the age of|at age)\s+{NUM}\b"),
        format!(r"(?i)\b{NUM}[- ](?:years?|yrs?)[- ]old\b"),
        format!(r"(?i)\b(?:become|be|contest|join|elected|appointed)\b[^.?!]{{0,60}}?\bat\s+{NUM}\b(?:\s+(?:years?|yrs?))?(?:\s*[?.!,]|\s*$)"),
        format!(r"(?i)\bat\s+{NUM}\b(?:\s+(?:years?|yrs?))?[^.?!]{{0,40}}?\bcan i\b"),
    ]
    .iter()
    .map(|p| Regex::new(p).expect("age pattern"))
    .collect()
});

static NOT_CITIZEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:i am|i'm|im)\s+(?:not\s+(?:an?\s+)?(?:indian|citizen)|a\s+foreigner|a\s+foreign\s+(?:national|citizen)|an?\s+oci\b|a\s+(?:us|uk|british|american|canadian|nepali|nepalese)\s+(?:citizen|national))|\bnot\s+(?:an?\s+)?(?:indian\s+)?citizen\s+of\s+india\b|\bi\s+(?:have|hold)\s+(?:a\s+)?(?:foreign|us|uk|american|british|canadian)\s+citizenship\b")
        .expect("pattern")
});

static CITIZEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:i am|i'm|im)\s+(?:an?\s+)?(?:indian\s+citizen|citizen\s+of\s+india|indian\b)|\bas\s+an?\s+indian\s+citizen\b|\bi\s+(?:hold|have)\s+(?:an?\s+)?indian\s+(?:citizenship|passport)\b")
        .expect("pattern")
});

/// (fact, pattern with the number as group 1).
static YEARS: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| {
    let y = r"(?:years?|yrs?)";
    [
        (
            "years_advocate_high_court",
            format!(r"(?i)\b(?:advocate|lawyer|practi[sc]ed?|practi[sc]ing|practice|at the bar)\b[^.?!]{{0,60}}?\b(?:for|since|over)\s+{NUM}\s+{y}"),
        ),
        (
            "years_advocate_high_court",
            format!(r"(?i)\b{NUM}\s+{y}(?:'|’)?\s+(?:of\s+)?(?:practice|experience as an advocate|at the bar|as an? (?:advocate|lawyer))"),
        ),
        (
            "years_judge_high_court",
            format!(r"(?i)\bjudge of (?:a|the) high court\b[^.?!]{{0,40}}?\bfor\s+{NUM}\s+{y}"),
        ),
        (
            "years_judicial_office",
            format!(r"(?i)\b(?:district judge|civil judge|judicial (?:officer|office|magistrate)|magistrate|sessions judge)\b[^.?!]{{0,40}}?\bfor\s+{NUM}\s+{y}"),
        ),
    ]
    .into_iter()
    .map(|(f, p)| (f, Regex::new(&p).expect("years pattern")))
    .collect()
});

/// The facts a question states, by the catalogue's fact ids.
pub fn facts_in(question: &str) -> Facts {
    let mut facts = Facts::new();
    if let Some(n) = AGE
        .iter()
        .find_map(|re| {
            re.captures(question)
                .and_then(|c| number(c.get(1)?.as_str()))
        })
        .filter(|n| (10.0..=120.0).contains(n))
    {
        facts.insert("age".into(), FactValue::Number(n));
    }
    if NOT_CITIZEN.is_match(question) {
        facts.insert("citizen".into(), FactValue::Bool(false));
    } else if CITIZEN.is_match(question) {
        facts.insert("citizen".into(), FactValue::Bool(true));
    }
    // The judge pattern is more specific than "practised … for N years": run it first.
    for (fact, re) in YEARS.iter().rev() {
        if facts.contains_key(*fact) {
            continue;
        }
        if let Some(n) = re
            .captures(question)
            .and_then(|c| number(c.get(1)?.as_str()))
        {
            facts.insert((*fact).into(), FactValue::Number(n));
        }
    }
    facts
}

/// The office and the stated facts.
pub fn read<'c>(c: &'c Catalogue, question: &str) -> Reading<'c> {
    Reading {
        office: office_in(c, question),
        facts: facts_in(question),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn age(q: &str) -> Option<f64> {
        match facts_in(q).get("age") {
            Some(FactValue::Number(n)) => Some(*n),
            _ => None,
        }
    }

    #[test]
    fn ages_in_digits_and_words() {
        assert_eq!(age("Can I become President at 30?"), Some(30.0));
        assert_eq!(age("Can I become President? I am 40."), Some(40.0));
        assert_eq!(age("I'm 23, can I be a panchayat member?"), Some(23.0));
        assert_eq!(
            age("I am twenty-three years old; can I contest?"),
            Some(23.0)
        );
        assert_eq!(age("A 34-year-old asks: can I be Governor?"), Some(34.0));
        assert_eq!(age("aged 26, can I stand for the Lok Sabha?"), Some(26.0));
        // Not ages: Articles, amendments, years of practice, amounts.
        assert_eq!(age("What does Article 30 say about minorities?"), None);
        assert_eq!(age("I am 12 years into practice as an advocate"), None);
        assert_eq!(age("Can I be MP under the 42nd Amendment?"), None);
        assert_eq!(age("I am in Delhi, can I vote?"), None);
    }

    #[test]
    fn citizenship_is_read_only_when_said() {
        let c = |q: &str| facts_in(q).get("citizen").copied();
        assert_eq!(
            c("I am an Indian citizen aged 30"),
            Some(FactValue::Bool(true))
        );
        assert_eq!(c("I'm a citizen of India"), Some(FactValue::Bool(true)));
        assert_eq!(
            c("I am not an Indian citizen, can I be MP?"),
            Some(FactValue::Bool(false))
        );
        assert_eq!(c("I am an OCI card holder"), Some(FactValue::Bool(false)));
        assert_eq!(c("Can I become President at 30?"), None);
        assert_eq!(c("Who is a citizen of India?"), None);
    }

    #[test]
    fn years_at_the_bar_and_on_the_bench() {
        let f = facts_in("I have practised as an advocate in a High Court for 8 years; can I become a High Court judge?");
        assert_eq!(
            f.get("years_advocate_high_court"),
            Some(&FactValue::Number(8.0))
        );
        let f = facts_in(
            "I have been a judge of a High Court for six years. Can I be a Supreme Court judge?",
        );
        assert_eq!(
            f.get("years_judge_high_court"),
            Some(&FactValue::Number(6.0))
        );
        assert!(!f.contains_key("years_advocate_high_court"));
        let f = facts_in("I was a district judge for 12 years");
        assert_eq!(
            f.get("years_judicial_office"),
            Some(&FactValue::Number(12.0))
        );
    }

    #[test]
    fn the_office_is_the_longest_name_said() {
        let c = Catalogue::builtin();
        let id = |q: &str| office_in(c, q).map(|o| o.id.as_str());
        assert_eq!(id("Can I become President at 30?"), Some("president"));
        assert_eq!(id("Can I become Vice President?"), Some("vice_president"));
        assert_eq!(
            id("I'm 23, can I be a panchayat member?"),
            Some("panchayat_member")
        );
        assert_eq!(
            id("Can I become a High Court judge?"),
            Some("high_court_judge")
        );
        assert_eq!(id("can i be an MP at 24"), Some("lok_sabha_member"));
        assert_eq!(id("What is Article 21?"), None);
    }
}
