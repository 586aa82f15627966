//! What is done to a question's words before a leg runs: spelling, Hindi words, the
//! glossaries and the split ([`prepare_question`]).

use std::time::Instant;

use nyaya_ingest::refid::{find_refs, UserRef};

use super::{gloss, glossary, ms, spell, split, Glossary, Models, SearchRun, Timings};
use crate::error::AppResult;
use crate::language::Language;

/// A question as the legs read it (ADR 0004, 0013).
pub(super) struct PreparedQuestion {
    /// Spelling put right; an English question's Hindi words in Latin letters in English.
    pub(super) query: String,
    /// The misspelt words and what they were searched as.
    pub(super) spelling: Vec<spell::Correction>,
    /// A Hindi question's terms in English, added to it.
    pub(super) gloss: Vec<String>,
    /// An English question's Hindi words, put into English in place.
    pub(super) hinglish: Vec<String>,
    /// A romanised Hindi question's English words, glossary-expanded (what MiniLM embeds).
    pub(super) romanised_english: Option<String>,
    /// What the glossary added to the whole question.
    pub(super) expansion: glossary::Expansion,
    /// The question's parts as written (none when it is one).
    pub(super) parts: Vec<String>,
    /// The expanded whole, then the expanded parts: what both legs search.
    pub(super) texts: Vec<String>,
    /// The refs the question names: pinned, and spelt out for the lexical leg.
    pub(super) named: Vec<UserRef>,
}

/// Spelling, Hindi words, the glossaries and the split: everything done to a question's words
/// before a leg runs. The scope rules read the question as typed, not this.
pub(super) async fn prepare_question(
    run: &SearchRun<'_>,
    query: &str,
    language: Language,
    timings: &mut Timings,
) -> AppResult<PreparedQuestion> {
    let opts = run.opts;
    let t = Instant::now();
    let (spelled, spelling) = correct_spelling(run, query, language).await?;
    timings.spell = ms(t);
    // An English question's Hindi words in Latin letters ("umar", "Rajyapal") are searched as
    // their English, in place ([`gloss::HindiGlossary::translate_latin`]).
    let (query, hinglish) = if language == Language::English {
        let (text, english) = gloss::english_question(&spelled);
        (text, english.into_iter().map(str::to_string).collect())
    } else {
        (spelled, Vec::new())
    };
    let gloss = hindi_gloss(&query, language);
    let glossed = if gloss.is_empty() {
        query.clone()
    } else {
        format!("{} ({})", query.trim_end(), gloss.join("; "))
    };
    let romanised_english = romanised_english(run, &query, language).await?;
    // The whole question first, then its parts; every text goes through both legs.
    let (whole, expansion) = expand(opts.glossary, &glossed);
    let parts = if opts.split {
        split::sub_queries(&query)
    } else {
        Vec::new()
    };
    let texts: Vec<String> = std::iter::once(whole)
        .chain(parts.iter().map(|p| expand(opts.glossary, p).0))
        .collect();
    let named = find_refs(&query).into_iter().map(|(r, _)| r).collect();
    Ok(PreparedQuestion {
        named,
        query,
        spelling,
        gloss,
        hinglish,
        romanised_english,
        expansion,
        parts,
        texts,
    })
}

/// Misspelt words of an English question searched as the text's nearest words; the response
/// lists what was put right.
async fn correct_spelling(
    run: &SearchRun<'_>,
    query: &str,
    language: Language,
) -> AppResult<(String, Vec<spell::Correction>)> {
    let (pool, models, opts, doc) = run.parts();
    if !(opts.spelling && language == Language::English) {
        return Ok((query.to_string(), Vec::new()));
    }
    let speller = models
        .spelling
        .get(pool, doc, || known_words(models))
        .await?;
    let (spelled, spelling) = speller.correct(query);
    if !spelling.is_empty() {
        tracing::info!(corrections = ?spelling, "misspelt words searched as the text's");
    }
    Ok((spelled, spelling))
}

/// A question in Hindi carries the English words for its terms too ([`gloss`]), so that the
/// English glossary and the lexical leg can read it; none for another language.
fn hindi_gloss(query: &str, language: Language) -> Vec<String> {
    if !language.hindi() {
        return Vec::new();
    }
    gloss::HindiGlossary::builtin()
        .gloss(query)
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// Romanised Hindi reaches MiniLM as its English words only (glossary-expanded): its Hindi
/// terms' English and the words the text uses ("rajya sabha", "retirement age"); MiniLM
/// reads the Hindi ones as noise (ADR 0013). None for another language, or without a dense
/// leg.
async fn romanised_english(
    run: &SearchRun<'_>,
    query: &str,
    language: Language,
) -> AppResult<Option<String>> {
    let (pool, models, opts, doc) = run.parts();
    if !(language == Language::RomanisedHindi && opts.mode.dense()) {
        return Ok(None);
    }
    let speller = models
        .spelling
        .get(pool, doc, || known_words(models))
        .await?;
    Ok(
        Some(gloss::romanised_english(query, |w| speller.in_text(w)))
            .filter(|e| !e.is_empty())
            .map(|e| expand(opts.glossary, &e).0),
    )
}

/// `text` with the glossary's words added, and what was added (nothing when `on` is false).
fn expand(on: bool, text: &str) -> (String, glossary::Expansion) {
    if on {
        let e = Glossary::builtin().expand(text);
        (e.expanded_query(text), e)
    } else {
        (text.to_string(), glossary::Expansion::default())
    }
}

/// Words that are words though an edition's text may not use them: the embedder's whole
/// words, the glossary's terms, and the words of romanised Hindi ([`spell`]).
pub(super) fn known_words(models: &Models) -> Vec<String> {
    let mut known: Vec<String> = models
        .embedder
        .as_ref()
        .map(|e| e.whole_words())
        .unwrap_or_default();
    known.extend(
        Glossary::builtin()
            .entries()
            .iter()
            .flat_map(|e| e.terms.iter().cloned()),
    );
    known.extend(
        gloss::HindiGlossary::builtin()
            .latin_terms()
            .chain(crate::language::romanised_hindi_words())
            .map(str::to_string),
    );
    known
}
