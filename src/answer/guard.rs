//! The guards on an LLM's answer, always on. Pure: text in, text out, with counts.
//!
//! - A citation marker `[n]` must name an excerpt that was given; `[Art. 21]` becomes the
//!   excerpt's `[n]` when that provision was given, and is stripped otherwise.
//! - A sentence that names a provision ("Article 999") that retrieval did not return is
//!   dropped: it would be a citation of text nobody has read.
//! - A quoted span ("…", “…”) must be an exact substring (whitespace-normalised) of the
//!   provision it cites (or, uncited, of a provision given); otherwise its sentence is dropped.
//! - A figure (an age, a count, a period) must be written somewhere in the excerpts' text;
//!   otherwise its sentence is dropped. Figures come from the Constitution, not from a model.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;

use nyaya_ingest::refid::{cardinal_from_words, find_refs, is_cardinal_word};

use super::quote;

/// One numbered excerpt the model was given.
#[derive(Debug, Clone)]
pub struct Excerpt {
    pub n: usize,
    pub ref_id: String,
    /// What the model was shown (a verbatim span of the provision).
    pub text: String,
    /// The whole provision's text (and its amendment notes), against which quotes and figures
    /// are checked.
    pub provision_text: String,
}

/// What the guards removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct GuardCounts {
    /// Citations (`[n]`, `[Art. N]`, "Article N") that point at nothing retrieved.
    pub stripped_citations: usize,
    /// Quoted spans that are not in the cited provision.
    pub dropped_quotes: usize,
    /// Sentences with a figure the excerpts do not contain.
    pub dropped_figures: usize,
}

impl GuardCounts {
    pub fn any(&self) -> bool {
        self.stripped_citations + self.dropped_quotes + self.dropped_figures > 0
    }
}

/// The guarded answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Guarded {
    pub text: String,
    /// Excerpt numbers the surviving text cites, in order of first mention.
    pub cited: Vec<usize>,
    pub counts: GuardCounts,
}

static BRACKET: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\s?\[([^\[\]\n]{1,40})\]").expect("valid regex"));
static MARKER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\[(\d+)\]").expect("valid regex"));
static QUOTED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#""([^"\n]+)"|“([^”\n]+)”"#).expect("valid regex"));
static CITATION_WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:art|arts|article|articles|sch|schedule|cl|clause|part)\b")
        .expect("valid regex")
});
static CLAUSE_LABEL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\(\d+[A-Za-z]?\)").expect("valid regex"));
static DIGITS: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\d+").expect("valid regex"));
static WORDS: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[A-Za-z]+").expect("valid regex"));

/// Runs every guard over `answer`. `retrieved` is every provision retrieval returned (hits and
/// supporting); `excerpts` are the numbered ones the model saw.
pub fn guard(answer: &str, excerpts: &[Excerpt], retrieved: &[String]) -> Guarded {
    let mut counts = GuardCounts::default();
    let supported_numbers: BTreeSet<u64> = excerpts
        .iter()
        .flat_map(|e| numbers_in(&CLAUSE_LABEL.replace_all(&e.provision_text, " ")))
        .collect();
    let mut kept: Vec<String> = Vec::new();
    for paragraph in answer.split("\n\n") {
        let mut out_sentences = Vec::new();
        for sentence in sentences(paragraph) {
            if let Some(s) = guard_sentence(
                &sentence,
                excerpts,
                retrieved,
                &supported_numbers,
                &mut counts,
            ) {
                out_sentences.push(s);
            }
        }
        let p = out_sentences.join(" ");
        if !p.trim().is_empty() {
            kept.push(p);
        }
    }
    let text = kept.join("\n\n");
    let mut cited = Vec::new();
    for c in MARKER.captures_iter(&text) {
        if let Ok(n) = c[1].parse::<usize>() {
            if !cited.contains(&n) {
                cited.push(n);
            }
        }
    }
    Guarded {
        text,
        cited,
        counts,
    }
}

/// One sentence of the LLM's prose through the guards, or None when it must go: its
/// bracketed citations checked ([`bracketed_citations`]), the provisions it names in prose
/// ([`names_only_retrieved`]), its quotations ([`with_checked_quotes`]) and its figures
/// ([`figures_from_the_text`]). Each reason a sentence goes is counted.
fn guard_sentence(
    sentence: &str,
    excerpts: &[Excerpt],
    retrieved: &[String],
    supported_numbers: &BTreeSet<u64>,
    counts: &mut GuardCounts,
) -> Option<String> {
    let (s, stripped) = bracketed_citations(sentence, excerpts);
    counts.stripped_citations += stripped;
    // A sentence whose every citation was stripped has lost its support: it goes too.
    if stripped > 0 && !MARKER.is_match(&s) {
        return None;
    }
    let unknown = names_only_retrieved(&s, retrieved);
    if unknown > 0 {
        counts.stripped_citations += unknown;
        return None;
    }
    let Some(s) = with_checked_quotes(s, excerpts) else {
        counts.dropped_quotes += 1;
        return None;
    };
    if !figures_from_the_text(&s, supported_numbers) {
        counts.dropped_figures += 1;
        return None;
    }
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let s = s.replace(" .", ".").replace(" ,", ",");
    (!s.trim().is_empty()).then_some(s)
}

/// Bracketed citations: a valid `[n]` kept, `[Art. N]` mapped to its excerpt's `[n]`, any
/// other citation stripped (`[sic]`, not a citation, stays). Returns the sentence and how
/// many citations were stripped.
fn bracketed_citations(sentence: &str, excerpts: &[Excerpt]) -> (String, usize) {
    let mut stripped = 0;
    let s = BRACKET
        .replace_all(sentence, |c: &regex::Captures| {
            let inner = c[1].trim();
            let nums: Vec<&str> = inner.split([',', ' ']).filter(|p| !p.is_empty()).collect();
            if !nums.is_empty() && nums.iter().all(|p| p.chars().all(|ch| ch.is_ascii_digit())) {
                let valid: Vec<String> = nums
                    .iter()
                    .filter_map(|p| p.parse::<usize>().ok())
                    .filter(|n| excerpts.iter().any(|e| e.n == *n))
                    .map(|n| format!("[{n}]"))
                    .collect();
                stripped += nums.len() - valid.len();
                return if valid.is_empty() {
                    String::new()
                } else {
                    format!(" {}", valid.join(""))
                };
            }
            let refs = find_refs(inner);
            if refs.is_empty() {
                if CITATION_WORD.is_match(inner) {
                    // "[Art. 9999]": shaped like a citation of nothing that exists.
                    stripped += 1;
                    return String::new();
                }
                // Not a citation (e.g. "[sic]"): leave it.
                return c[0].to_string();
            }
            let mut out = String::new();
            for (r, _) in refs {
                match excerpts.iter().find(|e| e.ref_id == r.id.as_str()) {
                    Some(e) => out.push_str(&format!("[{}]", e.n)),
                    None => stripped += 1,
                }
            }
            if out.is_empty() {
                out
            } else {
                format!(" {out}")
            }
        })
        .into_owned();
    (s, stripped)
}

/// How many provisions the sentence names in prose (outside its `[n]` markers) that
/// retrieval did not return: a provision named must be one retrieved.
fn names_only_retrieved(s: &str, retrieved: &[String]) -> usize {
    let prose = MARKER.replace_all(s, "");
    find_refs(&prose)
        .into_iter()
        .filter(|(r, _)| !retrieved.iter().any(|id| id == r.id.as_str()))
        .count()
}

/// The sentence when every quotation in it (three words or more) is verbatim in a provision
/// it cites, or, when it cites none, in one given (and then it gets that one's marker); None
/// when one is not.
fn with_checked_quotes(s: String, excerpts: &[Excerpt]) -> Option<String> {
    let cited: Vec<&Excerpt> = MARKER
        .captures_iter(&s)
        .filter_map(|c| c[1].parse::<usize>().ok())
        .filter_map(|n| excerpts.iter().find(|e| e.n == n))
        .collect();
    let pool: Vec<&Excerpt> = if cited.is_empty() {
        excerpts.iter().collect()
    } else {
        cited.clone()
    };
    let mut s = s;
    for c in QUOTED.captures_iter(&s.clone()) {
        let q = c.get(1).or(c.get(2)).map(|m| m.as_str()).unwrap_or("");
        if q.split_whitespace().count() < 3 {
            continue; // a word in quotes ("the State") is not a quotation
        }
        match pool
            .iter()
            .find(|e| quote::is_verbatim(q, &e.provision_text))
        {
            Some(e) if cited.is_empty() => {
                // A true quote that forgot its marker gets it.
                let whole = c.get(0).map(|m| m.as_str()).unwrap_or_default();
                s = s.replacen(whole, &format!("{whole} [{}]", e.n), 1);
            }
            Some(_) => {}
            None => return None,
        }
    }
    Some(s)
}

/// Whether every figure of the sentence (its markers, provision numbers and clause labels
/// aside) is one the excerpts contain.
fn figures_from_the_text(s: &str, supported_numbers: &BTreeSet<u64>) -> bool {
    let mut bare = MARKER.replace_all(s, " ").into_owned();
    for (_, span) in find_refs(&bare.clone()).into_iter().rev() {
        bare.replace_range(span, " ");
    }
    let bare = CLAUSE_LABEL.replace_all(&bare, " ");
    numbers_in(&bare)
        .iter()
        .all(|n| supported_numbers.contains(n))
}

/// Sentences of a paragraph: ends at `.`, `?`, `!` followed by a space or the end, outside
/// double quotes and not after an abbreviation ("Art.", "No.", "cl.").
fn sentences(paragraph: &str) -> Vec<String> {
    const ABBREVIATIONS: &[&str] = &[
        "art", "arts", "no", "nos", "cl", "sch", "e.g", "i.e", "viz", "ibid", "s", "ss", "w.e.f",
    ];
    let mut out = Vec::new();
    let mut current = String::new();
    let mut in_quote = false;
    let mut in_bracket = false;
    let chars: Vec<char> = paragraph.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        current.push(c);
        match c {
            '"' => in_quote = !in_quote,
            '“' => in_quote = true,
            '”' => in_quote = false,
            '[' => in_bracket = true,
            '.' | '?' | '!' if !in_quote && !in_bracket => {
                let next_is_space = chars.get(i + 1).is_none_or(|n| n.is_whitespace());
                let last_word = current
                    .trim_end_matches(['.', '?', '!'])
                    .rsplit(|ch: char| ch.is_whitespace() || ch == '(')
                    .next()
                    .unwrap_or("")
                    .to_lowercase();
                // A marker right after the stop belongs to this sentence: "… arrest. [1]".
                let marker_follows =
                    chars[i + 1..].iter().find(|ch| !ch.is_whitespace()) == Some(&'[');
                if next_is_space && !marker_follows && !ABBREVIATIONS.contains(&last_word.as_str())
                {
                    out.push(std::mem::take(&mut current).trim().to_string());
                }
            }
            ']' if !in_quote => {
                in_bracket = false;
                // "… arrest. [1]" ends here when a stop came just before the marker.
                let before = current.trim_end_matches(|ch: char| ch != '[');
                let before = before.trim_end_matches('[').trim_end();
                if before.ends_with(['.', '?', '!']) {
                    out.push(std::mem::take(&mut current).trim().to_string());
                }
            }
            _ => {}
        }
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_string());
    }
    out
}

/// Every number written in `text`, in digits or in words ("twenty-five", "thirty five",
/// "one hundred and eighty", "six months"); runs of number words are read by the ref
/// parser's [`cardinal_from_words`]. "one" alone is not a figure: it is too often a pronoun.
pub fn numbers_in(text: &str) -> BTreeSet<u64> {
    let mut out: BTreeSet<u64> = DIGITS
        .find_iter(text)
        .filter_map(|m| m.as_str().parse().ok())
        .collect();
    let words: Vec<String> = WORDS
        .find_iter(text)
        .map(|m| m.as_str().to_lowercase())
        .collect();
    let mut i = 0;
    while i < words.len() {
        if words[i] == "zero" {
            out.insert(0);
        }
        if !is_cardinal_word(&words[i]) {
            i += 1;
            continue;
        }
        // The run: number words, with "and" only between two of them.
        let mut j = i + 1;
        while j < words.len()
            && (is_cardinal_word(&words[j])
                || (words[j] == "and" && words.get(j + 1).is_some_and(|w| is_cardinal_word(w))))
        {
            j += 1;
        }
        let run = &words[i..j];
        let scale = if words.get(j).is_some_and(|w| w == "thousand") {
            1000
        } else {
            1
        };
        match cardinal_from_words(&run.join(" ")) {
            Some(1) if run.len() == 1 && scale == 1 => {}
            Some(v) => {
                out.insert(u64::from(v) * scale);
            }
            // Not one number ("five six"): each word is its own.
            None => out.extend(
                run.iter()
                    .filter_map(|w| cardinal_from_words(w))
                    .filter(|&v| v != 1)
                    .map(u64::from),
            ),
        }
        i = j;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const ART22: &str = "(1) No person who is arrested shall be detained in custody without being informed, as soon as may be, of the grounds for such arrest nor shall he be denied the right to consult, and to be defended by, a legal practitioner of his choice.\n(2) Every person who is arrested and detained in custody shall be produced before the nearest magistrate within a period of twenty-four hours of such arrest";

    fn excerpts() -> Vec<Excerpt> {
        vec![
            Excerpt {
                n: 1,
                ref_id: "22".into(),
                text: ART22.into(),
                provision_text: ART22.into(),
            },
            Excerpt {
                n: 2,
                ref_id: "21".into(),
                text: "No person shall be deprived of his life or personal liberty except according to procedure established by law.".into(),
                provision_text: "No person shall be deprived of his life or personal liberty except according to procedure established by law.".into(),
            },
        ]
    }

    fn retrieved() -> Vec<String> {
        vec!["22".into(), "21".into(), "20".into()]
    }

    #[test]
    fn a_hallucinated_citation_is_stripped() {
        let g = guard(
            "You must be told why you are arrested [1]. Article 22 protects you [Art. 999].",
            &excerpts(),
            &retrieved(),
        );
        assert_eq!(g.text, "You must be told why you are arrested [1].");
        assert_eq!(g.counts.stripped_citations, 1);
        assert_eq!(g.cited, vec![1]);
        let g = guard("See [7] and [1, 9].", &excerpts(), &retrieved());
        assert_eq!(
            g.text, "See and [1].",
            "a sentence keeps what support it has left"
        );
        assert_eq!(g.counts.stripped_citations, 2);
    }

    #[test]
    fn a_bracketed_ref_that_was_given_becomes_its_marker() {
        let g = guard("Life is protected [Article 21].", &excerpts(), &retrieved());
        assert_eq!(g.text, "Life is protected [2].");
        assert_eq!(g.cited, vec![2]);
    }

    #[test]
    fn a_sentence_naming_an_unretrieved_provision_goes() {
        let g = guard(
            "The police must tell you the grounds [1]. Article 999 also gives you free bail.",
            &excerpts(),
            &retrieved(),
        );
        assert_eq!(g.text, "The police must tell you the grounds [1].");
        assert_eq!(g.counts.stripped_citations, 1);
    }

    #[test]
    fn fabricated_quotes_go_and_true_ones_stay() {
        let g = guard(
            "It says \"no person shall be arrested without a warrant from a judge\" [1]. It also says \"No person who is arrested shall be detained in custody without being informed\" [1].",
            &excerpts(),
            &retrieved(),
        );
        assert_eq!(g.counts.dropped_quotes, 1);
        assert!(g.text.starts_with("It also says"), "{}", g.text);
        // An uncited fabricated quote goes too; an uncited true one gains its marker.
        let g = guard(
            "The text says “every arrest must be videotaped by the police”. It says “deprived of his life or personal liberty”.",
            &excerpts(),
            &retrieved(),
        );
        assert_eq!(g.counts.dropped_quotes, 1);
        assert_eq!(
            g.text,
            "It says “deprived of his life or personal liberty” [2]."
        );
        assert_eq!(g.cited, vec![2]);
    }

    #[test]
    fn figures_must_be_in_the_text() {
        let g = guard(
            "You must be produced before a magistrate within twenty-four hours [1]. You can be held for 48 hours [1]. Bail needs 2 sureties.",
            &excerpts(),
            &retrieved(),
        );
        assert_eq!(g.counts.dropped_figures, 2);
        assert_eq!(
            g.text,
            "You must be produced before a magistrate within twenty-four hours [1]."
        );
        // Clause labels and article numbers are not figures; digits of a worded number are.
        let g = guard(
            "Clause (1) of Article 22 applies; 24 hours [1].",
            &excerpts(),
            &retrieved(),
        );
        assert_eq!(g.counts, GuardCounts::default(), "{}", g.text);
    }

    #[test]
    fn number_words_are_read() {
        let n = numbers_in(
            "twenty-four hours, thirty five years, one hundred and eighty days, six months, no one",
        );
        assert_eq!(n.into_iter().collect::<Vec<_>>(), vec![6, 24, 35, 180]);
    }
}
