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

/// `nyaya eval` runs any golden file in the contract format and prints the documented JSON;
/// gates fail the run (exit 1) when a bound is missed, and a malformed file is a clear error.
#[sqlx::test(migrator = "nyaya::db::MIGRATOR")]
async fn eval_runs_any_golden_file_and_gates_fail_the_run(pool: PgPool) {
    let out = nyaya(&pool, &["ingest", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));

    let dir = std::env::temp_dir().join(format!("nyaya-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let golden = dir.join("outside.jsonl");
    // An outside set: two answerable cases, one lookup, one must-refuse, and an extra field.
    std::fs::write(
        &golden,
        r#"{"id": "X-1", "split": "dev", "category": "simple", "question": "Can children be made to work in a factory?", "expected_refs": ["24"], "acceptable_refs": [], "question_refs": [], "must_refuse": false, "reference_answer": "No child below the age of fourteen years shall be employed to work in any factory.", "evidence": "p.43: No child below the age of fourteen years shall be employed to work in any factory", "notes": "", "source": "outside"}
{"id": "X-2", "split": "dev", "category": "article_lookup", "question": "Art. 21-A", "expected_refs": ["21A"], "acceptable_refs": [], "question_refs": ["21A"], "must_refuse": false, "reference_answer": "Right to education.", "evidence": "p.42: free and compulsory education to all children of the age of six to fourteen years", "notes": ""}
{"id": "X-3", "split": "test", "category": "out_of_scope", "question": "What does section 420 IPC say about cheating?", "expected_refs": [], "acceptable_refs": [], "question_refs": [], "must_refuse": true, "reference_answer": "", "evidence": "", "notes": ""}
"#,
    )
    .unwrap();
    let golden_arg = golden.to_str().unwrap();
    let out = nyaya(
        &pool,
        &[
            "eval", "--golden", golden_arg, "--split", "all", "--mode", "lexical", "--json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    assert_eq!(v["cases"], 3);
    for key in [
        "recall_at_1",
        "recall_at_5",
        "recall_at_10",
        "mrr_at_10",
        "ndcg_at_5",
        "lookup_hit_at_1",
        "candidate_recall",
        "refusal_accuracy",
        "false_refusal_rate",
    ] {
        assert!(v.get(key).is_some(), "{key} missing: {v}");
    }
    assert!(v["latency_ms"]["p50"].is_number() && v["latency_ms"]["p95"].is_number());
    assert!(v["unpinned"]["recall_at_5"].is_number());
    assert_eq!(v["lookup_hit_at_1"], 1.0, "21A is pinned: {v}");
    assert_eq!(
        v["refusal_accuracy"], 1.0,
        "the IPC question is refused: {v}"
    );
    assert!(v["failures"].is_array());

    // A file in a user's own shape: no split, evidence or reference_answer; refs spelled as
    // users spell them; an ambiguous case that expects nothing; a category outside the
    // contract; a line that cannot be scored. It runs, warns once per kind of gap, lists what
    // it skipped, and scores what it has — retrieval and answers.
    let outside = dir.join("users-own.jsonl");
    std::fs::write(
        &outside,
        r#"{"id": "U-1", "category": "simple", "question": "Can children be made to work in a factory?", "expected_refs": ["Article 24"]}
{"id": "U-2", "category": "factual", "question": "What is the minimum voting age?", "expected_refs": ["326"], "must_refuse": false}
{"id": "U-3", "category": "ambiguous", "question": "What is the term?", "expected_refs": [], "must_refuse": false}
{"id": "U-4", "category": "out_of_scope", "question": "What does section 420 IPC say about cheating?", "must_refuse": true}
{"id": "U-5", "question": "Who?", "expected_refs": ["banana"]}
"#,
    )
    .unwrap();
    let out = nyaya(
        &pool,
        &[
            "eval",
            "--golden",
            outside.to_str().unwrap(),
            "--mode",
            "lexical",
            "--answers",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    for warned in [
        "4 cases without `split`: counted as test",
        "3 cases without `evidence`",
        "1 case expecting no provision",
        "1 case with a category outside the contract",
        "refs spelled as users spell them",
    ] {
        assert_eq!(err.matches(warned).count(), 1, "{warned:?} once in:\n{err}");
    }
    assert!(
        err.contains("skipped:") && err.contains("line 5 (line-5)") && err.contains("banana"),
        "{err}"
    );
    let v: Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    assert_eq!(v["cases"], 4, "the four scorable cases, all splits: {v}");
    assert!(v["unpinned"]["recall_at_5"].is_number(), "{v}");
    assert_eq!(v["refusal_accuracy"], 1.0, "{v}");
    let a = &v["answers"];
    assert_eq!(a["cases"], 4, "{a}");
    assert_eq!(a["citation_validity"], 1.0, "{a}");
    assert!(a["citation_precision"].is_number(), "{a}");
    assert!(a["first_cited_expected"].is_number(), "{a}");
    assert!(
        a["by_category"]["ambiguous"]["route_accuracy"].is_number(),
        "{a}"
    );
    assert!(a["by_category"]["other"]["cases"] == 1, "{a}");
    assert!(
        a["evidence_quoted"].is_null(),
        "no evidence, not scored: {a}"
    );
    assert!(
        v.get("paraphrases").is_none(),
        "no suite with an outside file: {v}"
    );

    // Two runs' dumps compare case by case: the same run twice changes nothing.
    let dumps: Vec<String> = ["before", "after"]
        .iter()
        .map(|name| {
            let path = dir.join(format!("{name}.jsonl"));
            let out = nyaya(
                &pool,
                &[
                    "eval",
                    "--golden",
                    golden_arg,
                    "--split",
                    "all",
                    "--mode",
                    "lexical",
                    "--answers",
                    "--dump",
                    path.to_str().unwrap(),
                ],
            );
            assert!(out.status.success(), "{}", stderr(&out));
            path.to_str().unwrap().to_string()
        })
        .collect();
    let out = nyaya(&pool, &["eval-diff", &dumps[0], &dumps[1], "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    assert_eq!(v["answers"]["compared"], 3, "{v}");
    assert_eq!(v["retrieval"]["compared"], 3, "{v}");
    assert_eq!(v["answers"]["changes"], serde_json::json!([]), "{v}");
    // The two answerable cases with an evidence phrase are compared on it, unchanged.
    assert_eq!(v["evidence"]["compared"], 2, "{v}");
    assert_eq!(v["evidence"]["changes"], serde_json::json!([]), "{v}");

    // A gate no run can meet fails the run and says which.
    let gates = dir.join("gates.toml");
    std::fs::write(
        &gates,
        "max_drop = 0.02\n[[gate]]\nmetric = \"unpinned.recall_at_5\"\nmin = 1.01\n",
    )
    .unwrap();
    let out = nyaya(
        &pool,
        &[
            "eval",
            "--golden",
            golden_arg,
            "--split",
            "all",
            "--mode",
            "lexical",
            "--gates",
            "retrieval",
            "--gates-file",
            gates.to_str().unwrap(),
            "--baseline-file",
            dir.join("none.json").to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("FAIL: "), "{}", stderr(&out));
    assert!(stderr(&out).contains("gates: FAILED"), "{}", stderr(&out));

    // The benchmark runs any golden file's questions: one row per mode, and `--slowest` lists
    // that many questions, slowest first, with their stage timings.
    let out = nyaya(
        &pool,
        &[
            "bench",
            "--golden",
            golden_arg,
            "--modes",
            "lexical",
            "--rounds",
            "1",
            "--slowest",
            "2",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("3 questions × 1 rounds"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("lexical ") && l.contains('/')),
        "{text}"
    );
    let listed: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("slowest questions"))
        .skip(1)
        .filter(|l| l.contains(" total "))
        .collect();
    assert_eq!(listed.len(), 2, "{text}");
    let total = |l: &str| -> f64 {
        let after = l.split(" total ").nth(1).unwrap();
        after.split_whitespace().next().unwrap().parse().unwrap()
    };
    assert!(
        total(listed[0]) >= total(listed[1]),
        "slowest first: {text}"
    );

    // A malformed file names its line.
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "{\"id\": \"B-1\"}\n").unwrap();
    let out = nyaya(&pool, &["eval", "--golden", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("line 1"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).ok();
}

/// Two `nyaya serve` replicas started at the same moment on an empty database: one ingests
/// and embeds the question bank (the start-up advisory lock), the other waits and finds both;
/// both serve, the first question is answered at once (within the default request timeout: no
/// bank to embed), and an answer written through one is rebuilt through the other.
#[sqlx::test(migrator = "nyaya::db::MIGRATOR")]
async fn two_replicas_on_an_empty_database_ingest_once_and_share_answers(pool: PgPool) {
    use std::process::Stdio;
    let start = |port: u16| {
        let log =
            std::fs::File::create(std::env::temp_dir().join(format!("nyaya-replica-{port}.log")))
                .unwrap();
        Command::new(env!("CARGO_BIN_EXE_nyaya"))
            .args(["serve", "--addr", &format!("127.0.0.1:{port}")])
            .current_dir(std::env::temp_dir())
            .env("DATABASE_URL", database_url(&pool))
            .env("NYAYA_PDFIUM_LIB", pdfium_lib())
            .env("NYAYA_MODEL_DIR", model_dir())
            .env("NYAYA_ORT_LIB", ort_lib())
            .env("NYAYA_NO_EMBED", "true")
            .env("NYAYA_OTHER_EDITIONS", "false")
            .env("NYAYA_PDF", real_pdf())
            .env("NYAYA_LOG", "info")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("nyaya serve starts")
    };
    struct Replicas(Vec<std::process::Child>);
    impl Drop for Replicas {
        fn drop(&mut self) {
            for c in &mut self.0 {
                let _ = c.kill();
                let _ = c.wait();
            }
        }
    }
    let ports: Vec<u16> = (0..2).map(|_| common::free_port()).collect();
    let _replicas = Replicas(ports.iter().map(|&p| start(p)).collect());
    let client = reqwest::Client::new();
    // Ready after the ingest and the question bank (4,456 questions embedded before the
    // replica listens: over 90 s in a debug build beside this binary's other tests).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(600);
    for &port in &ports {
        loop {
            let ready = client
                .get(format!("http://127.0.0.1:{port}/readyz"))
                .send()
                .await
                .is_ok_and(|r| r.status() == 200);
            if ready {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "replica on {port} never ready"
            );
            tokio::time::sleep(std::time::Duration::from_millis(250)).await;
        }
    }
    assert_eq!(documents(&pool).await, 1, "one ingest stored");
    let logs: String = ports
        .iter()
        .map(|p| {
            std::fs::read_to_string(std::env::temp_dir().join(format!("nyaya-replica-{p}.log")))
                .unwrap()
        })
        .collect();
    assert_eq!(
        logs.matches("no corpus loaded; ingesting").count(),
        1,
        "exactly one replica parsed the PDF:\n{logs}"
    );
    // The English bank's line (the cross-lingual bank, readied later if at all, has no
    // unanswerable questions).
    let english_bank: Vec<&str> = logs
        .lines()
        .filter(|l| l.contains("question bank ready") && !l.contains("\"unanswerable\":0,"))
        .collect();
    assert_eq!(
        english_bank.len(),
        2,
        "both replicas readied the question bank before serving:\n{logs}"
    );
    assert_eq!(
        english_bank
            .iter()
            .filter(|l| l.contains("\"embedded\":0,"))
            .count(),
        1,
        "the second replica loaded the bank the first stored:\n{logs}"
    );

    let asked = client
        .post(format!("http://127.0.0.1:{}/v1/ask", ports[0]))
        .header("x-request-id", "replica-a-1")
        .json(&serde_json::json!({"question": "What does Article 21 say?"}))
        .send()
        .await
        .unwrap();
    assert_eq!(asked.status(), 200);
    let answer: Value = asked.json().await.unwrap();
    assert_eq!(answer["citations"][0]["ref"], "21", "{answer}");
    let rebuilt: Value = client
        .get(format!(
            "http://127.0.0.1:{}/v1/answers/replica-a-1",
            ports[1]
        ))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(rebuilt["all_quotes_match"], true, "{rebuilt}");
    assert_eq!(rebuilt["citations"][0]["ref"], "21", "{rebuilt}");
}

/// `nyaya eval-diff` needs no database: two dumps of one set, the changed cases by kind, and
/// a typed error naming a line that is not a dump line.
#[test]
fn eval_diff_lists_leads_won_and_lost_and_names_a_bad_line() {
    let dir = std::env::temp_dir().join(format!("nyaya-eval-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let line = |id: &str, expected: &[&str], cited: &[&str]| {
        serde_json::json!({
            "id": id, "question": format!("question {id}"), "expected": expected,
            "must_refuse": false,
            "unpinned": {"ranking": cited, "refused": false},
            "answer": {"cited": cited, "refused": false},
        })
        .to_string()
    };
    let before = dir.join("before.jsonl");
    let after = dir.join("after.jsonl");
    std::fs::write(
        &before,
        [line("A", &["75"], &["78"]), line("B", &["56"], &["56"])].join("\n"),
    )
    .unwrap();
    std::fs::write(
        &after,
        [line("A", &["75"], &["75"]), line("B", &["56"], &["62"])].join("\n"),
    )
    .unwrap();
    let run = |a: &std::path::Path, b: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_nyaya"))
            .args(["eval-diff", a.to_str().unwrap(), b.to_str().unwrap()])
            .current_dir(std::env::temp_dir())
            .output()
            .unwrap()
    };
    let out = run(&before, &after);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("answers (first citation): 2 compared, 2 changed: 1 won, 1 lost"),
        "{text}"
    );
    assert!(text.contains("[\"78\"] -> [\"75\"]"), "{text}");
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "{\"question\": \"no id\"}\n").unwrap();
    let out = run(&bad, &after);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("bad.jsonl: dump line 1: missing field `id`"),
        "{}",
        stderr(&out)
    );
}

/// `nyaya eligible` needs no database: the verdict, criterion by criterion, as JSON.
#[test]
fn eligible_prints_the_verdict_with_the_texts_words() {
    let out = Command::new(env!("CARGO_BIN_EXE_nyaya"))
        .args(["eligible", "president", "--age", "30", "--json"])
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["verdict"], "not_eligible");
    assert!(v["criteria"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["status"] == "not_met" && c["clause"] == "(1)(b)"));
    let out = Command::new(env!("CARGO_BIN_EXE_nyaya"))
        .args(["eligible", "mp", "--age", "30", "--citizen", "yes"])
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    let text = stdout(&out);
    assert!(
        text.contains("need more information") && text.contains("--fact holds_office_of_profit="),
        "{text}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_nyaya"))
        .args(["eligible", "president", "--fact", "agee=30"])
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "a typo is an error, not an unknown fact"
    );
    assert!(stderr(&out).contains("known facts"), "{}", stderr(&out));
    // From a question: the office and the age are read from it, nothing else is assumed.
    let out = Command::new(env!("CARGO_BIN_EXE_nyaya"))
        .args([
            "eligible",
            "--question",
            "I have practised as an advocate in a High Court for 8 years; can I become a High Court judge?",
            "--json",
        ])
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["office"], "high_court_judge");
    assert_ne!(v["verdict"], "likely_eligible", "{v}");
    assert_eq!(v["missing_facts"][0]["id"], "citizen", "{v}");
}

/// `nyaya diff` finds both editions in the corpus folder by their dates and prints the 106th
/// Amendment's changes with its Act; `--json` is one object; a bad edition is a clear error.
#[test]
fn diff_lists_the_changes_between_the_editions() {
    let corpus = real_pdf().parent().unwrap().to_path_buf();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_nyaya"))
            .args(args)
            .current_dir(std::env::temp_dir())
            .env("NYAYA_PDFIUM_LIB", pdfium_lib())
            .env("NYAYA_LOG", "error")
            .output()
            .unwrap()
    };
    let dir = corpus.to_str().unwrap();
    let out = run(&["diff", "2022-05-01", "2024-05-01", "--corpus", dir]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("As on May, 2022 (2022-05-01) → As on 1st May, 2024 (2024-05-01): 1 amended, 3 inserted, 0 omitted"),
        "{text}"
    );
    assert!(
        text.contains(
            "by the Constitution (One Hundred and Sixth Amendment) Act, 2023 (inserted (2)(ba))"
        ),
        "{text}"
    );
    assert!(text.contains("[-Pondicherry.-]{+Puducherry.+}"), "{text}");
    let out = run(&["diff", "2022", "2024", "--corpus", dir, "--json"]);
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let inserted: Vec<&str> = v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "inserted")
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(inserted, ["330A", "332A", "334A"]);
    let out = run(&["diff", "2019-01-01", "2024", "--corpus", dir]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("no edition dated 2019-01-01") && stderr(&out).contains("2022-05-01"),
        "{}",
        stderr(&out)
    );
}
