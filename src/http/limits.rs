//! Load shedding and limits, so that saturation degrades into fast, typed refusals instead of
//! latency that grows without bound:
//! - a bound on requests in flight (beyond it: 503 `overloaded` with `Retry-After`);
//! - a deadline per request (past it: 503 `timeout`);
//! - a token bucket per client IP (empty: 429 `rate_limited` with `Retry-After`).
//!
//! Probes (`/healthz`, `/readyz`, `/metrics`) are exempt: an orchestrator must be able to see a
//! saturated server. Each limit has an off switch (0) for benchmarks. The client IP is the TCP
//! peer (`ConnectInfo`); behind a reverse proxy every client shares the proxy's bucket, so
//! either rate-limit at the proxy or raise the limit.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;

use super::ApiError;
use crate::error::AppError;

/// The limits' settings (from `Config`; 0 turns a limit off).
#[derive(Debug, Clone, Copy)]
pub struct LimitSettings {
    pub max_in_flight: usize,
    pub request_timeout: Duration,
    /// Tokens added per second per client.
    pub rate_per_s: f64,
    /// Bucket size: the burst a client may send at once.
    pub burst: f64,
}

/// The shared state of the limits (one per router).
#[derive(Clone)]
pub struct Limits {
    settings: LimitSettings,
    in_flight: Option<Arc<Semaphore>>,
    buckets: Arc<Mutex<Buckets>>,
}

impl Limits {
    pub fn new(settings: LimitSettings) -> Self {
        Limits {
            settings,
            in_flight: (settings.max_in_flight > 0)
                .then(|| Arc::new(Semaphore::new(settings.max_in_flight))),
            buckets: Arc::new(Mutex::new(Buckets::default())),
        }
    }
}

fn exempt(path: &str) -> bool {
    matches!(path, "/healthz" | "/readyz" | "/metrics")
}

pub async fn middleware(State(limits): State<Limits>, req: Request, next: Next) -> Response {
    if exempt(req.uri().path()) {
        return next.run(req).await;
    }
    let s = limits.settings;
    if s.rate_per_s > 0.0 {
        if let Some(ConnectInfo(peer)) = req.extensions().get::<ConnectInfo<SocketAddr>>() {
            let verdict = limits
                .buckets
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take(peer.ip(), Instant::now(), s.rate_per_s, s.burst);
            if let Err(wait) = verdict {
                return ApiError(AppError::RateLimited {
                    retry_after_s: wait.as_secs_f64().ceil().max(1.0) as u64,
                })
                .into_response();
            }
        }
    }
    // Held until the response is ready (a streamed answer's body continues after it).
    let _permit = match &limits.in_flight {
        None => None,
        Some(sem) => match sem.clone().try_acquire_owned() {
            Ok(p) => Some(p),
            Err(_) => {
                return ApiError(AppError::Overloaded {
                    limit: s.max_in_flight,
                })
                .into_response()
            }
        },
    };
    if s.request_timeout.is_zero() {
        return next.run(req).await;
    }
    match tokio::time::timeout(s.request_timeout, next.run(req)).await {
        Ok(response) => response,
        Err(_) => ApiError(AppError::Timeout {
            after_ms: s.request_timeout.as_millis() as u64,
        })
        .into_response(),
    }
}

/// Token buckets by client IP.
#[derive(Debug, Default)]
struct Buckets {
    map: HashMap<IpAddr, Bucket>,
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Above this many clients, buckets that have refilled are forgotten (they equal a new one).
const MAX_TRACKED_CLIENTS: usize = 10_000;

impl Buckets {
    /// Takes one token from `ip`'s bucket, or says how long until one is there.
    fn take(&mut self, ip: IpAddr, now: Instant, rate: f64, burst: f64) -> Result<(), Duration> {
        if self.map.len() >= MAX_TRACKED_CLIENTS {
            self.map
                .retain(|_, b| b.tokens + now.duration_since(b.at).as_secs_f64() * rate < burst);
        }
        let b = self.map.entry(ip).or_insert(Bucket {
            tokens: burst,
            at: now,
        });
        b.tokens = (b.tokens + now.duration_since(b.at).as_secs_f64() * rate).min(burst);
        b.at = now;
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - b.tokens) / rate))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_its_rate() {
        let mut b = Buckets::default();
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        let other: IpAddr = "10.0.0.2".parse().unwrap();
        let t0 = Instant::now();
        for _ in 0..5 {
            assert!(b.take(ip, t0, 2.0, 5.0).is_ok());
        }
        let wait = b.take(ip, t0, 2.0, 5.0).unwrap_err();
        assert!((wait.as_secs_f64() - 0.5).abs() < 1e-9, "{wait:?}");
        assert!(
            b.take(other, t0, 2.0, 5.0).is_ok(),
            "buckets are per client"
        );
        assert!(b
            .take(ip, t0 + Duration::from_millis(500), 2.0, 5.0)
            .is_ok());
        assert!(b
            .take(ip, t0 + Duration::from_millis(500), 2.0, 5.0)
            .is_err());
        // A long pause refills to the burst, never beyond.
        let later = t0 + Duration::from_secs(3600);
        for _ in 0..5 {
            assert!(b.take(ip, later, 2.0, 5.0).is_ok());
        }
        assert!(b.take(ip, later, 2.0, 5.0).is_err());
    }
}
