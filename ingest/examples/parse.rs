//! Debug aid: parse a PDF and print coverage, warnings, and the provisions named.
//! `cargo run --release -p nyaya-ingest --example parse -- corpus/x.pdf 21A SCH-7`
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bytes = std::fs::read(&args[1]).expect("read pdf");
    let t = std::time::Instant::now();
    let doc =
        nyaya_ingest::parse_pdf(&bytes, &nyaya_ingest::pdf::default_library_path()).expect("parse");
    eprintln!("parsed in {:?}", t.elapsed());
    eprintln!("edition: {}", doc.edition);
    eprintln!("contents: {} entries", doc.contents.len());
    eprintln!("provisions: {}", doc.provisions.len());
    eprintln!("missing: {:?}", doc.missing);
    eprintln!("duplicates: {:?}", doc.duplicates);
    eprintln!("warnings: {}", doc.warnings.len());
    for w in doc.warnings.iter().take(40) {
        eprintln!("  {w}");
    }
    if let Ok(p) = std::env::var("DEBUG_PAGE") {
        debug_page(&bytes, p.parse().unwrap());
    }
    for id in &args[2..] {
        if id == "ALL" {
            for p in &doc.provisions {
                println!(
                    "{} | {} | {:?} | {:?} | {:?} | p{}-{} | {:?}",
                    p.id,
                    p.title,
                    p.part.as_ref().map(|x| format!("{} {}", x.number, x.title)),
                    p.chapter,
                    p.subheading,
                    p.page_start,
                    p.page_end,
                    p.status
                );
            }
            continue;
        }
        match doc.provisions.iter().find(|p| p.id.as_str() == id) {
            Some(p) => println!("{}", serde_json::to_string_pretty(p).unwrap()),
            None => println!("{id}: not found"),
        }
    }
}

#[allow(dead_code)]
fn debug_page(bytes: &[u8], page: u32) {
    let pages =
        nyaya_ingest::pdf::read_pages(bytes, &nyaya_ingest::pdf::default_library_path()).unwrap();
    let l = nyaya_ingest::layout::layout_page(&pages[page as usize - 1]);
    let lines: Vec<_> = l.body.iter().map(|x| (x, l.width)).collect();
    let mut m = Vec::new();
    for f in nyaya_ingest::structure::group_footnotes(&l) {
        println!("FOOTNOTE {:?}", f);
    }
    for c in nyaya_ingest::structure::clean_lines(&lines, &mut m) {
        println!(
            "x0={:.1} c={} segs={:?} ev={:?}",
            c.x0, c.centred, c.segs, c.events
        );
    }
}
