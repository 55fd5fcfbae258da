//! A request id on every log line: taken from `X-Request-Id` when the client sends a sane one,
//! made up otherwise, and echoed in the response.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use tracing::Instrument;

static NEXT: AtomicU64 = AtomicU64::new(1);

fn new_id() -> String {
    // Process start (seconds) and a counter: unique per process, short enough to read in logs.
    static START: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    let start = START.get_or_init(|| baumeister_storage::now_ms() as u64 / 1000);
    format!("{start:x}-{}", NEXT.fetch_add(1, Ordering::Relaxed))
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
    async move {
        let mut response = next.call(req).await?;
        let status = response.status().as_u16();
        let ms = started.elapsed().as_millis() as u64;
        if status >= 500 {
            tracing::error!(%method, %path, status, ms, "handled");
        } else {
            tracing::info!(%method, %path, status, ms, "handled");
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
