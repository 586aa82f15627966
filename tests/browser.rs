//! The chat page in a real browser: Debian's headless Chromium, driven over WebDriver, against
//! the real server (a TCP listener) on a real Postgres with the real corpus. Asks a question,
//! opens a citation's drawer, asks what the text does not cover, asks whether one can be President
//! (the verdict, its checklist, and the form for the missing facts that re-asks), asks with a name and a phone
//! number (stripped before sending), browses and jumps to 21A, switches the interface to Hindi
//! and asks in Hindi (then back to English), and saves a screenshot of each
//! state (to `NYAYA_SCREENSHOTS`, default `target/screenshots`; `make screenshots` writes them
//! to `docs/screenshots`).
//!
//! Needs `chromium` and `chromedriver`: `bash scripts/browser.sh` installs them (`make test`
//! runs it first).

mod common;

use std::path::PathBuf;

use serde_json::json;
use sqlx::PgPool;

use common::webdriver::{Browser, ENTER, ESCAPE};

fn screenshot_dir() -> PathBuf {
    std::env::var_os("NYAYA_SCREENSHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::repo_path("target/screenshots"))
}

/// Serves the API on a free local port; returns its base URL. The question bank is readied
/// first, as `nyaya serve` does before it listens.
async fn serve(pool: &PgPool) -> String {
    common::models()
        .preload_question_bank(pool, nyaya::search::bank::Sources::English)
        .await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = common::app(pool);
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

/// How long a page state may take to appear: an answer embeds the question and its spans
/// (about a second in a debug build; far more on a loaded CI machine).
const WAIT: u64 = 90;

#[sqlx::test(migrator = "nyaya::db::MIGRATOR")]
async fn the_chat_page_answers_cites_refuses_and_browses(pool: PgPool) {
    common::ingest_with_vectors(&pool).await;
    let base = serve(&pool).await;
    let shots = screenshot_dir();
    let b = Browser::start(1280, 900).await;
    b.goto(&format!("{base}/")).await;

    // The disclaimer is always there.
    let disclaimer = b.wait_for("#disclaimer", WAIT).await;
    assert!(
        b.text(&disclaimer).await.contains("not legal advice"),
        "{}",
        b.text(&disclaimer).await
    );

    // 1. A question; the answer quotes 22(1) with a chip.
    let q = b.wait_for("#question", WAIT).await;
    b.type_into(
        &q,
        "Can the police keep me locked up without telling me why?",
    )
    .await;
    b.click(&b.wait_for("#ask", WAIT).await).await;
    let turn = b.wait_for(".turn[data-state=done]", WAIT).await;
    let answer_text = b.text(&turn).await;
    assert!(
        answer_text.contains("informed, as soon as may be, of the grounds for such arrest"),
        "{answer_text}"
    );
    assert!(
        b.find_all(".turn .answer.refusal").await.is_empty(),
        "an answer styled as a refusal"
    );
    let chip = b.wait_for("button.chip[data-ref='22']", WAIT).await;
    b.screenshot(&shots, "answer").await;

    // 2. The chip opens the drawer: Article 22 with the quoted clause highlighted and the
    //    PDF at its page.
    b.click(&chip).await;
    let drawer = b.wait_for("#drawer", WAIT).await;
    // The title is the bare label ("Article 22") until the text arrives with the mark.
    let mark = b.wait_for("#drawer-text mark.quoted", WAIT).await;
    let title = b.text(&b.wait_for("#drawer-title", WAIT).await).await;
    assert!(title.contains("Protection against arrest"), "{title}");
    let drawer_text = b.text(&drawer).await;
    assert!(drawer_text.contains("Article 22"), "{drawer_text}");
    let highlighted = b.text(&mark).await;
    assert!(
        highlighted.contains("informed, as soon as may be, of the grounds"),
        "highlighted: {highlighted}"
    );
    let pdf = b
        .attr(&b.wait_for("a#drawer-pdf", WAIT).await, "href")
        .await;
    let pdf = pdf.unwrap_or_default();
    assert!(pdf.contains("/v1/document.pdf#page="), "PDF link {pdf:?}");
    b.screenshot(&shots, "drawer").await;
    b.press(ESCAPE).await;
    b.wait_gone("#drawer", WAIT).await;

    // 3. What the text does not cover is a refusal, styled as one.
    let q = b.wait_for("#question", WAIT).await;
    b.type_into(&q, "Who won the 2019 cricket world cup?").await;
    b.type_into(&q, ENTER).await;
    let refusal = b.wait_for(".turn .answer.refusal", WAIT).await;
    let refusal_text = b.text(&refusal).await;
    assert!(
        refusal_text.to_lowercase().contains("not cover"),
        "{refusal_text}"
    );
    assert_eq!(
        b.find_all(".turn[data-state=done]").await.len(),
        2,
        "both turns finished"
    );
    b.scroll_to(&refusal).await;
    b.screenshot(&shots, "refusal").await;

    // 3b. Identifying details never leave the browser: the page strips them before sending,
    //     says which kinds it removed (never the values), and the server stores what was sent.
    let (name, phone) = ("Ravi Kumar", "9876543210");
    b.script(
        "window.__sent = []; const f = window.fetch; \
         window.fetch = (url, opts) => { \
           if (String(url).includes('/v1/ask')) window.__sent.push(opts && opts.body); \
           return f(url, opts); };",
        json!([]),
    )
    .await;
    let q = b.wait_for("#question", WAIT).await;
    b.type_into(
        &q,
        &format!("My name is {name}, call me on {phone}. Can the police keep me locked up without telling me why?"),
    )
    .await;
    b.type_into(&q, ENTER).await;
    let notice = b
        .text(&b.wait_for("#turn-3 .scrub-notice", WAIT).await)
        .await;
    assert!(
        notice.starts_with("Removed before sending:")
            && notice.contains("a phone number")
            && notice.contains("a name"),
        "{notice}"
    );
    let turn = b.wait_for("#turn-3[data-state=done]", WAIT).await;
    let shown = b.text(&turn).await;
    for value in [name, phone] {
        assert!(
            !notice.contains(value) && !shown.contains(value),
            "{value} shown: {shown}"
        );
    }
    let sent = b.script("return window.__sent", json!([])).await;
    let sent: serde_json::Value = serde_json::from_str(sent[0].as_str().unwrap()).unwrap();
    let sent = sent["question"].as_str().unwrap().to_string();
    assert_eq!(
        sent,
        "My name is [name], call me on [phone]. Can the police keep me locked up without telling me why?"
    );
    // The answer is recorded as the stream ends; wait for its row.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(WAIT);
    let stored: Vec<String> = loop {
        let rows: Vec<String> = sqlx::query_scalar("SELECT question_scrubbed FROM answers")
            .fetch_all(&pool)
            .await
            .unwrap();
        if rows.iter().any(|r| r.contains("[name]")) || std::time::Instant::now() > deadline {
            break rows;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    for value in [name, phone] {
        assert!(
            stored.iter().all(|r| !r.contains(value)),
            "{value} stored: {stored:?}"
        );
    }
    // The server found nothing more to scrub in what the browser sent.
    assert!(stored.contains(&sent), "{sent:?} not in {stored:?}");

    // 3c. "Can I hold this office?": the verdict leads, the criteria show as a checklist with
    //     chips, and a form asks for exactly the facts still missing, then re-asks with them.
    let q = b.wait_for("#question", WAIT).await;
    b.type_into(&q, "Can I become President? I am 40.").await;
    b.type_into(&q, ENTER).await;
    b.wait_for("#turn-4[data-state=done]", WAIT).await;
    let verdict = b.text(&b.wait_for("#turn-4 .verdict", WAIT).await).await;
    assert!(
        verdict.contains("More information needed") && verdict.contains("President of India"),
        "{verdict}"
    );
    b.wait_for("#turn-4 .criterion.status-met[data-criterion='age']", WAIT)
        .await;
    let asked = b
        .script(
            "return [...new Set([...document.querySelectorAll('#turn-4 .facts-form input')].map((i) => i.name))]",
            json!([]),
        )
        .await;
    assert_eq!(
        asked,
        json!([
            "citizen",
            "holds_office_of_profit",
            "unsound_mind",
            "undischarged_insolvent",
            "foreign_allegiance",
            "disqualified_by_law",
            "disqualified_by_defection"
        ]),
        "the form asks for exactly the missing facts, in order (not the age the question gave)"
    );
    b.scroll_to(&b.wait_for("#turn-4 .facts-form", WAIT).await)
        .await;
    b.screenshot(&shots, "eligibility-form").await;
    b.click(
        &b.wait_for("#turn-4 input[name='citizen'][value='yes']", WAIT)
            .await,
    )
    .await;
    for fact in [
        "holds_office_of_profit",
        "unsound_mind",
        "undischarged_insolvent",
        "foreign_allegiance",
        "disqualified_by_law",
        "disqualified_by_defection",
    ] {
        let radio = b
            .wait_for(&format!("#turn-4 input[name='{fact}'][value='no']"), WAIT)
            .await;
        b.click(&radio).await;
    }
    b.click(
        &b.wait_for("#turn-4 .facts-form button[type=submit]", WAIT)
            .await,
    )
    .await;
    b.wait_for("#turn-5[data-state=done]", WAIT).await;
    let verdict = b.text(&b.wait_for("#turn-5 .verdict", WAIT).await).await;
    assert!(verdict.contains("Likely eligible"), "{verdict}");
    let sent_line = b.text(&b.wait_for("#turn-5 .facts-sent", WAIT).await).await;
    assert!(
        sent_line.contains("citizen: yes") && sent_line.contains("age: 40"),
        "{sent_line}"
    );
    assert!(
        b.find_all("#turn-5 .criterion.status-unknown")
            .await
            .is_empty(),
        "every criterion decided"
    );
    assert!(b.find_all("#turn-5 .facts-form").await.is_empty());
    let sent = b.script("return window.__sent", json!([])).await;
    let last: serde_json::Value =
        serde_json::from_str(sent.as_array().unwrap().last().unwrap().as_str().unwrap()).unwrap();
    assert_eq!(last["facts"]["citizen"], json!(true), "{last}");
    assert_eq!(last["question"], "Can I become President? I am 40.");
    // The age criterion's chip opens 58 with the quoted clause highlighted.
    let chip = b
        .wait_for("#turn-5 li[data-criterion='age'] button.chip", WAIT)
        .await;
    b.scroll_to(&chip).await;
    b.screenshot(&shots, "eligibility").await;
    b.click(&chip).await;
    let mark = b.wait_for("#drawer-text mark.quoted", WAIT).await;
    let highlighted = b.text(&mark).await;
    assert!(
        highlighted.contains("has completed the age of thirty-five years"),
        "highlighted: {highlighted}"
    );
    b.press(ESCAPE).await;
    b.wait_gone("#drawer", WAIT).await;
    // The audit keeps the verdict and an age band, not the age.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(WAIT);
    let rows: Vec<(String, Option<serde_json::Value>)> = loop {
        let rows: Vec<(String, Option<serde_json::Value>)> = sqlx::query_as(
            "SELECT question_scrubbed, eligibility FROM answers WHERE route = 'eligibility'",
        )
        .fetch_all(&pool)
        .await
        .unwrap();
        if rows.len() == 2 || std::time::Instant::now() > deadline {
            break rows;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    assert_eq!(rows.len(), 2, "{rows:?}");
    for (question, record) in &rows {
        assert_eq!(question, "Can I become President? I am [number].");
        let record = record.as_ref().expect("an eligibility record");
        assert_eq!(record["age_band"], "40-44", "{record}");
        assert!(!record.to_string().contains("40,"), "{record}");
    }

    // 4. Browse: the table of contents lists 21A; the jump box opens it.
    b.click(&b.wait_for("#browse-toggle", WAIT).await).await;
    b.wait_for("#browse", WAIT).await;
    assert!(
        !b.find_all("#browse [data-ref='21A']").await.is_empty(),
        "21A missing from the table of contents"
    );
    b.screenshot(&shots, "browse").await;
    let jump = b.wait_for("#jump", WAIT).await;
    b.type_into(&jump, "Art. 21-A").await;
    b.type_into(&jump, ENTER).await;
    let drawer = b.wait_for("#drawer", WAIT).await;
    let title = b.text(&b.wait_for("#drawer-title", WAIT).await).await;
    assert!(title.to_lowercase().contains("education"), "{title}");
    let drawer_text = b.text(&drawer).await;
    assert!(drawer_text.contains("Article 21A"), "{drawer_text}");
    b.screenshot(&shots, "jump").await;
    b.press(ESCAPE).await;
    b.wait_gone("#drawer", WAIT).await;

    // 4b. The interface in Hindi: the switch rewrites the fixed strings in place (no reload),
    //     sets <html lang>, and is remembered; the intro offers Hindi questions; a Hindi
    //     question is answered with the server's Hindi framing around the English quotes.
    let toggle = b.text(&b.wait_for("#browse-toggle", WAIT).await).await;
    assert_eq!(toggle, "Back to questions");
    b.click(&b.wait_for("#lang-hi", WAIT).await).await;
    b.wait_for("html[lang='hi'] #lang-hi[aria-pressed='true']", WAIT)
        .await;
    let shown = |css: &'static str| {
        let b = &b;
        async move { b.text(&b.wait_for(css, WAIT).await).await }
    };
    // Still on the Browse view, so its toggle offers the way back.
    assert_eq!(shown("#browse-toggle").await, "प्रश्नों पर लौटें");
    assert_eq!(shown("#browse-heading").await, "संविधान का पाठ");
    let toc = shown("#toc").await;
    assert!(
        toc.contains("भाग III") && toc.contains("अनुच्छेद 12–35"),
        "{toc}"
    );
    b.screenshot(&shots, "hindi-browse").await;
    b.click(&b.wait_for("#browse-toggle", WAIT).await).await;
    assert_eq!(shown("#browse-toggle").await, "पाठ देखें");
    assert_eq!(shown("#ask").await, "पूछें");
    let disclaimer = shown("#disclaimer").await;
    assert!(
        disclaimer.contains("कानूनी सलाह नहीं है") && disclaimer.contains("संस्करण"),
        "{disclaimer}"
    );
    let placeholder = b
        .attr(&b.wait_for("#question", WAIT).await, "placeholder")
        .await;
    assert!(
        placeholder
            .as_deref()
            .unwrap_or_default()
            .starts_with("जैसे:"),
        "{placeholder:?}"
    );
    // app.css gives Hindi its Devanagari font stack (system fonts, nothing downloaded).
    let font = b
        .script(
            "return getComputedStyle(document.body).fontFamily",
            json!([]),
        )
        .await;
    assert!(
        font.as_str()
            .unwrap_or_default()
            .starts_with("\"Noto Sans Devanagari\""),
        "{font}"
    );
    b.screenshot(&shots, "hindi-switch").await;

    // Remembered: a fresh load comes up in Hindi, with the Hindi example questions.
    let saved = b
        .script("return localStorage.getItem('nyaya-lang')", json!([]))
        .await;
    assert_eq!(saved, json!("hi"));
    b.goto(&format!("{base}/")).await;
    b.wait_for("html[lang='hi'] #lang-hi[aria-pressed='true']", WAIT)
        .await;
    assert_eq!(shown("#intro h2").await, "भारत के संविधान के बारे में पूछें");
    let example = b
        .wait_for(
            "#intro .suggestion[data-question='शिक्षा का अधिकार क्या है?']",
            WAIT,
        )
        .await;
    assert_eq!(b.text(&example).await, "शिक्षा का अधिकार क्या है?");
    b.screenshot(&shots, "hindi-intro").await;
    b.click(&example).await;
    let turn = b.wait_for("#turn-1[data-state=done]", WAIT).await;
    let answer = b.text(&turn).await;
    eprintln!("Hindi answer as shown: {answer}");
    b.wait_for("#turn-1 button.chip[data-ref='21A']", WAIT)
        .await;
    assert!(
        answer.contains("आधिकारिक अंग्रेज़ी पाठ"),
        "the server's note that quotes are the official English text: {answer}"
    );
    assert!(
        answer.contains("free and compulsory education"),
        "the quote is 21A's English text: {answer}"
    );
    b.wait_for("#turn-1 .question p.script-indic", WAIT).await;
    b.wait_for("#turn-1 blockquote[lang='en']", WAIT).await;
    b.scroll_to(&turn).await;
    b.screenshot(&shots, "hindi-answer").await;

    // And back: English again, in place.
    b.click(&b.wait_for("#lang-en", WAIT).await).await;
    b.wait_for("html[lang='en'] #lang-en[aria-pressed='true']", WAIT)
        .await;
    assert_eq!(shown("#ask").await, "Ask");
    assert!(shown("#disclaimer").await.contains("not legal advice"));

    // 5. Phone width, dark theme: the page still works and says what it is.
    b.press(ESCAPE).await;
    b.resize(390, 844).await;
    b.click(&b.wait_for("#theme-toggle", WAIT).await).await;
    let theme = b
        .script(
            "return document.documentElement.dataset.theme || ''",
            json!([]),
        )
        .await;
    assert_eq!(
        theme,
        json!("dark"),
        "the toggle switches to dark from light"
    );
    b.wait_for("#disclaimer", WAIT).await;
    b.screenshot(&shots, "phone-dark").await;
    b.quit().await;
}

/// The "What changed" view and the drawer's history with two editions stored (no vectors: the
/// view and the drawer never search): the 106th Amendment's changes listed with their Act and
/// word runs, a link into the drawer, and the wording rebuilt for a day before the Act.
#[sqlx::test(migrator = "nyaya::db::MIGRATOR")]
async fn the_page_shows_what_changed_and_how_a_provision_read(pool: PgPool) {
    let cfg = common::config(&pool);
    for pdf in [
        common::repo_path("corpus/constitution-of-india-2022-05.pdf"),
        common::real_pdf(),
    ] {
        let o = nyaya::ingest::ingest_corpus(&pool, &cfg, &pdf)
            .await
            .unwrap();
        assert!(o.complete);
    }
    let base = serve(&pool).await;
    let shots = screenshot_dir();
    let b = Browser::start(1280, 900).await;
    b.goto(&format!("{base}/")).await;

    b.click(&b.wait_for("#changes-toggle", WAIT).await).await;
    let amended = b
        .wait_for(
            ".change-list[data-kind=amended] li.change[data-ref='239AA']",
            WAIT,
        )
        .await;
    let text = b.text(&amended).await;
    assert!(text.contains("One Hundred and Sixth Amendment"), "{text}");
    let added = b
        .text(&b.wait_for("li.change[data-ref='239AA'] ins", WAIT).await)
        .await;
    assert!(added.contains("reserved for women"), "{added}");
    let inserted: Vec<String> = {
        let mut v = Vec::new();
        for e in b
            .find_all(".change-list[data-kind=inserted] li.change")
            .await
        {
            v.push(b.attr(&e, "data-ref").await.unwrap_or_default());
        }
        v
    };
    assert_eq!(inserted, ["330A", "332A", "334A"]);
    let summary = b.text(&b.wait_for(".changes-summary", WAIT).await).await;
    assert!(
        summary.starts_with("1 amended, 3 inserted, 0 omitted"),
        "{summary}"
    );
    b.screenshot(&shots, "what-changed").await;

    // Into the drawer: 330A's history, and how it read before the Act (it did not exist).
    b.click(
        &b.wait_for("li.change[data-ref='330A'] button.ref-link", WAIT)
            .await,
    )
    .await;
    let title = b.text(&b.wait_for("#drawer-title", WAIT).await).await;
    assert!(title.contains("330A"), "{title}");
    let history = b
        .text(&b.wait_for("#drawer-amendments .timeline li", WAIT).await)
        .await;
    assert!(history.contains("One Hundred and Sixth"), "{history}");
    b.script(
        "document.querySelector('#asof-date').value = arguments[0];",
        json!(["2022-05-01"]),
    )
    .await;
    b.click(&b.wait_for("#asof-form button[type=submit]", WAIT).await)
        .await;
    let result = b
        .text(&b.wait_for("#asof-result .asof-notice", WAIT).await)
        .await;
    assert!(result.contains("not an official text"), "{result}");
    let whole = b.text(&b.wait_for("#asof-result", WAIT).await).await;
    assert!(
        whole.contains("Not in the Constitution on 1 May 2022"),
        "{whole}"
    );

    // The Preamble before the 42nd Amendment: the restored words are marked.
    b.press(ESCAPE).await;
    b.click(&b.wait_for("#changes-toggle", WAIT).await).await;
    b.click(&b.wait_for("#browse-toggle", WAIT).await).await;
    let jump = b.wait_for("#jump", WAIT).await;
    b.type_into(&jump, "Preamble").await;
    b.type_into(&jump, ENTER).await;
    b.wait_for("#drawer-amendments .timeline li", WAIT).await;
    b.script(
        "document.querySelector('#asof-date').value = arguments[0];",
        json!(["1976-01-01"]),
    )
    .await;
    b.click(&b.wait_for("#asof-form button[type=submit]", WAIT).await)
        .await;
    let mark = b
        .text(&b.wait_for("#asof-result mark.reconstructed", WAIT).await)
        .await;
    assert_eq!(mark, "SOVEREIGN DEMOCRATIC REPUBLIC");
    b.screenshot(&shots, "as-of").await;
    b.quit().await;
}
