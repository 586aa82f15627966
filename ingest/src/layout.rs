//! Page geometry → lines of typed tokens. Pure: works on [`Glyph`]s, knows nothing of PDFs.
//!
//! What this module decides, from measurements of the official PDF
//! (`../shared/notes/corpus-and-pdf.md`):
//! - a page's body size is its most common glyph size (9.12 pt on most pages, 10.08 on some);
//! - amendment markers are digits that are both smaller than the body and raised above the
//!   baseline they belong to (≈3 pt), so they join that line as [`Tok::Marker`];
//! - a line of underscores is the footnote rule: everything below it is a footnote;
//! - the running head (page number, "THE CONSTITUTION OF INDIA", "(Part III.—…)") sits above
//!   the body; a page that opens a Part has a centred page number at the bottom instead.

use std::sync::LazyLock;

use regex::Regex;

use crate::pdf::{Glyph, Page};

/// A piece of a line.
#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    /// Text drawn in one weight.
    Text { s: String, bold: bool },
    /// A raised amendment-footnote number.
    Marker(u32),
}

/// One printed line.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub page: u32,
    /// Baseline y (PDF points, up is larger).
    pub y: f32,
    /// Left edge of the first glyph that is not a marker.
    pub x0: f32,
    /// Right edge of the last glyph.
    pub x1: f32,
    /// Dominant glyph size of the line's text.
    pub size: f32,
    pub toks: Vec<Tok>,
}

impl Line {
    /// The line's text without markers.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for t in &self.toks {
            if let Tok::Text { s, .. } = t {
                out.push_str(s);
            }
        }
        out
    }

    /// True when the first text on the line is bold.
    pub fn starts_bold(&self) -> bool {
        self.toks.iter().find_map(|t| match t {
            Tok::Text { s, bold }
                if !s.trim().is_empty() && s.trim() != "[" && s.trim() != "*[" =>
            {
                Some(*bold)
            }
            _ => None,
        }) == Some(true)
    }

    /// True when the line is centred on the page (within a few points) and does not start at
    /// the body's left margin.
    ///
    /// Body lines that start at a clause indent (186 pt) and run to the right margin also have
    /// their middle near the page's, so a centred line must also start well inside the margin.
    pub fn is_centred(&self, page_width: f32) -> bool {
        let mid = (self.x0 + self.x1) / 2.0;
        (mid - page_width / 2.0).abs() < 12.0 && self.x0 >= 199.0 && self.x1 < page_width - 170.0
    }
}

/// A page split into running head, body lines and footnote lines.
#[derive(Debug, Clone)]
pub struct PageLayout {
    pub number: u32,
    pub width: f32,
    pub body_size: f32,
    pub body: Vec<Line>,
    pub footnotes: Vec<Line>,
}

/// Lays out one page.
pub fn layout_page(page: &Page) -> PageLayout {
    let body_size = dominant_size(&page.glyphs);
    let lines = build_lines(page, body_size);
    let rule_y = lines
        .iter()
        .filter(|l| is_rule(l))
        .map(|l| l.y)
        .fold(None, |acc: Option<f32>, y| {
            Some(acc.map_or(y, |a| a.max(y)))
        })
        .or_else(|| unruled_footnotes_top(&lines, body_size));
    let mut body = Vec::new();
    let mut footnotes = Vec::new();
    // Odd and even pages sit at different offsets (the text block starts at 162 pt on most
    // pages, 174 pt on others): shift every page to a 162 pt margin so that indents mean the
    // same everywhere.
    let shift = left_margin(&lines) - 162.0;
    let lines: Vec<Line> = lines
        .into_iter()
        .map(|mut l| {
            l.x0 -= shift;
            l.x1 -= shift;
            l
        })
        .collect();
    let top_y = lines.iter().map(|l| l.y).fold(f32::MIN, f32::max);
    let bottom_y = lines.iter().map(|l| l.y).fold(f32::MAX, f32::min);
    for line in lines {
        if is_rule(&line) {
            continue;
        }
        if let Some(ry) = rule_y {
            if line.y < ry {
                if !is_page_number(&line, page.width, body_size) {
                    footnotes.push(line);
                }
                continue;
            }
        }
        let in_head_band = line.y >= top_y - 25.0;
        if (in_head_band && is_running_head(&line, body_size))
            || ((in_head_band || line.y <= bottom_y + 0.5)
                && is_page_number(&line, page.width, body_size))
        {
            continue;
        }
        body.push(line);
    }
    restore_lost_open_parens(&mut body);
    PageLayout {
        number: page.number,
        width: page.width,
        body_size,
        body,
        footnotes,
    }
}

/// Puts back the "(" of an item label the text layer lost.
///
/// 2024 p. 227 prints Article 338(8)'s items "(c)" and "(d)" with the parenthesis drawn as a
/// path: the text layer reads "c) receiving evidence …", one parenthesis width (≈3 pt) to the
/// right of where "(b)" starts. A line that opens with a lone letter and ")" is restored when
/// the item label just above it is the letter before, set about one "(" further left — a
/// sequence and an alignment no ordinary sentence ("date) of members …") has.
fn restore_lost_open_parens(body: &mut [Line]) {
    static LABEL: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^(\()?([a-z])\) ").expect("pattern"));
    // (letter, x0 of its "(", line index) of the last item label seen.
    let mut last: Option<(char, f32, usize)> = None;
    for (i, line) in body.iter_mut().enumerate() {
        let text = line.text();
        let Some(c) = LABEL.captures(&text) else {
            continue;
        };
        let letter = c[2].chars().next().unwrap_or('a');
        if c.get(1).is_none() {
            let Some((prev, x0, at)) = last else {
                continue;
            };
            let dx = line.x0 - x0;
            if i - at > 3 || prev as u8 + 1 != letter as u8 || !(1.5..=5.0).contains(&dx) {
                continue;
            }
            if let Some(Tok::Text { s, .. }) =
                line.toks.iter_mut().find(|t| matches!(t, Tok::Text { .. }))
            {
                s.insert(0, '(');
            }
            line.x0 = x0;
        }
        last = Some((letter, line.x0, i));
    }
}

/// The most common glyph size, weighted by count, rounded to 0.1 pt.
///
/// Footnote text (6.96–7.92 pt) can outnumber the body on a page, so only sizes a body can
/// have (≥ 8.5 pt) are counted.
fn dominant_size(glyphs: &[Glyph]) -> f32 {
    let mut counts: Vec<(i32, usize)> = Vec::new();
    for g in glyphs
        .iter()
        .filter(|g| !g.ch.is_whitespace() && g.size >= 8.5)
    {
        let k = (g.size * 10.0).round() as i32;
        match counts.iter_mut().find(|(s, _)| *s == k) {
            Some((_, n)) => *n += 1,
            None => counts.push((k, 1)),
        }
    }
    counts
        .into_iter()
        .max_by_key(|(_, n)| *n)
        .map(|(k, _)| k as f32 / 10.0)
        .unwrap_or(9.12)
}

/// A glyph is a marker candidate when it is a digit clearly smaller than the body text.
/// Markers are 6.0 pt under a 9.12 pt body and 6.48 pt under 10.08; the smallest footnote text
/// is 6.96 pt.
fn is_small_digit(g: &Glyph, body_size: f32) -> bool {
    g.ch.is_ascii_digit() && (g.size < body_size * 0.8 || g.size <= 6.6)
}

/// Small print that must not seed a line of its own before the full-size text is placed:
/// raised asterisks beside markers, fake small caps.
fn is_small(g: &Glyph, body_size: f32) -> bool {
    g.size < body_size * 0.8 || g.size <= 6.6
}

/// The page's lines, top to bottom: its glyphs clustered by baseline
/// ([`clusters_by_baseline`]), each cluster read left to right ([`line_of`]).
fn build_lines(page: &Page, body_size: f32) -> Vec<Line> {
    clusters_by_baseline(page, body_size)
        .into_iter()
        .filter_map(|c| line_of(c, page.number, body_size))
        .collect()
}

/// Glyphs on one baseline, each with whether it is a raised marker digit.
struct Cluster {
    y: f32,
    glyphs: Vec<(Glyph, bool)>,
}

/// How far from a baseline a glyph of its size may sit and still be on it.
fn baseline_tolerance(g: &Glyph) -> f32 {
    (g.size * 0.45).max(2.0)
}

/// Whether `g` sits 1.2–5.5 pt above `c`'s baseline, where markers are raised to.
fn raised_above(c: &Cluster, g: &Glyph) -> bool {
    (1.2..=5.5).contains(&(g.y - c.y))
}

/// `g` into cluster `at`, or into a new cluster on its own baseline.
fn place(clusters: &mut Vec<Cluster>, at: Option<usize>, g: &Glyph) {
    match at {
        Some(i) => clusters[i].glyphs.push((g.clone(), false)),
        None => clusters.push(Cluster {
            y: g.y,
            glyphs: vec![(g.clone(), false)],
        }),
    }
}

/// The page's glyphs clustered by baseline, top first. Full-size glyphs seed the clusters;
/// then small digits raised above a line's baseline become that line's markers, and other
/// small print (footnote numbers, table figures, fake small caps) joins the nearest baseline
/// or starts its own.
fn clusters_by_baseline(page: &Page, body_size: f32) -> Vec<Cluster> {
    let (small, full): (Vec<&Glyph>, Vec<&Glyph>) =
        page.glyphs.iter().partition(|g| is_small(g, body_size));
    let mut clusters: Vec<Cluster> = Vec::new();
    for g in full {
        let tol = baseline_tolerance(g);
        let at = clusters.iter().rposition(|c| (c.y - g.y).abs() <= tol);
        place(&mut clusters, at, g);
    }
    for g in small {
        let tol = baseline_tolerance(g);
        if !is_small_digit(g, body_size) {
            let nearest = clusters
                .iter()
                .enumerate()
                .filter(|(_, c)| (g.y - c.y).abs() <= tol || raised_above(c, g))
                .min_by(|(_, a), (_, b)| (g.y - a.y).abs().total_cmp(&(g.y - b.y).abs()))
                .map(|(i, _)| i);
            place(&mut clusters, nearest, g);
            continue;
        }
        let raised = clusters
            .iter()
            .enumerate()
            .filter(|(_, c)| raised_above(c, g))
            .min_by(|(_, a), (_, b)| (g.y - a.y).total_cmp(&(g.y - b.y)))
            .map(|(i, _)| i);
        match raised {
            Some(i) => clusters[i].glyphs.push((g.clone(), true)),
            None => {
                let at = clusters.iter().position(|c| (c.y - g.y).abs() <= tol);
                place(&mut clusters, at, g);
            }
        }
    }
    clusters.sort_by(|a, b| b.y.total_cmp(&a.y));
    clusters
}

/// A cluster as a line of tokens, left to right: adjacent marker digits make one marker
/// number, a visible gap between glyphs is a space, and a change of weight a new token. The
/// line's size is its commonest glyph size. None for a line of markers only (never seen in
/// the PDF), which carries nothing.
fn line_of(mut c: Cluster, page: u32, body_size: f32) -> Option<Line> {
    drop_leader_dots_under_text(&mut c.glyphs);
    c.glyphs.sort_by(|a, b| a.0.x0.total_cmp(&b.0.x0));
    let mut toks: Vec<Tok> = Vec::new();
    let mut prev: Option<&Glyph> = None;
    let mut x0 = f32::MAX;
    let mut x1 = f32::MIN;
    let mut sizes: Vec<(i32, usize)> = Vec::new();
    for (g, is_marker) in &c.glyphs {
        if *is_marker {
            match toks.last_mut() {
                Some(Tok::Marker(n))
                    if prev.is_some_and(|p| p.x1 + 1.0 >= g.x0 && p.size == g.size) =>
                {
                    *n = *n * 10 + g.ch.to_digit(10).unwrap_or(0);
                }
                _ => toks.push(Tok::Marker(g.ch.to_digit(10).unwrap_or(0))),
            }
            prev = Some(g);
            continue;
        }
        if !g.ch.is_whitespace() {
            x0 = x0.min(g.x0);
            x1 = x1.max(g.x1);
            let k = (g.size * 10.0).round() as i32;
            match sizes.iter_mut().find(|(s, _)| *s == k) {
                Some((_, n)) => *n += 1,
                None => sizes.push((k, 1)),
            }
        }
        // A visible gap between glyphs is a word space the content stream left implicit.
        let need_space = prev.is_some_and(|p| {
            !p.ch.is_whitespace() && !g.ch.is_whitespace() && g.x0 - p.x1 > g.size * 0.2
        });
        push_glyph(&mut toks, g.ch, g.bold, need_space);
        prev = Some(g);
    }
    if x0 == f32::MAX {
        return None;
    }
    let size = sizes
        .into_iter()
        .max_by_key(|(_, n)| *n)
        .map(|(k, _)| k as f32 / 10.0)
        .unwrap_or(body_size);
    Some(Line {
        page,
        y: c.y,
        x0,
        x1,
        size,
        toks: collapse_spaces(toks),
    })
}

/// `ch` onto the last text token when it has the same weight (a space takes any), else onto
/// a new one; `space` first when the glyphs stood apart.
fn push_glyph(toks: &mut Vec<Tok>, ch: char, bold: bool, space: bool) {
    match toks.last_mut() {
        Some(Tok::Text { s, bold: b }) if *b == bold || ch.is_whitespace() => {
            if space {
                s.push(' ');
            }
            s.push(ch);
        }
        _ => {
            let mut s = String::new();
            if space {
                s.push(' ');
            }
            s.push(ch);
            toks.push(Tok::Text { s, bold });
        }
    }
}

/// Drops the dots of a leader (and the space that ends it) that run underneath the text they
/// lead to.
///
/// The Fourth Schedule's table prints "West Bengal ........16": the leader is one run of dots
/// that ends at 423.3 pt while the figure it leads to starts at 420.5 pt, so sorting by x
/// would read "1.6". A dot is part of a leader when the glyph drawn just before or after it is
/// a dot too; such a dot that overlaps a glyph other than a dot is dropped. Ordinary full
/// stops never overlap their neighbours.
fn drop_leader_dots_under_text(glyphs: &mut Vec<(Glyph, bool)>) {
    let is_dot = |i: usize| glyphs.get(i).is_some_and(|(g, m)| !m && g.ch == '.');
    let leader: Vec<usize> = (0..glyphs.len())
        .filter(|&i| is_dot(i) && ((i > 0 && is_dot(i - 1)) || is_dot(i + 1)))
        .collect();
    if leader.is_empty() {
        return;
    }
    let overlaps = |d: &Glyph| {
        glyphs.iter().any(|(g, m)| {
            !m && g.ch != '.' && !g.ch.is_whitespace() && d.x0 < g.x1 - 0.5 && d.x1 > g.x0 + 0.5
        })
    };
    // The space that closes the leader sits inside the figure too and would split it.
    let inside = |d: &Glyph| {
        glyphs
            .iter()
            .any(|(g, m)| !m && !g.ch.is_whitespace() && d.x0 > g.x0 + 0.5 && d.x0 < g.x1 - 0.5)
    };
    let drop: Vec<usize> = (0..glyphs.len())
        .filter(|&i| {
            let (g, m) = &glyphs[i];
            (leader.contains(&i) && overlaps(g)) || (!m && g.ch.is_whitespace() && inside(g))
        })
        .collect();
    for i in drop.into_iter().rev() {
        glyphs.remove(i);
    }
}

/// Collapses runs of spaces inside and across text tokens; drops empty tokens.
fn collapse_spaces(toks: Vec<Tok>) -> Vec<Tok> {
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    let mut last_space = true;
    for t in toks {
        match t {
            Tok::Text { s, bold } => {
                let mut cleaned = String::with_capacity(s.len());
                for ch in s.chars() {
                    let ch = if ch.is_whitespace() { ' ' } else { ch };
                    if ch == ' ' && last_space {
                        continue;
                    }
                    last_space = ch == ' ';
                    cleaned.push(ch);
                }
                if !cleaned.is_empty() {
                    out.push(Tok::Text { s: cleaned, bold });
                }
            }
            m => out.push(m),
        }
    }
    // Trailing space is layout, not text.
    if let Some(Tok::Text { s, .. }) = out.last_mut() {
        while s.ends_with(' ') {
            s.pop();
        }
        if s.is_empty() {
            out.pop();
        }
    }
    out
}

/// The left edge of the text block. The footnote rule starts on it when a page has one;
/// otherwise it is the leftmost x that several lines share, if that is a plausible margin
/// (158–180 pt; the Sixth Schedule's pages sit at 174, every other page at 162).
fn left_margin(lines: &[Line]) -> f32 {
    if let Some(rule) = lines.iter().find(|l| is_rule(l)) {
        return rule.x0.round();
    }
    let mut counts: Vec<(i32, usize)> = Vec::new();
    for l in lines.iter().filter(|l| (158.0..=180.0).contains(&l.x0)) {
        let k = l.x0.round() as i32;
        match counts.iter_mut().find(|(x, _)| (*x - k).abs() <= 1) {
            Some((_, n)) => *n += 1,
            None => counts.push((k, 1)),
        }
    }
    counts
        .into_iter()
        .filter(|(_, n)| *n >= 2)
        .map(|(x, _)| x as f32)
        .fold(None, |acc: Option<f32>, x| {
            Some(acc.map_or(x, |a| a.min(x)))
        })
        .unwrap_or(162.0)
}

fn is_rule(line: &Line) -> bool {
    let t = line.text();
    let t = t.trim();
    // The footnote rule is ~46 underscores; the short ones under titles (Contents) are not.
    t.len() >= 30 && t.chars().all(|c| c == '_')
}

fn is_page_number(line: &Line, width: f32, body_size: f32) -> bool {
    let t = line.text();
    let t = t.trim();
    !t.is_empty()
        && t.chars().all(|c| c.is_ascii_digit())
        // Centred, or (a few 2022 pages) set larger than any body text wherever it stands.
        && (((line.x0 + line.x1) / 2.0 - width / 2.0).abs() < 30.0 || line.size > body_size * 1.15)
}

/// Where the footnotes start on a page whose rule is drawn rather than typed (some 2022
/// pages): the bottom lines, all in footnote size, the first of them numbered ("1. Subs.
/// by …"), set apart from the body above by at least two body lines' space. Just above that
/// first line, or `None`.
fn unruled_footnotes_top(lines: &[Line], body_size: f32) -> Option<f32> {
    let mut by_y: Vec<&Line> = lines.iter().collect();
    by_y.sort_by(|a, b| a.y.total_cmp(&b.y));
    let mut top: Option<&Line> = None;
    for l in by_y {
        let text = l.text();
        if text.trim().chars().all(|c| c.is_ascii_digit()) {
            continue; // a page number below the notes
        }
        if l.size < body_size * 0.9 {
            top = Some(l);
            continue;
        }
        let top = top?;
        let numbered = FOOTNOTE_START.is_match(top.text().trim_start());
        return (numbered && l.y - top.y >= 2.0 * body_size).then_some(top.y + 1.0);
    }
    None
}

static FOOTNOTE_START: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\d{1,2}\.\s").expect("pattern"));

/// The running head at the top of a page: "11 THE CONSTITUTION OF INDIA" (page number first on
/// one side, last on the other) and a larger "(Part III.—Fundamental Rights)". The caller only
/// asks about lines in the top band of the page; editions place that band differently (the
/// 2022 edition's text block sits 144 pt higher).
fn is_running_head(line: &Line, body_size: f32) -> bool {
    static HEAD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(\d+\s+)?THE CONSTITUTION OF INDIA(\s+\d+)?$|^\d+$|^Contents$|^\([ivxlc]+\)$")
            .unwrap()
    });
    let t = line.text();
    let t = t.trim();
    // Contents pages: "(xxviii) Contents" share one baseline.
    let contents_head = t.split_whitespace().all(|w| {
        w == "Contents"
            || w == "ARTICLES"
            || (w.starts_with('(')
                && w.ends_with(')')
                && w[1..w.len() - 1].chars().all(|c| "ivxlc".contains(c)))
    });
    HEAD.is_match(t)
        || contents_head
        || (t.starts_with('(')
            && t.ends_with(')')
            && (line.size > body_size + 0.5 || t.starts_with("(Part")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glyphs(s: &str, x: f32, y: f32, size: f32, bold: bool) -> Vec<Glyph> {
        let w = size * 0.5;
        s.chars()
            .enumerate()
            .map(|(i, ch)| Glyph {
                ch,
                x0: x + i as f32 * w,
                x1: x + (i as f32 + 1.0) * w,
                y,
                size,
                bold,
            })
            .collect()
    }

    fn page(gs: Vec<Vec<Glyph>>) -> Page {
        Page {
            number: 42,
            width: 612.0,
            height: 792.0,
            glyphs: gs.into_iter().flatten().collect(),
        }
    }

    #[test]
    fn raised_small_digit_becomes_marker_of_the_line_below() {
        // p.42: "2" at 6 pt, 3.1 pt above the baseline of "[21A. Right to education."
        let p = page(vec![
            glyphs("2", 186.0, 304.8, 6.0, false),
            glyphs("[", 189.1, 301.7, 9.12, false),
            glyphs("21A. Right to education.", 192.0, 301.7, 9.12, true),
            glyphs("—The State shall", 300.9, 301.7, 9.12, false),
        ]);
        let l = layout_page(&p);
        assert_eq!(l.body.len(), 1);
        let line = &l.body[0];
        assert_eq!(line.toks[0], Tok::Marker(2));
        assert_eq!(line.text(), "[21A. Right to education.—The State shall");
        assert!(line.starts_bold());
    }

    #[test]
    fn two_digit_marker_is_one_number() {
        let p = page(vec![
            glyphs("12", 186.0, 304.8, 6.0, false),
            glyphs("[text]", 192.0, 301.7, 9.12, false),
        ]);
        let l = layout_page(&p);
        assert_eq!(l.body[0].toks[0], Tok::Marker(12));
    }

    #[test]
    fn lines_below_the_rule_are_footnotes_and_running_head_is_dropped() {
        let p = page(vec![
            glyphs("11 THE CONSTITUTION OF INDIA", 162.0, 603.6, 9.12, true),
            glyphs("(Part III.—Fundamental Rights)", 241.7, 586.3, 10.08, false),
            glyphs("body text of the article", 162.0, 500.0, 9.12, false),
            glyphs(
                "______________________________________________",
                161.9,
                210.2,
                12.0,
                false,
            ),
            glyphs("1. Subs. by the Constitution", 162.0, 200.2, 7.92, false),
        ]);
        let l = layout_page(&p);
        assert_eq!(l.body.len(), 1);
        assert_eq!(l.body[0].text(), "body text of the article");
        assert_eq!(l.footnotes.len(), 1);
        assert_eq!(l.footnotes[0].text(), "1. Subs. by the Constitution");
    }

    #[test]
    fn centred_bottom_page_number_is_dropped() {
        let p = page(vec![
            glyphs("111", 299.3, 161.3, 9.12, false),
            glyphs("PART VII", 285.8, 566.9, 9.12, true),
        ]);
        let l = layout_page(&p);
        assert_eq!(l.body.len(), 1);
        assert_eq!(l.body[0].text(), "PART VII");
        assert!(l.body[0].is_centred(612.0));
    }

    #[test]
    fn an_item_label_that_lost_its_open_paren_gets_it_back() {
        // 2024 p. 227, Article 338(8): "(b)" at 210.0 pt, then "c)" and "d)" at 213.1 pt.
        let p = page(vec![
            glyphs("(b) requiring the discovery", 210.0, 401.5, 9.12, false),
            glyphs(
                "c) receiving evidence on affidavits;",
                213.1,
                393.6,
                9.12,
                false,
            ),
            glyphs(
                "d) requisitioning any public record",
                213.1,
                385.4,
                9.12,
                false,
            ),
            glyphs("court or office;", 186.0, 377.5, 9.12, false),
            glyphs("date) of members belonging", 186.0, 369.6, 9.12, false),
        ]);
        let l = layout_page(&p);
        let texts: Vec<String> = l.body.iter().map(Line::text).collect();
        assert_eq!(texts[1], "(c) receiving evidence on affidavits;");
        assert_eq!(texts[2], "(d) requisitioning any public record");
        assert_eq!(l.body[1].x0, l.body[0].x0);
        // Not an item: no label just above, no alignment.
        assert_eq!(texts[4], "date) of members belonging");
        let lone = layout_page(&page(vec![glyphs("c) text", 213.1, 393.6, 9.12, false)]));
        assert_eq!(lone.body[0].text(), "c) text");
    }

    #[test]
    fn a_leader_running_under_its_figure_does_not_split_it() {
        // 2024 p. 305: the dots end at 423.3 pt, the "16" starts at 420.5 pt.
        let mut gs = glyphs("West Bengal ", 176.4, 475.7, 9.12, false);
        gs.extend((0..8).map(|i| Glyph {
            ch: '.',
            x0: 404.2 + i as f32 * 2.35,
            x1: 406.5 + i as f32 * 2.35,
            y: 475.7,
            size: 9.12,
            bold: false,
        }));
        gs.push(Glyph {
            ch: ' ',
            x0: 423.2,
            x1: 423.2,
            y: 475.7,
            size: 9.12,
            bold: false,
        });
        gs.extend(glyphs("16]", 420.5, 475.7, 9.12, false));
        let l = layout_page(&page(vec![gs]));
        assert_eq!(l.body[0].text(), "West Bengal .......16]");
        // A full stop that touches nothing stays.
        let l = layout_page(&page(vec![glyphs(
            "Sikkim ... 1.",
            176.4,
            475.7,
            9.12,
            false,
        )]));
        assert_eq!(l.body[0].text(), "Sikkim ... 1.");
    }

    #[test]
    fn gap_between_glyphs_is_a_space() {
        let mut gs = glyphs("business;", 186.0, 491.0, 9.12, false);
        gs.extend(glyphs("or", 186.0 + 9.0 * 4.56 + 3.0, 491.0, 9.12, false));
        let l = layout_page(&page(vec![gs]));
        assert_eq!(l.body[0].text(), "business; or");
    }
}
