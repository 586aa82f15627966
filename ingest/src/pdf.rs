//! The only module that talks to the PDF library.
//!
//! It turns PDF bytes into [`Page`]s of positioned [`Glyph`]s — character, baseline origin,
//! font size, boldness — and nothing else. Everything that knows about the Constitution's
//! layout lives in `layout` and `structure`, which are pure and testable without a PDF.
//!
//! Why pdfium (see `adr/0001-pdf-library.md`): it builds in under a minute, parses the 402
//! pages in well under a second, is BSD/MIT/Apache licensed, and its shared library comes from
//! a PyPI wheel (`pypdfium2`), so it installs offline.
//!
//! Bold cannot be read from this PDF's font names or descriptors (anonymised names that change
//! meaning per page; every descriptor says the same flags). The embedded font program's OS/2
//! `usWeightClass` is the only reliable signal, so we read it with `ttf-parser`, once per font
//! per page.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use pdfium_render::prelude::*;

/// Errors from opening or reading a PDF. Each names what went wrong in words a user can act on.
#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    #[error("the PDF library could not be loaded from {path}: {reason} (run `make setup`, or set NYAYA_PDFIUM_LIB)")]
    Library { path: PathBuf, reason: String },
    #[error("the input is not a PDF (it does not start with %PDF-)")]
    NotPdf,
    #[error("the PDF could not be read (truncated or damaged?): {0}")]
    Damaged(String),
}

/// One character as drawn on the page. Coordinates are PDF points, origin bottom-left.
#[derive(Debug, Clone, PartialEq)]
pub struct Glyph {
    pub ch: char,
    /// Left edge of the glyph box.
    pub x0: f32,
    /// Right edge of the glyph box.
    pub x1: f32,
    /// Baseline (the text origin's y).
    pub y: f32,
    /// Font size as drawn (scaled), in points.
    pub size: f32,
    pub bold: bool,
}

/// One page's glyphs, in content-stream order.
#[derive(Debug, Clone)]
pub struct Page {
    /// 1-based PDF page number.
    pub number: u32,
    pub width: f32,
    pub height: f32,
    pub glyphs: Vec<Glyph>,
}

static PDFIUM: OnceLock<Result<Pdfium, String>> = OnceLock::new();

/// Where the pdfium shared library is looked for when no path is given.
pub fn default_library_path() -> PathBuf {
    std::env::var_os("NYAYA_PDFIUM_LIB")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(".cache/lib/libpdfium.so"))
}

/// Pdfium can be bound once per process; later calls reuse the first binding.
fn pdfium(lib: &Path) -> Result<&'static Pdfium, PdfError> {
    PDFIUM
        .get_or_init(|| {
            Pdfium::bind_to_library(lib)
                .map(Pdfium::new)
                .map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|reason| PdfError::Library {
            path: lib.to_path_buf(),
            reason: reason.clone(),
        })
}

/// Reads every page of `bytes` into glyphs.
pub fn read_pages(bytes: &[u8], lib: &Path) -> Result<Vec<Page>, PdfError> {
    // Checked before pdfium sees the bytes so that "not a PDF" is told apart from "damaged".
    let head = &bytes[..bytes.len().min(1024)];
    if !head.windows(5).any(|w| w == b"%PDF-") {
        return Err(PdfError::NotPdf);
    }
    let pdfium = pdfium(lib)?;
    let doc = pdfium
        .load_pdf_from_byte_slice(bytes, None)
        .map_err(|e| PdfError::Damaged(e.to_string()))?;
    let mut pages = Vec::with_capacity(doc.pages().len() as usize);
    for (i, page) in doc.pages().iter().enumerate() {
        let text = page
            .text()
            .map_err(|e| PdfError::Damaged(format!("page {}: {e}", i + 1)))?;
        let mut bold_by_font: HashMap<String, bool> = HashMap::new();
        let mut glyphs: Vec<Glyph> = Vec::with_capacity(text.len().max(0) as usize);
        for c in text.chars().iter() {
            let Some(mut ch) = c.unicode_char() else {
                continue;
            };
            if c.is_generated().unwrap_or(false) {
                // pdfium infers word spaces the content stream leaves out ("business;or"). Its
                // boxes for them are meaningless, so they sit right after the glyph before.
                if ch == ' ' {
                    if let Some(prev) = glyphs.last().cloned() {
                        glyphs.push(Glyph {
                            ch: ' ',
                            x0: prev.x1,
                            x1: prev.x1,
                            ..prev
                        });
                    }
                }
                continue;
            }
            // pdfium reports a hyphen at the end of a line as U+0002.
            if ch == '\u{2}' {
                ch = '-';
            }
            // Symbol fonts put ASCII in the private-use block (U+F02A is the asterisk of an
            // omission mark in the 2022 edition).
            if ('\u{F020}'..='\u{F07E}').contains(&ch) {
                ch = char::from_u32(ch as u32 - 0xF000).unwrap_or(ch);
            }
            if ch.is_control() {
                continue;
            }
            let Ok(bounds) = c.loose_bounds() else {
                continue;
            };
            let (_, oy) = c.origin().unwrap_or((bounds.bottom(), bounds.bottom()));
            let font_name = c.font_name();
            let bold = match bold_by_font.get(&font_name) {
                Some(b) => *b,
                None => {
                    let b = c
                        .text_object()
                        .ok()
                        .map(|o| font_is_bold(&o.font()))
                        .unwrap_or(false);
                    bold_by_font.insert(font_name, b);
                    b
                }
            };
            glyphs.push(Glyph {
                ch,
                x0: bounds.left().value,
                x1: bounds.right().value,
                y: oy.value,
                size: c.scaled_font_size().value,
                bold,
            });
        }
        pages.push(Page {
            number: i as u32 + 1,
            width: page.width().value,
            height: page.height().value,
            glyphs,
        });
    }
    Ok(pages)
}

/// Bold means the embedded font program says weight ≥ 600. Falls back to pdfium's own weight
/// when the font has no readable program (never the case in the official PDF).
fn font_is_bold(font: &PdfFont) -> bool {
    if let Ok(data) = font.data() {
        if let Ok(face) = ttf_parser::Face::parse(&data, 0) {
            return face.weight().to_number() >= 600;
        }
    }
    matches!(
        font.weight(),
        Ok(PdfFontWeight::Weight600
            | PdfFontWeight::Weight700Bold
            | PdfFontWeight::Weight800
            | PdfFontWeight::Weight900)
    )
}
