//! `nyaya::ingest::ingest_file` against a real Postgres: what a first ingest stores, that a
//! re-ingest is a no-op, that bad inputs fail clearly without touching the stored corpus, and
//! that concurrent ingests leave exactly one consistent corpus.

mod common;

use std::path::{Path, PathBuf};

use sqlx::PgPool;

use common::{config, hello_world_pdf, real_pdf, snapshot};
use nyaya::error::AppError;
use nyaya::ingest::ingest_file;
use nyaya::store::IngestSummary;
use nyaya_ingest::pdf::PdfError;
use nyaya_ingest::structure::StructureError;
use nyaya_ingest::IngestError;

/// A scratch folder for files the tests write; removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir =
            std::env::temp_dir().join(format!("nyaya-test-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A summary with the fields that legitimately differ between two runs blanked out.
fn comparable(s: &IngestSummary) -> IngestSummary {
    IngestSummary {
        changed: false,
        seconds: 0.0,
        ..s.clone()
    }
}

async fn count(pool: &PgPool, table: &str) -> usize {
    sqlx::query_scalar::<_, i64>(&format!("SELECT count(*) FROM {table}"))
        .fetch_one(pool)
        .await
        .unwrap() as usize
}

/// Asserts that `err` is the expected kind and that its message says what is wrong.
fn check_error(input: &str, err: &AppError, matches: bool, must_say: &[&str]) {
    let msg = err.to_string();
    assert!(matches, "{input}: unexpected error variant {err:?}");
    for words in must_say {
        assert!(
            msg.contains(words),
            "{input}: message {msg:?} should say {words:?}"
        );
    }
}

/// The whole life of a stored corpus, with one parse of the real PDF:
/// 1. the first ingest stores a complete corpus whose rows match its summary;
/// 2. ingesting the same file again is a no-op that reports the same summary, rewrites nothing;
/// 3. each bad input (missing file, folder, text, empty file, truncated PDF, a valid PDF of
///    another document) fails with an error naming the problem, and the stored corpus (document
///    rows, provisions, chunk ids, text) is exactly as before.
#[sqlx::test(migrator = "nyaya::db::MIGRATOR")]
async fn ingest_stores_once_and_bad_inputs_change_nothing(pool: PgPool) {
    let cfg = config(&pool);
    let pdf = real_pdf();

    // 1. First ingest.
    let first = ingest_file(&pool, &cfg, &pdf).await.expect("first ingest");
    let s = &first.summary;
    assert!(first.complete, "{s:?}");
    assert!(s.changed, "a first ingest stores the corpus");
    assert!(
        s.missing.is_empty(),
        "Contents entries not found: {:?}",
        s.missing
    );
    assert!(
        s.duplicates.is_empty(),
        "found more than once: {:?}",
        s.duplicates
    );
    assert_eq!(s.edition, "As on 1st May, 2024");
    assert_eq!(
        s.sha256,
        nyaya_ingest::sha256_hex(&std::fs::read(&pdf).unwrap())
    );
    assert_eq!(s.parser_version, nyaya_ingest::PARSER_VERSION);
    assert_eq!(s.schedules, 12);
    assert_eq!(s.appendices, 3);
    // 395 numbered Articles in 1950, over a hundred lettered ones inserted since.
    assert!((450..=520).contains(&s.articles), "articles {}", s.articles);
    assert_eq!(s.provisions, 1 + s.articles + s.schedules + s.appendices);
    assert!(s.chunks >= s.provisions, "chunks {}", s.chunks);
    assert!(
        s.amendment_notes > 500,
        "amendment notes {}",
        s.amendment_notes
    );
    assert!(s.cross_refs > 300, "cross-refs {}", s.cross_refs);
    assert!(s.pages > 300 && s.pages <= 402, "pages {}", s.pages);

    // What is stored is what the summary says.
    assert_eq!(count(&pool, "provisions").await, s.provisions);
    assert_eq!(count(&pool, "chunks").await, s.chunks);
    assert_eq!(count(&pool, "amendment_notes").await, s.amendment_notes);
    assert_eq!(count(&pool, "cross_refs").await, s.cross_refs);
    let stored = snapshot(&pool).await;
    assert_eq!(stored.documents.len(), 1);
    let (doc_id, sha, current, has_pdf) = stored.documents[0].clone();
    assert!(current && has_pdf && sha == s.sha256);
    assert_eq!(stored.provision_documents, [doc_id]);

    // 2. Same file again: nothing is rewritten (same document row, same chunk ids).
    let second = ingest_file(&pool, &cfg, &pdf).await.expect("second ingest");
    assert!(second.complete);
    assert!(!second.summary.changed, "a re-ingest must be a no-op");
    assert_eq!(comparable(&second.summary), comparable(s));
    assert_eq!(snapshot(&pool).await, stored);

    // 3. Bad inputs, each compared against the stored corpus.
    let before = stored;
    let tmp = TempDir::new("bad-inputs");
    let real = std::fs::read(real_pdf()).unwrap();

    // A file that does not exist.
    let missing = tmp.0.join("no-such-file.pdf");
    let err = ingest_file(&pool, &cfg, &missing).await.unwrap_err();
    check_error(
        "missing file",
        &err,
        matches!(&err, AppError::File { path, .. } if path == &missing.display().to_string()),
        &["cannot read", "no-such-file.pdf", "No such file"],
    );
    assert_eq!(snapshot(&pool).await, before, "after a missing file");

    // A folder where a file is expected.
    let err = ingest_file(&pool, &cfg, &tmp.0).await.unwrap_err();
    check_error(
        "folder",
        &err,
        matches!(err, AppError::File { .. }),
        &["cannot read"],
    );
    assert_eq!(snapshot(&pool).await, before, "after a folder");

    // Text, not a PDF; and an empty file.
    for (name, bytes) in [
        (
            "notes.pdf",
            &b"The Constitution of India, as plain text.\n"[..],
        ),
        ("empty.pdf", &b""[..]),
    ] {
        let path = tmp.write(name, bytes);
        let err = ingest_file(&pool, &cfg, &path).await.unwrap_err();
        check_error(
            name,
            &err,
            matches!(err, AppError::Ingest(IngestError::Pdf(PdfError::NotPdf))),
            &["not a PDF"],
        );
        assert_eq!(snapshot(&pool).await, before, "after {name}");
    }

    // The real PDF cut off after 100 KB.
    let path = tmp.write("truncated.pdf", &real[..100 * 1024]);
    let err = ingest_file(&pool, &cfg, &path).await.unwrap_err();
    check_error(
        "truncated PDF",
        &err,
        matches!(
            err,
            AppError::Ingest(IngestError::Pdf(PdfError::Damaged(_)))
        ),
        &["could not be read", "truncated or damaged"],
    );
    assert_eq!(snapshot(&pool).await, before, "after a truncated PDF");

    // A valid PDF of some other document. First prove it is valid: pdfium reads its text.
    let hello = hello_world_pdf();
    let pages = nyaya_ingest::pdf::read_pages(&hello, &cfg.pdfium_lib).expect("a valid PDF");
    let text: String = pages[0].glyphs.iter().map(|g| g.ch).collect();
    assert_eq!(pages.len(), 1);
    assert!(text.contains("Hello world"), "read {text:?}");
    let path = tmp.write("hello.pdf", &hello);
    let err = ingest_file(&pool, &cfg, &path).await.unwrap_err();
    check_error(
        "hello-world PDF",
        &err,
        matches!(
            err,
            AppError::Ingest(IngestError::Structure(StructureError::NotConstitution(_)))
        ),
        &["not the Constitution of India"],
    );
    assert_eq!(snapshot(&pool).await, before, "after another document");

    // And the real file is still recognised as what is stored.
    let again = ingest_file(&pool, &cfg, &real_pdf()).await.unwrap();
    assert!(!again.summary.changed);
    assert_eq!(snapshot(&pool).await, before);
}

/// Bad inputs on an empty database fail the same way and store nothing at all.
#[sqlx::test(migrator = "nyaya::db::MIGRATOR")]
async fn bad_inputs_on_an_empty_database_store_nothing(pool: PgPool) {
    let cfg = config(&pool);
    let tmp = TempDir::new("empty-db");
    let inputs: Vec<PathBuf> = vec![
        Path::new("/nonexistent/constitution.pdf").to_path_buf(),
        tmp.write("notes.txt", b"hello"),
        tmp.write("hello.pdf", &hello_world_pdf()),
    ];
    for path in &inputs {
        let err = ingest_file(&pool, &cfg, path).await.unwrap_err();
        assert!(!err.to_string().is_empty());
        assert_eq!(count(&pool, "documents").await, 0, "{}", path.display());
        assert_eq!(count(&pool, "provisions").await, 0, "{}", path.display());
    }
    assert!(nyaya::store::corpus_info(&pool, None)
        .await
        .unwrap()
        .is_none());
}

/// Two ingests of the same file racing on an empty database: both succeed, exactly one stores,
/// and the result is one current document owning every provision and chunk.
#[sqlx::test(migrator = "nyaya::db::MIGRATOR")]
async fn concurrent_ingests_leave_one_consistent_corpus(pool: PgPool) {
    let cfg = config(&pool);
    let pdf = real_pdf();
    let (a, b) = tokio::join!(
        ingest_file(&pool, &cfg, &pdf),
        ingest_file(&pool, &cfg, &pdf)
    );
    let (a, b) = (a.expect("ingest A"), b.expect("ingest B"));
    assert!(a.complete && b.complete);
    assert!(
        a.summary.changed != b.summary.changed,
        "exactly one ingest stores: A changed={}, B changed={}",
        a.summary.changed,
        b.summary.changed
    );
    assert_eq!(comparable(&a.summary), comparable(&b.summary));

    let snap = snapshot(&pool).await;
    assert_eq!(snap.documents.len(), 1, "{:?}", snap.documents);
    let (doc_id, _, current, _) = snap.documents[0].clone();
    assert!(current);
    assert_eq!(snap.provision_documents, [doc_id]);
    assert_eq!(snap.provisions as usize, a.summary.provisions);
    assert_eq!(snap.chunk_ids.2 as usize, a.summary.chunks);
    assert_eq!(snap.amendment_notes as usize, a.summary.amendment_notes);
    assert_eq!(snap.cross_refs as usize, a.summary.cross_refs);
    let info = nyaya::store::corpus_info(&pool, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(info.provisions as usize, a.summary.provisions);
}
