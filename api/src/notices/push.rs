//! Sending one push (RFC 8030): the notice written out as JSON for the service worker
//! (`api/web/sw.js`), encrypted to the device (RFC 8291), with a VAPID token (RFC 8292). The
//! endpoint is a URL a user gave, so it gets what a webhook's does: only public addresses
//! unless the operator allows others, resolved once and connected to as checked, no redirects.

use std::time::{SystemTime, UNIX_EPOCH};

use actix_web::web::Bytes;
use baumeister_storage::PushDelivery;
use serde_json::json;

use crate::config::Live;
use crate::live::failure::Failure;
use crate::live::targets;
use crate::notices::encrypt;
use crate::notices::texts;
use crate::notices::vapid::Vapid;

/// How a push went.
#[derive(Debug, PartialEq, Eq)]
pub enum Pushed {
    Accepted,
    /// The push service says the subscription is gone (404 or 410): drop it.
    Gone,
    /// Worth trying again (a connection failure, a timeout, 429, a 5xx).
    Retry(Failure),
    /// Refused for good (another 4xx, a message that cannot be encrypted).
    Refused(String),
}

/// How long a push service keeps a message for a device that is offline.
const TTL_SECONDS: u32 = 24 * 3600;

/// The message the service worker shows.
pub fn payload(d: &PushDelivery, public_url: &str) -> Vec<u8> {
    let written = texts::write(&d.item.kind, &d.item.body, d.language, public_url);
    json!({
        "title": written.title,
        "body": written.line,
        "url": written.url,
        // One notification per game on the device: a newer one replaces it.
        "tag": d.item.game_id.map(|g| format!("game-{g}")).unwrap_or_else(|| d.item.kind.clone()),
        "kind": d.item.kind,
    })
    .to_string()
    .into_bytes()
}

pub async fn send(
    client: &awc::Client,
    live: &Live,
    vapid: &Vapid,
    public_url: &str,
    d: &PushDelivery,
) -> Pushed {
    let body = match encrypt::encrypt(&payload(d, public_url), &d.p256dh, &d.auth) {
        Ok(body) => Bytes::from(body),
        Err(e) => return Pushed::Refused(format!("{e:?}")),
    };
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |t| t.as_secs());
    let authorization = match vapid.authorization(&d.endpoint, now) {
        Ok(a) => a,
        Err(e) => return Pushed::Refused(e),
    };
    let addresses = match targets::resolve(&d.endpoint, live.allow_private, &live.resolver).await {
        Ok(addresses) => addresses,
        Err(failure) => return Pushed::Retry(failure),
    };
    let mut failure = Failure::Connection;
    for address in addresses {
        let mut request = client
            .post(&d.endpoint)
            .address(address)
            .insert_header(("Content-Type", "application/octet-stream"))
            .insert_header(("Content-Encoding", "aes128gcm"))
            .insert_header(("TTL", TTL_SECONDS.to_string()))
            .insert_header(("Authorization", authorization.as_str()))
            .insert_header((
                "Urgency",
                if d.item.kind == "your_turn" || d.item.kind == "deadline_soon" {
                    "high"
                } else {
                    "normal"
                },
            ));
        if let Some(game) = d.item.game_id {
            // A push service keeps only the newest message of a topic for an offline device.
            request = request.insert_header(("Topic", format!("game-{game}")));
        }
        match request.send_body(body.clone()).await {
            Ok(response) => {
                let status = response.status().as_u16();
                return match status {
                    200..=299 => Pushed::Accepted,
                    404 | 410 => Pushed::Gone,
                    429 | 500..=599 => Pushed::Retry(Failure::Status(status)),
                    _ => Pushed::Refused(format!("status {status}")),
                };
            }
            Err(e) => {
                tracing::info!(notice = d.item.id, %address, error = %e, "push attempt failed");
                failure = Failure::of(&e);
                if !matches!(e, awc::error::SendRequestError::Connect(_)) {
                    break;
                }
            }
        }
    }
    Pushed::Retry(failure)
}
