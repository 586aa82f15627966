//! What a question asks for beyond its subject (an amount, a time, a limit, who decides, a
//! consequence), and whether a clause carries that kind of answer. Pure; the phrases are data
//! (`data/asks.toml`).
//!
//! The quote step scores a provision's clauses by their closeness to the question and the
//! share of its words they hold; both favour the clause that repeats the question's subject.
//! "What majority does Parliament need to impeach the President?" shares "impeach" and
//! "President" with the clause that starts the impeachment, and asks for what the clause
//! with "two-thirds" says. [`Asks::carried`] says how much of what the question asks a clause
//! carries, and the quote step adds it, weighted, when it chooses a provision's clause (never
//! when provisions compete for the lead).

use std::sync::LazyLock;

/// One kind of thing a question can ask for.
#[derive(Debug, Clone)]
struct Kind {
    name: String,
    question: Vec<Phrase>,
    span: Vec<Phrase>,
}

/// A phrase as words; a word ending in `*` matches any word it begins.
#[derive(Debug, Clone, PartialEq)]
struct Phrase(Vec<String>);

impl Phrase {
    fn parse(s: &str) -> Phrase {
        Phrase(words(s))
    }

    fn occurs_in(&self, text: &[String]) -> bool {
        let n = self.0.len();
        n > 0 && text.len() >= n && text.windows(n).any(|w| self.matches(w))
    }

    fn matches(&self, window: &[String]) -> bool {
        self.0
            .iter()
            .zip(window)
            .all(|(p, w)| match p.strip_suffix('*') {
                Some(prefix) => w.starts_with(prefix),
                None => p == w,
            })
    }
}

/// Lower-cased words; anything not a letter, a digit or `*` separates them, so a hyphen does
/// ("two-thirds" is "two thirds").
fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '*'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The sentence of `text` that asks: from the end of the sentence before the last "?" to
/// it; the whole text when nothing ends in "?". A full stop ends a sentence only after a word
/// of four letters or more, or an acronym in capitals ("… elected as an MLA."), so "Art. 21"
/// and "No. 5" do not.
pub fn asking_sentence(text: &str) -> &str {
    let Some(end) = text.rfind('?') else {
        return text.trim();
    };
    let before = &text[..end];
    let start = before
        .char_indices()
        .rev()
        .find(|&(i, c)| {
            let ends_one = match c {
                '?' | '!' => true,
                '.' => {
                    let word = before[..i].rsplit(|c: char| !c.is_alphanumeric()).next();
                    let acronym = |w: &str| {
                        w.chars().count() >= 2 && w.chars().all(|c| c.is_ascii_uppercase())
                    };
                    word.is_some_and(|w| w.chars().count() >= 4 || acronym(w))
                }
                _ => false,
            };
            ends_one
                && before[i + c.len_utf8()..]
                    .chars()
                    .next()
                    .is_some_and(char::is_whitespace)
        })
        .map_or(0, |(i, c)| i + c.len_utf8());
    text[start..=end].trim()
}

/// The kinds of answer a question asks for, as indices into [`Asks`]' kinds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Asked(Vec<usize>);

impl Asked {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The kinds, read from `data/asks.toml`.
#[derive(Debug, Clone)]
pub struct Asks {
    kinds: Vec<Kind>,
}

#[derive(serde::Deserialize)]
struct File {
    kind: Vec<KindFile>,
}

#[derive(serde::Deserialize)]
struct KindFile {
    name: String,
    question: Vec<String>,
    span: Vec<String>,
}

static BUILTIN: LazyLock<Asks> = LazyLock::new(|| {
    Asks::parse(include_str!("../../data/asks.toml"))
        .expect("data/asks.toml is valid (a unit test parses it)")
});

impl Asks {
    pub fn builtin() -> &'static Asks {
        &BUILTIN
    }

    pub fn parse(toml_text: &str) -> Result<Asks, String> {
        let file: File = toml::from_str(toml_text).map_err(|e| e.to_string())?;
        let kinds = file
            .kind
            .into_iter()
            .map(|k| {
                let phrases = |list: Vec<String>, side: &str| {
                    list.iter()
                        .map(|s| {
                            let p = Phrase::parse(s);
                            if p.0.is_empty() {
                                Err(format!("kind {:?}: an empty {side} phrase", k.name))
                            } else {
                                Ok(p)
                            }
                        })
                        .collect::<Result<Vec<_>, _>>()
                };
                Ok(Kind {
                    question: phrases(k.question, "question")?,
                    span: phrases(k.span, "span")?,
                    name: k.name,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Asks { kinds })
    }

    /// The kinds of answer `question` asks for, read in the sentence that asks
    /// ([`asking_sentence`]): a story's facts ("three weeks ago", "the order ceased") are not
    /// what it asks.
    pub fn asked(&self, question: &str) -> Asked {
        let w = words(asking_sentence(question));
        Asked(
            self.kinds
                .iter()
                .enumerate()
                .filter(|(_, k)| k.question.iter().any(|p| p.occurs_in(&w)))
                .map(|(i, _)| i)
                .collect(),
        )
    }

    /// The share of the asked kinds whose words occur in `span` (0 when nothing is asked).
    pub fn carried(&self, asked: &Asked, span: &str) -> f64 {
        if asked.0.is_empty() {
            return 0.0;
        }
        let w = words(span);
        let hits = asked
            .0
            .iter()
            .filter(|&&i| self.kinds[i].span.iter().any(|p| p.occurs_in(&w)))
            .count();
        hits as f64 / asked.0.len() as f64
    }

    /// The names of the asked kinds (the quote step logs them).
    pub fn names(&self, asked: &Asked) -> Vec<&str> {
        asked
            .0
            .iter()
            .map(|&i| self.kinds[i].name.as_str())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_parses_and_names_its_kinds() {
        let a = Asks::builtin();
        let names: Vec<&str> = a.kinds.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "amount",
                "time",
                "limit",
                "decider",
                "consequence",
                "chooser"
            ]
        );
    }

    #[test]
    fn a_majority_question_prefers_the_clause_with_the_fraction() {
        let a = Asks::builtin();
        let asked = a.asked("What majority does Parliament need to impeach the President?");
        assert_eq!(a.names(&asked), ["amount"]);
        let opening = "(1) When a President is to be impeached for violation of the Constitution, \
                       the charge shall be preferred by either House of Parliament.";
        let majority = "(b) such resolution has been passed by a majority of not less than \
                        two-thirds of the total membership of the House.";
        assert_eq!(a.carried(&asked, opening), 0.0);
        assert_eq!(a.carried(&asked, majority), 1.0);
    }

    #[test]
    fn who_appoints_prefers_the_clause_that_names_the_appointer() {
        let a = Asks::builtin();
        let asked = a.asked("Who appoints Supreme Court judges?");
        assert_eq!(a.names(&asked), ["chooser"]);
        let oath = "(6) Every person appointed to be a Judge of the Supreme Court shall, before \
                    he enters upon his office, make and subscribe before the President, or some \
                    person appointed in that behalf by him, an oath or affirmation";
        let appointment = "(2) Every Judge of the Supreme Court shall be appointed by the \
                           President by warrant under his hand and seal";
        assert_eq!(a.carried(&asked, oath), 0.0);
        assert_eq!(a.carried(&asked, appointment), 1.0);
        // Who acts for an absent holder is not who appoints the holder.
        let acting = "(1A) If the office of the Chairman of the Commission becomes vacant … such \
                      one of the other members of the Commission as the President may appoint";
        assert_eq!(a.carried(&asked, acting), 0.0);
    }

    #[test]
    fn prefixes_and_hyphens_match_and_labels_are_no_amounts() {
        let a = Asks::builtin();
        let asked = a.asked("Can the government restrict free speech?");
        assert_eq!(a.names(&asked), ["limit"]);
        assert_eq!(
            a.carried(&asked, "imposes reasonable restrictions on the exercise"),
            1.0
        );
        let asked = a.asked("How long can an ordinance last?");
        assert_eq!(a.names(&asked), ["time"]);
        assert_eq!(a.carried(&asked, "at the expiration of six weeks"), 1.0);
        // A clause's label and the articles it names are not amounts.
        let asked = a.asked("How many members?");
        assert_eq!(a.carried(&asked, "(1) subject to article 74"), 0.0);
        assert!(Phrase::parse("two thirds").occurs_in(&words("not less than two-thirds of")));
    }

    #[test]
    fn several_kinds_count_in_shares_and_nothing_asked_counts_nothing() {
        let a = Asks::builtin();
        let asked = a.asked("Who decides, and how long does it take?");
        assert_eq!(a.names(&asked), ["time", "decider"]);
        assert_eq!(
            a.carried(&asked, "the decision of the Speaker shall be final"),
            0.5
        );
        let none = a.asked("What is the Preamble?");
        assert!(none.is_empty());
        assert_eq!(a.carried(&none, "two-thirds"), 0.0);
    }

    #[test]
    fn a_story_is_asked_in_its_question_sentence() {
        let story = "The ordinance lapsed after six weeks. Parliament met in March. \
                     Can the Governor issue it again? I need to know soon.";
        assert_eq!(asking_sentence(story), "Can the Governor issue it again?");
        assert_eq!(asking_sentence("no mark at all"), "no mark at all");
        assert_eq!(
            asking_sentence("I just got elected as an MLA. Do I swear by God?"),
            "Do I swear by God?"
        );
        assert_eq!(
            asking_sentence("Facts here. How many votes does Art. 368 need?"),
            "How many votes does Art. 368 need?"
        );
        let a = Asks::builtin();
        assert!(a.asked(story).is_empty());
    }

    #[test]
    fn a_bad_file_is_an_error_not_a_panic() {
        assert!(Asks::parse("kind = 3").is_err());
        let empty = "[[kind]]\nname = \"x\"\nquestion = [\"--\"]\nspan = [\"a\"]\n";
        assert!(Asks::parse(empty)
            .unwrap_err()
            .contains("empty question phrase"));
    }
}
