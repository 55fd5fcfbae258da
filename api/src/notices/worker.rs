//! The notice worker: one per server process, beside the webhook worker. It sends the due
//! confirmation mails, each account's due mail (one message, or a digest when the account
//! asked for one every N hours, or when several notices are due at once) and the due pushes;
//! retries failures with exponential backoff; drops the push subscriptions the push service
//! says are gone. Bounded: a `your_turn` is left out when the game no longer waits for the
//! account, or when one for the same game went to the same mailbox or device within the
//! window or is still on its way there (so a slow push service cannot let a second through).
//! Woken by the live notice of every append that queued notices, and at least every second.

use std::cell::Cell;
use std::collections::HashSet;
use std::rc::Rc;
use std::time::Duration;

use baumeister_storage::{ConfirmationMail, MailBatch, NoticeItem, PushDelivery, Store};

use crate::config::{Live, Notices};
use crate::live::worker::backoff;
use crate::notices::mail::Mailer;
use crate::notices::push::{self, Pushed};

/// Sends under way at once, per process.
const IN_FLIGHT: usize = 16;

/// What every send needs.
struct Senders {
    store: Store,
    notices: Notices,
    live: Live,
    mailer: Option<Mailer>,
    client: awc::Client,
}

impl Senders {
    /// When to try again after the `attempt`th failure, if at all.
    fn retry_at(&self, attempt: i32) -> Option<i64> {
        (attempt < self.notices.max_attempts).then(|| {
            self.store.now_ms() + backoff(self.notices.retry_base, attempt).as_millis() as i64
        })
    }
}

/// Runs forever; spawn it on the server's runtime (it uses the non-`Send` HTTP client).
pub async fn run(store: Store, notices: Notices, live: Live) {
    let mailer = match &notices.smtp_url {
        Some(url) => match Mailer::new(url, &notices.mail_from, &notices.public_url) {
            Ok(mailer) => Some(mailer),
            Err(e) => {
                tracing::error!(error = %e, "no mail is sent");
                None
            }
        },
        None => None,
    };
    let senders = Rc::new(Senders {
        client: crate::live::worker::client(&live),
        store,
        notices,
        live,
        mailer,
    });
    let in_flight = Rc::new(Cell::new(0usize));
    let lease_ms = (senders.live.timeout + Duration::from_secs(60)).as_millis() as i64;
    let window_ms = senders.notices.turn_window.as_millis() as i64;
    loop {
        let store = &senders.store;
        let now = store.now_ms();
        let free = |in_flight: &Rc<Cell<usize>>| IN_FLIGHT.saturating_sub(in_flight.get()) as i64;
        if senders.mailer.is_some() && free(&in_flight) > 0 {
            match store
                .take_confirmations(now, lease_ms, free(&in_flight))
                .await
            {
                Ok(taken) => {
                    for mail in taken {
                        spawn(&in_flight, confirm(senders.clone(), mail));
                    }
                }
                Err(e) => tracing::warn!(error = %e, "reading the notice outbox failed"),
            }
            match store
                .take_mail(now, lease_ms, window_ms, free(&in_flight))
                .await
            {
                Ok(taken) => {
                    for batch in taken {
                        spawn(&in_flight, mail(senders.clone(), batch));
                    }
                }
                Err(e) => tracing::warn!(error = %e, "reading the notice outbox failed"),
            }
        }
        if free(&in_flight) > 0 {
            match store
                .take_pushes(now, lease_ms, window_ms, free(&in_flight))
                .await
            {
                Ok(taken) => {
                    for delivery in taken {
                        spawn(&in_flight, push(senders.clone(), delivery));
                    }
                }
                Err(e) => tracing::warn!(error = %e, "reading the notice outbox failed"),
            }
        }
        let due = store
            .next_notice_due(senders.mailer.is_some())
            .await
            .ok()
            .flatten();
        let wait = due
            .map(|d| Duration::from_millis((d - store.now_ms()).max(0) as u64))
            .unwrap_or(Duration::from_secs(1))
            .clamp(Duration::from_millis(20), Duration::from_secs(1));
        tokio::select! {
            _ = store.notices_woken() => {}
            _ = tokio::time::sleep(wait) => {}
        }
    }
}

/// Runs a send, counted while under way.
fn spawn(in_flight: &Rc<Cell<usize>>, send: impl std::future::Future<Output = ()> + 'static) {
    in_flight.set(in_flight.get() + 1);
    let in_flight = in_flight.clone();
    actix_web::rt::spawn(async move {
        send.await;
        in_flight.set(in_flight.get() - 1);
    });
}

fn record(result: baumeister_storage::Result<()>, what: &str) {
    if let Err(e) = result {
        // The lease runs out and it is tried again: at least once.
        tracing::warn!(error = %e, what, "recording a notice failed");
    }
}

async fn confirm(s: Rc<Senders>, c: ConfirmationMail) {
    let Some(mailer) = &s.mailer else { return };
    let sent = match mailer.confirmation(&c.address, &c.token, c.language) {
        Ok(message) => mailer.send(message).await,
        Err(e) => Err(e),
    };
    let now = s.store.now_ms();
    let result = match sent {
        Ok(()) => s.store.notice_sent(c.id, now, false).await,
        Err(e) => {
            tracing::info!(notice = c.id, error = ?e, "confirmation mail failed");
            let retry = if e.permanent() {
                None
            } else {
                s.retry_at(c.attempt)
            };
            s.store
                .notice_failed(c.id, &e.to_string(), now, retry)
                .await
        }
    };
    record(result, "confirmation mail");
}

/// Which of a batch's notices go out: all but the `your_turn`s over the bound, and one
/// `your_turn` per game (the first).
pub fn bounded(items: &[NoticeItem]) -> (Vec<&NoticeItem>, Vec<i64>) {
    let mut games = HashSet::new();
    let mut send = Vec::new();
    let mut skip = Vec::new();
    for item in items {
        let repeated = item.kind == "your_turn" && !games.insert(item.game_id);
        if item.over_bound || repeated {
            skip.push(item.id);
        } else {
            send.push(item);
        }
    }
    (send, skip)
}

async fn mail(s: Rc<Senders>, batch: MailBatch) {
    let Some(mailer) = &s.mailer else { return };
    let (send, skipped) = bounded(&batch.items);
    let now = s.store.now_ms();
    if send.is_empty() {
        record(
            s.store
                .mail_sent(batch.account, &[], &skipped, now, now)
                .await,
            "mail",
        );
        return;
    }
    let sent = match mailer.notices(&batch, &send) {
        Ok(message) => mailer.send(message).await,
        Err(e) => Err(e),
    };
    let now = s.store.now_ms();
    let ids: Vec<i64> = send.iter().map(|i| i.id).collect();
    let result = match sent {
        Ok(()) => {
            let next = now + i64::from(batch.every_hours) * 3_600_000;
            s.store
                .mail_sent(batch.account, &ids, &skipped, now, next)
                .await
        }
        Err(e) => {
            tracing::info!(account = batch.account, error = ?e, "notice mail failed");
            let attempt = send.iter().map(|i| i.attempt).max().unwrap_or(1);
            let retry = if e.permanent() {
                None
            } else {
                s.retry_at(attempt)
            };
            s.store
                .mail_failed(batch.account, &ids, &e.to_string(), now, retry)
                .await
        }
    };
    record(result, "mail");
}

async fn push(s: Rc<Senders>, d: PushDelivery) {
    let now = s.store.now_ms();
    if d.item.over_bound {
        record(s.store.notice_sent(d.item.id, now, true).await, "push");
        return;
    }
    let pushed = tokio::time::timeout(
        s.live.timeout,
        push::send(
            &s.client,
            &s.live,
            &s.notices.vapid,
            &s.notices.public_url,
            &d,
        ),
    )
    .await
    .unwrap_or(Pushed::Retry(crate::live::failure::Failure::Timeout));
    let now = s.store.now_ms();
    let result = match pushed {
        Pushed::Accepted => s.store.notice_sent(d.item.id, now, false).await,
        Pushed::Gone => s.store.push_subscription_gone(d.subscription_id).await,
        Pushed::Retry(failure) => {
            let retry = s.retry_at(d.item.attempt);
            s.store
                .notice_failed(d.item.id, &failure.to_string(), now, retry)
                .await
        }
        Pushed::Refused(why) => s.store.notice_failed(d.item.id, &why, now, None).await,
    };
    record(result, "push");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(id: i64, kind: &str, game: i64, over_bound: bool) -> NoticeItem {
        NoticeItem {
            id,
            kind: kind.into(),
            game_id: Some(game),
            body: serde_json::Value::Null,
            attempt: 1,
            over_bound,
        }
    }

    #[test]
    fn one_your_turn_per_game_and_none_over_the_bound() {
        let items = [
            item(1, "your_turn", 7, false),
            item(2, "your_turn", 7, false),
            item(3, "game_finished", 7, false),
            item(4, "your_turn", 8, true),
            item(5, "your_turn", 9, false),
        ];
        let (send, skip) = bounded(&items);
        let sent: Vec<i64> = send.iter().map(|i| i.id).collect();
        assert_eq!(sent, [1, 3, 5]);
        assert_eq!(skip, [2, 4]);
    }
}
