//! Splits a question that asks several things ("Who commands the armed forces and who can pardon
//! a convicted person?") or tells a story over several sentences into sub-queries. Each
//! sub-query gets its own ranked list from each leg, and all lists are fused with the whole
//! question's, so one part's provision is not drowned by the other's. Pure and rule-based;
//! the answer pipeline's router reuses it for the `multi_part` route.

use std::sync::LazyLock;

use regex::Regex;

/// At most this many sub-queries (each costs an embedding and a lexical query).
pub const MAX_PARTS: usize = 4;
/// A part shorter than this many words is not a question of its own ("and why?").
const MIN_WORDS: usize = 3;

/// A conjunction followed by a new question word starts a new part.
static CONJOINED_QUESTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?:,\s*|\s+)(?P<c>and|or|also|but)\s+(?:(?:if|when)\s+so,?\s+)?(?P<q>who|whom|what|when|where|which|why|how|can|could|is|are|was|were|does|do|did|should|may|must|will|would|has|have)\b",
    )
    .expect("valid regex")
});

/// Sentence ends: `.`, `?`, `!` or `;` followed by space, but not after an abbreviation such
/// as "Art." or "No." or a single letter.
static SENTENCE_END: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[.?!;]+\s+").expect("valid regex"));

const ABBREVIATIONS: &[&str] = &[
    "art", "arts", "no", "nos", "cl", "sch", "v", "vs", "mr", "mrs", "dr", "st", "govt", "e.g",
    "i.e", "etc", "sec", "para",
];

fn words(s: &str) -> usize {
    s.split_whitespace().count()
}

fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut start = 0;
    for m in SENTENCE_END.find_iter(text) {
        let before = &text[start..m.start()];
        let last_word = before
            .rsplit(|c: char| c.is_whitespace() || c == '(')
            .next()
            .unwrap_or("")
            .to_lowercase();
        let abbreviation = m.as_str().starts_with('.')
            && (ABBREVIATIONS.contains(&last_word.as_str()) || last_word.chars().count() == 1);
        if abbreviation {
            continue;
        }
        out.push(text[start..m.end()].trim().to_string());
        start = m.end();
    }
    if start < text.len() {
        out.push(text[start..].trim().to_string());
    }
    out.retain(|s| !s.is_empty());
    out
}

/// `alternatives`: whether "…, or is that …" starts a part too (for search's lists; the
/// answer's parts are questions, and "or" mostly offers the same question's other answer).
fn split_conjoined(sentence: &str, alternatives: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut start = 0;
    for caps in CONJOINED_QUESTION.captures_iter(sentence) {
        let (Some(whole), Some(q)) = (caps.get(0), caps.name("q")) else {
            continue;
        };
        let or = caps
            .name("c")
            .is_some_and(|c| c.as_str().eq_ignore_ascii_case("or"));
        if or && !alternatives {
            continue;
        }
        let head = sentence[start..whole.start()].trim();
        if words(head) >= MIN_WORDS {
            out.push(head.to_string());
            start = q.start();
        }
    }
    let tail = sentence[start..].trim();
    if !tail.is_empty() {
        if words(tail) >= MIN_WORDS || out.is_empty() {
            out.push(tail.to_string());
        } else if let Some(last) = out.last_mut() {
            last.push(' ');
            last.push_str(tail);
        }
    }
    out
}

/// "X vs Y", "difference between X and Y", "compare X with Y", "how is X different from Y".
static COMPARISON: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)^\s*(?:what\s+is\s+the\s+|what\s+are\s+the\s+|explain\s+the\s+|tell\s+me\s+the\s+)?
        (?:
            (?:differences?|distinction)\s+(?:between|b/w|btw)\s+(?:the\s+)?(?P<a1>.+?)\s+(?:and|&|vs\.?|versus)\s+(?:the\s+)?(?P<b1>[^?.!]+?)
          | compare\s+(?:the\s+)?(?P<a2>.+?)\s+(?:and|with|to|&|vs\.?|versus)\s+(?:the\s+)?(?P<b2>[^?.!]+?)
          | how\s+(?:is|are|does|do)\s+(?:the\s+)?(?P<a3>.+?)\s+differ(?:ent)?\s+(?:from|to)\s+(?:the\s+)?(?P<b3>[^?.!]+?)
          | (?:the\s+)?(?P<a4>[^?.!]+?)\s+(?:vs\.?|versus|v/s)\s+(?:the\s+)?(?P<b4>[^?.!]+?)
        )\s*[?.!]*\s*$",
    )
    .expect("valid regex")
});

/// A side of a comparison longer than this many words is not a name but a clause.
const MAX_SIDE_WORDS: usize = 8;

/// The two sides of a comparison ("Lok Sabha vs Rajya Sabha" → ["Lok Sabha", "Rajya Sabha"]),
/// each searched as a part of its own; `None` when the question compares nothing.
pub fn comparison_sides(question: &str) -> Option<[String; 2]> {
    let c = COMPARISON.captures(question)?;
    let side = |names: [&str; 4]| {
        names
            .iter()
            .find_map(|n| c.name(n))
            .map(|m| m.as_str().trim().to_string())
    };
    let a = side(["a1", "a2", "a3", "a4"])?;
    let b = side(["b1", "b2", "b3", "b4"])?;
    let fits = |s: &str| (1..=MAX_SIDE_WORDS).contains(&words(s));
    (fits(&a) && fits(&b) && a.to_lowercase() != b.to_lowercase()).then_some([a, b])
}

/// The parts of a question, or an empty list when it asks one thing. Parts keep the user's
/// words (the answer's router puts an earlier part's subject in place of a pronoun, see
/// [`crate::answer::antecedent`]); the whole question is always searched as well. A comparison's parts are its sides.
pub fn sub_queries(question: &str) -> Vec<String> {
    if let Some(sides) = comparison_sides(question) {
        return sides.to_vec();
    }
    last_parts(pieces(question, true))
}

/// The parts of a question that each ask something, for the answer's `multi_part` route: as
/// [`sub_queries`], but a statement (a story's facts: "Police arrested my brother yesterday.")
/// is not a part of its own. It is joined to the question after it (or, at the end, to the one
/// before), so a story that asks one thing is one question. Empty when fewer than two parts ask.
pub fn question_parts(question: &str) -> Vec<String> {
    if let Some(sides) = comparison_sides(question) {
        return sides.to_vec();
    }
    // Where the asker marks questions, a sentence closed by a full stop is not one ("I belong to
    // an OBC community and was denied a benefit. Which body …?").
    let marked = question.contains('?');
    let mut parts: Vec<String> = Vec::new();
    let mut context: Vec<String> = Vec::new();
    for piece in pieces(question, false) {
        let closed = piece.trim_end().ends_with(['.', '!']);
        if asks(&piece) && !(marked && closed) {
            context.push(piece);
            parts.push(context.join(" "));
            context.clear();
        } else {
            context.push(piece);
        }
    }
    if !context.is_empty() {
        match parts.last_mut() {
            Some(last) => {
                last.push(' ');
                last.push_str(&context.join(" "));
            }
            None => parts.push(context.join(" ")),
        }
    }
    last_parts(parts)
}

/// The sentences and conjoined questions of `question`, each of at least [`MIN_WORDS`]; a
/// question that asks one frame of two phrases becomes two ([`shared_frame_parts`]).
fn pieces(question: &str, alternatives: bool) -> Vec<String> {
    sentences(question)
        .iter()
        .flat_map(|s| split_conjoined(s, alternatives))
        .flat_map(|p| match shared_frame_parts(&p) {
            Some(two) => two.to_vec(),
            None => vec![p],
        })
        .filter(|p| words(p) >= MIN_WORDS)
        .collect()
}

/// Words that open a phrase a frame may ask of twice ("to be …", "of the …").
const PHRASE_OPENERS: &str = "to|of|for|in|on|by|with|from|under|at|about|against";

/// "and" followed by a word that opens a phrase ("… and to be …", "… and of the …").
static AND_THEN_MARKER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"(?i),?\s+and\s+(?P<m>{PHRASE_OPENERS})\s+")).expect("valid regex")
});

/// The same words, anywhere.
static MARKER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"(?i)\b(?:{PHRASE_OPENERS})\b")).expect("valid regex"));

/// Question words: a phrase holding one asks a question of its own.
const WH_WORDS: &[&str] = &[
    "who", "whom", "what", "when", "where", "which", "why", "how",
];

/// A question that asks one thing of two phrases, the second opened by the word that opened
/// the first ("What is the minimum age to be President and to be a member of Lok Sabha?",
/// "What is the maximum strength of the Rajya Sabha and of the Lok Sabha?"), as the two
/// questions it asks: the frame with each phrase. The repeated word is what tells two asks
/// from one pair of nouns ("the powers of the President and the Governor", "freedom of speech
/// and expression" stay one question). `None` unless the frame asks and both phrases are short.
fn shared_frame_parts(piece: &str) -> Option<[String; 2]> {
    let caps = AND_THEN_MARKER.captures(piece)?;
    let (and, marker) = (caps.get(0)?, caps.name("m")?);
    let before = &piece[..and.start()];
    let second = piece[and.end()..].trim();
    // The first phrase opens at the word's last use before "and" that is followed by the
    // second phrase's first word ("members of | the Council of States and of | the House": both
    // open with "the"), else at the word's last use ("to contest …, and to become …").
    let uses: Vec<_> = MARKER
        .find_iter(before)
        .filter(|w| w.as_str().eq_ignore_ascii_case(marker.as_str()))
        .collect();
    let first_word = |s: &str| s.split_whitespace().next().map(str::to_lowercase);
    let opening = uses
        .iter()
        .rev()
        .find(|w| first_word(&before[w.end()..]) == first_word(second))
        .or(uses.last())?;
    let frame = &before[..opening.start()];
    let first = before[opening.end()..].trim().trim_end_matches(',');
    let bare = |s: &str| s.trim_end_matches(['?', '.', '!']).trim().to_lowercase();
    let short = |s: &str| (1..=MAX_SIDE_WORDS).contains(&words(s));
    // "a member both of Parliament and of a State Legislature" asks of the pair; "to levy tolls
    // and duties and to receive grants" does not say where its first phrase ends.
    let pair = frame
        .split_whitespace()
        .last()
        .is_some_and(|w| w.eq_ignore_ascii_case("both") || w.eq_ignore_ascii_case("between"));
    let joined = first
        .split_whitespace()
        .any(|w| w.eq_ignore_ascii_case("and"));
    // "…, and with effect from when?" asks a new question, not the frame's.
    let asks_anew = second
        .split_whitespace()
        .any(|w| WH_WORDS.contains(&bare_word(w).as_str()));
    if words(frame) < 2
        || !asks(frame)
        || pair
        || joined
        || asks_anew
        || !short(first)
        || !short(second)
        || bare(first) == bare(second)
    {
        return None;
    }
    let ends = if piece.trim_end().ends_with('?') {
        "?"
    } else {
        ""
    };
    let word = opening.as_str();
    Some([
        format!("{frame}{word} {first}{ends}"),
        format!("{frame}{word} {second}"),
    ])
}

/// `parts` when there are two or more, the last [`MAX_PARTS`] of them: a story ends with its
/// question, so the question and the facts nearest to it are kept.
fn last_parts(mut parts: Vec<String>) -> Vec<String> {
    if parts.len() < 2 {
        return Vec::new();
    }
    if parts.len() > MAX_PARTS {
        parts.drain(..parts.len() - MAX_PARTS);
    }
    parts
}

/// Words that open a question or a request.
const ASKING_WORDS: &[&str] = &[
    "who", "whom", "whose", "what", "whats", "when", "where", "which", "why", "how", "can",
    "could", "is", "are", "am", "was", "were", "does", "do", "did", "should", "shall", "may",
    "might", "must", "will", "would", "has", "have", "had", "isnt", "arent", "cant", "doesnt",
    "dont", "didnt", "wont", "explain", "tell", "describe", "list", "define", "compare", "give",
    "show", "name", "please",
];

/// Words a question may open with before its question word: "And can …", "Ok, what …"; or
/// one of [`OPENING_PREPOSITIONS`].
const LEADING_WORDS: &[&str] = &[
    "and", "but", "so", "or", "also", "then", "now", "ok", "okay", "well",
];

/// Prepositions a question or a part may open with before its question word: "On what date
/// …", "Under which article …", "for how long does he hold office?" (`answer::antecedent`
/// reads them as framing a part's first word, not naming anything).
pub(crate) const OPENING_PREPOSITIONS: &[&str] = &[
    "on", "in", "at", "for", "from", "by", "under", "to", "with", "within", "after", "before",
    "until", "till",
];

/// A word as the word lists hold it: lowercase, its letters and digits only ("What's" →
/// "whats").
fn bare_word(w: &str) -> String {
    w.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A part asks something when it ends with "?" or opens with a question word or a request
/// (after at most two of [`LEADING_WORDS`]); otherwise it states a fact.
fn asks(part: &str) -> bool {
    if part.trim_end().ends_with('?') {
        return true;
    }
    let opening: Vec<String> = part.split_whitespace().take(3).map(bare_word).collect();
    let lead = opening
        .iter()
        .take(2)
        .take_while(|w| {
            LEADING_WORDS.contains(&w.as_str()) || OPENING_PREPOSITIONS.contains(&w.as_str())
        })
        .count();
    opening
        .get(lead)
        .is_some_and(|w| ASKING_WORDS.contains(&w.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conjoined_questions_split() {
        assert_eq!(
            sub_queries("Who commands the armed forces and who can pardon a convicted person?"),
            [
                "Who commands the armed forces",
                "who can pardon a convicted person?"
            ]
        );
        assert_eq!(
            sub_queries("Do I have freedom of religion, and can religious minorities run their own schools?"),
            ["Do I have freedom of religion", "can religious minorities run their own schools?"]
        );
    }

    #[test]
    fn one_question_is_not_split() {
        assert!(sub_queries("Can the centre dismiss a state government?").is_empty());
        // "and" inside one question joins nouns, not questions.
        assert!(sub_queries("What are the powers of the President and the Governor?").is_empty());
        assert!(sub_queries("right to education").is_empty());
        // Abbreviations do not end sentences.
        assert!(sub_queries("What does Art. 21 say about life and liberty?").is_empty());
    }

    #[test]
    fn sentences_become_parts_and_long_stories_keep_their_end() {
        let story = "My landlord locked me out. The police refused to register my complaint. \
                     I was then arrested at night. Nobody told me the grounds. \
                     Can they keep me without producing me before a magistrate?";
        let parts = sub_queries(story);
        assert_eq!(parts.len(), MAX_PARTS);
        assert!(parts.last().unwrap().starts_with("Can they keep me"));
        assert!(!parts.iter().any(|p| p.contains("landlord")));
    }

    #[test]
    fn comparisons_split_into_their_sides() {
        for (q, a, b) in [
            ("Lok Sabha vs Rajya Sabha", "Lok Sabha", "Rajya Sabha"),
            ("lok sabha versus rajya sabha?", "lok sabha", "rajya sabha"),
            (
                "What is the difference between the Union List and the State List?",
                "Union List",
                "State List",
            ),
            (
                "compare fundamental rights with directive principles",
                "fundamental rights",
                "directive principles",
            ),
            (
                "How is a money bill different from a financial bill?",
                "a money bill",
                "a financial bill",
            ),
        ] {
            assert_eq!(sub_queries(q), [a, b], "{q}");
        }
        // Not comparisons: one side missing, or a sentence rather than names.
        assert!(comparison_sides("What is the difference?").is_none());
        assert!(comparison_sides("Kesavananda Bharati v. State of Kerala").is_none());
        assert!(comparison_sides(
            "Who appoints the judges of the Supreme Court and who decides what happens vs the rest of the courts of the country?"
        )
        .is_none());
    }

    #[test]
    fn a_story_that_asks_one_thing_is_one_question() {
        for q in [
            "Police arrested my brother yesterday. Within how many hours do they have to take him to a magistrate?",
            "I was convicted and served my sentence; can I be punished again for the same theft?",
            "Can my seat be declared vacant? I have missed every sitting for three months.",
            "My son studies in an aided school. The school wants him at prayers. I do not agree.",
            "I belong to an OBC community and was denied a benefit. Which body hears my complaint?",
        ] {
            assert!(question_parts(q).is_empty(), "{q}: {:?}", question_parts(q));
        }
        // Two questions stay two, each with the facts before it.
        assert_eq!(
            question_parts("My MLA defected. Who decides if he is disqualified? And can he then become a minister?"),
            [
                "My MLA defected. Who decides if he is disqualified?",
                "And can he then become a minister?"
            ]
        );
        assert_eq!(
            question_parts("Who commands the armed forces and who can pardon a convicted person?"),
            sub_queries("Who commands the armed forces and who can pardon a convicted person?")
        );
        assert_eq!(
            question_parts("Lok Sabha vs Rajya Sabha"),
            ["Lok Sabha", "Rajya Sabha"]
        );
        // A question may open with a preposition or a conjunction.
        assert_eq!(
            question_parts(
                "On what date did the constitution come into force, and did any article start earlier?"
            )
            .len(),
            2
        );
        assert!(asks("and under which article is it") && !asks("Under the law it is void"));
        // "…, or is that …" offers the same question's other answer: one question to answer,
        // two lists for search.
        let q = "Can a governor pardon a convict, or is that only the President's power?";
        assert!(question_parts(q).is_empty());
        assert_eq!(sub_queries(q).len(), 2);
    }

    #[test]
    fn one_frame_asked_of_two_phrases_is_two_questions() {
        assert_eq!(
            question_parts(
                "What is the minimum age to be President and to be a member of Lok Sabha?"
            ),
            [
                "What is the minimum age to be President?",
                "What is the minimum age to be a member of Lok Sabha?"
            ]
        );
        assert_eq!(
            sub_queries("What is the maximum strength of the Rajya Sabha and of the Lok Sabha?"),
            [
                "What is the maximum strength of the Rajya Sabha?",
                "What is the maximum strength of the Lok Sabha?"
            ]
        );
        // The phrase opens at the frame's last use of the word.
        assert_eq!(
            question_parts("What is the term of office of the President, and of the Governor?"),
            [
                "What is the term of office of the President?",
                "What is the term of office of the Governor?"
            ]
        );
        // The phrase opens where the same word opens the second one.
        assert_eq!(
            question_parts(
                "What is the maximum number of members of the Council of States and of the House of the People?"
            ),
            [
                "What is the maximum number of members of the Council of States?",
                "What is the maximum number of members of the House of the People?"
            ]
        );
        // A pair of nouns is one question; so is a frame that asks nothing, and a second
        // phrase that asks a question of its own.
        for q in [
            "What are the powers of the President and the Governor?",
            "Is there freedom of speech and expression?",
            "The right to life and to personal liberty is protected",
            "Can a person be a member both of Parliament and of a State Legislature?",
            "Can a State authorise panchayats to levy tolls and duties and to receive grants?",
            "Which amendment omitted Part VII, the Part on Part B States, and with effect from when?",
        ] {
            assert!(question_parts(q).is_empty(), "{q}");
        }
    }

    #[test]
    fn short_tails_stay_with_their_question() {
        assert!(sub_queries("Who appoints the Governor and why?").is_empty());
    }
}
