//! The webhook worker: one per server process. It sends the outbox's due deliveries (several
//! processes share the outbox safely: a delivery is taken by one at a time), retries failures
//! with exponential backoff, and queues `deadline_soon` notices. Woken by the live notice of
//! every append that queued deliveries, when one of its attempts ends, and at the latest every
//! second.
//!
//! Deliveries are shared fairly between accounts: at most [`PER_ACCOUNT`] attempts per account
//! are under way at once in a process, and a free slot goes to the account with the fewest under
//! way (round robin), so receivers that stall until the timeout hold up their own account's
//! deliveries and nobody else's.
//!
//! An attempt resolves the host once, checks every address (`targets::resolve`) and connects
//! to one of exactly those addresses, sending the URL's own host in `Host` and TLS's SNI; the
//! HTTP client's own resolver refuses every name, so nothing connects to an address that was
//! not checked. The lookup counts against the attempt's timeout.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use actix_web::web::Bytes;
use baumeister_storage::{Delivery, Store};
use tokio::sync::Notify;

use crate::config::Live;
use crate::live::failure::Failure;
use crate::live::{sign, targets};

/// Attempts under way at once, per process.
const IN_FLIGHT: usize = 16;

/// Attempts under way at once for one account's webhooks, per process: an account with ten
/// stalled receivers holds two of the sixteen slots.
pub const PER_ACCOUNT: usize = 2;

/// The longest pause between two attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(3600);

/// The pause after the `attempt`th failed attempt: `base`, doubled each time, at most an hour.
pub fn backoff(base: Duration, attempt: i32) -> Duration {
    let doublings = attempt.clamp(1, 30) as u32 - 1;
    base.saturating_mul(1 << doublings).min(MAX_BACKOFF)
}

/// The attempts under way in this process, in all and per account.
#[derive(Default)]
struct InFlight {
    total: usize,
    per_account: HashMap<i64, usize>,
}

/// One attempt under way; counted until dropped.
struct Slot {
    in_flight: Rc<RefCell<InFlight>>,
    account: i64,
    freed: Rc<Notify>,
}

impl Slot {
    fn take(in_flight: &Rc<RefCell<InFlight>>, account: i64, freed: &Rc<Notify>) -> Slot {
        let mut f = in_flight.borrow_mut();
        f.total += 1;
        *f.per_account.entry(account).or_default() += 1;
        Slot {
            in_flight: in_flight.clone(),
            account,
            freed: freed.clone(),
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut f = self.in_flight.borrow_mut();
        f.total -= 1;
        if let Some(n) = f.per_account.get_mut(&self.account) {
            *n -= 1;
            if *n == 0 {
                f.per_account.remove(&self.account);
            }
        }
        self.freed.notify_one();
    }
}

/// An HTTP client that never resolves a name itself (it is told the address to connect to)
/// and never follows a redirect.
pub(crate) fn client(live: &Live) -> awc::Client {
    let connector = awc::Connector::new()
        .connector(
            actix_tls::connect::Connector::new(actix_tls::connect::Resolver::custom(Unpinned))
                .service(),
        )
        .timeout(live.timeout);
    awc::Client::builder()
        .connector(connector)
        .timeout(live.timeout)
        .disable_redirects()
        .add_default_header(("User-Agent", "Baumeister-Webhooks/1"))
        .finish()
}

/// The HTTP client's resolver: refuses, since every request names its checked address.
struct Unpinned;

impl actix_tls::connect::Resolve for Unpinned {
    fn lookup<'a>(
        &'a self,
        host: &'a str,
        _: u16,
    ) -> futures_core::future::LocalBoxFuture<
        'a,
        Result<Vec<std::net::SocketAddr>, Box<dyn std::error::Error>>,
    > {
        let error = format!("{host}: a webhook connects only to an address it checked");
        Box::pin(async move { Err(error.into()) })
    }
}

/// Runs forever; spawn it on the server's runtime (it uses the non-`Send` HTTP client).
pub async fn run(store: Store, live: Live) {
    let client = Rc::new(client(&live));
    let in_flight = Rc::new(RefCell::new(InFlight::default()));
    let freed = Rc::new(Notify::new());
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
        let (free, busy) = {
            let f = in_flight.borrow();
            let busy: Vec<(i64, i64)> =
                f.per_account.iter().map(|(&a, &n)| (a, n as i64)).collect();
            (IN_FLIGHT - f.total, busy)
        };
        let taken = if free > 0 {
            match store
                .take_deliveries(now, lease_ms, free as i64, PER_ACCOUNT as i64, &busy)
                .await
            {
                Ok(taken) => taken,
                Err(e) => {
                    tracing::warn!(error = %e, "reading the webhook outbox failed");
                    Vec::new()
                }
            }
        } else {
            Vec::new()
        };
        let full = !taken.is_empty() && taken.len() == free;
        for delivery in taken {
            let slot = Slot::take(&in_flight, delivery.account, &freed);
            let (store, client, live) = (store.clone(), client.clone(), live.clone());
            actix_web::rt::spawn(async move {
                attempt(&store, &client, &live, delivery).await;
                drop(slot);
            });
        }
        if full {
            continue;
        }
        // Sleep until the next retry is due, a notice arrives, an attempt ends (its account
        // may have more waiting) or a second has passed.
        let due = store.next_delivery_due().await.ok().flatten();
        let wait = due
            .map(|d| Duration::from_millis((d - store.now_ms()).max(0) as u64))
            .unwrap_or(Duration::from_secs(1))
            .clamp(Duration::from_millis(10), Duration::from_secs(1));
        tokio::select! {
            _ = store.outbox_woken() => {}
            _ = freed.notified() => {}
            _ = tokio::time::sleep(wait) => {}
        }
    }
}

async fn attempt(store: &Store, client: &awc::Client, live: &Live, d: Delivery) {
    // One timeout for all of it: the lookup, connecting, the request and the answer's head.
    let outcome = tokio::time::timeout(live.timeout, send(client, live, &d))
        .await
        .unwrap_or(Err(Failure::Timeout));
    let recorded = match outcome {
        Ok(()) => store.delivery_succeeded(d.id).await,
        Err(failure) => {
            let retry_at = (d.attempt < live.max_attempts)
                .then(|| store.now_ms() + backoff(live.retry_base, d.attempt).as_millis() as i64);
            tracing::info!(delivery = %d.delivery_id, attempt = d.attempt, %failure, "webhook delivery failed");
            store
                .delivery_failed(d.id, &failure.to_string(), retry_at)
                .await
        }
    };
    if let Err(e) = recorded {
        // The lease runs out and the delivery is tried again: at least once.
        tracing::warn!(error = %e, delivery = %d.delivery_id, "recording a delivery failed");
    }
}

async fn send(client: &awc::Client, live: &Live, d: &Delivery) -> Result<(), Failure> {
    let addresses = targets::resolve(&d.url, live.allow_private, &live.resolver).await?;
    let timestamp = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |t| t.as_secs());
    let body = Bytes::from(d.body.clone());
    let signature = sign::signature(&d.secret, timestamp, &body);
    let mut failure = Failure::Connection;
    // The addresses in the resolver's order; the next only when one cannot be connected to.
    for address in addresses {
        let sent = client
            .post(&d.url)
            .address(address)
            .insert_header(("Content-Type", "application/json"))
            .insert_header(("Baumeister-Delivery", d.delivery_id.as_str()))
            .insert_header(("Baumeister-Event", d.kind.as_str()))
            .insert_header(("Baumeister-Attempt", d.attempt.to_string()))
            .insert_header(("Baumeister-Signature", signature.as_str()))
            .send_body(body.clone())
            .await;
        match sent {
            Ok(response) if response.status().is_success() => return Ok(()),
            Ok(response) => return Err(Failure::Status(response.status().as_u16())),
            Err(e) => {
                // The raw error is the operator's to read, not the webhook owner's.
                tracing::info!(delivery = %d.delivery_id, %address, error = %e, "webhook attempt failed");
                failure = Failure::of(&e);
                if !matches!(e, awc::error::SendRequestError::Connect(_)) {
                    break;
                }
            }
        }
    }
    Err(failure)
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
