//! Two editions in one database: the 2022 printing is ingested first and answers a question,
//! then the 2024 printing is added beside it (not over it). Each check is a named function
//! saying what it proves; the two ingests (no vectors) are shared by all of them.

mod common;

use axum::http::StatusCode;
use axum::Router;
use serde_json::Value;
use sqlx::PgPool;

use common::{app, config, expect_error, get, post_raw, real_pdf, repo_path};

fn pdf_2022() -> std::path::PathBuf {
    repo_path("corpus/constitution-of-india-2022-05.pdf")
}

#[sqlx::test(migrator = "nyaya::db::MIGRATOR")]
async fn editions_side_by_side(pool: PgPool) {
    let cfg = config(&pool);
    let old = nyaya::ingest::ingest_corpus(&pool, &cfg, &pdf_2022())
        .await
        .expect("the 2022 PDF ingests");
    assert!(old.complete && old.summary.changed, "{:?}", old.summary);
    let app = app(&pool);

    // With one edition stored, it is the default; an answer reads it.
    let answer_id = an_answer_recorded_under_2022(&app).await;

    let new = nyaya::ingest::ingest_corpus(&pool, &cfg, &real_pdf())
        .await
        .expect("the 2024 PDF ingests");
    assert!(new.complete && new.summary.changed, "{:?}", new.summary);

    both_are_listed_and_the_newest_is_the_default(&app).await;
    reingesting_an_edition_is_a_no_op_that_leaves_the_other(&pool).await;
    provisions_read_the_edition_asked_for(&app).await;
    unknown_editions_are_404_with_the_stored_dates(&app).await;
    search_reads_the_edition_asked_for(&app).await;
    the_answer_still_reconstructs_under_2022(&app, &answer_id).await;
    the_diff_lists_the_106th_amendment_and_nothing_from_layout(&app).await;
    the_stored_diff_equals_the_diff_of_the_parsed_pdfs(&app).await;
    diff_requests_are_checked(&app).await;
    as_of_rebuilds_from_the_footnotes_and_says_so(&app).await;
}

/// `nyaya serve`'s background pass, what `make run` relies on for the second edition: it finds
/// the other PDF in the default PDF's folder and stores it beside whatever is there; a second
/// pass stores nothing. (The default PDF itself is the start-up ingest's job, not this pass's.)
#[sqlx::test(migrator = "nyaya::db::MIGRATOR")]
async fn the_start_up_pass_stores_the_other_editions_once(pool: PgPool) {
    let cfg = config(&pool);
    assert_eq!(
        nyaya::ingest::edition_pass(pool.clone(), cfg.clone()).await,
        1
    );
    let live: Vec<String> = sqlx::query_scalar(
        "SELECT edition_date::text FROM documents WHERE is_current ORDER BY edition_date",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(live, ["2022-05-01"]);
    assert_eq!(nyaya::ingest::edition_pass(pool.clone(), cfg).await, 0);
}

async fn an_answer_recorded_under_2022(app: &Router) -> String {
    let (status, r) = post_raw(
        app,
        "/v1/ask",
        r#"{"question": "What does Article 239AA say?", "mode": "extractive"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{r}");
    let first = &r["citations"][0];
    assert_eq!(first["ref"], "239AA", "{r}");
    assert_eq!(first["edition"], "As on May, 2022", "{r}");
    r["request_id"].as_str().unwrap().to_string()
}

async fn both_are_listed_and_the_newest_is_the_default(app: &Router) {
    let (status, e) = get(app, "/v1/editions").await;
    assert_eq!(status, StatusCode::OK, "{e}");
    assert_eq!(e["default"], "2024-05-01");
    let dates: Vec<&str> = e["editions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["date"].as_str().unwrap())
        .collect();
    assert_eq!(dates, ["2024-05-01", "2022-05-01"]);
    assert_eq!(e["editions"][1]["label"], "As on May, 2022");

    let (_, ready) = get(app, "/readyz").await;
    assert_eq!(ready["corpus"]["edition"], "As on 1st May, 2024", "{ready}");
    assert_eq!(ready["corpus"]["editions"].as_array().unwrap().len(), 2);
}

async fn reingesting_an_edition_is_a_no_op_that_leaves_the_other(pool: &PgPool) {
    let before = common::snapshot(pool).await;
    let again = nyaya::ingest::ingest_corpus(pool, &config(pool), &pdf_2022())
        .await
        .unwrap();
    assert!(again.complete && !again.summary.changed);
    assert_eq!(common::snapshot(pool).await, before);
    let per_edition: Vec<(String, i64)> = sqlx::query_as(
        "SELECT d.edition_date::text, count(p.*) FROM documents d
         JOIN provisions p ON p.document_id = d.id WHERE d.is_current
         GROUP BY 1 ORDER BY 1",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    assert_eq!(
        per_edition,
        [
            ("2022-05-01".to_string(), 519),
            ("2024-05-01".to_string(), 522)
        ]
    );
}

async fn provisions_read_the_edition_asked_for(app: &Router) {
    // 330A was inserted by the 106th Amendment (2023): in 2024, not in 2022.
    let (status, p) = get(app, "/v1/provisions/330A").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(p["edition_date"], "2024-05-01");
    for selector in ["2022", "2022-05", "2022-05-01"] {
        let (status, body) = get(app, &format!("/v1/provisions/330A?edition={selector}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{selector}: {body}");
        expect_error(&body, "unknown_ref");
    }
    // 239AA gained clause (2)(ba) by the same Act.
    let text = |p: &Value| p["text"].as_str().unwrap().to_string();
    let (_, new) = get(app, "/v1/provisions/239AA").await;
    let (_, old) = get(app, "/v1/provisions/Art.%20239AA?edition=2022").await;
    assert_eq!(old["edition_date"], "2022-05-01");
    assert_eq!(old["edition"], "As on May, 2022");
    let ba = "reserved for women in the Legislative Assembly";
    assert!(text(&new).contains(ba) && !text(&old).contains(ba));

    let (_, toc) = get(app, "/v1/provisions?edition=2022&kind=article").await;
    let (_, toc_new) = get(app, "/v1/provisions?kind=article").await;
    assert_eq!(
        toc["count"].as_u64().unwrap() + 3,
        toc_new["count"].as_u64().unwrap()
    );
}

async fn unknown_editions_are_404_with_the_stored_dates(app: &Router) {
    for selector in ["1950", "2024-06", "20x4", "2022-5-1"] {
        let (status, body) = get(app, &format!("/v1/provisions/21?edition={selector}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{selector}: {body}");
        let err = expect_error(&body, "unknown_edition");
        let msg = err["message"].as_str().unwrap();
        assert!(
            msg.contains("2022-05-01") && msg.contains("2024-05-01"),
            "{msg}"
        );
    }
}

async fn search_reads_the_edition_asked_for(app: &Router) {
    let query = "reservation of seats for women in the House of the People";
    let refs = |r: &Value| -> Vec<String> {
        r["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["ref"].as_str().unwrap().to_string())
            .collect()
    };
    let (status, r) = post_raw(
        app,
        "/v1/search",
        &format!(r#"{{"query": "{query}", "mode": "lexical"}}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{r}");
    assert_eq!(r["edition"]["date"], "2024-05-01");
    let got = refs(&r);
    assert!(got.iter().any(|x| x == "330A"), "{got:?}");
    let (status, r) = post_raw(
        app,
        "/v1/search",
        &format!(r#"{{"query": "{query}", "mode": "lexical", "edition": "2022"}}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{r}");
    assert_eq!(r["edition"]["date"], "2022-05-01");
    let got = refs(&r);
    let added_in_2023 = ["330A", "332A", "334A"];
    assert!(
        got.len() >= 5 && !got.iter().any(|x| added_in_2023.contains(&x.as_str())),
        "{got:?}"
    );
}

async fn the_answer_still_reconstructs_under_2022(app: &Router, id: &str) {
    let (status, r) = get(app, &format!("/v1/answers/{id}")).await;
    assert_eq!(status, StatusCode::OK, "{r}");
    assert_eq!(r["corpus"]["edition"], "As on May, 2022", "{r}");
    assert_eq!(r["corpus"]["edition_date"], "2022-05-01", "{r}");
    assert_eq!(r["corpus"]["unchanged"], true, "{r}");
    assert_eq!(r["all_quotes_match"], true, "{r}");
    // The quote is the 2022 wording, not the 2024 one.
    let quote = r["citations"][0]["quote"].as_str().unwrap();
    assert!(
        !quote.is_empty() && !quote.contains("reserved for women"),
        "{quote}"
    );

    // A new answer reads the new default edition.
    let (_, a) = post_raw(
        app,
        "/v1/ask",
        r#"{"question": "What does Article 239AA say?", "mode": "extractive"}"#,
    )
    .await;
    assert_eq!(a["citations"][0]["edition"], "As on 1st May, 2024", "{a}");
    let (status, a) = post_raw(
        app,
        "/v1/ask",
        r#"{"question": "What does Article 239AA say?", "edition": "2019"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{a}");
    expect_error(&a, "unknown_edition");
}

fn ids(d: &Value, kind: &str) -> Vec<String> {
    d["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == kind)
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect()
}

async fn the_diff_lists_the_106th_amendment_and_nothing_from_layout(app: &Router) {
    let (status, d) = get(app, "/v1/diff?from=2022").await;
    assert_eq!(status, StatusCode::OK, "{d}");
    assert_eq!(d["from"]["date"], "2022-05-01");
    assert_eq!(d["to"]["date"], "2024-05-01");
    assert_eq!(ids(&d, "amended"), ["239AA"]);
    assert_eq!(ids(&d, "inserted"), ["330A", "332A", "334A"]);
    assert!(ids(&d, "omitted").is_empty());
    assert_eq!(d["counts"]["amended"], 1);
    assert_eq!(d["counts"]["inserted"], 3);
    let amended = &d["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "239AA")
        .unwrap();
    let acts: Vec<&str> = amended["acts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["instrument"].as_str().unwrap())
        .collect();
    assert!(
        acts.iter()
            .all(|a| a.contains("One Hundred and Sixth Amendment")),
        "{acts:?}"
    );
    let added: String = amended["words"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["op"] == "added")
        .map(|w| w["text"].as_str().unwrap())
        .collect();
    assert!(added.contains("reserved for women"), "{added}");

    let (_, one) = get(app, "/v1/diff?from=2022-05-01&to=2024&ref=Art.%20239-AA").await;
    assert_eq!(ids(&one, "amended"), ["239AA"], "{one}");
    assert_eq!(one["changes"].as_array().unwrap().len(), 1);
}

/// The diff served from the stored rows is the diff of the two PDFs parsed afresh, change for
/// change and word for word: storing loses nothing the comparison reads.
async fn the_stored_diff_equals_the_diff_of_the_parsed_pdfs(app: &Router) {
    let lib = common::pdfium_lib();
    let parse =
        |p: std::path::PathBuf| nyaya_ingest::parse_pdf(&std::fs::read(p).unwrap(), &lib).unwrap();
    let expected = nyaya_ingest::diff::compare(&parse(pdf_2022()), &parse(real_pdf()));
    let (_, d) = get(app, "/v1/diff?from=2022&to=2024").await;
    let got: Vec<nyaya_ingest::diff::ProvisionChange> =
        serde_json::from_value(d["changes"].clone()).unwrap();
    assert_eq!(got.len(), expected.changes.len());
    for (g, e) in got.iter().zip(&expected.changes) {
        assert_eq!(g, e, "{}", e.id);
    }
    assert_eq!(d["counts"]["unchanged"], expected.unchanged);
}

async fn diff_requests_are_checked(app: &Router) {
    for (uri, status, code) in [
        ("/v1/diff", StatusCode::BAD_REQUEST, "bad_request"),
        (
            "/v1/diff?from=2024&to=2022",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        ("/v1/diff?from=2024", StatusCode::BAD_REQUEST, "bad_request"),
        (
            "/v1/diff?from=2021",
            StatusCode::NOT_FOUND,
            "unknown_edition",
        ),
        (
            "/v1/diff?from=2022&ref=999",
            StatusCode::NOT_FOUND,
            "unknown_ref",
        ),
        (
            "/v1/diff?from=2022%00",
            StatusCode::BAD_REQUEST,
            "invalid_text",
        ),
    ] {
        let (got, body) = get(app, uri).await;
        assert_eq!(got, status, "{uri}: {body}");
        expect_error(&body, code);
    }
}

async fn as_of_rebuilds_from_the_footnotes_and_says_so(app: &Router) {
    // The 42nd Amendment's words undone, each passage labelled with its footnote.
    let (status, r) = get(app, "/v1/provisions/Preamble/as-of?date=1976-01-01").await;
    assert_eq!(status, StatusCode::OK, "{r}");
    let text = r["text"].as_str().unwrap();
    assert!(
        text.contains("SOVEREIGN DEMOCRATIC REPUBLIC") && !text.contains("SECULAR"),
        "{text}"
    );
    assert_eq!(r["as_printed"], false);
    assert!(r["notice"]
        .as_str()
        .unwrap()
        .contains("not an official text"));
    let spans = r["reconstructed"].as_array().unwrap();
    assert!(!spans.is_empty());
    for s in spans {
        assert!(
            s["label"]
                .as_str()
                .unwrap()
                .contains("not an official text"),
            "{s}"
        );
        assert!(
            s["source"]["act"]
                .as_str()
                .unwrap()
                .contains("Forty-second Amendment"),
            "{s}"
        );
    }

    // On the 2022 edition's date: 330A did not exist, and 239AA reads as the 2022 print does
    // (up to the one printing difference, "per cent." against "percent.").
    let (_, r) = get(app, "/v1/provisions/330A/as-of?date=2022-05-01").await;
    assert_eq!(r["existed"], false, "{r}");
    assert!(r["inserted_by"]["act"]
        .as_str()
        .unwrap()
        .contains("One Hundred and Sixth"));
    let (_, r) = get(app, "/v1/provisions/239AA/as-of?date=2022-05-01").await;
    let (_, printed_2022) = get(app, "/v1/provisions/239AA?edition=2022").await;
    let same = |s: &str| nyaya_ingest::diff::comparable(s).replace("percent.", "per cent.");
    assert_eq!(
        same(r["text"].as_str().unwrap()),
        same(printed_2022["text"].as_str().unwrap())
    );
    // "Before the 86th Amendment" is a day, and 21A did not exist on it.
    let (_, r) = get(app, "/v1/provisions/21A/as-of?before_amendment=86").await;
    assert_eq!(r["date"], "2010-03-31", "{r}");
    assert_eq!(r["existed"], false);
    // A provision untouched since: as printed.
    let (_, r) = get(app, "/v1/provisions/1/as-of?date=2022-05-01").await;
    assert_eq!(r["as_printed"], true, "{r}");

    for (uri, code) in [
        ("/v1/provisions/21/as-of", "bad_request"),
        (
            "/v1/provisions/21/as-of?date=2000-01-01&before_amendment=42",
            "bad_request",
        ),
        ("/v1/provisions/21/as-of?date=1-1-2000", "bad_request"),
        ("/v1/provisions/21/as-of?date=2030-01-01", "bad_request"),
        (
            "/v1/provisions/21/as-of?before_amendment=999",
            "bad_request",
        ),
        ("/v1/provisions/999/as-of?date=2000-01-01", "unknown_ref"),
    ] {
        let (status, body) = get(app, uri).await;
        assert!(status.is_client_error(), "{uri}: {status} {body}");
        expect_error(&body, code);
    }
}
