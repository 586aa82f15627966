//! Verb-led glossary terms in the passive voice.
//!
//! A term written as an action, "dismiss a state government", is asked about as often in the
//! passive: "Can a State government be dismissed by the Union?", "How is the President
//! elected?", "How can a judge of the Supreme Court be removed?". The passive puts the object
//! first and the verb last, so the term's words never occur in its order. Rather than a second
//! spelling of every such term in `data/glossary.toml`, each term of the shape "VERB a|an|the
//! OBJECT" also matches "OBJECT [of/in/… up to four words] [can/be/is/was/get … not] VERB-ed".
//!
//! Pure: works on the glossary's tokens.

use super::{Pattern, Tok};

/// The object of a term must follow one of these for the term to be read as verb + object
/// ("remove a judge"); "enforce my rights" or "lost my job" are left alone.
const DETERMINERS: &[&str] = &["a", "an", "the"];

/// Words that may open a phrase qualifying the object before the verb: "a judge *of the
/// Supreme Court* be removed".
const PREPOSITIONS: &[&str] = &["of", "in", "for", "from", "at", "to", "on", "by"];

/// The longest qualifying phrase, in words, between the object and the verb.
const MAX_QUALIFIER: usize = 4;

/// Auxiliaries, modals and adverbs that may stand between the object and the participle.
const BETWEEN: &[&str] = &[
    "be", "is", "are", "was", "were", "been", "being", "get", "gets", "got", "getting", "can",
    "could", "may", "might", "must", "shall", "should", "will", "would", "not", "never", "ever",
    "also", "legally", "lawfully", "actually", "really", "just", "validly",
];

/// Past participles that do not take "-ed".
const IRREGULAR: &[(&str, &str)] = &[
    ("break", "broken"),
    ("bring", "brought"),
    ("choose", "chosen"),
    ("give", "given"),
    ("hold", "held"),
    ("keep", "kept"),
    ("lose", "lost"),
    ("make", "made"),
    ("pay", "paid"),
    ("put", "put"),
    ("set", "set"),
    ("split", "split"),
    ("take", "taken"),
    ("throw", "thrown"),
    ("write", "written"),
];

/// The passive reading of one verb-led term.
#[derive(Debug, Clone)]
pub(super) struct Passive {
    object: Pattern,
    participle: String,
}

impl Passive {
    /// The passive of a term "VERB a|an|the OBJECT…", or `None` for a term of another shape
    /// (a noun phrase, a verb in "-ing" or "-s", a determiner other than an article).
    pub(super) fn of(term: &Pattern) -> Option<Passive> {
        let words = &term.words;
        if words.len() < 3
            || !DETERMINERS.contains(&words[1].as_str())
            || term.gaps[..2].iter().any(|g| !g.is_empty())
        {
            return None;
        }
        let verb = words[0].as_str();
        // "signing the bill", "signs the bill": the file spells the base form too.
        if verb.ends_with("ing") || (verb.ends_with('s') && !verb.ends_with("ss")) {
            return None;
        }
        let object = Pattern {
            words: words[2..].to_vec(),
            gaps: term.gaps[2..].to_vec(),
            key: String::new(),
        };
        Some(Passive {
            object,
            participle: participle(verb),
        })
    }

    /// The object's first word, by which the glossary finds where a match may start.
    pub(super) fn first_word(&self) -> &str {
        &self.object.words[0]
    }

    /// Matches at token `start`: the end token, past the participle.
    pub(super) fn match_at(&self, toks: &[Tok], start: usize) -> Option<usize> {
        let (mut i, _) = self.object.match_at(toks, start)?;
        let is_between = |t: &Tok| BETWEEN.contains(&t.lower.as_str());
        if toks
            .get(i)
            .is_some_and(|t| PREPOSITIONS.contains(&t.lower.as_str()))
        {
            let limit = (i + 1 + MAX_QUALIFIER).min(toks.len());
            i = (i + 1..limit)
                .find(|&j| is_between(&toks[j]) || toks[j].lower == self.participle)?;
        }
        while toks.get(i).is_some_and(is_between) {
            i += 1;
        }
        let verb = toks.get(i)?;
        // The whole match is one clause: no punctuation inside it.
        let unbroken = toks[start + 1..=i]
            .iter()
            .all(|t| t.gap.is_empty() || t.gap == "'");
        (verb.lower == self.participle && unbroken).then_some(i + 1)
    }
}

/// The past participle of a regular or listed irregular English verb.
fn participle(verb: &str) -> String {
    if let Some((_, p)) = IRREGULAR.iter().find(|(v, _)| *v == verb) {
        return (*p).to_string();
    }
    if verb.ends_with('e') {
        return format!("{verb}d");
    }
    let chars: Vec<char> = verb.chars().collect();
    let vowel = |c: char| "aeiou".contains(c);
    if let [.., b, 'y'] = chars[..] {
        if !vowel(b) {
            return format!("{}ied", &verb[..verb.len() - 1]);
        }
    }
    // One syllable ending consonant, vowel, consonant doubles the last: "ban" → "banned".
    if let [.., a, b, c] = chars[..] {
        let one_syllable = chars.iter().filter(|&&c| vowel(c)).count() == 1;
        if one_syllable && !vowel(a) && vowel(b) && "bdgmnpt".contains(c) {
            return format!("{verb}{c}ed");
        }
    }
    format!("{verb}ed")
}

#[cfg(test)]
mod tests {
    use super::super::tokenize;
    use super::*;

    fn passive(term: &str) -> Option<Passive> {
        Passive::of(&Pattern::new(term).unwrap())
    }

    fn matches(term: &str, question: &str) -> bool {
        let p = passive(term).unwrap();
        let toks = tokenize(question);
        (0..toks.len()).any(|i| p.match_at(&toks, i).is_some())
    }

    #[test]
    fn participles() {
        for (verb, want) in [
            ("dismiss", "dismissed"),
            ("remove", "removed"),
            ("elect", "elected"),
            ("split", "split"),
            ("ban", "banned"),
            ("form", "formed"),
            ("deny", "denied"),
            ("pay", "paid"),
            ("sue", "sued"),
        ] {
            assert_eq!(participle(verb), want, "{verb}");
        }
    }

    #[test]
    fn only_verb_article_object_terms_have_a_passive() {
        assert!(passive("dismiss a state government").is_some());
        assert!(passive("sue the state").is_some());
        for term in [
            "lok sabha",
            "enforce my rights",
            "signing the bill",
            "signs the bill",
            "dismiss",
            "state government",
        ] {
            assert!(passive(term).is_none(), "{term}");
        }
    }

    #[test]
    fn the_object_comes_first_and_the_participle_last() {
        let t = "dismiss a state government";
        assert!(matches(
            t,
            "Can a State government be dismissed by the Union?"
        ));
        assert!(matches(t, "state governments dismissed under 356"));
        assert!(matches(
            "elect the president",
            "How is the President elected?"
        ));
        assert!(matches(
            "remove a judge",
            "How can a judge of the Supreme Court be removed?"
        ));
        assert!(matches("sue the state", "Can the State ever be sued?"));
        assert!(matches(
            "create a state",
            "How was the state of Telangana created?"
        ));
    }

    #[test]
    fn near_misses_do_not_match() {
        let t = "dismiss a state government";
        // Another verb, the active voice, a clause break, a qualifier too long.
        assert!(!matches(
            t,
            "Can a State government be formed by the Union?"
        ));
        assert!(!matches(t, "the dismissed state government"));
        assert!(!matches(t, "the state government, he said, was dismissed"));
        assert!(!matches(
            "remove a judge",
            "a judge of the court of the district of Pune be removed"
        ));
        // A qualifier must open with a preposition.
        assert!(!matches("remove a judge", "a judge who lied be removed"));
    }
}
