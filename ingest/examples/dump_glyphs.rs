//! Debug aid: prints each page's glyph runs (same line, size and weight) with position.
//! `cargo run -p nyaya-ingest --example dump_glyphs -- corpus/x.pdf 42 43`
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bytes = std::fs::read(&args[1]).expect("read pdf");
    let from: u32 = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(1);
    let to: u32 = args.get(3).map(|s| s.parse().unwrap()).unwrap_or(from);
    let pages = nyaya_ingest::pdf::read_pages(&bytes, &nyaya_ingest::pdf::default_library_path())
        .expect("pages");
    for p in pages.iter().filter(|p| p.number >= from && p.number <= to) {
        println!("=== page {} ({}x{})", p.number, p.width, p.height);
        let mut run = String::new();
        let mut cur: Option<&nyaya_ingest::pdf::Glyph> = None;
        for g in &p.glyphs {
            if let Some(c) = cur {
                if (c.y - g.y).abs() > 0.5 || (c.size - g.size).abs() > 0.3 || c.bold != g.bold {
                    println!(
                        "x={:6.1} y={:6.1} s={:5.2} {} |{}|",
                        c.x0,
                        c.y,
                        c.size,
                        if c.bold { "B" } else { " " },
                        run
                    );
                    run.clear();
                    cur = Some(g);
                }
            } else {
                cur = Some(g);
            }
            run.push(g.ch);
        }
        if let Some(c) = cur {
            println!(
                "x={:6.1} y={:6.1} s={:5.2} {} |{}|",
                c.x0,
                c.y,
                c.size,
                if c.bold { "B" } else { " " },
                run
            );
        }
    }
}
