//! Reading an eligibility question: which office it asks about, and the facts the person
//! states about themselves ("Can I become President at 30?", "I'm an Indian citizen aged
//! twenty-three; can I contest a panchayat election?", "I have practised as an advocate in a
//! High Court for 8 years"). Pure. It reads only what is said: nothing is inferred, so a fact
//! not stated stays unknown for the checker to ask about.

use std::collections::BTreeMap;
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
    let q = format!(" {} ", any_state(&normalise(question)));
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

/// The office a question asks whether the asker can hold ("Can I become President at 30?",
/// "I'm 23, can I contest a panchayat election?", "Will the Governor appoint me Advocate
/// General?", "Am I eligible for the assembly election?"). Three things must hold:
/// - an office is named (the longest alias, in [`office_in`]'s sense);
/// - holding it is what is asked: a word of becoming ("become", "contest", "be appointed",
///   "join", "go to", "ban" after it in Hinglish …) within seven words before the name with no
///   other action between ("Can I be *arrested* by the Governor?" is not), or the question
///   asks "am I eligible / qualified" outright;
/// - the asker asks about themselves: "I"/"me" (or "main"/"meri") before that word, after any
///   other person ("My father is 70; can he become Vice President?" is not).
pub fn asked_office<'c>(c: &'c Catalogue, question: &str) -> Option<&'c Office> {
    let lower: Vec<String> = any_state(&normalise(question))
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(|w| texting(w).to_string())
        .collect();
    let asks_outright = ELIGIBLE_OUTRIGHT.is_match(&question.to_lowercase());
    // (office, how it was asked: 2 directly, 1 by "am I eligible" alone; alias length).
    let mut best: Option<(&Office, u8, usize)> = None;
    for o in &c.offices {
        for name in o.aliases.iter().chain(std::iter::once(&o.name)) {
            let alias: Vec<String> = normalise(name)
                .split(' ')
                .filter(|w| !w.is_empty())
                .map(String::from)
                .collect();
            if alias.is_empty() {
                continue;
            }
            let how = (0..lower.len().saturating_sub(alias.len() - 1))
                .filter(|&at| lower[at..at + alias.len()] == alias[..])
                .map(|at| {
                    if intends(&lower[..at])
                        || hinglish_intent(&lower[at + alias.len()..], &lower[..at])
                    {
                        2
                    } else if asks_outright
                        && first_person_at(&lower, lower.len())
                        && !lower[at.saturating_sub(7)..at]
                            .iter()
                            .any(|w| has(&reader().other_action, w))
                    {
                        1
                    } else {
                        0
                    }
                })
                .max()
                .unwrap_or(0);
            if how > 0 && best.is_none_or(|(_, h, len)| (how, alias.len()) > (h, len)) {
                best = Some((o, how, alias.len()));
            }
        }
    }
    best.map(|(o, _, _)| o)
}

/// Whether `question` asks if the asker can hold an office ([`asked_office`]) in its asking
/// sentence (the last that ends in "?", `answer::asks::asking_sentence`): a story's facts may
/// name the office the asker holds or wants ("I am a newly elected sarpanch. Which subjects can
/// be handed over to our panchayat?", "I want to contest the sarpanch election. Are some seats
/// reserved for women?") while the question asks something else. The asking sentence need
/// not name the office when it only asks "may I?" (`bare_ask` words: "Am I eligible?", "Is
/// that possible?").
pub fn asks_eligibility(c: &Catalogue, question: &str) -> bool {
    if asked_office(c, question).is_none() {
        return false;
    }
    let sentence = crate::answer::asks::asking_sentence(question);
    sentence == question.trim()
        || asked_office(c, sentence).is_some()
        || ELIGIBLE_OUTRIGHT.is_match(&sentence.to_lowercase())
        || only_asks_may_i(sentence)
}

/// Whether every word of `sentence` is a number or one that asks "may I?" and nothing more.
fn only_asks_may_i(sentence: &str) -> bool {
    normalise(sentence)
        .split(' ')
        .filter(|w| !w.is_empty())
        .all(|w| w.chars().all(|c| c.is_ascii_digit()) || has(&reader().bare_ask, texting(w)))
}

/// A normalised text with each State's name read as "the state": "a minister in Karnataka"
/// asks what "a minister in the state" does, and the offices' names need no State in them.
fn any_state(normalised: &str) -> String {
    let mut text = format!(" {normalised} ");
    for name in &reader().states {
        let name = format!(" {} ", normalise(name));
        while text.contains(&name) {
            text = text.replace(&name, " the state ");
        }
    }
    text.trim().to_string()
}

/// The reader's words (`[reader]` in `data/eligibility.toml`).
#[derive(Debug, serde::Deserialize)]
struct ReaderWords {
    intent: Vec<String>,
    participles: Vec<String>,
    passive: Vec<String>,
    other_action: Vec<String>,
    first_person: Vec<String>,
    other_person: Vec<String>,
    hinglish_verbs: Vec<String>,
    hinglish_self: Vec<String>,
    transitive: Vec<String>,
    bare_ask: Vec<String>,
    states: Vec<String>,
    texting: BTreeMap<String, String>,
}

fn reader() -> &'static ReaderWords {
    #[derive(serde::Deserialize)]
    struct File {
        reader: ReaderWords,
    }
    static W: LazyLock<ReaderWords> = LazyLock::new(|| {
        toml::from_str::<File>(include_str!("../data/eligibility.toml"))
            .expect("data/eligibility.toml has a valid [reader] (a unit test checks it)")
            .reader
    });
    &W
}

fn has(list: &[String], w: &str) -> bool {
    list.iter().any(|x| x == w)
}

/// Texting spellings read as the words they stand for ("cud i b mla").
fn texting(w: &str) -> &str {
    reader().texting.get(w).map(String::as_str).unwrap_or(w)
}

/// A word of becoming within seven words before an office name, nothing that is another action
/// between, said by the asker.
fn intends(before: &[String]) -> bool {
    let r = reader();
    let start = before.len().saturating_sub(7);
    let Some(verb) = (start..before.len()).rev().find(|&i| {
        let w = before[i].as_str();
        // "go" and "get" move somewhere: "go to the Rajya Sabha", not "get as an MLC".
        has(&r.intent, w)
            && (!matches!(w, "go" | "get")
                || before
                    .get(i + 1)
                    .is_some_and(|n| matches!(n.as_str(), "to" | "into" | "in")))
    }) else {
        return false;
    };
    // A participle only intends in the passive: "be elected to", "get appointed as"; "the
    // newly elected panchayat" names a body, not an ambition.
    if has(&r.participles, &before[verb])
        && !verb
            .checked_sub(1)
            .is_some_and(|i| has(&r.passive, &before[i]))
    {
        return false;
    }
    let between = &before[verb + 1..];
    let object_is_asker = between.first().is_some_and(|w| w == "me");
    // "Can I appoint a judge as arbitrator", "can I elect the President": the asker acting on
    // others; an act of choosing asks about the asker only when the asker is chosen.
    let asker_is_subject = first_person_at(before, verb) && !has(&r.transitive, &before[verb]);
    !between.iter().any(|w| has(&r.other_action, w)) && (asker_is_subject || object_is_asker)
}

/// Hinglish puts the verb after the office: "rashtrapati ban sakti hu", "sarpanch ka chunav
/// lad sakti hoon".
fn hinglish_intent(after: &[String], before: &[String]) -> bool {
    let r = reader();
    after.iter().take(3).any(|w| has(&r.hinglish_verbs, w))
        && (first_person_at(before, before.len()) || after.iter().any(|w| has(&r.hinglish_self, w)))
}

/// The last person named before `at` is the asker.
fn first_person_at(words: &[String], at: usize) -> bool {
    let r = reader();
    let end = at.min(words.len());
    let first = words[..end].iter().rposition(|w| has(&r.first_person, w));
    let other = words[..end].iter().rposition(|w| has(&r.other_person, w));
    match (first, other) {
        (Some(f), Some(o)) => f > o,
        (Some(_), None) => true,
        _ => false,
    }
}

/// "Am I eligible?", "am I qualified", "is there anything stopping me": the question asks
/// about eligibility in so many words.
static ELIGIBLE_OUTRIGHT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:am i|am i still|would i be|will i be|i am|i'm|im) (?:eligible|eligble|qualified)\b|\beligible\s*\?|\bqualified\s*\?|\banything stopping me\b|\bany chance\b.*\bme\b")
        .expect("pattern")
});

/// A number in digits or words ("30", "thirty", "twenty-three", "a decade").
fn number(s: &str) -> Option<f64> {
    match s.to_lowercase().as_str() {
        "a decade" => return Some(10.0),
        "two decades" => return Some(20.0),
        _ => {}
    }
    s.parse::<f64>()
        .ok()
        .or_else(|| nyaya_ingest::refid::cardinal_from_words(s).map(f64::from))
}

const NUM: &str = r"(\d{1,3}|a decade|two decades|(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?)|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)";

static AGE: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        format!(r"(?i)\b(?:i am|i'm|im|i’m|i m)\s+(?:now\s+|only\s+|just\s+)?{NUM}\b(?:\s+(?:years?|yrs?)(?:\s+old|\s+of\s+age)?)?(?:\s*[,.?!;]|\s+(?:and|but|so|now|right now|only|at present|currently|today)\b|\s*$)"),
        format!(r"(?i)\b(?:aged?|age of|at the age of|at age)\s+{NUM}\b"),
        format!(r"(?i)\b{NUM}[- ](?:years?|yrs?)[- ]old\b"),
        format!(r"(?i)\b(?:become|be|contest|join|elected|appointed)\b[^.?!]{{0,60}}?\bat\s+{NUM}\b(?:\s+(?:years?|yrs?))?(?:\s*[?.!,]|\s*$)"),
        format!(r"(?i)\bat\s+{NUM}\b(?:\s+(?:years?|yrs?))?[^.?!]{{0,40}}?\bcan i\b"),
        format!(r"(?i)\bi\s+(?:just\s+)?turned\s+{NUM}\b"),
        format!(r"(?i)\b(?:meri\s+)?umar\s+{NUM}\b"),
        format!(r"(?i)\b{NUM}\s+saal\b(?:\s+(?:ka|ki|ke|hai|hoon|hu|hun)\b|\s*[,.?!;]|\s*$)"),
    ]
    .iter()
    .map(|p| Regex::new(p).expect("age pattern"))
    .collect()
});

/// "for *the last* 8 years", "for *the past* twelve years".
const PERIOD: &str = r"(?:the\s+)?(?:last\s+|past\s+)?";

/// (fact, pattern with the number as group 1).
static YEARS: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| {
    let y = r"(?:years?|yrs?)";
    [
        (
            "years_advocate_high_court",
            format!(r"(?i)\b(?:advocate|lawyer|practi[sc]ed?|practi[sc]ing|practice|at the bar)\b[^.?!]{{0,60}}?\b(?:for|since|over)\s+{PERIOD}{NUM}\s+{y}"),
        ),
        (
            "years_advocate_high_court",
            format!(r"(?i)\b{NUM}\s+{y}(?:'|’)?\s+(?:of\s+)?(?:practice|experience as an advocate|at the bar|as an? (?:advocate|lawyer))"),
        ),
        (
            "years_advocate_high_court",
            format!(r"(?i)\bpracti[sc](?:ed|ing)\s+(?:law\s+)?{NUM}\s+{y}"),
        ),
        (
            "years_advocate_high_court",
            r"(?i)\b(a decade|two decades)\s+(?:at the bar|of practice|as an? (?:advocate|lawyer))"
                .to_string(),
        ),
        (
            "years_advocate_high_court",
            format!(r"(?i)\b{NUM}\s+saal\s+(?:se\s+|tak\s+)?(?:ki\s+)?(?:practice|vakalat|wakalat)"),
        ),
        (
            "years_judge_high_court",
            format!(r"(?i)\b(?:judge of (?:a|the) (?:\w+\s+)?(?:high court|hc)|(?:hc|high court) judge|on the high court bench)\b[^.?!]{{0,40}}?\b(?:for|since)\s+{PERIOD}{NUM}\s+{y}"),
        ),
        (
            "years_judge_high_court",
            format!(r"(?i)\b{NUM}\s+{y}\s+(?:now\s+)?(?:as|on)\s+(?:an?\s+|the\s+)?(?:\w+\s+)?(?:judge of (?:a|the) (?:\w+\s+)?(?:high court|hc)|(?:hc|high court) (?:judge|bench))"),
        ),
        (
            "years_judicial_office",
            format!(r"(?i)\b(?:district judge|civil judge|judicial (?:officer|office|magistrate)|magistrate|sessions judge)\b[^.?!]{{0,40}}?\b(?:for|since)\s+{PERIOD}{NUM}\s+{y}"),
        ),
        (
            "years_judicial_office",
            format!(r"(?i)\b{NUM}\s+{y}\s+as\s+(?:an?\s+)?(?:district judge|civil judge|judicial (?:officer|magistrate)|magistrate|sessions judge|additional district judge)"),
        ),
    ]
    .into_iter()
    .map(|(f, p)| (f, Regex::new(&p).expect("years pattern")))
    .collect()
});

/// "I have never practised", "never held any judicial office", "I've never been a judge":
/// zero years, said in so many words. (fact, pattern)
static NEVER_YEARS: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| {
    [
        (
            "years_advocate_high_court",
            r"(?i)\b(?:never|not)\s+(?:once\s+)?(?:been\s+)?(?:practi[sc]ed|enrolled|an? (?:advocate|lawyer)|at the bar)\b",
        ),
        (
            "years_judicial_office",
            r"(?i)\b(?:never|not)\s+(?:been\s+|held\s+|had\s+)?(?:an?\s+|any\s+)?(?:judge|judicial (?:office|officer|post)|magistrate)\b|\bkabhi\s+(?:bhi\s+)?judge\s+nah?i",
        ),
        (
            "years_judge_high_court",
            r"(?i)\b(?:never|not)\s+(?:been\s+)?(?:an?\s+|any\s+)?(?:judge|(?:high court|hc) judge)\b|\bkabhi\s+(?:bhi\s+)?judge\s+nah?i",
        ),
    ]
    .into_iter()
    .map(|(f, p)| (f, Regex::new(p).expect("never pattern")))
    .collect()
});

/// "I'll be 25 next year", "I turn 35 in June", "turning twenty-one next month": a birthday
/// still to come within the year, so the age now is one less.
static AGE_NEXT_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\b(?:i(?:'ll|’ll| will)\s+(?:only\s+)?(?:be|turn)\s+{NUM}\s+next\s+year\b|(?:i(?:'ll|’ll| will)?\s+(?:only\s+)?turn|(?:i am|i'm|i’m|im)?\s*turning)\s+{NUM}\s+(?:in\s+(?:january|february|march|april|may|june|july|august|september|october|november|december)|next\s+(?:month|week|year)|this\s+(?:month|week|year)|later\s+this\s+year|in\s+a\s+(?:few\s+)?(?:months?|weeks?|days?))\b)"
    ))
    .expect("pattern")
});

/// The facts a question states, by the catalogue's fact ids.
pub fn facts_in(question: &str) -> Facts {
    let mut facts = Facts::new();
    let next_year = AGE_NEXT_YEAR
        .captures(question)
        .and_then(|c| number(c.get(1).or(c.get(2))?.as_str()))
        .map(|n| n - 1.0);
    if let Some(n) = next_year.filter(|n| (10.0..=120.0).contains(n)) {
        facts.insert("age".into(), FactValue::Number(n));
    } else if let Some(n) = AGE
        .iter()
        .find_map(|re| {
            re.captures(question)
                .and_then(|c| number(c.get(1)?.as_str()))
        })
        .filter(|n| (10.0..=120.0).contains(n))
    {
        facts.insert("age".into(), FactValue::Number(n));
    }
    for (id, value) in stated_yes_no(question) {
        facts.insert(id, FactValue::Bool(value));
    }
    // The judge pattern is more specific than "practised … for N years": run it first.
    for (fact, re) in YEARS.iter().rev() {
        if facts.contains_key(*fact) {
            continue;
        }
        // Years of a career: a figure beyond a working life is not a statement of one.
        if let Some(n) = re
            .captures(question)
            .and_then(|c| number(c.get(1)?.as_str()))
            .filter(|n| (0.0..=80.0).contains(n))
        {
            facts.insert((*fact).into(), FactValue::Number(n));
        }
    }
    for (fact, re) in NEVER_YEARS.iter() {
        if !facts.contains_key(*fact) && re.is_match(question) {
            facts.insert((*fact).into(), FactValue::Number(0.0));
        }
    }
    facts
}

/// The yes/no facts a person states about themselves, by the catalogue's `said` and
/// `said_not` patterns, one statement at a time: a question ("can I …?") states nothing, nor
/// does a statement about someone else ("my father is …"); a negation before the match flips
/// it. Statements that contradict each other leave the fact unknown.
fn stated_yes_no(question: &str) -> Vec<(String, bool)> {
    let cues = cues();
    let mut said: BTreeMap<String, Option<bool>> = BTreeMap::new();
    for statement in statements(question) {
        for (id, pattern, polarity) in cues {
            let Some(m) = pattern.find(&statement) else {
                continue;
            };
            let value = polarity ^ negated(&statement, m.start(), m.end());
            let entry = said.entry(id.clone()).or_insert(Some(value));
            if *entry != Some(value) {
                *entry = None;
            }
        }
    }
    said.into_iter()
        .filter_map(|(id, v)| v.map(|v| (id, v)))
        .collect()
}

/// A negation in the ten words before a match ("I hold *no* office of profit", "I am *not*
/// disqualified under any law or under the anti-defection law"), or a Hindi one after it
/// ("sarkari naukri *nahi* hai"); a long statement's opening "not" does not reach its end.
fn negated(statement: &str, start: usize, end: usize) -> bool {
    let before: Vec<&str> = statement[..start].split_whitespace().collect();
    let near = before[before.len().saturating_sub(NEGATION_REACH)..].join(" ");
    let after: Vec<&str> = statement[end..].split_whitespace().take(4).collect();
    NEGATION.is_match(&near) || HINDI_NEGATION.is_match(&after.join(" "))
}

/// Words before a match a negation may stand in.
const NEGATION_REACH: usize = 10;

/// "nahi" and its spellings after the words they negate. Not "na": after a statement it is
/// most often the tag "isn't it" ("main nagrik hoon na").
static HINDI_NEGATION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(?:nahi|nahin|nhi)\b").expect("pattern"));

/// Each fact's compiled patterns (of the shipped catalogue), with the value a match states.
fn cues() -> &'static [(String, Regex, bool)] {
    static CUES: LazyLock<Vec<(String, Regex, bool)>> = LazyLock::new(|| {
        Catalogue::builtin()
            .facts
            .iter()
            .flat_map(|f| {
                let yes = f.said.iter().map(|p| (p, true));
                let no = f.said_not.iter().map(|p| (p, false));
                yes.chain(no).map(|(p, v)| {
                    (
                        f.id.clone(),
                        Regex::new(p).expect("checked when the catalogue was parsed"),
                        v,
                    )
                })
            })
            .collect()
    });
    &CUES
}

/// The question cut into statements (lower case): at sentence and clause punctuation and at
/// "and", "but", "if", "though", "because"; questions and statements about another person
/// dropped.
fn statements(question: &str) -> Vec<String> {
    let lower = question.to_lowercase().replace(['’', '‘'], "'");
    SPLIT
        .split(&lower)
        .map(str::trim)
        .filter(|s| !s.is_empty() && !ASKING.is_match(s) && !OTHER_PERSON.is_match(s))
        .map(String::from)
        .collect()
}

static SPLIT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"[.;?!,:\n]+|\s[-–—]\s|\b(?:and|but|if|though|although|because|whereas|when|while)\b",
    )
    .expect("pattern")
});

/// A clause that asks rather than states.
static ASKING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:can|could|may|am|will|would|should|do|does|is|are|who|what|how|when|which|why|whether)\b|\b(?:can|could|may|am|will|would|should|do|shall) i\b")
        .expect("pattern")
});

static OTHER_PERSON: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:he|she|they|his|her|their)\b|\bmy (?:father|mother|son|daughter|wife|husband|brother|sister|friend|uncle|aunt|cousin|client|colleague|neighbour|neighbor|boss)\b")
        .expect("pattern")
});

static NEGATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:not|no|never|nor|neither|none|without|gave up|given up|give up|renounced|renounce|surrendered|lost|no longer|koi)\b|n't\b")
        .expect("pattern")
});

/// The office asked about (as [`asked_office`] reads it, else the longest name said) and the
/// stated facts.
pub fn read<'c>(c: &'c Catalogue, question: &str) -> Reading<'c> {
    Reading {
        office: asked_office(c, question).or_else(|| office_in(c, question)),
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
    fn the_asking_sentence_must_ask_about_the_office() {
        let asks = |q: &str| asks_eligibility(Catalogue::builtin(), q);
        // Asked in the asking sentence, or asked there only as "may I?".
        assert!(asks("Can I become President? I am 40."));
        assert!(asks("I'm 24 and want to become an MLA. Am I eligible?"));
        assert!(asks(
            "I want to fight the assembly polls from my town. Do I qualify?"
        ));
        assert!(asks(
            "I'm 24 and want to contest my state assembly election. Am I old enough?"
        ));
        assert!(asks(
            "I want to contest for sarpanch. I'm 31. Is that possible?"
        ));
        // The story names the office; the question asks something else.
        assert!(!asks(
            "I want to contest the sarpanch election. Are some village council seats reserved \
             for women?"
        ));
        assert!(!asks(
            "I am a newly elected sarpanch. Which subjects can be handed over to our panchayat?"
        ));
        assert!(!asks(
            "I'm an atheist and just got elected as an MLA. Do I have to swear in the name of God?"
        ));
        // One sentence: as before.
        assert!(asks("I'm 23, can I be a panchayat member?"));
        assert!(!asks("What is the minimum age to become President?"));
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
    fn disqualifications_are_read_with_their_negations() {
        let f = |q: &str, id: &str| facts_in(q).get(id).copied();
        let yes = Some(FactValue::Bool(true));
        let no = Some(FactValue::Bool(false));
        assert_eq!(
            f("I'm 45, an Indian citizen, and I hold an office of profit under the State Government. Can I contest for President?", "holds_office_of_profit"),
            yes
        );
        assert_eq!(
            f(
                "I hold no office of profit; can I be an MP?",
                "holds_office_of_profit"
            ),
            no
        );
        assert_eq!(
            f("I was disqualified from the Lok Sabha for defection under the Tenth Schedule last year", "disqualified_by_defection"),
            yes
        );
        assert_eq!(
            f(
                "I am not disqualified under any law or under the anti-defection law",
                "disqualified_by_defection"
            ),
            no
        );
        assert_eq!(
            f(
                "I am not disqualified under any law or under the anti-defection law",
                "disqualified_by_law"
            ),
            no
        );
        assert_eq!(
            f(
                "I voluntarily took Canadian citizenship in 2015. Can I become a Lok Sabha MP?",
                "foreign_allegiance"
            ),
            yes
        );
        assert_eq!(
            f("I am an undischarged insolvent", "undischarged_insolvent"),
            yes
        );
        assert_eq!(
            f(
                "I was declared insolvent, but I have been discharged",
                "undischarged_insolvent"
            ),
            None,
            "contradicting statements leave it unknown"
        );
        assert_eq!(
            f(
                "I am thirty-five and an Indian citizen; can I be a Rajya Sabha member?",
                "citizen"
            ),
            yes
        );
        // Asked about, or said of someone else: not stated.
        assert_eq!(
            f(
                "Can I be an MP if I hold an office of profit?",
                "holds_office_of_profit"
            ),
            yes,
            "an 'if' clause states it"
        );
        assert_eq!(
            f(
                "Does holding an office of profit bar me?",
                "holds_office_of_profit"
            ),
            None
        );
        assert_eq!(
            f(
                "My father is a British citizen; can I be President?",
                "citizen"
            ),
            None
        );
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
    fn an_eligibility_question_asks_to_hold_an_office_oneself() {
        let c = Catalogue::builtin();
        let id = |q: &str| asked_office(c, q).map(|o| o.id.as_str());
        assert_eq!(id("Can I become President at 30?"), Some("president"));
        assert_eq!(id("Can I become President? I am 40."), Some("president"));
        assert_eq!(
            id("I'm 23, can I be a panchayat member?"),
            Some("panchayat_member")
        );
        assert_eq!(
            id("I'm 23, can I contest a panchayat election?"),
            Some("panchayat_member")
        );
        assert_eq!(
            id("I have practised as an advocate in a High Court for 8 years; can I become a High Court judge?"),
            Some("high_court_judge")
        );
        assert_eq!(id("Am I eligible to be an MLA?"), Some("mla"));
        assert_eq!(
            id("can i stand for the Lok Sabha"),
            Some("lok_sabha_member")
        );
        assert_eq!(
            id("Could I be appointed as Attorney General?"),
            Some("attorney_general")
        );
        assert_eq!(id("Can I become Vice President?"), Some("vice_president"));
        assert_eq!(
            id("Can I be the next Up-Rashtrapati?"),
            Some("vice_president")
        );
        assert_eq!(
            id("Can I be appointed a minister in the state government?"),
            Some("state_minister")
        );
        // Not about holding the office, or not about oneself.
        for q in [
            "Can I sue the President?",
            "Who can become President?",
            "What is the minimum age to become a governor?",
            "Can a person who has taken the citizenship of another country be an MP?",
            "Can I be arrested by order of the Governor?",
            "How old must I be to vote?",
            "What does Article 58 say?",
            "Can I write to my MP about a bill?",
            "My father is 70; can he become Vice President?",
            "I am in a youth group and we want to know: will the newly elected panchayat get a full term?",
            // The asker choosing someone, or voting, is not the asker being chosen.
            "Can I appoint a retired High Court judge as the sole arbitrator?",
            "As an MLA, can I elect the President?",
            "Am I eligible to vote in the Lok Sabha elections?",
        ] {
            assert_eq!(id(q), None, "{q}");
        }
        assert_eq!(
            id("Can the Chief Minister take me into the state cabinet?"),
            Some("state_minister")
        );
        assert_eq!(
            id("Can I be made a minister in Tamil Nadu though I'm not an MLA?"),
            Some("state_minister"),
            "a State's name reads as 'the state'"
        );
        assert_eq!(
            id("Can I contest the next presidential election?"),
            Some("president")
        );
    }

    #[test]
    fn birthdays_to_come_and_plainer_ages() {
        assert_eq!(
            age("I'll turn 35 in June. Can I be Vice-President?"),
            Some(34.0)
        );
        assert_eq!(
            age("turning twenty-one next month, can I be a panch?"),
            Some(20.0)
        );
        assert_eq!(age("I'm twenty right now"), Some(20.0));
        assert_eq!(age("i m 33 only, cn i b governor?"), Some(33.0));
        assert_eq!(
            age("I am 55 years of age and a citizen of India"),
            Some(55.0)
        );
        assert_eq!(age("32 saal ka hoon"), Some(32.0));
        assert_eq!(age("12 saal practice ki hai"), None);
    }

    #[test]
    fn zero_years_and_the_order_of_bar_and_bench() {
        let n = |q: &str, fact: &str| facts_in(q).get(fact).copied();
        let zero = Some(FactValue::Number(0.0));
        assert_eq!(
            n("I've never practised law", "years_advocate_high_court"),
            zero
        );
        assert_eq!(
            n(
                "I have never held any judicial office",
                "years_judicial_office"
            ),
            zero
        );
        assert_eq!(n("I've never been a judge", "years_judge_high_court"), zero);
        assert_eq!(
            n(
                "I practised for 12 years, never as a judge",
                "years_advocate_high_court"
            ),
            Some(FactValue::Number(12.0)),
            "a number said wins over a 'never' about something else"
        );
        assert_eq!(
            n(
                "a district judge, which I have been for the last 8 years",
                "years_judicial_office"
            ),
            Some(FactValue::Number(8.0))
        );
        let b = |q: &str, fact: &str| facts_in(q).get(fact).copied();
        assert_eq!(
            b(
                "Served 5 yrs as a sessions judge after 6 yrs at the bar",
                "district_judge_after_advocate"
            ),
            Some(FactValue::Bool(true))
        );
        assert_eq!(
            b(
                "I practised for 3 years and then joined the judiciary",
                "judicial_office_after_advocate"
            ),
            Some(FactValue::Bool(true))
        );
        assert_eq!(
            b("I practised for 3 years", "judicial_office_after_advocate"),
            None
        );
    }

    #[test]
    fn jobs_under_government_and_hindi_negation() {
        let f = |q: &str| facts_in(q).get("holds_office_of_profit").copied();
        assert_eq!(
            f("I'm a constable in the UP Police"),
            Some(FactValue::Bool(true))
        );
        assert_eq!(
            f("I work as a clerk in the district collectorate"),
            Some(FactValue::Bool(true))
        );
        assert_eq!(
            f("mere paas koi sarkari naukri nahi hai"),
            Some(FactValue::Bool(false))
        );
        assert_eq!(f("I run a shop"), None);
        let c = |q: &str| facts_in(q).get("citizen").copied();
        assert_eq!(c("main Bharat ka nagrik hoon"), Some(FactValue::Bool(true)));
        // "nahi" after the words it negates (the pattern once held backspaces for `\b` and
        // never matched).
        assert_eq!(
            c("main Bharat ka nagrik nahi hoon"),
            Some(FactValue::Bool(false))
        );
        assert_eq!(
            c("main Bharat ka nagrik hoon na"),
            Some(FactValue::Bool(true))
        );
        assert_eq!(
            c("I renounced my Indian citizenship when I became an Australian citizen"),
            Some(FactValue::Bool(false)),
            "both statements say no"
        );
    }

    #[test]
    fn the_readers_wordsparse() {
        let r = reader();
        assert!(has(&r.intent, "become") && has(&r.first_person, "i"));
        assert_eq!(texting("cud"), "could");
        assert_eq!(texting("president"), "president");
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
