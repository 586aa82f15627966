//! An OpenAI-compatible chat client (`POST {base}/chat/completions`), which Ollama, vLLM,
//! llama.cpp's server and the hosted APIs all speak. A primary and an optional fallback
//! endpoint; each gets one attempt and one retry after a backoff, every attempt bounded by a
//! timeout; when all fail the caller gets [`LlmError::Unavailable`] and degrades. Every attempt
//! is reported as an [`Attempt`] for the `llm_calls` table, whatever its outcome.
//!
//! Two guards keep a sick endpoint from slowing every answer: a [`CircuitBreaker`] per
//! endpoint (after a few consecutive failures the endpoint is skipped for a cool-down, then
//! probed once), and one deadline per request ([`LlmClient::for_request`]) shared by the
//! router, HyDE and the answer calls, so retries and fallbacks cannot add up past it.
//!
//! Prompts are versioned files in `prompts/` ([`Prompt`]), embedded in the binary.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::breaker::{CircuitBreaker, Permit};

use futures::StreamExt;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};

/// A prompt template: `prompts/<name>.v<version>.md`, with `{{placeholders}}`.
#[derive(Debug, Clone, Copy)]
pub struct Prompt {
    pub name: &'static str,
    pub version: i32,
    pub template: &'static str,
}

impl Prompt {
    /// The template with each `{{key}}` replaced by its value (values are not re-scanned).
    pub fn render(&self, vars: &[(&str, &str)]) -> String {
        let mut out = String::with_capacity(self.template.len());
        let mut rest = self.template;
        while let Some(i) = rest.find("{{") {
            out.push_str(&rest[..i]);
            let after = &rest[i + 2..];
            match after.find("}}") {
                Some(j) => {
                    let key = after[..j].trim();
                    match vars.iter().find(|(k, _)| *k == key) {
                        Some((_, v)) => out.push_str(v),
                        None => out.push_str(&rest[i..i + 2 + j + 2]),
                    }
                    rest = &after[j + 2..];
                }
                None => {
                    out.push_str(&rest[i..]);
                    rest = "";
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// The rendered prompt as messages: the instructions before the `---user---` line are the
    /// system message; what follows (where the user's text and the excerpts go, as data) is
    /// the user message.
    pub fn messages(&self, vars: &[(&str, &str)]) -> Vec<Message> {
        let rendered = self.render(vars);
        match rendered.split_once(USER_SEPARATOR) {
            Some((system, user)) => {
                vec![Message::system(system.trim()), Message::user(user.trim())]
            }
            None => vec![Message::user(rendered.trim())],
        }
    }
}

/// Separates a prompt file's instructions from its user message.
const USER_SEPARATOR: &str = "---user---";

pub const ROUTER_PROMPT: Prompt = Prompt {
    name: "router",
    version: 1,
    template: include_str!("../prompts/router.v1.md"),
};
pub const HYDE_PROMPT: Prompt = Prompt {
    name: "hyde",
    version: 1,
    template: include_str!("../prompts/hyde.v1.md"),
};
pub const ANSWER_PROMPT: Prompt = Prompt {
    name: "answer",
    version: 1,
    template: include_str!("../prompts/answer.v1.md"),
};

/// Why a call was made (the `llm_calls.purpose` column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    Router,
    Hyde,
    Answer,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::Router => "router",
            Purpose::Hyde => "hyde",
            Purpose::Answer => "answer",
        }
    }
}

/// One chat message.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Message {
    pub role: String,
    pub content: String,
}

impl Message {
    pub fn system(content: impl Into<String>) -> Self {
        Message {
            role: "system".into(),
            content: content.into(),
        }
    }
    pub fn user(content: impl Into<String>) -> Self {
        Message {
            role: "user".into(),
            content: content.into(),
        }
    }
}

/// One configured endpoint.
#[derive(Debug, Clone)]
pub struct Endpoint {
    /// "primary" or "fallback" (the `llm_calls.provider` column).
    pub provider: &'static str,
    /// Up to and including `/v1`, e.g. `http://127.0.0.1:11434/v1`.
    pub base_url: String,
    pub model: String,
    pub api_key: Option<String>,
}

/// How one attempt ended (the `llm_calls.status` column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CallStatus {
    Ok,
    Timeout,
    HttpError,
    TransportError,
    BadResponse,
    /// The reply arrived but its content failed the caller's validation (set by the caller).
    InvalidOutput,
}

impl CallStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            CallStatus::Ok => "ok",
            CallStatus::Timeout => "timeout",
            CallStatus::HttpError => "http_error",
            CallStatus::TransportError => "transport_error",
            CallStatus::BadResponse => "bad_response",
            CallStatus::InvalidOutput => "invalid_output",
        }
    }
}

/// One attempt, as the `llm_calls` table records it.
#[derive(Debug, Clone, Serialize)]
pub struct Attempt {
    pub purpose: Purpose,
    pub provider: &'static str,
    pub model: String,
    pub prompt_name: &'static str,
    pub prompt_version: i32,
    pub prompt_sha256: String,
    pub tokens_in: Option<i32>,
    pub tokens_out: Option<i32>,
    pub latency_ms: f64,
    pub ttft_ms: Option<f64>,
    pub status: CallStatus,
    pub error: Option<String>,
}

/// What the pipeline sees when no endpoint answered.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LlmError {
    #[error("LLM_UNAVAILABLE: no configured LLM answered ({attempts} attempts; last: {last})")]
    Unavailable { attempts: usize, last: String },
    /// Every endpoint's circuit is open: nothing was called.
    #[error("LLM_UNAVAILABLE: circuit open after repeated failures ({providers}); next probe in {retry_in_s} s")]
    CircuitOpen { providers: String, retry_in_s: u64 },
    /// The request's LLM deadline passed before any endpoint answered.
    #[error("LLM_UNAVAILABLE: the request's LLM deadline ({deadline_ms} ms) passed ({attempts} attempts)")]
    DeadlineExceeded { deadline_ms: u128, attempts: usize },
}

/// One chat call's request.
pub struct ChatRequest<'a> {
    pub purpose: Purpose,
    pub prompt: &'a Prompt,
    pub messages: Vec<Message>,
    pub max_tokens: u32,
    pub temperature: f32,
    /// Ask for a JSON object (`response_format`); the caller still validates it.
    pub json: bool,
    /// Stream the reply (server-sent events) and pass each piece of text here as it comes.
    pub on_delta: Option<&'a (dyn Fn(&str) + Send + Sync)>,
}

/// A successful reply.
#[derive(Debug, Clone)]
pub struct Completion {
    pub text: String,
    /// Index into the attempts of the one that succeeded.
    pub attempt: usize,
}

#[derive(Debug, Clone)]
pub struct LlmConfig {
    pub primary: Endpoint,
    pub fallback: Option<Endpoint>,
    /// Bound on each attempt, connection to last byte.
    pub timeout: Duration,
    /// Wait before the retry of the same endpoint.
    pub backoff: Duration,
}

/// How the client protects requests from a failing endpoint.
#[derive(Debug, Clone, Copy)]
pub struct Resilience {
    /// Consecutive failed attempts that open an endpoint's circuit.
    pub breaker_threshold: u32,
    /// How long an open circuit skips its endpoint before one probe.
    pub breaker_cool_down: Duration,
    /// The whole LLM budget of one request (router + HyDE + answer, retries and fallback).
    pub request_deadline: Duration,
}

impl Default for Resilience {
    fn default() -> Self {
        Resilience {
            breaker_threshold: 3,
            breaker_cool_down: Duration::from_secs(30),
            request_deadline: Duration::from_secs(60),
        }
    }
}

/// The client. Cheap to clone; clones share the HTTP connection pool and the breakers.
#[derive(Debug, Clone)]
pub struct LlmClient {
    http: reqwest::Client,
    pub config: LlmConfig,
    pub resilience: Resilience,
    /// One per endpoint, in [`LlmClient::endpoints`] order.
    breakers: Arc<Vec<CircuitBreaker>>,
    /// Set on a request's copy ([`LlmClient::for_request`]).
    deadline: Option<Instant>,
}

impl LlmClient {
    /// The client the configuration describes; `None` when no endpoint is configured.
    pub fn from_config(cfg: &crate::config::Config) -> Result<Option<Arc<LlmClient>>, String> {
        // An unset or blank URL means no endpoint.
        let endpoint = |provider, url: &Option<String>, model: &String, key: &Option<String>| {
            url.clone()
                .filter(|u| !u.trim().is_empty())
                .map(|base_url| Endpoint {
                    provider,
                    base_url,
                    model: model.clone(),
                    api_key: key.clone(),
                })
        };
        let Some(primary) = endpoint(
            "primary",
            &cfg.llm_base_url,
            &cfg.llm_model,
            &cfg.llm_api_key,
        ) else {
            return Ok(None);
        };
        let config = LlmConfig {
            primary,
            fallback: endpoint(
                "fallback",
                &cfg.llm_fallback_base_url,
                &cfg.llm_fallback_model,
                &cfg.llm_fallback_api_key,
            ),
            timeout: std::time::Duration::from_millis(cfg.llm_timeout_ms.max(1)),
            backoff: std::time::Duration::from_millis(cfg.llm_backoff_ms),
        };
        let resilience = Resilience {
            breaker_threshold: cfg.llm_breaker_failures,
            breaker_cool_down: std::time::Duration::from_millis(cfg.llm_breaker_cool_down_ms),
            request_deadline: std::time::Duration::from_millis(cfg.llm_deadline_ms.max(1)),
        };
        Ok(Some(Arc::new(LlmClient::with_resilience(
            config, resilience,
        )?)))
    }

    pub fn new(config: LlmConfig) -> Result<Self, String> {
        Self::with_resilience(config, Resilience::default())
    }

    pub fn with_resilience(config: LlmConfig, resilience: Resilience) -> Result<Self, String> {
        let http = reqwest::Client::builder()
            .connect_timeout(config.timeout.min(Duration::from_secs(10)))
            .build()
            .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
        let n = 1 + usize::from(config.fallback.is_some());
        let breakers = (0..n)
            .map(|_| {
                CircuitBreaker::new(resilience.breaker_threshold, resilience.breaker_cool_down)
            })
            .collect();
        let client = LlmClient {
            http,
            config,
            resilience,
            breakers: Arc::new(breakers),
            deadline: None,
        };
        client.publish_breakers();
        Ok(client)
    }

    /// A copy for one request: every call it makes shares one deadline, starting now.
    pub fn for_request(&self) -> LlmClient {
        LlmClient {
            deadline: Some(Instant::now() + self.resilience.request_deadline),
            ..self.clone()
        }
    }

    /// The configured endpoints in the order they are tried.
    fn endpoints(&self) -> impl Iterator<Item = &Endpoint> {
        std::iter::once(&self.config.primary).chain(self.config.fallback.as_ref())
    }

    /// Each endpoint's breaker state, for `/metrics`.
    fn publish_breakers(&self) {
        for (endpoint, breaker) in self.endpoints().zip(self.breakers.iter()) {
            crate::metrics::global().set_llm_breaker(endpoint.provider, breaker.state() as i64);
        }
    }

    /// The time left before this request's deadline (`None`: no deadline).
    fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Runs the call: primary, its retry, fallback, its retry — skipping an endpoint whose
    /// circuit is open and stopping at the request's deadline. Returns every attempt made,
    /// successful or not, alongside the outcome.
    pub async fn chat(
        &self,
        req: &ChatRequest<'_>,
    ) -> (Result<Completion, LlmError>, Vec<Attempt>) {
        let mut attempts = Vec::new();
        let mut refused: Vec<(&str, Duration)> = Vec::new();
        let mut out_of_time = false;
        'endpoints: for (endpoint, breaker) in self.endpoints().zip(self.breakers.iter()) {
            for round in 0..2 {
                let permit = breaker.permit(Instant::now());
                if let Permit::Refused { retry_in } = permit {
                    if round == 0 {
                        refused.push((endpoint.provider, retry_in));
                    }
                    break;
                }
                if round > 0 {
                    if self.remaining().is_some_and(|r| r <= self.config.backoff) {
                        out_of_time = true;
                        break 'endpoints;
                    }
                    tokio::time::sleep(self.config.backoff).await;
                }
                let budget = match self.remaining() {
                    Some(r) if r.is_zero() => {
                        out_of_time = true;
                        break 'endpoints;
                    }
                    Some(r) => r.min(self.config.timeout),
                    None => self.config.timeout,
                };
                let (result, attempt) = self.attempt(endpoint, req, budget).await;
                breaker.record(result.is_ok(), Instant::now());
                self.publish_breakers();
                attempts.push(attempt);
                if let Ok(text) = result {
                    return (
                        Ok(Completion {
                            text,
                            attempt: attempts.len() - 1,
                        }),
                        attempts,
                    );
                }
                if permit == Permit::Probe {
                    break;
                }
            }
        }
        let error = if out_of_time {
            LlmError::DeadlineExceeded {
                deadline_ms: self.resilience.request_deadline.as_millis(),
                attempts: attempts.len(),
            }
        } else if attempts.is_empty() && !refused.is_empty() {
            LlmError::CircuitOpen {
                providers: refused
                    .iter()
                    .map(|(p, _)| *p)
                    .collect::<Vec<_>>()
                    .join(", "),
                retry_in_s: refused
                    .iter()
                    .map(|(_, d)| d.as_secs_f64().ceil() as u64)
                    .min()
                    .unwrap_or(0),
            }
        } else {
            LlmError::Unavailable {
                attempts: attempts.len(),
                last: attempts
                    .last()
                    .and_then(|a| a.error.clone())
                    .unwrap_or_else(|| "no endpoint configured".into()),
            }
        };
        (Err(error), attempts)
    }

    async fn attempt(
        &self,
        endpoint: &Endpoint,
        req: &ChatRequest<'_>,
        timeout: Duration,
    ) -> (Result<String, String>, Attempt) {
        let stream = req.on_delta.is_some();
        let mut body = json!({
            "model": endpoint.model,
            "messages": req.messages,
            "max_tokens": req.max_tokens,
            "temperature": req.temperature,
            "stream": stream,
        });
        if req.json {
            body["response_format"] = json!({"type": "json_object"});
        }
        if stream {
            body["stream_options"] = json!({"include_usage": true});
        }
        let prompt_sha256 = hex::encode(Sha256::digest(
            serde_json::to_vec(&req.messages).unwrap_or_default(),
        ));
        let mut attempt = Attempt {
            purpose: req.purpose,
            provider: endpoint.provider,
            model: endpoint.model.clone(),
            prompt_name: req.prompt.name,
            prompt_version: req.prompt.version,
            prompt_sha256,
            tokens_in: None,
            tokens_out: None,
            latency_ms: 0.0,
            ttft_ms: None,
            status: CallStatus::Ok,
            error: None,
        };
        let started = Instant::now();
        let call = self.send(endpoint, &body, req, &mut attempt, started);
        let result = match tokio::time::timeout(timeout, call).await {
            Ok(Ok(text)) => Ok(text),
            Ok(Err((status, error))) => {
                attempt.status = status;
                Err(error)
            }
            Err(_) => {
                attempt.status = CallStatus::Timeout;
                Err(format!(
                    "no complete reply within {} ms",
                    timeout.as_millis()
                ))
            }
        };
        attempt.latency_ms = started.elapsed().as_secs_f64() * 1000.0;
        if let Err(e) = &result {
            attempt.error = Some(e.clone());
            tracing::warn!(
                purpose = req.purpose.as_str(),
                provider = endpoint.provider,
                status = attempt.status.as_str(),
                error = %e,
                "llm attempt failed"
            );
        }
        (result, attempt)
    }

    async fn send(
        &self,
        endpoint: &Endpoint,
        body: &serde_json::Value,
        req: &ChatRequest<'_>,
        attempt: &mut Attempt,
        started: Instant,
    ) -> Result<String, (CallStatus, String)> {
        let response = self.post(endpoint, body).await?;
        match req.on_delta {
            None => read_reply(response, attempt, started).await,
            Some(on_delta) => read_stream(response, on_delta, attempt, started).await,
        }
    }

    /// Posts the chat request to `endpoint`; a reply that is not a success is an error with
    /// the first 200 characters of its body.
    async fn post(
        &self,
        endpoint: &Endpoint,
        body: &serde_json::Value,
    ) -> Result<reqwest::Response, (CallStatus, String)> {
        let url = format!(
            "{}/chat/completions",
            endpoint.base_url.trim_end_matches('/')
        );
        let mut request = self.http.post(&url).json(body);
        if let Some(key) = &endpoint.api_key {
            request = request.bearer_auth(key);
        }
        let response = request
            .send()
            .await
            .map_err(|e| (CallStatus::TransportError, format!("{url}: {e}")))?;
        let status = response.status();
        if !status.is_success() {
            let text = response.text().await.unwrap_or_default();
            let text: String = text.chars().take(200).collect();
            return Err((CallStatus::HttpError, format!("HTTP {status}: {text}")));
        }
        Ok(response)
    }
}

/// A whole chat completion's text, its usage recorded on `attempt`.
async fn read_reply(
    response: reqwest::Response,
    attempt: &mut Attempt,
    started: Instant,
) -> Result<String, (CallStatus, String)> {
    let reply: ChatReply = response.json().await.map_err(|e| {
        (
            CallStatus::BadResponse,
            format!("not a chat completion: {e}"),
        )
    })?;
    attempt.ttft_ms = Some(started.elapsed().as_secs_f64() * 1000.0);
    if let Some(u) = reply.usage {
        attempt.tokens_in = u.prompt_tokens;
        attempt.tokens_out = u.completion_tokens;
    }
    reply
        .choices
        .into_iter()
        .next()
        .and_then(|c| c.message)
        .and_then(|m| m.content)
        .ok_or((
            CallStatus::BadResponse,
            "the reply has no message content".to_string(),
        ))
}

/// A streamed reply's text, each piece passed to `on_delta` as it comes. Server-sent events:
/// `data: {chunk}` lines, ending with `data: [DONE]`.
async fn read_stream(
    response: reqwest::Response,
    on_delta: &(dyn Fn(&str) + Send + Sync),
    attempt: &mut Attempt,
    started: Instant,
) -> Result<String, (CallStatus, String)> {
    let mut text = String::new();
    let mut buffer = String::new();
    let mut bytes = response.bytes_stream();
    let mut done = false;
    while let Some(piece) = bytes.next().await {
        let piece =
            piece.map_err(|e| (CallStatus::TransportError, format!("stream broke: {e}")))?;
        buffer.push_str(&String::from_utf8_lossy(&piece));
        while let Some(i) = buffer.find('\n') {
            let line: String = buffer.drain(..=i).collect();
            match sse_data(&line) {
                None => continue,
                Some("[DONE]") => {
                    done = true;
                    break;
                }
                Some(data) => {
                    let chunk: ChatChunk = serde_json::from_str(data).map_err(|e| {
                        (
                            CallStatus::BadResponse,
                            format!("not a chat completion chunk: {e}"),
                        )
                    })?;
                    take_chunk(chunk, attempt, started, &mut |delta| {
                        on_delta(delta);
                        text.push_str(delta);
                    });
                }
            }
        }
        if done {
            break;
        }
    }
    if !done && text.is_empty() {
        return Err((
            CallStatus::BadResponse,
            "the stream ended without content".into(),
        ));
    }
    Ok(text)
}

/// The payload of a server-sent event's `data:` line; `None` for any other line.
fn sse_data(line: &str) -> Option<&str> {
    line.trim().strip_prefix("data:").map(str::trim)
}

/// Records a chunk's usage on `attempt` and passes each non-empty piece of text to `delta`,
/// timing the first.
fn take_chunk(
    chunk: ChatChunk,
    attempt: &mut Attempt,
    started: Instant,
    delta: &mut impl FnMut(&str),
) {
    if let Some(u) = chunk.usage {
        attempt.tokens_in = u.prompt_tokens;
        attempt.tokens_out = u.completion_tokens;
    }
    for c in chunk.choices {
        if let Some(piece) = c.delta.and_then(|d| d.content) {
            if !piece.is_empty() {
                attempt
                    .ttft_ms
                    .get_or_insert_with(|| started.elapsed().as_secs_f64() * 1000.0);
                delta(&piece);
            }
        }
    }
}

#[derive(Debug, Deserialize)]
struct ChatReply {
    choices: Vec<Choice>,
    usage: Option<Usage>,
}

#[derive(Debug, Deserialize)]
struct Choice {
    message: Option<ChoiceMessage>,
    delta: Option<ChoiceMessage>,
}

#[derive(Debug, Deserialize)]
struct ChoiceMessage {
    content: Option<String>,
}

#[derive(Debug, Deserialize)]
struct ChatChunk {
    #[serde(default)]
    choices: Vec<Choice>,
    usage: Option<Usage>,
}

#[derive(Debug, Deserialize)]
struct Usage {
    prompt_tokens: Option<i32>,
    completion_tokens: Option<i32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blank_attempt() -> Attempt {
        Attempt {
            purpose: Purpose::Answer,
            provider: "test",
            model: "m".into(),
            prompt_name: "t",
            prompt_version: 1,
            prompt_sha256: String::new(),
            tokens_in: None,
            tokens_out: None,
            latency_ms: 0.0,
            ttft_ms: None,
            status: CallStatus::Ok,
            error: None,
        }
    }

    #[test]
    fn only_data_lines_carry_an_event() {
        assert_eq!(sse_data("data: {\"a\":1}\n"), Some("{\"a\":1}"));
        assert_eq!(sse_data("  data:[DONE]  "), Some("[DONE]"));
        assert_eq!(sse_data(": keep-alive\n"), None);
        assert_eq!(sse_data("event: message"), None);
    }

    #[test]
    fn a_chunk_passes_its_text_on_and_records_usage_and_the_first_token() {
        let mut attempt = blank_attempt();
        let mut text = String::new();
        let chunk: ChatChunk = serde_json::from_str(
            r#"{"choices":[{"delta":{"content":""}},{"delta":{"content":"Article"}}],"usage":{"prompt_tokens":9,"completion_tokens":1}}"#,
        )
        .unwrap();
        take_chunk(chunk, &mut attempt, Instant::now(), &mut |d| {
            text.push_str(d)
        });
        assert_eq!(text, "Article");
        assert_eq!((attempt.tokens_in, attempt.tokens_out), (Some(9), Some(1)));
        let first = attempt.ttft_ms.expect("timed");
        let chunk: ChatChunk =
            serde_json::from_str(r#"{"choices":[{"delta":{"content":" 21"}}]}"#).unwrap();
        take_chunk(chunk, &mut attempt, Instant::now(), &mut |d| {
            text.push_str(d)
        });
        assert_eq!(text, "Article 21");
        // The first token's time stays; a chunk without usage leaves the counts.
        assert_eq!(attempt.ttft_ms, Some(first));
        assert_eq!(attempt.tokens_in, Some(9));
    }

    #[test]
    fn prompts_render_their_placeholders_once() {
        let p = Prompt {
            name: "t",
            version: 1,
            template: "Q: {{question}}\nE: {{ excerpts }}\nkeep {{unknown}}",
        };
        assert_eq!(
            p.render(&[("question", "why {{excerpts}}?"), ("excerpts", "[1] x")]),
            "Q: why {{excerpts}}?\nE: [1] x\nkeep {{unknown}}"
        );
    }

    #[test]
    fn shipped_prompts_have_their_placeholders() {
        assert!(ANSWER_PROMPT.template.contains("{{excerpts}}"));
        assert!(ANSWER_PROMPT.template.contains("{{question}}"));
        assert!(ROUTER_PROMPT.template.contains("{{question}}"));
        assert!(HYDE_PROMPT.template.contains("{{question}}"));
        for p in [ANSWER_PROMPT, ROUTER_PROMPT, HYDE_PROMPT] {
            let m = p.messages(&[("question", "Q?")]);
            assert_eq!(m.len(), 2, "{}", p.name);
            assert_eq!((m[0].role.as_str(), m[1].role.as_str()), ("system", "user"));
            assert!(m[1].content.contains("Q?") && !m[0].content.contains("Q?"));
        }
    }
}
