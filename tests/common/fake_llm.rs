//! A scripted OpenAI-compatible server for tests: a real HTTP server on 127.0.0.1 speaking
//! `POST /v1/chat/completions` (plain JSON, or server-sent events when `"stream": true`).
//! Each test pushes replies per purpose (told apart by the prompt's system message); a
//! purpose with nothing scripted gets the default reply, or HTTP 500 when there is none. Every request body is kept for inspection.

#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Value};

/// One scripted reply.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub content: String,
    /// Wait this long before answering (longer than the client's timeout: a timeout).
    pub delay: Duration,
}

impl Reply {
    pub fn ok(content: &str) -> Reply {
        Reply {
            status: 200,
            content: content.to_string(),
            delay: Duration::ZERO,
        }
    }
    pub fn status(status: u16) -> Reply {
        Reply {
            status,
            content: String::new(),
            delay: Duration::ZERO,
        }
    }
    pub fn slow(delay: Duration) -> Reply {
        Reply {
            status: 200,
            content: "too late".into(),
            delay,
        }
    }
}

#[derive(Default)]
struct Script {
    queues: HashMap<&'static str, VecDeque<Reply>>,
    requests: Vec<(&'static str, Value)>,
    /// The reply when a purpose's queue is empty (`None`: HTTP 500).
    default: Option<Reply>,
}

#[derive(Clone)]
pub struct FakeLlm {
    pub base_url: String,
    script: Arc<Mutex<Script>>,
}

/// Which prompt a request carries: router, hyde or answer.
fn purpose(body: &Value) -> &'static str {
    let system = body["messages"]
        .as_array()
        .and_then(|m| m.iter().find(|m| m["role"] == "system"))
        .and_then(|m| m["content"].as_str())
        .unwrap_or("");
    if system.contains("You classify one question") {
        "router"
    } else if system.contains("hypothetical") || system.contains("Write one short passage") {
        "hyde"
    } else {
        "answer"
    }
}

async fn completions(
    State(script): State<Arc<Mutex<Script>>>,
    Json(body): Json<Value>,
) -> Response {
    let p = purpose(&body);
    let reply = {
        let mut s = script.lock().unwrap();
        s.requests.push((p, body.clone()));
        let queued = s.queues.get_mut(p).and_then(|q| q.pop_front());
        queued.or_else(|| s.default.clone())
    };
    let Some(reply) = reply else {
        return (StatusCode::INTERNAL_SERVER_ERROR, "nothing scripted").into_response();
    };
    if !reply.delay.is_zero() {
        tokio::time::sleep(reply.delay).await;
    }
    if reply.status != 200 {
        let status = StatusCode::from_u16(reply.status).unwrap();
        return (
            status,
            Json(json!({"error": {"message": "scripted failure"}})),
        )
            .into_response();
    }
    if body["stream"] == true {
        // Word by word, then a usage chunk, then [DONE] — as llama.cpp's server does.
        let mut sse = String::new();
        let words: Vec<&str> = reply.content.split_inclusive(' ').collect();
        for w in &words {
            let chunk = json!({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": w}}]});
            sse.push_str(&format!("data: {chunk}\n\n"));
        }
        let usage = json!({"choices": [], "usage": {"prompt_tokens": 100, "completion_tokens": words.len()}});
        sse.push_str(&format!("data: {usage}\n\ndata: [DONE]\n\n"));
        return ([("content-type", "text/event-stream")], sse).into_response();
    }
    Json(json!({
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": reply.content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20}
    }))
    .into_response()
}

impl FakeLlm {
    pub async fn start() -> FakeLlm {
        let script = Arc::new(Mutex::new(Script::default()));
        let app = Router::new()
            .route("/v1/chat/completions", post(completions))
            .with_state(script.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        FakeLlm {
            base_url: format!("http://{addr}/v1"),
            script,
        }
    }

    /// Queues a reply for requests of `purpose` ("router", "hyde", "answer").
    pub fn push(&self, purpose: &'static str, reply: Reply) {
        self.script
            .lock()
            .unwrap()
            .queues
            .entry(purpose)
            .or_default()
            .push_back(reply);
    }

    /// What every unscripted request gets from now on, e.g. `Reply::slow(an hour)`: an
    /// endpoint that accepts connections and never answers.
    pub fn set_default(&self, reply: Option<Reply>) {
        self.script.lock().unwrap().default = reply;
    }

    /// Every request received so far: (purpose, body).
    pub fn requests(&self) -> Vec<(&'static str, Value)> {
        self.script.lock().unwrap().requests.clone()
    }

    pub fn clear(&self) {
        let mut s = self.script.lock().unwrap();
        s.queues.clear();
        s.requests.clear();
    }
}
