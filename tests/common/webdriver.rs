//! A small W3C WebDriver client for the browser tests: Debian's `chromedriver` driving
//! headless Chromium. Only what the tests use (navigate, find, click, type, read, run a
//! script, screenshot), over plain HTTP with reqwest; no browser is downloaded from anywhere.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{json, Value};

/// The key W3C WebDriver assigns to element references.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";
pub const ENTER: &str = "\u{E007}";
pub const ESCAPE: &str = "\u{E00C}";

/// `chromium` and `chromedriver` as `scripts/browser.sh` installs them (or as
/// `NYAYA_CHROMIUM` / `NYAYA_CHROMEDRIVER` name them).
pub fn binaries() -> (PathBuf, PathBuf) {
    let which = |env: &str, names: &[&str]| -> PathBuf {
        if let Some(p) = std::env::var_os(env) {
            return PathBuf::from(p);
        }
        for n in names {
            for dir in ["/usr/bin", "/usr/local/bin", "/usr/lib/chromium"] {
                let p = Path::new(dir).join(n);
                if p.exists() {
                    return p;
                }
            }
        }
        panic!(
            "{} not found: run `bash scripts/browser.sh` (make test does) or set {env}",
            names[0]
        )
    };
    (
        which("NYAYA_CHROMIUM", &["chromium", "chromium-browser"]),
        which("NYAYA_CHROMEDRIVER", &["chromedriver"]),
    )
}

/// A running chromedriver and one browser session; both end on drop.
pub struct Browser {
    http: reqwest::Client,
    session: String,
    base: String,
    driver: Child,
    _profile: TempDir,
}

/// A folder removed on drop (Chromium's profile).
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[derive(Debug, Clone)]
pub struct Element(String);

impl Browser {
    /// Starts chromedriver and a headless Chromium window of `width`×`height`.
    pub async fn start(width: u32, height: u32) -> Browser {
        let (chromium, chromedriver) = binaries();
        let port = super::free_port();
        let driver = Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromedriver.display()));
        let base = format!("http://127.0.0.1:{port}");
        let http = reqwest::Client::new();
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let ready = http.get(format!("{base}/status")).send().await;
            if let Ok(r) = ready {
                let v: Value = r.json().await.unwrap_or_default();
                if v["value"]["ready"] == json!(true) {
                    break;
                }
            }
            assert!(Instant::now() < deadline, "chromedriver did not come up");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let profile = std::env::temp_dir().join(format!("nyaya-chromium-{port}"));
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                // Root in a container needs --no-sandbox; nothing may call home.
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-default-apps", "--disable-extensions", "--disable-sync",
                    "--no-first-run", "--no-default-browser-check", "--hide-scrollbars",
                    format!("--window-size={width},{height}"),
                    format!("--user-data-dir={}", profile.display()),
                ]
            }
        }}});
        let r: Value = http
            .post(format!("{base}/session"))
            .json(&caps)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let session = r["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no WebDriver session: {r}"))
            .to_string();
        Browser {
            http,
            session,
            base,
            driver,
            _profile: TempDir(profile),
        }
    }

    async fn cmd(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}/session/{}{path}", self.base, self.session);
        let mut req = self.http.request(method.clone(), &url);
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await.unwrap();
        let status = resp.status();
        let v: Value = resp.json().await.unwrap_or_default();
        assert!(status.is_success(), "{method} {path} → {status}: {v}");
        v["value"].clone()
    }

    async fn post(&self, path: &str, body: Value) -> Value {
        self.cmd(reqwest::Method::POST, path, Some(body)).await
    }

    async fn get(&self, path: &str) -> Value {
        self.cmd(reqwest::Method::GET, path, None).await
    }

    pub async fn goto(&self, url: &str) {
        self.post("/url", json!({"url": url})).await;
    }

    /// Runs `script` in the page (`arguments` are `args`) and returns its value.
    pub async fn script(&self, script: &str, args: Value) -> Value {
        self.post("/execute/sync", json!({"script": script, "args": args}))
            .await
    }

    /// Every element matching a CSS selector, now.
    pub async fn find_all(&self, css: &str) -> Vec<Element> {
        self.post("/elements", json!({"using": "css selector", "value": css}))
            .await
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|e| Element(e[ELEMENT_KEY].as_str().unwrap().to_string()))
            .collect()
    }

    /// The first element matching `css`, waiting up to `secs` for it to appear and be shown.
    pub async fn wait_for(&self, css: &str, secs: u64) -> Element {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            for e in self.find_all(css).await {
                if self.displayed(&e).await {
                    return e;
                }
            }
            if Instant::now() > deadline {
                let body = self
                    .script("return document.body.innerText.slice(0, 2000)", json!([]))
                    .await;
                panic!("no visible {css} after {secs} s; the page says:\n{body}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Waits until `css` matches no visible element.
    pub async fn wait_gone(&self, css: &str, secs: u64) {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let mut shown = false;
            for e in self.find_all(css).await {
                shown |= self.displayed(&e).await;
            }
            if !shown {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{css} still shown after {secs} s"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Scrolls `e` to the middle of the window (for a screenshot that shows it).
    pub async fn scroll_to(&self, e: &Element) {
        self.script(
            "arguments[0].scrollIntoView({block: 'center'})",
            json!([{ ELEMENT_KEY: e.0 }]),
        )
        .await;
    }

    /// Whether `e` is shown. An element the page has since replaced (a re-render between
    /// finding and asking) is "stale": not shown, so a wait finds its successor.
    pub async fn displayed(&self, e: &Element) -> bool {
        let url = format!(
            "{}/session/{}/element/{}/displayed",
            self.base, self.session, e.0
        );
        let resp = self.http.get(&url).send().await.unwrap();
        let status = resp.status();
        let v: Value = resp.json().await.unwrap_or_default();
        if v["value"]["error"] == json!("stale element reference") {
            return false;
        }
        assert!(status.is_success(), "GET displayed → {status}: {v}");
        v["value"] == json!(true)
    }

    pub async fn click(&self, e: &Element) {
        self.post(&format!("/element/{}/click", e.0), json!({}))
            .await;
    }

    /// Types `text` into an element (WebDriver key codes such as [`ENTER`] work).
    pub async fn type_into(&self, e: &Element, text: &str) {
        self.post(&format!("/element/{}/value", e.0), json!({"text": text}))
            .await;
    }

    /// Presses one key on whatever has focus.
    pub async fn press(&self, key: &str) {
        self.post(
            "/actions",
            json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
                {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}
            ]}]}),
        )
        .await;
        self.cmd(reqwest::Method::DELETE, "/actions", None).await;
    }

    pub async fn text(&self, e: &Element) -> String {
        self.get(&format!("/element/{}/text", e.0))
            .await
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    pub async fn attr(&self, e: &Element, name: &str) -> Option<String> {
        self.get(&format!("/element/{}/attribute/{name}", e.0))
            .await
            .as_str()
            .map(str::to_string)
    }

    /// Saves a PNG of the window to `dir/name.png`.
    pub async fn screenshot(&self, dir: &Path, name: &str) -> PathBuf {
        let b64 = self.get("/screenshot").await;
        let png = base64::engine::general_purpose::STANDARD
            .decode(b64.as_str().unwrap())
            .unwrap();
        std::fs::create_dir_all(dir).unwrap();
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, png).unwrap();
        path
    }

    pub async fn resize(&self, width: u32, height: u32) {
        self.post("/window/rect", json!({"width": width, "height": height}))
            .await;
    }
}

impl Browser {
    /// Ends the session (Chromium exits) and then the driver.
    pub async fn quit(self) {
        self.cmd(reqwest::Method::DELETE, "", None).await;
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // The session goes with its driver; chromedriver kills the Chromium it started.
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}
