//! The HTTP API against a real Postgres holding the real corpus.
//!
//! Parsing the PDF takes seconds, so `api_after_ingest` ingests once into its fresh database and
//! then runs every read check against it; each check is a named function saying what it proves.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use serde_json::Value;
use sqlx::PgPool;
use tower::ServiceExt;

use common::{app, call, config, expect_error, get, real_pdf};
use nyaya::store::IngestSummary;

#[sqlx::test(migrator = "nyaya::db::MIGRATOR")]
async fn api_after_ingest(pool: PgPool) {
    let outcome = nyaya::ingest::ingest_file(&pool, &config(&pool), &real_pdf())
        .await
        .expect("the real PDF ingests");
    assert!(outcome.complete, "incomplete parse: {:?}", outcome.summary);
    let summary = outcome.summary;
    let app = app(&pool);

    health_and_readiness(&app, &summary).await;
    article_21a_in_full(&app).await;
    spellings_resolve_to_the_same_provision(&app).await;
    every_listed_ref_round_trips(&app, &summary).await;
    cross_references_point_both_ways(&app).await;
    clauses_are_slices_of_the_text(&app).await;
    unknown_refs_are_404_with_the_ref(&app).await;
    table_of_contents_filters(&app, &summary).await;
    bad_filters_are_400(&app).await;
    unknown_paths_are_json_errors(&app).await;
    omitted_articles_are_marked_omitted(&app).await;
    the_page_and_the_pdf_are_served(&app, &summary).await;
    metrics_count_requests_by_route_template(&app).await;
    hostile_inputs_get_typed_4xx(&app).await;
    arbitrary_text_never_gets_a_5xx(&app).await;
    eligibility_quotes_are_verbatim_and_verdicts_hold(&app).await;
}

/// Every criterion of `data/eligibility.toml` quotes words that are in its clause of the parsed
/// PDF (whitespace-normalised); and the issue's examples get the verdicts they must.
async fn eligibility_quotes_are_verbatim_and_verdicts_hold(app: &Router) {
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let catalogue = nyaya::eligibility::Catalogue::builtin();
    let mut checked = 0;
    for office in &catalogue.offices {
        for c in &office.criteria {
            let (_, p) = get(app, &format!("/v1/provisions/{}", c.ref_id)).await;
            let clause_text = |label: &str| -> String {
                if label.is_empty() {
                    return p["text"].as_str().unwrap_or("").to_string();
                }
                p["clauses"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|k| k["label"] == label)
                    .and_then(|k| k["text"].as_str())
                    .unwrap_or_else(|| {
                        panic!("{}/{}: no clause {label} in {}", office.id, c.id, c.ref_id)
                    })
                    .to_string()
            };
            let mut pairs = vec![(c.clause.as_str(), c.phrase.as_str())];
            pairs.extend(
                c.options
                    .iter()
                    .map(|o| (o.clause.as_str(), o.phrase.as_str())),
            );
            for (label, phrase) in pairs {
                assert!(
                    norm(&clause_text(label)).contains(&norm(phrase)),
                    "{}/{}: {phrase:?} is not in {}{label}",
                    office.id,
                    c.id,
                    c.ref_id
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 40, "{checked} phrases checked");

    let ask = |office: &str, facts: Value| {
        let body = serde_json::json!({"office": office, "facts": facts}).to_string();
        async move { common::post_raw(app, "/v1/eligibility", &body).await }
    };
    // "Can I become President at 30?": not eligible, on 58(1)(b)'s own words.
    let (status, v) = ask("president", serde_json::json!({"age": 30})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["verdict"], "not_eligible", "{v}");
    let failing: Vec<&Value> = v["criteria"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == "not_met")
        .collect();
    assert_eq!(failing.len(), 1, "{v}");
    assert_eq!(
        (failing[0]["ref"].as_str(), failing[0]["clause"].as_str()),
        (Some("58"), Some("(1)(b)"))
    );
    assert!(failing[0]["quote"]
        .as_str()
        .unwrap()
        .contains("thirty-five years"));
    // "… I am 40.": more information, citizenship first, then what the House of the People asks.
    let (_, v) = ask("president", serde_json::json!({"age": 40})).await;
    assert_eq!(v["verdict"], "need_more_info", "{v}");
    assert_eq!(v["missing_facts"][0]["id"], "citizen", "{v}");
    // "I'm 23, can I be a panchayat member?": never refused on age (243F's proviso: 21).
    let (_, v) = ask("panchayat", serde_json::json!({"age": 23})).await;
    assert_ne!(v["verdict"], "not_eligible", "{v}");
    assert!(
        v["criteria"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["ref"] == "243F"
                && c["status"] == "met"
                && c["quote"].as_str().unwrap().contains("twenty-one years")),
        "{v}"
    );
    // 8 years at the bar: never eligible for a High Court bench.
    let (_, v) = ask(
        "high court judge",
        serde_json::json!({"citizen": true, "years_advocate_high_court": 8}),
    )
    .await;
    assert_ne!(v["verdict"], "likely_eligible", "{v}");
    // Typed errors.
    let (status, e) = ask("emperor", serde_json::json!({})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(e["error"]["message"]
        .as_str()
        .unwrap()
        .contains("known offices"));
    let (status, _) = ask("president", serde_json::json!({"agee": 30})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, list) = get(app, "/v1/eligibility/offices").await;
    assert_eq!(status, StatusCode::OK);
    assert!(list["offices"].as_array().unwrap().len() >= 15, "{list}");
}

/// Generated text (any Unicode, controls included) as a query, a question, a history turn and a
/// path: a 2xx or a typed 4xx every time. Deterministic seeds, so a failure reproduces.
async fn arbitrary_text_never_gets_a_5xx(app: &Router) {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;
    let strategy = proptest::prop_oneof![
        proptest::arbitrary::any::<String>(),
        "[ -~]{0,40}",
        "(Article|Art\\.|अनुच्छेद) [0-9]{1,3}[A-Z]?(\\([0-9a-z]\\))?[ -~\\x00-\\x1f]{0,10}",
    ];
    let mut runner = TestRunner::deterministic();
    for i in 0..48 {
        let text = strategy.new_tree(&mut runner).unwrap().current();
        let escaped: String = text
            .bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect();
        let requests = [
            ("POST", "/v1/search".to_string(), serde_json::json!({"query": text, "mode": "lexical"}).to_string()),
            ("POST", "/v1/ask".to_string(), serde_json::json!({"question": text, "mode": "extractive"}).to_string()),
            ("POST", "/v1/ask".to_string(), serde_json::json!({"question": "And Article 22?", "history": [{"question": text, "refs": ["21"]}]}).to_string()),
            ("GET", format!("/v1/provisions/{escaped}"), String::new()),
            ("GET", format!("/v1/provisions?part={escaped}"), String::new()),
        ];
        for (method, uri, body) in requests {
            if method == "POST" && uri == "/v1/ask" && i % 4 != 0 {
                continue; // an answer costs more than a search: every fourth case
            }
            let (status, _, reply) = common::send(app, method, &uri, &[], &body).await;
            assert!(
                status.is_success() || status.is_client_error(),
                "{method} {uri} with {text:?} → {status}: {reply}"
            );
            if status.is_client_error() {
                let json: Value = serde_json::from_str(&reply).unwrap();
                assert!(json["error"]["code"].is_string(), "{reply}");
            }
        }
    }
}

/// What probes and careless clients send: every one gets a typed 4xx JSON error (or a 2xx when
/// the input is, after all, a valid request) — never a 5xx, never a driver's message.
async fn hostile_inputs_get_typed_4xx(app: &Router) {
    let deep = format!("{}1{}", "[".repeat(4000), "]".repeat(4000));
    let huge = format!(r#"{{"query": "{}"}}"#, "a".repeat(3 * 1024 * 1024));
    let long = format!(r#"{{"query": "{}"}}"#, "right ".repeat(2000));
    // (method, uri, body, status, code; "" = a 2xx)
    let probes: Vec<(&str, String, String, u16, &str)> = vec![
        (
            "POST",
            "/v1/search".into(),
            "{\"query\": ".into(),
            400,
            "bad_request",
        ),
        (
            "POST",
            "/v1/search".into(),
            "not json".into(),
            400,
            "bad_request",
        ),
        (
            "POST",
            "/v1/search".into(),
            deep.clone(),
            400,
            "bad_request",
        ),
        ("POST", "/v1/ask".into(), deep, 400, "bad_request"),
        (
            "POST",
            "/v1/search".into(),
            huge.clone(),
            413,
            "payload_too_large",
        ),
        ("POST", "/v1/ask".into(), huge, 413, "payload_too_large"),
        ("POST", "/v1/search".into(), long, 400, "bad_request"),
        (
            "POST",
            "/v1/search".into(),
            r#"{"query": "What is Article 21?\u0000"}"#.into(),
            400,
            "invalid_text",
        ),
        (
            "POST",
            "/v1/ask".into(),
            r#"{"question": "What is Article 21?\u0000"}"#.into(),
            400,
            "invalid_text",
        ),
        (
            "POST",
            "/v1/ask/stream".into(),
            r#"{"question": "\u001b[31mred"}"#.into(),
            400,
            "invalid_text",
        ),
        (
            "POST",
            "/v1/ask".into(),
            r#"{"question": "Article 21?", "history": [{"question": "a\u0000", "refs": []}]}"#
                .into(),
            400,
            "invalid_text",
        ),
        (
            "POST",
            "/v1/ask".into(),
            r#"{"question": "Article 21?", "history": [{"question": "a", "refs": ["21\u0000"]}]}"#
                .into(),
            400,
            "invalid_text",
        ),
        (
            "GET",
            "/v1/provisions/21%00".into(),
            String::new(),
            400,
            "invalid_text",
        ),
        (
            "GET",
            "/v1/provisions?part=III%00".into(),
            String::new(),
            400,
            "invalid_text",
        ),
        (
            "GET",
            "/v1/answers/abc%00".into(),
            String::new(),
            400,
            "invalid_text",
        ),
        (
            "POST",
            "/v1/search".into(),
            r#"{"query": "\ud800 right to life"}"#.into(),
            400,
            "bad_request",
        ),
        (
            "POST",
            "/v1/ask".into(),
            r#"{"question": "\udfff"}"#.into(),
            400,
            "bad_request",
        ),
        // tsquery syntax is text to us: a valid query
        (
            "POST",
            "/v1/search".into(),
            r#"{"query": "life & !liberty | (21:* <-> 22)", "mode": "lexical"}"#.into(),
            200,
            "",
        ),
        (
            "POST",
            "/v1/search".into(),
            r#"{"query": "'\\'; DROP TABLE provisions; --", "mode": "lexical"}"#.into(),
            200,
            "",
        ),
        (
            "GET",
            "/v1/provisions/..%2F..%2Fetc%2Fpasswd".into(),
            String::new(),
            404,
            "unknown_ref",
        ),
        (
            "GET",
            "/../../etc/passwd".into(),
            String::new(),
            404,
            "not_found",
        ),
        (
            "GET",
            "/static/..%2F..%2FCargo.toml".into(),
            String::new(),
            404,
            "not_found",
        ),
        (
            "POST",
            "/v1/search".into(),
            r#"{"query": "life", "k": 0}"#.into(),
            400,
            "bad_request",
        ),
        (
            "POST",
            "/v1/search".into(),
            r#"{"query": "life", "k": -1}"#.into(),
            400,
            "bad_request",
        ),
        (
            "POST",
            "/v1/search".into(),
            r#"{"query": "life", "k": 1e9}"#.into(),
            400,
            "bad_request",
        ),
        (
            "POST",
            "/v1/search".into(),
            r#"{"query": "life", "mode": "psychic"}"#.into(),
            400,
            "bad_request",
        ),
        (
            "POST",
            "/v1/ask".into(),
            r#"{"question": "life", "mode": "psychic"}"#.into(),
            400,
            "bad_request",
        ),
        (
            "POST",
            "/v1/ask".into(),
            r#"{"question": 21}"#.into(),
            400,
            "bad_request",
        ),
        (
            "POST",
            "/v1/ask".into(),
            r#"{"question": "life", "extra": 1}"#.into(),
            400,
            "bad_request",
        ),
        (
            "GET",
            "/v1/answers/no-such-answer".into(),
            String::new(),
            404,
            "unknown_answer",
        ),
        (
            "GET",
            "/v1/provisions/999Z".into(),
            String::new(),
            404,
            "unknown_ref",
        ),
        (
            "GET",
            "/v1/provisions?kind=%27%3B--".into(),
            String::new(),
            400,
            "bad_request",
        ),
    ];
    for (method, uri, body, want_status, want_code) in probes {
        let (status, headers, text) = common::send(app, method, &uri, &[], &body).await;
        let shown = &text[..text.len().min(300)];
        assert_eq!(
            status.as_u16(),
            want_status,
            "{method} {uri} {:.80}: {shown}",
            body
        );
        if want_code.is_empty() {
            continue;
        }
        let json: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{method} {uri}: not JSON ({e}): {shown}"));
        expect_error(&json, want_code);
        assert!(
            headers["content-type"]
                .to_str()
                .unwrap()
                .starts_with("application/json"),
            "{method} {uri}"
        );
        let message = json["error"]["message"].as_str().unwrap();
        for leak in ["sqlx", "SQLSTATE", "invalid byte sequence", "postgres"] {
            assert!(!message.contains(leak), "{method} {uri}: {message}");
        }
    }
}

/// `/` is the chat page with its assets; `/v1/document.pdf` is the ingested PDF itself.
async fn the_page_and_the_pdf_are_served(app: &Router, summary: &IngestSummary) {
    let (status, headers, body) = common::send(app, "GET", "/", &[], "").await;
    assert_eq!(status, StatusCode::OK);
    assert!(headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    for asset in ["/assets/app.js", "/assets/app.css"] {
        assert!(body.contains(asset), "the page does not load {asset}");
        let (status, headers, text) = common::send(app, "GET", asset, &[], "").await;
        assert_eq!(status, StatusCode::OK, "{asset}");
        assert!(!text.is_empty(), "{asset} is empty");
        assert!(headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with(if asset.ends_with(".js") {
                "text/javascript"
            } else {
                "text/css"
            }));
    }
    // The string catalogue app.js fetches: JSON, English and Hindi.
    let (status, headers, text) = common::send(app, "GET", "/assets/catalogue.json", &[], "").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "application/json");
    let catalogue: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(catalogue["hi"]["ask.button"], "पूछें", "{text}");
    // No CDN, no web font, no remote script or style: the page works offline (links for
    // the reader to follow are fine).
    let lower = body.to_lowercase();
    for remote in [
        "src=\"http",
        "src=\"//",
        "rel=\"stylesheet\" href=\"http",
        "@import",
    ] {
        assert!(
            !lower.contains(remote),
            "the page loads a remote resource ({remote})"
        );
    }
    let (status, body) = get(app, "/assets/nope.js").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    expect_error(&body, "not_found");

    let resp = app
        .clone()
        .oneshot(
            Request::builder()
                .uri("/v1/document.pdf")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(resp.headers()["content-type"], "application/pdf");
    assert!(resp.headers()["etag"]
        .to_str()
        .unwrap()
        .contains(&summary.sha256));
    let bytes = http_body_util::BodyExt::collect(resp.into_body())
        .await
        .unwrap()
        .to_bytes();
    assert_eq!(
        bytes,
        std::fs::read(real_pdf()).unwrap(),
        "not the ingested PDF"
    );
}

/// `/metrics` counts requests by route template (never the raw path) and status.
async fn metrics_count_requests_by_route_template(app: &Router) {
    let text = common::metrics_text(app).await;
    let ok = common::metric(
        &text,
        r#"nyaya_http_requests_total{route="/v1/provisions/{reference}",method="GET",status="200"}"#,
    );
    assert!(ok.unwrap_or(0.0) >= 10.0, "{ok:?}\n{text}");
    let missing = common::metric(
        &text,
        r#"nyaya_http_requests_total{route="/v1/provisions/{reference}",method="GET",status="404"}"#,
    );
    assert!(missing.unwrap_or(0.0) >= 1.0, "{missing:?}");
    assert!(
        common::metric(
            &text,
            r#"nyaya_http_requests_total{route="unmatched",method="GET",status="404"}"#
        )
        .is_some(),
        "{text}"
    );
    assert!(
        !text.contains("route=\"/v1/provisions/21A\""),
        "a raw path became a label"
    );
    assert!(text.contains("nyaya_http_request_duration_seconds_bucket"));
}

/// `/healthz` is always 200; `/readyz` is 200 and describes the corpus just stored.
async fn health_and_readiness(app: &Router, summary: &IngestSummary) {
    let (status, body) = get(app, "/healthz").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["status"], "ok");

    let (status, body) = get(app, "/readyz").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["status"], "ready");
    assert_eq!(body["corpus"]["sha256"], summary.sha256.as_str());
    assert_eq!(body["corpus"]["edition"], "As on 1st May, 2024");
    assert_eq!(body["corpus"]["provisions"], summary.provisions as i64);
}

/// `GET /v1/provisions/21A` returns every documented field with the real content.
async fn article_21a_in_full(app: &Router) {
    let (status, p) = get(app, "/v1/provisions/21A").await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["ref"], "21A");
    assert_eq!(p["kind"], "article");
    assert_eq!(p["number"], "21A");
    assert_eq!(p["title"], "Right to education");
    assert_eq!(p["part"]["number"], "III");
    assert_eq!(p["part"]["title"], "Fundamental Rights");
    assert_eq!(p["status"], "in_force");
    assert_eq!(p["edition"], "As on 1st May, 2024");
    let (start, end) = (
        p["pages"]["start"].as_i64().unwrap(),
        p["pages"]["end"].as_i64().unwrap(),
    );
    assert!(
        0 < start && start <= end && end < 402,
        "pages {start}..{end}"
    );
    assert!(
        p["text"].as_str().unwrap().contains(
            "free and compulsory education to all children of the age of six to fourteen years"
        ),
        "text: {}",
        p["text"]
    );
    assert!(p["clauses"].is_array());

    // One footnote: inserted by the 86th Amendment, in force from 1 April 2010.
    let notes = p["amendments"].as_array().unwrap();
    assert_eq!(notes.len(), 1, "{notes:#?}");
    let n = &notes[0];
    assert_eq!(n["kind"], "inserted");
    assert_eq!(n["amendment_number"], 86);
    assert_eq!(n["effective_from"], "2010-04-01");
    assert!(
        n["instrument"]
            .as_str()
            .unwrap_or("")
            .contains("Eighty-sixth Amendment"),
        "{n}"
    );
    assert!(n["raw"].as_str().unwrap().starts_with("Ins. by"), "{n}");

    assert!(p["cross_refs"]["outgoing"].is_array());
    assert!(p["cross_refs"]["incoming"].is_array());
}

/// The spellings people write resolve to the same stored provision, and so do the canonical
/// ids the API itself returns (`SCH-7`, `APP-II`).
async fn spellings_resolve_to_the_same_provision(app: &Router) {
    let (_, canonical) = get(app, "/v1/provisions/21A").await;
    for spelling in [
        "Art.%2021-A",
        "article%2021a",
        "Article%2021A",
        "21a",
        "21-A",
    ] {
        let (status, p) = get(app, &format!("/v1/provisions/{spelling}")).await;
        assert_eq!(status, StatusCode::OK, "{spelling}: {p}");
        assert_eq!(p, canonical, "{spelling} gives a different body");
    }

    for (spelling, want) in [
        ("seventh%20schedule", "SCH-7"),
        ("Seventh%20Schedule", "SCH-7"),
        ("SCH-7", "SCH-7"),
        ("sch-7", "SCH-7"),
        ("preamble", "PREAMBLE"),
        ("PREAMBLE", "PREAMBLE"),
        ("Appendix%20II", "APP-II"),
        ("APP-II", "APP-II"),
    ] {
        let (status, p) = get(app, &format!("/v1/provisions/{spelling}")).await;
        assert_eq!(status, StatusCode::OK, "{spelling}: {p}");
        assert_eq!(p["ref"], want, "{spelling}");
    }

    let (_, sch7) = get(app, "/v1/provisions/SCH-7").await;
    assert_eq!(sch7["kind"], "schedule");
    assert!(sch7["part"].is_null());
    assert!(sch7["text"].as_str().unwrap().contains("Union List"));

    let (_, preamble) = get(app, "/v1/provisions/preamble").await;
    assert_eq!(preamble["kind"], "preamble");
    assert!(
        preamble["text"]
            .as_str()
            .unwrap()
            .starts_with("WE, THE PEOPLE OF INDIA"),
        "{}",
        preamble["text"]
    );
}

/// Every `ref` in the table of contents can be fetched back by that ref.
async fn every_listed_ref_round_trips(app: &Router, summary: &IngestSummary) {
    let (status, toc) = get(app, "/v1/provisions").await;
    assert_eq!(status, StatusCode::OK);
    let items = toc["provisions"].as_array().unwrap();
    assert_eq!(toc["count"], items.len());
    assert_eq!(items.len(), summary.provisions);
    let mut failures = Vec::new();
    for item in items {
        let r = item["ref"].as_str().unwrap();
        let (status, p) = get(app, &format!("/v1/provisions/{r}")).await;
        if status != StatusCode::OK || p["ref"] != r || p["title"] != item["title"] {
            failures.push(format!("{r} → {status} {}", p["ref"]));
        }
    }
    assert!(
        failures.is_empty(),
        "refs that do not round-trip: {failures:?}"
    );
}

fn refs(list: &Value, key: &str) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .filter_map(|x| x[key].as_str().map(String::from))
        .collect()
}

/// Cross-references are stored once and read both ways: 31A cites 14 and 19, and 14 lists 31A
/// among the provisions citing it; Article 32 has references in and out.
async fn cross_references_point_both_ways(app: &Router) {
    let (_, a31a) = get(app, "/v1/provisions/31A").await;
    let out = refs(&a31a["cross_refs"]["outgoing"], "to");
    for target in ["13", "14", "19"] {
        assert!(out.iter().any(|t| t == target), "31A outgoing {out:?}");
    }
    let incoming = a31a["cross_refs"]["incoming"].as_array().unwrap();
    let from_31b = incoming
        .iter()
        .find(|x| x["from"] == "31B")
        .unwrap_or_else(|| panic!("31B cites 31A; incoming {incoming:?}"));
    assert_eq!(
        from_31b["title"],
        "Validation of certain Acts and Regulations"
    );

    for target in ["14", "19"] {
        let (_, p) = get(app, &format!("/v1/provisions/{target}")).await;
        let from = refs(&p["cross_refs"]["incoming"], "from");
        assert!(
            from.iter().any(|f| f == "31A"),
            "{target} incoming {from:?}"
        );
    }

    let (_, a32) = get(app, "/v1/provisions/32").await;
    let out = a32["cross_refs"]["outgoing"].as_array().unwrap();
    assert!(!out.is_empty(), "32 has no outgoing refs");
    // "the rights conferred by this Part" is a reference to Part III, not to a provision.
    assert!(
        out.iter()
            .any(|x| x["to_part"] == "III" && x["to"].is_null()),
        "{out:?}"
    );
    let from = refs(&a32["cross_refs"]["incoming"], "from");
    for source in ["35", "139", "226"] {
        assert!(from.iter().any(|f| f == source), "32 incoming {from:?}");
    }
    // Every outgoing ref names exactly one of a provision and a Part, with the words that made it.
    for x in out {
        assert!(x["to"].is_null() != x["to_part"].is_null(), "{x}");
        assert!(!x["surface"].as_str().unwrap().is_empty(), "{x}");
    }
}

/// Each clause's `text` is exactly the characters `start..end` of the provision's text.
async fn clauses_are_slices_of_the_text(app: &Router) {
    let (_, a32) = get(app, "/v1/provisions/32").await;
    let text: Vec<char> = a32["text"].as_str().unwrap().chars().collect();
    let clauses = a32["clauses"].as_array().unwrap();
    let labels: Vec<&str> = clauses
        .iter()
        .map(|c| c["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["(1)", "(2)", "(3)", "(4)"]);
    for c in clauses {
        let (s, e) = (
            c["start"].as_u64().unwrap() as usize,
            c["end"].as_u64().unwrap() as usize,
        );
        assert!(s < e && e <= text.len(), "{c}");
        let slice: String = text[s..e].iter().collect();
        assert_eq!(c["text"], slice.as_str());
        assert!(slice.starts_with(c["label"].as_str().unwrap()), "{c}");
    }
}

/// Anything that names no stored provision is a 404 `unknown_ref` that echoes the query.
async fn unknown_refs_are_404_with_the_ref(app: &Router) {
    for (path, query) in [
        ("999", "999"),
        ("banana", "banana"),
        ("SCH-13", "SCH-13"),
        ("Article%2014%20and%2019", "Article 14 and 19"),
    ] {
        let (status, body) = get(app, &format!("/v1/provisions/{path}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {body}");
        let err = expect_error(&body, "unknown_ref");
        assert_eq!(err["ref"], query);
        assert!(
            err["message"].as_str().unwrap().contains(query),
            "message should name {query:?}: {err}"
        );
    }
}

/// `?part=` and `?kind=` filter the table of contents, in constitutional order.
async fn table_of_contents_filters(app: &Router, summary: &IngestSummary) {
    let part_iii: Vec<&str> = vec![
        "12", "13", "14", "15", "16", "17", "18", "19", "20", "21", "21A", "22", "23", "24", "25",
        "26", "27", "28", "29", "30", "31", "31A", "31B", "31C", "31D", "32", "32A", "33", "34",
        "35",
    ];
    for q in ["part=III", "part=iii", "part=%20III%20"] {
        let (status, body) = get(app, &format!("/v1/provisions?{q}")).await;
        assert_eq!(status, StatusCode::OK, "{q}: {body}");
        assert_eq!(refs(&body["provisions"], "ref"), part_iii, "{q}");
        assert_eq!(body["count"], part_iii.len());
        for item in body["provisions"].as_array().unwrap() {
            assert_eq!(item["part_number"], "III");
            assert_eq!(item["part_title"], "Fundamental Rights");
            if item["ref"] == "14" {
                assert_eq!(item["subheading"], "Right to Equality", "{item}");
            }
        }
    }

    let (status, body) = get(app, "/v1/provisions?kind=schedule").await;
    assert_eq!(status, StatusCode::OK);
    let schedules: Vec<String> = (1..=12).map(|n| format!("SCH-{n}")).collect();
    assert_eq!(refs(&body["provisions"], "ref"), schedules);
    assert_eq!(body["count"], 12);

    for (kind, n) in [
        ("preamble", 1),
        ("article", summary.articles),
        ("appendix", 3),
        ("Appendix", 3),
    ] {
        let (status, body) = get(app, &format!("/v1/provisions?kind={kind}")).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["count"], n, "kind={kind}");
    }
    let (_, body) = get(app, "/v1/provisions?kind=appendix").await;
    assert_eq!(
        refs(&body["provisions"], "ref"),
        ["APP-I", "APP-II", "APP-III"]
    );

    // Both filters at once: Part III holds no Schedule.
    let (status, body) = get(app, "/v1/provisions?part=III&kind=schedule").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["count"], 0);
}

/// An invalid filter is a 400 JSON error naming the bad value, not an empty list.
async fn bad_filters_are_400(app: &Router) {
    for (q, bad) in [("kind=bogus", "bogus"), ("part=XCIX", "XCIX")] {
        let (status, body) = get(app, &format!("/v1/provisions?{q}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{q}: {body}");
        let err = expect_error(&body, "bad_request");
        assert!(
            err["message"].as_str().unwrap().contains(bad),
            "message should name {bad:?}: {err}"
        );
    }
}

/// A path the API does not have gets the same JSON error shape: 404 `not_found`.
async fn unknown_paths_are_json_errors(app: &Router) {
    for path in ["/v2/provisions/21A", "/nope", "/v1/provisions/21A/extra"] {
        let (status, body) = get(app, path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(body["error"]["code"], "not_found", "{path}");
        let err = body["error"].clone();
        assert!(err["code"].is_string(), "{path}: {body}");
        assert!(
            err["message"].as_str().unwrap_or("").contains(path),
            "message should name the path: {body}"
        );
    }
}

/// Omitted Articles are stored as omitted with their old title, whether the PDF prints them
/// "31. [Title.].—Omitted by …" or "32A. [Title.].—Omitted by …" with no bold title.
/// (The parser before 268c2fc stored 32A, 131A, 226A, 389 … as in force, "—Omitted" in the title.)
async fn omitted_articles_are_marked_omitted(app: &Router) {
    for r in ["31", "31D", "32A", "131A", "226A", "389"] {
        let (status, p) = get(app, &format!("/v1/provisions/{r}")).await;
        assert_eq!(status, StatusCode::OK, "{r}: {p}");
        assert_eq!(p["status"], "omitted", "{r}: {}", p["title"]);
        let title = p["title"].as_str().unwrap();
        assert!(
            !title.is_empty() && !title.contains("Omitted"),
            "{r}: {title:?}"
        );
        assert!(
            p["text"].as_str().unwrap().starts_with("Omitted by"),
            "{r}: {}",
            p["text"]
        );
    }
    let (_, p) = get(app, "/v1/provisions/32A").await;
    assert_eq!(
        p["title"],
        "Constitutional validity of State laws not to be considered in proceedings under article 32"
    );
}

/// With no corpus: the process is live but not ready (503 `no_corpus`), and lookups say no.
#[sqlx::test(migrator = "nyaya::db::MIGRATOR")]
async fn empty_database_is_live_but_not_ready(pool: PgPool) {
    let app = app(&pool);
    let (status, body) = get(&app, "/healthz").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["status"], "ok");

    let (status, body) = get(&app, "/readyz").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    let err = expect_error(&body, "no_corpus");
    assert!(
        err["message"].as_str().unwrap().contains("nyaya ingest"),
        "the message should say how to fix it: {err}"
    );

    // Nothing ingested is not the same answer as "not in the Constitution".
    let (status, body) = get(&app, "/v1/provisions/21A").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    expect_error(&body, "no_corpus");

    let (status, body) = get(&app, "/v1/document.pdf").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    expect_error(&body, "no_corpus");

    let (status, body) = get(&app, "/v1/provisions?kind=bogus").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    expect_error(&body, "bad_request");
}

/// Requests the router cannot even hand to a handler still get a JSON error: a wrong method is
/// 405 with an `Allow` header, an undecodable path or query string is 400.
#[sqlx::test(migrator = "nyaya::db::MIGRATOR")]
async fn malformed_requests_get_json_errors(pool: PgPool) {
    let app = app(&pool);
    for (method, uri) in [("POST", "/v1/provisions/21A"), ("DELETE", "/healthz")] {
        let resp = app
            .clone()
            .oneshot(
                Request::builder()
                    .method(method)
                    .uri(uri)
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(
            resp.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method} {uri}"
        );
        let allow = resp
            .headers()
            .get("allow")
            .map(|v| v.to_str().unwrap().to_string());
        assert!(
            allow.as_deref().unwrap_or("").contains("GET"),
            "Allow: {allow:?}"
        );
        let (_, body) = call(&app, method, uri).await;
        let err = expect_error(&body, "method_not_allowed");
        assert!(err["message"].as_str().unwrap().contains(method), "{err}");
    }

    for uri in [
        "/v1/provisions/%FF",                        // not UTF-8
        "/v1/provisions?kind=article&kind=schedule", // a filter given twice
    ] {
        let (status, body) = get(&app, uri).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {body}");
        expect_error(&body, "bad_request");
    }
}
