//! A request id on every log line: taken from `X-Request-Id` when the client sends a sane one,
//! made up otherwise, echoed in the response's `X-Request-Id` and in every problem body
//! (`request_id`), so that a client's report leads to the server's log lines. The request's
//! span carries it (`LOG_FORMAT=json` writes it as `span.id` on each line); the problem reads it
//! from a task-local value set for the request's handling.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use tracing::Instrument;

use crate::throttle::Throttle;

static NEXT: AtomicU64 = AtomicU64::new(1);

tokio::task_local! {
    static REQUEST_ID: String;
}

/// The id of the request being handled (`None` outside a request, e.g. in a stream's task).
pub fn current() -> Option<String> {
    REQUEST_ID.try_with(Clone::clone).ok()
}

fn new_id() -> String {
    // Process start (seconds) and a counter: unique per process, short enough to read in logs.
    static START: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    let start = START.get_or_init(|| baumeister_storage::now_ms() as u64 / 1000);
    format!("{start:x}-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// Each request is logged at debug (one line per request fills disks under load); at info, one
/// summary line per minute says how many requests were answered, how many were refused or
/// failed, and the slowest.
struct Summary {
    since_ms: AtomicU64,
    requests: AtomicU64,
    client_errors: AtomicU64,
    server_errors: AtomicU64,
    slowest_ms: AtomicU64,
}

const SUMMARY_EVERY_MS: u64 = 60_000;

static SUMMARY: Summary = Summary {
    since_ms: AtomicU64::new(0),
    requests: AtomicU64::new(0),
    client_errors: AtomicU64::new(0),
    server_errors: AtomicU64::new(0),
    slowest_ms: AtomicU64::new(0),
};

impl Summary {
    fn count(&self, status: u16, ms: u64) {
        self.requests.fetch_add(1, Ordering::Relaxed);
        if (400..500).contains(&status) {
            self.client_errors.fetch_add(1, Ordering::Relaxed);
        } else if status >= 500 {
            self.server_errors.fetch_add(1, Ordering::Relaxed);
        }
        self.slowest_ms.fetch_max(ms, Ordering::Relaxed);
        let now = baumeister_storage::now_ms() as u64;
        let since = self.since_ms.load(Ordering::Relaxed);
        if since == 0 {
            let _ = self
                .since_ms
                .compare_exchange(0, now, Ordering::Relaxed, Ordering::Relaxed);
        } else if now >= since + SUMMARY_EVERY_MS
            && self
                .since_ms
                .compare_exchange(since, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            // Only the request that won the exchange reports, once per period.
            tracing::info!(
                seconds = (now - since) / 1000,
                requests = self.requests.swap(0, Ordering::Relaxed),
                client_errors = self.client_errors.swap(0, Ordering::Relaxed),
                server_errors = self.server_errors.swap(0, Ordering::Relaxed),
                slowest_ms = self.slowest_ms.swap(0, Ordering::Relaxed),
                "requests answered"
            );
        }
    }
}

pub async fn request_id(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id = req
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 64 && v.bytes().all(|b| b.is_ascii_graphic()))
        .map(str::to_string)
        .unwrap_or_else(new_id);
    let span = tracing::info_span!("request", id = %id);
    let method = req.method().clone();
    let path = req.path().to_string();
    let started = Instant::now();
    let state = req
        .app_data::<actix_web::web::Data<crate::AppState>>()
        .cloned();
    let handled = REQUEST_ID.scope(id.clone(), next.call(req));
    async move {
        let mut response = handled.await?;
        let status = response.status().as_u16();
        let took = started.elapsed();
        crate::telemetry::http::request(&response, took);
        let ms = took.as_millis() as u64;
        if status == 503 {
            // Unavailable for the moment (the database, or busy): expected while it lasts, so
            // one line a second, not one per request.
            static UNAVAILABLE: Throttle = Throttle::new();
            if let Some(left_out) = UNAVAILABLE.allow() {
                tracing::warn!(%method, %path, status, ms, left_out, "handled");
            }
        } else if status >= 500 {
            tracing::error!(%method, %path, status, ms, "handled");
        } else {
            tracing::debug!(%method, %path, status, ms, "handled");
        }
        SUMMARY.count(status, ms);
        if state.is_some_and(|s| s.shutdown.is_stopping()) {
            // The process stops: this connection is not kept for another request.
            response
                .response_mut()
                .head_mut()
                .set_connection_type(actix_web::http::ConnectionType::Close);
        }
        if let Ok(value) = HeaderValue::from_str(&id) {
            response
                .headers_mut()
                .insert(HeaderName::from_static("x-request-id"), value);
        }
        Ok(response)
    }
    .instrument(span)
    .await
}
