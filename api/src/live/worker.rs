//! The webhook worker: one per server process. It sends the outbox's due deliveries (several
//! processes share the outbox safely: a delivery is taken by one at a time), retries failures
//! with exponential backoff, and queues `deadline_soon` notices. Woken by the live notice of
//! every append that queued deliveries, and at the latest every second.

use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use baumeister_storage::{Delivery, Store};
use tokio::sync::Semaphore;

use crate::config::Live;
use crate::live::{sign, targets};

/// Attempts under way at once, per process.
const IN_FLIGHT: usize = 16;

/// The longest pause between two attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(3600);

/// The pause after the `attempt`th failed attempt: `base`, doubled each time, at most an hour.
pub fn backoff(base: Duration, attempt: i32) -> Duration {
    let doublings = attempt.clamp(1, 30) as u32 - 1;
    base.saturating_mul(1 << doublings).min(MAX_BACKOFF)
}

/// Runs forever; spawn it on the server's runtime (it uses the non-`Send` HTTP client).
pub async fn run(store: Store, live: Live) {
    let client = Rc::new(
        awc::Client::builder()
            .timeout(live.timeout)
            .disable_redirects()
            .add_default_header(("User-Agent", "Baumeister-Webhooks/1"))
            .finish(),
    );
    let slots = Arc::new(Semaphore::new(IN_FLIGHT));
    let lease_ms = (live.timeout + Duration::from_secs(30)).as_millis() as i64;
    let mut warned_at = 0;
    loop {
        let now = store.now_ms();
        if now - warned_at >= 1000 {
            warned_at = now;
            if let Err(e) = store
                .queue_deadline_warnings(now, live.deadline_soon.as_millis() as i64)
                .await
            {
                tracing::warn!(error = %e, "queueing deadline_soon notices failed");
            }
        }
        let free = slots.available_permits() as i64;
        let taken = if free > 0 {
            match store.take_deliveries(now, lease_ms, free).await {
                Ok(taken) => taken,
                Err(e) => {
                    tracing::warn!(error = %e, "reading the webhook outbox failed");
                    Vec::new()
                }
            }
        } else {
            Vec::new()
        };
        let full = !taken.is_empty() && taken.len() as i64 == free;
        for delivery in taken {
            let permit = slots.clone().acquire_owned().await.expect("never closed");
            let (store, client, live) = (store.clone(), client.clone(), live.clone());
            actix_web::rt::spawn(async move {
                attempt(&store, &client, &live, delivery).await;
                drop(permit);
            });
        }
        if full {
            continue;
        }
        // Sleep until the next retry is due, a notice arrives, or a second has passed.
        let due = store.next_delivery_due().await.ok().flatten();
        let wait = due
            .map(|d| Duration::from_millis((d - store.now_ms()).max(0) as u64))
            .unwrap_or(Duration::from_secs(1))
            .clamp(Duration::from_millis(10), Duration::from_secs(1));
        tokio::select! {
            _ = store.outbox_woken() => {}
            _ = tokio::time::sleep(wait) => {}
        }
    }
}

async fn attempt(store: &Store, client: &awc::Client, live: &Live, d: Delivery) {
    let outcome = send(client, live, &d).await;
    let recorded = match outcome {
        Ok(()) => store.delivery_succeeded(d.id).await,
        Err(error) => {
            let retry_at = (d.attempt < live.max_attempts)
                .then(|| store.now_ms() + backoff(live.retry_base, d.attempt).as_millis() as i64);
            tracing::info!(delivery = %d.delivery_id, attempt = d.attempt, %error, "webhook delivery failed");
            store.delivery_failed(d.id, &error, retry_at).await
        }
    };
    if let Err(e) = recorded {
        // The lease runs out and the delivery is tried again: at least once.
        tracing::warn!(error = %e, delivery = %d.delivery_id, "recording a delivery failed");
    }
}

async fn send(client: &awc::Client, live: &Live, d: &Delivery) -> Result<(), String> {
    targets::check_delivery(&d.url, live.allow_private).await?;
    let timestamp = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |t| t.as_secs());
    let body = d.body.clone().into_bytes();
    let response = client
        .post(&d.url)
        .insert_header(("Content-Type", "application/json"))
        .insert_header(("Baumeister-Delivery", d.delivery_id.as_str()))
        .insert_header(("Baumeister-Event", d.kind.as_str()))
        .insert_header(("Baumeister-Attempt", d.attempt.to_string()))
        .insert_header((
            "Baumeister-Signature",
            sign::signature(&d.secret, timestamp, &body),
        ))
        .send_body(body)
        .await
        .map_err(|e| format!("request failed: {e}"))?;
    let status = response.status();
    if status.is_success() {
        Ok(())
    } else {
        Err(format!("the receiver answered {}", status.as_u16()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_an_hour() {
        let base = Duration::from_secs(10);
        assert_eq!(backoff(base, 1), Duration::from_secs(10));
        assert_eq!(backoff(base, 2), Duration::from_secs(20));
        assert_eq!(backoff(base, 5), Duration::from_secs(160));
        assert_eq!(backoff(base, 12), MAX_BACKOFF);
        assert_eq!(backoff(base, 1000), MAX_BACKOFF);
    }
}
