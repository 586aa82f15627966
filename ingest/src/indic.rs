//! References written in Indian scripts, read as the English ones are.
//!
//! "अनुच्छेद 21 क्या कहता है?", "अनुच्छेद २१-क", "आठवीं अनुसूची", "உறுப்பு 21": the reference
//! scanner in [`crate::refid`] knows English words and ASCII digits only, so a question in
//! Hindi pinned nothing. [`latinise`] rewrites just the words that make a reference — the word
//! for "Article", "Schedule" and "Preamble" in each script, Indic digits, the Devanagari letter
//! suffix ("21क" → "21A") and Hindi ordinals ("आठवीं" → "8th") — and keeps, for every byte it
//! writes, the byte of the original it came from, so a reference found in the rewritten text
//! is reported with its range in the question the user typed. Everything else is copied as is.
//!
//! Romanised Hindi's words for them ("anuchhed 14") are read too, as whole words.
//!
//! Left out on purpose: "धारा" (Hindi, Bengali) and "कलम" (Marathi) are said of Article 370
//! but mean "section" (IPC 302) as often; the English scanner never reads "section 302" as an
//! Article, and neither does this.

use std::ops::Range;

/// Words that stand for a provision's kind, in the scripts of the multilingual golden set
/// (`eval/golden/multilingual.jsonl`). The official translations' terms first, then the
/// English word as spoken, transliterated. A word matches when it starts a word; the rest of
/// that word (an inflection: "अनुच्छेदों", "అధికరణం") goes with it.
const KIND_WORDS: [(&str, &str); 22] = [
    // Hindi, Marathi (Devanagari)
    ("अनुच्छेद", "article"),
    ("आर्टिकल", "article"),
    ("अनुसूची", "schedule"),
    ("प्रस्तावना", "preamble"),
    ("उद्देशिका", "preamble"),
    // Bengali
    ("অনুচ্ছেদ", "article"),
    ("আর্টিকেল", "article"),
    ("তফসিল", "schedule"),
    ("প্রস্তাবনা", "preamble"),
    // Tamil
    ("உறுப்பு", "article"),
    ("சட்டப்பிரிவு", "article"),
    ("அட்டவணை", "schedule"),
    ("முகவுரை", "preamble"),
    // Telugu
    ("అధికరణ", "article"),
    ("ఆర్టికల్", "article"),
    ("షెడ్యూల", "schedule"),
    ("ప్రవేశిక", "preamble"),
    // Kannada
    ("ಅನುಚ್ಛೇದ", "article"),
    ("ಆರ್ಟಿಕಲ್", "article"),
    ("ಅನುಸೂಚಿ", "schedule"),
    ("ಪೀಠಿಕೆ", "preamble"),
    ("ಪ್ರಸ್ತಾವನೆ", "preamble"),
];

/// The same words typed in Latin letters in romanised Hindi ("anuchhed 14 mein kya likha hai?"),
/// as Hindi speakers spell them. Whole words only, in any case: "anusuchit" (Scheduled) is not
/// "anusuchi".
const LATIN_KIND_WORDS: [(&str, &str); 7] = [
    ("anuchhed", "article"),
    ("anuchched", "article"),
    ("anuchchhed", "article"),
    ("anuched", "article"),
    ("anusuchi", "schedule"),
    ("anusoochi", "schedule"),
    ("prastavana", "preamble"),
];

/// Hindi ordinals as they qualify a Schedule ("आठवीं अनुसूची"), feminine as "अनुसूची" is.
const HINDI_ORDINALS: [(&str, &str); 15] = [
    ("पहली", "1st"),
    ("दूसरी", "2nd"),
    ("तीसरी", "3rd"),
    ("चौथी", "4th"),
    ("पाँचवीं", "5th"),
    ("पांचवीं", "5th"),
    ("छठी", "6th"),
    ("सातवीं", "7th"),
    ("आठवीं", "8th"),
    ("नौवीं", "9th"),
    ("नवीं", "9th"),
    ("दसवीं", "10th"),
    ("ग्यारहवीं", "11th"),
    ("बारहवीं", "12th"),
    ("दसवी", "10th"),
];

/// A text with its references spelled as the English scanner reads them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Latinised {
    pub text: String,
    /// For each byte of `text` (and one past its end), the byte of the original it came from.
    origin: Vec<usize>,
}

impl Latinised {
    /// The range in the original text that produced `r` of [`Latinised::text`].
    pub fn original(&self, r: Range<usize>) -> Range<usize> {
        let at = |i: usize| self.origin[i.min(self.origin.len() - 1)];
        at(r.start)..at(r.end)
    }

    fn push(&mut self, s: &str, from: usize) {
        self.text.push_str(s);
        self.origin.extend(std::iter::repeat_n(from, s.len()));
    }
}

/// `None` when the text has nothing to rewrite (every English question): the caller scans the
/// text itself.
pub fn latinise(text: &str) -> Option<Latinised> {
    if text.is_ascii()
        && !text
            .split(|c: char| !c.is_ascii_alphabetic())
            .any(|w| latin_kind(w).is_some())
    {
        return None;
    }
    let mut out = Latinised {
        text: String::with_capacity(text.len()),
        origin: Vec::with_capacity(text.len() + 1),
    };
    let mut changed = false;
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let at_word_start = text[..i].chars().next_back().is_none_or(|c| !is_letter(c));
        let c = rest.chars().next().unwrap_or(' ');
        if at_word_start {
            if let Some((len, latin)) = kind_word(rest).or_else(|| latin_kind_word(rest)) {
                out.push(latin, i);
                i += len;
                changed = true;
                continue;
            }
            if let Some((word, latin)) = HINDI_ORDINALS
                .iter()
                .find(|(w, _)| rest.starts_with(w) && word_ends(&rest[w.len()..]))
            {
                out.push(latin, i);
                i += word.len();
                changed = true;
                continue;
            }
        }
        if let Some(d) = indic_digit(c) {
            out.push(d.encode_utf8(&mut [0; 4]), i);
            i += c.len_utf8();
            changed = true;
            continue;
        }
        // "21क", "२१-क", "21 क": the letter designating an inserted Article, after a number.
        if let Some(latin) = devanagari_suffix(c) {
            let before = out.text.trim_end_matches([' ', '-']);
            let after = &rest[c.len_utf8()..];
            if before.ends_with(|p: char| p.is_ascii_digit()) && word_ends(after) {
                out.push(latin, i);
                i += c.len_utf8();
                changed = true;
                continue;
            }
        }
        // "8वीं अनुसूची": an ordinal suffix after digits.
        if out.text.ends_with(|p: char| p.is_ascii_digit()) {
            if let Some(sfx) = ["वीं", "वी", "वां", "वाँ", "वें"]
                .into_iter()
                .find(|s| rest.starts_with(s) && word_ends(&rest[s.len()..]))
            {
                out.push("th", i);
                i += sfx.len();
                changed = true;
                continue;
            }
        }
        out.push(&rest[..c.len_utf8()], i);
        i += c.len_utf8();
    }
    out.origin.push(text.len());
    changed.then_some(out)
}

/// The kind word starting `s`, with the length of the whole word it starts.
fn kind_word(s: &str) -> Option<(usize, &'static str)> {
    let (w, latin) = KIND_WORDS.iter().find(|(w, _)| s.starts_with(w))?;
    let tail: usize = s[w.len()..]
        .chars()
        .take_while(|&c| is_letter(c))
        .map(char::len_utf8)
        .sum();
    Some((w.len() + tail, latin))
}

/// The romanised kind word that is the whole word starting `s`, with its length.
fn latin_kind_word(s: &str) -> Option<(usize, &'static str)> {
    let len = s
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(s.len());
    latin_kind(&s[..len]).map(|latin| (len, latin))
}

fn latin_kind(word: &str) -> Option<&'static str> {
    LATIN_KIND_WORDS
        .iter()
        .find(|(w, _)| word.eq_ignore_ascii_case(w))
        .map(|(_, latin)| *latin)
}

/// Letters and the combining signs of Indic scripts (vowel signs, virama, nukta): a word goes
/// on through them.
fn is_letter(c: char) -> bool {
    c.is_alphabetic() || is_indic_sign(c)
}

fn is_indic_sign(c: char) -> bool {
    // Each Indic block (U+0900–U+0D7F, 0x80 wide) puts its signs at 0x00–0x03, 0x3A–0x4F,
    // 0x51–0x57 and 0x62–0x63 of the block.
    let u = c as u32;
    (0x0900..=0x0D7F).contains(&u)
        && matches!(u & 0x7F, 0x00..=0x03 | 0x3A..=0x4F | 0x51..=0x57 | 0x62..=0x63)
}

fn word_ends(after: &str) -> bool {
    after.chars().next().is_none_or(|c| !is_letter(c))
}

/// Indic digits (Devanagari, Bengali, Gurmukhi, Gujarati, Odia, Tamil, Telugu, Kannada,
/// Malayalam): each block has them at 0x66–0x6F.
fn indic_digit(c: char) -> Option<char> {
    let u = c as u32;
    if (0x0900..=0x0D7F).contains(&u) && (0x66..=0x6F).contains(&(u & 0x7F)) {
        char::from_digit((u & 0x7F) - 0x66, 10)
    } else {
        None
    }
}

/// The official Hindi text letters inserted Articles क, ख, ग, घ where the English has A–D.
fn devanagari_suffix(c: char) -> Option<&'static str> {
    match c {
        'क' => Some("A"),
        'ख' => Some("B"),
        'ग' => Some("C"),
        'घ' => Some("D"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn latin(s: &str) -> String {
        latinise(s).map(|l| l.text).unwrap_or_else(|| s.to_string())
    }

    #[test]
    fn article_words_digits_and_suffixes_become_english() {
        assert_eq!(latin("अनुच्छेद 21 क्या कहता है?"), "article 21 क्या कहता है?");
        assert_eq!(latin("अनुच्छेद २१-क"), "article 21-A");
        // Romanised Hindi: whole words only.
        assert_eq!(
            latin("anuchhed 14 mein kya likha hai?"),
            "article 14 mein kya likha hai?"
        );
        assert_eq!(latin("Anusuchi 8 ki bhashayen"), "schedule 8 ki bhashayen");
        assert!(latinise("anusuchit jati ko aarakshan").is_none());
        assert!(latinise("What does Article 14 say?").is_none());
        assert_eq!(latin("अनुच्छेद 21क के तहत"), "article 21A के तहत");
        assert_eq!(latin("अनुच्छेदों 14 और 15"), "article 14 और 15");
        assert_eq!(latin("আর্টিকেল ৩৭০ কী?"), "article 370 কী?");
        assert_eq!(latin("உறுப்பு 21 என்ன சொல்கிறது?"), "article 21 என்ன சொல்கிறது?");
        assert_eq!(latin("అధికరణం 356"), "article 356");
        assert_eq!(latin("ಅನುಚ್ಛೇದ ೩೨"), "article 32");
    }

    #[test]
    fn schedules_and_the_preamble() {
        assert_eq!(
            latin("आठवीं अनुसूची में कौन सी भाषाएँ हैं?"),
            "8th schedule में कौन सी भाषाएँ हैं?"
        );
        assert_eq!(latin("8वीं अनुसूची"), "8th schedule");
        assert_eq!(latin("संविधान की प्रस्तावना"), "संविधान की preamble");
    }

    #[test]
    fn other_words_are_left_alone() {
        // "क्या" starts with क but is a word of its own; "धारा" is a section, not an Article.
        assert_eq!(latin("21 क्या है"), "21 क्या है");
        assert!(latinise("धारा 302 में सज़ा क्या है?").is_none());
        assert!(latinise("What does Article 21 say?").is_none());
        // A kind word inside another word is not one; "अनुसूचित" (Scheduled) is not "अनुसूची".
        assert!(latinise("अनुसूचित जाति").is_none());
        assert_eq!(latin("अअनुच्छेद 5"), "अअनुच्छेद 5");
    }

    #[test]
    fn ranges_map_back_to_the_typed_text() {
        let q = "क्या अनुच्छेद २१-क लागू है?";
        let l = latinise(q).unwrap();
        let start = l.text.find("article").unwrap();
        let end = l.text.find("-A").unwrap() + 2;
        assert_eq!(&q[l.original(start..end)], "अनुच्छेद २१-क");
    }
}
