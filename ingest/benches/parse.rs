//! `make bench`: how long a parse of the whole official PDF takes (issue target: < 5 s).
//!
//! `read_pages` is the PDF library's share (glyphs out of pdfium); `layout+structure` is ours.

use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};

fn pdf() -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/constitution-of-india-2024-05-01.pdf");
    std::fs::read(path).expect("corpus PDF")
}

fn lib() -> PathBuf {
    std::env::var_os("NYAYA_PDFIUM_LIB")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.cache/lib/libpdfium.so")
        })
}

fn bench(c: &mut Criterion) {
    let bytes = pdf();
    let lib = lib();
    let mut g = c.benchmark_group("parse_2024");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.bench_function("whole_pdf", |b| {
        b.iter(|| nyaya_ingest::parse_pdf(&bytes, &lib).unwrap())
    });
    g.bench_function("read_pages", |b| {
        b.iter(|| nyaya_ingest::pdf::read_pages(&bytes, &lib).unwrap())
    });
    let pages = nyaya_ingest::pdf::read_pages(&bytes, &lib).unwrap();
    g.bench_function("layout+structure", |b| {
        b.iter(|| {
            let layouts: Vec<_> = pages
                .iter()
                .map(nyaya_ingest::layout::layout_page)
                .collect();
            nyaya_ingest::structure::parse_layout(&layouts).unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
