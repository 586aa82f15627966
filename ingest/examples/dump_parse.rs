//! Debug aid: prints everything the parser learned from a PDF (`ParsedDocument`, in full), so
//! that a refactor of the parser can be proved to change nothing: dump before and after, then
//! `cmp` the two.
//! `cargo run --release -p nyaya-ingest --example dump_parse -- corpus/x.pdf > before.txt`
fn main() {
    let path = std::env::args().nth(1).expect("usage: dump_parse <pdf>");
    let bytes = std::fs::read(&path).expect("read pdf");
    let doc =
        nyaya_ingest::parse_pdf(&bytes, &nyaya_ingest::pdf::default_library_path()).expect("parse");
    println!("{doc:#?}");
}
