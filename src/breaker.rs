//! A circuit breaker: after `threshold` consecutive failures a dependency is not called for a
//! cool-down; then one probe call is let through (half-open), and its outcome closes the
//! circuit again or re-opens it for another cool-down. It exists so that an LLM endpoint that
//! accepts connections and never answers costs the first few requests a timeout each, not every
//! request: while open, callers skip the endpoint at once and degrade.
//!
//! Pure state (the clock is passed in), shared behind a mutex that is never held across an
//! await.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What a caller may do now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Permit {
    /// Call (closed circuit).
    Call,
    /// Call: this is the one probe after the cool-down.
    Probe,
    /// Do not call; the circuit re-opens for probing after this long.
    Refused { retry_in: Duration },
}

/// The breaker's state, as `/metrics` shows it (0, 1, 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Closed = 0,
    Open = 1,
    HalfOpen = 2,
}

#[derive(Debug)]
enum Inner {
    Closed {
        failures: u32,
    },
    Open {
        until: Instant,
    },
    /// A probe is in flight; everyone else is refused until it reports.
    HalfOpen,
}

#[derive(Debug)]
pub struct CircuitBreaker {
    threshold: u32,
    cool_down: Duration,
    inner: Mutex<Inner>,
}

impl CircuitBreaker {
    /// Opens after `threshold` (at least 1) consecutive failures, for `cool_down`.
    pub fn new(threshold: u32, cool_down: Duration) -> Self {
        CircuitBreaker {
            threshold: threshold.max(1),
            cool_down,
            inner: Mutex::new(Inner::Closed { failures: 0 }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // The state stays consistent even if a holder panicked: every update is one assignment.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// May the caller call now? Moves an expired open circuit to half-open (this caller probes).
    pub fn permit(&self, now: Instant) -> Permit {
        let mut inner = self.lock();
        match *inner {
            Inner::Closed { .. } => Permit::Call,
            Inner::Open { until } if now < until => Permit::Refused {
                retry_in: until - now,
            },
            Inner::Open { .. } => {
                *inner = Inner::HalfOpen;
                Permit::Probe
            }
            Inner::HalfOpen => Permit::Refused {
                retry_in: Duration::ZERO,
            },
        }
    }

    /// Reports a call's outcome.
    pub fn record(&self, ok: bool, now: Instant) {
        let mut inner = self.lock();
        *inner = match (&*inner, ok) {
            (_, true) => Inner::Closed { failures: 0 },
            (Inner::Closed { failures }, false) if failures + 1 < self.threshold => Inner::Closed {
                failures: failures + 1,
            },
            (_, false) => Inner::Open {
                until: now + self.cool_down,
            },
        };
    }

    pub fn state(&self) -> State {
        match *self.lock() {
            Inner::Closed { .. } => State::Closed,
            Inner::Open { .. } => State::Open,
            Inner::HalfOpen => State::HalfOpen,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_after_consecutive_failures_and_probes_after_the_cool_down() {
        let b = CircuitBreaker::new(3, Duration::from_secs(30));
        let t0 = Instant::now();
        b.record(false, t0);
        b.record(false, t0);
        assert_eq!(b.permit(t0), Permit::Call, "two failures do not open it");
        b.record(true, t0);
        b.record(false, t0);
        b.record(false, t0);
        assert_eq!(b.state(), State::Closed, "a success resets the count");
        b.record(false, t0);
        assert_eq!(b.state(), State::Open);
        assert_eq!(
            b.permit(t0 + Duration::from_secs(10)),
            Permit::Refused {
                retry_in: Duration::from_secs(20)
            }
        );
        // After the cool-down exactly one caller probes.
        let later = t0 + Duration::from_secs(31);
        assert_eq!(b.permit(later), Permit::Probe);
        assert_eq!(b.state(), State::HalfOpen);
        assert!(matches!(b.permit(later), Permit::Refused { .. }));
        // A failed probe re-opens for a whole cool-down; a good one closes.
        b.record(false, later);
        assert!(matches!(
            b.permit(later + Duration::from_secs(29)),
            Permit::Refused { .. }
        ));
        assert_eq!(b.permit(later + Duration::from_secs(31)), Permit::Probe);
        b.record(true, later + Duration::from_secs(32));
        assert_eq!(b.state(), State::Closed);
        assert_eq!(b.permit(later + Duration::from_secs(32)), Permit::Call);
    }
}
