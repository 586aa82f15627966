//! The `nyaya` binary end to end, against a per-test database: exit codes, stdout and stderr.

mod common;

use std::process::{Command, Output};

use serde_json::Value;
use sqlx::PgPool;

use common::{database_url, model_dir, ort_lib, pdfium_lib, real_pdf};

/// Runs the built binary against the test database, from a CWD unrelated to the repository so
/// that nothing depends on relative defaults.
fn nyaya(pool: &PgPool, args: &[&str]) -> Output {
    nyaya_with(pool, args, &[])
}

fn nyaya_with(pool: &PgPool, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_nyaya"));
    cmd.args(args)
        .current_dir(std::env::temp_dir())
        .env("DATABASE_URL", database_url(pool))
        .env("NYAYA_PDFIUM_LIB", pdfium_lib())
        .env("NYAYA_MODEL_DIR", model_dir())
        .env("NYAYA_ORT_LIB", ort_lib())
        .env("NYAYA_NO_EMBED", "true")
        .env("NYAYA_PDF", real_pdf())
        .env("NYAYA_LOG", "error");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the nyaya binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

async fn documents(pool: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM documents")
        .fetch_one(pool)
        .await
        .unwrap()
}

/// `nyaya ingest --json` prints exactly one JSON object with the documented keys; a second run
/// reports `changed: false`; `nyaya provision` then finds 21A by any spelling, and an unknown
/// reference exits non-zero naming it.
#[sqlx::test(migrator = "nyaya::db::MIGRATOR")]
async fn ingest_json_then_provision_lookups(pool: PgPool) {
    let pdf = real_pdf();
    let pdf = pdf.to_str().unwrap();

    let out = nyaya(&pool, &["ingest", pdf, "--json"]);
    assert!(out.status.success(), "{:?}: {}", out.status, stderr(&out));
    let text = stdout(&out);
    assert_eq!(
        text.trim().lines().count(),
        1,
        "one line of JSON expected: {text}"
    );
    let s: Value = serde_json::from_str(text.trim()).expect("stdout is JSON");
    for key in [
        "edition",
        "sha256",
        "provisions",
        "articles",
        "schedules",
        "appendices",
        "chunks",
        "amendment_notes",
        "cross_refs",
        "embedded",
        "model",
        "missing",
        "duplicates",
        "changed",
        "seconds",
    ] {
        assert!(s.get(key).is_some(), "no {key:?} in {s}");
    }
    assert_eq!(s["changed"], true);
    assert_eq!(s["schedules"], 12);
    assert_eq!(s["appendices"], 3);
    assert_eq!(s["missing"], serde_json::json!([]));
    assert_eq!(s["duplicates"], serde_json::json!([]));
    assert!(s["seconds"].as_f64().unwrap() > 0.0);

    let again = nyaya(&pool, &["ingest", pdf, "--json"]);
    assert!(again.status.success(), "{}", stderr(&again));
    let s2: Value = serde_json::from_str(stdout(&again).trim()).unwrap();
    assert_eq!(s2["changed"], false);
    assert_eq!(s2["sha256"], s["sha256"]);
    assert_eq!(s2["provisions"], s["provisions"]);
    assert_eq!(documents(&pool).await, 1);

    // Without --json: the one-line human summary.
    let plain = nyaya(&pool, &["ingest", pdf]);
    assert!(plain.status.success(), "{}", stderr(&plain));
    assert!(stdout(&plain).contains("unchanged"), "{}", stdout(&plain));

    let out = nyaya(&pool, &["provision", "21A", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let p: Value = serde_json::from_str(&stdout(&out)).expect("provision --json is JSON");
    assert_eq!(p["ref"], "21A");
    assert_eq!(p["title"], "Right to education");

    let out = nyaya(&pool, &["provision", "Art. 21-A"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("Article 21A — Right to education"),
        "{text}"
    );
    assert!(text.contains("free and compulsory education"), "{text}");
    assert!(text.contains("Eighty-sixth Amendment"), "the note: {text}");

    let out = nyaya(&pool, &["provision", "banana"]);
    assert!(!out.status.success(), "banana must not be found");
    assert!(
        stdout(&out).is_empty(),
        "nothing on stdout: {}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("banana"),
        "stderr should name the reference: {}",
        stderr(&out)
    );
}

/// `nyaya provision` on an empty database fails, naming the reference, without printing a
/// provision.
#[sqlx::test(migrator = "nyaya::db::MIGRATOR")]
async fn provision_unknown_ref_fails_naming_it(pool: PgPool) {
    let out = nyaya(&pool, &["provision", "banana"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).is_empty());
    let err = stderr(&out);
    assert!(err.contains("error:") && err.contains("banana"), "{err}");
}

/// `nyaya ingest` of a file that is not there exits non-zero, says which file and why, prints
/// no JSON and stores nothing.
#[sqlx::test(migrator = "nyaya::db::MIGRATOR")]
async fn ingest_missing_file_fails_clearly(pool: PgPool) {
    let out = nyaya(&pool, &["ingest", "/nonexistent.pdf", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).is_empty(),
        "no JSON on failure: {}",
        stdout(&out)
    );
    let err = stderr(&out);
    assert!(
        err.contains("/nonexistent.pdf") && err.contains("No such file"),
        "{err}"
    );
    assert_eq!(documents(&pool).await, 0);
}

/// A wrong PDFium path is reported as such (with the hint to fix it), before any parsing.
#[sqlx::test(migrator = "nyaya::db::MIGRATOR")]
async fn ingest_without_pdfium_says_so(pool: PgPool) {
    let pdf = real_pdf();
    let out = nyaya_with(
        &pool,
        &["ingest", pdf.to_str().unwrap(), "--json"],
        &[("NYAYA_PDFIUM_LIB", "/nonexistent/libpdfium.so")],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("PDF library could not be loaded")
            && err.contains("/nonexistent/libpdfium.so"),
        "{err}"
    );
    assert!(err.contains("NYAYA_PDFIUM_LIB"), "the hint: {err}");
    assert_eq!(documents(&pool).await, 0);
}
